//! Replaying recorded judgments (issue 39 item 4): each design asks for system outputs as it
//! would in a campaign, and each request is answered with a recorded score of that system and
//! segment, each score used once (a request with none left is not made). The decisions and the
//! stopping rule are those of a live campaign ([`super::Decisions`]), looked at after every
//! request. A pair's observation is the difference of the two systems' recorded scores of one
//! segment (by whoever judged them: unlike a live HIT, not necessarily the same worker).
//!
//! The designs: **uniform** takes the segments in a shuffled order and asks for every system's
//! output of each (pass after pass while scores are left); **adaptive** takes the open pair that one more observation narrows most
//! (width/(n + 1)), the next segment (in the same shuffled order, cycling) where both systems
//! have a score left, and adds the systems with an open pair to them that also have one there.
//!
//! The reference a replay is compared with, `full_analysis`, is the whole file's mean raw score
//! of each system's SYSTEM items and the order it gives.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::bench::{run_seed, summarise};
use super::{AdaptiveError, AdaptiveSettings, Decisions, Verdict};

/// Recorded scores: `cells[system][segment]`, each a list of scores (0–100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayData {
    pub systems: Vec<String>,
    pub segments: Vec<String>,
    pub cells: Vec<Vec<Vec<f64>>>,
}

/// The whole file's standard reading: mean raw score per system and the order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FullAnalysis {
    /// (system, mean, judgments), best first.
    pub systems: Vec<(String, f64, usize)>,
}

/// A design's figures over the replays (the fields of `replay.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplaySummary {
    pub runs: usize,
    pub judgments_median: f64,
    pub judgments_q1: f64,
    pub judgments_q3: f64,
    pub judgments_available: usize,
    /// Summed over the runs.
    pub pairs_decided: usize,
    /// Decided pairs whose order differs from `full_analysis` (summed over the runs).
    pub pairs_disagreeing: usize,
    pub pairs_too_close: usize,
    pub pairs_open: usize,
    /// Runs that ran out of recorded scores before every pair was settled.
    pub runs_exhausted: usize,
}

impl ReplayData {
    pub fn available(&self) -> usize {
        self.cells.iter().flatten().map(Vec::len).sum()
    }

    pub fn full_analysis(&self) -> FullAnalysis {
        let mut systems: Vec<(String, f64, usize)> = self
            .systems
            .iter()
            .zip(&self.cells)
            .map(|(name, c)| {
                let n: usize = c.iter().map(Vec::len).sum();
                let sum: f64 = c.iter().flatten().sum();
                (name.clone(), if n == 0 { f64::NAN } else { sum / n as f64 }, n)
            })
            .collect();
        systems.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        FullAnalysis { systems }
    }
}

/// One replay's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayOutcome {
    pub judgments: usize,
    pub decided: usize,
    pub disagreeing: usize,
    pub too_close: usize,
    pub open: usize,
    pub exhausted: bool,
}

/// Adaptive (`adaptive` true) or uniform replay of `data`, deterministic from `seed`.
pub fn replay_run(data: &ReplayData, settings: &AdaptiveSettings, adaptive: bool, seed: u64) -> Result<ReplayOutcome, AdaptiveError> {
    let k = data.systems.len();
    let mut d = Decisions::new(k, settings)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Each cell's scores in a random order; `left[s][g]` counts those unused.
    let mut cells = data.cells.clone();
    for c in cells.iter_mut().flatten() {
        c.shuffle(&mut rng);
    }
    let mut order: Vec<usize> = (0..data.segments.len()).collect();
    order.shuffle(&mut rng);
    let mut judgments = 0usize;
    let mut exhausted = false;
    let mut uniform_at = 0usize;
    let mut pass_used = false;
    // Adaptive: per pair, where in `order` its search for a segment goes on.
    let mut cursor = vec![0usize; d.pairs.len()];
    let mut dead = vec![false; d.pairs.len()];
    let take = |cells: &mut Vec<Vec<Vec<f64>>>, s: usize, g: usize| cells[s][g].pop();
    while !d.settled() {
        if judgments >= settings.budget {
            break;
        }
        let mut scores: Vec<(usize, f64)> = Vec::new();
        if !adaptive {
            while scores.len() < 2 {
                if uniform_at == order.len() && pass_used {
                    // Another pass over the segments while any has scores left.
                    uniform_at = 0;
                    pass_used = false;
                }
                let Some(&g) = order.get(uniform_at) else { break };
                uniform_at += 1;
                scores.clear();
                for s in 0..k {
                    if let Some(x) = take(&mut cells, s, g) {
                        scores.push((s, x));
                        judgments += 1;
                        pass_used = true;
                    }
                }
            }
            if scores.len() < 2 {
                exhausted = true;
                break;
            }
        } else {
            // The open pair one more observation narrows most, among those with data left.
            let weight = |i: usize| {
                let p = &d.pairs[i];
                let (lo, hi) = p.cs.interval();
                (hi - lo) / (p.cs.n() + 1) as f64
            };
            let best = (0..d.pairs.len()).filter(|&i| d.pairs[i].verdict == Verdict::Open && !dead[i]).max_by(|&x, &y| weight(x).total_cmp(&weight(y)).then(y.cmp(&x)));
            let Some(top) = best else {
                exhausted = true;
                break;
            };
            let (a, b) = (d.pairs[top].a, d.pairs[top].b);
            let mut found = None;
            let n = order.len();
            for step in 0..n {
                let g = order[(cursor[top] + step) % n];
                if !cells[a][g].is_empty() && !cells[b][g].is_empty() {
                    cursor[top] = (cursor[top] + step + 1) % n;
                    found = Some(g);
                    break;
                }
            }
            let Some(g) = found else {
                dead[top] = true;
                continue;
            };
            let mut chunk = vec![a, b];
            for s in 0..k {
                if chunk.contains(&s) || cells[s][g].is_empty() {
                    continue;
                }
                if chunk.iter().any(|&c| d.pairs[d.pair_index(s, c)].verdict == Verdict::Open) {
                    chunk.push(s);
                }
            }
            for s in chunk {
                if let Some(x) = take(&mut cells, s, g) {
                    scores.push((s, x));
                    judgments += 1;
                }
            }
        }
        d.observe_segment(&scores);
    }
    let full = data.full_analysis();
    let rank = |s: usize| full.systems.iter().position(|x| x.0 == data.systems[s]).unwrap_or(usize::MAX);
    let mean = |s: usize| full.systems[rank(s)].1;
    let mut out = ReplayOutcome { judgments, decided: 0, disagreeing: 0, too_close: 0, open: 0, exhausted };
    for p in &d.pairs {
        match p.verdict {
            Verdict::Open => out.open += 1,
            Verdict::TooClose => out.too_close += 1,
            Verdict::FirstBetter => {
                out.decided += 1;
                out.disagreeing += usize::from(mean(p.a) <= mean(p.b));
            }
            Verdict::SecondBetter => {
                out.decided += 1;
                out.disagreeing += usize::from(mean(p.b) <= mean(p.a));
            }
        }
    }
    Ok(out)
}

/// `runs` replays of one design.
pub fn replay_design(data: &ReplayData, settings: &AdaptiveSettings, adaptive: bool, runs: usize, seed: u64) -> Result<ReplaySummary, AdaptiveError> {
    let outcomes: Vec<ReplayOutcome> = (0..runs.max(1)).map(|r| replay_run(data, settings, adaptive, run_seed(seed, r))).collect::<Result<_, _>>()?;
    let as_bench: Vec<super::bench::RunOutcome> = outcomes
        .iter()
        .map(|o| super::bench::RunOutcome { hits: 0, judgments: o.judgments, decided: o.decided, too_close: o.too_close, wrong: o.disagreeing, open: o.open, budget_spent: o.exhausted })
        .collect();
    let s = summarise(&as_bench);
    Ok(ReplaySummary {
        runs: s.runs,
        judgments_median: s.judgments_median,
        judgments_q1: s.judgments_q1,
        judgments_q3: s.judgments_q3,
        judgments_available: data.available(),
        pairs_decided: s.pairs_decided,
        pairs_disagreeing: s.pairs_wrong,
        pairs_too_close: s.pairs_too_close,
        pairs_open: s.pairs_open,
        runs_exhausted: s.runs_budget_spent,
    })
}
