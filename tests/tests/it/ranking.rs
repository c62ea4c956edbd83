//! Relative ranking end to end over HTTP, on both databases (issue 19): an organizer designs
//! and launches a ranking campaign; crowd workers rank whole screens (blocks of outputs of
//! consecutive segments), all or nothing; what the browser receives hides which output is a
//! degraded copy; the review page judges each worker by a sign test on their copies.

use assay_tests::*;
use serde_json::{Value, json};

use crate::setup::{Design, Launched};

const SYSTEMS: [&str; 6] = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"];

/// Uploads a 6-system test set and launches a ranking campaign: HITs of 4 screens × 2 segments
/// × 5 outputs, 5 blocks with a degraded copy and 1 repeated screen, for 2 workers each.
async fn launch(server: &TestServer) -> (Browser, i64, String) {
    let settings = json!({
        "hit_length": 4, "rank_blocks_per_screen": 2, "rank_outputs": 5, "bad_refs": 5, "repeats": 1,
        "judgments_wanted": 20, "redundancy": 2, "target_language": "German", "rank_show_reference": true
    });
    let design = Design { name: "Ranking en-de", task: "ranking", set: "ranking-set", segments: 24, systems: &SYSTEMS, seed: 5, settings, gate: None };
    let Launched { org, id, link, summary } = crate::setup::launch(server, design).await;
    // 6 systems × 20 = 120 outputs; 3 first screens × 2 × 5 − 5 copies = 25 per HIT → 5 HITs.
    assert_eq!(summary["hits"], 5, "{summary}");
    assert_eq!(summary["items"], 5 * 40, "{summary}");
    assert_eq!(summary["per_type"]["BAD_REF"].as_i64().unwrap() >= 25, true, "{summary}");
    (org, id, link)
}

/// The positions of a step's screen, checking that the browser learns nothing it should not.
fn screen_positions(step: &Value) -> Vec<i64> {
    let mut items = vec![step["item"].clone()];
    items.extend(step["together"].as_array().cloned().unwrap_or_default());
    for it in &items {
        let mut keys: Vec<&str> = it.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["candidate", "context", "position", "reference", "screen"], "every output looks alike: {it}");
    }
    items.iter().map(|it| it["position"].as_i64().unwrap()).collect()
}

async fn submit_screen(b: &Browser, assignment: &str, ranks: &[(i64, u32)], key: &str) -> Answer {
    let ranks: Vec<Value> = ranks.iter().map(|&(p, r)| json!({ "position": p, "rank": r })).collect();
    b.call_json("submit_screen", json!({ "assignment": assignment, "ranks": ranks, "time_on_screen_ms": 30000, "key": key })).await
}

/// Works through the rest of a HIT, `screens` screens: `rank(type, system)` gives each
/// output's rank.
async fn rank_all(b: &Browser, org: &Browser, assignment: &str, screens_left: usize, rank: impl Fn(&str, &str) -> u32) -> Value {
    let facts = item_facts(org, assignment).await;
    let mut step = b.call("start_work", &[("assignment", assignment)]).await.json();
    let mut screens = 0;
    while step["completion"].is_null() {
        let positions = screen_positions(&step);
        assert_eq!(positions.len(), 10, "a screen of 2 blocks of 5: {step}");
        let ranks: Vec<(i64, u32)> = positions.iter().map(|p| (*p, rank(&facts[p].0, &facts[p].1))).collect();
        let r = submit_screen(b, assignment, &ranks, &format!("screen-{}", positions[0])).await;
        assert_eq!(r.status, 200, "{}", r.body);
        step = r.json();
        screens += 1;
    }
    assert_eq!(screens, screens_left);
    step
}

both_backends! {
    async fn workers_rank_whole_screens_and_are_judged_by_their_degraded_copies(server) {
        let (org, campaign, link) = launch(&server).await;
        let (careful, a) = arrive_as(&server, &link, "CAREFUL").await;
        let facts_a = item_facts(&org, &a).await;

        // The first screen: two blocks of five, each with its source and (as set) reference.
        let step = careful.call("start_work", &[("assignment", &a)]).await;
        assert_eq!(step.status, 200, "{}", step.body);
        let step = step.json();
        let positions = screen_positions(&step);
        assert_eq!(positions, (0..10).collect::<Vec<_>>());
        assert!(step["item"]["reference"].as_str().is_some_and(|r| !r.is_empty()), "{step}");

        // Refusals change nothing: a single item, a partial screen, a rank out of range.
        let one = careful
            .call("submit_judgment", &[("assignment", &a), ("position", "0"), ("score", "50"), ("time_on_screen_ms", "900"), ("key", "single")])
            .await;
        assert_eq!(one.status, 400, "{}", one.body);
        let partial: Vec<(i64, u32)> = (0..5).map(|p| (p, 1)).collect();
        let r = submit_screen(&careful, &a, &partial, "partial").await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("every item of one screen"), "{}", r.body);
        let too_high: Vec<(i64, u32)> = (0..10).map(|p| (p, if p == 3 { 6 } else { 1 })).collect();
        let r = submit_screen(&careful, &a, &too_high, "high").await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("Item 4") && r.body.contains("between 1 (best) and 5 (worst)"), "{}", r.body);

        // A careful worker: systems in their order, each degraded copy last; a retry of a screen
        // with the same key is answered with the current step, another answer is refused.
        let quality = |system: &str| SYSTEMS.iter().position(|s| *s == system).unwrap() as u32 + 1;
        let careful_rank = |t: &str, s: &str| if t == "BAD_REF" { 5 } else { quality(s).min(4) };
        let first: Vec<(i64, u32)> = positions.iter().map(|p| (*p, careful_rank(&facts_a[p].0, &facts_a[p].1))).collect();
        let r = submit_screen(&careful, &a, &first, "screen-0").await;
        assert_eq!(r.status, 200, "{}", r.body);
        let next = r.json();
        assert_eq!(next["answered"], 10);
        let again = submit_screen(&careful, &a, &first, "screen-0").await;
        assert_eq!(again.status, 200, "a retry: {}", again.body);
        assert_eq!(again.json()["answered"], 10);
        let changed: Vec<(i64, u32)> = first.iter().map(|&(p, r)| (p, 6 - r.min(5))).collect();
        let r = submit_screen(&careful, &a, &changed, "screen-0").await;
        assert_eq!(r.status, 409, "{}", r.body);
        let done = rank_all(&careful, &org, &a, 3, careful_rank).await;
        assert!(done["completion"]["code"].as_str().is_some_and(|c| !c.is_empty()), "{done}");

        // Stored: each output's rank, read as a score (N − rank)/(N − 1).
        let judgments = org.call("assignment_judgments", &[("assignment", &a)]).await.json();
        let judgments = judgments.as_array().unwrap();
        assert_eq!(judgments.len(), 40);
        for j in judgments {
            let p = j["position"].as_i64().unwrap();
            let r = careful_rank(&facts_a[&p].0, &facts_a[&p].1);
            assert_eq!(j["score"].as_f64().unwrap(), (5.0 - r as f64) / 4.0, "{j}");
        }

        // A worker who prefers the degraded copies.
        let (sloppy, b) = arrive_as(&server, &link, "SLOPPY").await;
        rank_all(&sloppy, &org, &b, 4, |t, s| if t == "BAD_REF" { 1 } else { quality(s).min(4) + 1 }).await;

        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await;
        assert_eq!(view.status, 200, "{}", view.body);
        let view = view.json();
        let row = |w: &str| view["workers"].as_array().unwrap().iter().find(|r| r["worker"].as_str().unwrap().ends_with(w)).cloned().unwrap_or_else(|| panic!("{w}: {view}"));
        let c = row("CAREFUL");
        assert_eq!((c["task"].as_str(), c["verdict"].as_str()), (Some("ranking"), Some("pass")), "{c}");
        assert!(c["test"].as_str().unwrap().contains("sign"), "{c}");
        // Every copy in the first showings (5) and in a repeated screen: won by the original.
        let pairs = c["n_pairs"].as_u64().unwrap();
        assert!(pairs >= 5, "{c}");
        assert!((c["p_value"].as_f64().unwrap() - 0.5f64.powi(pairs as i32)).abs() < 1e-12, "p = 2^-n: {c}");
        let s = row("SLOPPY");
        assert_eq!(s["verdict"], "fail", "{s}");
        assert!((s["p_value"].as_f64().unwrap() - 1.0).abs() < 1e-12, "{s}");

        results_rank_systems_by_every_method(&server, &org, campaign).await;
    }
}

/// The results of the campaign above: the ranking section (every method on the careful
/// worker's first showings), its files in the export, and the same figures from `assay analyze
/// --input` on the exported WMT ranking CSV.
async fn results_rank_systems_by_every_method(server: &TestServer, org: &Browser, campaign: i64) {
    let id = campaign.to_string();
    let r = org
        .call("campaign_results", &[("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let view = r.json();
    let k = &view["ranking"];
    assert_eq!(k["lang_pair"], "en-de", "{k}");
    // The careful worker's 3 first screens × 2 blocks; the sloppy one (failed) is left out; each
    // did one repeated screen of 2 blocks.
    assert_eq!((k["blocks"].as_u64(), k["blocks_all"].as_u64(), k["blocks_repeated"].as_u64(), k["judges_excluded"].as_u64()), (Some(6), Some(12), Some(4), Some(1)), "{k}");
    let rows = k["rows"].as_array().unwrap();
    let methods: Vec<&str> = k["methods"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(methods, ["wins ratio", "wins and ties ratio", "expected wins", "TrueSkill", "minimum feedback arc set", "most probable ranking"]);
    // The careful worker ranks Alpha best whenever it is shown, then Beta, then Gamma; the degraded
    // copies are not outputs of any system here.
    let shown: Vec<&str> = rows.iter().map(|r| r["system"].as_str().unwrap()).collect();
    assert_eq!(shown.len(), 6, "{k}");
    let wins: u64 = rows.iter().map(|r| r["wins"].as_u64().unwrap()).sum();
    let losses: u64 = rows.iter().map(|r| r["losses"].as_u64().unwrap()).sum();
    assert_eq!(wins, losses, "every comparison has a winner and a loser");
    let at = |name: &str| rows.iter().find(|r| r["system"] == name).unwrap_or_else(|| panic!("{name}: {k}"));
    if at("Alpha")["wins"].as_u64().unwrap() > 0 {
        assert_eq!(at("Alpha")["losses"], 0, "{k}");
        assert_eq!(at("Alpha")["wins_ratio"].as_f64(), Some(1.0));
    }
    // Gamma never beats Beta, and whoever ranks 4 ties with the others ranked 4.
    assert!(at("Delta")["ties"].as_u64().unwrap() + at("Epsilon")["ties"].as_u64().unwrap() + at("Zeta")["ties"].as_u64().unwrap() > 0, "{k}");
    // WMT 2012's κ over the kept worker's blocks, repeats included: one worker gives no
    // inter-annotator comparison; their repeated screen, ranked the same way, agrees fully.
    let kappa = |kind: &str| k["agreement"].as_array().unwrap().iter().find(|a| a["kind"] == kind).cloned().unwrap();
    assert_eq!(kappa("inter")["comparisons"], 0, "{k}");
    let intra = kappa("intra");
    assert!(intra["comparisons"].as_u64().unwrap() > 0 && intra["agreeing"] == intra["comparisons"], "{intra}");
    assert_eq!(intra["kappa"].as_f64(), Some(1.0), "{intra}");
    assert!(k["rank_range_svg"].as_str().unwrap().contains("rank-range"), "{k}");
    assert!(k["head_to_head_svg"].as_str().unwrap().contains("head-to-head"), "{k}");
    let files: Vec<&str> = view["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    for f in ["ranking-en-de.csv", "head-to-head-en-de.csv", "wmt-ranking-en-de.csv", "ranking-agreement.csv"] {
        assert!(files.contains(&f), "{f} offered: {files:?}");
    }

    // The files, as the export serves them.
    let get = |file: &'static str| {
        let url = format!("{}/campaigns/{id}/export/{file}?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=cleaned", server.base);
        let client = org.client.clone();
        async move {
            let r = client.get(url).send().await.unwrap();
            assert_eq!(r.status(), 200, "{file}");
            r.text().await.unwrap()
        }
    };
    let ranking_csv = get("ranking-en-de.csv").await;
    assert!(ranking_csv.starts_with("system,wins,losses,ties,wins_ratio,wins_and_ties_ratio,expected_wins,rank_lo,rank_hi,trueskill_mu,trueskill_sigma,mfas_rank"), "{ranking_csv}");
    assert_eq!(ranking_csv.lines().count(), 7, "{ranking_csv}");
    let agreement = get("ranking-agreement.csv").await;
    assert!(agreement.lines().any(|l| l.starts_with("en-de,intra,")), "{agreement}");
    let wmt = get("wmt-ranking-en-de.csv").await;
    assert_eq!(wmt.lines().count(), 7, "a header and the 6 blocks: {wmt}");
    assert!(wmt.lines().skip(1).all(|l| l.starts_with("en,de,") && l.contains("CAREFUL")), "{wmt}");

    // `assay analyze --input` on the exported blocks gives the page's figures.
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("wmt-ranking-en-de.csv");
    std::fs::write(&input, &wmt).unwrap();
    let out = dir.path().join("out");
    let run = std::process::Command::new(assay_bin())
        .args(["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "1000", "--seed", &0x5EEDu64.to_string()])
        .env("ASSAY_LOG", "warn")
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let from_file = std::fs::read_to_string(out.join("ranking-en-de.csv")).unwrap();
    assert_eq!(from_file, ranking_csv, "the same figures from the exported file");

    // `assay analyze --campaign` writes the same ranking files as the export.
    let out2 = dir.path().join("out2");
    let run = std::process::Command::new(assay_bin())
        .args(["analyze", "--campaign", &id, "--out", out2.to_str().unwrap()])
        .env("ASSAY_LOG", "warn")
        .env("DATABASE_URL", &server.database_url)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(std::fs::read_to_string(out2.join("wmt-ranking-en-de.csv")).unwrap(), wmt);
}

both_backends! {
    async fn a_simulated_crowd_ranks_a_campaign_through_submit_screen(server) {
        let (org, campaign, _) = launch(&server).await;
        // 5 HITs × 2 slots: careful rankers take 5, random rankers the other 5.
        let careful = simulate_on(&server, campaign, "careful=1", "1", &["--workers", "5"]);
        assert!(careful.contains("5 simulated workers for the 10 free slots") && careful.contains("did 5 HITs (200 judgments)"), "{careful}");
        let random = simulate_on(&server, campaign, "random=1", "2", &[]);
        assert!(random.contains("for the 5 free slots") && random.contains("did 5 HITs (200 judgments)"), "{random}");
        let progress = org.call("campaign_progress", &[("campaign_id", &campaign.to_string())]).await.json();
        assert_eq!(progress["judgments"], 400, "{progress}");

        let view = org.call("campaign_workers", &[("campaign_id", &campaign.to_string()), ("wilcoxon", "false")]).await.json();
        let rows = view["workers"].as_array().unwrap();
        let of = |prefix: &str| rows.iter().filter(|r| r["worker"].as_str().unwrap().contains(prefix)).cloned().collect::<Vec<Value>>();
        let (careful, random) = (of("sim-1-"), of("sim-2-"));
        assert_eq!((careful.len(), random.len()), (5, 5), "{view}");
        for c in &careful {
            // Every copy ranked below its original: p = 2⁻ⁿ over at least 5 pairs.
            assert_eq!((c["task"].as_str(), c["verdict"].as_str()), (Some("ranking"), Some("pass")), "{c}");
            let n = c["n_pairs"].as_u64().unwrap();
            assert!(n >= 5 && (c["p_value"].as_f64().unwrap() - 0.5f64.powi(n as i32)).abs() < 1e-12, "{c}");
        }
        // A random ranker passes with probability at most 2⁻⁵ over 5 pairs: at most one of five.
        let passed = random.iter().filter(|r| r["verdict"] == "pass").count();
        assert!(passed <= 1, "{random:?}");
        // Each worker did one whole HIT of 40 ranked outputs, and the gate judged it on finishing.
        for r in random.iter().chain(&careful) {
            assert_eq!((r["hits"].as_u64(), r["judgments"].as_u64()), (Some(1), Some(40)), "{r}");
            assert_eq!(r["gate"]["verdict"], r["verdict"], "{r}");
        }
    }
}
