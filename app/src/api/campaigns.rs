//! `GET /api/v1/campaigns`: launched campaigns with their judgment counts (researchers and up).

use axum::extract::Extension;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};

use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::AppResult;
use crate::results::ResultsEntry;
use crate::state::AppState;
use crate::web::api_caller;

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/api/v1/campaigns", get(list))
}

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
