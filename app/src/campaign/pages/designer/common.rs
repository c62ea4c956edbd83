//! The designer's fields every protocol has: the campaign's name, task, test set, reference and
//! systems; how much is wanted and by how many workers; payment, time limits and the seed.

use assay_core::designer::JudgmentTime;
use assay_core::protocol::task_label;
use leptos::either::Either;

use super::super::fields::{number_field, text_field};
use crate::campaign::{CampaignSettings, DegradationPolicy, TestSetInfo, WantedPer};
use crate::model::TaskKind;
use leptos::prelude::*;

/// The test sets the designer offers.
pub(super) type TestSets = Resource<Result<Vec<TestSetInfo>, ServerFnError>, crate::resource::JsonCodec>;

/// The campaign's name, task, test set, reference and systems. Choosing another task or test
/// set resets the wording (`reset_wording`) and, for a test set, the systems and reference.
#[allow(clippy::too_many_arguments)]
pub(super) fn identity_fields(
    name: RwSignal<String>,
    task: RwSignal<TaskKind>,
    sets: TestSets,
    test_set: RwSignal<i64>,
    reference: RwSignal<String>,
    systems: RwSignal<Vec<i64>>,
    benchmarks: RwSignal<Vec<i64>>,
    chosen: impl Fn() -> Option<TestSetInfo> + Copy + Send + Sync + 'static,
    reset_wording: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
                <label>"Campaign name" <input type="text" id="campaign-name" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
                <div class="row">
                    <label>
                        "Task"
                        <select id="task" on:change=move |ev| if let Some(kind) = TaskKind::parse(&event_target_value(&ev)) { task.set(kind); reset_wording(); }>
                            {TaskKind::ALL.into_iter().map(|t| t.as_str()).map(|t| view! {
                                <option value=t selected=move || task.get().as_str() == t>{task_label(t)}</option>
                            }).collect_view()}
                        </select>
                    </label>
                    <Transition fallback=|| view! { <p>"Loading test sets…"</p> }>
                        {move || Suspend::new(async move {
                            let list = sets.await.unwrap_or_default();
                            let empty = list.is_empty();
                            view! {
                                <label>
                                    "Test set (fixes the language pair)"
                                    <select id="test-set" on:change=move |ev| {
                                        test_set.set(event_target_value(&ev).parse().unwrap_or(0));
                                        systems.set(Vec::new());
                                        benchmarks.set(Vec::new());
                                        reference.set(String::new());
                                        reset_wording();
                                    }>
                                        <option value="0">"— choose —"</option>
                                        {list.into_iter().map(|t| view! {
                                            <option value=t.id.to_string() selected=move || test_set.get() == t.id>
                                                {format!("{} {}-{} ({} segments)", t.name, t.source_lang, t.target_lang, t.segments)}
                                            </option>
                                        }).collect_view()}
                                    </select>
                                </label>
                                {empty.then(|| view! {
                                    <p class="hint">"No test set yet: " <a href="/import" rel="external">"import one"</a> " first."</p>
                                })}
                            }
                        })}
                    </Transition>
                    <div class="field">
                    <label>
                        "Reference shown and degraded"
                        <select id="reference" aria-describedby="reference-help" on:change=move |ev| reference.set(event_target_value(&ev))>
                            <option value="" selected=move || reference.get().is_empty()>"first by name"</option>
                            {move || chosen().map(|t| t.references.into_iter().map(|r| {
                                let this = r.clone();
                                view! { <option value=r.clone() selected=move || reference.get() == this>{r.clone()}</option> }
                            }).collect_view())}
                        </select>
                    </label>
                    <p class="field-help" id="reference-help">{move || fields().reference_help}</p>
                    </div>
                </div>
                <fieldset id="systems">
                    <legend>"Systems (tick benchmark for a fixed system that appears in every year's campaign)"</legend>
                    {move || match chosen() {
                        None => Either::Left(view! { <p class="hint">"Choose a test set to see its systems."</p> }),
                        Some(t) => Either::Right(t.systems.into_iter().map(|s| {
                            let id = s.id;
                            view! {
                                <div class="row system-choice">
                                    <label class="inline">
                                        <input type="checkbox" name="system" value=id.to_string()
                                            prop:checked=move || systems.with(|v| v.contains(&id))
                                            on:change=move |ev| {
                                                let on = event_target_checked(&ev);
                                                systems.update(|v| { v.retain(|x| *x != id); if on { v.push(id); } });
                                                if !on { benchmarks.update(|v| v.retain(|x| *x != id)); }
                                            }/>
                                        {format!("{} ({} outputs)", s.name, s.outputs)}
                                    </label>
                                    <label class="inline hint">
                                        <input type="checkbox" name="benchmark" value=id.to_string()
                                            prop:checked=move || benchmarks.with(|v| v.contains(&id))
                                            on:change=move |ev| {
                                                let on = event_target_checked(&ev);
                                                benchmarks.update(|v| { v.retain(|x| *x != id); if on { v.push(id); } });
                                                if on { systems.update(|v| if !v.contains(&id) { v.push(id) }); }
                                            }/>
                                        "benchmark"
                                    </label>
                                </div>
                            }
                        }).collect_view()),
                    }}
                </fieldset>
    }
}

/// How many judgments are wanted, counted how, by how many workers per HIT (and an adaptive
/// design's fields), and how damaged copies are made.
pub(super) fn volume_fields(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
                <div class="row">
                    {number_field("Judgments wanted", "judgments-wanted", settings, |s| s.judgments_wanted as f64, |s, v| s.judgments_wanted = v as usize, "1")}
                    <div class="field">
                    <label>
                        "counted"
                        <select id="wanted-per" aria-describedby="wanted-per-help" on:change=move |ev| settings.update(|s| s.wanted_per = if event_target_value(&ev) == "segment" { WantedPer::Segment } else { WantedPer::System })>
                            <option value="system" selected=move || settings.with(|s| s.wanted_per == WantedPer::System)>"per system"</option>
                            <option value="segment" selected=move || settings.with(|s| s.wanted_per == WantedPer::Segment)>"per system output"</option>
                        </select>
                    </label>
                    <p class="field-help" id="wanted-per-help">"Per system: spread over its outputs. Per system output: every output of every system gets that many."</p>
                    </div>
                    {number_field("Workers per HIT (k)", "redundancy", settings, |s| s.redundancy as f64, |s, v| s.redundancy = v as usize, "1")}
                    <crate::campaign::adaptive_pages::AdaptiveFields task settings number_field=|l, i, s, g, set, step| number_field(l, i, s, g, set, step).into_any()/>
                    // Fluency damages text its own way, word order reorders references.
                    {move || fields().degradation_policy.then(|| view! {
                    <div class="field">
                    <label>
                        "How damaged copies are made"
                        <select id="degradation" aria-describedby="degradation-help" on:change=move |ev| settings.update(|s| s.degradation = if event_target_value(&ev) == "replace-phrase" { DegradationPolicy::ReplacePhrase } else { DegradationPolicy::Delete })>
                            <option value="delete" selected=move || settings.with(|s| s.degradation == DegradationPolicy::Delete)>"delete a run of words"</option>
                            <option value="replace-phrase" selected=move || settings.with(|s| s.degradation == DegradationPolicy::ReplacePhrase)>"replace it with a phrase of another reference"</option>
                        </select>
                    </label>
                        <p class="field-help" id="degradation-help">"Deleting a run of words damages meaning and fluency; a phrase of another reference damages meaning while the text still reads well."</p>
                    </div>
                    })}
                </div>
    }
}

/// Payment, the time limits, the expected time per judgment, and the random seed.
pub(super) fn payment_fields(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>, seed: RwSignal<i64>) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
                <div class="row">
                    {number_field("Payment per HIT", "payment", settings, |s| s.payment_per_hit, |s, v| s.payment_per_hit = v, "0.01")}
                    {text_field("Currency (ISO 4217)", "currency", settings, |s| s.payment_currency.clone(), |s, v| s.payment_currency = v.trim().to_uppercase())}
                    {number_field("Flag HITs faster than (s)", "time-floor", settings, |s| s.time_floor_seconds as f64, |s, v| s.time_floor_seconds = v as i64, "1")}
                    {number_field("Idle timeout (min)", "timeout", settings, |s| s.assignment_timeout_minutes as f64, |s, v| s.assignment_timeout_minutes = v as i64, "1")}
                    {number_field("Active time: idle after (s) without input", "idle-gap", settings, |s| s.idle_gap_seconds as f64, |s, v| s.idle_gap_seconds = v as i64, "1")}
                    // The expected time per judgment: fluency has its own; documents go by words.
                    {move || (fields().judgment_time == Some(JudgmentTime::Fluency)).then(|| view! {
                        {number_field("Seconds per fluency judgment", "sec-fluency", settings, |s| s.seconds_per_fluency_judgment, |s, v| s.seconds_per_fluency_judgment = v, "1")}
                    })}
                    {move || (fields().judgment_time == Some(JudgmentTime::Judgment)).then(|| view! {
                        {number_field("Seconds per judgment", "sec-adequacy", settings, |s| s.seconds_per_adequacy_judgment, |s, v| s.seconds_per_adequacy_judgment = v, "1")}
                    })}
                    <div class="field">
                    <label>
                        "Random seed"
                        <input type="number" id="seed" aria-describedby="seed-help" prop:value=move || seed.get().to_string()
                            on:input=move |ev| if let Ok(v) = event_target_value(&ev).trim().parse() { seed.set(v) }/>
                    </label>
                    <p class="field-help" id="seed-help">"The same seed builds the same HITs from the same design, so a campaign can be rebuilt exactly."</p>
                    </div>
                </div>
    }
}
