//! `assay analyze --input` on Google's MQM TSV end to end (issue 20): a generated TSV named as
//! Google names its releases goes in; the format and the language pair are detected; the scores
//! are checked against a recomputation in this file with its own weight table, the ranking
//! file has the ESA header and recovers the simulation's true order; a documents file gives
//! domains; `--mqm-weights` changes what it says; bad input names its line and leaves nothing
//! behind. (No database: the same on SQLite and PostgreSQL.)

use std::collections::BTreeMap;

use assay_tests::*;
use assay_tests::{SplitMix as Rng, read_text as read};

/// The weight table of Google's MQM as this test reads it (independent of Assay's code).
fn weight(category: &str, severity: &str, critical: f64) -> f64 {
    match (severity, category) {
        ("No-error", _) => 0.0,
        ("Neutral", _) => 0.0,
        (_, "Source issue") => 0.0,
        ("Major" | "Critical", "Non-translation!") => 25.0,
        ("Minor", "Fluency/Punctuation") => 0.1,
        ("Minor", _) => 1.0,
        ("Major", _) => 5.0,
        ("Critical", _) => critical,
        _ => panic!("{severity}"),
    }
}

const CATEGORIES: [&str; 5] = ["Accuracy/Mistranslation", "Fluency/Grammar", "Fluency/Punctuation", "Style/Awkward", "Source issue"];

struct Generated {
    tsv: String,
    /// (system, doc, seg) → per rater: list of (category, severity).
    errors: BTreeMap<(String, String, u32), Vec<Vec<(String, String)>>>,
}

/// Four systems, 150 segments in two documents (news, social), two raters per segment; a
/// system's error rate grows with its index; one target per segment in German, with a CJK
/// segment and a combining mark here and there.
fn generate() -> Generated {
    let mut rng = Rng(20);
    let mut tsv = String::from("system\tdoc\tdoc_seg_id\tglobal_seg_id\trater\tsource\ttarget\tcategory\tseverity\tmetadata\n");
    let mut errors = BTreeMap::new();
    let systems = ["SysA", "SysB", "SysC", "SysD"];
    for seg in 0..150u32 {
        let doc = if seg < 75 { "doc-news" } else { "doc-social" };
        for (k, sys) in systems.iter().enumerate() {
            let target = match seg % 3 {
                0 => format!("Satz {seg} von {sys}, cafe\u{301} und mehr."),
                1 => format!("我们今天去北京 {seg} {sys}。"),
                _ => format!("Ein ganz normaler Satz {seg} ({sys})."),
            };
            let chars: Vec<char> = target.chars().collect();
            let mut per_rater = Vec::new();
            for rater in ["r1", "r2"] {
                let mut marked = Vec::new();
                let rate = 0.15 + 0.35 * k as f64;
                let mut n = 0;
                while rng.uniform() < rate && n < 5 {
                    n += 1;
                    let cat = CATEGORIES[(rng.next() % 5) as usize];
                    let sev = match rng.next() % 10 {
                        0..=5 => "Minor",
                        6..=8 => "Major",
                        _ => "Critical",
                    };
                    let (src, tgt) = if cat == "Source issue" {
                        (format!("<v>Source</v> {seg}."), target.clone())
                    } else {
                        // Two characters from a start away from the combining mark (the span
                        // "Sa" / "我们" / "Ei").
                        let t: String = format!("<v>{}</v>{}", chars[..2].iter().collect::<String>(), chars[2..].iter().collect::<String>());
                        (format!("Source {seg}."), t)
                    };
                    tsv.push_str(&format!("{sys}\t{doc}\t{seg}\t{}\t{rater}\t{src}\t{tgt}\t{cat}\t{sev}\t{{}}\n", 1000 + seg));
                    marked.push((cat.to_string(), sev.to_string()));
                }
                if marked.is_empty() {
                    tsv.push_str(&format!("{sys}\t{doc}\t{seg}\t{}\t{rater}\tSource {seg}.\t{target}\tNo-error\tNo-error\t{{}}\n", 1000 + seg));
                }
                per_rater.push(marked);
            }
            errors.insert((sys.to_string(), doc.to_string(), seg), per_rater);
        }
    }
    Generated { tsv, errors }
}

fn expected(g: &Generated, critical: f64) -> BTreeMap<String, f64> {
    let mut sums: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for ((sys, _, _), raters) in &g.errors {
        let seg: f64 = raters.iter().map(|r| -r.iter().map(|(c, s)| weight(c, s, critical)).sum::<f64>()).sum::<f64>() / raters.len() as f64;
        let e = sums.entry(sys.clone()).or_default();
        e.0 += seg;
        e.1 += 1;
    }
    sums.into_iter().map(|(k, (s, n))| (k, s / n as f64)).collect()
}

fn csv_rows(text: &str) -> (String, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_string();
    (header, lines.map(|l| l.split(',').map(str::to_string).collect()).collect())
}

#[test]
fn an_mqm_tsv_is_detected_scored_and_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let g = generate();
    let input = dir.path().join("mqm_generalMT2099_ende.tsv");
    std::fs::write(&input, &g.tsv).unwrap();
    let out = dir.path().join("out");
    let err = succeeded(&assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert!(err.contains("MQM TSV, language pair en-de"), "{err}");
    let names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    for f in ["mqm-scores-en-de.csv", "mqm-ranking-en-de.csv", "mqm-pvalues-en-de.csv", "mqm.json"] {
        assert!(names.contains(&f.to_string()), "{f} in {names:?}");
    }
    // Scores: as recomputed here, best first.
    let want = expected(&g, 5.0);
    let (header, rows) = csv_rows(&read(&out.join("mqm-scores-en-de.csv")));
    assert_eq!(header, "system,score,n,ratings,errors,minor,major,critical,neutral,source_side,unmarked");
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let got: f64 = r[1].parse().unwrap();
        assert!((got - want[&r[0]]).abs() < 1e-9, "{}: {got} vs {}", r[0], want[&r[0]]);
        assert_eq!(r[2], "150", "segments of {}", r[0]);
        assert_eq!(r[3], "300", "ratings of {}", r[0]);
    }
    let scores: Vec<f64> = rows.iter().map(|r| r[1].parse().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {scores:?}");
    // Ranking: the ESA header, the true order, the best system significantly ahead.
    let (header, ranking) = csv_rows(&read(&out.join("mqm-ranking-en-de.csv")));
    assert_eq!(header, "system,score,n,wins,losses,rank_lo,rank_hi,cluster");
    assert_eq!(ranking.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), ["SysA", "SysB", "SysC", "SysD"]);
    assert_eq!(ranking[0][3], "3", "SysA beats every other system");
    assert_eq!((ranking[0][5].as_str(), ranking[0][6].as_str()), ("1", "1"));
    let json: serde_json::Value = serde_json::from_str(&read(&out.join("mqm.json"))).unwrap();
    assert_eq!(json["analysis"]["ranking"]["domains"], serde_json::json!(["all"]));
    assert_eq!(json["analysis"]["raters"], 2);
    assert!(json["analysis"]["systems"][0]["source_side"].as_u64().unwrap() > 0);

    // A documents file: two domains; critical weighed 10 changes the scores as recomputed.
    let docs = dir.path().join("en-de.docs");
    std::fs::write(&docs, "news\tdoc-news\nsocial\tdoc-social\n").unwrap();
    let out2 = dir.path().join("out2");
    succeeded(&assay_cli(&[
        "analyze", "--input", input.to_str().unwrap(), "--esa-docs", docs.to_str().unwrap(), "--mqm-weights", r#"{"critical": 10}"#, "--mqm-pair", "en-de", "--out", out2.to_str().unwrap(),
    ]));
    let json: serde_json::Value = serde_json::from_str(&read(&out2.join("mqm.json"))).unwrap();
    assert_eq!(json["analysis"]["ranking"]["domains"], serde_json::json!(["news", "social"]));
    assert_eq!(json["analysis"]["weights"]["critical"], 10.0);
    let want10 = expected(&g, 10.0);
    let (_, rows10) = csv_rows(&read(&out2.join("mqm-scores-en-de.csv")));
    for r in &rows10 {
        let got: f64 = r[1].parse().unwrap();
        assert!((got - want10[&r[0]]).abs() < 1e-9, "{}: {got} vs {}", r[0], want10[&r[0]]);
    }
    assert_ne!(want10["SysD"], want["SysD"], "the generator marks critical errors");

    // Thin data: scores written, no ranking; a name that is not Google's gives the pair `all`.
    let few: String = g.tsv.lines().take(40).map(|l| format!("{l}\n")).collect();
    let small = dir.path().join("small.tsv");
    std::fs::write(&small, few).unwrap();
    let out3 = dir.path().join("out3");
    let err = succeeded(&assay_cli(&["analyze", "--input", small.to_str().unwrap(), "--out", out3.to_str().unwrap()]));
    assert!(err.contains("all: too thin to rank"), "{err}");
    assert!(out3.join("mqm-scores-all.csv").exists());
    assert!(!out3.join("mqm-ranking-all.csv").exists());
}

#[test]
fn bad_mqm_input_names_its_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let head = "system\tdoc\tdoc_seg_id\tglobal_seg_id\trater\tsource\ttarget\tcategory\tseverity\n";
    let good = "A\td\t1\t1\tr1\ts\t<v>t</v>\tStyle/Awkward\tMinor\n";
    for (bad, says) in [
        ("A\td\t2\t2\tr1\ts\tt\tStyle/Awkward\tSevere\n", "line 3: field 9 (severity): \"Severe\" is not Major, Minor, Critical, Neutral or No-error"),
        ("A\td\t2\t2\tr1\ts\t<v>t</v> <v>u</v>\tOther\tMinor\n", "line 3: field 7 (target): expected one <v>…</v> pair, found 2 <v> and 2 </v>"),
        ("A\td\t2\t2\tr1\ts\tt\tOther\n", "line 3: expected 9 or 10 tab-separated fields"),
    ] {
        let input = dir.path().join("bad.tsv");
        std::fs::write(&input, format!("{head}{good}{bad}")).unwrap();
        let out = dir.path().join("out");
        let o = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success());
        assert!(err.contains(&format!("{}: {says}", input.display())), "{err}");
        assert!(!out.exists(), "nothing written");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n.to_string_lossy().contains("partial")).collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }
    let input = dir.path().join("ok.tsv");
    std::fs::write(&input, format!("{head}{good}")).unwrap();
    let out = dir.path().join("out");
    for (flag, value, says) in [("--mqm-weights", "{\"minor\": -1}", "--mqm-weights: the MQM weight minor must be a number ≥ 0"), ("--mqm-weights", "[1]", "--mqm-weights: not a JSON object"), ("--mqm-weights", "{\"critcal\": 10}", "unknown field `critcal`"), ("--mqm-pair", "xx-yy", "--mqm-pair")] {
        let o = assay_cli(&["analyze", "--input", input.to_str().unwrap(), flag, value, "--out", out.to_str().unwrap()]);
        assert!(!o.status.success());
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(!out.exists());
    }
}
