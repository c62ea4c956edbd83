//! The dry run of a campaign design (issue 16 item 4): the design simulated a number of times
//! with a crowd of a chosen mix and systems of a plausible spread, each run analysed by the
//! pipeline, to show what the design would buy: the width of each system's confidence
//! interval, the share of system pairs that separate at α, and how many workers quality
//! control would remove.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::Rng;

use super::{CrowdConfig, SimError, SimJudgment, SimTruth, WorkerKind, World, mturk_id, simulate, simulate_word_order, simulated_error_spans};
use crate::analysis::{AnalysisSettings, BootstrapSettings, ExclusionPolicy, JudgmentNames, JudgmentSet, TimeBasis, analyse};
use crate::hit::{
    DocumentDesign, DocumentSegment, DocumentUnit, HitDesign, HitError, JudgmentsWanted, PairDesign, RankingDesign, WordOrderDesign, build_document_hits,
    build_pair_hits, build_ranking_hits,
};
use crate::model::ItemType;
use crate::model::TaskKind;
use crate::protocol::mqm::{MqmWeights, mqm_score};
use crate::protocol::pairwise::bradley_terry::BtSettings;
use crate::protocol::pairwise::campaign::StoredPreference;
use crate::protocol::pairwise::qc::ReliabilitySettings;
use crate::protocol::pairwise::{self, Preference, ScreenPick, Side};
use crate::protocol::{HitPlan, Scheme};
use crate::report::{DryRunCrowd, DryRunInterval, DryRunReport};

/// A design to try.
#[derive(Clone, Debug, PartialEq)]
pub struct DryRunDesign {
    pub task: TaskKind,
    pub design: HitDesign,
    /// Relative ranking's screens, for a protocol whose HITs are blocks of outputs: its HITs are
    /// built and ranked as such (`None` for the others).
    pub ranking: Option<RankingDesign>,
    /// A protocol of documents (ESA, MQM): its document HITs and the test set's documents.
    pub documents: Option<DocumentsShape>,
    /// Pairwise preference: its pairs per HIT.
    pub pairs: Option<PairDesign>,
    /// Word order: its HITs of real outputs and permuted references.
    pub word_order: Option<WordOrderDesign>,
    /// Who leaves the scores, as the campaign's results would decide it (its choice for workers
    /// with too few pairs to test). Pairwise preference's own analysis keeps them always.
    pub exclusion: ExclusionPolicy,
    pub wanted: JudgmentsWanted,
    /// Workers per HIT.
    pub redundancy: usize,
    pub systems: usize,
    pub segments: usize,
}

/// Bootstrap samples per run (enough for an interval's width; the campaign's own results use
/// 1,000).
const SAMPLES: usize = 200;

/// What one simulated run found: per system (by true rank, best first) its interval's width,
/// the pairs of systems told apart and how many of them in the true order, and per worker
/// whether it was careless and whether quality control removed it.
#[derive(Default)]
struct RunFigures {
    hits: usize,
    judgments: usize,
    widths: Vec<f64>,
    pairs: f64,
    separated: f64,
    in_order: f64,
    workers: Vec<(bool, bool)>,
}

/// Simulates `design` `runs` times with `crowd` and analyses each run.
pub fn dry_run(design: &DryRunDesign, crowd: &DryRunCrowd, runs: usize, seed: u64) -> Result<DryRunReport, SimError> {
    let started = std::time::Instant::now();
    let k = design.systems.max(1);
    let spread = crowd.spread.clamp(0.0, 80.0);
    // True qualities, best first, evenly spread around 60.
    let quality: Vec<f64> = (0..k).map(|i| 60.0 + spread / 2.0 - spread * i as f64 / (k.max(2) - 1) as f64).collect();
    let total = (crowd.careful + crowd.noisy + crowd.careless).max(f64::MIN_POSITIVE);
    let protocol = crate::protocol::for_task(design.task);
    let interval = match protocol.hit_plan() {
        HitPlan::Pairs => DryRunInterval::Rating,
        HitPlan::Items | HitPlan::WordOrderPairs | HitPlan::Blocks | HitPlan::Documents => DryRunInterval::Z,
    };
    let mut report = DryRunReport { runs, confidence: 0.95, interval, ..DryRunReport::default() };
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
        let figures = match (protocol.hit_plan(), &design.pairs) {
            (HitPlan::Pairs, Some(pair_design)) => pairwise_run(&config, pair_design, seed ^ run as u64)?,
            (HitPlan::Pairs, None) => return Err(SimError::Hit(HitError::Pairs("the dry run of a pairwise design needs its pairs per HIT".into()))),
            (HitPlan::Items | HitPlan::WordOrderPairs | HitPlan::Blocks | HitPlan::Documents, _) => {
                let (figures, confidence) = pipeline_run(design, &config, crowd, seed ^ run as u64)?;
                report.confidence = confidence;
                figures
            }
        };
        report.hits = figures.hits;
        report.judgments = figures.judgments;
        for (w, f) in widths.iter_mut().zip(&figures.widths) {
            *w += f / runs as f64;
        }
        pairs += figures.pairs;
        separated += figures.separated;
        in_order += figures.in_order;
        for &(careless, removed) in &figures.workers {
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

/// One run of a protocol whose campaign is analysed by the pipeline (scores, the paired
/// reliability test on degraded copies, z and its bootstrap): its HITs simulated with the
/// protocol's own simulated answers, then analysed. Returns the figures and the intervals'
/// confidence.
fn pipeline_run(design: &DryRunDesign, config: &CrowdConfig, crowd: &DryRunCrowd, seed: u64) -> Result<(RunFigures, f64), SimError> {
    let k = config.system_quality.len();
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
    let truth = match (protocol.hit_plan(), &design.ranking, &design.documents) {
        (HitPlan::Blocks, Some(ranking), _) => simulate_ranking(config, ranking, sink)?,
        (HitPlan::Blocks, None, _) => return Err(SimError::Hit(HitError::Ranking("the dry run of a ranking design needs its screens".into()))),
        (HitPlan::Documents, _, Some(documents)) => simulate_documents(config, documents, protocol.span_scheme(), sink)?,
        (HitPlan::Documents, _, None) => {
            return Err(SimError::Hit(HitError::Documents("the dry run of a design of documents needs its documents' shape".into())));
        }
        (HitPlan::WordOrderPairs, _, _) => match &design.word_order {
            Some(word_order) => simulate_word_order(config, word_order, sink)?,
            None => return Err(SimError::MissingShape(protocol.name(), "its permuted references per HIT")),
        },
        (HitPlan::Items, _, _) => simulate(config, sink)?,
        (HitPlan::Pairs, _, _) => return Err(SimError::NotSimulated(protocol.name())),
    };
    let settings = AnalysisSettings {
        bootstrap: Some(BootstrapSettings { samples: SAMPLES, seed, ..BootstrapSettings::default() }),
        exclusion: design.exclusion,
        ..AnalysisSettings::default()
    };
    let result = analyse(&set, &settings);
    // Systems by true rank: `sys01` is the best (quality is listed best first).
    let rank: HashMap<&str, usize> = truth.systems.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
    let rank_of = |s: u32| rank.get(result.names.systems[s as usize].as_str()).copied();
    let mut verdicts = Verdicts::default();
    if let Some(g) = result.groups.first() {
        verdicts.widths = g.systems.iter().filter_map(|s| Some((rank_of(s.system)?, s.z_ci.as_ref().map(|ci| ci.upper - ci.lower)?))).collect();
        let c = &g.comparison;
        for (i, &a) in c.systems.iter().enumerate() {
            for &b in &c.systems[i + 1..] {
                let (Some(ra), Some(rb)) = (rank_of(a), rank_of(b)) else { continue };
                let (ab, ba) = (c.p(a, b).unwrap_or(1.0), c.p(b, a).unwrap_or(1.0));
                // Told apart at α, the one with the smaller one-sided p found the better.
                verdicts.pairs.push((ra, rb, (ab.min(ba) < crowd.alpha).then_some(ab < ba)));
            }
        }
    }
    verdicts.workers = result.workers.iter().map(|w| (result.names.workers[w.worker as usize].clone(), settings.exclusion.excludes(w))).collect();
    let figures = figures_of(&truth, k, verdicts);
    Ok((figures, settings.bootstrap.map_or(0.95, |b| b.confidence)))
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

/// The documents of a design of documents (ESA, MQM), as the dry run builds them: its HIT
/// design and the shape of the test set's documents (their mean length).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocumentsShape {
    pub design: DocumentDesign,
    /// Segments per document (the test set's mean; at least 1).
    pub segments_per_document: usize,
    /// Source words per segment (the test set's mean; at least 1).
    pub source_words: usize,
}

/// A protocol of documents' HITs (whole documents, their degraded and repeated copies paired
/// segment by segment, [`build_document_hits`]) done by the simulated crowd: every segment
/// judged with the protocol's own answer. ESA: the worker's 0–100 score (its spans are not
/// what the analysis reads). MQM: the errors the worker marks for the quality it perceives
/// ([`simulated_error_spans`]), scored −Σ weights with MQM's default weights, as the server
/// scores them; a constant worker marks the same errors everywhere, a random clicker random
/// ones.
fn simulate_documents(
    config: &CrowdConfig,
    shape: &DocumentsShape,
    scheme: Option<Scheme>,
    mut sink: impl FnMut(&SimJudgment) -> std::io::Result<()>,
) -> Result<SimTruth, SimError> {
    let mut world = World::of(config)?;
    let per_document = shape.segments_per_document.max(1);
    let words = shape.source_words.max(1);
    let documents = config.segments.div_ceil(per_document);
    let units: Vec<DocumentUnit> = world
        .system_ids
        .iter()
        .flat_map(|system| {
            (0..documents).map(move |d| DocumentUnit {
                system: system.clone(),
                document: format!("doc{d}"),
                segments: (d * per_document + 1..=((d + 1) * per_document).min(config.segments))
                    .map(|g| DocumentSegment { segment: g.to_string(), source_words: words, degradable: true })
                    .collect(),
            })
        })
        .collect();
    let hits = build_document_hits(&units, &shape.design, config.seed ^ 0x444f_4353)?;
    let weights = MqmWeights::default();
    // Word offsets of a segment's output (the spans' positions; only their count matters here).
    let offsets: Vec<(usize, usize)> = (0..words).map(|i| (2 * i, 2 * i + 1)).collect();
    let item_seconds = shape.design.seconds_per_source_word * words as f64;
    let mut pool: Vec<usize> = (0..world.workers.len()).collect();
    let mut judgments = 0;
    for hit in &hits {
        let hit_id = mturk_id(&mut world.rng);
        // True quality of each item: a degraded copy's is its original's less the damage.
        let qualities: Vec<f64> = hit
            .items
            .iter()
            .map(|it| {
                let s = world.system_ids.iter().position(|x| Some(x) == it.system.as_ref()).unwrap_or(0);
                let g = it.segment.parse::<usize>().unwrap_or(1).saturating_sub(1);
                let q = world.quality[s][g];
                if it.item_type == ItemType::BadRef { (q - config.bad_ref_drop * (0.6 + 0.8 * world.rng.random::<f64>())).max(0.0) } else { q }
            })
            .collect();
        let (chosen, _) = pool.partial_shuffle(&mut world.rng, config.assignments_per_hit);
        for w in chosen.to_vec() {
            let worker = &world.workers[w];
            let mut buf: Vec<SimJudgment> = Vec::with_capacity(hit.items.len());
            for (it, &q) in hit.items.iter().zip(&qualities) {
                let perceived = worker.score(q, &mut world.rng);
                let score = match scheme {
                    Some(Scheme::Mqm) => mqm_score(&simulated_error_spans(&offsets, perceived, Scheme::Mqm), &weights),
                    Some(Scheme::Esa) | None => perceived,
                };
                let seconds = worker.seconds(item_seconds, &mut world.rng);
                let system = it.system.clone().unwrap_or_default();
                buf.push(SimJudgment::of(&hit_id, &worker.id, hit, it, &system, hit.items.len(), score, seconds));
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

/// One run of a pairwise design: its HITs ([`build_pair_hits`]: real pairs, an output against
/// a degraded copy of it, repeats with the sides swapped) answered by the simulated crowd (each
/// worker ranks the two outputs as a block of two: careful workers by quality, random clickers
/// at random, constant ones "about the same" everywhere), then the campaign's own analysis
/// ([`pairwise::campaign::analyse`]: each worker's paired test on the degraded copies, then
/// Bradley–Terry on the kept workers' real pairs). Two systems are told apart when their
/// ratings' 95% bootstrap intervals do not overlap; widths are in rating (Elo) points.
fn pairwise_run(config: &CrowdConfig, design: &PairDesign, seed: u64) -> Result<RunFigures, SimError> {
    let mut world = World::of(config)?;
    let k = world.system_ids.len();
    let hits = build_pair_hits(&world.candidates, design, config.wanted, config.seed ^ 0x5041_4952)?;
    let quality_of = |world: &World, system: &str, segment: &str| {
        let s = world.system_ids.iter().position(|x| x == system).unwrap_or(0);
        world.quality[s][segment.parse::<usize>().unwrap_or(1).saturating_sub(1)]
    };
    let mut answers: Vec<StoredPreference> = Vec::new();
    let mut pool: Vec<usize> = (0..world.workers.len()).collect();
    let mut assignment = 0;
    let mut judgments = 0;
    for hit in &hits {
        // The true qualities of each item's outputs a and b (the degraded side less the damage).
        let qualities: Vec<(f64, f64)> = hit
            .items
            .iter()
            .map(|it| {
                let a = it.system.clone().unwrap_or_default();
                let b = it.pair.as_ref().map_or_else(|| a.clone(), |p| p.b.clone());
                let (mut qa, mut qb) = (quality_of(&world, &a, &it.segment), quality_of(&world, &b, &it.segment));
                let drop = config.bad_ref_drop * (0.6 + 0.8 * world.rng.random::<f64>());
                match it.pair.as_ref().and_then(|p| p.degraded) {
                    Some(Side::A) => qa = (qa - drop).max(0.0),
                    Some(Side::B) => qb = (qb - drop).max(0.0),
                    None => {}
                }
                (qa, qb)
            })
            .collect();
        let (chosen, _) = pool.partial_shuffle(&mut world.rng, config.assignments_per_hit);
        for w in chosen.to_vec() {
            assignment += 1;
            let worker = &world.workers[w];
            for (it, &(qa, qb)) in hit.items.iter().zip(&qualities) {
                let Some(shown) = &it.pair else { continue };
                let (left, right) = if shown.left == Side::A { (qa, qb) } else { (qb, qa) };
                let pick = match worker.rank(&[left, right], &mut world.rng).as_slice() {
                    [l, r] if l < r => ScreenPick::Left,
                    [l, r] if l > r => ScreenPick::Right,
                    _ => ScreenPick::Same,
                };
                answers.push(StoredPreference {
                    worker: worker.id.clone(),
                    assignment,
                    item_type: it.item_type,
                    segment: it.segment.clone(),
                    a: it.system.clone().unwrap_or_default(),
                    b: shown.b.clone(),
                    preference: Preference::from_screen(shown.left, pick),
                    degraded: shown.degraded,
                    position: it.position as i64,
                    paired_position: it.paired_with.map(|p| p as i64),
                });
                judgments += 1;
            }
        }
    }
    let truth = world.truth(config, hits.len(), judgments);
    let checked = pairwise::campaign::analyse(
        &format!("{}-{}", config.src, config.trg),
        &answers,
        &ReliabilitySettings::default(),
        &BtSettings { samples: SAMPLES, seed },
    );
    // Systems by true rank: `sys01` is the best (quality is listed best first).
    let rank: HashMap<&str, usize> = truth.systems.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
    let mut verdicts = Verdicts::default();
    if let Ok(ratings) = &checked.ratings {
        let rated: Vec<(usize, f64, f64, f64)> = ratings
            .systems
            .iter()
            .filter_map(|r| Some((*rank.get(r.system.as_str())?, r.rating?, r.ci_low?, r.ci_high?)))
            .collect();
        verdicts.widths = rated.iter().map(|&(r, _, low, high)| (r, high - low)).collect();
        for (i, &(ra, a, a_low, a_high)) in rated.iter().enumerate() {
            for &(rb, b, b_low, b_high) in &rated[i + 1..] {
                // Told apart when the intervals do not overlap, the higher rating found the better.
                verdicts.pairs.push((ra, rb, (a_low > b_high || b_low > a_high).then_some(a > b)));
            }
        }
    }
    verdicts.workers = checked.workers.iter().map(|w| (w.worker.clone(), !w.kept)).collect();
    let figures = figures_of(&truth, k, verdicts);
    Ok(figures)
}

/// What one run's analysis decided, whatever the protocol's analysis (the pipeline's z and
/// paired tests, pairwise preference's Bradley–Terry ratings): the figures of the run are
/// counted from it by [`figures_of`] alone.
#[derive(Default)]
struct Verdicts {
    /// (true rank, width of its interval) of each system rated.
    widths: Vec<(usize, f64)>,
    /// Each pair of systems compared (true ranks `a`, `b`): `None` not told apart; `Some(true)`
    /// told apart with `a` found the better, `Some(false)` with `b`.
    pairs: Vec<(usize, usize, Option<bool>)>,
    /// Each worker analysed: its id and whether quality control removed it.
    workers: Vec<(String, bool)>,
}

/// A run's figures from its truth and its analysis's verdicts: the intervals' widths by true
/// rank, the pairs told apart and those in the true order, and each worker's kind (careless or
/// not) beside whether it was removed.
fn figures_of(truth: &SimTruth, systems: usize, verdicts: Verdicts) -> RunFigures {
    let mut figures = RunFigures { hits: truth.hits, judgments: truth.judgments, widths: vec![0.0; systems], ..RunFigures::default() };
    for (r, width) in verdicts.widths {
        if let Some(w) = figures.widths.get_mut(r) {
            *w = width;
        }
    }
    for (ra, rb, verdict) in verdicts.pairs {
        figures.pairs += 1.0;
        if let Some(a_better) = verdict {
            figures.separated += 1.0;
            // The one found better is the truly better one (lower rank).
            if a_better == (ra < rb) {
                figures.in_order += 1.0;
            }
        }
    }
    let kinds: HashMap<&str, WorkerKind> = truth.workers.iter().map(|(id, kind)| (id.as_str(), *kind)).collect();
    figures.workers = verdicts.workers.iter().map(|(id, removed)| (kinds.get(id.as_str()).is_some_and(|k| !k.attentive()), *removed)).collect();
    figures
}

/// HITs the design builds, estimated from its numbers (the simulator builds the real ones).
fn design_hits(d: &DryRunDesign) -> usize {
    if let Some(shape) = &d.documents {
        // Whole documents fill a HIT up to its time; the copies count too.
        let per_document = shape.segments_per_document.max(1);
        let document_seconds = (per_document * shape.source_words.max(1)) as f64 * shape.design.seconds_per_source_word;
        let units = d.systems * d.segments.div_ceil(per_document) * shape.design.copies;
        let per_hit = (shape.design.seconds_per_hit / document_seconds.max(f64::MIN_POSITIVE)).floor() as usize;
        let copies = shape.design.bad_ref_documents + shape.design.repeat_documents;
        return units.div_ceil(per_hit.saturating_sub(copies).max(1));
    }
    let per_hit = match (&d.ranking, &d.pairs, &d.word_order) {
        (Some(ranking), _, _) => ranking.system_items(),
        (None, Some(pairs), _) => pairs.system_items(),
        (None, None, Some(word_order)) => word_order.system_items(),
        (None, None, None) => d.design.system_items(),
    }
    .max(1);
    let wanted = match d.wanted {
        JudgmentsWanted::PerSystem(n) => n * d.systems,
        JudgmentsWanted::PerSegment(n) => n * d.systems * d.segments,
    };
    wanted.div_ceil(per_hit)
}

#[cfg(test)]
#[path = "dry_run_tests.rs"]
mod tests;

