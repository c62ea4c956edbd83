//! Metric scores uploaded for a campaign (issue 21; migration 0011): stored per metric, read
//! back for the metrics page beside the built-in metrics. The files are read and fitted to the
//! campaign by [`assay_core::metrics::upload::read_upload`] (file, line, problem; all or
//! nothing); the one way in for the form, `POST /api/v1/campaigns/{id}/metrics` and
//! `assay metrics add` is [`add`].

use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::db::{Db, now_ms};
#[cfg(feature = "ssr")]
use crate::error::{AppError, AppResult, StorageContext};
#[cfg(feature = "ssr")]
use assay_core::metrics::read::{ReadError, Scores};
#[cfg(feature = "ssr")]
use assay_core::metrics::upload::{CampaignShape, UploadedMetric, read_upload};

/// The built-in metrics' names (no uploaded metric may take one).
pub const BUILTIN: [&str; 3] = ["BLEU", "chrF", "chrF++"];

/// An uploaded metric as the page lists it.
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UploadedInfo {
    pub id: i64,
    pub name: String,
    pub files: Vec<String>,
    pub system_scores: i64,
    pub segment_scores: i64,
    pub uploaded_at_ms: i64,
    pub uploaded_by: Option<String>,
}

/// What an upload stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AddSummary {
    pub metrics: Vec<UploadedInfo>,
}

impl AddSummary {
    pub fn line(&self) -> String {
        let parts: Vec<String> = self
            .metrics
            .iter()
            .map(|m| format!("{} ({} system scores, {} segment scores)", m.name, m.system_scores, m.segment_scores))
            .collect();
        format!("Uploaded {}.", parts.join("; "))
    }
}

/// Why an upload stored nothing: the files' problems, or the campaign's.
#[cfg(feature = "ssr")]
#[derive(Debug)]
pub enum AddError {
    Files(Vec<ReadError>),
    App(AppError),
}

#[cfg(feature = "ssr")]
impl From<AppError> for AddError {
    fn from(e: AppError) -> Self {
        AddError::App(e)
    }
}

/// The campaign's pair, systems and test set (in order), and the names taken.
#[cfg(feature = "ssr")]
pub async fn shape(db: &Db, campaign_id: i64) -> AppResult<CampaignShape> {
    let context = || format!("reading campaign {campaign_id}");
    let (test_set, src, tgt): (i64, String, String) = sqlx::query_as(
        "SELECT c.test_set_id, t.source_lang, t.target_lang FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign_id)
    .fetch_optional(&db.pool)
    .await
    .with_context(context)?
    .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
    let systems: Vec<String> =
        sqlx::query_scalar("SELECT sy.name FROM campaign_systems cs JOIN systems sy ON sy.id = cs.system_id WHERE cs.campaign_id = $1 ORDER BY sy.name")
            .bind(campaign_id)
            .fetch_all(&db.pool)
            .await
            .with_context(context)?;
    let segments: Vec<String> = sqlx::query_scalar("SELECT segment_key FROM segments WHERE test_set_id = $1 ORDER BY position")
        .bind(test_set)
        .fetch_all(&db.pool)
        .await
        .with_context(context)?;
    let mut taken: Vec<String> = BUILTIN.iter().map(|s| s.to_string()).collect();
    taken.extend(list(db, campaign_id).await?.into_iter().map(|m| m.name));
    Ok(CampaignShape { pair: format!("{src}-{tgt}"), systems, segments, taken })
}

/// The campaign's uploaded metrics, by name.
#[cfg(feature = "ssr")]
pub async fn list(db: &Db, campaign_id: i64) -> AppResult<Vec<UploadedInfo>> {
    let rows: Vec<(i64, String, String, i64, Option<String>, i64, i64)> = sqlx::query_as(
        "SELECT m.id, m.name, m.files, m.uploaded_at, u.email, \
         (SELECT COUNT(*) FROM campaign_metric_scores s WHERE s.metric_id = m.id AND s.segment_key IS NULL), \
         (SELECT COUNT(*) FROM campaign_metric_scores s WHERE s.metric_id = m.id AND s.segment_key IS NOT NULL) \
         FROM campaign_metrics m LEFT JOIN users u ON u.id = m.uploaded_by WHERE m.campaign_id = $1 ORDER BY m.name",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the uploaded metrics of campaign {campaign_id}"))?;
    Ok(rows
        .into_iter()
        .map(|(id, name, files, at, by, sys, seg)| UploadedInfo {
            id,
            name,
            files: files.lines().map(str::to_string).collect(),
            system_scores: sys,
            segment_scores: seg,
            uploaded_at_ms: at,
            uploaded_by: by,
        })
        .collect())
}

/// (count, largest id) of the campaign's uploaded metrics: changes with every upload and
/// deletion, whichever process made it (the metrics page's cache key).
#[cfg(feature = "ssr")]
pub async fn version(db: &Db, campaign_id: i64) -> AppResult<(i64, i64)> {
    sqlx::query_as("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM campaign_metrics WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the uploaded metrics of campaign {campaign_id}"))
}

/// The campaign's uploaded metrics as the meta-evaluation reads them, for `pair` over the
/// test set's `segments` (in order), by name.
#[cfg(feature = "ssr")]
pub async fn scores(db: &Db, campaign_id: i64, pair: &str, segments: &[String]) -> AppResult<Vec<Scores>> {
    let rows: Vec<(String, String, Option<String>, f64)> = sqlx::query_as(
        "SELECT m.name, s.system, s.segment_key, s.score FROM campaign_metric_scores s JOIN campaign_metrics m ON m.id = s.metric_id \
         WHERE m.campaign_id = $1 ORDER BY m.name",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the uploaded metric scores of campaign {campaign_id}"))?;
    let mut metrics: Vec<UploadedMetric> = Vec::new();
    for (name, system, segment, score) in rows {
        if metrics.last().is_none_or(|m| m.name != name) {
            metrics.push(UploadedMetric { name: name.clone(), ..Default::default() });
        }
        let m = metrics.last_mut().expect("pushed above");
        match segment {
            None => {
                m.system.insert(system, score);
            }
            Some(k) => m.segment.push((system, k, score)),
        }
    }
    Ok(metrics.iter().map(|m| m.scores(pair, segments)).collect())
}

/// Reads, checks and stores uploaded files (name, text) for a campaign: every metric in them,
/// or nothing.
#[cfg(feature = "ssr")]
pub async fn add(db: &Db, campaign_id: i64, uploaded_by: Option<i64>, files: &[(String, String)], default_name: Option<&str>) -> Result<AddSummary, AddError> {
    let shape = shape(db, campaign_id).await?;
    if crate::analysis::db::is_study_arm(&mut *db.pool.acquire().await.context("reading a study arm")?, campaign_id).await? {
        return Err(AddError::App(AppError::invalid(
            "campaign_id",
            "this campaign is an arm of a comparison study, which mixes two test sets: its metrics page compares no metrics, so upload scores to each test set's own campaign",
        )));
    }
    let metrics = read_upload(files, default_name, &shape).map_err(AddError::Files)?;
    const SAVING: &str = "saving uploaded metric scores";
    let mut tx = db.writer.begin().await.context(SAVING)?;
    let now = now_ms();
    let mut ids = Vec::new();
    for m in &metrics {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO campaign_metrics (campaign_id, name, files, uploaded_by, uploaded_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (campaign_id, name) DO NOTHING RETURNING id",
        )
        .bind(campaign_id)
        .bind(&m.name)
        .bind(m.files.join("\n"))
        .bind(uploaded_by)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await
        .context(SAVING)?;
        // Uploaded by someone else meanwhile.
        let id = id.ok_or_else(|| {
            AddError::Files(vec![ReadError::new(&m.files[0], None, format!("a metric named {:?} exists for this campaign already: delete it first", m.name))])
        })?;
        let rows: Vec<(&str, Option<&str>, f64)> = m
            .system
            .iter()
            .map(|(s, v)| (s.as_str(), None, *v))
            .chain(m.segment.iter().map(|(s, k, v)| (s.as_str(), Some(k.as_str()), *v)))
            .collect();
        for chunk in rows.chunks(200) {
            let mut sql = String::from("INSERT INTO campaign_metric_scores (metric_id, system, segment_key, score) VALUES ");
            for i in 0..chunk.len() {
                if i > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!("(${}, ${}, ${}, ${})", 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4));
            }
            // Only placeholders are formatted into the text; every value is bound.
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
            for (s, k, v) in chunk {
                q = q.bind(id).bind(*s).bind(*k).bind(*v);
            }
            q.execute(&mut *tx).await.context(SAVING)?;
        }
        ids.push(id);
    }
    tx.commit().await.context(SAVING)?;
    let all = list(db, campaign_id).await?;
    Ok(AddSummary { metrics: all.into_iter().filter(|m| ids.contains(&m.id)).collect() })
}

/// Deletes one uploaded metric of a campaign (with its scores). An id that is not one of the
/// campaign's metrics is the argument's fault.
#[cfg(feature = "ssr")]
pub async fn delete(db: &Db, campaign_id: i64, metric_id: i64) -> AppResult<String> {
    const DELETING: &str = "deleting an uploaded metric";
    let mut tx = db.writer.begin().await.context(DELETING)?;
    let name: Option<String> = sqlx::query_scalar("SELECT name FROM campaign_metrics WHERE id = $1 AND campaign_id = $2")
        .bind(metric_id)
        .bind(campaign_id)
        .fetch_optional(&mut *tx)
        .await
        .context(DELETING)?;
    let name = name.ok_or_else(|| AppError::invalid("metric_id", format!("campaign {campaign_id} has no uploaded metric with id {metric_id}")))?;
    // Scores first: SQLite's foreign keys may be off on a connection.
    sqlx::query("DELETE FROM campaign_metric_scores WHERE metric_id = $1").bind(metric_id).execute(&mut *tx).await.context(DELETING)?;
    sqlx::query("DELETE FROM campaign_metrics WHERE id = $1").bind(metric_id).execute(&mut *tx).await.context(DELETING)?;
    tx.commit().await.context(DELETING)?;
    Ok(name)
}
