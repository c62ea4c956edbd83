//! Post-editing end to end over HTTP, on both databases (issue 40 item 2): an organizer designs
//! and launches a post-editing campaign through the designer's server functions; crowd workers
//! correct the outputs through the real answer path (`submit_post_edit`); what the browser
//! receives hides which item is a degraded copy; the server stores each post-edit with its
//! score from the edit rate; the analysis leaves out a worker who never edits (the paired test
//! on degraded copies fails) and gives HTER per system with intervals; the exports serve
//! `postedit-en-de.csv`, the judgment file and each system's post-edits as a reference file.

use assay_tests::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

use crate::setup::{Design, Launched};

const SYSTEMS: [&str; 3] = ["Alpha", "Beta", "Gamma"];

/// An item's hidden facts: (type, system).
type Facts = BTreeMap<i64, (String, String)>;

async fn facts(org: &Browser, assignment: &str) -> Facts {
    let items = org.call("assignment_items", &[("assignment", assignment)]).await;
    assert_eq!(items.status, 200, "{}", items.body);
    items
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["position"].as_i64().unwrap(), (i["item_type"].as_str().unwrap().to_string(), i["system"].as_str().unwrap_or("").to_string())))
        .collect()
}

async fn launch(server: &TestServer, extra: Value) -> (Browser, i64, String) {
    let mut settings = json!({
        "hit_length": 16, "bad_refs": 6, "repeats": 1, "refs": 0, "sets": 2,
        "judgments_wanted": 3, "redundancy": 2, "target_language": "German"
    });
    for (k, v) in extra.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let design = Design { name: "Post-editing en-de", task: "post-edit", set: "postedit-set", segments: 30, systems: &SYSTEMS, seed: 7, settings, gate: None };
    let Launched { org, id, link, summary } = crate::setup::launch(server, design).await;
    let hits = summary["hits"].as_i64().unwrap();
    assert!(hits >= 1, "{summary}");
    assert_eq!(summary["per_type"]["BAD_REF"].as_i64(), Some(6 * hits), "{summary}");
    (org, id, link)
}

/// A careful post-editor: Alpha's outputs need no change, Beta's one word, Gamma's more; a
/// degraded copy is rewritten (its meaning restored). A lazy one presses "no change needed"
/// everywhere.
fn careful_edit(kind: &str, system: &str, shown: &str) -> Value {
    let text = match (kind, system) {
        ("BAD_REF", _) => "Ein ganz anderer Satz, der die Bedeutung wiederherstellt und neu geschrieben ist.".to_string(),
        (_, "Alpha") => return json!({ "text": "", "unchanged": true, "first_key_ms": null, "edit_ms": null }),
        (_, "Beta") => format!("{shown} gut"),
        _ => format!("Neu {shown} und mehr Wörter hier"),
    };
    json!({ "text": text, "unchanged": false, "first_key_ms": 700, "edit_ms": 5200 })
}

/// Answers every item of `assignment` as a careful or a lazy post-editor; the careful one first
/// tries refused answers. Returns the last step.
async fn answer_hit(b: &Browser, a: &str, facts: &Facts, careful: bool) -> Value {
    let mut step = b.call("start_work", &[("assignment", a)]).await;
    assert_eq!(step.status, 200, "{}", step.body);
    while step.json()["completion"].is_null() {
        let item = step.json()["item"].clone();
        // Every item looks alike: the output to correct and the source.
        let mut keys: Vec<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["candidate", "context", "position"], "{item}");
        let p = item["position"].as_i64().unwrap();
        let shown = item["candidate"].as_str().unwrap().to_string();
        assert!(!shown.is_empty());
        let send = |post_edit: Value, key: String| {
            b.call_json("submit_post_edit", json!({ "assignment": a, "position": p, "post_edit": post_edit, "time_on_screen_ms": 6000, "key": key }))
        };
        if careful && p == 0 {
            // Refused, nothing stored: blank without "no change needed", a control character,
            // too long, a DA score.
            for bad in [json!({ "text": "  " }), json!({ "text": "a\u{7}b" }), json!({ "text": "x".repeat(5001) })] {
                let r = send(bad, "bad".into()).await;
                assert_eq!(r.status, 400, "{}", r.body);
            }
            let r = b.call("submit_judgment", &[("assignment", a), ("position", "0"), ("score", "50"), ("time_on_screen_ms", "900"), ("key", "bad2")]).await;
            assert_eq!(r.status, 400, "{}", r.body);
        }
        let (kind, system) = &facts[&p];
        let pe = if careful { careful_edit(kind, system, &shown) } else { json!({ "text": "", "unchanged": true }) };
        let r = send(pe, format!("k{p}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        step = r;
    }
    step.json()
}

both_backends! {
    async fn a_post_editing_campaign_is_edited_scored_and_exported(server) {
        let (org, id, link) = launch(&server, json!({})).await;
        for name in ["CAREFUL", "LAZY"] {
            let (b, a) = arrive_as(&server, &link, name).await;
            let f = facts(&org, &a).await;
            assert_eq!(f.values().filter(|(t, _)| t == "BAD_REF").count(), 6, "{f:?}");
            let last = answer_hit(&b, &a, &f, name == "CAREFUL").await;
            assert!(last["completion"]["code"].is_string(), "the gate is off: {last}");
            // Stored: the post-edit in the detail, the score 100 − min(HTER, 100).
            let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
            let js = judgments.as_array().unwrap();
            assert_eq!(js.len(), 16);
            for j in js {
                let p = j["position"].as_i64().unwrap();
                let (kind, system) = &f[&p];
                let score = j["score"].as_f64().unwrap();
                if name == "LAZY" || (kind != "BAD_REF" && system == "Alpha") {
                    assert_eq!(score, 100.0, "untouched: {j}");
                } else {
                    assert!(score < 100.0, "edited: {j}");
                }
            }
        }

        let r = org
            .call("campaign_results", &[("campaign_id", id.to_string().as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "true")])
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let view = r.json();
        let p = &view["postedit"];
        assert_eq!(p["lang_pair"], "en-de", "{p}");
        // The lazy worker never edited a degraded copy more than its original: left out.
        let workers = p["workers"].as_array().unwrap();
        let w = |n: &str| workers.iter().find(|w| w["worker"] == format!("link:{n}")).cloned().unwrap_or_else(|| panic!("{p}"));
        assert_eq!((w("CAREFUL")["kept"].clone(), w("LAZY")["kept"].clone()), (json!(true), json!(false)), "{p}");
        assert_eq!((w("LAZY")["edited_more"].as_u64(), w("LAZY")["edited_less"].as_u64()), (Some(0), Some(0)), "{p}");
        assert!(w("CAREFUL")["pairs"].as_u64().unwrap() >= 1 && w("CAREFUL")["edited_more"] == w("CAREFUL")["pairs"], "{p}");
        assert_eq!((p["post_edits_kept"].as_u64(), p["post_edits_left_out"].as_u64()), (Some(9), Some(9)), "{p}");
        // HTER per system: Alpha untouched (0), then Beta (one word), then Gamma; each with an
        // interval holding it.
        let rows = p["rows"].as_array().unwrap();
        assert_eq!(rows.iter().map(|r| r["system"].as_str().unwrap()).collect::<Vec<_>>(), ["Alpha", "Beta", "Gamma"], "{p}");
        assert_eq!(rows[0]["hter"].as_f64(), Some(0.0), "{p}");
        for r in rows {
            let (h, lo, hi) = (r["hter"].as_f64().unwrap(), r["ci_low"].as_f64().unwrap(), r["ci_high"].as_f64().unwrap());
            assert!(lo <= h && h <= hi, "{r}");
        }
        assert!(rows[1]["hter"].as_f64().unwrap() > 0.0 && rows[2]["hter"].as_f64() > rows[1]["hter"].as_f64(), "{p}");
        let page = org.get(&format!("/campaigns/{id}/results")).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("id=\"postedit-hter\"") && page.body.contains("Post-editing (HTER), en-de"), "the HTER table on the page");

        // The files.
        let files: Vec<String> = view["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
        for f in ["postedit-en-de.csv", "postedit-en-de-segments.csv", "postedit-en-de-judgments.csv", "postedits-en-de-Alpha.txt", "postedits-en-de-Beta.txt", "postedits-en-de-Gamma.txt"] {
            assert!(files.iter().any(|x| x == f), "{f} offered: {files:?}");
        }
        let get = |file: &'static str| crate::setup::export_file(&server, &org, id, file, true);
        let (status, csv) = get("postedit-en-de.csv").await;
        assert_eq!(status, 200, "{csv}");
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("system,hter,ci_low,ci_high,rank_low,rank_high,edits,words,segments,post_edits,mean_segment_hter,median_edit_ms"));
        let first: Vec<&str> = lines.next().unwrap().split(',').collect();
        assert_eq!((first[0], first[1]), ("Alpha", "0"), "{csv}");
        // One line per segment of the test set; Alpha's post-edits are its outputs as shown.
        let (status, refs) = get("postedits-en-de-Alpha.txt").await;
        assert_eq!(status, 200, "{refs}");
        assert_eq!(refs.lines().count(), 30, "{refs}");
        assert!(refs.lines().filter(|l| !l.is_empty()).count() >= 1);
        // The judgment file reads back through `assay analyze --input` to the same HTER.
        let (status, judgments) = get("postedit-en-de-judgments.csv").await;
        assert_eq!(status, 200);
        assert!(judgments.starts_with("segment,system,output,post_edit,worker,edit_ms,pair\n"), "{judgments}");
        assert_eq!(judgments.lines().count(), 33, "16 items of each worker and the header");
    }

    async fn the_reference_is_shown_and_from_scratch_hides_the_output(server) {
        let (org, id, link) = launch(&server, json!({ "pe_from_scratch": true, "pe_show_reference": true })).await;
        let (b, a) = arrive_as(&server, &link, "SCRATCH").await;
        let f = facts(&org, &a).await;
        let step = b.call("start_work", &[("assignment", &a)]).await;
        assert_eq!(step.status, 200, "{}", step.body);
        let item = step.json()["item"].clone();
        assert_eq!(item["candidate"], "", "the output stays on the server: {item}");
        assert!(item["reference"].as_str().is_some_and(|r| !r.is_empty()), "{item}");
        let p = item["position"].as_i64().unwrap();
        let r = b.call_json("submit_post_edit", json!({ "assignment": a, "position": p, "post_edit": { "text": "Meine eigene Übersetzung." }, "time_on_screen_ms": 3000, "key": "s0" })).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        let score = judgments.as_array().unwrap()[0]["score"].as_f64().unwrap();
        // The judgment file holds the output the server kept (not the empty field), and the
        // score is 100 − min(HTER, 100) of that output against the translation.
        let url = format!("{}/campaigns/{id}/export/postedit-en-de-judgments.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base);
        let text = org.client.get(url).send().await.unwrap().text().await.unwrap();
        let line = text.lines().nth(1).unwrap_or_else(|| panic!("{text}"));
        let system = &f[&p].1;
        let rest = line.split_once(&format!(",{system},")).unwrap_or_else(|| panic!("{line}")).1;
        assert!(!rest.starts_with(','), "the output is in the file: {line}");
        assert!(line.contains(",Meine eigene Übersetzung.,link:SCRATCH,"), "{line}");
        let hter = 100.0 - score;
        assert!(hter > 0.0, "a translation from scratch differs from the output: {score}");
    }
}

/// `assay analyze --input` on a post-edit judgment CSV: HTER per system equals sacrebleu's on
/// the fixture (`tests/fixtures/postedit/hter.py`), the judgment file it writes reads back to
/// the same table, and a bad file is refused with its line, writing nothing.
#[test]
fn assay_analyze_reads_a_post_edit_csv_and_matches_sacrebleu() {
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/postedit/hter.json")).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("post-edits.csv");
    std::fs::write(&input, fixture["csv"].as_str().unwrap()).unwrap();
    let out = dir.path().join("out");
    let log = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "200"]));
    assert!(log.contains("en-de: 49 post-edits"), "{log}");
    let table = |dir: &std::path::Path| -> Vec<Vec<String>> {
        let text = std::fs::read_to_string(dir.join("postedit-en-de.csv")).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), "system,hter,ci_low,ci_high,rank_low,rank_high,edits,words,segments,post_edits,mean_segment_hter,median_edit_ms");
        lines.map(|l| l.split(',').map(String::from).collect()).collect()
    };
    let rows = table(&out);
    assert_eq!(rows.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), ["Beta", "Alpha", "Gamma"]);
    for r in &rows {
        let t = &fixture["systems"][&r[0]];
        assert!((r[1].parse::<f64>().unwrap() - t["hter"].as_f64().unwrap()).abs() < 1e-9, "{r:?} vs {t}");
        assert_eq!(r[6].parse::<u64>().unwrap(), t["edits"].as_u64().unwrap(), "{r:?}");
        let (lo, hi, h) = (r[2].parse::<f64>().unwrap(), r[3].parse::<f64>().unwrap(), r[1].parse::<f64>().unwrap());
        assert!(lo <= h && h <= hi, "{r:?}");
    }
    // Each system's post-edits, one line per segment of the file (16 segments).
    let refs = std::fs::read_to_string(out.join("postedits-en-de-Alpha.txt")).unwrap();
    assert_eq!(refs.lines().count(), 16, "{refs}");
    assert_eq!(refs.lines().next(), Some("The house is red."));
    // The judgment file written reads back to the same table.
    let again = dir.path().join("again");
    succeeded(&assay_cli(&["analyze", "--input", out.join("postedit-en-de-judgments.csv").to_str().unwrap(), "--out", again.to_str().unwrap(), "--bootstrap", "200"]));
    assert_eq!(table(&again), rows);
    // A bad line: refused, with the line, nothing written.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "segment,system,output,post_edit,worker,edit_ms\n1,A,x,y,w,soon\n").unwrap();
    let none = dir.path().join("none");
    let o = assay_cli(&["analyze", "--input", bad.to_str().unwrap(), "--out", none.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2") && err.contains("edit_ms"), "{err}");
    assert!(!none.exists());
}
