//! A betting confidence sequence for the mean of a variable bounded in [0, 1] (Waudby-Smith and
//! Ramdas, "Estimating means of bounded random variables by betting", JRSS-B 2024, §5.1: the
//! hedged capital process with predictable plug-in bets), evaluated on a grid of candidate means.
//!
//! For a candidate mean m, after observations x₁…x_t:
//! - K⁺_t(m) = Π (1 + λ⁺_i(m)(x_i − m)), K⁻_t(m) = Π (1 − λ⁻_i(m)(x_i − m));
//! - the hedged capital K±_t(m) = max(θ K⁺_t(m), (1 − θ) K⁻_t(m)), θ = ½;
//! - m is excluded once K±_t(m) ≥ 1/α, and stays excluded (the running intersection, valid
//!   because the sequence is valid at all times at once).
//!
//! The bets are predictable (they use x₁…x_{i−1} only): with μ̂_t = (½ + Σ_{j≤t} x_j)/(t + 1) and
//! σ̂²_t = (¼ + Σ_{j≤t} (x_j − μ̂_j)²)/(t + 1), λ̇_i = √(2 log(2/α) / (σ̂²_{i−1} · i · log(1 + i)))
//! and λ⁺_i(m) = min(λ̇_i, c/m), λ⁻_i(m) = min(λ̇_i, c/(1 − m)), c = ½ (the paper's
//! "predictable plug-in" bets truncated as in its hedged process).
//!
//! The grid has G cells of width 1/G; the candidate of cell j is its midpoint (j + ½)/G. The
//! interval reported is the union of the cells whose midpoints are still in the set: from the
//! lower edge of the lowest to the upper edge of the highest (so the reported interval is never
//! narrower than the set it stands for by more than one cell). Once every candidate is excluded
//! (possible only with probability ≤ α) the interval collapses to the last mean estimate.

use serde::{Deserialize, Serialize};

/// The truncation c of the bets.
pub const BET_CAP: f64 = 0.5;
/// θ of the hedged capital.
pub const HEDGE: f64 = 0.5;
/// Grid cells on [0, 1] by default (0.2 points of a difference on the −100…100 scale).
pub const DEFAULT_GRID: usize = 1000;

/// The confidence sequence of one bounded mean.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BettingCs {
    alpha: f64,
    /// ln(1/α), the exclusion threshold of the log capital.
    threshold: f64,
    grid: usize,
    /// First and one-past-last grid cell still in the set (the running intersection is an
    /// interval: the capital is quasi-convex in m, and the set kept is the cells between the
    /// lowest and highest still below the threshold).
    lo: usize,
    hi: usize,
    /// ln K⁺ and ln K⁻ of the cells lo..hi (index j − lo).
    log_plus: Vec<f64>,
    log_minus: Vec<f64>,
    t: usize,
    sum: f64,
    /// Σ (x_j − μ̂_j)².
    sq: f64,
    empty: bool,
}

impl BettingCs {
    /// A sequence at level 1 − α with `grid` cells (α in (0, 1), grid ≥ 2; the caller checks).
    pub fn new(alpha: f64, grid: usize) -> Self {
        let grid = grid.max(2);
        BettingCs {
            alpha,
            threshold: (1.0 / alpha).ln(),
            grid,
            lo: 0,
            hi: grid,
            log_plus: vec![0.0; grid],
            log_minus: vec![0.0; grid],
            t: 0,
            sum: 0.0,
            sq: 0.0,
            empty: false,
        }
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Observations so far.
    pub fn n(&self) -> usize {
        self.t
    }

    /// μ̂_t = (½ + Σ x)/(t + 1).
    pub fn mean_estimate(&self) -> f64 {
        (0.5 + self.sum) / (self.t as f64 + 1.0)
    }

    /// The bet λ̇ for the next observation (before it is seen).
    pub fn next_bet(&self) -> f64 {
        let i = (self.t + 1) as f64;
        let var = (0.25 + self.sq) / i; // σ̂²_{t} with t observations: (¼ + Σ)/(t + 1)
        (2.0 * (2.0 / self.alpha).ln() / (var * i * (1.0 + i).ln())).sqrt()
    }

    fn midpoint(&self, j: usize) -> f64 {
        (j as f64 + 0.5) / self.grid as f64
    }

    /// Adds one observation, clamped to [0, 1].
    pub fn push(&mut self, x: f64) {
        let x = if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) };
        let bet = self.next_bet();
        if !self.empty {
            let (ln_theta, ln_one_minus) = (HEDGE.ln(), (1.0 - HEDGE).ln());
            let mut keep_lo = None;
            let mut keep_hi = self.lo;
            for j in self.lo..self.hi {
                let m = self.midpoint(j);
                let k = j - self.lo;
                let plus = bet.min(BET_CAP / m);
                let minus = bet.min(BET_CAP / (1.0 - m));
                self.log_plus[k] += (plus * (x - m)).ln_1p();
                self.log_minus[k] += (-minus * (x - m)).ln_1p();
                let hedged = (ln_theta + self.log_plus[k]).max(ln_one_minus + self.log_minus[k]);
                if hedged < self.threshold {
                    keep_lo.get_or_insert(j);
                    keep_hi = j + 1;
                }
            }
            match keep_lo {
                None => self.empty = true,
                Some(lo) => {
                    let (a, b) = (lo - self.lo, keep_hi - self.lo);
                    self.log_plus.copy_within(a..b, 0);
                    self.log_minus.copy_within(a..b, 0);
                    self.log_plus.truncate(b - a);
                    self.log_minus.truncate(b - a);
                    self.lo = lo;
                    self.hi = keep_hi;
                }
            }
        }
        self.t += 1;
        self.sum += x;
        let mu = self.mean_estimate();
        self.sq += (x - mu) * (x - mu);
    }

    /// The interval [lower, upper] ⊂ [0, 1] valid at all times at level 1 − α.
    pub fn interval(&self) -> (f64, f64) {
        if self.empty {
            let m = self.mean_estimate();
            return (m, m);
        }
        (self.lo as f64 / self.grid as f64, self.hi as f64 / self.grid as f64)
    }

    /// The log hedged capital of the candidate in cell `j`, if the cell is still in the set.
    pub fn log_capital(&self, j: usize) -> Option<f64> {
        (!self.empty && (self.lo..self.hi).contains(&j)).then(|| {
            let k = j - self.lo;
            (HEDGE.ln() + self.log_plus[k]).max((1.0 - HEDGE).ln() + self.log_minus[k])
        })
    }

    /// The grid cells still in the set: `lo..hi`.
    pub fn cells(&self) -> std::ops::Range<usize> {
        if self.empty { 0..0 } else { self.lo..self.hi }
    }
}
