//! A relative-ranking campaign's report beside the pipeline: every method of WMT 2012 on the
//! kept workers' blocks, and their agreement.

use crate::analysis::db::CampaignBlocks;
use crate::analysis::ranking::{PairReport, RankingData};
use crate::analysis::{AnalysisResult, JudgmentSet};

/// A relative-ranking campaign analysed by every method of WMT 2012 (seed 001), on the blocks
/// of the workers quality control keeps.
#[derive(Clone, Debug)]
pub struct RankingAnalysis {
    /// Every method on the retained workers' first showings; its agreement over all their
    /// blocks, repeats included.
    pub report: PairReport,
    /// First-showing blocks of every worker, and of the retained ones (`report.blocks`).
    pub blocks_all: usize,
    /// Blocks of repeated screens (agreement only, never in the rankings).
    pub blocks_repeated: usize,
    /// Workers whose blocks are left out by quality control.
    pub judges_excluded: usize,
    /// The blocks the methods used (retained workers, first showings).
    pub kept: RankingData,
    /// Every worker's blocks.
    pub blocks: CampaignBlocks,
}

/// `gold-from-agreement.tsv`: pairs compared by at least this many kept workers ...
pub const GOLD_MIN_JUDGES: usize = 2;
/// ... and at least this share of their comparisons one way (WMT 2012: "high agreement").
pub const GOLD_MIN_AGREEMENT: f64 = 0.9;

/// The ranking methods on a campaign's blocks, keeping the workers `r`'s exclusion policy keeps:
/// the methods on their first showings, agreement (WMT 2012's κ) on all their blocks, repeats
/// included (they give the intra-annotator figure).
pub fn ranking_analysis(set: &JudgmentSet, r: &AnalysisResult, blocks: CampaignBlocks) -> RankingAnalysis {
    let excluded: std::collections::HashSet<&str> = r
        .workers
        .iter()
        .filter(|w| r.settings.exclusion.excludes(w))
        .map(|w| set.workers.name(w.worker))
        .collect();
    let kept = blocks.select(|i, b| !blocks.repeated[i] && !excluded.contains(b.judge.as_str()));
    let judges_excluded = {
        let mut judges: Vec<&str> = blocks.data.blocks.iter().map(|b| b.judge.as_str()).filter(|j| excluded.contains(j)).collect();
        judges.sort_unstable();
        judges.dedup();
        judges.len()
    };
    let (samples, seed) = r.settings.bootstrap.map_or((1000, 1), |b| (b.samples.max(1), b.seed));
    let mut report = crate::analysis::ranking::report(&kept, samples, seed);
    let with_repeats = blocks.select(|_, b| !excluded.contains(b.judge.as_str()));
    if let Ok(a) = crate::analysis::ranking::agreement(&with_repeats) {
        report.agreement = a;
    }
    RankingAnalysis {
        report,
        blocks_all: blocks.repeated.iter().filter(|&&r| !r).count(),
        blocks_repeated: blocks.repeats(),
        judges_excluded,
        kept,
        blocks,
    }
}
