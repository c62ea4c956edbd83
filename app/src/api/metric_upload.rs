//! `POST /api/v1/campaigns/{id}/metrics` (researchers and up; a personal API token with the
//! `metrics-upload` scope, or the session, whose form the Origin check guards as every other
//! form): metric scores uploaded for a campaign (issue 21).
//!
//! The body is a `multipart/form-data` form with one or more `file` fields and optionally
//! `name` (the metric's name for a table without a `metric` column), or one raw file with its
//! name in `X-Assay-File-Name` (and optionally the metric's name in `X-Assay-Metric-Name`).
//! Files: mt-metrics-eval `LP/METRIC-REF.sys.score` / `.seg.score`, `.tsv`, `.jsonl`
//! (`assay_core::metrics::upload`). Answers JSON (`{"summary", "metrics"}`, or 400 with
//! `{"errors": ["file, line N: problem", …]}` and nothing stored), or for the metrics page's
//! plain form a redirect back to it with the outcome. The route has its own body limit
//! ([`MAX_METRIC_UPLOAD_BYTES`], set by the server's router).

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Path, Request};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Json, Router};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::auth::url_escape;
use crate::error::AppError;
use crate::results::uploaded::{self, AddError};
use crate::state::AppState;
use crate::web::api_caller;

/// Largest upload of metric scores (all files together).
pub const MAX_METRIC_UPLOAD_BYTES: usize = 64 * 1024 * 1024;

/// The route (give it its own body limit, as the import's).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    router().split_for_parts().0.layer(axum::extract::DefaultBodyLimit::disable())
}

/// The route with its description.
pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    // The path's GET is the read-only API's (`results`); the router merges both, and any other
    // method is refused here as the read-only API refuses it.
    let (schemas, paths, method) = routes!(upload);
    OpenApiRouter::new().routes((schemas, paths, method.fallback(read_only)))
}

/// What an upload stored.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct MetricsStored {
    /// In words, one line.
    pub summary: String,
    pub metrics: Vec<uploaded::UploadedInfo>,
}

/// A multipart upload's fields.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // described only: `read_form` reads the fields
struct UploadForm {
    /// One or more score files (a metric's .sys.score and .seg.score together).
    #[schema(value_type = Vec<String>, format = Binary)]
    file: Vec<Vec<u8>>,
    /// The metric's name for a table without a metric column.
    name: Option<String>,
}

async fn read_only() -> Response {
    let mut r = AppError::forbidden("The API and the exports are read-only (use GET), except POST here to upload metric scores.").into_response();
    r.headers_mut().insert(header::ALLOW, axum::http::HeaderValue::from_static("GET, HEAD, POST"));
    r
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/html"))
}

fn header_text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

fn utf8(name: &str, bytes: Vec<u8>) -> Result<(String, String), Vec<String>> {
    String::from_utf8(bytes).map(|t| (name.to_string(), t)).map_err(|e| vec![format!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to())])
}

/// (files, metric name) of a form.
async fn read_form(mut form: Multipart) -> Result<(Vec<(String, String)>, Option<String>), Vec<String>> {
    let malformed = |e: axum::extract::multipart::MultipartError| vec![format!("the upload is malformed or too large: {e}")];
    let (mut files, mut name, mut errors) = (Vec::new(), None, Vec::new());
    while let Some(field) = form.next_field().await.map_err(malformed)? {
        match field.name().unwrap_or("") {
            "name" => {
                let text = field.text().await.map_err(malformed)?;
                name = Some(text.trim().to_string()).filter(|t| !t.is_empty());
            }
            "file" => {
                let file = field.file_name().unwrap_or("").to_string();
                let bytes = field.bytes().await.map_err(malformed)?;
                // A browser sends an empty part when no file was chosen for one input.
                if file.is_empty() && bytes.is_empty() {
                    continue;
                }
                match utf8(if file.is_empty() { "file" } else { &file }, bytes.to_vec()) {
                    Ok(f) => files.push(f),
                    Err(e) => errors.extend(e),
                }
            }
            _ => {}
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if files.is_empty() {
        return Err(vec!["choose at least one file of metric scores".into()]);
    }
    Ok((files, name))
}

async fn read_raw(headers: &HeaderMap, body: Body) -> Result<(Vec<(String, String)>, Option<String>), Vec<String>> {
    let file = header_text(headers, "x-assay-file-name")
        .ok_or_else(|| vec!["say the file's name in the X-Assay-File-Name header (or send a multipart form with file fields)".to_string()])?;
    // The route's body limit applies: past it the body fails, and so does the read.
    let bytes = axum::body::to_bytes(body, usize::MAX).await.map_err(|e| vec![format!("the upload was interrupted or is too large: {e}")])?;
    Ok((vec![utf8(&file, bytes.to_vec())?], header_text(headers, "x-assay-metric-name")))
}

fn outcome(html: bool, campaign_id: i64, result: Result<uploaded::AddSummary, AppError>) -> Response {
    let page = format!("/campaigns/{campaign_id}/metrics");
    match (html, result) {
        (true, Ok(s)) => Redirect::to(&format!("{page}?done={}", url_escape(&s.line()))).into_response(),
        (true, Err(e)) => {
            e.log();
            Redirect::to(&format!("{page}?error={}", url_escape(&e.problems().join("\n")))).into_response()
        }
        (false, Ok(s)) => Json(MetricsStored { summary: s.line(), metrics: s.metrics }).into_response(),
        (false, Err(e)) => e.into_listing_response(),
    }
}

/// Upload metric scores for the campaign (researchers and up, with a personal API token that
/// has the metrics-upload scope or the session): mt-metrics-eval files
/// (LP/METRIC-REF.sys.score, LP/METRIC-REF.seg.score: SYSTEM<TAB>SCORE lines, a segment file in
/// test-set order with None for missing), or TSV/JSONL with the columns system, score and
/// optionally segment (the test set's segment ids), metric, pair. Systems must be the
/// campaign's, segments its test set's, the pair its pair; a metric name may not be taken. All
/// or nothing. The metrics then join BLEU and chrF in GET on this path, on the metrics page and
/// in the exports.
#[utoipa::path(post, path = "/api/v1/campaigns/{id}/metrics", operation_id = "uploadCampaignMetrics",
    params(
        ("id" = i64, Path, description = "Campaign id."),
        ("X-Assay-File-Name" = Option<String>, Header, description = "For a raw body (one file): the file's name, which says its format (.score, .tsv, .jsonl) and, for mt-metrics-eval files, the pair, metric and level (en-de/COMET-refA.seg.score)."),
        ("X-Assay-Metric-Name" = Option<String>, Header, description = "For a raw TSV or JSONL body without a metric column: the metric's name."),
    ),
    request_body(description = "A multipart form of score files, or one file as the raw body (named in X-Assay-File-Name).", content(
        (UploadForm = "multipart/form-data"),
        (Vec<u8> = "application/octet-stream"),
    )),
    responses(
        (status = 200, description = "What was stored.", body = MetricsStored),
        (status = 400, description = "Nothing was stored: every problem as `file, line N: problem` in `errors` (and joined in `error`).", body = super::doc::RefusedFiles),
        (status = 401, description = "Not signed in, or the token is unknown, revoked or its account disabled.", body = super::doc::ErrorBody),
        (status = 403, description = "The account's role (at the time of the request) is too low, the token lacks the metrics-upload scope, or the request came from another site.", body = super::doc::ErrorBody),
        (status = 404, description = "There is no such campaign.", body = super::doc::ErrorBody),
    ))]
async fn upload(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    req: Request,
) -> Response {
    let html = wants_html(&headers);
    let user = match api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::MetricsUpload).await {
        Ok(u) => u,
        Err(e) => return outcome(false, id, Err(e)),
    };
    let is_multipart = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("multipart/form-data"));
    let read = if is_multipart {
        match Multipart::from_request(req, &()).await {
            Ok(form) => read_form(form).await,
            Err(e) => Err(vec![format!("the upload is not a valid form: {e}")]),
        }
    } else {
        read_raw(&headers, req.into_body()).await
    };
    let (files, name) = match read {
        Ok(x) => x,
        Err(errors) => return outcome(html, id, Err(AppError::rejected(errors))),
    };
    // Another team's campaign is refused as a missing one (404).
    if let Err(e) = crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await {
        return outcome(html, id, Err(e));
    }
    let result = match uploaded::add(&state.db, id, Some(user.id), &files, name.as_deref()).await {
        Ok(s) => Ok(s),
        Err(AddError::Files(errors)) => Err(AppError::rejected(errors.iter().map(ToString::to_string).collect())),
        Err(AddError::App(e)) => Err(e),
    };
    outcome(html, id, result)
}
