//! The results page (`/campaigns/:id/results`) and the worker review page (`/campaigns/:id/workers`).

use crate::auth::error_text;
use crate::results::api::{DecideWorker, campaign_results, campaign_workers, results_campaigns};
use crate::results::{AgreementReport, GroupAgreement, GroupView, PairFigures, ResultsOptions, ResultsView, WorkerRow, WorkersView};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

fn fixed(v: f64, digits: usize) -> String {
    if v.is_finite() { format!("{v:.digits$}") } else { "–".into() }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| fixed(v, digits))
}

fn ci(v: Option<(f64, f64)>, digits: usize) -> String {
    v.map_or("–".into(), |(a, b)| format!("[{}, {}]", fixed(a, digits), fixed(b, digits)))
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.0001 => "< 0.0001".into(),
        Some(p) => format!("{p:.4}"),
    }
}

fn campaign_id() -> impl Fn() -> i64 + Copy + Send + Sync + 'static {
    let params = use_params_map();
    move || params.read().get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0)
}

#[component]
pub fn ResultsPage() -> impl IntoView {
    let id = campaign_id();
    let exclude_ref = RwSignal::new(false);
    let exclude_bad_ref = RwSignal::new(false);
    let per_segment = RwSignal::new(false);
    let wilcoxon = RwSignal::new(false);
    let results = crate::resource::resource(
        move || (id(), exclude_ref.get(), exclude_bad_ref.get(), per_segment.get(), wilcoxon.get()),
        |(id, r, b, s, w)| campaign_results(id, r, b, s, w),
    );
    let checkbox = move |key: &'static str, label: &'static str, signal: RwSignal<bool>| {
        view! {
            <label class="check">
                <input type="checkbox" id=key name=key prop:checked=move || signal.get()
                    on:change=move |ev| signal.set(event_target_checked(&ev))/>
                " " {label}
            </label>
        }
    };
    view! {
        <section class="card results" id="results">
            <form class="results-settings" id="results-settings" on:submit=|ev| ev.prevent_default()>
                <fieldset>
                    <legend>"Settings (METHOD §5)"</legend>
                    {checkbox("exclude_ref", "Exclude references from z", exclude_ref)}
                    {checkbox("exclude_bad_ref", "Exclude bad references from z", exclude_bad_ref)}
                    {checkbox("per_segment", "Average per segment first", per_segment)}
                    <label>
                        "Reliability test that gates workers: "
                        <select id="reliability_test" name="reliability_test"
                            on:change=move |ev| wilcoxon.set(event_target_value(&ev) == "wilcoxon")>
                            <option value="t" selected=move || !wilcoxon.get()>"paired t-test"</option>
                            <option value="wilcoxon" selected=move || wilcoxon.get()>"Wilcoxon signed-rank"</option>
                        </select>
                    </label>
                </fieldset>
            </form>
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match results.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert" id="results-error">{error_text(&e)}</p> }),
                        Ok(r) => Either::Right(view! { <ResultsBody r=r campaign_id=id()/> }),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn ResultsBody(r: ResultsView, campaign_id: i64) -> impl IntoView {
    let empty = r.groups.is_empty();
    let excluded_workers = r.excluded.len();
    view! {
        <h1>"Results: " {r.campaign.clone()}</h1>
        <p class="hint">
            <a href=format!("/campaigns/{campaign_id}")>"Campaign status"</a> " · "
            <a href=format!("/campaigns/{campaign_id}/workers")>"Workers"</a>
        </p>
        <dl class="implications" id="results-counts">
            <dt>"Judgments"</dt><dd id="r-judgments">{r.judgments}</dd>
            <dt>"Workers (per task)"</dt><dd id="r-workers">{r.workers}</dd>
            <dt>"Workers excluded"</dt><dd id="r-excluded-workers">{excluded_workers}</dd>
            <dt>"Judgments of excluded workers"</dt><dd id="r-excluded-judgments">{r.judgments_excluded}</dd>
            <dt>"Judgments not standardised"</dt><dd>{r.judgments_unstandardised}</dd>
            <dt>"Judgments in the scores"</dt><dd id="r-scored">{r.judgments_scored}</dd>
        </dl>
        {empty.then(|| view! {
            <p class="empty" id="results-empty">"No scores yet: results appear once workers who pass quality control have finished HITs."</p>
        })}
        {r.groups.into_iter().map(|g| view! { <Group g/> }).collect_view()}
        <Agreement report=r.agreement/>
        <Exports campaign_id options=r.options files=r.export_files/>
        <h2>"Excluded workers"</h2>
        {if r.excluded.is_empty() {
            Either::Left(view! { <p id="excluded-none">"No worker was excluded."</p> })
        } else {
            Either::Right(view! {
                <table class="data" id="excluded">
                    <thead><tr><th>"Worker"</th><th>"Task"</th><th>"Why"</th></tr></thead>
                    <tbody>
                        {r.excluded.into_iter().map(|e| view! { <tr><td>{e.worker}</td><td>{e.task}</td><td>{e.reason}</td></tr> }).collect_view()}
                    </tbody>
                </table>
            })
        }}
    }
}

/// The agreement report: intra-annotator (repeats) and inter-annotator (shared items).
#[component]
fn Agreement(report: AgreementReport) -> impl IntoView {
    let row = |scope: &'static str, kind: &'static str, g: &GroupAgreement, f: &PairFigures| {
        let r_or_kappa = match (f.pearson_r, f.kappa) {
            (Some(r), _) => format!("r = {}", fixed(r, 3)),
            (None, Some(k)) => format!("κ = {}", fixed(k, 3)),
            _ => "–".into(),
        };
        view! {
            <tr class="agreement-row" data-scope=scope data-kind=kind data-task=g.task.clone()>
                <td>{scope}</td><td>{format!("{} · {}", g.task, g.lang_pair)}</td><td>{kind}</td>
                <td class="num">{f.pairs}</td><td class="num">{f.workers}</td><td class="num">{f.items}</td>
                <td class="num">{r_or_kappa}</td><td class="num">{opt(f.mean_abs_difference, 2)}</td>
                <td class="num">{opt(f.p_agree, 3)}</td>
            </tr>
        }
    };
    let rows = [("all workers", &report.all_workers), ("retained workers", &report.retained_workers)]
        .into_iter()
        .flat_map(|(scope, groups)| {
            groups.iter().flat_map(move |g| [row(scope, "intra", g, &g.intra), row(scope, "inter", g, &g.inter)])
        })
        .collect_view();
    view! {
        <section class="agreement" id="agreement">
            <h2>"Agreement"</h2>
            <p class="hint">
                "Intra-annotator: the same worker on the same system output (repeats). Inter-annotator: two workers on the "
                "same system output. DA: Pearson r and mean |difference|; word order: Cohen's κ (chance agreement from the data) "
                "and the share of agreeing pairs."
            </p>
            <table class="data" id="agreement-table">
                <thead><tr>
                    <th>"Workers"</th><th>"Task · pair"</th><th>"Pairs of"</th><th>"Pairs"</th><th>"Workers"</th><th>"Items"</th>
                    <th>"r / κ"</th><th>"Mean |difference|"</th><th>"Agreeing"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}

/// Download links for every export with the page's settings, raw and cleaned.
#[component]
fn Exports(campaign_id: i64, options: ResultsOptions, files: Vec<String>) -> impl IntoView {
    let settings = format!(
        "exclude_ref={}&exclude_bad_ref={}&per_segment={}&wilcoxon={}",
        options.exclude_ref, options.exclude_bad_ref, options.per_segment, options.wilcoxon
    );
    // Computed files do not depend on the filter (their statistics always leave excluded workers
    // out): their links name the file only.
    let link = move |file: &str, filter: &'static str| {
        let href = format!("/campaigns/{campaign_id}/export/{file}?{settings}&filter={filter}");
        let per_filter = file.starts_with("judgments.") || file.starts_with("appraise-") || file == "all.zip";
        let label = if per_filter { format!("{file} ({filter})") } else { file.to_string() };
        view! { <li><a class="export" href=href download=file.to_string() rel="external" data-file=file.to_string() data-filter=filter>{label}</a></li> }
    };
    let judgments = ["judgments.csv", "judgments.jsonl", "appraise-wmt22.csv", "appraise-wmt23.csv", "appraise-wmt24.csv", "all.zip"];
    view! {
        <section class="exports" id="exports">
            <h2>"Exports"</h2>
            <p class="hint">
                "Raw: every judgment with its worker's verdict. Cleaned: the judgments of excluded workers removed. "
                "Every export is described by manifest.json (campaign, settings, filter, excluded workers and why, seed, version); "
                "all.zip holds every file with it. Scripts can fetch the same files with an "
                <a href="/account/tokens">"API token"</a> "."
            </p>
            <h3>"Judgments"</h3>
            <ul class="export-list" id="export-judgments">
                {judgments.iter().flat_map(|f| [link(f, "raw"), link(f, "cleaned")]).collect_view()}
            </ul>
            <h3>"Computed files"</h3>
            <ul class="export-list" id="export-computed">
                {["analysis.json", "agreement.json", "manifest.json"].iter().map(|f| link(f, "raw")).collect_view()}
                {files.iter().map(|f| link(f, "raw")).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn Group(g: GroupView) -> impl IntoView {
    let conf = g.confidence.map_or("–".to_string(), |c| format!("{:.0}%", c * 100.0));
    view! {
        <section class="group" data-task=g.task.clone() data-lang-pair=g.lang_pair.clone()>
            <h2>{format!("{} · {}", crate::model::task_label(&g.task), g.lang_pair)}</h2>
            <table class="data scores" id="scores">
                <thead><tr>
                    <th>"Rank"</th><th>"System"</th><th>"z"</th><th>{format!("z {conf} CI")}</th>
                    <th>"Raw (0–100)"</th><th>{format!("Raw {conf} CI")}</th><th>"n"</th><th>"Segments"</th><th>"Wins"</th><th>"Cluster"</th>
                </tr></thead>
                <tbody>
                    {g.systems.iter().map(|s| {
                        let rank = if s.rank_best == s.rank_worst { s.rank_best.to_string() } else { format!("{}–{}", s.rank_best, s.rank_worst) };
                        view! {
                            <tr class="system-row" data-system=s.name.clone()>
                                <td>{rank}</td><td>{s.name.clone()}</td><td class="num">{fixed(s.z, 3)}</td><td class="num">{ci(s.z_ci, 3)}</td>
                                <td class="num">{fixed(s.raw, 1)}</td><td class="num">{ci(s.raw_ci, 1)}</td>
                                <td class="num">{s.n}</td><td class="num">{s.n_segments}</td><td class="num">{s.wins}</td><td class="num">{s.cluster}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <h3>"Mean z with bootstrap intervals"</h3>
            <div class="figure" id="z-plot" inner_html=g.z_plot_svg></div>
            <h3>"Pairwise significance"</h3>
            <div class="figure" id="heatmap" inner_html=g.heatmap_svg></div>
            <h3>"Clusters"</h3>
            <ol class="clusters" id="clusters">
                {g.clusters.into_iter().map(|c| view! {
                    <li>{format!("Ranks {}–{}: {}", c.start, c.end, c.systems.join(", "))}</li>
                }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
pub fn WorkersPage() -> impl IntoView {
    let id = campaign_id();
    let wilcoxon = RwSignal::new(false);
    let decide = ServerAction::<DecideWorker>::new();
    // Live campaign: the figures are recomputed every few seconds while the page is open (as on
    // the campaign's status page), and at once after a decision.
    let tick = RwSignal::new(0u64);
    Effect::new(move |_| {
        if let Ok(handle) = set_interval_with_handle(move || tick.update(|t| *t += 1), std::time::Duration::from_secs(5)) {
            on_cleanup(move || handle.clear());
        }
    });
    let workers = crate::resource::resource(
        move || (id(), wilcoxon.get(), tick.get(), decide.version().get()),
        |(id, w, _, _)| campaign_workers(id, w),
    );
    let selected = RwSignal::new(None::<String>);
    view! {
        <section class="card results" id="workers">
            <form class="results-settings" on:submit=|ev| ev.prevent_default()>
                <label>
                    "Reliability test: "
                    <select id="reliability_test" on:change=move |ev| wilcoxon.set(event_target_value(&ev) == "wilcoxon")>
                        <option value="t" selected=move || !wilcoxon.get()>"paired t-test"</option>
                        <option value="wilcoxon" selected=move || wilcoxon.get()>"Wilcoxon signed-rank"</option>
                    </select>
                </label>
            </form>
            <DecisionPanel campaign_id=id selected decide/>
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match workers.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert" id="workers-error">{error_text(&e)}</p> }),
                        Ok(w) => Either::Right(view! { <WorkersBody w=w campaign_id=id() selected/> }),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The organizer's decision about the chosen worker. Outside the polled table, so what the
/// organizer types survives the refreshes.
#[component]
fn DecisionPanel(
    campaign_id: impl Fn() -> i64 + Copy + Send + Sync + 'static,
    selected: RwSignal<Option<String>>,
    decide: ServerAction<DecideWorker>,
) -> impl IntoView {
    let action = RwSignal::new("approve".to_string());
    let reason = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    Effect::new(move |_| {
        if let Some(Ok(_)) = decide.value().get() {
            reason.set(String::new());
            amount.set(String::new());
        }
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(worker) = selected.get_untracked() else { return };
        let decision = action.get_untracked();
        let amount = if decision == "bonus" { amount.get_untracked() } else { String::new() };
        decide.dispatch(DecideWorker { campaign_id: campaign_id(), worker, decision, reason: reason.get_untracked(), amount });
    };
    view! {
        <form class="decision card" id="decision-form" on:submit=submit>
            <h2>"Decision"</h2>
            {move || match selected.get() {
                None => Either::Left(view! { <p class="hint" id="decision-none">"Choose a worker with “Decide…” in the table."</p> }),
                Some(w) => Either::Right(view! { <p>"Worker: " <strong id="decision-worker">{w}</strong></p> }),
            }}
            <div class="row">
                <label>
                    "Decision"
                    <select id="decision-action" on:change=move |ev| action.set(event_target_value(&ev))>
                        <option value="approve" selected=move || action.get() == "approve">"approve"</option>
                        <option value="reject" selected=move || action.get() == "reject">"reject (give a reason)"</option>
                        <option value="block" selected=move || action.get() == "block">"block: no more HITs in any campaign"</option>
                        <option value="unblock" selected=move || action.get() == "unblock">"unblock"</option>
                        <option value="bonus" selected=move || action.get() == "bonus">"grant a bonus"</option>
                    </select>
                </label>
                <label>
                    "Reason (the worker reads it on the platform)"
                    <input type="text" id="decision-reason" maxlength="2000" prop:value=move || reason.get()
                        on:input=move |ev| reason.set(event_target_value(&ev))/>
                </label>
                {move || (action.get() == "bonus").then(|| view! {
                    <label>
                        "Bonus amount"
                        <input type="number" id="decision-amount" min="0.01" step="0.01" prop:value=move || amount.get()
                            on:input=move |ev| amount.set(event_target_value(&ev))/>
                    </label>
                })}
            </div>
            <button type="submit" class="primary" id="decide" disabled=move || selected.get().is_none() || decide.pending().get()>
                "Record the decision"
            </button>
            {move || match decide.value().get() {
                Some(Err(e)) => Some(Either::Left(view! { <p class="error" role="alert" id="decision-error">{error_text(&e)}</p> })),
                Some(Ok(done)) => Some(Either::Right(view! { <p class="notice" id="decision-done">{done}</p> })),
                None => None,
            }}
        </form>
    }
}

#[component]
fn WorkersBody(w: WorkersView, campaign_id: i64, selected: RwSignal<Option<String>>) -> impl IntoView {
    let empty = w.workers.is_empty();
    view! {
        <h1>"Workers: " {w.campaign.clone()}</h1>
        <p class="hint">
            <A href=format!("/campaigns/{campaign_id}/results")>"Results"</A> " · "
            <a id="decisions-csv" href=format!("/campaigns/{campaign_id}/decisions.csv") download="" rel="external">"Decisions (CSV)"</a>
        </p>
        <p id="gate-setting">"Quality gate: " {w.gate.clone()} " · Bonuses in " {w.currency.clone()}</p>
        {empty.then(|| view! { <p class="empty" id="workers-empty">"No worker has judged anything yet."</p> })}
        <table class="data workers" id="worker-table">
            <thead><tr>
                <th>"Worker"</th><th>"Task"</th><th>"HITs"</th><th>"s / HIT"</th><th>"Reliability (test, pairs)"</th>
                <th>"p"</th><th>"Verdict"</th><th>"At submission"</th><th>"Repeats (pairs, p)"</th><th>"Mean real"</th><th>"Mean bad"</th><th>"Mean ref"</th>
                <th>"Flags"</th><th>"Original vs bad"</th><th>"Decisions"</th><th></th>
            </tr></thead>
            <tbody>{w.workers.into_iter().map(|r| view! { <Worker r selected/> }).collect_view()}</tbody>
        </table>
    }
}

#[component]
fn Worker(r: WorkerRow, selected: RwSignal<Option<String>>) -> impl IntoView {
    let class = if r.excluded { "worker-row excluded" } else { "worker-row" };
    let (worker_attr, verdict_attr) = (r.worker.clone(), r.verdict.clone());
    let standing_attr = r.standing.clone().unwrap_or_default();
    let gate_attr = r.gate.as_ref().map(|g| g.verdict.clone()).unwrap_or_default();
    let at_submission = r.gate.as_ref().map(|g| {
        let code = if g.code_given { "code given" } else { "code held" };
        format!(
            "{} (p {}, {} pairs, {} HIT(s)) · {code} · {} · {:.1} ms",
            g.verdict,
            p_text(g.p_value),
            g.n_pairs,
            g.hits,
            crate::results::utc_time(g.computed_at),
            g.compute_us as f64 / 1000.0
        )
    });
    let who = r.worker.clone();
    let mut status = Vec::new();
    if let Some(s) = &r.standing {
        status.push(if s == "approve" { "approved".to_string() } else { "rejected".to_string() });
    }
    if r.blocked {
        status.push("blocked".into());
    }
    if let Some(b) = &r.bonus_total {
        status.push(format!("bonus {b}"));
    }
    if r.held_hits > 0 {
        status.push(format!("{} completion code(s) held", r.held_hits));
    }
    view! {
        <tr class=class data-worker=worker_attr data-verdict=verdict_attr data-standing=standing_attr data-gate=gate_attr
            data-blocked=r.blocked.to_string()>
            <td>{r.worker}</td><td>{r.task}</td><td class="num">{r.hits}</td><td class="num">{opt(r.mean_hit_seconds, 0)}</td>
            <td>{format!("{}, {}", r.test, r.n_pairs)}</td><td class="num">{p_text(r.p_value)}</td>
            <td class="verdict">{r.verdict}{r.excluded.then_some(" (excluded)")}</td>
            <td class="at-submission">{at_submission.unwrap_or_else(|| "–".into())}</td>
            <td>{format!("{}, {} ({})", r.consistency_pairs, p_text(r.consistency_p), r.consistency_verdict)}</td>
            <td class="num">{opt(r.mean_original, 1)}</td><td class="num">{opt(r.mean_bad_ref, 1)}</td><td class="num">{opt(r.mean_ref, 1)}</td>
            <td>{r.flags.join("; ")}</td>
            <td><div class="mini" inner_html=r.scatter_svg></div></td>
            <td class="decisions">
                <strong class="standing">{status.join(" · ")}</strong>
                <ul class="decision-history">
                    {r.decisions.into_iter().map(|d| {
                        let what = match &d.bonus { Some(b) => format!("{} {b}", d.decision), None => d.decision.clone() };
                        let reason = if d.reason.is_empty() { String::new() } else { format!(": {}", d.reason) };
                        view! {
                            <li data-decision=d.decision.clone()>
                                {what} {reason} <span class="hint">{format!(" — {}, {}", d.decided_by, crate::results::utc_time(d.decided_at))}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </td>
            <td><button type="button" class="review-worker" on:click=move |_| selected.set(Some(who.clone()))>"Decide…"</button></td>
        </tr>
    }
}

/// The campaigns a researcher can read results of (`/results`).
#[component]
pub fn ResultsIndex() -> impl IntoView {
    let list = crate::resource::resource(|| (), |_| results_campaigns());
    view! {
        <section class="card results" id="results-index">
            <h1>"Results"</h1>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match list.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(l) if l.is_empty() => Either::Right(Either::Left(view! {
                            <p class="empty" id="empty-state">"No campaign has been launched yet."</p>
                        })),
                        Ok(l) => Either::Right(Either::Right(view! {
                            <table class="data" id="results-campaigns">
                                <thead><tr><th>"Campaign"</th><th>"Task"</th><th>"Status"</th><th>"Judgments"</th></tr></thead>
                                <tbody>
                                    {l.into_iter().map(|c| view! {
                                        <tr>
                                            <td><A href=format!("/campaigns/{}/results", c.id)>{c.name}</A></td>
                                            <td>{c.task}</td><td>{c.status}</td><td class="num">{c.judgments}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        })),
                    }
                })}
            </Transition>
        </section>
    }
}
