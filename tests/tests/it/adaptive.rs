//! `assay simulate --design` and `--replay` (issue 39): the files the issue specifies, and typed
//! refusals of bad input that write nothing.

use assay_tests::{assay_cli, succeeded};
use serde_json::Value;

#[test]
fn the_design_benchmark_and_the_replay_write_what_the_issue_specifies() {
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.tsv");
    std::fs::write(&truth, "system\tmean\nA\t80\nB\t60\nC\t40\n").unwrap();
    let out = dir.path().join("bench");
    let t = truth.to_str().unwrap();
    succeeded(&assay_cli(&["simulate", "--design", "both", "--truth", t, "--crowd", "careful=0.7,noisy=0.2,careless=0.1", "--runs", "3", "--seed", "2", "--alpha", "0.05", "--out", out.to_str().unwrap()]));
    let design: Value = serde_json::from_str(&std::fs::read_to_string(out.join("design.json")).unwrap()).unwrap();
    for d in ["adaptive", "uniform"] {
        let s = &design[d];
        assert_eq!(s["runs"], 3, "{design}");
        for key in ["judgments_median", "judgments_q1", "judgments_q3"] {
            assert!(s[key].as_f64().unwrap() >= 100.0, "{d} {key}: {design}");
        }
        assert!(s["judgments_q1"].as_f64() <= s["judgments_median"].as_f64() && s["judgments_median"].as_f64() <= s["judgments_q3"].as_f64());
        // Three systems 20 points apart: every pair decided, none the wrong way round.
        assert_eq!((s["pairs_decided"].as_u64(), s["pairs_wrong"].as_u64()), (Some(9), Some(0)), "{d}: {design}");
    }
    // A replay of a simulated judgment file.
    let tsv = dir.path().join("sim.tsv");
    succeeded(&assay_cli(&["simulate", "--judgments", "20000", "--systems", "3", "--seed", "4", "--out", tsv.to_str().unwrap()]));
    let rout = dir.path().join("replay");
    succeeded(&assay_cli(&["simulate", "--replay", tsv.to_str().unwrap(), "--design", "both", "--alpha", "0.05", "--runs", "3", "--seed", "1", "--out", rout.to_str().unwrap()]));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(rout.join("replay.json")).unwrap()).unwrap();
    let available = replay["adaptive"]["judgments_available"].as_u64().unwrap();
    assert!((13_000..=14_100).contains(&available), "the file's SYSTEM scores: {replay}");
    for d in ["adaptive", "uniform"] {
        let s = &replay[d];
        assert_eq!(s["runs"], 3);
        assert_eq!(s["judgments_available"], available, "{replay}");
        assert!(s["judgments_median"].as_f64().unwrap() <= available as f64);
        assert!(s["pairs_decided"].as_u64().unwrap() + s["pairs_too_close"].as_u64().unwrap() + s["pairs_open"].as_u64().unwrap() == 9);
        assert!(s["pairs_disagreeing"].is_u64());
    }
    assert_eq!(replay["full_analysis"]["systems"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_benchmark_input_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.tsv");
    std::fs::write(&truth, "A\t80\nB\tlots\n").unwrap();
    let good = dir.path().join("good.tsv");
    std::fs::write(&good, "A\t80\nB\t60\n").unwrap();
    let out = dir.path().join("o");
    let o = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--design", "both", "--truth", truth.to_str().unwrap()], "line 2"),
        (vec!["--design", "sideways", "--truth", good.to_str().unwrap()], "--design must be adaptive, uniform or both"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--crowd", "careful=0.5"], "sum to"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--alpha", "1.5"], "α must be between 0 and 1"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--runs", "0"], "--runs must be at least 1"),
    ] {
        let mut argv = vec!["simulate"];
        argv.extend(args);
        argv.extend(["--out", o]);
        let failed = assay_cli(&argv);
        assert!(!failed.status.success(), "{argv:?}");
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert!(stderr.contains(says), "{argv:?}: {stderr}");
        assert!(!out.exists(), "{argv:?} wrote {o}");
    }
}

mod campaign {
    //! An adaptive DA campaign through the real storage path (issue 39 item 1): launched with
    //! its warm-up HITs only, its next HITs built when work is handed out, stopping by itself.

    use crate::setup::{Design, Launched, launch};
    use assay_tests::*;
    use serde_json::{Value, json};
    use std::collections::HashSet;

    const SYSTEMS: [&str; 3] = ["Alpha", "Beta", "Gamma"];

    /// An en-de DA campaign on a fresh 60-segment test set of [`SYSTEMS`], one worker per HIT,
    /// with the adaptive design `adaptive` (`{}`: the default, off).
    fn design<'a>(name: &'a str, set: &'a str, adaptive: Value) -> Design<'a> {
        let settings = json!({ "judgments_wanted": 280, "redundancy": 1, "target_language": "German", "interface_language": "en", "adaptive": adaptive });
        Design { name, task: "da-adequacy", set, segments: 60, systems: &SYSTEMS, seed: 11, settings, gate: None }
    }

    /// The `(HITs, judgments)` that `assay simulate --campaign` reports.
    fn simulated(stderr: &str) -> (usize, usize) {
        let line = stderr.lines().find(|l| l.contains(" judgments) in ")).unwrap_or_else(|| panic!("{stderr}"));
        let hits: usize = line.split(" did ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        let judgments: usize = line.split(" HITs (").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        (hits, judgments)
    }

    both_backends! {
        async fn an_adaptive_da_campaign_stops_by_itself_with_fewer_judgments_than_uniform(server) {
            // The uniform design of the same campaign: its HITs are the budget.
            let uniform = launch(&server, design("uniform", "uniform-set", json!({}))).await.summary;
            let uniform_hits = uniform["hits"].as_u64().unwrap() as usize;
            assert!(uniform_hits >= 10, "{uniform}");
            let Launched { org, id, link, summary: launched } = launch(&server, design("adaptive", "adaptive-set", json!({ "enabled": true, "alpha": 0.05, "warm_up": 0.1 }))).await;
            // Launched with the warm-up share of the budget only (10% of the uniform judgments).
            let warm_up = launched["hits"].as_u64().unwrap() as usize;
            assert_eq!(warm_up, (uniform_hits as f64 * 0.1).ceil() as usize, "{launched}");

            // Simulated crowd workers through the real storage path; the simulator's systems are
            // 15 points apart (Alpha 45, Beta 60, Gamma 75).
            let sim = server.assay(&["simulate", "--campaign", &id.to_string(), "--mix", "careful=80,noisy=20", "--seed", "3", "--spread", "30"]).output().unwrap();
            let stderr = String::from_utf8_lossy(&sim.stderr).to_string();
            assert!(sim.status.success(), "{stderr}");
            let (hits, judgments) = simulated(&stderr);
            eprintln!("adaptive campaign: {hits} HITs, {judgments} judgments (warm-up {warm_up} HITs); uniform design: {uniform_hits} HITs, {} judgments", uniform_hits * 100);
            assert!(hits > warm_up, "HITs were built on demand after the warm-up: {stderr}");
            assert!(judgments < uniform_hits * 100, "the campaign stopped before the uniform budget of {} judgments: {stderr}", uniform_hits * 100);
            assert!(stderr.contains("found no work"), "{stderr}");

            // It stopped because every pair is decided, each the right way round.
            let live = org.call("campaign_adaptive", &[("campaign_id", &id.to_string())]).await;
            assert_eq!(live.status, 200, "{}", live.body);
            let live = live.json();
            assert_eq!(live["stop"], "Settled", "{live}");
            assert_eq!(live["pairs_open"], 0, "{live}");
            assert_eq!(live["judgments"].as_u64().unwrap() as usize, judgments, "{live}");
            assert_eq!(live["hits"].as_u64().unwrap() as usize, hits, "every HIT built was done: {live}");
            let better: HashSet<(String, String)> = live["pairs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p["better"].as_str().unwrap_or("").to_string(), p["worse"].as_str().unwrap_or("").to_string()))
                .collect();
            let want: HashSet<(String, String)> =
                [("Gamma", "Beta"), ("Gamma", "Alpha"), ("Beta", "Alpha")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
            assert_eq!(better, want, "{live}");

            // A crowd arrival now gets the campaign's "no more work" answer, and no HIT is built.
            let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
            let r = client.get(format!("{}{link}&workerId=LATE&assignmentId=L1&hitId=H&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com", server.base)).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 200);
            assert!(r.text().await.unwrap().contains("no HIT for you"));
            let after = org.call("campaign_adaptive", &[("campaign_id", &id.to_string())]).await.json();
            assert_eq!(after["hits"], live["hits"], "{after}");
        }

        async fn the_workers_quality_control_leaves_out_of_the_results_do_not_enter_the_decisions(server) {
            // Careful workers and random clickers; the uniform budget caps the campaign.
            let Launched { org, id, .. } = launch(&server, design("adaptive", "adaptive-qc-set", json!({ "enabled": true, "warm_up": 0.1 }))).await;
            let sim = server.assay(&["simulate", "--campaign", &id.to_string(), "--mix", "careful=60,random=40", "--seed", "5", "--spread", "30"]).output().unwrap();
            let stderr = String::from_utf8_lossy(&sim.stderr).to_string();
            assert!(sim.status.success(), "{stderr}");

            // What the results' quality control says of each worker.
            let review = org.call("campaign_workers", &[("campaign_id", &id.to_string()), ("wilcoxon", "false"), ("per_page", "200")]).await;
            assert_eq!(review.status, 200, "{}", review.body);
            let review = review.json();
            let rows = review["workers"].as_array().unwrap();
            assert_eq!(review["total"].as_u64(), Some(rows.len() as u64), "every worker on one page: {review}");
            let excluded: Vec<String> = {
                let mut e: Vec<String> = rows.iter().filter(|w| w["excluded"] == true).map(|w| w["worker"].as_str().unwrap().to_string()).collect();
                e.sort();
                e
            };
            assert!(!excluded.is_empty(), "a random clicker fails the reliability test: {review}");
            assert!(rows.iter().any(|w| w["excluded"] == false), "{review}");
            let hits_of = |keep: bool| -> u64 { rows.iter().filter(|w| (w["excluded"] == false) == keep).map(|w| w["hits"].as_u64().unwrap()).sum() };
            let (kept_hits, left_hits) = (hits_of(true), hits_of(false));
            assert!(left_hits > 0, "{review}");

            // The decisions leave out the same workers, and read exactly the kept workers'
            // SYSTEM items (70 of each completed HIT of 100 items).
            let live = org.call("campaign_adaptive", &[("campaign_id", &id.to_string())]).await;
            assert_eq!(live.status, 200, "{}", live.body);
            let live = live.json();
            let left_out: Vec<String> = live["left_out"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect();
            assert_eq!(left_out, excluded, "{live}");
            assert_eq!(live["scores_read"].as_u64().unwrap(), 70 * kept_hits, "only the kept workers' scores: {live}");
            let observations: u64 = live["pairs"].as_array().unwrap().iter().map(|p| p["observations"].as_u64().unwrap()).sum();
            assert!(observations > 0, "{live}");
            // With the random clickers' scores the decisions would have read more.
            assert!(live["scores_read"].as_u64().unwrap() < 70 * (kept_hits + left_hits), "{live}");
            // And what the decisions settled on is the truth's order (Alpha 45, Beta 60, Gamma 75).
            for p in live["pairs"].as_array().unwrap() {
                if p["verdict"] == "decided" {
                    let order = |s: &str| SYSTEMS.iter().position(|x| *x == s).unwrap();
                    assert!(order(p["better"].as_str().unwrap()) > order(p["worse"].as_str().unwrap()), "{live}");
                }
            }

            // The results: beside the standard reading, every worker's scores weighted by his
            // precision (issue 39 item 3): the truth's order, and the random clickers, who pull
            // the plain mean of every worker towards 50, barely move the weighted one.
            let results = org
                .call("campaign_results", &[("campaign_id", &id.to_string()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
                .await;
            assert_eq!(results.status, 200, "{}", results.body);
            let results = results.json();
            let group = &results["groups"][0];
            assert_eq!(group["systems"].as_array().unwrap().len(), 3, "the standard reading stays: {results}");
            let weighted = group["weighted"].as_array().unwrap();
            let names: Vec<&str> = weighted.iter().map(|w| w["name"].as_str().unwrap()).collect();
            assert_eq!(names, ["Gamma", "Beta", "Alpha"], "{group}");
            let spread = |key: &str| weighted[0][key].as_f64().unwrap() - weighted[2][key].as_f64().unwrap();
            assert!(spread("weighted") > spread("raw_mean"), "weighted {} vs plain {}: {group}", spread("weighted"), spread("raw_mean"));
            for w in weighted {
                assert!(w["low"].as_f64() <= w["weighted"].as_f64() && w["weighted"].as_f64() <= w["high"].as_f64(), "{w}");
            }
        }

        async fn the_designers_dry_run_shows_the_uniform_and_the_adaptive_design_side_by_side(server) {
            let org = server.browser();
            assert_eq!(org.login(ORGANIZER).await.status, 200);
            let dir = tempfile::tempdir().unwrap();
            assay_tests::fixtures::write_wmt(dir.path(), "en-de", 60, &SYSTEMS);
            let set = assay_tests::fixtures::upload_test_set(&org, dir.path(), "adaptive-dry-set").await.unwrap();
            let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().filter_map(|s| s["id"].as_i64()).collect();
            let draft = |adaptive: Value| json!({
                "name": "dry", "task": "da-adequacy", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 11,
                "settings": { "judgments_wanted": 280, "redundancy": 1, "target_language": "German", "interface_language": "en",
                              "payment_per_hit": 3.0, "payment_currency": "EUR", "adaptive": adaptive }
            });
            let crowd = json!({ "careful": 80.0, "noisy": 10.0, "careless": 10.0, "workers": 0, "spread": 30.0, "alpha": 0.05 });
            let check = org.call_json("check_design", json!({ "draft": draft(json!({ "enabled": true })) })).await.json();
            let assignments = check["implications"]["assignments"].as_f64().unwrap();
            assert!(assignments >= 10.0, "{check}");
            let dry = org.call_json("dry_run_design", json!({ "draft": draft(json!({ "enabled": true })), "crowd": crowd })).await;
            assert_eq!(dry.status, 200, "{}", dry.body);
            let dry = dry.json();
            let both = &dry["adaptive"];
            assert_eq!(both["pairs"], 3, "{dry}");
            // The uniform design does every HIT the launch would build: its cost is the check's.
            assert_eq!(both["uniform"]["assignments"].as_f64(), Some(assignments), "{dry}");
            assert_eq!(both["uniform"]["judgments"].as_f64(), Some(assignments * 100.0), "{dry}");
            assert_eq!(both["uniform"]["money"].as_f64(), Some(assignments * 3.0), "{dry}");
            // The adaptive design, on systems 15 points apart, stops sooner, every pair decided.
            let adaptive = &both["adaptive"];
            assert!(adaptive["judgments"].as_f64().unwrap() < assignments * 100.0, "{dry}");
            assert_eq!(adaptive["money"].as_f64().unwrap(), adaptive["assignments"].as_f64().unwrap() * 3.0, "{dry}");
            assert_eq!(adaptive["pairs_decided"].as_f64(), Some(3.0), "{dry}");
            // Without adaptive allocation, the dry run says nothing of it.
            let plain = org.call_json("dry_run_design", json!({ "draft": draft(json!({})), "crowd": crowd })).await.json();
            assert!(plain["adaptive"].is_null(), "{plain}");
        }

        async fn adaptive_hits_are_built_once_under_concurrent_arrivals_on_two_app_servers(server) {
            let Launched { org, id, link: path, summary: launched } = launch(&server, design("adaptive", "adaptive-set", json!({ "enabled": true, "warm_up": 0.0, "budget": 100000 }))).await;
            assert_eq!(launched["hits"], 1, "{launched}");
            let progress = org.call("campaign_progress", &[("campaign_id", &id.to_string())]).await.json();
            let second = TestServer::start_with(
                if server.database_url.starts_with("sqlite") { Backend::Sqlite } else { Backend::Postgres },
                &[("DATABASE_URL", server.database_url.as_str()), ("ASSAY_DATA_DIR", server.data_dir.path().to_str().unwrap())],
            )
            .await
            .expect("second server");
            let bases = [server.base.clone(), second.base.clone()];
            let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
            let tasks: Vec<_> = (0..8)
                .map(|i| {
                    let url = format!("{}{path}&PROLIFIC_PID=P{i}&STUDY_ID=S&SESSION_ID=X{i}", bases[i % 2]);
                    let client = client.clone();
                    tokio::spawn(async move {
                        let r = client.get(url).send().await.unwrap();
                        (r.status().as_u16(), r.headers().get("location").and_then(|l| l.to_str().ok()).map(String::from))
                    })
                })
                .collect();
            let mut given = Vec::new();
            for t in tasks {
                let (status, location) = t.await.unwrap();
                assert_eq!(status, 303, "every arrival gets work while the budget lasts");
                given.push(location.unwrap());
            }
            assert_eq!(given.iter().collect::<HashSet<_>>().len(), 8, "{given:?}");
            // One worker per HIT (k = 1): 8 arrivals, 8 HITs (the warm-up one and 7 built on
            // demand), none built twice, none left over.
            let live = org.call("campaign_adaptive", &[("campaign_id", &id.to_string())]).await.json();
            assert_eq!(live["hits"], 8, "{live}");
            assert_eq!(progress["open"], 1);
            let p = org.call("campaign_progress", &[("campaign_id", &id.to_string())]).await.json();
            assert_eq!((p["in_progress"].as_i64(), p["open"].as_i64()), (Some(8), Some(0)), "{p}");
        }
    }
}
