//! TER, the translation edit rate (Snover et al., 2006), exactly as sacrebleu
//! [`super::SACREBLEU_VERSION`] computes it (`sacrebleu.metrics.ter.TER`, a port of Tercom):
//! the words of the hypothesis are shifted (blocks of at most 10 words, at most 50 positions
//! from their place in the reference, only where both the hypothesis and the reference are
//! wrong there) while a shift lowers the edit distance, the best shift first by Tercom's order
//! (largest gain, longest block, earliest start, earliest target), at most 1,000 shift
//! candidates per segment; then the Levenshtein distance (insertion, deletion and substitution
//! 1 each) is computed in a beam of 25 cells around the length-scaled diagonal. A segment's
//! edits are the shifts plus that distance; with several references the fewest edits count,
//! divided by the references' mean length. Corpus TER is the total edits over the total
//! reference words, × 100.
//!
//! The text is read as sacrebleu's `TercomTokenizer` does: with its defaults (`case:lc`,
//! `norm:no`, `punct:yes`, `asian:no`) the hypothesis (its trailing whitespace stripped) and the
//! references are lowercased and split on Python's whitespace; `normalized` adds Tercom's
//! Western punctuation tokenization (and CJK characters apart with `asian_support`),
//! `no_punct` removes punctuation.
//!
//! Checked against sacrebleu on `tests/fixtures/metrics/ter.json` (written by
//! `tests/fixtures/metrics/ter.py`): every tokenization, every segment's edits and reference
//! length, and every sentence and corpus score, to the last printed digit.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::tokenize::{normalize_spaces, py_rstrip, py_split};
use super::{MetricError, SACREBLEU_VERSION, check_streams};
use crate::analysis::FxMap;

/// sacrebleu's `TER(normalized, no_punct, asian_support, case_sensitive)`; the default is
/// sacrebleu's (all `false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerConfig {
    /// Tercom's normalization: XML entities, punctuation apart, possessives, periods and commas
    /// apart unless between digits (`norm:yes`).
    pub normalized: bool,
    /// Remove `.,?:;!"()` (`punct:no`).
    pub no_punct: bool,
    /// With `normalized`, CJK characters apart; with `no_punct`, CJK and full-width punctuation
    /// removed too (`asian:yes`).
    pub asian_support: bool,
    /// Keep case (`case:mixed`); by default TER lowercases (`case:lc`).
    pub case_sensitive: bool,
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

impl TerConfig {
    /// sacrebleu's signature, e.g.
    /// `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.4.3`.
    pub fn signature(&self, nrefs: usize) -> String {
        format!(
            "nrefs:{nrefs}|case:{}|tok:tercom|norm:{}|punct:{}|asian:{}|version:{SACREBLEU_VERSION}",
            if self.case_sensitive { "mixed" } else { "lc" },
            yes(self.normalized),
            yes(!self.no_punct),
            yes(self.asian_support)
        )
    }

    /// sacrebleu's `TercomTokenizer` on one line: the words joined by one space.
    pub fn tokenize(&self, sent: &str) -> String {
        if sent.is_empty() {
            return String::new();
        }
        let mut s = if self.case_sensitive { sent.to_string() } else { sent.to_lowercase() };
        if self.normalized {
            s = normalize_general_and_western(&s);
            if self.asian_support {
                s = normalize_asian(&s);
            }
        }
        if self.no_punct {
            s.retain(|c| !matches!(c, '.' | ',' | '?' | ':' | ';' | '!' | '"' | '(' | ')'));
            if self.asian_support {
                s.retain(|c| !is_asian_punct(c) && !is_full_width_punct(c));
            }
        }
        normalize_spaces(&s)
    }

    /// What TER compares: the line's trailing whitespace stripped (sacrebleu's
    /// `_preprocess_segment`), tokenized, split on whitespace.
    fn words(&self, line: &str) -> Vec<String> {
        py_split(&self.tokenize(py_rstrip(line))).map(str::to_string).collect()
    }
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
}

/// Tercom's `[{-~[-` -&(-+:-@/]`: the ASCII punctuation and symbols it puts apart (and the
/// space, which it "puts apart" too; spaces are squeezed at the end).
fn is_tercom_symbol(c: char) -> bool {
    matches!(c, '{'..='~' | '['..='`' | ' '..='&' | '('..='+' | ':'..='@' | '/')
}

/// Each character for which `pick` holds between spaces (Python's `re.sub(r"([…])", r" \1 ", s)`
/// with a one-character class: its matches cannot overlap).
fn spaced(s: &str, pick: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if pick(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

static WESTERN: LazyLock<[(Regex, &'static str); 3]> = LazyLock::new(|| {
    [
        // periods and commas apart unless preceded by a digit, then unless followed by one
        (re(r"([^0-9])([.,])"), "${1} ${2} "),
        (re(r"([.,])([^0-9])"), " ${1} ${2}"),
        // a dash after a digit apart
        (re(r"([0-9])(-)"), "${1} ${2} "),
    ]
});

/// sacrebleu's `_normalize_general_and_western`.
fn normalize_general_and_western(sent: &str) -> String {
    let s = sent
        .replace("\n-", "")
        .replace('\n', " ")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let s = spaced(&format!(" {s} "), is_tercom_symbol);
    let mut s = s.replace("'s ", " 's ");
    // `'s$`: Python's `$` also matches before a final newline (none is left by now).
    if let Some(head) = s.strip_suffix("'s") {
        s = format!("{head} 's");
    }
    for (pattern, replacement) in WESTERN.iter() {
        s = pattern.replace_all(&s, *replacement).into_owned();
    }
    s
}

fn is_asian_punct(c: char) -> bool {
    matches!(c, '\u{3001}' | '\u{3002}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}' | '\u{ff61}'..='\u{ff65}' | '\u{30fb}')
}

fn is_full_width_punct(c: char) -> bool {
    matches!(c, '\u{ff0e}' | '\u{ff0c}' | '\u{ff1f}' | '\u{ff1a}' | '\u{ff1b}' | '\u{ff01}' | '\u{ff02}' | '\u{ff08}' | '\u{ff09}')
}

/// sacrebleu's `(^|^[R])([R]+)(?=$|^[R])` → `\1 \2 `: only a line made entirely of characters
/// of R (before an optional final newline, Python's `$`) is changed, to ` line `.
fn whole_run(s: &str, range: std::ops::RangeInclusive<char>) -> String {
    let (body, tail) = match s.strip_suffix('\n') {
        Some(b) => (b, "\n"),
        None => (s, ""),
    };
    if !body.is_empty() && body.chars().all(|c| range.contains(&c)) {
        format!(" {body} {tail}")
    } else {
        s.to_string()
    }
}

/// sacrebleu's `_normalize_asian`: CJK ideographs, strokes, radicals, compatibility forms and
/// enclosed letters apart; hiragana and katakana runs (as its expressions read: only a whole
/// line of them); Asian and full-width punctuation apart.
fn normalize_asian(sent: &str) -> String {
    let s = spaced(sent, |c| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}'));
    let s = spaced(&s, |c| matches!(c, '\u{31c0}'..='\u{31ef}' | '\u{2e80}'..='\u{2eff}'));
    let s = spaced(&s, |c| matches!(c, '\u{3300}'..='\u{33ff}' | '\u{f900}'..='\u{faff}' | '\u{fe30}'..='\u{fe4f}'));
    let s = spaced(&s, |c| matches!(c, '\u{3200}'..='\u{3f22}'));
    let s = whole_run(&s, '\u{3040}'..='\u{309f}');
    let s = whole_run(&s, '\u{30a0}'..='\u{30ff}');
    let s = whole_run(&s, '\u{31f0}'..='\u{31ff}');
    let s = spaced(&s, is_asian_punct);
    spaced(&s, is_full_width_punct)
}

// Tercom's limits, as sacrebleu keeps them.
const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: usize = 25;
// sacrebleu's own limit.
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

/// An edit operation of the trace (rewriting the hypothesis into the reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Ins,
    Del,
    Nop,
    Sub,
    Undef,
}

/// sacrebleu's `BeamEditDistance`. Its rows depend only on the hypothesis' prefix (every
/// hypothesis of one segment has the same length: shifts keep it), so the rows of the previous
/// call are kept for the prefix the next one shares with it (sacrebleu keeps a prefix tree of
/// rows to the same end; the numbers do not depend on it).
struct BeamEditDistance<'r> {
    reference: &'r [u32],
    words: Vec<u32>,
    dist: Vec<Vec<(i64, Op)>>,
}

impl<'r> BeamEditDistance<'r> {
    fn new(reference: &'r [u32]) -> Self {
        BeamEditDistance { reference, words: Vec::new(), dist: Vec::new() }
    }

    fn initial_row(&self) -> Vec<(i64, Op)> {
        (0..=self.reference.len()).map(|i| (i as i64, Op::Ins)).collect()
    }

    /// The edit distance of `h` from the reference, and the trace of operations.
    fn distance(&mut self, h: &[u32]) -> (i64, Vec<Op>) {
        let n_h = h.len();
        let n_r = self.reference.len();
        let mut start = 0;
        if self.dist.len() == n_h + 1 {
            while start < n_h && self.words[start] == h[start] {
                start += 1;
            }
        } else {
            self.dist = vec![vec![(INFINITY, Op::Undef); n_r + 1]; n_h + 1];
            self.dist[0] = self.initial_row();
        }
        self.words.clear();
        self.words.extend_from_slice(h);

        let ratio = if n_h > 0 { n_r as f64 / n_h as f64 } else { 1.0 };
        // In very unequal lengths the beams of two rows might not overlap.
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 { (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64 } else { BEAM_WIDTH as i64 };
        let dist = &mut self.dist;
        for i in start + 1..=n_h {
            dist[i].fill((INFINITY, Op::Undef));
            let diag = (i as f64 * ratio).floor() as i64;
            let min_j = (diag - beam).max(0) as usize;
            let max_j = if i == n_h { n_r + 1 } else { (n_r as i64 + 1).min(diag + beam).max(0) as usize };
            let (above, row) = dist.split_at_mut(i);
            let prev = &above[i - 1];
            let row = &mut row[0];
            for j in min_j..max_j {
                if j == 0 {
                    row[0] = (prev[0].0 + 1, Op::Del);
                    continue;
                }
                let (cost_sub, op_sub) = if h[i - 1] == self.reference[j - 1] { (0, Op::Nop) } else { (1, Op::Sub) };
                // Tercom prefers no-op/substitution, then insertion, then deletion; the trace is
                // flipped later, hence deletion before insertion here.
                for (cost, op) in [(prev[j - 1].0 + cost_sub, op_sub), (prev[j].0 + 1, Op::Del), (row[j - 1].0 + 1, Op::Ins)] {
                    if row[j].0 > cost {
                        row[j] = (cost, op);
                    }
                }
            }
        }

        let mut trace = Vec::with_capacity(n_h + n_r);
        let (mut i, mut j) = (n_h, n_r);
        while i > 0 || j > 0 {
            let op = dist[i][j].1;
            trace.push(op);
            match op {
                Op::Sub | Op::Nop => {
                    i -= 1;
                    j -= 1;
                }
                Op::Ins => j -= 1,
                Op::Del => i -= 1,
                // sacrebleu raises here; the beam is wide enough that no path reaches a cell
                // it did not compute.
                Op::Undef => {
                    debug_assert!(false, "TER's trace left the beam");
                    break;
                }
            }
        }
        trace.reverse();
        (dist[n_h][n_r].0, trace)
    }
}

/// sacrebleu's `trace_to_alignment` of the flipped trace (rewriting the reference into the
/// hypothesis): for each reference position its hypothesis position (−1 before the first),
/// and which reference and hypothesis words are in error.
fn alignment(trace: &[Op], n_r: usize, n_h: usize) -> (Vec<i64>, Vec<u8>, Vec<u8>) {
    let (mut pos_h, mut pos_r) = (-1i64, -1i64);
    let mut align = vec![0i64; n_r];
    let mut ref_err = Vec::with_capacity(n_r);
    let mut hyp_err = Vec::with_capacity(n_h);
    for op in trace {
        // Flipped: insertions become deletions and the other way round.
        match op {
            Op::Nop | Op::Sub => {
                pos_h += 1;
                pos_r += 1;
                align[pos_r as usize] = pos_h;
                let e = u8::from(*op == Op::Sub);
                hyp_err.push(e);
                ref_err.push(e);
            }
            Op::Del => {
                pos_h += 1;
                hyp_err.push(1);
            }
            Op::Ins => {
                pos_r += 1;
                align[pos_r as usize] = pos_h;
                ref_err.push(1);
            }
            Op::Undef => {}
        }
    }
    (align, ref_err, hyp_err)
}

/// Python's `words[a:b]` for non-negative `a`, `b`.
fn py_slice<T>(w: &[T], a: usize, b: usize) -> &[T] {
    let (a, b) = (a.min(w.len()), b.min(w.len()));
    if a >= b { &[] } else { &w[a..b] }
}

/// sacrebleu's `_perform_shift`: `length` words from `start` moved before `target`.
fn perform_shift(w: &[u32], start: usize, length: usize, target: usize) -> Vec<u32> {
    let parts: [&[u32]; 4] = if target < start {
        [py_slice(w, 0, target), py_slice(w, start, start + length), py_slice(w, target, start), py_slice(w, start + length, usize::MAX)]
    } else if target > start + length {
        [py_slice(w, 0, start), py_slice(w, start + length, target), py_slice(w, start, start + length), py_slice(w, target, usize::MAX)]
    } else {
        [py_slice(w, 0, start), py_slice(w, start + length, length + target), py_slice(w, start, start + length), py_slice(w, length + target, usize::MAX)]
    };
    let out = parts.concat();
    debug_assert_eq!(out.len(), w.len());
    out
}

/// sacrebleu's `_shift`: the best shift of `h` by Tercom's ranking, as (gain, shifted words);
/// `checked` counts the candidates evaluated so far in this segment.
fn best_shift(h: &[u32], r: &[u32], ed: &mut BeamEditDistance<'_>, checked: &mut usize) -> (i64, Option<Vec<u32>>) {
    let (pre_score, inverse) = ed.distance(h);
    let (align, ref_err, hyp_err) = alignment(&inverse, r.len(), h.len());
    // (gain, length, −start, −target) compared as a tuple, the first largest kept; two
    // candidates equal on all four are the same shift.
    let mut best: Option<((i64, usize, i64, i64), Vec<u32>)> = None;
    let (n_h, n_r) = (h.len(), r.len());
    'pairs: for start_h in 0..n_h {
        for start_r in 0..n_r {
            if start_r.abs_diff(start_h) > MAX_SHIFT_DIST {
                continue;
            }
            let mut length = 0;
            while h[start_h + length] == r[start_r + length] && length < MAX_SHIFT_SIZE {
                length += 1;
                let consumed = n_h == start_h + length || n_r == start_r + length;
                // The candidate h[start_h..+length] = r[start_r..+length].
                let skip = hyp_err[start_h..start_h + length].iter().all(|&e| e == 0)
                    || ref_err[start_r..start_r + length].iter().all(|&e| e == 0)
                    || (start_h as i64 <= align[start_r] && align[start_r] < (start_h + length) as i64);
                if !skip {
                    let mut prev_idx = -1i64;
                    for offset in -1i64..length as i64 {
                        let at = start_r as i64 + offset;
                        let idx = if at == -1 {
                            0
                        } else if (at as usize) < n_r {
                            align[at as usize] + 1
                        } else {
                            break;
                        };
                        if idx == prev_idx {
                            continue;
                        }
                        prev_idx = idx;
                        let shifted = perform_shift(h, start_h, length, idx as usize);
                        let key = (pre_score - ed.distance(&shifted).0, length, -(start_h as i64), -idx);
                        *checked += 1;
                        if best.as_ref().is_none_or(|(b, _)| key > *b) {
                            best = Some((key, shifted));
                        }
                    }
                    if *checked >= MAX_SHIFT_CANDIDATES {
                        break 'pairs;
                    }
                }
                if consumed {
                    break;
                }
            }
        }
    }
    match best {
        Some(((gain, ..), shifted)) => (gain, Some(shifted)),
        None => (0, None),
    }
}

/// sacrebleu's `translation_edit_rate`: the edits (shifts plus edit distance) that turn the
/// hypothesis' words into the reference's, and the reference's length. An empty reference
/// costs one edit per hypothesis word.
pub fn translation_edit_rate<S: AsRef<str>>(hyp: &[S], reference: &[S]) -> (u64, usize) {
    let mut ids: FxMap<&str, u32> = FxMap::default();
    let r = intern(&mut ids, reference);
    let h = intern(&mut ids, hyp);
    edits_of_ids(&h, &r)
}

/// Words as ids, equal words equal ids.
fn intern<'a, S: AsRef<str>>(ids: &mut FxMap<&'a str, u32>, words: &'a [S]) -> Vec<u32> {
    words
        .iter()
        .map(|w| {
            let n = ids.len() as u32;
            *ids.entry(w.as_ref()).or_insert(n)
        })
        .collect()
}

fn edits_of_ids(h: &[u32], r: &[u32]) -> (u64, usize) {
    if r.is_empty() {
        return (h.len() as u64, 0);
    }
    let mut ed = BeamEditDistance::new(r);
    let mut shifts = 0u64;
    let mut input = h.to_vec();
    let mut checked = 0;
    loop {
        let (gain, shifted) = best_shift(&input, r, &mut ed, &mut checked);
        if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
            break;
        }
        match shifted {
            Some(s) => input = s,
            None => break,
        }
        shifts += 1;
    }
    let (distance, _) = ed.distance(&input);
    (shifts + distance as u64, r.len())
}

/// One segment's TER statistics: the fewest edits over its references and their mean length;
/// summable over a corpus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TerStats {
    pub edits: u64,
    pub ref_len: f64,
}

impl TerStats {
    /// The corpus statistics (sacrebleu's `sum_of_lists`: edits as integers, lengths as floats
    /// in segment order).
    pub fn sum<'a>(stats: impl IntoIterator<Item = &'a TerStats>) -> TerStats {
        stats.into_iter().fold(TerStats::default(), |acc, s| TerStats { edits: acc.edits + s.edits, ref_len: acc.ref_len + s.ref_len })
    }

    /// TER × 100: edits over reference words; 100 for words against an empty reference, 0 when
    /// both are empty.
    pub fn score(&self) -> f64 {
        let rate = if self.ref_len > 0.0 {
            self.edits as f64 / self.ref_len
        } else if self.edits > 0 {
            1.0
        } else {
            0.0
        };
        100.0 * rate
    }
}

/// One segment's statistics against its references (each reference's words already read).
fn segment(hyp: &str, refs: &[Vec<String>], config: &TerConfig) -> TerStats {
    let hyp = config.words(hyp);
    let mut best = u64::MAX;
    let mut lengths = 0usize;
    for r in refs {
        let (edits, len) = translation_edit_rate(&hyp, r);
        lengths += len;
        if edits < best {
            best = edits;
        }
    }
    TerStats { edits: best, ref_len: lengths as f64 / refs.len() as f64 }
}

/// Per-segment statistics of a system's output: `refs[k][i]` is reference stream k's segment i.
pub fn segment_statistics(hyps: &[String], refs: &[Vec<String>], config: &TerConfig) -> Result<Vec<TerStats>, MetricError> {
    check_streams(hyps, refs)?;
    Ok(hyps
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let words: Vec<Vec<String>> = refs.iter().map(|stream| config.words(&stream[i])).collect();
            segment(h, &words, config)
        })
        .collect())
}

/// Corpus TER (sacrebleu's `TER().corpus_score`), with its statistics.
pub fn corpus_ter(hyps: &[String], refs: &[Vec<String>], config: &TerConfig) -> Result<(f64, TerStats), MetricError> {
    let stats = TerStats::sum(&segment_statistics(hyps, refs, config)?);
    Ok((stats.score(), stats))
}

/// TER of every segment on its own (sacrebleu's `TER().sentence_score`).
pub fn sentence_ters(hyps: &[String], refs: &[Vec<String>], config: &TerConfig) -> Result<Vec<f64>, MetricError> {
    Ok(segment_statistics(hyps, refs, config)?.iter().map(TerStats::score).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<&str> {
        s.split(' ').filter(|x| !x.is_empty()).collect()
    }

    #[test]
    fn a_shift_costs_one_edit() {
        // "a b c d" → "c d a b": one shift of "c d" (or "a b").
        assert_eq!(translation_edit_rate(&w("a b c d e"), &w("c d a b e")), (1, 5));
        assert_eq!(translation_edit_rate(&w("x y z"), &w("x y z")), (0, 3));
        assert_eq!(translation_edit_rate(&w(""), &w("x y")), (2, 2));
        assert_eq!(translation_edit_rate(&w("x y"), &w("")), (2, 0));
    }

    #[test]
    fn scores_of_degenerate_segments() {
        assert_eq!(TerStats { edits: 3, ref_len: 0.0 }.score(), 100.0);
        assert_eq!(TerStats { edits: 0, ref_len: 0.0 }.score(), 0.0);
        assert_eq!(TerStats { edits: 1, ref_len: 4.0 }.score(), 25.0);
    }

    #[test]
    fn signature_as_sacrebleu_prints_it() {
        assert_eq!(TerConfig::default().signature(1), format!("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:{SACREBLEU_VERSION}"));
        let c = TerConfig { normalized: true, no_punct: true, asian_support: true, case_sensitive: true };
        assert_eq!(c.signature(2), format!("nrefs:2|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:{SACREBLEU_VERSION}"));
    }

    #[test]
    fn mismatched_streams_are_refused() {
        let e = corpus_ter(&["a".into()], &[vec![]], &TerConfig::default()).unwrap_err();
        assert_eq!(e, MetricError::LengthMismatch { stream: 1, expected: 1, got: 0 });
        assert_eq!(corpus_ter(&["a".into()], &[], &TerConfig::default()).unwrap_err(), MetricError::NoReference);
    }
}
