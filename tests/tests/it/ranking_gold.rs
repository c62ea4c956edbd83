//! Gold blocks of relative ranking over HTTP, on both databases (issue 19; WMT 2012's
//! controls): gold orders imported for a test set (all or nothing, every problem with its
//! line), a campaign with gold blocks per HIT whose screens look like every other, each
//! worker's agreement with the gold orders feeding the verdict, the exclusion and the files,
//! and gold blocks in no ranking.

use assay_tests::fixtures::*;
use assay_tests::*;
use serde_json::{Value, json};

const SYSTEMS: [&str; 6] = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"];
/// The simulator's true order (its systems' qualities rise in the order of their names).
const TRUE_ORDER: &str = "Zeta > Gamma > Epsilon > Delta > Beta > Alpha";

async fn post_gold(b: &Browser, test_set: i64, file: &str, body: &str) -> Answer {
    let r = b
        .client
        .post(format!("{}/api/v1/test-sets/{test_set}/gold", b.base))
        .header("x-assay-file-name", file)
        .header("origin", &b.base)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    Answer { status, body: r.text().await.unwrap(), set_cookies: Vec::new() }
}

async fn stored_gold(server: &TestServer) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&server.database_url).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ranking_gold").fetch_one(&pool).await.unwrap();
    pool.close().await;
    n
}

/// Uploads a 24-segment, 6-system test set; returns the organizer and the test set.
async fn test_set(server: &TestServer) -> (Browser, Value) {
    let org = server.browser();
    assert_eq!(org.login(ORGANIZER).await.status, 200);
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", 24, &SYSTEMS);
    let set = upload_test_set(&org, dir.path(), "gold-set").await.unwrap();
    (org, set)
}

both_backends! {
    /// A gold file with problems is refused whole with each problem's line, and only
    /// organizers may import one.
    async fn gold_files_are_checked_against_the_test_set_all_or_nothing(server) {
        let (org, set) = test_set(&server).await;
        let id = set["id"].as_i64().unwrap();
        let bad = "segment\torder\n1\tZeta > Alpha\n2\tZeta > Omega\n99\tZeta > Alpha\n3\tAlpha = Beta\n1\tBeta > Alpha\n";
        let r = post_gold(&org, id, "gold.tsv", bad).await;
        assert_eq!(r.status, 400, "{}", r.body);
        let errors: Vec<String> = r.json()["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect();
        // The parser's problems first (a tie only, a segment twice); the names are checked
        // once the file reads.
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("gold.tsv, line 5:") && errors[0].contains("strict preference"), "{errors:?}");
        assert!(errors[1].starts_with("gold.tsv, line 6: segment \"1\" has a gold order already (line 2)"), "{errors:?}");
        let r = post_gold(&org, id, "gold.tsv", "1\tZeta > Alpha\n2\tZeta > Omega\n99\tZeta > Alpha\n").await;
        assert_eq!(r.status, 400, "{}", r.body);
        let errors: Vec<String> = r.json()["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect();
        assert_eq!(
            errors,
            ["gold.tsv, line 2: the test set has no output of system \"Omega\" for segment \"2\"", "gold.tsv, line 3: the test set has no segment \"99\""]
        );
        assert_eq!(stored_gold(&server).await, 0, "nothing stored");
        // Who may import: organizers and up.
        let anonymous = post_gold(&server.browser(), id, "gold.tsv", "1\tZeta > Alpha\n").await;
        assert_eq!(anonymous.status, 401, "{}", anonymous.body);
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        assert_eq!(post_gold(&researcher, id, "gold.tsv", "1\tZeta > Alpha\n").await.status, 403);
        assert_eq!(post_gold(&org, 987654, "gold.tsv", "1\tZeta > Alpha\n").await.status, 404);
        assert_eq!(stored_gold(&server).await, 0, "nothing stored");
        // A good file (JSONL, ties), then another replacing it.
        let jsonl = "{\"segment\": \"1\", \"order\": [[\"Zeta\"], [\"Gamma\", \"Epsilon\"], [\"Alpha\"]]}\n{\"segment\": \"2\", \"order\": \"zeta > alpha\"}\n";
        let r = post_gold(&org, id, "gold.jsonl", jsonl).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!((r.json()["orders"].as_u64(), r.json()["strict_pairs"].as_u64()), (Some(2), Some(6)), "{}", r.body);
        assert_eq!(stored_gold(&server).await, 6);
        let r = post_gold(&org, id, "gold.tsv", &format!("3\t{TRUE_ORDER}\n")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["replaced"], 2, "{}", r.body);
        assert_eq!(stored_gold(&server).await, 6);
        // A campaign asking for more gold blocks than the test set's gold orders give is refused
        // with the reason.
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        let draft = json!({
            "name": "Too little gold", "task": "ranking", "test_set_id": id, "systems": systems, "benchmark_systems": [], "seed": 5,
            "settings": { "hit_length": 4, "rank_blocks_per_screen": 2, "rank_outputs": 5, "bad_refs": 3, "repeats": 1,
                          "rank_gold_blocks": 3, "judgments_wanted": 20, "redundancy": 1 }
        });
        let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(created.status, 400, "{}", created.body);
        assert!(created.body.contains("a HIT needs 3 gold blocks, but the gold orders give 1"), "{}", created.body);
    }
}

both_backends! {
    /// Gold blocks hidden in ranking HITs: a careful simulated crowd passes them, random clickers
    /// are caught and excluded; gold blocks count in no ranking; the review page, the API and
    /// the exports show each worker's gold agreement.
    async fn gold_blocks_catch_random_rankers_and_count_in_no_ranking(server) {
        let (org, set) = test_set(&server).await;
        let id = set["id"].as_i64().unwrap();
        let gold: String = (1..=24).map(|s| format!("{s}\t{TRUE_ORDER}\n")).collect();
        let r = post_gold(&org, id, "gold.tsv", &gold).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
        // HITs of 4 screens × 2 segments × 5 outputs: 3 blocks with a degraded copy, 1 repeated
        // screen, 2 gold blocks; wanted: 6 systems × 20 = 120 outputs, 3 × 2 × 5 − 3 − 10 = 17 per HIT.
        let draft = json!({
            "name": "Gold ranking", "task": "ranking", "test_set_id": id, "systems": systems, "benchmark_systems": [], "seed": 9,
            "settings": { "hit_length": 4, "rank_blocks_per_screen": 2, "rank_outputs": 5, "bad_refs": 3, "repeats": 1,
                          "rank_gold_blocks": 2, "rank_gold_threshold": 0.7, "rank_gold_min_pairs": 10,
                          "judgments_wanted": 20, "redundancy": 2, "target_language": "German" }
        });
        let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let campaign: i64 = created.body.trim().parse().unwrap();
        let launched = org.call("launch_campaign", &[("campaign_id", &campaign.to_string())]).await;
        assert_eq!(launched.status, 200, "{}", launched.body);
        let summary = launched.json();
        assert_eq!(summary["hits"], 120usize.div_ceil(17), "{summary}");
        assert_eq!(summary["items"], 8 * 40, "the same outputs per HIT as without gold: {summary}");
        assert!(summary["per_type"]["GOLD"].as_i64().unwrap() >= 8 * 2 * 5, "{summary}");
        let progress = org.call("campaign_progress", &[("campaign_id", &campaign.to_string())]).await.json();
        let link = progress["crowd_link"].as_str().unwrap();
        let link_path = format!("/{}", link.split_once("://").unwrap().1.split_once('/').unwrap().1);

        // What the browser receives: every output of every screen has the same fields, gold or
        // not, and nothing names gold; a worker ranks a whole HIT by hand.
        let (w, a) = arrive_as(&server, &link_path, "BYHAND").await;
        let facts = org.call("assignment_items", &[("assignment", &a)]).await.json();
        let gold_positions: Vec<i64> = facts.as_array().unwrap().iter().filter(|i| !i["gold_rank"].is_null()).map(|i| i["position"].as_i64().unwrap()).collect();
        assert!(gold_positions.len() >= 10, "{facts}");
        let mut step = w.call("start_work", &[("assignment", &a)]).await.json();
        let mut gold_seen = 0;
        while step["completion"].is_null() {
            let text = step.to_string();
            assert!(!text.to_lowercase().contains("gold"), "nothing names gold: {text}");
            let mut items = vec![step["item"].clone()];
            items.extend(step["together"].as_array().cloned().unwrap_or_default());
            assert_eq!(items.len(), 10, "{step}");
            for it in &items {
                let mut keys: Vec<&str> = it.as_object().unwrap().keys().map(String::as_str).collect();
                keys.sort();
                assert_eq!(keys, ["candidate", "context", "position", "screen"], "every output looks alike: {it}");
            }
            let positions: Vec<i64> = items.iter().map(|it| it["position"].as_i64().unwrap()).collect();
            gold_seen += positions.iter().filter(|p| gold_positions.contains(p)).count();
            let ranks: Vec<Value> = positions.iter().enumerate().map(|(i, p)| json!({ "position": p, "rank": (i % 5) as u32 + 1 })).collect();
            let r = w.call_json("submit_screen", json!({ "assignment": a, "ranks": ranks, "time_on_screen_ms": 30000, "key": format!("s{}", positions[0]) })).await;
            assert_eq!(r.status, 200, "{}", r.body);
            step = r.json();
        }
        assert_eq!(gold_seen, gold_positions.len(), "every gold output is shown as a screen's output");

        // The rest of the slots: careful workers and random clickers.
        let careful = simulate_on(&server, campaign, "careful=1", "1", &["--workers", "7", "--spread", "60"]);
        assert!(careful.contains("did 7 HITs"), "{careful}");
        let random = simulate_on(&server, campaign, "random=1", "2", &["--spread", "60"]);
        assert!(random.contains("did 8 HITs"), "{random}");

        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await;
        assert_eq!(view.status, 200, "{}", view.body);
        let view = view.json();
        let rows = view["workers"].as_array().unwrap();
        let of = |prefix: &str| rows.iter().filter(|r| r["worker"].as_str().unwrap().contains(prefix)).cloned().collect::<Vec<Value>>();
        let (careful, random) = (of("sim-1-"), of("sim-2-"));
        assert_eq!((careful.len(), random.len()), (7, 8), "{view}");
        for c in &careful {
            let g = &c["gold"];
            assert!(g["pairs"].as_u64().unwrap() >= 20, "two gold blocks of 10 strict pairs at least: {c}");
            assert!(g["agreement"].as_f64().unwrap() >= 0.7, "{c}");
            assert_eq!((g["verdict"].as_str(), c["verdict"].as_str(), c["excluded"].as_bool()), (Some("pass"), Some("pass"), Some(false)), "{c}");
            assert_eq!(c["gate"]["verdict"], "pass", "the gate judged the gold at submission: {c}");
        }
        // A random ranker agrees with about half the gold pairs: caught, failed and excluded.
        let caught: Vec<&Value> = random.iter().filter(|r| r["gold"]["verdict"] == "fail").collect();
        assert!(caught.len() >= 6, "{random:?}");
        for r in &caught {
            assert!(r["gold"]["agreement"].as_f64().unwrap() < 0.7, "{r}");
            assert_eq!((r["verdict"].as_str(), r["excluded"].as_bool()), (Some("fail"), Some(true)), "{r}");
            assert_eq!(r["gate"]["verdict"], "fail", "{r}");
        }
        let by_hand = of("BYHAND").remove(0);
        assert!(by_hand["gold"]["pairs"].as_u64().unwrap() >= 20, "{by_hand}");

        // The API shows the same rows.
        let api = org.get(&format!("/api/v1/campaigns/{campaign}/workers")).await;
        assert_eq!(api.status, 200, "{}", api.body);
        assert!(api.body.contains("\"gold\"") && api.body.contains("copies_verdict"), "{}", api.body);

        // Gold blocks in no ranking: the ranked blocks (first showings and repeats, every worker)
        // are each HIT's 8 blocks less the gold blocks shown (5 outputs each).
        let r = org
            .call("campaign_results", &[("campaign_id", &campaign.to_string()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let results = r.json();
        let k = &results["ranking"];
        let get = |file: &str| {
            let url = format!("{}/campaigns/{campaign}/export/{file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false", server.base);
            let client = org.client.clone();
            async move {
                let r = client.get(url).send().await.unwrap();
                assert_eq!(r.status(), 200);
                r.text().await.unwrap()
            }
        };
        let judgments = get("judgments.csv").await;
        let header: Vec<&str> = judgments.lines().next().unwrap().split(',').collect();
        let type_col = header.iter().position(|c| *c == "item_type").unwrap();
        let gold_rows = judgments.lines().skip(1).filter(|l| l.split(',').nth(type_col) == Some("GOLD")).count() as u64;
        assert!(gold_rows >= 16 * 10, "{gold_rows}");
        let ranked = k["blocks_all"].as_u64().unwrap() + k["blocks_repeated"].as_u64().unwrap();
        assert_eq!(ranked, 16 * 8 - gold_rows / 5, "{k}");
        // The WMT ranking file holds the kept workers' first showings only, none of them gold.
        let wmt = get("wmt-ranking-en-de.csv").await;
        assert_eq!(wmt.lines().count() as u64 - 1, k["blocks"].as_u64().unwrap(), "{wmt}");
        // Every worker's gold check in its own file.
        let files: Vec<&str> = results["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        assert!(files.contains(&"gold-agreement.csv"), "{files:?}");
        let agreement = get("gold-agreement.csv").await;
        assert!(agreement.starts_with("worker,task,gold_blocks,gold_pairs,agreed,tied_by_worker,agreement,threshold,min_pairs,gold_verdict,copies_verdict,verdict,excluded"), "{agreement}");
        assert_eq!(agreement.lines().count(), 1 + 16, "{agreement}");
        assert!(agreement.lines().any(|l| l.contains("sim-2-") && l.contains(",fail,") && l.ends_with(",true")), "{agreement}");
        // Gold made from where the kept workers agreed: a gold file the import takes back.
        assert!(files.contains(&"gold-from-agreement.tsv"), "{files:?}");
        let made = get("gold-from-agreement.tsv").await;
        assert!(made.starts_with("segment\torder\n"), "{made}");
        let again = post_gold(&org, id, "gold-from-agreement.tsv", &made).await;
        if made.lines().count() > 1 {
            assert_eq!(again.status, 200, "{}", again.body);
        } else {
            assert!(again.body.contains("no gold order in the file"), "{}", again.body);
        }
        eprintln!(
            "gold agreement: careful {:?}, random {:?}; {} gold orders made from agreement",
            careful.iter().map(|c| c["gold"]["agreement"].as_f64().unwrap()).collect::<Vec<_>>(),
            random.iter().map(|c| c["gold"]["agreement"].as_f64().unwrap()).collect::<Vec<_>>(),
            made.lines().count() - 1
        );
    }
}
