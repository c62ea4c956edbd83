//! Which of the campaign designer's fields a task shows, and the hints that depend on it: a
//! property asked of the task ([`TaskKind::designer`]), so that the designer page names no
//! task. Always built: the page reads it in the browser.

use crate::model::TaskKind;

/// The expected time of one judgment, where a task asks for it (tasks of documents go by
/// source words instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgmentTime {
    /// "Seconds per fluency judgment" (`seconds_per_fluency_judgment`).
    Fluency,
    /// "Seconds per judgment" (`seconds_per_adequacy_judgment`).
    Judgment,
}

/// The designer's fields of one task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DesignerFields {
    /// HITs sized by items ("Items per HIT": direct assessment and word order).
    pub items_per_hit: bool,
    /// HITs of whole documents sized by time, with document checks and context (ESA, MQM).
    pub documents: bool,
    /// A score of the whole document after its last segment (ESA).
    pub document_score: bool,
    /// The error taxonomy, its weights and limits (MQM).
    pub mqm: bool,
    /// Screens, blocks, outputs ranked together and gold blocks (relative ranking).
    pub ranking: bool,
    /// Bad references, repeats, references, sets and what reference items show (direct
    /// assessment).
    pub item_checks: bool,
    /// Permuted references and their degrees (word order).
    pub permutations: bool,
    /// How damaged copies are made (fluency damages text its own way, word order reorders).
    pub degradation_policy: bool,
    /// The expected time of a judgment, when asked.
    pub judgment_time: Option<JudgmentTime>,
    /// Wording: the source's label, the reference's, the rated text's.
    pub label_source: bool,
    pub label_reference: bool,
    pub label_candidate: bool,
    /// Practice items before the first HIT.
    pub practice: bool,
    /// A statement rated on a slider with two anchors.
    pub statement: bool,
    /// Word order's two questions and their scales.
    pub two_questions: bool,
    /// What the chosen reference is for, under its field.
    pub reference_help: &'static str,
    /// What a reference item is, under its field (with `item_checks`).
    pub reference_item_help: &'static str,
}

const REFERENCE_SHOWN: &str = "The human translation annotators see beside each output, and the one damaged copies are made from.";
const REFERENCE_HIDDEN: &str = "The human translation the damaged copies and checks are made from (annotators do not see it).";
const REFERENCE_REORDERED: &str = "The human translation whose words are reordered for this task's checks.";
const REF_ITEM_BESIDE: &str = "A reference item shows a human translation as if it were a system output: a careful worker scores it high. \
With one reference, adequacy shows that same text as the reference beside it, so the item checks only that a worker \
scores a perfect match high (and an attentive worker may recognise it). A second reference makes it an independent \
human translation, indistinguishable by content.";
const REF_ITEM_APART: &str = "A reference item shows a human translation as if it were a system output: a careful worker scores it high. \
A second reference, where the test set has one, keeps it apart from the reference used elsewhere.";

impl TaskKind {
    /// The designer's fields for this task.
    pub fn designer(self) -> DesignerFields {
        let base = DesignerFields {
            items_per_hit: false,
            documents: false,
            document_score: false,
            mqm: false,
            ranking: false,
            item_checks: false,
            permutations: false,
            degradation_policy: true,
            judgment_time: Some(JudgmentTime::Judgment),
            label_source: false,
            label_reference: false,
            label_candidate: true,
            practice: true,
            statement: true,
            two_questions: false,
            reference_help: REFERENCE_SHOWN,
            reference_item_help: REF_ITEM_APART,
        };
        let direct = DesignerFields { items_per_hit: true, item_checks: true, ..base };
        let documents = DesignerFields {
            documents: true,
            judgment_time: None,
            label_source: true,
            reference_help: REFERENCE_HIDDEN,
            ..base
        };
        match self {
            TaskKind::DaAdequacy => DesignerFields { label_reference: true, reference_item_help: REF_ITEM_BESIDE, ..direct },
            TaskKind::DaFluency => DesignerFields {
                degradation_policy: false,
                judgment_time: Some(JudgmentTime::Fluency),
                reference_help: REFERENCE_HIDDEN,
                ..direct
            },
            TaskKind::DaSourceBased => DesignerFields { label_source: true, ..direct },
            TaskKind::WordOrder => DesignerFields {
                items_per_hit: true,
                permutations: true,
                degradation_policy: false,
                label_candidate: false,
                statement: false,
                two_questions: true,
                reference_help: REFERENCE_REORDERED,
                ..base
            },
            TaskKind::Ranking => DesignerFields {
                ranking: true,
                label_source: true,
                label_reference: true,
                label_candidate: false,
                practice: false,
                ..base
            },
            TaskKind::Esa => DesignerFields { document_score: true, ..documents },
            TaskKind::Mqm => DesignerFields { mqm: true, ..documents },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every task shows one way of sizing its HITs and one kind of checks, and the page's
    /// previous per-task choices hold (pages.rs before issue 38: e.g. fluency hid the
    /// degradation choice, ranking had no practice, word order no statement).
    #[test]
    fn each_task_has_one_way_to_size_its_hits() {
        for t in TaskKind::ALL {
            let d = t.designer();
            let sizes = [d.items_per_hit && !d.permutations, d.documents, d.ranking, d.permutations].iter().filter(|x| **x).count();
            assert_eq!(sizes, 1, "{t:?}");
            assert_eq!(d.item_checks, matches!(t, TaskKind::DaAdequacy | TaskKind::DaFluency | TaskKind::DaSourceBased), "{t:?}");
            assert_eq!(d.documents, t.marks_spans(), "{t:?}");
            assert_eq!(d.statement, !d.two_questions, "{t:?}");
            assert!(!d.reference_help.is_empty());
        }
        assert!(!TaskKind::DaFluency.designer().degradation_policy && !TaskKind::WordOrder.designer().degradation_policy);
        assert!(!TaskKind::Ranking.designer().practice && !TaskKind::Ranking.designer().label_candidate);
        assert_eq!(TaskKind::DaFluency.designer().judgment_time, Some(JudgmentTime::Fluency));
        assert_eq!(TaskKind::Esa.designer().judgment_time, None);
        assert!(TaskKind::Esa.designer().document_score && !TaskKind::Mqm.designer().document_score);
        assert!(TaskKind::Mqm.designer().mqm && !TaskKind::Esa.designer().mqm);
        assert!(TaskKind::DaAdequacy.designer().label_reference && !TaskKind::DaSourceBased.designer().label_reference);
    }
}
