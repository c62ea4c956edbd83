//! Error Span Annotation (ESA; Kocmi et al. 2024, the WMT 2024 and 2025 general task): the
//! annotator marks the error spans of a translation — each minor or major, an omission on the
//! `[MISSING]` token the screen shows after the text — and then gives the segment a 0–100 score
//! (anchors: 0 no meaning preserved, 33 some, 66 most, 100 perfect).
//!
//! Items come in documents: a HIT holds whole documents of one system each (`hit::documents`),
//! one segment per screen with the document's other segments as read-only context, and, as a
//! campaign setting, a score for the whole document with its last segment.
//!
//! Stored: the score as `judgments.score` (so quality control, z-scores and system scores read
//! it as they read DA), the spans (offsets in the shown text, `protocol::spans`) and the
//! document score in `judgments.detail`.
//!
//! Quality control: degraded copies of documents (every segment of the copy degraded as DA
//! degrades an output: a careful annotator scores it lower and marks the damage) and exact
//! repeats of documents, each paired segment by segment with its original.

use super::spans::{Scheme, Severity};
use super::{Answer, AnswerRules, Beside, Degrader, Detail, HitPlan, InvalidAnswer, Layout, PracticeRule, Protocol, Question, RawRange};
use super::{ANY, DA_HIGH, DA_LOW};
use crate::i18n::Text;
use crate::model::ItemType;
use crate::report::Scale;

mod settings;
pub use settings::{DocumentContext, DocumentSettings};

pub struct ErrorSpans;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "esa";

/// The most spans one answer may hold (more is not an annotation but noise, and bounds what a
/// request may make the server check).
pub const MAX_SPANS: usize = 100;

/// The score below which a screen with no span marked asks the annotator to confirm
/// (Appraise: 66, "most meaning preserved").
pub const CONFIRM_BELOW: f64 = 66.0;

/// The score anchors of ESA's slider: (value, label).
pub const ANCHORS: [(u32, &str); 4] = [(0, "No meaning preserved"), (33, "Some meaning preserved"), (66, "Most meaning preserved, few errors"), (100, "Perfect translation")];

const QUESTIONS: &[Question] = &[Question { analysis_task: None, read: |a| a.score, scale: Scale::Continuous, range: RawRange::Percent }];

fn check_score(field: &'static str, s: f64) -> Result<f64, InvalidAnswer> {
    if !s.is_finite() || !(0.0..=100.0).contains(&s) {
        return Err(InvalidAnswer::new(field, format!("The score must be between 0 and 100 (got {s}).")));
    }
    Ok(s)
}

impl Protocol for ErrorSpans {
    fn name(&self) -> &'static str {
        "error span annotation"
    }

    fn layout(&self) -> Layout {
        Layout::Document
    }

    fn validate_answer(&self, answer: &Answer, _rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
        let s = answer.score.ok_or_else(|| InvalidAnswer::new("score", "Please set the slider before going on."))?;
        let score = check_score("score", s)?;
        if answer.score2.is_some() {
            return Err(InvalidAnswer::new("score2", "An error-span item takes one score, not two."));
        }
        if answer.detail.rank.is_some() {
            return Err(InvalidAnswer::new("detail", "An error-span item takes spans and a score, not a rank."));
        }
        if answer.detail.spans.len() > MAX_SPANS {
            return Err(InvalidAnswer::new("detail", format!("At most {MAX_SPANS} error spans can be marked in one segment.")));
        }
        let document_score = answer.detail.document_score.map(|d| check_score("document_score", d)).transpose()?;
        Ok(Answer { score: Some(score), score2: None, skipped: false, detail: Detail { spans: answer.detail.spans.clone(), document_score, ..Detail::default() } })
    }

    fn questions(&self) -> &'static [Question] {
        QUESTIONS
    }

    /// Degraded copies and exact repeats of documents.
    fn quality_control(&self) -> &'static [ItemType] {
        &[ItemType::BadRef, ItemType::Repeat]
    }


    fn span_scheme(&self) -> Option<Scheme> {
        Some(Scheme::Esa)
    }

    /// A careful reader marks no major error in a human translation and scores it high, and
    /// marks at least one error (an omission too) in a strongly degraded copy and scores it low.
    fn practice_matches(&self, expected: &super::Practice, answer: &Answer) -> bool {
        let score = answer.score.is_some_and(|s| expected.within(s, expected.range1));
        let spans = &answer.detail.spans;
        score && if expected.high { !spans.iter().any(|s| s.severity >= Severity::Major) } else { !spans.is_empty() }
    }

    fn hit_plan(&self) -> HitPlan {
        HitPlan::Documents
    }

    fn beside(&self) -> Beside {
        Beside::Source
    }

    fn degrader(&self) -> Degrader {
        Degrader::Adequacy
    }

    /// The score as DA's slider: high for a human translation, low for a degraded copy.
    fn practice(&self) -> Option<PracticeRule> {
        Some(PracticeRule { high: (DA_HIGH, ANY), low: (DA_LOW, ANY), high_reason: Text::ReasonSourceHuman, feedback: super::Feedback::SpansAndScore })
    }

    fn simulated_name(&self) -> &'static str {
        "esa"
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }


    /// Its wording is not translated yet.
    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::DesignerFields;
        DesignerFields { document_score: true, ..DesignerFields::DOCUMENTS }
    }

    fn catalog(&self) -> super::Catalog {
        super::Catalog { home_task: Text::HomeTaskEsa, wording: (Some(Text::StatementEsa), Text::InstructionsEsa), anchors: (Text::EsaAnchorLow, Text::EsaAnchorHigh) }
    }
}

/// A piece of a translation as the ESA screen offers it for marking: a word (or, in scripts
/// written without spaces, a character as read: a grapheme cluster), or the space and
/// punctuation between words. Offsets in characters, end exclusive ([`super::spans`]); every
/// offset is a grapheme boundary, so a span made of whole tokens is always valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    /// Whitespace only: not markable on its own, but inside a span that covers both sides.
    pub space: bool,
}

/// Scripts written without spaces between words whose runs UAX #29 leaves whole: Thai, Lao,
/// Khmer, Myanmar. Their runs are offered grapheme by grapheme.
fn unspaced(c: char) -> bool {
    matches!(c as u32, 0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1780..=0x17FF | 0xAA60..=0xAA7F)
}

/// The tokens of `text` (UAX #29 word boundaries; Han, Hiragana and the like come one
/// character per token, Thai, Lao, Khmer and Myanmar one grapheme cluster per token).
pub fn tokens(text: &str) -> Vec<Token> {
    use unicode_segmentation::UnicodeSegmentation;
    let mut out = Vec::new();
    let mut chars_before = 0;
    for piece in text.split_word_bounds() {
        let n = piece.chars().count();
        if piece.chars().any(unspaced) && n > 1 {
            let mut at = chars_before;
            for g in piece.graphemes(true) {
                let k = g.chars().count();
                out.push(Token { start: at, end: at + k, space: g.chars().all(char::is_whitespace) });
                at += k;
            }
        } else {
            out.push(Token { start: chars_before, end: chars_before + n, space: piece.chars().all(char::is_whitespace) });
        }
        chars_before += n;
    }
    out
}

#[cfg(test)]
mod token_tests {
    use super::*;
    use crate::protocol::spans::{Severity, Span};

    fn words(text: &str) -> Vec<String> {
        tokens(text).iter().filter(|t| !t.space).map(|t| text.chars().skip(t.start).take(t.end - t.start).collect()).collect()
    }

    #[test]
    fn tokens_cover_the_text_at_grapheme_boundaries_in_every_script() {
        for text in [
            "The meeting was moved to Friday.",
            "会议改到星期五了。",
            "会議は金曜日に変更されました。",
            "تم نقل الاجتماع إلى يوم الجمعة.",
            "बैठक को शुक्रवार तक के लिए टाल दिया गया।",
            "การประชุมถูกเลื่อนไปวันศุกร์",
            "e\u{301}te\u{301} 👩‍👩‍👧 ok",
            "",
        ] {
            let t = tokens(text);
            let mut at = 0;
            for tok in &t {
                assert_eq!(tok.start, at, "{text}: tokens are contiguous");
                assert!(tok.end > tok.start);
                // Any run of whole tokens is a valid ESA span of the text.
                Span::new(tok.start, tok.end, Severity::Minor).validate(text, crate::protocol::Scheme::Esa).unwrap();
                at = tok.end;
            }
            assert_eq!(at, text.chars().count(), "{text}: tokens cover the text");
        }
        assert_eq!(words("The meeting was moved."), ["The", "meeting", "was", "moved", "."]);
        assert_eq!(words("会议改到"), ["会", "议", "改", "到"]);
        assert_eq!(words("تم نقل"), ["تم", "نقل"]);
        // Hindi: a word keeps its vowel signs and viramas.
        assert_eq!(words("शुक्रवार तक"), ["शुक्रवार", "तक"]);
        // Thai: grapheme by grapheme (a consonant keeps its vowel and tone marks).
        let thai = words("ถูกเลื่อน");
        assert!(thai.len() > 3 && thai.concat() == "ถูกเลื่อน" && thai.contains(&"ลื่".to_string()), "{thai:?}");
        assert_eq!(words("e\u{301}te\u{301}"), ["e\u{301}te\u{301}"]);
    }
}
