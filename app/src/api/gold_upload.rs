//! `POST /api/v1/test-sets/{id}/gold` (organizers and up, as every import; a personal API token
//! with the `gold-upload` scope, or the session, whose requests the Origin check guards as every
//! other form): the gold orders
//! of relative ranking for a test set (issue 19, [`crate::campaign::gold`]).
//!
//! The body is the file itself (TSV `segment<TAB>order` or JSONL, see
//! [`assay_core::analysis::gold`]), its name in `X-Assay-File-Name` (default `gold.tsv`).
//! Answers JSON `{"summary", "orders", "strict_pairs", "replaced"}`, or 400 with
//! `{"error", "errors": ["file, line N: problem", …]}` and nothing stored.

use axum::body::Body;
use axum::extract::{Path, Request};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Extension, Json, Router};

use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::campaign::gold::{self, GoldImportError};
use crate::error::AppError;
use crate::state::AppState;
use crate::web::api_caller;

/// Largest gold file.
pub const MAX_GOLD_UPLOAD_BYTES: usize = 16 * 1024 * 1024;

/// The route (give it its own body limit, as the import's).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/v1/test-sets/{id}/gold", post(upload)).layer(axum::extract::DefaultBodyLimit::disable())
}

/// A refusal as the upload answers it: `{"error", "errors"}` with the error's status.
fn app_refusal(e: AppError) -> Response {
    e.into_listing_response()
}

async fn read_body(body: Body) -> Result<Vec<u8>, AppError> {
    // The router's body limit applies: past it the body fails, and so does the read.
    axum::body::to_bytes(body, usize::MAX)
        .await
        .map(|b| b.to_vec())
        .map_err(|e| AppError::invalid("body", format!("the upload was interrupted or is too large: {e}")))
}

async fn upload(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    req: Request,
) -> Response {
    let user = match api_caller(&state, session, &method, &headers, Role::Organizer, crate::auth::TokenScope::GoldUpload).await {
        Ok(u) => u,
        Err(e) => return app_refusal(e),
    };
    // Another team's test set is refused as a missing one, before the file is read.
    if let Err(e) = crate::web::require_in_team(&state.db, &user, crate::web::Owned::TestSet(id)).await {
        return app_refusal(e);
    }
    let file = headers
        .get("x-assay-file-name")
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "gold.tsv".into());
    if headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("multipart/")) {
        return app_refusal(AppError::invalid("body", "send the gold file itself as the body, its name in X-Assay-File-Name"));
    }
    let bytes = match read_body(req.into_body()).await {
        Ok(b) => b,
        Err(e) => return app_refusal(e),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => return app_refusal(AppError::invalid("body", format!("{file}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))),
    };
    match gold::import(&state.db, id, &file, &text).await {
        Ok(s) => Json(serde_json::json!({ "summary": s.line(), "orders": s.orders, "strict_pairs": s.strict_pairs, "replaced": s.replaced })).into_response(),
        Err(GoldImportError::File(errors)) => app_refusal(AppError::rejected(errors.iter().map(ToString::to_string).collect())),
        Err(GoldImportError::App(e)) => app_refusal(e),
    }
}
