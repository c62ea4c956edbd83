//! Exact null distributions of the Wilcoxon signed-rank statistic W⁺ and the Mann–Whitney U
//! statistic, for samples without ties.
//!
//! Both are computed as counts with additions only (no subtraction, so no cancellation), in
//! `f64`: the largest total, C(100, 50) ≈ 1.0e29 for two samples of 50 or 2⁵⁰ ≈ 1.1e15 for 50
//! pairs, is far inside `f64`'s range, and a tail is summed directly from its own side, so a
//! small p-value keeps its relative precision.

/// Number of sign assignments of ranks 1..=n giving each value of W⁺ (index = W⁺,
/// 0..=n(n+1)/2). Total 2ⁿ.
pub fn signed_rank_counts(n: usize) -> Vec<f64> {
    let max = n * (n + 1) / 2;
    let mut c = vec![0.0; max + 1];
    c[0] = 1.0;
    for k in 1..=n {
        let top = k * (k + 1) / 2;
        for s in (k..=top).rev() {
            c[s] += c[s - k];
        }
    }
    c
}

/// Number of orderings giving each value of U₁ = #{(i, j): xᵢ > yⱼ} for sample sizes `m`, `n`
/// (index = U₁, 0..=m·n). Total C(m + n, m).
pub fn rank_sum_counts(m: usize, n: usize) -> Vec<f64> {
    // The distribution is symmetric in (m, n): keep the smaller one as rows.
    let (m, n) = if m <= n { (m, n) } else { (n, m) };
    let width = m * n + 1;
    // f[r][u] = count for (r, n') with n' the number of y values processed so far.
    let mut f = vec![0.0; (m + 1) * width];
    for r in 0..=m {
        f[r * width] = 1.0;
    }
    // Recurrence on the largest value of the pooled sample: from x it adds n' to U, from y 0:
    // f(u; r, n') = f(u − n'; r − 1, n') + f(u; r, n' − 1).
    for np in 1..=n {
        for r in 1..=m {
            let (prev, cur) = f.split_at_mut(r * width);
            let prev = &prev[(r - 1) * width..];
            let cur = &mut cur[..width];
            let max_u = r * np;
            for u in np..=max_u {
                cur[u] += prev[u - np];
            }
        }
    }
    f.split_off(m * width)
}

/// P(S ≥ k) for a statistic with the given counts.
pub fn upper_tail(counts: &[f64], k: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    let start = k.ceil().max(0.0) as usize;
    if start >= counts.len() {
        return 0.0;
    }
    counts[start..].iter().sum::<f64>() / total
}

/// P(S ≤ k) for a statistic with the given counts.
pub fn lower_tail(counts: &[f64], k: f64) -> f64 {
    let total: f64 = counts.iter().sum();
    if k < 0.0 {
        return 0.0;
    }
    let end = (k.floor() as usize).min(counts.len() - 1);
    counts[..=end].iter().sum::<f64>() / total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_rank_small_n() {
        // n = 3: sums of subsets of {1,2,3}: 0,1,2,3,3,4,5,6
        assert_eq!(signed_rank_counts(3), vec![1., 1., 1., 2., 1., 1., 1.]);
        let c = signed_rank_counts(10);
        assert_eq!(c.iter().sum::<f64>(), 1024.0);
        // P(W+ <= 8) for n = 10 is 25/1024 (standard tables: 0.0244)
        assert!((lower_tail(&c, 8.0) - 25.0 / 1024.0).abs() < 1e-15);
    }

    #[test]
    fn rank_sum_small() {
        // m = 2, n = 2: U ∈ {0,1,2,2,3,4} → counts 1,1,2,1,1
        assert_eq!(rank_sum_counts(2, 2), vec![1., 1., 2., 1., 1.]);
        let c = rank_sum_counts(3, 5);
        assert_eq!(c.iter().sum::<f64>(), 56.0);
        assert_eq!(rank_sum_counts(5, 3), c);
        // symmetric around m n / 2
        for u in 0..c.len() {
            assert_eq!(c[u], c[c.len() - 1 - u]);
        }
        assert!((upper_tail(&c, 0.0) - 1.0).abs() < 1e-15);
        assert_eq!(upper_tail(&c, 16.0), 0.0);
        let big = rank_sum_counts(50, 50);
        assert!((big.iter().sum::<f64>() / 1.008_913_445_455_642e29 - 1.0).abs() < 1e-12);
    }
}
