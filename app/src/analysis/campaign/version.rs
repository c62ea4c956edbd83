//! Whether a campaign's judgments changed: the versions (count, largest id) of the judgments
//! table and of a campaign's, and the stamp a cache of a campaign's figures keeps.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use sqlx::Row;

use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};

/// (count, largest id) of a set of judgments.
pub(crate) type Version = (i64, i64);

/// (number, largest id) of the stored judgments of a campaign, or of every campaign (`None`):
/// what the analysis and review caches compare to know whether their figures are current.
///
/// The whole table's version on SQLite is (0, largest id): SQLite has one writer, a judgment's
/// id is the largest so far plus one when it is stored, and judgments are never deleted, so the
/// largest id moves with every judgment committed. Read through the primary key, that costs
/// microseconds, where counting a million rows took 20 ms (100 ms on a connection's first read).
/// PostgreSQL hands out ids from a sequence before commit, so a smaller id can be committed after
/// a larger one: there the count is read too, most of it once a minute ([`SettledMark`]).
pub(crate) async fn version(db: &Db, campaign: Option<i64>) -> AppResult<Version> {
    let row = match campaign {
        None if db.backend == crate::db::Backend::Sqlite => {
            sqlx::query("SELECT 0, COALESCE(MAX(id), 0) FROM judgments").fetch_one(&db.pool).await
        }
        None => return pg_table_version(db, SETTLE_MS).await,
        Some(id) => {
            sqlx::query(
                "SELECT COUNT(*), COALESCE(MAX(j.id), 0) FROM hits h JOIN assignments a ON a.hit_id = h.id \
                 JOIN judgments j ON j.assignment_id = a.id WHERE h.campaign_id = $1",
            )
            .bind(id)
            .fetch_one(&db.pool)
            .await
        }
    }
    .context("reading how many judgments there are")?;
    Ok((row.try_get(0).context("reading how many judgments there are")?, row.try_get(1).context("reading how many judgments there are")?))
}

/// How long after a judgment id is handed out its transaction has ended (committed or rolled
/// back), as the review page's incremental update assumes too (its late-commit margin).
const SETTLE_MS: i64 = 60_000;

/// PostgreSQL's table version without counting the whole table at every check (70–90 ms at a
/// million judgments): the judgments up to a settled id (`mark`) are counted once (`below`), and
/// a check counts only those above it, an index range. The mark moves up, at most once per
/// [`SETTLE_MS`], to the largest id a check saw at least that long before: every transaction
/// that had an id up to it has ended since, so its count no longer changes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SettledMark {
    mark: i64,
    below: i64,
    /// The largest id a check saw, and when (Unix ms, after it was read).
    seen: i64,
    seen_at: i64,
}

impl SettledMark {
    /// The id to count up to now, if the mark can move (`settle`: [`SETTLE_MS`]).
    fn due(&self, now: i64, settle: i64) -> Option<i64> {
        (self.seen > self.mark && now - self.seen_at >= settle).then_some(self.seen)
    }

    /// A check saw `max` as the largest id at `now`: kept when nothing is waiting to settle.
    fn saw(&mut self, max: i64, now: i64, settle: i64) {
        if self.seen <= self.mark || now - self.seen_at >= settle {
            self.seen = max;
            self.seen_at = now;
        }
    }
}

static PG_MARKS: OnceLock<Mutex<HashMap<u64, SettledMark>>> = OnceLock::new();

pub(crate) async fn pg_table_version(db: &Db, settle: i64) -> AppResult<Version> {
    let what = "reading how many judgments there are";
    let marks = PG_MARKS.get_or_init(Default::default);
    let mut m = marks.lock().map_err(|_| AppError::internal("the judgment count's mark is poisoned"))?.get(&db.id).copied().unwrap_or_default();
    if let Some(to) = m.due(now_ms(), settle) {
        let below: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM judgments WHERE id <= $1").bind(to).fetch_one(&db.pool).await.context(what)?;
        (m.mark, m.below) = (to, below);
    }
    let (above, max): (i64, i64) =
        sqlx::query_as("SELECT (SELECT COUNT(*) FROM judgments WHERE id > $1), (SELECT COALESCE(MAX(id), 0) FROM judgments)")
            .bind(m.mark)
            .fetch_one(&db.pool)
            .await
            .context(what)?;
    m.saw(max, now_ms(), settle);
    let mut all = marks.lock().map_err(|_| AppError::internal("the judgment count's mark is poisoned"))?;
    // Of two checks at once, the one with the higher mark stays.
    let kept = all.entry(db.id).or_default();
    if m.mark >= kept.mark {
        *kept = m;
    }
    Ok((m.below + above, max))
}

/// What a cache of a campaign's figures keeps to know whether they are current: the version of
/// the campaign's judgments they are of, and the whole judgments table's when last checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stamp {
    pub campaign: Version,
    pub table: Version,
}

/// What [`Stamp::current`] found.
pub(crate) enum Current {
    /// The campaign's judgments are those the figures are of.
    Yes,
    /// They changed: the versions now.
    No { table: Version, campaign: Version },
}

impl Stamp {
    /// Whether the campaign's judgments are unchanged: the table's version first ([`version`]),
    /// the campaign's (a join) only when the table's moved; when only other
    /// campaigns' judgments arrived, the stamp takes the table's new version.
    pub(crate) async fn current(&mut self, db: &Db, campaign_id: i64) -> AppResult<Current> {
        let table = version(db, None).await?;
        if self.table == table {
            return Ok(Current::Yes);
        }
        let campaign = version(db, Some(campaign_id)).await?;
        if self.campaign == campaign {
            self.table = table;
            return Ok(Current::Yes);
        }
        Ok(Current::No { table, campaign })
    }
}

#[cfg(test)]
mod mark_tests {
    use super::SettledMark;

    #[test]
    fn the_mark_moves_to_an_id_seen_a_settling_time_before_and_no_sooner() {
        let mut m = SettledMark::default();
        assert_eq!(m.due(0, 60), None, "nothing seen");
        m.saw(100, 0, 60);
        assert_eq!(m.due(59, 60), None, "not settled yet");
        // Later checks while 100 settles do not move what is waiting.
        m.saw(150, 30, 60);
        assert_eq!((m.seen, m.seen_at), (100, 0));
        assert_eq!(m.due(60, 60), Some(100));
        (m.mark, m.below) = (100, 97);
        m.saw(180, 61, 60);
        assert_eq!((m.seen, m.seen_at), (180, 61), "after a move, the next id to settle");
        assert_eq!(m.due(120, 60), None);
        assert_eq!(m.due(121, 60), Some(180));
        // No judgment since the mark: nothing to count again.
        let mut quiet = SettledMark { mark: 180, below: 170, seen: 180, seen_at: 0 };
        assert_eq!(quiet.due(1_000, 60), None);
        quiet.saw(180, 1_000, 60);
        assert_eq!(quiet.due(2_000, 60), None);
    }
}
