//! What browsers may keep (issue 36 item 3): the site's files under hashed names for good, the
//! pages revalidated.
//!
//! - A file requested under the hashed name the pages give it (`app::ui::assets`):
//!   `Cache-Control: public, max-age=31536000, immutable`. A hashed name of a file that has
//!   changed since: 404, never the new content under the old name.
//! - Any other file of the site (an unhashed `/pkg/…` or `/assay.css`): `no-cache`, revalidated
//!   by its `Last-Modified`.
//! - An HTML page: `no-cache, private` with an `ETag` of its content, and 304 to an
//!   `If-None-Match` that names it (see [`revalidated_pages`]; a HIT's work page without a tag).

use app::ui::assets::{self, Hashed};
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::convert::Infallible;
use tower::ServiceExt;

/// A file under its content's hash: kept for a year, never revalidated.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A file of the site under its plain name: kept, but asked about again at each use.
pub const REVALIDATED: &str = "no-cache";
/// An HTML page: rendered for its user, asked about again at each use, never kept by a shared
/// cache.
pub const PAGE: &str = "no-cache, private";

/// Largest page whose content is hashed for its `ETag` (a bigger one is sent without).
const MAX_TAGGED_PAGE: usize = 8 * 1024 * 1024;

/// Serves the site's files (`files`: the `ServeDir` of the site's root, with its precompressed
/// copies and its not-found page) under their hashed names and their plain ones, with what
/// browsers may keep of them.
pub async fn site_file<S>(files: S, site_root: std::sync::Arc<str>, mut req: Request) -> Response
where
    S: tower::Service<Request, Error = Infallible> + Send,
    S::Response: IntoResponse,
    S::Future: Send,
{
    let hashed = match assets::resolve(&site_root, req.uri().path()) {
        Hashed::Current(path) => {
            let uri = match req.uri().query() {
                Some(query) => format!("{path}?{query}"),
                None => path,
            };
            match uri.parse() {
                Ok(uri) => *req.uri_mut() = uri,
                Err(_) => return StatusCode::NOT_FOUND.into_response(),
            }
            true
        }
        Hashed::Gone => {
            return (
                StatusCode::NOT_FOUND,
                [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
                "This file has changed since the page that names it was sent: reload the page.",
            )
                .into_response();
        }
        Hashed::Plain => false,
    };
    let Ok(res) = files.oneshot(req).await;
    let mut res = res.into_response();
    // The site's not-found page (HTML) keeps the pages' rules; files are told apart by type.
    let html = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    let served = res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED;
    if served && !html {
        let headers = res.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(if hashed { IMMUTABLE } else { REVALIDATED }));
        // The same address is sent as it is, gzipped or brotli-compressed (the precompressed
        // copies), as the browser accepts: a shared cache must not give one to another.
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    res
}

/// HTML pages are sent with `Cache-Control: no-cache, private` and an `ETag` of their content,
/// and answered 304 (no body) when the browser's `If-None-Match` names that tag: the page it
/// holds for the address is the one it would get.
///
/// The tag is computed from the page as rendered for this request (this user, this session,
/// this state of the data), so a 304 only ever confirms a copy with the same content; any
/// difference (another user signed in, an answer saved since) changes the tag. Only the page's
/// nonce is left out (each render has a fresh one, `app::web::set_page_security_policy`): the
/// 304 carries no `Content-Security-Policy`, so the browser keeps the policy stored with its
/// copy, whose nonce is the one in that copy's scripts. The page is read whole before it is
/// sent (its head no longer leaves before the rest is rendered). Pages are streamed out of
/// order, so two renders of the same content differ when their resources were ready at other
/// moments: a page with one resource (sign-in) mostly renders the same, a signed-in start page
/// with several rarely does; such a page is sent whole (200), never a 304 for another content.
///
/// A HIT's work page is streamed as before, without a tag: its head (the bundle's preload)
/// leaves before the rest is rendered, which a worker's first HIT needs, and each HIT has an
/// address of its own, so a tag would only serve a reload.
pub async fn revalidated_pages(req: Request, next: Next) -> Response {
    if req.method() != Method::GET {
        return next.run(req).await;
    }
    let asked = req.headers().get(header::IF_NONE_MATCH).cloned();
    let work_page = app::ui::is_work_page(req.uri().path());
    let res = next.run(req).await;
    let html = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    if !html {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    parts.headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PAGE));
    if parts.status != StatusCode::OK || work_page {
        return Response::from_parts(parts, body);
    }
    let bytes = match read_whole(body, MAX_TAGGED_PAGE).await {
        Whole::Read(bytes) => bytes,
        // Too big to hold: sent as it comes, without a tag.
        Whole::TooBig(body) => return Response::from_parts(parts, body),
        Whole::Failed => return (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
    };
    let tag = page_tag(&bytes, nonce(&parts.headers).as_deref());
    let Ok(tag_value) = HeaderValue::from_str(&tag) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    if asked.as_ref().and_then(|v| v.to_str().ok()).is_some_and(|asked| names_tag(asked, &tag)) {
        let mut not_modified = Response::new(Body::empty());
        *not_modified.status_mut() = StatusCode::NOT_MODIFIED;
        let headers = not_modified.headers_mut();
        headers.insert(header::ETAG, tag_value);
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(PAGE));
        for cookie in parts.headers.get_all(header::SET_COOKIE) {
            headers.append(header::SET_COOKIE, cookie.clone());
        }
        return not_modified;
    }
    parts.headers.insert(header::ETAG, tag_value);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

enum Whole {
    Read(axum::body::Bytes),
    /// The body again, its first part already read and put back in front.
    TooBig(Body),
    Failed,
}

/// Reads `body` whole if it is at most `limit` bytes.
async fn read_whole(body: Body, limit: usize) -> Whole {
    use futures_util::StreamExt;
    let mut stream = body.into_data_stream();
    let mut read = Vec::new();
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else {
            tracing::warn!("a page could not be read for its ETag");
            return Whole::Failed;
        };
        read.extend_from_slice(&chunk);
        if read.len() > limit {
            let head = futures_util::stream::once(async move { Ok::<_, axum::Error>(axum::body::Bytes::from(read)) });
            return Whole::TooBig(Body::from_stream(head.chain(stream)));
        }
    }
    Whole::Read(read.into())
}

/// The nonce the page's `Content-Security-Policy` names, if any.
fn nonce(headers: &HeaderMap) -> Option<String> {
    let policy = headers.get(header::CONTENT_SECURITY_POLICY)?.to_str().ok()?;
    Some(policy.split("'nonce-").nth(1)?.split('\'').next()?.to_string()).filter(|n| !n.is_empty())
}

/// A page's weak `ETag`: the SHA-256 of its bytes with every occurrence of its nonce left out.
fn page_tag(page: &[u8], nonce: Option<&str>) -> String {
    let mut hasher = Sha256::new();
    match nonce {
        Some(nonce) => {
            let nonce = nonce.as_bytes();
            let mut rest = page;
            while let Some(at) = memchr::memmem::find(rest, nonce) {
                hasher.update(&rest[..at]);
                hasher.update(b"\0nonce\0");
                rest = &rest[at + nonce.len()..];
            }
            hasher.update(rest);
        }
        None => hasher.update(page),
    }
    let hash = hasher.finalize();
    let digits: String = hash.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("W/\"{digits}\"")
}

/// Whether an `If-None-Match` header names `tag` (weak comparison: the `W/` is not compared).
fn names_tag(asked: &str, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let tag = opaque(tag);
    asked.split(',').any(|t| t.trim() == "*" || opaque(t) == tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_tag_leaves_out_its_nonce_and_nothing_else() {
        let a = page_tag(br#"<script nonce="abc123">x</script><p>Ann</p>"#, Some("abc123"));
        let b = page_tag(br#"<script nonce="zzz999">x</script><p>Ann</p>"#, Some("zzz999"));
        let c = page_tag(br#"<script nonce="zzz999">x</script><p>Bob</p>"#, Some("zzz999"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.starts_with("W/\"") && a.ends_with('"'));
    }

    #[test]
    fn if_none_match_is_compared_weakly_in_a_list() {
        let tag = "W/\"0123\"";
        assert!(names_tag("W/\"0123\"", tag));
        assert!(names_tag("\"0123\"", tag));
        assert!(names_tag("\"x\", W/\"0123\"", tag));
        assert!(names_tag("*", tag));
        assert!(!names_tag("W/\"0124\"", tag));
        assert!(!names_tag("", tag));
    }

    #[test]
    fn a_page_too_big_to_tag_is_sent_whole() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let chunks = ["0123", "4567", "89"].map(|c| Ok::<_, std::io::Error>(axum::body::Bytes::from(c)));
            let body = Body::from_stream(futures_util::stream::iter(chunks));
            let Whole::TooBig(body) = read_whole(body, 5).await else { panic!("read whole over the limit") };
            assert_eq!(axum::body::to_bytes(body, 100).await.unwrap().as_ref(), b"0123456789");
            let Whole::Read(bytes) = read_whole(Body::from("small"), 5).await else { panic!("not read") };
            assert_eq!(bytes.as_ref(), b"small");
        });
    }

    #[test]
    fn the_nonce_is_read_from_the_policy() {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("script-src 'self' 'nonce-Q1w2' 'wasm-unsafe-eval'"));
        assert_eq!(nonce(&headers).as_deref(), Some("Q1w2"));
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("frame-ancestors 'none'"));
        assert_eq!(nonce(&headers), None);
    }
}
