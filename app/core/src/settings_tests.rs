use super::*;

/// An upgrade changes no campaign's results: a design stored before the choice for workers
/// with too few pairs existed leaves them out, as analysis did then; a design that names it
/// keeps its choice; a new design keeps them (nothing paid for is lost).
#[test]
fn designs_stored_without_the_thin_evidence_choice_leave_such_workers_out_as_before() {
    assert_eq!(CampaignSettings::read("{}", TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Exclude);
    assert_eq!(CampaignSettings::read(r#"{"items_per_hit": 50}"#, TaskKind::Esa, "German", "English").thin_evidence, ThinEvidence::Exclude);
    assert_eq!(CampaignSettings::read(r#"{"thin_evidence": "keep"}"#, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Keep);
    assert_eq!(CampaignSettings::read(r#"{"thin_evidence": "hold"}"#, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Hold);
    let new = CampaignSettings::for_task(TaskKind::DaAdequacy, "German", "English");
    assert_eq!(new.thin_evidence, ThinEvidence::Keep);
    let stored = serde_json::to_string(&new).unwrap();
    assert_eq!(CampaignSettings::read(&stored, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Keep);
}

#[test]
fn defaults_follow_the_method() {
    let s = CampaignSettings::default();
    assert_eq!((s.hit_length, s.bad_refs, s.repeats, s.refs, s.sets), (100, 10, 10, 10, 10));
    assert_eq!(s.system_items(TaskKind::DaAdequacy), 70);
    assert_eq!(s.seconds_per_judgment(TaskKind::DaFluency), 13.0);
    assert_eq!(s.seconds_per_judgment(TaskKind::DaAdequacy), 18.0);
    let f = CampaignSettings::for_task(TaskKind::DaFluency, "German", "English");
    assert!(f.wording.statement.ends_with("agree that: the text is fluent German."), "{}", f.wording.statement);
    let w = CampaignSettings::for_task(TaskKind::WordOrder, "English", "Czech");
    assert_eq!(w.hit_length, 50);
    assert_eq!(w.system_items(TaskKind::WordOrder), 25);
    assert!(w.wording.instructions.contains("Czech"));
}

#[test]
fn settings_json_uses_the_agreed_keys_and_reads_partial_json() {
    let v = serde_json::to_value(CampaignSettings::default()).unwrap();
    for key in ["statement", "instructions", "anchor_low", "anchor_high", "woj_question1", "woj_question2",
        "woj_low1", "woj_high1", "woj_low2", "woj_high2", "next_label"] {
        assert!(v["wording"][key].is_string(), "wording.{key}");
    }
    for key in ["label_source", "label_reference", "label_candidate"] {
        assert!(v["wording"][key].is_string(), "wording.{key}");
    }
    assert_eq!((v["practice_items"].as_u64(), v["practice_pass"].as_u64(), v["idle_gap_seconds"].as_i64()), (Some(0), Some(0), Some(30)));
    assert_eq!(v["woj_scale"], "boxes");
    assert_eq!(v["allow_skip"], false);
    assert!(v["target_language"].is_string() && v["source_language_name"].is_string());
    let partial: CampaignSettings = serde_json::from_str(r#"{"redundancy": 3, "wording": {"next_label": "Weiter"}}"#).unwrap();
    assert_eq!(partial.redundancy, 3);
    assert_eq!(partial.wording.next_label, "Weiter");
    assert_eq!(partial.wording.anchor_low, "strongly disagree");
    assert_eq!(partial.hit_length, 100);
}

#[test]
fn implications_count_hits_workers_cost_and_time() {
    let mut s = CampaignSettings { judgments_wanted: 140, redundancy: 3, payment_per_hit: 2.5, ..Default::default() };
    // 4 systems × 140 = 560 system items / 70 per HIT = 8 HITs.
    let i = s.implications(TaskKind::DaAdequacy, 4, 1000);
    assert_eq!(i.hits, 8);
    assert_eq!(i.assignments, 24);
    assert_eq!(i.workers_needed, 3);
    assert!((i.cost - 60.0).abs() < 1e-9);
    assert!((i.minutes_per_hit - 30.0).abs() < 1e-9);
    assert!((i.judgments_per_system - 420.0).abs() < 1e-9);
    assert!((i.total_hours - 12.0).abs() < 1e-9);
    s.wanted_per = WantedPer::Segment;
    s.judgments_wanted = 1;
    // 1 judgment per output, 35 outputs per system, 4 systems → 140 / 70 = 2 HITs.
    assert_eq!(s.implications(TaskKind::DaAdequacy, 4, 35).hits, 2);
    assert_eq!(s.implications(TaskKind::DaAdequacy, 0, 35).hits, 0);
}

#[test]
fn document_hits_are_sized_by_time_or_by_source_words() {
    let mut s = CampaignSettings::for_task(TaskKind::Esa, "German", "English");
    assert_eq!((s.documents.hit_minutes, s.documents.seconds_per_source_word, s.documents.hit_words), (60.0, 0.8, 0));
    assert_eq!(s.documents.seconds_per_hit(), 3600.0);
    assert_eq!(s.implications(TaskKind::Esa, 2, 100).minutes_per_hit, 60.0);
    // 1,500 source words at 0.8 s: 20 minutes, whatever the minutes say.
    s.documents.hit_words = 1500;
    assert!((s.documents.seconds_per_hit() - 1200.0).abs() < 1e-9);
    let i = s.implications(TaskKind::Esa, 2, 100);
    assert!((i.minutes_per_hit - 20.0).abs() < 1e-9, "{i:?}");
    // Segments of 20 words at 0.8 s: 75 per HIT, less 10 for the two copied documents.
    assert_eq!(i.system_items_per_hit, 65);
    assert_eq!(i.hits, 200usize.div_ceil(65));
}
