//! Each protocol's annotation screen, in a module of its own, and which browser bundle links it
//! (issue 37 item 5): a worker's browser downloads its HIT's protocol's screen and no other.
//!
//! - [`da`]: the DA slider (adequacy, fluency, source-based) — the `da` bundle;
//! - [`word_order`]: the two word-order questions — the `woj` bundle;
//! - [`ranking`]: relative ranking — the `rank` bundle;
//! - [`spans`]: error spans, ESA and MQM — the `spans` bundle;
//! - [`pairwise`]: pairwise preference — the `pair` bundle;
//! - [`postedit`]: post-editing — the `postedit` bundle;
//! - [`contrastive`]: contrastive ESA — the `cesa` bundle;
//! - [`widgets`]: what they share (the slider, labelled texts, the key legend), in each.
//!
//! The work page (`pages`) is generic over a [`ScreenFamily`]: a bundle's family says, as a
//! constant of its build, which [`Screen`] it links ([`Screens`]); the other protocols' screens
//! are [`AnotherScreen`] there, and the compiler generates no code for them. The server sends a
//! `/work/…` page with the bundle of its HIT's protocol (`ui::gate` finds it, `ui::shell`
//! names it), and renders every screen itself ([`Screens::Every`]).

pub mod contrastive;
pub mod da;
pub mod pairwise;
pub mod postedit;
pub mod ranking;
pub mod spans;
pub mod widgets;
pub mod word_order;

use super::{RankAnswer, ScoredOutput};
use contrastive::ContrastiveScreen;
use super::{ItemView, WorkState};
use crate::model::TaskKind;
use leptos::prelude::*;
use da::DaItem;
use pairwise::PairwiseItem;
use postedit::PostEditItem;
use ranking::RankingScreen;
use spans::{EsaAnswer, EsaItem};
use widgets::Ui;
use word_order::WordOrderItem;

/// A protocol's screen: the code one work bundle links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    /// DA: adequacy, fluency and source-based.
    Da,
    WordOrder,
    Ranking,
    /// Error spans: ESA and MQM.
    Spans,
    /// Pairwise preference.
    Pairwise,
    /// Post-editing.
    PostEdit,
    /// Contrastive ESA.
    Contrastive,
}

impl Screen {
    pub const ALL: [Screen; 7] = [Screen::Da, Screen::WordOrder, Screen::Ranking, Screen::Spans, Screen::Pairwise, Screen::PostEdit, Screen::Contrastive];

    /// The screen of a task (every task has one: a new task fails to compile here).
    pub const fn of(task: TaskKind) -> Screen {
        match task {
            TaskKind::DaAdequacy | TaskKind::DaFluency | TaskKind::DaSourceBased => Screen::Da,
            TaskKind::WordOrder => Screen::WordOrder,
            TaskKind::Ranking => Screen::Ranking,
            TaskKind::Esa | TaskKind::Mqm => Screen::Spans,
            TaskKind::Pairwise => Screen::Pairwise,
            TaskKind::PostEdit => Screen::PostEdit,
            TaskKind::ContrastiveEsa => Screen::Contrastive,
        }
    }
}

/// What the text shown with the candidate is, on an item's screen and in a practice item's
/// feedback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// The human reference (gray), in the target language (adequacy; fluency has none).
    Reference,
    /// The source, in the source language.
    Source,
    /// Word order: two sentences, the candidate first.
    SecondSentence,
}

impl Context {
    pub const fn of(task: TaskKind) -> Context {
        match task {
            TaskKind::DaAdequacy | TaskKind::DaFluency => Context::Reference,
            TaskKind::DaSourceBased | TaskKind::Ranking | TaskKind::Esa | TaskKind::Mqm | TaskKind::Pairwise | TaskKind::PostEdit | TaskKind::ContrastiveEsa => Context::Source,
            TaskKind::WordOrder => Context::SecondSentence,
        }
    }
}

/// Which protocol screens a build links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screens {
    /// The server (and the all-pages bundle): every screen.
    Every,
    /// A work bundle: one protocol's.
    Only(Screen),
    /// A bundle without a work page.
    None,
}

impl Screens {
    pub const fn has(self, screen: Screen) -> bool {
        match self {
            Screens::Every => true,
            Screens::Only(own) => own as u8 == screen as u8,
            Screens::None => false,
        }
    }

    /// The build has the work page (with at least one screen).
    pub const fn any(self) -> bool {
        !matches!(self, Screens::None)
    }
}

/// A build's screens as a type, so that the choice is made when the code is compiled (see
/// `ui::Family`, whose families implement it).
pub trait ScreenFamily: 'static {
    const SCREENS: Screens;
}

/// What the DA and word-order screens send: (score, score2, skipped).
pub type AnswerValues = (Option<f64>, Option<f64>, bool);

/// The protocol of a work page's HIT, found by the server before it renders the page (a request
/// extension `ui::gate` sets and `ui::shell` reads to name the page's bundle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkScreen(pub Screen);

/// The protocol screen of the HIT at `/work/{public_id}`; `None` for no such HIT (its page says
/// so, with any work bundle).
#[cfg(feature = "ssr")]
pub async fn screen_of_assignment(db: &crate::db::Db, public_id: &str) -> Result<Option<Screen>, sqlx::Error> {
    if public_id.is_empty() || public_id.len() > 200 {
        return Ok(None);
    }
    let task: Option<(String,)> = sqlx::query_as(
        "SELECT c.task FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id WHERE a.public_id = $1",
    )
    .bind(public_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(task.and_then(|(t,)| TaskKind::parse(&t)).map(Screen::of))
}

/// What a screen is drawn for: a HIT's item (with the rest of its screen), or a practice item,
/// drawn exactly like a real item of its protocol but without skipping.
pub enum Shown {
    Item { together: Vec<ItemView> },
    /// A practice item; `together`: the rest of a practice screen of several outputs ranked
    /// together (`PracticeView.together`).
    Practice { together: Vec<ItemView> },
}

/// How a screen's answer goes to the server, per kind of answer.
#[derive(Clone, Copy)]
pub struct Submits {
    /// DA and word order: (score, score2, skipped).
    pub values: Callback<AnswerValues>,
    /// Ranking: a whole screen.
    pub ranks: Callback<Vec<RankAnswer>>,
    /// Error spans.
    pub spans: Callback<EsaAnswer>,
    /// A post-edit.
    pub post_edits: Callback<assay_core::protocol::postedit::PostEdit>,
    /// A screen scoring each output (contrastive ESA): every output's spans and score.
    pub scored: Callback<Vec<ScoredOutput>>,
}

/// The item on a screen, drawn by its protocol's screen when the build `S` links it. Each screen
/// is type-erased inside a branch the build's constant decides, so that a bundle without it
/// references none of its code.
pub fn screen_body<S: ScreenFamily>(info: StoredValue<WorkState>, item: ItemView, shown: Shown, busy: RwSignal<bool>, submits: Submits) -> AnyView {
    let another = move || view! { <AnotherScreen ui=Ui::of(info)/> }.into_any();
    let practice = matches!(shown, Shown::Practice { .. });
    let Submits { values: submit, ranks, spans, post_edits, scored } = submits;
    match info.with_value(WorkState::kind).map(Screen::of) {
        Some(Screen::Da) => {
            if const { S::SCREENS.has(Screen::Da) } { view! { <DaItem info item busy submit/> }.into_any() } else { another() }
        }
        Some(Screen::WordOrder) => {
            if const { S::SCREENS.has(Screen::WordOrder) } { view! { <WordOrderItem info item busy submit practice/> }.into_any() } else { another() }
        }
        Some(Screen::Ranking) => match shown {
            // A practice screen is drawn as a real one (its outputs in the screen's order).
            Shown::Item { together } | Shown::Practice { together } if const { S::SCREENS.has(Screen::Ranking) } => {
                let mut items = vec![item];
                items.extend(together);
                view! { <RankingScreen info items busy submit=ranks/> }.into_any()
            }
            _ => another(),
        },
        Some(Screen::Spans) => {
            if const { S::SCREENS.has(Screen::Spans) } { view! { <EsaItem info item busy submit=spans/> }.into_any() } else { another() }
        }
        Some(Screen::Pairwise) => {
            if const { S::SCREENS.has(Screen::Pairwise) } { view! { <PairwiseItem info item busy submit/> }.into_any() } else { another() }
        }
        Some(Screen::PostEdit) => match shown {
            Shown::Item { .. } if const { S::SCREENS.has(Screen::PostEdit) } => view! { <PostEditItem info item busy submit=post_edits/> }.into_any(),
            // Post-editing has no practice items (the designer offers none).
            _ => another(),
        },
        Some(Screen::Contrastive) => match shown {
            Shown::Item { together } if const { S::SCREENS.has(Screen::Contrastive) } => {
                let mut items = vec![item];
                items.extend(together);
                view! { <ContrastiveScreen info items busy submit=scored/> }.into_any()
            }
            // Contrastive ESA has no practice items (the designer offers none).
            _ => another(),
        },
        None => another(),
    }
}

/// A protocol's screen this bundle does not link. Never drawn in a browser: the server sends a
/// work page with its protocol's bundle. If it were, it says so in the console.
#[component]
pub fn AnotherScreen(ui: Ui) -> impl IntoView {
    #[cfg(feature = "hydrate")]
    leptos::logging::error!("this HIT's screen belongs to another browser bundle than the one this page loaded");
    view! { <p class="loading" lang=ui.tag() dir=ui.dir()>"…"</p> }
}
