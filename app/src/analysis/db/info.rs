//! A campaign's description as the database holds it (besides its judgments).

use sqlx::{AnyConnection, Row};

use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::TaskKind;

/// What the database says about a campaign, besides its judgments.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CampaignInfo {
    pub id: i64,
    pub name: String,
    pub task: TaskKind,
    pub test_set: String,
    pub source_lang: String,
    pub target_lang: String,
}

/// The campaign's description; an unknown campaign is [`AppError::NotFound`].
pub async fn campaign_info(db: &Db, campaign_id: i64) -> AppResult<CampaignInfo> {
    let mut conn = db.pool.acquire().await.with_context(|| format!("reading campaign {campaign_id}"))?;
    campaign_info_on(&mut conn, campaign_id).await
}

/// [`campaign_info`] through a given connection (the quality gate's transaction).
pub(super) async fn campaign_info_on(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<CampaignInfo> {
    let row = sqlx::query(
        "SELECT c.name, c.task, t.name AS test_set, t.source_lang, t.target_lang \
         FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&mut *conn)
    .await
    .with_context(|| format!("reading campaign {campaign_id}"))?
    .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let get = |col: &str| -> AppResult<String> {
        row.try_get::<String, _>(col).with_context(|| format!("reading the {col} of campaign {campaign_id}"))
    };
    Ok(CampaignInfo {
        id: campaign_id,
        name: get("name")?,
        task: TaskKind::of_campaign(campaign_id, &get("task")?)?,
        test_set: get("test_set")?,
        source_lang: get("source_lang")?,
        target_lang: get("target_lang")?,
    })
}
