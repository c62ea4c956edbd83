//! The word-order screen: two questions, as five boxes or two sliders. In the `woj` bundle only.

use super::super::{ItemView, Msg, WOJ_VALUES, WorkState};
use super::AnswerValues;
use super::widgets::{KeyLegend, Keys, NextActions, Slider, Ui, item_texts};
use assay_core::i18n::fill;
use leptos::either::Either;
use leptos::ev;
use leptos::prelude::*;

/// Moves the keyboard focus to box `b` (0–4) of question `question`.
fn focus_box(question: &StoredValue<String>, b: usize) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let id = question.with_value(|q| format!("{q}-box-{}", b + 1));
        if let Some(el) = document().get_element_by_id(&id).and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (question, b);
}

/// One word-order question: five boxes labelled only at the ends, a radio group (one tab stop;
/// the arrow keys move within it).
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
    let group = StoredValue::new(id.clone());
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
                        let box_id = format!("{id}-box-{}", b + 1);
                        view! {
                            <button
                                type="button"
                                class="box"
                                role="radio"
                                id=box_id
                                data-box=b + 1
                                aria-label=name
                                aria-checked=move || if answer.get() == Some(b) { "true" } else { "false" }
                                // One tab stop per question (a radio group): the box chosen, else
                                // the first.
                                tabindex=move || if answer.get().unwrap_or(0) == b { "0" } else { "-1" }
                                on:click=move |_| answer.set(Some(b))
                                on:keydown=move |e: ev::KeyboardEvent| {
                                    // Arrows move within the question and choose, as in any radio
                                    // group (the boxes run left to right in every language).
                                    let to = match e.key().as_str() {
                                        "ArrowRight" | "ArrowDown" => Some((b + 1) % 5),
                                        "ArrowLeft" | "ArrowUp" => Some((b + 4) % 5),
                                        "Home" => Some(0),
                                        "End" => Some(4),
                                        _ => None,
                                    };
                                    if let Some(to) = to {
                                        e.prevent_default();
                                        answer.set(Some(to));
                                        focus_box(&group, to);
                                    }
                                }
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
pub fn WordOrderItem(
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
            <NextActions ui why=Signal::derive(why) disabled=Signal::derive(move || !ready() || busy.get()) label=w.next_label.clone() on_next=Callback::new(move |()| send())>
                {allow_skip.then(|| view! {
                    <button type="button" id="skip" lang=ui.tag() dir=ui.dir() disabled=move || busy.get() on:click=skip>{ui.msg(Msg::Skip)}</button>
                })}
            </NextActions>
            <KeyLegend kind=if sliders { Keys::Slider } else { Keys::Boxes } ui/>
        </div>
    }
}
