//! The organizer's decisions about a campaign's workers (issue 6 item 1): approve, reject with
//! a reason, block or unblock (the existing `workers.blocked`: no more work anywhere), grant a
//! bonus in the campaign's payment currency. Decisions are a history (`worker_decisions`,
//! never edited or deleted, with who decided and when); the latest approve/reject is the
//! worker's standing. Judgments are never touched: rejecting or blocking a worker only
//! records the decision.
//!
//! A crowd worker id may arrive with several platform sessions (Mechanical Turk assignments,
//! Prolific sessions), and not all of them need be the worker's: whoever learned the id can
//! arrive with it in a session of their own (issue 17, finding 6). A decision may therefore name
//! one session (`platform_session`): it then applies to that session's HITs only (the export
//! lists that session's assignment id; a block ends that session's HITs and gives it no more
//! work, and leaves the id and its other sessions alone). When the id arrived with several
//! sessions in the campaign, approve, reject, block and bonus must name one, or `all`.
//!
//! Bulk decisions ([`bulk_decide`]): approve every worker who passed, or reject every worker who
//! failed, in one transaction, confirmed by the number of workers, idempotent.
//!
//! Export: [`load_decisions`] + [`write_decisions_csv`] (a pure writer over `impl Write`), served
//! as `GET /campaigns/{id}/decisions.csv` to organizers (`crate::api::decisions`); for Mechanical
//! Turk's requester site, [`load_mturk_batch`] + [`write_mturk_batch_csv`] as
//! `GET /campaigns/{id}/mturk-batch.csv`.

use super::{
    BulkAction, BulkCounts, DecisionView, FlagCounts, GateVerdictView, ResultsOptions, VerdictCounts, WorkerRow, WorkerSort, WorkersQuery,
    WorkersView, utc_time,
};
use crate::analysis::campaign::{Current, Stamp};
use crate::analysis::quality::PairCheck;
use crate::campaign::CampaignSettings;
use crate::model::{AssignmentStatus, TaskKind};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use sqlx::AnyConnection;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::Arc;

mod snapshot;


/// Largest bonus accepted, in hundredths of the currency (1,000 units).
pub const MAX_BONUS_CENTS: i64 = 100_000;
/// Longest reason accepted, in characters (`assay_core::limits`).
pub use assay_core::limits::MAX_REASON_CHARS;

/// What an organizer can decide about a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Approve,
    Reject,
    Block,
    Unblock,
    Bonus,
}

impl Action {
    pub fn parse(s: &str) -> AppResult<Action> {
        Ok(match s.trim() {
            "approve" => Action::Approve,
            "reject" => Action::Reject,
            "block" => Action::Block,
            "unblock" => Action::Unblock,
            "bonus" => Action::Bonus,
            other => return Err(AppError::invalid("decision", format!("{other:?} is not a decision (approve, reject, block, unblock or bonus)"))),
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Action::Approve => "approve",
            Action::Reject => "reject",
            Action::Block => "block",
            Action::Unblock => "unblock",
            Action::Bonus => "bonus",
        }
    }
}

/// A bonus amount as typed (`2`, `2.5`, `2.50`) in hundredths of the currency. At most two
/// decimals, more than zero, at most [`MAX_BONUS_CENTS`].
pub fn parse_amount(text: &str) -> AppResult<i64> {
    let wrong = |problem: String| AppError::invalid("amount", problem);
    let t = text.trim();
    if t.is_empty() {
        return Err(wrong("give the bonus amount".into()));
    }
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && frac.is_empty() || !digits(whole) || !digits(frac) {
        return Err(wrong(format!("the bonus amount must be a number such as 1.50, not {t:?}")));
    }
    if frac.len() > 2 {
        return Err(wrong(format!("the bonus amount has at most two decimals, not {t:?}")));
    }
    if whole.len() > 9 {
        return Err(wrong(format!("the bonus is at most {}", money(MAX_BONUS_CENTS))));
    }
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| wrong(format!("{t:?} is not an amount")))? };
    let frac: i64 = format!("{frac:0<2}").parse().map_err(|_| wrong(format!("{t:?} is not an amount")))?;
    let cents = whole * 100 + frac;
    if cents <= 0 {
        return Err(wrong("the bonus must be more than zero".into()));
    }
    if cents > MAX_BONUS_CENTS {
        return Err(wrong(format!("the bonus is at most {}", money(MAX_BONUS_CENTS))));
    }
    Ok(cents)
}

/// Hundredths as a decimal amount: 150 → "1.50".
pub fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// The reason of a decision, trimmed: required for a rejection and a bonus (the worker reads
/// it), at most [`MAX_REASON_CHARS`], no control characters but newlines and tabs.
fn check_reason(action: Action, reason: &str) -> AppResult<String> {
    let wrong = |problem: String| AppError::invalid("reason", problem);
    let r = reason.trim();
    if r.chars().count() > MAX_REASON_CHARS {
        return Err(wrong(format!("the reason is longer than {MAX_REASON_CHARS} characters")));
    }
    if r.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(wrong("the reason contains control characters".into()));
    }
    if r.is_empty() {
        match action {
            Action::Reject => return Err(wrong("give a reason for rejecting: the worker reads it on the crowd platform".into())),
            Action::Bonus => return Err(wrong("give a reason for the bonus: the worker reads it on the crowd platform".into())),
            _ => {}
        }
    }
    Ok(r.to_string())
}

/// The payment currency of a campaign (an unknown campaign is an error).
async fn campaign_currency(db: &Db, campaign_id: i64) -> AppResult<String> {
    let (task, settings): (String, String) = sqlx::query_as("SELECT task, settings FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading the settings of campaign {campaign_id}"))?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let settings = CampaignSettings::read(&settings, TaskKind::of_campaign(campaign_id, &task)?, "", "");
    Ok(settings.payment_currency)
}

/// The id of a worker (named `platform:external id`, as on the review page) who has a HIT in
/// the campaign.
async fn worker_in_campaign(db: &Db, campaign_id: i64, worker: &str) -> AppResult<i64> {
    let (platform, external) =
        worker.split_once(':').ok_or_else(|| AppError::invalid("worker", format!("{worker:?} is not a worker (platform:id, as on the review page)")))?;
    sqlx::query_scalar(
        "SELECT w.id FROM workers w WHERE w.platform = $1 AND w.external_id = $2 AND EXISTS \
         (SELECT 1 FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE a.worker_id = w.id AND h.campaign_id = $3)",
    )
    .bind(platform)
    .bind(external)
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("looking up worker {worker} in campaign {campaign_id}"))?
    .ok_or_else(|| AppError::invalid("worker", format!("worker {worker} has no HIT in campaign {campaign_id}")))
}

/// The platform sessions a worker arrived with in a campaign, in the order of their first HIT,
/// with each session's assignments (database ids); plain links and accounts have none.
pub(crate) async fn sessions_in_campaign(db: &Db, campaign_id: i64, worker_id: i64) -> AppResult<Vec<(String, Vec<i64>)>> {
    let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
        "SELECT a.id, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE a.worker_id = $1 AND h.campaign_id = $2 ORDER BY a.id",
    )
    .bind(worker_id)
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the platform sessions of worker {worker_id} in campaign {campaign_id}"))?;
    let mut sessions: Vec<(String, Vec<i64>)> = Vec::new();
    for (id, params) in rows {
        let Some(session) = crate::campaign::assign::session_of(params.as_deref()) else { continue };
        match sessions.iter_mut().find(|(s, _)| *s == session) {
            Some((_, ids)) => ids.push(id),
            None => sessions.push((session, vec![id])),
        }
    }
    Ok(sessions)
}

/// Which of the worker's platform sessions a decision is for: `None` for every session (no
/// session given, or `all`). A session must be one the worker arrived with; when they arrived
/// with several, approve, reject, block and bonus must say which (or `all`).
fn decision_scope(worker: &str, action: Action, session: &str, sessions: &[(String, Vec<i64>)]) -> AppResult<Option<String>> {
    let s = session.trim();
    if s.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    if s.is_empty() {
        if sessions.len() > 1 && action != Action::Unblock {
            let names: Vec<&str> = sessions.iter().map(|(s, _)| s.as_str()).collect();
            return Err(AppError::invalid(
                "session",
                format!(
                    "{worker} arrived with {} platform sessions ({}), which need not all be this worker's: name the session this decision is for, or all",
                    sessions.len(),
                    names.join(", ")
                ),
            ));
        }
        return Ok(None);
    }
    if !sessions.iter().any(|(x, _)| x == s) {
        return Err(AppError::invalid("session", format!("{worker} has no platform session {s:?} in this campaign")));
    }
    Ok(Some(s.to_string()))
}

/// Records a decision (and for block/unblock sets the worker's block; for approve releases the
/// completion codes the gate held), for every platform session of the worker or for the one
/// named by `session` (see the module's introduction). Refused with a clear reason, changing
/// nothing, when the decision, reason, amount, campaign, worker or session is wrong. Returns
/// what was done, for the page.
#[allow(clippy::too_many_arguments)]
pub async fn decide(
    db: &Db,
    secret: &[u8],
    campaign_id: i64,
    worker: &str,
    session: &str,
    action: &str,
    reason: &str,
    amount: &str,
    decided_by: i64,
) -> AppResult<String> {
    let action = Action::parse(action)?;
    let reason = check_reason(action, reason)?;
    let cents = match action {
        Action::Bonus => Some(parse_amount(amount)?),
        _ if !amount.trim().is_empty() => return Err(AppError::invalid("amount", "an amount goes only with a bonus")),
        _ => None,
    };
    let currency = campaign_currency(db, campaign_id).await?;
    let worker_id = worker_in_campaign(db, campaign_id, worker).await?;
    let sessions = sessions_in_campaign(db, campaign_id, worker_id).await?;
    let scope = decision_scope(worker, action, session, &sessions)?;
    let mut tx = db.writer.begin().await.with_context(|| format!("recording a decision about {worker} in campaign {campaign_id}"))?;
    let record = NewDecision { campaign_id, worker_id, action, reason: &reason, cents, currency: &currency, decided_by, session: scope.as_deref() };
    insert_decision(&mut tx, &record).await.with_context(|| format!("recording a decision about {worker} in campaign {campaign_id}"))?;
    let what = || format!("recording a decision about {worker} in campaign {campaign_id}");
    // The session's assignments, when the decision names one.
    let only: Option<&[i64]> = scope.as_ref().and_then(|s| sessions.iter().find(|(x, _)| x == s)).map(|(_, ids)| ids.as_slice());
    let done = match (action, &scope, only) {
        (Action::Block, Some(s), Some(ids)) => {
            // The session's HITs in progress end (returned: nothing more is stored for them);
            // the arrival refuses the session from now on. The worker id is not blocked.
            for id in ids {
                sqlx::query("UPDATE assignments SET status = $1 WHERE id = $2 AND status = $3")
                    .bind(AssignmentStatus::Returned.as_str())
                    .bind(*id)
                    .bind(AssignmentStatus::Active.as_str())
                    .execute(&mut *tx)
                    .await
                    .with_context(what)?;
            }
            format!("Blocked platform session {s} of {worker}: its HITs in progress end and it gets no more work; the worker's other sessions are not affected.")
        }
        (Action::Unblock, Some(s), _) => format!("Unblocked platform session {s} of {worker}."),
        (Action::Approve, Some(s), Some(ids)) => {
            let released = crate::campaign::gate::release_held_of(&mut tx, secret, ids).await?;
            match released {
                0 => format!("Approved {worker} in platform session {s}."),
                n => format!("Approved {worker} in platform session {s}; {n} held completion code(s) released."),
            }
        }
        (Action::Reject, Some(s), _) => format!("Rejected {worker} in platform session {s}."),
        (Action::Bonus, Some(s), _) => format!("Bonus of {} {currency} for {worker} in platform session {s}.", money(cents.unwrap_or(0))),
        (Action::Block | Action::Unblock, _, _) => {
            sqlx::query("UPDATE workers SET blocked = $1 WHERE id = $2")
                .bind(i64::from(action == Action::Block))
                .bind(worker_id)
                .execute(&mut *tx)
                .await
                .with_context(|| format!("recording a decision about {worker} in campaign {campaign_id}"))?;
            if action == Action::Block {
                format!("Blocked {worker}: no more HITs for this worker in any campaign.")
            } else {
                format!("Unblocked {worker}.")
            }
        }
        (Action::Approve, _, _) => {
            let released = crate::campaign::gate::release_held(&mut tx, secret, campaign_id, worker_id).await?;
            match released {
                0 => format!("Approved {worker}."),
                n => format!("Approved {worker}; {n} held completion code(s) released."),
            }
        }
        (Action::Reject, _, _) => format!("Rejected {worker}."),
        (Action::Bonus, _, _) => format!("Bonus of {} {currency} for {worker}.", money(cents.unwrap_or(0))),
    };
    tx.commit().await.with_context(|| format!("recording a decision about {worker} in campaign {campaign_id}"))?;
    Ok(done)
}

/// One decision to store.
struct NewDecision<'a> {
    campaign_id: i64,
    worker_id: i64,
    action: Action,
    reason: &'a str,
    /// The bonus, in hundredths of `currency`.
    cents: Option<i64>,
    currency: &'a str,
    decided_by: i64,
    /// The platform session it is for; `None`: every session.
    session: Option<&'a str>,
}

/// Stores one decision (the history row; what it does besides is the caller's).
async fn insert_decision(conn: &mut AnyConnection, d: &NewDecision<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO worker_decisions (campaign_id, worker_id, decision, reason, bonus_cents, currency, decided_by, decided_at, platform_session) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(d.campaign_id)
    .bind(d.worker_id)
    .bind(d.action.as_str())
    .bind(d.reason)
    .bind(d.cents)
    .bind(d.cents.map(|_| d.currency))
    .bind(d.decided_by)
    .bind(now_ms())
    .bind(d.session)
    .execute(&mut *conn)
    .await
    .map(drop)
}

/// Each worker's (database id) latest decision: `approve` or `reject`.
type Standings = HashMap<i64, String>;

/// The latest approve or reject of each worker of a campaign (whatever session it names).
async fn standings(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<Standings> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT worker_id, decision FROM worker_decisions WHERE campaign_id = $1 AND decision IN ('approve', 'reject') ORDER BY id",
    )
    .bind(campaign_id)
    .fetch_all(&mut *conn)
    .await
    .with_context(|| format!("reading the decisions of campaign {campaign_id}"))?;
    Ok(rows.into_iter().collect())
}

/// The platform sessions of every worker of a campaign (database id → sessions in the order of
/// their first HIT); plain links and accounts have none.
async fn campaign_sessions(db: &Db, campaign_id: i64) -> AppResult<HashMap<i64, Vec<String>>> {
    let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
        // Assignments without platform parameters (plain links, accounts) have no session.
        "SELECT a.worker_id, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id \
         WHERE h.campaign_id = $1 AND a.platform_params IS NOT NULL ORDER BY a.id",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the platform sessions of campaign {campaign_id}"))?;
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    for (worker, params) in rows {
        let Some(session) = crate::campaign::assign::session_of(params.as_deref()) else { continue };
        let list = out.entry(worker).or_default();
        if !list.contains(&session) {
            list.push(session);
        }
    }
    Ok(out)
}

/// The flag of a worker id that arrived with several platform sessions.
fn sessions_flag(sessions: &[String]) -> Option<String> {
    (sessions.len() > 1).then(|| format!("arrived with {} platform sessions: {}", sessions.len(), sessions.join(", ")))
}

/// Who a bulk action concerns, from the review rows: the workers (database id, name) to decide
/// about, how many are decided so already, how many are left out for their several sessions.
#[derive(Debug, Default, PartialEq)]
struct BulkPlan {
    todo: Vec<(i64, String)>,
    already: usize,
    several_sessions: usize,
}

/// A worker passed when every row of theirs (one per task) passes the reliability test, failed
/// when any row fails it. Workers in the order of the rows (by worker).
fn bulk_plan(rows: &[CachedRow], sessions: &HashMap<i64, Vec<String>>, standing: &HashMap<i64, String>, action: BulkAction) -> BulkPlan {
    // Per worker (in the order of their first row) the verdicts of their rows; indexed by id, as a
    // linear search per row took 20 ms at 10,000 workers.
    let mut verdicts: Vec<(i64, &str, Vec<&str>)> = Vec::new();
    let mut at: HashMap<i64, usize> = HashMap::with_capacity(rows.len());
    for c in rows {
        match at.get(&c.worker_id) {
            Some(&i) => verdicts[i].2.push(c.row.verdict.as_str()),
            None => {
                at.insert(c.worker_id, verdicts.len());
                verdicts.push((c.worker_id, c.row.worker.as_str(), vec![c.row.verdict.as_str()]));
            }
        }
    }
    let (target, wanted): (&str, fn(&[&str]) -> bool) = match action {
        BulkAction::ApprovePassed => ("approve", |v| v.iter().all(|x| *x == "pass")),
        BulkAction::RejectFailed => ("reject", |v| v.contains(&"fail")),
    };
    let mut plan = BulkPlan::default();
    for (id, name, v) in verdicts {
        if !wanted(&v) {
            continue;
        }
        if sessions.get(&id).is_some_and(|s| s.len() > 1) {
            plan.several_sessions += 1;
        } else if standing.get(&id).map(String::as_str) == Some(target) {
            plan.already += 1;
        } else {
            plan.todo.push((id, name.to_string()));
        }
    }
    plan
}

/// What both bulk actions would do now.
fn bulk_counts(rows: &[CachedRow], sessions: &HashMap<i64, Vec<String>>, standing: &HashMap<i64, String>) -> BulkCounts {
    let a = bulk_plan(rows, sessions, standing, BulkAction::ApprovePassed);
    let r = bulk_plan(rows, sessions, standing, BulkAction::RejectFailed);
    BulkCounts {
        approve: a.todo.len(),
        approved_already: a.already,
        reject: r.todo.len(),
        rejected_already: r.already,
        several_sessions: a.several_sessions + r.several_sessions,
    }
}

/// Approves every worker who passed, or rejects (with one reason) every worker who failed, the
/// reliability test chosen by `options` (as the page shows them), in one transaction: each gets
/// the decision of [`decide`] for every session (an approval releases the held codes). Workers
/// decided so already are left alone, so repeating it changes nothing; workers whose id arrived
/// with several platform sessions are left out (decide about them one session at a time).
/// `expected` is the number of workers the organizer confirmed: when another number would be
/// decided now (new judgments, another organizer), nothing is done and the refusal says so.
/// Concurrent bulk actions on a campaign are ordered (PostgreSQL: the campaign's row is locked;
/// SQLite has one writer).
#[allow(clippy::too_many_arguments)]
pub async fn bulk_decide(
    db: &Db,
    secret: &[u8],
    campaign_id: i64,
    options: ResultsOptions,
    action: &str,
    reason: &str,
    expected: usize,
    decided_by: i64,
) -> AppResult<String> {
    let bulk = BulkAction::parse(action)
        .ok_or_else(|| AppError::invalid("action", format!("{action:?} is not a bulk decision (approve-passed or reject-failed)")))?;
    let single = match bulk {
        BulkAction::ApprovePassed => Action::Approve,
        BulkAction::RejectFailed => Action::Reject,
    };
    let reason = check_reason(single, reason)?;
    let (_, rows) = qc_rows(db, campaign_id, options).await?;
    let sessions = campaign_sessions(db, campaign_id).await?;
    let what = || format!("recording the decisions about the workers of campaign {campaign_id}");
    let mut tx = db.writer.begin().await.with_context(what)?;
    if db.backend == crate::db::Backend::Postgres {
        sqlx::query("SELECT id FROM campaigns WHERE id = $1 FOR UPDATE").bind(campaign_id).execute(&mut *tx).await.with_context(what)?;
    }
    let standing = standings(&mut tx, campaign_id).await?;
    let plan = bulk_plan(&rows, &sessions, &standing, bulk);
    let (who, done_word) = match bulk {
        BulkAction::ApprovePassed => ("who passed", "approved"),
        BulkAction::RejectFailed => ("who failed", "rejected"),
    };
    let left_out = match plan.several_sessions {
        0 => String::new(),
        n => format!(" {n} worker(s) {who} arrived with several platform sessions and were left out: decide about them one session at a time."),
    };
    if plan.todo.is_empty() {
        return Ok(format!("Nothing to do: no worker {who} is still to be {done_word} ({} {done_word} already).{left_out}", plan.already));
    }
    if plan.todo.len() != expected {
        return Err(AppError::conflict(format!(
            "{} worker(s) {who} are now to be {done_word}, not {expected} as confirmed (the review changed meanwhile): nothing was done; look at the page again",
            plan.todo.len()
        )));
    }
    let mut released = 0;
    for (worker_id, name) in &plan.todo {
        let record = NewDecision { campaign_id, worker_id: *worker_id, action: single, reason: &reason, cents: None, currency: "", decided_by, session: None };
        insert_decision(&mut tx, &record).await.with_context(|| format!("recording a decision about {name} in campaign {campaign_id}"))?;
        if single == Action::Approve {
            released += crate::campaign::gate::release_held(&mut tx, secret, campaign_id, *worker_id).await?;
        }
    }
    tx.commit().await.with_context(what)?;
    let n = plan.todo.len();
    let mut out = match bulk {
        BulkAction::ApprovePassed => format!("Approved {n} worker(s) who passed."),
        BulkAction::RejectFailed => format!("Rejected {n} worker(s) who failed."),
    };
    if released > 0 {
        out.push_str(&format!(" {released} held completion code(s) released."));
    }
    if plan.already > 0 {
        out.push_str(&format!(" {} were {done_word} already.", plan.already));
    }
    out.push_str(&left_out);
    Ok(out)
}

/// A worker's name: `platform:external id`.
fn worker_name(platform: &str, external_id: &str) -> String {
    format!("{platform}:{external_id}")
}

crate::rows::row! {
    /// One stored decision with the worker's identity.
    #[derive(Clone, Debug, PartialEq)]
    struct StoredDecision {
        /// The worker's name ([`worker_name`]), made from the platform and external id once read.
        worker: String = Default::default(),
        worker_id: i64,
        platform: String,
        external_id: String,
        decision: String,
        reason: String,
        bonus_cents: Option<i64>,
        currency: Option<String>,
        decided_by: String,
        decided_at: i64,
        /// The platform session the decision is for; `None`: every session of the worker.
        platform_session: Option<String>,
    }
}

/// The decisions of a campaign, in the order made; of the given workers (database ids) only when
/// `workers` is given.
async fn stored_decisions(db: &Db, campaign_id: i64, workers: Option<&[i64]>) -> AppResult<Vec<StoredDecision>> {
    let only = match workers {
        Some(ids) => format!(" AND d.worker_id IN ({})", ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")),
        None => String::new(),
    };
    let mut rows: Vec<StoredDecision> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT d.worker_id, w.platform, w.external_id, d.decision, d.reason, d.bonus_cents, d.currency, \
                COALESCE(u.email, '') AS decided_by, d.decided_at, d.platform_session \
         FROM worker_decisions d JOIN workers w ON w.id = d.worker_id LEFT JOIN users u ON u.id = d.decided_by \
         WHERE d.campaign_id = $1{only} ORDER BY d.id"
    )))
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the decisions of campaign {campaign_id}"))?;
    for d in &mut rows {
        d.worker = worker_name(&d.platform, &d.external_id);
    }
    Ok(rows)
}

crate::rows::row! {
    /// A row of `worker_verdicts` as the review page reads it.
    struct VerdictRow {
        worker_id: i64,
        verdict: String,
        n_pairs: i64,
        hits: i64,
        /// The [`PairCheck`] as JSON.
        reliability: String,
        code_given: i64,
        compute_us: i64,
        computed_at: i64,
    }
}

/// One page of the review table: quality control of the campaign's workers (kept current
/// incrementally by [`qc_rows`]), sorted, searched and filtered in memory; for the rows of the
/// page only: the scatter of originals against bad references, the verdict the gate computed at
/// each worker's latest submission, the organizer's decisions, blocks, bonuses and held codes.
/// An unknown campaign is [`AppError::NotFound`].
pub async fn workers_page(db: &Db, campaign_id: i64, options: ResultsOptions, query: &WorkersQuery) -> AppResult<WorkersView> {
    let started = std::time::Instant::now();
    // The sessions on a second connection while the rows are computed.
    let (rows, sessions) = tokio::join!(qc_rows(db, campaign_id, options), campaign_sessions(db, campaign_id));
    let ((name, cached), all_sessions) = (rows?, sessions?);
    let rows_ms = started.elapsed().as_millis();
    let selection = select(&cached, query, &all_sessions);
    let page: Vec<&CachedRow> = selection.rows.iter().map(|&i| &cached[i]).collect();
    let bulk = {
        let mut conn = db.pool.acquire().await.with_context(|| format!("reading the decisions of campaign {campaign_id}"))?;
        bulk_counts(&cached, &all_sessions, &standings(&mut conn, campaign_id).await?)
    };
    let mut view = WorkersView {
        campaign: name,
        workers: page
            .iter()
            .map(|c| WorkerRow { scatter_svg: assay_core::plots::scatter(&c.pairs), ..c.row.clone() })
            .collect(),
        gate: String::new(),
        currency: String::new(),
        total: cached.len(),
        matching: selection.matching,
        counts: selection.counts,
        flag_counts: selection.flag_counts,
        bulk,
        query: WorkersQuery { page: selection.page, ..query.clone() },
    };
    let what = || format!("reading the review of campaign {campaign_id}");
    let (task, s, mode, unsure): (String, String, String, String) =
        sqlx::query_as("SELECT task, settings, gate, gate_unsure FROM campaigns WHERE id = $1")
            .bind(campaign_id)
            .fetch_one(&db.pool)
            .await
            .with_context(what)?;
    let s = CampaignSettings::read(&s, TaskKind::of_campaign(campaign_id, &task)?, "", "");
    view.gate = crate::campaign::QualityGate::parse(&mode, &unsure).map_or_else(|| format!("{mode}/{unsure}"), |g| g.describe());
    view.currency = s.payment_currency.clone();

    // The page's workers (database ids, written into the SQL: integers only).
    let mut ids: Vec<i64> = page.iter().map(|c| c.worker_id).collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(view);
    }
    let id_list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");

    // The latest verdict of each worker.
    let mut verdicts: HashMap<i64, GateVerdictView> = HashMap::new();
    let rows: Vec<VerdictRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT v.worker_id, v.verdict, v.n_pairs, v.hits, v.reliability, v.code_given, v.compute_us, v.computed_at \
         FROM worker_verdicts v WHERE v.campaign_id = $1 AND v.worker_id IN ({id_list}) ORDER BY v.id"
    )))
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    for r in rows {
        let p_value = serde_json::from_str::<PairCheck>(&r.reliability).ok().and_then(|c| c.p_value);
        verdicts.insert(
            r.worker_id,
            GateVerdictView {
                verdict: r.verdict,
                p_value,
                n_pairs: r.n_pairs,
                hits: r.hits,
                code_given: r.code_given != 0,
                computed_at: r.computed_at,
                compute_us: r.compute_us,
            },
        );
    }
    // Blocks and held codes of the page's workers.
    let mut status: HashMap<i64, (bool, i64)> = HashMap::new();
    // (worker id, blocked, held codes)
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        // `+h.campaign_id`: the page's workers' assignments first, then their HITs (SQLite
        // otherwise probes every HIT of the campaign for each worker: 38 ms at 10,000 HITs).
        "SELECT w.id, w.blocked, COUNT(CASE WHEN a.code_held = 1 THEN 1 END) AS held \
         FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN workers w ON w.id = a.worker_id \
         WHERE +h.campaign_id = $1 AND a.worker_id IN ({id_list}) GROUP BY w.id, w.blocked"
    )))
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    for (id, blocked, held) in rows {
        status.insert(id, (blocked != 0, held));
    }
    let decisions = stored_decisions(db, campaign_id, Some(ids.as_slice())).await?;
    for (w, c) in view.workers.iter_mut().zip(&page) {
        w.gate = verdicts.get(&c.worker_id).cloned();
        if let Some(&(blocked, held)) = status.get(&c.worker_id) {
            w.blocked = blocked;
            w.held_hits = held;
        }
        let mine: Vec<&StoredDecision> = decisions.iter().filter(|d| d.worker_id == c.worker_id).collect();
        w.standing = mine.iter().rev().find(|d| d.decision == "approve" || d.decision == "reject").map(|d| d.decision.clone());
        let bonus: i64 = mine.iter().filter_map(|d| d.bonus_cents).sum();
        w.bonus_total = (bonus > 0).then(|| format!("{} {}", money(bonus), view.currency));
        w.decisions = mine
            .iter()
            .rev()
            .map(|d| DecisionView {
                decision: d.decision.clone(),
                reason: d.reason.clone(),
                bonus: d.bonus_cents.map(|c| format!("{} {}", money(c), d.currency.clone().unwrap_or_default())),
                decided_by: d.decided_by.clone(),
                decided_at: d.decided_at,
                session: d.platform_session.clone(),
            })
            .collect();
        w.sessions = all_sessions.get(&c.worker_id).cloned().unwrap_or_default();
        w.flags.extend(sessions_flag(&w.sessions));
    }
    tracing::debug!("review of campaign {campaign_id}: rows in {rows_ms} ms, the page in {} ms", started.elapsed().as_millis());
    Ok(view)
}

/// A review row as kept between requests: the row without its scatter, what the scatter is
/// drawn from, the worker's database id and the lower-cased worker id the search reads.
#[derive(Clone, Debug)]
pub(crate) struct CachedRow {
    row: WorkerRow,
    /// (original, bad reference) score pairs.
    pairs: Vec<(f64, f64)>,
    worker_id: i64,
    search_key: String,
}

impl CachedRow {
    fn new(row: WorkerRow, pairs: Vec<(f64, f64)>, worker_id: i64) -> CachedRow {
        let search_key = row.worker.to_lowercase();
        CachedRow { row, pairs, worker_id, search_key }
    }
}

/// The rows of one page, as indices into the cached rows, with the counts.
#[derive(Debug, PartialEq)]
struct Selection {
    rows: Vec<usize>,
    matching: usize,
    counts: VerdictCounts,
    flag_counts: FlagCounts,
    /// The page answered: the one asked for, or the last there is.
    page: usize,
}

/// A row's flags with the one the page adds (several platform sessions).
fn row_flags<'a>(c: &'a CachedRow, sessions: &HashMap<i64, Vec<String>>) -> Cow<'a, [String]> {
    match sessions.get(&c.worker_id).and_then(|s| sessions_flag(s)) {
        Some(f) => {
            let mut all = c.row.flags.clone();
            all.push(f);
            Cow::Owned(all)
        }
        None => Cow::Borrowed(&c.row.flags),
    }
}

fn verdict_rank(verdict: &str) -> u8 {
    match verdict {
        "fail" => 0,
        "not enough evidence" => 1,
        "pass" => 2,
        _ => 3,
    }
}

/// Counts the verdicts and flags of every row, keeps the rows matching the search, the verdict
/// filter and the flag filter, sorts them (ties by worker, then task, the rows' stored order) and
/// cuts the page. `sessions`: each worker's platform sessions (several make a flag).
fn select(rows: &[CachedRow], q: &WorkersQuery, sessions: &HashMap<i64, Vec<String>>) -> Selection {
    use std::cmp::Ordering;
    let mut counts = VerdictCounts::default();
    let mut flag_counts = FlagCounts::default();
    let needle = q.search.to_lowercase();
    let mut keep: Vec<usize> = Vec::new();
    let mut n_flags: Vec<usize> = Vec::with_capacity(rows.len());
    for (i, c) in rows.iter().enumerate() {
        let flags = row_flags(c, sessions);
        flag_counts.add(&flags);
        n_flags.push(flags.len());
        match c.row.verdict.as_str() {
            "pass" => counts.pass += 1,
            "fail" => counts.fail += 1,
            "not enough evidence" => counts.not_enough_evidence += 1,
            _ => {}
        }
        counts.excluded += usize::from(c.row.excluded);
        if (needle.is_empty() || c.search_key.contains(&needle))
            && q.verdict.is_none_or(|v| v.matches(&c.row.verdict, c.row.excluded))
            && q.flag.is_none_or(|f| f.matches(&flags))
        {
            keep.push(i);
        }
    }
    let flip = |o: Ordering| if q.descending { o.reverse() } else { o };
    match q.sort {
        WorkerSort::Worker if q.descending => keep.reverse(),
        WorkerSort::Worker => {}
        WorkerSort::Verdict => keep.sort_by(|&a, &b| flip(verdict_rank(&rows[a].row.verdict).cmp(&verdict_rank(&rows[b].row.verdict)))),
        WorkerSort::Flags => keep.sort_by(|&a, &b| flip(n_flags[a].cmp(&n_flags[b]))),
        WorkerSort::P => keep.sort_by(|&a, &b| match (rows[a].row.p_value, rows[b].row.p_value) {
            (Some(x), Some(y)) => flip(x.total_cmp(&y)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }),
    }
    let matching = keep.len();
    let page = q.page.clamp(1, q.pages(matching));
    let per_page = q.per_page.max(1);
    let rows: Vec<usize> = keep.into_iter().skip((page - 1) * per_page).take(per_page).collect();
    Selection { rows, matching, counts, flag_counts, page }
}

/// The quality-control rows of a campaign last computed, per (campaign, reliability test).
#[derive(Clone)]
struct QcCache {
    /// The versions of the campaign's judgments the rows are of and of the table.
    stamp: Stamp,
    /// When the judgments were read (Unix ms).
    read_at: i64,
    /// When the judgments of the rows this server last stored were read ([`snapshot`]).
    stored_at: Option<i64>,
    campaign: String,
    rows: Arc<Vec<CachedRow>>,
}

/// Per server process: (database ([`Db::id`]), campaign, Wilcoxon chosen) → rows. Several app servers
/// each keep their own; the version check reads the database, so none serves stale rows.
type QcKey = (u64, i64, bool);
static QC_CACHE: std::sync::OnceLock<std::sync::Mutex<HashMap<QcKey, QcCache>>> = std::sync::OnceLock::new();

fn qc_cache() -> AppResult<std::sync::MutexGuard<'static, HashMap<QcKey, QcCache>>> {
    QC_CACHE.get_or_init(Default::default).lock().map_err(|_| AppError::internal("the review cache is poisoned"))
}

/// Judgments committed at most this long after they were stamped are still caught by the
/// incremental update (transactions last milliseconds).
const LATE_COMMIT_MARGIN_MS: i64 = 60_000;

/// The review page's quality-control rows, kept current incrementally. They start from this
/// server's rows, else from a current analysis of the campaign (the results page's), else from
/// the rows stored in the database ([`snapshot`]), else from every judgment read anew. Rows
/// kept are reused while the campaign's judgments are unchanged, and otherwise only the workers
/// with judgments since they were read are computed again (each from all of that worker's
/// judgments, as the gate does). Rows computed in full are stored, and so are rows kept current,
/// every [`snapshot::STORE_EVERY_MS`] at most. Rows are ordered by worker, then task.
async fn qc_rows(db: &Db, campaign_id: i64, options: ResultsOptions) -> AppResult<(String, Arc<Vec<CachedRow>>)> {
    let info = crate::analysis::db::campaign_info(db, campaign_id).await?;
    let what = || format!("reading the judgments of campaign {campaign_id} for quality control");
    let key = (db.id, campaign_id, options.wilcoxon);
    let mine = qc_cache()?.get(&key).cloned();
    let read_at = now_ms();
    let settings = super::build::campaign_settings(db, campaign_id, options).await?;
    // Rows to start from, and whether they came from the database (this server keeps them then).
    let kept = match mine {
        Some(c) => Some((c, false)),
        None => match super::build::qc_from_analysis(db, campaign_id, options).await? {
            Some(qc) => return keep(db, key, info.name, cached_rows(qc.rows), qc.stamp, read_at, None),
            None => snapshot::load(db, campaign_id, options.wilcoxon).await.map(|s| {
                let c = QcCache { stamp: s.stamp, read_at: s.read_at, stored_at: Some(s.read_at), campaign: info.name.clone(), rows: Arc::new(s.rows) };
                (c, true)
            }),
        },
    };
    let Some((c, from_db)) = kept else {
        let qc = super::build::qc_read(db, campaign_id, options).await?;
        return keep(db, key, info.name, cached_rows(qc.rows), qc.stamp, read_at, None);
    };
    let mut stamp = c.stamp;
    let Current::No { table, campaign } = stamp.current(db, campaign_id).await? else {
        // Only other campaigns' judgments arrived: the kept rows take the table's version.
        let mut cache = qc_cache()?;
        if from_db {
            cache.insert(key, QcCache { stamp, ..c.clone() });
        } else if stamp != c.stamp
            && let Some(kept) = cache.get_mut(&key).filter(|k| k.stamp.campaign == stamp.campaign)
        {
            kept.stamp = stamp;
        }
        return Ok((c.campaign, c.rows));
    };
    let changed: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT a.worker_id FROM judgments j JOIN assignments a ON a.id = j.assignment_id \
         JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND j.submitted_at >= $2",
    )
    .bind(campaign_id)
    .bind(c.read_at - LATE_COMMIT_MARGIN_MS)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let mut conn = db.pool.acquire().await.with_context(what)?;
    let mut fresh: Vec<CachedRow> = Vec::new();
    let mut changed_ids: std::collections::HashSet<i64> = std::collections::HashSet::new();
    for worker in changed {
        let set = crate::analysis::db::load_worker(&mut conn, campaign_id, worker).await?;
        let qc = crate::analysis::quality::run(&set, &settings.qc);
        changed_ids.insert(worker);
        fresh.extend(super::build::worker_rows(&set, &qc, settings.exclusion).into_iter().map(|(row, pairs)| CachedRow::new(row, pairs, worker)));
    }
    drop(conn);
    tracing::debug!("review of campaign {campaign_id}: {} workers computed again", changed_ids.len());
    // Only the changed workers' rows are replaced; the others are moved over as they are.
    let mut rows: Vec<CachedRow> = c.rows.iter().filter(|r| !changed_ids.contains(&r.worker_id)).cloned().collect();
    rows.extend(fresh);
    keep(db, key, c.campaign, rows, Stamp { campaign, table }, read_at, c.stored_at)
}

/// Quality control's rows (row, score pairs, `workers.id`) as the cache keeps them.
fn cached_rows(rows: Vec<(WorkerRow, Vec<(f64, f64)>, i64)>) -> Vec<CachedRow> {
    rows.into_iter().map(|(row, pairs, id)| CachedRow::new(row, pairs, id)).collect()
}

/// Sorts `rows` (by worker, then task), keeps them in this server's cache and, when they were
/// computed in full (`stored_at` `None`) or were last stored long enough ago, stores them in the
/// database behind the answer.
fn keep(
    db: &Db,
    key: QcKey,
    campaign: String,
    mut rows: Vec<CachedRow>,
    stamp: Stamp,
    read_at: i64,
    stored_at: Option<i64>,
) -> AppResult<(String, Arc<Vec<CachedRow>>)> {
    rows.sort_by(|a, b| (&a.row.worker, &a.row.task).cmp(&(&b.row.worker, &b.row.task)));
    let rows = Arc::new(rows);
    let store = stored_at.is_none_or(|at| read_at - at >= snapshot::STORE_EVERY_MS);
    let stored_at = if store { Some(read_at) } else { stored_at };
    qc_cache()?.insert(key, QcCache { stamp, read_at, stored_at, campaign: campaign.clone(), rows: rows.clone() });
    if store {
        // Behind the answer: the page does not wait for a cache to be written.
        let (db, rows) = (db.clone(), rows.clone());
        tokio::spawn(async move { snapshot::store(&db, key.1, key.2, stamp, read_at, rows).await });
    }
    Ok((campaign, rows))
}

/// One line of the decisions export.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionRecord {
    /// `platform:external id`, the worker's name in every export and on the review page.
    pub worker: String,
    /// `mturk`, `prolific`, `link` or `account`.
    pub platform: String,
    /// MTurk workerId / Prolific PID / the plain link's worker id; empty for accounts.
    pub platform_worker_id: String,
    /// The platform's ids of the worker's finished assignments in the campaign (MTurk
    /// assignmentId, Prolific SESSION_ID), in order.
    pub assignment_ids: Vec<String>,
    /// `approve`, `reject`, `block`, `unblock` or `bonus`.
    pub decision: String,
    pub reason: String,
    pub bonus_cents: Option<i64>,
    pub currency: String,
    /// E-mail of the organizer who decided.
    pub decided_by: String,
    /// Unix milliseconds.
    pub decided_at: i64,
}

/// The decisions in force for a campaign, for the crowd platform: per worker the latest
/// approve/reject (an earlier one it overrides is left out; the page keeps the history), the
/// latest block/unblock, and every bonus; by worker, then time. An unknown campaign is an
/// error.
pub async fn load_decisions(db: &Db, campaign_id: i64) -> AppResult<Vec<DecisionRecord>> {
    let currency = campaign_currency(db, campaign_id).await?;
    let decisions = stored_decisions(db, campaign_id, None).await?;
    // Platform assignment ids of finished HITs.
    let rows: Vec<(i64, Option<String>)> = sqlx::query_as(
        "SELECT a.worker_id, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id \
         WHERE h.campaign_id = $1 AND a.status = $2 ORDER BY a.id",
    )
    .bind(campaign_id)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the assignments of campaign {campaign_id}"))?;
    let mut assignments: HashMap<i64, Vec<String>> = HashMap::new();
    for (worker, params) in rows {
        if let Some(id) = crate::campaign::assign::session_of(params.as_deref()) {
            assignments.entry(worker).or_default().push(id);
        }
    }
    // The latest standing and block per worker and session (a decision for every session and
    // one for a single session are in force side by side).
    let mut latest_standing: HashMap<(i64, Option<&str>), usize> = HashMap::new();
    let mut latest_block: HashMap<(i64, Option<&str>), usize> = HashMap::new();
    for (i, d) in decisions.iter().enumerate() {
        let key = (d.worker_id, d.platform_session.as_deref());
        match d.decision.as_str() {
            "approve" | "reject" => drop(latest_standing.insert(key, i)),
            "block" | "unblock" => drop(latest_block.insert(key, i)),
            _ => {}
        }
    }
    let mut out: Vec<(usize, DecisionRecord)> = decisions
        .iter()
        .enumerate()
        .filter(|(i, d)| match d.decision.as_str() {
            "approve" | "reject" => latest_standing.get(&(d.worker_id, d.platform_session.as_deref())) == Some(i),
            "block" | "unblock" => latest_block.get(&(d.worker_id, d.platform_session.as_deref())) == Some(i),
            _ => true,
        })
        .map(|(i, d)| {
            (
                i,
                DecisionRecord {
                    worker: d.worker.clone(),
                    platform: d.platform.clone(),
                    platform_worker_id: if d.platform == "account" { String::new() } else { d.external_id.clone() },
                    // A decision for one session concerns that session's assignment only.
                    assignment_ids: match &d.platform_session {
                        Some(s) => assignments.get(&d.worker_id).into_iter().flatten().filter(|a| *a == s).cloned().collect(),
                        None => assignments.get(&d.worker_id).cloned().unwrap_or_default(),
                    },
                    decision: d.decision.clone(),
                    reason: d.reason.clone(),
                    bonus_cents: d.bonus_cents,
                    currency: d.currency.clone().unwrap_or_else(|| currency.clone()),
                    decided_by: d.decided_by.clone(),
                    decided_at: d.decided_at,
                },
            )
        })
        .collect();
    out.sort_by(|a, b| (&a.1.worker, a.0).cmp(&(&b.1.worker, b.0)));
    Ok(out.into_iter().map(|(_, r)| r).collect())
}

/// The export's header.
pub const DECISIONS_HEADER: &[&str] = &[
    "worker",
    "platform",
    "platform_worker_id",
    "assignment_ids",
    "decision",
    "reason",
    "bonus_amount",
    "currency",
    "decided_by",
    "decided_at",
];

/// Writes the decisions as CSV (header, then one line per decision; assignment ids joined by
/// `;`; amounts with two decimals; times `YYYY-MM-DDTHH:MM:SSZ`).
pub fn write_decisions_csv(mut out: impl Write, records: &[DecisionRecord]) -> io::Result<()> {
    writeln!(out, "{}", DECISIONS_HEADER.join(","))?;
    for r in records {
        let time = utc_time(r.decided_at).replacen(' ', "T", 1).replace(" UTC", "Z");
        let fields = [
            r.worker.clone(),
            r.platform.clone(),
            r.platform_worker_id.clone(),
            r.assignment_ids.join(";"),
            r.decision.clone(),
            r.reason.clone(),
            r.bonus_cents.map(money).unwrap_or_default(),
            r.currency.clone(),
            r.decided_by.clone(),
            time,
        ];
        let line: Vec<String> = fields.iter().map(|f| crate::analysis::formats::csv_text(f).into_owned()).collect();
        writeln!(out, "{}", line.join(","))?;
    }
    Ok(())
}

/// Longest feedback Mechanical Turk takes with a rejection (its `RequesterFeedback`).
pub const MTURK_FEEDBACK_CHARS: usize = 1024;

/// One line of the Mechanical Turk batch-results file: a finished assignment of a Mechanical
/// Turk worker with the decision in force for it.
#[derive(Clone, Debug, PartialEq)]
pub struct MturkBatchRow {
    pub hit_id: String,
    pub assignment_id: String,
    pub worker_id: String,
    /// The latest approve or reject for this assignment (one for every session of the worker,
    /// or one for this session): approve.
    pub approve: bool,
    /// … or reject, with the reason the worker reads.
    pub reject: Option<String>,
}

/// The finished Mechanical Turk assignments of a campaign, in the order they were given, each
/// with the decision in force for it (none: both columns empty, Mechanical Turk leaves the
/// assignment as it is). An unknown campaign is an error.
pub async fn load_mturk_batch(db: &Db, campaign_id: i64) -> AppResult<Vec<MturkBatchRow>> {
    campaign_currency(db, campaign_id).await?;
    let decisions = stored_decisions(db, campaign_id, None).await?;
    let rows: Vec<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT a.worker_id, w.external_id, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id \
         JOIN workers w ON w.id = a.worker_id WHERE h.campaign_id = $1 AND a.status = $2 AND w.platform = 'mturk' ORDER BY a.id",
    )
    .bind(campaign_id)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the Mechanical Turk assignments of campaign {campaign_id}"))?;
    let mut out = Vec::new();
    for (worker, external_id, params) in rows {
        let v: serde_json::Value = params.as_deref().and_then(|p| serde_json::from_str(p).ok()).unwrap_or_default();
        let text = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").trim().to_string();
        let assignment_id = text("assignmentId");
        if assignment_id.is_empty() {
            continue;
        }
        let in_force = decisions.iter().rev().find(|d| {
            d.worker_id == worker
                && (d.decision == "approve" || d.decision == "reject")
                && d.platform_session.as_deref().is_none_or(|s| s == assignment_id)
        });
        out.push(MturkBatchRow {
            hit_id: text("hitId"),
            assignment_id,
            worker_id: external_id,
            approve: in_force.is_some_and(|d| d.decision == "approve"),
            reject: in_force.filter(|d| d.decision == "reject").map(|d| d.reason.clone()),
        });
    }
    Ok(out)
}

/// The header of the Mechanical Turk batch-results file, as the requester site's batch results
/// download names its columns: the site's "Upload CSV" approves the assignments with an `x` in
/// `Approve` and rejects those with feedback in `Reject`.
pub const MTURK_BATCH_HEADER: &[&str] = &["HITId", "AssignmentId", "WorkerId", "Approve", "Reject"];

/// Writes the batch-results file: `x` under `Approve`, the reason under `Reject` (line breaks
/// as spaces, cut to [`MTURK_FEEDBACK_CHARS`]).
pub fn write_mturk_batch_csv(mut out: impl Write, rows: &[MturkBatchRow]) -> io::Result<()> {
    writeln!(out, "{}", MTURK_BATCH_HEADER.join(","))?;
    for r in rows {
        let reject = r.reject.as_deref().map(|t| {
            let flat: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
            if flat.chars().count() > MTURK_FEEDBACK_CHARS {
                let mut cut: String = flat.chars().take(MTURK_FEEDBACK_CHARS - 1).collect();
                cut.push('…');
                cut
            } else {
                flat
            }
        });
        let fields = [r.hit_id.as_str(), r.assignment_id.as_str(), r.worker_id.as_str(), if r.approve { "x" } else { "" }, reject.as_deref().unwrap_or("")];
        let line: Vec<String> = fields.iter().map(|f| crate::analysis::formats::csv_text(f).into_owned()).collect();
        writeln!(out, "{}", line.join(","))?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "decisions_tests.rs"]
mod tests;
