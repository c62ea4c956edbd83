//! The adaptive design's screens (issue 39): its fields in the designer (off by default) and
//! its live panel on the campaign's status page.

use crate::auth::error_text;
use crate::campaign::CampaignSettings;
use crate::campaign::adaptive::AdaptiveView;
use crate::campaign::api::campaign_adaptive;
use crate::model::TaskKind;
use assay_core::protocol::{self, HitPlan};
use leptos::prelude::*;

/// The designer's number field (its `number_field`), handed in by the designer page:
/// this module importing the designer's page, which shows this module's parts, would make a
/// circle.
pub type NumberField = fn(&'static str, &'static str, RwSignal<CampaignSettings>, fn(&CampaignSettings) -> f64, fn(&mut CampaignSettings, f64), &'static str) -> AnyView;

/// The designer's adaptive option, for protocols whose HITs hold single scored outputs.
#[component]
pub fn AdaptiveFields(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>, number_field: NumberField) -> impl IntoView {
    let fits = move || protocol::for_task(task.get()).hit_plan() == HitPlan::Items;
    let on = move || settings.with(|s| s.adaptive.enabled);
    move || {
        fits().then(|| {
            view! {
                <fieldset class="row" id="adaptive">
                    <legend>"Adaptive allocation"</legend>
                    <label class="check">
                        <input type="checkbox" id="adaptive-enabled" aria-describedby="adaptive-enabled-help" prop:checked=on
                            on:change=move |ev| settings.update(|s| s.adaptive.enabled = event_target_checked(&ev))/>
                        "Spend the judgments where the ranking is still open, and stop when it is settled"
                    </label>
                    <p class="field-help" id="adaptive-enabled-help">
                        "The launch builds a warm-up share of the HITs; each later HIT is built when a worker asks for work, with the outputs of systems whose order is still open. The campaign stops handing out work when every pair of systems is decided at error rate α (however often it looks), or too close to matter, or when the budget is spent."
                    </p>
                    {move || on().then(|| view! {
                        {number_field("Budget (judgments; 0: the uniform design's)", "adaptive-budget", settings, |s| s.adaptive.budget as f64, |s, v| s.adaptive.budget = v as usize, "100")}
                        {number_field("Error rate α", "adaptive-alpha", settings, |s| s.adaptive.alpha, |s, v| s.adaptive.alpha = v, "0.01")}
                        {number_field("Smallest difference that matters (points)", "adaptive-delta", settings, |s| s.adaptive.delta, |s, v| s.adaptive.delta = v, "0.5")}
                        {number_field("Warm-up share of the budget", "adaptive-warm-up", settings, |s| s.adaptive.warm_up, |s, v| s.adaptive.warm_up = v, "0.05")}
                    })}
                </fieldset>
            }
        })
    }
}

/// The status page's panel of an adaptive campaign: pairs still open, judgments spent, the
/// expected remaining cost, and each pair's anytime-valid decision. Nothing for other campaigns.
#[component]
pub fn AdaptivePanel(campaign_id: Signal<i64>, tick: Signal<u64>) -> impl IntoView {
    let state = Resource::new(move || (campaign_id.get(), tick.get()), |(id, _)| campaign_adaptive(id));
    view! {
        <Transition fallback=|| ()>
            {move || state.get().map(|r| match r {
                Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                Ok(None) => ().into_any(),
                Ok(Some(v)) => panel(v).into_any(),
            })}
        </Transition>
    }
}

fn stop_words(v: &AdaptiveView) -> String {
    match v.stop.as_deref() {
        Some("Settled") => "Stopped: every pair of systems is decided or too close to matter.".to_string(),
        Some("Budget") => "Stopped: the budget is spent.".to_string(),
        Some(other) => format!("Stopped ({other})."),
        None => format!("Running: HITs are built as workers ask for work (about {} judgments more expected).", v.expected_remaining),
    }
}

fn panel(v: AdaptiveView) -> impl IntoView {
    let words = stop_words(&v);
    view! {
        <h2>"Adaptive allocation"</h2>
        <p id="adaptive-state">{words}</p>
        <dl class="implications" id="adaptive-figures">
            <dt>"Pairs still open"</dt><dd id="adaptive-open">{format!("{} of {}", v.pairs_open, v.pairs.len())}</dd>
            <dt>"Pairs decided / too close"</dt><dd>{format!("{} / {}", v.pairs_decided, v.pairs_too_close)}</dd>
            <dt>"Judgments spent / budget"</dt><dd id="adaptive-spent">{format!("{} / {}", v.judgments, v.budget)}</dd>
            <dt>"HITs built (judgments they hold)"</dt><dd>{format!("{} ({})", v.hits, v.committed)}</dd>
            <dt>"Expected remaining cost (judgments)"</dt><dd id="adaptive-remaining">{v.expected_remaining}</dd>
            <dt>"Error rate α / smallest difference"</dt><dd>{format!("{} / {} points", v.alpha, v.delta)}</dd>
            <dt>"Workers left out (quality control, as in the results)"</dt>
            <dd id="adaptive-left-out">{if v.left_out.is_empty() { "none".to_string() } else { v.left_out.join(", ") }}</dd>
        </dl>
        <AdaptiveDecisions view=v/>
    }
}

/// Each pair's anytime-valid decision (the live panel and the results page).
#[component]
pub fn AdaptiveDecisions(view: AdaptiveView) -> impl IntoView {
    view! {
        <div class="table-scroll">
            <table class="data" id="adaptive-pairs">
                <caption>{format!("Anytime-valid decisions (betting confidence sequences, α = {} over all pairs and all looks)", view.alpha)}</caption>
                <thead><tr><th scope="col">"Pair"</th><th scope="col">"Decision"</th><th scope="col">"Difference (points)"</th><th scope="col">"Segments"</th></tr></thead>
                <tbody>
                    {view.pairs.into_iter().map(|p| {
                        let decision = match (&p.better, p.verdict.as_str()) {
                            (Some(b), _) => format!("{b} better"),
                            (None, "too-close") => "too close to matter".to_string(),
                            _ => "open".to_string(),
                        };
                        view! {
                            <tr>
                                <td data-label="Pair">{format!("{} – {}", p.first, p.second)}</td>
                                <td data-label="Decision">{decision}</td>
                                <td data-label="Difference">{format!("[{:.1}, {:.1}]", p.low, p.high)}</td>
                                <td data-label="Segments">{p.observations}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The results page's part of an adaptive campaign: its anytime-valid decisions, beside the
/// usual fixed-sample analysis (always shown above it), saying which is which. Nothing for
/// other campaigns.
#[component]
pub fn AdaptiveResults(campaign_id: i64) -> impl IntoView {
    let state = Resource::new(move || campaign_id, campaign_adaptive);
    view! {
        <Transition fallback=|| ()>
            {move || state.get().map(|r| match r {
                Err(e) => view! { <p class="error" role="alert">{error_text(&e)}</p> }.into_any(),
                Ok(None) => ().into_any(),
                Ok(Some(v)) => {
                    let words = stop_words(&v);
                    let clusters = v.clusters.iter().map(|c| c.join(", ")).collect::<Vec<_>>().join(" > ");
                    view! {
                        <section class="adaptive-results" id="adaptive-results">
                            <h2>"Anytime-valid decisions (the adaptive design)"</h2>
                            <p class="hint" id="adaptive-which">
                                "Two analyses of the same judgments. The scores, clusters and tests above are the usual fixed-sample analysis: quality control, standardised scores and tests that are valid for one look at the final data. The table below is the adaptive design's own: one betting confidence sequence per pair of systems on the raw score differences of the same worker on the same segment (quality-control items left out, and the workers that quality control leaves out of the results above), valid however often it was looked at; it decided which HITs to build and when to stop. Where they differ, the fixed-sample analysis is the campaign's result; the anytime-valid one says what was known when the campaign stopped."
                            </p>
                            <p id="adaptive-results-state">{words}</p>
                            <p id="adaptive-clusters">{format!("Clusters from the decisions (best first): {clusters}")}</p>
                            <AdaptiveDecisions view=v/>
                        </section>
                    }.into_any()
                }
            })}
        </Transition>
    }
}

/// The dry run's two designs side by side (issue 39 item 5): what the uniform design (every HIT
/// done) and the adaptive one (stopped when settled or at its budget) cost and decide.
#[component]
pub fn AdaptiveDryRunView(report: assay_core::report::AdaptiveDryRun, currency: String) -> impl IntoView {
    let r = report;
    let row = |label: &'static str, f: fn(&assay_core::report::DesignCost) -> String| {
        view! { <tr><th scope="row">{label}</th><td data-label="Uniform">{f(&r.uniform)}</td><td data-label="Adaptive">{f(&r.adaptive)}</td></tr> }
    };
    let money = {
        let currency = currency.clone();
        move |c: &assay_core::report::DesignCost| format!("{:.2} {currency}", c.money)
    };
    view! {
        <div class="table-scroll">
            <table class="data" id="dry-run-adaptive">
                <caption>{format!("Uniform and adaptive design side by side ({} simulated runs each, {} pairs of systems; costs are medians, decisions means per run)", r.runs, r.pairs)}</caption>
                <thead><tr><th scope="col">""</th><th scope="col">"Uniform (every HIT)"</th><th scope="col">"Adaptive (stops when settled)"</th></tr></thead>
                <tbody>
                    {row("Judgments", |c| format!("{:.0}", c.judgments))}
                    {row("HIT assignments", |c| format!("{:.0}", c.assignments))}
                    <tr><th scope="row">"Money"</th><td data-label="Uniform">{money(&r.uniform)}</td><td data-label="Adaptive">{money(&r.adaptive)}</td></tr>
                    {row("Pairs decided", |c| format!("{:.1}", c.pairs_decided))}
                    {row("Pairs too close to matter", |c| format!("{:.1}", c.pairs_too_close))}
                    {row("Pairs still open", |c| format!("{:.1}", c.pairs_open))}
                    {row("Pairs decided the wrong way round", |c| format!("{:.2}", c.pairs_wrong))}
                </tbody>
            </table>
        </div>
    }
}
