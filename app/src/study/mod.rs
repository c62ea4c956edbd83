//! Comparing systems across years (METHOD §7; Graham et al., EACL 2014 §4).
//!
//! A **study** names, per language pair, the best system of an old evaluation with its test set
//! (BEST_old), the best system of a new one with its test set (BEST_new), and a benchmark system
//! that translates both test sets (CURR). Per (language pair, task) the study is one campaign
//! (an *arm*) whose HITs mix items of (old test set: BEST_old, benchmark) and (new test set:
//! BEST_new, benchmark), in equal shares, with the METHOD §2 structure (quality-control items
//! drawn from the group's own outputs): the same workers judge old and new. The benchmark's
//! drop from the old to the new test set measures how much harder the new test set is, and the
//! calibrated gain adds it back:
//!
//! gain = (BEST_new − BEST_old) + (CURR_old − CURR_new),
//!
//! for raw and z scores, per pair and as the unweighted mean over pairs, with bootstrap
//! intervals over segments and one-sided Mann–Whitney tests on z (METHOD §6).
//!
//! The types here are shared with the browser; the server halves (`store`, `build`, `export`)
//! compile with `ssr`.

pub mod api;
pub mod pages;

#[cfg(feature = "ssr")]
pub mod build;
#[cfg(feature = "ssr")]
pub mod export;
#[cfg(feature = "ssr")]
pub mod gains;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(all(test, feature = "ssr"))]
mod tests;

use crate::campaign::CampaignSettings;
use crate::model::{CampaignStatus, TaskKind};
use serde::{Deserialize, Serialize};

/// One language pair of a study as the organizer designs it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StudyPairDraft {
    pub old_test_set_id: i64,
    pub best_old: i64,
    pub new_test_set_id: i64,
    pub best_new: i64,
    /// The benchmark system: it must have outputs for both test sets.
    pub benchmark: i64,
    /// The reference of each test set shown and degraded (`None` or empty: its first by name).
    #[serde(default)]
    pub old_reference: Option<String>,
    #[serde(default)]
    pub new_reference: Option<String>,
}

/// What an organizer submits to create a study: one campaign per (pair, task).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyDraft {
    pub name: String,
    /// `da-adequacy` and/or `da-fluency` (also `da-source`).
    pub tasks: Vec<String>,
    pub pairs: Vec<StudyPairDraft>,
    pub seed: i64,
    /// The HIT settings of every arm (the campaign designer's settings).
    #[serde(default)]
    pub settings: CampaignSettings,
}

/// The designer's answer: HITs per arm, or what stops the design.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StudyCheck {
    /// (arm, HITs).
    pub arms: Vec<(String, usize)>,
    pub problems: Vec<String>,
}

/// One arm of a stored study: a campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArmInfo {
    pub campaign_id: i64,
    pub campaign: String,
    pub status: CampaignStatus,
    pub task: TaskKind,
    /// `src-trg`.
    pub pair: String,
    pub old_test_set: String,
    pub old_year: Option<i64>,
    pub new_test_set: String,
    pub new_year: Option<i64>,
    pub best_old: String,
    pub best_new: String,
    pub benchmark: String,
    pub judgments: i64,
}

/// A study in lists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyInfo {
    pub id: i64,
    pub name: String,
    pub seed: i64,
    pub arms: Vec<ArmInfo>,
}

/// One row of a gain table: a language pair (or the mean over pairs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GainRow {
    /// `src-trg`, or `mean` for the unweighted mean over pairs.
    pub pair: String,
    pub curr_old: f64,
    pub curr_new: f64,
    /// Δ = CURR_old − CURR_new and its interval.
    pub delta: f64,
    pub delta_ci: (f64, f64),
    pub best_old: f64,
    pub best_new: f64,
    /// BEST_new − BEST_old: the uncalibrated difference, and its interval.
    pub difference: f64,
    pub difference_ci: (f64, f64),
    pub gain: f64,
    pub gain_ci: (f64, f64),
    /// Judgments behind [BEST_old, CURR_old, BEST_new, CURR_new].
    pub n: [usize; 4],
    /// One-sided Mann–Whitney on z (METHOD §6): p of "BEST_new better than BEST_old" and the
    /// reverse; `None` for the mean row.
    pub p_best_new_better: Option<f64>,
    pub p_best_old_better: Option<f64>,
    /// p of "CURR_old better than CURR_new" (the new test set is harder) and the reverse.
    pub p_curr_old_better: Option<f64>,
    pub p_curr_new_better: Option<f64>,
}

/// Gains of one task, raw and z.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskGains {
    pub task: String,
    pub raw: Vec<GainRow>,
    pub z: Vec<GainRow>,
    /// Time line of the four means (raw) with their intervals, SVG.
    pub timeline_svg: String,
    pub judgments: usize,
    pub judgments_excluded: usize,
    pub workers: usize,
    pub workers_excluded: usize,
}

/// The study page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyView {
    pub study: StudyInfo,
    pub tasks: Vec<TaskGains>,
    /// Why an arm has no gains yet (e.g. no judgments), by campaign.
    pub waiting: Vec<String>,
    pub confidence: f64,
    pub samples: usize,
    pub seed: u64,
}

/// One system's score in one campaign (history).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub campaign_id: i64,
    pub campaign: String,
    pub task: String,
    /// The test set the system was judged on.
    pub test_set: String,
    pub system: String,
    pub raw: f64,
    pub raw_ci: Option<(f64, f64)>,
    pub n: usize,
}

/// Two campaigns of a language pair and task, and whether their scores can be compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    pub a: String,
    pub b: String,
    pub calibrated: bool,
    pub why: String,
}

/// One language pair and task on the history page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairHistory {
    pub pair: String,
    /// The analysis task: the campaigns' task, or one of its questions (`word-order-q1`).
    pub task: String,
    /// Campaigns with judgments and no score in this task, each with why.
    #[serde(default)]
    pub unscored: Vec<String>,
    /// Campaigns in launch order (the time axis).
    pub campaigns: Vec<String>,
    pub points: Vec<HistoryPoint>,
    pub links: Vec<Link>,
    pub timeline_svg: String,
}
