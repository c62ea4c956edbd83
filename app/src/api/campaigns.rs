//! `GET /api/v1/campaigns`: launched campaigns with their judgment counts (researchers and up).

use axum::extract::Extension;
use axum::http::HeaderMap;
use axum::Json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::AppResult;
use crate::results::ResultsEntry;
use crate::state::AppState;
use crate::web::api_caller;

pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new().routes(routes!(list))
}

/// Launched campaigns with their judgment counts (researchers and up).
#[utoipa::path(get, path = "/api/v1/campaigns", operation_id = "listCampaigns",
    responses((status = 200, description = "Campaigns, newest first.", body = [ResultsEntry]), super::doc::Refusals))]
async fn list(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
) -> AppResult<Json<Vec<ResultsEntry>>> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    let visible = crate::web::Visible::of(&state.db, &user).await?;
    let mut list = crate::results::build::list(&state.db).await?;
    list.retain(|c| visible.campaign(c.id));
    Ok(Json(list))
}
