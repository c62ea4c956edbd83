//! The design benchmark (issue 39 item 4): simulated campaigns run under the uniform design (as
//! today) and the adaptive one, both stopped by the same rule (every pair decided or too close,
//! or the budget spent), looking after every HIT.
//!
//! The model is the simulator's ([`crate::simulate`]): each system has a true mean quality; a
//! segment has a difficulty (normal, sd `segment_sd`) shared by the systems' outputs of it; an
//! output's quality is its system's mean + the difficulty + its own noise (sd `output_sd`),
//! clamped to 0–100. Each segment a HIT uses is drawn afresh (a test set large enough never to
//! run out), so the observations of a pair are independent and have the mean difference of the
//! truth (up to the clamping, which keeps the order). A HIT is done by one worker drawn from the
//! crowd shares: careful, noisy and careless (a random clicker), the simulator's
//! [`SimulatedWorker`]s. Every HIT is built by the usual builder ([`super::next_hit`]), so it
//! has its bad references, repeats and references; every item counts as a judgment, but only
//! SYSTEM items feed the decisions (no worker is excluded during the campaign: careless workers
//! only add noise, which the confidence sequences absorb).

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{AdaptiveError, AdaptiveSettings, Allocation, Decisions, Verdict, next_hit};
use crate::hit::HitDesign;
use crate::model::ItemType;
use crate::simulate::{SimulatedWorker, WorkerKind};

/// Shares of the crowd's worker kinds (they sum to 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrowdShares {
    pub careful: f64,
    pub noisy: f64,
    pub careless: f64,
}

impl Default for CrowdShares {
    fn default() -> Self {
        CrowdShares { careful: 0.7, noisy: 0.2, careless: 0.1 }
    }
}

/// Why a benchmark cannot run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BenchError {
    #[error("line {line} of the truth file: {problem}")]
    Truth { line: usize, problem: String },
    #[error("the truth file names {0} systems; the benchmark needs at least two")]
    TooFewSystems(usize),
    #[error("--crowd: {0}")]
    Crowd(String),
    #[error("the number of runs must be at least 1")]
    NoRuns,
    #[error("{0}")]
    Adaptive(#[from] AdaptiveError),
}

impl CrowdShares {
    /// `careful=0.7,noisy=0.2,careless=0.1` (kinds omitted count 0; the shares must sum to 1).
    pub fn parse(text: &str) -> Result<Self, BenchError> {
        let mut c = CrowdShares { careful: 0.0, noisy: 0.0, careless: 0.0 };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| BenchError::Crowd(format!("{part:?} is not kind=share")))?;
            let v: f64 = value.trim().parse().map_err(|_| BenchError::Crowd(format!("{value:?} is not a number")))?;
            if !(0.0..=1.0).contains(&v) {
                return Err(BenchError::Crowd(format!("the share of {name} must be between 0 and 1, not {v}")));
            }
            match name.trim() {
                "careful" => c.careful = v,
                "noisy" => c.noisy = v,
                "careless" => c.careless = v,
                other => return Err(BenchError::Crowd(format!("unknown kind {other:?} (careful, noisy, careless)"))),
            }
        }
        let sum = c.careful + c.noisy + c.careless;
        if (sum - 1.0).abs() > 1e-9 {
            return Err(BenchError::Crowd(format!("the shares sum to {sum}, not 1")));
        }
        Ok(c)
    }

    fn draw(&self, rng: &mut ChaCha8Rng) -> WorkerKind {
        let u: f64 = rng.random();
        if u < self.careful {
            WorkerKind::Careful
        } else if u < self.careful + self.noisy {
            WorkerKind::Noisy
        } else {
            WorkerKind::RandomClicker
        }
    }
}

/// Reads a truth file: `system<TAB>mean` lines (mean on 0–100); blank lines and `#` comments
/// skipped; a header line `system<TAB>mean` allowed.
pub fn parse_truth(text: &str) -> Result<Vec<(String, f64)>, BenchError> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let bad = |problem: String| BenchError::Truth { line: i + 1, problem };
        let (name, mean) = line.split_once('\t').ok_or_else(|| bad("expected system<TAB>mean".into()))?;
        if out.is_empty() && name.trim() == "system" && mean.trim() == "mean" {
            continue;
        }
        let mean: f64 = mean.trim().parse().map_err(|_| bad(format!("{:?} is not a number", mean.trim())))?;
        if !(0.0..=100.0).contains(&mean) {
            return Err(bad(format!("the mean must be on the 0–100 scale, not {mean}")));
        }
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("the system has no name".into()));
        }
        if out.iter().any(|(n, _)| n == name) {
            return Err(bad(format!("system {name} is listed twice")));
        }
        out.push((name.to_string(), mean));
    }
    if out.len() < 2 {
        return Err(BenchError::TooFewSystems(out.len()));
    }
    Ok(out)
}

/// Which design a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Design {
    Adaptive,
    Uniform,
}

impl Design {
    pub fn name(self) -> &'static str {
        match self {
            Design::Adaptive => "adaptive",
            Design::Uniform => "uniform",
        }
    }
}

/// A benchmark's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchConfig {
    pub truth: Vec<(String, f64)>,
    pub crowd: CrowdShares,
    pub runs: usize,
    pub seed: u64,
    pub settings: AdaptiveSettings,
    pub design: HitDesign,
    pub segment_sd: f64,
    pub output_sd: f64,
    pub reference_quality: f64,
}

impl BenchConfig {
    pub fn new(truth: Vec<(String, f64)>, crowd: CrowdShares, runs: usize, seed: u64, settings: AdaptiveSettings) -> Self {
        let sim = crate::simulate::CrowdConfig::default();
        BenchConfig {
            truth,
            crowd,
            runs,
            seed,
            settings,
            design: HitDesign::default(),
            segment_sd: sim.segment_sd,
            output_sd: sim.output_sd,
            reference_quality: sim.reference_quality,
        }
    }
}

/// One simulated campaign's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunOutcome {
    pub hits: usize,
    /// Every item of every HIT handed out.
    pub judgments: usize,
    /// Pairs decided one way or the other (not "too close").
    pub decided: usize,
    pub too_close: usize,
    /// Pairs decided the wrong way round against the truth (or decided between equal systems).
    pub wrong: usize,
    pub open: usize,
    pub budget_spent: bool,
}

/// A design's figures over the runs (the fields of `design.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DesignSummary {
    pub runs: usize,
    pub judgments_median: f64,
    pub judgments_q1: f64,
    pub judgments_q3: f64,
    /// Summed over the runs.
    pub pairs_decided: usize,
    pub pairs_wrong: usize,
    pub pairs_too_close: usize,
    pub pairs_open: usize,
    /// Runs stopped by the budget rather than by the decisions.
    pub runs_budget_spent: usize,
    /// Runs with at least one pair decided the wrong way round (≤ α expected).
    pub runs_with_a_wrong_pair: usize,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    // Linear interpolation between order statistics (R's type 7, NumPy's default).
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// The seed of run `r` (the same for both designs).
pub fn run_seed(seed: u64, r: usize) -> u64 {
    seed ^ (r as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Runs `config.runs` simulated campaigns of one design.
pub fn run_design(config: &BenchConfig, design: Design) -> Result<DesignSummary, BenchError> {
    if config.runs == 0 {
        return Err(BenchError::NoRuns);
    }
    let outcomes: Vec<RunOutcome> = (0..config.runs).map(|r| simulate_run(config, design, run_seed(config.seed, r))).collect::<Result<_, _>>()?;
    Ok(summarise(&outcomes))
}

pub fn summarise(outcomes: &[RunOutcome]) -> DesignSummary {
    let mut j: Vec<f64> = outcomes.iter().map(|o| o.judgments as f64).collect();
    j.sort_by(f64::total_cmp);
    DesignSummary {
        runs: outcomes.len(),
        judgments_median: quantile(&j, 0.5),
        judgments_q1: quantile(&j, 0.25),
        judgments_q3: quantile(&j, 0.75),
        pairs_decided: outcomes.iter().map(|o| o.decided).sum(),
        pairs_wrong: outcomes.iter().map(|o| o.wrong).sum(),
        pairs_too_close: outcomes.iter().map(|o| o.too_close).sum(),
        pairs_open: outcomes.iter().map(|o| o.open).sum(),
        runs_budget_spent: outcomes.iter().filter(|o| o.budget_spent).count(),
        runs_with_a_wrong_pair: outcomes.iter().filter(|o| o.wrong > 0).count(),
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// One simulated campaign, deterministic from `seed`.
pub fn simulate_run(config: &BenchConfig, design: Design, seed: u64) -> Result<RunOutcome, BenchError> {
    simulate_run_until(config, design, seed, true)
}

/// [`simulate_run`]; with `stop_when_settled` false, the campaign runs until its budget is
/// spent whatever the decisions say (a uniform design as launched without adaptive allocation:
/// every HIT done), the decisions read all along.
pub fn simulate_run_until(config: &BenchConfig, design: Design, seed: u64, stop_when_settled: bool) -> Result<RunOutcome, BenchError> {
    let k = config.truth.len();
    if k < 2 {
        return Err(BenchError::TooFewSystems(k));
    }
    let s = &config.settings;
    let mut decisions = Decisions::new(k, s)?;
    let alloc = Allocation::new(k, &config.design);
    let length = config.design.length;
    let warm_up_hits = ((s.warm_up * s.budget as f64 / length as f64).ceil() as usize).max(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let systems: Vec<String> = config.truth.iter().map(|(n, _)| n.clone()).collect();
    let (mut hits, mut judgments, mut cursor, mut next_segment) = (0usize, 0usize, 0usize, 0usize);
    let mut budget_spent = false;
    while !(stop_when_settled && decisions.settled()) {
        if judgments + length > s.budget {
            budget_spent = true;
            break;
        }
        let first = next_segment;
        let mut fresh = (first..).inspect(|g| next_segment = g + 1);
        let slots = match design {
            Design::Uniform => alloc.uniform(&mut fresh, &mut cursor),
            Design::Adaptive if hits < warm_up_hits => alloc.uniform(&mut fresh, &mut cursor),
            Design::Adaptive if decisions.settled() => alloc.uniform(&mut fresh, &mut cursor),
            Design::Adaptive => alloc.adaptive(&decisions, &mut fresh),
        };
        if slots.is_empty() {
            break;
        }
        // Segment names of this HIT (fresh segments, numbered in the run).
        let names: Vec<String> = (0..next_segment - first).map(|g| g.to_string()).collect();
        let local: super::Slots = slots.iter().map(|&(sys, g)| (sys, g - first)).collect();
        let hit = next_hit(hits, &local, &systems, &names, &config.design, rng.next_u64())?;
        // The segments' difficulties and the outputs' qualities.
        let difficulty: Vec<f64> = names.iter().map(|_| config.segment_sd * normal(&mut rng)).collect();
        let mut worker = SimulatedWorker::new(config.crowd.draw(&mut rng), rng.next_u64());
        let mut by_segment: Vec<Vec<(usize, f64)>> = vec![Vec::new(); names.len()];
        for item in &hit.items {
            if item.item_type != ItemType::System {
                continue;
            }
            let Some(sys) = item.system.as_ref().and_then(|n| systems.iter().position(|x| x == n)) else { continue };
            let g: usize = item.segment.parse().unwrap_or(0);
            let quality = (config.truth[sys].1 + difficulty[g] + config.output_sd * normal(&mut rng)).clamp(0.0, 100.0);
            by_segment[g].push((sys, worker.score(quality)));
        }
        for scores in &by_segment {
            decisions.observe_segment(scores);
        }
        hits += 1;
        judgments += hit.items.len();
    }
    let mut out = RunOutcome { hits, judgments, decided: 0, too_close: 0, wrong: 0, open: 0, budget_spent };
    for p in &decisions.pairs {
        let (ta, tb) = (config.truth[p.a].1, config.truth[p.b].1);
        match p.verdict {
            Verdict::Open => out.open += 1,
            Verdict::TooClose => out.too_close += 1,
            Verdict::FirstBetter => {
                out.decided += 1;
                out.wrong += usize::from(ta <= tb);
            }
            Verdict::SecondBetter => {
                out.decided += 1;
                out.wrong += usize::from(tb <= ta);
            }
        }
    }
    Ok(out)
}
