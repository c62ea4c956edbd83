//! What the organizer's pages show of an adaptive campaign (issue 39): the live state of its
//! anytime-valid decisions and its spending. Shared by the server and the browser; the server
//! builds it from an adaptive campaign's state (`campaign::launch::adaptive::view`).

use serde::{Deserialize, Serialize};

/// One pair of systems as the live and results pages show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairView {
    pub first: String,
    pub second: String,
    /// `open`, `decided` or `too-close`.
    pub verdict: String,
    /// The better system's name, when decided.
    pub better: Option<String>,
    pub worse: Option<String>,
    /// The anytime-valid interval of the mean difference first − second, in points.
    pub low: f64,
    pub high: f64,
    pub observations: usize,
}

/// An adaptive campaign's live state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveView {
    pub alpha: f64,
    pub delta: f64,
    pub budget: usize,
    /// HITs built so far (the warm-up and those built on demand).
    pub hits: usize,
    /// Judgments stored so far.
    pub judgments: usize,
    /// Judgments the HITs built so far hold.
    pub committed: usize,
    /// A rough estimate of the judgments still needed (0 once stopped).
    pub expected_remaining: usize,
    pub pairs_open: usize,
    pub pairs_decided: usize,
    pub pairs_too_close: usize,
    /// `Settled` (every pair decided or too close) or `Budget`; `None` while HITs are built.
    pub stop: Option<String>,
    pub pairs: Vec<PairView>,
    /// Clusters of systems from the decisions, best first.
    pub clusters: Vec<Vec<String>>,
    /// SYSTEM-item scores the decisions read (those of the workers kept).
    pub scores_read: usize,
    /// Workers left out of the decisions as quality control leaves them out of the results.
    pub left_out: Vec<String>,
}
