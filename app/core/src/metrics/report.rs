//! The meta-evaluation as files: the CSV tables and `meta.json` that `assay metrics evaluate`
//! writes and the campaign exports carry (issue 21). Numbers at full precision (Python's
//! `repr`), empty where undefined.

use super::meta::{self, MetaReport, MetricMatrix};
use super::python_repr;
use super::systems::SignificanceMatrix;
use assay_stats::Alternative;
use assay_stats::resample::RandomizedTest;

/// The files' names, in the order [`report_files`] gives them.
pub const REPORT_FILES: [&str; 6] = ["system-level.csv", "segment-level.csv", "metric-tests.csv", "clusters.csv", "system-significance.csv", "meta.json"];

/// The metrics page's tables in a campaign's export (issue 21): the files of [`REPORT_FILES`]
/// under names of their own, in the same order.
pub const EXPORT_FILES: [&str; 6] =
    ["metrics-system-level.csv", "metrics-segment-level.csv", "metrics-tests.csv", "metrics-clusters.csv", "metrics-system-significance.csv", "metrics.json"];

pub fn test_name(m: &SignificanceMatrix) -> &'static str {
    match m.test {
        RandomizedTest::PairedBootstrap => "paired-bootstrap",
        RandomizedTest::Bootstrap => "bootstrap",
        RandomizedTest::ApproximateRandomization => "approximate-randomization",
    }
}

pub fn alt_name(a: Alternative) -> &'static str {
    match a {
        Alternative::TwoSided => "two-sided",
        Alternative::Greater => "one-sided",
        Alternative::Less => "one-sided (less)",
    }
}

fn opt(v: Option<f64>) -> String {
    v.map(python_repr).unwrap_or_default()
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn write_matrix(out: &mut String, pair: &str, test: &str, m: &MetricMatrix) {
    for (a, row) in m.p.iter().enumerate() {
        for (b, p) in row.iter().enumerate() {
            if a != b {
                out.push_str(&format!("{},{},{},{},{},{}\n", field(pair), test, field(&m.metrics[a]), field(&m.metrics[b]), opt(*p), opt(m.statistic[a][b])));
            }
        }
    }
}

fn write_significance(out: &mut String, pair: &str, scorer: &str, m: &SignificanceMatrix) {
    for (i, row) in m.p.iter().enumerate() {
        for (j, p) in row.iter().enumerate() {
            if let Some(p) = p {
                out.push_str(&format!(
                    "{},{},{},{},{},{},{},{}\n",
                    field(pair),
                    field(scorer),
                    test_name(m),
                    alt_name(m.alternative),
                    field(&m.systems[i]),
                    field(&m.systems[j]),
                    python_repr(*p),
                    opt(m.observed[i][j])
                ));
            }
        }
    }
}

/// Every file of the report, (name, text), in the order of [`REPORT_FILES`].
pub fn report_files(r: &MetaReport) -> Result<Vec<(&'static str, String)>, serde_json::Error> {
    let mut sys = String::from("pair,metric,systems,pearson,pearson_p,pearson_lower,pearson_upper,spearman,spearman_p,spearman_lower,spearman_upper,kendall,kendall_p,kendall_lower,kendall_upper,pairwise_accuracy,pairs,soft_pairwise_accuracy,significance_agreement\n");
    let mut seg = String::from("pair,metric,cells,kendall_b,kendall_b_p,kendall_c,kendall_c_p,pearson,pearson_p,darr_kendall,darr_concordant,darr_discordant,acc_eq,acc_eq_epsilon,acc_eq_pairs\n");
    let mut tests = String::from("pair,test,metric_a,metric_b,p_value,statistic\n");
    let mut clusters = String::from("pair,test,cluster,metric\n");
    let mut sig = String::from("pair,scores,test,alternative,system_a,system_b,p_value,observed\n");
    for p in &r.pairs {
        if let Some(s) = &p.system_level {
            for m in &s.metrics {
                let c = |c: &meta::CorrelationReport| format!("{},{},{},{}", opt(c.value), opt(c.p_value), opt(c.interval.map(|i| i.lower)), opt(c.interval.map(|i| i.upper)));
                sys.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{}\n",
                    field(&p.pair),
                    field(&m.metric),
                    s.systems.len(),
                    c(&m.pearson),
                    c(&m.spearman),
                    c(&m.kendall),
                    opt(m.pairwise_accuracy.map(|a| a.accuracy)),
                    m.pairwise_accuracy.map(|a| a.pairs.to_string()).unwrap_or_default(),
                    opt(m.soft_pairwise_accuracy),
                    opt(m.significance_agreement.as_ref().map(|a| a.share)),
                ));
                if let Some(m2) = &m.significance {
                    write_significance(&mut sig, &p.pair, &m.metric, m2);
                }
            }
            write_matrix(&mut tests, &p.pair, "williams", &s.williams);
            write_matrix(&mut tests, &p.pair, "perm-both", &s.perm_both);
            for (test, cl) in [("williams", &s.clusters_williams), ("perm-both", &s.clusters_perm_both)] {
                for (k, c) in cl.iter().enumerate() {
                    for m in c {
                        clusters.push_str(&format!("{},{test},{},{}\n", field(&p.pair), k + 1, field(m)));
                    }
                }
            }
            if let Some(h) = &s.human_significance {
                write_significance(&mut sig, &p.pair, &r.human, h);
            }
        }
        if let Some(s) = &p.segment_level {
            write_matrix(&mut tests, &p.pair, "perm-both-segment", &s.perm_both);
            for (k, c) in s.clusters_perm_both.iter().enumerate() {
                for m in c {
                    clusters.push_str(&format!("{},perm-both-segment,{},{}\n", field(&p.pair), k + 1, field(m)));
                }
            }
            for m in &s.metrics {
                seg.push_str(&format!(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                    field(&p.pair),
                    field(&m.metric),
                    m.n,
                    opt(m.kendall_b.value),
                    opt(m.kendall_b.p_value),
                    opt(m.kendall_c.value),
                    opt(m.kendall_c.p_value),
                    opt(m.pearson.value),
                    opt(m.pearson.p_value),
                    opt(m.darr_kendall.map(|d| d.tau)),
                    m.darr_kendall.map(|d| d.concordant.to_string()).unwrap_or_default(),
                    m.darr_kendall.map(|d| d.discordant.to_string()).unwrap_or_default(),
                    opt(m.acc_eq.map(|a| a.accuracy)),
                    opt(m.acc_eq.map(|a| a.epsilon)),
                    m.acc_eq.map(|a| a.pairs.to_string()).unwrap_or_default(),
                ));
            }
        }
    }
    let json = serde_json::to_string_pretty(r)?;
    Ok(vec![
        ("system-level.csv", sys),
        ("segment-level.csv", seg),
        ("metric-tests.csv", tests),
        ("clusters.csv", clusters),
        ("system-significance.csv", sig),
        ("meta.json", json + "\n"),
    ])
}
