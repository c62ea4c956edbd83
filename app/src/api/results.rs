//! A campaign's results: `GET /api/v1/campaigns/{id}/results` (scores, significance, clusters,
//! exclusions, agreement) and `GET /api/v1/campaigns/{id}/agreement` (researchers and up). An
//! unknown campaign is a 404.

use axum::extract::{Extension, Path, Query};
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};

use super::ExportQuery;
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::AppResult;
use crate::results::build;
use crate::results::{AgreementReport, ResultsView};
use crate::state::AppState;
use crate::web::api_caller;

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/v1/campaigns/{id}/results", get(results))
        .route("/api/v1/campaigns/{id}/agreement", get(agreement))
}

async fn results(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> AppResult<Json<ResultsView>> {
    api_caller(&state, session, &headers, Role::Researcher).await?;
    let options = q.options();
    let a = build::run(&state.db, id, options).await?;
    Ok(Json(build::results_view(&a, options)))
}

async fn agreement(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> AppResult<Json<AgreementReport>> {
    api_caller(&state, session, &headers, Role::Researcher).await?;
    let a = build::run(&state.db, id, q.options()).await?;
    Ok(Json(a.agreement().clone()))
}
