//! HITs of relative ranking (WMT 2012, seed 001 §2.3), with Assay's quality control.
//!
//! A HIT is a sequence of screens; a screen holds `blocks_per_screen` consecutive segments of
//! the test set (WMT 2012: three), and each segment is a *block*: `outputs` outputs of it
//! (WMT 2012: five) by different systems, drawn at random with balanced exposure (the systems
//! judged least often so far come first, ties broken at random), so that over the campaign every
//! system is ranked about equally often and against every other about equally often.
//!
//! Quality control, hidden in blocks that look like every other:
//! - **degraded blocks**: `outputs − 1` outputs and a degraded copy of one of them (a
//!   `BAD_REF` item paired with its original in the same block); a careful annotator ranks the
//!   copy below its original;
//! - **repeated screens**: a screen shown again later in the HIT with its outputs in another
//!   order (`REPEAT` items paired with the first showing; a degraded copy is shown again as a
//!   `BAD_REF` paired with the original's repeat), for consistency;
//! - **gold blocks** (`gold_blocks` per HIT, 0: none; [`crate::analysis::gold`]): a block of a
//!   segment with an expected order, its outputs ordinary `SYSTEM` items that carry the
//!   expected rank ([`HitItem::gold`]) and count towards no system's exposure. A gold block
//!   takes the place of a block of its segment in a screen of consecutive segments, so a screen
//!   holding one looks like every other; it always shows a best and a worst output of the gold
//!   order (so it has a pair the gold orders strictly), the others drawn at random. A repeated
//!   screen repeats its gold blocks as gold blocks.
//!
//! Segments are taken in the order of the candidates (the test set's order); runs of
//! `blocks_per_screen` consecutive segments that each have at least `outputs` systems are cut
//! from that order and dealt in shuffled passes, so every run is used about equally often.
//! Deterministic from the seed.

use std::collections::HashMap;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{Candidate, Hit, HitError, HitItem, JudgmentsWanted};
use crate::model::ItemType;

/// The shape of a ranking HIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankingDesign {
    /// Screens per HIT, repeated screens included.
    pub screens: usize,
    /// Consecutive segments (blocks) per screen.
    pub blocks_per_screen: usize,
    /// Outputs ranked together in one block.
    pub outputs: usize,
    /// Blocks per HIT holding a degraded copy of one of their outputs.
    pub degraded_blocks: usize,
    /// Screens per HIT shown a second time.
    pub repeated_screens: usize,
    /// Gold blocks per HIT (0: none).
    #[serde(default)]
    pub gold_blocks: usize,
}

/// A segment's expected order for gold blocks: (system, expected rank), 1 = best.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldBlock {
    pub segment: String,
    pub ranks: Vec<(String, u32)>,
}

impl RankingDesign {
    /// Screens shown for the first time in a HIT.
    pub fn first_screens(&self) -> usize {
        self.screens.saturating_sub(self.repeated_screens)
    }

    /// System outputs judged for real per HIT (what counts towards the judgments wanted).
    pub fn system_items(&self) -> usize {
        (self.first_screens() * self.blocks_per_screen * self.outputs)
            .saturating_sub(self.degraded_blocks)
            .saturating_sub(self.gold_blocks * self.outputs)
    }

    /// Checks that the design can be placed, and says why not.
    pub fn validate(&self) -> Result<(), HitError> {
        let problem = |why: String| Err(HitError::Ranking(why));
        if self.outputs < 2 {
            return problem(format!("a block needs at least 2 outputs to rank, not {}", self.outputs));
        }
        if self.outputs > 10 {
            return problem(format!("a block of {} outputs is more than the 10 a screen can show", self.outputs));
        }
        if self.blocks_per_screen == 0 {
            return problem("a screen needs at least one block".into());
        }
        if self.screens == 0 {
            return problem("a HIT needs at least one screen".into());
        }
        if self.repeated_screens >= self.screens {
            return problem(format!(
                "{} repeated screens leave no screen of {} to be shown first",
                self.repeated_screens, self.screens
            ));
        }
        if self.repeated_screens > self.first_screens() {
            return problem(format!(
                "{} repeated screens need as many screens shown first, but a HIT of {} screens has {}",
                self.repeated_screens,
                self.screens,
                self.first_screens()
            ));
        }
        let blocks = self.first_screens() * self.blocks_per_screen;
        if self.degraded_blocks > blocks {
            return problem(format!(
                "{} blocks with a degraded copy do not fit in the {blocks} blocks shown first in a HIT",
                self.degraded_blocks
            ));
        }
        if self.degraded_blocks + self.gold_blocks > blocks {
            return problem(format!(
                "{} blocks with a degraded copy and {} gold blocks do not fit in the {blocks} blocks shown first in a HIT",
                self.degraded_blocks, self.gold_blocks
            ));
        }
        Ok(())
    }
}

/// One block being built: a segment and its items (real outputs, then possibly a copy).
struct Block {
    segment: String,
    /// (item type, system, index in this block of the item it is paired with).
    items: Vec<(ItemType, String, Option<usize>)>,
    /// A gold block: each item's expected rank.
    gold: Option<Vec<u32>>,
}

/// Builds ranking HITs from the campaign's system outputs, deterministically from `seed`.
pub fn build_ranking_hits(
    candidates: &[Candidate],
    design: &RankingDesign,
    gold: &[GoldBlock],
    wanted: JudgmentsWanted,
    seed: u64,
) -> Result<Vec<Hit>, HitError> {
    design.validate()?;
    if candidates.is_empty() {
        return Err(HitError::NoCandidates);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Segments in order of first appearance, each with its outputs.
    let mut order: Vec<&str> = Vec::new();
    let mut by_segment: HashMap<&str, Vec<&Candidate>> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    for c in candidates {
        if !seen.insert((c.system.as_str(), c.segment.as_str())) {
            return Err(HitError::DuplicateCandidate { system: c.system.clone(), segment: c.segment.clone() });
        }
        by_segment.entry(c.segment.as_str()).or_insert_with(|| {
            order.push(c.segment.as_str());
            Vec::new()
        });
        by_segment.get_mut(c.segment.as_str()).expect("inserted above").push(c);
    }
    let mut systems: Vec<&str> = candidates.iter().map(|c| c.system.as_str()).collect();
    systems.sort_unstable();
    systems.dedup();
    if systems.len() < design.outputs {
        return Err(HitError::Ranking(format!(
            "a block ranks {} outputs of different systems, but the campaign has {} systems",
            design.outputs,
            systems.len()
        )));
    }
    let eligible: Vec<&str> = order.iter().copied().filter(|s| by_segment[s].len() >= design.outputs).collect();
    let runs: Vec<&[&str]> = eligible.chunks_exact(design.blocks_per_screen).collect();
    if runs.is_empty() {
        return Err(HitError::Ranking(format!(
            "a screen needs {} consecutive segments with outputs of at least {} systems each, but the test set has {} such segments",
            design.blocks_per_screen,
            design.outputs,
            eligible.len()
        )));
    }
    // Gold: the usable orders (at least `outputs` systems with an output of the segment, a best
    // and a worst among them), and the runs that hold such segments.
    let mut gold_of: HashMap<&str, Vec<(&Candidate, u32)>> = HashMap::new();
    for g in gold {
        let Some(outs) = by_segment.get(g.segment.as_str()) else { continue };
        let ranked: Vec<(&Candidate, u32)> =
            g.ranks.iter().filter_map(|(sys, r)| outs.iter().find(|c| &c.system == sys).map(|c| (*c, *r))).collect();
        let strict = ranked.iter().any(|(_, r)| *r != ranked[0].1);
        if ranked.len() >= design.outputs && strict {
            gold_of.insert(g.segment.as_str(), ranked);
        }
    }
    let gold_runs: Vec<(usize, usize)> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| (i, run.iter().filter(|s| gold_of.contains_key(**s)).count()))
        .filter(|&(_, n)| n > 0)
        .collect();
    if design.gold_blocks > 0 {
        let mut counts: Vec<usize> = gold_runs.iter().map(|&(_, n)| n).collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let fit: usize = counts.iter().take(design.first_screens()).sum();
        if fit < design.gold_blocks {
            return Err(HitError::Ranking(format!(
                "a HIT needs {} gold blocks, but the gold orders give {fit} in its {} screens ({} gold orders of segments with outputs of at least {} of their systems in a screen's run; import gold orders for more segments, or ask for fewer gold blocks)",
                design.gold_blocks,
                design.first_screens(),
                gold_of.len(),
                design.outputs
            )));
        }
    }
    let per_system = match wanted {
        JudgmentsWanted::PerSystem(0) | JudgmentsWanted::PerSegment(0) => return Err(HitError::NothingWanted),
        JudgmentsWanted::PerSystem(n) => n,
        JudgmentsWanted::PerSegment(n) => n.saturating_mul(eligible.len()),
    };
    let per_hit = design.system_items();
    if per_hit == 0 {
        return Err(HitError::Ranking("the design leaves no system output to rank in a HIT".into()));
    }
    let hits = per_system.saturating_mul(systems.len()).div_ceil(per_hit);
    let system_index: HashMap<&str, usize> = systems.iter().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut exposure = vec![0usize; systems.len()];
    let mut run_queue: Vec<usize> = Vec::new();
    let mut gold_queue: Vec<usize> = Vec::new();
    let blocks_first = design.first_screens() * design.blocks_per_screen;
    let mut out = Vec::with_capacity(hits);
    for index in 0..hits {
        // With gold: the HIT's runs chosen first (runs with gold segments until the HIT has its
        // gold blocks, then ordinary ones), in random order, and which blocks are gold.
        let planned: Option<Vec<(usize, Vec<bool>)>> = if design.gold_blocks > 0 {
            let mut plan: Vec<(usize, Vec<bool>)> = Vec::with_capacity(design.first_screens());
            let mut need = design.gold_blocks;
            let mut attempts = 0;
            while need > 0 {
                if gold_queue.is_empty() {
                    gold_queue = gold_runs.iter().map(|&(i, _)| i).collect();
                    gold_queue.shuffle(&mut rng);
                }
                let r = gold_queue.pop().expect("refilled above");
                attempts += 1;
                if plan.iter().any(|(p, _)| *p == r) && attempts <= 4 * gold_runs.len() {
                    continue;
                }
                let mut mask: Vec<bool> = runs[r].iter().map(|s| gold_of.contains_key(*s)).collect();
                let mut gold_here: Vec<usize> = (0..mask.len()).filter(|&b| mask[b]).collect();
                gold_here.shuffle(&mut rng);
                for &b in gold_here.iter().skip(need) {
                    mask[b] = false;
                }
                need -= gold_here.len().min(need);
                plan.push((r, mask));
            }
            // Ordinary screens: runs not on the HIT's screens yet when there are enough (a run passed
            // over goes back to the queue).
            let mut passed_over: Vec<usize> = Vec::new();
            while plan.len() < design.first_screens() {
                if run_queue.is_empty() {
                    run_queue = (0..runs.len()).collect();
                    run_queue.shuffle(&mut rng);
                }
                let r = run_queue.pop().expect("refilled above");
                if plan.iter().any(|(p, _)| *p == r) && passed_over.len() < runs.len() {
                    passed_over.push(r);
                    continue;
                }
                plan.push((r, vec![false; design.blocks_per_screen]));
            }
            run_queue.extend(passed_over);
            plan.shuffle(&mut rng);
            Some(plan)
        } else {
            None
        };
        let is_gold: Vec<bool> = match &planned {
            Some(p) => p.iter().flat_map(|(_, mask)| mask.iter().copied()).collect(),
            None => vec![false; blocks_first],
        };
        // Which of the blocks shown first carry a degraded copy (never a gold block).
        let mut degraded = vec![false; blocks_first];
        let free: Vec<usize> = (0..blocks_first).filter(|&i| !is_gold[i]).collect();
        for i in rand::seq::index::sample(&mut rng, free.len(), design.degraded_blocks) {
            degraded[free[i]] = true;
        }
        let mut screens: Vec<Vec<Block>> = Vec::with_capacity(design.screens);
        for sc in 0..design.first_screens() {
            let run = match &planned {
                Some(plan) => runs[plan[sc].0],
                None => {
                    if run_queue.is_empty() {
                        run_queue = (0..runs.len()).collect();
                        run_queue.shuffle(&mut rng);
                    }
                    runs[run_queue.pop().expect("refilled above")]
                }
            };
            let mut blocks = Vec::with_capacity(run.len());
            for (b, &segment) in run.iter().enumerate() {
                if is_gold[sc * design.blocks_per_screen + b] {
                    // A best and a worst output of the gold order, the others at random.
                    let ranked = &gold_of[segment];
                    let best = ranked.iter().map(|(_, r)| *r).min().expect("a usable order");
                    let worst = ranked.iter().map(|(_, r)| *r).max().expect("a usable order");
                    let mut order: Vec<usize> = (0..ranked.len()).collect();
                    order.shuffle(&mut rng);
                    let first = *order.iter().find(|&&i| ranked[i].1 == best).expect("the best is there");
                    let last = *order.iter().find(|&&i| ranked[i].1 == worst).expect("the worst is there");
                    let mut chosen = vec![first, last];
                    chosen.extend(order.iter().copied().filter(|i| *i != first && *i != last).take(design.outputs - 2));
                    blocks.push(Block {
                        segment: segment.to_string(),
                        items: chosen.iter().map(|&i| (ItemType::System, ranked[i].0.system.clone(), None)).collect(),
                        gold: Some(chosen.iter().map(|&i| ranked[i].1).collect()),
                    });
                    continue;
                }
                let with_copy = degraded[sc * design.blocks_per_screen + b];
                let outs = &by_segment[segment];
                // Least exposed systems first, ties at random.
                let mut ranked: Vec<(usize, u64, &Candidate)> =
                    outs.iter().map(|c| (exposure[system_index[c.system.as_str()]], rng.random::<u64>(), *c)).collect();
                ranked.sort_unstable_by_key(|&(e, r, _)| (e, r));
                let real = if with_copy { design.outputs - 1 } else { design.outputs };
                let mut chosen: Vec<&Candidate> = ranked.iter().take(real).map(|&(_, _, c)| c).collect();
                let mut items: Vec<(ItemType, String, Option<usize>)> = Vec::with_capacity(design.outputs);
                if with_copy {
                    // The copy is of a degradable output: one among those chosen, or, if none is,
                    // the next least exposed degradable output instead of the last chosen.
                    let degradable: Vec<usize> = (0..chosen.len()).filter(|&i| chosen[i].degradable).collect();
                    let original = if let Some(&i) = degradable.choose(&mut rng) {
                        i
                    } else if let Some(&(_, _, c)) = ranked.iter().skip(real).find(|(_, _, c)| c.degradable) {
                        let last = chosen.len() - 1;
                        chosen[last] = c;
                        last
                    } else {
                        return Err(HitError::NotEnoughDegradable { hit: index, needed: 1, found: 0 });
                    };
                    items.extend(chosen.iter().map(|c| (ItemType::System, c.system.clone(), None)));
                    items.push((ItemType::BadRef, chosen[original].system.clone(), Some(original)));
                } else {
                    items.extend(chosen.iter().map(|c| (ItemType::System, c.system.clone(), None)));
                }
                for c in &chosen {
                    exposure[system_index[c.system.as_str()]] += 1;
                }
                blocks.push(Block { segment: segment.to_string(), items, gold: None });
            }
            screens.push(blocks);
        }
        // Repeated screens: copies of screens shown first, each placed after its original.
        let originals = rand::seq::index::sample(&mut rng, design.first_screens(), design.repeated_screens).into_vec();
        let mut sequence: Vec<(usize, bool)> = (0..design.first_screens()).map(|s| (s, false)).collect();
        for &o in &originals {
            let at = sequence.iter().position(|&(s, r)| s == o && !r).expect("every first screen is in the sequence");
            let place = rng.random_range(at + 1..=sequence.len());
            sequence.insert(place, (o, true));
        }
        // Positions: screen by screen, block by block, outputs shuffled within their block.
        let mut items: Vec<HitItem> = Vec::with_capacity(design.screens * design.blocks_per_screen * design.outputs);
        // Position of each (first screen, block, item) once placed.
        let mut placed: HashMap<(usize, usize, usize), usize> = HashMap::new();
        for (screen_at, &(s, repeat)) in sequence.iter().enumerate() {
            for (b, block) in screens[s].iter().enumerate() {
                let mut shown: Vec<usize> = (0..block.items.len()).collect();
                shown.shuffle(&mut rng);
                let first_position = items.len();
                // Where each item of the block lands in this showing.
                let mut here = vec![0usize; block.items.len()];
                for (k, &i) in shown.iter().enumerate() {
                    here[i] = first_position + k;
                }
                for &i in &shown {
                    let (kind, system, pair) = &block.items[i];
                    let (item_type, paired_with) = match (repeat, kind) {
                        (false, _) => (*kind, pair.map(|p| here[p])),
                        // The repeat of a real output is paired with its first showing; a degraded
                        // copy is shown again as one, paired with its original's repeat.
                        (true, ItemType::System) => (ItemType::Repeat, placed.get(&(s, b, i)).copied()),
                        (true, _) => (*kind, pair.map(|p| here[p])),
                    };
                    if !repeat {
                        placed.insert((s, b, i), here[i]);
                    }
                    items.push(HitItem {
                        position: here[i],
                        item_type,
                        system: Some(system.clone()),
                        segment: block.segment.clone(),
                        paired_with,
                        set: 0,
                        permutation: None,
                        screen: Some(screen_at),
                        unit: None,
                        gold: block.gold.as_ref().map(|g| g[i]),
                        pair: None,
                    });
                }
            }
        }
        // Originals point at their first quality-control partner, as in DA HITs.
        let partners: Vec<(usize, usize)> =
            items.iter().filter(|it| it.item_type != ItemType::System && it.gold.is_none()).filter_map(|it| it.paired_with.map(|p| (p, it.position))).collect();
        items.sort_by_key(|it| it.position);
        for (original, partner) in partners {
            if items[original].item_type == ItemType::System && items[original].paired_with.is_none() {
                items[original].paired_with = Some(partner);
            }
        }
        out.push(Hit { index, items });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    fn candidates(systems: usize, segments: usize) -> Vec<Candidate> {
        let mut out = Vec::new();
        for seg in 0..segments {
            for s in 0..systems {
                out.push(Candidate::new(format!("S{s}"), format!("{seg}")));
            }
        }
        out
    }

    const DESIGN: RankingDesign = RankingDesign { screens: 5, blocks_per_screen: 3, outputs: 5, degraded_blocks: 3, repeated_screens: 1, gold_blocks: 0 };

    #[test]
    fn screens_hold_blocks_of_consecutive_segments_with_hidden_controls() {
        let cands = candidates(7, 40);
        let hits = build_ranking_hits(&cands, &DESIGN, &[], JudgmentsWanted::PerSystem(120), 11).unwrap();
        // 7 systems × 120 = 840 outputs; 4 first screens × 3 blocks × 5 − 3 copies = 57 per HIT.
        assert_eq!(hits.len(), 840usize.div_ceil(57));
        let mut per_system: BTreeMap<String, usize> = BTreeMap::new();
        for h in &hits {
            assert_eq!(h.items.len(), 5 * 3 * 5);
            assert!(h.items.iter().enumerate().all(|(i, it)| it.position == i));
            let mut screens: BTreeMap<usize, Vec<&HitItem>> = BTreeMap::new();
            for it in &h.items {
                screens.entry(it.screen.unwrap()).or_default().push(it);
            }
            assert_eq!(screens.len(), 5);
            let mut copies = 0;
            let mut repeated = 0;
            for (_, items) in &screens {
                assert_eq!(items.len(), 15);
                // Three blocks of five, each of one segment, consecutive in the test set.
                let segments: Vec<usize> = items.iter().map(|it| it.segment.parse().unwrap()).collect::<BTreeSet<_>>().into_iter().collect();
                assert_eq!(segments.len(), 3);
                assert!(segments.windows(2).all(|w| w[1] == w[0] + 1), "{segments:?}");
                for seg in &segments {
                    let block: Vec<&&HitItem> = items.iter().filter(|it| it.segment.parse::<usize>().unwrap() == *seg).collect();
                    assert_eq!(block.len(), 5);
                    // Items of a block are shown together (contiguous positions).
                    let positions: Vec<usize> = block.iter().map(|it| it.position).collect();
                    assert_eq!(positions.last().unwrap() - positions[0], 4);
                    let systems: BTreeSet<&str> = block.iter().map(|it| it.system.as_deref().unwrap()).collect();
                    let copy = block.iter().find(|it| it.item_type == ItemType::BadRef);
                    match copy {
                        Some(c) => {
                            // Four systems; the copy's original is in the same block, same system.
                            assert_eq!(systems.len(), 4);
                            let original = &h.items[c.paired_with.unwrap()];
                            assert_eq!((original.system.as_deref(), &original.segment), (c.system.as_deref(), &c.segment));
                            assert_eq!(original.screen, c.screen);
                            assert_ne!(original.item_type, ItemType::BadRef);
                            copies += 1;
                        }
                        None => assert_eq!(systems.len(), 5),
                    }
                }
                if items.iter().any(|it| it.item_type == ItemType::Repeat) {
                    repeated += 1;
                    for it in items.iter().filter(|it| it.item_type == ItemType::Repeat) {
                        let first = &h.items[it.paired_with.unwrap()];
                        assert_eq!(first.item_type, ItemType::System);
                        assert_eq!((first.system.as_deref(), &first.segment), (it.system.as_deref(), &it.segment));
                        assert!(first.screen.unwrap() < it.screen.unwrap(), "a repeat comes after its first showing");
                    }
                }
            }
            assert_eq!(repeated, 1);
            // Three copies among the first showings, plus those of a repeated screen.
            assert!((3..=6).contains(&copies), "{copies}");
            for it in h.items.iter().filter(|it| it.item_type == ItemType::System) {
                *per_system.entry(it.system.clone().unwrap()).or_default() += 1;
            }
        }
        // Balanced exposure: every system is ranked at least as often as wanted, and the most and
        // least ranked differ by little.
        let counts: Vec<usize> = per_system.values().copied().collect();
        assert_eq!(counts.len(), 7);
        let (lo, hi) = (*counts.iter().min().unwrap(), *counts.iter().max().unwrap());
        assert!(lo >= 115 && hi - lo <= 6, "{per_system:?}");
        // Deterministic from the seed.
        assert_eq!(hits, build_ranking_hits(&cands, &DESIGN, &[], JudgmentsWanted::PerSystem(120), 11).unwrap());
        assert_ne!(hits, build_ranking_hits(&cands, &DESIGN, &[], JudgmentsWanted::PerSystem(120), 12).unwrap());
    }

    #[test]
    fn designs_and_test_sets_that_cannot_be_placed_are_refused_with_the_reason() {
        let cands = candidates(7, 40);
        let build = |d: RankingDesign| build_ranking_hits(&cands, &d, &[], JudgmentsWanted::PerSystem(10), 1).unwrap_err().to_string();
        assert!(build(RankingDesign { outputs: 1, ..DESIGN }).contains("at least 2 outputs"));
        assert!(build(RankingDesign { repeated_screens: 5, ..DESIGN }).contains("no screen of 5"));
        assert!(build(RankingDesign { repeated_screens: 3, ..DESIGN }).contains("need as many screens shown first"));
        assert!(build(RankingDesign { degraded_blocks: 13, ..DESIGN }).contains("do not fit in the 12 blocks"));
        let few = candidates(4, 40);
        let e = build_ranking_hits(&few, &DESIGN, &[], JudgmentsWanted::PerSystem(10), 1).unwrap_err().to_string();
        assert!(e.contains("campaign has 4 systems"), "{e}");
        let short = candidates(7, 2);
        let e = build_ranking_hits(&short, &DESIGN, &[], JudgmentsWanted::PerSystem(10), 1).unwrap_err().to_string();
        assert!(e.contains("3 consecutive segments") && e.contains("has 2 such segments"), "{e}");
        // Nothing degradable: the copies cannot be made.
        let mut flat = candidates(7, 40);
        flat.iter_mut().for_each(|c| c.degradable = false);
        assert!(matches!(
            build_ranking_hits(&flat, &DESIGN, &[], JudgmentsWanted::PerSystem(10), 1),
            Err(HitError::NotEnoughDegradable { .. })
        ));
    }

    #[test]
    fn gold_blocks_take_the_place_of_ordinary_blocks_and_count_in_no_exposure() {
        let cands = candidates(7, 40);
        // Gold orders for segments 4, 5 and 20 (S0 best … S6 worst, S2 and S3 tied).
        let order: Vec<(String, u32)> = (0..7).map(|s| (format!("S{s}"), if s == 3 { 3 } else { s + 1 })).collect();
        let gold: Vec<GoldBlock> = ["4", "5", "20"].iter().map(|s| GoldBlock { segment: s.to_string(), ranks: order.clone() }).collect();
        let design = RankingDesign { gold_blocks: 2, ..DESIGN };
        // 4 first screens × 3 blocks × 5 − 3 copies − 2 gold blocks × 5 = 47 real outputs per HIT.
        assert_eq!(design.system_items(), 47);
        let hits = build_ranking_hits(&cands, &design, &gold, JudgmentsWanted::PerSystem(60), 3).unwrap();
        assert_eq!(hits.len(), (7 * 60usize).div_ceil(47));
        for h in &hits {
            assert_eq!(h.items.len(), 75, "the same number of outputs as without gold");
            let first_showing: Vec<&HitItem> = h.items.iter().filter(|it| it.gold.is_some() && it.item_type == ItemType::System).collect();
            assert_eq!(first_showing.len(), 2 * 5, "two gold blocks of five outputs");
            let mut blocks: BTreeMap<(usize, String), Vec<&HitItem>> = BTreeMap::new();
            for it in h.items.iter().filter(|it| it.gold.is_some()) {
                blocks.entry((it.screen.unwrap(), it.segment.clone())).or_default().push(it);
            }
            for ((screen, segment), items) in &blocks {
                assert!(["4", "5", "20"].contains(&segment.as_str()));
                // The whole block is gold, never a degraded copy, with a best and a worst output.
                let all: Vec<&HitItem> = h.items.iter().filter(|it| it.screen == Some(*screen) && &it.segment == segment).collect();
                assert_eq!(all.len(), 5);
                assert!(all.iter().all(|it| it.gold.is_some() && it.item_type != ItemType::BadRef));
                let ranks: BTreeSet<u32> = items.iter().map(|it| it.gold.unwrap()).collect();
                assert!(ranks.contains(&1) && ranks.contains(&7), "{ranks:?}");
                for it in items {
                    let s: u32 = it.system.as_ref().unwrap()[1..].parse().unwrap();
                    assert_eq!(it.gold.unwrap(), if s == 3 { 3 } else { s + 1 });
                }
                // The screen's segments are consecutive, as on every screen.
                let segs: BTreeSet<usize> = h.items.iter().filter(|it| it.screen == Some(*screen)).map(|it| it.segment.parse().unwrap()).collect();
                let segs: Vec<usize> = segs.into_iter().collect();
                assert!(segs.windows(2).all(|w| w[1] == w[0] + 1), "{segs:?}");
            }
            assert!(h.items.iter().filter(|it| it.item_type == ItemType::BadRef).count() >= 3);
            // No segment on two first showings of a HIT (13 runs are plenty for 4 screens).
            let mut first: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
            for it in h.items.iter().filter(|it| it.item_type != ItemType::Repeat) {
                first.entry(it.segment.clone()).or_default().insert(it.screen.unwrap());
            }
            let repeated: BTreeSet<usize> = h.items.iter().filter(|it| it.item_type == ItemType::Repeat).map(|it| it.screen.unwrap()).collect();
            for (segment, screens) in &first {
                let shown: Vec<&usize> = screens.iter().filter(|s| !repeated.contains(s)).collect();
                assert_eq!(shown.len(), 1, "segment {segment} on screens {screens:?}");
            }
        }
        // Too few gold segments for the blocks asked: refused with the reason.
        let e = build_ranking_hits(&cands, &RankingDesign { gold_blocks: 4, ..DESIGN }, &gold[..1], JudgmentsWanted::PerSystem(60), 3).unwrap_err().to_string();
        assert!(e.contains("needs 4 gold blocks") && e.contains("give 1"), "{e}");
        let e = build_ranking_hits(&cands, &RankingDesign { gold_blocks: 10, ..DESIGN }, &gold, JudgmentsWanted::PerSystem(60), 3).unwrap_err().to_string();
        assert!(e.contains("3 blocks with a degraded copy and 10 gold blocks do not fit in the 12 blocks"), "{e}");
        // Without gold, nothing changes.
        assert_eq!(
            build_ranking_hits(&cands, &DESIGN, &gold, JudgmentsWanted::PerSystem(60), 3).unwrap(),
            build_ranking_hits(&cands, &DESIGN, &[], JudgmentsWanted::PerSystem(60), 3).unwrap()
        );
    }
}
