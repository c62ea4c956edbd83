//! Student's t tests: one-sample / paired, and Welch's unequal-variance two-sample test.

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::describe::all_equal;
use super::{
    Alternative, PMethod, Result, StatsError, TestKind, TestResult, check_finite, check_paired,
};

/// p-value of a t statistic with `df` degrees of freedom.
pub(crate) fn t_pvalue(t: f64, df: f64, alternative: Alternative) -> f64 {
    let dist = StudentsT::new(0.0, 1.0, df).expect("df > 0 and finite");
    match alternative {
        Alternative::Greater => dist.sf(t),
        Alternative::Less => dist.cdf(t),
        Alternative::TwoSided => (2.0 * dist.sf(t.abs())).min(1.0),
    }
}

/// The limit p-value of an infinite statistic of the given sign.
fn degenerate_pvalue(sign: f64, alternative: Alternative) -> f64 {
    match alternative {
        Alternative::TwoSided => 0.0,
        Alternative::Greater => {
            if sign > 0.0 {
                0.0
            } else {
                1.0
            }
        }
        Alternative::Less => {
            if sign < 0.0 {
                0.0
            } else {
                1.0
            }
        }
    }
}

/// One-sample t test of H0: mean(d) = `mu`.
///
/// Needs two or more values. If every value is the same, the standard error is zero: when that
/// value equals `mu` the statistic is undefined ([`StatsError::ZeroVariance`]); otherwise
/// t = ±∞ and the p-value is its limit (0 or 1), reported as [`PMethod::Degenerate`] — the same
/// answer SciPy gives (`inf`, p = 0).
pub fn one_sample_t(d: &[f64], mu: f64, alternative: Alternative) -> Result<TestResult> {
    const WHAT: &str = "t test";
    check_finite(WHAT, d)?;
    let n = d.len();
    if n < 2 {
        return Err(StatsError::TooFew {
            what: WHAT,
            needed: 2,
            got: n,
        });
    }
    let m = d.iter().sum::<f64>() / n as f64;
    let df = (n - 1) as f64;
    let mut result = TestResult {
        test: TestKind::PairedT,
        alternative,
        statistic: 0.0,
        p_value: 1.0,
        method: PMethod::StudentT,
        df: Some(df),
        z: None,
        n,
        n2: None,
        zeros: d.iter().filter(|v| **v == mu).count(),
        ties: false,
        continuity_correction: false,
        mean_difference: m - mu,
    };
    if all_equal(d) {
        if d[0] == mu {
            return Err(StatsError::ZeroVariance { what: WHAT });
        }
        let sign = (d[0] - mu).signum();
        result.statistic = sign * f64::INFINITY;
        result.p_value = degenerate_pvalue(sign, alternative);
        result.method = PMethod::Degenerate;
        return Ok(result);
    }
    let ss: f64 = d.iter().map(|v| (v - m) * (v - m)).sum();
    let se = (ss / df / n as f64).sqrt();
    let t = (m - mu) / se;
    result.statistic = t;
    result.p_value = t_pvalue(t, df, alternative);
    Ok(result)
}

/// Paired t test on `x − y` (H1 for `Greater`: x tends to exceed y).
pub fn paired_t(x: &[f64], y: &[f64], alternative: Alternative) -> Result<TestResult> {
    check_paired("paired t test", x, y)?;
    let d: Vec<f64> = x.iter().zip(y).map(|(a, b)| a - b).collect();
    one_sample_t(&d, 0.0, alternative)
}

/// Welch's t test for two independent samples with possibly unequal variances,
/// with Welch–Satterthwaite degrees of freedom.
///
/// Each sample needs two or more values. If both samples are constant the statistic is
/// undefined when the means are equal ([`StatsError::ZeroVariance`]) and ±∞ otherwise
/// ([`PMethod::Degenerate`], `df` = n₁ + n₂ − 2 for want of a defined value).
pub fn welch_t(x: &[f64], y: &[f64], alternative: Alternative) -> Result<TestResult> {
    const WHAT: &str = "Welch t test";
    check_finite(WHAT, x)?;
    check_finite(WHAT, y)?;
    let (n1, n2) = (x.len(), y.len());
    if n1 < 2 || n2 < 2 {
        return Err(StatsError::TooFew {
            what: WHAT,
            needed: 2,
            got: n1.min(n2),
        });
    }
    let m1 = x.iter().sum::<f64>() / n1 as f64;
    let m2 = y.iter().sum::<f64>() / n2 as f64;
    let v1 = x.iter().map(|v| (v - m1) * (v - m1)).sum::<f64>() / (n1 - 1) as f64;
    let v2 = y.iter().map(|v| (v - m2) * (v - m2)).sum::<f64>() / (n2 - 1) as f64;
    let mut result = TestResult {
        test: TestKind::WelchT,
        alternative,
        statistic: 0.0,
        p_value: 1.0,
        method: PMethod::StudentT,
        df: None,
        z: None,
        n: n1,
        n2: Some(n2),
        zeros: 0,
        ties: false,
        continuity_correction: false,
        mean_difference: m1 - m2,
    };
    if all_equal(x) && all_equal(y) {
        if x[0] == y[0] {
            return Err(StatsError::ZeroVariance { what: WHAT });
        }
        let sign = (x[0] - y[0]).signum();
        result.statistic = sign * f64::INFINITY;
        result.p_value = degenerate_pvalue(sign, alternative);
        result.method = PMethod::Degenerate;
        result.df = Some((n1 + n2 - 2) as f64);
        return Ok(result);
    }
    let a = v1 / n1 as f64;
    let b = v2 / n2 as f64;
    let se2 = a + b;
    let df = se2 * se2 / (a * a / (n1 - 1) as f64 + b * b / (n2 - 1) as f64);
    let t = (m1 - m2) / se2.sqrt();
    result.statistic = t;
    result.df = Some(df);
    result.p_value = t_pvalue(t, df, alternative);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_t_known_value() {
        // SciPy 1.17: ttest_rel([5,7,9,6,8], [4,6,9,4,6], alternative="greater")
        // → t = 3.2071349029490923, p = 0.016338961668401503, df = 4
        let r = paired_t(
            &[5., 7., 9., 6., 8.],
            &[4., 6., 9., 4., 6.],
            Alternative::Greater,
        )
        .unwrap();
        assert!((r.statistic - 3.207_134_902_949_092_3).abs() < 1e-12);
        assert!((r.p_value - 0.016_338_961_668_401_503).abs() < 1e-12);
        assert_eq!(r.df, Some(4.0));
    }

    #[test]
    fn degenerate_and_errors() {
        let r = paired_t(&[3., 4., 5.], &[1., 2., 3.], Alternative::Greater).unwrap();
        assert_eq!(r.method, PMethod::Degenerate);
        assert_eq!(r.p_value, 0.0);
        assert!(r.statistic.is_infinite());
        assert_eq!(
            paired_t(&[3., 4.], &[3., 4.], Alternative::Greater).unwrap_err(),
            StatsError::ZeroVariance { what: "t test" }
        );
        assert!(matches!(
            paired_t(&[1.], &[0.], Alternative::Greater),
            Err(StatsError::TooFew { .. })
        ));
        assert!(matches!(
            paired_t(&[], &[], Alternative::Greater),
            Err(StatsError::Empty { .. })
        ));
        assert!(matches!(
            paired_t(&[1., 2.], &[0.], Alternative::Greater),
            Err(StatsError::LengthMismatch { .. })
        ));
        assert!(matches!(
            welch_t(&[1., 1.], &[1., 1.], Alternative::TwoSided),
            Err(StatsError::ZeroVariance { .. })
        ));
    }
}
