//! Pure analysis of judgment records: worker quality control (METHOD §4) → filtering →
//! z-scores (§5) → segment and system scores with bootstrap intervals → the pairwise
//! significance matrix, rank ranges and clusters (§6). Built on [`assay_stats`]; no I/O except
//! the readers and writers of [`formats`], which take `impl Read` / `impl Write`, never paths.
//!
//! Records are small and flat ([`Judgment`], 40 bytes): interned integer ids for worker, HIT,
//! system, segment, language pair and task, the item type, the raw score and the seconds
//! spent. Names live once in the [`Interner`]s of a [`JudgmentSet`]. The pipeline allocates per
//! worker, per system and per segment, never per judgment, and every grouping is a sort or a
//! hash lookup: no loop is quadratic in the number of judgments (the comparison matrix is
//! quadratic in the number of *systems* only, one merge of two sorted samples per pair).

pub mod agreement;
pub mod bundle;
pub mod clusters;
pub mod contrastive;
pub mod esa;
pub mod export;
pub mod formats;
pub mod gold;
pub mod gold_check;
pub mod manifest;
pub mod mqm;
pub mod quality;
pub mod ranking;
pub mod scores;
pub mod span_agreement;
pub mod span_qc;
pub mod verdict;

use serde::{Deserialize, Serialize};

use crate::model::ItemType;
pub use crate::report::Scale;
use assay_stats::RankSumOptions;

pub use clusters::{ClusterRule, Comparison, ComparisonUnit, SystemRank, combine_adequacy_fluency};
pub use quality::{ExclusionPolicy, QcSettings, QcTest, Verdict, WorkerQc};
pub use scores::{SegmentScore, Standardization, SystemScore, ZSettings};

/// A hash map with rustc's Fx hashing (`rustc-hash`): far faster than SipHash on the millions of
/// lookups of a large campaign; keys are ids and names from the campaign's own files, and a
/// worst case of them costs time, never a wrong result.
pub type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// Names ↔ dense integer ids (0, 1, 2, … in order of first appearance).
#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Vec<String>,
    index: FxMap<String, u32>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), id);
        id
    }

    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl Serialize for Interner {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.names)
    }
}

/// The analysis tasks of a judgment set (a campaign's task, or each question of it: word order's
/// `word-order-q1` and `word-order-q2`), each with the scale its agreement is measured on. A task
/// is interned with its scale, so no task is without one: the agreement report reads it here
/// ([`Tasks::scale`]), never from the task's name. Reads as an [`Interner`] of names otherwise.
#[derive(Clone, Debug, Default)]
pub struct Tasks {
    names: Interner,
    /// Aligned with the names' ids.
    scales: Vec<Scale>,
}

impl Tasks {
    /// The id of task `name` on `scale`. A name is one task on one scale: every reader gives a
    /// name the scale of the question it stands for, so a second scale for a name is a bug.
    pub fn intern(&mut self, name: &str, scale: Scale) -> u32 {
        let id = self.names.intern(name);
        match self.scales.get(id as usize) {
            None => self.scales.push(scale),
            Some(&known) => assert_eq!(known, scale, "the analysis task {name:?} on two scales"),
        }
        id
    }

    /// The agreement scale of task `id`.
    pub fn scale(&self, id: u32) -> Scale {
        self.scales[id as usize]
    }
}

impl std::ops::Deref for Tasks {
    type Target = Interner;
    fn deref(&self) -> &Interner {
        &self.names
    }
}

impl Serialize for Tasks {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.names.serialize(s)
    }
}

/// One judgment: 40 bytes, no heap data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgment {
    pub worker: u32,
    pub hit: u32,
    pub system: u32,
    pub segment: u32,
    pub lang_pair: u16,
    pub task: u16,
    pub item_type: ItemType,
    /// Raw score (0–100 for DA).
    pub score: f64,
    /// Seconds spent: on the whole HIT or on this item, see [`TimeBasis`].
    pub seconds: f32,
}

/// What [`Judgment::seconds`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeBasis {
    /// Every record of a HIT carries the HIT's total time (Graham/MTurk files).
    PerHit,
    /// Each record carries the time spent on its item (Appraise); a HIT's time is the sum.
    PerItem,
}

/// Judgments with their name tables.
#[derive(Clone, Debug)]
pub struct JudgmentSet {
    pub records: Vec<Judgment>,
    pub workers: Interner,
    pub hits: Interner,
    pub systems: Interner,
    pub segments: Interner,
    /// Language pairs named `src-trg`.
    pub lang_pairs: Interner,
    /// Analysis tasks (e.g. adequacy, fluency, a word-order question): QC and z-scores are
    /// computed per task, agreement on each task's scale.
    pub tasks: Tasks,
    pub time_basis: TimeBasis,
    /// Relative ranking: answers to gold blocks (never among `records`: they count in no
    /// score, ranking or agreement) and the campaign's rule for them.
    pub gold: gold::GoldSet,
}

/// The names of one judgment, for [`JudgmentSet::push`].
#[derive(Clone, Copy, Debug)]
pub struct JudgmentNames<'a> {
    pub worker: &'a str,
    pub hit: &'a str,
    pub system: &'a str,
    pub segment: &'a str,
    pub lang_pair: &'a str,
    pub task: &'a str,
    /// The agreement scale of `task`: its question's ([`crate::protocol::Question::scale`]), or
    /// the scale of the file format's only protocol (DA's files: continuous).
    pub scale: Scale,
}

impl JudgmentSet {
    pub fn new(time_basis: TimeBasis) -> Self {
        JudgmentSet {
            records: Vec::new(),
            workers: Interner::default(),
            hits: Interner::default(),
            systems: Interner::default(),
            segments: Interner::default(),
            lang_pairs: Interner::default(),
            tasks: Tasks::default(),
            time_basis,
            gold: gold::GoldSet::default(),
        }
    }

    /// Adds a judgment, interning its names. Panics past 65,535 language pairs or tasks.
    pub fn push(
        &mut self,
        names: JudgmentNames<'_>,
        item_type: ItemType,
        score: f64,
        seconds: f32,
    ) {
        let lang_pair = u16::try_from(self.lang_pairs.intern(names.lang_pair))
            .expect("at most 65,535 language pairs");
        let task = u16::try_from(self.tasks.intern(names.task, names.scale)).expect("at most 65,535 tasks");
        let record = Judgment {
            worker: self.workers.intern(names.worker),
            hit: self.hits.intern(names.hit),
            system: self.systems.intern(names.system),
            segment: self.segments.intern(names.segment),
            lang_pair,
            task,
            item_type,
            score,
            seconds,
        };
        self.records.push(record);
    }

    /// Appends the records of `other` (read after this set), re-numbering its names into this
    /// set's ids: names new to this set get the next ids in `other`'s order of first
    /// appearance, so the result is what reading both in sequence gives.
    pub fn append(&mut self, other: JudgmentSet) {
        fn remap(into: &mut Interner, from: &Interner) -> Vec<u32> {
            from.names().iter().map(|name| into.intern(name)).collect()
        }
        let workers = remap(&mut self.workers, &other.workers);
        let hits = remap(&mut self.hits, &other.hits);
        let systems = remap(&mut self.systems, &other.systems);
        let segments = remap(&mut self.segments, &other.segments);
        let to_u16 = |ids: Vec<u32>, what: &str| -> Vec<u16> {
            ids.into_iter().map(|id| u16::try_from(id).unwrap_or_else(|_| panic!("at most 65,535 {what}"))).collect()
        };
        let lang_pairs = to_u16(remap(&mut self.lang_pairs, &other.lang_pairs), "language pairs");
        let tasks = to_u16(
            other.tasks.names().iter().enumerate().map(|(id, name)| self.tasks.intern(name, other.tasks.scale(id as u32))).collect(),
            "tasks",
        );
        self.records.reserve(other.records.len());
        self.records.extend(other.records.into_iter().map(|j| Judgment {
            worker: workers[j.worker as usize],
            hit: hits[j.hit as usize],
            system: systems[j.system as usize],
            segment: segments[j.segment as usize],
            lang_pair: lang_pairs[j.lang_pair as usize],
            task: tasks[j.task as usize],
            ..j
        }));
    }
}

/// Every setting of the pipeline, with the METHOD defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisSettings {
    pub qc: QcSettings,
    /// Which workers' judgments are left out of z-scores, scores and comparisons.
    pub exclusion: ExclusionPolicy,
    pub z: ZSettings,
    /// Average per segment first, then over segments (later WMT practice); default off: the
    /// system score is the mean over all retained judgments (EACL 2014).
    pub average_per_segment: bool,
    /// Bootstrap confidence intervals of system scores, resampling segments.
    pub bootstrap: Option<BootstrapSettings>,
    pub comparison: ComparisonSettings,
}

impl Default for AnalysisSettings {
    fn default() -> Self {
        AnalysisSettings {
            qc: QcSettings::default(),
            exclusion: ExclusionPolicy::default(),
            z: ZSettings::default(),
            average_per_segment: false,
            bootstrap: Some(BootstrapSettings::default()),
            comparison: ComparisonSettings::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BootstrapSettings {
    pub samples: usize,
    pub confidence: f64,
    pub seed: u64,
}

impl Default for BootstrapSettings {
    fn default() -> Self {
        BootstrapSettings {
            samples: 1000,
            confidence: 0.95,
            seed: 0x5EED,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComparisonSettings {
    /// Significance level for wins, rank ranges and clusters.
    pub alpha: f64,
    /// Test each system's individual z-scores (default) or its per-segment mean z-scores.
    pub unit: ComparisonUnit,
    pub rank_sum: RankSumOptions,
    pub cluster_rule: ClusterRule,
}

impl Default for ComparisonSettings {
    fn default() -> Self {
        ComparisonSettings {
            alpha: 0.05,
            unit: ComparisonUnit::Judgments,
            rank_sum: RankSumOptions::default(),
            cluster_rule: ClusterRule::default(),
        }
    }
}

/// Scores and comparison of one (task, language pair).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupResult {
    pub task: u16,
    pub lang_pair: u16,
    /// Systems in the order of `comparison.systems` (best mean z first).
    pub systems: Vec<SystemScore>,
    /// Sorted by system, then segment id.
    pub segments: Vec<SegmentScore>,
    pub comparison: Comparison,
}

/// Everything the pipeline computed, serialisable to JSON. Ids index the name tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnalysisResult {
    pub settings: AnalysisSettings,
    pub names: Names,
    pub judgments: usize,
    /// Judgments of excluded workers (kept in the data, left out of the statistics).
    pub judgments_excluded: usize,
    /// Judgments whose worker could not be standardised (σ = 0 or a single score).
    pub judgments_unstandardised: usize,
    /// SYSTEM and REPEAT judgments that entered the scores.
    pub judgments_scored: usize,
    pub workers: Vec<WorkerQc>,
    pub standardization: Vec<Standardization>,
    pub groups: Vec<GroupResult>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Names {
    pub workers: Vec<String>,
    pub systems: Vec<String>,
    pub segments: Vec<String>,
    pub lang_pairs: Vec<String>,
    pub tasks: Vec<String>,
}

/// The whole pipeline on one set of judgments.
pub fn analyse(set: &JudgmentSet, settings: &AnalysisSettings) -> AnalysisResult {
    let workers = quality::run(set, &settings.qc);
    let n_tasks = set.tasks.len().max(1);
    // (worker, task) → excluded?
    let mut excluded = vec![false; set.workers.len() * n_tasks];
    for w in &workers {
        excluded[w.worker as usize * n_tasks + w.task as usize] = settings.exclusion.excludes(w);
    }
    let retained: Vec<bool> = set
        .records
        .iter()
        .map(|r| !excluded[r.worker as usize * n_tasks + r.task as usize])
        .collect();
    let judgments_excluded = retained.iter().filter(|k| !**k).count();
    let z = scores::standardize(set, &retained, &settings.z);
    let scored = scores::score_groups(set, &z.values, settings);
    let groups: Vec<GroupResult> = scored
        .into_iter()
        .map(|g| {
            let comparison = clusters::compare(&g, &settings.comparison);
            GroupResult {
                task: g.task,
                lang_pair: g.lang_pair,
                systems: comparison
                    .order
                    .iter()
                    .map(|&k| g.systems[k].clone())
                    .collect(),
                segments: g.segments,
                comparison: comparison.comparison,
            }
        })
        .collect();
    let judgments_scored = groups
        .iter()
        .flat_map(|g| &g.systems)
        .map(|s| s.n_judgments)
        .sum();
    AnalysisResult {
        settings: settings.clone(),
        names: Names {
            workers: set.workers.names().to_vec(),
            systems: set.systems.names().to_vec(),
            segments: set.segments.names().to_vec(),
            lang_pairs: set.lang_pairs.names().to_vec(),
            tasks: set.tasks.names().to_vec(),
        },
        judgments: set.records.len(),
        judgments_excluded,
        judgments_unstandardised: z.unstandardised,
        judgments_scored,
        workers,
        standardization: z.groups,
        groups,
    }
}

/// `items.iter().map(f)` on every core (scoped threads over contiguous slices), in order.
/// Small inputs stay on the calling thread.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || items.len() < 2 {
        return items.iter().map(f).collect();
    }
    let per = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = items.chunks(per).map(|chunk| scope.spawn(move || chunk.iter().map(f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("a pipeline thread panicked")).collect()
    })
}

/// [`par_map`] for owned items.
pub(crate) fn par_map_vec<T: Send, R: Send>(mut items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads < 2 || items.len() < 2 {
        return items.into_iter().map(f).collect();
    }
    let per = items.len().div_ceil(threads);
    let mut parts = Vec::new();
    while items.len() > per {
        parts.push(items.split_off(items.len() - per));
    }
    parts.push(items);
    parts.reverse();
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = parts.into_iter().map(|part| scope.spawn(move || part.into_iter().map(f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().expect("a pipeline thread panicked")).collect()
    })
}

#[cfg(test)]
mod crowd_evidence;
#[cfg(test)]
mod pipeline_tests;
