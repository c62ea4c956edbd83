//! The files of post-editing.
//!
//! - The judgment CSV `assay analyze --input` reads, and the campaign's exports write: a header
//!   `segment,system,output,post_edit,worker` (any order), optionally `edit_ms` and `pair` (the
//!   language pair, `xx-xx` when there is none); one post-edit a row. RFC 4180 quoting (a
//!   post-edit may hold commas and quotes), read by the `csv` crate; errors name the line.
//! - `postedit-<pair>.csv`, one row per system, lowest HTER first:
//!   `system,hter,ci_low,ci_high,rank_low,rank_high,edits,words,segments,post_edits,mean_segment_hter,median_edit_ms`
//!   (`ci_*` empty without a bootstrap, `median_edit_ms` empty without times).
//! - `postedit-<pair>-segments.csv`: each counted post-edit's HTER,
//!   `segment,system,worker,hter,edits,words`.
//! - `postedits-<pair>-<system>.txt`: the system's post-edits, one line per segment, usable as
//!   a new reference ([`super::campaign::references`]).

use std::io::{Read, Write};

use super::campaign::{CampaignPostEdits, StoredPostEdit};
use crate::model::ItemType;

/// The language pair of a judgment CSV without a `pair` column.
pub const DEFAULT_PAIR: &str = "xx-xx";

/// The required columns of the judgment CSV.
pub const JUDGMENT_COLUMNS: [&str; 5] = ["segment", "system", "output", "post_edit", "worker"];

/// The header of `postedit-<pair>.csv`.
pub const HTER_HEADER: [&str; 12] =
    ["system", "hter", "ci_low", "ci_high", "rank_low", "rank_high", "edits", "words", "segments", "post_edits", "mean_segment_hter", "median_edit_ms"];

/// A problem in a judgment CSV: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PostEditFileError {
    pub line: usize,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> PostEditFileError {
    PostEditFileError { line, message: message.into() }
}

/// The post-edits of one language pair, systems in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostEditData {
    pub pair: String,
    pub post_edits: Vec<StoredPostEdit>,
    /// Segments in order of first appearance (the lines of the reference files).
    pub segments: Vec<String>,
}

/// Whether a CSV's first record is a post-edit judgment header (it names `output` and
/// `post_edit`).
pub fn is_judgment_header<S: AsRef<str>>(fields: &[S]) -> bool {
    let has = |name: &str| fields.iter().any(|f| f.as_ref().trim().trim_start_matches('\u{feff}').eq_ignore_ascii_case(name));
    has("output") && has("post_edit")
}

pub fn hter_file_name(pair: &str) -> String {
    format!("postedit-{pair}.csv")
}

pub fn segments_file_name(pair: &str) -> String {
    format!("postedit-{pair}-segments.csv")
}

/// The reference file of a system: its name made safe for a file (letters, digits, `-`, `_`,
/// `.` kept, anything else `_`).
pub fn references_file_name(pair: &str, system: &str) -> String {
    let safe: String = system.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    format!("postedits-{pair}-{}.txt", safe.trim_start_matches('.'))
}

fn valid_pair(pair: &str) -> bool {
    !pair.is_empty() && pair.len() <= 40 && pair.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

use crate::csv_guard::{spreadsheet_guard as guard, spreadsheet_unguard as unguard};

/// Reads a post-edit judgment CSV, grouped by language pair in order of first appearance.
/// Every row is a real post-edit (`SYSTEM`).
pub fn read_judgment_csv(input: impl Read) -> Result<Vec<PostEditData>, PostEditFileError> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input);
    let mut record = csv::StringRecord::new();
    let mut next = |record: &mut csv::StringRecord| -> Result<Option<usize>, PostEditFileError> {
        loop {
            match reader.read_record(record) {
                Ok(false) => return Ok(None),
                Ok(true) if record.len() == 1 && record[0].trim().is_empty() => continue,
                Ok(true) => return Ok(Some(record.position().map_or(1, |p| p.line() as usize))),
                Err(e) => {
                    let line = e.position().map_or(1, |p| p.line() as usize);
                    return Err(match e.kind() {
                        csv::ErrorKind::Utf8 { err: u, .. } => err(line, format!("field {} is not valid UTF-8", u.field() + 1)),
                        csv::ErrorKind::Io(io) => err(line, format!("cannot read: {io}")),
                        _ => err(line, e.to_string()),
                    });
                }
            }
        }
    };
    let Some(header_line) = next(&mut record)? else { return Err(err(1, "empty input: expected the header segment,system,output,post_edit,worker")) };
    let names: Vec<String> = record.iter().map(|f| f.trim().trim_start_matches('\u{feff}').to_ascii_lowercase()).collect();
    let column = |name: &str| names.iter().position(|n| n == name);
    for (at, name) in names.iter().enumerate() {
        if !JUDGMENT_COLUMNS.contains(&name.as_str()) && name != "pair" && name != "edit_ms" {
            return Err(err(header_line, format!("unknown column {:?} (a post-edit judgment CSV has segment,system,output,post_edit,worker and optionally edit_ms, pair)", record[at].trim())));
        }
        if names[..at].contains(name) {
            return Err(err(header_line, format!("the column {name} appears twice")));
        }
    }
    let mut at = [0usize; 5];
    for (slot, name) in at.iter_mut().zip(JUDGMENT_COLUMNS) {
        *slot = column(name).ok_or_else(|| err(header_line, format!("the header has no column {name} (segment,system,output,post_edit,worker)")))?;
    }
    let [segment, system, output, post_edit, worker] = at;
    let (pair_column, ms_column) = (column("pair"), column("edit_ms"));
    let mut out: Vec<PostEditData> = Vec::new();
    while let Some(line) = next(&mut record)? {
        if record.len() != names.len() {
            let hint = if record.iter().any(|f| f.contains(['\n', '\r'])) { " (a quoted field holding a line break: is a quote not closed?)" } else { "" };
            return Err(err(line, format!("{} fields, but the header has {}{hint}", record.len(), names.len())));
        }
        let pair = pair_column.map_or(DEFAULT_PAIR, |c| record[c].trim());
        if !valid_pair(pair) {
            return Err(err(line, format!("{pair:?} is not a language pair (letters, digits, - and _ only, at most 40, e.g. en-de)")));
        }
        for (name, c) in [("segment", segment), ("system", system), ("worker", worker)] {
            if record[c].trim().is_empty() {
                return Err(err(line, format!("{name} is empty")));
            }
        }
        let text = |c: usize| -> Result<String, PostEditFileError> {
            let t = unguard(&record[c]);
            crate::protocol::postedit::normalise(t).map_err(|code| err(line, format!("{} holds a control character (U+{code:04X})", JUDGMENT_COLUMNS[[segment, system, output, post_edit, worker].iter().position(|&x| x == c).unwrap_or(0)])))
        };
        let (out_text, pe_text) = (text(output)?, text(post_edit)?);
        let edit_ms = match ms_column.map(|c| record[c].trim()) {
            None | Some("") => None,
            Some(v) => Some(v.parse::<u64>().map_err(|_| err(line, format!("edit_ms must be a whole number of milliseconds, not {v:?}")))?),
        };
        let at = match out.iter().position(|d| d.pair == pair) {
            Some(at) => at,
            None => {
                out.push(PostEditData { pair: pair.to_string(), post_edits: Vec::new(), segments: Vec::new() });
                out.len() - 1
            }
        };
        let seg = unguard(record[segment].trim()).to_string();
        let d = &mut out[at];
        if !d.segments.contains(&seg) {
            d.segments.push(seg.clone());
        }
        d.post_edits.push(StoredPostEdit {
            worker: unguard(record[worker].trim()).to_string(),
            item_type: ItemType::System,
            segment: seg,
            system: unguard(record[system].trim()).to_string(),
            output: out_text,
            post_edit: pe_text,
            edit_ms,
        });
    }
    if out.is_empty() {
        return Err(err(header_line, "no post-edit: the file has a header only"));
    }
    Ok(out)
}

/// Writes a judgment CSV (with `pair` and `edit_ms`) of `post_edits`, in their order.
pub fn write_judgment_csv(w: impl Write, pair: &str, post_edits: &[StoredPostEdit]) -> std::io::Result<()> {
    let mut out = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(w);
    out.write_record(["segment", "system", "output", "post_edit", "worker", "edit_ms", "pair"])?;
    for p in post_edits {
        out.write_record([
            guard(&p.segment).as_ref(),
            guard(&p.system).as_ref(),
            guard(&p.output).as_ref(),
            guard(&p.post_edit).as_ref(),
            guard(&p.worker).as_ref(),
            &p.edit_ms.map_or_else(String::new, |v| v.to_string()),
            pair,
        ])?;
    }
    out.flush()
}

/// Writes `postedit-<pair>.csv`.
pub fn write_hter_csv(w: impl Write, report: &CampaignPostEdits) -> std::io::Result<()> {
    let mut out = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(w);
    out.write_record(HTER_HEADER)?;
    let number = |x: Option<f64>| x.filter(|v| v.is_finite()).map_or_else(String::new, |v| v.to_string());
    for r in &report.systems {
        out.write_record([
            guard(&r.system).into_owned(),
            r.hter.to_string(),
            number(r.ci_low),
            number(r.ci_high),
            r.rank_low.to_string(),
            r.rank_high.to_string(),
            r.edits.to_string(),
            r.words.to_string(),
            r.segments.to_string(),
            r.post_edits.to_string(),
            r.mean_segment_hter.to_string(),
            r.median_edit_ms.map_or_else(String::new, |v| v.to_string()),
        ])?;
    }
    out.flush()
}

/// Writes `postedit-<pair>-segments.csv`.
pub fn write_segments_csv(w: impl Write, report: &CampaignPostEdits) -> std::io::Result<()> {
    let mut out = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(w);
    out.write_record(["segment", "system", "worker", "hter", "edits", "words"])?;
    for r in &report.segments {
        out.write_record([guard(&r.segment).as_ref(), guard(&r.system).as_ref(), guard(&r.worker).as_ref(), &r.hter.hter.to_string(), &r.hter.edits.to_string(), &r.hter.words.to_string()])?;
    }
    out.flush()
}

/// Writes one reference file: its lines, each ending in `\n`.
pub fn write_references(mut w: impl Write, lines: &[&str]) -> std::io::Result<()> {
    for l in lines {
        w.write_all(l.as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.flush()
}
