//! Relative ranking (WMT 2012, seed 001 §2.3): a screen shows a source sentence (and, as a
//! setting, its reference) with several outputs of it, and the annotator ranks the outputs from
//! best to worst, ties allowed. One screen may hold several consecutive segments, each a
//! *block* of outputs ranked on its own.
//!
//! Each output is an item of the HIT, answered with its rank (`detail.rank`, 1 = best; tied
//! outputs share a rank). The stored `score` is the rank read as a number on [0, 1] where
//! higher is better, `(N − rank) / (N − 1)` for N outputs per block, so that the quality control
//! every protocol shares (original against its degraded copy, first against repeat) and the
//! exports read a number the way they do for DA. The ranking methods of the seed read the ranks
//! themselves (`analysis::ranking`).
//!
//! Quality control: a degraded copy of an output (the DA degraders) in the same block as its
//! original, which a careful annotator ranks below it (reliability: one-sided sign test, ties
//! excluded), and repeated screens (consistency).

use super::{Answer, AnswerRules, Beside, Degrader, Detail, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question, RawRange, Scheme};
use crate::model::ItemType;
use crate::report::Scale;

mod settings;
pub use settings::RankingSettings;

pub struct Ranking;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "ranking";

/// Outputs per block by default (WMT 2012: five).
pub const DEFAULT_OUTPUTS: usize = 5;

const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Categorical { categories: DEFAULT_OUTPUTS as u32 }, range: RawRange::Unit }];

/// The stored score of `rank` among `outputs` outputs: 1 for the best rank, 0 for the worst.
pub fn score_of_rank(rank: u32, outputs: usize) -> f64 {
    if outputs < 2 {
        return 1.0;
    }
    (outputs as f64 - f64::from(rank)) / (outputs as f64 - 1.0)
}

/// The rank a stored score stands for among `outputs` outputs (the inverse of
/// [`score_of_rank`]); `None` for a score that no rank gives.
pub fn rank_of_score(score: f64, outputs: usize) -> Option<u32> {
    if outputs < 2 || !score.is_finite() {
        return (outputs == 1 && score == 1.0).then_some(1);
    }
    let rank = outputs as f64 - score * (outputs as f64 - 1.0);
    let r = rank.round();
    ((rank - r).abs() < 1e-6 && r >= 1.0 && r <= outputs as f64).then_some(r as u32)
}

impl Protocol for Ranking {
    fn name(&self) -> &'static str {
        "relative ranking"
    }

    fn layout(&self) -> Layout {
        Layout::Several { outputs: DEFAULT_OUTPUTS }
    }

    fn validate_answer(&self, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let outputs = rules.outputs;
        if outputs < 2 {
            return Err(InvalidAnswer::new("detail", "A ranking needs a block of at least two outputs."));
        }
        let rank = answer.detail.rank.ok_or_else(|| InvalidAnswer::new("detail", "Please rank every translation before going on."))?;
        if rank == 0 || rank as usize > outputs {
            return Err(InvalidAnswer::new("detail", format!("A rank must be between 1 (best) and {outputs} (worst), not {rank}.")));
        }
        if answer.score.is_some() || answer.score2.is_some() {
            return Err(InvalidAnswer::new("score", "A ranked translation takes a rank, not a score."));
        }
        if !answer.detail.spans.is_empty() || answer.detail.document_score.is_some() {
            return Err(InvalidAnswer::new("detail", "A ranked translation takes a rank only."));
        }
        Ok(Answer { score: Some(score_of_rank(rank, outputs)), detail: Detail { rank: Some(rank), ..Detail::default() }, ..Answer::default() })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Degraded copies in the block of their original, and repeated screens.
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        None
    }

    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        super::within_ranges(expected, answer)
    }

    fn hit_plan(&self) -> HitPlan {
        HitPlan::Blocks
    }

    /// The source sentence (and, as a setting, its reference) above the block.
    fn beside(&self) -> Beside {
        Beside::Source
    }

    /// The degraded copy in its original's block loses meaning, as a DA bad reference.
    fn degrader(&self) -> Degrader {
        Degrader::Adequacy
    }

    /// A screen of a human translation and its degraded copy in an order drawn per item
    /// (`hit::practice`): a careful reader ranks the copy below its original (the original's
    /// share of the win is 1; a shared rank is not careful).
    fn practice(&self) -> Option<PracticeRule> {
        let preferred = (super::ORIGINAL_PREFERRED, super::ANY);
        Some(PracticeRule { high: preferred, low: preferred, high_reason: crate::i18n::Text::ReasonChanged, feedback: super::Feedback::Ranks })
    }

    fn simulated_name(&self) -> &'static str {
        "rr"
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }

    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::DesignerFields;
        DesignerFields { ranking: true, label_source: true, label_reference: true, label_candidate: false, practice: true, ..DesignerFields::BASE }
    }

    fn catalog(&self) -> super::Catalog {
        use crate::i18n::Text;
        super::Catalog { home_task: Text::HomeTaskRanking, wording: (Some(Text::StatementRanking), Text::InstructionsRanking), anchors: (Text::AnchorLow, Text::AnchorHigh) }
    }

}
