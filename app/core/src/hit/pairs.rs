//! HITs of pairwise preference: each item is one source with two systems' outputs of it.
//!
//! - **Real pairs** (`SYSTEM` items): two different systems' outputs of one segment, drawn with
//!   balanced exposure: the system judged least often so far comes first and meets the partner
//!   it has met least often, on the segment whose two outputs were used least (ties broken at
//!   random), so that every system is compared about equally often and against every other
//!   about equally often.
//! - **A degraded copy against its own original** (`BAD_REF` items): one output of a real pair
//!   of the HIT and a degraded copy of it (the DA degraders); a careful annotator prefers the
//!   original ([`crate::protocol::pairwise::qc`]).
//! - **Repeated pairs** (`REPEAT` items): a real pair shown again later in the HIT with its
//!   sides swapped, paired with its first showing, for consistency.
//!
//! Which output of an item is shown on the left is drawn per item ([`PairShown::left`]) and
//! recorded with the item (and then with the answer). Deterministic from the seed.

use std::collections::{BTreeSet, HashMap};

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{Candidate, Hit, HitError, HitItem, JudgmentsWanted};
use crate::model::ItemType;
use crate::protocol::pairwise::Side;

/// The second output of a pair item and how the pair is shown. The item's `system` is `a`'s.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairShown {
    /// The system of output `b` (for a degraded copy against its original: the item's own
    /// system; one of the two sides is then the copy).
    pub b: String,
    /// The output shown on the left (on top on a phone).
    pub left: Side,
    /// Quality control: the side that is a degraded copy of the other (`BAD_REF` items only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub degraded: Option<Side>,
}

/// The shape of a pairwise HIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairDesign {
    /// Pairs per HIT, quality control included.
    pub pairs: usize,
    /// Pairs per HIT of an output against a degraded copy of it.
    pub degraded: usize,
    /// Pairs per HIT shown a second time with the sides swapped.
    pub repeats: usize,
}

impl PairDesign {
    /// Real pairs per HIT (what counts towards the judgments wanted).
    pub fn system_items(&self) -> usize {
        self.pairs.saturating_sub(self.degraded + self.repeats)
    }

    /// Checks that the design can be placed, and says why not.
    pub fn validate(&self) -> Result<(), HitError> {
        let problem = |why: String| Err(HitError::Pairs(why));
        if self.pairs == 0 {
            return problem("a HIT needs at least one pair".into());
        }
        if self.degraded + self.repeats >= self.pairs {
            return problem(format!(
                "{} pairs with a degraded copy and {} repeated pairs leave no real pair in a HIT of {} pairs",
                self.degraded, self.repeats, self.pairs
            ));
        }
        let real = self.system_items();
        if self.repeats > real {
            return problem(format!("{} repeated pairs need as many real pairs shown first, but a HIT of {} pairs has {real}", self.repeats, self.pairs));
        }
        if self.degraded > real {
            return problem(format!(
                "{} pairs with a degraded copy need as many real pairs to take an output from, but a HIT of {} pairs has {real}",
                self.degraded, self.pairs
            ));
        }
        Ok(())
    }
}

/// A real pair: (system a, system b, segment).
type Pair = (String, String, String);

fn draw_side(rng: &mut ChaCha8Rng) -> Side {
    if rng.random_bool(0.5) { Side::A } else { Side::B }
}

/// Builds pairwise HITs from the campaign's system outputs, deterministically from `seed`.
pub fn build_pair_hits(candidates: &[Candidate], design: &PairDesign, wanted: JudgmentsWanted, seed: u64) -> Result<Vec<Hit>, HitError> {
    design.validate()?;
    let n = match wanted {
        JudgmentsWanted::PerSystem(n) | JudgmentsWanted::PerSegment(n) => n,
    };
    if n == 0 {
        return Err(HitError::NothingWanted);
    }
    if candidates.is_empty() {
        return Err(HitError::NoCandidates);
    }
    // Segments in the test set's order, each with its systems (and whether each output can be
    // degraded).
    let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
    let mut segments: Vec<(String, Vec<(String, bool)>)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for c in candidates {
        if !seen.insert((c.system.as_str(), c.segment.as_str())) {
            return Err(HitError::DuplicateCandidate { system: c.system.clone(), segment: c.segment.clone() });
        }
        let i = *at.entry(c.segment.as_str()).or_insert_with(|| {
            segments.push((c.segment.clone(), Vec::new()));
            segments.len() - 1
        });
        segments[i].1.push((c.system.clone(), c.degradable));
    }
    segments.retain(|(_, systems)| systems.len() >= 2);
    if segments.is_empty() {
        return Err(HitError::Pairs("pairwise preference needs segments with outputs of at least two systems; no segment of the test set has them".into()));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let systems: Vec<String> = segments.iter().flat_map(|(_, s)| s.iter().map(|(x, _)| x.clone())).collect::<BTreeSet<_>>().into_iter().collect();
    let degradable: HashMap<(String, String), bool> =
        segments.iter().flat_map(|(seg, s)| s.iter().map(move |(x, d)| ((x.clone(), seg.clone()), *d))).collect();

    let mut appearances: HashMap<String, usize> = systems.iter().map(|s| (s.clone(), 0)).collect();
    let mut met: HashMap<(String, String), usize> = HashMap::new();
    let mut used: HashMap<(String, String), usize> = HashMap::new();
    let key = |x: &str, y: &str| if x < y { (x.to_string(), y.to_string()) } else { (y.to_string(), x.to_string()) };
    let mut real: Vec<Pair> = Vec::new();
    let record = |x: &str, y: &str, seg: &str, rng: &mut ChaCha8Rng, real: &mut Vec<Pair>, appearances: &mut HashMap<String, usize>, met: &mut HashMap<(String, String), usize>, used: &mut HashMap<(String, String), usize>| {
        *appearances.get_mut(x).expect("a known system") += 1;
        *appearances.get_mut(y).expect("a known system") += 1;
        *met.entry(key(x, y)).or_default() += 1;
        *used.entry((x.to_string(), seg.to_string())).or_default() += 1;
        *used.entry((y.to_string(), seg.to_string())).or_default() += 1;
        let (a, b) = if rng.random_bool(0.5) { (x, y) } else { (y, x) };
        real.push((a.to_string(), b.to_string(), seg.to_string()));
    };
    match wanted {
        JudgmentsWanted::PerSystem(n) => loop {
            // The system judged least often, then its least-met partner on a least-used segment.
            let mut order = systems.clone();
            order.shuffle(&mut rng);
            let x = order.iter().min_by_key(|s| appearances[*s]).expect("at least two systems").clone();
            if appearances[&x] >= n {
                break;
            }
            let mut options: Vec<(usize, usize, usize, String, String)> = Vec::new();
            for (seg, s) in &segments {
                if !s.iter().any(|(y, _)| *y == x) {
                    continue;
                }
                for (y, _) in s.iter().filter(|(y, _)| *y != x) {
                    let m = met.get(&key(&x, y)).copied().unwrap_or(0);
                    let u = used.get(&(x.clone(), seg.clone())).copied().unwrap_or(0) + used.get(&(y.clone(), seg.clone())).copied().unwrap_or(0);
                    options.push((m, appearances[y], u, y.clone(), seg.clone()));
                }
            }
            let best = options.iter().map(|o| (o.0, o.1, o.2)).min().expect("every system of an eligible segment has a partner");
            let ties: Vec<&(usize, usize, usize, String, String)> = options.iter().filter(|o| (o.0, o.1, o.2) == best).collect();
            let (_, _, _, y, seg) = (*ties.choose(&mut rng).expect("at least one")).clone();
            record(&x, &y, &seg, &mut rng, &mut real, &mut appearances, &mut met, &mut used);
        },
        JudgmentsWanted::PerSegment(n) => {
            for (seg, s) in &segments {
                let mut outputs: Vec<String> = s.iter().map(|(x, _)| x.clone()).collect();
                outputs.shuffle(&mut rng);
                for x in &outputs {
                    while used.get(&(x.clone(), seg.clone())).copied().unwrap_or(0) < n {
                        let best = outputs
                            .iter()
                            .filter(|y| *y != x)
                            .map(|y| (met.get(&key(x, y)).copied().unwrap_or(0), used.get(&(y.clone(), seg.clone())).copied().unwrap_or(0)))
                            .min()
                            .expect("a segment of at least two systems");
                        let ties: Vec<&String> = outputs
                            .iter()
                            .filter(|y| *y != x && (met.get(&key(x, y)).copied().unwrap_or(0), used.get(&((*y).clone(), seg.clone())).copied().unwrap_or(0)) == best)
                            .collect();
                        let y = (*ties.choose(&mut rng).expect("at least one")).clone();
                        record(x, &y, seg, &mut rng, &mut real, &mut appearances, &mut met, &mut used);
                    }
                }
            }
        }
    }
    real.shuffle(&mut rng);

    // Real pairs per HIT; the last HIT is filled with pairs from the first ones (not already in
    // it), so every HIT has the same length.
    let per_hit = design.system_items();
    let distinct: BTreeSet<&Pair> = real.iter().collect();
    let unordered = |p: &Pair| (key(&p.0, &p.1), p.2.clone());
    if distinct.iter().map(|p| unordered(p)).collect::<BTreeSet<_>>().len() < per_hit {
        return Err(HitError::Pairs(format!(
            "a HIT of {} real pairs needs that many different pairs of outputs, but the test set gives only {}",
            per_hit,
            distinct.len()
        )));
    }
    let mut chunks: Vec<Vec<Pair>> = real.chunks(per_hit).map(<[Pair]>::to_vec).collect();
    if let Some(last) = chunks.last_mut()
        && last.len() < per_hit
    {
        let mut fill = real.iter().cycle();
        while last.len() < per_hit {
            let p = fill.next().expect("a cycle of a non-empty list");
            if !last.iter().any(|q| unordered(q) == unordered(p)) {
                last.push(p.clone());
            }
        }
    }

    let mut hits = Vec::with_capacity(chunks.len());
    for (index, chunk) in chunks.into_iter().enumerate() {
        // (item type, pair shown, index among entries of the first showing it repeats)
        let mut entries: Vec<(ItemType, String, String, PairShown, Option<usize>)> = Vec::new();
        for (a, b, seg) in &chunk {
            entries.push((ItemType::System, a.clone(), seg.clone(), PairShown { b: b.clone(), left: draw_side(&mut rng), degraded: None }, None));
        }
        // Degraded copies: an output of a real pair of the HIT against its own copy.
        let mut outputs: Vec<(String, String)> = chunk
            .iter()
            .flat_map(|(a, b, seg)| [(a.clone(), seg.clone()), (b.clone(), seg.clone())])
            .filter(|o| degradable.get(o).copied().unwrap_or(false))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if outputs.len() < design.degraded {
            return Err(HitError::NotEnoughDegradable { hit: index, needed: design.degraded, found: outputs.len() });
        }
        outputs.shuffle(&mut rng);
        for (system, seg) in outputs.into_iter().take(design.degraded) {
            let degraded = draw_side(&mut rng);
            entries.push((ItemType::BadRef, system.clone(), seg, PairShown { b: system, left: draw_side(&mut rng), degraded: Some(degraded) }, None));
        }
        entries.shuffle(&mut rng);
        // Repeats: real pairs from the first half of the order, shown again later with the
        // sides swapped.
        let firsts: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].0 == ItemType::System).collect();
        let half: Vec<usize> = firsts.iter().copied().filter(|&i| i < entries.len().div_ceil(2)).collect();
        let pool = if half.len() >= design.repeats { half } else { firsts };
        let chosen: Vec<usize> = pool.choose_multiple(&mut rng, design.repeats).copied().collect();
        // Each entry's order key: first showings at their index, repeats after their original.
        let mut order: Vec<(f64, usize)> = (0..entries.len()).map(|i| (i as f64, i)).collect();
        let shown = entries.len();
        for &orig in &chosen {
            let (_, a, seg, pair, _) = entries[orig].clone();
            let after = rng.random_range(orig + 1..=shown) as f64 - 0.5 + rng.random_range(0.0..0.49);
            entries.push((ItemType::Repeat, a, seg, PairShown { b: pair.b.clone(), left: pair.left.other(), degraded: None }, Some(orig)));
            order.push((after, entries.len() - 1));
        }
        order.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut position_of = vec![0usize; entries.len()];
        for (pos, &(_, e)) in order.iter().enumerate() {
            position_of[e] = pos;
        }
        let mut items: Vec<HitItem> = order
            .iter()
            .enumerate()
            .map(|(pos, &(_, e))| {
                let (item_type, a, seg, pair, first) = entries[e].clone();
                HitItem {
                    position: pos,
                    item_type,
                    system: Some(a),
                    segment: seg,
                    paired_with: None,
                    set: 0,
                    permutation: None,
                    screen: None,
                    unit: None,
                    gold: None,
                    pair: Some(pair),
                }
                .with_pair(first.map(|f| position_of[f]))
            })
            .collect();
        // The first showing points to its repeat too, as the other QC pairs do.
        for i in 0..items.len() {
            if items[i].item_type == ItemType::Repeat
                && let Some(f) = items[i].paired_with
            {
                items[f].paired_with = Some(i);
            }
        }
        hits.push(Hit { index, items });
    }
    Ok(hits)
}

impl HitItem {
    fn with_pair(mut self, paired_with: Option<usize>) -> HitItem {
        self.paired_with = paired_with;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(systems: usize, segments: usize) -> Vec<Candidate> {
        (0..segments).flat_map(|g| (0..systems).map(move |s| Candidate::new(format!("sys{s}"), format!("{g}")))).collect()
    }

    const DESIGN: PairDesign = PairDesign { pairs: 20, degraded: 2, repeats: 2 };

    #[test]
    fn real_pairs_are_two_systems_of_one_segment_with_balanced_exposure() {
        let hits = build_pair_hits(&candidates(4, 30), &DESIGN, JudgmentsWanted::PerSystem(40), 7).unwrap();
        let mut appearances: HashMap<String, usize> = HashMap::new();
        let mut met: HashMap<(String, String), usize> = HashMap::new();
        let mut lefts = [0usize; 2];
        for h in &hits {
            assert_eq!(h.items.len(), 20, "every HIT has the design's length");
            assert_eq!(h.items.iter().map(|i| i.position).collect::<Vec<_>>(), (0..20).collect::<Vec<_>>());
            for it in h.items.iter().filter(|i| i.item_type == ItemType::System) {
                let p = it.pair.as_ref().unwrap();
                let a = it.system.clone().unwrap();
                assert_ne!(a, p.b, "a real pair shows two systems");
                assert_eq!(p.degraded, None);
                *appearances.entry(a.clone()).or_default() += 1;
                *appearances.entry(p.b.clone()).or_default() += 1;
                let k = if a < p.b { (a, p.b.clone()) } else { (p.b.clone(), a) };
                *met.entry(k).or_default() += 1;
                lefts[usize::from(p.left == Side::B)] += 1;
            }
        }
        assert_eq!(appearances.len(), 4);
        assert!(appearances.values().all(|&n| n >= 40), "{appearances:?}");
        let (lo, hi) = (appearances.values().min().unwrap(), appearances.values().max().unwrap());
        assert!(hi - lo <= 10, "balanced exposure: {appearances:?}");
        assert_eq!(met.len(), 6, "every two systems meet");
        let (lo, hi) = (met.values().min().unwrap(), met.values().max().unwrap());
        assert!(hi - lo <= 4, "balanced pairs: {met:?}");
        // Sides drawn per item: both sides on the left about as often.
        assert!(lefts[0] > 20 && lefts[1] > 20, "{lefts:?}");
    }

    #[test]
    fn quality_control_is_a_degraded_copy_against_its_original_and_repeats_with_sides_swapped() {
        let hits = build_pair_hits(&candidates(3, 20), &DESIGN, JudgmentsWanted::PerSystem(30), 11).unwrap();
        for h in &hits {
            let bad: Vec<&HitItem> = h.items.iter().filter(|i| i.item_type == ItemType::BadRef).collect();
            let rep: Vec<&HitItem> = h.items.iter().filter(|i| i.item_type == ItemType::Repeat).collect();
            assert_eq!((bad.len(), rep.len()), (2, 2));
            for b in bad {
                let p = b.pair.as_ref().unwrap();
                assert_eq!(b.system.as_deref(), Some(p.b.as_str()), "the copy is of the same output");
                assert!(p.degraded.is_some());
                // Its output is one of the HIT's real pairs'.
                assert!(h.items.iter().any(|r| r.item_type == ItemType::System
                    && r.segment == b.segment
                    && (r.system == b.system || r.pair.as_ref().unwrap().b == p.b)));
            }
            for r in rep {
                let first = &h.items[r.paired_with.unwrap()];
                assert_eq!(first.item_type, ItemType::System);
                assert!(first.position < r.position, "a repeat comes after its first showing");
                assert_eq!(first.paired_with, Some(r.position));
                assert_eq!((&first.system, &first.segment, &first.pair.as_ref().unwrap().b), (&r.system, &r.segment, &r.pair.as_ref().unwrap().b));
                assert_eq!(r.pair.as_ref().unwrap().left, first.pair.as_ref().unwrap().left.other(), "sides swapped");
            }
        }
        // Deterministic from the seed.
        assert_eq!(hits, build_pair_hits(&candidates(3, 20), &DESIGN, JudgmentsWanted::PerSystem(30), 11).unwrap());
    }

    #[test]
    fn every_output_gets_its_judgments_when_counted_per_segment() {
        let hits = build_pair_hits(&candidates(3, 5), &PairDesign { pairs: 6, degraded: 1, repeats: 1 }, JudgmentsWanted::PerSegment(2), 3).unwrap();
        let mut uses: HashMap<(String, String), usize> = HashMap::new();
        for it in hits.iter().flat_map(|h| &h.items).filter(|i| i.item_type == ItemType::System) {
            *uses.entry((it.system.clone().unwrap(), it.segment.clone())).or_default() += 1;
            *uses.entry((it.pair.as_ref().unwrap().b.clone(), it.segment.clone())).or_default() += 1;
        }
        assert_eq!(uses.len(), 15);
        assert!(uses.values().all(|&n| n >= 2), "{uses:?}");
    }

    #[test]
    fn designs_and_test_sets_that_cannot_be_paired_are_refused_with_the_reason() {
        let e = build_pair_hits(&candidates(1, 10), &DESIGN, JudgmentsWanted::PerSystem(5), 1).unwrap_err();
        assert!(e.to_string().contains("at least two systems"), "{e}");
        let e = PairDesign { pairs: 4, degraded: 2, repeats: 2 }.validate().unwrap_err();
        assert!(e.to_string().contains("leave no real pair"), "{e}");
        let e = PairDesign { pairs: 5, degraded: 0, repeats: 3 }.validate().unwrap_err();
        assert!(e.to_string().contains("3 repeated pairs"), "{e}");
        let e = build_pair_hits(&candidates(2, 3), &DESIGN, JudgmentsWanted::PerSystem(5), 1).unwrap_err();
        assert!(e.to_string().contains("different pairs of outputs"), "{e}");
        let mut c = candidates(2, 30);
        for x in &mut c {
            x.degradable = false;
        }
        let e = build_pair_hits(&c, &DESIGN, JudgmentsWanted::PerSystem(40), 1).unwrap_err();
        assert!(matches!(e, HitError::NotEnoughDegradable { needed: 2, .. }), "{e}");
    }
}
