//! Campaigns: lasting test sets and systems in the database (`store`), the campaign design
//! (`CampaignSettings`, stored as JSON in `campaigns.settings`), launching it into HITs
//! (`launch`), and handing out work to annotators and crowd workers (`assign`).
//!
//! This file is shared with the browser: the design, its defaults and what it implies (number
//! of HITs, cost, time) are computed here so the designer page can show them while the
//! organizer types. Server-only halves compile with the `ssr` feature.

pub mod adaptive;
pub mod adaptive_pages;
pub mod api;
pub mod pace;
pub mod pages;

#[cfg(feature = "ssr")]
pub mod assign;
#[cfg(feature = "ssr")]
pub mod gate;
#[cfg(feature = "ssr")]
pub mod gold;
#[cfg(feature = "ssr")]
pub mod http;
#[cfg(feature = "ssr")]
pub mod launch;
#[cfg(feature = "ssr")]
pub mod preview;
#[cfg(feature = "ssr")]
pub mod status;
#[cfg(feature = "ssr")]
pub mod store;

use crate::model::TaskKind;
use serde::{Deserialize, Serialize};

// The design of a campaign (stored as JSON in `campaigns.settings`) and the quality gate are
// defined in the core, with the one reader of the stored JSON (`CampaignSettings::read`).
pub use assay_core::settings::{
    CampaignSettings, DegradationPolicy, GateMode, GateUnsure, Implications, QualityGate, ThinEvidence, WantedPer, Wording,
};

/// What an organizer submits to create a campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignDraft {
    pub name: String,
    /// The campaign's protocol; its stored name on the wire (`TaskKind::as_str`), so the browser
    /// and the API send the same JSON as before, and an unknown name is refused when read.
    pub task: TaskKind,
    pub test_set_id: i64,
    /// Which human reference is shown and degraded; `None` = the first by name.
    #[serde(default)]
    pub reference_name: Option<String>,
    pub systems: Vec<i64>,
    /// Systems marked as benchmark (METHOD §7); a subset of `systems`.
    #[serde(default)]
    pub benchmark_systems: Vec<i64>,
    pub seed: i64,
    #[serde(default)]
    pub settings: CampaignSettings,
    /// The quality gate at submission (default off).
    #[serde(default)]
    pub gate: QualityGate,
}

/// What launching stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchSummary {
    pub hits: usize,
    pub items: usize,
    /// Items per type (wmt names), over all HITs.
    pub per_type: std::collections::BTreeMap<String, usize>,
}

/// A test set as the designer lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestSetInfo {
    pub id: i64,
    pub name: String,
    pub source_lang: String,
    pub target_lang: String,
    /// English names of the languages (defaults of the wording).
    pub source_name: String,
    pub target_name: String,
    pub segments: i64,
    /// Reference names available.
    pub references: Vec<String>,
    /// Systems with outputs for this test set.
    pub systems: Vec<SystemInfo>,
}

/// A system (lasting entity) with its number of outputs in one test set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemInfo {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub year: Option<i64>,
    pub outputs: i64,
}

/// A campaign in lists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignInfo {
    pub id: i64,
    pub public_id: String,
    pub name: String,
    pub task: TaskKind,
    pub status: String,
    pub test_set: String,
    pub pair: String,
    pub hits: i64,
}

/// One degraded item shown before launch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DegradedSample {
    pub system: String,
    pub original: String,
    /// The degraded text, or why it cannot be degraded.
    pub degraded: DegradedText,
    pub change: String,
}

/// What the degrader made of a sample: the damaged copy, or why it could not make one (the
/// degrader's message, which the preview shows in its place). In JSON `{"Ok": …}` or
/// `{"Err": …}`, as the API has always written it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DegradedText {
    #[serde(rename = "Ok")]
    Copy(String),
    #[serde(rename = "Err")]
    Refused(String),
}

/// The designer's answer for a draft: what it implies, what stops it, and degraded samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct DesignCheck {
    pub implications: Implications,
    /// Problems that stop a launch (the HIT builder's messages); empty when the design builds.
    pub problems: Vec<String>,
    pub samples: Vec<DegradedSample>,
    /// What the built HITs give the reliability test per worker's HIT (`None` until they build).
    #[serde(default)]
    pub evidence: Option<assay_core::evidence::EvidencePlan>,
    /// When some HIT cannot reach the test's minimum: what launching it costs, in words.
    #[serde(default)]
    pub thin_evidence: Option<String>,
    /// The launch needs the organizer's "I know" (the campaign would lose what such workers did).
    #[serde(default)]
    pub needs_i_know: bool,
}

/// Progress of a launched campaign (the status page).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct CampaignProgress {
    pub campaign: Option<CampaignInfo>,
    pub redundancy: i64,
    /// HIT copies (HITs × k) completed, in progress, still open.
    pub done: i64,
    pub in_progress: i64,
    pub open: i64,
    pub expired: i64,
    pub workers_active: i64,
    pub workers_total: i64,
    /// (system, judgments stored, SYSTEM items planned over all copies).
    pub per_system: Vec<(String, i64, i64)>,
    pub judgments: i64,
    /// The signed crowd link (organizers only); `None` until the campaign is launched (before,
    /// the link would only answer "No work right now").
    pub crowd_link: Option<String>,
    /// Per annotator, the most recently active first (at most [`MAX_ANNOTATORS_SHOWN`]).
    #[serde(default)]
    pub annotators: Vec<AnnotatorProgress>,
    /// Annotators who ever had a HIT of the campaign (the table may show fewer).
    #[serde(default)]
    pub annotators_total: i64,
}

/// Most annotators the status page lists.
pub const MAX_ANNOTATORS_SHOWN: i64 = 200;

/// One annotator's work in a campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct AnnotatorProgress {
    /// `platform:external id`, as on the review page.
    pub worker: String,
    /// The account's e-mail for annotators with accounts.
    pub email: Option<String>,
    /// HITs finished, in progress, and given back or expired.
    pub done: i64,
    pub in_progress: i64,
    pub left: i64,
    pub judgments: i64,
    /// Sum of the judgments' time on screen, in seconds.
    pub seconds: f64,
    /// Unix milliseconds.
    pub last_seen: i64,
}

crate::rows::row! {
    /// One stored HIT item as the organizer inspects it.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct HitItemView {
        pub position: i64,
        /// SYSTEM, BAD_REF, REPEAT or REF.
        pub item_type: String,
        pub system: Option<String>,
        pub segment_id: i64,
        pub segment_key: String,
        pub paired_position: Option<i64>,
        pub shown_text: String,
        pub degradation: Option<String>,
        /// The system's output for the segment (what a BAD_REF degraded), if the item has a system.
        pub output: Option<String>,
        /// The campaign's reference for the segment.
        pub reference: Option<String>,
    }
}

/// A campaign with work for the signed-in annotator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueEntry {
    pub campaign_id: i64,
    pub name: String,
    pub task: TaskKind,
    pub pair: String,
    /// The annotator's assignment in progress, if any.
    pub active: Option<String>,
    pub completed_hits: i64,
    pub minutes_per_hit: f64,
}

#[cfg(all(test, feature = "ssr"))]
pub(crate) mod tests;

/// A signed-in annotator's home page in words of the browser's language (resolved by the
/// server, as every annotator-facing text: no catalog in the bundle). Templates keep their
/// `{placeholders}` for [`assay_core::i18n::fill`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HomeWords {
    /// BCP 47 tag and direction of the words.
    pub tag: String,
    pub dir: String,
    /// `{name}`.
    pub welcome: String,
    pub role: String,
    pub your_work: String,
    pub no_work: String,
    /// `{minutes}`.
    pub minutes_per_hit: String,
    /// `{n}`.
    pub done: String,
    pub resume: String,
    pub start: String,
    pub your_hits: String,
    pub loading_hits: String,
    pub finished: String,
    /// `{total}`.
    pub not_started: String,
    /// `{answered}`, `{total}`.
    pub items_done: String,
    pub no_hits: String,
    /// (task name, what annotators call it).
    pub tasks: Vec<(String, String)>,
}

impl HomeWords {
    /// What the annotator's lists call a task (its name if unknown).
    pub fn task(&self, task: &str) -> String {
        self.tasks.iter().find(|(t, _)| t == task).map_or_else(|| task.to_string(), |(_, label)| label.clone())
    }
}

/// [`HomeWords`] in `lang`.
#[cfg(feature = "ssr")]
pub fn home_words(lang: assay_core::i18n::Lang) -> HomeWords {
    use assay_core::i18n::Text;
    let t = |x: Text| lang.text(x).to_string();
    let tasks = TaskKind::ALL.map(|k| (k, assay_core::protocol::for_task(k).catalog().home_task));
    HomeWords {
        tag: lang.tag().to_string(),
        dir: lang.dir().to_string(),
        welcome: t(Text::HomeWelcome),
        role: t(Text::HomeRole),
        your_work: t(Text::HomeYourWork),
        no_work: t(Text::HomeNoWork),
        minutes_per_hit: t(Text::HomeMinutesPerHit),
        done: t(Text::HomeDone),
        resume: t(Text::HomeContinue),
        start: t(Text::HomeStart),
        your_hits: t(Text::HomeYourHits),
        loading_hits: t(Text::HomeLoadingHits),
        finished: t(Text::HomeFinished),
        not_started: t(Text::HomeNotStarted),
        items_done: t(Text::HomeItemsDone),
        no_hits: t(Text::HomeNoHits),
        tasks: tasks.iter().map(|&(k, x)| (k.as_str().to_string(), t(x))).collect(),
    }
}

/// A campaign whose stored task this release does not know is the server's fault (its
/// database was written by a newer release, or by hand): the message names the campaign.
#[cfg(feature = "ssr")]
impl From<crate::model::UnknownTask> for crate::error::AppError {
    fn from(e: crate::model::UnknownTask) -> Self {
        crate::error::AppError::internal(e.to_string())
    }
}
