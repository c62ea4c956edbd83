use super::assignment::*;
use super::error::*;
use super::items::*;
use super::practice::*;
use super::queue::*;
use super::state::*;
use super::submit::*;
use super::validation::*;
use crate::db::Db;
use sqlx::Row;
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::protocol;

fn rules(task: &str, settings: &str) -> Rules {
    Rules::of(&Loaded {
        id: 1,
        public_id: "p".into(),
        owner: None,
        worker_id: 1,
        campaign_id: 1,
        hit_id: 1,
        status: AssignmentStatus::Active,
        platform_params: None,
        next_position: 0,
        item_shown_at: Some(1),
        completion_code: None,
        code_held: false,
        total: 50,
        task: TaskKind::parse(task).expect("a task"),
        settings: settings.into(),
        reference_name: None,
        source_lang: "de".into(),
        target_lang: "en".into(),
    })
}

fn answer(score: Option<f64>, score2: Option<f64>, skipped: bool) -> Answer {
    Answer { position: 3, score, score2, skipped, time_on_screen_ms: 1000, active_ms: None, idempotency_key: "k".into(), detail: protocol::Detail::default() }
}

#[test]
fn answers_are_checked_against_the_task() {
    let da = rules("da-fluency", "{}");
    assert_eq!(validate(&da, &answer(Some(12.345678), None, false)), Ok((Some(12.345678), None)));
    assert_eq!(validate(&da, &answer(Some(0.0), None, false)), Ok((Some(0.0), None)));
    assert_eq!(validate(&da, &answer(Some(100.0), None, false)), Ok((Some(100.0), None)));
    for bad in [-0.001, 100.001, f64::NAN, f64::INFINITY] {
        assert!(matches!(validate(&da, &answer(Some(bad), None, false)), Err(WorkError::Invalid(_))), "{bad}");
    }
    assert!(validate(&da, &answer(None, None, true)).is_err(), "no skipping unless the campaign allows it");

    let boxes = rules("word-order", "{}");
    assert_eq!(validate(&boxes, &answer(Some(0.25), Some(1.0), false)), Ok((Some(0.25), Some(1.0))));
    assert!(validate(&boxes, &answer(Some(0.3), Some(1.0), false)).is_err());
    assert!(validate(&boxes, &answer(Some(0.25), None, false)).is_err());

    let sliders = rules("word-order", r#"{"woj_scale":"sliders","allow_skip":true}"#);
    assert_eq!(validate(&sliders, &answer(Some(0.3333), Some(0.9), false)), Ok((Some(0.3333), Some(0.9))));
    assert!(validate(&sliders, &answer(Some(1.5), Some(0.9), false)).is_err());
    assert_eq!(validate(&sliders, &answer(None, None, true)), Ok((None, None)));
    assert!(validate(&sliders, &answer(Some(0.5), None, true)).is_err(), "a skip carries no answer");

    let mut late = answer(Some(50.0), None, false);
    late.position = 50;
    assert!(validate(&da, &late).is_err());
    let mut slow = answer(Some(50.0), None, false);
    slow.time_on_screen_ms = MAX_TIME_ON_SCREEN_MS + 1;
    assert!(validate(&da, &slow).is_err());
    // Active time: at most the time on screen.
    for (active, ok) in [(Some(0), true), (Some(1000), true), (None, true), (Some(1001), false), (Some(-1), false)] {
        let a = Answer { active_ms: active, ..answer(Some(50.0), None, false) };
        assert_eq!(validate(&da, &a).is_ok(), ok, "{active:?}");
    }
}

// -----------------------------------------------------------------------------------------
// Storing answers, on SQLite and PostgreSQL

const SECRET: &[u8] = b"unit test secret";

/// The demo work (its crowd assignment: DA, 100 items, no account) in a fresh database.
async fn demo(db: &Db) -> crate::annotate::fixture::DemoWork {
    let user = crate::auth::server::create_user(db, "org@example.org", "Org", "a long enough password 1", crate::auth::Role::Organizer)
        .await
        .unwrap();
    crate::annotate::fixture::seed_demo_work(db, user.id).await.unwrap()
}

fn da(position: i64, score: f64, key: &str) -> Answer {
    Answer { position, score: Some(score), score2: None, skipped: false, time_on_screen_ms: 900, active_ms: Some(600), idempotency_key: key.into(), detail: protocol::Detail::default() }
}

/// (position, score, key, shown_at) of every judgment of an assignment, in order.
async fn judgments(db: &Db, public_id: &str) -> Vec<(i64, Option<f64>, String, Option<i64>)> {
    sqlx::query(
        "SELECT hi.position, j.score, j.idempotency_key, j.shown_at FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id \
         JOIN assignments a ON a.id = j.assignment_id WHERE a.public_id = $1 ORDER BY hi.position",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get("position"), r.get("score"), r.get("idempotency_key"), r.get("shown_at")))
    .collect()
}

async fn assignment_row(db: &Db, public_id: &str) -> (i64, i64, i64, Option<i64>) {
    let r = sqlx::query("SELECT id, worker_id, next_position, item_shown_at FROM assignments WHERE public_id = $1")
        .bind(public_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    (r.get("id"), r.get("worker_id"), r.get("next_position"), r.get("item_shown_at"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_are_stored_once_and_in_order_whatever_the_cache_holds() {
    for (db, _dir) in crate::campaign::tests::databases().await {
        let demo = demo(&db).await;
        let a = demo.crowd_assignment.as_str();
        let work = Work::default();
        let submit = |answer: Answer| {
            let (db, work) = (&db, &work);
            async move { submit(db, work, SECRET, None, a, &answer).await }
        };
        assert!(matches!(submit(da(0, 50.0, "early")).await, Err(WorkError::Conflict(_))), "{:?}: before Start", db.backend);
        start(&db, &work, SECRET, None, a).await.unwrap();
        assert!(work.assignment(a).is_some(), "Start keeps the assignment's fixed facts");

        let first = submit(da(0, 61.5, "k0")).await.unwrap();
        assert_eq!((first.answered, first.item.as_ref().map(|i| i.position)), (1, Some(1)));
        assert_eq!(submit(da(0, 61.5, "k0")).await.unwrap(), first, "a retry gets the same step");
        assert!(matches!(submit(da(0, 10.0, "k0")).await, Err(WorkError::Conflict(_))), "an answer cannot change");
        assert!(matches!(submit(da(3, 10.0, "k3")).await, Err(WorkError::Conflict(_))), "no skipping ahead");

        // Four different answers to item 2 at once: exactly one is stored.
        let (p, q, r, s) = tokio::join!(submit(da(1, 1.0, "r1")), submit(da(1, 2.0, "r2")), submit(da(1, 3.0, "r3")), submit(da(1, 4.0, "r4")));
        let outcomes = [p, q, r, s];
        assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{:?}: {outcomes:?}", db.backend);
        assert!(outcomes.iter().all(|o| o.is_ok() || matches!(o, Err(WorkError::Conflict(_)))), "{outcomes:?}");

        // What can change is read from the database, never from the cache: a blocked worker
        // is refused and an expired assignment is gone, and nothing is stored for either.
        let (id, worker, position, _) = assignment_row(&db, a).await;
        assert_eq!(position, 2);
        crate::campaign::assign::set_blocked(&db, worker, true).await.unwrap();
        assert!(matches!(submit(da(2, 70.0, "blocked")).await, Err(WorkError::Gone(_))));
        crate::campaign::assign::set_blocked(&db, worker, false).await.unwrap();
        sqlx::query("UPDATE assignments SET status = 'expired' WHERE id = $1").bind(id).execute(&db.writer).await.unwrap();
        assert!(matches!(submit(da(2, 70.0, "expired")).await, Err(WorkError::Gone(_))));
        sqlx::query("UPDATE assignments SET status = 'active' WHERE id = $1").bind(id).execute(&db.writer).await.unwrap();
        let third = submit(da(2, 70.0, "k2")).await.unwrap();
        assert_eq!(third.answered, 3);

        let stored = judgments(&db, a).await;
        assert_eq!(stored.iter().map(|j| j.0).collect::<Vec<_>>(), vec![0, 1, 2], "{:?}", db.backend);
        assert_eq!((stored[0].1, stored[0].2.as_str(), stored[2].1, stored[2].2.as_str()), (Some(61.5), "k0", Some(70.0), "k2"));
        // Each judgment carries the time its item was shown: when the one before was stored.
        assert!(stored.windows(2).all(|w| w[0].3 <= w[1].3), "{stored:?}");

        // A cold cache (another server, or a restart) gives the same answers.
        let fresh = Work::default();
        assert_eq!(super::submit(&db, &fresh, SECRET, None, a, &da(2, 70.0, "k2")).await.unwrap(), third);
        assert_eq!(super::submit(&db, &fresh, SECRET, None, a, &da(3, 5.0, "k3")).await.unwrap().answered, 4);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn practice_comes_first_is_checked_by_the_server_and_is_never_a_judgment() {
    use crate::campaign::tests::{count, draft, import_folder, organizer};
    for (db, _dir) in crate::campaign::tests::databases().await {
        let set = import_folder(&db, "wmt-p", 40, &["Alpha", "Beta"]).await.test_sets[0].id;
        let uid = organizer(&db).await;
        let systems: Vec<i64> = sqlx::query_scalar("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap();
        let mut d = draft(set, systems.clone(), "da-adequacy", 70, 2);
        d.settings.practice_items = 4;
        d.settings.practice_pass = 5;
        let e = crate::campaign::launch::create_campaign(&db, &d, uid).await.unwrap_err().to_string();
        assert!(e.contains("cannot be more than the practice items (4)"), "{e}");
        d.settings.practice_pass = 3;
        // An en-de test set: the interface would be German; this test reads the English.
        d.settings.interface_language = "en".into();
        let id = crate::campaign::launch::create_campaign(&db, &d, uid).await.unwrap();
        crate::campaign::launch::launch_campaign(&db, id).await.unwrap();

        // Four practice items, high and low in turn, from segments no HIT shows.
        let rows: Vec<(i64, i64, String, String)> = sqlx::query_as(
            "SELECT segment_id, expect_high, candidate, reason FROM practice_items WHERE campaign_id = $1 ORDER BY position",
        )
        .bind(id)
        .fetch_all(&db.pool)
        .await
        .unwrap();
        assert_eq!(rows.iter().map(|r| r.1).collect::<Vec<_>>(), [1, 0, 1, 0], "{:?}", db.backend);
        let in_hits: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT hi.segment_id FROM hit_items hi JOIN hits h ON h.id = hi.hit_id WHERE h.campaign_id = $1")
            .bind(id)
            .fetch_all(&db.pool)
            .await
            .unwrap();
        assert!(!in_hits.is_empty() && rows.iter().all(|r| !in_hits.contains(&r.0)), "practice segments are set apart from the HITs");
        assert!(rows[1].3.starts_with("part of the meaning is missing"), "{}", rows[1].3);

        let worker = crate::campaign::assign::crowd_worker(&db, crate::campaign::assign::Platform::Link, "learner").await.unwrap();
        let a = crate::campaign::assign::next_assignment(&db, id, worker, None).await.unwrap().unwrap().public_id;
        let work = Work::default();
        let state = work_state(&db, &work, SECRET, None, &a).await.unwrap();
        let p = state.practice.clone().expect("the practice");
        assert_eq!((p.total, p.required, p.position, p.round, p.passed), (4, 3, 0, 1, false));
        assert_eq!(p.item.as_ref().map(|i| i.candidate.as_str()), Some(rows[0].2.as_str()));

        // The server starts no HIT, and takes no answer, before the practice is passed.
        assert!(matches!(start(&db, &work, SECRET, None, &a).await, Err(WorkError::Conflict(m)) if m.contains("practice")));
        assert!(matches!(submit(&db, &work, SECRET, None, &a, &da(0, 50.0, "k")).await, Err(WorkError::Conflict(_))));
        // Bad practice answers change nothing.
        assert!(matches!(practice_answer(&db, None, &a, 1, Some(50.0), None).await, Err(WorkError::Conflict(_))));
        assert!(matches!(practice_answer(&db, None, &a, 0, Some(150.0), None).await, Err(WorkError::Invalid(_))));
        assert!(matches!(practice_answer(&db, None, &a, 0, None, None).await, Err(WorkError::Invalid(_))));
        assert_eq!(work_state(&db, &work, SECRET, None, &a).await.unwrap().practice, Some(p));

        // A round with every answer the wrong way round starts over.
        for (k, high) in [true, false, true, false].into_iter().enumerate() {
            let f = practice_answer(&db, None, &a, k as i64, Some(if high { 10.0 } else { 90.0 }), None).await.unwrap();
            assert!(!f.in_range);
            let expected = if high { "A careful reader would score this high (towards “strongly agree”) because it is a human translation" } else { "A careful reader would score this low (towards “strongly disagree”) because part of the meaning is missing" };
            assert!(f.message.starts_with(expected), "{}", f.message);
            assert!(!f.yours.chars().any(|c| c.is_ascii_digit()), "no number: {}", f.yours);
            assert_eq!(f.round_result.is_some(), k == 3);
        }
        let p = work_state(&db, &work, SECRET, None, &a).await.unwrap().practice.unwrap();
        assert_eq!((p.position, p.round, p.passed), (0, 2, false), "{:?}", db.backend);
        // Three of four in range pass.
        for (k, score) in [95.0, 10.0, 30.0, 5.0].into_iter().enumerate() {
            let f = practice_answer(&db, None, &a, k as i64, Some(score), None).await.unwrap();
            assert_eq!(f.in_range, k != 2);
            if k == 3 {
                assert!(f.practice.passed && f.round_result.unwrap().starts_with("Practice done: 3 of 4"));
            }
        }
        assert!(matches!(practice_answer(&db, None, &a, 0, Some(95.0), None).await, Err(WorkError::Conflict(_))), "passed once");
        assert_eq!(count(&db, "judgments").await, 0, "practice answers are never judgments");
        let first = start(&db, &work, SECRET, None, &a).await.unwrap();
        assert_eq!(first.item.as_ref().map(|i| i.position), Some(0));
        assert!(work_state(&db, &work, SECRET, None, &a).await.unwrap().practice.is_none(), "a started HIT shows no practice");
        submit(&db, &work, SECRET, None, &a, &da(0, 50.0, "k0")).await.unwrap();
        assert_eq!(count(&db, "judgments").await, 1);
        let active: Option<i64> = sqlx::query_scalar("SELECT active_ms FROM judgments").fetch_one(&db.pool).await.unwrap();
        assert_eq!(active, Some(600), "the active time is stored with the judgment");

        // The worker's next HIT of the campaign does not repeat the practice.
        sqlx::query("UPDATE assignments SET status = 'completed' WHERE public_id = $1").bind(&a).execute(&db.writer).await.unwrap();
        let b = crate::campaign::assign::next_assignment(&db, id, worker, None).await.unwrap().unwrap().public_id;
        assert_ne!(a, b);
        assert!(work_state(&db, &work, SECRET, None, &b).await.unwrap().practice.unwrap().passed);
        start(&db, &work, SECRET, None, &b).await.unwrap();

        // Ranking has practice (issue 38 row 15): screens of an original and its copy, stored
        // with the order shown and the original's place, segments set apart from the HITs.
        let mut r = draft(set, systems, "ranking", 100, 1);
        r.settings.practice_items = 2;
        r.settings.ranking.outputs = 2;
        let id = crate::campaign::launch::create_campaign(&db, &r, uid).await.unwrap();
        crate::campaign::launch::launch_campaign(&db, id).await.unwrap();
        let rows: Vec<(i64, String, Option<String>, Option<i64>)> =
            sqlx::query_as("SELECT segment_id, candidate, others, original_at FROM practice_items WHERE campaign_id = $1 ORDER BY position")
                .bind(id)
                .fetch_all(&db.pool)
                .await
                .unwrap();
        assert_eq!(rows.len(), 2, "{:?}", db.backend);
        for (segment, first, others, original) in rows {
            let others: Vec<String> = serde_json::from_str(others.as_deref().unwrap()).unwrap();
            let original = original.unwrap() as usize;
            assert!(others.len() == 1 && original <= 1);
            let references: Vec<String> =
                sqlx::query_scalar("SELECT text FROM segment_references WHERE segment_id = $1").bind(segment).fetch_all(&db.pool).await.unwrap();
            let shown = [first, others[0].clone()];
            assert!(references.contains(&shown[original]) && !references.contains(&shown[1 - original]), "{shown:?} {references:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_of_answers_is_committed_together_and_each_fails_alone() {
    let (db, _dir) = crate::campaign::tests::databases().await.swap_remove(0);
    assert_eq!(db.backend, crate::db::Backend::Sqlite);
    let demo = demo(&db).await;
    let a = demo.crowd_assignment.as_str();
    start(&db, &Work::default(), SECRET, None, a).await.unwrap();
    let (id, _, _, shown) = assignment_row(&db, a).await;
    let items: Vec<i64> = sqlx::query("SELECT hi.id FROM hit_items hi JOIN assignments a ON a.hit_id = hi.hit_id WHERE a.id = $1 ORDER BY hi.position")
        .bind(id)
        .fetch_all(&db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get("id"))
        .collect();
    let queued = |position: i64, hit_item_id: i64, key: &str, now: i64| QueuedAnswer {
        assignment: id,
        hit_item_id,
        answer: Answer { time_on_screen_ms: 700, ..da(position, position as f64 + 0.5, key) },
        score: Some(position as f64 + 0.5),
        score2: None,
        now,
    };
    let group = [
        queued(0, items[0], "a", 1_000),
        queued(0, items[0], "again", 2_000), // item 1 is no longer the current one
        queued(5, items[5], "ahead", 3_000), // not the current one either
        queued(1, -1, "broken", 4_000),      // no such HIT item: the insert fails
        queued(1, items[1], "b", 5_000),
    ];
    let results = store_group(&db.writer, group.iter()).await;
    assert_eq!(results[..3], [Ok(true), Ok(false), Ok(false)]);
    assert!(matches!(&results[3], Err(e) if e.to_string().contains("FOREIGN KEY")), "{:?}", results[3]);
    assert_eq!(results[4], Ok(true));
    // The failed answer left nothing behind: not its position, not its time.
    let stored = judgments(&db, a).await;
    assert_eq!(stored, vec![(0, Some(0.5), "a".to_string(), shown), (1, Some(1.5), "b".to_string(), Some(1_000))]);
    let (_, _, position, shown_now) = assignment_row(&db, a).await;
    assert_eq!((position, shown_now), (2, Some(5_000)));
}
