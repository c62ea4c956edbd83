//! A contrastive ESA campaign's answered outputs read for its paired comparisons within screens
//! (`assay_core::analysis::contrastive`) and its Appraise file: each answered output's worker,
//! screen (its assignment and `hit_items.screen`), segment, document, system, item type, the
//! source and the text shown, score, spans, times, HIT and item. One query, the same on both
//! engines. Only the system outputs are compared; degraded copies and repeated screens are
//! quality control, written to the Appraise file with their type.

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use assay_core::analysis::contrastive::{ScreenOutput, ScreenScore};
use assay_core::protocol::Detail;

crate::rows::row! {
    /// One answered output of a contrastive screen.
    struct OutputRow {
        worker: String,
        assignment: i64,
        screen: Option<i64>,
        segment: String,
        document: Option<String>,
        system: Option<String>,
        item_type: String,
        source: String,
        shown_text: String,
        score: Option<f64>,
        detail: Option<String>,
        submitted_at: i64,
        time_on_screen_ms: Option<i64>,
        hit: i64,
        item: i64,
    }
}

/// The answered outputs of campaign `campaign_id` (skipped answers left out), in id order.
pub async fn read(db: &Db, campaign_id: i64) -> AppResult<Vec<ScreenOutput>> {
    let rows: Vec<OutputRow> = sqlx::query_as(
        "SELECT w.platform || ':' || w.external_id AS worker, j.assignment_id AS assignment, CAST(hi.screen AS BIGINT) AS screen, s.segment_key AS segment, \
         s.document, sy.name AS system, hi.item_type, s.source, hi.shown_text, j.score, j.detail, j.submitted_at, j.time_on_screen_ms, \
         h.hit_index AS hit, hi.id AS item \
         FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN assignments asg ON asg.id = j.assignment_id JOIN workers w ON w.id = asg.worker_id \
         JOIN segments s ON s.id = hi.segment_id LEFT JOIN systems sy ON sy.id = hi.system_id \
         WHERE h.campaign_id = $1 AND j.skipped = 0 ORDER BY j.id",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the contrastive screens of campaign {campaign_id}"))?;
    rows.into_iter()
        .filter_map(|r| {
            let score = r.score?;
            Some((r, score))
        })
        .map(|(r, score)| {
            let item_type = ItemType::parse(&r.item_type).ok_or_else(|| AppError::internal(format!("unknown item type {:?}", r.item_type)))?;
            let detail = Detail::from_column(r.detail.as_deref()).map_err(|e| AppError::internal(format!("a contrastive answer's detail does not read: {e}")))?;
            let end_time = r.submitted_at as f64 / 1000.0;
            Ok(ScreenOutput {
                annotator: r.worker,
                screen: format!("{}:{}", r.assignment, r.screen.unwrap_or(-1)),
                segment: r.segment,
                document: r.document.unwrap_or_default(),
                system: r.system.unwrap_or_default(),
                item_type,
                source: r.source,
                target: r.shown_text,
                score,
                spans: detail.spans,
                start_time: end_time - r.time_on_screen_ms.unwrap_or(0).max(0) as f64 / 1000.0,
                end_time,
                batch: r.hit,
                item: r.item,
            })
        })
        .collect()
}

/// The system outputs' scores among `outputs`, as the comparisons within screens read them.
pub fn scores(outputs: &[ScreenOutput]) -> Vec<ScreenScore> {
    outputs
        .iter()
        .filter(|o| o.item_type == ItemType::System)
        .map(|o| ScreenScore { screen: o.screen.clone(), segment: o.segment.clone(), system: o.system.clone(), annotator: o.annotator.clone(), score: o.score })
        .collect()
}
