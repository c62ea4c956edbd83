//! The API's OpenAPI document, generated from the routes and their types (issue 36 item 6): each
//! handler's `#[utoipa::path]` says its path, parameters and answers, and the routers are built
//! from the same attributes ([`utoipa_axum::router::OpenApiRouter`]), so a route cannot exist
//! without its description nor a description without its route. Served at
//! `GET /api/v1/openapi.json`.

use std::sync::OnceLock;

use serde::Serialize;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

/// What the document says besides its paths: who may call, how, and the shared schemas.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Assay read-only API",
        version = "1",
        description = "Results and exports of Assay campaigns for scripts. Authenticate with a personal API token (create one at /account/tokens) sent as `Authorization: Bearer assay_…`; a signed-in browser session works too. Every token reads (GET); it writes only with the scopes chosen when it was made: `metrics-upload` for POST /api/v1/campaigns/{id}/metrics (metric scores) and `gold-upload` for POST /api/v1/test-sets/{id}/gold (gold orders of relative ranking); a write without its scope is refused with 403. Server functions never accept a token. A token has its owner's role at the time of each request."
    ),
    modifiers(&Schemes),
    security(("token" = []), ("session" = [])),
    components(schemas(ErrorBody, RefusedFiles))
)]
pub struct ApiDoc;

/// The two ways to authenticate.
struct Schemes;

impl Modify for Schemes {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let components = doc.components.get_or_insert_with(Default::default);
        let mut token = Http::new(HttpAuthScheme::Bearer);
        token.description = Some("A personal API token (assay_…).".into());
        components.add_security_scheme("token", SecurityScheme::Http(token));
        components.add_security_scheme("session", SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(crate::auth::server::SESSION_COOKIE))));
    }
}

/// Every refusal: `{"error": "…"}` ([`crate::error::AppError`]'s one mapping).
#[derive(Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    pub error: String,
}

/// An upload refused whole: every problem as `file, line N: problem` in `errors`, joined in
/// `error`; nothing was stored.
#[derive(Serialize, ToSchema)]
pub struct RefusedFiles {
    pub error: String,
    pub errors: Vec<String>,
}

/// The refusals a reading route answers, each with the [`ErrorBody`].
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // only described, never built: AppError answers them
pub enum Refusals {
    /// A setting is invalid; the message says which.
    #[response(status = 400)]
    Invalid(ErrorBody),
    /// Not signed in, or the token is unknown, revoked or its account disabled.
    #[response(status = 401)]
    Unauthorized(ErrorBody),
    /// The account's role (at the time of the request) is too low.
    #[response(status = 403)]
    Forbidden(ErrorBody),
    /// No such campaign (or export file).
    #[response(status = 404)]
    NotFound(ErrorBody),
}

/// The document, built once from [`ApiDoc`] and every router's paths.
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        super::described().to_pretty_json().expect("the OpenAPI document serializes")
    })
}
