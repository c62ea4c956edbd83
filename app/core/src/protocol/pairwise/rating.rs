//! A system's line of pairwise-preference ratings ([`Rated`]) and why a system may have no finite
//! rating ([`NoRating`]): always built, so that the results page sends the core's line to the
//! browser and puts it into words there ([`NoRating::describe`]). The ratings themselves are
//! computed by `bradley_terry` (engine only).

use serde::{Deserialize, Serialize};

/// Why a system has no finite rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoRating {
    /// It never won nor tied (a tie counts half a win): its maximum-likelihood rating is −∞.
    NeverWins,
    /// It never lost nor tied: +∞.
    NeverLoses,
    /// It won and lost, but the wins and losses split the systems into groups one of which
    /// never beat the other: it is not in the group that is rated.
    Separated,
}

impl NoRating {
    pub fn describe(self) -> &'static str {
        match self {
            NoRating::NeverWins => "never won nor tied: no finite rating (its maximum-likelihood rating is minus infinity)",
            NoRating::NeverLoses => "never lost nor tied: no finite rating (its maximum-likelihood rating is infinite)",
            NoRating::Separated => "in a group of systems that never beat (or never lost to) the rated ones: no finite rating on their scale",
        }
    }
}

/// One system's line of the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    pub system: String,
    /// Elo-scale rating; `None` when it has no finite maximum ([`Rated::no_rating`] says why).
    pub rating: Option<f64>,
    /// 95% bootstrap interval.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Rank range (1 = best).
    pub rank_low: usize,
    pub rank_high: usize,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// Judgments the system took part in.
    pub n: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_rating: Option<NoRating>,
}

