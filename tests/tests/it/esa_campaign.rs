//! Error span annotation (ESA) as a campaign, over HTTP on both databases (issue 20): an
//! organizer designs and launches an ESA campaign on a test set with documents; HITs hold whole
//! documents sized by expected time; a worker sees each segment with its document so far, marks
//! error spans and scores it, and the last segment of a document also takes the document's
//! score; the spans are stored exactly; bad spans are refused, naming the problem; degraded
//! document copies feed the paired reliability test; the results rank the systems.

use assay_tests::fixtures::*;
use assay_tests::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

const SYSTEMS: [&str; 3] = ["Alpha", "Beta", "Gamma"];

/// Uploads a test set of 4 documents of 10 segments with 3 systems and launches an ESA
/// campaign of 10-minute HITs with one degraded and one repeated document each, left context
/// and a document score.
async fn launch(server: &TestServer) -> (Browser, i64, String, Value) {
    launch_with(server, 1).await
}

/// An organizer signed in, and the test set `name` (4 documents of 10 segments, [`SYSTEMS`])
/// uploaded: the test set and its systems' ids.
async fn organizer_with_set(server: &TestServer, name: &str) -> (Browser, Value, Vec<i64>) {
    let org = server.browser();
    assert_eq!(org.login(ORGANIZER).await.status, 200);
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", 40, &SYSTEMS);
    let set = upload_test_set(&org, dir.path(), name).await.unwrap();
    let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
    (org, set, systems)
}

/// [`launch`] with `redundancy` workers per HIT.
async fn launch_with(server: &TestServer, redundancy: usize) -> (Browser, i64, String, Value) {
    let (org, set, systems) = organizer_with_set(server, "esa-set").await;
    let draft = json!({
        "name": "ESA en-de",
        "task": "esa",
        "test_set_id": set["id"],
        "systems": systems,
        "benchmark_systems": [],
        "seed": 11,
        "settings": {
            "hit_minutes": 10.0, "seconds_per_source_word": 0.8, "bad_refs": 1, "repeats": 1,
            "judgments_wanted": 1, "wanted_per": "segment", "redundancy": redundancy,
            "document_context": "left", "document_score": true, "target_language": "German"
        }
    });
    let check = org.call_json("check_design", json!({ "draft": draft })).await;
    assert_eq!(check.status, 200, "{}", check.body);
    let check = check.json();
    assert_eq!(check["problems"], json!([]), "{check}");
    let (id, link_path, summary) = create_and_launch(&org, &draft).await;
    assert_eq!(check["implications"]["hits"], summary["hits"], "the designer's HIT count is the builder's: {check}");
    (org, id, link_path, summary)
}

async fn send(b: &Browser, assignment: &str, position: i64, score: f64, spans: Value, document_score: Option<f64>, key: &str) -> Answer {
    b.call_json(
        "submit_spans",
        json!({
            "assignment": assignment, "position": position, "score": score, "spans": spans,
            "document_score": document_score, "time_on_screen_ms": 20000, "key": key
        }),
    )
    .await
}

/// The first word of a text as a span (char offsets, end exclusive).
fn first_word(text: &str, severity: &str) -> Value {
    let end = text.chars().take_while(|c| !c.is_whitespace()).count();
    json!([{ "start": 0, "end": end, "severity": severity }])
}

/// A careful annotator: degraded segments get a major error over the whole text (so it covers
/// the damage) and a low score; the rest a high score by system (Alpha best), with a minor error
/// on the first word for Gamma.
fn careful(item_type: &str, system: &str, text: &str) -> (f64, Value) {
    if item_type == "BAD_REF" {
        return (10.0, json!([{ "start": 0, "end": text.chars().count(), "severity": "major" }]));
    }
    match system {
        "Alpha" => (92.0, json!([])),
        "Beta" => (75.0, json!([])),
        _ => (58.0, first_word(text, "minor")),
    }
}

/// Works through a HIT; returns the final step and what was sent per position.
async fn annotate(b: &Browser, org: &Browser, assignment: &str, answer: impl Fn(&str, &str, &str) -> (f64, Value)) -> (Value, BTreeMap<i64, (f64, Value, Option<f64>)>) {
    let facts = item_facts(org, assignment).await;
    let mut step = b.call("start_work", &[("assignment", assignment)]).await.json();
    let mut shown: Vec<String> = Vec::new();
    let mut sent = BTreeMap::new();
    while step["completion"].is_null() {
        let item = &step["item"];
        let p = item["position"].as_i64().unwrap();
        let mut keys: Vec<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["candidate", "context", "document", "position"], "every segment looks alike: {item}");
        let text = item["candidate"].as_str().unwrap().to_string();
        let doc = &item["document"];
        // Left context: the document's earlier segments as this HIT showed them.
        let k = doc["index"].as_u64().unwrap() as usize;
        let before: Vec<&str> = doc["before"].as_array().unwrap().iter().map(|c| c["candidate"].as_str().unwrap()).collect();
        assert_eq!(before.len(), k, "{item}");
        assert_eq!(before, shown[shown.len() - k..].iter().map(String::as_str).collect::<Vec<_>>(), "{item}");
        assert!(doc["after"].as_array().unwrap().is_empty());
        assert!(doc["before"].as_array().unwrap().iter().all(|c| !c["source"].as_str().unwrap().is_empty()));
        let last = k + 1 == doc["total"].as_u64().unwrap() as usize;
        assert_eq!(doc["document_score"].as_bool(), Some(last), "{item}");
        let (t, s) = &facts[&p];
        let (score, spans) = answer(t, s, &text);
        let document_score = last.then_some(score);
        let r = send(b, assignment, p, score, spans.clone(), document_score, &format!("k{p}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        sent.insert(p, (score, spans, document_score));
        shown.push(text);
        step = r.json();
    }
    (step, sent)
}

both_backends! {
    async fn an_esa_campaign_stores_spans_exactly_and_ranks_the_systems(server) {
        let (org, campaign, link, summary) = launch(&server).await;
        // 3 systems × 4 documents of about 100 source words (80 s each): 10-minute HITs.
        let hits = summary["hits"].as_u64().unwrap();
        assert!((2..=6).contains(&hits), "{summary}");
        assert!(summary["per_type"]["BAD_REF"].as_u64().unwrap() >= 10 * hits, "{summary}");
        assert!(summary["per_type"]["REPEAT"].as_u64().unwrap() >= 10 * hits, "{summary}");
        assert_eq!(summary["per_type"]["SYSTEM"], 3 * 40, "{summary}");

        let (w, a) = arrive_as(&server, &link, "CAREFUL").await;
        let step = w.call("start_work", &[("assignment", &a)]).await.json();
        let item = step["item"].clone();
        assert_eq!(item["position"], 0);
        assert_eq!(item["document"]["index"], 0);
        let text = item["candidate"].as_str().unwrap().to_string();
        let n = text.chars().count();

        // Refused, each with what is wrong, and nothing stored.
        for (spans, doc, why) in [
            (json!([{ "start": 0, "end": n + 3, "severity": "minor" }]), None, "outside the text"),
            (json!([{ "start": 2, "end": 2, "severity": "minor" }]), None, "empty"),
            (json!([{ "start": 0, "end": 1, "severity": "critical" }]), None, "critical"),
            (json!([{ "start": 0, "end": 1, "severity": "minor", "category": "Accuracy" }]), None, "category"),
            (json!([]), Some(50.0), "Only the last segment"),
        ] {
            let r = send(&w, &a, 0, 40.0, spans, doc, "bad").await;
            assert_eq!(r.status, 400, "{why}: {}", r.body);
            assert!(r.body.contains(why), "{why}: {}", r.body);
        }
        let r = w.call_json("submit_spans", json!({ "assignment": a, "position": 0, "score": 140.0, "spans": [], "time_on_screen_ms": 1, "key": "x" })).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(org.call("assignment_judgments", &[("assignment", &a)]).await.json().as_array().unwrap().len(), 0);

        // An omission and a span; a retry with the same key is answered, a change is refused.
        let spans = json!([{ "start": 0, "end": first_word(&text, "minor")[0]["end"], "severity": "major" }, { "start": 0, "end": 0, "severity": "minor", "missing": true }]);
        let r = send(&w, &a, 0, 33.5, spans.clone(), None, "first").await;
        assert_eq!(r.status, 200, "{}", r.body);
        let next = r.json();
        assert_eq!(next["answered"], 1);
        assert_eq!(next["item"]["document"]["before"][0]["candidate"], text, "{next}");
        let again = send(&w, &a, 0, 33.5, spans.clone(), None, "first").await;
        assert_eq!(again.status, 200, "a retry: {}", again.body);
        let changed = send(&w, &a, 0, 33.5, json!([]), None, "first").await;
        assert_eq!(changed.status, 409, "{}", changed.body);
        // The rest of the HIT.
        let facts_a = item_facts(&org, &a).await;
        let mut sent = BTreeMap::new();
        sent.insert(0, (33.5, spans.clone(), None));
        let (done, rest) = annotate_from(&w, &a, next, &facts_a, careful).await;
        sent.extend(rest);
        assert!(done["completion"]["code"].as_str().is_some_and(|c| !c.is_empty()), "{done}");

        // Stored exactly as sent.
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        let judgments = judgments.as_array().unwrap();
        assert_eq!(judgments.len(), sent.len());
        for j in judgments {
            let p = j["position"].as_i64().unwrap();
            let (score, spans, document_score) = &sent[&p];
            assert_eq!(j["score"].as_f64(), Some(*score), "{j}");
            let stored_spans = j["detail"]["spans"].as_array().cloned().unwrap_or_default();
            let want: Vec<Value> = spans
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    if s.get("missing").is_none() {
                        s.as_object_mut().unwrap().remove("missing");
                    }
                    s
                })
                .collect();
            assert_eq!(stored_spans, want, "position {p}: {j}");
            assert_eq!(j["detail"]["document_score"].as_f64(), *document_score, "{j}");
        }

        // The other HITs, by careful workers too, so every document of every system is judged.
        for h in 1..hits {
            let (b, x) = arrive_as(&server, &link, &format!("W{h}")).await;
            let (done, _) = annotate(&b, &org, &x, careful).await;
            assert!(!done["completion"].is_null());
        }
        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await;
        assert_eq!(view.status, 200, "{}", view.body);
        let view = view.json();
        let c = view["workers"].as_array().unwrap().iter().find(|r| r["worker"].as_str().unwrap().ends_with("CAREFUL")).cloned().unwrap();
        assert_eq!(c["task"], "esa", "{c}");
        assert!(c["n_pairs"].as_u64().unwrap() >= 10, "every degraded segment is paired with its original: {c}");
        assert_eq!(c["verdict"], "pass", "{c}");

        // The results rank the systems by their scores: Alpha, Beta, Gamma.
        let id = campaign.to_string();
        let r = org
            .call("campaign_results", &[("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let results = r.json();
        let esa = &results["esa"];
        let rows = esa["rows"].as_array().unwrap_or_else(|| panic!("an ESA section: {results}"));
        let order: Vec<&str> = rows.iter().map(|r| r["system"].as_str().unwrap()).collect();
        assert_eq!(order, ["Alpha", "Beta", "Gamma"], "{esa}");
        // Every segment of every system once (copies left out); Alpha beats Gamma on every pair.
        for r in rows {
            assert_eq!(r["n"], 40, "{r}");
        }
        assert_eq!((rows[0]["wins"].as_u64(), rows[0]["rank_lo"].as_u64(), rows[2]["losses"].as_u64()), (Some(2), Some(1), Some(2)), "{esa}");
        assert_eq!(esa["domains"], json!(["news"]), "{esa}");
        // The careful workers' spans: a minor one on each Gamma segment, none on Beta's (the
        // first segment of the first HIT, answered by the test itself, may add one to a system).
        let gamma = &rows[2];
        assert!(gamma["minor"].as_u64().unwrap() >= 39 && gamma["error_free"].as_u64().unwrap() <= 1, "{gamma}");
        assert!(rows[1]["minor"].as_u64().unwrap() + rows[1]["major"].as_u64().unwrap() <= 1, "{}", rows[1]);
        assert!(esa["note"].as_str().unwrap().contains("100 segments"), "a thin pair is said to be thin: {esa}");
        assert!(esa["spans_svg"].as_str().unwrap().contains("error-spans"), "{esa}");
        // Quality control by spans: every degraded segment of the careful workers has a span on
        // its damage.
        let regions = esa["region_hits"].as_array().unwrap();
        assert_eq!(regions.len() as u64, hits, "{esa}");
        for r in regions {
            let degraded = r["degraded"].as_u64().unwrap();
            assert!(degraded >= 5, "{r}");
            assert_eq!((r["on_region"].as_u64(), r["rate"].as_f64()), (Some(degraded), Some(1.0)), "{r}");
        }
        assert!(esa["agreement"].is_null(), "one worker per output: nothing to agree on");
        let files: Vec<&str> = results["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        for f in ["esa-en-de.csv", "esa-ranking-en-de.csv", "esa-pvalues-en-de.csv", "esa-spans.csv"] {
            assert!(files.contains(&f), "{f} offered: {files:?}");
        }
        // The campaign's ratings as the Appraise/WMT 2024 ESA CSV: every judgment, plus a line per
        // document score; what the worker sent, spans included.
        let url = format!("{}/campaigns/{id}/export/esa-en-de.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base);
        let r = org.client.get(url).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let csv = r.text().await.unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        let documents = sent.values().filter(|(_, _, d)| d.is_some()).count();
        assert!(lines.len() > sent.len(), "{} lines", lines.len());
        let careful_lines: Vec<&&str> = lines.iter().filter(|l| l.starts_with("link:CAREFUL,")).collect();
        assert_eq!(careful_lines.len(), sent.len() + documents, "one line per judgment and per document score");
        assert!(careful_lines.iter().all(|l| l.contains(",eng,deu,")), "ISO 639-3 languages: {}", careful_lines[0]);
        let first = careful_lines.iter().find(|l| l.contains("\"\"missing\"\"")).expect("the omission of the first answer");
        assert!(first.contains(",33.5,") && first.contains("\"\"severity\"\":\"\"major\"\""), "{first}");
        let ranking = org
            .client
            .get(format!("{}/campaigns/{id}/export/esa-ranking-en-de.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=cleaned", server.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(ranking.lines().next(), Some("system,score,n,wins,losses,rank_lo,rank_hi,cluster"));
        let best: Vec<&str> = ranking.lines().nth(1).unwrap().split(',').collect();
        assert_eq!((best[0], best[2], best[3], best[4], best[5], best[6]), ("Alpha", "40", "2", "0", "1", "1"), "{ranking}");
    }
}

/// [`annotate`] from a step already shown (the first item answered by the test itself).
async fn annotate_from(
    b: &Browser,
    assignment: &str,
    mut step: Value,
    facts: &BTreeMap<i64, (String, String)>,
    answer: impl Fn(&str, &str, &str) -> (f64, Value),
) -> (Value, BTreeMap<i64, (f64, Value, Option<f64>)>) {
    let mut sent = BTreeMap::new();
    while step["completion"].is_null() {
        let item = &step["item"];
        let p = item["position"].as_i64().unwrap();
        let doc = &item["document"];
        let last = doc["index"].as_u64().unwrap() + 1 == doc["total"].as_u64().unwrap();
        let (t, s) = &facts[&p];
        let (score, spans) = answer(t, s, item["candidate"].as_str().unwrap());
        let document_score = last.then_some(score);
        let r = send(b, assignment, p, score, spans.clone(), document_score, &format!("k{p}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        sent.insert(p, (score, spans, document_score));
        step = r.json();
    }
    (step, sent)
}

both_backends! {
    async fn a_simulated_esa_crowd_careful_pass_careless_are_caught_and_the_ranking_recovers_the_order(server) {
        let (org, campaign, _, summary) = launch_with(&server, 2).await;
        let hits = summary["hits"].as_u64().unwrap().to_string();
        // One slot of every HIT to careful annotators, the other to random clickers.
        let careful = simulate_on(&server, campaign, "careful=1", "1", &["--workers", &hits]);
        assert!(careful.contains(&format!("did {hits} HITs")), "{careful}");
        let random = simulate_on(&server, campaign, "random=1", "2", &["--workers", &hits]);
        assert!(random.contains(&format!("did {hits} HITs")), "{random}");

        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await.json();
        let rows = view["workers"].as_array().unwrap();
        let of = |prefix: &str| rows.iter().filter(|r| r["worker"].as_str().unwrap().contains(prefix)).cloned().collect::<Vec<Value>>();
        let (careful, random) = (of("sim-1-"), of("sim-2-"));
        assert!(!careful.is_empty() && careful.len() == random.len(), "{view}");
        for c in &careful {
            assert_eq!((c["task"].as_str(), c["verdict"].as_str()), (Some("esa"), Some("pass")), "{c}");
            assert!(c["n_pairs"].as_u64().unwrap() >= 10, "{c}");
        }
        let caught = random.iter().filter(|r| r["verdict"] == "fail").count();
        assert!(caught * 4 >= random.len() * 3, "most random clickers are caught: {random:?}");

        // The kept (careful) annotators' ratings rank the systems in their true order: the
        // simulator spreads the systems' qualities in the order of their names, Gamma best.
        let id = campaign.to_string();
        let r = org
            .call("campaign_results", &[("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await
            .json();
        let order: Vec<&str> = r["esa"]["rows"].as_array().unwrap().iter().map(|x| x["system"].as_str().unwrap()).collect();
        assert_eq!(order, ["Gamma", "Beta", "Alpha"], "{}", r["esa"]);
        assert!(r["esa"]["workers_excluded"].as_u64().unwrap() >= caught as u64, "{}", r["esa"]);
        // The simulated annotators mark spans: the worst system gets the most per segment.
        let per: Vec<f64> = r["esa"]["rows"].as_array().unwrap().iter().map(|x| x["spans_per_segment"].as_f64().unwrap()).collect();
        assert!(per[0] < per[2], "{per:?}");
    }
}

/// An MQM campaign on the same documents: `max_errors` errors per segment at most.
async fn launch_mqm(server: &TestServer) -> (Browser, i64, String, u64) {
    let (org, set, systems) = organizer_with_set(server, "mqm-set").await;
    let draft = json!({
        "name": "MQM en-de", "task": "mqm", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 12,
        "settings": {
            "hit_minutes": 10.0, "bad_refs": 1, "repeats": 1, "judgments_wanted": 1, "wanted_per": "segment", "redundancy": 1,
            "mqm": { "max_errors": 3 }, "target_language": "German"
        }
    });
    let (id, link_path, summary) = create_and_launch(&org, &draft).await;
    (org, id, link_path, summary["hits"].as_u64().unwrap())
}

async fn send_mqm(b: &Browser, assignment: &str, position: i64, spans: Value, key: &str) -> Answer {
    b.call_json("submit_spans", json!({ "assignment": assignment, "position": position, "score": null, "spans": spans, "time_on_screen_ms": 20000, "key": key })).await
}

both_backends! {
    async fn an_mqm_campaign_scores_segments_by_their_weighted_errors(server) {
        let (org, campaign, link, hits) = launch_mqm(&server).await;
        assert!(hits >= 2, "{hits} HITs");
        let (w, a) = arrive_as(&server, &link, "MQM-CAREFUL").await;
        let facts_a = item_facts(&org, &a).await;
        let step = w.call("start_work", &[("assignment", &a)]).await.json();
        let text = step["item"]["candidate"].as_str().unwrap().to_string();
        assert!(step["item"]["document"].is_object(), "documents as context: {step}");
        let word = first_word(&text, "major")[0]["end"].as_u64().unwrap();
        // Refused: no category, one outside the campaign's list, ESA's score, a fourth error,
        // a minor non-translation.
        for (spans, why) in [
            (json!([{ "start": 0, "end": word, "severity": "major" }]), "category"),
            (json!([{ "start": 0, "end": word, "severity": "major", "category": "Accuracy/Made up" }]), "not in this campaign's error list"),
            (json!([{ "start": 0, "end": word, "severity": "minor", "category": "Non-translation!" }]), "non-translation"),
            (json!([0, 1, 2, 3].iter().map(|_| json!({ "start": 0, "end": word, "severity": "minor", "category": "Fluency/Grammar" })).collect::<Vec<_>>()), "at most 3"),
        ] {
            let r = send_mqm(&w, &a, 0, spans, "bad").await;
            assert_eq!(r.status, 400, "{why}: {}", r.body);
            assert!(r.body.to_lowercase().contains(&why.to_lowercase()), "{why}: {}", r.body);
        }
        let with_score = w.call_json("submit_spans", json!({ "assignment": a, "position": 0, "score": 50.0, "spans": [], "time_on_screen_ms": 1, "key": "s" })).await;
        assert_eq!(with_score.status, 400, "{}", with_score.body);

        // A careful annotator: a major mistranslation on degraded segments, a minor punctuation
        // error on Gamma's, nothing on Alpha's, a minor grammar error on Beta's.
        let mut step = step;
        let mut expected = BTreeMap::new();
        while step["completion"].is_null() {
            let p = step["item"]["position"].as_i64().unwrap();
            let text = step["item"]["candidate"].as_str().unwrap();
            let end = first_word(text, "minor")[0]["end"].clone();
            let (spans, score) = match (facts_a[&p].0.as_str(), facts_a[&p].1.as_str()) {
                ("BAD_REF", _) => (json!([{ "start": 0, "end": end, "severity": "major", "category": "Accuracy/Mistranslation" }, { "start": 0, "end": 0, "severity": "minor", "category": "Accuracy/Omission", "missing": true }]), -6.0),
                (_, "Alpha") => (json!([]), 0.0),
                (_, "Beta") => (json!([{ "start": 0, "end": end, "severity": "minor", "category": "Fluency/Grammar" }]), -1.0),
                _ => (json!([{ "start": 0, "end": end, "severity": "minor", "category": "Fluency/Punctuation" }, { "start": 0, "end": 0, "severity": "major", "category": "Accuracy/Omission", "missing": true }]), -5.1),
            };
            let r = send_mqm(&w, &a, p, spans, &format!("m{p}")).await;
            assert_eq!(r.status, 200, "{}", r.body);
            expected.insert(p, score);
            step = r.json();
        }
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        for j in judgments.as_array().unwrap() {
            let p = j["position"].as_i64().unwrap();
            assert!((j["score"].as_f64().unwrap() - expected[&p]).abs() < 1e-9, "−Σ weights: {j}");
        }
        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await.json();
        let c = view["workers"].as_array().unwrap().iter().find(|r| r["worker"].as_str().unwrap().ends_with("MQM-CAREFUL")).cloned().unwrap();
        assert_eq!((c["task"].as_str(), c["verdict"].as_str()), (Some("mqm"), Some("pass")), "{c}");

        // The other HITs by careful workers the same way, then the ranking and the categories.
        for h in 1..hits {
            let (b, x) = arrive_as(&server, &link, &format!("M{h}")).await;
            let facts_x = item_facts(&org, &x).await;
            let mut step = b.call("start_work", &[("assignment", &x)]).await.json();
            while step["completion"].is_null() {
                let p = step["item"]["position"].as_i64().unwrap();
                let end = first_word(step["item"]["candidate"].as_str().unwrap(), "minor")[0]["end"].clone();
                let spans = match (facts_x[&p].0.as_str(), facts_x[&p].1.as_str()) {
                    ("BAD_REF", _) => json!([{ "start": 0, "end": end, "severity": "major", "category": "Accuracy/Mistranslation" }, { "start": 0, "end": 0, "severity": "major", "category": "Accuracy/Omission", "missing": true }]),
                    (_, "Alpha") => json!([]),
                    (_, "Beta") => json!([{ "start": 0, "end": end, "severity": "minor", "category": "Fluency/Grammar" }]),
                    _ => json!([{ "start": 0, "end": end, "severity": "major", "category": "Accuracy/Mistranslation" }]),
                };
                let r = send_mqm(&b, &x, p, spans, &format!("m{p}")).await;
                assert_eq!(r.status, 200, "{}", r.body);
                step = r.json();
            }
        }
        let id = campaign.to_string();
        let r = org
            .call("campaign_results", &[("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await
            .json();
        let esa = &r["esa"];
        assert_eq!(esa["protocol"], "MQM", "{esa}");
        let order: Vec<&str> = esa["rows"].as_array().unwrap().iter().map(|x| x["system"].as_str().unwrap()).collect();
        assert_eq!(order, ["Alpha", "Beta", "Gamma"], "{esa}");
        assert_eq!(esa["rows"][0]["score"].as_f64(), Some(0.0), "{esa}");
        assert_eq!((esa["annotators"].as_u64(), esa["workers_excluded"].as_u64()), (Some(hits), Some(0)), "every careful worker kept: {esa}");
        let categories: Vec<&str> = esa["categories"].as_array().unwrap().iter().map(|c| c[0].as_str().unwrap()).collect();
        assert!(categories.contains(&"Fluency/Grammar") && categories.contains(&"Accuracy/Mistranslation"), "{esa}");
        let files: Vec<&str> = r["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        for f in ["mqm-en-de.csv", "mqm-ranking-en-de.csv", "mqm-spans.csv", "mqm-categories.csv", "mqm-en-de.tsv"] {
            assert!(files.contains(&f), "{f}: {files:?}");
        }
        // Google's MQM TSV of the campaign, read back by `assay analyze --input`: the same scores
        // and the same order.
        let tsv = org
            .client
            .get(format!("{}/campaigns/{id}/export/mqm-en-de.tsv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(tsv.starts_with("system\tdoc\tdoc_seg_id"), "{}", &tsv[..200.min(tsv.len())]);
        assert!(tsv.contains("\tNo-error\t"), "Alpha's segments have no error");
        // doc_seg_id is the segment's 1-based place in its document (as Google's releases), the
        // global id its key: documents of 10 segments, keys 1–40.
        let mut places = std::collections::BTreeSet::new();
        for row in tsv.lines().skip(1) {
            let f: Vec<&str> = row.split('\t').collect();
            let (doc_seg, global): (usize, usize) = (f[2].parse().unwrap(), f[3].parse().unwrap());
            assert_eq!(doc_seg, (global - 1) % 10 + 1, "{row}");
            assert_eq!(f[1], format!("doc{}", (global - 1) / 10), "{row}");
            places.insert(doc_seg);
        }
        assert!(places.len() > 1 && places.iter().all(|&p| (1..=10).contains(&p)), "{places:?}");
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("campaign.tsv");
        std::fs::write(&input, &tsv).unwrap();
        let out = dir.path().join("out");
        let run = std::process::Command::new(assay_bin())
            .args(["analyze", "--input", input.to_str().unwrap(), "--mqm-pair", "en-de", "--esa-min-segments", "0", "--out", out.to_str().unwrap()])
            .env("ASSAY_LOG", "warn")
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let scores = std::fs::read_to_string(out.join("mqm-ranking-en-de.csv")).unwrap();
        let from_file: Vec<(String, f64)> = scores.lines().skip(1).map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        }).collect();
        let from_page: Vec<(String, f64)> = esa["rows"].as_array().unwrap().iter().map(|x| (x["system"].as_str().unwrap().to_string(), x["score"].as_f64().unwrap())).collect();
        assert_eq!(from_file.len(), 3, "{scores}");
        for ((a, x), (b, y)) in from_file.iter().zip(&from_page) {
            assert_eq!(a, b, "{scores}");
            assert!((x - y).abs() < 1e-9, "{scores} vs {from_page:?}");
        }
    }
}

both_backends! {
    async fn two_simulated_annotators_per_output_agree_on_spans_and_scores(server) {
        let (org, campaign, _, summary) = launch_with(&server, 2).await;
        let workers = (2 * summary["hits"].as_u64().unwrap()).to_string();
        let out = simulate_on(&server, campaign, "careful=1", "3", &["--workers", &workers]);
        assert!(out.contains(&format!("did {workers} HITs")), "{out}");
        let id = campaign.to_string();
        let r = org
            .call("campaign_results", &[("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await
            .json();
        let g = &r["esa"]["agreement"];
        // Every system output (3 systems × 40 segments) rated by two careful annotators, whose
        // spans follow their (correlated) scores.
        assert_eq!(g["items"], 120, "{g}");
        assert!(g["pearson_r"].as_f64().unwrap() > 0.5, "{g}");
        let f1 = g["micro_f1"].as_f64().unwrap();
        assert!(f1 > 0.3 && f1 <= 1.0, "{g}");
        assert!(g["kappa"].as_f64().unwrap() > 0.2, "{g}");
        // The simulated annotators mark the first words, not the damage: the span check says so.
        let regions = r["esa"]["region_hits"].as_array().unwrap();
        assert!(!regions.is_empty() && regions.iter().all(|x| x["rate"].as_f64().unwrap() < 1.0), "{regions:?}");
    }
}

both_backends! {
    /// MQM asks a document's score at the document's end when the campaign wants it (issue 38
    /// row 15a, as Appraise's document task): only the last segment of a document takes it, it
    /// is refused without it and out of 0–100, stored with the segment's errors (whose −Σ
    /// weights stay the segment's score), and written to the campaign's ratings file as a line
    /// of its own (`isCompleteDocument` True).
    async fn an_mqm_campaign_asks_a_documents_score_at_its_end(server) {
        let (org, set, systems) = organizer_with_set(&server, "mqm-doc-set").await;
        let draft = json!({
            "name": "MQM documents", "task": "mqm", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 12,
            "settings": {
                "hit_minutes": 10.0, "bad_refs": 1, "repeats": 1, "judgments_wanted": 1, "wanted_per": "segment", "redundancy": 1,
                "document_score": true, "target_language": "German"
            }
        });
        let (id, link, _) = create_and_launch(&org, &draft).await;
        let (w, a) = arrive_as(&server, &link, "MQM-DOC").await;
        let facts = item_facts(&org, &a).await;
        let mut step = w.call("start_work", &[("assignment", &a)]).await.json();
        let (mut asked, mut sent) = (0, 0);
        while step["completion"].is_null() {
            let p = step["item"]["position"].as_i64().unwrap();
            let wants = step["item"]["document"]["document_score"].as_bool().unwrap_or(false);
            let text = step["item"]["candidate"].as_str().unwrap();
            let end = text.chars().take_while(|c| !c.is_whitespace()).count();
            // A careful annotator: a major error on a degraded segment, a minor one elsewhere.
            let spans = if facts[&p].0 == "BAD_REF" {
                json!([{ "start": 0, "end": end, "severity": "major", "category": "Accuracy/Mistranslation" }])
            } else {
                json!([{ "start": 0, "end": end, "severity": "minor", "category": "Fluency/Grammar" }])
            };
            let body = |doc: Option<f64>, key: &str| {
                json!({ "assignment": a, "position": p, "score": null, "spans": spans, "document_score": doc, "time_on_screen_ms": 20000, "key": key })
            };
            if wants {
                asked += 1;
                let without = w.call_json("submit_spans", body(None, &format!("n{p}"))).await;
                assert_eq!(without.status, 400, "{}", without.body);
                assert!(without.body.contains("whole document"), "{}", without.body);
                let out_of_range = w.call_json("submit_spans", body(Some(140.0), &format!("o{p}"))).await;
                assert_eq!(out_of_range.status, 400, "{}", out_of_range.body);
                let r = w.call_json("submit_spans", body(Some(61.5), &format!("d{p}"))).await;
                assert_eq!(r.status, 200, "{}", r.body);
                sent += 1;
                step = r.json();
            } else {
                let early = w.call_json("submit_spans", body(Some(61.5), &format!("e{p}"))).await;
                assert_eq!(early.status, 400, "only a document's last segment takes its score: {}", early.body);
                let r = w.call_json("submit_spans", body(None, &format!("m{p}"))).await;
                assert_eq!(r.status, 200, "{}", r.body);
                step = r.json();
            }
        }
        assert!(asked >= 2, "every document of the HIT ends with its score: {asked}");
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        for j in judgments.as_array().unwrap() {
            let weights = if facts[&j["position"].as_i64().unwrap()].0 == "BAD_REF" { 5.0 } else { 1.0 };
            assert!((j["score"].as_f64().unwrap() + weights).abs() < 1e-9, "−Σ weights, the document's score apart: {j}");
        }
        let url = format!("{}/campaigns/{id}/export/mqm-en-de.csv?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base);
        let r = org.client.get(url).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let csv = r.text().await.unwrap();
        let mine: Vec<&str> = csv.lines().filter(|l| l.starts_with("link:MQM-DOC,")).collect();
        let documents: Vec<&&str> = mine.iter().filter(|l| l.contains(",61.5,") && l.contains(",True,")).collect();
        assert_eq!(documents.len(), sent, "one line per document score: {csv}");
        assert_eq!(mine.len(), judgments.as_array().unwrap().len() + sent, "{csv}");
        // The results show the document scores per system (the careful worker is kept).
        let results = org
            .call("campaign_results", &[("campaign_id", id.to_string().as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await
            .json();
        let scores = results["esa"]["document_scores"].as_array().unwrap().clone();
        assert!(!scores.is_empty(), "{}", results["esa"]);
        assert!(scores.iter().all(|s| (s[2].as_f64().unwrap() - 61.5).abs() < 1e-9), "{scores:?}");
    }
}
