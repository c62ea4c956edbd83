//! Importers: turn uploaded test sets and system outputs into a validated [`ImportBundle`], or a
//! list of precise [`ImportError`]s (file, line, problem). Pure code: no database, no async; files
//! are read only through the [`ImportSource`] trait (a folder, a `.zip`, a `.tar.gz`) or a reader
//! handed in by the caller.
//!
//! Formats:
//! - the WMT text layout ([`wmt::import_wmt`]): `sources/SRC-TGT.txt`,
//!   `references/SRC-TGT.NAME.txt`, `system-outputs/SRC-TGT/SYSTEM.txt`, `documents/SRC-TGT.docs`;
//! - Appraise batch JSON ([`appraise::import_appraise`]);
//! - TSV and JSONL with named columns ([`table::import_tsv`], [`table::import_jsonl`]; the columns
//!   are documented in [`table`]).
//!
//! Every importer collects up to [`ImportLimits::max_errors`] errors before it stops, and never
//! returns a partial bundle. Text rules shared by all formats: UTF-8 only (an invalid line is an
//! error naming the line), a leading byte-order mark and CRLF line ends are accepted and stripped,
//! a line made only of whitespace counts as empty.

pub mod appraise;
mod builder;
pub mod lang;
pub mod source;
pub mod table;
mod text;
pub mod wmt;

#[cfg(test)]
mod tests;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use appraise::import_appraise;
pub use lang::{LangCode, LanguagePair, TextDirection};
pub use source::{DirSource, ImportSource, TarGzSource, ZipSource};
pub use table::{import_jsonl, import_tsv};
pub use wmt::import_wmt;

/// Imports an upload stored at `path` (a temp file or a folder), choosing the format from
/// `original_name`: a folder, `.zip`, `.tar.gz`/`.tgz` → WMT layout; `.json` → Appraise batches;
/// `.tsv`/`.txt` → TSV; `.jsonl`/`.ndjson` → JSONL.
pub fn import_path(
    path: &Path,
    original_name: &str,
    opts: &ImportOptions,
) -> Result<ImportBundle, Vec<ImportError>> {
    let bundle = import_path_unchecked(path, original_name, opts)?;
    check_bundle(original_name, &bundle)?;
    Ok(bundle)
}

/// Checks the texts of an import against [`crate::limits`], after parsing and before anything
/// is stored: the names of test sets, systems and references are names (one line, at most
/// [`MAX_NAME_CHARS`](crate::limits::MAX_NAME_CHARS)), and no text holds NUL (a NUL byte in a
/// line is reported with its line while reading; this finds the ones a JSON escape made).
/// `file` names the upload in the errors.
pub fn check_bundle(file: &str, bundle: &ImportBundle) -> Result<(), Vec<ImportError>> {
    let mut errs = Vec::new();
    let mut name = |what: String, text: &str| {
        if let Err(problem) = crate::limits::check_name(text) {
            errs.push(ImportError::new(file, None, format!("{what} {problem}")));
        }
    };
    for set in &bundle.test_sets {
        name(format!("the test set's name {:?}", clip(&set.name)), &set.name);
        let mut references: Vec<&str> = set.segments.iter().flat_map(|s| s.references.iter().map(|r| r.name.as_str())).collect();
        references.sort_unstable();
        references.dedup();
        for r in references {
            name(format!("the reference name {:?}", clip(r)), r);
        }
    }
    for system in &bundle.systems {
        name(format!("the system name {:?}", clip(&system.name)), &system.name);
    }
    if let Ok(value) = serde_json::to_value(bundle)
        && let Some(path) = crate::limits::nul_path(&value)
    {
        errs.push(ImportError::new(file, None, format!("{path} {}", crate::limits::TextProblem::Nul)));
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

/// The first 40 characters of a text, for a message about it.
fn clip(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

fn import_path_unchecked(path: &Path, original_name: &str, opts: &ImportOptions) -> Result<ImportBundle, Vec<ImportError>> {
    if let Err(problem) = crate::limits::check_name(opts.test_set_name.trim()) {
        return Err(vec![ImportError::new("", None, format!("the test set's name {problem}"))]);
    }
    let lower = original_name.to_ascii_lowercase();
    let limits = &opts.limits;
    if path.is_dir() {
        return import_wmt(&mut DirSource::new(path, limits)?, opts);
    }
    if lower.ends_with(".zip") {
        return import_wmt(&mut ZipSource::from_path(path, limits)?, opts);
    }
    if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
        return import_wmt(&mut TarGzSource::from_path(path, limits)?, opts);
    }
    let open = || {
        std::fs::File::open(path).map_err(|e| {
            vec![ImportError::new(
                original_name,
                None,
                format!("could not be opened: {e}"),
            )]
        })
    };
    if lower.ends_with(".json") {
        import_appraise(original_name, &mut open()?, opts)
    } else if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        import_jsonl(original_name, &mut open()?, opts)
    } else if lower.ends_with(".tsv") || lower.ends_with(".txt") {
        import_tsv(original_name, &mut open()?, opts)
    } else {
        Err(vec![ImportError::new(
            original_name,
            None,
            "unknown kind of file: expected a folder, .zip, .tar.gz, .json (Appraise batches), .tsv or .jsonl",
        )])
    }
}

/// One problem found in the input, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// The file, as a path inside the upload (`references/de-en.ref.txt`); empty if none applies.
    pub file: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<usize>,
    /// What is wrong, in words a user can act on.
    pub problem: String,
}

impl ImportError {
    /// Builds an error for a file and optional line.
    pub fn new(file: impl Into<String>, line: Option<usize>, problem: impl Into<String>) -> Self {
        ImportError {
            file: file.into(),
            line,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.line) {
            (true, _) => f.write_str(&self.problem),
            (false, Some(line)) => write!(f, "{}, line {}: {}", self.file, line, self.problem),
            (false, None) => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

impl std::error::Error for ImportError {}

/// Size limits enforced while reading, before any limit is exceeded by much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportLimits {
    /// Total uncompressed bytes over all files of one import.
    pub max_total_bytes: u64,
    /// Uncompressed bytes of any one file.
    pub max_file_bytes: u64,
    /// Number of files (archive entries, folder entries).
    pub max_files: usize,
    /// Bytes of one line of a line-based file (text, TSV, JSONL).
    pub max_line_bytes: usize,
    /// Errors collected before the importer stops.
    pub max_errors: usize,
}

impl Default for ImportLimits {
    fn default() -> Self {
        ImportLimits {
            max_total_bytes: 512 * 1024 * 1024,
            max_file_bytes: 128 * 1024 * 1024,
            max_files: 10_000,
            max_line_bytes: 256 * 1024,
            max_errors: 20,
        }
    }
}

/// What the caller tells an importer besides the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// Name given to the imported test set(s) (one test set per language pair), e.g. `wmt24`.
    pub test_set_name: String,
    /// Language pair for formats that do not carry one (TSV/JSONL without language columns).
    pub pair: Option<LanguagePair>,
    /// Accept empty system outputs (stored as `None`, never judged) instead of reporting them.
    pub allow_empty_outputs: bool,
    /// Size limits.
    pub limits: ImportLimits,
}

impl ImportOptions {
    /// Options with default limits, no language pair and empty outputs refused.
    pub fn new(test_set_name: impl Into<String>) -> Self {
        ImportOptions {
            test_set_name: test_set_name.into(),
            pair: None,
            allow_empty_outputs: false,
            limits: ImportLimits::default(),
        }
    }
}

/// The validated result of one import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportBundle {
    /// One test set per language pair, ordered by language pair.
    pub test_sets: Vec<TestSet>,
    /// Every system that has outputs in some test set, ordered by name; names are unique even
    /// ignoring case.
    pub systems: Vec<System>,
    /// Things the user should know that are not errors (ignored files, skipped QC items, …).
    pub notes: Vec<String>,
}

/// A test set of one language pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestSet {
    pub name: String,
    pub pair: LanguagePair,
    /// Segments in input order.
    pub segments: Vec<Segment>,
    /// Outputs per system, ordered by system name.
    pub outputs: Vec<SystemOutput>,
}

/// One source segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Segment id as given (WMT layout: the 1-based line number); unique within
    /// (`document`, `id`) in its test set.
    pub id: String,
    /// Document id, if known.
    pub document: Option<String>,
    /// Domain (WMT `documents/*.docs` first column), if known.
    pub domain: Option<String>,
    /// The source text.
    pub source: String,
    /// Human references, by name (`refA`, `ref`, …), in name order; may be empty.
    pub references: Vec<Reference>,
}

/// One named human reference of a segment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub name: String,
    pub text: String,
}

/// A system's outputs for one test set, aligned with `TestSet::segments` (`None` where the system
/// has no usable output for that segment).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemOutput {
    pub system: String,
    pub texts: Vec<Option<String>>,
    /// Pre-filled error spans (ESA-AI), aligned with `texts` when any were given (empty when
    /// the import gave none): per segment `None` (none given) or the spans, checked against
    /// the output's text (see [`check_prefilled`]). `Some(vec![])` is "given: no error".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<Option<Vec<crate::protocol::Span>>>,
}

/// What is wrong with pre-filled spans (of an imported output).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PrefillError {
    /// Span `span` (1-based) is "undecided".
    #[error("pre-filled span {span}: severity \"undecided\" cannot be pre-filled (give minor, major, critical or neutral)")]
    Undecided { span: usize },
    /// Span `span` (1-based) does not fit the text it marks.
    #[error("pre-filled span {span}: {problem}")]
    Span { span: usize, problem: crate::protocol::SpanError },
    /// The field is not JSON (the parser's message, without its position).
    #[error("the pre-filled spans are not JSON: {0}")]
    NotJson(String),
    /// The field is JSON but not a list.
    #[error("the pre-filled spans must be a JSON list of {{\"start_i\", \"end_i\", \"severity\"}} objects")]
    NotList,
    /// A span of Appraise's form cannot be read.
    #[error("pre-filled {0}")]
    Appraise(crate::protocol::SpanError),
}

/// Checks pre-filled spans against the output they mark (the offset convention of
/// [`crate::protocol::spans`]): each span non-empty, within the text and on grapheme
/// boundaries, or an omission; its severity minor, major, critical or neutral (never
/// `undecided`: a pre-filled span says how bad it is). Categories are kept as given; a
/// campaign fits them to its scheme at launch. The first problem comes with the span's
/// 1-based number.
pub fn check_prefilled(text: &str, spans: &[crate::protocol::Span]) -> Result<(), PrefillError> {
    use crate::protocol::spans::{Scheme, Severity};
    for (i, s) in spans.iter().enumerate() {
        if s.severity == Severity::Undecided {
            return Err(PrefillError::Undecided { span: i + 1 });
        }
        // MQM's rules admit every other severity; the category is not checked here.
        let probe = crate::protocol::Span { category: Some("-".into()), ..s.clone() };
        probe.validate(text, Scheme::Mqm).map_err(|problem| PrefillError::Span { span: i + 1, problem })?;
    }
    Ok(())
}

/// Reads a pre-filled spans field (TSV, JSONL, Appraise's `mqm`): Appraise's span JSON (a list
/// of `{"start_i", "end_i", "severity", "error_type"}`, `"missing"` offsets for an omission),
/// or Appraise's tutorial form `{"payload": [...]}`; blank or `null` is no spans given.
pub(crate) fn parse_prefilled(value: &serde_json::Value) -> Result<Option<Vec<crate::protocol::Span>>, PrefillError> {
    use serde_json::Value;
    let list = match value {
        Value::Null => return Ok(None),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => serde_json::from_str::<Value>(s.trim()).map_err(|e| PrefillError::NotJson(appraise::strip_position(&e.to_string()).to_string()))?,
        Value::Object(o) if o.contains_key("payload") => o["payload"].clone(),
        other => other.clone(),
    };
    let list = match list {
        Value::Object(o) if o.contains_key("payload") => o["payload"].clone(),
        l => l,
    };
    if !list.is_array() {
        return Err(PrefillError::NotList);
    }
    crate::protocol::spans::spans_from_appraise_value(&list).map(Some).map_err(PrefillError::Appraise)
}

/// A system (lasting entity); the import formats only give names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct System {
    pub name: String,
    pub description: Option<String>,
    pub year: Option<i32>,
}

/// Collects errors up to a cap; importers stop early once it is full.
pub(crate) struct Errors {
    list: Vec<ImportError>,
    max: usize,
    dropped: bool,
}

impl Errors {
    pub(crate) fn new(max: usize) -> Self {
        Errors {
            list: Vec::new(),
            max: max.max(1),
            dropped: false,
        }
    }

    /// Records an error (dropped once the cap is reached).
    pub(crate) fn push(&mut self, file: &str, line: Option<usize>, problem: impl Into<String>) {
        if self.list.len() < self.max {
            self.list.push(ImportError::new(file, line, problem));
        } else {
            self.dropped = true;
        }
    }

    pub(crate) fn add(&mut self, e: ImportError) {
        if self.list.len() < self.max {
            self.list.push(e);
        } else {
            self.dropped = true;
        }
    }

    pub(crate) fn full(&self) -> bool {
        self.list.len() >= self.max
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The collected errors, with a closing note when some were dropped or the cap was reached.
    pub(crate) fn into_vec(mut self) -> Vec<ImportError> {
        if self.dropped || self.list.len() >= self.max {
            let n = self.list.len();
            self.list.push(ImportError::new(
                "",
                None,
                format!("stopped after {n} errors; fix these and import again to see any others"),
            ));
        }
        self.list
    }
}
