//! A post-editing campaign's answers read for its analysis beside the pipeline
//! (`assay_core::metrics::postedit::campaign`): each answered item's worker, type, segment,
//! system, the text shown and the stored post-edit; and the campaign's test set's segments in
//! order (the lines of the reference files). One query each, the same on both engines.

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use assay_core::protocol::Detail;
use assay_core::metrics::postedit::campaign::StoredPostEdit;

crate::rows::row! {
    /// One answered post-editing item.
    struct PostEditRow {
        worker: String,
        item_type: String,
        segment: String,
        system: String,
        shown_text: String,
        detail: Option<String>,
    }
}

/// The answered items of campaign `campaign_id` (skipped answers left out), in id order, and
/// the segments of its test set in order.
pub async fn read(db: &Db, campaign_id: i64) -> AppResult<(Vec<StoredPostEdit>, Vec<String>)> {
    let rows: Vec<PostEditRow> = sqlx::query_as(
        "SELECT w.platform || ':' || w.external_id AS worker, hi.item_type, s.segment_key AS segment, sy.name AS system, hi.shown_text, j.detail \
         FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN assignments asg ON asg.id = j.assignment_id JOIN workers w ON w.id = asg.worker_id \
         JOIN segments s ON s.id = hi.segment_id JOIN systems sy ON sy.id = hi.system_id \
         WHERE h.campaign_id = $1 AND j.skipped = 0 ORDER BY j.id",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the post-edits of campaign {campaign_id}"))?;
    let segments: Vec<(String,)> = sqlx::query_as("SELECT s.segment_key FROM segments s JOIN campaigns c ON c.test_set_id = s.test_set_id WHERE c.id = $1 ORDER BY s.position")
        .bind(campaign_id)
        .fetch_all(&db.pool)
        .await
        .with_context(|| format!("reading the segments of campaign {campaign_id}"))?;
    let answers = rows
        .into_iter()
        .map(|r| {
            let detail = Detail::from_column(r.detail.as_deref()).map_err(|e| AppError::internal(format!("a post-edit's detail does not read: {e}")))?;
            let pe = detail.post_edit.ok_or_else(|| AppError::internal(format!("an answer of post-editing campaign {campaign_id} has no post-edit")))?;
            let item_type = ItemType::parse(&r.item_type).ok_or_else(|| AppError::internal(format!("unknown item type {:?}", r.item_type)))?;
            Ok(StoredPostEdit { worker: r.worker, item_type, segment: r.segment, system: r.system, output: r.shown_text, post_edit: pe.text, edit_ms: pe.edit_ms })
        })
        .collect::<AppResult<Vec<_>>>()?;
    Ok((answers, segments.into_iter().map(|(s,)| s).collect()))
}
