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
use assay_core::analysis::quality::{PairCheck, QcTest};
use assay_core::protocol::pairwise::campaign::worker_reliability;
use assay_core::protocol::pairwise::qc::{ReliabilityCheck, ReliabilitySettings};
use sqlx::AnyConnection;

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

/// The columns and joins both readers share (constant text: the filters are bound).
const SELECT: &str = "SELECT w.platform || ':' || w.external_id AS worker, j.assignment_id AS assignment, hi.item_type, hi.segment_id AS segment, \
     sa.name AS a, sb.name AS b, j.detail, hi.pair_degraded AS degraded, hi.position, hi.paired_position \
     FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = hi.hit_id \
     JOIN assignments asg ON asg.id = j.assignment_id JOIN workers w ON w.id = asg.worker_id \
     JOIN systems sa ON sa.id = hi.system_id JOIN systems sb ON sb.id = hi.pair_system_id";

/// The answered pair items of campaign `campaign_id` (skipped answers left out), in id order.
pub async fn read(db: &Db, campaign_id: i64) -> AppResult<Vec<StoredPreference>> {
    let rows: Vec<PairRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} WHERE h.campaign_id = $1 AND j.skipped = 0 ORDER BY j.id")))
        .bind(campaign_id)
        .fetch_all(&db.pool)
        .await
        .with_context(|| format!("reading the pairwise answers of campaign {campaign_id}"))?;
    decode(campaign_id, rows)
}

/// The answered pair items of one worker in campaign `campaign_id` (the quality gate at
/// submission: only that worker's assignments are read, by `assignments.worker_id`), in id
/// order.
pub async fn read_worker(conn: &mut AnyConnection, campaign_id: i64, worker_id: i64) -> AppResult<Vec<StoredPreference>> {
    let rows: Vec<PairRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} WHERE asg.worker_id = $1 AND h.campaign_id = $2 AND j.skipped = 0 ORDER BY j.id")))
        .bind(worker_id)
        .bind(campaign_id)
        .fetch_all(&mut *conn)
        .await
        .with_context(|| format!("reading the pairwise answers of worker {worker_id} in campaign {campaign_id}"))?;
    decode(campaign_id, rows)
}

/// The quality gate's check of one worker whose answers are choices between two outputs: the
/// sign test on the worker's degraded copies against their originals (pooled over the worker's
/// HITs in the campaign, the analysis's defaults), as every protocol's check is stored, and the
/// number of HITs it pools.
pub async fn worker_check(conn: &mut AnyConnection, campaign_id: i64, worker_id: i64) -> AppResult<(PairCheck, usize)> {
    let answers = read_worker(conn, campaign_id, worker_id).await?;
    let (check, hits) = worker_reliability(&answers, &ReliabilitySettings::default());
    Ok((pair_check(&check), hits))
}

/// The sign test on copies as the quality gate stores and the review page shows every
/// protocol's check ([`PairCheck`]): its statistic the number of pairs where the original was
/// preferred, its mean difference the original's share of the win minus the copy's over all
/// pairs (a tie counts ½ each, so 0), the pairs decided on the note.
fn pair_check(c: &ReliabilityCheck) -> PairCheck {
    let decided = format!(
        "original preferred in {} of {} pairs, the degraded copy in {}, about the same in {}",
        c.original_preferred, c.pairs, c.degraded_preferred, c.ties
    );
    let any = c.pairs > 0;
    PairCheck {
        test: QcTest::Sign,
        n_pairs: c.pairs,
        mean_difference: any.then(|| (c.original_preferred as f64 - c.degraded_preferred as f64) / c.pairs as f64),
        mean_abs_difference: any.then(|| (c.original_preferred + c.degraded_preferred) as f64 / c.pairs as f64),
        statistic: any.then_some(c.original_preferred as f64),
        p_value: c.p_value,
        verdict: c.verdict,
        note: Some(match &c.note {
            Some(n) => format!("{n}; {decided}"),
            None => decided,
        }),
        gold: None,
    }
}

fn decode(campaign_id: i64, rows: Vec<PairRow>) -> AppResult<Vec<StoredPreference>> {
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
