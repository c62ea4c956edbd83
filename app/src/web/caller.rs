//! Who asks, and whether they may: the one role check of server functions ([`require`], the
//! session only) and of the read-only API and the downloads ([`api_caller`], a personal API
//! token or the session).

use crate::auth::server::CurrentSession;
use crate::auth::{Role, UserInfo};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use axum::Extension;
use axum::http::{HeaderMap, header};

fn needs(role: Role) -> AppError {
    AppError::forbidden(format!("This needs the {} role.", role.label()))
}

/// The signed-in account if its role is at least `role`; otherwise 401 (not signed in) or 403.
/// Every server function that is not public starts with this.
pub fn require(role: Role) -> AppResult<UserInfo> {
    match super::current_session() {
        None => Err(AppError::unauthorized("Please sign in.")),
        Some(s) if s.user.role >= role => Ok(s.user),
        Some(_) => Err(needs(role)),
    }
}

/// Who asks a GET route that serves files or results: the account of a Bearer token if the
/// request has one (and only then), else the session's. 401 when neither is valid, 403 when
/// the role is below `role`.
pub async fn api_caller(state: &AppState, session: Option<Extension<CurrentSession>>, headers: &HeaderMap, role: Role) -> AppResult<UserInfo> {
    let user = match headers.get(header::AUTHORIZATION) {
        Some(value) => {
            let secret = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim).unwrap_or("");
            crate::auth::tokens::authenticate(&state.db, secret)
                .await?
                .ok_or_else(|| AppError::unauthorized("The API token is not valid: unknown, revoked, or its account is disabled."))?
        }
        None => session
            .and_then(|Extension(s)| s.0)
            .map(|s| s.user)
            .ok_or_else(|| AppError::unauthorized("Please sign in (or send a personal API token as Authorization: Bearer …)."))?,
    };
    if user.role < role {
        return Err(needs(role));
    }
    Ok(user)
}
