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

fn draft(test_set: i64, systems: &[i64], mut settings: Value, gate: Value) -> Value {
    // The tests read the English interface (an en-de set would be German).
    if let Some(s) = settings.as_object_mut() {
        s.insert("interface_language".into(), json!("en"));
    }
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

/// [`decide`] for one platform session of the worker (`session`).
async fn decide_in(b: &Browser, campaign: i64, worker: &str, session: &str, decision: &str, reason: &str) -> Answer {
    b.call(
        "decide_worker",
        &[("campaign_id", &campaign.to_string()), ("worker", worker), ("session", session), ("decision", decision), ("reason", reason), ("amount", "")],
    )
    .await
}

/// `bulk_decide_workers` under the t-test.
async fn bulk_decide(b: &Browser, campaign: i64, action: &str, reason: &str, expected: usize) -> Answer {
    b.call(
        "bulk_decide_workers",
        &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false"), ("action", action), ("reason", reason), ("expected", &expected.to_string())],
    )
    .await
}

/// The first page of the review table with the flag filter `flag`.
async fn workers_with_flag(b: &Browser, campaign: i64, flag: &str) -> Answer {
    b.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false"), ("flag", flag)]).await
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
    /// Issue 18, item 6: bulk decisions and the Mechanical Turk batch-results file. Three crowd
    /// workers: two careful (Mechanical Turk and Prolific) and a random clicker (Mechanical
    /// Turk). "Approve all who passed" is refused when the confirmed number is not the number
    /// now to be decided, refused to researchers and strangers, then approves both careful
    /// workers in one go; repeated, it changes nothing. "Reject all who failed" needs a reason.
    /// The batch file marks the Mechanical Turk assignments as the requester site reads them.
    async fn bulk_decisions_are_confirmed_idempotent_and_go_to_the_mturk_batch_file(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let (set, systems) = import_set(&org, "bulk-set", 80, &["Alpha", "Beta"]).await;
        let settings = json!({ "judgments_wanted": 140, "redundancy": 2, "target_language": "German" });
        let created = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, settings, json!({ "mode": "off", "unsure": "give" })) })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign = created.json().as_i64().unwrap();
        let cid = campaign.to_string();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &cid)]).await.status, 200);
        let link = crowd_link(&org, campaign).await;
        let arrivals = [
            ("workerId=GOOD1&assignmentId=A-GOOD1&hitId=HIT-1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com", WorkerKind::Careful, 7),
            ("workerId=RAND1&assignmentId=A-RAND1&hitId=HIT-2&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com", WorkerKind::RandomClicker, 3),
            ("PROLIFIC_PID=GOOD2&STUDY_ID=S1&SESSION_ID=SESS-G2", WorkerKind::Careful, 11),
        ];
        for (params, kind, seed) in arrivals {
            let b = server.browser();
            let a = arrive(&b, &link, params).await.expect("a HIT");
            work_through(&org, &b, &a, &mut SimulatedWorker::new(kind, seed)).await;
        }
        let view = review(&org, campaign).await;
        let verdicts: Vec<(String, String)> =
            view["workers"].as_array().unwrap().iter().map(|w| (w["worker"].as_str().unwrap().to_string(), w["verdict"].as_str().unwrap().to_string())).collect();
        assert_eq!(row(&view, "mturk:GOOD1")["verdict"], "pass", "{verdicts:?}");
        assert_eq!(row(&view, "prolific:GOOD2")["verdict"], "pass", "{verdicts:?}");
        assert_eq!(row(&view, "mturk:RAND1")["verdict"], "fail", "{verdicts:?}");
        assert_eq!(view["bulk"], json!({ "approve": 2, "approved_already": 0, "reject": 1, "rejected_already": 0, "several_sessions": 0 }));

        // The flag filter: every row is flagged or not; an unknown kind is refused.
        let with = |flag: &'static str| workers_with_flag(&org, campaign, flag);
        let (any, none) = (with("any").await.json(), with("none").await.json());
        assert_eq!(any["matching"].as_u64().unwrap() + none["matching"].as_u64().unwrap(), 3, "{any} {none}");
        assert_eq!(any["flag_counts"]["any"], any["matching"]);
        assert!(any["workers"].as_array().unwrap().iter().all(|w| !w["flags"].as_array().unwrap().is_empty()));
        let bad = with("slow").await;
        assert_eq!(bad.status, 400, "{}", bad.body);
        assert!(bad.body.contains("flag \"slow\" is not"), "{}", bad.body);
        let api = org.get(&format!("/api/v1/campaigns/{campaign}/workers?flag=none")).await;
        assert_eq!(api.status, 200, "{}", api.body);
        assert_eq!(serde_json::from_str::<Value>(&api.body).unwrap()["matching"], none["matching"]);

        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        assert_eq!(bulk_decide(&researcher, campaign, "approve-passed", "", 2).await.status, 403);
        let stranger = server.browser();
        assert_eq!(bulk_decide(&stranger, campaign, "approve-passed", "", 2).await.status, 401);
        let wrong = bulk_decide(&org, campaign, "approve-all", "", 2).await;
        assert_eq!(wrong.status, 400, "{}", wrong.body);
        let no_reason = bulk_decide(&org, campaign, "reject-failed", "  ", 1).await;
        assert_eq!(no_reason.status, 400, "{}", no_reason.body);
        assert!(no_reason.body.contains("give a reason for rejecting"), "{}", no_reason.body);
        // Confirmed for another number than is to be decided now: nothing is done.
        let stale = bulk_decide(&org, campaign, "approve-passed", "", 3).await;
        assert_eq!(stale.status, 409, "{}", stale.body);
        assert!(stale.body.contains("2 worker(s) who passed are now to be approved, not 3"), "{}", stale.body);
        let view = review(&org, campaign).await;
        assert!(view["workers"].as_array().unwrap().iter().all(|w| w["decisions"] == json!([])), "refusals change nothing: {view}");

        let done = bulk_decide(&org, campaign, "approve-passed", "", 2).await;
        assert_eq!(done.status, 200, "{}", done.body);
        assert_eq!(done.json(), json!("Approved 2 worker(s) who passed."));
        let again = bulk_decide(&org, campaign, "approve-passed", "", 2).await;
        assert_eq!(again.status, 200, "{}", again.body);
        assert!(again.json().as_str().unwrap().starts_with("Nothing to do"), "{}", again.body);
        let rejected = bulk_decide(&org, campaign, "reject-failed", "random clicking: the scores do not follow the texts", 1).await;
        assert_eq!(rejected.json(), json!("Rejected 1 worker(s) who failed."), "{}", rejected.body);
        let view = review(&org, campaign).await;
        for (w, standing) in [("mturk:GOOD1", "approve"), ("prolific:GOOD2", "approve"), ("mturk:RAND1", "reject")] {
            let r = row(&view, w);
            assert_eq!(r["standing"], standing, "{r}");
            assert_eq!(r["decisions"].as_array().unwrap().len(), 1, "one decision each, however often the button was pressed: {r}");
            assert_eq!(r["decisions"][0]["decided_by"], ORGANIZER.0);
        }
        assert_eq!(view["bulk"], json!({ "approve": 0, "approved_already": 2, "reject": 0, "rejected_already": 1, "several_sessions": 0 }));

        // The Mechanical Turk batch file: organizers only; the Mechanical Turk assignments with
        // an x under Approve or the reason under Reject (the Prolific worker is not in it).
        assert_eq!(researcher.get(&format!("/campaigns/{campaign}/mturk-batch.csv")).await.status, 403);
        assert_eq!(server.browser().get(&format!("/campaigns/{campaign}/mturk-batch.csv")).await.status, 401);
        assert_eq!(org.get("/campaigns/999999/mturk-batch.csv").await.status, 404);
        let csv = org.client.get(format!("{}/campaigns/{campaign}/mturk-batch.csv", server.base)).send().await.unwrap();
        assert_eq!(csv.status().as_u16(), 200);
        assert!(csv.headers()["content-disposition"].to_str().unwrap().contains(&format!("campaign-{campaign}-mturk-batch-results.csv")));
        let text = csv.text().await.unwrap();
        let lines: Vec<Vec<String>> = text.lines().map(csv_fields).collect();
        assert_eq!(lines[0], ["HITId", "AssignmentId", "WorkerId", "Approve", "Reject"], "{text}");
        let mut rows = lines[1..].to_vec();
        rows.sort();
        assert_eq!(
            rows,
            vec![
                vec!["HIT-1".to_string(), "A-GOOD1".into(), "GOOD1".into(), "x".into(), "".into()],
                vec!["HIT-2".to_string(), "A-RAND1".into(), "RAND1".into(), "".into(), "random clicking: the scores do not follow the texts".into()],
            ],
            "{text}"
        );
    }

    /// Issue 17, finding 6: someone arrives first with a Mechanical Turk worker's id (and an
    /// assignmentId of their own) and clicks through a HIT; the worker does a HIT of their own.
    /// The review page shows that the id arrived with two platform sessions; a decision must
    /// name the session it is for, and applies to that session only: rejecting and blocking the
    /// squatter's session neither rejects the worker's HIT nor keeps the worker's next session
    /// out. (Before: the decision went to the id, the export listed both assignment ids, and
    /// the block turned the worker away.)
    async fn decisions_apply_to_one_platform_session_of_a_worker_id(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        // Four HITs for two workers each: the id gets a HIT in each of three sessions.
        let (set, systems) = import_set(&org, "session-set", 80, &["Alpha", "Beta"]).await;
        let settings = json!({ "judgments_wanted": 140, "redundancy": 2, "target_language": "German" });
        let created = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, settings, json!({ "mode": "off", "unsure": "give" })) })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign = created.json().as_i64().unwrap();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &campaign.to_string())]).await.status, 200);
        let link = crowd_link(&org, campaign).await;
        let mturk = |assignment: &str| format!("workerId=TWICE&assignmentId={assignment}&hitId=H1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com");

        let squatter_b = server.browser_from("127.0.0.9".parse().unwrap());
        let squatted = arrive(&squatter_b, &link, &mturk("A-SQUAT")).await.expect("a HIT for the squatter");
        work_through(&org, &squatter_b, &squatted, &mut SimulatedWorker::new(WorkerKind::RandomClicker, 5)).await;
        let worker_b = server.browser();
        let own = arrive(&worker_b, &link, &mturk("A-REAL")).await.expect("a HIT for the worker");
        assert_ne!(own, squatted);
        work_through(&org, &worker_b, &own, &mut SimulatedWorker::new(WorkerKind::Careful, 9)).await;

        let view = review(&org, campaign).await;
        let r = row(&view, "mturk:TWICE");
        assert_eq!(r["sessions"], json!(["A-SQUAT", "A-REAL"]), "{r}");
        assert!(r["flags"].as_array().unwrap().iter().any(|f| f.as_str().unwrap().contains("arrived with 2 platform sessions")), "{r}");

        // A decision about the id as a whole must say which session, or all.
        let blind = decide(&org, campaign, "mturk:TWICE", "reject", "random clicking", "").await;
        assert_eq!(blind.status, 400, "{}", blind.body);
        assert!(blind.body.contains("2 platform sessions"), "{}", blind.body);
        let unknown = decide_in(&org, campaign, "mturk:TWICE", "A-OTHER", "reject", "random clicking").await;
        assert_eq!(unknown.status, 400, "{}", unknown.body);
        for (session, decision, reason) in [("A-SQUAT", "reject", "random clicking"), ("A-SQUAT", "block", ""), ("A-REAL", "approve", "")] {
            let a = decide_in(&org, campaign, "mturk:TWICE", session, decision, reason).await;
            assert_eq!(a.status, 200, "{decision} {session}: {}", a.body);
        }
        // The export gives each decision the platform's id of its own session only.
        let csv = org.get(&format!("/campaigns/{campaign}/decisions.csv")).await;
        assert_eq!(csv.status, 200);
        let rows: Vec<Vec<String>> = csv.body.lines().skip(1).map(csv_fields).collect();
        let ids_of = |decision: &str| rows.iter().filter(|r| r[4] == decision).map(|r| r[3].clone()).collect::<Vec<_>>();
        assert_eq!((ids_of("reject"), ids_of("block"), ids_of("approve")), (vec!["A-SQUAT".to_string()], vec!["A-SQUAT".to_string()], vec!["A-REAL".to_string()]), "{}", csv.body);
        // The blocked session gets no more work; the worker's next session does, and the id
        // is not blocked.
        let again = arrive(&squatter_b, &link, &mturk("A-SQUAT")).await;
        assert!(again.as_ref().is_err_and(|t| t.contains("No work right now")), "{again:?}");
        let view = review(&org, campaign).await;
        assert_eq!(row(&view, "mturk:TWICE")["blocked"], false);
        let history = row(&view, "mturk:TWICE")["decisions"].as_array().unwrap().iter().map(|d| (d["decision"].clone(), d["session"].clone())).collect::<Vec<_>>();
        assert_eq!(history[0], (json!("approve"), json!("A-REAL")), "{history:?}");
        let next = arrive(&worker_b, &link, &mturk("A-NEXT")).await;
        assert!(next.is_ok(), "the worker's next session gets work: {next:?}");
    }

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
        // Their end page shows the code (the element the held page below must not have).
        let page = careful_b.get(&format!("/work/{careful_a}")).await;
        assert!(page.body.contains("id=\"completion-code\"") && page.body.contains(&code), "the code on the careful worker's page");

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
        // (The element, not the class's name: a work page carries its style sheet.)
        assert!(!page.body.contains("id=\"completion-code\""), "no code on the held page");

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

/// One page of the review table through the server function, with the query given.
async fn review_page(org: &Browser, campaign: i64, query: &[(&str, &str)]) -> Answer {
    let id = campaign.to_string();
    let mut form = vec![("campaign_id", id.as_str()), ("wilcoxon", "false")];
    form.extend_from_slice(query);
    org.call("campaign_workers", &form).await
}

fn names(view: &Value) -> Vec<String> {
    view["workers"].as_array().unwrap().iter().map(|w| w["worker"].as_str().unwrap().to_string()).collect()
}

/// A worker's score of an item by design: a careful worker scores bad references 40 points below
/// their originals, a contrarian 20 points above, a flat worker 50 for everything; a little
/// noise, different per worker, so that p-values differ.
fn designed_score(kind: &str, salt: u64, position: i64, item_type: &str) -> f64 {
    let noise = ((position as u64 * 7919 + salt * 104_729) % 13) as f64 - 6.0;
    match (kind, item_type) {
        ("flat", _) => 50.0,
        (_, "REF") => 90.0 + noise / 2.0,
        ("careful", "BAD_REF") => 30.0 + noise,
        ("contrarian", "BAD_REF") => 80.0 + noise,
        _ => 60.0 + noise,
    }
}

both_backends! {
    async fn the_review_table_is_paged_sorted_searched_and_filtered_on_the_server(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let (set, systems) = import_set(&org, "review-set", 40, &["Alpha", "Beta"]).await;
        let settings = json!({ "judgments_wanted": 70, "redundancy": 10, "target_language": "German" });
        let gate = json!({ "mode": "require-pass", "unsure": "hold" });
        let created = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, settings, gate) })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign = created.json().as_i64().unwrap();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &campaign.to_string())]).await.status, 200);
        let link = crowd_link(&org, campaign).await;

        // Eight workers: three pass, three fail (two score bad references higher, one scores
        // everything alike: no p-value), two stop after ten items (not enough evidence).
        let crowd = [
            ("Good-A1", "careful", 100), ("good-b2", "careful", 100), ("GOOD-c3", "careful", 100),
            ("bad-x1", "contrarian", 100), ("Bad-X2", "contrarian", 100), ("flat-1", "flat", 100),
            ("part-1", "careful", 10), ("part-2", "contrarian", 10),
        ];
        for (salt, (name, kind, items)) in crowd.iter().enumerate() {
            let b = server.browser();
            let a = arrive(&b, &link, &format!("worker={name}")).await.unwrap_or_else(|t| panic!("a HIT for {name}: {t}"));
            let list = org.call("assignment_items", &[("assignment", &a)]).await.json();
            assert_eq!(b.call("start_work", &[("assignment", &a)]).await.status, 200);
            for item in list.as_array().unwrap().iter().take(*items) {
                let p = item["position"].as_i64().unwrap();
                let score = designed_score(kind, salt as u64, p, item["item_type"].as_str().unwrap());
                let r = b
                    .call("submit_judgment", &[("assignment", &a), ("position", &p.to_string()), ("score", &format!("{score}")), ("time_on_screen_ms", "9000"), ("key", &format!("k{p}"))])
                    .await;
                assert_eq!(r.status, 200, "{name} item {p}: {}", r.body);
            }
        }

        // Everything on one page: the reference every other answer is checked against.
        let all = review_page(&org, campaign, &[("per_page", "200")]).await;
        assert_eq!(all.status, 200, "{}", all.body);
        let all = all.json();
        let rows = all["workers"].as_array().unwrap().clone();
        assert_eq!((all["total"].clone(), all["matching"].clone(), rows.len()), (json!(8), json!(8), 8), "{all}");
        let mut sorted = names(&all);
        sorted.sort();
        assert_eq!(names(&all), sorted, "rows by worker by default");
        let verdict_of = |w: &str| rows.iter().find(|r| r["worker"] == format!("link:{w}")).unwrap()["verdict"].as_str().unwrap().to_string();
        for (w, v) in [("Good-A1", "pass"), ("good-b2", "pass"), ("GOOD-c3", "pass"), ("bad-x1", "fail"), ("Bad-X2", "fail"), ("flat-1", "fail"), ("part-1", "not enough evidence"), ("part-2", "not enough evidence")] {
            assert_eq!(verdict_of(w), v, "{w}: {all}");
        }
        let tally = |f: &dyn Fn(&Value) -> bool| rows.iter().filter(|r| f(r)).count();
        let counts = json!({
            "pass": tally(&|r| r["verdict"] == "pass"), "fail": tally(&|r| r["verdict"] == "fail"),
            "not_enough_evidence": tally(&|r| r["verdict"] == "not enough evidence"), "excluded": tally(&|r| r["excluded"] == true),
        });
        assert_eq!(counts, json!({ "pass": 3, "fail": 3, "not_enough_evidence": 2, "excluded": 5 }));
        assert_eq!(all["counts"], counts);
        assert!(rows.iter().all(|r| r["scatter_svg"].as_str().unwrap().contains("<svg")), "a scatter per returned row");

        // The review page's rows from a current cached analysis (the results page's) are those
        // read anew: after a restart (no cache), the results first, then the review with the
        // analysis's reliability test (its quality control is taken) and with the other (run
        // again on its judgments).
        let id = campaign.to_string();
        let wilcoxon = [("campaign_id", id.as_str()), ("wilcoxon", "true"), ("per_page", "200")];
        let fresh_wilcoxon = org.call("campaign_workers", &wilcoxon).await;
        assert_eq!(fresh_wilcoxon.status, 200, "{}", fresh_wilcoxon.body);
        let fresh_wilcoxon = fresh_wilcoxon.json();
        let mut server = server;
        server.restart_logged(&[("ASSAY_LOG", "warn,app::results::build=debug")]).await;
        let results = org
            .call("campaign_results", &[("campaign_id", &id), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(results.status, 200, "{}", results.body);
        let reused = review_page(&org, campaign, &[("per_page", "200")]).await;
        assert_eq!(reused.status, 200, "{}", reused.body);
        assert_eq!(reused.json()["workers"], all["workers"], "paired t: the analysis's quality control");
        let reused_wilcoxon = org.call("campaign_workers", &wilcoxon).await;
        assert_eq!(reused_wilcoxon.status, 200, "{}", reused_wilcoxon.body);
        assert_eq!(reused_wilcoxon.json()["workers"], fresh_wilcoxon["workers"], "Wilcoxon: run on the analysis's judgments");
        let log = read_text(&server.log_path());
        for same in [true, false] {
            let line = format!("review of campaign {campaign}: from the cached analysis (its quality control: {same})");
            assert!(log.contains(&line), "{line:?} not in the log:\n{log}");
        }

        // Pages of three: 3 + 3 + 2 rows, the same rows in the same order; past the end, the last page.
        let mut paged = Vec::new();
        for page in ["1", "2", "3"] {
            let v = review_page(&org, campaign, &[("page", page), ("per_page", "3")]).await.json();
            assert_eq!((v["total"].clone(), v["matching"].clone(), v["counts"].clone()), (json!(8), json!(8), counts.clone()), "{v}");
            assert_eq!(v["query"]["page"], json!(page.parse::<u64>().unwrap()));
            paged.extend(names(&v));
        }
        assert_eq!(paged, names(&all));
        let past = review_page(&org, campaign, &[("page", "9"), ("per_page", "3")]).await.json();
        assert_eq!((past["query"]["page"].clone(), names(&past)), (json!(3), names(&all)[6..].to_vec()));
        let first = review_page(&org, campaign, &[]).await.json();
        assert_eq!((first["query"]["per_page"].clone(), first["workers"].as_array().unwrap().len()), (json!(50), 8), "50 rows a page by default");

        // Sorted by p: ascending, rows without a p-value last in either order; ties by worker.
        let p_of = |v: &Value| -> Vec<Option<f64>> { v["workers"].as_array().unwrap().iter().map(|w| w["p_value"].as_f64()).collect() };
        let expect_p = |desc: bool| {
            let mut r: Vec<(Option<f64>, String)> = rows.iter().map(|w| (w["p_value"].as_f64(), w["worker"].as_str().unwrap().to_string())).collect();
            r.sort_by(|a, b| match (a.0, b.0) {
                (Some(x), Some(y)) => if desc { y.total_cmp(&x) } else { x.total_cmp(&y) }.then(a.1.cmp(&b.1)),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => a.1.cmp(&b.1),
            });
            r.into_iter().map(|x| x.1).collect::<Vec<_>>()
        };
        let by_p = review_page(&org, campaign, &[("sort", "p"), ("order", "asc"), ("per_page", "200")]).await.json();
        assert_eq!(names(&by_p), expect_p(false), "{by_p}");
        let ps = p_of(&by_p);
        assert!(ps.iter().filter(|p| p.is_some()).count() == 5 && ps.last().unwrap().is_none(), "{ps:?}");
        assert!(ps.windows(2).all(|w| match (w[0], w[1]) { (Some(a), Some(b)) => a <= b, (None, Some(_)) => false, _ => true }), "{ps:?}");
        let by_p_desc = review_page(&org, campaign, &[("sort", "p"), ("order", "desc"), ("per_page", "200")]).await.json();
        assert_eq!(names(&by_p_desc), expect_p(true), "{by_p_desc}");
        // The second page of three of the p order is that order's rows 4 to 6.
        let p2 = review_page(&org, campaign, &[("sort", "p"), ("page", "2"), ("per_page", "3")]).await.json();
        assert_eq!(names(&p2), expect_p(false)[3..6].to_vec());
        // By verdict, descending: passes first; by flags: never fewer flags after more.
        let by_verdict = review_page(&org, campaign, &[("sort", "verdict"), ("order", "desc"), ("per_page", "200")]).await.json();
        let vs: Vec<String> = by_verdict["workers"].as_array().unwrap().iter().map(|w| w["verdict"].as_str().unwrap().to_string()).collect();
        assert_eq!(vs, ["pass", "pass", "pass", "not enough evidence", "not enough evidence", "fail", "fail", "fail"], "{by_verdict}");
        let by_flags = review_page(&org, campaign, &[("sort", "flags"), ("order", "desc"), ("per_page", "200")]).await.json();
        let fl: Vec<usize> = by_flags["workers"].as_array().unwrap().iter().map(|w| w["flags"].as_array().unwrap().len()).collect();
        assert!(fl.windows(2).all(|w| w[0] >= w[1]), "{fl:?}");
        assert_eq!(by_flags["workers"].as_array().unwrap().len(), 8);

        // Search: a substring of the worker id in any case; the counts stay the campaign's.
        let good = review_page(&org, campaign, &[("search", "gOoD")]).await.json();
        assert_eq!(names(&good), ["link:GOOD-c3", "link:Good-A1", "link:good-b2"], "{good}");
        assert_eq!((good["total"].clone(), good["matching"].clone(), good["counts"].clone()), (json!(8), json!(3), counts.clone()));
        let none = review_page(&org, campaign, &[("search", "nobody")]).await.json();
        assert_eq!((none["matching"].clone(), none["workers"].clone(), none["query"]["page"].clone()), (json!(0), json!([]), json!(1)));

        // The verdict filter, alone and with the search.
        let fail = review_page(&org, campaign, &[("verdict", "fail")]).await.json();
        assert_eq!(names(&fail), ["link:Bad-X2", "link:bad-x1", "link:flat-1"], "{fail}");
        assert_eq!((fail["matching"].clone(), fail["counts"].clone()), (json!(3), counts.clone()));
        let unsure = review_page(&org, campaign, &[("verdict", "not-enough-evidence")]).await.json();
        assert_eq!(names(&unsure), ["link:part-1", "link:part-2"]);
        let excluded = review_page(&org, campaign, &[("verdict", "excluded"), ("per_page", "200")]).await.json();
        assert_eq!(excluded["matching"], json!(5));
        assert!(excluded["workers"].as_array().unwrap().iter().all(|w| w["excluded"] == true));
        let bad_fail = review_page(&org, campaign, &[("verdict", "fail"), ("search", "BAD"), ("sort", "worker"), ("order", "desc")]).await.json();
        assert_eq!(names(&bad_fail), ["link:bad-x1", "link:Bad-X2"], "{bad_fail}");

        // What is out of range or unknown is refused, naming the parameter.
        for (key, value) in [("page", "0"), ("per_page", "0"), ("per_page", "201"), ("sort", "speed"), ("order", "up"), ("verdict", "maybe")] {
            let r = review_page(&org, campaign, &[(key, value)]).await;
            assert_eq!(r.status, 400, "{key}={value}: {}", r.body);
            assert!(r.body.contains(key), "{key}={value}: {}", r.body);
        }

        // The JSON API takes the same parameters and answers the same rows.
        let api = |q: &str| {
            let (org, base) = (&org, server.base.clone());
            let url = format!("{base}/api/v1/campaigns/{campaign}/workers{q}");
            async move {
                let r = org.client.get(url).send().await.unwrap();
                (r.status().as_u16(), r.json::<Value>().await.unwrap_or(Value::Null))
            }
        };
        let (status, v) = api("?sort=p&order=desc&page=2&per_page=3").await;
        assert_eq!(status, 200);
        assert_eq!(names(&v), expect_p(true)[3..6].to_vec(), "{v}");
        assert_eq!((v["total"].clone(), v["matching"].clone(), v["counts"].clone()), (json!(8), json!(8), counts.clone()));
        let (_, v) = api("?search=BAD&verdict=fail").await;
        assert_eq!(names(&v), ["link:Bad-X2", "link:bad-x1"]);
        let (_, v) = api("").await;
        assert_eq!((v["query"]["per_page"].clone(), v["workers"].as_array().unwrap().len()), (json!(50), 8));
        assert_eq!(api("?per_page=500").await.0, 400);

        // The page renders the state of its URL on the server: the filtered rows and the counts.
        let page = org.get(&format!("/campaigns/{campaign}/workers?verdict=fail&search=bad")).await;
        assert_eq!(page.status, 200);
        assert_eq!(page.body.matches("data-worker=\"link:").count(), 2, "two rows: {}", page.body);
        assert!(page.body.contains("fail (3)") && page.body.contains("pass (3)") && page.body.contains("all (8)"), "the chips count the campaign");
        assert!(page.body.contains("Rows 1–2 of 2 matching (8 in all)."), "{}", page.body);
    }
}

/// The review rows stored for `campaign` (paired t): (format, the campaign's judgment count they
/// are of, when those were read), if any.
async fn stored_rows(db: &sqlx::AnyPool, campaign: i64) -> Option<(String, i64, i64)> {
    sqlx::query_as("SELECT format, campaign_count, read_at FROM review_snapshots WHERE campaign_id = $1 AND wilcoxon = 0")
        .bind(campaign)
        .fetch_optional(db)
        .await
        .expect("read review_snapshots")
}

/// The review rows stored for `campaign` once `done` holds for them (they are stored behind the
/// page's answer); panics after 60 s.
async fn stored_when(db: &sqlx::AnyPool, campaign: i64, done: impl Fn(&(String, i64, i64)) -> bool) -> (String, i64, i64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let now = stored_rows(db, campaign).await;
        if let Some(s) = now.filter(|s| done(s)) {
            return s;
        }
        assert!(std::time::Instant::now() < deadline, "the review rows were not stored as expected: {:?}", stored_rows(db, campaign).await);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The server's log written since `mark` bytes.
fn log_since(server: &TestServer, mark: usize) -> String {
    read_text(&server.log_path())[mark..].to_string()
}

both_backends! {
    /// Issue 16: the review page's rows are kept in the database, so that a server that has not
    /// computed them (a restart, another app server) starts from them instead of reading every
    /// judgment again. A restarted server answers from them; after new judgments it computes
    /// the workers who worked since the rows were read, and gives what reading every judgment
    /// gives. Rows of another build are not used; rows that cannot be read are read anew, with a
    /// warning.
    async fn the_review_rows_are_kept_in_the_database_and_caught_up_after_a_restart(server) {
        let mut server = server;
        let org = server.browser();
        org.login(ORGANIZER).await;
        let (set, systems) = import_set(&org, "stored-review-set", 40, &["Alpha", "Beta"]).await;
        let settings = json!({ "judgments_wanted": 70, "redundancy": 10, "target_language": "German" });
        let created = org.call_json("create_campaign", json!({ "draft": draft(set, &systems, settings, json!({ "mode": "off", "unsure": "give" })) })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign = created.json().as_i64().unwrap();
        let cid = campaign.to_string();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &cid)]).await.status, 200);
        simulate_on(&server, campaign, "careful=3,random=1", "5", &["--workers", "4"]);
        let judgments = || async { org.call("campaign_progress", &[("campaign_id", &cid)]).await.json()["judgments"].as_i64().unwrap() };
        let before = judgments().await;
        assert!(before > 0);

        let all = [("per_page", "200")];
        let first = review_page(&org, campaign, &all).await.json();
        assert_eq!(first["total"], 4, "{first}");
        sqlx::any::install_default_drivers();
        let db = sqlx::any::AnyPoolOptions::new().max_connections(1).connect(&server.database_url).await.expect("open the database");
        // The first computation is stored, with the count of the judgments it is of.
        let (build_format, _, _) = stored_when(&db, campaign, |s| s.1 == before).await;
        assert!(build_format.starts_with("1/"), "{build_format}");

        // A restarted server answers from the stored rows: the same rows, no judgment read.
        server.restart_logged(&[("ASSAY_LOG", "warn,app::results::decisions=debug")]).await;
        let mark = read_text(&server.log_path()).len();
        let again = review_page(&org, campaign, &all).await.json();
        assert_eq!(again["workers"], first["workers"]);
        assert_eq!(again["counts"], first["counts"]);
        let log = log_since(&server, mark);
        assert!(log.contains(&format!("review of campaign {campaign}: from the stored rows (4 rows")), "{log}");
        assert!(!log.contains("computed again") && !log.contains("rows stored"), "unchanged judgments: nothing computed or stored: {log}");

        // Two more workers; a server started after them catches up from the stored rows.
        simulate_on(&server, campaign, "careful=1,random=1", "6", &["--workers", "2"]);
        let after = judgments().await;
        assert!(after > before);
        server.restart().await;
        let mark = read_text(&server.log_path()).len();
        let caught_up = review_page(&org, campaign, &all).await.json();
        assert_eq!(caught_up["total"], 6, "{caught_up}");
        let log = log_since(&server, mark);
        // (Workers who worked within a minute of the rows' reading are computed again too: a
        // judgment may be committed a little after its time was taken.)
        assert!(log.contains("from the stored rows (4 rows") && log.contains(&format!("review of campaign {campaign}: 6 workers computed again")), "{log}");

        // What reading every judgment gives: the stored rows removed, a restart.
        sqlx::query("DELETE FROM review_snapshots").execute(&db).await.unwrap();
        server.restart().await;
        let read = review_page(&org, campaign, &all).await.json();
        assert_eq!(read["workers"], caught_up["workers"], "caught up = read anew");
        assert_eq!(read["counts"], caught_up["counts"]);
        stored_when(&db, campaign, |s| s.1 == after).await;

        // Rows of another build are not used; rows that cannot be decoded are read anew, with a
        // warning. Either way the page is what the judgments give.
        for (format, rows, says) in [("0/0.0.0", "[]", "are of build 0/0.0.0"), (build_format.as_str(), "not rows", "could not be decoded")] {
            sqlx::query("UPDATE review_snapshots SET format = $1, rows_json = $2, read_at = 0").bind(format).bind(rows).execute(&db).await.unwrap();
            server.restart().await;
            let mark = read_text(&server.log_path()).len();
            let v = review_page(&org, campaign, &all).await.json();
            assert_eq!(v["workers"], read["workers"], "{says}");
            let log = log_since(&server, mark);
            assert!(log.contains(says), "{log}");
            // Read anew, and stored again.
            stored_when(&db, campaign, |s| s.0 == build_format && s.1 == after && s.2 > 0).await;
        }
    }
}
