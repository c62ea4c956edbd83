//! Reading a campaign's judgments from the database into the pipeline's [`JudgmentSet`].
//!
//! One row per judgment: judgments ⨝ hit_items ⨝ assignments ⨝ workers ⨝ hits ⨝ campaigns,
//! with the item's system and segment (and the test set for the language pair). Decisions:
//! - **Worker** names are `platform:external_id` (unique by the schema).
//! - **HIT** names are `hit_index` (the pipeline groups by worker, then HIT, so a HIT done by
//!   several workers is several groups, as in Graham's files).
//! - **System** of a REF item (no `system_id`): the system of its paired item, as Graham's QC
//!   items copy their partner's system id; `REF` if it has no pair.
//! - **Segments** are interned in test-set order first (every segment of the test set), so the
//!   interner's order is the test-set order the mt-metrics-eval `.seg.score` files need.
//! - **Seconds** per item ([`TimeBasis::PerItem`]): `time_on_screen_ms`, else
//!   `submitted_at − shown_at`, else 0.
//! - Skipped judgments and judgments without a score are left out. Word-order judgments use
//!   their first question (`score`).
//!
//! Rows are read in pages of [`PAGE`] by judgment id (keyset paging), so memory holds one page
//! of rows besides the compact records.

use sqlx::Row;

use crate::db::Db;
use crate::model::ItemType;

use super::{JudgmentNames, JudgmentSet, TimeBasis};

/// Rows per query.
pub const PAGE: i64 = 20_000;

/// What the database says about a campaign, besides its judgments.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CampaignInfo {
    pub id: i64,
    pub name: String,
    pub task: String,
    pub test_set: String,
    pub source_lang: String,
    pub target_lang: String,
}

/// The campaign's description, or an error naming the missing id.
pub async fn campaign_info(db: &Db, campaign_id: i64) -> Result<CampaignInfo, String> {
    let row = sqlx::query(
        "SELECT c.name, c.task, t.name AS test_set, t.source_lang, t.target_lang \
         FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .map_err(|e| format!("cannot read campaign {campaign_id}: {e}"))?
    .ok_or_else(|| format!("there is no campaign with id {campaign_id}"))?;
    let get = |col: &str| -> Result<String, String> {
        row.try_get::<String, _>(col)
            .map_err(|e| format!("campaign {campaign_id}: cannot read {col}: {e}"))
    };
    Ok(CampaignInfo {
        id: campaign_id,
        name: get("name")?,
        task: get("task")?,
        test_set: get("test_set")?,
        source_lang: get("source_lang")?,
        target_lang: get("target_lang")?,
    })
}

/// Every scored judgment of campaign `campaign_id` as the pipeline's records. An unknown
/// campaign is an error; a campaign without judgments gives an empty set.
pub async fn load_campaign(db: &Db, campaign_id: i64) -> Result<JudgmentSet, String> {
    let info = campaign_info(db, campaign_id).await?;
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let lang_pair = format!("{}-{}", info.source_lang, info.target_lang);

    // Test-set order first.
    let segments = sqlx::query(
        "SELECT s.segment_key FROM segments s JOIN campaigns c ON c.test_set_id = s.test_set_id \
         WHERE c.id = $1 ORDER BY s.position",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .map_err(|e| format!("cannot read the segments of campaign {campaign_id}: {e}"))?;
    for row in &segments {
        let key: String = row
            .try_get("segment_key")
            .map_err(|e| format!("cannot read a segment key: {e}"))?;
        set.segments.intern(&key);
    }

    let mut after: i64 = i64::MIN;
    loop {
        let rows = sqlx::query(
            "SELECT j.id AS judgment_id, \
                    w.platform, w.external_id, \
                    h.hit_index, \
                    hi.item_type, \
                    COALESCE(s.name, ps.name, 'REF') AS system_name, \
                    seg.segment_key, \
                    CAST(j.score AS DOUBLE PRECISION) AS score, \
                    COALESCE(j.time_on_screen_ms, j.submitted_at - j.shown_at, 0) AS ms \
             FROM judgments j \
             JOIN hit_items hi ON hi.id = j.hit_item_id \
             JOIN assignments a ON a.id = j.assignment_id \
             JOIN workers w ON w.id = a.worker_id \
             JOIN hits h ON h.id = hi.hit_id \
             JOIN segments seg ON seg.id = hi.segment_id \
             LEFT JOIN systems s ON s.id = hi.system_id \
             LEFT JOIN hit_items p ON p.hit_id = hi.hit_id AND p.position = hi.paired_position \
             LEFT JOIN systems ps ON ps.id = p.system_id \
             WHERE h.campaign_id = $1 AND j.id > $2 AND j.skipped = 0 AND j.score IS NOT NULL \
             ORDER BY j.id \
             LIMIT $3",
        )
        .bind(campaign_id)
        .bind(after)
        .bind(PAGE)
        .fetch_all(&db.pool)
        .await
        .map_err(|e| format!("cannot read the judgments of campaign {campaign_id}: {e}"))?;
        let n = rows.len();
        for row in rows {
            let id: i64 = row
                .try_get("judgment_id")
                .map_err(|e| format!("cannot read a judgment id: {e}"))?;
            let bad = |col: &str, e: sqlx::Error| format!("judgment {id}: cannot read {col}: {e}");
            let platform: String = row.try_get("platform").map_err(|e| bad("platform", e))?;
            let external: String = row.try_get("external_id").map_err(|e| bad("external_id", e))?;
            let hit_index: i64 = row.try_get("hit_index").map_err(|e| bad("hit_index", e))?;
            let item_type: String = row.try_get("item_type").map_err(|e| bad("item_type", e))?;
            let system: String = row.try_get("system_name").map_err(|e| bad("system", e))?;
            let segment: String = row.try_get("segment_key").map_err(|e| bad("segment", e))?;
            let score: f64 = row.try_get("score").map_err(|e| bad("score", e))?;
            let ms: i64 = row.try_get("ms").map_err(|e| bad("time", e))?;
            let item_type = ItemType::parse(&item_type)
                .ok_or_else(|| format!("judgment {id}: unknown item type {item_type:?}"))?;
            if !score.is_finite() {
                return Err(format!("judgment {id}: the score is not a finite number"));
            }
            let worker = format!("{platform}:{external}");
            let hit = hit_index.to_string();
            set.push(
                JudgmentNames {
                    worker: &worker,
                    hit: &hit,
                    system: &system,
                    segment: &segment,
                    lang_pair: &lang_pair,
                    task: &info.task,
                },
                item_type,
                score,
                (ms.max(0) as f64 / 1000.0) as f32,
            );
            after = id;
        }
        if (n as i64) < PAGE {
            break;
        }
    }
    Ok(set)
}
