//! Storing an answer: the guarded INSERT of a judgment (one statement per shape of scores), one
//! answer in an open transaction, and the group commit of answers on SQLite ([`AnswerQueue`]).

use super::error::WorkError;
use super::validation::Answer;
use crate::model::AssignmentStatus;
use sqlx::Row;

/// Which scores an answer carries: sqlx's Any driver binds a NULL f64 as a PostgreSQL float4,
/// and the statement cache would then refuse the next real f64 in that place, so a missing
/// score is left out of the statement instead of bound as NULL: one statement per shape.
pub(super) fn shape(score: Option<f64>, score2: Option<f64>) -> usize {
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
pub(super) fn insert_judgment_from(shape: usize, shown_at: &str, from: &str) -> String {
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
pub(super) fn with_judgment(
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
pub(super) const IS_CURRENT: &str = "a.next_position = $3 AND a.status = 'active' AND (a.item_shown_at IS NOT NULL OR a.next_position > 0) \
     AND EXISTS (SELECT 1 FROM workers w WHERE w.id = a.worker_id AND w.blocked = 0)";

/// The INSERT of a judgment, guarded by the position it answers ([`IS_CURRENT`]).
static INSERT_IF_CURRENT: std::sync::LazyLock<[String; 3]> =
    std::sync::LazyLock::new(|| [0, 1, 2].map(|shape| insert_judgment(shape, IS_CURRENT)));

/// Stores the answer to item `position` of assignment `id` and moves the assignment to the
/// next item (or completes it after the last one, `completing`), in the open transaction.
/// `Ok(false)`: the item is not (or no longer) the current one of an active assignment of a
/// worker in good standing, or another request stored its answer first; nothing was written.
#[allow(clippy::too_many_arguments)]
pub(super) async fn store_answer(
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

/// An answer to an item that is not the last, waiting for the SQLite writer.
#[derive(Debug)]
pub(super) struct QueuedAnswer {
    pub(super) assignment: i64,
    pub(super) hit_item_id: i64,
    pub(super) answer: Answer,
    /// What [`validate`] made of the answer.
    pub(super) score: Option<f64>,
    pub(super) score2: Option<f64>,
    pub(super) now: i64,
}

/// Group commit of answers on SQLite. The file has one writer; handing its one connection from
/// request to request costs a wake-up of the next request's task on a busy runtime each time,
/// and under load that hand-over, not SQLite, is what answers wait for. So one task, on a
/// thread of its own, takes every answer waiting, stores them in one transaction — one
/// database call per answer, each in a savepoint so that a failure undoes that answer alone —
/// and replies to each once the transaction is committed: an answer is acknowledged only when
/// it is durable, exactly as with a transaction per answer.
#[derive(Debug)]
pub(super) struct AnswerQueue {
    pub(super) sender: tokio::sync::mpsc::Sender<(QueuedAnswer, Reply)>,
}

/// Where the writer says whether an answer was stored.
type Reply = tokio::sync::oneshot::Sender<Result<bool, WorkError>>;

/// Answers stored in one transaction at most.
const GROUP_COMMIT_MAX: usize = 256;

impl AnswerQueue {
    pub(super) fn start(writer: sqlx::AnyPool) -> AnswerQueue {
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

    pub(super) async fn store(&self, answer: QueuedAnswer) -> Result<bool, WorkError> {
        let (reply, result) = tokio::sync::oneshot::channel();
        let lost = || WorkError::Internal("the answer writer stopped".into());
        self.sender.send((answer, reply)).await.map_err(|_| lost())?;
        result.await.map_err(|_| lost())?
    }
}

/// Stores a group of answers in one transaction; for each, whether it was stored (`false`: its
/// item was not the current one, nothing of it was written) or why it failed.
pub(super) async fn store_group<'a>(writer: &sqlx::AnyPool, answers: impl ExactSizeIterator<Item = &'a QueuedAnswer>) -> Vec<Result<bool, WorkError>> {
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
