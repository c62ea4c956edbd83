//! The published WMT 2012 metric correlations (seed 001, Findings Tables 7 and 8) and the EMNLP
//! 2014 examples (Graham & Baldwin, seed 000), recomputed from published scores
//! (`tests/fixtures/metrics/wmt12/`, see its README):
//!
//! - every Spearman ρ of Tables 7 and 8 (87 values) from the system scores printed in Tables
//!   29–36 (two digits) against the official human order (Table 4). Where a metric's printed
//!   scores have no ties, ρ is determined and must round to the published value; where they tie,
//!   the tie-breaking of the full-precision scores is unknown, so the published value must lie
//!   within the range of ρ over every tie-breaking (exact, by the rearrangement inequality per
//!   group of tied scores), and Assay's Spearman (average ranks) inside the same range;
//! - Spanish–English (12 metrics) and English–French (AMBER, BLEU) exactly, from the
//!   full-precision scores published with the EMNLP 2014 implementation: every printed Table 32
//!   score is the full one rounded, every ρ of Tables 7/8 rounds from Assay's Spearman;
//! - EMNLP 2014 Figure 1 (AMBER and TERRORCAT: Spearman 0.965, Pearson 0.881 and 0.971) and its
//!   §4 Williams results on Spanish–English: the metric order of Figure 2, TERRORCAT not
//!   significantly better than the four next-best metrics, the share of significant pairs.
//!
//! `cargo test -p assay-core wmt12 -- --nocapture` prints every figure against the paper's.

use std::collections::BTreeMap;

use assay_stats::{pearson, williams_from_data};
use serde_json::Value;

use super::meta::{Correlation, correlation};

fn seed001() -> Value {
    serde_json::from_str(include_str!("../../../../tests/fixtures/metrics/wmt12/seed001-system-level.json")).expect("valid JSON")
}

/// (metric, pair) → system → score, from a `METRIC LP TESTSET SYSTEM SCORE` table.
type Table = BTreeMap<(String, String), BTreeMap<String, f64>>;

fn table(text: &str) -> Table {
    let mut t = Table::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "{line}");
        let old = t.entry((f[0].to_string(), f[1].to_string())).or_default().insert(f[3].to_string(), f[4].trim().parse().unwrap());
        assert!(old.is_none(), "{line}");
    }
    t
}

fn full_metrics() -> Table {
    table(include_str!("../../../../tests/fixtures/metrics/wmt12/significance-williams-metrics.tsv"))
}

fn full_human() -> Table {
    table(include_str!("../../../../tests/fixtures/metrics/wmt12/significance-williams-human.tsv"))
}

/// The anonymised system names of the full-precision data → the Findings' names.
fn findings_name(s: &str) -> &str {
    match s {
        "onlineA" => "ONLINE-A",
        "onlineB" => "ONLINE-B",
        "onlineC" => "RBMT-4",
        "onlineD" => "RBMT-3",
        "onlineE" => "ONLINE-C",
        "onlineF" => "RBMT-1",
        "QCRI--primary" => "QCRI",
        "uedin-wmt12" => "UEDIN",
        "jhu-hiero" => "JHU",
        "uk-dan-moses" => "UK",
        other => other,
    }
}

/// The Findings' metric names of the full-precision data's metrics.
fn findings_metric(m: &str) -> &str {
    match m {
        "BLEU_4_closest_cased" => "BLEU",
        "BlockErrCats" => "BLOCKERRCATS",
        "WordBlockErrCats" => "WORDBLOCKEC",
        "XEnErrCats" => "XENERRCATS",
        "Meteor" => "METEOR",
        "SAGAN_STS" => "SAGAN-STS",
        "TerrorCat" => "TERRORCAT",
        "posF" => "POSF",
        other => other,
    }
}

/// The smallest and largest Spearman ρ = 1 − 6Σd²/(n(n² − 1)) of `metric` against `human` (no
/// ties in `human`) over every way of breaking the ties of `metric`, and whether it has ties.
/// Each group of tied scores takes a fixed block of ranks; Σd² within a group is smallest when
/// the group's members take its ranks in their human order and largest in the reverse order
/// (rearrangement inequality), and the groups are independent.
fn rho_range(metric: &[f64], human: &[f64]) -> (f64, f64, bool) {
    let n = metric.len();
    let rank_of = |x: &[f64], i: usize| x.iter().filter(|v| **v < x[i]).count();
    let h: Vec<usize> = (0..n).map(|i| rank_of(human, i)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| metric[*a].total_cmp(&metric[*b]));
    let (mut lo, mut hi, mut ties, mut i) = (0usize, 0usize, false, 0);
    while i < n {
        let mut j = i;
        while j + 1 < n && metric[order[j + 1]] == metric[order[i]] {
            j += 1;
        }
        ties |= j > i;
        let mut members: Vec<usize> = order[i..=j].iter().map(|k| h[*k]).collect();
        members.sort_unstable();
        let positions: Vec<usize> = (i..=j).collect();
        let d2 = |a: usize, b: usize| (a as f64 - b as f64).powi(2) as usize;
        lo += members.iter().zip(&positions).map(|(a, b)| d2(*a, *b)).sum::<usize>();
        hi += members.iter().zip(positions.iter().rev()).map(|(a, b)| d2(*a, *b)).sum::<usize>();
        i = j + 1;
    }
    let rho = |s: usize| 1.0 - 6.0 * s as f64 / (n * (n * n - 1)) as f64;
    (rho(hi), rho(lo), ties)
}

/// Rounded to the two digits Tables 7 and 8 print.
fn two_digits(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[derive(Debug, Default)]
struct Outcome {
    exact: Vec<String>,
    consistent: Vec<String>,
    consistent_without_missing: Vec<String>,
    outside: Vec<String>,
}

/// Every published ρ of one pair against the human order `ranking` (best first).
fn check_pair(p: &Value, ranking: &[String], out: &mut Outcome, log: &mut Vec<String>) {
    let pair = p["pair"].as_str().unwrap();
    let table_order: Vec<&str> = p["human"]["ranking"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    for (metric, published) in p["published"].as_object().unwrap() {
        let want = published["rho"].as_f64().unwrap();
        let printed = p["metrics"]["scores"][metric].as_array().unwrap();
        // Systems in the human order, those the table scores (en-cs: ONLINE-A is n/a for four metrics).
        let mut m = Vec::new();
        let mut h = Vec::new();
        for (k, system) in ranking.iter().enumerate() {
            let at = table_order.iter().position(|s| s == system).unwrap();
            if let Some(v) = printed[at].as_f64() {
                m.push(v);
                h.push(-(k as f64));
            }
        }
        let (lo, hi, ties) = rho_range(&m, &h);
        let ours = correlation(Correlation::Spearman, &m, &h).unwrap();
        assert!(ours >= lo - 1e-12 && ours <= hi + 1e-12, "{pair} {metric}: Assay's {ours} outside [{lo}, {hi}]");
        let name = format!("{pair} {metric}");
        let (line, table) = (published["line"].as_u64().unwrap(), published["table"].as_str().unwrap());
        let missing = m.len() < ranking.len();
        let verdict = if !ties {
            assert!((lo - hi).abs() < 1e-12);
            if (two_digits(ours) - want).abs() < 1e-9 {
                out.exact.push(name.clone());
                "recomputed exactly"
            } else {
                out.outside.push(name.clone());
                "DIFFERS"
            }
        } else if want >= two_digits(lo) - 1e-9 && want <= two_digits(hi) + 1e-9 {
            if missing {
                out.consistent_without_missing.push(name.clone());
                "consistent (over the systems it scores)"
            } else {
                out.consistent.push(name.clone());
                "consistent (printed ties)"
            }
        } else {
            out.outside.push(name.clone());
            "OUTSIDE"
        };
        log.push(format!(
            "{pair:6} {metric:13} {table} L{line}: published {want:+.2}; n = {}, Assay (average ranks) {ours:+.4}, every tie-breaking [{lo:+.4}, {hi:+.4}]: {verdict}",
            m.len()
        ));
    }
}

/// Tables 7 and 8 against Tables 29–36 and the Table 4 order. 87 published values: 1 determined
/// by the printed scores and equal, 81 consistent with the printed ties, 4 of en-cs (ONLINE-A
/// n/a in Table 33) consistent over the 12 systems scored, 1 outside: en-cs AMBER, whose
/// printed score for COMMERCIAL-2 is 0.01 (every other en-cs system 0.11–0.19; the other
/// metrics score COMMERCIAL-2 near COMMERCIAL-1), most likely a misprint.
#[test]
fn wmt12_published_spearman_from_the_printed_system_scores() {
    let data = seed001();
    let mut out = Outcome::default();
    let mut log = Vec::new();
    for p in data["pairs"].as_array().unwrap() {
        let ranking: Vec<String> = p["table4"]["ranking"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        check_pair(p, &ranking, &mut out, &mut log);
    }
    println!("{}", log.join("\n"));
    let total = out.exact.len() + out.consistent.len() + out.consistent_without_missing.len() + out.outside.len();
    assert_eq!(total, 87, "Tables 7 and 8 print 46 + 41 values");
    assert_eq!(out.exact, ["cs-en XENERRCATS"]);
    assert_eq!(out.consistent.len(), 81, "{out:?}");
    assert_eq!(out.consistent_without_missing, ["en-cs BLOCKERRCATS", "en-cs ENXERRCATS", "en-cs POSF", "en-cs WORDBLOCKEC"]);
    assert_eq!(out.outside, ["en-cs AMBER"]);
}

/// Why the Table 4 order: the Bojar column of Tables 22–28 ranks ONLINE-A above CU-BOJAR in
/// cs-en (both 0.530), and XENERRCATS, whose printed cs-en scores have no ties, then gives
/// ρ = −0.60, not the published −0.66; Table 4 lists CU-BOJAR first and gives −0.66. With the
/// Bojar column, 6 of the 87 values fall outside their ranges.
#[test]
fn wmt12_the_metrics_task_ranked_systems_in_table_4s_order() {
    let data = seed001();
    let mut out = Outcome::default();
    let mut log = Vec::new();
    for p in data["pairs"].as_array().unwrap() {
        let ranking: Vec<String> = p["human"]["ranking"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect();
        check_pair(p, &ranking, &mut out, &mut log);
    }
    assert_eq!(out.outside.len(), 6, "{out:?}");
    assert!(out.outside.contains(&"cs-en XENERRCATS".to_string()));
    assert!(log.iter().any(|l| l.contains("XENERRCATS") && l.contains("Assay (average ranks) -0.6000")), "{log:?}");
}

/// The full-precision es-en and en-fr scores: the printed Table 32 scores are these rounded
/// (which confirms the inferred columns and the system names), and every published ρ of those
/// columns is recomputed exactly by Assay's Spearman.
#[test]
fn wmt12_es_en_and_en_fr_spearman_recomputed_exactly_from_full_scores() {
    let data = seed001();
    let (metrics, human) = (full_metrics(), full_human());
    let mut checked = 0;
    for pair in ["es-en", "en-fr"] {
        let p = data["pairs"].as_array().unwrap().iter().find(|p| p["pair"] == pair).unwrap();
        let table_order: Vec<&str> = p["human"]["ranking"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        let h = &human[&("HUMAN".to_string(), pair.to_string())];
        let systems: Vec<&String> = h.keys().collect();
        let hv: Vec<f64> = systems.iter().map(|s| h[*s]).collect();
        // The human scores order the systems as Table 4 does.
        let mut by_human = systems.clone();
        by_human.sort_by(|a, b| h[*b].total_cmp(&h[*a]));
        let named: Vec<&str> = by_human.iter().map(|s| findings_name(s)).collect();
        if pair == "es-en" {
            let t4: Vec<&str> = p["table4"]["ranking"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
            assert_eq!(named, t4);
        }
        for ((m, lp), scores) in metrics.iter().filter(|((_, lp), _)| lp == pair) {
            let name = findings_metric(m);
            let mv: Vec<f64> = systems.iter().map(|s| scores[*s]).collect();
            if pair == "es-en" {
                // Table 32's printed value of each system = the full value rounded to what it prints.
                let printed = p["metrics"]["scores"][name].as_array().unwrap_or_else(|| panic!("{name}"));
                for (s, v) in systems.iter().zip(&mv) {
                    let at = table_order.iter().position(|t| *t == findings_name(s)).unwrap();
                    let pv = printed[at].as_f64().unwrap();
                    let step = if pv >= 1.0 { 1.0 } else { 0.01 };
                    assert!((pv - v).abs() <= step / 2.0 + 1e-9, "{lp} {name} {s}: printed {pv}, full {v}");
                }
            }
            let rho = correlation(Correlation::Spearman, &mv, &hv).unwrap();
            let want = p["published"][name]["rho"].as_f64().unwrap();
            println!("{pair} {name:13} published {want:+.2}  Assay {rho:+.4}");
            assert_eq!(two_digits(rho), want, "{pair} {name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 14);
}

/// (metric name, full-precision scores in `systems` order) for es-en, and the human scores.
fn es_en() -> (Vec<(String, Vec<f64>)>, Vec<f64>) {
    let (metrics, human) = (full_metrics(), full_human());
    let h = &human[&("HUMAN".to_string(), "es-en".to_string())];
    let systems: Vec<&String> = h.keys().collect();
    let hv = systems.iter().map(|s| h[*s]).collect();
    let ms = metrics
        .iter()
        .filter(|((_, lp), _)| lp == "es-en")
        .map(|((m, _), s)| (findings_metric(m).to_string(), systems.iter().map(|x| s[*x]).collect()))
        .collect();
    (ms, hv)
}

/// EMNLP 2014 Figure 1 and §4 on the WMT 2012 Spanish–English data.
#[test]
fn emnlp2014_figure_1_and_the_spanish_english_williams_tests() {
    let (ms, h) = es_en();
    let by = |n: &str| &ms.iter().find(|(m, _)| m == n).unwrap().1;
    // Figure 1: joint-highest Spearman 0.965, Pearson 0.881 vs 0.971.
    for (metric, r) in [("AMBER", 0.881), ("TERRORCAT", 0.971)] {
        let rho = correlation(Correlation::Spearman, by(metric), &h).unwrap();
        let pr = pearson(by(metric), &h).unwrap();
        println!("Figure 1 {metric}: Spearman {rho:.4} (paper 0.965), Pearson {pr:.4} (paper {r})");
        assert_eq!((rho * 1000.0).round() / 1000.0, 0.965);
        assert_eq!((pr * 1000.0).round() / 1000.0, r);
    }
    // Figure 2's axis: the metrics by absolute Pearson, highest first.
    let mut order: Vec<(String, f64)> = ms.iter().map(|(m, v)| (m.clone(), pearson(v, &h).unwrap().abs())).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1));
    let names: Vec<&str> = order.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        names,
        ["TERRORCAT", "METEOR", "SAGAN-STS", "SEMPOS", "POSF", "XENERRCATS", "WORDBLOCKEC", "AMBER", "BLOCKERRCATS", "SIMPBLEU", "BLEU", "TER"]
    );
    // Williams for every pair, the better-correlated metric first (one-sided).
    let mut significant = 0;
    let mut p_of = BTreeMap::new();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            let w = williams_from_data(by(&order[i].0), by(&order[j].0), &h).unwrap();
            assert_eq!(w.df, 9.0);
            significant += usize::from(w.p_value < 0.05);
            p_of.insert((order[i].0.clone(), order[j].0.clone()), w.p_value);
        }
    }
    let p = |a: &str, b: &str| p_of[&(a.to_string(), b.to_string())];
    // "TERRORCAT ... is not significantly better (p ≥ 0.05) than the four next-best metrics".
    for next in ["METEOR", "SAGAN-STS", "SEMPOS", "POSF"] {
        println!("TERRORCAT > {next}: p = {:.4}", p("TERRORCAT", next));
        assert!(p("TERRORCAT", next) >= 0.05);
    }
    // The fifth, XENERRCATS, sits at the threshold: 0.0506 with the printed formula's n − 3
    // degrees of freedom (0.0490 with the n − 2 of the authors' 2014 script, see
    // assay_stats::williams' tests), so Assay does not call it significant either.
    println!("TERRORCAT > XENERRCATS: p = {:.4}", p("TERRORCAT", "XENERRCATS"));
    assert!((p("TERRORCAT", "XENERRCATS") - 0.0506).abs() < 5e-5);
    for rest in ["WORDBLOCKEC", "AMBER", "BLOCKERRCATS", "SIMPBLEU", "BLEU", "TER"] {
        assert!(p("TERRORCAT", rest) < 0.05, "{rest}");
    }
    // METHOD §8 on the real scores: AMBER over BLEU, t = 2.687, p = 0.0125.
    let w = williams_from_data(by("AMBER"), by("BLEU"), &h).unwrap();
    assert!((w.t - 2.687).abs() < 5e-4 && (w.p_value - 0.012459).abs() < 5e-7, "{w:?}");
    assert!((w.r12 - 0.947390).abs() < 5e-7 && (w.r13 - 0.880651).abs() < 5e-7 && (w.r23 - 0.760352).abs() < 5e-7);
    // "approximately 60% of WMT-12 metric pairs show a significant difference ... at p < 0.05":
    // 36 of 66 (55 %) with n − 3 degrees of freedom.
    println!("significant pairs: {significant} of 66");
    assert_eq!(significant, 36);
}
