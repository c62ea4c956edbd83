//! The web layer: what axum routes and server functions share. Who asks ([`caller`]: a
//! session, or a personal API token on the read-only API), the request's state, and what the
//! answer carries besides its body (status, cookies). Errors become answers in
//! [`crate::error`]: `?` on an [`AppResult`](crate::error::AppResult) sets the status.
//!
//! The helpers below read the request context Leptos provides to server functions; outside a
//! request they find nothing and do nothing.

pub mod caller;
pub mod teams;

pub use caller::{api_caller, require};
pub use teams::{Owned, Visible, require_in_team, team_for_new};

use crate::auth::server::{CurrentSession, Session};
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use axum::extract::ConnectInfo;
use axum::http::header;
use leptos::prelude::use_context;
use std::net::SocketAddr;

fn request_parts() -> AppResult<http::request::Parts> {
    use_context::<http::request::Parts>().ok_or_else(|| AppError::internal("no request context"))
}

/// The shared state, from the request.
/// The request's `Accept-Language` header, if any (server functions and routes).
pub fn accept_language() -> Option<String> {
    leptos::prelude::use_context::<http::request::Parts>()
        .and_then(|p| p.headers.get(http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).map(str::to_string))
}

pub fn app_state() -> AppResult<AppState> {
    request_parts()?.extensions.get::<AppState>().cloned().ok_or_else(|| AppError::internal("no application state"))
}

/// The session of the request, if signed in.
pub fn current_session() -> Option<Session> {
    use_context::<http::request::Parts>()?.extensions.get::<CurrentSession>()?.0.clone()
}

/// The client's address (for throttling).
pub fn client_address() -> String {
    use_context::<http::request::Parts>()
        .and_then(|p| p.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string()))
        .unwrap_or_else(|| "unknown".into())
}

pub use crate::error::set_status;

/// Appends a `Set-Cookie` header to the current response.
pub fn set_cookie(value: &str) {
    if let (Some(res), Ok(v)) = (use_context::<leptos_axum::ResponseOptions>(), header::HeaderValue::from_str(value)) {
        res.append_header(header::SET_COOKIE, v);
    }
}

/// Whether the current request is a plain HTML form post (no JavaScript).
pub fn plain_form_post() -> bool {
    use_context::<http::request::Parts>()
        .and_then(|p| p.headers.get(http::header::ACCEPT).and_then(|v| v.to_str().ok()).map(|v| v.contains("text/html")))
        .unwrap_or(false)
}

/// The `Content-Security-Policy` of an HTML page whose scripts carry `nonce`: only this
/// server's scripts and the page's own inline ones (the hydration script and the streamed
/// resources, which Leptos writes with the nonce) run; WebAssembly may be compiled (the
/// browser bundles); no plugins; no `<base>` elsewhere. Who may frame the page is added by the
/// router's framing policy (`frame-ancestors`), which knows the crowd pages.
pub fn content_security_policy(nonce: &str) -> String {
    format!("script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; object-src 'none'; base-uri 'self'")
}

/// Sets the page's `Content-Security-Policy` (see [`content_security_policy`]) with the nonce
/// of the page being rendered, creating one if the render has none yet.
pub fn set_page_security_policy() {
    let nonce = leptos::nonce::use_nonce().or_else(|| {
        leptos::nonce::provide_nonce();
        leptos::nonce::use_nonce()
    });
    if let (Some(nonce), Some(res)) = (nonce, use_context::<leptos_axum::ResponseOptions>())
        && let Ok(value) = header::HeaderValue::from_str(&content_security_policy(&nonce))
    {
        res.insert_header(header::CONTENT_SECURITY_POLICY, value);
    }
}
