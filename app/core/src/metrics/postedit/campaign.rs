//! A post-editing campaign's answers analysed: HTER per post-edit (sacrebleu's TER of the
//! output against its post-edit, [`crate::metrics::hter`]), per system (corpus-level, with a
//! seeded percentile bootstrap interval over segments) and the systems' rank ranges; each
//! worker's degraded copies against their originals (the copy must be edited more).
//!
//! Only real items (`SYSTEM`) of the workers kept count in the systems' HTER; quality-control
//! answers (degraded copies, repeats) never do. Who is kept is the caller's (the campaign's
//! quality control, the same paired test on scores the quality gate runs); a file read by
//! `assay analyze --input` has no quality-control items and keeps everyone.
//!
//! Rank ranges: a system's best rank is 1 + the number of systems whose interval lies wholly
//! below its own (fewer edits, better), its worst rank the number of systems minus those whose
//! interval lies wholly above; without intervals (no bootstrap), each system's range is its
//! place in the order.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::metrics::hter::{HterError, HterSettings, PostEdit as HterPostEdit, SegmentHter, hter_by_system, segment_hter};
use crate::model::ItemType;
pub use crate::protocol::postedit::{CopyCheck, SystemRow};

/// One stored post-edit, as the loader (or a file) gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPostEdit {
    /// The worker (`platform:external id`).
    pub worker: String,
    pub item_type: ItemType,
    /// The segment (its id): a system's interval resamples segments.
    pub segment: String,
    pub system: String,
    /// The text shown (for a degraded copy, the copy).
    pub output: String,
    pub post_edit: String,
    pub edit_ms: Option<u64>,
}

/// One post-edit's HTER.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentRow {
    pub segment: String,
    pub system: String,
    pub worker: String,
    pub hter: SegmentHter,
}

/// A post-editing campaign (or file) analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignPostEdits {
    pub pair: String,
    /// Best first (lowest HTER).
    pub systems: Vec<SystemRow>,
    pub segments: Vec<SegmentRow>,
    pub workers: Vec<CopyCheck>,
    /// Real post-edits counted, and those of workers left out.
    pub post_edits_kept: usize,
    pub post_edits_left_out: usize,
}

/// Why no table could be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PostEditError {
    #[error("no post-edit of a system output to compute HTER from")]
    NoPostEdits,
    #[error("{0}")]
    Hter(#[from] HterError),
}

fn median(mut v: Vec<u64>) -> Option<u64> {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2),
    }
}

/// Each worker's degraded copies against their own post-edit of the original.
pub fn copy_checks(answers: &[StoredPostEdit], left_out: &BTreeSet<String>, settings: &HterSettings) -> Vec<CopyCheck> {
    let mut originals: BTreeMap<(&str, &str, &str), f64> = BTreeMap::new();
    for a in answers.iter().filter(|a| a.item_type == ItemType::System) {
        originals.entry((&a.worker, &a.segment, &a.system)).or_insert_with(|| segment_hter(&a.output, &a.post_edit, &settings.ter).hter);
    }
    let workers: BTreeSet<&str> = answers.iter().map(|a| a.worker.as_str()).collect();
    workers
        .into_iter()
        .map(|w| {
            let diffs: Vec<f64> = answers
                .iter()
                .filter(|a| a.worker == w && a.item_type == ItemType::BadRef)
                .filter_map(|a| originals.get(&(w, a.segment.as_str(), a.system.as_str())).map(|o| segment_hter(&a.output, &a.post_edit, &settings.ter).hter - o))
                .collect();
            CopyCheck {
                worker: w.to_string(),
                pairs: diffs.len(),
                edited_more: diffs.iter().filter(|d| **d > 0.0).count(),
                edited_less: diffs.iter().filter(|d| **d < 0.0).count(),
                mean_difference: (!diffs.is_empty()).then(|| diffs.iter().sum::<f64>() / diffs.len() as f64),
                kept: !left_out.contains(w),
            }
        })
        .collect()
}

/// Analyses the post-edits of one language pair; `left_out`: the workers whose post-edits do
/// not count (the campaign's quality control).
pub fn analyse(pair: &str, answers: &[StoredPostEdit], left_out: &BTreeSet<String>, settings: &HterSettings) -> Result<CampaignPostEdits, PostEditError> {
    let real: Vec<&StoredPostEdit> = answers.iter().filter(|a| a.item_type == ItemType::System).collect();
    let kept: Vec<&StoredPostEdit> = real.iter().copied().filter(|a| !left_out.contains(&a.worker)).collect();
    if kept.is_empty() {
        return Err(PostEditError::NoPostEdits);
    }
    let input: Vec<(&str, HterPostEdit<'_>)> =
        kept.iter().map(|a| (a.system.as_str(), HterPostEdit { segment: &a.segment, output: &a.output, post_edit: &a.post_edit })).collect();
    let by_system = hter_by_system(&input, settings)?;
    let mut systems: Vec<SystemRow> = by_system
        .into_iter()
        .map(|(name, s)| SystemRow {
            system: name.to_string(),
            hter: s.hter,
            ci_low: s.interval.as_ref().map(|i| i.lower),
            ci_high: s.interval.as_ref().map(|i| i.upper),
            rank_low: 0,
            rank_high: 0,
            edits: s.edits,
            words: s.words,
            mean_segment_hter: s.mean_segment_hter,
            segments: s.segments,
            post_edits: s.post_edits,
            median_edit_ms: median(kept.iter().filter(|a| a.system == name).filter_map(|a| a.edit_ms).collect()),
        })
        .collect();
    systems.sort_by(|a, b| a.hter.total_cmp(&b.hter).then_with(|| a.system.cmp(&b.system)));
    let n = systems.len();
    let bounds: Vec<Option<(f64, f64)>> = systems.iter().map(|s| s.ci_low.zip(s.ci_high)).collect();
    for (i, row) in systems.iter_mut().enumerate() {
        match bounds[i] {
            Some((lo, hi)) => {
                let below = bounds.iter().filter(|b| b.is_some_and(|(_, h)| h < lo)).count();
                let above = bounds.iter().filter(|b| b.is_some_and(|(l, _)| l > hi)).count();
                row.rank_low = 1 + below;
                row.rank_high = n - above;
            }
            None => {
                row.rank_low = i + 1;
                row.rank_high = i + 1;
            }
        }
    }
    let segments = kept
        .iter()
        .map(|a| SegmentRow { segment: a.segment.clone(), system: a.system.clone(), worker: a.worker.clone(), hter: segment_hter(&a.output, &a.post_edit, &settings.ter) })
        .collect();
    Ok(CampaignPostEdits {
        pair: pair.to_string(),
        systems,
        segments,
        workers: copy_checks(answers, left_out, settings),
        post_edits_kept: kept.len(),
        post_edits_left_out: real.len() - kept.len(),
    })
}

/// The post-edits of each system as new references: one line per segment of `segments` (in
/// that order), the first kept real post-edit of the segment (in `answers`' order), an empty
/// line where the system has none.
pub fn references<'a>(answers: &'a [StoredPostEdit], left_out: &BTreeSet<String>, segments: &[String]) -> BTreeMap<&'a str, Vec<&'a str>> {
    let mut first: BTreeMap<(&str, &str), &str> = BTreeMap::new();
    for a in answers.iter().filter(|a| a.item_type == ItemType::System && !left_out.contains(&a.worker)) {
        first.entry((&a.system, &a.segment)).or_insert(&a.post_edit);
    }
    let systems: BTreeSet<&str> = first.keys().map(|(s, _)| *s).collect();
    systems.into_iter().map(|s| (s, segments.iter().map(|g| first.get(&(s, g.as_str())).copied().unwrap_or("")).collect())).collect()
}
