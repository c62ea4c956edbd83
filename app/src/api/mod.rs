//! The read-only API and the downloads: one router per resource, each route checks who asks
//! ([`crate::web::api_caller`]: a session cookie, or a personal API token in
//! `Authorization: Bearer …`), calls the domain and answers JSON or a file; a refusal or a
//! failure is an [`AppError`](crate::error::AppError), answered by its one mapping.
//!
//! - [`campaigns`]: `GET /api/v1/campaigns`, launched campaigns (researchers and up).
//! - [`results`]: `GET /api/v1/campaigns/{id}/results` (scores, significance, clusters,
//!   exclusions, agreement) and `GET /api/v1/campaigns/{id}/agreement`, the agreement report.
//! - [`workers`]: `GET /api/v1/campaigns/{id}/workers`, the worker review table (organizers and up).
//! - [`exports`]: `GET /api/v1/campaigns/{id}/export/{file}`, and the same as
//!   `GET /campaigns/{id}/export/{file}` for the results page's export buttons.
//! - [`decisions`]: `GET /campaigns/{id}/decisions.csv`, the organizer's decisions (organizers).
//! - `GET /api/v1/openapi.json`: the OpenAPI 3 description (public).
//!
//! Settings come in the query string ([`ExportQuery`]): `exclude_ref`, `exclude_bad_ref`,
//! `per_segment`, `wilcoxon` (true/false, the results page's choices), `filter` (`raw`, the
//! default, or `cleaned`) and `name` (mt-metrics-eval NAME, default `assay`). The API and the
//! exports are read-only: any other method than GET/HEAD is refused with 403 before anything
//! runs. (Tokens are managed by the `*_api_token` server functions, see `auth::tokens`.)

pub mod campaigns;
pub mod decisions;
pub mod exports;
pub mod results;
pub mod workers;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

use crate::analysis::manifest::Filter;
use crate::error::{AppError, AppResult};
use crate::results::ResultsOptions;

/// The OpenAPI 3 description of these routes.
pub const OPENAPI: &str = include_str!("openapi.json");

/// Every route of the API and the downloads.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/api/v1/openapi.json", get(openapi))
        .merge(campaigns::routes())
        .merge(results::routes())
        .merge(workers::routes())
        .merge(exports::routes())
        .layer(middleware::from_fn(read_only))
        // Not under the read-only layer (as before the split): other methods are axum's 405.
        .merge(decisions::routes())
}

/// Refuses every method but GET and HEAD, whoever asks: a token can never change anything.
async fn read_only(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        next.run(req).await
    } else {
        let mut r = (StatusCode::FORBIDDEN, "The API and the exports are read-only: use GET.").into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    }
}

async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// The settings of a request.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ExportQuery {
    #[serde(default)]
    pub exclude_ref: bool,
    #[serde(default)]
    pub exclude_bad_ref: bool,
    #[serde(default)]
    pub per_segment: bool,
    #[serde(default)]
    pub wilcoxon: bool,
    pub filter: Option<String>,
    pub name: Option<String>,
}

impl ExportQuery {
    pub fn options(&self) -> ResultsOptions {
        ResultsOptions {
            exclude_ref: self.exclude_ref,
            exclude_bad_ref: self.exclude_bad_ref,
            per_segment: self.per_segment,
            wilcoxon: self.wilcoxon,
        }
    }

    pub fn filter(&self) -> AppResult<Filter> {
        match self.filter.as_deref().unwrap_or("raw") {
            "raw" => Ok(Filter::Raw),
            "cleaned" => Ok(Filter::Cleaned),
            other => Err(AppError::invalid("filter", format!("filter must be raw or cleaned (got {other:?})"))),
        }
    }

    pub fn name(&self) -> AppResult<String> {
        let name = self.name.clone().unwrap_or_else(|| crate::export::DEFAULT_NAME.into());
        if name.is_empty() || name.len() > 50 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(AppError::invalid("name", format!("name must be 1 to 50 letters, digits, - or _ (got {name:?})")));
        }
        Ok(name)
    }
}
