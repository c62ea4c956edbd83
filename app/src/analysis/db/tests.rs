use super::*;
use super::query::{JUDGMENT_COLUMN_COUNT, JUDGMENTS_BY_ID, by_id_range, raw_judgment};
use super::readers::{HitRange, hit_ranges, open_sqlite, read_sqlite};
use crate::analysis::sqlite_rows::RawStatement;
use crate::analysis::TimeBasis;
use crate::error::AppError;
use crate::model::ItemType;
use super::stream::TEXT_BLOCK;
use crate::db::Db;
use crate::error::AppResult;
use crate::model::TaskKind;
use assay_core::protocol::word_order::{WORD_ORDER_Q1, WORD_ORDER_Q2};
use tokio_stream::StreamExt;

/// A small campaign: test set with three segments (keys out of alphabetical order), two
/// systems, one HIT done by two workers; a skipped judgment and an unscored one.
const SETUP: &[&str] = &[
    "INSERT INTO test_sets (id, name, source_lang, target_lang, year, created_at) VALUES (1, 'nt2026', 'de', 'en', 2026, 0)",
    "INSERT INTO segments (id, test_set_id, position, segment_key, source) VALUES (1, 1, 1, 'b', 'x'), (2, 1, 2, 'a', 'y'), (3, 1, 3, 'c', 'z')",
    "INSERT INTO systems (id, name, name_key, created_at) VALUES (1, 'SysA', 'sysa', 0), (2, 'SysB', 'sysb', 0)",
    "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, created_at) VALUES (7, 'pub7', 'c', 'da-adequacy', 1, '{}', 1, 0)",
    "INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES (1, 7, 0, 5)",
    "INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES \
        (1, 1, 0, 'SYSTEM', 1, 1, 3, 't'), (2, 1, 1, 'SYSTEM', 2, 2, 4, 't'), (3, 1, 2, 'SYSTEM', 2, 1, NULL, 't'), \
        (4, 1, 3, 'BAD_REF', 1, 1, 0, 't'), (5, 1, 4, 'REF', NULL, 2, 1, 't')",
    "INSERT INTO workers (id, platform, external_id, created_at) VALUES (1, 'mturk', 'A1', 0), (2, 'prolific', 'P9', 0)",
    "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) VALUES \
        (1, 'a1', 1, 0, 1, 'completed', 0, 0), (2, 'a2', 1, 1, 2, 'active', 0, 0)",
    "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms, active_ms) VALUES \
        (10, 1, 1, 80.5, 0, 1000, 5000, 3500, NULL), (11, 1, 2, 60, 0, 6000, 9000, NULL, 99000), (12, 1, 3, 70, 0, NULL, 9500, NULL, 5000), \
        (13, 1, 4, 20, 0, NULL, 9600, 1200, NULL), (14, 1, 5, 95, 0, NULL, 9700, 800, NULL), \
        (20, 2, 1, 55, 0, NULL, 1, 100, NULL), (21, 2, 2, NULL, 1, NULL, 2, 100, NULL), (22, 2, 3, 40, 0, NULL, 3, NULL, NULL)",
];

async fn check(db: &Db) {
    for sql in SETUP {
        sqlx::query(sqlx::AssertSqlSafe(*sql)).execute(&db.pool).await.expect(sql);
    }
    {
        let (info, set) = load_campaign(db, 7).await.expect("load");
        assert_eq!((info.name.as_str(), info.test_set.as_str()), ("c", "nt2026"));
        assert_eq!(set.records.len(), 7);
        assert_eq!(set.segments.names(), ["b", "a", "c"], "test-set order");
        assert_eq!(set.workers.names(), ["mturk:A1", "prolific:P9"]);
        assert_eq!(set.tasks.names(), ["da-adequacy"]);
        assert_eq!(set.lang_pairs.names(), ["de-en"]);
        assert_eq!(set.time_basis, TimeBasis::PerItem);
        let r = &set.records;
        assert_eq!((set.systems.name(r[0].system), set.segments.name(r[0].segment)), ("SysA", "b"));
        // The server's 5000 − 1000 ms, not the browser's 3500.
        assert_eq!((r[0].score, r[0].seconds, r[0].item_type), (80.5, 4.0, ItemType::System));
        // No time on screen: submitted − shown; neither: 0. An active time longer than the
        // server's (11) or without the server's (12) counts for nothing.
        assert_eq!((r[1].seconds, r[2].seconds), (3.0, 0.0));
        assert_eq!(r[3].item_type, ItemType::BadRef);
        // The REF item takes the system of its pair (position 1: SysB).
        assert_eq!((r[4].item_type, set.systems.name(r[4].system)), (ItemType::Ref, "SysB"));
        // The skipped judgment is left out.
        assert_eq!(r[5..].iter().map(|j| j.score).collect::<Vec<_>>(), [55.0, 40.0]);
        assert_eq!(set.workers.name(r[6].worker), "prolific:P9");
        assert_eq!(set.hits.name(r[6].hit), "0");
    }
    // One worker's judgments, as the quality gate reads them: the same records.
    {
        let mut conn = db.pool.acquire().await.unwrap();
        let one = load_worker(&mut conn, 7, 2).await.expect("load worker");
        assert_eq!(one.workers.names(), ["prolific:P9"]);
        assert_eq!(one.records.iter().map(|j| j.score).collect::<Vec<_>>(), [55.0, 40.0]);
        assert_eq!(one.systems.name(one.records[1].system), "SysB");
        // Every stored judgment streams, skipped ones too, in id order when asked.
        let all: Vec<StoredJudgment> = {
            let rows = std::pin::pin!(judgments(&mut conn, 7, Scope::Campaign, true));
            rows.collect::<Vec<_>>().await.into_iter().collect::<AppResult<_>>().unwrap()
        };
        assert_eq!(all.iter().map(|j| j.id).collect::<Vec<_>>(), [10, 11, 12, 13, 14, 20, 21, 22]);
        assert_eq!((all[6].skipped, all[6].score, all[4].system, all[4].position), (true, None, Some(2), 4));
        // The campaign as the analysis reads it (SQLite: rusqlite, in parts; PostgreSQL: its
        // own driver, in parts): the same judgments.
        assert_eq!(db.postgres.is_some(), db.backend == crate::db::Backend::Postgres, "PostgreSQL's own driver for the big reads");
        let read = read_campaign_judgments(db, &mut conn, 7).await.expect("read");
        assert_eq!(read.by_id().into_iter().cloned().collect::<Vec<_>>(), all, "{:?}", db.backend);
    }
    // Named by test set (a study arm's shape).
    {
        let mut conn = db.pool.acquire().await.unwrap();
        let names = StoredNames::read(&mut conn, 7, Scope::Campaign).await.unwrap();
        let rows = read_judgments(&mut conn, 7, Scope::Campaign).await.unwrap();
        let shape = SetShape { task: TaskKind::DaAdequacy, lang_pair: "de-en".into(), by_test_set: true };
        let by = judgment_set(&rows, &names, &shape).unwrap();
        assert_eq!(by.segments.names(), ["nt2026:b", "nt2026:a", "nt2026:c"]);
        assert_eq!(by.systems.name(by.records[0].system), "SysA @ nt2026");
        assert_eq!(by.systems.name(by.records[4].system), "SysB @ nt2026");
    }
    // An active time shorter than the server's time is the item's time (issue 18, item 4).
    sqlx::query("UPDATE judgments SET active_ms = 2500 WHERE id = 10").execute(&db.pool).await.unwrap();
    assert_eq!(load_campaign(db, 7).await.unwrap().1.records[0].seconds, 2.5);
    let e = load_campaign(db, 8).await.unwrap_err();
    assert_eq!(e.to_string(), "there is no campaign with id 8");

    // The same campaign as a word-order campaign: each judgment gives one record per
    // question, in two tasks; a judgment without its second answer is an error.
    sqlx::query("UPDATE campaigns SET task = 'word-order' WHERE id = 7").execute(&db.pool).await.unwrap();
    sqlx::query("UPDATE judgments SET score2 = score / 100.0 WHERE score IS NOT NULL").execute(&db.pool).await.unwrap();
    let (_, set) = load_campaign(db, 7).await.expect("load word order");
    assert_eq!(set.tasks.names(), [WORD_ORDER_Q1, WORD_ORDER_Q2]);
    assert_eq!(set.records.len(), 14);
    let (q1, q2): (Vec<&crate::analysis::Judgment>, Vec<_>) = set.records.iter().partition(|r| set.tasks.name(r.task.into()) == WORD_ORDER_Q1);
    assert_eq!(q1.iter().map(|r| r.score).collect::<Vec<_>>(), [80.5, 60.0, 70.0, 20.0, 95.0, 55.0, 40.0]);
    assert_eq!(q2.iter().map(|r| r.score).collect::<Vec<_>>(), [0.805, 0.6, 0.7, 0.2, 0.95, 0.55, 0.4]);
    assert!(q1.iter().zip(&q2).all(|(a, b)| (a.worker, a.system, a.segment, a.item_type) == (b.worker, b.system, b.segment, b.item_type)));
    sqlx::query("UPDATE judgments SET score2 = NULL WHERE id = 11").execute(&db.pool).await.unwrap();
    assert_eq!(load_campaign(db, 7).await.unwrap_err().to_string(), "judgment 11: a word-order judgment without its second answer");
}

/// What a million judgments read cost in memory: 144 MB (176 MB with 64-bit positions).
#[test]
fn a_stored_judgment_takes_144_bytes() {
    assert_eq!(std::mem::size_of::<StoredJudgment>(), 144);
}

#[test]
fn hits_are_split_by_the_judgments_they_hold() {
    let r = |first, last, most| HitRange { first, last, most };
    let even = [(1, 100), (2, 100), (3, 100), (4, 100)];
    assert_eq!(hit_ranges(&even, 2), [r(1, 2, 200), r(3, 4, 200)]);
    assert_eq!(hit_ranges(&even, 1), [r(1, 4, 400)]);
    assert_eq!(hit_ranges(&even, 4), [r(1, 1, 100), r(2, 2, 100), r(3, 3, 100), r(4, 4, 100)]);
    // Never more parts than asked for, nor than HITs; a part is never empty.
    assert_eq!(hit_ranges(&even, 3), [r(1, 2, 200), r(3, 4, 200)]);
    assert_eq!(hit_ranges(&[(5, 10)], 4), [r(5, 5, 10)]);
    assert_eq!(hit_ranges(&[], 2), []);
    // A big HIT is a part of its own; HITs without assignments join their neighbours.
    assert_eq!(hit_ranges(&[(1, 0), (2, 500), (3, 10), (4, 0)], 2), [r(1, 2, 500), r(3, 4, 10)]);
    assert_eq!(hit_ranges(&[(1, 0), (2, 0)], 2), [r(1, 2, 0)]);
}

/// A fresh database on the PostgreSQL server `ASSAY_TEST_POSTGRES_URL` names, and its URL, for
/// the PostgreSQL variants of these tests; `None` (said on stderr) when it names none.
async fn postgres_test_db(name: &str) -> Option<(Db, String)> {
    let Ok(server) = std::env::var("ASSAY_TEST_POSTGRES_URL") else {
        eprintln!("skipped: set ASSAY_TEST_POSTGRES_URL to run the PostgreSQL variant");
        return None;
    };
    let url = format!("{}/assay_unit_{name}_{}_{}", server.trim_end_matches('/'), std::process::id(), crate::db::now_ms());
    Some((crate::db::connect(&url).await.expect("postgres"), url))
}

/// Parts in id order are merged; a part out of order is sorted with the others.
#[test]
fn judgments_read_in_parts_come_back_in_id_order() {
    let j = |id: i64| StoredJudgment {
        id,
        assignment: 1,
        worker: 1,
        slot: 0,
        hit_index: 0,
        position: 0,
        item_type: ItemType::System,
        system: Some(1),
        segment: 1,
        score: Some(50.0),
        score2: None,
        skipped: false,
        submitted_at_ms: 0,
        time_on_screen_ms: None,
        ms: 0,
        screen: None,
        gold_rank: None,
    };
    let ids = |parts: &[&[i64]]| {
        let read = CampaignJudgments { parts: parts.iter().map(|p| p.iter().copied().map(j).collect()).collect() };
        read.by_id().into_iter().map(|j| j.id).collect::<Vec<_>>()
    };
    assert_eq!(ids(&[&[1, 4, 5, 9], &[2, 3, 10], &[6]]), [1, 2, 3, 4, 5, 6, 9, 10]);
    assert_eq!(ids(&[&[1, 2], &[5, 9], &[], &[10]]), [1, 2, 5, 9, 10]);
    assert_eq!(ids(&[&[5, 9], &[1, 2]]), [1, 2, 5, 9]);
    assert_eq!(ids(&[&[1, 5, 4, 9], &[2, 3, 10]]), [1, 2, 3, 4, 5, 9, 10]);
    assert_eq!(ids(&[&[], &[7, 8]]), [7, 8]);
    assert_eq!(ids(&[]), Vec::<i64>::new());
}

/// The campaign read in parts side by side (SQLite) is the campaign read by one query: the
/// same judgments in id order, when the ids of the HITs' judgments interleave.
#[tokio::test]
async fn a_campaign_read_in_parts_is_the_campaign() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.db");
    let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", path.display())).await.expect("sqlite");
    for sql in SETUP.iter().copied().chain([
        "INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES (2, 7, 1, 2), (3, 7, 2, 2), (4, 7, 3, 2)",
        "INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES \
            (6, 2, 0, 'SYSTEM', 1, 2, NULL, 't'), (7, 2, 1, 'SYSTEM', 2, 3, NULL, 't'), \
            (8, 3, 0, 'SYSTEM', 2, 2, NULL, 't'), (9, 3, 1, 'REF', NULL, 3, 0, 't'), (10, 4, 0, 'SYSTEM', 1, 1, NULL, 't')",
        "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) VALUES \
            (3, 'a3', 2, 0, 1, 'completed', 0, 0), (4, 'a4', 3, 0, 2, 'completed', 0, 0), (5, 'a5', 4, 0, 1, 'active', 0, 0)",
        "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES \
            (15, 3, 6, 33, 0, NULL, 10, 5), (16, 4, 8, 44, 0, NULL, 11, 5), (30, 3, 7, 35, 0, NULL, 12, 5), (31, 4, 9, 90, 0, NULL, 13, 5), \
            (2, 5, 10, NULL, 1, NULL, 1, NULL)",
    ]) {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&db.pool).await.expect(sql);
    }
    let mut conn = db.pool.acquire().await.unwrap();
    let one = read_judgments(&mut conn, 7, Scope::Campaign).await.unwrap();
    assert_eq!(one.iter().map(|j| j.id).collect::<Vec<_>>(), [2, 10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 30, 31]);
    // The REF item of HIT 3 takes its pair's system.
    assert_eq!(one.iter().find(|j| j.id == 31).and_then(|j| j.system), Some(2));
    for parts in 1..=4 {
        let read = read_sqlite(&path, 7, parts).unwrap();
        assert!((1..=parts).contains(&read.parts.len()), "{parts} parts: {}", read.parts.len());
        assert_eq!(read.by_id().into_iter().cloned().collect::<Vec<_>>(), one, "{parts} parts");
        assert_eq!((read.len(), read.by_id().last().map(|j| j.id)), (13, Some(31)));
    }
    // The exports' read in id order: sorted after the join while the campaign's 13
    // judgments are under half of their id range (2..=31); the judgments table read in id
    // order once they are half of it. Both give the one query's rows.
    let streamed = || {
        let mut out = Vec::new();
        each_sqlite_judgment(&path, 7, true, |j| {
            out.push(j);
            true
        })
        .unwrap();
        out
    };
    let conn = open_sqlite(&path, 7).unwrap();
    assert_eq!(by_id_range(&conn, 7).unwrap(), None);
    assert_eq!(streamed(), one);
    let mut stmt = RawStatement::prepare(&conn, JUDGMENTS_BY_ID, JUDGMENT_COLUMN_COUNT).unwrap();
    let mut by_id: Vec<StoredJudgment> = Vec::new();
    // Twice through the one statement: the second run starts again from the first row.
    for _ in 0..2 {
        by_id.clear();
        stmt.start(&[7, 2, 31]).unwrap();
        while stmt.step().unwrap() {
            by_id.push(raw_judgment(&stmt, 7).unwrap());
        }
        assert_eq!(by_id, one);
    }
    drop(stmt);
    assert!(RawStatement::prepare(&conn, "SELECT 1, 2", JUDGMENT_COLUMN_COUNT).is_err_and(|e| e.to_string().contains("2 columns")));
    let e = RawStatement::prepare(&conn, "SELECT x FROM nowhere", 1).err().map(|e| e.to_string());
    assert!(e.as_deref().is_some_and(|e| e.contains("nowhere")), "{e:?}");
    // Judgments of another campaign inside the range are left out.
    for sql in [
        "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, created_at) VALUES (8, 'pub8', 'other', 'da-adequacy', 1, '{}', 1, 0)",
        "INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES (9, 8, 0, 1)",
        "INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES (90, 9, 0, 'SYSTEM', 1, 1, NULL, 't')",
        "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) VALUES (9, 'a9', 9, 0, 1, 'completed', 0, 0)",
        "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES (17, 9, 90, 50, 0, NULL, 1, 1)",
        "DELETE FROM judgments WHERE id IN (2, 30, 31)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&db.pool).await.expect(sql);
    }
    let one = read_judgments(&mut db.pool.acquire().await.unwrap(), 7, Scope::Campaign).await.unwrap();
    assert_eq!(one.len(), 10);
    assert_eq!(by_id_range(&conn, 7).unwrap(), Some((10, 22)), "10 judgments of the 13 ids 10..=22");
    assert_eq!(streamed(), one);

    // The version of the set read is that of the stored judgments.
    let loaded = load_campaign_with_blocks(&db, 7, true).await.unwrap();
    assert_eq!(loaded.version, (10, 22));
    assert_eq!(loaded.set.records.len(), 9, "scored and not skipped");
}

/// Campaign 7: 500 HITs, 39,200 judgments with ids 1..=40,000: every 50th id belongs to
/// campaign 8's HIT, interleaved. Returns the text of [`id_line`] for campaign 7.
async fn fill_many(db: &Db) -> String {
    for sql in SETUP[..4].iter().copied().chain([
        "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, created_at) VALUES (8, 'pub8', 'other', 'da-adequacy', 1, '{}', 1, 0)",
        "INSERT INTO workers (id, platform, external_id, created_at) VALUES (1, 'mturk', 'A1', 0)",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 501) \
            INSERT INTO hits (id, campaign_id, hit_index, item_count) SELECT i, CASE WHEN i = 501 THEN 8 ELSE 7 END, i, 80 FROM n",
        "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) \
            SELECT id, 'a' || id, id, 0, 1, 'completed', 0, 0 FROM hits",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40000) \
            INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) \
            SELECT i, CASE WHEN i % 50 = 0 THEN 501 ELSE (i - 1) / 80 + 1 END, i, 'SYSTEM', 1 + i % 2, 1 + i % 3, NULL, 't' FROM n",
        "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) \
            SELECT hi.id, hi.hit_id, hi.id, hi.id % 100, 0, NULL, hi.id, 5 FROM hit_items hi",
    ]) {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&db.pool).await.expect(sql);
    }
    (1..=40_000).filter(|i| i % 50 != 0).map(|i| format!("{i}\n")).collect()
}

fn id_line(text: &mut String, j: StoredJudgment) -> AppResult<()> {
    text.push_str(&j.id.to_string());
    text.push('\n');
    Ok(())
}

/// The exports' text, read by several connections side by side, is that of one ordered
/// pass: every judgment once, in id order, another campaign's left out; stopping early stops
/// it; a failure in a late block is the result.
#[tokio::test]
async fn judgment_text_made_side_by_side_is_in_id_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.db");
    let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", path.display())).await.expect("sqlite");
    let expected = fill_many(&db).await;
    assert!(expected.lines().count() > 3 * TEXT_BLOCK, "several blocks");
    let line = id_line;
    for threads in 1..=4 {
        let mut out = String::new();
        let mut pieces = 0;
        sqlite_text_in_order(&path, 7, None, threads, 1000, line, |t| {
            pieces += 1;
            out.push_str(&t);
            true
        })
        .unwrap();
        assert!(out == expected, "{threads} threads: {} lines", out.lines().count());
        assert!(pieces > 100, "{threads} threads: {pieces} pieces");
    }
    // What the analysis knew (a count it had, the first id), not counted again: the same
    // text, with the judgments stored since (campaign 7's, another's between them).
    sqlx::query(
        "INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) \
         VALUES (40001, 1, 40001, 'SYSTEM', 1, 1, NULL, 't'), (40002, 501, 40002, 'SYSTEM', 1, 1, NULL, 't'), (40003, 2, 40003, 'SYSTEM', 1, 1, NULL, 't')",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) \
         SELECT id, hit_id, id, 1, 0, NULL, id, 5 FROM hit_items WHERE id > 40000",
    )
    .execute(&db.pool)
    .await
    .unwrap();
    let later = format!("{expected}40001\n40003\n");
    for known in [KnownJudgments { count: 39_200, first: 1 }, KnownJudgments { count: 20_001, first: 1 }] {
        for threads in [1, 2, 3] {
            let mut out = String::new();
            sqlite_text_in_order(&path, 7, Some(known), threads, 1000, line, |t| {
                out.push_str(&t);
                true
            })
            .unwrap();
            assert!(out == later, "{known:?}, {threads} threads: {} lines", out.lines().count());
        }
    }
    // Stopped after three pieces: nothing more comes, and the readers end.
    for threads in [1, 2] {
        let mut pieces = 0;
        sqlite_text_in_order(&path, 7, None, threads, 1000, line, |_| {
            pieces += 1;
            pieces < 3
        })
        .unwrap();
        assert_eq!(pieces, 3, "{threads} threads");
    }
    // A judgment that cannot be written, in the fourth block: its error, whatever the
    // threads.
    for threads in [1, 2, 3] {
        let e = sqlite_text_in_order(
            &path,
            7,
            None,
            threads,
            1000,
            |text: &mut String, j: StoredJudgment| {
                if j.id == 30_001 {
                    return Err(AppError::internal("judgment 30001: unknown worker 9"));
                }
                line(text, j)
            },
            |_| true,
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "judgment 30001: unknown worker 9", "{threads} threads");
    }
}

/// The same on PostgreSQL (when `ASSAY_TEST_POSTGRES_URL` names a server): in id order on
/// several connections, on one when the pool has no other free, stopped by a closed channel,
/// a late failure the result.
#[tokio::test]
async fn judgment_text_made_side_by_side_is_in_id_order_on_postgres() {
    let Some((db, url)) = postgres_test_db("text").await else { return };
    let expected = fill_many(&db).await;
    let pg = db.postgres.clone().expect("PostgreSQL's own pool");
    let text = |threads: usize| {
        let pg = pg.clone();
        async move {
            let (tx, mut rx) = tokio::sync::mpsc::channel(4);
            let writer = tokio::spawn(async move { pg_text_in_order(&pg, 7, threads, 1000, std::sync::Arc::new(id_line), &tx).await });
            let mut out = Vec::new();
            let mut pieces = 0;
            while let Some(piece) = rx.recv().await {
                out.extend(piece.unwrap());
                pieces += 1;
            }
            writer.await.unwrap().unwrap();
            (String::from_utf8(out).unwrap(), pieces)
        }
    };
    for threads in [1, 2, 3] {
        let (out, pieces) = text(threads).await;
        assert!(out == expected, "{threads} threads: {} lines", out.lines().count());
        assert!(pieces > 100, "{threads} threads: {pieces} pieces");
    }
    // Every other connection of the pool busy: one reader, the same text.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(pg.acquire().await.unwrap());
    }
    assert!(text(4).await.0 == expected, "one free connection");
    drop(held);
    // A closed channel stops it (no error, nothing more sent).
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    drop(rx);
    pg_text_in_order(&pg, 7, 2, 1000, std::sync::Arc::new(id_line), &tx).await.unwrap();
    // A judgment that cannot be written, in the fourth block.
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let drain = tokio::spawn(async move { while rx.recv().await.is_some() {} });
    let e = pg_text_in_order(
        &pg,
        7,
        2,
        1000,
        std::sync::Arc::new(|text: &mut String, j: StoredJudgment| {
            if j.id == 30_001 {
                return Err(AppError::internal("judgment 30001: unknown worker 9"));
            }
            id_line(text, j)
        }),
        &tx,
    )
    .await
    .unwrap_err();
    assert_eq!(e.to_string(), "judgment 30001: unknown worker 9");
    drop(tx);
    drain.await.unwrap();
    db.pool.close().await;
    pg.close().await;
    use sqlx::migrate::MigrateDatabase;
    let _ = sqlx::Any::drop_database(&url).await;
}

#[tokio::test]
async fn loads_a_campaign_from_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display()))
        .await
        .expect("sqlite");
    check(&db).await;
}

/// A test set of 40 segments in four documents, two HITs of the same campaign, a worker in
/// the second, and a system no HIT shows.
const ONE_WORKER: &[&str] = &[
    "INSERT INTO test_sets (id, name, source_lang, target_lang, year, created_at) VALUES (1, 'nt', 'de', 'en', 2026, 0)",
    "INSERT INTO systems (id, name, name_key, created_at) VALUES (1, 'SysA', 'sysa', 0), (2, 'SysB', 'sysb', 0), (3, 'Unused', 'unused', 0)",
    "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, created_at) VALUES (7, 'pub7', 'c', 'da-adequacy', 1, '{}', 1, 0)",
    "INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES (1, 7, 0, 2), (2, 7, 1, 4)",
    // HIT 2: segment 33 (document d3, its third), 14 and 12 (d1), and a REF item of 33.
    "INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES \
        (1, 1, 0, 'SYSTEM', 1, 1, NULL, 't'), (2, 1, 1, 'SYSTEM', 2, 2, NULL, 't'), \
        (3, 2, 0, 'SYSTEM', 2, 33, NULL, 't'), (4, 2, 1, 'SYSTEM', 1, 14, NULL, 't'), (5, 2, 2, 'SYSTEM', 1, 12, NULL, 't'), (6, 2, 3, 'REF', NULL, 33, 0, 't')",
    "INSERT INTO workers (id, platform, external_id, created_at) VALUES (1, 'mturk', 'A1', 0), (2, 'prolific', 'P9', 0)",
    "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) VALUES \
        (1, 'a1', 1, 0, 1, 'completed', 0, 0), (2, 'a2', 2, 0, 2, 'active', 0, 0)",
    "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES \
        (1, 1, 1, 50, 0, NULL, 1, 100), (2, 2, 3, 70, 0, NULL, 2, 100), (3, 2, 4, 60, 0, NULL, 3, 100), (4, 2, 6, 90, 0, NULL, 4, 100)",
];

/// The quality gate's read of one worker's names (at the end of every HIT) holds the
/// segments and systems of that worker's HITs, not every segment of the test set, each named
/// as the whole campaign's read names it, in the same order, and the gate's set from them has
/// the worker's records. (Before, it read all 40 segments and every system.)
async fn check_one_worker(db: &Db) {
    let mut setup: Vec<String> = ONE_WORKER.iter().map(|s| s.to_string()).collect();
    // Segments 1-40, documents of 10 in reverse key order, with a blank document in d0.
    let segments: Vec<String> = (1..=40)
        .map(|i| {
            let document = if i == 5 { "'  '".to_string() } else { format!("'d{}'", (i - 1) / 10) };
            format!("({i}, 1, {i}, 'k{}', {document}, 'src {i}')", 100 - i)
        })
        .collect();
    setup.insert(1, format!("INSERT INTO segments (id, test_set_id, position, segment_key, document, source) VALUES {}", segments.join(", ")));
    for sql in &setup {
        sqlx::query(sqlx::AssertSqlSafe(sql.as_str())).execute(&db.pool).await.expect(sql);
    }
    let mut conn = db.pool.acquire().await.unwrap();
    let all = StoredNames::read(&mut conn, 7, Scope::Campaign).await.unwrap();
    let one = StoredNames::read(&mut conn, 7, Scope::Worker(2)).await.unwrap();
    assert_eq!(all.segments.len(), 40);
    assert_eq!(one.test_set_order, [12, 14, 33], "the worker's HIT's segments, in test-set order");
    assert_eq!(one.segments.len(), 3);
    // Named as in the whole campaign's read; their places in their documents are not read.
    for id in [12, 14, 33] {
        assert_eq!(one.segments[&id], SegmentName { doc_index: None, ..all.segments[&id].clone() }, "segment {id}");
    }
    assert_eq!((all.segments[&33].doc_index, all.segments[&14].doc_index, one.segments[&33].key.as_str()), (Some(3), Some(4), "k67"));
    let mut systems: Vec<(i64, String)> = one.systems.iter().map(|(id, name)| (*id, name.clone())).collect();
    systems.sort();
    assert_eq!(systems, [(1, "SysA".to_string()), (2, "SysB".to_string())]);
    assert_eq!(one.workers.len(), 1);
    // The gate's set: the same records as the whole campaign's set gives for the worker.
    let set = load_worker(&mut conn, 7, 2).await.unwrap();
    assert_eq!(set.segments.names(), ["k88", "k86", "k67"]);
    let names: Vec<(&str, &str, f64)> =
        set.records.iter().map(|r| (set.systems.name(r.system), set.segments.name(r.segment), r.score)).collect();
    assert_eq!(names, [("SysB", "k67", 70.0), ("SysA", "k86", 60.0), ("SysB", "k67", 90.0)]);
}

#[tokio::test]
async fn one_workers_names_are_those_of_their_hits_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display())).await.expect("sqlite");
    check_one_worker(&db).await;
}

/// Runs when `ASSAY_TEST_POSTGRES_URL` names a PostgreSQL server.
#[tokio::test]
async fn one_workers_names_are_those_of_their_hits_on_postgres() {
    let Some((db, url)) = postgres_test_db("names").await else { return };
    check_one_worker(&db).await;
    db.pool.close().await;
    if let Some(pg) = &db.postgres {
        pg.close().await;
    }
    use sqlx::migrate::MigrateDatabase;
    let _ = sqlx::Any::drop_database(&url).await;
}

/// Runs when `ASSAY_TEST_POSTGRES_URL` names a PostgreSQL server (as for the integration tests).
#[tokio::test]
async fn loads_a_campaign_from_postgres() {
    let Some((db, url)) = postgres_test_db("load").await else { return };
    check(&db).await;
    db.pool.close().await;
    if let Some(pg) = &db.postgres {
        pg.close().await;
    }
    use sqlx::migrate::MigrateDatabase;
    let _ = sqlx::Any::drop_database(&url).await;
}

/// PostgreSQL's table version (when `ASSAY_TEST_POSTGRES_URL` names a server) is the table's
/// count and largest id, with most of the count kept from an earlier check
/// (`campaign::SettledMark`); a judgment committed late with a smaller id than the largest
/// (PostgreSQL hands out ids before commit) changes it.
#[tokio::test]
async fn the_table_version_on_postgres_counts_every_judgment() {
    let Some((db, _)) = postgres_test_db("version").await else { return };
    fill_many(&db).await;
    let full = || async {
        let r: (i64, i64) = sqlx::query_as("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM judgments").fetch_one(&db.pool).await.unwrap();
        r
    };
    let version = |settle: i64| crate::analysis::campaign::pg_table_version(&db, settle);
    let minute = 60_000;
    assert_eq!(version(minute).await.unwrap(), full().await, "the first check counts everything");
    // Settled at once: the count below the largest id is kept, the rest counted.
    assert_eq!(version(0).await.unwrap(), full().await);
    let add = |item: i64, judgment: i64| {
        let db = db.clone();
        async move {
            for sql in [
                format!("INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES ({item}, 1, {item}, 'SYSTEM', 1, 1, NULL, 't')"),
                format!("INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES ({judgment}, 1, {item}, 50, 0, NULL, 1, 5)"),
            ] {
                sqlx::query(sqlx::AssertSqlSafe(sql.clone())).execute(&db.pool).await.expect(&sql);
            }
        }
    };
    add(50_001, 50_010).await;
    let after_one = version(minute).await.unwrap();
    assert_eq!(after_one, full().await);
    // A late commit: a smaller id than the largest, above the mark.
    add(50_002, 50_005).await;
    let late = version(minute).await.unwrap();
    assert_eq!(late, full().await);
    assert_eq!((late.0 - after_one.0, late.1), (1, after_one.1), "one more judgment, the same largest id");
    // The mark moves again and the version stays the table's.
    assert_eq!(version(0).await.unwrap(), full().await);
    assert_eq!(version(0).await.unwrap(), full().await);
}
