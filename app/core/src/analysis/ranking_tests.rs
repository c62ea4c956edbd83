//! The ranking methods against the WMT 2012 papers' numbers (seed 001) and against the
//! independent Python implementation in `tests/fixtures/ranking/generate.py`.

use super::*;

/// A matrix of wins given as (winner, loser, count).
fn matrix(n: usize, edges: &[(usize, usize, u64)]) -> Pairwise {
    let mut wins = vec![0; n * n];
    for &(w, l, c) in edges {
        wins[w * n + l] = c;
    }
    Pairwise::from_counts(n, wins, vec![0; n * n])
}

#[test]
fn lopez_figure_2_eq1_and_mfas_disagree_as_the_paper_says() {
    // A→B 3, A→C 1, A→D 2, B→C 1, B→D 1, C→D 2 (winner → loser).
    let (a, b, c, d) = (0, 1, 2, 3);
    let p = matrix(4, &[(a, b, 3), (a, c, 1), (a, d, 2), (b, c, 1), (b, d, 1), (c, d, 2)]);
    let s = standings(&p);
    // Eq. 1 (no ties here, so (b) and (d) agree): A 1, B 2/5, C 2/4, D 0 → A, C, B, D.
    let ratios: Vec<f64> = s.iter().map(|x| x.wins_ratio.unwrap()).collect();
    assert_eq!(ratios, vec![1.0, 2.0 / 5.0, 2.0 / 4.0, 0.0]);
    assert_eq!(ranks_of(&s.iter().map(|x| x.wins_ratio).collect::<Vec<_>>()), vec![1, 3, 2, 4]);
    // MFAS: the acyclic tournament itself, with no violation.
    let mfas = best_order(&p, OrderCriterion::MinFeedbackArcSet).unwrap();
    assert_eq!(mfas.order, vec![a, b, c, d]);
    assert_eq!(mfas.cost, 0.0);
}

#[test]
fn the_most_probable_example_of_the_findings() {
    // win(A,B)=20/0, win(B,C)=40/20, win(C,A)=60/40.
    let (a, b, c) = (0, 1, 2);
    let p = matrix(3, &[(a, b, 20), (b, c, 40), (c, b, 20), (c, a, 60), (a, c, 40)]);
    for order in [[a, b, c], [b, c, a], [c, a, b]] {
        assert_eq!(order_cost(&p, &order, OrderCriterion::MinFeedbackArcSet), 20.0, "{order:?}");
    }
    assert_eq!(best_order(&p, OrderCriterion::MinFeedbackArcSet).unwrap().cost, 20.0);
    let prob = |o: &[usize]| (-order_cost(&p, o, OrderCriterion::MostProbable)).exp();
    assert!((prob(&[a, b, c]) - 20.0 / 20.0 * 40.0 / 100.0 * 40.0 / 60.0).abs() < 1e-12);
    assert_eq!(prob(&[b, c, a]), 0.0);
    assert!((prob(&[c, a, b]) - 60.0 / 100.0 * 20.0 / 60.0).abs() < 1e-12);
    let mp = best_order(&p, OrderCriterion::MostProbable).unwrap();
    assert_eq!(mp.order, vec![a, b, c]);
    assert!(((-mp.cost).exp() - 0.2667).abs() < 1e-4);
}

#[test]
fn expected_wins_sees_what_the_orderings_cannot() {
    // win(A,B)=100/0, win(A,C)=60/40, win(B,C)=50/50: ABC and ACB tie for MFAS, expected wins
    // gives A 0.80, C 0.45, B 0.25.
    let p = matrix(3, &[(0, 1, 100), (0, 2, 60), (2, 0, 40), (1, 2, 50), (2, 1, 50)]);
    let ew: Vec<f64> = standings(&p).iter().map(|s| s.expected_wins.unwrap()).collect();
    assert!((ew[0] - 0.80).abs() < 1e-12 && (ew[1] - 0.25).abs() < 1e-12 && (ew[2] - 0.45).abs() < 1e-12, "{ew:?}");
    assert_eq!(order_cost(&p, &[0, 1, 2], OrderCriterion::MinFeedbackArcSet), order_cost(&p, &[0, 2, 1], OrderCriterion::MinFeedbackArcSet));
}

/// Czech–English, WMT 2012 Table 14: [row][col] the percentage of comparisons the column
/// system won against the row system; order CU-BOJAR, JHU, ONLINE-A, ONLINE-B, UEDIN, UK.
const CS_EN: [[u64; 6]; 6] = [
    [0, 29, 43, 53, 47, 31],
    [59, 0, 59, 67, 65, 44],
    [44, 28, 0, 52, 46, 32],
    [36, 23, 34, 0, 38, 25],
    [36, 23, 36, 48, 0, 27],
    [56, 33, 56, 63, 60, 0],
];

fn cs_en() -> Pairwise {
    let n = 6;
    let mut wins = vec![0; n * n];
    let mut ties = vec![0; n * n];
    for row in 0..n {
        for col in 0..n {
            if row != col {
                wins[col * n + row] = CS_EN[row][col];
                ties[row * n + col] = 100 - CS_EN[row][col] - CS_EN[col][row];
            }
        }
    }
    Pairwise::from_counts(n, wins, ties)
}

#[test]
fn wmt12_czech_english_expected_wins_and_orderings_from_the_published_table() {
    let p = cs_en();
    // Expected wins recomputed from the percentages (seed001 reading §6.4): 0.532, 0.319, 0.529,
    // 0.644, 0.599, 0.377; Table 22's official values differ by at most 0.004.
    let ew: Vec<f64> = standings(&p).iter().map(|s| s.expected_wins.unwrap()).collect();
    let official = [0.528, 0.320, 0.528, 0.642, 0.603, 0.379];
    for (i, (got, want)) in ew.iter().zip(official).enumerate() {
        assert!((got - want).abs() < 0.005, "system {i}: {got} against Table 22's {want}");
    }
    for (i, want) in [0.532, 0.319, 0.529, 0.644, 0.599, 0.377].into_iter().enumerate() {
        assert!((ew[i] - want).abs() < 0.0006, "system {i}: {} against {want}", ew[i]);
    }
    // Lopez and Most Probable both rank ONLINE-B, UEDIN, CU-BOJAR, ONLINE-A, UK, JHU.
    let want = vec![3, 4, 0, 2, 5, 1];
    assert_eq!(best_order(&p, OrderCriterion::MinFeedbackArcSet).unwrap().order, want);
    assert_eq!(best_order(&p, OrderCriterion::MostProbable).unwrap().order, want);
    // The head-to-head table gives the percentages back.
    let h2h = head_to_head(&p);
    assert!((h2h[0][3].unwrap() - 0.53).abs() < 1e-12);
    assert_eq!(h2h[2][2], None);
}

#[test]
fn blocks_expand_into_pairs_with_ties_and_missing_ranks() {
    let block = [
        RankedOutput { system: 0, rank: Some(1) },
        RankedOutput { system: 1, rank: Some(2) },
        RankedOutput { system: 2, rank: Some(2) },
        RankedOutput { system: 3, rank: None },
        RankedOutput { system: 4, rank: Some(5) },
    ];
    let p = Pairwise::from_blocks(5, [&block[..]]).unwrap();
    // 4 ranked outputs: 6 pairs, one of them a tie; system 3 takes part in none.
    let total: u64 = (0..5).flat_map(|i| (0..5).map(move |j| (i, j))).map(|(i, j)| p.wins(i, j)).sum();
    assert_eq!(total, 5);
    assert_eq!(p.ties(1, 2), 1);
    assert_eq!(p.ties(2, 1), 1);
    assert_eq!(standings(&p)[3].wins_ratio, None);
    let repeated = [RankedOutput { system: 1, rank: Some(1) }, RankedOutput { system: 1, rank: Some(2) }];
    assert_eq!(Pairwise::from_blocks(5, [&repeated[..]]), Err(RankingError::Repeated { block: 0, system: 1 }));
    let unknown = [RankedOutput { system: 7, rank: Some(1) }];
    assert_eq!(Pairwise::from_blocks(5, [&unknown[..]]), Err(RankingError::UnknownSystem { block: 0, system: 7, systems: 5 }));
}

#[test]
fn the_exact_orderings_refuse_what_they_cannot_solve_and_handle_the_degenerate() {
    assert_eq!(
        best_order(&Pairwise::new(MAX_EXACT_SYSTEMS + 1), OrderCriterion::MinFeedbackArcSet),
        Err(RankingError::TooManySystems { systems: MAX_EXACT_SYSTEMS + 1, max: MAX_EXACT_SYSTEMS })
    );
    assert_eq!(best_order(&Pairwise::new(0), OrderCriterion::MostProbable).unwrap().order, Vec::<usize>::new());
    assert_eq!(best_order(&Pairwise::new(1), OrderCriterion::MostProbable).unwrap().order, vec![0]);
    // Nothing compared: every order costs the same; the first one is returned.
    assert_eq!(best_order(&Pairwise::new(4), OrderCriterion::MinFeedbackArcSet).unwrap().order, vec![0, 1, 2, 3]);
}

#[test]
fn rank_ranges_are_tight_when_the_systems_are_far_apart() {
    let mut blocks: Vec<Vec<RankedOutput>> = Vec::new();
    for b in 0..60 {
        // System 0 always first, 3 always last, 1 and 2 alternate.
        let (r1, r2) = if b % 2 == 0 { (2, 3) } else { (3, 2) };
        blocks.push(vec![
            RankedOutput { system: 0, rank: Some(1) },
            RankedOutput { system: 1, rank: Some(r1) },
            RankedOutput { system: 2, rank: Some(r2) },
            RankedOutput { system: 3, rank: Some(4) },
        ]);
    }
    let refs: Vec<&[RankedOutput]> = blocks.iter().map(Vec::as_slice).collect();
    let ranges = expected_wins_rank_ranges(4, &refs, 500, 7).unwrap();
    assert_eq!(ranges[0], (1, 1));
    assert_eq!(ranges[3], (4, 4));
    assert_eq!(ranges[1], (2, 3));
    assert_eq!(ranges[2], (2, 3));
}

/// The fixture of `tests/fixtures/ranking/generate.py`.
#[derive(serde::Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    n: usize,
    blocks: Option<Vec<Vec<(usize, i64)>>>,
    wins: Vec<Vec<u64>>,
    ties: Vec<Vec<u64>>,
    per_system: PerSystem,
    sign_p: Vec<Vec<Option<f64>>>,
    sign_p_greater: Vec<Vec<Option<f64>>>,
    /// The `trueskill` package with its default (approximate) Φ.
    trueskill: Option<TrueSkillFixture>,
    /// The same run with SciPy's exact Φ.
    trueskill_scipy: Option<TrueSkillFixture>,
    most_probable_all: Option<Vec<Vec<usize>>>,
    mfas_cost: Option<f64>,
    mfas_all: Option<Vec<Vec<usize>>>,
}

#[derive(serde::Deserialize)]
struct PerSystem {
    wins: Vec<u64>,
    losses: Vec<u64>,
    ties: Vec<u64>,
    wins_ratio: Vec<Option<f64>>,
    wins_and_ties_ratio: Vec<Option<f64>>,
    expected_wins: Vec<Option<f64>>,
}

#[derive(serde::Deserialize)]
struct TrueSkillFixture {
    mu: Vec<f64>,
    sigma: Vec<f64>,
}

fn close(a: Option<f64>, b: Option<f64>, tol: f64) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => (x - y).abs() <= tol * (1.0 + y.abs()),
        (None, None) => true,
        _ => false,
    }
}

#[test]
fn every_method_matches_the_independent_python_implementation() {
    let fixture: Fixture =
        serde_json::from_str(include_str!("../../../../tests/fixtures/ranking/ranking.json")).expect("the ranking fixture");
    assert!(fixture.cases.len() >= 9);
    for case in &fixture.cases {
        let n = case.n;
        let blocks: Option<Vec<Vec<RankedOutput>>> = case.blocks.as_ref().map(|bs| {
            bs.iter()
                .map(|b| b.iter().map(|&(system, rank)| RankedOutput { system, rank: (rank > 0).then_some(rank as u32) }).collect())
                .collect()
        });
        let p = match &blocks {
            Some(bs) => Pairwise::from_blocks(n, bs.iter().map(Vec::as_slice)).unwrap(),
            None => Pairwise::from_counts(n, case.wins.concat(), case.ties.concat()),
        };
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    assert_eq!(p.wins(i, j), case.wins[i][j], "{}: wins[{i}][{j}]", case.name);
                    assert_eq!(p.ties(i, j), case.ties[i][j], "{}: ties[{i}][{j}]", case.name);
                }
            }
        }
        let s = standings(&p);
        for (i, st) in s.iter().enumerate() {
            let ps = &case.per_system;
            assert_eq!((st.wins, st.losses, st.ties), (ps.wins[i], ps.losses[i], ps.ties[i]), "{}: system {i}", case.name);
            assert!(close(st.wins_ratio, ps.wins_ratio[i], 1e-12), "{}: wins ratio {i}", case.name);
            assert!(close(st.wins_and_ties_ratio, ps.wins_and_ties_ratio[i], 1e-12), "{}: wins and ties {i}", case.name);
            assert!(close(st.expected_wins, ps.expected_wins[i], 1e-12), "{}: expected wins {i}", case.name);
        }
        let two = sign_tests(&p);
        for i in 0..n {
            for j in 0..n {
                assert!(close(two[i][j], case.sign_p[i][j], 1e-9), "{}: sign p [{i}][{j}] {:?} {:?}", case.name, two[i][j], case.sign_p[i][j]);
                if i != j {
                    let greater = sign_test(p.wins(i, j), p.wins(j, i), Alternative::Greater).ok();
                    assert!(close(greater, case.sign_p_greater[i][j], 1e-9), "{}: one-sided p [{i}][{j}]", case.name);
                }
            }
        }
        if let (Some(cost), Some(all)) = (case.mfas_cost, &case.mfas_all) {
            let got = best_order(&p, OrderCriterion::MinFeedbackArcSet).unwrap();
            assert_eq!(got.cost, cost, "{}: MFAS cost", case.name);
            assert!(all.contains(&got.order), "{}: MFAS order {:?} not among {all:?}", case.name, got.order);
        }
        if let Some(all) = &case.most_probable_all {
            let got = best_order(&p, OrderCriterion::MostProbable).unwrap();
            assert!(all.contains(&got.order), "{}: most probable {:?} not among {all:?}", case.name, got.order);
        }
        if let (Some(ts), Some(exact), Some(bs)) = (&case.trueskill, &case.trueskill_scipy, &blocks) {
            let refs: Vec<&[RankedOutput]> = bs.iter().map(Vec::as_slice).collect();
            let got = trueskill(n, &refs, &TrueSkillParams::wmt(n)).unwrap();
            for i in 0..n {
                // With an exact Φ, as SciPy's, the same to rounding.
                assert!(close(Some(got[i].mu), Some(exact.mu[i]), 1e-9), "{}: μ {i}: {} against {}", case.name, got[i].mu, exact.mu[i]);
                assert!(close(Some(got[i].sigma), Some(exact.sigma[i]), 1e-9), "{}: σ {i}: {} against {}", case.name, got[i].sigma, exact.sigma[i]);
                // The package's own Φ is a polynomial approximation: about 1e-7 apart.
                assert!((got[i].mu - ts.mu[i]).abs() < 1e-6, "{}: μ {i}: {} against {}", case.name, got[i].mu, ts.mu[i]);
                assert!((got[i].sigma - ts.sigma[i]).abs() < 1e-6, "{}: σ {i}: {} against {}", case.name, got[i].sigma, ts.sigma[i]);
            }
        }
    }
}

#[test]
fn the_wmt_ranking_csv_is_read_by_its_header() {
    // Three rows of keisks/wmt-trueskill's data/sample-fr-en-test.csv (newstest2013), and a
    // row of another pair written with codes.
    let csv = "srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,system2Id,system3Number,system3Id,system4Number,system4Id,system5Number,system5Id,system1rank,system2rank,system3rank,system4rank,system5rank\n\
French,English,556,-1,556,researcher_31,-1,newstest2013.fr-en.KIT_primary.2658,-1,newstest2013.fr-en.uedin-heafield-unconstrained.2755,-1,newstest2013.fr-en.DCU__primary.2828,-1,newstest2013.fr-en.MES-SimplifiedFrench-primary.2662,-1,newstest2013.fr-en.LIMSI-Ncode-SOUL-primary.2585,2,2,3,2,1\n\
French,English,766,-1,766,researcher_83,-1,newstest2013.fr-en.uedin-wmt13.2838,-1,newstest2013.fr-en.CMU_Tree-to-Tree.2893,-1,newstest2013.fr-en.RWTH_primary.2595,-1,newstest2013.fr-en.DCU__primary.2828,-1,newstest2013.fr-en.uedin-heafield-unconstrained.2755,2,2,1,1,2\n\
cs,en,1,-1,1,j,-1,A,-1,B,-1,C,-1,-1,-1,-1,1,-1,2,-1,-1\n";
    let data = read_wmt_ranking_csv(csv.as_bytes()).unwrap();
    assert_eq!(data.iter().map(|d| d.pair.as_str()).collect::<Vec<_>>(), ["fr-en", "cs-en"]);
    let fr = &data[0];
    assert_eq!(fr.systems.len(), 8, "{:?}", fr.systems);
    assert_eq!(fr.blocks.len(), 2);
    assert_eq!((fr.blocks[0].segment.as_str(), fr.blocks[0].judge.as_str()), ("556", "researcher_31"));
    // Block 1: ranks 2,2,3,2,1 → 10 pairs, three of them ties (KIT, uedin-heafield, MES).
    let first = Pairwise::from_blocks(fr.systems.len(), [fr.blocks[0].outputs.as_slice()]).unwrap();
    let ties: u64 = (0..8).flat_map(|i| (0..8).map(move |j| (i, j))).filter(|(i, j)| i < j).map(|(i, j)| first.ties(i, j)).sum();
    assert_eq!(ties, 3);
    let limsi = fr.systems.iter().position(|s| s.contains("LIMSI")).unwrap();
    assert_eq!(standings(&first)[limsi].wins, 4);
    // The cs-en row: two empty slots (−1) and a missing rank.
    let cs = &data[1];
    assert_eq!(cs.systems, ["A", "B", "C"]);
    assert_eq!(cs.blocks[0].outputs[1].rank, None);
    assert_eq!(cs.pairwise().wins(0, 2), 1);

    let header = csv.lines().next().unwrap();
    let bad_rank = format!("{header}\ncs,en,1,-1,1,j,-1,A,-1,B,-1,C,-1,D,-1,E,1,two,2,3,4\n");
    let e = read_wmt_ranking_csv(bad_rank.as_bytes()).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("\"two\" is not a rank") && e.message.contains("system2rank"), "{e}");
    let twice = format!("{header}\ncs,en,1,-1,1,j,-1,A,-1,A,-1,C,-1,D,-1,E,1,2,2,3,4\n");
    assert!(read_wmt_ranking_csv(twice.as_bytes()).unwrap_err().message.contains("ranked twice"));
    let short = format!("{header}\ncs,en,1\n");
    assert!(read_wmt_ranking_csv(short.as_bytes()).unwrap_err().message.contains("3 fields"));
    assert!(read_wmt_ranking_csv("a,b,c\n".as_bytes()).unwrap_err().message.contains("srclang"));
}

#[test]
fn the_ranking_files_list_every_method_per_system() {
    // Three systems, A always first, C always last, one tie between B and C.
    let mut csv = String::from("srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,system2Id,system3Number,system3Id,system1rank,system2rank,system3rank\n");
    for k in 0..30 {
        let c = if k == 0 { 2 } else { 3 };
        csv.push_str(&format!("German,English,{k},-1,{k},j{},-1,C,-1,B,-1,A,{c},2,1\n", k % 3));
    }
    let data = read_wmt_ranking_csv(csv.as_bytes()).unwrap();
    assert_eq!(data[0].pair, "de-en");
    let r = report(&data[0], 200, 1);
    assert_eq!(r.winners, vec![2], "only A wins");
    let mut out = Vec::new();
    write_ranking_csv(&mut out, &r).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "system,wins,losses,ties,wins_ratio,wins_and_ties_ratio,expected_wins,rank_lo,rank_hi,trueskill_mu,trueskill_sigma,mfas_rank,most_probable_rank,winner");
    assert!(lines[1].starts_with("A,60,0,0,1,1,1,1,1,"), "{}", lines[1]);
    assert!(lines[1].ends_with(",1,1,1"), "{}", lines[1]);
    assert!(lines[2].starts_with("B,29,30,1,"), "{}", lines[2]);
    assert!(lines[3].starts_with("C,0,59,1,0,"), "{}", lines[3]);
    assert_eq!(lines.len(), 4);
    let mut h2h = Vec::new();
    write_head_to_head_csv(&mut h2h, &r).unwrap();
    let h2h = String::from_utf8(h2h).unwrap();
    // Row B: A won 30 of 30 (***); C won none of 30.
    assert!(h2h.lines().any(|l| l == "B,1.000***,,0.000"), "{h2h}");
}

#[test]
fn blocks_named_by_system_number_systems_by_first_appearance() {
    let mut d = RankingData::new("de-en");
    assert!(d.push_block("s1", "w1", [("B", Some(1)), ("A", Some(2)), ("C", Some(2))]).unwrap());
    assert!(d.push_block("s2", "w2", [("C", Some(1)), ("D", None)]).unwrap());
    // One output compares nothing: not added.
    assert!(!d.push_block("s3", "w1", [("A", Some(1))]).unwrap());
    assert_eq!(d.systems, ["B", "A", "C", "D"]);
    assert_eq!(d.blocks.len(), 2);
    assert_eq!(d.blocks[1].outputs, [RankedOutput { system: 2, rank: Some(1) }, RankedOutput { system: 3, rank: None }]);
    assert_eq!(d.push_block("s4", "w1", [("A", Some(1)), ("A", Some(2))]), Err(RankingError::Repeated { block: 2, system: 1 }));
    // B beat A and C; A and C tied.
    let p = d.pairwise();
    let s = standings(&p);
    assert_eq!((s[0].wins, s[0].losses, s[1].ties), (2, 0, 1));
    let only_w2 = d.filtered(|b| b.judge == "w2");
    assert_eq!((only_w2.blocks.len(), only_w2.systems.len()), (1, 4));
}

#[test]
fn methods_side_by_side_show_where_they_disagree() {
    // Lopez's Figure 2 tournament as blocks of two: the wins ratio ranks A C B D, MFAS A B C D.
    let (a, b, c, d) = (0usize, 1, 2, 3);
    let mut data = RankingData::new("xx-yy");
    data.systems = ["A", "B", "C", "D"].map(String::from).to_vec();
    for &(w, l, k) in &[(a, b, 3), (a, c, 1), (a, d, 2), (b, c, 1), (b, d, 1), (c, d, 2)] {
        for _ in 0..k {
            data.blocks.push(RankingBlock {
                segment: "s".into(),
                judge: "j".into(),
                outputs: vec![RankedOutput { system: w, rank: Some(1) }, RankedOutput { system: l, rank: Some(2) }],
            });
        }
    }
    let r = report(&data, 50, 1);
    let m = method_positions(&r);
    let get = |name: &str| m.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    assert_eq!(get("minimum feedback arc set"), [Some(1), Some(2), Some(3), Some(4)]);
    // Eq. 1 (the wins ratio): B 2/5 < C 2/4, so C is above B; expected wins (B 2/3, C 1/3)
    // agrees with MFAS.
    let wr = get("wins ratio");
    assert!(wr[c] < wr[b], "{wr:?}");
    assert_eq!(get("expected wins"), [Some(1), Some(2), Some(3), Some(4)]);
    let dis = method_disagreements(&r);
    let bc = dis.iter().find(|(x, y, _, _)| (*x, *y) == (c, b) || (*x, *y) == (b, c)).expect("B and C are ordered differently");
    let (above, below) = if bc.0 == b { (&bc.2, &bc.3) } else { (&bc.3, &bc.2) };
    assert!(above.contains(&"minimum feedback arc set") && above.contains(&"expected wins") && below.contains(&"wins ratio"), "{bc:?}");
    // No disagreement about A (first by every method).
    assert!(dis.iter().all(|(x, y, _, _)| *x != a && *y != a));
}

#[test]
fn the_wmt_ranking_csv_written_reads_back_the_same() {
    let mut d = RankingData::new("de-en");
    d.push_block("seg,1", "mturk:A1", [("Sys \"B\"", Some(1)), ("A", Some(3)), ("C", Some(1))]).unwrap();
    d.push_block("seg2", "mturk:A2", [("C", Some(2)), ("A", None)]).unwrap();
    let mut out = Vec::new();
    write_wmt_ranking_csv(&mut out, &d).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,system2Id,system3Number,system3Id,system1rank,system2rank,system3rank\n"), "{text}");
    assert!(text.contains("de,en,2,-1,seg2,mturk:A2,3,C,2,A,-1,-1,2,-1,-1"), "{text}");
    let back = read_wmt_ranking_csv(text.as_bytes()).unwrap();
    assert_eq!(back, vec![d.clone()]);
    // Same figures from the file as from the data.
    assert_eq!(report(&back[0], 20, 3), report(&d, 20, 3));
}

// ---------------------------------------------------------------------------------------------
// Agreement (WMT 2012 Findings §3.2, Table 3)

/// Table 3 of the Findings: (pair, inter P(A), P(E), inter κ, intra P(A), intra κ). κ
/// recomputed from the printed P(A) and P(E) matches the printed κ to 0.001 (the printed
/// figures look truncated), and the readings are the paper's: fair between annotators, moderate
/// for one annotator, over all pairs.
const TABLE_3: [(&str, f64, f64, f64, f64, f64); 10] = [
    ("cs-en", 0.567, 0.405, 0.272, 0.660, 0.428),
    ("en-cs", 0.576, 0.383, 0.312, 0.566, 0.296),
    ("de-en", 0.595, 0.401, 0.323, 0.733, 0.554),
    ("en-de", 0.598, 0.394, 0.336, 0.732, 0.557),
    ("es-en", 0.540, 0.408, 0.222, 0.792, 0.648),
    ("en-es", 0.504, 0.398, 0.176, 0.566, 0.279),
    ("fr-en", 0.568, 0.406, 0.272, 0.719, 0.526),
    ("en-fr", 0.519, 0.388, 0.214, 0.634, 0.401),
    ("WMT12", 0.568, 0.396, 0.284, 0.671, 0.455),
    ("WMT11", 0.601, 0.362, 0.375, 0.722, 0.564),
];

#[test]
fn wmt12_table_3_kappas_from_their_p_a_and_p_e() {
    for (pair, inter_pa, pe, inter_k, intra_pa, intra_k) in TABLE_3 {
        let inter = cohen_kappa(inter_pa, pe).unwrap();
        let intra = cohen_kappa(intra_pa, pe).unwrap();
        assert!((inter - inter_k).abs() <= 0.0011, "{pair}: inter {inter} against {inter_k}");
        assert!((intra - intra_k).abs() <= 0.0011, "{pair}: intra {intra} against {intra_k}");
        // The P(E) of every row is that of a tie rate between 0.05 and 0.25 (P(E) falls from 1/2
        // to 1/3 as the tie rate goes from 0 to 1/3; the tie rates of the head-to-head tables are
        // 0.13–0.25).
        let t = (0..=333).map(|k| k as f64 / 1000.0).min_by(|a, b| (chance_agreement(*a) - pe).abs().total_cmp(&(chance_agreement(*b) - pe).abs())).unwrap();
        println!("Table 3 {pair}: inter κ {inter:.4} (printed {inter_k}), intra κ {intra:.4} (printed {intra_k}), P(E) {pe} is a tie rate of {t:.3}");
        assert!((0.05..=0.25).contains(&t), "{pair}: tie rate {t}");
    }
    let (_, inter_pa, pe, _, intra_pa, _) = TABLE_3[8];
    assert_eq!(LandisKoch::of(cohen_kappa(inter_pa, pe).unwrap()), Some(LandisKoch::Fair));
    assert_eq!(LandisKoch::of(cohen_kappa(intra_pa, pe).unwrap()), Some(LandisKoch::Moderate));
    // English–Spanish between annotators: "slight".
    assert_eq!(LandisKoch::of(cohen_kappa(TABLE_3[5].1, TABLE_3[5].2).unwrap()), Some(LandisKoch::Slight));
    // The uniform prior of earlier years: P(E) = 1/9 + 1/9 + 1/9 = 1/3 is a tie rate of 1/3.
    assert!((chance_agreement(1.0 / 3.0) - 1.0 / 3.0).abs() < 1e-15);
}

fn blocks_of(pair: &str, n: usize, blocks: &[(&str, &str, &[(usize, i64)])]) -> RankingData {
    RankingData {
        pair: pair.into(),
        systems: (0..n).map(|i| format!("S{i}")).collect(),
        blocks: blocks
            .iter()
            .map(|(segment, judge, outputs)| RankingBlock {
                segment: segment.to_string(),
                judge: judge.to_string(),
                outputs: outputs.iter().map(|&(system, rank)| RankedOutput { system, rank: (rank > 0).then_some(rank as u32) }).collect(),
            })
            .collect(),
    }
}

#[test]
fn agreement_counts_every_pair_of_outcomes_of_a_system_pair_on_a_segment() {
    // The "hand" case of tests/fixtures/ranking/agreement.py, worked out:
    // seg 1, x: S0 > S1, S0 > S2, S1 = S2;  seg 1, y: S0 < S1, S0 < S2, S1 < S2 (S2 ranked first);
    // seg 1, x again: S0 = S1 (S2 unranked);  seg 2, y: S0 > S1;  seg 2, x: S0 > S1.
    let data = blocks_of(
        "de-en",
        3,
        &[
            ("1", "x", &[(0, 1), (1, 2), (2, 2)]),
            ("1", "y", &[(2, 1), (1, 2), (0, 3)]),
            ("1", "x", &[(1, 1), (0, 1), (2, -1)]),
            ("2", "y", &[(0, 1), (1, 2)]),
            ("2", "x", &[(1, 3), (0, 2)]),
        ],
    );
    let a = agreement(&data).unwrap();
    // 9 outcomes, 2 ties: P(E) = (2/9)² + 2·(7/18)² = 114/324.
    assert_eq!((a.outcomes, a.ties), (9, 2));
    assert!((a.p_e.unwrap() - 114.0 / 324.0).abs() < 1e-15);
    // Inter: seg 1 S0–S1 (x>, y<), (y<, x=); S0–S2 (x>, y<); S1–S2 (x=, y<); seg 2 S0–S1 (y>, x>)
    // agrees: 5 comparisons over 4 items, 1 agreeing. Intra: seg 1 S0–S1 (x>, x=): 1, disagreeing.
    assert_eq!((a.inter.comparisons, a.inter.agreeing, a.inter.items), (5, 1, 4));
    assert_eq!((a.intra.comparisons, a.intra.agreeing, a.intra.items), (1, 0, 1));
    let pe = 114.0 / 324.0;
    assert!((a.inter.kappa.unwrap() - (0.2 - pe) / (1.0 - pe)).abs() < 1e-15);
    assert_eq!(a.inter.reading, Some(LandisKoch::Poor));
    assert!((a.intra.kappa_uniform.unwrap() - (-0.5)).abs() < 1e-15);
    assert_eq!((a.inter.note.as_deref(), a.intra.note.as_deref()), (None, None));
    // The report carries it.
    assert_eq!(report(&data, 10, 1).agreement, a);
}

#[test]
fn agreement_of_degenerate_data_says_why_there_is_no_kappa() {
    // Nothing overlaps: each segment ranked once.
    let a = agreement(&blocks_of("cs-en", 4, &[("1", "x", &[(0, 1), (1, 2)]), ("2", "y", &[(2, 1), (3, 1)])])).unwrap();
    assert_eq!((a.outcomes, a.ties, a.inter.comparisons, a.intra.comparisons), (2, 1, 0, 0));
    assert_eq!((a.inter.p_a, a.inter.kappa, a.inter.reading), (None, None, None));
    assert!(a.inter.note.as_deref().unwrap().contains("ranked by two or more annotators"));
    assert!(a.intra.note.as_deref().unwrap().contains("more than once"));
    // Every outcome a tie: P(E) = 1, κ undefined though P(A) = 1.
    let a = agreement(&blocks_of("cs-en", 3, &[("1", "x", &[(0, 1), (1, 1)]), ("1", "y", &[(1, 2), (0, 2)])])).unwrap();
    assert_eq!((a.p_e, a.inter.p_a, a.inter.kappa), (Some(1.0), Some(1.0), None));
    assert!(a.inter.note.as_deref().unwrap().contains("P(E) = 1"), "{:?}", a.inter.note);
    // Nothing ranked at all.
    let a = agreement(&blocks_of("cs-en", 2, &[("1", "x", &[(0, -1), (1, -1)])])).unwrap();
    assert_eq!((a.outcomes, a.p_tie, a.p_e), (0, None, None));
    assert_eq!(a.inter.note.as_deref(), Some("no ranked pair of outputs"));
    // A block with a system twice is refused.
    assert_eq!(agreement(&blocks_of("cs-en", 2, &[("1", "x", &[(0, 1), (0, 2)])])), Err(RankingError::Repeated { block: 0, system: 0 }));
}

/// `tests/fixtures/ranking/agreement.py`.
#[derive(serde::Deserialize)]
struct AgreementFixture {
    cases: Vec<AgreementCase>,
}

#[derive(serde::Deserialize)]
struct FixtureBlock {
    segment: String,
    judge: String,
    outputs: Vec<(usize, i64)>,
}

#[derive(serde::Deserialize)]
struct AgreementCase {
    name: String,
    n: usize,
    blocks: Vec<FixtureBlock>,
    outcomes: u64,
    ties: u64,
    p_tie: Option<f64>,
    p_e: Option<f64>,
    inter: FixtureKappa,
    intra: FixtureKappa,
}

#[derive(serde::Deserialize)]
struct FixtureKappa {
    comparisons: u64,
    agreeing: u64,
    items: usize,
    p_a: Option<f64>,
    kappa: Option<f64>,
    reading: Option<String>,
    kappa_uniform: Option<f64>,
    why: Option<String>,
}

#[test]
fn agreement_matches_the_independent_python_implementation() {
    let fixture: AgreementFixture =
        serde_json::from_str(include_str!("../../../../tests/fixtures/ranking/agreement.json")).expect("the agreement fixture");
    assert_eq!(fixture.cases.len(), 5);
    for case in &fixture.cases {
        let data = RankingData {
            pair: case.name.clone(),
            systems: (0..case.n).map(|i| format!("S{i}")).collect(),
            blocks: case
                .blocks
                .iter()
                .map(|b| RankingBlock {
                    segment: b.segment.clone(),
                    judge: b.judge.clone(),
                    outputs: b.outputs.iter().map(|&(system, rank)| RankedOutput { system, rank: (rank > 0).then_some(rank as u32) }).collect(),
                })
                .collect(),
        };
        let a = agreement(&data).unwrap();
        let name = &case.name;
        assert_eq!((a.outcomes, a.ties), (case.outcomes, case.ties), "{name}");
        assert!(close(a.p_tie, case.p_tie, 1e-12) && close(a.p_e, case.p_e, 1e-12), "{name}: {:?} {:?}", a.p_e, case.p_e);
        for (kind, got, want) in [("inter", &a.inter, &case.inter), ("intra", &a.intra, &case.intra)] {
            assert_eq!((got.comparisons, got.agreeing, got.items), (want.comparisons, want.agreeing, want.items), "{name} {kind}");
            assert!(close(got.p_a, want.p_a, 1e-12), "{name} {kind}: P(A) {:?} {:?}", got.p_a, want.p_a);
            assert!(close(got.kappa, want.kappa, 1e-12), "{name} {kind}: κ {:?} {:?}", got.kappa, want.kappa);
            assert!(close(got.kappa_uniform, want.kappa_uniform, 1e-12), "{name} {kind}: uniform κ");
            assert_eq!(got.reading.map(|r| r.as_str().to_string()), want.reading, "{name} {kind}");
            let why = got.note.as_deref().map(|n| {
                if n.contains("P(E) = 1") {
                    "all-ties"
                } else if n == "no ranked pair of outputs" {
                    "no-outcomes"
                } else {
                    "no-comparisons"
                }
            });
            assert_eq!(why, want.why.as_deref(), "{name} {kind}: {:?}", got.note);
        }
        if name == "simulated" {
            println!(
                "simulated agreement: {} outcomes, P(E) {:.3}; inter {} comparisons, P(A) {:.3}, κ {:.3} ({}); intra {} comparisons, P(A) {:.3}, κ {:.3} ({})",
                a.outcomes,
                a.p_e.unwrap(),
                a.inter.comparisons,
                a.inter.p_a.unwrap(),
                a.inter.kappa.unwrap(),
                a.inter.reading.unwrap().as_str(),
                a.intra.comparisons,
                a.intra.p_a.unwrap(),
                a.intra.kappa.unwrap(),
                a.intra.reading.unwrap().as_str()
            );
            assert!(a.inter.comparisons > 1000 && a.intra.comparisons > 100, "the simulated case overlaps");
        }
    }
}

#[test]
fn the_agreement_file_has_an_inter_and_an_intra_row_per_pair() {
    let data = blocks_of("de-en", 3, &[("1", "x", &[(0, 1), (1, 2)]), ("1", "y", &[(0, 1), (1, 2)]), ("1", "y", &[(0, 2), (1, 1)])]);
    let empty = blocks_of("cs-en", 2, &[("1", "x", &[(0, 1), (1, 2)])]);
    let reports = [report(&data, 10, 1), report(&empty, 10, 1)];
    let mut out = Vec::new();
    write_agreement_csv(&mut out, &reports).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "pair,type,comparisons,agreeing,items,p_a,p_e,kappa,landis_koch,kappa_uniform,outcomes,ties,note");
    // de-en: 3 outcomes, no tie: P(E) = 0.5. Inter: x> vs y>, x> vs y< → P(A) 0.5, κ 0.
    assert_eq!(lines[1], "de-en,inter,2,1,1,0.5,0.5,0,slight,0.25,3,0,");
    // Intra: y> vs y<, P(A) 0, κ −1.
    assert_eq!(lines[2], "de-en,intra,1,0,1,0,0.5,-1,poor,-0.5,3,0,");
    assert_eq!(lines[3], "cs-en,inter,0,0,0,,0.5,,,,1,0,no system pair of a segment was ranked by two or more annotators");
    assert!(lines[4].starts_with("cs-en,intra,0,0,0,,0.5,,,,1,0,no annotator"), "{}", lines[4]);
    assert_eq!(lines.len(), 5);
}
