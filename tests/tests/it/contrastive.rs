//! Contrastive ESA end to end over HTTP, on both databases (issue 40 item 1): an organizer
//! designs and launches a contrastive campaign (3 outputs of one segment per screen, a degraded
//! copy on some screens, a repeated screen); two crowd workers mark spans and score every
//! output of each screen through the real answer path (`submit_screen` with each output's
//! answer, all or nothing); what the browser receives hides which output is a degraded copy;
//! each output is stored as one ESA judgment; the results page and the exports give the systems
//! compared within screens (`contrastive-en-de.csv`).

use assay_tests::fixtures::*;
use assay_tests::*;
use serde_json::{Value, json};

use crate::setup::{Design, Launched};

const SYSTEMS: [&str; 3] = ["Alpha", "Beta", "Gamma"];

async fn launch(server: &TestServer) -> (Browser, i64, String) {
    let settings = json!({
        "hit_length": 6, "rank_blocks_per_screen": 1, "rank_outputs": 3, "bad_refs": 2, "repeats": 1,
        "judgments_wanted": 12, "redundancy": 2, "target_language": "German"
    });
    let design = Design { name: "Contrastive en-de", task: "contrastive-esa", set: "cesa-set", segments: 12, systems: &SYSTEMS, seed: 11, settings, gate: None };
    let Launched { org, id, link, summary } = crate::setup::launch(server, design).await;
    let hits = summary["hits"].as_i64().unwrap();
    assert!(hits >= 1, "{summary}");
    assert_eq!(summary["per_type"]["BAD_REF"].as_i64(), Some(2 * hits), "{summary}");
    (org, id, link)
}

/// The items of a step's screen, checking that every output looks alike to the browser.
fn screen_items(step: &Value) -> Vec<Value> {
    let mut items = vec![step["item"].clone()];
    items.extend(step["together"].as_array().cloned().unwrap_or_default());
    for it in &items {
        let mut keys: Vec<&str> = it.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["candidate", "context", "position", "screen"], "every output looks alike: {it}");
    }
    // One segment per screen: the same source above every output.
    assert!(items.iter().all(|it| it["context"] == items[0]["context"]), "{items:?}");
    items
}

/// A careful worker: Alpha best, then Beta, then Gamma; a degraded copy scored low with a major
/// span over its first word. A lazy one gives every output 70 and marks nothing.
fn answer(careful: bool, kind: &str, system: &str, text: &str) -> Value {
    if !careful {
        return json!({ "score": 70.0, "spans": [] });
    }
    let first_word = text.split(' ').next().unwrap_or("").chars().count();
    match (kind, system) {
        ("BAD_REF", _) => json!({ "score": 8.0, "spans": [{ "start": 0, "end": first_word, "severity": "major" }] }),
        (_, "Alpha") => json!({ "score": 92.0, "spans": [] }),
        (_, "Beta") => json!({ "score": 71.0, "spans": [{ "start": 0, "end": first_word, "severity": "minor" }] }),
        _ => json!({ "score": 45.0, "spans": [{ "start": 0, "end": first_word, "severity": "major" }] }),
    }
}

async fn submit(b: &Browser, a: &str, outputs: Vec<Value>, key: &str) -> Answer {
    b.call_json("submit_screen", json!({ "assignment": a, "outputs": outputs, "time_on_screen_ms": 40000, "key": key })).await
}

async fn answer_hit(b: &Browser, org: &Browser, a: &str, careful: bool) -> Value {
    let facts = item_facts(org, a).await;
    let mut step = b.call("start_work", &[("assignment", a)]).await;
    assert_eq!(step.status, 200, "{}", step.body);
    let mut screens = 0;
    while step.json()["completion"].is_null() {
        let items = screen_items(&step.json());
        assert_eq!(items.len(), 3, "three outputs side by side: {}", step.body);
        let positions: Vec<i64> = items.iter().map(|it| it["position"].as_i64().unwrap()).collect();
        let outputs: Vec<Value> = items
            .iter()
            .map(|it| {
                let p = it["position"].as_i64().unwrap();
                let (kind, system) = &facts[&p];
                let mut o = answer(careful, kind, system, it["candidate"].as_str().unwrap());
                o["position"] = json!(p);
                o
            })
            .collect();
        if careful && screens == 0 {
            // Refused, nothing stored: a partial screen, a span outside the text, a score out of
            // range, ranks with the answers.
            let r = submit(b, a, outputs[..2].to_vec(), "bad1").await;
            assert_eq!(r.status, 400, "{}", r.body);
            let mut outside = outputs.clone();
            outside[1]["spans"] = json!([{ "start": 0, "end": 10000, "severity": "minor" }]);
            let r = submit(b, a, outside, "bad2").await;
            assert_eq!(r.status, 400, "{}", r.body);
            assert!(r.body.contains(&format!("Item {}: Error span 1", positions[1] + 1)), "{}", r.body);
            let mut high = outputs.clone();
            high[2]["score"] = json!(101.0);
            assert_eq!(submit(b, a, high, "bad3").await.status, 400);
            let both = json!({ "assignment": a, "outputs": outputs, "ranks": [{ "position": positions[0], "rank": 1 }], "time_on_screen_ms": 1000, "key": "bad4" });
            assert_eq!(b.call_json("submit_screen", both).await.status, 400);
            let judgments = org.call("assignment_judgments", &[("assignment", a)]).await.json();
            assert_eq!(judgments.as_array().unwrap().len(), 0, "a refused screen stores nothing: {judgments}");
        }
        let key = format!("screen-{}", positions[0]);
        let r = submit(b, a, outputs.clone(), &key).await;
        assert_eq!(r.status, 200, "{}", r.body);
        if careful && screens == 0 {
            // A retry with the same key is answered with the current step, storing nothing more.
            let again = submit(b, a, outputs, &key).await;
            assert_eq!(again.status, 200, "{}", again.body);
        }
        step = r;
        screens += 1;
    }
    assert_eq!(screens, 6);
    step.json()
}

both_backends! {
    async fn a_contrastive_campaign_is_marked_scored_compared_and_exported(server) {
        let (org, id, link) = launch(&server).await;
        for name in ["CAREFUL", "LAZY"] {
            let (b, a) = arrive_as(&server, &link, name).await;
            let facts = item_facts(&org, &a).await;
            let last = answer_hit(&b, &org, &a, name == "CAREFUL").await;
            assert!(last["completion"]["code"].is_string(), "the gate is off: {last}");
            // One ESA judgment per output: the score, the spans in the detail.
            let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
            let js = judgments.as_array().unwrap();
            assert_eq!(js.len(), 18, "{judgments}");
            if name == "CAREFUL" {
                for j in js {
                    let p = j["position"].as_i64().unwrap();
                    let (kind, system) = &facts[&p];
                    let expected = if kind == "BAD_REF" { 8.0 } else { match system.as_str() { "Alpha" => 92.0, "Beta" => 71.0, _ => 45.0 } };
                    assert_eq!(j["score"].as_f64(), Some(expected), "{j}");
                }
                let spans = js.iter().filter(|j| j.to_string().contains("major")).count();
                assert!(spans >= 2, "the degraded copies' spans are stored: {judgments}");
            }
        }

        let r = org
            .call("campaign_results", &[("campaign_id", id.to_string().as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "true")])
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let view = r.json();
        let c = &view["contrastive"];
        assert_eq!(c["lang_pair"], "en-de", "{c}");
        let systems: Vec<&str> = c["systems"].as_array().unwrap().iter().map(|s| s["system"].as_str().unwrap()).collect();
        assert_eq!(systems.len(), 3, "{c}");
        // Six ordered pairs, each on the screens that showed both.
        let pairs = c["pairs"].as_array().unwrap();
        assert_eq!(pairs.len(), 6, "{c}");
        assert!(pairs.iter().all(|p| p["screens"].as_u64().unwrap() >= 1), "{c}");
        let page = org.get(&format!("/campaigns/{id}/results")).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("id=\"contrastive-ranking\"") && page.body.contains("Contrastive ESA, en-de"), "the table on the page");

        let files: Vec<String> = view["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
        assert!(files.iter().any(|f| f == "contrastive-en-de.csv"), "{files:?}");
        let url = format!("{}/campaigns/{id}/export/contrastive-en-de.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=true&filter=raw", server.base);
        let r = org.client.get(url).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let csv = r.text().await.unwrap();
        assert!(csv.starts_with("system_a,system_b,screens,mean_difference,p_a_better,rank_lo_a,rank_hi_a,cluster_a\n"), "{csv}");
        assert_eq!(csv.lines().count(), 7, "{csv}");

        // Appraise's ContrastiveESA JSONL of the same workers: one line per screen, every output
        // with its system, text, score and spans (JSON text, as Appraise stores them), the
        // degraded copies typed BAD on their own.
        assert!(files.iter().any(|f| f == "appraise-contrastive-en-de.jsonl"), "{files:?}");
        let url = format!("{}/campaigns/{id}/export/appraise-contrastive-en-de.jsonl?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=true&filter=raw", server.base);
        let r = org.client.get(url).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/x-ndjson"));
        let jsonl = r.text().await.unwrap();
        let lines: Vec<Value> = jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let workers: std::collections::BTreeSet<&str> = lines.iter().map(|l| l["annotator"].as_str().unwrap()).collect();
        assert_eq!(lines.len(), 6 * workers.len(), "six screens per kept worker: {jsonl}");
        for l in &lines {
            assert_eq!((l["task_type"].as_str(), l["source_language"].as_str(), l["target_language"].as_str()), (Some("ContrastiveESA"), Some("eng"), Some("deu")), "{l}");
            let targets = l["targets"].as_array().unwrap();
            assert_eq!(targets.len(), 3, "{l}");
            for t in targets {
                assert!(t["target_text"].is_string() && t["score"].is_number() && t["mqm_annotations"].is_string(), "{t}");
                assert!(SYSTEMS.contains(&t["target_id"].as_str().unwrap()), "{t}");
            }
        }
        let bad = lines.iter().flat_map(|l| l["targets"].as_array().unwrap()).filter(|t| t["item_type"] == "BAD").count();
        assert_eq!(bad, 2 * workers.len(), "two degraded copies per HIT: {jsonl}");
        // `assay analyze --input` on it gives the campaign's comparisons again, byte for byte.
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("appraise.jsonl");
        std::fs::write(&input, &jsonl).unwrap();
        let out = dir.path().join("out");
        let stderr = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap()]));
        assert!(stderr.contains("contrastive ESA"), "{stderr}");
        assert_eq!(std::fs::read_to_string(out.join("contrastive-en-de.csv")).unwrap(), csv);
        assert!(out.join("contrastive.json").exists());
        // A broken line is refused by its line, and nothing is written.
        let broken = jsonl.replacen("\"score\":", "\"score\":\"x\",\"was\":", 1);
        let bad_input = dir.path().join("broken.jsonl");
        std::fs::write(&bad_input, broken).unwrap();
        let out2 = dir.path().join("out2");
        let run = assay_cli(&["analyze", "--input", bad_input.to_str().unwrap(), "--out", out2.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success() && err.contains("line 1") && err.contains("score is not a number"), "{err}");
        assert!(!out2.join("contrastive-en-de.csv").exists());
    }

    async fn a_contrastive_design_compares_two_to_four_outputs_of_one_segment(server) {
        let org = server.browser();
        assert_eq!(org.login(ORGANIZER).await.status, 200);
        let dir = tempfile::tempdir().unwrap();
        write_wmt(dir.path(), "en-de", 8, &SYSTEMS);
        let set = upload_test_set(&org, dir.path(), "cesa-design").await.unwrap();
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        for (outputs, blocks, problem) in [(5, 1, "compares 2 to 4 outputs, not 5"), (3, 2, "the outputs of one segment, not 2")] {
            let draft = json!({
                "name": "c", "task": "contrastive-esa", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 1,
                "settings": { "hit_length": 4, "rank_outputs": outputs, "rank_blocks_per_screen": blocks, "bad_refs": 1, "repeats": 1, "judgments_wanted": 4, "redundancy": 1, "target_language": "German" }
            });
            let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
            let launched = if created.status == 200 {
                let id = created.body.trim().to_string();
                org.call("launch_campaign", &[("campaign_id", &id)]).await
            } else {
                created
            };
            assert_eq!(launched.status, 400, "{}", launched.body);
            assert!(launched.body.contains(problem), "{}", launched.body);
        }
    }
}
