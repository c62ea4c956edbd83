//! The exact sign test: of `n` decisive comparisons (ties excluded), `k` went one way. Under the
//! null each goes either way with probability ½, so `k ~ Binomial(n, ½)`. The WMT 2012 ranking
//! declares a system a winner when no other is significantly better by this test (p ≤ 0.10), and
//! Assay's ranking quality control asks whether a worker ranks an original above its degraded
//! copy more often than chance.
//!
//! The p-values are SciPy's `binomtest(k, n, 0.5, alternative)`: one-sided tails, and for the
//! two-sided test the sum of the outcomes no more likely than `k` (for p = ½ the two tails
//! doubled, at most 1). Checked against SciPy in `tests/fixtures/ranking`.

use super::{Alternative, Result, StatsError};

/// ln C(n, i) · (½)ⁿ for every i in 0..=n (the log-probabilities of Binomial(n, ½)).
fn log_pmf(n: u64, i: u64) -> f64 {
    use statrs::function::gamma::ln_gamma;
    let n_f = n as f64;
    ln_gamma(n_f + 1.0) - ln_gamma(i as f64 + 1.0) - ln_gamma((n - i) as f64 + 1.0) - n_f * std::f64::consts::LN_2
}

/// P(X ≤ k) for X ~ Binomial(n, ½), summed from the largest term down (accurate in the far tail).
fn lower_tail(n: u64, k: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    // The terms grow towards n/2; sum them in log space relative to the largest.
    let top = k.min(n / 2);
    let peak = log_pmf(n, top);
    let mut sum = 0.0;
    for i in 0..=k {
        sum += (log_pmf(n, i) - peak).exp();
    }
    (sum.ln() + peak).exp().min(1.0)
}

/// The exact sign test of `wins` against `losses` (ties are excluded before; report them beside
/// the result). `Greater`: the first side wins more often than chance. An error when there is no
/// decisive comparison at all.
pub fn sign_test(wins: u64, losses: u64, alternative: Alternative) -> Result<f64> {
    let n = wins.checked_add(losses).ok_or(StatsError::Invalid { what: "sign test", message: "too many comparisons".into() })?;
    if n == 0 {
        return Err(StatsError::Empty { what: "sign test" });
    }
    let p = match alternative {
        // P(X ≥ wins) = P(X ≤ losses) by symmetry.
        Alternative::Greater => lower_tail(n, losses),
        Alternative::Less => lower_tail(n, wins),
        Alternative::TwoSided => {
            if wins == losses {
                1.0
            } else {
                (2.0 * lower_tail(n, wins.min(losses))).min(1.0)
            }
        }
    };
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases_match_the_binomial_by_hand() {
        // n = 3, k = 3: P(X ≥ 3) = 1/8; two-sided 1/4.
        assert!((sign_test(3, 0, Alternative::Greater).unwrap() - 0.125).abs() < 1e-13);
        assert!((sign_test(3, 0, Alternative::TwoSided).unwrap() - 0.25).abs() < 1e-13);
        assert!((sign_test(3, 0, Alternative::Less).unwrap() - 1.0).abs() < 1e-13);
        // n = 10, k = 8: P(X ≥ 8) = (45 + 10 + 1)/1024.
        assert!((sign_test(8, 2, Alternative::Greater).unwrap() - 56.0 / 1024.0).abs() < 1e-14);
        assert!((sign_test(8, 2, Alternative::TwoSided).unwrap() - 112.0 / 1024.0).abs() < 1e-14);
        assert_eq!(sign_test(5, 5, Alternative::TwoSided).unwrap(), 1.0);
        assert_eq!(sign_test(0, 0, Alternative::Greater), Err(StatsError::Empty { what: "sign test" }));
    }

    #[test]
    fn far_tails_stay_accurate() {
        // P(X ≥ 1000) for n = 1000 is 2^-1000 ≈ 9.33e-302.
        let p = sign_test(1000, 0, Alternative::Greater).unwrap();
        assert!((p / 2f64.powi(-1000) - 1.0).abs() < 1e-9, "{p:e}");
        let q = sign_test(600, 400, Alternative::Greater).unwrap();
        assert!(q > 0.0 && q < 1e-9, "{q:e}");
    }
}
