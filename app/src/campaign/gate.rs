//! The quality gate at submission (METHOD §4, issue 6 item 2).
//!
//! When the last item of a HIT is answered, in the same transaction that stores that judgment:
//! the worker's reliability test is run on the worker's own judgments in the campaign (pooled
//! over all their HITs there, raw scores, the METHOD defaults: paired one-sided t-test,
//! α = 0.05, at least 5 pairs), the verdict is stored (`worker_verdicts`, so the review page
//! shows it at once), and the campaign's gate decides whether the HIT's completion code is
//! given or held (`assignments.code_held`). A held code is released when the organizer
//! approves the worker, or when a later HIT of the same worker makes the pooled verdict a pass.
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
use crate::db::now_ms;
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

/// Runs the gate for an assignment whose last item was just stored (inside that transaction):
/// computes and stores the worker's pooled verdict and gives or holds the HIT's completion code.
pub async fn finish_hit(conn: &mut AnyConnection, secret: &[u8], assignment_id: i64) -> AppResult<GateOutcome> {
    let started = std::time::Instant::now();
    let context = || format!("running the quality gate for assignment {assignment_id}");
    let row: FinishedHit = sqlx::query_as(
        "SELECT a.public_id, a.worker_id, h.campaign_id, c.task, c.settings, c.gate, c.gate_unsure \
         FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id WHERE a.id = $1",
    )
    .bind(assignment_id)
    .fetch_one(&mut *conn)
    .await
    .with_context(context)?;
    let FinishedHit { public_id, worker_id, campaign_id, task, settings, gate: mode, gate_unsure: unsure } = row;
    let task = TaskKind::of_campaign(campaign_id, &task)?;
    let settings = CampaignSettings::read(&settings, task, "", "");
    let gate = QualityGate::parse(&mode, &unsure).ok_or_else(|| AppError::internal(format!("campaign {campaign_id} has an unknown gate {mode:?}/{unsure:?}")))?;

    let (reliability, hits) = match assay_core::protocol::for_task(task).worker_test() {
        WorkerTest::ScorePairs => {
            let set = crate::analysis::db::load_worker(conn, campaign_id, worker_id).await?;
            reliability_of(&set, &qc_settings(&settings))
        }
        WorkerTest::CopyPreferences => crate::analysis::pairwise::worker_check(conn, campaign_id, worker_id).await?,
    };
    let given = gives_code(gate, reliability.verdict);
    let code = given.then(|| completion_code(secret, &public_id));
    let compute_us = started.elapsed().as_micros() as i64;

    let detail = serde_json::to_string(&reliability).map_err(|e| AppError::internal(format!("cannot encode a verdict: {e}")))?;
    sqlx::query(
        "INSERT INTO worker_verdicts (campaign_id, worker_id, assignment_id, verdict, n_pairs, hits, reliability, code_given, compute_us, computed_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(campaign_id)
    .bind(worker_id)
    .bind(assignment_id)
    .bind(verdict_str(reliability.verdict))
    .bind(reliability.n_pairs as i64)
    .bind(hits as i64)
    .bind(detail)
    .bind(i64::from(given))
    .bind(compute_us)
    .bind(now_ms())
    .execute(&mut *conn)
    .await
    .with_context(context)?;
    sqlx::query("UPDATE assignments SET completion_code = $1, code_held = $2 WHERE id = $3")
        .bind(code.clone())
        .bind(i64::from(!given))
        .bind(assignment_id)
        .execute(&mut *conn)
        .await
        .with_context(context)?;
    // A pooled pass also vouches for the worker's earlier HITs held by the gate.
    if reliability.verdict == Verdict::Pass {
        release_held(conn, secret, campaign_id, worker_id).await?;
    }
    Ok(GateOutcome { reliability, hits, code, compute_us })
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
