//! `assay simulate` and `assay analyze` end to end: a simulated crowd's judgment file goes in,
//! every output file is checked for its exact columns, against an independent recomputation
//! from the input (means, z-scores, counts), against `analysis.json`, and against the
//! simulation's truth (system order, random clickers and constant scorers excluded).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::process::Command;

use assay_tests::*;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn num(s: &str) -> f64 {
    s.trim_end_matches('*').parse().unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// One row of the Graham TSV.
struct Row {
    hit: String,
    worker: String,
    sys: String,
    kind: String,
    sid: String,
    score: f64,
}

fn parse_tsv(text: &str) -> Vec<Row> {
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 12, "{l}");
            Row {
                hit: f[0].into(),
                worker: f[1].into(),
                sys: f[6].into(),
                kind: f[8].into(),
                sid: f[9].into(),
                score: f[10].parse().unwrap(),
            }
        })
        .collect()
}

fn simulate(dir: &Path, judgments: usize, seed: u64) -> (std::path::PathBuf, serde_json::Value) {
    let tsv = dir.join("sim.tsv");
    let truth = dir.join("truth.json");
    let j = judgments.to_string();
    let s = seed.to_string();
    succeeded(&assay_cli(&["simulate", "--judgments", &j, "--seed", &s, "--out", tsv.to_str().unwrap(), "--truth", truth.to_str().unwrap()]));
    let truth: serde_json::Value = serde_json::from_str(&read(&truth)).unwrap();
    (tsv, truth)
}

#[test]
fn analyze_a_simulated_crowd_file_and_check_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let (tsv, truth) = simulate(dir.path(), 30_000, 5);
    let out = dir.path().join("results");
    let stderr = succeeded(&assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "200", "--seed", "9"]));
    assert!(stderr.contains("assay: reading"), "progress on stderr: {stderr}");
    let file = |name: &str| read(&out.join(name));

    let mut files: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(
        files,
        [
            "DA-seglevel.csv", "DA-syslevel.csv", "DArr-seglevel.csv", "ad-DA-diff-wilcoxon-rs-de-en.csv", "ad-deen-good-stnd.csv", "ad-seg-scores-de-en.csv",
            "ad-sys-ranking-de-en-z.csv", "ad-sys-scores-de-en.csv", "ad-trk-stats.csv", "ad-wrkr-stats.csv",
            "adwilcox-de-en.csv", "agreement.json", "analysis.json", "clusters.csv", "de-en.assay-raw.seg.score",
            "de-en.assay-raw.sys.score", "de-en.assay-z.seg.score", "de-en.assay-z.sys.score", "unreliable-workers.txt",
        ]
    );
    // DArr-seglevel.csv: what WMT's DA-to-RR script does with ad-seg-scores (mean raw score per
    // output of the kept workers): every two outputs of a segment at least 25 points apart
    // (mt-metrics-eval's convention, the default; `--darr-rule over` below keeps "more than").
    {
        let mut outputs: BTreeMap<String, Vec<(String, f64)>> = BTreeMap::new();
        for line in file("ad-seg-scores-de-en.csv").lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            outputs.entry(f[1].to_string()).or_default().push((f[0].to_string(), num(f[2])));
        }
        let mut want: Vec<String> = Vec::new();
        for (sid, outs) in &outputs {
            for (i, (a, sa)) in outs.iter().enumerate() {
                for (b, sb) in &outs[i + 1..] {
                    if sa != sb && (sa - sb).abs() >= 25.0 {
                        let (better, worse) = if sa > sb { (a, b) } else { (b, a) };
                        want.push(format!("de-en assay {sid} {better} {worse}"));
                    }
                }
            }
        }
        let darr = file("DArr-seglevel.csv");
        let mut lines = darr.lines();
        assert_eq!(lines.next().unwrap(), "LP DATA SID BETTER WORSE");
        let mut got: Vec<String> = lines.map(str::to_string).collect();
        assert!(got.len() > 1000, "{} DArr pairs", got.len());
        // In test-set (numeric) order of segments.
        let sids: Vec<u64> = got.iter().map(|l| l.split(' ').nth(2).unwrap().parse().unwrap()).collect();
        assert!(sids.is_sorted(), "segments in order");
        got.sort();
        want.sort();
        assert_eq!(got, want);
    }
    // No staging directory is left beside the output.
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().starts_with('.')));

    // The standardised judgment file (WMT's ad-<srctgt>-good-stnd.csv): the input's rows of the
    // kept workers in order, score replaced by (x − μ) / σ of the worker (sample σ over every
    // item), recomputed here; the unreliable workers' rows left out.
    {
        let unreliable: std::collections::HashSet<String> = file("unreliable-workers.txt").lines().map(|l| l.trim().to_string()).collect();
        let input = read(&tsv);
        let rows: Vec<Vec<&str>> = input.lines().skip(1).map(|l| l.split('\t').collect()).collect();
        let mut by_worker: HashMap<&str, Vec<f64>> = HashMap::new();
        for r in &rows {
            by_worker.entry(r[1]).or_default().push(r[10].parse().unwrap());
        }
        let stnd = file("ad-deen-good-stnd.csv");
        let mut lines = stnd.lines();
        assert_eq!(lines.next().unwrap(), "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time");
        let written: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
        let kept: Vec<&Vec<&str>> = rows.iter().filter(|r| !unreliable.contains(r[1])).collect();
        assert!(!unreliable.is_empty() && written.len() == kept.len(), "{} rows written, {} kept", written.len(), kept.len());
        for (w, r) in written.iter().zip(kept) {
            assert_eq!((w[0], w[1], w[6], w[8], w[9]), (r[0], r[1], r[6], r[8], r[9]), "{w:?} vs {r:?}");
            let scores = &by_worker[r[1]];
            let n = scores.len() as f64;
            let mean = scores.iter().sum::<f64>() / n;
            let sd = (scores.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            let x: f64 = r[10].parse().unwrap();
            let z: f64 = w[10].parse().unwrap();
            assert!((z - (x - mean) / sd).abs() < 1e-9, "{w:?}: z {z}, want {}", (x - mean) / sd);
        }
    }

    let json: serde_json::Value = serde_json::from_str(&file("analysis.json")).unwrap();
    let manifest = &json["manifest"];
    assert_eq!(manifest["input"]["format"], "graham");
    assert_eq!(manifest["seed"], 9);
    assert_eq!(manifest["settings"]["bootstrap"]["samples"], 200);
    assert_eq!(manifest["assay_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["judgments"], truth["judgments"]);

    // --- Workers: the simulation's truth. ---
    let kinds: HashMap<String, String> = truth["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w[0].as_str().unwrap().to_string(), w[1].as_str().unwrap().to_string()))
        .collect();
    let unreliable: HashSet<String> = file("unreliable-workers.txt").lines().map(String::from).collect();
    let excluded: HashSet<String> = manifest["excluded_workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert!(!w["reason"].as_str().unwrap().is_empty());
            w["worker"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(excluded, unreliable, "the default policy excludes exactly the workers who did not pass");
    let of_kind = |k: &'static str| -> Vec<String> { kinds.iter().filter(|(_, v)| v.as_str() == k).map(|(w, _)| w.clone()).collect() };
    let rows = parse_tsv(&read(&tsv));
    let active: HashSet<&str> = rows.iter().map(|r| r.worker.as_str()).collect();
    for w in [of_kind("Careful"), of_kind("Harsh"), of_kind("Lenient")].concat() {
        assert!(!excluded.contains(&w), "attentive worker {w} ({}) was excluded", kinds[&w]);
    }
    for w in of_kind("LazyConstant").into_iter().filter(|w| active.contains(w.as_str())) {
        assert!(excluded.contains(&w), "constant scorer {w} was kept");
    }
    let clickers: Vec<String> = of_kind("RandomClicker").into_iter().filter(|w| active.contains(w.as_str())).collect();
    let caught = clickers.iter().filter(|w| excluded.contains(*w)).count();
    assert!(clickers.len() >= 5 && caught * 4 >= clickers.len() * 3, "{caught} of {} random clickers excluded", clickers.len());

    // ad-wrkr-stats.csv: exact header, one row per active worker, 15 fields.
    let stats = file("ad-wrkr-stats.csv");
    let mut lines = stats.lines();
    assert_eq!(
        lines.next().unwrap(),
        "wid hit.count mean.bad.ref mean.sys.out mean.ref min.hit.time mean.hit.time mean.concurrent max.concurrent \
         max.const.seq.len reject.rate scores.flag time.flag seq.flag reject.flag "
    );
    let mut seen = HashSet::new();
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), 15, "{l}");
        assert!(active.contains(f[0]));
        seen.insert(f[0].to_string());
        // mean.sys.out recomputed from the input, 1 decimal.
        let sys: Vec<f64> = rows.iter().filter(|r| r.worker == f[0] && r.kind == "SYSTEM").map(|r| r.score).collect();
        let m = sys.iter().sum::<f64>() / sys.len() as f64;
        assert!((num(f[3]) - m).abs() <= 0.05 + 1e-9, "{l}: mean.sys.out vs {m}");
        let hits: HashSet<&str> = rows.iter().filter(|r| r.worker == f[0]).map(|r| r.hit.as_str()).collect();
        assert_eq!(f[1].parse::<usize>().unwrap(), hits.len());
    }
    assert_eq!(seen.len(), active.len());
    // ad-trk-stats.csv: wid p t n, tab-separated; passing workers have p < 0.05.
    for l in file("ad-trk-stats.csv").lines() {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f.len(), 4, "{l}");
        if f[1] != "NA" && num(f[1]) < 0.05 && f[3].parse::<usize>().unwrap() >= 5 {
            assert!(!unreliable.contains(f[0]), "{l}");
        }
    }

    // --- Independent recomputation of z-scores and system scores from the input. ---
    let kept: Vec<&Row> = rows.iter().filter(|r| !excluded.contains(&r.worker)).collect();
    let mut by_worker: HashMap<&str, Vec<f64>> = HashMap::new();
    for r in &kept {
        by_worker.entry(&r.worker).or_default().push(r.score);
    }
    let musd: HashMap<&str, (f64, f64)> = by_worker
        .iter()
        .map(|(w, v)| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt();
            (*w, (m, sd))
        })
        .collect();
    // system → (Σraw, Σz, n); (system, segment) → (Σraw, Σz, n).
    let mut sys: BTreeMap<&str, (f64, f64, usize)> = BTreeMap::new();
    let mut seg: BTreeMap<(&str, &str), (f64, f64, usize)> = BTreeMap::new();
    for r in kept.iter().filter(|r| r.kind == "SYSTEM" || r.kind == "REPEAT") {
        let (m, sd) = musd[r.worker.as_str()];
        let z = (r.score - m) / sd;
        for e in [sys.entry(&r.sys).or_default(), seg.entry((&r.sys, &r.sid)).or_default()] {
            e.0 += r.score;
            e.1 += z;
            e.2 += 1;
        }
    }

    // ad-sys-scores: exact header; rows best z first; values = the recomputation.
    let text = file("ad-sys-scores-de-en.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "RAW.SCR Z.SCR N SYS N.ALL ");
    let mut order = Vec::new();
    let mut z_by_sys = HashMap::new();
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{l}");
        let (raw, z, n) = sys[f[3]];
        assert!((num(f[0]) - raw / n as f64).abs() < 1e-9, "{l}");
        assert!((num(f[1]) - z / n as f64).abs() < 1e-9, "{l}");
        assert_eq!(f[4].parse::<usize>().unwrap(), n);
        let segs = seg.keys().filter(|k| k.0 == f[3]).count();
        assert_eq!(f[2].parse::<usize>().unwrap(), segs);
        order.push(f[3].to_string());
        z_by_sys.insert(f[3].to_string(), num(f[1]));
    }
    // A crowd this size recovers the true order exactly.
    let true_order: Vec<String> = truth["system_order"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    assert_eq!(order, true_order);
    // analysis.json agrees, with bootstrap intervals around the means.
    let group = &json["result"]["groups"][0];
    for s in group["systems"].as_array().unwrap() {
        let name = json["result"]["names"]["systems"][s["system"].as_u64().unwrap() as usize].as_str().unwrap();
        let z = s["z"].as_f64().unwrap();
        assert!((z - z_by_sys[name]).abs() < 1e-12);
        let ci = &s["z_ci"];
        assert!(ci["lower"].as_f64().unwrap() < z && z < ci["upper"].as_f64().unwrap(), "{s}");
    }

    // ad-sys-ranking: no header, RAW Z N N.ALL SYS.
    let ranking: Vec<String> = file("ad-sys-ranking-de-en-z.csv").lines().map(|l| l.split_whitespace().nth(4).unwrap().to_string()).collect();
    assert_eq!(ranking, order);

    // ad-seg-scores: exact header; one row per judged (system, segment); values recomputed.
    let text = file("ad-seg-scores-de-en.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "SYS SID RAW.SCR Z.SCR N ");
    let mut count = 0;
    for l in lines {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{l}");
        let (raw, z, n) = seg[&(f[0], f[1])];
        assert!((num(f[2]) - raw / n as f64).abs() < 1e-9 && (num(f[3]) - z / n as f64).abs() < 1e-9, "{l}");
        assert_eq!(f[4].parse::<usize>().unwrap(), n);
        count += 1;
    }
    assert_eq!(count, seg.len());

    // adwilcox: header of systems in order; filler 0.12 on and below the diagonal; p in [0, 1].
    let p = &group["comparison"]["p_values"];
    let text = file("adwilcox-de-en.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), format!(" {}", order.join(" ")));
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), order.len() + 1, "{l}");
        assert_eq!(f[0], order[i]);
        for (j, cell) in f[1..].iter().enumerate() {
            let v = num(cell);
            if j <= i {
                assert_eq!(*cell, "0.12");
            } else {
                let pj = p[i][j].as_f64().unwrap();
                if pj < 0.05 {
                    assert!((v - pj).abs() <= 1e-14 * pj.max(1e-300) + 1e-300, "{cell} vs {pj}");
                } else {
                    assert_eq!(*cell, "0.12");
                }
            }
        }
    }
    // Difference matrix: z(row) − z(column) to 2 decimals, stars by p, "-" on the diagonal.
    let text = file("ad-DA-diff-wilcoxon-rs-de-en.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), format!(" {}", order.join(" ")));
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(f.len(), order.len() + 1, "{l}");
        for (j, cell) in f[1..].iter().enumerate() {
            if i == j {
                assert_eq!(*cell, "-");
                continue;
            }
            let d = z_by_sys[&order[i]] - z_by_sys[&order[j]];
            assert!((num(cell) - d).abs() <= 0.005 + 1e-9, "{cell} vs {d}");
            let pij = p[i][j].as_f64().unwrap();
            let stars = cell.chars().filter(|c| *c == '*').count();
            let want = if pij < 0.001 { 3 } else if pij < 0.01 { 2 } else if pij < 0.05 { 1 } else { 0 };
            assert_eq!(stars, want, "{cell} p = {pij}");
        }
    }

    // clusters.csv: exact header; one row per system in order; TOTAL = number of systems;
    // clusters tile 1..N; WINS = the count of p < 0.05 in the row.
    let text = file("clusters.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM");
    let mut next_start = 1;
    for (i, l) in lines.enumerate() {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 8, "{l}");
        assert_eq!((f[0], f[1], f[7]), ("de", "en", order[i].as_str()));
        assert_eq!(f[3].parse::<usize>().unwrap(), order.len());
        let wins = (0..order.len()).filter(|&j| p[i][j].as_f64().is_some_and(|v| v < 0.05)).count();
        assert_eq!(f[2].parse::<usize>().unwrap(), wins);
        let (start, end): (usize, usize) = (f[4].parse().unwrap(), f[5].parse().unwrap());
        assert_eq!(start, next_start);
        assert!(start <= i + 1 && i < end);
        assert_eq!(f[6], if i + 1 == end { "True" } else { "False" });
        if i + 1 == end {
            next_start = end + 1;
        }
    }
    assert_eq!(next_start, order.len() + 1);

    // mt-metrics-eval: sys files "SYS\tSCORE" by name; seg files a block per system in
    // numeric segment order with None for gaps.
    let mut names = order.clone();
    names.sort();
    for (suffix, z) in [("z", true), ("raw", false)] {
        let text = file(&format!("de-en.assay-{suffix}.sys.score"));
        let got: Vec<(String, f64)> = text.lines().map(|l| {
            let (a, b) = l.split_once('\t').unwrap();
            (a.to_string(), num(b))
        }).collect();
        assert_eq!(got.iter().map(|g| g.0.clone()).collect::<Vec<_>>(), names);
        for (name, v) in &got {
            let (raw, zs, n) = sys[name.as_str()];
            let want = (if z { zs } else { raw }) / n as f64;
            assert!((v - want).abs() < 1e-9);
        }
        let text = file(&format!("de-en.assay-{suffix}.seg.score"));
        let mut sids: Vec<u64> = seg.keys().map(|k| k.1.parse().unwrap()).collect::<HashSet<_>>().into_iter().collect();
        sids.sort();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), names.len() * sids.len());
        for (b, name) in names.iter().enumerate() {
            for (k, sid) in sids.iter().enumerate() {
                let (a, v) = lines[b * sids.len() + k].split_once('\t').unwrap();
                assert_eq!(a, name);
                match seg.get(&(name.as_str(), sid.to_string().as_str())) {
                    Some((raw, zs, n)) => assert!((num(v) - (if z { *zs } else { *raw }) / *n as f64).abs() < 1e-9),
                    None => assert_eq!(v, "None"),
                }
            }
        }
    }

    // WMT metrics-task files.
    let text = file("DA-seglevel.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "LP DATA SYSTEM SID SCORE");
    let mut n = 0;
    for l in lines {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!((f.len(), f[0], f[1]), (5, "de-en", "assay"), "{l}");
        let (_, z, k) = seg[&(f[2], f[3])];
        assert!((num(f[4]) - z / k as f64).abs() < 1e-9);
        n += 1;
    }
    assert_eq!(n, seg.len());
    let text = file("DA-syslevel.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next().unwrap(), "LP SCORE SYSTEM");
    let got: Vec<String> = lines.map(|l| {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f.len(), 3);
        assert!((num(f[1]) - z_by_sys[f[2]]).abs() < 1e-12);
        f[2].to_string()
    }).collect();
    assert_eq!(got, order);
}

#[test]
fn settings_flags_reach_the_pipeline_and_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let (tsv, _) = simulate(dir.path(), 8_000, 2);
    let out = dir.path().join("o");
    succeeded(&assay_cli(&[
        "analyze", "--input", tsv.to_str().unwrap(), "--out", out.to_str().unwrap(), "--reliability-test", "wilcoxon",
        "--alpha", "0.01", "--min-pairs", "7", "--exclude", "none", "--z-exclude-ref", "--z-exclude-bad-ref",
        "--per-segment", "--bootstrap", "0", "--comparison-alpha", "0.1",
    ]));
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("analysis.json"))).unwrap();
    let s = &json["manifest"]["settings"];
    assert_eq!(s["qc"]["reliability_test"], "signed-rank");
    assert_eq!(s["qc"]["alpha"], 0.01);
    assert_eq!(s["qc"]["min_pairs"], 7);
    assert_eq!(s["exclusion"], "none");
    assert_eq!(s["z"]["exclude_ref"], true);
    assert_eq!(s["z"]["exclude_bad_ref"], true);
    assert_eq!(s["average_per_segment"], true);
    assert!(s["bootstrap"].is_null());
    assert_eq!(s["comparison"]["alpha"], 0.1);
    // Nobody excluded by policy; only workers who cannot be standardised are listed.
    for w in json["manifest"]["excluded_workers"].as_array().unwrap() {
        assert!(w["reason"].as_str().unwrap().starts_with("cannot be standardised"), "{w}");
    }
    // Per-segment averaging: the system z is the mean of its segment z-scores.
    let text = read(&out.join("ad-seg-scores-de-en.csv"));
    let mut per_sys: HashMap<String, Vec<f64>> = HashMap::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split_whitespace().collect();
        per_sys.entry(f[0].into()).or_default().push(num(f[3]));
    }
    for l in read(&out.join("ad-sys-scores-de-en.csv")).lines().skip(1) {
        let f: Vec<&str> = l.split_whitespace().collect();
        let v = &per_sys[f[3]];
        assert!((num(f[1]) - v.iter().sum::<f64>() / v.len() as f64).abs() < 1e-9, "{l}");
    }

    // --darr-threshold: a wider margin keeps fewer pairs, each more than that far apart; a
    // threshold that is not a number of points is refused before anything is written.
    let raw: HashMap<(String, String), f64> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            ((f[0].to_string(), f[1].to_string()), num(f[2]))
        })
        .collect();
    let pairs = |dir: &Path| read(&dir.join("DArr-seglevel.csv")).lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    let wide = dir.path().join("wide");
    succeeded(&assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", wide.to_str().unwrap(), "--exclude", "none", "--per-segment", "--bootstrap", "0", "--darr-threshold", "50", "--darr-rule", "over"]));
    let (narrow, wide) = (pairs(&out), pairs(&wide));
    assert!(!wide.is_empty() && wide.len() < narrow.len(), "{} against {}", wide.len(), narrow.len());
    for l in &wide {
        let f: Vec<&str> = l.split(' ').collect();
        let (better, worse) = (raw[&(f[3].to_string(), f[2].to_string())], raw[&(f[4].to_string(), f[2].to_string())]);
        assert!(better - worse > 50.0, "{l}: {better} {worse}");
    }
    // The two rules apart: at a threshold equal to a difference that occurs (between two
    // whole-number means, printed exactly), `at-least` (the default) keeps the pair exactly that
    // far apart and `over` leaves it out.
    let mut by_segment: BTreeMap<&str, Vec<(&str, f64)>> = BTreeMap::new();
    for ((sys, sid), v) in &raw {
        if v.fract() == 0.0 {
            by_segment.entry(sid.as_str()).or_default().push((sys.as_str(), *v));
        }
    }
    let (exact, pair) = by_segment
        .iter()
        .flat_map(|(sid, outs)| outs.iter().flat_map(move |a| outs.iter().map(move |b| (a.1 - b.1, format!("de-en assay {sid} {} {}", a.0, b.0)))))
        .filter(|(d, _)| *d > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
        .expect("two whole-number means of one segment");
    let exact_arg = format!("{exact}");
    let (at_least, over) = (dir.path().join("at-least"), dir.path().join("over"));
    succeeded(&assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", at_least.to_str().unwrap(), "--exclude", "none", "--per-segment", "--bootstrap", "0", "--darr-threshold", &exact_arg]));
    succeeded(&assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", over.to_str().unwrap(), "--exclude", "none", "--per-segment", "--bootstrap", "0", "--darr-threshold", &exact_arg, "--darr-rule", "over"]));
    let (at_least, over) = (pairs(&at_least), pairs(&over));
    assert!(at_least.contains(&pair), "{pair}, exactly {exact} apart, is a pair at least {exact} apart");
    assert!(!over.contains(&pair), "{pair} is not more than {exact} apart");
    assert!(over.len() < at_least.len());
    let bad = assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", dir.path().join("bad-rule").to_str().unwrap(), "--darr-rule", "more"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--darr-rule must be at-least or over"), "{}", String::from_utf8_lossy(&bad.stderr));
    assert!(!dir.path().join("bad-rule").exists());
    let refused = dir.path().join("refused");
    for bad in ["--darr-threshold=-1", "--darr-threshold=NaN"] {
        let failed = assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", refused.to_str().unwrap(), bad]);
        assert!(!failed.status.success());
        assert!(String::from_utf8_lossy(&failed.stderr).contains("--darr-threshold must be a number of points"), "{}", String::from_utf8_lossy(&failed.stderr));
        assert!(!refused.exists());
    }
}

#[test]
fn an_appraise_csv_is_detected_and_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let (tsv, truth) = simulate(dir.path(), 30_000, 8);
    // The same judgments as an Appraise segment-level CSV: one row per judgment, TGT/BAD/CHK/REF.
    let mut csv = String::from("username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd\n");
    for (i, r) in parse_tsv(&read(&tsv)).iter().enumerate() {
        let t = match r.kind.as_str() { "SYSTEM" => "TGT", "BAD_REF" => "BAD", "REPEAT" => "CHK", _ => "REF" };
        csv.push_str(&format!("{},{},{},{t},deu,eng,{},{},{}\n", r.worker, r.sys, r.sid, r.score, 1_700_000_000 + i * 20, 1_700_000_015 + i * 20));
    }
    let path = dir.path().join("scores.csv");
    std::fs::write(&path, csv).unwrap();
    let out = dir.path().join("o");
    succeeded(&assay_cli(&["analyze", "--input", path.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "0"]));
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("analysis.json"))).unwrap();
    assert_eq!(json["manifest"]["input"]["format"], "appraise");
    let order: Vec<String> = read(&out.join("ad-sys-scores-deu-eng.csv")).lines().skip(1).map(|l| l.split_whitespace().nth(3).unwrap().to_string()).collect();
    let want: Vec<String> = truth["system_order"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
    assert_eq!(order, want);
}

#[test]
fn bad_input_fails_naming_file_and_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (tsv, _) = simulate(dir.path(), 2_000, 1);
    let text = read(&tsv);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut f: Vec<String> = lines[4].split('\t').map(String::from).collect();
    f[10] = "abc".into();
    lines[4] = f.join("\t");
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let out = dir.path().join("never");
    let r = assay_cli(&["analyze", "--input", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains(&format!("{}: line 5: score is not a number: \"abc\"", bad.display())), "{err}");
    assert!(!out.exists());

    // Neither a Graham header nor an Appraise row.
    let odd = dir.path().join("odd.txt");
    std::fs::write(&odd, "hello world\n").unwrap();
    let r = assay_cli(&["analyze", "--input", odd.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("odd.txt: line 1: neither a Graham/MTurk header"));

    // A header only: no judgments.
    let empty = dir.path().join("empty.tsv");
    std::fs::write(&empty, format!("{}\n", text.lines().next().unwrap())).unwrap();
    let r = assay_cli(&["analyze", "--input", empty.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("no judgments"));
    assert!(!out.exists());
    // Nothing half-written anywhere beside it.
    assert!(std::fs::read_dir(dir.path()).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().starts_with('.')));

    // An existing, non-empty --out is kept unless --force.
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    let r = assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("exists and is not empty"));
    assert!(out.join("keep.txt").exists());
    // A failing run with --force leaves the old results alone.
    let r = assay_cli(&["analyze", "--input", bad.to_str().unwrap(), "--out", out.to_str().unwrap(), "--force"]);
    assert!(!r.status.success());
    assert!(out.join("keep.txt").exists());
    succeeded(&assay_cli(&["analyze", "--input", tsv.to_str().unwrap(), "--out", out.to_str().unwrap(), "--force", "--bootstrap", "0"]));
    assert!(!out.join("keep.txt").exists());
    assert!(out.join("analysis.json").exists());
}

/// `--campaign` on both databases: an unknown campaign is a clear error. (`load_campaign` is
/// tested on both databases with a small campaign in `app/src/analysis/db.rs`.)
#[test]
fn an_unknown_campaign_is_a_clear_error_on_both_databases() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let dir = tempfile::tempdir().unwrap();
        let Some(url) = fresh_database_url(backend, dir.path()) else { continue };
        let out = dir.path().join("o");
        let r = Command::new(assay_bin())
            .args(["analyze", "--campaign", "999", "--out", out.to_str().unwrap()])
            .env("ASSAY_DATA_DIR", dir.path())
            .env("DATABASE_URL", &url)
            .env("ASSAY_LOG", "warn")
            .output()
            .unwrap();
        assert!(!r.status.success(), "{backend:?}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains("there is no campaign with id 999"), "{backend:?}: {err}");
        assert!(!out.exists());
    }
}

/// A small campaign inserted with SQL (same rows as the `load_campaign` unit test).
const CAMPAIGN_SQL: &str = "
INSERT INTO test_sets (id, name, source_lang, target_lang, year, created_at) VALUES (1, 'nt2026', 'de', 'en', 2026, 0);
INSERT INTO segments (id, test_set_id, position, segment_key, source) VALUES (1, 1, 1, 'b', 'x'), (2, 1, 2, 'a', 'y'), (3, 1, 3, 'c', 'z');
INSERT INTO systems (id, name, name_key, created_at) VALUES (1, 'SysA', 'sysa', 0), (2, 'SysB', 'sysb', 0);
INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, created_at) VALUES (7, 'pub7', 'c', 'da-adequacy', 1, '{}', 1, 0);
INSERT INTO hits (id, campaign_id, hit_index, item_count) VALUES (1, 7, 0, 5);
INSERT INTO hit_items (id, hit_id, position, item_type, system_id, segment_id, paired_position, shown_text) VALUES
  (1, 1, 0, 'SYSTEM', 1, 1, 3, 't'), (2, 1, 1, 'SYSTEM', 2, 2, 4, 't'), (3, 1, 2, 'SYSTEM', 2, 1, NULL, 't'),
  (4, 1, 3, 'BAD_REF', 1, 1, 0, 't'), (5, 1, 4, 'REF', NULL, 2, 1, 't');
INSERT INTO workers (id, platform, external_id, created_at) VALUES (1, 'mturk', 'A1', 0), (2, 'prolific', 'P9', 0);
INSERT INTO assignments (id, public_id, hit_id, slot, worker_id, status, started_at, last_seen_at) VALUES
  (1, 'a1', 1, 0, 1, 'completed', 0, 0), (2, 'a2', 1, 1, 2, 'active', 0, 0);
INSERT INTO judgments (id, assignment_id, hit_item_id, score, skipped, shown_at, submitted_at, time_on_screen_ms) VALUES
  (10, 1, 1, 80.5, 0, 1000, 5000, 3500), (11, 1, 2, 60, 0, 6000, 9000, NULL), (12, 1, 3, 70, 0, NULL, 9500, NULL),
  (13, 1, 4, 20, 0, NULL, 9600, 1200), (14, 1, 5, 95, 0, NULL, 9700, 800),
  (20, 2, 1, 55, 0, NULL, 1, 100), (21, 2, 2, NULL, 1, NULL, 2, 100), (22, 2, 3, 40, 0, NULL, 3, NULL);
";

/// Issue 37 item 2: `assay analyze --input` on a word-order judgment file (the layout of a
/// campaign's `judgments.csv`) reads both questions as the campaign does and measures their
/// agreement with κ over the five boxes, as statsmodels' Fleiss κ gives it
/// (`tests/fixtures/agreement/word_order_kappa.py`: two workers, 25 items); a task that is no
/// campaign's is refused, naming its line, and nothing is written.
#[test]
fn a_word_order_judgment_file_gives_kappa_on_both_questions() {
    let fixture: serde_json::Value = serde_json::from_str(include_str!("../../fixtures/agreement/word_order_kappa.json")).unwrap();
    let mut csv = String::from("judgment_id,campaign_id,task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,score2,skipped,seconds\n");
    let mut id = 0;
    for (i, item) in fixture["items"].as_array().unwrap().iter().enumerate() {
        let system = if i % 2 == 0 { "Alpha" } else { "Beta" };
        for (w, worker) in ["link:a", "link:b"].into_iter().enumerate() {
            id += 1;
            let boxes = |q: usize| item[q][w].as_f64().unwrap() / 4.0;
            csv.push_str(&format!("{id},3,word-order,en,de,{w},{worker},SYSTEM,{system},{i},{},{},0,4\n", boxes(0), boxes(1)));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("judgments.csv");
    std::fs::write(&input, &csv).unwrap();
    let out = dir.path().join("o");
    succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--exclude", "none", "--bootstrap", "0"]));
    let analysis: serde_json::Value = serde_json::from_str(&read(&out.join("analysis.json"))).unwrap();
    assert_eq!(analysis["result"]["names"]["tasks"], serde_json::json!(["word-order-q1", "word-order-q2"]));
    let report: serde_json::Value = serde_json::from_str(&read(&out.join("agreement.json"))).unwrap();
    for scope in ["all_workers", "retained_workers"] {
        let groups = report[scope].as_array().unwrap();
        let tasks: Vec<&str> = groups.iter().map(|g| g["task"].as_str().unwrap()).collect();
        assert_eq!(tasks, ["word-order-q1", "word-order-q2"], "{report}");
        for (g, want) in groups.iter().zip(fixture["questions"].as_array().unwrap()) {
            assert_eq!(g["scale"], serde_json::json!({ "categorical": { "categories": 5 } }), "{g}");
            assert_eq!((g["system_output_judgments"].as_u64(), g["inter"]["pairs"].as_u64()), (Some(50), Some(25)), "{g}");
            for (got, key) in [(&g["inter"]["kappa"], "fleiss_kappa"), (&g["inter"]["p_agree"], "p_agree"), (&g["p_chance"], "p_chance")] {
                let got = got.as_f64().unwrap_or_else(|| panic!("{scope} {} {key}: {g}", g["task"]));
                assert!((got - want[key].as_f64().unwrap()).abs() < 1e-12, "{scope} {} {key}: {got} vs {}", g["task"], want[key]);
            }
        }
    }
    // A task no campaign has: refused, naming the line; nothing written.
    std::fs::write(&input, csv.replacen("word-order", "woj", 2)).unwrap();
    let bad_out = dir.path().join("bad");
    let refused = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", bad_out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains("line 2: task \"woj\" is not a campaign task"), "{stderr}");
    assert!(!bad_out.exists());
}

/// `assay analyze --campaign` end to end on both databases, with the campaign inserted through
/// the `sqlite3` / `psql` command-line clients (skipped where the client is missing).
#[test]
fn analyze_a_campaign_from_the_database() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let dir = tempfile::tempdir().unwrap();
        let Some(url) = fresh_database_url(backend, dir.path()) else { continue };
        let run = |args: &[&str]| {
            Command::new(assay_bin())
                .args(args)
                .env("ASSAY_DATA_DIR", dir.path())
                .env("DATABASE_URL", &url)
                .env("ASSAY_LOG", "warn")
                .output()
                .unwrap()
        };
        let out = dir.path().join("o");
        // Creates and migrates the database; the campaign does not exist yet.
        assert!(!run(&["analyze", "--campaign", "7", "--out", out.to_str().unwrap()]).status.success());
        let (client, args): (&str, Vec<String>) = match backend {
            Backend::Sqlite => ("sqlite3", vec![dir.path().join("assay.db").display().to_string(), CAMPAIGN_SQL.into()]),
            Backend::Postgres => ("psql", vec![url.clone(), "-v".into(), "ON_ERROR_STOP=1".into(), "-q".into(), "-c".into(), CAMPAIGN_SQL.into()]),
        };
        match Command::new(client).args(&args).output() {
            Ok(o) => assert!(o.status.success(), "{client}: {}", String::from_utf8_lossy(&o.stderr)),
            Err(_) => {
                eprintln!("skipped: no {client} client");
                continue;
            }
        }
        succeeded(&run(&["analyze", "--campaign", "7", "--out", out.to_str().unwrap(), "--exclude", "none", "--bootstrap", "0", "--name", "wmt"]));
        let json: serde_json::Value = serde_json::from_str(&read(&out.join("analysis.json"))).unwrap();
        assert_eq!(json["manifest"]["input"]["kind"], "campaign", "{backend:?}");
        assert_eq!(json["manifest"]["input"]["campaign"]["test_set"], "nt2026");
        assert_eq!(json["manifest"]["judgments"], 7);
        // Raw system means over SYSTEM items of both workers: SysA (80.5, 55), SysB (60, 70, 40).
        let mut raw: Vec<(String, f64)> = read(&out.join("ad-sys-scores-de-en.csv"))
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[3].to_string(), num(f[0]))
            })
            .collect();
        raw.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(raw.len(), 2);
        assert!((raw[0].1 - 67.75).abs() < 1e-9 && (raw[1].1 - 170.0 / 3.0).abs() < 1e-9, "{raw:?}");
        // mt-metrics-eval segment file: test-set order (b, a, c), None where not judged.
        let seg = read(&out.join("de-en.wmt-raw.seg.score"));
        assert_eq!(seg, "SysA\t67.75\nSysA\tNone\nSysA\tNone\nSysB\t55\nSysB\t60\nSysB\tNone\n", "{backend:?}");
        assert_eq!(read(&out.join("ad-wrkr-stats.csv")).lines().count(), 3);

        // `assay simulate --campaign`: refused before launch; once launched with a third slot,
        // simulated workers answer the HIT through the storage path: one in the free slot, one
        // in the slot of P9's assignment, idle since 1970 and so expired on the first request.
        let refused = run(&["simulate", "--campaign", "7"]);
        assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("only a launched campaign"), "{refused:?}");
        let launch = r#"UPDATE campaigns SET status = 'launched', settings = '{"redundancy": 3}' WHERE id = 7"#;
        let sql: Vec<String> = match backend {
            Backend::Sqlite => vec![dir.path().join("assay.db").display().to_string(), launch.into()],
            // The rows above were inserted with their ids: move the sequences past them.
            Backend::Postgres => vec![url.clone(), "-q".into(), "-c".into(), format!(
                "{launch}; SELECT setval(pg_get_serial_sequence('workers', 'id'), 100); SELECT setval(pg_get_serial_sequence('assignments', 'id'), 100); SELECT setval(pg_get_serial_sequence('judgments', 'id'), 100)"
            )],
        };
        assert!(Command::new(client).args(&sql).output().unwrap().status.success());
        let stderr = succeeded(&run(&["simulate", "--campaign", "7", "--mix", "careful=1", "--seed", "4"]));
        assert!(stderr.contains("for the 1 free slots") && stderr.contains("2 workers did 2 HITs (10 judgments)"), "{stderr}");
        succeeded(&run(&["analyze", "--campaign", "7", "--out", out.to_str().unwrap(), "--force", "--exclude", "none", "--bootstrap", "0"]));
        let json: serde_json::Value = serde_json::from_str(&read(&out.join("analysis.json"))).unwrap();
        assert_eq!(json["manifest"]["judgments"], 17, "{backend:?}: 7 + the simulated workers' 10");
    }
}

/// [`CAMPAIGN_SQL`]'s campaign with names that hold what a CSV field can: line breaks of every
/// kind, quotes, commas, tabs, a formula's first character, and text beyond ASCII (combining
/// marks, right to left, CJK, an emoji sequence). Worker ids come from crowd links anyone can
/// write, system names and segment ids from imported files.
fn awkward_campaign_sql() -> String {
    CAMPAIGN_SQL
        .replace("'SysA', 'sysa'", "'Sys\nA, \"quoted\" e\u{301}', 'sysa'")
        .replace("'SysB', 'sysb'", "'=Sys\r\nB\t\u{6f22}\u{5b57} \u{5e9}\u{5dc}\u{5d5}\u{5dd}\r', 'sysb'")
        .replace("(1, 1, 1, 'b', 'x')", "(1, 1, 1, 'b\r', 'x')")
        .replace("(2, 1, 2, 'a', 'y')", "(2, 1, 2, 'a,\"x\"\n', 'y')")
        .replace("(3, 1, 3, 'c', 'z')", "(3, 1, 3, '-c \u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}', 'z')")
        .replace("'mturk', 'A1'", "'mturk', 'A1\nx'")
        .replace("'prolific', 'P9'", "'prolific', '@P9,\r\n\"'")
}

/// Issue 36 item 6: every judgment file Assay writes of a campaign whose names hold line breaks
/// (and quotes, commas, tabs, formulas' first characters, text beyond ASCII) goes back through
/// `assay analyze --input` to the campaign's own analysis: the same judgments, names and scores.
/// The Assay CSV was read line by line and refused such a file.
#[test]
fn every_judgment_file_of_a_campaign_with_line_breaks_in_its_names_reads_back() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let dir = tempfile::tempdir().unwrap();
        let Some(url) = fresh_database_url(backend, dir.path()) else { continue };
        let run = |args: &[&str]| {
            let out = Command::new(assay_bin())
                .args(args)
                .env("ASSAY_DATA_DIR", dir.path())
                .env("DATABASE_URL", &url)
                .env("ASSAY_LOG", "warn")
                .output()
                .unwrap();
            assert!(out.status.success(), "{backend:?}: {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        // Creates and migrates the database (the campaign does not exist yet).
        let _ = Command::new(assay_bin()).args(["analyze", "--campaign", "7", "--out", dir.path().join("none").to_str().unwrap()]).env("ASSAY_DATA_DIR", dir.path()).env("DATABASE_URL", &url).env("ASSAY_LOG", "warn").output().unwrap();
        let sql = awkward_campaign_sql();
        let (client, args): (&str, Vec<String>) = match backend {
            Backend::Sqlite => ("sqlite3", vec![dir.path().join("assay.db").display().to_string(), sql]),
            Backend::Postgres => ("psql", vec![url.clone(), "-v".into(), "ON_ERROR_STOP=1".into(), "-q".into(), "-c".into(), sql]),
        };
        match Command::new(client).args(&args).output() {
            Ok(o) => assert!(o.status.success(), "{client}: {}", String::from_utf8_lossy(&o.stderr)),
            Err(_) => {
                eprintln!("skipped: no {client} client");
                continue;
            }
        }
        let settings = ["--exclude", "none", "--bootstrap", "0"];
        let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        run(&[&["analyze", "--campaign", "7", "--out", &out("from-db")][..], &settings].concat());
        run(&["export", "--campaign", "7", "--format", "all", "--raw", "--out", &out("export")]);
        // The systems' names and scores (raw and z) and the judgments counted, by name.
        let analysis = |dir: &str| {
            let json: serde_json::Value = serde_json::from_str(&read(&Path::new(dir).join("analysis.json"))).unwrap();
            let result = &json["result"];
            let name = |kind: &str, id: &serde_json::Value| result["names"][kind][id.as_u64().unwrap() as usize].as_str().unwrap().to_string();
            let mut systems: Vec<(String, String, String, u64)> = result["groups"][0]["systems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| (name("systems", &s["system"]), format!("{:.9}", s["raw"].as_f64().unwrap()), format!("{:.9}", s["z"].as_f64().unwrap()), s["n_judgments"].as_u64().unwrap()))
                .collect();
            systems.sort();
            let mut segments: Vec<String> = result["names"]["segments"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
            segments.sort();
            (json["manifest"]["judgments"].clone(), systems, segments)
        };
        let from_db = analysis(&out("from-db"));
        assert_eq!(from_db.0, 7, "{backend:?}");
        assert!(from_db.1.iter().any(|s| s.0 == "Sys\nA, \"quoted\" e\u{301}"), "{backend:?}: {:?}", from_db.1);
        for file in ["judgments.csv", "judgments.jsonl", "appraise-wmt22.csv"] {
            let input = Path::new(&out("export")).join(file);
            let target = out(&format!("from-{file}"));
            run(&[&["analyze", "--input", input.to_str().unwrap(), "--out", &target][..], &settings].concat());
            let read_back = analysis(&target);
            if file == "appraise-wmt22.csv" {
                // Appraise's rows: no skipped judgment, each worker's judgments one HIT, the
                // same system means over SYSTEM items; the names are the campaign's.
                assert_eq!(read_back.0, 7, "{backend:?}: {file}");
                let raw = |a: &[(String, String, String, u64)]| a.iter().map(|s| (s.0.clone(), s.1.clone(), s.3)).collect::<Vec<_>>();
                assert_eq!(raw(&read_back.1), raw(&from_db.1), "{backend:?}: {file}");
            } else {
                assert_eq!(read_back.1, from_db.1, "{backend:?}: {file}");
            }
            // The judged segments (the database's analysis names every segment of the test set).
            assert_eq!(read_back.2, ["a,\"x\"\n", "b\r"], "{backend:?}: {file}: the segments' names");
        }
    }
}

/// A WMT relative-ranking CSV (the format of the WMT 2013–2016 releases) from a simulated crowd
/// with a known order: detected, every method written per language pair, the order recovered,
/// and a bad row refused naming its line with nothing written.
#[test]
fn a_wmt_ranking_csv_is_ranked_by_every_method() {
    let dir = tempfile::tempdir().unwrap();
    let quality = [("A", 0.9), ("B", 0.7), ("C", 0.55), ("D", 0.45), ("E", 0.3), ("F", 0.1)];
    let mut csv = String::from("srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,system2Id,system3Number,system3Id,system4Number,system4Id,system5Number,system5Id,system1rank,system2rank,system3rank,system4rank,system5rank\n");
    let mut state = 7u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    // Segments 0–299 ranked once each; then segments 0–39 again by another judge (inter-annotator
    // agreement) and by the same judge (intra).
    let rows = (0..300).map(|k| (k, k % 5)).chain((0..40).map(|k| (k, (k + 1) % 5))).chain((0..40).map(|k| (k, k % 5)));
    for (k, judge) in rows {
        // Five of the six systems, each scored with noise; ranks by score, adjacent ones tied
        // now and then.
        let skip = k % 6;
        let shown: Vec<(&str, f64)> =
            quality.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, &(s, q))| (s, q + (next() - 0.5) * 0.6)).collect();
        let mut order: Vec<usize> = (0..5).collect();
        order.sort_by(|&a, &b| shown[b].1.total_cmp(&shown[a].1));
        let mut ranks = [0usize; 5];
        for (at, &i) in order.iter().enumerate() {
            ranks[i] = if at > 0 && next() < 0.2 { ranks[order[at - 1]] } else { at + 1 };
        }
        let ids: Vec<String> = shown.iter().map(|(s, _)| format!("-1,{s}")).collect();
        let rk: Vec<String> = ranks.iter().map(ToString::to_string).collect();
        csv.push_str(&format!("Czech,English,{k},-1,{k},judge{judge},{},{}\n", ids.join(","), rk.join(",")));
    }
    let input = dir.path().join("ranking.csv");
    std::fs::write(&input, &csv).unwrap();
    let out = dir.path().join("out");
    let log = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert!(log.contains("cs-en: 380 blocks, 6 systems"), "{log}");
    let ranking = read(&out.join("ranking-cs-en.csv"));
    let mut lines = ranking.lines();
    assert_eq!(
        lines.next().unwrap(),
        "system,wins,losses,ties,wins_ratio,wins_and_ties_ratio,expected_wins,rank_lo,rank_hi,trueskill_mu,trueskill_sigma,mfas_rank,most_probable_rank,winner"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.iter().map(|r| r[0]).collect::<Vec<_>>(), ["A", "B", "C", "D", "E", "F"], "expected wins recover the order:\n{ranking}");
    for (at, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), 14);
        assert_eq!(r[11], (at + 1).to_string(), "MFAS rank of {}", r[0]);
        assert_eq!(r[12], (at + 1).to_string(), "most probable rank of {}", r[0]);
        let (wins, losses) = (num(r[1]), num(r[2]));
        assert!((num(r[4]) - wins / (wins + losses)).abs() < 1e-12, "wins ratio of {}", r[0]);
    }
    let mus: Vec<f64> = rows.iter().map(|r| num(r[9])).collect();
    assert!(mus.windows(2).all(|w| w[0] > w[1]), "TrueSkill recovers the order: {mus:?}");
    assert_eq!(rows[0][13], "1", "A wins");
    assert_eq!(rows[5][13], "0");
    let h2h = read(&out.join("head-to-head-cs-en.csv"));
    assert!(h2h.starts_with("row \\ column,A,B,C,D,E,F\n"), "{h2h}");
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("ranking.json"))).unwrap();
    assert_eq!(json["pairs"][0]["pair"], "cs-en");
    assert_eq!(json["pairs"][0]["blocks"], 380);
    // Agreement (WMT 2012 Table 3): the 40 segments ranked three times give each of their 10
    // system pairs two outcomes of different judges with the first judge's (inter) and one of
    // the same judge twice (intra).
    let agreement = read(&out.join("ranking-agreement.csv"));
    let lines: Vec<Vec<&str>> = agreement.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(lines[0].join(","), "pair,type,comparisons,agreeing,items,p_a,p_e,kappa,landis_koch,kappa_uniform,outcomes,ties,note");
    assert_eq!(lines.len(), 3, "{agreement}");
    let (inter, intra) = (&lines[1], &lines[2]);
    assert_eq!((inter[0], inter[1], inter[2], inter[4]), ("cs-en", "inter", "800", "400"), "{agreement}");
    assert_eq!((intra[1], intra[2], intra[4]), ("intra", "400", "400"), "{agreement}");
    for row in [inter, intra] {
        let (p_a, p_e, kappa) = (num(row[5]), num(row[6]), num(row[7]));
        assert!((kappa - (p_a - p_e) / (1.0 - p_e)).abs() < 1e-12 && kappa > 0.2, "{agreement}");
        assert!(["fair", "moderate", "substantial", "almost perfect"].contains(&row[8]), "{agreement}");
    }
    assert_eq!(num(inter[10]), 380.0 * 10.0);
    let j = &json["pairs"][0]["agreement"];
    assert_eq!(j["inter"]["comparisons"], 800);
    assert!((j["intra"]["kappa"].as_f64().unwrap() - num(intra[7])).abs() < 1e-12);

    // A rank that is not a number: the line is named and nothing is written.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, csv.replacen(",1,2,3,4,5\n", ",1,2,x,4,5\n", 1)).unwrap();
    let bad_out = dir.path().join("bad-out");
    let failed = assay_cli(&["analyze", "--input", bad.to_str().unwrap(), "--out", bad_out.to_str().unwrap()]);
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("bad.csv: line ") && err.contains("\"x\" is not a rank"), "{err}");
    assert!(!bad_out.exists() || std::fs::read_dir(&bad_out).unwrap().next().is_none(), "nothing written");
}

#[test]
fn a_pairwise_preference_csv_gives_bradley_terry_ratings_per_pair() {
    let dir = tempfile::tempdir().unwrap();
    // en-de: four systems of known strength, ties when the two are close; cs-en: "weak" never
    // wins nor ties; de-fr: two systems, A preferred 3 to 1 (a closed form: 400·log10 3 apart).
    let strength = [("sysA", 1.5), ("sysB", 0.5), ("sysC", -0.5), ("sysD", -1.5)];
    let mut state = 11u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut csv = String::from("worker,segment,system_a,system_b,winner,pair\n");
    let mut rows: Vec<(String, String, String, String)> = Vec::new();
    for k in 0..1200 {
        let a = (next() * 4.0) as usize;
        let b = (a + 1 + (next() * 3.0) as usize) % 4;
        let p = 1.0 / (1.0 + f64::exp(strength[b].1 - strength[a].1));
        let u = next();
        let winner = if u > 0.9 { "tie" } else if u / 0.9 < p { "a" } else { "b" };
        rows.push(("en-de".into(), strength[a].0.into(), strength[b].0.into(), winner.into()));
        csv.push_str(&format!("w{},{},{},{},{winner},en-de\n", k % 7, k / 3, strength[a].0, strength[b].0));
    }
    for k in 0..60 {
        let (a, b, winner) = match k % 3 {
            0 => ("weak", "good", "b"),
            1 => ("good", "better", if k % 2 == 0 { "a" } else { "tie" }),
            _ => ("better", "weak", "a"),
        };
        rows.push(("cs-en".into(), a.into(), b.into(), winner.into()));
        csv.push_str(&format!("w1,{k},{a},{b},{winner},cs-en\n"));
    }
    for (k, winner) in ["a", "a", "b", "a"].iter().enumerate() {
        rows.push(("de-fr".into(), "A".into(), "B".into(), winner.to_string()));
        csv.push_str(&format!("w2,{k},A,B,{winner},de-fr\n"));
    }
    let input = dir.path().join("prefs.csv");
    std::fs::write(&input, &csv).unwrap();
    let out = dir.path().join("out");
    let log = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap(), "--bootstrap", "300"]));
    assert!(log.contains("en-de: 1200 judgments, 4 systems"), "{log}");

    let table = |pair: &str| -> Vec<Vec<String>> {
        let text = read(&out.join(format!("pairwise-{pair}.csv")));
        let mut lines = text.lines();
        assert_eq!(lines.next().unwrap(), "system,rating,ci_low,ci_high,rank_low,rank_high,wins,losses,ties,n");
        lines.map(|l| l.split(',').map(String::from).collect()).collect()
    };
    // Counts recomputed from the input.
    let counts = |pair: &str, system: &str| -> [usize; 4] {
        let mut c = [0; 4];
        for (p, a, b, w) in &rows {
            if p == pair && (a == system || b == system) {
                let won = (w == "a" && a == system) || (w == "b" && b == system);
                let idx = if w == "tie" { 2 } else if won { 0 } else { 1 };
                c[idx] += 1;
                c[3] += 1;
            }
        }
        c
    };
    let en_de = table("en-de");
    assert_eq!(en_de.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), ["sysA", "sysB", "sysC", "sysD"], "{en_de:?}");
    let ratings: Vec<f64> = en_de.iter().map(|r| num(&r[1])).collect();
    assert!((ratings.iter().sum::<f64>() / 4.0 - 1000.0).abs() < 1e-9, "mean 1000: {ratings:?}");
    for (at, r) in en_de.iter().enumerate() {
        assert_eq!(r.len(), 10);
        assert!(num(&r[2]) < ratings[at] && ratings[at] < num(&r[3]), "interval around the rating: {r:?}");
        assert_eq!((r[4].as_str(), r[5].as_str()), (&*(at + 1).to_string(), &*(at + 1).to_string()), "far apart, one rank each: {r:?}");
        let c = counts("en-de", &r[0]);
        assert_eq!([num(&r[6]), num(&r[7]), num(&r[8]), num(&r[9])], c.map(|x| x as f64), "{r:?}");
    }
    let cs_en = table("cs-en");
    assert_eq!(cs_en[2], ["weak", "", "", "", "3", "3", "0", "40", "0", "40"]);
    assert!(!num(&cs_en[0][1]).is_nan() && !num(&cs_en[1][1]).is_nan());
    let de_fr = table("de-fr");
    let gap = num(&de_fr[0][1]) - num(&de_fr[1][1]);
    assert!((gap - 400.0 * 3f64.log10()).abs() < 1e-9, "{de_fr:?}");
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("pairwise.json"))).unwrap();
    assert_eq!(json["source"]["format"], "pairwise-csv");
    assert_eq!(json["pairs"][1]["pair"], "cs-en");
    assert_eq!(json["pairs"][1]["bradley_terry"]["systems"][2]["no_rating"], "never-wins");
    assert_eq!(json["pairs"][0]["bradley_terry"]["bootstrap"]["used"], 300);

    // A comparison graph in two parts is refused, naming them; nothing is written.
    let split = dir.path().join("split.csv");
    std::fs::write(&split, "segment,system_a,system_b,winner,worker\n1,A,B,a,w\n2,B,A,tie,w\n3,C,D,b,w\n").unwrap();
    let never = dir.path().join("never");
    let r = assay_cli(&["analyze", "--input", split.to_str().unwrap(), "--out", never.to_str().unwrap()]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("xx-xx: the comparisons fall into 2 parts never compared with each other") && err.contains("{A, B} and {C, D}"), "{err}");
    assert!(!never.exists());
    // A bad winner names its line.
    std::fs::write(&split, "segment,system_a,system_b,winner,worker\n1,A,B,a,w\n2,B,A,left,w\n").unwrap();
    let r = assay_cli(&["analyze", "--input", split.to_str().unwrap(), "--out", never.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&r.stderr).contains("split.csv: line 3: winner must be a, b or tie, not \"left\""), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(!never.exists());
}
