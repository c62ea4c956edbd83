//! Reading a campaign's judgments from the database into the pipeline's [`JudgmentSet`].
//!
//! One row per judgment: judgments ⨝ hit_items ⨝ assignments ⨝ workers ⨝ hits ⨝ campaigns,
//! with the item's system and segment (and the test set for the language pair). Decisions:
//! - **Worker** names are `platform:external_id` (unique by the schema).
//! - **HIT** names are `hit_index` (the pipeline groups by worker, then HIT, so a HIT done by
//!   several workers is several groups, as in Graham's files).
//! - **System** of a REF item (no `system_id`): the system of its paired item, as Graham's QC
//!   items copy their partner's system id; `REF` if it has no pair.
//! - **Segments** are interned in test-set order first (every segment of the test set), so the
//!   interner's order is the test-set order the mt-metrics-eval `.seg.score` files need.
//! - **Seconds** per item ([`TimeBasis::PerItem`]): `time_on_screen_ms`, else
//!   `submitted_at − shown_at`, else 0.
//! - Skipped judgments and judgments without a score are left out.
//! - **Word-order** judgments answer two questions (METHOD §1): each becomes a record of its own
//!   task, [`WORD_ORDER_Q1`] (how hard the meaning is to grasp, `score`) and [`WORD_ORDER_Q2`]
//!   (how much the order alone clouds it, `score2`), so quality control, z-scores and system
//!   scores are computed per question, as for two DA tasks.
//!
//! Rows are read in pages of [`PAGE`] by judgment id (keyset paging), so memory holds one page
//! of rows besides the compact records.

use sqlx::Row;

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{ItemType, TaskKind};
use assay_core::protocol;

use super::{JudgmentNames, JudgmentSet, TimeBasis};

/// "first", "second", … for the questions of a protocol.
fn ordinal(i: usize) -> &'static str {
    ["first", "second", "third", "fourth"].get(i).copied().unwrap_or("next")
}

/// Rows per query.
pub const PAGE: i64 = 20_000;

pub use crate::model::{WORD_ORDER_Q1, WORD_ORDER_Q2};

/// What the database says about a campaign, besides its judgments.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CampaignInfo {
    pub id: i64,
    pub name: String,
    pub task: String,
    pub test_set: String,
    pub source_lang: String,
    pub target_lang: String,
}

/// The campaign's description; an unknown campaign is [`AppError::NotFound`].
pub async fn campaign_info(db: &Db, campaign_id: i64) -> AppResult<CampaignInfo> {
    let row = sqlx::query(
        "SELECT c.name, c.task, t.name AS test_set, t.source_lang, t.target_lang \
         FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("reading campaign {campaign_id}"))?
    .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let get = |col: &str| -> AppResult<String> {
        row.try_get::<String, _>(col).with_context(|| format!("reading the {col} of campaign {campaign_id}"))
    };
    Ok(CampaignInfo {
        id: campaign_id,
        name: get("name")?,
        task: get("task")?,
        test_set: get("test_set")?,
        source_lang: get("source_lang")?,
        target_lang: get("target_lang")?,
    })
}

/// Every scored judgment of campaign `campaign_id` as the pipeline's records. An unknown
/// campaign is an error; a campaign without judgments gives an empty set.
pub async fn load_campaign(db: &Db, campaign_id: i64) -> Result<JudgmentSet, String> {
    load_campaign_paged(db, campaign_id, PAGE, false).await
}

/// [`load_campaign`] for a campaign whose HITs mix test sets (a comparison study, METHOD §7):
/// a system is named `system @ test set` and a segment `test set:key`, so that a benchmark
/// system judged on two test sets is scored on each separately. Quality control and z-scores
/// still pool all of a worker's judgments in the campaign.
pub async fn load_campaign_by_test_set(db: &Db, campaign_id: i64) -> Result<JudgmentSet, String> {
    load_campaign_paged(db, campaign_id, PAGE, true).await
}

async fn load_campaign_paged(db: &Db, campaign_id: i64, page: i64, by_test_set: bool) -> Result<JudgmentSet, String> {
    let info = campaign_info(db, campaign_id).await.map_err(AppError::into_message)?;
    let task = TaskKind::parse(&info.task)
        .ok_or_else(|| format!("campaign {campaign_id} has a task this version of Assay does not know: {:?}", info.task))?;
    let questions = protocol::for_task(task).questions();
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let lang_pair = format!("{}-{}", info.source_lang, info.target_lang);

    // Test-set order first.
    let segments = sqlx::query(
        "SELECT s.segment_key, t.name AS test_set FROM segments s JOIN campaigns c ON c.test_set_id = s.test_set_id \
         JOIN test_sets t ON t.id = s.test_set_id WHERE c.id = $1 ORDER BY s.position",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .map_err(|e| format!("cannot read the segments of campaign {campaign_id}: {e}"))?;
    for row in &segments {
        let key: String = row
            .try_get("segment_key")
            .map_err(|e| format!("cannot read a segment key: {e}"))?;
        if by_test_set {
            let t: String = row.try_get("test_set").map_err(|e| format!("cannot read a test set name: {e}"))?;
            set.segments.intern(&format!("{t}:{key}"));
        } else {
            set.segments.intern(&key);
        }
    }

    let mut after: i64 = i64::MIN;
    loop {
        let rows = sqlx::query(
            "SELECT j.id AS judgment_id, \
                    w.platform, w.external_id, \
                    h.hit_index, \
                    hi.item_type, \
                    COALESCE(s.name, ps.name, 'REF') AS system_name, \
                    seg.segment_key, ts.name AS test_set, \
                    CAST(j.score AS DOUBLE PRECISION) AS score, \
                    CAST(j.score2 AS DOUBLE PRECISION) AS score2, \
                    COALESCE(j.time_on_screen_ms, j.submitted_at - j.shown_at, 0) AS ms \
             FROM judgments j \
             JOIN hit_items hi ON hi.id = j.hit_item_id \
             JOIN assignments a ON a.id = j.assignment_id \
             JOIN workers w ON w.id = a.worker_id \
             JOIN hits h ON h.id = hi.hit_id \
             JOIN segments seg ON seg.id = hi.segment_id \
             JOIN test_sets ts ON ts.id = seg.test_set_id \
             LEFT JOIN systems s ON s.id = hi.system_id \
             LEFT JOIN hit_items p ON p.hit_id = hi.hit_id AND p.position = hi.paired_position \
             LEFT JOIN systems ps ON ps.id = p.system_id \
             WHERE h.campaign_id = $1 AND j.id > $2 AND j.skipped = 0 AND j.score IS NOT NULL \
             ORDER BY j.id \
             LIMIT $3",
        )
        .bind(campaign_id)
        .bind(after)
        .bind(page)
        .fetch_all(&db.pool)
        .await
        .map_err(|e| format!("cannot read the judgments of campaign {campaign_id}: {e}"))?;
        let n = rows.len();
        for row in rows {
            let id: i64 = row
                .try_get("judgment_id")
                .map_err(|e| format!("cannot read a judgment id: {e}"))?;
            let bad = |col: &str, e: sqlx::Error| format!("judgment {id}: cannot read {col}: {e}");
            let platform: String = row.try_get("platform").map_err(|e| bad("platform", e))?;
            let external: String = row.try_get("external_id").map_err(|e| bad("external_id", e))?;
            let hit_index: i64 = row.try_get("hit_index").map_err(|e| bad("hit_index", e))?;
            let item_type: String = row.try_get("item_type").map_err(|e| bad("item_type", e))?;
            let mut system: String = row.try_get("system_name").map_err(|e| bad("system", e))?;
            let mut segment: String = row.try_get("segment_key").map_err(|e| bad("segment", e))?;
            if by_test_set {
                let t: String = row.try_get("test_set").map_err(|e| bad("test set", e))?;
                system = format!("{system} @ {t}");
                segment = format!("{t}:{segment}");
            }
            let score: f64 = row.try_get("score").map_err(|e| bad("score", e))?;
            let ms: i64 = row.try_get("ms").map_err(|e| bad("time", e))?;
            let item_type = ItemType::parse(&item_type)
                .ok_or_else(|| format!("judgment {id}: unknown item type {item_type:?}"))?;
            if !score.is_finite() {
                return Err(format!("judgment {id}: the score is not a finite number"));
            }
            let score2: Option<f64> = row.try_get("score2").map_err(|e| bad("score2", e))?;
            let worker = format!("{platform}:{external}");
            let hit = hit_index.to_string();
            let seconds = (ms.max(0) as f64 / 1000.0) as f32;
            let mut push = |task: &str, score: f64| {
                set.push(
                    JudgmentNames {
                        worker: &worker,
                        hit: &hit,
                        system: &system,
                        segment: &segment,
                        lang_pair: &lang_pair,
                        task,
                    },
                    item_type,
                    score,
                    seconds,
                )
            };
            // One record per question of the task's protocol (word order: two).
            let answer = protocol::Answer { score: Some(score), score2, ..Default::default() };
            for (i, question) in questions.iter().enumerate() {
                let which = if i == 0 { "score" } else { "second score" };
                match (question.read)(&answer) {
                    Some(v) if v.is_finite() => push(question.task_name(task), v),
                    Some(_) => return Err(format!("judgment {id}: the {which} is not a finite number")),
                    None => {
                        return Err(format!("judgment {id}: a {} judgment without its {} answer", task.as_str(), ordinal(i)));
                    }
                }
            }
            after = id;
        }
        if (n as i64) < page {
            break;
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        "INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES \
            (10, 1, 1, 80.5, 0, 1000, 5000, 3500), (11, 1, 2, 60, 0, 6000, 9000, NULL), (12, 1, 3, 70, 0, NULL, 9500, NULL), \
            (13, 1, 4, 20, 0, NULL, 9600, 1200), (14, 1, 5, 95, 0, NULL, 9700, 800), \
            (20, 2, 1, 55, 0, NULL, 1, 100), (21, 2, 2, NULL, 1, NULL, 2, 100), (22, 2, 3, 40, 0, NULL, 3, NULL)",
    ];

    async fn check(db: &Db) {
        for sql in SETUP {
            sqlx::query(sqlx::AssertSqlSafe(*sql)).execute(&db.pool).await.expect(sql);
        }
        for page in [2, PAGE] {
            let set = load_campaign_paged(db, 7, page, false).await.expect("load");
            assert_eq!(set.records.len(), 7, "page {page}");
            assert_eq!(set.segments.names(), ["b", "a", "c"], "test-set order");
            assert_eq!(set.workers.names(), ["mturk:A1", "prolific:P9"]);
            assert_eq!(set.tasks.names(), ["da-adequacy"]);
            assert_eq!(set.lang_pairs.names(), ["de-en"]);
            assert_eq!(set.time_basis, TimeBasis::PerItem);
            let r = &set.records;
            assert_eq!((set.systems.name(r[0].system), set.segments.name(r[0].segment)), ("SysA", "b"));
            assert_eq!((r[0].score, r[0].seconds, r[0].item_type), (80.5, 3.5, ItemType::System));
            // No time on screen: submitted − shown; neither: 0.
            assert_eq!((r[1].seconds, r[2].seconds), (3.0, 0.0));
            assert_eq!(r[3].item_type, ItemType::BadRef);
            // The REF item takes the system of its pair (position 1: SysB).
            assert_eq!((r[4].item_type, set.systems.name(r[4].system)), (ItemType::Ref, "SysB"));
            // The skipped judgment is left out.
            assert_eq!(r[5..].iter().map(|j| j.score).collect::<Vec<_>>(), [55.0, 40.0]);
            assert_eq!(set.workers.name(r[6].worker), "prolific:P9");
            assert_eq!(set.hits.name(r[6].hit), "0");
        }
        let by = load_campaign_by_test_set(db, 7).await.expect("load by test set");
        assert_eq!(by.segments.names(), ["nt2026:b", "nt2026:a", "nt2026:c"]);
        assert_eq!(by.systems.name(by.records[0].system), "SysA @ nt2026");
        assert_eq!(by.systems.name(by.records[4].system), "SysB @ nt2026");
        let e = load_campaign(db, 8).await.unwrap_err();
        assert_eq!(e, "there is no campaign with id 8");

        // The same campaign as a word-order campaign: each judgment gives one record per
        // question, in two tasks; a judgment without its second answer is an error.
        sqlx::query("UPDATE campaigns SET task = 'word-order' WHERE id = 7").execute(&db.pool).await.unwrap();
        sqlx::query("UPDATE judgments SET score2 = score / 100.0 WHERE score IS NOT NULL").execute(&db.pool).await.unwrap();
        let set = load_campaign(db, 7).await.expect("load word order");
        assert_eq!(set.tasks.names(), [WORD_ORDER_Q1, WORD_ORDER_Q2]);
        assert_eq!(set.records.len(), 14);
        let (q1, q2): (Vec<&crate::analysis::Judgment>, Vec<_>) = set.records.iter().partition(|r| set.tasks.name(r.task.into()) == WORD_ORDER_Q1);
        assert_eq!(q1.iter().map(|r| r.score).collect::<Vec<_>>(), [80.5, 60.0, 70.0, 20.0, 95.0, 55.0, 40.0]);
        assert_eq!(q2.iter().map(|r| r.score).collect::<Vec<_>>(), [0.805, 0.6, 0.7, 0.2, 0.95, 0.55, 0.4]);
        assert!(q1.iter().zip(&q2).all(|(a, b)| (a.worker, a.system, a.segment, a.item_type) == (b.worker, b.system, b.segment, b.item_type)));
        sqlx::query("UPDATE judgments SET score2 = NULL WHERE id = 11").execute(&db.pool).await.unwrap();
        assert_eq!(load_campaign(db, 7).await.unwrap_err(), "judgment 11: a word-order judgment without its second answer");
    }

    #[tokio::test]
    async fn loads_a_campaign_from_sqlite() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display()))
            .await
            .expect("sqlite");
        check(&db).await;
    }

    /// Runs when `ASSAY_TEST_POSTGRES_URL` names a PostgreSQL server (as for the integration tests).
    #[tokio::test]
    async fn loads_a_campaign_from_postgres() {
        let Ok(server) = std::env::var("ASSAY_TEST_POSTGRES_URL") else {
            eprintln!("skipped: set ASSAY_TEST_POSTGRES_URL to run the PostgreSQL variant");
            return;
        };
        let url = format!("{}/assay_unit_load_{}_{}", server.trim_end_matches('/'), std::process::id(), crate::db::now_ms());
        let db = crate::db::connect(&url).await.expect("postgres");
        check(&db).await;
        db.pool.close().await;
        use sqlx::migrate::MigrateDatabase;
        let _ = sqlx::Any::drop_database(&url).await;
    }
}
