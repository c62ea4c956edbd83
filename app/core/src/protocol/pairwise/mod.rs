//! Pairwise preference: a screen shows two outputs of one source side by side (optionally with
//! the source and the reference, as the campaign chooses), and the annotator picks the better
//! one or says they are about the same.
//!
//! An item of a pairwise HIT is one pair of outputs, `a` and `b` (for a quality-control item,
//! `a` is the original and `b` its degraded copy, or the other way round, as the HIT records).
//! Which of the two is shown on the left is drawn per item and recorded with the answer
//! ([`Preference::left`]), so that a position bias can be measured and a repeated pair can come
//! back with its sides swapped ([`qc`]). The choice is stored in terms of the outputs (`a`, `b`,
//! tie), never of the screen's sides: [`Preference::from_screen`] turns what was clicked into it.
//!
//! Storage: [`Detail::preference`](super::Detail::preference) holds the sides and the choice;
//! `score` holds `a`'s share of the win (1 when `a` is preferred, ½ for a tie, 0 when `b` is),
//! so that the numeric pipeline and the exports read one number per answer as for every other
//! protocol. Its one question is categorical over those three values.
//!
//! With the `engine` feature: Bradley–Terry ratings by maximum likelihood with bootstrap
//! intervals ([`bradley_terry`]), the quality-control tests ([`qc`]) and the files
//! ([`files`]: the judgment CSV `assay analyze --input` reads, `pairwise-<pair>.csv`).

#[cfg(feature = "engine")]
pub mod bradley_terry;
#[cfg(feature = "engine")]
pub mod campaign;
#[cfg(feature = "engine")]
pub mod files;
#[cfg(feature = "engine")]
pub mod qc;
mod settings;
pub use settings::PairwiseSettings;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "pairwise";
pub mod rating;

use serde::{Deserialize, Serialize};

use super::designer::DesignerFields;
use super::{
    Answer, AnswerRules, Beside, Catalog, Degrader, Detail, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question, RawRange,
    Scheme,
};
use crate::model::ItemType;
use crate::report::Scale;

pub struct PairwisePreference;

/// One of the two outputs of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// The annotator's choice, in terms of the pair's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Winner {
    A,
    B,
    /// "About the same".
    Tie,
}

impl Winner {
    /// `a`'s share of the win: 1, ½ or 0 (Chatbot Arena's convention: a tie is half a win for
    /// each side).
    pub fn score_of_a(self) -> f64 {
        match self {
            Winner::A => 1.0,
            Winner::Tie => 0.5,
            Winner::B => 0.0,
        }
    }

    /// The choice a stored score stands for (the inverse of [`Winner::score_of_a`]).
    pub fn of_score(score: f64) -> Option<Winner> {
        [Winner::A, Winner::Tie, Winner::B].into_iter().find(|w| w.score_of_a() == score)
    }

    /// `a`, `b` or `tie` (as in the judgment CSV).
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::A => "a",
            Winner::B => "b",
            Winner::Tie => "tie",
        }
    }

    /// Reads `a`, `b` or `tie`, in any case, spaces around ignored.
    pub fn parse(text: &str) -> Option<Winner> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a" => Some(Winner::A),
            "b" => Some(Winner::B),
            "tie" => Some(Winner::Tie),
            _ => None,
        }
    }

    /// The same choice with the roles of `a` and `b` exchanged.
    pub fn flipped(self) -> Winner {
        match self {
            Winner::A => Winner::B,
            Winner::B => Winner::A,
            Winner::Tie => Winner::Tie,
        }
    }
}

/// What the annotator clicked, in terms of the screen (keys 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScreenPick {
    Left,
    Right,
    Same,
}

/// A pairwise answer: which output was on the left, and which one was preferred.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preference {
    /// The output shown on the left (drawn per item when the HIT is built).
    pub left: Side,
    /// The choice, in terms of the outputs.
    pub winner: Winner,
}

impl Preference {
    /// The preference of a click on a screen that showed `left` on the left.
    pub fn from_screen(left: Side, pick: ScreenPick) -> Preference {
        let winner = match pick {
            ScreenPick::Same => Winner::Tie,
            ScreenPick::Left if left == Side::A => Winner::A,
            ScreenPick::Left => Winner::B,
            ScreenPick::Right if left == Side::A => Winner::B,
            ScreenPick::Right => Winner::A,
        };
        Preference { left, winner }
    }

    /// What was clicked on the screen.
    pub fn screen_pick(&self) -> ScreenPick {
        match (self.winner, self.left) {
            (Winner::Tie, _) => ScreenPick::Same,
            (Winner::A, Side::A) | (Winner::B, Side::B) => ScreenPick::Left,
            _ => ScreenPick::Right,
        }
    }
}

/// Three categories: `a` preferred, about the same, `b` preferred.
const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Categorical { categories: 3 }, range: RawRange::Unit }];

/// Pairwise preference as a campaign task: every method of [`Protocol`], registered in
/// [`super::for_task`] under `TaskKind::Pairwise`.
impl Protocol for PairwisePreference {
    fn name(&self) -> &'static str {
        "pairwise preference"
    }

    fn layout(&self) -> Layout {
        Layout::Several { outputs: 2 }
    }

    fn validate_answer(&self, answer: &Answer, _rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let preference = answer
            .detail
            .preference
            .ok_or_else(|| InvalidAnswer::new("detail", "Please choose A, B or \u{201c}about the same\u{201d} before going on."))?;
        if answer.score2.is_some() {
            return Err(InvalidAnswer::new("score2", "A preference between two translations takes one choice, not two scores."));
        }
        if let Some(score) = answer.score
            && score != preference.winner.score_of_a()
        {
            return Err(InvalidAnswer::new(
                "score",
                format!("The score {score} does not match the choice {:?} (1 for A, 0.5 for about the same, 0 for B).", preference.winner.as_str()),
            ));
        }
        if answer.detail.rank.is_some() || !answer.detail.spans.is_empty() || answer.detail.document_score.is_some() {
            return Err(InvalidAnswer::new("detail", "A preference between two translations takes a choice only (no rank, error spans or document score)."));
        }
        Ok(Answer {
            score: Some(preference.winner.score_of_a()),
            detail: Detail { preference: Some(preference), ..Detail::default() },
            ..Answer::default()
        })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Degraded copies against their own original, and repeated pairs with the sides swapped.
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        None
    }

    /// A practice answer matches when its `a`'s share of the win lies in the expected range.
    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        answer.score.is_some_and(|s| expected.within(s, expected.range1))
    }

    fn hit_plan(&self) -> HitPlan {
        HitPlan::Pairs
    }

    /// The source above the two outputs (and, as the campaign chooses, its reference).
    fn beside(&self) -> Beside {
        Beside::Source
    }

    /// The degraded copy against its original loses meaning, as a DA bad reference.
    fn degrader(&self) -> Degrader {
        Degrader::Adequacy
    }

    /// A human translation against its degraded copy, the sides drawn per item
    /// (`hit::practice`): a careful reader prefers the original (its share of the win is 1;
    /// "about the same" is not careful).
    fn practice(&self) -> Option<PracticeRule> {
        let preferred = (super::ORIGINAL_PREFERRED, super::ANY);
        Some(PracticeRule { high: preferred, low: preferred, high_reason: crate::i18n::Text::ReasonChanged, feedback: super::Feedback::Pair })
    }

    fn simulated_name(&self) -> &'static str {
        "pw"
    }

    /// The sign test on its copy pairs: the degraded side preferred no more often than chance.
    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::CopyPreferences
    }

    fn catalog(&self) -> Catalog {
        use crate::i18n::Text;
        Catalog { home_task: Text::HomeTaskPairwise, wording: (Some(Text::StatementPairwise), Text::InstructionsPairwise), anchors: (Text::AnchorLow, Text::AnchorHigh) }
    }

    /// Pairs per HIT, degraded copies and repeated pairs, the reference under the source as the
    /// campaign chooses; the source's and the reference's labels.
    fn designer(&self) -> DesignerFields {
        DesignerFields {
            pairs: true,
            label_source: true,
            label_reference: true,
            label_candidate: false,
            practice: true,
            reference_help: super::designer::REFERENCE_HIDDEN,
            ..DesignerFields::BASE
        }
    }
}

#[cfg(test)]
mod tests;
