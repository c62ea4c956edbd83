//! HIT design (METHOD §2) and degraded items (METHOD §3).
//!
//! Everything here is pure and deterministic from a seed (`ChaCha8Rng::seed_from_u64`):
//! the same candidates, design and seed always give the same HITs.
//!
//! The layout of a DA HIT reproduces Table 2 of Graham et al. (EACL 2014, seed 000
//! L1512–1529): the HIT is cut into `sets` sets; every quality-control (QC) pair has one
//! member in set *i* and the other in set *i + sets/2*; sets keep their order and items are
//! shuffled only within a set (L1575–1577). With the default design each set holds one
//! BAD_REF, one REPEAT and one REF (3 QC items), the 3 SYSTEM items paired with the QC items
//! of the partner set, and 4 free SYSTEM items — the same composition as Graham's
//! `gen-100-item-sets.py` (7 SYSTEM + 3 QC copied from the set 5 away).

pub mod degrade;
mod documents;
pub mod evidence;
pub mod figures;
mod pairs;
pub mod practice;
mod ranking;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashSet};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::model::ItemType;
use degrade::WordOrderKind;
pub use documents::{DocumentDesign, DocumentSegment, DocumentUnit, build_document_hits};
pub use pairs::{PairDesign, PairShown, build_pair_hits};
pub use ranking::{GoldBlock, RankingDesign, build_ranking_hits};

/// One system output that may be put into a HIT (METHOD §2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// System id.
    pub system: String,
    /// Segment id (the source segment this output translates).
    pub segment: String,
    /// Whether a human reference exists for this segment (needed for REF items and for
    /// word-order permutations).
    pub has_reference: bool,
    /// Whether a bad reference can be made from this output (e.g. `false` for a one-word
    /// output with no donor); the builder never pairs a BAD_REF with it.
    pub degradable: bool,
    /// Number of words (or graphemes) of the human reference, if known; the word-order
    /// builder uses it to choose feasible permutation degrees.
    pub reference_words: Option<usize>,
}

impl Candidate {
    /// A candidate whose segment has a reference and that can be degraded.
    pub fn new(system: impl Into<String>, segment: impl Into<String>) -> Self {
        Candidate {
            system: system.into(),
            segment: segment.into(),
            has_reference: true,
            degradable: true,
            reference_words: None,
        }
    }
}

/// Sizes of a DA HIT (METHOD §2). Default: 100 items = 70 SYSTEM + 10 BAD_REF + 10 REPEAT
/// + 10 REF, in 10 sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitDesign {
    /// Number of items in a HIT.
    pub length: usize,
    /// Number of bad references (each paired with one SYSTEM item).
    pub bad_refs: usize,
    /// Number of exact repeats (each paired with one SYSTEM item).
    pub repeats: usize,
    /// Number of human references (each for the segment of one SYSTEM item).
    pub refs: usize,
    /// Number of sets; QC pairs span sets *i* and *i + sets/2*.
    pub sets: usize,
}

impl Default for HitDesign {
    fn default() -> Self {
        HitDesign {
            length: 100,
            bad_refs: 10,
            repeats: 10,
            refs: 10,
            sets: 10,
        }
    }
}

/// How many judgments are wanted (METHOD §2: "every system gets the number of judgments
/// wanted"). Counts SYSTEM items only (repeats and QC items come on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JudgmentsWanted {
    /// At least this many SYSTEM items per system, over all HITs.
    PerSystem(usize),
    /// At least this many SYSTEM items per system output (system, segment).
    PerSegment(usize),
}

/// The permutation a word-order item asks for (METHOD §3, thesis L1995–2118).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permutation {
    pub kind: WordOrderKind,
    pub degree: usize,
}

/// One item of a HIT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitItem {
    /// 0-based position in the HIT (the order the annotator sees).
    pub position: usize,
    pub item_type: ItemType,
    /// System id; `None` for REF items and word-order permutations of a reference.
    pub system: Option<String>,
    pub segment: String,
    /// Position of the other member of this item's QC pair, if any.
    pub paired_with: Option<usize>,
    /// 0-based set index (always 0 in word-order HITs).
    pub set: usize,
    /// For word-order permutations: which permutation to apply to the reference.
    pub permutation: Option<Permutation>,
    /// Relative ranking: the 0-based screen the item is shown on, together with the other
    /// items of that screen (its outputs of one or more consecutive segments); `None`: one
    /// item per screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<usize>,
    /// Documents (ESA): the 0-based document of the HIT the item belongs to (one system's
    /// translation of one document, or a quality-control copy of one); its items are
    /// consecutive, in document order, and are shown with the unit's other items as context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<usize>,
    /// Relative ranking: an output of a gold block (quality control), with its expected rank
    /// in the block (1 = best, ties share a rank); the item is otherwise an ordinary SYSTEM
    /// item, shown and answered as every other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<u32>,
    /// Pairwise preference: the pair's second output, the side shown on the left and, for a
    /// degraded copy against its original, which side is the copy; the item's `system` is the
    /// pair's `a`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<PairShown>,
}

/// One HIT: its index in the campaign and its items in presentation order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub index: usize,
    pub items: Vec<HitItem>,
}

/// Why a design or a set of candidates cannot be turned into HITs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HitError {
    #[error("a HIT needs at least one item")]
    EmptyHit,
    #[error("a HIT needs at least one set")]
    NoSets,
    #[error("{sets} sets cannot be made from {length} items: every set needs at least one item")]
    MoreSetsThanItems { sets: usize, length: usize },
    #[error(
        "{bad_refs} bad references + {repeats} repeats + {refs} references = {qc} quality-control items, which do not fit in a HIT of {length} items"
    )]
    QcExceedsLength {
        bad_refs: usize,
        repeats: usize,
        refs: usize,
        qc: usize,
        length: usize,
    },
    #[error(
        "{bad_refs} bad references + {repeats} repeats + {refs} references need {qc} system items to pair with, but the HIT has only {system_items}"
    )]
    NotEnoughSystemItems {
        bad_refs: usize,
        repeats: usize,
        refs: usize,
        qc: usize,
        system_items: usize,
    },
    #[error(
        "quality-control pairs join set i with set i + sets/2, so the number of sets must be even, not {sets}"
    )]
    OddSets { sets: usize },
    #[error(
        "sets {first} and {second} must each hold {pairs} quality-control pair members, but set {small} has only {size} items"
    )]
    SetTooSmall {
        first: usize,
        second: usize,
        pairs: usize,
        small: usize,
        size: usize,
    },
    #[error("the number of judgments wanted must be at least 1")]
    NothingWanted,
    #[error("there are no system outputs to put into HITs")]
    NoCandidates,
    #[error("system output ({system}, segment {segment}) is listed twice")]
    DuplicateCandidate { system: String, segment: String },
    #[error(
        "system {system} has only {outputs} outputs, but a HIT needs {needed} different outputs of it"
    )]
    SystemTooFewOutputs {
        system: String,
        outputs: usize,
        needed: usize,
    },
    #[error(
        "HIT {hit} needs {needed} system items whose segment has a human reference (all different segments), but only {found} are available"
    )]
    NotEnoughReferences {
        hit: usize,
        needed: usize,
        found: usize,
    },
    #[error(
        "HIT {hit} needs {needed} degradable system items for bad references, but only {found} are left"
    )]
    NotEnoughDegradable {
        hit: usize,
        needed: usize,
        found: usize,
    },
    /// A relative-ranking design or test set that cannot be placed, and why.
    #[error("{0}")]
    Ranking(String),
    /// A document design that cannot be built, and why.
    #[error("{0}")]
    Documents(String),
    /// A pairwise design or test set that cannot be paired, and why.
    #[error("{0}")]
    Pairs(String),
    #[error("a word-order HIT of {length} items cannot hold {permutations} permutations")]
    TooManyPermutations { permutations: usize, length: usize },
    #[error(
        "{pairs} same-reference pairs per kind × 4 kinds need {needed} permutations, but the design has only {permutations}"
    )]
    TooManyPermutationPairs {
        pairs: usize,
        needed: usize,
        permutations: usize,
    },
    #[error(
        "a word-order HIT needs {needed} system outputs with distinct references to permute, but it has only {mt_items} system outputs"
    )]
    TooFewMtItems { needed: usize, mt_items: usize },
    #[error("HIT {hit} must hold {needed} system outputs, not {found}")]
    WrongSystemItems { hit: usize, needed: usize, found: usize },
    #[error("the maximum permutation degree must be at least 2, not {max_degree}")]
    MaxDegreeTooSmall { max_degree: usize },
    #[error(
        "HIT {hit} needs {needed} system outputs whose references can be permuted (distinct segments), but only {found} are available"
    )]
    NotEnoughPermutable {
        hit: usize,
        needed: usize,
        found: usize,
    },
}

/// One QC pair of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairSpec {
    kind: ItemType,
    /// The set of the pair member shown first (the lower set).
    low_set: usize,
    high_set: usize,
    /// Whether the QC item (BAD_REF/REPEAT/REF) is the member in the lower set.
    qc_first: bool,
}

/// The layout of a DA HIT: set sizes and QC pairs (pure function of the design).
#[derive(Clone, Debug)]
struct Layout {
    set_sizes: Vec<usize>,
    pairs: Vec<PairSpec>,
}

impl HitDesign {
    /// Number of SYSTEM items (free or paired) in a HIT: length − QC items (METHOD §2).
    pub fn system_items(&self) -> usize {
        self.length
            .saturating_sub(self.bad_refs + self.repeats + self.refs)
    }

    /// Checks that the design can be placed (METHOD §2: "the builder refuses designs it
    /// cannot place and says why").
    pub fn validate(&self) -> Result<(), HitError> {
        self.layout().map(|_| ())
    }

    fn layout(&self) -> Result<Layout, HitError> {
        let HitDesign {
            length,
            bad_refs,
            repeats,
            refs,
            sets,
        } = *self;
        if length == 0 {
            return Err(HitError::EmptyHit);
        }
        if sets == 0 {
            return Err(HitError::NoSets);
        }
        if sets > length {
            return Err(HitError::MoreSetsThanItems { sets, length });
        }
        let qc = bad_refs + repeats + refs;
        if qc > length {
            return Err(HitError::QcExceedsLength {
                bad_refs,
                repeats,
                refs,
                qc,
                length,
            });
        }
        let system_items = length - qc;
        if system_items < qc {
            return Err(HitError::NotEnoughSystemItems {
                bad_refs,
                repeats,
                refs,
                qc,
                system_items,
            });
        }
        let set_sizes: Vec<usize> = (0..sets)
            .map(|k| length / sets + usize::from(k < length % sets))
            .collect();
        if qc == 0 {
            return Ok(Layout {
                set_sizes,
                pairs: Vec::new(),
            });
        }
        if sets % 2 == 1 {
            return Err(HitError::OddSets { sets });
        }
        let half = sets / 2;
        // Pairs are dealt to set groups (g, g + half) round-robin over all types, so that
        // groups stay balanced; the orientation flips after every `half` pairs, which for
        // the default design gives each group one pair of each type in each orientation
        // ("above in reverse", EACL Table 2).
        let mut pairs = Vec::with_capacity(qc);
        let mut t = 0usize;
        for (kind, count) in [
            (ItemType::BadRef, bad_refs),
            (ItemType::Repeat, repeats),
            (ItemType::Ref, refs),
        ] {
            for _ in 0..count {
                let g = t % half;
                let forward = (t / half).is_multiple_of(2);
                // EACL Table 2, first row: BAD_REF and REF in S_i, their system output in
                // S_{i+5}; a system output in S_i and its REPEAT in S_{i+5}.
                let table_qc_first = kind != ItemType::Repeat;
                pairs.push(PairSpec {
                    kind,
                    low_set: g,
                    high_set: g + half,
                    qc_first: if forward {
                        table_qc_first
                    } else {
                        !table_qc_first
                    },
                });
                t += 1;
            }
        }
        let mut per_group = vec![0usize; half];
        for p in &pairs {
            per_group[p.low_set] += 1;
        }
        for (g, &n) in per_group.iter().enumerate() {
            let (a, b) = (g, g + half);
            for s in [a, b] {
                if set_sizes[s] < n {
                    return Err(HitError::SetTooSmall {
                        first: a + 1,
                        second: b + 1,
                        pairs: n,
                        small: s + 1,
                        size: set_sizes[s],
                    });
                }
            }
        }
        Ok(Layout { set_sizes, pairs })
    }
}

/// Candidates grouped by system, in a deterministic order.
struct Pool<'a> {
    systems: Vec<&'a str>,
    outputs: Vec<Vec<&'a Candidate>>,
}

fn pool(candidates: &[Candidate]) -> Result<Pool<'_>, HitError> {
    if candidates.is_empty() {
        return Err(HitError::NoCandidates);
    }
    let mut by_system: BTreeMap<&str, Vec<&Candidate>> = BTreeMap::new();
    let mut seen = HashSet::new();
    for c in candidates {
        if !seen.insert((c.system.as_str(), c.segment.as_str())) {
            return Err(HitError::DuplicateCandidate {
                system: c.system.clone(),
                segment: c.segment.clone(),
            });
        }
        by_system.entry(c.system.as_str()).or_default().push(c);
    }
    let (systems, outputs) = by_system.into_iter().unzip();
    Ok(Pool { systems, outputs })
}

/// Deals the SYSTEM items of all HITs: systems in equal shares (global round-robin over a
/// shuffled system order), each system's outputs cycled in shuffled passes so every output
/// is used equally often, and never the same output twice in one HIT.
fn allocate<'a>(
    pool: &Pool<'a>,
    per_hit: usize,
    wanted: JudgmentsWanted,
    spread: Spread,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<Vec<&'a Candidate>>, HitError> {
    let k = pool.systems.len();
    let per_system = match wanted {
        JudgmentsWanted::PerSystem(0) | JudgmentsWanted::PerSegment(0) => {
            return Err(HitError::NothingWanted);
        }
        JudgmentsWanted::PerSystem(n) => n,
        JudgmentsWanted::PerSegment(n) => n * pool.outputs.iter().map(Vec::len).max().unwrap_or(0),
    };
    if per_hit == 0 {
        return Err(HitError::NotEnoughSystemItems {
            bad_refs: 0,
            repeats: 0,
            refs: 0,
            qc: 0,
            system_items: 0,
        });
    }
    let hits = (per_system * k).div_ceil(per_hit);
    let mut order: Vec<usize> = (0..k).collect();
    order.shuffle(rng);
    // Largest share any system gets in one HIT (the pattern repeats after k HITs).
    let mut max_share = vec![0usize; k];
    for h in 0..hits.min(k) {
        let mut counts = vec![0usize; k];
        for t in h * per_hit..(h + 1) * per_hit {
            counts[order[t % k]] += 1;
        }
        for (m, c) in max_share.iter_mut().zip(counts) {
            *m = (*m).max(c);
        }
    }
    for (s, outs) in pool.outputs.iter().enumerate() {
        if outs.len() < max_share[s] {
            return Err(HitError::SystemTooFewOutputs {
                system: pool.systems[s].to_string(),
                outputs: outs.len(),
                needed: max_share[s],
            });
        }
    }
    // Per-system queues of outputs (shuffled passes).
    let mut queues: Vec<Vec<&Candidate>> = vec![Vec::new(); k];
    let mut result = Vec::with_capacity(hits);
    for h in 0..hits {
        let mut counts = vec![0usize; k];
        for t in h * per_hit..(h + 1) * per_hit {
            counts[order[t % k]] += 1;
        }
        let mut items = Vec::with_capacity(per_hit);
        for s in 0..k {
            let mut taken: Vec<&Candidate> = Vec::with_capacity(counts[s]);
            for _ in 0..counts[s] {
                if queues[s].is_empty() {
                    // New pass: outputs already in this HIT go last, so none repeats.
                    let (mut fresh, mut used): (Vec<&Candidate>, Vec<&Candidate>) = pool.outputs[s]
                        .iter()
                        .copied()
                        .partition(|c| !taken.iter().any(|t| std::ptr::eq(*t, *c)));
                    fresh.shuffle(rng);
                    used.shuffle(rng);
                    // Queues pop from the end: put `used` first so they come out last.
                    used.extend(fresh.into_iter().rev());
                    queues[s] = used;
                }
                let next = match spread {
                    Spread::Any => queues[s].len().checked_sub(1),
                    // The next output in the queue whose segment the HIT does not have yet,
                    // else the next one: every pass still hands out each output once.
                    Spread::DistinctSegments => queues[s]
                        .iter()
                        .rposition(|c| {
                            !items
                                .iter()
                                .chain(&taken)
                                .any(|t: &&Candidate| t.segment == c.segment)
                        })
                        .or(queues[s].len().checked_sub(1)),
                };
                if let Some(i) = next {
                    taken.push(queues[s].remove(i));
                }
            }
            items.extend(taken);
        }
        result.push(items);
    }
    Ok(result)
}

/// How [`allocate`] chooses among a system's queued outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spread {
    /// In queue order (DA: the HITs of a seed stay as they were).
    Any,
    /// Preferring segments the HIT does not have yet (word order: each permuted reference
    /// needs an output of a segment of its own in the HIT, so a 30-segment set with 4
    /// systems has enough of them).
    DistinctSegments,
}

/// Builds DA HITs (METHOD §2) from the campaign's system outputs, deterministically from
/// `seed`. Every system gets at least the judgments wanted; see [`HitDesign`] for sizes.
pub fn build_hits(
    candidates: &[Candidate],
    design: &HitDesign,
    wanted: JudgmentsWanted,
    seed: u64,
) -> Result<Vec<Hit>, HitError> {
    let layout = design.layout()?;
    let pool = pool(candidates)?;
    let build = |spread| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let allocation = allocate(&pool, design.system_items(), wanted, spread, &mut rng)?;
        allocation.into_iter().enumerate().map(|(h, items)| place_hit(h, items, design, &layout, &mut rng)).collect()
    };
    // Outputs in queue order: the HITs a seed has always built. A HIT whose outputs share too
    // few segments for its reference pairs (two systems' outputs of one segment in a HIT of two
    // outputs) is built again with each HIT's outputs spread over distinct segments.
    match build(Spread::Any) {
        Err(HitError::NotEnoughReferences { .. }) => build(Spread::DistinctSegments),
        built => built,
    }
}

/// Builds one DA HIT (METHOD §2) from exactly `design.system_items()` system outputs chosen
/// elsewhere (an adaptive design's next HIT: `crate::adaptive`): the same quality-control
/// partners and sets as [`build_hits`], deterministically from `seed`.
pub fn build_hit_from(index: usize, system_items: &[Candidate], design: &HitDesign, seed: u64) -> Result<Hit, HitError> {
    let layout = design.layout()?;
    if system_items.len() != design.system_items() {
        return Err(HitError::WrongSystemItems { hit: index, needed: design.system_items(), found: system_items.len() });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    place_hit(index, system_items.iter().collect(), design, &layout, &mut rng)
}

/// Chooses the QC partners among a HIT's SYSTEM items and places everything in sets.
fn place_hit(
    index: usize,
    mut system_items: Vec<&Candidate>,
    design: &HitDesign,
    layout: &Layout,
    rng: &mut ChaCha8Rng,
) -> Result<Hit, HitError> {
    system_items.shuffle(rng);
    let n = system_items.len();
    let mut used = vec![false; n];
    // REF partners first (most constrained): a reference, distinct segments; prefer items
    // that cannot be degraded, so that degradable ones stay for bad references.
    let mut ref_order: Vec<usize> = (0..n).collect();
    ref_order.sort_by_key(|&i| system_items[i].degradable);
    let mut ref_segments = HashSet::new();
    let mut ref_partners = Vec::with_capacity(design.refs);
    for &i in &ref_order {
        if ref_partners.len() == design.refs {
            break;
        }
        let c = system_items[i];
        if c.has_reference && ref_segments.insert(c.segment.as_str()) {
            used[i] = true;
            ref_partners.push(i);
        }
    }
    if ref_partners.len() < design.refs {
        return Err(HitError::NotEnoughReferences {
            hit: index,
            needed: design.refs,
            found: ref_partners.len(),
        });
    }
    let mut bad_partners = Vec::with_capacity(design.bad_refs);
    for i in 0..n {
        if bad_partners.len() == design.bad_refs {
            break;
        }
        if !used[i] && system_items[i].degradable {
            used[i] = true;
            bad_partners.push(i);
        }
    }
    if bad_partners.len() < design.bad_refs {
        return Err(HitError::NotEnoughDegradable {
            hit: index,
            needed: design.bad_refs,
            found: bad_partners.len(),
        });
    }
    let mut repeat_partners = Vec::with_capacity(design.repeats);
    for (i, u) in used.iter_mut().enumerate() {
        if repeat_partners.len() == design.repeats {
            break;
        }
        if !*u {
            *u = true;
            repeat_partners.push(i);
        }
    }
    let mut free: Vec<usize> = (0..n).filter(|&i| !used[i]).collect();
    free.shuffle(rng);

    // Item drafts per set: (item, pair id).
    let mut sets: Vec<Vec<(HitItem, Option<usize>)>> = layout
        .set_sizes
        .iter()
        .map(|&s| Vec::with_capacity(s))
        .collect();
    let (mut bi, mut ri, mut fi) = (
        bad_partners.into_iter(),
        repeat_partners.into_iter(),
        ref_partners.into_iter(),
    );
    for (pid, p) in layout.pairs.iter().enumerate() {
        let partner = match p.kind {
            ItemType::BadRef => bi.next(),
            ItemType::Repeat => ri.next(),
            _ => fi.next(),
        };
        let Some(partner) = partner else { continue };
        let c = system_items[partner];
        let qc_item = HitItem {
            position: 0,
            item_type: p.kind,
            system: (p.kind != ItemType::Ref).then(|| c.system.clone()),
            segment: c.segment.clone(),
            paired_with: None,
            set: 0,
            permutation: None,
            screen: None,
            unit: None,
            gold: None,
            pair: None,
        };
        let sys_item = HitItem {
            item_type: ItemType::System,
            system: Some(c.system.clone()),
            ..qc_item.clone()
        };
        let (first, second) = if p.qc_first {
            (qc_item, sys_item)
        } else {
            (sys_item, qc_item)
        };
        sets[p.low_set].push((first, Some(pid)));
        sets[p.high_set].push((second, Some(pid)));
    }
    let mut free_iter = free.into_iter();
    for (s, set) in sets.iter_mut().enumerate() {
        while set.len() < layout.set_sizes[s] {
            let Some(i) = free_iter.next() else { break };
            let c = system_items[i];
            set.push((
                HitItem {
                    position: 0,
                    item_type: ItemType::System,
                    system: Some(c.system.clone()),
                    segment: c.segment.clone(),
                    paired_with: None,
                    set: 0,
                    permutation: None,
                    screen: None,
                    unit: None,
                    gold: None,
                    pair: None,
                },
                None,
            ));
        }
    }
    let mut items = Vec::with_capacity(design.length);
    let mut pair_positions: Vec<Vec<usize>> = vec![Vec::with_capacity(2); layout.pairs.len()];
    for (s, mut set) in sets.into_iter().enumerate() {
        set.shuffle(rng);
        for (mut item, pid) in set {
            item.position = items.len();
            item.set = s;
            if let Some(pid) = pid {
                pair_positions[pid].push(item.position);
            }
            items.push((item, pid));
        }
    }
    let items = items
        .into_iter()
        .map(|(mut item, pid)| {
            if let Some(pid) = pid {
                item.paired_with = pair_positions[pid]
                    .iter()
                    .copied()
                    .find(|&q| q != item.position);
            }
            item
        })
        .collect();
    Ok(Hit { index, items })
}

/// Sizes of a word-order (WOJ) HIT (METHOD §1, §3; thesis Table 6.3, L2188–2202):
/// default 50 items = 25 system outputs + 25 permuted references, of which 2 pairs per
/// permutation kind share a reference (different degrees) and the rest have a random kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordOrderDesign {
    pub length: usize,
    pub permutations: usize,
    /// Pairs of permutations of the same kind and the same reference, per kind.
    pub same_reference_pairs_per_kind: usize,
    /// Highest degree tried (the thesis stops at 18, L1970).
    pub max_degree: usize,
}

impl Default for WordOrderDesign {
    fn default() -> Self {
        WordOrderDesign {
            length: 50,
            permutations: 25,
            same_reference_pairs_per_kind: 2,
            max_degree: 18,
        }
    }
}

impl WordOrderDesign {
    /// Number of real system outputs in a word-order HIT.
    pub fn system_items(&self) -> usize {
        self.length.saturating_sub(self.permutations)
    }

    fn bases_needed(&self) -> usize {
        let paired = 4 * self.same_reference_pairs_per_kind;
        paired + (self.permutations - 2 * paired)
    }

    /// Checks that the word-order design can be placed.
    pub fn validate(&self) -> Result<(), HitError> {
        if self.length == 0 {
            return Err(HitError::EmptyHit);
        }
        if self.permutations > self.length {
            return Err(HitError::TooManyPermutations {
                permutations: self.permutations,
                length: self.length,
            });
        }
        let needed = 8 * self.same_reference_pairs_per_kind;
        if needed > self.permutations {
            return Err(HitError::TooManyPermutationPairs {
                pairs: self.same_reference_pairs_per_kind,
                needed,
                permutations: self.permutations,
            });
        }
        if self.max_degree < 2 {
            return Err(HitError::MaxDegreeTooSmall {
                max_degree: self.max_degree,
            });
        }
        if self.bases_needed() > self.system_items() {
            return Err(HitError::TooFewMtItems {
                needed: self.bases_needed(),
                mt_items: self.system_items(),
            });
        }
        Ok(())
    }
}

/// Highest degree of `kind` a reference of `words` words allows (see `degrade`).
pub fn max_feasible_degree(kind: WordOrderKind, words: usize) -> usize {
    match kind {
        WordOrderKind::Order | WordOrderKind::Phrase => words.saturating_sub(1),
        WordOrderKind::Swap => words - words % 2,
        WordOrderKind::Choice => words,
    }
}

fn feasible_limit(kind: WordOrderKind, c: &Candidate, max_degree: usize) -> usize {
    let words = c.reference_words.unwrap_or(max_degree + 1);
    let lim = max_feasible_degree(kind, words).min(max_degree);
    if kind == WordOrderKind::Swap {
        lim - lim % 2
    } else {
        lim
    }
}

fn pick_degree(kind: WordOrderKind, limit: usize, rng: &mut ChaCha8Rng) -> usize {
    if kind == WordOrderKind::Swap {
        2 * rng.random_range(1..=limit / 2)
    } else {
        rng.random_range(1..=limit)
    }
}

/// Builds word-order HITs (METHOD §1, §3): real system outputs plus permuted references of
/// outputs in the same HIT (thesis L2176), shuffled, deterministic from `seed`. A
/// permutation item has type BAD_REF, no system, and is paired with its base output.
pub fn build_word_order_hits(
    candidates: &[Candidate],
    design: &WordOrderDesign,
    wanted: JudgmentsWanted,
    seed: u64,
) -> Result<Vec<Hit>, HitError> {
    design.validate()?;
    let pool = pool(candidates)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let allocation = allocate(
        &pool,
        design.system_items(),
        wanted,
        Spread::DistinctSegments,
        &mut rng,
    )?;
    let kinds = WordOrderKind::ALL;
    let pairs = design.same_reference_pairs_per_kind;
    let singles = design.permutations - 8 * pairs;
    let mut hits = Vec::with_capacity(allocation.len());
    for (index, mut mt) in allocation.into_iter().enumerate() {
        mt.shuffle(&mut rng);
        // Requests: (kind, how many permutations of one reference).
        let mut requests: Vec<(WordOrderKind, usize)> = Vec::new();
        for &k in &kinds {
            requests.extend(std::iter::repeat_n((k, 2), pairs));
        }
        for _ in 0..singles {
            requests.push((kinds[rng.random_range(0..kinds.len())], 1));
        }
        let mut used_segments = HashSet::new();
        let mut used = vec![false; mt.len()];
        // (item, base index in mt)
        let mut perms: Vec<(HitItem, usize)> = Vec::with_capacity(design.permutations);
        for (found, &(kind, count)) in requests.iter().enumerate() {
            let min_limit = if kind == WordOrderKind::Swap {
                2 * count
            } else {
                count
            };
            let base = (0..mt.len()).find(|&i| {
                !used[i]
                    && mt[i].has_reference
                    && !used_segments.contains(mt[i].segment.as_str())
                    && feasible_limit(kind, mt[i], design.max_degree) >= min_limit
            });
            let Some(b) = base else {
                return Err(HitError::NotEnoughPermutable {
                    hit: index,
                    needed: requests.len(),
                    found,
                });
            };
            used[b] = true;
            used_segments.insert(mt[b].segment.as_str());
            let limit = feasible_limit(kind, mt[b], design.max_degree);
            let first = pick_degree(kind, limit, &mut rng);
            let mut degrees = vec![first];
            if count == 2 {
                let mut second = pick_degree(kind, limit, &mut rng);
                while second == first {
                    second = pick_degree(kind, limit, &mut rng);
                }
                degrees.push(second);
            }
            for degree in degrees {
                perms.push((
                    HitItem {
                        position: 0,
                        item_type: ItemType::BadRef,
                        system: None,
                        segment: mt[b].segment.clone(),
                        paired_with: None,
                        set: 0,
                        permutation: Some(Permutation { kind, degree }),
                        screen: None,
                        unit: None,
                        gold: None,
                        pair: None,
                    },
                    b,
                ));
            }
        }
        // Order: shuffle everything; link permutations to their base output.
        let mut slots: Vec<(bool, usize)> = (0..mt.len())
            .map(|i| (false, i))
            .chain((0..perms.len()).map(|j| (true, j)))
            .collect();
        slots.shuffle(&mut rng);
        let mut mt_pos = vec![0usize; mt.len()];
        // A base output points at its first permutation.
        let mut first_perm_pos: Vec<Option<usize>> = vec![None; mt.len()];
        for (pos, &(is_perm, i)) in slots.iter().enumerate() {
            if is_perm {
                first_perm_pos[perms[i].1].get_or_insert(pos);
            } else {
                mt_pos[i] = pos;
            }
        }
        let items = slots
            .iter()
            .enumerate()
            .map(|(pos, &(is_perm, i))| {
                if is_perm {
                    let (mut item, b) = perms[i].clone();
                    item.position = pos;
                    item.paired_with = Some(mt_pos[b]);
                    item
                } else {
                    HitItem {
                        position: pos,
                        item_type: ItemType::System,
                        system: Some(mt[i].system.clone()),
                        segment: mt[i].segment.clone(),
                        paired_with: first_perm_pos[i],
                        set: 0,
                        permutation: None,
                        screen: None,
                        unit: None,
                        gold: None,
                        pair: None,
                    }
                }
            })
            .collect();
        hits.push(Hit { index, items });
    }
    Ok(hits)
}
