//! chrF (Popović 2015) and chrF++ (Popović 2017) exactly as sacrebleu
//! [`super::SACREBLEU_VERSION`] computes them: character n-grams of orders 1–6 over the text
//! with whitespace removed (Python's notion of whitespace), word n-grams of orders 1–`word_order`
//! over whitespace-separated words with one leading or trailing ASCII punctuation mark split
//! off, β = 2, per-order statistics (hypothesis, reference and matched n-grams) summed over the
//! corpus, and the best reference per segment by its own F-score.
//!
//! sacrebleu's default (`eff:yes`) averages precision and recall over the orders that have
//! n-grams on both sides before taking the F-score; `eps_smoothing` (`eff:no`, chrF++.py's,
//! NLTK's and Moses' way) averages per-order F-scores with ε = 1e-16 for an empty order.

use serde::{Deserialize, Serialize};

use super::tokenize::py_split;
use crate::analysis::FxMap;
use super::{MetricError, SACREBLEU_VERSION, check_streams};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChrfConfig {
    pub char_order: usize,
    /// 0 for chrF, 2 for chrF++.
    pub word_order: usize,
    pub beta: u32,
    pub lowercase: bool,
    pub eps_smoothing: bool,
}

impl ChrfConfig {
    /// sacrebleu's `CHRF()`: chrF2, character order 6, no words.
    pub fn chrf() -> ChrfConfig {
        ChrfConfig {
            char_order: 6,
            word_order: 0,
            beta: 2,
            lowercase: false,
            eps_smoothing: false,
        }
    }

    /// sacrebleu's `CHRF(word_order=2)`: chrF++.
    pub fn chrf_plus_plus() -> ChrfConfig {
        ChrfConfig {
            word_order: 2,
            ..ChrfConfig::chrf()
        }
    }

    fn order(&self) -> usize {
        self.char_order + self.word_order
    }

    /// sacrebleu's signature, e.g. `nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3`
    /// (the version is that of the sacrebleu release whose behaviour Assay reproduces).
    pub fn signature(&self, nrefs: usize) -> String {
        format!(
            "nrefs:{nrefs}|case:{}|eff:{}|nc:{}|nw:{}|space:no|version:{SACREBLEU_VERSION}",
            if self.lowercase { "lc" } else { "mixed" },
            if self.eps_smoothing { "no" } else { "yes" },
            self.char_order,
            self.word_order
        )
    }

    /// The score's name as sacrebleu prints it: `chrF2`, `chrF2++`.
    pub fn name(&self) -> String {
        format!("chrF{}{}", self.beta, "+".repeat(self.word_order))
    }
}

/// Per-order statistics `[hyp, ref, match]` × (char_order + word_order), summable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChrfStats(pub Vec<u64>);

impl ChrfStats {
    pub fn sum<'a>(stats: impl IntoIterator<Item = &'a ChrfStats>) -> ChrfStats {
        let mut out: Vec<u64> = Vec::new();
        for s in stats {
            if out.is_empty() {
                out = vec![0; s.0.len()];
            }
            for (o, v) in out.iter_mut().zip(&s.0) {
                *o += v;
            }
        }
        ChrfStats(out)
    }
}

/// sacrebleu's `CHRF._compute_f_score` on (possibly real-valued) statistics.
pub fn f_score(stats: &[f64], config: &ChrfConfig) -> f64 {
    let eps = 1e-16;
    let factor = (config.beta * config.beta) as f64;
    let (mut score, mut avg_prec, mut avg_rec, mut effective) = (0.0, 0.0, 0.0, 0usize);
    for i in 0..config.order() {
        let (n_hyp, n_ref, n_match) = (stats[3 * i], stats[3 * i + 1], stats[3 * i + 2]);
        let prec = if n_hyp > 0.0 { n_match / n_hyp } else { eps };
        let rec = if n_ref > 0.0 { n_match / n_ref } else { eps };
        let denom = factor * prec + rec;
        score += if denom > 0.0 { (1.0 + factor) * prec * rec / denom } else { eps };
        if n_hyp > 0.0 && n_ref > 0.0 {
            avg_prec += prec;
            avg_rec += rec;
            effective += 1;
        }
    }
    if config.eps_smoothing {
        return 100.0 * score / config.order() as f64;
    }
    if effective == 0 {
        avg_prec = 0.0;
        avg_rec = 0.0;
    } else {
        avg_prec /= effective as f64;
        avg_rec /= effective as f64;
    }
    if avg_prec + avg_rec != 0.0 {
        let s = (1.0 + factor) * avg_prec * avg_rec;
        100.0 * (s / (factor * avg_prec + avg_rec))
    } else {
        0.0
    }
}

/// chrF from summed statistics.
pub fn chrf_from_stats(stats: &ChrfStats, config: &ChrfConfig) -> f64 {
    let v: Vec<f64> = stats.0.iter().map(|&x| x as f64).collect();
    f_score(&v, config)
}

const PUNCTS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// sacrebleu's `_remove_punctuation`: one trailing (else one leading) punctuation mark of a
/// word of two or more characters becomes a word of its own.
fn words(sent: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for w in py_split(sent) {
        let mut chars = w.char_indices();
        let first = chars.next();
        let last = w.char_indices().next_back();
        match (first, last) {
            (Some((_, f)), Some((li, l))) if li > 0 => {
                if PUNCTS.contains(l) {
                    out.push(&w[..li]);
                    out.push(&w[li..]);
                } else if PUNCTS.contains(f) {
                    let split = f.len_utf8();
                    out.push(&w[..split]);
                    out.push(&w[split..]);
                } else {
                    out.push(w);
                }
            }
            _ => out.push(w),
        }
    }
    out
}

/// One segment's units: its characters without whitespace, and its words (as ids shared by
/// the hypothesis and the references of the segment).
struct Units {
    chars: Vec<u32>,
    words: Vec<u32>,
}

fn units<'a>(sent: &'a str, config: &ChrfConfig, word_ids: &mut FxMap<&'a str, u32>) -> Units {
    let chars = py_split(sent).flat_map(|w| w.chars()).map(|c| c as u32).collect();
    let words = if config.word_order > 0 {
        words(sent)
            .into_iter()
            .map(|w| {
                let next = word_ids.len() as u32;
                *word_ids.entry(w).or_insert(next)
            })
            .collect()
    } else {
        Vec::new()
    };
    Units { chars, words }
}

type Counts<'a> = FxMap<&'a [u32], u64>;

fn count_windows(seq: &[u32], n: usize) -> Counts<'_> {
    let mut m: Counts = FxMap::default();
    if seq.len() >= n {
        m.reserve(seq.len() + 1 - n);
        for w in seq.windows(n) {
            *m.entry(w).or_insert(0) += 1;
        }
    }
    m
}

/// N-gram counters: `char_order` character orders, then `word_order` word ones.
fn grams<'a>(u: &'a Units, config: &ChrfConfig) -> Vec<Counts<'a>> {
    let mut orders = Vec::with_capacity(config.order());
    for n in 1..=config.char_order {
        orders.push(count_windows(&u.chars, n));
    }
    for n in 1..=config.word_order {
        orders.push(count_windows(&u.words, n));
    }
    orders
}

fn match_stats(hyp: &[Counts], reference: &[Counts]) -> Vec<u64> {
    let mut out = Vec::with_capacity(3 * hyp.len());
    for (h, r) in hyp.iter().zip(reference) {
        let (mut matched, mut n_hyp) = (0, 0);
        for (g, c) in h {
            n_hyp += c;
            if let Some(rc) = r.get(g) {
                matched += (*c).min(*rc);
            }
        }
        out.push(if r.is_empty() { 0 } else { n_hyp });
        out.push(r.values().sum());
        out.push(matched);
    }
    out
}

fn preprocess(s: &str, config: &ChrfConfig) -> String {
    if config.lowercase { s.to_lowercase() } else { s.to_string() }
}

/// Per-segment statistics of a system's output: `refs[k][i]` is reference stream k's segment i.
pub fn segment_statistics(
    hyps: &[String],
    refs: &[Vec<String>],
    config: &ChrfConfig,
) -> Result<Vec<ChrfStats>, MetricError> {
    check_streams(hyps, refs)?;
    if config.order() == 0 || config.beta == 0 {
        return Err(MetricError::Invalid("chrF needs an n-gram order and β ≥ 1".into()));
    }
    Ok(hyps
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let hyp = preprocess(h, config);
            let refs: Vec<String> = refs.iter().map(|stream| preprocess(&stream[i], config)).collect();
            let mut word_ids = FxMap::default();
            let hu = units(&hyp, config, &mut word_ids);
            let ru: Vec<Units> = refs.iter().map(|r| units(r, config, &mut word_ids)).collect();
            let hg = grams(&hu, config);
            let mut best: Option<(f64, Vec<u64>)> = None;
            for u in &ru {
                let st = match_stats(&hg, &grams(u, config));
                let f = f_score(&st.iter().map(|&x| x as f64).collect::<Vec<_>>(), config);
                if best.as_ref().is_none_or(|(b, _)| f > *b) {
                    best = Some((f, st));
                }
            }
            ChrfStats(best.map(|(_, s)| s).unwrap_or_default())
        })
        .collect())
}

/// Corpus chrF (sacrebleu's `corpus_chrf` / `CHRF().corpus_score`).
pub fn corpus_chrf(hyps: &[String], refs: &[Vec<String>], config: &ChrfConfig) -> Result<f64, MetricError> {
    let stats = segment_statistics(hyps, refs, config)?;
    Ok(chrf_from_stats(&ChrfStats::sum(&stats), config))
}

/// chrF of every segment on its own (sacrebleu's `sentence_chrf`).
pub fn sentence_chrfs(hyps: &[String], refs: &[Vec<String>], config: &ChrfConfig) -> Result<Vec<f64>, MetricError> {
    Ok(segment_statistics(hyps, refs, config)?
        .iter()
        .map(|s| chrf_from_stats(s, config))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_is_split_once() {
        assert_eq!(words("Hello, world! (x) .. a"), ["Hello", ",", "world", "!", "(x", ")", ".", ".", "a"]);
    }

    #[test]
    fn identical_is_100() {
        let h = vec!["Ein kleiner Test.".to_string()];
        let r = vec![h.clone()];
        for c in [ChrfConfig::chrf(), ChrfConfig::chrf_plus_plus()] {
            assert!((corpus_chrf(&h, &r, &c).unwrap() - 100.0).abs() < 1e-12);
        }
    }
}
