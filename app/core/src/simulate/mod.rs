//! A seeded simulated crowd for tests, benchmarks and the demo.
//!
//! Systems of known true quality (mean on 0–100), segments of varying difficulty and
//! workers of known kinds complete real HITs built by [`crate::hit::build_hits`]. The
//! output is written streaming as the Graham/MTurk judgment file (`reference/anchors.md`,
//! as produced by `hits2r.pl` in ygraham/direct-assessment and released by WMT22):
//! a space-separated header `HITId WorkerId Input.src Input.trg Input.item hit sys_id rid
//! type sid score time`, then one tab-separated row per judgment.
//!
//! Column reading (documented decisions):
//! - `HITId`: a 30-character MTurk-style id, one per HIT (shared by its assignments).
//! - `WorkerId`: `W0001`… (kinds are dealt in shuffled order, so ids reveal nothing).
//! - `Input.src`, `Input.trg`: language codes; `Input.item`: the task name Graham's
//!   `gen-mturk-csv.py` takes as `ITEM` (`ad` adequacy, `fl` fluency, `sb` source-based,
//!   `wo` word order).
//! - `hit`: the HIT number in the campaign (0-based, as in `gen-mturk-csv.py`).
//! - `sys_id`: the system; for REF rows the system of the paired SYSTEM item (Graham's
//!   QC items copy their partner's system id).
//! - `rid`: a 7-digit id of the item within the campaign's HIT design (same for every
//!   worker who does the HIT).
//! - `type`: SYSTEM, BAD_REF, REPEAT, REF; `sid`: the segment id.
//! - `score`: the raw 0–100 score (3 decimals); `time`: the worker's work time for the
//!   whole HIT in seconds (MTurk `WorkTimeInSeconds`, repeated on each row, as in
//!   `hits2r.pl`). Per-item times are in [`SimJudgment::item_seconds`].

use std::io::{self, Write};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::hit::{Candidate, Hit, HitDesign, HitError, HitItem, JudgmentsWanted, build_hits};
use crate::model::{ItemType, TaskKind};

/// The header of the Graham/MTurk judgment file (space-separated, as released).
pub const GRAHAM_HEADER: &str =
    "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time";

/// Simulated rankers tie two outputs that seem this close (points on the 0–100 quality scale).
pub const RANK_TIE_MARGIN: f64 = 2.0;

/// Kinds of simulated worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WorkerKind {
    /// Scores the item's true quality with small noise.
    Careful,
    /// Attentive but with large noise.
    Noisy,
    /// Gives the same score to every item.
    LazyConstant,
    /// Uniform random scores, very fast.
    RandomClicker,
    /// Attentive, but shifts scores down and compresses them (z-scores remove this).
    Harsh,
    /// Attentive, but shifts scores up and compresses them (z-scores remove this).
    Lenient,
}

impl WorkerKind {
    /// Whether the worker's scores follow item quality (QC should keep them).
    pub fn attentive(self) -> bool {
        !matches!(self, WorkerKind::LazyConstant | WorkerKind::RandomClicker)
    }
}

/// Settings of a simulated campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrowdConfig {
    pub seed: u64,
    /// True mean quality (0–100) of each system; ids are `sys01`, `sys02`, …
    pub system_quality: Vec<f64>,
    /// Number of source segments (ids `1`…`n`); every system translates each.
    pub segments: usize,
    /// Standard deviation of segment difficulty (shared by all systems).
    pub segment_sd: f64,
    /// Standard deviation of a single output's quality around its system and segment.
    pub output_sd: f64,
    /// True quality of human references.
    pub reference_quality: f64,
    /// Mean quality lost by a bad reference.
    pub bad_ref_drop: f64,
    /// How many workers of each kind.
    pub workers: Vec<(WorkerKind, usize)>,
    /// Distinct workers per HIT (MTurk assignments).
    pub assignments_per_hit: usize,
    pub design: HitDesign,
    pub wanted: JudgmentsWanted,
    pub task: TaskKind,
    pub src: String,
    pub trg: String,
}

impl Default for CrowdConfig {
    fn default() -> Self {
        CrowdConfig {
            seed: 1,
            system_quality: (0..8).map(|i| 45.0 + 5.0 * i as f64).collect(),
            segments: 500,
            segment_sd: 10.0,
            output_sd: 12.0,
            reference_quality: 88.0,
            bad_ref_drop: 30.0,
            workers: vec![
                (WorkerKind::Careful, 30),
                (WorkerKind::Noisy, 8),
                (WorkerKind::LazyConstant, 4),
                (WorkerKind::RandomClicker, 8),
                (WorkerKind::Harsh, 6),
                (WorkerKind::Lenient, 6),
            ],
            assignments_per_hit: 1,
            design: HitDesign::default(),
            wanted: JudgmentsWanted::PerSystem(1000),
            task: TaskKind::DaAdequacy,
            src: "de".into(),
            trg: "en".into(),
        }
    }
}

impl CrowdConfig {
    /// A configuration producing about `judgments` judgments (rounded up to whole HITs).
    pub fn with_judgments(judgments: usize) -> Self {
        let c = CrowdConfig::default();
        let per_hit = c.design.length * c.assignments_per_hit;
        let hits = judgments.div_ceil(per_hit);
        let systems = c.system_quality.len();
        let per_system = hits * c.design.system_items() / systems;
        CrowdConfig {
            wanted: JudgmentsWanted::PerSystem(per_system.max(1)),
            ..c
        }
    }
}

/// Why a simulation cannot run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("the simulated crowd has no workers")]
    NoWorkers,
    #[error(
        "{assignments} distinct workers per HIT were asked for, but the crowd has only {workers}"
    )]
    TooFewWorkers { assignments: usize, workers: usize },
    #[error("the campaign needs at least one system and one segment")]
    EmptyCampaign,
    #[error("cannot build the HITs: {0}")]
    Hit(#[from] HitError),
    #[error("cannot write the judgments: {0}")]
    Io(#[from] io::Error),
    #[error("the dry run does not simulate {0} yet")]
    NotSimulated(&'static str),
}

/// The known truth behind a simulation, for tests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimTruth {
    /// (system id, true mean quality), in id order.
    pub systems: Vec<(String, f64)>,
    /// System ids from best to worst true quality.
    pub system_order: Vec<String>,
    /// (worker id, kind).
    pub workers: Vec<(String, WorkerKind)>,
    pub hits: usize,
    pub judgments: usize,
}

/// One simulated judgment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimJudgment {
    pub hit_id: String,
    pub worker: String,
    pub hit: usize,
    pub position: usize,
    /// System id (for REF items: the paired SYSTEM item's system).
    pub sys_id: String,
    pub rid: u64,
    pub item_type: ItemType,
    pub sid: String,
    pub score: f64,
    pub item_seconds: f64,
    /// The worker's total time on this HIT.
    pub hit_seconds: f64,
}

impl SimJudgment {
    /// One worker's judgment of one item of a HIT (the HIT's total time is filled in later).
    #[allow(clippy::too_many_arguments)]
    fn of(hit_id: &str, worker: &str, hit: &Hit, item: &HitItem, sys_id: &str, hit_length: usize, score: f64, seconds: f64) -> Self {
        SimJudgment {
            hit_id: hit_id.to_string(),
            worker: worker.to_string(),
            hit: hit.index,
            position: item.position,
            sys_id: sys_id.to_string(),
            rid: 1_000_000 + (hit.index * hit_length + item.position) as u64,
            item_type: item.item_type,
            sid: item.segment.clone(),
            score,
            item_seconds: seconds,
            hit_seconds: 0.0,
        }
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    // Box–Muller.
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

struct Worker {
    id: String,
    kind: WorkerKind,
    bias: f64,
    constant: f64,
}

impl Worker {
    /// A worker of `kind` with a drawn bias and (for constant scorers) a drawn constant.
    fn draw(id: String, kind: WorkerKind, rng: &mut ChaCha8Rng) -> Self {
        let bias = 4.0 * normal(rng);
        Worker { id, kind, bias, constant: [50.0, 70.0, 100.0][rng.random_range(0..3)] }
    }

    fn score(&self, quality: f64, rng: &mut ChaCha8Rng) -> f64 {
        let s = match self.kind {
            WorkerKind::Careful => quality + self.bias + 6.0 * normal(rng),
            WorkerKind::Noisy => quality + self.bias + 20.0 * normal(rng),
            WorkerKind::LazyConstant => self.constant,
            WorkerKind::RandomClicker => 100.0 * rng.random::<f64>(),
            WorkerKind::Harsh => 0.6 * quality - 5.0 + self.bias + 5.0 * normal(rng),
            WorkerKind::Lenient => 0.5 * quality + 50.0 + self.bias + 5.0 * normal(rng),
        };
        s.clamp(0.0, 100.0)
    }

    /// The ranks (1 = best, ties share a rank, dense: 1, 1, 2, …) this worker gives a block of
    /// outputs of true qualities `qualities` (0–100), in the block's order. Attentive kinds
    /// perceive each output's quality with noise (careful: 3 points; harsh and lenient: 4, as
    /// their bias moves every output alike; noisy: 20) and rank by it, tying an output with the
    /// one above it when they seem within [`RANK_TIE_MARGIN`] points; a random clicker gives
    /// each output a rank drawn uniformly from 1..=N on its own (ties by chance); a constant
    /// scorer ties everything.
    fn rank(&self, qualities: &[f64], rng: &mut ChaCha8Rng) -> Vec<u32> {
        let n = qualities.len();
        let noise = match self.kind {
            WorkerKind::Careful => 3.0,
            WorkerKind::Harsh | WorkerKind::Lenient => 4.0,
            WorkerKind::Noisy => 20.0,
            WorkerKind::LazyConstant => return vec![1; n],
            WorkerKind::RandomClicker => return (0..n).map(|_| rng.random_range(1..=n as u32)).collect(),
        };
        let perceived: Vec<f64> = qualities.iter().map(|q| q + noise * normal(rng)).collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| perceived[b].total_cmp(&perceived[a]));
        let mut ranks = vec![0u32; n];
        let mut rank = 0;
        for (at, &i) in order.iter().enumerate() {
            if at == 0 || perceived[order[at - 1]] - perceived[i] >= RANK_TIE_MARGIN {
                rank += 1;
            }
            ranks[i] = rank;
        }
        ranks
    }

    fn seconds(&self, base: f64, rng: &mut ChaCha8Rng) -> f64 {
        // Log-normal around a kind-specific median.
        let median = match self.kind {
            WorkerKind::LazyConstant => 1.5,
            WorkerKind::RandomClicker => 2.0,
            WorkerKind::Noisy => 0.8 * base,
            _ => base,
        };
        (median * (0.45 * normal(rng)).exp()).max(0.5)
    }
}

fn item_name(task: TaskKind) -> &'static str {
    crate::protocol::for_task(task).simulated_name()
}

/// The configured workers in a shuffled order, named `W0001`, `W0002`, …
fn draw_crowd(workers: &[(WorkerKind, usize)], rng: &mut ChaCha8Rng) -> Vec<Worker> {
    let mut kinds: Vec<WorkerKind> = workers.iter().flat_map(|&(kind, n)| std::iter::repeat_n(kind, n)).collect();
    kinds.shuffle(rng);
    kinds.iter().enumerate().map(|(i, &kind)| Worker::draw(format!("W{:04}", i + 1), kind, rng)).collect()
}

fn mturk_id(rng: &mut ChaCha8Rng) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    (0..30)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// What a simulated campaign is made of before its HITs: the systems, the true quality of
/// their outputs and of the references, the crowd and the candidates (every system's output
/// of every segment). Shared by every protocol's simulation.
pub(crate) struct World {
    pub(crate) rng: ChaCha8Rng,
    pub(crate) system_ids: Vec<String>,
    /// `quality[s][g]`: true quality of system s's output for segment g (segment ids `g + 1`).
    pub(crate) quality: Vec<Vec<f64>>,
    pub(crate) ref_quality: Vec<f64>,
    workers: Vec<Worker>,
    pub(crate) candidates: Vec<Candidate>,
}

impl World {
    pub(crate) fn of(config: &CrowdConfig) -> Result<World, SimError> {
        let k = config.system_quality.len();
        if k == 0 || config.segments == 0 {
            return Err(SimError::EmptyCampaign);
        }
        let total_workers: usize = config.workers.iter().map(|w| w.1).sum();
        if total_workers == 0 {
            return Err(SimError::NoWorkers);
        }
        if config.assignments_per_hit > total_workers || config.assignments_per_hit == 0 {
            return Err(SimError::TooFewWorkers { assignments: config.assignments_per_hit, workers: total_workers });
        }
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let system_ids: Vec<String> = (1..=k).map(|i| format!("sys{i:02}")).collect();
        let difficulty: Vec<f64> = (0..config.segments).map(|_| config.segment_sd * normal(&mut rng)).collect();
        let quality: Vec<Vec<f64>> = config
            .system_quality
            .iter()
            .map(|&q| difficulty.iter().map(|&d| (q + d + config.output_sd * normal(&mut rng)).clamp(0.0, 100.0)).collect())
            .collect();
        let ref_quality: Vec<f64> = difficulty.iter().map(|_| (config.reference_quality + 4.0 * normal(&mut rng)).clamp(0.0, 100.0)).collect();
        let workers = draw_crowd(&config.workers, &mut rng);
        let candidates: Vec<Candidate> =
            system_ids.iter().flat_map(|s| (1..=config.segments).map(move |g| Candidate::new(s.clone(), g.to_string()))).collect();
        Ok(World { rng, system_ids, quality, ref_quality, workers, candidates })
    }

    /// The truth behind a simulation of `config` that built `hits` HITs and stored `judgments`.
    pub(crate) fn truth(&self, config: &CrowdConfig, hits: usize, judgments: usize) -> SimTruth {
        let mut order: Vec<usize> = (0..self.system_ids.len()).collect();
        order.sort_by(|&a, &b| config.system_quality[b].total_cmp(&config.system_quality[a]));
        SimTruth {
            systems: self.system_ids.iter().cloned().zip(config.system_quality.iter().copied()).collect(),
            system_order: order.iter().map(|&i| self.system_ids[i].clone()).collect(),
            workers: self.workers.iter().map(|w| (w.id.clone(), w.kind)).collect(),
            hits,
            judgments,
        }
    }
}

/// Runs the simulated campaign, calling `sink` for every judgment in file order
/// (HIT by HIT, worker by worker, item by item). Deterministic from `config.seed`.
pub fn simulate(
    config: &CrowdConfig,
    mut sink: impl FnMut(&SimJudgment) -> io::Result<()>,
) -> Result<SimTruth, SimError> {
    let mut world = World::of(config)?;
    let hits = build_hits(
        &world.candidates,
        &config.design,
        config.wanted,
        config.seed ^ 0x4849_5453,
    )?;
    // A text read alone (fluency) is judged faster than one beside another.
    let base_seconds = match crate::protocol::for_task(config.task).beside() {
        crate::protocol::Beside::Nothing => 13.0,
        crate::protocol::Beside::Reference | crate::protocol::Beside::Source => 18.0,
    };
    let sys_index = |id: &str| world.system_ids.iter().position(|s| s == id);
    let mut judgments = 0usize;
    let mut buf: Vec<SimJudgment> = Vec::with_capacity(config.design.length);
    let mut pool: Vec<usize> = (0..world.workers.len()).collect();
    for hit in &hits {
        let hit_id = mturk_id(&mut world.rng);
        // True quality and system of each item (REF: the partner's system).
        let items: Vec<(f64, String)> = hit
            .items
            .iter()
            .map(|it| {
                let g: usize = it.segment.parse::<usize>().unwrap_or(1).saturating_sub(1);
                let sys = it
                    .system
                    .clone()
                    .or_else(|| it.paired_with.and_then(|q| hit.items[q].system.clone()))
                    .unwrap_or_default();
                let s = sys_index(&sys).unwrap_or(0);
                let (q, drop) = match it.item_type {
                    ItemType::Ref => (world.ref_quality[g], 0.0),
                    ItemType::BadRef => (
                        world.quality[s][g],
                        config.bad_ref_drop * (0.6 + 0.8 * world.rng.random::<f64>()),
                    ),
                    _ => (world.quality[s][g], 0.0),
                };
                ((q - drop).max(0.0), sys)
            })
            .collect();
        let (chosen, _) = pool.partial_shuffle(&mut world.rng, config.assignments_per_hit);
        let chosen: Vec<usize> = chosen.to_vec();
        for &w in &chosen {
            let worker = &world.workers[w];
            buf.clear();
            let mut total = 0.0;
            for (it, (q, sys)) in hit.items.iter().zip(&items) {
                let score = worker.score(*q, &mut world.rng);
                let secs = worker.seconds(base_seconds, &mut world.rng);
                total += secs;
                buf.push(SimJudgment::of(&hit_id, &worker.id, hit, it, sys, config.design.length, score, secs));
            }
            let total = total.round();
            for j in &mut buf {
                j.hit_seconds = total;
                sink(j)?;
            }
            judgments += buf.len();
        }
    }
    Ok(world.truth(config, hits.len(), judgments))
}

/// A simulated comparison study (METHOD §7): the best system of an old evaluation on its test
/// set, the best system of a new one on a test set that is harder by a known amount, and a
/// benchmark system translating both, in the same HITs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyCrowdConfig {
    pub seed: u64,
    /// True mean quality (0–100) on a test set of average difficulty.
    pub best_old: f64,
    pub best_new: f64,
    pub benchmark: f64,
    /// Points every output of the new test set loses against the old one (its difficulty).
    pub new_set_harder_by: f64,
    /// Segments per test set (ids `old:1`… and `new:1`…).
    pub segments: usize,
    pub segment_sd: f64,
    pub output_sd: f64,
    pub reference_quality: f64,
    pub bad_ref_drop: f64,
    pub workers: Vec<(WorkerKind, usize)>,
    pub assignments_per_hit: usize,
    pub design: HitDesign,
    /// SYSTEM items per (system, test set).
    pub wanted: JudgmentsWanted,
}

impl Default for StudyCrowdConfig {
    fn default() -> Self {
        StudyCrowdConfig {
            seed: 1,
            best_old: 50.0,
            best_new: 58.0,
            benchmark: 62.0,
            new_set_harder_by: 10.0,
            segments: 150,
            segment_sd: 10.0,
            output_sd: 12.0,
            reference_quality: 88.0,
            bad_ref_drop: 30.0,
            workers: vec![(WorkerKind::Careful, 16), (WorkerKind::Noisy, 4), (WorkerKind::RandomClicker, 4)],
            assignments_per_hit: 1,
            design: HitDesign::default(),
            wanted: JudgmentsWanted::PerSystem(700),
        }
    }
}

/// The names a simulated study uses: systems `best-old @ old`, `benchmark @ old`,
/// `best-new @ new`, `benchmark @ new`; segments `old:1`…, `new:1`….
pub const STUDY_SYSTEMS: [&str; 4] = ["best-old @ old", "benchmark @ old", "best-new @ new", "benchmark @ new"];

/// Runs a simulated comparison study, calling `sink` for every judgment (`sys_id` is one of
/// [`STUDY_SYSTEMS`], `sid` names the test set). Deterministic from `config.seed`.
pub fn simulate_study(
    config: &StudyCrowdConfig,
    mut sink: impl FnMut(&SimJudgment) -> io::Result<()>,
) -> Result<SimTruth, SimError> {
    if config.segments == 0 {
        return Err(SimError::EmptyCampaign);
    }
    let total_workers: usize = config.workers.iter().map(|w| w.1).sum();
    if total_workers == 0 {
        return Err(SimError::NoWorkers);
    }
    if config.assignments_per_hit > total_workers || config.assignments_per_hit == 0 {
        return Err(SimError::TooFewWorkers { assignments: config.assignments_per_hit, workers: total_workers });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let n = config.segments;
    // Difficulty per segment of each test set; the new one is harder by the configured amount.
    let difficulty: [Vec<f64>; 2] = [
        (0..n).map(|_| config.segment_sd * normal(&mut rng)).collect(),
        (0..n).map(|_| config.segment_sd * normal(&mut rng) - config.new_set_harder_by).collect(),
    ];
    let systems = [
        (STUDY_SYSTEMS[0], config.best_old, 0usize),
        (STUDY_SYSTEMS[1], config.benchmark, 0),
        (STUDY_SYSTEMS[2], config.best_new, 1),
        (STUDY_SYSTEMS[3], config.benchmark, 1),
    ];
    let quality: Vec<Vec<f64>> = systems
        .iter()
        .map(|&(_, q, set)| {
            difficulty[set].iter().map(|&d| (q + d + config.output_sd * normal(&mut rng)).clamp(0.0, 100.0)).collect()
        })
        .collect();
    let ref_quality: Vec<f64> = (0..2 * n).map(|_| (config.reference_quality + 4.0 * normal(&mut rng)).clamp(0.0, 100.0)).collect();
    let workers = draw_crowd(&config.workers, &mut rng);
    let set_name = ["old", "new"];
    let candidates: Vec<Candidate> = systems
        .iter()
        .flat_map(|&(name, _, set)| (1..=n).map(move |g| Candidate::new(name, format!("{}:{g}", set_name[set]))))
        .collect();
    let hits = build_hits(&candidates, &config.design, config.wanted, config.seed ^ 0x5354_5544)?;
    // (system index, segment index) of an item; REF items take their partner's system.
    let locate = |sys: &str, sid: &str| -> (usize, usize) {
        let s = systems.iter().position(|x| x.0 == sys).unwrap_or(0);
        let g = sid.split_once(':').and_then(|(_, k)| k.parse::<usize>().ok()).unwrap_or(1).saturating_sub(1);
        (s, g)
    };
    let mut pool: Vec<usize> = (0..workers.len()).collect();
    let mut judgments = 0usize;
    for hit in &hits {
        let hit_id = mturk_id(&mut rng);
        let items: Vec<(f64, String)> = hit
            .items
            .iter()
            .map(|it| {
                let sys = it
                    .system
                    .clone()
                    .or_else(|| it.paired_with.and_then(|q| hit.items[q].system.clone()))
                    .unwrap_or_default();
                let (s, g) = locate(&sys, &it.segment);
                let q = match it.item_type {
                    ItemType::Ref => ref_quality[systems[s].2 * n + g],
                    ItemType::BadRef => quality[s][g] - config.bad_ref_drop * (0.6 + 0.8 * rng.random::<f64>()),
                    _ => quality[s][g],
                };
                (q.max(0.0), sys)
            })
            .collect();
        let (chosen, _) = pool.partial_shuffle(&mut rng, config.assignments_per_hit);
        let chosen: Vec<usize> = chosen.to_vec();
        for &w in &chosen {
            let worker = &workers[w];
            for (it, (q, sys)) in hit.items.iter().zip(&items) {
                let score = worker.score(*q, &mut rng);
                let secs = worker.seconds(18.0, &mut rng);
                sink(&SimJudgment::of(&hit_id, &worker.id, hit, it, sys, config.design.length, score, secs))?;
                judgments += 1;
            }
        }
    }
    Ok(SimTruth {
        systems: systems.iter().map(|&(name, q, _)| (name.to_string(), q)).collect(),
        system_order: Vec::new(),
        workers: workers.iter().map(|w| (w.id.clone(), w.kind)).collect(),
        hits: hits.len(),
        judgments,
    })
}

/// Writes one judgment as a row of the Graham/MTurk judgment file.
pub fn write_graham_row(
    w: &mut impl Write,
    j: &SimJudgment,
    config: &CrowdConfig,
) -> io::Result<()> {
    writeln!(
        w,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.3}\t{:.1}",
        j.hit_id,
        j.worker,
        config.src,
        config.trg,
        item_name(config.task),
        j.hit,
        j.sys_id,
        j.rid,
        j.item_type.wmt_name(),
        j.sid,
        j.score,
        j.hit_seconds
    )
}

/// Runs the simulation and streams the Graham/MTurk judgment TSV to `out` (header first).
/// Wrap `out` in a `BufWriter` for files.
pub fn write_graham_tsv(config: &CrowdConfig, mut out: impl Write) -> Result<SimTruth, SimError> {
    writeln!(out, "{GRAHAM_HEADER}")?;
    let truth = simulate(config, |j| write_graham_row(&mut out, j, config))?;
    out.flush()?;
    Ok(truth)
}

/// The error spans a simulated annotator marks on an output it would score `score` (0–100),
/// given the output's words as offsets (start, end): one span per 25 points below 100 (none at
/// 90 or more) on consecutive words from the start, major below 40, and an omission below 20.
/// For MQM the spans carry categories of the default taxonomy (major: mistranslation, minor:
/// grammar, an omission: omission), at most [`crate::protocol::mqm::GOOGLE_MAX_ERRORS`]. Shared
/// by the dry run of a design of documents and the crowd that answers a launched campaign.
pub fn simulated_error_spans(words: &[(usize, usize)], score: f64, scheme: crate::protocol::Scheme) -> Vec<crate::protocol::Span> {
    use crate::protocol::{Scheme, Severity, Span};
    let wanted = if score >= 90.0 { 0 } else { ((100.0 - score) / 25.0).ceil() as usize };
    let severity = if score < 40.0 { Severity::Major } else { Severity::Minor };
    let mut spans: Vec<Span> = words.iter().take(wanted).map(|&(start, end)| Span::new(start, end, severity)).collect();
    if score < 20.0 {
        spans.push(Span::omission(Severity::Major));
    }
    match scheme {
        Scheme::Esa => {}
        Scheme::Mqm => {
            spans.truncate(crate::protocol::mqm::GOOGLE_MAX_ERRORS);
            for s in &mut spans {
                let category = if s.missing {
                    "Accuracy/Omission"
                } else if s.severity == Severity::Major {
                    "Accuracy/Mistranslation"
                } else {
                    "Fluency/Grammar"
                };
                s.category = Some(category.to_string());
            }
        }
    }
    spans
}

/// One simulated worker of a kind answering items one at a time, as the crowd of
/// [`simulate`] does (same score and time models): drives the real server in the integration
/// tests (e.g. the quality gate against a random clicker and a careful worker).
pub struct SimulatedWorker {
    worker: Worker,
    rng: ChaCha8Rng,
}

impl SimulatedWorker {
    pub fn new(kind: WorkerKind, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let worker = Worker::draw(format!("S{seed}"), kind, &mut rng);
        SimulatedWorker { worker, rng }
    }

    pub fn kind(&self) -> WorkerKind {
        self.worker.kind
    }

    /// The 0–100 score this worker gives an item of true quality `quality`.
    pub fn score(&mut self, quality: f64) -> f64 {
        self.worker.score(quality, &mut self.rng)
    }

    /// Seconds this worker spends on an item whose careful time is `base`.
    pub fn seconds(&mut self, base: f64) -> f64 {
        self.worker.seconds(base, &mut self.rng)
    }

    /// The ranks this worker gives one block of a relative-ranking screen: `qualities` are the
    /// true qualities (0–100) of the block's outputs in the order shown (a degraded copy's
    /// quality is its original's less the damage); the answer is each output's rank, 1 = best,
    /// ties sharing a rank, every rank within 1..=N. Careful workers rank by quality with a
    /// little noise and tie what is close; random clickers rank at random.
    pub fn rank_block(&mut self, qualities: &[f64]) -> Vec<u32> {
        self.worker.rank(qualities, &mut self.rng)
    }
}

pub mod dry_run;

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "ranking_tests.rs"]
mod ranking_tests;
