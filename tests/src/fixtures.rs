//! A launched campaign with crowd workers, built over HTTP as an organizer does it (upload a
//! generated WMT test set, create and launch a DA campaign, read its signed crowd link), and one
//! crowd worker's HIT loop. Shared by the load generator (`assay-load`) and the fault tests.

use crate::{Browser, ORGANIZER};
use serde_json::{Value, json};
use std::path::Path;

const WORDS: &[&str] = &[
    "the", "house", "river", "green", "quickly", "children", "morning", "bridge", "music", "light", "stone", "garden",
    "letter", "window", "storm", "mountain", "city", "quiet", "bread", "winter", "friend", "road", "cloud", "silver",
];

/// A deterministic sentence of 6–14 words.
pub fn sentence(i: usize, salt: usize) -> String {
    let n = 6 + (i * 7 + salt * 3) % 9;
    (0..n).map(|j| WORDS[(i * 5 + j * 11 + salt * 13 + j * j) % WORDS.len()]).collect::<Vec<_>>().join(" ") + "."
}

/// Writes a WMT-layout folder (sources/, references/, system-outputs/, documents/).
pub fn write_wmt(dir: &Path, pair: &str, segments: usize, systems: &[&str]) {
    write_wmt_with(dir, pair, segments, systems, sentence)
}

/// [`write_wmt`] with the text of segment `i` of file `salt` (0 source, 1 reference, 2… the
/// systems) from `text`.
pub fn write_wmt_with(dir: &Path, pair: &str, segments: usize, systems: &[&str], text: impl Fn(usize, usize) -> String) {
    let w = |p: &str, text: String| {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    let lines = |salt: usize| (0..segments).map(|i| text(i, salt) + "\n").collect::<String>();
    w(&format!("sources/{pair}.txt"), lines(0));
    w(&format!("references/{pair}.refA.txt"), lines(1));
    w(&format!("documents/{pair}.docs"), (0..segments).map(|i| format!("news doc{}\n", i / 10)).collect());
    for (k, s) in systems.iter().enumerate() {
        w(&format!("system-outputs/{pair}/{s}.txt"), lines(2 + k));
    }
}

/// Packs a folder as .tar.gz with the system's `tar`.
pub fn tar_gz(dir: &Path) -> Vec<u8> {
    let out = std::process::Command::new("tar").arg("czf").arg("-").arg("-C").arg(dir).arg(".").output().expect("tar");
    assert!(out.status.success(), "tar failed");
    out.stdout
}

/// Uploads a WMT-layout folder for language pair en-de as a .tar.gz import of test set `name`
/// and returns the test set as `list_test_sets` lists it.
pub async fn upload_test_set(org: &Browser, dir: &Path, name: &str) -> Result<Value, String> {
    let r = org
        .client
        .post(format!("{}/upload/import", org.base))
        .header("x-assay-file-name", format!("{name}.tar.gz"))
        .header("x-assay-test-set", name)
        .header("x-assay-pair", "en-de")
        .body(tar_gz(dir))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if r.status() != 200 {
        return Err(format!("upload: {}", r.text().await.unwrap_or_default()));
    }
    let sets = org.call("list_test_sets", &[]).await.json();
    sets.as_array()
        .and_then(|s| s.iter().find(|t| t["name"] == name))
        .cloned()
        .ok_or_else(|| "the imported test set is not listed".to_string())
}

/// A launched DA campaign open to crowd workers.
#[derive(Clone, Debug)]
pub struct CrowdCampaign {
    pub id: i64,
    pub hits: i64,
    /// Items per HIT.
    pub hit_length: i64,
    /// The signed link's path and query (`/c/…?sig=…`), to which a worker adds `&worker=…`.
    pub link_path: String,
}

/// Items in a HIT of the campaigns made here (the DA default: 70 system items, 10 bad
/// references, 10 repeats, 10 references).
pub const HIT_LENGTH: usize = 100;

/// Signs in as the demo organizer, uploads a generated test set, and creates and launches a DA
/// adequacy campaign with `hits` HITs of [`HIT_LENGTH`] items, each for `redundancy` distinct
/// workers.
pub async fn launch_crowd_campaign(base: &str, name: &str, hits: usize, redundancy: usize) -> Result<(Browser, CrowdCampaign), String> {
    launch_crowd_campaign_with(base, name, hits, redundancy, sentence).await
}

/// [`launch_crowd_campaign`] with the test set's texts from `text` (see [`write_wmt_with`]).
pub async fn launch_crowd_campaign_with(
    base: &str,
    name: &str,
    hits: usize,
    redundancy: usize,
    text: fn(usize, usize) -> String,
) -> Result<(Browser, CrowdCampaign), String> {
    let hit_length = HIT_LENGTH;
    let org = Browser::new(base);
    let a = org.call("login", &[("email", ORGANIZER.0), ("password", ORGANIZER.1)]).await;
    if a.status != 200 {
        return Err(format!("organizer login: {} {}", a.status, a.body));
    }
    // Quality-control items in DA HITs: 10% each of bad references, repeats and references.
    let qc = hit_length / 10;
    let system_items = hit_length - 3 * qc;
    let systems = ["Alpha", "Beta", "Gamma", "Delta"];
    let per_system = (hits * system_items).div_ceil(systems.len());
    let segments = per_system.max(20);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    write_wmt_with(dir.path(), "en-de", segments, &systems, text);
    let set = upload_test_set(&org, dir.path(), name).await?;
    let system_ids: Vec<i64> = set["systems"].as_array().ok_or("systems")?.iter().filter_map(|s| s["id"].as_i64()).collect();
    let draft = json!({
        "name": name,
        "task": "da-adequacy",
        "test_set_id": set["id"],
        "systems": system_ids,
        "benchmark_systems": [system_ids[0]],
        "seed": 7,
        "settings": {
            "judgments_wanted": per_system, "redundancy": redundancy, "target_language": "German",
            // The tests read the English interface (an en-de set would be German).
            "interface_language": "en",
            "assignment_timeout_minutes": 600
        }
    });
    let created = org.client.post(format!("{base}/api/create_campaign")).json(&json!({ "draft": draft })).send().await.map_err(|e| e.to_string())?;
    let created_status = created.status();
    let body = created.text().await.unwrap_or_default();
    if created_status != 200 {
        return Err(format!("create_campaign: {body}"));
    }
    let id: i64 = body.trim().parse().map_err(|_| format!("create_campaign answered {body}"))?;
    let launched = org.call("launch_campaign", &[("campaign_id", &id.to_string())]).await;
    if launched.status != 200 {
        return Err(format!("launch_campaign: {}", launched.body));
    }
    let launched_hits = launched.json()["hits"].as_i64().ok_or("launch summary")?;
    let progress = org.call("campaign_progress", &[("campaign_id", &id.to_string())]).await.json();
    let link = progress["crowd_link"].as_str().ok_or("crowd link")?;
    let link_path = format!("/{}", link.split_once("://").ok_or("link")?.1.split_once('/').ok_or("link")?.1);
    Ok((org, CrowdCampaign { id, hits: launched_hits, hit_length: hit_length as i64, link_path }))
}

/// What one HTTP exchange with the server came to.
#[derive(Debug)]
pub enum Reply {
    /// The server answered with this status and body.
    Answered(u16, String),
    /// No answer (connection refused or reset, timeout): the request may or may not have been
    /// carried out.
    Lost(String),
}

/// A crowd worker's link: GET `/c/…&worker=NAME`; the assignment's public id on a redirect.
pub async fn arrive(client: &reqwest::Client, base: &str, campaign: &CrowdCampaign, worker: &str) -> Result<Option<String>, Reply> {
    let r = client
        .get(format!("{base}{}&worker={worker}", campaign.link_path))
        .send()
        .await
        .map_err(|e| Reply::Lost(e.to_string()))?;
    let status = r.status().as_u16();
    let location = r.headers().get("location").and_then(|l| l.to_str().ok()).map(String::from);
    match (status, location) {
        (303, Some(l)) => Ok(l.strip_prefix("/work/").map(String::from)),
        (200, None) => Ok(None),
        (s, _) => Err(Reply::Answered(s, r.text().await.unwrap_or_default())),
    }
}

/// POSTs a server function's form fields; the reply.
pub async fn post(client: &reqwest::Client, base: &str, endpoint: &str, form: &[(&str, &str)]) -> Reply {
    match client.post(format!("{base}/api/{endpoint}")).header("origin", base).form(form).send().await {
        Ok(r) => {
            let status = r.status().as_u16();
            match r.text().await {
                Ok(body) => Reply::Answered(status, body),
                Err(e) => Reply::Lost(e.to_string()),
            }
        }
        Err(e) => Reply::Lost(e.to_string()),
    }
}

/// The score a simulated worker gives an item (deterministic, so a test can check what was
/// stored): a whole number 0–100 from the worker's name and the position.
pub fn score_for(worker: &str, position: i64) -> f64 {
    let h = worker.bytes().fold(position as u64 * 7919 + 17, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    (h % 101) as f64
}

/// The idempotency key of a worker's answer to an item: the same on every retry.
pub fn key_for(public_id: &str, position: i64) -> String {
    format!("{}-{position}", &public_id[..public_id.len().min(16)])
}

/// Submits the answer to `position`: the step the server returns (JSON) or the reply.
pub async fn submit(client: &reqwest::Client, base: &str, assignment: &str, worker: &str, position: i64) -> Reply {
    let score = score_for(worker, position).to_string();
    let pos = position.to_string();
    let key = key_for(assignment, position);
    post(
        client,
        base,
        "submit_judgment",
        &[("assignment", assignment), ("position", &pos), ("score", &score), ("time_on_screen_ms", "1500"), ("key", &key)],
    )
    .await
}

/// Parses a step (`submit_judgment`, `start_work`): (answered, next item position, finished).
pub fn parse_step(body: &str) -> Option<(i64, Option<i64>, bool)> {
    let v: Value = serde_json::from_str(body).ok()?;
    Some((v["answered"].as_i64()?, v["item"]["position"].as_i64(), !v["completion"].is_null()))
}
