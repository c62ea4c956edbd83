//! What a protocol that marks error spans reads besides the records: each judgment's detail and
//! the texts shown, and the ratings of the span files.

use std::borrow::Borrow;

use sqlx::AnyConnection;

use super::names::StoredNames;
use super::query::StoredJudgment;
use super::records::SetShape;
use crate::analysis::FxMap;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use assay_core::protocol;

/// An ESA campaign's judgments as the ratings of the Appraise/WMT 2024 ESA CSV: items of type
/// `TGT` (system), `BAD` (degraded copy) and `CHK` (repeat), each with its spans, and one more
/// rating with `isCompleteDocument` for each document score. The item is the segment's key,
/// the document its document (the key itself when it has none), the domain the document's
/// (`general` when the test set names none); times in seconds (shown, submitted).
pub fn esa_ratings<R: Borrow<StoredJudgment>>(
    rows: &[R],
    details: &FxMap<i64, ItemDetail>,
    names: &StoredNames,
    shape: &SetShape,
) -> AppResult<Vec<assay_core::analysis::esa::EsaRating>> {
    use assay_core::analysis::esa::EsaRating;
    let mut out = Vec::new();
    let mut systems: FxMap<Option<i64>, String> = FxMap::default();
    let mut workers: FxMap<i64, String> = FxMap::default();
    for j in rows.iter().map(R::borrow) {
        if j.skipped {
            continue;
        }
        let Some(score) = j.score else { continue };
        let item_type = match j.item_type {
            ItemType::System => "TGT",
            ItemType::BadRef => "BAD",
            ItemType::Repeat => "CHK",
            ItemType::Ref => "REF",
        };
        if !systems.contains_key(&j.system) {
            systems.insert(j.system, names.system(j.system)?.to_string());
        }
        if !workers.contains_key(&j.worker) {
            workers.insert(j.worker, names.worker(j.worker)?);
        }
        let segment = names.segment(j.segment)?;
        let key = if shape.by_test_set { format!("{}:{}", segment.test_set, segment.key) } else { segment.key.clone() };
        let document = segment.document.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| key.clone());
        let item = details.get(&j.id);
        let detail = item.map(|i| &i.detail);
        let end = j.submitted_at_ms as f64 / 1000.0;
        let start = (j.submitted_at_ms - j.ms) as f64 / 1000.0;
        let rating = EsaRating {
            line: out.len() + 1,
            user: workers[&j.worker].clone(),
            system: systems[&j.system].clone(),
            item: key,
            item_type: item_type.to_string(),
            pair: shape.lang_pair.clone(),
            score,
            document,
            complete_document: false,
            domain: Some(segment.domain.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| "general".into())),
            spans: detail.map(|d| d.spans.clone()).unwrap_or_default(),
            start_time: Some(start),
            end_time: Some(end),
            target: item.map(|i| i.shown_text.clone()),
            original: item.and_then(|i| i.original.clone()),
            source: item.map(|i| i.source.clone()),
            prefilled: item.and_then(|i| i.prefilled.clone()),
            doc_seg: segment.doc_index,
        };
        let document_score = detail.and_then(|d| d.document_score);
        out.push(rating.clone());
        if let Some(d) = document_score {
            out.push(EsaRating { line: out.len() + 1, score: d, complete_document: true, spans: Vec::new(), prefilled: None, ..rating });
        }
    }
    Ok(out)
}

/// What a span task's analysis reads of one judgment besides its record: its detail, the
/// text shown, and for a degraded copy the output it was made from.
#[derive(Clone, Debug)]
pub struct ItemDetail {
    pub detail: protocol::Detail,
    pub shown_text: String,
    pub original: Option<String>,
    pub source: String,
    /// The pre-filled spans the screen started with (`hit_items.prefilled`), when it showed some.
    pub prefilled: Option<Vec<protocol::Span>>,
}

/// [`ItemDetail`] of every judgment of a campaign of a span task, by judgment id.
pub async fn campaign_details(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<FxMap<i64, ItemDetail>> {
    let context = || format!("reading the error spans of campaign {campaign_id}");
    #[allow(clippy::type_complexity)]
    let rows: Vec<(i64, Option<String>, String, Option<String>, String, Option<String>)> = sqlx::query_as(
        "SELECT j.id, j.detail, hi.shown_text, CASE WHEN hi.item_type = 'BAD_REF' THEN o.text END, s.source, hi.prefilled \
         FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
         JOIN segments s ON s.id = hi.segment_id \
         LEFT JOIN system_outputs o ON o.system_id = hi.system_id AND o.segment_id = hi.segment_id \
         WHERE h.campaign_id = $1",
    )
    .bind(campaign_id)
    .fetch_all(&mut *conn)
    .await
    .with_context(context)?;
    let mut out = FxMap::default();
    for (id, json, shown_text, original, source, prefilled) in rows {
        let detail = protocol::Detail::from_column(json.as_deref()).map_err(|e| AppError::internal(format!("judgment {id}: its detail does not read: {e}")))?;
        let prefilled = match prefilled {
            Some(p) => Some(serde_json::from_str(&p).map_err(|e| AppError::internal(format!("judgment {id}: the pre-filled spans of its item do not read: {e}")))?),
            None => None,
        };
        out.insert(id, ItemDetail { detail, shown_text, original, source, prefilled });
    }
    Ok(out)
}
