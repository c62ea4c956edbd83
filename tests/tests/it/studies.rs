//! Comparison studies (METHOD §7) against the real server on both databases: an organizer
//! imports an old and a new test set (the benchmark system translates both), designs a study
//! through the server functions, launches it; a simulated crowd of known behaviour works
//! through the crowd link over HTTP; the study's gains are checked against a recomputation
//! from the submitted scores, and the export against the page.

use assay_tests::fixtures::upload_test_set;
use assay_tests::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

const WORDS: &[&str] = &[
    "the", "house", "river", "green", "quickly", "children", "morning", "bridge", "music", "light", "stone", "garden",
    "letter", "window", "storm", "mountain", "city", "quiet", "bread", "winter", "friend", "road", "cloud", "silver",
];

/// A sentence ending with the test set's tag word, so a worker can tell the test sets apart.
fn sentence(i: usize, salt: usize, tag: &str) -> String {
    let n = 6 + (i * 7 + salt * 3) % 9;
    let words: Vec<&str> = (0..n).map(|j| WORDS[(i * 5 + j * 11 + salt * 13 + j * j) % WORDS.len()]).collect();
    format!("{} {tag}.", words.join(" "))
}

fn write_wmt(dir: &Path, pair: &str, segments: usize, systems: &[&str], tag: &str) {
    let w = |p: &str, text: String| {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let lines = |salt: usize| (0..segments).map(|i| sentence(i, salt, tag) + "\n").collect::<String>();
    w(&format!("sources/{pair}.txt"), lines(0));
    w(&format!("references/{pair}.refA.txt"), lines(1));
    for (k, s) in systems.iter().enumerate() {
        w(&format!("system-outputs/{pair}/{s}.txt"), lines(2 + k));
    }
}

async fn import_set(org: &Browser, name: &str, systems: &[&str], tag: &str) -> i64 {
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", 40, systems, tag);
    let set = upload_test_set(org, dir.path(), name).await.expect("imported test set");
    set["id"].as_i64().unwrap()
}

/// System ids by lower-case name, from the test sets' listing.
async fn system_ids(org: &Browser) -> HashMap<String, i64> {
    let sets = org.call("list_test_sets", &[]).await.json();
    let mut out = HashMap::new();
    for t in sets.as_array().unwrap() {
        for s in t["systems"].as_array().unwrap() {
            out.insert(s["name"].as_str().unwrap().to_lowercase(), s["id"].as_i64().unwrap());
        }
    }
    out
}

/// The simulated crowd's truth: mean raw score of (system, test set); the new test set is
/// harder by 10 points, the new best system better by 8 → calibrated gain +8, raw −2.
fn quality(system: &str, new_set: bool) -> f64 {
    match (system, new_set) {
        ("Best07", false) => 50.0,
        ("Bench", false) => 62.0,
        ("Best12", true) => 48.0,
        ("Bench", true) => 52.0,
        other => panic!("unexpected item {other:?}"),
    }
}

/// What each submitted SYSTEM/REPEAT score was, by (task, system, new test set?).
type Submitted = BTreeMap<(String, String, bool), Vec<f64>>;

/// One crowd worker does one HIT through the annotator's endpoints, scoring by the truth
/// above plus a small deterministic noise; bad references low, references high.
async fn work_through(server: &TestServer, org: &Browser, assignment: &str, task: &str, worker: usize, submitted: &mut Submitted) {
    let facts = org.call("assignment_items", &[("assignment", assignment)]).await.json();
    let facts: HashMap<i64, (String, String)> = facts
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["position"].as_i64().unwrap(), (i["item_type"].as_str().unwrap().to_string(), i["system"].as_str().unwrap_or("").to_string())))
        .collect();
    let crowd = server.browser();
    let mut step = crowd.call("start_work", &[("assignment", assignment)]).await;
    assert_eq!(step.status, 200, "{}", step.body);
    loop {
        let s = step.json();
        let Some(item) = s["item"].as_object() else { break };
        let p = item["position"].as_i64().unwrap();
        let text = item["candidate"].as_str().unwrap();
        let (kind, system) = &facts[&p];
        let noise = ((p as usize * 37 + worker * 11) % 13) as f64 - 6.0;
        let new_set = text.contains("tomorrow");
        let score = match kind.as_str() {
            "BAD_REF" => 10.0 + noise,
            "REF" => 90.0 + noise,
            _ => {
                let v = quality(system, new_set) + noise;
                submitted.entry((task.to_string(), system.clone(), new_set)).or_default().push(v);
                v
            }
        };
        let (pos, v) = (p.to_string(), format!("{score}"));
        step = crowd
            .call("submit_judgment", &[("assignment", assignment), ("position", &pos), ("score", &v), ("time_on_screen_ms", "5000"), ("key", &format!("k{p}"))])
            .await;
        assert_eq!(step.status, 200, "item {p}: {}", step.body);
    }
}

/// (system, raw, z, n) per group of a results page, sorted.
fn scores_of_page(res: &Value) -> Vec<(String, String, i64, i64, i64)> {
    let mut out = Vec::new();
    for g in res["groups"].as_array().unwrap() {
        for s in g["systems"].as_array().unwrap() {
            out.push(row(g["task"].as_str().unwrap(), s["name"].as_str().unwrap(), &s["raw"], &s["z"], &s["n"]));
        }
    }
    out.sort();
    out
}

/// The same from an `analysis.json`.
fn scores_of_analysis(a: &Value) -> Vec<(String, String, i64, i64, i64)> {
    let r = &a["result"];
    let name = |kind: &str, i: &Value| r["names"][kind][i.as_u64().unwrap() as usize].as_str().unwrap().to_string();
    let mut out = Vec::new();
    for g in r["groups"].as_array().unwrap() {
        for s in g["systems"].as_array().unwrap() {
            out.push(row(&name("tasks", &g["task"]), &name("systems", &s["system"]), &s["raw"], &s["z"], &s["n_judgments"]));
        }
    }
    out.sort();
    out
}

/// Numbers to nine decimals, so rows compare exactly.
fn row(task: &str, system: &str, raw: &Value, z: &Value, n: &Value) -> (String, String, i64, i64, i64) {
    let fixed = |v: &Value| (v.as_f64().unwrap() * 1e9).round() as i64;
    (task.to_string(), system.to_string(), fixed(raw), fixed(z), n.as_i64().unwrap())
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

both_backends! {
    async fn a_calibrated_study_from_design_to_export(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let old = import_set(&org, "wmt07", &["Best07", "Bench"], "yesterday").await;
        let new = import_set(&org, "wmt12", &["Best12", "Bench"], "tomorrow").await;
        let ids = system_ids(&org).await;
        let (best07, best12, bench) = (ids["best07"], ids["best12"], ids["bench"]);
        let pair = json!({ "old_test_set_id": old, "best_old": best07, "new_test_set_id": new, "best_new": best12, "benchmark": bench });
        let settings = json!({ "hit_length": 30, "bad_refs": 5, "repeats": 2, "refs": 3, "sets": 2, "judgments_wanted": 20, "redundancy": 2 });
        let draft = json!({ "name": "07 vs 12", "tasks": ["da-adequacy", "da-fluency"], "pairs": [pair], "seed": 11, "settings": settings });

        // The designer's check: 4 labels × 20 wanted / 20 system items per HIT = 4 HITs per arm.
        let check = org.call_json("check_study", json!({ "draft": draft })).await;
        assert_eq!(check.status, 200, "{}", check.body);
        let check = check.json();
        assert_eq!(check["problems"], json!([]), "{check}");
        assert_eq!(check["arms"].as_array().unwrap().iter().map(|a| a[1].as_i64().unwrap()).collect::<Vec<_>>(), [4, 4]);

        // Bad designs are refused with the reason and store nothing.
        let mut same = draft.clone();
        same["pairs"][0]["benchmark"] = json!(best07);
        let bad = org.call_json("create_study", json!({ "draft": same })).await;
        assert_eq!(bad.status, 400);
        assert!(bad.body.contains("benchmark system must be another system"), "{}", bad.body);
        let mut one_set = draft.clone();
        one_set["pairs"][0]["new_test_set_id"] = json!(old);
        let bad = org.call_json("check_study", json!({ "draft": one_set })).await.json();
        assert!(bad["problems"][0].as_str().unwrap().contains("must differ"), "{bad}");
        let mut no_bench = draft.clone();
        no_bench["pairs"][0]["best_new"] = json!(best07);
        no_bench["pairs"][0]["benchmark"] = json!(best12);
        let bad = org.call_json("create_study", json!({ "draft": no_bench })).await;
        assert_eq!(bad.status, 400);
        assert!(bad.body.contains("no outputs for this test set"), "{}", bad.body);
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        assert_eq!(researcher.call("list_studies", &[]).await.json(), json!([]), "refused designs store nothing");

        // Roles: researchers read but do not design.
        assert_eq!(researcher.call_json("create_study", json!({ "draft": draft })).await.status, 403);
        let created = org.call_json("create_study", json!({ "draft": draft })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let study = created.json().as_i64().unwrap().to_string();
        assert_eq!(researcher.call("launch_study", &[("study_id", &study)]).await.status, 403);
        let launched = org.call("launch_study", &[("study_id", &study)]).await;
        assert_eq!(launched.status, 200, "{}", launched.body);
        assert_eq!(org.call("launch_study", &[("study_id", &study)]).await.status, 400, "launched once");

        let info = org.call("study_results", &[("study_id", &study)]).await.json();
        let arms = info["study"]["arms"].as_array().unwrap().clone();
        assert_eq!(arms.len(), 2);
        let mut submitted = Submitted::new();
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let mut worker = 0;
        for arm in &arms {
            let id = arm["campaign_id"].as_i64().unwrap().to_string();
            let task = arm["task"].as_str().unwrap().to_string();
            // Every HIT mixes both test sets: the benchmark on each, and both best systems.
            let items = org.call("hit_items", &[("campaign_id", &id), ("hit_index", "0")]).await.json();
            let mut seen = std::collections::BTreeSet::new();
            for it in items.as_array().unwrap() {
                if it["item_type"] == "SYSTEM" {
                    let set = if it["shown_text"].as_str().unwrap().contains("tomorrow") { "new" } else { "old" };
                    seen.insert(format!("{} {set}", it["system"].as_str().unwrap()));
                }
            }
            assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["Bench new", "Bench old", "Best07 old", "Best12 new"]);
            let progress = org.call("campaign_progress", &[("campaign_id", &id)]).await.json();
            let link = progress["crowd_link"].as_str().unwrap().replace(&server.base, "");
            // 4 HITs × k = 2: eight crowd workers through the crowd link.
            for _ in 0..8 {
                worker += 1;
                let r = client.get(format!("{}{link}&worker=W{worker}", server.base)).send().await.unwrap();
                assert_eq!(r.status().as_u16(), 303);
                let location = r.headers()["location"].to_str().unwrap().to_string();
                let assignment = location.trim_start_matches("/work/").to_string();
                work_through(&server, &org, &assignment, &task, worker, &mut submitted).await;
            }
        }

        // The study page's numbers.
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        assert_eq!(annotator.call("study_results", &[("study_id", &study)]).await.status, 403);
        assert_eq!(server.browser().call("study_results", &[("study_id", &study)]).await.status, 401);
        let r = researcher.call("study_results", &[("study_id", &study)]).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert_eq!(v["waiting"], json!([]), "{}", v["waiting"]);
        let tasks = v["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), 2);
        for t in tasks {
            let task = t["task"].as_str().unwrap();
            assert_eq!(t["workers_excluded"], 0, "every simulated worker is attentive");
            let raw = t["raw"].as_array().unwrap();
            assert_eq!(raw.len(), 2, "the pair and the mean");
            let row = &raw[0];
            assert_eq!(row["pair"], "en-de");
            assert_eq!(raw[1]["pair"], "mean");
            // The four means are the means of the submitted scores (recomputed here).
            let m = |s: &str, n: bool| mean(&submitted[&(task.to_string(), s.to_string(), n)]);
            let (bo, co, bn, cn) = (m("Best07", false), m("Bench", false), m("Best12", true), m("Bench", true));
            for (key, want) in [("best_old", bo), ("curr_old", co), ("best_new", bn), ("curr_new", cn)] {
                assert!((row[key].as_f64().unwrap() - want).abs() < 1e-9, "{task} {key}: {} vs {want}", row[key]);
            }
            let n: Vec<usize> = ["Best07", "Bench", "Best12", "Bench"].iter().zip([false, false, true, true]).map(|(s, b)| submitted[&(task.to_string(), s.to_string(), b)].len()).collect();
            assert_eq!(row["n"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect::<Vec<_>>(), n);
            let gain = (bn - bo) + (co - cn);
            assert!((row["gain"].as_f64().unwrap() - gain).abs() < 1e-9);
            assert!((row["difference"].as_f64().unwrap() - (bn - bo)).abs() < 1e-9);
            // The truth: +8 calibrated (inside the interval), −2 uncalibrated (its interval misses +8).
            let ci = row["gain_ci"].as_array().unwrap();
            let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
            assert!(lo <= 8.0 && 8.0 <= hi && lo <= gain && gain <= hi, "{task} gain {gain} [{lo}, {hi}]");
            assert!(row["difference_ci"][1].as_f64().unwrap() < 8.0, "{row}");
            // One pair: the mean row equals it.
            assert!((raw[1]["gain"].as_f64().unwrap() - gain).abs() < 1e-9);
            // Significance: the benchmark scores lower on the harder test set (z, Mann–Whitney).
            assert!(row["p_curr_old_better"].as_f64().unwrap() < 0.01, "{row}");
            assert!(raw[1]["p_curr_old_better"].is_null());
            assert!(t["z"][0]["gain"].as_f64().unwrap() > 0.0);
            let svg = t["timeline_svg"].as_str().unwrap();
            assert_eq!(svg.matches(r#"class="point""#).count(), 4);
            assert_eq!(svg.matches(r#"class="ci""#).count(), 4);
            assert_eq!(svg.matches(r#"class="series-line""#).count(), 2);
        }

        // The ordinary results page of a study campaign scores the benchmark per test set.
        let arm0 = arms[0]["campaign_id"].as_i64().unwrap().to_string();
        let res = researcher.call("campaign_results", &[("campaign_id", &arm0), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")]).await.json();
        let names: Vec<&str> = res["groups"][0]["systems"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert!(names.contains(&"Bench @ wmt07") && names.contains(&"Bench @ wmt12"), "{names:?}");
        // Metric scores cannot be uploaded to an arm (it mixes two test sets; issue 21): said so,
        // and nothing is stored; the results page offers no metrics files for it.
        let up = researcher.client.post(format!("{}/api/v1/campaigns/{arm0}/metrics", server.base))
            .header("x-assay-file-name", "m.tsv").header("x-assay-metric-name", "M").body("system\tscore\nBench\t1\n").send().await.unwrap();
        assert_eq!(up.status().as_u16(), 400);
        assert!(up.text().await.unwrap().contains("arm of a comparison study"));
        assert_eq!(res["metric_export_files"], serde_json::json!([]));

        // Every view of the arm is the one analysis: the results page, analysis.json from the
        // export and from `assay analyze --campaign` give the same systems with the same numbers
        // (the benchmark per test set in each).
        let page = scores_of_page(&res);
        let url = format!("{}/campaigns/{arm0}/export/analysis.json?exclude_ref=false&exclude_bad_ref=false&per_segment=false&wilcoxon=false&filter=raw", server.base);
        let exported = researcher.client.get(url).send().await.unwrap();
        assert_eq!(exported.status().as_u16(), 200);
        let exported: Value = serde_json::from_slice(&exported.bytes().await.unwrap()).unwrap();
        assert_eq!(scores_of_analysis(&exported), page, "analysis.json of the export");
        let out = server.data_dir.path().join("arm-analysis");
        let run = server.assay(&["analyze", "--campaign", &arm0, "--out", out.to_str().unwrap()]).output().unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let analyzed: Value = serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).unwrap()).unwrap();
        assert_eq!(scores_of_analysis(&analyzed), page, "assay analyze --campaign");

        // History: both campaigns, every (system, test set) with an interval; the study's
        // calibration is named, and two campaigns sharing the anchors are linked.
        let h = researcher.call("study_history", &[]).await;
        assert_eq!(h.status, 200, "{}", h.body);
        let h = h.json();
        assert_eq!(annotator.call("study_history", &[]).await.status, 403);
        let ours: Vec<&Value> = h.as_array().unwrap().iter().filter(|p| p["pair"] == "en-de").collect();
        assert_eq!(ours.len(), 2, "adequacy and fluency");
        for p in ours {
            assert_eq!(p["points"].as_array().unwrap().len(), 4);
            assert!(p["points"].as_array().unwrap().iter().all(|x| x["raw_ci"].is_array()));
            let links = p["links"].as_array().unwrap();
            assert!(links.iter().any(|l| l["calibrated"] == true && l["why"].as_str().unwrap().contains("benchmark Bench")), "{links:?}");
            assert!(p["timeline_svg"].as_str().unwrap().contains(r#"class="point""#));
        }

        // The export: a .tar.gz with every judgment, the gains, the plots and a manifest.
        assert_eq!(annotator.get(&format!("/studies/{study}/export")).await.status, 403);
        assert_eq!(server.browser().get(&format!("/studies/{study}/export")).await.status, 401);
        assert_eq!(researcher.get("/studies/999999/export").await.status, 400);
        let archive = researcher.client.get(format!("{}/studies/{study}/export", server.base)).send().await.unwrap();
        assert_eq!(archive.status().as_u16(), 200);
        assert_eq!(archive.headers()["content-type"], "application/gzip");
        let bytes = archive.bytes().await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.tar.gz"), &bytes).unwrap();
        let out = std::process::Command::new("tar").arg("xzf").arg("s.tar.gz").current_dir(dir.path()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let root = dir.path().join(format!("study-{study}"));
        let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        let judgments = read("judgments.csv");
        let judged: i64 = arms.iter().map(|_| 4 * 2 * 30).sum();
        assert_eq!(judgments.lines().count() as i64, judged + 1, "header + every judgment");
        assert!(judgments.lines().skip(1).any(|l| l.contains(",Bench,wmt12,")) && judgments.lines().skip(1).any(|l| l.contains(",Bench,wmt07,")));
        let gains: Value = serde_json::from_str(&read("gains.json")).unwrap();
        assert_eq!(gains, json!(tasks.iter().map(|t| json!({
            "task": t["task"], "raw": t["raw"], "z": t["z"], "judgments": t["judgments"], "judgments_excluded": t["judgments_excluded"],
            "workers": t["workers"], "workers_excluded": t["workers_excluded"],
        })).collect::<Vec<_>>()));
        assert_eq!(read("gains.csv").lines().count(), 1 + 2 * 2 * 2, "header + (pair, mean) × (raw, z) × 2 tasks");
        assert!(read("timeline-da-adequacy.svg").starts_with("<svg"));
        let manifest: Value = serde_json::from_str(&read("manifest.json")).unwrap();
        assert_eq!(manifest["study"]["name"], "07 vs 12");
        assert_eq!(manifest["campaigns"].as_array().unwrap().len(), 2);
        assert_eq!(manifest["campaigns"][0]["seed"], 11);
        assert_eq!(manifest["campaigns"][0]["settings"]["hit_length"], 30);
        assert!(manifest["assay_version"].is_string());
        for f in manifest["files"].as_array().unwrap() {
            let content = std::fs::read(root.join(f["name"].as_str().unwrap())).unwrap();
            assert_eq!(f["bytes"].as_u64().unwrap() as usize, content.len());
        }

        // The pages render for their roles.
        assert_eq!(researcher.get(&format!("/studies/{study}")).await.status, 200);
        assert_eq!(researcher.get("/history").await.status, 200);
        assert_eq!(org.get("/studies/new").await.status, 200);
    }
}
