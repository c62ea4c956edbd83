//! Evidence from the simulated crowd ([`crate::simulate`]) that the method does what METHOD §4
//! and §5 claim: the reliability test keeps attentive workers and removes random clickers, and
//! standardised scores recover the true system order where raw scores are biased by harsh and
//! lenient workers who judged different systems. Rates are printed (`--nocapture`) and asserted
//! with margin over several seeds.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::simulate::{CrowdConfig, SimJudgment, WorkerKind, simulate};
use assay_stats::kendall_tau_b;

use super::*;

/// Runs the simulation straight into a judgment set, keeping the judgments `keep` accepts.
fn crowd(
    config: &CrowdConfig,
    mut keep: impl FnMut(&SimJudgment) -> bool,
) -> (JudgmentSet, crate::simulate::SimTruth) {
    let mut set = JudgmentSet::new(TimeBasis::PerHit);
    let pair = format!("{}-{}", config.src, config.trg);
    let truth = simulate(config, |j| {
        if keep(j) {
            set.push(
                JudgmentNames {
                    worker: &j.worker,
                    hit: &j.hit_id,
                    system: &j.sys_id,
                    segment: &j.sid,
                    lang_pair: &pair,
                    task: "ad",
                    scale: crate::report::Scale::Continuous,
                },
                j.item_type,
                j.score,
                j.hit_seconds as f32,
            );
        }
        Ok(())
    })
    .expect("simulation");
    (set, truth)
}

const KINDS: [WorkerKind; 6] = [
    WorkerKind::Careful,
    WorkerKind::Noisy,
    WorkerKind::Harsh,
    WorkerKind::Lenient,
    WorkerKind::LazyConstant,
    WorkerKind::RandomClicker,
];

/// Per worker kind: (workers who passed the reliability test, workers tested).
fn pass_counts(test: QcTest, seeds: std::ops::RangeInclusive<u64>) -> HashMap<WorkerKind, (usize, usize)> {
    let mut counts: HashMap<WorkerKind, (usize, usize)> = HashMap::new();
    for seed in seeds {
        let config = CrowdConfig {
            seed,
            segments: 300,
            workers: vec![
                (WorkerKind::Careful, 30),
                (WorkerKind::Noisy, 10),
                (WorkerKind::Harsh, 10),
                (WorkerKind::Lenient, 10),
                (WorkerKind::LazyConstant, 10),
                (WorkerKind::RandomClicker, 30),
            ],
            wanted: crate::hit::JudgmentsWanted::PerSystem(3000),
            ..CrowdConfig::default()
        };
        let (set, truth) = crowd(&config, |_| true);
        let kind: HashMap<&str, WorkerKind> =
            truth.workers.iter().map(|(w, k)| (w.as_str(), *k)).collect();
        let qc = quality::run(
            &set,
            &QcSettings {
                reliability_test: test,
                ..QcSettings::default()
            },
        );
        for w in &qc {
            let k = kind[set.workers.name(w.worker)];
            let c = counts.entry(k).or_default();
            c.1 += 1;
            if w.reliability.verdict == Verdict::Pass {
                c.0 += 1;
            }
        }
    }
    counts
}

fn rate(c: (usize, usize)) -> f64 {
    c.0 as f64 / c.1.max(1) as f64
}

#[test]
fn reliability_test_keeps_attentive_workers_and_removes_random_clickers() {
    for test in [QcTest::PairedT, QcTest::SignedRank] {
        let counts = pass_counts(test, 1..=5);
        for k in KINDS {
            let c = counts.get(&k).copied().unwrap_or_default();
            eprintln!("{test:?}: {k:?} passed {} of {} ({:.1}%)", c.0, c.1, 100.0 * rate(c));
        }
        let get = |k| counts.get(&k).copied().unwrap_or_default();
        // Enough workers were tested for the rates to mean something.
        assert!(get(WorkerKind::Careful).1 >= 100);
        assert!(get(WorkerKind::RandomClicker).1 >= 100);
        // Careful, harsh and lenient workers score bad references clearly lower.
        for k in [WorkerKind::Careful, WorkerKind::Harsh, WorkerKind::Lenient] {
            assert!(rate(get(k)) >= 0.97, "{test:?} {k:?}: {:?}", get(k));
        }
        assert!(rate(get(WorkerKind::Noisy)) >= 0.75, "{test:?}: {:?}", get(WorkerKind::Noisy));
        // A random clicker passes a one-sided test at α = 0.05 about 5% of the time.
        assert!(
            rate(get(WorkerKind::RandomClicker)) <= 0.12,
            "{test:?}: {:?}",
            get(WorkerKind::RandomClicker)
        );
        // A constant scorer never passes.
        assert_eq!(get(WorkerKind::LazyConstant).0, 0);
    }
}

/// Fraction of system pairs ordered as the truth orders them.
fn pairwise_agreement(truth: &[f64], estimate: &[f64]) -> f64 {
    let (mut agree, mut total) = (0usize, 0usize);
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            total += 1;
            if (truth[i] - truth[j]) * (estimate[i] - estimate[j]) > 0.0 {
                agree += 1;
            }
        }
    }
    agree as f64 / total as f64
}

fn key_hash(j: &SimJudgment) -> f64 {
    let mut h = DefaultHasher::new();
    (&j.worker, j.hit, &j.sys_id, &j.sid).hash(&mut h);
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// Harsh workers judge mostly the better half of the systems and lenient workers mostly the
/// worse half (each drops 75% of the other half's items, with their quality-control partners).
/// Raw means are then biased against the good systems; per-worker z-scores remove most of it.
#[test]
fn z_scores_recover_the_true_order_better_than_raw_scores() {
    let (mut sum_z, mut sum_raw) = (0.0, 0.0);
    let seeds = 11..=15u64;
    for seed in seeds.clone() {
        let config = CrowdConfig {
            seed,
            system_quality: (0..8).map(|i| 45.0 + 5.0 * i as f64).collect(),
            segments: 300,
            workers: vec![
                (WorkerKind::Careful, 6),
                (WorkerKind::Harsh, 17),
                (WorkerKind::Lenient, 17),
            ],
            wanted: crate::hit::JudgmentsWanted::PerSystem(3000),
            ..CrowdConfig::default()
        };
        let quality: HashMap<String, f64> = (0..8)
            .map(|i| (format!("sys{:02}", i + 1), config.system_quality[i]))
            .collect();
        // Worker kinds are needed while filtering: a dry run gives them (same seed, same crowd).
        let (_, truth) = crowd(&config, |_| false);
        let kind: HashMap<String, WorkerKind> = truth.workers.iter().cloned().collect();
        let (set, _) = crowd(&config, |j| {
            let good = quality.get(&j.sys_id).is_some_and(|q| *q >= 65.0);
            let skewed = match kind[&j.worker] {
                WorkerKind::Harsh => !good,
                WorkerKind::Lenient => good,
                _ => false,
            };
            !(skewed && key_hash(j) < 0.75)
        });
        let result = analyse(
            &set,
            &AnalysisSettings {
                bootstrap: None,
                ..AnalysisSettings::default()
            },
        );
        let g = &result.groups[0];
        assert_eq!(g.systems.len(), 8);
        let t: Vec<f64> = g
            .systems
            .iter()
            .map(|s| quality[&result.names.systems[s.system as usize]])
            .collect();
        let z: Vec<f64> = g.systems.iter().map(|s| s.z).collect();
        let raw: Vec<f64> = g.systems.iter().map(|s| s.raw).collect();
        let (az, ar) = (pairwise_agreement(&t, &z), pairwise_agreement(&t, &raw));
        let (tz, tr) = (
            kendall_tau_b(&t, &z).expect("tau"),
            kendall_tau_b(&t, &raw).expect("tau"),
        );
        eprintln!(
            "seed {seed}: pairwise agreement z {az:.3} raw {ar:.3}; Kendall tau z {tz:.3} raw {tr:.3}"
        );
        assert!(az > ar, "seed {seed}: z {az} vs raw {ar}");
        assert!(tz >= 0.7, "seed {seed}: tau(z) = {tz}");
        sum_z += az;
        sum_raw += ar;
    }
    let n = seeds.count() as f64;
    eprintln!("mean pairwise agreement: z {:.3}, raw {:.3}", sum_z / n, sum_raw / n);
    assert!(sum_z / n >= 0.9);
    assert!(sum_z / n - sum_raw / n >= 0.2);
}
