//! Contrastive error span annotation (contrastive ESA; Appraise's contrastive task of April 2026,
//! Pearmut's cESA): one screen shows 2–4 outputs of the same segment side by side under its
//! source, and the annotator marks each output's error spans (minor or major, an omission on the
//! `[MISSING]` token) and gives each a 0–100 score, as in ESA. Seeing the outputs together, an
//! annotator scores them more consistently against each other, which is what a ranking needs.
//!
//! Each output is an item of the HIT and its answer is an ESA answer
//! ([`super::esa::ErrorSpans`]'s validation, its spans checked against the text shown by
//! [`super::validate_on`] with [`Scheme::Esa`]), stored as one judgment per output: the score in
//! `judgments.score`, the spans in `judgments.detail`. The outputs of a segment are a block of
//! the ranking HIT builder (`HitPlan::Blocks`, one block per screen by default, in an order drawn
//! per screen and recorded as the items' positions), so that `hit_items.screen` groups them and
//! the common pipeline (quality control, z-scores, system scores, reliability) reads the scores
//! as it reads ESA's.
//!
//! Quality control: a degraded copy of one output on its original's screen (a careful annotator
//! scores it lower than the original beside it: the worker test pairs each copy with its
//! original on the same screen) and repeated screens.
//!
//! Analysis beside the pipeline: each system's score as ESA's, and paired comparisons within a
//! screen (`analysis::contrastive`: Wilcoxon signed-rank on the differences between two systems'
//! scores on the screens that showed both, rank ranges and clusters in WMT 2025's reading).

use super::esa::ErrorSpans;
use super::spans::{Scheme, Severity};
use super::{Answer, AnswerRules, Beside, Degrader, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question};
use crate::i18n::Text;
use crate::model::ItemType;

#[cfg(test)]
mod tests;

pub struct ContrastiveEsa;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "contrastive-esa";

/// Outputs side by side on one screen by default (Appraise's contrastive documents: three).
pub const DEFAULT_OUTPUTS: usize = 3;
/// The fewest and most outputs one screen compares.
pub const MIN_OUTPUTS: usize = 2;
pub const MAX_OUTPUTS: usize = 4;

/// The score below which an output with no span marked asks the annotator to confirm
/// (Appraise's rule, per output: ESA's).
pub const CONFIRM_BELOW: f64 = super::esa::CONFIRM_BELOW;

/// Whether an output's answer needs the annotator's confirmation before the screen goes on
/// (Appraise: a score below 66 with no error marked).
pub fn needs_confirmation(score: f64, spans: usize) -> bool {
    spans == 0 && score < CONFIRM_BELOW
}

/// The design's outputs per screen and segments per screen, checked: 2–4 outputs of one
/// segment per screen. `Err`: what is wrong, in the designer's words.
pub fn check_design(outputs: usize, segments_per_screen: usize) -> Result<(), String> {
    if !(MIN_OUTPUTS..=MAX_OUTPUTS).contains(&outputs) {
        return Err(format!("a contrastive screen compares {MIN_OUTPUTS} to {MAX_OUTPUTS} outputs, not {outputs}"));
    }
    if segments_per_screen != 1 {
        return Err(format!("a contrastive screen shows the outputs of one segment, not {segments_per_screen}"));
    }
    Ok(())
}

impl Protocol for ContrastiveEsa {
    fn name(&self) -> &'static str {
        "contrastive error span annotation"
    }

    fn layout(&self) -> Layout {
        Layout::Several { outputs: DEFAULT_OUTPUTS }
    }

    /// ESA's rules for each output's answer (a 0–100 score, at most `esa::MAX_SPANS` spans, no
    /// rank), on a screen of 2–4 outputs; no document score (the screen is one segment's).
    fn validate_answer(&self, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        if !(MIN_OUTPUTS..=MAX_OUTPUTS).contains(&rules.outputs) {
            return Err(InvalidAnswer::new("detail", format!("A contrastive screen compares {MIN_OUTPUTS} to {MAX_OUTPUTS} translations, not {}.", rules.outputs)));
        }
        if answer.detail.document_score.is_some() {
            return Err(InvalidAnswer::new("detail", "A contrastive screen scores each translation, not a document."));
        }
        if answer.detail.preference.is_some() || answer.detail.post_edit.is_some() {
            return Err(InvalidAnswer::new("detail", "A translation on a contrastive screen takes error spans and a score only."));
        }
        ErrorSpans.validate_answer(answer, rules)
    }

    fn questions(&self) -> &'static [Question] {
        ErrorSpans.questions()
    }

    /// A degraded copy on its original's screen, and repeated screens.
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        Some(Scheme::Esa)
    }

    /// ESA's judgment of a practice answer (no practice screens yet: [`Protocol::practice`]).
    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        let score = answer.score.is_some_and(|s| expected.within(s, expected.range1));
        let spans = &answer.detail.spans;
        score && if expected.high { !spans.iter().any(|s| s.severity >= Severity::Major) } else { !spans.is_empty() }
    }

    /// Blocks of one segment's outputs, one block per screen, with balanced exposure.
    fn hit_plan(&self) -> HitPlan {
        HitPlan::Blocks
    }

    /// The source, pinned above the outputs.
    fn beside(&self) -> Beside {
        Beside::Source
    }

    fn degrader(&self) -> Degrader {
        Degrader::Adequacy
    }

    /// No practice screens yet: a practice screen of several outputs is answered by ranks
    /// (`hit::practice`), and a contrastive screen scores each output.
    fn practice(&self) -> Option<PracticeRule> {
        None
    }

    fn simulated_name(&self) -> &'static str {
        "cesa"
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }

    /// The block fields (outputs per screen; one segment per screen), the source's and the
    /// reference's labels; no practice.
    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::DesignerFields;
        DesignerFields { ranking: true, label_source: true, label_reference: true, label_candidate: false, practice: false, ..DesignerFields::BASE }
    }

    fn catalog(&self) -> super::Catalog {
        super::Catalog {
            home_task: Text::HomeTaskContrastive,
            wording: (Some(Text::StatementContrastive), Text::InstructionsContrastive),
            anchors: (Text::EsaAnchorLow, Text::EsaAnchorHigh),
        }
    }
}

/// A system's line of the results page's within-screen ranking (`analysis::contrastive`), best
/// first. In the judgment model so that the browser's results page reads it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SystemRow {
    pub system: String,
    /// Its mean score over its outputs.
    pub score: f64,
    pub outputs: usize,
    pub wins: usize,
    pub losses: usize,
    pub rank_lo: usize,
    pub rank_hi: usize,
    pub cluster: usize,
}

/// An ordered pair of systems compared on the screens that showed both.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PairRow {
    pub a: String,
    pub b: String,
    pub screens: usize,
    /// a's score less b's, averaged over those screens.
    pub mean_difference: f64,
    /// The one-sided p-value of "a scores higher than b" (`None`: no common screen).
    pub p_a_better: Option<f64>,
}

/// A contrastive campaign's results: its systems ranked by paired comparisons within screens.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ContrastiveView {
    pub lang_pair: String,
    pub alpha: f64,
    /// Scores of system outputs compared, by how many workers, on how many screens.
    pub scores: usize,
    pub workers: usize,
    pub screens: usize,
    pub systems: Vec<SystemRow>,
    pub pairs: Vec<PairRow>,
}
