//! The one judgment query, as SQL for each engine (its scopes, its orders, a table driven by ids on
//! SQLite), and its rows read as [`StoredJudgment`]s from sqlx's drivers and from SQLite's C
//! interface.

use tokio_stream::{Stream, StreamExt};
use sqlx::AnyConnection;

use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use crate::analysis::sqlite_rows::RawStatement;

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
pub(super) const JUDGMENTS_BY_ID: &str = concat!(
    judgment_columns!(),
    "FROM judgments j CROSS JOIN assignments a ON a.id = j.assignment_id CROSS JOIN hits h ON h.id = a.hit_id",
    judgment_items!(),
    "WHERE h.campaign_id = $1 AND j.id BETWEEN $2 AND $3 ORDER BY j.id"
);

/// PostgreSQL's [`JUDGMENTS_BY_ID`] (it has no `CROSS JOIN … ON`; its planner orders the joins).
pub(super) const JUDGMENTS_BY_ID_PG: &str = concat!(
    judgment_columns!(),
    "FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id",
    judgment_items!(),
    "WHERE h.campaign_id = $1 AND j.id BETWEEN $2 AND $3 ORDER BY j.id"
);

/// How many judgments a campaign has, and its smallest and largest judgment id.
pub(super) const ID_RANGE: &str = "SELECT COUNT(*), MIN(j.id), MAX(j.id) FROM hits h JOIN assignments a ON a.hit_id = h.id \
     JOIN judgments j ON j.assignment_id = a.id WHERE h.campaign_id = $1";

/// The id range worth reading in id order: when the campaign's judgments are at least half of
/// the ids in it (see [`by_id_range`]).
pub(super) fn dense(n: i64, first: Option<i64>, last: Option<i64>) -> Option<(i64, i64)> {
    match (first, last) {
        (Some(first), Some(last)) if n.saturating_mul(2) >= last - first + 1 => Some((first, last)),
        _ => None,
    }
}

/// The one judgment query: `ordered` sorts by judgment id in the database (the exports'
/// order; the analysis sorts in memory, which is cheaper).
pub(super) fn judgment_sql(scope: Scope, ordered: bool) -> String {
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
pub(super) fn stored<R: sqlx::Row>(row: &R) -> AppResult<StoredJudgment>
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

/// The columns of the judgment query ([`judgment_columns`]).
pub(super) const JUDGMENT_COLUMN_COUNT: usize = 17;

/// The current row of the judgment query, read from SQLite's C interface, as a
/// [`StoredJudgment`].
pub(super) fn raw_judgment(row: &RawStatement<'_>, campaign_id: i64) -> AppResult<StoredJudgment> {
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
pub(super) fn by_id_range(conn: &rusqlite::Connection, campaign_id: i64) -> rusqlite::Result<Option<(i64, i64)>> {
    let (n, first, last): (i64, Option<i64>, Option<i64>) = conn.query_row(ID_RANGE, [campaign_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(dense(n, first, last))
}
