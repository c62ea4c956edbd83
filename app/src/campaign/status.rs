//! Reading campaigns back: lists, the organizer's progress numbers and an annotator's queue.

use crate::campaign::assign::worker_for_user;
use crate::signing::link_signature;
use crate::campaign::launch::load_campaign;
use crate::campaign::{CampaignInfo, CampaignProgress, HitItemView, QueueEntry};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use sqlx::Row;


const CAMPAIGN_COLUMNS: &str = "SELECT c.id, c.public_id, c.name, c.task, c.status, t.name AS test_set, t.source_lang, t.target_lang, \
     (SELECT COUNT(*) FROM hits h WHERE h.campaign_id = c.id) AS hits FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id";

fn campaign_info(r: &sqlx::any::AnyRow) -> Result<CampaignInfo, sqlx::Error> {
    let src: String = r.try_get("source_lang")?;
    let tgt: String = r.try_get("target_lang")?;
    Ok(CampaignInfo {
        id: r.try_get("id")?,
        public_id: r.try_get("public_id")?,
        name: r.try_get("name")?,
        task: r.try_get("task")?,
        status: r.try_get("status")?,
        test_set: r.try_get("test_set")?,
        pair: format!("{src}-{tgt}"),
        hits: r.try_get("hits")?,
    })
}

/// Every campaign, newest first.
pub async fn list_campaigns(db: &Db) -> AppResult<Vec<CampaignInfo>> {
    let sql = format!("{CAMPAIGN_COLUMNS} ORDER BY c.id DESC");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&db.pool).await.context("listing the campaigns")?;
    rows.iter().map(campaign_info).collect::<Result<_, _>>().context("listing the campaigns")
}

/// One campaign.
/// An unknown campaign is [`AppError::NotFound`].
pub async fn campaign_info_of(db: &Db, campaign_id: i64) -> AppResult<CampaignInfo> {
    let sql = format!("{CAMPAIGN_COLUMNS} WHERE c.id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading campaign {campaign_id}"))?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    campaign_info(&row).with_context(|| format!("reading campaign {campaign_id}"))
}

/// The signed crowd link of a campaign.
pub fn crowd_link(public_url: &str, secret: &[u8], campaign_public_id: &str) -> String {
    format!("{}/c/{campaign_public_id}?sig={}", public_url.trim_end_matches('/'), link_signature(secret, campaign_public_id))
}

/// What an organizer watches while people work.
/// An unknown campaign is [`AppError::NotFound`].
pub async fn progress(db: &Db, campaign_id: i64, public_url: &str, secret: &[u8]) -> AppResult<CampaignProgress> {
    let info = campaign_info_of(db, campaign_id).await?;
    let c = load_campaign(db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?;
    crate::campaign::assign::expire_idle(db, campaign_id).await?;
    let k = c.settings.redundancy.max(1) as i64;
    let rows = sqlx::query(
        "SELECT a.status, COUNT(*) AS n FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 GROUP BY a.status",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    let mut p = CampaignProgress { redundancy: k, crowd_link: crowd_link(public_url, secret, &info.public_id), ..Default::default() };
    for r in rows {
        let status: String = r.try_get("status").with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
        let n: i64 = r.try_get("n").with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
        match status.as_str() {
            "completed" => p.done = n,
            "active" => p.in_progress = n,
            "expired" | "returned" => p.expired += n,
            _ => {}
        }
    }
    p.open = (info.hits * k - p.done - p.in_progress).max(0);
    let workers = sqlx::query(
        "SELECT COUNT(DISTINCT a.worker_id) AS total, COUNT(DISTINCT CASE WHEN a.status = 'active' THEN a.worker_id END) AS active \
         FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_one(&db.pool)
    .await
    .with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    p.workers_total = workers.try_get("total").with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    p.workers_active = workers.try_get("active").with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    let per_system = sqlx::query(
        "SELECT y.name, \
           (SELECT COUNT(*) FROM hit_items i JOIN hits h ON h.id = i.hit_id WHERE h.campaign_id = $1 AND i.system_id = y.id AND i.item_type = 'SYSTEM') AS planned, \
           (SELECT COUNT(*) FROM judgments j JOIN hit_items i ON i.id = j.hit_item_id JOIN hits h ON h.id = i.hit_id WHERE h.campaign_id = $1 AND i.system_id = y.id AND i.item_type = 'SYSTEM') AS judged \
         FROM campaign_systems cs JOIN systems y ON y.id = cs.system_id WHERE cs.campaign_id = $1 ORDER BY y.name",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    for r in per_system {
        let planned: i64 = r.try_get("planned").with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
        p.per_system.push((r.try_get("name").with_context(|| format!("reading the progress of campaign {campaign_id}"))?, r.try_get("judged").with_context(|| format!("reading the progress of campaign {campaign_id}"))?, planned * k));
    }
    p.judgments = sqlx::query(
        "SELECT COUNT(*) AS n FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_one(&db.pool)
    .await
    .with_context(|| format!("reading the progress of campaign {campaign_id}"))?
    .try_get("n")
    .with_context(|| format!("reading the progress of campaign {campaign_id}"))?;
    p.campaign = Some(info);
    Ok(p)
}

/// Launched campaigns with work for an account: an assignment in progress, or a free slot of a
/// HIT the annotator has not had.
pub async fn queue(db: &Db, user_id: i64) -> AppResult<Vec<QueueEntry>> {
    let worker = worker_for_user(db, user_id).await?;
    let blocked: i64 = sqlx::query("SELECT blocked FROM workers WHERE id = $1")
        .bind(worker)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the queue of account {user_id}"))?
        .try_get("blocked")
        .with_context(|| format!("reading the queue of account {user_id}"))?;
    if blocked != 0 {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT c.id, c.name, c.task, t.source_lang, t.target_lang FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.status = 'launched' ORDER BY c.id",
    )
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the queue of account {user_id}"))?;
    let mut out = Vec::new();
    for r in rows {
        let id: i64 = r.try_get("id").with_context(|| format!("reading the queue of account {user_id}"))?;
        let c = load_campaign(db, id).await?;
        let k = c.settings.redundancy.max(1) as i64;
        let active: Option<String> = sqlx::query(
            "SELECT a.public_id FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2 AND a.status = 'active' LIMIT 1",
        )
        .bind(id)
        .bind(worker)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading the queue of account {user_id}"))?
        .map(|r| r.try_get("public_id"))
        .transpose()
        .with_context(|| format!("reading the queue of account {user_id}"))?;
        let completed: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.worker_id = $2 AND a.status = 'completed'",
        )
        .bind(id)
        .bind(worker)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the queue of account {user_id}"))?
        .try_get("n")
        .with_context(|| format!("reading the queue of account {user_id}"))?;
        let free: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM hits h WHERE h.campaign_id = $1 \
             AND NOT EXISTS (SELECT 1 FROM assignments b WHERE b.hit_id = h.id AND b.worker_id = $2) \
             AND (SELECT COUNT(*) FROM assignments c WHERE c.hit_id = h.id AND c.status IN ('active', 'completed')) < $3",
        )
        .bind(id)
        .bind(worker)
        .bind(k)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the queue of account {user_id}"))?
        .try_get("n")
        .with_context(|| format!("reading the queue of account {user_id}"))?;
        if active.is_some() || free > 0 {
            let src: String = r.try_get("source_lang").with_context(|| format!("reading the queue of account {user_id}"))?;
            let tgt: String = r.try_get("target_lang").with_context(|| format!("reading the queue of account {user_id}"))?;
            out.push(QueueEntry {
                campaign_id: id,
                name: r.try_get("name").with_context(|| format!("reading the queue of account {user_id}"))?,
                task: r.try_get("task").with_context(|| format!("reading the queue of account {user_id}"))?,
                pair: format!("{src}-{tgt}"),
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
    let rows = sqlx::query(
        "SELECT i.position, i.item_type, y.name AS system, i.segment_id, s.segment_key, i.paired_position, i.shown_text, i.degradation, \
           (SELECT o.text FROM system_outputs o WHERE o.system_id = i.system_id AND o.segment_id = i.segment_id) AS output, \
           (SELECT r.text FROM segment_references r WHERE r.segment_id = i.segment_id AND r.name = $3) AS reference \
         FROM hit_items i JOIN hits h ON h.id = i.hit_id JOIN segments s ON s.id = i.segment_id LEFT JOIN systems y ON y.id = i.system_id \
         WHERE h.campaign_id = $1 AND h.hit_index = $2 ORDER BY i.position",
    )
    .bind(campaign_id)
    .bind(hit_index)
    .bind(c.reference_name.unwrap_or_default())
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading HIT {hit_index} of campaign {campaign_id}"))?;
    if rows.is_empty() {
        return Err(AppError::invalid("hit_index", format!("campaign {campaign_id} has no HIT {hit_index}")));
    }
    rows.iter()
        .map(|r| {
            Ok(HitItemView {
                position: r.try_get("position")?,
                item_type: r.try_get("item_type")?,
                system: r.try_get("system")?,
                segment_id: r.try_get("segment_id")?,
                segment_key: r.try_get("segment_key")?,
                paired_position: r.try_get("paired_position")?,
                shown_text: r.try_get("shown_text")?,
                degradation: r.try_get("degradation")?,
                output: r.try_get("output")?,
                reference: r.try_get("reference")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .with_context(|| format!("reading HIT {hit_index} of campaign {campaign_id}"))
}
