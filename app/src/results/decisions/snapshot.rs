//! The review page's quality-control rows kept in the database (`review_snapshots`), so that a
//! server that has not computed them yet (after a restart, or another app server on the same
//! database) starts from them instead of reading every judgment of the campaign again: at a
//! million judgments that read is most of a second, the stored rows tens of milliseconds.
//!
//! A snapshot holds the rows, the versions of the judgments they are of ([`Stamp`]) and when
//! those were read. [`super::qc_rows`] uses it as it uses its own cache: as it is while the
//! campaign's judgments are unchanged, else brought up to date worker by worker. Rows written by
//! another build ([`format`]) are ignored, and so, with a warning, are rows that cannot be read:
//! the page then reads the campaign anew. Of two servers writing at once, the rows read last
//! stay. A snapshot is a cache: a failure to write one is logged and the page is answered.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::CachedRow;
use crate::analysis::campaign::Stamp;
use crate::db::Db;
use crate::results::WorkerRow;

/// How often a server stores rows it keeps current incrementally (the first computation is
/// always stored): the review page refreshes every few seconds while judgments arrive, and a
/// server starting from rows this old catches up on the workers who worked since.
pub(super) const STORE_EVERY_MS: i64 = 60_000;

/// The build that writes and reads the rows: a snapshot of another is not read (its rows may
/// have another shape or come from other rules).
fn format() -> String {
    format!("1/{}", env!("CARGO_PKG_VERSION"))
}

/// Rows read back from the database.
pub(super) struct Snapshot {
    pub stamp: Stamp,
    /// When the judgments the rows are of were read (Unix ms).
    pub read_at: i64,
    pub rows: Vec<CachedRow>,
}

/// A row as stored (its search key is made again when read).
#[derive(Serialize)]
struct StoredRef<'a> {
    row: &'a WorkerRow,
    pairs: &'a [(f64, f64)],
    worker_id: i64,
}

#[derive(Deserialize)]
struct Stored {
    row: WorkerRow,
    pairs: Vec<(f64, f64)>,
    worker_id: i64,
}

/// The rows as the database keeps them.
fn encode(rows: &[CachedRow]) -> serde_json::Result<String> {
    serde_json::to_string(&rows.iter().map(|r| StoredRef { row: &r.row, pairs: &r.pairs, worker_id: r.worker_id }).collect::<Vec<_>>())
}

fn decode(text: &str) -> serde_json::Result<Vec<CachedRow>> {
    let stored: Vec<Stored> = serde_json::from_str(text)?;
    Ok(stored.into_iter().map(|s| CachedRow::new(s.row, s.pairs, s.worker_id)).collect())
}

/// The stored rows of `campaign_id` under the reliability test chosen (`wilcoxon`), if this
/// build wrote them and they can be read.
pub(super) async fn load(db: &Db, campaign_id: i64, wilcoxon: bool) -> Option<Snapshot> {
    let row = sqlx::query(
        "SELECT format, table_count, table_max, campaign_count, campaign_max, read_at, rows_json \
         FROM review_snapshots WHERE campaign_id = $1 AND wilcoxon = $2",
    )
    .bind(campaign_id)
    .bind(i64::from(wilcoxon))
    .fetch_optional(&db.pool)
    .await;
    let row = match row {
        Ok(Some(row)) => row,
        Ok(None) => return None,
        Err(e) => {
            tracing::warn!("review of campaign {campaign_id}: the stored rows could not be read ({e}); reading the judgments");
            return None;
        }
    };
    let fields = || -> Result<(String, Stamp, i64, String), sqlx::Error> {
        let stamp = Stamp { table: (row.try_get(1)?, row.try_get(2)?), campaign: (row.try_get(3)?, row.try_get(4)?) };
        Ok((row.try_get(0)?, stamp, row.try_get(5)?, row.try_get(6)?))
    };
    let (format_of, stamp, read_at, text) = match fields() {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!("review of campaign {campaign_id}: the stored rows could not be read ({e}); reading the judgments");
            return None;
        }
    };
    if format_of != format() {
        tracing::debug!("review of campaign {campaign_id}: the stored rows are of build {format_of}, not this one; reading the judgments");
        return None;
    }
    let started = std::time::Instant::now();
    match tokio::task::spawn_blocking(move || decode(&text)).await {
        Ok(Ok(rows)) => {
            tracing::debug!(
                "review of campaign {campaign_id}: from the stored rows ({} rows read at {read_at}, decoded in {} ms)",
                rows.len(),
                started.elapsed().as_millis()
            );
            Some(Snapshot { stamp, read_at, rows })
        }
        Ok(Err(e)) => {
            tracing::warn!("review of campaign {campaign_id}: the stored rows could not be decoded ({e}); reading the judgments");
            None
        }
        Err(e) => {
            tracing::warn!("review of campaign {campaign_id}: decoding the stored rows failed ({e}); reading the judgments");
            None
        }
    }
}

/// Stores `rows`, of the judgments `stamp` read at `read_at`, unless rows read later are there.
/// Failures are logged, not returned: the page has its rows.
pub(super) async fn store(db: &Db, campaign_id: i64, wilcoxon: bool, stamp: Stamp, read_at: i64, rows: std::sync::Arc<Vec<CachedRow>>) {
    let started = std::time::Instant::now();
    let text = match tokio::task::spawn_blocking(move || encode(&rows)).await {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => return tracing::warn!("review of campaign {campaign_id}: the rows could not be encoded for storing ({e})"),
        Err(e) => return tracing::warn!("review of campaign {campaign_id}: encoding the rows failed ({e})"),
    };
    let bytes = text.len();
    let written = sqlx::query(
        "INSERT INTO review_snapshots (campaign_id, wilcoxon, format, table_count, table_max, campaign_count, campaign_max, read_at, rows_json) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
         ON CONFLICT (campaign_id, wilcoxon) DO UPDATE SET format = excluded.format, table_count = excluded.table_count, \
         table_max = excluded.table_max, campaign_count = excluded.campaign_count, campaign_max = excluded.campaign_max, \
         read_at = excluded.read_at, rows_json = excluded.rows_json \
         WHERE review_snapshots.read_at <= excluded.read_at OR review_snapshots.format <> excluded.format",
    )
    .bind(campaign_id)
    .bind(i64::from(wilcoxon))
    .bind(format())
    .bind(stamp.table.0)
    .bind(stamp.table.1)
    .bind(stamp.campaign.0)
    .bind(stamp.campaign.1)
    .bind(read_at)
    .bind(text)
    .execute(&db.writer)
    .await;
    match written {
        Ok(_) => tracing::debug!("review of campaign {campaign_id}: rows stored ({bytes} bytes in {} ms)", started.elapsed().as_millis()),
        Err(e) => tracing::warn!("review of campaign {campaign_id}: the rows could not be stored ({e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_as_they_were_stored_with_their_search_keys() {
        // Numbers that JSON rounds unless it reads them back exactly.
        let mut first = super::super::tests::cached(7, "mturk:ABC", "pass");
        first.row.p_value = Some(1.234_567_890_123e-7);
        first.row.mean_bad_ref = Some(1.0 / 3.0);
        first.row.mean_hit_seconds = Some(812.25);
        first.row.flags = vec!["fast".into()];
        first.pairs = vec![(80.0, 12.5), (0.1, 100.0)];
        let rows = vec![first, super::super::tests::cached(9, "link:zoë", "fail")];
        let back = decode(&encode(&rows).unwrap()).unwrap();
        assert_eq!(back.len(), 2);
        for (a, b) in rows.iter().zip(&back) {
            assert_eq!((&a.row, &a.pairs, a.worker_id, &a.search_key), (&b.row, &b.pairs, b.worker_id, &b.search_key));
        }
        assert_eq!(back[1].search_key, "link:zoë");
        assert!(decode("[{\"row\": 1}]").is_err());
    }
}
