//! Reading campaigns back: lists, the organizer's progress numbers and an annotator's queue.

use crate::campaign::assign::worker_for_user;
use crate::signing::link_signature;
use crate::campaign::launch::load_campaign;
use crate::campaign::{AnnotatorProgress, CampaignInfo, CampaignProgress, HitItemView, MAX_ANNOTATORS_SHOWN, QueueEntry};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{AssignmentStatus, CampaignStatus, TaskKind};

const CAMPAIGN_COLUMNS: &str = "SELECT c.id, c.public_id, c.name, c.task, c.status, t.name AS test_set, t.source_lang, t.target_lang, \
     (SELECT COUNT(*) FROM hits h WHERE h.campaign_id = c.id) AS hits FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id";

crate::rows::row! {
    /// A row of [`CAMPAIGN_COLUMNS`]. The status stays the stored name: [`CampaignInfo`] carries it
    /// to the pages as text.
    struct CampaignInfoRow {
        id: i64,
        public_id: String,
        name: String,
        task: TaskKind as String,
        status: String,
        test_set: String,
        source_lang: String,
        target_lang: String,
        hits: i64,
    }
}

impl From<CampaignInfoRow> for CampaignInfo {
    fn from(r: CampaignInfoRow) -> Self {
        CampaignInfo {
            id: r.id,
            public_id: r.public_id,
            name: r.name,
            task: r.task,
            status: r.status,
            test_set: r.test_set,
            pair: format!("{}-{}", r.source_lang, r.target_lang),
            hits: r.hits,
        }
    }
}

/// Every campaign, newest first.
pub async fn list_campaigns(db: &Db) -> AppResult<Vec<CampaignInfo>> {
    let sql = format!("{CAMPAIGN_COLUMNS} ORDER BY c.id DESC");
    let rows: Vec<CampaignInfoRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(&db.pool).await.context("listing the campaigns")?;
    Ok(rows.into_iter().map(CampaignInfo::from).collect())
}

/// One campaign.
/// An unknown campaign is [`AppError::NotFound`].
pub async fn campaign_info_of(db: &Db, campaign_id: i64) -> AppResult<CampaignInfo> {
    let sql = format!("{CAMPAIGN_COLUMNS} WHERE c.id = $1");
    let row: CampaignInfoRow = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading campaign {campaign_id}"))?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    Ok(row.into())
}

/// The signed crowd link of a campaign.
pub fn crowd_link(public_url: &str, secret: &[u8], campaign_public_id: &str) -> String {
    format!("{}/c/{campaign_public_id}?sig={}", public_url.trim_end_matches('/'), link_signature(secret, campaign_public_id))
}

crate::rows::row! {
    /// How many assignments of a campaign have a status.
    struct StatusCount {
        status: AssignmentStatus as String,
        n: i64,
    }
}

/// What an organizer watches while people work.
/// An unknown campaign is [`AppError::NotFound`].
pub async fn progress(db: &Db, campaign_id: i64, public_url: &str, secret: &[u8]) -> AppResult<CampaignProgress> {
    let info = campaign_info_of(db, campaign_id).await?;
    let c = load_campaign(db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?;
    crate::campaign::assign::expire_idle(db, campaign_id).await?;
    let k = c.settings.redundancy.max(1) as i64;
    let what = || format!("reading the progress of campaign {campaign_id}");
    let rows: Vec<StatusCount> = sqlx::query_as(
        "SELECT a.status, COUNT(*) AS n FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 GROUP BY a.status",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let launched = c.status != CampaignStatus::Draft;
    let mut p = CampaignProgress {
        redundancy: k,
        crowd_link: launched.then(|| crowd_link(public_url, secret, &info.public_id)),
        ..Default::default()
    };
    for StatusCount { status, n } in rows {
        match status {
            AssignmentStatus::Completed => p.done = n,
            AssignmentStatus::Active => p.in_progress = n,
            AssignmentStatus::Expired | AssignmentStatus::Returned => p.expired += n,
        }
    }
    p.open = (info.hits * k - p.done - p.in_progress).max(0);
    (p.workers_total, p.workers_active) = sqlx::query_as(
        "SELECT COUNT(DISTINCT a.worker_id) AS total, COUNT(DISTINCT CASE WHEN a.status = $2 THEN a.worker_id END) AS active \
         FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .bind(AssignmentStatus::Active.as_str())
    .fetch_one(&db.pool)
    .await
    .with_context(what)?;
    // (name, planned, judged): the SYSTEM items of each system, and their judgments.
    let per_system: Vec<(String, i64, i64)> = sqlx::query_as(
        "SELECT y.name, \
           (SELECT COUNT(*) FROM hit_items i JOIN hits h ON h.id = i.hit_id WHERE h.campaign_id = $1 AND i.system_id = y.id AND i.item_type = 'SYSTEM') AS planned, \
           (SELECT COUNT(*) FROM judgments j JOIN hit_items i ON i.id = j.hit_item_id JOIN hits h ON h.id = i.hit_id WHERE h.campaign_id = $1 AND i.system_id = y.id AND i.item_type = 'SYSTEM') AS judged \
         FROM campaign_systems cs JOIN systems y ON y.id = cs.system_id WHERE cs.campaign_id = $1 ORDER BY y.name",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    for (name, planned, judged) in per_system {
        p.per_system.push((name, judged, planned * k));
    }
    p.judgments = sqlx::query_scalar(
        "SELECT COUNT(*) AS n FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_one(&db.pool)
    .await
    .with_context(what)?;
    (p.annotators, p.annotators_total) = annotators(db, campaign_id).await?;
    p.campaign = Some(info);
    Ok(p)
}

crate::rows::row! {
    /// A row of the per-annotator query.
    struct AnnotatorRow {
        id: i64,
        platform: String,
        external_id: String,
        email: Option<String>,
        done: i64,
        in_progress: i64,
        left_over: i64,
        last_seen: i64,
    }
}

/// Each annotator's HITs (finished, in progress, given back or expired), judgments and time on
/// screen in a campaign, the most recently active first, at most [`MAX_ANNOTATORS_SHOWN`]; and
/// how many annotators there are in all.
async fn annotators(db: &Db, campaign_id: i64) -> AppResult<(Vec<AnnotatorProgress>, i64)> {
    let what = || format!("reading the annotators of campaign {campaign_id}");
    let rows: Vec<AnnotatorRow> = sqlx::query_as(
        "SELECT w.id, w.platform, w.external_id, u.email, \
           SUM(CASE WHEN a.status = $2 THEN 1 ELSE 0 END) AS done, \
           SUM(CASE WHEN a.status = $3 THEN 1 ELSE 0 END) AS in_progress, \
           SUM(CASE WHEN a.status IN ($4, $5) THEN 1 ELSE 0 END) AS left_over, \
           MAX(a.last_seen_at) AS last_seen \
         FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN workers w ON w.id = a.worker_id LEFT JOIN users u ON u.id = w.user_id \
         WHERE h.campaign_id = $1 GROUP BY w.id, w.platform, w.external_id, u.email ORDER BY last_seen DESC, w.id",
    )
    .bind(campaign_id)
    .bind(AssignmentStatus::Completed.as_str())
    .bind(AssignmentStatus::Active.as_str())
    .bind(AssignmentStatus::Expired.as_str())
    .bind(AssignmentStatus::Returned.as_str())
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let total = rows.len() as i64;
    let shown: Vec<AnnotatorRow> = rows.into_iter().take(MAX_ANNOTATORS_SHOWN as usize).collect();
    if shown.is_empty() {
        return Ok((Vec::new(), 0));
    }
    // (worker, judgments, milliseconds on screen) of the listed annotators (ids written into
    // the SQL: integers only).
    let ids = shown.iter().map(|r| r.id.to_string()).collect::<Vec<_>>().join(",");
    let work: Vec<(i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT a.worker_id, COUNT(j.id) AS n, CAST(COALESCE(SUM(j.time_on_screen_ms), 0) AS BIGINT) AS ms \
         FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id \
         WHERE h.campaign_id = $1 AND a.worker_id IN ({ids}) GROUP BY a.worker_id"
    )))
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let work: std::collections::HashMap<i64, (i64, i64)> = work.into_iter().map(|(w, n, ms)| (w, (n, ms))).collect();
    let out = shown
        .into_iter()
        .map(|r| {
            let (judgments, ms) = work.get(&r.id).copied().unwrap_or((0, 0));
            AnnotatorProgress {
                worker: format!("{}:{}", r.platform, r.external_id),
                email: r.email,
                done: r.done,
                in_progress: r.in_progress,
                left: r.left_over,
                judgments,
                seconds: ms as f64 / 1000.0,
                last_seen: r.last_seen,
            }
        })
        .collect();
    Ok((out, total))
}

crate::rows::row! {
    /// A launched campaign as [`queue`] reads it.
    struct QueueCampaignRow {
        id: i64,
        name: String,
        task: TaskKind as String,
        source_lang: String,
        target_lang: String,
    }
}

/// Launched campaigns with work for an account: an assignment in progress, or a free slot of a
/// HIT the annotator has not had.
pub async fn queue(db: &Db, user_id: i64) -> AppResult<Vec<QueueEntry>> {
    let worker = worker_for_user(db, user_id).await?;
    let what = || format!("reading the queue of account {user_id}");
    let blocked: i64 = sqlx::query_scalar("SELECT blocked FROM workers WHERE id = $1")
        .bind(worker)
        .fetch_one(&db.pool)
        .await
        .with_context(what)?;
    if blocked != 0 {
        return Ok(Vec::new());
    }
    let rows: Vec<QueueCampaignRow> = sqlx::query_as(
        "SELECT c.id, c.name, c.task, t.source_lang, t.target_lang FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.status = $1 ORDER BY c.id",
    )
    .bind(CampaignStatus::Launched.as_str())
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let mut out = Vec::new();
    for r in rows {
        let id = r.id;
        let c = load_campaign(db, id).await?;
        let k = c.settings.redundancy.max(1) as i64;
        let active: Option<String> = sqlx::query_scalar(
            "SELECT a.public_id FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2 AND a.status = $3 LIMIT 1",
        )
        .bind(id)
        .bind(worker)
        .bind(AssignmentStatus::Active.as_str())
        .fetch_optional(&db.pool)
        .await
        .with_context(what)?;
        let completed: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2 AND a.status = $3",
        )
        .bind(id)
        .bind(worker)
        .bind(AssignmentStatus::Completed.as_str())
        .fetch_one(&db.pool)
        .await
        .with_context(what)?;
        let free: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) AS n FROM hits h WHERE h.campaign_id = $1 \
             AND NOT EXISTS (SELECT 1 FROM assignments b WHERE b.hit_id = h.id AND b.worker_id = $2) \
             AND (SELECT COUNT(*) FROM assignments c WHERE c.hit_id = h.id AND c.status IN ($4, $5)) < $3",
        )
        .bind(id)
        .bind(worker)
        .bind(k)
        .bind(AssignmentStatus::Active.as_str())
        .bind(AssignmentStatus::Completed.as_str())
        .fetch_one(&db.pool)
        .await
        .with_context(what)?;
        if active.is_some() || free > 0 {
            out.push(QueueEntry {
                campaign_id: id,
                name: r.name,
                task: r.task,
                pair: format!("{}-{}", r.source_lang, r.target_lang),
                active,
                completed_hits: completed,
                minutes_per_hit: c.settings.hit_length as f64 * c.settings.seconds_per_judgment(c.task) / 60.0,
            });
        }
    }
    Ok(out)
}

/// The items of one HIT, in order, with the texts they were made from.
pub async fn hit_items(db: &Db, campaign_id: i64, hit_index: i64) -> AppResult<Vec<HitItemView>> {
    let c = load_campaign(db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?;
    let rows: Vec<HitItemView> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT i.position, i.item_type, y.name AS system, i.segment_id, s.segment_key, i.paired_position, i.shown_text, i.degradation, \
           (SELECT o.text FROM system_outputs o WHERE o.system_id = i.system_id AND o.segment_id = i.segment_id) AS output, \
           (SELECT r.text FROM segment_references r WHERE r.segment_id = i.segment_id AND r.name = {}) AS reference \
         FROM hit_items i JOIN hits h ON h.id = i.hit_id JOIN segments s ON s.id = i.segment_id LEFT JOIN systems y ON y.id = i.system_id \
         WHERE h.campaign_id = $1 AND h.hit_index = $2 ORDER BY i.position",
        crate::campaign::launch::item_reference_sql("h.campaign_id", "i.segment_id", "CAST($3 AS TEXT)")
    )))
    .bind(campaign_id)
    .bind(hit_index)
    .bind(c.reference_name)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading HIT {hit_index} of campaign {campaign_id}"))?;
    if rows.is_empty() {
        return Err(AppError::invalid("hit_index", format!("campaign {campaign_id} has no HIT {hit_index}")));
    }
    Ok(rows)
}
