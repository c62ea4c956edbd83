//! What the campaign designer shows for a protocol ([`super::Protocol::designer`]): which of
//! its fields apply and the hints that depend on the protocol, so that the designer page names
//! no protocol. Always built: the page reads it in the browser.

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
    /// Pairs per HIT, pairs with a degraded copy, repeated pairs and the reference under the
    /// source (pairwise preference).
    pub pairs: bool,
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

pub const REFERENCE_SHOWN: &str = "The human translation annotators see beside each output, and the one damaged copies are made from.";
pub const REFERENCE_HIDDEN: &str = "The human translation the damaged copies and checks are made from (annotators do not see it).";
pub const REFERENCE_REORDERED: &str = "The human translation whose words are reordered for this task's checks.";
pub const REF_ITEM_BESIDE: &str = "A reference item shows a human translation as if it were a system output: a careful worker scores it high. \
With one reference, adequacy shows that same text as the reference beside it, so the item checks only that a worker \
scores a perfect match high (and an attentive worker may recognise it). A second reference makes it an independent \
human translation, indistinguishable by content.";
pub const REF_ITEM_APART: &str = "A reference item shows a human translation as if it were a system output: a careful worker scores it high. \
A second reference, where the test set has one, keeps it apart from the reference used elsewhere.";

impl DesignerFields {
    /// The fields every protocol starts from: a statement on a slider, practice, the rated
    /// text's label, a judgment time, the reference shown.
    pub const BASE: DesignerFields = DesignerFields {
        items_per_hit: false,
        documents: false,
        document_score: false,
        mqm: false,
        ranking: false,
        item_checks: false,
        pairs: false,
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
    /// Single items with hidden checks (direct assessment).
    pub const DIRECT: DesignerFields = DesignerFields { items_per_hit: true, item_checks: true, ..DesignerFields::BASE };
    /// Whole documents sized by time (ESA, MQM).
    pub const DOCUMENTS: DesignerFields = DesignerFields {
        documents: true,
        judgment_time: None,
        label_source: true,
        reference_help: REFERENCE_HIDDEN,
        ..DesignerFields::BASE
    };
}
