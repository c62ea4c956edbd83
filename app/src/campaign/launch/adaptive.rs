//! Adaptive campaigns in the product (issue 39): the warm-up at launch, HITs built when work is
//! handed out, the stopping rule, and the state the live page shows.
//!
//! - **Launch** ([`at_launch`]): the usual HITs are built, and the first
//!   [`AdaptiveDesign::warm_up_hits`] of them are kept (the warm-up); the budget, when left at 0,
//!   becomes what the uniform design would have collected (its HITs × items × redundancy) and is
//!   stored in the campaign's settings.
//! - **State** ([`state`]): the anytime-valid decisions ([`Decisions`]) from the judgments stored
//!   so far: each *completed* assignment's SYSTEM items (quality-control items never count), one
//!   observation per pair of systems and segment, in the order the assignments were completed.
//!   The workers the results leave out are left out here too ([`left_out`]: the campaign's
//!   analysis, its reliability verdicts and the organizer's choice for workers with "not enough
//!   evidence"), so that a careless worker steers neither the allocation nor the stopping rule.
//!   A worker's verdict can change as his HITs come in; the decisions are then read again without
//!   him (the sequences are valid at every look over the kept workers' observations in order).
//! - **Hand-out** ([`build_next_hit`], called by `campaign::assign` when no HIT has a free slot
//!   for the worker): stops when every pair is decided or too close, or when one more HIT would
//!   pass the budget (HITs × items × redundancy); else the next HIT's system slots go to the open
//!   pairs ([`Allocation::adaptive_by`]), each chunk on the segment where its open pair's outputs
//!   differ most, discounted by use ([`SegmentPicker`]; those the asking worker has not seen
//!   first), and the usual builder adds the bad references, repeats and references
//!   ([`crate::hit::build_hit_from`]). The HIT takes the next index: two app servers building at
//!   once race on `hits (campaign_id, hit_index)`, one insert wins, the other reports the HIT as
//!   built and its caller takes a slot of it (or asks again).

use super::*;
use crate::campaign::adaptive::{AdaptiveView, PairView};
use crate::model::AssignmentStatus;
use assay_core::adaptive::segments::{self, SegmentPicker};
use assay_core::adaptive::{AdaptiveDesign, AdaptiveSettings, Allocation, Decisions, Verdict};

/// Why an adaptive campaign builds no more HITs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum StopReason {
    /// Every pair of systems is decided or too close to matter.
    Settled,
    /// One more HIT would pass the budget.
    Budget,
}

/// What [`build_next_hit`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extension {
    /// The campaign is not adaptive (or not launched, or the worker is blocked): nothing built.
    NotAdaptive,
    /// A HIT was built (by this call or, at the same moment, by another server).
    Built,
    /// The stopping rule holds: no more HITs.
    Stopped(StopReason),
}

/// An adaptive campaign's state: its decisions and what it has spent.
#[derive(Clone, Debug)]
pub struct AdaptiveState {
    pub design: AdaptiveDesign,
    /// The campaign's systems (ids, ascending: the decisions' indices).
    pub systems: Vec<i64>,
    pub decisions: Decisions,
    /// HITs built so far (warm-up and on demand).
    pub hits: usize,
    /// Judgments one HIT is worth (items × redundancy).
    pub per_hit: usize,
    /// The budget in judgments.
    pub budget: usize,
    /// Judgments stored so far (every item type).
    pub judgments: usize,
    /// Observations (pairs × segments) the decisions read.
    pub observations: usize,
    /// SYSTEM-item scores the decisions read (those of the workers kept).
    pub scores_read: usize,
    /// The workers left out of the decisions (as the results name them), as quality control
    /// leaves them out of the results.
    pub left_out: Vec<String>,
    pub stop: Option<StopReason>,
}

impl AdaptiveState {
    /// Judgments the HITs built so far hold (what the campaign has committed to).
    pub fn committed(&self) -> usize {
        self.hits * self.per_hit
    }

    /// The expected remaining cost in judgments, from the open pairs: each needs about as many
    /// more observations as it has had, scaled by how far its interval is from deciding (its
    /// width over the width at which it would be decided, squared, as widths shrink with √n);
    /// an observation costs `per_hit / slots-per-pair` judgments. Capped by the budget left.
    /// A rough guide for the live page, not a promise.
    pub fn expected_remaining(&self, system_slots: usize) -> usize {
        if self.stop.is_some() {
            return 0;
        }
        let mut needed = 0.0f64;
        for p in self.decisions.pairs.iter().filter(|p| p.verdict == Verdict::Open) {
            let (lo, hi) = p.difference();
            let width = (hi - lo).max(1e-9);
            let centre = (lo + hi) / 2.0;
            // Decided when the interval excludes 0 (width below 2|centre|) or fits in ±δ.
            let target = (2.0 * centre.abs()).max(2.0 * self.decisions.delta).max(0.5);
            let n = p.cs.n().max(1) as f64;
            needed += n * ((width / target).powi(2) - 1.0).max(0.0);
        }
        // A HIT's system slots give one observation per pair per segment of a chunk (two
        // systems at least): about slots/2 observations per HIT.
        let per_hit_observations = (system_slots as f64 / 2.0).max(1.0);
        let judgments = needed / per_hit_observations * self.per_hit as f64;
        let left = self.budget.saturating_sub(self.committed()) as f64;
        judgments.min(left).round() as usize
    }
}

fn refuse(problem: assay_core::adaptive_design::DesignError) -> AppError {
    AppError::invalid("adaptive", problem.to_string())
}

/// Checks an adaptive design against its campaign: the organizer's numbers, a protocol of
/// single scored items, one test set (not a study arm).
pub(super) fn check(spec: &Spec<'_>) -> AppResult<()> {
    let design = &spec.settings.adaptive;
    if !design.enabled {
        return Ok(());
    }
    design.check(spec.systems.len()).map_err(refuse)?;
    if protocol::for_task(spec.task).hit_plan() != HitPlan::Items || spec.groups.len() != 1 {
        return Err(refuse(assay_core::adaptive_design::DesignError::Protocol));
    }
    Ok(())
}

/// At launch: an adaptive design keeps its warm-up HITs and stores its budget resolved. Other
/// designs keep every HIT.
pub(super) fn at_launch(spec: &Spec<'_>, hits: Vec<PlannedHit>) -> AppResult<(Vec<PlannedHit>, Option<String>)> {
    check(spec)?;
    let design = spec.settings.adaptive;
    if !design.enabled {
        return Ok((hits, None));
    }
    let per_hit = spec.settings.hit_length * spec.settings.redundancy.max(1);
    let mut settings = spec.settings.clone();
    settings.adaptive.budget = design.budget_or(hits.len() * per_hit);
    let keep = design.warm_up_hits(hits.len(), per_hit);
    let json = serde_json::to_string(&settings).map_err(|e| AppError::internal(format!("the settings do not serialise: {e}")))?;
    Ok((hits.into_iter().take(keep).collect(), Some(json)))
}

/// The decisions' settings of a design.
fn decision_settings(design: &AdaptiveDesign) -> AdaptiveSettings {
    AdaptiveSettings { alpha: design.alpha, delta: design.delta, warm_up: design.warm_up, budget: design.budget, ..Default::default() }
}

/// The workers the campaign's results leave out: its analysis (the usual pipeline, without the
/// bootstrap, which decides nobody's fate), its reliability verdicts and the organizer's choice
/// for workers with too few checks (`thin_evidence`, as the quality gate makes it), as the
/// results page reads them. Their ids and names (as the results name them).
async fn left_out(db: &Db, c: &StoredCampaign) -> AppResult<(std::collections::HashSet<i64>, Vec<String>)> {
    let any: Option<i64> = sqlx::query_scalar("SELECT j.id FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 LIMIT 1")
        .bind(c.id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("looking for judgments of campaign {}", c.id))?;
    if any.is_none() {
        return Ok(Default::default());
    }
    let (mode, unsure): (String, String) = sqlx::query_as("SELECT gate, gate_unsure FROM campaigns WHERE id = $1")
        .bind(c.id)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the quality gate of campaign {}", c.id))?;
    let gate = crate::campaign::QualityGate::parse(&mode, &unsure).unwrap_or_default();
    let settings = crate::analysis::AnalysisSettings {
        exclusion: crate::analysis::ExclusionPolicy::from(c.settings.thin_evidence_with(gate)),
        bootstrap: None,
        ..Default::default()
    };
    let a = crate::analysis::campaign::analyse(db, c.id, &settings).await?;
    let mut ids = std::collections::HashSet::new();
    let mut names = std::collections::BTreeSet::new();
    for w in a.result.workers.iter().filter(|w| settings.exclusion.excludes(w)) {
        let name = a.set.workers.name(w.worker);
        if let Some(&id) = a.worker_ids.get(name) {
            ids.insert(id);
            names.insert(name.to_string());
        }
    }
    Ok((ids, names.into_iter().collect()))
}

/// An adaptive campaign's state (`None`: the campaign is not adaptive).
pub async fn state(db: &Db, campaign_id: i64) -> AppResult<Option<AdaptiveState>> {
    let c = load_campaign(db, campaign_id).await?;
    state_of(db, &c).await
}

async fn state_of(db: &Db, c: &StoredCampaign) -> AppResult<Option<AdaptiveState>> {
    let design = c.settings.adaptive;
    if !design.enabled {
        return Ok(None);
    }
    let what = || format!("reading the decisions of adaptive campaign {}", c.id);
    let systems = c.systems.clone();
    let mut decisions = Decisions::new(systems.len(), &decision_settings(&design)).map_err(|e| AppError::invalid("adaptive", e.to_string()))?;
    let (excluded, left_out) = left_out(db, c).await?;
    let rows: Vec<(i64, i64, i64, f64, i64)> = sqlx::query_as(
        "SELECT a.id, hi.segment_id, hi.system_id, j.score, a.worker_id FROM judgments j \
         JOIN assignments a ON a.id = j.assignment_id JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = a.hit_id \
         WHERE h.campaign_id = $1 AND a.status = $2 AND hi.item_type = $3 AND j.skipped = 0 AND j.score IS NOT NULL AND hi.system_id IS NOT NULL \
         ORDER BY a.completed_at, a.id, hi.segment_id, hi.system_id",
    )
    .bind(c.id)
    .bind(AssignmentStatus::Completed.as_str())
    .bind(ItemType::System.wmt_name())
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let rows: Vec<(i64, i64, i64, f64)> = rows.into_iter().filter(|r| !excluded.contains(&r.4)).map(|(a, g, s, x, _)| (a, g, s, x)).collect();
    let index: HashMap<i64, usize> = systems.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let scores_read = rows.iter().filter(|r| index.contains_key(&r.2)).count();
    let mut observations = 0;
    let mut at = 0;
    while at < rows.len() {
        let (assignment, segment) = (rows[at].0, rows[at].1);
        let mut end = at;
        let mut scores: Vec<(usize, f64)> = Vec::new();
        while end < rows.len() && rows[end].0 == assignment && rows[end].1 == segment {
            if let Some(&s) = index.get(&rows[end].2) {
                scores.push((s, rows[end].3.clamp(0.0, 100.0)));
            }
            end += 1;
        }
        observations += scores.len() * scores.len().saturating_sub(1) / 2;
        decisions.observe_segment(&scores);
        at = end;
    }
    let (hits, judgments): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT COUNT(*) FROM hits WHERE campaign_id = $1), \
         (SELECT COUNT(*) FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1)",
    )
    .bind(c.id)
    .fetch_one(&db.pool)
    .await
    .with_context(what)?;
    let per_hit = c.settings.hit_length * c.settings.redundancy.max(1);
    let budget = design.budget;
    let stop = if decisions.settled() {
        Some(StopReason::Settled)
    } else if (hits as usize + 1) * per_hit > budget {
        Some(StopReason::Budget)
    } else {
        None
    };
    Ok(Some(AdaptiveState { design, systems, decisions, hits: hits as usize, per_hit, budget, judgments: judgments as usize, observations, scores_read, left_out, stop }))
}

/// Worker slots an adaptive campaign may still build (HITs left in the budget × redundancy);
/// 0 for other campaigns. (`assay simulate --campaign` sends enough workers for them.)
pub async fn slots_to_come(db: &Db, campaign_id: i64) -> AppResult<usize> {
    let c = load_campaign(db, campaign_id).await?;
    if !c.settings.adaptive.enabled {
        return Ok(0);
    }
    let hits: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM hits WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("counting the HITs of campaign {campaign_id}"))?;
    let per_hit = (c.settings.hit_length * c.settings.redundancy.max(1)).max(1);
    Ok((c.settings.adaptive.budget / per_hit).saturating_sub(hits as usize) * c.settings.redundancy.max(1))
}

/// Builds an adaptive campaign's next HIT when the stopping rule allows it, for `worker` (its
/// segments seen are avoided where possible; `None`: a worker not yet known). Called when no
/// HIT has a free slot for the worker.
pub async fn build_next_hit(db: &Db, campaign_id: i64, worker: Option<i64>) -> AppResult<Extension> {
    let c = load_campaign(db, campaign_id).await?;
    if !c.settings.adaptive.enabled || c.status != CampaignStatus::Launched {
        return Ok(Extension::NotAdaptive);
    }
    let what = || format!("building the next HIT of adaptive campaign {campaign_id}");
    if let Some(w) = worker {
        let blocked: Option<i64> = sqlx::query_scalar("SELECT blocked FROM workers WHERE id = $1").bind(w).fetch_optional(&db.pool).await.with_context(what)?;
        if blocked != Some(0) {
            return Ok(Extension::NotAdaptive);
        }
    }
    let Some(state) = state_of(db, &c).await? else { return Ok(Extension::NotAdaptive) };
    if let Some(reason) = state.stop {
        return Ok(Extension::Stopped(reason));
    }
    let index: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(hit_index), -1) + 1 FROM hits WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(what)?;
    if (index as usize + 1) * state.per_hit > state.budget {
        return Ok(Extension::Stopped(StopReason::Budget));
    }
    let group = Group { test_set_id: c.test_set_id, systems: c.systems.clone(), reference: None };
    let spec = Spec::new(c.task, vec![group], c.reference_name.as_deref(), &c.settings, c.seed as u64);
    check(&spec)?;
    let (m, _) = load_material(db, &spec).await?;
    let practice: std::collections::HashSet<i64> = sqlx::query_scalar::<_, i64>("SELECT segment_id FROM practice_items WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_all(&db.pool)
        .await
        .with_context(what)?
        .into_iter()
        .collect();
    let cands: HashMap<(String, String), Candidate> =
        candidates(&spec, &m, &[]).into_iter().map(|cand| ((cand.system.clone(), cand.segment.clone()), cand)).collect();
    // The systems as the decisions index them, by their candidate names.
    let labels: Vec<String> = state
        .systems
        .iter()
        .map(|s| m.labels.iter().find(|(_, id, _)| id == s).map(|(l, _, _)| l.clone()).ok_or_else(|| AppError::internal(format!("system {s} has no label"))))
        .collect::<AppResult<_>>()?;
    // Segments every system has an output of, not set apart for practice.
    let usable: Vec<i64> = m
        .segments
        .iter()
        .copied()
        .filter(|g| !practice.contains(g) && labels.iter().all(|l| cands.contains_key(&(l.clone(), g.to_string()))))
        .collect();
    let used: HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(
        "SELECT hi.segment_id, COUNT(*) FROM hit_items hi JOIN hits h ON h.id = hi.hit_id WHERE h.campaign_id = $1 AND hi.item_type = $2 GROUP BY hi.segment_id",
    )
    .bind(campaign_id)
    .bind(ItemType::System.wmt_name())
    .fetch_all(&db.pool)
    .await
    .with_context(what)?
    .into_iter()
    .collect();
    let seen: std::collections::HashSet<i64> = match worker {
        None => Default::default(),
        Some(w) => sqlx::query_scalar::<_, i64>(
            "SELECT DISTINCT hi.segment_id FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN hit_items hi ON hi.hit_id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2",
        )
        .bind(campaign_id)
        .bind(w)
        .fetch_all(&db.pool)
        .await
        .with_context(what)?
        .into_iter()
        .collect(),
    };
    let seed = item_seed(c.seed as u64, index as u64);
    let mut order: Vec<usize> = (0..usable.len()).collect();
    order.sort_by_key(|&i| {
        let g = usable[i];
        (seen.contains(&g), used.get(&g).copied().unwrap_or(0), item_seed(seed, g as u64))
    });
    let s = &c.settings;
    let design = HitDesign { length: s.hit_length, bad_refs: s.bad_refs, repeats: s.repeats, refs: s.refs, sets: s.sets };
    let allocation = Allocation::new(state.systems.len(), &design);
    // Each chunk's segment: where its open pair's outputs differ most, discounted by use.
    // (In a block: the picker holds no-Send references, dropped before the next await.)
    let mut slots = {
        let uses = |g: usize| used.get(&usable[g]).copied().unwrap_or(0) as usize;
        let seen_by = |g: usize| seen.contains(&usable[g]);
        let output = |sys: usize, g: usize| m.outputs.get(&(state.systems[sys], usable[g])).map(String::as_str);
        let mut picker = SegmentPicker::new(order.clone(), &uses, &seen_by, &output, segments::DEFAULT_POOL);
        allocation.adaptive_by(&state.decisions, &mut |chunk: &[usize]| picker.pick(chunk))
    };
    // Slots the open pairs leave (few segments, or an odd count): the systems in turn, on the
    // next segments, never an output twice in one HIT.
    let mut chosen: std::collections::HashSet<(usize, usize)> = slots.iter().copied().collect();
    let mut turn = slots.len();
    'fill: for &g in order.iter().chain(order.iter()) {
        for _ in 0..state.systems.len() {
            if slots.len() >= design.system_items() {
                break 'fill;
            }
            let sys = turn % state.systems.len();
            turn += 1;
            if chosen.insert((sys, g)) {
                slots.push((sys, g));
            }
        }
    }
    let picked: Vec<Candidate> = slots
        .iter()
        .map(|&(sys, g)| cands[&(labels[sys].clone(), usable[g].to_string())].clone())
        .collect();
    let built = hit::build_hit_from(index as usize, &picked, &design, seed).map_err(|e| problem(e.to_string()))?;
    let planned = materialize(&spec, &m, vec![built])?;
    let mut summary = LaunchSummary { hits: 1, items: 0, per_type: BTreeMap::new() };
    let mut tx = db.writer.begin().await.with_context(what)?;
    // Only while the campaign runs (a write first: no lock upgrade on SQLite).
    let running = sqlx::query("UPDATE campaigns SET status = status WHERE id = $1 AND status = $2")
        .bind(campaign_id)
        .bind(CampaignStatus::Launched.as_str())
        .execute(&mut *tx)
        .await
        .with_context(what)?;
    if running.rows_affected() != 1 {
        return Ok(Extension::NotAdaptive);
    }
    for h in &planned {
        match insert_hit(&mut tx, campaign_id, h, &mut summary).await {
            Ok(()) => {}
            // Another server built this index meanwhile: its HIT is the one to hand out.
            Err(e) if crate::db::is_conflict(&e) => return Ok(Extension::Built),
            Err(e) => return Err(AppError::storage(what(), e)),
        }
    }
    match tx.commit().await {
        Ok(()) => Ok(Extension::Built),
        Err(e) if crate::db::is_conflict(&e) => Ok(Extension::Built),
        Err(e) => Err(AppError::storage(what(), e)),
    }
}

/// The organizer's view of an adaptive campaign (`None`: not adaptive).
pub async fn view(db: &Db, campaign_id: i64) -> AppResult<Option<AdaptiveView>> {
    let c = load_campaign(db, campaign_id).await?;
    let Some(state) = state_of(db, &c).await? else { return Ok(None) };
    let mut names = HashMap::new();
    for &s in &state.systems {
        let name: String = sqlx::query_scalar("SELECT name FROM systems WHERE id = $1")
            .bind(s)
            .fetch_one(&db.pool)
            .await
            .with_context(|| format!("reading the name of system {s}"))?;
        names.insert(s, name);
    }
    let s = &c.settings;
    Ok(Some(view_of(&state, &names, s.hit_length.saturating_sub(s.bad_refs + s.repeats + s.refs))))
}

/// The view of a state, systems named by `names` (id → name); `system_slots`: a HIT's system
/// items (for the expected remaining cost).
fn view_of(state: &AdaptiveState, names: &HashMap<i64, String>, system_slots: usize) -> AdaptiveView {
    use assay_core::adaptive::Verdict;
    let name = |i: usize| names.get(&state.systems[i]).cloned().unwrap_or_else(|| format!("system {}", state.systems[i]));
    let d = &state.decisions;
    let pairs: Vec<PairView> = d
        .pairs
        .iter()
        .map(|p| {
            let (low, high) = p.difference();
            let (verdict, better, worse) = match p.verdict {
                Verdict::Open => ("open", None, None),
                Verdict::TooClose => ("too-close", None, None),
                Verdict::FirstBetter => ("decided", Some(name(p.a)), Some(name(p.b))),
                Verdict::SecondBetter => ("decided", Some(name(p.b)), Some(name(p.a))),
            };
            PairView { first: name(p.a), second: name(p.b), verdict: verdict.to_string(), better, worse, low, high, observations: p.cs.n() }
        })
        .collect();
    let count = |v: &str| pairs.iter().filter(|p| p.verdict == v).count();
    AdaptiveView {
        alpha: state.design.alpha,
        delta: state.design.delta,
        budget: state.budget,
        hits: state.hits,
        judgments: state.judgments,
        committed: state.committed(),
        expected_remaining: state.expected_remaining(system_slots),
        pairs_open: count("open"),
        pairs_decided: count("decided"),
        pairs_too_close: count("too-close"),
        stop: state.stop.map(|s| format!("{s:?}")),
        clusters: d.clusters().into_iter().map(|c| c.into_iter().map(name).collect()).collect(),
        pairs,
        scores_read: state.scores_read,
        left_out: state.left_out.clone(),
    }
}
