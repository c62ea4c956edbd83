//! Setup shared by the protocols' end-to-end tests: an organizer uploads a WMT-style test set
//! and designs and launches a campaign through the designer's server functions, and the crowd
//! link is read from the campaign's progress.

use assay_tests::fixtures::*;
use assay_tests::*;
use serde_json::{Value, json};

/// A campaign to launch on a fresh test set of `segments` segments of `systems` (en-de).
pub struct Design<'a> {
    pub name: &'a str,
    /// The task's name as the designer sends it.
    pub task: &'a str,
    /// The test set's name.
    pub set: &'a str,
    pub segments: usize,
    pub systems: &'a [&'a str],
    pub seed: u64,
    pub settings: Value,
    /// The quality gate at submission (`None`: the designer's default, off).
    pub gate: Option<Value>,
}

/// A launched campaign.
pub struct Launched {
    /// The organizer's signed-in browser.
    pub org: Browser,
    pub id: i64,
    /// The crowd link's path and query.
    pub link: String,
    /// What `launch_campaign` answered (HITs, items, items per type).
    pub summary: Value,
}

/// Uploads the test set, creates the campaign from `d` and launches it; every step must succeed.
pub async fn launch(server: &TestServer, d: Design<'_>) -> Launched {
    let org = server.browser();
    assert_eq!(org.login(ORGANIZER).await.status, 200);
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", d.segments, d.systems);
    let set = upload_test_set(&org, dir.path(), d.set).await.unwrap();
    let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
    let mut draft = json!({
        "name": d.name,
        "task": d.task,
        "test_set_id": set["id"],
        "systems": systems,
        "benchmark_systems": [],
        "seed": d.seed,
        "settings": d.settings,
    });
    if let Some(gate) = d.gate {
        draft["gate"] = gate;
    }
    let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id: i64 = created.body.trim().parse().unwrap();
    let launched = org.call("launch_campaign", &[("campaign_id", &id.to_string())]).await;
    assert_eq!(launched.status, 200, "{}", launched.body);
    let summary = launched.json();
    let progress = org.call("campaign_progress", &[("campaign_id", &id.to_string())]).await.json();
    let link = progress["crowd_link"].as_str().unwrap();
    let link = format!("/{}", link.split_once("://").unwrap().1.split_once('/').unwrap().1);
    Launched { org, id, link, summary }
}

/// How many judgments the organizer's results list counts for campaign `id` (practice answers
/// are none).
pub async fn stored_judgments(org: &Browser, id: i64) -> u64 {
    let list = org.call("results_campaigns", &[]).await.json();
    list.as_array().unwrap().iter().find(|c| c["id"] == id).map_or(0, |c| c["judgments"].as_u64().unwrap())
}

/// One export file of campaign `id` as the organizer downloads it, with the export page's
/// options (`wilcoxon`: the paired tests' columns): (status, body).
pub async fn export_file(server: &TestServer, org: &Browser, id: i64, file: &str, wilcoxon: bool) -> (reqwest::StatusCode, String) {
    let url = format!("{}/campaigns/{id}/export/{file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon={wilcoxon}&filter=cleaned", server.base);
    let r = org.client.get(url).send().await.unwrap();
    let status = r.status();
    (status, r.text().await.unwrap())
}
