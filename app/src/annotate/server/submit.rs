//! Submitting: one answer (from the cache when it can, else read and explained), and the answers
//! to every item of one screen.

use super::assignment::{Loaded, load};
use super::codes::gate_code;
use super::error::WorkError;
use super::items::Work;
use super::queue::{AnswerQueue, IS_CURRENT, QueuedAnswer, insert_judgment_from, shape, store_answer, with_judgment};
use super::state::{finish_if_due, step_of};
use super::validation::{Answer, MAX_TIME_ON_SCREEN_MS, check_active, validate_on};
use crate::annotate::Step;
use crate::db::{Db, now_ms};
use crate::model::AssignmentStatus;
use assay_core::i18n::{Message, Text};
use assay_core::protocol;

pub(super) fn same(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        (None, None) => true,
        _ => false,
    }
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
// Screens of several items (outputs ranked together)

/// The answers to every item of one screen, as the browser sends them (outputs ranked together).
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
