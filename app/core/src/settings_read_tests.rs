use super::*;

#[test]
fn a_design_sent_without_wording_gets_its_tasks_wording() {
    let sent: CampaignSettings = serde_json::from_str(r#"{"target_language": "German", "wording": {"next_label": "Weiter"}}"#).unwrap();
    let ranking = sent.clone().with_task_wording(TaskKind::Ranking);
    assert_eq!(ranking.wording.statement, "Rank the translations from best to worst (ties are allowed).");
    assert_eq!(ranking.wording.next_label, "Weiter", "what the organizer wrote stays");
    let fluency = sent.clone().with_task_wording(TaskKind::DaFluency);
    assert!(fluency.wording.statement.ends_with("the text is fluent German."), "{}", fluency.wording.statement);
    assert_eq!(sent.clone().with_task_wording(TaskKind::DaAdequacy), sent);
}

#[test]
fn read_takes_the_task_defaults_and_every_well_formed_field() {
    // Nothing stored, or not JSON: the task's defaults.
    let wo = CampaignSettings::read("", TaskKind::WordOrder, "English", "Czech");
    assert_eq!(wo, CampaignSettings::for_task(TaskKind::WordOrder, "English", "Czech"));
    assert_eq!(CampaignSettings::read("[1]", TaskKind::DaFluency, "German", "English").hit_length, 100);
    // Fields that read well are taken, the others keep their defaults, one by one.
    let s = CampaignSettings::read(
        r#"{"hit_length": 60, "redundancy": "three", "degradation": "shuffle", "payment_currency": "EUR",
                "wording": {"next_label": " Weiter ", "anchor_low": "", "statement": 7, "unknown": "x"},
                "woj_scale": "sliders", "allow_skip": true, "no_such_field": 1}"#,
        TaskKind::DaFluency,
        "German",
        "English",
    );
    assert_eq!(s.hit_length, 60);
    assert_eq!(s.redundancy, 1, "a number field given as text keeps its default");
    assert_eq!(s.degradation, DegradationPolicy::Delete, "an unknown policy keeps the default");
    assert_eq!(s.payment_currency, "EUR");
    assert_eq!(s.wording.next_label, "Weiter");
    assert_eq!(s.wording.anchor_low, "strongly disagree", "a blank text keeps its default");
    assert!(s.wording.statement.ends_with("the text is fluent German."), "{}", s.wording.statement);
    assert_eq!(s.word_order.scale, "sliders");
    assert!(s.allow_skip);
    // Word order keeps its own defaults where the JSON is silent.
    let w = CampaignSettings::read(r#"{"redundancy": 2}"#, TaskKind::WordOrder, "English", "Czech");
    assert_eq!((w.hit_length, w.redundancy, w.word_order.permutations), (50, 2, 25));
    assert!(w.wording.instructions.contains("Czech"));
}

#[test]
fn read_gives_back_stored_settings_whole_or_field_by_field() {
    // Settings as a campaign stores them (every field, all well formed) read back as they
    // were: the reading of every field at once.
    let mut stored = CampaignSettings::for_task(TaskKind::Mqm, "German", "English");
    stored.hit_length = 40;
    stored.redundancy = 3;
    stored.practice_pass = 2;
    stored.mqm.taxonomy = crate::protocol::mqm::Taxonomy::parse("Accuracy/Omission\nOther").unwrap();
    stored.mqm.critical = true;
    stored.wording.next_label = "Weiter".into();
    let json = serde_json::to_string(&stored).unwrap();
    assert_eq!(CampaignSettings::read(&json, TaskKind::Mqm, "German", "English"), stored);
    // A field that does not read (MQM's, with a category given twice) keeps its default and
    // the others are still taken: the field by field reading.
    let mut value = serde_json::to_value(&stored).unwrap();
    value["mqm"]["taxonomy"] = serde_json::json!(["Other", "other"]);
    let s = CampaignSettings::read(&value.to_string(), TaskKind::Mqm, "German", "English");
    assert_eq!(s.mqm, crate::protocol::mqm::MqmSettings::default());
    assert_eq!((s.hit_length, s.redundancy, s.practice_pass), (40, 3, 2));
    assert_eq!(s.wording.next_label, "Weiter");
}
