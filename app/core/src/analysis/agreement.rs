//! The agreement report of a campaign (issue 6, item 6): how consistent each worker is with
//! themselves (intra-annotator, from repeated items) and how much workers agree with each
//! other (inter-annotator, from items judged by several workers).
//!
//! An *item* is a system output: (task, language pair, system, segment). Its judgments are the
//! SYSTEM and REPEAT judgments of that output (QC items — bad references, references — are not
//! items here). Within an item every unordered pair of judgments counts once: by the same worker
//! towards `intra`, by two workers towards `inter` (the WMT 2012 convention, which
//! [`assay_stats::agreement::agreement`] also follows).
//!
//! - **DA** (continuous 0–100): Pearson's r over the pairs and the mean absolute difference.
//!   Intra pairs are (earlier, later) judgment; inter pairs have no order, so each enters r in
//!   both orders (the symmetric, intraclass-style correlation: r does not depend on which worker
//!   is called first).
//! - **Word order** (five boxes 0, 0.25, …, 1): Cohen's κ with P(E) from the data over the five
//!   categories, and P(A); the mean absolute difference on the 0–1 scale too.

use super::{FxMap, Judgment, JudgmentSet};
pub use crate::report::{GroupAgreement, PairFigures, Scale};
use crate::model::ItemType;
use assay_stats::agreement::{LabelledJudgment, agreement as kappa_agreement};

/// Pair statistics kept as sums, so that an item judged m times costs O(m log m), not O(m²)
/// pairs in memory (a million judgments of 4,000 outputs are a hundred million pairs).
/// Scores enter shifted by `shift` (the group's first score): Pearson's r does not depend on
/// it and the sums of squares stay small.
#[derive(Default)]
struct Acc {
    pairs: u64,
    abs: f64,
    /// Entries of (x, y) in r (inter pairs enter in both orders).
    n: f64,
    sx: f64,
    sy: f64,
    sxx: f64,
    syy: f64,
    sxy: f64,
    /// Which workers (by index) have a pair here.
    workers: Vec<bool>,
    items: usize,
}

impl Acc {
    fn pearson(&self) -> Option<f64> {
        if self.pairs < 2 {
            return None;
        }
        let vx = self.sxx - self.sx * self.sx / self.n;
        let vy = self.syy - self.sy * self.sy / self.n;
        let cov = self.sxy - self.sx * self.sy / self.n;
        (vx > 0.0 && vy > 0.0).then(|| (cov / (vx.sqrt() * vy.sqrt())).clamp(-1.0, 1.0))
    }
}

/// Σ |a − b| over the unordered pairs of `v` (sorted in place).
fn sum_abs_differences(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    let (mut below, mut total) = (0.0, 0.0);
    for (i, x) in v.iter().enumerate() {
        total += x * i as f64 - below;
        below += x;
    }
    total
}

/// The agreement report of every (task, language pair) of `set`, over the judgments `keep`
/// selects (all when None; aligned with `set.records`), each task on the scale its question
/// declares ([`super::Tasks::scale`]).
pub fn agreement_report(set: &JudgmentSet, keep: Option<&[bool]>) -> Vec<GroupAgreement> {
    // (task, lang pair) → item key (system, segment) → judgments in record order.
    let mut groups: FxMap<(u16, u16), FxMap<(u32, u32), Vec<&Judgment>>> = FxMap::default();
    // Records come in runs of one (task, language pair): the run's items are looked up without
    // finding the group again for each record.
    let mut run: Option<((u16, u16), FxMap<(u32, u32), Vec<&Judgment>>)> = None;
    for (i, j) in set.records.iter().enumerate() {
        if !matches!(j.item_type, ItemType::System | ItemType::Repeat) || keep.is_some_and(|k| !k[i]) {
            continue;
        }
        let key = (j.task, j.lang_pair);
        if run.as_ref().is_none_or(|r| r.0 != key) {
            if let Some((k, items)) = run.take() {
                groups.insert(k, items);
            }
            run = Some((key, groups.remove(&key).unwrap_or_default()));
        }
        let (_, items) = run.as_mut().expect("set above");
        items.entry((j.system, j.segment)).or_default().push(j);
    }
    if let Some((k, items)) = run {
        groups.insert(k, items);
    }
    let mut keys: Vec<(u16, u16)> = groups.keys().copied().collect();
    keys.sort_unstable();
    keys.into_iter()
        .map(|key| {
            let items = &groups[&key];
            let task = set.tasks.name(u32::from(key.0)).to_string();
            let scale = set.tasks.scale(u32::from(key.0));
            let mut item_keys: Vec<&(u32, u32)> = items.keys().collect();
            item_keys.sort_unstable();
            let shift = item_keys.first().map_or(0.0, |k| items[*k][0].score);
            let n_workers = set.workers.len();
            let (mut intra, mut inter) = (Acc { workers: vec![false; n_workers], ..Acc::default() }, Acc { workers: vec![false; n_workers], ..Acc::default() });
            // Cohen's κ's categories, only for a categorical scale.
            let categorical = matches!(scale, Scale::Categorical { .. });
            let mut labelled = Vec::new();
            let mut judgments = 0;
            let mut scores = Vec::new();
            for (n, k) in item_keys.into_iter().enumerate() {
                let js = &items[k];
                judgments += js.len();
                // The item's judgments by worker, each worker's in record order.
                let mut by_worker: Vec<(u32, usize, f64)> = js.iter().enumerate().map(|(i, j)| (j.worker, i, j.score - shift)).collect();
                by_worker.sort_unstable_by_key(|&(w, i, _)| (w, i));
                if categorical {
                    for j in js.iter() {
                        labelled.push(LabelledJudgment { annotator: j.worker, item: n as u32, category: scale.category(j.score) });
                    }
                }
                // Sums over every unordered pair of the item, then the same-worker pairs
                // (intra, each as (earlier, later)); inter pairs are the rest.
                let m = js.len() as f64;
                let (s, q): (f64, f64) = by_worker.iter().fold((0.0, 0.0), |(s, q), &(_, _, x)| (s + x, q + x * x));
                scores.clear();
                scores.extend(js.iter().map(|j| j.score));
                let all_abs = sum_abs_differences(&mut scores);
                let all_pairs = js.len() as u64 * (js.len() as u64).saturating_sub(1) / 2;
                let (mut same_pairs, mut same_abs, mut same_s, mut same_q, mut same_sxy) = (0u64, 0.0, 0.0, 0.0, 0.0);
                let mut distinct_workers = 0;
                for run in by_worker.chunk_by(|a, b| a.0 == b.0) {
                    distinct_workers += 1;
                    for (i, &(w, _, a)) in run.iter().enumerate() {
                        for &(_, _, b) in &run[i + 1..] {
                            intra.pairs += 1;
                            intra.abs += (a - b).abs();
                            intra.n += 1.0;
                            intra.sx += a;
                            intra.sy += b;
                            intra.sxx += a * a;
                            intra.syy += b * b;
                            intra.sxy += a * b;
                            intra.workers[w as usize] = true;
                            same_pairs += 1;
                            same_abs += (a - b).abs();
                            same_s += a + b;
                            same_q += a * a + b * b;
                            same_sxy += a * b;
                        }
                    }
                }
                intra.items += usize::from(same_pairs > 0);
                let inter_pairs = all_pairs - same_pairs;
                if inter_pairs > 0 {
                    inter.items += 1;
                    inter.pairs += inter_pairs;
                    inter.abs += all_abs - same_abs;
                    // Both orders: r does not depend on which worker comes first.
                    let (sum, squares, products) = ((m - 1.0) * s - same_s, (m - 1.0) * q - same_q, (s * s - q) / 2.0 - same_sxy);
                    inter.n += 2.0 * inter_pairs as f64;
                    inter.sx += sum;
                    inter.sy += sum;
                    inter.sxx += squares;
                    inter.syy += squares;
                    inter.sxy += 2.0 * products;
                    if distinct_workers > 1 {
                        for j in js.iter() {
                            inter.workers[j.worker as usize] = true;
                        }
                    }
                }
            }
            let kappa = match scale {
                Scale::Categorical { categories } if !labelled.is_empty() => kappa_agreement(&labelled, categories).ok(),
                _ => None,
            };
            let finish = |acc: Acc, k: Option<&assay_stats::agreement::AgreementPairs>| {
                PairFigures {
                    pairs: acc.pairs as usize,
                    workers: acc.workers.iter().filter(|&&w| w).count(),
                    items: acc.items,
                    mean_abs_difference: (acc.pairs > 0).then(|| acc.abs / acc.pairs as f64),
                    pearson_r: match scale {
                        Scale::Continuous => acc.pearson(),
                        _ => None,
                    },
                    p_agree: k.and_then(|k| k.p_a),
                    kappa: k.and_then(|k| k.kappa),
                }
            };
            GroupAgreement {
                task,
                lang_pair: set.lang_pairs.name(u32::from(key.1)).to_string(),
                scale,
                system_output_judgments: judgments,
                p_chance: kappa.as_ref().map(|k| k.p_e),
                intra: finish(intra, kappa.as_ref().map(|k| &k.intra)),
                inter: finish(inter, kappa.as_ref().map(|k| &k.inter)),
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "agreement_tests.rs"]
mod tests;
