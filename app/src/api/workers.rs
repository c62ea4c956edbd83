//! `GET /api/v1/campaigns/{id}/workers`: the worker review table (organizers and up): the same
//! rows as the review page, with the verdicts at submission and the decisions, one page at a time
//! (`page`, `per_page`, `sort`, `order`, `search`, `verdict`, `flag`: see [`crate::results::WorkersQuery`];
//! without them the first 50 rows by worker), with the counts per verdict of the whole campaign.

use axum::extract::{Extension, Path, Query};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};

use serde::Deserialize;

use super::ExportQuery;
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::{AppError, AppResult};
use crate::results::{WorkersQuery, WorkersView};
use crate::state::AppState;
use crate::web::api_caller;

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/v1/campaigns/{id}/workers", get(workers))
}

async fn workers(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
    Query(p): Query<PageQuery>,
) -> AppResult<Json<WorkersView>> {
    let user = api_caller(&state, session, &method, &headers, Role::Organizer, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let query = WorkersQuery::from_params(p.page, p.per_page, p.sort.as_deref(), p.order.as_deref(), p.search.as_deref(), p.verdict.as_deref(), p.flag.as_deref())
        .map_err(|(field, problem)| AppError::invalid(field, problem))?;
    Ok(Json(crate::results::decisions::workers_page(&state.db, id, q.options(), &query).await?))
}

/// The page of the table asked for (each optional).
#[derive(Debug, Default, Deserialize)]
struct PageQuery {
    page: Option<usize>,
    per_page: Option<usize>,
    sort: Option<String>,
    order: Option<String>,
    search: Option<String>,
    verdict: Option<String>,
    flag: Option<String>,
}
