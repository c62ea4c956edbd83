//! The read-only API and the downloads: one router per resource, each route checks who asks
//! ([`crate::web::api_caller`]: a session cookie, or a personal API token in
//! `Authorization: Bearer …`), calls the domain and answers JSON or a file; a refusal or a
//! failure is an [`AppError`](crate::error::AppError), answered by its one mapping.
//!
//! - [`campaigns`]: `GET /api/v1/campaigns`, launched campaigns (researchers and up).
//! - [`results`]: `GET /api/v1/campaigns/{id}/results` (scores, significance, clusters,
//!   exclusions, agreement) and `GET /api/v1/campaigns/{id}/agreement`, the agreement report.
//! - [`workers`]: `GET /api/v1/campaigns/{id}/workers`, the worker review table (organizers and up).
//! - [`exports`]: `GET /api/v1/campaigns/{id}/export/{file}`, and the same as
//!   `GET /campaigns/{id}/export/{file}` for the results page's export buttons.
//! - [`decisions`]: `GET /campaigns/{id}/decisions.csv`, the organizer's decisions (organizers).
//! - [`metric_upload`]: `POST /api/v1/campaigns/{id}/metrics`, metric scores uploaded for a
//!   campaign (researchers and up, a token with the `metrics-upload` scope or the session),
//!   routed by the server beside the uploads with their own body limit.
//! - [`gold_upload`]: `POST /api/v1/test-sets/{id}/gold`, gold orders of relative ranking for
//!   a test set (organizers and up, a token with the `gold-upload` scope or the session), routed
//!   as `metric_upload`.
//!
//! These two are every write a token reaches; `api_caller` checks the token's scope for each
//! (`auth::TokenScope`), and refuses a token on any other write.
//! - `GET /api/v1/openapi.json`: the OpenAPI 3 description (public).
//!
//! Settings come in the query string ([`ExportQuery`]): `exclude_ref`, `exclude_bad_ref`,
//! `per_segment`, `wilcoxon` (true/false, the results page's choices), `filter` (`raw`, the
//! default, or `cleaned`) and `name` (mt-metrics-eval NAME, default `assay`). The API and the
//! exports are otherwise read-only: any other method than GET/HEAD is refused with 403 before
//! anything runs. (Tokens are managed by the `*_api_token` server functions, see `auth::tokens`.)

pub mod campaigns;
pub mod decisions;
pub mod exports;
pub mod gold_upload;
pub mod metric_upload;
pub mod results;
pub mod workers;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

use crate::analysis::manifest::Filter;
use crate::error::{AppError, AppResult};
use crate::results::ResultsOptions;

/// The OpenAPI 3 description of these routes.
pub const OPENAPI: &str = include_str!("openapi.json");

/// Every route of the API and the downloads.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/v1/openapi.json", get(openapi))
        .merge(campaigns::routes())
        .merge(results::routes())
        .merge(workers::routes())
        .merge(exports::routes())
        .layer(middleware::from_fn(read_only))
        // Not under the read-only layer (as before the split): other methods are axum's 405.
        .merge(decisions::routes())
        .layer(middleware::from_fn(json_errors))
}

/// Every refusal of these routes is JSON, `{"error": "…"}`, as the README promises: axum's own
/// rejections (a setting that does not parse, an id that is not a number, a method a route does
/// not take) come as plain text and are rewritten here, keeping their status and headers.
async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(response.status().is_client_error() || response.status().is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, 64 * 1024).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let text = if text.is_empty() { parts.status.canonical_reason().unwrap_or("error").to_string() } else { text };
    let body = serde_json::json!({ "error": text }).to_string();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// Refuses every method but GET and HEAD, whoever asks: a token can never change anything.
async fn read_only(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        next.run(req).await
    } else {
        let mut r = AppError::forbidden("The API and the exports are read-only: use GET.").into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    }
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// The settings of a request.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ExportQuery {
    #[serde(default)]
    pub exclude_ref: bool,
    #[serde(default)]
    pub exclude_bad_ref: bool,
    #[serde(default)]
    pub per_segment: bool,
    #[serde(default)]
    pub wilcoxon: bool,
    pub filter: Option<String>,
    pub name: Option<String>,
}

impl ExportQuery {
    pub fn options(&self) -> ResultsOptions {
        ResultsOptions {
            exclude_ref: self.exclude_ref,
            exclude_bad_ref: self.exclude_bad_ref,
            per_segment: self.per_segment,
            wilcoxon: self.wilcoxon,
        }
    }

    pub fn filter(&self) -> AppResult<Filter> {
        match self.filter.as_deref().unwrap_or("raw") {
            "raw" => Ok(Filter::Raw),
            "cleaned" => Ok(Filter::Cleaned),
            other => Err(AppError::invalid("filter", format!("filter must be raw or cleaned (got {other:?})"))),
        }
    }

    pub fn name(&self) -> AppResult<String> {
        let name = self.name.clone().unwrap_or_else(|| crate::export::DEFAULT_NAME.into());
        if name.is_empty() || name.len() > 50 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(AppError::invalid("name", format!("name must be 1 to 50 letters, digits, - or _ (got {name:?})")));
        }
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::server::{CurrentSession, Session};
    use crate::auth::{Role, UserInfo};
    use crate::error::SERVER_FAULT;
    use crate::state::AppState;
    use axum::Extension;
    use axum::body::Body;
    use tower::ServiceExt;

    async fn state() -> (tempfile::TempDir, AppState) {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display())).await.expect("sqlite");
        let state = AppState { db, secret: b"test secret".as_slice().into(), settings: Default::default() };
        (dir, state)
    }

    /// GETs `path` as a signed-in researcher; returns the status and the JSON body.
    async fn get(state: &AppState, path: &str) -> (u16, serde_json::Value) {
        let user = UserInfo { id: 1, email: "r@example.org".into(), name: "R".into(), role: Role::Researcher };
        let app: Router = routes()
            .layer(Extension(CurrentSession(Some(Session { user, token_hash: String::new() }))))
            .layer(Extension(state.clone()));
        let r = app.oneshot(Request::get(path).body(Body::empty()).unwrap()).await.expect("an answer");
        let status = r.status().as_u16();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body");
        (status, serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null))
    }

    /// The README promises JSON: a setting that does not parse, an id that is not a number and
    /// a POST are refused as `{"error": …}` with their status.
    #[tokio::test]
    async fn refusals_are_json() {
        let (_dir, state) = state().await;
        let (status, body) = get(&state, "/api/v1/campaigns/1/results?wilcoxon=maybe").await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].as_str().unwrap_or("").contains("wilcoxon"), "{body}");
        let (status, body) = get(&state, "/api/v1/campaigns/abc/results").await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].is_string(), "{body}");
        let user = UserInfo { id: 1, email: "r@example.org".into(), name: "R".into(), role: Role::Researcher };
        let app: Router = routes()
            .layer(Extension(CurrentSession(Some(Session { user, token_hash: String::new() }))))
            .layer(Extension(state.clone()));
        let r = app.oneshot(Request::post("/api/v1/campaigns").body(Body::empty()).unwrap()).await.expect("an answer");
        assert_eq!(r.status().as_u16(), 403);
        assert_eq!(r.headers()[header::ALLOW], "GET, HEAD");
        assert!(r.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("application/json"));
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body");
        let body: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(body["error"], "The API and the exports are read-only: use GET.");
    }

    #[tokio::test]
    async fn an_unknown_campaign_is_a_404_and_a_storage_failure_a_500() {
        let (_dir, state) = state().await;
        for path in ["/api/v1/campaigns/999/results", "/api/v1/campaigns/999/agreement", "/api/v1/campaigns/999/export/judgments.csv"] {
            let (status, body) = get(&state, path).await;
            assert_eq!(status, 404, "{path}: {body}");
            assert_eq!(body["error"], "there is no campaign with id 999", "{path}");
        }
        let (status, body) = get(&state, "/api/v1/campaigns/1/export/judgments.csv?filter=dirty").await;
        assert_eq!((status, body["error"].as_str().unwrap_or("")), (400, "filter must be raw or cleaned (got \"dirty\")"));
        assert_eq!(get(&state, "/api/v1/campaigns").await, (200, serde_json::json!([])));

        // The database goes away: every route answers 500 with the short message, no database text.
        state.db.pool.close().await;
        state.db.writer.close().await;
        for path in ["/api/v1/campaigns", "/api/v1/campaigns/999/results", "/api/v1/campaigns/999/export/judgments.csv"] {
            let (status, body) = get(&state, path).await;
            assert_eq!(status, 500, "{path}: {body}");
            assert_eq!(body["error"], SERVER_FAULT, "{path}");
        }
    }
}
