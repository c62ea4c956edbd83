//! The calibrated gain of a longitudinal comparison (Graham et al., EACL 2014; METHOD §7).
//!
//! A fixed current system (CURR) translates the old and the new test set inside the same HITs
//! as the best systems of each year (BEST). The difference CURR_old − CURR_new measures how much
//! harder the new test set is, and is added back:
//!
//! gain = (BEST_new − BEST_old) + (CURR_old − CURR_new),
//!
//! per language pair (raw or z scores alike), and over language pairs as the unweighted mean.
//! The formula is linear, so the mean of the per-pair gains equals the gain of the per-pair means.

use serde::{Deserialize, Serialize};

use super::{Result, StatsError, check_finite};

/// The four scores of one language pair (or their means over pairs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalibratedScores {
    pub curr_old: f64,
    pub curr_new: f64,
    pub best_old: f64,
    pub best_new: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gain {
    /// Δ = CURR_old − CURR_new: how much harder the new test set is.
    pub delta: f64,
    /// BEST_new − BEST_old: the uncalibrated difference.
    pub best_difference: f64,
    /// best_difference + delta.
    pub gain: f64,
}

pub fn gain(s: &CalibratedScores) -> Gain {
    let delta = s.curr_old - s.curr_new;
    let best_difference = s.best_new - s.best_old;
    Gain {
        delta,
        best_difference,
        gain: best_difference + delta,
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainSummary {
    pub per_pair: Vec<Gain>,
    /// Unweighted means of the four scores over the pairs.
    pub means: CalibratedScores,
    /// The gain of the means (= the mean of the per-pair gains).
    pub mean: Gain,
}

/// Per-pair gains and their unweighted mean over language pairs.
pub fn mean_gain(pairs: &[CalibratedScores]) -> Result<GainSummary> {
    const WHAT: &str = "longitudinal gain";
    if pairs.is_empty() {
        return Err(StatsError::Empty { what: WHAT });
    }
    let flat: Vec<f64> = pairs
        .iter()
        .flat_map(|p| [p.curr_old, p.curr_new, p.best_old, p.best_new])
        .collect();
    check_finite(WHAT, &flat)?;
    let n = pairs.len() as f64;
    let avg = |f: fn(&CalibratedScores) -> f64| pairs.iter().map(f).sum::<f64>() / n;
    let means = CalibratedScores {
        curr_old: avg(|p| p.curr_old),
        curr_new: avg(|p| p.curr_new),
        best_old: avg(|p| p.best_old),
        best_new: avg(|p| p.best_new),
    };
    Ok(GainSummary {
        per_pair: pairs.iter().map(gain).collect(),
        mean: gain(&means),
        means,
    })
}

/// The judgments one system received on one segment: the sum of their scores and how many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SegmentSum {
    pub sum: f64,
    pub n: usize,
}

/// One language pair of a comparison study, segment by segment: on the old test set the
/// judgments of `[BEST_old, CURR_old]`, on the new test set those of `[BEST_new, CURR_new]`
/// (a segment a system was not judged on has `n = 0`). Both systems of a test set translate
/// the same segments, so a resample of segments serves both.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairSegments {
    pub old: Vec<[SegmentSum; 2]>,
    pub new: Vec<[SegmentSum; 2]>,
}

/// A percentile interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
}

impl Interval {
    pub fn contains(&self, x: f64) -> bool {
        self.lower <= x && x <= self.upper
    }
}

/// A gain with bootstrap intervals of its three parts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainWithInterval {
    /// The four means on all judgments.
    pub scores: CalibratedScores,
    /// Judgments behind each mean: `[best_old, curr_old, best_new, curr_new]`.
    pub n: [usize; 4],
    pub gain: Gain,
    pub gain_ci: Interval,
    /// Interval of the uncalibrated difference BEST_new − BEST_old.
    pub best_difference_ci: Interval,
    /// Interval of Δ = CURR_old − CURR_new.
    pub delta_ci: Interval,
}

/// Per-pair gains and the unweighted mean over pairs, each with its bootstrap interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainIntervals {
    pub per_pair: Vec<GainWithInterval>,
    pub mean: GainWithInterval,
    pub confidence: f64,
    pub samples: usize,
    pub seed: u64,
}

fn totals(rows: &[[SegmentSum; 2]], idx: &[usize]) -> [(f64, usize); 2] {
    let mut t = [(0.0, 0usize); 2];
    for &i in idx {
        for (k, c) in rows[i].iter().enumerate() {
            t[k].0 += c.sum;
            t[k].1 += c.n;
        }
    }
    t
}

/// The four means of one pair for one draw of segments (`None` if a system has no judgment).
fn pair_scores(p: &PairSegments, old_idx: &[usize], new_idx: &[usize]) -> Option<(CalibratedScores, [usize; 4])> {
    let [bo, co] = totals(&p.old, old_idx);
    let [bn, cn] = totals(&p.new, new_idx);
    if bo.1 == 0 || co.1 == 0 || bn.1 == 0 || cn.1 == 0 {
        return None;
    }
    let m = |t: (f64, usize)| t.0 / t.1 as f64;
    Some((
        CalibratedScores { curr_old: m(co), curr_new: m(cn), best_old: m(bo), best_new: m(bn) },
        [bo.1, co.1, bn.1, cn.1],
    ))
}

fn percentile(mut v: Vec<f64>, confidence: f64) -> Result<Interval> {
    v.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Ok(Interval {
        lower: super::describe::quantile_sorted(&v, tail)?,
        upper: super::describe::quantile_sorted(&v, 1.0 - tail)?,
    })
}

/// Calibrated gains with percentile bootstrap intervals (METHOD §5, §7): every replicate
/// resamples, independently for each pair and each test set, that test set's segments with
/// replacement; both systems judged on a test set keep the same draw; the four means (over
/// judgments), the per-pair gains and their unweighted mean over pairs are recomputed. A
/// replicate in which some system of some pair drew no judgment is drawn again (at most
/// `samples` times over). Deterministic from `seed`.
pub fn bootstrap_gains(pairs: &[PairSegments], confidence: f64, samples: usize, seed: u64) -> Result<GainIntervals> {
    const WHAT: &str = "calibrated gain";
    if pairs.is_empty() {
        return Err(StatsError::Empty { what: WHAT });
    }
    if samples == 0 || !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: format!("needs samples ≥ 1 and 0 < confidence < 1 (got {samples}, {confidence})"),
        });
    }
    let mut point = Vec::with_capacity(pairs.len());
    for (k, p) in pairs.iter().enumerate() {
        let flat: Vec<f64> = p.old.iter().chain(&p.new).flat_map(|r| [r[0].sum, r[1].sum]).collect();
        check_finite(WHAT, &flat)?;
        let all_old: Vec<usize> = (0..p.old.len()).collect();
        let all_new: Vec<usize> = (0..p.new.len()).collect();
        let s = pair_scores(p, &all_old, &all_new).ok_or_else(|| StatsError::Invalid {
            what: WHAT,
            message: format!("language pair {} lacks judgments of one of BEST_old, CURR_old, BEST_new, CURR_new", k + 1),
        })?;
        point.push(s);
    }
    let n_pairs = pairs.len() as f64;
    let mean_scores = |ss: &[CalibratedScores]| CalibratedScores {
        curr_old: ss.iter().map(|s| s.curr_old).sum::<f64>() / n_pairs,
        curr_new: ss.iter().map(|s| s.curr_new).sum::<f64>() / n_pairs,
        best_old: ss.iter().map(|s| s.best_old).sum::<f64>() / n_pairs,
        best_new: ss.iter().map(|s| s.best_new).sum::<f64>() / n_pairs,
    };
    let mut rng = super::resample::SplitMix64::new(seed);
    // Per pair (and the mean, last): the gain, the difference and Δ of each replicate.
    let mut reps: Vec<[Vec<f64>; 3]> = (0..=pairs.len()).map(|_| std::array::from_fn(|_| Vec::with_capacity(samples))).collect();
    let mut old_idx = Vec::new();
    let mut new_idx = Vec::new();
    let mut redraws = 0usize;
    let mut drawn = 0usize;
    while drawn < samples {
        let mut scores = Vec::with_capacity(pairs.len());
        for p in pairs {
            old_idx.clear();
            new_idx.clear();
            old_idx.extend((0..p.old.len()).map(|_| rng.below(p.old.len() as u64) as usize));
            new_idx.extend((0..p.new.len()).map(|_| rng.below(p.new.len() as u64) as usize));
            match pair_scores(p, &old_idx, &new_idx) {
                Some((s, _)) => scores.push(s),
                None => break,
            }
        }
        if scores.len() < pairs.len() {
            redraws += 1;
            if redraws > samples {
                return Err(StatsError::Invalid {
                    what: WHAT,
                    message: "too few segments with judgments: most resamples leave a system without any".into(),
                });
            }
            continue;
        }
        for (k, s) in scores.iter().chain(std::iter::once(&mean_scores(&scores))).enumerate() {
            let g = gain(s);
            reps[k][0].push(g.gain);
            reps[k][1].push(g.best_difference);
            reps[k][2].push(g.delta);
        }
        drawn += 1;
    }
    let mut out = Vec::with_capacity(pairs.len() + 1);
    let mean_point = mean_scores(&point.iter().map(|p| p.0).collect::<Vec<_>>());
    let mut n_total = [0usize; 4];
    for p in &point {
        for (t, n) in n_total.iter_mut().zip(p.1) {
            *t += n;
        }
    }
    for (k, [g, d, delta]) in reps.into_iter().enumerate() {
        let (scores, n) = if k < pairs.len() { point[k] } else { (mean_point, n_total) };
        out.push(GainWithInterval {
            scores,
            n,
            gain: gain(&scores),
            gain_ci: percentile(g, confidence)?,
            best_difference_ci: percentile(d, confidence)?,
            delta_ci: percentile(delta, confidence)?,
        });
    }
    let mean = out.pop().unwrap_or_else(|| unreachable!("the mean is always computed"));
    Ok(GainIntervals { per_pair: out, mean, confidence, samples, seed })
}

#[cfg(test)]
#[path = "longitudinal_tests.rs"]
mod tests;
