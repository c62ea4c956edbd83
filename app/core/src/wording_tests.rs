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
