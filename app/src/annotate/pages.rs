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
                    EitherOf6::B(item_screen::<S>(info, item, together, s.answered, busy, submit, submit_ranks, submit_esa, submit_pe, submit_scored))
                } else if let Some(item) = s.item.clone() {
                    // The first item, sent ahead: behind the instructions until Start.
                    let together = s.together.clone();
                    let assignment = info.with_value(|i| i.assignment.clone());
                    EitherOf6::F(view! {
                        <div id="ahead-start" hidden=move || started.get()>
                            <StartPage info practice=practice.get_untracked() busy start/>
                        </div>
                        <div id="ahead-item" data-assignment=assignment hidden=move || !started.get()>
                            {item_screen::<S>(info, item, together, s.answered, busy, submit, submit_ranks, submit_esa, submit_pe, submit_scored)}
                        </div>
                    })
                } else if let Some((item, fb)) = feedback.get() {
                    EitherOf6::C(view! { <PracticeFeedbackScreen info item feedback=fb busy start/> })
                } else if let Some((p, item)) = practice.get().filter(|_| practising.get()).and_then(|p| p.item.clone().map(|i| (p, i))) {
                    let submits = Submits { values: submit_practice, ranks: submit_practice_ranks, spans: submit_practice_spans, post_edits: Callback::new(|_| ()), scored: Callback::new(|_| ()) };
                    EitherOf6::D(practice_screen::<S>(info, p, item, busy, submits))
                } else {
                    EitherOf6::E(view! { <StartPage info practice=practice.get() busy start/> })
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
fn StartPage(info: StoredValue<WorkState>, practice: Option<PracticeView>, busy: RwSignal<bool>, start: impl Fn(ev::MouseEvent) + 'static) -> impl IntoView {
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
            <button type="button" class="primary" id="start" on:click=start disabled=move || busy.get()>
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

#[allow(clippy::too_many_arguments)]
fn item_screen<S: ScreenFamily>(
    info: StoredValue<WorkState>,
    item: ItemView,
    together: Vec<ItemView>,
    answered: i64,
    busy: RwSignal<bool>,
    submit: Callback<AnswerValues>,
    submit_ranks: Callback<Vec<RankAnswer>>,
    submit_esa: Callback<EsaAnswer>,
    submit_pe: Callback<assay_core::protocol::postedit::PostEdit>,
    submit_scored: Callback<Vec<super::ScoredOutput>>,
) -> impl IntoView {
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
    let body = screen_body::<S>(info, item, Shown::Item { together }, busy, Submits { values: submit, ranks: submit_ranks, spans: submit_esa, post_edits: submit_pe, scored: submit_scored });
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
mod tests {
    use super::super::{Completion, ContextSegment, DocumentView, ItemView, PracticeFeedback, PracticeView, Step, WorkState, localized_screen_settings, public_title};
    use super::*;
    use crate::model::TaskKind;
    use assay_core::i18n::{Text, mqm, page_words};
    use assay_core::protocol::{Severity, Span};

    /// Every protocol's screen, as the server renders them (the annotate module does not
    /// import the frame, `ui`, which imports it).
    struct AllScreens;
    impl crate::annotate::screens::ScreenFamily for AllScreens {
        const SCREENS: crate::annotate::screens::Screens = crate::annotate::screens::Screens::Every;
    }

    /// The texts of the items: in no catalog (the texts under judgment are not the interface's).
    fn item(position: i64, task: TaskKind) -> ItemView {
        let mut prefilled = Vec::new();
        if task.marks_spans() {
            let mut span = Span::new(0, 3, Severity::Minor);
            if task == TaskKind::Mqm {
                span.category = Some("Accuracy/Mistranslation".into());
            }
            prefilled.push(span);
        }
        ItemView {
            position,
            candidate: "Qxv zwk jjb".into(),
            context: Some("Pqw rrt vvz".into()),
            reference: (task == TaskKind::Ranking).then(|| "Wqq yyx".into()),
            screen: (task == TaskKind::Ranking).then_some(0),
            document: task.marks_spans().then(|| DocumentView {
                index: 1,
                total: 3,
                before: vec![ContextSegment { source: "Kkq".into(), candidate: "Zzq".into() }],
                after: vec![ContextSegment { source: "Vvq".into(), candidate: "Xxq".into() }],
                document_score: true,
            }),
            prefilled,
            right: (task == TaskKind::Pairwise).then(|| "Jjq wwp kkv".into()),
            pair_left: (task == TaskKind::Pairwise).then_some(assay_core::protocol::pairwise::Side::B),
            hidden_output: None,
        }
    }

    fn state(task: TaskKind, settings: &str, lang: Lang) -> WorkState {
        // A target language the catalog does not have: the interface is the campaign's choice.
        let screen = localized_screen_settings(settings, task, "fra", "eng", None);
        assert_eq!(screen.ui, lang);
        let first = item(0, task);
        let together = if task == TaskKind::Ranking { vec![item(1, task), item(2, task)] } else { Vec::new() };
        let practice = PracticeView { total: 4, required: 3, position: 1, matched: 1, round: 1, passed: false, item: Some(first.clone()), together: together.clone() };
        WorkState {
            assignment: "a".into(),
            title: public_title(settings, task, lang),
            task,
            screen,
            target_dir: "ltr".into(),
            source_dir: "ltr".into(),
            source_lang: "en".into(),
            practice: Some(practice),
            total: 12,
            screens: (task == TaskKind::Ranking).then_some(4),
            started: true,
            step: Step { answered: 3, item: Some(first), together, completion: None },
            ahead: None,
        }
    }

    /// Every screen a worker of `task` can meet, as the server renders it.
    fn screens(task: TaskKind, settings: &str, lang: Lang) -> Vec<(&'static str, String)> {
        screens_of(state(task, settings, lang))
    }

    fn screens_of(s: WorkState) -> Vec<(&'static str, String)> {
        let (task, lang) = (s.kind().unwrap(), s.screen.ui);
        let owner = Owner::new();
        owner.with(|| {
            let info = StoredValue::new(s.clone());
            let busy = RwSignal::new(false);
            let submit = Callback::new(|_: AnswerValues| {});
            let ranks = Callback::new(|_: Vec<RankAnswer>| {});
            let spans = Callback::new(|_: EsaAnswer| {});
            let item = s.step.item.clone().unwrap();
            let practice = s.practice.clone().unwrap();
            // As the server words it (`server::practice_answer_in`).
            let w = &s.screen.wording;
            let feedback = |passed: bool| PracticeFeedback {
                in_range: passed,
                message: fill(lang.text(Text::FeedbackHigh), &[("high", &w.anchor_high), ("reason", lang.text(Text::ReasonSame))]),
                yours: fill(lang.text(Text::YourRating), &[("words", &slider_words(|m| lang.msg(m).to_string(), Some(40.0), &w.anchor_low, &w.anchor_high))]),
                verdict: lang.text(if passed { Text::VerdictIn } else { Text::VerdictOut }).into(),
                round_result: Some(fill(lang.text(if passed { Text::RoundPassed } else { Text::RoundFailed }), &[("matched", "3"), ("total", "4"), ("required", "3")])),
                practice: PracticeView { position: if passed { 0 } else { 2 }, passed, ..practice.clone() },
                outputs: Vec::new(),
            };
            let mut out = vec![
                ("start", view! { <StartPage info practice=Some(practice.clone()) busy start=|_| {}/> }.to_html()),
                ("item", item_screen::<AllScreens>(info, item.clone(), s.step.together.clone(), 3, busy, submit, ranks, spans, Callback::new(|_| {}), Callback::new(|_| {})).to_html()),
                ("feedback", view! { <PracticeFeedbackScreen info item=item.clone() feedback=feedback(false) busy start=|_| {}/> }.to_html()),
                ("feedback passed", view! { <PracticeFeedbackScreen info item=item.clone() feedback=feedback(true) busy start=|_| {}/> }.to_html()),
                ("finished", view! { <Finished code=Some("C0DE".into()) return_url=Some("https://example.org".into()) ui=Ui::of(info)/> }.to_html()),
                ("finished here", view! { <Finished code=Some("C0DE".into()) return_url=None ui=Ui::of(info)/> }.to_html()),
                ("held", view! { <Finished code=None return_url=None ui=Ui::of(info)/> }.to_html()),
            ];
            // Every protocol but post-editing has practice (pairwise preference and ranking
            // since issue 37 item 6 and issue 38 row 15).
            assert_eq!(assay_core::protocol::for_task(task).practice().is_some(), task != TaskKind::PostEdit, "{task:?}");
            if task != TaskKind::PostEdit {
                out.push(("practice", practice_screen::<AllScreens>(info, practice.clone(), item.clone(), busy, Submits { values: submit, ranks, spans, post_edits: Callback::new(|_| ()), scored: Callback::new(|_| ()) }).to_html()));
            }
            let _ = Completion { code: None, return_url: None };
            out
        })
    }

    /// What a reader of the page meets, one line each: its text and the attributes read aloud or
    /// shown (`aria-label`, `aria-valuetext`, the slider's words, an option group's `label`,
    /// `title`, `placeholder`), not the markup's names (classes, ids, values sent); key caps
    /// (`<kbd>`, the same on every keyboard) left out; the HTML escapes undone.
    fn words_of(html: &str) -> String {
        const READ: [&str; 6] = ["aria-label", "aria-valuetext", "data-words", "label", "title", "placeholder"];
        let unescape = |s: &str| s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#x27;", "'").replace("&#39;", "'").replace("&amp;", "&");
        let mut out = Vec::new();
        let mut rest = html;
        let mut in_kbd = false;
        while let Some(open) = rest.find('<') {
            if !in_kbd {
                out.push(unescape(&rest[..open]));
            }
            let Some(close) = rest[open..].find('>') else { break };
            let tag = &rest[open + 1..open + close];
            in_kbd = tag == "kbd" || (in_kbd && tag != "/kbd");
            // Attributes: name="value" pairs (the server quotes every value).
            let mut attrs = tag;
            while let Some(eq) = attrs.find("=\"") {
                let name = attrs[..eq].rsplit(' ').next().unwrap_or("");
                let value_and_rest = &attrs[eq + 2..];
                let end = value_and_rest.find('"').unwrap_or(value_and_rest.len());
                if READ.contains(&name) {
                    out.push(unescape(&value_and_rest[..end]));
                }
                attrs = &value_and_rest[(end + 1).min(value_and_rest.len())..];
            }
            rest = &rest[open + close + 1..];
        }
        out.push(unescape(rest));
        out.join("\n")
    }

    /// A language's catalog strings, cut at their placeholders: the pieces that could show.
    fn pieces(lang: Lang) -> Vec<String> {
        let whole = Msg::ALL
            .iter()
            .map(|&m| lang.msg(m))
            .chain(Text::ALL.iter().map(|&t| lang.text(t)))
            .chain(mqm::parts(lang).iter().copied())
            .chain([page_words(lang).0, page_words(lang).1]);
        let mut out = Vec::new();
        for s in whole {
            let mut rest = s;
            loop {
                let (piece, after) = match rest.find('{') {
                    Some(i) => (&rest[..i], rest[i..].split_once('}').map_or("", |(_, a)| a)),
                    None => (rest, ""),
                };
                let piece = piece.trim_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation());
                if piece.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
                    out.push(piece.to_string());
                }
                if after.is_empty() {
                    break;
                }
                rest = after;
            }
        }
        out
    }

    /// `piece` stands in `text` as words of their own (not inside a longer word).
    fn stands_in(text: &str, piece: &str) -> bool {
        text.match_indices(piece).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + piece.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    }

    #[test]
    fn every_screen_of_every_protocol_is_in_one_language() {
        let own: Vec<(Lang, String)> = Lang::ALL.iter().map(|&l| (l, pieces(l).join("\n"))).collect();
        let all: Vec<(Lang, Vec<String>)> = Lang::ALL.iter().map(|&l| (l, pieces(l))).collect();
        let mut checked = 0;
        let mut wrong = Vec::new();
        for task in TaskKind::ALL {
            for lang in Lang::ALL {
                let mut settings = vec![format!(r#"{{"interface_language":"{}"}}"#, lang.tag())];
                if task == TaskKind::WordOrder {
                    settings.push(format!(r#"{{"interface_language":"{}","woj_scale":"sliders","allow_skip":true}}"#, lang.tag()));
                }
                let mine = &own.iter().find(|(l, _)| *l == lang).unwrap().1;
                for settings in &settings {
                    for (name, html) in screens(task, settings, lang) {
                        let text = words_of(&html);
                        // A piece can stand in the text only if its first word does.
                        let words: std::collections::HashSet<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
                        for (other, pieces) in all.iter().filter(|(o, _)| *o != lang) {
                            for piece in pieces {
                                // A piece both catalogs have (a term, "HIT", a shared word) is this language's too.
                                let first = piece.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or_default();
                                if words.contains(first) && !mine.contains(piece.as_str()) && stands_in(&text, piece) {
                                    wrong.push(format!("{task:?} {name} in {lang:?}: {other:?}'s “{piece}”"));
                                }
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        wrong.sort();
        wrong.dedup();
        assert!(wrong.is_empty(), "{} strings of another language:\n{}", wrong.len(), wrong.join("\n"));
        assert!(checked >= 7 * 8 * 7, "only {checked} screens rendered");
    }

    /// The texts under judgment carry their own language and direction (issue 38's walkthrough:
    /// in the Arabic interface a ranking output's final full stop was drawn on the wrong side):
    /// every word of a source, reference, output or context segment on every screen sits in an
    /// element whose nearest `lang` is the text's language, and that element sets `dir`.
    #[test]
    fn the_texts_under_judgment_carry_their_language_and_direction() {
        const VOID: [&str; 6] = ["input", "br", "img", "meta", "hr", "source"];
        let target = ["Qxv", "zwk", "jjb", "Wqq", "yyx", "Zzq", "Xxq", "Jjq", "wwp", "kkv"];
        let source = ["Pqw", "rrt", "vvz", "Kkq", "Vvq"];
        let context = ["Pqw", "rrt", "vvz"];
        let mut wrong = Vec::new();
        let mut seen = 0;
        for task in TaskKind::ALL {
            for lang in [Lang::Ar, Lang::De] {
                let mut s = state(task, &format!(r#"{{"interface_language":"{}"}}"#, lang.tag()), lang);
                s.source_lang = "qaa".into(); // a code no interface language has
                s.source_dir = "ltr".into();
                let target_lang = s.screen.lang.clone();
                for (name, html) in screens_of(s) {
                    // The open elements (tag, lang, has dir) at each text node.
                    let mut open: Vec<(String, Option<String>, bool)> = Vec::new();
                    let mut rest = html.as_str();
                    while let Some(at) = rest.find('<') {
                        let text = &rest[..at];
                        for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                            // The item's context is the source only where the protocol shows the source there.
                            let in_source = source.contains(&word) && (!context.contains(&word) || crate::annotate::screens::Context::of(task) == crate::annotate::screens::Context::Source);
                            let want = if in_source { "qaa" } else if target.contains(&word) || context.contains(&word) { &target_lang } else { continue };
                            seen += 1;
                            let nearest = open.iter().rev().find(|(_, l, _)| l.is_some());
                            match nearest {
                                Some((_, Some(l), dir)) if l == want && *dir => {}
                                other => wrong.push(format!("{task:?} {name} in {lang:?}: “{word}” under {other:?}, want lang {want} with dir")),
                            }
                        }
                        if rest[at..].starts_with("<!--") {
                            let end = rest[at..].find("-->").map_or(rest.len(), |e| at + e + 3);
                            rest = &rest[end..];
                            continue;
                        }
                        let close = rest[at..].find('>').map_or(rest.len(), |e| at + e);
                        let tag = &rest[at + 1..close];
                        rest = &rest[(close + 1).min(rest.len())..];
                        if let Some(name) = tag.strip_prefix('/') {
                            if let Some(i) = open.iter().rposition(|(t, _, _)| t == name.trim()) {
                                open.truncate(i);
                            }
                            continue;
                        }
                        let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("").to_string();
                        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
                            continue;
                        }
                        let attr = |a: &str| tag.find(&format!(" {a}=\"")).map(|i| tag[i + a.len() + 3..].split('"').next().unwrap_or("").to_string());
                        open.push((name, attr("lang"), attr("dir").is_some()));
                    }
                }
            }
        }
        wrong.sort();
        wrong.dedup();
        assert!(seen > 100, "only {seen} words of the texts found");
        assert!(wrong.is_empty(), "{} texts without their language:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// Issue 38 item 6: a ranking HIT's start page counts its screens and says how many outputs
    /// a sentence has (the campaign's), not its items; the instructions name no fixed number.
    #[test]
    fn a_ranking_start_page_counts_screens_and_its_outputs() {
        let s = state(TaskKind::Ranking, r#"{"rank_outputs":4}"#, Lang::En);
        assert_eq!(s.screen.rank_outputs, 4);
        let start = screens_of(s).into_iter().find(|(n, _)| *n == "start").unwrap().1;
        let text = words_of(&start);
        assert!(text.contains("This HIT has 4 screens; each sentence on a screen has 4 translations to rank, from 1 (best) to 4."), "{text}");
        assert!(!text.contains("12 items") && !text.contains("1 to 5"), "{text}");
        let de = screens(TaskKind::Ranking, r#"{"interface_language":"de","rank_outputs":3}"#, Lang::De);
        let text = words_of(&de.into_iter().find(|(n, _)| *n == "start").unwrap().1);
        assert!(text.contains("Dieser HIT umfasst 4 Seiten; zu jedem Satz einer Seite gibt es 3 Übersetzungen"), "{text}");
        // One item a screen: the items are counted.
        let da = words_of(&screens(TaskKind::DaAdequacy, "{}", Lang::En).into_iter().find(|(n, _)| *n == "start").unwrap().1);
        assert!(da.contains("This HIT has 12 items."), "{da}");
    }

    /// Issue 38 item 5: each word-order question is one radio group with one tab stop (the first
    /// box while none is chosen), so that Tab goes to the next question as the legend says.
    #[test]
    fn each_word_order_question_is_one_tab_stop() {
        let item = screens(TaskKind::WordOrder, "{}", Lang::En).into_iter().find(|(n, _)| *n == "item").unwrap().1;
        for q in ["q1", "q2"] {
            let stops: Vec<&str> = item.match_indices(&format!("id=\"{q}-box-")).map(|(at, _)| &item[at..at + item[at..].find('>').unwrap()]).collect();
            assert_eq!(stops.len(), 5, "{q}: {stops:?}");
            let focusable: Vec<&&str> = stops.iter().filter(|b| b.contains("tabindex=\"0\"")).collect();
            assert_eq!(focusable.len(), 1, "{q}: {stops:?}");
            assert!(focusable[0].contains(&format!("{q}-box-1")), "{focusable:?}");
            assert_eq!(stops.iter().filter(|b| b.contains("tabindex=\"-1\"")).count(), 4, "{q}: {stops:?}");
        }
    }

    /// Issue 38 item 4: a screen with suggested errors says so and offers Undo (disabled until
    /// something changed, with its key); one without suggestions has no note.
    #[test]
    fn a_screen_with_suggestions_has_the_note_and_undo() {
        for task in [TaskKind::Esa, TaskKind::Mqm] {
            let item = screens(task, "{}", Lang::En).into_iter().find(|(n, _)| *n == "item").unwrap().1;
            let note = &item[item.find("id=\"esa-prefilled\"").expect("the note")..];
            assert!(!note[..note.find('>').unwrap()].contains("hidden"), "a suggestion is left: the note shows");
            let undo = &item[item.find("id=\"esa-undo\"").expect("Undo")..];
            let undo = &undo[..undo.find('>').unwrap()];
            assert!(undo.contains("disabled") && undo.contains("aria-keyshortcuts=\"Control+Z\""), "{undo}");
            assert!(words_of(&item).contains("undo"), "the key legend names Ctrl+Z");
        }
        let mut s = state(TaskKind::Esa, "{}", Lang::En);
        if let Some(item) = s.step.item.as_mut() {
            item.prefilled.clear();
        }
        let item = screens_of(s).into_iter().find(|(n, _)| *n == "item").unwrap().1;
        assert!(!item.contains("esa-prefilled"));
    }

    /// The check above finds what it looks for: a German ESA screen with its wording left in
    /// English (as before issue 38) has English strings.
    #[test]
    fn an_english_wording_on_a_german_screen_is_found() {
        let mut s = state(TaskKind::Esa, r#"{"interface_language":"de"}"#, Lang::De);
        s.screen.wording = crate::campaign::CampaignSettings::read("{}", TaskKind::Esa, "French", "English").wording;
        let found: Vec<String> = screens_of(s)
            .into_iter()
            .flat_map(|(_, html)| pieces(Lang::En).into_iter().filter(move |p| stands_in(&words_of(&html), p)))
            .collect();
        for english in ["Next", "Source", "Candidate translation", "No meaning preserved"] {
            assert!(found.iter().any(|p| p == english), "{english}: {found:?}");
        }
    }
}
