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
use axum::{Extension, Json, Router};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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
    router().split_for_parts().0.layer(axum::extract::DefaultBodyLimit::disable())
}

/// The route with its description.
pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new().routes(routes!(upload))
}

/// What an import stored.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct GoldStored {
    /// In words, one line.
    pub summary: String,
    /// Gold orders (segments) stored.
    pub orders: usize,
    /// Pairs the orders rank strictly, summed over the orders.
    pub strict_pairs: usize,
    /// Gold orders of the test set replaced by this import.
    pub replaced: usize,
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

/// Import the gold orders of relative ranking for a test set (organizers and up, a personal API
/// token with the gold-upload scope or the session; WMT 2012's controls): the file itself as the
/// body, its name in X-Assay-File-Name. TSV lines `segment<TAB>order` or JSONL {"segment",
/// "order"}, an order being system names best first, '>' between ranks and '=' between tied
/// systems (`A > B = C > D`). Segments are the test set's ids, systems ones with an output of
/// that segment; every order needs one strict preference. All or nothing; a new import replaces
/// the test set's gold orders. Ranking campaigns with rank_gold_blocks > 0 draw their gold
/// blocks from them at launch.
#[utoipa::path(post, path = "/api/v1/test-sets/{id}/gold", operation_id = "importRankingGold",
    params(
        ("id" = i64, Path, description = "Test set id."),
        ("X-Assay-File-Name" = Option<String>, Header, description = "The file's name (.tsv or .jsonl; default gold.tsv)."),
    ),
    request_body(content = String, content_type = "text/plain"),
    responses(
        (status = 200, description = "GoldStored: a summary line, the orders stored, the pairs they rank strictly, the earlier orders replaced.", body = GoldStored),
        (status = 400, description = "The file's problems, each `file, line N: problem`, in `errors`; nothing stored.", body = super::doc::RefusedFiles),
        (status = 401, description = "Not signed in, or the token is unknown, revoked or its account disabled.", body = super::doc::ErrorBody),
        (status = 403, description = "The account's role is too low, or the token lacks the gold-upload scope.", body = super::doc::ErrorBody),
        (status = 404, description = "No such test set.", body = super::doc::ErrorBody),
    ))]
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
        Ok(s) => Json(GoldStored { summary: s.line(), orders: s.orders, strict_pairs: s.strict_pairs, replaced: s.replaced }).into_response(),
        Err(GoldImportError::File(errors)) => app_refusal(AppError::rejected(errors.iter().map(ToString::to_string).collect())),
        Err(GoldImportError::App(e)) => app_refusal(e),
    }
}
