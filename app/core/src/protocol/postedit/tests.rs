use super::*;
use crate::model::TaskKind;
use crate::protocol::{AnswerRules, for_task, validate};

/// What the annotation server stores: the protocol's validation, then the score from the text
/// shown (`metrics::postedit::settle`).
#[cfg(feature = "engine")]
fn validate_on(task: TaskKind, shown: &str, answer: &Answer, rules: &AnswerRules) -> Result<Answer, crate::protocol::InvalidAnswer> {
    let mut stored = crate::protocol::validate_on(task, shown, answer, rules)?;
    crate::metrics::postedit::settle(shown, &mut stored);
    Ok(stored)
}

fn pe(text: &str) -> Answer {
    Answer { detail: Detail { post_edit: Some(PostEdit { text: text.into(), ..PostEdit::default() }), ..Detail::default() }, ..Answer::default() }
}

fn rules() -> AnswerRules {
    AnswerRules::default()
}

#[test]
fn registered_under_its_name() {
    assert_eq!(TaskKind::PostEdit.as_str(), NAME);
    assert_eq!(TaskKind::parse(NAME), Some(TaskKind::PostEdit));
    assert_eq!(for_task(TaskKind::PostEdit).name(), "post-editing");
    assert_eq!(for_task(TaskKind::PostEdit).worker_test(), crate::protocol::WorkerTest::ScorePairs);
    assert!(for_task(TaskKind::PostEdit).quality_control().contains(&ItemType::BadRef));
}

#[cfg(feature = "engine")]
#[test]
fn a_post_edit_is_stored_on_one_line_with_its_score_from_the_text_shown() {
    let shown = "the cat sat on mat";
    let stored = validate_on(TaskKind::PostEdit, shown, &pe("  The cat sat\non the\tmat.\r\n"), &rules()).unwrap();
    let p = stored.detail.post_edit.as_ref().unwrap();
    assert_eq!(p.text, "The cat sat on the mat.");
    // HTER 2 edits over 6 words (lowercased; "mat" → "the", "mat." inserted).
    assert!((stored.score.unwrap() - (100.0 - 100.0 * 2.0 / 6.0)).abs() < 1e-9, "{:?}", stored.score);
    // Untouched: 100.
    assert_eq!(validate_on(TaskKind::PostEdit, shown, &pe(shown), &rules()).unwrap().score, Some(100.0));
    // Rewritten beyond recognition: HTER over 100 counts as 100, the score 0.
    assert_eq!(validate_on(TaskKind::PostEdit, "a b c d e f g h", &pe("x"), &rules()).unwrap().score, Some(0.0));
}

#[cfg(feature = "engine")]
#[test]
fn no_change_needed_stores_the_text_shown() {
    let mut a = pe("");
    a.detail.post_edit.as_mut().unwrap().unchanged = true;
    let stored = validate_on(TaskKind::PostEdit, "Good as it is.", &a, &rules()).unwrap();
    assert_eq!(stored.detail.post_edit.as_ref().unwrap().text, "Good as it is.");
    assert!(stored.detail.post_edit.as_ref().unwrap().unchanged);
    assert_eq!(stored.score, Some(100.0));
    // Whatever was typed is replaced by the text shown.
    a.detail.post_edit.as_mut().unwrap().text = "something else".into();
    assert_eq!(validate_on(TaskKind::PostEdit, "Good as it is.", &a, &rules()).unwrap().detail.post_edit.unwrap().text, "Good as it is.");
}

#[test]
fn bad_answers_are_refused_with_the_reason() {
    let r = |a: &Answer| validate(TaskKind::PostEdit, a, &rules()).unwrap_err();
    assert!(r(&Answer::default()).problem.contains("No change needed"));
    assert!(r(&pe("   \n ")).problem.contains("empty"));
    assert!(r(&pe("a\u{7}b")).problem.contains("U+0007"));
    let long = "x".repeat(MAX_CHARS + 1);
    assert!(r(&pe(&long)).problem.contains(&format!("{} characters", MAX_CHARS + 1)));
    assert!(validate(TaskKind::PostEdit, &pe(&"é".repeat(MAX_CHARS)), &rules()).is_ok(), "characters, not bytes");
    let mut scored = pe("fine");
    scored.score = Some(80.0);
    assert_eq!(r(&scored).field, "score");
    let mut ranked = pe("fine");
    ranked.detail.rank = Some(1);
    assert_eq!(r(&ranked).field, "detail");
    let mut slow = pe("fine");
    slow.detail.post_edit.as_mut().unwrap().edit_ms = Some(MAX_MS + 1);
    assert!(r(&slow).problem.contains("edit_ms"));
    // A post-edit in another protocol's answer is refused there.
    assert!(validate(TaskKind::DaAdequacy, &Answer { score: Some(50.0), ..pe("x") }, &rules()).is_err());
    // Skipping as every protocol: only where allowed.
    let skip = Answer { skipped: true, ..Answer::default() };
    assert!(validate(TaskKind::PostEdit, &skip, &rules()).is_err());
    assert!(validate(TaskKind::PostEdit, &skip, &AnswerRules { allow_skip: true, ..rules() }).unwrap().skipped);
}

#[test]
fn the_detail_round_trips_through_its_column() {
    let mut a = pe("Das ist gut.");
    a.detail.post_edit.as_mut().unwrap().edit_ms = Some(4200);
    a.detail.post_edit.as_mut().unwrap().first_key_ms = Some(800);
    let column = a.detail.to_column().unwrap();
    assert_eq!(column, r#"{"post_edit":{"text":"Das ist gut.","first_key_ms":800,"edit_ms":4200}}"#);
    assert_eq!(Detail::from_column(Some(&column)).unwrap(), a.detail);
}

#[test]
fn settings_are_flattened_with_defaults() {
    let s: PostEditSettings = serde_json::from_str("{}").unwrap();
    assert_eq!(s, PostEditSettings::default());
    let c = crate::settings::CampaignSettings::read(r#"{"pe_from_scratch": true, "pe_show_reference": true}"#, TaskKind::PostEdit, "German", "English");
    assert!(c.postedit.from_scratch && c.postedit.show_reference);
    assert!(c.shows_reference(TaskKind::PostEdit));
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!((json["pe_from_scratch"].as_bool(), json["pe_show_reference"].as_bool()), (Some(true), Some(true)));
}

#[cfg(feature = "engine")]
mod engine {
    use crate::metrics::postedit::campaign::{StoredPostEdit, analyse, references};
    use crate::metrics::postedit::files::{hter_file_name, read_judgment_csv, write_hter_csv, write_judgment_csv};
    use crate::metrics::hter::HterSettings;
    use crate::model::ItemType;
    use std::collections::BTreeSet;

    fn row(worker: &str, t: ItemType, segment: &str, system: &str, output: &str, post_edit: &str) -> StoredPostEdit {
        StoredPostEdit { worker: worker.into(), item_type: t, segment: segment.into(), system: system.into(), output: output.into(), post_edit: post_edit.into(), edit_ms: Some(1000) }
    }

    fn answers() -> Vec<StoredPostEdit> {
        use ItemType::*;
        vec![
            row("w1", System, "1", "good", "the house is red", "the house is red"),
            row("w1", System, "1", "bad", "house red the is", "the house is red"),
            row("w1", System, "2", "good", "we meet tomorrow", "we will meet tomorrow"),
            row("w1", System, "2", "bad", "meet we", "we will meet tomorrow"),
            // w1's degraded copy of good/1, edited more than its original.
            row("w1", BadRef, "1", "good", "the car is green", "the house is red"),
            // w2 edits nothing, the copy neither: left out by the caller.
            row("w2", System, "1", "good", "the house is red", "the house is red"),
            row("w2", BadRef, "1", "good", "the car is green", "the car is green"),
            row("w2", System, "1", "bad", "house red the is", "house red the is"),
        ]
    }

    #[test]
    fn systems_ranked_by_hter_with_copies_checked_and_workers_left_out() {
        let left_out: BTreeSet<String> = ["w2".to_string()].into();
        let settings = HterSettings { samples: 200, ..HterSettings::default() };
        let r = analyse("en-de", &answers(), &left_out, &settings).unwrap();
        assert_eq!(r.systems.iter().map(|s| s.system.as_str()).collect::<Vec<_>>(), ["good", "bad"]);
        // good: 0 + 1 insertion over 4 + 4 words; bad: segment 1 one shift-and-more, 2: ...
        assert_eq!((r.systems[0].edits, r.systems[0].words), (1, 8));
        assert_eq!(r.systems[0].hter, 12.5);
        assert!(r.systems[1].hter > r.systems[0].hter);
        assert_eq!((r.post_edits_kept, r.post_edits_left_out), (4, 2));
        assert_eq!(r.segments.len(), 4);
        let w1 = r.workers.iter().find(|w| w.worker == "w1").unwrap();
        assert_eq!((w1.pairs, w1.edited_more, w1.kept), (1, 1, true));
        let w2 = r.workers.iter().find(|w| w.worker == "w2").unwrap();
        assert_eq!((w2.pairs, w2.edited_more, w2.edited_less, w2.kept), (1, 0, 0, false));
        // Seeded: the same intervals again.
        assert_eq!(analyse("en-de", &answers(), &left_out, &settings).unwrap(), r);
        // Without intervals, ranks are places.
        let plain = analyse("en-de", &answers(), &left_out, &HterSettings { samples: 0, ..HterSettings::default() }).unwrap();
        assert_eq!(plain.systems.iter().map(|s| (s.rank_low, s.rank_high)).collect::<Vec<_>>(), [(1, 1), (2, 2)]);
        // Nobody kept: a typed refusal.
        let all: BTreeSet<String> = ["w1".to_string(), "w2".to_string()].into();
        assert!(analyse("en-de", &answers(), &all, &settings).is_err());
    }

    #[test]
    fn references_are_one_line_per_segment() {
        let left_out: BTreeSet<String> = ["w2".to_string()].into();
        let a = answers();
        let refs = references(&a, &left_out, &["1".into(), "2".into(), "3".into()]);
        assert_eq!(refs["good"], ["the house is red", "we will meet tomorrow", ""]);
        assert_eq!(refs["bad"].len(), 3);
    }

    #[test]
    fn the_judgment_csv_round_trips_and_refuses_bad_lines() {
        let mut a: Vec<StoredPostEdit> = answers().into_iter().filter(|r| r.item_type == ItemType::System).collect();
        a[0].post_edit = "=SUM(1), \"quoted\"".into();
        let mut buf = Vec::new();
        write_judgment_csv(&mut buf, "en-de", &a).unwrap();
        let read = read_judgment_csv(buf.as_slice()).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].pair, "en-de");
        assert_eq!(read[0].post_edits, a);
        assert_eq!(read[0].segments, ["1", "2"]);
        let bad = |text: &str| read_judgment_csv(text.as_bytes()).unwrap_err().to_string();
        assert!(bad("").contains("empty input"));
        assert!(bad("segment,system,output,worker\n").contains("no column post_edit"));
        assert!(bad("segment,system,output,post_edit,worker,colour\n").contains("unknown column"));
        assert!(bad("segment,system,output,post_edit,worker\n1,A,x,y\n").starts_with("line 2: 4 fields"));
        assert!(bad("segment,system,output,post_edit,worker,edit_ms\n1,A,x,y,w,soon\n").contains("edit_ms"));
        assert!(bad("segment,system,output,post_edit,worker\n1,,x,y,w\n").contains("system is empty"));
        assert!(bad("segment,system,output,post_edit,worker\n").contains("header only"));
        let r = analyse(&read[0].pair, &read[0].post_edits, &BTreeSet::new(), &HterSettings::default()).unwrap();
        let mut out = Vec::new();
        write_hter_csv(&mut out, &r).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("system,hter,ci_low,ci_high,rank_low,rank_high,edits,words,segments,post_edits,mean_segment_hter,median_edit_ms\n"), "{text}");
        assert_eq!(hter_file_name("en-de"), "postedit-en-de.csv");
    }

    /// HTER per post-edit and per system equals sacrebleu 2.4.3's TER with the post-edits as
    /// the references (`tests/fixtures/postedit/hter.py`), read through the judgment CSV.
    #[test]
    fn hter_equals_sacrebleu_on_the_fixture() {
        let fixture: serde_json::Value = serde_json::from_str(include_str!("../../../../../tests/fixtures/postedit/hter.json")).unwrap();
        assert_eq!(fixture["signature"], "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.4.3");
        let data = read_judgment_csv(fixture["csv"].as_str().unwrap().as_bytes()).unwrap();
        assert_eq!(data.len(), 1);
        let d = &data[0];
        assert_eq!(d.pair, "en-de");
        let rows = fixture["rows"].as_array().unwrap();
        assert_eq!(d.post_edits.len(), rows.len());
        let settings = HterSettings { samples: 0, ..HterSettings::default() };
        let r = analyse(&d.pair, &d.post_edits, &BTreeSet::new(), &settings).unwrap();
        for (mine, theirs) in r.segments.iter().zip(rows) {
            assert_eq!((mine.segment.as_str(), mine.system.as_str(), mine.worker.as_str()), (theirs["segment"].as_str().unwrap(), theirs["system"].as_str().unwrap(), theirs["worker"].as_str().unwrap()));
            assert_eq!(mine.hter.edits, theirs["edits"].as_u64().unwrap(), "{theirs}");
            assert_eq!(mine.hter.words as f64, theirs["words"].as_f64().unwrap(), "{theirs}");
            assert!((mine.hter.hter - theirs["hter"].as_f64().unwrap()).abs() < 1e-9, "{} vs {theirs}", mine.hter.hter);
        }
        let systems = fixture["systems"].as_object().unwrap();
        assert_eq!(r.systems.len(), systems.len());
        for s in &r.systems {
            let t = &systems[&s.system];
            assert_eq!((s.edits, s.words as f64, s.post_edits as u64), (t["edits"].as_u64().unwrap(), t["words"].as_f64().unwrap(), t["post_edits"].as_u64().unwrap()), "{}", s.system);
            assert!((s.hter - t["hter"].as_f64().unwrap()).abs() < 1e-9, "{}: {} vs {t}", s.system, s.hter);
        }
        // Lowest HTER first: Beta, Alpha, Gamma on the fixture.
        assert_eq!(r.systems.iter().map(|s| s.system.as_str()).collect::<Vec<_>>(), ["Beta", "Alpha", "Gamma"]);
        // With the bootstrap: each interval holds its estimate, seeded.
        let with = analyse(&d.pair, &d.post_edits, &BTreeSet::new(), &HterSettings::default()).unwrap();
        for s in &with.systems {
            let (lo, hi) = (s.ci_low.unwrap(), s.ci_high.unwrap());
            assert!(lo <= s.hter && s.hter <= hi && lo < hi, "{s:?}");
            assert!(s.rank_low <= s.rank_high && s.rank_high <= 3);
        }
    }
}
