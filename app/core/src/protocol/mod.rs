//! The judgment model: what a protocol is, in one place.
//!
//! A protocol (direct assessment, word order; later relative ranking, ESA, MQM) says
//! - what a screen shows ([`Layout`]: one output, several outputs of one source, a document),
//! - what an answer holds ([`Answer`]: a score, a second score, a rank among the outputs shown
//!   together, error spans with their severity and category, a score for the whole document),
//! - how an answer is checked before it is stored ([`Protocol::validate`]),
//! - which quality-control items its HITs hide ([`Protocol::quality_control`]),
//! - which numeric questions its answers feed into analysis ([`Protocol::questions`]: DA has one,
//!   word order two, each analysed as a task of its own), each with the scale its agreement is
//!   measured on ([`Question::scale`]).
//!
//! Each protocol is one module of this folder implementing [`Protocol`]; [`for_task`] is the one
//! registry from a campaign's [`TaskKind`] to its protocol. How to add one: `ARCHITECTURE.md`.
//!
//! Storage: the scalar parts of an answer are columns of `judgments` (`score`, `score2`,
//! `skipped`), so that analysis reads numbers without decoding anything; the structured parts
//! ([`Detail`]: rank, spans, document score) are one JSON value in `judgments.detail`, `NULL`
//! when an answer has none (every DA and word-order answer).

pub mod contrastive;
pub mod da;
pub mod demo;
pub mod designer;
pub mod esa;
pub mod mqm;
pub mod pairwise;
pub mod postedit;
pub mod ranking;
pub mod spans;
pub mod word_order;

pub use spans::{Scheme, Severity, Span, SpanError};

use serde::{Deserialize, Serialize};

use crate::model::{ItemType, TaskKind};
use crate::report::Scale;

/// What one screen of a HIT shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// One output, alone or with its reference or source beside it (DA, word order).
    Single,
    /// Several outputs of the same source, judged together (relative ranking).
    Several {
        /// Outputs per screen.
        outputs: usize,
    },
    /// The segments of a document in order, with the preceding ones as context (ESA, MQM).
    Document,
}

/// The structured parts of an answer, stored as JSON in `judgments.detail`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Detail {
    /// Relative ranking: this output's rank (1 = best) among the outputs shown with it; tied
    /// outputs share a rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// Error spans (ESA, MQM), in the order they were marked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<Span>,
    /// A score for the whole document the item ends (document-level items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document_score: Option<f64>,
    /// Pairwise preference: the sides shown and the choice ([`pairwise::Preference`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preference: Option<pairwise::Preference>,
    /// Post-editing: the edited text and its times ([`postedit::PostEdit`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_edit: Option<postedit::PostEdit>,
}

impl Detail {
    pub fn is_empty(&self) -> bool {
        self.rank.is_none() && self.spans.is_empty() && self.document_score.is_none() && self.preference.is_none() && self.post_edit.is_none()
    }

    /// The JSON stored in `judgments.detail`: `None` (SQL `NULL`) when there is nothing.
    pub fn to_column(&self) -> Option<String> {
        (!self.is_empty()).then(|| serde_json::to_string(self).expect("a detail always serialises"))
    }

    /// Reads `judgments.detail`.
    pub fn from_column(column: Option<&str>) -> Result<Detail, serde_json::Error> {
        match column {
            None => Ok(Detail::default()),
            Some(json) => serde_json::from_str(json),
        }
    }
}

/// One answer to one item: what is stored for a judgment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// DA: 0–100 at full resolution. Word order: the first question, 0–1. ESA/MQM: the score.
    pub score: Option<f64>,
    /// Word order: the second question, 0–1.
    pub score2: Option<f64>,
    /// The annotator skipped the item explicitly (where the campaign allows it).
    #[serde(default)]
    pub skipped: bool,
    #[serde(default, skip_serializing_if = "Detail::is_empty")]
    pub detail: Detail,
}

/// What the campaign allows, as far as answers go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswerRules {
    /// An item may be skipped explicitly.
    pub allow_skip: bool,
    /// Word order on two continuous sliders (0–1) instead of two rows of five boxes.
    pub woj_sliders: bool,
    /// Relative ranking: outputs per block (the highest rank).
    pub outputs: usize,
}

/// An answer that cannot be stored: which part, and what is wrong with it, in words the
/// annotator understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem}")]
pub struct InvalidAnswer {
    /// The part of the answer: `score`, `score2`, `skipped`, `detail`.
    pub field: &'static str,
    pub problem: String,
}

impl InvalidAnswer {
    pub fn new(field: &'static str, problem: impl Into<String>) -> InvalidAnswer {
        InvalidAnswer { field, problem: problem.into() }
    }
}

/// A numeric question an answer feeds into analysis: quality control, z-scores and system
/// scores are computed per question, as for a task of its own, and its agreement on its own
/// scale.
#[derive(Clone, Copy, Debug)]
pub struct Question {
    /// The analysis task of the question's records; `None`: the campaign's task itself.
    pub analysis_task: Option<&'static str>,
    /// The question's value in an answer (`None`: the answer does not count for it).
    pub read: fn(&Answer) -> Option<f64>,
    /// How agreement between two answers to the question is measured. The records of the
    /// question carry it into analysis (`JudgmentSet::tasks`), so that the agreement report
    /// takes it from here and never from the analysis task's name.
    pub scale: Scale,
    /// The range of its raw scores.
    pub range: RawRange,
}

impl Question {
    /// The analysis task name of this question in a campaign of `task`.
    pub fn task_name(&self, task: TaskKind) -> &'static str {
        self.analysis_task.unwrap_or(task.as_str())
    }
}

/// A protocol of human evaluation. Implemented once per protocol module of this folder.
pub trait Protocol: Sync {
    /// The protocol's name in the field's words.
    fn name(&self) -> &'static str;
    /// What one screen shows.
    fn layout(&self) -> Layout;
    /// Checks an answer that is not skipped (skipping is checked by [`validate`]) and returns
    /// it as it is to be stored.
    fn validate_answer(&self, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer>;
    /// The numeric questions its answers feed into analysis, in order.
    fn questions(&self) -> &'static [Question];
    /// The quality-control item types its HITs hide besides real items.
    fn quality_control(&self) -> &'static [ItemType];
    /// The rules error spans follow, for a protocol whose answers mark them (ESA, MQM).
    fn span_scheme(&self) -> Option<Scheme>;
    /// Whether a practice answer (already valid) is where a careful reader's would be
    /// ([`Practice`]); [`within_ranges`] for a protocol whose questions are numbers.
    fn practice_matches(&self, expected: &Practice, answer: &Answer) -> bool;
    /// The part of the HIT builder that composes its HITs.
    fn hit_plan(&self) -> HitPlan;
    /// What the screen shows beside the text judged (and so what the test set must have).
    fn beside(&self) -> Beside;
    /// How a degraded copy of a text is made for its bad references, practice and previews.
    fn degrader(&self) -> Degrader;
    /// Its practice (issue 18): the ranges a careful reader's answers fall in; `None`: the
    /// protocol has no practice yet.
    fn practice(&self) -> Option<PracticeRule>;
    /// The short name of its items in a simulated crowd's files (`ad`, `wo`, …).
    fn simulated_name(&self) -> &'static str;
    /// How a worker's reliability is tested, by the quality gate at submission and the review
    /// page ([`WorkerTest`]).
    fn worker_test(&self) -> WorkerTest;
    /// Its catalog keys ([`crate::i18n::Text`]): its name on the home page, its default
    /// wording (METHOD §1) in every interface language; the English catalog's is the default a
    /// campaign stores (`settings::Wording::of`).
    fn catalog(&self) -> Catalog;
    /// Which of the campaign designer's fields apply, and its hints.
    fn designer(&self) -> designer::DesignerFields;
}

/// A protocol's keys in the interface catalogs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Catalog {
    /// The task's name on a worker's home page.
    pub home_task: crate::i18n::Text,
    /// The default statement (none: the screen shows none) and instructions in every
    /// language.
    pub wording: (Option<crate::i18n::Text>, crate::i18n::Text),
    /// The ends of its slider (ESA has its own, Appraise's anchors; a protocol without a
    /// slider gives DA's, which its screen does not show).
    pub anchors: (crate::i18n::Text, crate::i18n::Text),
}

/// What the practice feedback says beside the reason (issue 18).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// Where on the slider a careful reader would be (DA).
    Slider,
    /// The two questions' boxes (word order).
    Boxes,
    /// Errors marked, then the score (ESA).
    SpansAndScore,
    /// Errors marked with their category (MQM, no score).
    Spans,
    /// Which of two outputs a careful reader prefers (pairwise preference).
    Pair,
    /// Which output of a screen a careful reader ranks below which (relative ranking).
    Ranks,
}

/// [`Protocol::practice_matches`] of a protocol whose questions are numbers: each numeric
/// question within its expected range.
pub fn within_ranges(expected: &Practice, answer: &Answer) -> bool {
    answer.score.is_some_and(|s| expected.within(s, expected.range1)) && answer.score2.is_none_or(|s| expected.within(s, expected.range2))
}

/// The part of the HIT builder a protocol's HITs come from (`hit`, METHOD §2–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitPlan {
    /// Single items with bad references, repeats and references hidden among them (DA).
    Items,
    /// Machine and human translations of one source with permuted references (word order).
    WordOrderPairs,
    /// Blocks of outputs of one source on screens of consecutive segments (relative ranking).
    Blocks,
    /// Whole documents sized by expected time, with degraded and repeated copies (ESA, MQM).
    Documents,
    /// Pairs of two systems' outputs of one source, the side shown on the left drawn per
    /// item; degraded copies against their own original and repeated pairs with the sides
    /// swapped (pairwise preference, `hit::build_pair_hits`).
    Pairs,
}

/// How a worker's reliability is tested (METHOD §4): what the quality gate at submission runs
/// on the worker's own judgments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerTest {
    /// The analysis pipeline's paired test on scores: each degraded copy's score against its
    /// original's (and the gold blocks' check where the protocol has them).
    ScorePairs,
    /// The sign test on choices between a degraded copy and its original shown together as one
    /// item (the degraded side preferred no more often than chance; `pairwise::qc`).
    CopyPreferences,
}

/// What a screen shows beside the text judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beside {
    /// A human reference (in gray): every item needs one.
    Reference,
    /// The source text.
    Source,
    /// Nothing: the text is read alone (fluency).
    Nothing,
}

/// How a degraded copy is made (`hit::degrade`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Degrader {
    /// Meaning removed or replaced (adequacy; the campaign's policy says how).
    Adequacy,
    /// Words repeated where they do not belong (fluency).
    Fluency,
    /// Words moved out of order (word order).
    WordOrder,
}

/// What a careful reader answers to a protocol's practice items: the ranges of its two numeric
/// questions for a human translation (`high`) and for a strongly degraded copy (`low`), and why
/// a human translation scores high (`high_reason`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PracticeRule {
    pub high: ((f64, f64), (f64, f64)),
    pub low: ((f64, f64), (f64, f64)),
    pub high_reason: crate::i18n::Text,
    pub feedback: Feedback,
}

/// Practice ranges: a DA slider's high and low ranges, word order's boxes, anything.
pub const DA_HIGH: (f64, f64) = (60.0, 100.0);
pub const DA_LOW: (f64, f64) = (0.0, 50.0);
pub const WOJ_HIGH: (f64, f64) = (0.75, 1.0);
pub const WOJ_LOW: (f64, f64) = (0.0, 0.5);
pub const ANY: (f64, f64) = (0.0, 1.0);
/// Several outputs on one practice screen (pairwise preference, ranking): the original's share
/// of the win against its degraded copies (`hit::practice::PracticeItem::original_share`) is 1,
/// the original preferred to every copy.
pub const ORIGINAL_PREFERRED: (f64, f64) = (1.0, 1.0);

/// The range of a question's raw scores as pages show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawRange {
    /// 0–1 (word order's questions, a rank read as a score).
    Unit,
    /// 0–100 (DA's slider, ESA's score).
    Percent,
}

impl RawRange {
    pub fn label(self) -> &'static str {
        match self {
            RawRange::Unit => "0–1",
            RawRange::Percent => "0–100",
        }
    }
    /// Decimals to show a raw score with.
    pub fn decimals(self) -> usize {
        match self {
            RawRange::Unit => 3,
            RawRange::Percent => 1,
        }
    }
}

/// The raw range of an analysis task by its name (a campaign task, or one of its questions);
/// a name no protocol gives (a DA file's own task name, `ad`) is DA's, 0–100.
pub fn raw_range(analysis_task: &str) -> RawRange {
    TaskKind::ALL
        .iter()
        .flat_map(|&t| for_task(t).questions().iter().map(move |q| (q.task_name(t), q.range)))
        .find(|(name, _)| *name == analysis_task)
        .map_or(RawRange::Percent, |(_, r)| r)
}

/// What a careful reader answers to a practice item (issue 18): a human translation (`high`)
/// or a strongly degraded copy of one, with the expected range of each numeric question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Practice {
    pub high: bool,
    /// The first question (DA, ESA: 0–100; word order: 0–1).
    pub range1: (f64, f64),
    /// Word order's second question.
    pub range2: (f64, f64),
}

impl Practice {
    /// `v` lies in `(lo, hi)`, ends included.
    pub fn within(&self, v: f64, (lo, hi): (f64, f64)) -> bool {
        v >= lo - 1e-9 && v <= hi + 1e-9
    }
}

impl TaskKind {
    /// The task's stored name (`campaigns.task`, the files' task column): its protocol's.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKind::DaAdequacy => da::ADEQUACY_NAME,
            TaskKind::DaFluency => da::FLUENCY_NAME,
            TaskKind::DaSourceBased => da::SOURCE_BASED_NAME,
            TaskKind::WordOrder => word_order::NAME,
            TaskKind::Ranking => ranking::NAME,
            TaskKind::Esa => esa::NAME,
            TaskKind::Mqm => mqm::NAME,
            TaskKind::Pairwise => pairwise::NAME,
            TaskKind::PostEdit => postedit::NAME,
            TaskKind::ContrastiveEsa => contrastive::NAME,
        }
    }
}

/// What a task is called on pages: campaign tasks, and the analysis tasks of the two word-order
/// questions (see `analysis::db`).
pub fn task_label(task: &str) -> &'static str {
    match task {
        word_order::WORD_ORDER_Q1 => "Word order, Q1: grasping the meaning",
        word_order::WORD_ORDER_Q2 => "Word order, Q2: the order's own effect",
        name => match TaskKind::parse(name) {
            Some(TaskKind::DaAdequacy) => "DA adequacy",
            Some(TaskKind::DaFluency) => "DA fluency",
            Some(TaskKind::DaSourceBased) => "DA source-based",
            Some(TaskKind::WordOrder) => "Word order",
            Some(TaskKind::Ranking) => "Relative ranking",
            Some(TaskKind::Esa) => "Error span annotation (ESA)",
            Some(TaskKind::Mqm) => "MQM (error categories)",
            Some(TaskKind::Pairwise) => "Pairwise preference",
            Some(TaskKind::PostEdit) => "Post-editing (HTER)",
            Some(TaskKind::ContrastiveEsa) => "Contrastive error span annotation",
            None => "Unknown task",
        },
    }
}

impl TaskKind {
    /// Every task, in the designer's order.
    pub const ALL: [TaskKind; 10] = [
        TaskKind::DaAdequacy,
        TaskKind::DaFluency,
        TaskKind::DaSourceBased,
        TaskKind::WordOrder,
        TaskKind::Ranking,
        TaskKind::Esa,
        TaskKind::Mqm,
        TaskKind::Pairwise,
        TaskKind::PostEdit,
        TaskKind::ContrastiveEsa,
    ];

    /// A task of documents whose answers mark error spans (ESA, MQM): HITs of whole documents,
    /// the document as context, spans in the judgment's detail.
    pub fn marks_spans(self) -> bool {
        match self {
            TaskKind::Esa | TaskKind::Mqm => true,
            TaskKind::DaAdequacy | TaskKind::DaFluency | TaskKind::DaSourceBased | TaskKind::WordOrder | TaskKind::Ranking | TaskKind::Pairwise | TaskKind::PostEdit | TaskKind::ContrastiveEsa => false,
        }
    }
}

/// The protocol of a campaign task: the one registry.
pub fn for_task(task: TaskKind) -> &'static dyn Protocol {
    match task {
        TaskKind::DaAdequacy => &da::ADEQUACY,
        TaskKind::DaFluency => &da::FLUENCY,
        TaskKind::DaSourceBased => &da::SOURCE_BASED,
        TaskKind::WordOrder => &word_order::WordOrder,
        TaskKind::Ranking => &ranking::Ranking,
        TaskKind::Esa => &esa::ErrorSpans,
        TaskKind::Mqm => &mqm::Mqm,
        TaskKind::Pairwise => &pairwise::PairwisePreference,
        TaskKind::PostEdit => &postedit::PostEditing,
        TaskKind::ContrastiveEsa => &contrastive::ContrastiveEsa,
    }
}

/// Whether a task's HITs are blocks of outputs ranked against each other (relative ranking:
/// analysis reads its blocks as rankings and its gold blocks check its workers). A protocol of
/// blocks whose outputs are each marked with error spans and scored on their own (contrastive
/// ESA) is analysed by its scores, as ESA is.
pub fn ranks_blocks(task: TaskKind) -> bool {
    let p = for_task(task);
    p.hit_plan() == HitPlan::Blocks && p.span_scheme().is_none()
}

/// Whether a task's HITs are blocks of outputs each scored on its own (contrastive ESA): its
/// analysis compares the systems within screens beside the pipeline.
pub fn scores_blocks(task: TaskKind) -> bool {
    for_task(task).hit_plan() == HitPlan::Blocks && !ranks_blocks(task)
}

/// Checks a design's blocks (outputs per block, blocks per screen) against what a protocol of
/// blocks allows: a protocol scoring each output of a block (contrastive ESA) compares 2–4
/// outputs of one segment per screen; `Err`: what is wrong, in the designer's words.
pub fn check_blocks(task: TaskKind, outputs: usize, blocks_per_screen: usize) -> Result<(), String> {
    if !scores_blocks(task) {
        return Ok(());
    }
    contrastive::check_design(outputs, blocks_per_screen)
}

/// Checks an answer against its task and the campaign's rules: skipping first (the same for
/// every protocol), then the protocol's own rules. Returns the answer to store.
pub fn validate(task: TaskKind, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
    if answer.skipped {
        if !rules.allow_skip {
            return Err(InvalidAnswer::new("skipped", "This campaign does not allow skipping an item."));
        }
        if answer.score.is_some() || answer.score2.is_some() || !answer.detail.is_empty() {
            return Err(InvalidAnswer::new("skipped", "A skipped item cannot also have an answer."));
        }
        return Ok(Answer { skipped: true, ..Answer::default() });
    }
    for_task(task).validate_answer(answer, rules)
}

/// [`validate`], then the answer's error spans against `text`, the text the annotator was
/// shown (for a protocol that marks spans; every span of any other protocol's answer is
/// refused by its own validation).
pub fn validate_on(task: TaskKind, text: &str, answer: &Answer, rules: &AnswerRules) -> Result<Answer, InvalidAnswer> {
    let stored = validate(task, answer, rules)?;
    if let Some(scheme) = for_task(task).span_scheme() {
        spans::validate_spans(text, &stored.detail.spans, scheme)
            .map_err(|(i, e)| InvalidAnswer::new("detail", format!("Error span {}: {e}.", i + 1)))?;
    }
    Ok(stored)
}

#[cfg(test)]
mod tests;
