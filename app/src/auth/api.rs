//! Server functions for accounts. Each one checks who is asking, calls `auth::server`, returns.

use crate::auth::{Role, UserInfo};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::auth::server as srv;

/// The signed-in account, or None.
#[server(endpoint = "current_user")]
pub async fn current_user() -> Result<Option<UserInfo>, ServerFnError> {
    Ok(srv::current_session().map(|s| s.user))
}

/// Signs in. Works as a plain HTML form too: on failure without JavaScript the browser is sent
/// back to the login page with the message in the address.
#[server(endpoint = "login")]
pub async fn login(email: String, password: String) -> Result<(), ServerFnError> {
    let state = srv::app_state()?;
    let old = srv::current_session().map(|s| s.token_hash);
    match srv::login(&state, &email, &password, &srv::client_address(), old.as_deref()).await {
        Ok((token, _user)) => {
            srv::set_cookie(&srv::session_cookie(&token, &state.settings));
            leptos_axum::redirect("/");
            Ok(())
        }
        Err(e) => {
            let status = match e {
                srv::LoginError::Invalid => http::StatusCode::UNAUTHORIZED,
                srv::LoginError::Throttled { .. } => http::StatusCode::TOO_MANY_REQUESTS,
                srv::LoginError::Internal(ref m) => {
                    tracing::error!("login failed: {m}");
                    http::StatusCode::INTERNAL_SERVER_ERROR
                }
            };
            let message = e.to_string();
            if plain_form_post() {
                leptos_axum::redirect(&format!("/login?error={}", url_escape(&message)));
            } else {
                srv::set_status(status);
            }
            Err(ServerFnError::new(message))
        }
    }
}

/// Signs out: ends the server-side session and clears the cookie.
#[server(endpoint = "logout")]
pub async fn logout() -> Result<(), ServerFnError> {
    let state = srv::app_state()?;
    if let Some(session) = srv::current_session() {
        srv::delete_session(&state.db, &session.token_hash).await.map_err(srv::internal)?;
    }
    srv::set_cookie(&srv::clear_session_cookie(&state.settings));
    leptos_axum::redirect("/login");
    Ok(())
}

/// Every account (admin only).
#[server(endpoint = "list_users")]
pub async fn list_users() -> Result<Vec<UserInfo>, ServerFnError> {
    srv::require(Role::Admin)?;
    let state = srv::app_state()?;
    srv::list_users(&state.db).await.map_err(srv::internal)
}

/// Changes an account's role (admin only).
#[server(endpoint = "set_user_role")]
pub async fn set_user_role(user_id: i64, role: String) -> Result<(), ServerFnError> {
    srv::require(Role::Admin)?;
    let role = Role::parse(&role).ok_or_else(|| srv::bad_request(format!("{role:?} is not a role.")))?;
    let state = srv::app_state()?;
    srv::set_role(&state.db, user_id, role).await.map_err(srv::bad_request)
}

/// A freshly made invitation link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationLink {
    pub email: String,
    pub role: Role,
    pub url: String,
    pub expires_in_days: i64,
}

/// Invites someone by email with a role; returns the link to send them (admin only).
#[server(endpoint = "invite_user")]
pub async fn invite_user(email: String, role: String) -> Result<InvitationLink, ServerFnError> {
    let admin = srv::require(Role::Admin)?;
    let role = Role::parse(&role).ok_or_else(|| srv::bad_request(format!("{role:?} is not a role.")))?;
    let state = srv::app_state()?;
    let token = srv::create_invitation(&state.db, &email, role, admin.id).await.map_err(srv::bad_request)?;
    Ok(InvitationLink {
        email: srv::normalise_email(&email),
        role,
        url: format!("{}/invite/{token}", state.settings.public_url.trim_end_matches('/')),
        expires_in_days: srv::INVITATION_LIFETIME_MS / (24 * 3600 * 1000),
    })
}

/// What an invitation link offers (public: the token is the secret).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvitationView {
    pub email: String,
    pub role: Role,
}

#[server(endpoint = "invitation")]
pub async fn invitation(token: String) -> Result<InvitationView, ServerFnError> {
    let state = srv::app_state()?;
    let inv = srv::find_invitation(&state.db, &token).await.map_err(srv::bad_request)?;
    Ok(InvitationView { email: inv.email, role: inv.role })
}

/// Creates the account an invitation offers and signs it in.
#[server(endpoint = "accept_invitation")]
pub async fn accept_invitation(token: String, name: String, password: String) -> Result<(), ServerFnError> {
    let state = srv::app_state()?;
    let user = srv::accept_invitation(&state.db, &token, &name, &password).await.map_err(srv::bad_request)?;
    if let Some(old) = srv::current_session() {
        srv::delete_session(&state.db, &old.token_hash).await.map_err(srv::internal)?;
    }
    let session = srv::create_session(&state.db, user.id).await.map_err(srv::internal)?;
    srv::set_cookie(&srv::session_cookie(&session, &state.settings));
    leptos_axum::redirect("/");
    Ok(())
}

/// Whether the current request is a plain HTML form post (no JavaScript).
#[cfg(feature = "ssr")]
fn plain_form_post() -> bool {
    use_context::<http::request::Parts>()
        .and_then(|p| p.headers.get(http::header::ACCEPT).and_then(|v| v.to_str().ok()).map(|v| v.contains("text/html")))
        .unwrap_or(false)
}

/// Percent-encodes a query value.
pub fn url_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The signed-in researcher's (or higher) personal API tokens, newest first.
#[server(endpoint = "list_api_tokens")]
pub async fn list_api_tokens() -> Result<Vec<crate::auth::ApiToken>, ServerFnError> {
    let user = srv::require(Role::Researcher)?;
    let state = srv::app_state()?;
    crate::auth::tokens::list(&state.db, user.id).await.map_err(srv::internal)
}

/// Creates a named read-only API token; the secret is in the answer, once.
#[server(endpoint = "create_api_token")]
pub async fn create_api_token(name: String) -> Result<crate::auth::NewApiToken, ServerFnError> {
    let user = srv::require(Role::Researcher)?;
    let state = srv::app_state()?;
    crate::auth::tokens::create(&state.db, &user, &name).await.map_err(srv::bad_request)
}

/// Revokes one of the caller's own tokens.
#[server(endpoint = "revoke_api_token")]
pub async fn revoke_api_token(token_id: i64) -> Result<(), ServerFnError> {
    let user = srv::require(Role::Researcher)?;
    let state = srv::app_state()?;
    crate::auth::tokens::revoke(&state.db, user.id, token_id).await.map_err(srv::bad_request)
}
