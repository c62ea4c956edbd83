use serde_json::Value;

use super::bench::{BenchConfig, CrowdShares, Design, parse_truth, run_design, simulate_run};
use super::*;
use crate::model::ItemType;

/// The confidence sequence against `tests/fixtures/adaptive/betting_cs.json`, written by
/// `tests/fixtures/adaptive/betting_cs.py` (the paper's algorithm transcribed into NumPy): the
/// lowest and highest grid cell still in the set after every observation (a cell may differ by
/// one where a capital sits within float noise of 1/α, never more), and the log capital at the
/// end to 1e-9.
#[test]
fn betting_cs_matches_numpy() {
    let data: Value = serde_json::from_str(include_str!("../../../../tests/fixtures/adaptive/betting_cs.json")).expect("valid JSON");
    let mut steps = 0;
    let mut exact = 0;
    for c in data["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let alpha = c["alpha"].as_f64().unwrap();
        let grid = c["grid"].as_u64().unwrap() as usize;
        let mut cs = BettingCs::new(alpha, grid);
        for (t, (x, want)) in c["x"].as_array().unwrap().iter().zip(c["cells"].as_array().unwrap()).enumerate() {
            cs.push(x.as_f64().unwrap());
            let want = want.as_array().expect("the fixture's set is never empty");
            let (lo, hi) = (want[0].as_u64().unwrap() as usize, want[1].as_u64().unwrap() as usize);
            let got = cs.cells();
            assert!(got.start.abs_diff(lo) <= 1 && got.end.abs_diff(hi) <= 1, "{name} α={alpha} G={grid} t={}: {got:?} vs {lo}..{hi}", t + 1);
            exact += usize::from(got == (lo..hi));
            steps += 1;
        }
        for (j, want) in c["log_capital"].as_object().unwrap() {
            let j: usize = j.parse().unwrap();
            let got = cs.log_capital(j).unwrap_or_else(|| panic!("{name}: cell {j} left the set"));
            let want = want.as_f64().unwrap();
            assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "{name} cell {j}: {got} vs {want}");
        }
    }
    assert!(steps > 4500, "{steps}");
    assert!(exact as f64 >= 0.99 * steps as f64, "{exact} of {steps} exact");
}

#[test]
fn betting_cs_small_and_degenerate() {
    // Nothing seen: the whole unit interval.
    let cs = BettingCs::new(0.05, 100);
    assert_eq!(cs.interval(), (0.0, 1.0));
    // All equal: the interval closes around the value and keeps it.
    let mut cs = BettingCs::new(0.05, 1000);
    for _ in 0..300 {
        cs.push(0.7);
        let (lo, hi) = cs.interval();
        assert!(lo <= 0.7 && 0.7 <= hi, "{lo} {hi}");
    }
    assert!(cs.interval().1 - cs.interval().0 < 0.05, "{:?}", cs.interval());
    // Values at the bounds.
    let mut cs = BettingCs::new(0.05, 1000);
    for _ in 0..100 {
        cs.push(1.0);
    }
    assert!(cs.interval().0 > 0.9 && cs.interval().1 == 1.0, "{:?}", cs.interval());
    // Out-of-range input is clamped, NaN counts as the middle.
    let mut cs = BettingCs::new(0.05, 100);
    cs.push(7.0);
    cs.push(f64::NAN);
    assert_eq!(cs.n(), 2);
    // The running intersection only narrows.
    let mut cs = BettingCs::new(0.1, 500);
    let mut last = (0.0, 1.0);
    for i in 0..400 {
        cs.push(if i % 3 == 0 { 0.2 } else { 0.6 });
        let now = cs.interval();
        assert!(now.0 >= last.0 && now.1 <= last.1);
        last = now;
    }
}

fn settings(alpha: f64) -> AdaptiveSettings {
    AdaptiveSettings { alpha, delta: 1.0, warm_up: 0.0, budget: 10_000, grid: 200 }
}

#[test]
fn settings_and_inputs_are_checked() {
    assert_eq!(Decisions::new(3, &AdaptiveSettings { alpha: 0.0, ..settings(0.05) }).unwrap_err(), AdaptiveError::Design(DesignError::Alpha(0.0)));
    assert_eq!(Decisions::new(3, &AdaptiveSettings { delta: -1.0, ..settings(0.05) }).unwrap_err(), AdaptiveError::Design(DesignError::Delta(-1.0)));
    assert_eq!(Decisions::new(1, &settings(0.05)).unwrap_err(), AdaptiveError::Design(DesignError::TooFewSystems(1)));
    assert!(matches!(parse_truth("a\t50\n"), Err(bench::BenchError::TooFewSystems(1))));
    assert!(matches!(parse_truth("a\t50\nb\tx\n"), Err(bench::BenchError::Truth { line: 2, .. })));
    assert!(matches!(parse_truth("a\t50\na\t60\n"), Err(bench::BenchError::Truth { line: 2, .. })));
    assert!(matches!(parse_truth("a\t50\nb\t160\n"), Err(bench::BenchError::Truth { line: 2, .. })));
    assert_eq!(parse_truth("system\tmean\n# c\na\t50\n\nb\t60.5\n").unwrap(), vec![("a".to_string(), 50.0), ("b".to_string(), 60.5)]);
    assert_eq!(CrowdShares::parse("careful=0.7,noisy=0.2,careless=0.1").unwrap(), CrowdShares::default());
    assert!(CrowdShares::parse("careful=0.7,noisy=0.2").is_err());
    assert!(CrowdShares::parse("careful=0.7,lazy=0.3").is_err());
    assert!(CrowdShares::parse("careful=x").is_err());
}

#[test]
fn decisions_clusters_and_rank_ranges() {
    let mut d = Decisions::new(4, &settings(0.05)).unwrap();
    assert_eq!(d.pairs.len(), 6);
    for (i, p) in d.pairs.iter().enumerate() {
        assert_eq!(d.pair_index(p.a, p.b), i);
        assert_eq!(d.pair_index(p.b, p.a), i);
    }
    assert!((d.alpha_pair - 0.05 / 6.0).abs() < 1e-15);
    // Systems 0 and 1 far above 2 and 3; 0 vs 1 and 2 vs 3 nearly equal.
    let mut x: u64 = 7;
    let mut noise = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 20.0
    };
    for _ in 0..400 {
        let scores = [(0, 80.0 + noise()), (1, 80.0 + noise()), (2, 40.0 + noise()), (3, 40.0 + noise())];
        d.observe_segment(&scores);
    }
    assert!(d.better(0, 2) && d.better(0, 3) && d.better(1, 2) && d.better(1, 3));
    assert!(!d.better(2, 0) && !d.better(0, 1) && !d.better(1, 0));
    assert_eq!(d.rank_ranges(), vec![(1, 2), (1, 2), (3, 4), (3, 4)]);
    let clusters = d.clusters();
    assert_eq!(clusters.len(), 2, "{clusters:?}");
    let mut top = clusters[0].clone();
    top.sort();
    assert_eq!(top, vec![0, 1]);
    assert_eq!(d.pairs[d.pair_index(0, 2)].verdict, Verdict::FirstBetter);
    assert_eq!(d.pairs[d.pair_index(3, 1)].verdict, Verdict::FirstBetter, "pair (1, 3): 1 better");
    assert!(!d.settled(), "0 vs 1 and 2 vs 3 stay open");
    // A decision is kept once made.
    let at = d.pairs[d.pair_index(0, 2)].decided_at.unwrap();
    assert!(at < 400);
    // Identical scores: the difference is 0 and the pair ends too close to matter.
    let mut e = Decisions::new(2, &AdaptiveSettings { delta: 5.0, ..settings(0.05) }).unwrap();
    for _ in 0..3000 {
        e.observe_segment(&[(0, 50.0), (1, 50.0)]);
        if e.settled() {
            break;
        }
    }
    assert_eq!(e.pairs[0].verdict, Verdict::TooClose);
    assert!(e.settled());
}

#[test]
fn allocation_fills_the_slots_with_open_pairs_and_builds_a_hit() {
    let design = HitDesign::default();
    let alloc = Allocation::new(5, &design);
    // Uniform: 70 slots, 14 segments of 5 systems.
    let (mut cursor, mut seg) = (0, 0..);
    let u = alloc.uniform(&mut seg, &mut cursor);
    assert_eq!(u.len(), 70);
    let segs: std::collections::BTreeSet<usize> = u.iter().map(|x| x.1).collect();
    assert_eq!(segs.len(), 14);
    // Eight systems: 10 segments of 7, the left-out system rotating.
    let alloc8 = Allocation::new(8, &design);
    let (mut cursor, mut seg) = (0, 0..);
    let mut together = vec![0usize; 28];
    let d8 = Decisions::new(8, &settings(0.05)).unwrap();
    for _ in 0..8 {
        let u = alloc8.uniform(&mut seg, &mut cursor);
        assert_eq!(u.len(), 70);
        assert!(u.iter().map(|x| x.1).collect::<std::collections::BTreeSet<_>>().len() >= 10);
        for (i, a) in u.iter().enumerate() {
            for b in &u[i + 1..] {
                if a.1 == b.1 {
                    together[d8.pair_index(a.0, b.0)] += 1;
                }
            }
        }
    }
    let (min, max) = (together.iter().min().unwrap(), together.iter().max().unwrap());
    assert!(max - min <= 2, "every pair shares segments about equally often: {together:?}");
    // Adaptive: decide every pair but (1, 3) and (3, 4); the HIT goes to systems 1, 3, 4 only.
    let mut d = Decisions::new(5, &settings(0.05)).unwrap();
    for p in &mut d.pairs {
        if !matches!((p.a, p.b), (1, 3) | (3, 4)) {
            p.verdict = Verdict::FirstBetter;
        }
    }
    let mut seg = 100..;
    let a = alloc.adaptive(&d, &mut seg);
    assert_eq!(a.len(), 70);
    // (One odd slot may go to another system, on a chunk's segment.)
    assert!(a.iter().filter(|x| ![1, 3, 4].contains(&x.0)).count() <= 1, "{a:?}");
    let segs: std::collections::BTreeSet<usize> = a.iter().map(|x| x.1).collect();
    assert!(segs.len() >= 10 && segs.iter().all(|&g| g >= 100));
    // No output twice.
    let mut seen = std::collections::BTreeSet::new();
    assert!(a.iter().all(|x| seen.insert(*x)));
    // The usual builder adds its quality-control items.
    let systems: Vec<String> = (0..5).map(|i| format!("s{i}")).collect();
    let segments: Vec<String> = (0..200).map(|g| g.to_string()).collect();
    let hit = next_hit(0, &a, &systems, &segments, &design, 9).unwrap();
    assert_eq!(hit.items.len(), 100);
    let count = |t: ItemType| hit.items.iter().filter(|i| i.item_type == t).count();
    assert_eq!((count(ItemType::System), count(ItemType::BadRef), count(ItemType::Repeat), count(ItemType::Ref)), (70, 10, 10, 10));
    // Settled: nothing to hand out.
    for p in &mut d.pairs {
        p.verdict = Verdict::TooClose;
    }
    assert!(alloc.adaptive(&d, &mut seg).is_empty());
    // A wrong number of outputs is refused.
    assert!(matches!(next_hit(0, &a[..69].to_vec(), &systems, &segments, &design, 9), Err(AdaptiveError::Hit(HitError::WrongSystemItems { needed: 70, found: 69, .. }))));
}

/// Optional stopping: 1,000 simulated adaptive campaigns with a fixed seed, decisions looked at
/// after every HIT, three systems of which two are equal (any decision between them is wrong)
/// and a third 10 points below. The share of runs with any pair decided the wrong way round stays ≤ α.
#[test]
fn wrong_orderings_stay_under_alpha_when_looking_after_every_hit() {
    let truth = vec![("a".to_string(), 60.0), ("b".to_string(), 60.0), ("c".to_string(), 50.0)];
    let s = AdaptiveSettings { alpha: 0.05, delta: 1.0, warm_up: 0.0, budget: 2_000, grid: 100 };
    let config = BenchConfig::new(truth, CrowdShares::default(), 1000, 39, s);
    let summary = run_design(&config, Design::Adaptive).unwrap();
    assert_eq!(summary.runs, 1000);
    assert!(summary.runs_with_a_wrong_pair as f64 <= 0.05 * 1000.0, "{summary:?}");
    assert!(summary.pairs_wrong as f64 <= 0.05 * 1000.0, "{summary:?}");
    // The test has power to see errors: pairs are decided (a, b vs c) in most runs.
    assert!(summary.pairs_decided > 1000, "{summary:?}");
}

#[test]
fn adaptive_spends_less_than_uniform_on_a_spread_field() {
    let truth: Vec<(String, f64)> = [70.0, 62.0, 60.0, 50.0, 40.0].iter().enumerate().map(|(i, &m)| (format!("s{i}"), m)).collect();
    let s = AdaptiveSettings { alpha: 0.05, delta: 1.0, warm_up: 0.0, budget: 200_000, grid: 200 };
    let config = BenchConfig::new(truth, CrowdShares::default(), 8, 5, s);
    let u = run_design(&config, Design::Uniform).unwrap();
    let a = run_design(&config, Design::Adaptive).unwrap();
    assert_eq!((u.runs_budget_spent, a.runs_budget_spent), (0, 0), "{u:?} {a:?}");
    assert_eq!((u.pairs_decided, a.pairs_decided), (80, 80));
    assert!(a.judgments_median < u.judgments_median, "{a:?} {u:?}");
    // Deterministic from the seed.
    assert_eq!(simulate_run(&config, Design::Adaptive, 3).unwrap(), simulate_run(&config, Design::Adaptive, 3).unwrap());
}

#[test]
fn replay_uses_each_recorded_score_once_and_stops() {
    use super::replay::{ReplayData, replay_design, replay_run};
    // Three systems, 400 segments, one score per cell: 40 points apart (0 vs 1 vs 2), a clear order.
    let mut x: u64 = 11;
    let mut noise = || {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 30.0
    };
    let cells: Vec<Vec<Vec<f64>>> = [85.0, 45.0, 5.0].iter().map(|&m| (0..400).map(|_| vec![(m + noise()).clamp(0.0, 100.0)]).collect()).collect();
    let data = ReplayData { systems: vec!["a".into(), "b".into(), "c".into()], segments: (0..400).map(|g| g.to_string()).collect(), cells };
    assert_eq!(data.available(), 1200);
    let full = data.full_analysis();
    assert_eq!(full.systems.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
    let s = settings(0.05);
    for adaptive in [false, true] {
        let o = replay_run(&data, &s, adaptive, 1).unwrap();
        assert!(!o.exhausted && o.decided == 3 && o.disagreeing == 0, "{adaptive}: {o:?}");
        assert!(o.judgments < 1200, "{adaptive}: {o:?}");
    }
    // Several scores per cell: the uniform design comes back to a segment for its next ones.
    let deep = ReplayData { cells: data.cells.iter().map(|c| c[..5].iter().map(|_| c[..40].iter().flatten().copied().collect()).collect()).collect(), segments: data.segments[..5].to_vec(), ..data.clone() };
    assert_eq!(deep.available(), 600);
    let o = replay_run(&deep, &s, false, 1).unwrap();
    assert!(!o.exhausted && o.decided == 3 && o.judgments > 15, "{o:?}");
    let sum = replay_design(&data, &s, true, 5, 2).unwrap();
    assert_eq!((sum.runs, sum.judgments_available, sum.pairs_decided), (5, 1200, 15));
    // Too little data: the replay runs out and says so.
    let small = ReplayData { cells: data.cells.iter().map(|c| c[..3].to_vec()).collect(), segments: data.segments[..3].to_vec(), ..data.clone() };
    for adaptive in [false, true] {
        let o = replay_run(&small, &s, adaptive, 1).unwrap();
        assert!(o.exhausted && o.judgments <= 9, "{adaptive}: {o:?}");
    }
}
