//! The dry run of a campaign design (issue 16 item 4): the design simulated a number of times
//! with a crowd of a chosen mix and systems of a plausible spread, each run analysed by the
//! pipeline, to show what the design would buy: the width of each system's confidence
//! interval, the share of system pairs that separate at α, and how many workers quality
//! control would remove.

use std::collections::HashMap;

use super::{CrowdConfig, SimError, WorkerKind, simulate};
use crate::analysis::{AnalysisSettings, BootstrapSettings, JudgmentNames, JudgmentSet, TimeBasis, analyse};
use crate::hit::{HitDesign, JudgmentsWanted};
use crate::model::TaskKind;
use crate::report::{DryRunCrowd, DryRunReport};

/// A design to try.
#[derive(Clone, Debug, PartialEq)]
pub struct DryRunDesign {
    pub task: TaskKind,
    pub design: HitDesign,
    pub wanted: JudgmentsWanted,
    /// Workers per HIT.
    pub redundancy: usize,
    pub systems: usize,
    pub segments: usize,
}

/// Bootstrap samples per run (enough for an interval's width; the campaign's own results use
/// 1,000).
const SAMPLES: usize = 200;

/// Simulates `design` `runs` times with `crowd` and analyses each run.
pub fn dry_run(design: &DryRunDesign, crowd: &DryRunCrowd, runs: usize, seed: u64) -> Result<DryRunReport, SimError> {
    let started = std::time::Instant::now();
    let k = design.systems.max(1);
    let spread = crowd.spread.clamp(0.0, 80.0);
    // True qualities, best first, evenly spread around 60.
    let quality: Vec<f64> = (0..k).map(|i| 60.0 + spread / 2.0 - spread * i as f64 / (k.max(2) - 1) as f64).collect();
    let total = (crowd.careful + crowd.noisy + crowd.careless).max(f64::MIN_POSITIVE);
    let mut report = DryRunReport { runs, confidence: 0.95, ..DryRunReport::default() };
    let mut widths = vec![0.0; k];
    let (mut separated, mut in_order, mut pairs) = (0.0, 0.0, 0.0);
    for run in 0..runs {
        let mut config = CrowdConfig {
            seed: seed.wrapping_add(run as u64 * 7919),
            system_quality: quality.clone(),
            segments: design.segments.max(1),
            assignments_per_hit: design.redundancy.max(1),
            design: design.design.clone(),
            wanted: design.wanted,
            task: design.task,
            ..CrowdConfig::default()
        };
        // The crowd: at least one worker per assignment of a HIT; by default one per HIT slot.
        let hits_guess = 1 + design_hits(design);
        let n = if crowd.workers > 0 { crowd.workers } else { hits_guess * design.redundancy.max(1) }.max(design.redundancy.max(1));
        let count = |share: f64| ((share / total) * n as f64).round() as usize;
        let (noisy, careless) = (count(crowd.noisy), count(crowd.careless));
        let careful = n.saturating_sub(noisy + careless).max(usize::from(noisy + careless == 0));
        config.workers = vec![
            (WorkerKind::Careful, careful),
            (WorkerKind::Noisy, noisy),
            (WorkerKind::LazyConstant, careless / 2),
            (WorkerKind::RandomClicker, careless - careless / 2),
        ];
        let mut set = JudgmentSet::new(TimeBasis::PerHit);
        let truth = simulate(&config, |j| {
            let lang_pair = format!("{}-{}", config.src, config.trg);
            let hit = j.hit.to_string();
            set.push(
                JudgmentNames { worker: &j.worker, hit: &hit, system: &j.sys_id, segment: &j.sid, lang_pair: &lang_pair, task: "dry-run", scale: crate::report::Scale::Continuous },
                j.item_type,
                j.score,
                j.hit_seconds as f32,
            );
            Ok(())
        })?;
        report.hits = truth.hits;
        report.judgments = truth.judgments;
        let settings = AnalysisSettings {
            bootstrap: Some(BootstrapSettings { samples: SAMPLES, seed: seed ^ run as u64, ..BootstrapSettings::default() }),
            ..AnalysisSettings::default()
        };
        let result = analyse(&set, &settings);
        report.confidence = settings.bootstrap.map_or(0.95, |b| b.confidence);
        // Systems by true rank: `sys01` is the best (quality is listed best first).
        let rank: HashMap<&str, usize> = truth.systems.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
        if let Some(g) = result.groups.first() {
            for s in &g.systems {
                let Some(&r) = rank.get(result.names.systems[s.system as usize].as_str()) else { continue };
                if let Some(ci) = &s.z_ci {
                    widths[r] += (ci.upper - ci.lower) / runs as f64;
                }
            }
            let c = &g.comparison;
            for (i, &a) in c.systems.iter().enumerate() {
                for &b in &c.systems[i + 1..] {
                    pairs += 1.0;
                    let (ab, ba) = (c.p(a, b).unwrap_or(1.0), c.p(b, a).unwrap_or(1.0));
                    if ab.min(ba) < crowd.alpha {
                        separated += 1.0;
                        let (ra, rb) = (rank[result.names.systems[a as usize].as_str()], rank[result.names.systems[b as usize].as_str()]);
                        // The one found better is the truly better one (lower rank).
                        if (ab < ba) == (ra < rb) {
                            in_order += 1.0;
                        }
                    }
                }
            }
        }
        let kinds: HashMap<&str, WorkerKind> = truth.workers.iter().map(|(id, kind)| (id.as_str(), *kind)).collect();
        for w in &result.workers {
            let careless = kinds.get(result.names.workers[w.worker as usize].as_str()).is_some_and(|k| !k.attentive());
            let removed = settings.exclusion.excludes(w);
            report.workers += 1.0 / runs as f64;
            report.workers_removed += f64::from(u8::from(removed)) / runs as f64;
            report.careless_removed += f64::from(u8::from(removed && careless)) / runs as f64;
            report.careless_kept += f64::from(u8::from(!removed && careless)) / runs as f64;
        }
    }
    report.systems = quality.iter().copied().zip(widths.iter().copied()).collect();
    report.mean_ci_width = widths.iter().sum::<f64>() / k as f64;
    report.pairs_separated = if pairs > 0.0 { separated / pairs } else { 0.0 };
    report.separated_in_true_order = if separated > 0.0 { in_order / separated } else { 0.0 };
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// HITs the design builds, estimated from its numbers (the simulator builds the real ones).
fn design_hits(d: &DryRunDesign) -> usize {
    let per_hit = d.design.system_items().max(1);
    let wanted = match d.wanted {
        JudgmentsWanted::PerSystem(n) => n * d.systems,
        JudgmentsWanted::PerSegment(n) => n * d.systems * d.segments,
    };
    wanted.div_ceil(per_hit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(wanted: usize) -> DryRunDesign {
        DryRunDesign {
            task: TaskKind::DaAdequacy,
            design: HitDesign::default(),
            wanted: JudgmentsWanted::PerSystem(wanted),
            redundancy: 1,
            systems: 4,
            segments: 300,
        }
    }

    /// More judgments buy narrower intervals and more separated pairs; a careless crowd is
    /// removed by quality control; the runs are deterministic from the seed.
    #[test]
    fn a_bigger_design_buys_narrower_intervals() {
        let crowd = DryRunCrowd { careful: 70.0, noisy: 10.0, careless: 20.0, workers: 0, spread: 12.0, alpha: 0.05 };
        let small = dry_run(&design(140), &crowd, 3, 1).unwrap();
        let big = dry_run(&design(1400), &crowd, 3, 1).unwrap();
        assert_eq!(small.systems.len(), 4);
        assert!(big.judgments > 9 * small.judgments, "{} vs {}", big.judgments, small.judgments);
        // Not by √10: the bootstrap resamples segments, and once every segment is judged the
        // segments' own spread of difficulty stays in the interval.
        assert!(big.mean_ci_width < 0.7 * small.mean_ci_width, "{} vs {}", big.mean_ci_width, small.mean_ci_width);
        assert!(big.pairs_separated >= small.pairs_separated && big.pairs_separated > 0.8, "{big:?}");
        assert!(big.separated_in_true_order > 0.95, "{big:?}");
        // About a fifth of the workers are careless; most of them are removed, few careful ones.
        assert!(big.careless_removed > 0.6 * (big.careless_removed + big.careless_kept), "{big:?}");
        assert!(big.workers_removed - big.careless_removed < 0.1 * big.workers, "{big:?}");
        assert_eq!(dry_run(&design(140), &crowd, 3, 1).unwrap().systems, small.systems, "deterministic");
        // No spread: far fewer pairs separate (those that do differ in their outputs: each
        // output's quality is drawn around its system's, so equal systems are not equal on a
        // finite test set).
        let flat = dry_run(&design(1400), &DryRunCrowd { spread: 0.0, ..crowd }, 3, 1).unwrap();
        assert!(flat.pairs_separated < 0.6 * big.pairs_separated, "{flat:?}");
    }
}
