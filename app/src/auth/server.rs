//! Server side of accounts: password hashing (argon2id), server-stored sessions, login
//! throttling, the CSRF origin check and the role checks every server function calls.

use crate::auth::{Account, Role, UserInfo};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use crate::state::{AppState, ServerSettings};
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::Response;
use base64::Engine;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Name of the session cookie (HttpOnly, SameSite=Lax, Secure behind TLS).
pub const SESSION_COOKIE: &str = "assay_session";
/// How long a session lives without being used.
pub const SESSION_LIFETIME_MS: i64 = 14 * 24 * 3600 * 1000;
/// How long an invitation link stays valid.
pub const INVITATION_LIFETIME_MS: i64 = 7 * 24 * 3600 * 1000;
/// The shortest password accepted.
pub const MIN_PASSWORD_CHARS: usize = 10;

// ---------------------------------------------------------------------------------------------
// Passwords

/// argon2id with the OWASP parameters: m = 19 MiB, t = 2, p = 1.
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("constant argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`). CPU-heavy: call
/// from a blocking thread.
pub fn hash_password(password: &str) -> AppResult<String> {
    hasher()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| AppError::internal(format!("cannot hash a password: {e}")))
}

/// Checks a password against a PHC string; false for any malformed hash.
pub fn verify_password(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    }
}

/// A hash to verify against when the account does not exist, so that an unknown email costs
/// the same time as a wrong password.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    hash_password("assay dummy password that matches nothing").unwrap_or_default()
});

/// Refuses passwords that are too short; says why.
pub fn check_password_strength(password: &str) -> AppResult<()> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(AppError::invalid("password", format!("The password must have at least {MIN_PASSWORD_CHARS} characters.")));
    }
    Ok(())
}

/// Password hashes (and verifications) that may run at once: one per core. Each takes 19 MiB
/// and a core for tens of milliseconds; more at once only cost memory (a burst of 100 sign-ins
/// ran 65 at once and took the server from 392 to 1,397 MB).
fn hashing_slots() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

static HASHING: LazyLock<Arc<Semaphore>> = LazyLock::new(|| Arc::new(Semaphore::new(hashing_slots())));
/// Hashes waiting for a slot, and running.
static HASHES_WAITING: AtomicUsize = AtomicUsize::new(0);
static HASHES_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// The longest a hash waits for a slot before the request is refused (429).
const HASHING_WAIT: Duration = Duration::from_secs(5);
/// Hashes that may wait per slot; beyond that a request is refused at once (429) rather than
/// queued for longer than [`HASHING_WAIT`] would allow.
const WAITING_PER_SLOT: usize = 32;
/// When a refused request should come back.
const HASHING_RETRY_AFTER_SECONDS: u64 = 2;

fn too_busy() -> AppError {
    AppError::busy("The server is busy checking passwords; try again in a few seconds.", HASHING_RETRY_AFTER_SECONDS)
}

/// Runs `work` (one argon2 hash or verification) on a blocking thread once a hashing slot is
/// free, holding the slot until the work is done (even if the request is gone by then); 429
/// when too many are waiting already or the wait would be too long.
async fn with_hashing_slot<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> AppResult<T> {
    let slots = hashing_slots();
    struct Waiting;
    impl Drop for Waiting {
        fn drop(&mut self) {
            HASHES_WAITING.fetch_sub(1, Ordering::SeqCst);
        }
    }
    if HASHES_WAITING.fetch_add(1, Ordering::SeqCst) >= slots * WAITING_PER_SLOT {
        HASHES_WAITING.fetch_sub(1, Ordering::SeqCst);
        return Err(too_busy());
    }
    let waiting = Waiting;
    let permit = match tokio::time::timeout(HASHING_WAIT, HASHING.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) => return Err(AppError::internal("the password hashing slots are closed")),
        Err(_) => return Err(too_busy()),
    };
    drop(waiting);
    tokio::task::spawn_blocking(move || {
        let in_flight = HASHES_IN_FLIGHT.fetch_add(1, Ordering::SeqCst) + 1;
        tracing::debug!(in_flight, slots, "hashing a password");
        let result = work();
        HASHES_IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        drop(permit);
        result
    })
    .await
    .map_err(|e| AppError::internal(format!("the password hashing task failed: {e}")))
}

async fn hash_blocking(password: String) -> AppResult<String> {
    with_hashing_slot(move || hash_password(&password)).await?
}

/// Checks a password against the account's hash, or against [`DUMMY_HASH`] (`None`: no such
/// account), in a hashing slot.
async fn verify_blocking(password: String, phc: Option<String>) -> AppResult<bool> {
    with_hashing_slot(move || verify_password(&password, phc.as_deref().unwrap_or(&DUMMY_HASH))).await
}

/// Sign-in attempts per client address, counted in memory before the database's throttle is
/// asked: a flood from one address is refused without a query or a hash.
type AddressLimiter = governor::RateLimiter<
    std::net::IpAddr,
    governor::state::keyed::HashMapStateStore<std::net::IpAddr>,
    governor::clock::DefaultClock,
>;
static SIGN_IN_LIMITER: std::sync::OnceLock<(u32, AddressLimiter)> = std::sync::OnceLock::new();
static SIGN_IN_CHECKS: AtomicUsize = AtomicUsize::new(0);

/// Counts a sign-in attempt from `address` against `per_minute`; the seconds to wait when over.
fn sign_in_allowed(address: &str, per_minute: u32) -> Result<(), u64> {
    use governor::clock::Clock;
    let Ok(ip) = address.parse::<std::net::IpAddr>() else { return Ok(()) };
    let per_minute = std::num::NonZeroU32::new(per_minute).unwrap_or(std::num::NonZeroU32::MIN);
    let (_, limiter) = SIGN_IN_LIMITER.get_or_init(|| (per_minute.get(), AddressLimiter::hashmap(governor::Quota::per_minute(per_minute))));
    // Addresses whose allowance is whole again are forgotten now and then.
    if SIGN_IN_CHECKS.fetch_add(1, Ordering::Relaxed) % 1024 == 1023 {
        limiter.retain_recent();
        limiter.shrink_to_fit();
    }
    limiter.check_key(&ip).map_err(|not_until| {
        let wait = not_until.wait_time_from(governor::clock::DefaultClock::default().now());
        wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
    })
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// 32 random bytes, URL-safe base64: session ids, invitation tokens.
pub fn random_token() -> String {
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database stores instead of a token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Normalises an email address for storage and comparison.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

fn check_email(email: &str) -> AppResult<()> {
    let ok = email.len() <= 254
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && !domain.is_empty() && !domain.starts_with('.') && !domain.ends_with('.')
        })
        && !email.chars().any(|c| c.is_whitespace() || c.is_control());
    if ok { Ok(()) } else { Err(AppError::invalid("email", format!("{email:?} is not an email address."))) }
}

// ---------------------------------------------------------------------------------------------
// Accounts

fn user_from_row(row: &sqlx::any::AnyRow) -> Result<UserInfo, sqlx::Error> {
    let role: String = row.try_get("role")?;
    Ok(UserInfo {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        name: row.try_get("display_name")?,
        role: Role::parse(&role).unwrap_or(Role::Annotator),
    })
}

/// Creates an account; refuses a taken email, a malformed email or a weak password.
pub async fn create_user(db: &Db, email: &str, name: &str, password: &str, role: Role) -> AppResult<UserInfo> {
    let email = normalise_email(email);
    check_email(&email)?;
    check_password_strength(password)?;
    let name = if name.trim().is_empty() { email.split('@').next().unwrap_or("").to_string() } else { name.trim().to_string() };
    if let Err(p) = assay_core::limits::check_name(&name) {
        return Err(AppError::invalid("name", format!("The name {p}.")));
    }
    let hash = hash_blocking(password.to_string()).await?;
    let mut tx = db.writer.begin().await.with_context(|| format!("creating the account of {email}"))?;
    let row = sqlx::query(
        "INSERT INTO users (email, display_name, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(&email)
    .bind(&name)
    .bind(&hash)
    .bind(role.as_str())
    .bind(now_ms())
    .fetch_one(&mut *tx)
    .await
    .map_err(|e| {
        if e.as_database_error().is_some_and(|d| d.is_unique_violation()) {
            AppError::invalid("email", format!("An account for {email} exists already."))
        } else {
            AppError::storage(format!("creating the account of {email}"), e)
        }
    })?;
    let id: i64 = row.try_get("id").context("reading a new account's id")?;
    // Every new account joins the default team (an admin may move it).
    super::teams::join_default_team(&mut tx, id).await.with_context(|| format!("creating the account of {email}"))?;
    tx.commit().await.with_context(|| format!("creating the account of {email}"))?;
    Ok(UserInfo { id, email, name, role })
}

/// Creates the account unless one with that email exists; returns whether it was created.
pub async fn ensure_user(db: &Db, email: &str, name: &str, password: &str, role: Role) -> AppResult<bool> {
    if find_user(db, email).await?.is_some() {
        return Ok(false);
    }
    create_user(db, email, name, password, role).await.map(|_| true)
}

/// The account with this email, if any.
pub async fn find_user(db: &Db, email: &str) -> AppResult<Option<UserInfo>> {
    let row = sqlx::query("SELECT id, email, display_name, role FROM users WHERE email = $1")
        .bind(normalise_email(email))
        .fetch_optional(&db.pool)
        .await
        .context("looking up an account by email")?;
    row.map(|r| user_from_row(&r).context("reading an account")).transpose()
}

/// Every account, oldest first, with whether it is disabled and its failed sign-ins in the
/// throttle window (`window_ms`).
pub async fn list_users(db: &Db, window_ms: i64) -> AppResult<Vec<Account>> {
    let rows = sqlx::query(
        "SELECT id, email, display_name, role, disabled, \
         (SELECT COUNT(*) FROM login_attempts a WHERE a.email = users.email AND a.at > $1 AND a.succeeded = 0) AS failed \
         FROM users ORDER BY id",
    )
    .bind(now_ms() - window_ms)
    .fetch_all(&db.pool)
    .await
    .context("listing the accounts")?;
    rows.iter()
        .map(|r| Ok(Account { user: user_from_row(r)?, disabled: r.try_get::<i64, _>("disabled")? != 0, failed_sign_ins: r.try_get("failed")? }))
        .collect::<Result<_, sqlx::Error>>()
        .context("reading an account")
}

/// Revokes every live API token of an account (in the caller's transaction).
async fn revoke_tokens_of(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE api_tokens SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL")
        .bind(now_ms())
        .bind(user_id)
        .execute(conn)
        .await
        .map(drop)
}

/// Disables an account (it can no longer sign in; its sessions end and its API tokens are
/// revoked, at once) or enables it again (its old sessions and tokens stay gone). An admin
/// cannot disable their own account, nor the last enabled administrator.
pub async fn set_disabled(db: &Db, by: i64, user_id: i64, disabled: bool) -> AppResult<()> {
    let what = || format!("{} account {user_id}", if disabled { "disabling" } else { "enabling" });
    if disabled && by == user_id {
        return Err(AppError::invalid("user_id", "You cannot disable your own account."));
    }
    let mut tx = db.writer.begin().await.with_context(what)?;
    let role: Option<String> =
        sqlx::query_scalar("SELECT role FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await.with_context(what)?;
    let Some(role) = role else { return Err(AppError::not_found(format!("There is no account with id {user_id}."))) };
    if disabled && role == Role::Admin.as_str() {
        let admins: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE role = $1 AND disabled = 0 AND id <> $2")
            .bind(Role::Admin.as_str())
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await
            .with_context(what)?;
        if admins == 0 {
            return Err(AppError::invalid("user_id", "This is the last administrator; make another account admin first."));
        }
    }
    sqlx::query("UPDATE users SET disabled = $1 WHERE id = $2").bind(i64::from(disabled)).bind(user_id).execute(&mut *tx).await.with_context(what)?;
    if disabled {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await.with_context(what)?;
        revoke_tokens_of(&mut *tx, user_id).await.with_context(what)?;
    }
    tx.commit().await.with_context(what)
}

/// Ends every session of an account (signed out in every browser); its API tokens are kept.
pub async fn sign_out_everywhere(db: &Db, user_id: i64) -> AppResult<()> {
    let what = || format!("signing account {user_id} out everywhere");
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE id = $1").bind(user_id).fetch_optional(&db.pool).await.with_context(what)?;
    if found.is_none() {
        return Err(AppError::not_found(format!("There is no account with id {user_id}.")));
    }
    sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&db.writer).await.with_context(what)?;
    Ok(())
}

/// Changes an account's role (its sessions end; its API tokens stay, with the new role). An
/// admin cannot demote the last admin.
pub async fn set_role(db: &Db, user_id: i64, role: Role) -> AppResult<()> {
    let what = || format!("changing the role of account {user_id}");
    let mut tx = db.writer.begin().await.with_context(what)?;
    let current: Option<String> =
        sqlx::query_scalar("SELECT role FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await.with_context(what)?;
    let Some(current) = current else { return Err(AppError::not_found(format!("There is no account with id {user_id}."))) };
    if current == Role::Admin.as_str() && role != Role::Admin {
        let admins: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE role = $1 AND disabled = 0")
            .bind(Role::Admin.as_str())
            .fetch_one(&mut *tx)
            .await
            .with_context(what)?;
        if admins <= 1 {
            return Err(AppError::invalid("role", "This is the last administrator; make another account admin first."));
        }
    }
    sqlx::query("UPDATE users SET role = $1 WHERE id = $2").bind(role.as_str()).bind(user_id).execute(&mut *tx).await.with_context(what)?;
    // A change of role takes effect at once: the account signs in again.
    sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await.with_context(what)?;
    // The account's API tokens are kept: a token acts with its owner's role at the time of each
    // request (`tokens::authenticate` reads it), so a demoted account's token can do no more
    // than the account, and a promotion gives it back what the account may do.
    tx.commit().await.with_context(what)
}

// ---------------------------------------------------------------------------------------------
// Sessions

/// A signed-in browser: the account and the hash of its session token.
#[derive(Clone, Debug)]
pub struct Session {
    pub user: UserInfo,
    pub token_hash: String,
}

/// The session of the current request, set by [`resolve_session`].
#[derive(Clone, Debug, Default)]
pub struct CurrentSession(pub Option<Session>);

/// Starts a session for an account; returns the token for the cookie.
pub async fn create_session(db: &Db, user_id: i64) -> AppResult<String> {
    let token = random_token();
    let now = now_ms();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(token_hash(&token))
        .bind(user_id)
        .bind(now)
        .bind(now + SESSION_LIFETIME_MS)
        .bind(now)
        .execute(&db.writer)
        .await
        .with_context(|| format!("starting a session for account {user_id}"))?;
    Ok(token)
}

/// Ends a session (logout, rotation at login).
pub async fn delete_session(db: &Db, token_hash: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash).execute(&db.writer).await.context("ending a session")?;
    Ok(())
}

/// The live session a token belongs to, sliding its expiry forward (at most once a minute).
pub async fn lookup_session(db: &Db, token: &str) -> AppResult<Option<Session>> {
    let hash = token_hash(token);
    let now = now_ms();
    let row = sqlx::query(
        "SELECT u.id, u.email, u.display_name, u.role, s.last_seen_at FROM sessions s JOIN users u ON u.id = s.user_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.disabled = 0",
    )
    .bind(&hash)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
    .context("looking up a session")?;
    let Some(row) = row else { return Ok(None) };
    let user = user_from_row(&row).context("reading a session's account")?;
    let last_seen: i64 = row.try_get("last_seen_at").context("reading a session")?;
    if now - last_seen > 60_000 {
        sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
            .bind(now)
            .bind(now + SESSION_LIFETIME_MS)
            .bind(&hash)
            .execute(&db.writer)
            .await
            .context("extending a session")?;
    }
    Ok(Some(Session { user, token_hash: hash }))
}

/// The `Set-Cookie` value that stores a session token.
pub fn session_cookie(token: &str, settings: &ServerSettings) -> String {
    let secure = if settings.secure_cookies { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        SESSION_LIFETIME_MS / 1000
    )
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_session_cookie(settings: &ServerSettings) -> String {
    let secure = if settings.secure_cookies { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}")
}

/// The value of a cookie in a request's headers.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|pair| {
        let (k, v) = pair.trim().split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

// ---------------------------------------------------------------------------------------------
// Login and throttling

/// Why a login was refused. Unknown account and wrong password are the same answer.
#[derive(Debug)]
pub enum LoginError {
    Invalid,
    /// Too many failed sign-ins just now: this attempt must wait (a progressive delay).
    Throttled { seconds: u64 },
    /// Too many attempts from the client's address just now (the in-memory limiter).
    TooFast { seconds: u64 },
    /// The server failed (logged by the caller; users read [`crate::error::SERVER_FAULT`]).
    Internal(AppError),
}

impl From<AppError> for LoginError {
    fn from(e: AppError) -> Self {
        LoginError::Internal(e)
    }
}

impl std::fmt::Display for LoginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoginError::Invalid => write!(f, "Email or password is incorrect."),
            LoginError::Throttled { seconds } if *seconds >= 120 => {
                write!(f, "Too many failed sign-ins. Try again in {} minutes.", seconds.div_ceil(60))
            }
            LoginError::Throttled { seconds } => {
                write!(f, "Too many failed sign-ins. Try again in {seconds} second{}.", if *seconds == 1 { "" } else { "s" })
            }
            LoginError::TooFast { seconds } => {
                write!(f, "Too many sign-in attempts from your address. Try again in {seconds} second{}.", if *seconds == 1 { "" } else { "s" })
            }
            LoginError::Internal(e) => f.write_str(&e.public_message()),
        }
    }
}

/// A refused sign-in is the [`AppError`] of its kind, with the same message (the one mapping
/// to HTTP is there): a wrong password 401, a throttled attempt 429 with `Retry-After`, a
/// server fault as it is.
impl From<LoginError> for AppError {
    fn from(e: LoginError) -> Self {
        match e {
            LoginError::Invalid => AppError::unauthorized(e.to_string()),
            LoginError::Throttled { seconds } | LoginError::TooFast { seconds } => AppError::busy(e.to_string(), seconds),
            LoginError::Internal(e) => e,
        }
    }
}

/// Failures counted against one limit: how many in the throttle window, and when the last was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Failures {
    pub count: i64,
    pub last_at: i64,
}

/// How long (ms from `now`) a sign-in attempt must wait, given the failures in the window for
/// the account from this address (`pair`), for the account from everywhere (`account`) and from
/// this address for any account (`address`); 0 when it may go ahead. Progressive delays, never a
/// lock: a pair or an address past its free failures waits [`ServerSettings::slow_delay_ms`]
/// after its last failure, doubling with each failure more, at most the throttle window; an
/// account past its free failures from everywhere waits a second more per failure after the
/// account's last failure, at most [`ServerSettings::account_delay_cap_ms`], so that guesses
/// from many addresses are slowed while its owner, from an address of their own, waits no
/// longer than that.
pub fn sign_in_wait_ms(settings: &ServerSettings, pair: Failures, account: Failures, address: Failures, now: i64) -> i64 {
    let doubling = |f: Failures, free: i64| {
        if f.count < free.max(1) {
            return 0;
        }
        let doublings = u32::try_from(f.count - free.max(1)).unwrap_or(u32::MAX).min(30);
        let delay = settings.slow_delay_ms.saturating_mul(1_i64 << doublings).min(settings.throttle_window_ms);
        f.last_at + delay - now
    };
    let account_wait = if account.count < settings.max_failures_per_account_everywhere.max(1) {
        0
    } else {
        let delay = (1_000 * (account.count - settings.max_failures_per_account_everywhere + 1)).min(settings.account_delay_cap_ms);
        account.last_at + delay - now
    };
    [doubling(pair, settings.max_failures_per_account), doubling(address, settings.max_failures_per_address), account_wait]
        .into_iter()
        .max()
        .unwrap_or(0)
        .max(0)
}

/// Counts the attempt before its password is checked: in one transaction on the writer, one at a
/// time per account and per address (SQLite: the writer is one connection; PostgreSQL:
/// transaction-scoped advisory locks on both keys, always the account's first), the failures in
/// the window are read and, unless the attempt must wait ([`sign_in_wait_ms`]), it is stored as
/// a failure. A burst of simultaneous wrong passwords therefore gets no more password checks
/// than the free failures (they all used to read the count before any failure was written).
/// The state is the database's `login_attempts`, not memory, so that app servers sharing a
/// database share the limits (an attacker cannot multiply them by the number of servers) and an
/// admin's unlock ([`clear_failed_sign_ins`]) holds on every server. Returns the stored attempt's
/// id, which a right password then marks as succeeded.
async fn reserve_attempt(db: &Db, settings: &ServerSettings, email: &str, address: &str, now: i64) -> Result<i64, LoginError> {
    let internal = |e: sqlx::Error| LoginError::Internal(AppError::storage(format!("counting the sign-in attempts for {email}"), e));
    let since = now - settings.throttle_window_ms;
    let mut tx = db.writer.begin().await.map_err(internal)?;
    if db.backend == crate::db::Backend::Postgres {
        for key in [format!("sign-in account {email}"), format!("sign-in address {address}")] {
            sqlx::query("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext($1))) AS locked")
                .bind(key)
                .fetch_one(&mut *tx)
                .await
                .map_err(internal)?;
        }
    }
    let failures = |row: sqlx::any::AnyRow| -> Result<Failures, LoginError> {
        Ok(Failures { count: row.try_get(0).map_err(internal)?, last_at: row.try_get(1).map_err(internal)? })
    };
    let pair = sqlx::query(
        "SELECT COUNT(*), COALESCE(MAX(at), 0) FROM login_attempts WHERE email = $1 AND address = $2 AND at > $3 AND succeeded = 0",
    )
    .bind(email)
    .bind(address)
    .bind(since)
    .fetch_one(&mut *tx)
    .await
    .map_err(internal)?;
    let account = sqlx::query("SELECT COUNT(*), COALESCE(MAX(at), 0) FROM login_attempts WHERE email = $1 AND at > $2 AND succeeded = 0")
        .bind(email)
        .bind(since)
        .fetch_one(&mut *tx)
        .await
        .map_err(internal)?;
    let by_address = sqlx::query("SELECT COUNT(*), COALESCE(MAX(at), 0) FROM login_attempts WHERE address = $1 AND at > $2 AND succeeded = 0")
        .bind(address)
        .bind(since)
        .fetch_one(&mut *tx)
        .await
        .map_err(internal)?;
    let wait_ms = sign_in_wait_ms(settings, failures(pair)?, failures(account)?, failures(by_address)?, now);
    if wait_ms > 0 {
        return Err(LoginError::Throttled { seconds: u64::try_from((wait_ms + 999) / 1000).unwrap_or(1).max(1) });
    }
    let id: i64 = sqlx::query("INSERT INTO login_attempts (email, address, at, succeeded) VALUES ($1, $2, $3, 0) RETURNING id")
        .bind(email)
        .bind(address)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(internal)?
        .try_get(0)
        .map_err(internal)?;
    tx.commit().await.map_err(internal)?;
    Ok(id)
}

/// Forgets the failed sign-ins of an account, from every address (the admin's unlock): the
/// delays they imposed end at once, on every app server. Returns how many were forgotten.
pub async fn clear_failed_sign_ins(db: &Db, user_id: i64) -> AppResult<u64> {
    let what = || format!("clearing the failed sign-ins of account {user_id}");
    let email: Option<String> =
        sqlx::query_scalar("SELECT email FROM users WHERE id = $1").bind(user_id).fetch_optional(&db.pool).await.with_context(what)?;
    let Some(email) = email else { return Err(AppError::not_found(format!("There is no account with id {user_id}."))) };
    let done = sqlx::query("DELETE FROM login_attempts WHERE email = $1 AND succeeded = 0").bind(&email).execute(&db.writer).await.with_context(what)?;
    Ok(done.rows_affected())
}

/// Checks throttling, the account and the password; on success starts a new session (the old
/// one, if any, is ended: the session id rotates at login). Both failure paths cost one argon2
/// verification, so timing does not reveal whether an account exists.
pub async fn login(
    state: &AppState,
    email: &str,
    password: &str,
    address: &str,
    old_token_hash: Option<&str>,
) -> Result<(String, UserInfo), LoginError> {
    let db = &state.db;
    let settings = &state.settings;
    let email = normalise_email(email);
    sign_in_allowed(address, settings.sign_ins_per_minute).map_err(|seconds| LoginError::TooFast { seconds })?;
    let now = now_ms();
    let attempt = reserve_attempt(db, settings, &email, address, now).await?;

    let row = sqlx::query("SELECT id, email, display_name, role, password_hash, disabled FROM users WHERE email = $1")
        .bind(&email)
        .fetch_optional(&db.pool)
        .await
        .context("looking up an account at sign-in")?;
    let (user, phc, disabled) = match &row {
        Some(r) => (
            Some(user_from_row(r).context("reading an account at sign-in")?),
            Some(r.try_get::<String, _>("password_hash").unwrap_or_default()),
            r.try_get::<i64, _>("disabled").unwrap_or(1) != 0,
        ),
        None => (None, None, true),
    };
    let password_ok = match verify_blocking(password.to_string(), phc).await {
        Ok(ok) => ok,
        Err(e) => {
            // Refused before the password was checked (the server is busy): not a failure.
            let _ = sqlx::query("DELETE FROM login_attempts WHERE id = $1").bind(attempt).execute(&db.writer).await;
            return Err(e.into());
        }
    };
    let succeeded = password_ok && !disabled && user.is_some();

    match user {
        Some(user) if succeeded => {
            sqlx::query("UPDATE login_attempts SET succeeded = 1 WHERE id = $1")
                .bind(attempt)
                .execute(&db.writer)
                .await
                .context("marking a sign-in attempt succeeded")?;
            if let Some(old) = old_token_hash {
                delete_session(db, old).await?;
            }
            // The failures from this address end with the right password; those from elsewhere
            // keep slowing their addresses (an attacker's are not wiped by the owner's sign-in).
            sqlx::query("DELETE FROM login_attempts WHERE email = $1 AND address = $2 AND succeeded = 0")
                .bind(&email)
                .bind(address)
                .execute(&db.writer)
                .await
                .context("clearing the failed sign-ins of an account")?;
            let token = create_session(db, user.id).await?;
            Ok((token, user))
        }
        _ => Err(LoginError::Invalid),
    }
}

// ---------------------------------------------------------------------------------------------
// Invitations

/// An invitation as the admin page lists it.
#[derive(Clone, Debug)]
pub struct Invitation {
    pub email: String,
    pub role: Role,
    pub expires_at: i64,
}

/// Creates an invitation; returns the token for the link (only its hash is stored).
pub async fn create_invitation(db: &Db, email: &str, role: Role, created_by: i64) -> AppResult<String> {
    let email = normalise_email(email);
    check_email(&email)?;
    if find_user(db, &email).await?.is_some() {
        return Err(AppError::invalid("email", format!("An account for {email} exists already.")));
    }
    let token = random_token();
    let now = now_ms();
    sqlx::query("INSERT INTO invitations (token_hash, email, role, created_by, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(token_hash(&token))
        .bind(&email)
        .bind(role.as_str())
        .bind(created_by)
        .bind(now)
        .bind(now + INVITATION_LIFETIME_MS)
        .execute(&db.writer)
        .await
        .with_context(|| format!("storing an invitation for {email}"))?;
    Ok(token)
}

/// The open invitation a token belongs to; an error that says why when there is none.
/// Every refusal is wrong input in the `token` argument.
pub async fn find_invitation(db: &Db, token: &str) -> AppResult<Invitation> {
    let refused = |problem: &str| AppError::invalid("token", problem);
    let row = sqlx::query("SELECT email, role, expires_at, accepted_at FROM invitations WHERE token_hash = $1")
        .bind(token_hash(token))
        .fetch_optional(&db.pool)
        .await
        .context("looking up an invitation")?;
    let Some(row) = row else { return Err(refused("This invitation link is not valid.")) };
    let read = "reading an invitation";
    let accepted: Option<i64> = row.try_get("accepted_at").context(read)?;
    if accepted.is_some() {
        return Err(refused("This invitation has been used already. Sign in instead."));
    }
    let expires_at: i64 = row.try_get("expires_at").context(read)?;
    if expires_at <= now_ms() {
        return Err(refused("This invitation has expired. Ask for a new one."));
    }
    let role: String = row.try_get("role").context(read)?;
    Ok(Invitation { email: row.try_get("email").context(read)?, role: Role::parse(&role).unwrap_or(Role::Annotator), expires_at })
}

/// Turns an invitation into an account and marks it used; returns the account.
pub async fn accept_invitation(db: &Db, token: &str, name: &str, password: &str) -> AppResult<UserInfo> {
    let invitation = find_invitation(db, token).await?;
    check_password_strength(password)?;
    // Mark it used first (only one of two racing requests can), then create the account.
    let marked = sqlx::query("UPDATE invitations SET accepted_at = $1 WHERE token_hash = $2 AND accepted_at IS NULL")
        .bind(now_ms())
        .bind(token_hash(token))
        .execute(&db.writer)
        .await
        .context("marking an invitation used")?;
    if marked.rows_affected() != 1 {
        return Err(AppError::invalid("token", "This invitation has been used already. Sign in instead."));
    }
    match create_user(db, &invitation.email, name, password, invitation.role).await {
        Ok(user) => Ok(user),
        Err(e) => {
            // Give the invitation back so the person can try again.
            let _ = sqlx::query("UPDATE invitations SET accepted_at = NULL WHERE token_hash = $1")
                .bind(token_hash(token))
                .execute(&db.writer)
                .await;
            Err(e)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Middleware

/// Resolves the session cookie into a [`CurrentSession`] request extension.
pub async fn resolve_session(mut req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let is_asset = path.starts_with("/pkg/") || path == "/favicon.ico" || path.ends_with(".css");
    if !is_asset {
        let session = match (req.extensions().get::<AppState>(), cookie_value(req.headers(), SESSION_COOKIE)) {
            (Some(state), Some(token)) if !token.is_empty() => lookup_session(&state.db, &token).await.unwrap_or_else(|e| {
                tracing::error!("session lookup failed: {e}");
                None
            }),
            _ => None,
        };
        req.extensions_mut().insert(CurrentSession(session));
    }
    next.run(req).await
}

/// CSRF protection for every state-changing request: the browser's `Origin` (or, failing that,
/// `Referer`) must name this server, and `Sec-Fetch-Site` must not say cross-site. "This server"
/// is one of `trusted` ([`ServerSettings::trusted_origins`]: the configured public URL's origin,
/// else the listening address's), never the request's own `Host` (which the client writes, so a
/// forged request could match it). Together with SameSite=Lax session cookies this refuses
/// requests forged by other sites, including login CSRF. Requests that carry no cookie and an
/// `Authorization` header (API clients) pass.
pub fn origin_allowed(method: &Method, headers: &HeaderMap, trusted: &[String]) -> bool {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
        && (site == "cross-site" || site == "same-site")
    {
        return false;
    }
    let claimed = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .and_then(|v| v.to_str().ok())
        .filter(|v| *v != "null");
    let Some(claimed) = claimed else {
        return headers.get(header::COOKIE).is_none() && headers.get(header::AUTHORIZATION).is_some();
    };
    crate::state::origin_of(claimed).is_some_and(|o| trusted.contains(&o))
}

/// Middleware form of [`origin_allowed`]: answers 403 to a forged request.
pub async fn verify_origin(req: Request, next: Next) -> Response {
    let trusted = req.extensions().get::<AppState>().map(|s| s.settings.trusted_origins()).unwrap_or_default();
    if origin_allowed(req.method(), req.headers(), &trusted) {
        next.run(req).await
    } else {
        AppError::forbidden("Refused: this request did not come from an Assay page (CSRF protection).").into_plain_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn password_hash_is_argon2id_with_owasp_parameters_and_verifies() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{hash}");
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("correct horse batterz", &hash));
        assert!(!verify_password("anything", "not a hash"));
        // Salted: the same password hashes differently.
        assert_ne!(hash, hash_password("correct horse battery").unwrap());
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let a = random_token();
        let b = random_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn cookies_are_http_only_and_same_site() {
        let mut s = ServerSettings::default();
        let c = session_cookie("tok", &s);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && !c.contains("Secure"));
        s.secure_cookies = true;
        assert!(session_cookie("tok", &s).ends_with("; Secure"));
        assert!(clear_session_cookie(&s).contains("Max-Age=0"));
    }

    #[test]
    fn cookie_value_finds_the_named_cookie() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; assay_session=xyz; b=2"));
        assert_eq!(cookie_value(&h, SESSION_COOKIE).as_deref(), Some("xyz"));
        assert_eq!(cookie_value(&h, "c"), None);
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origin_check_trusts_the_configured_public_url_not_the_host() {
        let post = Method::POST;
        let trusted = &["https://assay.example.org".to_string()][..];
        assert!(origin_allowed(&post, &headers(&[("host", "assay.example.org"), ("origin", "https://assay.example.org")]), trusted));
        // Behind a proxy the Host may be anything; the Origin is what counts.
        assert!(origin_allowed(&post, &headers(&[("host", "10.0.0.7:3000"), ("origin", "https://Assay.Example.org")]), trusted));
        assert!(origin_allowed(&post, &headers(&[("host", "x"), ("referer", "https://assay.example.org/login?x=1")]), trusted));
        // A forged Host that matches a forged Origin is not enough.
        assert!(!origin_allowed(&post, &headers(&[("host", "evil.test"), ("origin", "http://evil.test")]), trusted));
        // The scheme and the port are part of the origin.
        assert!(!origin_allowed(&post, &headers(&[("host", "assay.example.org"), ("origin", "http://assay.example.org")]), trusted));
        assert!(!origin_allowed(&post, &headers(&[("host", "assay.example.org"), ("origin", "https://assay.example.org:8443")]), trusted));
        assert!(!origin_allowed(&post, &headers(&[("host", "assay.example.org"), ("origin", "https://assay.example.org.evil.test")]), trusted));
        assert!(!origin_allowed(&post, &headers(&[("host", "assay.example.org"), ("origin", "null")]), trusted));
        let mut s = ServerSettings { public_url: "HTTPS://assay.example.org:443/base/".into(), public_url_configured: true, ..ServerSettings::default() };
        assert_eq!(s.trusted_origins(), ["https://assay.example.org"]);
        // Not configured: the public URL is http://BIND, its origin and, for a loopback or
        // wildcard bind, the loopback names on the same port; never the Host.
        s = ServerSettings { public_url: "http://127.0.0.1:3000".into(), ..ServerSettings::default() };
        assert_eq!(s.trusted_origins(), ["http://127.0.0.1:3000", "http://localhost:3000", "http://[::1]:3000"]);
        s.public_url = "http://[::1]:8080".into();
        assert_eq!(s.trusted_origins(), ["http://[::1]:8080", "http://localhost:8080", "http://127.0.0.1:8080"]);
        s.public_url = "http://0.0.0.0:8080".into();
        assert_eq!(s.trusted_origins(), ["http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080"]);
        s.public_url = "http://10.1.2.3:3000".into();
        assert_eq!(s.trusted_origins(), ["http://10.1.2.3:3000"]);
    }

    #[test]
    fn origin_check_refuses_cross_site_posts() {
        let post = Method::POST;
        let trusted = ServerSettings { public_url: "http://127.0.0.1:3000".into(), ..ServerSettings::default() }.trusted_origins();
        let origin_allowed = |m: &Method, h: &HeaderMap| origin_allowed(m, h, &trusted);
        assert!(origin_allowed(&Method::GET, &headers(&[("host", "a.test")])));
        assert!(origin_allowed(&post, &headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000")])));
        assert!(origin_allowed(&post, &headers(&[("host", "localhost:3000"), ("origin", "http://localhost:3000")])));
        // Issue 38: a Host and an Origin that agree on a foreign name are not this server.
        assert!(!origin_allowed(&post, &headers(&[("host", "a.test:3000"), ("origin", "http://a.test:3000")])));
        assert!(!origin_allowed(&post, &headers(&[("host", "127.0.0.1:3000"), ("origin", "http://evil.test")])));
        assert!(!origin_allowed(&post, &headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3001")])));
        assert!(!origin_allowed(&post, &headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1.evil.test:3000")])));
        assert!(origin_allowed(&post, &headers(&[("host", "a.test"), ("referer", "http://127.0.0.1:3000/login?x=1")])));
        assert!(!origin_allowed(&post, &headers(&[("host", "a.test"), ("referer", "http://a.test/login?x=1")])));
        assert!(!origin_allowed(&post, &headers(&[("host", "a.test"), ("origin", "null")])));
        assert!(!origin_allowed(
            &post,
            &headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000"), ("sec-fetch-site", "cross-site")])
        ));
        // No origin at all: only a cookie-less API client may pass.
        assert!(!origin_allowed(&post, &headers(&[("host", "a.test"), ("cookie", "assay_session=x")])));
        assert!(origin_allowed(&post, &headers(&[("host", "a.test"), ("authorization", "Bearer t")])));
    }

    /// Issue 38: failures slow further attempts, progressively, and never lock: per account and
    /// address the waits double up to the window; per account from everywhere they grow a second
    /// per failure up to 30 s, whatever the number of failures.
    #[test]
    fn failed_sign_ins_slow_progressively_and_never_lock() {
        let s = ServerSettings::default();
        let none = Failures::default();
        let now = 10_000_000;
        let just_now = |count| Failures { count, last_at: now };
        let wait = |pair, account, address| sign_in_wait_ms(&s, pair, account, address, now);
        assert_eq!(wait(just_now(4), just_now(4), just_now(4)), 0, "four failures are free");
        let pair: Vec<i64> = (5..14).map(|n| wait(just_now(n), just_now(n), just_now(n))).collect();
        assert_eq!(pair, [15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000], "doubling, capped at the window");
        // The wait runs from the last failure.
        assert_eq!(sign_in_wait_ms(&s, Failures { count: 6, last_at: now - 20_000 }, none, none, now), 10_000);
        assert_eq!(sign_in_wait_ms(&s, Failures { count: 6, last_at: now - 40_000 }, none, none, now), 0);
        // Many addresses: a fresh address waits only the account's wait, at most 30 s.
        assert_eq!(wait(none, just_now(49), none), 0);
        assert_eq!(wait(none, just_now(50), none), 1_000);
        assert_eq!(wait(none, just_now(55), none), 6_000);
        assert_eq!(wait(none, just_now(1_000_000), none), 30_000);
        // One address guessing many accounts is slowed as one pair.
        assert_eq!(wait(none, none, just_now(20)), 15_000);
        assert_eq!(wait(none, none, just_now(19)), 0);
    }

    #[test]
    fn emails_and_passwords_are_checked() {
        assert!(check_email("a@b.org").is_ok());
        assert!(check_email("a b@c.org").is_err());
        assert!(check_email("nobody").is_err());
        assert!(check_email("a@.org").is_err());
        assert!(check_password_strength("short").is_err());
        assert!(check_password_strength("long enough pw").is_ok());
        assert_eq!(normalise_email("  Ann@Example.ORG "), "ann@example.org");
    }
}
