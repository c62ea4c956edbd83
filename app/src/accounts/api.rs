//! Server functions for accounts. Each one checks who is asking, calls `auth::server`, returns.

use crate::auth::Role;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::auth::server as srv;
#[cfg(feature = "ssr")]
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::web;

/// The signed-in account with the header's words, or None.
#[server(endpoint = "current_user")]
pub async fn current_user() -> Result<Option<crate::auth::SignedIn>, ServerFnError> {
    Ok(web::current_session().map(|s| {
        let lang = web::accept_language().as_deref().and_then(assay_core::i18n::Lang::from_accept_language).unwrap_or_default();
        let words = crate::auth::HeaderWords::of(s.user.role, lang);
        crate::auth::SignedIn { user: s.user, words }
    }))
}

/// Signs in and goes on to `next` (the page that asked for a sign-in, one of this server's
/// paths; else the start page). Works as a plain HTML form too: on failure without JavaScript
/// the browser is sent back to the login page with the message in the address.
#[server(endpoint = "login")]
pub async fn login(email: String, password: String, next: Option<String>) -> Result<(), ServerFnError> {
    let state = web::app_state()?;
    let old = web::current_session().map(|s| s.token_hash);
    let next = crate::auth::return_path(next.as_deref());
    match srv::login(&state, &email, &password, &web::client_address(), old.as_deref()).await {
        Ok((token, _user)) => {
            web::set_cookie(&srv::session_cookie(&token, &state.settings));
            leptos_axum::redirect(next);
            Ok(())
        }
        Err(e) => {
            let e = crate::error::AppError::from(e);
            if web::plain_form_post() {
                e.log();
                let back = if next == "/" { String::new() } else { format!("&next={}", crate::auth::url_escape(next)) };
                leptos_axum::redirect(&format!("/login?error={}{back}", crate::auth::url_escape(&e.public_message())));
                return Err(ServerFnError::new(e.public_message()));
            }
            // The status (401, or 429 with `Retry-After`) and the message: the one mapping.
            Err(e.into())
        }
    }
}

/// Signs out: ends the server-side session and clears the cookie.
#[server(endpoint = "logout")]
pub async fn logout() -> Result<(), ServerFnError> {
    let state = web::app_state()?;
    if let Some(session) = web::current_session() {
        srv::delete_session(&state.db, &session.token_hash).await?;
    }
    web::set_cookie(&srv::clear_session_cookie(&state.settings));
    leptos_axum::redirect("/login");
    Ok(())
}

/// Every account, with whether it is disabled (admin only).
#[server(endpoint = "list_users")]
pub async fn list_users() -> Result<Vec<crate::auth::Account>, ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(srv::list_users(&state.db, state.settings.throttle_window_ms).await?)
}

/// Changes an account's role (admin only); says what was done, for the page to confirm it.
#[server(endpoint = "set_user_role")]
pub async fn set_user_role(user_id: i64, role: String) -> Result<String, ServerFnError> {
    web::require(Role::Admin)?;
    let role = Role::parse(&role).ok_or_else(|| AppError::invalid("role", format!("{role:?} is not a role.")))?;
    let state = web::app_state()?;
    srv::set_role(&state.db, user_id, role).await.map_err(|e| e.in_argument("user_id"))?;
    let who = srv::list_users(&state.db, state.settings.throttle_window_ms)
        .await?
        .into_iter()
        .find(|a| a.user.id == user_id)
        .map_or_else(|| format!("Account {user_id}"), |a| format!("{} ({})", a.user.name, a.user.email));
    Ok(format!("{who} is now {}. The account signs in again to use it.", role.label()))
}

/// Disables an account — it cannot sign in, its sessions end and its API tokens are revoked at
/// once — or enables it again (admin only; not one's own account, not the last admin).
#[server(endpoint = "set_user_disabled")]
pub async fn set_user_disabled(user_id: i64, disabled: bool) -> Result<(), ServerFnError> {
    let admin = web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(srv::set_disabled(&state.db, admin.id, user_id, disabled).await.map_err(|e| e.in_argument("user_id"))?)
}

/// Ends every session of an account: it is signed out in every browser (admin only).
#[server(endpoint = "sign_out_everywhere")]
pub async fn sign_out_everywhere(user_id: i64) -> Result<(), ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(srv::sign_out_everywhere(&state.db, user_id).await.map_err(|e| e.in_argument("user_id"))?)
}

/// Forgets an account's failed sign-ins from every address, ending the delays they impose (admin
/// only); says how many were forgotten.
#[server(endpoint = "clear_failed_sign_ins")]
pub async fn clear_failed_sign_ins(user_id: i64) -> Result<u64, ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(srv::clear_failed_sign_ins(&state.db, user_id).await.map_err(|e| e.in_argument("user_id"))?)
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
    let admin = web::require(Role::Admin)?;
    let role = Role::parse(&role).ok_or_else(|| AppError::invalid("role", format!("{role:?} is not a role.")))?;
    let state = web::app_state()?;
    let token = srv::create_invitation(&state.db, &email, role, admin.id).await?;
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
    let state = web::app_state()?;
    let inv = srv::find_invitation(&state.db, &token).await?;
    Ok(InvitationView { email: inv.email, role: inv.role })
}

/// Creates the account an invitation offers and signs it in.
#[server(endpoint = "accept_invitation")]
pub async fn accept_invitation(token: String, name: String, password: String) -> Result<(), ServerFnError> {
    let state = web::app_state()?;
    let user = srv::accept_invitation(&state.db, &token, &name, &password).await?;
    if let Some(old) = web::current_session() {
        srv::delete_session(&state.db, &old.token_hash).await?;
    }
    let session = srv::create_session(&state.db, user.id).await?;
    web::set_cookie(&srv::session_cookie(&session, &state.settings));
    leptos_axum::redirect("/");
    Ok(())
}

/// The signed-in researcher's (or higher) personal API tokens, newest first.
#[server(endpoint = "list_api_tokens")]
pub async fn list_api_tokens() -> Result<Vec<crate::auth::ApiToken>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    Ok(crate::auth::tokens::list(&state.db, user.id).await?)
}

/// Creates a named API token that reads and, when asked, may upload metric scores
/// (`metrics_upload`) or gold orders (`gold_upload`, organizers and up); the secret is in the
/// answer, once.
#[server(endpoint = "create_api_token")]
pub async fn create_api_token(name: String, metrics_upload: Option<bool>, gold_upload: Option<bool>) -> Result<crate::auth::NewApiToken, ServerFnError> {
    use crate::auth::{TokenScope, TokenScopes};
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    let scopes = TokenScopes::with(
        [(metrics_upload, TokenScope::MetricsUpload), (gold_upload, TokenScope::GoldUpload)].into_iter().filter(|(on, _)| *on == Some(true)).map(|(_, s)| s),
    );
    Ok(crate::auth::tokens::create(&state.db, &user, &name, &scopes).await?)
}

/// Revokes one of the caller's own tokens.
#[server(endpoint = "revoke_api_token")]
pub async fn revoke_api_token(token_id: i64) -> Result<(), ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    Ok(crate::auth::tokens::revoke(&state.db, user.id, token_id).await?)
}

/// Every team with its members (admin only).
#[server(endpoint = "list_teams")]
pub async fn list_teams() -> Result<Vec<crate::auth::Team>, ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(crate::auth::teams::list_teams(&state.db).await?)
}

/// Makes a team; returns its id (admin only).
#[server(endpoint = "create_team")]
pub async fn create_team(name: String) -> Result<i64, ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(crate::auth::teams::create_team(&state.db, &name).await?)
}

/// Renames a team (admin only).
#[server(endpoint = "rename_team")]
pub async fn rename_team(team_id: i64, name: String) -> Result<(), ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(crate::auth::teams::rename_team(&state.db, team_id, &name).await?)
}

/// Adds an account to a team (`member` true) or takes it out (admin only).
#[server(endpoint = "set_team_member")]
pub async fn set_team_member(team_id: i64, user_id: i64, member: bool) -> Result<(), ServerFnError> {
    web::require(Role::Admin)?;
    let state = web::app_state()?;
    Ok(crate::auth::teams::set_member(&state.db, team_id, user_id, member).await?)
}
