//! Wilcoxon signed-rank (paired) and Wilcoxon rank-sum / Mann–Whitney U (two samples).
//!
//! Method choice ([`MethodChoice::Auto`]):
//! - **exact** null distribution when no ranked values are tied, no zero difference is left in
//!   the ranking, and the sample sizes are at most `exact_max_n` (default 50, SciPy's threshold
//!   for the signed-rank test; R uses exact below 50 too);
//! - otherwise the **normal approximation** with the tie correction of the variance and, by
//!   default, a continuity correction of ½ towards the mean (R's `wilcox.test` default;
//!   SciPy's `correction=True` / `use_continuity=True`).
//!
//! Zero differences in the signed-rank test ([`ZeroMethod`]): `Wilcox` (default) drops them
//! before ranking, as Wilcoxon did and as R does; `Pratt` ranks them with the others and then
//! leaves their ranks out of W⁺ and W⁻, adjusting the null mean and variance (Cureton 1967).
//! With Pratt and at least one zero the exact distribution does not apply, so the normal
//! approximation is used.
//!
//! Rank sums are sort-based: O(n log n) to sort, then one merge of two sorted samples, so the
//! system-comparison matrix sorts each system's scores once and merges each pair.

use serde::{Deserialize, Serialize};

use super::exact::{lower_tail, rank_sum_counts, signed_rank_counts, upper_tail};
use super::{
    Alternative, PMethod, Result, StatsError, TestKind, TestResult, check_finite, check_paired,
    normal_pvalue,
};

/// How zero differences are treated by the signed-rank test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroMethod {
    /// Drop zero differences before ranking (default).
    #[default]
    Wilcox,
    /// Rank zero differences with the rest, then leave them out of the rank sums.
    Pratt,
}

/// Which null distribution to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MethodChoice {
    /// Exact when allowed (no ties, no zeros ranked, n ≤ `exact_max_n`), normal otherwise.
    #[default]
    Auto,
    /// Exact; an error if ties or ranked zeros make it inapplicable.
    Exact,
    /// Normal approximation.
    Normal,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SignedRankOptions {
    pub zero_method: ZeroMethod,
    pub method: MethodChoice,
    pub continuity_correction: bool,
    pub exact_max_n: usize,
}

impl Default for SignedRankOptions {
    fn default() -> Self {
        SignedRankOptions {
            zero_method: ZeroMethod::Wilcox,
            method: MethodChoice::Auto,
            continuity_correction: true,
            exact_max_n: 50,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankSumOptions {
    pub method: MethodChoice,
    pub continuity_correction: bool,
    /// Exact only when both samples have at most this many values.
    pub exact_max_n: usize,
}

impl Default for RankSumOptions {
    fn default() -> Self {
        RankSumOptions {
            method: MethodChoice::Auto,
            continuity_correction: true,
            exact_max_n: 50,
        }
    }
}

/// Average ranks (1-based) of `values`, and the tie term Σ(t³ − t) over groups of tied values.
/// `order` is scratch space reused between calls.
pub fn average_ranks(values: &[f64], order: &mut Vec<usize>, ranks: &mut Vec<f64>) -> f64 {
    order.clear();
    order.extend(0..values.len());
    order.sort_unstable_by(|&a, &b| values[a].total_cmp(&values[b]));
    ranks.clear();
    ranks.resize(values.len(), 0.0);
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && values[order[j]] == values[order[i]] {
            j += 1;
        }
        let t = (j - i) as f64;
        let avg = (i + j + 1) as f64 / 2.0; // mean of ranks i+1 ..= j
        for &k in &order[i..j] {
            ranks[k] = avg;
        }
        tie_term += t * t * t - t;
        i = j;
    }
    tie_term
}

/// Wilcoxon signed-rank test on the paired differences `x − y`.
pub fn signed_rank(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    options: SignedRankOptions,
) -> Result<TestResult> {
    check_paired("signed-rank test", x, y)?;
    let d: Vec<f64> = x.iter().zip(y).map(|(a, b)| a - b).collect();
    signed_rank_differences(&d, alternative, options)
}

/// Wilcoxon signed-rank test on differences `d` (H0: symmetric about 0).
pub fn signed_rank_differences(
    d: &[f64],
    alternative: Alternative,
    options: SignedRankOptions,
) -> Result<TestResult> {
    const WHAT: &str = "signed-rank test";
    check_finite(WHAT, d)?;
    let zeros = d.iter().filter(|v| **v == 0.0).count();
    if zeros == d.len() {
        return Err(StatsError::AllZero { what: WHAT });
    }
    let mean_difference = d.iter().sum::<f64>() / d.len() as f64;
    // Values that are ranked: without zeros (Wilcox) or all of them (Pratt).
    let ranked: Vec<f64> = match options.zero_method {
        ZeroMethod::Wilcox => d.iter().filter(|v| **v != 0.0).map(|v| v.abs()).collect(),
        ZeroMethod::Pratt => d.iter().map(|v| v.abs()).collect(),
    };
    let signs: Vec<f64> = match options.zero_method {
        ZeroMethod::Wilcox => d.iter().filter(|v| **v != 0.0).copied().collect(),
        ZeroMethod::Pratt => d.to_vec(),
    };
    let (mut order, mut ranks) = (Vec::new(), Vec::new());
    let mut tie_term = average_ranks(&ranked, &mut order, &mut ranks);
    let count = ranked.len() as f64;
    let mut r_plus = 0.0;
    for (r, s) in ranks.iter().zip(&signs) {
        if *s > 0.0 {
            r_plus += r;
        }
    }
    let ranked_zeros = if options.zero_method == ZeroMethod::Pratt {
        zeros
    } else {
        0
    };
    let mut mn = count * (count + 1.0) * 0.25;
    let mut var24 = count * (count + 1.0) * (2.0 * count + 1.0);
    if ranked_zeros > 0 {
        let nz = ranked_zeros as f64;
        mn -= nz * (nz + 1.0) * 0.25;
        var24 -= nz * (nz + 1.0) * (2.0 * nz + 1.0);
        // The zeros form one tie group of their own; it is not part of the tie correction.
        tie_term -= nz * nz * nz - nz;
    }
    // Ties among the non-zero absolute differences.
    let ties = tie_term > 0.0;
    let exact_ok = !ties && ranked_zeros == 0 && ranked.len() <= options.exact_max_n;
    let use_exact = match options.method {
        MethodChoice::Auto => exact_ok,
        MethodChoice::Normal => false,
        MethodChoice::Exact => {
            if ties || ranked_zeros > 0 {
                return Err(StatsError::Invalid {
                    what: WHAT,
                    message:
                        "the exact distribution needs data without ties and without ranked zeros"
                            .into(),
                });
            }
            true
        }
    };
    let mut result = TestResult {
        test: TestKind::SignedRank,
        alternative,
        statistic: r_plus,
        p_value: 1.0,
        method: PMethod::Exact,
        df: None,
        z: None,
        n: ranked.len() - ranked_zeros,
        n2: None,
        zeros,
        ties,
        continuity_correction: false,
        mean_difference,
    };
    if use_exact {
        let counts = signed_rank_counts(ranked.len());
        let upper = upper_tail(&counts, r_plus.floor());
        let lower = lower_tail(&counts, r_plus.ceil());
        result.p_value = match alternative {
            Alternative::Greater => upper,
            Alternative::Less => lower,
            Alternative::TwoSided => (2.0 * upper.min(lower)).min(1.0),
        };
        return Ok(result);
    }
    let se = ((var24 - tie_term / 2.0) / 24.0).sqrt();
    let mut z = (r_plus - mn) / se;
    if options.continuity_correction {
        let sign = match alternative {
            Alternative::Greater => 1.0,
            Alternative::Less => -1.0,
            Alternative::TwoSided => {
                if z > 0.0 {
                    1.0
                } else if z < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }
        };
        z -= sign * 0.5 / se;
    }
    result.method = PMethod::Normal;
    result.continuity_correction = options.continuity_correction;
    result.z = Some(z);
    result.p_value = normal_pvalue(z, alternative);
    Ok(result)
}

/// The largest sample (zeros included) that SciPy's `method="auto"` tests by enumerating every
/// sign assignment when it has ties or zeros (2¹³ = 8192 assignments, below its 9999 resamples).
pub const SCIPY_PERMUTATION_MAX_N: usize = 13;

/// SciPy's `wilcoxon(d, alternative=…)` with every other argument at its default
/// (`zero_method="wilcox"`, `correction=False`, `method="auto"`), as SciPy 1.13–1.17 decide:
///
/// - more than 50 differences (zeros included): the normal approximation with the tie
///   correction of the variance and no continuity correction;
/// - otherwise, with no zero and no tie among the |d|: the exact null distribution;
/// - otherwise, with at most [`SCIPY_PERMUTATION_MAX_N`] differences (zeros included): the
///   exact permutation distribution of W⁺ over every sign assignment of the non-zero
///   differences (their average ranks kept), p = the share of assignments at least as extreme
///   (two-sided: twice the smaller tail, at most 1); every difference zero gives p = 1;
/// - otherwise the normal approximation as above.
///
/// Zero differences are dropped before ranking. Every difference zero with more than 13 of
/// them is [`StatsError::AllZero`] (SciPy returns NaN there). Checked against SciPy in
/// `tests/fixtures/esa` (the ESA ranking's per-domain test).
pub fn signed_rank_scipy_auto(d: &[f64], alternative: Alternative) -> Result<TestResult> {
    const WHAT: &str = "signed-rank test";
    check_finite(WHAT, d)?;
    let zeros = d.iter().filter(|v| **v == 0.0).count();
    let nonzero: Vec<f64> = d.iter().filter(|v| **v != 0.0).copied().collect();
    let abs: Vec<f64> = nonzero.iter().map(|v| v.abs()).collect();
    let (mut order, mut ranks) = (Vec::new(), Vec::new());
    let ties = average_ranks(&abs, &mut order, &mut ranks) > 0.0;
    let options = |method| SignedRankOptions { zero_method: ZeroMethod::Wilcox, method, continuity_correction: false, exact_max_n: 50 };
    if d.len() > 50 || (d.len() > SCIPY_PERMUTATION_MAX_N && (ties || zeros > 0)) {
        return signed_rank_differences(d, alternative, options(MethodChoice::Normal));
    }
    if zeros == 0 && !ties {
        return signed_rank_differences(d, alternative, options(MethodChoice::Exact));
    }
    // Exact permutation distribution: ranks doubled to integers (average ranks are halves).
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let total: usize = doubled.iter().sum();
    let mut counts = vec![0.0f64; total + 1];
    counts[0] = 1.0;
    let mut reach = 0;
    for &r in &doubled {
        for s in (0..=reach).rev() {
            if counts[s] > 0.0 {
                counts[s + r] += counts[s];
            }
        }
        reach += r;
    }
    let observed: usize = doubled.iter().zip(&nonzero).filter(|(_, v)| **v > 0.0).map(|(r, _)| *r).sum();
    let all = 2f64.powi(nonzero.len() as i32);
    let lower = counts[..=observed].iter().sum::<f64>() / all;
    let upper = counts[observed..].iter().sum::<f64>() / all;
    let p_value = match alternative {
        Alternative::Greater => upper,
        Alternative::Less => lower,
        Alternative::TwoSided => (2.0 * lower.min(upper)).min(1.0),
    };
    Ok(TestResult {
        test: TestKind::SignedRank,
        alternative,
        statistic: observed as f64 / 2.0,
        p_value,
        method: PMethod::Permutation,
        df: None,
        z: None,
        n: nonzero.len(),
        n2: None,
        zeros,
        ties,
        continuity_correction: false,
        mean_difference: d.iter().sum::<f64>() / d.len() as f64,
    })
}

/// A sorted sample as its distinct values with their counts, and the Σ(t³ − t) of its own
/// ties: prepared once for a sample that is compared with many others (the system-comparison
/// matrix), see [`RankSumStats::from_runs`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SortedRuns {
    runs: Vec<(f64, u64)>,
    n: usize,
    own_ties: u64,
}

impl SortedRuns {
    /// From a finite sample sorted in ascending order (checked in debug builds).
    pub fn from_sorted(xs: &[f64]) -> SortedRuns {
        debug_assert!(xs.windows(2).all(|w| w[0] <= w[1]));
        let mut runs: Vec<(f64, u64)> = Vec::new();
        for &v in xs {
            match runs.last_mut() {
                Some((last, c)) if *last == v => *c += 1,
                _ => runs.push((v, 1)),
            }
        }
        let own_ties = runs.iter().map(|&(_, c)| c * c * c - c).sum();
        SortedRuns { runs, n: xs.len(), own_ties }
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// What one merge of two sorted samples yields; enough for every alternative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankSumStats {
    pub n1: usize,
    pub n2: usize,
    /// Mann–Whitney U of the first sample: R₁ − n₁(n₁ + 1)/2.
    pub u1: f64,
    /// Σ(t³ − t) over tie groups of the pooled sample.
    pub tie_term: f64,
    pub mean_difference: f64,
}

impl RankSumStats {
    /// Merges two samples sorted in ascending order (checked in debug builds).
    pub fn from_sorted(xs: &[f64], ys: &[f64]) -> Result<RankSumStats> {
        const WHAT: &str = "rank-sum test";
        check_finite(WHAT, xs)?;
        check_finite(WHAT, ys)?;
        let mean_difference =
            xs.iter().sum::<f64>() / xs.len() as f64 - ys.iter().sum::<f64>() / ys.len() as f64;
        Ok(Self::from_sorted_unchecked(xs, ys, mean_difference))
    }

    /// [`Self::from_sorted`] for samples known to be non-empty, finite and sorted, with their
    /// mean difference already known: the inner loop of the system-comparison matrix.
    pub fn from_sorted_unchecked(xs: &[f64], ys: &[f64], mean_difference: f64) -> RankSumStats {
        debug_assert!(!xs.is_empty() && !ys.is_empty());
        debug_assert!(xs.windows(2).all(|w| w[0] <= w[1]) && ys.windows(2).all(|w| w[0] <= w[1]));
        let (n1, n2) = (xs.len(), ys.len());
        let (mut i, mut j) = (0usize, 0usize);
        let mut pos = 0usize; // ranks assigned so far
        let (mut r1, mut tie_term) = (0.0f64, 0.0f64);
        // One tie group of `cx` values from x and `cy` from y at ranks pos+1 ..= pos+cx+cy.
        let mut group = |cx: usize, cy: usize, pos: &mut usize| {
            let t = (cx + cy) as f64;
            r1 += cx as f64 * (*pos as f64 + (t + 1.0) / 2.0);
            tie_term += t * t * t - t;
            *pos += cx + cy;
        };
        while i < n1 && j < n2 {
            let (a, b) = (xs[i], ys[j]);
            let v = if a <= b { a } else { b };
            let i0 = i;
            while i < n1 && xs[i] == v {
                i += 1;
            }
            let j0 = j;
            while j < n2 && ys[j] == v {
                j += 1;
            }
            group(i - i0, j - j0, &mut pos);
        }
        while i < n1 {
            let i0 = i;
            while i < n1 && xs[i] == xs[i0] {
                i += 1;
            }
            group(i - i0, 0, &mut pos);
        }
        while j < n2 {
            let j0 = j;
            while j < n2 && ys[j] == ys[j0] {
                j += 1;
            }
            group(0, j - j0, &mut pos);
        }
        RankSumStats {
            n1,
            n2,
            u1: r1 - (n1 * (n1 + 1)) as f64 / 2.0,
            tie_term,
            mean_difference,
        }
    }

    /// [`Self::from_sorted_unchecked`] for samples prepared as [`SortedRuns`] (once per
    /// sample, then merged with many others): the same U and tie term, exactly. The merge
    /// walks distinct values without branching on their order: 2U₁ adds, for each value of
    /// the first sample, its count × (2 × the second sample's values below it + those equal
    /// to it); a value in both samples adds 3·c₁·c₂·(c₁ + c₂) to the two samples' own Σ(t³ − t).
    pub fn from_runs(xs: &SortedRuns, ys: &SortedRuns, mean_difference: f64) -> RankSumStats {
        debug_assert!(xs.n > 0 && ys.n > 0);
        let (x, y) = (xs.runs.as_slice(), ys.runs.as_slice());
        let (mut i, mut j) = (0usize, 0usize);
        let (mut below, mut twice_u1, mut shared_ties) = (0u64, 0u64, 0u64);
        while i < x.len() && j < y.len() {
            let ((a, ca), (b, cb)) = (x[i], y[j]);
            let (le, ge) = (u64::from(a <= b), u64::from(b <= a));
            let eq = le & ge;
            twice_u1 += le * ca * (2 * below + eq * cb);
            shared_ties += eq * 3 * ca * cb * (ca + cb);
            below += ge * cb;
            i += le as usize;
            j += ge as usize;
        }
        // What is left of the first sample lies above all of the second.
        let rest: u64 = x[i..].iter().map(|&(_, c)| c).sum();
        twice_u1 += 2 * ys.n as u64 * rest;
        RankSumStats {
            n1: xs.n,
            n2: ys.n,
            u1: twice_u1 as f64 / 2.0,
            tie_term: (xs.own_ties + ys.own_ties + shared_ties) as f64,
            mean_difference,
        }
    }

    pub fn ties(&self) -> bool {
        self.tie_term > 0.0
    }

    /// The test for one alternative.
    pub fn test(&self, alternative: Alternative, options: RankSumOptions) -> Result<TestResult> {
        let (n1, n2) = (self.n1 as f64, self.n2 as f64);
        let u2 = n1 * n2 - self.u1;
        let exact_ok =
            !self.ties() && self.n1 <= options.exact_max_n && self.n2 <= options.exact_max_n;
        let use_exact = match options.method {
            MethodChoice::Auto => exact_ok,
            MethodChoice::Normal => false,
            MethodChoice::Exact => {
                if self.ties() {
                    return Err(StatsError::Invalid {
                        what: "rank-sum test",
                        message: "the exact distribution needs data without ties".into(),
                    });
                }
                true
            }
        };
        let mut result = TestResult {
            test: TestKind::RankSum,
            alternative,
            statistic: self.u1,
            p_value: 1.0,
            method: PMethod::Exact,
            df: None,
            z: None,
            n: self.n1,
            n2: Some(self.n2),
            zeros: 0,
            ties: self.ties(),
            continuity_correction: false,
            mean_difference: self.mean_difference,
        };
        // P(U ≥ u) for the statistic of the alternative; doubled for two-sided.
        let (u, factor) = match alternative {
            Alternative::Greater => (self.u1, 1.0),
            Alternative::Less => (u2, 1.0),
            Alternative::TwoSided => (self.u1.max(u2), 2.0),
        };
        if use_exact {
            let counts = rank_sum_counts(self.n1, self.n2);
            result.p_value = (factor * upper_tail(&counts, u)).min(1.0);
            return Ok(result);
        }
        result.method = PMethod::Normal;
        result.continuity_correction = options.continuity_correction;
        let n = n1 + n2;
        let s = (n1 * n2 / 12.0 * ((n + 1.0) - self.tie_term / (n * (n - 1.0)))).sqrt();
        if s.is_nan() || s <= 0.0 {
            // Every pooled value is the same: U sits at its mean with probability one.
            result.p_value = 1.0;
            return Ok(result);
        }
        let cc = if options.continuity_correction {
            0.5
        } else {
            0.0
        };
        let z = (u - n1 * n2 / 2.0 - cc) / s;
        result.z = Some(z);
        result.p_value = (factor * super::normal_sf(z)).min(1.0);
        Ok(result)
    }
}

/// Wilcoxon rank-sum / Mann–Whitney U test (H1 for `Greater`: x tends to exceed y).
pub fn rank_sum(
    x: &[f64],
    y: &[f64],
    alternative: Alternative,
    options: RankSumOptions,
) -> Result<TestResult> {
    check_finite("rank-sum test", x)?;
    check_finite("rank-sum test", y)?;
    let mut xs = x.to_vec();
    let mut ys = y.to_vec();
    xs.sort_unstable_by(f64::total_cmp);
    ys.sort_unstable_by(f64::total_cmp);
    rank_sum_sorted(&xs, &ys, alternative, options)
}

/// [`rank_sum`] on samples already sorted ascending.
pub fn rank_sum_sorted(
    xs: &[f64],
    ys: &[f64],
    alternative: Alternative,
    options: RankSumOptions,
) -> Result<TestResult> {
    RankSumStats::from_sorted(xs, ys)?.test(alternative, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn average_ranks_with_ties() {
        let (mut o, mut r) = (Vec::new(), Vec::new());
        let t = average_ranks(&[10., 20., 10., 30., 20., 20.], &mut o, &mut r);
        assert_eq!(r, vec![1.5, 4.0, 1.5, 6.0, 4.0, 4.0]);
        assert_eq!(t, (8. - 2.) + (27. - 3.));
    }

    #[test]
    fn rank_sum_merge_matches_ranks() {
        let x = [3., 1., 4., 1., 5.];
        let y = [9., 2., 6., 5., 3., 5.];
        let r = rank_sum(&x, &y, Alternative::Greater, RankSumOptions::default()).unwrap();
        // pooled ranks: 1,1→1.5; 2→3; 3,3→4.5; 4→6; 5,5,5→8; 6→10; 9→11
        // R1 = 4.5 + 1.5 + 6 + 1.5 + 8 = 21.5; U1 = 21.5 − 15 = 6.5
        assert_eq!(r.statistic, 6.5);
        assert_eq!(r.method, PMethod::Normal);
        assert!(r.ties);
    }

    #[test]
    fn errors_not_nan() {
        let o = SignedRankOptions::default();
        assert_eq!(
            signed_rank(&[1., 2.], &[1., 2.], Alternative::Greater, o).unwrap_err(),
            StatsError::AllZero {
                what: "signed-rank test"
            }
        );
        assert!(matches!(
            signed_rank(&[], &[], Alternative::Greater, o),
            Err(StatsError::Empty { .. })
        ));
        assert!(matches!(
            rank_sum(&[], &[1.0], Alternative::Greater, RankSumOptions::default()),
            Err(StatsError::Empty { .. })
        ));
        let same = rank_sum(
            &[2., 2.],
            &[2., 2., 2.],
            Alternative::TwoSided,
            RankSumOptions::default(),
        )
        .unwrap();
        assert_eq!(same.p_value, 1.0);
    }
}
