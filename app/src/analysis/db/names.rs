//! The names behind a judgment's ids: workers, systems and segments, read after the judgments.

use std::collections::HashMap;

use sqlx::AnyConnection;

use super::query::Scope;
use super::readers::{open_sqlite, sqlite_failed};
use crate::analysis::FxMap;
use crate::error::{AppError, AppResult, StorageContext};

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
    pub(super) fn read_sqlite(path: &std::path::Path, campaign_id: i64) -> AppResult<StoredNames> {
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
