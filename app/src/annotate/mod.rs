//! Annotation: the worker's side of a HIT (METHOD §1), from an existing row in `assignments`
//! to its completion code.
//!
//! One item per screen, no way back, progress "37 of 100", resume after a reload, a completion
//! code signed by the server at the end. What the browser receives about an item is the same
//! for every item type: an opaque address (assignment public id + position), the texts, and
//! nothing else — no type, no system, no database id (METHOD §2, last rule).
//!
//! `api` holds the server functions, `pages` the work page around the screens, `screens` each
//! protocol's screen (one browser bundle each),
//! `server` (SSR only) the domain: ownership, answer-once storage, completion codes.
//! `fixture` (SSR only) seeds a test campaign for the demo and the tests.

pub mod api;
pub mod early;
pub mod pages;
pub mod screens;
#[cfg(feature = "ssr")]
pub mod fixture;
#[cfg(feature = "ssr")]
pub mod server;
#[cfg(feature = "ssr")]
pub mod simulate;

use serde::{Deserialize, Serialize};

/// The words of the screens: the campaign's wording (METHOD §1), read by [`screen_settings`].
pub use crate::campaign::Wording;
use crate::campaign::CampaignSettings;
use crate::model::{AssignmentStatus, TaskKind};
pub use assay_core::i18n::{Lang, Msg};

/// How the campaign's settings shape the screens. Read by [`screen_settings`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScreenSettings {
    pub wording: Wording,
    /// The target language as the settings name it (a name such as "German", or a code).
    pub target_language: String,
    /// The target language's BCP 47 tag (`en`, `ar`, `pt-BR`; `und` when unknown), from the
    /// test set's code: the `lang` of the texts and of the campaign's wording.
    #[serde(default)]
    pub lang: String,
    /// The source language's name, shown on the word-order screen.
    pub source_language_name: String,
    /// Word order on two 0–100 sliders instead of two rows of 5 boxes.
    pub woj_sliders: bool,
    /// The annotator may skip an item explicitly (word order).
    pub allow_skip: bool,
    /// Relative ranking: outputs per block (the highest rank a translation can get).
    #[serde(default)]
    pub rank_outputs: usize,
    /// The human reference is shown under the source (ranking's or pairwise's choice:
    /// `CampaignSettings::shows_reference`).
    #[serde(default)]
    pub show_reference: bool,
    /// Active time: seconds without input after which the time on an item is idle.
    #[serde(default)]
    pub idle_gap_seconds: i64,
    /// The interface language (issue 18 item 3): the words of the screens around the texts.
    #[serde(default)]
    pub ui: Lang,
    /// The language of the wording (statement, labels, anchors, questions, Next, the
    /// instructions): the interface language's tag when the wording is the task's default (so
    /// translated), else the target language's (an organizer writes it in the target
    /// language); with its direction.
    #[serde(default)]
    pub wording_lang: String,
    #[serde(default)]
    pub wording_dir: String,
    /// The interface messages in `ui`, indexed by [`Msg`] (`Msg::X as usize`): the server sends
    /// the one language the page needs, so the browser bundle carries no catalog.
    #[serde(default)]
    pub texts: Vec<String>,
    /// Documents (ESA): `none`, `left` or `whole` (what the screen shows around a segment).
    #[serde(default)]
    pub document_context: String,
    /// MQM: the error categories an annotator chooses from (`Parent/Child`), whether Critical
    /// may be marked, and the most errors per segment (0: no limit).
    #[serde(default)]
    pub mqm_categories: Vec<String>,
    /// The categories' labels in the interface language, in the same order (the default
    /// taxonomy's names translated, an organizer's as written: `assay_core::i18n::mqm`).
    #[serde(default)]
    pub mqm_labels: Vec<String>,
    #[serde(default)]
    pub mqm_critical: bool,
    #[serde(default)]
    pub mqm_max_errors: usize,
}

/// The screen settings of a campaign, from its stored `settings` JSON read by
/// [`CampaignSettings::read`] (the task's defaults for anything missing or malformed).
/// `target_lang` is the test set's target-language code: it stands for the language on the
/// page unless the settings name another one.
pub fn screen_settings(settings_json: &str, task: TaskKind, target_lang: &str, source_lang_name: &str) -> ScreenSettings {
    let target_name = language_name(target_lang);
    let s = CampaignSettings::read(settings_json, task, &target_name, source_lang_name);
    let show_reference = s.shows_reference(task);
    ScreenSettings {
        wording: s.wording,
        target_language: if s.target_language == target_name { target_lang.to_string() } else { s.target_language },
        lang: bcp47(target_lang),
        source_language_name: s.source_language_name,
        woj_sliders: s.word_order.sliders(),
        allow_skip: s.allow_skip,
        rank_outputs: s.ranking.outputs,
        show_reference,
        idle_gap_seconds: s.idle_gap_seconds,
        ui: Lang::En,
        texts: Vec::new(),
        wording_lang: bcp47(target_lang),
        #[cfg(feature = "ssr")]
        wording_dir: direction_of(target_lang).to_string(),
        #[cfg(not(feature = "ssr"))]
        wording_dir: "ltr".to_string(),
        document_context: s.documents.context.as_str().to_string(),
        mqm_labels: if assay_core::protocol::for_task(task).span_scheme() == Some(assay_core::protocol::Scheme::Mqm) { s.mqm.taxonomy.categories.iter().map(|c| assay_core::i18n::mqm::label(Lang::En, c)).collect() } else { Vec::new() },
        mqm_categories: if assay_core::protocol::for_task(task).span_scheme() == Some(assay_core::protocol::Scheme::Mqm) { s.mqm.taxonomy.categories.clone() } else { Vec::new() },
        mqm_critical: s.mqm.critical,
        mqm_max_errors: s.mqm.max_errors,
    }
}

/// The screen settings as an annotator reads them (issue 18 item 3): in the interface language
/// [`Lang::choose`] gives (the campaign's setting, its target language, the browser's
/// `Accept-Language`), with the task's default wording and the source language's name in that
/// language; what the organizer wrote stays as written.
#[cfg(feature = "ssr")]
pub fn localized_screen_settings(settings_json: &str, kind: TaskKind, target_lang: &str, source_lang: &str, accept_language: Option<&str>) -> ScreenSettings {
    let source_name = language_name(source_lang);
    let mut screen = screen_settings(settings_json, kind, target_lang, &source_name);
    let ui = interface_language(settings_json, kind, target_lang, accept_language);
    let s = CampaignSettings::read(settings_json, kind, &language_name(target_lang), &source_name);
    // The stored defaults name the languages as the settings do, or (wording not stored) by
    // the codes' English names.
    let localize = |w, target: &str, source: &str| assay_core::wording::localize(w, kind, ui, (target_lang, target), (source_lang, source));
    let stored_next = screen.wording.next_label.clone();
    screen.wording = localize(screen.wording, &s.target_language, &s.source_language_name);
    screen.wording = localize(screen.wording, &language_name(target_lang), &source_name);
    if ui != Lang::En && screen.source_language_name == source_name {
        screen.source_language_name = assay_core::wording::language_name(ui, source_lang, &source_name);
    }
    // The default Next says the wording is the task's default (an organizer who writes the
    // wording in the target language changes it too).
    let english = CampaignSettings::read("{}", kind, "", "").wording.next_label;
    if stored_next == english {
        screen.wording_lang = ui.tag().to_string();
        screen.wording_dir = ui.dir().to_string();
    }
    screen.mqm_labels = screen.mqm_categories.iter().map(|c| assay_core::i18n::mqm::label(ui, c)).collect();
    screen.ui = ui;
    screen.texts = Msg::ALL.iter().map(|&m| ui.msg(m).to_string()).collect();
    screen
}

/// The title of a campaign's HITs for annotators: the organizer's title for them, else a
/// neutral one in the interface language.
pub fn public_title(settings_json: &str, task: TaskKind, ui: Lang) -> String {
    let title = CampaignSettings::read(settings_json, task, "", "").public_title;
    if title.trim().is_empty() { ui.text(assay_core::i18n::Text::WorkTitle).to_string() } else { title.trim().to_string() }
}

/// A campaign's interface language: the organizer's choice, else the test set's target
/// language if the catalog has it, else the browser's first language the catalog has, else
/// English.
#[cfg(feature = "ssr")]
pub fn interface_language(settings_json: &str, task: TaskKind, target_lang: &str, accept_language: Option<&str>) -> Lang {
    let chosen = CampaignSettings::read(settings_json, task, "", "").interface_language;
    Lang::choose(&chosen, target_lang, accept_language)
}

/// The request's `Accept-Language` header, if any (see [`crate::web::accept_language`]).
#[cfg(feature = "ssr")]
pub use crate::web::accept_language;

/// The BCP 47 tag of a test set's language code (`deu` → `de`, `pt_br` → `pt-BR`), `und`
/// (undetermined) for a code that is not one: a valid `lang` attribute either way.
pub fn bcp47(code: &str) -> String {
    #[cfg(feature = "ssr")]
    {
        if let Ok(c) = crate::import::LangCode::parse(code) {
            return c.to_string();
        }
    }
    let _ = code;
    "und".to_string()
}

/// The English name of a language code, or the code itself when it is unknown.
fn language_name(code: &str) -> String {
    #[cfg(feature = "ssr")]
    {
        if let Ok(c) = crate::import::LangCode::parse(code) {
            return c.english_name().to_string();
        }
    }
    code.to_string()
}

/// `"rtl"` or `"ltr"` for a language code (for the `dir` attribute).
#[cfg(feature = "ssr")]
pub fn direction_of(code: &str) -> &'static str {
    match crate::import::LangCode::parse(code) {
        Ok(c) if c.is_rtl() => "rtl",
        _ => "ltr",
    }
}

/// One item as the annotator's browser receives it. Identical in shape for every item type:
/// no id besides the position, no type, no system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemView {
    /// 0-based position in the HIT; with the assignment's public id, the item's only address.
    pub position: i64,
    /// The text being judged (black): the MT output, or what stands in its place.
    pub candidate: String,
    /// The text shown with it: the reference (gray) for adequacy and word order, the source
    /// for source-based DA and relative ranking; `None` for fluency (then for every item of
    /// the campaign).
    pub context: Option<String>,
    /// Relative ranking with the reference shown: the human reference, under the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Relative ranking: the screen the item is shown on, with the other items of that screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<i64>,
    /// Documents (ESA): the segment's place in its document and the document's other segments
    /// as the screen shows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<DocumentView>,
    /// ESA/MQM: the spans the screen starts with (pre-filled, ESA-AI); the annotator keeps,
    /// changes or removes them, and the answer holds the spans as sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefilled: Vec<assay_core::protocol::Span>,
    /// Pairwise preference: the second output, shown on the right (below on a phone);
    /// `candidate` is the one on the left. The same for a degraded copy against its original
    /// as for a real pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<String>,
    /// Pairwise preference: which output of the pair (`a` or `b`) is on the left. The server's
    /// own (it turns the side clicked into the output preferred); never sent to a browser.
    #[serde(skip)]
    pub pair_left: Option<assay_core::protocol::pairwise::Side>,
    /// Post-editing from scratch: the output, which the screen does not show (`candidate` is
    /// then empty). The server's own: the edit rate is computed against it; never sent.
    #[serde(skip)]
    pub hidden_output: Option<String>,
}

/// The document around a segment (ESA), as the HIT shows it: the same for an original and its
/// copies, so nothing tells a quality-control document from a real one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DocumentView {
    /// 0-based place of the segment in the document as shown.
    pub index: usize,
    /// Segments of the document as shown.
    pub total: usize,
    /// The document's segments before this one (empty when the campaign shows no context).
    pub before: Vec<ContextSegment>,
    /// The document's segments after this one (only when the campaign shows whole documents).
    pub after: Vec<ContextSegment>,
    /// The campaign asks for a score of the whole document with this, its last segment.
    pub document_score: bool,
}

/// A segment shown as context: its source and its translation as the HIT shows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContextSegment {
    pub source: String,
    pub candidate: String,
}

/// The completion code of a finished HIT and where a crowd worker goes back to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    /// `None` when the campaign's quality gate holds the code until the organizer's review
    /// (the worker is told only that the HIT is complete and will be reviewed).
    pub code: Option<String>,
    /// The crowd platform's return address (with the code), for crowd assignments.
    pub return_url: Option<String>,
}

/// Where a worker is in a HIT: the item to judge now, or the completion code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Items answered so far.
    pub answered: i64,
    /// The item to judge now; `None` when the HIT is finished (or not started yet).
    pub item: Option<ItemView>,
    /// Relative ranking: the other items of the current screen, in order (the outputs of its
    /// segments; those of one segment, a block, share its source). Empty for one item per
    /// screen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<ItemView>,
    /// Present once every item is answered.
    pub completion: Option<Completion>,
}

/// One translation's rank on a ranking screen: its item's position and its rank (1 = best; tied
/// translations share a rank).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankAnswer {
    pub position: i64,
    pub rank: u32,
}

/// One output's answer on a screen that scores each output (contrastive ESA): its item's
/// position, its error spans (offsets in the output's text) and its 0–100 score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoredOutput {
    pub position: i64,
    pub score: f64,
    #[serde(default)]
    pub spans: Vec<assay_core::protocol::Span>,
}

/// Everything the work page needs: the campaign's screen and the current step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkState {
    pub assignment: String,
    /// The title annotators see ([`public_title`]); never the campaign's name, which is the
    /// organizers' (it may say what the campaign tests).
    pub title: String,
    /// The campaign's protocol (its stored name on the wire).
    pub task: TaskKind,
    pub screen: ScreenSettings,
    /// `ltr`/`rtl` for the candidate and reference (target language).
    pub target_dir: String,
    /// `ltr`/`rtl` for the source text (source-based DA).
    pub source_dir: String,
    /// The source language's BCP 47 tag (`und` when unknown), the `lang` of the source text.
    #[serde(default)]
    pub source_lang: String,
    /// The campaign's practice and where the worker stands in it (before Start only); `None`
    /// when the campaign has no practice items or the HIT has started.
    #[serde(default)]
    pub practice: Option<PracticeView>,
    /// Number of items in the HIT.
    pub total: i64,
    /// Number of screens, for a protocol that shows several items on one (relative ranking);
    /// `None`: one item a screen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screens: Option<i64>,
    /// False until the worker presses Start on the instructions page.
    pub started: bool,
    pub step: Step,
    /// The step Start leads to, sent with the instructions page: DA HITs before Start, once any
    /// practice is passed (`None` otherwise). Start then shows the first item without waiting
    /// for the server, and the page's early script (`annotate::early`) lets a slow phone
    /// answer it before the bundle has arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ahead: Option<Step>,
}

impl WorkState {
    /// The HIT's task. Always `Some` now that `task` is typed (an unknown stored name is refused
    /// when the state is built); the `Option` stays until the screens' callers (`screens::spans`,
    /// `screens::widgets`, owned by other work this session) read `task` directly.
    pub fn kind(&self) -> Option<TaskKind> {
        Some(self.task)
    }
}

/// Where a worker stands in a campaign's practice items (issue 18).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeView {
    /// Practice items in a round.
    pub total: i64,
    /// Answers in the expected range a round needs.
    pub required: i64,
    /// The practice item to answer now (0-based).
    pub position: i64,
    /// Answers in range so far in this round.
    pub matched: i64,
    /// The round (1 at first; a failed round starts again).
    pub round: i64,
    /// The practice is done: real items may be served.
    pub passed: bool,
    /// The practice item to answer now (shown like a real item); `None` once passed.
    pub item: Option<ItemView>,
    /// A practice screen of several outputs ranked together (relative ranking): the outputs
    /// after `item`'s, as a real screen's `Step.together`. Pairwise preference shows its two in
    /// `item` (`ItemView.right`), as a real item.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub together: Vec<ItemView>,
}

/// What a worker learns after a practice answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeFeedback {
    /// The answer is in the expected range.
    pub in_range: bool,
    /// "A careful reader would score this low because …".
    pub message: String,
    /// The worker's own answer in words (never a number).
    pub yours: String,
    /// Whether the answer is where a careful reader's would be.
    pub verdict: String,
    /// After a round's last item: passed, or how many were missing (the round starts over).
    pub round_result: Option<String>,
    /// The practice after this answer.
    pub practice: PracticeView,
    /// A practice screen of several outputs: each output shown, with its label on the screen
    /// ("Translation A", "Translation 1"), in the screen's order; empty for one output.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<(String, String)>,
}

/// One of the signed-in annotator's HITs, for the home page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MyAssignment {
    pub assignment: String,
    pub campaign_name: String,
    pub task: TaskKind,
    pub total: i64,
    pub answered: i64,
    pub completed: bool,
}

/// A stored judgment with its item's hidden facts, for organizers (never for workers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JudgmentRecord {
    pub position: i64,
    pub item_type: String,
    pub system: Option<String>,
    pub segment_key: String,
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub skipped: bool,
    pub shown_at: Option<i64>,
    pub submitted_at: i64,
    pub time_on_screen_ms: Option<i64>,
    /// Of the time on screen, the time the page was in use (the browser's count).
    #[serde(default)]
    pub active_ms: Option<i64>,
    /// Rank, error spans, document score: the structured part of the answer, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<assay_core::protocol::Detail>,
}

/// An assignment as the organizer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AssignmentSummary {
    pub assignment: String,
    #[serde(default)]
    pub campaign_id: i64,
    pub campaign_name: String,
    pub task: TaskKind,
    pub platform: String,
    pub status: AssignmentStatus,
    pub total: i64,
    pub answered: i64,
}

/// What verifying a completion code tells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeCheck {
    pub valid: bool,
    /// For organizers: the assignment the code belongs to.
    pub assignment: Option<String>,
    pub campaign_name: Option<String>,
    pub completed_at: Option<i64>,
}

/// The five word-order boxes: box 1–5 ↔ value 0, .25, .5, .75, 1 (best = 1).
pub use assay_core::protocol::word_order::{BOX_VALUES as WOJ_VALUES, box_of as woj_box};

#[cfg(all(test, feature = "ssr"))]
mod gate_tests;
#[cfg(test)]
mod tests;
