//! `GET /campaigns/{id}/decisions.csv`: the organizer's decisions about a campaign's workers,
//! for the crowd platform, and `GET /campaigns/{id}/mturk-batch.csv`: the Mechanical Turk
//! batch-results file with `Approve`/`Reject` filled in from them, for the requester site's
//! "Upload CSV" (organizers). An unknown campaign is a 404.

use axum::Router;
use axum::extract::{Extension, Path};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::{AppError, AppResult};
use crate::results::decisions::{load_decisions, load_mturk_batch, write_decisions_csv, write_mturk_batch_csv};
use crate::state::AppState;
use crate::web::api_caller;

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/campaigns/{id}/decisions.csv", get(decisions_csv)).route("/campaigns/{id}/mturk-batch.csv", get(mturk_batch_csv))
}

async fn mturk_batch_csv(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> AppResult<Response> {
    let user = api_caller(&state, session, &method, &headers, Role::Organizer, crate::auth::TokenScope::Read).await?;
    let campaign_id = id.parse::<i64>().map_err(|_| AppError::not_found(format!("there is no campaign with id {id:?}")))?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(campaign_id)).await?;
    let rows = load_mturk_batch(&state.db, campaign_id).await?;
    let mut body = Vec::new();
    write_mturk_batch_csv(&mut body, &rows)
        .map_err(|e| AppError::internal(format!("cannot write the Mechanical Turk batch file of campaign {campaign_id}: {e}")))?;
    Ok(csv_attachment(format!("campaign-{campaign_id}-mturk-batch-results.csv"), body))
}

/// A CSV file to download.
fn csv_attachment(file_name: String, body: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file_name}\"")),
        ],
        body,
    )
        .into_response()
}

async fn decisions_csv(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> AppResult<Response> {
    let user = api_caller(&state, session, &method, &headers, Role::Organizer, crate::auth::TokenScope::Read).await?;
    let campaign_id = id.parse::<i64>().map_err(|_| AppError::not_found(format!("there is no campaign with id {id:?}")))?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(campaign_id)).await?;
    let records = load_decisions(&state.db, campaign_id).await?;
    let mut body = Vec::new();
    write_decisions_csv(&mut body, &records).map_err(|e| AppError::internal(format!("cannot write the decisions of campaign {campaign_id}: {e}")))?;
    Ok(csv_attachment(format!("campaign-{campaign_id}-decisions.csv"), body))
}
