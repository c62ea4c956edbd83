//! Studies in the database: designing one (a campaign per language pair and task, whose HITs
//! mix the old and the new test set), reading them back, and launching their campaigns.

use super::{ArmInfo, StudyCheck, StudyDraft, StudyInfo, StudyPairDraft};
use crate::campaign::launch::{self, Group};
use crate::campaign::{CampaignDraft, CampaignSettings};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use crate::import::lang::LangCode;
use crate::model::{CampaignStatus, TaskKind};

crate::rows::row! {
    struct SetFacts {
        name: String,
        source_lang: String,
        target_lang: String,
        team_id: i64,
    }
}

/// Which test sets a caller may use (their teams', see `web::teams`); another team's is
/// answered as a missing one.
pub type Reach<'a> = &'a (dyn Fn(i64) -> bool + Sync);

async fn test_set(db: &Db, id: i64, reach: Reach<'_>) -> AppResult<SetFacts> {
    sqlx::query_as("SELECT name, source_lang, target_lang, team_id FROM test_sets WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading test set {id}"))?
        .filter(|_| reach(id))
        .ok_or_else(|| AppError::invalid("test_set_id", format!("there is no test set with id {id}")))
}

async fn system_name(db: &Db, id: i64) -> AppResult<String> {
    sqlx::query_scalar("SELECT name FROM systems WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading system {id}"))?
        .ok_or_else(|| AppError::invalid("system", format!("there is no system with id {id}")))
}

/// One campaign to create: its draft and groups.
struct PlannedArm {
    label: String,
    draft: CampaignDraft,
    task: TaskKind,
    groups: Vec<Group>,
    pair: StudyPairDraft,
}

fn english(code: &str) -> String {
    LangCode::parse(code).map(|c| c.english_name().to_string()).unwrap_or_else(|_| code.to_string())
}

/// The settings of one arm: the design's HIT settings with the task's wording (METHOD §1) in
/// the pair's languages.
fn arm_settings(s: &CampaignSettings, task: TaskKind, target: &str, source: &str) -> CampaignSettings {
    CampaignSettings {
        hit_length: s.hit_length,
        bad_refs: s.bad_refs,
        repeats: s.repeats,
        refs: s.refs,
        sets: s.sets,
        judgments_wanted: s.judgments_wanted,
        wanted_per: s.wanted_per,
        redundancy: s.redundancy,
        degradation: s.degradation,
        payment_per_hit: s.payment_per_hit,
        time_floor_seconds: s.time_floor_seconds,
        assignment_timeout_minutes: s.assignment_timeout_minutes,
        seconds_per_fluency_judgment: s.seconds_per_fluency_judgment,
        seconds_per_adequacy_judgment: s.seconds_per_adequacy_judgment,
        allow_skip: s.allow_skip,
        ..CampaignSettings::for_task(task, target, source)
    }
}

/// Checks a study design and plans every arm; the first problem of each kind stops it.
async fn plan_study(db: &Db, draft: &StudyDraft, reach: Reach<'_>) -> Result<Vec<PlannedArm>, Vec<String>> {
    let mut problems = Vec::new();
    if draft.name.trim().is_empty() {
        problems.push("give the study a name".to_string());
    } else if let Err(p) = assay_core::limits::check_name(draft.name.trim()) {
        problems.push(format!("the study's name {p}"));
    }
    if let Some(path) = serde_json::to_value(draft).ok().and_then(|v| assay_core::limits::nul_path(&v)) {
        problems.push(format!("{path} {}", assay_core::limits::TextProblem::Nul));
    }
    if draft.tasks.is_empty() {
        problems.push("choose at least one task (adequacy, fluency)".to_string());
    }
    let mut tasks = Vec::new();
    for t in &draft.tasks {
        // A study compares direct assessments: single items on a slider.
        let direct_assessment = TaskKind::parse(t).filter(|&k| assay_core::protocol::for_task(k).hit_plan() == assay_core::protocol::HitPlan::Items);
        match direct_assessment {
            None => {
                problems.push(format!("{t:?} is not a direct-assessment task (da-adequacy, da-fluency or da-source)"))
            }
            Some(k) if tasks.contains(&k) => problems.push(format!("task {t} is listed twice")),
            Some(k) => tasks.push(k),
        }
    }
    if draft.pairs.is_empty() {
        problems.push("add at least one language pair".to_string());
    }
    let mut arms = Vec::new();
    let mut team = None;
    for (i, p) in draft.pairs.iter().enumerate() {
        let n = i + 1;
        let (old, new) = match (test_set(db, p.old_test_set_id, reach).await, test_set(db, p.new_test_set_id, reach).await) {
            (Ok(o), Ok(n)) => (o, n),
            (Err(e), _) | (_, Err(e)) => {
                problems.push(format!("pair {n}: {e}"));
                continue;
            }
        };
        if p.old_test_set_id == p.new_test_set_id {
            problems.push(format!("pair {n}: the old and the new test set must differ (both are {})", old.name));
            continue;
        }
        // A study belongs to one team: its test sets' (the first pair's).
        let first = *team.get_or_insert(old.team_id);
        if old.team_id != first || new.team_id != first {
            problems.push(format!("pair {n}: the test sets {} and {} belong to another team than the first pair's: a study's test sets belong to one team", old.name, new.name));
            continue;
        }
        if (old.source_lang.as_str(), old.target_lang.as_str()) != (new.source_lang.as_str(), new.target_lang.as_str()) {
            problems.push(format!(
                "pair {n}: the old test set {} is {}-{} but the new test set {} is {}-{}: a comparison needs one language pair",
                old.name, old.source_lang, old.target_lang, new.name, new.source_lang, new.target_lang
            ));
            continue;
        }
        if p.benchmark == p.best_old || p.benchmark == p.best_new {
            problems.push(format!("pair {n}: the benchmark system must be another system than the best systems it calibrates"));
            continue;
        }
        let mut names = Vec::new();
        for id in [p.best_old, p.best_new, p.benchmark] {
            match system_name(db, id).await {
                Ok(s) => names.push(s),
                Err(e) => problems.push(format!("pair {n}: {e}")),
            }
        }
        if names.len() < 3 {
            continue;
        }
        let pair = format!("{}-{}", new.source_lang, new.target_lang);
        for &task in &tasks {
            let label = format!("{} · {} · {pair}", draft.name.trim(), task.as_str());
            let settings = arm_settings(&draft.settings, task, &english(&new.target_lang), &english(&new.source_lang));
            let campaign = CampaignDraft {
                name: label.clone(),
                task,
                test_set_id: p.new_test_set_id,
                reference_name: None,
                systems: vec![p.best_old, p.best_new, p.benchmark],
                benchmark_systems: vec![p.benchmark],
                seed: draft.seed,
                settings,
                gate: Default::default(),
            };
            if let Err(e) = launch::check_campaign_draft(&campaign) {
                problems.push(format!("{label}: {e}"));
                continue;
            }
            arms.push(PlannedArm {
                label,
                task,
                groups: vec![
                    Group { test_set_id: p.old_test_set_id, systems: vec![p.best_old, p.benchmark], reference: p.old_reference.clone() },
                    Group { test_set_id: p.new_test_set_id, systems: vec![p.best_new, p.benchmark], reference: p.new_reference.clone() },
                ],
                draft: campaign,
                pair: p.clone(),
            });
        }
    }
    if problems.is_empty() { Ok(arms) } else { Err(problems) }
}

/// What a study design gives (HITs per arm) or what stops it; stores nothing.
pub async fn check_study(db: &Db, draft: &StudyDraft, reach: Reach<'_>) -> StudyCheck {
    let arms = match plan_study(db, draft, reach).await {
        Ok(a) => a,
        Err(problems) => return StudyCheck { arms: Vec::new(), problems },
    };
    let mut check = StudyCheck::default();
    for a in &arms {
        match launch::plan_groups(db, a.task, &a.groups, &a.draft).await {
            Ok((hits, _)) => check.arms.push((a.label.clone(), hits)),
            Err(e) => {
                e.log();
                check.problems.push(format!("{}: {}", a.label, e.public_message()));
            }
        }
    }
    check
}

/// Stores a study and its campaigns (drafts) in one transaction, after checking that every
/// arm's HITs can be built. Returns the study id.
pub async fn create_study(db: &Db, draft: &StudyDraft, created_by: i64, reach: Reach<'_>) -> AppResult<i64> {
    let arms = plan_study(db, draft, reach).await.map_err(|p| AppError::invalid("draft", p.join("; ")))?;
    let mut references = Vec::with_capacity(arms.len());
    for a in &arms {
        let (_, chosen) = launch::plan_groups(db, a.task, &a.groups, &a.draft).await.map_err(|e| e.prefixed(&a.label))?;
        references.push(chosen);
    }
    let mut tx = db.writer.begin().await.context("storing a study")?;
    // The study belongs to its test sets' team (one, checked by plan_study).
    let team: i64 = match arms.first() {
        Some(a) => sqlx::query_scalar("SELECT team_id FROM test_sets WHERE id = $1")
            .bind(a.pair.old_test_set_id)
            .fetch_one(&db.pool)
            .await
            .context("reading a study's team")?,
        None => crate::auth::teams::DEFAULT_TEAM,
    };
    let study: i64 = sqlx::query_scalar("INSERT INTO studies (name, seed, created_by, created_at, team_id) VALUES ($1, $2, $3, $4, $5) RETURNING id")
        .bind(draft.name.trim())
        .bind(draft.seed)
        .bind(created_by)
        .bind(now_ms())
        .bind(team)
        .fetch_one(&mut *tx)
        .await
        .context("storing a study")?;
    for (a, chosen) in arms.iter().zip(references) {
        // Each test set's reference as resolved now (a later import cannot change what the arm
        // shows); the campaign's is the new test set's (its own test set).
        let (old_reference, new_reference) = (chosen.first().cloned().flatten(), chosen.get(1).cloned().flatten());
        let campaign = launch::insert_campaign(&mut tx, &a.draft, a.task, &a.groups, new_reference.clone(), created_by).await?;
        sqlx::query(
            "INSERT INTO study_arms (study_id, campaign_id, old_test_set_id, new_test_set_id, best_old, best_new, benchmark, old_reference, new_reference) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(study)
        .bind(campaign)
        .bind(a.pair.old_test_set_id)
        .bind(a.pair.new_test_set_id)
        .bind(a.pair.best_old)
        .bind(a.pair.best_new)
        .bind(a.pair.benchmark)
        .bind(old_reference)
        .bind(new_reference)
        .execute(&mut *tx)
        .await
        .context("storing a study")?;
    }
    tx.commit().await.context("storing a study")?;
    Ok(study)
}

/// Launches every draft campaign of a study (the HITs of each arm); returns HITs per arm.
pub async fn launch_study(db: &Db, study_id: i64) -> AppResult<Vec<(String, usize)>> {
    let s = load_study(db, study_id).await?;
    // Every draft campaign's HITs first, then all of them stored in one transaction: a study
    // is launched whole or not at all.
    let mut prepared = Vec::new();
    for a in s.arms.iter().filter(|a| a.status == CampaignStatus::Draft) {
        let p = launch::prepare_launch(db, a.campaign_id).await.map_err(|e| e.prefixed(&a.campaign).in_argument("study_id"))?;
        prepared.push((a.campaign.clone(), p));
    }
    if prepared.is_empty() {
        return Err(AppError::invalid("study_id", format!("every campaign of study {} was launched already", s.name)));
    }
    let mut tx = db.writer.begin().await.with_context(|| format!("launching study {study_id}"))?;
    let mut out = Vec::new();
    for (name, p) in &prepared {
        match launch::write_launch(&mut tx, p).await {
            Ok(summary) => out.push((name.clone(), summary.hits)),
            Err(e) => {
                tx.rollback().await.with_context(|| format!("launching study {study_id}"))?;
                return Err(e.prefixed(name).in_argument("study_id"));
            }
        }
    }
    tx.commit().await.with_context(|| format!("launching study {study_id}"))?;
    Ok(out)
}

crate::rows::row! {
    /// A row of [`load_study`]'s arms query.
    struct ArmRow {
        id: i64,
        name: String,
        status: CampaignStatus as String,
        task: TaskKind as String,
        old_set: String,
        old_year: Option<i64>,
        new_set: String,
        new_year: Option<i64>,
        source_lang: String,
        target_lang: String,
        best_old: String,
        best_new: String,
        benchmark: String,
        n: i64,
    }
}

/// A study with its arms.
/// An unknown study is [`AppError::NotFound`].
pub async fn load_study(db: &Db, study_id: i64) -> AppResult<StudyInfo> {
    let (id, name, seed): (i64, String, i64) = sqlx::query_as("SELECT id, name, seed FROM studies WHERE id = $1")
        .bind(study_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading study {study_id}"))?
        .ok_or_else(|| AppError::not_found(format!("there is no study with id {study_id}")))?;
    let rows: Vec<ArmRow> = sqlx::query_as(
        "SELECT c.id, c.name, c.status, c.task, o.name AS old_set, o.year AS old_year, n.name AS new_set, n.year AS new_year, \
         n.source_lang, n.target_lang, bo.name AS best_old, bn.name AS best_new, b.name AS benchmark, \
         (SELECT COUNT(*) FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id \
          WHERE h.campaign_id = c.id) AS n \
         FROM study_arms sa JOIN campaigns c ON c.id = sa.campaign_id \
         JOIN test_sets o ON o.id = sa.old_test_set_id JOIN test_sets n ON n.id = sa.new_test_set_id \
         JOIN systems bo ON bo.id = sa.best_old JOIN systems bn ON bn.id = sa.best_new JOIN systems b ON b.id = sa.benchmark \
         WHERE sa.study_id = $1 ORDER BY c.id",
    )
    .bind(study_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading study {study_id}"))?;
    let arms = rows
        .into_iter()
        .map(|r| ArmInfo {
            campaign_id: r.id,
            campaign: r.name,
            status: r.status,
            task: r.task,
            pair: format!("{}-{}", r.source_lang, r.target_lang),
            old_test_set: r.old_set,
            old_year: r.old_year,
            new_test_set: r.new_set,
            new_year: r.new_year,
            best_old: r.best_old,
            best_new: r.best_new,
            benchmark: r.benchmark,
            judgments: r.n,
        })
        .collect();
    Ok(StudyInfo { id, name, seed, arms })
}

/// Every study, newest first.
pub async fn list_studies(db: &Db) -> AppResult<Vec<StudyInfo>> {
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM studies ORDER BY id DESC")
        .fetch_all(&db.pool)
        .await
        .context("listing the studies")?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.push(load_study(db, id).await?);
    }
    Ok(out)
}
