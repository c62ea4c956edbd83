//! Writers for the score files metric developers consume (`reference/anchors.md`, "Public data
//! formats worth being compatible with"). Like [`super::formats`], they take `impl Write`.
//!
//! - mt-metrics-eval `human-scores/SRC-TGT.NAME.sys.score`: `SYSNAME SCORE` per line;
//!   `SRC-TGT.NAME.seg.score`: one block per system (systems by name), one line
//!   `SYSNAME SCORE` per segment in test-set order, `None` where the system has no judgment
//!   of that segment.
//! - WMT metrics-task `DA-seglevel.csv`: space-separated `LP DATA SYSTEM SID SCORE` with that
//!   header; `DA-syslevel.csv`: `LP SCORE SYSTEM`. Scores are mean z-scores.
//! - WMT metrics-task `DArr-seglevel.csv` (WMT 2017–2019; `RR-seglevel.csv` in some packages):
//!   DA turned into relative-ranking pairs, space-separated `LP DATA SID BETTER WORSE` with that
//!   header ([`darr_pairs`], [`write_darr_seglevel`]).

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

/// WMT's threshold for DA relative-ranking pairs: two outputs of the same source form a pair
/// when their DA scores differ by at least 25 points (0–100 scale; [`DarrRule`] says whether
/// "at least", the default, or "more than").
pub const DARR_THRESHOLD: f64 = 25.0;

/// Which pairs of outputs make a DArr pair, in the exports' `DArr-seglevel.csv`
/// ([`darr_pairs`]) and in the meta-evaluation's DArr Kendall-like τ
/// (`metrics::meta::darr_kendall`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DarrRule {
    /// |Δhuman| ≥ threshold: WMT's and mt-metrics-eval's `KendallLike` (the default).
    #[default]
    AtLeast,
    /// |Δhuman| > threshold: Assay's reading before December 2026.
    Over,
}

impl DarrRule {
    pub const ALL: [DarrRule; 2] = [DarrRule::AtLeast, DarrRule::Over];

    pub fn name(self) -> &'static str {
        match self {
            DarrRule::AtLeast => "at-least",
            DarrRule::Over => "over",
        }
    }

    pub fn parse(name: &str) -> Option<DarrRule> {
        DarrRule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether a human difference `dh` makes a pair.
    pub fn counts(self, dh: f64, threshold: f64) -> bool {
        match self {
            DarrRule::AtLeast => dh.abs() >= threshold,
            DarrRule::Over => dh.abs() > threshold,
        }
    }
}

/// One DA relative-ranking pair: on `segment`, the output of `better` was scored more than the
/// threshold above the output of `worse` (ids as given to [`darr_pairs`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DarrPair {
    pub segment: u32,
    pub better: u32,
    pub worse: u32,
    /// The two outputs' mean raw scores.
    pub better_score: f64,
    pub worse_score: f64,
}

/// DA turned into relative-ranking pairs ("daRR", WMT 2017–2019 metrics tasks), for one
/// language pair: from DA judgments `(segment, system, raw score)` of the same task, the mean
/// raw score of each output (system, segment) — what WMT's `ad-seg-scores` files hold and its
/// DA-to-RR script reads — and then, for every two outputs of the same segment, a pair
/// (better, worse) when their means differ by at least `threshold` ([`DarrRule::AtLeast`], the
/// default: WMT 2020's script and mt-metrics-eval; WMT: 25) or by more than it
/// ([`DarrRule::Over`]: the papers' "greater than the 25 percentage point margin", Assay's
/// reading before December 2026); equal means never make a pair. Pairs come by segment id, then
/// by system ids (the lower id's pairs first). Judgments with a score that is not a number are
/// ignored.
pub fn darr_pairs(judgments: impl IntoIterator<Item = (u32, u32, f64)>, threshold: f64, rule: DarrRule) -> Vec<DarrPair> {
    // (segment, system) → (sum, count)
    let mut sums: std::collections::BTreeMap<(u32, u32), (f64, usize)> = std::collections::BTreeMap::new();
    for (segment, system, score) in judgments {
        if score.is_nan() {
            continue;
        }
        let e = sums.entry((segment, system)).or_insert((0.0, 0));
        e.0 += score;
        e.1 += 1;
    }
    let outputs: Vec<(u32, u32, f64)> = sums.into_iter().map(|((seg, sys), (sum, n))| (seg, sys, sum / n as f64)).collect();
    let mut pairs = Vec::new();
    for same in outputs.chunk_by(|a, b| a.0 == b.0) {
        for (i, &(segment, a, sa)) in same.iter().enumerate() {
            for &(_, b, sb) in &same[i + 1..] {
                if sa != sb && rule.counts(sa - sb, threshold) {
                    let ((better, better_score), (worse, worse_score)) = if sa > sb { ((a, sa), (b, sb)) } else { ((b, sb), (a, sa)) };
                    pairs.push(DarrPair { segment, better, worse, better_score, worse_score });
                }
            }
        }
    }
    pairs
}

/// Whether an analysis task's scores are on DA's 0–100 scale, the scale DArr is defined on:
/// its protocol's question says so ([`crate::protocol::raw_range`]; a DA file's own task name
/// is DA's).
pub fn is_da_task(task: &str) -> bool {
    crate::protocol::raw_range(task) == crate::protocol::RawRange::Percent
}

/// WMT metrics-task `DArr-seglevel.csv`: the header `LP DATA SID BETTER WORSE`, then one line
/// per pair of [`darr_pairs`] over each DA group's segment scores (mean raw score per output of
/// the workers the analysis kept, as `ad-seg-scores`), segments in `segment_order` (test-set
/// order), `DATA` the test set's name. Groups of other tasks are skipped.
pub fn write_darr_seglevel<'a>(
    mut w: impl Write,
    names: &Names,
    data: &str,
    segment_order: &[u32],
    groups: impl IntoIterator<Item = &'a GroupResult>,
    threshold: f64,
    rule: DarrRule,
) -> io::Result<()> {
    writeln!(w, "LP DATA SID BETTER WORSE")?;
    // Position of each segment in the order (segments not in it go last, by id).
    let mut position = vec![usize::MAX; names.segments.len()];
    for (at, &s) in segment_order.iter().enumerate() {
        if let Some(p) = position.get_mut(s as usize) {
            *p = at;
        }
    }
    for g in groups {
        if !is_da_task(&names.tasks[g.task as usize]) {
            continue;
        }
        let lp = &names.lang_pairs[g.lang_pair as usize];
        let mut pairs = darr_pairs(g.segments.iter().map(|s| (s.segment, s.system, s.raw)), threshold, rule);
        pairs.sort_by_key(|p| (position.get(p.segment as usize).copied().unwrap_or(usize::MAX), p.segment));
        for p in pairs {
            writeln!(
                w,
                "{lp} {data} {} {} {}",
                names.segments[p.segment as usize], names.systems[p.better as usize], names.systems[p.worse as usize]
            )?;
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
                    scale: crate::report::Scale::Continuous,
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

    #[test]
    fn darr_pairs_compare_mean_raw_scores_of_outputs_of_one_source() {
        // Segment 1: A 90 (one judgment), B mean 60 (70, 50), C 64, D 30.
        // Segment 2: A 40, B 66 (strictly more than 25 apart only for B − A = 26).
        // Segment 3: one output only.
        let judgments = [
            (1, 0, 90.0),
            (1, 1, 70.0),
            (1, 1, 50.0),
            (1, 2, 64.0),
            (1, 3, 30.0),
            (2, 0, 40.0),
            (2, 1, 66.0),
            (2, 2, 65.0),
            (3, 0, 10.0),
            (1, 2, f64::NAN),
        ];
        let pairs = darr_pairs(judgments, DARR_THRESHOLD, DarrRule::Over);
        let got: Vec<(u32, u32, u32)> = pairs.iter().map(|p| (p.segment, p.better, p.worse)).collect();
        // Seg 1: A–B 30 ✓, A–C 26 ✓, A–D 60 ✓, B–C 4, B–D 30 ✓, C–D 34 ✓. Seg 2: A–B 26 ✓ (B
        // better), A–C exactly 25: not more than 25, B–C 1.
        assert_eq!(got, vec![(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 3), (1, 2, 3), (2, 1, 0)]);
        assert_eq!((pairs[0].better_score, pairs[0].worse_score), (90.0, 60.0));
        // The threshold is a parameter: at 30, only differences above 30.
        let wide: Vec<(u32, u32, u32)> = darr_pairs(judgments, 30.0, DarrRule::Over).iter().map(|p| (p.segment, p.better, p.worse)).collect();
        assert_eq!(wide, vec![(1, 0, 3), (1, 2, 3)]);
        // The default, mt-metrics-eval's: at least 25 apart, so seg 2's A–C at exactly 25 too
        // (C better); at 30, seg 1's A–B and B–D at exactly 30 join.
        assert_eq!(DarrRule::default(), DarrRule::AtLeast);
        let at_least: Vec<(u32, u32, u32)> = darr_pairs(judgments, DARR_THRESHOLD, DarrRule::default()).iter().map(|p| (p.segment, p.better, p.worse)).collect();
        assert_eq!(at_least, vec![(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 3), (1, 2, 3), (2, 1, 0), (2, 2, 0)]);
        let wide: Vec<(u32, u32, u32)> = darr_pairs(judgments, 30.0, DarrRule::AtLeast).iter().map(|p| (p.segment, p.better, p.worse)).collect();
        assert_eq!(wide, vec![(1, 0, 1), (1, 0, 3), (1, 1, 3), (1, 2, 3)]);
        // Equal means never make a pair, even at threshold 0, under either rule.
        for rule in DarrRule::ALL {
            assert!(darr_pairs([(1, 0, 50.0), (1, 1, 50.0)], 0.0, rule).is_empty());
            assert!(darr_pairs([], 25.0, rule).is_empty());
        }
        assert!(is_da_task("da-adequacy") && is_da_task("ad") && !is_da_task("word-order-q1") && !is_da_task("ranking"));
    }

    /// The file from a real analysis: kept workers' mean raw scores per output, test-set order,
    /// `LP DATA SID BETTER WORSE`; an excluded worker's judgments do not count.
    #[test]
    fn darr_seglevel_file_from_an_analysis() {
        let mut set = JudgmentSet::new(TimeBasis::PerHit);
        let mut push = |worker: &str, sys: &str, seg: &str, t: ItemType, score: f64| {
            set.push(JudgmentNames { worker, hit: worker, system: sys, segment: seg, lang_pair: "de-en", task: "ad", scale: crate::report::Scale::Continuous }, t, score, 500.0);
        };
        // Worker g passes (bad references far below their originals); worker r fails.
        for k in 0..8 {
            let seg = (10 + k).to_string();
            push("g", "X", &seg, ItemType::System, 80.0 + k as f64);
            push("g", "X", &seg, ItemType::BadRef, 20.0 + (k * k) as f64);
            push("r", "X", &seg, ItemType::System, 10.0 + 3.0 * k as f64);
            push("r", "X", &seg, ItemType::BadRef, 90.0 - 2.0 * k as f64);
        }
        // Segment "2" and "10": outputs of A, B, C by g; r scores them the other way round.
        for (seg, a, b, c) in [("2", 90.0, 50.0, 70.0), ("10", 20.0, 60.0, 40.0)] {
            push("g", "A", seg, ItemType::System, a);
            push("g", "B", seg, ItemType::System, b);
            push("g", "C", seg, ItemType::System, c);
            push("r", "A", seg, ItemType::System, 100.0 - a);
            push("r", "B", seg, ItemType::System, 100.0 - b);
        }
        let settings = AnalysisSettings { bootstrap: None, ..AnalysisSettings::default() };
        let r = analyse(&set, &settings);
        assert_eq!(r.judgments_excluded, 20, "r is excluded");
        let order = test_set_order(&r.names.segments);
        let mut out = Vec::new();
        write_darr_seglevel(&mut out, &r.names, "newstest2026", &order, &r.groups, DARR_THRESHOLD, DarrRule::default()).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Segment 2 before 10 (numeric order); on 10, X (80) is far above A (20) and C (40) but
        // within 25 of B (60), and B above A; pairs by system id (X, A, B, C) within a segment.
        assert_eq!(
            text,
            "LP DATA SID BETTER WORSE\nde-en newstest2026 2 A B\nde-en newstest2026 10 X A\nde-en newstest2026 10 X C\nde-en newstest2026 10 B A\n"
        );
    }
}
