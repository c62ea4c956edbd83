//! The manifest every analysis output and export carries, so that a result can be reproduced:
//! what was read (campaign or file), the settings, the filter (raw or cleaned), which workers
//! were excluded and why, the seed, Assay's version and the files written. One builder for
//! `assay analyze`, `assay export` and the export routes.

use serde::Serialize;
use serde_json::{Value, json};

use super::quality::{QcTest, Verdict};
use super::AnalysisResult;

/// A (worker, task) left out of the statistics, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exclusion {
    pub worker: String,
    pub task: String,
    pub reason: String,
}

pub fn test_name(t: QcTest) -> &'static str {
    match t {
        QcTest::PairedT => "paired t",
        QcTest::SignedRank => "Wilcoxon signed-rank",
        QcTest::Sign => "sign test",
    }
}

pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::NotEnoughEvidence => "not enough evidence",
    }
}

fn name(names: &[String], id: usize) -> String {
    names.get(id).cloned().unwrap_or_else(|| format!("#{id}"))
}

/// Every (worker, task) the pipeline left out of the statistics, with the reason: the
/// reliability verdict under the exclusion policy, or a worker who cannot be standardised.
pub fn excluded_workers(r: &AnalysisResult) -> Vec<Exclusion> {
    let mut out = Vec::new();
    for w in &r.workers {
        if !r.settings.exclusion.excludes(w) {
            continue;
        }
        let rel = &w.reliability;
        let p = rel.p_value.map_or("not computed".to_string(), |p| format!("{p:.4}"));
        let reason = match (rel.verdict, &rel.gold) {
            (Verdict::Fail, Some(g)) if g.verdict == Verdict::Fail => format!(
                "failed the gold check: agreement {} with the gold orders, below the threshold {}",
                g.summary(),
                g.threshold
            ),
            (v, Some(g)) if v != Verdict::Pass && g.verdict != Verdict::Pass && g.copies != Verdict::Fail => format!(
                "not enough evidence: gold agreement {} (at least {} gold pairs needed), and the reliability test ({}): {}",
                g.summary(),
                g.min_pairs,
                test_name(rel.test),
                rel.note.as_deref().unwrap_or("too few pairs")
            ),
            (v, _) => match v {
            Verdict::Fail => format!(
                "failed the reliability test ({}): p = {p} over {} (original, bad reference) pairs{}",
                test_name(rel.test),
                rel.n_pairs,
                rel.note.as_deref().map(|n| format!("; {n}")).unwrap_or_default()
            ),
            Verdict::NotEnoughEvidence => format!(
                "not enough evidence for the reliability test ({}): {}",
                test_name(rel.test),
                rel.note.as_deref().unwrap_or("too few pairs")
            ),
            Verdict::Pass => "passed, but the exclusion policy excludes everyone".into(),
            },
        };
        out.push(Exclusion { worker: name(&r.names.workers, w.worker as usize), task: name(&r.names.tasks, w.task as usize), reason });
    }
    for s in &r.standardization {
        if let Some(why) = &s.excluded {
            out.push(Exclusion {
                worker: name(&r.names.workers, s.worker as usize),
                task: name(&r.names.tasks, s.task as usize),
                reason: format!("cannot be standardised in {}: {why}", name(&r.names.lang_pairs, s.lang_pair as usize)),
            });
        }
    }
    out
}

/// Which judgments an export carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Filter {
    /// Every judgment, each with its worker's verdict.
    Raw,
    /// Judgments of workers excluded by quality control removed.
    Cleaned,
}

impl Filter {
    pub fn describe(self) -> &'static str {
        match self {
            Filter::Raw => {
                "raw: every judgment (skipped ones included and marked; the Appraise files have scored judgments only), \
                 each with its worker's quality-control verdict"
            }
            Filter::Cleaned => {
                "cleaned: judgments of the workers excluded by quality control (listed under excluded_workers) are removed; \
                 skipped judgments are removed"
            }
        }
    }
}

/// What a manifest says besides the analysis result itself.
pub struct ManifestInput<'a> {
    /// What was read: `{"kind": "campaign", …}` or `{"kind": "file", …}`.
    pub source: Value,
    /// The raw judgment files' filter; None for `assay analyze` (no judgment files).
    pub filter: Option<Filter>,
    pub files: &'a [String],
    /// Seconds the work took, if measured.
    pub seconds: Option<f64>,
}

/// The manifest: source, settings, filter, excluded workers and why, seed, version, files.
pub fn manifest(result: &AnalysisResult, input: ManifestInput<'_>) -> Value {
    let mut m = json!({
        "assay_version": env!("CARGO_PKG_VERSION"),
        "created_at_ms": std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0),
        "input": input.source,
        "settings": result.settings,
        "seed": result.settings.bootstrap.map(|b| b.seed),
        "judgments": result.judgments,
        "judgments_excluded": result.judgments_excluded,
        "workers": result.names.workers.len(),
        "excluded_workers": excluded_workers(result),
        "files": input.files,
    });
    if let Some(f) = input.filter {
        m["filter"] = json!({
            "kind": f,
            "description": f.describe(),
            "applies_to": "the judgment files (judgments.csv, judgments.jsonl, appraise-*.csv); the computed files \
                           (scores, matrices, clusters, ad-*, .score) always leave out the excluded workers, as settings.exclusion says",
        });
    }
    if let Some(s) = input.seconds {
        m["seconds"] = json!(s);
    }
    m
}
