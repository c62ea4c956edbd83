//! The contrastive ESA screen (in the `cesa` bundle only): the source pinned above, a switch of
//! buttons "Translation 1 … N" (a tab list: arrow keys move between them, each says whether
//! its translation is answered), and the chosen translation marked and scored with ESA's span
//! widget ([`super::spans::EsaItem`], the same marking, slider and Appraise's confirmation for a
//! low score without errors). "Next" under a translation keeps its answer and opens the next
//! unanswered one; once every translation of the screen has its answer, the whole screen is
//! sent at once (all or nothing, `submit_screen` with each output's spans and score).
//!
//! One translation is open at a time, at every width: the switch is the way between them on a
//! phone and on a desktop alike (side-by-side columns at desktop widths are not done yet).

use super::super::{ItemView, ScoredOutput, WorkState};
use super::spans::{EsaAnswer, EsaItem};
use super::widgets::Ui;
use assay_core::i18n::{Msg, fill};
use leptos::ev;
use leptos::prelude::*;

/// A contrastive screen: `items` are the outputs of one segment in the screen's order.
#[component]
pub fn ContrastiveScreen(info: StoredValue<WorkState>, items: Vec<ItemView>, busy: RwSignal<bool>, submit: Callback<Vec<ScoredOutput>>) -> impl IntoView {
    let i = info.get_value();
    let ui = Ui::of(info);
    let n = items.len();
    let items = StoredValue::new(items);
    let answers = RwSignal::new(vec![None::<EsaAnswer>; n]);
    let open = RwSignal::new(0usize);
    let kept = RwSignal::new(false);
    let source = items.with_value(|v| v.first().and_then(|it| it.context.clone()).unwrap_or_default());
    let label = move |k: usize| fill(&ui.msg(Msg::TranslationN), &[("n", &(k + 1).to_string())]);
    let focus_tab = move |k: usize| {
        #[cfg(feature = "hydrate")]
        if let Some(el) = leptos::prelude::document().get_element_by_id(&format!("cesa-tab-{k}")) {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = k;
    };
    // An output's answer kept; then the next unanswered one, or the screen sent.
    let keep = Callback::new(move |answer: EsaAnswer| {
        let k = open.get_untracked();
        answers.update(|a| a[k] = Some(answer));
        let all = answers.get_untracked();
        match (1..=n).map(|d| (k + d) % n).find(|&j| all[j].is_none()) {
            Some(next) => open.set(next),
            None => {
                kept.set(true);
                let positions: Vec<i64> = items.with_value(|v| v.iter().map(|it| it.position).collect());
                submit.run(
                    positions
                        .into_iter()
                        .zip(all)
                        .map(|(position, a)| {
                            let a = a.unwrap_or(EsaAnswer { score: None, spans: Vec::new(), document_score: None });
                            ScoredOutput { position, score: a.score.unwrap_or(0.0), spans: a.spans }
                        })
                        .collect(),
                );
            }
        }
    });
    let tab_key = move |k: usize, e: ev::KeyboardEvent| {
        let rtl = info.with_value(|i| i.target_dir == "rtl");
        let (next, prev) = if rtl { ("ArrowLeft", "ArrowRight") } else { ("ArrowRight", "ArrowLeft") };
        let to = match e.key().as_str() {
            x if x == next => Some((k + 1) % n),
            x if x == prev => Some((k + n - 1) % n),
            "Home" => Some(0),
            "End" => Some(n - 1),
            _ => None,
        };
        if let Some(to) = to {
            e.prevent_default();
            e.stop_propagation();
            open.set(to);
            focus_tab(to);
        }
    };
    let w = i.screen.wording.clone();
    view! {
        <div class="contrastive-screen" id="cesa-screen" data-outputs=n.to_string()>
            <div class="cesa-source text-block" role="group" aria-labelledby="cesa-source-label">
                <p class="text-label" id="cesa-source-label">{w.label_source.clone()}</p>
                <p class="context source" id="cesa-source" lang=i.source_lang.clone() dir=i.source_dir.clone()>{source}</p>
            </div>
            <div class="cesa-switch" role="tablist" id="cesa-switch" aria-label=ui.msg(Msg::ContrastiveSwitch) lang=ui.tag() dir=ui.dir()>
                {(0..n)
                    .map(|k| {
                        view! {
                            <button
                                type="button"
                                role="tab"
                                id=format!("cesa-tab-{k}")
                                class="cesa-tab"
                                class:answered=move || answers.with(|a| a[k].is_some())
                                aria-selected=move || if open.get() == k { "true" } else { "false" }
                                aria-controls="cesa-panel"
                                tabindex=move || if open.get() == k { "0" } else { "-1" }
                                on:click=move |_| open.set(k)
                                on:keydown=move |e| tab_key(k, e)
                            >
                                {label(k)}
                                <span class="cesa-done" aria-hidden="true">{move || if answers.with(|a| a[k].is_some()) { " ✓" } else { "" }}</span>
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="cesa-panel" role="tabpanel" id="cesa-panel" aria-labelledby=move || format!("cesa-tab-{}", open.get())>
                {move || {
                    let k = open.get();
                    // The output's widget, started from the spans kept for it (if any).
                    let mut item = items.with_value(|v| v[k].clone());
                    if let Some(a) = answers.with_untracked(|a| a[k].clone()) {
                        item.prefilled = a.spans;
                    }
                    // The source is pinned above: the widget shows the output alone.
                    view! { <EsaItem info item busy submit=keep/> }
                }}
            </div>
            <p class="visually-hidden" aria-live="polite" id="cesa-said" lang=ui.tag() dir=ui.dir()>
                {move || if kept.get() { String::new() } else { format!("{}: {}/{}", label(open.get()), answers.with(|a| a.iter().filter(|x| x.is_some()).count()), n) }}
            </p>
        </div>
    }
}
