//! The relative-ranking screen. In the `rank` bundle only.

use super::super::RankAnswer;
use super::super::{ItemView, Msg, WorkState};
use super::widgets::{KeyLegend, Keys, Ui};
use assay_core::i18n::fill;
use leptos::ev;
use leptos::prelude::*;

/// A relative-ranking screen (WMT 2012): for each of its segments (a block), the source (and
/// the reference, as the campaign says) and the outputs to rank, each with one button per rank.
/// Ties are allowed: any number of outputs may share a rank. Keyboard: Tab to an output, press
/// its rank (1 … N; focus moves on to the next output), Enter to go on.
#[component]
pub fn RankingScreen(info: StoredValue<WorkState>, items: Vec<ItemView>, busy: RwSignal<bool>, submit: Callback<Vec<RankAnswer>>) -> impl IntoView {
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
            class="ranking-screen"
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
                                                <p class="candidate" lang=target_lang.clone() dir=target_dir.clone()>{it.candidate.clone()}</p>
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
            <KeyLegend kind=Keys::Ranking ui ranks=n/>
        </div>
    }
}
