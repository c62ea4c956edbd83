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
use assay_stats::correlation::pearson;

#[derive(Default)]
struct Acc {
    pairs: usize,
    abs: f64,
    x: Vec<f64>,
    y: Vec<f64>,
    workers: Vec<u32>,
    items: usize,
}

/// The agreement report of every (task, language pair) of `set`, over the judgments `keep`
/// selects (all when None; aligned with `set.records`).
pub fn agreement_report(set: &JudgmentSet, keep: Option<&[bool]>, scale_of: impl Fn(&str) -> Scale) -> Vec<GroupAgreement> {
    // (task, lang pair) → item key (system, segment) → judgments in record order.
    let mut groups: FxMap<(u16, u16), FxMap<(u32, u32), Vec<&Judgment>>> = FxMap::default();
    for (i, j) in set.records.iter().enumerate() {
        if !matches!(j.item_type, ItemType::System | ItemType::Repeat) || keep.is_some_and(|k| !k[i]) {
            continue;
        }
        groups.entry((j.task, j.lang_pair)).or_default().entry((j.system, j.segment)).or_default().push(j);
    }
    let mut keys: Vec<(u16, u16)> = groups.keys().copied().collect();
    keys.sort_unstable();
    keys.into_iter()
        .map(|key| {
            let items = &groups[&key];
            let task = set.tasks.name(u32::from(key.0)).to_string();
            let scale = scale_of(&task);
            let mut item_keys: Vec<&(u32, u32)> = items.keys().collect();
            item_keys.sort_unstable();
            let (mut intra, mut inter) = (Acc::default(), Acc::default());
            let mut labelled = Vec::new();
            let mut judgments = 0;
            for (n, k) in item_keys.into_iter().enumerate() {
                let js = &items[k];
                judgments += js.len();
                let (mut had_intra, mut had_inter) = (false, false);
                for (a_i, a) in js.iter().enumerate() {
                    labelled.push(LabelledJudgment { annotator: a.worker, item: n as u32, category: scale.category(a.score) });
                    for b in &js[a_i + 1..] {
                        let same = a.worker == b.worker;
                        let acc = if same { &mut intra } else { &mut inter };
                        acc.pairs += 1;
                        acc.abs += (a.score - b.score).abs();
                        acc.x.push(a.score);
                        acc.y.push(b.score);
                        acc.workers.push(a.worker);
                        if !same {
                            acc.workers.push(b.worker);
                            // Both orders: r does not depend on which worker comes first.
                            acc.x.push(b.score);
                            acc.y.push(a.score);
                        }
                        if same { had_intra = true } else { had_inter = true }
                    }
                }
                intra.items += usize::from(had_intra);
                inter.items += usize::from(had_inter);
            }
            let kappa = match scale {
                Scale::Categorical { categories } if !labelled.is_empty() => kappa_agreement(&labelled, categories).ok(),
                _ => None,
            };
            let finish = |mut acc: Acc, k: Option<&assay_stats::agreement::AgreementPairs>| {
                acc.workers.sort_unstable();
                acc.workers.dedup();
                PairFigures {
                    pairs: acc.pairs,
                    workers: acc.workers.len(),
                    items: acc.items,
                    mean_abs_difference: (acc.pairs > 0).then(|| acc.abs / acc.pairs as f64),
                    pearson_r: match scale {
                        Scale::Continuous if acc.pairs >= 2 => pearson(&acc.x, &acc.y).ok(),
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
                judgments,
                p_chance: kappa.as_ref().map(|k| k.p_e),
                intra: finish(intra, kappa.as_ref().map(|k| &k.intra)),
                inter: finish(inter, kappa.as_ref().map(|k| &k.inter)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{JudgmentNames, TimeBasis};

    fn push(set: &mut JudgmentSet, worker: &str, task: &str, system: &str, segment: &str, t: ItemType, score: f64) {
        set.push(JudgmentNames { worker, hit: "h", system, segment, lang_pair: "de-en", task }, t, score, 1.0);
    }

    /// Expected values from `tests/fixtures/agreement_fixture.py` (SciPy's pearsonr on the same
    /// pairs; the pairs and κ spelled out there by hand).
    #[test]
    fn da_pairs_give_pearson_and_mean_difference() {
        let mut set = JudgmentSet::new(TimeBasis::PerItem);
        use ItemType::*;
        // Item A/1: w1 60 then repeat 64; w2 50.
        push(&mut set, "w1", "da", "A", "1", System, 60.0);
        push(&mut set, "w2", "da", "A", "1", System, 50.0);
        push(&mut set, "w1", "da", "A", "1", Repeat, 64.0);
        // Item A/2: w1 30, w2 35, w3 20.
        push(&mut set, "w1", "da", "A", "2", System, 30.0);
        push(&mut set, "w2", "da", "A", "2", System, 35.0);
        push(&mut set, "w3", "da", "A", "2", System, 20.0);
        // Item B/1: w2 80 then repeat 70; a bad reference (not an item) and a lone judgment.
        push(&mut set, "w2", "da", "B", "1", System, 80.0);
        push(&mut set, "w2", "da", "B", "1", Repeat, 70.0);
        push(&mut set, "w2", "da", "B", "1", BadRef, 5.0);
        push(&mut set, "w3", "da", "B", "9", System, 44.0);
        // Item C/1: w3 90 then repeat 92.
        push(&mut set, "w3", "da", "C", "1", System, 90.0);
        push(&mut set, "w3", "da", "C", "1", Repeat, 92.0);

        let r = agreement_report(&set, None, Scale::of_task);
        assert_eq!(r.len(), 1);
        let g = &r[0];
        assert_eq!(g.scale, Scale::Continuous);
        assert_eq!(g.judgments, 11);
        // Intra: (60, 64), (80, 70), (90, 92).
        assert_eq!((g.intra.pairs, g.intra.items, g.intra.workers), (3, 3, 3));
        assert!((g.intra.mean_abs_difference.unwrap() - 16.0 / 3.0).abs() < 1e-12);
        assert!((g.intra.pearson_r.unwrap() - 0.873_331_638_465_572).abs() < 1e-12, "{:?}", g.intra.pearson_r);
        // Inter: A/1 (60,50), (50,64); A/2 (30,35), (30,20), (35,20): 5 pairs.
        assert_eq!((g.inter.pairs, g.inter.items, g.inter.workers), (5, 2, 3));
        assert!((g.inter.mean_abs_difference.unwrap() - 54.0 / 5.0).abs() < 1e-12);
        assert!((g.inter.pearson_r.unwrap() - 0.709_323_254_139_669_1).abs() < 1e-12, "{:?}", g.inter.pearson_r);
        assert_eq!((g.intra.kappa, g.p_chance), (None, None));

        // Leaving w3 out removes its repeat pair and two inter pairs.
        let keep: Vec<bool> = set.records.iter().map(|j| set.workers.name(j.worker) != "w3").collect();
        let g = &agreement_report(&set, Some(&keep), Scale::of_task)[0];
        assert_eq!((g.intra.pairs, g.inter.pairs, g.judgments), (2, 3, 7));
    }

    #[test]
    fn word_order_pairs_give_kappa() {
        let mut set = JudgmentSet::new(TimeBasis::PerItem);
        use ItemType::*;
        // Categories (×4): item 1: w1 1.0→4, repeat 1.0→4, w2 0.75→3; item 2: w1 0→0, w2 0→0.
        push(&mut set, "w1", "word-order", "A", "1", System, 1.0);
        push(&mut set, "w1", "word-order", "A", "1", Repeat, 1.0);
        push(&mut set, "w2", "word-order", "A", "1", System, 0.75);
        push(&mut set, "w1", "word-order", "A", "2", System, 0.0);
        push(&mut set, "w2", "word-order", "A", "2", System, 0.0);
        let g = &agreement_report(&set, None, Scale::of_task)[0];
        assert_eq!(g.scale, Scale::Categorical { categories: 5 });
        // Shares: cat 4: 2/5, cat 3: 1/5, cat 0: 2/5 → P(E) = 0.16 + 0.04 + 0.16 = 0.36.
        let pe = 0.36;
        assert!((g.p_chance.unwrap() - pe).abs() < 1e-12);
        // Intra: one pair, agreeing → κ = 1. Inter: (4,3), (4,3), (0,0): P(A) = 1/3.
        assert_eq!((g.intra.pairs, g.intra.p_agree), (1, Some(1.0)));
        assert!((g.intra.kappa.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(g.inter.pairs, 3);
        assert!((g.inter.kappa.unwrap() - (1.0 / 3.0 - pe) / (1.0 - pe)).abs() < 1e-12);
        assert!((g.inter.mean_abs_difference.unwrap() - 0.5 / 3.0).abs() < 1e-12);
        assert_eq!(g.inter.pearson_r, None);
    }
}
