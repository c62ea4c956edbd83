//! Completion codes (made and normalised by `crate::signing`): the code a finished HIT shows, the
//! quality gate's decision on it, and checking a code someone presents.

use super::assignment::Loaded;
use super::error::WorkError;
use crate::annotate::{CodeCheck, Completion};
use crate::campaign::assign::return_url;
use crate::db::Db;
use crate::model::AssignmentStatus;
use crate::signing::{completion_code, normalise_code};

pub(super) fn completion_view(secret: &[u8], a: &Loaded) -> Completion {
    if a.code_held && a.completion_code.is_none() {
        // Held by the quality gate: no code and no return address (which would carry one).
        return Completion { code: None, return_url: None };
    }
    let code = a.completion_code.clone().unwrap_or_else(|| completion_code(secret, &a.public_id));
    let return_url = a.platform_params.as_deref().and_then(|p| return_url(p, &code));
    Completion { code: Some(code), return_url }
}

/// The quality gate's decision on a HIT whose last answer is committed (its code held by
/// `gate::hold_until_decided` in that transaction): the completion code, or `None` when the
/// gate holds it. The gate reads and computes off the writer and stores its verdict in a short
/// transaction of its own (`gate::decide`). If it fails, the answer stays stored with its code
/// held, and the next look at the assignment runs the gate again ([`finish_if_due`]).
pub(super) async fn gate_code(db: &Db, secret: &[u8], assignment: i64) -> Result<Option<String>, WorkError> {
    crate::campaign::gate::decide(db, secret, assignment)
        .await
        .map(|g| g.code)
        .map_err(|e| WorkError::Internal(format!("the quality gate failed: {e}")))
}

/// Who presents a completion code, in the crowd platform's words (each optional): Mechanical
/// Turk's `workerId` and `assignmentId`, Prolific's `PROLIFIC_PID` and `SESSION_ID`, a plain
/// link's `worker`.
#[derive(Clone, Debug, Default)]
pub struct CodeClaim {
    pub mturk_worker: Option<String>,
    pub mturk_assignment: Option<String>,
    pub prolific_worker: Option<String>,
    pub prolific_session: Option<String>,
    pub link_worker: Option<String>,
}

impl CodeClaim {
    /// Whether every id the claim gives is that of the code's assignment: its worker on that
    /// platform, and the session it was started with (from `platform_params`).
    pub(super) fn matches(&self, platform: &str, worker: &str, platform_params: Option<&str>) -> bool {
        let params = platform_params.and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok());
        let param = |key: &str| params.as_ref().and_then(|v| v.get(key)?.as_str()).map(|s| s.trim().to_string());
        let same = |given: &Option<String>, on: &str, actual: Option<String>| {
            given.as_deref().is_none_or(|g| platform == on && actual.is_some_and(|a| a == g.trim()))
        };
        same(&self.mturk_worker, "mturk", Some(worker.trim().to_string()))
            && same(&self.mturk_assignment, "mturk", param("assignmentId"))
            && same(&self.prolific_worker, "prolific", Some(worker.trim().to_string()))
            && same(&self.prolific_session, "prolific", param("SESSION_ID"))
            && same(&self.link_worker, "link", Some(worker.trim().to_string()))
    }

    /// Whether the claim names the code's worker at all (issue 38): the worker id of its
    /// platform, and the platform session when the assignment was started in one. An account's
    /// assignment has no platform ids: no claim names it.
    fn names_worker(&self, platform: &str, platform_params: Option<&str>) -> bool {
        let session = crate::campaign::assign::session_of(platform_params).is_some();
        match platform {
            "mturk" => self.mturk_worker.is_some() && (!session || self.mturk_assignment.is_some()),
            "prolific" => self.prolific_worker.is_some() && (!session || self.prolific_session.is_some()),
            "link" => self.link_worker.is_some(),
            _ => false,
        }
    }
}

/// Checks a completion code: it must belong to a completed assignment and carry the server's
/// signature of that assignment's public id, and every platform id the claim gives must be that
/// assignment's (a code passed on to another worker or session is invalid). It is `valid` only
/// when the claim names the assignment's worker (and session); a genuine code without them is
/// answered not valid, with its assignment (which the caller shows to organizers only, who may
/// verify without the ids).
pub async fn verify_code(db: &Db, secret: &[u8], code: &str, claim: &CodeClaim) -> Result<CodeCheck, WorkError> {
    let invalid = CodeCheck { valid: false, assignment: None, campaign_name: None, completed_at: None };
    let Some(code) = normalise_code(code) else { return Ok(invalid) };
    crate::rows::row! {
        struct Issued {
            public_id: String,
            completed_at: Option<i64>,
            platform_params: Option<String>,
            platform: String,
            external_id: String,
            name: String,
        }
    }
    let row: Option<Issued> = sqlx::query_as(
        "SELECT a.public_id, a.completed_at, a.platform_params, w.platform, w.external_id, c.name FROM assignments a \
         JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id JOIN workers w ON w.id = a.worker_id \
         WHERE a.completion_code = $1 AND a.status = $2",
    )
    .bind(&code)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(invalid) };
    if completion_code(secret, &row.public_id) != code {
        return Ok(invalid);
    }
    if !claim.matches(&row.platform, &row.external_id, row.platform_params.as_deref()) {
        return Ok(invalid);
    }
    Ok(CodeCheck {
        valid: claim.names_worker(&row.platform, row.platform_params.as_deref()),
        assignment: Some(row.public_id),
        campaign_name: Some(row.name),
        completed_at: row.completed_at,
    })
}
