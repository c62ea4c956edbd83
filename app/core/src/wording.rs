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
mod tests {
    use super::*;

    #[test]
    fn the_english_catalog_is_the_settings_default_wording() {
        // The stored defaults are recognised only if the catalog's English is the same text.
        for task in TaskKind::ALL {
            assert_eq!(default_wording(task, Lang::En, "German", "Czech"), Wording::for_task(task, "German", "Czech"), "{task:?}");
        }
    }

    #[test]
    fn a_campaign_stored_with_an_earlier_default_reads_todays() {
        let today = Wording::for_task(TaskKind::Ranking, "German", "English");
        let earlier = Wording { instructions: today.instructions.replace("press its rank (1 for the best)", "press its rank (1 to 5)"), ..today.clone() };
        assert_ne!(earlier, today);
        let en = localize(earlier.clone(), TaskKind::Ranking, Lang::En, ("de", "German"), ("en", "English"));
        assert_eq!(en.instructions, today.instructions);
        let de = localize(earlier.clone(), TaskKind::Ranking, Lang::De, ("de", "German"), ("en", "English"));
        assert!(de.instructions.contains("1 für die beste"), "{}", de.instructions);
        // An organizer's own text that says it stays as written.
        let own = Wording { instructions: "Rank them; press its rank (1 to 5).".into(), ..today };
        assert_eq!(localize(own.clone(), TaskKind::Ranking, Lang::De, ("de", "German"), ("en", "English")).instructions, own.instructions);
    }

    #[test]
    fn the_stored_english_defaults_are_methods_texts_naming_the_languages() {
        // The defaults come from the English catalog (one place): METHOD §1's texts, filled in.
        let fluency = Wording::for_task(TaskKind::DaFluency, "German", "Czech");
        assert_eq!(fluency.statement, "Read the text below and rate it by how much you agree that: the text is fluent German.");
        assert_eq!((fluency.anchor_low.as_str(), fluency.anchor_high.as_str()), ("strongly disagree", "strongly agree"));
        assert_eq!((fluency.next_label.as_str(), fluency.label_candidate.as_str()), ("Next", "Candidate translation"));
        let esa = Wording::for_task(TaskKind::Esa, "German", "Czech");
        assert!(esa.instructions.starts_with("You will read documents in Czech with their translation into German"), "{}", esa.instructions);
        assert_eq!((esa.anchor_low.as_str(), esa.anchor_high.as_str()), ("No meaning preserved", "Perfect translation"));
        assert!(Wording::for_task(TaskKind::WordOrder, "German", "Czech").statement.is_empty(), "word order has no statement");
        for task in TaskKind::ALL {
            let w = Wording::for_task(task, "German", "Czech");
            assert!(!w.instructions.is_empty() && !w.instructions.contains('{'), "{task:?}: {}", w.instructions);
        }
        assert_eq!(Wording::default(), Wording::for_task(TaskKind::DaAdequacy, "English", "English"));
    }

    #[test]
    fn defaults_are_translated_and_the_organizers_texts_kept() {
        let mut stored = Wording::for_task(TaskKind::DaFluency, "German", "English");
        stored.anchor_high = "völlig einverstanden".into();
        let w = localize(stored, TaskKind::DaFluency, Lang::De, ("de", "German"), ("en", "English"));
        assert!(w.statement.ends_with("Der Text ist flüssiges Deutsch."), "{}", w.statement);
        assert_eq!(w.anchor_low, "stimme überhaupt nicht zu");
        assert_eq!(w.anchor_high, "völlig einverstanden", "the organizer's text stays");
        assert_eq!(w.next_label, "Weiter");
        assert!(w.instructions.contains("flüssiges Deutsch"), "{}", w.instructions);
        let w = localize(Wording::for_task(TaskKind::WordOrder, "Arabic", "English"), TaskKind::WordOrder, Lang::Ar, ("ar", "Arabic"), ("en", "English"));
        assert!(w.instructions.contains("من اللغة الإنجليزية"), "{}", w.instructions);
        // A language the catalog cannot name keeps the settings' name.
        let w = localize(Wording::for_task(TaskKind::DaFluency, "Swahili", "English"), TaskKind::DaFluency, Lang::Cs, ("sw", "Swahili"), ("en", "English"));
        assert!(w.statement.ends_with("text je plynulá Swahili."), "{}", w.statement);
        // ESA and MQM too (issue 38): statement, anchors, labels, Next and instructions.
        for task in [TaskKind::Esa, TaskKind::Mqm] {
            let w = localize(Wording::for_task(task, "German", "English"), task, Lang::De, ("de", "German"), ("en", "English"));
            assert_eq!((w.next_label.as_str(), w.label_source.as_str(), w.label_candidate.as_str()), ("Weiter", "Ausgangstext", "Zu bewertende Übersetzung"));
            assert!(w.statement.starts_with("Markieren Sie jeden Fehler"), "{}", w.statement);
            assert!(w.instructions.contains("Ausgangssprache: Englisch, Zielsprache: Deutsch"), "{}", w.instructions);
        }
        let w = localize(Wording::for_task(TaskKind::Esa, "Arabic", "English"), TaskKind::Esa, Lang::Ar, ("ar", "Arabic"), ("en", "English"));
        assert_eq!((w.anchor_low.as_str(), w.anchor_high.as_str()), ("لم يُحفظ أي معنى", "ترجمة مثالية"));
        // English stays as stored.
        let stored = Wording::for_task(TaskKind::DaAdequacy, "English", "German");
        assert_eq!(localize(stored.clone(), TaskKind::DaAdequacy, Lang::En, ("en", "English"), ("de", "German")), stored);
    }
}
