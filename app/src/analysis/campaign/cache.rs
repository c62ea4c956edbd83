//! The last analyses per server process, per (database, campaign, settings), handed out while
//! the campaign's judgments are unchanged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::CampaignAnalysis;
use super::compute::compute;
use super::version::{Current, Stamp, version};
use crate::analysis::AnalysisSettings;
use crate::analysis::db::load_campaign_with_blocks;
use crate::db::Db;
use crate::error::{AppError, AppResult};

/// Analyses kept per server process.
pub const CAPACITY: usize = 6;

struct Entry {
    analysis: Arc<CampaignAnalysis>,
    stamp: Stamp,
    used: u64,
}

type Key = (u64, i64, String);

#[derive(Default)]
struct Cache {
    slots: HashMap<Key, Arc<tokio::sync::Mutex<Option<Entry>>>>,
    clock: u64,
}

static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();

fn cache() -> AppResult<std::sync::MutexGuard<'static, Cache>> {
    CACHE.get_or_init(Default::default).lock().map_err(|_| AppError::internal("the analysis cache is poisoned"))
}

/// Campaign `campaign_id` analysed with `settings`: from the cache when its judgments are
/// unchanged, else computed (once, however many ask at the same time). An unknown campaign is
/// [`AppError::NotFound`].
pub async fn analyse(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<Arc<CampaignAnalysis>> {
    let key: Key = (db.id, campaign_id, serde_json::to_string(settings).map_err(|e| AppError::internal(e.to_string()))?);
    let slot = {
        let mut c = cache()?;
        c.slots.entry(key.clone()).or_default().clone()
    };
    let mut entry = slot.lock().await;
    // The table's version when the analysis must be computed (read before the judgments).
    let table = match entry.as_mut() {
        Some(e) => match e.stamp.current(db, campaign_id).await? {
            Current::Yes => None,
            Current::No { table, .. } => Some(table),
        },
        None => Some(version(db, None).await?),
    };
    if let Some(table) = table {
        let loaded = load_campaign_with_blocks(db, campaign_id, true).await?;
        let campaign = loaded.version;
        let analysis = compute(db, loaded, settings).await?;
        *entry = Some(Entry { analysis: Arc::new(analysis), stamp: Stamp { campaign, table }, used: 0 });
    }
    let analysis = {
        let mut c = cache()?;
        c.clock += 1;
        let e = entry.as_mut().expect("set above");
        e.used = c.clock;
        e.analysis.clone()
    };
    drop(entry);
    evict(&key)?;
    Ok(analysis)
}

/// The cached analysis of campaign `campaign_id` with `settings` when its judgments are current
/// (none is computed, nor one being computed waited for).
pub(crate) async fn cached(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<Option<Arc<CampaignAnalysis>>> {
    let key: Key = (db.id, campaign_id, serde_json::to_string(settings).map_err(|e| AppError::internal(e.to_string()))?);
    let Some(slot) = cache()?.slots.get(&key).cloned() else { return Ok(None) };
    let Ok(mut entry) = slot.try_lock() else { return Ok(None) };
    let Some(e) = entry.as_mut() else { return Ok(None) };
    Ok(match e.stamp.current(db, campaign_id).await? {
        Current::Yes => Some(e.analysis.clone()),
        Current::No { .. } => None,
    })
}

/// A cached analysis of campaign `campaign_id` (with any settings) whose judgments are current,
/// with the versions it is of: the review page's quality control starts from its judgments (and
/// takes its quality control when the test is the same) instead of reading the campaign again.
/// Only the judgments table's version is read: when other campaigns' judgments arrived since,
/// none counts as current. An analysis being computed is not waited for.
pub(crate) async fn current_analysis(db: &Db, campaign_id: i64) -> AppResult<Option<(Arc<CampaignAnalysis>, Stamp)>> {
    let slots: Vec<_> = {
        let c = cache()?;
        c.slots.iter().filter(|(k, _)| k.0 == db.id && k.1 == campaign_id).map(|(_, slot)| slot.clone()).collect()
    };
    if slots.is_empty() {
        return Ok(None);
    }
    let table = version(db, None).await?;
    for slot in slots {
        let Ok(entry) = slot.try_lock() else { continue };
        if let Some(e) = entry.as_ref().filter(|e| e.stamp.table == table) {
            return Ok(Some((e.analysis.clone(), e.stamp)));
        }
    }
    Ok(None)
}

/// Keeps at most [`CAPACITY`] analyses: drops the least recently used (never `keep`, nor one
/// being computed).
fn evict(keep: &Key) -> AppResult<()> {
    let mut c = cache()?;
    while c.slots.len() > CAPACITY {
        let oldest = c
            .slots
            .iter()
            .filter(|(k, _)| *k != keep)
            .filter_map(|(k, slot)| slot.try_lock().ok().map(|e| (e.as_ref().map_or(0, |e| e.used), k.clone())))
            .min();
        match oldest {
            Some((_, k)) => {
                c.slots.remove(&k);
            }
            None => break,
        }
    }
    Ok(())
}

/// Forgets every analysis of a campaign (tests; a campaign whose judgments were rewritten).
pub fn forget(campaign_id: i64) {
    if let Ok(mut c) = cache() {
        c.slots.retain(|k, _| k.1 != campaign_id);
    }
}
