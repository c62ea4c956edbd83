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

/// [`read_graham_tsv`] on a file, without holding the file in memory: every core reads its
/// share of the rows in blocks of a megabyte and parses each block as it arrives (a part owns
/// the lines that start in it). Small files, and a file that changes while it is read, are
/// read whole as [`read_graham_tsv`] does.
pub fn read_graham_file(path: &std::path::Path) -> Result<JudgmentSet, FormatError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    read_graham_file_in(path, threads, 4 << 20, 1 << 20)
}

/// [`read_graham_file`] in `threads` parts when the file has at least `parallel_from` bytes,
/// reading blocks of `block` bytes.
fn read_graham_file_in(path: &std::path::Path, threads: usize, parallel_from: usize, block: usize) -> Result<JudgmentSet, FormatError> {
    let cannot = |e: io::Error| err(1, format!("cannot read {}: {e}", path.display()));
    let whole = || {
        let mut data = Vec::new();
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut data)).map_err(cannot)?;
        read_graham_bytes(&data, threads, parallel_from)
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let len = usize::try_from(file.metadata().map_err(cannot)?.len()).unwrap_or(usize::MAX);
    if len < parallel_from.max(1) || threads < 2 {
        return whole();
    }
    match read_file_in_parts(&file, len, threads, block) {
        Ok(Some(result)) => result,
        Ok(None) => whole(),
        Err(e) => Err(cannot(e)),
    }
}

/// [`read_graham_file`] in parts; `None` when the header is not within the first megabyte,
/// or the file no longer has `len` bytes.
#[cfg(unix)]
fn read_file_in_parts(file: &std::fs::File, len: usize, threads: usize, block: usize) -> io::Result<Option<Result<JudgmentSet, FormatError>>> {
    use std::os::unix::fs::FileExt;
    let mut head = vec![0u8; len.min(1 << 20)];
    file.read_exact_at(&mut head, 0)?;
    let (layout, body_start, header_lines) = match graham_header(&head) {
        Ok((_, pos, _)) if pos >= head.len() => return Ok(None),
        Ok(found) => found,
        Err(_) => return Ok(None),
    };
    let room = room_for_rows(&head[body_start..]);
    let body = len - body_start;
    let bounds: Vec<usize> = (0..=threads).map(|k| body_start + body * k / threads).collect();
    let parts: Vec<io::Result<Option<Result<(JudgmentSet, usize), FormatError>>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .enumerate()
            .map(|(k, w)| {
                let (from, to, layout) = (w[0], w[1], &layout);
                let capacity = room(if k == 0 { body } else { to - from });
                let part = FilePart { from, to, len, partial_first: k > 0, block };
                scope.spawn(move || parse_file_part(file, part, layout, capacity))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a reader thread panicked")).collect()
    });
    let mut parsed = Vec::with_capacity(parts.len());
    for part in parts {
        match part? {
            Some(p) => parsed.push(p),
            None => return Ok(None),
        }
    }
    // Grown since its size was taken?
    if file.read_at(&mut [0u8; 1], len as u64)? != 0 {
        return Ok(None);
    }
    Ok(Some(merge_parts(parsed, header_lines)))
}

#[cfg(not(unix))]
fn read_file_in_parts(_: &std::fs::File, _: usize, _: usize, _: usize) -> io::Result<Option<Result<JudgmentSet, FormatError>>> {
    Ok(None)
}

/// One part of a file read by [`parse_file_part`].
#[derive(Clone, Copy)]
struct FilePart {
    from: usize,
    to: usize,
    len: usize,
    partial_first: bool,
    block: usize,
}

/// The lines that start in bytes `from..to` of a file of `len` bytes (the last one read to
/// its end, past `to` if need be), parsed block by block; with `partial_first`, the line
/// that `from` falls inside belongs to the part before. `None` when the file is shorter
/// than `len`.
#[cfg(unix)]
fn parse_file_part(
    file: &std::fs::File,
    part: FilePart,
    layout: &GrahamLayout,
    capacity: usize,
) -> io::Result<Option<Result<(JudgmentSet, usize), FormatError>>> {
    use std::os::unix::fs::FileExt;
    let FilePart { from, to, len, partial_first, block } = part;
    let mut parser = ChunkParser::new(layout, capacity);
    let mut buf: Vec<u8> = Vec::with_capacity(2 * block);
    // The file offset of buf[0], the next offset to read, and whether buf starts at a line.
    let mut buf_at = if partial_first { from - 1 } else { from };
    let mut next = buf_at;
    let mut at_line = !partial_first;
    loop {
        let want = block.min(len - next);
        let old = buf.len();
        buf.resize(old + want, 0);
        match file.read_exact_at(&mut buf[old..], next as u64) {
            Ok(()) => next += want,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        let end_of_file = next == len;
        if !at_line {
            // Skip to the end of the line the part boundary falls inside.
            match memchr::memchr(b'\n', &buf) {
                Some(i) => {
                    buf.drain(..=i);
                    buf_at += i + 1;
                    at_line = true;
                }
                None if end_of_file => break,
                None => {
                    buf_at += buf.len();
                    buf.clear();
                    continue;
                }
            }
        }
        if buf_at >= to {
            break;
        }
        // The part's last line ends at the first newline at or after `to - 1`.
        let last = to - 1 - buf_at;
        let own_end = buf.get(last..).and_then(|rest| memchr::memchr(b'\n', rest)).map(|i| last + i + 1);
        let (cut, done) = match own_end {
            Some(end) => (end, true),
            None if end_of_file => (buf.len(), true),
            None => (memchr::memrchr(b'\n', &buf).map_or(0, |i| i + 1), false),
        };
        if let Err(e) = parser.feed(&buf[..cut]) {
            return Ok(Some(Err(e)));
        }
        if done {
            break;
        }
        buf.drain(..cut);
        buf_at += cut;
    }
    Ok(Some(Ok(parser.finish())))
}

/// The end of the line starting at `from` (the index of its `\n`, or the end of the data).
fn line_end(data: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &data[from..]).map_or(data.len(), |i| from + i)
}

/// [`read_graham_tsv`] on bytes, in at most `threads` chunks; a body shorter than
/// `parallel_from` bytes is one chunk.
fn read_graham_bytes(data: &[u8], threads: usize, parallel_from: usize) -> Result<JudgmentSet, FormatError> {
    let (layout, pos, header_lines) = graham_header(data)?;
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
    let room = room_for_rows(body);
    let parsed: Vec<Result<(JudgmentSet, usize), FormatError>> = if pieces.len() == 1 {
        vec![parse_graham_chunk(pieces[0], &layout, room(body.len()))]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = pieces
                .iter()
                .enumerate()
                .map(|(k, piece)| {
                    let capacity = room(if k == 0 { body.len() } else { piece.len() });
                    let layout = &layout;
                    scope.spawn(move || parse_graham_chunk(piece, layout, capacity))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a reader thread panicked")).collect()
        })
    };
    merge_parts(parsed, header_lines)
}

/// The header (the first non-blank line) of a Graham file: the column layout, where the
/// rows start, and the number of lines up to the header.
fn graham_header(data: &[u8]) -> Result<(GrahamLayout, usize, usize), FormatError> {
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
    Ok((GrahamLayout { cols, width: names.len() }, pos, line_no))
}

/// How many records to make room for in a number of bytes of rows, from the rows per byte of
/// the first megabyte (plus 5%): the first part's records get room for the whole file's, so
/// that the other parts are appended without moving them.
fn room_for_rows(rows: &[u8]) -> impl Fn(usize) -> usize {
    let sample = &rows[..rows.len().min(1 << 20)];
    let rows_per_byte = (memchr::memchr_iter(b'\n', sample).count() + 1) as f64 / sample.len().max(1) as f64;
    move |bytes: usize| (bytes as f64 * rows_per_byte * 1.05) as usize + 1024
}

/// Joins the parts parsed in file order; an error's line is local to its part until offset
/// here by the lines before the part.
fn merge_parts(parsed: Vec<Result<(JudgmentSet, usize), FormatError>>, header_lines: usize) -> Result<JudgmentSet, FormatError> {
    let mut lines_before = header_lines;
    let mut merged: Option<JudgmentSet> = None;
    for result in parsed {
        match result {
            Err(e) => return Err(err(lines_before + e.line, e.message)),
            Ok((part, newlines)) => {
                match merged.as_mut() {
                    None => merged = Some(part),
                    Some(set) => set.append(part),
                }
                lines_before += newlines;
            }
        }
    }
    Ok(merged.unwrap_or_else(|| JudgmentSet::new(TimeBasis::PerHit)))
}

/// Where the Graham columns are in the header, and how many fields a row has.
struct GrahamLayout {
    cols: [usize; 12],
    width: usize,
}

/// Parses rows (no header); line numbers in errors count from 1 at the chunk's first line.
fn parse_graham_chunk(chunk: &[u8], layout: &GrahamLayout, capacity: usize) -> Result<(JudgmentSet, usize), FormatError> {
    let mut parser = ChunkParser::new(layout, capacity);
    parser.feed(chunk)?;
    Ok(parser.finish())
}

/// Parses rows (no header) fed to it in pieces that end at line ends, into one set; line
/// numbers in errors count from 1 at the first piece's first line.
struct ChunkParser<'l> {
    layout: &'l GrahamLayout,
    set: JudgmentSet,
    systems: ShortNames,
    segments: ShortNames,
    /// Newlines in the pieces parsed so far.
    newlines: usize,
}

impl<'l> ChunkParser<'l> {
    fn new(layout: &'l GrahamLayout, capacity: usize) -> Self {
        let mut set = JudgmentSet::new(TimeBasis::PerHit);
        set.records.reserve(capacity);
        ChunkParser { layout, set, systems: ShortNames::default(), segments: ShortNames::default(), newlines: 0 }
    }

    /// Parses one piece. It is checked as UTF-8 once; if it is not, the rows before the bad
    /// line are still parsed first, so the first error in the file is the one reported.
    fn feed(&mut self, piece: &[u8]) -> Result<(), FormatError> {
        match std::str::from_utf8(piece) {
            Ok(text) => self.rows(text),
            Err(e) => {
                let bad_line_start = memchr::memrchr(b'\n', &piece[..e.valid_up_to()]).map_or(0, |i| i + 1);
                let before = std::str::from_utf8(&piece[..bad_line_start]).expect("valid up to here");
                self.rows(before)?;
                Err(err(self.newlines + 1, "the line is not valid UTF-8"))
            }
        }
    }

    /// The records and the number of newlines parsed.
    fn finish(self) -> (JudgmentSet, usize) {
        (self.set, self.newlines)
    }

    /// Parses text known to be UTF-8: one vectorised pass finds every tab and newline
    /// (no per-line search set-up).
    fn rows(&mut self, text: &str) -> Result<(), FormatError> {
        let (cols, width) = (&self.layout.cols, self.layout.width);
        let ChunkParser { set, systems, segments, newlines: total, .. } = self;
    // Field bounds of the current line (the first 32; more are only counted).
    let mut bounds = [(0usize, 0usize); 32];
    let mut fields = 0usize;
    // The previous row's worker, HIT and (src, trg, item) with their ids.
    let mut last_worker: (&str, u32) = ("", u32::MAX);
    let mut last_hit: (&str, u32) = ("", u32::MAX);
    let mut last_group: Option<(&str, &str, &str, u16, u16)> = None;
    let mut n = *total;
    let mut newlines = 0usize;
    let mut line_start = 0usize;
    let mut field_start = 0usize;
    let bytes = text.as_bytes();
    // Every separator, then a virtual newline at the end for a last line without one.
    let mut separators = Separators::new(bytes);
    let mut tail = !text.is_empty() && !text.ends_with('\n');
    loop {
        let (at, newline) = match separators.next() {
            Some(found) => found,
            None if tail => {
                tail = false;
                (text.len(), true)
            }
            None => break,
        };
        if fields < bounds.len() {
            bounds[fields] = (field_start, at);
        }
        fields += 1;
        field_start = at + 1;
        if !newline {
            continue;
        }
        // The end of a line.
        n += 1;
        newlines += usize::from(at < bytes.len());
        let line = &text[line_start..at];
        line_start = at + 1;
        if line.trim_ascii().is_empty() {
            fields = 0;
            continue;
        }
        if fields == 1 {
            // A line without tabs is split on whitespace.
            fields = 0;
            let base = text.as_ptr() as usize;
            for w in line.split_whitespace() {
                let s = w.as_ptr() as usize - base;
                if fields < bounds.len() {
                    bounds[fields] = (s, s + w.len());
                }
                fields += 1;
            }
        }
        if fields != width {
            return Err(err(n, format!("expected {width} tab-separated fields, found {fields}")));
        }
        fields = 0;
        let f = |k: usize| {
            let (a, b) = bounds[cols[k]];
            text[a..b].trim_ascii()
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
                let tk = u16::try_from(set.tasks.intern(item, Scale::Continuous)).map_err(|_| err(n, "more than 65,535 tasks"))?;
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
            system: systems.intern(&mut set.systems, f(6)),
            segment: segments.intern(&mut set.segments, f(9)),
            lang_pair,
            task,
            item_type,
            score,
            seconds: seconds as f32,
        };
        set.records.push(record);
    }
    *total += newlines;
    Ok(())
}
}

/// The positions of the tabs and newlines of a text, found eight bytes at a time: an exact
/// zero-byte test on `word ^ separator` marks them, and the marks are read lowest first.
/// (Rows have a separator every few bytes, too often for a per-match search to pay off.)
struct Separators<'a> {
    bytes: &'a [u8],
    /// Where the word of `marks` starts, and where the next word starts.
    word: usize,
    next: usize,
    /// Bit 7 of each byte of the word that is a separator, and of each that is a newline.
    marks: u64,
    newlines: u64,
}

impl<'a> Separators<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Separators { bytes, word: 0, next: 0, marks: 0, newlines: 0 }
    }
}

impl Iterator for Separators<'_> {
    /// The position, and whether it is a newline (else a tab).
    type Item = (usize, bool);

    fn next(&mut self) -> Option<(usize, bool)> {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const TABS: u64 = 0x0909_0909_0909_0909;
        const NEWLINES: u64 = 0x0a0a_0a0a_0a0a_0a0a;
        // High bit set in exactly the bytes of x that are zero.
        let zero_bytes = |x: u64| !(((x & LOW7) + LOW7) | x | LOW7);
        while self.marks == 0 {
            if self.next >= self.bytes.len() {
                return None;
            }
            let word = match self.bytes.get(self.next..self.next + 8) {
                Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight bytes")),
                None => {
                    // The last bytes, padded with zeros (neither a tab nor a newline).
                    let mut padded = [0u8; 8];
                    let tail = &self.bytes[self.next..];
                    padded[..tail.len()].copy_from_slice(tail);
                    u64::from_le_bytes(padded)
                }
            };
            self.word = self.next;
            self.next += 8;
            self.newlines = zero_bytes(word ^ NEWLINES);
            self.marks = zero_bytes(word ^ TABS) | self.newlines;
        }
        let bit = self.marks.trailing_zeros();
        self.marks &= self.marks - 1;
        Some((self.word + bit as usize / 8, (self.newlines >> bit) & 1 == 1))
    }
}

/// Interns names of up to 15 bytes through a map keyed by the bytes themselves packed into
/// a `u128` with their length (an integer hash and compare instead of a string's); longer
/// names go to the interner directly. Ids are the interner's, in order of first appearance.
#[derive(Default)]
struct ShortNames {
    ids: super::FxMap<u128, u32>,
}

impl ShortNames {
    fn intern(&mut self, interner: &mut super::Interner, name: &str) -> u32 {
        let bytes = name.as_bytes();
        if bytes.len() > 15 {
            return interner.intern(name);
        }
        let mut key = [0u8; 16];
        key[..bytes.len()].copy_from_slice(bytes);
        key[15] = bytes.len() as u8;
        *self.ids.entry(u128::from_le_bytes(key)).or_insert_with(|| interner.intern(name))
    }
}

/// The records of a CSV file as the `csv` crate reads them (RFC 4180: a quoted field may hold
/// commas, quotes and line breaks, so a record may span lines), each with the 1-based line it
/// starts on (as the crate counts: empty lines just before it count as its first); blank lines
/// are skipped, a UTF-8 byte-order mark at the start too. Every CSV reader
/// of Assay's and the field's files goes through it.
pub(crate) struct CsvRows<R: Read> {
    reader: csv::Reader<R>,
    /// The last record read.
    pub(crate) record: csv::StringRecord,
}

pub(crate) fn csv_rows<R: Read>(input: R) -> CsvRows<R> {
    CsvRows { reader: csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input), record: csv::StringRecord::new() }
}

impl<R: Read> CsvRows<R> {
    /// Reads the next record that is not blank into `record`: the line it starts on, `None` at
    /// the end of the input.
    pub(crate) fn next_record(&mut self) -> Result<Option<usize>, FormatError> {
        loop {
            match self.reader.read_record(&mut self.record) {
                Ok(false) => return Ok(None),
                Ok(true) if self.record.len() == 1 && self.record[0].trim().is_empty() => continue,
                Ok(true) => return Ok(Some(self.record.position().map_or(1, |p| p.line() as usize))),
                Err(e) => {
                    let line = e.position().map_or_else(|| self.record.position().map_or(1, |p| p.line() as usize), |p| p.line() as usize);
                    return Err(match e.kind() {
                        csv::ErrorKind::Utf8 { err: utf8, .. } => err(line, format!("field {} is not valid UTF-8", utf8.field() + 1)),
                        csv::ErrorKind::Io(io) => err(line, format!("cannot read: {io}")),
                        _ => err(line, e.to_string()),
                    });
                }
            }
        }
    }

    /// The error for a record of `found` fields where `expected` belong: a field holding a line
    /// break then most likely opens a quote that is never closed (the rest of the file is in it).
    /// `names`: the fields', shown in parentheses when not empty.
    pub(crate) fn wrong_width(&self, line: usize, expected: usize, names: &str, found: usize) -> FormatError {
        let hint = if self.record.iter().any(|f| f.contains(['\n', '\r'])) { " (a quoted field holding a line break: is a quote not closed?)" } else { "" };
        let names = if names.is_empty() { String::new() } else { format!(" ({names})") };
        err(line, format!("expected {expected} comma-separated fields{names}, found {found}{hint}"))
    }
}

/// The fields of the first record of CSV text that is not blank (it may span lines), as the
/// readers read it; `None` when there is none or it is not valid.
pub fn csv_first_record(text: &str) -> Option<Vec<String>> {
    let mut rows = csv_rows(text.as_bytes());
    rows.next_record().ok().flatten()?;
    Some(rows.record.iter().map(String::from).collect())
}

/// A text field of a CSV file Assay wrote, as it was before [`csv_text`] guarded it against
/// spreadsheets: the one `'` put before a text that starts like a formula taken off again (the
/// guard is put before exactly those texts and those with `'`s before such a start, so the two
/// are inverse: `csv_untext(csv_text(s)) == s` once read as CSV).
pub fn csv_untext(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if looks_like_formula(rest) => rest,
        _ => s,
    }
}

/// Whether a spreadsheet could run `s` as a formula once its leading `'`s are taken off: it
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return.
fn looks_like_formula(s: &str) -> bool {
    matches!(s.trim_start_matches('\'').as_bytes().first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'))
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
/// belong to campaign task `task`. Text fields are read as Assay writes them ([`csv_untext`]).
pub fn read_appraise_csv(input: impl Read, task: &str) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut rows = csv_rows(input);
    let mut first = true;
    while let Some(n) = rows.next_record()? {
        let f = &rows.record;
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
            k => return Err(rows.wrong_width(n, 9, &APPRAISE_COLUMNS.join(","), k)),
        }
        let item_type = parse_item_type(n, f[3].trim())?;
        let score = parse_number(n, "score", &f[6])?;
        let start = parse_number(n, "timeStart", &f[7])?;
        let end = parse_number(n, "timeEnd", &f[8])?;
        if end < start {
            return Err(err(n, format!("timeEnd {end} is before timeStart {start}")));
        }
        let pair = format!("{}-{}", f[4].trim(), f[5].trim());
        let user = csv_untext(&f[0]);
        set.push(
            JudgmentNames {
                worker: user,
                hit: user,
                system: csv_untext(&f[1]),
                segment: csv_untext(&f[2]),
                lang_pair: &pair,
                task,
                // Appraise's segment-level file holds DA scores.
                scale: Scale::Continuous,
            },
            item_type,
            score,
            (end - start) as f32,
        );
    }
    Ok(set)
}

/// The columns of Assay's own judgment export (`judgments.csv` / `judgments.jsonl`, see
/// `export::rows`) that the analysis reads; the others are ignored (`score2` and `seconds` are
/// read when present).
const ASSAY_COLUMNS: [&str; 10] = ["task", "src_lang", "trg_lang", "hit", "worker", "item_type", "system", "segment", "score", "skipped"];

/// One row of an Assay judgment file: a record per question of its campaign task's protocol
/// that the answer answers (word order: `word-order-q1` from `score`, `word-order-q2` from
/// `score2`), as the analysis reads a campaign, each on its question's agreement scale.
fn assay_record(
    set: &mut JudgmentSet,
    n: usize,
    get: &dyn Fn(usize) -> Option<String>,
    score2: Option<String>,
    seconds: Option<String>,
) -> Result<(), FormatError> {
    let skipped = matches!(get(9).as_deref().map(str::trim), Some("1" | "true"));
    let number = |what: &str, v: Option<String>| -> Result<Option<f64>, FormatError> {
        match v.as_deref().map(str::trim) {
            None | Some("" | "null") => Ok(None),
            Some(v) => parse_number(n, what, v).map(Some),
        }
    };
    if skipped {
        return Ok(());
    }
    let Some(score) = number("score", get(8))? else { return Ok(()) };
    let score2 = number("score2", score2)?;
    let type_text = get(5).unwrap_or_default();
    if type_text.trim().eq_ignore_ascii_case("GOLD") {
        // An output of a gold block (relative ranking): quality control in no score or ranking.
        return Ok(());
    }
    let item_type = parse_item_type(n, type_text.trim())?;
    let seconds = match seconds.as_deref().map(str::trim) {
        None | Some("") | Some("null") => 0.0,
        Some(t) => parse_number(n, "seconds", t)?,
    };
    // Names exactly as written (a name may begin or end with a space or a line break).
    let field = |k: usize| get(k).unwrap_or_default();
    let pair = format!("{}-{}", field(1), field(2));
    let (task, hit, worker, system, segment) = (field(0), field(3), field(4), field(6), field(7));
    if worker.trim().is_empty() || system.trim().is_empty() || segment.trim().is_empty() {
        return Err(err(n, "worker, system and segment must not be empty"));
    }
    let kind = crate::model::TaskKind::parse(&task)
        .ok_or_else(|| err(n, format!("task {task:?} is not a campaign task (an Assay judgment file names its campaign's task: {})", crate::model::TaskKind::ALL.map(crate::model::TaskKind::as_str).join(", "))))?;
    let answer = crate::protocol::Answer { score: Some(score), score2, ..Default::default() };
    for q in crate::protocol::for_task(kind).questions() {
        let Some(value) = (q.read)(&answer) else { continue };
        let names = JudgmentNames { worker: &worker, hit: &hit, system: &system, segment: &segment, lang_pair: &pair, task: q.task_name(kind), scale: q.scale };
        set.push(names, item_type, value, seconds as f32);
    }
    Ok(())
}

/// Reads Assay's own judgment CSV (`judgments.csv`, raw or cleaned): a header naming the
/// columns, then one judgment per record (a quoted text may hold line breaks: records are read
/// with the `csv` crate, texts exactly as written, [`csv_untext`]); skipped judgments are left
/// out, as when the analysis reads the database; outputs of gold blocks (`GOLD`) too. Seconds
/// per item ([`TimeBasis::PerItem`]) from `seconds`.
pub fn read_assay_csv(input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut rows = csv_rows(input);
    let mut columns: Option<([usize; 10], Option<usize>, Option<usize>, usize)> = None;
    while let Some(n) = rows.next_record()? {
        let f = &rows.record;
        let Some((cols, score2, seconds, width)) = columns else {
            let mut idx = [0usize; 10];
            for (k, want) in ASSAY_COLUMNS.iter().enumerate() {
                idx[k] = f.iter().position(|h| h.trim() == *want).ok_or_else(|| {
                    err(n, format!("the header lacks column {want:?} (an Assay judgments.csv has {})", ASSAY_COLUMNS.join(",")))
                })?;
            }
            let optional = |name: &str| f.iter().position(|h| h.trim() == name);
            columns = Some((idx, optional("score2"), optional("seconds"), f.len()));
            continue;
        };
        if f.len() != width {
            return Err(rows.wrong_width(n, width, "", f.len()));
        }
        let get = |k: usize| Some(csv_untext(&f[cols[k]]).to_string());
        assay_record(&mut set, n, &get, score2.map(|k| f[k].to_string()), seconds.map(|k| f[k].to_string()))?;
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
        assay_record(&mut set, n, &get, obj.get("score2").map(text), obj.get("seconds").map(text))?;
    }
    Ok(set)
}

/// A text field of every CSV file Assay writes: quoted when it holds a comma, a quote or a line
/// break (RFC 4180, as the `csv` crate quotes: it reads the field back exactly), and, when a
/// spreadsheet would run it as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return: worker ids come from crowd links anyone can write, system names and segment ids from
/// imported files), led by a `'`; so is a text whose leading `'`s come before such a start, so that
/// the readers can take the guard off again ([`csv_untext`]). Numbers are not text fields: a
/// negative score is written as it is.
pub fn csv_text(s: &str) -> std::borrow::Cow<'_, str> {
    // Most text needs neither: one pass over its bytes (the judgment files' hot loop).
    let formula = matches!(s.as_bytes().first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r' | b'\'')) && looks_like_formula(s);
    if !formula && !s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        return s.into();
    }
    let guarded: std::borrow::Cow<'_, str> = if formula { format!("'{s}").into() } else { s.into() };
    if guarded.contains([',', '"', '\n', '\r']) { format!("\"{}\"", guarded.replace('"', "\"\"")).into() } else { guarded }
}

/// [`csv_text`]'s guard alone, for a writer that quotes by itself (the `csv` crate's): `s` led by
/// a `'` when a spreadsheet could run it as a formula.
pub fn spreadsheet_guard(s: &str) -> std::borrow::Cow<'_, str> {
    if looks_like_formula(s) { format!("'{s}").into() } else { s.into() }
}

/// `v` appended to `out` exactly as `write!(out, "{v}")` writes it (Rust's `Display`: the
/// shortest digits that read back as `v`, never in exponent form; `-0`, `NaN`, `inf`), at a
/// fraction of its cost: whole numbers through `itoa`, others from `zmij`'s shortest digits laid
/// out again. The judgment files write up to four numbers a line, a million lines.
pub fn write_display_f64(out: &mut String, v: f64) {
    if !v.is_finite() {
        use std::fmt::Write as _;
        let _ = write!(out, "{v}");
        return;
    }
    // Whole numbers below 2^53 print as their integer ("69", not "69.0"); -0.0 keeps its sign.
    if v == v.trunc() && v.abs() < 9_007_199_254_740_992.0 {
        if v == 0.0 && v.is_sign_negative() {
            out.push('-');
        }
        out.push_str(itoa::Buffer::new().format(v as i64));
        return;
    }
    // Two shortest forms equally near `v` are broken differently (`Display` rounds half up,
    // zmij to even), and a shorter form on the edge of `v`'s interval is taken or not. Either
    // needs `v`'s exact decimal expansion to have at most 18 digits: such numbers (and larger
    // whole ones) go through `Display`.
    if v.abs() >= 9_007_199_254_740_992.0 || short_exact_expansion(v) {
        use std::fmt::Write as _;
        let _ = write!(out, "{v}");
        return;
    }
    let mut buffer = zmij::Buffer::new();
    let printed = buffer.format_finite(v);
    let (negative, printed) = match printed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, printed),
    };
    let (mantissa, exponent) = match printed.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
        None => (printed, 0),
    };
    // The significant digits (at most 17) and where the decimal point falls among them.
    let mut digits = [0u8; 40];
    let (mut n, mut point) = (0usize, None);
    for b in mantissa.bytes() {
        match b {
            b'.' => point = Some(n),
            b'0'..=b'9' if n < digits.len() => {
                digits[n] = b;
                n += 1;
            }
            _ => {}
        }
    }
    let mut point = point.unwrap_or(n) as i32 + exponent;
    let lead = digits[..n].iter().take_while(|&&d| d == b'0').count();
    point -= lead as i32;
    let mut significant = &digits[lead..n];
    while let [rest @ .., b'0'] = significant {
        significant = rest;
    }
    if negative {
        out.push('-');
    }
    // ASCII digits.
    fn text(d: &[u8]) -> &str {
        std::str::from_utf8(d).unwrap_or_default()
    }
    if significant.is_empty() {
        out.push('0');
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(text(significant));
    } else if point as usize >= significant.len() {
        out.push_str(text(significant));
        out.extend(std::iter::repeat_n('0', point as usize - significant.len()));
    } else {
        let (whole, fraction) = significant.split_at(point as usize);
        out.push_str(text(whole));
        out.push('.');
        out.push_str(text(fraction));
    }
}

/// Whether finite `v` (not a whole number) is `m / 2^k` with `m · 5^k` (its exact decimal
/// digits) below 10^18.
fn short_exact_expansion(v: f64) -> bool {
    let bits = v.to_bits();
    let (biased, fraction) = (((bits >> 52) & 0x7ff) as i32, bits & ((1u64 << 52) - 1));
    let (mut m, mut e) = if biased == 0 { (fraction, -1074) } else { (fraction | (1u64 << 52), biased - 1075) };
    if m == 0 {
        return true;
    }
    let zeros = m.trailing_zeros();
    m >>= zeros;
    e += zeros as i32;
    if e >= 0 {
        return true;
    }
    let k = e.unsigned_abs();
    k <= 26 && u128::from(m) * 5u128.pow(k) < 10u128.pow(18)
}

/// `v` appended to `out` as serde_json writes a number (`1e-5`, `1.0`; `null` when not finite):
/// the JSON Lines file's value, written into the CSV without making a JSON value per row.
pub fn write_json_f64(out: &mut String, v: f64) {
    if v.is_finite() {
        out.push_str(zmij::Buffer::new().format_finite(v));
    } else {
        out.push_str("null");
    }
}

/// A number as R's `print`/`write.table` shows it with `digits` significant digits: the
/// shortest representation up to that precision, fixed notation unless scientific is narrower
/// (R's rule with `scipen = 0`); `NaN`, `Inf`, `-Inf`; no negative zero.
pub fn r_number(x: f64, digits: usize) -> String {
    let mut out = String::with_capacity(24);
    write_r_number(&mut out, x, digits);
    out
}

/// [`r_number`] appended to `out`: one exact formatting of the number (its significant digits
/// and exponent), the fixed or scientific form built from those digits, no allocation for up to
/// 40 significant digits (the per-judgment files write two numbers a line, a million lines).
pub fn write_r_number(out: &mut String, x: f64, digits: usize) {
    if x.is_nan() {
        return out.push_str("NaN");
    }
    if x.is_infinite() {
        return out.push_str(if x > 0.0 { "Inf" } else { "-Inf" });
    }
    if x == 0.0 {
        return out.push('0');
    }
    // `d.ddde±x` with `digits` significant digits, exactly rounded.
    let mut buf = SmallText::default();
    let _ = std::fmt::Write::write_fmt(&mut buf, format_args!("{:.*e}", digits.saturating_sub(1), x.abs()));
    let sci = buf.as_str();
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let neg = x < 0.0;
    // The significant digits without the point, trailing zeros dropped ("0" cannot occur: x ≠ 0).
    let mut sig = [0u8; 48];
    let mut d = 0usize;
    for b in mantissa.bytes().filter(u8::is_ascii_digit) {
        if d < sig.len() {
            sig[d] = b;
            d += 1;
        }
    }
    while d > 1 && sig[d - 1] == b'0' {
        d -= 1;
    }
    let sig = std::str::from_utf8(&sig[..d]).expect("ASCII digits");
    let d = d as i32;
    let sci_width = neg as i32 + d + (d > 1) as i32 + 4;
    let decimals = (d - exp - 1).max(0);
    let int_digits = (exp + 1).max(1);
    let fixed_width = neg as i32 + int_digits + if decimals > 0 { 1 + decimals } else { 0 };
    if neg {
        out.push('-');
    }
    if fixed_width <= sci_width {
        // The same digits in fixed notation (rounding to `decimals` places gives these digits:
        // the number is within half a unit of the 15th digit of them).
        if exp < 0 {
            out.push_str("0.");
            (0..(-exp - 1)).for_each(|_| out.push('0'));
            out.push_str(sig);
        } else {
            let int = (exp + 1) as usize;
            if sig.len() < int {
                // A whole number longer than its significant digits: R prints its own digits
                // (`sprintf("%.0f")`: 1234567890123456 at 15 digits), not zeros.
                let _ = std::fmt::Write::write_fmt(out, format_args!("{:.0}", x.abs()));
            } else if sig.len() == int {
                out.push_str(sig);
            } else {
                out.push_str(&sig[..int]);
                out.push('.');
                out.push_str(&sig[int..]);
            }
        }
    } else {
        out.push_str(&sig[..1]);
        if d > 1 {
            out.push('.');
            out.push_str(&sig[1..]);
        }
        let _ = std::fmt::Write::write_fmt(out, format_args!("e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs()));
    }
}

/// A short text on the stack (a number being formatted); what does not fit is dropped, which
/// [`write_r_number`]'s 40 digits never reach.
struct SmallText {
    bytes: [u8; 64],
    len: usize,
}

impl Default for SmallText {
    fn default() -> Self {
        SmallText { bytes: [0; 64], len: 0 }
    }
}

impl SmallText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl std::fmt::Write for SmallText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

/// The standardised judgment file of one (task, language pair), as WMT released
/// `ad-<srctgt>-good-stnd.csv` (Graham's `standardize-scrs.pl`): the Graham/MTurk judgment
/// layout (`HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time`,
/// tab-separated) with `score` replaced by the judgment's z, only the judgments of workers kept
/// by quality control and standardised (σ > 0); `time` is the HIT's seconds, `rid` is not
/// known to Assay (`NA`). Every item type is written, as Graham's file has them. Returns the
/// rows written.
pub fn write_good_stnd(w: impl Write, set: &JudgmentSet, result: &AnalysisResult, task: u16, lang_pair: u16) -> io::Result<usize> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    write_good_stnd_in(w, set, result, task, lang_pair, threads)
}

/// [`write_good_stnd`] with its lines formatted on `threads` threads.
fn write_good_stnd_in(mut w: impl Write, set: &JudgmentSet, result: &AnalysisResult, task: u16, lang_pair: u16, threads: usize) -> io::Result<usize> {
    use super::FxMap;
    // (worker, task, language pair) → (μ, σ) of those kept.
    let kept: std::collections::HashSet<(u32, u16)> =
        result.workers.iter().filter(|q| !result.settings.exclusion.excludes(q)).map(|q| (q.worker, q.task)).collect();
    let z: FxMap<(u32, u16, u16), (f64, f64)> = result
        .standardization
        .iter()
        .filter(|s| s.excluded.is_none() && kept.contains(&(s.worker, s.task)))
        .filter_map(|s| s.sd.filter(|sd| *sd > 0.0).map(|sd| ((s.worker, s.task, s.lang_pair), (s.mean, sd))))
        .collect();
    // A HIT's seconds: the record's own when the set has HIT times, else the sum over the HIT.
    let mut hit_seconds: FxMap<(u32, u32), f64> = FxMap::default();
    if set.time_basis == TimeBasis::PerItem {
        for j in set.records.iter().filter(|j| j.task == task && j.lang_pair == lang_pair) {
            *hit_seconds.entry((j.worker, j.hit)).or_default() += f64::from(j.seconds);
        }
    }
    let pair = &set.lang_pairs.names()[lang_pair as usize];
    let (src, trg) = pair.split_once('-').unwrap_or((pair.as_str(), ""));
    let item = &set.tasks.names()[task as usize];
    writeln!(w, "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time")?;
    // The lines of `records`, appended to `out`; the number written.
    let lines = |records: &[super::Judgment], out: &mut String| -> usize {
        use std::fmt::Write as _;
        let mut rows = 0;
        for j in records.iter().filter(|j| j.task == task && j.lang_pair == lang_pair) {
            let Some(&(mean, sd)) = z.get(&(j.worker, j.task, j.lang_pair)) else { continue };
            let hit = set.hits.name(j.hit);
            let seconds = hit_seconds.get(&(j.worker, j.hit)).copied().unwrap_or(f64::from(j.seconds));
            let _ = write!(
                out,
                "{hit}\t{}\t{src}\t{trg}\t{item}\t{hit}\t{}\tNA\t{}\t{}\t",
                set.workers.name(j.worker),
                set.systems.name(j.system),
                graham_type(j.item_type),
                set.segments.name(j.segment),
            );
            write_r_number(out, (j.score - mean) / sd, 15);
            out.push('\t');
            write_r_number(out, seconds, 15);
            out.push('\n');
            rows += 1;
        }
        rows
    };
    // A million lines: formatted a batch at a time, the batch split among the cores, and
    // written in order (memory: one batch of text).
    const BATCH: usize = 1 << 16;
    let threads = threads.max(1);
    let mut texts: Vec<String> = vec![String::new(); threads];
    let lines = &lines;
    let mut rows = 0;
    for batch in set.records.chunks(BATCH * threads) {
        let share = batch.len().div_ceil(threads).max(1);
        if threads == 1 || batch.len() < 4096 {
            texts[0].clear();
            rows += lines(batch, &mut texts[0]);
            w.write_all(texts[0].as_bytes())?;
            continue;
        }
        rows += std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .chunks(share)
                .zip(texts.iter_mut())
                .map(|(part, text)| {
                    text.clear();
                    s.spawn(move || lines(part, text))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a line writer panicked")).sum::<usize>()
        });
        for text in &texts[..batch.len().div_ceil(share)] {
            w.write_all(text.as_bytes())?;
        }
    }
    Ok(rows)
}

/// Graham's name of an item type.
fn graham_type(t: ItemType) -> &'static str {
    match t {
        ItemType::System => "SYSTEM",
        ItemType::BadRef => "BAD_REF",
        ItemType::Repeat => "REPEAT",
        ItemType::Ref => "REF",
    }
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
            QcTest::SignedRank | QcTest::Sign => r.statistic,
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
    /// `write_display_f64` against `Display` itself: every kind of number the files write and
    /// millions of random ones (bit patterns, decimals of every length, whole numbers).
    #[test]
    fn numbers_are_written_as_display_writes_them() {
        let check = |v: f64| {
            let mut fast = String::new();
            super::write_display_f64(&mut fast, v);
            assert_eq!(fast, format!("{v}"), "bits {:#x}", v.to_bits());
        };
        for v in [
            0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.0 / 3.0, 69.0, 100.0, 3.001, 2.815717002936006e-6, 0.21458450929157705,
            1e15, 1e16, 1e21, 1e22, 1e23, 9_007_199_254_740_992.0, 9_007_199_254_740_994.0, -9_007_199_254_740_992.0,
            123_456_789_012_345_680.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -5e-324, 1e-7, 1.5e-300, f64::EPSILON,
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
        ] {
            check(v);
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2_000_000 {
            let v = f64::from_bits(next());
            if v.is_finite() {
                check(v);
            }
            let mut json = String::new();
            super::write_json_f64(&mut json, v);
            assert_eq!(json, serde_json::Value::from(v).to_string(), "bits {:#x}", v.to_bits());
        }
        for _ in 0..1_000_000 {
            let r = next();
            let whole = (r >> 11) as f64 * if r & 1 == 0 { 1.0 } else { -1.0 };
            check(whole);
            check(whole / 10f64.powi((r % 23) as i32));
            check((r % 100_001) as f64 / 1000.0);
            // Large numbers with a few binary fractions: where shortest forms tie.
            check((r >> 12) as f64 / 2f64.powi((r % 5) as i32 + 1));
        }
    }

    #[test]
    fn csv_text_quotes_and_guards_formulas() {
        use super::csv_text;
        assert_eq!(csv_text("Sys A"), "Sys A");
        assert_eq!(csv_text("a,b"), "\"a,b\"");
        assert_eq!(csv_text("say \"hi\""), "\"say \"\"hi\"\"\"");
        for formula in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            assert!(csv_text(formula).trim_start_matches('"').starts_with('\''), "{formula:?} → {}", csv_text(formula));
        }
        assert_eq!(csv_text("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
        assert_eq!(csv_text("a=b"), "a=b");
        // A text whose `'`s come before a formula's start gets one more, so that the readers can
        // take exactly one off; other `'`s are text.
        assert_eq!(csv_text("'=x"), "''=x");
        assert_eq!(csv_text("'x"), "'x");
        assert_eq!((csv_untext("''=x"), csv_untext("'=x"), csv_untext("'x"), csv_untext("x'")), ("'=x", "=x", "'x", "x'"));
    }

    use super::*;

    proptest::proptest! {
        /// A text written by `csv_text` and read by the `csv` crate, the guard taken off, is the
        /// text: whatever it holds (line breaks, quotes, commas, tabs, `'`, formula starts,
        /// any Unicode), alone or among other fields.
        #[test]
        fn csv_text_reads_back_exactly(texts in proptest::collection::vec("(\\PC|[\r\n\t\"',=+@-])*", 1..4)) {
            let line: Vec<String> = texts.iter().map(|t| csv_text(t).into_owned()).collect();
            let file = format!("{}\nend\n", line.join(","));
            let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(file.as_bytes());
            let first = reader.records().next().unwrap().unwrap();
            let read: Vec<&str> = first.iter().map(csv_untext).collect();
            // One empty field alone is an empty line to CSV.
            if texts != [""] {
                proptest::prop_assert_eq!(read, texts.iter().map(String::as_str).collect::<Vec<_>>());
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 20_000, ..Default::default() })]
        /// The fast path reads every plain decimal to the same bits as `str::parse`, and
        /// declines (leaving it to `str::parse`) whatever it cannot read exactly.
        #[test]
        fn plain_decimals_read_as_str_parse_reads_them(text in "[-+]?[0-9]{0,17}(\\.[0-9]{0,17})?") {
            if let Some(v) = parse_plain_decimal(&text) {
                let expected: f64 = text.parse().unwrap();
                proptest::prop_assert_eq!(v.to_bits(), expected.to_bits(), "{}", text);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 5_000, ..Default::default() })]
        /// The eight-bytes-at-a-time scan finds exactly the tabs and newlines, in order.
        #[test]
        fn separators_are_every_tab_and_newline(bytes in proptest::collection::vec(proptest::prop_oneof![
            proptest::strategy::Just(b'\t'), proptest::strategy::Just(b'\n'), proptest::strategy::Just(0u8),
            proptest::strategy::Just(0x89u8), proptest::strategy::Just(0x8au8), proptest::prelude::any::<u8>()
        ], 0..70)) {
            let expected: Vec<(usize, bool)> = (0..bytes.len()).filter(|&i| bytes[i] == b'\t' || bytes[i] == b'\n').map(|i| (i, bytes[i] == b'\n')).collect();
            proptest::prop_assert_eq!(Separators::new(&bytes).collect::<Vec<_>>(), expected);
        }
    }

    #[test]
    fn plain_decimal_edges() {
        for (text, expected) in [("73", 73.0), ("-12.5", -12.5), ("1503.0", 1503.0), ("0.1", 0.1), ("5.", 5.0), (".5", 0.5), ("999999999999999", 999999999999999.0), ("0.00000000000001", 1e-14)] {
            assert_eq!(parse_plain_decimal(text), Some(expected), "{text}");
        }
        assert_eq!(parse_plain_decimal("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
        for text in ["", "-", ".", "1e5", "inf", "NaN", "1.2.3", "1,5", "9999999999999999", "0.0000000000000001"] {
            assert_eq!(parse_plain_decimal(text), None, "{text}");
        }
    }

    /// A file with a bad row and, further on, a line that is not UTF-8 reports the bad row
    /// (the first error in the file), however the file is cut into chunks; the UTF-8 error
    /// alone is reported with its own line number.
    #[test]
    fn graham_reader_reports_the_first_error_in_the_file() {
        let header = "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time\n";
        let row = "H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\t1503.0\n";
        let mut lines: Vec<Vec<u8>> = (0..40).map(|_| row.as_bytes().to_vec()).collect();
        lines[30] = b"H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t\xff\t1503.0\n".to_vec();
        let only_utf8: Vec<u8> = header.bytes().chain(lines.concat()).collect();
        for threads in [1, 2, 3] {
            let e = read_graham_bytes(&only_utf8, threads, 0).unwrap_err();
            assert_eq!((e.line, e.message.as_str()), (32, "the line is not valid UTF-8"), "{threads} threads");
        }
        lines[20] = b"H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\n".to_vec();
        let both: Vec<u8> = header.bytes().chain(lines.concat()).collect();
        for threads in [1, 2, 3] {
            let e = read_graham_bytes(&both, threads, 0).unwrap_err();
            assert_eq!((e.line, e.message.as_str()), (22, "expected 12 tab-separated fields, found 11"), "{threads} threads");
        }
    }

    /// The formatting before `write_r_number` (two exact formattings a number), kept to check
    /// the new one against.
    fn r_number_before(x: f64, digits: usize) -> String {
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

    #[test]
    fn r_number_writes_what_it_wrote_before() {
        // Numbers of every size and sign, whole ones, ones at the edge of the notations, and
        // random bit patterns.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut values = vec![1e15, 1e-5, 1e-4, 0.0001234, 123456789012345.0, 1234567890123456.0, 99999.99999, 0.5, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e5, 100000.0, 1e-15, 2.5e-5];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bits = f64::from_bits(x);
            if bits.is_finite() {
                values.push(bits);
            }
            let scaled = (x >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((x % 41) as i32 - 20);
            values.push(scaled);
            values.push(-scaled);
            values.push(((x % 2001) as f64 - 1000.0) / 8.0);
        }
        for v in values {
            for digits in [1, 3, 7, 15, 17] {
                assert_eq!(r_number(v, digits), r_number_before(v, digits), "{v:e} at {digits} digits");
            }
        }
    }

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

    /// Records are read by the `csv` crate: a quoted field may hold commas, quotes and line
    /// breaks, and a record then spans lines; each record knows the line it starts on.
    #[test]
    fn csv_records_span_lines() {
        let text = "a,\"b,c\",,\"say \"\"hi\"\"\"\n\n\"two\r\nlines\",\"and\rone\",x\n  \nlast,\"\nline\"\n";
        let mut rows = csv_rows(text.as_bytes());
        let mut got = Vec::new();
        while let Some(line) = rows.next_record().unwrap() {
            got.push((line, rows.record.iter().map(String::from).collect::<Vec<_>>()));
        }
        assert_eq!(
            got,
            [
                (1, vec!["a".to_string(), "b,c".into(), "".into(), "say \"hi\"".into()]),
                // A blank line before a record counts as the record's first (the csv crate's count).
                (2, vec!["two\r\nlines".into(), "and\rone".into(), "x".into()]),
                (6, vec!["last".into(), "\nline".into()]),
            ]
        );
        assert_eq!(csv_first_record("\"a\nb\",c\nd,e,f\n"), Some(vec!["a\nb".to_string(), "c".into()]));
        // Not UTF-8: the line of the record.
        let mut rows = csv_rows(&b"a,b\nc,\xff\n"[..]);
        rows.next_record().unwrap();
        assert_eq!(rows.next_record().unwrap_err(), err(2, "field 2 is not valid UTF-8"));
    }

    /// The Assay reader reads a judgment file whose names hold line breaks (it read line by line
    /// and refused it), each name exactly as written, the spreadsheet guard taken off; a wrong
    /// count of fields names the line its record starts on.
    #[test]
    fn assay_reader_reads_records_across_lines() {
        let csv = "task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,skipped,seconds\n\
                   da-adequacy,de,en,0,\"link:a\nb\",SYSTEM,\"Sys\r\nA\",\" s1\r\",70,0,2\n\
                   da-adequacy,de,en,0,'-w,REF,\"'=SUM(1,2)\",s2,60,0,1\n";
        let set = read_assay_csv(csv.as_bytes()).unwrap();
        assert_eq!(set.workers.names(), ["link:a\nb", "-w"]);
        assert_eq!(set.systems.names(), ["Sys\r\nA", "=SUM(1,2)"]);
        assert_eq!(set.segments.names(), [" s1\r", "s2"]);
        let bad = format!("{csv}da-adequacy,de,en,0,\"w,SYSTEM,S,s3,1,0,1\n");
        assert_eq!(
            read_assay_csv(bad.as_bytes()).unwrap_err().to_string(),
            "line 6: expected 11 comma-separated fields, found 5 (a quoted field holding a line break: is a quote not closed?)"
        );
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

    /// A simulated judgment file with CRLF endings on some lines and blank lines in the
    /// middle (which must not move line numbers).
    fn awkward_graham_file() -> String {
        let config = crate::simulate::CrowdConfig { segments: 60, ..Default::default() };
        let mut file = Vec::new();
        crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
        let mut text = String::from_utf8(file).unwrap().replacen("\n", "\r\n", 40);
        let cut = text.len() / 3;
        let at = cut + text[cut..].find('\n').unwrap() + 1;
        text.insert_str(at, "\n  \n");
        text
    }

    /// The text with one field too many on the fifth line from the end, and that line's number.
    fn with_bad_row_near_the_end(text: &str) -> (String, usize) {
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        let target = lines.len() - 5;
        lines[target] = lines[target].replacen("\t", "\tx\t", 1);
        (lines.join("\n"), target + 1)
    }

    /// The standardised judgment file is the same whether its lines are formatted on one thread
    /// or on several (batches split among them, written in order), and has a line per kept
    /// judgment.
    #[test]
    fn good_stnd_lines_are_the_same_on_several_threads() {
        let config = crate::simulate::CrowdConfig::with_judgments(30_000);
        let mut file = Vec::new();
        crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
        let set = read_graham_tsv(file.as_slice()).unwrap();
        assert!(set.records.len() > 20_000, "{} records", set.records.len());
        let result = crate::analysis::analyse(&set, &crate::analysis::AnalysisSettings::default());
        let write = |threads| {
            let mut out = Vec::new();
            let rows = write_good_stnd_in(&mut out, &set, &result, 0, 0, threads).unwrap();
            (rows, String::from_utf8(out).unwrap())
        };
        let (rows, one) = write(1);
        assert!(rows > 10_000 && rows <= set.records.len(), "{rows} rows");
        assert_eq!(one.lines().count(), rows + 1);
        for threads in [2, 3, 8] {
            let (n, text) = write(threads);
            assert_eq!(n, rows, "{threads} threads");
            assert!(text == one, "{threads} threads: the text differs");
        }
        // Each line's z is (score − μ) / σ of its worker, as R prints it.
        let line = one.lines().nth(1).unwrap();
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 12, "{line}");
        assert!(fields[10].parse::<f64>().unwrap().abs() < 10.0, "{line}");
    }

    /// Every name table of a set, in id order.
    fn names(s: &JudgmentSet) -> [Vec<String>; 6] {
        [&s.workers, &s.hits, &s.systems, &s.segments, &s.lang_pairs, &s.tasks].map(|i| i.names().to_vec())
    }

    /// Reading in chunks on several threads gives exactly the sequential result: the same
    /// records and the same ids in order of first appearance; an error in a late chunk names
    /// its line in the whole file.
    #[test]
    fn graham_reader_in_chunks_equals_one_pass() {
        let text = awkward_graham_file();
        let one = read_graham_bytes(text.as_bytes(), 1, usize::MAX).unwrap();
        assert!(one.records.len() > 1000, "{}", one.records.len());
        for threads in [2, 3, 7] {
            let many = read_graham_bytes(text.as_bytes(), threads, 0).unwrap();
            assert_eq!(names(&many), names(&one), "{threads} threads");
            assert!(many.records == one.records, "{threads} threads: records differ");
        }
        // Break a row near the end: the line number counts every line before it.
        let (broken, line) = with_bad_row_near_the_end(&text);
        let expected = read_graham_bytes(broken.as_bytes(), 1, usize::MAX).unwrap_err();
        assert_eq!(expected.line, line);
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

    /// Reading a file in parts, block by block, gives exactly what reading it whole gives,
    /// for any number of parts and any block size (lines longer than a block, a part
    /// boundary on a line start, CRLF and blank lines, no final newline), and the same first
    /// error with the same line number.
    #[test]
    fn graham_file_in_parts_equals_one_pass() {
        let text = awkward_graham_file();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("judgments.tsv");
        for body in [text.clone(), text.trim_end().to_string()] {
            std::fs::write(&path, &body).unwrap();
            let one = read_graham_bytes(body.as_bytes(), 1, usize::MAX).unwrap();
            assert!(one.records.len() > 1000);
            for threads in [2, 3, 7] {
                for block in [64, 1000, 4096, 1 << 20] {
                    let many = read_graham_file_in(&path, threads, 0, block).unwrap();
                    assert_eq!(names(&many), names(&one), "{threads} threads, blocks of {block}");
                    assert!(many.records == one.records, "{threads} threads, blocks of {block}: records differ");
                }
            }
        }
        // A bad row near the end, then also invalid UTF-8 before it.
        let (broken, line) = with_bad_row_near_the_end(&text);
        let mut bytes = broken.into_bytes();
        for round in 0..2 {
            std::fs::write(&path, &bytes).unwrap();
            let expected = read_graham_bytes(&bytes, 1, usize::MAX).unwrap_err();
            for threads in [2, 3, 7] {
                for block in [64, 4096] {
                    assert_eq!(read_graham_file_in(&path, threads, 0, block).unwrap_err(), expected, "{threads} threads, blocks of {block}");
                }
            }
            if round == 0 {
                assert_eq!(expected.line, line);
                let pos = bytes.len() * 2 / 3;
                bytes[pos] = 0xff;
            } else {
                assert!(expected.message.contains("UTF-8"), "{expected}");
            }
        }
        assert_eq!(
            read_graham_file_in(&dir.path().join("missing.tsv"), 2, 0, 64).unwrap_err().line,
            1
        );
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
        // An output of a gold block is quality control: left out like a skipped judgment.
        let with_gold = format!("{csv}4,4,ranking,de,en,0,mturk:W,GOLD,SysA,s3,0.5,0,2,fail\n");
        assert_eq!(read_assay_csv(with_gold.as_bytes()).unwrap().records.len(), 2);

        let jsonl = r#"{"task":"da-fluency","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"REPEAT","system":"S","segment":"7","score":55.0,"skipped":false,"seconds":1.5}
{"task":"da-fluency","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"SYSTEM","system":"S","segment":"7","score":null,"skipped":true,"seconds":0}
"#;
        let set = read_assay_jsonl(jsonl.as_bytes()).unwrap();
        assert_eq!(set.records.len(), 1);
        assert_eq!((set.records[0].item_type, set.records[0].score, set.hits.name(0)), (ItemType::Repeat, 55.0, "3"));
        let bad = jsonl.replace("\"segment\":\"7\",", "");
        assert_eq!(read_assay_jsonl(bad.as_bytes()).unwrap_err().to_string(), "line 1: the object lacks the key \"segment\"");
        let bad = jsonl.replace("da-fluency", "da");
        assert!(read_assay_jsonl(bad.as_bytes()).unwrap_err().to_string().starts_with("line 1: task \"da\" is not a campaign task"));
    }

    /// A word-order campaign's file is read as the campaign is: a record per question, named as
    /// the campaign's (`word-order-q1` from `score`, `word-order-q2` from `score2`), each on the
    /// five boxes' scale.
    #[test]
    fn assay_reader_reads_both_word_order_questions() {
        let csv = "task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,score2,skipped\n\
                   word-order,de,en,0,w,SYSTEM,S,1,0.75,0.25,0\n\
                   word-order,de,en,0,w,BAD_REF,S,1,0,0.5,0\n";
        let set = read_assay_csv(csv.as_bytes()).unwrap();
        assert_eq!(set.tasks.names(), ["word-order-q1", "word-order-q2"]);
        let records: Vec<(&str, f64)> = set.records.iter().map(|j| (set.tasks.name(u32::from(j.task)), j.score)).collect();
        assert_eq!(records, [("word-order-q1", 0.75), ("word-order-q2", 0.25), ("word-order-q1", 0.0), ("word-order-q2", 0.5)]);
        assert_eq!([set.tasks.scale(0), set.tasks.scale(1)], [Scale::Categorical { categories: 5 }; 2]);
        let bad = csv.replace("0.25,0", "y,0");
        assert_eq!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string(), "line 2: score2 is not a number: \"y\"");
    }
}
