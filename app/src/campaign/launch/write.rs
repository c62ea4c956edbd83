//! Launching: a draft campaign's HITs prepared (reads only) and written in one transaction.

use super::*;

/// A draft campaign with its HITs built, ready to be stored by [`write_launch`].
pub struct PreparedLaunch {
    pub(super) campaign_id: i64,
    pub(super) name: String,
    pub(super) hits: Vec<PlannedHit>,
    pub(super) practice: Vec<PlannedPractice>,
    /// An adaptive design's settings with its budget resolved, stored at launch.
    pub(super) adaptive_settings: Option<String>,
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
    // An adaptive design keeps the warm-up HITs only; the rest are built when work is handed out.
    let (hits, adaptive_settings) = super::adaptive::at_launch(&spec, hits)?;
    Ok(PreparedLaunch { campaign_id, name: c.name, hits, practice, adaptive_settings, evidence })
}

/// Stores a prepared campaign's HITs and items and marks it launched, in the caller's
/// transaction (a study launches all its campaigns in one).
pub async fn write_launch(tx: &mut sqlx::Transaction<'static, sqlx::Any>, prepared: &PreparedLaunch) -> AppResult<LaunchSummary> {
    let PreparedLaunch { campaign_id, name, hits, practice, adaptive_settings, .. } = prepared;
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
    if let Some(settings) = adaptive_settings {
        sqlx::query("UPDATE campaigns SET settings = $1 WHERE id = $2")
            .bind(settings)
            .bind(campaign_id)
            .execute(&mut **tx)
            .await
            .context("storing the budget of an adaptive campaign")?;
    }
    for h in hits {
        insert_hit(tx, campaign_id, h, &mut summary).await.context("storing the HITs of a launched campaign")?;
    }
    for (position, p) in practice.iter().enumerate() {
        let it = &p.item;
        sqlx::query(
            "INSERT INTO practice_items (campaign_id, position, segment_id, context, candidate, expect_high, \
             expect_low1, expect_high1, expect_low2, expect_high2, reason, others, original_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
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
        .bind((!it.others.is_empty()).then(|| serde_json::to_string(&it.others).expect("a list of strings serialises")))
        .bind(it.original.map(|o| o as i64))
        .execute(&mut **tx)
        .await
        .context("storing the practice items of a launched campaign")?;
    }
    Ok(summary)
}

/// Stores one HIT and its items in the caller's transaction, counting them in `summary` (the
/// launch's HITs, and an adaptive campaign's HITs built on demand). A HIT index the campaign
/// has already is a unique violation (`hits (campaign_id, hit_index)`).
pub(super) async fn insert_hit(tx: &mut sqlx::Transaction<'static, sqlx::Any>, campaign_id: i64, h: &PlannedHit, summary: &mut LaunchSummary) -> Result<(), sqlx::Error> {
    let hit_id: i64 = sqlx::query_scalar("INSERT INTO hits (campaign_id, hit_index, item_count) VALUES ($1, $2, $3) RETURNING id")
        .bind(campaign_id)
        .bind(h.index as i64)
        .bind(h.items.len() as i64)
        .fetch_one(&mut **tx)
        .await?;
    // Items in batches of 50 rows per statement (16 values each).
    for chunk in h.items.chunks(50) {
        let mut sql = String::from(
            "INSERT INTO hit_items (hit_id, position, item_type, system_id, segment_id, paired_position, shown_text, degradation, screen, unit, gold_rank, prefilled, pair_system_id, pair_text, pair_left, pair_degraded) VALUES ",
        );
        for i in 0..chunk.len() {
            let b = i * 16;
            if i > 0 {
                sql.push_str(", ");
            }
            let values: Vec<String> = (1..=16).map(|k| format!("${}", b + k)).collect();
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
                .bind(it.prefilled.clone())
                .bind(it.pair.as_ref().map(|p| p.system_id))
                .bind(it.pair.as_ref().map(|p| p.text.clone()))
                .bind(it.pair.as_ref().map(|p| side_name(p.left)))
                .bind(it.pair.as_ref().and_then(|p| p.degraded).map(side_name));
            *summary.per_type.entry(if it.gold.is_some() { "GOLD".to_string() } else { it.item_type.wmt_name().to_string() }).or_default() += 1;
            summary.items += 1;
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}
