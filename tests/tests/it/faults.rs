//! Faults and concurrency against the real server on both databases:
//!
//! - crowd workers doing their HITs while the server is killed with SIGKILL at random (seeded)
//!   moments and restarted on the same data: every acknowledged judgment is stored exactly once,
//!   a retry with the same idempotency key after a lost acknowledgment is safe, and every worker
//!   resumes at the item after the last one the server stored;
//! - two `assay serve` processes on one database: no HIT slot goes to two workers, no worker
//!   gets a HIT twice, and no judgment is lost, with requests spread over both servers.
//!
//! `ASSAY_FAULT_KILLS` (default 20) and `ASSAY_FAULT_WORKERS` (default 20) make the fault test
//! longer: `ASSAY_FAULT_KILLS=200 ASSAY_FAULT_WORKERS=60 ASSAY_CROWD_CLAIMS_PER_HOUR=1000 cargo
//! test -p assay-tests --test faults` (the servers inherit the environment; every worker arrives
//! from one address, and a server lets one address claim 30 HITs an hour by default). Every
//! worker arriving from one address, the tests raise the limit of unstarted HITs one address may
//! hold (`ASSAY_CROWD_HOLDS_PER_ADDRESS`, 10 by default).

use assay_tests::fixtures::{self, CrowdCampaign, HIT_LENGTH, Reply, parse_step, score_for};
use assay_tests::*;
use serde_json::Value;
use sqlx::Row;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client")
}

/// What one simulated worker saw.
#[derive(Debug, Default)]
struct WorkerLog {
    worker: String,
    assignment: String,
    /// Positions acknowledged by the server, in order.
    acked: Vec<i64>,
    /// Requests that got no answer (the server was down or died mid-request).
    lost: u64,
    /// Checks, after a lost answer, of where the server says the worker is.
    resume_checks: u64,
    /// Lost answers the server had stored (the acknowledgment was lost, not the answer).
    stored_unacknowledged: u64,
}

fn retryable(r: &Reply) -> bool {
    // No answer, or the server's "busy, try again" while it starts.
    matches!(r, Reply::Lost(_) | Reply::Answered(502..=504, _))
}

/// Arrives by the crowd link (retrying while the server is down) and presses Start; returns
/// the assignment and its current position.
async fn arrive_and_start(client: &reqwest::Client, base: &str, campaign: &CrowdCampaign, worker: &str, log: &mut WorkerLog) -> (String, i64) {
    let assignment = loop {
        match fixtures::arrive(client, base, campaign, worker).await {
            Ok(Some(a)) => break a,
            Ok(None) => panic!("{worker}: no work in the campaign"),
            Err(r) if retryable(&r) => {
                log.lost += 1;
                tokio::time::sleep(Duration::from_millis(40)).await;
            }
            Err(r) => panic!("{worker}: crowd link answered {r:?}"),
        }
    };
    loop {
        match fixtures::post(client, base, "start_work", &[("assignment", &assignment)]).await {
            Reply::Answered(200, body) => {
                let (answered, item, _) = parse_step(&body).unwrap_or_else(|| panic!("step: {body}"));
                return (assignment, item.unwrap_or(answered));
            }
            r if retryable(&r) => {
                log.lost += 1;
                tokio::time::sleep(Duration::from_millis(40)).await;
            }
            r => panic!("{worker}: start_work answered {r:?}"),
        }
    }
}

/// Where the server says an assignment is: items answered.
async fn answered_per_server(client: &reqwest::Client, base: &str, assignment: &str) -> Option<i64> {
    match fixtures::post(client, base, "load_work", &[("assignment", assignment)]).await {
        Reply::Answered(200, body) => serde_json::from_str::<Value>(&body).ok()?["step"]["answered"].as_i64(),
        _ => None,
    }
}

/// One worker's whole HIT, submitting every item until the server acknowledges it: a lost
/// answer is retried with the same idempotency key, after checking where the server says the
/// worker is (at that item, or just after it if the lost request was stored).
#[allow(clippy::too_many_arguments)]
async fn do_hit(
    client: reqwest::Client,
    bases: Vec<String>,
    campaign: CrowdCampaign,
    worker: String,
    items: i64,
    think_ms: u64,
    seed: u64,
    done: Arc<AtomicUsize>,
) -> WorkerLog {
    let mut log = WorkerLog { worker: worker.clone(), ..Default::default() };
    let mut rng = Rng(seed | 1);
    let (assignment, mut position) = arrive_and_start(&client, &bases[0], &campaign, &worker, &mut log).await;
    log.assignment = assignment.clone();
    assert_eq!(position, 0, "{worker}: a new HIT starts at its first item");
    let mut request = 0usize;
    while position < items {
        tokio::time::sleep(Duration::from_millis(rng.below(2 * think_ms + 1))).await;
        loop {
            // Spread over the servers given.
            let base = &bases[request % bases.len()];
            request += 1;
            let reply = fixtures::submit(&client, base, &assignment, &worker, position).await;
            match reply {
                Reply::Answered(200, body) => {
                    let (answered, next, finished) = parse_step(&body).unwrap_or_else(|| panic!("step: {body}"));
                    assert_eq!(answered, position + 1, "{worker}: the acknowledgment of item {position}");
                    log.acked.push(position);
                    position = if finished { HIT_LENGTH as i64 } else { next.expect("next item") };
                    break;
                }
                r if retryable(&r) => {
                    log.lost += 1;
                    tokio::time::sleep(Duration::from_millis(30)).await;
                    if let Some(answered) = answered_per_server(&client, base, &assignment).await {
                        assert!(
                            answered == position || answered == position + 1,
                            "{worker}: after a lost answer to item {position} the server says {answered} items are answered"
                        );
                        log.resume_checks += 1;
                        log.stored_unacknowledged += u64::from(answered == position + 1);
                    }
                }
                r => panic!("{worker}: submitting item {position} answered {r:?}"),
            }
        }
    }
    done.fetch_add(1, Ordering::SeqCst);
    log
}

async fn open_db(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::any::AnyPoolOptions::new().max_connections(2).connect(url).await.expect("open the test database")
}

/// Every judgment of the campaign's assignments: (assignment public id, position) → (score, rows).
async fn stored_judgments(db: &sqlx::AnyPool, campaign: i64) -> HashMap<(String, i64), (f64, usize)> {
    let rows = sqlx::query(
        "SELECT a.public_id, hi.position, j.score FROM judgments j JOIN assignments a ON a.id = j.assignment_id \
         JOIN hit_items hi ON hi.id = j.hit_item_id JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
    )
    .bind(campaign)
    .fetch_all(db)
    .await
    .expect("judgments");
    let mut out: HashMap<(String, i64), (f64, usize)> = HashMap::new();
    for r in rows {
        let e = out.entry((r.get::<String, _>("public_id"), r.get::<i64, _>("position"))).or_insert((r.get::<f64, _>("score"), 0));
        e.1 += 1;
    }
    out
}

/// Checks that every acknowledged answer is stored exactly once with the score sent, and
/// nothing else is stored.
fn check_stored(logs: &[WorkerLog], stored: &HashMap<(String, i64), (f64, usize)>) {
    let mut expected = 0;
    for log in logs {
        for &p in &log.acked {
            expected += 1;
            let (score, rows) = stored.get(&(log.assignment.clone(), p)).unwrap_or_else(|| panic!("{}: acknowledged item {p} is not stored", log.worker));
            assert_eq!(*rows, 1, "{}: item {p} is stored {rows} times", log.worker);
            assert_eq!(*score, score_for(&log.worker, p), "{}: item {p} has another score", log.worker);
        }
        let distinct: HashSet<&i64> = log.acked.iter().collect();
        assert_eq!(distinct.len(), log.acked.len(), "{}: an item was acknowledged twice", log.worker);
    }
    assert_eq!(stored.len(), expected, "judgments stored that no worker had acknowledged");
}

both_backends! {
    async fn acknowledged_judgments_survive_sigkill_and_workers_resume(server) {
        let mut server = server;
        // Every worker arrives from one address: no limit on what it holds unstarted.
        server.restart_logged(&[("ASSAY_CROWD_HOLDS_PER_ADDRESS", "1000000")]).await;
        let kills = env_number("ASSAY_FAULT_KILLS", 20);
        let workers = env_number("ASSAY_FAULT_WORKERS", 20) as usize;
        let k = 4;
        let (_org, campaign) = fixtures::launch_crowd_campaign(&server.base, "faults", workers.div_ceil(k), k).await.expect("campaign");
        let items = HIT_LENGTH as i64;
        let client = client();
        let started = Instant::now();
        let done = Arc::new(AtomicUsize::new(0));
        // About 100 ms per item, so that the workers are still at work when the last kill comes.
        let tasks: Vec<_> = (0..workers)
            .map(|i| {
                let base = vec![server.base.clone()];
                tokio::spawn(do_hit(client.clone(), base, campaign.clone(), format!("crash-{i}"), items, 100, 7 + i as u64, done.clone()))
            })
            .collect();
        // SIGKILL at random moments while the workers work, restarting on the same data.
        let mut rng = Rng(20_261_122);
        let mut restarts = Vec::new();
        for _ in 0..kills {
            assert_eq!(done.load(Ordering::SeqCst), 0, "a worker finished before the last kill: slow the workers down");
            tokio::time::sleep(Duration::from_millis(60 + rng.below(400))).await;
            let t = Instant::now();
            server.kill();
            tokio::time::sleep(Duration::from_millis(rng.below(80))).await;
            server.restart().await;
            restarts.push(t.elapsed());
        }
        let mut logs = Vec::new();
        for t in tasks {
            logs.push(tokio::time::timeout(Duration::from_secs(240), t).await.expect("workers finish").expect("worker task"));
        }
        let lost: u64 = logs.iter().map(|l| l.lost).sum();
        let checks: u64 = logs.iter().map(|l| l.resume_checks).sum();
        let stored: u64 = logs.iter().map(|l| l.stored_unacknowledged).sum();
        eprintln!(
            "{kills} kills, {lost} lost requests, {checks} resume checks ({stored} stored but unacknowledged), slowest restart {:?}, {:.1} s in all",
            restarts.iter().max(),
            started.elapsed().as_secs_f64()
        );
        assert!(lost > 0, "the kills should have cut some requests");
        for log in &logs {
            assert_eq!(log.acked, (0..items).collect::<Vec<_>>(), "{}: every item acknowledged once, in order", log.worker);
        }
        let db = open_db(&server.database_url).await;
        check_stored(&logs, &stored_judgments(&db, campaign.id).await);
        // Each HIT is completed, and the server agrees where every worker is.
        for log in &logs {
            assert_eq!(answered_per_server(&client, &server.base, &log.assignment).await, Some(items), "{}", log.worker);
        }
        // A retry of the last answer after the end returns the same acknowledgment.
        let last = &logs[0];
        match fixtures::submit(&client, &server.base, &last.assignment, &last.worker, items - 1).await {
            Reply::Answered(200, body) => assert_eq!(parse_step(&body).map(|s| (s.0, s.2)), Some((items, true))),
            r => panic!("retry of the last answer: {r:?}"),
        }
        assert_eq!(stored_judgments(&db, campaign.id).await.len(), logs.len() * items as usize);
    }

    async fn two_app_servers_share_out_hits_and_keep_every_judgment(server) {
        // Every worker arrives from one address: no limit on what it holds unstarted.
        let holds = ("ASSAY_CROWD_HOLDS_PER_ADDRESS", "1000000");
        let mut server = server;
        server.restart_logged(&[holds]).await;
        // 8 HITs for 5 workers each: 40 assignments; 48 workers ask, half on each server.
        let (hits, k, asking, items) = (8usize, 5usize, 48usize, 20i64);
        let (_org, campaign) = fixtures::launch_crowd_campaign(&server.base, "two servers", hits, k).await.expect("campaign");
        let second = TestServer::start_at(
            tempfile::tempdir().expect("dir"),
            server.database_url.clone(),
            // The same signing key as the first server (it signs the crowd link).
            &[("ASSAY_DATA_DIR", server.data_dir.path().to_str().expect("path")), holds],
            false,
        )
        .await;
        let bases = [server.base.clone(), second.base.clone()];
        let client = client();
        // Everyone at once; each worker's answers alternate between the servers.
        let tasks: Vec<_> = (0..asking)
            .map(|i| {
                let (client, campaign) = (client.clone(), campaign.clone());
                let bases: Vec<String> = if i % 2 == 0 { bases.to_vec() } else { bases.iter().rev().cloned().collect() };
                tokio::spawn(async move {
                    let worker = format!("both-{i}");
                    match fixtures::arrive(&client, &bases[0], &campaign, &worker).await {
                        Ok(Some(_)) => Some(do_hit(client, bases, campaign, worker, items, 5, i as u64 + 3, Arc::default()).await),
                        Ok(None) => None,
                        Err(r) => panic!("{worker}: crowd link answered {r:?}"),
                    }
                })
            })
            .collect();
        let mut logs = Vec::new();
        for t in tasks {
            if let Some(log) = t.await.expect("worker task") {
                logs.push(log);
            }
        }
        assert_eq!(logs.len(), hits * k, "every slot taken, by distinct workers; the others got no work");
        assert_eq!(logs.iter().map(|l| &l.assignment).collect::<HashSet<_>>().len(), hits * k);
        let db = open_db(&server.database_url).await;
        let rows = sqlx::query(
            "SELECT a.hit_id, a.slot, a.worker_id, a.status FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1",
        )
        .bind(campaign.id)
        .fetch_all(&db)
        .await
        .expect("assignments");
        assert_eq!(rows.len(), hits * k);
        let slots: HashSet<(i64, i64)> = rows.iter().map(|r| (r.get::<i64, _>("hit_id"), r.get::<i64, _>("slot"))).collect();
        let pairs: HashSet<(i64, i64)> = rows.iter().map(|r| (r.get::<i64, _>("hit_id"), r.get::<i64, _>("worker_id"))).collect();
        assert_eq!(slots.len(), hits * k, "a HIT slot went to two workers");
        assert_eq!(pairs.len(), hits * k, "a worker got the same HIT twice");
        assert!(rows.iter().all(|r| r.get::<String, _>("status") == "active"));
        for log in &logs {
            assert_eq!(log.acked, (0..items).collect::<Vec<_>>(), "{}", log.worker);
        }
        check_stored(&logs, &stored_judgments(&db, campaign.id).await);
    }
}
