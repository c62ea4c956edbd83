//! A worker's reliability verdict: what the degraded-copy test and the gold check each say, and
//! what the quality gate decides from them (`quality`, `gold_check`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Pass,
    Fail,
    NotEnoughEvidence,
}
