//! The DA screen (adequacy, fluency, source-based): the statement, the texts and one slider.
//! In the `da` bundle only.

use super::super::{ItemView, Msg, WorkState};
use super::AnswerValues;
use super::widgets::{EarlyValue, KeyLegend, Keys, NextActions, Slider, Ui, item_texts};
use leptos::ev;
use leptos::prelude::*;

#[component]
pub fn DaItem(info: StoredValue<WorkState>, item: ItemView, busy: RwSignal<bool>, submit: Callback<AnswerValues>) -> impl IntoView {
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
            class="da-screen"
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
            <NextActions ui why=Signal::derive(why) disabled=Signal::derive(move || value.get().is_none() || busy.get()) label=w.next_label.clone() on_next=Callback::new(move |()| send())/>
            <KeyLegend kind=Keys::Slider ui/>
        </div>
    }
}
