//! HTTP routes of the exports and the read-only API. Each route checks who asks (a session
//! cookie, or a personal API token in `Authorization: Bearer …`), then calls the domain.
//!
//! - `GET /campaigns/{id}/export/{file}`: the results page's export buttons (researchers and up).
//! - `GET /api/v1/campaigns`: launched campaigns (researchers and up).
//! - `GET /api/v1/campaigns/{id}/results`: scores, significance, clusters, exclusions, agreement.
//! - `GET /api/v1/campaigns/{id}/workers`: the worker review table (organizers and up).
//! - `GET /api/v1/campaigns/{id}/agreement`: the agreement report.
//! - `GET /api/v1/campaigns/{id}/export/{file}`: the same exports as the buttons.
//! - `GET /api/v1/openapi.json`: the OpenAPI 3 description (public).
//!
//! Settings come in the query string: `exclude_ref`, `exclude_bad_ref`, `per_segment`,
//! `wilcoxon` (true/false, the results page's choices), `filter` (`raw`, the default, or
//! `cleaned`) and `name` (mt-metrics-eval NAME, default `assay`). Every route here is read-only:
//! any other method than GET/HEAD is refused with 403 before anything runs.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, Query, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Json, Router};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

use super::rows;
use super::{Kind, Prepared};
use crate::analysis::manifest::Filter;
use crate::auth::server::CurrentSession;
use crate::auth::{Role, UserInfo};
use crate::results::ResultsOptions;
use crate::state::AppState;

/// The OpenAPI 3 description of these routes.
pub const OPENAPI: &str = include_str!("openapi.json");

/// The export and API routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/campaigns/{id}/export/{file}", get(export))
        .route("/api/v1/openapi.json", get(openapi))
        .route("/api/v1/campaigns", get(api_campaigns))
        .route("/api/v1/campaigns/{id}/results", get(api_results))
        .route("/api/v1/campaigns/{id}/workers", get(api_workers))
        .route("/api/v1/campaigns/{id}/agreement", get(api_agreement))
        .route("/api/v1/campaigns/{id}/export/{file}", get(export))
        .layer(middleware::from_fn(read_only))
}

/// Refuses every method but GET and HEAD, whoever asks: a token can never change anything.
async fn read_only(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        next.run(req).await
    } else {
        let mut r = (StatusCode::FORBIDDEN, "The API and the exports are read-only: use GET.").into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    }
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

/// Who asks: the account of a Bearer token if the request has one (and only then), else the
/// session's. 401 when neither is valid, 403 when the role is below `role`. Every GET route that
/// serves files or results checks its caller here.
pub(crate) async fn caller(state: &AppState, session: Option<Extension<CurrentSession>>, headers: &HeaderMap, role: Role) -> Result<UserInfo, Response> {
    let user = match headers.get(header::AUTHORIZATION) {
        Some(value) => {
            let secret = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).map(str::trim).unwrap_or("");
            crate::auth::tokens::authenticate(&state.db, secret)
                .await
                .map_err(|e| {
                    tracing::error!("token lookup failed: {e}");
                    refuse(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong on the server; it has been logged.")
                })?
                .ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "The API token is not valid: unknown, revoked, or its account is disabled."))?
        }
        None => session
            .and_then(|Extension(s)| s.0)
            .map(|s| s.user)
            .ok_or_else(|| refuse(StatusCode::UNAUTHORIZED, "Please sign in (or send a personal API token as Authorization: Bearer …)."))?,
    };
    if user.role < role {
        return Err(refuse(StatusCode::FORBIDDEN, format!("This needs the {} role.", role.label())));
    }
    Ok(user)
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
    fn options(&self) -> ResultsOptions {
        ResultsOptions {
            exclude_ref: self.exclude_ref,
            exclude_bad_ref: self.exclude_bad_ref,
            per_segment: self.per_segment,
            wilcoxon: self.wilcoxon,
        }
    }

    fn filter(&self) -> Result<Filter, String> {
        match self.filter.as_deref().unwrap_or("raw") {
            "raw" => Ok(Filter::Raw),
            "cleaned" => Ok(Filter::Cleaned),
            other => Err(format!("filter must be raw or cleaned (got {other:?})")),
        }
    }

    fn name(&self) -> Result<String, String> {
        let name = self.name.clone().unwrap_or_else(|| super::DEFAULT_NAME.into());
        if name.is_empty() || name.len() > 50 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(format!("name must be 1 to 50 letters, digits, - or _ (got {name:?})"));
        }
        Ok(name)
    }
}

/// A domain error as an answer: an unknown campaign is 404, anything else the caller's mistake.
fn domain_error(e: String) -> Response {
    let status = if e.starts_with("there is no campaign") { StatusCode::NOT_FOUND } else { StatusCode::BAD_REQUEST };
    refuse(status, e)
}

fn attachment(name: &str, content_type: &str, body: Body) -> Response {
    let safe: String = name.chars().filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\').collect();
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

fn content_type_of(name: &str) -> &'static str {
    if name.ends_with(".json") {
        "application/json"
    } else if name.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else if name.ends_with(".zip") {
        "application/zip"
    } else {
        "text/plain; charset=utf-8"
    }
}

/// Streams a file's bytes, deleting the file afterwards.
fn stream_temp_file(path: tempfile::TempPath) -> Body {
    let (tx, rx) = mpsc::channel::<Result<Vec<u8>, String>>(4);
    tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        let mut file = match tokio::fs::File::open(&path).await {
            Ok(f) => f,
            Err(e) => {
                let _ = tx.send(Err(format!("cannot read the archive: {e}"))).await;
                return;
            }
        };
        loop {
            let mut buf = vec![0u8; rows::CHUNK];
            match file.read(&mut buf).await {
                Ok(0) => break,
                Ok(n) => {
                    buf.truncate(n);
                    if tx.send(Ok(buf)).await.is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Err(format!("cannot read the archive: {e}"))).await;
                    break;
                }
            }
        }
        drop(path);
    });
    Body::from_stream(ReceiverStream::new(rx))
}

/// `GET …/export/{file}`.
async fn export(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path((id, file)): Path<(i64, String)>,
    Query(q): Query<ExportQuery>,
) -> Response {
    if let Err(r) = caller(&state, session, &headers, Role::Researcher).await {
        return r;
    }
    let kind = match Kind::parse(&file) {
        Ok(k) => k,
        Err(e) => return refuse(StatusCode::NOT_FOUND, e),
    };
    let (filter, name) = match (q.filter(), q.name()) {
        (Ok(f), Ok(n)) => (f, n),
        (Err(e), _) | (_, Err(e)) => return refuse(StatusCode::BAD_REQUEST, e),
    };
    let mut settings = crate::results::build::settings(q.options());
    if matches!(kind, Kind::Judgments(_)) {
        // The judgment files need the workers' verdicts only, not the scores' intervals.
        settings.bootstrap = None;
    }
    let p = match super::prepare(&state.db, id, settings, filter, &name).await {
        Ok(p) => p,
        Err(e) => return domain_error(e),
    };
    match export_body(&state, &p, &kind).await {
        Ok(r) => r,
        Err(e) => domain_error(e),
    }
}

async fn export_body(state: &AppState, p: &Prepared, kind: &Kind) -> Result<Response, String> {
    Ok(match kind {
        Kind::Judgments(f) => {
            let ctx = Arc::new(p.row_context(&state.db).await?);
            let rx = rows::spawn_rows(state.db.clone(), *f, ctx);
            attachment(f.file_name(), f.content_type(), Body::from_stream(ReceiverStream::new(rx)))
        }
        Kind::Computed(name) => {
            let bytes = p.computed_file(name)?.ok_or_else(|| super::unknown_file(p, name))?;
            attachment(name, content_type_of(name), Body::from(bytes))
        }
        Kind::AnalysisJson => attachment("analysis.json", "application/json", Body::from(p.analysis_json(&["analysis.json".into()])?)),
        Kind::AgreementJson => attachment("agreement.json", "application/json", Body::from(p.agreement_json())),
        Kind::ManifestJson => {
            let names = p.all_file_names()?;
            let mut v = serde_json::to_vec_pretty(&p.manifest(&names)).map_err(|e| e.to_string())?;
            v.push(b'\n');
            attachment("manifest.json", "application/json", Body::from(v))
        }
        Kind::All => {
            let tmp = tempfile::Builder::new().prefix("assay-export-").suffix(".zip").tempfile().map_err(|e| format!("cannot create a temp file: {e}"))?;
            let (file, path) = tmp.into_parts();
            super::write_zip(&state.db, p, file).await?;
            attachment("all.zip", "application/zip", stream_temp_file(path))
        }
    })
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

async fn api_campaigns(Extension(state): Extension<AppState>, session: Option<Extension<CurrentSession>>, headers: HeaderMap) -> Response {
    if let Err(r) = caller(&state, session, &headers, Role::Researcher).await {
        return r;
    }
    match crate::results::build::list(&state.db).await {
        Ok(list) => Json(list).into_response(),
        Err(e) => domain_error(e),
    }
}

async fn api_results(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> Response {
    if let Err(r) = caller(&state, session, &headers, Role::Researcher).await {
        return r;
    }
    let options = q.options();
    match crate::results::build::run(&state.db, id, options).await {
        Ok((name, set, result)) => Json(crate::results::build::results_view(name, options, &set, &result)).into_response(),
        Err(e) => domain_error(e),
    }
}

async fn api_workers(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> Response {
    if let Err(r) = caller(&state, session, &headers, Role::Organizer).await {
        return r;
    }
    // The same rows as the worker review page, with the verdicts at submission and decisions.
    match crate::results::decisions::workers_page(&state.db, id, q.options()).await {
        Ok(view) => Json(view).into_response(),
        Err(e) => domain_error(e),
    }
}

async fn api_agreement(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> Response {
    if let Err(r) = caller(&state, session, &headers, Role::Researcher).await {
        return r;
    }
    match crate::results::build::run(&state.db, id, q.options()).await {
        Ok((_, set, result)) => Json(crate::results::build::agreement(&set, &result)).into_response(),
        Err(e) => domain_error(e),
    }
}
