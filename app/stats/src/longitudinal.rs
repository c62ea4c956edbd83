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
mod tests {
    use super::*;

    fn round1(x: f64) -> f64 {
        (x * 10.0).round() / 10.0
    }

    /// One row of EACL Tables 4–5: CURR07, CURR12, Δ, BEST07, BEST12, (diff), gain.
    type Row = (f64, f64, f64, f64, f64, f64, f64);

    fn scores(r: &Row) -> CalibratedScores {
        CalibratedScores {
            curr_old: r.0,
            curr_new: r.1,
            best_old: r.3,
            best_new: r.4,
        }
    }

    // (pair, fluency score, adequacy score, BLEU, METEOR) as printed in
    // shared/reference/seed000-da-method.md §5.2.
    const TABLES_4_5: [(&str, Row, Row, Row, Row); 7] = [
        (
            "DE-EN",
            (65.3, 57.9, 7.4, 52.8, 55.0, 2.2, 9.6),
            (63.8, 52.8, 11.0, 46.5, 49.8, 3.3, 14.3),
            (38.3, 26.5, 11.8, 21.1, 23.8, 2.7, 14.5),
            (40.3, 32.7, 7.6, 33.4, 31.7, -1.7, 5.9),
        ),
        (
            "FR-EN",
            (65.9, 58.0, 7.9, 57.8, 60.2, 2.4, 10.3),
            (61.0, 52.3, 8.7, 52.7, 51.5, -1.2, 7.5),
            (39.4, 32.0, 7.4, 28.6, 31.5, 2.9, 10.3),
            (39.8, 34.6, 5.2, 35.9, 34.3, -1.6, 3.6),
        ),
        (
            "ES-EN",
            (68.4, 59.2, 9.2, 56.7, 56.7, 0.0, 9.2),
            (68.0, 56.9, 11.1, 59.0, 55.7, -3.3, 7.8),
            (51.2, 38.3, 12.9, 35.1, 33.5, -1.6, 11.3),
            (45.4, 37.0, 8.4, 39.9, 36.0, -3.9, 4.5),
        ),
        (
            "CS-EN",
            (62.3, 49.9, 12.4, 40.8, 50.5, 9.7, 22.1),
            (62.4, 47.5, 14.9, 41.7, 47.4, 5.7, 20.6),
            (52.3, 25.0, 27.3, 25.1, 22.4, -2.7, 24.6),
            (44.7, 31.6, 13.1, 34.3, 30.8, -3.5, 9.6),
        ),
        (
            "EN-ES",
            (77.2, 73.4, 3.8, 63.3, 71.9, 8.6, 12.4),
            (75.2, 68.1, 7.1, 62.5, 67.2, 4.7, 11.8),
            (48.2, 38.7, 9.5, 29.1, 35.3, 6.2, 15.7),
            (69.9, 59.6, 10.3, 57.0, 58.1, 1.1, 11.4),
        ),
        (
            "EN-FR",
            (57.1, 55.2, 1.9, 49.5, 56.4, 6.9, 8.8),
            (64.2, 61.9, 2.3, 57.2, 62.3, 5.1, 7.4),
            (37.2, 30.8, 6.4, 25.3, 29.9, 4.6, 11.0),
            (59.4, 52.9, 6.5, 50.4, 52.0, 1.6, 8.1),
        ),
        (
            "EN-DE",
            (52.3, 54.1, -1.8, 53.7, 55.5, 1.8, 0.0),
            (60.3, 57.4, 2.9, 58.3, 58.3, 0.0, 2.9),
            (23.6, 18.7, 4.9, 14.6, 17.2, 2.6, 7.5),
            (44.7, 39.1, 5.6, 36.7, 38.0, 1.3, 6.9),
        ),
    ];

    /// Every Δ, difference and gain cell of EACL Tables 4 and 5 follows from the four published
    /// scores of its row. The inputs have one decimal, so the results are exact up to
    /// floating-point representation (tolerance 1e-9).
    #[test]
    fn eacl_tables_4_and_5_every_gain_cell() {
        let mut checked = 0;
        for (pair, f, a, bleu, meteor) in TABLES_4_5 {
            for (what, row) in [
                ("fluency", f),
                ("adequacy", a),
                ("BLEU", bleu),
                ("METEOR", meteor),
            ] {
                let g = gain(&scores(&row));
                assert!(
                    (g.delta - row.2).abs() < 1e-9,
                    "{pair} {what} Δ {} vs {}",
                    g.delta,
                    row.2
                );
                assert!(
                    (g.best_difference - row.5).abs() < 1e-9,
                    "{pair} {what} diff {}",
                    g.best_difference
                );
                assert!(
                    (g.gain - row.6).abs() < 1e-9,
                    "{pair} {what} gain {} vs {}",
                    g.gain,
                    row.6
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 28);
    }

    /// EACL Table 3 and the headline "+10.4 fluency, +10.3 adequacy": unweighted means over the
    /// seven pairs. The means round to the printed 64.1 / 58.2 / 53.5 / 58.0 (fluency) and
    /// 65.0 / 56.7 / 54.0 / 56.0 (adequacy). The printed Δ and difference columns are
    /// differences of those *rounded* means, and the printed gain their sum: fluency
    /// 64.1 − 58.2 = 5.9 and 58.0 − 53.5 = 4.5 → 10.4, whereas the unrounded gain is
    /// 5.83 + 4.51 = 10.34; adequacy 65.0 − 56.7 = 8.3, 56.0 − 54.0 = 2.0 → 10.3 (unrounded 10.33).
    #[test]
    fn eacl_table_3_average_gains() {
        let fluency: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.1)).collect();
        let adequacy: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.2)).collect();
        let f = mean_gain(&fluency).unwrap();
        let a = mean_gain(&adequacy).unwrap();
        let m = f.means;
        assert_eq!(
            [
                round1(m.curr_old),
                round1(m.curr_new),
                round1(m.best_old),
                round1(m.best_new)
            ],
            [64.1, 58.2, 53.5, 58.0]
        );
        let m = a.means;
        assert_eq!(
            [
                round1(m.curr_old),
                round1(m.curr_new),
                round1(m.best_old),
                round1(m.best_new)
            ],
            [65.0, 56.7, 54.0, 56.0]
        );
        let printed = |s: &GainSummary| {
            let rounded = CalibratedScores {
                curr_old: round1(s.means.curr_old),
                curr_new: round1(s.means.curr_new),
                best_old: round1(s.means.best_old),
                best_new: round1(s.means.best_new),
            };
            let g = gain(&rounded);
            (round1(g.delta), round1(g.best_difference), round1(g.gain))
        };
        assert_eq!(printed(&f), (5.9, 4.5, 10.4));
        assert_eq!(printed(&a), (8.3, 2.0, 10.3));
        assert!((f.mean.gain - 10.342_857_142_857).abs() < 1e-9);
        assert_eq!(round1(a.mean.gain), 10.3);
        // The mean of the per-pair gains is the gain of the means.
        let per_pair_mean = f.per_pair.iter().map(|g| g.gain).sum::<f64>() / 7.0;
        assert!((per_pair_mean - f.mean.gain).abs() < 1e-9);
    }

    /// Table 3's z rows (only averages are published): F 0.18 − 0.00 = 0.18, −0.16 → 0.00
    /// (+0.16), gain 0.34; A 0.18 − (−0.07) = 0.25, −0.16 → −0.09 (+0.07), gain 0.32.
    /// BLEU and METEOR averages (Δ 11.4 / 8.1, gain 13.5 / 7.1) come from unrounded per-pair
    /// values; from the rounded per-pair table they agree within the rounding of 4 means
    /// (±0.05 each) plus the printed rounding: tolerance 0.25.
    #[test]
    fn eacl_table_3_z_rows_and_metrics() {
        let fz = gain(&CalibratedScores {
            curr_old: 0.18,
            curr_new: 0.00,
            best_old: -0.16,
            best_new: 0.00,
        });
        assert!(
            (fz.delta - 0.18).abs() < 1e-12
                && (fz.best_difference - 0.16).abs() < 1e-12
                && (fz.gain - 0.34).abs() < 1e-12
        );
        let az = gain(&CalibratedScores {
            curr_old: 0.18,
            curr_new: -0.07,
            best_old: -0.16,
            best_new: -0.09,
        });
        assert!(
            (az.delta - 0.25).abs() < 1e-12
                && (az.best_difference - 0.07).abs() < 1e-12
                && (az.gain - 0.32).abs() < 1e-12
        );
        let bleu: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.3)).collect();
        let meteor: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.4)).collect();
        let b = mean_gain(&bleu).unwrap();
        let m = mean_gain(&meteor).unwrap();
        assert!(
            (b.mean.delta - 11.4).abs() < 0.25 && (b.mean.gain - 13.5).abs() < 0.25,
            "{b:?}"
        );
        assert!(
            (m.mean.delta - 8.1).abs() < 0.25 && (m.mean.gain - 7.1).abs() < 0.25,
            "{m:?}"
        );
        assert!(mean_gain(&[]).is_err());
    }

    /// Deterministic pseudo-random judgments: per segment of a test set, `k` judgments of each
    /// of the two systems around `quality + difficulty` (difficulty shared by both systems).
    fn pair(old: (f64, f64), new: (f64, f64), segments: usize, seed: u64) -> PairSegments {
        let mut rng = crate::SplitMix64::new(seed);
        let mut unit = move || rng.next_u64() as f64 / u64::MAX as f64 - 0.5;
        let mut rows = |(best, curr): (f64, f64), shift: f64| -> Vec<[SegmentSum; 2]> {
            (0..segments)
                .map(|_| {
                    let difficulty = 20.0 * unit() + shift;
                    let mut cell = |q: f64| {
                        let n = 1 + (segments % 3);
                        let sum = (0..n).map(|_| q + difficulty + 30.0 * unit()).sum();
                        SegmentSum { sum, n }
                    };
                    [cell(best), cell(curr)]
                })
                .collect()
        };
        PairSegments { old: rows(old, 0.0), new: rows(new, -10.0) }
    }

    /// The same system as BEST and as CURR on both test sets: the gain is exactly 0 (BEST and
    /// CURR are the same numbers), and so is every replicate.
    #[test]
    fn identical_systems_gain_nothing() {
        let mut p = pair((60.0, 60.0), (60.0, 60.0), 40, 3);
        for r in p.old.iter_mut().chain(p.new.iter_mut()) {
            r[1] = r[0];
        }
        let g = bootstrap_gains(&[p], 0.95, 500, 1).unwrap();
        assert!(g.mean.gain.gain.abs() < 1e-9, "{:?}", g.mean.gain);
        assert!(g.mean.gain_ci.contains(0.0) && (g.mean.gain_ci.upper - g.mean.gain_ci.lower) < 1e-9);
        // The uncalibrated difference sees only the harder test set (−10 points) and the noise.
        assert!(g.mean.best_difference_ci.upper < 0.0, "{:?}", g.mean.best_difference_ci);
    }

    /// Systems of equal quality judged independently: gain ≈ 0 with an interval covering 0.
    #[test]
    fn equal_systems_interval_covers_zero() {
        let pairs: Vec<_> = (0..3).map(|k| pair((55.0, 70.0), (55.0, 70.0), 60, 10 + k)).collect();
        let g = bootstrap_gains(&pairs, 0.95, 1000, 2).unwrap();
        assert!(g.mean.gain_ci.contains(0.0), "{:?}", g.mean);
        for p in &g.per_pair {
            assert!(p.gain_ci.contains(0.0), "{p:?}");
            assert!(p.gain_ci.lower < p.gain.gain && p.gain.gain < p.gain_ci.upper);
        }
        // The mean's point gain is the mean of the per-pair gains (the formula is linear).
        let avg = g.per_pair.iter().map(|p| p.gain.gain).sum::<f64>() / 3.0;
        assert!((avg - g.mean.gain.gain).abs() < 1e-9);
    }

    /// Swapping the old and the new test set (and BEST_old with BEST_new) negates every gain.
    #[test]
    fn swapping_old_and_new_negates_the_gain() {
        let pairs: Vec<_> = (0..2).map(|k| pair((50.0, 65.0), (58.0, 65.0), 30, 20 + k)).collect();
        let swapped: Vec<_> = pairs.iter().map(|p| PairSegments { old: p.new.clone(), new: p.old.clone() }).collect();
        let a = bootstrap_gains(&pairs, 0.9, 400, 7).unwrap();
        let b = bootstrap_gains(&swapped, 0.9, 400, 7).unwrap();
        for (x, y) in a.per_pair.iter().chain([&a.mean]).zip(b.per_pair.iter().chain([&b.mean])) {
            assert!((x.gain.gain + y.gain.gain).abs() < 1e-9);
            assert!((x.gain.delta + y.gain.delta).abs() < 1e-9);
            assert!(x.gain.gain > 0.0);
        }
        assert!(bootstrap_gains(&[], 0.95, 10, 1).is_err());
        let mut empty = pairs[0].clone();
        for r in &mut empty.new {
            r[1] = SegmentSum::default();
        }
        let e = bootstrap_gains(&[empty], 0.95, 10, 1).unwrap_err().to_string();
        assert!(e.contains("lacks judgments"), "{e}");
    }
}
