//! HITs of whole documents (ESA; WMT 2024–2025, Appraise's document tasks).
//!
//! A *unit* is one system's translation of one document: its segments, in document order. A
//! HIT holds whole units, one after another, with their segments consecutive and in order, so a
//! screen can show a segment with its document's earlier (or all other) segments as context.
//!
//! **Size by expected time**, not by a count of items: a unit costs its source words × the
//! seconds per source word (WMT 2025: 0.8 s per word and output), and a HIT is filled, in a
//! seeded random order of the units, until the next unit would take it over the time wanted.
//! A unit longer than a whole HIT gets a HIT of its own (never cut: its context would be lost).
//!
//! **Quality control by documents**: in each HIT the first `bad_ref_documents` units that have
//! a segment that can be degraded are shown again later in the HIT with every such segment
//! degraded (`BAD_REF`, the others `REPEAT`), and the next `repeat_documents` units are shown
//! again unchanged (`REPEAT`); each copy's items are paired, segment by segment, with their
//! original (`paired_with`, both ways), so the paired reliability test of DA reads them as it
//! reads DA's pairs. Copies come in the second half of the HIT, never right after their
//! original when the HIT has another unit to put between them; their cost counts towards the
//! HIT's time.
//!
//! `copies` judgments per output: every unit is placed `copies` times, never twice in one HIT.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Hit, HitError, HitItem};
use crate::model::ItemType;

/// One segment of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSegment {
    /// Segment id.
    pub segment: String,
    /// Words of the source segment (the time estimate's unit; at least 1 is counted).
    pub source_words: usize,
    /// Whether a bad reference can be made from this output.
    pub degradable: bool,
}

/// One system's translation of one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentUnit {
    pub system: String,
    pub document: String,
    /// The segments in document order.
    pub segments: Vec<DocumentSegment>,
}

impl DocumentUnit {
    /// Source words of the unit (each segment counts at least one).
    pub fn words(&self) -> usize {
        self.segments.iter().map(|s| s.source_words.max(1)).sum()
    }
}

/// The design of document HITs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocumentDesign {
    /// The expected time of a HIT, in seconds (originals and quality-control copies).
    pub seconds_per_hit: f64,
    /// Expected seconds per source word and output.
    pub seconds_per_source_word: f64,
    /// Units per HIT shown again degraded.
    pub bad_ref_documents: usize,
    /// Units per HIT shown again unchanged.
    pub repeat_documents: usize,
    /// How many times every unit is judged (by different HITs).
    pub copies: usize,
}

impl DocumentDesign {
    /// Checks the numbers of the design.
    pub fn validate(&self) -> Result<(), HitError> {
        if self.copies == 0 {
            return Err(HitError::NothingWanted);
        }
        if !(self.seconds_per_hit.is_finite() && self.seconds_per_hit > 0.0) {
            return Err(HitError::Documents(format!("a HIT's expected time must be more than 0 minutes (got {} s)", self.seconds_per_hit)));
        }
        if !(self.seconds_per_source_word.is_finite() && self.seconds_per_source_word > 0.0) {
            return Err(HitError::Documents(format!(
                "the seconds per source word must be more than 0 (got {})",
                self.seconds_per_source_word
            )));
        }
        Ok(())
    }

    /// Expected seconds for one unit.
    pub fn seconds(&self, unit: &DocumentUnit) -> f64 {
        unit.words() as f64 * self.seconds_per_source_word
    }
}

/// A unit placed in a HIT: which unit, and whether it is a copy (of the HIT's unit at `of`).
#[derive(Clone, Copy, Debug)]
struct Placed {
    unit: usize,
    copy: Option<(usize, ItemType)>,
}

/// Builds HITs of whole documents (see the module documentation). Deterministic from `seed`.
pub fn build_document_hits(units: &[DocumentUnit], design: &DocumentDesign, seed: u64) -> Result<Vec<Hit>, HitError> {
    design.validate()?;
    if units.is_empty() || units.iter().all(|u| u.segments.is_empty()) {
        return Err(HitError::NoCandidates);
    }
    let mut seen = std::collections::HashSet::new();
    for u in units {
        if !seen.insert((u.system.as_str(), u.document.as_str())) {
            return Err(HitError::DuplicateCandidate { system: u.system.clone(), segment: format!("document {}", u.document) });
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let qc = design.bad_ref_documents + design.repeat_documents;

    // The pool: every non-empty unit `copies` times, in a seeded order.
    let mut pool: Vec<usize> = (0..units.len()).filter(|&u| !units[u].segments.is_empty()).flat_map(|u| std::iter::repeat_n(u, design.copies)).collect();
    pool.shuffle(&mut rng);

    // Fill HITs in pool order. A unit already in the current HIT waits for a later one.
    let mut hits_units: Vec<Vec<usize>> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    let mut cost = 0.0;
    let mut waiting: std::collections::VecDeque<usize> = pool.into_iter().collect();
    let mut deferred: Vec<usize> = Vec::new();
    while let Some(u) = waiting.pop_front() {
        if current.contains(&u) {
            deferred.push(u);
            continue;
        }
        // The first `qc` units of a HIT are shown twice (their copies count too).
        let weight = if current.len() < qc { 2.0 } else { 1.0 };
        let c = design.seconds(&units[u]) * weight;
        if !current.is_empty() && cost + c > design.seconds_per_hit {
            hits_units.push(std::mem::take(&mut current));
            cost = 0.0;
            // Units put off for this HIT come first in the next one.
            for d in deferred.drain(..).rev() {
                waiting.push_front(d);
            }
            waiting.push_front(u);
            continue;
        }
        current.push(u);
        cost += c;
        if waiting.is_empty() && !deferred.is_empty() {
            hits_units.push(std::mem::take(&mut current));
            cost = 0.0;
            waiting.extend(deferred.drain(..));
        }
    }
    if !current.is_empty() {
        hits_units.push(current);
    }

    let mut hits = Vec::with_capacity(hits_units.len());
    for (index, originals) in hits_units.into_iter().enumerate() {
        let n = originals.len();
        let mut order: Vec<Placed> = originals.iter().map(|&unit| Placed { unit, copy: None }).collect();
        // Which originals get a copy, and of which kind.
        let mut copies: Vec<(usize, ItemType)> = Vec::new();
        let mut used = vec![false; n];
        for (i, &u) in originals.iter().enumerate() {
            if copies.len() >= design.bad_ref_documents {
                break;
            }
            if units[u].segments.iter().any(|s| s.degradable) {
                copies.push((i, ItemType::BadRef));
                used[i] = true;
            }
        }
        let mut repeats = 0;
        for i in 0..n {
            if repeats >= design.repeat_documents {
                break;
            }
            if !used[i] {
                copies.push((i, ItemType::Repeat));
                used[i] = true;
                repeats += 1;
            }
        }
        // Each copy goes into the second half, after its original and not right after it when
        // there is room.
        for (of, kind) in copies {
            let at_original = order.iter().position(|p| p.copy.is_none() && p.unit == originals[of]).expect("the original is placed");
            let len = order.len();
            let lowest = (n.div_ceil(2)).max(at_original + 2).min(len);
            let at = rng.random_range(lowest..=len);
            order.insert(at, Placed { unit: originals[of], copy: Some((of, kind)) });
        }
        // Items, with the pairs of copies and originals.
        let mut items: Vec<HitItem> = Vec::new();
        let mut first_item_of_original: Vec<usize> = vec![0; n];
        let mut pending: Vec<(usize, usize, ItemType)> = Vec::new(); // (copy's first item, original index, kind)
        for (u_index, p) in order.iter().enumerate() {
            let unit = &units[p.unit];
            let start = items.len();
            if p.copy.is_none() {
                let i = originals.iter().position(|&o| o == p.unit).expect("an original");
                first_item_of_original[i] = start;
            }
            for (k, s) in unit.segments.iter().enumerate() {
                let item_type = match p.copy {
                    None => ItemType::System,
                    Some((_, ItemType::BadRef)) if s.degradable => ItemType::BadRef,
                    Some(_) => ItemType::Repeat,
                };
                items.push(HitItem {
                    position: start + k,
                    item_type,
                    system: Some(unit.system.clone()),
                    segment: s.segment.clone(),
                    paired_with: None,
                    set: usize::from(u_index * 2 >= order.len()),
                    permutation: None,
                    screen: None,
                    unit: Some(u_index),
                    gold: None,
                    pair: None,
                });
            }
            if let Some((of, kind)) = p.copy {
                pending.push((start, of, kind));
            }
        }
        for (copy_start, of, _) in pending {
            let original_start = first_item_of_original[of];
            for k in 0..units[originals[of]].segments.len() {
                items[copy_start + k].paired_with = Some(original_start + k);
                items[original_start + k].paired_with = Some(copy_start + k);
            }
        }
        hits.push(Hit { index, items });
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn unit(system: &str, doc: &str, words: &[usize]) -> DocumentUnit {
        DocumentUnit {
            system: system.into(),
            document: doc.into(),
            segments: words
                .iter()
                .enumerate()
                .map(|(i, &w)| DocumentSegment { segment: format!("{doc}-{i}"), source_words: w, degradable: w >= 2 })
                .collect(),
        }
    }

    fn design() -> DocumentDesign {
        DocumentDesign { seconds_per_hit: 600.0, seconds_per_source_word: 0.8, bad_ref_documents: 1, repeat_documents: 1, copies: 1 }
    }

    fn corpus() -> Vec<DocumentUnit> {
        let mut units = Vec::new();
        for s in ["A", "B", "C"] {
            for d in 0..12 {
                let words: Vec<usize> = (0..3 + d % 4).map(|k| 8 + (d * 7 + k * 3) % 20).collect();
                units.push(unit(s, &format!("doc{d}"), &words));
            }
        }
        units
    }

    #[test]
    fn every_unit_is_placed_whole_in_order_once_per_copy() {
        let units = corpus();
        for copies in [1, 2] {
            let hits = build_document_hits(&units, &DocumentDesign { copies, ..design() }, 7).unwrap();
            let mut placed: HashMap<(String, String), usize> = HashMap::new();
            for h in &hits {
                let mut in_hit = std::collections::HashSet::new();
                // Items of a unit are consecutive and numbered 0, 1, 2, … in order.
                let mut last_unit = None;
                for (p, item) in h.items.iter().enumerate() {
                    assert_eq!(item.position, p);
                    let u = item.unit.unwrap();
                    if let Some(l) = last_unit {
                        assert!(u == l || u == l + 1, "units are consecutive: {l} then {u}");
                    }
                    last_unit = Some(u);
                }
                let n_units = last_unit.unwrap() + 1;
                for u in 0..n_units {
                    let items: Vec<&HitItem> = h.items.iter().filter(|i| i.unit == Some(u)).collect();
                    let system = items[0].system.clone().unwrap();
                    let doc = items[0].segment.split('-').next().unwrap().to_string();
                    let source = units.iter().find(|x| x.system == system && x.document == doc).unwrap();
                    let segs: Vec<&str> = items.iter().map(|i| i.segment.as_str()).collect();
                    let want: Vec<&str> = source.segments.iter().map(|s| s.segment.as_str()).collect();
                    assert_eq!(segs, want, "whole, in document order");
                    if items[0].item_type == ItemType::System {
                        assert!(in_hit.insert((system.clone(), doc.clone())), "a unit is never twice in one HIT");
                        *placed.entry((system, doc)).or_default() += 1;
                    }
                }
            }
            assert_eq!(placed.len(), units.len());
            assert!(placed.values().all(|&c| c == copies), "{placed:?}");
        }
    }

    #[test]
    fn hits_keep_to_their_time_and_copies_pair_segment_by_segment() {
        let units = corpus();
        let d = design();
        let hits = build_document_hits(&units, &d, 3).unwrap();
        assert!(hits.len() > 3, "{} HITs", hits.len());
        let words: HashMap<&str, usize> = units.iter().flat_map(|u| u.segments.iter().map(|s| (s.segment.as_str(), s.source_words))).collect();
        for h in &hits {
            let seconds: f64 = h.items.iter().map(|i| words[i.segment.as_str()] as f64 * d.seconds_per_source_word).sum();
            let units_in = h.items.last().unwrap().unit.unwrap() + 1;
            assert!(seconds <= d.seconds_per_hit || units_in <= 3, "HIT {} takes {seconds} s", h.index);
            let bad = h.items.iter().filter(|i| i.item_type == ItemType::BadRef).count();
            let rep = h.items.iter().filter(|i| i.item_type == ItemType::Repeat).count();
            assert!(bad > 0 && rep > 0, "HIT {}: {bad} bad, {rep} repeats", h.index);
            for i in &h.items {
                if i.item_type != ItemType::System || i.paired_with.is_some() {
                    let p = &h.items[i.paired_with.expect("QC items are paired")];
                    assert_eq!(p.paired_with, Some(i.position), "pairs point both ways");
                    assert_eq!((p.segment.as_str(), p.system.as_deref()), (i.segment.as_str(), i.system.as_deref()));
                    if i.item_type != ItemType::System {
                        assert_eq!(p.item_type, ItemType::System);
                        assert!(p.position < i.position, "the copy comes after its original");
                        assert!(p.unit.unwrap() + 1 < i.unit.unwrap(), "not right after it");
                    }
                }
            }
        }
        assert_eq!(hits, build_document_hits(&units, &d, 3).unwrap(), "deterministic from the seed");
        assert_ne!(hits, build_document_hits(&units, &d, 4).unwrap());
    }

    #[test]
    fn a_document_longer_than_a_hit_gets_its_own_and_bad_designs_are_refused() {
        let units = vec![unit("A", "long", &[400, 400]), unit("A", "short", &[5])];
        let hits = build_document_hits(&units, &DocumentDesign { bad_ref_documents: 0, repeat_documents: 0, ..design() }, 1).unwrap();
        assert_eq!(hits.len(), 2);
        assert!(hits.iter().any(|h| h.items.len() == 2 && h.items[0].segment.starts_with("long")));
        assert!(matches!(build_document_hits(&units, &DocumentDesign { copies: 0, ..design() }, 1), Err(HitError::NothingWanted)));
        assert!(build_document_hits(&units, &DocumentDesign { seconds_per_hit: 0.0, ..design() }, 1).unwrap_err().to_string().contains("more than 0"));
        assert!(matches!(build_document_hits(&[], &design(), 1), Err(HitError::NoCandidates)));
        let twice = vec![unit("A", "d", &[5]), unit("A", "d", &[6])];
        assert!(build_document_hits(&twice, &design(), 1).unwrap_err().to_string().contains("document d"));
        // A unit with nothing degradable is never a bad copy.
        let flat = vec![unit("A", "x", &[1, 1]), unit("B", "x", &[1]), unit("C", "x", &[1])];
        let hits = build_document_hits(&flat, &design(), 2).unwrap();
        assert!(hits.iter().flat_map(|h| &h.items).all(|i| i.item_type != ItemType::BadRef));
    }
}
