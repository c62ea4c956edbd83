//! Post-editing (issue 40 item 2): a screen shows the source (and, as the campaign chooses, the
//! reference) above the system's output pre-filled in an editable field (or an empty field, for
//! translation from scratch: [`PostEditSettings::from_scratch`]); the annotator corrects it and
//! goes on, or says that no change is needed.
//!
//! The answer ([`PostEdit`], in [`Detail::post_edit`](super::Detail::post_edit)) holds the
//! edited text, whether "no change needed" was pressed, the time from the item's appearance to
//! the first keystroke and the time from that keystroke to submission (both measured by the
//! screen, both optional). What is checked ([`Protocol::validate_answer`]):
//! - a post-edit is required, and nothing else (no score sent, no rank, spans, preference);
//! - the text, its line breaks and tabs turned into spaces (a post-edit is one line: the
//!   exports write one segment a line), holds no other control character and at most
//!   [`MAX_CHARS`] characters;
//! - it is not blank, unless "no change needed" was pressed: the stored text is then the text
//!   shown, whatever was sent (`metrics::postedit::settle`, on the server, which knows what was
//!   shown);
//! - the times, when sent, are at most a day.
//!
//! The score stored with the answer (`judgments.score`, what the quality gate and the numeric
//! pipeline read) is computed by the server from the text shown and the post-edit (`settle`):
//! `100 − min(HTER, 100)`, the share of the output left as it was; HTER is sacrebleu's TER of
//! the output against its post-edit ([`crate::metrics::hter`]). A degraded copy (a bad
//! reference) must be edited more than its original: its score lower, which is the paired test
//! every score protocol's workers pass ([`WorkerTest::ScorePairs`](super::WorkerTest)).
//!
//! What needs TER lives beside it in `metrics::postedit` (TER is `metrics`', and `metrics`
//! reads `analysis`, which reads `import`, which reads this folder: a protocol importing
//! `metrics` would close a circle): the score of an answer (`metrics::postedit::settle`,
//! called by the annotation server after [`super::validate_on`]), a campaign's HTER per segment
//! and per system with bootstrap intervals and rank ranges (`metrics::postedit::campaign`), and
//! the files (`metrics::postedit::files`: the judgment CSV `assay analyze --input` reads and
//! writes, `postedit-<pair>.csv`, the post-edits as a text file per system).

mod settings;
pub use settings::PostEditSettings;

use serde::{Deserialize, Serialize};

use super::designer::DesignerFields;
use super::{Answer, AnswerRules, Beside, Catalog, Degrader, Detail, HitPlan, InvalidAnswer, Layout, Practice, PracticeRule, Protocol, Question, RawRange, Scheme};
use crate::model::ItemType;
use crate::report::Scale;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "post-edit";

/// The longest post-edit accepted, in characters (Unicode scalar values).
pub const MAX_CHARS: usize = 5_000;

/// The longest time accepted for either of an answer's times: a day, in ms.
pub const MAX_MS: u64 = 86_400_000;

/// A post-edit as the annotator gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PostEdit {
    /// The edited text (for "no change needed", the text shown).
    pub text: String,
    /// "No change needed" was pressed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unchanged: bool,
    /// From the item's appearance to the first keystroke in the field, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_key_ms: Option<u64>,
    /// From the first keystroke to submission, in ms (the editing time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edit_ms: Option<u64>,
}

pub struct PostEditing;

// The lines of a campaign's HTER table (computed by `metrics::postedit::campaign`), here
// because the results page, in the browser too, shows them.

/// One system's line of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemRow {
    pub system: String,
    /// Corpus-level HTER (edits per 100 post-edit words).
    pub hter: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub rank_low: usize,
    pub rank_high: usize,
    pub edits: u64,
    pub words: usize,
    pub mean_segment_hter: f64,
    pub segments: usize,
    pub post_edits: usize,
    /// Median editing time of its post-edits that carry one, ms.
    pub median_edit_ms: Option<u64>,
}

/// One worker's degraded copies against their originals (same segment and system, same
/// worker): how many copies were edited more than the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CopyCheck {
    pub worker: String,
    /// Copies whose original the worker also post-edited.
    pub pairs: usize,
    pub edited_more: usize,
    pub edited_less: usize,
    /// Mean of HTER(copy) − HTER(original); `None` without pairs.
    pub mean_difference: Option<f64>,
    pub kept: bool,
}


/// The share of the output left as it was: 100 − min(HTER, 100).
const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Continuous, range: RawRange::Percent }];

/// A post-edit's text as stored: line breaks and tabs become spaces, the ends trimmed; `None`
/// when it holds another control character (with the character's code).
pub fn normalise(text: &str) -> Result<String, u32> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => return Err(c as u32),
            c => out.push(c),
        }
    }
    Ok(out.trim().to_string())
}

impl Protocol for PostEditing {
    fn name(&self) -> &'static str {
        "post-editing"
    }

    fn layout(&self) -> Layout {
        Layout::Single
    }

    fn validate_answer(&self, answer: &Answer, _rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let given = answer.detail.post_edit.as_ref().ok_or_else(|| InvalidAnswer::new("detail", "Please correct the translation (or press \u{201c}No change needed\u{201d}) before going on."))?;
        if answer.score.is_some() || answer.score2.is_some() {
            return Err(InvalidAnswer::new("score", "A post-edit takes the corrected text, not a score (the edit rate is computed from the text)."));
        }
        if answer.detail.rank.is_some() || !answer.detail.spans.is_empty() || answer.detail.document_score.is_some() || answer.detail.preference.is_some() {
            return Err(InvalidAnswer::new("detail", "A post-edit takes the corrected text only (no rank, error spans, document score or preference)."));
        }
        let text = normalise(&given.text).map_err(|c| InvalidAnswer::new("detail", format!("The corrected text holds a control character (U+{c:04X}); please remove it.")))?;
        let chars = text.chars().count();
        if chars > MAX_CHARS {
            return Err(InvalidAnswer::new("detail", format!("The corrected text is {chars} characters long; at most {MAX_CHARS} are accepted.")));
        }
        if text.is_empty() && !given.unchanged {
            return Err(InvalidAnswer::new("detail", "The corrected text is empty: write the translation, or press \u{201c}No change needed\u{201d} if it needs none."));
        }
        for (name, t) in [("first_key_ms", given.first_key_ms), ("edit_ms", given.edit_ms)] {
            if let Some(ms) = t
                && ms > MAX_MS
            {
                return Err(InvalidAnswer::new("detail", format!("The time {name} must be at most a day ({MAX_MS} ms); got {ms}.")));
            }
        }
        let post_edit = PostEdit { text, unchanged: given.unchanged, first_key_ms: given.first_key_ms, edit_ms: given.edit_ms };
        Ok(Answer { detail: Detail { post_edit: Some(post_edit), ..Detail::default() }, ..Answer::default() })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Degraded copies (edited more than their original by a careful worker) and repeats.
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat]
    }

    fn span_scheme(&self) -> Option<Scheme> {
        None
    }

    /// A practice answer matches when its score (the share left as it was) lies in the range.
    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool {
        answer.score.is_some_and(|s| expected.within(s, expected.range1))
    }

    /// Single items with degraded copies and repeats among them, as direct assessment's.
    fn hit_plan(&self) -> HitPlan {
        HitPlan::Items
    }

    /// The source above the field (and the reference, as the campaign chooses).
    fn beside(&self) -> Beside {
        Beside::Source
    }

    /// A degraded copy loses meaning, as a DA bad reference: a careful post-editor restores it.
    fn degrader(&self) -> Degrader {
        Degrader::Adequacy
    }

    /// No practice yet: a practice post-edit needs feedback of its own.
    fn practice(&self) -> Option<PracticeRule> {
        None
    }

    fn simulated_name(&self) -> &'static str {
        "pe"
    }

    /// The paired test on scores: a degraded copy's score (the share left unedited) against its
    /// original's.
    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }

    fn catalog(&self) -> Catalog {
        use crate::i18n::Text;
        Catalog { home_task: Text::HomeTaskPostEdit, wording: (Some(Text::StatementPostEdit), Text::InstructionsPostEdit), anchors: (Text::AnchorLow, Text::AnchorHigh) }
    }

    /// Items per HIT with degraded copies and repeats; the statement above the field; the
    /// source's, the reference's and the edited text's labels; no practice.
    fn designer(&self) -> DesignerFields {
        DesignerFields {
            label_source: true,
            label_reference: true,
            practice: false,
            judgment_time: Some(super::designer::JudgmentTime::Judgment),
            ..DesignerFields::DIRECT
        }
    }
}

#[cfg(test)]
mod tests;

/// Whether a campaign task is post-editing (for the readers outside this folder that add its
/// analysis beside the pipeline's).
pub fn is_post_editing(task: crate::model::TaskKind) -> bool {
    task.as_str() == NAME
}
