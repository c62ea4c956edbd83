//! The server side's one error type, and the one place it becomes an HTTP answer.
//!
//! Domain functions return [`AppResult`]; the kind of failure says what the caller did wrong
//! (or that the server failed), never the text of a message:
//!
//! | variant          | status | what the caller reads                                        |
//! |------------------|--------|--------------------------------------------------------------|
//! | `NotFound`       | 404    | the message                                                  |
//! | `Unauthorized`   | 401    | the message                                                  |
//! | `Forbidden`      | 403    | the message                                                  |
//! | `Invalid`        | 400    | the problem (the field is for logs, forms and tests)         |
//! | `Rejected`       | 400    | every problem found (an upload's lines), one a line          |
//! | `TooLarge`       | 413    | the message                                                  |
//! | `Conflict`       | 409    | the message                                                  |
//! | `Gone`           | 410    | the message                                                  |
//! | `Busy`           | 429    | the message; `Retry-After` says when to come back            |
//! | `Storage`        | 500    | [`SERVER_FAULT`]; the context and the database error are logged |
//! | `Internal`       | 500    | [`SERVER_FAULT`]; the message is logged                      |
//!
//! Two mappings, side by side below, one rule: `IntoResponse` for axum routes (the status and
//! `{"error": "…"}`), and `From<AppError> for ServerFnError` for server functions (the status
//! is set on the response, the message is the error's text), so `?` in a server function
//! answers with the right status. `AppError` deliberately does not implement
//! `std::error::Error`: Leptos converts any `Error` into a `ServerFnError` without a status,
//! and that conversion must not be the one `?` picks.
//!
//! A database error becomes an `AppError` only with a context ([`StorageContext::context`]):
//! `query.fetch_one(&db.pool).await.context("reading campaign 3")?`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use leptos::prelude::ServerFnError;
use std::fmt;

/// What users read when the server failed (the details are in the log).
pub const SERVER_FAULT: &str = "Something went wrong on the server; it has been logged.";

/// What a server function answers (400) when its arguments cannot be read: missing, repeated,
/// of the wrong type or not decodable. The decoder's own text (serde's field and type names)
/// is not shown to callers.
pub const MALFORMED_ARGUMENTS: &str = "The request's arguments are missing or malformed.";

/// What a server function answers (413) when its body is over the limit.
pub const BODY_TOO_LARGE: &str = "The request body is too large.";

/// A failure of a request, by kind.
#[derive(Debug)]
pub enum AppError {
    /// The thing asked for does not exist (an unknown campaign, assignment, file).
    NotFound(String),
    /// Nobody is signed in, or the credentials are not valid.
    Unauthorized(String),
    /// The caller is known but may not do this.
    Forbidden(String),
    /// The input is wrong: `field` names what was wrong (for logs and tests), `problem` is the
    /// sentence users read.
    Invalid { field: String, problem: String },
    /// Input refused as a whole, with every problem found in it (an upload's file and line
    /// problems); nothing was stored.
    Rejected { problems: Vec<String> },
    /// The request (its body, an uploaded file) is over its limit.
    TooLarge(String),
    /// The request collides with the current state (a retry with another answer, a race).
    Conflict(String),
    /// The thing existed but is no longer available (a finished or expired assignment).
    Gone(String),
    /// Too much is asked at once (of the server, or by one client): come back in
    /// `retry_after_seconds` (the `Retry-After` header).
    Busy { message: String, retry_after_seconds: u64 },
    /// The database failed; `context` says what the server was doing.
    Storage { context: String, source: sqlx::Error },
    /// Anything else that is the server's fault (a broken invariant, a file that cannot be written).
    Internal(String),
}

/// The result of anything that can fail on the server side.
pub type AppResult<T> = Result<T, AppError>;

/// An [`AppError`] as the error of a body streamed in chunks (a judgment file, an archive): an
/// HTTP body stream's error must be a `std::error::Error`, which `AppError` deliberately is not.
/// A stream ends with at most one; whoever writes the chunks elsewhere (a file, an archive) gets
/// the `AppError` back, its kind kept.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StreamError(pub AppError);

impl From<AppError> for StreamError {
    fn from(e: AppError) -> StreamError {
        StreamError(e)
    }
}

impl From<StreamError> for AppError {
    fn from(e: StreamError) -> AppError {
        e.0
    }
}

impl AppError {
    pub fn not_found(message: impl Into<String>) -> Self {
        AppError::NotFound(message.into())
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        AppError::Forbidden(message.into())
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        AppError::Unauthorized(message.into())
    }

    /// Wrong input: `field` names the input (a form field, an argument, a query parameter).
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        AppError::Invalid { field: field.into(), problem: problem.into() }
    }

    /// Input refused with every problem found in it (400).
    pub fn rejected(problems: Vec<String>) -> Self {
        AppError::Rejected { problems }
    }

    /// Over a limit (413).
    pub fn too_large(message: impl Into<String>) -> Self {
        AppError::TooLarge(message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        AppError::Conflict(message.into())
    }

    pub fn gone(message: impl Into<String>) -> Self {
        AppError::Gone(message.into())
    }

    /// Too much at once: 429, come back in `retry_after_seconds` (at least one).
    pub fn busy(message: impl Into<String>, retry_after_seconds: u64) -> Self {
        AppError::Busy { message: message.into(), retry_after_seconds: retry_after_seconds.max(1) }
    }

    /// When a refusal says to come back (the `Retry-After` header), if it does.
    pub fn retry_after_seconds(&self) -> Option<u64> {
        match self {
            AppError::Busy { retry_after_seconds, .. } => Some(*retry_after_seconds),
            _ => None,
        }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        AppError::Internal(message.into())
    }

    /// A database failure while doing `context` (say what: "reading campaign 3").
    pub fn storage(context: impl Into<String>, source: sqlx::Error) -> Self {
        AppError::Storage { context: context.into(), source }
    }

    /// The HTTP status of this kind of failure.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::Invalid { .. } | AppError::Rejected { .. } => StatusCode::BAD_REQUEST,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Gone(_) => StatusCode::GONE,
            AppError::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Storage { .. } | AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Whether this is the server's fault (logged, and hidden from the caller).
    pub fn is_server_fault(&self) -> bool {
        matches!(self, AppError::Storage { .. } | AppError::Internal(_))
    }

    /// What the caller reads: the message of a refusal, [`SERVER_FAULT`] for a failure.
    pub fn public_message(&self) -> String {
        if self.is_server_fault() { SERVER_FAULT.to_string() } else { self.to_string() }
    }

    /// Logs a server fault with its context and cause; refusals are not logged.
    pub fn log(&self) {
        match self {
            AppError::Storage { context, source } => tracing::error!(error = %source, "storage error while {context}"),
            AppError::Internal(message) => tracing::error!("internal error: {message}"),
            _ => {}
        }
    }

    /// An unknown thing named by an argument of a call (a server function's `campaign_id`) is
    /// wrong input in that argument: 400, with the same message. Server functions that have
    /// always answered an unknown id with 400 keep doing so; routes that name the thing in
    /// their path answer 404.
    pub fn in_argument(self, field: &str) -> Self {
        match self {
            AppError::NotFound(problem) => AppError::Invalid { field: field.into(), problem },
            other => other,
        }
    }

    /// A refusal about one of several things, named: "arm B: the test set has no reference"
    /// (the kind is kept; a server fault is left as it is, its context says enough).
    pub fn prefixed(self, label: &str) -> Self {
        match self {
            AppError::NotFound(m) => AppError::NotFound(format!("{label}: {m}")),
            AppError::Unauthorized(m) => AppError::Unauthorized(format!("{label}: {m}")),
            AppError::Forbidden(m) => AppError::Forbidden(format!("{label}: {m}")),
            AppError::Invalid { field, problem } => AppError::Invalid { field, problem: format!("{label}: {problem}") },
            AppError::Rejected { problems } => AppError::Rejected { problems: problems.into_iter().map(|p| format!("{label}: {p}")).collect() },
            AppError::TooLarge(m) => AppError::TooLarge(format!("{label}: {m}")),
            AppError::Conflict(m) => AppError::Conflict(format!("{label}: {m}")),
            AppError::Gone(m) => AppError::Gone(format!("{label}: {m}")),
            AppError::Busy { message, retry_after_seconds } => AppError::Busy { message: format!("{label}: {message}"), retry_after_seconds },
            fault @ (AppError::Storage { .. } | AppError::Internal(_)) => fault,
        }
    }

    /// The message, for callers outside HTTP (the command line, tests): what users would read
    /// for a refusal, the context and cause for a failure.
    pub fn into_message(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::NotFound(m)
            | AppError::Unauthorized(m)
            | AppError::Forbidden(m)
            | AppError::Conflict(m)
            | AppError::Gone(m)
            | AppError::TooLarge(m)
            | AppError::Internal(m) => f.write_str(m),
            AppError::Rejected { problems } => f.write_str(&problems.join("\n")),
            AppError::Invalid { problem, .. } | AppError::Busy { message: problem, .. } => f.write_str(problem),
            AppError::Storage { context, source } => write!(f, "database error while {context}: {source}"),
        }
    }
}

/// A computed file that could not be written (an export, a download) is the server's fault.
impl From<assay_core::analysis::bundle::SinkError> for AppError {
    fn from(e: assay_core::analysis::bundle::SinkError) -> Self {
        AppError::Internal(e.to_string())
    }
}

/// Attaches what the server was doing to a database error.
pub trait StorageContext<T> {
    /// `….await.context("reading campaign 3")?`
    fn context(self, what: impl Into<String>) -> AppResult<T>;
    /// Like [`context`](StorageContext::context), formatting the context only on failure.
    fn with_context(self, what: impl FnOnce() -> String) -> AppResult<T>;
}

impl<T> StorageContext<T> for Result<T, sqlx::Error> {
    fn context(self, what: impl Into<String>) -> AppResult<T> {
        self.map_err(|e| AppError::storage(what, e))
    }

    fn with_context(self, what: impl FnOnce() -> String) -> AppResult<T> {
        self.map_err(|e| AppError::storage(what(), e))
    }
}

/// Sets the status of the current response (in a server function; outside a request, nothing).
pub fn set_status(status: http::StatusCode) {
    if let Some(res) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
        res.set_status(status);
    }
}

/// Sets the `Retry-After` header of the current response, in seconds (in a server function).
pub fn set_retry_after(seconds: u64) {
    if let Some(res) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
        res.insert_header(axum::http::header::RETRY_AFTER, seconds.into());
    }
}

/// Axum routes: the status and `{"error": "…"}`; a server fault is logged first.
impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        self.log();
        let mut response = (self.status(), Json(serde_json::json!({ "error": self.public_message() }))).into_response();
        if let Some(seconds) = self.retry_after_seconds() {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

impl AppError {
    /// A plain-text answer (a refusal before any route, where the client reads text): the
    /// status and the message; a server fault is logged first.
    pub fn into_plain_response(self) -> Response {
        self.log();
        (self.status(), self.public_message()).into_response()
    }

    /// What the caller reads, as a list: every problem of a [`Rejected`](AppError::Rejected)
    /// input, else the one [`public_message`](AppError::public_message).
    pub fn problems(&self) -> Vec<String> {
        match self {
            AppError::Rejected { problems } => problems.clone(),
            other => vec![other.public_message()],
        }
    }

    /// An upload's answer: the status and `{"error": "…", "errors": ["…", …]}`, every problem
    /// of a [`Rejected`](AppError::Rejected) input one item of `errors` (one item for any other
    /// kind); a server fault is logged first.
    pub fn into_listing_response(self) -> Response {
        self.log();
        let errors = self.problems();
        let mut response = (self.status(), Json(serde_json::json!({ "error": errors.join("\n"), "errors": errors }))).into_response();
        if let Some(seconds) = self.retry_after_seconds() {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// Server functions: sets the status of the response and carries the message; a server fault
/// is logged first. `?` on an [`AppResult`] in a server function goes through here.
impl From<AppError> for ServerFnError {
    fn from(e: AppError) -> Self {
        e.log();
        set_status(e.status());
        if let Some(seconds) = e.retry_after_seconds() {
            set_retry_after(seconds);
        }
        ServerFnError::new(e.public_message())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn every_kind() -> Vec<(AppError, u16, &'static str)> {
        vec![
            (AppError::not_found("there is no campaign with id 9"), 404, "there is no campaign with id 9"),
            (AppError::unauthorized("Please sign in."), 401, "Please sign in."),
            (AppError::forbidden("This needs the Organizer role."), 403, "This needs the Organizer role."),
            (AppError::invalid("filter", "filter must be raw or cleaned"), 400, "filter must be raw or cleaned"),
            (AppError::conflict("already answered"), 409, "already answered"),
            (AppError::rejected(vec!["gold.tsv, line 2: no order".into(), "gold.tsv, line 3: no order".into()]), 400, "gold.tsv, line 2: no order\ngold.tsv, line 3: no order"),
            (AppError::too_large("The request body is too large."), 413, "The request body is too large."),
            (AppError::gone("this assignment has expired"), 410, "this assignment has expired"),
            (AppError::busy("busy checking passwords", 2), 429, "busy checking passwords"),
            (AppError::storage("reading campaign 9", sqlx::Error::PoolClosed), 500, SERVER_FAULT),
            (AppError::internal("cannot create a temp file: disk full"), 500, SERVER_FAULT),
        ]
    }

    async fn body_of(r: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 20).await.expect("body");
        serde_json::from_slice(&bytes).expect("a JSON body")
    }

    #[tokio::test]
    async fn every_kind_has_its_status_and_a_json_body() {
        for (e, status, message) in every_kind() {
            let r = e.into_response();
            assert_eq!(r.status().as_u16(), status);
            assert_eq!(r.headers()["content-type"], "application/json");
            assert_eq!(r.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string()), (status == 429).then(|| "2".to_string()));
            assert_eq!(body_of(r).await, serde_json::json!({ "error": message }));
        }
    }

    /// A `tracing` writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn logged(f: impl FnOnce()) -> String {
        let out = Captured::default();
        let writer = out.clone();
        let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || writer.clone()).finish();
        tracing::subscriber::with_default(subscriber, f);
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[tokio::test]
    async fn a_storage_error_is_logged_with_its_context_and_answered_briefly() {
        let mut response = None;
        let log = logged(|| response = Some(AppError::storage("reading campaign 9", sqlx::Error::PoolClosed).into_response()));
        assert!(log.contains("ERROR") && log.contains("reading campaign 9") && log.contains("closed"), "{log}");
        let body = body_of(response.unwrap()).await;
        assert_eq!(body["error"], SERVER_FAULT, "no database text reaches the caller");

        let log = logged(|| drop(AppError::internal("cannot create a temp file: disk full").into_response()));
        assert!(log.contains("ERROR") && log.contains("disk full"), "{log}");
        // Refusals are the caller's business: not logged.
        assert_eq!(logged(|| drop(AppError::not_found("no such thing").into_response())), "");
    }

    #[test]
    fn server_functions_get_the_same_status_and_message() {
        use leptos::prelude::{Owner, provide_context};
        for (e, status, message) in every_kind() {
            let owner = Owner::new();
            let (got_status, text) = owner.with(|| {
                let response = leptos_axum::ResponseOptions::default();
                provide_context(response.clone());
                let e: ServerFnError = e.into();
                let status = response.0.read().unwrap().status;
                let text = match &e {
                    ServerFnError::ServerError(m) => m.clone(),
                    other => other.to_string(),
                };
                (status, text)
            });
            assert_eq!(got_status.map(|s| s.as_u16()), Some(status));
            assert_eq!(text, message);
        }
    }

    #[test]
    fn an_unknown_argument_is_wrong_input() {
        let e = AppError::not_found("there is no campaign with id 9").in_argument("campaign_id");
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
        assert_eq!(e.to_string(), "there is no campaign with id 9");
        assert!(matches!(AppError::storage("x", sqlx::Error::PoolClosed).in_argument("campaign_id"), AppError::Storage { .. }));
    }

    #[test]
    fn storage_context_is_attached() {
        let r: Result<(), sqlx::Error> = Err(sqlx::Error::RowNotFound);
        let e = r.context("reading campaign 3").unwrap_err();
        assert!(matches!(&e, AppError::Storage { context, .. } if context == "reading campaign 3"));
        assert!(e.to_string().starts_with("database error while reading campaign 3: "), "{e}");
    }
}
