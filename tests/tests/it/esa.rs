//! `assay analyze --input` on ESA files end to end (issue 20): a generated Appraise/WMT 2024 ESA
//! CSV and the WMT 2024 JSONL of the same ratings go in; the format is detected; every output
//! file is checked for its exact columns and against an independent recomputation from the
//! input (scores, segment counts, what was dropped); the ranking recovers the simulation's true
//! order; bad input names its line and field and leaves nothing behind. (No database: the same
//! on SQLite and PostgreSQL.)

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use assay_tests::*;
use assay_tests::{SplitMix as Rng, read_text as read};

/// One kept rating: (pair, system, document, item, annotator, score).
type Kept = (String, String, String, String, String, f64);

struct Generated {
    csv: String,
    jsonl: String,
    kept: Vec<Kept>,
    /// Rows the WMT 2024 reading drops, by reason.
    dropped: BTreeMap<&'static str, usize>,
    /// The systems of en-de, best first by true quality.
    truth: Vec<String>,
}

const DOMAINS: [&str; 3] = ["news", "social", "speech"];

/// en-de: five systems 8 points apart, 3 domains × 3 documents × 15 segments, three annotators
/// per segment (one of whom sometimes changes their mind: an earlier rating superseded);
/// en-ja: three systems and 20 segments (too thin at 100 per system); plus a tutorial system,
/// the canary, #incomplete and #dup documents and BAD items, all dropped.
fn generate() -> Generated {
    let mut rng = Rng(20);
    let mut csv = String::new();
    let mut jsonl = String::new();
    let mut kept = Vec::new();
    let mut dropped: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut time = 1_724_100_000.0f64;
    let mut row = |csv: &mut String, jsonl: &mut String, user: &str, system: &str, item: usize, kind: &str, pair: (&str, &str), score: i64, doc: &str, spans: &str| {
        time += 7.25;
        let (start, end) = (time, time + 3.5);
        let l3 = |l: &str| match l {
            "en" => "eng",
            "de" => "deu",
            _ => "jpn",
        };
        let quoted = format!("\"{}\"", spans.replace('"', "\"\""));
        csv.push_str(&format!("{user},{system},{item},{kind},{},{},{score},{doc},False,{quoted},{start:.3},{end:.3}\n", l3(pair.0), l3(pair.1)));
        if kind == "TGT" {
            let domain = doc.split('_').next().unwrap().rsplit('-').next().unwrap();
            let line = serde_json::json!({"langs": format!("{}-{}", pair.0, pair.1), "line_id": item, "src": "Der Satz.", "tgt": "The sentence 🇩🇪 with नमस्ते.",
                "doc_id": doc, "domain": domain, "esa_spans": serde_json::from_str::<serde_json::Value>(spans).unwrap(), "esa_score": score.to_string(),
                "times": [format!("{start:.3}"), format!("{end:.3}")], "system": system, "annotator": user});
            jsonl.push_str(&format!("{line}\n"));
        }
    };
    let systems: Vec<String> = (0..5).map(|i| format!("Sys{}", (b'A' + i) as char)).collect();
    let quality = [86.0, 78.0, 70.0, 62.0, 54.0];
    let annotators = ["engdeu01", "engdeu02", "engdeu03"];
    let mut item = 0;
    for domain in DOMAINS {
        for d in 0..3 {
            let doc = if domain == "speech" { format!("test-en-speech_-v{d}Xq_00{d}") } else { format!("test-en-{domain}_{domain}.{d}") };
            for _ in 0..15 {
                item += 1;
                let difficulty = rng.normal() * 8.0;
                for (s, system) in systems.iter().enumerate() {
                    for user in annotators {
                        let score = (quality[s] - difficulty + rng.normal() * 10.0).round().clamp(0.0, 100.0) as i64;
                        if rng.below(10) == 0 {
                            // An earlier rating of the same item by the same annotator: superseded.
                            row(&mut csv, &mut jsonl, user, system, item, "TGT", ("en", "de"), (score + 40).min(100), &doc, "[]");
                            *dropped.entry("superseded").or_default() += 1;
                        }
                        let spans = if score < 60 { r#"[{"start_i":4,"end_i":12,"severity":"major","error_type":null},{"start_i":"missing","end_i":"missing","severity":"minor","error_type":null}]"# } else { "[]" };
                        row(&mut csv, &mut jsonl, user, system, item, "TGT", ("en", "de"), score, &doc, spans);
                        kept.push(("en-de".into(), system.clone(), doc.clone(), item.to_string(), user.to_string(), score as f64));
                    }
                }
            }
        }
    }
    // en-ja: too thin.
    for i in 1..=20 {
        for system in ["JaA", "JaB", "JaC"] {
            let score = 60 + rng.below(30) as i64;
            row(&mut csv, &mut jsonl, "engjpn01", system, i, "TGT", ("en", "ja"), score, &format!("test-en-news_ja.{}", i / 5), "[]");
            kept.push(("en-ja".into(), system.into(), format!("test-en-news_ja.{}", i / 5), i.to_string(), "engjpn01".into(), score as f64));
        }
    }
    // Rows the reading drops.
    for i in 0..3 {
        row(&mut csv, &mut jsonl, "engdeu01", "ende-tutorial1", 1_000_001 + i, "TGT", ("en", "de"), 0, "ende-tutorial1", "[]");
        *dropped.entry("tutorial").or_default() += 1;
        row(&mut csv, &mut jsonl, "engdeu02", "SysA", 900 + i, "TGT", ("en", "de"), 90, "test-en-news_fill#incomplete", "[]");
        *dropped.entry("incomplete").or_default() += 1;
        row(&mut csv, &mut jsonl, "engdeu02", "SysE", 950 + i, "TGT", ("en", "de"), 95, "test-en-news_again#dup", "[]");
        *dropped.entry("dup").or_default() += 1;
        row(&mut csv, &mut jsonl, "engdeu03", "SysB", 1 + i, "BAD", ("en", "de"), 5, "test-en-news_news.0#bad", "[]");
        *dropped.entry("not_tgt").or_default() += 1;
    }
    row(&mut csv, &mut jsonl, "engdeu03", "SysC", 0, "TGT", ("en", "de"), 100, "canary", "[]");
    *dropped.entry("canary").or_default() += 1;
    Generated { csv, jsonl, kept, dropped, truth: systems }
}

/// The ranking from the kept ratings, recomputed here: mean over annotators per segment, mean of
/// per-domain means per system.
fn expected_scores(kept: &[Kept], pair: &str) -> BTreeMap<String, (f64, usize)> {
    let mut segs: HashMap<(String, String, String), Vec<f64>> = HashMap::new();
    for (p, system, doc, item, _, score) in kept.iter().filter(|k| k.0 == pair) {
        let _ = p;
        segs.entry((system.clone(), doc.clone(), item.clone())).or_default().push(*score);
    }
    let mut per: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    for ((system, doc, _), v) in segs {
        let domain = doc.split('_').next().unwrap().rsplit('-').next().unwrap().to_string();
        per.entry(system).or_default().entry(domain).or_default().push(v.iter().sum::<f64>() / v.len() as f64);
    }
    per.into_iter()
        .map(|(s, doms)| {
            let n = doms.values().map(Vec::len).sum();
            let score = doms.values().map(|v| v.iter().sum::<f64>() / v.len() as f64).sum::<f64>() / doms.len() as f64;
            (s, (score, n))
        })
        .collect()
}

struct Ranked {
    header: String,
    rows: Vec<Vec<String>>,
}

fn ranking(dir: &Path, lp: &str) -> Ranked {
    let text = read(&dir.join(format!("esa-ranking-{lp}.csv")));
    let mut lines = text.lines();
    Ranked { header: lines.next().unwrap().to_string(), rows: lines.map(|l| l.split(',').map(str::to_string).collect()).collect() }
}

#[test]
fn an_esa_csv_and_its_jsonl_are_detected_ranked_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let g = generate();
    let csv = dir.path().join("esa.csv");
    let jsonl = dir.path().join("esa.jsonl");
    std::fs::write(&csv, &g.csv).unwrap();
    std::fs::write(&jsonl, &g.jsonl).unwrap();

    let out = dir.path().join("out-csv");
    let err = succeeded(&assay_cli(&["analyze", "--input", csv.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert!(err.contains("en-ja: too thin to rank (20.0 segments per system"), "{err}");
    let mut files: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["esa-pvalues-en-de.csv", "esa-ranking-en-de.csv", "esa.json"]);

    // The ranking: exact header, one row per system, best first, scores and n as recomputed.
    let r = ranking(&out, "en-de");
    assert_eq!(r.header, "system,score,n,wins,losses,rank_lo,rank_hi,cluster");
    assert_eq!(r.rows.len(), 5);
    let want = expected_scores(&g.kept, "en-de");
    let names: Vec<&str> = r.rows.iter().map(|row| row[0].as_str()).collect();
    assert_eq!(names, g.truth.iter().map(String::as_str).collect::<Vec<_>>(), "the true order (systems 8 points apart)");
    let mut last = f64::INFINITY;
    for (i, row) in r.rows.iter().enumerate() {
        let score: f64 = row[1].parse().unwrap();
        let (want_score, want_n) = want[&row[0]];
        assert!((score - want_score).abs() < 1e-9, "{row:?}: expected {want_score}");
        assert_eq!(row[2], want_n.to_string(), "{row:?}");
        assert!(score <= last);
        last = score;
        let (wins, losses, lo, hi): (usize, usize, usize, usize) = (row[3].parse().unwrap(), row[4].parse().unwrap(), row[5].parse().unwrap(), row[6].parse().unwrap());
        assert_eq!((lo, hi), (losses + 1, 5 - wins), "WMT 2024's rank range: {row:?}");
        // 8 points apart on 135 segments: every pair separates, five clusters.
        assert_eq!((lo, hi, row[7].as_str()), (i + 1, i + 1, (i + 1).to_string().as_str()), "{row:?}");
    }

    // The p-value matrix: square, symmetric (two-sided), empty diagonal, every pair significant.
    let pv = read(&out.join("esa-pvalues-en-de.csv"));
    let m: Vec<Vec<&str>> = pv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(m[0].join(","), format!("system,{}", names.join(",")));
    for i in 1..=5 {
        assert_eq!(m[i][0], names[i - 1]);
        assert_eq!(m[i][i], "");
        for j in 1..=5 {
            if i != j {
                assert_eq!(m[i][j], m[j][i], "symmetric");
                let p: f64 = m[i][j].parse().unwrap();
                assert!(p < 0.05 && p >= 0.0, "{i},{j}: {p}");
            }
        }
    }

    // esa.json: the source, the settings, what was dropped and why, counts.
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("esa.json"))).unwrap();
    assert_eq!(json["source"]["format"], "esa-csv");
    assert_eq!(json["settings"]["rule"], "wmt24");
    assert_eq!(json["settings"]["alpha"], 0.05);
    assert_eq!(json["settings"]["min_segments"], 100.0);
    assert_eq!(json["domain_source"], "document-id");
    for (reason, n) in &g.dropped {
        assert_eq!(json["dropped"][reason].as_u64(), Some(*n as u64), "dropped {reason}");
    }
    let rows = g.csv.lines().count();
    assert_eq!(json["ratings_read"].as_u64(), Some(rows as u64));
    assert_eq!(json["too_thin"][0]["pair"], "en-ja");
    let pair = &json["pairs"][0];
    assert_eq!(pair["pair"], "en-de");
    assert_eq!(pair["segments"], 135);
    assert_eq!(pair["annotators"], 3);
    assert_eq!(pair["domains"].as_array().unwrap().len(), 3);
    let low = g.kept.iter().filter(|k| k.0 == "en-de" && k.5 < 60.0).count();
    assert!(json["spans"]["omissions"].as_u64().unwrap() >= low as u64);

    // The JSONL of the same ratings: detected, the same ranking and p-values.
    let out_j = dir.path().join("out-jsonl");
    succeeded(&assay_cli(&["analyze", "--input", jsonl.to_str().unwrap(), "--out", out_j.to_str().unwrap()]));
    assert_eq!(read(&out_j.join("esa-ranking-en-de.csv")), read(&out.join("esa-ranking-en-de.csv")));
    assert_eq!(read(&out_j.join("esa-pvalues-en-de.csv")), pv);
    let json_j: serde_json::Value = serde_json::from_str(&read(&out_j.join("esa.json"))).unwrap();
    assert_eq!(json_j["source"]["format"], "esa-jsonl");
    assert_eq!(json_j["domain_source"], "jsonl-column");
    // Every span fits its target text (emoji and combining marks included).
    assert_eq!(json_j["spans"]["beyond_text"], 0);
    assert_eq!(json_j["spans"]["splitting_graphemes"], 0);

    // WMT 2025's rule: one-sided p-values (not symmetric), the same order; a lower minimum
    // ranks en-ja too.
    let out25 = dir.path().join("out-25");
    succeeded(&assay_cli(&["analyze", "--input", csv.to_str().unwrap(), "--out", out25.to_str().unwrap(), "--esa-rule", "wmt25", "--esa-min-segments", "10"]));
    let pv25 = read(&out25.join("esa-pvalues-en-de.csv"));
    let m25: Vec<Vec<&str>> = pv25.lines().map(|l| l.split(',').collect()).collect();
    let (better, worse): (f64, f64) = (m25[1][2].parse().unwrap(), m25[2][1].parse().unwrap());
    assert!(better < 0.05 && worse > 0.5, "p(A > B) = {better}, p(B > A) = {worse}");
    let r25 = ranking(&out25, "en-de");
    assert_eq!(r25.rows.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), names);
    assert!(out25.join("esa-ranking-en-ja.csv").exists());
    let json25: serde_json::Value = serde_json::from_str(&read(&out25.join("esa.json"))).unwrap();
    assert_eq!(json25["settings"]["rule"], "wmt25");
    assert_eq!(json25["too_thin"].as_array().unwrap().len(), 0);
}

#[test]
fn bad_esa_input_names_its_line_and_field_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = "u1,SysA,1,TGT,eng,deu,70,test-en-news_a,False,[],1724100000.0,1724100010.0\n";
    for (bad, says) in [
        ("u1,SysB,1,TGT,eng,deu,170,test-en-news_a,False,[],1724100000.0,1724100010.0\n", "line 2: field 7 (score): the score 170 lies outside 0–100"),
        ("u1,SysB,1,TGT,eng,deu,70,test-en-news_a,False,\"[{\"\"start_i\"\":9,\"\"end_i\"\":3,\"\"severity\"\":\"\"minor\"\"}]\",1724100000.0,1724100010.0\n", "line 2: field 10 (spansJSON): span 1: the span 9–3 is empty or reversed"),
        ("u1,SysB,1,TGT,eng,deu,70,test-en-news_a,False,\"[{\"\"start_i\"\":1,\"\"end_i\"\":3,\"\"severity\"\":\"\"fatal\"\"}]\",1724100000.0,1724100010.0\n", "line 2: field 10 (spansJSON): span 1: unknown severity \"fatal\""),
        ("u1,SysB,1,TGT,eng,deu,70,test-en-news_a,False,[],1724100000.0\n", "line 2: expected 12 comma-separated fields"),
    ] {
        let input = dir.path().join("bad.csv");
        std::fs::write(&input, format!("{good}{bad}")).unwrap();
        let out = dir.path().join("out");
        let o = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--format", "esa-csv", "--out", out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(err.contains(&format!("{}: {says}", input.display())), "{err}");
        assert!(!out.exists(), "nothing written");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n.to_string_lossy().contains("partial")).collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    // A documents file that lacks a document: named, nothing written.
    let input = dir.path().join("ok.csv");
    std::fs::write(&input, good).unwrap();
    let docs = dir.path().join("en-de.docs");
    std::fs::write(&docs, "news\tother_doc\n").unwrap();
    let out = dir.path().join("out");
    let o = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--esa-docs", docs.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 1: document \"test-en-news_a\" is not in the documents file"));
    assert!(!out.exists());
    // With the document in it, the lone rating is too thin, and that is said and written.
    std::fs::write(&docs, "social\ttest-en-news_a\n").unwrap();
    let err = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--esa-docs", docs.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert!(err.contains("en-de: too thin to rank"), "{err}");
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("esa.json"))).unwrap();
    assert_eq!(json["domain_source"], "documents-file");
    assert_eq!(json["pairs"].as_array().unwrap().len(), 0);
}
