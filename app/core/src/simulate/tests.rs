//! Tests of the simulated crowd: format, determinism and the known truth.
use std::collections::HashMap;

use super::*;

fn config() -> CrowdConfig {
    CrowdConfig {
        seed: 77,
        system_quality: vec![40.0, 48.0, 56.0, 64.0, 72.0, 80.0],
        segments: 200,
        workers: vec![
            (WorkerKind::Careful, 6),
            (WorkerKind::Noisy, 4),
            (WorkerKind::LazyConstant, 4),
            (WorkerKind::RandomClicker, 6),
            (WorkerKind::Harsh, 5),
            (WorkerKind::Lenient, 5),
        ],
        wanted: JudgmentsWanted::PerSystem(1400),
        ..CrowdConfig::default()
    }
}

fn run(c: &CrowdConfig) -> (Vec<SimJudgment>, SimTruth) {
    let mut v = Vec::new();
    let truth = simulate(c, |j| {
        v.push(j.clone());
        Ok(())
    })
    .unwrap();
    (v, truth)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn sd(v: &[f64]) -> f64 {
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)).sqrt()
}

/// Per worker: (original − bad reference) score differences, paired within an assignment by
/// (HIT, system, segment) as Graham's `repeats.py` does.
fn pair_diffs(js: &[SimJudgment], qc: ItemType) -> HashMap<String, Vec<f64>> {
    let mut sys: HashMap<(&str, usize, &str, &str), f64> = HashMap::new();
    for j in js.iter().filter(|j| j.item_type == ItemType::System) {
        sys.insert((&j.worker, j.hit, &j.sys_id, &j.sid), j.score);
    }
    let mut out: HashMap<String, Vec<f64>> = HashMap::new();
    for j in js.iter().filter(|j| j.item_type == qc) {
        let orig = sys[&(j.worker.as_str(), j.hit, j.sys_id.as_str(), j.sid.as_str())];
        out.entry(j.worker.clone())
            .or_default()
            .push(orig - j.score);
    }
    out
}

#[test]
fn tsv_has_the_graham_header_and_twelve_columns() {
    let c = CrowdConfig {
        wanted: JudgmentsWanted::PerSystem(30),
        ..config()
    };
    let mut out = Vec::new();
    let truth = write_graham_tsv(&c, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), truth.judgments);
    assert_eq!(truth.judgments, truth.hits * 100);
    for r in &rows {
        assert_eq!(r.len(), 12, "{r:?}");
        assert_eq!(r[0].len(), 30);
        assert_eq!((r[2], r[3], r[4]), ("de", "en", "ad"));
        assert!(ItemType::parse(r[8]).is_some());
        assert!(
            r[6].starts_with("sys"),
            "REF rows carry their partner's system: {r:?}"
        );
        let score: f64 = r[10].parse().unwrap();
        assert!((0.0..=100.0).contains(&score));
        assert!(r[11].parse::<f64>().unwrap() > 0.0);
        assert_eq!(r[7].len(), 7);
    }
    // One HIT time per assignment, equal to the rounded sum of the item times.
    let (js, _) = run(&c);
    let total: f64 = js[..100].iter().map(|j| j.item_seconds).sum();
    assert_eq!(js[0].hit_seconds, total.round());
}

#[test]
fn deterministic_from_the_seed() {
    let c = CrowdConfig {
        wanted: JudgmentsWanted::PerSystem(60),
        ..config()
    };
    let (mut a, mut b, mut d) = (Vec::new(), Vec::new(), Vec::new());
    write_graham_tsv(&c, &mut a).unwrap();
    write_graham_tsv(&c, &mut b).unwrap();
    write_graham_tsv(
        &CrowdConfig {
            seed: 78,
            ..c.clone()
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(a, b);
    assert_ne!(a, d);
}

#[test]
fn bad_references_separate_attentive_workers_from_random_clickers() {
    let (js, truth) = run(&config());
    let kinds: HashMap<&str, WorkerKind> = truth
        .workers
        .iter()
        .map(|(id, k)| (id.as_str(), *k))
        .collect();
    let diffs = pair_diffs(&js, ItemType::BadRef);
    let (mut clickers, mut clickers_pass) = (0, 0);
    for (w, d) in &diffs {
        if d.len() < 10 {
            continue;
        }
        let s = sd(d);
        let t = if s > 0.0 {
            mean(d) / (s / (d.len() as f64).sqrt())
        } else {
            0.0
        };
        // One-sided t critical value at 0.05 is below 1.84 for df ≥ 9.
        match kinds[w.as_str()] {
            WorkerKind::Careful | WorkerKind::Harsh | WorkerKind::Lenient => {
                assert!(t > 1.84, "{w} ({:?}) t = {t}", kinds[w.as_str()]);
                assert!(mean(d) > 10.0);
            }
            WorkerKind::LazyConstant => assert_eq!(s, 0.0),
            WorkerKind::RandomClicker => {
                clickers += 1;
                clickers_pass += usize::from(t > 1.84);
            }
            WorkerKind::Noisy => {}
        }
    }
    assert!(clickers >= 4);
    assert!(
        clickers_pass * 4 <= clickers,
        "{clickers_pass} of {clickers} clickers pass"
    );
}

#[test]
fn repeats_are_close_and_references_high_for_careful_workers() {
    let (js, truth) = run(&config());
    let careful: Vec<&str> = truth
        .workers
        .iter()
        .filter(|(_, k)| *k == WorkerKind::Careful)
        .map(|(id, _)| id.as_str())
        .collect();
    let rep = pair_diffs(&js, ItemType::Repeat);
    for w in &careful {
        let Some(d) = rep.get(*w) else { continue };
        let mad = mean(&d.iter().map(|x| x.abs()).collect::<Vec<_>>());
        assert!(mad < 12.0, "{w}: mean |repeat difference| {mad}");
        let of = |t: ItemType| {
            let v: Vec<f64> = js
                .iter()
                .filter(|j| j.worker == *w && j.item_type == t)
                .map(|j| j.score)
                .collect();
            mean(&v)
        };
        assert!(of(ItemType::Ref) > of(ItemType::System) + 15.0);
    }
}

#[test]
fn z_scores_recover_the_true_system_order_despite_harsh_and_lenient_workers() {
    let (js, truth) = run(&config());
    let kinds: HashMap<&str, WorkerKind> = truth
        .workers
        .iter()
        .map(|(id, k)| (id.as_str(), *k))
        .collect();
    let mut by_worker: HashMap<&str, Vec<f64>> = HashMap::new();
    for j in &js {
        by_worker.entry(&j.worker).or_default().push(j.score);
    }
    let raw_mean = |k: WorkerKind| {
        let v: Vec<f64> = js
            .iter()
            .filter(|j| kinds[j.worker.as_str()] == k)
            .map(|j| j.score)
            .collect();
        mean(&v)
    };
    assert!(raw_mean(WorkerKind::Lenient) - raw_mean(WorkerKind::Harsh) > 30.0);
    let stats: HashMap<&str, (f64, f64)> = by_worker
        .iter()
        .map(|(w, v)| (*w, (mean(v), sd(v))))
        .collect();
    let mut per_system: HashMap<&str, Vec<f64>> = HashMap::new();
    for j in js
        .iter()
        .filter(|j| matches!(j.item_type, ItemType::System | ItemType::Repeat))
    {
        if !kinds[j.worker.as_str()].attentive() {
            continue;
        }
        let (m, s) = stats[j.worker.as_str()];
        per_system
            .entry(&j.sys_id)
            .or_default()
            .push((j.score - m) / s);
    }
    let mut order: Vec<(&str, f64)> = per_system.iter().map(|(s, v)| (*s, mean(v))).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let order: Vec<&str> = order.into_iter().map(|x| x.0).collect();
    assert_eq!(
        order,
        truth
            .system_order
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
}

#[test]
fn random_clickers_are_fast() {
    let (js, truth) = run(&config());
    let kinds: HashMap<&str, WorkerKind> = truth
        .workers
        .iter()
        .map(|(id, k)| (id.as_str(), *k))
        .collect();
    let hit_time = |k: WorkerKind| {
        let v: Vec<f64> = js
            .iter()
            .filter(|j| j.position == 0 && kinds[j.worker.as_str()] == k)
            .map(|j| j.hit_seconds)
            .collect();
        mean(&v)
    };
    assert!(hit_time(WorkerKind::Careful) > 1500.0);
    assert!(hit_time(WorkerKind::RandomClicker) < 400.0);
}

#[test]
fn refuses_impossible_crowds() {
    let c = CrowdConfig {
        workers: vec![],
        ..config()
    };
    assert!(matches!(run_err(&c), SimError::NoWorkers));
    let c = CrowdConfig {
        assignments_per_hit: 40,
        ..config()
    };
    assert!(matches!(
        run_err(&c),
        SimError::TooFewWorkers {
            assignments: 40,
            workers: 30
        }
    ));
    let c = CrowdConfig {
        segments: 5,
        ..config()
    };
    assert!(matches!(
        run_err(&c),
        SimError::Hit(HitError::SystemTooFewOutputs { .. })
    ));
}

fn run_err(c: &CrowdConfig) -> SimError {
    simulate(c, |_| Ok(())).unwrap_err()
}
