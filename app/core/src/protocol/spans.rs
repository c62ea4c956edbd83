//! Error spans (ESA, MQM): the model the annotation screens, the stored answers and the files
//! share.
//!
//! # The one offset convention
//!
//! A span's `start` and `end` count **Unicode scalar values** (Rust `char`s, Python `str`
//! indices) of the text the annotator was shown, `start` inclusive and `end` exclusive, so the
//! marked text is `text.chars().skip(start).take(end - start)` (Python `text[start:end]`). A
//! span is never empty (`start < end`), lies within the text (`end ≤` its length in chars) and
//! never splits a grapheme cluster (a letter with its combining marks, a conjunct's virama, an
//! emoji sequence): both offsets are grapheme boundaries.
//!
//! An **omission** is marked on the `[MISSING]` token the screens show after the text, which is
//! not part of the text: it has `missing: true` and `start == end == 0`, and the files write its
//! offsets as `"missing"` (Appraise's and WMT 2024's `{"start_i": "missing", "end_i":
//! "missing"}`).
//!
//! # Conversions
//!
//! - A browser's Selection API and JavaScript string indices count **UTF-16 code units**: a
//!   character outside the Basic Multilingual Plane (an emoji, a CJK Extension B ideograph) is
//!   two of them. [`utf16_to_char`] and [`char_to_utf16`] convert one offset, refusing an
//!   offset inside a surrogate pair; [`Span::to_utf16`] a whole span.
//! - **Grapheme clusters** (extended, UAX #29): a selection made on the screen may start or end
//!   inside a cluster (a mark selected without its letter, a caret between a consonant and its
//!   vowel sign). The screens *snap* it outward to the enclosing boundaries
//!   ([`snap_to_graphemes`], [`selection_from_utf16`]: never narrower than what was selected);
//!   a stored or imported span that splits a cluster is *refused* by [`Span::validate`]
//!   ([`SpanError::SplitsGrapheme`]). [`char_to_grapheme`] and [`grapheme_to_char`] convert to
//!   and from grapheme indices (the n-th cluster).
//!
//! Right-to-left text needs nothing special: offsets are logical (the order of the text in
//! memory, which is what the Selection API reports), not visual. A selection whose focus lies
//! before its anchor (dragged right to left, or leftwards in an Arabic sentence) is ordered by
//! [`selection_from_utf16`].
//!
//! # Validation
//!
//! [`Span::validate`] checks a span against the text it marks and the protocol's [`Scheme`]:
//! ESA knows minor and major; MQM minor, major, critical and neutral, and needs a category.
//! [`Severity::parse`] names an unknown severity. Each problem is a [`SpanError`] whose message
//! says what is wrong in the organizer's words.

use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

/// How bad an error span is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Appraise's value for a span whose severity was never chosen (11 spans of WMT 2024's
    /// released ESA waves 2–3). Read from files; never accepted from an annotation screen.
    Undecided,
    /// Marked but not counted (MQM "neutral").
    Neutral,
    Minor,
    Major,
    Critical,
}

impl Severity {
    pub const ALL: [Severity; 5] = [Severity::Undecided, Severity::Neutral, Severity::Minor, Severity::Major, Severity::Critical];

    /// The name in files and JSON (`minor`, `major`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Undecided => "undecided",
            Severity::Neutral => "neutral",
            Severity::Minor => "minor",
            Severity::Major => "major",
            Severity::Critical => "critical",
        }
    }

    /// Reads a severity by name, in any case (`minor`, `Major`, …).
    pub fn parse(text: &str) -> Result<Severity, SpanError> {
        let t = text.trim();
        Severity::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(t))
            .ok_or_else(|| SpanError::UnknownSeverity { text: text.to_string() })
    }
}

/// Which protocol's rules a span follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Error Span Annotation: minor or major, no category.
    Esa,
    /// MQM: minor, major, critical or neutral, with a category.
    Mqm,
}

impl Scheme {
    /// The severities an annotator may give.
    pub fn severities(self) -> &'static [Severity] {
        match self {
            Scheme::Esa => &[Severity::Minor, Severity::Major],
            Scheme::Mqm => &[Severity::Minor, Severity::Major, Severity::Critical, Severity::Neutral],
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Esa => "ESA",
            Scheme::Mqm => "MQM",
        }
    }
}

/// An error span in the text the annotator was shown (see the module documentation for the
/// offset convention).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// First marked character (Unicode scalar values, inclusive).
    pub start: usize,
    /// One past the last marked character (exclusive).
    pub end: usize,
    pub severity: Severity,
    /// The error category (MQM), e.g. `accuracy/mistranslation`; `None` for ESA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// An omission marked on the `[MISSING]` token (then `start == end == 0`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missing: bool,
}

/// What is wrong with a span or an offset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpanError {
    #[error("the span {start}–{end} is empty or reversed: its start must lie before its end")]
    Empty { start: usize, end: usize },
    #[error("the span {start}–{end} lies outside the text, which has {len} characters")]
    OutOfRange { start: usize, end: usize, len: usize },
    #[error("offset {offset} splits a character from its combining marks (a grapheme cluster): a span must start and end between whole characters as shown")]
    SplitsGrapheme { offset: usize },
    #[error("unknown severity {text:?} (expected minor, major, critical or neutral)")]
    UnknownSeverity { text: String },
    #[error("severity {severity} is not one of {scheme}'s ({allowed})", severity = .severity.as_str(), scheme = .scheme.as_str(), allowed = allowed(*.scheme))]
    SeverityNotAllowed { severity: Severity, scheme: Scheme },
    #[error("an ESA span has no error category (got {category:?})")]
    CategoryNotAllowed { category: String },
    #[error("an MQM span needs an error category")]
    CategoryMissing,
    #[error("an omission ([MISSING]) has no place in the text: its offsets must both be 0, not {start}–{end}")]
    OmissionWithOffsets { start: usize, end: usize },
    #[error("UTF-16 offset {offset} lies beyond the text, which has {len} UTF-16 code units")]
    Utf16OutOfRange { offset: usize, len: usize },
    #[error("UTF-16 offset {offset} falls between the two halves of a surrogate pair")]
    InsideSurrogatePair { offset: usize },
    #[error("character offset {offset} lies beyond the text, which has {len} characters")]
    CharOutOfRange { offset: usize, len: usize },
    #[error("grapheme index {index} lies beyond the text, which has {len} grapheme clusters")]
    GraphemeOutOfRange { index: usize, len: usize },
    #[error("{0}")]
    Format(String),
}

fn allowed(scheme: Scheme) -> String {
    scheme.severities().iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

/// The length of `text` in Unicode scalar values.
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// The UTF-16 offset of character offset `offset` (`offset` may equal the length).
pub fn char_to_utf16(text: &str, offset: usize) -> Result<usize, SpanError> {
    let mut units = 0;
    let mut chars = text.chars();
    for _ in 0..offset {
        match chars.next() {
            Some(c) => units += c.len_utf16(),
            None => return Err(SpanError::CharOutOfRange { offset, len: char_len(text) }),
        }
    }
    Ok(units)
}

/// The character offset of UTF-16 offset `offset` (what a browser's Selection API gives);
/// refuses an offset between the halves of a surrogate pair or beyond the text.
pub fn utf16_to_char(text: &str, offset: usize) -> Result<usize, SpanError> {
    let (mut units, mut chars) = (0, 0);
    for c in text.chars() {
        if units == offset {
            return Ok(chars);
        }
        units += c.len_utf16();
        chars += 1;
        if units > offset {
            return Err(SpanError::InsideSurrogatePair { offset });
        }
    }
    if units == offset { Ok(chars) } else { Err(SpanError::Utf16OutOfRange { offset, len: units }) }
}

/// The grapheme-cluster boundaries of `text` as character offsets, from 0 to its length.
pub fn grapheme_boundaries(text: &str) -> Vec<usize> {
    let mut out = Vec::with_capacity(text.len() + 1);
    let mut at = 0;
    out.push(0);
    for g in text.graphemes(true) {
        at += g.chars().count();
        out.push(at);
    }
    out
}

/// Whether character offset `offset` lies between two grapheme clusters (or at either end).
pub fn is_grapheme_boundary(text: &str, offset: usize) -> bool {
    grapheme_boundaries(text).binary_search(&offset).is_ok()
}

/// The index of the grapheme cluster that starts at character offset `offset` (the number of
/// clusters before it); refuses an offset inside a cluster.
pub fn char_to_grapheme(text: &str, offset: usize) -> Result<usize, SpanError> {
    let b = grapheme_boundaries(text);
    let len = *b.last().unwrap_or(&0);
    if offset > len {
        return Err(SpanError::CharOutOfRange { offset, len });
    }
    b.binary_search(&offset).map_err(|_| SpanError::SplitsGrapheme { offset })
}

/// The character offset where grapheme cluster `index` starts (`index` may equal the number of
/// clusters: the end of the text).
pub fn grapheme_to_char(text: &str, index: usize) -> Result<usize, SpanError> {
    let b = grapheme_boundaries(text);
    b.get(index).copied().ok_or(SpanError::GraphemeOutOfRange { index, len: b.len() - 1 })
}

/// Widens `start..end` (character offsets, clamped to the text) to the enclosing grapheme
/// boundaries: the start moves back and the end forward to the nearest boundary, so the result
/// covers at least what was given. A caret (`start == end`) inside a cluster becomes that
/// cluster.
pub fn snap_to_graphemes(text: &str, start: usize, end: usize) -> (usize, usize) {
    let b = grapheme_boundaries(text);
    let len = *b.last().unwrap_or(&0);
    let (start, end) = (start.min(len), end.min(len));
    let down = |x: usize| match b.binary_search(&x) {
        Ok(_) => x,
        Err(i) => b[i - 1],
    };
    let up = |x: usize| match b.binary_search(&x) {
        Ok(_) => x,
        Err(i) => b[i],
    };
    (down(start), up(end))
}

/// A selection on the screen (two UTF-16 offsets, anchor and focus, in either order) as the
/// span offsets to store: converted to characters, ordered, and snapped outward to grapheme
/// boundaries. An empty selection (a caret) is [`SpanError::Empty`].
pub fn selection_from_utf16(text: &str, anchor: usize, focus: usize) -> Result<(usize, usize), SpanError> {
    let (lo, hi) = if anchor <= focus { (anchor, focus) } else { (focus, anchor) };
    if lo == hi {
        let at = utf16_to_char(text, lo).or_else(|_| utf16_to_char(text, lo - 1))?;
        return Err(SpanError::Empty { start: at, end: at });
    }
    // Half of a surrogate pair selected: the character it encodes counts as selected.
    let start = match utf16_to_char(text, lo) {
        Err(SpanError::InsideSurrogatePair { .. }) => utf16_to_char(text, lo - 1)?,
        other => other?,
    };
    let end = match utf16_to_char(text, hi) {
        Err(SpanError::InsideSurrogatePair { .. }) => utf16_to_char(text, hi + 1)?,
        other => other?,
    };
    Ok(snap_to_graphemes(text, start, end))
}

impl Span {
    /// An error span over `start..end` (characters).
    pub fn new(start: usize, end: usize, severity: Severity) -> Span {
        Span { start, end, severity, category: None, missing: false }
    }

    /// An omission (on the `[MISSING]` token).
    pub fn omission(severity: Severity) -> Span {
        Span { start: 0, end: 0, severity, category: None, missing: true }
    }

    /// Checks the span against the text it marks and the protocol's rules.
    pub fn validate(&self, text: &str, scheme: Scheme) -> Result<(), SpanError> {
        if !scheme.severities().contains(&self.severity) {
            return Err(SpanError::SeverityNotAllowed { severity: self.severity, scheme });
        }
        match (scheme, &self.category) {
            (Scheme::Esa, Some(c)) => return Err(SpanError::CategoryNotAllowed { category: c.clone() }),
            (Scheme::Mqm, None) => return Err(SpanError::CategoryMissing),
            (Scheme::Mqm, Some(c)) if c.trim().is_empty() => return Err(SpanError::CategoryMissing),
            _ => {}
        }
        if self.missing {
            if self.start != 0 || self.end != 0 {
                return Err(SpanError::OmissionWithOffsets { start: self.start, end: self.end });
            }
            return Ok(());
        }
        if self.start >= self.end {
            return Err(SpanError::Empty { start: self.start, end: self.end });
        }
        let b = grapheme_boundaries(text);
        let len = *b.last().unwrap_or(&0);
        if self.end > len {
            return Err(SpanError::OutOfRange { start: self.start, end: self.end, len });
        }
        for offset in [self.start, self.end] {
            if b.binary_search(&offset).is_err() {
                return Err(SpanError::SplitsGrapheme { offset });
            }
        }
        Ok(())
    }

    /// The span's offsets in UTF-16 code units (for the browser); an omission stays `(0, 0)`.
    pub fn to_utf16(&self, text: &str) -> Result<(usize, usize), SpanError> {
        if self.missing {
            return Ok((0, 0));
        }
        Ok((char_to_utf16(text, self.start)?, char_to_utf16(text, self.end)?))
    }

    /// A span from UTF-16 offsets (exact: an offset inside a surrogate pair is refused; for a
    /// live selection, which may need snapping, use [`selection_from_utf16`]).
    pub fn from_utf16(text: &str, start: usize, end: usize, severity: Severity) -> Result<Span, SpanError> {
        Ok(Span::new(utf16_to_char(text, start)?, utf16_to_char(text, end)?, severity))
    }

    /// The marked text (empty for an omission; `None` when the span does not fit the text).
    pub fn marked<'t>(&self, text: &'t str) -> Option<&'t str> {
        if self.missing {
            return Some("");
        }
        let byte = |offset: usize| text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).nth(offset);
        let (s, e) = (byte(self.start)?, byte(self.end)?);
        text.get(s..e)
    }
}

/// Checks every span of an answer (in order; the first problem is reported with its index).
pub fn validate_spans(text: &str, spans: &[Span], scheme: Scheme) -> Result<(), (usize, SpanError)> {
    spans.iter().enumerate().try_for_each(|(i, s)| s.validate(text, scheme).map_err(|e| (i, e)))
}

// ---------------------------------------------------------------------------------------------
// Appraise / WMT 2024 span JSON

/// Reads the span list of Appraise's ESA/MQM exports and WMT 2024's files: a JSON array of
/// `{"start_i": int, "end_i": int, "severity": str, "error_type": str|null}`, with
/// `"missing"` for both offsets of an omission. The offsets are taken as characters of the
/// target (this module's convention); `end_i` exclusive. What a file alone can tell is
/// checked: integers ≥ 0 with `start_i ≤ end_i` (WMT 2024's waves hold 1,361 spans with
/// `start_i == end_i`, kept as they are), both offsets missing or neither, a known severity.
/// Whether a span fits its text is [`Span::validate`]'s business.
pub fn spans_from_appraise_json(text: &str) -> Result<Vec<Span>, SpanError> {
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| SpanError::Format(format!("the spans are not JSON: {e}")))?;
    spans_from_appraise_value(&value)
}

/// [`spans_from_appraise_json`] on a parsed JSON value (the WMT 2024 JSONL's `esa_spans`).
pub fn spans_from_appraise_value(value: &serde_json::Value) -> Result<Vec<Span>, SpanError> {
    let list = match value {
        serde_json::Value::Array(a) => a,
        serde_json::Value::Null => return Ok(Vec::new()),
        _ => return Err(SpanError::Format("the spans are not a JSON array".into())),
    };
    list.iter().enumerate().map(|(i, v)| span_from_appraise(v).map_err(|e| SpanError::Format(format!("span {}: {e}", i + 1)))).collect()
}

fn span_from_appraise(v: &serde_json::Value) -> Result<Span, SpanError> {
    let obj = v.as_object().ok_or_else(|| SpanError::Format("not a JSON object".into()))?;
    let offset = |key: &str| -> Result<Option<usize>, SpanError> {
        match obj.get(key) {
            None => Err(SpanError::Format(format!("no {key}"))),
            Some(serde_json::Value::String(s)) if s.eq_ignore_ascii_case("missing") => Ok(None),
            Some(serde_json::Value::Number(n)) => n
                .as_u64()
                .map(|x| Some(x as usize))
                .ok_or_else(|| SpanError::Format(format!("{key} is not a whole number ≥ 0: {n}"))),
            Some(other) => Err(SpanError::Format(format!("{key} is neither a whole number nor \"missing\": {other}"))),
        }
    };
    let severity = match obj.get("severity") {
        Some(serde_json::Value::String(s)) => Severity::parse(s)?,
        Some(other) => return Err(SpanError::Format(format!("severity is not a string: {other}"))),
        None => return Err(SpanError::Format("no severity".into())),
    };
    let category = match obj.get("error_type") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if s.is_empty() => None,
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(SpanError::Format(format!("error_type is not a string: {other}"))),
    };
    match (offset("start_i")?, offset("end_i")?) {
        (None, None) => Ok(Span { category, ..Span::omission(severity) }),
        (Some(start), Some(end)) if start <= end => Ok(Span { start, end, severity, category, missing: false }),
        (Some(start), Some(end)) => Err(SpanError::Empty { start, end }),
        _ => Err(SpanError::Format("only one of start_i and end_i is \"missing\"".into())),
    }
}

/// Writes spans as Appraise and WMT 2024 do (`start_i`, `end_i` exclusive in characters,
/// `"missing"` for an omission, `severity`, `error_type` or `null`): the inverse of
/// [`spans_from_appraise_json`].
pub fn spans_to_appraise_json(spans: &[Span]) -> String {
    let list: Vec<serde_json::Value> = spans
        .iter()
        .map(|s| {
            let (a, b) = if s.missing { (serde_json::json!("missing"), serde_json::json!("missing")) } else { (s.start.into(), s.end.into()) };
            serde_json::json!({"start_i": a, "end_i": b, "severity": s.severity.as_str(), "error_type": s.category})
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

#[cfg(test)]
mod tests;
