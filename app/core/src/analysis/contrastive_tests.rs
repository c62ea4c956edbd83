use super::*;
use crate::protocol::spans::Severity;

fn output(annotator: &str, screen: &str, system: &str, item_type: ItemType, score: f64, spans: Vec<Span>) -> ScreenOutput {
    ScreenOutput {
        annotator: annotator.into(),
        screen: screen.into(),
        segment: format!("seg-{}", &screen[screen.len() - 1..]),
        document: "doc-1".into(),
        system: system.into(),
        item_type,
        source: "Der Hund bellt.".into(),
        target: format!("The dog {system}, \"quoted\"\nand a line break"),
        score,
        spans,
        start_time: 1_700_000_000.0,
        end_time: 1_700_000_012.34,
        batch: 3,
        item: 40,
    }
}

/// Two annotators, three screens of three outputs each; a degraded copy on one screen; the same
/// segment on two screens of one annotator (kept apart by `screen`).
fn outputs() -> Vec<ScreenOutput> {
    use ItemType::*;
    let major = vec![Span::new(0, 3, Severity::Major), Span::omission(Severity::Minor)];
    vec![
        output("prolific:w1", "7:0", "Alpha", System, 90.0, vec![]),
        output("prolific:w1", "7:0", "Beta", System, 70.0, vec![Span::new(4, 7, Severity::Minor)]),
        output("prolific:w1", "7:0", "Gamma", System, 40.0, major.clone()),
        output("prolific:w1", "7:1", "Alpha", System, 85.0, vec![]),
        output("prolific:w1", "7:1", "Beta", BadRef, 10.0, major.clone()),
        output("prolific:w1", "7:1", "Gamma", System, 45.0, vec![]),
        output("prolific:w2", "8:0", "Alpha", System, 80.0, vec![]),
        output("prolific:w2", "8:0", "Beta", System, 80.0, vec![]),
        output("prolific:w2", "8:0", "Gamma", System, 60.0, vec![]),
        output("prolific:w2", "8:2", "Alpha", System, 75.0, vec![]),
        output("prolific:w2", "8:2", "Beta", System, 66.0, vec![]),
        output("prolific:w2", "8:2", "Gamma", System, 50.0, vec![]),
    ]
}

fn written(outputs: &[ScreenOutput]) -> String {
    let mut out = Vec::new();
    write_appraise_jsonl(&mut out, "Contrastive en-de", "en", "de", outputs).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn assays_screens_are_written_as_appraise_lines_one_per_screen() {
    let text = written(&outputs());
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4);
    let first = &lines[0];
    for key in ["annotator", "source_id", "source_text", "targets", "item_type", "source_language", "target_language", "document_id", "is_complete_document", "batch_number", "campaign_name", "task_type"] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
    assert_eq!(first["task_type"], "ContrastiveESA");
    assert_eq!((first["source_language"].as_str(), first["target_language"].as_str()), (Some("eng"), Some("deu")));
    assert_eq!(first["targets"].as_array().unwrap().len(), 3);
    let t = &first["targets"][2];
    assert_eq!(t["target_id"], "Gamma");
    assert_eq!(t["duration"], 12.3);
    // The spans as Appraise stores them: JSON text, an omission's offsets "missing".
    let spans: serde_json::Value = serde_json::from_str(t["mqm_annotations"].as_str().unwrap()).unwrap();
    assert_eq!(spans, serde_json::json!([{"start_i": 0, "end_i": 3, "severity": "major", "error_type": null}, {"start_i": "missing", "end_i": "missing", "severity": "minor", "error_type": null}]));
    // The screen with a degraded copy: the line is TGT, the copy says BAD on its own.
    assert_eq!(lines[1]["item_type"], "TGT");
    assert_eq!(lines[1]["targets"][1]["item_type"], "BAD");
    assert_eq!(lines[1]["screen"], "7:1");
    // A line break and quotes in a text survive.
    assert!(t["target_text"].as_str().unwrap().contains("\"quoted\"\nand"));
}

#[test]
fn an_export_read_back_compares_the_systems_as_the_campaign_did() {
    let outs = outputs();
    let pairs = read_appraise_jsonl(written(&outs).as_bytes()).unwrap();
    assert_eq!(pairs.len(), 1);
    let p = &pairs[0];
    assert_eq!(p.pair, "en-de");
    assert_eq!(p.control, 1, "the degraded copy is quality control");
    assert_eq!(p.scores.len(), 11);
    // The campaign's own reading: the system outputs' scores, one segment per screen.
    let campaign: Vec<ScreenScore> = outs
        .iter()
        .filter(|o| o.item_type == ItemType::System)
        .map(|o| ScreenScore { screen: o.screen.clone(), segment: o.segment.clone(), system: o.system.clone(), annotator: o.annotator.clone(), score: o.score })
        .collect();
    let a = compare_within_screens("en-de", &campaign, 0.05);
    let b = compare_within_screens(&p.pair, &p.scores, 0.05);
    assert_eq!(a, b);
    let csv = |r: &ContrastiveReport| {
        let mut out = Vec::new();
        write_contrastive_csv(&mut out, r).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(csv(&a), csv(&b));
    assert_eq!(b.ranking.systems[0].system, "Alpha");
}

#[test]
fn appraises_own_lines_are_grouped_by_annotator_and_document() {
    // As Appraise's ExportSystemScoresToJSONL writes them: no `screen`, the item type on the
    // line only, spans as JSON text; two documents of one annotator, a system with two outputs
    // on one document (averaged), a blank line.
    let line = |annotator: &str, doc: &str, targets: &str| {
        format!(
            r#"{{"annotator": "{annotator}", "source_id": "s", "source_text": "src", "targets": [{targets}], "item_type": "TGT", "source_language": "ces", "target_language": "ukr", "document_id": "{doc}", "is_complete_document": false, "batch_number": 0, "campaign_name": "c", "task_type": "ContrastiveESA"}}"#
        )
    };
    let target = |system: &str, score: f64| format!(r#"{{"target_id": "{system}", "target_text": "t", "segment_id": 1, "score": {score}, "mqm_annotations": "[{{\"start_i\": 0, \"end_i\": 1, \"severity\": \"minor\"}}]", "start_time": 1.0, "end_time": 2.0}}"#);
    let text = [
        line("u1", "d1", &[target("A", 80.0), target("B", 60.0), target("A", 90.0)].join(",")),
        String::new(),
        line("u1", "d2", &[target("A", 50.0), target("B", 70.0)].join(",")),
        line("u2", "d1", &[target("A", 40.0), target("B", 20.0)].join(",")),
    ]
    .join("\n");
    let pairs = read_appraise_jsonl(text.as_bytes()).unwrap();
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].pair, "cs-uk");
    let got: Vec<(String, String, f64)> = pairs[0].scores.iter().map(|s| (s.annotator.clone(), s.system.clone(), s.score)).collect();
    assert_eq!(
        got,
        [("u1", "A", 85.0), ("u1", "B", 60.0), ("u1", "A", 50.0), ("u1", "B", 70.0), ("u2", "A", 40.0), ("u2", "B", 20.0)]
            .map(|(a, s, x)| (a.to_string(), s.to_string(), x))
    );
    // Three screens: A and B compared on each.
    let r = compare_within_screens(&pairs[0].pair, &pairs[0].scores, 0.05);
    assert_eq!(r.pairs.iter().find(|p| p.a == "A").unwrap().screens, 3);
}

#[test]
fn a_bad_line_is_refused_with_its_line_and_nothing_is_read() {
    let good = written(&outputs());
    let first = good.lines().next().unwrap().to_string();
    let with = |from: &str, to: &str| {
        assert!(first.contains(from), "{from}");
        format!("{first}\n{}\n", first.replacen(from, to, 1).replace("\"7:0\"", "\"9:9\""))
    };
    let cases = [
        (with("\"task_type\":\"ContrastiveESA\"", "\"task_type\":\"Document\""), 2, "task_type is \"Document\", not \"ContrastiveESA\""),
        (with("\"score\":90.0", "\"score\":101.0"), 2, "target 1: score 101.0 is not within 0–100"),
        (with("\"score\":90.0", "\"score\":\"90\""), 2, "target 1: score is not a number"),
        (with("\"target_id\":\"Alpha\"", "\"target_id\":\"\""), 2, "target 1: target_id is empty"),
        (with("\"source_language\":\"eng\"", "\"source_language\":\"??\""), 2, "source_language:"),
        (with("\"item_type\":\"TGT\"", "\"item_type\":\"XYZ\""), 2, "item_type \"XYZ\" is not one of TGT, BAD, CHK, REF"),
        (with("\"severity\\\":\\\"major\\\"", "\"severity\\\":\\\"huge\\\""), 2, "target 3: mqm_annotations: span 1:"),
        (format!("{first}\n{first}\n"), 2, "appears on an earlier line too"),
        (format!("{first}\n{{\"task_type\":\"ContrastiveESA\",\"annotator\":\"a\",\"source_language\":\"en\",\"target_language\":\"de\",\"document_id\":\"d\",\"targets\":[]}}\n"), 2, "targets is empty"),
        (format!("\n{first}\nnot json\n"), 3, "not a JSON object"),
    ];
    for (text, line, want) in cases {
        let e = read_appraise_jsonl(text.as_bytes()).expect_err(want);
        assert_eq!(e.line, line, "{want}: {e:?}");
        assert!(e.message.contains(want), "{want}: {}", e.message);
    }
    assert!(looks_like_appraise_jsonl(&first));
    assert!(!looks_like_appraise_jsonl("{\"langs\": \"en-de\", \"esa_score\": 3}"));
}
