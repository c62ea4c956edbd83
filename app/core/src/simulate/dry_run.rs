//! The dry run of a campaign design (issue 16 item 4): the design simulated a number of times
//! with a crowd of a chosen mix and systems of a plausible spread, each run analysed by the
//! pipeline, to show what the design would buy: the width of each system's confidence
//! interval, the share of system pairs that separate at α, and how many workers quality
//! control would remove.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::Rng;

use super::{CrowdConfig, SimError, SimJudgment, SimTruth, WorkerKind, World, mturk_id, simulate};
use crate::analysis::{AnalysisSettings, BootstrapSettings, JudgmentNames, JudgmentSet, TimeBasis, analyse};
use crate::hit::{HitDesign, HitError, JudgmentsWanted, RankingDesign, build_ranking_hits};
use crate::model::ItemType;
use crate::protocol::HitPlan;
use crate::model::TaskKind;
use crate::report::{DryRunCrowd, DryRunReport};

/// A design to try.
#[derive(Clone, Debug, PartialEq)]
pub struct DryRunDesign {
    pub task: TaskKind,
    pub design: HitDesign,
    /// Relative ranking's screens, for a protocol whose HITs are blocks of outputs: its HITs are
    /// built and ranked as such (`None` for the others).
    pub ranking: Option<RankingDesign>,
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
        // The protocol's own question and simulated workers: what its campaign's analysis reads.
        let protocol = crate::protocol::for_task(design.task);
        let scale = protocol.questions().first().map_or(crate::report::Scale::Continuous, |q| q.scale);
        let sink = |j: &SimJudgment| {
            let lang_pair = format!("{}-{}", config.src, config.trg);
            let hit = j.hit.to_string();
            set.push(
                JudgmentNames { worker: &j.worker, hit: &hit, system: &j.sys_id, segment: &j.sid, lang_pair: &lang_pair, task: protocol.simulated_name(), scale },
                j.item_type,
                j.score,
                j.hit_seconds as f32,
            );
            Ok(())
        };
        let truth = match (protocol.hit_plan(), &design.ranking) {
            (HitPlan::Blocks, Some(ranking)) => simulate_ranking(&config, ranking, sink)?,
            (HitPlan::Blocks, None) => return Err(SimError::Hit(HitError::Ranking("the dry run of a ranking design needs its screens".into()))),
            (HitPlan::Items | HitPlan::WordOrderPairs | HitPlan::Documents, _) => simulate(&config, sink)?,
            (HitPlan::Pairs, _) => return Err(SimError::NotSimulated(protocol.name())),
        };
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

/// Seconds a careful worker spends on one output of a ranking block.
const RANK_SECONDS: f64 = 9.0;

/// Relative ranking's HITs (blocks of outputs on screens, METHOD's WMT 2012 design) done by the
/// simulated crowd: each block ranked as a whole by the worker's own ranking (careful workers by
/// quality with a little noise and ties for what is close; random clickers at random; constant
/// ones all first), a degraded copy's quality its original's less the bad-reference damage;
/// each output's judgment is the stored score of its rank, (N − rank)/(N − 1).
fn simulate_ranking(config: &CrowdConfig, design: &RankingDesign, mut sink: impl FnMut(&SimJudgment) -> std::io::Result<()>) -> Result<SimTruth, SimError> {
    let mut world = World::of(config)?;
    let hits = build_ranking_hits(&world.candidates, design, &[], config.wanted, config.seed ^ 0x5241_4e4b)?;
    let mut pool: Vec<usize> = (0..world.workers.len()).collect();
    let mut judgments = 0;
    for hit in &hits {
        let hit_id = mturk_id(&mut world.rng);
        let (chosen, _) = pool.partial_shuffle(&mut world.rng, config.assignments_per_hit);
        for w in chosen.to_vec() {
            let mut buf: Vec<SimJudgment> = Vec::with_capacity(hit.items.len());
            let mut at = 0;
            while at < hit.items.len() {
                let (screen, segment) = (hit.items[at].screen, &hit.items[at].segment);
                let end = at + hit.items[at..].iter().take_while(|it| it.screen == screen && &it.segment == segment).count();
                let block = &hit.items[at..end];
                let systems: Vec<String> = block.iter().map(|it| it.system.clone().unwrap_or_default()).collect();
                let qualities: Vec<f64> = block
                    .iter()
                    .zip(&systems)
                    .map(|(it, sys)| {
                        let s = world.system_ids.iter().position(|x| x == sys).unwrap_or(0);
                        let g = it.segment.parse::<usize>().unwrap_or(1).saturating_sub(1);
                        let q = world.quality[s][g];
                        if it.item_type == ItemType::BadRef { (q - config.bad_ref_drop * (0.6 + 0.8 * world.rng.random::<f64>())).max(0.0) } else { q }
                    })
                    .collect();
                let worker = &world.workers[w];
                let ranks = worker.rank(&qualities, &mut world.rng);
                for ((it, sys), &rank) in block.iter().zip(&systems).zip(&ranks) {
                    let seconds = worker.seconds(RANK_SECONDS, &mut world.rng);
                    let score = crate::protocol::ranking::score_of_rank(rank, block.len());
                    buf.push(SimJudgment::of(&hit_id, &worker.id, hit, it, sys, hit.items.len(), score, seconds));
                }
                at = end;
            }
            let total = buf.iter().map(|j| j.item_seconds).sum::<f64>().round();
            for j in &mut buf {
                j.hit_seconds = total;
                sink(j)?;
            }
            judgments += buf.len();
        }
    }
    Ok(world.truth(config, hits.len(), judgments))
}

/// HITs the design builds, estimated from its numbers (the simulator builds the real ones).
fn design_hits(d: &DryRunDesign) -> usize {
    let per_hit = d.ranking.as_ref().map_or_else(|| d.design.system_items(), RankingDesign::system_items).max(1);
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
            ranking: None,
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

    /// The dry run of a ranking design simulates ranking (issue 38): its HITs are screens of
    /// blocks, every output's judgment a rank's score, and its quality control the sign test on
    /// degraded copies, which removes careless rankers and keeps careful ones.
    #[test]
    fn a_ranking_design_is_ranked_in_its_dry_run() {
        let ranking = RankingDesign { screens: 5, blocks_per_screen: 3, outputs: 5, degraded_blocks: 4, repeated_screens: 1, gold_blocks: 0 };
        let d = DryRunDesign {
            task: TaskKind::Ranking,
            design: HitDesign::default(),
            ranking: Some(ranking),
            wanted: JudgmentsWanted::PerSystem(600),
            redundancy: 1,
            systems: 6,
            segments: 60,
        };
        let crowd = DryRunCrowd { careful: 70.0, noisy: 0.0, careless: 30.0, workers: 0, spread: 40.0, alpha: 0.05 };
        let report = dry_run(&d, &crowd, 2, 3).unwrap();
        // Every HIT holds 5 screens of 3 blocks of 5 outputs: 75 judgments a worker.
        assert!(report.hits > 0 && report.judgments == report.hits * 75, "{report:?}");
        // The random half of the careless crowd fails the sign test; the constant half (every
        // output first: all ties) gives no decisive pair.
        assert!(report.careless_removed > 0.4 * (report.careless_removed + report.careless_kept), "{report:?}");
        assert!(report.workers_removed - report.careless_removed < 0.1 * report.workers, "{report:?}");
        assert!(report.separated_in_true_order > 0.9, "{report:?}");
        // Simulated as DA instead, the same HITs would hold DA's 100 items.
        let as_da = dry_run(&DryRunDesign { task: TaskKind::DaAdequacy, ranking: None, ..d.clone() }, &crowd, 2, 3).unwrap();
        assert_eq!(as_da.judgments % 100, 0);
        // A ranking design without its screens is refused, not simulated as DA.
        assert!(dry_run(&DryRunDesign { ranking: None, ..d }, &crowd, 2, 3).is_err());
    }
}
