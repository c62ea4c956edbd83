//! The designer's calculator: what the design implies (estimated in the browser, then counted
//! on the HITs as built), the server's check with the HIT builder's objections, degraded items
//! to look at, and the dry run.

use leptos::either::Either;

use crate::auth::error_text;
use crate::campaign::api::DryRunDesign;
use super::super::fields::check_field;
use crate::campaign::{CampaignDraft, CampaignSettings, DegradedSample, DegradedText, DesignCheck, Implications};
use leptos::prelude::*;

/// The server's check of the design as it stands.
pub(super) type Check = Resource<Result<DesignCheck, ServerFnError>, crate::resource::JsonCodec>;

/// The line of figures that stays in sight at the bottom of a phone's screen.
pub(super) fn design_bar(shown: impl Fn() -> Implications + Copy + Send + Sync + 'static) -> impl IntoView {
    view! {
                // On a phone the summary comes after the form: this line stays in sight at the
                // bottom of the screen meanwhile (hidden from screen readers, which have the
                // summary itself).
                <p class="design-bar" aria-hidden="true">
                    {move || {
                        let i = shown();
                        format!("{} HITs · {} assignments · {:.2} · {:.0} min per HIT", i.hits, i.assignments, i.cost, i.minutes_per_hit)
                    }}
                </p>
    }
}

/// What the design implies, and the server's check of it.
pub(super) fn implications(
    built: RwSignal<Option<Implications>>,
    shown: impl Fn() -> Implications + Copy + Send + Sync + 'static,
    check: Check,
    settings: RwSignal<CampaignSettings>,
    dry_run: DryRunAction,
) -> impl IntoView {
    view! {
                <h2 id="implications-heading">"What this design implies"</h2>
                <p class="hint" id="imp-basis">{move || if built.with(Option::is_some) { "Counted on the HITs as built." } else { "Estimated until the design is checked." }}</p>
                <dl class="implications" id="implications">
                    {move || {
                        let i = shown();
                        view! {
                            <dt>"HITs"</dt><dd id="imp-hits">{i.hits}</dd>
                            <dt>"System items per HIT"</dt><dd>{i.system_items_per_hit}</dd>
                            <dt>"Judgments per system (all copies)"</dt><dd id="imp-per-system">{format!("{:.0}", i.judgments_per_system)}</dd>
                            <dt>"Assignments (HITs × k)"</dt><dd id="imp-assignments">{i.assignments}</dd>
                            <dt>"Distinct workers needed at least"</dt><dd id="imp-workers">{i.workers_needed}</dd>
                            <dt>"Cost"</dt><dd id="imp-cost">{format!("{:.2}", i.cost)}</dd>
                            <dt>"Expected time per HIT"</dt><dd id="imp-minutes">{format!("{:.0} min", i.minutes_per_hit)}</dd>
                            <dt>"Total work"</dt><dd id="imp-hours">{format!("{:.1} person-hours", i.total_hours)}</dd>
                        }
                    }}
                </dl>
                <div aria-live="polite">
                    <Transition fallback=|| view! { <p>"Checking the design…"</p> }>
                        {move || Suspend::new(async move {
                            match check.await {
                                Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                                Ok(c) => Either::Right(view! { <CheckView check=c settings dry_run/> }),
                            }
                        })}
                    </Transition>
                </div>
    }
}

/// Degraded items of the checked design, then the dry run.
pub(super) fn preview_and_dry_run(check: Check, draft: Memo<CampaignDraft>, dry_run: DryRunAction) -> impl IntoView {
    view! {
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    check.await.ok().map(|c| view! { <DegradedPreview samples=c.samples/> })
                })}
            </Transition>
            <DryRun draft run=dry_run/>
    }
}

/// The dry run: the design simulated with a crowd of a chosen mix before launch, and what it
/// would buy (interval widths, pairs told apart, workers removed by quality control).
/// The dry run's action, shared by its section and the designer's check panel.
pub(super) type DryRunAction = ServerAction<DryRunDesign>;

#[component]
fn DryRun(draft: Memo<CampaignDraft>, run: DryRunAction) -> impl IntoView {
    use assay_core::report::{DryRunCrowd, DryRunInterval};
    let crowd = RwSignal::new(DryRunCrowd::default());
    let field = move |label: &'static str, id: &'static str, get: fn(&DryRunCrowd) -> f64, set: fn(&mut DryRunCrowd, f64), step: &'static str| {
        view! {
            <label>
                {label}
                <input type="number" id=id min="0" step=step prop:value=move || crowd.with(get).to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).trim().parse::<f64>() {
                            crowd.update(|c| set(c, v.max(0.0)));
                        }
                    }/>
            </label>
        }
    };
    view! {
        <h2 id="dry-run-heading">"Dry run: what this design would buy"</h2>
        <p class="hint">
            "Simulates the campaign several times with a crowd of this mix and systems this far apart, and analyses each run as the results page would."
        </p>
        <div class="row" role="group" aria-labelledby="dry-run-heading">
            {field("Careful workers (%)", "dry-careful", |c| c.careful, |c, v| c.careful = v, "1")}
            {field("Noisy workers (%)", "dry-noisy", |c| c.noisy, |c, v| c.noisy = v, "1")}
            {field("Careless workers (%)", "dry-careless", |c| c.careless, |c, v| c.careless = v, "1")}
            {field("Spread of the systems (points)", "dry-spread", |c| c.spread, |c, v| c.spread = v, "1")}
            {field("Distinct workers (0: one per assignment)", "dry-workers", |c| c.workers as f64, |c, v| c.workers = v as usize, "1")}
            {field("α", "dry-alpha", |c| c.alpha, |c, v| c.alpha = v, "0.01")}
        </div>
        <p class="row">
            <button id="dry-run" on:click=move |_| { run.dispatch(DryRunDesign { draft: draft.get_untracked(), crowd: crowd.get_untracked() }); }
                disabled=move || run.pending().get()>
                {move || if run.pending().get() { "Simulating…" } else { "Dry run" }}
            </button>
        </p>
        <div aria-live="polite" id="dry-run-result">
            {move || run.value().get().map(|r| match r {
                Err(e) => Either::Left(view! { <p class="error" role="alert" id="dry-run-error">{error_text(&e)}</p> }),
                Ok(r) => {
                    // What the intervals are of: z scores, or a pairwise design's ratings.
                    let (interval, told_apart, digits) = match r.interval {
                        DryRunInterval::Z => ("Width of the z interval", "System pairs told apart at α", 3),
                        DryRunInterval::Rating => ("Width of the rating's interval (Elo points)", "System pairs whose rating intervals do not overlap", 0),
                    };
                    Either::Right(view! {
                    <p class="notice" id="dry-run-summary">{format!(
                        "{} simulated runs of {} HITs ({} judgments each), in {:.1} s.",
                        r.runs, r.hits, r.judgments, r.seconds
                    )}</p>
                    <dl class="implications" id="dry-run-figures">
                        <dt>{format!("Mean over systems: {}", interval.to_lowercase())}</dt>
                        <dd id="dry-width">{format!("{:.*} ({:.0}% confidence)", digits, r.mean_ci_width, r.confidence * 100.0)}</dd>
                        <dt>{told_apart}</dt>
                        <dd id="dry-separated">{format!("{:.0}%", r.pairs_separated * 100.0)}</dd>
                        <dt>"… of them in the true order"</dt>
                        <dd>{format!("{:.0}%", r.separated_in_true_order * 100.0)}</dd>
                        <dt>"Workers removed by quality control"</dt>
                        <dd id="dry-removed">{format!("{:.1} of {:.1}", r.workers_removed, r.workers)}</dd>
                        <dt>"Careless workers removed / kept"</dt>
                        <dd id="dry-careless-result">{format!("{:.1} / {:.1}", r.careless_removed, r.careless_kept)}</dd>
                    </dl>
                    <table class="data" id="dry-run-systems">
                        <caption>"Per system, best first"</caption>
                        <thead><tr><th scope="col">"True quality"</th><th scope="col">{interval}</th></tr></thead>
                        <tbody>
                            {r.systems.into_iter().map(|(q, w)| view! {
                                <tr><td data-label="True quality">{format!("{q:.1}")}</td><td data-label=interval>{format!("{w:.*}", digits)}</td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    {r.adaptive.map(|a| view! { <crate::campaign::adaptive_pages::AdaptiveDryRunView report=a currency=draft.with_untracked(|d| d.settings.payment_currency.clone())/> })}
                })},
            })}
        </div>
    }
}


/// The server's check beside the design: whether it builds, what its HITs give the reliability
/// test (with the "I know" a thin design needs before launch), and the dry run's exclusions.
#[component]
fn CheckView(check: DesignCheck, settings: RwSignal<CampaignSettings>, dry_run: DryRunAction) -> impl IntoView {
    let problems = check.problems;
    let needs_i_know = check.needs_i_know;
    if problems.is_empty() {
        let evidence = check.evidence.clone();
        let thin = check.thin_evidence.clone();
        Either::Left(view! {
            <p class="notice" id="design-ok">{format!("The design builds: {} HITs.", check.implications.hits)}</p>
            <dl class="implications" id="design-evidence">
                {evidence.map(|e| view! {
                    <dt>"Reliability pairs per worker's HIT"</dt>
                    <dd id="evidence-pairs">{
                        if e.fewest == e.most { format!("{} (the test needs {})", e.fewest, e.min_pairs) } else { format!("{} to {} (the test needs {})", e.fewest, e.most, e.min_pairs) }
                    }</dd>
                    <dt>"HITs whose worker cannot be tested on that HIT alone"</dt>
                    <dd id="evidence-thin">{format!("{} of {}", e.thin_hits, e.hits)}</dd>
                })}
                {move || dry_run.value().get().and_then(Result::ok).map(|r| view! {
                    <dt>"Dry run: workers removed by quality control"</dt>
                    <dd id="check-dry-removed">{format!(
                        "{:.1} of {:.1} (careless: {:.1} removed, {:.1} kept)",
                        r.workers_removed, r.workers, r.careless_removed, r.careless_kept
                    )}</dd>
                })}
            </dl>
            {thin.map(|words| view! {
                <div class="warning" role="alert" id="thin-evidence-warning">
                    <p id="thin-evidence-words">{words}</p>
                    {needs_i_know.then(|| view! {
                    {check_field("I know: launch this design anyway", "accept-thin-evidence", settings, |s| s.accept_thin_evidence, |s, v| s.accept_thin_evidence = v)}
                    })}
                </div>
            })}
        })
    } else {
        Either::Right(view! {
            <div class="error" role="alert" id="design-problems">
                <p>"This design cannot be built:"</p>
                <ul>{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
            </div>
        })
    }
}

/// Degraded items to look at before launch: each original beside its damaged copy, and what
/// changed in the organizer's words.
#[component]
fn DegradedPreview(samples: Vec<DegradedSample>) -> impl IntoView {
    (!samples.is_empty()).then(|| view! {
        <h2>"Degraded items (preview)"</h2>
        <table class="data" id="degraded-preview">
            <thead><tr><th>"System"</th><th>"Original"</th><th>"Damaged copy"</th><th>"What changed"</th></tr></thead>
            <tbody>
                {samples.into_iter().map(|s| view! {
                    <tr>
                        <td data-label="System">{s.system}</td>
                        <td data-label="Original">{s.original}</td>
                        {match s.degraded {
                            DegradedText::Copy(t) => Either::Left(view! { <td class="degraded" data-label="Damaged copy">{t}</td> }),
                            DegradedText::Refused(e) => Either::Right(view! { <td class="error" data-label="Damaged copy">{e}</td> }),
                        }}
                        <td class="hint" data-label="What changed">{s.change}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    })
}

