//! `assay-load`: N concurrent crowd workers doing the real HIT loop over HTTP against `assay
//! serve` on loopback, and the ceiling of the storage underneath, in one run.
//!
//! Each simulated annotator arrives by the campaign's signed crowd link (`GET /c/…&worker=…`,
//! no password, so no argon2 in the loop), presses Start (`start_work`), then for every item
//! thinks for `--think-ms` (± 50%, seeded) and submits (`submit_judgment` with an idempotency
//! key), until the HIT ends; then it comes back by the link for its next HIT.
//!
//! The annotators' first arrivals are spread over `--ramp-seconds` (default: the time one HIT
//! takes, 100 items × think time), as a crowd arrives over time rather than at one instant
//! (all starting at once keeps them in step, every one finishing a HIT in the same second).
//! The measurement window of `--seconds` starts after the ramp: judgments per second, latencies
//! and CPU count what happens within it, with all annotators at work.
//!
//! The storage ceiling: committed single-row inserts per second, one connection, into a fresh
//! table in the same kind of database with the same settings as `app/src/db.rs` (SQLite: a file
//! in WAL mode, `synchronous = NORMAL`, `busy_timeout`, foreign keys on).
//!
//! ```sh
//! cargo build -p server -p assay-tests --bin assay-load
//! target/debug/assay-load --annotators 500 --think-ms 100 --seconds 20
//! target/debug/assay-load --annotators 500 --database-url "$ASSAY_TEST_POSTGRES_URL/assay_load"
//! ```
//!
//! Without `--url` it starts `assay serve --demo` itself (`$ASSAY_BIN` or the debug build) on a
//! fresh SQLite file, or on `--database-url`; with `--url` it uses a running server that has the
//! demo organizer account (start it with `ASSAY_CROWD_CLAIMS_PER_HOUR` and
//! `ASSAY_CROWD_HOLDS_PER_ADDRESS` above the number of annotators: they all arrive from one
//! address).

use assay_tests::fixtures::{self, CrowdCampaign, Reply, parse_step};
use assay_tests::{TestServer, assay_bin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

struct Options {
    annotators: usize,
    think_ms: u64,
    seconds: u64,
    /// `None`: one HIT's worth of think time.
    ramp_seconds: Option<f64>,
    redundancy: usize,
    url: Option<String>,
    database_url: Option<String>,
    ceiling_seconds: u64,
    seed: u64,
}

fn usage() -> ! {
    eprintln!(
        "usage: assay-load [--annotators N] [--think-ms MS] [--seconds S] [--ramp-seconds S] [--redundancy K] \
         [--url http://127.0.0.1:PORT | --database-url URL] [--ceiling-seconds S] [--seed N]"
    );
    std::process::exit(2)
}

fn options() -> Options {
    let mut o = Options {
        annotators: 500,
        think_ms: 100,
        seconds: 20,
        ramp_seconds: None,
        redundancy: 10,
        url: None,
        database_url: None,
        ceiling_seconds: 3,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        let num = |v: String| v.parse::<u64>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--annotators" => o.annotators = num(value()) as usize,
            "--think-ms" => o.think_ms = num(value()),
            "--seconds" => o.seconds = num(value()),
            "--ramp-seconds" => o.ramp_seconds = Some(value().parse::<f64>().ok().filter(|r| *r >= 0.0).unwrap_or_else(|| usage())),
            "--redundancy" => o.redundancy = num(value()) as usize,
            "--url" => o.url = Some(value().trim_end_matches('/').to_string()),
            "--database-url" => o.database_url = Some(value()),
            "--ceiling-seconds" => o.ceiling_seconds = num(value()),
            "--seed" => o.seed = num(value()),
            _ => usage(),
        }
    }
    if o.annotators == 0 || o.seconds == 0 {
        usage();
    }
    o
}

#[derive(Default)]
struct Tally {
    /// Latency of each acknowledged submission, microseconds.
    submit_us: Vec<u32>,
    /// Of those, the answers to a HIT's last item (completion code and quality gate).
    last_us: Vec<u32>,
    /// Latency of each arrival by crowd link plus Start, microseconds.
    arrive_us: Vec<u32>,
    errors: Vec<String>,
    hits_finished: u64,
}

/// A small deterministic generator (xorshift) for think times.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn think(&mut self, mean_ms: u64) -> Duration {
        if mean_ms == 0 {
            return Duration::ZERO;
        }
        Duration::from_millis(mean_ms / 2 + self.next() % (mean_ms + 1))
    }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    f64::from(sorted[i.min(sorted.len() - 1)]) / 1000.0
}

#[allow(clippy::too_many_arguments)]
async fn annotator(
    n: usize,
    client: reqwest::Client,
    base: String,
    campaign: CrowdCampaign,
    think_ms: u64,
    seed: u64,
    arrive_at: Instant,
    window: (Instant, Instant),
    judgments: Arc<AtomicU64>,
    out_of_work: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) {
    let worker = format!("load-{seed}-{n}");
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (n as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    let mut local = Tally::default();
    let (from, until) = window;
    let within = |t: Instant| t >= from && t <= until;
    tokio::time::sleep_until(arrive_at.into()).await;
    'hits: while Instant::now() < until {
        let started = Instant::now();
        let assignment = match fixtures::arrive(&client, &base, &campaign, &worker).await {
            Ok(Some(a)) => a,
            Ok(None) => {
                out_of_work.store(true, Ordering::Relaxed);
                break;
            }
            Err(e) => {
                local.errors.push(format!("arrive: {e:?}"));
                break;
            }
        };
        let mut position = match fixtures::post(&client, &base, "start_work", &[("assignment", &assignment)]).await {
            Reply::Answered(200, body) => match parse_step(&body) {
                Some((_, Some(p), false)) => p,
                _ => {
                    local.errors.push(format!("start_work: unexpected step {body}"));
                    break;
                }
            },
            other => {
                local.errors.push(format!("start_work: {other:?}"));
                break;
            }
        };
        if within(started) && within(Instant::now()) {
            local.arrive_us.push(started.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
        }
        loop {
            tokio::time::sleep(rng.think(think_ms)).await;
            if Instant::now() >= until {
                break 'hits;
            }
            let sent = Instant::now();
            let reply = fixtures::submit(&client, &base, &assignment, &worker, position).await;
            let took = sent.elapsed();
            match reply {
                Reply::Answered(200, body) => {
                    let micros = took.as_micros().min(u128::from(u32::MAX)) as u32;
                    if within(sent) && within(Instant::now()) {
                        judgments.fetch_add(1, Ordering::Relaxed);
                        local.submit_us.push(micros);
                    }
                    match parse_step(&body) {
                        Some((_, Some(p), false)) => position = p,
                        Some((_, None, true)) => {
                            if within(sent) && within(Instant::now()) {
                                local.last_us.push(micros);
                            }
                            local.hits_finished += 1;
                            continue 'hits;
                        }
                        _ => {
                            local.errors.push(format!("submit: unexpected step {body}"));
                            break 'hits;
                        }
                    }
                }
                other => {
                    local.errors.push(format!("submit: {other:?}"));
                    break 'hits;
                }
            }
        }
    }
    let mut t = tally.lock().await;
    t.submit_us.extend(local.submit_us);
    t.last_us.extend(local.last_us);
    t.arrive_us.extend(local.arrive_us);
    t.errors.extend(local.errors);
    t.hits_finished += local.hits_finished;
}

/// CPU time (user + system) a process has used, in seconds, from `/proc/PID/stat`.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // USER_HZ is 100 on Linux.
    Some(ticks / 100.0)
}

/// Committed single-row inserts per second into `database_url`, one connection, the settings of
/// `app/src/db.rs`.
async fn storage_ceiling(database_url: &str, seconds: u64) -> Result<(f64, u64), String> {
    use sqlx::any::AnyPoolOptions;
    use sqlx::{ConnectOptions, Executor};
    use std::str::FromStr;
    sqlx::any::install_default_drivers();
    let sqlite = database_url.starts_with("sqlite:");
    let options = sqlx::any::AnyConnectOptions::from_str(database_url).map_err(|e| e.to_string())?.disable_statement_logging();
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if sqlite {
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA busy_timeout = 10000").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot open {database_url}: {e}"))?;
    if sqlite {
        pool.execute("PRAGMA journal_mode = WAL").await.map_err(|e| e.to_string())?;
    }
    pool.execute("DROP TABLE IF EXISTS load_ceiling").await.map_err(|e| e.to_string())?;
    // The shape of a judgment row.
    let create = if sqlite {
        "CREATE TABLE load_ceiling (id INTEGER PRIMARY KEY, assignment_id BIGINT NOT NULL, hit_item_id BIGINT NOT NULL, \
         score DOUBLE PRECISION, skipped BIGINT NOT NULL, shown_at BIGINT, submitted_at BIGINT NOT NULL, \
         time_on_screen_ms BIGINT NOT NULL, idempotency_key TEXT NOT NULL)"
    } else {
        "CREATE TABLE load_ceiling (id BIGSERIAL PRIMARY KEY, assignment_id BIGINT NOT NULL, hit_item_id BIGINT NOT NULL, \
         score DOUBLE PRECISION, skipped BIGINT NOT NULL, shown_at BIGINT, submitted_at BIGINT NOT NULL, \
         time_on_screen_ms BIGINT NOT NULL, idempotency_key TEXT NOT NULL)"
    };
    pool.execute(create).await.map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let mut n: u64 = 0;
    while t0.elapsed() < Duration::from_secs(seconds) {
        sqlx::query(
            "INSERT INTO load_ceiling (assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms, idempotency_key) \
             VALUES ($1, $2, $3, 0, $4, $5, 1500, $6)",
        )
        .bind((n / 100) as i64)
        .bind(n as i64)
        .bind((n % 101) as f64)
        .bind(n as i64)
        .bind(n as i64 + 1)
        .bind(format!("k-{n}"))
        .execute(&pool)
        .await
        .map_err(|e| e.to_string())?;
        n += 1;
    }
    let rate = n as f64 / t0.elapsed().as_secs_f64();
    pool.execute("DROP TABLE load_ceiling").await.map_err(|e| e.to_string())?;
    pool.close().await;
    Ok((rate, n))
}

#[tokio::main]
async fn main() {
    let o = options();
    // The server: a running one, or `assay serve --demo` started here.
    let mut own_server = None;
    let mut ceiling_dir = None;
    let (base, ceiling_url, backend) = match (&o.url, &o.database_url) {
        (Some(url), _) => {
            let (u, b) = match &o.database_url {
                Some(d) => (d.clone(), if d.starts_with("sqlite:") { "SQLite" } else { "PostgreSQL" }),
                None => {
                    let dir = tempfile::tempdir().expect("temp dir");
                    let u = format!("sqlite://{}?mode=rwc", dir.path().join("ceiling.db").display());
                    ceiling_dir = Some(dir);
                    (u, "SQLite (server's backend unknown)")
                }
            };
            (url.clone(), u, b)
        }
        (None, database_url) => {
            let dir = tempfile::tempdir().expect("temp dir");
            let url = database_url.clone().unwrap_or_else(|| format!("sqlite://{}?mode=rwc", dir.path().join("assay.db").display()));
            let backend = if url.starts_with("sqlite:") { "SQLite" } else { "PostgreSQL" };
            let ceiling = if url.starts_with("sqlite:") {
                // Another file in the same directory: the same file system and settings.
                format!("sqlite://{}?mode=rwc", dir.path().join("ceiling.db").display())
            } else {
                url.clone()
            };
            eprintln!("starting {} serve --demo on {backend}…", assay_bin().display());
            // Every simulated worker arrives from this one loopback address: lift the per-address
            // limit of new crowd workers (30 an hour by default).
            let server = TestServer::start_at(dir, url, &[("ASSAY_LOG", "error"), ("ASSAY_CROWD_CLAIMS_PER_HOUR", "1000000"), ("ASSAY_CROWD_HOLDS_PER_ADDRESS", "1000000")], true).await;
            let base = server.base.clone();
            own_server = Some(server);
            (base, ceiling, backend)
        }
    };

    // Enough HITs that nobody runs out: each annotator can finish about
    // (ramp + seconds) × 1000 / think time items.
    let ramp = Duration::from_secs_f64(o.ramp_seconds.unwrap_or((fixtures::HIT_LENGTH as u64 * o.think_ms) as f64 / 1000.0));
    let k = o.redundancy.clamp(1, o.annotators);
    let items_each = (ramp.as_millis() as u64 + o.seconds * 1000) / o.think_ms.max(5) + 1;
    let hits_each = (items_each as usize).div_ceil(fixtures::HIT_LENGTH) + 1;
    let hits = (o.annotators * hits_each).div_ceil(k);
    let name = format!("load {} annotators {}", o.annotators, std::process::id());
    eprintln!("creating a campaign of {hits} HITs × k={k} on {base}…");
    let setup = Instant::now();
    let (_org, campaign) = fixtures::launch_crowd_campaign(&base, &name, hits, k).await.unwrap_or_else(|e| {
        eprintln!("setting up the campaign failed: {e}");
        std::process::exit(1)
    });
    eprintln!("campaign {} launched with {} HITs in {:.1} s", campaign.id, campaign.hits, setup.elapsed().as_secs_f64());

    eprintln!("measuring the storage ceiling ({} s)…", o.ceiling_seconds);
    let (ceiling, ceiling_rows) = storage_ceiling(&ceiling_url, o.ceiling_seconds).await.unwrap_or_else(|e| {
        eprintln!("storage ceiling: {e}");
        std::process::exit(1)
    });

    eprintln!(
        "{} annotators arriving over {:.1} s, think time {} ms ± 50%, measured for {} s…",
        o.annotators,
        ramp.as_secs_f64(),
        o.think_ms,
        o.seconds
    );
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .pool_max_idle_per_host(usize::MAX)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let judgments = Arc::new(AtomicU64::new(0));
    let out_of_work = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let server_pid = own_server.as_ref().map(TestServer::pid);
    let t0 = Instant::now();
    let window = (t0 + ramp, t0 + ramp + Duration::from_secs(o.seconds));
    // CPU of the server and of this generator over the window, read when it opens and closes.
    let cpu_at_start = tokio::spawn(async move {
        tokio::time::sleep_until(window.0.into()).await;
        (server_pid.and_then(cpu_seconds), cpu_seconds(std::process::id()))
    });
    let tasks: Vec<_> = (0..o.annotators)
        .map(|n| {
            // Evenly over the ramp, in an order that does not follow the worker numbers.
            let slot = (n as u64).wrapping_mul(0x9E37_79B9) % o.annotators as u64;
            let arrive_at = t0 + ramp.mul_f64(slot as f64 / o.annotators as f64);
            tokio::spawn(annotator(
                n,
                client.clone(),
                base.clone(),
                campaign.clone(),
                o.think_ms,
                o.seed,
                arrive_at,
                window,
                judgments.clone(),
                out_of_work.clone(),
                tally.clone(),
            ))
        })
        .collect();
    for t in tasks {
        if let Err(e) = t.await {
            tally.lock().await.errors.push(format!("annotator task: {e}"));
        }
    }
    let (server_before, generator_before) = cpu_at_start.await.unwrap_or((None, None));
    let elapsed = o.seconds as f64;
    let cpu_used = server_pid.and_then(cpu_seconds).zip(server_before).map(|(after, before)| after - before);
    let generator_cpu = cpu_seconds(std::process::id()).zip(generator_before).map(|(after, before)| after - before);
    let mut t = tally.lock().await;
    t.submit_us.sort_unstable();
    t.arrive_us.sort_unstable();
    t.last_us.sort_unstable();
    let n = judgments.load(Ordering::Relaxed);
    let rate = n as f64 / elapsed;
    println!("== assay-load: {} annotators on {backend} ({base}) ==", o.annotators);
    println!(
        "think time:         {} ms ± 50% per item; arrivals over {:.1} s, then a window of {} s; k = {k}; seed {}",
        o.think_ms,
        ramp.as_secs_f64(),
        o.seconds,
        o.seed
    );
    println!("judgments:          {n} acknowledged in {elapsed:.1} s = {rate:.0} judgments/s; {} HITs finished", t.hits_finished);
    println!(
        "submit latency:     p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&t.submit_us, 50.0),
        percentile(&t.submit_us, 95.0),
        percentile(&t.submit_us, 99.0),
        percentile(&t.submit_us, 100.0)
    );
    println!(
        "  of which last items: {} (completion + quality gate), p50 {:.1} ms, p99 {:.1} ms",
        t.last_us.len(),
        percentile(&t.last_us, 50.0),
        percentile(&t.last_us, 99.0)
    );
    println!(
        "arrival (link + Start): {} times, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        t.arrive_us.len(),
        percentile(&t.arrive_us, 50.0),
        percentile(&t.arrive_us, 99.0),
        percentile(&t.arrive_us, 100.0)
    );
    if let Some(cpu) = cpu_used {
        println!(
            "server CPU:         {cpu:.1} s in the window ({:.0}% of one core), {:.2} ms per judgment",
            100.0 * cpu / elapsed,
            1000.0 * cpu / n.max(1) as f64
        );
    }
    if let Some(cpu) = generator_cpu {
        println!(
            "generator CPU:      {cpu:.1} s in the window ({:.0}% of one core), {:.2} ms per judgment (same machine)",
            100.0 * cpu / elapsed,
            1000.0 * cpu / n.max(1) as f64
        );
    }
    println!("errors:             {}", t.errors.len());
    for e in t.errors.iter().take(10) {
        println!("  {e}");
    }
    if out_of_work.load(Ordering::Relaxed) {
        println!("warning:            some annotators ran out of HITs before the end");
    }
    println!("storage ceiling:    {ceiling:.0} committed single-row inserts/s ({ceiling_rows} rows, one connection, {ceiling_url_kind})", ceiling_url_kind = backend);
    println!("ratio:              {:.2} (judgments/s ÷ storage ceiling)", rate / ceiling);
    drop(own_server);
    drop(ceiling_dir);
    if !t.errors.is_empty() {
        std::process::exit(1);
    }
}
