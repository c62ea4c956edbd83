//! `assay metrics` end to end, with the built binary:
//! - `score` on every case of `tests/fixtures/metrics/sacrebleu.json` (8 scripts, BLEU with the
//!   13a, zh, intl, char and none tokenizers, chrF, chrF++, lowercase, eps smoothing, one and
//!   two references, empty lines): the last line must be sacrebleu's score to the last digit,
//!   the line before it sacrebleu's own printed line, and `--segments` its sentence scores;
//! - `compare` on two outputs;
//! - `evaluate` on the human scores `assay analyze` writes for a simulated crowd and on metric
//!   scores in the mt-metrics-eval layout and TSV: every file, figures recomputed here from the
//!   inputs, and a broken input refused with its file and line, nothing written.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use assay_tests::*;

fn assay(args: &[&str]) -> Output {
    Command::new(assay_bin()).args(args).env("ASSAY_LOG", "warn").output().expect("run assay")
}

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "assay failed: {err}");
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fixture() -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/metrics/sacrebleu.json");
    serde_json::from_str(&read(&path)).unwrap()
}

fn write_lines(path: &Path, lines: &serde_json::Value) {
    let v: Vec<&str> = lines.as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    std::fs::write(path, v.join("\n") + "\n").unwrap();
}

#[test]
fn score_matches_sacrebleu_on_every_fixture_case() {
    let data = fixture();
    let dir = tempfile::tempdir().unwrap();
    let (mut corpus, mut segments) = (0, 0);
    for (k, c) in data["cases"].as_array().unwrap().iter().enumerate() {
        let id = c["id"].as_str().unwrap();
        let hyp = dir.path().join(format!("{k}.hyp"));
        write_lines(&hyp, &c["hyps"]);
        let mut args: Vec<String> = vec!["metrics".into(), "score".into(), "--hypothesis".into(), hyp.display().to_string()];
        for (r, refs) in c["refs"].as_array().unwrap().iter().enumerate() {
            let p = dir.path().join(format!("{k}.ref{r}"));
            write_lines(&p, refs);
            args.extend(["--reference".into(), p.display().to_string()]);
        }
        let metric = c["metric"].as_str().unwrap();
        args.extend(["--metric".into(), metric.into()]);
        if metric == "bleu" {
            args.extend(["--tokenize".into(), c["tokenize"].as_str().unwrap().into()]);
        }
        if c["lowercase"].as_bool().unwrap() {
            args.push("--lowercase".into());
        }
        if c["eps_smoothing"].as_bool() == Some(true) {
            args.push("--eps-smoothing".into());
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&assay(&argv));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{id}: {out}");
        assert_eq!(lines[0], c["line"].as_str().unwrap(), "{id}: sacrebleu's printed line");
        let (name, value) = lines[1].split_once(' ').unwrap();
        assert_eq!(name, if metric == "bleu" { "BLEU" } else if metric == "chrf" { "chrF2" } else { "chrF2++" });
        assert_eq!(value, c["corpus"]["repr"].as_str().unwrap(), "{id}: corpus score");
        corpus += 1;

        let mut argv = argv.clone();
        argv.push("--segments");
        let out = ok(&assay(&argv));
        let mut lines = out.lines();
        let sig = lines.next().unwrap();
        let want_sig = c.get("sentence_signature").unwrap_or(&c["signature"]).as_str().unwrap();
        assert_eq!(sig, want_sig, "{id}");
        let got: Vec<&str> = lines.collect();
        let want: Vec<&str> = c["segments"].as_array().unwrap().iter().map(|s| s["repr"].as_str().unwrap()).collect();
        assert_eq!(got, want, "{id}: segment scores");
        segments += want.len();
    }
    assert_eq!(corpus, 166);
    assert_eq!(segments, 870, "every segment of every case");
}

#[test]
fn score_refuses_mismatched_files() {
    let dir = tempfile::tempdir().unwrap();
    let (h, r) = (dir.path().join("h.txt"), dir.path().join("r.txt"));
    std::fs::write(&h, "a b c\nd e f\n").unwrap();
    std::fs::write(&r, "a b c\n").unwrap();
    let out = assay(&["metrics", "score", "--reference", r.to_str().unwrap(), "--hypothesis", h.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("r.txt has 1 lines, the hypothesis has 2"), "{err}");
}

#[test]
fn compare_two_outputs_on_corpus_bleu() {
    let data = fixture();
    let case = |id: &str| data["cases"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap().clone();
    let (a, b) = (case("en/sysA/1ref/bleu/13a"), case("en/sysB/1ref/bleu/13a"));
    let dir = tempfile::tempdir().unwrap();
    let (ha, hb, r) = (dir.path().join("sysA.txt"), dir.path().join("sysB.txt"), dir.path().join("ref.txt"));
    write_lines(&ha, &a["hyps"]);
    write_lines(&hb, &b["hyps"]);
    write_lines(&r, &a["refs"][0]);
    let args = ["metrics", "compare", "--reference", r.to_str().unwrap(), "--hypothesis", ha.to_str().unwrap(), "--hypothesis", hb.to_str().unwrap(), "--test-samples", "300", "--seed", "4"];
    let out = ok(&assay(&args));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("BLEU|{}", a["signature"].as_str().unwrap()));
    let row = |i: usize| lines[i].split('\t').collect::<Vec<_>>();
    assert_eq!(row(2), ["system", "score", "sysA", "sysB"]);
    // Corpus BLEU of each system, as sacrebleu computes it.
    assert_eq!(row(3)[1], a["corpus"]["repr"].as_str().unwrap());
    assert_eq!(row(4)[1], b["corpus"]["repr"].as_str().unwrap());
    // sysA is far better on 8 segments; approximate randomization over 2^8 swaps: p ≤ 1/256·B
    // resolution, well below 0.05, and the reverse is not significant.
    let p_ab: f64 = row(3)[3].trim_end_matches('*').parse().unwrap();
    let p_ba: f64 = row(4)[2].parse().unwrap();
    assert!(p_ab < 0.05 && row(3)[3].ends_with('*'), "{out}");
    assert!(p_ba > 0.5, "{out}");
    assert_eq!(out, ok(&assay(&args)), "seeded");
}

/// Pearson's r, written out independently of the crates under test.
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

fn csv(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines.map(|l| head.iter().zip(l.split(',')).map(|(h, v)| (h.to_string(), v.to_string())).collect()).collect()
}

#[test]
fn evaluate_metrics_against_an_analysed_crowd() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sim = d.join("sim.tsv");
    ok(&assay(&["simulate", "--judgments", "6000", "--seed", "3", "--out", sim.to_str().unwrap()]));
    let results = d.join("results");
    ok(&assay(&["analyze", "--input", sim.to_str().unwrap(), "--out", results.to_str().unwrap(), "--bootstrap", "50"]));
    let human_seg = results.join("de-en.assay-z.seg.score");
    let human_sys = results.join("de-en.assay-z.sys.score");

    // Metrics derived from the human segment scores: `good` = z + small deterministic noise,
    // `noise` = unrelated; mt-metrics-eval layout (LP/METRIC-REF.seg.score); `tsvmetric` as a
    // TSV of system scores.
    let seg_text = read(&human_seg);
    let mut systems: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
    for line in seg_text.lines() {
        let (s, v) = line.split_once('\t').unwrap();
        systems.entry(s.to_string()).or_default().push(v.parse().ok());
    }
    let mdir = d.join("metrics").join("de-en");
    std::fs::create_dir_all(&mdir).unwrap();
    let (mut good, mut noise) = (String::new(), String::new());
    let mut good_means = BTreeMap::new();
    for (s, vals) in &systems {
        let mut sum = (0.0, 0);
        for (i, v) in vals.iter().enumerate() {
            let jitter = (((i * 7919 + s.len() * 31) % 101) as f64 - 50.0) / 200.0;
            let g = v.map_or(0.3, |z| z + jitter);
            good.push_str(&format!("{s}\t{g}\n"));
            sum = (sum.0 + g, sum.1 + 1);
            let salt: usize = s.bytes().map(usize::from).product();
            noise.push_str(&format!("{s}\t{}\n", ((i * 104729 + salt * 7) % 997) as f64 / 997.0));
        }
        good_means.insert(s.clone(), sum.0 / sum.1 as f64);
    }
    std::fs::write(mdir.join("good-refA.seg.score"), &good).unwrap();
    std::fs::write(mdir.join("noise-refA.seg.score"), &noise).unwrap();
    let human_scores: BTreeMap<String, f64> = read(&human_sys).lines().map(|l| {
        let (s, v) = l.split_once('\t').unwrap();
        (s.to_string(), v.parse().unwrap())
    }).collect();
    let mut tsv = String::from("metric\tpair\tsystem\tscore\n");
    for (i, (s, h)) in human_scores.iter().enumerate() {
        tsv.push_str(&format!("tsvmetric\tde-en\t{s}\t{}\n", h * 2.0 + if i % 2 == 0 { 0.05 } else { -0.05 }));
    }
    std::fs::write(d.join("metrics").join("sys.tsv"), &tsv).unwrap();

    let out = d.join("meta");
    let metrics_dir = d.join("metrics");
    let args = [
        "metrics", "evaluate", "--human", human_sys.to_str().unwrap(), "--human", human_seg.to_str().unwrap(),
        "--metrics", metrics_dir.to_str().unwrap(), "--output", out.to_str().unwrap(),
        "--bootstrap", "200", "--permutations", "200", "--test-samples", "200", "--seed", "7",
    ];
    ok(&assay(&args));
    let mut files: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["clusters.csv", "meta.json", "metric-tests.csv", "segment-level.csv", "system-level.csv", "system-significance.csv"]);

    let sys = csv(&read(&out.join("system-level.csv")));
    assert_eq!(sys.len(), 3);
    let row = |m: &str| sys.iter().find(|r| r["metric"] == m).unwrap_or_else(|| panic!("{m}: {sys:?}")).clone();
    let names: Vec<&String> = human_scores.keys().collect();
    let h: Vec<f64> = names.iter().map(|s| human_scores[*s]).collect();
    let g: Vec<f64> = names.iter().map(|s| good_means[*s]).collect();
    let r_good: f64 = row("good-refA")["pearson"].parse().unwrap();
    assert!((r_good - pearson(&g, &h)).abs() < 1e-12, "{r_good} vs {}", pearson(&g, &h));
    let t: Vec<f64> = names.iter().enumerate().map(|(i, s)| human_scores[*s] * 2.0 + if i % 2 == 0 { 0.05 } else { -0.05 }).collect();
    let r_tsv: f64 = row("tsvmetric")["pearson"].parse().unwrap();
    assert!((r_tsv - pearson(&t, &h)).abs() < 1e-12);
    assert_eq!(row("good-refA")["systems"], systems.len().to_string());
    let lo: f64 = row("good-refA")["pearson_lower"].parse().unwrap();
    let hi: f64 = row("good-refA")["pearson_upper"].parse().unwrap();
    assert!(lo < hi && hi <= 1.0, "{lo} {hi}");
    assert!(row("tsvmetric")["pearson_lower"].is_empty(), "no segments, no interval");
    let pa = |m: &str| row(m)["pairwise_accuracy"].parse::<f64>().unwrap();
    assert!(pa("good-refA") > pa("noise-refA"));
    let spa = |m: &str| row(m)["soft_pairwise_accuracy"].parse::<f64>().unwrap();
    assert!(spa("good-refA") > spa("noise-refA"));

    let seg = csv(&read(&out.join("segment-level.csv")));
    assert_eq!(seg.len(), 2, "the TSV metric has no segments");
    let cells: usize = systems.values().flatten().filter(|v| v.is_some()).count();
    let sgood = seg.iter().find(|r| r["metric"] == "good-refA").unwrap();
    assert_eq!(sgood["cells"], cells.to_string());
    assert!(sgood["kendall_b"].parse::<f64>().unwrap() > 0.5);

    let clusters = csv(&read(&out.join("clusters.csv")));
    let first: Vec<&str> = clusters.iter().filter(|r| r["test"] == "perm-both" && r["cluster"] == "1").map(|r| r["metric"].as_str()).collect();
    assert!(!first.contains(&"noise-refA"), "{clusters:?}");
    let tests = csv(&read(&out.join("metric-tests.csv")));
    assert_eq!(tests.len(), 2 * 3 * 2 + 2, "Williams and PERM-BOTH for every ordered pair of 3 metrics, segment-level PERM-BOTH for the 2 with segments");
    let seg_test = tests.iter().find(|r| r["test"] == "perm-both-segment" && r["metric_a"] == "good-refA").unwrap();
    assert!(seg_test["p_value"].parse::<f64>().unwrap() < 0.05, "{seg_test:?}");
    let sig = csv(&read(&out.join("system-significance.csv")));
    let k = systems.len();
    assert_eq!(sig.len(), 3 * k * (k - 1), "humans, good and noise: every ordered pair");

    let json: serde_json::Value = serde_json::from_str(&read(&out.join("meta.json"))).unwrap();
    assert_eq!(json["pairs"][0]["pair"], "de-en");
    assert_eq!(json["settings"]["seed"], 7);
    // Seeded: the same files again.
    let again = d.join("meta2");
    let mut args2 = args.to_vec();
    let o2 = again.to_str().unwrap().to_string();
    let at = args2.iter().position(|a| *a == out.to_str().unwrap()).unwrap();
    args2[at] = &o2;
    ok(&assay(&args2));
    assert_eq!(read(&out.join("meta.json")), read(&again.join("meta.json")));

    // The same human scores read from Assay's analysis.json (segments by name, here 1..500 as
    // the segment file's positions): the same figures.
    let from_json = d.join("meta-json");
    let mut args3 = args.to_vec();
    let (j, o3) = (results.join("analysis.json").display().to_string(), from_json.display().to_string());
    let seg_at = args3.iter().position(|a| *a == human_seg.to_str().unwrap()).unwrap();
    args3.drain(seg_at - 1..=seg_at);
    let sys_at = args3.iter().position(|a| *a == human_sys.to_str().unwrap()).unwrap();
    args3[sys_at] = &j;
    let at = args3.iter().position(|a| *a == out.to_str().unwrap()).unwrap();
    args3[at] = &o3;
    ok(&assay(&args3));
    // (Equal to 1e-9: serde_json may read the last bit of a JSON float differently from Rust's
    // own parser of the text files.)
    for f in ["system-level.csv", "segment-level.csv", "metric-tests.csv", "clusters.csv"] {
        let (a, b) = (read(&out.join(f)), read(&from_json.join(f)));
        assert_eq!(a.lines().count(), b.lines().count(), "{f}");
        for (la, lb) in a.lines().zip(b.lines()) {
            for (x, y) in la.split(',').zip(lb.split(',')) {
                match (x.parse::<f64>(), y.parse::<f64>()) {
                    (Ok(x), Ok(y)) => assert!((x - y).abs() <= 1e-9, "{f}: {la} vs {lb}"),
                    _ => assert_eq!(x, y, "{f}: {la} vs {lb}"),
                }
            }
        }
    }

    // A broken metric file: refused with its file and line; nothing is written.
    std::fs::write(mdir.join("bad-refA.seg.score"), "sys01\t0.5\nsys01\tabc\n").unwrap();
    std::fs::write(mdir.join("doc-refA.doc.score"), "sys01\t0.5\n").unwrap();
    let refused = d.join("refused");
    let bad = assay(&["metrics", "evaluate", "--human", human_sys.to_str().unwrap(), "--metrics", d.join("metrics").to_str().unwrap(), "--output", refused.to_str().unwrap()]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("de-en/bad-refA.seg.score, line 2: score \"abc\" is not a number"), "{err}");
    assert!(err.contains("doc-refA.doc.score") && err.contains("only sys and seg files are read"), "{err}");
    assert!(!refused.exists());
}

both_backends! {
    /// The campaign's metrics page and API (issue 21): a DA campaign on an uploaded WMT folder,
    /// answered by a simulated careful crowd through the storage path, against the built-in
    /// metrics. Each system's BLEU, chrF and chrF++ equal `assay metrics score` on the folder's
    /// files (itself checked against sacrebleu); the correlations come out for every metric;
    /// the roles are checked.
    async fn a_campaign_compares_its_human_scores_with_bleu_and_chrf(server) {
        use assay_tests::fixtures::{tar_gz, write_wmt};
        use serde_json::json;
        let org = server.browser();
        assert_eq!(org.login(ORGANIZER).await.status, 200);
        let dir = tempfile::tempdir().unwrap();
        let systems = ["Alpha", "Beta", "Gamma", "Delta"];
        write_wmt(dir.path(), "en-de", 40, &systems);
        let r = org
            .client
            .post(format!("{}/upload/import", org.base))
            .header("x-assay-file-name", "metrics-set.tar.gz")
            .header("x-assay-test-set", "metrics-set")
            .header("x-assay-pair", "en-de")
            .header("origin", &org.base)
            .body(tar_gz(dir.path()))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
        let sets = org.call("list_test_sets", &[]).await.json();
        let set = sets.as_array().unwrap().iter().find(|t| t["name"] == "metrics-set").unwrap().clone();
        let ids: Vec<i64> = set["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
        let draft = json!({
            "name": "Metrics campaign", "task": "da-adequacy", "test_set_id": set["id"], "systems": ids, "benchmark_systems": [], "seed": 4,
            "settings": { "hit_length": 40, "bad_refs": 5, "repeats": 5, "refs": 0, "sets": 2, "judgments_wanted": 40, "redundancy": 2, "target_language": "German" }
        });
        let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let id = created.body.trim().to_string();
        let launched = org.call("launch_campaign", &[("campaign_id", &id)]).await;
        assert_eq!(launched.status, 200, "{}", launched.body);
        // Before any judgment: nothing to compare, said in words.
        let empty = org.call("campaign_metrics", &[("campaign_id", &id)]).await;
        assert_eq!(empty.status, 200, "{}", empty.body);
        assert!(empty.json()["empty_reason"].as_str().is_some_and(|r| r.contains("No human scores yet")), "{}", empty.body);

        let sim = Command::new(assay_bin())
            .args(["simulate", "--campaign", &id, "--mix", "careful=1", "--seed", "5"])
            .env("ASSAY_LOG", "warn")
            .env("DATABASE_URL", &server.database_url)
            .env("ASSAY_DATA_DIR", server.data_dir.path())
            .output()
            .unwrap();
        assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));

        let api = org.get(&format!("/api/v1/campaigns/{id}/metrics")).await;
        assert_eq!(api.status, 200, "{}", api.body);
        let api: serde_json::Value = serde_json::from_str(&api.body).unwrap();
        let pair = &api["report"]["pairs"][0];
        assert_eq!(pair["pair"], "en-de", "{api}");
        let level = &pair["system_level"];
        let judged: Vec<String> = level["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        assert_eq!(judged.len(), 4, "{api}");
        let names: Vec<&str> = level["metrics"].as_array().unwrap().iter().map(|m| m["metric"].as_str().unwrap()).collect();
        assert_eq!(names, ["BLEU", "chrF", "chrF++"]);
        assert!(api["signatures"][0][1].as_str().unwrap().contains("tok:13a"), "{api}");
        // Every system's score equals the command line's on the same files.
        for (k, metric) in ["bleu", "chrf", "chrf++"].iter().enumerate() {
            for (i, system) in judged.iter().enumerate() {
                let hyp = dir.path().join(format!("system-outputs/en-de/{system}.txt"));
                let refs = dir.path().join("references/en-de.refA.txt");
                let out = ok(&assay(&["metrics", "score", "--metric", metric, "--reference", refs.to_str().unwrap(), "--hypothesis", hyp.to_str().unwrap()]));
                let last: f64 = out.lines().last().unwrap().split_whitespace().last().unwrap().parse().unwrap();
                let page = level["metrics"][k]["scores"][i].as_f64().unwrap();
                assert_eq!(page, last, "{metric} of {system}");
            }
            let r = &level["metrics"][k]["pearson"];
            assert!(r["value"].as_f64().is_some_and(|v| (-1.0..=1.0).contains(&v)), "{r}");
            assert!(r["interval"].is_object(), "a bootstrap interval: {r}");
        }
        assert!(level["williams"]["p"].as_array().unwrap().len() == 3);
        assert!(pair["segment_level"]["metrics"].as_array().unwrap().iter().all(|m| m["n"].as_u64().unwrap() > 0), "{pair}");

        // The page's server function: the same comparison as rows and plots.
        let page = org.call("campaign_metrics", &[("campaign_id", &id)]).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let page = page.json();
        let p = &page["pairs"][0];
        assert_eq!(p["system_rows"].as_array().unwrap().len(), 3);
        assert!(p["williams_svg"].as_str().unwrap().contains("Williams"));
        assert_eq!(p["scatter_svgs"].as_array().unwrap().len(), 3);
        assert_eq!(p["segment_rows"].as_array().unwrap().len(), 3);
        // An unknown campaign is the argument's fault.
        assert_eq!(org.call("campaign_metrics", &[("campaign_id", "999999")]).await.status, 400);
    }
}
