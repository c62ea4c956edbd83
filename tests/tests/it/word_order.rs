//! Word-order results: both questions of METHOD §1 are analysed, each as a task of its own, on
//! both databases. The demo annotator answers the demo's word-order HIT with a different
//! pattern per question; the results must carry one group per question with the raw means of
//! that question's answers.

use assay_tests::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// The box value (0, .25, …, 1) the test gives each item for question `q`.
fn answer(q: u8, position: i64, item_type: &str, rank: usize) -> f64 {
    let boxes = match (q, item_type) {
        // Degraded items get the worst box, references the best.
        (_, "BAD_REF") => 0,
        (_, "REF") => 4,
        // Q1 follows the system's quality; Q2 is the same for every system but varies by item.
        (1, _) => (1 + rank).min(3),
        _ => 2 + (position % 2) as usize,
    };
    boxes as f64 / 4.0
}

both_backends! {
    async fn word_order_results_have_one_group_per_question(server) {
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let mine = annotator.call("my_assignments", &[]).await.json();
        let assignment = mine.as_array().unwrap().iter().find(|a| a["task"] == "word-order").expect("the demo word-order HIT")["assignment"]
            .as_str()
            .unwrap()
            .to_string();
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        let items = organizer.call("assignment_items", &[("assignment", &assignment)]).await;
        assert_eq!(items.status, 200, "{}", items.body);
        let items = items.json();
        let mut systems: Vec<String> = items.as_array().unwrap().iter().filter_map(|i| i["system"].as_str().map(String::from)).collect();
        systems.sort();
        systems.dedup();
        let rank = |s: &str| systems.iter().position(|x| x == s).unwrap_or(0);

        let list = organizer.call("list_campaigns", &[]).await.json();
        let id = list.as_array().unwrap().iter().find(|c| c["task"] == "word-order").unwrap()["id"].as_i64().unwrap().to_string();
        // The review page's rows: one per (worker, question), on the first reading and on every
        // refresh (which re-reads only the workers with new judgments).
        let review_tasks = |v: Value| -> Vec<String> {
            let mut t: Vec<String> = v["workers"].as_array().unwrap().iter().map(|w| format!("{} {}", w["worker"].as_str().unwrap(), w["task"].as_str().unwrap())).collect();
            t.sort();
            t
        };
        let half = items.as_array().unwrap().len() as i64 / 2;
        let mut first_review = None;

        assert_eq!(annotator.call("start_work", &[("assignment", &assignment)]).await.status, 200);
        // Expected raw means per question and system (SYSTEM and REPEAT items).
        let mut expected: [BTreeMap<String, (f64, usize)>; 2] = Default::default();
        for item in items.as_array().unwrap() {
            let p = item["position"].as_i64().unwrap();
            let t = item["item_type"].as_str().unwrap();
            let s = item["system"].as_str().unwrap_or("");
            let (s1, s2) = (answer(1, p, t, rank(s)), answer(2, p, t, rank(s)));
            if p == half {
                let v = organizer.call("campaign_workers", &[("campaign_id", &id), ("wilcoxon", "false")]).await;
                assert_eq!(v.status, 200, "{}", v.body);
                let tasks = review_tasks(v.json());
                assert_eq!(tasks.len(), 2, "{tasks:?}");
                assert!(tasks[0].ends_with(" word-order-q1") && tasks[1].ends_with(" word-order-q2"), "{tasks:?}");
                first_review = Some(tasks);
            }
            let pos = p.to_string();
            let r = annotator
                .call("submit_judgment", &[("assignment", &assignment), ("position", &pos), ("score", &s1.to_string()), ("score2", &s2.to_string()), ("time_on_screen_ms", "3000"), ("key", &format!("w{p}"))])
                .await;
            assert_eq!(r.status, 200, "item {p}: {}", r.body);
            if t == "SYSTEM" || t == "REPEAT" {
                for (q, v) in [s1, s2].into_iter().enumerate() {
                    let e = expected[q].entry(s.to_string()).or_default();
                    e.0 += v;
                    e.1 += 1;
                }
            }
        }

        let v = organizer.call("campaign_workers", &[("campaign_id", &id), ("wilcoxon", "false")]).await;
        assert_eq!(v.status, 200, "{}", v.body);
        let v = v.json();
        assert_eq!(Some(review_tasks(v.clone())), first_review, "the refreshed rows keep their shape");
        let n_items = items.as_array().unwrap().len() as u64;
        assert!(v["workers"].as_array().unwrap().iter().all(|w| w["judgments"].as_u64() == Some(n_items)), "every answer in both rows: {v}");
        let r = organizer
            .call("campaign_results", &[("campaign_id", &id), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = r.json();
        let groups = r["groups"].as_array().unwrap();
        let tasks: Vec<&str> = groups.iter().map(|g| g["task"].as_str().unwrap()).collect();
        assert_eq!(tasks, ["word-order-q1", "word-order-q2"]);
        // People, not rows: each worker has a row per question on the review page but counts once.
        let people: std::collections::BTreeSet<&str> = v["workers"].as_array().unwrap().iter().map(|w| w["worker"].as_str().unwrap()).collect();
        assert_eq!(v["workers"].as_array().unwrap().len(), 2 * people.len(), "{v}");
        assert_eq!(r["workers"], people.len() as u64, "{r}");
        for (q, group) in groups.iter().enumerate() {
            let rows = group["systems"].as_array().unwrap();
            assert_eq!(rows.len(), expected[q].len(), "{group}");
            for row in rows {
                let (sum, n) = expected[q][row["name"].as_str().unwrap()];
                assert_eq!(row["n"], n as i64, "question {}: {row}", q + 1);
                assert!((row["raw"].as_f64().unwrap() - sum / n as f64).abs() < 1e-9, "question {}: {row}", q + 1);
            }
        }
        // Q1 orders the systems; Q2 does not depend on the system, so its raw means are close.
        let q1: Vec<&str> = groups[0]["systems"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(q1[0], systems.last().unwrap().as_str(), "best by Q1 first: {q1:?}");
    }
}

/// A page's HTML without the comments hydration leaves between its pieces of text.
fn page_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<!") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('>').map_or(rest.len(), |e| at + e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The fixture of `tests/fixtures/agreement/word_order_kappa.py`: two workers' boxes (0–4) on
/// both questions of 25 items, and statsmodels' Fleiss κ of each question.
fn kappa_fixture() -> Value {
    serde_json::from_str(include_str!("../../fixtures/agreement/word_order_kappa.json")).unwrap()
}

/// Asserts that `report` (an `agreement.json`, all workers) gives both questions of `fixture`
/// κ over the five boxes with statsmodels' values.
fn assert_kappa_of_fixture(report: &Value, fixture: &Value) {
    let groups = report["all_workers"].as_array().unwrap();
    let tasks: Vec<&str> = groups.iter().map(|g| g["task"].as_str().unwrap()).collect();
    assert_eq!(tasks, ["word-order-q1", "word-order-q2"], "{report}");
    for (g, want) in groups.iter().zip(fixture["questions"].as_array().unwrap()) {
        assert_eq!(g["scale"], serde_json::json!({ "categorical": { "categories": 5 } }), "{g}");
        assert_eq!((g["inter"]["pairs"].as_u64(), g["inter"]["items"].as_u64(), g["intra"]["pairs"].as_u64()), (Some(25), Some(25), Some(0)), "{g}");
        for (got, key) in [(&g["inter"]["kappa"], "fleiss_kappa"), (&g["inter"]["p_agree"], "p_agree"), (&g["p_chance"], "p_chance")] {
            let got = got.as_f64().unwrap_or_else(|| panic!("{} {key}: {g}", g["task"]));
            assert!((got - want[key].as_f64().unwrap()).abs() < 1e-12, "{} {key}: {got} vs {}", g["task"], want[key]);
        }
        assert_eq!(g["inter"]["pearson_r"], Value::Null, "{g}");
    }
}

both_backends! {
    /// Issue 37 item 2: two crowd workers answer the same word-order HIT with the fixture's
    /// boxes; the campaign's agreement report (the API's, and `assay analyze --input` on the
    /// campaign's judgments.csv) measures both questions, `word-order-q1` and `word-order-q2`,
    /// with κ over the five boxes, as statsmodels' Fleiss κ gives it.
    async fn word_order_agreement_is_kappa_over_the_five_boxes_on_both_questions(server) {
        use assay_tests::fixtures::{upload_test_set, write_wmt};
        let fixture = kappa_fixture();
        let items_wanted = fixture["items"].as_array().unwrap();
        let org = server.browser();
        assert_eq!(org.login(ORGANIZER).await.status, 200);
        let dir = tempfile::tempdir().unwrap();
        write_wmt(dir.path(), "en-de", 40, &["Alpha", "Beta"]);
        let set = upload_test_set(&org, dir.path(), "woj-agreement").await.unwrap();
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        let draft = serde_json::json!({
            "name": "word order, two workers",
            "task": "word-order",
            "test_set_id": set["id"],
            "systems": systems,
            "benchmark_systems": [systems[0]],
            "seed": 5,
            "settings": { "hit_length": 50, "woj_permutations": 25, "bad_refs": 0, "repeats": 0, "refs": 0, "sets": 1,
                          "judgments_wanted": 12, "redundancy": 2, "target_language": "German", "interface_language": "en" }
        });
        let (id, link, summary) = create_and_launch(&org, &draft).await;
        assert_eq!(summary["hits"], 1, "{summary}");
        let items = org.call("hit_items", &[("campaign_id", &id.to_string()), ("hit_index", "0")]).await;
        assert_eq!(items.status, 200, "{}", items.body);
        let items = items.json();
        // The HIT's system outputs in a fixed order, each given the fixture's item of its rank.
        let mut outputs: Vec<(String, i64, i64)> = items
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["item_type"] == "SYSTEM")
            .map(|i| (i["system"].as_str().unwrap().to_string(), i["segment_id"].as_i64().unwrap(), i["position"].as_i64().unwrap()))
            .collect();
        outputs.sort();
        assert_eq!(outputs.len(), items_wanted.len(), "one system output per fixture item");
        let rank: BTreeMap<i64, usize> = outputs.iter().enumerate().map(|(k, o)| (o.2, k)).collect();
        let mut workers = Vec::new();
        for worker in ["woj-a", "woj-b"] {
            let (b, assignment) = arrive_as(&server, &link, worker).await;
            assert_eq!(b.call("start_work", &[("assignment", &assignment)]).await.status, 200);
            workers.push((b, assignment));
        }
        // Worker `w` answers `items` (in HIT order): a system output the fixture's boxes of its
        // rank, a permuted reference the worst box on both questions.
        let answer = |w: usize, some: Vec<Value>| {
            let (b, assignment) = (&workers[w].0, workers[w].1.clone());
            let (rank, items_wanted) = (&rank, items_wanted);
            async move {
                for item in some {
                    let p = item["position"].as_i64().unwrap();
                    let (s1, s2) = match rank.get(&p) {
                        Some(&k) => (items_wanted[k][0][w].as_f64().unwrap() / 4.0, items_wanted[k][1][w].as_f64().unwrap() / 4.0),
                        None => (0.0, 0.0),
                    };
                    let pos = p.to_string();
                    let r = b
                        .call("submit_judgment", &[("assignment", &assignment), ("position", &pos), ("score", &s1.to_string()), ("score2", &s2.to_string()), ("time_on_screen_ms", "3000"), ("key", &format!("k{p}"))])
                        .await;
                    assert_eq!(r.status, 200, "worker {w} item {p}: {}", r.body);
                }
            }
        };
        let all = items.as_array().unwrap().clone();
        answer(0, all[..3].to_vec()).await;

        // Issue 38 item 13: the history has a time line per question; a campaign with judgments
        // and no score yet (its one worker has answered 3 items: not enough evidence) draws no
        // empty chart but says why.
        let ours = |h: &Value| -> Vec<Value> { h.as_array().unwrap().iter().filter(|p| p["pair"] == "en-de").cloned().collect() };
        let h = org.call("study_history", &[]).await;
        assert_eq!(h.status, 200, "{}", h.body);
        let early = ours(&h.json());
        assert_eq!(early.iter().map(|p| p["task"].as_str().unwrap()).collect::<Vec<_>>(), ["word-order-q1", "word-order-q2"], "{early:?}");
        for p in &early {
            assert_eq!((p["points"].as_array().unwrap().len(), p["timeline_svg"].as_str().unwrap()), (0, ""), "{p}");
            let why = p["unscored"][0].as_str().unwrap_or_default();
            assert!(why.contains("has no score yet: quality control kept none of its 1 worker(s)"), "{p}");
        }

        answer(0, all[3..].to_vec()).await;
        answer(1, all.clone()).await;
        let report = org.get(&format!("/api/v1/campaigns/{id}/agreement")).await;
        assert_eq!(report.status, 200, "{}", report.body);
        let report = report.json();
        assert_kappa_of_fixture(&report, &fixture);

        // Issue 38 item 11: each count says what it counts, and the counts agree. Two workers
        // answered 50 items: 100 answers (the results list), 200 judgments analysed (one per
        // question), 50 judgments of system outputs per question in the agreement report (25
        // system outputs × 2 workers; the permuted references are no system outputs).
        let answers = 2 * items.as_array().unwrap().len();
        let list = org.call("results_campaigns", &[]).await.json();
        let entry = list.as_array().unwrap().iter().find(|c| c["id"] == id).expect("listed");
        assert_eq!(entry["judgments"], answers as u64, "{entry}");
        let index = page_text(&org.get("/results").await.body);
        assert!(index.contains("<th>Answers</th>") && index.contains(&format!("<td class=\"num\">{answers}</td>")), "{index}");
        let results = org.get(&format!("/campaigns/{id}/results")).await;
        assert_eq!(results.status, 200);
        let page = page_text(&results.body);
        for want in [
            format!("from the {answers} answers stored then"),
            format!("<dt>Answers stored</dt><dd id=\"r-answers\">{answers}</dd>"),
            format!("<dt>Judgments analysed (one per question: 2 per answer)</dt><dd id=\"r-judgments\">{}</dd>", 2 * answers),
            "<th>Judgments</th>".to_string(),
        ] {
            assert!(page.contains(&want), "the results page lacks {want:?}");
        }
        // Every point of the history on the campaign's test set, each question on its 0–1 axis.
        let h = org.call("study_history", &[]).await.json();
        let late = ours(&h);
        assert_eq!(late.len(), 2, "{late:?}");
        for p in &late {
            let points = p["points"].as_array().unwrap();
            assert_eq!(points.len(), 2, "two systems: {p}");
            assert!(points.iter().all(|x| x["test_set"] == "woj-agreement" && x["task"] == p["task"]), "{p}");
            let svg = p["timeline_svg"].as_str().unwrap();
            assert!(svg.contains("mean raw score (0–1)") && svg.matches(r#"class="point""#).count() == 2, "{svg}");
            assert_eq!(p["unscored"], serde_json::json!([]), "{p}");
        }

        let per_question = 2 * outputs.len();
        for g in report["all_workers"].as_array().unwrap() {
            assert_eq!(g["system_output_judgments"], per_question as u64, "{g}");
        }
        assert_eq!(page.matches(&format!("<td class=\"num agreement-judgments\">{per_question}</td>")).count(), 8, "4 rows per question");

        // The campaign's judgment file, analysed from the command line: the same report.
        let csv = org.get(&format!("/campaigns/{id}/export/judgments.csv?filter=raw")).await;
        assert_eq!(csv.status, 200, "{}", csv.body);
        let input = dir.path().join("judgments.csv");
        std::fs::write(&input, &csv.body).unwrap();
        let out = dir.path().join("analysed");
        succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "0"]));
        let from_file: Value = serde_json::from_str(&read_text(&out.join("agreement.json"))).unwrap();
        assert_kappa_of_fixture(&from_file, &fixture);
        assert_eq!(from_file["all_workers"], report["all_workers"], "the file's report is the campaign's");
    }
}
