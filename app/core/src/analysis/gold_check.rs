//! A worker's gold check (issue 21): the rule, the answers to gold blocks, the agreement with
//! the gold orders, and its combination with the degraded-copy test's verdict. The quality gate
//! folds it into each worker's verdict (`quality::run`); the gold files, their import and the
//! agreement file are `gold`'s, which re-exports these.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::verdict::Verdict;

/// How a worker's gold agreement is judged (the campaign's settings).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldRule {
    /// Least agreement to pass, on [0, 1].
    pub threshold: f64,
    /// Fewer gold pairs than this: "not enough evidence".
    pub min_pairs: usize,
}

impl Default for GoldRule {
    fn default() -> Self {
        GoldRule { threshold: DEFAULT_THRESHOLD, min_pairs: DEFAULT_MIN_PAIRS }
    }
}

/// Default pass threshold of gold agreement.
pub const DEFAULT_THRESHOLD: f64 = 0.7;
/// Default least number of gold pairs for a verdict.
pub const DEFAULT_MIN_PAIRS: usize = 10;

/// One answer to an output of a gold block, by a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldAnswer {
    pub worker: u32,
    /// The shown block (one assignment's screen and segment), numbered by the loader.
    pub block: u32,
    pub expected: u32,
    pub given: u32,
}

/// A campaign's gold answers and the rule they are judged by (empty: no gold).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GoldSet {
    pub rule: GoldRule,
    pub answers: Vec<GoldAnswer>,
}

/// One worker's agreement with the gold orders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldCheck {
    /// Gold blocks the worker ranked.
    pub blocks: usize,
    /// Pairs the gold orders strictly.
    pub pairs: usize,
    /// Of those, ranked the same way.
    pub agreed: usize,
    /// Of those, tied by the worker (not agreeing).
    pub tied: usize,
    /// agreed / pairs.
    pub agreement: Option<f64>,
    pub threshold: f64,
    pub min_pairs: usize,
    /// The gold check's own verdict.
    pub verdict: Verdict,
    /// The degraded-copy test's own verdict, before the two were combined.
    pub copies: Verdict,
}

impl GoldCheck {
    /// "0.85 (17 of 20 pairs)" for pages and files.
    pub fn summary(&self) -> String {
        match self.agreement {
            Some(a) => format!("{a:.2} ({} of {} gold pairs)", self.agreed, self.pairs),
            None => "no gold pairs".into(),
        }
    }
}

/// One worker's gold check from their answers (any order). `copies` is the degraded-copy
/// test's verdict, kept beside.
pub fn gold_check(answers: &[GoldAnswer], rule: GoldRule, copies: Verdict) -> GoldCheck {
    let mut by_block: HashMap<u32, Vec<(u32, u32)>> = HashMap::new();
    for a in answers {
        by_block.entry(a.block).or_default().push((a.expected, a.given));
    }
    let (mut pairs, mut agreed, mut tied) = (0, 0, 0);
    for block in by_block.values() {
        for (i, &(e1, g1)) in block.iter().enumerate() {
            for &(e2, g2) in &block[i + 1..] {
                if e1 == e2 {
                    continue;
                }
                pairs += 1;
                if g1 == g2 {
                    tied += 1;
                } else if (e1 < e2) == (g1 < g2) {
                    agreed += 1;
                }
            }
        }
    }
    let agreement = (pairs > 0).then(|| agreed as f64 / pairs as f64);
    let verdict = match agreement {
        Some(a) if pairs >= rule.min_pairs.max(1) => {
            // A small tolerance so that 7 of 10 passes a threshold of 0.7.
            if a + 1e-9 >= rule.threshold { Verdict::Pass } else { Verdict::Fail }
        }
        _ => Verdict::NotEnoughEvidence,
    };
    GoldCheck { blocks: by_block.len(), pairs, agreed, tied, agreement, threshold: rule.threshold, min_pairs: rule.min_pairs, verdict, copies }
}

/// The worker's verdict from the degraded-copy test and the gold check: a failure of either
/// fails; else a pass of either passes; else not enough evidence.
pub fn combine(copies: Verdict, gold: Verdict) -> Verdict {
    match (copies, gold) {
        (Verdict::Fail, _) | (_, Verdict::Fail) => Verdict::Fail,
        (Verdict::Pass, _) | (_, Verdict::Pass) => Verdict::Pass,
        _ => Verdict::NotEnoughEvidence,
    }
}
