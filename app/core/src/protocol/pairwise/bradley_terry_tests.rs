use super::*;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn c(a: usize, b: usize, winner: Winner) -> Comparison {
    Comparison { a, b, winner }
}

fn repeat(times: usize, comparison: Comparison) -> Vec<Comparison> {
    vec![comparison; times]
}

fn no_bootstrap() -> BtSettings {
    BtSettings { samples: 0, seed: 0 }
}

fn by_name<'a>(r: &'a BtReport, name: &str) -> &'a Rated {
    r.systems.iter().find(|s| s.system == name).unwrap()
}

#[test]
fn two_systems_have_the_closed_form_rating_with_a_tie_as_half_a_win() {
    // A 3 wins to B's 1: strengths 3 : 1, 400·log10 3 apart, mean 1000.
    let mut js = repeat(3, c(0, 1, Winner::A));
    js.push(c(1, 0, Winner::A));
    let r = rate(&names(&["A", "B"]), &js, &no_bootstrap()).unwrap();
    let gap = 400.0 * 3f64.log10();
    assert!((by_name(&r, "A").rating.unwrap() - (1000.0 + gap / 2.0)).abs() < 1e-9, "{r:?}");
    assert!((by_name(&r, "B").rating.unwrap() - (1000.0 - gap / 2.0)).abs() < 1e-9);
    // Two wins to one and two ties: 3 : 2; one more win of B's: 3 : 3.
    let mut js = vec![c(0, 1, Winner::A), c(0, 1, Winner::A), c(0, 1, Winner::B), c(0, 1, Winner::Tie), c(1, 0, Winner::Tie)];
    let r = rate(&names(&["A", "B"]), &js, &no_bootstrap()).unwrap();
    assert!((by_name(&r, "A").rating.unwrap() - by_name(&r, "B").rating.unwrap() - 400.0 * 1.5f64.log10()).abs() < 1e-9);
    assert_eq!((by_name(&r, "A").wins, by_name(&r, "A").losses, by_name(&r, "A").ties, by_name(&r, "A").n), (2, 1, 2, 5));
    js.push(c(1, 0, Winner::A));
    let r = rate(&names(&["A", "B"]), &js, &no_bootstrap()).unwrap();
    assert!((by_name(&r, "A").rating.unwrap() - 1000.0).abs() < 1e-9);
    assert_eq!(r.win_rate[0][1], Some(0.5));
    assert_eq!(r.win_rate[0][0], None);
}

/// The fixture of `tests/fixtures/pairwise/generate.py` (SciPy's optimiser).
#[derive(serde::Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    systems: Vec<String>,
    judgments: Vec<(usize, usize, String)>,
    wins: Vec<Vec<u64>>,
    ties: Vec<Vec<u64>>,
    rating: Vec<Option<f64>>,
    log_likelihood: Option<f64>,
}

#[test]
fn ratings_match_scipys_optimiser_on_the_same_likelihood() {
    let fixture: Fixture = serde_json::from_str(include_str!("../../../../../tests/fixtures/pairwise/pairwise.json")).expect("the pairwise fixture");
    assert!(fixture.cases.len() >= 5);
    let mut worst: f64 = 0.0;
    for case in &fixture.cases {
        let js: Vec<Comparison> = case.judgments.iter().map(|(a, b, w)| c(*a, *b, Winner::parse(w).unwrap())).collect();
        let r = rate(&case.systems, &js, &no_bootstrap()).unwrap();
        assert_eq!(r.wins, case.wins, "{}: wins", case.name);
        assert_eq!(r.ties, case.ties, "{}: ties", case.name);
        for (name, want) in case.systems.iter().zip(&case.rating) {
            let got = by_name(&r, name).rating;
            match (got, want) {
                (Some(g), Some(w)) => {
                    worst = worst.max((g - w).abs());
                    assert!((g - w).abs() < 1e-6, "{}: {name}: {g} against SciPy's {w}", case.name);
                }
                (None, None) => assert!(by_name(&r, name).no_rating.is_some()),
                _ => panic!("{}: {name}: {got:?} against SciPy's {want:?}", case.name),
            }
        }
        let conv = r.convergence.unwrap();
        assert!(conv.gradient_norm < GRADIENT_TOLERANCE, "{}: gradient norm {}", case.name, conv.gradient_norm);
        let ll = case.log_likelihood.unwrap();
        assert!((conv.log_likelihood - ll).abs() < 1e-9 * ll.abs(), "{}: log-likelihood {} against {ll}", case.name, conv.log_likelihood);
        // `fit` gives the same ratings.
        let (ratings, _) = fit(&case.systems, &js).unwrap();
        for (i, name) in case.systems.iter().enumerate() {
            assert_eq!(ratings[i], by_name(&r, name).rating);
        }
        // Highest first.
        let rated: Vec<f64> = r.systems.iter().filter_map(|s| s.rating).collect();
        assert!(rated.windows(2).all(|w| w[0] >= w[1]), "{}: {rated:?}", case.name);
        println!("{}: {} systems, {} judgments, {:?}", case.name, case.systems.len(), js.len(), conv);
    }
    println!("largest difference from SciPy: {worst:e} Elo points");
}

#[test]
fn a_system_that_never_wins_or_never_loses_is_ranked_without_a_finite_rating() {
    // A never loses (beats B and C, ties nobody); D never wins; B and C beat each other.
    let mut js = Vec::new();
    for k in 0..20 {
        js.push(c(0, 1 + k % 2, Winner::A));
        js.push(c(3, 1 + k % 2, Winner::B));
        js.push(c(1, 2, if k % 4 == 0 { Winner::B } else { Winner::A }));
    }
    let r = rate(&names(&["A", "B", "C", "D"]), &js, &BtSettings { samples: 300, seed: 5 }).unwrap();
    let order: Vec<&str> = r.systems.iter().map(|s| s.system.as_str()).collect();
    assert_eq!(order, ["A", "B", "C", "D"]);
    let a = by_name(&r, "A");
    assert_eq!((a.rating, a.ci_low, a.ci_high, a.no_rating), (None, None, None, Some(NoRating::NeverLoses)));
    assert_eq!((a.rank_low, a.rank_high), (1, 1));
    let d = by_name(&r, "D");
    assert_eq!((d.rating, d.no_rating, d.rank_low, d.rank_high), (None, Some(NoRating::NeverWins), 4, 4));
    // B and C are rated on their own judgments (15 : 5), mean 1000.
    let (b, cc) = (by_name(&r, "B"), by_name(&r, "C"));
    assert!((b.rating.unwrap() - cc.rating.unwrap() - 400.0 * 3f64.log10()).abs() < 1e-9);
    assert!((b.rating.unwrap() + cc.rating.unwrap() - 2000.0).abs() < 1e-9);
    assert!(b.rank_low >= 2 && b.rank_high <= 3 && cc.rank_low >= 2 && cc.rank_high <= 3);
    let json = serde_json::to_string(&r).unwrap();
    assert!(!json.contains("NaN") && !json.contains("inf"), "{json}");
    assert!(json.contains("\"no_rating\":\"never-wins\""));
    // The tie turns a never-winner into a rated system.
    js.push(c(3, 1, Winner::Tie));
    let r = rate(&names(&["A", "B", "C", "D"]), &js, &no_bootstrap()).unwrap();
    assert!(by_name(&r, "D").rating.is_some());
}

#[test]
fn a_total_order_of_sweeps_ranks_every_system_without_a_rating() {
    let js = [repeat(5, c(0, 1, Winner::A)), repeat(5, c(1, 2, Winner::A)), repeat(2, c(2, 0, Winner::B))].concat();
    let r = rate(&names(&["A", "B", "C"]), &js, &BtSettings::default()).unwrap();
    assert_eq!(r.convergence, None);
    assert_eq!(r.bootstrap.used, 0);
    let got: Vec<(&str, usize, usize, Option<NoRating>)> = r.systems.iter().map(|s| (s.system.as_str(), s.rank_low, s.rank_high, s.no_rating)).collect();
    assert_eq!(got, [("A", 1, 1, Some(NoRating::NeverLoses)), ("B", 2, 2, Some(NoRating::Separated)), ("C", 3, 3, Some(NoRating::NeverWins))]);
}

#[test]
fn a_comparison_graph_in_several_parts_is_refused_naming_the_parts() {
    let js = [c(0, 2, Winner::A), c(2, 0, Winner::Tie), c(1, 3, Winner::B), c(4, 3, Winner::A)];
    let e = rate(&names(&["A", "B", "C", "D", "E"]), &js, &no_bootstrap()).unwrap_err();
    assert_eq!(e, BtError::Disconnected { parts: vec![names(&["A", "C"]), names(&["B", "D", "E"])] });
    assert_eq!(
        e.to_string(),
        "the comparisons fall into 2 parts never compared with each other, so no rating puts them on one scale: {A, C} and {B, D, E} (compare systems across the parts)"
    );
    // A system never compared at all is a part of its own.
    let e = rate(&names(&["A", "B", "Z"]), &[c(0, 1, Winner::A), c(1, 0, Winner::A)], &no_bootstrap()).unwrap_err();
    assert!(e.to_string().contains("{A, B} and {Z}"), "{e}");
    assert!(fit(&names(&["A", "B", "Z"]), &[c(0, 1, Winner::A)]).is_err());
}

#[test]
fn bad_judgments_are_refused() {
    assert_eq!(rate(&names(&["A"]), &[], &no_bootstrap()).unwrap_err(), BtError::TooFewSystems(1));
    let e = rate(&names(&["A", "B"]), &[c(0, 1, Winner::A), c(1, 1, Winner::A)], &no_bootstrap()).unwrap_err();
    assert_eq!(e.to_string(), "judgment 1: a system (B) cannot be compared with itself");
    let e = rate(&names(&["A", "B"]), &[c(0, 2, Winner::A)], &no_bootstrap()).unwrap_err();
    assert_eq!(e, BtError::UnknownSystem { index: 0, system: 2, systems: 2 });
    let many: Vec<String> = (0..=MAX_SYSTEMS).map(|i| i.to_string()).collect();
    assert_eq!(rate(&many, &[], &no_bootstrap()).unwrap_err(), BtError::TooManySystems(MAX_SYSTEMS + 1));
}

/// Judgments drawn from known strengths (deterministic).
fn simulated(strengths: &[f64], judgments: usize, seed: u64) -> Vec<Comparison> {
    let mut rng = SplitMix64::new(seed);
    let n = strengths.len() as u64;
    let mut out = Vec::new();
    for _ in 0..judgments {
        let a = rng.below(n) as usize;
        let b = (a + 1 + rng.below(n - 1) as usize) % n as usize;
        let u = rng.next_u64() as f64 / u64::MAX as f64;
        let p = 1.0 / (1.0 + (strengths[b] - strengths[a]).exp());
        let winner = if (u - p).abs() < 0.05 { Winner::Tie } else if u < p { Winner::A } else { Winner::B };
        out.push(c(a, b, winner));
    }
    out
}

#[test]
fn the_bootstrap_is_seeded_and_its_intervals_give_rank_ranges() {
    let systems = names(&["s0", "s1", "s2", "s3", "s4"]);
    // s1 and s2 equal, the others far apart.
    let js = simulated(&[3.0, 1.0, 1.0, -1.0, -3.0], 2000, 11);
    let settings = BtSettings { samples: 400, seed: 42 };
    let r = rate(&systems, &js, &settings).unwrap();
    assert_eq!(r, rate(&systems, &js, &settings).unwrap(), "the same seed, the same result");
    assert_ne!(r, rate(&systems, &js, &BtSettings { seed: 43, ..settings }).unwrap());
    assert_eq!(r.bootstrap, BootstrapFigures { samples: 400, used: 400, skipped: 0, seed: 42 });
    for s in &r.systems {
        let (lo, hi, x) = (s.ci_low.unwrap(), s.ci_high.unwrap(), s.rating.unwrap());
        assert!(lo < x && x < hi, "{s:?}");
    }
    let ranks: Vec<(&str, usize, usize)> = r.systems.iter().map(|s| (s.system.as_str(), s.rank_low, s.rank_high)).collect();
    assert_eq!(ranks[0], ("s0", 1, 1));
    assert_eq!((ranks[1].1, ranks[1].2, ranks[2].1, ranks[2].2), (2, 3, 2, 3), "{ranks:?}");
    assert_eq!(&ranks[3..], [("s3", 4, 4), ("s4", 5, 5)]);
    // Without resamples, no intervals: the rated systems' ranks are not told apart.
    let r = rate(&systems, &js, &no_bootstrap()).unwrap();
    assert!(r.systems.iter().all(|s| s.ci_low.is_none() && s.rank_low == 1 && s.rank_high == 5));
}

#[test]
fn a_resample_without_a_finite_maximum_is_drawn_again_and_counted() {
    // B beat A only once in 40: many resamples lose that one judgment.
    let js = [repeat(39, c(0, 1, Winner::A)), vec![c(0, 1, Winner::B)]].concat();
    let r = rate(&names(&["A", "B"]), &js, &BtSettings { samples: 200, seed: 1 }).unwrap();
    assert_eq!(r.bootstrap.used, 200);
    // P(the one judgment is not drawn) = (39/40)^40 ≈ 0.363.
    assert!(r.bootstrap.skipped > 60 && r.bootstrap.skipped < 160, "{:?}", r.bootstrap);
    assert!(r.systems.iter().all(|s| s.ci_low.unwrap().is_finite() && s.ci_high.unwrap().is_finite()));
}
