use super::*;

/// Settings JSON as campaigns stored it before each protocol had its own struct (every key
/// of the flat struct of 44 fields, the protocols' ones set away from their defaults).
const STORED_BEFORE: &str = r#"{
        "hit_length": 40, "bad_refs": 3, "repeats": 2, "refs": 1, "ref_item_reference": "ref-B", "sets": 4,
        "woj_permutations": 12, "woj_same_reference_pairs": 3, "woj_max_degree": 9,
        "judgments_wanted": 33, "wanted_per": "segment", "redundancy": 2, "degradation": "replace-phrase",
        "payment_per_hit": 1.5, "payment_currency": "EUR", "time_floor_seconds": 120,
        "assignment_timeout_minutes": 30, "idle_gap_seconds": 20, "seconds_per_fluency_judgment": 11.0,
        "seconds_per_adequacy_judgment": 17.0, "target_language": "German", "source_language_name": "English",
        "woj_scale": "sliders", "allow_skip": true,
        "rank_outputs": 4, "rank_blocks_per_screen": 2, "rank_show_reference": true, "rank_gold_blocks": 1,
        "rank_gold_threshold": 0.65, "rank_gold_min_pairs": 8,
        "practice_items": 4, "practice_pass": 3, "interface_language": "de", "public_title": "Übersetzungen",
        "document_context": "whole", "document_score": true, "hit_minutes": 45.0, "seconds_per_source_word": 0.9,
        "hit_words": 700, "show_prefilled": false,
        "mqm": {"taxonomy": ["Accuracy/Omission", "Other"], "critical": true},
        "wording": {"next_label": "Weiter"},
        "thin_evidence": "hold", "accept_thin_evidence": true
    }"#;

/// The flat struct's keys, as the designer sent and the database stored them.
const KEYS_BEFORE: [&str; 44] = [
    "hit_length", "bad_refs", "repeats", "refs", "ref_item_reference", "sets", "woj_permutations",
    "woj_same_reference_pairs", "woj_max_degree", "judgments_wanted", "wanted_per", "redundancy", "degradation",
    "payment_per_hit", "payment_currency", "time_floor_seconds", "assignment_timeout_minutes", "idle_gap_seconds",
    "seconds_per_fluency_judgment", "seconds_per_adequacy_judgment", "target_language", "source_language_name",
    "woj_scale", "allow_skip", "rank_outputs", "rank_blocks_per_screen", "rank_show_reference", "rank_gold_blocks",
    "rank_gold_threshold", "rank_gold_min_pairs", "practice_items", "practice_pass", "interface_language",
    "public_title", "document_context", "document_score", "hit_minutes", "seconds_per_source_word", "hit_words",
    "show_prefilled", "mqm", "wording", "thin_evidence", "accept_thin_evidence",
];

#[test]
fn settings_stored_before_the_per_protocol_structs_read_to_the_same_values() {
    for task in TaskKind::ALL {
        let s = CampaignSettings::read(STORED_BEFORE, task, "German", "English");
        assert_eq!(
            s.word_order,
            crate::protocol::word_order::WordOrderSettings { permutations: 12, same_reference_pairs: 3, max_degree: 9, scale: "sliders".into() }
        );
        assert_eq!(
            s.ranking,
            RankingSettings { outputs: 4, blocks_per_screen: 2, show_reference: true, gold_blocks: 1, gold_threshold: 0.65, gold_min_pairs: 8 }
        );
        assert_eq!(
            s.documents,
            DocumentSettings { context: DocumentContext::Whole, score: true, hit_minutes: 45.0, seconds_per_source_word: 0.9, hit_words: 700, show_prefilled: false }
        );
        // A pairwise design stored before kept its reference choice in ranking's key.
        assert_eq!(s.pairwise.show_reference, None);
        assert_eq!(s.shows_reference(task), matches!(crate::protocol::for_task(task).hit_plan(), HitPlan::Blocks | HitPlan::Pairs), "{task:?}");
        assert!(s.mqm.critical);
        assert_eq!(s.mqm.taxonomy.categories.len(), 2);
        assert_eq!((s.hit_length, s.bad_refs, s.repeats, s.refs, s.sets), (40, 3, 2, 1, 4));
        assert_eq!(s.ref_item_reference.as_deref(), Some("ref-B"));
        assert_eq!((s.judgments_wanted, s.wanted_per, s.redundancy, s.degradation), (33, WantedPer::Segment, 2, DegradationPolicy::ReplacePhrase));
        assert_eq!((s.payment_per_hit, s.payment_currency.as_str(), s.time_floor_seconds), (1.5, "EUR", 120));
        assert_eq!((s.assignment_timeout_minutes, s.idle_gap_seconds), (30, 20));
        assert_eq!((s.seconds_per_fluency_judgment, s.seconds_per_adequacy_judgment), (11.0, 17.0));
        assert!(s.allow_skip && s.accept_thin_evidence);
        assert_eq!((s.practice_items, s.practice_pass), (4, 3));
        assert_eq!((s.interface_language.as_str(), s.public_title.as_str()), ("de", "Übersetzungen"));
        assert_eq!((s.thin_evidence, s.wording.next_label.as_str()), (ThinEvidence::Hold, "Weiter"));
    }
}

#[test]
fn the_stored_json_keeps_the_flat_keys_and_round_trips() {
    let s = CampaignSettings::read(STORED_BEFORE, TaskKind::Ranking, "German", "English");
    let v = serde_json::to_value(&s).unwrap();
    let keys: std::collections::BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    // Every key of before, at the top level and nothing nested under a protocol's name; the
    // new keys are pairwise's own, not given (null) in a design stored before it, and the
    // adaptive design (a design of the campaign, not of a protocol: one nested object, off
    // when not given).
    let mut expected: std::collections::BTreeSet<&str> = KEYS_BEFORE.into_iter().collect();
    expected.insert("pair_show_reference");
    expected.insert("adaptive");
    // Post-editing's own keys (false when not given).
    expected.insert("pe_from_scratch");
    expected.insert("pe_show_reference");
    assert_eq!(keys, expected);
    assert_eq!((v["rank_outputs"].as_u64(), v["woj_scale"].as_str(), v["document_context"].as_str()), (Some(4), Some("sliders"), Some("whole")));
    assert_eq!((v["hit_words"].as_u64(), &v["pair_show_reference"]), (Some(700), &serde_json::Value::Null));
    // Written and read back, by serde and by the one reader: the same settings.
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<CampaignSettings>(&json).unwrap(), s);
    assert_eq!(CampaignSettings::read(&json, TaskKind::Ranking, "German", "English"), s);
    // Each protocol's settings change on their own: pairwise's reference, once chosen, is
    // not ranking's (the one new key, `pair_show_reference`).
    let mut own = s.clone();
    own.pairwise.show_reference = Some(false);
    let json = serde_json::to_string(&own).unwrap();
    assert!(json.contains(r#""pair_show_reference":false"#), "{json}");
    for read in [CampaignSettings::read(&json, TaskKind::Pairwise, "German", "English"), serde_json::from_str(&json).unwrap()] {
        assert_eq!(read, own);
        assert!(!read.shows_reference(TaskKind::Pairwise) && read.shows_reference(TaskKind::Ranking));
    }
}

#[test]
fn a_protocol_field_that_does_not_read_keeps_its_default_alone() {
    // A flattened field given badly keeps its default; its neighbours in the same struct
    // and the common fields are still taken (the field by field reading).
    let s = CampaignSettings::read(
        r#"{"rank_outputs": "four", "rank_gold_min_pairs": 7, "document_context": "sideways", "hit_words": 900, "woj_max_degree": -3, "redundancy": 3}"#,
        TaskKind::Ranking,
        "German",
        "English",
    );
    assert_eq!((s.ranking.outputs, s.ranking.gold_min_pairs), (crate::protocol::ranking::DEFAULT_OUTPUTS, 7));
    assert_eq!((s.documents.context, s.documents.hit_words), (DocumentContext::Left, 900));
    assert_eq!((s.word_order.max_degree, s.redundancy), (18, 3));
    // Partial JSON straight through serde: each struct's missing fields are its defaults.
    let partial: CampaignSettings = serde_json::from_str(r#"{"rank_outputs": 3, "show_prefilled": false}"#).unwrap();
    assert_eq!(partial.ranking, RankingSettings { outputs: 3, ..RankingSettings::default() });
    assert_eq!(partial.documents, DocumentSettings { show_prefilled: false, ..DocumentSettings::default() });
    assert_eq!(partial.word_order, crate::protocol::word_order::WordOrderSettings::default());
}
