//! ESA (Error Span Annotation) results from files: the Appraise/WMT 2024 ESA CSV and the WMT
//! 2024 JSONL in, the WMT 2024 ranking (and the WMT 2025 alternative) out.
//!
//! # Reading
//!
//! - **ESA CSV** (Appraise's export, WMT 2024's released waves): no header, 12 fields
//!   `user, system, itemID, itemType, srcLang, tgtLang, score, documentID,
//!   isCompleteDocument, spansJSON, start_time, end_time`; languages as ISO 639-1 or 639-3
//!   codes (`eng`, `ces`); the score 0–100; spans as [`crate::protocol::spans`] reads them
//!   (`{start_i, end_i, severity, error_type}`, `"missing"` offsets for an omission); times in
//!   seconds.
//! - **WMT 2024 JSONL** (`jsonl/wmt24_esa.jsonl`): one object per line with `langs` (`en-de`),
//!   `line_id`, `src`, `tgt`, `doc_id`, `domain`, `esa_spans`, `esa_score` (a number or a
//!   numeric string, as released), `system`, `annotator`, and optionally `times`
//!   (`[start, end]`). Every item is a TGT item. Spans are checked against `tgt`: those that
//!   do not fit it are counted ([`SpanSummary`]), not refused (the released data predate the
//!   fix of 2024-11-29).
//!
//! A read is all or nothing: the first problem stops it, named by its line and field.
//!
//! # The WMT 2024 reading ([`select`])
//!
//! As `wmt24-news-systems/humeval/tools.py` and `calculate_clusters.py` do: TGT items only;
//! systems whose name contains `tutorial`, documents containing `#incomplete` or `#dup` and the
//! document `canary` left out (Assay also leaves out document-level scores,
//! `isCompleteDocument` true, which WMT 2024 had none of); per annotator and item (language
//! pair, system, document, item id) the latest rating by end time (equal end times, or none:
//! the later line); a segment's value (language pair, system, document, item) is the mean over
//! its annotators. The domain of a segment comes from the documents file when one is given
//! (`DOMAIN<TAB>DOCUMENT` per line, WMT's `documents/<lp>.docs`), else from the JSONL's
//! `domain`, else from the document id: the part before the first `_`, after the last `-` of
//! that part (`test-en-social_112…` → `social`, `test-en-speech_-uig…_000` → `speech`).
//!
//! # The ranking ([`rank_pair`])
//!
//! Per language pair, unless it averages fewer than `min_segments` segments per system (too
//! thin: reported, not ranked): a system's score is the mean of its per-domain means; systems
//! best first (equal scores by name). For each pair of systems, on the segments both have, per
//! domain the Wilcoxon signed-rank test on the differences exactly as SciPy's `wilcoxon(d,
//! alternative=…)` with its defaults ([`assay_stats::signed_rank_scipy_auto`]; every difference
//! zero gives p = 1), combined over the domains by Stouffer: z_d = Φ⁻¹(1 − p_d),
//! Z = Σ z_d / √D, p = 1 − Φ(Z) (a domain with p_d = 1 makes Z = −∞ and p = 1, as in WMT's
//! code). Pairs without a common segment have no p-value.
//!
//! - **WMT 2024** (`calculate_clusters.py`): two-sided tests; a pair with p < α is a win for
//!   the system with the higher score and a loss for the other (equal scores: a loss for both,
//!   as WMT's code counts); rank range (losses + 1, N − wins); clusters by WMT 2024's walk down
//!   the ranking: a system joins the current cluster, and the cluster closes after it unless
//!   it, or an earlier system of the cluster, is linked to a later system by p > α.
//! - **WMT 2025** (`wmt25-general-mt/humeval/08-compute_clusters.py`): one-sided tests
//!   (`alternative="greater"`: p(A, B) is the p-value of "A better than B"); wins = systems A
//!   beats at p < α, losses = systems that beat A; a system's rank range extends up and down
//!   the ranking to the first neighbour that differs significantly from it; a cluster ends
//!   after position i when every range of the first i systems ends at i or above and every
//!   later range starts below it. (WMT 2025 itself pooled the segments of all domains, paired
//!   its two annotation waves and tested at 0.05/2; Assay keeps WMT 2024's per-domain tests
//!   with Stouffer, as issue 20 specifies; `--comparison-alpha 0.025` gives WMT 2025's level.)
//!
//! Checked against an independent Python implementation with SciPy's `wilcoxon` and
//! `norm.ppf` (`tests/fixtures/esa/generate.py`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, BufRead, BufReader, Read, Write};

use assay_stats::{Alternative, PMethod, StatsError, signed_rank_scipy_auto};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use super::formats::{FormatError, csv_rows, csv_text, csv_untext, err};
use crate::import::{LangCode, LanguagePair};
use crate::protocol::spans::{self, Span};

/// One rating as read from an ESA file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EsaRating {
    /// The 1-based line of the file.
    pub line: usize,
    pub user: String,
    pub system: String,
    pub item: String,
    /// `TGT`, `BAD`, `REF`, `CHK`, … as written (the JSONL holds TGT items only).
    pub item_type: String,
    /// The language pair, `en-de` (ISO 639-1 where there is one).
    pub pair: String,
    pub score: f64,
    pub document: String,
    /// A document-level score (`isCompleteDocument` true).
    pub complete_document: bool,
    /// The JSONL's `domain`.
    pub domain: Option<String>,
    pub spans: Vec<Span>,
    pub start_time: Option<f64>,
    pub end_time: Option<f64>,
    /// The translation the spans mark, where known (the JSONL's `tgt`; a campaign's shown text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// For a degraded copy (`BAD`) in a campaign: the output it was made from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
    /// The source segment, where known (the JSONL's `src`; a campaign's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// In a campaign: the pre-filled spans the screen started with (ESA-AI), when it showed
    /// some; `spans` are the final ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefilled: Option<Vec<Span>>,
    /// In a campaign: the 1-based place of the segment in its document (in test-set order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc_seg: Option<usize>,
}

/// The spans of the ratings read: how many, and those that do not fit their text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpanSummary {
    pub spans: usize,
    pub omissions: usize,
    pub minor: usize,
    pub major: usize,
    /// Severity `undecided` (Appraise's span whose severity was never chosen).
    pub undecided: usize,
    /// Other severities (critical, neutral).
    pub other: usize,
    /// `start_i == end_i`.
    pub empty: usize,
    /// Ending beyond the target text (JSONL only: the CSV carries no text).
    pub beyond_text: usize,
    /// Starting or ending inside a grapheme cluster of the target text (JSONL only).
    pub splitting_graphemes: usize,
}

impl SpanSummary {
    fn add(&mut self, span: &Span, text: Option<&str>) {
        use crate::protocol::Severity;
        self.spans += 1;
        match span.severity {
            Severity::Minor => self.minor += 1,
            Severity::Major => self.major += 1,
            Severity::Undecided => self.undecided += 1,
            _ => self.other += 1,
        }
        if span.missing {
            self.omissions += 1;
            return;
        }
        if span.start == span.end {
            self.empty += 1;
            return;
        }
        if let Some(text) = text {
            let b = spans::grapheme_boundaries(text);
            if span.end > *b.last().unwrap_or(&0) {
                self.beyond_text += 1;
            } else if b.binary_search(&span.start).is_err() || b.binary_search(&span.end).is_err() {
                self.splitting_graphemes += 1;
            }
        }
    }
}

/// An ESA file read whole.
#[derive(Clone, Debug, Default)]
pub struct EsaFile {
    pub ratings: Vec<EsaRating>,
    pub spans: SpanSummary,
}

/// The 12 fields of the ESA CSV, for messages.
pub const ESA_CSV_FIELDS: [&str; 12] = [
    "user",
    "system",
    "itemID",
    "itemType",
    "srcLang",
    "tgtLang",
    "score",
    "documentID",
    "isCompleteDocument",
    "spansJSON",
    "start_time",
    "end_time",
];

fn field_err(line: usize, field: usize, message: impl std::fmt::Display) -> FormatError {
    err(line, format!("field {} ({}): {message}", field + 1, ESA_CSV_FIELDS[field]))
}

fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

fn esa_score(text: &str, field: impl Fn(String) -> FormatError) -> Result<f64, FormatError> {
    match number(text) {
        Some(v) if (0.0..=100.0).contains(&v) => Ok(v),
        Some(v) => Err(field(format!("the score {v} lies outside 0–100"))),
        None => Err(field(format!("not a number: {text:?}"))),
    }
}

/// Whether the first non-empty line of a file is an ESA CSV row: 12 comma-separated fields
/// (quotes respected), the tenth a JSON list, the eleventh and twelfth numbers.
pub fn looks_like_esa_csv(line: &str) -> bool {
    let mut rows = csv_rows(line.as_bytes());
    let Ok(Some(_)) = rows.next_record() else { return false };
    let f = &rows.record;
    f.len() == 12 && f[9].trim_start().starts_with('[') && number(&f[10]).is_some() && number(&f[11]).is_some()
}

/// Whether the first non-empty line of a file is a WMT 2024 ESA JSONL object (it has
/// `esa_score`).
pub fn looks_like_esa_jsonl(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line.trim()).ok().is_some_and(|v| v.get("esa_score").is_some() && v.get("langs").is_some())
}

fn language(line: usize, field: usize, text: &str) -> Result<LangCode, FormatError> {
    LangCode::parse(text).map_err(|e| field_err(line, field, e))
}

/// Reads an Appraise/WMT 2024 ESA CSV (see the module documentation).
pub fn read_esa_csv(input: impl Read) -> Result<EsaFile, FormatError> {
    let mut out = EsaFile::default();
    let mut rows = csv_rows(input);
    while let Some(n) = rows.next_record()? {
        let f = &rows.record;
        if f.len() != 12 {
            return Err(rows.wrong_width(n, 12, &ESA_CSV_FIELDS.join(", "), f.len()));
        }
        for k in [0, 1, 2, 3, 7] {
            if f[k].trim().is_empty() {
                return Err(field_err(n, k, "empty"));
            }
        }
        let (src, tgt) = (language(n, 4, &f[4])?, language(n, 5, &f[5])?);
        let score = esa_score(&f[6], |m| field_err(n, 6, m))?;
        let complete_document = match f[8].trim().to_ascii_lowercase().as_str() {
            "false" | "0" => false,
            "true" | "1" => true,
            _ => return Err(field_err(n, 8, format!("expected True or False, found {:?}", &f[8]))),
        };
        let spans = spans::spans_from_appraise_json(&f[9]).map_err(|e| field_err(n, 9, e))?;
        let time = |k: usize| number(&f[k]).ok_or_else(|| field_err(n, k, format!("not a number: {:?}", &f[k])));
        let (start_time, end_time) = (time(10)?, time(11)?);
        if end_time < start_time {
            return Err(field_err(n, 11, format!("{end_time} is before start_time {start_time}")));
        }
        for s in &spans {
            out.spans.add(s, None);
        }
        out.ratings.push(EsaRating {
            line: n,
            user: csv_untext(&f[0]).to_string(),
            system: csv_untext(&f[1]).to_string(),
            item: csv_untext(&f[2]).to_string(),
            item_type: csv_untext(&f[3]).to_string(),
            pair: format!("{src}-{tgt}"),
            score,
            document: csv_untext(&f[7]).to_string(),
            complete_document,
            domain: None,
            spans,
            start_time: Some(start_time),
            end_time: Some(end_time),
            target: None,
            original: None,
            source: None,
            prefilled: None,
            doc_seg: None,
        });
    }
    Ok(out)
}

/// Reads the WMT 2024 ESA JSONL (see the module documentation).
pub fn read_esa_jsonl(input: impl Read) -> Result<EsaFile, FormatError> {
    use serde_json::Value;
    let mut out = EsaFile::default();
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        let line = if n == 1 { line.trim_start_matches('\u{feff}') } else { &line };
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| err(n, format!("not a JSON object: {e}")))?;
        let obj = v.as_object().ok_or_else(|| err(n, "not a JSON object"))?;
        let key = |k: &str| obj.get(k).ok_or_else(|| err(n, format!("key {k:?}: missing (a WMT 2024 ESA line has langs, line_id, src, tgt, doc_id, domain, esa_spans, esa_score, system, annotator)")));
        let text = |k: &str| -> Result<String, FormatError> {
            match key(k)? {
                Value::String(s) if !s.trim().is_empty() || k == "src" || k == "tgt" => Ok(s.clone()),
                Value::Number(x) if k == "line_id" => Ok(x.to_string()),
                Value::String(_) => Err(err(n, format!("key {k:?}: empty"))),
                other => Err(err(n, format!("key {k:?}: expected a string, found {other}"))),
            }
        };
        let pair = LanguagePair::parse(&text("langs")?).map_err(|e| err(n, format!("key \"langs\": {e}")))?;
        let score = match key("esa_score")? {
            Value::Number(x) => x.as_f64().map(|v| v.to_string()).unwrap_or_default(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let score = esa_score(&score, |m| err(n, format!("key \"esa_score\": {m}")))?;
        let tgt = text("tgt")?;
        let src = text("src")?;
        let spans = spans::spans_from_appraise_value(key("esa_spans")?).map_err(|e| err(n, format!("key \"esa_spans\": {e}")))?;
        let (start_time, end_time) = match obj.get("times") {
            None | Some(Value::Null) => (None, None),
            Some(Value::Array(t)) if t.len() == 2 => {
                let at = |k: usize| match &t[k] {
                    Value::Number(x) => x.as_f64(),
                    Value::String(s) => number(s),
                    _ => None,
                }
                .ok_or_else(|| err(n, format!("key \"times\": value {} is not a number: {}", k + 1, t[k])));
                (Some(at(0)?), Some(at(1)?))
            }
            Some(other) => return Err(err(n, format!("key \"times\": expected [start, end], found {other}"))),
        };
        for s in &spans {
            out.spans.add(s, Some(&tgt));
        }
        out.ratings.push(EsaRating {
            line: n,
            user: text("annotator")?,
            system: text("system")?,
            item: text("line_id")?,
            item_type: "TGT".into(),
            pair: format!("{}-{}", pair.source, pair.target),
            score,
            document: text("doc_id")?,
            complete_document: false,
            domain: Some(text("domain")?),
            spans,
            start_time,
            end_time,
            target: Some(tgt),
            original: None,
            source: Some(src),
            prefilled: None,
            doc_seg: None,
        });
    }
    Ok(out)
}

/// Reads a documents file (WMT's `documents/<lp>.docs`, mt-metrics-eval's `.docs`): one
/// `DOMAIN<TAB>DOCUMENT` (or `DOMAIN DOCUMENT`) per segment line. Returns document → domain;
/// a document given two domains is an error. Several files may be read into one map.
pub fn read_documents(input: impl Read, into: &mut HashMap<String, String>) -> Result<(), FormatError> {
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = if line.contains('\t') { line.split('\t').collect() } else { line.split_whitespace().collect() };
        let [domain, doc] = parts.as_slice() else {
            return Err(err(n, format!("expected DOMAIN and DOCUMENT separated by a tab, found {} fields", parts.len())));
        };
        let (domain, doc) = (domain.trim(), doc.trim());
        if domain.is_empty() || doc.is_empty() {
            return Err(err(n, "empty domain or document"));
        }
        match into.get(doc) {
            Some(d) if d != domain => return Err(err(n, format!("document {doc:?} is in domain {domain:?} here but {d:?} before"))),
            Some(_) => {}
            None => {
                into.insert(doc.to_string(), domain.to_string());
            }
        }
    }
    Ok(())
}

/// The domain a document id names (WMT 2024's ids): the part before the first `_`, after the
/// last `-` of that part. `None` when the id has no `_` or the part is empty.
pub fn domain_from_document_id(doc: &str) -> Option<&str> {
    let (head, _) = doc.split_once('_')?;
    let domain = head.rsplit('-').next()?;
    (!domain.is_empty()).then_some(domain)
}

// ---------------------------------------------------------------------------------------------
// Selection

/// Which rule ranks the systems.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EsaRule {
    /// WMT 2024: two-sided tests, wins and losses by score, rank ranges (losses + 1, N − wins),
    /// the cluster walk.
    #[default]
    Wmt24,
    /// WMT 2025: one-sided tests, ranges to the first significantly different neighbour,
    /// clusters from the ranges.
    Wmt25,
}

impl EsaRule {
    pub fn as_str(self) -> &'static str {
        match self {
            EsaRule::Wmt24 => "wmt24",
            EsaRule::Wmt25 => "wmt25",
        }
    }
}

/// The settings of an ESA ranking.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaSettings {
    pub rule: EsaRule,
    /// A win or loss needs p < alpha (WMT: 0.05).
    pub alpha: f64,
    /// Language pairs averaging fewer segments per system are too thin to rank (WMT 2024: 100).
    pub min_segments: f64,
}

impl Default for EsaSettings {
    fn default() -> Self {
        EsaSettings { rule: EsaRule::Wmt24, alpha: 0.05, min_segments: 100.0 }
    }
}

/// Where the domains came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DomainSource {
    DocumentsFile,
    JsonlColumn,
    DocumentId,
}

/// Ratings left out, by the first reason that applies (in this order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dropped {
    /// Item type other than TGT (BAD, REF, CHK, …).
    pub not_tgt: usize,
    /// System name containing `tutorial`.
    pub tutorial: usize,
    /// Document id containing `#incomplete`.
    pub incomplete: usize,
    /// Document id containing `#dup`.
    pub dup: usize,
    /// Document `canary`.
    pub canary: usize,
    /// Document-level scores (`isCompleteDocument` true).
    pub document_level: usize,
    /// Earlier ratings of the same item by the same annotator (the latest by end time kept).
    pub superseded: usize,
}

/// One segment of one system: its value (the mean over annotators) and domain.
#[derive(Clone, Debug, PartialEq)]
pub struct SegmentValue {
    pub domain: u32,
    pub value: f64,
    pub annotators: u32,
}

/// A language pair's segments after the WMT 2024 reading.
#[derive(Clone, Debug, Default)]
pub struct PairData {
    pub pair: String,
    /// In order of first appearance.
    pub systems: Vec<String>,
    pub domains: Vec<String>,
    /// Per system: segment key (document, item) → value.
    pub segments: Vec<BTreeMap<(String, String), SegmentValue>>,
    /// Ratings kept.
    pub ratings: usize,
    pub annotators: usize,
}

impl PairData {
    /// Segments per system, averaged over the systems.
    pub fn average_segments(&self) -> f64 {
        if self.systems.is_empty() {
            return 0.0;
        }
        self.segments.iter().map(BTreeMap::len).sum::<usize>() as f64 / self.systems.len() as f64
    }
}

/// What [`select`] keeps and leaves out.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    pub pairs: Vec<PairData>,
    pub dropped: Dropped,
    pub ratings_read: usize,
}

/// The WMT 2024 reading of the ratings (see the module documentation). `documents`: document →
/// domain, from documents files. Errors name the line of a rating whose domain cannot be told.
pub fn select(ratings: &[EsaRating], documents: Option<&HashMap<String, String>>) -> Result<Selection, FormatError> {
    let mut sel = Selection { ratings_read: ratings.len(), ..Selection::default() };
    // Filters, then the latest rating per (annotator, pair, system, document, item).
    let mut latest: HashMap<(&str, &str, &str, &str, &str), &EsaRating> = HashMap::new();
    let d = &mut sel.dropped;
    for r in ratings {
        let counter = if r.item_type != "TGT" {
            Some(&mut d.not_tgt)
        } else if r.system.contains("tutorial") {
            Some(&mut d.tutorial)
        } else if r.document.contains("#incomplete") {
            Some(&mut d.incomplete)
        } else if r.document.contains("#dup") {
            Some(&mut d.dup)
        } else if r.document == "canary" {
            Some(&mut d.canary)
        } else if r.complete_document {
            Some(&mut d.document_level)
        } else {
            None
        };
        if let Some(c) = counter {
            *c += 1;
            continue;
        }
        let key = (r.user.as_str(), r.pair.as_str(), r.system.as_str(), r.document.as_str(), r.item.as_str());
        match latest.get(&key) {
            Some(old) if later(old, r) => {}
            _ => {
                latest.insert(key, r);
            }
        }
    }
    sel.dropped.superseded = ratings.len() - latest.len() - filtered(&sel.dropped);
    // Keep the file's order for first appearances.
    let mut chosen: Vec<&EsaRating> = latest.into_values().collect();
    chosen.sort_by_key(|r| r.line);
    let mut pair_index: HashMap<&str, usize> = HashMap::new();
    let mut sums: Vec<BTreeMap<(usize, String, String), (f64, u32, u32)>> = Vec::new();
    let mut domain_ids: Vec<HashMap<String, u32>> = Vec::new();
    let mut annotators: Vec<BTreeSet<&str>> = Vec::new();
    let mut system_ids: Vec<HashMap<&str, usize>> = Vec::new();
    for r in chosen {
        let domain = match documents {
            Some(map) => map.get(&r.document).cloned().ok_or_else(|| err(r.line, format!("document {:?} is not in the documents file", r.document)))?,
            None => match &r.domain {
                Some(d) => d.clone(),
                None => domain_from_document_id(&r.document)
                    .map(str::to_string)
                    .ok_or_else(|| err(r.line, format!("cannot tell the domain of document {:?} (no `_` after the domain; give a documents file)", r.document)))?,
            },
        };
        let p = *pair_index.entry(r.pair.as_str()).or_insert_with(|| {
            sel.pairs.push(PairData { pair: r.pair.clone(), ..PairData::default() });
            sums.push(BTreeMap::new());
            domain_ids.push(HashMap::new());
            annotators.push(BTreeSet::new());
            system_ids.push(HashMap::new());
            sel.pairs.len() - 1
        });
        let data = &mut sel.pairs[p];
        let s = *system_ids[p].entry(r.system.as_str()).or_insert_with(|| {
            data.systems.push(r.system.clone());
            data.systems.len() - 1
        });
        let next = domain_ids[p].len() as u32;
        let dom = *domain_ids[p].entry(domain.clone()).or_insert_with(|| {
            data.domains.push(domain.clone());
            next
        });
        annotators[p].insert(r.user.as_str());
        data.ratings += 1;
        let e = sums[p].entry((s, r.document.clone(), r.item.clone())).or_insert((0.0, 0, dom));
        if e.2 != dom {
            return Err(err(r.line, format!("document {:?} is in two domains", r.document)));
        }
        e.0 += r.score;
        e.1 += 1;
    }
    for (p, data) in sel.pairs.iter_mut().enumerate() {
        data.annotators = annotators[p].len();
        data.segments = vec![BTreeMap::new(); data.systems.len()];
        for ((s, doc, item), (sum, count, dom)) in std::mem::take(&mut sums[p]) {
            data.segments[s].insert((doc, item), SegmentValue { domain: dom, value: sum / f64::from(count), annotators: count });
        }
    }
    Ok(sel)
}

fn filtered(d: &Dropped) -> usize {
    d.not_tgt + d.tutorial + d.incomplete + d.dup + d.canary + d.document_level
}

/// Whether `old` stays the latest against `new` (a later end time wins; equal or missing end
/// times: the later line).
fn later(old: &EsaRating, new: &EsaRating) -> bool {
    match (old.end_time, new.end_time) {
        (Some(a), Some(b)) if a != b => a > b,
        _ => old.line > new.line,
    }
}

// ---------------------------------------------------------------------------------------------
// Ranking

/// How the per-domain tests got their p-values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestMethods {
    pub exact: usize,
    pub permutation: usize,
    pub normal: usize,
    /// Every difference zero: p = 1.
    pub all_zero: usize,
}

/// One system's row of the ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaSystem {
    pub system: String,
    /// The mean of its per-domain means.
    pub score: f64,
    /// Its segments.
    pub n: usize,
    pub wins: usize,
    pub losses: usize,
    pub rank_lo: usize,
    pub rank_hi: usize,
    pub cluster: usize,
    /// Per domain: its mean over the system's segments there.
    pub domains: BTreeMap<String, DomainScore>,
}

/// A system's mean in one domain.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DomainScore {
    pub mean: f64,
    pub segments: usize,
}

/// A language pair's ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaPairReport {
    pub pair: String,
    pub rule: EsaRule,
    pub alpha: f64,
    /// Best first.
    pub systems: Vec<EsaSystem>,
    pub domains: Vec<String>,
    /// `p_values[i][j]`: row system i against column system j, in the order of `systems`;
    /// WMT 2024: the two-sided combined p (symmetric); WMT 2025: the p-value of "i better than
    /// j". `None` on the diagonal and for pairs without a common segment.
    pub p_values: Vec<Vec<Option<f64>>>,
    pub segments: usize,
    pub ratings: usize,
    pub annotators: usize,
    pub average_segments_per_system: f64,
    pub tests: TestMethods,
}

/// A language pair too thin to rank.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThinPair {
    pub pair: String,
    pub systems: usize,
    pub segments: usize,
    pub average_segments_per_system: f64,
    pub min_segments: f64,
}

/// The p-value of the signed-rank test on `d` as SciPy's defaults give it, every difference
/// zero giving 1; counted by method.
fn domain_p(d: &[f64], alternative: Alternative, methods: &mut TestMethods) -> f64 {
    match signed_rank_scipy_auto(d, alternative) {
        Ok(r) => {
            match r.method {
                PMethod::Exact => methods.exact += 1,
                PMethod::Permutation if r.n == 0 => methods.all_zero += 1,
                PMethod::Permutation => methods.permutation += 1,
                _ => methods.normal += 1,
            }
            r.p_value
        }
        Err(StatsError::AllZero { .. }) => {
            methods.all_zero += 1;
            1.0
        }
        Err(e) => unreachable!("the per-domain differences are finite and non-empty: {e}"),
    }
}

/// Stouffer's combination of one-sided-as-read p-values, as WMT 2024's code: z_d = Φ⁻¹(1 − p_d),
/// Z = Σ z_d / √D, p = 1 − Φ(Z).
pub fn stouffer(p_values: &[f64]) -> Option<f64> {
    if p_values.is_empty() {
        return None;
    }
    let normal = Normal::standard();
    let mut sum = 0.0;
    for &p in p_values {
        let q = 1.0 - p;
        sum += normal_quantile(&normal, q);
    }
    let z = sum / (p_values.len() as f64).sqrt();
    if z.is_nan() {
        return Some(1.0);
    }
    Some(1.0 - normal.cdf(z))
}

/// Φ⁻¹(q) (`statrs`: within about 1e-10 of SciPy's `norm.ppf`, checked by the fixture); −∞ at
/// 0 and +∞ at 1.
fn normal_quantile(normal: &Normal, q: f64) -> f64 {
    if q <= 0.0 {
        f64::NEG_INFINITY
    } else if q >= 1.0 {
        f64::INFINITY
    } else {
        normal.inverse_cdf(q)
    }
}

/// The p-value comparing systems `a` and `b` of `data` (differences a − b).
fn pair_p(data: &PairData, a: usize, b: usize, alternative: Alternative, methods: &mut TestMethods) -> Option<f64> {
    let mut by_domain: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for (key, va) in &data.segments[a] {
        if let Some(vb) = data.segments[b].get(key) {
            by_domain.entry(va.domain).or_default().push(va.value - vb.value);
        }
    }
    let ps: Vec<f64> = by_domain.values().map(|d| domain_p(d, alternative, methods)).collect();
    stouffer(&ps)
}

/// A score (0–100, or MQM's) made by averaging, rounded to 9 decimals: the arithmetic of means
/// leaves it a few units in the last place off the value it stands for (the mean of whole
/// scores that is 55 comes out as 55.00000000000001), which the files would print. Nine decimals
/// lie far below any difference between systems' means, and far above that noise.
pub fn fixed_score(x: f64) -> f64 {
    if !x.is_finite() || x.abs() >= 1e6 {
        return x;
    }
    let r = (x * 1e9).round() / 1e9;
    if r == 0.0 { 0.0 } else { r }
}

/// Ranks one language pair (see the module documentation).
pub fn rank_pair(data: &PairData, settings: &EsaSettings) -> EsaPairReport {
    let k = data.systems.len();
    let alpha = settings.alpha;
    // Scores: the mean of the per-domain means.
    let mut rows: Vec<(usize, EsaSystem)> = (0..k)
        .map(|s| {
            let mut per: BTreeMap<u32, (f64, usize)> = BTreeMap::new();
            for v in data.segments[s].values() {
                let e = per.entry(v.domain).or_insert((0.0, 0));
                e.0 += v.value;
                e.1 += 1;
            }
            let domains: BTreeMap<String, DomainScore> = per
                .iter()
                .map(|(d, (sum, n))| (data.domains[*d as usize].clone(), DomainScore { mean: fixed_score(sum / *n as f64), segments: *n }))
                .collect();
            // Means of means of means: a few ulps off what they stand for (55.00000000000001 for 55).
            let score = fixed_score(per.values().map(|(sum, n)| sum / *n as f64).sum::<f64>() / per.len().max(1) as f64);
            let system = EsaSystem {
                system: data.systems[s].clone(),
                score,
                n: data.segments[s].len(),
                wins: 0,
                losses: 0,
                rank_lo: 0,
                rank_hi: 0,
                cluster: 0,
                domains,
            };
            (s, system)
        })
        .collect();
    rows.sort_by(|(_, a), (_, b)| b.score.total_cmp(&a.score).then_with(|| a.system.cmp(&b.system)));
    let order: Vec<usize> = rows.iter().map(|(s, _)| *s).collect();
    let mut methods = TestMethods::default();
    let mut p = vec![vec![None; k]; k];
    match settings.rule {
        EsaRule::Wmt24 => {
            for i in 0..k {
                for j in i + 1..k {
                    let v = pair_p(data, order[i], order[j], Alternative::TwoSided, &mut methods);
                    p[i][j] = v;
                    p[j][i] = v;
                }
            }
        }
        EsaRule::Wmt25 => {
            for i in 0..k {
                for j in 0..k {
                    if i != j {
                        p[i][j] = pair_p(data, order[i], order[j], Alternative::Greater, &mut methods);
                    }
                }
            }
        }
    }
    let sig = |i: usize, j: usize| p[i][j].is_some_and(|v| v < alpha);
    let mut systems: Vec<EsaSystem> = rows.into_iter().map(|(_, s)| s).collect();
    match settings.rule {
        EsaRule::Wmt24 => {
            for i in 0..k {
                for j in 0..k {
                    if i != j && sig(i, j) {
                        if systems[i].score > systems[j].score {
                            systems[i].wins += 1;
                        } else {
                            systems[i].losses += 1;
                        }
                    }
                }
                systems[i].rank_lo = systems[i].losses + 1;
                systems[i].rank_hi = k - systems[i].wins;
            }
            // WMT 2024's walk (calculate_clusters.py, get_clusters).
            let linked = |i: usize, j: usize| p[i][j].is_some_and(|v| v > alpha);
            let (mut until, mut cluster) = (None::<usize>, 1);
            for i in 0..k {
                if until.is_some_and(|u| u <= i) {
                    until = None;
                }
                for j in i + 1..k {
                    if linked(i, j) {
                        until = Some(until.map_or(j, |u| u.max(j)));
                    }
                }
                systems[i].cluster = cluster;
                if until.is_none() {
                    cluster += 1;
                }
            }
        }
        EsaRule::Wmt25 => {
            for i in 0..k {
                systems[i].wins = (0..k).filter(|&j| j != i && sig(i, j)).count();
                systems[i].losses = (0..k).filter(|&j| j != i && sig(j, i)).count();
                let mut lo = i + 1;
                for j in (0..i).rev() {
                    if sig(j, i) {
                        break;
                    }
                    lo -= 1;
                }
                let mut hi = i + 1;
                for j in i + 1..k {
                    if sig(i, j) {
                        break;
                    }
                    hi += 1;
                }
                systems[i].rank_lo = lo;
                systems[i].rank_hi = hi;
            }
            // A cluster ends after position i (1-based) when every range of the first i systems
            // ends at most at i and every later range starts after i.
            let mut cluster = 1;
            for i in 0..k {
                systems[i].cluster = cluster;
                let end = i + 1;
                if systems[..end].iter().all(|s| s.rank_hi <= end) && systems[end..].iter().all(|s| s.rank_lo > end) {
                    cluster += 1;
                }
            }
        }
    }
    let segments: BTreeSet<&(String, String)> = data.segments.iter().flat_map(|m| m.keys()).collect();
    EsaPairReport {
        pair: data.pair.clone(),
        rule: settings.rule,
        alpha,
        systems,
        domains: data.domains.clone(),
        p_values: p,
        segments: segments.len(),
        ratings: data.ratings,
        annotators: data.annotators,
        average_segments_per_system: data.average_segments(),
        tests: methods,
    }
}

/// Every language pair: ranked, or too thin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsaAnalysis {
    pub settings: EsaSettings,
    pub domain_source: DomainSource,
    pub ratings_read: usize,
    pub dropped: Dropped,
    pub spans: SpanSummary,
    pub ranked: Vec<EsaPairReport>,
    pub too_thin: Vec<ThinPair>,
}

/// Reads, selects and ranks: the whole analysis of an ESA file.
pub fn analyse(file: &EsaFile, documents: Option<&HashMap<String, String>>, settings: &EsaSettings) -> Result<EsaAnalysis, FormatError> {
    let sel = select(&file.ratings, documents)?;
    let domain_source = if documents.is_some() {
        DomainSource::DocumentsFile
    } else if file.ratings.iter().any(|r| r.domain.is_some()) {
        DomainSource::JsonlColumn
    } else {
        DomainSource::DocumentId
    };
    let (mut ranked, mut too_thin) = (Vec::new(), Vec::new());
    for data in &sel.pairs {
        let average = data.average_segments();
        if average < settings.min_segments {
            too_thin.push(ThinPair {
                pair: data.pair.clone(),
                systems: data.systems.len(),
                segments: data.segments.iter().map(BTreeMap::len).sum(),
                average_segments_per_system: average,
                min_segments: settings.min_segments,
            });
        } else {
            ranked.push(rank_pair(data, settings));
        }
    }
    Ok(EsaAnalysis {
        settings: *settings,
        domain_source,
        ratings_read: sel.ratings_read,
        dropped: sel.dropped,
        spans: file.spans.clone(),
        ranked,
        too_thin,
    })
}

// ---------------------------------------------------------------------------------------------
// Files

/// The Appraise/WMT 2024 ESA CSV (no header, the 12 fields of [`ESA_CSV_FIELDS`]): one line
/// per rating, `src_lang` and `tgt_lang` as given (WMT 2024: ISO 639-3), `True`/`False` for
/// `isCompleteDocument`, the spans as [`spans::spans_to_appraise_json`] writes them, times in
/// seconds. [`read_esa_csv`] reads it back.
pub fn write_esa_csv(mut w: impl Write, src_lang: &str, tgt_lang: &str, ratings: &[EsaRating]) -> io::Result<()> {
    let time = |t: Option<f64>| t.map(|t| format!("{t}")).unwrap_or_else(|| "0".into());
    for r in ratings {
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&r.user),
            csv_text(&r.system),
            csv_text(&r.item),
            csv_text(&r.item_type),
            src_lang,
            tgt_lang,
            fixed_score(r.score),
            csv_text(&r.document),
            if r.complete_document { "True" } else { "False" },
            csv_text(&spans::spans_to_appraise_json(&r.spans)),
            time(r.start_time),
            time(r.end_time),
        )?;
    }
    Ok(())
}

/// `esa-ranking-<lp>.csv`: `system,score,n,wins,losses,rank_lo,rank_hi,cluster`, best first;
/// the score as the shortest decimal that reads back to the same `f64`.
pub fn write_esa_ranking_csv(mut w: impl Write, report: &EsaPairReport) -> io::Result<()> {
    writeln!(w, "system,score,n,wins,losses,rank_lo,rank_hi,cluster")?;
    for s in &report.systems {
        writeln!(w, "{},{},{},{},{},{},{},{}", csv_text(&s.system), s.score, s.n, s.wins, s.losses, s.rank_lo, s.rank_hi, s.cluster)?;
    }
    Ok(())
}

/// `esa-pvalues-<lp>.csv`: a header `system` and the systems best first, then one row per
/// system in the same order with its p-value against each column system (empty on the
/// diagonal and where the two have no common segment; shortest round-trip decimals, scientific
/// below 1e-4).
pub fn write_esa_pvalues_csv(mut w: impl Write, report: &EsaPairReport) -> io::Result<()> {
    write!(w, "system")?;
    for s in &report.systems {
        write!(w, ",{}", csv_text(&s.system))?;
    }
    writeln!(w)?;
    for (i, s) in report.systems.iter().enumerate() {
        write!(w, "{}", csv_text(&s.system))?;
        for v in &report.p_values[i] {
            match v {
                Some(p) => write!(w, ",{}", p_text(*p))?,
                None => write!(w, ",")?,
            }
        }
        writeln!(w)?;
    }
    Ok(())
}

/// A p-value as the shortest decimal that reads back to the same `f64`, in scientific notation
/// below 1e-4 (`8.363110993570011e-5`).
fn p_text(p: f64) -> String {
    if p != 0.0 && p.abs() < 1e-4 { format!("{p:e}") } else { format!("{p}") }
}

/// A language pair's name as it appears in file names (`en-de`).
pub fn file_pair(pair: &str) -> String {
    pair.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect()
}

#[cfg(test)]
#[path = "esa_tests.rs"]
mod tests;
