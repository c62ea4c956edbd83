//! Planning a design's HITs: the test sets' material, the HIT builder's candidates and HITs
//! (METHOD §2–3), practice items, the evidence for the reliability test, and every item
//! materialized with the exact text it shows.

use super::*;

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
    /// Pairwise preference: the pair's output b and how the pair is shown (the item's system
    /// and text are its output a).
    pub pair: Option<PlannedPair>,
}

/// A pair item's output b, the side shown on the left and, for a degraded copy against its
/// original, which side is the copy (never sent to a browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedPair {
    pub system_id: i64,
    pub text: String,
    pub left: assay_core::protocol::pairwise::Side,
    pub degraded: Option<assay_core::protocol::pairwise::Side>,
}

/// A HIT ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedHit {
    pub index: usize,
    pub items: Vec<PlannedItem>,
}

/// The texts a campaign draws from.
pub(super) struct Material {
    pub(super) target_lang: String,
    /// Segment ids in test-set order (all groups, one test set after the other).
    pub(super) segments: Vec<i64>,
    /// Per group of the spec: its segment ids in test-set order.
    pub(super) group_segments: Vec<Vec<i64>>,
    /// Candidate name (what the HIT builder balances) → system id. One group: the system's
    /// name; several (a comparison study): `system @ test set`, so that a system judged on two
    /// test sets gets an equal share on each.
    pub(super) labels: Vec<(String, i64, usize)>,
    /// segment id → the chosen reference text.
    pub(super) references: HashMap<i64, String>,
    /// segment id → the second reference shown as REF items' candidate
    /// (`ref_item_reference`); empty when REF items show the chosen reference.
    pub(super) ref_item_texts: HashMap<i64, String>,
    /// (system id, segment id) → output.
    pub(super) outputs: HashMap<(i64, i64), String>,
    /// (system id, segment id) → the output's pre-filled spans, fitted to the campaign's
    /// scheme (read only for ESA and MQM with `show_prefilled`).
    pub(super) prefilled: HashMap<(i64, i64), Vec<assay_core::protocol::Span>>,
    /// system id → name.
    pub(super) system_names: HashMap<i64, String>,
    /// segment id → source text (read only when the design has practice items, or is of
    /// documents).
    pub(super) sources: HashMap<i64, String>,
    /// segment id → its document (read only for a task of documents; `None`: the segment has
    /// no document and stands alone).
    pub(super) documents: HashMap<i64, Option<String>>,
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
pub(super) struct Spec<'a> {
    pub(super) task: TaskKind,
    pub(super) groups: Vec<Group>,
    pub(super) reference_name: Option<&'a str>,
    /// Every system of every group (sorted, no duplicates).
    pub(super) systems: Vec<i64>,
    pub(super) settings: &'a CampaignSettings,
    pub(super) seed: u64,
}

impl<'a> Spec<'a> {
    pub(super) fn new(task: TaskKind, groups: Vec<Group>, reference_name: Option<&'a str>, settings: &'a CampaignSettings, seed: u64) -> Self {
        let mut systems: Vec<i64> = groups.iter().flat_map(|g| g.systems.iter().copied()).collect();
        systems.sort_unstable();
        systems.dedup();
        Spec { task, groups, reference_name, systems, settings, seed }
    }
}

/// What the server was doing when the database failed in [`load_material`].
pub(super) const READING: &str = "reading the test sets and systems of a design";

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
pub(super) async fn load_material(db: &Db, spec: &Spec<'_>) -> AppResult<(Material, Vec<Option<String>>)> {
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
            if spec.task.marks_spans() && spec.settings.documents.show_prefilled {
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

pub(super) fn adequacy_policy(p: DegradationPolicy) -> AdequacyPolicy {
    match p {
        DegradationPolicy::Delete => AdequacyPolicy::Delete,
        DegradationPolicy::ReplacePhrase => AdequacyPolicy::ReplaceWithPhrase,
    }
}

/// The degradation of a task's bad references (and of its previews).
pub(super) fn degradation(task: TaskKind, settings: &CampaignSettings) -> Degradation {
    match protocol::for_task(task).degrader() {
        Degrader::Fluency => Degradation::Fluency,
        Degrader::Adequacy => Degradation::Adequacy(adequacy_policy(settings.degradation)),
        Degrader::WordOrder => Degradation::WordOrder { kind: crate::hit::degrade::WordOrderKind::Order, degree: 3 },
    }
}

/// Up to 30 references of other segments, following the segment (donors for adequacy bad
/// references: the one-word replacement and the replace-with-phrase policy).
pub(super) fn donors(m: &Material, segment: i64) -> Vec<&str> {
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
pub(super) fn candidates(spec: &Spec<'_>, m: &Material, practice: &[PlannedPractice]) -> Vec<Candidate> {
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

pub(super) fn wanted(settings: &CampaignSettings) -> JudgmentsWanted {
    match settings.wanted_per {
        WantedPer::System => JudgmentsWanted::PerSystem(settings.judgments_wanted),
        WantedPer::Segment => JudgmentsWanted::PerSegment(settings.judgments_wanted),
    }
}

/// A ranking campaign's HIT design, from its settings (a HIT's length counts screens).
pub(super) fn ranking_design(s: &CampaignSettings) -> hit::RankingDesign {
    hit::RankingDesign {
        screens: s.hit_length,
        blocks_per_screen: s.ranking.blocks_per_screen,
        outputs: s.ranking.outputs,
        degraded_blocks: s.bad_refs,
        repeated_screens: s.repeats,
        gold_blocks: s.ranking.gold_blocks,
    }
}

/// An ESA campaign's HIT design, from its settings.
pub(super) fn document_design(s: &CampaignSettings) -> hit::DocumentDesign {
    hit::DocumentDesign {
        seconds_per_hit: s.documents.seconds_per_hit(),
        seconds_per_source_word: s.documents.seconds_per_source_word,
        bad_ref_documents: s.bad_refs,
        repeat_documents: s.repeats,
        copies: s.judgments_wanted,
    }
}

/// A task of documents: every system's translation of every document (a unit), its segments
/// in test-set order; a segment without a document is a document of its own. Outputs missing
/// for some segments of a document leave them out of that system's unit.
pub(super) fn document_units(m: &Material, practice: &[PlannedPractice]) -> Vec<hit::DocumentUnit> {
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
pub(super) async fn gold_orders(db: &Db, spec: &Spec<'_>, m: &Material) -> AppResult<Vec<hit::GoldBlock>> {
    if protocol::for_task(spec.task).hit_plan() != HitPlan::Blocks || spec.settings.ranking.gold_blocks == 0 {
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
            spec.settings.ranking.gold_blocks
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

pub(super) fn build(spec: &Spec<'_>, cands: &[Candidate], gold: &[hit::GoldBlock]) -> AppResult<Vec<Hit>> {
    let s = spec.settings;
    if s.redundancy == 0 {
        return Err(problem("redundancy must be at least 1 worker per HIT"));
    }
    let built = match protocol::for_task(spec.task).hit_plan() {
        HitPlan::WordOrderPairs => hit::build_word_order_hits(
            cands,
            &WordOrderDesign {
                length: s.hit_length,
                permutations: s.word_order.permutations,
                same_reference_pairs_per_kind: s.word_order.same_reference_pairs,
                max_degree: s.word_order.max_degree,
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
        HitPlan::Pairs => hit::build_pair_hits(cands, &hit::PairDesign { pairs: s.hit_length, degraded: s.bad_refs, repeats: s.repeats }, wanted(s), spec.seed),
        HitPlan::Documents => return Err(AppError::internal("a task of documents is built from its documents (`plan`), not from candidates")),
    };
    built.map_err(|e| problem(e.to_string()))
}

/// A side of a pair as `hit_items` stores it.
pub(super) fn side_name(side: assay_core::protocol::pairwise::Side) -> &'static str {
    match side {
        assay_core::protocol::pairwise::Side::A => "a",
        assay_core::protocol::pairwise::Side::B => "b",
    }
}

/// The system id behind a candidate's system name (its label).
pub(super) fn system_id(m: &Material, name: &str) -> AppResult<i64> {
    m.labels
        .iter()
        .find(|(n, _, _)| n.as_str() == name)
        .map(|&(_, id, _)| id)
        .ok_or_else(|| AppError::internal(format!("the HIT builder returned an unknown system {name:?}")))
}

pub(super) fn parse_id(s: &str) -> AppResult<i64> {
    s.parse().map_err(|_| AppError::internal(format!("the HIT builder returned the segment id {s:?}")))
}

/// Turns built HITs into stored items: the texts shown and, for bad references, what changed.
pub(super) fn materialize(spec: &Spec<'_>, m: &Material, hits: Vec<Hit>) -> AppResult<Vec<PlannedHit>> {
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
            let (mut shown_text, degradation) = match item.item_type {
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
            let pair = match &item.pair {
                None => None,
                Some(p) => {
                    use assay_core::protocol::pairwise::Side;
                    let a = system.ok_or_else(|| AppError::internal("a pair item without a system"))?;
                    let b = system_id(m, &p.b)?;
                    // A degraded copy against its original: the copy is on the side recorded.
                    let (a_text, b_text) = match p.degraded {
                        None => (shown_text, output(b)?),
                        Some(Side::A) => (shown_text, output(b)?),
                        Some(Side::B) => (output(a)?, shown_text),
                    };
                    shown_text = a_text;
                    Some(PlannedPair { system_id: b, text: b_text, left: p.left, degraded: p.degraded })
                }
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
                pair,
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
pub(super) fn practice(spec: &Spec<'_>, m: &Material) -> AppResult<Vec<PlannedPractice>> {
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
        .map_err(|e| problem(e.to_string()))?;
    Ok(items.into_iter().map(|item| PlannedPractice { segment_id: ids[item.text], item }).collect())
}

/// What the built HITs give the reliability test per worker's HIT (issue 38): the minimum is
/// the analysis's ([`crate::analysis::QcSettings`]), with the gold check's for ranking.
pub(super) fn evidence_of(spec: &Spec<'_>, hits: &[Hit]) -> EvidencePlan {
    let s = spec.settings;
    let gold_min = if protocol::for_task(spec.task).hit_plan() == HitPlan::Blocks && s.ranking.gold_blocks > 0 { s.ranking.gold_min_pairs } else { 0 };
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
pub(super) struct Planned {
    pub(super) hits: Vec<PlannedHit>,
    pub(super) references: Vec<Option<String>>,
    pub(super) practice: Vec<PlannedPractice>,
    pub(super) evidence: EvidencePlan,
    pub(super) figures: crate::campaign::Implications,
}

pub(super) async fn plan(db: &Db, spec: &Spec<'_>) -> AppResult<Planned> {
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
        let per_word = spec.settings.documents.seconds_per_source_word;
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
