//! Loading a campaign or one worker: the description, the judgments, the names, then the records
//! and what the protocol reads besides, off the async threads.

use std::collections::HashMap;

use sqlx::AnyConnection;

use super::blocks::{CampaignBlocks, gold_rule, ranking_blocks};
use super::info::{CampaignInfo, campaign_info_on};
use super::names::StoredNames;
use super::query::{Scope, read_judgments};
use super::readers::{CampaignJudgments, read_campaign_judgments};
use super::records::{SetShape, judgment_set};
use super::spans::{campaign_details, esa_ratings};
use crate::analysis::{FxMap, JudgmentSet};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};

/// Whether a campaign is a comparison study's arm (its judgments are named by test set).
pub async fn is_study_arm(conn: &mut AnyConnection, campaign_id: i64) -> AppResult<bool> {
    Ok(sqlx::query("SELECT 1 FROM study_arms WHERE campaign_id = $1")
        .bind(campaign_id)
        .fetch_optional(&mut *conn)
        .await
        .with_context(|| format!("reading the study arm of campaign {campaign_id}"))?
        .is_some())
}

pub(super) fn shape(info: &CampaignInfo, by_test_set: bool) -> AppResult<SetShape> {
    let task = info.task;
    Ok(SetShape { task, lang_pair: format!("{}-{}", info.source_lang, info.target_lang), by_test_set })
}

/// Every scored judgment of campaign `campaign_id` as the pipeline's records, named by test
/// set when the campaign is a study arm. An unknown campaign is [`AppError::NotFound`]; a
/// campaign without judgments gives an empty set.
pub async fn load_campaign(db: &Db, campaign_id: i64) -> AppResult<(CampaignInfo, JudgmentSet)> {
    load_campaign_with_blocks(db, campaign_id, false).await.map(|c| (c.info, c.set))
}

/// What a protocol's own analysis reads besides the pipeline's records, from the same rows.
#[derive(Clone, Debug, Default)]
pub struct ProtocolRows {
    /// Relative ranking: the blocks ([`ranking_blocks`]).
    pub ranking: Option<CampaignBlocks>,
    /// ESA: the ratings with their spans ([`esa_ratings`]).
    pub esa: Option<Vec<assay_core::analysis::esa::EsaRating>>,
}

/// A campaign as [`load_campaign_with_blocks`] reads it.
#[derive(Debug)]
pub struct LoadedCampaign {
    pub info: CampaignInfo,
    pub set: JudgmentSet,
    /// What the protocol reads besides (empty when not asked for).
    pub protocol: ProtocolRows,
    /// The number and the largest id of the stored judgments read (skipped and unscored ones
    /// too): the version of the campaign the set is.
    pub version: (i64, i64),
    /// The smallest id of the judgments read (0 without judgments).
    pub first_id: i64,
    /// `workers.id` of every worker with a HIT in the campaign, by name (`platform:external id`).
    pub worker_ids: HashMap<String, i64>,
}

/// [`load_campaign`], what the campaign's protocol reads besides ([`ProtocolRows`], when
/// `protocol`: the review page's quality control does not need them), the version of the set
/// and the workers' database ids.
pub async fn load_campaign_with_blocks(db: &Db, campaign_id: i64, protocol: bool) -> AppResult<LoadedCampaign> {
    load(db, campaign_id, protocol, false).await.map(|(c, _)| c)
}

/// The stored judgments and names a campaign's records were built from, kept for judgment
/// files written from memory (`assay export`: the campaign read once, not twice).
#[derive(Debug)]
pub struct KeptRows {
    pub rows: CampaignJudgments,
    pub names: StoredNames,
}

/// [`load_campaign_with_blocks`] (with the protocol's rows) and the rows it was built from.
pub async fn load_campaign_keeping_rows(db: &Db, campaign_id: i64) -> AppResult<(LoadedCampaign, KeptRows)> {
    let (campaign, kept) = load(db, campaign_id, true, true).await?;
    Ok((campaign, kept.ok_or_else(|| AppError::internal("the rows were not kept"))?))
}

pub(super) async fn load(db: &Db, campaign_id: i64, protocol: bool, keep: bool) -> AppResult<(LoadedCampaign, Option<KeptRows>)> {
    let started = std::time::Instant::now();
    let mut conn = db.pool.acquire().await.with_context(|| format!("reading campaign {campaign_id}"))?;
    let info = campaign_info_on(&mut conn, campaign_id).await?;
    let shape = shape(&info, is_study_arm(&mut conn, campaign_id).await?)?;
    let blocks = assay_core::protocol::ranks_blocks(shape.task);
    let rule = if blocks { Some(gold_rule(&mut conn, &info).await?) } else { None };
    let began = started.elapsed();
    let rows = read_campaign_judgments(db, &mut conn, campaign_id).await?;
    let read = started.elapsed();
    // The names after the judgments: every worker of a judgment read is then among them (one
    // who arrived between the two reads would otherwise be unknown).
    let names = match db.sqlite_file.clone().filter(|p| p.exists()) {
        Some(path) => tokio::task::spawn_blocking(move || StoredNames::read_sqlite(&path, campaign_id))
            .await
            .map_err(|e| AppError::internal(format!("reading the names failed: {e}")))??,
        None => StoredNames::read(&mut conn, campaign_id, Scope::Campaign).await?,
    };
    let spans = protocol && shape.task.marks_spans();
    let details = if spans { campaign_details(&mut conn, campaign_id).await? } else { FxMap::default() };
    drop(conn);
    let named = started.elapsed();
    let n = rows.len();
    // Interning a million records is CPU work: off the async workers.
    let (set, protocol, (first_id, last_id), worker_ids, kept) = tokio::task::spawn_blocking(move || -> AppResult<_> {
        let (set, protocol, ids) = {
            let rows = rows.by_id();
            let ids = (rows.first().map_or(0, |j| j.id), rows.last().map_or(0, |j| j.id));
            let mut set = judgment_set(&rows, &names, &shape)?;
            if let Some(rule) = rule {
                set.gold.rule = rule;
            }
            let ranking = if protocol && blocks { Some(ranking_blocks(&rows, &names, &shape)?) } else { None };
            let esa = if spans { Some(esa_ratings(&rows, &details, &names, &shape)?) } else { None };
            (set, ProtocolRows { ranking, esa }, ids)
        };
        let worker_ids = names.workers.iter().map(|(&id, (platform, external))| (format!("{platform}:{external}"), id)).collect();
        Ok((set, protocol, ids, worker_ids, keep.then_some(KeptRows { rows, names })))
    })
    .await
    .map_err(|e| AppError::internal(format!("reading the judgments failed: {e}")))??;
    if kept.is_none() {
        // The stored judgments are dropped: their memory goes back to the system, off the
        // answer's path.
        tokio::task::spawn_blocking(crate::db::release_freed_memory);
    }
    tracing::debug!(
        "campaign {campaign_id}: {n} judgments read in {} ms, names in {} ms, records built in {} ms",
        (read - began).as_millis(),
        (named - read).as_millis(),
        (started.elapsed() - named).as_millis()
    );
    Ok((LoadedCampaign { info, set, protocol, version: (n as i64, last_id), first_id, worker_ids }, kept))
}

/// One worker's scored judgments in one campaign, read and named as [`load_campaign`] reads
/// a campaign's, through the given connection (the quality gate runs inside the transaction
/// that stores the HIT's last judgment).
pub async fn load_worker(conn: &mut AnyConnection, campaign_id: i64, worker_id: i64) -> AppResult<JudgmentSet> {
    let info = campaign_info_on(conn, campaign_id).await?;
    let shape = shape(&info, is_study_arm(conn, campaign_id).await?)?;
    let rows = read_judgments(conn, campaign_id, Scope::Worker(worker_id)).await?;
    let names = StoredNames::read(conn, campaign_id, Scope::Worker(worker_id)).await?;
    let mut set = judgment_set(&rows, &names, &shape)?;
    // Gold blocks check the workers of a protocol that ranks blocks of outputs.
    if assay_core::protocol::ranks_blocks(shape.task) {
        set.gold.rule = gold_rule(conn, &info).await?;
    }
    Ok(set)
}
