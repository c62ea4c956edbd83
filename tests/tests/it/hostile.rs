//! Hostile input against the real server on both databases:
//!
//! - random and mutated request bodies (form fields with hostile values, JSON of every shape,
//!   raw bytes under any content type) POSTed to every server function, as an admin and as
//!   nobody: never a 5xx, never a panic in the server's log, the admin still signed in;
//! - uploads of random bytes and of mutated valid archives under every importer's file name:
//!   a clear error (400 with the problem) and nothing saved, or a complete import;
//! - oversized bodies refused early: a declared length over the limit gets 413 before the body
//!   is sent, an undeclared (chunked) one is cut off at the limit;
//! - HTML and script in segments are shown as text: escaped in the server-rendered work page,
//!   and not able to close the page's script elements in the hydration data.
//!
//! The cases come from a seeded generator: `PROPTEST_RNG_SEED` (set by scripts/test) or a fixed
//! default; `ASSAY_FUZZ_CASES` sets the cases per endpoint and role (default 24).

use assay_tests::fixtures::{self, Reply};
use assay_tests::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;

/// xorshift64*, seeded.
struct Rng(u64);
impl Rng {
    fn new(salt: u64) -> Rng {
        let seed = std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(20_261_122);
        Rng((seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    /// Up to `max` random bytes.
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max);
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Every argument name the server functions take.
const FIELDS: &[&str] = &[
    "campaign_id", "hit_index", "assignment", "position", "score", "score2", "skipped", "time_on_screen_ms", "key", "email",
    "password", "role", "user_id", "token", "name", "code", "platform", "external_id", "blocked", "exclude_ref",
    "exclude_bad_ref", "per_segment", "wilcoxon", "draft", "test_set_id", "systems", "settings",
];

fn hostile_value(rng: &mut Rng) -> String {
    const VALUES: &[&str] = &[
        "", "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775808", "99999999999999999999999", "1e309", "NaN",
        "inf", "-0", "0.25", "50", "100.0000001", "true", "false", "null", "{}", "[]", "[1,2]", "{\"a\":", "\"",
        "<script>alert(1)</script>", "' OR 1=1 --", "'; DROP TABLE judgments; --", "%00", "\u{0}", "\u{202e}abc",
        "ÿ\u{fffd}é中文", "../../etc/passwd", "da-adequacy", "word-order", "admin", "annotator", "link", "mturk",
    ];
    match rng.below(10) {
        0 => "x".repeat(rng.below(200_000)),
        1 => String::from_utf8_lossy(&rng.bytes(64)).into_owned(),
        2 => rng.next().to_string(),
        _ => rng.pick(VALUES).to_string(),
    }
}

fn hostile_json(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 1),
        2 => json!(rng.next() as i64),
        3 => json!((rng.next() as f64) / 7.0 - 1e18),
        4 | 5 => json!(hostile_value(rng)),
        6 => Value::Array((0..rng.below(5)).map(|_| hostile_json(rng, depth + 1)).collect()),
        _ => Value::Object(
            (0..rng.below(6))
                .map(|_| (rng.pick(FIELDS).to_string(), hostile_json(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// One hostile request to `/api/{endpoint}`: (content type, body).
fn hostile_body(rng: &mut Rng) -> (&'static str, Vec<u8>) {
    match rng.below(6) {
        0 | 1 | 2 => {
            let fields: Vec<(String, String)> =
                (0..rng.below(8)).map(|_| (rng.pick(FIELDS).to_string(), hostile_value(rng))).collect();
            let body = fields.iter().map(|(k, v)| format!("{k}={}", url_escape(v))).collect::<Vec<_>>().join("&");
            ("application/x-www-form-urlencoded", body.into_bytes())
        }
        3 | 4 => ("application/json", hostile_json(rng, 0).to_string().into_bytes()),
        _ => {
            let types = ["application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data; boundary=x", "application/cbor"];
            let t = *rng.pick(&types);
            (t, rng.bytes(2048))
        }
    }
}

fn url_escape(s: &str) -> String {
    s.bytes()
        .map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

fn panics_in(log: &str) -> Vec<String> {
    log.lines().filter(|l| l.contains("panicked")).map(String::from).collect()
}

/// A TSV line of hostile text per segment: the source, reference and outputs of each segment
/// carry markup that would run if the page did not escape it.
fn markup(i: usize, salt: usize) -> String {
    format!("{} <script>window.pwned{salt}=1</script><img src=x onerror=\"window.pwned=1\"> & </textarea></script>", fixtures::sentence(i, salt))
}

async fn test_set_count(org: &Browser) -> usize {
    org.call("list_test_sets", &[]).await.json().as_array().map(Vec::len).unwrap_or(0)
}

/// Starts a logged server for `backend`; None when PostgreSQL is not available.
async fn logged(backend: Backend) -> Option<TestServer> {
    TestServer::start_logged(backend, &[("ASSAY_LOG", "warn")]).await
}

async fn fuzz_server_functions(server: TestServer) {
    let cases = std::env::var("ASSAY_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24usize);
    let endpoints: BTreeSet<String> = server_function_endpoints().into_iter().map(|(n, _)| n).collect();
    assert!(endpoints.len() > 20, "found the server functions");
    let admin = server.browser();
    admin.login(ADMIN).await;
    let nobody = server.browser();
    let mut failures = Vec::new();
    let mut sent = 0;
    for (e, endpoint) in endpoints.iter().enumerate() {
        for (who, b) in [("admin", &admin), ("nobody", &nobody)] {
            // Signing out is not hostile input; the admin stays signed in for the rest.
            if endpoint == "logout" && who == "admin" {
                continue;
            }
            let mut rng = Rng::new(e as u64 * 2 + u64::from(who == "admin"));
            let mut requests = Vec::new();
            for _ in 0..cases {
                let (content_type, body) = hostile_body(&mut rng);
                let url = format!("{}/api/{endpoint}", server.base);
                let req = if endpoint == "verify_completion_code" {
                    // A GET: the body becomes the query string (URLs are kept under 8 KiB).
                    let query: String = String::from_utf8_lossy(&body).chars().take(8000).collect();
                    b.client.get(format!("{url}?{query}"))
                } else {
                    b.client.post(url).header("content-type", content_type).body(body.clone())
                };
                requests.push((content_type, body, req.send()));
            }
            for (content_type, body, r) in requests {
                sent += 1;
                match r.await {
                    Ok(r) if r.status().is_server_error() => failures.push(format!(
                        "{endpoint} as {who}: {} for {content_type} {:?}: {}",
                        r.status(),
                        String::from_utf8_lossy(&body[..body.len().min(200)]),
                        r.text().await.unwrap_or_default().chars().take(200).collect::<String>()
                    )),
                    Ok(_) => {}
                    Err(err) => failures.push(format!("{endpoint} as {who}: no answer ({err}) for {content_type}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {sent} hostile requests failed:\n{}", failures.len(), failures.join("\n"));
    assert_ne!(admin.call("current_user", &[]).await.json(), Value::Null, "the admin is still signed in");
    let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
    assert!(panics_in(&log).is_empty(), "the server panicked:\n{}", panics_in(&log).join("\n"));
    eprintln!("{sent} hostile requests to {} server functions: no 5xx, no panic", endpoints.len());
}

async fn fuzz_uploads(server: TestServer) {
    let org = server.browser();
    org.login(ORGANIZER).await;
    let before = test_set_count(&org).await;
    let dir = tempfile::tempdir().expect("dir");
    fixtures::write_wmt(dir.path(), "en-de", 30, &["Alpha", "Beta"]);
    let valid = fixtures::tar_gz(dir.path());
    let mut rng = Rng::new(99);
    let names = ["f.tsv", "f.jsonl", "f.json", "f.zip", "f.tar.gz", "f.txt", "f.ndjson", "f.tgz"];
    let mut imported = 0;
    let cases = std::env::var("ASSAY_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24usize) * 2;
    for case in 0..cases {
        let (name, body) = match rng.below(3) {
            0 => (*rng.pick(&names), rng.bytes(4096)),
            // A valid archive with bytes flipped, or cut short.
            1 => {
                let mut b = valid.clone();
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
                ("set.tar.gz", b)
            }
            _ => ("set.tar.gz", valid[..rng.below(valid.len())].to_vec()),
        };
        let r = org
            .client
            .post(format!("{}/upload/import", server.base))
            .header("x-assay-file-name", name)
            .header("x-assay-test-set", format!("fuzz {case}"))
            .header("x-assay-pair", "en-de")
            .body(body)
            .send()
            .await
            .expect("upload");
        let status = r.status().as_u16();
        let text = r.text().await.unwrap_or_default();
        match status {
            200 => imported += 1,
            400 => {
                let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("case {case} ({name}): not JSON: {text}"));
                let errors = v["errors"].as_array().unwrap_or_else(|| panic!("case {case}: no errors in {text}"));
                assert!(!errors.is_empty() && errors.iter().all(|e| e.as_str().is_some_and(|s| s.len() > 5)), "case {case}: {text}");
            }
            other => panic!("case {case} ({name}): {other} {text}"),
        }
        // All or nothing: a refused upload saves no test set.
        assert_eq!(test_set_count(&org).await, before + imported, "case {case} ({name}): {status} {text}");
    }
    let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
    assert!(panics_in(&log).is_empty(), "the server panicked:\n{}", panics_in(&log).join("\n"));
}

/// Sends the head of a POST declaring `length` bytes and a little of the body; the status line.
async fn declared_length_status(base: &str, path: &str, length: u64) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {base}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let _ = stream.write_all(&[b'x'; 1024]).await;
    let mut buf = vec![0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await.unwrap_or(Ok(0)).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).lines().next().unwrap_or("").to_string()
}

async fn oversized_bodies_are_refused_early(server: TestServer) {
    for endpoint in ["login", "submit_judgment", "create_campaign"] {
        // Declared too large: refused on the headers, before the body arrives.
        let status = declared_length_status(&server.base, &format!("/api/{endpoint}"), 50 * 1024 * 1024).await;
        assert!(status.contains(" 413 "), "{endpoint}: {status}");
        // Not declared (chunked): cut off at the limit.
        let status = chunked_status(&server.base, &format!("/api/{endpoint}"), 4 * 1024 * 1024).await;
        assert!(status.contains(" 413 "), "{endpoint}, a 4 MiB chunked body: {status}");
    }
    // A NUL character (which PostgreSQL refuses in any string) is a 400 on both databases, in a
    // form field, in JSON and in a query string, whoever asks.
    let admin = server.browser();
    admin.login(ADMIN).await;
    for b in [&admin, &server.browser()] {
        let form = b.call("load_work", &[("assignment", "ab\0cd")]).await;
        assert_eq!((form.status, form.body.as_str()), (400, "Text may not contain NUL characters."));
        let json = b.client.post(format!("{}/api/login", server.base)).header("origin", &server.base).header("content-type", "application/json")
            .body(r#"{"email":"a\u0000b","password":"x"}"#).send().await.unwrap();
        assert_eq!(json.status().as_u16(), 400);
        let query = b.get("/api/verify_completion_code?code=a%00b").await;
        assert_eq!(query.status, 400);
    }
}

/// Sends a POST with a chunked body of `length` bytes while reading the answer; the status line.
async fn chunked_status(base: &str, path: &str, length: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(host).await.expect("connect");
    let (mut read, mut write) = stream.into_split();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {base}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let writer = tokio::spawn(async move {
        write.write_all(head.as_bytes()).await?;
        let chunk = vec![b'a'; 64 * 1024];
        for _ in 0..length / chunk.len() {
            write.write_all(format!("{:x}\r\n", chunk.len()).as_bytes()).await?;
            write.write_all(&chunk).await?;
            write.write_all(b"\r\n").await?;
        }
        write.write_all(b"0\r\n\r\n").await
    });
    let mut buf = vec![0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(10), read.read(&mut buf)).await.unwrap_or(Ok(0)).unwrap_or(0);
    writer.abort();
    String::from_utf8_lossy(&buf[..n]).lines().next().unwrap_or("").to_string()
}

async fn markup_in_segments_is_shown_as_text(server: TestServer) {
    let (_org, campaign) = fixtures::launch_crowd_campaign_with(&server.base, "markup", 1, 1, markup).await.expect("campaign");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let assignment = fixtures::arrive(&client, &server.base, &campaign, "mallory").await.ok().flatten().expect("an assignment");
    match fixtures::post(&client, &server.base, "start_work", &[("assignment", &assignment)]).await {
        Reply::Answered(200, _) => {}
        r => panic!("start_work: {r:?}"),
    }
    // The state the page reads carries the text as it is (it is data).
    let state = match fixtures::post(&client, &server.base, "load_work", &[("assignment", &assignment)]).await {
        Reply::Answered(200, body) => serde_json::from_str::<Value>(&body).expect("json"),
        r => panic!("load_work: {r:?}"),
    };
    let candidate = state["step"]["item"]["candidate"].as_str().expect("the current item").to_string();
    assert!(candidate.contains("<script>") || candidate.contains("<img"), "the test's markup reached the item: {candidate}");
    // The server-rendered page shows it escaped, and no script element of it survives.
    let page = client.get(format!("{}/work/{assignment}", server.base)).send().await.expect("page").text().await.expect("html");
    assert!(page.contains("&lt;script&gt;window.pwned") || page.contains("&lt;img src=x"), "the item's text is in the page, escaped");
    for raw in ["<script>window.pwned", "<img src=x onerror", "</textarea></script>"] {
        assert!(!page.contains(raw), "the page contains {raw:?} unescaped");
    }
}

/// A status, or 0 when the server gave no answer (a panic in a handler drops the connection).
async fn status_of(req: reqwest::RequestBuilder) -> (u16, String) {
    match req.send().await {
        Ok(r) => {
            let status = r.status().as_u16();
            (status, r.text().await.unwrap_or_default())
        }
        Err(_) => (0, String::new()),
    }
}

/// What the decoder of arguments knows (serde's field and type names, Leptos's error kinds)
/// stays on the server: arguments that cannot be read are a short, generic 400.
async fn argument_errors_are_short_and_generic(server: TestServer) {
    let admin = server.browser();
    admin.login(ADMIN).await;
    let url = |name: &str| format!("{}/api/{name}", server.base);
    let cases: Vec<(&str, reqwest::RequestBuilder)> = vec![
        ("a missing field", admin.client.post(url("login")).form(&[("email", "a@b.org")])),
        ("a wrong type", admin.client.post(url("submit_judgment")).form(&[("assignment", "x"), ("position", "first"), ("time_on_screen_ms", "1"), ("key", "k")])),
        ("a repeated field", admin.client.post(url("login")).form(&[("email", "a@b.org"), ("email", "c@d.org"), ("password", "x")])),
        ("JSON that does not parse", admin.client.post(url("check_design")).header("content-type", "application/json").body("{\"draft\": [")),
        ("JSON of the wrong shape", admin.client.post(url("check_design")).header("content-type", "application/json").body("{\"draft\": {\"name\": 7}}")),
        ("a query without its argument", admin.client.get(url("verify_completion_code"))),
        // The decoder's text quotes the value: for 100 KB of JSON string, an error of 100 KB,
        // which the server used to fail to read (a 500).
        ("a JSON string of 100 KB", admin.client.post(url("check_design")).header("content-type", "application/json").body(format!("\"{}\"", "x".repeat(100_000)))),
        ("a JSON string of 700 KB", admin.client.post(url("submit_screen")).header("content-type", "application/json").body(format!("\"{}\"", "x".repeat(700_000)))),
    ];
    for (what, req) in cases {
        let (status, body) = status_of(req).await;
        assert_eq!(status, 400, "{what}: {body}");
        assert!(body.contains("The request's arguments are missing or malformed."), "{what}: {body}");
        for internal in ["missing field", "invalid type", "expected", "`", "Args|", "Deserialization|", "line 1", "column"] {
            assert!(!body.contains(internal), "{what}: the answer shows the decoder's {internal:?}: {body}");
        }
    }
}

/// Integers the client sends (an item's position, a page, the numbers of a design) are checked
/// before any arithmetic: the extremes of their types are refused or clamped, never wrapped, and
/// the server neither fails nor panics.
async fn client_integers_never_wrap(server: TestServer) {
    let (_org, campaign) = fixtures::launch_crowd_campaign(&server.base, "extremes", 1, 1).await.expect("campaign");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let assignment = fixtures::arrive(&client, &server.base, &campaign, "extreme").await.ok().flatten().expect("an assignment");
    match fixtures::post(&client, &server.base, "start_work", &[("assignment", &assignment)]).await {
        Reply::Answered(200, _) => {}
        r => panic!("start_work: {r:?}"),
    }
    let submit = |position: &str| {
        let form = [("assignment", assignment.as_str()), ("position", position), ("score", "50"), ("time_on_screen_ms", "1500"), ("key", "k-extreme")];
        client.post(format!("{}/api/submit_judgment", server.base)).header("origin", &server.base).form(&form)
    };
    for position in ["9223372036854775807", "-9223372036854775808", "-1", "4294967296"] {
        let (status, body) = status_of(submit(position)).await;
        assert_eq!(status, 400, "position {position}: {body}");
        assert!(body.contains("there is no item"), "position {position}: {body}");
        assert!(!body.contains("-9223372036854775808") || position.starts_with('-'), "position {position} wrapped: {body}");
    }
    // The HIT still takes its first answer.
    let (status, body) = status_of(submit("0")).await;
    assert_eq!(status, 200, "{body}");

    // The review table: any page number, the last page at most.
    let org = server.browser();
    org.login(ORGANIZER).await;
    let id = campaign.id.to_string();
    for page in ["18446744073709551615", "9223372036854775808", "1"] {
        let a = org.call("campaign_workers", &[("campaign_id", &id), ("wilcoxon", "false"), ("page", page), ("per_page", "100")]).await;
        assert_eq!(a.status, 200, "page {page}: {}", a.body);
        assert_eq!(a.json()["query"]["page"], 1, "page {page}: the last page there is");
        let r = org.get(&format!("/api/v1/campaigns/{id}/workers?page={page}&per_page=100")).await;
        assert_eq!(r.status, 200, "API page {page}: {}", r.body);
    }
    let a = org.call("campaign_workers", &[("campaign_id", &id), ("wilcoxon", "false"), ("page", "18446744073709551616")]).await;
    assert_eq!(a.status, 400, "a page beyond the type: {}", a.body);

    // A design's numbers at the extremes of their type: problems, not a failure.
    let sets = org.call("list_test_sets", &[]).await.json();
    let set = sets.as_array().expect("test sets").iter().find(|s| s["name"] == "extremes").expect("the test set");
    let test_set_id = set["id"].as_i64().expect("id");
    let systems: Vec<i64> = set["systems"].as_array().expect("systems").iter().filter_map(|s| s["id"].as_i64()).collect();
    assert!(systems.len() >= 2, "{set}");
    let huge = u64::MAX;
    for settings in [
        json!({ "judgments_wanted": huge, "wanted_per": "system" }),
        json!({ "judgments_wanted": huge, "wanted_per": "segment" }),
        json!({ "judgments_wanted": huge / 2 + 1, "redundancy": huge }),
        json!({ "hit_length": huge, "bad_refs": huge, "repeats": huge, "refs": huge }),
        json!({ "hit_length": huge }),
        json!({ "redundancy": huge }),
        json!({ "sets": huge, "woj_permutations": huge, "woj_max_degree": huge }),
    ] {
        let draft = json!({ "name": "extremes", "task": "da-adequacy", "test_set_id": test_set_id, "systems": systems, "benchmark_systems": [], "seed": 1, "settings": settings });
        let check = org.call_json("check_design", json!({ "draft": draft })).await;
        assert_eq!(check.status, 200, "{settings}: {}", check.body);
        assert!(!check.json()["problems"].as_array().expect("problems").is_empty(), "{settings}: a design this size has problems: {}", check.body);
        for endpoint in ["create_campaign", "dry_run_design"] {
            let body = if endpoint == "dry_run_design" {
                json!({ "draft": draft, "crowd": { "careful": 70.0, "noisy": 15.0, "careless": 15.0, "workers": 0, "spread": 10.0, "alpha": 0.05 } })
            } else {
                json!({ "draft": draft })
            };
            let (status, text) = status_of(org.client.post(format!("{}/api/{endpoint}", server.base)).json(&body)).await;
            assert_eq!(status, 400, "{endpoint} {settings}: {text}");
        }
    }
    let log = std::fs::read_to_string(server.log_path()).unwrap_or_default();
    assert!(panics_in(&log).is_empty(), "the server panicked:\n{}", panics_in(&log).join("\n"));
}

mod arguments {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        argument_errors_are_short_and_generic(logged(Backend::Sqlite).await.expect("server")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(s) = logged(Backend::Postgres).await {
            argument_errors_are_short_and_generic(s).await;
        }
    }
}

mod integers {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        client_integers_never_wrap(logged(Backend::Sqlite).await.expect("server")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(s) = logged(Backend::Postgres).await {
            client_integers_never_wrap(s).await;
        }
    }
}

mod server_functions {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        fuzz_server_functions(logged(Backend::Sqlite).await.expect("server")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(s) = logged(Backend::Postgres).await {
            fuzz_server_functions(s).await;
        }
    }
}

mod uploads {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        fuzz_uploads(logged(Backend::Sqlite).await.expect("server")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        if let Some(s) = logged(Backend::Postgres).await {
            fuzz_uploads(s).await;
        }
    }
}

both_backends! {
    async fn oversized_bodies(server) {
        oversized_bodies_are_refused_early(server).await;
    }

    async fn markup(server) {
        markup_in_segments_is_shown_as_text(server).await;
    }
}

/// A `multipart/form-data` body of text fields and one file, as a browser's form sends it:
/// (content type, body).
fn multipart(fields: &[(&str, &str)], file: (&str, &[u8])) -> (String, Vec<u8>) {
    let boundary = "assay-test-boundary-7f3c";
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(format!("--{boundary}\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes());
        body.extend_from_slice(value.as_bytes());
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(
        format!("--{boundary}\r\ncontent-disposition: form-data; name=\"file\"; filename=\"{}\"\r\ncontent-type: text/plain\r\n\r\n", file.0).as_bytes(),
    );
    body.extend_from_slice(file.1);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Issue 17, finding 10: a NUL character is refused in every text that would be stored (an
/// upload's cell, escaped JSON text or form field; a campaign's design), with the file, the line
/// or the field named, and nothing stored; names have a length limit (200 characters). Before:
/// the NUL cell and the NUL test-set name were stored (SQLite), and a 100,000-character campaign
/// name and a 2 MB test-set name were accepted.
async fn nul_characters_and_overlong_names_are_refused(server: TestServer) {
    let org = server.browser();
    org.login(ORGANIZER).await;
    let sets_before = test_set_count(&org).await;
    let upload = |name: &str, test_set: &str, body: Vec<u8>| {
        let req = org
            .client
            .post(format!("{}/upload/import", server.base))
            .header("x-assay-file-name", name)
            .header("x-assay-test-set", test_set)
            .header("x-assay-pair", "de-en")
            .body(body);
        async move {
            let r = req.send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap_or_default())
        }
    };
    let tsv = "segment_id\tsource\tsystem\toutput\n1\tHallo Welt\tA\tHello world\n2\tGuten\0Tag\tA\tGood day\n3\tTschüss\tA\tBye\n";
    let (status, body) = upload("cells.tsv", "nul-cells", tsv.as_bytes().to_vec()).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("cells.tsv, line 3: contains a NUL character (U+0000)"), "{body}");
    let jsonl = "{\"segment_id\":\"1\",\"source\":\"a\\u0000b\",\"system\":\"A\",\"output\":\"x\"}\n";
    let (status, body) = upload("escaped.jsonl", "nul-escaped", jsonl.as_bytes().to_vec()).await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("escaped.jsonl: test_sets[0].segments[0].source contains a NUL character"), "{body}");

    let good = "segment_id\tsource\tsystem\toutput\n1\tHallo Welt\tA\tHello world\n";
    // Each form from a client of its own: the server answers a refusal before it has read the
    // whole body, and then closes the connection.
    let form = |name: &str| {
        let (content_type, body) = multipart(&[("test_set_name", name), ("pair", "de-en")], ("good.tsv", good.as_bytes()));
        let b = server.browser();
        let req = async move {
            b.login(ORGANIZER).await;
            b.client.post(format!("{}/upload/import", b.base)).header("content-type", content_type).header("accept", "application/json").body(body).send().await
        };
        async move {
            let r = req.await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap_or_default())
        }
    };
    let (status, body) = form("evil\0name").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("the test set's name contains a NUL character"), "{body}");
    let (status, body) = form(&"n".repeat(2 * 1024 * 1024)).await;
    assert_eq!(status, 400, "{}", &body[..body.len().min(300)]);
    assert!(body.contains("at most 200 are allowed") && body.len() < 2000, "{}", &body[..body.len().min(300)]);
    assert_eq!(test_set_count(&org).await, sets_before, "nothing was stored");

    // A campaign's design: its name is a name, and no text of it holds NUL (a server function's
    // request with one is refused whole by the router; the design's own check says where).
    let sets = org.call("list_test_sets", &[]).await.json();
    let set = &sets.as_array().unwrap()[0];
    let systems: Vec<Value> = set["systems"].as_array().unwrap().iter().map(|s| s["id"].clone()).collect();
    let draft = |name: String, settings: Value| json!({ "draft": {
        "name": name, "task": "da-adequacy", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 1, "settings": settings,
    }});
    let campaigns_before = org.call("list_campaigns", &[]).await.json().as_array().unwrap().len();
    for (name, settings, says) in [
        ("x".repeat(100_000), json!({}), "the campaign's name is 100000 characters long; at most 200 are allowed"),
        ("evil\0campaign".to_string(), json!({}), "NUL character"),
        ("fine".to_string(), json!({ "wording": { "instructions": "Read\u{0}carefully" } }), "NUL character"),
    ] {
        let r = org.call_json("create_campaign", draft(name, settings)).await;
        assert_eq!(r.status, 400, "{}", &r.body[..r.body.len().min(300)]);
        assert!(r.body.contains(says), "{}", &r.body[..r.body.len().min(300)]);
    }
    assert_eq!(org.call("list_campaigns", &[]).await.json().as_array().unwrap().len(), campaigns_before);
    // A name at the limit is fine (this design fails on its own terms, not on its name).
    let r = org.call_json("create_campaign", draft("é".repeat(200), json!({}))).await;
    assert!(!r.body.contains("name"), "{}", r.body);
}

both_backends! {
    async fn nul_and_lengths(server) {
        nul_characters_and_overlong_names_are_refused(server).await;
    }
}
