//! Adaptive campaigns (issue 39): anytime-valid decisions between systems, a stopping rule and
//! the allocation of the next HIT's system outputs to the pairs still open.
//!
//! **Observations.** A pair of systems (A, B) gets one observation from each segment whose
//! outputs of both systems the same worker judged in the same HIT (SYSTEM items only; quality-
//! control items never count): d = score(A) − score(B) on the 0–100 scale, mapped to
//! x = (d + 100)/200 ∈ [0, 1]. The same worker judging both outputs removes that worker's bias
//! from d.
//!
//! **Decisions.** Each pair has a betting confidence sequence ([`cs::BettingCs`]) for the mean of
//! x at level 1 − α/P, P the number of pairs (Bonferroni: α split evenly over the pairs, so the
//! chance that *any* pair is ever decided the wrong way round stays ≤ α, however often one looks).
//! Mapped back to points, the interval [lo, hi] of the mean difference gives: A better if lo > 0,
//! B better if hi < 0, too close to matter if −δ ≤ lo and hi ≤ δ (δ default 1 point), open
//! otherwise. A decision, once made, is kept (the intervals are valid at all times at once, so
//! the first decision is as valid as any later one).
//!
//! **Stopping rule.** Stop when no pair is open, or when the budget (judgments) is spent.
//!
//! **Clusters and rank ranges** from the decisions: a system's rank range runs from 1 + the
//! number of systems decided better to N − the number decided worse (the WMT rule); systems are
//! ordered by their mean observed score, and a cluster boundary falls between two neighbours
//! when every system above it is decided better than every system below it.
//!
//! **Allocation** ([`Allocation`]): a warm-up share of HITs is built as today (all systems'
//! outputs of each segment, in turn); after it, each HIT's system slots are filled chunk by
//! chunk: the open pair whose interval one more observation narrows most (width/(n + 1), n its
//! observations counting those already planned for this HIT) opens a chunk with its two systems;
//! systems with an open pair to a chunk member join it (most weight first) while slots remain;
//! the chunk takes one segment, in the product where the open pair's outputs differ most
//! ([`segments::SegmentPicker`]: character edit distance, discounted by use). The
//! chosen outputs are then made into a HIT by the usual builder ([`crate::hit::build_hit_from`]:
//! bad references, repeats and references as today).

#[cfg(feature = "engine")]
pub mod bench;
pub mod cs;
#[cfg(feature = "engine")]
pub mod dry_run;
#[cfg(feature = "engine")]
pub mod precision;
#[cfg(feature = "engine")]
pub mod replay;
pub mod segments;

use serde::{Deserialize, Serialize};

pub use cs::BettingCs;
pub use crate::adaptive_design::{AdaptiveDesign, DesignError};
use crate::adaptive_design::{check_numbers, check_systems};

#[cfg(feature = "engine")]
use crate::hit::{Candidate, Hit, HitDesign, HitError};

/// Settings of an adaptive design.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveSettings {
    /// The chance of any wrong ordering, over all pairs and all looks.
    pub alpha: f64,
    /// Smallest difference that matters, in points on the 0–100 scale.
    pub delta: f64,
    /// Share of the budget spent on warm-up HITs built as today (at least one HIT).
    pub warm_up: f64,
    /// Budget in judgments (every item of a HIT counts).
    pub budget: usize,
    /// Grid cells of the confidence sequences.
    pub grid: usize,
}

impl Default for AdaptiveSettings {
    fn default() -> Self {
        AdaptiveSettings { alpha: 0.05, delta: 1.0, warm_up: 0.05, budget: 200_000, grid: cs::DEFAULT_GRID }
    }
}

/// Why adaptive settings cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AdaptiveError {
    /// The design's own numbers (α, δ, warm-up, systems): checked in `adaptive_design` only.
    #[error(transparent)]
    Design(#[from] DesignError),
    #[error("the confidence sequences need at least 10 grid cells, not {0}")]
    Grid(usize),
    #[cfg(feature = "engine")]
    #[error("cannot build the HIT: {0}")]
    Hit(#[from] HitError),
}

impl AdaptiveSettings {
    pub fn validate(&self) -> Result<(), AdaptiveError> {
        check_numbers(self.alpha, self.delta, self.warm_up)?;
        if self.grid < 10 {
            return Err(AdaptiveError::Grid(self.grid));
        }
        Ok(())
    }
}

/// The state of one pair of systems (indices a < b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Open,
    /// The first system (a) is better.
    FirstBetter,
    /// The second system (b) is better.
    SecondBetter,
    /// The difference lies within ±δ.
    TooClose,
}

/// One pair's sequence and verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairState {
    pub a: usize,
    pub b: usize,
    pub cs: BettingCs,
    pub verdict: Verdict,
    /// Observations when the verdict was reached.
    pub decided_at: Option<usize>,
}

impl PairState {
    /// The interval of the mean difference a − b, in points.
    pub fn difference(&self) -> (f64, f64) {
        let (lo, hi) = self.cs.interval();
        (200.0 * lo - 100.0, 200.0 * hi - 100.0)
    }
}

/// Anytime-valid decisions between every pair of `k` systems.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decisions {
    pub systems: usize,
    pub delta: f64,
    /// α per pair (α / P).
    pub alpha_pair: f64,
    pub pairs: Vec<PairState>,
    /// Sum and count of each system's SYSTEM-item scores (for the order of the clusters).
    sums: Vec<(f64, usize)>,
}

impl Decisions {
    pub fn new(systems: usize, settings: &AdaptiveSettings) -> Result<Self, AdaptiveError> {
        settings.validate()?;
        check_systems(systems)?;
        let p = systems * (systems - 1) / 2;
        let alpha_pair = settings.alpha / p as f64;
        let pairs = (0..systems)
            .flat_map(|a| (a + 1..systems).map(move |b| (a, b)))
            .map(|(a, b)| PairState { a, b, cs: BettingCs::new(alpha_pair, settings.grid), verdict: Verdict::Open, decided_at: None })
            .collect();
        Ok(Decisions { systems, delta: settings.delta, alpha_pair, pairs, sums: vec![(0.0, 0); systems] })
    }

    /// Index of pair (a, b), a ≠ b, in `pairs`.
    pub fn pair_index(&self, a: usize, b: usize) -> usize {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        // Pairs (0,1)…(0,k−1), (1,2)…: offset of row a is a·k − a(a+1)/2.
        a * self.systems - a * (a + 1) / 2 + (b - a - 1)
    }

    /// One segment's scores by the same worker: `(system, score)` for each SYSTEM item of that
    /// segment in the HIT. Every pair among them gets one observation.
    pub fn observe_segment(&mut self, scores: &[(usize, f64)]) {
        for &(s, x) in scores {
            self.sums[s].0 += x;
            self.sums[s].1 += 1;
        }
        for (i, &(a, xa)) in scores.iter().enumerate() {
            for &(b, xb) in &scores[i + 1..] {
                if a == b {
                    continue;
                }
                let idx = self.pair_index(a, b);
                let d = if a < b { xa - xb } else { xb - xa };
                self.observe_pair(idx, d);
            }
        }
    }

    /// One observation of pair `idx`: the difference first − second in points.
    pub fn observe_pair(&mut self, idx: usize, difference: f64) {
        let delta = self.delta;
        let p = &mut self.pairs[idx];
        p.cs.push((difference + 100.0) / 200.0);
        if p.verdict == Verdict::Open {
            let (lo, hi) = p.difference();
            let v = if lo > 0.0 {
                Verdict::FirstBetter
            } else if hi < 0.0 {
                Verdict::SecondBetter
            } else if lo >= -delta && hi <= delta {
                Verdict::TooClose
            } else {
                Verdict::Open
            };
            if v != Verdict::Open {
                p.verdict = v;
                p.decided_at = Some(p.cs.n());
            }
        }
    }

    pub fn open(&self) -> usize {
        self.pairs.iter().filter(|p| p.verdict == Verdict::Open).count()
    }

    /// Whether every pair is decided or too close (the stopping rule without the budget).
    pub fn settled(&self) -> bool {
        self.open() == 0
    }

    /// Whether system `x` is decided better than system `y`.
    pub fn better(&self, x: usize, y: usize) -> bool {
        if x == y {
            return false;
        }
        let p = &self.pairs[self.pair_index(x, y)];
        match p.verdict {
            Verdict::FirstBetter => p.a == x,
            Verdict::SecondBetter => p.b == x,
            Verdict::Open | Verdict::TooClose => false,
        }
    }

    /// Mean observed score of each system (NaN when never observed).
    pub fn means(&self) -> Vec<f64> {
        self.sums.iter().map(|&(s, n)| if n == 0 { f64::NAN } else { s / n as f64 }).collect()
    }

    /// Each system's rank range (1-based, inclusive): 1 + #better … N − #worse.
    pub fn rank_ranges(&self) -> Vec<(usize, usize)> {
        let k = self.systems;
        (0..k)
            .map(|s| {
                let above = (0..k).filter(|&o| self.better(o, s)).count();
                let below = (0..k).filter(|&o| self.better(s, o)).count();
                (1 + above, k - below)
            })
            .collect()
    }

    /// Clusters of systems, best first: systems ordered by mean score; a boundary between two
    /// neighbours when every system above is decided better than every system below.
    pub fn clusters(&self) -> Vec<Vec<usize>> {
        let means = self.means();
        let mut order: Vec<usize> = (0..self.systems).collect();
        order.sort_by(|&x, &y| means[y].total_cmp(&means[x]).then(x.cmp(&y)));
        let mut out: Vec<Vec<usize>> = vec![Vec::new()];
        for (i, &s) in order.iter().enumerate() {
            if i > 0 && order[..i].iter().all(|&u| order[i..].iter().all(|&l| self.better(u, l))) {
                out.push(Vec::new());
            }
            out.last_mut().expect("one cluster at least").push(s);
        }
        out
    }
}

#[cfg(feature = "engine")]
/// Which outputs the next HIT's system slots hold: `(system, segment)` indices.
pub type Slots = Vec<(usize, usize)>;

/// Chooses system outputs for HITs, uniformly or adaptively.
#[cfg(feature = "engine")]
#[derive(Clone, Debug)]
pub struct Allocation {
    pub systems: usize,
    /// System slots per HIT (70 by default).
    pub slots: usize,
    /// Distinct segments a HIT needs at least (its references: 10 by default).
    pub min_segments: usize,
}

#[cfg(feature = "engine")]
impl Allocation {
    pub fn new(systems: usize, design: &HitDesign) -> Self {
        Allocation { systems, slots: design.system_items(), min_segments: design.refs.max(1) }
    }

    /// Most systems on one segment of a HIT, so that it keeps `min_segments` segments.
    pub fn max_chunk(&self) -> usize {
        (self.slots / self.min_segments).max(2)
    }

    /// Uniform (as today): ⌈slots/k⌉ segments (at least `min_segments`), each with an equal
    /// share of the slots; a segment with fewer slots than systems takes the next systems of a
    /// rotating `cursor`, so that every pair of systems shares segments equally often.
    pub fn uniform(&self, segments: &mut dyn Iterator<Item = usize>, cursor: &mut usize) -> Slots {
        let k = self.systems;
        let m = self.slots.div_ceil(k).max(self.min_segments).min(self.slots);
        let mut out: Slots = Vec::with_capacity(self.slots);
        for j in 0..m {
            let size = (self.slots / m + usize::from(j < self.slots % m)).min(k);
            let Some(g) = segments.next() else { break };
            out.extend((0..size).map(|i| ((*cursor + i) % k, g)));
            *cursor = (*cursor + size) % k;
        }
        out
    }

    /// Adaptive: chunks of systems with open pairs, each on a segment of its own taken from
    /// `segments` (in the order given: the caller puts first the segments where the outputs
    /// differ most, when it knows). Empty when no pair is open. A slot that no chunk can use
    /// (an odd one out) gets an output of the last chunk's first system on a segment of its own.
    pub fn adaptive(&self, decisions: &Decisions, segments: &mut dyn Iterator<Item = usize>) -> Slots {
        self.adaptive_by(decisions, &mut |_: &[usize]| segments.next())
    }

    /// [`Allocation::adaptive`] with each chunk's segment chosen by `pick`, given the chunk's
    /// systems (its open pair first): for example [`segments::SegmentPicker::pick`], where the
    /// pair's outputs differ most. `None` ends the HIT's chunks.
    pub fn adaptive_by(&self, decisions: &Decisions, pick: &mut dyn FnMut(&[usize]) -> Option<usize>) -> Slots {
        let k = self.systems;
        let mut planned = vec![0usize; decisions.pairs.len()];
        let weight = |p: &PairState, planned: usize| -> f64 {
            if p.verdict != Verdict::Open {
                return 0.0;
            }
            let (lo, hi) = p.cs.interval();
            (hi - lo) / (p.cs.n() + planned + 1) as f64
        };
        let mut out: Slots = Vec::with_capacity(self.slots);
        let mut last = None;
        while self.slots - out.len() >= 2 {
            let Some((top, _)) = decisions
                .pairs
                .iter()
                .enumerate()
                .map(|(i, p)| (i, weight(p, planned[i])))
                .filter(|(_, w)| *w > 0.0)
                .max_by(|x, y| x.1.total_cmp(&y.1).then(y.0.cmp(&x.0)))
            else {
                break;
            };
            let mut chunk = vec![decisions.pairs[top].a, decisions.pairs[top].b];
            // Others with an open pair to the chunk, most weight first.
            let mut others: Vec<(usize, f64)> = (0..k)
                .filter(|s| !chunk.contains(s))
                .map(|s| {
                    let w: f64 = chunk
                        .iter()
                        .map(|&c| {
                            let i = decisions.pair_index(s, c);
                            weight(&decisions.pairs[i], planned[i])
                        })
                        .sum();
                    (s, w)
                })
                .collect();
            others.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
            for &(s, w) in &others {
                let left = self.slots - out.len() - chunk.len();
                // Join when useful and room remains; or to use a slot that would stay alone.
                if left == 0 || chunk.len() >= self.max_chunk() || (w <= 0.0 && left != 1) {
                    break;
                }
                chunk.push(s);
            }
            let Some(g) = pick(&chunk) else { break };
            for (i, &x) in chunk.iter().enumerate() {
                for &y in &chunk[i + 1..] {
                    planned[decisions.pair_index(x, y)] += 1;
                }
            }
            last = Some(chunk[0]);
            out.extend(chunk.into_iter().map(|s| (s, g)));
        }
        if let (Some(s), true) = (last, out.len() + 1 == self.slots) {
            if let Some(g) = pick(&[s]) {
                out.push((s, g));
            }
        }
        out
    }
}

/// Builds the next HIT from the chosen outputs with the usual builder: `slots` index
/// `systems` and `segments`; the HIT gets bad references, repeats and references as every HIT.
#[cfg(feature = "engine")]
pub fn next_hit(index: usize, slots: &Slots, systems: &[String], segments: &[String], design: &HitDesign, seed: u64) -> Result<Hit, AdaptiveError> {
    let candidates: Vec<Candidate> = slots.iter().map(|&(s, g)| Candidate::new(systems[s].clone(), segments[g].clone())).collect();
    Ok(crate::hit::build_hit_from(index, &candidates, design, seed)?)
}

#[cfg(all(test, feature = "engine"))]
mod tests;
