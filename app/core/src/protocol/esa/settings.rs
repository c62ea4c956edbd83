//! The document options of a campaign's design (`CampaignSettings::documents`): how HITs of
//! whole documents are sized and what the screen shows of a segment's document. ESA owns them;
//! every protocol whose HITs are documents (`HitPlan::Documents`: ESA, MQM) reads them. Flattened
//! into the stored settings JSON under their historical keys, so stored campaigns and the
//! designer's form read as before.

use serde::{Deserialize, Serialize};

/// What a document-level screen shows besides the segment being judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DocumentContext {
    /// The segment alone.
    None,
    /// The document's earlier segments above it, read-only (Appraise's static context).
    #[default]
    Left,
    /// The whole document, the segment being judged highlighted in it.
    Whole,
}

impl DocumentContext {
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentContext::None => "none",
            DocumentContext::Left => "left",
            DocumentContext::Whole => "whole",
        }
    }

    pub fn parse(s: &str) -> Option<DocumentContext> {
        [DocumentContext::None, DocumentContext::Left, DocumentContext::Whole].into_iter().find(|c| c.as_str() == s)
    }
}

/// HITs of documents and their screens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DocumentSettings {
    /// What the screen shows of a segment's document besides the segment.
    #[serde(rename = "document_context")]
    pub context: DocumentContext,
    /// A 0–100 score for the whole document with its last segment (Appraise's
    /// `isCompleteDocument` item; ESA).
    #[serde(rename = "document_score")]
    pub score: bool,
    /// The expected time of a HIT in minutes; HITs are filled with whole documents up to it
    /// (WMT 2025: about an hour).
    pub hit_minutes: f64,
    /// Expected seconds per source word and output (WMT 2025: 0.8).
    pub seconds_per_source_word: f64,
    /// Source words per HIT instead of an expected time (0: by time).
    pub hit_words: usize,
    /// Start each screen with the output's pre-filled spans, where the test set has them
    /// (ESA-AI; default on). Off: the screens start empty, as without them.
    pub show_prefilled: bool,
}

impl Default for DocumentSettings {
    fn default() -> Self {
        DocumentSettings {
            context: DocumentContext::Left,
            score: false,
            hit_minutes: 60.0,
            seconds_per_source_word: 0.8,
            hit_words: 0,
            show_prefilled: true,
        }
    }
}

impl DocumentSettings {
    /// The expected seconds a HIT is filled to: `hit_words` source words at
    /// `seconds_per_source_word` when set, else `hit_minutes`.
    pub fn seconds_per_hit(&self) -> f64 {
        if self.hit_words > 0 { self.hit_words as f64 * self.seconds_per_source_word } else { self.hit_minutes * 60.0 }
    }
}
