//! A campaign's wording in the interface language: the task's default texts (METHOD §1, in
//! [`Text`]) translated; texts the organizer wrote stay as written. Beside `i18n`, not in it: the
//! defaults are the protocol's catalog keys (`protocol::for_task(..).catalog()`), and the
//! protocols name `i18n`'s keys, so `i18n` depends on no protocol.

use crate::i18n::{Lang, Text, fill};
use crate::model::TaskKind;
use crate::settings::Wording;

/// The default wording of `task` in `lang`, naming the languages as given.
pub fn default_wording(task: TaskKind, lang: Lang, target: &str, source: &str) -> Wording {
    let t = |x: Text| fill(lang.text(x), &[("target", target), ("source", source)]);
    let catalog = crate::protocol::for_task(task).catalog();
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
    if lang == Lang::En {
        return stored;
    }
    let english = Wording::for_task(task, target_name, source_name);
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
