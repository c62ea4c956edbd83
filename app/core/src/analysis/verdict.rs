//! A worker's reliability verdict: what the degraded-copy test and the gold check each say, and
//! what the quality gate decides from them (`quality`, `gold_check`). The type lives beside
//! `model` ([`crate::verdict`]), where a protocol's own test uses it too.

pub use crate::verdict::Verdict;
