//! Means, standard deviations, z-scores and quantiles.

use super::{Result, StatsError, check_finite};

/// Arithmetic mean.
pub fn mean(xs: &[f64]) -> Result<f64> {
    check_finite("mean", xs)?;
    Ok(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Mean and **sample** standard deviation (divisor n − 1), computed in two passes for
/// accuracy. Needs at least two values.
pub fn mean_sd(xs: &[f64]) -> Result<(f64, f64)> {
    check_finite("standard deviation", xs)?;
    if xs.len() < 2 {
        return Err(StatsError::TooFew {
            what: "standard deviation",
            needed: 2,
            got: xs.len(),
        });
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let ss: f64 = xs.iter().map(|v| (v - m) * (v - m)).sum();
    Ok((m, (ss / (xs.len() - 1) as f64).sqrt()))
}

/// True when every value equals the first (exactly). Used to detect zero variance without
/// trusting a floating-point sum to come out exactly zero.
pub(crate) fn all_equal(xs: &[f64]) -> bool {
    xs.iter().all(|v| *v == xs[0])
}

/// Standardises a sample: z = (x − mean) / sd, with the sample standard deviation (METHOD §5).
/// A sample whose values are all equal cannot be standardised: [`StatsError::ZeroVariance`].
pub fn zscores(xs: &[f64]) -> Result<Vec<f64>> {
    let (m, sd) = mean_sd(xs)?;
    if all_equal(xs) || sd == 0.0 {
        return Err(StatsError::ZeroVariance { what: "z-scores" });
    }
    Ok(xs.iter().map(|v| (v - m) / sd).collect())
}

/// Quantile of already **sorted** values with linear interpolation between order statistics
/// (Hyndman–Fan type 7, the default of R's `quantile` and NumPy's `percentile`).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> Result<f64> {
    check_finite("quantile", sorted)?;
    if !(0.0..=1.0).contains(&q) {
        return Err(StatsError::Invalid {
            what: "quantile",
            message: format!("q = {q} is outside [0, 1]"),
        });
    }
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Ok(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_sd_and_zscores() {
        let (m, sd) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!(m, 5.0);
        assert!((sd - 2.138_089_935_299_395).abs() < 1e-12);
        let z = zscores(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(z, vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn clear_errors() {
        assert_eq!(mean(&[]), Err(StatsError::Empty { what: "mean" }));
        assert!(matches!(
            mean_sd(&[1.0]),
            Err(StatsError::TooFew {
                needed: 2,
                got: 1,
                ..
            })
        ));
        assert_eq!(
            zscores(&[3.0, 3.0, 3.0]),
            Err(StatsError::ZeroVariance { what: "z-scores" })
        );
        assert!(matches!(
            mean(&[1.0, f64::NAN]),
            Err(StatsError::NonFinite { index: 1, .. })
        ));
    }

    #[test]
    fn type7_quantiles() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile_sorted(&v, 0.0).unwrap(), 1.0);
        assert_eq!(quantile_sorted(&v, 1.0).unwrap(), 4.0);
        assert_eq!(quantile_sorted(&v, 0.5).unwrap(), 2.5);
        assert!((quantile_sorted(&v, 0.025).unwrap() - 1.075).abs() < 1e-12);
    }
}
