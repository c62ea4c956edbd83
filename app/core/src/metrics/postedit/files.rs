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

pub use crate::judgment_csv::DEFAULT_PAIR;
use crate::judgment_csv::{JudgmentCsv, Layout};

/// The required columns of the judgment CSV.
pub const JUDGMENT_COLUMNS: [&str; 5] = ["segment", "system", "output", "post_edit", "worker"];

/// The judgment CSV as the one reader of judgment CSVs reads it (`judgment_csv`): the required
/// columns, `edit_ms` optional (besides `pair`).
const LAYOUT: Layout = Layout { kind: "a post-edit judgment CSV", required: &JUDGMENT_COLUMNS, optional: &["edit_ms"] };

/// The header of `postedit-<pair>.csv`.
pub const HTER_HEADER: [&str; 12] =
    ["system", "hter", "ci_low", "ci_high", "rank_low", "rank_high", "edits", "words", "segments", "post_edits", "mean_segment_hter", "median_edit_ms"];

/// A problem in a judgment CSV: the 1-based line and what is wrong.
pub type PostEditFileError = crate::judgment_csv::CsvLineError;

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

use crate::csv_guard::{spreadsheet_guard as guard, spreadsheet_unguard as unguard};

/// Reads a post-edit judgment CSV, grouped by language pair in order of first appearance.
/// Every row is a real post-edit (`SYSTEM`).
pub fn read_judgment_csv(input: impl Read) -> Result<Vec<PostEditData>, PostEditFileError> {
    let mut csv = JudgmentCsv::open(input, &LAYOUT)?;
    let (segment, system, output, post_edit, worker) = (0, 1, 2, 3, 4);
    let mut out: Vec<PostEditData> = Vec::new();
    while let Some(row) = csv.next_row()? {
        let pair = row.pair;
        for k in [segment, system, worker] {
            if row.raw(k).trim().is_empty() {
                return Err(row.error(format!("{} is empty", JUDGMENT_COLUMNS[k])));
            }
        }
        let text = |k: usize| -> Result<String, PostEditFileError> {
            crate::protocol::postedit::normalise(unguard(row.raw(k)))
                .map_err(|code| row.error(format!("{} holds a control character (U+{code:04X})", JUDGMENT_COLUMNS[k])))
        };
        let (out_text, pe_text) = (text(output)?, text(post_edit)?);
        let edit_ms = match row.optional(0).map(str::trim) {
            None | Some("") => None,
            Some(v) => Some(v.parse::<u64>().map_err(|_| row.error(format!("edit_ms must be a whole number of milliseconds, not {v:?}")))?),
        };
        let at = match out.iter().position(|d| d.pair == pair) {
            Some(at) => at,
            None => {
                out.push(PostEditData { pair: pair.to_string(), post_edits: Vec::new(), segments: Vec::new() });
                out.len() - 1
            }
        };
        let seg = row.text(segment).to_string();
        let d = &mut out[at];
        if !d.segments.contains(&seg) {
            d.segments.push(seg.clone());
        }
        d.post_edits.push(StoredPostEdit {
            worker: row.text(worker).to_string(),
            item_type: ItemType::System,
            segment: seg,
            system: row.text(system).to_string(),
            output: out_text,
            post_edit: pe_text,
            edit_ms,
        });
    }
    if out.is_empty() {
        return Err(crate::judgment_csv::line_error(csv.header_line(), "no post-edit: the file has a header only"));
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
