//! Both engines' readers of a whole campaign: its HITs in parts read side by side, on SQLite through
//! read-only rusqlite connections, on PostgreSQL through its own driver.

use tokio_stream::StreamExt;
use sqlx::AnyConnection;

use super::query::{JUDGMENT_COLUMN_COUNT, JUDGMENTS_BY_ID, Scope, StoredJudgment, by_id_range, judgment_sql, raw_judgment, read_judgments, stored};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::analysis::sqlite_rows::RawStatement;

/// A campaign's judgments as read: in parts (each part's in the order the query gave them).
#[derive(Debug, Default)]
pub struct CampaignJudgments {
    pub(super) parts: Vec<Vec<StoredJudgment>>,
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
pub(super) struct HitRange {
    pub(super) first: i64,
    pub(super) last: i64,
    pub(super) most: usize,
}

/// The campaign's HITs, each with the most judgments it can hold (items × assignments), by id.
const HIT_SIZES: &str = "SELECT h.id, h.item_count * (SELECT COUNT(*) FROM assignments a WHERE a.hit_id = h.id) FROM hits h \
     WHERE h.campaign_id = ?1 ORDER BY h.id";

/// `hits` ((id, most judgments), by id) in at most `parts` ranges of HIT ids, in order, each
/// with about as many judgments as the others can hold; none without HITs.
pub(super) fn hit_ranges(hits: &[(i64, i64)], parts: usize) -> Vec<HitRange> {
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

pub(super) fn open_sqlite(path: &std::path::Path, campaign_id: i64) -> AppResult<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    let conn = rusqlite::Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| sqlite_failed(campaign_id, e))?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(|e| sqlite_failed(campaign_id, e))?;
    Ok(conn)
}

pub(super) fn sqlite_failed(campaign_id: i64, e: impl std::fmt::Display) -> AppError {
    AppError::internal(format!("database error while reading the judgments of campaign {campaign_id}: {e}"))
}

/// Every judgment of the campaign: its HITs split into ranges read side by side, each on a
/// connection of its own, in one read transaction each. The ranges are fixed before the reading
/// starts; a HIT's judgments are all in one range.
pub(super) fn read_sqlite(path: &std::path::Path, campaign_id: i64, parts: usize) -> AppResult<CampaignJudgments> {
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
    let raw_failed = |e: crate::analysis::sqlite_rows::RawError| sqlite_failed(campaign_id, e.to_string());
    let mut stmt = RawStatement::prepare(&conn, &sql, JUDGMENT_COLUMN_COUNT).map_err(raw_failed)?;
    stmt.start(&params).map_err(raw_failed)?;
    while stmt.step().map_err(raw_failed)? {
        if !each(raw_judgment(&stmt, campaign_id)?) {
            break;
        }
    }
    Ok(())
}
