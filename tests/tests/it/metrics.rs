//! `assay metrics` end to end, with the built binary:
//! - `score` on every case of `tests/fixtures/metrics/sacrebleu.json` (8 scripts, BLEU with the
//!   13a, zh, intl, char and none tokenizers, chrF, chrF++, lowercase, eps smoothing, one and
//!   two references, empty lines): the last line must be sacrebleu's score to the last digit,
//!   the line before it sacrebleu's own printed line, and `--segments` its sentence scores;
//! - `score --metric ter` on every case of `tests/fixtures/metrics/ter.json` (sacrebleu's TER);
//! - `compare` on two outputs;
//! - `evaluate` on the human scores `assay analyze` writes for a simulated crowd and on metric
//!   scores in the mt-metrics-eval layout and TSV: every file, figures recomputed here from the
//!   inputs, and a broken input refused with its file and line, nothing written; `evaluate
//!   --judgments` on a judgment file;
//! - `score --tokenize ja-mecab` against sacrebleu's (`tests/fixtures/metrics/ja-mecab.json`);
//! - the papers (issue 21, "Verified"): the EMNLP 2014 examples and WMT 2012's correlations
//!   through `evaluate` on the authors' published scores and through scores uploaded to a
//!   campaign (`tests/fixtures/metrics/wmt12/`).

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

/// `assay metrics score --metric ter` on every case of `tests/fixtures/metrics/ter.json`
/// (sacrebleu's TER on eight scripts, one and two references, shifts, empty lines, punctuation,
/// case, long sentences, and every option set): sacrebleu's printed line, its score to the last
/// digit, and with `--segments` its signature and sentence scores.
#[test]
fn score_ter_matches_sacrebleu_on_every_fixture_case() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/metrics/ter.json");
    let data: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (mut corpus, mut segments) = (0, 0);
    for (k, c) in data["cases"].as_array().unwrap().iter().enumerate() {
        let id = c["id"].as_str().unwrap();
        let hyp = dir.path().join(format!("{k}.hyp"));
        write_lines(&hyp, &c["hyps"]);
        let mut args: Vec<String> = vec!["metrics".into(), "score".into(), "--metric".into(), "ter".into(), "--hypothesis".into(), hyp.display().to_string()];
        for (r, refs) in c["refs"].as_array().unwrap().iter().enumerate() {
            let p = dir.path().join(format!("{k}.ref{r}"));
            write_lines(&p, refs);
            args.extend(["--reference".into(), p.display().to_string()]);
        }
        for (key, flag) in [("normalized", "--ter-normalized"), ("no_punct", "--ter-no-punct"), ("asian_support", "--ter-asian-support"), ("case_sensitive", "--ter-case-sensitive")] {
            if c["config"][key].as_bool().unwrap() {
                args.push(flag.into());
            }
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&assay(&argv));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{id}: {out}");
        assert_eq!(lines[0], c["line"].as_str().unwrap(), "{id}: sacrebleu's printed line");
        assert_eq!(lines[1], format!("TER {}", c["corpus"]["repr"].as_str().unwrap()), "{id}: corpus score");
        corpus += 1;

        let mut argv = argv.clone();
        argv.push("--segments");
        let out = ok(&assay(&argv));
        let mut lines = out.lines();
        assert_eq!(lines.next().unwrap(), c["signature"].as_str().unwrap(), "{id}");
        let got: Vec<&str> = lines.collect();
        let want: Vec<&str> = c["segments"].as_array().unwrap().iter().map(|s| s["repr"].as_str().unwrap()).collect();
        assert_eq!(got, want, "{id}: segment scores");
        segments += want.len();
    }
    assert_eq!((corpus, segments), (109, 560), "every case and segment of ter.json");
    // TER lowercases by itself: --lowercase is refused with the reason; compare has no TER test.
    let h = dir.path().join("0.hyp");
    let refused = assay(&["metrics", "score", "--metric", "ter", "--lowercase", "--reference", h.to_str().unwrap(), "--hypothesis", h.to_str().unwrap()]);
    assert!(!refused.status.success() && refused.stdout.is_empty());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--ter-case-sensitive"), "{}", String::from_utf8_lossy(&refused.stderr));
    let refused = assay(&["metrics", "compare", "--metric", "ter", "--reference", h.to_str().unwrap(), "--hypothesis", h.to_str().unwrap(), "--hypothesis", h.to_str().unwrap()]);
    assert!(!refused.status.success() && refused.stdout.is_empty());
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

/// sacrebleu's ko-mecab and SentencePiece tokenizers are refused with the reason (issue 21), on
/// `score` and `compare` alike, nothing printed on stdout.
#[test]
fn score_refuses_the_tokenizers_assay_cannot_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("h.txt");
    std::fs::write(&h, "今日は良い天気です。\n").unwrap();
    for (tok, why) in [
        ("ko-mecab", "mecab-ko-dic"),
        ("flores200", "SentencePiece"),
        ("spm", "SentencePiece"),
    ] {
        for verb in ["score", "compare"] {
            let mut args = vec!["metrics", verb, "--tokenize", tok, "--reference", h.to_str().unwrap(), "--hypothesis", h.to_str().unwrap()];
            if verb == "compare" {
                args.extend(["--hypothesis", h.to_str().unwrap()]);
            }
            let out = assay(&args);
            assert!(!out.status.success(), "{tok} {verb}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(&format!("--tokenize {}", if tok == "flores200" { "spm" } else { tok })) && err.contains(why), "{tok} {verb}: {err}");
            assert!(out.stdout.is_empty());
        }
    }
    // chrF does not tokenize: the option is ignored, as sacrebleu ignores it.
    ok(&assay(&["metrics", "score", "--metric", "chrf", "--tokenize", "ko-mecab", "--reference", h.to_str().unwrap(), "--hypothesis", h.to_str().unwrap()]));
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

/// The four systems of the campaign tests' WMT folder.
const FOUR_SYSTEMS: [&str; 4] = ["Alpha", "Beta", "Gamma", "Delta"];

/// A DA campaign on an uploaded WMT folder (en-de, 40 segments, these systems) in `dir`,
/// launched; returns its id.
async fn da_campaign_of(org: &Browser, dir: &Path, systems: &[&str]) -> String {
    use assay_tests::fixtures::{tar_gz, write_wmt};
    use serde_json::json;
    write_wmt(dir, "en-de", 40, systems);
    let r = org
        .client
        .post(format!("{}/upload/import", org.base))
        .header("x-assay-file-name", "metrics-set.tar.gz")
        .header("x-assay-test-set", "metrics-set")
        .header("x-assay-pair", "en-de")
        .header("origin", &org.base)
        .body(tar_gz(dir))
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
    id
}

/// A simulated careful crowd answers the campaign through the storage path.
fn simulate(server: &TestServer, id: &str) {
    let sim = server.assay(&["simulate", "--campaign", id, "--mix", "careful=1", "--seed", "5"]).output().unwrap();
    assert!(sim.status.success(), "{}", String::from_utf8_lossy(&sim.stderr));
}

/// The one setup of the campaign tests: an organizer signed in, and a DA campaign of `systems`
/// launched on a WMT folder ([`da_campaign_of`]); the organizer's browser, the folder and the
/// campaign's id.
async fn launched_campaign(server: &TestServer, systems: &[&str]) -> (Browser, tempfile::TempDir, String) {
    let org = server.browser();
    assert_eq!(org.login(ORGANIZER).await.status, 200);
    let dir = tempfile::tempdir().unwrap();
    let id = da_campaign_of(&org, dir.path(), systems).await;
    (org, dir, id)
}

/// A researcher signed in, and what the metrics API says of the campaign before any upload:
/// the whole answer, the systems and their human scores, in its order.
async fn human_scores(server: &TestServer, id: &str) -> (Browser, serde_json::Value, Vec<String>, Vec<f64>) {
    let res = server.browser();
    assert_eq!(res.login(RESEARCHER).await.status, 200);
    let before = res.get(&format!("/api/v1/campaigns/{id}/metrics")).await.json();
    let level = &before["report"]["pairs"][0]["system_level"];
    let systems: Vec<String> = level["systems"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    let human: Vec<f64> = level["human"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    (res, before, systems, human)
}

both_backends! {
    /// The campaign's metrics page and API (issue 21): a DA campaign on an uploaded WMT folder,
    /// answered by a simulated careful crowd through the storage path, against the built-in
    /// metrics. Each system's BLEU, chrF and chrF++ equal `assay metrics score` on the folder's
    /// files (itself checked against sacrebleu); the correlations come out for every metric;
    /// the roles are checked.
    async fn a_campaign_compares_its_human_scores_with_bleu_and_chrf(server) {
        let (org, dir, id) = launched_campaign(&server, &FOUR_SYSTEMS).await;
        // Before any judgment: nothing to compare, said in words.
        let empty = org.call("campaign_metrics", &[("campaign_id", &id)]).await;
        assert_eq!(empty.status, 200, "{}", empty.body);
        assert!(empty.json()["empty_reason"].as_str().is_some_and(|r| r.contains("No human scores yet")), "{}", empty.body);

        simulate(&server, &id);

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

/// A multipart/form-data body: (field, file name, content) parts.
fn multipart(parts: &[(&str, Option<&str>, &str)]) -> (String, Vec<u8>) {
    let boundary = "assay-test-boundary-7c1f";
    let mut body = String::new();
    for (field, file, content) in parts {
        body.push_str(&format!("--{boundary}\r\n"));
        match file {
            Some(f) => body.push_str(&format!("Content-Disposition: form-data; name=\"{field}\"; filename=\"{f}\"\r\nContent-Type: text/plain\r\n\r\n")),
            None => body.push_str(&format!("Content-Disposition: form-data; name=\"{field}\"\r\n\r\n")),
        }
        body.push_str(content);
        body.push_str("\r\n");
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    (format!("multipart/form-data; boundary={boundary}"), body.into_bytes())
}

/// Williams' t (METHOD §6), written out independently: metric 1 better than metric 2.
fn williams_t(m1: &[f64], m2: &[f64], h: &[f64]) -> f64 {
    let (r12, r13, r23) = (pearson(m1, m2).abs(), pearson(m1, h).abs(), pearson(m2, h).abs());
    let n = h.len() as f64;
    let k = 1.0 - r12 * r12 - r13 * r13 - r23 * r23 + 2.0 * r12 * r13 * r23;
    (r13 - r23) * ((n - 1.0) * (1.0 + r12)).sqrt() / (2.0 * k * (n - 1.0) / (n - 3.0) + ((r23 + r13).powi(2) / 4.0) * (1.0 - r12).powi(3)).sqrt()
}

both_backends! {
    /// Metric scores uploaded for a campaign (issue 21): two metrics, one in the mt-metrics-eval
    /// layout (system and segment files, through the page's multipart form as a researcher) and
    /// one as a TSV (a raw body with a personal API token), join BLEU and chrF in the API, the
    /// page and the exports; their correlations and the Williams statistic between them are
    /// recomputed here from the uploaded numbers; bad files are refused with file and line and
    /// store nothing; `assay metrics add`/`remove`; deleting a metric takes it off the page.
    async fn uploaded_metrics_join_the_builtin_ones_everywhere(server) {
        let (_org, dir, id) = launched_campaign(&server, &FOUR_SYSTEMS).await;
        simulate(&server, &id);
        let (res, before, systems, human) = human_scores(&server, &id).await;
        assert_eq!(systems.len(), 4, "{before}");

        // Good-refA: close to the humans; Noisy: not.
        let good: Vec<f64> = human.iter().enumerate().map(|(i, h)| h * 10.0 + [0.3, -0.2, 0.1, -0.4][i]).collect();
        let noisy = [3.0, 1.0, 4.0, 2.0];
        let sys_file: String = systems.iter().zip(&good).map(|(s, v)| format!("{s}\t{v}\n")).collect();
        let mut seg_file = String::new();
        for (k, s) in systems.iter().enumerate() {
            for i in 0..40 {
                if k == 0 && i == 7 {
                    seg_file.push_str(&format!("{s}\tNone\n"));
                } else {
                    seg_file.push_str(&format!("{s}\t{}\n", good[k] + ((i * 7 + k * 3) % 11) as f64 / 10.0));
                }
            }
        }
        let upload = |b: &Browser, parts: Vec<(&'static str, Option<String>, String)>| {
            let parts: Vec<(&str, Option<&str>, &str)> = parts.iter().map(|(f, n, c)| (*f, n.as_deref(), c.as_str())).collect();
            let (ct, body) = multipart(&parts);
            b.client.post(format!("{}/api/v1/campaigns/{id}/metrics", b.base)).header("content-type", ct).body(body).send()
        };
        let r = upload(&res, vec![
            ("file", Some("en-de/Good-refA.sys.score".into()), sys_file.clone()),
            ("file", Some("en-de/Good-refA.seg.score".into()), seg_file.clone()),
        ]).await.unwrap();
        assert_eq!(r.status(), 200);
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["summary"], "Uploaded Good-refA (4 system scores, 159 segment scores).", "{body}");

        // The TSV with a token, a raw body, the name in a header.
        // A token made for it (issue 36: uploading is a scope of its own; a read-only token is refused).
        let read_only = res.call("create_api_token", &[("name", "reader")]).await.json()["secret"].as_str().unwrap().to_string();
        let token = res.call("create_api_token", &[("name", "metrics upload"), ("metrics_upload", "true")]).await.json()["secret"].as_str().unwrap().to_string();
        let api = reqwest::Client::new();
        let tsv: String = std::iter::once("system\tscore\n".to_string()).chain(systems.iter().zip(noisy).map(|(s, v)| format!("{s}\t{v}\n"))).collect();
        let r = api.post(format!("{}/api/v1/campaigns/{id}/metrics", server.base)).bearer_auth(&read_only)
            .header("x-assay-file-name", "noisy.tsv").header("x-assay-metric-name", "Noisy").body(tsv.clone()).send().await.unwrap();
        assert_eq!(r.status(), 403, "{}", r.text().await.unwrap());
        let r = api.post(format!("{}/api/v1/campaigns/{id}/metrics", server.base)).bearer_auth(&token)
            .header("x-assay-file-name", "noisy.tsv").header("x-assay-metric-name", "Noisy").body(tsv.clone()).send().await.unwrap();
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());

        // Refused, nothing stored: a system the campaign does not have and too few lines (with
        // a valid file beside them), a name taken, a segment the test set does not have, an
        // unknown format; and for an annotator and a stranger.
        let bad_seg = seg_file.replace(&format!("{}\t", systems[1]), "Omega\t");
        let short: String = systems.iter().map(|s| format!("{s}\t1\n{s}\t2\n")).collect();
        let r = upload(&res, vec![
            ("file", Some("en-de/Other-refA.sys.score".into()), sys_file.clone()),
            ("file", Some("en-de/Other-refA.seg.score".into()), bad_seg),
            ("file", Some("en-de/Short-refA.seg.score".into()), short),
        ]).await.unwrap();
        assert_eq!(r.status(), 400);
        let errors: Vec<String> = r.json::<serde_json::Value>().await.unwrap()["errors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect();
        assert!(errors.iter().any(|e| e.starts_with("en-de/Other-refA.seg.score, line 41: system \"Omega\" is not one of the campaign's systems")), "{errors:?}");
        assert!(errors.iter().any(|e| e.starts_with("en-de/Short-refA.seg.score: 2 lines per system, but the campaign's test set has 40 segments")), "{errors:?}");
        assert_eq!(errors.len(), 2, "{errors:?}");
        let r = api.post(format!("{}/api/v1/campaigns/{id}/metrics", server.base)).bearer_auth(&token)
            .header("x-assay-file-name", "noisy.tsv").header("x-assay-metric-name", "noisy").body(tsv.clone()).send().await.unwrap();
        assert_eq!(r.status(), 400);
        assert!(r.text().await.unwrap().contains("noisy.tsv: a metric named \\\"Noisy\\\" exists for this campaign already"));
        let r = api.post(format!("{}/api/v1/campaigns/{id}/metrics", server.base)).bearer_auth(&token)
            .header("x-assay-file-name", "seg.tsv").body(format!("metric\tsystem\tsegment\tscore\nSeg\t{}\tno-such-segment\t1\n", systems[0])).send().await.unwrap();
        assert_eq!(r.status(), 400);
        assert!(r.text().await.unwrap().contains("seg.tsv, line 2: segment \\\"no-such-segment\\\" is not a segment of the campaign's test set"));
        let r = api.post(format!("{}/api/v1/campaigns/{id}/metrics", server.base)).bearer_auth(&token)
            .header("x-assay-file-name", "scores.csv").body("a,b\n").send().await.unwrap();
        assert_eq!(r.status(), 400);
        let (ct, forged) = multipart(&[("file", Some("en-de/X.sys.score"), sys_file.as_str())]);
        let r = res.client.post(format!("{}/api/v1/campaigns/{id}/metrics", res.base)).header("origin", "http://evil.example").header("content-type", ct).body(forged).send().await.unwrap();
        assert_eq!(r.status(), 403, "a form posted from another site");
        let ann = server.browser();
        ann.login(ANNOTATOR).await;
        assert_eq!(upload(&ann, vec![("file", Some("en-de/X.sys.score".into()), sys_file.clone())]).await.unwrap().status(), 403);
        assert_eq!(upload(&server.browser(), vec![("file", Some("en-de/X.sys.score".into()), sys_file.clone())]).await.unwrap().status(), 401);
        assert_eq!(api.post(format!("{}/api/v1/campaigns/999999/metrics", server.base)).bearer_auth(&token).header("x-assay-file-name", "n.tsv").body(tsv.clone()).send().await.unwrap().status(), 404);

        // The API: the built-in metrics, then the uploaded ones.
        let after = res.get(&format!("/api/v1/campaigns/{id}/metrics")).await.json();
        let level = &after["report"]["pairs"][0]["system_level"];
        let names: Vec<&str> = level["metrics"].as_array().unwrap().iter().map(|m| m["metric"].as_str().unwrap()).collect();
        assert_eq!(names, ["BLEU", "chrF", "chrF++", "Good-refA", "Noisy"], "only what was accepted");
        assert_eq!(level["human"], before["report"]["pairs"][0]["system_level"]["human"]);
        let metric = |n: &str| level["metrics"].as_array().unwrap().iter().find(|m| m["metric"] == n).unwrap().clone();
        let r_good = metric("Good-refA")["pearson"]["value"].as_f64().unwrap();
        assert!((r_good - pearson(&good, &human)).abs() < 1e-12, "{r_good} vs {}", pearson(&good, &human));
        let r_noisy = metric("Noisy")["pearson"]["value"].as_f64().unwrap();
        assert!((r_noisy - pearson(&noisy, &human)).abs() < 1e-12);
        assert_eq!(metric("Good-refA")["scores"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect::<Vec<_>>(), good, "the uploaded system scores, as given");
        let w = &level["williams"];
        let at = |n: &str| w["metrics"].as_array().unwrap().iter().position(|m| m == n).unwrap();
        let t = w["statistic"][at("Good-refA")][at("Noisy")].as_f64().unwrap();
        assert!((t - williams_t(&good, &noisy, &human)).abs() < 1e-9, "{t} vs {}", williams_t(&good, &noisy, &human));
        let seg_names: Vec<&str> = after["report"]["pairs"][0]["segment_level"]["metrics"].as_array().unwrap().iter().map(|m| m["metric"].as_str().unwrap()).collect();
        assert_eq!(seg_names, ["BLEU", "chrF", "chrF++", "Good-refA"], "Noisy has no segment scores");
        // Its segment scores line up with the humans' by the test set's segment ids: every cell
        // the humans scored, less the one None.
        let seg = &after["report"]["pairs"][0]["segment_level"]["metrics"];
        let (bleu_n, good_n) = (seg[0]["n"].as_u64().unwrap(), seg[3]["n"].as_u64().unwrap());
        assert!(good_n > 0 && good_n + 1 >= bleu_n && good_n <= bleu_n, "{good_n} of {bleu_n}");

        // The page: rows, plots, the list of uploads.
        let page = res.call("campaign_metrics", &[("campaign_id", &id)]).await.json();
        let p = &page["pairs"][0];
        assert_eq!(p["system_rows"].as_array().unwrap().len(), 5);
        assert_eq!(p["scatter_svgs"].as_array().unwrap().len(), 5);
        assert!(p["williams_svg"].as_str().unwrap().contains("Good-refA"));
        assert!(p["system_rows"][3]["significance_agreement"].is_array(), "{}", p["system_rows"][3]);
        let uploaded = page["uploaded"].as_array().unwrap();
        assert_eq!(uploaded.len(), 2);
        assert_eq!(uploaded[0]["name"], "Good-refA");
        assert_eq!(uploaded[0]["files"], serde_json::json!(["en-de/Good-refA.sys.score", "en-de/Good-refA.seg.score"]));
        assert_eq!((uploaded[0]["system_scores"].as_i64(), uploaded[0]["segment_scores"].as_i64()), (Some(4), Some(159)));
        assert_eq!(uploaded[1]["uploaded_by"], RESEARCHER.0);

        // The exports: the page's tables as files, in the manifest and all.zip, on the results page.
        let csv_file = res.get(&format!("/api/v1/campaigns/{id}/export/metrics-system-level.csv")).await;
        assert_eq!(csv_file.status, 200, "{}", csv_file.body);
        let rows = csv(&csv_file.body);
        assert_eq!(rows.iter().map(|r| r["metric"].as_str()).collect::<Vec<_>>(), names);
        let exported: f64 = rows.iter().find(|r| r["metric"] == "Good-refA").unwrap()["pearson"].parse().unwrap();
        assert!((exported - pearson(&good, &human)).abs() < 1e-12);
        let meta = res.get(&format!("/campaigns/{id}/export/metrics.json")).await;
        assert_eq!(meta.status, 200);
        assert_eq!(meta.json()["pairs"][0]["system_level"]["metrics"][3]["metric"], "Good-refA");
        let manifest = res.get(&format!("/api/v1/campaigns/{id}/export/manifest.json")).await.json();
        let files: Vec<&str> = manifest["files"].as_array().unwrap().iter().filter_map(|f| f.as_str().or_else(|| f["name"].as_str())).collect();
        for f in ["metrics-system-level.csv", "metrics-segment-level.csv", "metrics-tests.csv", "metrics-clusters.csv", "metrics-system-significance.csv", "metrics.json"] {
            assert!(files.contains(&f), "{f} in {files:?}");
        }
        assert_eq!(manifest["metrics"]["uploaded"].as_array().unwrap().len(), 2, "{}", manifest["metrics"]);
        let zip_bytes = res.client.get(format!("{}/campaigns/{id}/export/all.zip", res.base)).send().await.unwrap().bytes().await.unwrap();
        let archive = zip::ZipArchive::new(std::io::Cursor::new(zip_bytes.to_vec())).unwrap();
        let inside: Vec<String> = archive.file_names().map(|n| n.unwrap().to_string()).collect();
        assert!(inside.iter().any(|n| n == "metrics-tests.csv") && inside.iter().any(|n| n == "metrics.json"), "{inside:?}");
        let results = res.call("campaign_results", &[("campaign_id", &id), ("exclude_ref", "false"), ("exclude_bad_ref", "false"), ("per_segment", "false"), ("wilcoxon", "false")]).await.json();
        assert_eq!(results["metric_export_files"].as_array().unwrap().len(), 6, "{}", results["metric_export_files"]);

        // The command line: add (all or nothing) and remove.
        let f = dir.path().join("cli.tsv");
        std::fs::write(&f, &tsv).unwrap();
        let out = server.assay(&["metrics", "add", "--campaign", &id, "--name", "Cli", f.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Uploaded Cli (4 system scores, 0 segment scores).");
        let bad = dir.path().join("bad.tsv");
        std::fs::write(&bad, "system\tscore\nNobody\t1\n").unwrap();
        let out = server.assay(&["metrics", "add", "--campaign", &id, "--name", "Bad", bad.to_str().unwrap()]).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("nothing was uploaded") && err.contains("bad.tsv, line 2: system \"Nobody\""), "{err}");
        let names_now = |v: serde_json::Value| v["uploaded"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
        assert_eq!(names_now(res.call("campaign_metrics", &[("campaign_id", &id)]).await.json()), ["Cli", "Good-refA", "Noisy"]);
        let out = server.assay(&["metrics", "remove", "--campaign", &id, "--metric", "Cli"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

        // Deleting from the page: gone from the comparison; another campaign's id is refused.
        let noisy_id = uploaded[1]["id"].to_string();
        assert_eq!(res.call("delete_campaign_metric", &[("campaign_id", "999999"), ("metric_id", &noisy_id)]).await.status, 400);
        let del = res.call("delete_campaign_metric", &[("campaign_id", &id), ("metric_id", &noisy_id)]).await;
        assert_eq!(del.status, 200, "{}", del.body);
        assert_eq!(del.json(), "Noisy");
        let last = res.get(&format!("/api/v1/campaigns/{id}/metrics")).await.json();
        let names: Vec<&str> = last["report"]["pairs"][0]["system_level"]["metrics"].as_array().unwrap().iter().map(|m| m["metric"].as_str().unwrap()).collect();
        assert_eq!(names, ["BLEU", "chrF", "chrF++", "Good-refA"]);
    }
}

/// `x` centred and scaled to length 1.
fn unit_centred(x: &[f64]) -> Vec<f64> {
    let m = x.iter().sum::<f64>() / x.len() as f64;
    let c: Vec<f64> = x.iter().map(|v| v - m).collect();
    let n = c.iter().map(|v| v * v).sum::<f64>().sqrt();
    c.iter().map(|v| v / n).collect()
}

/// A DA campaign of 12 systems answered by a simulated crowd, for uploads of metric scores: a
/// researcher's browser, the campaign's id, and its systems with their human scores as the
/// metrics API lists them.
async fn twelve_system_campaign(server: &TestServer) -> (Browser, String, Vec<String>, Vec<f64>) {
    let names: Vec<String> = (1..=12).map(|i| format!("Sys{i:02}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (_org, _dir, id) = launched_campaign(server, &refs).await;
    simulate(server, &id);
    let (res, before, systems, human) = human_scores(server, &id).await;
    assert_eq!(systems.len(), 12, "{before}");
    (res, id, systems, human)
}

/// Uploads `tsv` as the metric file `name` of campaign `id`; the metrics API's answer after it.
async fn upload_metrics(res: &Browser, id: &str, name: &str, tsv: String) -> serde_json::Value {
    let r = res.client.post(format!("{}/api/v1/campaigns/{id}/metrics", res.base)).header("x-assay-file-name", name).body(tsv).send().await.unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    res.get(&format!("/api/v1/campaigns/{id}/metrics")).await.json()
}

/// `x` without its components along the unit vectors `basis` (and its mean), at length 1.
fn orthonormal_to(x: &[f64], basis: &[&Vec<f64>]) -> Vec<f64> {
    let mut c = unit_centred(x);
    for b in basis {
        let d: f64 = c.iter().zip(b.iter()).map(|(p, q)| p * q).sum();
        c = c.iter().zip(b.iter()).map(|(p, q)| p - d * q).collect();
    }
    unit_centred(&c)
}

both_backends! {
    /// METHOD §8's Williams example end to end through uploaded scores (issue 21, "Verified"):
    /// a campaign of 12 systems answered by a simulated crowd; two metrics built from its human
    /// system scores so that r(AMBER, H) = 0.880651, r(BLEU, H) = 0.760352 and
    /// r(AMBER, BLEU) = 0.947390 exactly (the published correlations, n = 12), uploaded as a TSV;
    /// the page's Williams test must give t ≈ 2.687, df 9, one-sided p ≈ 0.0125.
    async fn the_method_williams_example_through_uploaded_scores(server) {
        let (res, id, systems, human) = twelve_system_campaign(&server).await;
        let (r12, r13, r23): (f64, f64, f64) = (0.947390, 0.880651, 0.760352);
        let h = unit_centred(&human);
        let u = orthonormal_to(&(0..12).map(|i| i as f64).collect::<Vec<_>>(), &[&h]);
        let v = orthonormal_to(&(0..12).map(|i| ((i * 5) % 12) as f64 + (i * i) as f64 / 7.0).collect::<Vec<_>>(), &[&h, &u]);
        let a2 = (1.0 - r13 * r13).sqrt();
        let (b2, b1) = ((r12 - r13 * r23) / a2, r23);
        let b3 = (1.0 - b1 * b1 - b2 * b2).sqrt();
        let amber: Vec<f64> = (0..12).map(|i| 0.2 + 0.01 * (r13 * h[i] + a2 * u[i])).collect();
        let bleu: Vec<f64> = (0..12).map(|i| 30.0 + 5.0 * (b1 * h[i] + b2 * u[i] + b3 * v[i])).collect();
        assert!((pearson(&amber, &human) - r13).abs() < 1e-12 && (pearson(&bleu, &human) - r23).abs() < 1e-12 && (pearson(&amber, &bleu) - r12).abs() < 1e-12);
        let mut tsv = String::from("metric\tsystem\tscore\n");
        for (i, s) in systems.iter().enumerate() {
            tsv.push_str(&format!("WMT12-AMBER\t{s}\t{}\nWMT12-BLEU\t{s}\t{}\n", amber[i], bleu[i]));
        }
        let after = upload_metrics(&res, &id, "wmt12-williams.tsv", tsv).await;
        let w = &after["report"]["pairs"][0]["system_level"]["williams"];
        let at = |n: &str| w["metrics"].as_array().unwrap().iter().position(|m| m == n).unwrap();
        let (a, b) = (at("WMT12-AMBER"), at("WMT12-BLEU"));
        let t = w["statistic"][a][b].as_f64().unwrap();
        let p = w["p"][a][b].as_f64().unwrap();
        assert!((t - 2.687).abs() < 5e-4, "t = {t}");
        assert!((p - 0.0125).abs() < 5e-4, "p = {p}");
        // The other direction: BLEU is not significantly better than AMBER.
        assert!(w["p"][b][a].as_f64().unwrap() > 0.5);
        // On the page: AMBER above BLEU in the Williams clusters' order.
        let page = res.call("campaign_metrics", &[("campaign_id", &id)]).await.json();
        let clusters = page["pairs"][0]["clusters_williams"].to_string();
        assert!(clusters.find("WMT12-AMBER").unwrap() < clusters.find("WMT12-BLEU").unwrap(), "{clusters}");
    }
}

/// The WMT 2012 full-precision system scores published with the EMNLP 2014 implementation
/// (`tests/fixtures/metrics/wmt12/`, see its README): (metric, pair) → system → score.
fn wmt12_scores(file: &str) -> BTreeMap<(String, String), BTreeMap<String, f64>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/metrics/wmt12").join(file);
    let mut t: BTreeMap<(String, String), BTreeMap<String, f64>> = BTreeMap::new();
    for line in read(&path).lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        t.entry((f[0].to_string(), f[1].to_string())).or_default().insert(f[3].to_string(), f[4].parse().unwrap());
    }
    t
}

/// The published Spearman ρ of the full-precision data's metrics (seed 001, Table 7's es-en
/// column, L2603–L2618, and Table 8's en-fr column, L2634 and L2639).
const WMT12_RHO: [(&str, &str, f64); 14] = [
    ("es-en", "SEMPOS", 0.94), ("es-en", "AMBER", 0.97), ("es-en", "Meteor", 0.95), ("es-en", "TerrorCat", 0.97),
    ("es-en", "SIMPBLEU", 0.89), ("es-en", "TER", -0.92), ("es-en", "BLEU_4_closest_cased", 0.87), ("es-en", "posF", 0.87),
    ("es-en", "BlockErrCats", -0.88), ("es-en", "WordBlockErrCats", -0.85), ("es-en", "XEnErrCats", -0.87), ("es-en", "SAGAN_STS", 0.91),
    ("en-fr", "AMBER", 0.75), ("en-fr", "BLEU_4_closest_cased", 0.71),
];

/// The EMNLP 2014 §4 figures on Spanish–English, from a Williams p-value matrix (`p(a, b)`: a
/// correlates better than b) and the metrics in order of absolute Pearson.
fn assert_emnlp2014_es_en(order: &[String], p: &dyn Fn(&str, &str) -> f64) {
    // Figure 2's axis labels, highest correlation first.
    assert_eq!(order, ["TerrorCat", "Meteor", "SAGAN_STS", "SEMPOS", "posF", "XEnErrCats", "WordBlockErrCats", "AMBER", "BlockErrCats", "SIMPBLEU", "BLEU_4_closest_cased", "TER"]);
    // "TERRORCAT ... is not significantly better (p ≥ 0.05) than the four next-best metrics".
    for (next, want) in [("Meteor", 0.2866), ("SAGAN_STS", 0.2057), ("SEMPOS", 0.1096), ("posF", 0.1025)] {
        let got = p("TerrorCat", next);
        assert!(got >= 0.05 && (got - want).abs() < 5e-5, "TerrorCat > {next}: {got}");
    }
    // The fifth at the threshold (0.0506 with the printed formula's n − 3 df), the rest below.
    assert!((p("TerrorCat", "XEnErrCats") - 0.0506).abs() < 5e-5);
    for rest in &order[6..] {
        assert!(p("TerrorCat", rest) < 0.05, "{rest}");
    }
    // METHOD §8: AMBER over BLEU, p = 0.0125 (0.012459).
    assert!((p("AMBER", "BLEU_4_closest_cased") - 0.012459).abs() < 5e-7);
    // "approximately 60% of WMT-12 metric pairs show a significant difference": 36 of 66.
    let mut significant = 0;
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            significant += usize::from(p(a, b) < 0.05);
        }
    }
    assert_eq!(significant, 36);
}

/// EMNLP 2014 (seed 000) and WMT 2012 (seed 001) through `assay metrics evaluate`, on the
/// authors' own files as published (human and metric scores in one TSV each, both pairs):
/// Figure 1 (Spearman 0.965 for AMBER and TERRORCAT, Pearson 0.881 and 0.971), every published
/// ρ of the data's pairs, the §4 Williams results and the clusters they make.
#[test]
fn evaluate_reproduces_the_emnlp_2014_and_wmt_2012_figures_from_published_scores() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/metrics/wmt12");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("meta");
    let (human, metrics) = (fixtures.join("significance-williams-human.tsv"), fixtures.join("significance-williams-metrics.tsv"));
    ok(&assay(&[
        "metrics", "evaluate", "--human", human.to_str().unwrap(), "--metrics", metrics.to_str().unwrap(),
        "--output", out.to_str().unwrap(), "--bootstrap", "20", "--permutations", "20", "--seed", "1",
    ]));
    let sys = csv(&read(&out.join("system-level.csv")));
    assert_eq!(sys.len(), 14, "12 metrics for es-en, 2 for en-fr: {sys:?}");
    let cell = |pair: &str, m: &str, c: &str| -> f64 {
        let row = sys.iter().find(|r| r["pair"] == pair && r["metric"] == m).unwrap_or_else(|| panic!("{pair} {m}"));
        row[c].parse().unwrap()
    };
    let round = |x: f64, d: i32| (x * 10f64.powi(d)).round() / 10f64.powi(d);
    // Figure 1.
    for (m, r) in [("AMBER", 0.881), ("TerrorCat", 0.971)] {
        assert_eq!(round(cell("es-en", m, "spearman"), 3), 0.965, "{m}");
        assert_eq!(round(cell("es-en", m, "pearson"), 3), r, "{m}");
    }
    // The repository's own stored correlations (example-output/orig.pearson-corr.es-en).
    assert!((cell("es-en", "AMBER", "pearson") - 0.880651168828011).abs() < 1e-12);
    assert!((cell("es-en", "BLEU_4_closest_cased", "pearson") - 0.760352368043568).abs() < 1e-12);
    // Tables 7 and 8.
    for (pair, m, rho) in WMT12_RHO {
        assert_eq!(round(cell(pair, m, "spearman"), 2), rho, "{pair} {m}");
    }
    // §4: the Williams matrix of metric-tests.csv.
    let tests = csv(&read(&out.join("metric-tests.csv")));
    let p = |a: &str, b: &str| -> f64 {
        let row = tests.iter().find(|r| r["pair"] == "es-en" && r["test"] == "williams" && r["metric_a"] == a && r["metric_b"] == b);
        row.unwrap_or_else(|| panic!("{a} {b}"))["p_value"].parse().unwrap()
    };
    let mut order: Vec<String> = sys.iter().filter(|r| r["pair"] == "es-en").map(|r| r["metric"].clone()).collect();
    order.sort_by(|a, b| cell("es-en", b, "pearson").abs().total_cmp(&cell("es-en", a, "pearson").abs()));
    assert_emnlp2014_es_en(&order, &p);
    // The clusters: TERRORCAT cannot be told from the next five at α 0.05.
    let clusters = csv(&read(&out.join("clusters.csv")));
    let first: Vec<&str> = clusters.iter().filter(|r| r["pair"] == "es-en" && r["test"] == "williams" && r["cluster"] == "1").map(|r| r["metric"].as_str()).collect();
    assert_eq!(first, ["TerrorCat", "Meteor", "SAGAN_STS", "SEMPOS", "posF", "XEnErrCats"]);
    // en-fr, 15 systems: AMBER over BLEU is not significant.
    let enfr = tests.iter().find(|r| r["pair"] == "en-fr" && r["test"] == "williams" && r["metric_a"] == "AMBER").unwrap();
    assert!((enfr["p_value"].parse::<f64>().unwrap() - 0.1530).abs() < 5e-5, "{enfr:?}");
}

both_backends! {
    /// The EMNLP 2014 examples end to end through scores uploaded for a campaign (issue 21,
    /// "Verified"): a campaign of 12 systems answered by a simulated crowd; the 12 WMT 2012
    /// Spanish–English metrics carried onto its human scores by one reflection of the centred
    /// space (a Householder reflection taking the published human scores' direction onto the
    /// campaign's; it keeps every Pearson correlation among the 13 vectors), uploaded as one
    /// TSV. The API's correlations are the published ones and its Williams matrix gives the
    /// paper's §4 results and METHOD §8's example.
    async fn the_emnlp_2014_examples_through_scores_uploaded_for_a_campaign(server) {
        let (res, id, systems, campaign_human) = twelve_system_campaign(&server).await;

        let wmt_human = &wmt12_scores("significance-williams-human.tsv")[&("HUMAN".to_string(), "es-en".to_string())];
        let wmt_systems: Vec<&String> = wmt_human.keys().collect();
        let published: Vec<f64> = wmt_systems.iter().map(|s| wmt_human[*s]).collect();
        let (a, b) = (unit_centred(&published), unit_centred(&campaign_human));
        let w: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let ww: f64 = w.iter().map(|x| x * x).sum();
        let reflect = |m: &[f64]| -> Vec<f64> {
            let mean = m.iter().sum::<f64>() / m.len() as f64;
            let c: Vec<f64> = m.iter().map(|v| v - mean).collect();
            let k = if ww > 0.0 { 2.0 * c.iter().zip(&w).map(|(x, y)| x * y).sum::<f64>() / ww } else { 0.0 };
            c.iter().zip(&w).map(|(x, y)| x - k * y + mean).collect()
        };
        let mut tsv = String::from("metric\tsystem\tscore\n");
        let mut carried: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for ((metric, pair), scores) in wmt12_scores("significance-williams-metrics.tsv") {
            if pair != "es-en" {
                continue;
            }
            let original: Vec<f64> = wmt_systems.iter().map(|s| scores[*s]).collect();
            let moved = reflect(&original);
            // The reflection keeps the correlations: with the humans, and with every other metric.
            assert!((pearson(&moved, &campaign_human) - pearson(&original, &published)).abs() < 1e-12, "{metric}");
            for (i, s) in systems.iter().enumerate() {
                tsv.push_str(&format!("{metric}\t{s}\t{}\n", moved[i]));
            }
            carried.insert(metric, moved);
        }
        assert_eq!(carried.len(), 12);
        let (am, bl) = (&carried["AMBER"], &carried["BLEU_4_closest_cased"]);
        assert!((pearson(am, bl) - 0.947390).abs() < 5e-7);

        let after = upload_metrics(&res, &id, "wmt12-es-en.tsv", tsv).await;
        let level = &after["report"]["pairs"][0]["system_level"];
        let row = |m: &str| level["metrics"].as_array().unwrap().iter().find(|r| r["metric"] == m).unwrap_or_else(|| panic!("{m}: {level}")).clone();
        // Figure 1's Pearson correlations, read from the API.
        assert_eq!((row("AMBER")["pearson"]["value"].as_f64().unwrap() * 1000.0).round() / 1000.0, 0.881);
        assert_eq!((row("TerrorCat")["pearson"]["value"].as_f64().unwrap() * 1000.0).round() / 1000.0, 0.971);
        assert!((row("BLEU_4_closest_cased")["pearson"]["value"].as_f64().unwrap() - 0.760352368043568).abs() < 1e-9);
        let wm = &level["williams"];
        let at = |n: &str| wm["metrics"].as_array().unwrap().iter().position(|m| m == n).unwrap_or_else(|| panic!("{n}"));
        let p = |a: &str, b: &str| wm["p"][at(a)][at(b)].as_f64().unwrap();
        // The statistic of METHOD §8, and this test's own t for every pair.
        assert!((wm["statistic"][at("AMBER")][at("BLEU_4_closest_cased")].as_f64().unwrap() - 2.687).abs() < 5e-4);
        let mut order: Vec<String> = carried.keys().cloned().collect();
        order.sort_by(|a, b| pearson(&carried[b], &campaign_human).abs().total_cmp(&pearson(&carried[a], &campaign_human).abs()));
        for (i, a) in order.iter().enumerate() {
            for b in &order[i + 1..] {
                let t = wm["statistic"][at(a)][at(b)].as_f64().unwrap();
                assert!((t - williams_t(&carried[a], &carried[b], &campaign_human)).abs() < 1e-9, "{a} {b}");
            }
        }
        assert_emnlp2014_es_en(&order, &p);
        // The page: TERRORCAT's cluster holds the five metrics it cannot be told from.
        let page = res.call("campaign_metrics", &[("campaign_id", &id)]).await.json();
        let clusters = page["pairs"][0]["clusters_williams"].as_array().unwrap();
        let with_terrorcat = clusters.iter().find(|c| c.as_array().unwrap().iter().any(|m| m == "TerrorCat")).unwrap();
        for m in ["Meteor", "SAGAN_STS", "SEMPOS", "posF", "XEnErrCats"] {
            assert!(with_terrorcat.as_array().unwrap().iter().any(|x| x == m), "{m}: {with_terrorcat}");
        }
        assert!(!with_terrorcat.as_array().unwrap().iter().any(|x| x == "AMBER"), "{with_terrorcat}");
    }
}

/// `assay metrics evaluate --judgments` (issue 21): a judgment file, as `assay analyze --input`
/// reads it, and metric files → the meta-evaluation under the campaign export's file names.
/// The human scores are the file's analysis (the same figures as `--human analysis.json` of
/// `assay analyze`); the metric files are fitted as uploads to a campaign are: an mt-metrics-eval
/// segment file of the whole test set (`--test-set-segments 500`), a TSV of system scores; a
/// system that was never judged, another language pair or a short segment file is refused with
/// its file and line, and nothing is written.
#[test]
fn evaluate_on_a_judgment_file_writes_the_exports_metrics_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let sim = d.join("sim.tsv");
    ok(&assay(&["simulate", "--judgments", "6000", "--seed", "3", "--out", sim.to_str().unwrap()]));
    let results = d.join("results");
    ok(&assay(&["analyze", "--input", sim.to_str().unwrap(), "--out", results.to_str().unwrap(), "--bootstrap", "0"]));
    let human: BTreeMap<String, f64> = read(&results.join("de-en.assay-z.sys.score"))
        .lines()
        .map(|l| {
            let (s, v) = l.split_once('\t').unwrap();
            (s.to_string(), v.parse().unwrap())
        })
        .collect();
    assert_eq!(human.len(), 8);
    // A TSV of two metrics' system scores, and one metric's segment scores for all 500 segments.
    let m = d.join("metrics");
    std::fs::create_dir_all(m.join("de-en")).unwrap();
    let mut tsv = String::from("metric\tsystem\tscore\n");
    for (i, (s, h)) in human.iter().enumerate() {
        tsv.push_str(&format!("close\t{s}\t{}\nfar\t{s}\t{}\n", 3.0 * h + 0.02 * (i % 3) as f64, ((i * 7) % 5) as f64));
    }
    std::fs::write(m.join("sys.tsv"), &tsv).unwrap();
    let mut seg = String::new();
    for (k, s) in human.keys().enumerate() {
        for i in 0..500 {
            seg.push_str(&format!("{s}\t{}\n", ((i * 31 + k * 17) % 101) as f64 / 100.0));
        }
    }
    std::fs::write(m.join("de-en/segm-refA.seg.score"), &seg).unwrap();

    let out = d.join("out");
    let run = |extra: &[&str], out: &Path| {
        let mut args = vec!["metrics", "evaluate", "--judgments", sim.to_str().unwrap(), "--metrics", m.to_str().unwrap(), "--output", out.to_str().unwrap()];
        args.extend(["--bootstrap", "50", "--permutations", "50", "--test-samples", "50", "--seed", "2"]);
        args.extend(extra);
        assay(&args)
    };
    ok(&run(&["--test-set-segments", "500"], &out));
    let mut files: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["metrics-clusters.csv", "metrics-segment-level.csv", "metrics-system-level.csv", "metrics-system-significance.csv", "metrics-tests.csv", "metrics.json"]);
    let sys = csv(&read(&out.join("metrics-system-level.csv")));
    let r = |name: &str| -> f64 { sys.iter().find(|r| r["metric"] == name).unwrap_or_else(|| panic!("{name}: {sys:?}"))["pearson"].parse().unwrap() };
    let names: Vec<&String> = human.keys().collect();
    let h: Vec<f64> = names.iter().map(|s| human[*s]).collect();
    let close: Vec<f64> = names.iter().enumerate().map(|(i, s)| 3.0 * human[*s] + 0.02 * (i % 3) as f64).collect();
    assert!((r("close") - pearson(&close, &h)).abs() < 1e-9, "{} vs {}", r("close"), pearson(&close, &h));
    assert!(r("close") > 0.99 && r("far").abs() < r("close"));
    let segl = csv(&read(&out.join("metrics-segment-level.csv")));
    assert_eq!(segl.len(), 1, "{segl:?}");
    assert_eq!(segl[0]["metric"], "segm-refA");
    assert!(segl[0]["cells"].parse::<usize>().unwrap() > 100, "{segl:?}");

    // The same human scores as --human on the file's analysis.json: the same files.
    let via_json = d.join("via-json");
    let (analysis_json, sys_tsv) = (results.join("analysis.json"), m.join("sys.tsv"));
    let args = [
        "metrics", "evaluate", "--human", analysis_json.to_str().unwrap(), "--metrics", sys_tsv.to_str().unwrap(),
        "--pair", "de-en", "--output", via_json.to_str().unwrap(), "--bootstrap", "50", "--permutations", "50", "--test-samples", "50", "--seed", "2",
    ];
    ok(&assay(&args));
    let from_json = csv(&read(&via_json.join("system-level.csv")));
    for row in &from_json {
        let mine = sys.iter().find(|r| r["metric"] == row["metric"]).unwrap();
        for c in ["pearson", "spearman", "kendall", "pairwise_accuracy"] {
            let (a, b): (f64, f64) = (mine[c].parse().unwrap(), row[c].parse().unwrap());
            assert!((a - b).abs() < 1e-9, "{} {c}: {a} vs {b}", row["metric"]);
        }
    }

    // Fitted like uploads: every problem with file and line, nothing written.
    std::fs::write(m.join("sys.tsv"), tsv.clone() + "close\tsys99\t0.5\n").unwrap();
    std::fs::write(m.join("other.tsv"), "metric\tpair\tsystem\tscore\nx\ten-de\tsys01\t0.1\n").unwrap();
    let refused = d.join("refused");
    let bad = run(&["--test-set-segments", "500"], &refused);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("sys.tsv") && err.contains("sys99"), "{err}");
    assert!(err.contains("other.tsv") && err.contains("en-de"), "{err}");
    assert!(!refused.exists());
    std::fs::write(m.join("sys.tsv"), &tsv).unwrap();
    std::fs::remove_file(m.join("other.tsv")).unwrap();
    // A segment file shorter than the test set, and a test set that misses judged segments.
    let few: String = human.keys().flat_map(|s| (0..10).map(move |i| format!("{s}\t{i}\n"))).collect();
    std::fs::write(m.join("de-en/short-refA.seg.score"), few).unwrap();
    let short = run(&["--test-set-segments", "500"], &refused);
    assert!(!short.status.success());
    let err = String::from_utf8_lossy(&short.stderr);
    assert!(err.contains("short-refA.seg.score"), "{err}");
    assert!(!refused.exists());
    std::fs::remove_file(m.join("de-en/short-refA.seg.score")).unwrap();
    let small = run(&["--test-set-segments", "400"], &refused);
    assert!(String::from_utf8_lossy(&small.stderr).contains("is not among the test set's ids 1..400"), "{}", String::from_utf8_lossy(&small.stderr));
    assert!(!refused.exists());
    // Not a DA judgment file.
    let rank = d.join("rank.csv");
    std::fs::write(&rank, "srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id\n").unwrap();
    let wrong = assay(&["metrics", "evaluate", "--judgments", rank.to_str().unwrap(), "--metrics", m.to_str().unwrap(), "--output", refused.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("no DA scores"), "{}", String::from_utf8_lossy(&wrong.stderr));
}

/// `--tokenize ja-mecab` (issue 21) against sacrebleu's own (mecab-python3, PyPI's ipadic):
/// every case of `tests/fixtures/metrics/ja-mecab.json` (two systems, one and two references,
/// lowercased or not; kanji, kana, half-width katakana, full-width digits and letters, ASCII and
/// U+3000 spaces, an empty line): sacrebleu's printed line, the corpus score and every sentence
/// score to the last digit. The dictionary is Debian's mecab-ipadic (scripts/test installs it).
#[test]
fn score_with_ja_mecab_matches_sacrebleu() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/metrics/ja-mecab.json");
    let data: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
    assert_eq!(data["tokenizer"], "ja-mecab-0.996-IPA");
    let dir = tempfile::tempdir().unwrap();
    let mut segments = 0;
    let cases = data["cases"].as_array().unwrap();
    for (k, c) in cases.iter().enumerate() {
        let id = c["id"].as_str().unwrap();
        let hyp = dir.path().join(format!("{k}.hyp"));
        write_lines(&hyp, &c["hyps"]);
        let mut args: Vec<String> = vec!["metrics".into(), "score".into(), "--tokenize".into(), "ja-mecab".into(), "--hypothesis".into(), hyp.display().to_string()];
        for (r, refs) in c["refs"].as_array().unwrap().iter().enumerate() {
            let p = dir.path().join(format!("{k}.ref{r}"));
            write_lines(&p, refs);
            args.extend(["--reference".into(), p.display().to_string()]);
        }
        if c["lowercase"].as_bool().unwrap() {
            args.push("--lowercase".into());
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&assay(&argv));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines, [c["line"].as_str().unwrap(), &format!("BLEU {}", c["corpus"]["repr"].as_str().unwrap())], "{id}");
        let mut argv = argv.clone();
        argv.push("--segments");
        let out = ok(&assay(&argv));
        let mut lines = out.lines();
        assert_eq!(lines.next().unwrap(), c["sentence_signature"].as_str().unwrap(), "{id}");
        let got: Vec<&str> = lines.collect();
        let want: Vec<&str> = c["segments"].as_array().unwrap().iter().map(|s| s["repr"].as_str().unwrap()).collect();
        assert_eq!(got, want, "{id}: segment scores");
        segments += want.len();
    }
    assert_eq!((cases.len(), segments), (8, 160));
    // compare: the same segmentation under the randomized tests.
    let (a, b, r) = (dir.path().join("0.hyp"), dir.path().join("4.hyp"), dir.path().join("0.ref0"));
    let out = ok(&assay(&["metrics", "compare", "--tokenize", "ja-mecab", "--reference", r.to_str().unwrap(), "--hypothesis", a.to_str().unwrap(), "--hypothesis", b.to_str().unwrap(), "--test-samples", "200"]));
    assert!(out.lines().next().unwrap().contains("|tok:ja-mecab-0.996-IPA|"), "{out}");
    assert!(out.contains(&cases[0]["corpus"]["repr"].as_str().unwrap()[..5]), "{out}");
    // A directory without the dictionary: refused with what to install.
    let none = assay(&["metrics", "score", "--tokenize", "ja-mecab", "--mecab-dic", dir.path().to_str().unwrap(), "--reference", r.to_str().unwrap(), "--hypothesis", a.to_str().unwrap()]);
    assert!(!none.status.success());
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(err.contains("apt-get install mecab-ipadic") && err.contains("392127"), "{err}");
}
