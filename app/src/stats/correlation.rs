//! Pearson, Spearman and Kendall tau-b correlation.

use super::rank::average_ranks;
use super::ttest::t_pvalue;
use super::{Alternative, Result, StatsError, check_paired};

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

/// Kendall's tau-b, O(n log n) (Knight 1966): sort by (x, y), count tied pairs, then count the
/// discordant pairs as the inversions of a merge sort on y.
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Result<f64> {
    const WHAT: &str = "Kendall tau-b";
    check_pairs(WHAT, x, y, 2)?;
    let n = x.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_unstable_by(|&a, &b| x[a].total_cmp(&x[b]).then(y[a].total_cmp(&y[b])));
    let pairs = |t: u64| t * (t - 1) / 2;
    // Pairs tied in x, and tied in both x and y.
    let (mut x_ties, mut joint_ties) = (0u64, 0u64);
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && x[idx[j]] == x[idx[i]] {
            j += 1;
        }
        x_ties += pairs((j - i) as u64);
        let mut k = i;
        while k < j {
            let mut l = k + 1;
            while l < j && y[idx[l]] == y[idx[k]] {
                l += 1;
            }
            joint_ties += pairs((l - k) as u64);
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
    // v is now sorted by y: pairs tied in y.
    let mut y_ties = 0u64;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && v[j] == v[i] {
            j += 1;
        }
        y_ties += pairs((j - i) as u64);
        i = j;
    }
    let total = pairs(n as u64);
    if x_ties == total || y_ties == total {
        return Err(StatsError::ZeroVariance { what: WHAT });
    }
    let con_minus_dis =
        total as f64 - x_ties as f64 - y_ties as f64 + joint_ties as f64 - 2.0 * discordant as f64;
    let denom = ((total - x_ties) as f64).sqrt() * ((total - y_ties) as f64).sqrt();
    Ok((con_minus_dis / denom).clamp(-1.0, 1.0))
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
