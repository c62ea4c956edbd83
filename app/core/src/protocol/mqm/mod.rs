//! MQM (Multidimensional Quality Metrics) as WMT and Google run it: the error taxonomy, the
//! weights, the segment score and the checks of an MQM answer's spans. Pure: the screens, the
//! server and the file readers share it. Spans follow [`super::spans`] (offsets in Unicode
//! scalar values of the shown target, end exclusive; omissions on `[MISSING]`).
//!
//! # Taxonomy
//!
//! A [`Taxonomy`] is a list of leaf categories written as in Google's MQM TSV releases
//! (google/wmt-mqm-human-evaluation): `Parent/Child` (`Accuracy/Mistranslation`,
//! `Fluency/Punctuation`) or a single level (`Other`, `Non-translation!`, `Source issue`).
//! [`Taxonomy::default`] is the MQM core as WMT/Google use it (Freitag et al. 2021 and Google's
//! Anthea templates; [`DEFAULT_TAXONOMY`]). Where the releases spell a category two ways, the
//! default uses the newer spelling: `Fluency/Character encoding` (the 2021 TED release writes
//! `Fluency/Display`), `Source issue` (2020–2021: `Source error`), `Terminology/Inconsistent use
//! of terminology` (as in every release). An organizer edits the taxonomy as text, one category
//! per line ([`Taxonomy::parse`], [`Taxonomy::to_text`]); categories are matched without regard
//! to case.
//!
//! # Weights and score
//!
//! [`MqmWeights`] (defaults as Google's MQM and WMT 2024's `humeval/tools.py` `mqm_weights`):
//! Major 5, Minor 1, Neutral 0; Minor `Fluency/Punctuation` 0.1; `Non-translation!` 25 (Major or
//! Critical; Google's rule is `Major/Non-translation!:25`, and Anthea forces Major on it);
//! `Source issue`/`Source error` 0 and any category containing `Reinterpretation` 0, whatever
//! the severity. **Critical** defaults to **5**: Google's MQM has no critical severity (its
//! scorer and Marot weigh it as Major when it appears) and WMT 2024's code gives "major or
//! critical" 5; a campaign that wants MQM's classic 10 sets it. An `undecided` severity (only
//! ever read from files) weighs as Minor.
//!
//! [`mqm_score`] = −Σ weights, **Google's sign**: 0 is a perfect segment, lower is worse
//! (−25 for one non-translation). Appraise's 0–100 mapping is [`mqm_to_100`].
//!
//! # Validation
//!
//! [`validate_mqm`] checks an answer's spans: each one as [`Span::validate`] with
//! [`Scheme::Mqm`] (offsets, severity, a category present); the severity among those the
//! campaign allows (critical is a setting); the category in the taxonomy; at most `max_errors`
//! spans (Google: 5; 0 = no limit); a non-translation is Major or Critical and the segment's only
//! error (Anthea: it "overrides any other marked errors").

use serde::{Deserialize, Serialize};

use super::spans::{Scheme, Severity, Span, SpanError};

/// The default taxonomy as text (one category per line, Google's TSV spelling).
pub const DEFAULT_TAXONOMY: &str = "\
Accuracy/Addition
Accuracy/Omission
Accuracy/Mistranslation
Accuracy/Untranslated text
Fluency/Punctuation
Fluency/Spelling
Fluency/Grammar
Fluency/Register
Fluency/Inconsistency
Fluency/Character encoding
Terminology/Inappropriate for context
Terminology/Inconsistent use of terminology
Style/Awkward
Locale convention/Address format
Locale convention/Currency format
Locale convention/Date format
Locale convention/Name format
Locale convention/Telephone format
Locale convention/Time format
Other
Non-translation!
Source issue
";

/// Google's errors-per-segment cap (raters chose the five most severe).
pub const GOOGLE_MAX_ERRORS: usize = 5;

/// Longest category name accepted, in characters.
pub const MAX_CATEGORY_CHARS: usize = 100;

/// Most categories in one taxonomy.
pub const MAX_CATEGORIES: usize = 200;

/// An MQM error taxonomy: the leaf categories an annotator may choose, in the order shown.
/// In JSON, the list of categories, checked as [`Taxonomy::parse`] checks a text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct Taxonomy {
    /// `Parent/Child` or a single level, as written in Google's TSV.
    pub categories: Vec<String>,
}

/// A line of a taxonomy text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TaxonomyError {
    /// 1-based line of the text (0: the text as a whole).
    pub line: usize,
    pub message: String,
}

impl TryFrom<Vec<String>> for Taxonomy {
    type Error = TaxonomyError;

    fn try_from(list: Vec<String>) -> Result<Taxonomy, TaxonomyError> {
        if let Some(i) = list.iter().position(|c| c.contains(['\n', '\r'])) {
            return Err(TaxonomyError { line: i + 1, message: "a category cannot hold a line break".into() });
        }
        Taxonomy::parse(&list.join("\n"))
    }
}

impl From<Taxonomy> for Vec<String> {
    fn from(t: Taxonomy) -> Vec<String> {
        t.categories
    }
}

impl Default for Taxonomy {
    /// Parsed once: every reading of a campaign's settings (`CampaignSettings::read`, several
    /// times per HIT on the annotation server, whatever the task) starts from the defaults, and
    /// parsing the taxonomy each time showed in the server's profile under load.
    fn default() -> Self {
        static DEFAULT: std::sync::LazyLock<Taxonomy> =
            std::sync::LazyLock::new(|| Taxonomy::parse(DEFAULT_TAXONOMY).expect("the default taxonomy parses"));
        DEFAULT.clone()
    }
}

impl Taxonomy {
    /// Reads an organizer's taxonomy: one category per line, `Parent/Child` or a single level;
    /// blank lines and lines starting with `#` are skipped; spaces around names and around the
    /// `/` are trimmed. Refused, with the line: an empty part (`/Omission`, `Accuracy/`), more
    /// than two levels, a tab or control character, a name over [`MAX_CATEGORY_CHARS`], a
    /// category given twice (in any case), a parent that is also a category of its own
    /// (`Accuracy` and `Accuracy/Omission`), `no-error` (a TSV row marker, not a category);
    /// and a text with no category or more than [`MAX_CATEGORIES`].
    pub fn parse(text: &str) -> Result<Taxonomy, TaxonomyError> {
        let mut categories: Vec<String> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let e = |message: String| TaxonomyError { line, message };
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if t.chars().any(char::is_control) {
                return Err(e("a category cannot hold a tab or a control character".into()));
            }
            let parts: Vec<&str> = t.split('/').map(str::trim).collect();
            if parts.len() > 2 {
                return Err(e(format!("{t:?} has more than two levels (write Parent/Child)")));
            }
            if parts.iter().any(|p| p.is_empty()) {
                return Err(e(format!("{t:?} has an empty part before or after the /")));
            }
            let name = parts.join("/");
            if name.chars().count() > MAX_CATEGORY_CHARS {
                return Err(e(format!("the category is longer than {MAX_CATEGORY_CHARS} characters")));
            }
            if name.eq_ignore_ascii_case("no-error") {
                return Err(e("no-error marks a segment without errors in the TSV; it is not a category".into()));
            }
            if let Some(j) = categories.iter().position(|c| c.eq_ignore_ascii_case(&name)) {
                return Err(e(format!("{name:?} is already on line {}", lines[j])));
            }
            let parent = |c: &str| c.split_once('/').map(|(p, _)| p.to_string());
            for (j, c) in categories.iter().enumerate() {
                let clash = parent(c).is_some_and(|p| p.eq_ignore_ascii_case(&name))
                    || parent(&name).is_some_and(|p| p.eq_ignore_ascii_case(c));
                if clash {
                    return Err(e(format!(
                        "{name:?} and {c:?} (line {}): a parent with subcategories cannot be a category of its own",
                        lines[j]
                    )));
                }
            }
            categories.push(name);
            lines.push(line);
        }
        if categories.is_empty() {
            return Err(TaxonomyError { line: 0, message: "the taxonomy has no category".into() });
        }
        if categories.len() > MAX_CATEGORIES {
            return Err(TaxonomyError { line: lines[MAX_CATEGORIES], message: format!("more than {MAX_CATEGORIES} categories") });
        }
        Ok(Taxonomy { categories })
    }

    /// The text [`Taxonomy::parse`] reads back to the same taxonomy.
    pub fn to_text(&self) -> String {
        self.categories.iter().map(|c| format!("{c}\n")).collect()
    }

    /// The taxonomy's spelling of `category` (matched without regard to case and to spaces
    /// around the `/`), if it has it.
    pub fn find(&self, category: &str) -> Option<&str> {
        let norm: String = category.split('/').map(str::trim).collect::<Vec<_>>().join("/");
        self.categories.iter().find(|c| c.eq_ignore_ascii_case(&norm)).map(String::as_str)
    }

    /// Whether `category` is one of the taxonomy's (see [`Taxonomy::find`]).
    pub fn contains(&self, category: &str) -> bool {
        self.find(category).is_some()
    }

    /// The categories grouped by parent, in order of first appearance (for the screens): a
    /// single-level category is a group of its own with no children.
    pub fn groups(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for c in &self.categories {
            match c.split_once('/') {
                Some((p, child)) => match out.iter_mut().find(|(q, _)| q == p) {
                    Some((_, children)) => children.push(child.to_string()),
                    None => out.push((p.to_string(), vec![child.to_string()])),
                },
                None => out.push((c.clone(), Vec::new())),
            }
        }
        out
    }
}

/// Whether a category is the non-translation category (`Non-translation!`, `Non-translation`,
/// any case).
pub fn is_non_translation(category: &str) -> bool {
    category.trim().trim_end_matches('!').trim().eq_ignore_ascii_case("non-translation")
}

/// Whether a category is an issue of the source (`Source issue`, `Source error`, with or
/// without a subcategory such as Google's `Source error/-`).
pub fn is_source_issue(category: &str) -> bool {
    let top = category.split('/').next().unwrap_or("").trim();
    top.eq_ignore_ascii_case("source issue") || top.eq_ignore_ascii_case("source error")
}

/// Whether a category is Minor-weighted punctuation (`Fluency/Punctuation`, any case).
pub fn is_punctuation(category: &str) -> bool {
    let mut parts = category.split('/').map(str::trim);
    matches!((parts.next(), parts.next(), parts.next()), (Some(p), Some(c), None) if p.eq_ignore_ascii_case("fluency") && c.eq_ignore_ascii_case("punctuation"))
}

/// The weights of MQM errors (see the module documentation for the rules and their order).
/// Read from JSON, missing fields take their defaults and an unknown field is refused (a typo
/// must not silently leave a default in place).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MqmWeights {
    pub minor: f64,
    pub major: f64,
    /// Default 5 (as Major: Google's and WMT 2024's code); MQM's classic value is 10.
    pub critical: f64,
    pub neutral: f64,
    /// A Minor `Fluency/Punctuation` error.
    pub minor_punctuation: f64,
    /// A Major or Critical `Non-translation!`.
    pub non_translation: f64,
    /// `Source issue` / `Source error`, any severity.
    pub source_issue: f64,
    /// A category containing `Reinterpretation` (Anthea's Creative Reinterpretation), any
    /// severity.
    pub reinterpretation: f64,
}

impl Default for MqmWeights {
    fn default() -> Self {
        MqmWeights {
            minor: 1.0,
            major: 5.0,
            critical: 5.0,
            neutral: 0.0,
            minor_punctuation: 0.1,
            non_translation: 25.0,
            source_issue: 0.0,
            reinterpretation: 0.0,
        }
    }
}

/// A weight of [`MqmWeights`] that is not a finite number ≥ 0.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("the MQM weight {name} must be a number ≥ 0, not {value}")]
pub struct WeightError {
    /// The weight's field name (`minor`, `non_translation`, …).
    pub name: &'static str,
    pub value: f64,
}

impl MqmWeights {
    /// Checks every weight is a finite number ≥ 0 (naming the first that is not).
    pub fn validate(&self) -> Result<(), WeightError> {
        let named = [
            ("minor", self.minor),
            ("major", self.major),
            ("critical", self.critical),
            ("neutral", self.neutral),
            ("minor_punctuation", self.minor_punctuation),
            ("non_translation", self.non_translation),
            ("source_issue", self.source_issue),
            ("reinterpretation", self.reinterpretation),
        ];
        for (name, w) in named {
            if !(w.is_finite() && w >= 0.0) {
                return Err(WeightError { name, value: w });
            }
        }
        Ok(())
    }

    /// The weight of one error: the first rule that applies of neutral severity; source issue;
    /// reinterpretation; Major/Critical non-translation; Minor punctuation; the severity's
    /// weight (undecided as Minor).
    pub fn weight(&self, severity: Severity, category: Option<&str>) -> f64 {
        let cat = category.unwrap_or("");
        if severity == Severity::Neutral {
            return self.neutral;
        }
        if is_source_issue(cat) {
            return self.source_issue;
        }
        if cat.to_lowercase().contains("reinterpretation") {
            return self.reinterpretation;
        }
        if is_non_translation(cat) && matches!(severity, Severity::Major | Severity::Critical) {
            return self.non_translation;
        }
        match severity {
            Severity::Minor | Severity::Undecided if is_punctuation(cat) => self.minor_punctuation,
            Severity::Minor | Severity::Undecided => self.minor,
            Severity::Major => self.major,
            Severity::Critical => self.critical,
            Severity::Neutral => self.neutral,
        }
    }
}

/// A segment's MQM score: −Σ the weights of its errors (0 = no error, lower is worse).
/// Omissions count like any other error.
pub fn mqm_score(spans: &[Span], weights: &MqmWeights) -> f64 {
    let total: f64 = spans.iter().map(|s| weights.weight(s.severity, s.category.as_deref())).sum();
    if total == 0.0 { 0.0 } else { -total }
}

/// Appraise's 0–100 reading of an MQM score: (max(−25, score) + 25) × 4.
pub fn mqm_to_100(score: f64) -> f64 {
    (score.max(-25.0) + 25.0) * 4.0
}

/// An MQM campaign's settings as far as the pure core goes: what annotators may mark and how
/// it is weighed. Read from JSON, missing fields take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MqmSettings {
    pub taxonomy: Taxonomy,
    pub weights: MqmWeights,
    /// Errors per segment at most; 0 = no limit. Default [`GOOGLE_MAX_ERRORS`].
    pub max_errors: usize,
    /// Whether annotators may mark Critical errors (default no, as Google's MQM).
    pub critical: bool,
}

impl Default for MqmSettings {
    fn default() -> Self {
        MqmSettings { taxonomy: Taxonomy::default(), weights: MqmWeights::default(), max_errors: GOOGLE_MAX_ERRORS, critical: false }
    }
}

impl MqmSettings {
    /// The severities annotators may give: minor, major, (critical,) neutral.
    pub fn severities(&self) -> Vec<Severity> {
        let mut v = vec![Severity::Minor, Severity::Major];
        if self.critical {
            v.push(Severity::Critical);
        }
        v.push(Severity::Neutral);
        v
    }

    /// [`validate_mqm`] with these settings.
    pub fn validate_spans(&self, text: &str, spans: &[Span]) -> Result<(), MqmError> {
        validate_mqm(text, spans, &self.taxonomy, self.max_errors, &self.severities())
    }

    /// The segment score of spans with these weights ([`mqm_score`]).
    pub fn score(&self, spans: &[Span]) -> f64 {
        mqm_score(spans, &self.weights)
    }

    /// An answer already valid for MQM ([`super::validate_on`]) against the campaign: its spans
    /// against the taxonomy, severities and cap, then its score (−Σ weights). A skipped answer
    /// stays as it is.
    pub fn apply(&self, text: &str, answer: &mut super::Answer) -> Result<(), MqmError> {
        if !answer.skipped {
            self.validate_spans(text, &answer.detail.spans)?;
            answer.score = Some(self.score(&answer.detail.spans));
        }
        Ok(())
    }
}

/// Why an MQM answer's spans cannot be stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MqmError {
    #[error("error {}: {error}", .index + 1)]
    Span { index: usize, error: SpanError },
    #[error("error {}: the category {category:?} is not in this campaign's error list", .index + 1)]
    UnknownCategory { index: usize, category: String },
    #[error("error {}: this campaign does not use the severity {}", .index + 1, .severity.as_str())]
    SeverityNotAllowed { index: usize, severity: Severity },
    #[error("{count} errors are marked; at most {max} per segment (keep the most severe)")]
    TooManyErrors { count: usize, max: usize },
    #[error("error {}: a non-translation is always major or critical, not {}", .index + 1, .severity.as_str())]
    NonTranslationSeverity { index: usize, severity: Severity },
    #[error("error {}: a non-translation stands for the whole segment and replaces every other error ({count} marked)", .index + 1)]
    NonTranslationNotAlone { index: usize, count: usize },
}

/// Checks an MQM answer's spans on the shown `text` (see the module documentation): the first
/// problem found is returned, errors numbered from 1 in its message. `max_errors` 0 means no
/// limit; `severities_allowed` is the campaign's choice among MQM's minor, major, critical and
/// neutral.
pub fn validate_mqm(
    text: &str,
    spans: &[Span],
    taxonomy: &Taxonomy,
    max_errors: usize,
    severities_allowed: &[Severity],
) -> Result<(), MqmError> {
    if max_errors > 0 && spans.len() > max_errors {
        return Err(MqmError::TooManyErrors { count: spans.len(), max: max_errors });
    }
    for (index, s) in spans.iter().enumerate() {
        s.validate(text, Scheme::Mqm).map_err(|error| MqmError::Span { index, error })?;
        if !severities_allowed.contains(&s.severity) {
            return Err(MqmError::SeverityNotAllowed { index, severity: s.severity });
        }
        let category = s.category.as_deref().unwrap_or("");
        if !taxonomy.contains(category) {
            return Err(MqmError::UnknownCategory { index, category: category.to_string() });
        }
        if is_non_translation(category) {
            if !matches!(s.severity, Severity::Major | Severity::Critical) {
                return Err(MqmError::NonTranslationSeverity { index, severity: s.severity });
            }
            if spans.len() > 1 {
                return Err(MqmError::NonTranslationNotAlone { index, count: spans.len() });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize, end: usize, severity: Severity, category: &str) -> Span {
        Span { category: Some(category.into()), ..Span::new(start, end, severity) }
    }

    /// An MQM segment takes its errors and, at a document's end, the document's score (0–100;
    /// issue 38 row 15a), never a segment score; the score out of range is refused by name.
    #[test]
    fn an_mqm_answer_may_carry_its_documents_score() {
        use crate::model::TaskKind;
        use crate::protocol::{Answer, AnswerRules, Detail, validate_on};
        let rules = AnswerRules::default();
        let errors = vec![Span { category: Some("Accuracy/Mistranslation".into()), ..Span::new(0, 4, Severity::Major) }];
        let with_doc = Answer { detail: Detail { spans: errors.clone(), document_score: Some(64.0), ..Detail::default() }, ..Answer::default() };
        let stored = validate_on(TaskKind::Mqm, "Eine kleine Katze", &with_doc, &rules).unwrap();
        assert_eq!((stored.detail.document_score, stored.score), (Some(64.0), None));
        assert_eq!(stored.detail.spans, errors);
        for bad in [101.0, -1.0, f64::NAN] {
            let out = Answer { detail: Detail { document_score: Some(bad), ..with_doc.detail.clone() }, ..Answer::default() };
            assert_eq!(validate_on(TaskKind::Mqm, "Eine kleine Katze", &out, &rules).unwrap_err().field, "document_score", "{bad}");
        }
        let ranked = Answer { detail: Detail { rank: Some(1), ..Detail::default() }, ..Answer::default() };
        assert_eq!(validate_on(TaskKind::Mqm, "Eine kleine Katze", &ranked, &rules).unwrap_err().field, "detail");
    }

    #[test]
    fn default_taxonomy_has_googles_categories() {
        let t = Taxonomy::default();
        assert_eq!(t.categories.len(), 22);
        for c in ["Accuracy/Mistranslation", "Fluency/Punctuation", "Non-translation!", "Source issue", "Style/Awkward", "Locale convention/Telephone format", "Terminology/Inconsistent use of terminology"] {
            assert!(t.contains(c), "{c}");
        }
        assert_eq!(t.find("accuracy / omission"), Some("Accuracy/Omission"));
        assert!(!t.contains("Accuracy"), "a parent is not a category");
        assert!(!t.contains("Fluency/Display"));
        let groups = t.groups();
        assert_eq!(groups.len(), 8);
        assert_eq!(groups[0], ("Accuracy".to_string(), vec!["Addition".into(), "Omission".into(), "Mistranslation".into(), "Untranslated text".into()]));
        assert_eq!(groups[5], ("Other".to_string(), vec![]));
        assert_eq!(Taxonomy::parse(&t.to_text()).unwrap(), t);
    }

    #[test]
    fn taxonomy_parse_names_the_line() {
        let t = Taxonomy::parse("# mine\n\n  Accuracy / Omission \nOther\n").unwrap();
        assert_eq!(t.categories, vec!["Accuracy/Omission", "Other"]);
        let cases = [
            ("Other\n/Omission\n", 2, "empty part"),
            ("Accuracy/\n", 1, "empty part"),
            ("A/B/C\n", 1, "more than two levels"),
            ("Other\nOTHER\n", 2, "already on line 1"),
            ("Accuracy/Omission\nx\nAccuracy\n", 3, "parent"),
            ("Accuracy\nAccuracy/Omission\n", 2, "parent"),
            ("No-error\n", 1, "not a category"),
            ("Bad\ttab\n", 1, "tab"),
        ];
        for (text, line, words) in cases {
            let e = Taxonomy::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
        assert_eq!(Taxonomy::parse("# only a comment\n\n").unwrap_err().line, 0);
        let long = "x".repeat(MAX_CATEGORY_CHARS + 1);
        assert!(Taxonomy::parse(&long).unwrap_err().message.contains("longer"));
        let many: String = (0..=MAX_CATEGORIES).map(|i| format!("C{i}\n")).collect();
        assert_eq!(Taxonomy::parse(&many).unwrap_err().line, MAX_CATEGORIES + 1);
    }

    #[test]
    fn weights_follow_google_and_wmt24() {
        let w = MqmWeights::default();
        assert_eq!(w.weight(Severity::Major, Some("Accuracy/Mistranslation")), 5.0);
        assert_eq!(w.weight(Severity::Minor, Some("Accuracy/Mistranslation")), 1.0);
        assert_eq!(w.weight(Severity::Minor, Some("Fluency/Punctuation")), 0.1);
        assert_eq!(w.weight(Severity::Minor, Some("fluency/punctuation")), 0.1);
        assert_eq!(w.weight(Severity::Major, Some("Fluency/Punctuation")), 5.0, "Major punctuation is standard");
        assert_eq!(w.weight(Severity::Major, Some("Non-translation!")), 25.0);
        assert_eq!(w.weight(Severity::Critical, Some("Non-translation")), 25.0);
        assert_eq!(w.weight(Severity::Minor, Some("Non-translation!")), 1.0, "Google: Major/Non-translation! only");
        assert_eq!(w.weight(Severity::Major, Some("Source issue")), 0.0);
        assert_eq!(w.weight(Severity::Minor, Some("Source error/-")), 0.0);
        assert_eq!(w.weight(Severity::Major, Some("Accuracy/Creative Reinterpretation")), 0.0);
        assert_eq!(w.weight(Severity::Neutral, Some("Accuracy/Mistranslation")), 0.0);
        assert_eq!(w.weight(Severity::Critical, Some("Accuracy/Mistranslation")), 5.0);
        assert_eq!(w.weight(Severity::Undecided, None), 1.0);
        let ten = MqmWeights { critical: 10.0, ..w };
        assert_eq!(ten.weight(Severity::Critical, Some("Other")), 10.0);
        // serde: missing fields take the defaults.
        let read: MqmWeights = serde_json::from_str(r#"{"critical": 10}"#).unwrap();
        assert_eq!(read, ten);
        assert!(serde_json::from_str::<MqmWeights>(r#"{"critcal": 10}"#).is_err(), "a typo is refused");
        assert!(w.validate().is_ok());
        assert!(MqmWeights { minor: -1.0, ..w }.validate().unwrap_err().to_string().contains("minor"));
        assert!(MqmWeights { major: f64::NAN, ..w }.validate().unwrap_err().to_string().contains("major"));
    }

    #[test]
    fn settings_and_taxonomy_serde() {
        let s = MqmSettings::default();
        assert_eq!(s.severities(), [Severity::Minor, Severity::Major, Severity::Neutral]);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""taxonomy":["Accuracy/Addition","#), "{json}");
        let back: MqmSettings = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let mine: MqmSettings = serde_json::from_str(r#"{"taxonomy": ["Meaning", "Form/Spelling"], "critical": true, "max_errors": 0}"#).unwrap();
        assert_eq!(mine.weights, MqmWeights::default());
        assert_eq!(mine.severities(), [Severity::Minor, Severity::Major, Severity::Critical, Severity::Neutral]);
        let crit = [Span { category: Some("Meaning".into()), ..Span::new(0, 2, Severity::Critical) }];
        assert_eq!(mine.validate_spans("abc", &crit), Ok(()));
        assert!(s.validate_spans("abc", &crit).is_err());
        assert_eq!(mine.score(&crit), -5.0);
        // The list is checked as a text is.
        let dup = serde_json::from_str::<MqmSettings>(r#"{"taxonomy": ["Other", "other"]}"#).unwrap_err();
        assert!(dup.to_string().contains("already on line 1"), "{dup}");
        assert!(serde_json::from_str::<Taxonomy>(r#"["A\nB"]"#).unwrap_err().to_string().contains("line break"));
        assert!(serde_json::from_str::<Taxonomy>("[]").is_err());
    }

    #[test]
    fn score_is_minus_the_sum() {
        let w = MqmWeights::default();
        assert_eq!(mqm_score(&[], &w), 0.0);
        assert!(mqm_score(&[], &w).is_sign_positive(), "no -0.0");
        let spans = vec![
            span(0, 3, Severity::Major, "Accuracy/Mistranslation"),
            span(4, 5, Severity::Minor, "Fluency/Punctuation"),
            span(6, 8, Severity::Minor, "Style/Awkward"),
            Span { category: Some("Accuracy/Omission".into()), ..Span::omission(Severity::Major) },
            span(9, 10, Severity::Neutral, "Other"),
        ];
        assert!((mqm_score(&spans, &w) - -11.1).abs() < 1e-12, "{}", mqm_score(&spans, &w));
        assert!(mqm_score(&[span(9, 10, Severity::Neutral, "Other")], &w).is_sign_positive());
        assert_eq!(mqm_to_100(0.0), 100.0);
        assert_eq!(mqm_to_100(-25.0), 0.0);
        assert_eq!(mqm_to_100(-40.0), 0.0);
        assert_eq!(mqm_to_100(-5.0), 80.0);
    }

    #[test]
    fn validation() {
        let t = Taxonomy::default();
        let text = "Der Hund bellt.";
        let sev = [Severity::Minor, Severity::Major, Severity::Neutral];
        let ok = vec![span(0, 3, Severity::Major, "Accuracy/Mistranslation"), span(14, 15, Severity::Minor, "fluency/punctuation")];
        assert_eq!(validate_mqm(text, &ok, &t, 5, &sev), Ok(()));
        // Omission on [MISSING].
        let om = vec![Span { category: Some("Accuracy/Omission".into()), ..Span::omission(Severity::Major) }];
        assert_eq!(validate_mqm(text, &om, &t, 5, &sev), Ok(()));
        // Unknown category.
        let bad = vec![ok[0].clone(), span(4, 8, Severity::Minor, "Accuracy/Nonsense")];
        let e = validate_mqm(text, &bad, &t, 5, &sev).unwrap_err();
        assert_eq!(e, MqmError::UnknownCategory { index: 1, category: "Accuracy/Nonsense".into() });
        assert!(e.to_string().starts_with("error 2:"), "{e}");
        // Critical not allowed by this campaign, although MQM knows it.
        let crit = vec![span(0, 3, Severity::Critical, "Other")];
        assert_eq!(validate_mqm(text, &crit, &t, 5, &sev), Err(MqmError::SeverityNotAllowed { index: 0, severity: Severity::Critical }));
        assert_eq!(validate_mqm(text, &crit, &t, 5, &[Severity::Minor, Severity::Major, Severity::Critical]), Ok(()));
        // Span problems come from Span::validate.
        let out = vec![span(10, 30, Severity::Minor, "Other")];
        assert!(matches!(validate_mqm(text, &out, &t, 5, &sev), Err(MqmError::Span { index: 0, error: SpanError::OutOfRange { .. } })));
        let nocat = vec![Span::new(0, 3, Severity::Minor)];
        assert!(matches!(validate_mqm(text, &nocat, &t, 5, &sev), Err(MqmError::Span { error: SpanError::CategoryMissing, .. })));
        // Combining marks: a span may not split e + U+0301.
        let accented = "cafe\u{301} noir";
        assert!(matches!(
            validate_mqm(accented, &[span(0, 4, Severity::Minor, "Fluency/Spelling")], &t, 5, &sev),
            Err(MqmError::Span { error: SpanError::SplitsGrapheme { offset: 4 }, .. })
        ));
        assert_eq!(validate_mqm(accented, &[span(0, 5, Severity::Minor, "Fluency/Spelling")], &t, 5, &sev), Ok(()));
        // At most max errors; 0 = no limit.
        let six: Vec<Span> = (0..6).map(|i| span(i, i + 1, Severity::Minor, "Other")).collect();
        assert_eq!(validate_mqm(text, &six, &t, 5, &sev), Err(MqmError::TooManyErrors { count: 6, max: 5 }));
        assert_eq!(validate_mqm(text, &six[..5], &t, 5, &sev), Ok(()));
        assert_eq!(validate_mqm(text, &six, &t, 0, &sev), Ok(()));
        // Non-translation: major and alone.
        let nt = span(0, 15, Severity::Major, "Non-translation!");
        assert_eq!(validate_mqm(text, std::slice::from_ref(&nt), &t, 5, &sev), Ok(()));
        let minor_nt = Span { severity: Severity::Minor, ..nt.clone() };
        assert_eq!(validate_mqm(text, &[minor_nt], &t, 5, &sev), Err(MqmError::NonTranslationSeverity { index: 0, severity: Severity::Minor }));
        assert_eq!(validate_mqm(text, &[ok[0].clone(), nt], &t, 5, &sev), Err(MqmError::NonTranslationNotAlone { index: 1, count: 2 }));
        // A custom taxonomy.
        let mine = Taxonomy::parse("Meaning\nForm\n").unwrap();
        assert!(validate_mqm(text, &ok, &mine, 5, &sev).is_err());
        assert_eq!(validate_mqm(text, &[span(0, 3, Severity::Minor, "form")], &mine, 5, &sev), Ok(()));
    }
}

/// MQM as a campaign protocol: the annotator marks spans, each with a category of the
/// campaign's taxonomy and a severity, on one segment of a document at a time; there is no
/// slider. The answer carries the spans only: the server checks them against the campaign's
/// [`MqmSettings`] and stores the segment's score, −Σ weights ([`MqmSettings::score`]), so the
/// quality control, z-scores and rankings every protocol shares read a number (a degraded
/// copy should get a lower, more negative score than its original).
pub struct Mqm;

/// The task's stored name (`TaskKind::as_str`).
pub const NAME: &str = "mqm";

const QUESTIONS: &[super::Question] = &[super::Question { analysis_task: None, read: |a| a.score, scale: crate::report::Scale::Continuous, range: super::RawRange::Percent }];

impl super::Protocol for Mqm {
    fn name(&self) -> &'static str {
        "MQM"
    }

    fn layout(&self) -> super::Layout {
        super::Layout::Document
    }

    fn validate_answer(&self, answer: &super::Answer, _rules: &super::AnswerRules) -> Result<super::Answer, super::InvalidAnswer> {
        use super::{Answer, Detail, InvalidAnswer};
        if answer.score.is_some() || answer.score2.is_some() {
            return Err(InvalidAnswer::new("score", "An MQM segment takes its errors only: its score comes from them."));
        }
        if answer.detail.rank.is_some() {
            return Err(InvalidAnswer::new("detail", "An MQM segment takes its errors only."));
        }
        if answer.detail.spans.len() > super::esa::MAX_SPANS {
            return Err(InvalidAnswer::new("detail", format!("At most {} errors can be marked in one segment.", super::esa::MAX_SPANS)));
        }
        // A document's last segment may carry the document's score (0–100), as Appraise's
        // document task asks it after an MQM document too (issue 38 row 15a).
        let document_score = match answer.detail.document_score {
            Some(d) if !d.is_finite() || !(0.0..=100.0).contains(&d) => {
                return Err(InvalidAnswer::new("document_score", format!("The score must be between 0 and 100 (got {d}).")));
            }
            other => other,
        };
        Ok(Answer { detail: Detail { spans: answer.detail.spans.clone(), document_score, ..Detail::default() }, ..Answer::default() })
    }

    fn questions(&self) -> &'static [super::Question] {
        QUESTIONS
    }

    /// Degraded and repeated copies of documents, as ESA.
    fn quality_control(&self) -> &'static [crate::model::ItemType] {
        &[crate::model::ItemType::BadRef, crate::model::ItemType::Repeat]
    }


    fn span_scheme(&self) -> Option<Scheme> {
        Some(Scheme::Mqm)
    }

    /// MQM has no score to set: a careful reader marks no major or critical error in a human
    /// translation, and at least one in a strongly degraded copy.
    fn practice_matches(&self, expected: &super::Practice, answer: &super::Answer) -> bool {
        let serious = answer.detail.spans.iter().any(|s| s.severity >= super::Severity::Major);
        serious != expected.high
    }

    fn hit_plan(&self) -> super::HitPlan {
        super::HitPlan::Documents
    }

    fn beside(&self) -> super::Beside {
        super::Beside::Source
    }

    fn degrader(&self) -> super::Degrader {
        super::Degrader::Adequacy
    }

    /// No score to set: only the errors marked count ([`super::Protocol::practice_matches`]).
    fn practice(&self) -> Option<super::PracticeRule> {
        Some(super::PracticeRule { high: (super::ANY, super::ANY), low: (super::ANY, super::ANY), high_reason: crate::i18n::Text::ReasonSourceHuman, feedback: super::Feedback::Spans })
    }

    fn simulated_name(&self) -> &'static str {
        "mqm"
    }

    fn worker_test(&self) -> super::WorkerTest {
        super::WorkerTest::ScorePairs
    }


    /// MQM's fields, and the document's score after its last segment (Appraise's document task).
    fn designer(&self) -> super::designer::DesignerFields {
        use super::designer::DesignerFields;
        DesignerFields { mqm: true, document_score: true, ..DesignerFields::DOCUMENTS }
    }

    fn catalog(&self) -> super::Catalog {
        super::Catalog { home_task: crate::i18n::Text::HomeTaskMqm, wording: (Some(crate::i18n::Text::StatementMqm), crate::i18n::Text::InstructionsMqm), anchors: (crate::i18n::Text::AnchorLow, crate::i18n::Text::AnchorHigh) }
    }
}
