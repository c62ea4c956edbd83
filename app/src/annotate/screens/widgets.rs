//! What every protocol's screen draws with: the interface language ([`Ui`]), the slider, an
//! item's labelled texts and the key legend. In every work bundle.

use super::super::{ItemView, Lang, Msg, WorkState};
use super::Context;
use assay_core::i18n::fill;
use leptos::either::{Either, EitherOf3};
use leptos::ev;
use leptos::prelude::*;

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

/// The slider of the item on the screen takes the keyboard focus (once the view has been
/// drawn: it may have just been shown).
pub fn focus_slider() {
    #[cfg(feature = "hydrate")]
    request_animation_frame(|| {
        use wasm_bindgen::JsCast;
        if let Some(el) = document().get_element_by_id("score").and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

/// What the worker did before the bundle took over ([`super::super::early`]), for the first item's
/// slider to show the value set there.
#[derive(Clone, Copy)]
pub struct EarlyValue(pub StoredValue<Option<super::super::early::Early>>);

/// The words a screen reader says for a slider position: no number, only where it stands
/// between the two anchors (the bands of [`super::super::early::SLIDER_BANDS`]).
pub fn slider_words(words: impl Fn(Msg) -> String, value: Option<f64>, low: &str, high: &str) -> String {
    let at = |m: Msg, end: &str| fill(&words(m), &[("end", end)]);
    let Some(v) = value else { return fill(&words(Msg::SliderNotSet), &[("low", low), ("high", high)]) };
    match super::super::early::slider_band(v) {
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
/// `data-words`, for the early script of [`super::super::early`]).
fn slider_word_list(words: impl Fn(Msg) -> String, low: &str, high: &str) -> String {
    // A value inside each band: halfway between its bounds.
    let bounds: Vec<f64> = std::iter::once(0.0).chain(super::super::early::SLIDER_BANDS.iter().map(|b| b.0)).chain(std::iter::once(100.0)).collect();
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
pub fn labelled_text(label: String, id: &'static str, class: &'static str, lang: Option<String>, dir: String, text: String) -> impl IntoView {
    let label_id = format!("{id}-label");
    let labelled_by = label_id.clone();
    view! {
        <div class="text-block" role="group" aria-labelledby=labelled_by>
            <p class="text-label" id=label_id>{label}</p>
            <p class=class id=id lang=lang dir=dir>{text}</p>
        </div>
    }
}

/// Which keys a screen's legend lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keys {
    /// A slider (DA, word order on sliders).
    Slider,
    /// Word order's boxes.
    Boxes,
    /// Ranking's rank buttons.
    Ranking,
}

/// The keys of a screen, shortly (hidden on touch screens without a keyboard).
#[component]
pub fn KeyLegend(kind: Keys, ui: Ui, #[prop(optional)] ranks: usize) -> impl IntoView {
    let m = move |x: Msg| format!(" {} · ", ui.msg(x));
    let last = move |x: Msg| format!(" {}", ui.msg(x));
    let body = match kind {
        Keys::Boxes => EitherOf3::A(view! {
            <kbd>"1"</kbd>"–"<kbd>"5"</kbd>{m(Msg::KeysChooseBox)}
            <kbd>"Tab"</kbd>{m(Msg::KeysNextQuestion)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
        Keys::Ranking => EitherOf3::B(view! {
            <kbd>"Tab"</kbd>{m(Msg::KeysToTranslation)}<kbd>"1"</kbd>"–"<kbd>{ranks.to_string()}</kbd>{m(Msg::KeysItsRank)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
        Keys::Slider => EitherOf3::C(view! {
            <kbd>"←"</kbd>" "<kbd>"→"</kbd>{m(Msg::KeysMoveLittle)}<kbd>"Page Up"</kbd>" "<kbd>"Page Down"</kbd>{m(Msg::KeysMoveMore)}
            <kbd>"Home"</kbd>" "<kbd>"End"</kbd>{m(Msg::KeysEnds)}<kbd>"Enter"</kbd>{last(Msg::KeysGoOn)}
        }),
    };
    view! { <p class="key-legend" id="key-legend" lang=ui.tag() dir=ui.dir()><span class="keys-title">{ui.msg(Msg::KeysTitle)}" "</span>{body}</p> }
}

/// The texts of an item, each with its label: DA (the reference or the source, then the
/// candidate; fluency the candidate alone) and word order (the first sentence, then the second).
pub fn item_texts(i: &WorkState, item: &ItemView, ui: Ui) -> impl IntoView {
    let w = &i.screen.wording;
    let lang = Some(i.screen.lang.clone());
    let context_kind = i.kind().map(Context::of);
    if context_kind == Some(Context::SecondSentence) {
        return Either::Left(view! {
            <div class="texts" lang=ui.tag() dir=ui.dir()>
                {labelled_text(ui.msg(Msg::FirstSentence).into(), "candidate", "candidate", lang.clone(), i.target_dir.clone(), item.candidate.clone())}
                {labelled_text(ui.msg(Msg::SecondSentence).into(), "context", "context reference", lang, i.target_dir.clone(), item.context.clone().unwrap_or_default())}
            </div>
        });
    }
    let context = item.context.clone().map(|text| {
        // Source-based DA and the error-span tasks (a practice item's feedback) show the source.
        if context_kind == Some(Context::Source) {
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

/// The way on at the foot of an item: why Next is not ready yet (said politely to screen
/// readers), anything before Next (word order's Skip), and Next itself. The one widget of the
/// DA, word-order and error-span screens.
#[component]
pub fn NextActions(
    ui: Ui,
    /// Why Next cannot be pressed yet (empty: it can).
    #[prop(into)]
    why: Signal<String>,
    /// Next is disabled (nothing to send yet, or an answer on its way).
    #[prop(into)]
    disabled: Signal<bool>,
    /// Next's label (the campaign's wording).
    #[prop(into)]
    label: String,
    on_next: Callback<()>,
    /// What stands before Next (a Skip button).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    view! {
        <div class="actions">
            <p class="next-why" id="next-why" aria-live="polite" lang=ui.tag() dir=ui.dir()>{move || why.get()}</p>
            {children.map(|c| c())}
            <button type="button" class="primary" id="next" aria-describedby="next-why" disabled=move || disabled.get() on:click=move |_| on_next.run(())>
                {label}
            </button>
        </div>
    }
}
