//! Results of a campaign (researchers and up) and the review of its workers (organizers).
//!
//! The statistics are the `analysis` pipeline's (METHOD §4–§6); this module only runs it on a
//! campaign's judgments with the settings a reader picks, turns the outcome into plain rows, and
//! draws the plots as SVG strings on the server (`assay_core::plots`, pure functions, reusable by exports).

pub mod api;
pub mod pages;
#[cfg(feature = "ssr")]
pub mod build;
#[cfg(feature = "ssr")]
pub mod decisions;

use serde::{Deserialize, Serialize};

/// The METHOD §5 choices a reader can change on the results page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultsOptions {
    /// Leave reference items out of each worker's mean and σ.
    pub exclude_ref: bool,
    /// Leave bad-reference items out of each worker's mean and σ.
    pub exclude_bad_ref: bool,
    /// Average per segment first, then over segments.
    pub per_segment: bool,
    /// Gate workers with the Wilcoxon signed-rank test instead of the paired t-test.
    pub wilcoxon: bool,
}

/// One system's line in the score table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemRow {
    pub name: String,
    pub raw: f64,
    pub z: f64,
    pub n: usize,
    pub n_segments: usize,
    /// (lower, upper) bootstrap interval of the raw mean.
    pub raw_ci: Option<(f64, f64)>,
    /// (lower, upper) bootstrap interval of the mean z.
    pub z_ci: Option<(f64, f64)>,
    pub wins: usize,
    pub rank_best: usize,
    pub rank_worst: usize,
    pub cluster: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterRow {
    /// 1-based rank range covered by the cluster.
    pub start: usize,
    pub end: usize,
    pub systems: Vec<String>,
}

/// Scores and comparisons of one (task, language pair).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupView {
    pub task: String,
    pub lang_pair: String,
    /// Best mean z first.
    pub systems: Vec<SystemRow>,
    /// `p_values[i][j]`: one-sided p of "system i better than system j", same order as `systems`.
    pub p_values: Vec<Vec<Option<f64>>>,
    pub clusters: Vec<ClusterRow>,
    pub confidence: Option<f64>,
    pub z_plot_svg: String,
    pub heatmap_svg: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExcludedWorker {
    pub worker: String,
    pub task: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsView {
    pub campaign: String,
    /// When these numbers were computed (Unix milliseconds) and on how many stored judgments:
    /// the page says how fresh they are.
    pub computed_at_ms: i64,
    pub stored_judgments: i64,
    pub options: ResultsOptions,
    pub judgments: usize,
    pub judgments_excluded: usize,
    pub judgments_unstandardised: usize,
    pub judgments_scored: usize,
    pub workers: usize,
    pub excluded: Vec<ExcludedWorker>,
    pub groups: Vec<GroupView>,
    pub agreement: AgreementReport,
    /// Names of the computed files an export offers for these settings (`ad-sys-scores-de-en.csv`, …).
    pub export_files: Vec<String>,
}

/// One (worker, task) on the review page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerRow {
    pub worker: String,
    pub task: String,
    pub hits: usize,
    pub judgments: usize,
    pub mean_hit_seconds: Option<f64>,
    pub test: String,
    pub n_pairs: usize,
    pub p_value: Option<f64>,
    pub verdict: String,
    pub consistency_pairs: usize,
    pub consistency_p: Option<f64>,
    pub consistency_verdict: String,
    pub flags: Vec<String>,
    pub mean_original: Option<f64>,
    pub mean_bad_ref: Option<f64>,
    pub mean_ref: Option<f64>,
    pub mean_system: Option<f64>,
    pub excluded: bool,
    pub scatter_svg: String,
    /// The verdict the quality gate computed when the worker's latest HIT was finished.
    pub gate: Option<GateVerdictView>,
    /// The organizer's decisions about this worker in this campaign, newest first.
    pub decisions: Vec<DecisionView>,
    /// The latest approve or reject (`approve`, `reject`), if any.
    pub standing: Option<String>,
    pub blocked: bool,
    /// Sum of the bonuses granted, e.g. "1.50 USD".
    pub bonus_total: Option<String>,
    /// Finished HITs whose completion code the gate holds.
    pub held_hits: i64,
}

/// The gate's verdict at a HIT's submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateVerdictView {
    /// `pass`, `fail` or `not-enough-evidence`.
    pub verdict: String,
    pub p_value: Option<f64>,
    pub n_pairs: i64,
    /// HITs pooled.
    pub hits: i64,
    pub code_given: bool,
    /// Unix milliseconds.
    pub computed_at: i64,
    pub compute_us: i64,
}

/// One decision of the organizer about a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionView {
    /// `approve`, `reject`, `block`, `unblock` or `bonus`.
    pub decision: String,
    pub reason: String,
    /// "1.50 USD" for a bonus.
    pub bonus: Option<String>,
    pub decided_by: String,
    /// Unix milliseconds.
    pub decided_at: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkersView {
    pub campaign: String,
    pub workers: Vec<WorkerRow>,
    /// The campaign's quality gate, as the organizer reads it.
    pub gate: String,
    /// The campaign's payment currency (bonuses are in it).
    pub currency: String,
}

/// A time as `YYYY-MM-DD HH:MM:SS UTC` (the review page and the exports).
pub fn utc_time(ms: i64) -> String {
    let (year, month, day, rem) = crate::model::utc_civil(ms);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod time_tests {
    #[test]
    fn utc_times_match_known_dates() {
        assert_eq!(super::utc_time(0), "1970-01-01 00:00:00 UTC");
        // `date -u -d @1795376606` → Sun Nov 22 19:43:26 UTC 2026
        assert_eq!(super::utc_time(1_795_376_606_000), "2026-11-22 19:43:26 UTC");
        assert_eq!(super::utc_time(951_782_400_000), "2000-02-29 00:00:00 UTC");
    }
}

/// A campaign in the researchers' list of results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsEntry {
    pub id: i64,
    pub name: String,
    pub task: String,
    pub status: String,
    pub judgments: i64,
}

// Agreement (computed by `analysis::agreement`): the figures are defined in the core.
pub use assay_core::report::{AgreementReport, GroupAgreement, PairFigures, Scale};
