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
        .route("/api/v1/campaigns/{id}/metrics", get(metrics))
}

/// The campaign's human scores against the built-in metrics: the meta-evaluation report (as
/// `assay metrics evaluate` writes it in `meta.json`) with the metrics' signatures.
async fn metrics(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> AppResult<Json<serde_json::Value>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let (a, report, empty) = crate::results::metrics::server::evaluate(&state.db, id).await?;
    Ok(Json(serde_json::json!({
        "campaign": a.info.id,
        "computed_at_ms": a.computed_at_ms,
        "stored_judgments": a.stored_judgments,
        "empty_reason": empty,
        "signatures": report.as_ref().map(|r| r.1.clone()),
        "report": report.as_ref().map(|r| r.0.clone()),
    })))
}

async fn results(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> AppResult<Json<ResultsView>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let options = q.options();
    let a = build::run(&state.db, id, options).await?;
    Ok(Json(build::results_view(&a, options)))
}

async fn agreement(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<ExportQuery>,
) -> AppResult<Json<AgreementReport>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let a = build::run(&state.db, id, q.options()).await?;
    Ok(Json(a.agreement().clone()))
}
