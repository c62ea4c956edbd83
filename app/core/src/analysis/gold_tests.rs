use super::*;
use crate::analysis::verdict::Verdict;

fn answers(block: u32, expected: &[u32], given: &[u32]) -> Vec<GoldAnswer> {
    expected.iter().zip(given).map(|(&e, &g)| GoldAnswer { worker: 0, block, expected: e, given: g }).collect()
}

#[test]
fn orders_read_with_ties_and_every_problem_is_reported_with_its_line() {
    assert_eq!(parse_order("A > B = C > D").unwrap(), vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 2), ("D".into(), 4)]);
    assert_eq!(parse_order(" A = B > C").unwrap(), vec![("A".into(), 1), ("B".into(), 1), ("C".into(), 3)]);
    assert!(parse_order("A = B").unwrap_err().to_string().contains("at least one strict preference"));
    assert!(parse_order("A").unwrap_err().to_string().contains("at least 2 systems"));
    assert!(parse_order("A > > B").unwrap_err().to_string().contains("empty place"));
    assert!(parse_order("A > B > A").unwrap_err().to_string().contains("twice"));
    let tsv = "segment\torder\n1\tA > B = C\n# a comment\n\n2\tC > A\n";
    let orders = read_gold("gold.tsv", tsv).unwrap();
    assert_eq!(orders.len(), 2);
    assert_eq!((orders[1].line, orders[1].segment.as_str(), orders[1].order_text()), (5, "2", "C > A".to_string()));
    assert_eq!(orders[0].order_text(), "A > B = C");
    let bad = "1\tA > B\n1\tB > A\n2\tA = B\n3\n";
    let errors: Vec<String> = read_gold("g.tsv", bad).unwrap_err().iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].starts_with("g.tsv, line 2: segment \"1\" has a gold order already (line 1)"), "{errors:?}");
    assert!(errors[1].starts_with("g.tsv, line 3:") && errors[1].contains("strict"), "{errors:?}");
    assert!(errors[2].starts_with("g.tsv, line 4: expected 2 tab-separated columns"), "{errors:?}");
    let jsonl = "{\"segment\": \"7\", \"order\": [[\"A\"], [\"B\", \"C\"]]}\n{\"segment\": 8, \"order\": \"B > A\"}\n";
    let orders = read_gold("gold.jsonl", jsonl).unwrap();
    assert_eq!(orders[0].ranks, vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 2)]);
    assert_eq!(orders[1].segment, "8");
    let e = read_gold("gold.jsonl", "{\"segment\": \"7\"}\nnot json\n").unwrap_err();
    assert_eq!(e.len(), 2);
    assert!(e[0].to_string().contains("line 1: no \"order\""));
    assert_eq!(read_gold("empty.tsv", "# nothing\n").unwrap_err()[0].to_string(), "empty.tsv: no gold order in the file");
    // Names the test set does not have.
    let orders = read_gold("g.tsv", "1\tA > Z\n9\tA > B\n").unwrap();
    let e = check_names("g.tsv", &orders, |s| s == "1", |_, sys| (sys == "Z").then(|| format!("the test set has no output of system {sys:?}")));
    let e: Vec<String> = e.iter().map(ToString::to_string).collect();
    assert_eq!(e, ["g.tsv, line 1: the test set has no output of system \"Z\"", "g.tsv, line 2: the test set has no segment \"9\""]);
}

#[test]
fn agreement_counts_strict_gold_pairs_and_ties_given_do_not_agree() {
    let rule = GoldRule { threshold: 0.7, min_pairs: 3 };
    // Gold A 1, B 2, C 2, D 4: strict pairs AB, AC, AD, BD, CD (5); BC tied by the gold, left out.
    let exact = answers(0, &[1, 2, 2, 4], &[1, 2, 3, 5]);
    let c = gold_check(&exact, rule, Verdict::NotEnoughEvidence);
    assert_eq!((c.pairs, c.agreed, c.tied, c.blocks), (5, 5, 0, 1));
    assert_eq!((c.agreement, c.verdict), (Some(1.0), Verdict::Pass));
    // Reversed: no agreement.
    let c = gold_check(&answers(0, &[1, 2, 2, 4], &[5, 3, 3, 1]), rule, Verdict::Pass);
    assert_eq!((c.agreed, c.verdict, c.copies), (0, Verdict::Fail, Verdict::Pass));
    // All tied by the worker: five ties, none agreeing.
    let c = gold_check(&answers(0, &[1, 2, 2, 4], &[1, 1, 1, 1]), rule, Verdict::Pass);
    assert_eq!((c.agreed, c.tied, c.agreement), (0, 5, Some(0.0)));
    // Two blocks: pairs never cross blocks (block 1 alone has 1 pair).
    let mut two = answers(0, &[1, 2], &[1, 2]);
    two.extend(answers(1, &[2, 1], &[1, 2]));
    let c = gold_check(&two, rule, Verdict::NotEnoughEvidence);
    assert_eq!((c.blocks, c.pairs, c.agreed), (2, 2, 1));
    // Tiny samples: not enough evidence, whatever the agreement.
    assert_eq!(c.verdict, Verdict::NotEnoughEvidence);
    assert_eq!(gold_check(&[], rule, Verdict::Pass).verdict, Verdict::NotEnoughEvidence);
    assert_eq!(gold_check(&[], rule, Verdict::Pass).agreement, None);
}

#[test]
fn the_threshold_is_inclusive_and_the_minimum_counts_pairs() {
    // 10 strict pairs (5 outputs, all different), 7 agreeing: exactly 0.7.
    let mut a = answers(0, &[1, 2, 3, 4, 5], &[1, 2, 3, 4, 5]);
    // Swap 3 adjacent pairs' worth: given 2,1,3,5,4 reverses (1,2) and (4,5) → 8 of 10.
    a[0].given = 2;
    a[1].given = 1;
    a[3].given = 5;
    a[4].given = 4;
    let at = |threshold: f64, min_pairs: usize| gold_check(&a, GoldRule { threshold, min_pairs }, Verdict::NotEnoughEvidence);
    assert_eq!(at(0.8, 10).agreement, Some(0.8));
    assert_eq!(at(0.8, 10).verdict, Verdict::Pass);
    assert_eq!(at(0.81, 10).verdict, Verdict::Fail);
    assert_eq!(at(0.8, 11).verdict, Verdict::NotEnoughEvidence);
    assert_eq!(at(0.0, 0).verdict, Verdict::Pass, "a minimum of 0 still needs one pair");
    assert_eq!(at(0.8, 10).summary(), "0.80 (8 of 10 gold pairs)");
}

#[test]
fn the_two_checks_combine_failure_first() {
    use Verdict::*;
    assert_eq!(combine(Pass, Fail), Fail);
    assert_eq!(combine(Fail, Pass), Fail);
    assert_eq!(combine(NotEnoughEvidence, Fail), Fail);
    assert_eq!(combine(NotEnoughEvidence, Pass), Pass);
    assert_eq!(combine(Pass, NotEnoughEvidence), Pass);
    assert_eq!(combine(NotEnoughEvidence, NotEnoughEvidence), NotEnoughEvidence);
}

/// Through quality control: a ranking worker's gold check joins the degraded-copy test in
/// the reliability verdict (and so in the exclusion); other tasks ignore gold.
#[test]
fn quality_control_folds_the_gold_check_into_the_verdict() {
    use crate::analysis::quality::{self, ExclusionPolicy, QcSettings};
    use crate::analysis::{JudgmentNames, JudgmentSet, TimeBasis};
    use crate::model::ItemType;
    for task in ["ranking", "da-adequacy"] {
        let mut set = JudgmentSet::new(TimeBasis::PerItem);
        for worker in ["good", "bad"] {
            for seg in 0..4 {
                let segment = seg.to_string();
                let scale = crate::protocol::for_task(crate::model::TaskKind::parse(task).unwrap()).questions()[0].scale;
                let names = JudgmentNames { worker, hit: "h", system: "A", segment: &segment, lang_pair: "de-en", task, scale };
                set.push(names, ItemType::System, 0.5, 1.0);
            }
        }
        set.gold.rule = GoldRule { threshold: 0.7, min_pairs: 10 };
        // Two gold blocks of five outputs each (10 strict pairs per block): "good" ranks them
        // as the gold does, "bad" in reverse.
        for (w, reversed) in [(0u32, false), (1, true)] {
            for block in 0..2 {
                for e in 1..=5u32 {
                    let given = if reversed { 6 - e } else { e };
                    set.gold.answers.push(GoldAnswer { worker: w, block: w * 2 + block, expected: e, given });
                }
            }
        }
        let qc = quality::run(&set, &QcSettings::default());
        assert_eq!(qc.len(), 2);
        if task == "ranking" {
            let (good, bad) = (&qc[0].reliability, &qc[1].reliability);
            assert_eq!((good.verdict, good.gold.as_ref().unwrap().pairs), (Verdict::Pass, 20));
            assert_eq!(good.gold.as_ref().unwrap().copies, Verdict::NotEnoughEvidence, "no degraded copies");
            assert_eq!((bad.verdict, bad.gold.as_ref().unwrap().agreement), (Verdict::Fail, Some(0.0)));
            assert!(!ExclusionPolicy::NotPassed.excludes(&qc[0]) && ExclusionPolicy::FailedOnly.excludes(&qc[1]));
            // The stored form reads back (the gate keeps it as JSON).
            let json = serde_json::to_string(bad).unwrap();
            assert_eq!(&serde_json::from_str::<crate::analysis::quality::PairCheck>(&json).unwrap(), bad);
        } else {
            assert!(qc.iter().all(|w| w.reliability.gold.is_none() && w.reliability.verdict == Verdict::NotEnoughEvidence));
        }
    }
}

#[test]
fn gold_is_made_where_judges_agreed_strongly() {
    use crate::analysis::ranking::{RankedOutput, RankingBlock, RankingData};
    let block = |segment: &str, judge: &str, ranks: &[(usize, u32)]| RankingBlock {
        segment: segment.into(),
        judge: judge.into(),
        outputs: ranks.iter().map(|&(system, r)| RankedOutput { system, rank: Some(r) }).collect(),
    };
    let data = RankingData {
        pair: "de-en".into(),
        systems: vec!["A".into(), "B".into(), "C".into()],
        blocks: vec![
            // Segment 1: three judges agree A > B = C.
            block("1", "j1", &[(0, 1), (1, 2), (2, 2)]),
            block("1", "j2", &[(0, 1), (1, 3), (2, 3)]),
            block("1", "j3", &[(2, 2), (0, 1), (1, 2)]),
            // Segment 2: two judges disagree on B against C.
            block("2", "j1", &[(0, 1), (1, 2), (2, 3)]),
            block("2", "j2", &[(0, 1), (1, 3), (2, 2)]),
            // Segment 3: one judge only.
            block("3", "j1", &[(0, 1), (1, 2), (2, 3)]),
            // Segment 4: all tied by both: no strict pair.
            block("4", "j1", &[(0, 1), (1, 1)]),
            block("4", "j2", &[(0, 1), (1, 1)]),
        ],
    };
    let gold = gold_from_blocks(&data, 2, 0.9);
    assert_eq!(gold.len(), 1, "{gold:?}");
    assert_eq!((gold[0].segment.as_str(), gold[0].order_text()), ("1", "A > B = C".to_string()));
    // At 0.5 one judge of two is enough: segment 2 (A > B > C by j1) too.
    assert_eq!(gold_from_blocks(&data, 2, 0.5).len(), 2);
    let mut file = Vec::new();
    write_gold_tsv(&mut file, &gold).unwrap();
    let text = String::from_utf8(file).unwrap();
    assert_eq!(text, "segment\torder\n1\tA > B = C\n");
    // The file reads back as a gold file.
    assert_eq!(read_gold("gold.tsv", &text).unwrap()[0].ranks, gold[0].ranks);
}
