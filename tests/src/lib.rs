//! The integration-test harness: starts the real `assay serve` binary on a free loopback port
//! against a fresh SQLite file or a fresh PostgreSQL database, and gives tests an HTTP client.
//!
//! The binary is `$ASSAY_BIN` or `target/debug/assay` (build it first: `cargo build -p server`).
//! PostgreSQL tests use `$ASSAY_TEST_POSTGRES_URL` (a server URL without a database name; each
//! test creates its own database). Without it they are skipped, unless `$ASSAY_REQUIRE_POSTGRES`
//! is set (the README's test command sets both), in which case they fail.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Which database a test server uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The demo accounts `assay serve --demo` creates: (email, password).
pub const ADMIN: (&str, &str) = ("admin@demo.assay", "demo-admin-pass");
pub const ORGANIZER: (&str, &str) = ("organizer@demo.assay", "demo-organizer-pass");
pub const RESEARCHER: (&str, &str) = ("researcher@demo.assay", "demo-researcher-pass");
pub const ANNOTATOR: (&str, &str) = ("annotator@demo.assay", "demo-annotator-pass");

/// A running `assay serve`; killed when dropped.
pub struct TestServer {
    pub base: String,
    pub database_url: String,
    pub data_dir: tempfile::TempDir,
    child: Child,
    env: Vec<(String, String)>,
    log: bool,
}

/// Path of the `assay` binary under test.
pub fn assay_bin() -> PathBuf {
    if let Ok(p) = std::env::var("ASSAY_BIN") {
        return PathBuf::from(p);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| root.join("target"));
    let bin = target.join("debug").join("assay");
    assert!(bin.exists(), "{} does not exist: run `cargo build -p server` first (or set ASSAY_BIN)", bin.display());
    bin
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// A database URL for a fresh database of the given kind, or None when PostgreSQL is not
/// available and not required.
pub fn fresh_database_url(backend: Backend, data_dir: &std::path::Path) -> Option<String> {
    match backend {
        Backend::Sqlite => Some(format!("sqlite://{}?mode=rwc", data_dir.join("assay.db").display())),
        Backend::Postgres => match std::env::var("ASSAY_TEST_POSTGRES_URL") {
            Ok(server) => {
                let n = DATABASES.fetch_add(1, Ordering::SeqCst);
                let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
                Some(format!("{}/assay_test_{}_{}_{}", server.trim_end_matches('/'), std::process::id(), n, nanos))
            }
            Err(_) if std::env::var_os("ASSAY_REQUIRE_POSTGRES").is_some() => {
                panic!("ASSAY_REQUIRE_POSTGRES is set but ASSAY_TEST_POSTGRES_URL is not")
            }
            Err(_) => {
                eprintln!("skipped: set ASSAY_TEST_POSTGRES_URL to run the PostgreSQL variant");
                None
            }
        },
    }
}

/// The server listening on 127.0.0.1:`port` is process `pid`'s: `Some(true)` or `Some(false)`
/// when Linux's /proc says, `None` when it cannot be told (another system, no /proc).
///
/// A port from [`free_port`] is free only until somebody binds it, and `assay serve` binds its
/// port only after migrating the database and seeding the demo (seconds on a fresh PostgreSQL
/// database while the suite runs): two servers starting at once can be given the same port, and
/// the one that binds second exits. Its harness saw `/health` answer (from the other server)
/// and went on testing a server that was not its own: another database and another signing key,
/// so a crowd link it had made was refused with 403 (issue 36).
fn listener_is_process(port: u16, pid: u32) -> Option<bool> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let local = format!("0100007F:{port:04X}");
    // The inodes of the sockets listening (state 0A) on 127.0.0.1:port.
    let inodes: Vec<String> = table
        .lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            (f.len() > 9 && f[1] == local && f[3] == "0A").then(|| format!("socket:[{}]", f[9]))
        })
        .collect();
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?;
    Some(fds.flatten().any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| inodes.iter().any(|i| l.as_os_str() == i.as_str()))))
}

/// Why a started server did not come up.
enum NotStarted {
    /// Its port was taken by another process before it could listen.
    PortTaken(String),
}

/// Spawns `assay serve --demo` on `port` and waits until it answers `/health` itself (not
/// another server that holds the port, see [`listener_is_process`]).
async fn spawn_server(data_dir: &std::path::Path, database_url: &str, port: u16, env: &[(String, String)], log: bool) -> Result<Child, NotStarted> {
    let base = format!("http://127.0.0.1:{port}");
    let mut cmd = Command::new(assay_bin());
    cmd.args(["serve", "--demo"])
        .env("ASSAY_DATA_DIR", data_dir)
        .env("DATABASE_URL", database_url)
        .env("ASSAY_BIND", format!("127.0.0.1:{port}"))
        .env("ASSAY_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if log {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(data_dir.join("server.log")).expect("log file");
        cmd.stderr(file);
    }
    let mut child = cmd.spawn().expect("start assay");
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                use std::io::Read;
                let _ = e.read_to_string(&mut err);
            }
            if log {
                err = std::fs::read_to_string(data_dir.join("server.log")).unwrap_or_default();
            }
            if err.contains("cannot listen on") {
                return Err(NotStarted::PortTaken(err));
            }
            panic!("assay serve exited with {status}: {err}");
        }
        if let Ok(r) = client.get(format!("{base}/health")).send().await
            && r.status().is_success()
            // Another server answering on this port is not this one: wait for this one to
            // listen (if that server goes away) or to exit because the port is taken.
            && listener_is_process(port, child.id()) != Some(false)
        {
            break;
        }
        assert!(Instant::now() < deadline, "assay serve did not answer on {base} within 60 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Keep stderr drained so the server never blocks on a full pipe.
    if let Some(mut stderr) = child.stderr.take() {
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        });
    }
    Ok(child)
}

impl TestServer {
    /// Starts `assay serve --demo` on a free port; None only when PostgreSQL is unavailable and
    /// not required.
    pub async fn start(backend: Backend) -> Option<TestServer> {
        Self::start_with(backend, &[]).await
    }

    /// Like [`TestServer::start`] with extra environment variables.
    pub async fn start_with(backend: Backend, env: &[(&str, &str)]) -> Option<TestServer> {
        Self::start_inner(backend, env, false).await
    }

    /// Like [`TestServer::start_with`], writing the server's stderr (its log) to
    /// [`TestServer::log_path`] instead of discarding it.
    pub async fn start_logged(backend: Backend, env: &[(&str, &str)]) -> Option<TestServer> {
        Self::start_inner(backend, env, true).await
    }

    /// Where [`TestServer::start_logged`] writes the server's stderr.
    pub fn log_path(&self) -> PathBuf {
        self.data_dir.path().join("server.log")
    }

    async fn start_inner(backend: Backend, env: &[(&str, &str)], log: bool) -> Option<TestServer> {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let database_url = fresh_database_url(backend, data_dir.path())?;
        Some(Self::start_at(data_dir, database_url, env, log).await)
    }

    /// Starts `assay serve --demo` on a free port with the given data directory and database.
    pub async fn start_at(data_dir: tempfile::TempDir, database_url: String, env: &[(&str, &str)], log: bool) -> TestServer {
        Self::start_at_port(data_dir, database_url, env, log, free_port()).await
    }

    /// [`TestServer::start_at`] trying `port` first: when another process takes it first, the
    /// server is started again on another free port (as many times as it takes, up to ten).
    pub async fn start_at_port(data_dir: tempfile::TempDir, database_url: String, env: &[(&str, &str)], log: bool, port: u16) -> TestServer {
        let env: Vec<(String, String)> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let mut port = port;
        for _ in 0..10 {
            match spawn_server(data_dir.path(), &database_url, port, &env, log).await {
                Ok(child) => return TestServer { base: format!("http://127.0.0.1:{port}"), database_url, data_dir, child, env, log },
                Err(NotStarted::PortTaken(_)) => port = free_port(),
            }
        }
        panic!("assay serve found its port taken ten times in a row");
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the server with SIGKILL (no graceful shutdown) and waits for it to be gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts the server again on the same port, data directory and database (after [`kill`]).
    ///
    /// [`kill`]: TestServer::kill
    pub async fn restart(&mut self) {
        self.kill();
        let port: u16 = self.base.rsplit(':').next().and_then(|p| p.parse().ok()).expect("port");
        self.child = match spawn_server(self.data_dir.path(), &self.database_url, port, &self.env, self.log).await {
            Ok(child) => child,
            Err(NotStarted::PortTaken(err)) => panic!("assay serve could not take its port {port} again (another process holds it): {err}"),
        };
    }

    /// [`TestServer::restart`] with extra environment variables, writing the log to
    /// [`TestServer::log_path`] from now on.
    pub async fn restart_logged(&mut self, env: &[(&str, &str)]) {
        self.env.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        self.log = true;
        self.restart().await;
    }

    /// A browser-like client: keeps cookies and sends this server's Origin.
    pub fn browser(&self) -> Browser {
        Browser::new(&self.base)
    }

    /// [`TestServer::browser`] connecting from another loopback address (`127.0.0.N`), as a
    /// client elsewhere would appear to the server.
    pub fn browser_from(&self, address: std::net::IpAddr) -> Browser {
        Browser::with_local_address(&self.base, Some(address))
    }

    /// Runs the `assay` binary with this server's configuration (for command-line tests).
    pub fn assay(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(assay_bin());
        cmd.args(args).env("ASSAY_DATA_DIR", self.data_dir.path()).env("DATABASE_URL", &self.database_url).env("ASSAY_LOG", "warn");
        cmd
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP client that behaves like a browser on an Assay page.
pub struct Browser {
    pub base: String,
    pub client: reqwest::Client,
}

/// A response reduced to what tests look at.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
    pub set_cookies: Vec<String>,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl Browser {
    /// A client with its own cookie jar that sends `base` as its Origin.
    pub fn new(base: &str) -> Browser {
        Self::with_local_address(base, None)
    }

    /// [`Browser::new`] whose connections leave from `local` (e.g. 127.0.0.2).
    pub fn with_local_address(base: &str, local: Option<std::net::IpAddr>) -> Browser {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("origin", base.parse().expect("origin"));
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .local_address(local)
            .build()
            .expect("client");
        Browser { base: base.to_string(), client }
    }

    /// Calls a server function (`/api/NAME`) with form fields, as the page does.
    pub async fn call(&self, name: &str, form: &[(&str, &str)]) -> Answer {
        let r = self.client.post(format!("{}/api/{name}", self.base)).form(form).send().await.expect("request");
        Self::answer(r).await
    }

    /// Calls a server function that takes JSON.
    pub async fn call_json(&self, name: &str, body: serde_json::Value) -> Answer {
        let r = self.client.post(format!("{}/api/{name}", self.base)).json(&body).send().await.expect("request");
        Self::answer(r).await
    }

    /// GET a path.
    pub async fn get(&self, path: &str) -> Answer {
        let r = self.client.get(format!("{}{path}", self.base)).send().await.expect("request");
        Self::answer(r).await
    }

    async fn answer(r: reqwest::Response) -> Answer {
        let status = r.status().as_u16();
        let set_cookies = r.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok().map(String::from)).collect();
        let body = r.text().await.unwrap_or_default();
        Answer { status, body, set_cookies }
    }

    /// Signs in through the login server function; panics unless it succeeds.
    pub async fn login(&self, (email, password): (&str, &str)) -> Answer {
        let a = self.call("login", &[("email", email), ("password", password)]).await;
        assert_eq!(a.status, 200, "login as {email} failed: {}", a.body);
        a
    }
}

// ---------------------------------------------------------------------------------------------
// The demo's DA campaign worked through (results, exports): one 100-item HIT, two slots.

/// The demo's adequacy campaign id.
pub async fn da_campaign(organizer: &Browser) -> i64 {
    let list = organizer.call("list_campaigns", &[]).await;
    assert_eq!(list.status, 200, "{}", list.body);
    list.json().as_array().unwrap().iter().find(|c| c["task"] == "da-adequacy").expect("the DA campaign")["id"]
        .as_i64()
        .unwrap()
}

/// (assignment id of the annotator, assignment id of the Prolific worker) on the DA HIT.
pub async fn da_assignments(server: &TestServer) -> (String, String) {
    let annotator = server.browser();
    annotator.login(ANNOTATOR).await;
    let mine = annotator.call("my_assignments", &[]).await.json();
    let own = mine.as_array().unwrap().iter().find(|a| a["task"] == "da-adequacy").unwrap()["assignment"]
        .as_str()
        .unwrap()
        .to_string();
    let organizer = server.browser();
    organizer.login(ORGANIZER).await;
    let all = organizer.call("list_assignments", &[]).await.json();
    let crowd = all.as_array().unwrap().iter().find(|a| a["platform"] == "prolific").unwrap()["assignment"]
        .as_str()
        .unwrap()
        .to_string();
    (own, crowd)
}

/// Answers every item of `assignment` with `score(position, item_type, system)`.
pub async fn answer_all(server: &TestServer, worker: &Browser, assignment: &str, score: impl Fn(i64, &str, &str) -> f64) {
    let organizer = server.browser();
    organizer.login(ORGANIZER).await;
    let items = organizer.call("assignment_items", &[("assignment", assignment)]).await;
    assert_eq!(items.status, 200, "{}", items.body);
    let s = worker.call("start_work", &[("assignment", assignment)]).await;
    assert_eq!(s.status, 200, "{}", s.body);
    for item in items.json().as_array().unwrap() {
        let p = item["position"].as_i64().unwrap();
        let v = score(p, item["item_type"].as_str().unwrap(), item["system"].as_str().unwrap_or(""));
        let (pos, v) = (p.to_string(), format!("{v}"));
        let r = worker
            .call("submit_judgment", &[("assignment", assignment), ("position", &pos), ("score", &v), ("time_on_screen_ms", "4000"), ("key", &format!("k{p}"))])
            .await;
        assert_eq!(r.status, 200, "item {p}: {}", r.body);
    }
}

/// Runs an async test body once per backend.
#[macro_export]
macro_rules! both_backends {
    ($( $(#[$meta:meta])* async fn $name:ident($server:ident) $body:block )*) => {
        $(
            mod $name {
                use super::*;
                async fn run($server: $crate::TestServer) $body

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let server = $crate::TestServer::start($crate::Backend::Sqlite).await.expect("sqlite server");
                    run(server).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    if let Some(server) = $crate::TestServer::start($crate::Backend::Postgres).await {
                        run(server).await;
                    }
                }
            }
        )*
    };
}

/// Every server function's `endpoint = "…"` in `app/src`, with the file that declares it (one
/// entry per declaration, so duplicates show).
pub fn server_function_endpoints() -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    let mut stack = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../app/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("app/src is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source file");
                for part in text.split("endpoint = \"").skip(1) {
                    found.push((part.split('"').next().unwrap_or_default().to_string(), path.clone()));
                }
            }
        }
    }
    found
}

pub mod fixtures;
pub mod openapi;

// ---------------------------------------------------------------------------------------------
// The command line, crowd workers and hidden item facts, as several test files use them.

/// Runs `assay ARGS` (warnings only in its log).
pub fn assay_cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(assay_bin()).args(args).env("ASSAY_LOG", "warn").output().expect("run assay")
}

/// The standard error of a run that must have succeeded.
pub fn succeeded(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "assay failed: {err}");
    err
}

/// `assay simulate --campaign CAMPAIGN --mix MIX --seed SEED MORE…` on `server`'s database; its
/// standard error.
pub fn simulate_on(server: &TestServer, campaign: i64, mix: &str, seed: &str, more: &[&str]) -> String {
    let out = std::process::Command::new(assay_bin())
        .args(["simulate", "--campaign", &campaign.to_string(), "--mix", mix, "--seed", seed])
        .args(more)
        .env("ASSAY_DATA_DIR", server.data_dir.path())
        .env("DATABASE_URL", &server.database_url)
        .env("ASSAY_LOG", "warn")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// A crowd worker arriving through a campaign's link (`link_path`, the path and query of the
/// crowd link): their browser and their assignment's public id.
pub async fn arrive_as(server: &TestServer, link_path: &str, worker: &str) -> (Browser, String) {
    let b = server.browser();
    let r = b.client.get(format!("{}{link_path}&worker={worker}", server.base)).send().await.unwrap();
    assert_eq!(r.status(), 303, "{worker} arrives");
    let location = r.headers()["location"].to_str().unwrap().to_string();
    (b, location.strip_prefix("/work/").unwrap().to_string())
}

/// The items of an assignment's HIT as the organizer sees them: position → (type, system).
pub async fn item_facts(org: &Browser, assignment: &str) -> std::collections::BTreeMap<i64, (String, String)> {
    let items = org.call("assignment_items", &[("assignment", assignment)]).await;
    assert_eq!(items.status, 200, "{}", items.body);
    items
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["position"].as_i64().unwrap(), (i["item_type"].as_str().unwrap().to_string(), i["system"].as_str().unwrap_or("").to_string())))
        .collect()
}

/// A file's text, or a panic naming the file.
pub fn read_text(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A small deterministic generator for test data (SplitMix64), the same numbers on every
/// machine.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1), 53 bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Standard normal (Box–Muller, from two uniforms).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * (u.max(1e-300)).ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// Creates and launches `draft` (the designer's JSON) as `org`: the campaign's id, the path of
/// its crowd link, the launch summary.
pub async fn create_and_launch(org: &Browser, draft: &serde_json::Value) -> (i64, String, serde_json::Value) {
    let created = org.call_json("create_campaign", serde_json::json!({ "draft": draft })).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id: i64 = created.body.trim().parse().unwrap();
    let launched = org.call("launch_campaign", &[("campaign_id", &id.to_string())]).await;
    assert_eq!(launched.status, 200, "{}", launched.body);
    let progress = org.call("campaign_progress", &[("campaign_id", &id.to_string())]).await.json();
    let link = progress["crowd_link"].as_str().unwrap();
    (id, format!("/{}", link.split_once("://").unwrap().1.split_once('/').unwrap().1), launched.json())
}
