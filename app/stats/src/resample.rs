//! Seeded resampling: bootstrap confidence intervals and the randomized significance tests of
//! Graham et al. (WMT 2014, Figures 1–4): paired bootstrap, one- and two-sided bootstrap with
//! shift-to-zero, and approximate randomization. Every p-value is p = c / B.
//!
//! The generator is SplitMix64 (Steele, Lea & Flood 2014), written out here so that a seed
//! gives the same numbers on every platform and with every version of any random crate.
//!
//! Paired tests work on per-segment rows of *sufficient statistics* (`dim` numbers per segment
//! and system, row-major) and a `metric` that turns their column sums over a sample of `n`
//! segments into a score. For a per-segment score averaged over segments, `dim` = 1 and the
//! metric is [`mean_metric`]; a corpus-level metric such as BLEU passes its n-gram counts.

use serde::{Deserialize, Serialize};

use super::describe::quantile_sorted;
use super::{Alternative, Result, StatsError, check_finite};

/// SplitMix64: a small, fast, well-distributed 64-bit generator, fully determined by its seed.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in `0..n` without modulo bias (Lemire 2019). `n` must be > 0.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

/// A percentile bootstrap confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BootstrapCi {
    /// The statistic on the original sample.
    pub estimate: f64,
    pub lower: f64,
    pub upper: f64,
    pub confidence: f64,
    pub samples: usize,
    pub seed: u64,
}

/// Percentile bootstrap: draws `samples` resamples of `n_units` units with replacement, applies
/// `statistic` to each (it receives the drawn unit indices), and takes the (1 − c)/2 and
/// 1 − (1 − c)/2 quantiles (type 7) of the results.
pub fn bootstrap_ci<F: FnMut(&[usize]) -> f64>(
    n_units: usize,
    mut statistic: F,
    confidence: f64,
    samples: usize,
    seed: u64,
) -> Result<BootstrapCi> {
    let [ci] = bootstrap_cis(n_units, |idx| [statistic(idx)], confidence, samples, seed)?;
    Ok(ci)
}

/// [`bootstrap_ci`] for `K` statistics of the same resamples (e.g. raw and z means of the same
/// segments): one draw of indices serves all of them.
pub fn bootstrap_cis<const K: usize, F: FnMut(&[usize]) -> [f64; K]>(
    n_units: usize,
    mut statistic: F,
    confidence: f64,
    samples: usize,
    seed: u64,
) -> Result<[BootstrapCi; K]> {
    const WHAT: &str = "bootstrap confidence interval";
    if n_units == 0 {
        return Err(StatsError::Empty { what: WHAT });
    }
    if samples == 0 || !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: format!(
                "needs samples ≥ 1 and 0 < confidence < 1 (got {samples}, {confidence})"
            ),
        });
    }
    let mut idx: Vec<usize> = (0..n_units).collect();
    let estimates = statistic(&idx);
    let mut rng = SplitMix64::new(seed);
    let mut stats: [Vec<f64>; K] = std::array::from_fn(|_| Vec::with_capacity(samples));
    for _ in 0..samples {
        for slot in idx.iter_mut() {
            *slot = rng.below(n_units as u64) as usize;
        }
        for (k, v) in statistic(&idx).into_iter().enumerate() {
            stats[k].push(v);
        }
    }
    let tail = (1.0 - confidence) / 2.0;
    let mut out = Vec::with_capacity(K);
    for (k, mut s) in stats.into_iter().enumerate() {
        check_finite(WHAT, &s)?;
        s.sort_unstable_by(f64::total_cmp);
        out.push(BootstrapCi {
            estimate: estimates[k],
            lower: quantile_sorted(&s, tail)?,
            upper: quantile_sorted(&s, 1.0 - tail)?,
            confidence,
            samples,
            seed,
        });
    }
    Ok(out
        .try_into()
        .unwrap_or_else(|_| unreachable!("K intervals")))
}

/// The metric of a per-segment score: the mean of column 0.
pub fn mean_metric(sums: &[f64], n: usize) -> f64 {
    sums[0] / n as f64
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RandomizedTest {
    /// Koehn (2004), Fig. 4: c counts resamples in which X is not better than Y.
    PairedBootstrap,
    /// Fig. 3 (one-sided) and Fig. 1 (two-sided): bootstrap with shift-to-zero.
    Bootstrap,
    /// Fig. 2: approximate randomization, each segment's pair swapped with probability ½.
    ApproximateRandomization,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomizedResult {
    pub test: RandomizedTest,
    pub alternative: Alternative,
    /// S_X − S_Y on the data.
    pub observed: f64,
    pub c: usize,
    pub samples: usize,
    pub p_value: f64,
    pub seed: u64,
}

struct Rows<'a> {
    x: &'a [f64],
    y: &'a [f64],
    dim: usize,
    n: usize,
}

fn rows<'a>(
    what: &'static str,
    x: &'a [f64],
    y: &'a [f64],
    dim: usize,
    samples: usize,
) -> Result<Rows<'a>> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            what,
            left: x.len(),
            right: y.len(),
        });
    }
    check_finite(what, x)?;
    check_finite(what, y)?;
    if dim == 0 || !x.len().is_multiple_of(dim) || samples == 0 {
        return Err(StatsError::Invalid {
            what,
            message: format!(
                "{} values do not form rows of {dim}, or no samples were asked for",
                x.len()
            ),
        });
    }
    Ok(Rows {
        x,
        y,
        dim,
        n: x.len() / dim,
    })
}

impl Rows<'_> {
    /// Column sums of X and Y over the chosen segments, optionally swapping X and Y per segment.
    fn sums(&self, pick: impl Iterator<Item = (usize, bool)>, sx: &mut [f64], sy: &mut [f64]) {
        sx.fill(0.0);
        sy.fill(0.0);
        for (i, swap) in pick {
            let (a, b) = (
                &self.x[i * self.dim..(i + 1) * self.dim],
                &self.y[i * self.dim..(i + 1) * self.dim],
            );
            let (a, b) = if swap { (b, a) } else { (a, b) };
            for k in 0..self.dim {
                sx[k] += a[k];
                sy[k] += b[k];
            }
        }
    }
}

/// The observed difference and `samples` resampled differences: segments drawn with
/// replacement (`resample`), or each segment's pair swapped with probability ½.
fn resampled_differences(
    r: &Rows,
    metric: &dyn Fn(&[f64], usize) -> f64,
    samples: usize,
    seed: u64,
    resample: bool,
) -> (f64, Vec<f64>) {
    let mut sx = vec![0.0; r.dim];
    let mut sy = vec![0.0; r.dim];
    r.sums((0..r.n).map(|i| (i, false)), &mut sx, &mut sy);
    let observed = metric(&sx, r.n) - metric(&sy, r.n);
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(samples);
    let mut picks: Vec<(usize, bool)> = vec![(0, false); r.n];
    for _ in 0..samples {
        for (i, p) in picks.iter_mut().enumerate() {
            *p = if resample {
                (rng.below(r.n as u64) as usize, false)
            } else {
                (i, rng.coin())
            };
        }
        r.sums(picks.iter().copied(), &mut sx, &mut sy);
        out.push(metric(&sx, r.n) - metric(&sy, r.n));
    }
    (observed, out)
}

/// Paired bootstrap resampling (Koehn 2004; Graham et al. 2014, Fig. 4): resample segments with
/// replacement, c = number of resamples in which S_X ≤ S_Y, p = c / B (H1: X better than Y).
/// Ties count against X, so two identical systems get p = 1 rather than 0.
pub fn paired_bootstrap(
    x: &[f64],
    y: &[f64],
    dim: usize,
    metric: &dyn Fn(&[f64], usize) -> f64,
    samples: usize,
    seed: u64,
) -> Result<RandomizedResult> {
    let r = rows("paired bootstrap", x, y, dim, samples)?;
    let (observed, diffs) = resampled_differences(&r, metric, samples, seed, true);
    let c = diffs.iter().filter(|d| **d <= 0.0).count();
    Ok(RandomizedResult {
        test: RandomizedTest::PairedBootstrap,
        alternative: Alternative::Greater,
        observed,
        c,
        samples,
        p_value: c as f64 / samples as f64,
        seed,
    })
}

/// Bootstrap test with shift-to-zero (Noreen 1989; Graham et al. 2014, Figs. 1 and 3): the
/// resampled differences are centred on their mean μ_B; one-sided (`Greater`): c counts
/// δ_b − μ_B ≥ δ; two-sided: |δ_b − μ_B| ≥ |δ|; p = c / B. `Less` is `Greater` with X and Y
/// swapped.
pub fn bootstrap_test(
    x: &[f64],
    y: &[f64],
    dim: usize,
    metric: &dyn Fn(&[f64], usize) -> f64,
    alternative: Alternative,
    samples: usize,
    seed: u64,
) -> Result<RandomizedResult> {
    let r = rows("bootstrap test", x, y, dim, samples)?;
    let (observed, diffs) = resampled_differences(&r, metric, samples, seed, true);
    let mu = diffs.iter().sum::<f64>() / samples as f64;
    let c = match alternative {
        Alternative::Greater => diffs.iter().filter(|d| **d - mu >= observed).count(),
        Alternative::Less => diffs.iter().filter(|d| **d - mu <= observed).count(),
        Alternative::TwoSided => diffs
            .iter()
            .filter(|d| (**d - mu).abs() >= observed.abs())
            .count(),
    };
    Ok(RandomizedResult {
        test: RandomizedTest::Bootstrap,
        alternative,
        observed,
        c,
        samples,
        p_value: c as f64 / samples as f64,
        seed,
    })
}

/// Approximate randomization (Graham et al. 2014, Fig. 2): swap each segment's (X, Y) pair with
/// probability ½; one-sided (`Greater`): c counts δ_r ≥ δ; two-sided: |δ_r| ≥ |δ|; p = c / B.
pub fn approximate_randomization(
    x: &[f64],
    y: &[f64],
    dim: usize,
    metric: &dyn Fn(&[f64], usize) -> f64,
    alternative: Alternative,
    samples: usize,
    seed: u64,
) -> Result<RandomizedResult> {
    let r = rows("approximate randomization", x, y, dim, samples)?;
    let (observed, diffs) = resampled_differences(&r, metric, samples, seed, false);
    let c = match alternative {
        Alternative::Greater => diffs.iter().filter(|d| **d >= observed).count(),
        Alternative::Less => diffs.iter().filter(|d| **d <= observed).count(),
        Alternative::TwoSided => diffs.iter().filter(|d| d.abs() >= observed.abs()).count(),
    };
    Ok(RandomizedResult {
        test: RandomizedTest::ApproximateRandomization,
        alternative,
        observed,
        c,
        samples,
        p_value: c as f64 / samples as f64,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_is_fixed_and_unbiased_enough() {
        // Reference values of SplitMix64 with seed 1234567 (from the published C code).
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
        let mut g = SplitMix64::new(7);
        let mut counts = [0usize; 6];
        for _ in 0..60_000 {
            counts[g.below(6) as usize] += 1;
        }
        assert!(
            counts.iter().all(|c| (9_500..10_500).contains(c)),
            "{counts:?}"
        );
    }

    #[test]
    fn bootstrap_ci_is_seeded_and_brackets_the_mean() {
        let v: Vec<f64> = (0..200).map(|i| (i % 17) as f64).collect();
        let stat = |idx: &[usize]| idx.iter().map(|&i| v[i]).sum::<f64>() / idx.len() as f64;
        let a = bootstrap_ci(v.len(), stat, 0.95, 1000, 42).unwrap();
        let b = bootstrap_ci(v.len(), stat, 0.95, 1000, 42).unwrap();
        assert_eq!(a, b);
        assert!(a.lower < a.estimate && a.estimate < a.upper);
        // Standard error of the mean is about 4.9 / sqrt(200) ≈ 0.35: a 95 % interval ≈ ±0.68.
        assert!((a.upper - a.lower - 1.36).abs() < 0.3, "{a:?}");
    }

    #[test]
    fn randomized_tests_separate_clear_differences_and_not_identical_systems() {
        let x: Vec<f64> = (0..300).map(|i| 50.0 + ((i * 37) % 23) as f64).collect();
        let better: Vec<f64> = x.iter().map(|v| v + 5.0).collect();
        for alt in [Alternative::Greater, Alternative::TwoSided] {
            let ar = approximate_randomization(&better, &x, 1, &mean_metric, alt, 1000, 1).unwrap();
            assert_eq!(ar.c, 0, "{ar:?}");
            let bs = bootstrap_test(&better, &x, 1, &mean_metric, alt, 1000, 1).unwrap();
            assert_eq!(bs.c, 0, "{bs:?}");
        }
        let pb = paired_bootstrap(&better, &x, 1, &mean_metric, 1000, 1).unwrap();
        assert_eq!(pb.p_value, 0.0);
        let same = paired_bootstrap(&x, &x, 1, &mean_metric, 1000, 1).unwrap();
        assert_eq!(same.p_value, 1.0);
        let ar = approximate_randomization(&x, &x, 1, &mean_metric, Alternative::TwoSided, 1000, 1)
            .unwrap();
        assert_eq!(ar.p_value, 1.0);
        // The reverse direction is not significant.
        let ar =
            approximate_randomization(&x, &better, 1, &mean_metric, Alternative::Greater, 1000, 1)
                .unwrap();
        assert_eq!(ar.p_value, 1.0);
        assert!(matches!(
            paired_bootstrap(&x, &x[1..], 1, &mean_metric, 10, 1),
            Err(StatsError::LengthMismatch { .. })
        ));
    }

    #[test]
    fn corpus_metric_with_sufficient_statistics() {
        // Ratio metric: sum of column 0 over sum of column 1 (e.g. matches / length).
        let ratio = |s: &[f64], _n: usize| s[0] / s[1];
        let x = [3.0, 4.0, 5.0, 5.0, 4.0, 4.0];
        let y = [2.0, 4.0, 3.0, 5.0, 2.0, 4.0];
        let r = approximate_randomization(&x, &y, 2, &ratio, Alternative::Greater, 200, 3).unwrap();
        assert!((r.observed - (12.0 / 13.0 - 7.0 / 13.0)).abs() < 1e-12);
        assert!(r.p_value > 0.0 && r.p_value <= 1.0);
    }
}
