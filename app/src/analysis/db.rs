//! Reading a campaign's judgments from the database: the one judgment query ([`judgments`]),
//! and the pipeline's [`JudgmentSet`] built from it ([`load_campaign`], [`load_worker`]). The
//! results page, the API, the exports, `assay analyze --campaign`, the study pages, the review
//! page and the quality gate all read judgments here.
//!
//! The query reads ids, not names: hits ⨝ assignments ⨝ judgments ⨝ hit_items (and the paired
//! item, for a REF item's system), in the order of the indexes (no sort in the database). The
//! names of workers, systems and segments come from three small queries ([`StoredNames`]) and are
//! interned once per id, so a million judgments cost a million rows of integers. Decisions:
//! - **Worker** names are `platform:external_id` (unique by the schema).
//! - **HIT** names are `hit_index` (the pipeline groups by worker, then HIT, so a HIT done by
//!   several workers is several groups, as in Graham's files).
//! - **System** of a REF item (no `system_id`): the system of its paired item, as Graham's QC
//!   items copy their partner's system id; `REF` if it has no pair.
//! - **Segments** are interned in test-set order first (every segment of the test set), so the
//!   interner's order is the test-set order the mt-metrics-eval `.seg.score` files need.
//! - **Seconds** per item ([`TimeBasis::PerItem`]): the item's active time (`active_ms`: the
//!   browser's count of time in use, idle gaps left out; issue 18, item 4) when it is less than
//!   the server's `submitted_at − shown_at` (when the item was served, then answered), else the
//!   server's time, else the browser's `time_on_screen_ms` (a judgment stored without the time
//!   it was shown), else 0. The browser's figures are whatever the client sends, so they can
//!   only shorten the server's time, never lengthen it: the HIT-time flags and the quality
//!   gate's floor never rest on a browser's word that a worker took longer than the server saw
//!   (issue 17, finding 8); `time_on_screen_ms` is kept as information (in the exports).
//! - Skipped judgments and judgments without a score are left out.
//! - **Word-order** judgments answer two questions (METHOD §1): each becomes a record of its own
//!   task, [`WORD_ORDER_Q1`] (how hard the meaning is to grasp, `score`) and [`WORD_ORDER_Q2`]
//!   (how much the order alone clouds it, `score2`), so quality control, z-scores and system
//!   scores are computed per question, as for two DA tasks.
//!
//! - Records are in judgment-id order (the order they were stored), names numbered in order of
//!   first appearance, as reading the judgments file of an export gives them.
//! - A comparison study's arm (METHOD §7) judges a benchmark system on two test sets: its
//!   systems are named `system @ test set` and its segments `test set:key`, so each is scored
//!   on each test set apart; quality control and z-scores still pool all of a worker's
//!   judgments in the campaign. [`load_campaign`] decides this from `study_arms`, for every
//!   caller.

use std::borrow::Borrow;
use std::collections::HashMap;

use tokio_stream::{Stream, StreamExt};
use sqlx::{AnyConnection, Row};

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{ItemType, TaskKind};
use assay_core::protocol;

use super::ranking::RankingData;
use super::sqlite_rows::RawStatement;
use super::{FxMap, Judgment, JudgmentSet, TimeBasis};

/// "first", "second", … for the questions of a protocol.
fn ordinal(i: usize) -> &'static str {
    ["first", "second", "third", "fourth"].get(i).copied().unwrap_or("next")
}

pub use assay_core::protocol::word_order::{WORD_ORDER_Q1, WORD_ORDER_Q2};

/// What the database says about a campaign, besides its judgments.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CampaignInfo {
    pub id: i64,
    pub name: String,
    pub task: TaskKind,
    pub test_set: String,
    pub source_lang: String,
    pub target_lang: String,
}

/// The campaign's description; an unknown campaign is [`AppError::NotFound`].
pub async fn campaign_info(db: &Db, campaign_id: i64) -> AppResult<CampaignInfo> {
    let mut conn = db.pool.acquire().await.with_context(|| format!("reading campaign {campaign_id}"))?;
    campaign_info_on(&mut conn, campaign_id).await
}

/// [`campaign_info`] through a given connection (the quality gate's transaction).
async fn campaign_info_on(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<CampaignInfo> {
    let row = sqlx::query(
        "SELECT c.name, c.task, t.name AS test_set, t.source_lang, t.target_lang \
         FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&mut *conn)
    .await
    .with_context(|| format!("reading campaign {campaign_id}"))?
    .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let get = |col: &str| -> AppResult<String> {
        row.try_get::<String, _>(col).with_context(|| format!("reading the {col} of campaign {campaign_id}"))
    };
    Ok(CampaignInfo {
        id: campaign_id,
        name: get("name")?,
        task: TaskKind::of_campaign(campaign_id, &get("task")?)?,
        test_set: get("test_set")?,
        source_lang: get("source_lang")?,
        target_lang: get("target_lang")?,
    })
}

/// Which judgments of a campaign [`judgments`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every judgment of the campaign.
    Campaign,
    /// One worker's (the quality gate, the review page's refresh).
    Worker(i64),
    /// Those of the campaign's HITs with ids from the first to the second (a part of a campaign
    /// read side by side with the others).
    Hits(i64, i64),
}

/// One stored judgment, as the one judgment query reads it: ids, not names (see [`StoredNames`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StoredJudgment {
    pub id: i64,
    pub assignment: i64,
    /// `workers.id`.
    pub worker: i64,
    pub slot: i32,
    pub hit_index: i32,
    /// The item's position in its HIT.
    pub position: i32,
    pub item_type: ItemType,
    /// `systems.id` of the item, else of its paired item (a REF item takes its pair's system, as
    /// Graham's QC items copy their partner's system id); `None`: a REF item without a pair.
    pub system: Option<i64>,
    /// `segments.id`.
    pub segment: i64,
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub skipped: bool,
    pub submitted_at_ms: i64,
    pub time_on_screen_ms: Option<i64>,
    /// Milliseconds on the item as the analysis counts them: the active time when shorter than
    /// submitted − shown (the server's clock), else that, else the browser's time on screen,
    /// else 0.
    pub ms: i64,
    /// The screen of the HIT the item was shown on, for tasks that show several items together
    /// (relative ranking); `None` for one item per screen.
    pub screen: Option<i32>,
    /// Relative ranking: the expected rank of an output of a gold block (`None`: not gold).
    /// Gold answers are quality control only: [`judgment_set`] keeps them out of the records
    /// (in [`JudgmentSet::gold`]) and [`ranking_blocks`] out of the blocks.
    pub gold_rank: Option<i32>,
}

/// The judgment query's columns (a macro: the two orders of its tables below share them).
macro_rules! judgment_columns {
    () => {
        "SELECT j.id, a.id, a.worker_id, a.slot, h.hit_index, hi.position, hi.item_type, \
            COALESCE(hi.system_id, (SELECT p.system_id FROM hit_items p WHERE p.hit_id = hi.hit_id AND p.position = hi.paired_position)), hi.segment_id, \
            CAST(j.score AS DOUBLE PRECISION), CAST(j.score2 AS DOUBLE PRECISION), j.skipped, j.submitted_at, j.time_on_screen_ms, \
            CASE WHEN j.active_ms IS NOT NULL AND j.shown_at IS NOT NULL AND j.active_ms < j.submitted_at - j.shown_at THEN j.active_ms \
                 ELSE COALESCE(j.submitted_at - j.shown_at, j.time_on_screen_ms, 0) END, hi.screen, hi.gold_rank "
    };
}

/// The judged item. (A REF item without a system of its own takes its pair's, read in the
/// columns by a subquery that runs only for such items: a join to the pair for every row cost a
/// tenth of the query.)
macro_rules! judgment_items {
    () => {
        " JOIN hit_items hi ON hi.id = j.hit_item_id "
    };
}

const JUDGMENT_COLUMNS: &str = concat!(
    judgment_columns!(),
    "FROM hits h JOIN assignments a ON a.hit_id = h.id JOIN judgments j ON j.assignment_id = a.id",
    judgment_items!(),
    "WHERE h.campaign_id = $1"
);

/// SQLite only (its `CROSS JOIN` keeps the tables in the order written): the same query driven by
/// the judgments table in id order, over the ids `$2..=$3`, so that `ORDER BY j.id` needs no sort.
/// A million judgments of a campaign that fills its id range read in 0.47 s, against 0.74 s
/// sorted after the join.
const JUDGMENTS_BY_ID: &str = concat!(
    judgment_columns!(),
    "FROM judgments j CROSS JOIN assignments a ON a.id = j.assignment_id CROSS JOIN hits h ON h.id = a.hit_id",
    judgment_items!(),
    "WHERE h.campaign_id = $1 AND j.id BETWEEN $2 AND $3 ORDER BY j.id"
);

/// PostgreSQL's [`JUDGMENTS_BY_ID`] (it has no `CROSS JOIN … ON`; its planner orders the joins).
const JUDGMENTS_BY_ID_PG: &str = concat!(
    judgment_columns!(),
    "FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id",
    judgment_items!(),
    "WHERE h.campaign_id = $1 AND j.id BETWEEN $2 AND $3 ORDER BY j.id"
);

/// How many judgments a campaign has, and its smallest and largest judgment id.
const ID_RANGE: &str = "SELECT COUNT(*), MIN(j.id), MAX(j.id) FROM hits h JOIN assignments a ON a.hit_id = h.id \
     JOIN judgments j ON j.assignment_id = a.id WHERE h.campaign_id = $1";

/// The id range worth reading in id order: when the campaign's judgments are at least half of
/// the ids in it (see [`by_id_range`]).
fn dense(n: i64, first: Option<i64>, last: Option<i64>) -> Option<(i64, i64)> {
    match (first, last) {
        (Some(first), Some(last)) if n.saturating_mul(2) >= last - first + 1 => Some((first, last)),
        _ => None,
    }
}

/// The one judgment query: `ordered` sorts by judgment id in the database (the exports'
/// order; the analysis sorts in memory, which is cheaper).
fn judgment_sql(scope: Scope, ordered: bool) -> String {
    let mut sql = JUDGMENT_COLUMNS.to_string();
    match scope {
        Scope::Campaign => {}
        Scope::Worker(_) => sql.push_str(" AND a.worker_id = $2"),
        Scope::Hits(..) => sql.push_str(" AND h.id BETWEEN $2 AND $3"),
    }
    if ordered {
        sql.push_str(" ORDER BY j.id");
    }
    sql
}

/// A row of the judgment query as a [`StoredJudgment`], from sqlx's `Any` driver or from
/// PostgreSQL's own (every integer column there is a `BIGINT`).
fn stored<R: sqlx::Row>(row: &R) -> AppResult<StoredJudgment>
where
    usize: sqlx::ColumnIndex<R>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> f64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> &'r str: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let id: i64 = row.try_get(0).context("reading a judgment id")?;
    let ctx = |col: &str| format!("reading the {col} of judgment {id}");
    let item_type: &str = row.try_get(6).with_context(|| ctx("item type"))?;
    Ok(StoredJudgment {
        id,
        assignment: row.try_get(1).with_context(|| ctx("assignment"))?,
        worker: row.try_get(2).with_context(|| ctx("worker"))?,
        slot: narrow(row.try_get(3).with_context(|| ctx("slot"))?, || ctx("slot"))?,
        hit_index: narrow(row.try_get(4).with_context(|| ctx("HIT"))?, || ctx("HIT"))?,
        position: narrow(row.try_get(5).with_context(|| ctx("position"))?, || ctx("position"))?,
        item_type: ItemType::parse(item_type).ok_or_else(|| AppError::internal(format!("judgment {id}: unknown item type {item_type:?}")))?,
        system: row.try_get(7).with_context(|| ctx("system"))?,
        segment: row.try_get(8).with_context(|| ctx("segment"))?,
        score: row.try_get(9).with_context(|| ctx("score"))?,
        score2: row.try_get(10).with_context(|| ctx("second score"))?,
        skipped: row.try_get::<i64, _>(11).with_context(|| ctx("skipped flag"))? != 0,
        submitted_at_ms: row.try_get(12).with_context(|| ctx("submission time"))?,
        time_on_screen_ms: row.try_get(13).with_context(|| ctx("time on screen"))?,
        ms: row.try_get(14).with_context(|| ctx("time"))?,
        screen: row.try_get::<Option<i64>, _>(15).with_context(|| ctx("screen"))?.map(|v| narrow(v, || ctx("screen"))).transpose()?,
        gold_rank: row.try_get::<Option<i64>, _>(16).with_context(|| ctx("gold rank"))?.map(|v| narrow(v, || ctx("gold rank"))).transpose()?,
    })
}

/// A stored integer that [`StoredJudgment`] keeps in 32 bits (positions, HIT numbers, slots,
/// screens, ranks; 32 bytes less per judgment, 32 MB at a million).
fn narrow(v: i64, what: impl FnOnce() -> String) -> AppResult<i32> {
    i32::try_from(v).map_err(|_| AppError::internal(format!("{}: {v} is out of range", what())))
}

/// Streams the judgments of `scope` in campaign `campaign_id` (every judgment: skipped and
/// unscored ones too), in judgment-id order when `ordered`, else in HIT order.
pub fn judgments<'c>(
    conn: &'c mut AnyConnection,
    campaign_id: i64,
    scope: Scope,
    ordered: bool,
) -> impl Stream<Item = AppResult<StoredJudgment>> + Send + 'c {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(judgment_sql(scope, ordered))).bind(campaign_id);
    match scope {
        Scope::Campaign => {}
        Scope::Worker(w) => query = query.bind(w),
        Scope::Hits(first, last) => query = query.bind(first).bind(last),
    }
    query.fetch(conn).map(move |row| stored(&row.with_context(|| format!("reading the judgments of campaign {campaign_id}"))?))
}

/// Every judgment of `scope`, sorted by id.
pub async fn read_judgments(conn: &mut AnyConnection, campaign_id: i64, scope: Scope) -> AppResult<Vec<StoredJudgment>> {
    let mut out = Vec::new();
    {
        let mut rows = std::pin::pin!(judgments(conn, campaign_id, scope, false));
        while let Some(j) = rows.next().await {
            out.push(j?);
        }
    }
    out.sort_unstable_by_key(|j| j.id);
    Ok(out)
}

/// A campaign's judgments as read: in parts (each part's in the order the query gave them).
#[derive(Debug, Default)]
pub struct CampaignJudgments {
    parts: Vec<Vec<StoredJudgment>>,
}

impl CampaignJudgments {
    pub fn len(&self) -> usize {
        self.parts.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Judgments read in parts (each part's in the order it was read).
    pub fn from_parts(parts: Vec<Vec<StoredJudgment>>) -> CampaignJudgments {
        CampaignJudgments { parts }
    }


    /// Every judgment, by id: references, so that the parts are never copied into one (a
    /// million judgments are 176 MB).
    pub fn by_id(&self) -> Vec<&StoredJudgment> {
        // Each part usually comes in id order already (a HIT's judgments are stored in the
        // order they are answered): then the parts are merged, not sorted.
        if self.parts.iter().all(|p| p.is_sorted_by_key(|j| j.id)) {
            // Parts one after another in id order (HITs answered one after another): joined.
            let bounds: Vec<(i64, i64)> = self.parts.iter().filter_map(|p| Some((p.first()?.id, p.last()?.id))).collect();
            if bounds.windows(2).all(|w| w[0].1 < w[1].0) {
                return self.parts.iter().flatten().collect();
            }
            let mut heads: Vec<std::iter::Peekable<std::slice::Iter<'_, StoredJudgment>>> =
                self.parts.iter().map(|p| p.iter().peekable()).collect();
            let mut out = Vec::with_capacity(self.len());
            loop {
                let mut next: Option<(usize, i64)> = None;
                for (k, head) in heads.iter_mut().enumerate() {
                    if let Some(j) = head.peek()
                        && next.is_none_or(|(_, id)| j.id < id)
                    {
                        next = Some((k, j.id));
                    }
                }
                let Some((k, _)) = next else { break };
                out.extend(heads[k].next());
            }
            return out;
        }
        let mut keyed: Vec<(i64, &StoredJudgment)> = self.parts.iter().flatten().map(|j| (j.id, j)).collect();
        keyed.sort_unstable_by_key(|k| k.0);
        keyed.into_iter().map(|k| k.1).collect()
    }
}

/// [`read_judgments`] of a whole campaign. On SQLite the rows are read through read-only
/// connections of rusqlite (on blocking threads), the campaign's HITs in parts side by side:
/// sqlx copies every value of every row into an allocation of its own, which makes a million
/// judgments take 3.7 s instead of under half a second.
pub async fn read_campaign_judgments(db: &Db, conn: &mut AnyConnection, campaign_id: i64) -> AppResult<CampaignJudgments> {
    let path = db.sqlite_file.clone().filter(|p| p.exists());
    // PostgreSQL: one query. Reading it in parts on two connections side by side measured no
    // gain (3.09 s against 3.00 s at a million judgments on two cores): decoding the rows in
    // sqlx takes the second core.
    let Some(path) = path else {
        if let Some(pg) = &db.postgres {
            return read_postgres(pg, campaign_id).await;
        }
        return Ok(CampaignJudgments { parts: vec![read_judgments(conn, campaign_id, Scope::Campaign).await?] });
    };
    tokio::task::spawn_blocking(move || read_sqlite(&path, campaign_id, read_parts()))
        .await
        .map_err(|e| AppError::internal(format!("reading the judgments failed: {e}")))?
}

/// A campaign's judgments through PostgreSQL's own driver, its HITs in parts on connections side
/// by side (as [`read_sqlite`]; each part in the query's order). Its rows are decoded in place,
/// where sqlx's `Any` rows copy every value.
async fn read_postgres(pool: &sqlx::PgPool, campaign_id: i64) -> AppResult<CampaignJudgments> {
    let what = move || format!("reading the judgments of campaign {campaign_id}");
    let hits: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT h.id, h.item_count * (SELECT COUNT(*) FROM assignments a WHERE a.hit_id = h.id) FROM hits h \
         WHERE h.campaign_id = $1 ORDER BY h.id",
    )
    .bind(campaign_id)
    .fetch_all(pool)
    .await
    .with_context(what)?;
    let ranges = hit_ranges(&hits, read_parts());
    // The items' HIT too (the same, said twice): PostgreSQL then hashes only the part's items,
    // not every item of the table for each part (728 → 475 ms for half a million).
    let sql = judgment_sql(Scope::Hits(0, 0), false) + " AND hi.hit_id BETWEEN $2 AND $3";
    let parts = ranges.into_iter().map(|range| {
        let (sql, pool) = (sql.clone(), pool.clone());
        async move {
            let mut rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(campaign_id).bind(range.first).bind(range.last).fetch(&pool);
            let mut out = Vec::with_capacity(range.most);
            while let Some(row) = rows.next().await {
                out.push(stored(&row.with_context(what)?)?);
            }
            AppResult::Ok(out)
        }
    });
    // Each part on a task of its own, so that their rows are decoded on the cores side by side.
    let tasks: Vec<_> = parts.map(|f| tokio::spawn(f)).collect();
    let mut out = Vec::with_capacity(tasks.len());
    for t in tasks {
        out.push(t.await.map_err(|e| AppError::internal(format!("a judgment reader failed: {e}")))??);
    }
    Ok(CampaignJudgments { parts: out })
}

/// A part of a campaign read on its own: the HITs with ids `first..=last`, which hold at most
/// `most` judgments (items × assignments).
#[derive(Clone, Copy, Debug, PartialEq)]
struct HitRange {
    first: i64,
    last: i64,
    most: usize,
}

/// The campaign's HITs, each with the most judgments it can hold (items × assignments), by id.
const HIT_SIZES: &str = "SELECT h.id, h.item_count * (SELECT COUNT(*) FROM assignments a WHERE a.hit_id = h.id) FROM hits h \
     WHERE h.campaign_id = ?1 ORDER BY h.id";

/// `hits` ((id, most judgments), by id) in at most `parts` ranges of HIT ids, in order, each
/// with about as many judgments as the others can hold; none without HITs.
fn hit_ranges(hits: &[(i64, i64)], parts: usize) -> Vec<HitRange> {
    let total: usize = hits.iter().map(|h| h.1.max(0) as usize).sum();
    let share = total.div_ceil(parts.max(1)).max(1);
    let mut ranges: Vec<HitRange> = Vec::new();
    for &(id, most) in hits {
        let most = most.max(0) as usize;
        let full = ranges.len() == parts;
        match ranges.last_mut() {
            Some(r) if r.most < share || full => {
                r.last = id;
                r.most += most;
            }
            _ => ranges.push(HitRange { first: id, last: id, most }),
        }
    }
    ranges
}

/// How many connections read a campaign side by side: one per core, at most four (two cores
/// halve the time of a million judgments; SQLite readers do not block one another in WAL mode).
pub fn read_parts() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 4)
}

fn open_sqlite(path: &std::path::Path, campaign_id: i64) -> AppResult<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    let conn = rusqlite::Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| sqlite_failed(campaign_id, e))?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(|e| sqlite_failed(campaign_id, e))?;
    Ok(conn)
}

fn sqlite_failed(campaign_id: i64, e: impl std::fmt::Display) -> AppError {
    AppError::internal(format!("database error while reading the judgments of campaign {campaign_id}: {e}"))
}

/// Every judgment of the campaign: its HITs split into ranges read side by side, each on a
/// connection of its own, in one read transaction each. The ranges are fixed before the reading
/// starts; a HIT's judgments are all in one range.
fn read_sqlite(path: &std::path::Path, campaign_id: i64, parts: usize) -> AppResult<CampaignJudgments> {
    let hits = {
        let conn = open_sqlite(path, campaign_id)?;
        let mut stmt = conn.prepare(HIT_SIZES).map_err(|e| sqlite_failed(campaign_id, e))?;
        stmt.query_map([campaign_id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<(i64, i64)>>>())
            .map_err(|e| sqlite_failed(campaign_id, e))?
    };
    let ranges = hit_ranges(&hits, parts);
    let parts: Vec<AppResult<Vec<StoredJudgment>>> = std::thread::scope(|s| {
        let readers: Vec<_> = ranges
            .iter()
            .map(|&range| {
                s.spawn(move || {
                    let mut out = Vec::with_capacity(range.most);
                    each_sqlite_judgment_in(path, campaign_id, Some((range.first, range.last)), false, |j| {
                        out.push(j);
                        true
                    })?;
                    Ok(out)
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap_or_else(|_| Err(AppError::internal("a judgment reader panicked")))).collect()
    });
    Ok(CampaignJudgments { parts: parts.into_iter().collect::<AppResult<_>>()? })
}

/// Calls `each` with every judgment of a campaign read from the SQLite file at `path` (in id
/// order when `ordered`) until it returns false. Blocking: call it on a blocking thread.
pub fn each_sqlite_judgment(path: &std::path::Path, campaign_id: i64, ordered: bool, each: impl FnMut(StoredJudgment) -> bool) -> AppResult<()> {
    each_sqlite_judgment_in(path, campaign_id, None, ordered, each)
}

/// [`each_sqlite_judgment`] of the HITs with ids in `hits` (inclusive) only, when given.
fn each_sqlite_judgment_in(
    path: &std::path::Path,
    campaign_id: i64,
    hits: Option<(i64, i64)>,
    ordered: bool,
    mut each: impl FnMut(StoredJudgment) -> bool,
) -> AppResult<()> {
    let failed = |e: rusqlite::Error| sqlite_failed(campaign_id, e);
    let conn = open_sqlite(path, campaign_id)?;
    let (sql, params) = match hits {
        Some((first, last)) => (judgment_sql(Scope::Hits(first, last), ordered), vec![campaign_id, first, last]),
        None if ordered => match by_id_range(&conn, campaign_id).map_err(failed)? {
            Some((first, last)) => (JUDGMENTS_BY_ID.to_string(), vec![campaign_id, first, last]),
            None => (judgment_sql(Scope::Campaign, true), vec![campaign_id]),
        },
        None => (judgment_sql(Scope::Campaign, false), vec![campaign_id]),
    };
    let raw_failed = |e: super::sqlite_rows::RawError| sqlite_failed(campaign_id, e.to_string());
    let mut stmt = RawStatement::prepare(&conn, &sql, JUDGMENT_COLUMN_COUNT).map_err(raw_failed)?;
    stmt.start(&params).map_err(raw_failed)?;
    while stmt.step().map_err(raw_failed)? {
        if !each(raw_judgment(&stmt, campaign_id)?) {
            break;
        }
    }
    Ok(())
}

/// What a caller knows of a campaign's judgments already (the analysis it exports them with):
/// at least `count` of them are stored, none with an id below `first`. On SQLite both stay true
/// (ids are handed out in commit order, judgments never removed), so [`sqlite_text_in_order`]
/// need not count the campaign's judgments again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownJudgments {
    pub count: i64,
    pub first: i64,
}

/// What a reader of a campaign's judgment text hands on.
enum Piece {
    Text(String),
    /// The reader's block is done; the next piece is of its next block.
    BlockEnd,
    Failed(AppError),
}

/// Judgment ids a reader of [`sqlite_text_in_order`] takes at a time.
const TEXT_BLOCK: usize = 8192;
/// The id range `first..=last` cut into blocks of [`TEXT_BLOCK`] ids, in order.
fn id_blocks(first: i64, last: i64) -> Vec<(i64, i64)> {
    (first..=last).step_by(TEXT_BLOCK).map(|lo| (lo, lo.saturating_add(TEXT_BLOCK as i64 - 1).min(last))).collect()
}

/// Pieces of text a reader of [`sqlite_text_in_order`] may have made ahead of the writer.
const TEXT_AHEAD: usize = 32;

/// Text made by `write` from every judgment of campaign `campaign_id` in the SQLite file at
/// `path`, handed to `emit` in pieces of about `piece` bytes, in judgment-id order, until `emit`
/// returns false (the exports' judgment files). The campaign's id range is cut into blocks of
/// [`TEXT_BLOCK`] ids, read and written by `threads` connections side by side (block `b` by
/// reader `b % threads`) and passed on in order; each reader runs at most [`TEXT_AHEAD`] pieces
/// ahead, so memory stays bounded. A campaign whose judgments are spread thinly among others'
/// (or one thread) is read in one ordered pass. Blocking: call it on a blocking thread.
pub fn sqlite_text_in_order(
    path: &std::path::Path,
    campaign_id: i64,
    known: Option<KnownJudgments>,
    threads: usize,
    piece: usize,
    write: impl Fn(&mut String, StoredJudgment) -> AppResult<()> + Sync,
    mut emit: impl FnMut(String) -> bool,
) -> AppResult<()> {
    let failed = |e: rusqlite::Error| sqlite_failed(campaign_id, e);
    let conn = open_sqlite(path, campaign_id)?;
    let range = match known {
        // The table's largest id is read from the end of its b-tree; counting the campaign's
        // judgments joins every one of them (0.27 s at a million).
        Some(k) => dense(k.count, Some(k.first), conn.query_row("SELECT MAX(id) FROM judgments", [], |r| r.get(0)).map_err(failed)?),
        None => by_id_range(&conn, campaign_id).map_err(failed)?,
    };
    drop(conn);
    let Some((first, last)) = range.filter(|_| threads > 1) else {
        let (mut text, mut error, mut stopped) = (String::new(), None, false);
        each_sqlite_judgment(path, campaign_id, true, |j| {
            if let Err(e) = write(&mut text, j) {
                error = Some(e);
                return false;
            }
            stopped = text.len() >= piece && !emit(std::mem::take(&mut text));
            !stopped
        })?;
        if let Some(e) = error {
            return Err(e);
        }
        if !stopped && !text.is_empty() {
            emit(text);
        }
        return Ok(());
    };
    let blocks = id_blocks(first, last);
    let (blocks, write) = (&blocks, &write);
    std::thread::scope(|s| {
        let readers: Vec<std::sync::mpsc::Receiver<Piece>> = (0..threads)
            .map(|t| {
                let (tx, rx) = std::sync::mpsc::sync_channel::<Piece>(TEXT_AHEAD);
                s.spawn(move || {
                    // Ok(false): the writer has gone (stopped early or failed); nothing to say.
                    let read = || -> AppResult<bool> {
                        let conn = open_sqlite(path, campaign_id)?;
                        let raw_failed = |e: super::sqlite_rows::RawError| sqlite_failed(campaign_id, e.to_string());
                        let mut stmt = RawStatement::prepare(&conn, JUDGMENTS_BY_ID, JUDGMENT_COLUMN_COUNT).map_err(raw_failed)?;
                        for &(lo, hi) in blocks.iter().skip(t).step_by(threads) {
                            stmt.start(&[campaign_id, lo, hi]).map_err(raw_failed)?;
                            let mut text = String::with_capacity(piece + 1024);
                            while stmt.step().map_err(raw_failed)? {
                                write(&mut text, raw_judgment(&stmt, campaign_id)?)?;
                                if text.len() >= piece && tx.send(Piece::Text(std::mem::replace(&mut text, String::with_capacity(piece + 1024)))).is_err() {
                                    return Ok(false);
                                }
                            }
                            if (!text.is_empty() && tx.send(Piece::Text(text)).is_err()) || tx.send(Piece::BlockEnd).is_err() {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    };
                    if let Err(e) = read() {
                        let _ = tx.send(Piece::Failed(e));
                    }
                });
                rx
            })
            .collect();
        // Returning drops the receivers, which stops every reader at its next piece.
        for b in 0..blocks.len() {
            loop {
                match readers[b % threads].recv() {
                    Ok(Piece::Text(text)) => {
                        if !emit(text) {
                            return Ok(());
                        }
                    }
                    Ok(Piece::BlockEnd) => break,
                    Ok(Piece::Failed(e)) => return Err(e),
                    Err(_) => return Err(AppError::internal(format!("a reader of campaign {campaign_id}'s judgments stopped"))),
                }
            }
        }
        Ok(())
    })
}

/// [`sqlite_text_in_order`] on PostgreSQL, through its own driver: the text of every judgment
/// of the campaign in id order, sent down `out` as bytes in pieces of about `piece` (a closed
/// `out` stops it). Its readers are tasks, each on a connection of its own: the first is waited
/// for, the others taken only if the pool has them free, so that exports side by side never
/// wait for one another's connections.
pub async fn pg_text_in_order<W>(
    pool: &sqlx::PgPool,
    campaign_id: i64,
    threads: usize,
    piece: usize,
    write: std::sync::Arc<W>,
    out: &tokio::sync::mpsc::Sender<Result<Vec<u8>, crate::error::StreamError>>,
) -> AppResult<()>
where
    W: Fn(&mut String, StoredJudgment) -> AppResult<()> + Send + Sync + 'static,
{
    let what = move || format!("reading the judgments of campaign {campaign_id}");
    let mut conn = pool.acquire().await.with_context(what)?;
    let (n, first, last): (i64, Option<i64>, Option<i64>) =
        sqlx::query_as(ID_RANGE).bind(campaign_id).fetch_one(&mut *conn).await.with_context(what)?;
    let range = dense(n, first, last);
    let mut conns = vec![conn];
    while range.is_some() && conns.len() < threads {
        match pool.try_acquire() {
            Some(c) => conns.push(c),
            None => break,
        }
    }
    let Some((first, last)) = range.filter(|_| conns.len() > 1) else {
        let mut conn = conns.pop().expect("a connection");
        let mut rows = sqlx::query(sqlx::AssertSqlSafe(judgment_sql(Scope::Campaign, true))).bind(campaign_id).fetch(&mut *conn);
        let mut text = String::new();
        while let Some(row) = rows.next().await {
            write(&mut text, stored(&row.with_context(what)?)?)?;
            if text.len() >= piece && out.send(Ok(std::mem::take(&mut text).into_bytes())).await.is_err() {
                return Ok(());
            }
        }
        if !text.is_empty() {
            let _ = out.send(Ok(text.into_bytes())).await;
        }
        return Ok(());
    };
    let threads = conns.len();
    let blocks = std::sync::Arc::new(id_blocks(first, last));
    let mut readers = Vec::with_capacity(threads);
    for (t, mut conn) in conns.into_iter().enumerate() {
        let (tx, rx) = tokio::sync::mpsc::channel::<Piece>(TEXT_AHEAD);
        let (blocks, write) = (blocks.clone(), write.clone());
        tokio::spawn(async move {
            // Ok(false): the writer has gone (stopped early or failed); nothing to say.
            let read = async {
                // A block is a few thousand rows found by their ids: nested loops over the
                // primary keys. Left to itself (a generic plan after a few runs of the prepared
                // statement) PostgreSQL hashes every item of the table for each block: 15 s for
                // a million judgments instead of about one. Only in this transaction, which
                // rolls back when dropped.
                let mut reading = sqlx::Acquire::begin(&mut *conn).await.with_context(what)?;
                for set in ["SET LOCAL enable_hashjoin = off", "SET LOCAL enable_mergejoin = off"] {
                    sqlx::query(set).execute(&mut *reading).await.with_context(what)?;
                }
                for &(lo, hi) in blocks.iter().skip(t).step_by(threads) {
                    let mut rows = sqlx::query(JUDGMENTS_BY_ID_PG).bind(campaign_id).bind(lo).bind(hi).fetch(&mut *reading);
                    let mut text = String::with_capacity(piece + 1024);
                    while let Some(row) = rows.next().await {
                        write(&mut text, stored(&row.with_context(what)?)?)?;
                        if text.len() >= piece && tx.send(Piece::Text(std::mem::replace(&mut text, String::with_capacity(piece + 1024)))).await.is_err() {
                            return Ok(false);
                        }
                    }
                    if (!text.is_empty() && tx.send(Piece::Text(text)).await.is_err()) || tx.send(Piece::BlockEnd).await.is_err() {
                        return Ok(false);
                    }
                }
                AppResult::Ok(true)
            };
            if let Err(e) = read.await {
                let _ = tx.send(Piece::Failed(e)).await;
            }
        });
        readers.push(rx);
    }
    // Returning drops the receivers, which stops every reader at its next piece.
    for b in 0..blocks.len() {
        loop {
            match readers[b % threads].recv().await {
                Some(Piece::Text(text)) => {
                    if out.send(Ok(text.into_bytes())).await.is_err() {
                        return Ok(());
                    }
                }
                Some(Piece::BlockEnd) => break,
                Some(Piece::Failed(e)) => return Err(e),
                None => return Err(AppError::internal(format!("a reader of campaign {campaign_id}'s judgments stopped"))),
            }
        }
    }
    Ok(())
}

/// The columns of the judgment query ([`judgment_columns`]).
const JUDGMENT_COLUMN_COUNT: usize = 17;

/// The current row of the judgment query, read from SQLite's C interface, as a
/// [`StoredJudgment`].
fn raw_judgment(row: &RawStatement<'_>, campaign_id: i64) -> AppResult<StoredJudgment> {
    let id = row.int(0);
    let ctx = |col: &str| format!("campaign {campaign_id}: the {col} of judgment {id}");
    let item_type = std::str::from_utf8(row.text(6)).ok().and_then(ItemType::parse).ok_or_else(|| {
        AppError::internal(format!("judgment {id}: unknown item type {:?}", String::from_utf8_lossy(row.text(6))))
    })?;
    Ok(StoredJudgment {
        id,
        assignment: row.int(1),
        worker: row.int(2),
        slot: narrow(row.int(3), || ctx("slot"))?,
        hit_index: narrow(row.int(4), || ctx("HIT"))?,
        position: narrow(row.int(5), || ctx("position"))?,
        item_type,
        system: row.opt_int(7),
        segment: row.int(8),
        score: row.opt_real(9),
        score2: row.opt_real(10),
        skipped: row.int(11) != 0,
        submitted_at_ms: row.int(12),
        time_on_screen_ms: row.opt_int(13),
        ms: row.int(14),
        screen: row.opt_int(15).map(|v| narrow(v, || ctx("screen"))).transpose()?,
        gold_rank: row.opt_int(16).map(|v| narrow(v, || ctx("gold rank"))).transpose()?,
    })
}

/// The range of the campaign's judgment ids when its judgments are at least half of the
/// judgments in it: then reading the judgments table in id order over that range (and leaving
/// out other campaigns' judgments) beats sorting the campaign's after the join. `None` for a
/// campaign without judgments or one whose judgments are spread thinly among others'.
fn by_id_range(conn: &rusqlite::Connection, campaign_id: i64) -> rusqlite::Result<Option<(i64, i64)>> {
    let (n, first, last): (i64, Option<i64>, Option<i64>) = conn.query_row(ID_RANGE, [campaign_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(dense(n, first, last))
}

/// A segment's names.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentName {
    pub key: String,
    pub document: Option<String>,
    pub test_set: String,
    pub test_set_id: i64,
    /// The domain of the segment's document (WMT `.docs` files), if known.
    pub domain: Option<String>,
    /// 1-based place of the segment in its document, in test-set order (1 without a
    /// document): Google's MQM `doc_seg_id`. `None` in one worker's names
    /// ([`StoredNames::read`] with [`Scope::Worker`]), which hold only the segments of that
    /// worker's HITs: counting places needs whole documents, and nothing read there uses them.
    pub doc_index: Option<usize>,
}

/// The names behind the ids of [`StoredJudgment`]s: workers (`platform`, external id), systems
/// and segments, and the campaign's own test set's segments in test-set order.
#[derive(Clone, Debug, Default)]
pub struct StoredNames {
    pub workers: FxMap<i64, (String, String)>,
    pub systems: FxMap<i64, String>,
    pub segments: FxMap<i64, SegmentName>,
    /// The campaign's test set's segment ids in test-set order.
    pub test_set_order: Vec<i64>,
}

/// The workers of a campaign (`$1`), by id: (id, platform, external id).
const WORKER_NAMES: &str = "SELECT w.id, w.platform, w.external_id FROM workers w WHERE w.id IN \
     (SELECT a.worker_id FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1)";
/// Every system: (id, name).
const SYSTEM_NAMES: &str = "SELECT id, name FROM systems";
/// The segments of a campaign's test sets (its own first, in test-set order; a study arm's two
/// after): [`SegmentRow`].
const SEGMENT_NAMES: &str = "SELECT s.id, s.segment_key, s.document, t.name, t.id, CASE WHEN t.id = c.test_set_id THEN 0 ELSE 1 END, s.domain \
     FROM campaigns c JOIN segments s ON s.test_set_id = c.test_set_id \
          OR s.test_set_id IN (SELECT old_test_set_id FROM study_arms WHERE campaign_id = c.id) \
          OR s.test_set_id IN (SELECT new_test_set_id FROM study_arms WHERE campaign_id = c.id) \
     JOIN test_sets t ON t.id = s.test_set_id WHERE c.id = $1 ORDER BY 6, s.position";
/// (id, key, document, test set, test set id, 0 for the campaign's own test set, domain).
type SegmentRow = (i64, String, Option<String>, String, i64, i64, Option<String>);

/// The segments of the HITs worker `$2` has in campaign `$1`, as [`SEGMENT_NAMES`] gives them
/// (the same columns and order). The quality gate reads a worker's names at the end of every
/// HIT: reading every segment of the test set there made its cost, and the writer's time in
/// its transaction, grow with the test set (3,500 rows at the end of every HIT of a 200-HIT
/// campaign, where the worker's HITs show about 400).
const WORKER_SEGMENT_NAMES: &str = "SELECT s.id, s.segment_key, s.document, t.name, t.id, CASE WHEN t.id = c.test_set_id THEN 0 ELSE 1 END, s.domain \
     FROM campaigns c JOIN segments s ON s.test_set_id = c.test_set_id \
          OR s.test_set_id IN (SELECT old_test_set_id FROM study_arms WHERE campaign_id = c.id) \
          OR s.test_set_id IN (SELECT new_test_set_id FROM study_arms WHERE campaign_id = c.id) \
     JOIN test_sets t ON t.id = s.test_set_id WHERE c.id = $1 AND s.id IN (SELECT hi.segment_id FROM assignments a \
          JOIN hits h ON h.id = a.hit_id JOIN hit_items hi ON hi.hit_id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2) \
     ORDER BY 6, s.position";

/// The systems of the HITs worker `$2` has in campaign `$1` (a reference item's pair is in its
/// HIT): (id, name).
const WORKER_SYSTEM_NAMES: &str = "SELECT id, name FROM systems WHERE id IN (SELECT hi.system_id FROM hits h \
     JOIN assignments a ON a.hit_id = h.id JOIN hit_items hi ON hi.hit_id = h.id WHERE h.campaign_id = $1 AND a.worker_id = $2)";

impl StoredNames {
    /// The names `scope`'s judgments of campaign `campaign_id` can refer to: its workers, every
    /// system, and the segments of the campaign's test sets (its own and, for a study arm, the
    /// arm's two). One worker's ([`Scope::Worker`]: the quality gate, the review page's
    /// refresh): that worker, and the systems and segments of the worker's HITs only, so that
    /// the read does not grow with the test set; [`StoredNames::test_set_order`] then holds those
    /// segments, in the same order.
    pub async fn read(conn: &mut AnyConnection, campaign_id: i64, scope: Scope) -> AppResult<StoredNames> {
        let context = || format!("reading the names in campaign {campaign_id}");
        if let Scope::Worker(w) = scope {
            let workers: Vec<(i64, String, String)> =
                sqlx::query_as("SELECT id, platform, external_id FROM workers WHERE id = $1").bind(w).fetch_all(&mut *conn).await.with_context(context)?;
            let systems: Vec<(i64, String)> =
                sqlx::query_as(WORKER_SYSTEM_NAMES).bind(campaign_id).bind(w).fetch_all(&mut *conn).await.with_context(context)?;
            let segments: Vec<SegmentRow> =
                sqlx::query_as(WORKER_SEGMENT_NAMES).bind(campaign_id).bind(w).fetch_all(&mut *conn).await.with_context(context)?;
            return Ok(StoredNames::from_rows(workers, systems, segments, false));
        }
        let workers: Vec<(i64, String, String)> = sqlx::query_as(WORKER_NAMES).bind(campaign_id).fetch_all(&mut *conn).await.with_context(context)?;
        let systems: Vec<(i64, String)> = sqlx::query_as(SYSTEM_NAMES).fetch_all(&mut *conn).await.with_context(context)?;
        let segments: Vec<SegmentRow> = sqlx::query_as(SEGMENT_NAMES).bind(campaign_id).fetch_all(&mut *conn).await.with_context(context)?;
        Ok(StoredNames::from_rows(workers, systems, segments, true))
    }

    /// [`StoredNames::read`] of a whole campaign from the SQLite file at `path`, through
    /// rusqlite (a tenth of the time sqlx takes for 10,000 workers). Blocking.
    fn read_sqlite(path: &std::path::Path, campaign_id: i64) -> AppResult<StoredNames> {
        let failed = |e: rusqlite::Error| sqlite_failed(campaign_id, e);
        let conn = open_sqlite(path, campaign_id)?;
        let workers = conn
            .prepare(WORKER_NAMES)
            .and_then(|mut q| q.query_map([campaign_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(failed)?;
        let systems =
            conn.prepare(SYSTEM_NAMES).and_then(|mut q| q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<Vec<_>>>()).map_err(failed)?;
        let segments = conn
            .prepare(SEGMENT_NAMES)
            .and_then(|mut q| {
                q.query_map([campaign_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)))?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(failed)?;
        Ok(StoredNames::from_rows(workers, systems, segments, true))
    }

    /// The names from the rows of [`WORKER_NAMES`], [`SYSTEM_NAMES`] and [`SEGMENT_NAMES`];
    /// each segment's place in its document counted over the rows when they are whole test sets
    /// (`placed`), else left out ([`SegmentName::doc_index`]).
    fn from_rows(workers: Vec<(i64, String, String)>, systems: Vec<(i64, String)>, segments: Vec<SegmentRow>, placed: bool) -> StoredNames {
        let mut names = StoredNames::default();
        for (id, platform, external) in workers {
            names.workers.insert(id, (platform, external));
        }
        for (id, name) in systems {
            names.systems.insert(id, name);
        }
        let mut in_document: HashMap<(i64, String), usize> = HashMap::new();
        for (id, key, document, test_set, test_set_id, other_test_set, domain) in segments {
            let doc_index = match document.as_deref().filter(|d| !d.trim().is_empty()) {
                _ if !placed => None,
                Some(d) => {
                    let n = in_document.entry((test_set_id, d.to_string())).or_default();
                    *n += 1;
                    Some(*n)
                }
                None => Some(1),
            };
            if other_test_set == 0 {
                names.test_set_order.push(id);
            }
            names.segments.insert(id, SegmentName { key, document, test_set, test_set_id, domain, doc_index });
        }
        names
    }

    /// `platform:external id`, the worker's name in every result and export.
    pub fn worker(&self, id: i64) -> AppResult<String> {
        let (platform, external) = self.workers.get(&id).ok_or_else(|| AppError::internal(format!("a judgment of an unknown worker {id}")))?;
        Ok(format!("{platform}:{external}"))
    }

    /// The system's name; `REF` for a reference without a pair.
    pub fn system(&self, id: Option<i64>) -> AppResult<&str> {
        match id {
            None => Ok("REF"),
            Some(id) => self.systems.get(&id).map(String::as_str).ok_or_else(|| AppError::internal(format!("a judgment of an unknown system {id}"))),
        }
    }

    pub fn segment(&self, id: i64) -> AppResult<&SegmentName> {
        self.segments.get(&id).ok_or_else(|| AppError::internal(format!("a judgment of segment {id}, which is not in the campaign's test sets")))
    }
}

/// How [`judgment_set`] names things.
#[derive(Clone, Debug)]
pub struct SetShape {
    pub task: TaskKind,
    pub lang_pair: String,
    /// A study arm: systems `system @ test set`, segments `test set:key`.
    pub by_test_set: bool,
}

/// The pipeline's records of `rows` (sorted by id): skipped and unscored judgments left out,
/// one record per question of the task's protocol (word order: two), names interned once per
/// id, the campaign's test-set segments first in test-set order.
pub fn judgment_set<R: Borrow<StoredJudgment>>(rows: &[R], names: &StoredNames, shape: &SetShape) -> AppResult<JudgmentSet> {
    let questions = protocol::for_task(shape.task).questions();
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let segment_name = |s: &SegmentName| if shape.by_test_set { format!("{}:{}", s.test_set, s.key) } else { s.key.clone() };
    let mut segments: FxMap<i64, u32> = FxMap::default();
    for &id in &names.test_set_order {
        segments.insert(id, set.segments.intern(&segment_name(names.segment(id)?)));
    }
    let lang_pair = u16::try_from(set.lang_pairs.intern(&shape.lang_pair)).expect("one language pair");
    let tasks: Vec<u16> = questions
        .iter()
        .map(|q| u16::try_from(set.tasks.intern(q.task_name(shape.task), q.scale)).expect("a few questions"))
        .collect();
    let mut workers: FxMap<i64, u32> = FxMap::default();
    let mut hits: FxMap<i32, u32> = FxMap::default();
    let mut systems: FxMap<(Option<i64>, i64), u32> = FxMap::default();
    set.records.reserve(rows.len() * questions.len());
    // Gold blocks (assignment, screen, segment) → (number, outputs answered).
    let mut gold_blocks: FxMap<(i64, i32, i64), (u32, usize)> = FxMap::default();
    for j in rows.iter().map(R::borrow).filter(|j| j.gold_rank.is_some() && j.score.is_some() && !j.skipped) {
        let next = gold_blocks.len() as u32;
        gold_blocks.entry((j.assignment, j.screen.unwrap_or(j.position), j.segment)).or_insert((next, 0)).1 += 1;
    }
    // The last row's worker and HIT: rows in id order mostly follow one another within a HIT,
    // which spares two lookups per row.
    let mut last_worker: Option<(i64, u32)> = None;
    let mut last_hit: Option<(i32, u32)> = None;
    for j in rows.iter().map(R::borrow) {
        let Some(score) = j.score.filter(|_| !j.skipped) else { continue };
        let worker = match last_worker {
            Some((id, w)) if id == j.worker => w,
            _ => {
                let w = match workers.get(&j.worker) {
                    Some(&w) => w,
                    None => {
                        let w = set.workers.intern(&names.worker(j.worker)?);
                        workers.insert(j.worker, w);
                        w
                    }
                };
                last_worker = Some((j.worker, w));
                w
            }
        };
        if let Some(expected) = j.gold_rank {
            let (block, outputs) = gold_blocks[&(j.assignment, j.screen.unwrap_or(j.position), j.segment)];
            let given = protocol::ranking::rank_of_score(score, outputs)
                .ok_or_else(|| AppError::internal(format!("judgment {}: the score {score} is no rank among the {outputs} outputs of its gold block", j.id)))?;
            set.gold.answers.push(assay_core::analysis::gold::GoldAnswer { worker, block, expected: expected.max(1) as u32, given });
            continue;
        }
        let hit = match last_hit {
            Some((index, h)) if index == j.hit_index => h,
            _ => {
                let h = *hits.entry(j.hit_index).or_insert_with(|| set.hits.intern(&j.hit_index.to_string()));
                last_hit = Some((j.hit_index, h));
                h
            }
        };
        let segment = match segments.get(&j.segment) {
            Some(&s) => s,
            None => {
                let s = set.segments.intern(&segment_name(names.segment(j.segment)?));
                segments.insert(j.segment, s);
                s
            }
        };
        // By test set, a system is one per (system, test set).
        let test_set = if shape.by_test_set { names.segment(j.segment)?.test_set_id } else { 0 };
        let system = match systems.get(&(j.system, test_set)) {
            Some(&s) => s,
            None => {
                let plain = names.system(j.system)?;
                let name = if shape.by_test_set { format!("{plain} @ {}", names.segment(j.segment)?.test_set) } else { plain.to_string() };
                let s = set.systems.intern(&name);
                systems.insert((j.system, test_set), s);
                s
            }
        };
        let seconds = (j.ms.max(0) as f64 / 1000.0) as f32;
        let answer = protocol::Answer { score: Some(score), score2: j.score2, ..Default::default() };
        for (i, question) in questions.iter().enumerate() {
            let which = if i == 0 { "score" } else { "second score" };
            match (question.read)(&answer) {
                Some(v) if v.is_finite() => set.records.push(Judgment {
                    worker,
                    hit,
                    system,
                    segment,
                    lang_pair,
                    task: tasks[i],
                    item_type: j.item_type,
                    score: v,
                    seconds,
                }),
                Some(_) => return Err(AppError::internal(format!("judgment {}: the {which} is not a finite number", j.id))),
                None => {
                    return Err(AppError::internal(format!(
                        "judgment {}: a {} judgment without its {} answer",
                        j.id,
                        shape.task.as_str(),
                        ordinal(i)
                    )));
                }
            }
        }
    }
    Ok(set)
}

/// A ranking campaign's blocks: the outputs of one segment an annotator ranked together on
/// one screen, degraded copies left out (they are quality control). Repeated screens are marked:
/// WMT 2012 counted them in its rankings, which Lopez criticised, so Assay ranks systems on
/// first showings only and uses the repeats for agreement.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignBlocks {
    pub data: RankingData,
    /// Per block of `data`: whether it was on a repeated screen.
    pub repeated: Vec<bool>,
}

impl CampaignBlocks {
    /// The blocks `keep` accepts (index, block), every system kept.
    pub fn select(&self, keep: impl Fn(usize, &super::ranking::RankingBlock) -> bool) -> RankingData {
        RankingData {
            pair: self.data.pair.clone(),
            systems: self.data.systems.clone(),
            blocks: self.data.blocks.iter().enumerate().filter(|(i, b)| keep(*i, b)).map(|(_, b)| b.clone()).collect(),
        }
    }

    pub fn repeats(&self) -> usize {
        self.repeated.iter().filter(|&&r| r).count()
    }
}

/// The blocks of a ranking campaign's judgments (`rows` sorted by id). An output's rank is
/// read back from its stored score ([`protocol::ranking::rank_of_score`]) among the block's
/// outputs; judges are named as in the pipeline's records (`platform:id`).
pub fn ranking_blocks<R: Borrow<StoredJudgment>>(rows: &[R], names: &StoredNames, shape: &SetShape) -> AppResult<CampaignBlocks> {
    // (assignment, screen, segment) → the block's judgments, in order of first appearance.
    let mut index: FxMap<(i64, i32, i64), usize> = FxMap::default();
    let mut blocks: Vec<Vec<&StoredJudgment>> = Vec::new();
    for j in rows.iter().map(R::borrow) {
        if j.skipped || j.score.is_none() || j.gold_rank.is_some() {
            continue;
        }
        let key = (j.assignment, j.screen.unwrap_or(j.position), j.segment);
        let at = *index.entry(key).or_insert_with(|| {
            blocks.push(Vec::new());
            blocks.len() - 1
        });
        blocks[at].push(j);
    }
    let mut out = CampaignBlocks { data: RankingData::new(shape.lang_pair.clone()), repeated: Vec::new() };
    let mut systems: FxMap<Option<i64>, String> = FxMap::default();
    for block in &blocks {
        let first = block[0];
        let outputs = block.len();
        let mut named = Vec::with_capacity(outputs);
        for j in block {
            if j.item_type == ItemType::BadRef {
                continue;
            }
            let score = j.score.unwrap_or(f64::NAN);
            let rank = protocol::ranking::rank_of_score(score, outputs).ok_or_else(|| {
                AppError::internal(format!("judgment {}: score {score} is not a rank among the {outputs} outputs of its block", j.id))
            })?;
            if !systems.contains_key(&j.system) {
                systems.insert(j.system, names.system(j.system)?.to_string());
            }
            named.push((j.system, rank));
        }
        let repeated = block.iter().any(|j| j.item_type == ItemType::Repeat);
        let segment = names.segment(first.segment)?;
        let segment = if shape.by_test_set { format!("{}:{}", segment.test_set, segment.key) } else { segment.key.clone() };
        let judge = names.worker(first.worker)?;
        let added = out
            .data
            .push_block(&segment, &judge, named.iter().map(|(s, r)| (systems[s].as_str(), Some(*r))))
            .map_err(|e| AppError::internal(format!("judgment {}: {e}", first.id)))?;
        if added {
            out.repeated.push(repeated);
        }
    }
    Ok(out)
}

/// An ESA campaign's judgments as the ratings of the Appraise/WMT 2024 ESA CSV: items of type
/// `TGT` (system), `BAD` (degraded copy) and `CHK` (repeat), each with its spans, and one more
/// rating with `isCompleteDocument` for each document score. The item is the segment's key,
/// the document its document (the key itself when it has none), the domain the document's
/// (`general` when the test set names none); times in seconds (shown, submitted).
pub fn esa_ratings<R: Borrow<StoredJudgment>>(
    rows: &[R],
    details: &FxMap<i64, ItemDetail>,
    names: &StoredNames,
    shape: &SetShape,
) -> AppResult<Vec<assay_core::analysis::esa::EsaRating>> {
    use assay_core::analysis::esa::EsaRating;
    let mut out = Vec::new();
    let mut systems: FxMap<Option<i64>, String> = FxMap::default();
    let mut workers: FxMap<i64, String> = FxMap::default();
    for j in rows.iter().map(R::borrow) {
        if j.skipped {
            continue;
        }
        let Some(score) = j.score else { continue };
        let item_type = match j.item_type {
            ItemType::System => "TGT",
            ItemType::BadRef => "BAD",
            ItemType::Repeat => "CHK",
            ItemType::Ref => "REF",
        };
        if !systems.contains_key(&j.system) {
            systems.insert(j.system, names.system(j.system)?.to_string());
        }
        if !workers.contains_key(&j.worker) {
            workers.insert(j.worker, names.worker(j.worker)?);
        }
        let segment = names.segment(j.segment)?;
        let key = if shape.by_test_set { format!("{}:{}", segment.test_set, segment.key) } else { segment.key.clone() };
        let document = segment.document.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| key.clone());
        let item = details.get(&j.id);
        let detail = item.map(|i| &i.detail);
        let end = j.submitted_at_ms as f64 / 1000.0;
        let start = (j.submitted_at_ms - j.ms) as f64 / 1000.0;
        let rating = EsaRating {
            line: out.len() + 1,
            user: workers[&j.worker].clone(),
            system: systems[&j.system].clone(),
            item: key,
            item_type: item_type.to_string(),
            pair: shape.lang_pair.clone(),
            score,
            document,
            complete_document: false,
            domain: Some(segment.domain.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| "general".into())),
            spans: detail.map(|d| d.spans.clone()).unwrap_or_default(),
            start_time: Some(start),
            end_time: Some(end),
            target: item.map(|i| i.shown_text.clone()),
            original: item.and_then(|i| i.original.clone()),
            source: item.map(|i| i.source.clone()),
            prefilled: item.and_then(|i| i.prefilled.clone()),
            doc_seg: segment.doc_index,
        };
        let document_score = detail.and_then(|d| d.document_score);
        out.push(rating.clone());
        if let Some(d) = document_score {
            out.push(EsaRating { line: out.len() + 1, score: d, complete_document: true, spans: Vec::new(), prefilled: None, ..rating });
        }
    }
    Ok(out)
}

/// What a span task's analysis reads of one judgment besides its record: its detail, the
/// text shown, and for a degraded copy the output it was made from.
#[derive(Clone, Debug)]
pub struct ItemDetail {
    pub detail: protocol::Detail,
    pub shown_text: String,
    pub original: Option<String>,
    pub source: String,
    /// The pre-filled spans the screen started with (`hit_items.prefilled`), when it showed some.
    pub prefilled: Option<Vec<protocol::Span>>,
}

/// [`ItemDetail`] of every judgment of a campaign of a span task, by judgment id.
pub async fn campaign_details(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<FxMap<i64, ItemDetail>> {
    let context = || format!("reading the error spans of campaign {campaign_id}");
    #[allow(clippy::type_complexity)]
    let rows: Vec<(i64, Option<String>, String, Option<String>, String, Option<String>)> = sqlx::query_as(
        "SELECT j.id, j.detail, hi.shown_text, CASE WHEN hi.item_type = 'BAD_REF' THEN o.text END, s.source, hi.prefilled \
         FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN segments s ON s.id = hi.segment_id \
         LEFT JOIN system_outputs o ON o.system_id = hi.system_id AND o.segment_id = hi.segment_id \
         WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_all(&mut *conn)
    .await
    .with_context(context)?;
    let mut out = FxMap::default();
    for (id, json, shown_text, original, source, prefilled) in rows {
        let detail = protocol::Detail::from_column(json.as_deref()).map_err(|e| AppError::internal(format!("judgment {id}: its detail does not read: {e}")))?;
        let prefilled = match prefilled {
            Some(p) => Some(serde_json::from_str(&p).map_err(|e| AppError::internal(format!("judgment {id}: the pre-filled spans of its item do not read: {e}")))?),
            None => None,
        };
        out.insert(id, ItemDetail { detail, shown_text, original, source, prefilled });
    }
    Ok(out)
}

/// Whether a campaign is a comparison study's arm (its judgments are named by test set).
pub async fn is_study_arm(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<bool> {
    Ok(sqlx::query("SELECT 1 FROM study_arms WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_optional(&mut *conn)
        .await
        .with_context(|| format!("reading the study arm of campaign {campaign_id}"))?
        .is_some())
}

/// The campaign's rule for gold blocks (relative ranking), from its settings.
async fn gold_rule(conn: &mut AnyConnection, info: &CampaignInfo) -> AppResult<assay_core::analysis::gold::GoldRule> {
    let json: String = sqlx::query_scalar("SELECT settings FROM campaigns WHERE id = $1")
        .bind(info.id)
        .fetch_one(&mut *conn)
        .await
        .with_context(|| format!("reading the settings of campaign {}", info.id))?;
    let task = info.task;
    let s = assay_core::settings::CampaignSettings::read(&json, task, "", "");
    Ok(assay_core::analysis::gold::GoldRule { threshold: s.ranking.gold_threshold, min_pairs: s.ranking.gold_min_pairs })
}

fn shape(info: &CampaignInfo, by_test_set: bool) -> AppResult<SetShape> {
    let task = info.task;
    Ok(SetShape { task, lang_pair: format!("{}-{}", info.source_lang, info.target_lang), by_test_set })
}

/// Every scored judgment of campaign `campaign_id` as the pipeline's records, named by test
/// set when the campaign is a study arm. An unknown campaign is [`AppError::NotFound`]; a
/// campaign without judgments gives an empty set.
pub async fn load_campaign(db: &Db, campaign_id: i64) -> AppResult<(CampaignInfo, JudgmentSet)> {
    load_campaign_with_blocks(db, campaign_id, false).await.map(|c| (c.info, c.set))
}

/// What a protocol's own analysis reads besides the pipeline's records, from the same rows.
#[derive(Clone, Debug, Default)]
pub struct ProtocolRows {
    /// Relative ranking: the blocks ([`ranking_blocks`]).
    pub ranking: Option<CampaignBlocks>,
    /// ESA: the ratings with their spans ([`esa_ratings`]).
    pub esa: Option<Vec<assay_core::analysis::esa::EsaRating>>,
}

/// A campaign as [`load_campaign_with_blocks`] reads it.
#[derive(Debug)]
pub struct LoadedCampaign {
    pub info: CampaignInfo,
    pub set: JudgmentSet,
    /// What the protocol reads besides (empty when not asked for).
    pub protocol: ProtocolRows,
    /// The number and the largest id of the stored judgments read (skipped and unscored ones
    /// too): the version of the campaign the set is.
    pub version: (i64, i64),
    /// The smallest id of the judgments read (0 without judgments).
    pub first_id: i64,
    /// `workers.id` of every worker with a HIT in the campaign, by name (`platform:external id`).
    pub worker_ids: HashMap<String, i64>,
}

/// [`load_campaign`], what the campaign's protocol reads besides ([`ProtocolRows`], when
/// `protocol`: the review page's quality control does not need them), the version of the set
/// and the workers' database ids.
pub async fn load_campaign_with_blocks(db: &Db, campaign_id: i64, protocol: bool) -> AppResult<LoadedCampaign> {
    load(db, campaign_id, protocol, false).await.map(|(c, _)| c)
}

/// The stored judgments and names a campaign's records were built from, kept for judgment
/// files written from memory (`assay export`: the campaign read once, not twice).
#[derive(Debug)]
pub struct KeptRows {
    pub rows: CampaignJudgments,
    pub names: StoredNames,
}

/// [`load_campaign_with_blocks`] (with the protocol's rows) and the rows it was built from.
pub async fn load_campaign_keeping_rows(db: &Db, campaign_id: i64) -> AppResult<(LoadedCampaign, KeptRows)> {
    let (campaign, kept) = load(db, campaign_id, true, true).await?;
    Ok((campaign, kept.ok_or_else(|| AppError::internal("the rows were not kept"))?))
}

async fn load(db: &Db, campaign_id: i64, protocol: bool, keep: bool) -> AppResult<(LoadedCampaign, Option<KeptRows>)> {
    let started = std::time::Instant::now();
    let mut conn = db.pool.acquire().await.with_context(|| format!("reading campaign {campaign_id}"))?;
    let info = campaign_info_on(&mut conn, campaign_id).await?;
    let shape = shape(&info, is_study_arm(&mut conn, campaign_id).await?)?;
    let blocks = assay_core::protocol::ranks_blocks(shape.task);
    let rule = if blocks { Some(gold_rule(&mut conn, &info).await?) } else { None };
    let began = started.elapsed();
    let rows = read_campaign_judgments(db, &mut conn, campaign_id).await?;
    let read = started.elapsed();
    // The names after the judgments: every worker of a judgment read is then among them (one
    // who arrived between the two reads would otherwise be unknown).
    let names = match db.sqlite_file.clone().filter(|p| p.exists()) {
        Some(path) => tokio::task::spawn_blocking(move || StoredNames::read_sqlite(&path, campaign_id))
            .await
            .map_err(|e| AppError::internal(format!("reading the names failed: {e}")))??,
        None => StoredNames::read(&mut conn, campaign_id, Scope::Campaign).await?,
    };
    let spans = protocol && shape.task.marks_spans();
    let details = if spans { campaign_details(&mut conn, campaign_id).await? } else { FxMap::default() };
    drop(conn);
    let named = started.elapsed();
    let n = rows.len();
    // Interning a million records is CPU work: off the async workers.
    let (set, protocol, (first_id, last_id), worker_ids, kept) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let (set, protocol, ids) = {
            let rows = rows.by_id();
            let ids = (rows.first().map_or(0, |j| j.id), rows.last().map_or(0, |j| j.id));
            let mut set = judgment_set(&rows, &names, &shape)?;
            if let Some(rule) = rule {
                set.gold.rule = rule;
            }
            let ranking = if protocol && blocks { Some(ranking_blocks(&rows, &names, &shape)?) } else { None };
            let esa = if spans { Some(esa_ratings(&rows, &details, &names, &shape)?) } else { None };
            (set, ProtocolRows { ranking, esa }, ids)
        };
        let worker_ids = names.workers.iter().map(|(&id, (platform, external))| (format!("{platform}:{external}"), id)).collect();
        Ok((set, protocol, ids, worker_ids, keep.then_some(KeptRows { rows, names })))
    })
    .await
    .map_err(|e| AppError::internal(format!("reading the judgments failed: {e}")))??;
    if kept.is_none() {
        // The stored judgments are dropped: their memory goes back to the system, off the
        // answer's path.
        tokio::task::spawn_blocking(crate::db::release_freed_memory);
    }
    tracing::debug!(
        "campaign {campaign_id}: {n} judgments read in {} ms, names in {} ms, records built in {} ms",
        (read - began).as_millis(),
        (named - read).as_millis(),
        (started.elapsed() - named).as_millis()
    );
    Ok((LoadedCampaign { info, set, protocol, version: (n as i64, last_id), first_id, worker_ids }, kept))
}

/// One worker's scored judgments in one campaign, read and named as [`load_campaign`] reads
/// a campaign's, through the given connection (the quality gate runs inside the transaction
/// that stores the HIT's last judgment).
pub async fn load_worker(conn: &mut AnyConnection, campaign_id: i64, worker_id: i64) -> AppResult<JudgmentSet> {
    let info = campaign_info_on(conn, campaign_id).await?;
    let shape = shape(&info, is_study_arm(conn, campaign_id).await?)?;
    let rows = read_judgments(conn, campaign_id, Scope::Worker(worker_id)).await?;
    let names = StoredNames::read(conn, campaign_id, Scope::Worker(worker_id)).await?;
    let mut set = judgment_set(&rows, &names, &shape)?;
    // Gold blocks check the workers of a protocol that ranks blocks of outputs.
    if assay_core::protocol::ranks_blocks(shape.task) {
        set.gold.rule = gold_rule(conn, &info).await?;
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
