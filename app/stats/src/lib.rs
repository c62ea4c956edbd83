//! Pure statistics: numbers in, numbers out. No I/O, no async, no global state.
//!
//! Every function checks its input and returns [`StatsError`] instead of a silent NaN: an
//! empty sample, too few values, a non-finite value, or a statistic that is undefined for the
//! data (zero variance, every difference zero) is an error that says which.
//!
//! Conventions shared by the tests:
//! - [`Alternative::Greater`] means "the first sample (or the paired difference `x − y`) tends
//!   to be larger"; `Less` the opposite; `TwoSided` either.
//! - The statistic reported is the one SciPy reports for the same call, so results can be
//!   compared like for like (`t`; `W⁺` = sum of positive ranks for the signed-rank test, for
//!   every alternative; `U₁` = Mann–Whitney U of the first sample).
//! - Rank tests choose the exact null distribution for small samples without ties (and, for
//!   the signed-rank test, without zeros left in the ranking) and otherwise the normal
//!   approximation with tie correction and continuity correction. The result says which
//!   ([`PMethod`]).
//!
//! Distributions come from `statrs` (Student's t, normal, beta). Every test is checked against
//! SciPy on thousands of generated cases (`tests/fixtures/stats/generate.py`, see
//! `scipy_fixtures.rs`).

pub mod agreement;
pub mod correlation;
pub mod describe;
pub mod exact;
pub mod longitudinal;
pub mod rank;
pub mod resample;
pub mod sign;
pub mod ttest;
pub mod williams;

#[cfg(test)]
mod properties;
#[cfg(test)]
mod scipy_fixtures;

use serde::{Deserialize, Serialize};

pub use agreement::{
    Agreement, AgreementPairs, LabelledJudgment, LandisKoch, agreement, categories_by_percentile,
    clopper_pearson, cohen_kappa,
};
pub use correlation::{KendallTest, kendall_tau_b, kendall_tau_b_test, pearson, pearson_test, spearman};
pub use describe::{mean, mean_sd, zscores};
pub use longitudinal::{
    CalibratedScores, Gain, GainIntervals, GainSummary, GainWithInterval, Interval, PairSegments,
    SegmentSum, bootstrap_gains, gain, mean_gain,
};
pub use rank::{
    MethodChoice, RankSumOptions, RankSumStats, SignedRankOptions, SortedRuns, ZeroMethod, rank_sum, rank_sum_sorted,
    signed_rank,
};
pub use resample::{
    BootstrapCi, RandomizedResult, RandomizedTest, SplitMix64, approximate_randomization,
    bootstrap_ci, bootstrap_cis, bootstrap_test, paired_bootstrap,
};
pub use sign::sign_test;
pub use ttest::{one_sample_t, paired_t, welch_t};
pub use williams::{WilliamsResult, williams, williams_from_data};

/// Why a statistic could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    #[error("{what}: empty input")]
    Empty { what: &'static str },
    #[error("{what}: needs at least {needed} values, got {got}")]
    TooFew {
        what: &'static str,
        needed: usize,
        got: usize,
    },
    #[error("{what}: the inputs have different lengths ({left} and {right})")]
    LengthMismatch {
        what: &'static str,
        left: usize,
        right: usize,
    },
    #[error("{what}: value {index} is not a finite number")]
    NonFinite { what: &'static str, index: usize },
    #[error("{what}: every value is the same (zero variance), the statistic is undefined")]
    ZeroVariance { what: &'static str },
    #[error("{what}: every difference is zero, there is nothing to rank")]
    AllZero { what: &'static str },
    #[error("{what}: {message}")]
    Invalid { what: &'static str, message: String },
}

pub type Result<T> = std::result::Result<T, StatsError>;

/// The alternative hypothesis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    TwoSided,
    /// The first sample (or the difference `x − y`) is larger.
    Greater,
    /// The first sample (or the difference `x − y`) is smaller.
    Less,
}

impl Alternative {
    /// The same hypothesis seen with the two samples swapped.
    pub fn mirrored(self) -> Alternative {
        match self {
            Alternative::TwoSided => Alternative::TwoSided,
            Alternative::Greater => Alternative::Less,
            Alternative::Less => Alternative::Greater,
        }
    }
}

/// Which test produced a [`TestResult`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestKind {
    /// Student's t on paired differences (or one sample against a hypothesised mean).
    PairedT,
    /// Welch's unequal-variance two-sample t.
    WelchT,
    /// Wilcoxon signed-rank test on paired differences.
    SignedRank,
    /// Wilcoxon rank-sum / Mann–Whitney U test on two independent samples.
    RankSum,
}

/// How the p-value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PMethod {
    /// Student's t distribution.
    StudentT,
    /// The exact null distribution of the rank statistic (no ties, no zeros).
    Exact,
    /// Normal approximation with tie correction (and continuity correction when
    /// `continuity_correction` is set in the result).
    Normal,
    /// The statistic is infinite (a constant non-zero difference, or two constant samples with
    /// different means): the p-value is the limit, 0 or 1.
    Degenerate,
}

/// The outcome of a two-sample or paired test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestResult {
    pub test: TestKind,
    pub alternative: Alternative,
    /// `t`, `W⁺` or `U₁` (see the module documentation).
    pub statistic: f64,
    pub p_value: f64,
    pub method: PMethod,
    /// Degrees of freedom of a t test.
    pub df: Option<f64>,
    /// The standardised statistic of a normal approximation (after continuity correction).
    pub z: Option<f64>,
    /// Values (or pairs) that entered the test; for the signed-rank test with zeros dropped,
    /// the number of non-zero differences.
    pub n: usize,
    /// Size of the second sample of a two-sample test.
    pub n2: Option<usize>,
    /// Differences equal to zero (paired tests).
    pub zeros: usize,
    /// Whether tied values were present in the ranking (rank tests).
    pub ties: bool,
    pub continuity_correction: bool,
    /// Mean of `x − y` (paired tests) or mean(x) − mean(y) (two-sample tests).
    pub mean_difference: f64,
}

/// Rejects empty input and non-finite values.
pub(crate) fn check_finite(what: &'static str, xs: &[f64]) -> Result<()> {
    if xs.is_empty() {
        return Err(StatsError::Empty { what });
    }
    match xs.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(StatsError::NonFinite { what, index }),
        None => Ok(()),
    }
}

pub(crate) fn check_paired(what: &'static str, x: &[f64], y: &[f64]) -> Result<()> {
    if x.len() != y.len() {
        return Err(StatsError::LengthMismatch {
            what,
            left: x.len(),
            right: y.len(),
        });
    }
    check_finite(what, x)?;
    check_finite(what, y)
}

/// Upper tail of the standard normal, P(Z ≥ z), accurate far into the tail.
pub(crate) fn normal_sf(z: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(z / std::f64::consts::SQRT_2)
}

/// Lower tail of the standard normal, P(Z ≤ z).
pub(crate) fn normal_cdf(z: f64) -> f64 {
    normal_sf(-z)
}

/// p-value of a standard-normal statistic for an alternative.
pub(crate) fn normal_pvalue(z: f64, alternative: Alternative) -> f64 {
    match alternative {
        Alternative::Greater => normal_sf(z),
        Alternative::Less => normal_cdf(z),
        Alternative::TwoSided => (2.0 * normal_sf(z.abs())).min(1.0),
    }
}
