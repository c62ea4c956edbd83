//! `GET /api/v1/campaigns/{id}/workers`: the worker review table (organizers and up): the same
//! rows as the review page, with the verdicts at submission and the decisions, one page at a time
//! (`page`, `per_page`, `sort`, `order`, `search`, `verdict`, `flag`: see [`crate::results::WorkersQuery`];
//! without them the first 50 rows by worker), with the counts per verdict of the whole campaign.

use axum::extract::{Extension, Path, Query};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::SettingsQuery;
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::{AppError, AppResult};
use crate::results::{WorkersQuery, WorkersView};
use crate::state::AppState;
use crate::web::api_caller;

pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new().routes(routes!(workers))
}

/// Worker review table, one page at a time: reliability and consistency tests, flags, means,
/// the verdicts at submission and the decisions, with the counts per verdict of the whole
/// campaign (organizers and up). Paginated: without `page` the first 50 rows sorted by worker
/// are returned.
#[utoipa::path(get, path = "/api/v1/campaigns/{id}/workers", operation_id = "campaignWorkers",
    params(("id" = i64, Path, description = "Campaign id."), SettingsQuery, PageQuery),
    responses((status = 200, description = "The page's rows (one per worker and task) and the counts.", body = WorkersView), super::doc::Refusals))]
async fn workers(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Query(q): Query<SettingsQuery>,
    Query(p): Query<PageQuery>,
) -> AppResult<Json<WorkersView>> {
    let user = api_caller(&state, session, &method, &headers, Role::Organizer, crate::auth::TokenScope::Read).await?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let query = WorkersQuery::from_params(p.page, p.per_page, p.sort.as_deref(), p.order.as_deref(), p.search.as_deref(), p.verdict.as_deref(), p.flag.as_deref())
        .map_err(|(field, problem)| AppError::invalid(field, problem))?;
    Ok(Json(crate::results::decisions::workers_page(&state.db, id, q.options(), &query).await?))
}

/// The page of the table asked for (each optional).
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    /// Page, from 1. A page past the last answers the last page (`query.page` says which).
    #[param(minimum = 1, default = 1)]
    page: Option<usize>,
    /// Rows per page (1 to 200).
    #[param(minimum = 1, maximum = 200, default = 50)]
    per_page: Option<usize>,
    /// Sort by worker id (then task), verdict (fail, not enough evidence, pass), reliability
    /// p-value (rows without one last in either order) or number of flags; ties by worker, then
    /// task. By worker when not given.
    #[param(inline, value_type = Option<SortKey>)]
    sort: Option<String>,
    /// Ascending (when not given) or descending.
    #[param(inline, value_type = Option<SortOrder>)]
    order: Option<String>,
    /// Only workers whose id (`platform:external id`) contains this, in any case.
    search: Option<String>,
    /// Only rows with this reliability verdict, or (`excluded`) the rows excluded from the
    /// statistics.
    #[param(inline, value_type = Option<VerdictName>)]
    verdict: Option<String>,
    /// Only rows with a flag (`any`), without (`none`), or with a flag of a kind: HITs faster
    /// than the floor (`fast`), a long run of identical scores (`identical`), bad references
    /// not scored lower (`bad-not-lower`), references scored low (`low-ref`), a worker id that
    /// arrived with several platform sessions (`sessions`).
    #[param(inline, value_type = Option<FlagName>)]
    flag: Option<String>,
}

// The values the page's settings take, for the description only: `WorkersQuery::from_params`
// reads them (and says what is wrong with any other).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum SortKey {
    Worker,
    Verdict,
    P,
    Flags,
}

#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
enum SortOrder {
    Asc,
    Desc,
}

#[derive(utoipa::ToSchema)]
#[schema(rename_all = "kebab-case")]
#[allow(dead_code)]
enum VerdictName {
    Pass,
    Fail,
    NotEnoughEvidence,
    Excluded,
}

#[derive(utoipa::ToSchema)]
#[schema(rename_all = "kebab-case")]
#[allow(dead_code)]
enum FlagName {
    Any,
    None,
    Fast,
    Identical,
    BadNotLower,
    LowRef,
    Sessions,
}
