//! Handing out work: workers (annotators with accounts, crowd workers without passwords), one
//! HIT at a time, with the policies of the schema: a worker never gets the same HIT twice
//! (`UNIQUE (hit_id, worker_id)`), every HIT goes to k distinct workers (`slot` and the
//! partial unique index `assignments_live_slot`, which holds under concurrent requests and
//! several app servers), an idle assignment returns to the pool, a blocked worker gets nothing.
//!
//! Crowd arrivals (issue 17, findings 4–6):
//! - a crowd worker's assignment nobody has started holds its slot for [`RESERVATION_MINUTES`]
//!   only (counted from the arrival, not renewed by reloading the link); pressing Start makes
//!   the hold last the campaign's timeout, and a worker who starts after the reservation lapsed
//!   gets their slot back if nobody took it;
//! - a worker record is created only when there is work for the worker ([`crowd_arrival`]), and
//!   a worker id is at most [`MAX_PLATFORM_ID_CHARS`](assay_core::limits::MAX_PLATFORM_ID_CHARS)
//!   characters;
//! - a crowd worker's platform session (Mechanical Turk's `assignmentId`, Prolific's
//!   `SESSION_ID`, kept in `platform_params`) is part of who holds an assignment: an arrival
//!   resumes only an assignment of its own session, and a newer session of the same worker id
//!   neither inherits an older session's HIT nor is turned away because of it.

use crate::auth::server::random_token;
use crate::campaign::launch::load_campaign;
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{AssignmentStatus, CampaignStatus};
use serde::{Deserialize, Serialize};

/// Where a worker comes from (`workers.platform`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Platform {
    /// An annotator with an Assay account.
    Account,
    /// Amazon Mechanical Turk (`workerId`).
    MTurk,
    /// Prolific (`PROLIFIC_PID`).
    Prolific,
    /// A plain signed link with a worker id chosen by the organizer.
    Link,
}

impl Platform {
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Account => "account",
            Platform::MTurk => "mturk",
            Platform::Prolific => "prolific",
            Platform::Link => "link",
        }
    }
}

/// An assignment handed to a worker: `public_id` is the unguessable token of `/work/{public_id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignmentRef {
    pub id: i64,
    pub public_id: String,
    pub hit_id: i64,
    pub hit_index: i64,
    pub slot: i64,
    /// True when the worker's assignment in progress was resumed rather than a new one claimed.
    pub resumed: bool,
}

async fn find_or_insert_worker(db: &Db, user_id: Option<i64>, platform: Platform, external_id: &str) -> AppResult<i64> {
    let what = || format!("storing the worker record of {} {external_id}", platform.as_str());
    sqlx::query(
        "INSERT INTO workers (user_id, platform, external_id, blocked, created_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT DO NOTHING",
    )
    .bind(user_id)
    .bind(platform.as_str())
    .bind(external_id)
    .bind(now_ms())
    .execute(&db.writer)
    .await
    .with_context(what)?;
    sqlx::query_scalar("SELECT id FROM workers WHERE platform = $1 AND external_id = $2")
        .bind(platform.as_str())
        .bind(external_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(what)?
        .ok_or_else(|| AppError::internal(format!("the worker record for {} {external_id} could not be created", platform.as_str())))
}

/// The worker record of an account (platform `account`), created on first use.
pub async fn worker_for_user(db: &Db, user_id: i64) -> AppResult<i64> {
    find_or_insert_worker(db, Some(user_id), Platform::Account, &user_id.to_string()).await
}

/// A crowd platform's worker id, trimmed, if it is one: not empty, no control character, at
/// most [`MAX_PLATFORM_ID_CHARS`](assay_core::limits::MAX_PLATFORM_ID_CHARS) characters.
fn checked_worker_id(platform: Platform, external_id: &str) -> AppResult<&str> {
    let id = external_id.trim();
    if let Err(problem) = assay_core::limits::check_line(id, assay_core::limits::MAX_PLATFORM_ID_CHARS) {
        return Err(AppError::invalid("external_id", format!("the crowd platform's worker id {problem}")));
    }
    if platform == Platform::Account {
        return Err(AppError::invalid("platform", "accounts get their worker record from worker_for_user"));
    }
    Ok(id)
}

/// The worker record of a crowd worker (no password, no account), created on first use.
pub async fn crowd_worker(db: &Db, platform: Platform, external_id: &str) -> AppResult<i64> {
    let id = checked_worker_id(platform, external_id)?;
    find_or_insert_worker(db, None, platform, id).await
}

/// The record of a crowd worker, if there is one (nothing is created).
async fn known_crowd_worker(db: &Db, platform: Platform, external_id: &str) -> AppResult<Option<i64>> {
    sqlx::query_scalar("SELECT id FROM workers WHERE platform = $1 AND external_id = $2")
        .bind(platform.as_str())
        .bind(external_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("looking up the worker record of {} {external_id}", platform.as_str()))
}

/// The platform session of an assignment, from its platform parameters: Mechanical Turk's
/// `assignmentId` or Prolific's `SESSION_ID` (a crowd link keeps only its platform's
/// parameters); `None` for accounts and plain links.
pub fn session_of(platform_params: Option<&str>) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(platform_params?).ok()?;
    ["assignmentId", "SESSION_ID"].iter().find_map(|k| v.get(*k)?.as_str().map(|s| s.trim().to_string()))
}

/// What a crowd arrival came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The worker's assignment (resumed, or a new one).
    Work(AssignmentRef),
    /// No work for this worker now (nothing was created for them).
    NoWork,
    /// The arrival would have claimed new work, but its client address has claimed as much as
    /// it may for now (nothing was created).
    TooMany,
    /// The arrival would have claimed new work, but its client address already holds as many
    /// assignments of the campaign with no answer given as it may ([`ClientHolds`]; nothing was
    /// created).
    HoldsFull,
}

/// The client a crowd arrival comes from and how many assignments of a campaign it may hold
/// at once with no answer given yet (issue 38: one address with made-up worker ids could hold
/// every free slot). `tag` is what is kept of the address (`assignments.client_tag`,
/// [`crate::signing::client_tag`]). Counted in the database, under a lock per campaign and
/// client, so the limit holds for simultaneous arrivals on several app servers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientHolds {
    pub tag: String,
    pub max_unstarted: i64,
}

/// How many assignments of the campaign held from `tag` are live with no answer given yet
/// (active, next position 0), on `conn` (a transaction's, or the pool's).
async fn unstarted_holds<'c>(conn: impl sqlx::Executor<'c, Database = sqlx::Any>, campaign_id: i64, tag: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM assignments a JOIN hits h ON h.id = a.hit_id \
         WHERE h.campaign_id = $1 AND a.client_tag = $2 AND a.status = $3 AND a.next_position = 0",
    )
    .bind(campaign_id)
    .bind(tag)
    .bind(AssignmentStatus::Active.as_str())
    .fetch_one(conn)
    .await
}

/// A crowd worker arrives by the campaign link with the platform's parameters. An arrival of
/// a known worker in a platform session that already has an assignment in this campaign
/// resumes it (whatever the address). Any other arrival claims new work: only when there is a
/// free slot for the worker (else [`Arrival::NoWork`], and no worker record is created), and
/// only when `may_claim` allows it (the caller's limit of new claims per client address; else
/// [`Arrival::TooMany`]), and only while the `client` holds fewer unstarted assignments of the
/// campaign than it may (else [`Arrival::HoldsFull`]).
pub async fn crowd_arrival(
    db: &Db,
    campaign_id: i64,
    platform: Platform,
    external_id: &str,
    params: Option<serde_json::Value>,
    client: Option<&ClientHolds>,
    may_claim: impl FnOnce() -> bool,
) -> AppResult<Arrival> {
    let id = checked_worker_id(platform, external_id)?;
    let session = session_of(params.as_ref().map(|p| p.to_string()).as_deref());
    let known = known_crowd_worker(db, platform, id).await?;
    if let (Some(worker), Some(session)) = (known, session.as_deref())
        && session_blocked(db, campaign_id, worker, session).await?
    {
        return Ok(Arrival::NoWork);
    }
    let arrival = |c: Claim| match c {
        Claim::Given(a) => Arrival::Work(a),
        Claim::Nothing => Arrival::NoWork,
        Claim::HoldsFull => Arrival::HoldsFull,
    };
    if let Some(worker) = known
        && has_session_in(db, campaign_id, worker, session.as_deref()).await?
    {
        return Ok(arrival(claim(db, campaign_id, worker, params, client).await?));
    }
    if !has_work_for(db, campaign_id, known).await? {
        return Ok(Arrival::NoWork);
    }
    // Before the claim is counted against the address's rate: an address at its limit of
    // unstarted holds is told so (checked again where the assignment is made, under a lock).
    if let Some(c) = client
        && unstarted_holds(&db.pool, campaign_id, &c.tag).await.with_context(|| format!("counting the unstarted holds of a client in campaign {campaign_id}"))?
            >= c.max_unstarted
    {
        return Ok(Arrival::HoldsFull);
    }
    if !may_claim() {
        return Ok(Arrival::TooMany);
    }
    let worker = match known {
        Some(w) => w,
        None => find_or_insert_worker(db, None, platform, id).await?,
    };
    let given = claim(db, campaign_id, worker, params, client).await?;
    if !matches!(given, Claim::Given(_)) && known.is_none() {
        // Another worker took the last slot meanwhile: no record for a worker without work.
        sqlx::query(
            "DELETE FROM workers WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM assignments WHERE worker_id = $1) \
             AND NOT EXISTS (SELECT 1 FROM worker_decisions WHERE worker_id = $1) AND NOT EXISTS (SELECT 1 FROM worker_verdicts WHERE worker_id = $1)",
        )
        .bind(worker)
        .execute(&db.writer)
        .await
        .with_context(|| format!("removing the unused worker record {worker}"))?;
    }
    Ok(arrival(given))
}

/// Whether the organizer's latest block or unblock of this platform session of the worker in
/// the campaign is a block (`worker_decisions.platform_session`).
async fn session_blocked(db: &Db, campaign_id: i64, worker_id: i64, session: &str) -> AppResult<bool> {
    let latest: Option<String> = sqlx::query_scalar(
        "SELECT decision FROM worker_decisions WHERE campaign_id = $1 AND worker_id = $2 AND platform_session = $3 \
         AND decision IN ('block', 'unblock') ORDER BY id DESC LIMIT 1",
    )
    .bind(campaign_id)
    .bind(worker_id)
    .bind(session)
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("reading the blocks of worker {worker_id} in campaign {campaign_id}"))?;
    Ok(latest.as_deref() == Some("block"))
}

/// Whether the worker has an assignment of this platform session (`None`: of no session) in
/// the campaign, in any status.
async fn has_session_in(db: &Db, campaign_id: i64, worker_id: i64, session: Option<&str>) -> AppResult<bool> {
    let params: Vec<Option<String>> = sqlx::query_scalar(
        "SELECT a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE a.worker_id = $1 AND h.campaign_id = $2",
    )
    .bind(worker_id)
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the platform sessions of worker {worker_id} in campaign {campaign_id}"))?;
    Ok(params.iter().any(|p| session_of(p.as_deref()).as_deref() == session))
}

/// Whether the campaign is launched and has a free slot on a HIT the worker (`None`: a new
/// worker) never had, after lapsed reservations and idle assignments returned to the pool.
async fn has_work_for(db: &Db, campaign_id: i64, worker_id: Option<i64>) -> AppResult<bool> {
    let campaign = load_campaign(db, campaign_id).await?;
    if campaign.status != CampaignStatus::Launched {
        return Ok(false);
    }
    expire_idle(db, campaign_id).await?;
    let k = campaign.settings.redundancy.max(1) as i64;
    let free: Option<i64> = sqlx::query_scalar(
        "SELECT h.id FROM hits h WHERE h.campaign_id = $1 \
         AND NOT EXISTS (SELECT 1 FROM assignments b WHERE b.hit_id = h.id AND b.worker_id = $2) \
         AND (SELECT COUNT(*) FROM assignments c WHERE c.hit_id = h.id AND c.status IN ($4, $5)) < $3 LIMIT 1",
    )
    .bind(campaign_id)
    .bind(worker_id.unwrap_or(-1))
    .bind(k)
    .bind(AssignmentStatus::Active.as_str())
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("looking for free slots in campaign {campaign_id}"))?;
    // An adaptive campaign builds its next HIT now, unless its stopping rule holds.
    Ok(free.is_some() || crate::campaign::launch::adaptive::build_next_hit(db, campaign_id, worker_id).await? == crate::campaign::launch::adaptive::Extension::Built)
}

/// Blocks or unblocks a worker: a blocked worker is given no more work.
pub async fn set_blocked(db: &Db, worker_id: i64, blocked: bool) -> AppResult<()> {
    sqlx::query("UPDATE workers SET blocked = $1 WHERE id = $2")
        .bind(i64::from(blocked))
        .bind(worker_id)
        .execute(&db.writer)
        .await
        .with_context(|| format!("blocking or unblocking worker {worker_id}"))?;
    Ok(())
}

/// How long a crowd worker's assignment nobody has started holds its slot, counted from when it
/// was handed out (reloading the link does not renew it): a crowd link followed by many made-up
/// workers cannot keep real workers out for longer. The campaign's timeout applies once work
/// starts, and to the assignments of accounts (annotators are invited: they cannot multiply).
pub const RESERVATION_MINUTES: i64 = 5;

/// Returns idle assignments of a campaign to the pool (status `expired`): those not seen for
/// longer than the campaign's timeout, and crowd workers' ones nobody started within
/// [`RESERVATION_MINUTES`] (or the timeout, if shorter). Returns how many expired.
/// `next_assignment` does this itself; the status page calls it so its numbers are current.
pub async fn expire_idle(db: &Db, campaign_id: i64) -> AppResult<u64> {
    let campaign = load_campaign(db, campaign_id).await?;
    let timeout_ms = campaign.settings.assignment_timeout_minutes.max(1) * 60_000;
    let done = expire_query(campaign_id, now_ms(), timeout_ms)
        .execute(&db.writer)
        .await
        .with_context(|| format!("expiring the idle assignments of campaign {campaign_id}"))?;
    Ok(done.rows_affected())
}

/// The campaign's active assignments last seen more than `timeout_ms` before `now`, or of a
/// crowd worker, not started and handed out more than the reservation before `now`, become
/// expired.
fn expire_query(campaign_id: i64, now: i64, timeout_ms: i64) -> sqlx::query::Query<'static, sqlx::Any, sqlx::any::AnyArguments> {
    let reservation_ms = timeout_ms.min(RESERVATION_MINUTES * 60_000);
    sqlx::query(
        "UPDATE assignments SET status = $1 WHERE status = $2 AND hit_id IN (SELECT id FROM hits WHERE campaign_id = $4) \
         AND (last_seen_at < $3 OR (item_shown_at IS NULL AND next_position = 0 AND started_at < $5 \
              AND worker_id IN (SELECT id FROM workers WHERE user_id IS NULL)))",
    )
    .bind(AssignmentStatus::Expired.as_str())
    .bind(AssignmentStatus::Active.as_str())
    .bind(now - timeout_ms)
    .bind(campaign_id)
    .bind(now - reservation_ms)
}

enum Attempt {
    Done(Claim),
    /// Another request took the slot first; try again.
    Conflict,
}

/// What a request for work came to.
enum Claim {
    /// The worker's assignment (resumed, revived or new).
    Given(AssignmentRef),
    /// No work for the worker.
    Nothing,
    /// New work would have been given, but the client holds as many unstarted assignments of
    /// the campaign as it may.
    HoldsFull,
}

/// The worker's assignment: the active one in this campaign if there is one (resumed), else
/// their expired one whose slot nobody took since (revived, with its answers), else a
/// new one on a free slot of a HIT the worker has never had, or `None` when there is no work
/// for them (campaign not launched, every slot taken, worker blocked). Only an assignment of
/// the same platform session ([`session_of`] the `params`) is resumed or revived: another
/// session of the worker gets work of its own.
///
/// Assignments idle longer than the campaign's timeout become `expired` first, freeing their
/// slot. Concurrency: each attempt is one short transaction that begins by writing the worker's
/// row (serialising one worker's requests: the same worker asking twice gets the same
/// assignment); two workers racing for one slot are told apart by the partial unique index, and
/// the loser retries with another slot.
pub async fn next_assignment(
    db: &Db,
    campaign_id: i64,
    worker_id: i64,
    params: Option<serde_json::Value>,
) -> AppResult<Option<AssignmentRef>> {
    Ok(match claim(db, campaign_id, worker_id, params, None).await? {
        Claim::Given(a) => Some(a),
        Claim::Nothing | Claim::HoldsFull => None,
    })
}

/// [`next_assignment`] for a crowd arrival from `client`: a new assignment is made only while
/// the client holds fewer unstarted assignments of the campaign than it may, and remembers the
/// client (resuming or reviving the worker's own assignment is not limited).
async fn claim(
    db: &Db,
    campaign_id: i64,
    worker_id: i64,
    params: Option<serde_json::Value>,
    client: Option<&ClientHolds>,
) -> AppResult<Claim> {
    let campaign = load_campaign(db, campaign_id).await?;
    if campaign.status != CampaignStatus::Launched {
        return Ok(Claim::Nothing);
    }
    let k = campaign.settings.redundancy.max(1) as i64;
    let timeout_ms = campaign.settings.assignment_timeout_minutes.max(1) * 60_000;
    let params = params.map(|p| p.to_string());
    let mut built = 0;
    for _ in 0..50 {
        match attempt(db, campaign_id, worker_id, k, timeout_ms, params.as_deref(), client).await? {
            // No HIT for this worker: an adaptive campaign builds its next one, unless its
            // stopping rule holds (then this is its "no more work").
            Attempt::Done(Claim::Nothing)
                if built < 8
                    && crate::campaign::launch::adaptive::build_next_hit(db, campaign_id, Some(worker_id)).await?
                        == crate::campaign::launch::adaptive::Extension::Built =>
            {
                built += 1;
            }
            Attempt::Done(r) => return Ok(r),
            Attempt::Conflict => {
                // Let the winner commit; jitter keeps racing requests apart.
                let pause = 2 + (rand::random::<u64>() % 20);
                tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            }
        }
    }
    Err(AppError::conflict("too many concurrent requests for this campaign; please try again"))
}

crate::rows::row! {
    /// The worker's own assignment, to be taken up again.
    struct OwnAssignment {
        id: i64,
        public_id: String,
        hit_id: i64,
        slot: i64,
        hit_index: i64,
        platform_params: Option<String>,
    }
}

impl OwnAssignment {
    fn resumed(self) -> AssignmentRef {
        let OwnAssignment { id, public_id, hit_id, slot, hit_index, .. } = self;
        AssignmentRef { id, public_id, hit_id, hit_index, slot, resumed: true }
    }

    /// The first of `candidates` (in their order) of the platform session `session`.
    fn of_session(candidates: Vec<OwnAssignment>, session: Option<&str>) -> Option<OwnAssignment> {
        candidates.into_iter().find(|a| session_of(a.platform_params.as_deref()).as_deref() == session)
    }
}

async fn attempt(
    db: &Db,
    campaign_id: i64,
    worker_id: i64,
    k: i64,
    timeout_ms: i64,
    params: Option<&str>,
    client: Option<&ClientHolds>,
) -> AppResult<Attempt> {
    let now = now_ms();
    let what = || format!("handing out work of campaign {campaign_id} to worker {worker_id}");
    let mut tx = db.writer.begin().await.with_context(what)?;
    macro_rules! run {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                // Dropping the transaction rolls it back.
                Err(e) if crate::db::is_conflict(&e) => return Ok(Attempt::Conflict),
                Err(e) => return Err(AppError::storage(what(), e)),
            }
        };
    }
    // A write first: locks the worker's row (PostgreSQL) or takes the write lock (SQLite), so
    // the reads below are not followed by a lock upgrade.
    let blocked: Option<i64> = run!(
        sqlx::query_scalar("UPDATE workers SET blocked = blocked WHERE id = $1 RETURNING blocked")
            .bind(worker_id)
            .fetch_optional(&mut *tx)
            .await
    );
    let Some(blocked) = blocked else {
        return Err(AppError::not_found(format!("there is no worker with id {worker_id}")));
    };
    if blocked != 0 {
        let _ = tx.rollback().await;
        return Ok(Attempt::Done(Claim::Nothing));
    }
    // Idle assignments and lapsed reservations of this campaign go back to the pool.
    run!(expire_query(campaign_id, now, timeout_ms).execute(&mut *tx).await);
    let session = session_of(params);
    // Resume the worker's assignment in progress (of this platform session).
    let active: Vec<OwnAssignment> = run!(
        sqlx::query_as(
            "SELECT a.id, a.public_id, a.hit_id, a.slot, h.hit_index, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE a.worker_id = $1 AND a.status = $2 AND h.campaign_id = $3 ORDER BY a.id",
        )
        .bind(worker_id)
        .bind(AssignmentStatus::Active.as_str())
        .bind(campaign_id)
        .fetch_all(&mut *tx)
        .await
    );
    if let Some(a) = OwnAssignment::of_session(active, session.as_deref()) {
        run!(sqlx::query("UPDATE assignments SET last_seen_at = $1 WHERE id = $2").bind(now).bind(a.id).execute(&mut *tx).await);
        run!(tx.commit().await);
        return Ok(Attempt::Done(Claim::Given(a.resumed())));
    }
    // Revive the worker's own expired assignment while its slot is still free: a worker who
    // stepped away for longer than the timeout continues where they stopped, with the answers
    // they gave, instead of finding no HIT (they already had this one, so no other is offered
    // to them on it). Once another worker has taken the slot, the HIT is no longer theirs.
    let lapsed: Vec<OwnAssignment> = run!(
        sqlx::query_as(
            "SELECT a.id, a.public_id, a.hit_id, a.slot, h.hit_index, a.platform_params FROM assignments a JOIN hits h ON h.id = a.hit_id \
             WHERE a.worker_id = $1 AND a.status = $2 AND h.campaign_id = $3 \
             AND NOT EXISTS (SELECT 1 FROM assignments o WHERE o.hit_id = a.hit_id AND o.slot = a.slot AND o.status IN ($4, $5)) \
             ORDER BY a.last_seen_at DESC, a.id DESC",
        )
        .bind(worker_id)
        .bind(AssignmentStatus::Expired.as_str())
        .bind(campaign_id)
        .bind(AssignmentStatus::Active.as_str())
        .bind(AssignmentStatus::Completed.as_str())
        .fetch_all(&mut *tx)
        .await
    );
    if let Some(a) = OwnAssignment::of_session(lapsed, session.as_deref()) {
        run!(
            sqlx::query("UPDATE assignments SET status = $1, last_seen_at = $2 WHERE id = $3")
                .bind(AssignmentStatus::Active.as_str())
                .bind(now)
                .bind(a.id)
                .execute(&mut *tx)
                .await
        );
        run!(tx.commit().await);
        return Ok(Attempt::Done(Claim::Given(a.resumed())));
    }
    // A new assignment from a client with a limit: no more than it may hold unstarted. The
    // count and the insert below are one step per campaign and client: SQLite's write lock
    // (taken above) serialises them; on PostgreSQL a transaction-scoped advisory lock does
    // (two arrivals of different workers lock different worker rows).
    if let Some(c) = client {
        if db.backend == crate::db::Backend::Postgres {
            run!(
                sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS locked")
                    .bind(format!("crowd holds {campaign_id} {}", c.tag))
                    .fetch_one(&mut *tx)
                    .await
            );
        }
        if run!(unstarted_holds(&mut *tx, campaign_id, &c.tag).await) >= c.max_unstarted {
            let _ = tx.rollback().await;
            return Ok(Attempt::Done(Claim::HoldsFull));
        }
    }
    // The HIT with the fewest live copies that this worker never had and that has a free slot.
    // Ties are broken in an order that differs from worker to worker, so that many workers
    // arriving at once ask for different HITs instead of all racing for the same slot.
    let candidate: Option<(i64, i64, i64)> = run!(
        sqlx::query_as(
            "SELECT h.id, h.hit_index, (SELECT COUNT(*) FROM assignments a WHERE a.hit_id = h.id AND a.status IN ($5, $6)) AS live \
             FROM hits h WHERE h.campaign_id = $1 \
             AND NOT EXISTS (SELECT 1 FROM assignments b WHERE b.hit_id = h.id AND b.worker_id = $2) \
             AND (SELECT COUNT(*) FROM assignments c WHERE c.hit_id = h.id AND c.status IN ($5, $6)) < $3 \
             ORDER BY live, (h.hit_index * 40503 + $4) % 65521, h.hit_index LIMIT 1",
        )
        .bind(campaign_id)
        .bind(worker_id)
        .bind(k)
        .bind(worker_id.rem_euclid(65521) * 9973)
        .bind(AssignmentStatus::Active.as_str())
        .bind(AssignmentStatus::Completed.as_str())
        .fetch_optional(&mut *tx)
        .await
    );
    let Some((hit_id, hit_index, _live)) = candidate else {
        run!(tx.commit().await);
        return Ok(Attempt::Done(Claim::Nothing));
    };
    let taken: Vec<i64> = run!(
        sqlx::query_scalar("SELECT slot FROM assignments WHERE hit_id = $1 AND status IN ($2, $3)")
            .bind(hit_id)
            .bind(AssignmentStatus::Active.as_str())
            .bind(AssignmentStatus::Completed.as_str())
            .fetch_all(&mut *tx)
            .await
    );
    let Some(slot) = (0..k).find(|s| !taken.contains(s)) else {
        let _ = tx.rollback().await;
        return Ok(Attempt::Conflict);
    };
    let public_id = random_token();
    let id: i64 = run!(
        sqlx::query_scalar(
            "INSERT INTO assignments (public_id, hit_id, slot, worker_id, status, platform_params, next_position, started_at, last_seen_at, client_tag) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7, $8) RETURNING id",
        )
        .bind(&public_id)
        .bind(hit_id)
        .bind(slot)
        .bind(worker_id)
        .bind(AssignmentStatus::Active.as_str())
        .bind(params.map(str::to_string))
        .bind(now)
        .bind(client.map(|c| c.tag.clone()))
        .fetch_one(&mut *tx)
        .await
    );
    run!(tx.commit().await);
    Ok(Attempt::Done(Claim::Given(AssignmentRef { id, public_id, hit_id, hit_index, slot, resumed: false })))
}

/// Takes back the slot of an assignment whose reservation lapsed before its worker pressed
/// Start (see [`RESERVATION_MINUTES`]), and starts it: `Ok(true)` when it is active and started
/// now; `Ok(false)` when it cannot be (another worker took the slot meanwhile, it was started or
/// is no longer expired, the campaign is not running). `now` is the first item's shown time.
pub async fn reclaim_reservation(db: &Db, assignment_id: i64, now: i64) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE assignments SET status = $1, item_shown_at = $2, last_seen_at = $2 \
         WHERE id = $3 AND status = $4 AND item_shown_at IS NULL AND next_position = 0 \
         AND EXISTS (SELECT 1 FROM hits h JOIN campaigns c ON c.id = h.campaign_id WHERE h.id = assignments.hit_id AND c.status = $5) \
         AND EXISTS (SELECT 1 FROM workers w WHERE w.id = assignments.worker_id AND w.blocked = 0)",
    )
    .bind(AssignmentStatus::Active.as_str())
    .bind(now)
    .bind(assignment_id)
    .bind(AssignmentStatus::Expired.as_str())
    .bind(CampaignStatus::Launched.as_str())
    .execute(&db.writer)
    .await;
    match done {
        Ok(r) => Ok(r.rows_affected() == 1),
        // The slot is live again under another worker (the partial unique index).
        Err(e) if crate::db::is_conflict(&e) => Ok(false),
        Err(e) => Err(AppError::storage(format!("taking back the slot of assignment {assignment_id}"), e)),
    }
}

/// The campaign id behind a public id.
pub async fn campaign_by_public_id(db: &Db, public_id: &str) -> AppResult<Option<i64>> {
    sqlx::query_scalar("SELECT id FROM campaigns WHERE public_id = $1")
        .bind(public_id)
        .fetch_optional(&db.pool)
        .await
        .context("looking up a campaign by its public id")
}

/// The crowd platform's return address for a finished assignment, from `platform_params`:
/// `return_url` (http or https; `{code}` is replaced by the completion code), or MTurk's
/// `turkSubmitTo` + `assignmentId` (the external-submit address).
pub fn return_url(platform_params: &str, code: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(platform_params).ok()?;
    let field = |k: &str| v.get(k).and_then(serde_json::Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let web = |u: &str| u.starts_with("https://") || u.starts_with("http://");
    if let Some(url) = field("return_url").filter(|u| web(u)) {
        return Some(url.replace("{code}", code));
    }
    // turkSubmitTo comes from the link's query string, which anyone can write: only Mechanical
    // Turk's own addresses may receive the completion code (else a crafted link sends it away).
    let mturk = |u: &str| matches!(u.trim_end_matches('/'), "https://www.mturk.com" | "https://workersandbox.mturk.com");
    if let (Some(submit), Some(assignment)) = (field("turkSubmitTo").filter(|u| mturk(u)), field("assignmentId")) {
        return Some(format!(
            "{}/mturk/externalSubmit?assignmentId={}&completion_code={code}",
            submit.trim_end_matches('/'),
            crate::auth::url_escape(assignment)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_urls_come_from_the_platform_parameters() {
        assert_eq!(
            return_url(r#"{"return_url":"https://app.prolific.com/submissions/complete?cc={code}"}"#, "C-1").as_deref(),
            Some("https://app.prolific.com/submissions/complete?cc=C-1")
        );
        assert_eq!(return_url(r#"{"return_url":"javascript:alert(1)"}"#, "C"), None);
        assert_eq!(
            return_url(r#"{"turkSubmitTo":"https://www.mturk.com/","assignmentId":"A 1"}"#, "C").as_deref(),
            Some("https://www.mturk.com/mturk/externalSubmit?assignmentId=A%201&completion_code=C")
        );
        assert_eq!(return_url("{}", "C"), None);
        assert_eq!(return_url("nonsense", "C"), None);
    }
}
