use super::*;

#[test]
fn settings_default_when_missing_and_read_when_present() {
    let s = screen_settings("{}", TaskKind::DaAdequacy, "en", "German");
    assert_eq!(s.wording.anchor_low, "strongly disagree");
    assert_eq!(
        s.wording.statement,
        "Read the text below and rate it by how much you agree that: the black text adequately expresses the meaning of the gray text."
    );
    assert!(!s.allow_skip && !s.woj_sliders);
    let s = screen_settings("not json", TaskKind::DaFluency, "de", "English");
    assert!(s.wording.statement.ends_with("the text is fluent German."));
    let s = screen_settings(
        r#"{"wording":{"statement":"der Text ist flüssig.","next_label":"Weiter"},"woj_scale":"sliders","allow_skip":true,"target_language":"ar","source_language_name":"Englisch"}"#,
        TaskKind::WordOrder,
        "en",
        "x",
    );
    assert_eq!(s.wording.statement, "der Text ist flüssig.");
    assert_eq!(s.wording.next_label, "Weiter");
    assert_eq!(s.target_language, "ar");
    assert_eq!(s.source_language_name, "Englisch");
    assert!(s.allow_skip && s.woj_sliders);
    assert_eq!(direction_of("ar"), "rtl");
    assert_eq!(direction_of("he-IL"), "rtl");
    assert_eq!(direction_of("en"), "ltr");
    // `lang` is a BCP 47 tag from the test set's code, whatever name the settings give.
    assert_eq!(s.lang, "en");
    assert_eq!(screen_settings(r#"{"target_language":"العربية"}"#, TaskKind::DaFluency, "ara", "English").lang, "ar");
    assert_eq!(bcp47("pt_br"), "pt-BR");
    assert_eq!(bcp47("English"), "und");
}

#[test]
fn the_interface_language_is_the_setting_then_the_target_then_the_browser() {
    // German target: German interface, defaults translated, texts keep the target's lang.
    let s = localized_screen_settings("{}", TaskKind::DaAdequacy, "deu", "en", Some("ja"));
    assert_eq!((s.ui, s.wording_lang.as_str(), s.wording_dir.as_str(), s.lang.as_str()), (Lang::De, "de", "ltr", "de"));
    assert_eq!(s.wording.next_label, "Weiter");
    assert_eq!(s.wording.label_candidate, "Zu bewertende Übersetzung");
    assert_eq!(s.texts.len(), Msg::ALL.len());
    assert_eq!(s.texts[Msg::Start as usize], "Beginnen");
    // Arabic target: right to left.
    let s = localized_screen_settings("{}", TaskKind::WordOrder, "ar", "en", None);
    assert_eq!((s.ui.tag(), s.ui.dir(), s.wording_dir.as_str()), ("ar", "rtl", "rtl"));
    assert_eq!(s.source_language_name, "الإنجليزية");
    // A target the catalog lacks: the browser's first language the catalog has.
    let s = localized_screen_settings("{}", TaskKind::DaFluency, "fr", "en", Some("fr-FR, cs;q=0.8, en;q=0.5"));
    assert_eq!(s.ui, Lang::Cs);
    assert!(s.wording.statement.ends_with("text je plynulá francouzština."), "{}", s.wording.statement);
    assert_eq!(localized_screen_settings("{}", TaskKind::DaFluency, "fr", "en", None).ui, Lang::En);
    // The organizer's choice wins; wording the organizer wrote stays, in the target's lang.
    let s = localized_screen_settings(r#"{"interface_language":"hi","wording":{"next_label":"Suivant"}}"#, TaskKind::DaAdequacy, "fr", "en", Some("de"));
    assert_eq!((s.ui, s.wording.next_label.as_str(), s.wording_lang.as_str()), (Lang::Hi, "Suivant", "fr"));
    assert_eq!(s.wording.anchor_high, "पूरी तरह सहमत");
    // English stays English, with the English messages.
    let s = localized_screen_settings("{}", TaskKind::DaAdequacy, "en", "de", Some("de"));
    assert_eq!((s.ui, s.wording.next_label.as_str(), s.texts[Msg::Progress as usize].as_str()), (Lang::En, "Next", "{n} of {total}"));
}

#[test]
fn word_order_boxes_map_to_values() {
    assert_eq!(woj_box(0.0), Some(1));
    assert_eq!(woj_box(0.75), Some(4));
    assert_eq!(woj_box(1.0), Some(5));
    assert_eq!(woj_box(0.3), None);
}
