//! The security table: every route and every server function against every role, with the
//! answer each must get, checked against the real server on both databases. Also: a worker
//! cannot touch another's assignment, completion codes cannot be forged or moved, cross-origin
//! POSTs are refused everywhere, sessions are not fixed, and no secret reaches the log or the
//! analysis output. Login throttling is tested in `accounts.rs`
//! (`repeated_failures_throttle_the_account`).

use assay_tests::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Who asks. The crowd worker has no account: only the public id of a crowd assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Anonymous,
    Crowd,
    Annotator,
    Researcher,
    Organizer,
    Admin,
}
use Who::*;
const EVERYONE: [Who; 6] = [Anonymous, Crowd, Annotator, Researcher, Organizer, Admin];

/// The expected answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum E {
    /// Exactly this status.
    S(u16),
    /// Past the role check: the outcome depends on the arguments (not 401, not 403, not 5xx).
    Pass,
}
use E::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// `POST /api/NAME`, form-encoded.
    Form,
    /// `POST /api/NAME`, JSON body (`input = Json`).
    Json,
    /// `GET /api/NAME?…` (`input = GetUrl`).
    Get,
}

/// One row: an endpoint and the answers of [Anonymous, Crowd, Annotator, Researcher, Organizer, Admin];
/// `teams`: the answers of [Researcher, Organizer] of ANOTHER team than the demo's work the
/// arguments name (issue 17, finding 12). Another team's campaign, test set, study or HIT is
/// refused exactly as a missing one (the same status and message), so its existence is not
/// revealed; listings answer 200 with the caller's teams' work only (`listings_show_only_the_teams_work`).
struct Row {
    endpoint: &'static str,
    how: How,
    expect: [E; 6],
    teams: [E; 2],
}

const NO_ACCOUNT: [E; 2] = [S(401), S(401)];

/// Every server function. `logout` is last because it ends the session.
#[rustfmt::skip]
const TABLE: &[Row] = &[
    // accounts/api.rs
    Row { endpoint: "current_user", how: How::Form, expect: [S(200); 6], teams: [S(200), S(200)] },
    // A wrong password for an unknown account: the same refusal for everyone.
    Row { endpoint: "login", how: How::Form, expect: [S(401); 6], teams: [S(401), S(401)] },
    Row { endpoint: "list_users", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(200)], teams: [S(403), S(403)] },
    Row { endpoint: "set_user_role", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), Pass], teams: [S(403), S(403)] },
    // Removing access (an unknown account is then a 400).
    Row { endpoint: "set_user_disabled", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(400)], teams: [S(403), S(403)] },
    Row { endpoint: "sign_out_everywhere", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(400)], teams: [S(403), S(403)] },
    Row { endpoint: "clear_failed_sign_ins", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(400)], teams: [S(403), S(403)] },
    Row { endpoint: "invite_user", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(200)], teams: [S(403), S(403)] },
    // Public: whoever holds an invitation token (here a forged one) learns its email.
    Row { endpoint: "invitation", how: How::Form, expect: [S(400); 6], teams: [S(400), S(400)] },
    Row { endpoint: "accept_invitation", how: How::Form, expect: [S(400); 6], teams: [S(400), S(400)] },
    // campaign/api.rs
    Row { endpoint: "list_test_sets", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(200)] },
    Row { endpoint: "check_design", how: How::Json, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), Pass] },
    Row { endpoint: "create_campaign", how: How::Json, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    Row { endpoint: "dry_run_design", how: How::Json, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    Row { endpoint: "launch_campaign", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    Row { endpoint: "list_campaigns", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(200)] },
    Row { endpoint: "campaign_progress", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(400)] },
    Row { endpoint: "my_queue", how: How::Form, expect: [NO_ACCOUNT[0], NO_ACCOUNT[1], S(200), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "start_campaign_hit", how: How::Form, expect: [S(401), S(401), Pass, Pass, Pass, Pass], teams: [Pass, Pass] },
    Row { endpoint: "hit_items", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(404)] },
    Row { endpoint: "campaign_active_time", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(400)] },
    Row { endpoint: "set_worker_blocked", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), Pass] },
    // annotate/api.rs. The assignment argument is the demo annotator's DA HIT, except for the
    // crowd worker, who passes the crowd HIT's id (all they have).
    Row { endpoint: "load_work", how: How::Form, expect: [S(401), S(200), S(200), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "start_work", how: How::Form, expect: [S(401), S(200), S(200), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "submit_judgment", how: How::Form, expect: [S(401), S(200), S(200), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    // Whoever may work on the assignment; the demo's campaigns have no practice (a refusal that
    // depends on the arguments, never the role's).
    Row { endpoint: "practice_answer", how: How::Form, expect: [S(401), Pass, Pass, S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "practice_spans", how: How::Json, expect: [S(401), Pass, Pass, S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "practice_ranks", how: How::Json, expect: [S(401), Pass, Pass, S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "submit_screen", how: How::Json, expect: [S(401), S(400), S(400), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    // A DA item takes no error spans: its owner's request is refused as invalid (400).
    Row { endpoint: "submit_spans", how: How::Json, expect: [S(401), S(400), S(400), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "submit_post_edit", how: How::Json, expect: [S(401), S(400), S(400), S(403), S(403), S(403)], teams: [S(403), S(403)] },
    Row { endpoint: "my_assignments", how: How::Form, expect: [S(401), S(401), S(200), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "annotator_home_words", how: How::Form, expect: [S(401), S(401), S(200), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "verify_completion_code", how: How::Get, expect: [S(200); 6], teams: [S(200), S(200)] },
    Row { endpoint: "list_assignments", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(200)] },
    Row { endpoint: "assignment_judgments", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(404)] },
    Row { endpoint: "assignment_items", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(404)] },
    // results/api.rs. Results are for researchers and up (the outcome depends on whether the
    // campaign has judgments yet); the worker review is for organizers.
    Row { endpoint: "results_campaigns", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "campaign_results", how: How::Form, expect: [S(401), S(401), S(403), Pass, Pass, Pass], teams: [S(400), S(400)] },
    // An adaptive campaign's decisions: read by those who read its results.
    Row { endpoint: "campaign_adaptive", how: How::Form, expect: [S(401), S(401), S(403), Pass, Pass, Pass], teams: [S(400), S(400)] },
    Row { endpoint: "campaign_metrics", how: How::Form, expect: [S(401), S(401), S(403), Pass, Pass, Pass], teams: [S(400), S(400)] },
    // Deleting an uploaded metric: researchers and up (an unknown metric is then a 400).
    Row { endpoint: "delete_campaign_metric", how: How::Form, expect: [S(401), S(401), S(403), S(400), S(400), S(400)], teams: [S(400), S(400)] },
    Row { endpoint: "campaign_workers", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    // study/api.rs. Designing and launching studies is for organizers; reading them for
    // researchers and up (a missing study is then a 400).
    Row { endpoint: "check_study", how: How::Json, expect: [S(401), S(401), S(403), S(403), S(200), S(200)], teams: [S(403), S(200)] },
    Row { endpoint: "create_study", how: How::Json, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    Row { endpoint: "launch_study", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    Row { endpoint: "list_studies", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "study_results", how: How::Form, expect: [S(401), S(401), S(403), Pass, Pass, Pass], teams: [S(400), S(400)] },
    Row { endpoint: "study_history", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    // Decisions about workers (approve, reject, block, bonus): organizers.
    Row { endpoint: "decide_worker", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    // Bulk decisions (the confirmed number is never the one to decide: nothing changes).
    Row { endpoint: "bulk_decide_workers", how: How::Form, expect: [S(401), S(401), S(403), S(403), Pass, Pass], teams: [S(403), S(400)] },
    // Editing a draft (the demo campaign is launched: refused as such, 400).
    Row { endpoint: "campaign_draft", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(400), S(400)], teams: [S(403), S(400)] },
    Row { endpoint: "update_campaign", how: How::Json, expect: [S(401), S(401), S(403), S(403), S(400), S(400)], teams: [S(403), S(400)] },
    // accounts/api.rs: personal API tokens (researchers and up; revoking a token that is not yours is a 400).
    Row { endpoint: "list_api_tokens", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "create_api_token", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "revoke_api_token", how: How::Form, expect: [S(401), S(401), S(403), Pass, Pass, Pass], teams: [Pass, Pass] },
    // Teams (accounts/api.rs): admins manage them; `my_teams` (campaign/api.rs) lists where
    // the caller may put new work. An unknown team or account is a 400.
    Row { endpoint: "list_teams", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(200)], teams: [S(403), S(403)] },
    Row { endpoint: "create_team", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(200)], teams: [S(403), S(403)] },
    Row { endpoint: "rename_team", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(400)], teams: [S(403), S(403)] },
    Row { endpoint: "set_team_member", how: How::Form, expect: [S(401), S(401), S(403), S(403), S(403), S(400)], teams: [S(403), S(403)] },
    Row { endpoint: "my_teams", how: How::Form, expect: [S(401), S(401), S(403), S(200), S(200), S(200)], teams: [S(200), S(200)] },
    Row { endpoint: "logout", how: How::Form, expect: [S(200); 6], teams: [S(200), S(200)] },
];

/// What the demo gives the table's calls to work on.
struct Demo {
    campaign_id: i64,
    test_set_id: i64,
    crowd_link: String,
    annotator_da: String,
    crowd: String,
}

async fn demo(server: &TestServer) -> Demo {
    let org = server.browser();
    org.login(ORGANIZER).await;
    let campaigns = org.call("list_campaigns", &[]).await.json();
    let campaign_id = campaigns.as_array().unwrap().iter().find(|c| c["name"] == "Demo: DA adequacy (de-en)").expect("demo campaign")["id"]
        .as_i64()
        .unwrap();
    let progress = org.call("campaign_progress", &[("campaign_id", &campaign_id.to_string())]).await.json();
    let crowd_link = progress["crowd_link"].as_str().expect("crowd link").to_string();
    let list = org.call("list_assignments", &[]).await.json();
    let crowd = list.as_array().unwrap().iter().find(|a| a["platform"] == "prolific").expect("crowd assignment")["assignment"]
        .as_str()
        .unwrap()
        .to_string();
    let ann = server.browser();
    ann.login(ANNOTATOR).await;
    let mine = ann.call("my_assignments", &[]).await.json();
    let annotator_da = mine.as_array().unwrap().iter().find(|a| a["task"] == "da-adequacy").expect("DA HIT")["assignment"]
        .as_str()
        .unwrap()
        .to_string();
    let sets = org.call("list_test_sets", &[]).await.json();
    let test_set_id = sets[0]["id"].as_i64().expect("a demo test set");
    Demo { campaign_id, test_set_id, crowd_link, annotator_da, crowd }
}

/// A browser for the role, signed in when it has an account.
async fn browser_for(server: &TestServer, who: Who) -> Browser {
    let b = server.browser();
    match who {
        Anonymous | Crowd => {}
        Annotator => drop(b.login(ANNOTATOR).await),
        Researcher => drop(b.login(RESEARCHER).await),
        Organizer => drop(b.login(ORGANIZER).await),
        Admin => drop(b.login(ADMIN).await),
    }
    b
}

/// Plausible arguments, as the page would send them.
fn form_args(endpoint: &str, who: Who, d: &Demo, n: usize) -> Vec<(String, String)> {
    let assignment = if who == Crowd { d.crowd.clone() } else { d.annotator_da.clone() };
    let campaign = d.campaign_id.to_string();
    let v: Vec<(&str, String)> = match endpoint {
        "login" => vec![("email", format!("nobody{n}@demo.assay")), ("password", "not a password".into())],
        "set_user_role" => vec![("user_id", "999999".into()), ("role", "annotator".into())],
        "set_user_disabled" => vec![("user_id", "999999".into()), ("disabled", "true".into())],
        "sign_out_everywhere" | "clear_failed_sign_ins" => vec![("user_id", "999999".into())],
        "invite_user" => vec![("email", format!("invitee{n}@example.org")), ("role", "annotator".into())],
        "invitation" => vec![("token", "forged-token".into())],
        "accept_invitation" => vec![("token", "forged-token".into()), ("name", "Eve".into()), ("password", "a long enough password".into())],
        "launch_campaign" | "campaign_progress" | "start_campaign_hit" | "campaign_active_time" | "campaign_metrics" | "campaign_adaptive" => vec![("campaign_id", campaign)],
        "delete_campaign_metric" => vec![("campaign_id", campaign), ("metric_id", "999999".into())],
        "hit_items" => vec![("campaign_id", campaign), ("hit_index", "0".into())],
        "campaign_results" => vec![
            ("campaign_id", campaign),
            ("exclude_ref", "false".into()),
            ("exclude_bad_ref", "false".into()),
            ("per_segment", "false".into()),
            ("wilcoxon", "false".into()),
        ],
        "campaign_workers" => vec![("campaign_id", campaign), ("wilcoxon", "false".into())],
        "decide_worker" => vec![
            ("campaign_id", campaign),
            ("worker", "link:nobody-at-all".into()),
            ("decision", "approve".into()),
            ("reason", String::new()),
            ("amount", String::new()),
        ],
        "bulk_decide_workers" => vec![
            ("campaign_id", campaign),
            ("wilcoxon", "false".into()),
            ("action", "approve-passed".into()),
            ("reason", String::new()),
            ("expected", "999999".into()),
        ],
        "campaign_draft" => vec![("campaign_id", campaign)],
        "set_worker_blocked" => vec![("platform", "link".into()), ("external_id", "nobody-at-all".into()), ("blocked", "false".into())],
        "load_work" | "start_work" | "assignment_judgments" | "assignment_items" => vec![("assignment", assignment)],
        "practice_answer" => vec![("assignment", assignment), ("position", "0".into()), ("score", "50".into())],
        "submit_judgment" => vec![
            ("assignment", assignment),
            ("position", "0".into()),
            ("score", "50".into()),
            ("time_on_screen_ms", "1500".into()),
            ("key", format!("table-{n}")),
        ],
        "verify_completion_code" => vec![("code", "ABCDE-FGHJK-LMNPQ-RSTUV".into())],
        "launch_study" | "study_results" => vec![("study_id", "999999".into())],
        "create_api_token" => vec![("name", format!("table token {n}"))],
        "create_team" => vec![("name", format!("table team {n}"))],
        "rename_team" => vec![("team_id", "999999".into()), ("name", format!("renamed {n}"))],
        "set_team_member" => vec![("team_id", "999999".into()), ("user_id", "999999".into()), ("member", "true".into())],
        "revoke_api_token" => vec![("token_id", "999999".into())],
        _ => vec![],
    };
    v.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// A design the server will judge (refuse: there is no such test set) only after the role check.
fn json_args(endpoint: &str, who: Who, d: &Demo) -> Value {
    json_args_on(endpoint, who, d, 999999)
}

/// [`json_args`] naming the test set `test_set` (the demo's, for the callers of another team).
fn json_args_on(endpoint: &str, who: Who, d: &Demo, test_set: i64) -> Value {
    let assignment = if who == Crowd { d.crowd.clone() } else { d.annotator_da.clone() };
    let draft = json!({
        "name": "table campaign", "task": "da-adequacy", "test_set_id": test_set, "systems": [1, 2], "benchmark_systems": [1],
        "seed": 7, "settings": { "judgments_wanted": 70, "redundancy": 1, "target_language": "German", "payment_per_hit": 3.0 }
    });
    let study = json!({
        "name": "table study", "tasks": ["da-adequacy"], "seed": 7,
        "pairs": [{ "old_test_set_id": test_set, "best_old": 1, "new_test_set_id": 999997, "best_new": 2, "benchmark": 3 }],
    });
    match endpoint {
        "check_design" | "create_campaign" => json!({ "draft": draft }),
        "update_campaign" => json!({ "campaign_id": d.campaign_id, "draft": draft }),
        "dry_run_design" => json!({ "draft": draft, "crowd": { "careful": 70.0, "noisy": 15.0, "careless": 15.0, "workers": 0, "spread": 10.0, "alpha": 0.05 } }),
        "check_study" | "create_study" => json!({ "draft": study }),
        // A DA HIT shows one item per screen: its owner's request is refused as invalid (400).
        "submit_screen" => json!({ "assignment": assignment, "ranks": [{ "position": 0, "rank": 1 }], "time_on_screen_ms": 1500, "key": "table" }),
        "practice_spans" => json!({ "assignment": assignment, "position": 0, "score": 50.0, "spans": [] }),
        "practice_ranks" => json!({ "assignment": assignment, "position": 0, "ranks": [1, 2] }),
        "submit_spans" => json!({
            "assignment": assignment, "position": 0, "score": 50.0, "spans": [{ "start": 0, "end": 1, "severity": "minor" }],
            "time_on_screen_ms": 1500, "key": "table"
        }),
        // A DA HIT takes no post-edit: its owner's request is refused as invalid (400).
        "submit_post_edit" => json!({
            "assignment": assignment, "position": 0, "post_edit": { "text": "An edited text." }, "time_on_screen_ms": 1500, "key": "table"
        }),
        other => panic!("no JSON arguments for {other}"),
    }
}

async fn call(b: &Browser, row: &Row, who: Who, d: &Demo, n: usize) -> Answer {
    call_on(b, row, who, d, n, 999999).await
}

/// [`call`] with JSON designs naming the test set `test_set`.
async fn call_on(b: &Browser, row: &Row, who: Who, d: &Demo, n: usize, test_set: i64) -> Answer {
    let url = format!("{}/api/{}", b.base, row.endpoint);
    let req = match row.how {
        How::Form => b.client.post(&url).form(&form_args(row.endpoint, who, d, n)),
        How::Get => b.client.get(&url).query(&form_args(row.endpoint, who, d, n)),
        How::Json => b.client.post(&url).header("content-type", "application/json").body(json_args_on(row.endpoint, who, d, test_set).to_string()),
    };
    let r = req.send().await.expect("request");
    let status = r.status().as_u16();
    Answer { status, body: r.text().await.unwrap_or_default(), set_cookies: vec![] }
}

fn meets(e: E, status: u16) -> bool {
    match e {
        S(s) => s == status,
        Pass => status != 401 && status != 403 && status < 500,
    }
}

/// Every `endpoint = "…"` under app/src.
fn endpoints_in_source() -> BTreeSet<String> {
    server_function_endpoints().into_iter().map(|(name, _)| name).collect()
}

/// A new server function must get a row (and so a decision about who may call it).
#[test]
fn every_server_function_has_a_row_in_the_security_table() {
    let source = endpoints_in_source();
    let table: BTreeSet<String> = TABLE.iter().map(|r| r.endpoint.to_string()).collect();
    assert_eq!(table.len(), TABLE.len(), "an endpoint has two rows");
    let missing: Vec<_> = source.difference(&table).collect();
    assert!(missing.is_empty(), "server functions without a row in the security table: {missing:?}");
    let stale: Vec<_> = table.difference(&source).collect();
    assert!(stale.is_empty(), "rows for server functions that do not exist: {stale:?}");
    // The GET-encoded ones are called with GET, the JSON ones with JSON.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../app/src");
    for file in ["annotate/api.rs", "campaign/api.rs", "accounts/api.rs"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for line in text.lines().filter(|l| l.contains("endpoint = \"")) {
            let name = line.split("endpoint = \"").nth(1).unwrap().split('"').next().unwrap();
            let row = TABLE.iter().find(|r| r.endpoint == name).unwrap();
            let how = if line.contains("GetUrl") { How::Get } else if line.contains("Json") { How::Json } else { How::Form };
            assert_eq!(row.how, how, "{name}: {line}");
        }
    }
}

/// What a page (streamed HTML, so often 200) must show for a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum P {
    /// 200 without a refusal.
    Shown,
    /// 401 with "Please sign in."
    SignIn,
    /// 403 with "This needs the … role."
    NeedsRole,
    /// 403 with "assigned to someone else".
    NotYours,
}

/// `streamed`: the refusal comes from a resource streamed out of order (the `/work/` page), so
/// the status is 401/403 only when the resource resolved before the headers were sent, else 200
/// (the refusal text is always there).
fn page_meets(p: P, a: &Answer, streamed: bool) -> bool {
    let sign_in = a.body.contains("Please sign in.") || a.body.contains("Please sign in to work on this HIT.");
    let needs = a.body.contains("This needs the ");
    let not_yours = a.body.contains("assigned to someone else");
    match p {
        P::Shown => a.status == 200 && !sign_in && !needs && !not_yours,
        P::SignIn => (a.status == 401 || (streamed && a.status == 200)) && sign_in,
        P::NeedsRole => (a.status == 403 || (streamed && a.status == 200)) && needs && !sign_in,
        P::NotYours => (a.status == 403 || (streamed && a.status == 200)) && not_yours,
    }
}

both_backends! {
    async fn every_server_function_answers_each_role_as_the_table_says(server) {
        let d = demo(&server).await;
        let mut failures = Vec::new();
        let mut n = 0;
        for who in EVERYONE {
            let b = browser_for(&server, who).await;
            for (i, row) in TABLE.iter().enumerate() {
                n += 1;
                let a = call(&b, row, who, &d, n).await;
                if !meets(row.expect[who as usize], a.status) {
                    failures.push(format!("{} as {who:?}: expected {:?}, got {} {}", row.endpoint, row.expect[who as usize], a.status, a.body.chars().take(200).collect::<String>()));
                }
                // Signed-in roles stay signed in until `logout`.
                if i + 1 < TABLE.len() && !matches!(who, Anonymous | Crowd) {
                    assert_ne!(b.call("current_user", &[]).await.json(), Value::Null, "{who:?} lost the session after {}", row.endpoint);
                }
            }
        }
        assert!(failures.is_empty(), "{} answers differ from the table:\n{}", failures.len(), failures.join("\n"));
    }

    async fn every_page_and_route_answers_each_role_as_the_table_says(server) {
        let d = demo(&server).await;
        let campaign = format!("/campaigns/{}", d.campaign_id);
        let mut failures = Vec::new();
        for who in EVERYONE {
            let b = browser_for(&server, who).await;
            let role_page = |min: Who| match who {
                Anonymous | Crowd => P::SignIn,
                w if (w as usize) >= (min as usize) => P::Shown,
                _ => P::NeedsRole,
            };
            let work_id = if who == Crowd { d.crowd.clone() } else { d.annotator_da.clone() };
            let work = match who {
                Anonymous => P::SignIn,
                Crowd | Annotator => P::Shown,
                _ => P::NotYours,
            };
            let pages: Vec<(String, P)> = vec![
                ("/".into(), P::Shown),
                ("/login".into(), P::Shown),
                ("/admin/users".into(), role_page(Admin)),
                ("/import".into(), role_page(Organizer)),
                ("/campaigns".into(), role_page(Organizer)),
                ("/campaigns/new".into(), role_page(Organizer)),
                (campaign.clone(), role_page(Organizer)),
                ("/studies".into(), role_page(Researcher)),
                ("/studies/new".into(), role_page(Organizer)),
                ("/history".into(), role_page(Researcher)),
                ("/account/tokens".into(), role_page(Researcher)),
                (format!("/work/{work_id}"), work),
            ];
            for (path, p) in pages {
                let a = b.get(&path).await;
                if !page_meets(p, &a, path.starts_with("/work/")) {
                    failures.push(format!("GET {path} as {who:?}: expected {p:?}, got {} (sign in: {}, needs role: {}, not yours: {}) {}", a.status, a.body.contains("Please sign in."), a.body.contains("This needs the "), a.body.contains("assigned to someone else"), if a.status == 200 { a.body.chars().rev().take(1500).collect::<String>().chars().rev().collect::<String>() } else { String::new() }));
                }
            }
            // Plain routes.
            let health = b.get("/health").await;
            if health.status != 200 || health.body != "ok" {
                failures.push(format!("/health as {who:?}: {}", health.status));
            }
            // A crowd link: the signed one works for anyone (redirect to a fresh assignment), a
            // changed signature for no one.
            let signed = d.crowd_link.replace(&server.base, "");
            let good = b.get(&format!("{signed}&worker=w-{}", who as usize)).await;
            if !(good.status == 303 || good.status == 302 || good.status == 307) {
                failures.push(format!("signed crowd link as {who:?}: {}", good.status));
            }
            let forged = signed.replacen("sig=", "sig=00", 1);
            let bad = b.get(&format!("{forged}&worker=w-x")).await;
            if bad.status != 403 {
                failures.push(format!("forged crowd link as {who:?}: {}", bad.status));
            }
            // The upload route: organizers only (an empty upload is then refused as a bad file).
            let up = b.client.post(format!("{}/upload/import", server.base)).header("x-assay-file-name", "empty.tsv").body("").send().await.unwrap();
            let want = match who {
                Anonymous | Crowd => S(401),
                Organizer | Admin => Pass,
                _ => S(403),
            };
            if !meets(want, up.status().as_u16()) {
                failures.push(format!("POST /upload/import as {who:?}: expected {want:?}, got {}", up.status()));
            }
            // A study's export: researchers and up (an unknown study is then refused as such).
            let export = b.get("/studies/999999/export").await;
            let want = match who {
                Anonymous | Crowd => S(401),
                Annotator => S(403),
                _ => S(400),
            };
            if !meets(want, export.status) {
                failures.push(format!("GET /studies/999999/export as {who:?}: expected {want:?}, got {}", export.status));
            }
            // The decisions export: organizers only.
            let csv = b.get(&format!("{campaign}/decisions.csv")).await;
            let want = match who {
                Anonymous | Crowd => S(401),
                Organizer | Admin => S(200),
                _ => S(403),
            };
            if !meets(want, csv.status) || (csv.status == 200 && !csv.body.starts_with("worker,platform,")) {
                failures.push(format!("GET {campaign}/decisions.csv as {who:?}: expected {want:?}, got {}", csv.status));
            }
            // The Mechanical Turk batch-results file: organizers only.
            let batch = b.get(&format!("{campaign}/mturk-batch.csv")).await;
            if !meets(want, batch.status) || (batch.status == 200 && !batch.body.starts_with("HITId,AssignmentId,WorkerId,Approve,Reject")) {
                failures.push(format!("GET {campaign}/mturk-batch.csv as {who:?}: expected {want:?}, got {}", batch.status));
            }
            // The read-only API and the export routes (session cookie).
            for (path, min) in api_routes(d.campaign_id) {
                let a = b.get(&path).await;
                let want = route_expectation(who, min);
                if !meets(want, a.status) {
                    failures.push(format!("GET {path} as {who:?}: expected {want:?}, got {} {}", a.status, a.body.chars().take(200).collect::<String>()));
                }
                // Read-only whoever asks: any other method is refused; except the upload of
                // metric scores, researchers and up (an upload without a file is then a 400).
                let post = b.client.post(format!("{}{path}", server.base)).send().await.unwrap();
                let want = if is_metric_upload(&path) { route_expectation(who, Researcher) } else { S(403) };
                if !meets(want, post.status().as_u16()) {
                    failures.push(format!("POST {path} as {who:?}: expected {want:?}, got {}", post.status()));
                }
            }
            let openapi = b.get("/api/v1/openapi.json").await;
            if openapi.status != 200 || !openapi.body.contains("\"openapi\"") {
                failures.push(format!("/api/v1/openapi.json as {who:?}: {}", openapi.status));
            }
            // Static files are the same for everyone and never an error.
            let css = b.get("/assay.css").await;
            if css.status >= 500 || (css.status != 200 && css.status != 404) {
                failures.push(format!("/assay.css as {who:?}: {}", css.status));
            }
        }
        assert!(failures.is_empty(), "{} answers differ from the table:\n{}", failures.len(), failures.join("\n"));
    }

    async fn cross_origin_posts_are_refused_on_every_endpoint(server) {
        let d = demo(&server).await;
        let admin = browser_for(&server, Admin).await;
        let crowd = browser_for(&server, Crowd).await;
        for (n, row) in TABLE.iter().enumerate() {
            if row.how == How::Get {
                continue;
            }
            for (who, b) in [(Admin, &admin), (Crowd, &crowd)] {
                let url = format!("{}/api/{}", server.base, row.endpoint);
                let req = match row.how {
                    How::Json => b.client.post(&url).header("content-type", "application/json").body(json_args(row.endpoint, who, &d).to_string()),
                    _ => b.client.post(&url).form(&form_args(row.endpoint, who, &d, 1000 + n)),
                };
                // reqwest's default Origin header is replaced by the attacker's.
                let r = req.header("origin", "http://evil.example").send().await.unwrap();
                assert_eq!(r.status().as_u16(), 403, "{} as {who:?} from another origin", row.endpoint);
                let r = b.client.post(&url).header("origin", "null").form(&form_args(row.endpoint, who, &d, 2000 + n)).send().await.unwrap();
                assert_eq!(r.status().as_u16(), 403, "{} as {who:?} with Origin: null", row.endpoint);
            }
        }
        let up = admin.client.post(format!("{}/upload/import", server.base)).header("origin", "http://evil.example").header("x-assay-file-name", "x.tsv").body("a\tb\n").send().await.unwrap();
        assert_eq!(up.status().as_u16(), 403);
        // Nothing changed: the crowd HIT has no judgment, the admin is still signed in.
        let org = browser_for(&server, Organizer).await;
        assert_eq!(org.call("assignment_judgments", &[("assignment", &d.crowd)]).await.json(), json!([]));
        assert_ne!(admin.call("current_user", &[]).await.json(), Value::Null);
    }

    async fn a_worker_cannot_read_or_change_another_workers_assignment(server) {
        let d = demo(&server).await;
        // Two crowd workers through the signed link get different assignments.
        let link = d.crowd_link.replace(&server.base, "");
        let w1 = server.browser();
        let w2 = server.browser();
        let loc = |a: &reqwest::Response| a.headers()["location"].to_str().unwrap().to_string();
        let r1 = w1.client.get(format!("{}{link}&worker=alice", server.base)).send().await.unwrap();
        let r2 = w2.client.get(format!("{}{link}&worker=bob", server.base)).send().await.unwrap();
        let (a1, a2) = (loc(&r1), loc(&r2));
        assert!(a1.starts_with("/work/") && a2.starts_with("/work/"), "{a1} {a2}");
        assert_ne!(a1, a2);
        // The annotator's account assignment: no other account may read, start or answer it.
        let annotator = browser_for(&server, Annotator).await;
        assert_eq!(annotator.call("start_work", &[("assignment", &d.annotator_da)]).await.status, 200);
        for who in [Researcher, Organizer, Admin] {
            let b = browser_for(&server, who).await;
            assert_eq!(b.call("load_work", &[("assignment", &d.annotator_da)]).await.status, 403, "{who:?}");
            let s = b.call("submit_judgment", &[("assignment", &d.annotator_da), ("position", "0"), ("score", "1"), ("time_on_screen_ms", "900"), ("key", "evil")]).await;
            assert_eq!(s.status, 403, "{who:?}");
        }
        // A crowd worker with someone else's id for an account HIT: refused.
        let s = w1.call("submit_judgment", &[("assignment", &d.annotator_da), ("position", "0"), ("score", "1"), ("time_on_screen_ms", "900"), ("key", "evil")]).await;
        assert_eq!(s.status, 401);
        let org = browser_for(&server, Organizer).await;
        assert_eq!(org.call("assignment_judgments", &[("assignment", &d.annotator_da)]).await.json(), json!([]));
        // A made-up assignment id is not found, whoever asks.
        assert_eq!(w1.call("load_work", &[("assignment", "AAAAAAAAAAAAAAAAAAAAAA")]).await.status, 404);
    }

    async fn completion_codes_cannot_be_forged_or_moved_to_another_assignment(server) {
        let d = demo(&server).await;
        let worker = server.browser();
        assert_eq!(worker.call("start_work", &[("assignment", &d.crowd)]).await.status, 200);
        let mut last = Value::Null;
        for p in 0..100 {
            let r = worker.call("submit_judgment", &[("assignment", &d.crowd), ("position", &p.to_string()), ("score", "50"), ("time_on_screen_ms", "1500"), ("key", &format!("k{p}"))]).await;
            assert_eq!(r.status, 200, "{}", r.body);
            last = r.json();
        }
        let code = last["completion"]["code"].as_str().expect("a completion code").to_string();
        let org = browser_for(&server, Organizer).await;
        let check = |b: &Browser, code: &str| {
            let url = format!("{}/api/verify_completion_code", server.base);
            let req = b.client.get(url).query(&[("code", code)]);
            async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        let v = check(&org, &code).await;
        assert_eq!(v["valid"], true);
        assert_eq!(v["assignment"], d.crowd.as_str(), "the code names its own assignment, no other");
        // Every single-symbol change is invalid (the code is signed, not guessable).
        let alphabet: Vec<char> = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".chars().collect();
        let chars: Vec<char> = code.chars().collect();
        let mut tried = 0;
        for i in (0..chars.len()).filter(|&i| chars[i] != '-').step_by(3) {
            let mut f = chars.clone();
            f[i] = *alphabet.iter().find(|&&c| c != chars[i]).unwrap();
            let forged: String = f.into_iter().collect();
            assert_eq!(check(&org, &forged).await["valid"], false, "{forged}");
            tried += 1;
        }
        assert!(tried >= 5);
        // The annotator's unfinished HIT has no code to reuse: its state carries none, and the
        // crowd code still names the crowd assignment only.
        let annotator = browser_for(&server, Annotator).await;
        let st = annotator.call("load_work", &[("assignment", &d.annotator_da)]).await.json();
        assert_eq!(st["step"]["completion"], Value::Null);
        let v = check(&org, &code).await;
        assert_ne!(v["assignment"], d.annotator_da.as_str());
    }

    /// Issue 17, finding 7: a completion code is tied to the worker who earned it. Asked with
    /// the platform's ids (Mechanical Turk workerId/assignmentId, Prolific PROLIFIC_PID/
    /// SESSION_ID), the check answers valid only when they are those of the code's assignment:
    /// a code passed on to another worker, or to another session, is invalid.
    async fn completion_codes_are_valid_only_for_their_worker(server) {
        let d = demo(&server).await;
        let link = d.crowd_link.replace(&server.base, "");
        let mut codes = Vec::new();
        for query in ["workerId=W-1&assignmentId=A-1&hitId=H", "PROLIFIC_PID=P-1&STUDY_ID=S&SESSION_ID=S-1"] {
            let w = server.browser();
            let r = w.client.get(format!("{}{link}&{query}", server.base)).send().await.unwrap();
            let id = r.headers()["location"].to_str().unwrap().trim_start_matches("/work/").to_string();
            assert_eq!(w.call("start_work", &[("assignment", &id)]).await.status, 200);
            let mut last = Value::Null;
            for p in 0..100 {
                let r = w.call("submit_judgment", &[("assignment", &id), ("position", &p.to_string()), ("score", "60"), ("time_on_screen_ms", "1500"), ("key", &format!("w{p}"))]).await;
                assert_eq!(r.status, 200, "{}", r.body);
                last = r.json();
                if !last["completion"].is_null() {
                    break;
                }
            }
            codes.push(last["completion"]["code"].as_str().expect("a completion code").to_string());
        }
        let anyone = server.browser();
        let valid = |params: Vec<(&'static str, String)>| {
            let req = anyone.client.get(format!("{}/api/verify_completion_code", server.base)).query(&params);
            async move {
                let r = req.send().await.unwrap();
                assert_eq!(r.status().as_u16(), 200);
                r.json::<Value>().await.unwrap()["valid"].as_bool().unwrap()
            }
        };
        let (mturk, prolific) = (codes[0].clone(), codes[1].clone());
        let with = |code: &str, pairs: &[(&'static str, &str)]| {
            let mut v = vec![("code", code.to_string())];
            v.extend(pairs.iter().map(|(k, x)| (*k, x.to_string())));
            v
        };
        // The worker's own ids: valid.
        assert!(valid(with(&mturk, &[("workerId", "W-1"), ("assignmentId", "A-1")])).await);
        assert!(valid(with(&prolific, &[("PROLIFIC_PID", "P-1"), ("SESSION_ID", "S-1")])).await);
        // Issue 38: the ids are required. The code alone, or a worker id without the session the
        // code was earned in, is not valid (a code passed on would otherwise pass).
        assert!(!valid(with(&mturk, &[])).await);
        assert!(!valid(with(&prolific, &[])).await);
        assert!(!valid(with(&mturk, &[("workerId", "W-1")])).await);
        assert!(!valid(with(&prolific, &[("PROLIFIC_PID", "P-1")])).await);
        assert!(!valid(with(&mturk, &[("assignmentId", "A-1")])).await);
        // Another worker, another session, another platform: invalid.
        for (code, pairs) in [
            (&mturk, vec![("workerId", "W-2"), ("assignmentId", "A-1")]),
            (&mturk, vec![("workerId", "W-1"), ("assignmentId", "A-2")]),
            (&mturk, vec![("assignmentId", "A-2")]),
            (&mturk, vec![("workerId", "w-1")]),
            (&mturk, vec![("PROLIFIC_PID", "W-1"), ("SESSION_ID", "A-1")]),
            (&prolific, vec![("PROLIFIC_PID", "P-2"), ("SESSION_ID", "S-1")]),
            (&prolific, vec![("PROLIFIC_PID", "P-1"), ("SESSION_ID", "S-2")]),
            (&prolific, vec![("workerId", "P-1"), ("assignmentId", "S-1")]),
        ] {
            assert!(!valid(with(code, &pairs)).await, "{pairs:?} must not validate the code");
        }
    }

    async fn a_crafted_crowd_link_cannot_send_the_completion_code_elsewhere(server) {
        let d = demo(&server).await;
        let link = d.crowd_link.replace(&server.base, "");
        let w = server.browser();
        let r = w
            .client
            .get(format!("{}{link}&workerId=W-evil&assignmentId=A-evil&hitId=H&turkSubmitTo=https%3A%2F%2Fevil.example", server.base))
            .send()
            .await
            .unwrap();
        let id = r.headers()["location"].to_str().unwrap().trim_start_matches("/work/").to_string();
        assert_eq!(w.call("start_work", &[("assignment", &id)]).await.status, 200);
        let mut last = Value::Null;
        // The demo campaign's HITs are shorter than 100 items: answer until the code comes.
        for p in 0..100 {
            let r = w.call("submit_judgment", &[("assignment", &id), ("position", &p.to_string()), ("score", "40"), ("time_on_screen_ms", "1500"), ("key", &format!("e{p}"))]).await;
            assert_eq!(r.status, 200, "{}", r.body);
            last = r.json();
            if !last["completion"].is_null() {
                break;
            }
        }
        assert!(last["completion"]["code"].is_string(), "{last}");
        let back = last["completion"]["return_url"].as_str().unwrap_or("");
        assert!(!back.contains("evil.example"), "the code goes back to Mechanical Turk only: {back}");
    }

    /// Issue 17, finding 6: a worker id arrives with several platform sessions (Mechanical
    /// Turk's assignmentId, Prolific's SESSION_ID). Whoever arrives with another session of a
    /// worker id neither takes over that session's HIT nor turns the session away: each session
    /// gets a HIT of its own, and answers stay with the session that gave them. (Before: the
    /// first session held the worker's only HIT, and the victim arriving second was refused,
    /// 403 "in progress elsewhere".)
    async fn a_crowd_worker_id_in_another_session_neither_takes_over_nor_blocks(server) {
        let d = demo(&server).await;
        let org = browser_for(&server, Organizer).await;
        let link = d.crowd_link.replace(&server.base, "");
        let go = |b: &Browser, query: &str| {
            let (client, url) = (b.client.clone(), format!("{}{link}&{query}", server.base));
            async move {
                let r = client.get(url).send().await.unwrap();
                let status = r.status().as_u16();
                let location = r.headers().get("location").and_then(|l| l.to_str().ok()).map(|l| l.trim_start_matches("/work/").to_string());
                (status, location, r.text().await.unwrap_or_default())
            }
        };
        for (squatter, victim) in [
            ("workerId=VICTIM&assignmentId=A-attacker&hitId=H", "workerId=VICTIM&assignmentId=A-victim&hitId=H"),
            ("PROLIFIC_PID=VICTIM&STUDY_ID=S&SESSION_ID=S-attacker", "PROLIFIC_PID=VICTIM&STUDY_ID=S&SESSION_ID=S-victim"),
        ] {
            // The squatter arrives first with the victim's worker id and answers three items.
            let mallory = server.browser_from("127.0.0.7".parse().unwrap());
            let (status, squatted, _) = go(&mallory, squatter).await;
            assert_eq!(status, 303, "{squatter}");
            let squatted = squatted.unwrap();
            assert_eq!(mallory.call("start_work", &[("assignment", &squatted)]).await.status, 200);
            for p in 0..3 {
                let r = mallory.call("submit_judgment", &[("assignment", &squatted), ("position", &p.to_string()), ("score", "0"), ("time_on_screen_ms", "900"), ("key", &format!("m{p}"))]).await;
                assert_eq!(r.status, 200, "{}", r.body);
            }
            // The victim arrives in their own session: a HIT of their own, not the squatter's,
            // with none of the squatter's answers, and theirs stay theirs.
            let alice = server.browser();
            let (status, own, body) = go(&alice, victim).await;
            assert_eq!(status, 303, "{victim}: {body}");
            let own = own.unwrap();
            assert_ne!(own, squatted, "{victim}");
            assert_eq!(org.call("assignment_judgments", &[("assignment", &own)]).await.json(), json!([]));
            assert_eq!(alice.call("start_work", &[("assignment", &own)]).await.status, 200);
            let r = alice.call("submit_judgment", &[("assignment", &own), ("position", "0"), ("score", "77"), ("time_on_screen_ms", "900"), ("key", "a0")]).await;
            assert_eq!(r.status, 200, "{}", r.body);
            // Each session comes back to its own HIT, whoever arrives again.
            assert_eq!(go(&alice, victim).await.1.as_deref(), Some(own.as_str()));
            assert_eq!(go(&mallory, squatter).await.1.as_deref(), Some(squatted.as_str()));
            let theirs = org.call("assignment_judgments", &[("assignment", &own)]).await.json();
            assert_eq!(theirs.as_array().unwrap().iter().map(|j| j["score"].as_f64()).collect::<Vec<_>>(), vec![Some(77.0)]);
            assert_eq!(org.call("assignment_judgments", &[("assignment", &squatted)]).await.json().as_array().unwrap().len(), 3);
        }
    }

    async fn session_cookies_are_never_fixed_or_made_up(server) {
        // A made-up cookie value is never accepted, whatever its shape.
        for fake in ["x", "0000000000000000000000000000000000000000000000000000000000000000", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
            let r = reqwest::Client::new()
                .post(format!("{}/api/list_users", server.base))
                .header("origin", &server.base)
                .header("cookie", format!("assay_session={fake}"))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status().as_u16(), 401, "{fake}");
        }
        // A cookie planted before sign-in is replaced at sign-in and stays worthless.
        let planted = "assay_session=planted-by-an-attacker-0123456789abcdef";
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let login = client
            .post(format!("{}/api/login", server.base))
            .header("origin", &server.base)
            .header("cookie", planted)
            .form(&[("email", ADMIN.0), ("password", ADMIN.1)])
            .send()
            .await
            .unwrap();
        assert_eq!(login.status().as_u16(), 200);
        let new_cookie = login
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("assay_session="))
            .expect("a new session cookie")
            .split(';')
            .next()
            .unwrap()
            .to_string();
        assert_ne!(new_cookie, planted);
        let with = |cookie: String| {
            let req = client.post(format!("{}/api/current_user", server.base)).header("origin", &server.base).header("cookie", cookie);
            async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        assert_eq!(with(planted.to_string()).await, Value::Null, "the planted cookie is not a session");
        assert_eq!(with(new_cookie.clone()).await["email"], ADMIN.0);
        // The session cookie of one account, after sign-in by a browser that already had one,
        // is new: the earlier one is revoked (rotation).
        let b = server.browser();
        let first = b.login(ANNOTATOR).await.set_cookies.into_iter().find(|c| c.starts_with("assay_session=")).unwrap();
        let first = first.split(';').next().unwrap().to_string();
        b.login(RESEARCHER).await;
        assert_eq!(with(first).await, Value::Null);
    }
}

/// The nonce of every `<script` tag of an HTML page (None for a tag without one).
fn script_nonces(html: &str) -> Vec<Option<String>> {
    html.match_indices("<script")
        .map(|(i, _)| {
            let tag = &html[i..i + html[i..].find('>').unwrap_or(0)];
            tag.split("nonce=\"").nth(1).map(|rest| rest.split('"').next().unwrap_or("").to_string())
        })
        .collect()
}

both_backends! {
    /// Every HTML page says which scripts may run: this server's files and the page's own inline
    /// scripts, each of which carries the page's fresh nonce; WebAssembly may be compiled; no
    /// plugins, no foreign `<base>`, no framing (the crowd pages: Mechanical Turk only). Served
    /// over plain HTTP, no Strict-Transport-Security.
    async fn html_pages_carry_a_content_security_policy(server) {
        let d = demo(&server).await;
        let anonymous = server.browser();
        let admin = browser_for(&server, Admin).await;
        let organizer = browser_for(&server, Organizer).await;
        let annotator = browser_for(&server, Annotator).await;
        let campaign = format!("/campaigns/{}", d.campaign_id);
        let work = format!("/work/{}", d.annotator_da);
        let pages: Vec<(&Browser, &str)> = vec![
            (&anonymous, "/login"),
            (&anonymous, "/"),
            (&admin, "/admin/users"),
            (&organizer, "/campaigns"),
            (&organizer, &campaign),
            (&organizer, "/campaigns/new"),
            (&annotator, "/"),
            (&annotator, &work),
            (&anonymous, "/no/such/page"),
        ];
        let mut nonces = BTreeSet::new();
        for (b, path) in pages {
            let r = b.client.get(format!("{}{path}", server.base)).send().await.unwrap();
            let headers = r.headers().clone();
            let html = r.text().await.unwrap();
            let csp = headers.get("content-security-policy").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
            for directive in ["script-src 'self' 'nonce-", "'wasm-unsafe-eval'", "object-src 'none'", "base-uri 'self'"] {
                assert!(csp.contains(directive), "{path}: {directive:?} is not in the policy {csp:?}");
            }
            let frames = if path.starts_with("/work/") { "frame-ancestors 'self' https://www.mturk.com" } else { "frame-ancestors 'none'" };
            assert!(csp.contains(frames), "{path}: {csp:?}");
            assert!(!csp.contains("unsafe-inline") && !csp.contains("'unsafe-eval'"), "{path}: {csp:?}");
            let nonce = csp.split("'nonce-").nth(1).and_then(|r| r.split('\'').next()).unwrap().to_string();
            assert!(nonce.len() >= 16, "{path}: nonce {nonce:?}");
            assert!(nonces.insert(nonce.clone()), "{path}: the nonce {nonce} was used before");
            let scripts = script_nonces(&html);
            assert!(!scripts.is_empty(), "{path}: the page has its hydration script");
            for found in scripts {
                assert_eq!(found.as_deref(), Some(nonce.as_str()), "{path}: a script the policy would block");
            }
            assert!(headers.get("strict-transport-security").is_none(), "{path}: HSTS over plain HTTP");
        }
        // Answers that are not pages keep the framing policy alone.
        let health = anonymous.client.get(format!("{}/health", server.base)).send().await.unwrap();
        assert_eq!(health.headers()["content-security-policy"], "frame-ancestors 'none'");
    }
}

/// Served over HTTPS (the configured public URL says so): Strict-Transport-Security on every answer.
async fn https_servers_send_strict_transport_security(backend: Backend) {
    let Some(server) = TestServer::start_with(backend, &[("ASSAY_PUBLIC_URL", "https://assay.test")]).await else { return };
    for path in ["/health", "/login", "/assay.css", "/api/v1/campaigns"] {
        let r = reqwest::get(format!("{}{path}", server.base)).await.unwrap();
        assert_eq!(r.headers().get("strict-transport-security").map(|v| v.to_str().unwrap()), Some("max-age=31536000"), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_servers_send_strict_transport_security_sqlite() {
    https_servers_send_strict_transport_security(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_servers_send_strict_transport_security_postgres() {
    https_servers_send_strict_transport_security(Backend::Postgres).await;
}

/// With a public URL configured, a state-changing request must come from its origin: a client
/// that writes its own Host and a matching Origin is refused, and so is the address the server
/// happens to listen on; a page of the public URL (Origin, or Referer without one) passes.
async fn the_csrf_check_trusts_the_public_url_not_the_host(backend: Backend) {
    let Some(server) = TestServer::start_with(backend, &[("ASSAY_PUBLIC_URL", "http://assay.test")]).await else { return };
    let client = reqwest::Client::new();
    let login = |host: Option<&str>, header: &str, value: &str, password: &str| {
        let mut req = client.post(format!("{}/api/login", server.base)).header(header, value).form(&[("email", ADMIN.0), ("password", password)]);
        if let Some(host) = host {
            req = req.header("host", host);
        }
        async move { req.send().await.unwrap().status().as_u16() }
    };
    // Forged: a Host and an Origin that agree with each other, not with the public URL.
    assert_eq!(login(Some("evil.example"), "origin", "http://evil.example", ADMIN.1).await, 403);
    assert_eq!(login(Some("evil.example"), "referer", "http://evil.example/login", ADMIN.1).await, 403);
    // The listening address is not the public URL either.
    assert_eq!(login(None, "origin", &server.base, ADMIN.1).await, 403);
    assert_eq!(login(None, "origin", "https://assay.test", ADMIN.1).await, 403, "another scheme is another origin");
    // From the public URL's pages, whatever the Host (a proxy's): past the check.
    assert_eq!(login(None, "origin", "http://assay.test", "not the password").await, 401);
    assert_eq!(login(Some("10.0.0.7:3000"), "origin", "http://Assay.test", ADMIN.1).await, 200);
    assert_eq!(login(None, "referer", "http://assay.test/login?next=/", ADMIN.1).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_csrf_check_trusts_the_public_url_not_the_host_sqlite() {
    the_csrf_check_trusts_the_public_url_not_the_host(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_csrf_check_trusts_the_public_url_not_the_host_postgres() {
    the_csrf_check_trusts_the_public_url_not_the_host(Backend::Postgres).await;
}

/// Issue 38: without a public URL, the trusted origin is the listening address's (and its
/// loopback names): a client that writes a foreign Host and a matching Origin is refused, as
/// before only the public URL's origin was trusted.
async fn without_a_public_url_the_csrf_check_trusts_the_bind_address(backend: Backend) {
    let Some(server) = TestServer::start(backend).await else { return };
    let client = reqwest::Client::new();
    let login = |host: Option<&str>, header: &str, value: &str, password: &str| {
        let mut req = client.post(format!("{}/api/login", server.base)).header(header, value).form(&[("email", ADMIN.0), ("password", password)]);
        if let Some(host) = host {
            req = req.header("host", host);
        }
        async move { req.send().await.unwrap().status().as_u16() }
    };
    let port = server.base.rsplit(':').next().unwrap();
    let foreign = format!("evil.example:{port}");
    assert_eq!(login(Some(&foreign), "origin", &format!("http://{foreign}"), ADMIN.1).await, 403, "a foreign Host and Origin that agree");
    assert_eq!(login(Some(&foreign), "referer", &format!("http://{foreign}/login"), ADMIN.1).await, 403);
    assert_eq!(login(None, "origin", "http://127.0.0.1:1", ADMIN.1).await, 403, "another port is another origin");
    // The listening address and its loopback names pass.
    assert_eq!(login(None, "origin", &server.base, "not the password").await, 401);
    assert_eq!(login(None, "origin", &format!("http://localhost:{port}"), ADMIN.1).await, 200);
    assert_eq!(login(Some(&format!("localhost:{port}")), "referer", &format!("http://[::1]:{port}/login"), ADMIN.1).await, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_public_url_the_csrf_check_trusts_the_bind_address_sqlite() {
    without_a_public_url_the_csrf_check_trusts_the_bind_address(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_public_url_the_csrf_check_trusts_the_bind_address_postgres() {
    without_a_public_url_the_csrf_check_trusts_the_bind_address(Backend::Postgres).await;
}

/// The API and export routes with the least role that reads them.
fn api_routes(campaign: i64) -> Vec<(String, Who)> {
    vec![
        ("/api/v1/campaigns".into(), Researcher),
        (format!("/api/v1/campaigns/{campaign}/results"), Researcher),
        (format!("/api/v1/campaigns/{campaign}/agreement"), Researcher),
        (format!("/api/v1/campaigns/{campaign}/metrics"), Researcher),
        (format!("/api/v1/campaigns/{campaign}/workers"), Organizer),
        (format!("/api/v1/campaigns/{campaign}/export/manifest.json"), Researcher),
        (format!("/api/v1/campaigns/{campaign}/export/judgments.csv?filter=cleaned"), Researcher),
        (format!("/campaigns/{campaign}/export/judgments.csv"), Researcher),
        (format!("/campaigns/{campaign}/export/all.zip"), Researcher),
    ]
}


fn route_expectation(who: Who, min: Who) -> E {
    match who {
        Anonymous | Crowd => S(401),
        w if (w as usize) >= (min as usize) => Pass,
        _ => S(403),
    }
}

both_backends! {
    /// A personal API token: the API's GET routes answer it as its owner's role; every server
    /// function answers a request carrying only a token as it answers a stranger; other methods
    /// are refused; a revoked token is a stranger.
    async fn api_tokens_read_as_their_owner_and_change_nothing(server) {
        let d = demo(&server).await;
        let mut failures = Vec::new();
        for who in [Researcher, Organizer, Admin] {
            let b = browser_for(&server, who).await;
            let created = b.call("create_api_token", &[("name", "security table")]).await;
            assert_eq!(created.status, 200, "{}", created.body);
            let created = created.json();
            let secret = created["secret"].as_str().unwrap().to_string();
            // No cookie store: only the token.
            let api = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
            for (path, min) in api_routes(d.campaign_id) {
                let r = api.get(format!("{}{path}", server.base)).bearer_auth(&secret).send().await.unwrap();
                let want = route_expectation(who, min);
                if !meets(want, r.status().as_u16()) {
                    failures.push(format!("GET {path} with a {who:?} token: expected {want:?}, got {}", r.status()));
                }
                for method in ["POST", "PUT", "PATCH", "DELETE"] {
                    let r = api.request(method.parse().unwrap(), format!("{}{path}", server.base)).bearer_auth(&secret).send().await.unwrap();
                    // A token made without scopes reads only: even the metric upload is refused
                    // (the scoped writes: `every_write_a_token_reaches_needs_its_scope`).
                    let want = S(403);
                    if !meets(want, r.status().as_u16()) {
                        failures.push(format!("{method} {path} with a {who:?} token: expected {want:?}, got {}", r.status()));
                    }
                }
            }
            for (n, row) in TABLE.iter().enumerate() {
                let url = format!("{}/api/{}", server.base, row.endpoint);
                let req = match row.how {
                    How::Form => api.post(&url).form(&form_args(row.endpoint, Anonymous, &d, 5000 + n)),
                    How::Get => api.get(&url).query(&form_args(row.endpoint, Anonymous, &d, 5000 + n)),
                    How::Json => api.post(&url).header("content-type", "application/json").body(json_args(row.endpoint, Anonymous, &d).to_string()),
                };
                let r = req.header("origin", &server.base).bearer_auth(&secret).send().await.unwrap();
                let want = row.expect[Anonymous as usize];
                if !meets(want, r.status().as_u16()) {
                    failures.push(format!("server function {} with only a {who:?} token: expected {want:?} (as a stranger), got {}", row.endpoint, r.status()));
                }
            }
            // Revoked: a stranger.
            let id = created["token"]["id"].to_string();
            assert_eq!(b.call("revoke_api_token", &[("token_id", &id)]).await.status, 200);
            let r = api.get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(&secret).send().await.unwrap();
            if r.status().as_u16() != 401 {
                failures.push(format!("a revoked {who:?} token: expected 401, got {}", r.status()));
            }
        }
        assert!(failures.is_empty(), "{} answers differ:\n{}", failures.len(), failures.join("\n"));
    }
}

/// `POST /api/v1/campaigns/{id}/metrics`: metric scores uploaded (issue 21).
fn is_metric_upload(path: &str) -> bool {
    path.starts_with("/api/v1/campaigns/") && path.ends_with("/metrics")
}

/// Every write a personal API token can reach (issue 36), with the scope it needs, the least
/// role, a body that passes (or None: the route answers 400 to an empty one) and the body's
/// `Content-Type`. Every other method on every other route is refused to a token
/// (`api_tokens_read_as_their_owner_and_change_nothing`).
fn token_writes(campaign: i64, test_set: i64, gold: &str) -> Vec<(String, &'static str, Who, Option<String>)> {
    vec![
        (format!("/api/v1/campaigns/{campaign}/metrics"), "metrics_upload", Researcher, None),
        (format!("/api/v1/test-sets/{test_set}/gold"), "gold_upload", Organizer, Some(gold.to_string())),
    ]
}

both_backends! {
    /// Issue 36: an organizer's token alone (no cookie, no Origin) stored and overwrote gold
    /// orders, though tokens were documented as read-only but for metric uploads. Now each write a
    /// token reaches needs the scope the token was given when it was made: every write route, with
    /// tokens of every scope and every role that may have tokens, without a session.
    async fn every_write_a_token_reaches_needs_its_scope(server) {
        let d = demo(&server).await;
        let org = browser_for(&server, Organizer).await;
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|s| s["systems"].as_array().unwrap().len() >= 2).expect("a demo test set").clone();
        let gold = format!("1\t{} > {}\n", set["systems"][0]["name"].as_str().unwrap(), set["systems"][1]["name"].as_str().unwrap());
        let writes = token_writes(d.campaign_id, set["id"].as_i64().unwrap(), &gold);
        let api = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let mut failures = Vec::new();
        for who in [Researcher, Organizer, Admin] {
            let b = browser_for(&server, who).await;
            for given in [&[][..], &["metrics_upload"][..], &["gold_upload"][..], &["metrics_upload", "gold_upload"][..]] {
                let mut form = vec![("name", "scoped")];
                form.extend(given.iter().map(|s| (*s, "true")));
                let created = b.call("create_api_token", &form).await;
                if given.contains(&"gold_upload") && (who as usize) < (Organizer as usize) {
                    // A scope above the role is refused when the token is made.
                    if created.status != 400 {
                        failures.push(format!("a {who:?} token with {given:?}: expected 400, got {} {}", created.status, created.body));
                    }
                    continue;
                }
                assert_eq!(created.status, 200, "{}", created.body);
                let created = created.json();
                let mut stored: Vec<&str> = vec!["read"];
                stored.extend(given.iter().map(|s| if *s == "metrics_upload" { "metrics-upload" } else { "gold-upload" }));
                let listed = b.call("list_api_tokens", &[]).await.json();
                let row = listed.as_array().unwrap().iter().find(|t| t["id"] == created["token"]["id"]).expect("the new token is listed").clone();
                if row["scopes"] != json!(stored.iter().map(|s| match *s { "read" => "Read", "metrics-upload" => "MetricsUpload", _ => "GoldUpload" }).collect::<Vec<_>>()) {
                    failures.push(format!("a {who:?} token with {given:?} is listed with {}", row["scopes"]));
                }
                let secret = created["secret"].as_str().unwrap().to_string();
                for (path, scope, min, body) in &writes {
                    let r = api.post(format!("{}{path}", server.base)).bearer_auth(&secret).body(body.clone().unwrap_or_default()).send().await.unwrap();
                    let want = if !given.contains(scope) || (who as usize) < (*min as usize) {
                        S(403)
                    } else if body.is_some() {
                        S(200)
                    } else {
                        S(400)
                    };
                    if !meets(want, r.status().as_u16()) {
                        failures.push(format!("POST {path} with a {who:?} token of {given:?}: expected {want:?}, got {} {}", r.status(), r.text().await.unwrap_or_default()));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{} answers differ:\n{}", failures.len(), failures.join("\n"));
        // The tokens page says what each may do.
        let page = org.get("/account/tokens").await;
        assert!(page.body.contains("upload gold orders") && page.body.contains("token-gold-upload"), "the page offers and shows the scopes");
    }
}

/// Secrets never reach the log (at debug level) or the analysis output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_in_logs_or_exports_sqlite() {
    let server = TestServer::start_logged(Backend::Sqlite, &[("ASSAY_LOG", "debug")]).await.expect("server");
    no_secret_in_logs_or_exports(server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_in_logs_or_exports_postgres() {
    if let Some(server) = TestServer::start_logged(Backend::Postgres, &[("ASSAY_LOG", "debug")]).await {
        no_secret_in_logs_or_exports(server).await;
    }
}

async fn no_secret_in_logs_or_exports(server: TestServer) {
    let d = demo(&server).await;
    let mut tokens = Vec::new();
    for account in [ADMIN, ORGANIZER, RESEARCHER, ANNOTATOR] {
        let b = server.browser();
        let a = b.login(account).await;
        tokens.extend(a.set_cookies.iter().filter(|c| c.starts_with("assay_session=")).map(|c| c.split(';').next().unwrap()["assay_session=".len()..].to_string()));
        b.call("current_user", &[]).await;
    }
    // A failed sign-in with a password-like secret.
    let wrong = "wrong-but-secret-password-42";
    server.browser().call("login", &[("email", ADMIN.0), ("password", wrong)]).await;
    // Some work: an invitation, a crowd worker's judgments.
    let admin = browser_for(&server, Admin).await;
    let invite = admin.call("invite_user", &[("email", "new@example.org"), ("role", "annotator")]).await.json();
    let invite_token = invite["url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    // A crowd worker does a whole HIT of the demo campaign through its signed link.
    let worker = server.browser();
    let link = d.crowd_link.replace(&server.base, "");
    let r = worker.client.get(format!("{}{link}&worker=log-test", server.base)).send().await.unwrap();
    let id = r.headers()["location"].to_str().unwrap().trim_start_matches("/work/").to_string();
    assert_eq!(worker.call("start_work", &[("assignment", &id)]).await.status, 200);
    for p in 0..100 {
        let r = worker.call("submit_judgment", &[("assignment", &id), ("position", &p.to_string()), ("score", &format!("{}", 20 + p * 7 % 70)), ("time_on_screen_ms", "1500"), ("key", &format!("s{p}"))]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        if !r.json()["completion"].is_null() {
            break;
        }
    }
    // A personal API token, used once.
    let researcher = browser_for(&server, Researcher).await;
    let api_token = researcher.call("create_api_token", &[("name", "log test")]).await.json()["secret"].as_str().unwrap().to_string();
    let used = reqwest::Client::new().get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(&api_token).send().await.unwrap();
    assert_eq!(used.status().as_u16(), 200);
    let exported = server.data_dir.path().join("export-out");
    let export = server.assay(&["export", "--campaign", &d.campaign_id.to_string(), "--out", exported.to_str().unwrap()]).output().unwrap();
    assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
    let out = server.data_dir.path().join("analysis-out");
    let analyze = server.assay(&["analyze", "--campaign", &d.campaign_id.to_string(), "--out", out.to_str().unwrap()]).output().unwrap();
    assert!(analyze.status.success(), "{}", String::from_utf8_lossy(&analyze.stderr));
    let mut texts = vec![std::fs::read_to_string(server.log_path()).unwrap()];
    texts.push(String::from_utf8_lossy(&analyze.stdout).to_string() + &String::from_utf8_lossy(&analyze.stderr));
    for dir in [&out, &exported] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                texts.push(String::from_utf8_lossy(&std::fs::read(&p).unwrap()).to_string());
            }
        }
    }
    assert!(texts.len() >= 5, "analyze wrote its files: {} outputs", texts.len());
    assert!(texts[0].contains("signing key"), "the server's log was captured: {}", &texts[0].chars().take(500).collect::<String>());
    let key = std::fs::read_to_string(server.data_dir.path().join("secret.key")).unwrap().trim().to_string();
    assert!(key.len() >= 32, "{key}");
    assert_eq!(tokens.len(), 4);
    let mut secrets: Vec<(&str, String)> =
        vec![("secret key", key), ("wrong password", wrong.into()), ("invitation token", invite_token), ("API token", api_token)];
    for (_, pw) in [ADMIN, ORGANIZER, RESEARCHER, ANNOTATOR] {
        secrets.push(("password", pw.into()));
    }
    for t in tokens {
        secrets.push(("session token", t));
    }
    for (i, text) in texts.iter().enumerate() {
        assert!(!text.contains("$argon2"), "a password hash in output {i}");
        for (what, s) in &secrets {
            assert!(!text.contains(s.as_str()), "a {what} in output {i}");
        }
    }
}

/// The test server's database, for what only time would otherwise do (a lapsed reservation).
async fn open_db(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::any::AnyPoolOptions::new().max_connections(1).connect(url).await.expect("open the test database")
}

async fn count(db: &sqlx::AnyPool, sql: &str) -> i64 {
    sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(db).await.expect(sql)
}

/// Arrivals of `names` by the crowd link from `address`: (got work, no work, too many).
async fn arrivals(server: &TestServer, campaign: &fixtures::CrowdCampaign, address: &str, names: impl Iterator<Item = String>) -> (Vec<String>, usize, usize) {
    let b = server.browser_from(address.parse().unwrap());
    let (mut work, mut none, mut refused) = (Vec::new(), 0, 0);
    for name in names {
        match fixtures::arrive(&b.client, &server.base, campaign, &name).await {
            Ok(Some(a)) => work.push(a),
            Ok(None) => none += 1,
            Err(fixtures::Reply::Answered(429, _)) => refused += 1,
            Err(r) => panic!("{name} from {address}: {r:?}"),
        }
    }
    (work, none, refused)
}

both_backends! {
    /// Issue 17, findings 4 and 5: made-up worker ids cannot keep a campaign's slots from real
    /// workers, nor fill the workers table. A campaign of 8 HITs × 5 workers (40 slots):
    /// - 40 arrivals with made-up ids from one address hold at most the address's allowance of
    ///   unstarted HITs (10, issue 38; before it, 30: the claims an hour); the rest are told why
    ///   and to come back later (429) and a real worker from elsewhere gets work (before issue
    ///   17: all 40 slots taken, the real worker "No work right now");
    /// - a slot nobody starts is held for minutes, not for the campaign's timeout (here 600
    ///   minutes): after 6 minutes the squatters' slots are free again (before: still held), and a
    ///   squatter who then presses Start takes their slot back while it is free;
    /// - a worker record is created only when work is given (before: one row per arrival, with
    ///   work or without), and a worker id longer than 64 characters is refused (before: 185
    ///   characters accepted and stored).
    async fn crowd_slots_and_worker_records_cannot_be_squatted(server) {
        let (org, campaign) = fixtures::launch_crowd_campaign(&server.base, "squatted", 8, 5).await.expect("campaign");
        let db = open_db(&server.database_url).await;
        let workers_before = count(&db, "SELECT COUNT(*) FROM workers").await;

        let (squatted, none, refused) = arrivals(&server, &campaign, "127.0.0.2", (0..40).map(|i| format!("fake-{i}"))).await;
        assert_eq!((squatted.len(), none, refused), (10, 0, 30), "one address holds its allowance of unstarted HITs, no more");
        assert_eq!(count(&db, "SELECT COUNT(*) FROM workers").await, workers_before + 10, "no record for the refused");
        // The refusal says why, in the campaign's language, and when to come back.
        let refused = server.browser_from("127.0.0.2".parse().unwrap()).client.get(format!("{}{}&worker=fake-41", server.base, campaign.link_path)).send().await.unwrap();
        assert_eq!(refused.status().as_u16(), 429);
        assert_eq!(refused.headers()["retry-after"], "300");
        let page = refused.text().await.unwrap();
        assert!(page.contains("Too many unstarted HITs from your address") && page.contains("Start one of them"), "{page}");
        let (real, _, _) = arrivals(&server, &campaign, "127.0.0.3", std::iter::once("real-1".to_string())).await;
        assert_eq!(real.len(), 1, "a real worker elsewhere gets work");
        let b = server.browser_from("127.0.0.3".parse().unwrap());
        assert_eq!(b.call("start_work", &[("assignment", &real[0])]).await.status, 200);
        // Coming back is not a new claim: the squatters' address still reaches its own HITs.
        let (again, _, refused) = arrivals(&server, &campaign, "127.0.0.2", (0..3).map(|i| format!("fake-{i}"))).await;
        assert_eq!((again.as_slice(), refused), (&squatted[..3], 0));

        // Six minutes pass for every HIT handed out (nobody but the real worker pressed Start).
        sqlx::query("UPDATE assignments SET started_at = started_at - 360000, last_seen_at = last_seen_at - 360000").execute(&db).await.unwrap();
        let progress = org.call("campaign_progress", &[("campaign_id", &campaign.id.to_string())]).await;
        assert_eq!(progress.status, 200);
        let live = format!(
            "SELECT COUNT(*) FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = {} AND a.status = 'active'",
            campaign.id
        );
        assert_eq!(count(&db, &live).await, 1, "only the started HIT still holds its slot");
        // A squatter who presses Start now gets their slot back (nobody took it).
        let late = server.browser_from("127.0.0.2".parse().unwrap());
        let page = late.call("load_work", &[("assignment", &squatted[0])]).await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(late.call("start_work", &[("assignment", &squatted[0])]).await.status, 200);
        assert_eq!(count(&db, &live).await, 2);
        // 38 slots are free: real workers from four more addresses fill them.
        for (address, names) in [("127.0.0.4", 0..10), ("127.0.0.9", 10..20)] {
            let (more, none, refused) = arrivals(&server, &campaign, address, names.map(|i| format!("real-a{i}"))).await;
            assert_eq!((more.len(), none, refused), (10, 0, 0));
        }
        for (address, names) in [("127.0.0.5", 0..10), ("127.0.0.10", 10..18)] {
            let (more, none, refused) = arrivals(&server, &campaign, address, names.clone().map(|i| format!("real-b{i}"))).await;
            assert_eq!((more.len(), none, refused), (names.len(), 0, 0));
        }
        // Full: more arrivals get no work and leave no worker record behind.
        let with_work = count(&db, "SELECT COUNT(*) FROM workers").await;
        let (more, none, _) = arrivals(&server, &campaign, "127.0.0.6", (0..25).map(|i| format!("late-{i}"))).await;
        assert_eq!((more.len(), none), (0, 25));
        assert_eq!(count(&db, "SELECT COUNT(*) FROM workers").await, with_work, "no record without work");
        // 10 squatters (9 never started), 1 + 20 + 18 real workers: one record each.
        assert_eq!(with_work - workers_before, 10 + 1 + 20 + 18);

        // Over-long worker ids are refused before anything is stored.
        let long = "w".repeat(185);
        let b = server.browser_from("127.0.0.8".parse().unwrap());
        match fixtures::arrive(&b.client, &server.base, &campaign, &long).await {
            Err(fixtures::Reply::Answered(400, body)) => assert!(body.contains("at most 64"), "{body}"),
            other => panic!("a 185-character worker id: {other:?}"),
        }
        assert_eq!(count(&db, "SELECT COUNT(*) FROM workers").await, with_work);
        db.close().await;
    }
}

both_backends! {
    /// Issue 17, finding 8: the HIT-time flags and the quality gate's floor use the server's
    /// clock (when each item was served and answered), not the time the browser reports. A HIT
    /// of 20 items answered at once, each claiming 100 s on screen, is flagged as faster than
    /// the floor (10 minutes); the browser's figure is kept as information. (Before: 2,000 s
    /// by the browser's word, not flagged.)
    async fn the_time_floor_trusts_the_servers_clock(server) {
        let d = demo(&server).await;
        let org = browser_for(&server, Organizer).await;
        let link = d.crowd_link.replace(&server.base, "");
        let w = server.browser();
        let r = w.client.get(format!("{}{link}&worker=speedy", server.base)).send().await.unwrap();
        let id = r.headers()["location"].to_str().unwrap().trim_start_matches("/work/").to_string();
        assert_eq!(w.call("start_work", &[("assignment", &id)]).await.status, 200);
        let started = std::time::Instant::now();
        for p in 0..20 {
            let r = w.call("submit_judgment", &[("assignment", &id), ("position", &p.to_string()), ("score", "70"), ("time_on_screen_ms", "100000"), ("key", &format!("s{p}"))]).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let took = started.elapsed().as_secs_f64();
        assert!(took < 60.0, "the HIT took {took} s");
        let view = org.call("campaign_workers", &[("campaign_id", &d.campaign_id.to_string()), ("wilcoxon", "false")]).await;
        assert_eq!(view.status, 200, "{}", view.body);
        let view = view.json();
        let row = view["workers"].as_array().unwrap().iter().find(|r| r["worker"] == "link:speedy").unwrap_or_else(|| panic!("{view}"));
        let seconds = row["mean_hit_seconds"].as_f64().unwrap();
        assert!(seconds <= took + 1.0, "the server's time of the HIT, not the browser's 2,000 s: {row}");
        assert!(row["flags"].as_array().unwrap().iter().any(|f| f.as_str().unwrap().contains("faster than the floor")), "{row}");
        // The browser's figure is still there, as information.
        let stored = org.call("assignment_judgments", &[("assignment", &id)]).await.json();
        assert!(stored.as_array().unwrap().iter().all(|j| j["time_on_screen_ms"] == 100000), "{stored}");
    }
}

both_backends! {
    /// `POST /api/v1/test-sets/{id}/gold` (gold orders of relative ranking, an import): as every
    /// import, organizers and up; everyone else is refused before the file is read, and a
    /// refused request stores nothing. A token answers as its owner; other methods are not routed.
    async fn the_gold_import_is_for_organizers_and_up(server) {
        let org = browser_for(&server, Organizer).await;
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|s| s["systems"].as_array().unwrap().len() >= 2).expect("a demo test set").clone();
        let (id, first, second) = (set["id"].as_i64().unwrap(), set["systems"][0]["name"].as_str().unwrap().to_string(), set["systems"][1]["name"].as_str().unwrap().to_string());
        let body = format!("1\t{first} > {second}\n");
        let mut failures = Vec::new();
        for who in EVERYONE {
            let b = browser_for(&server, who).await;
            let r = b.client.post(format!("{}/api/v1/test-sets/{id}/gold", b.base)).header("origin", &b.base).body(body.clone()).send().await.unwrap();
            let want = route_expectation(who, Organizer);
            if !meets(want, r.status().as_u16()) {
                failures.push(format!("POST gold as {who:?}: expected {want:?}, got {}", r.status()));
            }
        }
        // Another site's page may not post it with the organizer's session.
        let r = org.client.post(format!("{}/api/v1/test-sets/{id}/gold", org.base)).header("origin", "http://evil.example").body(body.clone()).send().await.unwrap();
        if r.status().as_u16() != 403 {
            failures.push(format!("POST gold from another origin: expected 403, got {}", r.status()));
        }
        let r = org.client.get(format!("{}/api/v1/test-sets/{id}/gold", org.base)).send().await.unwrap();
        if r.status().is_success() {
            failures.push(format!("GET gold: expected a refusal, got {}", r.status()));
        }
        assert!(failures.is_empty(), "{} answers differ:\n{}", failures.len(), failures.join("\n"));
    }
}

/// Issue 17, finding 12: a team of its own ("Rivals") with an organizer and a researcher who
/// are in no other team; none of the demo's work is theirs (the demo's is the team Everyone's).
struct Rivals {
    team: i64,
    /// (browser, account id) of the researcher and of the organizer, signed in.
    researcher: (Browser, i64),
    organizer: (Browser, i64),
}

const RIVAL_PASSWORD: &str = "a long enough rival password";

async fn rivals(server: &TestServer) -> Rivals {
    let admin = browser_for(server, Admin).await;
    let made = admin.call("create_team", &[("name", "Rivals")]).await;
    assert_eq!(made.status, 200, "{}", made.body);
    let team = made.json().as_i64().expect("the new team's id");
    let mut accounts = Vec::new();
    for (email, role) in [("rival-researcher@example.org", "researcher"), ("rival-organizer@example.org", "organizer")] {
        let invite = admin.call("invite_user", &[("email", email), ("role", role)]).await.json();
        let token = invite["url"].as_str().expect("an invitation").rsplit('/').next().unwrap().to_string();
        let accepted = server.browser().call("accept_invitation", &[("token", &token), ("name", role), ("password", RIVAL_PASSWORD)]).await;
        assert_eq!(accepted.status, 200, "{}", accepted.body);
        let users = admin.call("list_users", &[]).await.json();
        let id = users.as_array().unwrap().iter().find(|u| u["email"] == email).expect("the new account")["id"].as_i64().unwrap();
        // Into Rivals, out of Everyone (which every new account joins).
        for (t, member) in [(team, "true"), (1, "false")] {
            let r = admin.call("set_team_member", &[("team_id", &t.to_string()), ("user_id", &id.to_string()), ("member", member)]).await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        let b = server.browser();
        assert_eq!(b.login((email, RIVAL_PASSWORD)).await.status, 200);
        accounts.push((b, id));
    }
    let organizer = accounts.pop().unwrap();
    let researcher = accounts.pop().unwrap();
    Rivals { team, researcher, organizer }
}

both_backends! {
    /// Issue 38: another team's campaign page showed "there is no campaign with id …" three
    /// times, with 200 and no way on. Now 404, the message once (as for a missing campaign: its
    /// existence is not revealed) and a link back to the list; the team's own members see it.
    async fn another_teams_campaign_page_is_a_404_with_a_way_back(server) {
        let d = demo(&server).await;
        let r = rivals(&server).await;
        let id = d.campaign_id;
        let message = format!("there is no campaign with id {id}");
        for (who, b, path, back) in [
            ("organizer", &r.organizer.0, format!("/campaigns/{id}"), "href=\"/campaigns\""),
            ("organizer", &r.organizer.0, format!("/campaigns/{id}/workers"), "href=\"/campaigns\""),
            ("researcher", &r.researcher.0, format!("/campaigns/{id}/results"), "href=\"/results\""),
            ("researcher", &r.researcher.0, format!("/campaigns/{id}/metrics"), "href=\"/results\""),
            ("organizer", &r.organizer.0, "/campaigns/999999".to_string(), "href=\"/campaigns\""),
        ] {
            let a = b.get(&path).await;
            assert_eq!(a.status, 404, "{path} as another team's {who}: {}", a.body);
            let message = if path.ends_with("999999") { "there is no campaign with id 999999".to_string() } else { message.clone() };
            assert_eq!(a.body.matches(&message).count(), 1, "{path}: the message once: {}", a.body);
            assert!(a.body.contains(back), "{path}: a way back: {}", a.body);
        }
        let own = browser_for(&server, Organizer).await.get(&format!("/campaigns/{id}")).await;
        assert_eq!(own.status, 200, "the team's organizer sees it");
        assert!(!own.body.contains(&message));
    }
}

/// A refusal that reads as a missing campaign, test set, study, HIT or metric.
fn reads_as_missing(body: &str) -> bool {
    ["there is no campaign with id", "there is no test set with id", "there is no study with id", "There is no HIT at this address", "has no uploaded metric"]
        .iter()
        .any(|m| body.contains(m))
}

both_backends! {
    /// Every row of the table against an organizer and a researcher of another team, with the
    /// arguments naming the demo's campaign, test set and HITs (the team Everyone's): each gets
    /// the table's `teams` answer, a refusal reads as a missing resource, and no answer names the
    /// demo's work. The same calls by the demo's organizer and researcher (same team) get the
    /// table's answers and are never refused as missing. (Before teams: the other team's
    /// organizer read the demo campaign's progress, HIT items with their types (the answer key),
    /// judgments, workers, and could launch, edit and decide.)
    async fn another_teams_members_are_refused_every_row_as_if_it_did_not_exist(server) {
        let d = demo(&server).await;
        let r = rivals(&server).await;
        let mut failures = Vec::new();
        let mut n = 30_000;
        for (i, who, b) in [(0, Researcher, &r.researcher.0), (1, Organizer, &r.organizer.0)] {
            for row in TABLE.iter().filter(|row| row.endpoint != "logout") {
                n += 1;
                let a = call_on(b, row, who, &d, n, d.test_set_id).await;
                let want = row.teams[i];
                if !meets(want, a.status) {
                    failures.push(format!("{} as another team's {who:?}: expected {want:?}, got {} {}", row.endpoint, a.status, a.body.chars().take(300).collect::<String>()));
                }
                let refused_for_team = want != row.expect[who as usize] && matches!(want, S(400) | S(404));
                if refused_for_team && !reads_as_missing(&a.body) {
                    failures.push(format!("{} as another team's {who:?}: the refusal does not read as a missing resource: {}", row.endpoint, a.body.chars().take(300).collect::<String>()));
                }
                // The annotation queue offers every launched campaign's work to every account
                // (annotation is reached by assignment, whatever the team): by design.
                if a.body.contains("Demo: ") && !matches!(row.endpoint, "my_queue" | "start_campaign_hit" | "my_assignments") {
                    failures.push(format!("{} as another team's {who:?} names the demo's work: {}", row.endpoint, a.body.chars().take(300).collect::<String>()));
                }
            }
        }
        // The check_design of another team's test set: as a missing one, no samples of its texts.
        let check = r.organizer.0.call_json("check_design", json!({ "draft": json_args_on("check_design", Organizer, &d, d.test_set_id)["draft"] })).await;
        assert_eq!(check.status, 200, "{}", check.body);
        let check = check.json();
        assert_eq!(check["samples"], json!([]), "{check}");
        assert!(check["problems"].as_array().unwrap().iter().any(|p| p.as_str().unwrap().contains(&format!("there is no test set with id {}", d.test_set_id))), "{check}");
        // The same calls by the demo's own organizer and researcher pass.
        for who in [Researcher, Organizer] {
            let b = browser_for(&server, who).await;
            for row in TABLE.iter().filter(|row| row.endpoint != "logout") {
                n += 1;
                let a = call_on(&b, row, who, &d, n, d.test_set_id).await;
                let want = row.expect[who as usize];
                if !meets(want, a.status) {
                    failures.push(format!("{} as the team's {who:?}: expected {want:?}, got {} {}", row.endpoint, a.status, a.body.chars().take(300).collect::<String>()));
                }
                if a.body.contains(&format!("there is no campaign with id {}", d.campaign_id)) || a.body.contains(&format!("there is no test set with id {}", d.test_set_id)) {
                    failures.push(format!("{} as the team's {who:?} is refused as missing: {}", row.endpoint, a.body.chars().take(300).collect::<String>()));
                }
            }
        }
        assert!(failures.is_empty(), "{} answers differ from the table:\n{}", failures.len(), failures.join("\n"));
    }

    /// The answer key (issue 17, finding 12's example): another team's organizer cannot read
    /// which items of the demo's HIT are quality control (HIT items with their types, an
    /// assignment's items and judgments), neither by server function nor by export or API.
    /// (Before: 200 with every item's type.)
    async fn another_teams_organizer_cannot_read_the_answer_key(server) {
        let d = demo(&server).await;
        let r = rivals(&server).await;
        let own = browser_for(&server, Organizer).await;
        let campaign = d.campaign_id.to_string();
        let key = own.call("hit_items", &[("campaign_id", &campaign), ("hit_index", "0")]).await;
        assert_eq!(key.status, 200, "{}", key.body);
        assert!(key.body.contains("BAD_REF"), "{}", key.body.chars().take(300).collect::<String>());
        let org = &r.organizer.0;
        let refused = org.call("hit_items", &[("campaign_id", &campaign), ("hit_index", "0")]).await;
        assert_eq!(refused.status, 404, "{}", refused.body);
        assert!(!refused.body.contains("item_type"), "{}", refused.body);
        // Exactly as a campaign that does not exist.
        let missing = org.call("hit_items", &[("campaign_id", "999999"), ("hit_index", "0")]).await;
        assert_eq!((missing.status, missing.body.replace("999999", &campaign)), (refused.status, refused.body.clone()));
        for endpoint in ["assignment_items", "assignment_judgments"] {
            let a = org.call(endpoint, &[("assignment", &d.annotator_da)]).await;
            assert_eq!(a.status, 404, "{endpoint}: {}", a.body);
        }
        for path in [
            format!("/campaigns/{campaign}/export/judgments.csv"),
            format!("/campaigns/{campaign}/export/all.zip"),
            format!("/api/v1/campaigns/{campaign}/export/manifest.json"),
            format!("/api/v1/campaigns/{campaign}/results"),
            format!("/api/v1/campaigns/{campaign}/agreement"),
            format!("/api/v1/campaigns/{campaign}/metrics"),
            format!("/api/v1/campaigns/{campaign}/workers"),
            format!("/campaigns/{campaign}/decisions.csv"),
            format!("/campaigns/{campaign}/mturk-batch.csv"),
        ] {
            for (who, b) in [("organizer", org), ("researcher", &r.researcher.0)] {
                let a = b.get(&path).await;
                let want = if who == "researcher" && (path.ends_with("/workers") || path.ends_with(".csv") && !path.contains("/export/")) { 403 } else { 404 };
                assert_eq!(a.status, want, "GET {path} as another team's {who}: {}", a.body.chars().take(200).collect::<String>());
            }
        }
        // A token acts with its owner's teams.
        let secret = org.call("create_api_token", &[("name", "rival token")]).await.json()["secret"].as_str().unwrap().to_string();
        let api = reqwest::Client::new();
        let list = api.get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(&secret).send().await.unwrap();
        assert_eq!(list.status().as_u16(), 200);
        assert_eq!(list.json::<Value>().await.unwrap(), json!([]), "another team's token lists none of the demo's campaigns");
        let results = api.get(format!("{}/api/v1/campaigns/{campaign}/results", server.base)).bearer_auth(&secret).send().await.unwrap();
        assert_eq!(results.status().as_u16(), 404);
        // Metric scores cannot be uploaded to another team's campaign.
        let up = org
            .client
            .post(format!("{}/api/v1/campaigns/{campaign}/metrics", server.base))
            .header("x-assay-file-name", "m.seg.score")
            .body("Alpha\t1\t0.5\n")
            .send()
            .await
            .unwrap();
        assert_eq!(up.status().as_u16(), 404);
        // Nor gold orders imported for another team's test set.
        let gold = org.client.post(format!("{}/api/v1/test-sets/{}/gold", server.base, d.test_set_id)).body("1\tA > B\n").send().await.unwrap();
        assert_eq!(gold.status().as_u16(), 404);
        assert!(gold.text().await.unwrap().contains(&format!("there is no test set with id {}", d.test_set_id)));
        // A completion code of the demo's campaign: valid for anyone who asks, but only the
        // campaign's team learns whose it is.
        let worker = server.browser();
        assert_eq!(worker.call("start_work", &[("assignment", &d.crowd)]).await.status, 200);
        let mut code = None;
        for p in 0..100 {
            let a = worker.call("submit_judgment", &[("assignment", &d.crowd), ("position", &p.to_string()), ("score", "50"), ("time_on_screen_ms", "1500"), ("key", &format!("t{p}"))]).await;
            assert_eq!(a.status, 200, "{}", a.body);
            if let Some(c) = a.json()["completion"]["code"].as_str() {
                code = Some(c.to_string());
                break;
            }
        }
        let code = code.expect("a completion code");
        // As the demo's Prolific worker presents it (with their ids).
        let verify = |b: &Browser| {
            let req = b
                .client
                .get(format!("{}/api/verify_completion_code", server.base))
                .query(&[("code", code.as_str()), ("PROLIFIC_PID", "demo-prolific-worker"), ("SESSION_ID", "demo-session")]);
            async move { req.send().await.unwrap().json::<Value>().await.unwrap() }
        };
        let theirs = verify(org).await;
        assert_eq!((theirs["valid"].clone(), theirs["assignment"].clone(), theirs["campaign_name"].clone()), (json!(true), Value::Null, Value::Null), "{theirs}");
        let ours = verify(&own).await;
        assert_eq!(ours["assignment"], d.crowd.as_str(), "{ours}");
        // Nothing of theirs changed: the demo organizer still reads the key.
        assert_eq!(own.call("hit_items", &[("campaign_id", &campaign), ("hit_index", "0")]).await.body, key.body);
    }

    /// Listings show the caller's teams' work only: another team's organizer who imports a test
    /// set and makes a campaign on it sees those and none of the demo's on the campaigns page,
    /// in list_campaigns, list_test_sets, results_campaigns, list_assignments and the API's
    /// campaign list (by session and by token); the demo's organizer does not see theirs; the
    /// admin sees both. A campaign may use only its team's test sets.
    async fn listings_show_only_the_teams_work(server) {
        let d = demo(&server).await;
        let r = rivals(&server).await;
        let org = &r.organizer.0;
        let dir = tempfile::tempdir().unwrap();
        fixtures::write_wmt(dir.path(), "en-de", 20, &["Alpha", "Beta", "Gamma", "Delta"]);
        let set = fixtures::upload_test_set(org, dir.path(), "rival set").await.expect("the rival's import");
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        let draft = |test_set: i64| json!({ "draft": {
            "name": "Rival campaign", "task": "da-adequacy", "test_set_id": test_set, "systems": systems, "benchmark_systems": [systems[0]], "seed": 7,
            "settings": { "judgments_wanted": 18, "redundancy": 1, "target_language": "German" }
        }});
        let made = org.call_json("create_campaign", draft(set["id"].as_i64().unwrap())).await;
        assert_eq!(made.status, 200, "{}", made.body);
        let rival_campaign: i64 = made.body.trim().parse().unwrap();
        assert_eq!(org.call("launch_campaign", &[("campaign_id", &rival_campaign.to_string())]).await.status, 200);
        // Their campaign cannot use the demo's test set (refused as missing), nor can the demo's
        // organizer use theirs.
        let other = org.call_json("create_campaign", draft(d.test_set_id)).await;
        assert_eq!(other.status, 400, "{}", other.body);
        assert!(other.body.contains(&format!("there is no test set with id {}", d.test_set_id)), "{}", other.body);
        let own = browser_for(&server, Organizer).await;
        let theirs = own.call_json("create_campaign", draft(set["id"].as_i64().unwrap())).await;
        assert_eq!(theirs.status, 400, "{}", theirs.body);
        let admin = browser_for(&server, Admin).await;
        let names = |v: Value| v.as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
        for endpoint in ["list_campaigns", "results_campaigns", "list_test_sets"] {
            let rival = names(org.call(endpoint, &[]).await.json());
            let demo = names(own.call(endpoint, &[]).await.json());
            let all = names(admin.call(endpoint, &[]).await.json());
            let (rival_name, demo_name) = if endpoint == "list_test_sets" { ("rival set", "demo") } else { ("Rival campaign", "Demo: DA adequacy (de-en)") };
            assert_eq!(rival, vec![rival_name.to_string()], "{endpoint} for another team");
            assert!(demo.iter().any(|n| n == demo_name) && !demo.iter().any(|n| n == rival_name), "{endpoint} for the demo's organizer: {demo:?}");
            assert!(all.iter().any(|n| n == demo_name) && all.iter().any(|n| n == rival_name), "{endpoint} for the admin: {all:?}");
        }
        let researcher = names(r.researcher.0.call("results_campaigns", &[]).await.json());
        assert_eq!(researcher, vec!["Rival campaign".to_string()]);
        assert_eq!(org.call("list_assignments", &[]).await.json(), json!([]), "no HIT of the rival campaign was handed out yet");
        assert!(!own.call("list_assignments", &[]).await.json().as_array().unwrap().is_empty());
        // Pages: the campaigns page lists the team's campaigns only.
        let page = org.get("/campaigns").await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Rival campaign") && !page.body.contains("Demo: DA adequacy"), "the rival's campaigns page");
        let page = own.get("/campaigns").await;
        assert!(page.body.contains("Demo: DA adequacy") && !page.body.contains("Rival campaign"), "the demo organizer's campaigns page");
        // The API's list, by session and by token.
        let api = r.researcher.0.get("/api/v1/campaigns").await;
        assert_eq!(names(serde_json::from_str(&api.body).unwrap()), vec!["Rival campaign".to_string()]);
        let secret = own.call("create_api_token", &[("name", "own token")]).await.json()["secret"].as_str().unwrap().to_string();
        let listed: Value = reqwest::Client::new().get(format!("{}/api/v1/campaigns", server.base)).bearer_auth(&secret).send().await.unwrap().json().await.unwrap();
        assert!(!names(listed.clone()).contains(&"Rival campaign".to_string()) && names(listed).iter().any(|n| n.starts_with("Demo: ")));
        // The admin's teams: Everyone (the demo accounts) and Rivals (its two members).
        let teams = admin.call("list_teams", &[]).await.json();
        let rivals_team = teams.as_array().unwrap().iter().find(|t| t["id"] == r.team).unwrap();
        let mut members: Vec<i64> = rivals_team["members"].as_array().unwrap().iter().map(|m| m["user_id"].as_i64().unwrap()).collect();
        members.sort();
        let mut want = vec![r.researcher.1, r.organizer.1];
        want.sort();
        assert_eq!(members, want);
        // An import goes to one of the importer's teams: not to another (refused, nothing
        // stored), and an admin may put one in any team.
        let upload = |b: &Browser, name: &str, team: &str| {
            let dir = tempfile::tempdir().unwrap();
            fixtures::write_wmt(dir.path(), "en-de", 20, &["Alpha", "Beta"]);
            b.client
                .post(format!("{}/upload/import", server.base))
                .header("x-assay-file-name", format!("{name}.tar.gz"))
                .header("x-assay-test-set", name)
                .header("x-assay-pair", "en-de")
                .header("x-assay-team", team)
                .body(fixtures::tar_gz(dir.path()))
                .send()
        };
        let refused = upload(org, "into everyone", "1").await.unwrap();
        assert_eq!(refused.status().as_u16(), 400);
        assert!(refused.text().await.unwrap().contains("You are not in team 1"));
        assert!(!names(admin.call("list_test_sets", &[]).await.json()).contains(&"into everyone".to_string()));
        let placed = upload(&admin, "placed by the admin", &r.team.to_string()).await.unwrap();
        assert_eq!(placed.status().as_u16(), 200, "{}", placed.text().await.unwrap());
        let mut theirs = names(org.call("list_test_sets", &[]).await.json());
        theirs.sort();
        assert_eq!(theirs, vec!["placed by the admin".to_string(), "rival set".to_string()]);
        assert!(!names(own.call("list_test_sets", &[]).await.json()).contains(&"placed by the admin".to_string()));
        // Taking the rival organizer into Everyone too: they now see both teams' work.
        let add = admin.call("set_team_member", &[("team_id", "1"), ("user_id", &r.organizer.1.to_string()), ("member", "true")]).await;
        assert_eq!(add.status, 200);
        let both = names(org.call("list_campaigns", &[]).await.json());
        assert!(both.contains(&"Rival campaign".to_string()) && both.iter().any(|n| n.starts_with("Demo: ")), "{both:?}");
        assert_eq!(org.call("my_teams", &[]).await.json().as_array().unwrap().len(), 2);
    }
}
