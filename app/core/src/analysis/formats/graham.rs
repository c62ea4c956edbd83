//! The Graham/MTurk judgment file (`ad-latest.csv`, `ad-good-raw.csv`, …): its header, and its
//! rows parsed in parts on every core.

use super::*;

pub(super) const GRAHAM_COLUMNS: [&str; 12] = [
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
pub(super) fn read_graham_file_in(path: &std::path::Path, threads: usize, parallel_from: usize, block: usize) -> Result<JudgmentSet, FormatError> {
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
pub(super) fn read_file_in_parts(file: &std::fs::File, len: usize, threads: usize, block: usize) -> io::Result<Option<Result<JudgmentSet, FormatError>>> {
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
pub(super) fn read_file_in_parts(_: &std::fs::File, _: usize, _: usize, _: usize) -> io::Result<Option<Result<JudgmentSet, FormatError>>> {
    Ok(None)
}

/// One part of a file read by [`parse_file_part`].
#[derive(Clone, Copy)]
pub(super) struct FilePart {
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
pub(super) fn parse_file_part(
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
pub(super) fn line_end(data: &[u8], from: usize) -> usize {
    memchr::memchr(b'\n', &data[from..]).map_or(data.len(), |i| from + i)
}

/// [`read_graham_tsv`] on bytes, in at most `threads` chunks; a body shorter than
/// `parallel_from` bytes is one chunk.
pub(super) fn read_graham_bytes(data: &[u8], threads: usize, parallel_from: usize) -> Result<JudgmentSet, FormatError> {
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
pub(super) fn graham_header(data: &[u8]) -> Result<(GrahamLayout, usize, usize), FormatError> {
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
pub(super) fn room_for_rows(rows: &[u8]) -> impl Fn(usize) -> usize {
    let sample = &rows[..rows.len().min(1 << 20)];
    let rows_per_byte = (memchr::memchr_iter(b'\n', sample).count() + 1) as f64 / sample.len().max(1) as f64;
    move |bytes: usize| (bytes as f64 * rows_per_byte * 1.05) as usize + 1024
}

/// Joins the parts parsed in file order; an error's line is local to its part until offset
/// here by the lines before the part.
pub(super) fn merge_parts(parsed: Vec<Result<(JudgmentSet, usize), FormatError>>, header_lines: usize) -> Result<JudgmentSet, FormatError> {
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
pub(super) struct GrahamLayout {
    cols: [usize; 12],
    width: usize,
}

/// Parses rows (no header); line numbers in errors count from 1 at the chunk's first line.
pub(super) fn parse_graham_chunk(chunk: &[u8], layout: &GrahamLayout, capacity: usize) -> Result<(JudgmentSet, usize), FormatError> {
    let mut parser = ChunkParser::new(layout, capacity);
    parser.feed(chunk)?;
    Ok(parser.finish())
}

/// Parses rows (no header) fed to it in pieces that end at line ends, into one set; line
/// numbers in errors count from 1 at the first piece's first line.
pub(super) struct ChunkParser<'l> {
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
pub(super) struct Separators<'a> {
    bytes: &'a [u8],
    /// Where the word of `marks` starts, and where the next word starts.
    word: usize,
    next: usize,
    /// Bit 7 of each byte of the word that is a separator, and of each that is a newline.
    marks: u64,
    newlines: u64,
}

impl<'a> Separators<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
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
pub(super) struct ShortNames {
    ids: crate::analysis::FxMap<u128, u32>,
}

impl ShortNames {
    fn intern(&mut self, interner: &mut crate::analysis::Interner, name: &str) -> u32 {
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
