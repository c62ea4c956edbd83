//! The quality gate at submission and the organizer's decisions about workers, against the
//! real server on both databases.
//!
//! A campaign with the gate on ("require pass", not enough evidence held) gets two crowd
//! workers through its signed link, driven by the simulated crowd's worker kinds
//! (`app::simulate::SimulatedWorker`) through the endpoints annotators use: a careful worker
//! (Mechanical Turk) and a random clicker (Prolific). The careful worker's last answer brings a
//! completion code that verifies; the random clicker's brings none, and a neutral page. Right
//! after, the review page shows both verdicts. Then the organizer's decisions: refused without
//! a reason or with a bad amount, recorded with who and when, a block that stops new work, an
//! approval that releases the held code, no judgment deleted, and the decisions.csv export.

use app::simulate::{SimulatedWorker, WorkerKind};
use assay_tests::fixtures::{sentence, upload_test_set};
use assay_tests::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};

/// Imports a generated WMT-layout test set (as a .tar.gz upload); returns (test set id, system ids).
async fn import_set(org: &Browser, name: &str, segments: usize, systems: &[&str]) -> (i64, Vec<i64>) {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, text: String| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let lines = |salt: usize| (0..segments).map(|i| sentence(i, salt) + "\n").collect::<String>();
    w("sources/en-de.txt", lines(0));
    w("references/en-de.refA.txt", lines(1));
    for (k, s) in systems.iter().enumerate() {
        w(&format!("system-outputs/en-de/{s}.txt"), lines(2 + k));
    }
    let set = upload_test_set(org, dir.path(), name).await.expect("imported test set");
    let ids = set["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
    (set["id"].as_i64().unwrap(), ids)
}

fn draft(test_set: i64, systems: &[i64], settings: Value, gate: Value) -> Value {
    json!({
        "name": "gated campaign", "task": "da-adequacy", "test_set_id": test_set, "systems": systems,
        "benchmark_systems": [], "seed": 11, "settings": settings, "gate": gate,
    })
}

/// The crowd link's path and query (`/c/…?sig=…`).
async fn crowd_link(org: &Browser, campaign: i64) -> String {
    let p = org.call("campaign_progress", &[("campaign_id", &campaign.to_string())]).await.json();
    let link = p["crowd_link"].as_str().unwrap();
    format!("/{}", link.split_once("://").unwrap().1.split_once('/').unwrap().1)
}

/// Follows the crowd link with the platform's parameters; the assignment id, or the page's text.
async fn arrive(b: &Browser, link: &str, params: &str) -> Result<String, String> {
    let r = b.client.get(format!("{}{link}&{params}", b.base)).send().await.unwrap();
    match r.headers().get("location") {
        Some(l) => Ok(l.to_str().unwrap().trim_start_matches("/work/").to_string()),
        None => Err(r.text().await.unwrap_or_default()),
    }
}

/// True quality of an item for the simulated worker: a per-system level; a bad reference 35
/// points below its original; references high.
fn quality(item_type: &str, system: &str) -> f64 {
    let base = if system.eq_ignore_ascii_case("alpha") { 58.0 } else { 72.0 };
    match item_type {
        "BAD_REF" => base - 35.0,
        "REF" => 90.0,
        _ => base,
    }
}

/// A simulated worker does a whole HIT through the annotators' endpoints; returns the last
/// answer (the completion step).
async fn work_through(org: &Browser, worker: &Browser, assignment: &str, sim: &mut SimulatedWorker) -> Value {
    let items = org.call("assignment_items", &[("assignment", assignment)]).await;
    assert_eq!(items.status, 200, "{}", items.body);
    let s = worker.call("start_work", &[("assignment", assignment)]).await;
    assert_eq!(s.status, 200, "{}", s.body);
    let mut last = Value::Null;
    for item in items.json().as_array().unwrap() {
        let p = item["position"].as_i64().unwrap();
        let score = sim.score(quality(item["item_type"].as_str().unwrap(), item["system"].as_str().unwrap_or("")));
        let ms = (sim.seconds(18.0) * 1000.0).round() as i64;
        let r = worker
            .call(
                "submit_judgment",
                &[
                    ("assignment", assignment),
                    ("position", &p.to_string()),
                    ("score", &format!("{score:.3}")),
                    ("time_on_screen_ms", &ms.to_string()),
                    ("key", &format!("k{p}")),
                ],
            )
            .await;
        assert_eq!(r.status, 200, "item {p}: {}", r.body);
        last = r.json();
    }
    last
}

async fn verify(b: &Browser, code: &str) -> Value {
    let r = b.client.get(format!("{}/api/verify_completion_code", b.base)).query(&[("code", code)]).send().await.unwrap();
    r.json().await.unwrap()
}

async fn decide(b: &Browser, campaign: i64, worker: &str, decision: &str, reason: &str, amount: &str) -> Answer {
    b.call(
        "decide_worker",
        &[("campaign_id", &campaign.to_string()), ("worker", worker), ("decision", decision), ("reason", reason), ("amount", amount)],
    )
    .await
}

async fn review(org: &Browser, campaign: i64) -> Value {
    let w = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await;
    assert_eq!(w.status, 200, "{}", w.body);
    w.json()
}

fn row<'a>(view: &'a Value, worker: &str) -> &'a Value {
    view["workers"].as_array().unwrap().iter().find(|w| w["worker"] == worker).unwrap_or_else(|| panic!("no row for {worker}: {view}"))
}

/// Splits one CSV line as `write_decisions_csv` writes it (quoted fields, doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let (mut quoted, mut chars) = (false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

both_backends! {
    async fn the_gate_holds_a_random_clickers_code_and_decisions_are_kept_and_exported(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let (set, systems) = import_set(&org, "gate-set", 40, &["Alpha", "Beta"]).await;
        let settings = json!({ "judgments_wanted": 70, "redundancy": 2, "target_language": "German", "payment_per_hit": 2.0, "payment_currency": "EUR" });
        let gate = json!({ "mode": "require-pass", "unsure": "hold" });

        // The designer's checks: a currency must be an ISO code; the gate needs bad references.
        let bad_currency = json!({ "judgments_wanted": 70, "redundancy": 2, "payment_currency": "euro" });
        let r = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, bad_currency, gate.clone()) })).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("ISO 4217"), "{}", r.body);
        let no_checks = json!({ "judgments_wanted": 70, "redundancy": 2, "hit_length": 90, "bad_refs": 0, "repeats": 10, "refs": 10 });
        let r = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, no_checks, gate.clone()) })).await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("quality gate needs bad references"), "{}", r.body);

        let created = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, settings, gate) })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign = created.json().as_i64().unwrap();
        let launched = org.call("launch_campaign", &[("campaign_id", &campaign.to_string())]).await;
        assert_eq!(launched.status, 200, "{}", launched.body);
        let link = crowd_link(&org, campaign).await;

        // Two crowd workers: careful on Mechanical Turk, a random clicker on Prolific.
        let careful_b = server.browser();
        let random_b = server.browser();
        let careful_params = "workerId=CAREFUL1&assignmentId=ASSIGN-C1&hitId=H1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com";
        let random_params = "PROLIFIC_PID=RANDOM1&STUDY_ID=S1&SESSION_ID=SESS-R1";
        let careful_a = arrive(&careful_b, &link, careful_params).await.expect("a HIT for the careful worker");
        let random_a = arrive(&random_b, &link, random_params).await.expect("a HIT for the random clicker");
        let mut careful = SimulatedWorker::new(WorkerKind::Careful, 7);
        let mut random = SimulatedWorker::new(WorkerKind::RandomClicker, 3);

        let before = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
        let done = work_through(&org, &careful_b, &careful_a, &mut careful).await;
        let code = done["completion"]["code"].as_str().unwrap_or_else(|| panic!("the careful worker gets a code: {done}")).to_string();
        assert!(done["completion"]["return_url"].as_str().unwrap_or("").contains(&code), "{done}");
        let v = verify(&org, &code).await;
        assert_eq!((v["valid"].clone(), v["assignment"].clone()), (json!(true), json!(careful_a)), "{v}");

        // The review page before the second worker: one row (computed and kept); after the
        // second worker's HIT the page recomputes that worker only and shows both.
        let first = review(&org, campaign).await;
        assert_eq!(first["workers"].as_array().unwrap().len(), 1, "{first}");
        let held = work_through(&org, &random_b, &random_a, &mut random).await;
        // No code, no return address, and nothing else: not which items were checks, not the verdict.
        assert_eq!(held["completion"], json!({ "code": null, "return_url": null }), "{held}");
        assert_eq!(held["item"], Value::Null);
        let state = random_b.call("load_work", &[("assignment", &random_a)]).await;
        assert_eq!(state.status, 200, "{}", state.body);
        assert_eq!(state.json()["step"]["completion"]["code"], Value::Null);
        for word in ["BAD_REF", "bad ref", "fail", "verdict", "reliab", "p_value"] {
            assert!(!state.body.to_lowercase().contains(&word.to_lowercase()), "the held worker's state mentions {word}: {}", state.body);
        }
        let page = random_b.get(&format!("/work/{random_a}")).await;
        assert!(page.body.contains("reviews finished HITs"), "the neutral end screen");
        assert!(!page.body.contains("completion-code"), "no code on the held page");

        // The verdicts computed at submission are on the review page at once.
        let view = review(&org, campaign).await;
        assert!(view["gate"].as_str().unwrap().contains("needs a pass"), "{}", view["gate"]);
        assert_eq!(view["currency"], "EUR");
        let c = row(&view, "mturk:CAREFUL1");
        assert_eq!(c["gate"]["verdict"], "pass", "{c}");
        assert_eq!((c["gate"]["code_given"].clone(), c["gate"]["n_pairs"].clone(), c["gate"]["hits"].clone()), (json!(true), json!(10), json!(1)));
        assert!(c["gate"]["p_value"].as_f64().unwrap() < 0.05);
        assert!(c["gate"]["computed_at"].as_i64().unwrap() >= before);
        let r = row(&view, "prolific:RANDOM1");
        assert_eq!(r["gate"]["verdict"], "fail", "{r}");
        assert_eq!(r["gate"]["code_given"], false);
        assert_eq!(r["held_hits"], 1);
        assert!(r["gate"]["p_value"].as_f64().unwrap() >= 0.05);
        println!(
            "gate computation at submission: careful {} µs, random {} µs",
            c["gate"]["compute_us"], r["gate"]["compute_us"]
        );
        assert_eq!(c["decisions"], json!([]));

        // A worker held on a first HIT (one score for everything: no evidence of telling bad
        // references apart) who then works carefully: the pooled verdict over both HITs passes,
        // and the first HIT's code is released with the second's. (A random first HIT would make
        // the pooled test depend on the draw: its differences have a spread of about 40 points.)
        let mixed_b = server.browser();
        let first_a = arrive(&mixed_b, &link, "worker=MIXED1").await.expect("a first HIT");
        let held_first = work_through(&org, &mixed_b, &first_a, &mut SimulatedWorker::new(WorkerKind::LazyConstant, 5)).await;
        assert_eq!(held_first["completion"]["code"], Value::Null, "{held_first}");
        let second_a = arrive(&mixed_b, &link, "worker=MIXED1").await.expect("a second HIT");
        assert_ne!(first_a, second_a);
        let done = work_through(&org, &mixed_b, &second_a, &mut SimulatedWorker::new(WorkerKind::Careful, 9)).await;
        assert!(done["completion"]["code"].is_string(), "{done}");
        let m = row(&review(&org, campaign).await, "link:MIXED1").clone();
        assert_eq!((m["gate"]["verdict"].clone(), m["gate"]["hits"].clone(), m["gate"]["n_pairs"].clone()), (json!("pass"), json!(2), json!(20)), "{m}");
        assert_eq!(m["held_hits"], 0);
        let first = mixed_b.call("load_work", &[("assignment", &first_a)]).await.json();
        let released = first["step"]["completion"]["code"].as_str().expect("the first HIT's code, released").to_string();
        assert_eq!(verify(&org, &released).await["assignment"], json!(first_a));

        // Decisions: only organizers; a rejection needs a reason; a bonus a valid amount.
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        assert_eq!(decide(&researcher, campaign, "prolific:RANDOM1", "reject", "x", "").await.status, 403);
        assert_eq!(decide(&server.browser(), campaign, "prolific:RANDOM1", "reject", "x", "").await.status, 401);
        let refused = [
            ("prolific:RANDOM1", "reject", "  ", "", "give a reason for rejecting"),
            ("mturk:CAREFUL1", "bonus", "thanks", "abc", "must be a number"),
            ("mturk:CAREFUL1", "bonus", "thanks", "0", "more than zero"),
            ("mturk:CAREFUL1", "bonus", "thanks", "1.005", "two decimals"),
            ("mturk:CAREFUL1", "bonus", "thanks", "5000", "at most 1000.00"),
            ("mturk:CAREFUL1", "bonus", "", "1.50", "give a reason for the bonus"),
            ("mturk:CAREFUL1", "approve", "", "1.50", "only with a bonus"),
            ("mturk:CAREFUL1", "delete", "", "", "is not a decision"),
            ("mturk:NOBODY", "approve", "", "", "has no HIT in campaign"),
        ];
        for (worker, decision, reason, amount, says) in refused {
            let a = decide(&org, campaign, worker, decision, reason, amount).await;
            assert_eq!(a.status, 400, "{decision} {amount:?}: {}", a.body);
            assert!(a.body.contains(says), "{decision} {amount:?}: {}", a.body);
        }
        assert_eq!(decide(&org, 999_999, "mturk:CAREFUL1", "approve", "", "").await.status, 400);
        let view = review(&org, campaign).await;
        assert!(view["workers"].as_array().unwrap().iter().all(|w| w["decisions"] == json!([])), "refusals change nothing");

        let ok = |a: Answer| { assert_eq!(a.status, 200, "{}", a.body); a.json().as_str().unwrap().to_string() };
        ok(decide(&org, campaign, "prolific:RANDOM1", "reject", "random clicking: scores do not follow the texts", "").await);
        ok(decide(&org, campaign, "mturk:CAREFUL1", "approve", "", "").await);
        let bonus = ok(decide(&org, campaign, "mturk:CAREFUL1", "bonus", "careful work", "1.5").await);
        assert!(bonus.contains("1.50 EUR"), "{bonus}");
        ok(decide(&org, campaign, "prolific:RANDOM1", "block", "", "").await);

        // A blocked worker gets no more work; nothing of theirs was deleted.
        let again = arrive(&server.browser(), &link, "PROLIFIC_PID=RANDOM1&STUDY_ID=S1&SESSION_ID=SESS-R2").await;
        assert!(again.as_ref().is_err_and(|t| t.contains("No work right now")), "{again:?}");
        let kept = org.call("assignment_judgments", &[("assignment", &random_a)]).await.json();
        assert_eq!(kept.as_array().unwrap().len(), 100, "rejecting and blocking keep every judgment");

        let view = review(&org, campaign).await;
        let c = row(&view, "mturk:CAREFUL1");
        assert_eq!(c["standing"], "approve");
        assert_eq!(c["bonus_total"], "1.50 EUR");
        let history = c["decisions"].as_array().unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!((history[0]["decision"].clone(), history[0]["reason"].clone(), history[0]["bonus"].clone()), (json!("bonus"), json!("careful work"), json!("1.50 EUR")));
        assert_eq!(history[0]["decided_by"], ORGANIZER.0);
        assert!(history[0]["decided_at"].as_i64().unwrap() >= before);
        let r = row(&view, "prolific:RANDOM1");
        assert_eq!((r["standing"].clone(), r["blocked"].clone()), (json!("reject"), json!(true)));
        assert_eq!(r["decisions"][1]["reason"], "random clicking: scores do not follow the texts");

        // The judgment export carries each worker's decision in force beside the verdict.
        let raw = org.get(&format!("/campaigns/{campaign}/export/judgments.csv")).await;
        assert_eq!(raw.status, 200, "{}", raw.body);
        let mut lines = raw.body.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let (worker_col, decision_col) = (
            header.iter().position(|c| *c == "worker").expect("a worker column"),
            header.iter().position(|c| *c == "worker_decision").expect("a worker_decision column"),
        );
        let mut seen: BTreeMap<String, HashSet<String>> = BTreeMap::new();
        for line in lines {
            let f = csv_fields(line);
            seen.entry(f[worker_col].clone()).or_default().insert(f[decision_col].clone());
        }
        assert_eq!(seen["prolific:RANDOM1"], HashSet::from(["reject".to_string()]), "{seen:?}");
        assert_eq!(seen["mturk:CAREFUL1"], HashSet::from(["approve".to_string()]), "{seen:?}");

        // Unblocked, the worker may come back. The latest of approve/reject wins; approving
        // releases the held code, which then verifies.
        ok(decide(&org, campaign, "prolific:RANDOM1", "unblock", "", "").await);
        assert_eq!(row(&review(&org, campaign).await, "prolific:RANDOM1")["blocked"], false);
        let released = ok(decide(&org, campaign, "prolific:RANDOM1", "approve", "reviewed by hand", "").await);
        assert!(released.contains("1 held completion code"), "{released}");
        let state = random_b.call("load_work", &[("assignment", &random_a)]).await.json();
        let late = state["step"]["completion"]["code"].as_str().expect("the released code").to_string();
        assert_eq!(verify(&org, &late).await["assignment"], json!(random_a));
        let view = review(&org, campaign).await;
        let r = row(&view, "prolific:RANDOM1");
        assert_eq!((r["standing"].clone(), r["held_hits"].clone()), (json!("approve"), json!(0)));
        assert_eq!(r["decisions"].as_array().unwrap().len(), 4, "the history keeps the rejection and the block");

        // The export: organizers only; the decisions in force with the platforms' ids.
        assert_eq!(researcher.get(&format!("/campaigns/{campaign}/decisions.csv")).await.status, 403);
        assert_eq!(server.browser().get(&format!("/campaigns/{campaign}/decisions.csv")).await.status, 401);
        assert_eq!(org.get("/campaigns/999999/decisions.csv").await.status, 404);
        let csv = org.client.get(format!("{}/campaigns/{campaign}/decisions.csv", server.base)).send().await.unwrap();
        assert_eq!(csv.status().as_u16(), 200);
        assert!(csv.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
        assert!(csv.headers()["content-disposition"].to_str().unwrap().contains("attachment"));
        let text = csv.text().await.unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), "worker,platform,platform_worker_id,assignment_ids,decision,reason,bonus_amount,currency,decided_by,decided_at");
        let rows: Vec<Vec<String>> = lines.map(csv_fields).collect();
        assert!(rows.iter().all(|r| r.len() == 10), "{text}");
        let of = |w: &str| rows.iter().filter(|r| r[0] == w).map(|r| r[4].clone()).collect::<Vec<_>>();
        assert_eq!(of("mturk:CAREFUL1"), ["approve", "bonus"], "{text}");
        // The rejection was overridden by the approval, the block by the unblock.
        assert_eq!(of("prolific:RANDOM1").into_iter().collect::<HashSet<_>>(), HashSet::from(["approve".to_string(), "unblock".to_string()]), "{text}");
        let b = rows.iter().find(|r| r[4] == "bonus").unwrap();
        assert_eq!(&b[1..9], ["mturk", "CAREFUL1", "ASSIGN-C1", "bonus", "careful work", "1.50", "EUR", ORGANIZER.0]);
        let a = rows.iter().find(|r| r[0] == "prolific:RANDOM1" && r[4] == "approve").unwrap();
        assert_eq!((a[2].as_str(), a[3].as_str(), a[5].as_str(), a[6].as_str()), ("RANDOM1", "SESS-R1", "reviewed by hand", ""));
        let t = &b[9];
        assert!(t.len() == 20 && t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");

    }
}
