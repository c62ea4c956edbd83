//! A pairwise-preference campaign's answers read for its analysis beside the pipeline
//! (`assay_core::protocol::pairwise::campaign`): each answer with its pair's two systems, the
//! side the item was shown with and, for a degraded copy against its original, which side is
//! the copy. One query, the same on both engines.

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use assay_core::protocol::Detail;
use assay_core::protocol::pairwise::Side;
use assay_core::protocol::pairwise::campaign::StoredPreference;

crate::rows::row! {
    /// One answered pair item.
    struct PairRow {
        worker: String,
        assignment: i64,
        item_type: String,
        segment: i64,
        a: String,
        b: String,
        detail: Option<String>,
        degraded: Option<String>,
        position: i64,
        paired_position: Option<i64>,
    }
}

/// The answered pair items of campaign `campaign_id` (skipped answers left out), in id order.
pub async fn read(db: &Db, campaign_id: i64) -> AppResult<Vec<StoredPreference>> {
    let rows: Vec<PairRow> = sqlx::query_as(
        "SELECT w.platform || ':' || w.external_id AS worker, j.assignment_id AS assignment, hi.item_type, hi.segment_id AS segment, \
         sa.name AS a, sb.name AS b, j.detail, hi.pair_degraded AS degraded, hi.position, hi.paired_position \
         FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN assignments asg ON asg.id = j.assignment_id JOIN workers w ON w.id = asg.worker_id \
         JOIN systems sa ON sa.id = hi.system_id JOIN systems sb ON sb.id = hi.pair_system_id \
         WHERE h.campaign_id = $1 AND j.skipped = 0 ORDER BY j.id",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the pairwise answers of campaign {campaign_id}"))?;
    let side = |s: Option<&str>| match s {
        Some("a") => Some(Side::A),
        Some("b") => Some(Side::B),
        _ => None,
    };
    rows.into_iter()
        .map(|r| {
            let detail = Detail::from_column(r.detail.as_deref()).map_err(|e| AppError::internal(format!("a pairwise answer's detail does not read: {e}")))?;
            let preference = detail.preference.ok_or_else(|| AppError::internal(format!("an answer of pairwise campaign {campaign_id} has no preference")))?;
            let item_type = ItemType::parse(&r.item_type).ok_or_else(|| AppError::internal(format!("unknown item type {:?}", r.item_type)))?;
            Ok(StoredPreference {
                worker: r.worker,
                assignment: r.assignment,
                item_type,
                segment: r.segment.to_string(),
                a: r.a,
                b: r.b,
                preference,
                degraded: side(r.degraded.as_deref()),
                position: r.position,
                paired_position: r.paired_position,
            })
        })
        .collect()
}
