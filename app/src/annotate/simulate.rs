//! A simulated crowd answers a launched campaign through the real storage path (issue 16 item
//! 4): `assay simulate --campaign ID`, for demos, tests and benchmarks.
//!
//! Each simulated worker arrives as a crowd worker by plain link (`sim-SEED-N`), asks for work
//! as the crowd link does ([`next_assignment`]), starts its HIT and answers every item with
//! [`super::server::submit`], the function behind the annotator's page: answers are validated,
//! stored once, and the quality gate runs at the last item. What a worker answers comes from
//! the simulator of `assay_core::simulate` (the same workers as `assay simulate --out`):
//! an item's true quality is its system's (spread evenly over `spread` points around 60, in
//! the order of the systems' names) plus a segment's difficulty (from its position in the
//! test set); a bad reference loses 30 points, a reference scores 88; repeats are the same
//! output again. Word-order answers are the nearest of the five boxes, for both questions.
//! Relative ranking is answered a screen at a time with [`super::server::submit_screen`] (the
//! function behind the ranking page's `submit_screen`): each block of the screen (its outputs of
//! one segment) is ranked by [`SimulatedWorker::rank_block`] from the outputs' true qualities
//! (a degraded copy's is its original's less 30 points), so careful workers rank copies below
//! their originals and random clickers do not.
//!
//! A campaign with practice items (issue 38 item 9) is practised first, through
//! [`super::server::practice_answer_in`] as the practice screen sends answers: a practice item's
//! true quality is what it is built to be (a human translation: [`PRACTICE_HIGH`]; a strongly
//! degraded copy: [`PRACTICE_LOW`]), answered as the worker answers any item, so careful workers
//! pass and careless ones mostly fail. A failed round starts over, as on the screen; a worker
//! who has failed [`PRACTICE_ROUNDS`] rounds gives the HIT back (its slot free for the next
//! worker) and leaves, counted in [`SimulationReport::failed_practice`].

use std::collections::HashMap;

use super::server::{Answer, PracticeGiven, ScreenAnswer, Work, WorkError, practice_answer_in, start, submit, submit_screen, work_state};
use crate::campaign::assign::{Platform, crowd_worker, next_assignment};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{AssignmentStatus, CampaignStatus, ItemType, TaskKind};
use assay_core::protocol::Scheme;
use assay_core::simulate::{SimulatedWorker, WorkerKind, simulated_error_spans};

/// Who the simulated crowd is.
#[derive(Clone, Debug, PartialEq)]
pub struct CrowdMix {
    /// Shares of each kind of worker (they need not sum to 1).
    pub shares: Vec<(WorkerKind, f64)>,
    /// Workers to send; each does up to `hits_per_worker` HITs.
    pub workers: usize,
    pub hits_per_worker: usize,
    /// Points between the worst and the best system's true quality.
    pub spread: f64,
    pub seed: u64,
}

/// What is wrong with a crowd mix (`--mix`): the part, and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MixError {
    #[error("{0:?}: write kind=share, e.g. careful=70")]
    NotKindShare(String),
    #[error("{0:?} is not a kind of worker (careful, noisy, lazy, random, harsh, lenient)")]
    UnknownKind(String),
    #[error("{0:?}: the share is not a number")]
    NotANumber(String),
    #[error("{0:?}: a share is a number of 0 or more")]
    Negative(String),
    #[error("the crowd mix has no workers (every share is 0)")]
    NoWorkers,
}

impl CrowdMix {
    /// Parses `careful=70,noisy=10,random=20` (kinds: careful, noisy, lazy, random, harsh,
    /// lenient).
    pub fn parse_shares(text: &str) -> Result<Vec<(WorkerKind, f64)>, MixError> {
        let mut out = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, share) = part.split_once('=').ok_or_else(|| MixError::NotKindShare(part.to_string()))?;
            let kind = match name.trim() {
                "careful" => WorkerKind::Careful,
                "noisy" => WorkerKind::Noisy,
                "lazy" => WorkerKind::LazyConstant,
                "random" => WorkerKind::RandomClicker,
                "harsh" => WorkerKind::Harsh,
                "lenient" => WorkerKind::Lenient,
                other => return Err(MixError::UnknownKind(other.to_string())),
            };
            let share: f64 = share.trim().parse().map_err(|_| MixError::NotANumber(part.to_string()))?;
            if !(share.is_finite() && share >= 0.0) {
                return Err(MixError::Negative(part.to_string()));
            }
            out.push((kind, share));
        }
        if out.iter().map(|s| s.1).sum::<f64>() <= 0.0 {
            return Err(MixError::NoWorkers);
        }
        Ok(out)
    }

    /// The kind of worker `i` of `n`: the shares laid out in order, so that any prefix of the
    /// workers has about the mix's proportions.
    fn kind(&self, i: usize) -> WorkerKind {
        let total: f64 = self.shares.iter().map(|s| s.1).sum();
        // A low-discrepancy position in [0, 1): the golden-ratio sequence.
        let x = ((i as f64 + 0.5) * 0.618_033_988_749_895 + self.seed as f64 * 0.1).fract();
        let mut acc = 0.0;
        for &(kind, share) in &self.shares {
            acc += share / total;
            if x < acc {
                return kind;
            }
        }
        self.shares.last().map_or(WorkerKind::Careful, |s| s.0)
    }
}

/// What a simulation did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SimulationReport {
    pub workers: usize,
    pub hits: usize,
    pub judgments: usize,
    /// Workers who found no work left.
    pub idle_workers: usize,
    /// Workers who failed the campaign's practice [`PRACTICE_ROUNDS`] times and left.
    pub failed_practice: usize,
    pub by_kind: Vec<(String, usize)>,
}

/// The facts the simulated worker needs about an item: type, system, segment position.
struct ItemFacts {
    item_type: ItemType,
    system: Option<i64>,
    segment_position: i64,
    /// Pairwise preference: output b's system, the side shown on the left (`a`/`b`), and the
    /// side that is a degraded copy (a copy against its original).
    pair: Option<(i64, String, Option<String>)>,
}

/// Answers campaign `campaign_id` with the crowd `mix`; `progress` is told (HITs done, workers
/// done) after each worker.
pub async fn simulate_campaign(
    db: &Db,
    secret: &[u8],
    campaign_id: i64,
    mix: &CrowdMix,
    mut progress: impl FnMut(&SimulationReport),
) -> AppResult<SimulationReport> {
    let context = || format!("simulating a crowd on campaign {campaign_id}");
    let task: String = sqlx::query_scalar("SELECT task FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(context)?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    // The simulated worker answers as the campaign's protocol asks.
    let protocol = assay_core::protocol::for_task(TaskKind::of_campaign(campaign_id, &task)?);
    let word_order = protocol.hit_plan() == assay_core::protocol::HitPlan::WordOrderPairs;
    let ranking = assay_core::protocol::ranks_blocks(TaskKind::of_campaign(campaign_id, &task)?);
    let esa = protocol.span_scheme() == Some(assay_core::protocol::Scheme::Esa);
    let mqm = protocol.span_scheme() == Some(assay_core::protocol::Scheme::Mqm);
    // System qualities: spread evenly, in the order of the systems' names.
    let systems: Vec<(i64, String)> = sqlx::query_as(
        "SELECT DISTINCT s.id, s.name FROM hits h JOIN hit_items hi ON hi.hit_id = h.id JOIN systems s ON s.id = hi.system_id \
         WHERE h.campaign_id = $1 ORDER BY s.name",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(context)?;
    let k = systems.len().max(2) as f64 - 1.0;
    let mut quality: HashMap<i64, f64> = HashMap::new();
    for (i, (id, _)) in systems.iter().enumerate() {
        quality.insert(*id, 60.0 - mix.spread / 2.0 + mix.spread * i as f64 / k);
    }
    let work = Work::default();
    let mut report = SimulationReport::default();
    let mut kinds: HashMap<WorkerKind, usize> = HashMap::new();
    for i in 0..mix.workers {
        let kind = mix.kind(i);
        let worker_id = crowd_worker(db, Platform::Link, &format!("sim-{}-{i}", mix.seed)).await?;
        let mut simulated = SimulatedWorker::new(kind, mix.seed.wrapping_mul(1_000_003).wrapping_add(i as u64));
        let mut did = 0;
        let mut gave_up = false;
        for _ in 0..mix.hits_per_worker {
            let Some(a) = next_assignment(db, campaign_id, worker_id, None).await? else { break };
            let task = Answering { word_order, esa, mqm };
            if !practise(db, &work, secret, campaign_id, &a.public_id, &mut simulated, task).await? {
                give_back(db, a.id).await?;
                gave_up = true;
                break;
            }
            let items = item_facts(db, a.hit_id).await?;
            let mut step = start(db, &work, secret, None, &a.public_id).await.map_err(work_error)?;
            if ranking {
                // A screen at a time: the current item and the rest of its screen.
                while let Some(item) = step.item.take() {
                    let positions: Vec<i64> = std::iter::once(item.position).chain(step.together.iter().map(|i| i.position)).collect();
                    let mut ranks: Vec<(i64, u32)> = Vec::with_capacity(positions.len());
                    // Blocks: consecutive items of one segment.
                    let mut at = 0;
                    while at < positions.len() {
                        let facts_of = |p: i64| items.get(&p).ok_or_else(|| AppError::internal(format!("the HIT has no item at position {p}")));
                        let segment = facts_of(positions[at])?.segment_position;
                        let mut end = at;
                        while end < positions.len() && facts_of(positions[end])?.segment_position == segment {
                            end += 1;
                        }
                        let qualities = positions[at..end].iter().map(|&p| facts_of(p).map(|f| true_quality(f, &quality))).collect::<AppResult<Vec<f64>>>()?;
                        let block = simulated.rank_block(&qualities);
                        ranks.extend(positions[at..end].iter().copied().zip(block));
                        at = end;
                    }
                    let seconds: f64 = positions.iter().map(|_| simulated.seconds(8.0)).sum();
                    let screen = ScreenAnswer {
                        ranks,
                        answers: Vec::new(),
                        time_on_screen_ms: (seconds * 1000.0).round() as i64,
                        active_ms: Some((seconds * 1000.0).round() as i64),
                        idempotency_key: format!("sim-screen-{}", positions[0]),
                    };
                    step = submit_screen(db, &work, secret, None, &a.public_id, &screen).await.map_err(work_error)?;
                    report.judgments += positions.len();
                }
                did += 1;
                report.hits += 1;
                continue;
            }
            let mut current = step.item;
            while let Some(p) = current.as_ref().map(|i| i.position) {
                // A document's last segment may ask for the document's score: the simulated
                // annotator gives it the mean of the scores it gave the document's segments.
                let wants_document_score = current.as_ref().and_then(|i| i.document.as_ref()).is_some_and(|d| d.document_score);
                let facts = items.get(&p).ok_or_else(|| AppError::internal(format!("the HIT has no item at position {p}")))?;
                let truth = true_quality(facts, &quality);
                let score = simulated.score(truth);
                let seconds = simulated.seconds(8.0);
                // A pair: the two outputs' true qualities (a degraded copy's is its original's
                // less 30 points), ranked as a block of two, sent as the side clicked (1 left, ½
                // about the same, 0 right), as the pairwise screen sends it.
                let pair_pick = facts.pair.as_ref().map(|(b, left, degraded)| {
                    let base = |system: Option<i64>| {
                        true_quality(&ItemFacts { item_type: ItemType::System, system, segment_position: facts.segment_position, pair: None }, &quality)
                    };
                    let copy = |side: &str| if degraded.as_deref() == Some(side) { 30.0 } else { 0.0 };
                    let (qa, qb) = (base(facts.system) - copy("a"), base(Some(*b)) - copy("b"));
                    let (ql, qr) = if left == "a" { (qa, qb) } else { (qb, qa) };
                    match simulated.rank_block(&[ql, qr]).as_slice() {
                        [l, r] if l < r => 1.0,
                        [l, r] if l > r => 0.0,
                        _ => 0.5,
                    }
                });
                let (score, score2) = if let Some(pick) = pair_pick {
                    (pick, None)
                } else if word_order {
                    let second = simulated.score(truth);
                    (nearest_box(score), Some(nearest_box(second)))
                } else {
                    (score, None)
                };
                let text = current.as_ref().map_or("", |i| i.candidate.as_str());
                let spans = if esa {
                    simulated_spans(text, score, Scheme::Esa)
                } else if mqm {
                    simulated_spans(text, score, Scheme::Mqm)
                } else {
                    Vec::new()
                };
                let answer = Answer {
                    position: p,
                    // MQM: the server scores the errors.
                    score: (!mqm).then_some(score),
                    score2,
                    skipped: false,
                    time_on_screen_ms: (seconds * 1000.0).round() as i64,
                    active_ms: Some((seconds * 1000.0).round() as i64),
                    idempotency_key: format!("sim-{p}"),
                    detail: assay_core::protocol::Detail {
                        document_score: wants_document_score.then_some(score),
                        spans,
                        ..Default::default()
                    },
                };
                let step = submit(db, &work, secret, None, &a.public_id, &answer).await.map_err(work_error)?;
                report.judgments += 1;
                current = step.item;
            }
            did += 1;
            report.hits += 1;
        }
        if gave_up {
            report.failed_practice += 1;
            *kinds.entry(kind).or_default() += 1;
        } else if did == 0 {
            report.idle_workers += 1;
        } else {
            *kinds.entry(kind).or_default() += 1;
        }
        report.workers += 1;
        progress(&report);
        if did == 0 && report.idle_workers >= 3 {
            // No work left for anyone: stop asking.
            break;
        }
    }
    let mut by_kind: Vec<(String, usize)> = kinds.into_iter().map(|(k, n)| (format!("{k:?}"), n)).collect();
    by_kind.sort();
    report.by_kind = by_kind;
    Ok(report)
}

crate::rows::row! {
    /// What [`free_slots`] reads of a campaign.
    struct CampaignRow {
        status: CampaignStatus as String,
        settings: String,
        task: String,
    }
}

/// The free slots of a launched campaign: every HIT's redundancy less its live assignments.
/// A campaign that is not launched is [`AppError::Conflict`].
pub async fn free_slots(db: &Db, campaign_id: i64) -> AppResult<usize> {
    let context = || format!("counting the free slots of campaign {campaign_id}");
    let row: CampaignRow = sqlx::query_as("SELECT status, settings, task FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(context)?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    if row.status != CampaignStatus::Launched {
        return Err(AppError::Conflict(format!("campaign {campaign_id} is {}: only a launched campaign can be answered", row.status)));
    }
    let task = TaskKind::of_campaign(campaign_id, &row.task)?;
    let k = crate::campaign::CampaignSettings::read(&row.settings, task, "", "").redundancy.max(1);
    let (hits, live): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM hits WHERE campaign_id = $1) AS hits, \
         (SELECT COUNT(*) FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.status IN ($2, $3)) AS live",
    )
    .bind(campaign_id)
    .bind(AssignmentStatus::Active.as_str())
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_one(&db.pool)
    .await
    .with_context(context)?;
    Ok((hits as usize * k).saturating_sub(live as usize))
}

fn work_error(e: WorkError) -> AppError {
    e.into()
}

/// The true quality of a practice item a careful reader scores high (a human translation, as a
/// reference's true quality is).
pub const PRACTICE_HIGH: f64 = 88.0;
/// The true quality of a practice item a careful reader scores low (a strongly degraded copy).
pub const PRACTICE_LOW: f64 = 20.0;
/// Failed practice rounds after which a simulated worker leaves.
pub const PRACTICE_ROUNDS: i64 = 3;

/// How the campaign's answers are made (the protocols answered item by item).
#[derive(Clone, Copy)]
struct Answering {
    word_order: bool,
    esa: bool,
    mqm: bool,
}

/// Works through the campaign's practice before the HIT of assignment `public_id`, if there is
/// one left to do: each practice item answered as `worker` answers an item of its true quality,
/// a failed round started over. True when the HIT may start (no practice, or passed); false
/// when the worker failed [`PRACTICE_ROUNDS`] rounds.
async fn practise(db: &Db, work: &Work, secret: &[u8], campaign_id: i64, public_id: &str, worker: &mut SimulatedWorker, task: Answering) -> AppResult<bool> {
    let context = || format!("reading the practice items of campaign {campaign_id}");
    // What each practice item is (the simulator knows what the screen hides).
    // A screen of several outputs: which output shown is the original (the rest are its copies).
    let rows: Vec<(i64, i64, Option<i64>)> = sqlx::query_as("SELECT position, expect_high, original_at FROM practice_items WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_all(&db.pool)
        .await
        .with_context(context)?;
    let high: HashMap<i64, bool> = rows.iter().map(|&(p, h, _)| (p, h != 0)).collect();
    let original_at: HashMap<i64, i64> = rows.iter().filter_map(|&(p, _, o)| Some((p, o?))).collect();
    if high.is_empty() {
        return Ok(true);
    }
    loop {
        let state = work_state(db, work, secret, None, public_id).await.map_err(work_error)?;
        let Some(practice) = state.practice.filter(|p| !p.passed) else { return Ok(true) };
        if practice.round > PRACTICE_ROUNDS {
            return Ok(false);
        }
        let item = practice.item.ok_or_else(|| AppError::internal(format!("practice item {} of campaign {campaign_id} is not shown", practice.position)))?;
        let expect_high =
            *high.get(&practice.position).ok_or_else(|| AppError::internal(format!("campaign {campaign_id} has no practice item {}", practice.position)))?;
        let truth = if expect_high { PRACTICE_HIGH } else { PRACTICE_LOW };
        let score = worker.score(truth);
        let given = if let Some(&original) = original_at.get(&practice.position) {
            // Each output shown judged by its true quality, then ranked (a pair: as ranks of
            // its two sides; the server reads them as the side clicked would be).
            let outputs = 1 + practice.together.len().max(usize::from(item.right.is_some()));
            let scores: Vec<f64> = (0..outputs).map(|k| worker.score(if k as i64 == original { PRACTICE_HIGH } else { PRACTICE_LOW })).collect();
            let ranks = scores.iter().map(|s| 1 + scores.iter().filter(|&&o| o > *s).count() as u32).collect();
            PracticeGiven { ranks, ..Default::default() }
        } else if task.word_order {
            let second = worker.score(truth);
            PracticeGiven { score: Some(nearest_box(score)), score2: Some(nearest_box(second)), ..Default::default() }
        } else if task.esa {
            PracticeGiven { score: Some(score), spans: simulated_spans(&item.candidate, score, Scheme::Esa), ..Default::default() }
        } else if task.mqm {
            // MQM: the server scores the errors.
            PracticeGiven { spans: simulated_spans(&item.candidate, score, Scheme::Mqm), ..Default::default() }
        } else {
            PracticeGiven { score: Some(score), ..Default::default() }
        };
        practice_answer_in(db, None, public_id, practice.position, given, None).await.map_err(work_error)?;
    }
}

/// A worker who leaves before starting gives assignment `id` back: its slot is free for the
/// next worker, as a returned HIT's is.
async fn give_back(db: &Db, id: i64) -> AppResult<()> {
    sqlx::query("UPDATE assignments SET status = $1 WHERE id = $2 AND status = $3 AND item_shown_at IS NULL")
        .bind(AssignmentStatus::Returned.as_str())
        .bind(id)
        .bind(AssignmentStatus::Active.as_str())
        .execute(&db.writer)
        .await
        .with_context(|| format!("giving back assignment {id}"))?;
    Ok(())
}

/// A 0–100 score as the nearest of word order's five boxes (0, .25, …, 1).
fn nearest_box(score: f64) -> f64 {
    (score.clamp(0.0, 100.0) / 25.0).round() / 4.0
}

/// An item's true quality (0–100).
fn true_quality(item: &ItemFacts, quality: &HashMap<i64, f64>) -> f64 {
    // Segment difficulty: a fixed pattern over the test set, ±10 points.
    let difficulty = ((item.segment_position * 7919) % 21) as f64 - 10.0;
    let output = item.system.and_then(|s| quality.get(&s)).copied().unwrap_or(60.0) + difficulty;
    match item.item_type {
        ItemType::System | ItemType::Repeat => output,
        ItemType::BadRef => output - 30.0,
        ItemType::Ref => 88.0,
    }
    .clamp(0.0, 100.0)
}

/// The error spans a simulated annotator marks on `text`, a translation it scores `score`
/// (0–100): the core's ([`assay_core::simulate::simulated_error_spans`], which the dry run
/// uses too) on the text's words as the span screens offer them.
fn simulated_spans(text: &str, score: f64, scheme: Scheme) -> Vec<assay_core::protocol::Span> {
    let words: Vec<(usize, usize)> = assay_core::protocol::esa::tokens(text).into_iter().filter(|t| !t.space).map(|t| (t.start, t.end)).collect();
    simulated_error_spans(&words, score, scheme)
}

crate::rows::row! {
    /// A row of [`item_facts`]' query.
    struct ItemRow {
        position: i64,
        item_type: ItemType as String,
        system_id: Option<i64>,
        segment_position: i64,
        pair_system_id: Option<i64>,
        pair_left: Option<String>,
        pair_degraded: Option<String>,
    }
}

async fn item_facts(db: &Db, hit_id: i64) -> AppResult<HashMap<i64, ItemFacts>> {
    let context = || format!("reading the items of HIT {hit_id}");
    let rows: Vec<ItemRow> = sqlx::query_as(
        "SELECT hi.position, hi.item_type, hi.system_id, s.position AS segment_position, hi.pair_system_id, hi.pair_left, hi.pair_degraded FROM hit_items hi \
         JOIN segments s ON s.id = hi.segment_id WHERE hi.hit_id = $1",
    )
    .bind(hit_id)
    .fetch_all(&db.pool)
    .await
    .with_context(context)?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let pair = r.pair_system_id.map(|b| (b, r.pair_left.unwrap_or_default(), r.pair_degraded));
            (r.position, ItemFacts { item_type: r.item_type, system: r.system_id, segment_position: r.segment_position, pair })
        })
        .collect())
}

#[cfg(test)]
#[path = "simulate_tests.rs"]
mod tests;
