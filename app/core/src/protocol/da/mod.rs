//! Direct assessment (METHOD §1): one output per screen, a 0–100 slider that shows no number.
//! Adequacy (reference in gray), fluency (the output alone) and source-based (the source beside
//! it) differ only in what the screen shows beside the output; the answer is the same.

use super::{Answer, AnswerRules, Beside, Degrader, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question, RawRange, Scheme};
use super::{ANY, Catalog, DA_HIGH, DA_LOW, Feedback};
use crate::i18n::Text;
use crate::model::ItemType;
use crate::report::Scale;

/// The stored names of the three DA tasks (`TaskKind::as_str`, `campaigns.task`).
pub const ADEQUACY_NAME: &str = "da-adequacy";
pub const FLUENCY_NAME: &str = "da-fluency";
pub const SOURCE_BASED_NAME: &str = "da-source";
/// The family's short name: its browser bundle (`assay-da`) and the task an Appraise DA file,
/// which carries none, is analysed as (`assay analyze --task`).
pub const FAMILY: &str = "da";

/// Direct assessment, with what its screen shows beside the output.
pub struct DirectAssessment {
    /// Adequacy: the reference; fluency: nothing; source-based: the source.
    pub shows: Beside,
}

/// Monolingual, reference-based (the reference in gray).
pub const ADEQUACY: DirectAssessment = DirectAssessment { shows: Beside::Reference };
/// The output alone.
pub const FLUENCY: DirectAssessment = DirectAssessment { shows: Beside::Nothing };
/// Bilingual: the source beside the output.
pub const SOURCE_BASED: DirectAssessment = DirectAssessment { shows: Beside::Source };

const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Continuous, range: RawRange::Percent }];

impl Protocol for DirectAssessment {
    fn name(&self) -> &'static str {
        "direct assessment"
    }

    fn layout(&self) -> Layout {
        Layout::Single
    }

    fn validate_answer(&self, answer: &Answer, _rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let s = answer.score.ok_or_else(|| InvalidAnswer::new("score", "Please set the slider before going on."))?;
        if !s.is_finite() || !(0.0..=100.0).contains(&s) {
            return Err(InvalidAnswer::new("score", format!("The score must be between 0 and 100 (got {s}).")));
        }
        if answer.score2.is_some() {
            return Err(InvalidAnswer::new("score2", "A direct-assessment item takes one score, not two."));
        }
        if !answer.detail.is_empty() {
            return Err(InvalidAnswer::new("detail", "A direct-assessment item takes a score only."));
        }
        Ok(Answer { score: Some(s), ..Answer::default() })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Bad references, exact repeats and references (METHOD §2).
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat, ItemType::Ref]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        None
    }

    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        super::within_ranges(expected, answer)
    }

    fn hit_plan(&self) -> HitPlan {
        HitPlan::Items
    }

    fn beside(&self) -> Beside {
        self.shows
    }

    /// Fluency's bad references repeat words; the others' remove or replace meaning.
    fn degrader(&self) -> Degrader {
        match self.shows {
            Beside::Nothing => Degrader::Fluency,
            Beside::Reference | Beside::Source => Degrader::Adequacy,
        }
    }

    /// A human translation scores high, a strongly degraded copy low, on the slider.
    fn practice(&self) -> Option<PracticeRule> {
        let high_reason = match self.shows {
            Beside::Reference => Text::ReasonHuman,
            Beside::Nothing => Text::ReasonFluent,
            Beside::Source => Text::ReasonSourceHuman,
        };
        Some(PracticeRule { high: (DA_HIGH, ANY), low: (DA_LOW, ANY), high_reason, feedback: Feedback::Slider })
    }

    fn simulated_name(&self) -> &'static str {
        match self.shows {
            Beside::Reference => "ad",
            Beside::Nothing => "fl",
            Beside::Source => "sb",
        }
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }

    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::{DesignerFields, JudgmentTime, REF_ITEM_BESIDE, REFERENCE_HIDDEN};
        match self.shows {
            Beside::Reference => DesignerFields { label_reference: true, reference_item_help: REF_ITEM_BESIDE, ..DesignerFields::DIRECT },
            Beside::Nothing => DesignerFields {
                degradation_policy: false,
                judgment_time: Some(JudgmentTime::Fluency),
                reference_help: REFERENCE_HIDDEN,
                ..DesignerFields::DIRECT
            },
            Beside::Source => DesignerFields { label_source: true, ..DesignerFields::DIRECT },
        }
    }

    fn catalog(&self) -> Catalog {
        let (home_task, statement, instructions) = match self.shows {
            Beside::Reference => (Text::HomeTaskAdequacy, Text::StatementAdequacy, Text::InstructionsAdequacy),
            Beside::Nothing => (Text::HomeTaskFluency, Text::StatementFluency, Text::InstructionsFluency),
            Beside::Source => (Text::HomeTaskSource, Text::StatementSource, Text::InstructionsSource),
        };
        Catalog { home_task, wording: (Some(statement), instructions), anchors: (Text::AnchorLow, Text::AnchorHigh) }
    }

}
