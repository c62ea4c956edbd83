//! The WMT `ad-*` files, the p-value and difference matrices, clusters, the unreliable-worker
//! list and the whole result as JSON.

use super::*;

/// The standardised judgment file of one (task, language pair), as WMT released
/// `ad-<srctgt>-good-stnd.csv` (Graham's `standardize-scrs.pl`): the Graham/MTurk judgment
/// layout (`HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time`,
/// tab-separated) with `score` replaced by the judgment's z, only the judgments of workers kept
/// by quality control and standardised (σ > 0); `time` is the HIT's seconds, `rid` is not
/// known to Assay (`NA`). Every item type is written, as Graham's file has them. Returns the
/// rows written.
pub fn write_good_stnd(w: impl Write, set: &JudgmentSet, result: &AnalysisResult, task: u16, lang_pair: u16) -> io::Result<usize> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    write_good_stnd_in(w, set, result, task, lang_pair, threads)
}

/// [`write_good_stnd`] with its lines formatted on `threads` threads.
pub(super) fn write_good_stnd_in(mut w: impl Write, set: &JudgmentSet, result: &AnalysisResult, task: u16, lang_pair: u16, threads: usize) -> io::Result<usize> {
    use crate::analysis::FxMap;
    // (worker, task, language pair) → (μ, σ) of those kept.
    let kept: std::collections::HashSet<(u32, u16)> =
        result.workers.iter().filter(|q| !result.settings.exclusion.excludes(q)).map(|q| (q.worker, q.task)).collect();
    let z: FxMap<(u32, u16, u16), (f64, f64)> = result
        .standardization
        .iter()
        .filter(|s| s.excluded.is_none() && kept.contains(&(s.worker, s.task)))
        .filter_map(|s| s.sd.filter(|sd| *sd > 0.0).map(|sd| ((s.worker, s.task, s.lang_pair), (s.mean, sd))))
        .collect();
    // A HIT's seconds: the record's own when the set has HIT times, else the sum over the HIT.
    let mut hit_seconds: FxMap<(u32, u32), f64> = FxMap::default();
    if set.time_basis == TimeBasis::PerItem {
        for j in set.records.iter().filter(|j| j.task == task && j.lang_pair == lang_pair) {
            *hit_seconds.entry((j.worker, j.hit)).or_default() += f64::from(j.seconds);
        }
    }
    let pair = &set.lang_pairs.names()[lang_pair as usize];
    let (src, trg) = pair.split_once('-').unwrap_or((pair.as_str(), ""));
    let item = &set.tasks.names()[task as usize];
    writeln!(w, "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time")?;
    // The lines of `records`, appended to `out`; the number written.
    let lines = |records: &[crate::analysis::Judgment], out: &mut String| -> usize {
        use std::fmt::Write as _;
        let mut rows = 0;
        for j in records.iter().filter(|j| j.task == task && j.lang_pair == lang_pair) {
            let Some(&(mean, sd)) = z.get(&(j.worker, j.task, j.lang_pair)) else { continue };
            let hit = set.hits.name(j.hit);
            let seconds = hit_seconds.get(&(j.worker, j.hit)).copied().unwrap_or(f64::from(j.seconds));
            let _ = write!(
                out,
                "{hit}\t{}\t{src}\t{trg}\t{item}\t{hit}\t{}\tNA\t{}\t{}\t",
                set.workers.name(j.worker),
                set.systems.name(j.system),
                graham_type(j.item_type),
                set.segments.name(j.segment),
            );
            write_r_number(out, (j.score - mean) / sd, 15);
            out.push('\t');
            write_r_number(out, seconds, 15);
            out.push('\n');
            rows += 1;
        }
        rows
    };
    // A million lines: formatted a batch at a time, the batch split among the cores, and
    // written in order (memory: one batch of text).
    const BATCH: usize = 1 << 16;
    let threads = threads.max(1);
    let mut texts: Vec<String> = vec![String::new(); threads];
    let lines = &lines;
    let mut rows = 0;
    for batch in set.records.chunks(BATCH * threads) {
        let share = batch.len().div_ceil(threads).max(1);
        if threads == 1 || batch.len() < 4096 {
            texts[0].clear();
            rows += lines(batch, &mut texts[0]);
            w.write_all(texts[0].as_bytes())?;
            continue;
        }
        rows += std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .chunks(share)
                .zip(texts.iter_mut())
                .map(|(part, text)| {
                    text.clear();
                    s.spawn(move || lines(part, text))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a line writer panicked")).sum::<usize>()
        });
        for text in &texts[..batch.len().div_ceil(share)] {
            w.write_all(text.as_bytes())?;
        }
    }
    Ok(rows)
}

/// Graham's name of an item type.
pub(super) fn graham_type(t: ItemType) -> &'static str {
    match t {
        ItemType::System => "SYSTEM",
        ItemType::BadRef => "BAD_REF",
        ItemType::Repeat => "REPEAT",
        ItemType::Ref => "REF",
    }
}

/// One line of the WMT `ad-*` tables: every field followed by a space, as Graham's R scripts
/// write them.
fn write_spaced_line<const N: usize>(w: &mut impl Write, fields: [&dyn std::fmt::Display; N]) -> io::Result<()> {
    for f in fields {
        write!(w, "{f} ")?;
    }
    writeln!(w)
}

/// The one row writer of the `ad-*` score tables: `header` (when the file has one), then a line
/// per row of `rows`, its fields as `fields` gives them.
fn write_spaced_rows<T, const N: usize>(
    mut w: impl Write,
    header: Option<[&str; N]>,
    rows: impl IntoIterator<Item = T>,
    fields: impl Fn(T) -> [String; N],
) -> io::Result<()> {
    if let Some(h) = header {
        write_spaced_line(&mut w, h.each_ref().map(|f| f as &dyn std::fmt::Display))?;
    }
    for row in rows {
        let cells = fields(row);
        write_spaced_line(&mut w, cells.each_ref().map(|f| f as &dyn std::fmt::Display))?;
    }
    Ok(())
}

/// `ad-seg-scores-<s>-<t>.csv`: `SYS SID RAW.SCR Z.SCR N`.
pub fn write_ad_seg_scores(w: impl Write, names: &Names, group: &GroupResult) -> io::Result<()> {
    write_spaced_rows(w, Some(["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]), &group.segments, |s| {
        [
            names.systems[s.system as usize].clone(),
            names.segments[s.segment as usize].clone(),
            r_number(s.raw, 15),
            r_number(s.z, 15),
            s.n.to_string(),
        ]
    })
}

/// `ad-sys-scores-<lp>.csv`: `RAW.SCR Z.SCR N SYS N.ALL`, N = segments, N.ALL = judgments.
pub fn write_ad_sys_scores(w: impl Write, names: &Names, group: &GroupResult) -> io::Result<()> {
    write_spaced_rows(w, Some(["RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL"]), &group.systems, |s| {
        [r_number(s.raw, 15), r_number(s.z, 15), s.n_segments.to_string(), names.systems[s.system as usize].clone(), s.n_judgments.to_string()]
    })
}

/// `ad-sys-ranking-<lp>-z.csv`: `RAW Z N N.ALL SYS`, no header, best z first, raw rounded to
/// 1 decimal and z to 3.
pub fn write_ad_sys_ranking(w: impl Write, names: &Names, group: &GroupResult) -> io::Result<()> {
    write_spaced_rows(w, None, &group.systems, |s| {
        [
            r_number(round_to(s.raw, 1), 7),
            r_number(round_to(s.z, 3), 7),
            s.n_segments.to_string(),
            s.n_judgments.to_string(),
            names.systems[s.system as usize].clone(),
        ]
    })
}

/// `ad-wrkr-stats.csv`. Columns a judgment file cannot give are written `NA`:
/// `mean.concurrent` and `max.concurrent` (need HIT start and end times; Graham's files have
/// durations only), `reject.rate` (an MTurk decision); `reject.flag` is `-`.
/// `flag(scrs)`: mean(bad) ≥ mean(original); `flag(time)`: a HIT under the floor;
/// `flag(seq)`: a run of identical scores over the limit. Means are rounded to 1 decimal.
pub fn write_ad_wrkr_stats<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    writeln!(
        w,
        "wid hit.count mean.bad.ref mean.sys.out mean.ref min.hit.time mean.hit.time mean.concurrent \
         max.concurrent max.const.seq.len reject.rate scores.flag time.flag seq.flag reject.flag "
    )?;
    let num = |v: Option<f64>| r_number(v.map_or(f64::NAN, |x| round_to(x, 1)), 7);
    for q in workers {
        let f = &q.figures;
        writeln!(
            w,
            "{} {} {} {} {} {} {} NA NA {} NA {} {} {} - ",
            names.workers[q.worker as usize],
            q.hits,
            num(f.mean_bad_ref),
            num(f.mean_system),
            num(f.mean_ref),
            num(f.min_hit_seconds),
            num(f.mean_hit_seconds),
            f.longest_identical_run,
            if q.flags.bad_not_lower {
                "flag(scrs)"
            } else {
                "-"
            },
            if q.flags.fast_hits > 0 {
                "flag(time)"
            } else {
                "-"
            },
            if q.flags.long_identical_run {
                "flag(seq)"
            } else {
                "-"
            },
        )?;
    }
    Ok(())
}

/// `ad-trk-stats.csv`: `wid p t n` per worker, tab-separated, no header: the reliability
/// test's one-sided p, statistic and number of pairs. As in Graham's R script the t statistic
/// is that of (bad reference − original), so reliable workers have negative t; a signed-rank
/// statistic (W⁺ of original − bad) is written as is. `NA` where the test could not run.
pub fn write_ad_trk_stats<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    use crate::analysis::quality::QcTest;
    let na = |v: Option<f64>| v.map_or("NA".to_string(), |x| r_number(x, 7));
    for q in workers {
        let r = &q.reliability;
        let t = match r.test {
            QcTest::PairedT => r.statistic.map(|t| -t),
            QcTest::SignedRank | QcTest::Sign => r.statistic,
        };
        writeln!(
            w,
            "{}\t{}\t{}\t{}",
            names.workers[q.worker as usize],
            na(r.p_value),
            na(t),
            r.n_pairs
        )?;
    }
    Ok(())
}

/// The unreliable-annotator list (WMT23 `unreliable_annotators.txt`): one worker name per line,
/// for every worker whose reliability verdict is not a pass.
pub fn write_unreliable_workers<'a>(
    mut w: impl Write,
    names: &Names,
    workers: impl IntoIterator<Item = &'a WorkerQc>,
) -> io::Result<()> {
    for q in workers {
        if q.reliability.verdict != crate::analysis::quality::Verdict::Pass {
            writeln!(w, "{}", names.workers[q.worker as usize])?;
        }
    }
    Ok(())
}

/// How the Wilcoxon p-value matrix marks cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WilcoxonMatrixStyle {
    /// Written for cells not tested or not shown (the WMT files use 0.12).
    pub filler: f64,
    /// Show only p < α (WMT22: non-significant cells carry the filler).
    pub significant_only: bool,
    /// Show only cells above the diagonal (row ranked above column), as WMT22 does.
    pub upper_only: bool,
}

impl Default for WilcoxonMatrixStyle {
    fn default() -> Self {
        WilcoxonMatrixStyle {
            filler: 0.12,
            significant_only: true,
            upper_only: true,
        }
    }
}

/// A matrix over a comparison's systems (the p-values, the differences): a header of their
/// names led by a space, then a row per system, its name and `cell(row, column, p)` of every
/// system, ending with `end`.
fn write_system_matrix(
    mut w: impl Write,
    names: &Names,
    cmp: &Comparison,
    end: &str,
    cell: impl Fn(usize, usize, Option<f64>) -> String,
) -> io::Result<()> {
    let sys = |s: &u32| names.systems[*s as usize].as_str();
    writeln!(w, " {}", cmp.systems.iter().map(sys).collect::<Vec<_>>().join(" "))?;
    for (i, row) in cmp.p_values.iter().enumerate() {
        let cells: Vec<String> = row.iter().enumerate().map(|(j, p)| cell(i, j, *p)).collect();
        writeln!(w, "{} {}{end}", sys(&cmp.systems[i]), cells.join(" "))?;
    }
    Ok(())
}

/// `adwilcox-<lp>.csv`: a header of system names (led by a space), then one row per system:
/// name and the one-sided p-values of "row better than column".
pub fn write_wilcoxon_matrix(w: impl Write, names: &Names, cmp: &Comparison, style: WilcoxonMatrixStyle) -> io::Result<()> {
    write_system_matrix(w, names, cmp, "", |i, j, p| {
        let shown = match p {
            Some(p) if !(style.upper_only && j <= i || style.significant_only && p >= cmp.alpha) => p,
            _ => style.filler,
        };
        r_number(shown, 15)
    })
}

/// `ad-DA-diff-wilcoxon-rs-<lp>.csv`: mean z of row minus column (2 decimals), marked `*`,
/// `**`, `***` where the row is better at p < 0.05, 0.01, 0.001; `-` on the diagonal.
pub fn write_difference_matrix(w: impl Write, names: &Names, cmp: &Comparison) -> io::Result<()> {
    write_system_matrix(w, names, cmp, "  ", |i, j, p| {
        if i == j {
            return "-".to_string();
        }
        let stars = match p {
            Some(p) if p < 0.001 => "***",
            Some(p) if p < 0.01 => "**",
            Some(p) if p < 0.05 => "*",
            _ => "",
        };
        format!("{}{stars}", r_number(round_to(cmp.mean_z[i] - cmp.mean_z[j], 2), 7))
    })
}

/// `clusters.csv`: `SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM`, one
/// block per language pair (named `src-trg`; split at the first `-`).
pub fn write_clusters_csv<'a>(
    mut w: impl Write,
    names: &Names,
    comparisons: impl IntoIterator<Item = (u16, &'a Comparison)>,
) -> io::Result<()> {
    writeln!(
        w,
        "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM"
    )?;
    for (pair, cmp) in comparisons {
        let pair = &names.lang_pairs[pair as usize];
        let (src, trg) = pair.split_once('-').unwrap_or((pair.as_str(), ""));
        for (i, r) in cmp.ranks.iter().enumerate() {
            let c = &cmp.clusters[r.cluster];
            writeln!(
                w,
                "{src} {trg} {} {} {} {} {} {}",
                r.wins,
                cmp.systems.len(),
                c.start,
                c.end,
                if i + 1 == c.end { "True" } else { "False" },
                names.systems[r.system as usize]
            )?;
        }
    }
    Ok(())
}

/// The whole result as pretty-printed JSON.
pub fn write_json(w: impl Write, result: &AnalysisResult) -> io::Result<()> {
    serde_json::to_writer_pretty(w, result).map_err(io::Error::other)
}
