//! Readers and writers of judgment and result files. They read and write text, but take
//! `impl Read` / `impl Write`, never paths. Every read error names the line and the problem.
//!
//! Read:
//! - the Graham/MTurk judgment file (`ad-latest.csv`, `ad-good-raw.csv`, …): a header of
//!   space- or tab-separated names `HITId WorkerId Input.src Input.trg Input.item hit sys_id rid
//!   type sid score time`, then tab-separated rows; `time` is the HIT's seconds on every row;
//!   `Input.item` (e.g. `ad`) names the task;
//! - the Appraise segment-level CSV, WMT22 order
//!   `username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd`, with or without
//!   that header; seconds per item = timeEnd − timeStart; each user's judgments form one HIT.
//!
//! Write (WMT `ad-*` layouts as in `anchors.md`, numbers printed as R prints them: up to 15
//! significant digits, fixed unless scientific is shorter):
//! `ad-seg-scores`, `ad-sys-scores`, `ad-sys-ranking-…-z`, `ad-wrkr-stats`, the Wilcoxon
//! p-value matrix (`adwilcox-…`), the difference matrix with `*`/`**`/`***`
//! (`ad-DA-diff-wilcoxon-rs-…`), `clusters.csv`, `ad-trk-stats`, the unreliable-worker list,
//! and the whole result as JSON.
//!
//! One job per file: `graham` (the Graham/MTurk reader), `readers` (Appraise, Assay's CSV and
//! JSONL), `csv_io` (CSV records and text fields), `numbers` (how numbers are printed),
//! `writers` (every file written); this file holds what they share (the error, line numbers,
//! parsing a number or an item type). Every item is re-exported here, so callers name
//! `analysis::formats::…` as before.

use std::io::{self, BufRead, BufReader, Read, Write};

use crate::model::ItemType;

use super::clusters::Comparison;
use super::quality::WorkerQc;
use super::{AnalysisResult, GroupResult, Judgment, JudgmentNames, JudgmentSet, Names, Scale, TimeBasis};

/// A problem in an input file: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FormatError {
    pub line: usize,
    pub message: String,
}

pub(crate) fn err(line: usize, message: impl Into<String>) -> FormatError {
    FormatError {
        line,
        message: message.into(),
    }
}

fn lines(input: impl Read) -> impl Iterator<Item = (usize, io::Result<String>)> {
    BufReader::new(input)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
}

fn parse_number(line: usize, column: &str, text: &str) -> Result<f64, FormatError> {
    if let Some(v) = parse_plain_decimal(text) {
        return Ok(v);
    }
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(err(line, format!("{column} is not a number: {text:?}"))),
    }
}

/// A number written plainly (`73`, `-12.5`, `1503.0`: sign, at most 15 digits, one optional
/// point) read exactly as `str::parse` reads it, without its general algorithm: the digits
/// form an integer below 2^53 and the power of ten is at most 10^15, both exact in an `f64`,
/// so one correctly rounded division gives the correctly rounded value (Clinger's fast path).
/// Anything else (exponents, more digits, `inf`) is left to `str::parse`.
fn parse_plain_decimal(text: &str) -> Option<f64> {
    const POW10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let bytes = text.as_bytes();
    let (negative, digits) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.len() > 16 {
        return None;
    }
    let (mut mantissa, mut count, mut decimals) = (0u64, 0usize, None);
    for (i, &c) in digits.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(c - b'0');
                count += 1;
            }
            b'.' if decimals.is_none() => decimals = Some(digits.len() - i - 1),
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let value = mantissa as f64 / POW10[decimals.unwrap_or(0)];
    Some(if negative { -value } else { value })
}

fn parse_item_type(line: usize, text: &str) -> Result<ItemType, FormatError> {
    // The exact spellings first (no allocation), then any case.
    let exact = match text {
        "SYSTEM" | "TGT" => Some(ItemType::System),
        "BAD_REF" | "BAD" => Some(ItemType::BadRef),
        "REPEAT" | "CHK" => Some(ItemType::Repeat),
        "REF" => Some(ItemType::Ref),
        _ => None,
    };
    exact.or_else(|| ItemType::parse(text)).ok_or_else(|| {
        err(line, format!("unknown item type {text:?} (expected SYSTEM, BAD_REF, REPEAT, REF or TGT, BAD, CHK, REF)"))
    })
}

mod csv_io;
mod graham;
mod numbers;
mod readers;
mod writers;
#[cfg(test)]
mod tests;

pub use csv_io::*;
pub use graham::*;
pub use numbers::*;
pub use readers::*;
pub use writers::*;
