//! Pearson, Spearman and Kendall tau-b correlation.

use super::rank::average_ranks;
use super::ttest::t_pvalue;
use serde::{Deserialize, Serialize};

use super::{Alternative, PMethod, Result, StatsError, check_paired, normal_pvalue};

fn check_pairs(what: &'static str, x: &[f64], y: &[f64], min: usize) -> Result<()> {
    check_paired(what, x, y)?;
    if x.len() < min {
        return Err(StatsError::TooFew {
            what,
            needed: min,
            got: x.len(),
        });
    }
    Ok(())
}

fn pearson_unchecked(what: &'static str, x: &[f64], y: &[f64]) -> Result<f64> {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return Err(StatsError::ZeroVariance { what });
    }
    Ok((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// Pearson's r. Needs two or more pairs and variation in both variables.
pub fn pearson(x: &[f64], y: &[f64]) -> Result<f64> {
    check_pairs("Pearson correlation", x, y, 2)?;
    pearson_unchecked("Pearson correlation", x, y)
}

/// Pearson's r with the two-sided p-value of H0: ρ = 0 (t with n − 2 degrees of freedom;
/// p = 1 for n = 2, where r is always ±1, as SciPy reports).
pub fn pearson_test(x: &[f64], y: &[f64]) -> Result<(f64, f64)> {
    let r = pearson(x, y)?;
    let n = x.len();
    if n == 2 {
        return Ok((r, 1.0));
    }
    if r.abs() == 1.0 {
        return Ok((r, 0.0));
    }
    let df = (n - 2) as f64;
    let t = r * (df / (1.0 - r * r)).sqrt();
    Ok((r, t_pvalue(t, df, Alternative::TwoSided)))
}

/// Spearman's ρ: Pearson's r of the average ranks.
pub fn spearman(x: &[f64], y: &[f64]) -> Result<f64> {
    const WHAT: &str = "Spearman correlation";
    check_pairs(WHAT, x, y, 2)?;
    let (mut order, mut rx, mut ry) = (Vec::new(), Vec::new(), Vec::new());
    average_ranks(x, &mut order, &mut rx);
    average_ranks(y, &mut order, &mut ry);
    pearson_unchecked(WHAT, &rx, &ry)
}

/// Kendall's tau-b with its p-value, as SciPy's `kendalltau(x, y, variant="b")` computes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct KendallTest {
    pub tau: f64,
    pub p_value: f64,
    /// [`PMethod::Exact`]: the exact null distribution of the number of concordant pairs (no
    /// ties, and n ≤ 33 or at most one discordant or concordant pair, SciPy's `method="auto"`);
    /// [`PMethod::Normal`]: the normal approximation of S = concordant − discordant with the
    /// tie-corrected variance (Kendall 1970, eq. 4.3).
    pub method: PMethod,
    /// The standardised S of the normal approximation.
    pub z: Option<f64>,
    pub n: usize,
    pub ties: bool,
}

/// Pair counts behind tau-b: everything the statistic and its variance need.
struct KendallCounts {
    n: u64,
    /// Discordant pairs.
    discordant: u64,
    /// Pairs tied in x, in y, in both.
    x_ties: u64,
    y_ties: u64,
    joint_ties: u64,
    /// Σ t(t−1)(t−2) and Σ t(t−1)(2t+5) over the tie groups of x and of y.
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
}

/// Adds one tie group of size `t` to (pairs, Σ t(t−1)(t−2), Σ t(t−1)(2t+5)).
fn add_tie_group(t: u64, pairs: &mut u64, v0: &mut f64, v1: &mut f64) {
    if t > 1 {
        let tf = t as f64;
        *pairs += t * (t - 1) / 2;
        *v0 += tf * (tf - 1.0) * (tf - 2.0);
        *v1 += tf * (tf - 1.0) * (2.0 * tf + 5.0);
    }
}

/// O(n log n) (Knight 1966): sort by (x, y), count tied pairs, then count the discordant pairs
/// as the inversions of a merge sort on y.
fn kendall_counts(x: &[f64], y: &[f64]) -> KendallCounts {
    let n = x.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_unstable_by(|&a, &b| x[a].total_cmp(&x[b]).then(y[a].total_cmp(&y[b])));
    let (mut x_ties, mut joint_ties, mut x0, mut x1) = (0u64, 0u64, 0.0, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && x[idx[j]] == x[idx[i]] {
            j += 1;
        }
        add_tie_group((j - i) as u64, &mut x_ties, &mut x0, &mut x1);
        let mut k = i;
        while k < j {
            let mut l = k + 1;
            while l < j && y[idx[l]] == y[idx[k]] {
                l += 1;
            }
            let t = (l - k) as u64;
            joint_ties += t * t.saturating_sub(1) / 2;
            k = l;
        }
        i = j;
    }
    // Merge sort on y, counting strict inversions (discordant pairs).
    let mut v: Vec<f64> = idx.iter().map(|&k| y[k]).collect();
    let mut buf = vec![0.0; n];
    let mut discordant = 0u64;
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut a, mut b, mut o) = (start, mid, start);
            while a < mid && b < end {
                if v[b] < v[a] {
                    discordant += (mid - a) as u64;
                    buf[o] = v[b];
                    b += 1;
                } else {
                    buf[o] = v[a];
                    a += 1;
                }
                o += 1;
            }
            buf[o..o + (mid - a)].copy_from_slice(&v[a..mid]);
            o += mid - a;
            buf[o..o + (end - b)].copy_from_slice(&v[b..end]);
            start = end;
        }
        std::mem::swap(&mut v, &mut buf);
        width *= 2;
    }
    // v is now sorted by y: the tie groups of y.
    let (mut y_ties, mut y0, mut y1) = (0u64, 0.0, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && v[j] == v[i] {
            j += 1;
        }
        add_tie_group((j - i) as u64, &mut y_ties, &mut y0, &mut y1);
        i = j;
    }
    KendallCounts { n: n as u64, discordant, x_ties, y_ties, joint_ties, x0, x1, y0, y1 }
}

impl KendallCounts {
    fn total(&self) -> u64 {
        self.n * (self.n - 1) / 2
    }

    /// S = concordant − discordant.
    fn s(&self) -> f64 {
        self.total() as f64 - self.x_ties as f64 - self.y_ties as f64 + self.joint_ties as f64
            - 2.0 * self.discordant as f64
    }

    fn tau_b(&self) -> Result<f64> {
        let total = self.total();
        if self.x_ties == total || self.y_ties == total {
            return Err(StatsError::ZeroVariance { what: "Kendall tau-b" });
        }
        let denom = ((total - self.x_ties) as f64).sqrt() * ((total - self.y_ties) as f64).sqrt();
        Ok((self.s() / denom).clamp(-1.0, 1.0))
    }
}

/// Kendall's tau-b. Needs two or more pairs and variation in both variables.
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Result<f64> {
    check_pairs("Kendall tau-b", x, y, 2)?;
    kendall_counts(x, y).tau_b()
}

/// Kendall's tau-b and the p-value of H0: no association (`Greater`: positive association).
pub fn kendall_tau_b_test(x: &[f64], y: &[f64], alternative: Alternative) -> Result<KendallTest> {
    check_pairs("Kendall tau-b", x, y, 2)?;
    let c = kendall_counts(x, y);
    let tau = c.tau_b()?;
    let total = c.total();
    let ties = c.x_ties > 0 || c.y_ties > 0;
    let concordant = total - c.discordant;
    let exact = !ties && (c.n <= 33 || c.discordant.min(concordant) <= 1);
    let (p_value, method, z) = if exact {
        (kendall_exact_p(c.n, concordant, alternative), PMethod::Exact, None)
    } else {
        let n = c.n as f64;
        let m = n * (n - 1.0);
        let var = (m * (2.0 * n + 5.0) - c.x1 - c.y1) / 18.0
            + 2.0 * c.x_ties as f64 * c.y_ties as f64 / m
            + c.x0 * c.y0 / (9.0 * m * (n - 2.0));
        let z = c.s() / var.sqrt();
        (normal_pvalue(z, alternative), PMethod::Normal, Some(z))
    };
    Ok(KendallTest { tau, p_value: p_value.clamp(0.0, 1.0), method, z, n: x.len(), ties })
}

/// Exact p-value of `concordant` concordant pairs among n untied pairs: the number of
/// concordant pairs of a random permutation follows the Mahonian distribution (Kendall 1970),
/// computed here by its recurrence with each step divided by j so nothing overflows.
fn kendall_exact_p(n: u64, concordant: u64, alternative: Alternative) -> f64 {
    let total = n * (n - 1) / 2;
    let in_right_tail = concordant >= total - concordant;
    let c = concordant.min(total - concordant) as usize;
    // P(C ≤ c) and P(C = c) for the smaller tail.
    let (lower_tail, mass_at_c) = if n == 2 {
        (0.5, 0.5)
    } else {
        // f[k] = P(k inversions) for permutations of j elements, built up for j = 1..n,
        // only up to k = c.
        let mut f = vec![0.0f64; c + 1];
        f[0] = 1.0;
        for j in 2..=n as usize {
            // g[k] = (1/j) Σ_{i=0}^{min(k, j−1)} f[k−i]: a running window sum.
            let mut g = vec![0.0f64; c + 1];
            let mut window = 0.0;
            for k in 0..=c {
                window += f[k];
                if k >= j {
                    window -= f[k - j];
                }
                g[k] = window / j as f64;
            }
            f = g;
        }
        (f.iter().sum::<f64>(), f[c])
    };
    let two_sided = if 4 * c as u64 == n * (n - 1) { 1.0 } else { (2.0 * lower_tail).min(1.0) };
    match alternative {
        Alternative::TwoSided => two_sided,
        _ => {
            let agrees = in_right_tail == (alternative == Alternative::Greater);
            if agrees {
                lower_tail
            } else {
                1.0 - lower_tail + mass_at_c
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert!((pearson(&[1., 2., 3.], &[2., 4., 6.]).unwrap() - 1.0).abs() < 1e-15);
        assert!(
            (kendall_tau_b(&[1., 2., 3., 4.], &[1., 3., 2., 4.]).unwrap() - 2.0 / 3.0).abs()
                < 1e-12
        );
        // tau-b with ties, SciPy: kendalltau([1,1,2,3],[1,2,2,3]) = 0.8
        assert!((kendall_tau_b(&[1., 1., 2., 3.], &[1., 2., 2., 3.]).unwrap() - 0.8).abs() < 1e-12);
        assert!((spearman(&[1., 2., 3., 4.], &[10., 20., 30., 40.]).unwrap() - 1.0).abs() < 1e-15);
        assert!(matches!(
            pearson(&[1., 1.], &[1., 2.]),
            Err(StatsError::ZeroVariance { .. })
        ));
        assert!(matches!(
            kendall_tau_b(&[1.], &[1.]),
            Err(StatsError::TooFew { .. })
        ));
    }
}
