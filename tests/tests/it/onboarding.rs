//! Onboarding against the real server on both databases (issue 18, item 1): the Mechanical
//! Turk preview shows the campaign's instructions (as text: nothing the organizer writes becomes
//! markup) and a sample item taken from the practice, which no HIT shows, and hands out nothing;
//! the practice is answered through its server function, and the HIT starts only once the
//! server has seen it passed.

use assay_tests::*;
use serde_json::{Value, json};

/// The path and query of an absolute crowd link.
fn path_of(link: &str) -> String {
    let after_scheme = link.split_once("://").map(|(_, rest)| rest).unwrap_or(link);
    after_scheme.find('/').map(|i| after_scheme[i..].to_string()).unwrap_or_default()
}

both_backends! {
    async fn the_preview_shows_instructions_and_a_practice_sample_and_practice_gates_the_hit(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|t| t["source_lang"] == "de").expect("the demo's German→English set").clone();
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
        let draft = json!({
            "name": "Onboarding", "task": "da-fluency", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 3,
            "settings": {
                "judgments_wanted": 18, "redundancy": 1, "target_language": "English", "practice_items": 2, "practice_pass": 2,
                "wording": { "instructions": "Rate <script>alert(1)</script> & more.\n\n- one\n- two" }
            }
        });
        let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.json().as_i64().unwrap().to_string();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &id)]).await.status, 200);
        let progress = org.call("campaign_progress", &[("campaign_id", &id)]).await.json();
        let link = path_of(progress["crowd_link"].as_str().unwrap());

        // The preview: the instructions as text, paragraphs and a list; a sample item.
        let preview = server.browser().get(&format!("{link}&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H")).await;
        assert_eq!(preview.status, 200);
        let html = &preview.body;
        assert!(html.contains("<p>Rate &lt;script&gt;alert(1)&lt;/script&gt; &amp; more.</p><ul><li>one</li><li>two</li></ul>"), "{html}");
        assert!(!html.contains("<script"), "no script of any kind");
        let sample = html.split("id=\"sample-candidate\"").nth(1).and_then(|s| s.split_once('>')).map(|(_, s)| s.split("</p>").next().unwrap().to_string());
        let sample = sample.expect("a sample item");
        assert!(!sample.trim().is_empty());
        // The sample is a practice text: no HIT of the campaign shows it.
        let mut hit = 0;
        loop {
            let items = org.call("hit_items", &[("campaign_id", &id), ("hit_index", &hit.to_string())]).await;
            if items.status != 200 || items.json().as_array().is_none_or(|a| a.is_empty()) {
                break;
            }
            for it in items.json().as_array().unwrap() {
                let shown = it["shown_text"].as_str().unwrap_or_default().replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
                assert_ne!(shown, sample, "HIT {hit} shows the preview's sample");
            }
            hit += 1;
        }
        assert!(hit >= 1, "the campaign has HITs");
        let after = org.call("campaign_progress", &[("campaign_id", &id)]).await.json();
        assert_eq!(after["workers_total"], 0, "a preview hands out nothing");

        // A worker: the HIT starts only after the practice is passed (by the server's count).
        let worker = server.browser();
        let arrival = worker.get(&format!("{link}&worker=LEARNER-1")).await;
        assert!(arrival.status == 303 || arrival.status == 302, "{}", arrival.status);
        let assignment = org.call("list_assignments", &[]).await.json().as_array().unwrap().iter()
            .find(|a| a["campaign_name"] == "Onboarding").expect("the worker's assignment")["assignment"].as_str().unwrap().to_string();
        let work = worker.call("load_work", &[("assignment", &assignment)]).await.json();
        assert_eq!((work["practice"]["total"].clone(), work["practice"]["required"].clone()), (json!(2), json!(2)));
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 409);
        let answer = |position: &'static str, score: &'static str| {
            let (worker, assignment) = (&worker, assignment.clone());
            async move { worker.call("practice_answer", &[("assignment", &assignment), ("position", position), ("score", score)]).await }
        };
        assert_eq!(answer("1", "50").await.status, 409, "not the current practice item");
        let bad = answer("0", "101").await;
        assert_eq!(bad.status, 400, "{}", bad.body);
        let first: Value = answer("0", "97").await.json();
        assert_eq!(first["in_range"], true);
        assert!(first["message"].as_str().unwrap().starts_with("A careful reader would score this high"), "{first}");
        let second: Value = answer("1", "3").await.json();
        assert_eq!((second["in_range"].clone(), second["practice"]["passed"].clone()), (json!(true), json!(true)));
        assert!(second["message"].as_str().unwrap().contains("because words are repeated where they do not belong"), "{second}");
        assert_eq!(org.call("assignment_judgments", &[("assignment", &assignment)]).await.json(), json!([]));
        let started = worker.call("start_work", &[("assignment", &assignment)]).await;
        assert_eq!(started.status, 200, "{}", started.body);
        assert_eq!(started.json()["item"]["position"], 0);
        // Once the HIT has started, the practice is over.
        assert_eq!(answer("0", "97").await.status, 409);
    }
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

/// An ESA or MQM campaign of two practice items (both must match) on a test set of documents.
async fn launch_span_practice(server: &TestServer, task: &str) -> (Browser, String) {
    use assay_tests::fixtures::*;
    let org = server.browser();
    assert_eq!(org.login(ORGANIZER).await.status, 200);
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", 40, &["Alpha", "Beta"]);
    let set = upload_test_set(&org, dir.path(), &format!("{task}-practice")).await.unwrap();
    let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
    let draft = json!({
        "name": format!("{task} practice"), "task": task, "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 5,
        "settings": {
            "hit_minutes": 10.0, "bad_refs": 1, "repeats": 0, "judgments_wanted": 1, "wanted_per": "segment", "redundancy": 1,
            "target_language": "German", "interface_language": "en", "practice_items": 2, "practice_pass": 2
        }
    });
    let check = org.call_json("check_design", json!({ "draft": draft })).await;
    assert_eq!(check.status, 200, "{}", check.body);
    assert_eq!(check.json()["problems"], json!([]), "{}", check.body);
    let (_, link, _) = create_and_launch(&org, &draft).await;
    (org, link)
}

both_backends! {
    /// ESA practice (issue 18): a careful answer marks no major error in the human translation
    /// and scores it high, marks an error in the degraded copy and scores it low; the spans are
    /// checked against the practice text as a real answer's are; a failed round starts over;
    /// nothing is stored as a judgment, and the HIT starts once the server has seen it passed.
    async fn esa_practice_is_judged_by_its_spans_and_its_score(server) {
        let (org, link) = launch_span_practice(&server, "esa").await;
        // The Mechanical Turk preview's sample is a practice item, with its source beside it.
        let preview = server.browser().get(&format!("{link}&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H")).await;
        assert_eq!(preview.status, 200);
        assert!(preview.body.contains("<p class=\"text-label\" id=\"sample-context-label\">Source</p><p class=\"context source\" id=\"sample-context\""), "{}", preview.body);
        let (worker, assignment) = arrive(&server, &org, &link, "esa practice", "ESA-LEARNER").await;
        let work = worker.call("load_work", &[("assignment", &assignment)]).await.json();
        let practice = &work["practice"];
        assert_eq!((practice["total"].clone(), practice["required"].clone()), (json!(2), json!(2)), "{work}");
        let first = practice["item"]["candidate"].as_str().unwrap().to_string();
        assert!(practice["item"]["context"].as_str().is_some_and(|s| !s.is_empty()), "the source beside it: {work}");
        let answer = |position: i64, score: Option<f64>, spans: Value| {
            let (worker, assignment) = (&worker, assignment.clone());
            async move { worker.call_json("practice_spans", json!({ "assignment": assignment, "position": position, "score": score, "spans": spans })).await }
        };
        let word = |severity: &str| json!([{ "start": 0, "end": first.chars().take_while(|c| !c.is_whitespace()).count(), "severity": severity }]);
        // Checked as a real answer: a span beyond the text, an answer without its score.
        let bad = answer(0, Some(90.0), json!([{ "start": 0, "end": 10_000, "severity": "minor" }])).await;
        assert_eq!(bad.status, 400, "{}", bad.body);
        assert!(bad.body.contains("Error span 1"), "{}", bad.body);
        assert_eq!(answer(0, None, json!([])).await.status, 400);
        assert_eq!(answer(1, Some(20.0), json!([])).await.status, 409, "not the current practice item");
        // Round 1: a major error in the human translation; a low score without any error.
        let r = answer(0, Some(95.0), word("major")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = r.json();
        assert_eq!(r["in_range"], false, "{r}");
        assert!(r["message"].as_str().unwrap().starts_with("A careful reader would mark no major error here and score it high"), "{r}");
        assert!(r["yours"].as_str().unwrap().starts_with("Errors you marked: 1, of them major or critical: 1. Your rating: "), "{r}");
        let r = answer(1, Some(10.0), json!([])).await.json();
        assert_eq!((r["in_range"].clone(), r["practice"]["position"].clone(), r["practice"]["round"].clone()), (json!(false), json!(0), json!(2)), "{r}");
        assert!(r["message"].as_str().unwrap().starts_with("A careful reader would mark at least one error here and score it low"), "{r}");
        assert!(r["message"].as_str().unwrap().contains("so it does not say everything the source says"), "{r}");
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 409, "the practice is not passed");
        // Round 2: a minor error is fine in a human translation; an omission marked in the copy.
        let r = answer(0, Some(88.0), word("minor")).await.json();
        assert_eq!(r["in_range"], true, "{r}");
        let r = answer(1, Some(15.0), json!([{ "start": 0, "end": 0, "severity": "major", "missing": true }])).await.json();
        assert_eq!((r["in_range"].clone(), r["practice"]["passed"].clone()), (json!(true), json!(true)), "{r}");
        assert_eq!(org.call("assignment_judgments", &[("assignment", &assignment)]).await.json(), json!([]), "practice is never a judgment");
        let started = worker.call("start_work", &[("assignment", &assignment)]).await;
        assert_eq!(started.status, 200, "{}", started.body);
        assert_eq!(answer(0, Some(90.0), json!([])).await.status, 409, "the practice is over");
    }

    /// MQM practice: no score, only the errors: none major in the human translation, a major one
    /// in the degraded copy.
    async fn mqm_practice_is_judged_by_its_errors(server) {
        let (org, link) = launch_span_practice(&server, "mqm").await;
        let (worker, assignment) = arrive(&server, &org, &link, "mqm practice", "MQM-LEARNER").await;
        let work = worker.call("load_work", &[("assignment", &assignment)]).await.json();
        let first = work["practice"]["item"]["candidate"].as_str().unwrap().to_string();
        let answer = |position: i64, score: Option<f64>, spans: Value| {
            let (worker, assignment) = (&worker, assignment.clone());
            async move { worker.call_json("practice_spans", json!({ "assignment": assignment, "position": position, "score": score, "spans": spans })).await }
        };
        let end = first.chars().take_while(|c| !c.is_whitespace()).count();
        let error = |severity: &str| json!([{ "start": 0, "end": end, "severity": severity, "category": "Accuracy/Mistranslation" }]);
        assert_eq!(answer(0, Some(90.0), json!([])).await.status, 400, "MQM takes no score");
        let r = answer(0, None, error("minor")).await.json();
        assert_eq!(r["in_range"], true, "{r}");
        assert!(r["message"].as_str().unwrap().starts_with("A careful reader would mark no major or critical error here"), "{r}");
        assert_eq!(r["yours"], "Errors you marked: 1, of them major or critical: 0.", "{r}");
        let r = answer(1, None, json!([])).await.json();
        assert_eq!((r["in_range"].clone(), r["practice"]["passed"].clone()), (json!(false), json!(false)), "{r}");
        assert!(r["message"].as_str().unwrap().starts_with("A careful reader would mark at least one major error here"), "{r}");
        assert_eq!(answer(0, None, json!([])).await.json()["in_range"], true);
        let r = answer(1, None, json!([{ "start": 0, "end": 0, "severity": "major", "category": "Accuracy/Omission", "missing": true }])).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["practice"]["passed"], true, "{}", r.body);
        assert_eq!(worker.call("start_work", &[("assignment", &assignment)]).await.status, 200);
    }
}

both_backends! {
    /// Issue 38 item 9: `assay simulate --campaign` on a campaign with practice items. Constant
    /// scorers answer the practice as they answer anything, fail every round, give their HITs
    /// back and leave; careful workers pass the practice and then do every HIT. Practice answers
    /// are never judgments.
    async fn a_simulated_crowd_practises_before_its_hits(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|t| t["source_lang"] == "de").expect("the demo's German→English set").clone();
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
        let draft = json!({
            "name": "Practised", "task": "da-fluency", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 3,
            "settings": { "judgments_wanted": 18, "redundancy": 1, "target_language": "English", "practice_items": 4, "practice_pass": 4 }
        });
        let (id, _, summary) = create_and_launch(&org, &draft).await;
        let hits = summary["hits"].as_u64().unwrap();
        let mut items = 0;
        for h in 0..hits {
            items += org.call("hit_items", &[("campaign_id", &id.to_string()), ("hit_index", &h.to_string())]).await.json().as_array().unwrap().len();
        }
        let stored = || crate::setup::stored_judgments(&org, id);

        let lazy = simulate_on(&server, id, "lazy=1", "3", &["--workers", "2"]);
        assert!(lazy.contains("0 workers did 0 HITs (0 judgments)") && lazy.contains("2 failed the practice and left"), "{lazy}");
        assert_eq!(stored().await, 0, "practice answers are no judgments");

        // The HITs the constant scorers gave back are free for the careful workers.
        let careful = simulate_on(&server, id, "careful=1", "4", &[]);
        assert!(careful.contains(&format!("workers did {hits} HITs ({items} judgments)")) && careful.contains("; 0 failed the practice"), "{careful}");
        assert_eq!(stored().await, items as u64);
    }
}
