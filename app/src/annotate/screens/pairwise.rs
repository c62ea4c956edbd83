//! The pairwise-preference screen. In the `pair` bundle only.
//!
//! The source (and the reference, as the campaign chooses) above two translations side by side
//! (stacked on a phone), then one choice of three: A, B or about the same, a radio group.
//! Keyboard: 1, 2, 3 choose; the arrow keys move the choice; Enter goes on. Tapping a choice
//! (or a translation) chooses it. Nothing on the screen tells a quality-control pair from a
//! real one: both show two texts of the same source, and no number but the keys.
//!
//! What is sent is the side chosen, as the score of [`super::AnswerValues`]: 1 for the left
//! translation (A), ½ for about the same, 0 for the right one (B). The server turns it into the
//! output preferred by the side the item was shown with (`annotate::server::validate_on`): the
//! browser never learns which output is which.

use super::super::{ItemView, Msg, WorkState};
use super::AnswerValues;
use super::widgets::Ui;
use leptos::ev;
use leptos::prelude::*;

/// The three choices, in the screen's order (keys 1, 2, 3), with the score sent for each.
const CHOICES: [(Msg, f64, &str); 3] = [(Msg::PairPickA, 1.0, "a"), (Msg::PairPickB, 0.0, "b"), (Msg::PairPickSame, 0.5, "same")];

#[component]
pub fn PairwiseItem(info: StoredValue<WorkState>, item: ItemView, busy: RwSignal<bool>, submit: Callback<AnswerValues>) -> impl IntoView {
    let i = info.get_value();
    let w = i.screen.wording.clone();
    let ui = Ui::of(info);
    let chosen = RwSignal::new(None::<usize>);
    let send = move || {
        if let Some(k) = chosen.get_untracked()
            && !busy.get_untracked()
        {
            submit.run((Some(CHOICES[k].1), None, false));
        }
    };
    let focus_choice = move |k: usize| {
        #[cfg(feature = "hydrate")]
        if let Ok(Some(el)) = leptos::prelude::document().query_selector(&format!("#pair-choice-{}", CHOICES[k].2)) {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = k;
    };
    let choose = move |k: usize| {
        chosen.set(Some(k));
        focus_choice(k);
    };
    let on_key = move |e: ev::KeyboardEvent| {
        let key = e.key();
        let now = chosen.get_untracked();
        let pick = match key.as_str() {
            "1" => Some(0),
            "2" => Some(1),
            "3" => Some(2),
            "ArrowRight" | "ArrowDown" => Some(now.map_or(0, |k| (k + 1) % 3)),
            "ArrowLeft" | "ArrowUp" => Some(now.map_or(2, |k| (k + 2) % 3)),
            _ => None,
        };
        if let Some(k) = pick {
            e.prevent_default();
            choose(k);
        } else if key == "Enter" {
            e.prevent_default();
            send();
        }
    };
    let target_lang = i.screen.lang.clone();
    let (source_lang, source_dir, target_dir) = (i.source_lang.clone(), i.source_dir.clone(), i.target_dir.clone());
    let (left, right) = (item.candidate.clone(), item.right.clone().unwrap_or_default());
    // Roving focus: the chosen radio (or the first) is the one Tab reaches.
    let tab_of = move |k: usize| if chosen.get().unwrap_or(0) == k { "0" } else { "-1" };
    view! {
        <div class="pairwise-screen" id="pair-screen" on:keydown=on_key>
            <p class="statement" id="statement">{w.statement.clone()}</p>
            <p class="text-label">{w.label_source.clone()}</p>
            <p class="context source" lang=source_lang dir=source_dir>{item.context.clone().unwrap_or_default()}</p>
            {item.reference.clone().map(|r| view! {
                <p class="text-label">{w.label_reference.clone()}</p>
                <p class="context reference" lang=target_lang.clone() dir=target_dir.clone()>{r}</p>
            })}
            <div class="pair-outputs">
                {[(left, Msg::PairTranslationA, 0usize, "pair-left"), (right, Msg::PairTranslationB, 1usize, "pair-right")]
                    .into_iter()
                    .map(|(text, label, k, id)| {
                        let label_id = format!("{id}-label");
                        let labelled_by = label_id.clone();
                        view! {
                            <section class="pair-output" id=id aria-labelledby=labelled_by
                                data-chosen=move || if chosen.get() == Some(k) { "true" } else { "false" }
                                on:click=move |_| choose(k)>
                                <p class="text-label" id=label_id lang=ui.tag() dir=ui.dir()>{ui.msg(label)}</p>
                                <p class="candidate" lang=target_lang.clone() dir=target_dir.clone()>{text}</p>
                            </section>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="pair-choices" role="radiogroup" aria-labelledby="statement" lang=ui.tag() dir=ui.dir()>
                {CHOICES
                    .iter()
                    .enumerate()
                    .map(|(k, &(msg, _, id))| {
                        view! {
                            <button
                                type="button"
                                class="pair-choice"
                                role="radio"
                                id=format!("pair-choice-{id}")
                                tabindex=move || tab_of(k)
                                aria-checked=move || if chosen.get() == Some(k) { "true" } else { "false" }
                                on:click=move |_| choose(k)
                            >
                                <kbd>{k + 1}</kbd>
                                " "
                                {ui.msg(msg)}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="actions">
                <p class="hint" id="pair-hint" aria-live="polite" lang=ui.tag() dir=ui.dir()>
                    {move || if chosen.get().is_none() { ui.msg(Msg::PairChoose) } else { String::new() }}
                </p>
                <button
                    type="button"
                    class="primary"
                    id="next"
                    aria-describedby="pair-hint"
                    disabled=move || chosen.get().is_none() || busy.get()
                    on:click=move |_| send()
                >
                    {w.next_label.clone()}
                </button>
            </div>
        </div>
    }
}
