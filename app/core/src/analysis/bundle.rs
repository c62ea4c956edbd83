//! Every file computed from an analysis result, written into a [`FileSink`] (a directory for
//! `assay analyze`, a zip or one chosen file for exports): the WMT `ad-*` files, the Wilcoxon
//! p-value and difference matrices, `clusters.csv`, the mt-metrics-eval `.score` files and the
//! WMT metrics-task `DA-seglevel.csv`/`DA-syslevel.csv`/`DArr-seglevel.csv`. One list of files,
//! one set of writers.

use std::io::{self, Write};

/// The NAME of the mt-metrics-eval files when none is given (`LP.NAME-z.sys.score`, …).
pub const DEFAULT_NAME: &str = "assay";

use super::export::{self, ScoreKind};
use super::formats::{self, WilcoxonMatrixStyle};
use super::{AnalysisResult, GroupResult, JudgmentSet};

/// Where computed files go.
pub trait FileSink {
    /// Writes one file called `name` with `write`.
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), String>;
}

/// Collects files in memory (small computed files only).
#[derive(Default)]
pub struct MemorySink {
    pub files: Vec<(String, Vec<u8>)>,
}

impl FileSink for MemorySink {
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), String> {
        let mut buf = Vec::new();
        write(&mut buf).map_err(|e| format!("cannot write {name}: {e}"))?;
        self.files.push((name.to_string(), buf));
        Ok(())
    }
}

/// Writes only the file of one name (and nothing else) into a buffer.
pub struct OneFile<'a> {
    pub want: &'a str,
    pub found: Option<Vec<u8>>,
}

impl FileSink for OneFile<'_> {
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), String> {
        if name == self.want {
            let mut buf = Vec::new();
            write(&mut buf).map_err(|e| format!("cannot write {name}: {e}"))?;
            self.found = Some(buf);
        }
        Ok(())
    }
}

/// How the files are named and ordered.
pub struct BundleOptions<'a> {
    /// NAME of the mt-metrics-eval files (`LP.NAME-z.sys.score`) and DATA of `DA-seglevel.csv`.
    pub name: &'a str,
    /// The segment interner is in test-set order (a campaign from the database: every segment
    /// of the test set, judged or not); otherwise the order is recovered from the names.
    pub segments_in_test_set_order: bool,
    /// Points by which two outputs' mean DA scores must differ to make a `DArr-seglevel.csv`
    /// pair (WMT: [`export::DARR_THRESHOLD`], 25).
    pub darr_threshold: f64,
}

/// Writes every computed file; returns their names in order. With the judgments the result
/// was computed from, also the standardised judgment file of each (task, language pair),
/// `ad-<srctgt>-good-stnd.csv` ([`formats::write_good_stnd`]).
pub fn write_result_files(
    sink: &mut dyn FileSink,
    result: &AnalysisResult,
    set: Option<&JudgmentSet>,
    o: &BundleOptions<'_>,
) -> Result<Vec<String>, String> {
    let names = &result.names;
    let mut files = Vec::new();
    let several_tasks = names.tasks.len() > 1;
    // File-name suffix of a group: the language pair, led by the task when there are several.
    let label = |g: &GroupResult| {
        let lp = &names.lang_pairs[g.lang_pair as usize];
        if several_tasks { format!("{}.{lp}", names.tasks[g.task as usize]) } else { lp.clone() }
    };
    let mut put = |sink: &mut dyn FileSink, name: String, f: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>| -> Result<(), String> {
        sink.file(&name, f)?;
        files.push(name);
        Ok(())
    };
    put(sink, "ad-wrkr-stats.csv".into(), &mut |w| formats::write_ad_wrkr_stats(w, names, &result.workers))?;
    put(sink, "ad-trk-stats.csv".into(), &mut |w| formats::write_ad_trk_stats(w, names, &result.workers))?;
    put(sink, "unreliable-workers.txt".into(), &mut |w| formats::write_unreliable_workers(w, names, &result.workers))?;
    let order: Vec<u32> = if o.segments_in_test_set_order {
        (0..names.segments.len() as u32).collect()
    } else {
        export::test_set_order(&names.segments)
    };
    for g in &result.groups {
        let lp = label(g);
        put(sink, format!("ad-seg-scores-{lp}.csv"), &mut |w| formats::write_ad_seg_scores(w, names, g))?;
        put(sink, format!("ad-sys-scores-{lp}.csv"), &mut |w| formats::write_ad_sys_scores(w, names, g))?;
        put(sink, format!("ad-sys-ranking-{lp}-z.csv"), &mut |w| formats::write_ad_sys_ranking(w, names, g))?;
        put(sink, format!("adwilcox-{lp}.csv"), &mut |w| {
            formats::write_wilcoxon_matrix(w, names, &g.comparison, WilcoxonMatrixStyle::default())
        })?;
        put(sink, format!("ad-DA-diff-wilcoxon-rs-{lp}.csv"), &mut |w| formats::write_difference_matrix(w, names, &g.comparison))?;
        let segments =
            if o.segments_in_test_set_order { order.clone() } else { export::judged_segments(g, &order, names.segments.len()) };
        for kind in [ScoreKind::Z, ScoreKind::Raw] {
            let name = format!("{}-{}", o.name, kind.suffix());
            put(sink, format!("{lp}.{name}.sys.score"), &mut |w| export::write_mme_sys_scores(w, names, g, kind))?;
            put(sink, format!("{lp}.{name}.seg.score"), &mut |w| export::write_mme_seg_scores(w, names, g, &segments, kind))?;
        }
    }
    if let Some(set) = set {
        for g in &result.groups {
            let lp = names.lang_pairs[g.lang_pair as usize].replace('-', "");
            let name = if several_tasks { format!("ad-{}.{lp}-good-stnd.csv", names.tasks[g.task as usize]) } else { format!("ad-{lp}-good-stnd.csv") };
            put(sink, name, &mut |w| formats::write_good_stnd(w, set, result, g.task, g.lang_pair).map(|_| ()))?;
        }
    }
    put(sink, "clusters.csv".into(), &mut |w| {
        formats::write_clusters_csv(w, names, result.groups.iter().map(|g| (g.lang_pair, &g.comparison)))
    })?;
    put(sink, "DA-seglevel.csv".into(), &mut |w| export::write_da_seglevel(w, names, o.name, &result.groups))?;
    put(sink, "DA-syslevel.csv".into(), &mut |w| export::write_da_syslevel(w, names, &result.groups))?;
    if result.groups.iter().any(|g| export::is_da_task(&names.tasks[g.task as usize])) {
        put(sink, "DArr-seglevel.csv".into(), &mut |w| {
            export::write_darr_seglevel(w, names, o.name, &order, &result.groups, o.darr_threshold)
        })?;
    }
    Ok(files)
}

/// A relative-ranking language pair's files: `ranking-<lp>.csv` (every method per system),
/// `head-to-head-<lp>.csv` and, when given, `wmt-ranking-<lp>.csv` (the blocks the methods
/// used, in WMT's ranking CSV, so that `assay analyze --input` gives the same figures).
/// Returns their names in order.
pub fn write_ranking_files(
    sink: &mut dyn FileSink,
    report: &super::ranking::PairReport,
    blocks: Option<&super::ranking::RankingData>,
) -> Result<Vec<String>, String> {
    use super::ranking::{write_head_to_head_csv, write_ranking_csv, write_wmt_ranking_csv};
    let lp = &report.pair;
    let mut files = vec![format!("ranking-{lp}.csv"), format!("head-to-head-{lp}.csv")];
    sink.file(&files[0], &mut |w| write_ranking_csv(w, report))?;
    sink.file(&files[1], &mut |w| write_head_to_head_csv(w, report))?;
    if let Some(data) = blocks {
        files.push(format!("wmt-ranking-{lp}.csv"));
        sink.file(&files[2], &mut |w| write_wmt_ranking_csv(w, data))?;
    }
    Ok(files)
}

/// `analysis.json`: the manifest and the whole result.
pub fn write_analysis_json(w: &mut dyn Write, manifest: &serde_json::Value, result: &AnalysisResult) -> io::Result<()> {
    let output = serde_json::json!({ "manifest": manifest, "result": result });
    serde_json::to_writer_pretty(&mut *w, &output).map_err(io::Error::other)?;
    writeln!(w)
}
