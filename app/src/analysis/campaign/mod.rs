//! Campaign → analysis: the one owner. [`analyse`] loads a campaign's judgments (the one
//! judgment query, [`super::db::load_campaign`]) and runs the pipeline with the given settings;
//! the results page, the results and agreement API, every export, `assay analyze --campaign`
//! and the study pages call it, so they give the same numbers.
//!
//! **Cache.** Each server process keeps the last analyses ([`CAPACITY`]), per (database,
//! campaign, settings). An analysis is reused while the campaign's judgments are unchanged;
//! the check costs one query on the whole `judgments` table (its row count and largest id,
//! both read from an index) and, only when that changed, one on the campaign's. Counting as
//! well as the largest id catches a judgment committed after one with a larger id (PostgreSQL
//! hands out ids before commit). Judgments are only ever added, and what else the analysis
//! reads (HIT items, names, the study arm) is fixed once a campaign is launched. Several app
//! servers each keep their own cache; the check reads the database, so none serves stale
//! numbers. Requests for the same analysis wait for one computation instead of each running
//! it.
//!
//! One job a file: the analysis of a campaign and its type here; [`cache`] keeps the last
//! analyses and hands them out, [`version`] tells whether a campaign's judgments changed since,
//! [`compute`] runs the pipeline and what the campaign's protocol adds ([`ranking`], [`esa`]) on
//! a campaign's loaded judgments, and [`files`] writes the computed files.

use std::collections::HashMap;

use super::db::CampaignInfo;
use super::{AnalysisResult, JudgmentSet};
use assay_core::report::AgreementReport;

mod cache;
mod compute;
mod esa;
mod files;
mod postedit;
mod ranking;
mod version;

pub use cache::{CAPACITY, analyse, forget};
pub(crate) use cache::{cached, current_analysis};
pub use compute::{agreement, agreement_of_all, analyse_keeping_rows, retained_mask};
pub use postedit::PostEditAnalysis;
pub use esa::{EsaCampaignAnalysis, SystemFates, SystemSpans, esa_analysis};
pub use ranking::{GOLD_MIN_AGREEMENT, GOLD_MIN_JUDGES, RankingAnalysis, ranking_analysis};
pub(crate) use version::{Current, Stamp, version};
#[cfg(test)]
pub(crate) use version::pg_table_version;

/// A campaign analysed: its description, its judgments as the pipeline read them, the
/// outcome, and when and on how many stored judgments it was computed.
#[derive(Debug)]
pub struct CampaignAnalysis {
    pub info: CampaignInfo,
    pub set: JudgmentSet,
    pub result: AnalysisResult,
    /// Unix milliseconds.
    pub computed_at_ms: i64,
    /// Stored judgments of the campaign at that time (skipped and unscored included).
    pub stored_judgments: i64,
    /// The smallest id among them (0 without judgments).
    pub first_judgment_id: i64,
    /// Milliseconds the reading and the pipeline took.
    pub compute_ms: i64,
    /// The agreement report (intra- and inter-annotator, over all and the retained workers).
    agreement: AgreementReport,
    /// `workers.id` of each worker of the campaign, by name (the review page's decisions).
    pub worker_ids: HashMap<String, i64>,
    /// A ranking campaign's methods side by side; `None` for other tasks.
    pub ranking: Option<RankingAnalysis>,
    /// An ESA campaign's WMT ranking and error spans; `None` for other tasks.
    pub esa: Option<EsaCampaignAnalysis>,
    /// A pairwise-preference campaign's workers' checks and Bradley–Terry ratings; `None` for
    /// other tasks.
    pub pairwise: Option<assay_core::protocol::pairwise::campaign::CampaignPreferences>,
    /// A post-editing campaign's HTER per segment and system, on the post-edits of the workers
    /// quality control keeps; `None` for other tasks.
    pub postedit: Option<PostEditAnalysis>,
    /// A contrastive ESA campaign's paired comparisons within screens, on the system outputs
    /// of the workers quality control keeps; `None` for other tasks.
    pub contrastive: Option<assay_core::analysis::contrastive::ContrastiveReport>,
    /// The same workers' answered outputs of a contrastive campaign, quality control included
    /// (its Appraise file); empty for other tasks.
    pub contrastive_outputs: Vec<assay_core::analysis::contrastive::ScreenOutput>,
}

impl CampaignAnalysis {
    /// The agreement report of this analysis.
    pub fn agreement(&self) -> &AgreementReport {
        &self.agreement
    }
}
