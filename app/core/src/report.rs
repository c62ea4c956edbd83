//! Figures the analysis reports and the pages show, shared by the server and the browser.

use serde::{Deserialize, Serialize};

/// How the answers to one question are compared for agreement: each question a protocol
/// declares carries its scale ([`crate::protocol::Question::scale`]), and so does each analysis
/// task of a judgment set (`analysis::Tasks`).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// DA: correlation and mean absolute difference.
    Continuous,
    /// Word order: κ over `categories` categories (score × (categories − 1), rounded).
    Categorical { categories: u32 },
}

impl Scale {
    /// The category of `score` (0 on a continuous scale).
    pub fn category(self, score: f64) -> u32 {
        match self {
            Scale::Continuous => 0,
            Scale::Categorical { categories } => {
                let top = f64::from(categories - 1);
                (score * top).round().clamp(0.0, top) as u32
            }
        }
    }
}

/// Agreement over one kind of pair (same worker, or two workers).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairFigures {
    /// Unordered pairs of judgments compared.
    pub pairs: usize,
    /// Workers who contributed a pair.
    pub workers: usize,
    /// Items with at least one pair.
    pub items: usize,
    /// Mean |difference| between the two scores of a pair.
    pub mean_abs_difference: Option<f64>,
    /// Pearson's r (continuous scales; None with fewer than 2 pairs or no variance).
    pub pearson_r: Option<f64>,
    /// Share of pairs in the same category (categorical scales).
    pub p_agree: Option<f64>,
    /// Cohen's κ with P(E) from the data (categorical scales).
    pub kappa: Option<f64>,
}

/// The report of one (task, language pair).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupAgreement {
    pub task: String,
    pub lang_pair: String,
    pub scale: Scale,
    /// Judgments of system outputs (SYSTEM and REPEAT items) that entered, of this task (a
    /// word-order question: one per answer to a system output; quality-control items such as
    /// permuted references are not system outputs). Named `judgments` before.
    #[serde(alias = "judgments")]
    pub system_output_judgments: usize,
    /// P(E) of κ (categorical scales).
    pub p_chance: Option<f64>,
    /// The same worker on the same item (repeats).
    pub intra: PairFigures,
    /// Two workers on the same item.
    pub inter: PairFigures,
}


/// The agreement report of a campaign: over every judgment, and over the judgments of the
/// workers quality control retained.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgreementReport {
    pub all_workers: Vec<GroupAgreement>,
    pub retained_workers: Vec<GroupAgreement>,
}

/// The crowd a design's dry run imagines (issue 16 item 4): shares of careful, noisy and
/// careless workers (careless: half give one score to everything, half click at random), how
/// many distinct workers, and how far apart the systems' true qualities are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DryRunCrowd {
    pub careful: f64,
    pub noisy: f64,
    pub careless: f64,
    /// Distinct workers the HITs are drawn from (0: one per assignment).
    pub workers: usize,
    /// Points between the worst and the best system's true quality (0–100 scale).
    pub spread: f64,
    /// Significance level of the pairwise comparisons.
    pub alpha: f64,
}

impl Default for DryRunCrowd {
    fn default() -> Self {
        DryRunCrowd { careful: 70.0, noisy: 15.0, careless: 15.0, workers: 0, spread: 10.0, alpha: 0.05 }
    }
}

/// What a dry run's per-system intervals are of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DryRunInterval {
    /// The z score's bootstrap interval; pairs told apart by the pipeline's test at α.
    #[default]
    Z,
    /// A Bradley–Terry rating's bootstrap interval (Elo points); pairs told apart when their
    /// 95% intervals do not overlap.
    Rating,
}

/// What a design would buy, from simulated runs of it (issue 16 item 4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DryRunReport {
    /// Simulated campaigns.
    pub runs: usize,
    pub hits: usize,
    pub judgments: usize,
    /// Per system, best first: (true quality, mean width of its z confidence interval).
    pub systems: Vec<(f64, f64)>,
    /// Mean over systems of the z interval's width, and the interval's confidence.
    pub mean_ci_width: f64,
    pub confidence: f64,
    /// Share of system pairs found significantly different at α (mean over runs), and of
    /// those, the share in the true order.
    pub pairs_separated: f64,
    pub separated_in_true_order: f64,
    /// What the systems' intervals are of: z scores (the pipeline's), or Bradley–Terry ratings
    /// (pairwise preference: Elo points, and pairs told apart when their intervals do not
    /// overlap).
    #[serde(default)]
    pub interval: DryRunInterval,
    /// Workers quality control removes, per run: all, and the careless among them; and
    /// careless workers kept.
    pub workers: f64,
    pub workers_removed: f64,
    pub careless_removed: f64,
    pub careless_kept: f64,
    /// Seconds the dry run took.
    pub seconds: f64,
    /// An adaptive design's expected cost beside the uniform design's (issue 39 item 5; `None`
    /// when the design is not adaptive).
    #[serde(default)]
    pub adaptive: Option<AdaptiveDryRun>,
}

/// The uniform and the adaptive design of a campaign side by side, from simulated runs of both
/// (the adaptive engine's `dry_run`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveDryRun {
    pub runs: usize,
    /// Pairs of systems.
    pub pairs: usize,
    /// The uniform design as launched without adaptive allocation: every HIT done.
    pub uniform: DesignCost,
    /// The adaptive design: stopped when every pair is decided or too close, or at its budget.
    pub adaptive: DesignCost,
}

/// What one design costs and decides, per run (medians of the costs, means of the decisions).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DesignCost {
    /// Judgments (every item of every HIT done), median over the runs.
    pub judgments: f64,
    /// HIT assignments paid (judgments over items per HIT), median.
    pub assignments: f64,
    /// Their pay (assignments × payment per HIT), in the campaign's currency.
    pub money: f64,
    /// Pairs decided one way or the other, too close to matter, still open, and decided the
    /// wrong way round against the simulated truth (means over the runs).
    pub pairs_decided: f64,
    pub pairs_too_close: f64,
    pub pairs_open: f64,
    pub pairs_wrong: f64,
}
