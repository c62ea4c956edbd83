//! Handing out work: workers (annotators with accounts, crowd workers without passwords), one
//! HIT at a time, with the policies of the schema: a worker never gets the same HIT twice
//! (`UNIQUE (hit_id, worker_id)`), every HIT goes to k distinct workers (`slot` and the
//! partial unique index `assignments_live_slot`, which holds under concurrent requests and
//! several app servers), an idle assignment returns to the pool, a blocked worker gets nothing.

use crate::auth::server::random_token;
use crate::campaign::launch::load_campaign;
use crate::db::{Db, now_ms};
use serde::{Deserialize, Serialize};
use sqlx::Row;

fn db_err(e: sqlx::Error) -> String {
    format!("database error: {e}")
}

/// Where a worker comes from (`workers.platform`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Platform {
    /// An annotator with an Assay account.
    Account,
    /// Amazon Mechanical Turk (`workerId`).
    MTurk,
    /// Prolific (`PROLIFIC_PID`).
    Prolific,
    /// A plain signed link with a worker id chosen by the organizer.
    Link,
}

impl Platform {
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Account => "account",
            Platform::MTurk => "mturk",
            Platform::Prolific => "prolific",
            Platform::Link => "link",
        }
    }
}

/// An assignment handed to a worker: `public_id` is the unguessable token of `/work/{public_id}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssignmentRef {
    pub id: i64,
    pub public_id: String,
    pub hit_id: i64,
    pub hit_index: i64,
    pub slot: i64,
    /// True when the worker's assignment in progress was resumed rather than a new one claimed.
    pub resumed: bool,
}

async fn find_or_insert_worker(db: &Db, user_id: Option<i64>, platform: Platform, external_id: &str) -> Result<i64, String> {
    sqlx::query(
        "INSERT INTO workers (user_id, platform, external_id, blocked, created_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT DO NOTHING",
    )
    .bind(user_id)
    .bind(platform.as_str())
    .bind(external_id)
    .bind(now_ms())
    .execute(&db.writer)
    .await
    .map_err(db_err)?;
    let row = sqlx::query("SELECT id FROM workers WHERE platform = $1 AND external_id = $2")
        .bind(platform.as_str())
        .bind(external_id)
        .fetch_optional(&db.pool)
        .await
        .map_err(db_err)?
        .ok_or_else(|| format!("the worker record for {} {external_id} could not be created", platform.as_str()))?;
    row.try_get("id").map_err(db_err)
}

/// The worker record of an account (platform `account`), created on first use.
pub async fn worker_for_user(db: &Db, user_id: i64) -> Result<i64, String> {
    find_or_insert_worker(db, Some(user_id), Platform::Account, &user_id.to_string()).await
}

/// The worker record of a crowd worker (no password, no account), created on first use.
pub async fn crowd_worker(db: &Db, platform: Platform, external_id: &str) -> Result<i64, String> {
    let id = external_id.trim();
    if id.is_empty() || id.len() > 200 || id.chars().any(char::is_control) {
        return Err("the crowd platform's worker id is missing or malformed".into());
    }
    if platform == Platform::Account {
        return Err("accounts get their worker record from worker_for_user".into());
    }
    find_or_insert_worker(db, None, platform, id).await
}

/// Blocks or unblocks a worker: a blocked worker is given no more work.
pub async fn set_blocked(db: &Db, worker_id: i64, blocked: bool) -> Result<(), String> {
    sqlx::query("UPDATE workers SET blocked = $1 WHERE id = $2")
        .bind(i64::from(blocked))
        .bind(worker_id)
        .execute(&db.writer)
        .await
        .map_err(db_err)?;
    Ok(())
}

/// Returns idle assignments of a campaign to the pool (status `expired`): those not seen for
/// longer than the campaign's timeout. Returns how many expired. `next_assignment` does this
/// itself; the status page calls it so its numbers are current.
pub async fn expire_idle(db: &Db, campaign_id: i64) -> Result<u64, String> {
    let campaign = load_campaign(db, campaign_id).await?;
    let timeout_ms = campaign.settings.assignment_timeout_minutes.max(1) * 60_000;
    let done = sqlx::query(
        "UPDATE assignments SET status = 'expired' WHERE status = 'active' AND last_seen_at < $1 AND hit_id IN (SELECT id FROM hits WHERE campaign_id = $2)",
    )
    .bind(now_ms() - timeout_ms)
    .bind(campaign_id)
    .execute(&db.writer)
    .await
    .map_err(db_err)?;
    Ok(done.rows_affected())
}

enum Attempt {
    Done(Option<AssignmentRef>),
    /// Another request took the slot first; try again.
    Conflict,
}

/// The worker's assignment: the active one in this campaign if there is one (resumed), else
/// their expired one whose slot nobody took since (revived, with its answers), else a
/// new one on a free slot of a HIT the worker has never had, or `None` when there is no work
/// for them (campaign not launched, every slot taken, worker blocked).
///
/// Assignments idle longer than the campaign's timeout become `expired` first, freeing their
/// slot. Concurrency: each attempt is one short transaction that begins by writing the worker's
/// row (serialising one worker's requests: the same worker asking twice gets the same
/// assignment); two workers racing for one slot are told apart by the partial unique index, and
/// the loser retries with another slot.
pub async fn next_assignment(
    db: &Db,
    campaign_id: i64,
    worker_id: i64,
    params: Option<serde_json::Value>,
) -> Result<Option<AssignmentRef>, String> {
    let campaign = load_campaign(db, campaign_id).await?;
    if campaign.status != "launched" {
        return Ok(None);
    }
    let k = campaign.settings.redundancy.max(1) as i64;
    let timeout_ms = campaign.settings.assignment_timeout_minutes.max(1) * 60_000;
    let params = params.map(|p| p.to_string());
    for _ in 0..50 {
        match attempt(db, campaign_id, worker_id, k, timeout_ms, params.as_deref()).await? {
            Attempt::Done(r) => return Ok(r),
            Attempt::Conflict => {
                // Let the winner commit; jitter keeps racing requests apart.
                let pause = 2 + (rand::random::<u64>() % 20);
                tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            }
        }
    }
    Err("too many concurrent requests for this campaign; please try again".into())
}

/// The worker's own assignment taken up again, from a row of (id, public_id, hit_id, slot,
/// hit_index).
fn resumed_ref(id: i64, a: &sqlx::any::AnyRow) -> Result<AssignmentRef, String> {
    Ok(AssignmentRef {
        id,
        public_id: a.try_get("public_id").map_err(db_err)?,
        hit_id: a.try_get("hit_id").map_err(db_err)?,
        hit_index: a.try_get("hit_index").map_err(db_err)?,
        slot: a.try_get("slot").map_err(db_err)?,
        resumed: true,
    })
}

async fn attempt(
    db: &Db,
    campaign_id: i64,
    worker_id: i64,
    k: i64,
    timeout_ms: i64,
    params: Option<&str>,
) -> Result<Attempt, String> {
    let now = now_ms();
    let mut tx = db.writer.begin().await.map_err(db_err)?;
    macro_rules! run {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                // Dropping the transaction rolls it back.
                Err(e) if crate::db::is_conflict(&e) => return Ok(Attempt::Conflict),
                Err(e) => return Err(db_err(e)),
            }
        };
    }
    // A write first: locks the worker's row (PostgreSQL) or takes the write lock (SQLite), so
    // the reads below are not followed by a lock upgrade.
    let worker = run!(
        sqlx::query("UPDATE workers SET blocked = blocked WHERE id = $1 RETURNING blocked")
            .bind(worker_id)
            .fetch_optional(&mut *tx)
            .await
    );
    let Some(worker) = worker else {
        return Err(format!("there is no worker with id {worker_id}"));
    };
    if worker.try_get::<i64, _>("blocked").map_err(db_err)? != 0 {
        let _ = tx.rollback().await;
        return Ok(Attempt::Done(None));
    }
    // Idle assignments of this campaign go back to the pool.
    run!(
        sqlx::query(
            "UPDATE assignments SET status = 'expired' WHERE status = 'active' AND last_seen_at < $1 AND hit_id IN (SELECT id FROM hits WHERE campaign_id = $2)",
        )
        .bind(now - timeout_ms)
        .bind(campaign_id)
        .execute(&mut *tx)
        .await
    );
    // Resume the worker's assignment in progress.
    let active = run!(
        sqlx::query(
            "SELECT a.id, a.public_id, a.hit_id, a.slot, h.hit_index FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE a.worker_id = $1 AND a.status = 'active' AND h.campaign_id = $2 ORDER BY a.id LIMIT 1",
        )
        .bind(worker_id)
        .bind(campaign_id)
        .fetch_optional(&mut *tx)
        .await
    );
    if let Some(a) = active {
        let id: i64 = a.try_get("id").map_err(db_err)?;
        run!(sqlx::query("UPDATE assignments SET last_seen_at = $1 WHERE id = $2").bind(now).bind(id).execute(&mut *tx).await);
        run!(tx.commit().await);
        return Ok(Attempt::Done(Some(resumed_ref(id, &a)?)));
    }
    // Revive the worker's own expired assignment while its slot is still free: a worker who
    // stepped away for longer than the timeout continues where they stopped, with the answers
    // they gave, instead of finding no HIT (they already had this one, so no other is offered
    // to them on it). Once another worker has taken the slot, the HIT is no longer theirs.
    let lapsed = run!(
        sqlx::query(
            "SELECT a.id, a.public_id, a.hit_id, a.slot, h.hit_index FROM assignments a JOIN hits h ON h.id = a.hit_id \
             WHERE a.worker_id = $1 AND a.status = 'expired' AND h.campaign_id = $2 \
             AND NOT EXISTS (SELECT 1 FROM assignments o WHERE o.hit_id = a.hit_id AND o.slot = a.slot AND o.status IN ('active', 'completed')) \
             ORDER BY a.last_seen_at DESC, a.id DESC LIMIT 1",
        )
        .bind(worker_id)
        .bind(campaign_id)
        .fetch_optional(&mut *tx)
        .await
    );
    if let Some(a) = lapsed {
        let id: i64 = a.try_get("id").map_err(db_err)?;
        run!(sqlx::query("UPDATE assignments SET status = 'active', last_seen_at = $1 WHERE id = $2").bind(now).bind(id).execute(&mut *tx).await);
        run!(tx.commit().await);
        return Ok(Attempt::Done(Some(resumed_ref(id, &a)?)));
    }
    // The HIT with the fewest live copies that this worker never had and that has a free slot.
    // Ties are broken in an order that differs from worker to worker, so that many workers
    // arriving at once ask for different HITs instead of all racing for the same slot.
    let candidate = run!(
        sqlx::query(
            "SELECT h.id, h.hit_index, (SELECT COUNT(*) FROM assignments a WHERE a.hit_id = h.id AND a.status IN ('active', 'completed')) AS live \
             FROM hits h WHERE h.campaign_id = $1 \
             AND NOT EXISTS (SELECT 1 FROM assignments b WHERE b.hit_id = h.id AND b.worker_id = $2) \
             AND (SELECT COUNT(*) FROM assignments c WHERE c.hit_id = h.id AND c.status IN ('active', 'completed')) < $3 \
             ORDER BY live, (h.hit_index * 40503 + $4) % 65521, h.hit_index LIMIT 1",
        )
        .bind(campaign_id)
        .bind(worker_id)
        .bind(k)
        .bind(worker_id.rem_euclid(65521) * 9973)
        .fetch_optional(&mut *tx)
        .await
    );
    let Some(hit) = candidate else {
        run!(tx.commit().await);
        return Ok(Attempt::Done(None));
    };
    let hit_id: i64 = hit.try_get("id").map_err(db_err)?;
    let hit_index: i64 = hit.try_get("hit_index").map_err(db_err)?;
    let taken: Vec<i64> = run!(
        sqlx::query("SELECT slot FROM assignments WHERE hit_id = $1 AND status IN ('active', 'completed')")
            .bind(hit_id)
            .fetch_all(&mut *tx)
            .await
    )
    .iter()
    .map(|r| r.try_get::<i64, _>("slot"))
    .collect::<Result<_, _>>()
    .map_err(db_err)?;
    let Some(slot) = (0..k).find(|s| !taken.contains(s)) else {
        let _ = tx.rollback().await;
        return Ok(Attempt::Conflict);
    };
    let public_id = random_token();
    let row = run!(
        sqlx::query(
            "INSERT INTO assignments (public_id, hit_id, slot, worker_id, status, platform_params, next_position, started_at, last_seen_at) VALUES ($1, $2, $3, $4, 'active', $5, 0, $6, $6) RETURNING id",
        )
        .bind(&public_id)
        .bind(hit_id)
        .bind(slot)
        .bind(worker_id)
        .bind(params.map(str::to_string))
        .bind(now)
        .fetch_one(&mut *tx)
        .await
    );
    let id: i64 = row.try_get("id").map_err(db_err)?;
    run!(tx.commit().await);
    Ok(Attempt::Done(Some(AssignmentRef { id, public_id, hit_id, hit_index, slot, resumed: false })))
}

/// The campaign id behind a public id.
pub async fn campaign_by_public_id(db: &Db, public_id: &str) -> Result<Option<i64>, String> {
    let row = sqlx::query("SELECT id FROM campaigns WHERE public_id = $1")
        .bind(public_id)
        .fetch_optional(&db.pool)
        .await
        .map_err(db_err)?;
    row.map(|r| r.try_get::<i64, _>("id").map_err(db_err)).transpose()
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
            crate::auth::url_escape(assignment)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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
