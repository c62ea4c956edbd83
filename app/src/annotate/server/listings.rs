//! Listings: an account's assignments, every assignment (organizers), and an assignment's
//! judgments and items with their hidden facts (organizers).

use super::error::WorkError;
use crate::annotate::{AssignmentSummary, JudgmentRecord, MyAssignment};
use crate::db::Db;
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::protocol;

crate::rows::row! {
    /// A row of [`my_assignments`]' query.
    struct MyAssignmentRow {
        public_id: String,
        status: AssignmentStatus as String,
        next_position: i64,
        item_count: i64,
        name: String,
        task: TaskKind as String,
    }
}

/// The account's live assignments (active first), for the home page.
pub async fn my_assignments(db: &Db, user_id: i64) -> Result<Vec<MyAssignment>, WorkError> {
    let rows: Vec<MyAssignmentRow> = sqlx::query_as(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id \
         WHERE w.user_id = $1 AND a.status IN ($2, $3) ORDER BY a.status, a.started_at, a.id",
    )
    .bind(user_id)
    .bind(AssignmentStatus::Active.as_str())
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| MyAssignment {
            assignment: r.public_id,
            campaign_name: r.name,
            task: r.task,
            total: r.item_count,
            answered: r.next_position,
            completed: r.status == AssignmentStatus::Completed,
        })
        .collect())
}

crate::rows::row! {
    /// A row of [`all_assignments`]' query.
    struct AssignmentRow {
        public_id: String,
        status: AssignmentStatus as String,
        next_position: i64,
        item_count: i64,
        name: String,
        task: TaskKind as String,
        platform: String,
        campaign_id: i64,
    }
}

/// Every assignment, newest first (organizers).
pub async fn all_assignments(db: &Db) -> Result<Vec<AssignmentSummary>, WorkError> {
    let rows: Vec<AssignmentRow> = sqlx::query_as(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task, w.platform, c.id AS campaign_id \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id ORDER BY a.id DESC",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| AssignmentSummary {
            assignment: r.public_id,
            campaign_id: r.campaign_id,
            campaign_name: r.name,
            task: r.task,
            platform: r.platform,
            status: r.status,
            total: r.item_count,
            answered: r.next_position,
        })
        .collect())
}

crate::rows::row! {
    /// A row of [`judgments_of`]' query.
    struct JudgmentRow {
        position: i64,
        item_type: String,
        system: Option<String>,
        segment_key: String,
        score: Option<f64>,
        score2: Option<f64>,
        skipped: i64,
        shown_at: Option<i64>,
        submitted_at: i64,
        time_on_screen_ms: Option<i64>,
        active_ms: Option<i64>,
        detail: Option<String>,
    }
}

impl From<JudgmentRow> for JudgmentRecord {
    fn from(r: JudgmentRow) -> Self {
        JudgmentRecord {
            position: r.position,
            item_type: r.item_type,
            system: r.system,
            segment_key: r.segment_key,
            score: r.score,
            score2: r.score2,
            skipped: r.skipped != 0,
            shown_at: r.shown_at,
            submitted_at: r.submitted_at,
            time_on_screen_ms: r.time_on_screen_ms,
            active_ms: r.active_ms,
            // A detail that does not read is shown as none (the analysis reports it).
            detail: protocol::Detail::from_column(r.detail.as_deref()).ok().filter(|d| !d.is_empty()),
        }
    }
}

/// The judgments of an assignment with their items' hidden facts, in item order (organizers).
pub async fn judgments_of(db: &Db, public_id: &str) -> Result<Vec<JudgmentRecord>, WorkError> {
    let rows: Vec<JudgmentRow> = sqlx::query_as(
        "SELECT hi.position, hi.item_type, sy.name AS system, s.segment_key, j.score, j.score2, j.skipped, \
                j.shown_at, j.submitted_at, j.time_on_screen_ms, j.active_ms, j.detail \
         FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hit_items hi ON hi.id = j.hit_item_id \
         JOIN segments s ON s.id = hi.segment_id LEFT JOIN systems sy ON sy.id = hi.system_id \
         WHERE a.public_id = $1 ORDER BY hi.position, j.id",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().map(JudgmentRecord::from).collect())
}

/// The items of an assignment's HIT with their hidden facts, answered or not (organizers):
/// (position, item type, system name).
#[allow(clippy::type_complexity)]
pub async fn items_of(db: &Db, public_id: &str) -> Result<Vec<(i64, String, Option<String>, Option<i64>, Option<String>, Option<String>, Option<String>)>, WorkError> {
    Ok(sqlx::query_as(
        "SELECT hi.position, hi.item_type, sy.name AS system, hi.gold_rank, sb.name AS pair_system, hi.pair_left, hi.pair_degraded \
         FROM assignments a JOIN hit_items hi ON hi.hit_id = a.hit_id \
         LEFT JOIN systems sy ON sy.id = hi.system_id LEFT JOIN systems sb ON sb.id = hi.pair_system_id WHERE a.public_id = $1 ORDER BY hi.position",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?)
}
