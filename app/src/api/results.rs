//! A campaign's results: `GET /api/v1/campaigns/{id}/results` (scores, significance, clusters,
//! exclusions, agreement) and `GET /api/v1/campaigns/{id}/agreement` (researchers and up). An
//! unknown campaign is a 404.

use axum::extract::{Extension, Path, Query};
use axum::http::HeaderMap;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::SettingsQuery;
use super::doc::Refusals;
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::AppResult;
use crate::results::build;
use crate::results::{AgreementReport, ResultsView};
use crate::state::AppState;
use crate::web::api_caller;

pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new().routes(routes!(results)).routes(routes!(agreement)).routes(routes!(metrics))
}

/// The campaign's human scores against the built-in metrics: the meta-evaluation report (as
/// `assay metrics evaluate` writes it in `meta.json`) with the metrics' signatures.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct MetricsReply {
    pub campaign: i64,
    /// When the human scores were computed (Unix milliseconds), and on how many stored answers.
    pub computed_at_ms: i64,
    pub stored_judgments: i64,
    /// Why there is no report (in words), when there is none.
    pub empty_reason: Option<String>,
    /// Each metric's name and signature (sacrebleu's form for the built-in ones).
    #[schema(value_type = Option<Vec<Vec<String>>>)]
    pub signatures: Option<Vec<(String, String)>>,
    /// The meta-evaluation report, as `meta.json` holds it.
    #[schema(value_type = Option<Object>)]
    pub report: Option<assay_core::metrics::meta::MetaReport>,
}

/// The campaign's human scores (mean z, workers quality control keeps) against the built-in
/// BLEU, chrF and chrF++ computed on its texts and the metrics uploaded for it: system- and
/// segment-level correlations with bootstrap intervals, pairwise accuracy, the Williams and
/// PERM-BOTH tests between metrics (researchers and up).
#[utoipa::path(get, path = "/api/v1/campaigns/{id}/metrics", operation_id = "campaignMetrics",
    params(("id" = i64, Path, description = "Campaign id.")),
    responses((status = 200, description = "The meta-evaluation report.", body = MetricsReply), Refusals))]
async fn metrics(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> AppResult<Json<MetricsReply>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let (a, report, empty) = crate::results::metrics::server::evaluate(&state.db, id).await?;
    Ok(Json(MetricsReply {
        campaign: a.info.id,
        computed_at_ms: a.computed_at_ms,
        stored_judgments: a.stored_judgments,
        empty_reason: empty,
        signatures: report.as_ref().map(|r| r.1.clone()),
        report: report.as_ref().map(|r| r.0.clone()),
    }))
}

/// System scores, significance, clusters, excluded workers, agreement and the export files
/// offered (researchers and up).
#[utoipa::path(get, path = "/api/v1/campaigns/{id}/results", operation_id = "campaignResults",
    params(("id" = i64, Path, description = "Campaign id."), SettingsQuery),
    responses((status = 200, description = "The results, as the results page shows them.", body = ResultsView), Refusals))]
async fn results(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<SettingsQuery>,
) -> AppResult<Json<ResultsView>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let options = q.options();
    let a = build::run(&state.db, id, options).await?;
    Ok(Json(build::results_view(&a, options)))
}

/// Intra-annotator (repeats) and inter-annotator (items judged by several workers) agreement:
/// Pearson r and mean |difference| on continuous scales, κ on categorical ones; over all
/// workers and over retained workers (researchers and up).
#[utoipa::path(get, path = "/api/v1/campaigns/{id}/agreement", operation_id = "campaignAgreement",
    params(("id" = i64, Path, description = "Campaign id."), SettingsQuery),
    responses((status = 200, description = "The agreement report.", body = AgreementReport), Refusals))]
async fn agreement(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<SettingsQuery>,
) -> AppResult<Json<AgreementReport>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let a = build::run(&state.db, id, q.options()).await?;
    Ok(Json(a.agreement().clone()))
}
