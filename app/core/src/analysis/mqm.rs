//! MQM results from files: the TSV of Google's MQM releases (google/wmt-mqm-human-evaluation,
//! the format of Google's Marot and MQM Viewer) in and out, MQM scores per segment, rater and
//! system, and the ranking with the same tests as ESA ([`super::esa::rank_pair`]).
//!
//! # The TSV
//!
//! Tab-separated, UTF-8, one row per marked error; an optional header line starting
//! `system<TAB>doc` (Marot's rule; the releases name the third and fourth columns `doc_id`
//! `seg_id` or `doc_seg_id` `global_seg_id`). Nine or ten fields: `system, doc, doc_seg_id,
//! global_seg_id, rater, source, target, category, severity[, metadata]` (the tenth a JSON
//! object in newer releases, a free note in older ones; kept as text). A segment is (system,
//! doc, doc_seg_id, global_seg_id). A rater's segment without errors is one row with category and severity
//! `No-error` (any case). The error's span is marked by `<v>…</v>` inside the target, or inside
//! the source for source-side errors (omissions, source issues); a row may mark none (a
//! non-translation covers the whole segment). Fields written with CSV quoting (as in the 2020
//! `source-errors` release: `"…""serious""…"`) are unquoted when the whole field is quoted and
//! every inner quote doubled.
//!
//! Read into [`MqmRow`]s: the texts **without the markers**, the span as offsets in the Assay
//! convention ([`crate::protocol::spans`]: Unicode scalar values, end exclusive) on the text
//! that carried the markers, with [`Side`] saying which. A read is all or nothing; the first
//! problem stops it, named by its line: wrong number of fields, an empty system, document,
//! segment or rater, an unknown severity, a `No-error` row with an error category (or the
//! reverse), a `</v>` without `<v>` or repeated markers, markers on both sides. A `<v>` without
//! its `</v>` (two rows of the 2021 TED release) marks up to the end of the text and is
//! counted ([`MqmFile::unclosed_markers`]).
//!
//! [`write_mqm_tsv`] writes the ten-column form with the header `system doc doc_seg_id
//! global_seg_id rater source target category severity metadata`, markers put back: the
//! inverse of the reader.
//!
//! # Scores ([`score`])
//!
//! A rater's score of a segment is [`mqm_score`](crate::protocol::mqm::mqm_score)'s −Σ weights
//! over the rater's rows there (source-side and unmarked errors included; `No-error` rows
//! count 0); a segment's score is the mean over its raters (as Marot); a system's score the mean
//! over its segments (Google's sign: 0 is perfect, higher is better).
//!
//! # Ranking
//!
//! Per-segment scores feed [`super::esa::rank_pair`] unchanged: the mean of per-domain means,
//! per domain the Wilcoxon signed-rank test on paired segment differences (SciPy's defaults),
//! Stouffer across domains, WMT 2024's (or 2025's) rank ranges and clusters. Domains come from
//! a documents file (`DOMAIN<TAB>DOC`), else everything is one domain `all`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, BufRead, BufReader, Read, Write};

use serde::{Deserialize, Serialize};

use super::esa::{self, EsaPairReport, EsaSettings, PairData, SegmentValue, ThinPair};
use super::formats::{FormatError, csv_text, err};
use crate::protocol::mqm::MqmWeights;
use crate::protocol::spans::{Severity, Span};

/// Which text carries an error's span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Marked in the target (the Assay span convention applies to the target).
    Target,
    /// Marked in the source (omissions, source issues).
    Source,
    /// No marker (a non-translation, or a row without a span).
    Unmarked,
}

/// One marked error of an [`MqmRow`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowError {
    pub category: String,
    pub severity: Severity,
    pub side: Side,
    /// Character offsets on the side's text (without markers), end exclusive; `(0, 0)` when
    /// unmarked.
    pub start: usize,
    pub end: usize,
}

/// One row of an MQM TSV.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MqmRow {
    /// 1-based line in the file (0 for rows made in memory).
    pub line: usize,
    pub system: String,
    pub doc: String,
    pub doc_seg_id: String,
    pub global_seg_id: String,
    pub rater: String,
    /// Without `<v>` markers.
    pub source: String,
    /// Without `<v>` markers.
    pub target: String,
    /// `None`: a `No-error` row.
    pub error: Option<RowError>,
    /// The tenth field, as read (empty when absent).
    pub metadata: String,
}

impl MqmRow {
    /// The error as an Assay span on the target, when it is marked there (`None` for
    /// `No-error` rows and for source-side or unmarked errors, whose offsets do not index the
    /// target).
    pub fn target_span(&self) -> Option<Span> {
        let e = self.error.as_ref()?;
        (e.side == Side::Target).then(|| Span { category: Some(e.category.clone()), ..Span::new(e.start, e.end, e.severity) })
    }

    /// The error's weight (0 for a `No-error` row).
    pub fn weight(&self, weights: &MqmWeights) -> f64 {
        self.error.as_ref().map_or(0.0, |e| weights.weight(e.severity, Some(&e.category)))
    }
}

/// A segment as one rater saw it, for [`rows_for_answer`].
#[derive(Clone, Copy, Debug)]
pub struct SegmentRef<'a> {
    pub system: &'a str,
    pub doc: &'a str,
    pub doc_seg_id: &'a str,
    pub global_seg_id: &'a str,
    pub rater: &'a str,
    pub source: &'a str,
    pub target: &'a str,
}

/// Why a span or a marked text has no MQM TSV row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MqmRowError {
    /// Span `span` (1-based) has no error category: the TSV has no row for one.
    #[error("span {span}: no error category")]
    NoCategory { span: usize },
    /// Span `span` (1-based) lies beyond the target.
    #[error("span {span}: {start}–{end} does not fit the target ({len} characters)")]
    DoesNotFit { span: usize, start: usize, end: usize, len: usize },
    /// A text carries other than one `<v>…</v>` pair.
    #[error("expected one <v>…</v> pair, found {opens} <v> and {closes} </v>")]
    Markers { opens: usize, closes: usize },
    /// The `</v>` comes first.
    #[error("</v> comes before <v>")]
    CloseFirst,
}

/// An Assay answer's spans as MQM TSV rows: one row per span (spans on the target; an
/// omission, which has no place in the text, unmarked), a `No-error` row when there is none.
/// Refuses a span without a category (the TSV has no row for one) and a span beyond the
/// target.
pub fn rows_for_answer(seg: SegmentRef<'_>, spans: &[Span]) -> Result<Vec<MqmRow>, MqmRowError> {
    let row = |error: Option<RowError>| MqmRow {
        line: 0,
        system: seg.system.to_string(),
        doc: seg.doc.to_string(),
        doc_seg_id: seg.doc_seg_id.to_string(),
        global_seg_id: seg.global_seg_id.to_string(),
        rater: seg.rater.to_string(),
        source: seg.source.to_string(),
        target: seg.target.to_string(),
        error,
        metadata: String::new(),
    };
    if spans.is_empty() {
        return Ok(vec![row(None)]);
    }
    let len = seg.target.chars().count();
    spans
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let category = s.category.clone().filter(|c| !c.trim().is_empty()).ok_or(MqmRowError::NoCategory { span: i + 1 })?;
            if !s.missing && (s.start >= s.end || s.end > len) {
                return Err(MqmRowError::DoesNotFit { span: i + 1, start: s.start, end: s.end, len });
            }
            let (side, start, end) = if s.missing { (Side::Unmarked, 0, 0) } else { (Side::Target, s.start, s.end) };
            Ok(row(Some(RowError { category, severity: s.severity, side, start, end })))
        })
        .collect()
}

/// The header [`write_mqm_tsv`] writes.
pub const MQM_TSV_HEADER: &str = "system\tdoc\tdoc_seg_id\tglobal_seg_id\trater\tsource\ttarget\tcategory\tseverity\tmetadata";

const OPEN: &str = "<v>";
const CLOSE: &str = "</v>";

fn is_no_error(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("no-error")
}

/// Whether a line opens an MQM TSV: Marot's header (`system<TAB>doc…`), or a row of nine or
/// ten tab-separated fields whose ninth is an MQM severity or `No-error`.
pub fn looks_like_mqm_tsv(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}').trim_end_matches(['\r', '\n']);
    if line.starts_with("system\tdoc") {
        return true;
    }
    let f: Vec<&str> = line.split('\t').collect();
    matches!(f.len(), 9 | 10) && (is_no_error(f[8]) || Severity::parse(f[8]).is_ok_and(|s| s != Severity::Undecided))
}

/// A field written with CSV quoting, unquoted; any other field as it is.
fn unquote(field: &str) -> std::borrow::Cow<'_, str> {
    if field.len() >= 2 && field.starts_with('"') && field.ends_with('"') {
        let inner = &field[1..field.len() - 1];
        if !inner.replace("\"\"", "").contains('"') {
            return inner.replace("\"\"", "\"").into();
        }
    }
    field.into()
}

/// Removes one `<v>…</v>` pair: the text without it, the marked characters' offsets
/// (`None` when the text has no marker), and whether the `</v>` was missing (the span then runs
/// to the end of the text).
fn strip_markers(text: &str) -> Result<(String, Option<(usize, usize)>, bool), MqmRowError> {
    let opens = text.matches(OPEN).count();
    let closes = text.matches(CLOSE).count();
    match (opens, closes) {
        (0, 0) => return Ok((text.to_string(), None, false)),
        (1, 1) => {}
        (1, 0) => {
            let a = text.find(OPEN).expect("counted");
            let (before, inside) = (&text[..a], &text[a + OPEN.len()..]);
            let start = before.chars().count();
            return Ok((format!("{before}{inside}"), Some((start, start + inside.chars().count())), true));
        }
        _ => return Err(MqmRowError::Markers { opens, closes }),
    }
    let a = text.find(OPEN).expect("counted");
    let b = text.find(CLOSE).expect("counted");
    if b < a {
        return Err(MqmRowError::CloseFirst);
    }
    let before = &text[..a];
    let inside = &text[a + OPEN.len()..b];
    let after = &text[b + CLOSE.len()..];
    let start = before.chars().count();
    let end = start + inside.chars().count();
    Ok((format!("{before}{inside}{after}"), Some((start, end)), false))
}

/// What [`read_mqm_tsv`] read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MqmFile {
    pub rows: Vec<MqmRow>,
    /// Lines whose `<v>` has no `</v>` (two rows of Google's 2021 TED release): read as a span
    /// to the end of the text.
    pub unclosed_markers: Vec<usize>,
}

/// Reads an MQM TSV (see the module documentation).
pub fn read_mqm_tsv(input: impl Read) -> Result<MqmFile, FormatError> {
    let mut file = MqmFile::default();
    let mut seen_content = false;
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        let line = line.trim_end_matches('\r');
        let line = if n == 1 { line.trim_start_matches('\u{feff}') } else { line };
        if line.trim().is_empty() {
            continue;
        }
        if !seen_content {
            seen_content = true;
            if line.starts_with("system\tdoc") {
                continue;
            }
        }
        let f: Vec<std::borrow::Cow<'_, str>> = line.split('\t').map(unquote).collect();
        if !matches!(f.len(), 9 | 10) {
            return Err(err(
                n,
                format!("expected 9 or 10 tab-separated fields (system, doc, doc_seg_id, global_seg_id, rater, source, target, category, severity[, metadata]), found {}", f.len()),
            ));
        }
        for (k, name) in [(0, "system"), (1, "doc"), (2, "doc_seg_id"), (4, "rater")] {
            if f[k].trim().is_empty() {
                return Err(err(n, format!("field {} ({name}) is empty", k + 1)));
            }
        }
        let (source, src_span, open_s) = strip_markers(&f[5]).map_err(|m| err(n, format!("field 6 (source): {m}")))?;
        let (target, tgt_span, open_t) = strip_markers(&f[6]).map_err(|m| err(n, format!("field 7 (target): {m}")))?;
        if open_s || open_t {
            file.unclosed_markers.push(n);
        }
        let (category, severity) = (f[7].trim(), f[8].trim());
        let error = if is_no_error(severity) {
            if !is_no_error(category) && !category.is_empty() {
                return Err(err(n, format!("severity No-error with the error category {category:?}")));
            }
            if src_span.is_some() || tgt_span.is_some() {
                return Err(err(n, "a No-error row marks a span"));
            }
            None
        } else {
            let severity = match Severity::parse(severity) {
                Ok(s) if s != Severity::Undecided => s,
                _ => return Err(err(n, format!("field 9 (severity): {severity:?} is not Major, Minor, Critical, Neutral or No-error"))),
            };
            if category.is_empty() || is_no_error(category) {
                return Err(err(n, format!("a {} error needs a category (field 8), found {category:?}", severity.as_str())));
            }
            let (side, (start, end)) = match (tgt_span, src_span) {
                (Some(_), Some(_)) => return Err(err(n, "both the source and the target mark a span")),
                (Some(s), None) => (Side::Target, s),
                (None, Some(s)) => (Side::Source, s),
                (None, None) => (Side::Unmarked, (0, 0)),
            };
            Some(RowError { category: category.to_string(), severity, side, start, end })
        };
        file.rows.push(MqmRow {
            line: n,
            system: f[0].trim().to_string(),
            doc: f[1].trim().to_string(),
            doc_seg_id: f[2].trim().to_string(),
            global_seg_id: f[3].trim().to_string(),
            rater: f[4].trim().to_string(),
            source,
            target,
            error,
            metadata: f.get(9).map(|m| m.to_string()).unwrap_or_default(),
        });
    }
    Ok(file)
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Undecided => "Undecided",
        Severity::Neutral => "Neutral",
        Severity::Minor => "Minor",
        Severity::Major => "Major",
        Severity::Critical => "Critical",
    }
}

/// `text` with `<v>…</v>` around characters `start..end`.
fn mark(text: &str, start: usize, end: usize) -> Option<String> {
    let byte = |offset: usize| text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).nth(offset);
    let (a, b) = (byte(start)?, byte(end)?);
    (a <= b).then(|| format!("{}{OPEN}{}{CLOSE}{}", &text[..a], &text[a..b], &text[b..]))
}

/// Writes rows as an MQM TSV (ten columns with [`MQM_TSV_HEADER`]), markers put back; refuses
/// (`InvalidInput`) a field holding a tab or a line break, a text already holding a marker, a
/// span beyond its text.
pub fn write_mqm_tsv(mut w: impl Write, rows: &[MqmRow]) -> io::Result<()> {
    let bad = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    writeln!(w, "{MQM_TSV_HEADER}")?;
    for (i, r) in rows.iter().enumerate() {
        let texts = [&r.system, &r.doc, &r.doc_seg_id, &r.global_seg_id, &r.rater, &r.source, &r.target, &r.metadata];
        if texts.iter().any(|t| t.contains(['\t', '\n', '\r'])) {
            return Err(bad(format!("row {}: a field holds a tab or a line break", i + 1)));
        }
        if [&r.source, &r.target].iter().any(|t| t.contains(OPEN) || t.contains(CLOSE)) {
            return Err(bad(format!("row {}: the text already holds a {OPEN} or {CLOSE} marker", i + 1)));
        }
        let (mut source, mut target) = (r.source.clone(), r.target.clone());
        let (category, severity) = match &r.error {
            None => ("No-error".to_string(), "No-error"),
            Some(e) => {
                if e.category.contains(['\t', '\n', '\r']) {
                    return Err(bad(format!("row {}: the category holds a tab or a line break", i + 1)));
                }
                let place = |t: &mut String| -> io::Result<()> {
                    *t = mark(t, e.start, e.end).ok_or_else(|| bad(format!("row {}: the span {}–{} lies beyond its text", i + 1, e.start, e.end)))?;
                    Ok(())
                };
                match e.side {
                    Side::Target => place(&mut target)?,
                    Side::Source => place(&mut source)?,
                    Side::Unmarked => {}
                }
                (e.category.clone(), severity_name(e.severity))
            }
        };
        writeln!(
            w,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            r.system, r.doc, r.doc_seg_id, r.global_seg_id, r.rater, source, target, category, severity, r.metadata
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Scores

/// One rater's score of one segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaterScore {
    pub system: String,
    pub doc: String,
    pub doc_seg_id: String,
    pub global_seg_id: String,
    pub rater: String,
    /// −Σ weights.
    pub score: f64,
    /// Error rows (not `No-error`).
    pub errors: usize,
}

/// One system's MQM score and counts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MqmSystemScore {
    pub system: String,
    /// The mean over its segments of the segment scores (each the mean over raters).
    pub score: f64,
    /// Segments.
    pub n: usize,
    /// (segment, rater) pairs.
    pub ratings: usize,
    /// Error rows.
    pub errors: usize,
    pub minor: usize,
    pub major: usize,
    pub critical: usize,
    pub neutral: usize,
    /// Errors marked in the source.
    pub source_side: usize,
    /// Errors without a marked span.
    pub unmarked: usize,
}

/// The MQM scores of a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MqmScores {
    /// Per (system, doc, doc_seg_id, global_seg_id, rater), in file order of first appearance.
    pub raters: Vec<RaterScore>,
    /// Best first (equal scores by name).
    pub systems: Vec<MqmSystemScore>,
}

/// Scores every rater's segments and every system (see the module documentation).
pub fn score(rows: &[MqmRow], weights: &MqmWeights) -> MqmScores {
    let mut index: HashMap<(&str, &str, &str, &str, &str), usize> = HashMap::new();
    let mut raters: Vec<RaterScore> = Vec::new();
    let mut counts: BTreeMap<&str, MqmSystemScore> = BTreeMap::new();
    for r in rows {
        let key = (r.system.as_str(), r.doc.as_str(), r.doc_seg_id.as_str(), r.global_seg_id.as_str(), r.rater.as_str());
        let i = *index.entry(key).or_insert_with(|| {
            raters.push(RaterScore { system: r.system.clone(), doc: r.doc.clone(), doc_seg_id: r.doc_seg_id.clone(), global_seg_id: r.global_seg_id.clone(), rater: r.rater.clone(), score: 0.0, errors: 0 });
            raters.len() - 1
        });
        let c = counts.entry(r.system.as_str()).or_insert_with(|| MqmSystemScore { system: r.system.clone(), ..MqmSystemScore::default() });
        if let Some(e) = &r.error {
            raters[i].score -= weights.weight(e.severity, Some(&e.category));
            raters[i].errors += 1;
            c.errors += 1;
            match e.severity {
                Severity::Minor | Severity::Undecided => c.minor += 1,
                Severity::Major => c.major += 1,
                Severity::Critical => c.critical += 1,
                Severity::Neutral => c.neutral += 1,
            }
            match e.side {
                Side::Source => c.source_side += 1,
                Side::Unmarked => c.unmarked += 1,
                Side::Target => {}
            }
        }
    }
    for r in &mut raters {
        if r.score == 0.0 {
            r.score = 0.0; // no −0
        }
    }
    let segments = segment_means(&raters);
    for ((system, _, _), (value, _)) in &segments {
        let c = counts.get_mut(system.as_str()).expect("every system has rows");
        c.score += value;
        c.n += 1;
    }
    let mut systems: Vec<MqmSystemScore> = counts
        .into_values()
        .map(|mut c| {
            c.ratings = raters.iter().filter(|r| r.system == c.system).count();
            c.score = if c.n == 0 { 0.0 } else { c.score / c.n as f64 };
            c
        })
        .collect();
    systems.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.system.cmp(&b.system)));
    MqmScores { raters, systems }
}

/// Per segment (system, doc, segment key): the mean over raters and the number of raters.
fn segment_means(raters: &[RaterScore]) -> BTreeMap<(String, String, String), (f64, u32)> {
    let mut sums: BTreeMap<(String, String, String), (f64, u32)> = BTreeMap::new();
    for r in raters {
        let e = sums.entry((r.system.clone(), r.doc.clone(), segment_key(&r.doc_seg_id, &r.global_seg_id))).or_insert((0.0, 0));
        e.0 += r.score;
        e.1 += 1;
    }
    for v in sums.values_mut() {
        v.0 /= f64::from(v.1);
    }
    sums
}

/// A segment's key within its document: both id columns (the releases of 2020–2021 write a
/// document number and a global segment id there, later ones the segment's number in the
/// document and a global id; the pair is unique in both).
pub fn segment_key(doc_seg_id: &str, global_seg_id: &str) -> String {
    format!("{doc_seg_id}|{global_seg_id}")
}

/// The per-segment scores as the ranking's input: one language pair `pair`, segments keyed by
/// (doc, [`segment_key`]), domains from `documents` (doc → domain; a document missing from it is an
/// error naming the first row of that document) or one domain `all`.
pub fn pair_data(pair: &str, rows: &[MqmRow], scores: &MqmScores, documents: Option<&HashMap<String, String>>) -> Result<PairData, FormatError> {
    let mut data = PairData { pair: pair.to_string(), ..PairData::default() };
    let mut system_ids: HashMap<&str, usize> = HashMap::new();
    for r in rows {
        system_ids.entry(r.system.as_str()).or_insert_with(|| {
            data.systems.push(r.system.clone());
            data.systems.len() - 1
        });
    }
    data.segments = vec![BTreeMap::new(); data.systems.len()];
    let mut domain_ids: HashMap<String, u32> = HashMap::new();
    let first_line: HashMap<&str, usize> = rows.iter().rev().map(|r| (r.doc.as_str(), r.line)).collect();
    for ((system, doc, seg), (value, annotators)) in segment_means(&scores.raters) {
        let domain = match documents {
            Some(map) => map.get(&doc).cloned().ok_or_else(|| err(first_line.get(doc.as_str()).copied().unwrap_or(0), format!("document {doc:?} is not in the documents file")))?,
            None => "all".to_string(),
        };
        let next = domain_ids.len() as u32;
        let d = *domain_ids.entry(domain.clone()).or_insert_with(|| {
            data.domains.push(domain);
            next
        });
        data.segments[system_ids[system.as_str()]].insert((doc, seg), SegmentValue { domain: d, value, annotators });
    }
    data.ratings = scores.raters.len();
    data.annotators = scores.raters.iter().map(|r| r.rater.as_str()).collect::<BTreeSet<_>>().len();
    Ok(data)
}

/// A file's whole MQM analysis: scores, and the ranking unless the pair is too thin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MqmAnalysis {
    pub pair: String,
    pub weights: MqmWeights,
    pub rows: usize,
    pub errors: usize,
    pub raters: usize,
    pub systems: Vec<MqmSystemScore>,
    pub ranking: Option<EsaPairReport>,
    pub too_thin: Option<ThinPair>,
}

/// Scores and ranks the rows of one language pair.
pub fn analyse(pair: &str, rows: &[MqmRow], weights: &MqmWeights, documents: Option<&HashMap<String, String>>, settings: &EsaSettings) -> Result<MqmAnalysis, FormatError> {
    let scores = score(rows, weights);
    let data = pair_data(pair, rows, &scores, documents)?;
    let average = data.average_segments();
    let (ranking, too_thin) = if average < settings.min_segments {
        let thin = ThinPair {
            pair: pair.to_string(),
            systems: data.systems.len(),
            segments: data.segments.iter().map(BTreeMap::len).sum(),
            average_segments_per_system: average,
            min_segments: settings.min_segments,
        };
        (None, Some(thin))
    } else {
        (Some(esa::rank_pair(&data, settings)), None)
    };
    Ok(MqmAnalysis {
        pair: pair.to_string(),
        weights: *weights,
        rows: rows.len(),
        errors: rows.iter().filter(|r| r.error.is_some()).count(),
        raters: data.annotators,
        systems: scores.systems,
        ranking,
        too_thin,
    })
}

/// `mqm-scores-<lp>.csv`: `system,score,n,ratings,errors,minor,major,critical,neutral,
/// source_side,unmarked`, best first; the score as the shortest decimal that reads back to the
/// same `f64`.
pub fn write_mqm_scores_csv(mut w: impl Write, systems: &[MqmSystemScore]) -> io::Result<()> {
    writeln!(w, "system,score,n,ratings,errors,minor,major,critical,neutral,source_side,unmarked")?;
    for s in systems {
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&s.system),
            s.score,
            s.n,
            s.ratings,
            s.errors,
            s.minor,
            s.major,
            s.critical,
            s.neutral,
            s.source_side,
            s.unmarked
        )?;
    }
    Ok(())
}

/// The language pair a Google release's file name names: `mqm_<set>_<xxyy>[.<more>].tsv`
/// (`mqm_newstest2020_ende.tsv`, `mqm_generalMT2022_zhen.3ratingsPerSegment.tsv` → `en-de`,
/// `zh-en`), both halves ISO 639-1 codes; `None` for any other name (give the pair instead).
pub fn pair_from_file_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.split('.').next().unwrap_or(base);
    if !stem.to_ascii_lowercase().starts_with("mqm_") {
        return None;
    }
    let last = stem.rsplit('_').next()?;
    let b = last.as_bytes();
    if b.len() != 4 || !b.iter().all(u8::is_ascii_lowercase) {
        return None;
    }
    let (src, tgt) = (&last[..2], &last[2..]);
    (crate::import::LangCode::parse(src).is_ok() && crate::import::LangCode::parse(tgt).is_ok()).then(|| format!("{src}-{tgt}"))
}

#[cfg(test)]
#[path = "mqm_tests.rs"]
mod tests;
