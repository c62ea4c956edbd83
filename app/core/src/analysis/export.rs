//! Writers for the score files metric developers consume (`reference/anchors.md`, "Public data
//! formats worth being compatible with"). Like [`super::formats`], they take `impl Write`.
//!
//! - mt-metrics-eval `human-scores/SRC-TGT.NAME.sys.score`: `SYSNAME SCORE` per line;
//!   `SRC-TGT.NAME.seg.score`: one block per system (systems by name), one line
//!   `SYSNAME SCORE` per segment in test-set order, `None` where the system has no judgment
//!   of that segment.
//! - WMT metrics-task `DA-seglevel.csv`: space-separated `LP DATA SYSTEM SID SCORE` with that
//!   header; `DA-syslevel.csv`: `LP SCORE SYSTEM`. Scores are mean z-scores.

use std::io::{self, Write};

use super::{GroupResult, Names};

/// Which of a system's or segment's scores a file carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    Raw,
    Z,
}

impl ScoreKind {
    pub fn suffix(self) -> &'static str {
        match self {
            ScoreKind::Raw => "raw",
            ScoreKind::Z => "z",
        }
    }
}

/// Segment ids in test-set order when only their names are known (a judgment file): numeric
/// order if every name is an integer, otherwise order of first appearance.
pub fn test_set_order(segments: &[String]) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..segments.len() as u32).collect();
    let numbers: Option<Vec<i64>> = segments.iter().map(|s| s.trim().parse().ok()).collect();
    if let Some(numbers) = numbers {
        ids.sort_by_key(|&i| numbers[i as usize]);
    }
    ids
}

/// The segments of `order` that some system of `group` was judged on, in that order.
pub fn judged_segments(group: &GroupResult, order: &[u32], n_segments: usize) -> Vec<u32> {
    let mut seen = vec![false; n_segments];
    for s in &group.segments {
        if let Some(flag) = seen.get_mut(s.segment as usize) {
            *flag = true;
        }
    }
    order
        .iter()
        .copied()
        .filter(|&s| seen.get(s as usize).copied().unwrap_or(false))
        .collect()
}

fn systems_by_name<'a>(names: &Names, group: &'a GroupResult) -> Vec<&'a super::SystemScore> {
    let mut v: Vec<&super::SystemScore> = group.systems.iter().collect();
    v.sort_by(|a, b| names.systems[a.system as usize].cmp(&names.systems[b.system as usize]));
    v
}

/// mt-metrics-eval `SRC-TGT.NAME.sys.score`.
pub fn write_mme_sys_scores(
    mut w: impl Write,
    names: &Names,
    group: &GroupResult,
    kind: ScoreKind,
) -> io::Result<()> {
    for s in systems_by_name(names, group) {
        let v = match kind {
            ScoreKind::Raw => s.raw,
            ScoreKind::Z => s.z,
        };
        writeln!(w, "{}\t{v}", names.systems[s.system as usize])?;
    }
    Ok(())
}

/// mt-metrics-eval `SRC-TGT.NAME.seg.score`: a block per system (by name), one line per
/// segment of `segment_order`, `None` where the system was not judged on it.
pub fn write_mme_seg_scores(
    mut w: impl Write,
    names: &Names,
    group: &GroupResult,
    segment_order: &[u32],
    kind: ScoreKind,
) -> io::Result<()> {
    // group.segments is sorted by system, then segment id.
    for sys in systems_by_name(names, group) {
        let start = group.segments.partition_point(|s| s.system < sys.system);
        let end = group.segments.partition_point(|s| s.system <= sys.system);
        let cells = &group.segments[start..end];
        let name = &names.systems[sys.system as usize];
        for &seg in segment_order {
            match cells.binary_search_by_key(&seg, |c| c.segment) {
                Ok(k) => {
                    let v = match kind {
                        ScoreKind::Raw => cells[k].raw,
                        ScoreKind::Z => cells[k].z,
                    };
                    writeln!(w, "{name}\t{v}")?;
                }
                Err(_) => writeln!(w, "{name}\tNone")?,
            }
        }
    }
    Ok(())
}

/// WMT metrics-task `DA-seglevel.csv`: `LP DATA SYSTEM SID SCORE` (mean z of the segment).
pub fn write_da_seglevel<'a>(
    mut w: impl Write,
    names: &Names,
    data: &str,
    groups: impl IntoIterator<Item = &'a GroupResult>,
) -> io::Result<()> {
    writeln!(w, "LP DATA SYSTEM SID SCORE")?;
    for g in groups {
        let lp = &names.lang_pairs[g.lang_pair as usize];
        for s in &g.segments {
            writeln!(
                w,
                "{lp} {data} {} {} {}",
                names.systems[s.system as usize], names.segments[s.segment as usize], s.z
            )?;
        }
    }
    Ok(())
}

/// WMT metrics-task `DA-syslevel.csv`: `LP SCORE SYSTEM` (mean z of the system).
pub fn write_da_syslevel<'a>(
    mut w: impl Write,
    names: &Names,
    groups: impl IntoIterator<Item = &'a GroupResult>,
) -> io::Result<()> {
    writeln!(w, "LP SCORE SYSTEM")?;
    for g in groups {
        let lp = &names.lang_pairs[g.lang_pair as usize];
        for s in &g.systems {
            writeln!(w, "{lp} {} {}", s.z, names.systems[s.system as usize])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{
        AnalysisSettings, ComparisonUnit, JudgmentNames, JudgmentSet, TimeBasis, analyse,
    };
    use crate::model::ItemType;

    #[test]
    fn numeric_segment_names_sort_numerically() {
        let names: Vec<String> = ["10", "2", "1"].iter().map(|s| s.to_string()).collect();
        assert_eq!(test_set_order(&names), vec![2, 1, 0]);
        let names: Vec<String> = ["b", "a", "3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(test_set_order(&names), vec![0, 1, 2]);
    }

    /// Two systems, one worker; system B is missing segment 2.
    #[test]
    fn score_files_have_one_line_per_system_and_segment_with_none_for_gaps() {
        let mut set = JudgmentSet::new(TimeBasis::PerHit);
        let rows = [("A", "1", 80.0), ("A", "2", 60.0), ("B", "1", 40.0), ("B", "1", 30.0)];
        for (sys, seg, score) in rows {
            set.push(
                JudgmentNames {
                    worker: "w",
                    hit: "h",
                    system: sys,
                    segment: seg,
                    lang_pair: "de-en",
                    task: "ad",
                },
                ItemType::System,
                score,
                500.0,
            );
        }
        let settings = AnalysisSettings {
            exclusion: crate::analysis::ExclusionPolicy::None,
            bootstrap: None,
            ..AnalysisSettings::default()
        };
        assert_eq!(settings.comparison.unit, ComparisonUnit::Judgments);
        let r = analyse(&set, &settings);
        let g = &r.groups[0];
        let order = test_set_order(&r.names.segments);
        let judged = judged_segments(g, &order, r.names.segments.len());
        assert_eq!(judged, vec![0, 1]);

        let mut out = Vec::new();
        write_mme_seg_scores(&mut out, &r.names, g, &judged, ScoreKind::Raw).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "A\t80\nA\t60\nB\t35\nB\tNone\n");

        let mut out = Vec::new();
        write_mme_sys_scores(&mut out, &r.names, g, ScoreKind::Raw).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "A\t70\nB\t35\n");

        // z: mean 52.5, sd of (80, 60, 40, 30).
        let sd = ((27.5f64.powi(2) + 7.5f64.powi(2) + 12.5f64.powi(2) + 22.5f64.powi(2)) / 3.0).sqrt();
        let mut out = Vec::new();
        write_da_syslevel(&mut out, &r.names, &r.groups).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "LP SCORE SYSTEM");
        let a: Vec<&str> = lines[1].split(' ').collect();
        assert_eq!((a[0], a[2]), ("de-en", "A"));
        assert!((a[1].parse::<f64>().unwrap() - (17.5 / sd)).abs() < 1e-12);

        let mut out = Vec::new();
        write_da_seglevel(&mut out, &r.names, "test2026", &r.groups).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "LP DATA SYSTEM SID SCORE");
        assert_eq!(lines.len(), 4);
        let b: Vec<&str> = lines[3].split(' ').collect();
        assert_eq!(&b[..4], &["de-en", "test2026", "B", "1"]);
        assert!((b[4].parse::<f64>().unwrap() - (-17.5 / sd)).abs() < 1e-12);
    }
}
