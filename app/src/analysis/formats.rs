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

use std::io::{self, BufRead, BufReader, Read, Write};

use crate::model::ItemType;

use super::clusters::Comparison;
use super::quality::WorkerQc;
use super::{AnalysisResult, GroupResult, Judgment, JudgmentNames, JudgmentSet, Names, TimeBasis};

/// A problem in an input file: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct FormatError {
    pub line: usize,
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> FormatError {
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
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(err(line, format!("{column} is not a number: {text:?}"))),
    }
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

const GRAHAM_COLUMNS: [&str; 12] = [
    "HITId",
    "WorkerId",
    "Input.src",
    "Input.trg",
    "Input.item",
    "hit",
    "sys_id",
    "rid",
    "type",
    "sid",
    "score",
    "time",
];

/// Reads a Graham/MTurk judgment file.
///
/// The file is read into memory and its rows are parsed in chunks on every core (a chunk
/// starts at a line boundary); each chunk interns names on its own, and the chunks are then
/// merged in file order, so ids are in order of first appearance exactly as a sequential read
/// gives them. Within a chunk: field boundaries in a reused vector, and the names of
/// consecutive rows (a HIT's rows share worker, HIT, language pair and task) resolved without
/// hashing. The first error in file order is reported, with its line number in the file.
pub fn read_graham_tsv(mut input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut data = Vec::new();
    input.read_to_end(&mut data).map_err(|e| err(1, format!("cannot read: {e}")))?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    read_graham_bytes(&data, threads, 4 << 20)
}

/// The end of the line starting at `from` (the index of its `\n`, or the end of the data).
fn line_end(data: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &data[from..]).map_or(data.len(), |i| from + i)
}

/// [`read_graham_tsv`] on bytes, in at most `threads` chunks; a body shorter than
/// `parallel_from` bytes is one chunk.
fn read_graham_bytes(data: &[u8], threads: usize, parallel_from: usize) -> Result<JudgmentSet, FormatError> {
    // The header: the first non-blank line.
    let mut pos = 0;
    let mut line_no = 0;
    let header = loop {
        if pos >= data.len() {
            return Err(err(1, "empty input: expected the header line"));
        }
        line_no += 1;
        let end = line_end(data, pos);
        let text = std::str::from_utf8(&data[pos..end]).map_err(|_| err(line_no, "the line is not valid UTF-8"))?;
        pos = (end + 1).min(data.len());
        if !text.trim().is_empty() {
            break text;
        }
    };
    let names: Vec<&str> = header.split_whitespace().collect();
    let mut cols = [0usize; 12];
    for (k, want) in GRAHAM_COLUMNS.iter().enumerate() {
        cols[k] = names.iter().position(|h| h == want).ok_or_else(|| {
            err(line_no, format!("the header lacks column {want:?} (expected: {})", GRAHAM_COLUMNS.join(" ")))
        })?;
    }
    let layout = GrahamLayout { cols, width: names.len() };

    // Chunks of the body, each starting at a line start; small files are one chunk.
    let body = &data[pos..];
    let chunks = if body.len() < parallel_from { 1 } else { threads.max(1) };
    let mut starts = vec![0usize];
    for k in 1..chunks {
        let at = body.len() * k / chunks;
        let start = line_end(body, at.max(*starts.last().unwrap())) + 1;
        if start < body.len() {
            starts.push(start);
        }
    }
    starts.push(body.len());
    let pieces: Vec<&[u8]> = starts.windows(2).map(|w| &body[w[0]..w[1]]).collect();
    let parsed: Vec<Result<JudgmentSet, FormatError>> = if pieces.len() == 1 {
        vec![parse_graham_chunk(pieces[0], &layout)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = pieces.iter().map(|piece| scope.spawn(|| parse_graham_chunk(piece, &layout))).collect();
            handles.into_iter().map(|h| h.join().expect("a reader thread panicked")).collect()
        })
    };

    // Merge in file order; an error's line is local to its chunk until offset here.
    let mut lines_before = line_no;
    let mut merged: Option<JudgmentSet> = None;
    for (piece, result) in pieces.iter().zip(parsed) {
        match result {
            Err(e) => return Err(err(lines_before + e.line, e.message)),
            Ok(part) => match merged.as_mut() {
                None => merged = Some(part),
                Some(set) => set.append(part),
            },
        }
        lines_before += memchr::memchr_iter(b'\n', piece).count();
    }
    Ok(merged.unwrap_or_else(|| JudgmentSet::new(TimeBasis::PerHit)))
}

/// Where the Graham columns are in the header, and how many fields a row has.
struct GrahamLayout {
    cols: [usize; 12],
    width: usize,
}

/// Parses rows (no header); line numbers in errors count from 1 at the chunk's first line.
fn parse_graham_chunk(chunk: &[u8], layout: &GrahamLayout) -> Result<JudgmentSet, FormatError> {
    let (cols, width) = (&layout.cols, layout.width);
    let mut set = JudgmentSet::new(TimeBasis::PerHit);
    set.records.reserve(chunk.len() / 64);
    let mut bounds: Vec<(usize, usize)> = Vec::with_capacity(16);
    // The previous row's worker, HIT and (src, trg, item) with their ids.
    let mut last_worker: (&str, u32) = ("", u32::MAX);
    let mut last_hit: (&str, u32) = ("", u32::MAX);
    let mut last_group: Option<(&str, &str, &str, u16, u16)> = None;
    let mut pos = 0;
    let mut n = 0usize;
    while pos < chunk.len() {
        n += 1;
        let end = line_end(chunk, pos);
        let raw = &chunk[pos..end];
        pos = end + 1;
        let line = std::str::from_utf8(raw).map_err(|_| err(n, "the line is not valid UTF-8"))?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim_ascii().is_empty() {
            continue;
        }
        bounds.clear();
        // Tabs found in one vectorised pass over the line (tab is ASCII: the bounds are
        // character boundaries); a line without tabs is split on whitespace.
        let mut start = 0;
        for t in memchr::memchr_iter(b'\t', line.as_bytes()) {
            bounds.push((start, t));
            start = t + 1;
        }
        if bounds.is_empty() {
            let base = line.as_ptr() as usize;
            for w in line.split_whitespace() {
                let s = w.as_ptr() as usize - base;
                bounds.push((s, s + w.len()));
            }
        } else {
            bounds.push((start, line.len()));
        }
        if bounds.len() != width {
            return Err(err(n, format!("expected {width} tab-separated fields, found {}", bounds.len())));
        }
        let f = |k: usize| {
            let (a, b) = bounds[cols[k]];
            line[a..b].trim_ascii()
        };
        let item_type = parse_item_type(n, f(8))?;
        let score = parse_number(n, "score", f(10))?;
        let seconds = parse_number(n, "time", f(11))?;
        if seconds < 0.0 {
            return Err(err(n, format!("time is negative: {seconds}")));
        }
        let (src, trg, item) = (f(2), f(3), f(4));
        let (lang_pair, task) = match last_group {
            Some((s, t, i, lp, tk)) if s == src && t == trg && i == item => (lp, tk),
            _ => {
                let pair = format!("{src}-{trg}");
                let lp = u16::try_from(set.lang_pairs.intern(&pair)).map_err(|_| err(n, "more than 65,535 language pairs"))?;
                let tk = u16::try_from(set.tasks.intern(item)).map_err(|_| err(n, "more than 65,535 tasks"))?;
                last_group = Some((src, trg, item, lp, tk));
                (lp, tk)
            }
        };
        let (worker_name, hit_name) = (f(1), f(0));
        if last_worker.1 == u32::MAX || last_worker.0 != worker_name {
            last_worker = (worker_name, set.workers.intern(worker_name));
        }
        if last_hit.1 == u32::MAX || last_hit.0 != hit_name {
            last_hit = (hit_name, set.hits.intern(hit_name));
        }
        let record = Judgment {
            worker: last_worker.1,
            hit: last_hit.1,
            system: set.systems.intern(f(6)),
            segment: set.segments.intern(f(9)),
            lang_pair,
            task,
            item_type,
            score,
            seconds: seconds as f32,
        };
        set.records.push(record);
    }
    Ok(set)
}

/// Splits one CSV line (RFC 4180 quoting: "a,b" and "" for a quote).
fn split_csv(line: &str, out: &mut Vec<String>) -> Result<(), String> {
    out.clear();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    field.push('"');
                    chars.next();
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
        } else {
            match c {
                ',' => {
                    out.push(std::mem::take(&mut field));
                    at_start = true;
                    continue;
                }
                '"' if at_start => quoted = true,
                _ => field.push(c),
            }
        }
        at_start = false;
    }
    if quoted {
        return Err("a quoted field is not closed".into());
    }
    out.push(field);
    Ok(())
}

const APPRAISE_COLUMNS: [&str; 9] = [
    "username",
    "system",
    "itemId",
    "itemType",
    "srcLang",
    "trgLang",
    "score",
    "timeStart",
    "timeEnd",
];

/// Reads an Appraise segment-level score CSV (WMT22 column order, header optional). All rows
/// belong to campaign task `task`.
pub fn read_appraise_csv(input: impl Read, task: &str) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut f: Vec<String> = Vec::with_capacity(9);
    let mut first = true;
    for (n, line) in lines(input) {
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        split_csv(line, &mut f).map_err(|m| err(n, m))?;
        if std::mem::take(&mut first) && f[0].trim().eq_ignore_ascii_case("username") {
            let got: Vec<&str> = f.iter().map(|s| s.trim()).collect();
            if got != APPRAISE_COLUMNS {
                return Err(err(
                    n,
                    format!("unexpected header: expected {}", APPRAISE_COLUMNS.join(",")),
                ));
            }
            continue;
        }
        match f.len() {
            9 => {}
            11 => {
                return Err(err(
                    n,
                    "a document-level row (11 fields): only segment-level rows (9 fields) are read",
                ));
            }
            k => {
                return Err(err(
                    n,
                    format!(
                        "expected 9 comma-separated fields ({}), found {k}",
                        APPRAISE_COLUMNS.join(",")
                    ),
                ));
            }
        }
        let item_type = parse_item_type(n, &f[3])?;
        let score = parse_number(n, "score", &f[6])?;
        let start = parse_number(n, "timeStart", &f[7])?;
        let end = parse_number(n, "timeEnd", &f[8])?;
        if end < start {
            return Err(err(n, format!("timeEnd {end} is before timeStart {start}")));
        }
        let pair = format!("{}-{}", f[4].trim(), f[5].trim());
        let user = f[0].trim();
        set.push(
            JudgmentNames {
                worker: user,
                hit: user,
                system: f[1].trim(),
                segment: f[2].trim(),
                lang_pair: &pair,
                task,
            },
            item_type,
            score,
            (end - start) as f32,
        );
    }
    Ok(set)
}

/// The columns of Assay's own judgment export (`judgments.csv` / `judgments.jsonl`, see
/// `export::rows`) that the analysis reads; the others are ignored.
const ASSAY_COLUMNS: [&str; 10] = ["task", "src_lang", "trg_lang", "hit", "worker", "item_type", "system", "segment", "score", "skipped"];

fn assay_record(
    set: &mut JudgmentSet,
    n: usize,
    get: &dyn Fn(usize) -> Option<String>,
    seconds: Option<String>,
) -> Result<(), FormatError> {
    let skipped = matches!(get(9).as_deref().map(str::trim), Some("1" | "true"));
    let score = get(8).map(|s| s.trim().to_string()).filter(|s| !s.is_empty() && s != "null");
    let Some(score) = score.filter(|_| !skipped) else { return Ok(()) };
    let score = parse_number(n, "score", &score)?;
    let item_type = parse_item_type(n, get(5).as_deref().unwrap_or("").trim())?;
    let seconds = match seconds.as_deref().map(str::trim) {
        None | Some("") | Some("null") => 0.0,
        Some(t) => parse_number(n, "seconds", t)?,
    };
    let field = |k: usize| get(k).map(|s| s.trim().to_string()).unwrap_or_default();
    let pair = format!("{}-{}", field(1), field(2));
    let (task, hit, worker, system, segment) = (field(0), field(3), field(4), field(6), field(7));
    if worker.is_empty() || system.is_empty() || segment.is_empty() {
        return Err(err(n, "worker, system and segment must not be empty"));
    }
    set.push(
        JudgmentNames { worker: &worker, hit: &hit, system: &system, segment: &segment, lang_pair: &pair, task: &task },
        item_type,
        score,
        seconds as f32,
    );
    Ok(())
}

/// Reads Assay's own judgment CSV (`judgments.csv`, raw or cleaned): a header naming the
/// columns, then one judgment per row; skipped judgments are left out, as when the analysis
/// reads the database. Seconds per item ([`TimeBasis::PerItem`]) from `seconds`.
pub fn read_assay_csv(input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut f: Vec<String> = Vec::new();
    let mut columns: Option<([usize; 10], Option<usize>, usize)> = None;
    for (n, line) in lines(input) {
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() {
            continue;
        }
        split_csv(line, &mut f).map_err(|m| err(n, m))?;
        let Some((cols, seconds, width)) = columns else {
            let mut idx = [0usize; 10];
            for (k, want) in ASSAY_COLUMNS.iter().enumerate() {
                idx[k] = f.iter().position(|h| h.trim() == *want).ok_or_else(|| {
                    err(n, format!("the header lacks column {want:?} (an Assay judgments.csv has {})", ASSAY_COLUMNS.join(",")))
                })?;
            }
            columns = Some((idx, f.iter().position(|h| h.trim() == "seconds"), f.len()));
            continue;
        };
        if f.len() != width {
            return Err(err(n, format!("expected {width} comma-separated fields, found {}", f.len())));
        }
        let get = |k: usize| Some(f[cols[k]].clone());
        assay_record(&mut set, n, &get, seconds.map(|k| f[k].clone()))?;
    }
    if columns.is_none() {
        return Err(err(1, "empty input: expected the header line"));
    }
    Ok(set)
}

/// Reads Assay's own judgment JSONL (`judgments.jsonl`): one JSON object per line with the
/// keys of `judgments.csv`.
pub fn read_assay_jsonl(input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    for (n, line) in lines(input) {
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).map_err(|e| err(n, format!("not a JSON object: {e}")))?;
        let obj = v.as_object().ok_or_else(|| err(n, "not a JSON object"))?;
        if let Some(missing) = ASSAY_COLUMNS.iter().find(|k| !obj.contains_key(**k)) {
            return Err(err(n, format!("the object lacks the key {missing:?}")));
        }
        let text = |v: &serde_json::Value| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        };
        let get = |k: usize| obj.get(ASSAY_COLUMNS[k]).map(text);
        assay_record(&mut set, n, &get, obj.get("seconds").map(text))?;
    }
    Ok(set)
}

/// A number as R's `print`/`write.table` shows it with `digits` significant digits: the
/// shortest representation up to that precision, fixed notation unless scientific is narrower
/// (R's rule with `scipen = 0`); `NaN`, `Inf`, `-Inf`; no negative zero.
pub fn r_number(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    let sci = format!("{:.*e}", digits.saturating_sub(1), x);
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let neg = mantissa.starts_with('-');
    let sig: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sig = sig.trim_end_matches('0');
    let sig = if sig.is_empty() { "0" } else { sig };
    let d = sig.len() as i32;
    let sci_width = neg as i32 + d + (d > 1) as i32 + 4;
    let decimals = (d - exp - 1).max(0);
    let int_digits = (exp + 1).max(1);
    let fixed_width = neg as i32 + int_digits + if decimals > 0 { 1 + decimals } else { 0 };
    if fixed_width <= sci_width {
        let s = format!("{:.*}", decimals as usize, x);
        if s.trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            "0".into()
        } else {
            s
        }
    } else {
        let mut m = String::new();
        if neg {
            m.push('-');
        }
        m.push_str(&sig[..1]);
        if d > 1 {
            m.push('.');
            m.push_str(&sig[1..]);
        }
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

/// `ad-seg-scores-<s>-<t>.csv`: `SYS SID RAW.SCR Z.SCR N`.
pub fn write_ad_seg_scores(
    mut w: impl Write,
    names: &Names,
    group: &GroupResult,
) -> io::Result<()> {
    writeln!(w, "SYS SID RAW.SCR Z.SCR N ")?;
    for s in &group.segments {
        writeln!(
            w,
            "{} {} {} {} {} ",
            names.systems[s.system as usize],
            names.segments[s.segment as usize],
            r_number(s.raw, 15),
            r_number(s.z, 15),
            s.n
        )?;
    }
    Ok(())
}

/// `ad-sys-scores-<lp>.csv`: `RAW.SCR Z.SCR N SYS N.ALL`, N = segments, N.ALL = judgments.
pub fn write_ad_sys_scores(
    mut w: impl Write,
    names: &Names,
    group: &GroupResult,
) -> io::Result<()> {
    writeln!(w, "RAW.SCR Z.SCR N SYS N.ALL ")?;
    for s in &group.systems {
        writeln!(
            w,
            "{} {} {} {} {} ",
            r_number(s.raw, 15),
            r_number(s.z, 15),
            s.n_segments,
            names.systems[s.system as usize],
            s.n_judgments
        )?;
    }
    Ok(())
}

/// `ad-sys-ranking-<lp>-z.csv`: `RAW Z N N.ALL SYS`, no header, best z first, raw rounded to
/// 1 decimal and z to 3.
pub fn write_ad_sys_ranking(
    mut w: impl Write,
    names: &Names,
    group: &GroupResult,
) -> io::Result<()> {
    for s in &group.systems {
        writeln!(
            w,
            "{} {} {} {} {} ",
            r_number(round_to(s.raw, 1), 7),
            r_number(round_to(s.z, 3), 7),
            s.n_segments,
            s.n_judgments,
            names.systems[s.system as usize]
        )?;
    }
    Ok(())
}

/// `ad-wrkr-stats.csv`. Columns a judgment file cannot give are written `NA`:
/// `mean.concurrent` and `max.concurrent` (need HIT start and end times; Graham's files have
/// durations only), `reject.rate` (an MTurk decision); `reject.flag` is `-`.
/// `flag(scrs)`: mean(bad) ≥ mean(original); `flag(time)`: a HIT under the floor;
/// `flag(seq)`: a run of identical scores over the limit. Means are rounded to 1 decimal.
pub fn write_ad_wrkr_stats<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    writeln!(
        w,
        "wid hit.count mean.bad.ref mean.sys.out mean.ref min.hit.time mean.hit.time mean.concurrent \
         max.concurrent max.const.seq.len reject.rate scores.flag time.flag seq.flag reject.flag "
    )?;
    let num = |v: Option<f64>| r_number(v.map_or(f64::NAN, |x| round_to(x, 1)), 7);
    for q in workers {
        let f = &q.figures;
        writeln!(
            w,
            "{} {} {} {} {} {} {} NA NA {} NA {} {} {} - ",
            names.workers[q.worker as usize],
            q.hits,
            num(f.mean_bad_ref),
            num(f.mean_system),
            num(f.mean_ref),
            num(f.min_hit_seconds),
            num(f.mean_hit_seconds),
            f.longest_identical_run,
            if q.flags.bad_not_lower {
                "flag(scrs)"
            } else {
                "-"
            },
            if q.flags.fast_hits > 0 {
                "flag(time)"
            } else {
                "-"
            },
            if q.flags.long_identical_run {
                "flag(seq)"
            } else {
                "-"
            },
        )?;
    }
    Ok(())
}

/// `ad-trk-stats.csv`: `wid p t n` per worker, tab-separated, no header: the reliability
/// test's one-sided p, statistic and number of pairs. As in Graham's R script the t statistic
/// is that of (bad reference − original), so reliable workers have negative t; a signed-rank
/// statistic (W⁺ of original − bad) is written as is. `NA` where the test could not run.
pub fn write_ad_trk_stats<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    use super::quality::QcTest;
    let na = |v: Option<f64>| v.map_or("NA".to_string(), |x| r_number(x, 7));
    for q in workers {
        let r = &q.reliability;
        let t = match r.test {
            QcTest::PairedT => r.statistic.map(|t| -t),
            QcTest::SignedRank => r.statistic,
        };
        writeln!(
            w,
            "{}\t{}\t{}\t{}",
            names.workers[q.worker as usize],
            na(r.p_value),
            na(t),
            r.n_pairs
        )?;
    }
    Ok(())
}

/// The unreliable-annotator list (WMT23 `unreliable_annotators.txt`): one worker name per line,
/// for every worker whose reliability verdict is not a pass.
pub fn write_unreliable_workers<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    for q in workers {
        if q.reliability.verdict != super::quality::Verdict::Pass {
            writeln!(w, "{}", names.workers[q.worker as usize])?;
        }
    }
    Ok(())
}

/// How the Wilcoxon p-value matrix marks cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WilcoxonMatrixStyle {
    /// Written for cells not tested or not shown (the WMT files use 0.12).
    pub filler: f64,
    /// Show only p < α (WMT22: non-significant cells carry the filler).
    pub significant_only: bool,
    /// Show only cells above the diagonal (row ranked above column), as WMT22 does.
    pub upper_only: bool,
}

impl Default for WilcoxonMatrixStyle {
    fn default() -> Self {
        WilcoxonMatrixStyle {
            filler: 0.12,
            significant_only: true,
            upper_only: true,
        }
    }
}

/// `adwilcox-<lp>.csv`: a header of system names (led by a space), then one row per system:
/// name and the one-sided p-values of "row better than column".
pub fn write_wilcoxon_matrix(
    mut w: impl Write,
    names: &Names,
    cmp: &Comparison,
    style: WilcoxonMatrixStyle,
) -> io::Result<()> {
    let sys = |s: &u32| names.systems[*s as usize].as_str();
    writeln!(
        w,
        " {}",
        cmp.systems.iter().map(sys).collect::<Vec<_>>().join(" ")
    )?;
    for (i, row) in cmp.p_values.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, p)| {
                let shown = match p {
                    Some(p)
                        if !(style.upper_only && j <= i
                            || style.significant_only && *p >= cmp.alpha) =>
                    {
                        *p
                    }
                    _ => style.filler,
                };
                r_number(shown, 15)
            })
            .collect();
        writeln!(w, "{} {}", sys(&cmp.systems[i]), cells.join(" "))?;
    }
    Ok(())
}

/// `ad-DA-diff-wilcoxon-rs-<lp>.csv`: mean z of row minus column (2 decimals), marked `*`,
/// `**`, `***` where the row is better at p < 0.05, 0.01, 0.001; `-` on the diagonal.
pub fn write_difference_matrix(
    mut w: impl Write,
    names: &Names,
    cmp: &Comparison,
) -> io::Result<()> {
    let sys = |s: &u32| names.systems[*s as usize].as_str();
    writeln!(
        w,
        " {}",
        cmp.systems.iter().map(sys).collect::<Vec<_>>().join(" ")
    )?;
    for (i, row) in cmp.p_values.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, p)| {
                if i == j {
                    return "-".to_string();
                }
                let stars = match p {
                    Some(p) if *p < 0.001 => "***",
                    Some(p) if *p < 0.01 => "**",
                    Some(p) if *p < 0.05 => "*",
                    _ => "",
                };
                format!(
                    "{}{stars}",
                    r_number(round_to(cmp.mean_z[i] - cmp.mean_z[j], 2), 7)
                )
            })
            .collect();
        writeln!(w, "{} {}  ", sys(&cmp.systems[i]), cells.join(" "))?;
    }
    Ok(())
}

/// `clusters.csv`: `SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM`, one
/// block per language pair (named `src-trg`; split at the first `-`).
pub fn write_clusters_csv<'a>(
    mut w: impl Write,
    names: &Names,
    comparisons: impl IntoIterator<Item = (u16, &'a Comparison)>,
) -> io::Result<()> {
    writeln!(
        w,
        "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM"
    )?;
    for (pair, cmp) in comparisons {
        let pair = &names.lang_pairs[pair as usize];
        let (src, trg) = pair.split_once('-').unwrap_or((pair.as_str(), ""));
        for (i, r) in cmp.ranks.iter().enumerate() {
            let c = &cmp.clusters[r.cluster];
            writeln!(
                w,
                "{src} {trg} {} {} {} {} {} {}",
                r.wins,
                cmp.systems.len(),
                c.start,
                c.end,
                if i + 1 == c.end { "True" } else { "False" },
                names.systems[r.system as usize]
            )?;
        }
    }
    Ok(())
}

/// The whole result as pretty-printed JSON.
pub fn write_json(w: impl Write, result: &AnalysisResult) -> io::Result<()> {
    serde_json::to_writer_pretty(w, result).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_number_matches_published_files() {
        // From wmt22 adwilcox-csen.csv and ad-sys-scores-cs-en.csv.
        assert_eq!(r_number(0.0165819538231206, 15), "0.0165819538231206");
        assert_eq!(r_number(0.000242040654183865, 15), "0.000242040654183865");
        assert_eq!(r_number(6.22809962025843e-05, 15), "6.22809962025843e-05");
        assert_eq!(r_number(1.03341462986055e-47, 15), "1.03341462986055e-47");
        assert_eq!(r_number(75.2635379061372, 15), "75.2635379061372");
        assert_eq!(r_number(-0.00390300467990136, 15), "-0.00390300467990136");
        assert_eq!(r_number(0.12, 15), "0.12");
        assert_eq!(r_number(1385.0, 15), "1385");
        assert_eq!(r_number(-0.1, 7), "-0.1");
        assert_eq!(r_number(-0.0, 7), "0");
        assert_eq!(r_number(round_to(-0.004, 2), 7), "0");
        assert_eq!(r_number(f64::NAN, 7), "NaN");
        assert_eq!(r_number(1e15, 15), "1e+15");
        assert_eq!(r_number(123456.0, 15), "123456");
    }

    #[test]
    fn csv_splitting() {
        let mut f = Vec::new();
        split_csv(r#"a,"b,c",,"say ""hi""""#, &mut f).unwrap();
        assert_eq!(f, vec!["a", "b,c", "", "say \"hi\""]);
        assert!(split_csv(r#"a,"b"#, &mut f).is_err());
    }

    #[test]
    fn graham_reader_and_errors() {
        let text = "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time\n\
                    H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\t1503.0\n\
                    H1\tW1\tlv\ten\tad\t13\tSysA\t1003222\tBAD_REF\t121\t12.5\t1503.0\n";
        let set = read_graham_tsv(text.as_bytes()).unwrap();
        assert_eq!(set.records.len(), 2);
        assert_eq!(set.lang_pairs.name(0), "lv-en");
        assert_eq!(set.tasks.name(0), "ad");
        assert_eq!(set.records[1].item_type, ItemType::BadRef);
        assert_eq!(set.records[1].score, 12.5);
        assert_eq!(set.records[0].seconds, 1503.0);

        let bad = text.replace("12.5", "twelve");
        assert_eq!(
            read_graham_tsv(bad.as_bytes()).unwrap_err().to_string(),
            "line 3: score is not a number: \"twelve\""
        );
        let bad = text.replace("BAD_REF", "BADREF");
        assert!(
            read_graham_tsv(bad.as_bytes())
                .unwrap_err()
                .to_string()
                .starts_with("line 3: unknown item type \"BADREF\"")
        );
        let bad = text.replace("\t1503.0\n", "\n");
        assert_eq!(
            read_graham_tsv(bad.as_bytes()).unwrap_err().to_string(),
            "line 2: expected 12 tab-separated fields, found 11"
        );
        let bad = text.replace("sid", "seg");
        assert!(
            read_graham_tsv(bad.as_bytes())
                .unwrap_err()
                .to_string()
                .starts_with("line 1: the header lacks column \"sid\"")
        );
        assert_eq!(read_graham_tsv("".as_bytes()).unwrap_err().line, 1);
    }

    /// Reading in chunks on several threads gives exactly the sequential result: the same
    /// records and the same ids in order of first appearance; an error in a late chunk names
    /// its line in the whole file.
    #[test]
    fn graham_reader_in_chunks_equals_one_pass() {
        let config = crate::simulate::CrowdConfig { segments: 60, ..Default::default() };
        let mut file = Vec::new();
        crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
        // Blank lines and CRLF endings in the middle must not move line numbers.
        let mut text = String::from_utf8(file).unwrap().replacen("\n", "\r\n", 40);
        let cut = text.len() / 3;
        let at = cut + text[cut..].find('\n').unwrap() + 1;
        text.insert_str(at, "\n  \n");
        let one = read_graham_bytes(text.as_bytes(), 1, usize::MAX).unwrap();
        assert!(one.records.len() > 1000, "{}", one.records.len());
        let names = |s: &JudgmentSet| {
            [&s.workers, &s.hits, &s.systems, &s.segments, &s.lang_pairs, &s.tasks].map(|i| i.names().to_vec())
        };
        for threads in [2, 3, 7] {
            let many = read_graham_bytes(text.as_bytes(), threads, 0).unwrap();
            assert_eq!(names(&many), names(&one), "{threads} threads");
            assert!(many.records == one.records, "{threads} threads: records differ");
        }
        // Break a row near the end: the line number counts every line before it.
        let lines: Vec<&str> = text.split('\n').collect();
        let target = lines.len() - 5;
        let mut broken: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        broken[target] = broken[target].replacen("\t", "\tx\t", 1);
        let broken = broken.join("\n");
        let expected = read_graham_bytes(broken.as_bytes(), 1, usize::MAX).unwrap_err();
        assert_eq!(expected.line, target + 1);
        for threads in [2, 3, 7] {
            assert_eq!(read_graham_bytes(broken.as_bytes(), threads, 0).unwrap_err(), expected);
        }
        // Invalid UTF-8 on a later line, found by whichever chunk holds it.
        let mut bytes = text.clone().into_bytes();
        let pos = bytes.len() - 10;
        bytes[pos] = 0xff;
        let e1 = read_graham_bytes(&bytes, 1, usize::MAX).unwrap_err();
        assert_eq!(read_graham_bytes(&bytes, 3, 0).unwrap_err(), e1);
        assert!(e1.message.contains("UTF-8"), "{e1}");
    }

    #[test]
    fn appraise_reader_with_and_without_header() {
        let rows = "engdeu0a0f,sysA,12,TGT,eng,deu,67,1666000000.5,1666000010.5\n\
                    engdeu0a0f,sysA,12,BAD,eng,deu,20,1666000020,1666000031\n";
        let header = "username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd\n";
        for text in [rows.to_string(), format!("{header}{rows}")] {
            let set = read_appraise_csv(text.as_bytes(), "da").unwrap();
            assert_eq!(set.records.len(), 2);
            assert_eq!(set.records[0].seconds, 10.0);
            assert_eq!(set.records[1].item_type, ItemType::BadRef);
            assert_eq!(set.lang_pairs.name(0), "eng-deu");
            assert_eq!(set.time_basis, TimeBasis::PerItem);
        }
        let doc = format!("{header}u,s,1,TGT,eng,deu,50,doc1,False,1,2\n");
        assert_eq!(
            read_appraise_csv(doc.as_bytes(), "da")
                .unwrap_err()
                .to_string(),
            "line 2: a document-level row (11 fields): only segment-level rows (9 fields) are read"
        );
        let backwards = "u,s,1,TGT,eng,deu,50,10,5\n";
        assert_eq!(
            read_appraise_csv(backwards.as_bytes(), "da")
                .unwrap_err()
                .line,
            1
        );
        let short = format!("{rows}u,s,1,TGT,eng,deu,50\n");
        assert!(
            read_appraise_csv(short.as_bytes(), "da")
                .unwrap_err()
                .to_string()
                .starts_with("line 3: expected 9")
        );
    }

    #[test]
    fn assay_reader_skips_skipped_judgments_and_names_bad_lines() {
        let csv = "judgment_id,campaign_id,task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,skipped,seconds,worker_verdict\n\
                   1,4,da-adequacy,de,en,0,\"link:a,b\",SYSTEM,SysA,s1,70.5,0,3.5,pass\n\
                   2,4,da-adequacy,de,en,0,\"link:a,b\",REF,SysA,s2,,1,1,pass\n\
                   3,4,da-adequacy,de,en,0,mturk:W,BAD_REF,SysA,s1,20,0,2.25,fail\n";
        let set = read_assay_csv(csv.as_bytes()).unwrap();
        assert_eq!(set.records.len(), 2);
        assert_eq!(set.workers.names(), ["link:a,b", "mturk:W"]);
        assert_eq!((set.records[0].score, set.records[0].seconds), (70.5, 3.5));
        assert_eq!(set.records[1].item_type, ItemType::BadRef);
        assert_eq!((set.lang_pairs.name(0), set.tasks.name(0), set.hits.name(0)), ("de-en", "da-adequacy", "0"));
        let bad = csv.replace("20,0,2.25", "x,0,2.25");
        assert_eq!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string(), "line 4: score is not a number: \"x\"");
        let bad = csv.replace("segment,", "seg,");
        assert!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string().starts_with("line 1: the header lacks column \"segment\""));

        let jsonl = r#"{"task":"da","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"REPEAT","system":"S","segment":"7","score":55.0,"skipped":false,"seconds":1.5}
{"task":"da","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"SYSTEM","system":"S","segment":"7","score":null,"skipped":true,"seconds":0}
"#;
        let set = read_assay_jsonl(jsonl.as_bytes()).unwrap();
        assert_eq!(set.records.len(), 1);
        assert_eq!((set.records[0].item_type, set.records[0].score, set.hits.name(0)), (ItemType::Repeat, 55.0, "3"));
        let bad = jsonl.replace("\"segment\":\"7\",", "");
        assert_eq!(read_assay_jsonl(bad.as_bytes()).unwrap_err().to_string(), "line 1: the object lacks the key \"segment\"");
    }
}
