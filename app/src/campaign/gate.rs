//! The quality gate at submission (METHOD §4, issue 6 item 2).
//!
//! When the last item of a HIT is answered, the worker's reliability test is run on the
//! worker's own judgments in the campaign (pooled over all their HITs there, raw scores, the
//! METHOD defaults: paired one-sided t-test, α = 0.05, at least 5 pairs), the verdict is stored
//! (`worker_verdicts`, so the review page shows it at once), and the campaign's gate decides
//! whether the HIT's completion code is given or held (`assignments.code_held`). A held code
//! is released when the organizer approves the worker, or when a later HIT of the same worker
//! makes the pooled verdict a pass.
//!
//! In three steps, so that the one writer (SQLite) never waits for the computation (issue 36
//! item 4): the transaction storing the last answer holds the HIT's code
//! ([`hold_until_decided`]); after its commit the gate reads the worker's judgments on a
//! reading connection and decides ([`read`]); a short write transaction stores the verdict and
//! the code ([`write`]) if the worker's judgments are still those read (else it reads again),
//! so the latest verdict is always over all the worker's judgments. An organizer's release in
//! between stands. A finished HIT with its code held and no verdict (the server stopped between
//! the steps) is decided at the next look at it ([`undecided`], [`decide`]).
//!
//! The test is the protocol's ([`assay_core::protocol::Protocol::worker_test`]): the
//! pipeline's paired test on scores, or the sign test on choices between a degraded copy and
//! its original shown side by side.
//!
//! Only that worker's judgments are read (by `assignments.worker_id`, indexed), so the cost
//! does not grow with the campaign: see `benches/gate.rs`.

use crate::analysis::quality::{self, PairCheck, QcSettings, Verdict};
use crate::analysis::JudgmentSet;
use crate::signing::completion_code;
use crate::campaign::{CampaignSettings, GateMode, GateUnsure, QualityGate};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::protocol::WorkerTest;
use sqlx::AnyConnection;

/// What the gate decided for a finished HIT.
#[derive(Clone, Debug, PartialEq)]
pub struct GateOutcome {
    pub reliability: PairCheck,
    pub hits: usize,
    /// The HIT's completion code, or `None` when it is held.
    pub code: Option<String>,
    pub compute_us: i64,
}

/// The verdict's stored name.
pub fn verdict_str(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::NotEnoughEvidence => "not-enough-evidence",
    }
}

/// Whether the gate gives the completion code for a verdict.
pub fn gives_code(gate: QualityGate, verdict: Verdict) -> bool {
    match (gate.mode, verdict) {
        (GateMode::Off, _) | (GateMode::RequirePass, Verdict::Pass) => true,
        (GateMode::RequirePass, Verdict::Fail) => false,
        (GateMode::RequirePass, Verdict::NotEnoughEvidence) => gate.unsure == GateUnsure::Give,
    }
}

/// The quality-control settings the gate uses: the METHOD defaults, with the campaign's floor
/// for HIT time.
pub fn qc_settings(settings: &CampaignSettings) -> QcSettings {
    QcSettings { hit_time_floor_seconds: settings.time_floor_seconds as f64, ..QcSettings::default() }
}

/// The reliability of the one worker in `set` (or "not enough evidence" with no pairs).
pub fn reliability_of(set: &JudgmentSet, qc: &QcSettings) -> (PairCheck, usize) {
    match quality::run(set, qc).into_iter().next() {
        Some(w) => (w.reliability, w.hits),
        None => (
            PairCheck {
                test: qc.reliability_test,
                n_pairs: 0,
                mean_difference: None,
                mean_abs_difference: None,
                statistic: None,
                p_value: None,
                verdict: Verdict::NotEnoughEvidence,
                note: Some(format!("0 pairs, fewer than the minimum of {}", qc.min_pairs)),
                gold: None,
            },
            0,
        ),
    }
}


/// Gives the completion codes of the worker's held HITs in the campaign (after an approval or
/// a later pass). Returns how many were released.
pub async fn release_held(conn: &mut AnyConnection, secret: &[u8], campaign_id: i64, worker_id: i64) -> AppResult<usize> {
    let what = || format!("releasing the held completion codes of worker {worker_id} in campaign {campaign_id}");
    let held: Vec<(i64, String)> = sqlx::query_as(
        "SELECT a.id, a.public_id FROM assignments a JOIN hits h ON h.id = a.hit_id \
         WHERE a.worker_id = $1 AND h.campaign_id = $2 AND a.code_held = 1 AND a.status = $3",
    )
    .bind(worker_id)
    .bind(campaign_id)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_all(&mut *conn)
    .await
    .with_context(what)?;
    for (id, public_id) in &held {
        sqlx::query("UPDATE assignments SET completion_code = $1, code_held = 0 WHERE id = $2")
            .bind(completion_code(secret, public_id))
            .bind(*id)
            .execute(&mut *conn)
            .await
            .with_context(what)?;
    }
    Ok(held.len())
}

/// [`release_held`] for the given assignments only (one platform session of a worker): gives
/// each finished one whose code the gate held its completion code. Returns how many.
pub async fn release_held_of(conn: &mut AnyConnection, secret: &[u8], assignments: &[i64]) -> AppResult<usize> {
    let mut released = 0;
    for id in assignments {
        let what = || format!("releasing the held completion code of assignment {id}");
        let held: Option<String> = sqlx::query_scalar("SELECT public_id FROM assignments WHERE id = $1 AND code_held = 1 AND status = $2")
            .bind(*id)
            .bind(AssignmentStatus::Completed.as_str())
            .fetch_optional(&mut *conn)
            .await
            .with_context(what)?;
        if let Some(public_id) = held {
            sqlx::query("UPDATE assignments SET completion_code = $1, code_held = 0 WHERE id = $2")
                .bind(completion_code(secret, &public_id))
                .bind(*id)
                .execute(&mut *conn)
                .await
                .with_context(what)?;
            released += 1;
        }
    }
    Ok(released)
}

crate::rows::row! {
    /// The assignment whose HIT is finished, and its campaign's task, settings and gate.
    #[derive(Clone, Debug)]
    struct FinishedHit {
        public_id: String,
        worker_id: i64,
        campaign_id: i64,
        task: String,
        settings: String,
        gate: String,
        gate_unsure: String,
    }
}

/// Step one, in the transaction that stores a HIT's last answer: the HIT's completion code is
/// held until the gate has decided ([`decide`], after the commit). An organizer's release in
/// between gives it (the worker is approved), and the gate then leaves it given.
pub async fn hold_until_decided(conn: &mut AnyConnection, assignment_id: i64) -> AppResult<()> {
    sqlx::query("UPDATE assignments SET code_held = 1 WHERE id = $1 AND completion_code IS NULL")
        .bind(assignment_id)
        .execute(&mut *conn)
        .await
        .with_context(|| format!("holding the completion code of assignment {assignment_id} for the quality gate"))?;
    Ok(())
}

/// What the gate read and decided for a finished HIT, not yet stored: [`read`], then [`write`].
#[derive(Clone, Debug)]
pub struct Reading {
    assignment_id: i64,
    hit: FinishedHit,
    /// The worker's judgments in the campaign when they were read: (count, largest id).
    version: (i64, i64),
    reliability: PairCheck,
    hits: usize,
    given: bool,
    compute_us: i64,
}

/// (count, largest id) of a worker's judgments in a campaign: judgments are only added, so a
/// verdict computed from judgments read at this version is current while it is unchanged.
async fn judgments_version(conn: &mut AnyConnection, campaign_id: i64, worker_id: i64) -> AppResult<(i64, i64)> {
    sqlx::query_as(
        "SELECT COUNT(*) AS n, COALESCE(MAX(j.id), 0) AS last FROM assignments a JOIN hits h ON h.id = a.hit_id \
         JOIN judgments j ON j.assignment_id = a.id WHERE a.worker_id = $1 AND h.campaign_id = $2",
    )
    .bind(worker_id)
    .bind(campaign_id)
    .fetch_one(&mut *conn)
    .await
    .with_context(|| format!("reading how many judgments worker {worker_id} has in campaign {campaign_id}"))
}

/// The finished HIT's worker, campaign and gate.
async fn finished_hit(conn: &mut AnyConnection, assignment_id: i64) -> AppResult<FinishedHit> {
    sqlx::query_as(
        "SELECT a.public_id, a.worker_id, h.campaign_id, c.task, c.settings, c.gate, c.gate_unsure \
         FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id WHERE a.id = $1",
    )
    .bind(assignment_id)
    .fetch_one(&mut *conn)
    .await
    .with_context(|| format!("running the quality gate for assignment {assignment_id}"))
}

/// Reads the worker's judgments in the campaign (pooled over their HITs) on `conn` and decides:
/// the verdict and whether the HIT's code is given. Writes nothing.
async fn compute(conn: &mut AnyConnection, assignment_id: i64, hit: FinishedHit) -> AppResult<Reading> {
    let started = std::time::Instant::now();
    let FinishedHit { worker_id, campaign_id, .. } = hit;
    let task = TaskKind::of_campaign(campaign_id, &hit.task)?;
    let settings = CampaignSettings::read(&hit.settings, task, "", "");
    let gate = QualityGate::parse(&hit.gate, &hit.gate_unsure)
        .ok_or_else(|| AppError::internal(format!("campaign {campaign_id} has an unknown gate {:?}/{:?}", hit.gate, hit.gate_unsure)))?;
    // Read before the judgments: a judgment added in between makes the version older than
    // what was read, so the write recomputes (never the other way round).
    let version = judgments_version(conn, campaign_id, worker_id).await?;
    let (reliability, hits) = match assay_core::protocol::for_task(task).worker_test() {
        WorkerTest::ScorePairs => {
            let set = crate::analysis::db::load_worker(conn, campaign_id, worker_id).await?;
            reliability_of(&set, &qc_settings(&settings))
        }
        WorkerTest::CopyPreferences => crate::analysis::pairwise::worker_check(conn, campaign_id, worker_id).await?,
    };
    let given = gives_code(gate, reliability.verdict);
    let compute_us = started.elapsed().as_micros() as i64;
    Ok(Reading { assignment_id, hit, version, reliability, hits, given, compute_us })
}

/// Step two, off the writer: reads the finished HIT and the worker's judgments on a reading
/// connection (the judgment of the HIT's last answer is committed) and decides.
pub async fn read(db: &Db, assignment_id: i64) -> AppResult<Reading> {
    let mut conn = db.pool.acquire().await.with_context(|| format!("running the quality gate for assignment {assignment_id}"))?;
    let hit = finished_hit(&mut conn, assignment_id).await?;
    compute(&mut conn, assignment_id, hit).await
}

/// Stores a decision in the open transaction: the verdict (`worker_verdicts`), the HIT's code
/// when given (a held code stays held unless the organizer released it meanwhile, which
/// stands), and a pass releases the worker's earlier held codes. Returns the HIT's code as it
/// now is.
async fn record(conn: &mut AnyConnection, secret: &[u8], r: &Reading) -> AppResult<Option<String>> {
    let (assignment_id, campaign_id, worker_id) = (r.assignment_id, r.hit.campaign_id, r.hit.worker_id);
    let context = || format!("storing the quality gate's verdict for assignment {assignment_id}");
    let detail = serde_json::to_string(&r.reliability).map_err(|e| AppError::internal(format!("cannot encode a verdict: {e}")))?;
    sqlx::query(
        "INSERT INTO worker_verdicts (campaign_id, worker_id, assignment_id, verdict, n_pairs, hits, reliability, code_given, compute_us, computed_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(campaign_id)
    .bind(worker_id)
    .bind(assignment_id)
    .bind(verdict_str(r.reliability.verdict))
    .bind(r.reliability.n_pairs as i64)
    .bind(r.hits as i64)
    .bind(detail)
    .bind(i64::from(r.given))
    .bind(r.compute_us)
    .bind(now_ms())
    .execute(&mut *conn)
    .await
    .with_context(context)?;
    let code = if r.given {
        let code = completion_code(secret, &r.hit.public_id);
        sqlx::query("UPDATE assignments SET completion_code = $1, code_held = 0 WHERE id = $2")
            .bind(code.clone())
            .bind(assignment_id)
            .execute(&mut *conn)
            .await
            .with_context(context)?;
        Some(code)
    } else {
        // Held, unless a code was given meanwhile (the organizer's release): that stands.
        sqlx::query("UPDATE assignments SET code_held = 1 WHERE id = $1 AND completion_code IS NULL")
            .bind(assignment_id)
            .execute(&mut *conn)
            .await
            .with_context(context)?;
        sqlx::query_scalar("SELECT completion_code FROM assignments WHERE id = $1")
            .bind(assignment_id)
            .fetch_one(&mut *conn)
            .await
            .with_context(context)?
    };
    // A pooled pass also vouches for the worker's earlier HITs held by the gate.
    if r.reliability.verdict == Verdict::Pass {
        release_held(conn, secret, campaign_id, worker_id).await?;
    }
    Ok(code)
}

/// Locks the worker's decisions until the transaction ends (PostgreSQL; SQLite has one writer),
/// so that two verdicts of one worker are stored in the order of the judgments they read.
async fn lock_worker(conn: &mut AnyConnection, db: &Db, worker_id: i64) -> AppResult<()> {
    if db.backend == crate::db::Backend::Postgres {
        sqlx::query("SELECT id FROM workers WHERE id = $1 FOR UPDATE")
            .bind(worker_id)
            .execute(&mut *conn)
            .await
            .with_context(|| format!("locking worker {worker_id} for the quality gate"))?;
    }
    Ok(())
}

/// Step three: stores `r` in a short write transaction if the worker's judgments are still
/// those it read (`Ok(None)`: a judgment came meanwhile, nothing was written, read again).
/// Returns the outcome with the HIT's code as it now is.
pub async fn write(db: &Db, secret: &[u8], r: &Reading) -> AppResult<Option<GateOutcome>> {
    let what = || format!("storing the quality gate's verdict for assignment {}", r.assignment_id);
    let mut tx = db.writer.begin().await.with_context(what)?;
    lock_worker(&mut tx, db, r.hit.worker_id).await?;
    if judgments_version(&mut tx, r.hit.campaign_id, r.hit.worker_id).await? != r.version {
        tx.rollback().await.with_context(what)?;
        return Ok(None);
    }
    let code = record(&mut tx, secret, r).await?;
    tx.commit().await.with_context(what)?;
    Ok(Some(GateOutcome { reliability: r.reliability.clone(), hits: r.hits, code, compute_us: r.compute_us }))
}

/// Times the gate reads again when the worker's judgments changed while it computed, before it
/// computes inside the write transaction instead.
const GATE_ATTEMPTS: usize = 3;

/// Runs the gate for an assignment whose last answer is committed (its code held by
/// [`hold_until_decided`]): the worker's pooled verdict computed from a reading connection,
/// then stored with the code given or kept held in a short write transaction, so the writer
/// never waits for the computation. A verdict is stored only if no judgment of the worker came
/// after the ones it was computed from (else it is computed again; after
/// [`GATE_ATTEMPTS`], inside the write transaction), so the worker's latest verdict is always
/// over all their judgments.
pub async fn decide(db: &Db, secret: &[u8], assignment_id: i64) -> AppResult<GateOutcome> {
    for _ in 0..GATE_ATTEMPTS {
        let r = read(db, assignment_id).await?;
        if let Some(outcome) = write(db, secret, &r).await? {
            return Ok(outcome);
        }
    }
    let what = || format!("running the quality gate for assignment {assignment_id}");
    let mut tx = db.writer.begin().await.with_context(what)?;
    let outcome = finish_hit_on(&mut tx, db, secret, assignment_id).await?;
    tx.commit().await.with_context(what)?;
    Ok(outcome)
}

/// Runs the gate inside an open write transaction: computes and stores the worker's pooled
/// verdict and gives or holds the HIT's completion code.
pub async fn finish_hit(conn: &mut AnyConnection, secret: &[u8], assignment_id: i64) -> AppResult<GateOutcome> {
    let hit = finished_hit(conn, assignment_id).await?;
    let r = compute(conn, assignment_id, hit).await?;
    let code = record(conn, secret, &r).await?;
    Ok(GateOutcome { reliability: r.reliability, hits: r.hits, code, compute_us: r.compute_us })
}

/// [`finish_hit`] with the worker locked first (PostgreSQL).
async fn finish_hit_on(conn: &mut AnyConnection, db: &Db, secret: &[u8], assignment_id: i64) -> AppResult<GateOutcome> {
    let hit = finished_hit(conn, assignment_id).await?;
    lock_worker(conn, db, hit.worker_id).await?;
    let r = compute(conn, assignment_id, hit).await?;
    let code = record(conn, secret, &r).await?;
    Ok(GateOutcome { reliability: r.reliability, hits: r.hits, code, compute_us: r.compute_us })
}

/// Whether a finished assignment's code is held with no verdict of the gate for it: its last
/// answer was committed but the gate's decision was never stored (the server stopped in
/// between, or the gate failed). [`decide`] then runs it.
pub async fn undecided(db: &Db, assignment_id: i64) -> AppResult<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM assignments a JOIN hits h ON h.id = a.hit_id \
         WHERE a.id = $1 AND a.status = $2 AND a.code_held = 1 AND a.completion_code IS NULL \
         AND NOT EXISTS (SELECT 1 FROM worker_verdicts v WHERE v.campaign_id = h.campaign_id AND v.worker_id = a.worker_id AND v.assignment_id = a.id)",
    )
    .bind(assignment_id)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_one(&db.pool)
    .await
    .with_context(|| format!("reading whether the gate decided on assignment {assignment_id}"))?;
    Ok(n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_gives_codes_as_its_setting_says() {
        let off = QualityGate::default();
        let give = QualityGate { mode: GateMode::RequirePass, unsure: GateUnsure::Give };
        let hold = QualityGate { mode: GateMode::RequirePass, unsure: GateUnsure::Hold };
        for v in [Verdict::Pass, Verdict::Fail, Verdict::NotEnoughEvidence] {
            assert!(gives_code(off, v), "{v:?}");
        }
        assert!(gives_code(give, Verdict::Pass) && gives_code(hold, Verdict::Pass));
        assert!(!gives_code(give, Verdict::Fail) && !gives_code(hold, Verdict::Fail));
        assert!(gives_code(give, Verdict::NotEnoughEvidence));
        assert!(!gives_code(hold, Verdict::NotEnoughEvidence));
        assert_eq!(QualityGate::parse(hold.mode_str(), hold.unsure_str()), Some(hold));
        assert_eq!(QualityGate::parse("on", "give"), None);
    }

    #[test]
    fn a_worker_without_pairs_has_not_enough_evidence() {
        let set = JudgmentSet::new(crate::analysis::TimeBasis::PerItem);
        let (r, hits) = reliability_of(&set, &QcSettings::default());
        assert_eq!((r.verdict, r.n_pairs, hits), (Verdict::NotEnoughEvidence, 0, 0));
    }
}
