//! The work state a server keeps: the HIT's items as the browser sees them (one query for every
//! item type), the facts of an assignment that never change once launched, and the cache of both.

use super::assignment::Loaded;
use super::error::WorkError;
use super::queue::AnswerQueue;
use super::validation::Rules;
use crate::annotate::{ItemView, Step};
use crate::db::Db;
use assay_core::protocol;
use assay_core::stored_answer;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

crate::rows::row! {
    /// A row of [`hit_items`]' query.
    struct ItemRow {
        id: i64,
        position: i64,
        screen: Option<i64>,
        unit: Option<i64>,
        shown_text: String,
        source: String,
        reference: Option<String>,
        prefilled: Option<String>,
        pair_text: Option<String>,
        pair_left: Option<String>,
    }
}

/// The items of the assignment's HIT, in order, as the browser sees them, with their internal
/// ids. One query for every item type.
pub(super) async fn hit_items(db: &Db, a: &Loaded) -> Result<Vec<(i64, ItemView)>, WorkError> {
    let rows: Vec<ItemRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT hi.id, hi.position, hi.screen, hi.unit, hi.shown_text, s.source, r.text AS reference, hi.prefilled, hi.pair_text, hi.pair_left \
         FROM hit_items hi JOIN hits h ON h.id = hi.hit_id JOIN segments s ON s.id = hi.segment_id \
         LEFT JOIN segment_references r ON r.segment_id = hi.segment_id AND r.name = {} \
         WHERE hi.hit_id = $1 ORDER BY hi.position",
        crate::campaign::launch::item_reference_sql("h.campaign_id", "hi.segment_id", "CAST($2 AS TEXT)")
    )))
    .bind(a.hit_id)
    .bind(a.reference_name.clone())
    .fetch_all(&db.pool)
    .await?;
    let task = a.task;
    let protocol = protocol::for_task(task);
    // A protocol that shows the source may show the reference beside it, as the campaign
    // chooses (`CampaignSettings::shows_reference`).
    let show_reference = crate::annotate::screen_settings(&a.settings, task, &a.target_lang, "").show_reference;
    // The field may start empty with the output kept on the server, as the protocol and the
    // campaign choose.
    let from_scratch = stored_answer::hides_output(task, &assay_core::settings::CampaignSettings::read(&a.settings, task, "", ""));
    let units: Vec<Option<i64>> = rows.iter().map(|r| r.unit).collect();
    let mut items: Vec<(i64, ItemView)> = rows
        .into_iter()
        .map(|row| -> Result<(i64, ItemView), WorkError> {
            let (context, reference) = match protocol.beside() {
                protocol::Beside::Nothing => (None, None),
                protocol::Beside::Source => (Some(row.source), if show_reference { row.reference } else { None }),
                protocol::Beside::Reference => (Some(row.reference.unwrap_or_default()), None),
            };
            // Stored by the launch as JSON of spans.
            let prefilled = match row.prefilled.as_deref() {
                Some(j) => serde_json::from_str(j).map_err(|e| WorkError::Internal(format!("the pre-filled spans of item {} do not read: {e}", row.id)))?,
                None => Vec::new(),
            };
            // A pair: output a is the item's text, b `pair_text`; the left one is `candidate`.
            let (candidate, right, pair_left) = match row.pair_text {
                None => (row.shown_text, None, None),
                Some(b) => {
                    let (left, right, side) = stored_answer::pair_on_screen(row.shown_text, b, row.pair_left.as_deref())
                        .ok_or_else(|| WorkError::Internal(format!("pair item {} has no side on the left ({:?})", row.id, row.pair_left)))?;
                    (left, Some(right), Some(side))
                }
            };
            let (candidate, hidden_output) = if from_scratch { (String::new(), Some(candidate)) } else { (candidate, None) };
            Ok((row.id, ItemView { position: row.position, candidate, context, reference, screen: row.screen, document: None, prefilled, right, pair_left, hidden_output }))
        })
        .collect::<Result<_, _>>()?;
    if protocol.hit_plan() == protocol::HitPlan::Documents {
        let settings = assay_core::settings::CampaignSettings::read(&a.settings, task, "", "");
        // A document's score after its last segment, where the protocol asks one and the
        // campaign wants it (ESA and MQM, as Appraise's document task).
        add_documents(&mut items, &units, settings.documents.context, settings.documents.score && protocol.designer().document_score);
    }
    Ok(items)
}

/// Gives each item of a document unit its [`crate::annotate::DocumentView`]: its place, and the unit's
/// other segments as `context` shows them. Items of a unit are consecutive (`hit::documents`).
fn add_documents(items: &mut [(i64, ItemView)], units: &[Option<i64>], context: assay_core::settings::DocumentContext, document_score: bool) {
    use assay_core::settings::DocumentContext;
    let mut start = 0;
    while start < items.len() {
        let mut end = start + 1;
        while end < items.len() && units[end].is_some() && units[end] == units[start] {
            end += 1;
        }
        let shown: Vec<crate::annotate::ContextSegment> = items[start..end]
            .iter()
            .map(|(_, v)| crate::annotate::ContextSegment { source: v.context.clone().unwrap_or_default(), candidate: v.candidate.clone() })
            .collect();
        for (k, (_, v)) in items[start..end].iter_mut().enumerate() {
            v.document = Some(crate::annotate::DocumentView {
                index: k,
                total: end - start,
                before: if context == DocumentContext::None { Vec::new() } else { shown[..k].to_vec() },
                after: if context == DocumentContext::Whole { shown[k + 1..].to_vec() } else { Vec::new() },
                document_score: document_score && k + 1 == end - start,
            });
        }
        start = end;
    }
}

/// What cannot change about an assignment once its HIT is launched: its worker's account,
/// the campaign's rules, and the HIT's items in order (with their internal ids).
#[derive(Debug)]
pub(super) struct Fixed {
    pub(super) id: i64,
    pub(super) owner: Option<i64>,
    pub(super) rules: Rules,
    pub(super) items: Arc<[(i64, ItemView)]>,
}

impl Fixed {
    /// The HIT item at `position` (its internal id and view), if the HIT has one there.
    pub(super) fn item(&self, position: i64) -> Option<&(i64, ItemView)> {
        usize::try_from(position).ok().and_then(|p| self.items.get(p))
    }

    /// The positions shown on one screen with the item at `position`: the item alone, or (a screen
    /// of several outputs ranked together) every item of its screen, which are consecutive.
    pub(super) fn screen_of(&self, position: i64) -> std::ops::Range<i64> {
        let Some((_, item)) = self.item(position) else { return position..position };
        let Some(screen) = item.screen else { return position..position + 1 };
        let same = |p: &i64| self.item(*p).is_some_and(|(_, v)| v.screen == Some(screen));
        let mut start = position;
        while same(&(start - 1)) {
            start -= 1;
        }
        let mut end = position + 1;
        while same(&end) {
            end += 1;
        }
        start..end
    }

    /// The number of screens of a HIT whose items are grouped into screens (issue 38 item 6).
    pub(super) fn screens(&self) -> Option<i64> {
        let screens: std::collections::BTreeSet<i64> = self.items.iter().filter_map(|(_, v)| v.screen).collect();
        (!screens.is_empty()).then(|| screens.len() as i64)
    }

    /// The step showing the screen that starts at `position`: its first item, and the others of
    /// its screen.
    pub(super) fn step_at(&self, position: i64) -> Option<Step> {
        let (_, item) = self.item(position)?;
        let together = (position + 1..self.screen_of(position).end).filter_map(|p| self.item(p).map(|(_, v)| v.clone())).collect();
        Some(Step { answered: position, item: Some(item.clone()), together, completion: None })
    }
}

/// What each server keeps in memory for annotation:
/// - the [`Fixed`] facts of assignments, so that storing an answer reads nothing. Safe with
///   several servers on one database because nothing in it is ever updated; what can change
///   (the position, the status, a blocked worker) is always checked in the database;
/// - on SQLite, the queue of answers waiting for the writer ([`AnswerQueue`]).
#[derive(Debug, Default)]
pub struct Work {
    pub(super) assignments: Mutex<HashMap<String, Arc<Fixed>>>,
    pub(super) hits: Mutex<HashMap<i64, Arc<[(i64, ItemView)]>>>,
    pub(super) answers: std::sync::OnceLock<AnswerQueue>,
}

/// Entries kept before the cache starts again from empty (tens of MB at most).
const CACHE_ASSIGNMENTS: usize = 50_000;
const CACHE_HITS: usize = 5_000;

impl Work {
    pub(super) fn assignment(&self, public_id: &str) -> Option<Arc<Fixed>> {
        self.assignments.lock().ok()?.get(public_id).cloned()
    }

    /// The fixed facts of a loaded assignment, from memory or read once.
    pub(super) async fn fixed(&self, db: &Db, a: &Loaded) -> Result<Arc<Fixed>, WorkError> {
        if let Some(f) = self.assignment(&a.public_id) {
            return Ok(f);
        }
        let cached = self.hits.lock().ok().and_then(|h| h.get(&a.hit_id).cloned());
        let items = match cached {
            Some(items) => items,
            None => {
                let items: Arc<[(i64, ItemView)]> = hit_items(db, a).await?.into();
                // Positions 0 .. total, each once: anything else is not kept (nor trusted).
                if items.len() as i64 != a.total || items.iter().enumerate().any(|(i, (_, v))| v.position != i as i64) {
                    return Err(WorkError::Internal(format!("HIT {} does not have items 1 to {}", a.hit_id, a.total)));
                }
                if let Ok(mut hits) = self.hits.lock() {
                    if hits.len() >= CACHE_HITS {
                        hits.clear();
                    }
                    hits.insert(a.hit_id, items.clone());
                }
                items
            }
        };
        let f = Arc::new(Fixed { id: a.id, owner: a.owner, rules: Rules::of(a), items });
        if let Ok(mut assignments) = self.assignments.lock() {
            if assignments.len() >= CACHE_ASSIGNMENTS {
                assignments.clear();
            }
            assignments.insert(a.public_id.clone(), f.clone());
        }
        Ok(f)
    }
}
