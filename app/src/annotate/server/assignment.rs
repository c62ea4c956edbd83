//! An assignment as a request finds it: one query, who may work on it, whether it is still open.

use super::error::WorkError;
use crate::db::Db;
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::i18n::Text;

/// What the server knows about an assignment when a request arrives.
#[derive(Clone, Debug)]
pub(super) struct Loaded {
    pub(super) id: i64,
    pub(super) public_id: String,
    /// The account the assignment is for; `None` for a crowd assignment.
    pub(super) owner: Option<i64>,
    pub(super) worker_id: i64,
    pub(super) campaign_id: i64,
    pub(super) hit_id: i64,
    pub(super) status: AssignmentStatus,
    pub(super) platform_params: Option<String>,
    pub(super) next_position: i64,
    pub(super) item_shown_at: Option<i64>,
    pub(super) completion_code: Option<String>,
    /// The quality gate held this finished HIT's completion code.
    pub(super) code_held: bool,
    pub(super) total: i64,
    pub(super) task: TaskKind,
    pub(super) settings: String,
    pub(super) reference_name: Option<String>,
    pub(super) source_lang: String,
    pub(super) target_lang: String,
}

crate::rows::row! {
    /// A row of [`load`]'s query.
    struct LoadedRow {
        id: i64,
        public_id: String,
        worker_id: i64,
        campaign_id: i64,
        hit_id: i64,
        status: AssignmentStatus as String,
        platform_params: Option<String>,
        next_position: i64,
        item_shown_at: Option<i64>,
        completion_code: Option<String>,
        code_held: i64,
        user_id: Option<i64>,
        blocked: i64,
        item_count: i64,
        task: TaskKind as String,
        settings: String,
        reference_name: Option<String>,
        source_lang: String,
        target_lang: String,
    }
}

pub(super) async fn load(db: &Db, caller: Option<i64>, public_id: &str) -> Result<Loaded, WorkError> {
    if public_id.is_empty() || public_id.len() > 200 {
        return Err(WorkError::NotFound);
    }
    let row: LoadedRow = sqlx::query_as(
        "SELECT a.id, a.public_id, a.worker_id, h.campaign_id, a.hit_id, a.status, a.platform_params, a.next_position, a.item_shown_at, \
                a.completion_code, a.code_held, w.user_id, w.blocked, h.item_count, c.task, c.settings, \
                c.reference_name, t.source_lang, t.target_lang \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id \
         WHERE a.public_id = $1",
    )
    .bind(public_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(WorkError::NotFound)?;
    let owner = row.user_id;
    if let Some(owner) = owner {
        match caller {
            None => return Err(WorkError::NotSignedIn),
            Some(c) if c != owner => return Err(WorkError::NotYours),
            Some(_) => {}
        }
    }
    if row.blocked != 0 {
        return Err(WorkError::Gone(Text::ErrBlocked.into()));
    }
    Ok(Loaded {
        id: row.id,
        public_id: row.public_id,
        owner,
        worker_id: row.worker_id,
        campaign_id: row.campaign_id,
        hit_id: row.hit_id,
        status: row.status,
        platform_params: row.platform_params,
        next_position: row.next_position,
        item_shown_at: row.item_shown_at,
        completion_code: row.completion_code,
        code_held: row.code_held != 0,
        total: row.item_count,
        task: row.task,
        settings: row.settings,
        reference_name: row.reference_name,
        source_lang: row.source_lang,
        target_lang: row.target_lang,
    })
}

impl Loaded {
    pub(super) fn check_live(&self) -> Result<(), WorkError> {
        match self.status {
            AssignmentStatus::Active | AssignmentStatus::Completed => Ok(()),
            // A reservation that lapsed before Start: the instructions still open, and Start
            // takes the slot back if nobody else has it (`start`).
            AssignmentStatus::Expired if !self.started() => Ok(()),
            AssignmentStatus::Expired => Err(WorkError::Gone(Text::ErrExpired.into())),
            AssignmentStatus::Returned => Err(WorkError::Gone(Text::ErrReturned.into())),
        }
    }

    pub(super) fn started(&self) -> bool {
        self.item_shown_at.is_some() || self.next_position > 0
    }

    /// Refuses an answer to a finished HIT, or to one whose worker has not pressed Start.
    pub(super) fn check_open(&self) -> Result<(), WorkError> {
        if self.status == AssignmentStatus::Completed {
            return Err(WorkError::Conflict(Text::ErrFinished.into()));
        }
        if !self.started() {
            return Err(WorkError::Conflict(Text::ErrNotStarted.into()));
        }
        Ok(())
    }
}
