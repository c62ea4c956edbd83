//! Plain HTTP routes of the campaign stage (not server functions):
//!
//! - `POST /upload/import`: an organizer's upload (a `multipart/form-data` form with the fields
//!   `test_set_name`, `pair` and `file`, or a raw body with the file name in `X-Assay-File-Name`,
//!   the test-set name in `X-Assay-Test-Set` and optionally the pair in `X-Assay-Pair`). The
//!   body is streamed to a temp file, never held in memory; the route has its own body limit
//!   ([`MAX_UPLOAD_BYTES`], set by the server's router). Answers JSON, or for a plain browser
//!   form a redirect back to `/import` with the outcome.
//! - `GET /c/{campaign public id}?sig=…`: a crowd worker's signed campaign link, with the
//!   platform's parameters (Mechanical Turk `workerId`/`assignmentId`/`hitId`/`turkSubmitTo`;
//!   Prolific `PROLIFIC_PID`/`STUDY_ID`/`SESSION_ID`; or `worker` for a plain link). The worker
//!   gets a record without a password when there is work for them, and is redirected to
//!   `/work/{assignment public id}`. Arrivals that claim new work are limited per client
//!   address ([`crate::state::ServerSettings::crowd_claims_per_hour`]), and so are the
//!   assignments of a campaign one address holds with no answer given
//!   ([`crate::state::ServerSettings::crowd_holds_per_address`]; refused with 429 and a page
//!   saying why, in the campaign's language).

use assay_core::i18n::{Lang, Text};
use crate::auth::Role;
use crate::auth::url_escape;
use crate::auth::server::CurrentSession;
use crate::campaign::assign::{Arrival, ClientHolds, Platform, campaign_by_public_id, crowd_arrival};
use crate::signing::verify_link;
use crate::campaign::store::{ImportSummary, save_import_to};
use crate::error::{AppError, AppResult};
use crate::import::{ImportError, ImportOptions, LanguagePair, import_path};
use crate::state::AppState;
use axum::body::{Body, HttpBody};
use axum::extract::{FromRequest, Multipart, Path, Query, Request};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use std::collections::HashMap;
use std::pin::Pin;
use tokio::io::AsyncWriteExt;

/// Largest upload accepted (the server applies it as this route's body limit).
pub const MAX_UPLOAD_BYTES: usize = 512 * 1024 * 1024;

/// The upload route (give it its own body limit: axum's default limit of 2 MB for a form is
/// lifted here, so that a browser's form may send as much as a raw upload).
pub fn upload_routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/upload/import", post(upload_import)).layer(axum::extract::DefaultBodyLimit::disable())
}

/// The crowd-link route.
pub fn crowd_routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/c/{public_id}", get(crowd_link))
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/html"))
}

fn header_text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}


/// An upload's outcome as JSON: the summary, or the errors (file, line, problem). The form (HTML)
/// is sent back to the import page; after an error with what was typed in it (`name`, `pair`),
/// so that only the file must be chosen again.
fn outcome(html: bool, result: Result<ImportSummary, AppError>, typed: Option<(&str, Option<&str>)>) -> Response {
    match (html, result) {
        (true, Ok(s)) => Redirect::to(&format!("/import?done={}", url_escape(&summary_line(&s)))).into_response(),
        (true, Err(e)) => {
            e.log();
            let mut to = format!("/import?error={}", url_escape(&e.problems().join("\n")));
            if let Some((name, pair)) = typed {
                to.push_str(&format!("&name={}", url_escape(name)));
                if let Some(p) = pair {
                    to.push_str(&format!("&pair={}", url_escape(p)));
                }
            }
            Redirect::to(&to).into_response()
        }
        (false, Ok(s)) => Json(serde_json::json!({ "summary": s })).into_response(),
        (false, Err(e)) => {
            // The status is the error's (`AppError::status`); the body lists every problem.
            e.log();
            (e.status(), Json(serde_json::json!({ "errors": e.problems() }))).into_response()
        }
    }
}

/// One line saying what an import stored.
pub fn summary_line(s: &ImportSummary) -> String {
    let sets: Vec<String> = s
        .test_sets
        .iter()
        .map(|t| format!("{} {} ({} segments{})", t.name, t.pair, t.segments, if t.created { "" } else { ", existing" }))
        .collect();
    format!(
        "Imported {}: {} system outputs, {} references; systems new: {}; reused: {}.",
        sets.join(", "),
        s.outputs_added,
        s.references_added,
        if s.systems_created.is_empty() { "none".into() } else { s.systems_created.join(", ") },
        if s.systems_reused.is_empty() { "none".into() } else { s.systems_reused.join(", ") },
    )
}

fn error_lines(errors: &[ImportError]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

/// Writes a body (or a multipart field) into a temp file chunk by chunk.
async fn to_temp_file(original_name: &str) -> AppResult<(tempfile::TempPath, tokio::fs::File)> {
    let lower = original_name.to_ascii_lowercase();
    let suffix = [".tar.gz", ".tgz", ".zip", ".jsonl", ".ndjson", ".json", ".tsv", ".txt"]
        .into_iter()
        .find(|s| lower.ends_with(s))
        .unwrap_or(".upload");
    let tmp = tempfile::Builder::new()
        .prefix("assay-upload-")
        .suffix(suffix)
        .tempfile()
        .map_err(|e| AppError::internal(format!("cannot create a temp file for an upload: {e}")))?;
    let path = tmp.into_temp_path();
    let file = tokio::fs::File::create(&path).await.map_err(write_failed)?;
    Ok((path, file))
}

struct Upload {
    path: tempfile::TempPath,
    file_name: String,
    test_set_name: String,
    pair: Option<String>,
    /// The team the new test sets go to (a team id; empty: the caller's first).
    team: Option<String>,
}

/// The server could not store an upload it was receiving.
fn write_failed(e: std::io::Error) -> AppError {
    AppError::internal(format!("cannot write an upload's temp file: {e}"))
}

/// The upload broke off or passed the body limit.
fn interrupted(e: impl std::fmt::Display) -> AppError {
    AppError::invalid("file", format!("the upload was interrupted or is too large: {e}"))
}

async fn read_raw(headers: &HeaderMap, mut body: Body) -> AppResult<Upload> {
    let file_name = header_text(headers, "x-assay-file-name")
        .ok_or_else(|| AppError::invalid("X-Assay-File-Name", "say the file's name in the X-Assay-File-Name header"))?;
    let test_set_name = header_text(headers, "x-assay-test-set").unwrap_or_default();
    let (path, mut file) = to_temp_file(&file_name).await?;
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(interrupted)?;
        if let Ok(data) = frame.into_data() {
            file.write_all(&data).await.map_err(write_failed)?;
        }
    }
    file.flush().await.map_err(write_failed)?;
    Ok(Upload { path, file_name, test_set_name, pair: header_text(headers, "x-assay-pair"), team: header_text(headers, "x-assay-team") })
}

/// A short text field of a form, read no further than `max_chars` characters could take.
async fn short_text(field: &mut axum::extract::multipart::Field<'_>, what: &str, max_chars: usize) -> AppResult<String> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(|e| AppError::invalid("file", format!("the upload is malformed or too large: {e}")))? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > 4 * max_chars {
            return Err(AppError::invalid("test_set_name", format!("{what} is longer than {max_chars} characters; at most {max_chars} are allowed")));
        }
    }
    String::from_utf8(bytes).map_err(|_| AppError::invalid("test_set_name", format!("{what} is not UTF-8 text")))
}

async fn read_multipart(mut form: Multipart) -> AppResult<Upload> {
    let malformed = |e: axum::extract::multipart::MultipartError| AppError::invalid("file", format!("the upload is malformed or too large: {e}"));
    let mut test_set_name = String::new();
    let mut pair = None;
    let mut team = None;
    let mut stored: Option<(tempfile::TempPath, String)> = None;
    while let Some(mut field) = form.next_field().await.map_err(malformed)? {
        match field.name().unwrap_or("") {
            "test_set_name" => test_set_name = short_text(&mut field, "the test set's name", assay_core::limits::MAX_NAME_CHARS).await?.trim().to_string(),
            "team" => team = Some(short_text(&mut field, "the team", assay_core::limits::MAX_LABEL_CHARS).await?),
            "pair" => pair = Some(short_text(&mut field, "the language pair", assay_core::limits::MAX_LABEL_CHARS).await?.trim().to_string()).filter(|p| !p.is_empty()),
            "file" => {
                let name = field.file_name().unwrap_or("").to_string();
                if name.is_empty() {
                    return Err(AppError::invalid("file", "choose a file to import"));
                }
                let (path, mut file) = to_temp_file(&name).await?;
                while let Some(chunk) = field.chunk().await.map_err(interrupted)? {
                    file.write_all(&chunk).await.map_err(write_failed)?;
                }
                file.flush().await.map_err(write_failed)?;
                stored = Some((path, name));
            }
            _ => {}
        }
    }
    let (path, file_name) = stored.ok_or_else(|| AppError::invalid("file", "choose a file to import"))?;
    Ok(Upload { path, file_name, test_set_name, pair, team })
}

async fn upload_import(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    headers: HeaderMap,
    req: Request,
) -> Response {
    let html = wants_html(&headers);
    let user = session.and_then(|Extension(s)| s.0).map(|s| s.user);
    let user = match user {
        None => return AppError::unauthorized("Please sign in.").into_plain_response(),
        Some(u) if u.role < Role::Organizer => {
            return AppError::forbidden(format!("This needs the {} role.", Role::Organizer.label())).into_plain_response();
        }
        Some(u) => u,
    };
    let is_multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let upload = if is_multipart {
        match Multipart::from_request(req, &()).await {
            Ok(form) => read_multipart(form).await,
            Err(e) => Err(AppError::invalid("file", format!("the upload is not a valid form: {e}"))),
        }
    } else {
        read_raw(&headers, req.into_body()).await
    };
    let upload = match upload {
        Ok(u) => u,
        Err(e) => return outcome(html, Err(e), None),
    };
    // The new test sets' team: the one chosen on the form (one of the caller's), else their first.
    let wanted = match upload.team.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => match t.parse::<i64>() {
            Ok(t) => Some(t),
            Err(_) => return outcome(html, Err(AppError::invalid("team", format!("{t:?} is not a team id"))), None),
        },
    };
    let team = match crate::web::team_for_new(&state.db, &user, wanted).await {
        Ok(t) => t,
        Err(e) => return outcome(html, Err(e), None),
    };
    let typed = Some((upload.test_set_name.as_str(), upload.pair.as_deref()));
    let name = if upload.test_set_name.is_empty() {
        // Default: the file name without its extension.
        upload.file_name.split(['.', '/']).next().unwrap_or("import").to_string()
    } else {
        upload.test_set_name.clone()
    };
    let mut opts = ImportOptions::new(name);
    if let Some(p) = &upload.pair {
        match LanguagePair::parse(p) {
            Ok(pair) => opts.pair = Some(pair),
            Err(e) => return outcome(html, Err(AppError::invalid("pair", format!("language pair: {e}"))), typed),
        }
    }
    let file_name = upload.file_name.clone();
    let (typed_name, typed_pair) = (upload.test_set_name.clone(), upload.pair.clone());
    let typed = Some((typed_name.as_str(), typed_pair.as_deref()));
    let path = upload.path;
    let parsed = tokio::task::spawn_blocking(move || {
        let r = import_path(&path, &file_name, &opts);
        drop(path);
        r
    })
    .await;
    let bundle = match parsed {
        Ok(Ok(b)) => b,
        Ok(Err(errors)) => return outcome(html, Err(AppError::rejected(error_lines(&errors))), typed),
        Err(e) => return outcome(html, Err(AppError::internal(format!("the import task failed: {e}"))), typed),
    };
    outcome(html, save_import_to(&state.db, &bundle, team).await, typed)
}

/// One of the crowd link's pages in the campaign's interface language (issue 18 item 3).
fn crowd_page(lang: Lang, status: StatusCode, title: Text, text: Text) -> Response {
    page_in(lang, status, lang.text(title), lang.text(text))
}

fn page_in(lang: Lang, status: StatusCode, title: &str, text: &str) -> Response {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    (
        status,
        Html(format!(
            "<!DOCTYPE html><html lang=\"{l}\" dir=\"{d}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{t}</title><link rel=\"stylesheet\" href=\"/assay.css\"></head><body><main><section class=\"card narrow\"><h1>{t}</h1><p id=\"crowd-message\">{x}</p></section></main></body></html>",
            t = esc(title),
            x = esc(text),
            l = lang.tag(),
            d = lang.dir(),
        )),
    )
        .into_response()
}

/// Crowd-link arrivals claiming new work, per client address, counted in memory.
type ClaimLimiter = governor::RateLimiter<
    std::net::IpAddr,
    governor::state::keyed::HashMapStateStore<std::net::IpAddr>,
    governor::clock::DefaultClock,
>;
static CLAIM_LIMITER: std::sync::OnceLock<ClaimLimiter> = std::sync::OnceLock::new();
static CLAIM_CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts a claim of new work from `address` against `per_hour` (a burst of `per_hour`, then
/// one more every hour / `per_hour`); whether it is allowed. Without an address (no connection
/// information) nothing is counted.
fn claim_allowed(address: Option<std::net::IpAddr>, per_hour: u32) -> bool {
    let Some(ip) = address else { return true };
    let per_hour = std::num::NonZeroU32::new(per_hour).unwrap_or(std::num::NonZeroU32::MIN);
    let limiter = CLAIM_LIMITER.get_or_init(|| ClaimLimiter::hashmap(governor::Quota::per_hour(per_hour)));
    if CLAIM_CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 1024 == 1023 {
        limiter.retain_recent();
        limiter.shrink_to_fit();
    }
    limiter.check_key(&ip).is_ok()
}

async fn crowd_link(
    Extension(state): Extension<AppState>,
    connection: Option<Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
    Path(public_id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let accept_language = header_text(&headers, "accept-language");
    let sig = q.get("sig").map(String::as_str).unwrap_or("");
    // Before the campaign is known, the browser's language (else English).
    let browser = accept_language.as_deref().and_then(Lang::from_accept_language).unwrap_or_default();
    if !verify_link(&state.secret, &public_id, sig) {
        return crowd_page(browser, StatusCode::FORBIDDEN, Text::LinkInvalidTitle, Text::LinkInvalid);
    }
    let campaign = match campaign_by_public_id(&state.db, &public_id).await {
        Ok(Some(id)) => id,
        Ok(None) => return crowd_page(browser, StatusCode::NOT_FOUND, Text::CampaignGoneTitle, Text::CampaignGone),
        Err(e) => {
            tracing::error!("crowd link: {e}");
            return crowd_page(browser, StatusCode::INTERNAL_SERVER_ERROR, Text::CrowdErrorTitle, Text::CrowdError);
        }
    };
    let get = |k: &str| q.get(k).map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    // The interface language, read only for a page that needs it (not for a redirect to work).
    let lang = || crate::campaign::preview::interface_lang(&state.db, campaign, accept_language.as_deref());
    // Mechanical Turk shows a preview before the worker accepts the HIT: the instructions and a
    // sample item, read-only.
    if get("assignmentId").as_deref() == Some("ASSIGNMENT_ID_NOT_AVAILABLE") {
        return match crate::campaign::preview::preview_html(&state.db, campaign, accept_language.as_deref()).await {
            Ok(Some(html)) => (StatusCode::OK, Html(html)).into_response(),
            Ok(None) => crowd_page(lang().await, StatusCode::NOT_FOUND, Text::CampaignGoneTitle, Text::CampaignGone),
            Err(e) => {
                e.log();
                crowd_page(lang().await, StatusCode::INTERNAL_SERVER_ERROR, Text::CrowdErrorTitle, Text::CrowdError)
            }
        };
    }
    let (platform, worker, keys): (Platform, Option<String>, &[&str]) = if let Some(w) = get("workerId") {
        (Platform::MTurk, Some(w), &["assignmentId", "hitId", "turkSubmitTo"])
    } else if let Some(w) = get("PROLIFIC_PID") {
        (Platform::Prolific, Some(w), &["STUDY_ID", "SESSION_ID"])
    } else {
        (Platform::Link, get("worker"), &[])
    };
    let Some(worker) = worker else {
        return crowd_page(lang().await, StatusCode::BAD_REQUEST, Text::NoWorkerIdTitle, Text::NoWorkerId);
    };
    // The parameters kept with the assignment: one line each, of bounded length.
    for key in keys {
        let max = if *key == "turkSubmitTo" { assay_core::limits::MAX_PLATFORM_URL_CHARS } else { assay_core::limits::MAX_PLATFORM_ID_CHARS };
        if let Some(value) = get(key)
            && let Err(problem) = assay_core::limits::check_line(&value, max)
        {
            // The problem itself is technical (for the platform's operator), in English.
            let ui = lang().await;
            return page_in(ui, StatusCode::BAD_REQUEST, ui.text(Text::LinkInvalidTitle), &format!("{} ({key} {problem})", ui.text(Text::LinkInvalid)));
        }
    }
    let params = crowd_params(platform, keys.iter().filter_map(|k| get(k).map(|v| (k.to_string(), v))));
    let address = connection.map(|Extension(c)| c.0.ip());
    let per_hour = state.settings.crowd_claims_per_hour;
    let client = address.map(|ip| ClientHolds {
        tag: crate::signing::client_tag(&state.secret, &ip.to_string()),
        max_unstarted: i64::from(state.settings.crowd_holds_per_address),
    });
    match crowd_arrival(&state.db, campaign, platform, &worker, params, client.as_ref(), || claim_allowed(address, per_hour)).await {
        // An arrival resumes only its own platform session's HIT (MTurk's assignmentId,
        // Prolific's SESSION_ID): knowing a worker's id is not enough to take over their HIT
        // and its completion code, and another session of the id gets work of its own.
        Ok(Arrival::Work(a)) => Redirect::to(&format!("/work/{}", a.public_id)).into_response(),
        Ok(Arrival::NoWork) => crowd_page(lang().await, StatusCode::OK, Text::CrowdNoWorkTitle, Text::CrowdNoWork),
        Ok(Arrival::TooMany) => {
            let mut r = crowd_page(lang().await, StatusCode::TOO_MANY_REQUESTS, Text::CrowdTooManyTitle, Text::CrowdTooMany);
            r.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("600"));
            r
        }
        Ok(Arrival::HoldsFull) => {
            let mut r = crowd_page(lang().await, StatusCode::TOO_MANY_REQUESTS, Text::CrowdHoldsFullTitle, Text::CrowdHoldsFull);
            let seconds = crate::campaign::assign::RESERVATION_MINUTES * 60;
            r.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
            r
        }
        Err(e @ AppError::Invalid { .. }) => {
            e.log();
            let ui = lang().await;
            page_in(ui, e.status(), ui.text(Text::NoWorkerIdTitle), &e.public_message())
        }
        Err(AppError::Conflict(_)) => {
            crowd_page(lang().await, StatusCode::SERVICE_UNAVAILABLE, Text::CrowdBusyTitle, Text::CrowdBusy)
        }
        Err(e) => {
            e.log();
            crowd_page(lang().await, e.status(), Text::CrowdErrorTitle, Text::CrowdError)
        }
    }
}

/// Prolific's address for returning a worker with a completion code (`{code}` is replaced).
pub const PROLIFIC_RETURN_URL: &str = "https://app.prolific.com/submissions/complete?cc={code}";

/// What an assignment remembers of the crowd platform: its parameters, and for Prolific the
/// address the completion page sends the worker back to (the annotation stage reads
/// `return_url`; for Mechanical Turk it builds the address from `turkSubmitTo`).
pub fn crowd_params(platform: Platform, given: impl Iterator<Item = (String, String)>) -> Option<serde_json::Value> {
    let mut params: serde_json::Map<String, serde_json::Value> =
        given.map(|(k, v)| (k, serde_json::Value::String(v))).collect();
    if platform == Platform::Prolific {
        params.insert("return_url".into(), serde_json::Value::String(PROLIFIC_RETURN_URL.into()));
    }
    (!params.is_empty()).then_some(serde_json::Value::Object(params))
}

#[cfg(test)]
mod crowd_param_tests {
    use super::*;
    use crate::campaign::assign::return_url;

    #[test]
    fn every_platform_gets_its_return_address_on_the_completion_page() {
        let prolific = crowd_params(Platform::Prolific, [("STUDY_ID".to_string(), "S1".to_string())].into_iter()).unwrap();
        assert_eq!(
            return_url(&prolific.to_string(), "AB12C-XY").as_deref(),
            Some("https://app.prolific.com/submissions/complete?cc=AB12C-XY")
        );
        let mturk = crowd_params(
            Platform::MTurk,
            [
                ("assignmentId".to_string(), "A 1".to_string()),
                ("turkSubmitTo".to_string(), "https://workersandbox.mturk.com".to_string()),
            ]
            .into_iter(),
        )
        .unwrap();
        assert_eq!(
            return_url(&mturk.to_string(), "C").as_deref(),
            Some("https://workersandbox.mturk.com/mturk/externalSubmit?assignmentId=A%201&completion_code=C")
        );
        assert_eq!(crowd_params(Platform::Link, std::iter::empty()), None);
        // A crafted link cannot send the completion code to another site.
        let evil = crowd_params(
            Platform::MTurk,
            [
                ("assignmentId".to_string(), "A1".to_string()),
                ("turkSubmitTo".to_string(), "https://evil.example".to_string()),
            ]
            .into_iter(),
        )
        .unwrap();
        assert_eq!(return_url(&evil.to_string(), "C"), None);
        let production = crowd_params(
            Platform::MTurk,
            [("assignmentId".to_string(), "A1".to_string()), ("turkSubmitTo".to_string(), "https://www.mturk.com/".to_string())]
                .into_iter(),
        )
        .unwrap();
        assert_eq!(
            return_url(&production.to_string(), "C").as_deref(),
            Some("https://www.mturk.com/mturk/externalSubmit?assignmentId=A1&completion_code=C")
        );
    }
}
