//! The quality gate's cost at submission (issue 6, item 2): the time `campaign::gate::finish_hit`
//! takes for a worker with 10 finished HITs of 100 items (1,000 judgments) in a campaign where 30
//! workers did the same 10 HITs (30,000 judgments): read the worker's judgments, run the pooled
//! reliability test, store the verdict, give or hold the code. Each run is rolled back, so every
//! run sees the same database. Also the review page's data for that campaign (what the page
//! polls while it is open).
//!
//! Run by hand: `cargo bench -p app --features ssr --bench gate`. SQLite always; PostgreSQL too
//! when `ASSAY_TEST_POSTGRES_URL` names a server. `ASSAY_BENCH_RUNS` (default 200).
//! `ASSAY_BENCH_SEGMENTS` (default 700, the segments the HITs show): the test set's size, the
//! segments beyond 700 shown by no HIT (a WMT test set is 2,000 segments and more; the gate's
//! cost should not depend on it).

use std::time::Instant;

use app::db::{Backend, Db, connect};

const HITS: i64 = 10;
const WORKERS: i64 = 30;
const ITEMS: i64 = 100;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

async fn exec(db: &Db, sql: String) {
    sqlx::query(sqlx::AssertSqlSafe(sql.clone())).execute(&db.pool).await.unwrap_or_else(|e| panic!("{e}: {}", &sql[..sql.len().min(200)]));
}

/// A campaign of 10 HITs (the METHOD layout: 70 SYSTEM, 10 BAD_REF, 10 REPEAT, 10 REF), each
/// done by 30 workers; careful scores, bad references lower.
async fn seed(db: &Db, segments: i64) -> i64 {
    exec(db, "INSERT INTO test_sets (id, name, source_lang, target_lang, created_at) VALUES (1, 'bench', 'de', 'en', 0)".into()).await;
    let segs: Vec<String> = (1..=segments.max(700)).map(|s| format!("({s}, 1, {s}, '{s}', 'source {s}')")).collect();
    exec(db, format!("INSERT INTO segments (id, test_set_id, position, segment_key, source) VALUES {}", segs.join(", "))).await;
    exec(db, "INSERT INTO systems (id, name, name_key, created_at) VALUES (1, 'A', 'a', 0), (2, 'B', 'b', 0)".into()).await;
    exec(
        db,
        "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, status, created_at, gate, gate_unsure) \
         VALUES (1, 'bench', 'bench', 'da-adequacy', 1, '{}', 1, 'launched', 0, 'require-pass', 'hold')"
            .into(),
    )
    .await;
    let mut item_id = 0;
    for h in 0..HITS {
        let hit = h + 1;
        exec(db, format!("INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES ({hit}, 1, {h}, {ITEMS})")).await;
        let mut rows = Vec::new();
        for p in 0..ITEMS {
            item_id += 1;
            // Positions 0..70 SYSTEM (segment 70h + p); 70..80 BAD_REF of 0..10; 80..90 REPEAT of
            // 10..20; 90..100 REF of segments 20..30.
            let (t, seg, sys, pair) = match p {
                0..70 => ("SYSTEM", 70 * h + p + 1, format!("{}", 1 + p % 2), "NULL".to_string()),
                70..80 => ("BAD_REF", 70 * h + (p - 70) + 1, format!("{}", 1 + (p - 70) % 2), (p - 70).to_string()),
                80..90 => ("REPEAT", 70 * h + (p - 70) + 1, format!("{}", 1 + (p - 70) % 2), (p - 70).to_string()),
                _ => ("REF", 70 * h + (p - 70) + 1, "NULL".to_string(), (p - 70).to_string()),
            };
            rows.push(format!("({item_id}, {hit}, {p}, '{t}', {sys}, {seg}, {pair}, 'text')"));
        }
        exec(db, format!("INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES {}", rows.join(", "))).await;
    }
    let mut assignment = 0;
    for w in 1..=WORKERS {
        exec(db, format!("INSERT INTO workers (id, platform, external_id, created_at) VALUES ({w}, 'link', 'w{w}', 0)")).await;
        for h in 0..HITS {
            assignment += 1;
            exec(
                db,
                format!(
                    "INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, next_position, started_at, last_seen_at, completed_at) \
                     VALUES ({assignment}, 'a{assignment}', {}, {}, {w}, 'completed', {ITEMS}, 0, 0, 0)",
                    h + 1,
                    w - 1
                ),
            )
            .await;
            let rows: Vec<String> = (0..ITEMS)
                .map(|p| {
                    let item = h * ITEMS + p + 1;
                    let score = match p {
                        70..80 => 20.0 + ((w * 7 + p * 3) % 17) as f64,
                        90..100 => 95.0,
                        _ => 60.0 + ((w * 5 + p * 11) % 23) as f64,
                    };
                    format!("({assignment}, {item}, {score}, 0, {}, 4000)", p * 4000)
                })
                .collect();
            exec(
                db,
                format!(
                    "INSERT INTO judgments (assignment_id, hit_item_id, score, skipped, submitted_at, time_on_screen_ms) VALUES {}",
                    rows.join(", ")
                ),
            )
            .await;
        }
    }
    // The measured worker's last HIT.
    HITS
}

async fn measure(db: &Db, label: &str, runs: usize) {
    let segments = env_usize("ASSAY_BENCH_SEGMENTS", 700).max(700) as i64;
    let assignment = seed(db, segments).await;
    let secret = [7u8; 32];
    let mut times = Vec::with_capacity(runs);
    let mut inside = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut tx = db.pool.begin().await.expect("transaction");
        let t = Instant::now();
        let outcome = app::campaign::gate::finish_hit(&mut tx, &secret, assignment).await.expect("gate");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        inside.push(outcome.compute_us as f64 / 1000.0);
        assert_eq!(outcome.hits, HITS as usize);
        assert_eq!(outcome.reliability.n_pairs, (HITS * 10) as usize);
        tx.rollback().await.expect("rollback");
    }
    // The review page's data (quality control of all 30 workers, verdicts, decisions of its first
    // page of 50 rows), which the page polls every 5 s while it is open.
    let t = Instant::now();
    app::results::decisions::workers_page(db, 1, Default::default(), &Default::default()).await.expect("review page");
    let cold = t.elapsed().as_secs_f64() * 1000.0;
    let mut page = Vec::new();
    for _ in 0..runs.div_ceil(10) {
        let t = Instant::now();
        let view = app::results::decisions::workers_page(db, 1, Default::default(), &Default::default()).await.expect("review page");
        page.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(view.workers.len(), WORKERS as usize);
    }
    page.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    inside.sort_by(f64::total_cmp);
    let q = |v: &[f64], f: f64| v[((v.len() - 1) as f64 * f).round() as usize];
    println!(
        "{label}: gate for a worker with {HITS} HITs ({} judgments; campaign of {} judgments, test set of {segments} segments): median {:.2} ms, p90 {:.2} ms, best {:.2} ms (verdict computed in {:.2} ms median); {runs} runs",
        HITS * ITEMS,
        HITS * ITEMS * WORKERS,
        q(&times, 0.5),
        q(&times, 0.9),
        times[0],
        q(&inside, 0.5),
    );
    println!(
        "{label}: review page data for the whole campaign: first computation {cold:.1} ms; a poll with no new judgment: median {:.1} ms over {} runs",
        q(&page, 0.5),
        page.len()
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("gate benchmark: skipped (run it with `cargo bench -p app --features ssr --bench gate`)");
        return;
    }
    let runs = env_usize("ASSAY_BENCH_RUNS", 200).max(1);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = connect(&format!("sqlite://{}?mode=rwc", dir.path().join("bench.db").display())).await.expect("sqlite");
    assert_eq!(db.backend, Backend::Sqlite);
    measure(&db, "SQLite", runs).await;
    if let Ok(server) = std::env::var("ASSAY_TEST_POSTGRES_URL") {
        let url = format!("{}/assay_bench_gate_{}", server.trim_end_matches('/'), std::process::id());
        let db = connect(&url).await.expect("postgres");
        measure(&db, "PostgreSQL", runs).await;
        db.pool.close().await;
        use sqlx::migrate::MigrateDatabase;
        let _ = sqlx::Any::drop_database(&url).await;
    }
}
