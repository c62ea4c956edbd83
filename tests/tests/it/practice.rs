//! Practice on a screen of several outputs against the real server, on both databases (issue 37
//! item 6: pairwise preference; issue 38 row 15: relative ranking). The practice comes first
//! (the HIT does not start before it is passed), each screen shows a human reference beside its
//! degraded copy in a drawn order, a wrong answer gets feedback naming the better output and
//! what the copy lost, a failed round starts over, practice answers are never judgments, and
//! the work follows. What the browser receives does not say which output is the original.

use assay_tests::fixtures::sentence;
use assay_tests::*;
use serde_json::{Value, json};
use std::collections::HashSet;

use crate::setup::{Design, Launched};

const SYSTEMS: [&str; 6] = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"];
const SEGMENTS: usize = 30;

/// The test set's references (`setup::launch` writes them with `fixtures::sentence`, salt 1).
fn references() -> HashSet<String> {
    (0..SEGMENTS).map(|i| sentence(i, 1)).collect()
}

/// A crowd worker arrives by the campaign's link; their assignment's public id.
async fn arrive(server: &TestServer, org: &Browser, link: &str, campaign: &str, worker_id: &str) -> (Browser, String) {
    let worker = server.browser();
    let arrival = worker.get(&format!("{link}&worker={worker_id}")).await;
    assert!(arrival.status == 303 || arrival.status == 302, "{}", arrival.status);
    let assignment = org.call("list_assignments", &[]).await.json().as_array().unwrap().iter()
        .find(|a| a["campaign_name"] == campaign).expect("the worker's assignment")["assignment"].as_str().unwrap().to_string();
    (worker, assignment)
}

/// The outputs of the practice screen on `practice` (a `PracticeView`), in the screen's order:
/// the item's text, then the one on its right (a pair) or the rest of the screen (ranking).
fn outputs(practice: &Value) -> Vec<String> {
    let item = &practice["item"];
    let mut out = vec![item["candidate"].as_str().unwrap().to_string()];
    out.extend(item["right"].as_str().map(str::to_string));
    out.extend(practice["together"].as_array().into_iter().flatten().map(|i| i["candidate"].as_str().unwrap().to_string()));
    out
}

/// Which output shown is the original (the test set's reference); the other is its copy.
fn original_of(practice: &Value) -> usize {
    let refs = references();
    let shown = outputs(practice);
    assert_eq!(shown.len(), 2, "an original and its copy: {practice}");
    let originals: Vec<usize> = (0..2).filter(|&k| refs.contains(&shown[k])).collect();
    assert_eq!(originals.len(), 1, "one human reference and one copy that is none: {shown:?}");
    assert!(shown[1 - originals[0]].split_whitespace().count() < shown[originals[0]].split_whitespace().count(), "the copy lost words: {shown:?}");
    originals[0]
}

/// Nothing sent to the worker names the original, the copy or the expected answer.
fn hides_the_answer(work: &Value) {
    let text = work.to_string();
    for word in ["original", "degraded", "expect", "high", "reason", "range"] {
        assert!(!text.contains(&format!("\"{word}")), "the browser receives \"{word}…\": {text}");
    }
}

both_backends! {
    /// Pairwise preference: three practice pairs, all three to get right. A tie and the copy
    /// preferred are wrong, with the reason; the round starts over; then the HIT's pairs.
    async fn pairwise_practice_comes_first_explains_a_wrong_answer_and_the_work_follows(server) {
        let settings = json!({
            "hit_length": 16, "bad_refs": 5, "repeats": 1, "refs": 0, "sets": 1, "judgments_wanted": 10, "redundancy": 1,
            "target_language": "German", "interface_language": "en", "rank_show_reference": true, "practice_items": 3, "practice_pass": 3
        });
        let design = Design { name: "Pairwise practice", task: "pairwise", set: "pairwise-practice", segments: SEGMENTS, systems: &SYSTEMS[..4], seed: 9, settings, gate: None };
        let Launched { org, link, .. } = crate::setup::launch(&server, design).await;
        let (worker, assignment) = arrive(&server, &org, &link, "Pairwise practice", "PAIR-LEARNER").await;
        let work = worker.call("load_work", &[("assignment", &assignment)]).await.json();
        hides_the_answer(&work);
        let practice = work["practice"].clone();
        assert_eq!((practice["total"].clone(), practice["required"].clone(), practice["passed"].clone()), (json!(3), json!(3), json!(false)), "{work}");
        // A practice pair is drawn as a real one: the source, two translations.
        let mut keys: Vec<&str> = practice["item"].as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["candidate", "context", "position", "right"], "{practice}");
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 409, "the practice comes first");

        let answer = |position: i64, args: Vec<(&'static str, String)>| {
            let (worker, assignment) = (&worker, assignment.clone());
            async move {
                let mut all = vec![("assignment", assignment), ("position", position.to_string())];
                all.extend(args);
                let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
                worker.call("practice_answer", &refs).await
            }
        };
        let side = |original: usize| if original == 0 { "1" } else { "0" }.to_string();
        let label = |k: usize| if k == 0 { "Translation A" } else { "Translation B" };
        // Refused, nothing changes: not a side, two scores, not the current item.
        for bad in [vec![("score", "0.3".to_string())], vec![("score", "1".to_string()), ("score2", "1".to_string())], vec![]] {
            let r = answer(0, bad).await;
            assert_eq!(r.status, 400, "{}", r.body);
        }
        assert_eq!(answer(1, vec![("score", "1".into())]).await.status, 409, "not the current practice item");

        // Round 1: "about the same" is not careful; the feedback names the better one and why.
        let o = original_of(&practice);
        let r = answer(0, vec![("score", "0.5".into())]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let f = r.json();
        assert_eq!(f["in_range"], false, "{f}");
        let message = f["message"].as_str().unwrap();
        let expected = format!("A careful reader would prefer {} because in {}, part of the meaning is missing: “", label(o), label(1 - o));
        assert!(message.starts_with(&expected) && message.ends_with("so it does not say everything the source says."), "{message}");
        assert_eq!(f["yours"], "Your choice: About the same.");
        assert_eq!(f["verdict"], "Your answer is not where a careful reader's would be.");
        // The feedback shows both translations with their labels, the original among them.
        assert_eq!(f["outputs"][o][0], label(o));
        assert!(references().contains(f["outputs"][o][1].as_str().unwrap()), "{f}");
        // The copy preferred: wrong too; then the last pair right: 1 of 3, the round starts over.
        let p1 = f["practice"].clone();
        assert_eq!(p1["position"], 1);
        let f = answer(1, vec![("score", side(1 - original_of(&p1)))]).await.json();
        assert_eq!(f["in_range"], false, "{f}");
        assert_eq!(f["yours"], if original_of(&p1) == 0 { "Your choice: B is better." } else { "Your choice: A is better." });
        let p2 = f["practice"].clone();
        let f = answer(2, vec![("score", side(original_of(&p2)))]).await.json();
        assert_eq!(f["in_range"], true, "{f}");
        assert!(f["round_result"].as_str().unwrap().starts_with("1 of 3 answers were where a careful reader's would be"), "{f}");
        assert_eq!((f["practice"]["position"].clone(), f["practice"]["round"].clone(), f["practice"]["passed"].clone()), (json!(0), json!(2), json!(false)));
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 409, "a failed round does not open the HIT");

        // Round 2: every pair right (the same pairs, in the same order and sides).
        let mut p = f["practice"].clone();
        for position in 0..3 {
            let f = answer(position, vec![("score", side(original_of(&p)))]).await.json();
            assert_eq!(f["in_range"], true, "{f}");
            p = f["practice"].clone();
            if position == 2 {
                assert!(f["round_result"].as_str().unwrap().starts_with("Practice done: 3 of 3"), "{f}");
                assert_eq!(p["passed"], true);
            }
        }
        assert_eq!(org.call("assignment_judgments", &[("assignment", &assignment)]).await.json(), json!([]), "practice is never a judgment");
        assert_eq!(answer(0, vec![("score", "1".into())]).await.status, 409, "the practice is passed");

        // The work follows: the HIT's first pair, answered through the real path.
        let step = worker.call("start_work", &[("assignment", &assignment)]).await;
        assert_eq!(step.status, 200, "{}", step.body);
        let item = step.json()["item"].clone();
        assert!(item["right"].is_string() && item["position"] == 0, "{item}");
        let r = worker.call("submit_judgment", &[("assignment", &assignment), ("position", "0"), ("score", "1"), ("time_on_screen_ms", "3000"), ("key", "k0")]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(org.call("assignment_judgments", &[("assignment", &assignment)]).await.json().as_array().unwrap().len(), 1);
        // No practice text is a HIT's: the practice segments are set apart.
        let shown: HashSet<String> = [item["candidate"].as_str().unwrap().to_string(), item["right"].as_str().unwrap().to_string()].into();
        assert!(outputs(&p1).iter().chain(outputs(&p2).iter()).all(|t| !shown.contains(t)), "a practice text came back in the HIT");
    }

    /// Relative ranking: two practice screens of an original and its copy, both to get right.
    /// The copy ranked above or with its original is wrong, with the reason; then the HIT.
    async fn ranking_practice_comes_first_explains_a_wrong_answer_and_the_work_follows(server) {
        let settings = json!({
            "hit_length": 4, "rank_blocks_per_screen": 2, "rank_outputs": 5, "bad_refs": 5, "repeats": 1,
            "judgments_wanted": 20, "redundancy": 2, "target_language": "German", "interface_language": "de",
            "rank_show_reference": true, "practice_items": 2, "practice_pass": 2
        });
        let design = Design { name: "Ranking practice", task: "ranking", set: "ranking-practice", segments: SEGMENTS, systems: &SYSTEMS, seed: 5, settings, gate: None };
        let Launched { org, link, .. } = crate::setup::launch(&server, design).await;
        let (worker, assignment) = arrive(&server, &org, &link, "Ranking practice", "RANK-LEARNER").await;
        let work = worker.call("load_work", &[("assignment", &assignment)]).await.json();
        hides_the_answer(&work);
        let practice = work["practice"].clone();
        assert_eq!((practice["total"].clone(), practice["required"].clone()), (json!(2), json!(2)), "{work}");
        assert_eq!(practice["together"].as_array().map(Vec::len), Some(1), "the rest of the screen: {practice}");
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 409, "the practice comes first");
        let ranks = |position: i64, ranks: Value| {
            let (worker, assignment) = (&worker, assignment.clone());
            async move { worker.call_json("practice_ranks", json!({ "assignment": assignment, "position": position, "ranks": ranks })).await }
        };
        // Refused: a rank missing, rank 0, a rank past the campaign's five.
        for bad in [json!([1]), json!([0, 1]), json!([1, 6]), json!([1, 2, 3])] {
            let r = ranks(0, bad.clone()).await;
            assert_eq!(r.status, 400, "{bad}: {}", r.body);
        }
        // Wrong: the copy ranked above its original. The feedback in German, the interface
        // language: which to rank above which, and what the copy lost.
        let o = original_of(&practice);
        let mut wrong = [1, 1];
        wrong[o] = 2;
        let f = ranks(0, json!(wrong)).await.json();
        assert_eq!(f["in_range"], false, "{f}");
        let message = f["message"].as_str().unwrap();
        let (better, worse) = (format!("Übersetzung {}", o + 1), format!("Übersetzung {}", 2 - o));
        assert!(message.contains(&format!("würde {better} vor {worse} einordnen, denn bei {worse} gilt:")), "{message}");
        assert!(f["yours"].as_str().unwrap().starts_with("Ihre Ränge: Übersetzung 1: "), "{f}");
        // A shared rank is not careful either: 0 of 2, the round starts over.
        let f = ranks(1, json!([3, 3])).await.json();
        assert_eq!((f["in_range"].clone(), f["practice"]["round"].clone()), (json!(false), json!(2)), "{f}");
        // Round 2: the original above its copy (any ranks, ties elsewhere allowed).
        let mut p = f["practice"].clone();
        for position in 0..2 {
            let mut right = [4, 4];
            right[original_of(&p)] = 2;
            let f = ranks(position, json!(right)).await.json();
            assert_eq!(f["in_range"], true, "{f}");
            p = f["practice"].clone();
        }
        assert_eq!(p["passed"], true, "{p}");
        assert_eq!(org.call("assignment_judgments", &[("assignment", &assignment)]).await.json(), json!([]), "practice is never a judgment");
        // The work follows: the HIT's first screen of ranked outputs.
        let step = worker.call("start_work", &[("assignment", &assignment)]).await;
        assert_eq!(step.status, 200, "{}", step.body);
        let together = step.json()["together"].as_array().map(Vec::len).unwrap_or(0);
        assert_eq!(together + 1, 10, "a real screen: 2 blocks of 5 outputs: {}", step.body);
    }
}

both_backends! {
    /// `assay simulate --campaign` on a pairwise campaign with practice: constant scorers rank
    /// both outputs alike ("about the same"), fail every round and leave; careful workers prefer
    /// the original, pass, and do the HITs. Practice answers are never judgments.
    async fn a_simulated_crowd_practises_pairs_before_its_hits(server) {
        let settings = json!({
            "hit_length": 16, "bad_refs": 5, "repeats": 1, "refs": 0, "sets": 1, "judgments_wanted": 10, "redundancy": 1,
            "target_language": "German", "interface_language": "en", "practice_items": 3, "practice_pass": 3
        });
        let design = Design { name: "Simulated pair practice", task: "pairwise", set: "pair-sim-practice", segments: SEGMENTS, systems: &SYSTEMS[..4], seed: 9, settings, gate: None };
        let Launched { org, id, summary, .. } = crate::setup::launch(&server, design).await;
        let (hits, items) = (summary["hits"].as_u64().unwrap(), summary["items"].as_u64().unwrap());
        let stored = || crate::setup::stored_judgments(&org, id);
        let lazy = simulate_on(&server, id, "lazy=1", "3", &["--workers", "2"]);
        assert!(lazy.contains("0 workers did 0 HITs (0 judgments)") && lazy.contains("2 failed the practice and left"), "{lazy}");
        assert_eq!(stored().await, 0, "practice answers are no judgments");
        let careful = simulate_on(&server, id, "careful=1", "4", &[]);
        assert!(careful.contains(&format!("workers did {hits} HITs ({items} judgments)")) && careful.contains("; 0 failed the practice"), "{careful}");
        assert_eq!(stored().await, items);
    }
}
