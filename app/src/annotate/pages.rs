//! The annotation screens (METHOD §1): the start page, one item per screen (DA slider or the
//! word-order questions), and the completion code. The annotator's list of HITs for the home
//! page is here too.
//!
//! Every item is drawn by the same code with the same elements and classes; only the texts
//! differ. Moving on is one request: the answer goes up and the next item comes back.

use super::api::{RankAnswer, load_work, my_assignments, practice_answer, practice_spans, start_work, submit_judgment, submit_screen, submit_spans};
use super::esa::{EsaAnswer, EsaItem};
use super::{ItemView, Lang, Msg, PracticeFeedback, PracticeView, WOJ_VALUES, WorkState};
use assay_core::i18n::fill;
use assay_core::instructions::{Block, blocks};
use crate::auth::error_text;
use leptos::either::{Either, EitherOf3, EitherOf4, EitherOf6};
use leptos::ev;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

/// The interface language of the page and its messages (issue 18 item 3), read from the
/// work state the server sent: the browser bundle holds no catalog.
#[derive(Clone, Copy)]
pub struct Ui {
    lang: Lang,
    info: StoredValue<WorkState>,
}

impl Ui {
    pub fn of(info: StoredValue<WorkState>) -> Ui {
        Ui { lang: info.with_value(|s| s.screen.ui), info }
    }

    /// A message in the interface language (empty if the server sent none).
    pub fn msg(self, m: Msg) -> String {
        self.info.with_value(|s| s.screen.texts.get(m as usize).cloned().unwrap_or_default())
    }

    pub fn tag(self) -> &'static str {
        self.lang.tag()
    }

    pub fn dir(self) -> &'static str {
        self.lang.dir()
    }
}

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

/// The slider of the item on the screen takes the keyboard focus (once the view has been
/// drawn: it may have just been shown).
fn focus_slider() {
    #[cfg(feature = "hydrate")]
    request_animation_frame(|| {
        use wasm_bindgen::JsCast;
        if let Some(el) = document().get_element_by_id("score").and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// What the worker did before the bundle took over ([`super::early`]), for the first item's
/// slider to show the value set there.
#[derive(Clone, Copy)]
struct EarlyValue(StoredValue<Option<super::early::Early>>);

/// A fresh idempotency key for one attempt at one item.
fn fresh_key(position: i64) -> String {
    #[cfg(feature = "hydrate")]
    let noise = (js_sys::Math::random() * 9.0e15) as u64;
    #[cfg(not(feature = "hydrate"))]
    let noise = 0u64;
    format!("{position}-{:x}-{noise:x}", client_now() as u64)
}

/// The words a screen reader says for a slider position: no number, only where it stands
/// between the two anchors (the bands of [`super::early::SLIDER_BANDS`]).
pub fn slider_words(words: impl Fn(Msg) -> String, value: Option<f64>, low: &str, high: &str) -> String {
    let at = |m: Msg, end: &str| fill(&words(m), &[("end", end)]);
    let Some(v) = value else { return fill(&words(Msg::SliderNotSet), &[("low", low), ("high", high)]) };
    match super::early::slider_band(v) {
        0 => at(Msg::SliderAt, low),
        1 => at(Msg::SliderCloseTo, low),
        2 => at(Msg::SliderLeaning, low),
        3 => words(Msg::SliderMiddle),
        4 => at(Msg::SliderLeaning, high),
        5 => at(Msg::SliderCloseTo, high),
        _ => at(Msg::SliderAt, high),
    }
}

/// Every text [`slider_words`] can give, as JSON: not set, then one per band (the slider's
/// `data-words`, for the early script of [`super::early`]).
fn slider_word_list(words: impl Fn(Msg) -> String, low: &str, high: &str) -> String {
    // A value inside each band: halfway between its bounds.
    let bounds: Vec<f64> = std::iter::once(0.0).chain(super::early::SLIDER_BANDS.iter().map(|b| b.0)).chain(std::iter::once(100.0)).collect();
    let all: Vec<String> = std::iter::once(slider_words(&words, None, low, high))
        .chain(bounds.windows(2).map(|w| slider_words(&words, Some((w[0] + w[1]) / 2.0), low, high)))
        .collect();
    serde_json::to_string(&all).unwrap_or_default()
}

/// A 0–100 visual analog scale: a track with anchors at the ends and ticks at 25, 50 and 75,
/// no number shown, no value until the annotator sets one. Pointer position maps continuously
/// to the value; keys: arrows ±1, Page Up/Down ±10, Home/End. `role="slider"` with
/// `aria-valuetext` in words (no `aria-valuenow`, which would be a number).
#[component]
pub fn Slider(
    value: RwSignal<Option<f64>>,
    #[prop(into)] low: String,
    #[prop(into)] high: String,
    #[prop(into)] label: String,
    #[prop(into)] id: String,
    /// The interface language (the position in words, "Not set yet").
    ui: Ui,
    /// Take the keyboard focus when shown.
    #[prop(optional)]
    autofocus: bool,
    /// Where the track has tick marks (0–100); 25, 50 and 75 when not given.
    #[prop(optional)]
    ticks: Option<Vec<u32>>,
) -> impl IntoView {
    // The ticks' positions by attribute (`data-at`, placed by the style sheet at 25, 33, 50, 66
    // and 75): an inline style is serialised differently by the server and by the browser, so
    // an item drawn by the server (after a reload) and one drawn in the browser would differ.
    let ticks = ticks.unwrap_or_else(|| vec![25, 50, 75]);
    let ticks = ticks.into_iter().map(|t| view! { <span class="tick" data-at=t></span> }).collect_view();
    let track = NodeRef::<leptos::html::Div>::new();
    let dragging = RwSignal::new(false);
    let set_from_x = move |client_x: f64| {
        #[cfg(feature = "hydrate")]
        if let Some(el) = track.get_untracked() {
            let r = el.get_bounding_client_rect();
            if r.width() > 0.0 {
                value.set(Some(((client_x - r.left()) / r.width() * 100.0).clamp(0.0, 100.0)));
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = client_x;
    };
    if autofocus {
        Effect::new(move |_| {
            if let Some(el) = track.get() {
                let _ = el.focus();
            }
        });
    }
    let words_low = low.clone();
    let words_high = high.clone();
    let word_list = slider_word_list(move |m| ui.msg(m), &low, &high);
    view! {
        <div class="slider" dir="ltr">
            <div
                class="slider-track"
                id=id
                node_ref=track
                role="slider"
                tabindex="0"
                aria-label=label
                aria-valuemin="0"
                aria-valuemax="100"
                aria-orientation="horizontal"
                aria-valuetext=move || slider_words(move |m| ui.msg(m), value.get(), &words_low, &words_high)
                data-set=move || if value.get().is_some() { "true" } else { "false" }
                data-words=word_list
                on:pointerdown=move |e: ev::PointerEvent| {
                    if e.button() != 0 {
                        return;
                    }
                    e.prevent_default();
                    if let Some(el) = track.get_untracked() {
                        let _ = el.set_pointer_capture(e.pointer_id());
                        let _ = el.focus();
                    }
                    dragging.set(true);
                    set_from_x(e.client_x() as f64);
                }
                on:pointermove=move |e: ev::PointerEvent| {
                    if dragging.get_untracked() {
                        set_from_x(e.client_x() as f64);
                    }
                }
                on:pointerup=move |_| dragging.set(false)
                on:pointercancel=move |_| dragging.set(false)
                on:keydown=move |e: ev::KeyboardEvent| {
                    let step = match e.key().as_str() {
                        "ArrowRight" | "ArrowUp" => Some(1.0),
                        "ArrowLeft" | "ArrowDown" => Some(-1.0),
                        "PageUp" => Some(10.0),
                        "PageDown" => Some(-10.0),
                        "Home" => Some(-1000.0),
                        "End" => Some(1000.0),
                        _ => None,
                    };
                    if let Some(step) = step {
                        e.prevent_default();
                        // From "not set", the first key press starts in the middle.
                        let from = value.get_untracked().unwrap_or(50.0);
                        value.set(Some((from + step).clamp(0.0, 100.0)));
                    }
                }
            >
                {ticks}
                <span
                    class="thumb"
                    class:unset=move || value.get().is_none()
                    style:left=move || format!("{:.4}%", value.get().unwrap_or(50.0))
                ></span>
            </div>
            <div class="anchors" aria-hidden="true">
                <span class="anchor low">{low}</span>
                <span class="anchor high">{high}</span>
            </div>
            <p class="unset-note" aria-hidden="true" lang=ui.tag() dir=ui.dir() hidden=move || value.get().is_some()>{ui.msg(Msg::NotSetYet)}</p>
        </div>
    }
}

/// One text of an item with its label, tied together for screen readers (a group named by the
/// label). `id` is the text's id; the label's is `{id}-label`.
fn labelled_text(label: String, id: &'static str, class: &'static str, lang: Option<String>, dir: String, text: String) -> impl IntoView {
    let label_id = format!("{id}-label");
    let labelled_by = label_id.clone();
    view! {
        <div class="text-block" role="group" aria-labelledby=labelled_by>
            <p class="text-label" id=label_id>{label}</p>
            <p class=class id=id lang=lang dir=dir>{text}</p>
        </div>
    }
}

/// The keys of a screen, shortly (hidden on touch screens without a keyboard).
#[component]
fn KeyLegend(kind: &'static str, ui: Ui, #[prop(optional)] ranks: usize) -> impl IntoView {
    let m = move |x: Msg| format!(" {} · ", ui.msg(x));
    let last = move |x: Msg| format!(" {}", ui.msg(x));
    let body = match kind {
        "boxes" => EitherOf3::A(view! {
            <kbd>"1"</kbd>"–"<kbd>"5"</kbd>{m(Msg::KeysChooseBox)}
            <kbd>"Tab"</kbd>{m(Msg::KeysNextQuestion)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
        "ranking" => EitherOf3::B(view! {
            <kbd>"Tab"</kbd>{m(Msg::KeysToTranslation)}<kbd>"1"</kbd>"–"<kbd>{ranks.to_string()}</kbd>{m(Msg::KeysItsRank)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
        _ => EitherOf3::C(view! {
            <kbd>"←"</kbd>" "<kbd>"→"</kbd>{m(Msg::KeysMoveLittle)}<kbd>"Page Up"</kbd>" "<kbd>"Page Down"</kbd>{m(Msg::KeysMoveMore)}
            <kbd>"Home"</kbd>" "<kbd>"End"</kbd>{m(Msg::KeysEnds)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
    };
    view! { <p class="key-legend" id="key-legend" lang=ui.tag() dir=ui.dir()><span class="keys-title">{ui.msg(Msg::KeysTitle)}" "</span>{body}</p> }
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

/// `/work/:id`: an assignment's page.
#[component]
pub fn WorkPage() -> impl IntoView {
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
                    Ok(s) => Either::Right(view! { <Work state=s/> }),
                }
            })}
        </Suspense>
    }
}

/// What the item screen sends: (score, score2, skipped).
type AnswerValues = (Option<f64>, Option<f64>, bool);

/// A practice answer as the screen sends it: scores (DA, word order) or error spans (ESA, MQM).
enum PracticeSent {
    Scores(Option<f64>, Option<f64>),
    Spans(EsaAnswer),
}

#[component]
fn Work(state: WorkState) -> impl IntoView {
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
            let reply = submit_screen(id, ranks, elapsed, k, Some(active)).await;
            settle(reply, Ui::of(info).msg(Msg::KeptRanks).to_string());
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
            settle(reply, "Your errors and score are kept on this page: press the button again to send them.".to_string());
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

    let task = state.task.clone();
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
                    EitherOf6::B(view! { <ItemScreen info item together answered=s.answered busy submit submit_ranks submit_esa/> })
                } else if let Some(item) = s.item.clone() {
                    // The first item, sent ahead: behind the instructions until Start.
                    let together = s.together.clone();
                    let assignment = info.with_value(|i| i.assignment.clone());
                    EitherOf6::F(view! {
                        <div id="ahead-start" hidden=move || started.get()>
                            <StartPage info practice=practice.get_untracked() busy start/>
                        </div>
                        <div id="ahead-item" data-assignment=assignment hidden=move || !started.get()>
                            <ItemScreen info item together answered=s.answered busy submit submit_ranks submit_esa/>
                        </div>
                    })
                } else if let Some((item, fb)) = feedback.get() {
                    EitherOf6::C(view! { <PracticeFeedbackScreen info item feedback=fb busy start/> })
                } else if let Some((p, item)) = practice.get().filter(|_| practising.get()).and_then(|p| p.item.clone().map(|i| (p, i))) {
                    EitherOf6::D(view! { <PracticeScreen info practice=p item busy submit=submit_practice submit_spans=submit_practice_spans/> })
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
            <p class="hit-size" id="hit-size">{fill(&ui.msg(Msg::HitSize), &[("n", &i.total.to_string())])}</p>
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
#[component]
fn PracticeScreen(
    info: StoredValue<WorkState>,
    practice: PracticeView,
    item: ItemView,
    busy: RwSignal<bool>,
    submit: Callback<AnswerValues>,
    submit_spans: Callback<EsaAnswer>,
) -> impl IntoView {
    let i = info.get_value();
    let body = match i.task.as_str() {
        "word-order" => EitherOf3::A(view! { <WordOrderItem info item busy submit practice=true/> }),
        "esa" | "mqm" => EitherOf3::B(view! { <EsaItem info item busy submit=submit_spans/> }),
        _ => EitherOf3::C(view! { <DaItem info item busy submit/> }),
    };
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
            {item_texts(&i, &item, ui)}
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

#[component]
fn ItemScreen(
    info: StoredValue<WorkState>,
    item: ItemView,
    together: Vec<ItemView>,
    answered: i64,
    busy: RwSignal<bool>,
    submit: Callback<AnswerValues>,
    submit_ranks: Callback<Vec<RankAnswer>>,
    submit_esa: Callback<EsaAnswer>,
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
    let body = if i.task == "word-order" {
        EitherOf4::A(view! { <WordOrderItem info item busy submit/> })
    } else if i.task == "ranking" {
        let mut items = vec![item];
        items.extend(together);
        EitherOf4::B(view! { <RankingScreen info items busy submit=submit_ranks/> })
    } else if i.task == "esa" || i.task == "mqm" {
        EitherOf4::D(view! { <EsaItem info item busy submit=submit_esa/> })
    } else {
        EitherOf4::C(view! { <DaItem info item busy submit/> })
    };
    view! {
        <div class="card item-screen" lang=lang dir=dir>
            <p class="progress" id="progress" aria-live="polite" lang=ui.tag() dir=ui.dir()>{progress}</p>
            {body}
        </div>
    }
}

#[component]
fn DaItem(info: StoredValue<WorkState>, item: ItemView, busy: RwSignal<bool>, submit: Callback<AnswerValues>) -> impl IntoView {
    let i = info.get_value();
    let value = RwSignal::new(None::<f64>);
    let send = move || {
        if let Some(v) = value.get_untracked() {
            submit.run((Some(v), None, false));
        }
    };
    // The first item, answered before the bundle took over: its slider shows the value set.
    if let Some(EarlyValue(early)) = use_context::<EarlyValue>()
        && item.position == 0
        && let Some(v) = early.get_value().and_then(|e| e.value)
    {
        Effect::new(move |_| value.set(Some(v)));
    }
    let w = i.screen.wording.clone();
    let ui = Ui::of(info);
    let why = move || {
        if value.get().is_none() { ui.msg(Msg::WhySlider) } else { String::new() }
    };
    view! {
        <div
            class="da"
            on:keydown=move |e: ev::KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    send();
                }
            }
        >
            <p class="statement" id="statement">{w.statement.clone()}</p>
            {item_texts(&i, &item, ui)}
            <Slider value low=w.anchor_low.clone() high=w.anchor_high.clone() label=w.statement.clone() id="score" ui autofocus=true/>
            <div class="actions">
                <p class="next-why" id="next-why" aria-live="polite" lang=ui.tag() dir=ui.dir()>{why}</p>
                <button
                    type="button"
                    class="primary"
                    id="next"
                    aria-describedby="next-why"
                    disabled=move || value.get().is_none() || busy.get()
                    on:click=move |_| send()
                >
                    {w.next_label.clone()}
                </button>
            </div>
            <KeyLegend kind="slider" ui/>
        </div>
    }
}

/// The texts of an item, each with its label: DA (the reference or the source, then the
/// candidate; fluency the candidate alone) and word order (the first sentence, then the second).
fn item_texts(i: &WorkState, item: &ItemView, ui: Ui) -> impl IntoView {
    let w = &i.screen.wording;
    let lang = Some(i.screen.lang.clone());
    if i.task == "word-order" {
        return Either::Left(view! {
            <div class="texts" lang=ui.tag() dir=ui.dir()>
                {labelled_text(ui.msg(Msg::FirstSentence).into(), "candidate", "candidate", lang.clone(), i.target_dir.clone(), item.candidate.clone())}
                {labelled_text(ui.msg(Msg::SecondSentence).into(), "context", "context reference", lang, i.target_dir.clone(), item.context.clone().unwrap_or_default())}
            </div>
        });
    }
    let context = item.context.clone().map(|text| {
        // Source-based DA and the error-span tasks (a practice item's feedback) show the source.
        if matches!(i.task.as_str(), "da-source" | "esa" | "mqm") {
            labelled_text(w.label_source.clone(), "context", "context source", Some(i.source_lang.clone()), i.source_dir.clone(), text)
        } else {
            labelled_text(w.label_reference.clone(), "context", "context reference", lang.clone(), i.target_dir.clone(), text)
        }
    });
    Either::Right(view! {
        <div class="texts">
            {context}
            {labelled_text(w.label_candidate.clone(), "candidate", "candidate", lang, i.target_dir.clone(), item.candidate.clone())}
        </div>
    })
}

/// A relative-ranking screen (WMT 2012): for each of its segments (a block), the source (and
/// the reference, as the campaign says) and the outputs to rank, each with one button per rank.
/// Ties are allowed: any number of outputs may share a rank. Keyboard: Tab to an output, press
/// its rank (1 … N; focus moves on to the next output), Enter to go on.
#[component]
fn RankingScreen(info: StoredValue<WorkState>, items: Vec<ItemView>, busy: RwSignal<bool>, submit: Callback<Vec<RankAnswer>>) -> impl IntoView {
    let i = info.get_value();
    let w = i.screen.wording.clone();
    let ui = Ui::of(info);
    let n = i.screen.rank_outputs.max(2);
    let ranks = RwSignal::new(vec![None::<u32>; items.len()]);
    let left = move || ranks.with(|r| r.iter().filter(|x| x.is_none()).count());
    let positions: Vec<i64> = items.iter().map(|it| it.position).collect();
    let send = move || {
        let chosen = ranks.get_untracked();
        if chosen.iter().all(Option::is_some) {
            submit.run(positions.iter().zip(chosen).map(|(&position, r)| RankAnswer { position, rank: r.unwrap_or(1) }).collect());
        }
    };
    let send = StoredValue::new(send);
    // Blocks: consecutive items of the same source.
    let mut blocks: Vec<(String, Option<String>, Vec<(usize, ItemView)>)> = Vec::new();
    for (k, it) in items.into_iter().enumerate() {
        let source = it.context.clone().unwrap_or_default();
        match blocks.last_mut() {
            Some((s, _, outs)) if *s == source => outs.push((k, it)),
            _ => blocks.push((source, it.reference.clone(), vec![(k, it)])),
        }
    }
    let total = ranks.with_untracked(Vec::len);
    let focus_row = move |k: usize| {
        #[cfg(feature = "hydrate")]
        if let Ok(Some(el)) = leptos::prelude::document().query_selector(&format!("[data-row=\"{k}\"]")) {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = k;
    };
    Effect::new(move |_| focus_row(0));
    let source_dir = i.source_dir.clone();
    let source_lang = i.source_lang.clone();
    let target_dir = i.target_dir.clone();
    let target_lang = i.screen.lang.clone();
    let label_source = w.label_source.clone();
    let label_reference = w.label_reference.clone();
    let block_count = blocks.len();
    view! {
        <div
            class="ranking"
            id="rank-screen"
            on:keydown=move |e: ev::KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    send.with_value(|f| f());
                }
            }
        >
            <p class="statement" id="statement">{w.statement.clone()}</p>
            {blocks
                .into_iter()
                .enumerate()
                .map(|(b, (source, reference, outs))| {
                    let heading = if block_count > 1 {
                        fill(&ui.msg(Msg::SentenceNofM), &[("n", &(b + 1).to_string()), ("total", &block_count.to_string())])
                    } else {
                        ui.msg(Msg::Sentence).to_string()
                    };
                    let region = heading.clone();
                    view! {
                        <section class="rank-block" aria-label=region>
                            <p class="text-label"><span lang=ui.tag() dir=ui.dir()>{heading}</span> " · " {label_source.clone()}</p>
                            <p class="context source" lang=source_lang.clone() dir=source_dir.clone()>{source}</p>
                            {reference.map(|r| view! {
                                <p class="text-label">{label_reference.clone()}</p>
                                <p class="context reference" lang=target_lang.clone() dir=target_dir.clone()>{r}</p>
                            })}
                            <ol class="rank-outputs">
                                {outs
                                    .into_iter()
                                    .enumerate()
                                    .map(|(o, (k, it))| {
                                        let label = fill(&ui.msg(Msg::TranslationN), &[("n", &(o + 1).to_string())]);
                                        let group = format!("rank-label-{k}");
                                        let (row_label, label_id) = (group.clone(), group.clone());
                                        view! {
                                            <li
                                                class="rank-row"
                                                data-row=k
                                                tabindex="0"
                                                aria-labelledby=row_label
                                                data-ranked=move || if ranks.with(|r| r[k].is_some()) { "true" } else { "false" }
                                                on:keydown=move |e: ev::KeyboardEvent| {
                                                    if let Some(r) = e.key().parse::<u32>().ok().filter(|r| (1..=n as u32).contains(r)) {
                                                        e.prevent_default();
                                                        ranks.update(|v| v[k] = Some(r));
                                                        if k + 1 < total {
                                                            focus_row(k + 1);
                                                        }
                                                    }
                                                }
                                            >
                                                <p class="text-label" lang=ui.tag() dir=ui.dir() id=label_id>{label}</p>
                                                <p class="candidate">{it.candidate.clone()}</p>
                                                <div class="ranks" role="radiogroup" aria-labelledby=group dir="ltr">
                                                    {(1..=n as u32)
                                                        .map(|r| {
                                                            let name = if r == 1 {
                                                                ui.msg(Msg::RankBest).to_string()
                                                            } else if r == n as u32 {
                                                                fill(&ui.msg(Msg::RankWorst), &[("r", &r.to_string())])
                                                            } else {
                                                                fill(&ui.msg(Msg::RankN), &[("r", &r.to_string())])
                                                            };
                                                            view! {
                                                                <button
                                                                    type="button"
                                                                    class="rank"
                                                                    role="radio"
                                                                    tabindex="-1"
                                                                    data-rank=r
                                                                    aria-label=name
                                                                    aria-checked=move || if ranks.with(|v| v[k] == Some(r)) { "true" } else { "false" }
                                                                    on:click=move |_| ranks.update(|v| v[k] = Some(r))
                                                                >
                                                                    {r}
                                                                </button>
                                                            }
                                                        })
                                                        .collect_view()}
                                                </div>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </section>
                    }
                })
                .collect_view()}
            <div class="actions">
                <p class="hint" id="rank-hint" aria-live="polite" lang=ui.tag() dir=ui.dir()>
                    {move || match left() {
                        0 => ui.msg(Msg::AllRanked).to_string(),
                        1 => ui.msg(Msg::RanksLeftOne).to_string(),
                        k => fill(&ui.msg(Msg::RanksLeft), &[("k", &k.to_string())]),
                    }}
                </p>
                <button
                    type="button"
                    class="primary"
                    id="next"
                    aria-describedby="rank-hint"
                    disabled={move || left() > 0 || busy.get()}
                    on:click=move |_| send.with_value(|f| f())
                >
                    {w.next_label.clone()}
                </button>
            </div>
            <KeyLegend kind="ranking" ui ranks=n/>
        </div>
    }
}

/// One word-order question: five boxes labelled only at the ends.
#[component]
fn Boxes(
    answer: RwSignal<Option<usize>>,
    #[prop(into)] id: String,
    #[prop(into)] question: String,
    #[prop(into)] low: String,
    #[prop(into)] high: String,
    ui: Ui,
) -> impl IntoView {
    let qid = format!("{id}-question");
    view! {
        <fieldset class="woj-question" id=id.clone()>
            <legend id=qid.clone()>{question}</legend>
            <div class="boxes" role="radiogroup" aria-labelledby=qid dir="ltr">
                <span class="end low">{low.clone()}</span>
                {(0..5usize)
                    .map(|b| {
                        let n = (b + 1).to_string();
                        let name = match b {
                            0 => fill(&ui.msg(Msg::BoxEnd), &[("n", &n), ("end", &low)]),
                            4 => fill(&ui.msg(Msg::BoxEnd), &[("n", &n), ("end", &high)]),
                            _ => fill(&ui.msg(Msg::BoxN), &[("n", &n)]),
                        };
                        view! {
                            <button
                                type="button"
                                class="box"
                                role="radio"
                                data-box=b + 1
                                aria-label=name
                                aria-checked=move || if answer.get() == Some(b) { "true" } else { "false" }
                                on:click=move |_| answer.set(Some(b))
                            ></button>
                        }
                    })
                    .collect_view()}
                <span class="end high">{high.clone()}</span>
            </div>
        </fieldset>
    }
}

#[component]
fn WordOrderItem(
    info: StoredValue<WorkState>,
    item: ItemView,
    busy: RwSignal<bool>,
    submit: Callback<AnswerValues>,
    /// A practice item: no skipping.
    #[prop(optional)]
    practice: bool,
) -> impl IntoView {
    let i = info.get_value();
    let w = i.screen.wording.clone();
    let ui = Ui::of(info);
    let sliders = i.screen.woj_sliders;
    let q1 = RwSignal::new(None::<usize>);
    let q2 = RwSignal::new(None::<usize>);
    let s1 = RwSignal::new(None::<f64>);
    let s2 = RwSignal::new(None::<f64>);
    let ready = move || if sliders { s1.get().is_some() && s2.get().is_some() } else { q1.get().is_some() && q2.get().is_some() };
    let send = move || {
        if sliders {
            if let (Some(a), Some(b)) = (s1.get_untracked(), s2.get_untracked()) {
                submit.run((Some(a / 100.0), Some(b / 100.0), false));
            }
        } else if let (Some(a), Some(b)) = (q1.get_untracked(), q2.get_untracked()) {
            submit.run((Some(WOJ_VALUES[a]), Some(WOJ_VALUES[b]), false));
        }
    };
    let container = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if !sliders && let Some(el) = container.get() {
            let _ = el.focus();
        }
    });
    let on_key = move |e: ev::KeyboardEvent| {
        let key = e.key();
        if key == "Enter" {
            e.prevent_default();
            send();
            return;
        }
        if sliders {
            return;
        }
        if let Some(b) = key.parse::<usize>().ok().filter(|b| (1..=5).contains(b)) {
            e.prevent_default();
            // The focused question, else the first one not answered yet, else the second.
            #[cfg(feature = "hydrate")]
            let focused_q2 = leptos::prelude::document()
                .active_element()
                .and_then(|el| el.closest("#q2").ok().flatten())
                .is_some();
            #[cfg(not(feature = "hydrate"))]
            let focused_q2 = false;
            #[cfg(feature = "hydrate")]
            let focused_q1 = leptos::prelude::document()
                .active_element()
                .and_then(|el| el.closest("#q1").ok().flatten())
                .is_some();
            #[cfg(not(feature = "hydrate"))]
            let focused_q1 = false;
            let target = if focused_q2 {
                q2
            } else if focused_q1 || q1.get_untracked().is_none() {
                q1
            } else {
                q2
            };
            target.set(Some(b - 1));
        }
    };
    let skip = move |_| submit.run((None, None, true));
    let questions = if sliders {
        Either::Left(view! {
            <fieldset class="woj-question" id="q1">
                <legend>{w.woj_question1.clone()}</legend>
                <Slider value=s1 low=w.woj_low1.clone() high=w.woj_high1.clone() label=w.woj_question1.clone() id="q1-slider" ui autofocus=true/>
            </fieldset>
            <fieldset class="woj-question" id="q2">
                <legend>{w.woj_question2.clone()}</legend>
                <Slider value=s2 low=w.woj_low2.clone() high=w.woj_high2.clone() label=w.woj_question2.clone() id="q2-slider" ui/>
            </fieldset>
        })
    } else {
        Either::Right(view! {
            <Boxes answer=q1 id="q1" question=w.woj_question1.clone() low=w.woj_low1.clone() high=w.woj_high1.clone() ui/>
            <Boxes answer=q2 id="q2" question=w.woj_question2.clone() low=w.woj_low2.clone() high=w.woj_high2.clone() ui/>
        })
    };
    let allow_skip = i.screen.allow_skip && !practice;
    let why = move || {
        let (a, b) = if sliders { (s1.get().is_some(), s2.get().is_some()) } else { (q1.get().is_some(), q2.get().is_some()) };
        match (a, b, sliders) {
            (true, true, _) => String::new(),
            (false, false, false) => ui.msg(Msg::WhyBoxesBoth),
            (false, true, false) => ui.msg(Msg::WhyBoxesFirst),
            (true, false, false) => ui.msg(Msg::WhyBoxesSecond),
            (false, false, true) => ui.msg(Msg::WhySlidersBoth),
            (false, true, true) => ui.msg(Msg::WhySliderFirst),
            (true, false, true) => ui.msg(Msg::WhySliderSecond),
        }
    };
    view! {
        <div class="woj" tabindex="-1" node_ref=container on:keydown=on_key>
            <p class="woj-language" id="source-language" lang=ui.tag() dir=ui.dir()>
                {fill(&ui.msg(Msg::TranslationsFrom), &[("source", &i.screen.source_language_name)])}
            </p>
            {item_texts(&i, &item, ui)}
            {questions}
            <div class="actions">
                <p class="next-why" id="next-why" aria-live="polite" lang=ui.tag() dir=ui.dir()>{why}</p>
                {allow_skip.then(|| view! {
                    <button type="button" id="skip" lang=ui.tag() dir=ui.dir() disabled=move || busy.get() on:click=skip>{ui.msg(Msg::Skip)}</button>
                })}
                <button type="button" class="primary" id="next" aria-describedby="next-why" disabled=move || !ready() || busy.get() on:click=move |_| send()>
                    {w.next_label.clone()}
                </button>
            </div>
            <KeyLegend kind=if sliders { "slider" } else { "boxes" } ui/>
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
                                    <li data-task=a.task.clone()>
                                        <A href=href>{a.campaign_name}</A>
                                        " · " {w.task(&a.task)} " · " <span class="hit-state">{state}</span>
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
