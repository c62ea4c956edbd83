//! Word-order judgments (METHOD §1): a machine translation and a human translation of the same
//! source, two questions on 5-point scales (or two continuous sliders): how hard the meaning is
//! to grasp (Q1, stored as `score`) and how much the order alone clouds it (Q2, `score2`). Each
//! question is analysed as a task of its own ([`WORD_ORDER_Q1`], [`WORD_ORDER_Q2`]).

use super::{Answer, AnswerRules, Beside, Degrader, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question, RawRange, Scheme};
use super::{ANY, Catalog, Feedback, WOJ_HIGH, WOJ_LOW};
use crate::i18n::Text;
use crate::model::ItemType;
use crate::report::Scale;

mod settings;
pub use settings::WordOrderSettings;

pub struct WordOrder;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "word-order";
/// The analysis task of a word-order judgment's first question (grasping the meaning).
pub const WORD_ORDER_Q1: &str = "word-order-q1";
/// The analysis task of a word-order judgment's second question (the order's own effect).
pub const WORD_ORDER_Q2: &str = "word-order-q2";

/// The five boxes: box 1–5 ↔ value 0, .25, .5, .75, 1 (best = 1).
pub const BOX_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The box (1–5) of a stored value, if it is one of the five.
pub fn box_of(value: f64) -> Option<i64> {
    BOX_VALUES.iter().position(|v| (v - value).abs() < 1e-9).map(|i| i as i64 + 1)
}

/// Both questions are answered in one of five boxes (or on a slider, read as the nearest box):
/// agreement is κ over the five categories.
const QUESTIONS: &[Question] = &[
    Question { analysis_task: Some(WORD_ORDER_Q1), read: |a| a.score, scale: Scale::Categorical { categories: 5 }, range: RawRange::Unit },
    Question { analysis_task: Some(WORD_ORDER_Q2), read: |a| a.score2, scale: Scale::Categorical { categories: 5 }, range: RawRange::Unit },
];

fn check_unit(field: &'static str, name: &str, v: Option<f64>, sliders: bool) -> Result<f64, InvalidAnswer> {
    let v = v.ok_or_else(|| InvalidAnswer::new(field, format!("Please answer {name}.")))?;
    let ok = if sliders { v.is_finite() && (0.0..=1.0).contains(&v) } else { BOX_VALUES.contains(&v) };
    if ok {
        Ok(v)
    } else if sliders {
        Err(InvalidAnswer::new(field, format!("The answer to {name} must be between 0 and 1 (got {v}).")))
    } else {
        Err(InvalidAnswer::new(
            field,
            format!("The answer to {name} must be one of the five boxes: 0, 0.25, 0.5, 0.75 or 1 (got {v})."),
        ))
    }
}

impl Protocol for WordOrder {
    fn name(&self) -> &'static str {
        "word order"
    }

    fn layout(&self) -> Layout {
        Layout::Single
    }

    fn validate_answer(&self, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let s1 = check_unit("score", "the first question", answer.score, rules.woj_sliders)?;
        let s2 = check_unit("score2", "the second question", answer.score2, rules.woj_sliders)?;
        if !answer.detail.is_empty() {
            return Err(InvalidAnswer::new("detail", "A word-order item takes two answers only."));
        }
        Ok(Answer { score: Some(s1), score2: Some(s2), ..Answer::default() })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Permuted references (degraded items of their own kind, METHOD §3) are built into the
    /// HIT; no bad references, repeats or references.
    fn quality_control(&self) -> &'static [ItemType] {
        &[]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        None
    }

    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        super::within_ranges(expected, answer)
    }

    fn hit_plan(&self) -> HitPlan {
        HitPlan::WordOrderPairs
    }

    /// The human translation of the same source, beside the machine translation.
    fn beside(&self) -> Beside {
        Beside::Reference
    }

    fn degrader(&self) -> Degrader {
        Degrader::WordOrder
    }

    /// A human translation is the same in both respects; a copy with its words moved makes
    /// the order cloud the meaning (the second question low).
    fn practice(&self) -> Option<PracticeRule> {
        Some(PracticeRule { high: (WOJ_HIGH, WOJ_HIGH), low: (ANY, WOJ_LOW), high_reason: Text::ReasonSame, feedback: Feedback::Boxes })
    }

    fn simulated_name(&self) -> &'static str {
        "wo"
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }


    /// No statement: the two questions say what is asked.
    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::{DesignerFields, REFERENCE_REORDERED};
        DesignerFields {
            items_per_hit: true,
            permutations: true,
            degradation_policy: false,
            label_candidate: false,
            statement: false,
            two_questions: true,
            reference_help: REFERENCE_REORDERED,
            ..DesignerFields::BASE
        }
    }

    fn catalog(&self) -> Catalog {
        Catalog { home_task: Text::HomeTaskWordOrder, wording: (None, Text::InstructionsWordOrder), anchors: (Text::AnchorLow, Text::AnchorHigh) }
    }

}
