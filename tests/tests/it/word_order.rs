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
