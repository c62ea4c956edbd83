//! BLEU (Papineni et al. 2002) exactly as sacrebleu [`super::SACREBLEU_VERSION`] computes it:
//! lowercasing (optional), `rstrip`, tokenization, n-grams of orders 1–4 over
//! whitespace-separated tokens, clipped counts against the maximum count over the references,
//! the closest reference length (the shorter one on a tie), the brevity penalty, and smoothing
//! (`exp`, the default, is mteval-v13a's; `floor`, `add-k`, `none` as sacrebleu has them).
//!
//! A segment's [`BleuStats`] are ten integers; a corpus score is computed from their sums, so
//! resampling tests recompute corpus BLEU from resampled statistics
//! ([`BleuStats::row`], [`bleu_from_sums`]).

use serde::{Deserialize, Serialize};

use super::tokenize::{Tokenizer, py_rstrip, py_split};
use crate::analysis::FxMap;
use super::{MetricError, SACREBLEU_VERSION, check_streams};

pub const MAX_NGRAM_ORDER: usize = 4;

/// sacrebleu's smoothing methods (Chen & Cherry 2014).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Smoothing {
    None,
    /// Method 1: a zero precision becomes `value / total` (default 0.1).
    Floor(f64),
    /// Method 2: adds `value` (default 1) to matches and totals of orders 2 and up.
    AddK(f64),
    /// Method 3 (NIST, mteval-v13a): the k-th zero precision becomes 1 / (2^k · total).
    Exp,
}

impl Smoothing {
    fn signature(&self) -> String {
        match self {
            Smoothing::None => "none".into(),
            Smoothing::Floor(v) => format!("floor[{v:.2}]"),
            Smoothing::AddK(v) => format!("add-k[{v:.2}]"),
            Smoothing::Exp => "exp".into(),
        }
    }
}

/// How BLEU is computed. [`Default`] is sacrebleu's corpus BLEU (`tok:13a|smooth:exp`, no
/// effective order); [`BleuConfig::sentence`] is its `sentence_bleu` (effective order on).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BleuConfig {
    pub tokenize: Tokenizer,
    pub lowercase: bool,
    pub smoothing: Smoothing,
    /// Stop at the last order with any n-gram in the hypothesis (sacrebleu's `effective_order`,
    /// recommended, and the default of `sentence_bleu`, for sentence-level BLEU).
    pub effective_order: bool,
}

impl Default for BleuConfig {
    fn default() -> Self {
        BleuConfig {
            tokenize: Tokenizer::Thirteen,
            lowercase: false,
            smoothing: Smoothing::Exp,
            effective_order: false,
        }
    }
}

impl BleuConfig {
    /// sacrebleu's `sentence_bleu` with this configuration's tokenizer and case: effective
    /// order on, `exp` smoothing.
    pub fn sentence(&self) -> BleuConfig {
        BleuConfig {
            effective_order: true,
            smoothing: Smoothing::Exp,
            ..self.clone()
        }
    }

    /// sacrebleu's signature, e.g. `nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3`.
    /// The version is the sacrebleu release whose behaviour Assay reproduces (and is checked
    /// against in `tests/fixtures/metrics`), not a version of Assay.
    pub fn signature(&self, nrefs: usize) -> String {
        format!(
            "nrefs:{nrefs}|case:{}|eff:{}|tok:{}|smooth:{}|version:{SACREBLEU_VERSION}",
            if self.lowercase { "lc" } else { "mixed" },
            if self.effective_order { "yes" } else { "no" },
            self.tokenize.name(),
            self.smoothing.signature()
        )
    }

    fn preprocess(&self, s: &str) -> String {
        if self.lowercase {
            self.tokenize.tokenize(py_rstrip(&s.to_lowercase()))
        } else {
            self.tokenize.tokenize(py_rstrip(s))
        }
    }
}

/// The sufficient statistics of one segment (or, summed, of a corpus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BleuStats {
    pub hyp_len: u64,
    pub ref_len: u64,
    /// Clipped n-gram matches of orders 1–4.
    pub correct: [u64; MAX_NGRAM_ORDER],
    /// Hypothesis n-grams of orders 1–4.
    pub total: [u64; MAX_NGRAM_ORDER],
}

impl std::ops::AddAssign for BleuStats {
    fn add_assign(&mut self, o: BleuStats) {
        self.hyp_len += o.hyp_len;
        self.ref_len += o.ref_len;
        for n in 0..MAX_NGRAM_ORDER {
            self.correct[n] += o.correct[n];
            self.total[n] += o.total[n];
        }
    }
}

/// Number of values in [`BleuStats::row`].
pub const BLEU_STATS_DIM: usize = 2 + 2 * MAX_NGRAM_ORDER;

impl BleuStats {
    /// `[hyp_len, ref_len, correct₁..₄, total₁..₄]` as floats, the row layout of
    /// `assay_stats::resample` (exact for counts below 2⁵³).
    pub fn row(&self) -> [f64; BLEU_STATS_DIM] {
        let mut r = [0.0; BLEU_STATS_DIM];
        r[0] = self.hyp_len as f64;
        r[1] = self.ref_len as f64;
        for n in 0..MAX_NGRAM_ORDER {
            r[2 + n] = self.correct[n] as f64;
            r[2 + MAX_NGRAM_ORDER + n] = self.total[n] as f64;
        }
        r
    }

    pub fn sum<'a>(stats: impl IntoIterator<Item = &'a BleuStats>) -> BleuStats {
        let mut s = BleuStats::default();
        for x in stats {
            s += *x;
        }
        s
    }
}

/// A BLEU score with what sacrebleu prints beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BleuScore {
    pub score: f64,
    /// Precisions in percent (after smoothing), orders 1–4.
    pub precisions: [f64; MAX_NGRAM_ORDER],
    pub bp: f64,
    pub stats: BleuStats,
}

/// sacrebleu's `my_log`: log, with log(0) floored to −9999999999.
fn my_log(x: f64) -> f64 {
    if x == 0.0 { -9_999_999_999.0 } else { x.ln() }
}

/// sacrebleu's `BLEU.compute_bleu` on (possibly real-valued, for add-k) statistics.
fn compute(
    correct: [f64; MAX_NGRAM_ORDER],
    total: [f64; MAX_NGRAM_ORDER],
    sys_len: f64,
    ref_len: f64,
    smoothing: Smoothing,
    effective_order: bool,
) -> (f64, [f64; MAX_NGRAM_ORDER], f64) {
    let (mut correct, mut total) = (correct, total);
    let bp = if sys_len < ref_len {
        if sys_len > 0.0 { (1.0 - ref_len / sys_len).exp() } else { 0.0 }
    } else {
        1.0
    };
    let mut precisions = [0.0; MAX_NGRAM_ORDER];
    if correct.iter().all(|&c| c == 0.0) {
        return (0.0, precisions, bp);
    }
    let mut smooth_mteval = 1.0;
    let mut eff_order = MAX_NGRAM_ORDER;
    for n in 1..=MAX_NGRAM_ORDER {
        if let Smoothing::AddK(k) = smoothing
            && n > 1
        {
            correct[n - 1] += k;
            total[n - 1] += k;
        }
        if total[n - 1] == 0.0 {
            break;
        }
        if effective_order {
            eff_order = n;
        }
        if correct[n - 1] == 0.0 {
            match smoothing {
                Smoothing::Exp => {
                    smooth_mteval *= 2.0;
                    precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1]);
                }
                Smoothing::Floor(v) => precisions[n - 1] = 100.0 * v / total[n - 1],
                _ => {}
            }
        } else {
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1];
        }
    }
    let mut sum = 0.0;
    for p in &precisions[..eff_order] {
        sum += my_log(*p);
    }
    (bp * (sum / eff_order as f64).exp(), precisions, bp)
}

/// BLEU from summed statistics.
pub fn bleu_from_stats(stats: &BleuStats, config: &BleuConfig) -> BleuScore {
    let (score, precisions, bp) = compute(
        stats.correct.map(|c| c as f64),
        stats.total.map(|c| c as f64),
        stats.hyp_len as f64,
        stats.ref_len as f64,
        config.smoothing,
        config.effective_order,
    );
    BleuScore {
        score,
        precisions,
        bp,
        stats: *stats,
    }
}

/// BLEU from column sums of [`BleuStats::row`]s (the `metric` of `assay_stats::resample`).
pub fn bleu_from_sums(sums: &[f64], config: &BleuConfig) -> f64 {
    let mut correct = [0.0; MAX_NGRAM_ORDER];
    let mut total = [0.0; MAX_NGRAM_ORDER];
    correct.copy_from_slice(&sums[2..2 + MAX_NGRAM_ORDER]);
    total.copy_from_slice(&sums[2 + MAX_NGRAM_ORDER..BLEU_STATS_DIM]);
    compute(correct, total, sums[0], sums[1], config.smoothing, config.effective_order).0
}

type Counts<'a> = FxMap<&'a [&'a str], u64>;

fn ngrams<'a>(tokens: &'a [&'a str]) -> Counts<'a> {
    let mut c: Counts = FxMap::default();
    c.reserve(tokens.len() * MAX_NGRAM_ORDER);
    for n in 1..=MAX_NGRAM_ORDER.min(tokens.len()) {
        for w in tokens.windows(n) {
            *c.entry(w).or_insert(0) += 1;
        }
    }
    c
}

/// The statistics of one hypothesis against its references (already preprocessed).
fn segment_stats(hyp: &str, refs: &[String]) -> BleuStats {
    let ref_tokens: Vec<Vec<&str>> = refs.iter().map(|r| py_split(r).collect()).collect();
    let mut ref_counts: Counts = FxMap::default();
    for t in &ref_tokens {
        for (g, c) in ngrams(t) {
            let e = ref_counts.entry(g).or_insert(0);
            *e = (*e).max(c);
        }
    }
    let hyp_tokens: Vec<&str> = py_split(hyp).collect();
    let hyp_len = hyp_tokens.len() as u64;
    // The closest reference length; the shorter one on a tie.
    let mut closest: Option<(u64, u64)> = None;
    for t in &ref_tokens {
        let len = t.len() as u64;
        let diff = len.abs_diff(hyp_len);
        closest = match closest {
            Some((d, l)) if d < diff || (d == diff && l <= len) => Some((d, l)),
            _ => Some((diff, len)),
        };
    }
    let mut s = BleuStats {
        hyp_len,
        ref_len: closest.map_or(0, |(_, l)| l),
        ..BleuStats::default()
    };
    for (g, c) in ngrams(&hyp_tokens) {
        let n = g.len() - 1;
        s.total[n] += c;
        if let Some(r) = ref_counts.get(g) {
            s.correct[n] += c.min(*r);
        }
    }
    s
}

/// Per-segment statistics of a system's output: `refs[k][i]` is reference stream k's segment i.
pub fn segment_statistics(
    hyps: &[String],
    refs: &[Vec<String>],
    config: &BleuConfig,
) -> Result<Vec<BleuStats>, MetricError> {
    check_streams(hyps, refs)?;
    Ok(hyps
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let r: Vec<String> = refs.iter().map(|s| config.preprocess(&s[i])).collect();
            segment_stats(&config.preprocess(h), &r)
        })
        .collect())
}

/// Corpus BLEU (sacrebleu's `corpus_bleu` / `BLEU().corpus_score`).
pub fn corpus_bleu(
    hyps: &[String],
    refs: &[Vec<String>],
    config: &BleuConfig,
) -> Result<BleuScore, MetricError> {
    let stats = segment_statistics(hyps, refs, config)?;
    Ok(bleu_from_stats(&BleuStats::sum(&stats), config))
}

/// Sentence BLEU of every segment with `config` as given (use [`BleuConfig::sentence`] for
/// sacrebleu's `sentence_bleu`).
pub fn sentence_bleus(
    hyps: &[String],
    refs: &[Vec<String>],
    config: &BleuConfig,
) -> Result<Vec<BleuScore>, MetricError> {
    Ok(segment_statistics(hyps, refs, config)?
        .iter()
        .map(|s| bleu_from_stats(s, config))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn identical_text_scores_100_and_empty_scores_0() {
        let refs = vec![s(&["the cat sat on the mat today"])];
        let b = corpus_bleu(&s(&["the cat sat on the mat today"]), &refs, &BleuConfig::default()).unwrap();
        assert!((b.score - 100.0).abs() < 1e-12);
        let e = corpus_bleu(&s(&[""]), &refs, &BleuConfig::default()).unwrap();
        assert_eq!(e.score, 0.0);
        assert_eq!(e.stats.hyp_len, 0);
        assert_eq!(e.stats.ref_len, 7);
    }

    #[test]
    fn closest_reference_length_prefers_the_shorter_on_a_tie() {
        let refs = vec![s(&["a b c d e f"]), s(&["a b c d"])];
        let st = segment_statistics(&s(&["a b c d e"]), &refs, &BleuConfig::default()).unwrap();
        assert_eq!(st[0].ref_len, 4);
    }

    #[test]
    fn sums_and_rows_agree() {
        let refs = vec![s(&["one two three four five", "six seven eight"])];
        let hyps = s(&["one two three four", "six eight seven"]);
        let c = BleuConfig::default();
        let st = segment_statistics(&hyps, &refs, &c).unwrap();
        let mut sums = [0.0; BLEU_STATS_DIM];
        for x in &st {
            for (k, v) in x.row().iter().enumerate() {
                sums[k] += v;
            }
        }
        assert_eq!(bleu_from_sums(&sums, &c), corpus_bleu(&hyps, &refs, &c).unwrap().score);
    }
}

/// Throughput, for BENCHMARKS.md: `cargo test --release -p assay-core --lib
/// metrics::bleu::throughput -- --ignored --nocapture`.
#[cfg(test)]
mod throughput {
    use super::*;

    #[test]
    #[ignore = "a measurement, run by hand in release mode"]
    fn one_million_segments() {
        let words = ["the", "house", "of", "commons", "voted", "on", "Tuesday", "to", "approve", "a", "new", "budget,", "which", "includes", "3.5%", "more", "for", "schools", "and", "hospitals."];
        let line = |seed: usize, len: usize| -> String {
            (0..len).map(|k| words[(seed * 31 + k * 7 + (seed ^ k) % 5) % words.len()]).collect::<Vec<_>>().join(" ")
        };
        let n = 1_000_000;
        let hyps: Vec<String> = (0..n).map(|i| line(i, 20 + i % 15)).collect();
        let refs = vec![(0..n).map(|i| line(i + 1, 22 + i % 13)).collect::<Vec<_>>()];
        let t = std::time::Instant::now();
        let b = corpus_bleu(&hyps, &refs, &BleuConfig::default()).unwrap();
        let bleu_s = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        let c = crate::metrics::chrf::corpus_chrf(&hyps, &refs, &crate::metrics::chrf::ChrfConfig::chrf()).unwrap();
        let chrf_s = t.elapsed().as_secs_f64();
        println!("1M segments (~27 tokens, 1 reference): BLEU {bleu_s:.1} s ({:.2}), chrF {chrf_s:.1} s ({c:.2})", b.score);
        assert!(b.score > 0.0 && c > 0.0);
    }
}
