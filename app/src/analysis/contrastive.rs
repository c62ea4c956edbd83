//! A contrastive ESA campaign's scores read for its paired comparisons within screens
//! (`assay_core::analysis::contrastive`): each answered system output's screen (its assignment
//! and `hit_items.screen`), segment, system, worker and score. One query, the same on both
//! engines. Degraded copies and repeated screens are quality control: left out here.

use crate::db::Db;
use crate::error::{AppResult, StorageContext};
use assay_core::analysis::contrastive::ScreenScore;

crate::rows::row! {
    /// One scored system output of a contrastive screen.
    struct ScreenRow {
        worker: String,
        assignment: i64,
        screen: Option<i64>,
        segment: String,
        system: String,
        score: Option<f64>,
    }
}

/// The scored system outputs of campaign `campaign_id` (skipped answers left out), in id order.
pub async fn read(db: &Db, campaign_id: i64) -> AppResult<Vec<ScreenScore>> {
    let rows: Vec<ScreenRow> = sqlx::query_as(
        "SELECT w.platform || ':' || w.external_id AS worker, j.assignment_id AS assignment, CAST(hi.screen AS BIGINT) AS screen, s.segment_key AS segment, \
         sy.name AS system, j.score FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN assignments asg ON asg.id = j.assignment_id JOIN workers w ON w.id = asg.worker_id \
         JOIN segments s ON s.id = hi.segment_id JOIN systems sy ON sy.id = hi.system_id \
         WHERE h.campaign_id = $1 AND j.skipped = 0 AND hi.item_type = $2 ORDER BY j.id",
    )
    .bind(campaign_id)
    .bind(crate::model::ItemType::System.wmt_name())
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the contrastive screens of campaign {campaign_id}"))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let score = r.score?;
            Some(ScreenScore { screen: format!("{}:{}", r.assignment, r.screen.unwrap_or(-1)), segment: r.segment, system: r.system, annotator: r.worker, score })
        })
        .collect())
}
