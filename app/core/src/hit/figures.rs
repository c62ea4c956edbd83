//! What a design implies, counted on the HITs the builder built (issue 38): the figures the
//! designer shows once its check has built the design, so that "HITs", "System items per HIT"
//! and the time per HIT are the builder's, for every protocol. The calculator of
//! [`CampaignSettings::implications`] estimates the same figures in the browser before the
//! check answers (exactly for item-sized HITs; tasks of documents depend on their documents'
//! lengths); the tests below hold the two together.

use crate::model::{ItemType, TaskKind};
use crate::settings::{CampaignSettings, Implications};

use super::{Hit, HitItem};

/// Items that count towards the judgments wanted: SYSTEM items, gold blocks' outputs aside.
fn counts(item: &HitItem) -> bool {
    item.item_type == ItemType::System && item.gold.is_none()
}

/// The figures of the built `hits` of a design of `systems` systems: `seconds` is the expected
/// time of one item (what the calculator assumes: [`CampaignSettings::seconds_per_judgment`],
/// or for a task of documents its source words × seconds per word).
pub fn of_hits(settings: &CampaignSettings, systems: usize, hits: &[Hit], seconds: impl Fn(&HitItem) -> f64) -> Implications {
    let k = settings.redundancy.max(1);
    let system_items: Vec<usize> = hits.iter().map(|h| h.items.iter().filter(|i| counts(i)).count()).collect();
    let total: usize = system_items.iter().sum();
    let hit_seconds: Vec<f64> = hits.iter().map(|h| h.items.iter().map(&seconds).sum()).collect();
    let minutes_per_hit = if hits.is_empty() { 0.0 } else { hit_seconds.iter().sum::<f64>() / hits.len() as f64 / 60.0 };
    let assignments = hits.len().saturating_mul(k);
    Implications {
        hits: hits.len(),
        system_items_per_hit: system_items.iter().copied().max().unwrap_or(0),
        judgments_per_system: if systems == 0 { 0.0 } else { total as f64 * k as f64 / systems as f64 },
        assignments,
        workers_needed: if hits.is_empty() { 0 } else { k },
        cost: assignments as f64 * settings.payment_per_hit,
        minutes_per_hit,
        total_hours: k as f64 * hit_seconds.iter().sum::<f64>() / 3600.0,
    }
}

/// [`of_hits`] with the calculator's time per item for a task of items (DA, word order,
/// ranking): [`CampaignSettings::seconds_per_judgment`].
pub fn of_item_hits(settings: &CampaignSettings, task: TaskKind, systems: usize, hits: &[Hit]) -> Implications {
    let each = settings.seconds_per_judgment(task);
    of_hits(settings, systems, hits, |_| each)
}

#[cfg(test)]
#[path = "figures_tests.rs"]
mod tests;
