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
use assay_stats::{BootstrapCi, bootstrap_cis};

use super::{AnalysisSettings, ComparisonUnit, FxMap, Judgment, JudgmentSet};

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
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let parts = if set.records.len() >= 1 << 16 { threads } else { 1 };
    standardize_in(set, retained, settings, parts)
}

/// A record's entry in the (worker, task, language pair) table: dense or hashed.
fn group_slot<'a>(
    dense: &'a mut [u32],
    index: &'a mut FxMap<u64, u32>,
    r: &Judgment,
    dense_key: &impl Fn(&Judgment) -> usize,
    sparse_key: &impl Fn(&Judgment) -> u64,
) -> &'a mut u32 {
    if dense.is_empty() { index.entry(sparse_key(r)).or_insert(u32::MAX) } else { &mut dense[dense_key(r)] }
}

/// One (worker, task, language pair) group while its μ and σ are computed.
struct ZGroup {
    /// Its first record: groups are numbered in order of first appearance.
    first: usize,
    worker: u32,
    task: u16,
    lang_pair: u16,
    n: usize,
    sum: f64,
    mean: f64,
    ss: f64,
    first_value: f64,
    varies: bool,
}

/// [`standardize`] with the workers shared out among `parts` threads: a group's sums run
/// over its records in record order in whichever part has it, so the result is the same.
fn standardize_in(set: &JudgmentSet, retained: &[bool], settings: &ZSettings, parts: usize) -> ZScores {
    let records = &set.records;
    // (worker, task, language pair) → group: a dense table when small enough (it is for any
    // real campaign), a hash map otherwise.
    let (n_workers, n_tasks, n_pairs) = records.iter().fold((0, 0, 0), |(w, t, p), r| {
        (w.max(r.worker as usize + 1), t.max(r.task as usize + 1), p.max(r.lang_pair as usize + 1))
    });
    let dense_len = n_workers.saturating_mul(n_tasks).saturating_mul(n_pairs);
    let dense_key = |r: &Judgment| (r.task as usize * n_pairs + r.lang_pair as usize) * n_workers + r.worker as usize;
    let sparse_key = |r: &Judgment| (u64::from(r.worker) << 32) | (u64::from(r.task) << 16) | u64::from(r.lang_pair);
    let parts = if dense_len <= 1 << 22 { parts.clamp(1, n_workers.max(1)) } else { 1 };
    // Two passes per part (mean, then squared deviations: two-pass for accuracy).
    let part = |part: usize| -> Vec<ZGroup> {
        let mut dense: Vec<u32> = if dense_len <= 1 << 25 { vec![u32::MAX; dense_len] } else { Vec::new() };
        let mut index: FxMap<u64, u32> = FxMap::default();
        let mut groups: Vec<ZGroup> = Vec::new();
        let mine = |i: usize, r: &Judgment| retained[i] && r.worker as usize % parts == part;
        for (i, r) in records.iter().enumerate() {
            if !mine(i, r) {
                continue;
            }
            let slot = group_slot(&mut dense, &mut index, r, &dense_key, &sparse_key);
            if *slot == u32::MAX {
                *slot = groups.len() as u32;
                groups.push(ZGroup {
                    first: i,
                    worker: r.worker,
                    task: r.task,
                    lang_pair: r.lang_pair,
                    n: 0,
                    sum: 0.0,
                    mean: 0.0,
                    ss: 0.0,
                    first_value: f64::NAN,
                    varies: false,
                });
            }
            if counts_for_z(r.item_type, settings) {
                let g = &mut groups[*slot as usize];
                g.n += 1;
                g.sum += r.score;
            }
        }
        for g in &mut groups {
            if g.n > 0 {
                g.mean = g.sum / g.n as f64;
            }
        }
        for (i, r) in records.iter().enumerate() {
            if !mine(i, r) || !counts_for_z(r.item_type, settings) {
                continue;
            }
            let g = &mut groups[*group_slot(&mut dense, &mut index, r, &dense_key, &sparse_key) as usize];
            let d = r.score - g.mean;
            g.ss += d * d;
            if g.first_value.is_nan() {
                g.first_value = r.score;
            } else if r.score != g.first_value {
                g.varies = true;
            }
        }
        groups
    };
    let mut groups: Vec<ZGroup> = if parts == 1 {
        part(0)
    } else {
        let ids: Vec<usize> = (0..parts).collect();
        super::par_map(&ids, |&p| part(p)).into_iter().flatten().collect()
    };
    groups.sort_unstable_by_key(|g| g.first);

    let standardizations: Vec<Standardization> = groups
        .iter()
        .map(|g| {
            let mut s = Standardization {
                worker: g.worker,
                task: g.task,
                lang_pair: g.lang_pair,
                n: g.n,
                mean: g.mean,
                sd: None,
                excluded: None,
            };
            if g.n < 2 {
                s.excluded = Some(format!("{} score(s) count towards the mean: a standard deviation needs 2", g.n));
            } else if !g.varies || g.ss == 0.0 {
                s.excluded = Some("every score is the same (σ = 0): cannot be standardised".into());
            } else {
                s.sd = Some((g.ss / (g.n - 1) as f64).sqrt());
            }
            s
        })
        .collect();
    // Each record's z-score, on every core: (μ, σ) by group key.
    let mut by_key: Vec<(f64, f64)> = if dense_len <= 1 << 25 { vec![(f64::NAN, f64::NAN); dense_len] } else { Vec::new() };
    let mut by_sparse: FxMap<u64, (f64, f64)> = FxMap::default();
    for (g, st) in groups.iter().zip(&standardizations) {
        let r = &records[g.first];
        let v = (st.mean, st.sd.unwrap_or(f64::NAN));
        if by_key.is_empty() {
            by_sparse.insert(sparse_key(r), v);
        } else {
            by_key[dense_key(r)] = v;
        }
    }
    let ranges: Vec<(usize, usize)> = {
        let per = records.len().div_ceil(parts.max(1)).max(1);
        (0..records.len()).step_by(per).map(|a| (a, (a + per).min(records.len()))).collect()
    };
    let pieces = super::par_map(&ranges, |&(a, b)| {
        let mut unstandardised = 0usize;
        let values: Vec<f64> = (a..b)
            .map(|i| {
                let r = &records[i];
                if !retained[i] {
                    return f64::NAN;
                }
                let (mean, sd) = if by_key.is_empty() { by_sparse[&sparse_key(r)] } else { by_key[dense_key(r)] };
                if sd.is_nan() {
                    unstandardised += 1;
                    f64::NAN
                } else {
                    (r.score - mean) / sd
                }
            })
            .collect();
        (values, unstandardised)
    });
    let mut values = Vec::with_capacity(records.len());
    let mut unstandardised = 0;
    for (v, u) in pieces {
        values.extend(v);
        unstandardised += u;
    }
    ZScores { values, groups: standardizations, unstandardised }
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

    /// Sharing the workers out among threads changes nothing: the same groups in the same
    /// order, μ, σ and z-scores to the bit (excluded workers and σ = 0 included).
    #[test]
    fn z_scores_are_the_same_however_the_workers_are_shared_out() {
        let config = crate::simulate::CrowdConfig { segments: 60, ..Default::default() };
        let mut file = Vec::new();
        crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
        let mut set = crate::analysis::formats::read_graham_tsv(file.as_slice()).unwrap();
        // One worker scores everything alike (σ = 0).
        for r in set.records.iter_mut().filter(|r| r.worker == 3) {
            r.score = 50.0;
        }
        let retained: Vec<bool> = set.records.iter().map(|r| r.worker % 5 != 1).collect();
        let settings = ZSettings::default();
        let one = standardize_in(&set, &retained, &settings, 1);
        assert!(one.groups.iter().any(|g| g.excluded.is_some()) && one.unstandardised > 0);
        for parts in [2, 3, 7] {
            let many = standardize_in(&set, &retained, &settings, parts);
            assert_eq!(many.groups, one.groups, "{parts} parts");
            assert_eq!(many.unstandardised, one.unstandardised);
            assert!(many.values.iter().map(|v| v.to_bits()).eq(one.values.iter().map(|v| v.to_bits())), "{parts} parts");
        }
    }

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
