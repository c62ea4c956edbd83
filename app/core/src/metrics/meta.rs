//! Meta-evaluation: how well metrics agree with human judgments, per language pair and level.
//! One entry point for the command line and the pages: [`meta_evaluate`].
//!
//! **Which systems and segments.** Per language pair, the systems are those with a human
//! system score (given, or the mean of their segment scores) that every metric scores; the
//! others are listed in the pair's notes. Segments are matched by id; a (system, segment)
//! cell takes part where both the humans and the metric have a value.
//!
//! **System level** (per metric): Pearson (two-sided p from t, n − 2 df), Spearman (the same
//! on average ranks, as SciPy) and Kendall τ-b (SciPy's exact or normal p); percentile bootstrap
//! intervals from resampling segments (each resample draws segment indices with replacement,
//! recomputes every system's human and metric *mean over the drawn segments*, then the
//! correlation; a resample where a correlation is undefined is dropped and counted); pairwise
//! accuracy (share of system pairs whose metric difference has the sign of the human one, a
//! zero difference having sign 0); soft pairwise accuracy (Thompson et al. 2024): the mean over
//! system pairs i < j of 1 − |p_h(i, j) − p_m(i, j)|, p the one-sided paired permutation
//! (approximate randomization) p-value of "i better than j" over the segments where both
//! systems have human and metric scores, with the same permutations for humans and metric.
//!
//! **Between metrics at system level**: the Williams test of every ordered pair on Pearson's r
//! (one-sided, on |r|), and PERM-BOTH (Deutsch et al. 2021): each metric's segment scores are
//! standardised (z over all its cells, multiplied by the sign of its correlation with the
//! humans so that error metrics compare with the rest), then in each of B resamples every cell
//! (system, segment) present for both metrics has the two metrics' values swapped with
//! probability ½, system scores are recomputed as means, and Δ = r(a) − r(b) against the human
//! system scores; p = share of resamples with |Δ| ≥ |Δ_observed|, the observed Δ being computed
//! the same way on the unswapped cells. Unless every metric of the pair has segment scores, the
//! system scores themselves are the cells (standardised, oriented, swapped per system).
//!
//! **Clusters** (both tests): metrics in decreasing order of |r|; the best opens the first
//! cluster; each next metric joins the current cluster while it is *not* significantly worse
//! than the cluster's top (p(top better) ≥ α); the first metric that is significantly worse
//! opens a new cluster and becomes its top (the rule of the WMT metrics rankings).
//!
//! **Segment level** (per metric): Kendall τ-b and τ-c over all cells with both scores (no
//! grouping; SciPy's definitions); the WMT "Kendall-like" τ on DArr pairs: pairs of outputs of
//! the same segment whose human scores differ by **at least** `darr_threshold` (25 points; WMT's
//! and mt-metrics-eval's `KendallLike`; [`DarrRule::Over`] keeps Assay's earlier "more than"),
//! (Concordant − Discordant)/(Concordant + Discordant), a metric tie counting as discordant;
//! acc_eq with tie calibration (Deutsch et al. 2023) over all pairs of systems within each
//! segment: a pair is correct when the humans tie and |Δm| ≤ ε, or the humans do not tie,
//! |Δm| > ε and the signs agree; ε is the threshold (0 or one of the |Δm|) that maximises
//! accuracy, the smallest such one. By default the accuracy is averaged per segment, each
//! segment with a pair weighing the same (mt-metrics-eval's `KendallWithTiesOpt(variant="acc23",
//! average_by="item")`, [`acc23`]); [`AccEqAveraging::Pooled`] keeps Assay's earlier reading, all
//! pairs pooled ([`acc_eq`]).
//!
//! **Between metrics at segment level**: PERM-BOTH on Kendall τ-b (no grouping) over the cells
//! the humans and both metrics have, each metric's segment scores standardised and oriented by
//! the sign of its τ-b, and clusters by decreasing |τ-b| with the same greedy rule.
//!
//! **Degenerate input**: a correlation that is undefined (a constant variable, fewer than two
//! systems) is reported as `null` with the reason in the pair's notes; the pure functions
//! return a [`StatsError`].

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use assay_stats::describe::quantile_sorted;
use assay_stats::rank::average_ranks;
use assay_stats::resample::{RandomizedTest, SplitMix64, approximate_randomization, mean_metric};
use assay_stats::{Alternative, StatsError, kendall_tau_b_test, pearson, pearson_test, williams_from_data};

use super::read::{HumanScores, MetricScores, PairScores};
use super::systems::{SignificanceAgreement, SignificanceMatrix, SystemRows, SystemTestSettings, mean_significance, pair_seed, significance_agreement};

type Result<T> = std::result::Result<T, StatsError>;

/// Settings of a meta-evaluation; every random draw is seeded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetaSettings {
    pub bootstrap_samples: usize,
    pub confidence: f64,
    /// Resamples of PERM-BOTH and of the permutation p-values behind SPA.
    pub permutation_samples: usize,
    pub alpha: f64,
    pub seed: u64,
    pub darr_threshold: f64,
    /// Randomized tests between systems on every metric and on the humans, and their agreement.
    pub system_tests: Option<SystemTestSettings>,
    /// Which human differences make a DArr pair (default: at least the threshold, as WMT).
    #[serde(default)]
    pub darr_rule: DarrRule,
    /// How acc_eq's accuracy is averaged (default: per segment, as mt-metrics-eval's acc23).
    #[serde(default)]
    pub acc_eq_averaging: AccEqAveraging,
}

/// Which pairs of outputs the DArr Kendall-like τ counts (defined beside the DArr pairs of the
/// exports, [`crate::analysis::export::darr_pairs`], which follow the same rule).
pub use crate::analysis::export::DarrRule;

/// How acc_eq averages its accuracy over segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccEqAveraging {
    /// The mean of the segments' accuracies (mt-metrics-eval's acc23 with `average_by="item"`;
    /// the default).
    #[default]
    PerSegment,
    /// All pairs pooled: Assay's reading before December 2026.
    Pooled,
}

impl AccEqAveraging {
    pub const ALL: [AccEqAveraging; 2] = [AccEqAveraging::PerSegment, AccEqAveraging::Pooled];

    pub fn name(self) -> &'static str {
        match self {
            AccEqAveraging::PerSegment => "per-segment",
            AccEqAveraging::Pooled => "pooled",
        }
    }

    pub fn parse(name: &str) -> Option<AccEqAveraging> {
        AccEqAveraging::ALL.into_iter().find(|r| r.name() == name)
    }

    /// acc_eq by this averaging.
    pub fn compute(self, human: &[Vec<Option<f64>>], metric: &[Vec<Option<f64>>]) -> Result<AccEq> {
        match self {
            AccEqAveraging::PerSegment => acc23(human, metric),
            AccEqAveraging::Pooled => acc_eq(human, metric),
        }
    }
}

impl Default for MetaSettings {
    fn default() -> Self {
        MetaSettings {
            bootstrap_samples: 1000,
            confidence: 0.95,
            permutation_samples: 1000,
            alpha: 0.05,
            seed: 1,
            darr_threshold: 25.0,
            system_tests: Some(SystemTestSettings::default()),
            darr_rule: DarrRule::default(),
            acc_eq_averaging: AccEqAveraging::default(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pure statistics

/// A correlation and its two-sided p-value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorrelationTest {
    pub value: f64,
    pub p_value: f64,
}

/// Which correlation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Correlation {
    Pearson,
    Spearman,
    KendallB,
}

fn ranks(x: &[f64]) -> Vec<f64> {
    let (mut order, mut r) = (Vec::new(), Vec::new());
    average_ranks(x, &mut order, &mut r);
    r
}

/// The correlation with SciPy's p-value (`pearsonr`, `spearmanr`, `kendalltau`).
pub fn correlation_test(kind: Correlation, x: &[f64], y: &[f64]) -> Result<CorrelationTest> {
    let (value, p_value) = match kind {
        Correlation::Pearson => pearson_test(x, y)?,
        Correlation::Spearman => {
            assay_stats::spearman(x, y)?;
            pearson_test(&ranks(x), &ranks(y))?
        }
        Correlation::KendallB => {
            let k = kendall_tau_b_test(x, y, Alternative::TwoSided)?;
            (k.tau, k.p_value)
        }
    };
    Ok(CorrelationTest { value, p_value })
}

/// The correlation alone (faster for resamples).
pub fn correlation(kind: Correlation, x: &[f64], y: &[f64]) -> Result<f64> {
    match kind {
        Correlation::Pearson => pearson(x, y),
        Correlation::Spearman => assay_stats::spearman(x, y),
        Correlation::KendallB => assay_stats::kendall_tau_b(x, y),
    }
}

/// Pairs tied within `x`: Σ t(t − 1)/2 over groups of equal values; and the number of groups.
fn tie_pairs(x: &[f64]) -> (f64, usize) {
    let mut s = x.to_vec();
    s.sort_unstable_by(f64::total_cmp);
    let (mut pairs, mut groups, mut i) = (0.0, 0, 0);
    while i < s.len() {
        let mut j = i;
        while j < s.len() && s[j] == s[i] {
            j += 1;
        }
        let t = (j - i) as f64;
        pairs += t * (t - 1.0) / 2.0;
        groups += 1;
        i = j;
    }
    (pairs, groups)
}

/// Kendall's τ-c (Stuart's), as SciPy's `kendalltau(x, y, variant="c")`: 2(C − D) /
/// (n² (m − 1)/m), m = the smaller number of distinct values; the p-value is SciPy's, the same
/// as τ-b's. C − D is recovered exactly from τ-b and the tie counts.
pub fn kendall_tau_c_test(x: &[f64], y: &[f64]) -> Result<CorrelationTest> {
    let k = kendall_tau_b_test(x, y, Alternative::TwoSided)?;
    let n = x.len() as f64;
    let total = n * (n - 1.0) / 2.0;
    let (xt, xg) = tie_pairs(x);
    let (yt, yg) = tie_pairs(y);
    let s = (k.tau * (total - xt).sqrt() * (total - yt).sqrt()).round();
    let m = xg.min(yg) as f64;
    Ok(CorrelationTest { value: 2.0 * s / (n * n * (m - 1.0) / m), p_value: k.p_value })
}

/// Pairwise accuracy of a metric against humans on the same systems.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairwiseAccuracy {
    pub accuracy: f64,
    pub agree: usize,
    pub pairs: usize,
}

fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Share of system pairs where sign(metric_i − metric_j) = sign(human_i − human_j).
pub fn pairwise_accuracy(human: &[f64], metric: &[f64]) -> Result<PairwiseAccuracy> {
    const WHAT: &str = "pairwise accuracy";
    if human.len() != metric.len() {
        return Err(StatsError::LengthMismatch { what: WHAT, left: human.len(), right: metric.len() });
    }
    if human.len() < 2 {
        return Err(StatsError::TooFew { what: WHAT, needed: 2, got: human.len() });
    }
    let (mut agree, mut pairs) = (0, 0);
    for i in 0..human.len() {
        for j in i + 1..human.len() {
            pairs += 1;
            if sign(human[i] - human[j]) == sign(metric[i] - metric[j]) {
                agree += 1;
            }
        }
    }
    Ok(PairwiseAccuracy { accuracy: agree as f64 / pairs as f64, agree, pairs })
}

/// One-sided paired permutation p-values p[i][j] (i < j) of "system i better than system j"
/// over segments, each system's scores aligned by segment; `mask[s]` says whether segment s
/// counts for the pair (i, j). Same seed per pair whatever the scores, so human and metric
/// p-values of a pair use the same permutations.
pub fn permutation_p_values(
    scores: &[Vec<f64>],
    mask: &dyn Fn(usize, usize, usize) -> bool,
    samples: usize,
    seed: u64,
) -> Result<Vec<Vec<Option<f64>>>> {
    let k = scores.len();
    let mut p = vec![vec![None; k]; k];
    for i in 0..k {
        for j in i + 1..k {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for (s, (a, b)) in scores[i].iter().zip(&scores[j]).enumerate() {
                if mask(i, j, s) {
                    x.push(*a);
                    y.push(*b);
                }
            }
            if x.is_empty() {
                continue;
            }
            let r = approximate_randomization(&x, &y, 1, &mean_metric, Alternative::Greater, samples, pair_seed(seed, i, j))?;
            p[i][j] = Some(r.p_value);
        }
    }
    Ok(p)
}

/// Soft pairwise accuracy from the two p-value matrices (pairs tested in both).
pub fn soft_pairwise_accuracy(p_human: &[Vec<Option<f64>>], p_metric: &[Vec<Option<f64>>]) -> Result<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for (i, row) in p_human.iter().enumerate() {
        for (j, ph) in row.iter().enumerate().skip(i + 1) {
            if let (Some(a), Some(b)) = (ph, p_metric.get(i).and_then(|r| r.get(j)).copied().flatten()) {
                sum += 1.0 - (a - b).abs();
                n += 1;
            }
        }
    }
    if n == 0 {
        return Err(StatsError::Empty { what: "soft pairwise accuracy" });
    }
    Ok(sum / n as f64)
}

/// The WMT "Kendall-like" τ on DArr pairs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DarrKendall {
    pub tau: f64,
    pub concordant: usize,
    pub discordant: usize,
}

/// `human[s][k]`, `metric[s][k]`: the scores of the outputs of segment s (system k), `None`
/// where missing. Pairs of outputs of the same segment whose human scores differ by at least
/// (`rule` [`DarrRule::AtLeast`]) or by more than ([`DarrRule::Over`]) `threshold`; a metric tie
/// is discordant.
pub fn darr_kendall(human: &[Vec<Option<f64>>], metric: &[Vec<Option<f64>>], threshold: f64, rule: DarrRule) -> Result<DarrKendall> {
    let (mut c, mut d) = (0, 0);
    for (h, m) in human.iter().zip(metric) {
        for a in 0..h.len() {
            for b in a + 1..h.len() {
                let (Some(ha), Some(hb), Some(ma), Some(mb)) = (h[a], h[b], m[a], m[b]) else { continue };
                if !rule.counts(ha - hb, threshold) {
                    continue;
                }
                if sign(ha - hb) == sign(ma - mb) {
                    c += 1;
                } else {
                    d += 1;
                }
            }
        }
    }
    if c + d == 0 {
        return Err(StatsError::Empty { what: "DArr Kendall (no pair differs by the threshold)" });
    }
    Ok(DarrKendall { tau: (c as f64 - d as f64) / (c + d) as f64, concordant: c, discordant: d })
}

/// acc_eq with tie calibration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccEq {
    pub accuracy: f64,
    /// The metric-tie threshold chosen: |Δm| ≤ ε is a tie.
    pub epsilon: f64,
    pub pairs: usize,
}

/// acc_eq over all pairs of outputs within each group (segment), pooled, with ε chosen to
/// maximise it (the smallest ε reaching the maximum).
pub fn acc_eq(human: &[Vec<Option<f64>>], metric: &[Vec<Option<f64>>]) -> Result<AccEq> {
    // (|Δm|, correct if a metric tie, correct if not)
    let mut pairs: Vec<(f64, bool, bool)> = Vec::new();
    for (h, m) in human.iter().zip(metric) {
        for a in 0..h.len() {
            for b in a + 1..h.len() {
                let (Some(ha), Some(hb), Some(ma), Some(mb)) = (h[a], h[b], m[a], m[b]) else { continue };
                let (dh, dm) = (ha - hb, ma - mb);
                pairs.push((dm.abs(), dh == 0.0, dh != 0.0 && sign(dh) == sign(dm)));
            }
        }
    }
    if pairs.is_empty() {
        return Err(StatsError::Empty { what: "acc_eq" });
    }
    pairs.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    // ε = 0 (exact metric ties are ties), then each larger distinct |Δm| in turn.
    let mut correct: i64 = pairs.iter().map(|p| if p.0 <= 0.0 { p.1 } else { p.2 } as i64).sum();
    let (mut best, mut epsilon) = (correct, 0.0);
    let mut i = pairs.partition_point(|p| p.0 <= 0.0);
    while i < pairs.len() {
        let eps = pairs[i].0;
        while i < pairs.len() && pairs[i].0 == eps {
            correct += pairs[i].1 as i64 - pairs[i].2 as i64;
            i += 1;
        }
        if correct > best {
            best = correct;
            epsilon = eps;
        }
    }
    Ok(AccEq { accuracy: best as f64 / pairs.len() as f64, epsilon, pairs: pairs.len() })
}

/// acc_eq averaged per segment: mt-metrics-eval's `KendallWithTiesOpt(variant="acc23",
/// average_by="item", sample_rate=1)`. Each segment (group) with at least one pair of outputs
/// having both scores contributes its own accuracy (concordant + tied in both) / pairs, and the
/// result is their mean; ε, one for all segments, is 0 or one of the |Δm| and maximises that
/// mean (the smallest such one). `pairs` counts every pair used.
pub fn acc23(human: &[Vec<Option<f64>>], metric: &[Vec<Option<f64>>]) -> Result<AccEq> {
    // Operation for operation as mt-metrics-eval's tau_optimization (so that equal accuracies at
    // two thresholds resolve the same way): pairs in segment order, (a, b) with a < b, sorted
    // stably by |Δm|; the running sum of the segments' accuracies updated pair by pair.
    // (|Δm|, segment, correct as scored, correct as a metric tie)
    let mut pairs: Vec<(f64, usize, bool, bool)> = Vec::new();
    let mut per_segment: Vec<(i64, i64)> = Vec::new(); // (correct, pairs)
    for (h, m) in human.iter().zip(metric) {
        let row = per_segment.len();
        let (mut c, mut n) = (0, 0);
        for a in 0..h.len() {
            for b in a + 1..h.len() {
                let (Some(ha), Some(hb), Some(ma), Some(mb)) = (h[a], h[b], m[a], m[b]) else { continue };
                let (dh, dm) = (ha - hb, ma - mb);
                // As scored: a tie in both, or concordant; as a tie: correct only if the humans tie.
                let scored = (dh == 0.0 && dm == 0.0) || (dh != 0.0 && dm != 0.0 && sign(dh) == sign(dm));
                pairs.push((dm.abs(), row, scored, dh == 0.0));
                c += scored as i64;
                n += 1;
            }
        }
        if n > 0 {
            per_segment.push((c, n));
        }
    }
    if pairs.is_empty() {
        return Err(StatsError::Empty { what: "acc_eq" });
    }
    let rows = per_segment.len() as f64;
    let acc = |(c, n): (i64, i64)| c as f64 / n as f64;
    let mut total: f64 = 0.0;
    for r in &per_segment {
        total += acc(*r);
    }
    let (mut thresholds, mut accs) = (vec![0.0f64], vec![total / rows]);
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    for &(diff, row, scored, tie) in &pairs {
        total -= acc(per_segment[row]);
        per_segment[row].0 += tie as i64 - scored as i64;
        total += acc(per_segment[row]);
        let overall = total / rows;
        if *thresholds.last().expect("starts with 0") == diff {
            *accs.last_mut().expect("as many as thresholds") = overall;
        } else {
            thresholds.push(diff);
            accs.push(overall);
        }
    }
    // The first maximum (NumPy's argmax).
    let mut best = 0;
    for (k, a) in accs.iter().enumerate() {
        if *a > accs[best] {
            best = k;
        }
    }
    Ok(AccEq { accuracy: accs[best], epsilon: thresholds[best], pairs: pairs.len() })
}

/// Percentile bootstrap of several statistics over resampled segments.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
    /// Resamples where the statistic was undefined and was dropped.
    pub dropped: usize,
}

/// Draws `samples` resamples of `n` segment indices (SplitMix64, seeded) and gives each to
/// `statistic`, which returns one value per statistic (NaN = undefined in that resample).
pub fn bootstrap_intervals<const K: usize>(
    n: usize,
    statistic: &mut dyn FnMut(&[usize]) -> [f64; K],
    confidence: f64,
    samples: usize,
    seed: u64,
) -> Result<[Option<Interval>; K]> {
    if n == 0 || samples == 0 || !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::Invalid { what: "bootstrap interval", message: "needs segments, samples and 0 < confidence < 1".into() });
    }
    let mut rng = SplitMix64::new(seed);
    let mut idx = vec![0usize; n];
    let mut vals: [Vec<f64>; K] = std::array::from_fn(|_| Vec::with_capacity(samples));
    for _ in 0..samples {
        for slot in idx.iter_mut() {
            *slot = rng.below(n as u64) as usize;
        }
        for (k, v) in statistic(&idx).into_iter().enumerate() {
            if v.is_finite() {
                vals[k].push(v);
            }
        }
    }
    let tail = (1.0 - confidence) / 2.0;
    let mut out = [None; K];
    for (k, mut v) in vals.into_iter().enumerate() {
        if v.is_empty() {
            continue;
        }
        v.sort_unstable_by(f64::total_cmp);
        out[k] = Some(Interval { lower: quantile_sorted(&v, tail)?, upper: quantile_sorted(&v, 1.0 - tail)?, dropped: samples - v.len() });
    }
    Ok(out)
}

/// PERM-BOTH between two metrics.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PermBoth {
    /// r(a) − r(b) on the unswapped (standardised) scores.
    pub delta: f64,
    pub p_value: f64,
    pub samples: usize,
}

/// PERM-BOTH on Pearson's r of system means. `a[k][s]`, `b[k][s]`: the two metrics'
/// (standardised, oriented) scores of system k on segment s, `None` where missing; `human[k]`
/// the human system scores.
pub fn perm_both(a: &[Vec<Option<f64>>], b: &[Vec<Option<f64>>], human: &[f64], samples: usize, seed: u64) -> Result<PermBoth> {
    const WHAT: &str = "PERM-BOTH";
    if a.len() != human.len() || b.len() != human.len() || samples == 0 {
        return Err(StatsError::Invalid { what: WHAT, message: "one row of cells per system, and samples ≥ 1".into() });
    }
    let means = |cells: &[Vec<Option<f64>>], other: &[Vec<Option<f64>>], swap: &dyn Fn(usize, usize) -> bool| -> Vec<f64> {
        cells
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let (mut s, mut n) = (0.0, 0usize);
                for (i, v) in row.iter().enumerate() {
                    let v = if swap(k, i) { other[k][i] } else { *v };
                    if let Some(v) = v {
                        s += v;
                        n += 1;
                    }
                }
                if n == 0 { f64::NAN } else { s / n as f64 }
            })
            .collect()
    };
    let none = |_: usize, _: usize| false;
    let delta = pearson(&means(a, b, &none), human)? - pearson(&means(b, a, &none), human)?;
    let mut rng = SplitMix64::new(seed);
    let mut c = 0;
    let mut flips: Vec<Vec<bool>> = a.iter().map(|r| vec![false; r.len()]).collect();
    for _ in 0..samples {
        for (k, row) in flips.iter_mut().enumerate() {
            for (i, f) in row.iter_mut().enumerate() {
                // Only cells both metrics have are swapped.
                *f = a[k][i].is_some() && b[k].get(i).copied().flatten().is_some() && rng.coin();
            }
        }
        let swap = |k: usize, i: usize| flips[k][i];
        let (ma, mb) = (means(a, b, &swap), means(b, a, &swap));
        let d = match (pearson(&ma, human), pearson(&mb, human)) {
            (Ok(x), Ok(y)) => x - y,
            _ => 0.0,
        };
        if d.abs() >= delta.abs() {
            c += 1;
        }
    }
    Ok(PermBoth { delta, p_value: c as f64 / samples as f64, samples })
}

/// PERM-BOTH on a segment-level correlation over items (no grouping): `a[i]`, `b[i]` the two
/// metrics' (standardised, oriented) scores of item i, `human[i]` its human score; each resample
/// swaps every item's two metric scores with probability ½; p = share of |Δ| ≥ |Δ_observed|.
pub fn perm_both_items(a: &[f64], b: &[f64], human: &[f64], kind: Correlation, samples: usize, seed: u64) -> Result<PermBoth> {
    if a.len() != human.len() || b.len() != human.len() || samples == 0 {
        return Err(StatsError::Invalid { what: "PERM-BOTH", message: "one score per item from each metric, and samples ≥ 1".into() });
    }
    let delta = correlation(kind, a, human)? - correlation(kind, b, human)?;
    let mut rng = SplitMix64::new(seed);
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    let mut c = 0;
    for _ in 0..samples {
        for i in 0..a.len() {
            if rng.coin() {
                x[i] = b[i];
                y[i] = a[i];
            } else {
                x[i] = a[i];
                y[i] = b[i];
            }
        }
        let d = match (correlation(kind, &x, human), correlation(kind, &y, human)) {
            (Ok(p), Ok(q)) => p - q,
            _ => 0.0,
        };
        if d.abs() >= delta.abs() {
            c += 1;
        }
    }
    Ok(PermBoth { delta, p_value: c as f64 / samples as f64, samples })
}

/// Greedy clusters (see the module documentation): `order` from best to worst, `p(top, m)` the
/// p-value of "top better than m".
pub fn greedy_clusters(order: &[usize], p: &dyn Fn(usize, usize) -> Option<f64>, alpha: f64) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &m in order {
        match out.last_mut() {
            Some(c) if p(c[0], m).is_none_or(|p| p >= alpha) => c.push(m),
            _ => out.push(vec![m]),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The report

/// A correlation with its p-value and bootstrap interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorrelationReport {
    pub value: Option<f64>,
    pub p_value: Option<f64>,
    pub interval: Option<Interval>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemMetricReport {
    pub metric: String,
    /// The metric's system scores, in the order of [`SystemLevel::systems`].
    pub scores: Vec<f64>,
    pub pearson: CorrelationReport,
    pub spearman: CorrelationReport,
    pub kendall: CorrelationReport,
    pub pairwise_accuracy: Option<PairwiseAccuracy>,
    pub soft_pairwise_accuracy: Option<f64>,
    /// The metric's randomized-test matrix over systems and its agreement with the humans'.
    pub significance: Option<SignificanceMatrix>,
    pub significance_agreement: Option<SignificanceAgreement>,
}

/// A matrix over metrics: `p[a][b]` tests "metric a correlates better than metric b".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricMatrix {
    pub metrics: Vec<String>,
    pub p: Vec<Vec<Option<f64>>>,
    /// Williams: t; PERM-BOTH: Δr.
    pub statistic: Vec<Vec<Option<f64>>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemLevel {
    pub systems: Vec<String>,
    pub human: Vec<f64>,
    pub metrics: Vec<SystemMetricReport>,
    pub williams: MetricMatrix,
    pub perm_both: MetricMatrix,
    /// Metric names, best cluster first.
    pub clusters_williams: Vec<Vec<String>>,
    pub clusters_perm_both: Vec<Vec<String>>,
    /// The humans' randomized-test matrix.
    pub human_significance: Option<SignificanceMatrix>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentMetricReport {
    pub metric: String,
    /// Cells (system, segment) with both scores.
    pub n: usize,
    pub kendall_b: CorrelationReport,
    pub kendall_c: CorrelationReport,
    pub pearson: CorrelationReport,
    pub darr_kendall: Option<DarrKendall>,
    pub acc_eq: Option<AccEq>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentLevel {
    pub segments: usize,
    pub metrics: Vec<SegmentMetricReport>,
    /// PERM-BOTH on Kendall τ-b over the cells the humans and both metrics have (no grouping);
    /// statistic Δτ.
    pub perm_both: MetricMatrix,
    /// Metric names by decreasing |τ-b|, clustered with PERM-BOTH.
    pub clusters_perm_both: Vec<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairReport {
    pub pair: String,
    pub system_level: Option<SystemLevel>,
    pub segment_level: Option<SegmentLevel>,
    /// What was left out and why (missing systems, undefined statistics).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetaReport {
    pub human: String,
    pub settings: MetaSettings,
    pub pairs: Vec<PairReport>,
}

fn corr_report(kind: Correlation, x: &[f64], y: &[f64], what: &str, notes: &mut Vec<String>) -> CorrelationReport {
    match correlation_test(kind, x, y) {
        Ok(c) => CorrelationReport { value: Some(c.value), p_value: Some(c.p_value), interval: None },
        Err(e) => {
            notes.push(format!("{what}: {e}"));
            CorrelationReport { value: None, p_value: None, interval: None }
        }
    }
}

/// Segment scores of `m` aligned to the human segment ids: `[system][segment]`.
fn aligned(human: &PairScores, m: &PairScores, systems: &[String]) -> Option<Vec<Vec<Option<f64>>>> {
    if m.segment.is_empty() || human.segment.is_empty() {
        return None;
    }
    let pos: BTreeMap<&str, usize> = m.segment_ids.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    Some(
        systems
            .iter()
            .map(|s| {
                let row = m.segment.get(s);
                human.segment_ids.iter().map(|id| row.and_then(|r| pos.get(id.as_str()).and_then(|&i| r[i]))).collect()
            })
            .collect(),
    )
}

fn standardised(cells: &[Vec<Option<f64>>], orientation: f64) -> Vec<Vec<Option<f64>>> {
    let vals: Vec<f64> = cells.iter().flatten().flatten().copied().collect();
    let n = vals.len().max(1) as f64;
    let mean = vals.iter().sum::<f64>() / n;
    let sd = (vals.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    let sd = if sd > 0.0 { sd } else { 1.0 };
    cells.iter().map(|r| r.iter().map(|v| v.map(|v| orientation * (v - mean) / sd)).collect()).collect()
}

/// The meta-evaluation of `metrics` against `human`, for every language pair of the humans'.
pub fn meta_evaluate(human: &HumanScores, metrics: &[MetricScores], settings: &MetaSettings) -> MetaReport {
    let pairs = human.pairs.iter().map(|(pair, h)| evaluate_pair(pair, h, metrics, settings)).collect();
    MetaReport { human: human.name.clone(), settings: settings.clone(), pairs }
}

fn evaluate_pair(pair: &str, h: &PairScores, metrics: &[MetricScores], settings: &MetaSettings) -> PairReport {
    let mut notes = Vec::new();
    let present: Vec<(&str, &PairScores)> = metrics.iter().filter_map(|m| m.pairs.get(pair).map(|p| (m.name.as_str(), p))).collect();
    for m in metrics.iter().filter(|m| !m.pairs.contains_key(pair)) {
        notes.push(format!("{}: no scores for {pair}", m.name));
    }
    let hsys = h.system_scores();
    let msys: Vec<BTreeMap<String, f64>> = present.iter().map(|(_, p)| p.system_scores()).collect();
    let mut systems: Vec<String> = Vec::new();
    for s in hsys.keys() {
        let missing: Vec<&str> = present.iter().zip(&msys).filter(|(_, m)| !m.contains_key(s)).map(|((n, _), _)| *n).collect();
        if missing.is_empty() {
            systems.push(s.clone());
        } else {
            notes.push(format!("system {s} left out: no score from {}", missing.join(", ")));
        }
    }
    let extra: BTreeSet<&String> = msys.iter().flat_map(|m| m.keys()).filter(|s| !hsys.contains_key(*s)).collect();
    if !extra.is_empty() {
        notes.push(format!("scored by metrics but not by the humans (left out): {}", extra.into_iter().cloned().collect::<Vec<_>>().join(", ")));
    }
    let human_scores: Vec<f64> = systems.iter().map(|s| hsys[s]).collect();
    let hseg: Option<Vec<Vec<Option<f64>>>> = (!h.segment.is_empty()).then(|| aligned(h, h, &systems)).flatten();
    let mseg: Vec<Option<Vec<Vec<Option<f64>>>>> = present.iter().map(|(_, p)| aligned(h, p, &systems)).collect();
    let names: Vec<String> = present.iter().map(|(n, _)| n.to_string()).collect();
    let system_level = (systems.len() >= 2 && !present.is_empty()).then(|| system_level(&systems, &human_scores, hseg.as_deref(), &names, &msys, &mseg, settings, &mut notes));
    if systems.len() < 2 {
        notes.push(format!("{} system(s) in common: no system-level statistics", systems.len()));
    }
    let segment_level = hseg.as_ref().map(|hs| segment_level(hs, &names, &mseg, settings, &mut notes));
    PairReport { pair: pair.to_string(), system_level, segment_level, notes }
}

#[allow(clippy::too_many_arguments)]
fn system_level(
    systems: &[String],
    human: &[f64],
    hseg: Option<&[Vec<Option<f64>>]>,
    names: &[String],
    msys: &[BTreeMap<String, f64>],
    mseg: &[Option<Vec<Vec<Option<f64>>>>],
    settings: &MetaSettings,
    notes: &mut Vec<String>,
) -> SystemLevel {
    let scores: Vec<Vec<f64>> = msys.iter().map(|m| systems.iter().map(|s| m[s]).collect()).collect();
    let human_sig = match (hseg, &settings.system_tests) {
        (Some(hs), Some(t)) => {
            let rows: Vec<SystemRows> = systems.iter().zip(hs).map(|(s, r)| SystemRows::from_scores(s, r)).collect();
            mean_significance(&rows, t).map_err(|e| notes.push(format!("human significance: {e}"))).ok()
        }
        _ => None,
    };
    let mut reports = Vec::new();
    type PValues = Vec<Vec<Option<f64>>>;
    let mut human_p: Vec<(Vec<bool>, PValues)> = Vec::new();
    for (mi, name) in names.iter().enumerate() {
        let x = &scores[mi];
        let mut pearson = corr_report(Correlation::Pearson, x, human, &format!("{name} Pearson"), notes);
        let mut spearman = corr_report(Correlation::Spearman, x, human, &format!("{name} Spearman"), notes);
        let mut kendall = corr_report(Correlation::KendallB, x, human, &format!("{name} Kendall"), notes);
        let mut spa = None;
        let mut significance = None;
        let mut agreement = None;
        if let (Some(hs), Some(ms)) = (hseg, &mseg[mi]) {
            let nseg = hs.first().map_or(0, Vec::len);
            let mut stat = |idx: &[usize]| -> [f64; 3] {
                let mean = |cells: &[Vec<Option<f64>>]| -> Option<Vec<f64>> {
                    cells
                        .iter()
                        .map(|row| {
                            let (mut s, mut n) = (0.0, 0);
                            for &i in idx {
                                if let Some(v) = row[i] {
                                    s += v;
                                    n += 1;
                                }
                            }
                            (n > 0).then(|| s / n as f64)
                        })
                        .collect()
                };
                match (mean(hs), mean(ms)) {
                    (Some(hm), Some(mm)) => [Correlation::Pearson, Correlation::Spearman, Correlation::KendallB].map(|k| correlation(k, &mm, &hm).unwrap_or(f64::NAN)),
                    _ => [f64::NAN; 3],
                }
            };
            if nseg > 0 {
                match bootstrap_intervals(nseg, &mut stat, settings.confidence, settings.bootstrap_samples, settings.seed) {
                    Ok([a, b, c]) => {
                        pearson.interval = a;
                        spearman.interval = b;
                        kendall.interval = c;
                    }
                    Err(e) => notes.push(format!("{name} bootstrap: {e}")),
                }
            }
            let mask = |i: usize, j: usize, s: usize| hs[i][s].is_some() && hs[j][s].is_some() && ms[i][s].is_some() && ms[j][s].is_some();
            let fill = |c: &[Vec<Option<f64>>]| -> Vec<Vec<f64>> { c.iter().map(|r| r.iter().map(|v| v.unwrap_or(0.0)).collect()).collect() };
            // The humans' p-values depend on the metric only through which cells it has: metrics
            // with the same cells share them.
            let presence: Vec<bool> = ms.iter().flatten().map(Option::is_some).collect();
            let ph = match human_p.iter().find(|(p, _)| *p == presence) {
                Some((_, v)) => Ok(v.clone()),
                None => permutation_p_values(&fill(hs), &mask, settings.permutation_samples, settings.seed).inspect(|v| human_p.push((presence, v.clone()))),
            };
            let pm = permutation_p_values(&fill(ms), &mask, settings.permutation_samples, settings.seed);
            match (ph, pm) {
                (Ok(ph), Ok(pm)) => spa = soft_pairwise_accuracy(&ph, &pm).map_err(|e| notes.push(format!("{name} SPA: {e}"))).ok(),
                (Err(e), _) | (_, Err(e)) => notes.push(format!("{name} SPA: {e}")),
            }
            if let (Some(t), Some(hm)) = (&settings.system_tests, &human_sig) {
                let rows: Vec<SystemRows> = systems.iter().zip(ms).map(|(s, r)| SystemRows::from_scores(s, r)).collect();
                match mean_significance(&rows, t) {
                    Ok(m) => {
                        agreement = significance_agreement(hm, &m, t.alpha).map_err(|e| notes.push(format!("{name} significance agreement: {e}"))).ok();
                        significance = Some(m);
                    }
                    Err(e) => notes.push(format!("{name} significance: {e}")),
                }
            }
        }
        reports.push(SystemMetricReport {
            metric: name.clone(),
            scores: x.clone(),
            pearson,
            spearman,
            kendall,
            pairwise_accuracy: pairwise_accuracy(human, x).ok(),
            soft_pairwise_accuracy: spa,
            significance,
            significance_agreement: agreement,
        });
    }
    // Between metrics.
    let k = names.len();
    let mut williams = MetricMatrix { metrics: names.to_vec(), p: vec![vec![None; k]; k], statistic: vec![vec![None; k]; k] };
    let mut perm = williams.clone();
    let orient: Vec<f64> = reports.iter().map(|r| if r.pearson.value.unwrap_or(0.0) < 0.0 { -1.0 } else { 1.0 }).collect();
    let seg_cells: Vec<Option<Vec<Vec<Option<f64>>>>> = (0..k).map(|m| mseg[m].as_ref().map(|c| standardised(c, orient[m]))).collect();
    let sys_cells: Vec<Vec<Vec<Option<f64>>>> =
        (0..k).map(|m| standardised(&scores[m].iter().map(|v| vec![Some(*v)]).collect::<Vec<_>>(), orient[m])).collect();
    let mut williams_notes = BTreeSet::new();
    for a in 0..k {
        for b in 0..k {
            if a == b {
                continue;
            }
            match williams_from_data(&scores[a], &scores[b], human) {
                Ok(w) => {
                    williams.p[a][b] = Some(w.p_value);
                    williams.statistic[a][b] = Some(w.t);
                }
                Err(e) => {
                    williams_notes.insert(format!("Williams {} vs {}: {e}", names[a.min(b)], names[a.max(b)]));
                }
            }
            if a < b {
                let (ca, cb) = match (&seg_cells[a], &seg_cells[b]) {
                    (Some(x), Some(y)) => (x, y),
                    _ => (&sys_cells[a], &sys_cells[b]),
                };
                match perm_both(ca, cb, human, settings.permutation_samples, pair_seed(settings.seed, a, b)) {
                    Ok(r) => {
                        perm.p[a][b] = Some(r.p_value);
                        perm.p[b][a] = Some(r.p_value);
                        perm.statistic[a][b] = Some(r.delta);
                        perm.statistic[b][a] = Some(-r.delta);
                    }
                    Err(e) => notes.push(format!("PERM-BOTH {} vs {}: {e}", names[a], names[b])),
                }
            }
        }
    }
    notes.extend(williams_notes);
    let mut order: Vec<usize> = (0..k).collect();
    let absr = |m: usize| reports[m].pearson.value.map_or(f64::NEG_INFINITY, f64::abs);
    order.sort_by(|&x, &y| absr(y).total_cmp(&absr(x)).then(names[x].cmp(&names[y])));
    let named = |cl: Vec<Vec<usize>>| cl.into_iter().map(|c| c.into_iter().map(|m| names[m].clone()).collect()).collect();
    let clusters_williams = named(greedy_clusters(&order, &|t, m| williams.p[t][m], settings.alpha));
    // PERM-BOTH's p is two-sided; in this order the top's Δ is ≥ 0, so p < α means "worse".
    let clusters_perm_both = named(greedy_clusters(&order, &|t, m| perm.p[t][m], settings.alpha));
    SystemLevel {
        systems: systems.to_vec(),
        human: human.to_vec(),
        metrics: reports,
        williams,
        perm_both: perm,
        clusters_williams,
        clusters_perm_both,
        human_significance: human_sig,
    }
}

fn segment_level(hs: &[Vec<Option<f64>>], names: &[String], mseg: &[Option<Vec<Vec<Option<f64>>>>], settings: &MetaSettings, notes: &mut Vec<String>) -> SegmentLevel {
    let nseg = hs.first().map_or(0, Vec::len);
    let by_segment = |c: &[Vec<Option<f64>>]| -> Vec<Vec<Option<f64>>> { (0..nseg).map(|s| c.iter().map(|r| r[s]).collect()).collect() };
    let hseg_t = by_segment(hs);
    let mut metrics = Vec::new();
    for (mi, name) in names.iter().enumerate() {
        let Some(ms) = &mseg[mi] else {
            notes.push(format!("{name}: no segment scores"));
            continue;
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (hr, mr) in hs.iter().zip(ms) {
            for (h, m) in hr.iter().zip(mr) {
                if let (Some(h), Some(m)) = (h, m) {
                    x.push(*m);
                    y.push(*h);
                }
            }
        }
        let kendall_c = match kendall_tau_c_test(&x, &y) {
            Ok(c) => CorrelationReport { value: Some(c.value), p_value: Some(c.p_value), interval: None },
            Err(e) => {
                notes.push(format!("{name} segment τ-c: {e}"));
                CorrelationReport { value: None, p_value: None, interval: None }
            }
        };
        let mt = by_segment(ms);
        metrics.push(SegmentMetricReport {
            metric: name.clone(),
            n: x.len(),
            kendall_b: corr_report(Correlation::KendallB, &x, &y, &format!("{name} segment τ-b"), notes),
            kendall_c,
            pearson: corr_report(Correlation::Pearson, &x, &y, &format!("{name} segment Pearson"), notes),
            darr_kendall: darr_kendall(&hseg_t, &mt, settings.darr_threshold, settings.darr_rule).map_err(|e| notes.push(format!("{name}: {e}"))).ok(),
            acc_eq: settings.acc_eq_averaging.compute(&hseg_t, &mt).map_err(|e| notes.push(format!("{name}: {e}"))).ok(),
        });
    }
    // Between metrics: PERM-BOTH on τ-b, each metric's cells standardised and oriented.
    let with: Vec<(usize, &Vec<Vec<Option<f64>>>)> = mseg.iter().enumerate().filter_map(|(i, m)| m.as_ref().map(|m| (i, m))).collect();
    let k = metrics.len();
    let mut perm = MetricMatrix { metrics: metrics.iter().map(|m| m.metric.clone()).collect(), p: vec![vec![None; k]; k], statistic: vec![vec![None; k]; k] };
    let cells: Vec<Vec<Vec<Option<f64>>>> = with
        .iter()
        .zip(&metrics)
        .map(|((_, c), r)| standardised(c, if r.kendall_b.value.unwrap_or(0.0) < 0.0 { -1.0 } else { 1.0 }))
        .collect();
    for a in 0..k {
        for b in a + 1..k {
            let (mut x, mut y, mut h) = (Vec::new(), Vec::new(), Vec::new());
            for (sys, hr) in hs.iter().enumerate() {
                for (seg, hv) in hr.iter().enumerate() {
                    if let (Some(hv), Some(xv), Some(yv)) = (hv, cells[a][sys][seg], cells[b][sys][seg]) {
                        x.push(xv);
                        y.push(yv);
                        h.push(*hv);
                    }
                }
            }
            match perm_both_items(&x, &y, &h, Correlation::KendallB, settings.permutation_samples, pair_seed(settings.seed ^ 0x5e6, a, b)) {
                Ok(r) => {
                    perm.p[a][b] = Some(r.p_value);
                    perm.p[b][a] = Some(r.p_value);
                    perm.statistic[a][b] = Some(r.delta);
                    perm.statistic[b][a] = Some(-r.delta);
                }
                Err(e) => notes.push(format!("segment-level PERM-BOTH {} vs {}: {e}", perm.metrics[a], perm.metrics[b])),
            }
        }
    }
    let mut order: Vec<usize> = (0..k).collect();
    let abst = |m: usize| metrics[m].kendall_b.value.map_or(f64::NEG_INFINITY, f64::abs);
    order.sort_by(|&x, &y| abst(y).total_cmp(&abst(x)).then(perm.metrics[x].cmp(&perm.metrics[y])));
    let clusters_perm_both =
        greedy_clusters(&order, &|t, m| perm.p[t][m], settings.alpha).into_iter().map(|c| c.into_iter().map(|m| perm.metrics[m].clone()).collect()).collect();
    SegmentLevel { segments: nseg, metrics, perm_both: perm, clusters_perm_both }
}

/// Which randomized test, by its command-line name.
pub fn parse_test(name: &str) -> Option<RandomizedTest> {
    match name {
        "paired-bootstrap" => Some(RandomizedTest::PairedBootstrap),
        "bootstrap" => Some(RandomizedTest::Bootstrap),
        "approximate-randomization" | "ar" => Some(RandomizedTest::ApproximateRandomization),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::read::{Scores, TableFormat, read_table};

    /// WMT 2012 Spanish→English, 12 systems: the human scores and the AMBER and BLEU system
    /// scores of the Williams test's example data (github.com/ygraham/significance-williams,
    /// `example-data/`, the file layout it uses: METRIC LP TESTSET SYSTEM SCORE).
    const HUMAN: &str = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE
HUMAN\tes-en\tnewstest2012\tonlineA\t61.9384
HUMAN\tes-en\tnewstest2012\tonlineB\t61.3861
HUMAN\tes-en\tnewstest2012\tQCRI--primary\t60.373
HUMAN\tes-en\tnewstest2012\tuedin-wmt12\t58.4963
HUMAN\tes-en\tnewstest2012\tUPC\t56.5355
HUMAN\tes-en\tnewstest2012\tGTH-UPM\t52.3248
HUMAN\tes-en\tnewstest2012\tonlineD\t51.1139
HUMAN\tes-en\tnewstest2012\tjhu-hiero\t47.8846
HUMAN\tes-en\tnewstest2012\tonlineC\t46.1035
HUMAN\tes-en\tnewstest2012\tonlineF\t42.2644
HUMAN\tes-en\tnewstest2012\tonlineE\t41.9155
HUMAN\tes-en\tnewstest2012\tuk-dan-moses\t18.7297
";
    const METRICS: &str = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE
AMBER\tes-en\tnewstest2012\tGTH-UPM\t0.2107
AMBER\tes-en\tnewstest2012\tjhu-hiero\t0.2104
AMBER\tes-en\tnewstest2012\tonlineA\t0.2178
AMBER\tes-en\tnewstest2012\tonlineB\t0.2224
AMBER\tes-en\tnewstest2012\tonlineC\t0.1915
AMBER\tes-en\tnewstest2012\tonlineD\t0.1922
AMBER\tes-en\tnewstest2012\tonlineE\t0.1890
AMBER\tes-en\tnewstest2012\tonlineF\t0.1822
AMBER\tes-en\tnewstest2012\tQCRI--primary\t0.2186
AMBER\tes-en\tnewstest2012\tuedin-wmt12\t0.2168
AMBER\tes-en\tnewstest2012\tuk-dan-moses\t0.1759
AMBER\tes-en\tnewstest2012\tUPC\t0.2167
AMBER\ten-fr\tnewstest2012\tIts-LATL\t0.2376
BLEU_4_closest_cased\tes-en\tnewstest2012\tGTH-UPM\t0.2888
BLEU_4_closest_cased\tes-en\tnewstest2012\tQCRI--primary\t0.3286
BLEU_4_closest_cased\tes-en\tnewstest2012\tUPC\t0.3202
BLEU_4_closest_cased\tes-en\tnewstest2012\tjhu-hiero\t0.2922
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineA\t0.3138
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineB\t0.3753
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineC\t0.2294
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineD\t0.2299
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineE\t0.2200
BLEU_4_closest_cased\tes-en\tnewstest2012\tonlineF\t0.2171
BLEU_4_closest_cased\tes-en\tnewstest2012\tuedin-wmt12\t0.3343
BLEU_4_closest_cased\tes-en\tnewstest2012\tuk-dan-moses\t0.2240
";

    /// The example's published outputs: Pearson 0.880651168828011 (AMBER) and
    /// 0.760352368043568 (BLEU) (`example-output/orig.pearson-corr.es-en`); METHOD §8: Williams
    /// t ≈ 2.687, df 9, one-sided p ≈ 0.0125. The repository's stored p, 0.0114079074943561
    /// (`orig.williams-results.es-en`), is the same t read with n − 2 = 10 degrees of freedom
    /// (the R package it called); Assay follows the paper (n − 3). EMNLP 2014 Figure 1: AMBER's
    /// Spearman ρ = 0.965. WMT 2012 Table 7 (seed 001 §6.5), es-en column: AMBER .97, BLEU .87
    /// (Spearman against the human ranking; these human scores rank the 12 systems as the
    /// seed's Bojar scores do). The rest of Tables 7–10 cannot be recomputed: the seed publishes
    /// the human system scores of every pair (§6.4) but no metric's system or segment scores,
    /// and no segment-level judgments; only this es-en example has both, for AMBER and BLEU.
    #[test]
    fn wmt12_es_en_williams_example() {
        let human = &read_table("human.tsv", HUMAN, TableFormat::Tsv, None, None).unwrap()[0];
        let metrics = read_table("metrics.tsv", METRICS, TableFormat::Tsv, None, None).unwrap();
        let r = meta_evaluate(human, &metrics, &MetaSettings::default());
        assert_eq!(r.pairs.len(), 1);
        let p = &r.pairs[0];
        let sl = p.system_level.as_ref().unwrap();
        assert_eq!(sl.systems.len(), 12);
        let (amber, bleu) = (&sl.metrics[0], &sl.metrics[1]);
        assert_eq!((amber.metric.as_str(), bleu.metric.as_str()), ("AMBER", "BLEU_4_closest_cased"));
        assert!((amber.pearson.value.unwrap() - 0.880651168828011).abs() < 1e-12);
        assert!((bleu.pearson.value.unwrap() - 0.760352368043568).abs() < 1e-12);
        assert_eq!((amber.spearman.value.unwrap() * 1000.0).round(), 965.0);
        assert_eq!((amber.spearman.value.unwrap() * 100.0).round(), 97.0);
        assert_eq!((bleu.spearman.value.unwrap() * 100.0).round(), 87.0);
        let w = williams_from_data(&amber.scores, &bleu.scores, &sl.human).unwrap();
        assert!((w.t - 2.687).abs() < 0.0005 && w.df == 9.0);
        assert!((sl.williams.p[0][1].unwrap() - 0.012458770664095644).abs() < 1e-9, "{:?}", sl.williams.p);
        assert!(sl.williams.p[1][0].unwrap() > 0.98);
        use statrs::distribution::{ContinuousCDF, StudentsT};
        let df10 = 1.0 - StudentsT::new(0.0, 1.0, 10.0).unwrap().cdf(w.t);
        assert!((df10 - 0.0114079074943561).abs() < 1e-9, "{df10}");
        // AMBER is significantly better by Williams: two clusters.
        assert_eq!(sl.clusters_williams, vec![vec!["AMBER".to_string()], vec!["BLEU_4_closest_cased".to_string()]]);
        // The en-fr line is a pair the humans did not score; no segment level without segments.
        assert!(p.segment_level.is_none());
        assert_eq!(amber.pairwise_accuracy.unwrap().pairs, 66);
    }

    /// Six systems of known quality, 80 segments; metrics: `good` (human + small noise),
    /// `error` (−good: an error metric), `noisy`, `constant`.
    fn synthetic() -> (Scores, Vec<Scores>) {
        let mut rng = SplitMix64::new(5);
        let mut u = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let quality = [70.0, 65.0, 60.0, 52.0, 45.0, 30.0];
        let n = 80;
        let mut human = PairScores { segment_ids: (1..=n).map(|i| i.to_string()).collect(), ..Default::default() };
        let mut good = human.clone();
        let mut error = human.clone();
        let mut noisy = human.clone();
        let mut constant = human.clone();
        for (k, q) in quality.iter().enumerate() {
            let name = format!("sys{k}");
            let mut h = Vec::new();
            let (mut g, mut e, mut z, mut c) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for s in 0..n {
                let v = (q + 30.0 * (u() - 0.5) + (s % 7) as f64).round();
                h.push(Some(v));
                let gv = v / 100.0 + 0.05 * (u() - 0.5);
                g.push(Some(gv));
                e.push(Some(-gv));
                z.push(Some(u()));
                c.push(Some(0.5));
            }
            if k == 2 {
                h[3] = None;
            }
            human.segment.insert(name.clone(), h);
            good.segment.insert(name.clone(), g);
            error.segment.insert(name.clone(), e);
            noisy.segment.insert(name.clone(), z);
            constant.segment.insert(name, c);
        }
        let one = |name: &str, p: PairScores| Scores { name: name.into(), pairs: [("de-en".to_string(), p)].into() };
        (one("human", human), vec![one("good", good), one("error", error), one("noisy", noisy), one("constant", constant)])
    }

    #[test]
    fn synthetic_meta_evaluation() {
        let (human, metrics) = synthetic();
        let settings = MetaSettings { bootstrap_samples: 200, permutation_samples: 200, ..MetaSettings::default() };
        let r = meta_evaluate(&human, &metrics, &settings);
        assert_eq!(r, meta_evaluate(&human, &metrics, &settings), "seeded: the same report twice");
        let p = &r.pairs[0];
        let sl = p.system_level.as_ref().unwrap();
        let by = |n: &str| sl.metrics.iter().find(|m| m.metric == n).unwrap();
        let good = by("good");
        assert!(good.pearson.value.unwrap() > 0.95);
        let iv = good.pearson.interval.unwrap();
        assert!(iv.lower <= iv.upper && iv.upper <= 1.0 && iv.lower > 0.5, "{iv:?}");
        assert_eq!(good.pairwise_accuracy.unwrap().accuracy, 1.0);
        assert!(by("error").pearson.value.unwrap() < -0.95);
        assert_eq!(by("error").pairwise_accuracy.unwrap().accuracy, 0.0);
        assert!(good.soft_pairwise_accuracy.unwrap() > by("noisy").soft_pairwise_accuracy.unwrap());
        // The constant metric: no correlation, the reason in the notes.
        assert!(by("constant").pearson.value.is_none());
        assert!(p.notes.iter().any(|n| n.contains("constant Pearson") && n.contains("zero variance")), "{:?}", p.notes);
        // Good and error are the same metric up to sign: not separable; noisy is worse.
        let gi = sl.williams.metrics.iter().position(|m| m == "good").unwrap();
        let ni = sl.williams.metrics.iter().position(|m| m == "noisy").unwrap();
        let ei = sl.williams.metrics.iter().position(|m| m == "error").unwrap();
        assert!(sl.perm_both.p[gi][ni].unwrap() < 0.05, "{:?}", sl.perm_both.p);
        assert!(sl.perm_both.p[gi][ei].unwrap() > 0.5, "{:?}", sl.perm_both.p);
        assert!(sl.williams.p[gi][ni].unwrap() < 0.05);
        let first = &sl.clusters_perm_both[0];
        assert!(first.contains(&"good".to_string()) && first.contains(&"error".to_string()) && !first.contains(&"noisy".to_string()), "{:?}", sl.clusters_perm_both);
        // Randomized tests between systems: good agrees with the humans more than noise.
        let agree = |m: &SystemMetricReport| m.significance_agreement.as_ref().unwrap().share;
        assert!(agree(good) > agree(by("noisy")), "{} {}", agree(good), agree(by("noisy")));
        // Segment level.
        let seg = p.segment_level.as_ref().unwrap();
        let sg = seg.metrics.iter().find(|m| m.metric == "good").unwrap();
        assert_eq!(sg.n, 6 * 80 - 1);
        assert!(sg.kendall_b.value.unwrap() > 0.5 && sg.darr_kendall.unwrap().tau > 0.8);
        let sn = seg.metrics.iter().find(|m| m.metric == "noisy").unwrap();
        assert!(sn.kendall_b.value.unwrap().abs() < 0.15);
        assert!(sg.acc_eq.unwrap().accuracy > sn.acc_eq.unwrap().accuracy);
        let (g, e, z) = (seg.perm_both.metrics.iter().position(|m| m == "good").unwrap(), seg.perm_both.metrics.iter().position(|m| m == "error").unwrap(), seg.perm_both.metrics.iter().position(|m| m == "noisy").unwrap());
        assert!(seg.perm_both.p[g][z].unwrap() < 0.05 && seg.perm_both.statistic[g][z].unwrap() > 0.3, "{:?}", seg.perm_both);
        assert_eq!(seg.perm_both.p[g][e], Some(1.0), "good and −good are the same metric once oriented");
        assert!(seg.clusters_perm_both[0].contains(&"good".to_string()) && !seg.clusters_perm_both[0].contains(&"noisy".to_string()));
    }

    #[test]
    fn small_and_degenerate_inputs() {
        assert!(matches!(kendall_tau_c_test(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), Err(StatsError::ZeroVariance { .. })));
        assert!(acc_eq(&[], &[]).is_err());
        assert!(darr_kendall(&[vec![Some(50.0), Some(60.0)]], &[vec![Some(1.0), Some(2.0)]], 25.0, DarrRule::AtLeast).is_err());
        assert!(acc23(&[], &[]).is_err());
        assert!(acc23(&[vec![Some(50.0), None]], &[vec![Some(1.0), Some(2.0)]]).is_err());
        // A metric tie on a DArr pair is discordant.
        let d = darr_kendall(&[vec![Some(10.0), Some(60.0), Some(90.0)]], &[vec![Some(1.0), Some(1.0), Some(3.0)]], 25.0, DarrRule::Over).unwrap();
        assert_eq!((d.concordant, d.discordant), (2, 1));
        // Humans tie on (0, 1): calibration picks ε = 1 to count the metric's small gap as a tie.
        let a = acc_eq(&[vec![Some(50.0), Some(50.0), Some(90.0)]], &[vec![Some(1.0), Some(2.0), Some(9.0)]]).unwrap();
        assert_eq!((a.accuracy, a.epsilon, a.pairs), (1.0, 1.0, 3));
        assert_eq!(greedy_clusters(&[0, 1, 2, 3], &|t, m| Some(if (t, m) == (0, 2) || (t, m) == (2, 3) { 0.01 } else { 0.5 }), 0.05), vec![vec![0, 1], vec![2], vec![3]]);
    }
}
