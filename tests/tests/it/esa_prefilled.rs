//! Pre-filled error spans (ESA-AI, issue 20 item 4), over HTTP on both databases: a TSV with a
//! `spans` column is imported (a span that does not fit its output fails the whole import,
//! naming file and line); an ESA campaign's screens start with the output's spans, quality-control
//! copies too (a degraded copy keeps the spans that still fit, so the browser cannot tell it
//! from an original); the annotator keeps, removes and adds spans; the answer stores the final
//! spans; the exports give every span's fate and the counts per system; a campaign with the
//! setting off shows none.

use assay_tests::*;
use serde_json::{Value, json};

const DOCS: usize = 4;
const SEGS: usize = 5;

fn output(system: &str, d: usize, s: usize) -> String {
    format!("{system} übersetzt den Satz {s} im Dokument {d} ganz ordentlich hier.")
}

/// The pre-filled spans of an output: its first word (the system's name) as major, and on the
/// second segment of each document an omission.
fn spans_of(system: &str, s: usize) -> Value {
    let mut v = vec![json!({ "start_i": 0, "end_i": system.chars().count(), "severity": "major" })];
    if s == 1 {
        v.push(json!({ "start_i": "missing", "end_i": "missing", "severity": "minor" }));
    }
    Value::Array(v)
}

/// The same spans as the screens and answers write them.
fn assay_spans(system: &str, s: usize) -> Value {
    let mut v = vec![json!({ "start": 0, "end": system.chars().count(), "severity": "major" })];
    if s == 1 {
        v.push(json!({ "start": 0, "end": 0, "severity": "minor", "missing": true }));
    }
    Value::Array(v)
}

fn tsv(broken_line: Option<usize>) -> String {
    let mut out = String::from("segment_id\tdocument\tsource\tsystem\toutput\tspans\n");
    let mut line = 1;
    for d in 0..DOCS {
        for s in 0..SEGS {
            for system in ["Alpha", "Beta"] {
                line += 1;
                let spans = if broken_line == Some(line) {
                    json!([{ "start_i": 3, "end_i": 400, "severity": "minor" }])
                } else {
                    spans_of(system, s)
                };
                out.push_str(&format!(
                    "{d}-{s}\tdoc{d}\tThe source sentence {s} of document {d} reads well enough.\t{system}\t{}\t{spans}\n",
                    output(system, d, s)
                ));
            }
        }
    }
    out
}

async fn upload(org: &Browser, name: &str, body: String) -> (u16, String) {
    let r = org
        .client
        .post(format!("{}/upload/import", org.base))
        .header("x-assay-file-name", format!("{name}.tsv"))
        .header("x-assay-test-set", name)
        .header("x-assay-pair", "en-de")
        .body(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

async fn launch(org: &Browser, set: i64, systems: &[i64], show_prefilled: bool) -> (i64, String) {
    let draft = json!({
        "name": format!("ESA-AI {show_prefilled}"),
        "task": "esa",
        "test_set_id": set,
        "systems": systems,
        "benchmark_systems": [],
        "seed": 5,
        "settings": {
            "hit_minutes": 30.0, "seconds_per_source_word": 0.8, "bad_refs": 2, "repeats": 1,
            "judgments_wanted": 1, "wanted_per": "segment", "redundancy": 1,
            "document_context": "left", "document_score": false, "target_language": "German",
            "show_prefilled": show_prefilled
        }
    });
    let (id, link, _) = create_and_launch(org, &draft).await;
    (id, link)
}

/// The text a span marks (`None` for an omission).
fn marked(text: &str, span: &Value) -> Option<String> {
    if span["missing"].as_bool() == Some(true) {
        return None;
    }
    let (s, e) = (span["start"].as_u64().unwrap() as usize, span["end"].as_u64().unwrap() as usize);
    Some(text.chars().skip(s).take(e - s).collect())
}

async fn export(server: &TestServer, org: &Browser, id: i64, file: &str) -> String {
    let url = format!("{}/campaigns/{id}/export/{file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base);
    let r = org.client.get(url).send().await.unwrap();
    assert_eq!(r.status(), 200, "{file}");
    r.text().await.unwrap()
}

both_backends! {
    async fn prefilled_spans_are_shown_kept_changed_and_exported_with_their_fates(server) {
        let org = server.browser();
        assert_eq!(org.login(ORGANIZER).await.status, 200);

        // A span beyond its output: the whole import is refused, naming file, line and span.
        let (status, body) = upload(&org, "esa-ai-broken", tsv(Some(7))).await;
        assert_ne!(status, 200, "{body}");
        assert!(body.contains("esa-ai-broken.tsv, line 7: system `Beta`, segment `0-2`: pre-filled span 1: the span 3–400 lies outside the text"), "{body}");
        let sets = org.call("list_test_sets", &[]).await.json();
        assert!(sets.as_array().unwrap().iter().all(|t| t["name"] != "esa-ai-broken"), "nothing stored: {sets}");

        let (status, body) = upload(&org, "esa-ai", tsv(None)).await;
        assert_eq!(status, 200, "{body}");
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|t| t["name"] == "esa-ai").unwrap().clone();
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        assert_eq!(systems.len(), 2);

        let (id, link) = launch(&org, set["id"].as_i64().unwrap(), &systems, true).await;
        let (w, a) = arrive_as(&server, &link, "AI-REVIEWER").await;
        let items = org.call("assignment_items", &[("assignment", &a)]).await.json();
        let items = items.as_array().unwrap().clone();
        let item_at = |p: i64| items.iter().find(|i| i["position"] == p).unwrap().clone();

        let mut step = w.call("start_work", &[("assignment", &a)]).await.json();
        let (mut bad_with_spans, mut bad_total, mut checked_beta) = (0, 0, None);
        while step["completion"].is_null() {
            let item = step["item"].clone();
            let p = item["position"].as_i64().unwrap();
            let facts = item_at(p);
            let (kind, system) = (facts["item_type"].as_str().unwrap(), facts["system"].as_str().unwrap());
            let text = item["candidate"].as_str().unwrap();
            // The source says which segment this is: "The source sentence S of document D …".
            let source: Vec<&str> = item["context"].as_str().unwrap().split(' ').collect();
            let (seg, doc): (usize, usize) = (source[3].parse().unwrap(), source[6].parse().unwrap());
            let prefilled = item["prefilled"].clone();
            // Every item that shows spans looks the same, a copy or an original.
            let mut keys: Vec<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort();
            let want_keys: &[&str] = if prefilled.is_null() { &["candidate", "context", "document", "position"] } else { &["candidate", "context", "document", "position", "prefilled"] };
            assert_eq!(keys, want_keys, "{item}");
            match kind {
                "SYSTEM" | "REPEAT" => assert_eq!(prefilled, assay_spans(system, seg), "the output's spans as imported: {item}"),
                "BAD_REF" => {
                    // A degraded copy keeps its original's spans that still mark the same words.
                    bad_total += 1;
                    let original = &output(system, doc, seg);
                    let want = assay_spans(system, seg);
                    let shown = prefilled.as_array().cloned().unwrap_or_default();
                    bad_with_spans += usize::from(!shown.is_empty());
                    for s in &shown {
                        let same = want.as_array().unwrap().iter().any(|o| o["severity"] == s["severity"] && marked(original, o) == marked(text, s));
                        assert!(same, "{s} on {text:?} (original {original:?})");
                    }
                    if text.starts_with(&format!("{system} ")) {
                        assert!(shown.iter().any(|s| s["start"] == 0), "the first word is unchanged, so its span stays: {item}");
                    }
                }
                other => panic!("unexpected {other}"),
            }
            // Alpha's spans are accepted as they are; Beta's first is removed and one added on
            // the last word; a degraded copy gets one major error over its whole text.
            let (score, spans) = match (kind, system) {
                ("BAD_REF", _) => (10.0, json!([{ "start": 0, "end": text.chars().count(), "severity": "major" }])),
                (_, "Alpha") => (90.0, prefilled.clone()),
                _ => {
                    let mut v: Vec<Value> = prefilled.as_array().unwrap()[1..].to_vec();
                    let n = text.chars().count();
                    let last = text.trim_end_matches('.').rfind(' ').map(|b| text[..b + 1].chars().count()).unwrap();
                    v.push(json!({ "start": last, "end": n - 1, "severity": "minor" }));
                    (70.0, Value::Array(v))
                }
            };
            let r = w
                .call_json("submit_spans", json!({ "assignment": a, "position": p, "score": score, "spans": spans, "document_score": null, "time_on_screen_ms": 15000, "key": format!("k{p}") }))
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            if kind == "SYSTEM" && system == "Beta" && checked_beta.is_none() {
                checked_beta = Some((p, spans.clone()));
            }
            step = r.json();
        }
        assert!(bad_total >= 5, "{bad_total} degraded segments");
        assert!(bad_with_spans > 0, "degraded copies show pre-filled spans too");

        // The answer holds the final spans, not the pre-filled ones.
        let (p, sent) = checked_beta.unwrap();
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        let j = judgments.as_array().unwrap().iter().find(|j| j["position"] == p).unwrap();
        assert_eq!(j["detail"]["spans"], sent, "{j}");

        // Per system: Alpha 20 first-word spans and 4 omissions accepted; Beta's 20 first words
        // removed, its 4 omissions accepted, 20 spans added.
        let summary = export(&server, &org, id, "esa-prefilled.csv").await;
        let mut lines = summary.lines();
        assert_eq!(lines.next(), Some("system,ratings,prefilled,accepted,changed,removed,added,char_f1"));
        let rows: Vec<&str> = lines.collect();
        assert!(rows.contains(&"Alpha,20,24,24,0,0,0,1.0000"), "{summary}");
        assert!(rows.iter().any(|r| r.starts_with("Beta,20,24,4,0,20,20,")), "{summary}");

        let per_span = export(&server, &org, id, "esa-prefilled-spans.csv").await;
        assert!(per_span.starts_with("user,system,item,item_type,document,fate,prefilled_start,prefilled_end,prefilled_severity,prefilled_category,final_start,final_end,final_severity,final_category\n"));
        let count = |f: &dyn Fn(&str) -> bool| per_span.lines().skip(1).filter(|l| f(l)).count();
        assert_eq!(count(&|l| l.contains(",Beta,") && l.contains(",TGT,") && l.contains(",removed,0,4,major,,,,,")), 20, "{per_span}");
        assert_eq!(count(&|l| l.contains(",Beta,") && l.contains(",TGT,") && l.contains(",added,,,,,")), 20);
        assert_eq!(count(&|l| l.contains(",Alpha,") && l.contains(",TGT,") && l.contains(",accepted,missing,missing,minor,,missing,missing,minor,")), 4);
        assert!(count(&|l| l.contains(",BAD,")) > 0, "degraded copies' spans have fates too");

        // The results page's table.
        let id_text = id.to_string();
        let results = org
            .call("campaign_results", &[("campaign_id", id_text.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(results.status, 200, "{}", results.body);
        let r = results.json();
        let pre = &r["esa"]["prefilled"];
        assert!(pre.as_array().is_some_and(|v| v.iter().any(|x| x["system"] == "Alpha" && x["accepted"] == 24 && x["f1"] == 1.0)), "{pre}");
        assert!(pre.as_array().is_some_and(|v| v.iter().any(|x| x["system"] == "Beta" && x["removed"] == 20 && x["added"] == 20)), "{pre}");

        // With the setting off the screens start empty.
        let (_, link) = launch(&org, set["id"].as_i64().unwrap(), &systems, false).await;
        let (w2, a2) = arrive_as(&server, &link, "NO-AI").await;
        let step = w2.call("start_work", &[("assignment", &a2)]).await.json();
        assert!(step["item"]["prefilled"].is_null(), "{step}");
    }
}

/// Appraise's document batch JSON as WMT 2024's ESA batches write it: `sourceID` the language
/// pair, `itemID` the segment, `documentID` the document, `mqm` pre-filled spans, left context
/// fields, a `#bad` copy and a document-level item (both skipped).
fn appraise_batches() -> String {
    let mut items = Vec::new();
    for d in 0..2 {
        for s in 0..3 {
            for system in ["Alpha", "Beta"] {
                let item = 100 + d * 10 + s;
                items.push(json!({
                    "itemID": item, "itemType": "TGT", "sourceID": "en-de", "targetID": system, "documentID": format!("test-en-news_d{d}"),
                    "sourceText": format!("The source sentence {s} of document {d} reads well enough."),
                    "targetText": output(system, d, s), "isCompleteDocument": false,
                    "sourceContextLeft": if s > 0 { "earlier" } else { "" }, "targetContextLeft": "",
                    "mqm": spans_of(system, s), "_item": "", "_block": -1
                }));
            }
        }
        items.push(json!({
            "itemID": 100 + d * 10, "itemType": "BAD", "sourceID": "en-de", "targetID": "Alpha", "documentID": format!("test-en-news_d{d}#bad"),
            "sourceText": format!("The source sentence 0 of document {d} reads well enough."), "targetText": "kaputt", "mqm": [], "isCompleteDocument": false
        }));
        items.push(json!({
            "itemID": 100 + d * 10 + 9, "itemType": "TGT", "sourceID": "en-de", "targetID": "Alpha", "documentID": format!("test-en-news_d{d}"),
            "sourceText": "whole", "targetText": "ganz", "mqm": [], "isCompleteDocument": true
        }));
    }
    json!([{ "items": items, "task": { "batchNo": 1, "randomSeed": 1, "requiredAnnotations": 1, "sourceLanguage": "eng", "targetLanguage": "deu" } }]).to_string()
}

both_backends! {
    async fn appraise_document_batches_import_with_documents_and_prefilled_spans(server) {
        let org = server.browser();
        assert_eq!(org.login(ORGANIZER).await.status, 200);
        let r = org
            .client
            .post(format!("{}/upload/import", org.base))
            .header("x-assay-file-name", "batches_esa.json")
            .header("x-assay-test-set", "appraise-esa")
            .body(appraise_batches())
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let body = r.text().await.unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("keyed by documentID and itemID"), "{body}");
        assert!(body.contains("sourceContextLeft"), "{body}");
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|t| t["name"] == "appraise-esa").unwrap().clone();
        assert_eq!(set["segments"], 6, "6 segments, keyed by itemID: {set}");
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        assert_eq!(systems.len(), 2);

        // A campaign on it: documents of three segments, each screen with its pre-filled spans.
        let draft = json!({
            "name": "Appraise ESA", "task": "esa", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 2,
            "settings": { "hit_minutes": 60.0, "seconds_per_source_word": 0.8, "bad_refs": 0, "repeats": 0, "judgments_wanted": 1,
                          "wanted_per": "segment", "redundancy": 1, "document_context": "left", "target_language": "German" }
        });
        let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.body.trim().to_string();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &id)]).await.status, 200);
        let progress = org.call("campaign_progress", &[("campaign_id", &id)]).await.json();
        let link = progress["crowd_link"].as_str().unwrap();
        let link = format!("/{}", link.split_once("://").unwrap().1.split_once('/').unwrap().1);
        let (w, a) = arrive_as(&server, &link, "APPRAISE").await;
        let step = w.call("start_work", &[("assignment", &a)]).await.json();
        let item = &step["item"];
        assert_eq!(item["document"]["total"], 3, "{item}");
        assert_eq!(item["document"]["index"], 0, "{item}");
        let system = item["candidate"].as_str().unwrap().split(' ').next().unwrap();
        assert_eq!(item["prefilled"], assay_spans(system, 0), "{item}");
    }
}
