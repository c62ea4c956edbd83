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

/// A computed file that could not be written: which, and why.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// The file (or an archive's entry) could not be created.
    #[error("cannot create {file}: {source}")]
    Create { file: String, source: io::Error },
    /// Writing the file's contents failed.
    #[error("cannot write {file}: {source}")]
    Write { file: String, source: io::Error },
    /// What the file should hold cannot be written in its format (`problem` says what and
    /// where: a span without a category has no MQM TSV row).
    #[error("{file}: {problem}")]
    Content { file: String, problem: String },
    /// The archive the files go into failed (`what` says how).
    #[error("cannot write the archive: {what}")]
    Archive { what: String },
}

/// Where computed files go.
pub trait FileSink {
    /// Writes one file called `name` with `write`.
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), SinkError>;
}

/// Takes no file: [`FileSink`] calls into it give the files' names alone, none computed.
pub struct NamesOnly;

impl FileSink for NamesOnly {
    fn file(&mut self, _: &str, _: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), SinkError> {
        Ok(())
    }
}

/// Writes each file into the directory `dir` (created or replaced, buffered), one at a time:
/// none is held in memory (the standardized judgments are a line per judgment).
pub struct DirSink<'a> {
    pub dir: &'a std::path::Path,
    /// Told each file's name and the milliseconds it took to write (a log).
    pub written: Option<&'a dyn Fn(&str, u128)>,
}

impl FileSink for DirSink<'_> {
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), SinkError> {
        let path = self.dir.join(name);
        let file = std::fs::File::create(&path).map_err(|source| SinkError::Create { file: path.display().to_string(), source })?;
        let mut w = io::BufWriter::new(file);
        let started = std::time::Instant::now();
        write(&mut w).and_then(|_| w.flush()).map_err(|source| SinkError::Write { file: path.display().to_string(), source })?;
        if let Some(told) = self.written {
            told(name, started.elapsed().as_millis());
        }
        Ok(())
    }
}

/// Writes only the file of one name (and nothing else) into a buffer.
pub struct OneFile<'a> {
    pub want: &'a str,
    pub found: Option<Vec<u8>>,
}

impl FileSink for OneFile<'_> {
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<(), SinkError> {
        if name == self.want {
            let mut buf = Vec::new();
            write(&mut buf).map_err(|source| SinkError::Write { file: name.to_string(), source })?;
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
    /// At least the threshold (the default, mt-metrics-eval's) or more than it.
    pub darr_rule: export::DarrRule,
}

/// Writes every computed file; returns their names in order. With the judgments the result
/// was computed from, also the standardised judgment file of each (task, language pair),
/// `ad-<srctgt>-good-stnd.csv` ([`formats::write_good_stnd`]).
pub fn write_result_files(
    sink: &mut dyn FileSink,
    result: &AnalysisResult,
    set: Option<&JudgmentSet>,
    o: &BundleOptions<'_>,
) -> Result<Vec<String>, SinkError> {
    let names = &result.names;
    let mut files = Vec::new();
    let several_tasks = names.tasks.len() > 1;
    // File-name suffix of a group: the language pair, led by the task when there are several.
    let label = |g: &GroupResult| {
        let lp = &names.lang_pairs[g.lang_pair as usize];
        if several_tasks { format!("{}.{lp}", names.tasks[g.task as usize]) } else { lp.clone() }
    };
    let mut put = |sink: &mut dyn FileSink, name: String, f: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>| -> Result<(), SinkError> {
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
            export::write_darr_seglevel(w, names, o.name, &order, &result.groups, o.darr_threshold, o.darr_rule)
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
) -> Result<Vec<String>, SinkError> {
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

/// `analysis.json`: the manifest and the whole result, pretty, every object's keys in
/// alphabetical order (as `serde_json` writes a [`serde_json::Value`]). Written part by part: the
/// result made into one value first took about 80 MB for 10,000 workers (a 14 MB file), on top
/// of an export's other memory. Each top-level part, and each element of the long lists, is
/// made into a value of its own, so the bytes are those of the whole made into one value.
pub fn write_analysis_json(w: &mut dyn Write, manifest: &serde_json::Value, result: &AnalysisResult) -> io::Result<()> {
    // Every field, by name (a field added to the result and not written here does not compile).
    let AnalysisResult {
        settings,
        names,
        judgments,
        judgments_excluded,
        judgments_unstandardised,
        judgments_scored,
        workers,
        standardization,
        groups,
    } = result;
    w.write_all(b"{\n  \"manifest\": ")?;
    write_pretty_at(w, 1, manifest)?;
    w.write_all(b",\n  \"result\": {")?;
    // The keys in the order a value's map keeps them (alphabetical).
    let fields: [(&str, &dyn Fn(&mut dyn Write) -> io::Result<()>); 9] = [
        ("groups", &|w| write_pretty_list_at(w, 2, groups)),
        ("judgments", &|w| write_pretty_at(w, 2, judgments)),
        ("judgments_excluded", &|w| write_pretty_at(w, 2, judgments_excluded)),
        ("judgments_scored", &|w| write_pretty_at(w, 2, judgments_scored)),
        ("judgments_unstandardised", &|w| write_pretty_at(w, 2, judgments_unstandardised)),
        ("names", &|w| write_pretty_at(w, 2, names)),
        ("settings", &|w| write_pretty_at(w, 2, settings)),
        ("standardization", &|w| write_pretty_list_at(w, 2, standardization)),
        ("workers", &|w| write_pretty_list_at(w, 2, workers)),
    ];
    for (k, (key, write)) in fields.iter().enumerate() {
        w.write_all(if k == 0 { b"\n    \"" } else { b",\n    \"" })?;
        w.write_all(key.as_bytes())?;
        w.write_all(b"\": ")?;
        write(w)?;
    }
    w.write_all(b"\n  }\n}\n")
}

/// `value` as `serde_json` writes it pretty when nested `level` deep (its lines after the first
/// indented by two spaces a level: a line break inside a JSON string is always escaped).
fn write_pretty_at(w: &mut dyn Write, level: usize, value: &impl serde::Serialize) -> io::Result<()> {
    let text = serde_json::to_vec_pretty(&serde_json::to_value(value).map_err(io::Error::other)?).map_err(io::Error::other)?;
    let indent = "  ".repeat(level);
    for (k, line) in text.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            w.write_all(b"\n")?;
            w.write_all(indent.as_bytes())?;
        }
        w.write_all(line)?;
    }
    Ok(())
}

/// A list as [`write_pretty_at`] writes it, made into a value an element at a time.
fn write_pretty_list_at<T: serde::Serialize>(w: &mut dyn Write, level: usize, items: &[T]) -> io::Result<()> {
    if items.is_empty() {
        return w.write_all(b"[]");
    }
    let inner = "  ".repeat(level + 1);
    w.write_all(b"[")?;
    for (k, item) in items.iter().enumerate() {
        w.write_all(if k == 0 { b"\n" } else { b",\n" })?;
        w.write_all(inner.as_bytes())?;
        write_pretty_at(w, level + 1, item)?;
    }
    w.write_all(b"\n")?;
    w.write_all("  ".repeat(level).as_bytes())?;
    w.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{AnalysisSettings, JudgmentNames, JudgmentSet, TimeBasis, analyse};
    use crate::model::ItemType;

    /// The file as it was written before: the whole made into one value.
    fn as_one_value(manifest: &serde_json::Value, result: &AnalysisResult) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(&serde_json::json!({ "manifest": manifest, "result": result })).unwrap();
        out.push(b'\n');
        out
    }

    #[test]
    fn analysis_json_written_in_parts_is_the_whole_as_one_value() {
        // Three workers (one careless), two systems, bad references; names with quotes, line
        // breaks and non-ASCII text.
        let mut set = JudgmentSet::new(TimeBasis::PerItem);
        for (w, careless) in [("w\"1", false), ("w\n2", false), ("wörker 3", true)] {
            for seg in 0..12 {
                let segment = format!("s{seg}");
                for (system, base) in [("A", 70.0), ("B", 45.0)] {
                    let score = if careless { 50.0 + (seg % 3) as f64 } else { base + (seg % 5) as f64 * 3.0 };
                    set.push(JudgmentNames { worker: w, hit: "h1", system, segment: &segment, lang_pair: "de-en", task: "ad", scale: crate::report::Scale::Continuous }, ItemType::System, score, 4.5);
                }
                let bad = if careless { 51.0 } else { 20.0 + seg as f64 };
                set.push(JudgmentNames { worker: w, hit: "h1", system: "A", segment: &segment, lang_pair: "de-en", task: "ad", scale: crate::report::Scale::Continuous }, ItemType::BadRef, bad, 3.0);
            }
        }
        let settings = AnalysisSettings { bootstrap: Some(crate::analysis::BootstrapSettings { samples: 50, ..Default::default() }), ..AnalysisSettings::default() };
        let manifest = serde_json::json!({ "b": [1, {"z": null, "a": "x\ny"}], "a": [], "c": {} });
        for result in [analyse(&set, &settings), analyse(&JudgmentSet::new(TimeBasis::PerItem), &settings)] {
            let mut parts = Vec::new();
            write_analysis_json(&mut parts, &manifest, &result).unwrap();
            assert_eq!(String::from_utf8(parts).unwrap(), String::from_utf8(as_one_value(&manifest, &result)).unwrap());
        }
        assert!(!analyse(&set, &settings).workers.is_empty() && !analyse(&set, &settings).groups.is_empty());
    }
}
