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
//! - [`metric_upload`]: `POST /api/v1/campaigns/{id}/metrics`, metric scores uploaded for a
//!   campaign (researchers and up, a token with the `metrics-upload` scope or the session),
//!   routed by the server beside the uploads with their own body limit.
//! - [`gold_upload`]: `POST /api/v1/test-sets/{id}/gold`, gold orders of relative ranking for
//!   a test set (organizers and up, a token with the `gold-upload` scope or the session), routed
//!   as `metric_upload`.
//!
//! These two are every write a token reaches; `api_caller` checks the token's scope for each
//! (`auth::TokenScope`), and refuses a token on any other write.
//! - `GET /api/v1/openapi.json`: the OpenAPI 3 description (public).
//!
//! Settings come in the query string ([`SettingsQuery`], [`FileQuery`]): `exclude_ref`, `exclude_bad_ref`,
//! `per_segment`, `wilcoxon` (true/false, the results page's choices), `filter` (`raw`, the
//! default, or `cleaned`) and `name` (mt-metrics-eval NAME, default `assay`). The API and the
//! exports are otherwise read-only: any other method than GET/HEAD is refused with 403 before
//! anything runs. (Tokens are managed by the `*_api_token` server functions, see `auth::tokens`.)

pub mod campaigns;
pub mod decisions;
pub mod doc;
pub mod exports;
pub mod gold_upload;
pub mod metric_upload;
pub mod results;
pub mod workers;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::analysis::manifest::Filter;
use crate::error::{AppError, AppResult};
use crate::results::ResultsOptions;

/// The reading routes, each with its description.
fn reading<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(openapi))
        .merge(campaigns::router())
        .merge(results::router())
        .merge(workers::router())
        .merge(exports::router())
        .layer(middleware::from_fn(read_only))
}

/// Every route of the API and the downloads (the uploads are routed by the server beside
/// them, with their own body limits: [`metric_upload::routes`], [`gold_upload::routes`]).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    reading()
        .split_for_parts()
        .0
        // Not under the read-only layer (as before the split): other methods are axum's 405.
        .merge(decisions::routes())
        .layer(middleware::from_fn(json_errors))
}

/// The OpenAPI document's parts: what [`doc::ApiDoc`] says, and every described route's
/// path, uploads included.
pub fn described() -> utoipa::openapi::OpenApi {
    let mut doc = doc::ApiDoc::openapi();
    doc.merge(reading::<()>().into_openapi());
    doc.merge(metric_upload::router::<()>().into_openapi());
    doc.merge(gold_upload::router::<()>().into_openapi());
    doc
}

/// Every refusal of these routes is JSON, `{"error": "…"}`, as the README promises: axum's own
/// rejections (a setting that does not parse, an id that is not a number, a method a route does
/// not take) come as plain text and are rewritten here, keeping their status and headers.
async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(response.status().is_client_error() || response.status().is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, 64 * 1024).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let text = if text.is_empty() { parts.status.canonical_reason().unwrap_or("error").to_string() } else { text };
    let body = serde_json::json!({ "error": text }).to_string();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// Refuses every method but GET and HEAD, whoever asks: a token can never change anything.
async fn read_only(req: Request, next: Next) -> Response {
    if matches!(*req.method(), Method::GET | Method::HEAD) {
        next.run(req).await
    } else {
        let mut r = AppError::forbidden("The API and the exports are read-only: use GET.").into_response();
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    }
}

/// This description.
#[utoipa::path(get, path = "/api/v1/openapi.json", operation_id = "openapi", security(()),
    responses((status = 200, description = "OpenAPI JSON.", content_type = "application/json")))]
async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], doc::document()).into_response()
}

/// The results page's choices, which every reading of a campaign's analysis takes.
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SettingsQuery {
    /// Leave reference items out of each worker's mean and standard deviation (METHOD §5).
    #[serde(default)]
    #[param(default = false)]
    pub exclude_ref: bool,
    /// Leave bad-reference items out of each worker's mean and standard deviation.
    #[serde(default)]
    #[param(default = false)]
    pub exclude_bad_ref: bool,
    /// Average per segment first, then over segments.
    #[serde(default)]
    #[param(default = false)]
    pub per_segment: bool,
    /// Gate workers with the Wilcoxon signed-rank test instead of the paired t-test.
    #[serde(default)]
    #[param(default = false)]
    pub wilcoxon: bool,
}

/// Which judgments an export file holds, and its mt-metrics-eval name.
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FileQuery {
    /// raw (when not given): every judgment with its worker's verdict; cleaned: judgments of
    /// workers excluded by quality control (and skipped ones) removed.
    #[param(inline, value_type = Option<FilterName>)]
    pub filter: Option<String>,
    /// NAME of the mt-metrics-eval files and DATA of DA-seglevel.csv.
    #[param(default = "assay")]
    pub name: Option<String>,
}

/// The values of `filter` (described only; parsed by [`FileQuery::filter`]).
#[derive(utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum FilterName {
    Raw,
    Cleaned,
}

impl SettingsQuery {
    pub fn options(&self) -> ResultsOptions {
        ResultsOptions {
            exclude_ref: self.exclude_ref,
            exclude_bad_ref: self.exclude_bad_ref,
            per_segment: self.per_segment,
            wilcoxon: self.wilcoxon,
        }
    }
}

impl FileQuery {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::server::{CurrentSession, Session};
    use crate::auth::{Role, UserInfo};
    use crate::error::SERVER_FAULT;
    use crate::state::AppState;
    use axum::Extension;
    use axum::body::Body;
    use tower::ServiceExt;

    async fn state() -> (tempfile::TempDir, AppState) {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display())).await.expect("sqlite");
        let state = AppState { db, secret: b"test secret".as_slice().into(), settings: Default::default() };
        (dir, state)
    }

    /// GETs `path` as a signed-in researcher; returns the status and the JSON body.
    async fn get(state: &AppState, path: &str) -> (u16, serde_json::Value) {
        let user = UserInfo { id: 1, email: "r@example.org".into(), name: "R".into(), role: Role::Researcher };
        let app: Router = routes()
            .layer(Extension(CurrentSession(Some(Session { user, token_hash: String::new() }))))
            .layer(Extension(state.clone()));
        let r = app.oneshot(Request::get(path).body(Body::empty()).unwrap()).await.expect("an answer");
        let status = r.status().as_u16();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body");
        (status, serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null))
    }

    /// The README promises JSON: a setting that does not parse, an id that is not a number and
    /// a POST are refused as `{"error": …}` with their status.
    #[tokio::test]
    async fn refusals_are_json() {
        let (_dir, state) = state().await;
        let (status, body) = get(&state, "/api/v1/campaigns/1/results?wilcoxon=maybe").await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].as_str().unwrap_or("").contains("wilcoxon"), "{body}");
        let (status, body) = get(&state, "/api/v1/campaigns/abc/results").await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].is_string(), "{body}");
        let user = UserInfo { id: 1, email: "r@example.org".into(), name: "R".into(), role: Role::Researcher };
        let app: Router = routes()
            .layer(Extension(CurrentSession(Some(Session { user, token_hash: String::new() }))))
            .layer(Extension(state.clone()));
        let r = app.oneshot(Request::post("/api/v1/campaigns").body(Body::empty()).unwrap()).await.expect("an answer");
        assert_eq!(r.status().as_u16(), 403);
        assert_eq!(r.headers()[header::ALLOW], "GET, HEAD");
        assert!(r.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("application/json"));
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body");
        let body: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
        assert_eq!(body["error"], "The API and the exports are read-only: use GET.");
    }

    /// Every operation of the API, as the document describes it.
    fn operations(doc: &serde_json::Value) -> Vec<(String, String)> {
        let mut ops = Vec::new();
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for method in item.as_object().expect("a path item").keys() {
                ops.push((method.clone(), path.clone()));
            }
        }
        ops.sort();
        ops
    }

    #[test]
    fn the_document_describes_every_route_with_its_answers() {
        let doc: serde_json::Value = serde_json::from_str(doc::document()).expect("JSON");
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")), "{}", doc["openapi"]);
        assert_eq!(doc["info"]["title"], "Assay read-only API");
        assert_eq!(doc["components"]["securitySchemes"]["session"]["name"], crate::auth::server::SESSION_COOKIE);
        assert_eq!(doc["components"]["securitySchemes"]["token"]["scheme"], "bearer");
        let want: Vec<(String, String)> = [
            ("get", "/api/v1/campaigns"),
            ("get", "/api/v1/campaigns/{id}/agreement"),
            ("get", "/api/v1/campaigns/{id}/export/{file}"),
            ("get", "/api/v1/campaigns/{id}/metrics"),
            ("get", "/api/v1/campaigns/{id}/results"),
            ("get", "/api/v1/campaigns/{id}/workers"),
            ("get", "/api/v1/openapi.json"),
            ("post", "/api/v1/campaigns/{id}/metrics"),
            ("post", "/api/v1/test-sets/{id}/gold"),
        ]
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
        assert_eq!(operations(&doc), want);
        for (method, path) in operations(&doc) {
            let op = &doc["paths"][&path][&method];
            assert!(op["operationId"].is_string() && op["summary"].as_str().is_some_and(|s| s.len() > 10), "{method} {path}: {op}");
            let refusals = ["401", "403", "404"].iter().filter(|c| op["responses"].get(**c).is_some()).count();
            assert!(op["responses"].get("200").is_some(), "{method} {path} describes its answer");
            assert!(path.ends_with("openapi.json") || refusals == 3, "{method} {path} describes its refusals");
        }
        // The settings the query string takes, each with its words.
        let results = &doc["paths"]["/api/v1/campaigns/{id}/results"]["get"]["parameters"];
        let names: Vec<&str> = results.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["id", "exclude_ref", "exclude_bad_ref", "per_segment", "wilcoxon"]);
        assert!(results.as_array().unwrap().iter().all(|p| p["description"].as_str().is_some_and(|d| !d.is_empty())));
        // The answers' schemas are the types the handlers return.
        let schemas = &doc["components"]["schemas"];
        for name in ["ResultsView", "WorkersView", "AgreementReport", "GroupAgreement", "PairFigures", "ResultsEntry", "Error", "RefusedFiles"] {
            assert!(schemas.get(name).is_some(), "{name} in the components");
        }
        assert_eq!(schemas["ResultsView"]["properties"]["agreement"]["$ref"], "#/components/schemas/AgreementReport");
        // Every reference leads somewhere.
        fn refs<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
            match v {
                serde_json::Value::Object(m) => {
                    if let Some(r) = m.get("$ref").and_then(|r| r.as_str()) {
                        out.push(r);
                    }
                    m.values().for_each(|v| refs(v, out));
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        refs(&doc, &mut all);
        assert!(all.len() > 10);
        for r in all {
            let name = r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("{r}"));
            assert!(schemas.get(name).is_some(), "{r} leads nowhere");
        }
    }

    /// Each operation the document describes is routed: the router answers it (a refusal of the
    /// handler, never the router's 404 or 405).
    #[tokio::test]
    async fn every_described_operation_is_routed() {
        let (_dir, state) = state().await;
        let doc: serde_json::Value = serde_json::from_str(doc::document()).expect("JSON");
        let app: Router = routes().merge(metric_upload::routes()).merge(gold_upload::routes()).layer(Extension(CurrentSession(None))).layer(Extension(state.clone()));
        for (method, path) in operations(&doc) {
            let uri = path.replace("{id}", "7").replace("{file}", "judgments.csv");
            let r = app.clone().oneshot(Request::builder().method(method.to_uppercase().as_str()).uri(&uri).body(Body::empty()).unwrap()).await.expect("an answer");
            let status = r.status().as_u16();
            let ok = if path.ends_with("openapi.json") { status == 200 } else { status == 401 };
            assert!(ok, "{method} {uri}: {status}");
        }
        // And a path the document does not have is the router's 404.
        let r = app.oneshot(Request::get("/api/v1/nothing").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(r.status().as_u16(), 404);
    }

    /// The values the document lists for the review table's settings are the ones it takes.
    #[test]
    fn the_described_values_of_the_review_settings_are_accepted() {
        let doc: serde_json::Value = serde_json::from_str(doc::document()).expect("JSON");
        let params = doc["paths"]["/api/v1/campaigns/{id}/workers"]["get"]["parameters"].as_array().unwrap().clone();
        let values = |name: &str| -> Vec<String> {
            let p = params.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{name} described"));
            let schema = &p["schema"];
            schema["enum"].as_array().unwrap_or_else(|| panic!("{name}: {schema}")).iter().map(|v| v.as_str().unwrap().to_string()).collect()
        };
        let (sorts, orders, verdicts, flags) = (values("sort"), values("order"), values("verdict"), values("flag"));
        assert_eq!((sorts.len(), orders.len(), verdicts.len(), flags.len()), (4, 2, 4, 7));
        use crate::results::WorkersQuery;
        for v in &sorts {
            assert!(WorkersQuery::from_params(None, None, Some(v), None, None, None, None).is_ok(), "sort {v}");
        }
        for v in &orders {
            assert!(WorkersQuery::from_params(None, None, None, Some(v), None, None, None).is_ok(), "order {v}");
        }
        for v in &verdicts {
            assert!(WorkersQuery::from_params(None, None, None, None, None, Some(v), None).is_ok(), "verdict {v}");
        }
        for v in &flags {
            assert!(WorkersQuery::from_params(None, None, None, None, None, None, Some(v)).is_ok(), "flag {v}");
        }
        assert!(WorkersQuery::from_params(None, None, Some("nonsense"), None, None, None, None).is_err());
    }

    #[tokio::test]
    async fn an_unknown_campaign_is_a_404_and_a_storage_failure_a_500() {
        let (_dir, state) = state().await;
        for path in ["/api/v1/campaigns/999/results", "/api/v1/campaigns/999/agreement", "/api/v1/campaigns/999/export/judgments.csv"] {
            let (status, body) = get(&state, path).await;
            assert_eq!(status, 404, "{path}: {body}");
            assert_eq!(body["error"], "there is no campaign with id 999", "{path}");
        }
        let (status, body) = get(&state, "/api/v1/campaigns/1/export/judgments.csv?filter=dirty").await;
        assert_eq!((status, body["error"].as_str().unwrap_or("")), (400, "filter must be raw or cleaned (got \"dirty\")"));
        assert_eq!(get(&state, "/api/v1/campaigns").await, (200, serde_json::json!([])));

        // The database goes away: every route answers 500 with the short message, no database text.
        state.db.pool.close().await;
        state.db.writer.close().await;
        for path in ["/api/v1/campaigns", "/api/v1/campaigns/999/results", "/api/v1/campaigns/999/export/judgments.csv"] {
            let (status, body) = get(&state, path).await;
            assert_eq!(status, 500, "{path}: {body}");
            assert_eq!(body["error"], SERVER_FAULT, "{path}");
        }
    }
}
