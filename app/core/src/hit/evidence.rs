//! Whether a design's HITs give the reliability test enough to judge a worker (issue 38):
//! counted on the HITs the builder built, as the analysis pairs them ([`crate::analysis::quality`]).
//!
//! A worker's reliability pairs are, per HIT, each bad reference (a degraded copy; word order:
//! a permuted reference, whose system is its base item's) with the SYSTEM item of the same
//! system and segment in that HIT; ranking adds the pairs its gold blocks order strictly
//! ([`crate::analysis::gold`]). With fewer pairs than the test's minimum the verdict is "not
//! enough evidence" (never "pass"): a design whose HITs cannot reach the minimum pays for
//! judgments that quality control can never vouch for. [`EvidencePlan::refusal`] says so in
//! words, according to what the campaign does with such workers ([`ThinEvidence`]).

use std::collections::HashSet;

use crate::model::ItemType;
#[cfg(test)]
use crate::settings::ThinEvidence;

pub use crate::evidence::{EvidencePlan, ThinEvidenceRefusal};

use super::Hit;

/// Reliability pairs in one HIT, as [`crate::analysis::quality`] pairs them: each BAD_REF item
/// whose (system, segment) has a SYSTEM item in the same HIT. A BAD_REF without a system (a
/// word-order permutation of the reference) takes its paired item's system, as the campaign
/// loader gives it. A BAD_REF item that shows its degraded copy against its own original (a
/// pair of outputs, [`super::pairs::PairShown::degraded`]) is a pair by itself.
pub fn reliability_pairs(hit: &Hit) -> usize {
    let originals: HashSet<(&str, &str)> = hit
        .items
        .iter()
        .filter(|i| i.item_type == ItemType::System && i.gold.is_none())
        .filter_map(|i| Some((i.system.as_deref()?, i.segment.as_str())))
        .collect();
    hit.items
        .iter()
        .filter(|i| i.item_type == ItemType::BadRef)
        .filter(|i| {
            if i.pair.as_ref().is_some_and(|p| p.degraded.is_some()) {
                return true;
            }
            let system = i.system.as_deref().or_else(|| i.paired_with.and_then(|p| hit.items.get(p)).and_then(|p| p.system.as_deref()));
            system.is_some_and(|s| originals.contains(&(s, i.segment.as_str())))
        })
        .count()
}

/// Gold pairs in one HIT: per gold block (a screen's gold outputs of one segment), the pairs of
/// outputs whose expected ranks differ (ties order nothing).
pub fn gold_pairs(hit: &Hit) -> usize {
    let mut blocks: std::collections::BTreeMap<(Option<usize>, &str), Vec<u32>> = std::collections::BTreeMap::new();
    for i in &hit.items {
        if let Some(rank) = i.gold {
            blocks.entry((i.screen, i.segment.as_str())).or_default().push(rank);
        }
    }
    blocks.values().map(|ranks| (0..ranks.len()).map(|a| (a + 1..ranks.len()).filter(|&b| ranks[a] != ranks[b]).count()).sum::<usize>()).sum()
}

/// The evidence the built `hits` give one worker per HIT, against the test's `min_pairs` (and
/// the gold check's `gold_min_pairs`, 0 without gold blocks).
pub fn plan(hits: &[Hit], min_pairs: usize, gold_min_pairs: usize) -> EvidencePlan {
    let pairs: Vec<usize> = hits.iter().map(reliability_pairs).collect();
    let gold: Vec<usize> = hits.iter().map(gold_pairs).collect();
    let gold_on = gold.iter().any(|&g| g > 0);
    let gold_min = if gold_on { gold_min_pairs.max(1) } else { 0 };
    let thin_hits = pairs.iter().zip(&gold).filter(|&(&p, &g)| p < min_pairs && !(gold_on && g >= gold_min)).count();
    EvidencePlan {
        min_pairs,
        gold_min_pairs: gold_min,
        hits: hits.len(),
        fewest: pairs.iter().copied().min().unwrap_or(0),
        most: pairs.iter().copied().max().unwrap_or(0),
        fewest_gold: if gold_on { gold.iter().copied().min().unwrap_or(0) } else { 0 },
        thin_hits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hit::{Candidate, DocumentDesign, DocumentSegment, DocumentUnit, HitDesign, build_document_hits, JudgmentsWanted, RankingDesign, WordOrderDesign, build_hits, build_ranking_hits, build_word_order_hits};

    fn candidates(systems: usize, segments: usize) -> Vec<Candidate> {
        (0..systems).flat_map(|s| (0..segments).map(move |g| Candidate::new(format!("sys{s}"), format!("{g}")))).collect()
    }

    /// Pairs of outputs: each degraded copy shown against its own original is one pair, so a
    /// HIT of 16 pairs with 5 copies gives the test its 5 (the reliability test pools exactly
    /// those items, `protocol::pairwise::qc`).
    #[test]
    fn each_copy_against_its_original_is_one_pair() {
        use crate::hit::{PairDesign, build_pair_hits};
        let hits = build_pair_hits(&candidates(4, 30), &PairDesign { pairs: 16, degraded: 5, repeats: 1 }, JudgmentsWanted::PerSystem(10), 9).unwrap();
        assert!(!hits.is_empty());
        let p = plan(&hits, 5, 0);
        assert_eq!((p.fewest, p.most, p.thin_hits), (5, 5, 0), "{p:?}");
        let p = plan(&hits, 6, 0);
        assert_eq!(p.thin_hits, hits.len());
    }

    /// The issue's design: DA (fluency or source-based: the same builder), 20-item HITs with 2
    /// bad references each. Every HIT gives 2 pairs; the test needs 5: every worker is thin,
    /// and the launch is refused in words unless acknowledged.
    #[test]
    fn the_issues_design_is_thin_and_refused_without_i_know() {
        let design = HitDesign { length: 20, bad_refs: 2, repeats: 2, refs: 2, sets: 2 };
        let hits = build_hits(&candidates(4, 60), &design, JudgmentsWanted::PerSystem(40), 1).unwrap();
        assert!(hits.len() >= 8, "{} HITs", hits.len());
        let p = plan(&hits, 5, 0);
        assert_eq!((p.fewest, p.most, p.thin_hits, p.hits), (2, 2, hits.len(), hits.len()));
        assert!(p.all_thin());
        assert_eq!(p.hits_to_reach(), Some(3));
        let refused = p.refusal(ThinEvidence::Exclude, false).unwrap_err().0;
        assert!(refused.contains("Each worker's HIT has 2 reliability pairs"), "{refused}");
        assert!(refused.contains("needs 5"), "{refused}");
        assert!(refused.contains("excluded"), "{refused}");
        assert!(refused.contains("every worker who does one HIT will be \u{201c}not enough evidence\u{201d} and excluded: no judgment of theirs will reach the scores"), "{refused}");
        assert!(p.refusal(ThinEvidence::Hold, false).unwrap_err().0.contains("held"));
        // Kept, such workers lose nothing paid for: the designer warns, the launch goes ahead.
        assert!(p.consequence(ThinEvidence::Keep).unwrap().contains("kept in the scores unchecked"));
        assert!(!p.needs_i_know(ThinEvidence::Keep) && p.needs_i_know(ThinEvidence::Exclude));
        assert_eq!(p.refusal(ThinEvidence::Keep, false), Ok(()));
        assert_eq!(p.refusal(ThinEvidence::Exclude, true), Ok(()));
    }

    /// The default DA design (100 items, 10 bad references) reaches the minimum in every HIT:
    /// nothing to acknowledge.
    #[test]
    fn the_default_design_is_not_thin() {
        let hits = build_hits(&candidates(4, 200), &HitDesign::default(), JudgmentsWanted::PerSystem(200), 3).unwrap();
        let p = plan(&hits, 5, 0);
        assert_eq!((p.fewest, p.thin_hits), (10, 0));
        assert_eq!(p.consequence(ThinEvidence::Exclude), None);
        assert_eq!(p.refusal(ThinEvidence::Exclude, false), Ok(()));
    }

    /// Exactly the minimum passes; one fewer is thin (the boundary the analysis uses: fewer
    /// pairs than `min_pairs` is "not enough evidence").
    #[test]
    fn the_boundary_is_the_analysis_minimum() {
        for (bad, thin) in [(5, false), (4, true)] {
            let design = HitDesign { length: 40, bad_refs: bad, repeats: 0, refs: 0, sets: 2 };
            let hits = build_hits(&candidates(3, 80), &design, JudgmentsWanted::PerSystem(60), 2).unwrap();
            assert_eq!(plan(&hits, 5, 0).is_thin(), thin, "{bad} bad references");
        }
    }

    /// A ranking HIT: degraded copies in their original's block count as pairs; gold blocks
    /// can carry a worker instead.
    #[test]
    fn ranking_counts_degraded_copies_and_gold_pairs() {
        let design = RankingDesign { screens: 4, blocks_per_screen: 2, outputs: 3, degraded_blocks: 2, repeated_screens: 0, gold_blocks: 0 };
        let hits = build_ranking_hits(&candidates(4, 40), &design, &[], JudgmentsWanted::PerSystem(30), 5).unwrap();
        let p = plan(&hits, 5, 0);
        assert_eq!(p.fewest, 2);
        assert!(p.all_thin());
    }

    /// Word order's permutations are BAD_REF items without a system; they pair through their
    /// base item, as the loader reads them.
    #[test]
    fn word_order_permutations_pair_through_their_base_item() {
        let mut c = candidates(2, 60);
        for x in &mut c {
            x.reference_words = Some(12);
        }
        let design = WordOrderDesign { length: 20, permutations: 6, same_reference_pairs_per_kind: 0, max_degree: 3 };
        let hits = build_word_order_hits(&c, &design, JudgmentsWanted::PerSystem(20), 4).unwrap();
        let pairs: Vec<usize> = hits.iter().map(reliability_pairs).collect();
        let with_system_partner = |h: &Hit| {
            h.items
                .iter()
                .filter(|i| i.item_type == ItemType::BadRef)
                .filter(|i| i.paired_with.and_then(|p| h.items.get(p)).is_some_and(|p| p.item_type == ItemType::System))
                .count()
        };
        assert_eq!(pairs, hits.iter().map(with_system_partner).collect::<Vec<_>>());
        assert!(pairs.iter().any(|&n| n > 0));
    }

    /// Documents: a degraded document is paired segment by segment, so one degraded document
    /// of 6 segments gives 6 pairs.
    #[test]
    fn a_degraded_document_gives_a_pair_per_segment() {
        let units: Vec<DocumentUnit> = (0..3)
            .flat_map(|s| {
                (0..12).map(move |d| DocumentUnit {
                    system: format!("sys{s}"),
                    document: format!("doc{d}"),
                    segments: (0..6).map(|g| DocumentSegment { segment: format!("{}", d * 6 + g), source_words: 20, degradable: true }).collect(),
                })
            })
            .collect();
        let design = DocumentDesign { seconds_per_hit: 1800.0, seconds_per_source_word: 0.8, bad_ref_documents: 1, repeat_documents: 1, copies: 1 };
        let hits = build_document_hits(&units, &design, 9).unwrap();
        let p = plan(&hits, 5, 0);
        assert_eq!((p.fewest, p.most, p.thin_hits), (6, 6, 0), "{p:?}");
    }
}
