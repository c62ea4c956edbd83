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

use super::{Completion, CodeCheck, ItemView, JudgmentRecord, MyAssignment, AssignmentSummary, Step, WOJ_VALUES, WorkState};
use crate::db::{Db, now_ms};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::Row;
use sqlx::any::AnyRow;

/// Why a request about an assignment was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    #[error("Please sign in to work on this HIT.")]
    NotSignedIn,
    #[error("This HIT is assigned to someone else.")]
    NotYours,
    #[error("There is no HIT at this address.")]
    NotFound,
    #[error("{0}")]
    Gone(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Internal(String),
}

impl From<sqlx::Error> for WorkError {
    fn from(e: sqlx::Error) -> Self {
        WorkError::Internal(e.to_string())
    }
}

/// The longest time on screen accepted for one item (a day), in milliseconds.
pub const MAX_TIME_ON_SCREEN_MS: i64 = 24 * 3600 * 1000;

/// What the server knows about an assignment when a request arrives.
#[derive(Clone, Debug)]
struct Loaded {
    id: i64,
    public_id: String,
    hit_id: i64,
    status: String,
    platform_params: Option<String>,
    next_position: i64,
    item_shown_at: Option<i64>,
    completion_code: Option<String>,
    /// The quality gate held this finished HIT's completion code.
    code_held: bool,
    total: i64,
    campaign_name: String,
    task: String,
    settings: String,
    reference_name: Option<String>,
    source_lang: String,
    target_lang: String,
}

async fn load(db: &Db, caller: Option<i64>, public_id: &str) -> Result<Loaded, WorkError> {
    if public_id.is_empty() || public_id.len() > 200 {
        return Err(WorkError::NotFound);
    }
    let row = sqlx::query(
        "SELECT a.id, a.public_id, a.hit_id, a.status, a.platform_params, a.next_position, a.item_shown_at, \
                a.completion_code, a.code_held, w.user_id, w.blocked, h.item_count, c.name AS campaign_name, c.task, c.settings, \
                c.reference_name, t.source_lang, t.target_lang \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id \
         WHERE a.public_id = $1",
    )
    .bind(public_id)
    .fetch_optional(&db.pool)
    .await?
    .ok_or(WorkError::NotFound)?;
    let owner: Option<i64> = row.try_get("user_id")?;
    if let Some(owner) = owner {
        match caller {
            None => return Err(WorkError::NotSignedIn),
            Some(c) if c != owner => return Err(WorkError::NotYours),
            Some(_) => {}
        }
    }
    if row.try_get::<i64, _>("blocked")? != 0 {
        return Err(WorkError::Gone("This worker may no longer take part in this campaign.".into()));
    }
    Ok(Loaded {
        id: row.try_get("id")?,
        public_id: row.try_get("public_id")?,
        hit_id: row.try_get("hit_id")?,
        status: row.try_get("status")?,
        platform_params: row.try_get("platform_params")?,
        next_position: row.try_get("next_position")?,
        item_shown_at: row.try_get("item_shown_at")?,
        completion_code: row.try_get("completion_code")?,
        code_held: row.try_get::<i64, _>("code_held")? != 0,
        total: row.try_get("item_count")?,
        campaign_name: row.try_get("campaign_name")?,
        task: row.try_get("task")?,
        settings: row.try_get("settings")?,
        reference_name: row.try_get("reference_name")?,
        source_lang: row.try_get("source_lang")?,
        target_lang: row.try_get("target_lang")?,
    })
}

impl Loaded {
    fn check_live(&self) -> Result<(), WorkError> {
        match self.status.as_str() {
            "active" | "completed" => Ok(()),
            "expired" => Err(WorkError::Gone("This HIT has expired: its time ran out and it went to another worker.".into())),
            _ => Err(WorkError::Gone("This HIT was returned and is no longer assigned to you.".into())),
        }
    }

    fn started(&self) -> bool {
        self.item_shown_at.is_some() || self.next_position > 0
    }
}

/// The item at `position` as the browser sees it, and its internal id. One query for every
/// item type.
async fn item_at(db: &Db, a: &Loaded, position: i64) -> Result<(i64, ItemView), WorkError> {
    items_from(db, a, position, 1)
        .await?
        .pop()
        .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {position}", a.hit_id)))
}

/// The items at positions `from .. from + count` (those that exist), in order, as the browser
/// sees them, with their internal ids. One query for every item type.
async fn items_from(db: &Db, a: &Loaded, from: i64, count: i64) -> Result<Vec<(i64, ItemView)>, WorkError> {
    let rows = sqlx::query(
        "SELECT hi.id, hi.position, hi.shown_text, s.source, r.text AS reference \
         FROM hit_items hi JOIN segments s ON s.id = hi.segment_id \
         LEFT JOIN segment_references r ON r.segment_id = hi.segment_id AND r.name = COALESCE(CAST($3 AS TEXT), \
              (SELECT MIN(r2.name) FROM segment_references r2 WHERE r2.segment_id = hi.segment_id)) \
         WHERE hi.hit_id = $1 AND hi.position >= $2 AND hi.position < $4 ORDER BY hi.position",
    )
    .bind(a.hit_id)
    .bind(from)
    .bind(a.reference_name.clone())
    .bind(from + count)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|row| {
            let source: String = row.try_get("source")?;
            let reference: Option<String> = row.try_get("reference")?;
            let context = match a.task.as_str() {
                "da-fluency" => None,
                "da-source" => Some(source),
                _ => Some(reference.unwrap_or_default()),
            };
            Ok((row.try_get("id")?, ItemView { position: row.try_get("position")?, candidate: row.try_get("shown_text")?, context }))
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// The current step of an assignment (after any change has been stored).
async fn step_of(db: &Db, secret: &[u8], a: &Loaded) -> Result<Step, WorkError> {
    if a.status == "completed" || a.next_position >= a.total {
        return Ok(Step {
            answered: a.total,
            item: None,
            completion: Some(completion_view(secret, a)),
        });
    }
    if !a.started() {
        return Ok(Step { answered: 0, item: None, completion: None });
    }
    let (_, item) = item_at(db, a, a.next_position).await?;
    Ok(Step { answered: a.next_position, item: Some(item), completion: None })
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
pub async fn work_state(db: &Db, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<WorkState, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    let a = finish_if_due(db, secret, a).await?;
    let step = step_of(db, secret, &a).await?;
    let source_name = crate::import::LangCode::parse(&a.source_lang)
        .map(|c| c.english_name().to_string())
        .unwrap_or_else(|_| a.source_lang.clone());
    let screen = super::screen_settings(&a.settings, &a.task, &a.target_lang, &source_name);
    Ok(WorkState {
        assignment: a.public_id.clone(),
        campaign_name: a.campaign_name.clone(),
        task: a.task.clone(),
        // Direction comes from the test set's language code; the settings hold a display name.
        target_dir: super::direction_of(&a.target_lang).to_string(),
        source_dir: super::direction_of(&a.source_lang).to_string(),
        screen,
        total: a.total,
        started: a.started(),
        step,
    })
}

/// An active assignment whose every item is answered but that is not marked completed (only
/// possible if a HIT's size changed): completes it now.
async fn finish_if_due(db: &Db, secret: &[u8], mut a: Loaded) -> Result<Loaded, WorkError> {
    if a.status == "active" && a.next_position >= a.total {
        let now = now_ms();
        let mut tx = db.pool.begin().await?;
        let done = sqlx::query("UPDATE assignments SET status = 'completed', completed_at = $1 WHERE id = $2 AND status = 'active'")
            .bind(now)
            .bind(a.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if done == 1 {
            let gate = crate::campaign::gate::finish_hit(&mut tx, secret, a.id).await.map_err(WorkError::Internal)?;
            tx.commit().await?;
            a.code_held = gate.code.is_none();
            a.completion_code = gate.code;
        } else {
            // Another request finished it first: read what it decided.
            tx.rollback().await?;
            let row = sqlx::query("SELECT completion_code, code_held FROM assignments WHERE id = $1")
                .bind(a.id)
                .fetch_one(&db.pool)
                .await?;
            a.completion_code = row.try_get("completion_code")?;
            a.code_held = row.try_get::<i64, _>("code_held")? != 0;
        }
        a.status = "completed".into();
    }
    Ok(a)
}

/// Leaves the instructions page: the first item's time starts now. Idempotent.
pub async fn start(db: &Db, secret: &[u8], caller: Option<i64>, public_id: &str) -> Result<Step, WorkError> {
    let mut a = load(db, caller, public_id).await?;
    a.check_live()?;
    if a.status == "active" && !a.started() {
        let now = now_ms();
        sqlx::query("UPDATE assignments SET item_shown_at = $1, last_seen_at = $1 WHERE id = $2 AND item_shown_at IS NULL")
            .bind(now)
            .bind(a.id)
            .execute(&db.pool)
            .await?;
        a = load(db, caller, public_id).await?;
    }
    step_of(db, secret, &a).await
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
    /// Chosen by the browser per item; a retry sends the same key.
    pub idempotency_key: String,
}

fn check_unit(name: &str, v: Option<f64>, sliders: bool) -> Result<f64, WorkError> {
    let v = v.ok_or_else(|| WorkError::Invalid(format!("Please answer {name}.")))?;
    let ok = if sliders {
        v.is_finite() && (0.0..=1.0).contains(&v)
    } else {
        WOJ_VALUES.contains(&v)
    };
    if ok {
        Ok(v)
    } else if sliders {
        Err(WorkError::Invalid(format!("The answer to {name} must be between 0 and 1 (got {v}).")))
    } else {
        Err(WorkError::Invalid(format!("The answer to {name} must be one of the five boxes: 0, 0.25, 0.5, 0.75 or 1 (got {v}).")))
    }
}

/// Checks an answer against the task; returns the (score, score2) to store.
fn validate(a: &Loaded, answer: &Answer) -> Result<(Option<f64>, Option<f64>), WorkError> {
    let key = answer.idempotency_key.trim();
    if key.is_empty() || key.len() > 100 {
        return Err(WorkError::Invalid("The request needs an idempotency key of 1 to 100 characters.".into()));
    }
    if !(0..=MAX_TIME_ON_SCREEN_MS).contains(&answer.time_on_screen_ms) {
        return Err(WorkError::Invalid(format!(
            "The time on screen must be between 0 and {MAX_TIME_ON_SCREEN_MS} ms (got {}).",
            answer.time_on_screen_ms
        )));
    }
    if answer.position < 0 || answer.position >= a.total {
        return Err(WorkError::Invalid(format!(
            "This HIT has items 1 to {}; there is no item {}.",
            a.total,
            answer.position + 1
        )));
    }
    let screen = super::screen_settings(&a.settings, &a.task, &a.target_lang, "");
    if answer.skipped {
        if !screen.allow_skip {
            return Err(WorkError::Invalid("This campaign does not allow skipping an item.".into()));
        }
        if answer.score.is_some() || answer.score2.is_some() {
            return Err(WorkError::Invalid("A skipped item cannot also have an answer.".into()));
        }
        return Ok((None, None));
    }
    if a.task == "word-order" {
        let s1 = check_unit("the first question", answer.score, screen.woj_sliders)?;
        let s2 = check_unit("the second question", answer.score2, screen.woj_sliders)?;
        Ok((Some(s1), Some(s2)))
    } else {
        let s = answer.score.ok_or_else(|| WorkError::Invalid("Please set the slider before going on.".into()))?;
        if !s.is_finite() || !(0.0..=100.0).contains(&s) {
            return Err(WorkError::Invalid(format!("The score must be between 0 and 100 (got {s}).")));
        }
        if answer.score2.is_some() {
            return Err(WorkError::Invalid("A direct-assessment item takes one score, not two.".into()));
        }
        Ok((Some(s), None))
    }
}

fn same(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
}

/// Stores the answer to the current item and returns the next step (the next item, or the
/// completion code after the last one).
pub async fn submit(db: &Db, secret: &[u8], caller: Option<i64>, public_id: &str, answer: &Answer) -> Result<Step, WorkError> {
    // Two rounds at most: a lost race (another request advanced the position) is re-judged
    // against what that request stored.
    for _ in 0..2 {
        let a = load(db, caller, public_id).await?;
        a.check_live()?;
        let (score, score2) = validate(&a, answer)?;
        // Storing a judgment and advancing the position are one transaction, so only an item
        // before the current one can have an answer already (a retry, or a second answer).
        let existing = if answer.position < a.next_position {
            sqlx::query(
                "SELECT j.score, j.score2, j.skipped, j.idempotency_key FROM judgments j \
                 JOIN hit_items hi ON hi.id = j.hit_item_id WHERE j.assignment_id = $1 AND hi.position = $2",
            )
            .bind(a.id)
            .bind(answer.position)
            .fetch_optional(&db.pool)
            .await?
        } else {
            None
        };
        if let Some(row) = existing {
            let stored_key: Option<String> = row.try_get("idempotency_key")?;
            let same_answer = same(row.try_get("score")?, score)
                && same(row.try_get("score2")?, score2)
                && (row.try_get::<i64, _>("skipped")? != 0) == answer.skipped;
            if same_answer && stored_key.as_deref() == Some(answer.idempotency_key.trim()) {
                return step_of(db, secret, &a).await;
            }
            return Err(WorkError::Conflict(format!(
                "Item {} has already been answered; an answer cannot be changed.",
                answer.position + 1
            )));
        }
        if a.status == "completed" {
            return Err(WorkError::Conflict("This HIT is finished; no more answers are taken.".into()));
        }
        if !a.started() {
            return Err(WorkError::Conflict("Please read the instructions and press Start first.".into()));
        }
        if answer.position != a.next_position {
            return Err(WorkError::Conflict(format!(
                "Item {} is not the current item: answer item {} next.",
                answer.position + 1,
                a.next_position + 1
            )));
        }
        // This item and the next one (the answer to this request), in one query.
        let mut items = items_from(db, &a, answer.position, 2).await?.into_iter();
        let (hit_item_id, _) = items
            .next()
            .ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", a.hit_id, answer.position)))?;
        let next_item = items.next().map(|(_, view)| view);
        let now = now_ms();
        let last = answer.position + 1 >= a.total;
        // The completion code of the last item is the quality gate's decision (below).
        let mut tx = db.pool.begin().await?;
        // Write first (SQLite takes the write lock here, not on a later upgrade), guarded by
        // the position this request answers.
        let moved = sqlx::query(
            "UPDATE assignments SET next_position = $1, item_shown_at = $2, last_seen_at = $8, \
                    status = $3, completed_at = $4, completion_code = $5 \
             WHERE id = $6 AND next_position = $7 AND status = 'active'",
        )
        .bind(answer.position + 1)
        .bind(if last { None } else { Some(now) })
        .bind(if last { "completed" } else { "active" })
        .bind(if last { Some(now) } else { None })
        .bind(None::<String>)
        .bind(a.id)
        .bind(answer.position)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if moved != 1 {
            tx.rollback().await?;
            continue;
        }
        // One statement per shape of answer: sqlx's Any driver binds a NULL f64 as a PostgreSQL
        // float4, and the statement cache would then refuse the next real f64 in that place.
        let sql: &'static str = match (score.is_some(), score2.is_some()) {
            (true, true) => {
                "INSERT INTO judgments (assignment_id, hit_item_id, skipped, shown_at, submitted_at, time_on_screen_ms, \
                                        idempotency_key, score, score2) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            }
            (true, false) => {
                "INSERT INTO judgments (assignment_id, hit_item_id, skipped, shown_at, submitted_at, time_on_screen_ms, \
                                        idempotency_key, score) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            }
            _ => {
                "INSERT INTO judgments (assignment_id, hit_item_id, skipped, shown_at, submitted_at, time_on_screen_ms, \
                                        idempotency_key) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            }
        };
        let mut insert = sqlx::query(sql)
            .bind(a.id)
            .bind(hit_item_id)
            .bind(i64::from(answer.skipped))
            .bind(a.item_shown_at)
            .bind(now)
            .bind(answer.time_on_screen_ms)
            .bind(answer.idempotency_key.trim().to_string());
        if let Some(s) = score {
            insert = insert.bind(s);
            if let Some(s2) = score2 {
                insert = insert.bind(s2);
            }
        }
        let inserted = insert.execute(&mut *tx).await;
        if let Err(e) = inserted {
            tx.rollback().await?;
            return Err(WorkError::Internal(format!("storing a judgment failed: {e}")));
        }
        // The HIT is finished: the worker's reliability, pooled over their HITs in this
        // campaign, decides (with the campaign's gate) whether the code is given, in this
        // transaction: the code exists only once the judgment is stored.
        let code = if last {
            match crate::campaign::gate::finish_hit(&mut tx, secret, a.id).await {
                Ok(g) => g.code,
                Err(e) => {
                    tx.rollback().await?;
                    return Err(WorkError::Internal(format!("the quality gate failed: {e}")));
                }
            }
        } else {
            None
        };
        tx.commit().await?;
        let after = Loaded {
            next_position: answer.position + 1,
            item_shown_at: if last { None } else { Some(now) },
            status: if last { "completed".into() } else { "active".into() },
            code_held: last && code.is_none(),
            completion_code: code,
            ..a
        };
        if last {
            return step_of(db, secret, &after).await;
        }
        let item = next_item.ok_or_else(|| WorkError::Internal(format!("HIT {} has no item at position {}", after.hit_id, after.next_position)))?;
        return Ok(Step { answered: after.next_position, item: Some(item), completion: None });
    }
    Err(WorkError::Conflict("Another answer for this HIT arrived at the same time; please reload the page.".into()))
}

// ---------------------------------------------------------------------------------------------
// Completion codes

const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The completion code of an assignment: HMAC-SHA256 of its public id under the server's
/// secret, 100 bits in Crockford base32, as `XXXXX-XXXXX-XXXXX-XXXXX`. Unique per assignment,
/// unguessable without the secret, and recomputable for verification.
pub fn completion_code(secret: &[u8], public_id: &str) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(secret) {
        Ok(m) => m,
        // HMAC accepts keys of any length; this branch cannot be taken.
        Err(_) => return String::new(),
    };
    mac.update(b"assay completion code v1\n");
    mac.update(public_id.as_bytes());
    let digest = mac.finalize().into_bytes();
    // 20 symbols of 5 bits from the first 13 bytes.
    let mut bits: u128 = 0;
    for b in &digest[..13] {
        bits = (bits << 8) | u128::from(*b);
    }
    let mut out = String::with_capacity(23);
    for i in 0..20 {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        let shift = 104 - 5 * (i + 1);
        out.push(CROCKFORD[((bits >> shift) & 31) as usize] as char);
    }
    out
}

/// A code as typed by a person, in canonical form (upper case, Crockford's look-alikes mapped,
/// dashes regrouped); `None` if it cannot be a code.
pub fn normalise_code(input: &str) -> Option<String> {
    let mut symbols = String::new();
    for c in input.chars() {
        let c = c.to_ascii_uppercase();
        let c = match c {
            'O' => '0',
            'I' | 'L' => '1',
            '-' | ' ' => continue,
            c => c,
        };
        if !CROCKFORD.contains(&(c as u32 as u8)) || !c.is_ascii() {
            return None;
        }
        symbols.push(c);
    }
    if symbols.len() != 20 {
        return None;
    }
    let mut out = String::with_capacity(23);
    for (i, c) in symbols.chars().enumerate() {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        out.push(c);
    }
    Some(out)
}

/// Checks a completion code: it must belong to a completed assignment and carry the server's
/// signature of that assignment's public id.
pub async fn verify_code(db: &Db, secret: &[u8], code: &str) -> Result<CodeCheck, WorkError> {
    let invalid = CodeCheck { valid: false, assignment: None, campaign_name: None, completed_at: None };
    let Some(code) = normalise_code(code) else { return Ok(invalid) };
    let row = sqlx::query(
        "SELECT a.public_id, a.completed_at, c.name FROM assignments a JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id WHERE a.completion_code = $1 AND a.status = 'completed'",
    )
    .bind(&code)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(invalid) };
    let public_id: String = row.try_get("public_id")?;
    if completion_code(secret, &public_id) != code {
        return Ok(invalid);
    }
    Ok(CodeCheck {
        valid: true,
        assignment: Some(public_id),
        campaign_name: Some(row.try_get("name")?),
        completed_at: row.try_get("completed_at")?,
    })
}

/// The crowd platform's return address for a finished assignment, from `platform_params`:
/// `return_url` (http or https; `{code}` is replaced by the completion code), or MTurk's
/// `turkSubmitTo` + `assignmentId` (the external-submit address).
pub fn return_url(platform_params: &str, code: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(platform_params).ok()?;
    let field = |k: &str| v.get(k).and_then(serde_json::Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let web = |u: &str| u.starts_with("https://") || u.starts_with("http://");
    if let Some(url) = field("return_url").filter(|u| web(u)) {
        return Some(url.replace("{code}", code));
    }
    // turkSubmitTo comes from the link's query string, which anyone can write: only Mechanical
    // Turk's own addresses may receive the completion code (else a crafted link sends it away).
    let mturk = |u: &str| matches!(u.trim_end_matches('/'), "https://www.mturk.com" | "https://workersandbox.mturk.com");
    if let (Some(submit), Some(assignment)) = (field("turkSubmitTo").filter(|u| mturk(u)), field("assignmentId")) {
        return Some(format!(
            "{}/mturk/externalSubmit?assignmentId={}&completion_code={code}",
            submit.trim_end_matches('/'),
            crate::auth::api::url_escape(assignment)
        ));
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Lists

/// The account's live assignments (active first), for the home page.
pub async fn my_assignments(db: &Db, user_id: i64) -> Result<Vec<MyAssignment>, WorkError> {
    let rows = sqlx::query(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id \
         WHERE w.user_id = $1 AND a.status IN ('active', 'completed') ORDER BY a.status, a.started_at, a.id",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(MyAssignment {
                assignment: r.try_get("public_id")?,
                campaign_name: r.try_get("name")?,
                task: r.try_get("task")?,
                total: r.try_get("item_count")?,
                answered: r.try_get("next_position")?,
                completed: r.try_get::<String, _>("status")? == "completed",
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// Every assignment, newest first (organizers).
pub async fn all_assignments(db: &Db) -> Result<Vec<AssignmentSummary>, WorkError> {
    let rows = sqlx::query(
        "SELECT a.public_id, a.status, a.next_position, h.item_count, c.name, c.task, w.platform \
         FROM assignments a JOIN workers w ON w.id = a.worker_id JOIN hits h ON h.id = a.hit_id \
         JOIN campaigns c ON c.id = h.campaign_id ORDER BY a.id DESC",
    )
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(AssignmentSummary {
                assignment: r.try_get("public_id")?,
                campaign_name: r.try_get("name")?,
                task: r.try_get("task")?,
                platform: r.try_get("platform")?,
                status: r.try_get("status")?,
                total: r.try_get("item_count")?,
                answered: r.try_get("next_position")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

fn record(r: &AnyRow) -> Result<JudgmentRecord, sqlx::Error> {
    Ok(JudgmentRecord {
        position: r.try_get("position")?,
        item_type: r.try_get("item_type")?,
        system: r.try_get("system")?,
        segment_key: r.try_get("segment_key")?,
        score: r.try_get("score")?,
        score2: r.try_get("score2")?,
        skipped: r.try_get::<i64, _>("skipped")? != 0,
        shown_at: r.try_get("shown_at")?,
        submitted_at: r.try_get("submitted_at")?,
        time_on_screen_ms: r.try_get("time_on_screen_ms")?,
    })
}

/// The judgments of an assignment with their items' hidden facts, in item order (organizers).
pub async fn judgments_of(db: &Db, public_id: &str) -> Result<Vec<JudgmentRecord>, WorkError> {
    let rows = sqlx::query(
        "SELECT hi.position, hi.item_type, sy.name AS system, s.segment_key, j.score, j.score2, j.skipped, \
                j.shown_at, j.submitted_at, j.time_on_screen_ms \
         FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hit_items hi ON hi.id = j.hit_item_id \
         JOIN segments s ON s.id = hi.segment_id LEFT JOIN systems sy ON sy.id = hi.system_id \
         WHERE a.public_id = $1 ORDER BY hi.position, j.id",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(record).collect::<Result<_, sqlx::Error>>().map_err(Into::into)
}

/// The items of an assignment's HIT with their hidden facts, answered or not (organizers):
/// (position, item type, system name).
pub async fn items_of(db: &Db, public_id: &str) -> Result<Vec<(i64, String, Option<String>)>, WorkError> {
    let rows = sqlx::query(
        "SELECT hi.position, hi.item_type, sy.name AS system FROM assignments a JOIN hit_items hi ON hi.hit_id = a.hit_id \
         LEFT JOIN systems sy ON sy.id = hi.system_id WHERE a.public_id = $1 ORDER BY hi.position",
    )
    .bind(public_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("position")?, r.try_get("item_type")?, r.try_get("system")?)))
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(task: &str, settings: &str) -> Loaded {
        Loaded {
            id: 1,
            public_id: "p".into(),
            hit_id: 1,
            status: "active".into(),
            platform_params: None,
            next_position: 0,
            item_shown_at: Some(1),
            completion_code: None,
            code_held: false,
            total: 50,
            campaign_name: "c".into(),
            task: task.into(),
            settings: settings.into(),
            reference_name: None,
            source_lang: "de".into(),
            target_lang: "en".into(),
        }
    }

    fn answer(score: Option<f64>, score2: Option<f64>, skipped: bool) -> Answer {
        Answer { position: 3, score, score2, skipped, time_on_screen_ms: 1000, idempotency_key: "k".into() }
    }

    #[test]
    fn answers_are_checked_against_the_task() {
        let da = loaded("da-fluency", "{}");
        assert_eq!(validate(&da, &answer(Some(12.345678), None, false)), Ok((Some(12.345678), None)));
        assert_eq!(validate(&da, &answer(Some(0.0), None, false)), Ok((Some(0.0), None)));
        assert_eq!(validate(&da, &answer(Some(100.0), None, false)), Ok((Some(100.0), None)));
        for bad in [-0.001, 100.001, f64::NAN, f64::INFINITY] {
            assert!(matches!(validate(&da, &answer(Some(bad), None, false)), Err(WorkError::Invalid(_))), "{bad}");
        }
        assert!(validate(&da, &answer(None, None, true)).is_err(), "no skipping unless the campaign allows it");

        let boxes = loaded("word-order", "{}");
        assert_eq!(validate(&boxes, &answer(Some(0.25), Some(1.0), false)), Ok((Some(0.25), Some(1.0))));
        assert!(validate(&boxes, &answer(Some(0.3), Some(1.0), false)).is_err());
        assert!(validate(&boxes, &answer(Some(0.25), None, false)).is_err());

        let sliders = loaded("word-order", r#"{"woj_scale":"sliders","allow_skip":true}"#);
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
    }

    #[test]
    fn completion_codes_are_per_assignment_and_keyed() {
        let a = completion_code(b"key one", "assignment-a");
        assert_eq!(a.len(), 23);
        assert_eq!(a.matches('-').count(), 3);
        assert_eq!(a, completion_code(b"key one", "assignment-a"));
        assert_ne!(a, completion_code(b"key one", "assignment-b"));
        assert_ne!(a, completion_code(b"key two", "assignment-a"));
        assert!(a.chars().all(|c| c == '-' || CROCKFORD.contains(&(c as u8))));
    }

    #[test]
    fn typed_codes_are_normalised() {
        let code = completion_code(b"k", "x");
        assert_eq!(normalise_code(&code.to_lowercase().replace('-', " ")), Some(code.clone()));
        assert_eq!(normalise_code("ABC"), None);
        assert_eq!(normalise_code("00000-00000-00000-0000U"), None);
        assert_eq!(normalise_code("o0000-00000-00000-0000l").as_deref(), Some("00000-00000-00000-00001"));
    }

    #[test]
    fn return_urls_come_from_the_platform_parameters() {
        assert_eq!(
            return_url(r#"{"return_url":"https://app.prolific.com/submissions/complete?cc={code}"}"#, "C-1").as_deref(),
            Some("https://app.prolific.com/submissions/complete?cc=C-1")
        );
        assert_eq!(return_url(r#"{"return_url":"javascript:alert(1)"}"#, "C"), None);
        assert_eq!(
            return_url(r#"{"turkSubmitTo":"https://www.mturk.com/","assignmentId":"A 1"}"#, "C").as_deref(),
            Some("https://www.mturk.com/mturk/externalSubmit?assignmentId=A%201&completion_code=C")
        );
        assert_eq!(return_url("{}", "C"), None);
        assert_eq!(return_url("nonsense", "C"), None);
    }
}
