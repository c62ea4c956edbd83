//! The work page around the annotation screens (METHOD §1): the start page, the practice, one
//! screen after another (each protocol's in `screens`), and the completion code. The annotator's
//! list of HITs for the home page is here too.
//!
//! Every item is drawn by the same code with the same elements and classes; only the texts
//! differ. Moving on is one request: the answer goes up and the next item comes back.

use super::api::{RankAnswer, load_work, my_assignments, practice_answer, practice_ranks, practice_spans, start_work, submit_judgment, submit_post_edit, submit_screen, submit_spans};
use super::screens::spans::EsaAnswer;
use super::screens::widgets::{EarlyValue, focus_slider, item_texts, labelled_text};
use super::screens::{AnswerValues, ScreenFamily, Shown, Submits, screen_body};
use super::{ItemView, Lang, Msg, PracticeFeedback, PracticeView, WorkState};
pub use super::screens::widgets::{Slider, Ui, slider_words};
use assay_core::i18n::fill;
use assay_core::instructions::{Block, blocks};
use crate::auth::error_text;
use leptos::either::{Either, EitherOf6};
use leptos::ev;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

/// Milliseconds from the browser's clock (0 on the server, where nothing is timed).
fn client_now() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}

/// The active time of the item on screen (issue 18, item 4): time counts while the page is
/// visible and focused and the last input (a key, the pointer, a touch, the wheel, scrolling)
/// is no longer ago than the campaign's idle gap. A tick each second adds the time since the
/// last tick when the page is in use then (a tick late by more than 2 s adds 2 s: a sleeping
/// laptop is not working). The server keeps the smaller of this and its own time.
#[derive(Clone, Copy)]
struct ActiveClock {
    active: StoredValue<f64>,
    last_tick: StoredValue<f64>,
    last_input: StoredValue<f64>,
    idle_gap_ms: f64,
}

impl ActiveClock {
    fn start(idle_gap_seconds: i64) -> ActiveClock {
        let now = client_now();
        let clock = ActiveClock {
            active: StoredValue::new(0.0),
            last_tick: StoredValue::new(now),
            last_input: StoredValue::new(now),
            idle_gap_ms: (idle_gap_seconds.max(1) as f64) * 1000.0,
        };
        #[cfg(feature = "hydrate")]
        {
            let input = move || clock.last_input.set_value(client_now());
            let handles = [
                window_event_listener(ev::keydown, move |_| input()),
                window_event_listener(ev::pointerdown, move |_| input()),
                window_event_listener(ev::pointermove, move |_| input()),
                window_event_listener(ev::wheel, move |_| input()),
                window_event_listener(ev::touchstart, move |_| input()),
                window_event_listener(ev::scroll, move |_| input()),
            ];
            let interval = set_interval_with_handle(move || clock.tick(), std::time::Duration::from_millis(1000)).ok();
            on_cleanup(move || {
                for h in handles {
                    h.remove();
                }
                if let Some(i) = interval {
                    i.clear();
                }
            });
        }
        clock
    }

    fn in_use(&self, now: f64) -> bool {
        #[cfg(feature = "hydrate")]
        {
            let doc = leptos::prelude::document();
            !doc.hidden() && doc.has_focus().unwrap_or(true) && now - self.last_input.get_value() <= self.idle_gap_ms
        }
        #[cfg(not(feature = "hydrate"))]
        {
            let _ = (now, self.idle_gap_ms);
            false
        }
    }

    fn tick(&self) {
        let now = client_now();
        let dt = (now - self.last_tick.get_value()).clamp(0.0, 2000.0);
        self.last_tick.set_value(now);
        if self.in_use(now) {
            self.active.update_value(|a| *a += dt);
        }
    }

    /// The first item has been on the screen since `at`, before the bundle took over (the
    /// early script's Start), with the last input at `last`: that time counts as active up to
    /// the idle gap after the last input.
    fn seed(&self, at: f64, last: f64) {
        let now = client_now();
        let until = (last.max(at) + self.idle_gap_ms).min(now);
        self.active.set_value((until - at).max(0.0));
        self.last_tick.set_value(now);
        self.last_input.set_value(last.max(at));
    }

    /// A new item is on screen: counting starts again from 0 (as if just touched).
    fn reset(&self) {
        let now = client_now();
        self.active.set_value(0.0);
        self.last_tick.set_value(now);
        self.last_input.set_value(now);
    }

    /// The active milliseconds so far, at most `elapsed`.
    fn read(&self, elapsed: i64) -> i64 {
        self.tick();
        (self.active.get_value().round() as i64).clamp(0, elapsed.max(0))
    }
}

/// A fresh idempotency key for one attempt at one item.
fn fresh_key(position: i64) -> String {
    #[cfg(feature = "hydrate")]
    let noise = (js_sys::Math::random() * 9.0e15) as u64;
    #[cfg(not(feature = "hydrate"))]
    let noise = 0u64;
    format!("{position}-{:x}-{noise:x}", client_now() as u64)
}

/// The browser's language among the catalog's (its `Accept-Language` on the server,
/// `navigator.languages` in the browser), English if none: for what the page says before it
/// knows the campaign (loading, a HIT that cannot be opened).
fn browser_lang() -> Lang {
    #[cfg(feature = "ssr")]
    {
        super::accept_language().as_deref().and_then(Lang::from_accept_language).unwrap_or_default()
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        // In the browser's order (no weights to read: parsing them would bring float parsing
        // into the bundle).
        let languages = leptos::prelude::window().navigator().languages();
        languages.iter().filter_map(|v| v.as_string()).find_map(|t| Lang::from_tag(&t)).unwrap_or_default()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Lang::En
    }
}

/// `/work/:id`: an assignment's page, with the screens the build `S` links (every one on the
/// server, the HIT's protocol's in its browser bundle: `screens`).
#[allow(non_snake_case)]
pub fn WorkPage<S: ScreenFamily>() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").unwrap_or_default();
    let state = crate::resource::blocking_resource(id, load_work);
    let ui = browser_lang();
    view! {
        <Title text="Assay · HIT"/>
        <Suspense fallback=move || view! { <p class="annotate-loading" lang=ui.tag() dir=ui.dir()>{assay_core::i18n::page_words(ui).0}</p> }>
            {move || Suspend::new(async move {
                match state.await {
                    Err(e) => Either::Left(view! {
                        <section class="card narrow" lang=ui.tag() dir=ui.dir()>
                            <h1>{assay_core::i18n::page_words(ui).1}</h1>
                            <p class="error" role="alert" id="work-error">{error_text(&e)}</p>
                        </section>
                    }),
                    Ok(s) => Either::Right(work::<S>(s)),
                }
            })}
        </Suspense>
    }
}

/// A practice answer as the screen sends it: scores (DA, word order) or error spans (ESA, MQM).
enum PracticeSent {
    Scores(Option<f64>, Option<f64>),
    Spans(EsaAnswer),
    /// A rank per output of a practice screen ranked together, in the screen's order.
    Ranks(Vec<u32>),
}

fn work<S: ScreenFamily>(state: WorkState) -> impl IntoView {
    let info = StoredValue::new(state.clone());
    // Before Start, a DA HIT's first item is sent ahead (`ahead`): the step is then that item,
    // drawn behind the instructions until Start.
    let step = RwSignal::new(if state.started { state.step.clone() } else { state.ahead.clone().unwrap_or_else(|| state.step.clone()) });
    let started = RwSignal::new(state.started);
    // The practice (before Start): where the worker stands, whether a practice item is on
    // screen, and the feedback on the last answer (with the item it was about).
    let practice = RwSignal::new(state.practice.clone());
    let practising = RwSignal::new(state.practice.as_ref().is_some_and(|p| !p.passed && (p.position > 0 || p.round > 1)));
    let feedback = RwSignal::new(None::<(ItemView, PracticeFeedback)>);
    let busy = RwSignal::new(false);
    // The server is starting the HIT while its first item is already on the screen (Start with
    // an item sent ahead), and the answer given meanwhile.
    let starting = StoredValue::new(false);
    let queued = StoredValue::new(None::<AnswerValues>);
    let error = RwSignal::new(None::<String>);
    // Per item: when it appeared (browser clock) and the key of the attempt.
    let shown_at = StoredValue::new(client_now());
    let key = StoredValue::new(String::new());
    let clock = ActiveClock::start(state.screen.idle_gap_seconds);
    let current_position = move || step.with(|s| s.item.as_ref().map(|i| i.position));
    // What the worker did with the first item before the bundle took over (`super::early`).
    #[cfg(feature = "hydrate")]
    let early = super::early::take().filter(|e| e.started && !state.started && state.ahead.is_some());
    #[cfg(not(feature = "hydrate"))]
    let early: Option<super::early::Early> = None;
    let early = StoredValue::new(early);
    provide_context(EarlyValue(early));
    Effect::new(move |_| {
        if let Some(p) = current_position() {
            key.set_value(fresh_key(p));
            match early.get_value() {
                // The item has been on the screen since Start was pressed.
                Some(e) if p == 0 => {
                    shown_at.set_value(e.at);
                    clock.seed(e.at, e.last);
                }
                _ => {
                    shown_at.set_value(client_now());
                    clock.reset();
                }
            }
        }
    });

    let resync = move || {
        let id = info.with_value(|s| s.assignment.clone());
        leptos::task::spawn_local(async move {
            if let Ok(fresh) = load_work(id).await {
                let fresh_step = if fresh.started { fresh.step } else { fresh.ahead.unwrap_or(fresh.step) };
                if !fresh.started {
                    started.set(false);
                }
                if fresh_step != step.get_untracked() {
                    step.set(fresh_step);
                }
                if fresh.practice != practice.get_untracked() {
                    practice.set(fresh.practice);
                }
            }
        });
    };

    // What every answer carries besides itself: the assignment, the time on screen, the
    // attempt's key and the active time.
    let stamp = move || {
        let elapsed = (client_now() - shown_at.get_value()).max(0.0).round() as i64;
        (info.with_value(|s| s.assignment.clone()), elapsed, key.get_value(), clock.read(elapsed))
    };
    // The server's reply to an answer: the next step, or the error with what is kept (`kept`).
    let settle = move |reply: Result<super::Step, ServerFnError>, kept: String| {
        match reply {
            Ok(next) => {
                error.set(None);
                step.set(next);
            }
            Err(e) => {
                error.set(Some(format!("{} {kept}", error_text(&e))));
                resync();
            }
        }
        busy.set(false);
    };

    let submit = Callback::new(move |(score, score2, skipped): AnswerValues| {
        // The first item is on the screen while the server starts the HIT: the answer is kept
        // (Next waits) and sent once the server has answered (`begin`), as the early script
        // keeps one. Dropping it left a quick Enter without effect.
        if starting.get_value() {
            if queued.get_value().is_none() {
                queued.set_value(Some((score, score2, skipped)));
                busy.set(true);
            }
            return;
        }
        if busy.get_untracked() {
            return;
        }
        let Some(position) = current_position() else { return };
        busy.set(true);
        let (id, elapsed, k, active) = stamp();
        leptos::task::spawn_local(async move {
            let reply = submit_judgment(id, position, score, score2, skipped, elapsed, k, Some(active)).await;
            settle(reply, Ui::of(info).msg(Msg::KeptAnswer).to_string());
        });
    });

    let submit_ranks = Callback::new(move |ranks: Vec<RankAnswer>| {
        if busy.get_untracked() || ranks.is_empty() {
            return;
        }
        busy.set(true);
        let (id, elapsed, k, active) = stamp();
        leptos::task::spawn_local(async move {
            let reply = submit_screen(id, ranks, elapsed, k, Some(active), Vec::new()).await;
            settle(reply, Ui::of(info).msg(Msg::KeptRanks).to_string());
        });
    });

    // A screen scoring each output (contrastive ESA): every output's spans and score at once.
    let submit_scored = Callback::new(move |outputs: Vec<super::ScoredOutput>| {
        if busy.get_untracked() || outputs.is_empty() {
            return;
        }
        busy.set(true);
        let (id, elapsed, k, active) = stamp();
        leptos::task::spawn_local(async move {
            let reply = submit_screen(id, Vec::new(), elapsed, k, Some(active), outputs).await;
            settle(reply, Ui::of(info).msg(Msg::KeptSpans).to_string());
        });
    });

    let submit_esa = Callback::new(move |answer: EsaAnswer| {
        if busy.get_untracked() {
            return;
        }
        let Some(position) = current_position() else { return };
        busy.set(true);
        let (id, elapsed, k, active) = stamp();
        leptos::task::spawn_local(async move {
            let reply = submit_spans(id, position, answer.score, answer.spans, answer.document_score, elapsed, k, Some(active)).await;
            settle(reply, Ui::of(info).msg(Msg::KeptSpans).to_string());
        });
    });

    let submit_pe = Callback::new(move |answer: assay_core::protocol::postedit::PostEdit| {
        if busy.get_untracked() {
            return;
        }
        let Some(position) = current_position() else { return };
        busy.set(true);
        let (id, elapsed, k, active) = stamp();
        leptos::task::spawn_local(async move {
            let reply = submit_post_edit(id, position, answer, elapsed, k, Some(active)).await;
            settle(reply, Ui::of(info).msg(Msg::KeptAnswer).to_string());
        });
    });

    // A practice answer (DA, word order: scores; ESA, MQM: error spans and ESA's score) and the
    // server's feedback on it.
    let practise = move |answer: PracticeSent| {
        if busy.get_untracked() {
            return;
        }
        let Some(item) = practice.with_untracked(|p| p.as_ref().and_then(|p| p.item.clone())) else { return };
        busy.set(true);
        let id = info.with_value(|s| s.assignment.clone());
        leptos::task::spawn_local(async move {
            let reply = match answer {
                PracticeSent::Scores(score, score2) => practice_answer(id, item.position, score, score2).await,
                PracticeSent::Spans(esa) => practice_spans(id, item.position, esa.score, esa.spans).await,
                PracticeSent::Ranks(ranks) => practice_ranks(id, item.position, ranks).await,
            };
            match reply {
                Ok(fb) => {
                    error.set(None);
                    practice.set(Some(fb.practice.clone()));
                    feedback.set(Some((item, fb)));
                }
                Err(e) => {
                    error.set(Some(format!("{} {}", error_text(&e), Ui::of(info).msg(Msg::KeptAnswer))));
                    resync();
                }
            }
            busy.set(false);
        });
    };
    let submit_practice = Callback::new(move |(score, score2, _): AnswerValues| practise(PracticeSent::Scores(score, score2)));
    let submit_practice_spans = Callback::new(move |answer: EsaAnswer| practise(PracticeSent::Spans(answer)));
    let submit_practice_ranks = Callback::new(move |ranks: Vec<RankAnswer>| practise(PracticeSent::Ranks(ranks.into_iter().map(|r| r.rank).collect())));

    // Tells the server that the HIT has started and shows what it answers. `ahead`: the first
    // item is already on the screen (it goes back behind the instructions if the server
    // refuses). `send`: a value to send at once (Next pressed before the bundle took over).
    let begin = move |ahead: bool, send: Option<f64>| {
        // With the item on the screen, its answer may be given at once (`submit` keeps it);
        // without, Start waits.
        if ahead {
            starting.set_value(true);
            if let Some(v) = send {
                queued.set_value(Some((Some(v), None, false)));
                busy.set(true);
            }
        } else {
            busy.set(true);
        }
        let id = info.with_value(|s| s.assignment.clone());
        leptos::task::spawn_local(async move {
            let reply = start_work(id).await;
            starting.set_value(false);
            let answer = queued.try_update_value(Option::take).flatten();
            match reply {
                Ok(s) => {
                    // `started` before the step: the view reads it when the step changes.
                    started.set(true);
                    if s != step.get_untracked() {
                        step.set(s);
                    }
                    feedback.set(None);
                    practising.set(false);
                    error.set(None);
                    busy.set(false);
                    if let Some(answer) = answer {
                        submit.run(answer);
                    }
                }
                Err(e) => {
                    if ahead {
                        started.set(false);
                    }
                    error.set(Some(error_text(&e)));
                    busy.set(false);
                }
            }
        });
    };
    // The bundle takes over from the early script: Start was pressed there (the server told),
    // so the item stays on the screen; the server's answer is awaited (a second Start changes
    // nothing) before an answer given there is sent.
    if let Some(e) = early.get_value() {
        Effect::new(move |_| {
            started.set(true);
            begin(true, e.value.filter(|_| e.next));
        });
    }

    let start = move |_| {
        if busy.get_untracked() || starting.get_value() {
            return;
        }
        // With practice to do, Start opens the practice; the server starts the HIT only once it
        // is passed.
        if practice.with_untracked(|p| p.as_ref().is_some_and(|p| !p.passed)) {
            feedback.set(None);
            practising.set(true);
            return;
        }
        // The first item came with the instructions: on the screen at once, its time from now;
        // the server is told behind it (Next waits for its answer).
        let ahead = !started.get_untracked() && step.with_untracked(|s| s.item.is_some());
        if ahead {
            started.set(true);
            shown_at.set_value(client_now());
            clock.reset();
            focus_slider();
        }
        begin(ahead, None);
    };

    // How an answer goes to the server: a real item's, and a practice item's (checked, never
    // stored; practice has no post-edit).
    let item_submits = Submits { values: submit, ranks: submit_ranks, spans: submit_esa, post_edits: submit_pe, scored: submit_scored };
    let practice_submits = Submits { values: submit_practice, ranks: submit_practice_ranks, spans: submit_practice_spans, post_edits: Callback::new(|_| ()), scored: Callback::new(|_| ()) };

    let task = state.task.as_str();
    let ui = Ui::of(info);
    // The document's language follows the interface's (the server sends the frame in English).
    #[cfg(feature = "hydrate")]
    if let Some(root) = leptos::prelude::document().document_element() {
        let _ = root.set_attribute("lang", ui.tag());
        let _ = root.set_attribute("dir", ui.dir());
    }
    view! {
        <section class="annotate" data-task=task id="work" lang=ui.tag() dir=ui.dir()>
            {move || {
                let s = step.get();
                // Not tracked: Start on an item sent ahead only shows it (below); the view is
                // drawn again when the step changes.
                let now_started = started.get_untracked();
                if let Some(done) = s.completion {
                    EitherOf6::A(view! { <Finished code=done.code return_url=done.return_url ui/> })
                } else if let Some(item) = s.item.clone().filter(|_| now_started) {
                    let together = s.together.clone();
                    EitherOf6::B(item_screen::<S>(info, item, together, s.answered, busy, item_submits))
                } else if let Some(item) = s.item.clone() {
                    // The first item, sent ahead: behind the instructions until Start.
                    let together = s.together.clone();
                    let assignment = info.with_value(|i| i.assignment.clone());
                    EitherOf6::F(view! {
                        <div id="ahead-start" hidden=move || started.get()>
                            <StartPage info practice=practice.get_untracked() busy start early=true/>
                        </div>
                        <div id="ahead-item" data-assignment=assignment hidden=move || !started.get()>
                            {item_screen::<S>(info, item, together, s.answered, busy, item_submits)}
                        </div>
                    })
                } else if let Some((item, fb)) = feedback.get() {
                    EitherOf6::C(view! { <PracticeFeedbackScreen info item feedback=fb busy start/> })
                } else if let Some((p, item)) = practice.get().filter(|_| practising.get()).and_then(|p| p.item.clone().map(|i| (p, i))) {
                    EitherOf6::D(practice_screen::<S>(info, p, item, busy, practice_submits))
                } else {
                    EitherOf6::E(view! { <StartPage info practice=practice.get() busy start early=false/> })
                }
            }}
            {move || error.get().map(|e| view! { <p class="error" role="alert" id="work-error">{e}</p> })}
        </section>
    }
}

/// An instructions text as paragraphs and lists, drawn as text (never HTML).
pub fn instructions_view(text: &str) -> impl IntoView + use<> {
    blocks(text)
        .into_iter()
        .map(|b| match b {
            Block::Paragraph(p) => Either::Left(view! { <p>{p}</p> }),
            Block::List(items) => Either::Right(view! { <ul>{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul> }),
        })
        .collect_view()
}

/// The size of a HIT in words: its items, or its screens and the outputs ranked together.
fn hit_size(i: &WorkState, ui: Ui) -> String {
    match i.screens {
        Some(screens) => {
            let outputs = i.screen.rank_outputs.max(2).to_string();
            fill(&ui.msg(Msg::HitScreens), &[("screens", &screens.to_string()), ("outputs", &outputs)])
        }
        None => fill(&ui.msg(Msg::HitSize), &[("n", &i.total.to_string())]),
    }
}

/// A HIT's start page: the campaign's instructions page, the size of the HIT, what the practice
/// asks (if the campaign has one), and Start.
#[component]
fn StartPage(
    info: StoredValue<WorkState>,
    practice: Option<PracticeView>,
    busy: RwSignal<bool>,
    start: impl Fn(ev::MouseEvent) + 'static,
    // Whether the early script answers Start before the bundle has taken over (a first item sent
    // ahead). Otherwise Start is disabled until the page is hydrated: a press before then would
    // reach no handler and be lost (a word-order worker's quick Start did nothing).
    early: bool,
) -> impl IntoView {
    let hydrated = RwSignal::new(early);
    // Effects run in the browser only, once the page is hydrated.
    Effect::new(move |_| hydrated.set(true));
    let i = info.get_value();
    let ui = Ui::of(info);
    let todo = practice.filter(|p| !p.passed);
    let practice_note = todo.as_ref().map(|p| {
        let total = p.total.to_string();
        let mut note = fill(&ui.msg(Msg::PracticeBefore), &[("n", &total)]);
        if p.required > 0 {
            note.push(' ');
            note.push_str(&fill(&ui.msg(Msg::PracticeRequired), &[("required", &p.required.to_string()), ("total", &total)]));
        }
        if p.position > 0 || p.round > 1 {
            note.push(' ');
            note.push_str(&fill(&ui.msg(Msg::PracticeResume), &[("n", &(p.position + 1).to_string()), ("total", &total)]));
        }
        view! { <p class="practice-note" id="practice-note">{note}</p> }
    });
    let label = ui.msg(if todo.is_some() { Msg::StartPractice } else { Msg::Start });
    view! {
        <div class="card start-page">
            <h1 id="hit-title">{i.title.clone()}</h1>
            <h2 id="instructions-heading">{ui.msg(Msg::Instructions)}</h2>
            <div class="instructions" id="instructions" aria-labelledby="instructions-heading" lang=i.screen.wording_lang.clone() dir=i.screen.wording_dir.clone()>
                {instructions_view(&i.screen.wording.instructions)}
            </div>
            <p class="hit-size" id="hit-size">{hit_size(&i, ui)}</p>
            {practice_note}
            <button type="button" class="primary" id="start" on:click=start disabled=move || busy.get() || !hydrated.get()>
                {label}
            </button>
        </div>
    }
}

/// The instructions again, folded, on the practice screens.
fn instructions_again(i: &WorkState, ui: Ui) -> impl IntoView + use<> {
    view! {
        <details class="instructions-again">
            <summary lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::Instructions)}</summary>
            <div class="instructions" lang=i.screen.wording_lang.clone() dir=i.screen.wording_dir.clone()>{instructions_view(&i.screen.wording.instructions)}</div>
        </details>
    }
}

/// A practice item: drawn exactly like a real item of the task, marked as practice.
fn practice_screen<S: ScreenFamily>(info: StoredValue<WorkState>, practice: PracticeView, item: ItemView, busy: RwSignal<bool>, submits: Submits) -> impl IntoView {
    let i = info.get_value();
    let body = screen_body::<S>(info, item, Shown::Practice { together: practice.together.clone() }, busy, submits);
    let ui = Ui::of(info);
    let label = fill(&ui.msg(Msg::PracticeLabel), &[("n", &(practice.position + 1).to_string()), ("total", &practice.total.to_string())]);
    view! {
        <div class="card item-screen practice" lang=i.screen.wording_lang.clone() dir=i.screen.wording_dir.clone()>
            <p class="practice-label" id="practice-label" lang=ui.tag() dir=ui.dir()>{label}</p>
            {body}
            {instructions_again(&i, ui)}
        </div>
    }
}

/// After a practice answer: the texts again, what a careful reader would answer and why, the
/// worker's answer in words, and the way on (the next practice item, the practice again, or the
/// HIT).
#[component]
fn PracticeFeedbackScreen(
    info: StoredValue<WorkState>,
    item: ItemView,
    feedback: PracticeFeedback,
    busy: RwSignal<bool>,
    start: impl Fn(ev::MouseEvent) + 'static,
) -> impl IntoView {
    let i = info.get_value();
    let p = feedback.practice.clone();
    // The round's last answer leaves the practice passed or back at item 1.
    let answered = if p.passed || p.position == 0 { p.total } else { p.position };
    let ui = Ui::of(info);
    let go = ui.msg(if p.passed {
        Msg::StartHit
    } else if p.position == 0 {
        Msg::PracticeAgain
    } else {
        Msg::NextPractice
    });
    let label = fill(&ui.msg(Msg::PracticeFeedbackLabel), &[("n", &answered.to_string()), ("total", &p.total.to_string())]);
    let button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(el) = button.get() {
            let _ = el.focus();
        }
    });
    view! {
        <div class="card item-screen practice practice-feedback" id="practice-feedback" data-in-range=feedback.in_range.to_string()
            lang=i.screen.wording_lang.clone() dir=i.screen.wording_dir.clone()>
            <p class="practice-label" id="practice-label" lang=ui.tag() dir=ui.dir()>{label}</p>
            {if feedback.outputs.is_empty() {
                Either::Left(item_texts(&i, &item, ui))
            } else {
                // A screen of several outputs: the source, then each output with its label.
                let source = item.context.clone().map(|text| labelled_text(i.screen.wording.label_source.clone(), "context", "context source", Some(i.source_lang.clone()), i.source_dir.clone(), text));
                let outputs = feedback.outputs.iter().map(|(label, text)| view! {
                    <div class="text-block" role="group">
                        <p class="text-label" lang=ui.tag() dir=ui.dir()>{label.clone()}</p>
                        <p class="candidate" lang=i.screen.lang.clone() dir=i.target_dir.clone()>{text.clone()}</p>
                    </div>
                }).collect_view();
                Either::Right(view! { <div class="texts">{source}{outputs}</div> })
            }}
            <div class="feedback" role="status" lang=ui.tag() dir=ui.dir()>
                <p class="verdict" id="feedback-verdict">{feedback.verdict.clone()}</p>
                <p id="feedback-message">{feedback.message.clone()}</p>
                <p id="feedback-yours">{feedback.yours.clone()}</p>
                {feedback.round_result.clone().map(|r| view! { <p class="round-result" id="round-result">{r}</p> })}
            </div>
            <div class="actions">
                <button type="button" class="primary" id="practice-continue" node_ref=button
                    aria-describedby="feedback-verdict feedback-message"
                    disabled=move || busy.get() on:click=start lang=ui.tag() dir=ui.dir()>
                    {go}
                </button>
            </div>
        </div>
    }
}

fn item_screen<S: ScreenFamily>(info: StoredValue<WorkState>, item: ItemView, together: Vec<ItemView>, answered: i64, busy: RwSignal<bool>, submits: Submits) -> impl IntoView {
    let i = info.get_value();
    let ui = Ui::of(info);
    let total = i.total.to_string();
    let progress = if together.is_empty() {
        fill(&ui.msg(Msg::Progress), &[("n", &(answered + 1).to_string()), ("total", &total)])
    } else {
        let (from, to) = ((answered + 1).to_string(), (answered + 1 + together.len() as i64).to_string());
        fill(&ui.msg(Msg::ProgressRange), &[("from", &from), ("to", &to), ("total", &total)])
    };
    let lang = i.screen.wording_lang.clone();
    let dir = i.screen.wording_dir.clone();
    let body = screen_body::<S>(info, item, Shown::Item { together }, busy, submits);
    view! {
        <div class="card item-screen" lang=lang dir=dir>
            <p class="progress" id="progress" aria-live="polite" lang=ui.tag() dir=ui.dir()>{progress}</p>
            {body}
        </div>
    }
}

#[component]
fn Finished(code: Option<String>, return_url: Option<String>, ui: Ui) -> impl IntoView {
    let Some(code) = code else {
        // Held by the campaign's quality gate: a neutral page, the same whatever the reason.
        return Either::Left(view! {
            <div class="card finished" id="finished-held">
                <h1>{ui.msg(Msg::Complete)}</h1>
                <p>{ui.msg(Msg::Saved)}</p>
                <p id="held-message">{ui.msg(Msg::HeldMessage)}</p>
            </div>
        });
    };
    Either::Right(view! {
        <div class="card finished">
            <h1>{ui.msg(Msg::Complete)}</h1>
            <p>{ui.msg(Msg::YourCode)}</p>
            <p class="completion-code"><code id="completion-code" dir="ltr">{code}</code></p>
            {match return_url {
                Some(url) => Either::Left(view! {
                    <p><a class="button primary" id="return-link" href=url rel="noreferrer">{ui.msg(Msg::ReturnToPlatform)}</a></p>
                }),
                None => Either::Right(view! { <p class="hint">{ui.msg(Msg::KeepCode)}</p> }),
            }}
        </div>
    })
}

/// The signed-in annotator's HITs on the home page, or what to do when there are none.
#[component]
pub fn MyHits(words: crate::campaign::HomeWords, list: HitsResource) -> impl IntoView {
    use assay_core::i18n::fill;
    let loading = words.loading_hits.clone();
    view! {
        <Suspense fallback=move || view! { <p>{loading.clone()}</p> }>
            {move || { let w = words.clone(); Suspend::new(async move {
                match list.await {
                    Ok(items) if !items.is_empty() => Either::Left(view! {
                        <ul class="my-hits" id="my-hits">
                            {items.into_iter().map(|a| {
                                let href = format!("/work/{}", a.assignment);
                                let (answered, total) = (a.answered.to_string(), a.total.to_string());
                                let state = if a.completed {
                                    w.finished.clone()
                                } else if a.answered == 0 {
                                    fill(&w.not_started, &[("total", &total)])
                                } else {
                                    fill(&w.items_done, &[("answered", &answered), ("total", &total)])
                                };
                                view! {
                                    <li data-task=a.task.as_str()>
                                        <A href=href>{a.campaign_name}</A>
                                        " · " {w.task(a.task.as_str())} " · " <span class="hit-state">{state}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }),
                    _ => Either::Right(view! {
                        <p class="empty" id="my-hits-empty">{w.no_hits.clone()}</p>
                    }),
                }
            }) }}
        </Suspense>
    }
}

/// The signed-in annotator's HITs ([`my_assignments`]), a resource of the home page.
pub type HitsResource = Resource<Result<Vec<super::MyAssignment>, ServerFnError>, crate::resource::JsonCodec>;

/// A signed-in annotator's home page, in the browser's language ([`crate::campaign::HomeWords`]). Its
/// three resources are made here, side by side: one made inside another's resolved suspense
/// would not hydrate.
#[component]
pub fn AnnotatorHome(name: String) -> impl IntoView {
    use assay_core::i18n::fill;
    let words = crate::resource::resource(|| (), |_| crate::campaign::api::annotator_home_words());
    let queue = crate::campaign::pages::queue_resource();
    let hits: HitsResource = crate::resource::resource(|| (), |_| my_assignments());
    view! {
        <Suspense fallback=|| view! { <p>"…"</p> }>
            {move || { let name = name.clone(); Suspend::new(async move {
                let w = words.await.unwrap_or_default();
                view! {
                    <section class="card" data-role="annotator" lang=w.tag.clone() dir=w.dir.clone()>
                        <h1>{fill(&w.welcome, &[("name", &name)])}</h1>
                        <p class="role-badge">{w.role.clone()}</p>
                        <crate::campaign::pages::AnnotatorQueue words=w.clone() queue/>
                        <h2>{w.your_hits.clone()}</h2>
                        <MyHits words=w.clone() list=hits/>
                    </section>
                }
            }) }}
        </Suspense>
    }
}

/// One language per screen (issue 38): every screen of every protocol, rendered by the server in
/// every interface language, holds no string of another language's catalog.
#[cfg(all(test, feature = "ssr"))]
#[path = "pages_tests.rs"]
mod tests;
