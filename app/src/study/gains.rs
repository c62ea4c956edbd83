//! From the analysis pipeline's outcome on one arm of a study to the calibrated gains: pure
//! functions (numbers in, numbers out), shared by the study page, the export and the tests.

use super::GainRow;
use crate::analysis::AnalysisResult;
use crate::error::{AppError, AppResult};
use crate::stats::{GainIntervals, GainWithInterval, PairSegments, SegmentSum, bootstrap_gains};

/// The candidate names of an arm's four "systems" (as the study loader names them:
/// `system @ test set`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmLabels {
    pub best_old: String,
    pub curr_old: String,
    pub best_new: String,
    pub curr_new: String,
    /// Segment-name prefixes (`test set:`) of the old and the new test set.
    pub old_prefix: String,
    pub new_prefix: String,
}

impl ArmLabels {
    pub fn new(best_old: &str, best_new: &str, benchmark: &str, old_set: &str, new_set: &str) -> Self {
        ArmLabels {
            best_old: format!("{best_old} @ {old_set}"),
            curr_old: format!("{benchmark} @ {old_set}"),
            best_new: format!("{best_new} @ {new_set}"),
            curr_new: format!("{benchmark} @ {new_set}"),
            old_prefix: format!("{old_set}:"),
            new_prefix: format!("{new_set}:"),
        }
    }
}

/// One arm's per-segment sums (raw and z) and the significance of the two differences.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmData {
    pub raw: PairSegments,
    pub z: PairSegments,
    /// One-sided Mann–Whitney on z: [BEST_new > BEST_old, BEST_old > BEST_new,
    /// CURR_old > CURR_new, CURR_new > CURR_old].
    pub p: [Option<f64>; 4],
    /// Per label (best_old, curr_old, best_new, curr_new): raw mean and its interval.
    pub raw_means: [(f64, Option<(f64, f64)>); 4],
}

/// Extracts an arm's data from the pipeline's result (retained judgments of workers who passed
/// quality control, z-scores per worker). An arm whose judgments cannot give its data (yet) is
/// [`AppError::Invalid`] (field `arm`), naming what is missing: the study page shows it.
pub fn arm_data(r: &AnalysisResult, labels: &ArmLabels) -> AppResult<ArmData> {
    let missing = |problem: String| AppError::invalid("arm", problem);
    let id = |name: &str| -> AppResult<u32> {
        r.names
            .systems
            .iter()
            .position(|s| s == name)
            .map(|i| i as u32)
            .ok_or_else(|| missing(format!("no judgment of {name} yet")))
    };
    let ids = [id(&labels.best_old)?, id(&labels.curr_old)?, id(&labels.best_new)?, id(&labels.curr_new)?];
    let g = r
        .groups
        .iter()
        .find(|g| g.systems.iter().any(|s| s.system == ids[0]))
        .ok_or_else(|| missing("no scores yet: no worker who passed quality control has judged this campaign".to_string()))?;
    let mut raw = PairSegments::default();
    let mut z = PairSegments::default();
    // segment id → row in old/new.
    let mut rows: std::collections::HashMap<u32, (bool, usize)> = std::collections::HashMap::new();
    for s in &g.segments {
        let Some(k) = ids.iter().position(|&i| i == s.system) else { continue };
        let name = &r.names.segments[s.segment as usize];
        let old = k < 2;
        let prefix = if old { &labels.old_prefix } else { &labels.new_prefix };
        if !name.starts_with(prefix.as_str()) {
            return Err(missing(format!("segment {name} is not in the test set of {}", r.names.systems[s.system as usize])));
        }
        let (_, row) = *rows.entry(s.segment).or_insert_with(|| {
            let (rs, zs) = if old { (&mut raw.old, &mut z.old) } else { (&mut raw.new, &mut z.new) };
            rs.push([SegmentSum::default(); 2]);
            zs.push([SegmentSum::default(); 2]);
            (old, rs.len() - 1)
        });
        let col = k % 2;
        let (rs, zs) = if old { (&mut raw.old, &mut z.old) } else { (&mut raw.new, &mut z.new) };
        rs[row][col] = SegmentSum { sum: s.raw * s.n as f64, n: s.n };
        zs[row][col] = SegmentSum { sum: s.z * s.n as f64, n: s.n };
    }
    let c = &g.comparison;
    let p = [c.p(ids[2], ids[0]), c.p(ids[0], ids[2]), c.p(ids[1], ids[3]), c.p(ids[3], ids[1])];
    let mean = |i: u32| {
        g.systems
            .iter()
            .find(|s| s.system == i)
            .map(|s| (s.raw, s.raw_ci.as_ref().map(|ci| (ci.lower, ci.upper))))
            .unwrap_or((f64::NAN, None))
    };
    Ok(ArmData { raw, z, p, raw_means: [mean(ids[0]), mean(ids[1]), mean(ids[2]), mean(ids[3])] })
}

fn row(pair: &str, g: &GainWithInterval, p: [Option<f64>; 4]) -> GainRow {
    GainRow {
        pair: pair.to_string(),
        curr_old: g.scores.curr_old,
        curr_new: g.scores.curr_new,
        delta: g.gain.delta,
        delta_ci: (g.delta_ci.lower, g.delta_ci.upper),
        best_old: g.scores.best_old,
        best_new: g.scores.best_new,
        difference: g.gain.best_difference,
        difference_ci: (g.best_difference_ci.lower, g.best_difference_ci.upper),
        gain: g.gain.gain,
        gain_ci: (g.gain_ci.lower, g.gain_ci.upper),
        n: g.n,
        p_best_new_better: p[0],
        p_best_old_better: p[1],
        p_curr_old_better: p[2],
        p_curr_new_better: p[3],
    }
}

/// Gain rows (per pair, then the unweighted mean over pairs as `mean`) from the bootstrap.
pub fn gain_rows(pairs: &[String], intervals: &GainIntervals, p: &[[Option<f64>; 4]]) -> Vec<GainRow> {
    let mut out: Vec<GainRow> =
        intervals.per_pair.iter().zip(pairs).zip(p).map(|((g, name), p)| row(name, g, *p)).collect();
    out.push(row("mean", &intervals.mean, [None; 4]));
    out
}

/// Raw and z gain rows for the arms of one task. Arms whose segments cannot be bootstrapped
/// (none, or none in common) are [`AppError::Invalid`] (field `arms`), with the statistics'
/// reason.
pub fn task_gains(
    pairs: &[String],
    arms: &[ArmData],
    confidence: f64,
    samples: usize,
    seed: u64,
) -> AppResult<(Vec<GainRow>, Vec<GainRow>, GainIntervals)> {
    let raw: Vec<PairSegments> = arms.iter().map(|a| a.raw.clone()).collect();
    let z: Vec<PairSegments> = arms.iter().map(|a| a.z.clone()).collect();
    let p: Vec<[Option<f64>; 4]> = arms.iter().map(|a| a.p).collect();
    let cannot = |e: crate::stats::StatsError| AppError::invalid("arms", e.to_string());
    let gr = bootstrap_gains(&raw, confidence, samples, seed).map_err(cannot)?;
    let gz = bootstrap_gains(&z, confidence, samples, seed).map_err(cannot)?;
    Ok((gain_rows(pairs, &gr, &p), gain_rows(pairs, &gz, &p), gr))
}

#[cfg(test)]
mod tests;
