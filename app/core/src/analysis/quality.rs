//! Worker quality control (METHOD §4), per worker and campaign task, pooled over their HITs,
//! on raw scores.
//!
//! - **Reliability** (Assumption B): pairs (original system output, its bad reference) from the
//!   same HIT. Default: paired one-sided Student t test, H1 original > degraded, α = 0.05
//!   (EACL 2014 and the authors' scripts); selectable: one-sided Wilcoxon signed-rank. Fewer
//!   pairs than `min_pairs` (default 5): "not enough evidence", never "pass".
//! - **Consistency** (Assumption A): pairs (first score, repeat score); two-sided paired test of
//!   no difference, with the mean absolute difference.
//! - **Review flags** (never automatic rejection): HITs faster than a floor, long runs of
//!   identical scores, mean(bad) ≥ mean(original), reference items scored low.
//!
//! Pairing: within one HIT, a BAD_REF or REPEAT item is paired with the SYSTEM item of the same
//! system and segment (the first one, should there be several). In a ranking HIT, a degraded
//! copy shown again on a repeated screen is paired with the original's REPEAT on that screen.

use serde::{Deserialize, Serialize};

use crate::model::ItemType;
use assay_stats::{self as stats, Alternative, SignedRankOptions, StatsError, TestResult};

use super::{Judgment, JudgmentSet, TimeBasis};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QcTest {
    #[default]
    PairedT,
    SignedRank,
    /// Exact sign test on who wins each pair, ties excluded (relative ranking: the original
    /// ranked above its degraded copy; always used for ranking tasks, whatever is chosen).
    Sign,
}

pub use super::verdict::Verdict;

/// Which workers are left out of the statistics (their judgments stay in the data and in the
/// exports, with the verdict).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExclusionPolicy {
    /// Keep only workers who passed the reliability test (default; what the authors' scripts
    /// do: "not enough evidence" is not a pass).
    #[default]
    NotPassed,
    /// Exclude only workers who failed; keep those with too few pairs.
    FailedOnly,
    /// Exclude nobody.
    None,
}

impl ExclusionPolicy {
    pub fn excludes(self, w: &WorkerQc) -> bool {
        match self {
            ExclusionPolicy::NotPassed => w.reliability.verdict != Verdict::Pass,
            ExclusionPolicy::FailedOnly => w.reliability.verdict == Verdict::Fail,
            ExclusionPolicy::None => false,
        }
    }
}

impl From<crate::settings::ThinEvidence> for ExclusionPolicy {
    /// A campaign's choice for workers with too few pairs ([`crate::settings::ThinEvidence`]):
    /// kept, they stay in the scores (only failures leave); held or excluded, they leave the
    /// scores with the failures.
    fn from(t: crate::settings::ThinEvidence) -> Self {
        match t {
            crate::settings::ThinEvidence::Keep => ExclusionPolicy::FailedOnly,
            crate::settings::ThinEvidence::Hold | crate::settings::ThinEvidence::Exclude => ExclusionPolicy::NotPassed,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct QcSettings {
    pub reliability_test: QcTest,
    pub consistency_test: QcTest,
    pub alpha: f64,
    pub min_pairs: usize,
    /// Options of the signed-rank test when it is selected (zero method, exact/normal choice).
    pub signed_rank: SignedRankOptions,
    /// A HIT faster than this is flagged (Graham's scripts: 300 s for 100 items).
    pub hit_time_floor_seconds: f64,
    /// A run of identical consecutive scores longer than this is flagged. 10 reproduces the
    /// flags of the published WMT22 `ad-wrkr-stats.csv` (runs of 10 unflagged, 12 flagged).
    pub max_identical_run: usize,
    /// Mean score of REF items below this is flagged (Graham's DA scripts: 90).
    pub low_ref_threshold: f64,
}

impl Default for QcSettings {
    fn default() -> Self {
        QcSettings {
            reliability_test: QcTest::PairedT,
            consistency_test: QcTest::PairedT,
            alpha: 0.05,
            min_pairs: 5,
            signed_rank: SignedRankOptions::default(),
            hit_time_floor_seconds: 300.0,
            max_identical_run: 10,
            low_ref_threshold: 90.0,
        }
    }
}

/// One test of a worker's pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairCheck {
    pub test: QcTest,
    pub n_pairs: usize,
    /// Mean of (original − bad reference) or (first − repeat).
    pub mean_difference: Option<f64>,
    pub mean_abs_difference: Option<f64>,
    pub statistic: Option<f64>,
    pub p_value: Option<f64>,
    pub verdict: Verdict,
    /// Why the test could not run, or how a degenerate case was decided.
    pub note: Option<String>,
    /// Relative ranking with gold blocks: the worker's agreement with the gold orders. When
    /// present, `verdict` is the combination of the two checks ([`super::gold_check::combine`]) and
    /// the copies' own verdict is `gold.copies`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold: Option<super::gold_check::GoldCheck>,
}

/// Flags for the organiser's review.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewFlags {
    /// HITs faster than the floor.
    pub fast_hits: usize,
    pub long_identical_run: bool,
    /// mean(bad references) ≥ mean(their originals).
    pub bad_not_lower: bool,
    /// mean(REF items) below the threshold.
    pub low_ref: bool,
}

/// Descriptive figures of one worker in one task (the `ad-wrkr-stats` columns we can compute).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerFigures {
    pub mean_bad_ref: Option<f64>,
    /// Mean of the originals that have a bad reference.
    pub mean_original: Option<f64>,
    /// Mean of all SYSTEM items.
    pub mean_system: Option<f64>,
    pub mean_ref: Option<f64>,
    pub min_hit_seconds: Option<f64>,
    pub mean_hit_seconds: Option<f64>,
    /// Longest run of identical consecutive scores over the worker's judgments in this task,
    /// in record order (across HIT boundaries, as in the published WMT files).
    pub longest_identical_run: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerQc {
    pub worker: u32,
    pub task: u16,
    pub hits: usize,
    pub judgments: usize,
    pub reliability: PairCheck,
    pub consistency: PairCheck,
    pub flags: ReviewFlags,
    pub figures: WorkerFigures,
}

fn type_rank(t: ItemType) -> u8 {
    match t {
        ItemType::System => 0,
        ItemType::BadRef => 1,
        ItemType::Repeat => 2,
        ItemType::Ref => 3,
    }
}

#[derive(Default)]
struct Sum {
    total: f64,
    n: usize,
}

impl Sum {
    fn add(&mut self, v: f64) {
        self.total += v;
        self.n += 1;
    }
    fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.total / self.n as f64)
    }
}

fn run_test(
    test: QcTest,
    a: &[f64],
    b: &[f64],
    alternative: Alternative,
    s: &QcSettings,
) -> stats::Result<(f64, f64)> {
    let of = |r: TestResult| (r.statistic, r.p_value);
    match test {
        QcTest::PairedT => stats::paired_t(a, b, alternative).map(of),
        QcTest::SignedRank => stats::signed_rank(a, b, alternative, s.signed_rank).map(of),
        QcTest::Sign => {
            let wins = a.iter().zip(b).filter(|(x, y)| x > y).count() as u64;
            let losses = a.iter().zip(b).filter(|(x, y)| x < y).count() as u64;
            if wins + losses == 0 {
                return Err(StatsError::AllZero { what: "sign test" });
            }
            Ok((wins as f64, stats::sign_test(wins, losses, alternative)?))
        }
    }
}

fn mean_of(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut t, mut n) = (0.0, 0usize);
    for x in v {
        t += x;
        n += 1;
    }
    (n > 0).then(|| t / n as f64)
}

/// Reliability: H1 original > bad reference, one-sided.
fn reliability(orig: &[f64], bad: &[f64], s: &QcSettings) -> PairCheck {
    let mut check = PairCheck {
        test: s.reliability_test,
        n_pairs: orig.len(),
        mean_difference: mean_of(orig.iter().zip(bad).map(|(a, b)| a - b)),
        mean_abs_difference: mean_of(orig.iter().zip(bad).map(|(a, b)| (a - b).abs())),
        statistic: None,
        p_value: None,
        verdict: Verdict::NotEnoughEvidence,
        note: None,
        gold: None,
    };
    let enough = orig.len() >= s.min_pairs;
    match run_test(s.reliability_test, orig, bad, Alternative::Greater, s) {
        Ok((statistic, p)) => {
            check.statistic = Some(statistic);
            check.p_value = Some(p);
            if enough {
                check.verdict = if p < s.alpha {
                    Verdict::Pass
                } else {
                    Verdict::Fail
                };
            }
        }
        Err(StatsError::ZeroVariance { .. } | StatsError::AllZero { .. }) if enough => {
            check.verdict = Verdict::Fail;
            check.note = Some("every bad reference was scored exactly like its original".into());
        }
        Err(e) => check.note = Some(e.to_string()),
    }
    if !enough {
        check.note = Some(format!(
            "{} pairs, fewer than the minimum of {}",
            orig.len(),
            s.min_pairs
        ));
    }
    check
}

/// Consistency: two-sided test of no difference between first and repeat scores.
fn consistency(first: &[f64], repeat: &[f64], s: &QcSettings) -> PairCheck {
    let mut check = PairCheck {
        test: s.consistency_test,
        n_pairs: first.len(),
        mean_difference: mean_of(first.iter().zip(repeat).map(|(a, b)| a - b)),
        mean_abs_difference: mean_of(first.iter().zip(repeat).map(|(a, b)| (a - b).abs())),
        statistic: None,
        p_value: None,
        verdict: Verdict::NotEnoughEvidence,
        note: None,
        gold: None,
    };
    let enough = first.len() >= s.min_pairs;
    match run_test(s.consistency_test, first, repeat, Alternative::TwoSided, s) {
        Ok((statistic, p)) => {
            check.statistic = Some(statistic);
            check.p_value = Some(p);
            if enough {
                check.verdict = if p < s.alpha {
                    Verdict::Fail
                } else {
                    Verdict::Pass
                };
            }
        }
        Err(StatsError::ZeroVariance { .. } | StatsError::AllZero { .. }) if enough => {
            check.p_value = Some(1.0);
            check.verdict = Verdict::Pass;
            check.note = Some("every repeat was scored exactly like its first".into());
        }
        Err(e) => check.note = Some(e.to_string()),
    }
    if !enough {
        check.note = Some(format!(
            "{} pairs, fewer than the minimum of {}",
            first.len(),
            s.min_pairs
        ));
    }
    check
}

/// Quality control of every (worker, task) in the set, ordered by task, then worker id.
pub fn run(set: &JudgmentSet, settings: &QcSettings) -> Vec<WorkerQc> {
    let records = &set.records;
    let (keys, starts) = grouped_keys(records);

    // Workers are independent: their tests run on every core, each thread with its own buffers.
    let workers: Vec<&[u64]> = starts.windows(2).filter(|w| w[0] < w[1]).map(|w| &keys[w[0]..w[1]]).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    let per = workers.len().div_ceil(threads).max(1);
    let batches: Vec<&[&[u64]]> = workers.chunks(per).collect();
    let mut out: Vec<WorkerQc> = super::par_map(&batches, |batch| {
        let mut buffers = WorkerBuffers::default();
        batch.iter().map(|worker_keys| worker_qc(set, settings, worker_keys, &mut buffers)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    add_gold(set, &mut out);
    out
}

/// Relative ranking with gold blocks: each ranking worker's gold check, folded into their
/// reliability verdict ([`super::gold`]).
fn add_gold(set: &JudgmentSet, workers: &mut [WorkerQc]) {
    if set.gold.answers.is_empty() {
        return;
    }
    let mut by_worker: std::collections::HashMap<u32, Vec<super::gold_check::GoldAnswer>> = std::collections::HashMap::new();
    for a in &set.gold.answers {
        by_worker.entry(a.worker).or_default().push(*a);
    }
    for w in workers.iter_mut().filter(|w| ranks_blocks(set.tasks.name(u32::from(w.task)))) {
        let answers = by_worker.get(&w.worker).map(Vec::as_slice).unwrap_or(&[]);
        let check = super::gold_check::gold_check(answers, set.gold.rule, w.reliability.verdict);
        w.reliability.verdict = super::gold_check::combine(check.copies, check.verdict);
        w.reliability.gold = Some(check);
    }
}

/// The records grouped by (task, worker), in that order, as keys `(HIT, record index)` packed
/// in a `u64`, with where each group starts (group `task × workers + worker`; empty groups
/// included). A counting sort on the dense ids groups them keeping record order; then each
/// group's keys are put in order of HIT. A HIT's records are usually next to each other in
/// order of first appearance already, so a group is sorted only when it is not.
fn grouped_keys(records: &[Judgment]) -> (Vec<u64>, Vec<usize>) {
    let (n_workers, n_tasks) = records
        .iter()
        .fold((0, 0), |(w, t), r| (w.max(r.worker as usize + 1), t.max(r.task as usize + 1)));
    let group = |r: &Judgment| r.task as usize * n_workers + r.worker as usize;
    let mut starts = vec![0usize; n_tasks * n_workers + 1];
    for r in records {
        starts[group(r) + 1] += 1;
    }
    for g in 1..starts.len() {
        starts[g] += starts[g - 1];
    }
    let mut next = starts.clone();
    let mut keys = vec![0u64; records.len()];
    for (i, r) in records.iter().enumerate() {
        let g = group(r);
        keys[next[g]] = (u64::from(r.hit) << 32) | i as u64;
        next[g] += 1;
    }
    for w in starts.windows(2) {
        let group = &mut keys[w[0]..w[1]];
        if !group.is_sorted() {
            group.sort_unstable();
        }
    }
    (keys, starts)
}

/// Buffers reused for every worker and HIT of one thread.
#[derive(Default)]
struct WorkerBuffers {
    orig: Vec<f64>,
    bad: Vec<f64>,
    first: Vec<f64>,
    repeat: Vec<f64>,
    /// A HIT's originals ((system, segment) packed, score) and its check items (bad
    /// references and repeats: (system, segment), type rank, record index, score).
    hit_originals: Vec<(u64, f64)>,
    hit_checks: Vec<(u64, u8, u32, f64)>,
    hit_times: Vec<f64>,
}

/// One worker's quality control from their records' keys (sorted by HIT, then record order).
fn worker_qc(set: &JudgmentSet, settings: &QcSettings, worker_keys: &[u64], buffers: &mut WorkerBuffers) -> WorkerQc {
    let records = &set.records;
    let WorkerBuffers { orig, bad, first, repeat, hit_originals, hit_checks, hit_times } = buffers;
    let first_record = &records[(worker_keys[0] as u32) as usize];
    let (worker, task) = (first_record.worker, first_record.task);
    let ranking = ranks_blocks(set.tasks.name(u32::from(task)));
    let blocks = shows_blocks(set.tasks.name(u32::from(task)));
    orig.clear();
    bad.clear();
    first.clear();
    repeat.clear();
    hit_times.clear();
    let (mut sys_sum, mut ref_sum, mut bad_sum) =
        (Sum::default(), Sum::default(), Sum::default());
    let (mut run, mut longest, mut last) = (0usize, 0usize, f64::NAN);

    for hit_keys in worker_keys.chunk_by(|a, b| a >> 32 == b >> 32) {
        hit_originals.clear();
        hit_checks.clear();
        let mut hit_seconds = 0.0f64;
        for k in hit_keys {
            let r = &records[(*k as u32) as usize];
            hit_seconds = match set.time_basis {
                TimeBasis::PerHit => hit_seconds.max(f64::from(r.seconds)),
                TimeBasis::PerItem => hit_seconds + f64::from(r.seconds),
            };
            run = if r.score == last { run + 1 } else { 1 };
            last = r.score;
            longest = longest.max(run);
            let shown = (u64::from(r.system) << 32) | u64::from(r.segment);
            match r.item_type {
                ItemType::System => {
                    sys_sum.add(r.score);
                    hit_originals.push((shown, r.score));
                }
                ItemType::Ref => ref_sum.add(r.score),
                ItemType::BadRef => {
                    bad_sum.add(r.score);
                    hit_checks.push((shown, type_rank(r.item_type), *k as u32, r.score));
                }
                ItemType::Repeat => hit_checks.push((shown, type_rank(r.item_type), *k as u32, r.score)),
            }
        }
        hit_times.push(hit_seconds);
        // Each check item is paired with the original of its (system, segment) in the same
        // HIT, in order of (system, segment), bad references before repeats.
        hit_checks.sort_unstable_by_key(|c| (c.0, c.1, c.2));
        for (i, &(shown, rank, _, score)) in hit_checks.iter().enumerate() {
            let Some(&(_, original)) = hit_originals.iter().find(|o| o.0 == shown) else {
                continue;
            };
            if rank == 1 {
                // Ranking: a degraded copy shown again on a repeated screen is ranked against the
                // original's repeat on that screen, and compared with it; comparing it with the
                // first showing would make two pairs hang on one rank of the original, and the
                // sign test assumes independent pairs.
                let again = blocks && i > 0 && hit_checks[i - 1].0 == shown && hit_checks[i - 1].1 == 1;
                let against = if again { hit_checks[i..].iter().find(|c| c.0 == shown && c.1 == 2).map(|c| c.3) } else { None };
                orig.push(against.unwrap_or(original));
                bad.push(score);
            } else {
                first.push(original);
                repeat.push(score);
            }
        }
    }

    // Ranks are compared by who wins, not by how far apart they are: a sign test, ties out.
    let ranked = QcSettings { reliability_test: QcTest::Sign, consistency_test: QcTest::Sign, ..*settings };
    let settings = if ranking { &ranked } else { settings };
    let reliability = reliability(&orig, &bad, settings);
    let consistency = consistency(&first, &repeat, settings);
    let mean_original = mean_of(orig.iter().copied());
    let mean_bad_paired = mean_of(bad.iter().copied());
    let mean_ref = ref_sum.mean();
    let figures = WorkerFigures {
        mean_bad_ref: bad_sum.mean(),
        mean_original,
        mean_system: sys_sum.mean(),
        mean_ref,
        min_hit_seconds: hit_times.iter().copied().reduce(f64::min),
        mean_hit_seconds: mean_of(hit_times.iter().copied()),
        longest_identical_run: longest,
    };
    let flags = ReviewFlags {
        fast_hits: hit_times
            .iter()
            .filter(|t| **t < settings.hit_time_floor_seconds)
            .count(),
        long_identical_run: longest > settings.max_identical_run,
        bad_not_lower: matches!((mean_bad_paired, mean_original), (Some(b), Some(o)) if b >= o),
        low_ref: mean_ref.is_some_and(|m| m < settings.low_ref_threshold),
    };
    WorkerQc {
        worker,
        task,
        hits: hit_times.len(),
        judgments: worker_keys.len(),
        reliability,
        consistency,
        flags,
        figures,
    }
}

/// Whether the analysis task is a protocol's whose HITs are blocks of outputs ranked together
/// (relative ranking): its quality control compares ranks within a block, and gold blocks
/// check its workers.
fn ranks_blocks(analysis_task: &str) -> bool {
    crate::model::TaskKind::parse(analysis_task).is_some_and(crate::protocol::ranks_blocks)
}

/// Whether the analysis task's HITs are blocks of outputs shown together on screens that may be
/// repeated (relative ranking, contrastive ESA): a degraded copy on a repeated screen is
/// compared with its original's repeat beside it.
fn shows_blocks(analysis_task: &str) -> bool {
    crate::model::TaskKind::parse(analysis_task).is_some_and(|t| crate::protocol::for_task(t).hit_plan() == crate::protocol::HitPlan::Blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counting sort gives the order a plain sort of the keys gives, whether a HIT's
    /// records are together (as in files) or scattered, over several tasks.
    #[test]
    fn grouped_keys_are_the_sorted_keys() {
        let mut state = 7u64;
        let mut next = |m: u32| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 33) % u64::from(m)) as u32
        };
        for scattered in [false, true] {
            let mut records = Vec::new();
            for hit in 0..300u32 {
                let (worker, task) = (next(40), next(3) as u16);
                for _ in 0..next(12) {
                    records.push(Judgment {
                        worker,
                        hit,
                        system: next(5),
                        segment: next(50),
                        lang_pair: 0,
                        task,
                        item_type: ItemType::System,
                        score: f64::from(next(101)),
                        seconds: 1.0,
                    });
                }
            }
            if scattered {
                for i in (1..records.len()).rev() {
                    let j = next(i as u32 + 1) as usize;
                    records.swap(i, j);
                }
            }
            let mut expected: Vec<u128> = records
                .iter()
                .enumerate()
                .map(|(i, r)| (u128::from(r.task) << 96) | (u128::from(r.worker) << 64) | (u128::from(r.hit) << 32) | i as u128)
                .collect();
            expected.sort_unstable();
            let (keys, starts) = grouped_keys(&records);
            let n_workers = records.iter().map(|r| r.worker as usize + 1).max().unwrap();
            // Each key again with its task and worker, from the group it is in.
            let mut got = Vec::new();
            for (g, w) in starts.windows(2).enumerate() {
                let (task, worker) = ((g / n_workers) as u128, (g % n_workers) as u128);
                got.extend(keys[w[0]..w[1]].iter().map(|&k| (task << 96) | (worker << 64) | u128::from(k)));
            }
            assert_eq!(got, expected, "scattered: {scattered}");
        }
        assert_eq!(grouped_keys(&[]), (vec![], vec![0]));
    }
}
