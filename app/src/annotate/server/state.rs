//! The work page's state and the step an assignment is at: the work state, Start, and the
//! completion of a finished HIT.

use super::assignment::{Loaded, load};
use super::codes::{completion_view, gate_code};
use super::error::WorkError;
use super::items::{Fixed, Work};
use super::practice::practice_view;
use crate::annotate::{Step, WorkState};
use crate::db::{Db, now_ms};
use crate::model::AssignmentStatus;
use assay_core::i18n::Text;
use assay_core::protocol;

/// The current step of an assignment (after any change has been stored), its item from the
/// HIT's items `f`.
pub(super) fn step_of(secret: &[u8], a: &Loaded, f: &Fixed) -> Result<Step, WorkError> {
    if a.status == AssignmentStatus::Completed || a.next_position >= a.total {
        return Ok(Step {
            answered: a.total,
            item: None,
            together: Vec::new(),
            completion: Some(completion_view(secret, a)),
        });
    }
    if !a.started() {
        return Ok(Step { answered: 0, item: None, together: Vec::new(), completion: None });
    }
    f.step_at(a.next_position)
        .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, a.next_position)))
}

/// The work page's state: the campaign's screen and the current step.
pub async fn work_state(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<WorkState, WorkError> {
    work_state_in(db, cache, secret, caller, public_id, None).await
}

/// [`work_state`] for a browser that reads the languages of `accept_language` (its
/// `Accept-Language` header): the screens' words in the interface language
/// ([`crate::annotate::localized_screen_settings`]).
pub async fn work_state_in(
    db: &Db,
    cache: &Work,
    secret: &[u8],
    caller: Option<i64>,
    public_id: &str,
    accept_language: Option<&str>,
) -> Result<WorkState, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    let f = cache.fixed(db, &a).await?;
    let a = finish_if_due(db, secret, a).await?;
    let step = step_of(secret, &a, &f)?;
    let screen = crate::annotate::localized_screen_settings(&a.settings, a.task, &a.target_lang, &a.source_lang, accept_language);
    let practice = if a.started() || a.status == AssignmentStatus::Completed { None } else { practice_view(db, &a).await? };
    // A DA HIT not started, with no practice left to do: the first item comes with the
    // instructions, so that Start shows it at once (and works before the page's bundle has
    // arrived on a slow phone). Its time still starts when Start reaches the server.
    let one_slider = protocol::for_task(a.task).hit_plan() == protocol::HitPlan::Items;
    let ahead = if one_slider && !a.started() && a.status == AssignmentStatus::Active && practice.as_ref().is_none_or(|p| p.passed) {
        f.step_at(a.next_position)
    } else {
        None
    };
    Ok(WorkState {
        assignment: a.public_id.clone(),
        title: crate::annotate::public_title(&a.settings, a.task, screen.ui),
        task: a.task,
        // Direction comes from the test set's language code; the settings hold a display name.
        target_dir: crate::annotate::direction_of(&a.target_lang).to_string(),
        source_dir: crate::annotate::direction_of(&a.source_lang).to_string(),
        source_lang: crate::annotate::bcp47(&a.source_lang),
        practice,
        screen,
        total: a.total,
        screens: f.screens(),
        started: a.started(),
        step,
        ahead,
    })
}

/// An active assignment whose every item is answered but that is not marked completed (only
/// possible if a HIT's size changed): completes it now. A finished assignment whose code the
/// gate never decided on (its last answer committed, then the server stopped or the gate
/// failed): the gate decides now.
pub(super) async fn finish_if_due(db: &Db, secret: &[u8], mut a: Loaded) -> Result<Loaded, WorkError> {
    if a.status == AssignmentStatus::Active && a.next_position >= a.total {
        let now = now_ms();
        let mut tx = db.writer.begin().await?;
        let done = sqlx::query("UPDATE assignments SET status = $1, completed_at = $2 WHERE id = $3 AND status = $4")
            .bind(AssignmentStatus::Completed.as_str())
            .bind(now)
            .bind(a.id)
            .bind(AssignmentStatus::Active.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 1 {
            crate::campaign::gate::hold_until_decided(&mut tx, a.id).await?;
            tx.commit().await?;
            let code = gate_code(db, secret, a.id).await?;
            a.code_held = code.is_none();
            a.completion_code = code;
        } else {
            // Another request finished it first: read what it decided.
            tx.rollback().await?;
            let (completion_code, code_held): (Option<String>, i64) =
                sqlx::query_as("SELECT completion_code, code_held FROM assignments WHERE id = $1")
                    .bind(a.id)
                    .fetch_one(&db.pool)
                    .await?;
            a.completion_code = completion_code;
            a.code_held = code_held != 0;
        }
        a.status = AssignmentStatus::Completed;
    } else if a.status == AssignmentStatus::Completed && a.code_held && a.completion_code.is_none()
        && crate::campaign::gate::undecided(db, a.id).await?
    {
        let code = gate_code(db, secret, a.id).await?;
        a.code_held = code.is_none();
        a.completion_code = code;
    }
    Ok(a)
}

/// Leaves the instructions page: the first item's time starts now. Idempotent.
pub async fn start(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<Step, WorkError> {
    let mut a = load(db, caller, public_id).await?;
    a.check_live()?;
    let f = cache.fixed(db, &a).await?;
    // The server, not the browser, decides that the practice is done.
    if !a.started() && practice_view(db, &a).await?.is_some_and(|p| !p.passed) {
        return Err(WorkError::Conflict(Text::ErrPracticeFirst.into()));
    }
    if a.status == AssignmentStatus::Expired && !a.started() {
        if !crate::campaign::assign::reclaim_reservation(db, a.id, now_ms()).await? {
            return Err(WorkError::Gone(Text::ErrReservationGone.into()));
        }
        a = load(db, caller, public_id).await?;
    }
    if a.status == AssignmentStatus::Active && !a.started() {
        let now = now_ms();
        sqlx::query("UPDATE assignments SET item_shown_at = $1, last_seen_at = $1 WHERE id = $2 AND item_shown_at IS NULL")
            .bind(now)
            .bind(a.id)
            .execute(&db.writer)
            .await?;
        a = load(db, caller, public_id).await?;
    }
    step_of(secret, &a, &f)
}
