//! `GET /api/v1/campaigns/{id}/workers`: the worker review table (organizers and up): the same
//! rows as the review page, with the verdicts at submission and the decisions.

use axum::extract::{Extension, Path, Query};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};

use super::ExportQuery;
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::AppResult;
use crate::results::WorkersView;
use crate::state::AppState;
use crate::web::api_caller;

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/v1/campaigns/{id}/workers", get(workers))
}

async fn workers(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> AppResult<Json<WorkersView>> {
    api_caller(&state, session, &headers, Role::Organizer).await?;
    Ok(Json(crate::results::decisions::workers_page(&state.db, id, q.options()).await?))
}
