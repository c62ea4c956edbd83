use super::*;
use crate::hit::{
    Candidate, DocumentDesign, DocumentSegment, DocumentUnit, HitDesign, JudgmentsWanted, RankingDesign, WordOrderDesign,
    build_document_hits, build_hits, build_ranking_hits, build_word_order_hits,
};
use crate::settings::WantedPer;

fn candidates(systems: usize, segments: usize) -> Vec<Candidate> {
    (0..systems)
        .flat_map(|s| {
            (0..segments).map(move |g| Candidate { reference_words: Some(12), ..Candidate::new(format!("sys{s}"), format!("{g}")) })
        })
        .collect()
}

fn assert_same(task: TaskKind, s: &CampaignSettings, estimate: &Implications, built: &Implications) {
    let what = format!("{task:?} length {} bad {} rep {} refs {} wanted {}", s.hit_length, s.bad_refs, s.repeats, s.refs, s.judgments_wanted);
    assert_eq!(estimate.hits, built.hits, "HITs: {what}");
    assert_eq!(estimate.system_items_per_hit, built.system_items_per_hit, "system items per HIT: {what}");
    assert_eq!(estimate.assignments, built.assignments, "{what}");
    assert!((estimate.minutes_per_hit - built.minutes_per_hit).abs() < 1e-9, "minutes: {what}");
    assert!((estimate.judgments_per_system - built.judgments_per_system).abs() < 1e-9, "judgments per system: {what}");
}

/// The designer's calculator counts what the DA builder builds, over a grid of designs.
#[test]
fn the_calculator_counts_what_the_da_builder_builds() {
    let mut tried = 0;
    for task in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased] {
        for (length, bad, rep, refs, sets) in [(100, 10, 10, 10, 10), (20, 2, 2, 2, 2), (40, 5, 0, 0, 2), (30, 3, 3, 0, 6), (60, 6, 6, 6, 2)] {
            for systems in [2, 3, 5] {
                for wanted in [10, 45, 120] {
                    let s = CampaignSettings {
                        hit_length: length, bad_refs: bad, repeats: rep, refs, sets, judgments_wanted: wanted, redundancy: 3,
                        ..CampaignSettings::for_task(task, "German", "English")
                    };
                    let design = HitDesign { length, bad_refs: bad, repeats: rep, refs, sets };
                    let Ok(hits) = build_hits(&candidates(systems, 200), &design, JudgmentsWanted::PerSystem(wanted), 7) else { continue };
                    assert_same(task, &s, &s.implications(task, systems, 200), &of_item_hits(&s, task, systems, &hits));
                    tried += 1;
                }
            }
        }
    }
    assert!(tried >= 100, "{tried} designs built");
}

/// Word order and ranking, over grids of their designs.
#[test]
fn the_calculator_counts_what_word_order_and_ranking_build() {
    let mut tried = 0;
    for (length, permutations) in [(50, 25), (20, 6), (30, 10)] {
        for wanted in [10, 40] {
            let task = TaskKind::WordOrder;
            let mut s = CampaignSettings { hit_length: length, judgments_wanted: wanted, ..CampaignSettings::for_task(task, "German", "English") };
            (s.word_order.permutations, s.word_order.same_reference_pairs) = (permutations, 0);
            let design = WordOrderDesign { length, permutations, same_reference_pairs_per_kind: 0, max_degree: 3 };
            let Ok(hits) = build_word_order_hits(&candidates(2, 100), &design, JudgmentsWanted::PerSystem(wanted), 3) else { continue };
            assert_same(task, &s, &s.implications(task, 2, 100), &of_item_hits(&s, task, 2, &hits));
            tried += 1;
        }
    }
    for (screens, blocks, outputs, degraded, repeated) in [(8, 3, 5, 5, 1), (4, 2, 3, 2, 0), (6, 1, 4, 1, 2)] {
        for wanted in [20, 100] {
            let task = TaskKind::Ranking;
            let mut s = CampaignSettings {
                hit_length: screens, bad_refs: degraded, repeats: repeated, judgments_wanted: wanted,
                ..CampaignSettings::for_task(task, "German", "English")
            };
            (s.ranking.blocks_per_screen, s.ranking.outputs) = (blocks, outputs);
            let design = RankingDesign { screens, blocks_per_screen: blocks, outputs, degraded_blocks: degraded, repeated_screens: repeated, gold_blocks: 0 };
            let Ok(hits) = build_ranking_hits(&candidates(6, 100), &design, &[], JudgmentsWanted::PerSystem(wanted), 3) else { continue };
            assert_same(task, &s, &s.implications(task, 6, 100), &of_item_hits(&s, task, 6, &hits));
            tried += 1;
        }
    }
    assert!(tried >= 10, "{tried} designs built");
}

/// Tasks of documents: the figures the designer shows after its check are the built HITs'
/// (the browser's estimate cannot know the documents' lengths): HITs, the most outputs in a
/// HIT, and the time by source words, over documents of many lengths and designs.
#[test]
fn document_figures_are_the_built_hits() {
    let mut tried = 0;
    for words in [8usize, 20, 45] {
        for (minutes, bad, rep) in [(60.0, 1, 1), (20.0, 1, 0), (6.0, 0, 0), (90.0, 2, 1)] {
            for task in [TaskKind::Esa, TaskKind::Mqm] {
                let units: Vec<DocumentUnit> = (0..3)
                    .flat_map(|s| {
                        (0..10).map(move |d| DocumentUnit {
                            system: format!("sys{s}"),
                            document: format!("doc{d}"),
                            segments: (0..(3 + d % 5)).map(|g| DocumentSegment { segment: format!("{d}-{g}"), source_words: words, degradable: true }).collect(),
                        })
                    })
                    .collect();
                let mut s = CampaignSettings { bad_refs: bad, repeats: rep, wanted_per: WantedPer::Segment, ..CampaignSettings::for_task(task, "German", "English") };
                s.documents.hit_minutes = minutes;
                let design = DocumentDesign {
                    seconds_per_hit: s.documents.seconds_per_hit(),
                    seconds_per_source_word: s.documents.seconds_per_source_word,
                    bad_ref_documents: bad,
                    repeat_documents: rep,
                    copies: 1,
                };
                let Ok(hits) = build_document_hits(&units, &design, 5) else { continue };
                let per_word = s.documents.seconds_per_source_word;
                let f = of_hits(&s, 3, &hits, |_| words as f64 * per_word);
                assert_eq!(f.hits, hits.len());
                let outputs: usize = units.iter().map(|u| u.segments.len()).sum();
                assert!((f.judgments_per_system - outputs as f64 * s.redundancy as f64 / 3.0).abs() < 1e-9, "every output judged once per copy");
                assert_eq!(f.system_items_per_hit, hits.iter().map(|h| h.items.iter().filter(|i| i.item_type == ItemType::System).count()).max().unwrap());
                // Whole documents fill a HIT up to its time; one document longer than that
                // makes a HIT of its own.
                let longest_document = 7.0 * 2.0 * words as f64 * per_word / 60.0;
                assert!(f.minutes_per_hit <= minutes.max(longest_document) + 1e-9, "{task:?} {words} words {minutes} min: {}", f.minutes_per_hit);
                tried += 1;
            }
        }
    }
    assert!(tried >= 20, "{tried}");
}
