//! Randomized significance tests between systems on any metric (Graham & Liu 2014; Graham et
//! al. WMT 2014; METHOD §6), for every pair of systems: paired bootstrap, bootstrap with
//! shift-to-zero and approximate randomization from `assay_stats::resample`, one- or
//! two-sided, p = c / B; and their agreement with a human significance matrix.
//!
//! A system's data are per-segment rows of sufficient statistics: one number for a metric
//! averaged over segments (sentence scores, human scores), the ten integers of
//! [`BleuStats`] for BLEU, so that every resample recomputes *corpus* BLEU from the resampled
//! statistics (as Graham & Liu and sacrebleu's paired bootstrap do), not a mean of sentence
//! BLEU. A pair of systems is compared on the segments both have.

use serde::{Deserialize, Serialize};

use assay_stats::resample::{
    RandomizedTest, approximate_randomization, bootstrap_test, mean_metric, paired_bootstrap,
};
use assay_stats::{Alternative, StatsError, clopper_pearson};

use super::bleu::{BLEU_STATS_DIM, BleuConfig, BleuStats, bleu_from_sums};
use super::chrf::{ChrfConfig, ChrfStats, f_score};

/// How systems are compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemTestSettings {
    pub test: RandomizedTest,
    /// `Greater` (one-sided, H1: the row system is better) or `TwoSided`. The paired bootstrap
    /// is one-sided by construction.
    pub alternative: Alternative,
    pub samples: usize,
    pub seed: u64,
    pub alpha: f64,
}

impl Default for SystemTestSettings {
    fn default() -> Self {
        SystemTestSettings {
            test: RandomizedTest::ApproximateRandomization,
            alternative: Alternative::Greater,
            samples: 1000,
            seed: 1,
            alpha: 0.05,
        }
    }
}

/// One system's per-segment rows (`dim` numbers each) and which segments it has.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemRows {
    pub name: String,
    pub dim: usize,
    pub rows: Vec<f64>,
    pub present: Vec<bool>,
}

impl SystemRows {
    /// A per-segment score averaged over segments; `None` where the system has no score.
    pub fn from_scores(name: &str, scores: &[Option<f64>]) -> SystemRows {
        SystemRows {
            name: name.to_string(),
            dim: 1,
            rows: scores.iter().map(|s| s.unwrap_or(0.0)).collect(),
            present: scores.iter().map(Option::is_some).collect(),
        }
    }

    /// BLEU's sufficient statistics per segment.
    pub fn from_bleu(name: &str, stats: &[BleuStats]) -> SystemRows {
        SystemRows {
            name: name.to_string(),
            dim: BLEU_STATS_DIM,
            rows: stats.iter().flat_map(|s| s.row()).collect(),
            present: vec![true; stats.len()],
        }
    }
}

/// The p-values of every ordered pair: `p[i][j]` tests "system i is better than system j"
/// (one-sided) or "i and j differ" (two-sided, symmetric); `observed[i][j]` = S_i − S_j on the
/// segments both have. `None` on the diagonal and where two systems share no segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SignificanceMatrix {
    pub systems: Vec<String>,
    pub test: RandomizedTest,
    pub alternative: Alternative,
    pub samples: usize,
    pub seed: u64,
    pub p: Vec<Vec<Option<f64>>>,
    pub observed: Vec<Vec<Option<f64>>>,
}

/// The seed of the pair (i, j): the same pair always gets the same resamples.
pub(crate) fn pair_seed(seed: u64, i: usize, j: usize) -> u64 {
    seed ^ ((i as u64) << 32 | j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Tests every ordered pair of systems with `metric` (see `assay_stats::resample`).
pub fn significance_matrix(
    systems: &[SystemRows],
    metric: &dyn Fn(&[f64], usize) -> f64,
    settings: &SystemTestSettings,
) -> Result<SignificanceMatrix, StatsError> {
    const WHAT: &str = "significance matrix";
    if let Some(s) = systems.iter().find(|s| s.dim != systems[0].dim || s.present.len() != systems[0].present.len() || s.rows.len() != s.dim * s.present.len()) {
        return Err(StatsError::Invalid { what: WHAT, message: format!("system {} does not have the others' segments", s.name) });
    }
    let alternative = match settings.test {
        RandomizedTest::PairedBootstrap => Alternative::Greater,
        _ => settings.alternative,
    };
    if alternative == Alternative::Less {
        return Err(StatsError::Invalid { what: WHAT, message: "use Greater (row better than column) or TwoSided".into() });
    }
    let k = systems.len();
    let mut p = vec![vec![None; k]; k];
    let mut observed = vec![vec![None; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i == j {
                continue;
            }
            let (a, b) = (&systems[i], &systems[j]);
            let d = a.dim;
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for s in 0..a.present.len() {
                if a.present[s] && b.present[s] {
                    x.extend_from_slice(&a.rows[s * d..(s + 1) * d]);
                    y.extend_from_slice(&b.rows[s * d..(s + 1) * d]);
                }
            }
            if x.is_empty() {
                continue;
            }
            let seed = pair_seed(settings.seed, i, j);
            let r = match settings.test {
                RandomizedTest::PairedBootstrap => paired_bootstrap(&x, &y, d, metric, settings.samples, seed)?,
                RandomizedTest::Bootstrap => bootstrap_test(&x, &y, d, metric, alternative, settings.samples, seed)?,
                RandomizedTest::ApproximateRandomization => {
                    approximate_randomization(&x, &y, d, metric, alternative, settings.samples, seed)?
                }
            };
            p[i][j] = Some(r.p_value);
            observed[i][j] = Some(r.observed);
        }
    }
    Ok(SignificanceMatrix {
        systems: systems.iter().map(|s| s.name.clone()).collect(),
        test: settings.test,
        alternative,
        samples: settings.samples,
        seed: settings.seed,
        p,
        observed,
    })
}

/// Every pair of systems on a per-segment score averaged over segments.
pub fn mean_significance(systems: &[SystemRows], settings: &SystemTestSettings) -> Result<SignificanceMatrix, StatsError> {
    significance_matrix(systems, &mean_metric, settings)
}

/// Every pair of systems on corpus BLEU, resampling BLEU's sufficient statistics.
pub fn bleu_significance(
    systems: &[(String, Vec<BleuStats>)],
    config: &BleuConfig,
    settings: &SystemTestSettings,
) -> Result<SignificanceMatrix, StatsError> {
    let rows: Vec<SystemRows> = systems.iter().map(|(n, s)| SystemRows::from_bleu(n, s)).collect();
    let c = config.clone();
    significance_matrix(&rows, &move |sums: &[f64], _n: usize| bleu_from_sums(sums, &c), settings)
}

/// Every pair of systems on corpus chrF / chrF++, resampling its per-order statistics.
pub fn chrf_significance(
    systems: &[(String, Vec<ChrfStats>)],
    config: &ChrfConfig,
    settings: &SystemTestSettings,
) -> Result<SignificanceMatrix, StatsError> {
    let rows: Vec<SystemRows> = systems
        .iter()
        .map(|(n, s)| SystemRows {
            name: n.clone(),
            dim: s.first().map_or(1, |x| x.0.len()),
            rows: s.iter().flat_map(|x| x.0.iter().map(|&v| v as f64)).collect(),
            present: vec![true; s.len()],
        })
        .collect();
    let c = config.clone();
    significance_matrix(&rows, &move |sums: &[f64], _n: usize| f_score(sums, &c), settings)
}

/// A test's conclusion on a pair of systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    FirstBetter,
    SecondBetter,
    NotSignificant,
}

impl SignificanceMatrix {
    /// The verdict on systems i and j at level `alpha`: one-sided, i is better when p[i][j] <
    /// α (else j when p[j][i] < α); two-sided, the direction of the observed difference when
    /// p < α. `None` when the pair was not tested.
    pub fn verdict(&self, i: usize, j: usize, alpha: f64) -> Option<Verdict> {
        let (pij, pji) = (self.p[i][j]?, self.p[j][i]?);
        Some(match self.alternative {
            Alternative::TwoSided => {
                if pij < alpha {
                    if self.observed[i][j]? > 0.0 { Verdict::FirstBetter } else { Verdict::SecondBetter }
                } else {
                    Verdict::NotSignificant
                }
            }
            _ => {
                if pij < alpha {
                    Verdict::FirstBetter
                } else if pji < alpha {
                    Verdict::SecondBetter
                } else {
                    Verdict::NotSignificant
                }
            }
        })
    }
}

/// How often a metric's significance conclusions agree with the humans'.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SignificanceAgreement {
    /// Pairs where both say "significant, same direction" or both "not significant".
    pub agree: usize,
    pub pairs: usize,
    pub share: f64,
    /// Pairs the humans separate and the metric separates in the other direction.
    pub opposite: usize,
    /// Exact (Clopper–Pearson) 95 % interval of `share`, as Graham et al. (WMT 2014) report
    /// their tests' accuracies.
    pub interval: (f64, f64),
}

/// Agreement of `metric`'s matrix with `human`'s over the systems both have (by name).
pub fn significance_agreement(
    human: &SignificanceMatrix,
    metric: &SignificanceMatrix,
    alpha: f64,
) -> Result<SignificanceAgreement, StatsError> {
    let idx = |m: &SignificanceMatrix, name: &str| m.systems.iter().position(|s| s == name);
    let (mut agree, mut pairs, mut opposite) = (0, 0, 0);
    for (a, name_a) in human.systems.iter().enumerate() {
        for (b, name_b) in human.systems.iter().enumerate().skip(a + 1) {
            let (Some(ma), Some(mb)) = (idx(metric, name_a), idx(metric, name_b)) else { continue };
            let (Some(h), Some(m)) = (human.verdict(a, b, alpha), metric.verdict(ma, mb, alpha)) else { continue };
            pairs += 1;
            if h == m {
                agree += 1;
            } else if h != Verdict::NotSignificant && m != Verdict::NotSignificant {
                opposite += 1;
            }
        }
    }
    if pairs == 0 {
        return Err(StatsError::Empty { what: "significance agreement" });
    }
    let interval = clopper_pearson(agree as u64, pairs as u64, 0.95)?;
    Ok(SignificanceAgreement { agree, pairs, share: agree as f64 / pairs as f64, opposite, interval })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::{bleu_from_stats, segment_statistics};

    fn seg(v: &[f64]) -> Vec<Option<f64>> {
        v.iter().map(|x| Some(*x)).collect()
    }

    #[test]
    fn matrix_separates_and_agreement_counts() {
        let base: Vec<f64> = (0..200).map(|i| 50.0 + ((i * 37) % 23) as f64).collect();
        let better: Vec<f64> = base.iter().map(|v| v + 6.0).collect();
        let close: Vec<f64> = base.iter().enumerate().map(|(i, v)| v + if i % 2 == 0 { 0.5 } else { -0.5 }).collect();
        let rows = vec![SystemRows::from_scores("best", &seg(&better)), SystemRows::from_scores("a", &seg(&base)), SystemRows::from_scores("b", &seg(&close))];
        for test in [RandomizedTest::PairedBootstrap, RandomizedTest::Bootstrap, RandomizedTest::ApproximateRandomization] {
            for alternative in [Alternative::Greater, Alternative::TwoSided] {
                let s = SystemTestSettings { test, alternative, samples: 500, seed: 3, alpha: 0.05 };
                let m = mean_significance(&rows, &s).unwrap();
                assert_eq!(m.verdict(0, 1, 0.05), Some(Verdict::FirstBetter), "{test:?} {alternative:?}");
                assert_eq!(m.verdict(2, 0, 0.05), Some(Verdict::SecondBetter), "{test:?} {alternative:?}");
                assert_eq!(m.verdict(1, 2, 0.05), Some(Verdict::NotSignificant), "{test:?} {alternative:?} {:?}", m.p);
                assert_eq!(significance_agreement(&m, &m, 0.05).unwrap().share, 1.0);
                assert_eq!(m, mean_significance(&rows, &s).unwrap(), "seeded");
            }
        }
        // A metric that cannot tell "best" from "a" disagrees on that pair only.
        let s = SystemTestSettings::default();
        let human = mean_significance(&rows, &s).unwrap();
        let flat = vec![SystemRows::from_scores("best", &seg(&base)), SystemRows::from_scores("a", &seg(&base)), SystemRows::from_scores("b", &seg(&close))];
        let metric = mean_significance(&flat, &s).unwrap();
        let a = significance_agreement(&human, &metric, 0.05).unwrap();
        assert_eq!((a.agree, a.pairs, a.opposite), (1, 3, 0), "{:?}", metric.p);
    }

    /// Graham et al. (WMT 2014) Tables 1–2 (seed 000 §6.2): 53 correct conclusions of 66 es-en
    /// pairs = 80.3 % [68.7, 89.1]; 34 of 55 en-es pairs = 61.8 % [47.7, 74.6]. Two matrices
    /// over 12 systems that disagree on exactly 13 pairs give the first figure.
    #[test]
    fn agreement_interval_matches_wmt14_tables() {
        let names: Vec<String> = (0..12).map(|i| format!("s{i}")).collect();
        let matrix = |flip: usize| {
            let mut p = vec![vec![None; 12]; 12];
            let pairs = (0..12usize).flat_map(|i| (i + 1..12).map(move |j| (i, j)));
            for (k, (i, j)) in pairs.enumerate() {
                // Humans: i better than j everywhere; the metric: not significant on `flip` pairs.
                let sig = k >= flip;
                p[i][j] = Some(if sig { 0.001 } else { 0.5 });
                p[j][i] = Some(if sig { 0.999 } else { 0.5 });
            }
            SignificanceMatrix { systems: names.clone(), test: RandomizedTest::ApproximateRandomization, alternative: Alternative::Greater, samples: 1000, seed: 1, p, observed: vec![vec![Some(1.0); 12]; 12] }
        };
        let a = significance_agreement(&matrix(0), &matrix(13), 0.05).unwrap();
        assert_eq!((a.agree, a.pairs, a.opposite), (53, 66, 0));
        assert_eq!(((a.share * 1000.0).round(), (a.interval.0 * 1000.0).round(), (a.interval.1 * 1000.0).round()), (803.0, 687.0, 891.0));
        let (lo, hi) = clopper_pearson(34, 55, 0.95).unwrap();
        assert_eq!(((lo * 1000.0).round(), (hi * 1000.0).round()), (477.0, 746.0));
    }

    #[test]
    fn bleu_resamples_corpus_statistics() {
        let refs = vec![(0..60).map(|i| format!("the quick brown fox number {i} jumps over the lazy dog")).collect::<Vec<_>>()];
        let good: Vec<String> = (0..60).map(|i| format!("the quick brown fox number {i} jumps over the lazy dog")).collect();
        let bad: Vec<String> = (0..60).map(|i| if i % 3 == 0 { format!("a quick fox {i} jumped over a dog") } else { format!("the quick brown fox number {i} jumps over lazy dog") }).collect();
        let c = BleuConfig::default();
        let sg = segment_statistics(&good, &refs, &c).unwrap();
        let sb = segment_statistics(&bad, &refs, &c).unwrap();
        let s = SystemTestSettings { samples: 200, ..SystemTestSettings::default() };
        let m = bleu_significance(&[("good".into(), sg.clone()), ("bad".into(), sb.clone())], &c, &s).unwrap();
        // The observed difference is the corpus BLEU difference, not a mean of sentence BLEU.
        let corpus = bleu_from_stats(&BleuStats::sum(&sg), &c).score - bleu_from_stats(&BleuStats::sum(&sb), &c).score;
        assert!((m.observed[0][1].unwrap() - corpus).abs() < 1e-9);
        assert_eq!(m.verdict(0, 1, 0.05), Some(Verdict::FirstBetter));
    }
}
