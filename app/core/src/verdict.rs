//! A worker's reliability verdict: what a quality-control test says of a worker (the
//! degraded-copy test and the gold check of the analysis, a protocol's own test such as
//! pairwise preference's sign test), and what the quality gate decides from. One type, so that
//! a protocol's test and the analysis speak of the same verdict; `analysis::verdict` re-exports it.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Fail,
    NotEnoughEvidence,
}
