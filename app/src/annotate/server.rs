//! The domain of annotation (server only): who may work on an assignment, which item is
//! current, storing a judgment exactly once, and completion codes.
//!
//! Rules:
//! - An assignment of an account worker (`workers.user_id`) is only for that account's session;
//!   a crowd assignment is for whoever holds its public id (a 256-bit random token).
//! - Items are answered in order, each once. The current item is `assignments.next_position`;
//!   storing a judgment and advancing the position happen in one transaction, guarded by the
//!   expected position, so two racing requests cannot both answer (or skip) an item.
//! - A retry of a stored answer with the same idempotency key returns the current step again;
//!   any other second answer for the same item is refused.
//! - Every item is loaded with the same one query whatever its type: no extra work, no extra
//!   field, for quality-control items.

use assay_core::protocol::pairwise::{Preference, ScreenPick, Side};
use super::{Completion, CodeCheck, ItemView, JudgmentRecord, MyAssignment, AssignmentSummary, Step, WorkState};
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::protocol;
use assay_core::i18n::{Lang, Message, Text, fill};
use crate::campaign::assign::return_url;
use crate::db::{Db, now_ms};
use crate::signing::{completion_code, normalise_code};
use sqlx::Row;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Why a request about an assignment was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    #[error("Please sign in to work on this HIT.")]
    NotSignedIn,
    #[error("This HIT is assigned to someone else.")]
    NotYours,
    #[error("There is no HIT at this address.")]
    NotFound,
    /// Something else the request names does not exist (404; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Missing(String),
    /// The caller may not do this (403; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Forbidden(String),
    /// Nobody is signed in, or the credentials are not valid (401; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Unauthorized(String),
    /// Too much at once: come back in `retry_after_seconds` (429).
    #[error("{message}")]
    Busy { message: String, retry_after_seconds: u64 },
    /// The assignment is no longer open (expired, returned, blocked): a catalog message.
    #[error("{0}")]
    Gone(Message),
    /// The request collides with the assignment's state (not the current item, answered
    /// already): a catalog message with its values.
    #[error("{0}")]
    Conflict(Message),
    /// The answer is wrong (its problem, worded where it was found, or a catalog message).
    #[error("{0}")]
    Invalid(Message),
    #[error("{0}")]
    Internal(String),
}

impl From<sqlx::Error> for WorkError {
    fn from(e: sqlx::Error) -> Self {
        WorkError::Internal(e.to_string())
    }
}

/// A failure of a step annotation shares with other stages (the quality gate, the team
/// checks) keeps its kind: not found stays 404, forbidden 403; a server fault stays the server's.
impl From<crate::error::AppError> for WorkError {
    fn from(e: crate::error::AppError) -> Self {
        use crate::error::AppError;
        match e {
            AppError::NotFound(m) => WorkError::Missing(m),
            AppError::Forbidden(m) => WorkError::Forbidden(m),
            AppError::Unauthorized(m) => WorkError::Unauthorized(m),
            AppError::Gone(m) => WorkError::Gone(m.into()),
            AppError::Conflict(m) => WorkError::Conflict(m.into()),
            AppError::Busy { message, retry_after_seconds } => WorkError::Busy { message, retry_after_seconds },
            e @ (AppError::Invalid { .. } | AppError::Rejected { .. } | AppError::TooLarge(_)) => WorkError::Invalid(e.to_string().into()),
            e @ (AppError::Storage { .. } | AppError::Internal(_)) => WorkError::Internal(e.into_message()),
        }
    }
}

/// A refusal of the annotation domain is the [`AppError`](crate::error::AppError) of the same
/// kind, with the same message (the one mapping to HTTP is there).
impl From<WorkError> for crate::error::AppError {
    fn from(e: WorkError) -> Self {
        let message = e.to_string();
        e.with_message(message)
    }
}

impl WorkError {
    /// The refusal as the annotator reads it in `lang` (issue 18 item 3): the catalog renders
    /// its message key with its values, with the same kind (and so the same HTTP status). A
    /// text the catalog does not have (a fault of the server) stays as it is.
    pub fn in_language(self, lang: Lang) -> crate::error::AppError {
        let message = match &self {
            WorkError::NotSignedIn => lang.text(Text::ErrNotSignedIn).to_string(),
            WorkError::NotYours => lang.text(Text::ErrNotYours).to_string(),
            WorkError::NotFound => lang.text(Text::ErrNotFound).to_string(),
            WorkError::Gone(m) | WorkError::Conflict(m) | WorkError::Invalid(m) => m.in_language(lang),
            other => other.to_string(),
        };
        self.with_message(message)
    }

    fn with_message(self, message: String) -> crate::error::AppError {
        use crate::error::AppError;
        match self {
            WorkError::NotSignedIn => AppError::Unauthorized(message),
            WorkError::NotYours => AppError::Forbidden(message),
            WorkError::NotFound | WorkError::Missing(_) => AppError::NotFound(message),
            WorkError::Forbidden(_) => AppError::Forbidden(message),
            WorkError::Unauthorized(_) => AppError::Unauthorized(message),
            WorkError::Busy { retry_after_seconds, .. } => AppError::busy(message, retry_after_seconds),
            WorkError::Gone(_) => AppError::Gone(message),
            WorkError::Conflict(_) => AppError::Conflict(message),
            WorkError::Invalid(_) => AppError::invalid("answer", message),
            WorkError::Internal(_) => AppError::Internal(message),
        }
    }
}

/// The interface language of an assignment's pages (issue 18 item 3), for its refusals: the
/// campaign's ([`super::interface_language`]) when the address is an assignment's, else the
/// browser's (`accept_language`), else English. Says nothing else about the assignment.
pub async fn interface_lang_of(db: &Db, public_id: &str, accept_language: Option<&str>) -> Lang {
    let row: Option<(String, String, String)> = if public_id.is_empty() || public_id.len() > 200 {
        None
    } else {
        sqlx::query_as(
            "SELECT c.settings, c.task, t.target_lang FROM assignments a JOIN hits h ON h.id = a.hit_id \
             JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id WHERE a.public_id = $1",
        )
        .bind(public_id)
        .fetch_optional(&db.pool)
        .await
        .ok()
        .flatten()
    };
    // A campaign whose task this release does not know has no language of its own either.
    match row.and_then(|(settings, task, target): (String, String, String)| Some((settings, TaskKind::parse(&task)?, target))) {
        Some((settings, task, target)) => super::interface_language(&settings, task, &target, accept_language),
        None => Lang::choose("", "", accept_language),
    }
}

/// The longest time on screen accepted for one item (a day), in milliseconds.
pub const MAX_TIME_ON_SCREEN_MS: i64 = 24 * 3600 * 1000;

/// What the server knows about an assignment when a request arrives.
#[derive(Clone, Debug)]
struct Loaded {
    id: i64,
    public_id: String,
    /// The account the assignment is for; `None` for a crowd assignment.
    owner: Option<i64>,
    worker_id: i64,
    campaign_id: i64,
    hit_id: i64,
    status: AssignmentStatus,
    platform_params: Option<String>,
    next_position: i64,
    item_shown_at: Option<i64>,
    completion_code: Option<String>,
    /// The quality gate held this finished HIT's completion code.
    code_held: bool,
    total: i64,
    task: TaskKind,
    settings: String,
    reference_name: Option<String>,
    source_lang: String,
    target_lang: String,
}

crate::rows::row! {
    /// A row of [`load`]'s query.
    struct LoadedRow {
        id: i64,
        public_id: String,
        worker_id: i64,
        campaign_id: i64,
        hit_id: i64,
        status: AssignmentStatus as String,
        platform_params: Option<String>,
        next_position: i64,
        item_shown_at: Option<i64>,
        completion_code: Option<String>,
        code_held: i64,
        user_id: Option<i64>,
        blocked: i64,
        item_count: i64,
        task: TaskKind as String,
        settings: String,
        reference_name: Option<String>,
        source_lang: String,
        target_lang: String,
    }
}

async fn load(db: &Db, caller: Option<i64>, public_id: &str) -> Result<Loaded, WorkError> {
    if public_id.is_empty() || public_id.len() > 200 {
        return Err(WorkError::NotFound);
    }
    let row: LoadedRow = sqlx::query_as(
        "SELECT a.id, a.public_id, a.worker_id, h.campaign_id, a.hit_id, a.status, a.platform_params, a.next_position, a.item_shown_at, \
                a.completion_code, a.code_held, w.user_id, w.blocked, h.item_count, c.task, c.settings, \
                c.reference_name, t.source_lang, t.target_lang \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id \
         WHERE a.public_id = $1",
    )
    .bind(public_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(WorkError::NotFound)?;
    let owner = row.user_id;
    if let Some(owner) = owner {
        match caller {
            None => return Err(WorkError::NotSignedIn),
            Some(c) if c != owner => return Err(WorkError::NotYours),
            Some(_) => {}
        }
    }
    if row.blocked != 0 {
        return Err(WorkError::Gone(Text::ErrBlocked.into()));
    }
    Ok(Loaded {
        id: row.id,
        public_id: row.public_id,
        owner,
        worker_id: row.worker_id,
        campaign_id: row.campaign_id,
        hit_id: row.hit_id,
        status: row.status,
        platform_params: row.platform_params,
        next_position: row.next_position,
        item_shown_at: row.item_shown_at,
        completion_code: row.completion_code,
        code_held: row.code_held != 0,
        total: row.item_count,
        task: row.task,
        settings: row.settings,
        reference_name: row.reference_name,
        source_lang: row.source_lang,
        target_lang: row.target_lang,
    })
}

impl Loaded {
    fn check_live(&self) -> Result<(), WorkError> {
        match self.status {
            AssignmentStatus::Active | AssignmentStatus::Completed => Ok(()),
            // A reservation that lapsed before Start: the instructions still open, and Start
            // takes the slot back if nobody else has it (`start`).
            AssignmentStatus::Expired if !self.started() => Ok(()),
            AssignmentStatus::Expired => Err(WorkError::Gone(Text::ErrExpired.into())),
            AssignmentStatus::Returned => Err(WorkError::Gone(Text::ErrReturned.into())),
        }
    }

    fn started(&self) -> bool {
        self.item_shown_at.is_some() || self.next_position > 0
    }

    /// Refuses an answer to a finished HIT, or to one whose worker has not pressed Start.
    fn check_open(&self) -> Result<(), WorkError> {
        if self.status == AssignmentStatus::Completed {
            return Err(WorkError::Conflict(Text::ErrFinished.into()));
        }
        if !self.started() {
            return Err(WorkError::Conflict(Text::ErrNotStarted.into()));
        }
        Ok(())
    }
}

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
async fn hit_items(db: &Db, a: &Loaded) -> Result<Vec<(i64, ItemView)>, WorkError> {
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
    // Ranking, pairwise preference and post-editing may show the reference beside the source,
    // as the campaign chooses (`CampaignSettings::shows_reference`).
    let show_reference = super::screen_settings(&a.settings, task, &a.target_lang, "").show_reference;
    // Post-editing from scratch: the field starts empty and the output stays on the server.
    let from_scratch = assay_core::settings::CampaignSettings::read(&a.settings, task, "", "").postedit.from_scratch && protocol.layout() == protocol::Layout::Single && protocol.beside() == protocol::Beside::Source;
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
            let (candidate, right, pair_left) = match (row.pair_text, row.pair_left.as_deref()) {
                (None, _) => (row.shown_text, None, None),
                (Some(b), Some("a")) => (row.shown_text, Some(b), Some(Side::A)),
                (Some(b), Some("b")) => (b, Some(row.shown_text), Some(Side::B)),
                (Some(_), other) => return Err(WorkError::Internal(format!("pair item {} has no side on the left ({other:?})", row.id))),
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

/// Gives each item of a document unit its [`super::DocumentView`]: its place, and the unit's
/// other segments as `context` shows them. Items of a unit are consecutive (`hit::documents`).
fn add_documents(items: &mut [(i64, ItemView)], units: &[Option<i64>], context: assay_core::settings::DocumentContext, document_score: bool) {
    use assay_core::settings::DocumentContext;
    let mut start = 0;
    while start < items.len() {
        let mut end = start + 1;
        while end < items.len() && units[end].is_some() && units[end] == units[start] {
            end += 1;
        }
        let shown: Vec<super::ContextSegment> = items[start..end]
            .iter()
            .map(|(_, v)| super::ContextSegment { source: v.context.clone().unwrap_or_default(), candidate: v.candidate.clone() })
            .collect();
        for (k, (_, v)) in items[start..end].iter_mut().enumerate() {
            v.document = Some(super::DocumentView {
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
struct Fixed {
    id: i64,
    owner: Option<i64>,
    rules: Rules,
    items: Arc<[(i64, ItemView)]>,
}

impl Fixed {
    /// The HIT item at `position` (its internal id and view), if the HIT has one there.
    fn item(&self, position: i64) -> Option<&(i64, ItemView)> {
        usize::try_from(position).ok().and_then(|p| self.items.get(p))
    }

    /// The positions shown on one screen with the item at `position`: the item alone, or (relative
    /// ranking) every item of its screen, which are consecutive.
    fn screen_of(&self, position: i64) -> std::ops::Range<i64> {
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
    fn screens(&self) -> Option<i64> {
        let screens: std::collections::BTreeSet<i64> = self.items.iter().filter_map(|(_, v)| v.screen).collect();
        (!screens.is_empty()).then(|| screens.len() as i64)
    }

    /// The step showing the screen that starts at `position`: its first item, and the others of
    /// its screen.
    fn step_at(&self, position: i64) -> Option<Step> {
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
    assignments: Mutex<HashMap<String, Arc<Fixed>>>,
    hits: Mutex<HashMap<i64, Arc<[(i64, ItemView)]>>>,
    answers: std::sync::OnceLock<AnswerQueue>,
}

/// Entries kept before the cache starts again from empty (tens of MB at most).
const CACHE_ASSIGNMENTS: usize = 50_000;
const CACHE_HITS: usize = 5_000;

impl Work {
    fn assignment(&self, public_id: &str) -> Option<Arc<Fixed>> {
        self.assignments.lock().ok()?.get(public_id).cloned()
    }

    /// The fixed facts of a loaded assignment, from memory or read once.
    async fn fixed(&self, db: &Db, a: &Loaded) -> Result<Arc<Fixed>, WorkError> {
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

/// The current step of an assignment (after any change has been stored), its item from the
/// HIT's items `f`.
fn step_of(secret: &[u8], a: &Loaded, f: &Fixed) -> Result<Step, WorkError> {
    if a.status == AssignmentStatus::Completed || a.next_position >= a.total {
        return Ok(Step {
            answered: a.total,
            item: None,
            together: Vec::new(),
            completion: Some(completion_view(secret, a)),
        });
    }
    if !a.started() {
        return Ok(Step { answered: 0, item: None, together: Vec::new(), completion: None });
    }
    f.step_at(a.next_position)
        .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, a.next_position)))
}

fn completion_view(secret: &[u8], a: &Loaded) -> Completion {
    if a.code_held && a.completion_code.is_none() {
        // Held by the quality gate: no code and no return address (which would carry one).
        return Completion { code: None, return_url: None };
    }
    let code = a.completion_code.clone().unwrap_or_else(|| completion_code(secret, &a.public_id));
    let return_url = a.platform_params.as_deref().and_then(|p| return_url(p, &code));
    Completion { code: Some(code), return_url }
}

/// The work page's state: the campaign's screen and the current step.
pub async fn work_state(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<WorkState, WorkError> {
    work_state_in(db, cache, secret, caller, public_id, None).await
}

/// [`work_state`] for a browser that reads the languages of `accept_language` (its
/// `Accept-Language` header): the screens' words in the interface language
/// ([`super::localized_screen_settings`]).
pub async fn work_state_in(
    db: &Db,
    cache: &Work,
    secret: &[u8],
    caller: Option<i64>,
    public_id: &str,
    accept_language: Option<&str>,
) -> Result<WorkState, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    let f = cache.fixed(db, &a).await?;
    let a = finish_if_due(db, secret, a).await?;
    let step = step_of(secret, &a, &f)?;
    let screen = super::localized_screen_settings(&a.settings, a.task, &a.target_lang, &a.source_lang, accept_language);
    let practice = if a.started() || a.status == AssignmentStatus::Completed { None } else { practice_view(db, &a).await? };
    // A DA HIT not started, with no practice left to do: the first item comes with the
    // instructions, so that Start shows it at once (and works before the page's bundle has
    // arrived on a slow phone). Its time still starts when Start reaches the server.
    let one_slider = protocol::for_task(a.task).hit_plan() == protocol::HitPlan::Items;
    let ahead = if one_slider && !a.started() && a.status == AssignmentStatus::Active && practice.as_ref().is_none_or(|p| p.passed) {
        f.step_at(a.next_position)
    } else {
        None
    };
    Ok(WorkState {
        assignment: a.public_id.clone(),
        title: super::public_title(&a.settings, a.task, screen.ui),
        task: a.task,
        // Direction comes from the test set's language code; the settings hold a display name.
        target_dir: super::direction_of(&a.target_lang).to_string(),
        source_dir: super::direction_of(&a.source_lang).to_string(),
        source_lang: super::bcp47(&a.source_lang),
        practice,
        screen,
        total: a.total,
        screens: f.screens(),
        started: a.started(),
        step,
        ahead,
    })
}

/// An active assignment whose every item is answered but that is not marked completed (only
/// possible if a HIT's size changed): completes it now. A finished assignment whose code the
/// gate never decided on (its last answer committed, then the server stopped or the gate
/// failed): the gate decides now.
async fn finish_if_due(db: &Db, secret: &[u8], mut a: Loaded) -> Result<Loaded, WorkError> {
    if a.status == AssignmentStatus::Active && a.next_position >= a.total {
        let now = now_ms();
        let mut tx = db.writer.begin().await?;
        let done = sqlx::query("UPDATE assignments SET status = $1, completed_at = $2 WHERE id = $3 AND status = $4")
            .bind(AssignmentStatus::Completed.as_str())
            .bind(now)
            .bind(a.id)
            .bind(AssignmentStatus::Active.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 1 {
            crate::campaign::gate::hold_until_decided(&mut tx, a.id).await?;
            tx.commit().await?;
            let code = gate_code(db, secret, a.id).await?;
            a.code_held = code.is_none();
            a.completion_code = code;
        } else {
            // Another request finished it first: read what it decided.
            tx.rollback().await?;
            let (completion_code, code_held): (Option<String>, i64) =
                sqlx::query_as("SELECT completion_code, code_held FROM assignments WHERE id = $1")
                    .bind(a.id)
                    .fetch_one(&db.pool)
                    .await?;
            a.completion_code = completion_code;
            a.code_held = code_held != 0;
        }
        a.status = AssignmentStatus::Completed;
    } else if a.status == AssignmentStatus::Completed && a.code_held && a.completion_code.is_none()
        && crate::campaign::gate::undecided(db, a.id).await?
    {
        let code = gate_code(db, secret, a.id).await?;
        a.code_held = code.is_none();
        a.completion_code = code;
    }
    Ok(a)
}

/// Leaves the instructions page: the first item's time starts now. Idempotent.
pub async fn start(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<Step, WorkError> {
    let mut a = load(db, caller, public_id).await?;
    a.check_live()?;
    let f = cache.fixed(db, &a).await?;
    // The server, not the browser, decides that the practice is done.
    if !a.started() && practice_view(db, &a).await?.is_some_and(|p| !p.passed) {
        return Err(WorkError::Conflict(Text::ErrPracticeFirst.into()));
    }
    if a.status == AssignmentStatus::Expired && !a.started() {
        if !crate::campaign::assign::reclaim_reservation(db, a.id, now_ms()).await? {
            return Err(WorkError::Gone(Text::ErrReservationGone.into()));
        }
        a = load(db, caller, public_id).await?;
    }
    if a.status == AssignmentStatus::Active && !a.started() {
        let now = now_ms();
        sqlx::query("UPDATE assignments SET item_shown_at = $1, last_seen_at = $1 WHERE id = $2 AND item_shown_at IS NULL")
            .bind(now)
            .bind(a.id)
            .execute(&db.writer)
            .await?;
        a = load(db, caller, public_id).await?;
    }
    step_of(secret, &a, &f)
}

// ---------------------------------------------------------------------------------------------
// Practice (issue 18): items of their own table, answered before Start, scored against expected
// ranges, never judgments. The worker's progress is kept per campaign, so a reload or the
// worker's next HIT of the campaign does not repeat a practice already passed.

crate::rows::row! {
    /// A row of `practice_items`.
    struct PracticeRow {
        position: i64,
        context: Option<String>,
        candidate: String,
        expect_high: i64,
        expect_low1: f64,
        expect_high1: f64,
        expect_low2: f64,
        expect_high2: f64,
        reason: String,
        others: Option<String>,
        original_at: Option<i64>,
    }
}

impl PracticeRow {
    /// The item as the screen shows it: one output, or the first of several (a pair: with the
    /// second on the right, as a real pair; a screen ranked together: the rest in
    /// [`PracticeRow::together`], as a real screen's).
    fn view(&self, task: TaskKind) -> ItemView {
        let pair = protocol::for_task(task).practice().is_some_and(|r| r.feedback == protocol::Feedback::Pair);
        let others = if pair { self.core().others } else { Vec::new() };
        ItemView {
            position: self.position,
            candidate: self.candidate.clone(),
            context: self.context.clone(),
            reference: None,
            screen: None,
            document: None,
            prefilled: Vec::new(),
            right: others.first().cloned(),
            pair_left: None,
            hidden_output: None,
        }
    }

    /// A screen of several outputs ranked together: the outputs after the first, as a real
    /// screen's rest (none for a pair, whose second output is its item's right side).
    fn together(&self, task: TaskKind) -> Vec<ItemView> {
        let first = self.view(task);
        if first.right.is_some() {
            return Vec::new();
        }
        self.core().others.into_iter().map(|candidate| ItemView { candidate, ..first.clone() }).collect()
    }

    /// The practice item as the core built it (its outputs and which one is the original).
    fn core(&self) -> assay_core::hit::practice::PracticeItem {
        let expected = self.expected();
        assay_core::hit::practice::PracticeItem {
            text: 0,
            context: self.context.clone(),
            candidate: self.candidate.clone(),
            high: expected.high,
            range1: expected.range1,
            range2: expected.range2,
            reason: self.reason.clone(),
            // Written by the launch from a list of strings: anything else is no list.
            others: self.others.as_deref().and_then(|o| serde_json::from_str(o).ok()).unwrap_or_default(),
            original: self.original_at.and_then(|o| usize::try_from(o).ok()),
        }
    }

    /// What a careful reader answers to it.
    fn expected(&self) -> protocol::Practice {
        protocol::Practice { high: self.expect_high != 0, range1: (self.expect_low1, self.expect_high1), range2: (self.expect_low2, self.expect_high2) }
    }
}

async fn practice_items(db: &Db, campaign_id: i64) -> Result<Vec<PracticeRow>, WorkError> {
    Ok(sqlx::query_as(
        "SELECT position, context, candidate, expect_high, expect_low1, expect_high1, expect_low2, expect_high2, reason, others, original_at \
         FROM practice_items WHERE campaign_id = $1 ORDER BY position",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await?)
}

/// (next position, answers in range this round, rounds, passed) of a worker in a campaign.
async fn practice_progress(db: &Db, a: &Loaded) -> Result<(i64, i64, i64, bool), WorkError> {
    let row: Option<(i64, i64, i64, Option<i64>)> = sqlx::query_as(
        "SELECT next_position, matched, rounds, passed_at FROM practice_progress WHERE campaign_id = $1 AND worker_id = $2",
    )
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|(n, m, r, p)| (n, m, r, p.is_some())).unwrap_or((0, 0, 1, false)))
}

/// How many practice answers in range the campaign asks for (at most the items there are).
fn practice_required(a: &Loaded, items: usize) -> i64 {
    crate::campaign::CampaignSettings::read(&a.settings, a.task, "", "").practice_pass.min(items) as i64
}

/// Where the worker stands in the campaign's practice; `None` when it has none.
async fn practice_view(db: &Db, a: &Loaded) -> Result<Option<super::PracticeView>, WorkError> {
    let items = practice_items(db, a.campaign_id).await?;
    if items.is_empty() {
        return Ok(None);
    }
    let (next, matched, round, passed) = practice_progress(db, a).await?;
    let current = if passed { None } else { items.get(usize::try_from(next).unwrap_or(0)) };
    let (item, together) = (current.map(|c| c.view(a.task)), current.map(|c| c.together(a.task)).unwrap_or_default());
    Ok(Some(super::PracticeView {
        total: items.len() as i64,
        required: practice_required(a, items.len()),
        position: next,
        matched,
        round,
        passed,
        item,
        together,
    }))
}

/// Stores nothing but the worker's progress: checks a practice answer against its expected
/// range and says what a careful reader would answer and why. The next practice item (or the
/// round's end) is in the returned view.
pub async fn practice_answer(
    db: &Db,
    caller: Option<i64>,
    public_id: &str,
    position: i64,
    score: Option<f64>,
    score2: Option<f64>,
) -> Result<super::PracticeFeedback, WorkError> {
    practice_answer_in(db, caller, public_id, position, PracticeGiven { score, score2, ..Default::default() }, None).await
}

/// A practice answer as sent: a score (DA, ESA), a second (word order), error spans (ESA, MQM),
/// a rank per output shown (a screen of several outputs ranked; a pair is answered by the
/// side clicked as its score, as a real pair: 1 the left output, ½ about the same, 0 the right).
#[derive(Clone, Debug, Default)]
pub struct PracticeGiven {
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub spans: Vec<protocol::Span>,
    pub ranks: Vec<u32>,
}

/// The ranks of a practice screen of `outputs` outputs as sent: as they are, or a pair's
/// side clicked (1 the left output, ½ about the same, 0 the right), each output's rank in
/// 1 ..= `top`, one per output.
fn practice_ranks(given: &PracticeGiven, outputs: usize, top: usize) -> Result<Vec<u32>, WorkError> {
    let ranks = match (given.ranks.is_empty(), outputs, given.score) {
        (false, _, _) => given.ranks.clone(),
        (true, 2, Some(s)) if s == 1.0 => vec![1, 2],
        (true, 2, Some(s)) if s == 0.5 => vec![1, 1],
        (true, 2, Some(s)) if s == 0.0 => vec![2, 1],
        _ => return Err(WorkError::Invalid("Please choose A, B or \u{201c}about the same\u{201d} before going on (score 1, 0 or 0.5).".into())),
    };
    let top = top.max(outputs);
    if ranks.len() != outputs || ranks.iter().any(|&r| r == 0 || r as usize > top) || given.score2.is_some() || !given.spans.is_empty() {
        return Err(WorkError::Invalid(Message::plain(format!(
            "This practice screen shows {outputs} translations: give each a rank from 1 (best) to {top}, and nothing else."
        ))));
    }
    Ok(ranks)
}

/// [`practice_answer`] with its feedback in the interface language of a browser that reads the
/// languages of `accept_language`.
pub async fn practice_answer_in(
    db: &Db,
    caller: Option<i64>,
    public_id: &str,
    position: i64,
    given: PracticeGiven,
    accept_language: Option<&str>,
) -> Result<super::PracticeFeedback, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    if a.started() || a.status == AssignmentStatus::Completed {
        return Err(WorkError::Conflict(Text::ErrPracticeOver.into()));
    }
    let items = practice_items(db, a.campaign_id).await?;
    if items.is_empty() {
        return Err(WorkError::Invalid("This campaign has no practice items.".into()));
    }
    let (next, matched, round, passed) = practice_progress(db, &a).await?;
    if passed {
        return Err(WorkError::Conflict(Text::ErrPracticeDone.into()));
    }
    if position != next {
        return Err(WorkError::Conflict(Message::new(Text::ErrPracticeNotCurrent, &[("n", &(next + 1).to_string())])));
    }
    let item = items.get(usize::try_from(position).unwrap_or(usize::MAX)).ok_or_else(|| WorkError::Internal(format!("no practice item {position}")))?;
    let rules = Rules::of(&a);
    let task = rules.task;
    // Checked as a real answer to the text shown is (its spans against that text), then by the
    // protocol against what a careful reader answers.
    // A screen of several outputs (pairwise preference, ranking) is answered by the original's
    // share of the win against its copy, from the ranks given (`PracticeItem::original_share`).
    let core = item.core();
    let (stored, ranks) = if core.original.is_some() {
        let ranks = practice_ranks(&given, core.others.len() + 1, rules.answers.outputs)?;
        let share = core.original_share(&ranks).ok_or_else(|| WorkError::Internal(format!("practice item {position} has no original among its outputs")))?;
        (protocol::Answer { score: Some(share), ..Default::default() }, ranks)
    } else {
        let answer = protocol::Answer {
            score: given.score,
            score2: given.score2,
            skipped: false,
            detail: protocol::Detail { spans: given.spans, ..Default::default() },
        };
        (protocol::validate_on(task, &item.candidate, &answer, &rules.answers).map_err(|e| WorkError::Invalid(Message::plain(e.problem)))?, Vec::new())
    };
    let spans_task = task.marks_spans();
    if stored.score.is_none() && !spans_task {
        return Err(WorkError::Invalid("A practice item needs an answer.".into()));
    }
    let in_range = protocol::for_task(task).practice_matches(&item.expected(), &stored);
    let feedback = protocol::for_task(task).practice().map_or(protocol::Feedback::Slider, |r| r.feedback);
    let woj = feedback == protocol::Feedback::Boxes;
    let value = stored.score.unwrap_or(0.0);

    let total = items.len() as i64;
    let required = practice_required(&a, items.len());
    let now = now_ms();
    let matched_now = matched + i64::from(in_range);
    let last = position + 1 >= total;
    let passes = last && matched_now >= required;
    let (new_next, new_matched, new_round, passed_at) = match (last, passes) {
        (false, _) => (position + 1, matched_now, round, None),
        (true, true) => (total, matched_now, round, Some(now)),
        (true, false) => (0, 0, round + 1, None),
    };
    let mut tx = db.writer.begin().await?;
    sqlx::query(
        "INSERT INTO practice_progress (campaign_id, worker_id, next_position, matched, rounds, updated_at) VALUES ($1, $2, 0, 0, 1, $3) \
         ON CONFLICT (campaign_id, worker_id) DO NOTHING",
    )
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let moved = sqlx::query(
        "UPDATE practice_progress SET next_position = $1, matched = $2, rounds = $3, passed_at = $4, updated_at = $5 \
         WHERE campaign_id = $6 AND worker_id = $7 AND next_position = $8 AND rounds = $9 AND passed_at IS NULL",
    )
    .bind(new_next)
    .bind(new_matched)
    .bind(new_round)
    .bind(passed_at)
    .bind(now)
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .bind(position)
    .bind(round)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved != 1 {
        tx.rollback().await?;
        return Err(WorkError::Conflict(Text::ErrPracticeAnswered.into()));
    }
    tx.commit().await?;

    let screen = super::localized_screen_settings(&a.settings, a.task, &a.target_lang, &a.source_lang, accept_language);
    let (l, w) = (screen.ui, &screen.wording);
    let reason = assay_core::i18n::practice_reason(l, &item.reason);
    let high = item.expect_high != 0;
    // A screen of several outputs: each output's label on the screen, the original's, and its
    // copies'.
    let labels: Vec<String> = (0..=core.others.len())
        .map(|k| match (feedback, k) {
            (protocol::Feedback::Pair, 0) => l.msg(super::Msg::PairTranslationA).to_string(),
            (protocol::Feedback::Pair, _) => l.msg(super::Msg::PairTranslationB).to_string(),
            _ => fill(l.msg(super::Msg::TranslationN), &[("n", &(k + 1).to_string())]),
        })
        .collect();
    let original = core.original.unwrap_or(0);
    let better = labels.get(original).cloned().unwrap_or_default();
    let worse = labels.iter().enumerate().filter(|&(k, _)| k != original).map(|(_, s)| s.as_str()).collect::<Vec<_>>().join(", ");
    let message = match (feedback, high) {
        (protocol::Feedback::Pair, _) => fill(l.text(Text::FeedbackPair), &[("better", &better), ("worse", &worse), ("reason", &reason)]),
        (protocol::Feedback::Ranks, _) => fill(l.text(Text::FeedbackRanks), &[("better", &better), ("worse", &worse), ("reason", &reason)]),
        (protocol::Feedback::Boxes, true) => fill(l.text(Text::FeedbackWojHigh), &[("high1", &w.woj_high1), ("high2", &w.woj_high2), ("reason", &reason)]),
        (protocol::Feedback::Boxes, false) => fill(l.text(Text::FeedbackWojLow), &[("low2", &w.woj_low2), ("reason", &reason)]),
        (protocol::Feedback::SpansAndScore, true) => fill(l.text(Text::FeedbackSpansHigh), &[("high", &w.anchor_high), ("reason", &reason)]),
        (protocol::Feedback::SpansAndScore, false) => fill(l.text(Text::FeedbackSpansLow), &[("low", &w.anchor_low), ("reason", &reason)]),
        (protocol::Feedback::Spans, true) => fill(l.text(Text::FeedbackMqmHigh), &[("reason", &reason)]),
        (protocol::Feedback::Spans, false) => fill(l.text(Text::FeedbackMqmLow), &[("reason", &reason)]),
        (protocol::Feedback::Slider, true) => {
            fill(l.text(Text::FeedbackHigh), &[("high", &w.anchor_high), ("reason", &reason)])
        }
        (protocol::Feedback::Slider, false) => {
            fill(l.text(Text::FeedbackLow), &[("low", &w.anchor_low), ("reason", &reason)])
        }
    };
    let rating = || fill(l.text(Text::YourRating), &[("words", &super::screens::widgets::slider_words(|m| l.msg(m).to_string(), Some(value), &w.anchor_low, &w.anchor_high))]);
    let yours = if feedback == protocol::Feedback::Pair {
        let choice = match ranks.as_slice() {
            [a, b] if a < b => super::Msg::PairPickA,
            [a, b] if a > b => super::Msg::PairPickB,
            _ => super::Msg::PairPickSame,
        };
        fill(l.text(Text::YourPick), &[("choice", l.msg(choice))])
    } else if !ranks.is_empty() {
        let each = labels
            .iter()
            .zip(&ranks)
            .map(|(label, r)| format!("{label}: {}", fill(l.msg(super::Msg::RankN), &[("r", &r.to_string())])))
            .collect::<Vec<_>>()
            .join("; ");
        fill(l.text(Text::YourRanks), &[("ranks", &each)])
    } else if woj {
        let words = |v: f64, low: &str, high: &str| match super::woj_box(v) {
            Some(b) if !screen.woj_sliders => fill(l.msg(super::Msg::BoxN), &[("n", &b.to_string())]),
            _ => super::screens::widgets::slider_words(|m| l.msg(m).to_string(), Some(v * 100.0), low, high),
        };
        fill(
            l.text(Text::YourAnswers),
            &[
                ("first", &words(value, &w.woj_low1, &w.woj_high1)),
                ("second", &words(stored.score2.unwrap_or(0.0), &w.woj_low2, &w.woj_high2)),
            ],
        )
    } else if spans_task {
        let spans = &stored.detail.spans;
        let serious = spans.iter().filter(|s| s.severity >= protocol::Severity::Major).count();
        let marked = fill(l.text(Text::YourSpans), &[("n", &spans.len().to_string()), ("major", &serious.to_string())]);
        if stored.score.is_some() { format!("{marked} {}", rating()) } else { marked }
    } else {
        rating()
    };
    let verdict = l.text(if in_range { Text::VerdictIn } else { Text::VerdictOut }).to_string();
    let (matched_s, total_s, required_s) = (matched_now.to_string(), total.to_string(), required.to_string());
    let round_result = last.then(|| {
        let counts = [("matched", matched_s.as_str()), ("total", total_s.as_str()), ("required", required_s.as_str())];
        fill(l.text(if passes { Text::RoundPassed } else { Text::RoundFailed }), &counts)
    });
    let practice = practice_view(db, &a).await?.ok_or_else(|| WorkError::Internal("the practice items disappeared".into()))?;
    let outputs = if core.original.is_some() { labels.into_iter().zip(core.shown().into_iter().map(str::to_string)).collect() } else { Vec::new() };
    Ok(super::PracticeFeedback { in_range, message, yours, verdict, round_result, practice, outputs })
}

/// One answer as the browser sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub position: i64,
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub skipped: bool,
    /// Time the item was on screen, measured by the browser.
    pub time_on_screen_ms: i64,
    /// Of that, the time the page was in use (visible, focused, input within the campaign's
    /// idle gap), measured by the browser; `None` when not sent.
    pub active_ms: Option<i64>,
    /// Chosen by the browser per item; a retry sends the same key.
    pub idempotency_key: String,
    /// Error spans and a document score (ESA); empty for every other task.
    pub detail: protocol::Detail,
}

/// What an answer is checked against: the campaign's task and its answer rules, and the HIT's
/// length.
#[derive(Clone, Debug)]
struct Rules {
    task: TaskKind,
    total: i64,
    answers: protocol::AnswerRules,
    /// MQM: the campaign's categories, severities, error cap and weights.
    mqm: Option<Arc<assay_core::protocol::mqm::MqmSettings>>,
}

impl Rules {
    fn of(a: &Loaded) -> Rules {
        let screen = super::screen_settings(&a.settings, a.task, &a.target_lang, "");
        Rules {
            task: a.task,
            total: a.total,
            answers: protocol::AnswerRules { allow_skip: screen.allow_skip, woj_sliders: screen.woj_sliders, outputs: screen.rank_outputs },
            mqm: (protocol::for_task(a.task).span_scheme() == Some(protocol::Scheme::Mqm))
                .then(|| Arc::new(assay_core::settings::CampaignSettings::read(&a.settings, a.task, "", "").mqm)),
        }
    }
}

/// The active time of an answer is at most its time on screen.
fn check_active(active_ms: Option<i64>, time_on_screen_ms: i64) -> Result<(), WorkError> {
    match active_ms {
        Some(t) if !(0..=time_on_screen_ms).contains(&t) => Err(WorkError::Invalid(Message::plain(format!(
            "The active time must be between 0 and the time on screen ({time_on_screen_ms} ms); got {t}."
        )))),
        _ => Ok(()),
    }
}

/// `text` with its first letter in upper case (a message that starts a sentence).
fn upper_first(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// [`validate_on`] for an answer without spans: the (score, score2) to store.
#[cfg(test)]
fn validate(a: &Rules, answer: &Answer) -> Result<(Option<f64>, Option<f64>), WorkError> {
    validate_on(a, None, answer).map(|s| (s.score, s.score2))
}

/// Checks the request (key, time, position), then the answer by the task's protocol against
/// the item shown (`item`: its text for error spans, its document for a document score;
/// [`protocol::validate_on`]); returns the answer to store.
fn validate_on(a: &Rules, item: Option<&ItemView>, answer: &Answer) -> Result<protocol::Answer, WorkError> {
    let key = answer.idempotency_key.trim();
    if key.is_empty() || key.len() > 100 || key.chars().any(char::is_control) {
        return Err(WorkError::Invalid("The request needs an idempotency key of 1 to 100 printable characters.".into()));
    }
    if !(0..=MAX_TIME_ON_SCREEN_MS).contains(&answer.time_on_screen_ms) {
        return Err(WorkError::Invalid(Message::plain(format!(
            "The time on screen must be between 0 and {MAX_TIME_ON_SCREEN_MS} ms (got {}).",
            answer.time_on_screen_ms
        ))));
    }
    check_active(answer.active_ms, answer.time_on_screen_ms)?;
    if answer.position < 0 || answer.position >= a.total {
        // Named as the page numbers items (from 1), without wrapping at the ends of i64.
        return Err(WorkError::Invalid(Message::plain(format!(
            "This HIT has items 1 to {}; there is no item {}.",
            a.total,
            i128::from(answer.position) + 1
        ))));
    }
    let task = a.task;
    let mut given = protocol::Answer { score: answer.score, score2: answer.score2, skipped: answer.skipped, detail: answer.detail.clone() };
    // Pairwise preference: the browser names the side clicked, as its score (1 the left
    // translation, ½ about the same, 0 the right one; `screens::pairwise`) or as a preference
    // whose `a` is the left output; the stored preference names the outputs, by the side the
    // item was shown with, which only the server knows.
    if let Some(left) = item.and_then(|v| v.pair_left)
        && !given.skipped
    {
        let pick = match (given.detail.preference, given.score) {
            (Some(shown), _) => shown.screen_pick(),
            (None, Some(s)) if s == 1.0 => ScreenPick::Left,
            (None, Some(s)) if s == 0.5 => ScreenPick::Same,
            (None, Some(s)) if s == 0.0 => ScreenPick::Right,
            _ => return Err(WorkError::Invalid("Please choose A, B or \u{201c}about the same\u{201d} before going on (score 1, 0 or 0.5).".into())),
        };
        given = protocol::Answer { detail: protocol::Detail { preference: Some(Preference::from_screen(left, pick)), ..Default::default() }, ..Default::default() };
    } else if given.detail.preference.is_some() {
        return Err(WorkError::Invalid("This item shows one translation; there is no pair to choose from.".into()));
    }
    let text = item.map_or("", |v| v.hidden_output.as_deref().unwrap_or(&v.candidate));
    let mut stored = protocol::validate_on(task, text, &given, &a.answers).map_err(|e| WorkError::Invalid(Message::plain(e.problem)))?;
    // A post-edit: its score from the text shown ("no change needed" stores that text).
    assay_core::metrics::postedit::settle(text, &mut stored);
    // MQM: the campaign's categories, severities and cap; the score is −Σ weights.
    if let Some(m) = &a.mqm {
        m.apply(text, &mut stored).map_err(|e| WorkError::Invalid(Message::plain(format!("{}.", upper_first(&e.to_string())))))?;
    }
    // A document score comes with a document's last segment when the campaign asks for one,
    // and with no other segment.
    let wanted = item.and_then(|v| v.document.as_ref()).is_some_and(|d| d.document_score);
    match (wanted, stored.detail.document_score.is_some()) {
        (true, false) if !stored.skipped => {
            return Err(WorkError::Invalid("Please also score the whole document before going on.".into()));
        }
        (false, true) => return Err(WorkError::Invalid("Only the last segment of a document takes a document score.".into())),
        _ => {}
    }
    Ok(stored)
}

fn same(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
}

/// Which scores an answer carries: sqlx's Any driver binds a NULL f64 as a PostgreSQL float4,
/// and the statement cache would then refuse the next real f64 in that place, so a missing
/// score is left out of the statement instead of bound as NULL: one statement per shape.
fn shape(score: Option<f64>, score2: Option<f64>) -> usize {
    match (score.is_some(), score2.is_some()) {
        (true, true) => 0,
        (true, false) => 1,
        _ => 2,
    }
}

/// The INSERT of a judgment of each [`shape`], its one row selected `from` (with the time the
/// item was shown as `shown_at`): `$1` assignment, `$2` HIT item, `$4` skipped, `$5` now, `$6`
/// time on screen, `$7` key, `$8` active time (NULL when not sent), `$9`/`$10` scores (`$3` is
/// the position).
fn insert_judgment_from(shape: usize, shown_at: &str, from: &str) -> String {
    let (columns, values) = [(", score, score2", ", $9, $10"), (", score", ", $9"), ("", "")][shape];
    format!(
        "INSERT INTO judgments (assignment_id, hit_item_id, skipped, shown_at, submitted_at, time_on_screen_ms, idempotency_key, active_ms{columns}) \
         SELECT $1, $2, $4, {shown_at}, $5, $6, $7, $8{values} FROM {from}"
    )
}

/// [`insert_judgment_from`] the assignment where `condition` holds.
fn insert_judgment(shape: usize, condition: &str) -> String {
    insert_judgment_from(shape, "a.item_shown_at", &format!("assignments a WHERE a.id = $1 AND {condition}"))
}

/// A statement of [`insert_judgment_from`]'s numbering with an answer's values bound (the
/// scores of its [`shape`] only).
fn with_judgment(
    sql: &'static str,
    id: i64,
    hit_item_id: i64,
    answer: &Answer,
    score: Option<f64>,
    score2: Option<f64>,
    now: i64,
) -> sqlx::query::Query<'static, sqlx::Any, <sqlx::Any as sqlx::Database>::Arguments> {
    let query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(hit_item_id)
        .bind(answer.position)
        .bind(i64::from(answer.skipped))
        .bind(now)
        .bind(answer.time_on_screen_ms)
        .bind(answer.idempotency_key.trim().to_string())
        .bind(answer.active_ms);
    match (score, score2) {
        (Some(s), Some(s2)) => query.bind(s).bind(s2),
        (Some(s), None) => query.bind(s),
        _ => query,
    }
}

/// The guard of every answer, on the assignment `a`: item `$3` is still the current one of an
/// active, started assignment whose worker is not blocked. The status is written here
/// (`AssignmentStatus::Active`'s stored name) rather than bound: this guard is spliced into three
/// statements whose parameters are numbered by [`insert_judgment_from`], and one more parameter
/// in each would make them harder to read, not safer.
const IS_CURRENT: &str = "a.next_position = $3 AND a.status = 'active' AND (a.item_shown_at IS NOT NULL OR a.next_position > 0) \
     AND EXISTS (SELECT 1 FROM workers w WHERE w.id = a.worker_id AND w.blocked = 0)";

/// The INSERT of a judgment, guarded by the position it answers ([`IS_CURRENT`]).
static INSERT_IF_CURRENT: std::sync::LazyLock<[String; 3]> =
    std::sync::LazyLock::new(|| [0, 1, 2].map(|shape| insert_judgment(shape, IS_CURRENT)));

/// Stores the answer to item `position` of assignment `id` and moves the assignment to the
/// next item (or completes it after the last one, `completing`), in the open transaction.
/// `Ok(false)`: the item is not (or no longer) the current one of an active assignment of a
/// worker in good standing, or another request stored its answer first; nothing was written.
#[allow(clippy::too_many_arguments)]
async fn store_answer(
    tx: &mut sqlx::AnyConnection,
    id: i64,
    hit_item_id: i64,
    answer: &Answer,
    score: Option<f64>,
    score2: Option<f64>,
    completing: bool,
    now: i64,
) -> Result<bool, WorkError> {
    let insert = with_judgment(&INSERT_IF_CURRENT[shape(score, score2)], id, hit_item_id, answer, score, score2, now);
    match insert.execute(&mut *tx).await {
        Ok(r) if r.rows_affected() == 1 => {}
        Ok(_) => return Ok(false),
        // Another request answered this item at the same moment (PostgreSQL waits for it on
        // the unique index, then refuses).
        Err(e) if crate::db::is_conflict(&e) => return Ok(false),
        Err(e) => return Err(WorkError::Internal(format!("storing a judgment failed: {e}"))),
    }
    let moved = sqlx::query(
        "UPDATE assignments SET next_position = $1, item_shown_at = $2, last_seen_at = $3, status = $4, completed_at = $5 \
         WHERE id = $6 AND next_position = $7 AND status = $8",
    )
    .bind(answer.position + 1)
    .bind(if completing { None } else { Some(now) })
    .bind(now)
    .bind(if completing { AssignmentStatus::Completed } else { AssignmentStatus::Active }.as_str())
    .bind(if completing { Some(now) } else { None })
    .bind(id)
    .bind(answer.position)
    .bind(AssignmentStatus::Active.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    Ok(moved == 1)
}

/// [`store_answer`] for an item that is not the last. PostgreSQL: one statement (the database
/// orders concurrent writers itself). SQLite: through the [`AnswerQueue`].
async fn store_next_answer(db: &Db, work: &Work, id: i64, hit_item_id: i64, answer: &Answer, score: Option<f64>, score2: Option<f64>) -> Result<bool, WorkError> {
    let now = now_ms();
    if db.backend == crate::db::Backend::Postgres {
        // Lock the assignment if the item is the current one of an active, started assignment
        // of a worker in good standing (a concurrent answer that moved it first makes the row
        // fail the condition when it is re-read after the lock), advance it, and store the
        // judgment with the time the item was shown: all or nothing, in one round trip.
        static AT_ONCE: std::sync::LazyLock<[String; 3]> = std::sync::LazyLock::new(|| {
            [0, 1, 2].map(|shape| {
                format!(
                    "WITH current AS (SELECT a.id, a.item_shown_at FROM assignments a WHERE a.id = $1 AND {IS_CURRENT} FOR UPDATE), \
                     moved AS ( \
                        UPDATE assignments SET next_position = $3 + 1, item_shown_at = $5, last_seen_at = $5 \
                        FROM current WHERE assignments.id = current.id RETURNING current.item_shown_at AS shown_at) \
                     {}",
                    insert_judgment_from(shape, "moved.shown_at", "moved")
                )
            })
        });
        let query = with_judgment(&AT_ONCE[shape(score, score2)], id, hit_item_id, answer, score, score2, now);
        return match query.execute(&db.writer).await {
            Ok(r) => Ok(r.rows_affected() == 1),
            Err(e) if crate::db::is_conflict(&e) => Ok(false),
            Err(e) => Err(WorkError::Internal(format!("storing a judgment failed: {e}"))),
        };
    }
    let queued = QueuedAnswer { assignment: id, hit_item_id, answer: answer.clone(), score, score2, now };
    work.answers.get_or_init(|| AnswerQueue::start(db.writer.clone())).store(queued).await
}

/// An answer to an item that is not the last, waiting for the SQLite writer.
#[derive(Debug)]
struct QueuedAnswer {
    assignment: i64,
    hit_item_id: i64,
    answer: Answer,
    /// What [`validate`] made of the answer.
    score: Option<f64>,
    score2: Option<f64>,
    now: i64,
}

/// Group commit of answers on SQLite. The file has one writer; handing its one connection from
/// request to request costs a wake-up of the next request's task on a busy runtime each time,
/// and under load that hand-over, not SQLite, is what answers wait for. So one task, on a
/// thread of its own, takes every answer waiting, stores them in one transaction — one
/// database call per answer, each in a savepoint so that a failure undoes that answer alone —
/// and replies to each once the transaction is committed: an answer is acknowledged only when
/// it is durable, exactly as with a transaction per answer.
#[derive(Debug)]
struct AnswerQueue {
    sender: tokio::sync::mpsc::Sender<(QueuedAnswer, Reply)>,
}

/// Where the writer says whether an answer was stored.
type Reply = tokio::sync::oneshot::Sender<Result<bool, WorkError>>;

/// Answers stored in one transaction at most.
const GROUP_COMMIT_MAX: usize = 256;

impl AnswerQueue {
    fn start(writer: sqlx::AnyPool) -> AnswerQueue {
        let (sender, mut receiver) = tokio::sync::mpsc::channel(4 * GROUP_COMMIT_MAX);
        let spawned = std::thread::Builder::new().name("assay-answers".into()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!("the answer writer could not start: {e}");
                    return;
                }
            };
            runtime.block_on(async move {
                let mut batch: Vec<(QueuedAnswer, Reply)> = Vec::with_capacity(GROUP_COMMIT_MAX);
                while receiver.recv_many(&mut batch, GROUP_COMMIT_MAX).await > 0 {
                    let results = store_group(&writer, batch.iter().map(|(a, _)| a)).await;
                    for ((_, reply), result) in batch.drain(..).zip(results) {
                        let _ = reply.send(result);
                    }
                }
            });
        });
        if let Err(e) = spawned {
            tracing::error!("the answer writer thread could not start: {e}");
        }
        AnswerQueue { sender }
    }

    async fn store(&self, answer: QueuedAnswer) -> Result<bool, WorkError> {
        let (reply, result) = tokio::sync::oneshot::channel();
        let lost = || WorkError::Internal("the answer writer stopped".into());
        self.sender.send((answer, reply)).await.map_err(|_| lost())?;
        result.await.map_err(|_| lost())?
    }
}

/// Stores a group of answers in one transaction; for each, whether it was stored (`false`: its
/// item was not the current one, nothing of it was written) or why it failed.
async fn store_group<'a>(writer: &sqlx::AnyPool, answers: impl ExactSizeIterator<Item = &'a QueuedAnswer>) -> Vec<Result<bool, WorkError>> {
    // In a savepoint: advance the position if the item is the current one of an active,
    // started assignment of a worker in good standing; then, only if it moved, store the
    // judgment with the time the item was shown and start the next item's time. `changes()` is
    // the row count of the statement before, so the last one tells whether all happened (1) or
    // nothing did (0).
    static ONE_ANSWER: std::sync::LazyLock<[String; 3]> = std::sync::LazyLock::new(|| {
        [0, 1, 2].map(|shape| {
            format!(
                "SAVEPOINT answer; \
                 UPDATE assignments AS a SET next_position = $3 + 1, last_seen_at = $5 WHERE a.id = $1 AND {IS_CURRENT}; \
                 {}; \
                 UPDATE assignments SET item_shown_at = $5 WHERE id = $1 AND changes() = 1; \
                 SELECT changes() AS stored; RELEASE answer",
                insert_judgment(shape, "changes() = 1")
            )
        })
    });
    let n = answers.len();
    let all_failed = |e: String| (0..n).map(|_| Err(WorkError::Internal(e.clone()))).collect::<Vec<_>>();
    let mut conn = match writer.acquire().await {
        Ok(c) => c,
        Err(e) => return all_failed(format!("storing judgments: {e}")),
    };
    if let Err(e) = sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await {
        return all_failed(format!("storing judgments: {e}"));
    }
    let mut results = Vec::with_capacity(n);
    for a in answers {
        let one = with_judgment(&ONE_ANSWER[shape(a.score, a.score2)], a.assignment, a.hit_item_id, &a.answer, a.score, a.score2, a.now);
        // `fetch_all` runs every statement, RELEASE included; the one row is the SELECT's (read
        // by name: the statement is shared with `execute`, so it is not a `query_scalar`).
        let stored = one.fetch_all(&mut *conn).await;
        results.push(match stored {
            Ok(rows) => match rows.first().map(|r| r.try_get::<i64, _>("stored")) {
                Some(Ok(1)) => Ok(true),
                Some(Ok(0)) => Ok(false),
                other => Err(WorkError::Internal(format!("storing a judgment: unexpected result {other:?}"))),
            },
            Err(e) => {
                // A statement failed inside the savepoint: undo this answer alone.
                if let Err(undo) = sqlx::query("ROLLBACK TO answer; RELEASE answer").execute(&mut *conn).await {
                    let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
                    return all_failed(format!("storing judgments: {e}; undoing it: {undo}"));
                }
                if crate::db::is_conflict(&e) { Ok(false) } else { Err(WorkError::Internal(format!("storing a judgment failed: {e}"))) }
            }
        });
    }
    if let Err(e) = sqlx::query("COMMIT").execute(&mut *conn).await {
        let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
        return all_failed(format!("storing judgments: {e}"));
    }
    results
}

/// Stores the answer to the current item and returns the next step (the next item, or the
/// completion code after the last one).
///
/// An answer to any item but the last is stored from what the cache knows of the assignment,
/// guarded in SQL by the position it answers ([`store_next_answer`]: grouped on SQLite, one
/// statement on PostgreSQL).
/// Everything else — the last item (the quality gate decides on the code), a retry, a refusal,
/// an assignment not yet in the cache — goes through [`submit_checked`], which reads the
/// assignment first and explains any refusal.
pub async fn submit(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str, answer: &Answer) -> Result<Step, WorkError> {
    if let Some(f) = cache.assignment(public_id) {
        let mine = f.owner.is_none() || f.owner == caller;
        // The position is the client's: no arithmetic on it before it is known to be an item.
        let items = f.item(answer.position).zip(answer.position.checked_add(1).and_then(|next| f.item(next)));
        let checked = items.map(|((_, item), _)| validate_on(&f.rules, Some(item), answer));
        // An answer with spans or a document score takes the checked path (it stores them).
        if let (true, Some(Ok(stored)), Some(((hit_item_id, _), (_, next)))) = (mine, checked, items)
            && stored.detail.is_empty()
        {
            if store_next_answer(db, cache, f.id, *hit_item_id, answer, stored.score, stored.score2).await? {
                return Ok(Step { answered: answer.position + 1, item: Some(next.clone()), together: Vec::new(), completion: None });
            }
        }
    }
    submit_checked(db, cache, secret, caller, public_id, answer).await
}

/// The quality gate's decision on a HIT whose last answer is committed (its code held by
/// `gate::hold_until_decided` in that transaction): the completion code, or `None` when the
/// gate holds it. The gate reads and computes off the writer and stores its verdict in a short
/// transaction of its own (`gate::decide`). If it fails, the answer stays stored with its code
/// held, and the next look at the assignment runs the gate again ([`finish_if_due`]).
async fn gate_code(db: &Db, secret: &[u8], assignment: i64) -> Result<Option<String>, WorkError> {
    crate::campaign::gate::decide(db, secret, assignment)
        .await
        .map(|g| g.code)
        .map_err(|e| WorkError::Internal(format!("the quality gate failed: {e}")))
}

crate::rows::row! {
    /// The judgment already stored for an item, as [`submit_checked`] compares a retry with it.
    struct StoredAnswer {
        score: Option<f64>,
        score2: Option<f64>,
        skipped: i64,
        idempotency_key: Option<String>,
        detail: Option<String>,
    }
}

/// [`submit`] after reading the assignment: every refusal explained, retries answered, the
/// last item's completion and quality gate.
async fn submit_checked(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str, answer: &Answer) -> Result<Step, WorkError> {
    // Two rounds at most: a lost race (another request advanced the position) is re-judged
    // against what that request stored.
    for _ in 0..2 {
        let a = load(db, caller, public_id).await?;
        a.check_live()?;
        let f = cache.fixed(db, &a).await?;
        let checked = validate_on(&f.rules, f.item(answer.position).map(|(_, v)| v), answer)?;
        let (score, score2) = (checked.score, checked.score2);
        let detail = checked.detail.to_column();
        // Storing a judgment and advancing the position are one transaction, so only an item
        // before the current one can have an answer already (a retry, or a second answer).
        let existing: Option<StoredAnswer> = if answer.position < a.next_position {
            sqlx::query_as(
                "SELECT j.score, j.score2, j.skipped, j.idempotency_key, j.detail FROM judgments j \
                 JOIN hit_items hi ON hi.id = j.hit_item_id WHERE j.assignment_id = $1 AND hi.position = $2",
            )
            .bind(a.id)
            .bind(answer.position)
            .fetch_optional(&db.pool)
            .await?
        } else {
            None
        };
        if let Some(stored) = existing {
            let same_answer = same(stored.score, score)
                && same(stored.score2, score2)
                && (stored.skipped != 0) == answer.skipped
                && stored.detail == detail;
            if same_answer && stored.idempotency_key.as_deref() == Some(answer.idempotency_key.trim()) {
                // A retry of the last answer while its request still runs the gate decides too.
                return step_of(secret, &finish_if_due(db, secret, a).await?, &f);
            }
            return Err(WorkError::Conflict(Message::new(Text::ErrAnsweredAlready, &[("n", &(answer.position + 1).to_string())])));
        }
        a.check_open()?;
        if answer.position != a.next_position {
            return Err(WorkError::Conflict(Message::new(Text::ErrNotCurrent,
                &[("n", &(answer.position + 1).to_string()), ("next", &(a.next_position + 1).to_string())],
            )));
        }
        let (hit_item_id, _) = f.item(answer.position)
            .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, answer.position)))?;
        let now = now_ms();
        let last = answer.position + 1 >= a.total;
        let mut tx = db.writer.begin().await?;
        if !store_answer(&mut tx, a.id, *hit_item_id, answer, score, score2, last, now).await? {
            tx.rollback().await?;
            continue;
        }
        if detail.is_some() {
            sqlx::query("UPDATE judgments SET detail = $1 WHERE assignment_id = $2 AND hit_item_id = $3")
                .bind(detail.clone())
                .bind(a.id)
                .bind(*hit_item_id)
                .execute(&mut *tx)
                .await?;
        }
        // The HIT is finished: its code is held until the worker's reliability, pooled over
        // their HITs in this campaign, decides (with the campaign's gate) whether it is given.
        // The gate reads and computes after the commit, so the writer does not wait for it;
        // the code exists only once the judgment is stored.
        if last {
            crate::campaign::gate::hold_until_decided(&mut tx, a.id).await?;
        }
        tx.commit().await?;
        let code = if last { gate_code(db, secret, a.id).await? } else { None };
        if last {
            let after = Loaded {
                next_position: answer.position + 1,
                item_shown_at: None,
                status: AssignmentStatus::Completed,
                code_held: code.is_none(),
                completion_code: code,
                ..a
            };
            return step_of(secret, &after, &f);
        }
        let (_, next) = f.item(answer.position + 1)
            .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, answer.position + 1)))?;
        return Ok(Step { answered: answer.position + 1, item: Some(next.clone()), together: Vec::new(), completion: None });
    }
    Err(WorkError::Conflict(Text::ErrSameTime.into()))
}

// ---------------------------------------------------------------------------------------------
// Screens of several items (relative ranking)

/// The answers to every item of one screen, as the browser sends them (relative ranking).
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenAnswer {
    /// (position, rank) of each item of the screen, in order (relative ranking).
    pub ranks: Vec<(i64, u32)>,
    /// Or each item's own answer, in order (a protocol scoring each output of a screen:
    /// contrastive ESA); the position is the answer's.
    pub answers: Vec<Answer>,
    /// Time the screen was shown, measured by the browser; shared out over its items.
    pub time_on_screen_ms: i64,
    /// Of that, the active time (see [`Answer::active_ms`]); shared out the same way.
    pub active_ms: Option<i64>,
    /// Chosen by the browser per screen; a retry sends the same key.
    pub idempotency_key: String,
}

/// Stores the answers to every item of the current screen, all or nothing, and returns the next
/// step. Each item's judgment is stored as one answer is ([`store_answer`]: guarded by its
/// position, advancing it), in one transaction; every item gets the time the screen was shown
/// and a share of the time on screen. A retry with the same key returns the current step.
pub async fn submit_screen(db: &Db, cache: &Work, secret: &[u8], caller: Option<i64>, public_id: &str, screen: &ScreenAnswer) -> Result<Step, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    let f = cache.fixed(db, &a).await?;
    let key = screen.idempotency_key.trim();
    if key.is_empty() || key.len() > 90 {
        return Err(WorkError::Invalid("The request needs an idempotency key of 1 to 90 characters.".into()));
    }
    if !screen.ranks.is_empty() && !screen.answers.is_empty() {
        return Err(WorkError::Invalid("A screen's answers are ranks or each item's answer, not both.".into()));
    }
    // Each item's answer as the browser gives it: a rank, or its own answer.
    let given: Vec<(i64, protocol::Answer)> = if screen.answers.is_empty() {
        screen.ranks.iter().map(|&(p, rank)| (p, protocol::Answer { detail: protocol::Detail { rank: Some(rank), ..Default::default() }, ..Default::default() })).collect()
    } else {
        screen.answers.iter().map(|a| (a.position, protocol::Answer { score: a.score, score2: a.score2, skipped: a.skipped, detail: a.detail.clone() })).collect()
    };
    let Some(&(first, _)) = given.first() else {
        return Err(WorkError::Invalid("A screen's answers cannot be empty.".into()));
    };
    let range = f.screen_of(first);
    let n = given.len() as i64;
    if range.start != first || range.end - range.start != n || given.iter().enumerate().any(|(i, (p, _))| *p != first + i as i64) {
        return Err(WorkError::Invalid(Message::plain(format!(
            "The answers must be those of every item of one screen, in order (items {} to {}).",
            i128::from(range.start) + 1,
            i128::from(range.end)
        ))));
    }
    if f.item(first).and_then(|(_, v)| v.screen).is_none() {
        return Err(WorkError::Invalid("This HIT shows one item per screen: answer it with submit_judgment.".into()));
    }
    if !(0..=MAX_TIME_ON_SCREEN_MS).contains(&screen.time_on_screen_ms) {
        return Err(WorkError::Invalid(Message::plain(format!(
            "The time on screen must be between 0 and {MAX_TIME_ON_SCREEN_MS} ms (got {}).",
            screen.time_on_screen_ms
        ))));
    }
    check_active(screen.active_ms, screen.time_on_screen_ms)?;
    let task = f.rules.task;
    // Each item's answer, checked by the protocol, with its share of the time and its key.
    let share = screen.time_on_screen_ms / n;
    let active_share = screen.active_ms.map(|t| t / n);
    let mut checked = Vec::with_capacity(screen.ranks.len());
    for (i, (position, given)) in given.iter().enumerate() {
        let position = *position;
        // Spans are checked against the text the item showed (a protocol without spans refuses
        // any).
        let shown = f.item(position).map_or("", |(_, v)| v.candidate.as_str());
        let stored = protocol::validate_on(task, shown, given, &f.rules.answers)
            .map_err(|e| WorkError::Invalid(Message::plain(format!("Item {}: {}", i128::from(position) + 1, e.problem))))?;
        let time = if i as i64 == n - 1 { screen.time_on_screen_ms - share * (n - 1) } else { share };
        let active = screen.active_ms.zip(active_share).map(|(t, s)| if i as i64 == n - 1 { t - s * (n - 1) } else { s });
        let answer =
            Answer { position, score: None, score2: None, skipped: stored.skipped, time_on_screen_ms: time, active_ms: active, idempotency_key: format!("{key}#{i}"), detail: protocol::Detail::default() };
        checked.push((answer, stored));
    }
    if first < a.next_position {
        // A retry of this screen (same key, same ranks) gets the current step; anything else is a
        // second answer.
        let stored: Vec<(Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT j.idempotency_key, j.detail FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id \
             WHERE j.assignment_id = $1 AND hi.position >= $2 AND hi.position < $3 ORDER BY hi.position",
        )
        .bind(a.id)
        .bind(range.start)
        .bind(range.end)
        .fetch_all(&db.pool)
        .await?;
        let same = stored.len() == checked.len()
            && stored.iter().zip(&checked).all(|((k, d), (answer, s))| {
                k.as_deref() == Some(answer.idempotency_key.as_str()) && d.as_deref() == s.detail.to_column().as_deref()
            });
        if same {
            return step_of(secret, &finish_if_due(db, secret, a).await?, &f);
        }
        return Err(WorkError::Conflict(Message::new(Text::ErrScreenAnswered,
            &[("from", &(range.start + 1).to_string()), ("to", &range.end.to_string())],
        )));
    }
    a.check_open()?;
    if first != a.next_position {
        return Err(WorkError::Conflict(Message::new(Text::ErrNotOnScreen,
            &[("n", &(first + 1).to_string()), ("next", &(a.next_position + 1).to_string())],
        )));
    }
    let now = now_ms();
    let completing = range.end >= a.total;
    let mut tx = db.writer.begin().await?;
    for (i, (answer, stored)) in checked.iter().enumerate() {
        let (hit_item_id, _) = f.item(answer.position).ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, answer.position)))?;
        let last = i + 1 == checked.len();
        if !store_answer(&mut tx, a.id, *hit_item_id, answer, stored.score, stored.score2, last && completing, now).await? {
            tx.rollback().await?;
            return Err(WorkError::Conflict(Text::ErrSameTime.into()));
        }
        sqlx::query("UPDATE judgments SET detail = $1 WHERE assignment_id = $2 AND hit_item_id = $3")
            .bind(stored.detail.to_column())
            .bind(a.id)
            .bind(*hit_item_id)
            .execute(&mut *tx)
            .await?;
        if !last {
            // Every item of the screen was shown when the screen was.
            sqlx::query("UPDATE assignments SET item_shown_at = $1 WHERE id = $2")
                .bind(a.item_shown_at)
                .bind(a.id)
                .execute(&mut *tx)
                .await?;
        }
    }
    if completing {
        crate::campaign::gate::hold_until_decided(&mut tx, a.id).await?;
    }
    tx.commit().await?;
    let code = if completing { gate_code(db, secret, a.id).await? } else { None };
    let after = Loaded {
        next_position: range.end,
        item_shown_at: if completing { None } else { Some(now) },
        status: if completing { AssignmentStatus::Completed } else { AssignmentStatus::Active },
        code_held: completing && code.is_none(),
        completion_code: code,
        ..a
    };
    step_of(secret, &after, &f)
}

// ---------------------------------------------------------------------------------------------
// Completion codes (made and normalised by `crate::signing`)

/// Who presents a completion code, in the crowd platform's words (each optional): Mechanical
/// Turk's `workerId` and `assignmentId`, Prolific's `PROLIFIC_PID` and `SESSION_ID`, a plain
/// link's `worker`.
#[derive(Clone, Debug, Default)]
pub struct CodeClaim {
    pub mturk_worker: Option<String>,
    pub mturk_assignment: Option<String>,
    pub prolific_worker: Option<String>,
    pub prolific_session: Option<String>,
    pub link_worker: Option<String>,
}

impl CodeClaim {
    /// Whether every id the claim gives is that of the code's assignment: its worker on that
    /// platform, and the session it was started with (from `platform_params`).
    fn matches(&self, platform: &str, worker: &str, platform_params: Option<&str>) -> bool {
        let params = platform_params.and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok());
        let param = |key: &str| params.as_ref().and_then(|v| v.get(key)?.as_str()).map(|s| s.trim().to_string());
        let same = |given: &Option<String>, on: &str, actual: Option<String>| {
            given.as_deref().is_none_or(|g| platform == on && actual.is_some_and(|a| a == g.trim()))
        };
        same(&self.mturk_worker, "mturk", Some(worker.trim().to_string()))
            && same(&self.mturk_assignment, "mturk", param("assignmentId"))
            && same(&self.prolific_worker, "prolific", Some(worker.trim().to_string()))
            && same(&self.prolific_session, "prolific", param("SESSION_ID"))
            && same(&self.link_worker, "link", Some(worker.trim().to_string()))
    }

    /// Whether the claim names the code's worker at all (issue 38): the worker id of its
    /// platform, and the platform session when the assignment was started in one. An account's
    /// assignment has no platform ids: no claim names it.
    fn names_worker(&self, platform: &str, platform_params: Option<&str>) -> bool {
        let session = crate::campaign::assign::session_of(platform_params).is_some();
        match platform {
            "mturk" => self.mturk_worker.is_some() && (!session || self.mturk_assignment.is_some()),
            "prolific" => self.prolific_worker.is_some() && (!session || self.prolific_session.is_some()),
            "link" => self.link_worker.is_some(),
            _ => false,
        }
    }
}

/// Checks a completion code: it must belong to a completed assignment and carry the server's
/// signature of that assignment's public id, and every platform id the claim gives must be that
/// assignment's (a code passed on to another worker or session is invalid). It is `valid` only
/// when the claim names the assignment's worker (and session); a genuine code without them is
/// answered not valid, with its assignment (which the caller shows to organizers only, who may
/// verify without the ids).
pub async fn verify_code(db: &Db, secret: &[u8], code: &str, claim: &CodeClaim) -> Result<CodeCheck, WorkError> {
    let invalid = CodeCheck { valid: false, assignment: None, campaign_name: None, completed_at: None };
    let Some(code) = normalise_code(code) else { return Ok(invalid) };
    crate::rows::row! {
        struct Issued {
            public_id: String,
            completed_at: Option<i64>,
            platform_params: Option<String>,
            platform: String,
            external_id: String,
            name: String,
        }
    }
    let row: Option<Issued> = sqlx::query_as(
        "SELECT a.public_id, a.completed_at, a.platform_params, w.platform, w.external_id, c.name FROM assignments a \
         JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id JOIN workers w ON w.id = a.worker_id \
         WHERE a.completion_code = $1 AND a.status = $2",
    )
    .bind(&code)
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(invalid) };
    if completion_code(secret, &row.public_id) != code {
        return Ok(invalid);
    }
    if !claim.matches(&row.platform, &row.external_id, row.platform_params.as_deref()) {
        return Ok(invalid);
    }
    Ok(CodeCheck {
        valid: claim.names_worker(&row.platform, row.platform_params.as_deref()),
        assignment: Some(row.public_id),
        campaign_name: Some(row.name),
        completed_at: row.completed_at,
    })
}

// ---------------------------------------------------------------------------------------------
// Lists

crate::rows::row! {
    /// A row of [`my_assignments`]' query.
    struct MyAssignmentRow {
        public_id: String,
        status: AssignmentStatus as String,
        next_position: i64,
        item_count: i64,
        name: String,
        task: TaskKind as String,
    }
}

/// The account's live assignments (active first), for the home page.
pub async fn my_assignments(db: &Db, user_id: i64) -> Result<Vec<MyAssignment>, WorkError> {
    let rows: Vec<MyAssignmentRow> = sqlx::query_as(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id \
         WHERE w.user_id = $1 AND a.status IN ($2, $3) ORDER BY a.status, a.started_at, a.id",
    )
    .bind(user_id)
    .bind(AssignmentStatus::Active.as_str())
    .bind(AssignmentStatus::Completed.as_str())
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| MyAssignment {
            assignment: r.public_id,
            campaign_name: r.name,
            task: r.task,
            total: r.item_count,
            answered: r.next_position,
            completed: r.status == AssignmentStatus::Completed,
        })
        .collect())
}

crate::rows::row! {
    /// A row of [`all_assignments`]' query.
    struct AssignmentRow {
        public_id: String,
        status: AssignmentStatus as String,
        next_position: i64,
        item_count: i64,
        name: String,
        task: TaskKind as String,
        platform: String,
        campaign_id: i64,
    }
}

/// Every assignment, newest first (organizers).
pub async fn all_assignments(db: &Db) -> Result<Vec<AssignmentSummary>, WorkError> {
    let rows: Vec<AssignmentRow> = sqlx::query_as(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task, w.platform, c.id AS campaign_id \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id ORDER BY a.id DESC",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| AssignmentSummary {
            assignment: r.public_id,
            campaign_id: r.campaign_id,
            campaign_name: r.name,
            task: r.task,
            platform: r.platform,
            status: r.status,
            total: r.item_count,
            answered: r.next_position,
        })
        .collect())
}

crate::rows::row! {
    /// A row of [`judgments_of`]' query.
    struct JudgmentRow {
        position: i64,
        item_type: String,
        system: Option<String>,
        segment_key: String,
        score: Option<f64>,
        score2: Option<f64>,
        skipped: i64,
        shown_at: Option<i64>,
        submitted_at: i64,
        time_on_screen_ms: Option<i64>,
        active_ms: Option<i64>,
        detail: Option<String>,
    }
}

impl From<JudgmentRow> for JudgmentRecord {
    fn from(r: JudgmentRow) -> Self {
        JudgmentRecord {
            position: r.position,
            item_type: r.item_type,
            system: r.system,
            segment_key: r.segment_key,
            score: r.score,
            score2: r.score2,
            skipped: r.skipped != 0,
            shown_at: r.shown_at,
            submitted_at: r.submitted_at,
            time_on_screen_ms: r.time_on_screen_ms,
            active_ms: r.active_ms,
            // A detail that does not read is shown as none (the analysis reports it).
            detail: protocol::Detail::from_column(r.detail.as_deref()).ok().filter(|d| !d.is_empty()),
        }
    }
}

/// The judgments of an assignment with their items' hidden facts, in item order (organizers).
pub async fn judgments_of(db: &Db, public_id: &str) -> Result<Vec<JudgmentRecord>, WorkError> {
    let rows: Vec<JudgmentRow> = sqlx::query_as(
        "SELECT hi.position, hi.item_type, sy.name AS system, s.segment_key, j.score, j.score2, j.skipped, \
                j.shown_at, j.submitted_at, j.time_on_screen_ms, j.active_ms, j.detail \
         FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hit_items hi ON hi.id = j.hit_item_id \
         JOIN segments s ON s.id = hi.segment_id LEFT JOIN systems sy ON sy.id = hi.system_id \
         WHERE a.public_id = $1 ORDER BY hi.position, j.id",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().map(JudgmentRecord::from).collect())
}

/// The items of an assignment's HIT with their hidden facts, answered or not (organizers):
/// (position, item type, system name).
#[allow(clippy::type_complexity)]
pub async fn items_of(db: &Db, public_id: &str) -> Result<Vec<(i64, String, Option<String>, Option<i64>, Option<String>, Option<String>, Option<String>)>, WorkError> {
    Ok(sqlx::query_as(
        "SELECT hi.position, hi.item_type, sy.name AS system, hi.gold_rank, sb.name AS pair_system, hi.pair_left, hi.pair_degraded \
         FROM assignments a JOIN hit_items hi ON hi.hit_id = a.hit_id \
         LEFT JOIN systems sy ON sy.id = hi.system_id LEFT JOIN systems sb ON sb.id = hi.pair_system_id WHERE a.public_id = $1 ORDER BY hi.position",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(task: &str, settings: &str) -> Rules {
        Rules::of(&Loaded {
            id: 1,
            public_id: "p".into(),
            owner: None,
            worker_id: 1,
            campaign_id: 1,
            hit_id: 1,
            status: AssignmentStatus::Active,
            platform_params: None,
            next_position: 0,
            item_shown_at: Some(1),
            completion_code: None,
            code_held: false,
            total: 50,
            task: TaskKind::parse(task).expect("a task"),
            settings: settings.into(),
            reference_name: None,
            source_lang: "de".into(),
            target_lang: "en".into(),
        })
    }

    fn answer(score: Option<f64>, score2: Option<f64>, skipped: bool) -> Answer {
        Answer { position: 3, score, score2, skipped, time_on_screen_ms: 1000, active_ms: None, idempotency_key: "k".into(), detail: protocol::Detail::default() }
    }

    #[test]
    fn answers_are_checked_against_the_task() {
        let da = rules("da-fluency", "{}");
        assert_eq!(validate(&da, &answer(Some(12.345678), None, false)), Ok((Some(12.345678), None)));
        assert_eq!(validate(&da, &answer(Some(0.0), None, false)), Ok((Some(0.0), None)));
        assert_eq!(validate(&da, &answer(Some(100.0), None, false)), Ok((Some(100.0), None)));
        for bad in [-0.001, 100.001, f64::NAN, f64::INFINITY] {
            assert!(matches!(validate(&da, &answer(Some(bad), None, false)), Err(WorkError::Invalid(_))), "{bad}");
        }
        assert!(validate(&da, &answer(None, None, true)).is_err(), "no skipping unless the campaign allows it");

        let boxes = rules("word-order", "{}");
        assert_eq!(validate(&boxes, &answer(Some(0.25), Some(1.0), false)), Ok((Some(0.25), Some(1.0))));
        assert!(validate(&boxes, &answer(Some(0.3), Some(1.0), false)).is_err());
        assert!(validate(&boxes, &answer(Some(0.25), None, false)).is_err());

        let sliders = rules("word-order", r#"{"woj_scale":"sliders","allow_skip":true}"#);
        assert_eq!(validate(&sliders, &answer(Some(0.3333), Some(0.9), false)), Ok((Some(0.3333), Some(0.9))));
        assert!(validate(&sliders, &answer(Some(1.5), Some(0.9), false)).is_err());
        assert_eq!(validate(&sliders, &answer(None, None, true)), Ok((None, None)));
        assert!(validate(&sliders, &answer(Some(0.5), None, true)).is_err(), "a skip carries no answer");

        let mut late = answer(Some(50.0), None, false);
        late.position = 50;
        assert!(validate(&da, &late).is_err());
        let mut slow = answer(Some(50.0), None, false);
        slow.time_on_screen_ms = MAX_TIME_ON_SCREEN_MS + 1;
        assert!(validate(&da, &slow).is_err());
        // Active time: at most the time on screen.
        for (active, ok) in [(Some(0), true), (Some(1000), true), (None, true), (Some(1001), false), (Some(-1), false)] {
            let a = Answer { active_ms: active, ..answer(Some(50.0), None, false) };
            assert_eq!(validate(&da, &a).is_ok(), ok, "{active:?}");
        }
    }

    // -----------------------------------------------------------------------------------------
    // Storing answers, on SQLite and PostgreSQL

    const SECRET: &[u8] = b"unit test secret";

    /// The demo work (its crowd assignment: DA, 100 items, no account) in a fresh database.
    async fn demo(db: &Db) -> crate::annotate::fixture::DemoWork {
        let user = crate::auth::server::create_user(db, "org@example.org", "Org", "a long enough password 1", crate::auth::Role::Organizer)
            .await
            .unwrap();
        crate::annotate::fixture::seed_demo_work(db, user.id).await.unwrap()
    }

    fn da(position: i64, score: f64, key: &str) -> Answer {
        Answer { position, score: Some(score), score2: None, skipped: false, time_on_screen_ms: 900, active_ms: Some(600), idempotency_key: key.into(), detail: protocol::Detail::default() }
    }

    /// (position, score, key, shown_at) of every judgment of an assignment, in order.
    async fn judgments(db: &Db, public_id: &str) -> Vec<(i64, Option<f64>, String, Option<i64>)> {
        sqlx::query(
            "SELECT hi.position, j.score, j.idempotency_key, j.shown_at FROM judgments j JOIN hit_items hi ON hi.id = j.hit_item_id \
             JOIN assignments a ON a.id = j.assignment_id WHERE a.public_id = $1 ORDER BY hi.position",
        )
        .bind(public_id)
        .fetch_all(&db.pool)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get("position"), r.get("score"), r.get("idempotency_key"), r.get("shown_at")))
        .collect()
    }

    async fn assignment_row(db: &Db, public_id: &str) -> (i64, i64, i64, Option<i64>) {
        let r = sqlx::query("SELECT id, worker_id, next_position, item_shown_at FROM assignments WHERE public_id = $1")
            .bind(public_id)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        (r.get("id"), r.get("worker_id"), r.get("next_position"), r.get("item_shown_at"))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn answers_are_stored_once_and_in_order_whatever_the_cache_holds() {
        for (db, _dir) in crate::campaign::tests::databases().await {
            let demo = demo(&db).await;
            let a = demo.crowd_assignment.as_str();
            let work = Work::default();
            let submit = |answer: Answer| {
                let (db, work) = (&db, &work);
                async move { submit(db, work, SECRET, None, a, &answer).await }
            };
            assert!(matches!(submit(da(0, 50.0, "early")).await, Err(WorkError::Conflict(_))), "{:?}: before Start", db.backend);
            start(&db, &work, SECRET, None, a).await.unwrap();
            assert!(work.assignment(a).is_some(), "Start keeps the assignment's fixed facts");

            let first = submit(da(0, 61.5, "k0")).await.unwrap();
            assert_eq!((first.answered, first.item.as_ref().map(|i| i.position)), (1, Some(1)));
            assert_eq!(submit(da(0, 61.5, "k0")).await.unwrap(), first, "a retry gets the same step");
            assert!(matches!(submit(da(0, 10.0, "k0")).await, Err(WorkError::Conflict(_))), "an answer cannot change");
            assert!(matches!(submit(da(3, 10.0, "k3")).await, Err(WorkError::Conflict(_))), "no skipping ahead");

            // Four different answers to item 2 at once: exactly one is stored.
            let (p, q, r, s) = tokio::join!(submit(da(1, 1.0, "r1")), submit(da(1, 2.0, "r2")), submit(da(1, 3.0, "r3")), submit(da(1, 4.0, "r4")));
            let outcomes = [p, q, r, s];
            assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{:?}: {outcomes:?}", db.backend);
            assert!(outcomes.iter().all(|o| o.is_ok() || matches!(o, Err(WorkError::Conflict(_)))), "{outcomes:?}");

            // What can change is read from the database, never from the cache: a blocked worker
            // is refused and an expired assignment is gone, and nothing is stored for either.
            let (id, worker, position, _) = assignment_row(&db, a).await;
            assert_eq!(position, 2);
            crate::campaign::assign::set_blocked(&db, worker, true).await.unwrap();
            assert!(matches!(submit(da(2, 70.0, "blocked")).await, Err(WorkError::Gone(_))));
            crate::campaign::assign::set_blocked(&db, worker, false).await.unwrap();
            sqlx::query("UPDATE assignments SET status = 'expired' WHERE id = $1").bind(id).execute(&db.writer).await.unwrap();
            assert!(matches!(submit(da(2, 70.0, "expired")).await, Err(WorkError::Gone(_))));
            sqlx::query("UPDATE assignments SET status = 'active' WHERE id = $1").bind(id).execute(&db.writer).await.unwrap();
            let third = submit(da(2, 70.0, "k2")).await.unwrap();
            assert_eq!(third.answered, 3);

            let stored = judgments(&db, a).await;
            assert_eq!(stored.iter().map(|j| j.0).collect::<Vec<_>>(), vec![0, 1, 2], "{:?}", db.backend);
            assert_eq!((stored[0].1, stored[0].2.as_str(), stored[2].1, stored[2].2.as_str()), (Some(61.5), "k0", Some(70.0), "k2"));
            // Each judgment carries the time its item was shown: when the one before was stored.
            assert!(stored.windows(2).all(|w| w[0].3 <= w[1].3), "{stored:?}");

            // A cold cache (another server, or a restart) gives the same answers.
            let fresh = Work::default();
            assert_eq!(super::submit(&db, &fresh, SECRET, None, a, &da(2, 70.0, "k2")).await.unwrap(), third);
            assert_eq!(super::submit(&db, &fresh, SECRET, None, a, &da(3, 5.0, "k3")).await.unwrap().answered, 4);
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn practice_comes_first_is_checked_by_the_server_and_is_never_a_judgment() {
        use crate::campaign::tests::{count, draft, import_folder, organizer};
        for (db, _dir) in crate::campaign::tests::databases().await {
            let set = import_folder(&db, "wmt-p", 40, &["Alpha", "Beta"]).await.test_sets[0].id;
            let uid = organizer(&db).await;
            let systems: Vec<i64> = sqlx::query_scalar("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap();
            let mut d = draft(set, systems.clone(), "da-adequacy", 70, 2);
            d.settings.practice_items = 4;
            d.settings.practice_pass = 5;
            let e = crate::campaign::launch::create_campaign(&db, &d, uid).await.unwrap_err().to_string();
            assert!(e.contains("cannot be more than the practice items (4)"), "{e}");
            d.settings.practice_pass = 3;
            // An en-de test set: the interface would be German; this test reads the English.
            d.settings.interface_language = "en".into();
            let id = crate::campaign::launch::create_campaign(&db, &d, uid).await.unwrap();
            crate::campaign::launch::launch_campaign(&db, id).await.unwrap();

            // Four practice items, high and low in turn, from segments no HIT shows.
            let rows: Vec<(i64, i64, String, String)> = sqlx::query_as(
                "SELECT segment_id, expect_high, candidate, reason FROM practice_items WHERE campaign_id = $1 ORDER BY position",
            )
            .bind(id)
            .fetch_all(&db.pool)
            .await
            .unwrap();
            assert_eq!(rows.iter().map(|r| r.1).collect::<Vec<_>>(), [1, 0, 1, 0], "{:?}", db.backend);
            let in_hits: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT hi.segment_id FROM hit_items hi JOIN hits h ON h.id = hi.hit_id WHERE h.campaign_id = $1")
                .bind(id)
                .fetch_all(&db.pool)
                .await
                .unwrap();
            assert!(!in_hits.is_empty() && rows.iter().all(|r| !in_hits.contains(&r.0)), "practice segments are set apart from the HITs");
            assert!(rows[1].3.starts_with("part of the meaning is missing"), "{}", rows[1].3);

            let worker = crate::campaign::assign::crowd_worker(&db, crate::campaign::assign::Platform::Link, "learner").await.unwrap();
            let a = crate::campaign::assign::next_assignment(&db, id, worker, None).await.unwrap().unwrap().public_id;
            let work = Work::default();
            let state = work_state(&db, &work, SECRET, None, &a).await.unwrap();
            let p = state.practice.clone().expect("the practice");
            assert_eq!((p.total, p.required, p.position, p.round, p.passed), (4, 3, 0, 1, false));
            assert_eq!(p.item.as_ref().map(|i| i.candidate.as_str()), Some(rows[0].2.as_str()));

            // The server starts no HIT, and takes no answer, before the practice is passed.
            assert!(matches!(start(&db, &work, SECRET, None, &a).await, Err(WorkError::Conflict(m)) if m.contains("practice")));
            assert!(matches!(submit(&db, &work, SECRET, None, &a, &da(0, 50.0, "k")).await, Err(WorkError::Conflict(_))));
            // Bad practice answers change nothing.
            assert!(matches!(practice_answer(&db, None, &a, 1, Some(50.0), None).await, Err(WorkError::Conflict(_))));
            assert!(matches!(practice_answer(&db, None, &a, 0, Some(150.0), None).await, Err(WorkError::Invalid(_))));
            assert!(matches!(practice_answer(&db, None, &a, 0, None, None).await, Err(WorkError::Invalid(_))));
            assert_eq!(work_state(&db, &work, SECRET, None, &a).await.unwrap().practice, Some(p));

            // A round with every answer the wrong way round starts over.
            for (k, high) in [true, false, true, false].into_iter().enumerate() {
                let f = practice_answer(&db, None, &a, k as i64, Some(if high { 10.0 } else { 90.0 }), None).await.unwrap();
                assert!(!f.in_range);
                let expected = if high { "A careful reader would score this high (towards “strongly agree”) because it is a human translation" } else { "A careful reader would score this low (towards “strongly disagree”) because part of the meaning is missing" };
                assert!(f.message.starts_with(expected), "{}", f.message);
                assert!(!f.yours.chars().any(|c| c.is_ascii_digit()), "no number: {}", f.yours);
                assert_eq!(f.round_result.is_some(), k == 3);
            }
            let p = work_state(&db, &work, SECRET, None, &a).await.unwrap().practice.unwrap();
            assert_eq!((p.position, p.round, p.passed), (0, 2, false), "{:?}", db.backend);
            // Three of four in range pass.
            for (k, score) in [95.0, 10.0, 30.0, 5.0].into_iter().enumerate() {
                let f = practice_answer(&db, None, &a, k as i64, Some(score), None).await.unwrap();
                assert_eq!(f.in_range, k != 2);
                if k == 3 {
                    assert!(f.practice.passed && f.round_result.unwrap().starts_with("Practice done: 3 of 4"));
                }
            }
            assert!(matches!(practice_answer(&db, None, &a, 0, Some(95.0), None).await, Err(WorkError::Conflict(_))), "passed once");
            assert_eq!(count(&db, "judgments").await, 0, "practice answers are never judgments");
            let first = start(&db, &work, SECRET, None, &a).await.unwrap();
            assert_eq!(first.item.as_ref().map(|i| i.position), Some(0));
            assert!(work_state(&db, &work, SECRET, None, &a).await.unwrap().practice.is_none(), "a started HIT shows no practice");
            submit(&db, &work, SECRET, None, &a, &da(0, 50.0, "k0")).await.unwrap();
            assert_eq!(count(&db, "judgments").await, 1);
            let active: Option<i64> = sqlx::query_scalar("SELECT active_ms FROM judgments").fetch_one(&db.pool).await.unwrap();
            assert_eq!(active, Some(600), "the active time is stored with the judgment");

            // The worker's next HIT of the campaign does not repeat the practice.
            sqlx::query("UPDATE assignments SET status = 'completed' WHERE public_id = $1").bind(&a).execute(&db.writer).await.unwrap();
            let b = crate::campaign::assign::next_assignment(&db, id, worker, None).await.unwrap().unwrap().public_id;
            assert_ne!(a, b);
            assert!(work_state(&db, &work, SECRET, None, &b).await.unwrap().practice.unwrap().passed);
            start(&db, &work, SECRET, None, &b).await.unwrap();

            // Ranking has practice (issue 38 row 15): screens of an original and its copy, stored
            // with the order shown and the original's place, segments set apart from the HITs.
            let mut r = draft(set, systems, "ranking", 100, 1);
            r.settings.practice_items = 2;
            r.settings.ranking.outputs = 2;
            let id = crate::campaign::launch::create_campaign(&db, &r, uid).await.unwrap();
            crate::campaign::launch::launch_campaign(&db, id).await.unwrap();
            let rows: Vec<(i64, String, Option<String>, Option<i64>)> =
                sqlx::query_as("SELECT segment_id, candidate, others, original_at FROM practice_items WHERE campaign_id = $1 ORDER BY position")
                    .bind(id)
                    .fetch_all(&db.pool)
                    .await
                    .unwrap();
            assert_eq!(rows.len(), 2, "{:?}", db.backend);
            for (segment, first, others, original) in rows {
                let others: Vec<String> = serde_json::from_str(others.as_deref().unwrap()).unwrap();
                let original = original.unwrap() as usize;
                assert!(others.len() == 1 && original <= 1);
                let references: Vec<String> =
                    sqlx::query_scalar("SELECT text FROM segment_references WHERE segment_id = $1").bind(segment).fetch_all(&db.pool).await.unwrap();
                let shown = [first, others[0].clone()];
                assert!(references.contains(&shown[original]) && !references.contains(&shown[1 - original]), "{shown:?} {references:?}");
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_group_of_answers_is_committed_together_and_each_fails_alone() {
        let (db, _dir) = crate::campaign::tests::databases().await.swap_remove(0);
        assert_eq!(db.backend, crate::db::Backend::Sqlite);
        let demo = demo(&db).await;
        let a = demo.crowd_assignment.as_str();
        start(&db, &Work::default(), SECRET, None, a).await.unwrap();
        let (id, _, _, shown) = assignment_row(&db, a).await;
        let items: Vec<i64> = sqlx::query("SELECT hi.id FROM hit_items hi JOIN assignments a ON a.hit_id = hi.hit_id WHERE a.id = $1 ORDER BY hi.position")
            .bind(id)
            .fetch_all(&db.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get("id"))
            .collect();
        let queued = |position: i64, hit_item_id: i64, key: &str, now: i64| QueuedAnswer {
            assignment: id,
            hit_item_id,
            answer: Answer { time_on_screen_ms: 700, ..da(position, position as f64 + 0.5, key) },
            score: Some(position as f64 + 0.5),
            score2: None,
            now,
        };
        let group = [
            queued(0, items[0], "a", 1_000),
            queued(0, items[0], "again", 2_000), // item 1 is no longer the current one
            queued(5, items[5], "ahead", 3_000), // not the current one either
            queued(1, -1, "broken", 4_000),      // no such HIT item: the insert fails
            queued(1, items[1], "b", 5_000),
        ];
        let results = store_group(&db.writer, group.iter()).await;
        assert_eq!(results[..3], [Ok(true), Ok(false), Ok(false)]);
        assert!(matches!(&results[3], Err(e) if e.to_string().contains("FOREIGN KEY")), "{:?}", results[3]);
        assert_eq!(results[4], Ok(true));
        // The failed answer left nothing behind: not its position, not its time.
        let stored = judgments(&db, a).await;
        assert_eq!(stored, vec![(0, Some(0.5), "a".to_string(), shown), (1, Some(1.5), "b".to_string(), Some(1_000))]);
        let (_, _, position, shown_now) = assignment_row(&db, a).await;
        assert_eq!((position, shown_now), (2, Some(5_000)));
    }
}
