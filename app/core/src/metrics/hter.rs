//! HTER, the human-targeted translation edit rate (Snover et al., 2006): the TER of a system's
//! output against a person's post-edit of it, the post-edit standing as the reference. TER is
//! sacrebleu's ([`super::ter`], its options in [`TerConfig`]); scores are on its scale, edits
//! per 100 post-edited words.
//!
//! - per segment, [`segment_hter`]: one output against one post-edit;
//! - per system, [`system_hter`]: corpus-level, as sacrebleu's corpus TER: the edits of all the
//!   system's post-edits over all their words (one post-edit per output and annotator; several
//!   post-edits of one output each count), beside the mean of the segment HTERs; with a
//!   percentile bootstrap interval ([`assay_stats::resample::bootstrap_ci`], seeded) that
//!   resamples *segments*, each with all its post-edits (the post-edits of one segment are not
//!   independent).
//!
//! A pure function for the post-editing protocol to call on its stored answers.

use std::collections::BTreeMap;

use assay_stats::StatsError;
use assay_stats::resample::{BootstrapCi, bootstrap_ci};
use serde::{Deserialize, Serialize};

use super::ter::{TerConfig, TerStats, translation_edit_rate};
use super::tokenize::py_split;

/// One post-edit of a system's output of a segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostEdit<'a> {
    /// The segment (its id): post-edits of the same segment are resampled together.
    pub segment: &'a str,
    /// The system's output as the annotator saw it.
    pub output: &'a str,
    /// The annotator's post-edit.
    pub post_edit: &'a str,
}

/// The statistics of one output against its post-edit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentHter {
    pub edits: u64,
    /// Words of the post-edit (after TER's tokenization).
    pub words: usize,
    /// Edits per 100 post-edit words (100 for words against an empty post-edit, 0 when both
    /// are empty).
    pub hter: f64,
}

/// TER's words of a line as sacrebleu reads them (trailing whitespace stripped, tokenized).
fn words(line: &str, config: &TerConfig) -> Vec<String> {
    py_split(&config.tokenize(super::tokenize::py_rstrip(line))).map(str::to_string).collect()
}

/// HTER of one output against its post-edit: sacrebleu's sentence TER with the post-edit as
/// the only reference.
pub fn segment_hter(output: &str, post_edit: &str, config: &TerConfig) -> SegmentHter {
    let (edits, len) = translation_edit_rate(&words(output, config), &words(post_edit, config));
    SegmentHter { edits, words: len, hter: TerStats { edits, ref_len: len as f64 }.score() }
}

/// How a system's HTER is computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HterSettings {
    pub ter: TerConfig,
    /// Bootstrap resamples of the interval; 0: no interval.
    pub samples: usize,
    pub confidence: f64,
    pub seed: u64,
}

impl Default for HterSettings {
    fn default() -> Self {
        HterSettings { ter: TerConfig::default(), samples: 1000, confidence: 0.95, seed: 1 }
    }
}

/// A system's HTER.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemHter {
    /// Corpus-level: all edits over all post-edit words, × 100.
    pub hter: f64,
    pub edits: u64,
    pub words: usize,
    /// The mean of the post-edits' own HTERs.
    pub mean_segment_hter: f64,
    /// Distinct segments.
    pub segments: usize,
    pub post_edits: usize,
    /// Percentile bootstrap interval of [`SystemHter::hter`] over resampled segments
    /// (`None` with 0 samples).
    pub interval: Option<BootstrapCi>,
    /// Each post-edit's statistics, in input order.
    pub per_post_edit: Vec<SegmentHter>,
}

/// Why a system's HTER could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HterError {
    #[error("no post-edit to compute HTER from")]
    NoPostEdits,
    #[error("HTER's bootstrap: {0}")]
    Bootstrap(#[from] StatsError),
}

/// A system's HTER over its post-edits (see the module's text).
pub fn system_hter(post_edits: &[PostEdit<'_>], settings: &HterSettings) -> Result<SystemHter, HterError> {
    if post_edits.is_empty() {
        return Err(HterError::NoPostEdits);
    }
    let per: Vec<SegmentHter> = post_edits.iter().map(|p| segment_hter(p.output, p.post_edit, &settings.ter)).collect();
    // Segments in order of first appearance, each with its post-edits' statistics summed.
    let mut order: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_segment: Vec<TerStats> = Vec::new();
    for (p, s) in post_edits.iter().zip(&per) {
        let k = *order.entry(p.segment).or_insert_with(|| {
            by_segment.push(TerStats::default());
            by_segment.len() - 1
        });
        by_segment[k].edits += s.edits;
        by_segment[k].ref_len += s.words as f64;
    }
    let total = TerStats::sum(&by_segment);
    let interval = if settings.samples == 0 {
        None
    } else {
        Some(bootstrap_ci(
            by_segment.len(),
            |idx| TerStats::sum(idx.iter().map(|&i| &by_segment[i])).score(),
            settings.confidence,
            settings.samples,
            settings.seed,
        )?)
    };
    Ok(SystemHter {
        hter: total.score(),
        edits: total.edits,
        words: per.iter().map(|s| s.words).sum(),
        mean_segment_hter: per.iter().map(|s| s.hter).sum::<f64>() / per.len() as f64,
        segments: by_segment.len(),
        post_edits: per.len(),
        interval,
        per_post_edit: per,
    })
}

/// [`system_hter`] of every system of `post_edits` (`(system, post-edit)`), by system name;
/// the same seed for each, so a system's interval does not depend on the others.
pub fn hter_by_system<'a>(post_edits: &[(&'a str, PostEdit<'a>)], settings: &HterSettings) -> Result<BTreeMap<&'a str, SystemHter>, HterError> {
    let mut grouped: BTreeMap<&str, Vec<PostEdit<'a>>> = BTreeMap::new();
    for (system, p) in post_edits {
        grouped.entry(system).or_default().push(*p);
    }
    if grouped.is_empty() {
        return Err(HterError::NoPostEdits);
    }
    grouped.into_iter().map(|(s, p)| Ok((s, system_hter(&p, settings)?))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ter::corpus_ter;

    fn pe<'a>(segment: &'a str, output: &'a str, post_edit: &'a str) -> PostEdit<'a> {
        PostEdit { segment, output, post_edit }
    }

    #[test]
    fn a_segment_is_sentence_ter_against_its_post_edit() {
        let s = segment_hter("the cat sat on mat", "The cat sat on the mat.", &TerConfig::default());
        // lowercased; "mat" → "the", insert "mat." (2 edits over 6 words).
        assert_eq!((s.edits, s.words), (2, 6));
        assert_eq!(s.hter, 100.0 * (2.0 / 6.0));
        // Untouched: 0. Emptied: 100. Both empty: 0.
        assert_eq!(segment_hter("Good as it is.", "Good as it is.", &TerConfig::default()).hter, 0.0);
        assert_eq!(segment_hter("delete all of this", "", &TerConfig::default()), SegmentHter { edits: 4, words: 0, hter: 100.0 });
        assert_eq!(segment_hter("", "", &TerConfig::default()).hter, 0.0);
        // Case counts when asked.
        assert_eq!(segment_hter("Paris", "paris", &TerConfig { case_sensitive: true, ..TerConfig::default() }).edits, 1);
    }

    #[test]
    fn a_system_is_corpus_ter_with_post_edits_as_references() {
        let outputs = ["a b c d", "we meet tomorrow", "x y", ""];
        let edits = ["c d a b", "we will meet tomorrow", "x y", "added words"];
        let p: Vec<PostEdit> = (0..4).map(|i| pe(["1", "2", "3", "4"][i], outputs[i], edits[i])).collect();
        let s = system_hter(&p, &HterSettings { samples: 200, ..HterSettings::default() }).unwrap();
        // The same number as sacrebleu's corpus TER with the post-edits as the reference.
        let hyps: Vec<String> = outputs.iter().map(|s| s.to_string()).collect();
        let refs = vec![edits.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
        let (ter, stats) = corpus_ter(&hyps, &refs, &TerConfig::default()).unwrap();
        assert_eq!(s.hter, ter);
        assert_eq!((s.edits, s.words as f64), (stats.edits, stats.ref_len));
        // 1 shift + 1 insertion + 0 + 2 insertions over 4 + 4 + 2 + 2 words.
        assert_eq!((s.edits, s.words), (4, 12));
        assert_eq!(s.mean_segment_hter, (25.0 + 25.0 + 0.0 + 100.0) / 4.0);
        let ci = s.interval.unwrap();
        assert!(ci.lower <= s.hter && s.hter <= ci.upper && ci.lower < ci.upper, "{ci:?}");
        assert!(ci.lower >= 0.0);
        assert_eq!(ci.estimate, s.hter);
        // Seeded: the same interval again.
        assert_eq!(system_hter(&p, &HterSettings { samples: 200, ..HterSettings::default() }).unwrap().interval, Some(ci));
    }

    #[test]
    fn post_edits_of_one_segment_are_resampled_together() {
        // Two annotators of one segment and one of another: two resampling units.
        let p = [pe("s1", "a b c", "a b c"), pe("s1", "a b c", "a x c"), pe("s2", "d e", "f g")];
        let s = system_hter(&p, &HterSettings { samples: 500, ..HterSettings::default() }).unwrap();
        assert_eq!((s.segments, s.post_edits), (2, 3));
        assert_eq!((s.edits, s.words), (3, 8));
        // A resample holds s1 twice (1/6 → 16.67), s2 twice (100) or one of each (3/8 → 37.5):
        // nothing else can come out.
        let ci = s.interval.unwrap();
        for v in [ci.lower, ci.upper] {
            assert!([100.0 / 6.0, 37.5, 100.0].iter().any(|x| (v - x).abs() < 1e-9), "{v}");
        }
        assert!((ci.lower - 100.0 / 6.0).abs() < 1e-9 && (ci.upper - 100.0).abs() < 1e-9, "{ci:?}");
    }

    #[test]
    fn tiny_tied_and_empty_inputs() {
        // One post-edit: the interval is the point.
        let one = system_hter(&[pe("1", "a b", "a c")], &HterSettings::default()).unwrap();
        let ci = one.interval.unwrap();
        assert_eq!((one.hter, ci.lower, ci.upper), (50.0, 50.0, 50.0));
        // Every post-edit untouched: 0 everywhere.
        let zero = system_hter(&[pe("1", "a", "a"), pe("2", "b c", "b c")], &HterSettings::default()).unwrap();
        assert_eq!((zero.hter, zero.interval.as_ref().unwrap().lower, zero.interval.as_ref().unwrap().upper), (0.0, 0.0, 0.0));
        // Two systems tied: the same HTER and, with the same seed and shape, the same interval.
        let all = [("A", pe("1", "a b", "a c")), ("B", pe("1", "x y", "x z")), ("A", pe("2", "c", "c")), ("B", pe("2", "w", "w"))];
        let by = hter_by_system(&all, &HterSettings::default()).unwrap();
        assert_eq!(by.keys().copied().collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(by["A"].hter, by["B"].hter);
        assert_eq!(by["A"].interval, by["B"].interval);
        // No interval when no resample is asked for.
        assert_eq!(system_hter(&[pe("1", "a", "b")], &HterSettings { samples: 0, ..HterSettings::default() }).unwrap().interval, None);
        // Nothing to compute from, or a bad confidence: typed errors.
        assert_eq!(system_hter(&[], &HterSettings::default()).unwrap_err(), HterError::NoPostEdits);
        assert_eq!(hter_by_system(&[], &HterSettings::default()).unwrap_err(), HterError::NoPostEdits);
        assert!(matches!(system_hter(&[pe("1", "a", "b")], &HterSettings { confidence: 1.5, ..HterSettings::default() }), Err(HterError::Bootstrap(_))));
        // Only empty post-edits of non-empty outputs: 100, as sacrebleu scores an empty reference.
        assert_eq!(system_hter(&[pe("1", "a b", "")], &HterSettings::default()).unwrap().hter, 100.0);
    }
}
