//! The HTTP side: routes, static files, middleware, and the listening loop.

use crate::error::{CliError, CliResult};
use crate::caching;
use crate::config::Config;
use crate::demo;
use app::auth::server::{resolve_session, verify_origin};
use app::state::AppState;
use app::ui::BrowserBundle;
use app::{App, shell};
use axum::http::{Extensions, HeaderMap, HeaderName, HeaderValue, StatusCode, Version, header};
use axum::handler::Handler;
use axum::routing::get;
use axum::{Extension, Router, middleware};
use leptos::prelude::LeptosOptions;
use leptos_axum::{LeptosRoutes, generate_route_list};
use std::net::SocketAddr;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

/// Largest request body accepted by ordinary routes (uploads get their own, larger limit).
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// Builds the whole application router around the given state.
pub fn build(state: AppState, options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    let https = state.settings.https();
    let router = Router::new()
        .route("/health", get(|| async { "ok" }))
        .leptos_routes(&options, routes, {
            let options = options.clone();
            move || shell(options.clone())
        })
        .merge(app::campaign::http::crowd_routes())
        .merge(app::study::export::routes())
        .merge(app::api::routes())
        // The site's files (the browser bundles under pkg/, the stylesheet) are served by
        // tower-http alone; any other path gets the app's not-found page from Leptos's
        // file-and-error handler (which finds no file there either). That handler is not used
        // for the files themselves: it applies the `ResponseOptions` it finds from a fresh
        // `Owner::new()`, a child of whatever owner the worker thread last set, and every page
        // render sets its own (`Owner::new_root`). A file served while another request's page
        // was rendering on the same thread took that page's status: with a not-found page in
        // flight (the favicon.ico browsers ask for at load), a bundle's .js or .wasm came back
        // 404 with its whole body, about one time in ten under concurrency, and the page never
        // hydrated.
        //
        // Under the hashed names the pages give them (`app::ui::assets`), kept for good by
        // browsers; under their plain names, revalidated (`caching::site_file`).
        .fallback({
            let files = ServeDir::new(&*options.site_root)
                .precompressed_gzip()
                .precompressed_br()
                // As before: a folder is not a page, and methods other than GET and HEAD get
                // the app's answer, not 405.
                .append_index_html_on_directories(false)
                .call_fallback_on_method_not_allowed(true)
                .fallback(leptos_axum::file_and_error_handler(shell).with_state(options.clone()));
            let site_root: std::sync::Arc<str> = options.site_root.to_string().into();
            move |req: axum::extract::Request| caching::site_file(files, site_root, req)
        })
        .with_state(options)
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        // Uploads stream to a temp file under their own, larger limit.
        .merge(app::campaign::http::upload_routes().layer(RequestBodyLimitLayer::new(app::campaign::http::MAX_UPLOAD_BYTES)))
        .merge(app::api::metric_upload::routes().layer(RequestBodyLimitLayer::new(app::api::metric_upload::MAX_METRIC_UPLOAD_BYTES)))
        .merge(app::api::gold_upload::routes().layer(RequestBodyLimitLayer::new(app::api::gold_upload::MAX_GOLD_UPLOAD_BYTES)))
        // Inside `resolve_session`: the pages that need an account are answered 401 without
        // one, a campaign's page another team's account cannot see 404, before rendering.
        .layer(middleware::from_fn(app::ui::gate::page_gate))
        .layer(middleware::from_fn(malformed_requests_are_client_errors))
        .layer(middleware::from_fn(nul_characters_are_refused))
        .layer(middleware::from_fn(resolve_session))
        .layer(middleware::from_fn(verify_origin))
        .layer(Extension(state))
        // What the annotation screens keep in memory: one per server process.
        .layer(Extension(std::sync::Arc::new(app::annotate::server::Work::default())))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(middleware::from_fn(framing_policy))
        .layer(SetResponseHeaderLayer::overriding(header::REFERRER_POLICY, HeaderValue::from_static("same-origin")))
        .layer(SetResponseHeaderLayer::if_not_present(
            HeaderName::from_static("cache-control"),
            HeaderValue::from_static("no-store"),
        ))
        // Pages revalidated by their ETag (outside the layers above: a 304 carries no policy,
        // and the browser keeps the one stored with its copy of the page).
        .layer(middleware::from_fn(caching::revalidated_pages))
        // Pages compressed (brotli or gzip, as the browser accepts): a crowd worker's HIT page
        // is 35 KB of HTML, 0.2 s on the slow phone network. Only pages: the bundles are
        // compressed ahead (above), the exports stream their own bytes.
        .layer(CompressionLayer::new().compress_when(|_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions| {
            headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"))
        }));
    // Served over HTTPS (the configured public URL says so), browsers are told to use nothing
    // else for a year; over plain HTTP nothing is said (browsers ignore the header there, and it
    // would lock out a server that later drops TLS).
    if https {
        router.layer(SetResponseHeaderLayer::overriding(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static("max-age=31536000")))
    } else {
        router
    }
}

/// Leptos answers a server-function request whose arguments cannot be read (a missing or
/// repeated field, a wrong type, bytes that are not UTF-8, JSON that does not parse) with 500
/// and the error as `Args|…`, `Deserialization|…` or `Request|…` (the kind of its
/// `ServerFnErrorErr`), whose text is the decoder's (``missing field `password` ``, serde's type
/// names, byte offsets). Those are the client's mistakes: [`AppError::Invalid`] (400) with a
/// short message of our own, encoded as every other refusal of a server function
/// (`ServerError|…`, which the pages' client decodes); the decoder's text is dropped (it can
/// quote the values sent). A body over the limit never gets here: [`nul_characters_are_refused`]
/// refuses it first ([`AppError::TooLarge`], 413). The status is `AppError`'s; only the kind
/// leptos encodes before its `|` is read, never the message.
async fn malformed_requests_are_client_errors(req: axum::extract::Request, next: middleware::Next) -> axum::response::Response {
    use app::error::AppError;
    use axum::http::StatusCode;
    let res = next.run(req).await;
    if res.status() != StatusCode::INTERNAL_SERVER_ERROR || !res.headers().contains_key("serverfnerror") {
        return res;
    }
    let (mut parts, mut body) = res.into_parts();
    // The kind is in the first bytes; the decoder's text after it can quote the whole request
    // (a JSON string of 100 KB in a `Deserialization|invalid type: string "…"`), so only
    // what is needed to tell the kind is read before deciding.
    let head = read_at_least(&mut body, 256).await;
    let kind = head.split(|&b| b == b'|').next().unwrap_or_default();
    let refusal = if [&b"Args"[..], b"Deserialization", b"Request"].contains(&kind) {
        AppError::invalid("arguments", app::error::MALFORMED_ARGUMENTS)
    } else {
        // Any other server-function error is Assay's own short message: passed on whole.
        let Ok(rest) = axum::body::to_bytes(body, 64 * 1024).await else {
            return AppError::internal("a server function's answer could not be read").into_plain_response();
        };
        let whole = [head.as_slice(), rest.as_ref()].concat();
        return axum::response::Response::from_parts(parts, axum::body::Body::from(whole));
    };
    // Not the decoder's text: it can quote the values sent (a password given as a number).
    tracing::debug!(kind = %String::from_utf8_lossy(kind), "refused a server-function request: {refusal}");
    parts.status = refusal.status();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    axum::response::Response::from_parts(parts, axum::body::Body::from(format!("ServerError|{}", refusal.public_message())))
}

/// Reads a response body until at least `want` bytes (or its end) have come.
async fn read_at_least(body: &mut axum::body::Body, want: usize) -> Vec<u8> {
    use axum::body::HttpBody;
    let mut head = Vec::new();
    while head.len() < want {
        match std::future::poll_fn(|cx| std::pin::Pin::new(&mut *body).poll_frame(cx)).await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    head.extend_from_slice(&data);
                }
            }
            _ => break,
        }
    }
    head
}

/// No text Assay stores may contain a NUL character, and PostgreSQL refuses one in any string
/// (a server error where SQLite would store it): a server-function request carrying one — raw,
/// `%00` in a form or query, `\u0000` in JSON — is a 400 before any handler sees it.
async fn nul_characters_are_refused(req: axum::extract::Request, next: middleware::Next) -> axum::response::Response {
    use app::error::AppError;
    if !req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let refused = || AppError::invalid("body", "Text may not contain NUL characters.").into_plain_response();
    if req.uri().query().is_some_and(|q| q.to_ascii_lowercase().contains("%00")) {
        return refused();
    }
    let too_large = || AppError::too_large(app::error::BODY_TOO_LARGE).into_plain_response();
    let declared = req.headers().get(axum::http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        // Refused on the headers, before the body arrives.
        return too_large();
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY_BYTES).await else {
        return too_large();
    };
    let nul = bytes.contains(&0)
        || bytes.windows(3).any(|w| w.eq_ignore_ascii_case(b"%00"))
        || bytes.windows(6).any(|w| w.eq_ignore_ascii_case(b"\\u0000"));
    if nul {
        return refused();
    }
    next.run(axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// Pages may not be framed by other sites (clickjacking), except the crowd worker's pages,
/// which Mechanical Turk shows inside a frame of its own (an ExternalQuestion HIT). The
/// `frame-ancestors` directive is added to the policy a page set for its scripts
/// (`app::web::content_security_policy`), or is the whole policy of any other answer.
async fn framing_policy(req: axum::extract::Request, next: middleware::Next) -> axum::response::Response {
    let crowd_page = {
        let path = req.uri().path();
        path.starts_with("/work/") || path.starts_with("/c/")
    };
    let mut res = next.run(req).await;
    let headers = res.headers_mut();
    let frame_ancestors = if crowd_page {
        "frame-ancestors 'self' https://www.mturk.com https://workersandbox.mturk.com"
    } else {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        "frame-ancestors 'none'"
    };
    let policy = match headers.get(header::CONTENT_SECURITY_POLICY).and_then(|v| v.to_str().ok()) {
        Some(page) if !page.contains("frame-ancestors") => format!("{page}; {frame_ancestors}"),
        _ => frame_ancestors.to_string(),
    };
    if let Ok(value) = HeaderValue::from_str(&policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
    res
}

/// `assay serve`: open the database, seed the demo if asked, listen until Ctrl-C or SIGTERM.
pub async fn serve(config: Config, demo: bool) -> CliResult<()> {
    let addr: SocketAddr = config.bind.parse().map_err(|e| CliError::usage(format!("--bind {:?}: {e}", config.bind)))?;
    let state = config.open_state().await?;
    let public_url = config.public_url();
    if demo {
        demo::seed(&state, &public_url).await?;
    }
    let site = std::path::Path::new(&config.site_root);
    let missing: Vec<String> = BrowserBundle::ALL
        .iter()
        .map(|b| b.file_stem())
        .filter(|stem| !site.join("pkg").join(format!("{stem}.js")).exists())
        .collect();
    let all_pages = site.join("pkg").join(format!("{}_bg.wasm", app::ui::ALL_PAGES_STEM)).exists();
    if !missing.is_empty() && all_pages {
        tracing::info!(
            "the bundle with every page serves the pages of {} until they are built into {}/pkg",
            missing.join(", "),
            site.display()
        );
    } else if !missing.is_empty() {
        tracing::warn!(
            "browser bundles missing in {}/pkg ({}): their pages work but are not interactive. Build them with scripts/run.",
            site.display(),
            missing.join(", ")
        );
    }
    // The bundles' and the style sheet's hashed names (`app::ui::assets`) worked out before the
    // first page needs them (a debug bundle is tens of megabytes).
    let stems: Vec<String> = BrowserBundle::ALL.iter().map(|b| b.file_stem()).chain([app::ui::ALL_PAGES_STEM.to_string()]).collect();
    let root = config.site_root.clone();
    tokio::task::spawn_blocking(move || app::ui::assets::prepare(&root, &stems, &["assay.css"]));
    let options = LeptosOptions::builder()
        // Replaced per page by the bundle of the page's family (app::ui::BrowserBundle).
        .output_name(BrowserBundle::Annotate.file_stem())
        .site_root(config.site_root.clone())
        .site_pkg_dir("pkg")
        .site_addr(addr)
        .build();
    if config.public_url.is_none() && addr.ip().is_unspecified() {
        tracing::warn!(
            "listening on every interface without --public-url: forms work only from pages opened at {}; give --public-url the address people use",
            state.settings.trusted_origins().join(", ")
        );
    }
    let router = build(state, options);
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(CliError::io(format!("listen on {addr}")))?;
    println!("Assay is running at {public_url}");
    axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(shutdown_signal())
        .await
        .map_err(|e| CliError::other(format!("server error: {e}")))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
