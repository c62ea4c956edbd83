//! Direct assessment (METHOD §1): one output per screen, a 0–100 slider that shows no number.
//! Adequacy (reference in gray), fluency (the output alone) and source-based (the source beside
//! it) differ only in what the screen shows beside the output; the answer is the same.

use super::{Answer, AnswerRules, InvalidAnswer, Layout, Protocol, Question};
use crate::model::ItemType;
use crate::report::Scale;

pub struct DirectAssessment;

const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Continuous }];

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

}
