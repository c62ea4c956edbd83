//! Standardisation (METHOD §5) and segment / system scores.
//!
//! z = (x − μ_w) / σ_w per worker, task and language pair, with the sample standard deviation,
//! over the worker's retained judgments (settings: leave REF items and/or BAD_REF items out of
//! μ and σ; every item still gets a z). A worker whose σ is 0, or who has a single score, cannot
//! be standardised and is left out with that reason.
//!
//! Scores use SYSTEM and REPEAT items (repeats included, EACL 2014). Segment score: mean raw and
//! mean z over the segment's judgments. System score: mean over all judgments, or — setting
//! `average_per_segment` — mean of the segment means. Bootstrap intervals resample segments.

use serde::{Deserialize, Serialize};

use crate::model::ItemType;
use crate::stats::{BootstrapCi, bootstrap_cis};

use super::{AnalysisSettings, ComparisonUnit, FxMap, JudgmentSet};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZSettings {
    /// Leave REF items out of μ and σ (EACL footnote 4: optional).
    pub exclude_ref: bool,
    /// Leave BAD_REF items out of μ and σ.
    pub exclude_bad_ref: bool,
}

/// μ and σ of one worker in one task and language pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standardization {
    pub worker: u32,
    pub task: u16,
    pub lang_pair: u16,
    /// Scores that entered μ and σ.
    pub n: usize,
    pub mean: f64,
    pub sd: Option<f64>,
    /// Why this worker could not be standardised (their judgments are left out).
    pub excluded: Option<String>,
}

pub(crate) struct ZScores {
    /// One per record; NaN marks "not standardised" (excluded worker or σ = 0). Internal only:
    /// nothing downstream lets a NaN out.
    pub values: Vec<f64>,
    pub groups: Vec<Standardization>,
    pub unstandardised: usize,
}

fn counts_for_z(t: ItemType, s: &ZSettings) -> bool {
    match t {
        ItemType::Ref => !s.exclude_ref,
        ItemType::BadRef => !s.exclude_bad_ref,
        ItemType::System | ItemType::Repeat => true,
    }
}

pub(crate) fn standardize(set: &JudgmentSet, retained: &[bool], settings: &ZSettings) -> ZScores {
    let records = &set.records;
    // (worker, task, language pair) → group: a dense table when small enough (it is for any
    // real campaign), a hash map otherwise.
    let (n_workers, n_tasks, n_pairs) = records.iter().fold((0, 0, 0), |(w, t, p), r| {
        (w.max(r.worker as usize + 1), t.max(r.task as usize + 1), p.max(r.lang_pair as usize + 1))
    });
    let dense_len = n_workers.saturating_mul(n_tasks).saturating_mul(n_pairs);
    let mut dense: Vec<u32> = if dense_len <= 1 << 25 { vec![u32::MAX; dense_len] } else { Vec::new() };
    let mut index: FxMap<u64, u32> = FxMap::default();
    let mut groups: Vec<Standardization> = Vec::new();
    let mut group_of = vec![u32::MAX; records.len()];
    let mut sums: Vec<f64> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        if !retained[i] {
            continue;
        }
        let slot = if dense.is_empty() {
            let key = (u64::from(r.worker) << 32) | (u64::from(r.task) << 16) | u64::from(r.lang_pair);
            index.entry(key).or_insert(u32::MAX)
        } else {
            &mut dense[(r.task as usize * n_pairs + r.lang_pair as usize) * n_workers + r.worker as usize]
        };
        if *slot == u32::MAX {
            *slot = groups.len() as u32;
            groups.push(Standardization {
                worker: r.worker,
                task: r.task,
                lang_pair: r.lang_pair,
                n: 0,
                mean: 0.0,
                sd: None,
                excluded: None,
            });
            sums.push(0.0);
        }
        let g = *slot;
        group_of[i] = g;
        if counts_for_z(r.item_type, settings) {
            groups[g as usize].n += 1;
            sums[g as usize] += r.score;
        }
    }
    for (g, total) in groups.iter_mut().zip(&sums) {
        if g.n > 0 {
            g.mean = total / g.n as f64;
        }
    }
    // Second pass: squared deviations (two-pass for accuracy), and whether values differ.
    let mut ss = vec![0.0; groups.len()];
    let mut first_value = vec![f64::NAN; groups.len()];
    let mut varies = vec![false; groups.len()];
    for (i, r) in records.iter().enumerate() {
        let g = group_of[i];
        if g == u32::MAX || !counts_for_z(r.item_type, settings) {
            continue;
        }
        let g = g as usize;
        let d = r.score - groups[g].mean;
        ss[g] += d * d;
        if first_value[g].is_nan() {
            first_value[g] = r.score;
        } else if r.score != first_value[g] {
            varies[g] = true;
        }
    }
    for (g, s) in groups.iter_mut().enumerate() {
        if s.n < 2 {
            s.excluded = Some(format!(
                "{} score(s) count towards the mean: a standard deviation needs 2",
                s.n
            ));
        } else if !varies[g] || ss[g] == 0.0 {
            s.excluded = Some("every score is the same (σ = 0): cannot be standardised".into());
        } else {
            s.sd = Some((ss[g] / (s.n - 1) as f64).sqrt());
        }
    }
    let mut unstandardised = 0;
    let values = records
        .iter()
        .zip(&group_of)
        .map(|(r, &g)| {
            if g == u32::MAX {
                return f64::NAN;
            }
            match groups[g as usize].sd {
                Some(sd) => (r.score - groups[g as usize].mean) / sd,
                None => {
                    unstandardised += 1;
                    f64::NAN
                }
            }
        })
        .collect();
    ZScores {
        values,
        groups,
        unstandardised,
    }
}

/// Mean scores of one system on one segment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentScore {
    pub system: u32,
    pub segment: u32,
    pub raw: f64,
    pub z: f64,
    pub n: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemScore {
    pub system: u32,
    pub raw: f64,
    pub z: f64,
    pub n_judgments: usize,
    pub n_segments: usize,
    pub raw_ci: Option<BootstrapCi>,
    pub z_ci: Option<BootstrapCi>,
}

/// Scores of one (task, language pair) before comparison.
pub(crate) struct ScoredGroup {
    pub task: u16,
    pub lang_pair: u16,
    pub systems: Vec<SystemScore>,
    pub segments: Vec<SegmentScore>,
    /// Per system (same order as `systems`): the sample the comparison tests, sorted ascending.
    pub samples: Vec<Vec<f64>>,
}

struct Cell {
    group: u32,
    system: u32,
    segment: u32,
    raw: f64,
    z: f64,
    n: usize,
}

pub(crate) fn score_groups(
    set: &JudgmentSet,
    z: &[f64],
    settings: &AnalysisSettings,
) -> Vec<ScoredGroup> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let parts = if set.records.len() >= 1 << 16 { threads } else { 1 };
    score_groups_in(set, z, settings, parts)
}

/// [`score_groups`] with the records' systems shared out among at most `parts` threads.
fn score_groups_in(set: &JudgmentSet, z: &[f64], settings: &AnalysisSettings, parts: usize) -> Vec<ScoredGroup> {
    let records = &set.records;
    let n_pairs = set.lang_pairs.len().max(1);
    let group_key = |task: u16, pair: u16| task as usize * n_pairs + pair as usize;
    let per_judgment = settings.comparison.unit == ComparisonUnit::Judgments;

    // (group, system, segment) → cell: a dense table when it is small enough (it is for any
    // real campaign: groups × systems × segments), a hash map otherwise.
    let (n_groups, n_segments) = (set.tasks.len().max(1) * n_pairs, set.segments.len());
    let n_systems = set.systems.len();
    let dense_len = n_groups.saturating_mul(n_systems).saturating_mul(n_segments);
    // The cells and judgment samples of the systems `s` with `s % parts == part`, from one
    // pass over the records: every cell and sample sums its judgments in record order,
    // however the systems are shared out, so the parts run on every core with the same result.
    let accumulate = |part: usize, parts: usize| -> (Vec<Cell>, Vec<Vec<f64>>) {
        let mut dense: Vec<u32> = if dense_len <= 1 << 25 { vec![u32::MAX; dense_len] } else { Vec::new() };
        let mut cell_index: FxMap<u128, u32> = FxMap::default();
        let mut cells: Vec<Cell> = Vec::new();
        // (group, system) → judgment z-scores, indexed densely (few groups, few systems).
        let mut samples: Vec<Vec<f64>> = if per_judgment { vec![Vec::new(); n_groups * n_systems] } else { Vec::new() };
        for (r, &zv) in records.iter().zip(z) {
            if r.system as usize % parts != part || zv.is_nan() || !matches!(r.item_type, ItemType::System | ItemType::Repeat) {
                continue;
            }
            let g = group_key(r.task, r.lang_pair) as u32;
            let new_cell = |cells: &mut Vec<Cell>| {
                cells.push(Cell { group: g, system: r.system, segment: r.segment, raw: 0.0, z: 0.0, n: 0 });
                (cells.len() - 1) as u32
            };
            let c = if dense.is_empty() {
                let key = (u128::from(g) << 64) | (u128::from(r.system) << 32) | u128::from(r.segment);
                *cell_index.entry(key).or_insert_with(|| new_cell(&mut cells)) as usize
            } else {
                let slot = &mut dense[(g as usize * n_systems + r.system as usize) * n_segments + r.segment as usize];
                if *slot == u32::MAX {
                    *slot = new_cell(&mut cells);
                }
                *slot as usize
            };
            cells[c].raw += r.score;
            cells[c].z += zv;
            cells[c].n += 1;
            if per_judgment {
                samples[g as usize * n_systems + r.system as usize].push(zv);
            }
        }
        (cells, samples)
    };
    let parts = if dense_len <= 1 << 22 { parts.clamp(1, n_systems.max(1)) } else { 1 };
    let parts_done: Vec<(Vec<Cell>, Vec<Vec<f64>>)> = if parts == 1 {
        vec![accumulate(0, 1)]
    } else {
        let part_ids: Vec<usize> = (0..parts).collect();
        super::par_map(&part_ids, |&part| accumulate(part, parts))
    };
    let mut cells: Vec<Cell> = Vec::new();
    let mut samples: Vec<Vec<f64>> = if per_judgment { vec![Vec::new(); n_groups * n_systems] } else { Vec::new() };
    for (part_cells, part_samples) in parts_done {
        cells.extend(part_cells);
        for (all, mine) in samples.iter_mut().zip(part_samples) {
            if !mine.is_empty() {
                *all = mine;
            }
        }
    }
    cells.sort_unstable_by_key(|c| (c.group, c.system, c.segment));

    let mut out: Vec<ScoredGroup> = Vec::new();
    for group_cells in cells.chunk_by(|a, b| a.group == b.group) {
        let g = group_cells[0].group as usize;
        let mut scored = ScoredGroup {
            task: (g / n_pairs) as u16,
            lang_pair: (g % n_pairs) as u16,
            systems: Vec::new(),
            segments: Vec::with_capacity(group_cells.len()),
            samples: Vec::new(),
        };
        // Each system's scores, interval and sorted sample are independent: on every core.
        let work: Vec<(&[Cell], Vec<f64>)> = group_cells
            .chunk_by(|a, b| a.system == b.system)
            .map(|sys_cells| {
                let sample = if per_judgment {
                    std::mem::take(&mut samples[g * n_systems + sys_cells[0].system as usize])
                } else {
                    Vec::new()
                };
                (sys_cells, sample)
            })
            .collect();
        let systems = super::par_map_vec(work, |(sys_cells, sample)| score_system(sys_cells, sample, per_judgment, settings));
        for (system, sample, segments) in systems {
            scored.systems.push(system);
            scored.samples.push(sample);
            scored.segments.extend(segments);
        }
        out.push(scored);
    }
    out
}

/// One system's score, bootstrap interval, sorted comparison sample and segment scores, from
/// its cells (one per segment, in segment order) and, when comparing judgments, its judgment
/// z-scores.
fn score_system(
    sys_cells: &[Cell],
    judgment_z: Vec<f64>,
    per_judgment: bool,
    settings: &AnalysisSettings,
) -> (SystemScore, Vec<f64>, Vec<SegmentScore>) {
    let system = sys_cells[0].system;
    let seg_raw: Vec<f64> = sys_cells.iter().map(|c| c.raw / c.n as f64).collect();
    let seg_z: Vec<f64> = sys_cells.iter().map(|c| c.z / c.n as f64).collect();
    let n_judgments: usize = sys_cells.iter().map(|c| c.n).sum();
    // Raw and z means over a set of segment indices: the mean of segment means, or the
    // mean over all judgments of those segments.
    let statistic = |idx: &[usize]| -> [f64; 2] {
        if settings.average_per_segment {
            let (mut r, mut z) = (0.0, 0.0);
            for &i in idx {
                r += seg_raw[i];
                z += seg_z[i];
            }
            [r / idx.len() as f64, z / idx.len() as f64]
        } else {
            let (mut r, mut z, mut n) = (0.0, 0.0, 0usize);
            for &i in idx {
                let c = &sys_cells[i];
                r += c.raw;
                z += c.z;
                n += c.n;
            }
            [r / n as f64, z / n as f64]
        }
    };
    let all: Vec<usize> = (0..sys_cells.len()).collect();
    let [raw, z] = statistic(&all);
    let (raw_ci, z_ci) = match settings.bootstrap {
        Some(b) => {
            // A seed per system: adding a system does not change the others' intervals.
            let seed = b.seed ^ (u64::from(system).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            match bootstrap_cis(all.len(), statistic, b.confidence, b.samples, seed) {
                Ok([r, z]) => (Some(r), Some(z)),
                Err(_) => (None, None),
            }
        }
        None => (None, None),
    };
    let score = SystemScore { system, raw, z, n_judgments, n_segments: sys_cells.len(), raw_ci, z_ci };
    let mut sample = if per_judgment { judgment_z } else { seg_z.clone() };
    sample.sort_unstable_by(f64::total_cmp);
    let segments = sys_cells
        .iter()
        .zip(seg_raw.iter().zip(&seg_z))
        .map(|(c, (raw, z))| SegmentScore { system, segment: c.segment, raw: *raw, z: *z, n: c.n })
        .collect();
    (score, sample, segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sharing the systems out among threads changes nothing: the same cells, segment and
    /// system scores and sorted samples, to the bit.
    #[test]
    fn scores_are_the_same_however_the_systems_are_shared_out() {
        let config = crate::simulate::CrowdConfig { segments: 60, ..Default::default() };
        let mut file = Vec::new();
        crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
        let set = crate::analysis::formats::read_graham_tsv(file.as_slice()).unwrap();
        let z: Vec<f64> = set.records.iter().enumerate().map(|(i, r)| if i % 17 == 0 { f64::NAN } else { r.score / 7.0 - 3.0 }).collect();
        for unit in [ComparisonUnit::Judgments, ComparisonUnit::Segments] {
            let mut settings = AnalysisSettings::default();
            settings.comparison.unit = unit;
            let one = score_groups_in(&set, &z, &settings, 1);
            assert!(one.iter().map(|g| g.systems.len()).sum::<usize>() > 3);
            for parts in [2, 3, 7] {
                let many = score_groups_in(&set, &z, &settings, parts);
                assert_eq!(many.len(), one.len());
                for (a, b) in many.iter().zip(&one) {
                    assert_eq!((a.task, a.lang_pair), (b.task, b.lang_pair));
                    assert_eq!(a.systems, b.systems, "{parts} parts");
                    assert_eq!(a.segments, b.segments, "{parts} parts");
                    assert!(a.samples.iter().flatten().map(|v| v.to_bits()).eq(b.samples.iter().flatten().map(|v| v.to_bits())), "{parts} parts");
                }
            }
        }
    }
}
