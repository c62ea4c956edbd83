//! Who asks, and whether they may: the one role check of server functions ([`require`], the
//! session only) and of the API and the downloads ([`api_caller`], a personal API token, with
//! the one check of its scopes, or the session).

use crate::auth::server::CurrentSession;
use crate::auth::{Role, TokenScope, UserInfo};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use axum::Extension;
use axum::http::{HeaderMap, Method, header};

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

/// Who asks a route of the API or the downloads: the account of a Bearer token if the request
/// has one (and only then), else the session's. 401 when neither is valid, 403 when the role is
/// below `role`.
///
/// The one check of what a token may do (issue 36): a `GET` or `HEAD` needs the `read` scope
/// (every token has it); any other method needs `scope`, the write the route makes, which the
/// token must have been given when it was made. A route that writes but names `read` takes no
/// token at all, so a new write route cannot be reached by a token until it names its scope.
/// The session is not scoped (its requests pass the Origin check instead).
pub async fn api_caller(
    state: &AppState,
    session: Option<Extension<CurrentSession>>,
    method: &Method,
    headers: &HeaderMap,
    role: Role,
    scope: TokenScope,
) -> AppResult<UserInfo> {
    let user = match headers.get(header::AUTHORIZATION) {
        Some(value) => {
            let secret = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim).unwrap_or("");
            let (user, scopes) = crate::auth::tokens::authenticate(&state.db, secret)
                .await?
                .ok_or_else(|| AppError::unauthorized("The API token is not valid: unknown, revoked, or its account is disabled."))?;
            let needed = if matches!(*method, Method::GET | Method::HEAD) { TokenScope::Read } else { scope };
            if needed == TokenScope::Read && !matches!(*method, Method::GET | Method::HEAD) {
                return Err(AppError::forbidden(format!("{method} on this route does not take an API token.")));
            }
            if !scopes.allows(needed) {
                return Err(AppError::forbidden(format!(
                    "This API token may not {}: make a token with the {:?} scope on /account/tokens.",
                    needed.label(),
                    needed.as_str()
                )));
            }
            user
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
