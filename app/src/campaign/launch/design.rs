//! The limits and checks of a draft, the designer's check (implications, problems, degraded
//! samples) and the dry run.

use super::*;

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
pub(super) fn check_texts(draft: &CampaignDraft) -> AppResult<()> {
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

pub(super) fn check_draft(draft: &CampaignDraft) -> AppResult<TaskKind> {
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
        (s.word_order.permutations, "permuted references"),
        (s.word_order.same_reference_pairs, "same-reference pairs"),
        (s.word_order.max_degree, "the highest permutation degree"),
        (s.ranking.blocks_per_screen, "segments per screen"),
        (s.ranking.outputs, "outputs ranked together"),
        (s.ranking.gold_blocks, "gold blocks"),
        (s.ranking.gold_min_pairs, "gold pairs for a verdict"),
    ] {
        if count > MAX_HIT_LENGTH {
            return Err(problem(format!("{what} per HIT are at most {MAX_HIT_LENGTH}")));
        }
    }
    if protocol::for_task(task).hit_plan() == HitPlan::Blocks && s.items_per_hit(task) > MAX_HIT_LENGTH {
        return Err(problem(format!(
            "a ranking HIT of {} screens × {} segments × {} outputs has more than {MAX_HIT_LENGTH} items",
            s.hit_length, s.ranking.blocks_per_screen, s.ranking.outputs
        )));
    }
    if !(0.0..=1.0).contains(&s.ranking.gold_threshold) {
        return Err(problem(format!("the gold agreement to pass is between 0 and 1, not {}", s.ranking.gold_threshold)));
    }
    protocol::check_blocks(task, s.ranking.outputs, s.ranking.blocks_per_screen).map_err(problem)?;
    if !protocol::ranks_blocks(task) && s.ranking.gold_blocks > 0 {
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
    if !matches!(s.word_order.scale.as_str(), "boxes" | "sliders") {
        return Err(problem(format!("the word-order scale must be \"boxes\" or \"sliders\", not {:?}", s.word_order.scale)));
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
        return Err(problem(format!("practice items are not available for {} yet: set practice items to 0", protocol::for_task(task).name())));
    }
    if protocol::for_task(task).span_scheme() == Some(protocol::Scheme::Mqm) {
        s.mqm.weights.validate().map_err(|e| problem(format!("the MQM weights: {e}")))?;
        if s.mqm.taxonomy.to_text().trim().is_empty() {
            return Err(problem("MQM needs at least one error category"));
        }
    }
    if task.marks_spans() {
        if !(s.documents.hit_minutes.is_finite() && (1.0..=600.0).contains(&s.documents.hit_minutes)) {
            return Err(problem(format!("a HIT's expected time is 1 to 600 minutes, not {}", s.documents.hit_minutes)));
        }
        if s.documents.hit_words > 100_000 {
            return Err(problem(format!("a HIT holds at most 100000 source words, not {}", s.documents.hit_words)));
        }
        if !(s.documents.seconds_per_source_word.is_finite() && s.documents.seconds_per_source_word > 0.0 && s.documents.seconds_per_source_word <= 60.0) {
            return Err(problem(format!("the seconds per source word are more than 0 and at most 60, not {}", s.documents.seconds_per_source_word)));
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
/// The dry run of a draft: its HIT design simulated with `crowd` a few times (fewer for bigger
/// designs) with the protocol's own HITs, answers and quality control, each run analysed as the
/// campaign's results would be. Refused, naming the field, for a crowd that cannot be simulated
/// or a task the simulator does not model (word order).
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
    // The test set's documents and source lengths: a design of documents is simulated on
    // documents of its mean length (a segment without a document is a document of its own, as
    // the launch counts them).
    let rows: Vec<(Option<String>, String)> = sqlx::query_as("SELECT document, source FROM segments WHERE test_set_id = $1")
        .bind(draft.test_set_id)
        .fetch_all(&db.pool)
        .await
        .context("reading the test set's segments")?;
    let segments = rows.len();
    if segments == 0 {
        return Err(AppError::invalid("test_set_id", "choose a test set with segments"));
    }
    let s = &draft.settings;
    let plan = protocol::for_task(task).hit_plan();
    let documents = (plan == HitPlan::Documents).then(|| {
        let mut named = std::collections::HashSet::new();
        let mut alone = 0;
        for (document, _) in &rows {
            match document.as_deref().map(str::trim) {
                Some(d) if !d.is_empty() => {
                    named.insert(d);
                }
                _ => alone += 1,
            }
        }
        let words: usize = rows.iter().map(|(_, source)| tokenize(source, Segmentation::choose(source, None)).len().max(1)).sum();
        assay_core::simulate::dry_run::DocumentsShape {
            design: document_design(s),
            segments_per_document: segments.div_ceil(named.len() + alone).max(1),
            source_words: words.div_ceil(segments).max(1),
        }
    });
    let design = DryRunDesign {
        task,
        design: HitDesign { length: s.hit_length, bad_refs: s.bad_refs, repeats: s.repeats, refs: s.refs, sets: s.sets },
        // The protocol's own HITs: a ranking design is simulated as screens of blocks, a design
        // of documents as documents, a pairwise one as pairs, a word-order one with its
        // permuted references.
        ranking: (plan == HitPlan::Blocks).then(|| ranking_design(s)),
        documents,
        pairs: (plan == HitPlan::Pairs).then_some(hit::PairDesign { pairs: s.hit_length, degraded: s.bad_refs, repeats: s.repeats }),
        word_order: (plan == HitPlan::WordOrderPairs).then(|| hit::WordOrderDesign {
            length: s.hit_length,
            permutations: s.word_order.permutations,
            same_reference_pairs_per_kind: s.word_order.same_reference_pairs,
            max_degree: s.word_order.max_degree,
        }),
        // Who leaves the scores, as the campaign's results will decide it.
        exclusion: assay_core::analysis::ExclusionPolicy::from(s.thin_evidence_with(draft.gate)),
        wanted: wanted(s),
        redundancy: s.redundancy.max(1),
        systems: draft.systems.len(),
        segments,
    };
    let implied = s.implications(task, draft.systems.len(), segments);
    let judgments = implied.assignments.saturating_mul(s.hit_length).max(1);
    if judgments > 3_000_000 {
        return Err(AppError::invalid("settings", format!("a design of {judgments} judgments is too big to dry-run here")));
    }
    // About two million simulated judgments in all: fewer runs of a bigger design.
    let runs = (2_000_000 / judgments).clamp(2, 10);
    let crowd = crowd.clone();
    let seed = draft.seed as u64;
    // An adaptive design: its expected cost beside the uniform design's (issue 39 item 5).
    let adaptive = s.adaptive.enabled.then(|| assay_core::adaptive::dry_run::AdaptiveDryRunInput {
        design: design.design.clone(),
        adaptive: s.adaptive,
        systems: draft.systems.len(),
        uniform_assignments: implied.assignments,
        payment_per_hit: s.payment_per_hit,
    });
    tokio::task::spawn_blocking(move || {
        let mut report = simulate_runs(&design, &crowd, runs, seed).map_err(|e| AppError::invalid("settings", e.to_string()))?;
        if let Some(input) = adaptive {
            let both = assay_core::adaptive::dry_run::adaptive_dry_run(&input, &crowd, runs, seed).map_err(|e| AppError::invalid("adaptive", e.to_string()))?;
            report.adaptive = Some(both);
        }
        Ok(report)
    })
    .await
    .map_err(|e| AppError::internal(format!("the dry run failed: {e}")))?
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
    // An adaptive design's numbers and protocol (issue 39).
    if let Err(e) = super::adaptive::check(&spec) {
        check.problems.push(problem_of(e)?);
    }
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
pub(super) fn samples(spec: &Spec<'_>, m: &Material) -> Vec<DegradedSample> {
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
                Ok((text, change)) => (DegradedText::Copy(text), change),
                Err(e) => (DegradedText::Refused(e.to_string()), String::new()),
            };
            DegradedSample { system: m.system_names.get(&sys).cloned().unwrap_or_default(), original: p.original, degraded, change }
        })
        .collect()
}
