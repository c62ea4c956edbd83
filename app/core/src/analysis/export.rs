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
#[path = "export_tests.rs"]
mod tests;
