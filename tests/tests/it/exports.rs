//! Exports, the read-only API with personal tokens, and the agreement report, against the real
//! server on both databases.
//!
//! The demo's DA campaign is worked through by an attentive annotator and a random clicker (as
//! in `results.rs`). Every export is downloaded and checked: its columns, its rows against the
//! scores submitted, its values against the statistics module (the `campaign_results` server
//! function); Assay's raw export goes back through `assay analyze --input` to the same system
//! scores as `assay analyze --campaign`; `assay export` writes the same files; a researcher's
//! token reads results and exports and cannot change anything.

use assay_tests::*;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;

/// The attentive worker's score for an item (systems in name order get bases 40, 55, 70, …).
fn attentive(systems: &[String]) -> impl Fn(i64, &str, &str) -> f64 + '_ {
    move |p, t, s| {
        let base = 40.0 + 15.0 * systems.iter().position(|x| x == s).unwrap_or(0) as f64;
        match t {
            "BAD_REF" => 5.0 + (p % 5) as f64,
            "REF" => 97.0,
            "REPEAT" => base + 3.0 + (p % 3) as f64,
            _ => base + (p % 7) as f64,
        }
    }
}

fn random(p: i64, _: &str, _: &str) -> f64 {
    ((p * 37 + 11) % 101) as f64
}

/// Splits one CSV line (RFC 4180 quoting).
fn csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => out.push(std::mem::take(&mut field)),
            (_, c) => field.push(c),
        }
    }
    out.push(field);
    out
}

struct Setup {
    id: String,
    systems: Vec<String>,
    /// (worker platform, position) → score submitted.
    submitted: HashMap<(String, i64), f64>,
}

async fn work_the_campaign(server: &TestServer) -> Setup {
    let organizer = server.browser();
    organizer.login(ORGANIZER).await;
    let id = da_campaign(&organizer).await.to_string();
    let (own, crowd) = da_assignments(server).await;
    let items = organizer.call("assignment_items", &[("assignment", &own)]).await.json();
    let mut systems: Vec<String> = items.as_array().unwrap().iter().filter_map(|i| i["system"].as_str().map(String::from)).collect();
    systems.sort();
    systems.dedup();
    let annotator = server.browser();
    annotator.login(ANNOTATOR).await;
    answer_all(server, &annotator, &own, attentive(&systems)).await;
    answer_all(server, &server.browser(), &crowd, random).await;
    let mut submitted = HashMap::new();
    for i in items.as_array().unwrap() {
        let (p, t, s) = (i["position"].as_i64().unwrap(), i["item_type"].as_str().unwrap(), i["system"].as_str().unwrap_or(""));
        submitted.insert(("account".to_string(), p), attentive(&systems)(p, t, s));
        submitted.insert(("prolific".to_string(), p), random(p, t, s));
    }
    Setup { id, systems, submitted }
}

const SETTINGS: &str = "exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false";

async fn download(b: &Browser, id: &str, file: &str, filter: &str) -> (u16, Vec<u8>, String) {
    let r = b.client.get(format!("{}/campaigns/{id}/export/{file}?{SETTINGS}&filter={filter}", b.base)).send().await.unwrap();
    let status = r.status().as_u16();
    let disposition = r.headers().get("content-disposition").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    (status, r.bytes().await.unwrap().to_vec(), disposition)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

const RAW_HEADER: &str = "judgment_id,campaign_id,task,src_lang,trg_lang,hit,assignment,slot,worker,platform,position,item_type,system,\
segment,document,score,score2,skipped,submitted_at_ms,time_on_screen_ms,seconds,worker_verdict,worker_p_value,worker_excluded,worker_decision,z,z2";

/// Symmetric Pearson r over unordered pairs (each pair in both orders), as the report defines it.
fn pearson(pairs: &[(f64, f64)]) -> f64 {
    let n = pairs.len() as f64;
    let (mx, my) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = pairs.iter().map(|p| (p.1 - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

both_backends! {
    async fn every_export_matches_the_judgments_and_the_statistics(server) {
        let s = work_the_campaign(&server).await;
        let id = s.id.clone();
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        let results = researcher
            .call("campaign_results", &[("campaign_id", &id), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")])
            .await;
        assert_eq!(results.status, 200, "{}", results.body);
        let results = results.json();
        let group = &results["groups"][0];
        let lp = group["lang_pair"].as_str().unwrap().to_string();

        // --- Raw judgments (CSV): every judgment, exact header, values as submitted, verdicts. ---
        let (status, body, disposition) = download(&researcher, &id, "judgments.csv", "raw").await;
        assert_eq!(status, 200, "{}", text(&body));
        assert!(disposition.contains("attachment") && disposition.contains("judgments.csv"), "{disposition}");
        let raw = text(&body);
        let mut lines = raw.lines();
        assert_eq!(lines.next().unwrap(), RAW_HEADER);
        let header: Vec<&str> = RAW_HEADER.split(',').collect();
        let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let rows: Vec<Vec<String>> = lines.map(csv).collect();
        assert_eq!(rows.len(), 200);
        let mut excluded_workers = std::collections::BTreeSet::new();
        for r in &rows {
            assert_eq!(r.len(), header.len(), "{r:?}");
            let platform = r[col("platform")].clone();
            let p: i64 = r[col("position")].parse().unwrap();
            let score: f64 = r[col("score")].parse().unwrap();
            assert_eq!(score, s.submitted[&(platform.clone(), p)], "{r:?}");
            assert_eq!(r[col("campaign_id")], id);
            assert_eq!((r[col("task")].as_str(), r[col("skipped")].as_str(), r[col("time_on_screen_ms")].as_str()), ("da-adequacy", "0", "4000"));
            // The seconds the analysis counts are the server's (item served → answer stored),
            // not the 4 s the browser reported (kept above as information).
            let seconds: f64 = r[col("seconds")].parse().unwrap();
            assert!((0.0..4.0).contains(&seconds), "{r:?}");
            assert_eq!(format!("{}-{}", r[col("src_lang")], r[col("trg_lang")]), lp);
            let excluded = r[col("worker_excluded")] == "true";
            if platform == "prolific" {
                assert!(excluded && r[col("worker_verdict")] != "pass", "{r:?}");
                excluded_workers.insert(r[col("worker")].clone());
            } else {
                assert!(!excluded && r[col("worker_verdict")] == "pass", "{r:?}");
                assert!(r[col("worker_p_value")].parse::<f64>().unwrap() < 0.05);
            }
        }
        assert_eq!(excluded_workers.len(), 1);
        // Each judgment's z: (score − μ) / σ of its worker's judgments (sample σ, every item:
        // these settings keep references and bad references in μ and σ), recomputed here;
        // empty for the excluded worker; no z2 in DA.
        for worker in rows.iter().map(|r| r[col("worker")].clone()).collect::<std::collections::BTreeSet<_>>() {
            let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[col("worker")] == worker).collect();
            let scores: Vec<f64> = mine.iter().map(|r| r[col("score")].parse().unwrap()).collect();
            let n = scores.len() as f64;
            let mean = scores.iter().sum::<f64>() / n;
            let sd = (scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            for (r, x) in mine.iter().zip(&scores) {
                assert_eq!(r[col("z2")], "", "{r:?}");
                if excluded_workers.contains(&worker) {
                    assert_eq!(r[col("z")], "", "an excluded worker's judgment has no z: {r:?}");
                } else {
                    let z: f64 = r[col("z")].parse().unwrap_or_else(|_| panic!("a z: {r:?}"));
                    assert!((z - (x - mean) / sd).abs() < 1e-9, "z {z} of {x} (μ {mean}, σ {sd})");
                }
            }
        }
        let excluded_worker = excluded_workers.into_iter().next().unwrap();
        assert_eq!(results["excluded"][0]["worker"], excluded_worker.as_str());

        // Cleaned: only the attentive worker's 100 judgments.
        let (status, body, cleaned_disposition) = download(&researcher, &id, "judgments.csv", "cleaned").await;
        assert_eq!(status, 200);
        // Raw and cleaned download under names of their own, with the campaign's id.
        assert!(disposition.contains(&format!("filename=\"campaign-{id}-raw-judgments.csv\"")), "{disposition}");
        assert!(cleaned_disposition.contains(&format!("filename=\"campaign-{id}-cleaned-judgments.csv\"")), "{cleaned_disposition}");
        let cleaned = text(&body);
        assert_eq!(cleaned.lines().count(), 101);
        assert!(cleaned.lines().skip(1).all(|l| csv(l)[col("platform")] == "account"));

        // JSONL: the same judgments, the same keys.
        let (status, body, _) = download(&researcher, &id, "judgments.jsonl", "raw").await;
        assert_eq!(status, 200);
        let jsonl: Vec<Value> = text(&body).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(jsonl.len(), 200);
        for (j, r) in jsonl.iter().zip(&rows) {
            let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys.len(), header.len());
            assert!(header.iter().all(|h| keys.contains(h)));
            assert_eq!(j["judgment_id"].to_string(), r[col("judgment_id")]);
            assert_eq!(j["score"].as_f64().unwrap(), r[col("score")].parse::<f64>().unwrap());
            assert_eq!(j["worker_excluded"].as_bool().unwrap(), r[col("worker_excluded")] == "true");
        }

        // --- Appraise CSV: field counts of each year, 3-letter languages, Appraise item types. ---
        let (src3, trg3) = match lp.as_str() { "de-en" => ("deu", "eng"), other => panic!("demo pair {other}") };
        for (file, width, score_col, type_col) in [("appraise-wmt22.csv", 9, 6, 3), ("appraise-wmt23.csv", 11, 6, 3), ("appraise-wmt24.csv", 12, 6, 3)] {
            let (status, body, _) = download(&researcher, &id, file, "raw").await;
            assert_eq!(status, 200, "{file}");
            let t = text(&body);
            let lines: Vec<Vec<String>> = t.lines().map(csv).collect();
            assert_eq!(lines.len(), 200, "{file}");
            for (l, r) in lines.iter().zip(&rows) {
                assert_eq!(l.len(), width, "{file}: {l:?}");
                assert_eq!((l[0].as_str(), l[1].as_str()), (r[col("worker")].as_str(), r[col("system")].as_str()), "{file}");
                assert_eq!((l[4].as_str(), l[5].as_str()), (src3, trg3));
                let want_type = match r[col("item_type")].as_str() { "SYSTEM" => "TGT", "BAD_REF" => "BAD", "REPEAT" => "CHK", _ => "REF" };
                assert_eq!(l[type_col], want_type);
                let score: f64 = l[score_col].parse().unwrap();
                let submitted: f64 = r[col("score")].parse().unwrap();
                if file == "appraise-wmt22.csv" { assert_eq!(score, submitted) } else { assert_eq!(score, submitted.round()) }
                let (start, end): (f64, f64) = (l[width - 2].parse().unwrap(), l[width - 1].parse().unwrap());
                // Start and end: when the item was served and answered (the server's clock).
                let seconds: f64 = r[col("seconds")].parse().unwrap();
                assert!((end - start - seconds).abs() < 1e-3, "{file}: {l:?}");
            }
            if file != "appraise-wmt22.csv" {
                assert!(lines.iter().all(|l| l[8] == "False"), "{file}: IsDocument");
            }
        }
        let (_, body, _) = download(&researcher, &id, "appraise-wmt22.csv", "cleaned").await;
        assert_eq!(text(&body).lines().count(), 100);

        // --- Computed files against the statistics module (the results server function). ---
        let files: Vec<String> = results["export_files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
        for want in [format!("ad-sys-scores-{lp}.csv"), format!("ad-seg-scores-{lp}.csv"), format!("{lp}.assay-z.sys.score"), "clusters.csv".into(), "ad-wrkr-stats.csv".into(), format!("adwilcox-{lp}.csv")] {
            assert!(files.contains(&want), "{want} not in {files:?}");
        }
        let (status, body, _) = download(&researcher, &id, &format!("ad-sys-scores-{lp}.csv"), "raw").await;
        assert_eq!(status, 200);
        let t = text(&body);
        let mut lines = t.lines();
        assert_eq!(lines.next().unwrap(), "RAW.SCR Z.SCR N SYS N.ALL ");
        let systems = group["systems"].as_array().unwrap();
        let mut n = 0;
        for (l, sys) in lines.zip(systems) {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f[3], sys["name"].as_str().unwrap());
            assert!((f[0].parse::<f64>().unwrap() - sys["raw"].as_f64().unwrap()).abs() < 1e-9, "{l} vs {sys}");
            assert!((f[1].parse::<f64>().unwrap() - sys["z"].as_f64().unwrap()).abs() < 1e-9, "{l} vs {sys}");
            assert_eq!(f[4].parse::<i64>().unwrap(), sys["n"].as_i64().unwrap());
            n += 1;
        }
        assert_eq!(n, systems.len());
        let (_, body, _) = download(&researcher, &id, &format!("{lp}.assay-z.sys.score"), "raw").await;
        let mme: BTreeMap<String, f64> = text(&body).lines().map(|l| { let (a, b) = l.split_once('\t').unwrap(); (a.to_string(), b.parse().unwrap()) }).collect();
        assert_eq!(mme.len(), systems.len());
        for sys in systems {
            assert!((mme[sys["name"].as_str().unwrap()] - sys["z"].as_f64().unwrap()).abs() < 1e-12);
        }
        let (_, body, _) = download(&researcher, &id, "clusters.csv", "raw").await;
        assert_eq!(text(&body).lines().next().unwrap(), "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM");
        assert_eq!(text(&body).lines().count(), systems.len() + 1);

        // --- The manifest names the campaign, settings, filter, excluded worker and why, version. ---
        let (status, body, _) = download(&researcher, &id, "manifest.json", "cleaned").await;
        assert_eq!(status, 200);
        let m: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(m["input"]["kind"], "campaign");
        assert_eq!(m["input"]["id"].to_string(), id);
        assert_eq!(m["filter"]["kind"], "cleaned");
        assert_eq!(m["settings"]["qc"]["reliability_test"], "paired-t");
        assert_eq!(m["seed"], m["settings"]["bootstrap"]["seed"]);
        assert!(m["assay_version"].is_string());
        assert_eq!(m["excluded_workers"][0]["worker"], excluded_worker.as_str());
        assert!(m["excluded_workers"][0]["reason"].as_str().unwrap().contains("reliability"));

        // --- all.zip: every file, the manifest among them, the judgment files as downloaded. ---
        let (status, body, _) = download(&researcher, &id, "all.zip", "raw").await;
        assert_eq!(status, 200);
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(body)).expect("a zip archive");
        let mut names: Vec<String> = (0..zip.len()).map(|i| zip.by_index(i).unwrap().name().unwrap().to_string()).collect();
        names.sort();
        for want in ["judgments.csv", "judgments.jsonl", "appraise-wmt22.csv", "appraise-wmt23.csv", "appraise-wmt24.csv", "analysis.json", "agreement.json", "manifest.json"] {
            assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
        }
        for f in &files {
            assert!(names.contains(f), "{f} not in the archive");
            // Written into the archive as made: the bytes of the file downloaded alone.
            let mut inner = Vec::new();
            zip.by_name(f).unwrap().read_to_end(&mut inner).unwrap();
            let (status, alone, _) = download(&researcher, &id, f, "raw").await;
            assert_eq!(status, 200, "{f}");
            assert_eq!(inner, alone, "{f}: the archive's copy differs");
        }
        let mut inner = String::new();
        zip.by_name("judgments.csv").unwrap().read_to_string(&mut inner).unwrap();
        assert_eq!(inner, raw);
        let mut inner = String::new();
        zip.by_name("manifest.json").unwrap().read_to_string(&mut inner).unwrap();
        let zm: Value = serde_json::from_str(&inner).unwrap();
        assert_eq!(zm["files"].as_array().unwrap().len(), names.len());

        // --- Agreement: recomputed here from the raw export. ---
        let agreement = &results["agreement"]["all_workers"][0];
        let mut by_item: BTreeMap<(String, String), Vec<(String, f64)>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r[col("item_type")] == "SYSTEM" || r[col("item_type")] == "REPEAT") {
            by_item.entry((r[col("system")].clone(), r[col("segment")].clone())).or_default().push((r[col("worker")].clone(), r[col("score")].parse().unwrap()));
        }
        let (mut intra, mut inter) = (Vec::new(), Vec::new());
        for js in by_item.values() {
            for (i, a) in js.iter().enumerate() {
                for b in &js[i + 1..] {
                    if a.0 == b.0 { intra.push((a.1, b.1)) } else { inter.push((a.1, b.1)); inter.push((b.1, a.1)) }
                }
            }
        }
        assert!(!intra.is_empty() && !inter.is_empty());
        assert_eq!(agreement["intra"]["pairs"].as_u64().unwrap() as usize, intra.len());
        assert_eq!(agreement["inter"]["pairs"].as_u64().unwrap() as usize * 2, inter.len());
        assert!((agreement["intra"]["pearson_r"].as_f64().unwrap() - pearson(&intra)).abs() < 1e-9);
        assert!((agreement["inter"]["pearson_r"].as_f64().unwrap() - pearson(&inter)).abs() < 1e-9);
        let mad = intra.iter().map(|p| (p.0 - p.1).abs()).sum::<f64>() / intra.len() as f64;
        assert!((agreement["intra"]["mean_abs_difference"].as_f64().unwrap() - mad).abs() < 1e-9);
        // Retained workers only: the attentive worker's repeats, nobody to agree with.
        let retained = &results["agreement"]["retained_workers"][0];
        assert_eq!(retained["inter"]["pairs"], 0);
        assert!(retained["intra"]["pairs"].as_u64().unwrap() > 0);
        let (_, body, _) = download(&researcher, &id, "agreement.json", "raw").await;
        let a: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(a, results["agreement"]);

        // --- Refusals: annotators and strangers; unknown campaigns and files; bad settings. ---
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        assert_eq!(download(&annotator, &id, "judgments.csv", "raw").await.0, 403);
        assert_eq!(download(&server.browser(), &id, "judgments.csv", "raw").await.0, 401);
        let (status, body, _) = download(&researcher, "999999", "judgments.csv", "raw").await;
        assert_eq!(status, 404);
        assert!(text(&body).contains("999999"));
        let (status, body, _) = download(&researcher, &id, "nothing.csv", "raw").await;
        assert_eq!(status, 400);
        assert!(text(&body).contains("nothing.csv") && text(&body).contains("ad-sys-scores"), "{}", text(&body));
        assert_eq!(download(&researcher, &id, "judgments.csv", "dirty").await.0, 400);

        // --- Round trip: the raw export through `assay analyze --input` gives the campaign's scores. ---
        let dir = server.data_dir.path();
        std::fs::write(dir.join("raw.csv"), &raw).unwrap();
        let jsonl_text: String = jsonl.iter().map(|j| format!("{j}\n")).collect();
        std::fs::write(dir.join("raw.jsonl"), jsonl_text).unwrap();
        let run = |args: &[&str]| {
            let out = server.assay(args).output().unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        let from_db = dir.join("from-db");
        run(&["analyze", "--campaign", &id, "--out", from_db.to_str().unwrap(), "--bootstrap", "0"]);
        for input in ["raw.csv", "raw.jsonl"] {
            let out = dir.join(format!("from-{input}"));
            run(&["analyze", "--input", dir.join(input).to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "0"]);
            for f in [format!("ad-sys-scores-{lp}.csv"), format!("ad-seg-scores-{lp}.csv"), "ad-trk-stats.csv".into(), "unreliable-workers.txt".into()] {
                // The same lines; segment scores may come in another order (the database interns
                // the test set's segments first, a file in order of appearance).
                let lines = |p: std::path::PathBuf| {
                    let mut v: Vec<String> = std::fs::read_to_string(p).unwrap().lines().map(String::from).collect();
                    v.sort();
                    v
                };
                assert_eq!(lines(from_db.join(&f)), lines(out.join(&f)), "{input}: {f} differs");
            }
            // Full-precision scores agree to rounding (sums run in another segment order).
            let f = format!("{lp}.assay-z.sys.score");
            let scores = |p: std::path::PathBuf| -> BTreeMap<String, f64> {
                std::fs::read_to_string(p).unwrap().lines().map(|l| { let (a, b) = l.split_once('\t').unwrap(); (a.to_string(), b.parse().unwrap()) }).collect()
            };
            let (a, b) = (scores(from_db.join(&f)), scores(out.join(&f)));
            assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
            for (k, v) in &a {
                assert!((v - b[k]).abs() < 1e-12, "{input}: {f}: {k} {v} vs {}", b[k]);
            }
            let json: Value = serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).unwrap()).unwrap();
            assert_eq!(json["manifest"]["input"]["format"], if input.ends_with("csv") { "assay-csv" } else { "assay-jsonl" });
        }

        // --- `assay export`: the same files, into a directory, with the manifest. ---
        let out = dir.join("export-cleaned");
        run(&["export", "--campaign", &id, "--format", "all", "--cleaned", "--out", out.to_str().unwrap()]);
        let cli_cleaned = std::fs::read_to_string(out.join("judgments.csv")).unwrap();
        assert_eq!(cli_cleaned, cleaned);
        // A judgment file alone is computed without the systems' intervals (no bootstrap); the
        // route's came from the results page's analysis, with them: the same rows, z included.
        for (filter, route) in [("--raw", &raw), ("--cleaned", &cleaned)] {
            let only = dir.join(format!("export-judgments{filter}"));
            run(&["export", "--campaign", &id, "--format", "judgments.csv", filter, "--out", only.to_str().unwrap()]);
            assert_eq!(&std::fs::read_to_string(only.join("judgments.csv")).unwrap(), route, "{filter}");
        }
        // Every judgment file `assay export` writes from the rows it analysed is the route's,
        // streamed from the database, byte for byte.
        let all_raw = dir.join("export-raw");
        run(&["export", "--campaign", &id, "--format", "all", "--out", all_raw.to_str().unwrap()]);
        for file in ["judgments.csv", "judgments.jsonl", "appraise-wmt22.csv", "appraise-wmt23.csv", "appraise-wmt24.csv"] {
            let (status, body, _) = download(&researcher, &id, file, "raw").await;
            assert_eq!(status, 200, "{file}");
            assert!(std::fs::read(all_raw.join(file)).unwrap() == body, "{file} differs from the route's");
        }
        // The computed files, each written into the directory as it is made, are the route's too;
        // the directory holds what its manifest lists.
        for f in &files {
            let (status, body, _) = download(&researcher, &id, f, "raw").await;
            assert_eq!(status, 200, "{f}");
            assert!(std::fs::read(all_raw.join(f)).unwrap() == body, "{f} differs from the route's");
        }
        let listed: Value = serde_json::from_str(&std::fs::read_to_string(all_raw.join("manifest.json")).unwrap()).unwrap();
        let mut listed: Vec<String> = listed["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect();
        let mut in_dir: Vec<String> = std::fs::read_dir(&all_raw).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        listed.sort();
        in_dir.sort();
        assert_eq!(listed, in_dir);
        let m: Value = serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["filter"]["kind"], "cleaned");
        for f in &files {
            assert!(out.join(f).is_file(), "{f}");
        }
        let one = dir.join("export-one");
        run(&["export", "--campaign", &id, "--format", "appraise-wmt23.csv", "--out", one.to_str().unwrap()]);
        let mut written: Vec<String> = std::fs::read_dir(&one).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        written.sort();
        assert_eq!(written, ["appraise-wmt23.csv", "manifest.json"]);
        let bad = server.assay(&["export", "--campaign", &id, "--format", "x/y", "--out", dir.join("bad").to_str().unwrap()]).output().unwrap();
        assert!(!bad.status.success());
        assert!(!dir.join("bad").exists());
        assert_eq!(s.systems.len(), systems.len());
    }

    /// The OpenAPI document is generated from the routes (issue 36 item 6): every answer of a
    /// worked campaign's API routes is valid against the schema the document gives for it.
    async fn the_api_answers_as_its_description_says(server) {
        let s = work_the_campaign(&server).await;
        let id = s.id;
        let anyone = server.browser();
        let doc = anyone.get("/api/v1/openapi.json").await;
        assert_eq!(doc.status, 200);
        let doc = doc.json();
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        let mut checked = 0;
        for (template, path) in [
            ("/api/v1/campaigns", "/api/v1/campaigns".to_string()),
            ("/api/v1/campaigns/{id}/results", format!("/api/v1/campaigns/{id}/results")),
            ("/api/v1/campaigns/{id}/results", format!("/api/v1/campaigns/{id}/results?wilcoxon=true&per_segment=true")),
            ("/api/v1/campaigns/{id}/agreement", format!("/api/v1/campaigns/{id}/agreement")),
            ("/api/v1/campaigns/{id}/workers", format!("/api/v1/campaigns/{id}/workers?per_page=3&sort=p&order=desc")),
            ("/api/v1/campaigns/{id}/metrics", format!("/api/v1/campaigns/{id}/metrics")),
            ("/api/v1/campaigns/{id}/results", "/api/v1/campaigns/99999/results".to_string()),
            ("/api/v1/campaigns/{id}/workers", format!("/api/v1/campaigns/{id}/workers?sort=nonsense")),
        ] {
            let r = organizer.get(&path).await;
            let answer: Value = serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{path}: not JSON ({e})"));
            let errors = assay_tests::openapi::violations(&doc, template, "get", r.status, &answer);
            assert!(errors.is_empty(), "GET {path} ({}) does not match its description:\n{}", r.status, errors.join("\n"));
            checked += 1;
        }
        assert_eq!(checked, 8);
        // The check can fail: an answer missing a required field is refused.
        let r = organizer.get(&format!("/api/v1/campaigns/{id}/results")).await;
        let mut broken = r.json();
        broken.as_object_mut().unwrap().remove("campaign");
        assert!(!assay_tests::openapi::violations(&doc, "/api/v1/campaigns/{id}/results", "get", 200, &broken).is_empty());
    }

    async fn an_api_token_reads_results_and_cannot_change_anything(server) {
        let s = work_the_campaign(&server).await;
        let id = s.id;
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        // Annotators cannot make tokens; a nameless token is refused.
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        assert_eq!(annotator.call("create_api_token", &[("name", "x")]).await.status, 403);
        assert_eq!(researcher.call("create_api_token", &[("name", "  ")]).await.status, 400);
        let created = researcher.call("create_api_token", &[("name", "metrics script")]).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let created = created.json();
        let secret = created["secret"].as_str().unwrap().to_string();
        assert!(secret.starts_with("assay_") && secret.len() > 40);
        let list = researcher.call("list_api_tokens", &[]).await.json();
        assert_eq!(list[0]["name"], "metrics script");
        assert!(!list.to_string().contains(&secret), "the list never shows the secret");

        let api = reqwest::Client::new();
        let get = |path: String, token: Option<String>| {
            let mut req = api.get(format!("{}{path}", server.base));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            async move {
                let r = req.send().await.unwrap();
                let status = r.status().as_u16();
                (status, r.text().await.unwrap())
            }
        };
        let tok = Some(secret.clone());
        let (st, body) = get("/api/v1/campaigns".into(), tok.clone()).await;
        assert_eq!(st, 200, "{body}");
        let list: Value = serde_json::from_str(&body).unwrap();
        assert!(list.as_array().unwrap().iter().any(|c| c["id"].to_string() == id && c["judgments"] == 200));
        let (st, body) = get(format!("/api/v1/campaigns/{id}/results?wilcoxon=true"), tok.clone()).await;
        assert_eq!(st, 200, "{body}");
        let r: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(r["options"]["wilcoxon"], true);
        assert_eq!(r["judgments"], 200);
        let (st, body) = get(format!("/api/v1/campaigns/{id}/agreement"), tok.clone()).await;
        assert_eq!(st, 200);
        let a: Value = serde_json::from_str(&body).unwrap();
        assert!(a["all_workers"][0]["inter"]["pairs"].as_u64().unwrap() > 0);
        let (st, body) = get(format!("/api/v1/campaigns/{id}/export/judgments.csv?filter=cleaned"), tok.clone()).await;
        assert_eq!(st, 200);
        assert_eq!(body.lines().count(), 101);
        // The button route takes the token too.
        assert_eq!(get(format!("/campaigns/{id}/export/manifest.json"), tok.clone()).await.0, 200);
        // The worker table is for organizers.
        assert_eq!(get(format!("/api/v1/campaigns/{id}/workers"), tok.clone()).await.0, 403);
        // No token, a made-up token: refused. The OpenAPI description is public.
        assert_eq!(get("/api/v1/campaigns".into(), None).await.0, 401);
        assert_eq!(get("/api/v1/campaigns".into(), Some("assay_madeup".into())).await.0, 401);
        assert_eq!(get("/api/v1/campaigns".into(), Some(secret[..secret.len() - 1].to_string())).await.0, 401);
        let (st, body) = get("/api/v1/openapi.json".into(), None).await;
        assert_eq!(st, 200);
        let doc: Value = serde_json::from_str(&body).unwrap();
        assert!(doc["paths"]["/api/v1/campaigns/{id}/export/{file}"]["get"].is_object());

        // The token changes nothing: other methods on the API, and server functions, refuse it.
        for (method, path) in [("POST", format!("/api/v1/campaigns")), ("DELETE", format!("/api/v1/campaigns/{id}/results")), ("PUT", format!("/campaigns/{id}/export/judgments.csv"))] {
            let r = api.request(method.parse().unwrap(), format!("{}{path}", server.base)).bearer_auth(&secret).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 403, "{method} {path}");
        }
        for (name, form) in [
            ("create_api_token", vec![("name", "from a token")]),
            ("revoke_api_token", vec![("token_id", "1")]),
            ("launch_campaign", vec![("campaign_id", id.as_str())]),
            ("campaign_results", vec![("campaign_id", id.as_str()), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")]),
        ] {
            let r = api.post(format!("{}/api/{name}", server.base)).bearer_auth(&secret).form(&form).send().await.unwrap();
            assert_eq!(r.status().as_u16(), 401, "{name} with only a token");
        }
        let list = researcher.call("list_api_tokens", &[]).await.json();
        assert_eq!(list.as_array().unwrap().len(), 1, "no token was made with a token");
        assert!(list[0]["last_used_at"].is_i64());

        // The token has its owner's role at use time: promoted, it gains the new role's rights;
        // demoted, it loses them (403, not revoked), and a promotion brings them back (issue 38).
        let admin = server.browser();
        admin.login(ADMIN).await;
        let users = admin.call("list_users", &[]).await.json();
        let rid = users.as_array().unwrap().iter().find(|u| u["email"] == RESEARCHER.0).unwrap()["id"].to_string();
        assert_eq!(admin.call("set_user_role", &[("user_id", &rid), ("role", "organizer")]).await.status, 200);
        assert_eq!(get(format!("/api/v1/campaigns/{id}/workers"), tok.clone()).await.0, 200);
        assert_eq!(admin.call("set_user_role", &[("user_id", &rid), ("role", "annotator")]).await.status, 200);
        assert_eq!(get("/api/v1/campaigns".into(), tok.clone()).await.0, 403);
        assert_eq!(admin.call("set_user_role", &[("user_id", &rid), ("role", "organizer")]).await.status, 200);
        assert_eq!(get(format!("/api/v1/campaigns/{id}/workers"), tok.clone()).await.0, 200);

        // A new token. Revoked: refused. Only the owner can revoke; another account's token is
        // not found.
        let again = server.browser();
        again.login(RESEARCHER).await;
        let created = again.call("create_api_token", &[("name", "after the demotion")]).await.json();
        let tok = Some(created["secret"].as_str().unwrap().to_string());
        assert_eq!(get(format!("/api/v1/campaigns/{id}/workers"), tok.clone()).await.0, 200);
        let token_id = created["token"]["id"].to_string();
        let other = server.browser();
        other.login(ORGANIZER).await;
        assert_eq!(other.call("revoke_api_token", &[("token_id", &token_id)]).await.status, 400);
        assert_eq!(get("/api/v1/campaigns".into(), tok.clone()).await.0, 200);
        assert_eq!(again.call("revoke_api_token", &[("token_id", &token_id)]).await.status, 200);
        assert_eq!(get("/api/v1/campaigns".into(), tok.clone()).await.0, 401);
        assert_eq!(again.call("list_api_tokens", &[]).await.json()[0]["revoked_at"].is_i64(), true);

        // The tokens page renders for researchers and up.
        let page = again.get("/account/tokens").await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("metrics script") && page.body.contains("revoked"), "tokens page");
    }
}
