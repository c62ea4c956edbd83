//! The quality gate out of the write transaction (issue 36 item 4), driven through the
//! annotation server on SQLite and PostgreSQL. Here, not beside `campaign::gate`, because the
//! tests answer HITs through `annotate` (which imports `campaign`, not the other way round).

use crate::analysis::quality::Verdict;
use crate::campaign::gate::*;
use crate::campaign::{GateMode, GateUnsure, QualityGate};
use crate::db::Db;
use crate::signing::completion_code;
use crate::annotate::server::{Answer, Work, start, submit, work_state};
use crate::campaign::assign::{Platform, crowd_worker, next_assignment};
use crate::campaign::launch::{create_campaign, launch_campaign};
use crate::campaign::tests::{databases, draft, import_folder, organizer};
use sqlx::Row;

const SECRET: &[u8] = b"gate test secret";

/// A DA campaign with the gate on (a pass needed, not enough evidence held), launched: two
/// HITs of 100 items, three slots each. Returns (campaign, HIT ids).
async fn gated_campaign(db: &Db) -> (i64, Vec<i64>) {
    let imported = import_folder(db, "gate-set", 40, &["Alpha", "Beta"]).await;
    let uid = organizer(db).await;
    let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
        .iter().map(|r| r.get("id")).collect();
    let mut d = draft(imported.test_sets[0].id, systems, "da-adequacy", 70, 3);
    d.gate = QualityGate { mode: GateMode::RequirePass, unsure: GateUnsure::Hold };
    let campaign = create_campaign(db, &d, uid).await.unwrap();
    assert_eq!(launch_campaign(db, campaign).await.unwrap().hits, 2);
    let hits: Vec<i64> = sqlx::query("SELECT id FROM hits WHERE campaign_id = $1 ORDER BY id").bind(campaign)
        .fetch_all(&db.pool).await.unwrap().iter().map(|r| r.get("id")).collect();
    (campaign, hits)
}

/// A worker's assignment on `hit` (made directly: a worker holds one HIT at a time when
/// handed out, but may hold two across sessions), started. Returns (id, public id).
async fn assignment_on(db: &Db, worker: i64, hit: i64, slot: i64, tag: &str) -> (i64, String) {
    let public_id = format!("gate-{tag}-{hit}-{slot}");
    let id: i64 = sqlx::query(
        "INSERT INTO assignments (public_id, hit_id, slot, worker_id, status, next_position, started_at, last_seen_at) \
         VALUES ($1, $2, $3, $4, 'active', 0, 0, 0) RETURNING id",
    )
    .bind(&public_id).bind(hit).bind(slot).bind(worker)
    .fetch_one(&db.pool).await.unwrap().get("id");
    start(db, &Work::default(), SECRET, None, &public_id).await.unwrap();
    (id, public_id)
}

/// The answer a careful worker (bad references low, the rest high) or a random clicker
/// gives to item `position` of type `kind`.
fn answer(position: i64, kind: &str, careful: bool, salt: i64) -> Answer {
    let jitter = ((position * 37 + salt * 11) % 17) as f64;
    let score = if !careful {
        ((position * 7919 + salt * 104_729) % 101) as f64
    } else if kind == "BAD_REF" {
        10.0 + jitter
    } else {
        70.0 + jitter
    };
    Answer {
        position,
        score: Some(score),
        score2: None,
        skipped: false,
        time_on_screen_ms: 4_000,
        active_ms: Some(3_000),
        idempotency_key: format!("k{salt}-{position}"),
        detail: Default::default(),
    }
}

/// Answers the items of an assignment from `from` to `to` (exclusive).
async fn answer_items(db: &Db, work: &Work, public_id: &str, hit: i64, careful: bool, salt: i64, from: i64, to: i64) {
    let kinds: Vec<String> = sqlx::query("SELECT item_type FROM hit_items WHERE hit_id = $1 ORDER BY position").bind(hit)
        .fetch_all(&db.pool).await.unwrap().iter().map(|r| r.get("item_type")).collect();
    for p in from..to {
        submit(db, work, SECRET, None, public_id, &answer(p, &kinds[p as usize], careful, salt)).await.unwrap();
    }
}

/// (verdict, hits, n_pairs) of every stored verdict of a worker, oldest first.
async fn verdicts(db: &Db, worker: i64) -> Vec<(String, i64, i64)> {
    sqlx::query("SELECT verdict, hits, n_pairs FROM worker_verdicts WHERE worker_id = $1 ORDER BY id").bind(worker)
        .fetch_all(&db.pool).await.unwrap().iter().map(|r| (r.get("verdict"), r.get("hits"), r.get("n_pairs"))).collect()
}

/// (status, code held, code) of an assignment.
async fn code_of(db: &Db, id: i64) -> (String, i64, Option<String>) {
    let r = sqlx::query("SELECT status, code_held, completion_code FROM assignments WHERE id = $1").bind(id).fetch_one(&db.pool).await.unwrap();
    (r.get("status"), r.get("code_held"), r.get("completion_code"))
}

async fn judgments_of_worker(db: &Db, worker: i64) -> i64 {
    sqlx::query("SELECT COUNT(*) AS n FROM judgments j JOIN assignments a ON a.id = j.assignment_id WHERE a.worker_id = $1").bind(worker)
        .fetch_one(&db.pool).await.unwrap().get("n")
}

/// A verdict computed before another of the worker's judgments is committed is not stored:
/// the gate reads again, so the worker's latest verdict is over all their judgments; and
/// the last answers of two HITs of one worker at the same moment are both stored, both
/// HITs decided, the latest verdict over both.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_verdict_read_before_a_later_judgment_is_read_again() {
    for (db, _dir) in databases().await {
        let (_campaign, hits) = gated_campaign(&db).await;
        let work = Work::default();
        let worker = crowd_worker(&db, Platform::Link, "careful").await.unwrap();
        let (a1, p1) = assignment_on(&db, worker, hits[0], 0, "c").await;
        let (_, p2) = assignment_on(&db, worker, hits[1], 0, "c").await;
        answer_items(&db, &work, &p1, hits[0], true, 1, 0, 100).await;
        assert_eq!(verdicts(&db, worker).await, vec![("pass".to_string(), 1, 10)]);
        let (status, held, code) = code_of(&db, a1).await;
        assert_eq!((status.as_str(), held, code), ("completed", 0, Some(completion_code(SECRET, &p1))));

        // The gate's reading for the first HIT, then the second HIT's last answer.
        let stale = read(&db, a1).await.unwrap();
        answer_items(&db, &work, &p2, hits[1], true, 2, 0, 100).await;
        assert_eq!(verdicts(&db, worker).await.last(), Some(&("pass".to_string(), 2, 20)));
        let before = verdicts(&db, worker).await.len();
        assert_eq!(write(&db, SECRET, &stale).await.unwrap(), None, "a verdict over fewer judgments than stored is not written");
        assert_eq!(verdicts(&db, worker).await.len(), before);
        // Deciding again reads the second HIT's judgments too.
        let outcome = decide(&db, SECRET, a1).await.unwrap();
        assert_eq!((outcome.hits, outcome.reliability.n_pairs, outcome.code.clone()), (2, 20, Some(completion_code(SECRET, &p1))));
        assert_eq!(verdicts(&db, worker).await.last(), Some(&("pass".to_string(), 2, 20)));

        // Two HITs of another worker, their last answers at the same moment.
        let other = crowd_worker(&db, Platform::Link, "twice").await.unwrap();
        let (b1, q1) = assignment_on(&db, other, hits[0], 1, "t").await;
        let (b2, q2) = assignment_on(&db, other, hits[1], 1, "t").await;
        answer_items(&db, &work, &q1, hits[0], true, 3, 0, 99).await;
        answer_items(&db, &work, &q2, hits[1], true, 4, 0, 99).await;
        tokio::join!(
            answer_items(&db, &work, &q1, hits[0], true, 3, 99, 100),
            answer_items(&db, &work, &q2, hits[1], true, 4, 99, 100)
        );
        assert_eq!(judgments_of_worker(&db, other).await, 200, "every acknowledged judgment is stored");
        let stored = verdicts(&db, other).await;
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert_eq!(stored.last(), Some(&("pass".to_string(), 2, 20)), "the latest verdict is over both HITs: {stored:?}");
        assert_eq!(code_of(&db, b1).await, ("completed".to_string(), 0, Some(completion_code(SECRET, &q1))));
        assert_eq!(code_of(&db, b2).await, ("completed".to_string(), 0, Some(completion_code(SECRET, &q2))));
    }
}

/// A random clicker's HIT is held; an organizer's release between the gate's reading and
/// its write stands (the code stays given, the failing verdict is stored); a finished HIT
/// whose decision was never stored is decided at the next look at it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_release_between_reading_and_writing_stands_and_an_undecided_hit_is_decided_later() {
    for (db, _dir) in databases().await {
        let (campaign, hits) = gated_campaign(&db).await;
        let work = Work::default();
        let worker = crowd_worker(&db, Platform::Link, "random").await.unwrap();
        let given = next_assignment(&db, campaign, worker, None).await.unwrap().unwrap();
        start(&db, &work, SECRET, None, &given.public_id).await.unwrap();
        answer_items(&db, &work, &given.public_id, given.hit_id, false, 5, 0, 100).await;
        assert_eq!(verdicts(&db, worker).await.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["fail"]);
        assert_eq!(code_of(&db, given.id).await, ("completed".to_string(), 1, None), "the gate holds a random clicker's code");
        let state = work_state(&db, &work, SECRET, None, &given.public_id).await.unwrap();
        assert!(state.step.completion.is_some_and(|c| c.code.is_none()), "the worker sees no code");

        // Read, then the organizer approves (releasing the code), then the write.
        let reading = read(&db, given.id).await.unwrap();
        let mut tx = db.writer.begin().await.unwrap();
        assert_eq!(release_held(&mut tx, SECRET, campaign, worker).await.unwrap(), 1);
        tx.commit().await.unwrap();
        let outcome = write(&db, SECRET, &reading).await.unwrap().expect("no judgment came in between");
        let code = Some(completion_code(SECRET, &given.public_id));
        assert_eq!((outcome.reliability.verdict, outcome.code.clone()), (Verdict::Fail, code.clone()));
        assert_eq!(code_of(&db, given.id).await, ("completed".to_string(), 0, code.clone()), "the release stands");
        assert_eq!(verdicts(&db, worker).await.len(), 2);

        // The server stopped after the last answer's commit: held, no verdict for the HIT.
        let careful = crowd_worker(&db, Platform::Link, "careful-late").await.unwrap();
        let (id, public_id) = assignment_on(&db, careful, hits[1], 2, "l").await;
        answer_items(&db, &work, &public_id, hits[1], true, 6, 0, 100).await;
        sqlx::query("DELETE FROM worker_verdicts WHERE assignment_id = $1").bind(id).execute(&db.writer).await.unwrap();
        sqlx::query("UPDATE assignments SET code_held = 1, completion_code = NULL WHERE id = $1").bind(id).execute(&db.writer).await.unwrap();
        assert!(undecided(&db, id).await.unwrap());
        assert!(!undecided(&db, given.id).await.unwrap(), "a released code is decided");
        let state = work_state(&db, &work, SECRET, None, &public_id).await.unwrap();
        assert_eq!(state.step.completion.and_then(|c| c.code), Some(completion_code(SECRET, &public_id)));
        assert_eq!(verdicts(&db, careful).await, vec![("pass".to_string(), 1, 10)]);
        assert!(!undecided(&db, id).await.unwrap());
    }
}
