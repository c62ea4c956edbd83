//! The designer's dry run of an adaptive design (issue 39 item 5; here rather than beside
//! `simulate::dry_run`, since the adaptive engine uses the simulator's workers): the uniform design (every
//! HIT built at launch and done) and the adaptive one (a warm-up, then HITs where pairs are
//! open, stopped when every pair is decided or too close, or at the budget) simulated on the
//! same runs, their expected cost side by side: judgments, HIT assignments, money and decisions.
//!
//! The simulation is the design benchmark's ([`crate::adaptive::bench`]): systems of true
//! qualities spread evenly around 60 (as the dry run spreads them), outputs with a segment's
//! difficulty and their own noise, each HIT done by one worker of the crowd's mix (careful,
//! noisy, careless), built by the usual builder; the uniform design's decisions are read with
//! the same anytime-valid sequences after its last HIT, so that both say what they decide.

use super::AdaptiveSettings;
use super::bench::{BenchConfig, BenchError, CrowdShares, Design, RunOutcome, run_seed, simulate_run_until};
use crate::adaptive_design::AdaptiveDesign;
use crate::hit::HitDesign;
use crate::report::{AdaptiveDryRun, DesignCost, DryRunCrowd};

/// What the dry run needs of a campaign's design.
#[derive(Clone, Debug, PartialEq)]
pub struct AdaptiveDryRunInput {
    pub design: HitDesign,
    pub adaptive: AdaptiveDesign,
    pub systems: usize,
    /// HIT assignments the uniform design would have done (its HITs × workers per HIT).
    pub uniform_assignments: usize,
    pub payment_per_hit: f64,
}

/// Simulates both designs `runs` times (the same seeds for both).
pub fn adaptive_dry_run(input: &AdaptiveDryRunInput, crowd: &DryRunCrowd, runs: usize, seed: u64) -> Result<AdaptiveDryRun, BenchError> {
    if runs == 0 {
        return Err(BenchError::NoRuns);
    }
    let k = input.systems;
    if k < 2 {
        return Err(BenchError::TooFewSystems(k));
    }
    let spread = crowd.spread.clamp(0.0, 80.0);
    let truth: Vec<(String, f64)> = (0..k).map(|i| (format!("sys{:02}", i + 1), 60.0 + spread / 2.0 - spread * i as f64 / (k - 1) as f64)).collect();
    let total = crowd.careful + crowd.noisy + crowd.careless;
    if !(total > 0.0) {
        return Err(BenchError::Crowd("the shares of careful, noisy and careless workers are all 0".into()));
    }
    let shares = CrowdShares { careful: crowd.careful / total, noisy: crowd.noisy / total, careless: crowd.careless / total };
    let length = input.design.length.max(1);
    let uniform_judgments = input.uniform_assignments * length;
    let a = &input.adaptive;
    let settings = |budget: usize| AdaptiveSettings { alpha: a.alpha, delta: a.delta, warm_up: a.warm_up, budget, ..AdaptiveSettings::default() };
    let config = |budget: usize| {
        let mut c = BenchConfig::new(truth.clone(), shares, runs, seed, settings(budget));
        c.design = input.design.clone();
        c
    };
    let uniform = config(uniform_judgments);
    let adaptive = config(a.budget_or(uniform_judgments));
    let mut u = Vec::with_capacity(runs);
    let mut d = Vec::with_capacity(runs);
    for r in 0..runs {
        let s = run_seed(seed, r);
        u.push(simulate_run_until(&uniform, Design::Uniform, s, false)?);
        d.push(simulate_run_until(&adaptive, Design::Adaptive, s, true)?);
    }
    let cost = |outcomes: &[RunOutcome]| -> DesignCost {
        let mut j: Vec<f64> = outcomes.iter().map(|o| o.judgments as f64).collect();
        j.sort_by(f64::total_cmp);
        let median = if j.len() % 2 == 1 { j[j.len() / 2] } else { (j[j.len() / 2 - 1] + j[j.len() / 2]) / 2.0 };
        let mean = |f: fn(&RunOutcome) -> usize| outcomes.iter().map(|o| f(o) as f64).sum::<f64>() / outcomes.len() as f64;
        let assignments = median / length as f64;
        DesignCost {
            judgments: median,
            assignments,
            money: assignments * input.payment_per_hit,
            pairs_decided: mean(|o| o.decided),
            pairs_too_close: mean(|o| o.too_close),
            pairs_open: mean(|o| o.open),
            pairs_wrong: mean(|o| o.wrong),
        }
    };
    Ok(AdaptiveDryRun { runs, pairs: k * (k - 1) / 2, uniform: cost(&u), adaptive: cost(&d) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(systems: usize, assignments: usize) -> AdaptiveDryRunInput {
        AdaptiveDryRunInput {
            design: HitDesign::default(),
            adaptive: AdaptiveDesign { enabled: true, ..AdaptiveDesign::default() },
            systems,
            uniform_assignments: assignments,
            payment_per_hit: 2.5,
        }
    }

    #[test]
    fn both_designs_side_by_side_the_adaptive_one_cheaper_on_separated_systems() {
        // Four systems 30 points apart (10 between neighbours), a careful crowd; the uniform
        // design does 120 HITs of 100 items.
        let crowd = DryRunCrowd { careful: 80.0, noisy: 10.0, careless: 10.0, spread: 30.0, ..DryRunCrowd::default() };
        let r = adaptive_dry_run(&input(4, 120), &crowd, 4, 7).unwrap();
        assert_eq!((r.runs, r.pairs), (4, 6));
        // The uniform design does every HIT: its cost is known without simulation.
        assert_eq!(r.uniform.judgments, 12_000.0);
        assert_eq!(r.uniform.assignments, 120.0);
        assert_eq!(r.uniform.money, 300.0);
        // The adaptive one stops when settled: cheaper, and it decides every pair.
        assert!(r.adaptive.judgments < r.uniform.judgments, "{r:?}");
        assert_eq!(r.adaptive.money, r.adaptive.assignments * 2.5);
        assert_eq!(r.adaptive.judgments, r.adaptive.assignments * 100.0);
        assert_eq!(r.adaptive.pairs_decided, 6.0, "{r:?}");
        assert_eq!(r.adaptive.pairs_wrong, 0.0, "{r:?}");
        assert!(r.uniform.pairs_decided >= r.adaptive.pairs_decided - 1e-9, "the full uniform design decides at least as much: {r:?}");
        for c in [&r.uniform, &r.adaptive] {
            assert!((c.pairs_decided + c.pairs_too_close + c.pairs_open - 6.0).abs() < 1e-9, "{r:?}");
        }
        // Deterministic from the seed.
        assert_eq!(adaptive_dry_run(&input(4, 120), &crowd, 4, 7).unwrap(), r);
    }

    #[test]
    fn a_budget_caps_the_adaptive_design_and_bad_input_is_refused() {
        // Two systems of equal quality (spread 0) and δ = 0: never decided; the adaptive design
        // spends its whole budget of 2,000 judgments (20 HITs), the uniform one its 50 HITs.
        let crowd = DryRunCrowd { spread: 0.0, ..DryRunCrowd::default() };
        let mut i = input(2, 50);
        i.adaptive.budget = 2_000;
        i.adaptive.delta = 0.0;
        let r = adaptive_dry_run(&i, &crowd, 2, 1).unwrap();
        assert_eq!(r.adaptive.judgments, 2_000.0, "{r:?}");
        assert_eq!(r.uniform.judgments, 5_000.0, "{r:?}");
        assert_eq!(r.adaptive.pairs_open, 1.0, "{r:?}");
        assert_eq!(adaptive_dry_run(&i, &crowd, 0, 1), Err(BenchError::NoRuns));
        assert_eq!(adaptive_dry_run(&input(1, 50), &crowd, 2, 1), Err(BenchError::TooFewSystems(1)));
        let nobody = DryRunCrowd { careful: 0.0, noisy: 0.0, careless: 0.0, ..DryRunCrowd::default() };
        assert!(matches!(adaptive_dry_run(&input(3, 50), &nobody, 2, 1), Err(BenchError::Crowd(_))));
    }
}
