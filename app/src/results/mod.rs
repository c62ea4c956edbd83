//! Results of a campaign (researchers and up) and the review of its workers (organizers).
//!
//! The statistics are the `analysis` pipeline's (METHOD §4–§6); this module only runs it on a
//! campaign's judgments with the settings a reader picks, turns the outcome into plain rows, and
//! draws the plots as SVG strings on the server (`assay_core::plots`, pure functions, reusable by exports).

pub mod api;
pub mod metrics;
pub mod pages;
pub mod uploaded;
#[cfg(feature = "ssr")]
pub mod build;
#[cfg(feature = "ssr")]
pub mod decisions;

use serde::{Deserialize, Serialize};

use crate::model::TaskKind;

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
    /// Workers weighted by their inferred precision (issue 39 item 3; Mathur et al. 2018),
    /// beside the standard reading above, never replacing it: per system, best first. Empty for
    /// protocols without scores on 0–100 and for very large groups.
    #[serde(default)]
    pub weighted: Vec<WeightedRow>,
}

/// One system under the per-worker precision model (`assay_core::adaptive::precision`): every
/// worker's SYSTEM scores, none discarded, each weighted by the worker's precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightedRow {
    pub name: String,
    pub scores: usize,
    /// The plain mean of every worker's scores (no quality control).
    pub raw_mean: f64,
    /// The model's quality, with its bootstrap interval (workers and segments drawn).
    pub weighted: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExcludedWorker {
    pub worker: String,
    pub task: String,
    pub reason: String,
}

#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsView {
    pub campaign: String,
    /// When these numbers were computed (Unix milliseconds) and on how many stored answers (one
    /// per item a worker answered, skipped ones included; the results list's count): the page
    /// says how fresh they are.
    pub computed_at_ms: i64,
    pub stored_judgments: i64,
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub options: ResultsOptions,
    /// The analysis' judgments: a record per question an answer answers (word order: two per
    /// answer), skipped answers left out.
    pub judgments: usize,
    /// Questions per answer (analysis tasks: word order 2, the others 1).
    #[serde(default)]
    pub questions: usize,
    pub judgments_excluded: usize,
    pub judgments_unstandardised: usize,
    pub judgments_scored: usize,
    /// Distinct workers (a word-order worker, with a row per question, counts once).
    pub workers: usize,
    #[cfg_attr(feature = "ssr", schema(value_type = Vec<Object>))]
    pub excluded: Vec<ExcludedWorker>,
    #[cfg_attr(feature = "ssr", schema(value_type = Vec<Object>))]
    pub groups: Vec<GroupView>,
    pub agreement: AgreementReport,
    /// Names of the computed files an export offers for these settings (`ad-sys-scores-de-en.csv`, …).
    pub export_files: Vec<String>,
    /// The metrics page's tables an export offers (`metrics-system-level.csv`, …), when the
    /// campaign has metrics to compare with the humans (issue 21).
    #[serde(default)]
    pub metric_export_files: Vec<String>,
    /// A relative-ranking campaign's methods side by side (WMT 2012); `None` for other tasks.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub ranking: Option<RankingView>,
    /// An ESA campaign's WMT ranking and error spans; `None` for other tasks.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub esa: Option<EsaView>,
    /// A pairwise-preference campaign's Bradley–Terry ratings and win rates; `None` for other
    /// tasks.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub pairwise: Option<PairwiseView>,
    /// A post-editing campaign's HTER per system; `None` for other tasks.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub postedit: Option<PostEditView>,
    /// A contrastive ESA campaign's paired comparisons within screens (kept workers' system
    /// outputs); `None` for other tasks.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Option<Object>))]
    pub contrastive: Option<assay_core::protocol::contrastive::ContrastiveView>,
}

/// A post-editing campaign's results: HTER per system (sacrebleu's TER of the outputs against
/// their post-edits, corpus-level) with bootstrap intervals and rank ranges, on the post-edits
/// of the workers quality control keeps; each worker's degraded copies against their originals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PostEditView {
    pub lang_pair: String,
    /// Lowest HTER first.
    pub rows: Vec<assay_core::protocol::postedit::SystemRow>,
    /// Why there is no table (in words), when there is none.
    pub note: Option<String>,
    pub post_edits_kept: usize,
    pub post_edits_left_out: usize,
    pub workers: Vec<assay_core::protocol::postedit::CopyCheck>,
}

/// A pairwise-preference campaign's results: Bradley–Terry ratings (Elo scale, mean 1000) of
/// the kept workers' real pairs, with bootstrap intervals, rank ranges and each system's wins,
/// losses and ties, and the win-rate heatmap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairwiseView {
    pub lang_pair: String,
    /// One row per system, highest first: the core's line as it is (a rating missing for a
    /// reason the page puts into words).
    pub rows: Vec<assay_core::protocol::pairwise::rating::Rated>,
    pub heatmap_svg: String,
    /// Why there are no ratings (in words), when there are none.
    pub note: Option<String>,
    pub judgments_kept: usize,
    pub judgments_left_out: usize,
    /// Workers the paired test fails (left out), and all workers.
    pub workers_failing: usize,
    pub workers: usize,
}

/// An ESA campaign's results: the WMT 2024 ranking (mean of per-domain means, per-domain
/// Wilcoxon signed-rank tests combined by Stouffer, rank ranges, clusters) of the kept workers'
/// ratings, and the error spans each system received.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaView {
    pub lang_pair: String,
    /// Best first.
    pub rows: Vec<EsaRow>,
    pub domains: Vec<String>,
    pub segments_per_system: f64,
    pub annotators: usize,
    pub workers_excluded: usize,
    /// Segment-level ratings left out before ranking (quality-control copies, document scores,
    /// superseded ratings).
    pub ratings_left_out: usize,
    pub heatmap_svg: String,
    pub spans_svg: String,
    /// Why there is no ranking, if there is none.
    pub note: Option<String>,
    /// MQM: the most frequent error categories: (category, spans, of which major or critical).
    #[serde(default)]
    pub categories: Vec<(String, usize, usize)>,
    /// `ESA` or `MQM`.
    #[serde(default)]
    pub protocol: String,
    /// Per worker: degraded segments rated, those with a span on the damage, the share.
    #[serde(default)]
    pub region_hits: Vec<RegionRow>,
    /// Span agreement between two kept workers on the same outputs, if any rated the same.
    #[serde(default)]
    pub agreement: Option<SpanAgreementView>,
    /// Pre-filled spans (ESA-AI): what the kept workers made of each system's, if any were shown.
    #[serde(default)]
    pub prefilled: Vec<PrefilledRow>,
    /// Document scores asked at a document's end (kept workers, system documents): (system,
    /// documents scored, mean 0–100), in name order; empty when none was asked.
    #[serde(default)]
    pub document_scores: Vec<(String, usize, f64)>,
}

/// One system's pre-filled spans and their fates (kept workers, system items).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrefilledRow {
    pub system: String,
    /// Ratings of items shown with pre-filled spans.
    pub ratings: usize,
    /// Pre-filled spans shown.
    pub shown: usize,
    pub accepted: usize,
    pub changed: usize,
    pub removed: usize,
    pub added: usize,
    /// Character-level F1 of the final spans with the pre-filled ones.
    pub f1: Option<f64>,
}

/// One worker's spans on the damage of degraded copies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionRow {
    pub worker: String,
    pub degraded: usize,
    pub with_spans: usize,
    pub on_region: usize,
    pub rate: Option<f64>,
}

/// Span agreement over the outputs two kept workers rated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpanAgreementView {
    pub items: usize,
    /// Character-level F1 of the marked characters (micro over items).
    pub micro_f1: Option<f64>,
    /// Cohen's κ on per-character severity labels.
    pub kappa: Option<f64>,
    pub severity_accuracy: Option<f64>,
    /// Pearson's r of the two workers' scores.
    pub pearson_r: Option<f64>,
}

/// One system of an ESA ranking with its error spans.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaRow {
    pub system: String,
    pub score: f64,
    pub n: usize,
    pub wins: usize,
    pub losses: usize,
    pub rank_lo: usize,
    pub rank_hi: usize,
    pub cluster: usize,
    pub minor: usize,
    pub major: usize,
    pub omissions: usize,
    pub error_free: usize,
    pub spans_per_segment: f64,
}

/// A relative-ranking campaign's results: every method of WMT 2012 on the blocks of the workers
/// quality control keeps, first showings only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingView {
    pub lang_pair: String,
    /// Blocks ranked by retained workers (the methods' data), by every worker, and repeated.
    pub blocks: usize,
    pub blocks_all: usize,
    pub blocks_repeated: usize,
    pub judges_excluded: usize,
    /// Systems in order of expected wins, best first.
    pub rows: Vec<RankingRow>,
    /// The methods' names, in the order of [`RankingRow::positions`].
    pub methods: Vec<String>,
    /// Pairs of systems the methods order differently, in words.
    pub disagreements: Vec<String>,
    /// Why the exact orderings are missing (too many systems), if they are.
    pub exact_note: Option<String>,
    pub rank_range_svg: String,
    pub head_to_head_svg: String,
    /// WMT 2012's κ, inter- and intra-annotator (kept workers, repeats included).
    #[serde(default)]
    pub agreement: Vec<RankingKappaRow>,
}

/// One row of the ranking agreement table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingKappaRow {
    /// `inter` or `intra`.
    pub kind: String,
    pub comparisons: u64,
    pub agreeing: u64,
    pub p_a: Option<f64>,
    pub p_e: Option<f64>,
    pub kappa: Option<f64>,
    /// Landis and Koch's reading of κ.
    pub reading: String,
    /// κ with the uniform P(E) = 1/3 of WMT before 2012.
    pub kappa_uniform: Option<f64>,
    pub note: Option<String>,
}

/// One system under every method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingRow {
    pub system: String,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// (d) WMT 2012's official score: wins / (wins + losses).
    pub wins_ratio: Option<f64>,
    /// (b) (wins + ties) / comparisons, the score before 2012.
    pub wins_and_ties_ratio: Option<f64>,
    /// (h) expected wins and its 95% rank range (bootstrap over blocks).
    pub expected_wins: Option<f64>,
    pub rank_lo: usize,
    pub rank_hi: usize,
    pub trueskill_mu: f64,
    pub trueskill_sigma: f64,
    /// Position under each method of [`RankingView::methods`] (1 = best).
    pub positions: Vec<Option<usize>>,
    /// No other system is better by the sign test at p ≤ 0.10 (WMT 2012's winners).
    pub winner: bool,
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
    /// The platform sessions (MTurk assignmentId, Prolific SESSION_ID) the worker id arrived
    /// with in the campaign, in order; several are flagged: they need not all be the worker's.
    #[serde(default)]
    pub sessions: Vec<String>,
    /// Relative ranking with gold blocks: the worker's agreement with the gold orders (the
    /// verdict above combines it with the degraded-copy test).
    #[serde(default)]
    pub gold: Option<GoldView>,
}

/// A worker's gold check on the review page and in the API.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoldView {
    /// agreeing pairs / gold pairs.
    pub agreement: Option<f64>,
    pub pairs: usize,
    pub agreed: usize,
    pub tied: usize,
    pub blocks: usize,
    pub threshold: f64,
    /// The gold check's own verdict.
    pub verdict: String,
    /// The degraded-copy test's own verdict.
    pub copies_verdict: String,
    /// "0.85 (17 of 20 gold pairs)".
    pub summary: String,
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
    /// The platform session the decision is for; `None`: every session of the worker.
    #[serde(default)]
    pub session: Option<String>,
}

/// One page of the review table: the rows the query selects, in its order, with the counts the
/// page shows above the table.
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkersView {
    pub campaign: String,
    /// The rows of the requested page only.
    #[cfg_attr(feature = "ssr", schema(value_type = Vec<Object>))]
    pub workers: Vec<WorkerRow>,
    /// The campaign's quality gate, as the organizer reads it.
    pub gate: String,
    /// The campaign's payment currency (bonuses are in it).
    pub currency: String,
    /// Every (worker, task) row of the campaign.
    pub total: usize,
    /// Rows matching the search and the verdict filter (what the pages run over).
    pub matching: usize,
    /// Rows per verdict over the whole campaign (neither the search nor the filter applies).
    pub counts: VerdictCounts,
    /// Rows per kind of flag over the whole campaign (neither the search nor the filters apply).
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub flag_counts: FlagCounts,
    /// What the bulk actions would do now (workers, not rows), under the page's reliability test.
    #[serde(default)]
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub bulk: BulkCounts,
    /// The query answered, its page brought within the pages there are.
    #[cfg_attr(feature = "ssr", schema(value_type = Object))]
    pub query: WorkersQuery,
}

/// Default and largest number of rows of a review page.
pub const DEFAULT_PER_PAGE: usize = 50;
pub const MAX_PER_PAGE: usize = 200;

/// Rows per verdict of reliability (and how many are excluded from the statistics).
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictCounts {
    pub pass: usize,
    pub fail: usize,
    pub not_enough_evidence: usize,
    pub excluded: usize,
}

/// Rows per kind of flag (a row may have several).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagCounts {
    pub any: usize,
    pub none: usize,
    pub fast: usize,
    pub identical: usize,
    pub bad_not_lower: usize,
    pub low_ref: usize,
    pub sessions: usize,
}

impl FlagCounts {
    pub fn count(&self, f: FlagFilter) -> usize {
        match f {
            FlagFilter::Any => self.any,
            FlagFilter::None => self.none,
            FlagFilter::Fast => self.fast,
            FlagFilter::Identical => self.identical,
            FlagFilter::BadNotLower => self.bad_not_lower,
            FlagFilter::LowRef => self.low_ref,
            FlagFilter::Sessions => self.sessions,
        }
    }

    /// Counts one row's flags.
    pub fn add(&mut self, flags: &[String]) {
        if flags.is_empty() {
            self.none += 1;
            return;
        }
        self.any += 1;
        for kind in FlagFilter::KINDS {
            if flags.iter().any(|f| kind.matches_flag(f)) {
                match kind {
                    FlagFilter::Fast => self.fast += 1,
                    FlagFilter::Identical => self.identical += 1,
                    FlagFilter::BadNotLower => self.bad_not_lower += 1,
                    FlagFilter::LowRef => self.low_ref += 1,
                    FlagFilter::Sessions => self.sessions += 1,
                    FlagFilter::Any | FlagFilter::None => {}
                }
            }
        }
    }
}

/// The flag filter of the review table: rows with any flag, with none, or with a flag of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlagFilter {
    Any,
    None,
    /// HITs faster than the campaign's time floor.
    Fast,
    /// A long run of identical scores.
    Identical,
    /// Bad references not scored lower than their originals.
    BadNotLower,
    /// References scored low.
    LowRef,
    /// The worker id arrived with several platform sessions.
    Sessions,
}

impl FlagFilter {
    pub const ALL: [FlagFilter; 7] =
        [FlagFilter::Any, FlagFilter::None, FlagFilter::Fast, FlagFilter::Identical, FlagFilter::BadNotLower, FlagFilter::LowRef, FlagFilter::Sessions];
    /// The kinds of flag (not `any` or `none`).
    pub const KINDS: [FlagFilter; 5] = [FlagFilter::Fast, FlagFilter::Identical, FlagFilter::BadNotLower, FlagFilter::LowRef, FlagFilter::Sessions];

    pub fn parse(s: &str) -> Option<FlagFilter> {
        FlagFilter::ALL.into_iter().find(|f| f.as_str() == s.trim())
    }

    /// As in URLs and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            FlagFilter::Any => "any",
            FlagFilter::None => "none",
            FlagFilter::Fast => "fast",
            FlagFilter::Identical => "identical",
            FlagFilter::BadNotLower => "bad-not-lower",
            FlagFilter::LowRef => "low-ref",
            FlagFilter::Sessions => "sessions",
        }
    }

    /// As the page's menu says it.
    pub fn label(self) -> &'static str {
        match self {
            FlagFilter::Any => "any flag",
            FlagFilter::None => "no flag",
            FlagFilter::Fast => "HITs faster than the floor",
            FlagFilter::Identical => "long runs of identical scores",
            FlagFilter::BadNotLower => "bad references not scored lower",
            FlagFilter::LowRef => "references scored low",
            FlagFilter::Sessions => "several platform sessions",
        }
    }

    /// Whether one flag's text (as `results::build::worker_rows` and the review page write it)
    /// is of this kind.
    pub fn matches_flag(self, flag: &str) -> bool {
        match self {
            FlagFilter::Any => true,
            FlagFilter::None => false,
            FlagFilter::Fast => flag.contains("faster than the floor"),
            FlagFilter::Identical => flag.starts_with("long run of identical scores"),
            FlagFilter::BadNotLower => flag == "bad references not scored lower",
            FlagFilter::LowRef => flag == "references scored low",
            FlagFilter::Sessions => flag.contains("platform sessions"),
        }
    }

    /// Whether a row with these flags passes the filter.
    pub fn matches(self, flags: &[String]) -> bool {
        match self {
            FlagFilter::Any => !flags.is_empty(),
            FlagFilter::None => flags.is_empty(),
            kind => flags.iter().any(|f| kind.matches_flag(f)),
        }
    }
}

/// A decision about many workers at once, from the review page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BulkAction {
    /// Approve every worker whose every row passes the reliability test.
    ApprovePassed,
    /// Reject (with one reason) every worker with a row that fails it.
    RejectFailed,
}

impl BulkAction {
    pub fn parse(s: &str) -> Option<BulkAction> {
        match s.trim() {
            "approve-passed" => Some(BulkAction::ApprovePassed),
            "reject-failed" => Some(BulkAction::RejectFailed),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BulkAction::ApprovePassed => "approve-passed",
            BulkAction::RejectFailed => "reject-failed",
        }
    }
}

/// What the bulk actions would do now, in workers: those still to decide, those decided so
/// already (left alone: doing it twice changes nothing), and those whose id arrived with several
/// platform sessions (left out: decide about them one session at a time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BulkCounts {
    pub approve: usize,
    pub approved_already: usize,
    pub reject: usize,
    pub rejected_already: usize,
    pub several_sessions: usize,
}

/// What the review table is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkerSort {
    /// Worker id, then task.
    #[default]
    Worker,
    /// fail, not enough evidence, pass (ascending).
    Verdict,
    /// Reliability p-value; rows without one come last in either order.
    P,
    /// Number of flags.
    Flags,
}

impl WorkerSort {
    pub const ALL: [WorkerSort; 4] = [WorkerSort::Worker, WorkerSort::Verdict, WorkerSort::P, WorkerSort::Flags];

    pub fn parse(s: &str) -> Option<WorkerSort> {
        WorkerSort::ALL.into_iter().find(|k| k.as_str() == s.trim())
    }

    pub fn as_str(self) -> &'static str {
        match self {
            WorkerSort::Worker => "worker",
            WorkerSort::Verdict => "verdict",
            WorkerSort::P => "p",
            WorkerSort::Flags => "flags",
        }
    }
}

/// The verdict filter of the review table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictFilter {
    Pass,
    Fail,
    NotEnoughEvidence,
    /// Rows excluded from the statistics (whatever their verdict).
    Excluded,
}

impl VerdictFilter {
    pub const ALL: [VerdictFilter; 4] = [VerdictFilter::Pass, VerdictFilter::Fail, VerdictFilter::NotEnoughEvidence, VerdictFilter::Excluded];

    pub fn parse(s: &str) -> Option<VerdictFilter> {
        let s = s.trim();
        VerdictFilter::ALL.into_iter().find(|v| v.as_str() == s || v.label() == s)
    }

    /// As in URLs and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictFilter::Pass => "pass",
            VerdictFilter::Fail => "fail",
            VerdictFilter::NotEnoughEvidence => "not-enough-evidence",
            VerdictFilter::Excluded => "excluded",
        }
    }

    /// As the page (and [`WorkerRow::verdict`]) writes it.
    pub fn label(self) -> &'static str {
        match self {
            VerdictFilter::Pass => "pass",
            VerdictFilter::Fail => "fail",
            VerdictFilter::NotEnoughEvidence => "not enough evidence",
            VerdictFilter::Excluded => "excluded",
        }
    }

    pub fn count(self, c: &VerdictCounts) -> usize {
        match self {
            VerdictFilter::Pass => c.pass,
            VerdictFilter::Fail => c.fail,
            VerdictFilter::NotEnoughEvidence => c.not_enough_evidence,
            VerdictFilter::Excluded => c.excluded,
        }
    }

    pub fn matches(self, verdict: &str, excluded: bool) -> bool {
        match self {
            VerdictFilter::Excluded => excluded,
            v => verdict == v.label(),
        }
    }
}

/// Which rows of the review table to show: a page (from 1) of `per_page` rows, sorted, searched
/// (a case-insensitive substring of the worker id) and filtered by verdict and by flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkersQuery {
    pub page: usize,
    pub per_page: usize,
    pub sort: WorkerSort,
    pub descending: bool,
    pub search: String,
    pub verdict: Option<VerdictFilter>,
    /// Rows with flags (of a kind), or without.
    #[serde(default)]
    pub flag: Option<FlagFilter>,
}

impl Default for WorkersQuery {
    fn default() -> Self {
        WorkersQuery {
            page: 1,
            per_page: DEFAULT_PER_PAGE,
            sort: WorkerSort::Worker,
            descending: false,
            search: String::new(),
            verdict: None,
            flag: None,
        }
    }
}

impl WorkersQuery {
    /// The query from its parameters as the API and the server function take them (absent ones
    /// take their defaults); `Err((parameter, problem))` for a value out of range or unknown.
    pub fn from_params(
        page: Option<usize>,
        per_page: Option<usize>,
        sort: Option<&str>,
        order: Option<&str>,
        search: Option<&str>,
        verdict: Option<&str>,
        flag: Option<&str>,
    ) -> Result<WorkersQuery, (&'static str, String)> {
        let mut q = WorkersQuery::default();
        if let Some(p) = page {
            if p == 0 {
                return Err(("page", "page is numbered from 1, not 0".into()));
            }
            q.page = p;
        }
        if let Some(n) = per_page {
            if n == 0 || n > MAX_PER_PAGE {
                return Err(("per_page", format!("per_page is 1 to {MAX_PER_PAGE} rows, not {n}")));
            }
            q.per_page = n;
        }
        if let Some(s) = sort.filter(|s| !s.trim().is_empty()) {
            q.sort = WorkerSort::parse(s).ok_or_else(|| ("sort", format!("sort {s:?} is not worker, verdict, p or flags")))?;
        }
        match order.map(str::trim).filter(|s| !s.is_empty()) {
            None | Some("asc") => {}
            Some("desc") => q.descending = true,
            Some(o) => return Err(("order", format!("order {o:?} is not asc or desc"))),
        }
        q.search = search.unwrap_or("").trim().to_string();
        if let Some(v) = verdict.filter(|s| !s.trim().is_empty()) {
            q.verdict = Some(VerdictFilter::parse(v).ok_or_else(|| {
                ("verdict", format!("verdict {v:?} is not pass, fail, not-enough-evidence or excluded"))
            })?);
        }
        if let Some(f) = flag.filter(|s| !s.trim().is_empty()) {
            q.flag = Some(FlagFilter::parse(f).ok_or_else(|| {
                ("flag", format!("flag {f:?} is not any, none, fast, identical, bad-not-lower, low-ref or sessions"))
            })?);
        }
        Ok(q)
    }

    /// Reads a page's URL query leniently: what is missing or wrong takes its default.
    pub fn from_url(get: impl Fn(&str) -> Option<String>) -> WorkersQuery {
        let mut q = WorkersQuery::default();
        if let Some(p) = get("page").and_then(|p| p.parse::<usize>().ok()).filter(|&p| p > 0) {
            q.page = p;
        }
        if let Some(n) = get("per_page").and_then(|p| p.parse::<usize>().ok()).filter(|&n| n > 0) {
            q.per_page = n.min(MAX_PER_PAGE);
        }
        q.sort = get("sort").and_then(|s| WorkerSort::parse(&s)).unwrap_or_default();
        q.descending = get("order").as_deref() == Some("desc");
        q.search = get("search").unwrap_or_default().trim().to_string();
        q.verdict = get("verdict").and_then(|v| VerdictFilter::parse(&v));
        q.flag = get("flag").and_then(|f| FlagFilter::parse(&f));
        q
    }

    /// The URL query of this state, leaving out what has its default (`page=2&sort=p&order=desc`).
    pub fn to_url(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let enc = |s: &str| {
            s.bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                    _ => format!("%{b:02X}"),
                })
                .collect::<String>()
        };
        if self.page != 1 {
            parts.push(format!("page={}", self.page));
        }
        if self.per_page != DEFAULT_PER_PAGE {
            parts.push(format!("per_page={}", self.per_page));
        }
        if self.sort != WorkerSort::Worker {
            parts.push(format!("sort={}", self.sort.as_str()));
        }
        if self.descending {
            parts.push("order=desc".into());
        }
        if !self.search.is_empty() {
            parts.push(format!("search={}", enc(&self.search)));
        }
        if let Some(v) = self.verdict {
            parts.push(format!("verdict={}", v.as_str()));
        }
        if let Some(f) = self.flag {
            parts.push(format!("flag={}", f.as_str()));
        }
        parts.join("&")
    }

    /// The pages `matching` rows make (at least one).
    pub fn pages(&self, matching: usize) -> usize {
        matching.div_ceil(self.per_page.max(1)).max(1)
    }
}

/// Whether an export file's content depends on the raw/cleaned filter (the judgment files, the
/// Appraise CSVs, `all.zip`, and `manifest.json`, which records the filter); the computed files
/// always leave excluded workers out.
pub fn export_depends_on_filter(file: &str) -> bool {
    file.starts_with("judgments.") || file.starts_with("appraise-") || file == "all.zip" || file == "manifest.json"
}

/// The name an export downloads under: the campaign and, where it matters, the filter in front
/// of the file's own name (`campaign-7-cleaned-judgments.csv`, `campaign-7-clusters.csv`), so that
/// the raw and cleaned files of several campaigns can sit in one folder.
pub fn export_download_name(campaign_id: i64, file: &str, filter: &str) -> String {
    if export_depends_on_filter(file) { format!("campaign-{campaign_id}-{filter}-{file}") } else { format!("campaign-{campaign_id}-{file}") }
}

/// A time as `YYYY-MM-DD HH:MM:SS UTC` (the review page and the exports).
pub fn utc_time(ms: i64) -> String {
    let (year, month, day, rem) = crate::model::utc_civil(ms);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod query_tests {
    use super::*;

    #[test]
    fn the_flag_filter_reads_and_writes_the_url_and_refuses_unknown_kinds() {
        let q = WorkersQuery::from_params(None, None, None, None, None, Some("fail"), Some("fast")).unwrap();
        assert_eq!((q.verdict, q.flag), (Some(VerdictFilter::Fail), Some(FlagFilter::Fast)));
        assert_eq!(q.to_url(), "verdict=fail&flag=fast");
        let back = WorkersQuery::from_url(|k| match k {
            "verdict" => Some("fail".into()),
            "flag" => Some("fast".into()),
            _ => None,
        });
        assert_eq!(back, q);
        let e = WorkersQuery::from_params(None, None, None, None, None, None, Some("slow")).unwrap_err();
        assert_eq!(e.0, "flag");
        assert!(WorkersQuery::from_url(|k| (k == "flag").then(|| "slow".to_string())).flag.is_none());
    }

    #[test]
    fn flags_are_told_apart_by_kind() {
        // The texts of results::build::worker_rows and the review page.
        let flags = vec![
            "2 HIT(s) faster than the floor".to_string(),
            "long run of identical scores (14)".to_string(),
            "bad references not scored lower".to_string(),
        ];
        assert!(FlagFilter::Fast.matches(&flags));
        assert!(FlagFilter::Identical.matches(&flags));
        assert!(FlagFilter::BadNotLower.matches(&flags));
        assert!(!FlagFilter::LowRef.matches(&flags), "'bad references not scored lower' is not 'references scored low'");
        assert!(FlagFilter::LowRef.matches(&["references scored low".to_string()]));
        assert!(FlagFilter::Sessions.matches(&["arrived with 2 platform sessions: A, B".to_string()]));
        assert!(FlagFilter::Any.matches(&flags) && !FlagFilter::None.matches(&flags));
        assert!(FlagFilter::None.matches(&[]) && !FlagFilter::Any.matches(&[]));
        let mut c = FlagCounts::default();
        c.add(&flags);
        c.add(&[]);
        assert_eq!((c.any, c.none, c.fast, c.identical, c.bad_not_lower, c.low_ref, c.sessions), (1, 1, 1, 1, 1, 0, 0));
        for f in FlagFilter::ALL {
            assert_eq!(FlagFilter::parse(f.as_str()), Some(f));
        }
    }
}

#[cfg(test)]
mod export_name_tests {
    #[test]
    fn raw_and_cleaned_files_of_each_campaign_download_under_their_own_names() {
        assert_eq!(super::export_download_name(7, "judgments.csv", "raw"), "campaign-7-raw-judgments.csv");
        assert_eq!(super::export_download_name(7, "judgments.csv", "cleaned"), "campaign-7-cleaned-judgments.csv");
        assert_eq!(super::export_download_name(7, "all.zip", "cleaned"), "campaign-7-cleaned-all.zip");
        assert_eq!(super::export_download_name(7, "manifest.json", "raw"), "campaign-7-raw-manifest.json");
        assert_eq!(super::export_download_name(12, "ad-sys-scores-de-en.csv", "raw"), "campaign-12-ad-sys-scores-de-en.csv");
    }
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

/// The range of an analysis task's raw scores and the decimals to show them with: `0–1` for
/// word order (each question) and ranking, `0–100` for DA (the results page's and the history's
/// axes).
pub fn raw_scale(task: &str) -> (&'static str, usize) {
    let range = assay_core::protocol::raw_range(task);
    (range.label(), range.decimals())
}

/// A campaign in the researchers' list of results.
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsEntry {
    pub id: i64,
    pub name: String,
    /// The protocol's name (`TaskKind::name`).
    #[cfg_attr(feature = "ssr", schema(value_type = String))]
    pub task: TaskKind,
    pub status: String,
    /// Answers stored: one per item a worker answered (skipped ones included), whatever the
    /// number of questions (a word-order answer answers two; the results page counts those).
    pub judgments: i64,
}

// Agreement (computed by `analysis::agreement`): the figures are defined in the core.
pub use assay_core::report::{AgreementReport, GroupAgreement, PairFigures, Scale};
