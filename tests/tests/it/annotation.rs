//! The annotation server functions against the real server on both databases: who may work on
//! an assignment, answer-once, idempotent retries, refused scores, resuming, completion codes,
//! and that quality-control items cannot be told from real ones in what the browser receives.
//!
//! The work comes from `assay serve --demo` (annotate::fixture): the demo annotator has a
//! 100-item DA HIT and a 50-item word-order HIT; a Prolific worker has the DA HIT too.

use assay_tests::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// The demo annotator's (DA, word-order) assignment ids, from the home page's list.
async fn my_hits(b: &Browser) -> (String, String) {
    let list = b.call("my_assignments", &[]).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let list = list.json();
    let find = |task: &str| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|a| a["task"] == task)
            .unwrap_or_else(|| panic!("no {task} HIT in {list}"))["assignment"]
            .as_str()
            .unwrap()
            .to_string()
    };
    (find("da-adequacy"), find("word-order"))
}

/// The crowd assignment's id, from the organizer's list.
async fn crowd_hit(server: &TestServer) -> String {
    let organizer = server.browser();
    organizer.login(ORGANIZER).await;
    let list = organizer.call("list_assignments", &[]).await;
    assert_eq!(list.status, 200, "{}", list.body);
    list.json()
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["platform"] == "prolific")
        .expect("a crowd assignment")["assignment"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn submit(b: &Browser, id: &str, position: i64, score: &str, key: &str) -> Answer {
    let p = position.to_string();
    b.call(
        "submit_judgment",
        &[("assignment", id), ("position", &p), ("score", score), ("time_on_screen_ms", "1500"), ("key", key)],
    )
    .await
}

async fn submit_woj(b: &Browser, id: &str, position: i64, q1: &str, q2: &str, key: &str) -> Answer {
    let p = position.to_string();
    b.call(
        "submit_judgment",
        &[("assignment", id), ("position", &p), ("score", q1), ("score2", q2), ("time_on_screen_ms", "2500"), ("key", key)],
    )
    .await
}

async fn judgments(server: &TestServer, id: &str) -> Vec<Value> {
    let organizer = server.browser();
    organizer.login(ORGANIZER).await;
    let j = organizer.call("assignment_judgments", &[("assignment", id)]).await;
    assert_eq!(j.status, 200, "{}", j.body);
    j.json().as_array().unwrap().clone()
}

async fn start(b: &Browser, id: &str) -> Value {
    let s = b.call("start_work", &[("assignment", id)]).await;
    assert_eq!(s.status, 200, "{}", s.body);
    s.json()
}

/// The demo Prolific worker's ids (the demo's crowd HIT).
const DEMO_PROLIFIC_IDS: [(&str, &str); 2] = [("PROLIFIC_PID", "demo-prolific-worker"), ("SESSION_ID", "demo-session")];

/// Verifies a code as the demo's Prolific worker presents it (with their ids).
async fn verify(b: &Browser, code: &str) -> Value {
    let r = b.client.get(format!("{}/api/verify_completion_code", b.base)).query(&[("code", code)]).query(&DEMO_PROLIFIC_IDS).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    r.json().await.unwrap()
}

/// A page fetched without a session: (its Content-Security-Policy, its HTML).
async fn anonymous_get(server: &TestServer, path: &str) -> (String, String) {
    let b = server.browser();
    let r = b.client.get(format!("{}{path}", b.base)).send().await.expect("request");
    assert_eq!(r.status(), 200, "{path}");
    let csp = r.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    (csp, r.text().await.unwrap())
}

/// Every key path of a JSON value (`item.candidate`, …), to compare shapes.
fn key_paths(v: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    if let Value::Object(map) = v {
        for (k, v) in map {
            let path = format!("{prefix}{k}");
            out.insert(path.clone());
            key_paths(v, &format!("{path}."), out);
        }
    }
}

both_backends! {
    async fn an_account_assignment_is_only_for_its_annotator(server) {
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let (da, woj) = my_hits(&annotator).await;
        assert!(da.len() >= 22 && woj.len() >= 22, "public ids carry at least 128 random bits: {da} {woj}");

        let mine = annotator.call("load_work", &[("assignment", &da)]).await;
        assert_eq!(mine.status, 200, "{}", mine.body);
        let state = mine.json();
        assert_eq!(state["total"], 100);
        assert_eq!(state["started"], false);
        assert_eq!(state["step"]["item"], Value::Null, "no item before Start");

        let anonymous = server.browser();
        let a = anonymous.call("load_work", &[("assignment", &da)]).await;
        assert_eq!(a.status, 401, "{}", a.body);
        // The page itself says why (its status is not reliable: the page streams).
        let page = anonymous.get(&format!("/work/{da}")).await;
        assert!(page.body.contains("Please sign in"), "the page says why");
        assert!(!page.body.contains("\"candidate\""), "and carries no item");
        assert_eq!(anonymous.call("submit_judgment", &[("assignment", &da), ("position", "0"), ("score", "50"), ("time_on_screen_ms", "1"), ("key", "x")]).await.status, 401);

        // Another annotator (invited by the admin) and people of higher roles get 403.
        let admin = server.browser();
        admin.login(ADMIN).await;
        let link = admin.call("invite_user", &[("email", "second.annotator@example.org"), ("role", "annotator")]).await;
        assert_eq!(link.status, 200, "{}", link.body);
        let token = link.json()["url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
        let other = server.browser();
        let joined = other.call("accept_invitation", &[("token", &token), ("name", "Second"), ("password", "a long enough password")]).await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        assert_eq!(other.call("my_assignments", &[]).await.json(), serde_json::json!([]));
        for b in [&other, &admin] {
            for id in [&da, &woj] {
                let r = b.call("load_work", &[("assignment", id)]).await;
                assert_eq!(r.status, 403, "{}", r.body);
                assert!(r.body.contains("assigned to someone else"), "{}", r.body);
                assert_eq!(b.call("start_work", &[("assignment", id)]).await.status, 403);
                assert_eq!(submit(b, id, 0, "50", "k").await.status, 403);
                assert!(b.get(&format!("/work/{id}")).await.body.contains("assigned to someone else"));
            }
        }
        // Nothing was started or stored by the refused calls.
        assert_eq!(annotator.call("load_work", &[("assignment", &da)]).await.json()["started"], false);
        assert!(judgments(&server, &da).await.is_empty());

        // An unknown id is a 404; the organizer views need the Organizer role.
        assert_eq!(annotator.call("load_work", &[("assignment", "no-such-assignment")]).await.status, 404);
        assert_eq!(annotator.call("assignment_judgments", &[("assignment", &da)]).await.status, 403);
        assert_eq!(annotator.call("list_assignments", &[]).await.status, 403);
        assert_eq!(anonymous.call("my_assignments", &[]).await.status, 401);

        // A crowd assignment is for whoever holds its id.
        let crowd = crowd_hit(&server).await;
        let c = anonymous.call("load_work", &[("assignment", &crowd)]).await;
        assert_eq!(c.status, 200, "{}", c.body);
    }

    async fn a_da_hit_sends_its_first_item_with_the_instructions(server) {
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let (da, woj) = my_hits(&annotator).await;
        let before = annotator.call("load_work", &[("assignment", &da)]).await.json();
        assert_eq!(before["started"], false);
        // The step is still "not started"; the first item comes beside it.
        assert_eq!(before["step"]["item"], Value::Null, "{before}");
        let ahead = before["ahead"].clone();
        assert_eq!(ahead["item"]["position"], 0, "{before}");
        assert_eq!(ahead["answered"], 0);
        // Sent ahead is not started: an answer before Start is refused and nothing is stored.
        let early = submit(&annotator, &da, 0, "50", "ahead-0").await;
        assert_ne!(early.status, 200, "{}", early.body);
        assert!(judgments(&server, &da).await.is_empty());
        // Start leads to exactly that step; once started, nothing is sent ahead.
        assert_eq!(start(&annotator, &da).await, ahead);
        let after = annotator.call("load_work", &[("assignment", &da)]).await.json();
        assert_eq!(after["started"], true);
        assert_eq!(after["step"], ahead);
        assert_eq!(after.get("ahead"), None, "{after}");
        // Word order (two questions, not the early script's slider): nothing ahead.
        let w = annotator.call("load_work", &[("assignment", &woj)]).await.json();
        assert_eq!(w["started"], false);
        assert_eq!(w.get("ahead"), None, "{w}");

        // The work page carries the early script first in its head, with the nonce its
        // Content-Security-Policy names; other pages do not carry it.
        let crowd = crowd_hit(&server).await;
        let (csp, html) = anonymous_get(&server, &format!("/work/{crowd}")).await;
        let nonce = csp.split("'nonce-").nth(1).and_then(|n| n.split('\'').next()).expect("a nonce in the policy").to_string();
        let head = html.split("</head>").next().unwrap();
        let script = head.find(&format!("<script nonce=\"{nonce}\">(() => {{\n  const E = window.__assayEarly")).expect("the early script with the page's nonce");
        // The style sheet is in the page (no round trip before the page is drawn), after the script.
        let style = head.find("<style>").expect("the style sheet in the page");
        assert!(script < style, "the script before the style sheet");
        assert!(head[style..].contains(".slider-track"), "the whole sheet");
        assert!(!head.contains("<link rel=\"stylesheet\""), "no style sheet to fetch before the page is drawn");
        assert!(html.contains("id=\"ahead-item\""), "the first item is in the page");
        let (_, login) = anonymous_get(&server, "/login").await;
        assert!(!login.contains("__assayEarly"));
        // Other pages link the sheet, under its content's hash (kept for good: issue 36).
        let sheet = login.split("<link rel=\"stylesheet\" href=\"/assay-").nth(1).and_then(|rest| rest.split('"').next()).expect("other pages link the sheet");
        assert!(sheet.len() == 16 + ".css".len() && sheet.ends_with(".css"), "a hashed name: {sheet}");

        // Pages are sent compressed to browsers that accept it; server functions' JSON is not.
        let b = server.browser();
        let page = b.client.get(format!("{}/work/{crowd}", b.base)).header("accept-encoding", "gzip").send().await.unwrap();
        assert_eq!(page.headers().get("content-encoding").map(|v| v.to_str().unwrap().to_string()), Some("gzip".into()));
        let bytes = page.bytes().await.unwrap();
        assert_eq!(&bytes[..2], &[0x1f, 0x8b], "a gzip stream");
        assert!(bytes.len() * 2 < html.len(), "{} bytes compressed of {}", bytes.len(), html.len());
        let state = b.client.post(format!("{}/api/load_work", b.base)).header("accept-encoding", "gzip").header("origin", b.base.clone())
            .form(&[("assignment", crowd.as_str())]).send().await.unwrap();
        assert_eq!(state.status(), 200);
        assert_eq!(state.headers().get("content-encoding"), None);
    }

    async fn an_item_is_answered_once_and_a_retry_is_idempotent(server) {
        let b = server.browser();
        b.login(ANNOTATOR).await;
        let (da, _) = my_hits(&b).await;
        // Answering before Start is refused.
        let early = submit(&b, &da, 0, "50", "k0").await;
        assert_eq!(early.status, 409, "{}", early.body);
        let first = start(&b, &da).await;
        assert_eq!(first["item"]["position"], 0);
        assert_eq!(start(&b, &da).await, first, "Start twice gives the same item");

        let answer = submit(&b, &da, 0, "73.4567", "key-0").await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        let step = answer.json();
        assert_eq!(step["answered"], 1);
        assert_eq!(step["item"]["position"], 1);

        // The same answer with the same key: the same result, nothing stored twice.
        let retry = submit(&b, &da, 0, "73.4567", "key-0").await;
        assert_eq!(retry.status, 200, "{}", retry.body);
        assert_eq!(retry.json(), step);
        // A different answer, or the same answer as a new attempt: refused.
        let changed = submit(&b, &da, 0, "10", "key-0").await;
        assert_eq!(changed.status, 409, "{}", changed.body);
        assert!(changed.body.contains("already been answered"), "{}", changed.body);
        assert_eq!(submit(&b, &da, 0, "73.4567", "another-key").await.status, 409);
        // Skipping ahead is refused too.
        let ahead = submit(&b, &da, 5, "50", "key-5").await;
        assert_eq!(ahead.status, 409, "{}", ahead.body);
        assert!(ahead.body.contains("answer item 2 next"), "{}", ahead.body);

        let stored = judgments(&server, &da).await;
        assert_eq!(stored.len(), 1, "{stored:?}");
        assert_eq!(stored[0]["position"], 0);
        assert_eq!(stored[0]["score"].as_f64(), Some(73.4567), "full resolution");
        assert_eq!(stored[0]["time_on_screen_ms"], 1500);
        assert!(stored[0]["shown_at"].as_i64().unwrap() <= stored[0]["submitted_at"].as_i64().unwrap());

        // Two racing submissions of the next item with different answers: exactly one wins.
        let (x, y) = tokio::join!(submit(&b, &da, 1, "20", "race-a"), submit(&b, &da, 1, "80", "race-b"));
        let mut statuses = [x.status, y.status];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{} / {}", x.body, y.body);
        assert_eq!(judgments(&server, &da).await.len(), 2);
    }

    async fn out_of_range_answers_are_refused_with_a_clear_message(server) {
        let b = server.browser();
        b.login(ANNOTATOR).await;
        let (da, woj) = my_hits(&b).await;
        start(&b, &da).await;
        start(&b, &woj).await;
        for (score, message) in [
            ("100.5", "between 0 and 100"),
            ("-0.01", "between 0 and 100"),
            ("NaN", "between 0 and 100"),
            ("inf", "between 0 and 100"),
        ] {
            let r = submit(&b, &da, 0, score, "k").await;
            assert_eq!(r.status, 400, "{score}: {}", r.body);
            assert!(r.body.contains(message), "{score}: {}", r.body);
        }
        let missing = b.call("submit_judgment", &[("assignment", &da), ("position", "0"), ("time_on_screen_ms", "10"), ("key", "k")]).await;
        assert_eq!(missing.status, 400);
        assert!(missing.body.contains("set the slider"), "{}", missing.body);
        let two = submit_woj(&b, &da, 0, "50", "60", "k").await;
        assert_eq!(two.status, 400);
        assert!(two.body.contains("one score"), "{}", two.body);
        let negative = b.call("submit_judgment", &[("assignment", &da), ("position", "0"), ("score", "50"), ("time_on_screen_ms", "-5"), ("key", "k")]).await;
        assert_eq!(negative.status, 400);
        assert!(negative.body.contains("time on screen"), "{}", negative.body);
        let no_key = submit(&b, &da, 0, "50", "").await;
        assert_eq!(no_key.status, 400);
        let skip = b.call("submit_judgment", &[("assignment", &da), ("position", "0"), ("skipped", "true"), ("time_on_screen_ms", "5"), ("key", "k")]).await;
        assert_eq!(skip.status, 400);
        assert!(skip.body.contains("does not allow skipping"), "{}", skip.body);
        let beyond = submit(&b, &da, 100, "50", "k").await;
        assert_eq!(beyond.status, 400);
        assert!(beyond.body.contains("items 1 to 100"), "{}", beyond.body);

        // Word order: five boxes, both questions.
        let between = submit_woj(&b, &woj, 0, "0.3", "1", "k").await;
        assert_eq!(between.status, 400);
        assert!(between.body.contains("one of the five boxes"), "{}", between.body);
        let only_one = b.call("submit_judgment", &[("assignment", &woj), ("position", "0"), ("score", "0.5"), ("time_on_screen_ms", "5"), ("key", "k")]).await;
        assert_eq!(only_one.status, 400);
        assert!(only_one.body.contains("second question"), "{}", only_one.body);
        let da_scale = submit_woj(&b, &woj, 0, "75", "100", "k").await;
        assert_eq!(da_scale.status, 400);

        // Nothing was stored and both HITs still wait at their first item.
        assert!(judgments(&server, &da).await.is_empty());
        assert!(judgments(&server, &woj).await.is_empty());
        for id in [&da, &woj] {
            assert_eq!(b.call("load_work", &[("assignment", id)]).await.json()["step"]["item"]["position"], 0);
        }

        let ok = submit_woj(&b, &woj, 0, "0.75", "1", "k").await;
        assert_eq!(ok.status, 200, "{}", ok.body);
        let stored = judgments(&server, &woj).await;
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0]["score"].as_f64(), Some(0.75), "box 4");
        assert_eq!(stored[0]["score2"].as_f64(), Some(1.0), "box 5");
    }

    async fn a_reload_resumes_at_the_same_item(server) {
        let b = server.browser();
        b.login(ANNOTATOR).await;
        let (da, _) = my_hits(&b).await;
        start(&b, &da).await;
        let mut last = Value::Null;
        for p in 0..3 {
            let r = submit(&b, &da, p, &format!("{}.5", 40 + p), &format!("k{p}")).await;
            assert_eq!(r.status, 200, "{}", r.body);
            last = r.json();
        }
        // A new session (another browser, signed in again) lands on the same item.
        let again = server.browser();
        again.login(ANNOTATOR).await;
        let state = again.call("load_work", &[("assignment", &da)]).await.json();
        assert_eq!(state["started"], true);
        assert_eq!(state["step"], last, "resume exactly where the last answer left off");
        assert_eq!(state["step"]["item"]["position"], 3);
        assert_eq!(state["step"]["answered"], 3);
        // The page itself (server-rendered) shows the progress of that item.
        let page = again.get(&format!("/work/{da}")).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("4 of 100"), "progress on the page");
        let stored = judgments(&server, &da).await;
        assert_eq!(stored.iter().map(|j| j["position"].as_i64().unwrap()).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    async fn a_crowd_worker_finishes_with_a_code_the_server_verifies(server) {
        let crowd = crowd_hit(&server).await;
        let worker = server.browser();
        let before = worker.call("load_work", &[("assignment", &crowd)]).await;
        assert_eq!(before.json()["step"]["completion"], Value::Null);
        start(&worker, &crowd).await;
        let mut bodies = vec![before.body.clone(), worker.get(&format!("/work/{crowd}")).await.body];
        let mut last = Value::Null;
        for p in 0..100 {
            let score = format!("{}", (p * 37 % 101) as f64 * 0.99);
            let r = submit(&worker, &crowd, p, &score, &format!("crowd-{p}")).await;
            assert_eq!(r.status, 200, "item {p}: {}", r.body);
            if p < 99 {
                assert_eq!(r.json()["completion"], Value::Null);
                bodies.push(r.body.clone());
            }
            last = r.json();
        }
        assert_eq!(last["item"], Value::Null);
        assert_eq!(last["answered"], 100);
        let code = last["completion"]["code"].as_str().unwrap().to_string();
        assert_eq!(code.len(), 23, "{code}");
        assert!(bodies.iter().all(|b| !b.contains(&code)), "the code is not sent before the last judgment is stored");
        let back = last["completion"]["return_url"].as_str().unwrap();
        assert_eq!(back, format!("https://app.prolific.com/submissions/complete?cc={code}"));

        // Exactly one judgment per item, each with its times.
        let stored = judgments(&server, &crowd).await;
        assert_eq!(stored.len(), 100);
        for (p, j) in stored.iter().enumerate() {
            assert_eq!(j["position"], p as i64);
            assert!(j["shown_at"].as_i64().is_some() && j["submitted_at"].as_i64().is_some(), "{j}");
            assert_eq!(j["time_on_screen_ms"], 1500);
        }

        // The page shows the same code afterwards; no more answers are taken.
        let after = worker.call("load_work", &[("assignment", &crowd)]).await.json();
        assert_eq!(after["step"]["completion"]["code"], code.as_str());
        assert_eq!(submit(&worker, &crowd, 99, "1", "new").await.status, 409);
        // The last answer's retry still returns the code.
        assert_eq!(submit(&worker, &crowd, 99, &format!("{}", (99 * 37 % 101) as f64 * 0.99), "crowd-99").await.json(), last);

        // Verification: anyone learns validity (a platform's server too: a plain GET without
        // Origin or cookies) given the worker's ids; organizers learn the assignment.
        let platform = |ids: &'static [(&'static str, &'static str)]| {
            let req = reqwest::Client::new().get(format!("{}/api/verify_completion_code", server.base)).query(&[("code", &code)]).query(ids);
            async move {
                let r = req.send().await.unwrap();
                assert_eq!(r.status().as_u16(), 200);
                r.json::<Value>().await.unwrap()["valid"].clone()
            }
        };
        assert_eq!(platform(&DEMO_PROLIFIC_IDS).await, true);
        // Issue 38: the code alone, or without the session it was earned in, is not valid.
        assert_eq!(platform(&[]).await, false);
        assert_eq!(platform(&DEMO_PROLIFIC_IDS[..1]).await, false);
        let anyone = server.browser();
        let v = verify(&anyone, &code).await;
        assert_eq!(v["valid"], true);
        assert_eq!(v["assignment"], Value::Null);
        let typed = code.to_lowercase().replace('-', " ");
        assert_eq!(verify(&anyone, &typed).await["valid"], true);
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        let v = verify(&organizer, &code).await;
        assert_eq!(v["valid"], true);
        assert_eq!(v["assignment"], crowd.as_str());
        // A changed symbol, or a made-up code, is not valid.
        let mut forged: Vec<char> = code.chars().collect();
        forged[0] = if forged[0] == 'A' { 'B' } else { 'A' };
        let forged: String = forged.into_iter().collect();
        assert_eq!(verify(&anyone, &forged).await["valid"], false);
        assert_eq!(verify(&anyone, "hello").await["valid"], false);

        // The annotator's own DA HIT (same HIT, other slot) gets a different code.
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let (da, _) = my_hits(&annotator).await;
        assert_ne!(da, crowd);
    }

    async fn quality_control_items_cannot_be_told_from_real_ones(server) {
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        let (da, woj) = my_hits(&annotator).await;
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        for (id, total) in [(&da, 100), (&woj, 50)] {
            let facts = organizer.call("assignment_items", &[("assignment", id)]).await.json();
            let facts = facts.as_array().unwrap().clone();
            assert_eq!(facts.len(), total);
            let types: BTreeSet<String> = facts.iter().map(|f| f["item_type"].as_str().unwrap().to_string()).collect();
            assert!(types.contains("SYSTEM") && types.contains("BAD_REF"), "{types:?}");
            let systems: BTreeSet<String> = facts.iter().filter_map(|f| f["system"].as_str().map(String::from)).collect();
            assert!(!systems.is_empty());

            let mut shapes_by_type: std::collections::BTreeMap<String, BTreeSet<BTreeSet<String>>> = Default::default();
            let mut state = annotator.call("load_work", &[("assignment", id)]).await.body;
            let mut step = start(&annotator, id).await;
            for p in 0..total {
                let body = serde_json::to_string(&step).unwrap();
                let mut keys = BTreeSet::new();
                key_paths(&step, "", &mut keys);
                let t = facts[p]["item_type"].as_str().unwrap().to_string();
                shapes_by_type.entry(t).or_default().insert(keys);
                assert_eq!(step["item"]["position"], p as i64);
                for needle in systems.iter().map(String::as_str).chain(["SYSTEM", "BAD_REF", "REPEAT", "\"REF\"", "item_type", "hit_item", "degradation"]) {
                    assert!(!body.contains(needle), "item {p} reveals {needle:?}: {body}");
                    assert!(!state.contains(needle), "the page state reveals {needle:?}");
                }
                let r = if *id == da {
                    submit(&annotator, id, p as i64, "61.5", &format!("q{p}")).await
                } else {
                    submit_woj(&annotator, id, p as i64, "0.5", "0.25", &format!("q{p}")).await
                };
                assert_eq!(r.status, 200, "{}", r.body);
                step = r.json();
                state = String::new();
            }
            // One shape for every item, whatever its type.
            let all: BTreeSet<BTreeSet<String>> = shapes_by_type.values().flatten().cloned().collect();
            assert_eq!(all.len(), 1, "item responses differ in shape by type: {shapes_by_type:?}");
            assert!(shapes_by_type.len() >= 2);
        }
    }
}
