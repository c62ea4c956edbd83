//! The gate in front of the pages that need an account (issue 38). Without it a page asked for
//! with an expired or tampered session (or none) was streamed whole: its shell, then each of its
//! server functions' "Please sign in." (three times on some pages), no way on, and a status that
//! depended on how fast the first of them answered. Another team's campaign did the same with
//! "there is no campaign with id …".
//!
//! Now such a request is answered before any page is rendered: 401 with the message once and a
//! sign-in link that brings the reader back (`/login?next=…`), or, for a campaign's page the
//! signed-in account cannot see (another team's, or none), 404 with the message once and a link
//! back to the list. The refusal is the one the page's server functions would give (the web
//! layer's `require`, `require_in_team`): only its rendering moves here.

use crate::auth::server::CurrentSession;
use crate::auth::{Role, url_escape};
use crate::state::AppState;
use crate::web::{Owned, require_in_team};
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};

/// What a page asks of its reader before it is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    /// An account (any role).
    Account,
    /// An account that can see this campaign (researchers and up; below, the page's own role
    /// refusal follows).
    Campaign(i64),
}

/// The gate of a page's path; None for the pages everyone may open (the start page, sign-in,
/// invitations, a HIT's page) and for every path that is not a page.
fn gate_of(path: &str) -> Option<Gate> {
    let segments: Vec<&str> = path.strip_prefix('/')?.trim_end_matches('/').split('/').collect();
    match segments.as_slice() {
        ["admin", "users"] | ["account", "tokens"] | ["import"] | ["campaigns"] | ["campaigns", "new"] | ["results"] | ["studies"]
        | ["studies", _] | ["history"] => Some(Gate::Account),
        ["campaigns", id] | ["campaigns", id, "edit" | "results" | "workers" | "metrics"] => {
            Some(id.parse().map_or(Gate::Account, Gate::Campaign))
        }
        _ => None,
    }
}

/// The return path of a sign-in: the page asked for, if it is one of this server's paths.
pub fn sign_in_link(path_and_query: &str) -> String {
    format!("/login?next={}", url_escape(path_and_query))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A small page of its own (no script: nothing to hydrate): the refusal once, and one link on.
fn refusal(status: StatusCode, title: &str, message: &str, href: &str, link: &str) -> Response {
    let html = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>{title} · Assay</title>\
         <link rel=\"stylesheet\" href=\"/assay.css\"/></head><body><header class=\"top\"><a href=\"/\" class=\"brand\">Assay</a></header>\
         <main><section class=\"card narrow\" id=\"refusal\"><h1>{title}</h1><p class=\"error\" role=\"alert\" id=\"refusal-message\">{message}</p>\
         <p><a class=\"button primary\" id=\"way-on\" href=\"{href}\">{link}</a></p></section></main></body></html>",
        title = escape(title),
        message = escape(message),
        href = escape(href),
        link = escape(link),
    );
    let mut response = (status, Html(html)).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The public id of the HIT of a work page's path (`/work/{id}`).
fn work_page_id(path: &str) -> Option<&str> {
    match path.strip_prefix("/work/")?.trim_end_matches('/') {
        id if !id.is_empty() && !id.contains('/') => Some(id),
        _ => None,
    }
}

/// Middleware: answers a page that needs an account without one (401), or a campaign's page the
/// account cannot see (404), before the page is rendered; every other request passes. A work
/// page's request gets its HIT's protocol screen (`WorkScreen`), whose bundle the page names.
pub async fn page_gate(mut req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return next.run(req).await;
    }
    if let Some(id) = work_page_id(req.uri().path())
        && let Some(state) = req.extensions().get::<AppState>().cloned()
    {
        match crate::annotate::screens::screen_of_assignment(&state.db, id).await {
            Ok(Some(screen)) => {
                req.extensions_mut().insert(crate::annotate::screens::WorkScreen(screen));
            }
            // No such HIT: the page says so, with any work bundle.
            Ok(None) => {}
            // The page's own request reports it.
            Err(e) => tracing::warn!("the protocol of a work page's HIT: {e}"),
        }
        return next.run(req).await;
    }
    let Some(gate) = gate_of(req.uri().path()) else { return next.run(req).await };
    let session = req.extensions().get::<CurrentSession>().and_then(|s| s.0.clone());
    let Some(session) = session else {
        let back = req.uri().path_and_query().map_or("/", |p| p.as_str());
        return refusal(StatusCode::UNAUTHORIZED, "Sign in to continue", "Please sign in.", &sign_in_link(back), "Sign in");
    };
    if let Gate::Campaign(id) = gate
        && session.user.role >= Role::Researcher
        && let Some(state) = req.extensions().get::<AppState>()
    {
        match require_in_team(&state.db, &session.user, Owned::Campaign(id)).await {
            Err(e) if !e.is_server_fault() => {
                let (href, link) =
                    if session.user.role >= Role::Organizer { ("/campaigns", "Back to the campaigns") } else { ("/results", "Back to the results") };
                return refusal(e.status(), "Not found", &e.public_message(), href, link);
            }
            // A fault is the page's to report (it asks again and says so).
            _ => {}
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_that_need_an_account_are_gated_and_the_rest_pass() {
        for open in ["/", "/login", "/invite/abc", "/work/xyz", "/health", "/api/v1/campaigns", "/campaigns/3/export/all.zip", "/campaigns/3/decisions.csv", "/pkg/x.js", "/assay.css", "/studies/3/export"] {
            assert_eq!(gate_of(open), None, "{open}");
        }
        for account in ["/admin/users", "/account/tokens", "/import", "/campaigns", "/campaigns/", "/campaigns/new", "/results", "/studies", "/studies/new", "/studies/4", "/history", "/campaigns/abc"] {
            assert_eq!(gate_of(account), Some(Gate::Account), "{account}");
        }
        for page in ["/campaigns/6", "/campaigns/6/edit", "/campaigns/6/results", "/campaigns/6/workers", "/campaigns/6/metrics"] {
            assert_eq!(gate_of(page), Some(Gate::Campaign(6)), "{page}");
        }
        assert_eq!(work_page_id("/work/abc"), Some("abc"));
        assert_eq!(work_page_id("/work/abc/"), Some("abc"));
        assert_eq!((work_page_id("/work/"), work_page_id("/work/a/b"), work_page_id("/workx/a")), (None, None, None));
        assert_eq!(sign_in_link("/campaigns/6/results?per_segment=true"), "/login?next=%2Fcampaigns%2F6%2Fresults%3Fper_segment%3Dtrue");
    }
}
