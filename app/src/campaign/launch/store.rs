//! Drafts in the database: creating, loading and updating a campaign's design, a study's
//! groups, and the stored campaign launching reads.

use super::*;

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
pub(super) async fn check_editable(db: &Db, campaign_id: i64, status: CampaignStatus) -> AppResult<()> {
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
