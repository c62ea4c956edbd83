//! An adaptive campaign's design as the organizer sets it in the designer (issue 39), stored in
//! the campaign's settings (`CampaignSettings::adaptive`). Always compiled: the designer's page
//! reads and writes it in the browser too.

use serde::{Deserialize, Serialize};

/// Whether a campaign allocates its HITs adaptively, and how.
///
/// Off by default. When on, the launch builds the usual HITs but keeps only a warm-up share of
/// them; every later HIT is built when work is handed out, its system outputs drawn where pairs
/// of systems are still open (`crate::adaptive::Allocation::adaptive`, engine builds), and no
/// HIT is built once every pair is decided or too close, or the budget is spent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AdaptiveDesign {
    pub enabled: bool,
    /// Budget in judgments (every item of every worker's HIT counts); 0: as many as the
    /// uniform design built at launch would collect (its HITs × items × redundancy).
    pub budget: usize,
    /// The chance of any wrong ordering, over all pairs and all looks (split over the pairs).
    pub alpha: f64,
    /// Smallest difference that matters, in points on the 0–100 scale.
    pub delta: f64,
    /// Share of the budget spent on warm-up HITs built at launch (at least one HIT).
    pub warm_up: f64,
}

impl Default for AdaptiveDesign {
    fn default() -> Self {
        AdaptiveDesign { enabled: false, budget: 0, alpha: 0.05, delta: 1.0, warm_up: 0.1 }
    }
}

/// Why an adaptive design cannot be launched.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DesignError {
    #[error("α must be between 0 and 1 (exclusive), not {0}")]
    Alpha(f64),
    #[error("the smallest difference that matters must be 0 points or more (and below 100), not {0}")]
    Delta(f64),
    #[error("the warm-up share must be between 0 and 1, not {0}")]
    WarmUp(f64),
    #[error("an adaptive design needs at least two systems, not {0}")]
    TooFewSystems(usize),
    #[error("an adaptive design needs a protocol whose HITs hold single scored outputs (as direct assessment's)")]
    Protocol,
}

/// The checks of an adaptive design's numbers, the one place they are made (the designer's
/// design and the core's decision settings both use them).
pub fn check_numbers(alpha: f64, delta: f64, warm_up: f64) -> Result<(), DesignError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(DesignError::Alpha(alpha));
    }
    if !(delta >= 0.0 && delta < 100.0) {
        return Err(DesignError::Delta(delta));
    }
    if !(0.0..=1.0).contains(&warm_up) {
        return Err(DesignError::WarmUp(warm_up));
    }
    Ok(())
}

/// Decisions between systems need two systems at least.
pub fn check_systems(systems: usize) -> Result<(), DesignError> {
    if systems < 2 {
        return Err(DesignError::TooFewSystems(systems));
    }
    Ok(())
}

impl AdaptiveDesign {
    /// Checks the organizer's numbers (when on; an adaptive design that is off is never read).
    pub fn check(&self, systems: usize) -> Result<(), DesignError> {
        if !self.enabled {
            return Ok(());
        }
        check_numbers(self.alpha, self.delta, self.warm_up)?;
        check_systems(systems)
    }

    /// The budget in judgments, given what the uniform design would collect.
    pub fn budget_or(&self, uniform_judgments: usize) -> usize {
        if self.budget == 0 { uniform_judgments } else { self.budget }
    }

    /// Warm-up HITs out of `uniform_hits` built at launch, each worth `per_hit` judgments
    /// (items × redundancy): at least one, at most all of them.
    pub fn warm_up_hits(&self, uniform_hits: usize, per_hit: usize) -> usize {
        let budget = self.budget_or(uniform_hits * per_hit);
        let wanted = (self.warm_up * budget as f64 / per_hit.max(1) as f64).ceil() as usize;
        wanted.clamp(1, uniform_hits.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_is_off_by_default_and_checks_its_numbers() {
        let d = AdaptiveDesign::default();
        assert!(!d.enabled);
        assert_eq!(d.check(1), Ok(()), "an adaptive design that is off is never read");
        let on = AdaptiveDesign { enabled: true, ..d };
        assert_eq!(on.check(3), Ok(()));
        assert_eq!(on.check(1), Err(DesignError::TooFewSystems(1)));
        assert_eq!(AdaptiveDesign { alpha: 0.0, ..on }.check(3), Err(DesignError::Alpha(0.0)));
        assert_eq!(AdaptiveDesign { delta: -1.0, ..on }.check(3), Err(DesignError::Delta(-1.0)));
        assert_eq!(AdaptiveDesign { warm_up: 1.5, ..on }.check(3), Err(DesignError::WarmUp(1.5)));
    }

    #[test]
    fn the_warm_up_is_a_share_of_the_budget_in_whole_hits() {
        let d = AdaptiveDesign { enabled: true, warm_up: 0.1, ..Default::default() };
        // 20 uniform HITs of 100 items × 2 workers: budget 4,000, warm-up 400 = 2 HITs.
        assert_eq!(d.budget_or(4_000), 4_000);
        assert_eq!(d.warm_up_hits(20, 200), 2);
        // A share below one HIT is one HIT; above all of them, all of them.
        assert_eq!(AdaptiveDesign { warm_up: 0.0, ..d }.warm_up_hits(20, 200), 1);
        assert_eq!(AdaptiveDesign { warm_up: 1.0, budget: 100_000, ..d }.warm_up_hits(20, 200), 20);
        assert_eq!(AdaptiveDesign { budget: 1_000, ..d }.budget_or(4_000), 1_000);
    }
}
