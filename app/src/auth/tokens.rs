//! Personal API tokens: a researcher (or higher) creates named tokens for scripts. Only the
//! token's SHA-256 is stored (like session ids); the token is shown once. Every token reads (the
//! GET routes of the API and the downloads); each write it may make is a scope chosen when it is
//! made ([`crate::auth::TokenScope`]: `metrics-upload`, `gold-upload`), stored with it and checked in one
//! place, `web::api_caller`, for every route a token reaches. Server functions never take a
//! token. A token acts with its owner's role *at the time of each request*: a demoted account's
//! token can do only what the account now may (a promotion gives it back the rest); a disabled
//! account's tokens are revoked. Revoked tokens are refused.

use crate::auth::server::{random_token, token_hash};
use crate::auth::{ApiToken, NewApiToken, Role, TokenScopes, UserInfo};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};

/// Every token starts with this, so that it is recognisable in a script or a leak scanner.
pub const TOKEN_PREFIX: &str = "assay_";
/// The longest token name accepted (a label: `assay_core::limits`).
pub use assay_core::limits::MAX_LABEL_CHARS as MAX_NAME_CHARS;
/// Live tokens one account may have.
pub const MAX_TOKENS: i64 = 50;

/// Creates a token for `user` (researchers and up) that reads and may make the writes of
/// `scopes` (each refused to a role below its [`crate::auth::TokenScope::min_role`]); returns it with the
/// secret.
pub async fn create(db: &Db, user: &UserInfo, name: &str, scopes: &TokenScopes) -> AppResult<NewApiToken> {
    if user.role < Role::Researcher {
        return Err(AppError::forbidden(format!("API tokens need the {} role.", Role::Researcher.label())));
    }
    if let Some(s) = scopes.0.iter().find(|s| user.role < s.min_role()) {
        return Err(AppError::invalid(
            "scopes",
            format!("A token that may {} needs the {} role.", s.label(), s.min_role().label()),
        ));
    }
    let name = name.trim();
    if name.is_empty() {
        return Err(AppError::invalid("name", "Give the token a name (e.g. the script that uses it)."));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(AppError::invalid("name", format!("The name may have at most {MAX_NAME_CHARS} characters.")));
    }
    if let Err(p) = assay_core::limits::check_line(name, MAX_NAME_CHARS) {
        return Err(AppError::invalid("name", format!("The name {p}.")));
    }
    let live: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL")
        .bind(user.id)
        .fetch_one(&db.pool)
        .await
        .context("counting live API tokens")?;
    if live >= MAX_TOKENS {
        return Err(AppError::invalid("name", format!("You have {live} live tokens already; revoke one first.")));
    }
    let secret = format!("{TOKEN_PREFIX}{}", random_token());
    let now = now_ms();
    let token: ApiToken = sqlx::query_as(
        "INSERT INTO api_tokens (user_id, name, token_hash, created_at, scopes) VALUES ($1, $2, $3, $4, $5) \
         RETURNING id, name, scopes, created_at, last_used_at, revoked_at",
    )
    .bind(user.id)
    .bind(name)
    .bind(token_hash(&secret))
    .bind(now)
    .bind(scopes.stored())
    .fetch_one(&db.writer)
    .await
    .context("storing an API token")?;
    Ok(NewApiToken { token, secret })
}

/// The account's tokens, newest first (revoked ones included, marked).
pub async fn list(db: &Db, user_id: i64) -> AppResult<Vec<ApiToken>> {
    sqlx::query_as("SELECT id, name, scopes, created_at, last_used_at, revoked_at FROM api_tokens WHERE user_id = $1 ORDER BY id DESC")
        .bind(user_id)
        .fetch_all(&db.pool)
        .await
        .with_context(|| format!("listing the API tokens of account {user_id}"))
}

/// Revokes one of the account's own tokens; another account's token is "not found".
pub async fn revoke(db: &Db, user_id: i64, token_id: i64) -> AppResult<()> {
    let done = sqlx::query("UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL")
        .bind(now_ms())
        .bind(token_id)
        .bind(user_id)
        .execute(&db.writer)
        .await
        .with_context(|| format!("revoking API token {token_id}"))?;
    // Not a 404: whether another account's token exists is none of the caller's business.
    if done.rows_affected() == 1 { Ok(()) } else { Err(AppError::invalid("token_id", format!("You have no live token with id {token_id}."))) }
}

crate::rows::row! {
    /// A live token's account, as [`authenticate`] reads it.
    struct TokenOwner {
        id: i64,
        email: String,
        display_name: String,
        role: String,
        token_id: i64,
        scopes: TokenScopes as String,
        last_used_at: Option<i64>,
    }
}

/// The account a live token belongs to, with the account's current role, and the token's
/// scopes; None for an unknown, revoked or malformed token or a disabled account. Notes the use
/// (at most once a minute).
pub async fn authenticate(db: &Db, secret: &str) -> AppResult<Option<(UserInfo, TokenScopes)>> {
    if !secret.starts_with(TOKEN_PREFIX) || secret.len() > 200 {
        return Ok(None);
    }
    let hash = token_hash(secret);
    let row: Option<TokenOwner> = sqlx::query_as(
        "SELECT u.id, u.email, u.display_name, u.role, t.id AS token_id, t.scopes, t.last_used_at FROM api_tokens t \
         JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.disabled = 0",
    )
    .bind(&hash)
    .fetch_optional(&db.pool)
    .await
    .context("looking up an API token")?;
    let Some(row) = row else { return Ok(None) };
    let user = UserInfo { id: row.id, email: row.email, name: row.display_name, role: Role::parse(&row.role).unwrap_or(Role::Annotator) };
    let now = now_ms();
    if row.last_used_at.is_none_or(|t| now - t > 60_000) {
        sqlx::query("UPDATE api_tokens SET last_used_at = $1 WHERE id = $2")
            .bind(now)
            .bind(row.token_id)
            .execute(&db.writer)
            .await
            .context("noting the use of an API token")?;
    }
    Ok(Some((user, row.scopes)))
}
