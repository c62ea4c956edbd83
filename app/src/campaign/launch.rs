//! Creating a campaign from a draft and launching it: the HIT builder's HITs (METHOD §2) with
//! their degraded items (METHOD §3) become `hits` and `hit_items` rows in one transaction.
//! Every item stores the exact text shown, so what an annotator read is never recomputed.

use crate::auth::server::random_token;
pub use crate::campaign::LaunchSummary;
use crate::campaign::{
    CampaignDraft, CampaignSettings, DegradationPolicy, DegradedSample, DesignCheck, WantedPer,
};
use crate::error::{AppError, AppResult, StorageContext};
use crate::db::{Db, now_ms};
use crate::hit::degrade::{WordOrderKind, 
    AdequacyPolicy, Degradation, DegradeContext, Segmentation, item_seed, preview, tokenize,
};
use crate::hit::{
    self, Candidate, Hit, HitDesign, JudgmentsWanted, WordOrderDesign,
};
use crate::model::{CampaignStatus, ItemType, TaskKind};
use assay_core::evidence::EvidencePlan;
use assay_core::settings::ThinEvidence;
use assay_core::protocol::{self, Beside, Degrader, HitPlan};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// A design that cannot be built or launched: wrong input in the draft, with the reason the
/// designer shows.
fn problem(reason: impl Into<String>) -> AppError {
    AppError::invalid("draft", reason)
}

/// One item ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedItem {
    pub position: usize,
    pub item_type: ItemType,
    pub system_id: Option<i64>,
    pub segment_id: i64,
    pub paired_position: Option<usize>,
    pub shown_text: String,
    pub degradation: Option<String>,
    /// Relative ranking: the screen the item is shown on with others.
    pub screen: Option<usize>,
    /// Documents (ESA): the document of the HIT the item belongs to.
    pub unit: Option<usize>,
    /// Relative ranking: an output of a gold block, with its expected rank (never sent to a
    /// browser).
    pub gold: Option<u32>,
    /// ESA/MQM: the pre-filled spans the screen starts with (JSON of `Span`s), when shown.
    pub prefilled: Option<String>,
}

/// A HIT ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedHit {
    pub index: usize,
    pub items: Vec<PlannedItem>,
}

/// The texts a campaign draws from.
struct Material {
    target_lang: String,
    /// Segment ids in test-set order (all groups, one test set after the other).
    segments: Vec<i64>,
    /// Per group of the spec: its segment ids in test-set order.
    group_segments: Vec<Vec<i64>>,
    /// Candidate name (what the HIT builder balances) → system id. One group: the system's
    /// name; several (a comparison study): `system @ test set`, so that a system judged on two
    /// test sets gets an equal share on each.
    labels: Vec<(String, i64, usize)>,
    /// segment id → the chosen reference text.
    references: HashMap<i64, String>,
    /// segment id → the second reference shown as REF items' candidate
    /// (`ref_item_reference`); empty when REF items show the chosen reference.
    ref_item_texts: HashMap<i64, String>,
    /// (system id, segment id) → output.
    outputs: HashMap<(i64, i64), String>,
    /// (system id, segment id) → the output's pre-filled spans, fitted to the campaign's
    /// scheme (read only for ESA and MQM with `show_prefilled`).
    prefilled: HashMap<(i64, i64), Vec<assay_core::protocol::Span>>,
    /// system id → name.
    system_names: HashMap<i64, String>,
    /// segment id → source text (read only when the design has practice items, or is of
    /// documents).
    sources: HashMap<i64, String>,
    /// segment id → its document (read only for a task of documents; `None`: the segment has
    /// no document and stands alone).
    documents: HashMap<i64, Option<String>>,
}

/// Which systems a campaign judges on which test set. An ordinary campaign has one group; a
/// comparison study (METHOD §7) two: (old test set: BEST_old, benchmark) and (new test set:
/// BEST_new, benchmark), mixed in the same HITs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub test_set_id: i64,
    pub systems: Vec<i64>,
    /// The reference of this test set the campaign shows and degrades (a study's organizer
    /// chooses one per test set); `None`: the campaign's, else the test set's first by name.
    pub reference: Option<String>,
}

/// SQL for the name of the reference an item of a campaign shows: its study arm's choice for
/// the item's test set, else the campaign's (`campaign_reference`, an expression), else the
/// segment's first reference by name. `campaign` and `segment` are SQL expressions of the
/// campaign's and the segment's ids. Every reader of an item's reference uses it (the work
/// page, the organizer's HIT view, the crowd preview).
pub(crate) fn item_reference_sql(campaign: &str, segment: &str, campaign_reference: &str) -> String {
    format!(
        "COALESCE((SELECT CASE WHEN sg.test_set_id = sa.old_test_set_id THEN sa.old_reference ELSE sa.new_reference END \
                   FROM study_arms sa JOIN segments sg ON sg.id = {segment} WHERE sa.campaign_id = {campaign}), \
                  {campaign_reference}, \
                  (SELECT MIN(r2.name) FROM segment_references r2 WHERE r2.segment_id = {segment}))"
    )
}

/// Everything that decides the HITs of a campaign.
struct Spec<'a> {
    task: TaskKind,
    groups: Vec<Group>,
    reference_name: Option<&'a str>,
    /// Every system of every group (sorted, no duplicates).
    systems: Vec<i64>,
    settings: &'a CampaignSettings,
    seed: u64,
}

impl<'a> Spec<'a> {
    fn new(task: TaskKind, groups: Vec<Group>, reference_name: Option<&'a str>, settings: &'a CampaignSettings, seed: u64) -> Self {
        let mut systems: Vec<i64> = groups.iter().flat_map(|g| g.systems.iter().copied()).collect();
        systems.sort_unstable();
        systems.dedup();
        Spec { task, groups, reference_name, systems, settings, seed }
    }
}

/// What the server was doing when the database failed in [`load_material`].
const READING: &str = "reading the test sets and systems of a design";

/// The texts of the reference called `name` of a test set: (segment id, text).
pub(crate) async fn reference_texts(db: &Db, test_set_id: i64, name: &str) -> AppResult<Vec<(i64, String)>> {
    sqlx::query_as(
        "SELECT r.segment_id, r.text FROM segment_references r JOIN segments s ON s.id = r.segment_id WHERE s.test_set_id = $1 AND r.name = $2",
    )
    .bind(test_set_id)
    .bind(name)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the reference {name:?} of test set {test_set_id}"))
}

/// The material of a design and the reference each group shows (resolved: its own, the
/// campaign's, or its test set's first by name).
async fn load_material(db: &Db, spec: &Spec<'_>) -> AppResult<(Material, Vec<Option<String>>)> {
    let mut m = Material {
        target_lang: String::new(),
        segments: Vec::new(),
        group_segments: Vec::new(),
        labels: Vec::new(),
        references: HashMap::new(),
        ref_item_texts: HashMap::new(),
        outputs: HashMap::new(),
        prefilled: HashMap::new(),
        system_names: HashMap::new(),
        sources: HashMap::new(),
        documents: HashMap::new(),
    };
    let mut group_references = Vec::with_capacity(spec.groups.len());
    for &system in &spec.systems {
        let name: String = sqlx::query_scalar("SELECT name FROM systems WHERE id = $1")
            .bind(system)
            .fetch_optional(&db.pool)
            .await
            .context(READING)?
            .ok_or_else(|| problem(format!("there is no system with id {system}")))?;
        m.system_names.insert(system, name);
    }
    for (k, group) in spec.groups.iter().enumerate() {
        let (set_name, target_lang): (String, String) = sqlx::query_as("SELECT name, target_lang FROM test_sets WHERE id = $1")
            .bind(group.test_set_id)
            .fetch_optional(&db.pool)
            .await
            .context(READING)?
            .ok_or_else(|| problem(format!("there is no test set with id {}", group.test_set_id)))?;
        if k == 0 {
            m.target_lang = target_lang;
        } else if target_lang != m.target_lang {
            return Err(problem(format!(
                "test set {set_name} translates into {target_lang}, but the campaign's first test set into {}: the HITs of one campaign share a target language",
                m.target_lang
            )));
        }
        let segments: Vec<i64> = sqlx::query_scalar("SELECT id FROM segments WHERE test_set_id = $1 ORDER BY position")
            .bind(group.test_set_id)
            .fetch_all(&db.pool)
            .await
            .context(READING)?;
        m.segments.extend(&segments);
        m.group_segments.push(segments);
        if spec.task.marks_spans() {
            let rows: Vec<(i64, Option<String>)> = sqlx::query_as("SELECT id, document FROM segments WHERE test_set_id = $1")
                .bind(group.test_set_id)
                .fetch_all(&db.pool)
                .await
                .context(READING)?;
            m.documents.extend(rows);
        }
        if spec.settings.practice_items > 0 || spec.task.marks_spans() {
            let rows: Vec<(i64, String)> = sqlx::query_as("SELECT id, source FROM segments WHERE test_set_id = $1")
                .bind(group.test_set_id)
                .fetch_all(&db.pool)
                .await
                .context(READING)?;
            m.sources.extend(rows);
        }
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT DISTINCT r.name FROM segment_references r JOIN segments s ON s.id = r.segment_id WHERE s.test_set_id = $1 ORDER BY r.name",
        )
        .bind(group.test_set_id)
        .fetch_all(&db.pool)
        .await
        .context(READING)?;
        let wanted = group.reference.as_deref().filter(|n| !n.is_empty()).or(spec.reference_name);
        let reference_name = match wanted {
            Some(n) if !n.is_empty() => {
                if !names.iter().any(|x| x == n) {
                    let which = if spec.groups.len() == 1 { "the test set".to_string() } else { format!("the test set {set_name}") };
                    return Err(problem(format!("{which} has no reference named {n:?} (it has: {})", names.join(", "))));
                }
                Some(n.to_string())
            }
            _ => names.first().cloned(),
        };
        group_references.push(reference_name.clone());
        // Only a protocol with reference items (DA) reads a second reference.
        let second = spec.settings.ref_item_reference.as_deref().filter(|n| !n.trim().is_empty());
        if let Some(second) = second.filter(|_| protocol::for_task(spec.task).quality_control().contains(&ItemType::Ref)) {
            if !names.iter().any(|x| x == second) {
                return Err(problem(format!(
                    "the test set {set_name} has no reference named {second:?} for reference items (it has: {})",
                    names.join(", ")
                )));
            }
            if reference_name.as_deref() == Some(second) {
                return Err(problem(format!(
                    "reference items must show another reference than {second:?}, the one shown beside every item: choose a second reference, or none"
                )));
            }
            let rows = reference_texts(db, group.test_set_id, second).await?;
            m.ref_item_texts.extend(rows.into_iter().filter(|(_, t)| !t.trim().is_empty()));
        }
        if let Some(name) = &reference_name {
            m.references.extend(reference_texts(db, group.test_set_id, name).await?);
        }
        for &system in &group.systems {
            let label = if spec.groups.len() == 1 {
                m.system_names[&system].clone()
            } else {
                format!("{} @ {set_name}", m.system_names[&system])
            };
            m.labels.push((label, system, k));
            let rows: Vec<(i64, String)> = sqlx::query_as(
                "SELECT o.segment_id, o.text FROM system_outputs o JOIN segments s ON s.id = o.segment_id WHERE s.test_set_id = $1 AND o.system_id = $2",
            )
            .bind(group.test_set_id)
            .bind(system)
            .fetch_all(&db.pool)
            .await
            .context(READING)?;
            m.outputs.extend(rows.into_iter().filter(|(_, text)| !text.trim().is_empty()).map(|(segment, text)| ((system, segment), text)));
            if spec.task.marks_spans() && spec.settings.show_prefilled {
                let rows: Vec<(i64, String)> = sqlx::query_as(
                    "SELECT o.segment_id, o.spans FROM system_outputs o JOIN segments s ON s.id = o.segment_id \
                     WHERE s.test_set_id = $1 AND o.system_id = $2 AND o.spans IS NOT NULL",
                )
                .bind(group.test_set_id)
                .bind(system)
                .fetch_all(&db.pool)
                .await
                .context(READING)?;
                let mqm = &spec.settings.mqm;
                let scheme = (protocol::for_task(spec.task).span_scheme() == Some(protocol::Scheme::Mqm)).then_some((&mqm.taxonomy, mqm.critical, mqm.max_errors));
                for (segment, json) in rows {
                    let spans: Vec<assay_core::protocol::Span> = serde_json::from_str(&json)
                        .map_err(|e| AppError::internal(format!("the pre-filled spans of system {system} on segment {segment} do not read: {e}")))?;
                    m.prefilled.insert((system, segment), assay_core::analysis::span_qc::fit_to_scheme(&spans, scheme));
                }
            }
        }
    }
    Ok((m, group_references))
}

fn adequacy_policy(p: DegradationPolicy) -> AdequacyPolicy {
    match p {
        DegradationPolicy::Delete => AdequacyPolicy::Delete,
        DegradationPolicy::ReplacePhrase => AdequacyPolicy::ReplaceWithPhrase,
    }
}

/// The degradation of a task's bad references (and of its previews).
fn degradation(task: TaskKind, settings: &CampaignSettings) -> Degradation {
    match protocol::for_task(task).degrader() {
        Degrader::Fluency => Degradation::Fluency,
        Degrader::Adequacy => Degradation::Adequacy(adequacy_policy(settings.degradation)),
        Degrader::WordOrder => Degradation::WordOrder { kind: crate::hit::degrade::WordOrderKind::Order, degree: 3 },
    }
}

/// Up to 30 references of other segments, following the segment (donors for adequacy bad
/// references: the one-word replacement and the replace-with-phrase policy).
fn donors(m: &Material, segment: i64) -> Vec<&str> {
    let n = m.segments.len();
    let at = m.segments.iter().position(|&s| s == segment).unwrap_or(0);
    (1..n)
        .map(|d| m.segments[(at + d) % n])
        .filter_map(|s| m.references.get(&s).map(String::as_str))
        .take(30)
        .collect()
}

/// The HIT builder's candidates: every output of the chosen systems on the segments not set
/// apart for practice (`practice`).
fn candidates(spec: &Spec<'_>, m: &Material, practice: &[PlannedPractice]) -> Vec<Candidate> {
    let seg = |text: &str| Segmentation::choose(text, Some(&m.target_lang));
    let set_apart: std::collections::HashSet<i64> = practice.iter().map(|p| p.segment_id).collect();
    let mut out = Vec::new();
    for (label, system, g) in &m.labels {
        let (system, g) = (*system, *g);
        for &segment in &m.group_segments[g] {
            if set_apart.contains(&segment) {
                continue;
            }
            let Some(text) = m.outputs.get(&(system, segment)) else { continue };
            let reference = m.references.get(&segment);
            // Adequacy and word order show the reference beside every item.
            if protocol::for_task(spec.task).beside() == Beside::Reference && reference.is_none() {
                continue;
            }
            let words = tokenize(text, seg(text)).len();
            let degradable = match protocol::for_task(spec.task).degrader() {
                Degrader::Fluency => {
                    crate::hit::degrade::degrade(text, &Degradation::Fluency, &DegradeContext { language: Some(&m.target_lang), ..Default::default() }, 0).is_ok()
                }
                Degrader::WordOrder => true,
                Degrader::Adequacy => words >= 2 || (words == 1 && m.references.len() > 1),
            };
            out.push(Candidate {
                // Names (unique ignoring case) make the builder's messages readable.
                system: label.to_string(),
                segment: segment.to_string(),
                // With a second reference for REF items, only segments that have it can
                // carry a REF item.
                has_reference: reference.is_some() && (m.ref_item_texts.is_empty() || m.ref_item_texts.contains_key(&segment)),
                degradable,
                reference_words: reference.map(|r| tokenize(r, seg(r)).len()),
            });
        }
    }
    out
}

fn wanted(settings: &CampaignSettings) -> JudgmentsWanted {
    match settings.wanted_per {
        WantedPer::System => JudgmentsWanted::PerSystem(settings.judgments_wanted),
        WantedPer::Segment => JudgmentsWanted::PerSegment(settings.judgments_wanted),
    }
}

/// A ranking campaign's HIT design, from its settings (a HIT's length counts screens).
fn ranking_design(s: &CampaignSettings) -> hit::RankingDesign {
    hit::RankingDesign {
        screens: s.hit_length,
        blocks_per_screen: s.rank_blocks_per_screen,
        outputs: s.rank_outputs,
        degraded_blocks: s.bad_refs,
        repeated_screens: s.repeats,
        gold_blocks: s.rank_gold_blocks,
    }
}

/// An ESA campaign's HIT design, from its settings.
fn document_design(s: &CampaignSettings) -> hit::DocumentDesign {
    hit::DocumentDesign {
        seconds_per_hit: s.document_seconds_per_hit(),
        seconds_per_source_word: s.seconds_per_source_word,
        bad_ref_documents: s.bad_refs,
        repeat_documents: s.repeats,
        copies: s.judgments_wanted,
    }
}

/// A task of documents: every system's translation of every document (a unit), its segments
/// in test-set order; a segment without a document is a document of its own. Outputs missing
/// for some segments of a document leave them out of that system's unit.
fn document_units(m: &Material, practice: &[PlannedPractice]) -> Vec<hit::DocumentUnit> {
    let seg = |text: &str| Segmentation::choose(text, None);
    let set_apart: std::collections::HashSet<i64> = practice.iter().map(|p| p.segment_id).collect();
    let mut units = Vec::new();
    for (label, system, g) in &m.labels {
        let mut by_doc: Vec<(String, Vec<hit::DocumentSegment>)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for &segment in &m.group_segments[*g] {
            if set_apart.contains(&segment) {
                continue;
            }
            let Some(text) = m.outputs.get(&(*system, segment)) else { continue };
            let doc = match m.documents.get(&segment).cloned().flatten() {
                Some(d) if !d.trim().is_empty() => d,
                _ => format!("#segment-{segment}"),
            };
            let source = m.sources.get(&segment).map(String::as_str).unwrap_or("");
            let words = tokenize(text, seg(text)).len();
            let at = *index.entry(doc.clone()).or_insert_with(|| {
                by_doc.push((doc.clone(), Vec::new()));
                by_doc.len() - 1
            });
            by_doc[at].1.push(hit::DocumentSegment {
                segment: segment.to_string(),
                source_words: tokenize(source, seg(source)).len(),
                degradable: words >= 2,
            });
        }
        units.extend(by_doc.into_iter().map(|(document, segments)| hit::DocumentUnit { system: label.clone(), document, segments }));
    }
    units
}

/// A ranking campaign's gold orders (when it asks for gold blocks): the gold imported for its
/// test set, with the campaign's systems only, named as the candidates are.
async fn gold_orders(db: &Db, spec: &Spec<'_>, m: &Material) -> AppResult<Vec<hit::GoldBlock>> {
    if protocol::for_task(spec.task).hit_plan() != HitPlan::Blocks || spec.settings.rank_gold_blocks == 0 {
        return Ok(Vec::new());
    }
    let test_set = spec.groups[0].test_set_id;
    let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT g.segment_id, g.system_id, g.expected_rank FROM ranking_gold g JOIN segments s ON s.id = g.segment_id \
         WHERE s.test_set_id = $1 ORDER BY s.position, g.expected_rank, g.system_id",
    )
    .bind(test_set)
    .fetch_all(&db.pool)
    .await
    .context(READING)?;
    if rows.is_empty() {
        return Err(problem(format!(
            "the design asks for {} gold blocks per HIT, but no gold order was imported for the test set (POST /api/v1/test-sets/{test_set}/gold)",
            spec.settings.rank_gold_blocks
        )));
    }
    let mut out: Vec<hit::GoldBlock> = Vec::new();
    for (segment, system, rank) in rows {
        let Some((label, _, _)) = m.labels.iter().find(|(_, id, g)| *id == system && *g == 0) else { continue };
        let segment = segment.to_string();
        if out.last().is_none_or(|b| b.segment != segment) {
            out.push(hit::GoldBlock { segment: segment.clone(), ranks: Vec::new() });
        }
        out.last_mut().expect("pushed above").ranks.push((label.clone(), rank as u32));
    }
    Ok(out)
}

fn build(spec: &Spec<'_>, cands: &[Candidate], gold: &[hit::GoldBlock]) -> AppResult<Vec<Hit>> {
    let s = spec.settings;
    if s.redundancy == 0 {
        return Err(problem("redundancy must be at least 1 worker per HIT"));
    }
    let built = match protocol::for_task(spec.task).hit_plan() {
        HitPlan::WordOrderPairs => hit::build_word_order_hits(
            cands,
            &WordOrderDesign {
                length: s.hit_length,
                permutations: s.woj_permutations,
                same_reference_pairs_per_kind: s.woj_same_reference_pairs,
                max_degree: s.woj_max_degree,
            },
            wanted(s),
            spec.seed,
        ),
        HitPlan::Blocks => hit::build_ranking_hits(
            cands,
            &ranking_design(s),
            gold,
            wanted(s),
            spec.seed,
        ),
        HitPlan::Items => hit::build_hits(
            cands,
            &HitDesign { length: s.hit_length, bad_refs: s.bad_refs, repeats: s.repeats, refs: s.refs, sets: s.sets },
            wanted(s),
            spec.seed,
        ),
        HitPlan::Documents => return Err(AppError::internal("a task of documents is built from its documents (`plan`), not from candidates")),
    };
    built.map_err(|e| problem(e.to_string()))
}

/// The system id behind a candidate's system name (its label).
fn system_id(m: &Material, name: &str) -> AppResult<i64> {
    m.labels
        .iter()
        .find(|(n, _, _)| n.as_str() == name)
        .map(|&(_, id, _)| id)
        .ok_or_else(|| AppError::internal(format!("the HIT builder returned an unknown system {name:?}")))
}

fn parse_id(s: &str) -> AppResult<i64> {
    s.parse().map_err(|_| AppError::internal(format!("the HIT builder returned the segment id {s:?}")))
}

/// Turns built HITs into stored items: the texts shown and, for bad references, what changed.
fn materialize(spec: &Spec<'_>, m: &Material, hits: Vec<Hit>) -> AppResult<Vec<PlannedHit>> {
    let da_how = degradation(spec.task, spec.settings);
    let mut out = Vec::with_capacity(hits.len());
    for h in hits {
        let mut items = Vec::with_capacity(h.items.len());
        for item in &h.items {
            let segment = parse_id(&item.segment)?;
            let system = item.system.as_deref().map(|n| system_id(m, n)).transpose()?;
            let seed = item_seed(spec.seed, (h.index as u64) << 20 | item.position as u64);
            let output = |sys: i64| {
                m.outputs.get(&(sys, segment)).cloned().ok_or_else(|| AppError::internal(format!("no output of system {sys} for segment {segment}")))
            };
            let reference = || m.references.get(&segment).cloned().ok_or_else(|| AppError::internal(format!("no reference for segment {segment}")));
            let (shown_text, degradation) = match item.item_type {
                ItemType::System | ItemType::Repeat => (output(system.ok_or_else(|| AppError::internal("a system item without a system"))?)?, None),
                ItemType::Ref => match m.ref_item_texts.get(&segment) {
                    Some(second) => (second.clone(), None),
                    None => (reference()?, None),
                },
                ItemType::BadRef => match item.permutation {
                    None => {
                        let sys = system.ok_or_else(|| AppError::internal("a bad reference without a system"))?;
                        let text = output(sys)?;
                        let donor = donors(m, segment);
                        let ctx = DegradeContext { language: Some(&m.target_lang), donors: &donor, ..Default::default() };
                        let d = crate::hit::degrade::degrade(&text, &da_how, &ctx, seed).map_err(|e| {
                            problem(format!(
                                "HIT {}: cannot make a bad reference from the output of {} for segment {segment}: {e}",
                                h.index + 1,
                                m.system_names.get(&sys).cloned().unwrap_or_default()
                            ))
                        })?;
                        (d.text, Some(d.change.to_string()))
                    }
                    Some(p) => {
                        // Word order: a permutation of the reference; `choice` takes words from the
                        // base item's output.
                        let base = item
                            .paired_with
                            .and_then(|q| h.items.get(q))
                            .and_then(|b| b.system.as_deref())
                            .map(|n| system_id(m, n))
                            .transpose()?;
                        let hyp = base.and_then(|b| m.outputs.get(&(b, segment)).cloned());
                        let r = reference()?;
                        let ctx = DegradeContext { language: Some(&m.target_lang), hypothesis: hyp.as_deref(), ..Default::default() };
                        let mut result = Err(String::new());
                        // A degree the text cannot take is lowered until it can (recorded).
                        for degree in (1..=p.degree).rev() {
                            let how = Degradation::WordOrder { kind: p.kind, degree };
                            match crate::hit::degrade::degrade(&r, &how, &ctx, seed) {
                                Ok(d) => {
                                    result = Ok((d.text, Some(format!("{} degree {degree}: {}", p.kind.as_str(), d.change))));
                                    break;
                                }
                                Err(e) if result.as_ref().is_err_and(|m| m.is_empty()) => result = Err(e.to_string()),
                                Err(_) => {}
                            }
                        }
                        // A kind the text cannot take at all (e.g. `choice` when the output has no
                        // word the reference lacks) falls back to `order`, and says so.
                        if let Err(why) = &result
                            && p.kind != WordOrderKind::Order
                        {
                            let why = why.clone();
                            for degree in (1..=p.degree).rev() {
                                let how = Degradation::WordOrder { kind: WordOrderKind::Order, degree };
                                if let Ok(d) = crate::hit::degrade::degrade(&r, &how, &ctx, seed) {
                                    result = Ok((
                                        d.text,
                                        Some(format!("order degree {degree} (instead of {}: {why}): {}", p.kind.as_str(), d.change)),
                                    ));
                                    break;
                                }
                            }
                        }
                        result.map_err(|e| problem(format!("HIT {}: cannot permute the reference of segment {segment}: {e}", h.index + 1)))?
                    }
                },
            };
            // Pre-filled spans: the output's, as a copy shows them (span_qc::carry_to_copy).
            let prefilled = match system.and_then(|sys| m.prefilled.get(&(sys, segment)).map(|p| (sys, p))) {
                Some((sys, spans)) => {
                    let shown = match item.item_type {
                        ItemType::BadRef => assay_core::analysis::span_qc::carry_to_copy(&output(sys)?, &shown_text, spans),
                        _ => spans.clone(),
                    };
                    Some(serde_json::to_string(&shown).map_err(|e| AppError::internal(e.to_string()))?)
                }
                None => None,
            };
            items.push(PlannedItem {
                position: item.position,
                item_type: item.item_type,
                system_id: system,
                segment_id: segment,
                paired_position: item.paired_with,
                shown_text,
                degradation,
                screen: item.screen,
                unit: item.unit,
                gold: item.gold,
                prefilled,
            });
        }
        out.push(PlannedHit { index: h.index, items });
    }
    Ok(out)
}

/// A practice item ready to store, with the segment it was built from (set apart from the HITs).
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedPractice {
    pub segment_id: i64,
    pub item: crate::hit::practice::PracticeItem,
}

/// The design's practice items (none when `practice_items` is 0), from the segments with a
/// reference, in test-set order before the seeded shuffle.
fn practice(spec: &Spec<'_>, m: &Material) -> AppResult<Vec<PlannedPractice>> {
    use crate::hit::practice::{PracticeText, build_practice};
    let wanted = spec.settings.practice_items;
    if wanted == 0 {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = m.segments.iter().copied().filter(|s| m.references.contains_key(s)).collect();
    let texts: Vec<PracticeText> = ids
        .iter()
        .map(|s| PracticeText { source: m.sources.get(s).map(String::as_str).unwrap_or(""), reference: m.references[s].as_str() })
        .collect();
    let donors: Vec<&str> = m.references.values().map(String::as_str).take(30).collect();
    let items = build_practice(spec.task, &texts, wanted, adequacy_policy(spec.settings.degradation), Some(&m.target_lang), &donors, spec.seed)
        .map_err(problem)?;
    Ok(items.into_iter().map(|item| PlannedPractice { segment_id: ids[item.text], item }).collect())
}

/// What the built HITs give the reliability test per worker's HIT (issue 38): the minimum is
/// the analysis's ([`crate::analysis::QcSettings`]), with the gold check's for ranking.
fn evidence_of(spec: &Spec<'_>, hits: &[Hit]) -> EvidencePlan {
    let s = spec.settings;
    let gold_min = if protocol::for_task(spec.task).hit_plan() == HitPlan::Blocks && s.rank_gold_blocks > 0 { s.rank_gold_min_pairs } else { 0 };
    hit::evidence::plan(hits, assay_core::analysis::QcSettings::default().min_pairs, gold_min)
}

/// What becomes of a worker the reliability test cannot judge, as the campaign applies it
/// ([`CampaignSettings::thin_evidence_with`]).
pub fn thin_evidence_policy(settings: &CampaignSettings, gate: crate::campaign::QualityGate) -> ThinEvidence {
    settings.thin_evidence_with(gate)
}

impl From<hit::evidence::ThinEvidenceRefusal> for AppError {
    fn from(e: hit::evidence::ThinEvidenceRefusal) -> Self {
        AppError::invalid("accept_thin_evidence", e.0)
    }
}

/// A design built: the HITs to store, the reference each group shows, the practice items, what
/// the HITs give the reliability test, and what they imply (the designer's figures, counted on
/// the HITs built).
struct Planned {
    hits: Vec<PlannedHit>,
    references: Vec<Option<String>>,
    practice: Vec<PlannedPractice>,
    evidence: EvidencePlan,
    figures: crate::campaign::Implications,
}

async fn plan(db: &Db, spec: &Spec<'_>) -> AppResult<Planned> {
    if spec.systems.is_empty() {
        return Err(problem("choose at least one system"));
    }
    let (m, reference_name) = load_material(db, spec).await?;
    if protocol::for_task(spec.task).beside() == Beside::Reference && m.references.is_empty() {
        return Err(problem(format!("{} shows a human reference with every item, but the test set has none", spec.task.as_str())));
    }
    for (g, group) in spec.groups.iter().enumerate() {
        for &s in &group.systems {
            if !m.group_segments[g].iter().any(|&seg| m.outputs.contains_key(&(s, seg))) {
                return Err(problem(format!("system {} has no outputs for this test set", m.system_names.get(&s).cloned().unwrap_or_default())));
            }
        }
    }
    let practice = practice(spec, &m)?;
    if protocol::for_task(spec.task).hit_plan() == HitPlan::Documents {
        if spec.settings.redundancy == 0 {
            return Err(problem("redundancy must be at least 1 worker per HIT"));
        }
        let units = document_units(&m, &practice);
        let hits = hit::build_document_hits(&units, &document_design(spec.settings), spec.seed).map_err(|e| problem(e.to_string()))?;
        let evidence = evidence_of(spec, &hits);
        // A segment's expected time is its source words × seconds per word, as the builder
        // fills a HIT (copies count as often as they are shown).
        let words: HashMap<&str, usize> = units.iter().flat_map(|u| u.segments.iter().map(|s| (s.segment.as_str(), s.source_words.max(1)))).collect();
        let per_word = spec.settings.seconds_per_source_word;
        let figures = hit::figures::of_hits(spec.settings, spec.systems.len(), &hits, |i| words.get(i.segment.as_str()).copied().unwrap_or(1) as f64 * per_word);
        return Ok(Planned { hits: materialize(spec, &m, hits)?, references: reference_name, practice, evidence, figures });
    }
    let cands = candidates(spec, &m, &practice);
    let gold = gold_orders(db, spec, &m).await?;
    let hits = build(spec, &cands, &gold).map_err(|e| {
        if practice.is_empty() {
            e
        } else {
            problem(format!("{} (the {} segments of the practice items are set apart from the HITs)", e.public_message(), practice.len()))
        }
    })?;
    let evidence = evidence_of(spec, &hits);
    let figures = hit::figures::of_item_hits(spec.settings, spec.task, spec.systems.len(), &hits);
    Ok(Planned { hits: materialize(spec, &m, hits)?, references: reference_name, practice, evidence, figures })
}

/// The most distinct workers per HIT a design may ask for.
pub const MAX_REDUNDANCY: usize = 1_000;
/// The most items a HIT may have.
pub const MAX_HIT_LENGTH: usize = 10_000;
/// The longest instructions page, in characters.
pub const MAX_INSTRUCTIONS_CHARS: usize = 20_000;
/// The most practice items a campaign may have.
pub const MAX_PRACTICE_ITEMS: usize = 20;
/// The most judgments (per system or per output) a design may want.
pub const MAX_JUDGMENTS_WANTED: usize = 10_000_000;

/// The texts of a draft against [`assay_core::limits`]: the name and the reference's name are
/// names, the languages shown to annotators labels, and no text of the design holds NUL.
fn check_texts(draft: &CampaignDraft) -> AppResult<()> {
    use assay_core::limits::{MAX_LABEL_CHARS, check_line, check_name, nul_path};
    check_name(draft.name.trim()).map_err(|p| problem(format!("the campaign's name {p}")))?;
    if let Some(r) = &draft.reference_name {
        check_name(r.trim()).map_err(|p| problem(format!("the reference's name {p}")))?;
    }
    if let Some(r) = &draft.settings.ref_item_reference {
        check_name(r.trim()).map_err(|p| problem(format!("the name of the reference for reference items {p}")))?;
    }
    let s = &draft.settings;
    for (text, what) in [(&s.target_language, "the target language's name"), (&s.source_language_name, "the source language's name")] {
        if !text.trim().is_empty() {
            check_line(text.trim(), MAX_LABEL_CHARS).map_err(|p| problem(format!("{what} {p}")))?;
        }
    }
    let w = &s.wording;
    for (text, what) in [(&w.label_source, "the source's label"), (&w.label_reference, "the reference's label"), (&w.label_candidate, "the candidate's label")] {
        if !text.trim().is_empty() {
            check_line(text.trim(), MAX_LABEL_CHARS).map_err(|p| problem(format!("{what} {p}")))?;
        }
    }
    if w.instructions.chars().count() > MAX_INSTRUCTIONS_CHARS {
        return Err(problem(format!("the instructions are at most {MAX_INSTRUCTIONS_CHARS} characters long")));
    }
    if let Some(path) = serde_json::to_value(draft).ok().and_then(|v| nul_path(&v)) {
        return Err(problem(format!("{path} {}", assay_core::limits::TextProblem::Nul)));
    }
    Ok(())
}

fn check_draft(draft: &CampaignDraft) -> AppResult<TaskKind> {
    let task = draft.task;
    if draft.name.trim().is_empty() {
        return Err(problem("give the campaign a name"));
    }
    check_texts(draft)?;
    if let Some(b) = draft.benchmark_systems.iter().find(|b| !draft.systems.contains(b)) {
        return Err(problem(format!("benchmark system {b} is not among the campaign's systems")));
    }
    let s = &draft.settings;
    if s.redundancy == 0 {
        return Err(problem("redundancy must be at least 1 worker per HIT"));
    }
    // The design's counts are the designer's to choose, within sizes a campaign can have: the
    // HIT builder and the implications multiply them.
    if s.redundancy > MAX_REDUNDANCY {
        return Err(problem(format!("redundancy is at most {MAX_REDUNDANCY} workers per HIT")));
    }
    if s.hit_length == 0 || s.hit_length > MAX_HIT_LENGTH {
        return Err(problem(format!("a HIT has 1 to {MAX_HIT_LENGTH} items")));
    }
    for (count, what) in [
        (s.bad_refs, "bad references"),
        (s.repeats, "repeats"),
        (s.refs, "references"),
        (s.sets, "sets"),
        (s.woj_permutations, "permuted references"),
        (s.woj_same_reference_pairs, "same-reference pairs"),
        (s.woj_max_degree, "the highest permutation degree"),
        (s.rank_blocks_per_screen, "segments per screen"),
        (s.rank_outputs, "outputs ranked together"),
        (s.rank_gold_blocks, "gold blocks"),
        (s.rank_gold_min_pairs, "gold pairs for a verdict"),
    ] {
        if count > MAX_HIT_LENGTH {
            return Err(problem(format!("{what} per HIT are at most {MAX_HIT_LENGTH}")));
        }
    }
    if protocol::for_task(task).hit_plan() == HitPlan::Blocks && s.items_per_hit(task) > MAX_HIT_LENGTH {
        return Err(problem(format!(
            "a ranking HIT of {} screens × {} segments × {} outputs has more than {MAX_HIT_LENGTH} items",
            s.hit_length, s.rank_blocks_per_screen, s.rank_outputs
        )));
    }
    if !(0.0..=1.0).contains(&s.rank_gold_threshold) {
        return Err(problem(format!("the gold agreement to pass is between 0 and 1, not {}", s.rank_gold_threshold)));
    }
    if protocol::for_task(task).hit_plan() != HitPlan::Blocks && s.rank_gold_blocks > 0 {
        return Err(problem("gold blocks are for relative ranking campaigns"));
    }
    if s.judgments_wanted > MAX_JUDGMENTS_WANTED {
        return Err(problem(format!("at most {MAX_JUDGMENTS_WANTED} judgments can be wanted")));
    }
    if !(5..=3600).contains(&s.idle_gap_seconds) {
        return Err(problem(format!("the idle gap of the active time is 5 to 3600 seconds, not {}", s.idle_gap_seconds)));
    }
    if s.assignment_timeout_minutes <= 0 {
        return Err(problem("the idle timeout must be at least one minute"));
    }
    if s.payment_per_hit < 0.0 || !s.payment_per_hit.is_finite() {
        return Err(problem("the payment per HIT cannot be negative"));
    }
    if !matches!(s.woj_scale.as_str(), "boxes" | "sliders") {
        return Err(problem(format!("the word-order scale must be \"boxes\" or \"sliders\", not {:?}", s.woj_scale)));
    }
    if s.payment_currency.len() != 3 || !s.payment_currency.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(problem(format!(
            "the payment currency must be a three-letter ISO 4217 code such as USD, GBP or EUR, not {:?}",
            s.payment_currency
        )));
    }
    let interface = s.interface_language.trim();
    if !interface.is_empty() && !assay_core::i18n::Lang::ALL.iter().any(|l| l.tag() == interface || (interface == "zh" && *l == assay_core::i18n::Lang::Zh)) {
        return Err(problem(format!(
            "the interface language must be empty (automatic) or one of en, de, cs, zh-Hans, ja, ar, hi, not {interface:?}"
        )));
    }
    if s.practice_items > MAX_PRACTICE_ITEMS {
        return Err(problem(format!("a campaign has at most {MAX_PRACTICE_ITEMS} practice items")));
    }
    if s.practice_pass > s.practice_items {
        return Err(problem(format!(
            "practice answers needed to go on ({}) cannot be more than the practice items ({})",
            s.practice_pass, s.practice_items
        )));
    }
    if s.practice_items > 0 && protocol::for_task(task).practice().is_none() {
        return Err(problem("practice items are not available for relative ranking yet: set practice items to 0"));
    }
    if protocol::for_task(task).span_scheme() == Some(protocol::Scheme::Mqm) {
        s.mqm.weights.validate().map_err(|e| problem(format!("the MQM weights: {e}")))?;
        if s.mqm.taxonomy.to_text().trim().is_empty() {
            return Err(problem("MQM needs at least one error category"));
        }
    }
    if task.marks_spans() {
        if !(s.hit_minutes.is_finite() && (1.0..=600.0).contains(&s.hit_minutes)) {
            return Err(problem(format!("a HIT's expected time is 1 to 600 minutes, not {}", s.hit_minutes)));
        }
        if s.hit_words > 100_000 {
            return Err(problem(format!("a HIT holds at most 100000 source words, not {}", s.hit_words)));
        }
        if !(s.seconds_per_source_word.is_finite() && s.seconds_per_source_word > 0.0 && s.seconds_per_source_word <= 60.0) {
            return Err(problem(format!("the seconds per source word are more than 0 and at most 60, not {}", s.seconds_per_source_word)));
        }
        if s.judgments_wanted == 0 || s.judgments_wanted > 100 {
            return Err(problem("every document is judged 1 to 100 times"));
        }
    }
    if s.thin_evidence == ThinEvidence::Hold && draft.gate.mode != crate::campaign::GateMode::RequirePass {
        return Err(problem(
            "holding the completion code of workers with too few pairs needs the quality gate: \
             set the completion code to \"only if the worker passes the reliability test\", or keep or exclude them",
        ));
    }
    if draft.gate.mode == crate::campaign::GateMode::RequirePass && (protocol::for_task(task).hit_plan() == HitPlan::WordOrderPairs || s.bad_refs == 0) {
        return Err(problem(
            "the quality gate needs bad references in every HIT (it tests their scores against their originals); \
             turn the gate off or add bad references",
        ));
    }
    Ok(task)
}

/// Checks a draft without storing anything: what it implies, what stops it (the HIT builder's
/// messages) and a few degraded items (METHOD §3: "previewable before launch").
/// The dry run of a draft (a DA task): its HIT design simulated with `crowd` a few times (fewer
/// for bigger designs), each run analysed. Refused, naming the field, for a crowd that cannot
/// be simulated or a task the simulator does not model.
pub async fn dry_run(db: &Db, draft: &CampaignDraft, crowd: &assay_core::report::DryRunCrowd) -> AppResult<assay_core::report::DryRunReport> {
    dry_run_as(db, draft, crowd, true).await
}

/// [`dry_run`] for a caller who may use the draft's test set (`reachable`) or not (see
/// [`check_design_as`]).
pub async fn dry_run_as(
    db: &Db,
    draft: &CampaignDraft,
    crowd: &assay_core::report::DryRunCrowd,
    reachable: bool,
) -> AppResult<assay_core::report::DryRunReport> {
    use assay_core::simulate::dry_run::{DryRunDesign, dry_run as simulate_runs};
    let task = draft.task;
    if protocol::for_task(task).hit_plan() == HitPlan::WordOrderPairs {
        return Err(AppError::invalid("task", "the dry run simulates direct assessment; word-order campaigns are not simulated yet"));
    }
    let shares = [crowd.careful, crowd.noisy, crowd.careless];
    if shares.iter().any(|s| !s.is_finite() || *s < 0.0) || shares.iter().sum::<f64>() <= 0.0 {
        return Err(AppError::invalid("crowd", "the shares of careful, noisy and careless workers are numbers of 0 or more, not all 0"));
    }
    if !(crowd.alpha > 0.0 && crowd.alpha <= 0.5) {
        return Err(AppError::invalid("alpha", "α is between 0 and 0.5"));
    }
    if !(0.0..=80.0).contains(&crowd.spread) {
        return Err(AppError::invalid("spread", "the spread of the systems is between 0 and 80 points"));
    }
    if draft.systems.len() < 2 {
        return Err(AppError::invalid("systems", "choose at least two systems to compare"));
    }
    // A design that cannot be built cannot be simulated: say why in the designer's words (the
    // simulator's own systems are named sys01, sys02, …).
    // (A name is not needed to try a design.)
    let named = CampaignDraft { name: if draft.name.trim().is_empty() { "dry run".into() } else { draft.name.clone() }, ..draft.clone() };
    let check = check_design_as(db, &named, reachable).await?;
    if let Some(problem) = check.problems.first() {
        return Err(AppError::invalid("settings", format!("this design cannot be built, so it cannot be simulated: {problem}")));
    }
    let segments: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM segments WHERE test_set_id = $1")
        .bind(draft.test_set_id)
        .fetch_one(&db.pool)
        .await
        .context("counting the test set's segments")?;
    if segments == 0 {
        return Err(AppError::invalid("test_set_id", "choose a test set with segments"));
    }
    let s = &draft.settings;
    let design = DryRunDesign {
        task,
        design: HitDesign { length: s.hit_length, bad_refs: s.bad_refs, repeats: s.repeats, refs: s.refs, sets: s.sets },
        wanted: wanted(s),
        redundancy: s.redundancy.max(1),
        systems: draft.systems.len(),
        segments: segments as usize,
    };
    let implied = s.implications(task, draft.systems.len(), segments as usize);
    let judgments = implied.assignments.saturating_mul(s.hit_length).max(1);
    if judgments > 3_000_000 {
        return Err(AppError::invalid("settings", format!("a design of {judgments} judgments is too big to dry-run here")));
    }
    // About two million simulated judgments in all: fewer runs of a bigger design.
    let runs = (2_000_000 / judgments).clamp(2, 10);
    let crowd = crowd.clone();
    let seed = draft.seed as u64;
    tokio::task::spawn_blocking(move || simulate_runs(&design, &crowd, runs, seed))
        .await
        .map_err(|e| AppError::internal(format!("the dry run failed: {e}")))?
        .map_err(|e| AppError::invalid("settings", e.to_string()))
}

/// The design's problems are listed (the designer shows them all); a failure of the server is
/// an error.
pub async fn check_design(db: &Db, draft: &CampaignDraft) -> AppResult<DesignCheck> {
    check_design_as(db, draft, true).await
}

/// [`check_design`] for a caller who may use the draft's test set (`reachable`) or not: a test
/// set of another team is then answered exactly as a missing one (see `web::teams`).
pub async fn check_design_as(db: &Db, draft: &CampaignDraft, reachable: bool) -> AppResult<DesignCheck> {
    let mut check = DesignCheck::default();
    let problem_of = |e: AppError| if e.is_server_fault() { Err(e) } else { Ok(e.to_string()) };
    let task = match check_draft(draft) {
        Ok(t) => t,
        Err(e) => {
            check.problems.push(problem_of(e)?);
            draft.task
        }
    };
    let spec = Spec::new(
        task,
        vec![Group { test_set_id: draft.test_set_id, systems: draft.systems.clone(), reference: None }],
        draft.reference_name.as_deref(),
        &draft.settings,
        draft.seed as u64,
    );
    // Systems are read before the test set: a missing system is named first either way.
    let loaded = match load_material(db, &spec).await {
        Ok(_) if !reachable => Err(problem(format!("there is no test set with id {}", draft.test_set_id))),
        other => other,
    };
    let max_outputs = match loaded {
        Ok((m, _)) => {
            check.samples = samples(&spec, &m);
            spec.systems
                .iter()
                .map(|&s| m.outputs.keys().filter(|&&(sys, _)| sys == s).count())
                .max()
                .unwrap_or(0)
        }
        Err(e) => {
            check.problems.push(problem_of(e)?);
            0
        }
    };
    check.implications = draft.settings.implications(task, draft.systems.len(), max_outputs);
    if check.problems.is_empty() {
        match plan(db, &spec).await {
            Ok(Planned { figures, evidence, .. }) => {
                // The figures of the HITs as built replace the estimate (issue 38).
                check.implications = figures;
                let policy = thin_evidence_policy(&draft.settings, draft.gate);
                check.thin_evidence = evidence.consequence(policy);
                check.needs_i_know = evidence.needs_i_know(policy);
                check.evidence = Some(evidence);
            }
            Err(e) => check.problems.push(problem_of(e)?),
        }
    }
    Ok(check)
}

/// Up to 6 degraded items, from the first outputs of the chosen systems (word order: the
/// reference permuted with `order` of degree 3).
fn samples(spec: &Spec<'_>, m: &Material) -> Vec<DegradedSample> {
    let mut picked: Vec<(i64, &str)> = Vec::new();
    'outer: for &seg in &m.segments {
        for &sys in &spec.systems {
            if picked.len() >= 6 {
                break 'outer;
            }
            if let Some(t) = m.outputs.get(&(sys, seg)) {
                let text = if protocol::for_task(spec.task).hit_plan() == HitPlan::WordOrderPairs {
                    match m.references.get(&seg) {
                        Some(r) => r.as_str(),
                        None => continue,
                    }
                } else {
                    t.as_str()
                };
                picked.push((sys, text));
                break;
            }
        }
    }
    let how = degradation(spec.task, spec.settings);
    let texts: Vec<&str> = picked.iter().map(|p| p.1).collect();
    let donor: Vec<&str> = m.references.values().map(String::as_str).take(30).collect();
    let ctx = DegradeContext { language: Some(&m.target_lang), donors: &donor, ..Default::default() };
    preview(&texts, &how, &ctx, spec.seed)
        .into_iter()
        .zip(&picked)
        .map(|(p, &(sys, _))| {
            let (degraded, change) = match p.result {
                Ok((text, change)) => (Ok(text), change),
                Err(e) => (Err(e.to_string()), String::new()),
            };
            DegradedSample { system: m.system_names.get(&sys).cloned().unwrap_or_default(), original: p.original, degraded, change }
        })
        .collect()
}

/// The refusal of a draft whose test set the caller may not use (another team's, see
/// `web::teams`): the one a missing test set gets, after the checks that come before it (the
/// draft's fields, then its systems).
pub async fn unreachable_test_set(db: &Db, draft: &CampaignDraft) -> AppError {
    if let Err(e) = check_draft(draft) {
        return e;
    }
    for &system in &draft.systems {
        match sqlx::query_scalar::<_, i64>("SELECT id FROM systems WHERE id = $1").bind(system).fetch_optional(&db.pool).await {
            Ok(Some(_)) => {}
            Ok(None) => return problem(format!("there is no system with id {system}")),
            Err(e) => return AppError::storage(READING, e),
        }
    }
    problem(format!("there is no test set with id {}", draft.test_set_id))
}

/// Stores a draft campaign after checking that its design builds. Returns the campaign id.
pub async fn create_campaign(db: &Db, draft: &CampaignDraft, created_by: i64) -> AppResult<i64> {
    let task = check_draft(draft)?;
    let mut systems = draft.systems.clone();
    systems.sort_unstable();
    systems.dedup();
    let groups = vec![Group { test_set_id: draft.test_set_id, systems, reference: None }];
    // Refuse designs that cannot be built, with the builder's reason.
    let (_, references) = plan_groups(db, task, &groups, draft).await?;
    let reference_name = references.into_iter().next().flatten();
    let mut tx = db.writer.begin().await.context("storing a new campaign")?;
    let id = insert_campaign(&mut tx, draft, task, &groups, reference_name, created_by).await?;
    tx.commit().await.context("storing a new campaign")?;
    Ok(id)
}

/// A draft campaign's design as the designer edits it. Refused for a launched campaign (its HITs
/// are built: it cannot be edited) and for an arm of a study (the study designs it); an unknown
/// campaign is `NotFound`.
pub async fn load_draft(db: &Db, campaign_id: i64) -> AppResult<CampaignDraft> {
    let c = load_campaign(db, campaign_id).await?;
    check_editable(db, campaign_id, c.status).await?;
    let what = || format!("reading draft campaign {campaign_id}");
    let benchmark_systems: Vec<i64> =
        sqlx::query_scalar("SELECT system_id FROM campaign_systems WHERE campaign_id = $1 AND is_benchmark = 1 ORDER BY system_id")
            .bind(campaign_id)
            .fetch_all(&db.pool)
            .await
            .with_context(what)?;
    let (mode, unsure): (String, String) = sqlx::query_as("SELECT gate, gate_unsure FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(what)?;
    Ok(CampaignDraft {
        name: c.name,
        task: c.task,
        test_set_id: c.test_set_id,
        reference_name: c.reference_name,
        systems: c.systems,
        benchmark_systems,
        seed: c.seed,
        settings: c.settings,
        gate: crate::campaign::QualityGate::parse(&mode, &unsure).unwrap_or_default(),
    })
}

/// Refuses to edit a campaign that is not a draft, or that a study made.
async fn check_editable(db: &Db, campaign_id: i64, status: CampaignStatus) -> AppResult<()> {
    if status != CampaignStatus::Draft {
        return Err(AppError::invalid(
            "campaign_id",
            format!("campaign {campaign_id} is {}: only a draft can be edited (a launched campaign's HITs are built and handed out)", status.as_str()),
        ));
    }
    if is_study_arm(db, campaign_id).await? {
        return Err(AppError::invalid("campaign_id", format!("campaign {campaign_id} belongs to a study: change the study's design instead")));
    }
    Ok(())
}

/// Replaces a draft campaign's design with `draft`, checked as [`create_campaign`] checks a new
/// one (refused, changing nothing, if it cannot be built). Refused for a launched campaign,
/// also when it is launched while this runs.
pub async fn update_campaign(db: &Db, campaign_id: i64, draft: &CampaignDraft) -> AppResult<()> {
    let c = load_campaign(db, campaign_id).await?;
    check_editable(db, campaign_id, c.status).await?;
    let task = check_draft(draft)?;
    let mut systems = draft.systems.clone();
    systems.sort_unstable();
    systems.dedup();
    let groups = vec![Group { test_set_id: draft.test_set_id, systems: systems.clone(), reference: None }];
    let (_, references) = plan_groups(db, task, &groups, draft).await?;
    let reference_name = references.into_iter().next().flatten();
    let settings = draft.settings.clone().with_task_wording(task);
    let settings = serde_json::to_string(&settings).map_err(|e| AppError::internal(format!("cannot store the settings of a campaign: {e}")))?;
    let what = || format!("changing draft campaign {campaign_id}");
    let mut tx = db.writer.begin().await.with_context(what)?;
    let changed = sqlx::query(
        "UPDATE campaigns SET name = $2, task = $3, test_set_id = $4, reference_name = $5, settings = $6, seed = $7, gate = $8, gate_unsure = $9, \
         team_id = (SELECT team_id FROM test_sets WHERE id = $4) \
         WHERE id = $1 AND status = $10",
    )
    .bind(campaign_id)
    .bind(draft.name.trim())
    .bind(task.as_str())
    .bind(draft.test_set_id)
    .bind(reference_name)
    .bind(settings)
    .bind(draft.seed)
    .bind(draft.gate.mode_str())
    .bind(draft.gate.unsure_str())
    .bind(CampaignStatus::Draft.as_str())
    .execute(&mut *tx)
    .await
    .with_context(what)?
    .rows_affected();
    if changed == 0 {
        return Err(AppError::conflict(format!("campaign {campaign_id} was launched meanwhile: a launched campaign cannot be edited")));
    }
    sqlx::query("DELETE FROM campaign_systems WHERE campaign_id = $1").bind(campaign_id).execute(&mut *tx).await.with_context(what)?;
    for s in &systems {
        sqlx::query("INSERT INTO campaign_systems (campaign_id, system_id, is_benchmark) VALUES ($1, $2, $3)")
            .bind(campaign_id)
            .bind(*s)
            .bind(i64::from(draft.benchmark_systems.contains(s)))
            .execute(&mut *tx)
            .await
            .with_context(what)?;
    }
    tx.commit().await.with_context(what)?;
    Ok(())
}

/// Plans the HITs of a draft whose systems come in groups (one group per test set); stores
/// nothing. Returns the number of HITs and the reference each group shows.
pub async fn plan_groups(
    db: &Db,
    task: TaskKind,
    groups: &[Group],
    draft: &CampaignDraft,
) -> AppResult<(usize, Vec<Option<String>>)> {
    let spec = Spec::new(task, groups.to_vec(), draft.reference_name.as_deref(), &draft.settings, draft.seed as u64);
    let Planned { hits, references, .. } = plan(db, &spec).await?;
    Ok((hits.len(), references))
}

/// Checks a draft's fields (name, task, settings); see [`create_campaign`].
pub fn check_campaign_draft(draft: &CampaignDraft) -> AppResult<TaskKind> {
    check_draft(draft)
}

/// Inserts a draft campaign and its systems inside `tx` (the design was checked before). The
/// campaign's test set is `draft.test_set_id`; its systems those of every group.
pub async fn insert_campaign(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    draft: &CampaignDraft,
    task: TaskKind,
    groups: &[Group],
    reference_name: Option<String>,
    created_by: i64,
) -> AppResult<i64> {
    let mut systems: Vec<i64> = groups.iter().flat_map(|g| g.systems.iter().copied()).collect();
    systems.sort_unstable();
    systems.dedup();
    let settings = draft.settings.clone().with_task_wording(task);
    let settings = serde_json::to_string(&settings).map_err(|e| AppError::internal(format!("cannot store the settings of a campaign: {e}")))?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO campaigns (public_id, name, task, test_set_id, reference_name, settings, seed, status, created_by, created_at, gate, gate_unsure, team_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $12, $8, $9, $10, $11, (SELECT team_id FROM test_sets WHERE id = $4)) RETURNING id",
    )
    .bind(random_token())
    .bind(draft.name.trim())
    .bind(task.as_str())
    .bind(draft.test_set_id)
    .bind(reference_name)
    .bind(settings)
    .bind(draft.seed)
    .bind(created_by)
    .bind(now_ms())
    .bind(draft.gate.mode_str())
    .bind(draft.gate.unsure_str())
    .bind(CampaignStatus::Draft.as_str())
    .fetch_one(&mut **tx)
    .await
    .context("storing a new campaign")?;
    for s in &systems {
        sqlx::query("INSERT INTO campaign_systems (campaign_id, system_id, is_benchmark) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(*s)
            .bind(i64::from(draft.benchmark_systems.contains(s)))
            .execute(&mut **tx)
            .await
            .context("storing a new campaign")?;
    }
    Ok(id)
}

/// A stored campaign's design.
pub struct StoredCampaign {
    pub id: i64,
    pub public_id: String,
    pub name: String,
    pub task: TaskKind,
    pub test_set_id: i64,
    pub reference_name: Option<String>,
    pub settings: CampaignSettings,
    pub seed: i64,
    pub status: CampaignStatus,
    pub systems: Vec<i64>,
}

crate::rows::row! {
    /// A row of `campaigns` as [`load_campaign`] reads it.
    struct CampaignRow {
        id: i64,
        public_id: String,
        name: String,
        task: TaskKind as String,
        test_set_id: i64,
        reference_name: Option<String>,
        settings: String,
        seed: i64,
        status: CampaignStatus as String,
    }
}

/// Reads a campaign's design; `NotFound` for an unknown id.
pub async fn load_campaign(db: &Db, campaign_id: i64) -> AppResult<StoredCampaign> {
    let what = || format!("reading campaign {campaign_id}");
    let row: CampaignRow = sqlx::query_as(
        "SELECT id, public_id, name, task, test_set_id, reference_name, settings, seed, status FROM campaigns WHERE id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .with_context(what)?
    .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let systems = sqlx::query_scalar("SELECT system_id FROM campaign_systems WHERE campaign_id = $1 ORDER BY system_id")
        .bind(campaign_id)
        .fetch_all(&db.pool)
        .await
        .with_context(what)?;
    // Settings that are not JSON at all are a broken campaign, not a design to launch with the
    // defaults; the one reader of stored settings takes the rest (the task's defaults for
    // anything missing).
    if let Err(e) = serde_json::from_str::<serde_json::Value>(&row.settings) {
        return Err(AppError::internal(format!("campaign {campaign_id} has unreadable settings: {e}")));
    }
    let settings = CampaignSettings::read(&row.settings, row.task, "", "");
    Ok(StoredCampaign {
        id: row.id,
        public_id: row.public_id,
        name: row.name,
        task: row.task,
        test_set_id: row.test_set_id,
        reference_name: row.reference_name,
        settings,
        seed: row.seed,
        status: row.status,
        systems,
    })
}

/// Builds the campaign's HITs (deterministic from its seed), degrades the bad references and
/// stores HITs and items in one transaction; the campaign becomes `launched`. A campaign is
/// launched once: a second call (or a concurrent one) is refused and changes nothing.
pub async fn launch_campaign(db: &Db, campaign_id: i64) -> AppResult<LaunchSummary> {
    let prepared = prepare_launch(db, campaign_id).await?;
    let mut tx = db.writer.begin().await.context("launching a campaign")?;
    let summary = write_launch(&mut tx, &prepared).await?;
    tx.commit().await.context("launching a campaign")?;
    Ok(summary)
}

/// [`launch_campaign`] as the organizer's launch does it (the server function): refused, naming
/// `accept_thin_evidence` and saying what would be lost, when some HIT cannot give its worker
/// the reliability test's minimum of pairs and the design does not say "I know" (issue 38).
pub async fn launch_campaign_checked(db: &Db, campaign_id: i64) -> AppResult<LaunchSummary> {
    let prepared = prepare_launch(db, campaign_id).await?;
    let c = load_campaign(db, campaign_id).await?;
    let (mode, unsure): (String, String) = sqlx::query_as("SELECT gate, gate_unsure FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the quality gate of campaign {campaign_id}"))?;
    let gate = crate::campaign::QualityGate::parse(&mode, &unsure).unwrap_or_default();
    prepared.evidence.refusal(thin_evidence_policy(&c.settings, gate), c.settings.accept_thin_evidence)?;
    let mut tx = db.writer.begin().await.context("launching a campaign")?;
    let summary = write_launch(&mut tx, &prepared).await?;
    tx.commit().await.context("launching a campaign")?;
    Ok(summary)
}

/// The (test set, systems) groups of a campaign that is an arm of a study (a row of
/// `study_arms`, which a study writes when it creates its campaigns): (old test set:
/// BEST_old, benchmark) and (new test set: BEST_new, benchmark). `None` for other campaigns.
pub async fn study_groups(db: &Db, campaign_id: i64) -> AppResult<Option<Vec<Group>>> {
    let row = sqlx::query(
        "SELECT old_test_set_id, new_test_set_id, best_old, best_new, benchmark, old_reference, new_reference FROM study_arms WHERE campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("reading the study arm of campaign {campaign_id}"))?;
    let Some(r) = row else { return Ok(None) };
    let get = |c: &str| r.try_get::<i64, _>(c).with_context(|| format!("reading the study arm of campaign {campaign_id}"));
    let reference = |c: &str| r.try_get::<Option<String>, _>(c).with_context(|| format!("reading the study arm of campaign {campaign_id}"));
    Ok(Some(vec![
        Group { test_set_id: get("old_test_set_id")?, systems: vec![get("best_old")?, get("benchmark")?], reference: reference("old_reference")? },
        Group { test_set_id: get("new_test_set_id")?, systems: vec![get("best_new")?, get("benchmark")?], reference: reference("new_reference")? },
    ]))
}

/// Whether a campaign is an arm of a study.
pub async fn is_study_arm(db: &Db, campaign_id: i64) -> AppResult<bool> {
    Ok(study_groups(db, campaign_id).await?.is_some())
}

/// A draft campaign with its HITs built, ready to be stored by [`write_launch`].
pub struct PreparedLaunch {
    campaign_id: i64,
    name: String,
    hits: Vec<PlannedHit>,
    practice: Vec<PlannedPractice>,
    /// What the HITs give the reliability test per worker's HIT.
    pub evidence: EvidencePlan,
}

/// Builds a draft campaign's HITs (deterministic from its seed; reads only).
pub async fn prepare_launch(db: &Db, campaign_id: i64) -> AppResult<PreparedLaunch> {
    let c = load_campaign(db, campaign_id).await?;
    if c.status != CampaignStatus::Draft {
        return Err(problem(format!("campaign {} is {} already", c.name, c.status)));
    }
    // A study arm's test sets each show their own reference (the campaign's name is the new
    // test set's, which the old one need not have).
    let (groups, reference) = match study_groups(db, campaign_id).await? {
        Some(groups) => (groups, None),
        None => (vec![Group { test_set_id: c.test_set_id, systems: c.systems.clone(), reference: None }], c.reference_name.as_deref()),
    };
    let spec = Spec::new(c.task, groups, reference, &c.settings, c.seed as u64);
    let Planned { hits, practice, evidence, .. } = plan(db, &spec).await?;
    Ok(PreparedLaunch { campaign_id, name: c.name, hits, practice, evidence })
}

/// Stores a prepared campaign's HITs and items and marks it launched, in the caller's
/// transaction (a study launches all its campaigns in one).
pub async fn write_launch(tx: &mut sqlx::Transaction<'static, sqlx::Any>, prepared: &PreparedLaunch) -> AppResult<LaunchSummary> {
    let PreparedLaunch { campaign_id, name, hits, practice, .. } = prepared;
    let campaign_id = *campaign_id;
    let mut summary = LaunchSummary { hits: hits.len(), items: 0, per_type: BTreeMap::new() };
    // Write first (no read-then-upgrade on SQLite); the status guard makes launching once only.
    let updated = sqlx::query("UPDATE campaigns SET status = $3, launched_at = $1 WHERE id = $2 AND status = $4")
        .bind(now_ms())
        .bind(campaign_id)
        .bind(CampaignStatus::Launched.as_str())
        .bind(CampaignStatus::Draft.as_str())
        .execute(&mut **tx)
        .await
        .context("storing the HITs of a launched campaign")?;
    if updated.rows_affected() != 1 {
        return Err(problem(format!("campaign {name} was launched already")));
    }
    for h in hits {
        let hit_id: i64 = sqlx::query_scalar("INSERT INTO hits (campaign_id, hit_index, item_count) VALUES ($1, $2, $3) RETURNING id")
            .bind(campaign_id)
            .bind(h.index as i64)
            .bind(h.items.len() as i64)
            .fetch_one(&mut **tx)
            .await
            .context("storing the HITs of a launched campaign")?;
        // Items in batches of 50 rows per statement (12 values each).
        for chunk in h.items.chunks(50) {
            let mut sql = String::from(
                "INSERT INTO hit_items (hit_id, position, item_type, system_id, segment_id, paired_position, shown_text, degradation, screen, unit, gold_rank, prefilled) VALUES ",
            );
            for i in 0..chunk.len() {
                let b = i * 12;
                if i > 0 {
                    sql.push_str(", ");
                }
                let values: Vec<String> = (1..=12).map(|k| format!("${}", b + k)).collect();
                sql.push_str(&format!("({})", values.join(", ")));
            }
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
            for it in chunk {
                q = q
                    .bind(hit_id)
                    .bind(it.position as i64)
                    .bind(it.item_type.wmt_name())
                    .bind(it.system_id)
                    .bind(it.segment_id)
                    .bind(it.paired_position.map(|p| p as i64))
                    .bind(it.shown_text.clone())
                    .bind(it.degradation.clone())
                    .bind(it.screen.map(|s| s as i64))
                    .bind(it.unit.map(|u| u as i64))
                    .bind(it.gold.map(i64::from))
                    .bind(it.prefilled.clone());
                *summary.per_type.entry(if it.gold.is_some() { "GOLD".to_string() } else { it.item_type.wmt_name().to_string() }).or_default() += 1;
                summary.items += 1;
            }
            q.execute(&mut **tx).await.context("storing the HITs of a launched campaign")?;
        }
    }
    for (position, p) in practice.iter().enumerate() {
        let it = &p.item;
        sqlx::query(
            "INSERT INTO practice_items (campaign_id, position, segment_id, context, candidate, expect_high, \
             expect_low1, expect_high1, expect_low2, expect_high2, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(campaign_id)
        .bind(position as i64)
        .bind(p.segment_id)
        .bind(it.context.clone())
        .bind(it.candidate.clone())
        .bind(i64::from(it.high))
        .bind(it.range1.0)
        .bind(it.range1.1)
        .bind(it.range2.0)
        .bind(it.range2.1)
        .bind(it.reason.clone())
        .execute(&mut **tx)
        .await
        .context("storing the practice items of a launched campaign")?;
    }
    Ok(summary)
}
