//! A campaign's wording in the interface language: the task's default texts (METHOD §1, in
//! [`Text`]) translated; texts the organizer wrote stay as written. Beside `i18n`, not in it: the
//! defaults are the protocol's catalog keys (`protocol::for_task(..).catalog()`), and the
//! protocols name `i18n`'s keys, so `i18n` depends on no protocol.

use crate::i18n::{Lang, Text, fill};
use crate::model::TaskKind;
use crate::settings::Wording;

/// The default wording of `task` in `lang`, naming the languages as given.
pub fn default_wording(task: TaskKind, lang: Lang, target: &str, source: &str) -> Wording {
    protocol_wording(crate::protocol::for_task(task), lang, target, source)
}

/// The default wording of a protocol in `lang` (its catalog keys, [`Protocol::catalog`]),
/// naming the languages as given. In English, the default a campaign stores.
///
/// [`Protocol::catalog`]: crate::protocol::Protocol::catalog
pub fn protocol_wording(protocol: &dyn crate::protocol::Protocol, lang: Lang, target: &str, source: &str) -> Wording {
    let t = |x: Text| fill(lang.text(x), &[("target", target), ("source", source)]);
    let catalog = protocol.catalog();
    let (statement, instructions) = (catalog.wording.0.map(t).unwrap_or_default(), t(catalog.wording.1));
    let (anchor_low, anchor_high) = (t(catalog.anchors.0), t(catalog.anchors.1));
    Wording {
        statement,
        instructions,
        anchor_low,
        anchor_high,
        woj_question1: t(Text::WojQuestion1),
        woj_question2: t(Text::WojQuestion2),
        woj_low1: t(Text::WojLow1),
        woj_high1: t(Text::WojHigh1),
        woj_low2: t(Text::WojLow2),
        woj_high2: t(Text::WojHigh2),
        next_label: t(Text::Next),
        label_source: t(Text::LabelSource),
        label_reference: t(Text::LabelReference),
        label_candidate: t(Text::LabelCandidate),
    }
}

/// The name of a language (a test set's code) in `lang`: the catalog's, else `fallback` (the
/// name the campaign's settings give).
pub fn language_name(lang: Lang, code: &str, fallback: &str) -> String {
    lang.language_name(code).map_or_else(|| fallback.to_string(), str::to_string)
}

/// English defaults as they were, and as they are: ranking's instructions said "(1 to 5)"
/// whatever the campaign's number of outputs (issue 38 item 6).
const EARLIER_DEFAULTS: [(&str, &str); 1] = [("press its rank (1 to 5)", "press its rank (1 for the best)")];

/// Stored instructions that are an earlier English default: today's default; else as stored.
fn upgraded(stored: String, english: &str) -> String {
    let earlier = EARLIER_DEFAULTS.iter().fold(stored.clone(), |s, (then, now)| s.replace(then, now));
    if earlier != stored && earlier == english { earlier } else { stored }
}

/// A campaign's stored wording as the annotator reads it in `lang`: every text still at the task's English default (with the settings' language names `target_name`/`source_name`)
/// becomes the default in `lang` (with the language names of `lang` for the test set's codes
/// `target_code`/`source_code`); what the organizer wrote stays.
pub fn localize(
    stored: Wording,
    task: TaskKind,
    lang: Lang,
    (target_code, target_name): (&str, &str),
    (source_code, source_name): (&str, &str),
) -> Wording {
    let english = Wording::for_task(task, target_name, source_name);
    // A campaign stored before a default changed keeps that default: it reads as today's.
    let stored = Wording { instructions: upgraded(stored.instructions, &english.instructions), ..stored };
    if lang == Lang::En {
        return stored;
    }
    let own = default_wording(task, lang, &language_name(lang, target_code, target_name), &language_name(lang, source_code, source_name));
    let pick = |stored: String, english: String, own: String| if stored == english { own } else { stored };
    Wording {
        statement: pick(stored.statement, english.statement, own.statement),
        instructions: pick(stored.instructions, english.instructions, own.instructions),
        anchor_low: pick(stored.anchor_low, english.anchor_low, own.anchor_low),
        anchor_high: pick(stored.anchor_high, english.anchor_high, own.anchor_high),
        woj_question1: pick(stored.woj_question1, english.woj_question1, own.woj_question1),
        woj_question2: pick(stored.woj_question2, english.woj_question2, own.woj_question2),
        woj_low1: pick(stored.woj_low1, english.woj_low1, own.woj_low1),
        woj_high1: pick(stored.woj_high1, english.woj_high1, own.woj_high1),
        woj_low2: pick(stored.woj_low2, english.woj_low2, own.woj_low2),
        woj_high2: pick(stored.woj_high2, english.woj_high2, own.woj_high2),
        next_label: pick(stored.next_label, english.next_label, own.next_label),
        label_source: pick(stored.label_source, english.label_source, own.label_source),
        label_reference: pick(stored.label_reference, english.label_reference, own.label_reference),
        label_candidate: pick(stored.label_candidate, english.label_candidate, own.label_candidate),
    }
}

impl Wording {
    /// The English defaults of METHOD §1 for a task.
    pub fn for_task(task: TaskKind, target_language: &str, source_language: &str) -> Wording {
        Wording::of(crate::protocol::for_task(task), target_language, source_language)
    }

    /// The English defaults of a protocol: its catalog's texts in English (one place for
    /// them, `i18n::en`), naming the test set's languages.
    pub fn of(protocol: &dyn crate::protocol::Protocol, target_language: &str, source_language: &str) -> Wording {
        protocol_wording(protocol, crate::i18n::Lang::En, target_language, source_language)
    }
}

#[cfg(test)]
#[path = "wording_tests.rs"]
mod tests;
