//! The results page (`/campaigns/:id/results`) and the worker review page (`/campaigns/:id/workers`).

use crate::auth::error_text;
use crate::results::api::{BulkDecideWorkers, DecideWorker, campaign_results, campaign_workers, results_campaigns};
use crate::results::{
    AgreementReport, BulkAction, BulkCounts, FlagFilter, GroupAgreement, GroupView, PairFigures, RankingView, EsaView, ResultsOptions, ResultsView,
    VerdictFilter, WorkerRow, WorkerSort, WorkersQuery, WorkersView,
};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};

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

/// The results page's settings as they live in the URL (`?exclude_ref=true&test=wilcoxon`):
/// reload, back and a shared link keep them.
fn results_options(get: impl Fn(&str) -> Option<String>) -> ResultsOptions {
    let on = |k: &str| get(k).as_deref() == Some("true");
    ResultsOptions { exclude_ref: on("exclude_ref"), exclude_bad_ref: on("exclude_bad_ref"), per_segment: on("per_segment"), wilcoxon: get("test").as_deref() == Some("wilcoxon") }
}

/// The URL of the results page with these settings (the defaults left out).
fn results_url(campaign_id: i64, o: ResultsOptions) -> String {
    let mut parts = Vec::new();
    for (on, key) in [(o.exclude_ref, "exclude_ref"), (o.exclude_bad_ref, "exclude_bad_ref"), (o.per_segment, "per_segment")] {
        if on {
            parts.push(format!("{key}=true"));
        }
    }
    if o.wilcoxon {
        parts.push("test=wilcoxon".into());
    }
    if parts.is_empty() { format!("/campaigns/{campaign_id}/results") } else { format!("/campaigns/{campaign_id}/results?{}", parts.join("&")) }
}

#[cfg(test)]
mod url_tests {
    #[test]
    fn the_results_settings_go_to_the_url_and_back() {
        use super::{ResultsOptions, results_options, results_url};
        let o = ResultsOptions { exclude_ref: true, exclude_bad_ref: false, per_segment: true, wilcoxon: true };
        let url = results_url(4, o);
        assert_eq!(url, "/campaigns/4/results?exclude_ref=true&per_segment=true&test=wilcoxon");
        let query = url.split_once('?').unwrap().1.to_string();
        let get = |k: &str| query.split('&').find_map(|p| p.split_once('=').filter(|(key, _)| *key == k).map(|(_, v)| v.to_string()));
        assert_eq!(results_options(get), o);
        assert_eq!(results_url(4, ResultsOptions::default()), "/campaigns/4/results");
    }
}

#[component]
pub fn ResultsPage() -> impl IntoView {
    let id = campaign_id();
    let url = use_query_map();
    let options = Memo::new(move |_| {
        let q = url.read();
        results_options(|k| q.get(k))
    });
    let navigate = use_navigate();
    let set = Callback::new(move |o: ResultsOptions| navigate(&results_url(id(), o), NavigateOptions { scroll: false, ..Default::default() }));
    let results = crate::resource::blocking_resource(
        move || (id(), options.get()),
        |(id, o)| campaign_results(id, o.exclude_ref, o.exclude_bad_ref, o.per_segment, o.wilcoxon),
    );
    let checkbox = move |key: &'static str, label: &'static str, get: fn(&ResultsOptions) -> bool, put: fn(&mut ResultsOptions, bool)| {
        view! {
            <label class="check">
                <input type="checkbox" id=key name=key prop:checked=move || get(&options.get())
                    on:change=move |ev| {
                        let mut o = options.get_untracked();
                        put(&mut o, event_target_checked(&ev));
                        set.run(o);
                    }/>
                " " {label}
            </label>
        }
    };
    let wilcoxon = move || options.get().wilcoxon;
    // The page's settings, under its heading (issue 38 item 14: they stood above it).
    let settings = move || view! {
            <form class="results-settings" id="results-settings" on:submit=|ev| ev.prevent_default()>
                <fieldset>
                    <legend>"Settings (METHOD §5)"</legend>
                    {checkbox("exclude_ref", "Exclude references from z", |o| o.exclude_ref, |o, v| o.exclude_ref = v)}
                    {checkbox("exclude_bad_ref", "Exclude bad references from z", |o| o.exclude_bad_ref, |o, v| o.exclude_bad_ref = v)}
                    {checkbox("per_segment", "Average per segment first", |o| o.per_segment, |o, v| o.per_segment = v)}
                    <label>
                        "Reliability test that gates workers: "
                        <select id="reliability_test" name="reliability_test"
                            on:change=move |ev| {
                                let mut o = options.get_untracked();
                                o.wilcoxon = event_target_value(&ev) == "wilcoxon";
                                set.run(o);
                            }>
                            <option value="t" selected=move || !wilcoxon()>"paired t-test"</option>
                            <option value="wilcoxon" selected=wilcoxon>"Wilcoxon signed-rank"</option>
                        </select>
                    </label>
                </fieldset>
            </form>
    }.into_any();
    view! {
        <section class="card results" id="results">
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match results.await {
                        Err(e) => Either::Left(view! { <h1>"Results"</h1> {settings()} <p class="error" role="alert" id="results-error">{error_text(&e)}</p> }),
                        Ok(r) => Either::Right(view! { <ResultsBody r=r campaign_id=id() settings=settings()/> }),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn ResultsBody(r: ResultsView, campaign_id: i64, settings: AnyView) -> impl IntoView {
    let empty = r.groups.is_empty();
    let excluded_workers = r.excluded.len();
    view! {
        <h1>"Results: " {r.campaign.clone()}</h1>
        <p class="hint">
            <a href=format!("/campaigns/{campaign_id}")>"Campaign status"</a> " · "
            <a href=format!("/campaigns/{campaign_id}/workers")>"Workers"</a> " · "
            <a href=format!("/campaigns/{campaign_id}/metrics")>"Metrics"</a>
        </p>
        {settings}
        <p class="hint" id="results-freshness">
            {format!(
                "Computed {} from the {} answers stored then; recomputed when new answers arrive (reload to see them).",
                crate::results::utc_time(r.computed_at_ms),
                r.stored_judgments
            )}
        </p>
        <dl class="implications" id="results-counts">
            <dt>"Answers stored"</dt><dd id="r-answers">{r.stored_judgments}</dd>
            <dt>{judgments_label(r.questions)}</dt><dd id="r-judgments">{r.judgments}</dd>
            <dt>"Workers"</dt><dd id="r-workers">{r.workers}</dd>
            <dt>"Workers excluded"</dt><dd id="r-excluded-workers">{excluded_workers}</dd>
            <dt>"Judgments of excluded workers"</dt><dd id="r-excluded-judgments">{r.judgments_excluded}</dd>
            <dt>"Judgments not standardised"</dt><dd>{r.judgments_unstandardised}</dd>
            <dt>"Judgments in the scores"</dt><dd id="r-scored">{r.judgments_scored}</dd>
        </dl>
        {empty.then(|| view! {
            <p class="empty" id="results-empty">"No scores yet: results appear once workers who pass quality control have finished HITs."</p>
        })}
        {r.ranking.map(|k| view! { <Ranking k/> })}
        {r.esa.map(|e| view! { <Esa e/> })}
        {r.pairwise.map(|p| view! { <Pairwise p/> })}
        {r.postedit.map(|p| view! { <PostEditResults p/> })}
        {r.contrastive.map(|c| view! { <ContrastiveResults c/> })}
        {r.groups.into_iter().map(|g| view! { <Group g/> }).collect_view()}
        <crate::campaign::adaptive_pages::AdaptiveResults campaign_id/>
        <Agreement report=r.agreement/>
        <Exports campaign_id options=r.options files=r.export_files metric_files=r.metric_export_files/>
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

/// What the results page's judgment count counts: the analysis' records, one per question an
/// answer answers (word order asks two), skipped answers and gold blocks left out.
fn judgments_label(questions: usize) -> String {
    if questions > 1 {
        format!("Judgments analysed (one per question: {questions} per answer)")
    } else {
        "Judgments analysed (one per answer)".to_string()
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
                <td class="num agreement-judgments">{g.system_output_judgments}</td><td class="num">{f.pairs}</td><td class="num">{f.workers}</td><td class="num">{f.items}</td>
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
                "same system output. DA: Pearson r and mean |difference|; word order: Cohen's κ over the five boxes of each question "
                "(chance agreement from the data) and the share of agreeing pairs. Judgments: the judgments of system outputs "
                "that entered, per question (quality-control items such as permuted references are not system outputs); "
                "items: the system outputs with a pair (judged twice by one worker, or by two or more workers)."
            </p>
            <table class="data" id="agreement-table">
                <thead><tr>
                    <th>"Workers"</th><th>"Task · pair"</th><th>"Pairs of"</th><th>"Judgments"</th><th>"Pairs"</th><th>"Workers"</th><th>"Items"</th>
                    <th>"r / κ"</th><th>"Mean |difference|"</th><th>"Agreeing"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </section>
    }
}

/// Download links for every export with the page's settings, raw and cleaned.
#[component]
fn Exports(campaign_id: i64, options: ResultsOptions, files: Vec<String>, metric_files: Vec<String>) -> impl IntoView {
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
        let download = crate::results::export_download_name(campaign_id, file, filter);
        view! { <li><a class="export" href=href download=download rel="external" data-file=file.to_string() data-filter=filter>{label}</a></li> }
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
            {(!metric_files.is_empty()).then(|| view! {
                <h3>"Metrics against the humans"</h3>
                <p class="hint">
                    "The tables of the " <a href=format!("/campaigns/{campaign_id}/metrics")>"metrics page"</a>
                    " (BLEU, chrF, chrF++ and the uploaded metrics against the humans' mean z, default settings), as "
                    <code>"assay metrics evaluate"</code> " writes them."
                </p>
                <ul class="export-list" id="export-metrics">
                    {metric_files.iter().map(|f| link(f, "raw")).collect_view()}
                </ul>
            })}
        </section>
    }
}

#[component]
fn Group(g: GroupView) -> impl IntoView {
    let conf = g.confidence.map_or("–".to_string(), |c| format!("{:.0}%", c * 100.0));
    // Word-order answers and ranks are stored on 0–1, DA on 0–100.
    let (scale, digits) = raw_scale(&g.task);
    view! {
        <section class="group" data-task=g.task.clone() data-lang-pair=g.lang_pair.clone()>
            <h2>{format!("{} · {}", assay_core::protocol::task_label(&g.task), g.lang_pair)}</h2>
            <table class="data scores" id="scores">
                <thead><tr>
                    <th>"Rank"</th><th>"System"</th><th>"z"</th><th>{format!("z {conf} CI")}</th>
                    <th>{format!("Raw ({scale})")}</th><th>{format!("Raw {conf} CI")}</th><th>"n"</th><th>"Segments"</th><th>"Wins"</th><th>"Cluster"</th>
                </tr></thead>
                <tbody>
                    {g.systems.iter().map(|s| {
                        let rank = if s.rank_best == s.rank_worst { s.rank_best.to_string() } else { format!("{}–{}", s.rank_best, s.rank_worst) };
                        view! {
                            <tr class="system-row" data-system=s.name.clone()>
                                <td>{rank}</td><td>{s.name.clone()}</td><td class="num">{fixed(s.z, 3)}</td><td class="num">{ci(s.z_ci, 3)}</td>
                                <td class="num">{fixed(s.raw, digits)}</td><td class="num">{ci(s.raw_ci, digits)}</td>
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
            {(!g.weighted.is_empty()).then(|| view! {
                <h3>"Workers weighted by precision (beside the standard reading)"</h3>
                <p class="hint">"Every worker's scores, none discarded, each worker weighted by how consistently his scores follow the systems' qualities (a per-worker bias and precision, Mathur, Baldwin and Cohn 2018), with 95% intervals from a bootstrap over workers and segments. The standard reading above, with its quality control and z scores, stays the campaign's result."</p>
                <div class="table-scroll">
                    <table class="data" id="weighted-scores">
                        <thead><tr><th scope="col">"System"</th><th scope="col">"Weighted (0–100)"</th><th scope="col">"95% CI"</th><th scope="col">"Plain mean, every worker"</th><th scope="col">"Scores"</th></tr></thead>
                        <tbody>
                            {g.weighted.iter().map(|w| view! {
                                <tr data-system=w.name.clone()>
                                    <td data-label="System">{w.name.clone()}</td>
                                    <td class="num" data-label="Weighted">{format!("{:.1}", w.weighted)}</td>
                                    <td class="num" data-label="95% CI">{format!("[{:.1}, {:.1}]", w.low, w.high)}</td>
                                    <td class="num" data-label="Plain mean">{format!("{:.1}", w.raw_mean)}</td>
                                    <td class="num" data-label="Scores">{w.scores}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            })}
        </section>
    }
}

use super::raw_scale;

#[cfg(test)]
#[path = "pages_scale_tests.rs"]
mod scale_tests;

/// A relative-ranking campaign: every WMT 2012 method side by side, where they disagree, the
/// rank ranges and the head-to-head table.
/// The ESA section: the WMT 2024 ranking with each system's error spans, the p-value heatmap
/// and the error-span plot.
#[component]
fn Esa(e: EsaView) -> impl IntoView {
    let counts = format!(
        "{} annotator(s) that quality control keeps ({} left out); {:.1} segments per system; domains: {}. \
         Degraded and repeated copies, document scores and earlier ratings of the same item ({} ratings) are not in the ranking.",
        e.annotators,
        e.workers_excluded,
        e.segments_per_system,
        if e.domains.is_empty() { "–".to_string() } else { e.domains.join(", ") },
        e.ratings_left_out
    );
    let ranked = !e.rows.is_empty();
    view! {
        <section class="group esa-results" id=assay_core::protocol::esa::NAME data-lang-pair=e.lang_pair.clone()>
            <h2>{if e.protocol == "MQM" { format!("MQM · {}: scores (−Σ error weights) ranked as WMT 2024 ranks ESA", e.lang_pair) } else { format!("Error span annotation · {}: the WMT 2024 ranking", e.lang_pair) }}</h2>
            <p class="hint" id="esa-counts">{counts}</p>
            {e.note.map(|n| view! { <p class="notice" id="esa-note">{n}</p> })}
            {ranked.then(|| view! {
                <div class="table-scroll" role="region" aria-label="ESA ranking" tabindex="0">
                <table class="data" id="esa-ranking">
                    <caption>"Systems by the mean of their per-domain mean scores, best first. Wins and losses: two-sided Wilcoxon signed-rank tests on paired segments per domain, combined by Stouffer, p < 0.05; rank range (losses + 1, systems − wins); clusters by WMT 2024's walk."</caption>
                    <thead><tr>
                        <th scope="col">"System"</th><th scope="col">"Score"</th><th scope="col">"Segments"</th>
                        <th scope="col">"Rank range"</th><th scope="col">"Cluster"</th><th scope="col">"Wins"</th><th scope="col">"Losses"</th>
                        <th scope="col">"Minor"</th><th scope="col">"Major"</th><th scope="col">"Omissions"</th><th scope="col">"Error-free"</th><th scope="col">"Spans per segment"</th>
                    </tr></thead>
                    <tbody>
                        {e.rows.clone().into_iter().map(|r| view! {
                            <tr data-system=r.system.clone()>
                                <th scope="row">{r.system.clone()}</th>
                                <td class="num esa-score" data-label="Score">{fixed(r.score, 2)}</td>
                                <td class="num" data-label="Segments">{r.n}</td>
                                <td class="num" data-label="Rank range">{if r.rank_lo == r.rank_hi { r.rank_lo.to_string() } else { format!("{}–{}", r.rank_lo, r.rank_hi) }}</td>
                                <td class="num" data-label="Cluster">{r.cluster}</td>
                                <td class="num" data-label="Wins">{r.wins}</td>
                                <td class="num" data-label="Losses">{r.losses}</td>
                                <td class="num esa-minor" data-label="Minor">{r.minor}</td>
                                <td class="num esa-major" data-label="Major">{r.major}</td>
                                <td class="num" data-label="Omissions">{r.omissions}</td>
                                <td class="num" data-label="Error-free">{r.error_free}</td>
                                <td class="num" data-label="Spans per segment">{fixed(r.spans_per_segment, 2)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                <h3>"Significance"</h3>
                <div class="figure" id="esa-heatmap" inner_html=e.heatmap_svg.clone()></div>
            })}
            <h3>"Error spans per segment"</h3>
            <div class="figure" id="esa-spans-plot" inner_html=e.spans_svg.clone()></div>
            {(!e.document_scores.is_empty()).then(|| view! {
                <h3>"Document scores"</h3>
                <table class="data" id="esa-document-scores">
                    <caption>"The score of a whole document (0–100), asked after its last segment: kept workers, system documents, per system. Not part of the ranking above."</caption>
                    <thead><tr><th scope="col">"System"</th><th scope="col">"Documents scored"</th><th scope="col">"Mean document score"</th></tr></thead>
                    <tbody>
                        {e.document_scores.clone().into_iter().map(|(system, n, mean)| {
                            let name = system.clone();
                            view! {
                            <tr data-system=system>
                                <th scope="row">{name}</th>
                                <td class="num" data-label="Documents scored">{n}</td>
                                <td class="num" data-label="Mean document score">{fixed(mean, 1)}</td>
                            </tr>
                        }}).collect_view()}
                    </tbody>
                </table>
            })}
            {e.agreement.clone().map(|g| view! {
                <h3>"Agreement on spans"</h3>
                <p id="esa-agreement">{format!(
                    "On {} outputs rated by two kept workers: character-level F1 {}, severity κ {} (same severity on {} of the characters), Pearson r of the scores {}.",
                    g.items, opt(g.micro_f1, 3), opt(g.kappa, 3), g.severity_accuracy.map_or("–".to_string(), |a| format!("{:.1}%", a * 100.0)), opt(g.pearson_r, 3)
                )}</p>
            })}
            {(!e.prefilled.is_empty()).then(|| view! {
                <h3>"Pre-filled spans"</h3>
                <div class="table-scroll" role="region" aria-label="Pre-filled spans" tabindex="0">
                <table class="data" id="esa-prefilled">
                    <caption>"What the kept workers made of the pre-filled spans their screens started with (system items): kept as they were (accepted), changed in extent or severity, removed; and spans they added. Agreement: character-level F1 of the final spans with the pre-filled ones."</caption>
                    <thead><tr>
                        <th scope="col">"System"</th><th scope="col">"Ratings"</th><th scope="col">"Pre-filled"</th><th scope="col">"Accepted"</th>
                        <th scope="col">"Changed"</th><th scope="col">"Removed"</th><th scope="col">"Added"</th><th scope="col">"F1 with pre-filled"</th>
                    </tr></thead>
                    <tbody>
                        {e.prefilled.clone().into_iter().map(|r| view! {
                            <tr data-system=r.system.clone()>
                                <th scope="row">{r.system.clone()}</th>
                                <td class="num" data-label="Ratings">{r.ratings}</td>
                                <td class="num" data-label="Pre-filled">{r.shown}</td>
                                <td class="num fate-accepted" data-label="Accepted">{r.accepted}</td>
                                <td class="num fate-changed" data-label="Changed">{r.changed}</td>
                                <td class="num fate-removed" data-label="Removed">{r.removed}</td>
                                <td class="num fate-added" data-label="Added">{r.added}</td>
                                <td class="num" data-label="F1 with pre-filled">{opt(r.f1, 3)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            })}
            {(!e.region_hits.is_empty()).then(|| view! {
                <div class="table-scroll" role="region" aria-label="Spans on degraded segments" tabindex="0">
                <table class="data" id="esa-region-hits">
                    <caption>"Quality control by spans: how often each worker marked an error on the damaged words of a degraded copy (a careful worker does; the paired test on the scores decides)."</caption>
                    <thead><tr><th scope="col">"Worker"</th><th scope="col">"Degraded segments"</th><th scope="col">"With a span"</th><th scope="col">"On the damage"</th><th scope="col">"Share"</th></tr></thead>
                    <tbody>
                        {e.region_hits.iter().map(|r| view! {
                            <tr data-worker=r.worker.clone()>
                                <th scope="row">{r.worker.clone()}</th>
                                <td class="num" data-label="Degraded segments">{r.degraded}</td>
                                <td class="num" data-label="With a span">{r.with_spans}</td>
                                <td class="num" data-label="On the damage">{r.on_region}</td>
                                <td class="num" data-label="Share">{r.rate.map_or("–".to_string(), |x| format!("{:.0}%", x * 100.0))}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            })}
            {(!e.categories.is_empty()).then(|| view! {
                <table class="data" id="mqm-categories">
                    <caption>"The most frequent error categories (workers quality control keeps, system items)."</caption>
                    <thead><tr><th scope="col">"Category"</th><th scope="col">"Errors"</th><th scope="col">"Of which major or critical"</th></tr></thead>
                    <tbody>
                        {e.categories.iter().take(15).map(|(c, n, m)| view! {
                            <tr><th scope="row">{c.clone()}</th><td class="num" data-label="Errors">{*n}</td><td class="num" data-label="Major or critical">{*m}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
        </section>
    }
}

/// A pairwise-preference campaign's Bradley–Terry ratings and win-rate heatmap.
#[component]
fn Pairwise(p: super::PairwiseView) -> impl IntoView {
    let counts = format!(
        "{} judgments of real pairs by the workers quality control keeps ({} left out: {} of {} workers preferred degraded copies no less often than chance). \
         Ratings on the Elo scale (mean 1000) by Bradley–Terry maximum likelihood, a tie counting half a win for each side; 95% intervals by bootstrap over judgments.",
        p.judgments_kept, p.judgments_left_out, p.workers_failing, p.workers
    );
    let num = |x: Option<f64>| x.filter(|v| v.is_finite()).map_or("–".to_string(), |v| format!("{v:.0}"));
    view! {
        <section class="card" id="pairwise-results" aria-labelledby="pairwise-heading">
            <h2 id="pairwise-heading">{format!("Pairwise preference, {}", p.lang_pair)}</h2>
            <p class="hint">{counts}</p>
            {p.note.clone().map(|n| view! { <p class="empty" id="pairwise-note">{n}</p> })}
            {(!p.rows.is_empty()).then(|| view! {
                <div class="table-scroll" role="region" aria-label="Ratings per system" tabindex="0">
                <table class="data" id="pairwise-ratings">
                    <caption>"Ratings per system, highest first. A system that never won (or never lost) has no finite rating: it is ranked, and the table says why."</caption>
                    <thead><tr>
                        <th scope="col">"System"</th><th scope="col">"Rating"</th><th scope="col">"95% interval"</th>
                        <th scope="col">"Rank range"</th><th scope="col">"Wins"</th><th scope="col">"Losses"</th><th scope="col">"Ties"</th><th scope="col">"Judgments"</th>
                    </tr></thead>
                    <tbody>
                        {p.rows.clone().into_iter().map(|r| view! {
                            <tr class="pairwise-row" data-system=r.system.clone()>
                                <th scope="row">{r.system.clone()}</th>
                                <td class="num rating" data-label="Rating">{match r.no_rating { Some(why) => why.describe().to_string(), None => num(r.rating) }}</td>
                                <td class="num" data-label="95% interval">{if r.ci_low.is_some() { format!("{} – {}", num(r.ci_low), num(r.ci_high)) } else { "–".to_string() }}</td>
                                <td class="num" data-label="Rank range">{if r.rank_low == r.rank_high { r.rank_low.to_string() } else { format!("{}–{}", r.rank_low, r.rank_high) }}</td>
                                <td class="num" data-label="Wins">{r.wins}</td><td class="num" data-label="Losses">{r.losses}</td>
                                <td class="num" data-label="Ties">{r.ties}</td><td class="num" data-label="Judgments">{r.n}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
                <figure class="plot-figure" id="pairwise-heatmap">
                    <div class="plot-scroll" inner_html=p.heatmap_svg.clone()></div>
                    <figcaption>"Win rate of the row system against the column system (a tie counts half); grey: never compared."</figcaption>
                </figure>
            })}
        </section>
    }
}

/// A contrastive ESA campaign's systems ranked by paired comparisons within screens.
#[component]
fn ContrastiveResults(c: assay_core::protocol::contrastive::ContrastiveView) -> impl IntoView {
    let k = &c;
    let counts = format!(
        "{} scores of system outputs by {} workers quality control keeps, on {} screens. Two systems are compared on the screens that showed both: \
         Wilcoxon signed-rank test on the differences of their scores, one-sided, α = {}; rank ranges and clusters in WMT 2025's reading.",
        k.scores, k.workers, k.screens, k.alpha
    );
    let p_text = |p: Option<f64>| p.map_or("–".to_string(), |v| if v < 0.001 { format!("{v:.1e}") } else { format!("{v:.3}") });
    view! {
        <section class="card" id="contrastive-results" aria-labelledby="contrastive-heading">
            <h2 id="contrastive-heading">{format!("Contrastive ESA, {}", k.lang_pair)}</h2>
            <p class="hint">{counts}</p>
            <div class="table-scroll" role="region" aria-label="Systems compared within screens" tabindex="0">
            <table class="data" id="contrastive-ranking">
                <caption>"Systems by mean score, best first."</caption>
                <thead><tr><th scope="col">"System"</th><th scope="col">"Score"</th><th scope="col">"Outputs"</th><th scope="col">"Wins"</th><th scope="col">"Losses"</th><th scope="col">"Rank range"</th><th scope="col">"Cluster"</th></tr></thead>
                <tbody>
                    {k.systems.clone().into_iter().map(|s| view! {
                        <tr class="contrastive-row" data-system=s.system.clone()>
                            <th scope="row">{s.system.clone()}</th><td class="num">{format!("{:.1}", s.score)}</td><td class="num">{s.outputs}</td>
                            <td class="num">{s.wins}</td><td class="num">{s.losses}</td>
                            <td class="num">{if s.rank_lo == s.rank_hi { s.rank_lo.to_string() } else { format!("{}–{}", s.rank_lo, s.rank_hi) }}</td>
                            <td class="num">{s.cluster}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <div class="table-scroll" role="region" aria-label="Pairs of systems within screens" tabindex="0">
            <table class="data" id="contrastive-pairs">
                <caption>"Each ordered pair: the screens showing both, the mean difference of their scores (first less second), and the p-value of the first scoring higher."</caption>
                <thead><tr><th scope="col">"System"</th><th scope="col">"Against"</th><th scope="col">"Screens"</th><th scope="col">"Mean difference"</th><th scope="col">"p"</th></tr></thead>
                <tbody>
                    {c.pairs.clone().into_iter().map(|p| view! {
                        <tr><th scope="row">{p.a.clone()}</th><td>{p.b.clone()}</td><td class="num">{p.screens}</td><td class="num">{format!("{:.1}", p.mean_difference)}</td><td class="num">{p_text(p.p_a_better)}</td></tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
        </section>
    }
}

/// A post-editing campaign's HTER per system and its workers' degraded copies.
#[component]
fn PostEditResults(p: super::PostEditView) -> impl IntoView {
    let counts = format!(
        "{} post-edits of system outputs by the workers quality control keeps ({} left out). HTER: sacrebleu's TER of each output against its post-edit \
         (edits per 100 post-edited words, corpus-level per system; lower means less editing); 95% intervals by bootstrap over segments.",
        p.post_edits_kept, p.post_edits_left_out
    );
    let num = |x: Option<f64>| x.filter(|v| v.is_finite()).map_or("–".to_string(), |v| format!("{v:.1}"));
    view! {
        <section class="card" id="postedit-results" aria-labelledby="postedit-heading">
            <h2 id="postedit-heading">{format!("Post-editing (HTER), {}", p.lang_pair)}</h2>
            <p class="hint">{counts}</p>
            {p.note.clone().map(|n| view! { <p class="empty" id="postedit-note">{n}</p> })}
            {(!p.rows.is_empty()).then(|| view! {
                <div class="table-scroll" role="region" aria-label="HTER per system" tabindex="0">
                <table class="data" id="postedit-hter">
                    <caption>"HTER per system, lowest first. A rank range spans the systems whose intervals overlap."</caption>
                    <thead><tr>
                        <th scope="col">"System"</th><th scope="col">"HTER"</th><th scope="col">"95% interval"</th><th scope="col">"Rank range"</th>
                        <th scope="col">"Edits"</th><th scope="col">"Words"</th><th scope="col">"Segments"</th><th scope="col">"Post-edits"</th><th scope="col">"Median edit time"</th>
                    </tr></thead>
                    <tbody>
                        {p.rows.clone().into_iter().map(|r| view! {
                            <tr class="postedit-row" data-system=r.system.clone()>
                                <th scope="row">{r.system.clone()}</th>
                                <td class="num hter" data-label="HTER">{num(Some(r.hter))}</td>
                                <td class="num" data-label="95% interval">{if r.ci_low.is_some() { format!("{} – {}", num(r.ci_low), num(r.ci_high)) } else { "–".to_string() }}</td>
                                <td class="num" data-label="Rank range">{if r.rank_low == r.rank_high { r.rank_low.to_string() } else { format!("{}–{}", r.rank_low, r.rank_high) }}</td>
                                <td class="num" data-label="Edits">{r.edits}</td><td class="num" data-label="Words">{r.words}</td>
                                <td class="num" data-label="Segments">{r.segments}</td><td class="num" data-label="Post-edits">{r.post_edits}</td>
                                <td class="num" data-label="Median edit time">{r.median_edit_ms.map_or("–".to_string(), |ms| format!("{:.1} s", ms as f64 / 1000.0))}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            })}
            {(!p.workers.is_empty()).then(|| view! {
                <div class="table-scroll" role="region" aria-label="Degraded copies per worker" tabindex="0">
                <table class="data" id="postedit-copies">
                    <caption>"Degraded copies against the same worker's post-edit of the original: a careful worker edits the copy more."</caption>
                    <thead><tr><th scope="col">"Worker"</th><th scope="col">"Pairs"</th><th scope="col">"Copy edited more"</th><th scope="col">"Copy edited less"</th><th scope="col">"Mean HTER difference"</th><th scope="col">"Kept"</th></tr></thead>
                    <tbody>
                        {p.workers.clone().into_iter().map(|w| view! {
                            <tr><th scope="row">{w.worker.clone()}</th><td class="num">{w.pairs}</td><td class="num">{w.edited_more}</td><td class="num">{w.edited_less}</td>
                            <td class="num">{num(w.mean_difference)}</td><td>{if w.kept { "yes" } else { "no" }}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
                </div>
            })}
        </section>
    }
}

#[component]
fn Ranking(k: RankingView) -> impl IntoView {
    let position = |p: Option<usize>| p.map_or("–".to_string(), |p| p.to_string());
    let methods = k.methods.clone();
    let agree = k.disagreements.is_empty();
    let counts = format!(
        "{} blocks ranked by the workers quality control keeps ({} from every worker; {} worker(s) left out). \
         {} blocks of repeated screens measure agreement and are not in the rankings.",
        k.blocks, k.blocks_all, k.judges_excluded, k.blocks_repeated
    );
    let body = if k.blocks == 0 {
        Either::Left(view! {
            <p class="empty" id="ranking-empty">"No rankings yet: the methods need blocks ranked by workers who pass quality control."</p>
        })
    } else {
        let positions: Vec<(String, Vec<Option<usize>>)> = k.rows.iter().map(|r| (r.system.clone(), r.positions.clone())).collect();
        let agreement = k.agreement.clone();
        Either::Right(view! {
            <div class="table-scroll" role="region" aria-label="Scores per system" tabindex="0">
            <table class="data ranking-methods" id="ranking-methods">
                <caption>"Scores per system, best expected wins first. • marks a winner: no other system is better by the sign test at p ≤ 0.10."</caption>
                <thead><tr>
                    <th scope="col">"System"</th>
                    <th scope="col" title="wins / (wins + losses), WMT 2012's official score">"Wins ratio"</th>
                    <th scope="col" title="(wins + ties) / comparisons, the score before 2012">"Wins and ties"</th>
                    <th scope="col" title="Mean over opponents of the chance of beating them">"Expected wins"</th>
                    <th scope="col">"Rank range (95%)"</th>
                    <th scope="col">"TrueSkill μ ± σ"</th>
                    <th scope="col">"Wins"</th><th scope="col">"Losses"</th><th scope="col">"Ties"</th>
                </tr></thead>
                <tbody>
                    {k.rows.into_iter().map(|r| view! {
                        <tr class="ranking-row" data-system=r.system.clone()>
                            <th scope="row">{r.system.clone()}{r.winner.then_some(" •")}</th>
                            <td class="num wins-ratio" data-label="Wins ratio">{opt(r.wins_ratio, 3)}</td>
                            <td class="num" data-label="Wins and ties">{opt(r.wins_and_ties_ratio, 3)}</td>
                            <td class="num expected-wins" data-label="Expected wins">{opt(r.expected_wins, 3)}</td>
                            <td class="num rank-range" data-label="Rank range (95%)">{if r.rank_lo == r.rank_hi { r.rank_lo.to_string() } else { format!("{}–{}", r.rank_lo, r.rank_hi) }}</td>
                            <td class="num" data-label="TrueSkill μ ± σ">{format!("{} ± {}", fixed(r.trueskill_mu, 3), fixed(r.trueskill_sigma, 3))}</td>
                            <td class="num" data-label="Wins">{r.wins}</td><td class="num" data-label="Losses">{r.losses}</td><td class="num" data-label="Ties">{r.ties}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <div class="table-scroll" role="region" aria-label="Position under each method" tabindex="0">
            <table class="data ranking-positions" id="ranking-positions">
                <caption>"Each system's position under each method (1 = best)."</caption>
                <thead><tr>
                    <th scope="col">"System"</th>
                    {methods.iter().map(|m| view! { <th scope="col" class="method">{m.clone()}</th> }).collect_view()}
                </tr></thead>
                <tbody>
                    {positions.into_iter().map(|(system, ps)| view! {
                        <tr data-system=system.clone()>
                            <th scope="row">{system.clone()}</th>
                            {ps.into_iter().zip(methods.clone()).map(|(p, m)| view! { <td class="num method-position" data-label=m>{position(p)}</td> }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            {k.exact_note.map(|n| view! { <p class="hint">{n}</p> })}
            <h3>"Where the methods disagree"</h3>
            {if agree {
                Either::Left(view! { <p id="ranking-agree">"Every method orders the systems the same way."</p> })
            } else {
                Either::Right(view! {
                    <ul id="ranking-disagreements">{k.disagreements.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                })
            }}
            <h3>"Rank ranges"</h3>
            <div class="figure" id="rank-range-plot" inner_html=k.rank_range_svg></div>
            <h3>"Head to head"</h3>
            <div class="figure" id="head-to-head" inner_html=k.head_to_head_svg></div>
            <h3>"Agreement (WMT 2012)"</h3>
            <table class="data" id="ranking-agreement">
                <caption>"Cohen's κ on pairwise outcomes (A > B, A = B, A < B) of the same two systems on the same segment: by two workers (inter) or one worker twice (intra, repeated screens); chance agreement P(E) from this language pair's tie rate."</caption>
                <thead><tr>
                    <th scope="col">"Agreement"</th><th scope="col">"Comparisons"</th><th scope="col">"Agreeing"</th>
                    <th scope="col">"P(A)"</th><th scope="col">"P(E)"</th><th scope="col">"κ"</th><th scope="col">"Reading"</th><th scope="col">"κ with P(E) = 1/3"</th>
                </tr></thead>
                <tbody>
                    {agreement.into_iter().map(|a| view! {
                        <tr data-kind=a.kind.clone()>
                            <th scope="row">{a.kind.clone()}</th>
                            <td class="num" data-label="Comparisons">{a.comparisons}</td>
                            <td class="num" data-label="Agreeing">{a.agreeing}</td>
                            <td class="num" data-label="P(A)">{opt(a.p_a, 3)}</td>
                            <td class="num" data-label="P(E)">{opt(a.p_e, 3)}</td>
                            <td class="num kappa" data-label="κ">{opt(a.kappa, 3)}</td>
                            <td data-label="Reading">{if a.reading.is_empty() { a.note.clone().unwrap_or_default() } else { a.reading.clone() }}</td>
                            <td class="num" data-label="κ with P(E) = 1/3">{opt(a.kappa_uniform, 3)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        })
    };
    view! {
        <section class=format!("group {}", assay_core::protocol::ranking::NAME) id=assay_core::protocol::ranking::NAME data-lang-pair=k.lang_pair.clone()>
            <h2>{format!("Relative ranking · {}: the WMT 2012 methods", k.lang_pair)}</h2>
            <p class="hint" id="ranking-blocks">{counts}</p>
            {body}
        </section>
    }
}

/// `12345` → `12,345`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The review page's state as it lives in the URL: the table's query and the reliability test.
#[derive(Clone, Debug, PartialEq)]
struct ReviewState {
    query: WorkersQuery,
    wilcoxon: bool,
}

impl ReviewState {
    fn url(&self, campaign_id: i64) -> String {
        let mut qs = self.query.to_url();
        if self.wilcoxon {
            if !qs.is_empty() {
                qs.push('&');
            }
            qs.push_str("test=wilcoxon");
        }
        if qs.is_empty() { format!("/campaigns/{campaign_id}/workers") } else { format!("/campaigns/{campaign_id}/workers?{qs}") }
    }
}

/// What the organizer is typing in the decision editor of a row: kept by the page, so the
/// table's refreshes do not lose it.
#[derive(Clone, Copy)]
struct Editor {
    /// The worker whose row has its editor open.
    open: RwSignal<Option<String>>,
    action: RwSignal<String>,
    reason: RwSignal<String>,
    amount: RwSignal<String>,
    session: RwSignal<String>,
    decide: ServerAction<DecideWorker>,
}

impl Editor {
    /// Opens the editor on a worker's row (or closes it when it is open there), fresh.
    fn toggle(&self, worker: &str) {
        if self.open.get_untracked().as_deref() == Some(worker) {
            self.open.set(None);
            return;
        }
        self.action.set("approve".into());
        self.reason.set(String::new());
        self.amount.set(String::new());
        self.session.set(String::new());
        self.decide.value().set(None);
        self.open.set(Some(worker.to_string()));
    }
}

/// Gives the focus to the element with this id, if there is one.
fn focus_id(id: &str) {
    use leptos::wasm_bindgen::JsCast;
    if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<leptos::web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}

/// The worker review page: the heading and links, the table's controls (search, filters by
/// verdict and flags, sort, rows per page: all in the URL, kept by reload, back and the live
/// refresh), the bulk decisions, and one page of the table, where each row opens its own
/// decision editor in place.
#[component]
pub fn WorkersPage() -> impl IntoView {
    let id = campaign_id();
    let url = use_query_map();
    let state = Memo::new(move |_| {
        let q = url.read();
        ReviewState { query: WorkersQuery::from_url(|k| q.get(k)), wilcoxon: q.get("test").as_deref() == Some("wilcoxon") }
    });
    let navigate = use_navigate();
    let go = Callback::new(move |next: ReviewState| {
        navigate(&next.url(id()), NavigateOptions { scroll: false, ..Default::default() });
    });
    let editor = Editor {
        open: RwSignal::new(None),
        action: RwSignal::new("approve".into()),
        reason: RwSignal::new(String::new()),
        amount: RwSignal::new(String::new()),
        session: RwSignal::new(String::new()),
        decide: ServerAction::<DecideWorker>::new(),
    };
    let bulk = ServerAction::<BulkDecideWorkers>::new();
    // Live campaign: the figures are recomputed every few seconds while the page is open (as on
    // the campaign's status page), but not while a decision editor is open (what is typed and
    // the focus stay), and at once after a decision.
    let tick = RwSignal::new(0u64);
    let refresh = RwSignal::new(0u64);
    Effect::new(move |_| {
        let every = std::time::Duration::from_secs(5);
        if let Ok(handle) = set_interval_with_handle(move || if editor.open.get_untracked().is_none() { tick.update(|t| *t += 1) }, every) {
            on_cleanup(move || handle.clear());
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(_)) = editor.decide.value().get() {
            let closed = editor.open.get_untracked();
            editor.open.set(None);
            refresh.update(|r| *r += 1);
            // The focus goes back to the row's button.
            if let Some(w) = closed {
                request_animation_frame(move || focus_id(&decide_button_id(&w)));
            }
        }
    });
    Effect::new(move |_| {
        if bulk.value().with(Option::is_some) {
            refresh.update(|r| *r += 1);
        }
    });
    let workers = crate::resource::blocking_resource(
        move || (id(), state.get(), tick.get(), refresh.get()),
        |(id, s, _, _)| {
            let q = s.query;
            campaign_workers(
                id,
                s.wilcoxon,
                Some(q.page),
                Some(q.per_page),
                Some(q.sort.as_str().to_string()),
                Some(if q.descending { "desc" } else { "asc" }.to_string()),
                Some(q.search),
                q.verdict.map(|v| v.as_str().to_string()),
                q.flag.map(|f| f.as_str().to_string()),
            )
        },
    );
    // What the bulk actions would do, from the latest answer.
    let bulk_counts = RwSignal::new(None::<BulkCounts>);
    Effect::new(move |_| {
        if let Some(Ok(w)) = workers.get() {
            bulk_counts.set(Some(w.bulk));
        }
    });
    // The search box: what is typed, until submitted; follows the URL (back, reload).
    let typed = RwSignal::new(state.get_untracked().query.search);
    Effect::new(move |_| typed.set(state.get().query.search));
    let search = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let mut next = state.get_untracked();
        next.query.search = typed.get_untracked().trim().to_string();
        next.query.page = 1;
        go.run(next);
    };
    let clear = move |_| {
        let mut next = state.get_untracked();
        next.query.search.clear();
        next.query.page = 1;
        go.run(next);
    };
    view! {
        <section class="card results" id="workers">
            <Transition fallback=|| view! { <h1>"Workers"</h1> }>
                {move || Suspend::new(async move {
                    match workers.await {
                        Ok(w) => Either::Left(view! { <ReviewHeading campaign=w.campaign gate=w.gate currency=w.currency campaign_id=id()/> }),
                        Err(_) => Either::Right(view! { <h1>"Workers"</h1> }),
                    }
                })}
            </Transition>
            <form class="results-settings review-controls" on:submit=search>
                <div class="search" role="search">
                    <label for="worker-search">"Search worker ids"</label>
                    <div class="inline">
                        <input type="search" id="worker-search" name="search" placeholder="e.g. mturk:A1" autocomplete="off"
                            prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev))/>
                        <button type="submit" id="worker-search-go">"Search"</button>
                        {move || (!state.get().query.search.is_empty()).then(|| view! {
                            <button type="button" id="worker-search-clear" on:click=clear>"Clear search"</button>
                        })}
                    </div>
                </div>
                <label>
                    "Flags"
                    <select id="flag-filter" on:change=move |ev| {
                        let mut next = state.get_untracked();
                        next.query.flag = FlagFilter::parse(&event_target_value(&ev));
                        next.query.page = 1;
                        go.run(next);
                    }>
                        <option value="" selected=move || state.get().query.flag.is_none()>"all rows"</option>
                        {FlagFilter::ALL.into_iter().map(|f| view! {
                            <option value=f.as_str() selected=move || state.get().query.flag == Some(f)>{f.label()}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>
                    "Reliability test"
                    <select id="reliability_test" on:change=move |ev| {
                        let mut next = state.get_untracked();
                        next.wilcoxon = event_target_value(&ev) == "wilcoxon";
                        go.run(next);
                    }>
                        <option value="t" selected=move || !state.get().wilcoxon>"paired t-test"</option>
                        <option value="wilcoxon" selected=move || state.get().wilcoxon>"Wilcoxon signed-rank"</option>
                    </select>
                </label>
                <label>
                    "Rows per page"
                    <select id="per-page" on:change=move |ev| {
                        let mut next = state.get_untracked();
                        next.query.per_page = event_target_value(&ev).parse().unwrap_or(crate::results::DEFAULT_PER_PAGE);
                        next.query.page = 1;
                        go.run(next);
                    }>
                        {[25usize, 50, 100, 200].into_iter().map(|n| view! {
                            <option value=n.to_string() selected=move || state.get().query.per_page == n>{n}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label class="sort-narrow">
                    "Sort by"
                    <select id="sort-narrow" on:change=move |ev| {
                        let value = event_target_value(&ev);
                        let (key, order) = value.split_once(':').unwrap_or((value.as_str(), "asc"));
                        let mut next = state.get_untracked();
                        next.query.sort = WorkerSort::parse(key).unwrap_or_default();
                        next.query.descending = order == "desc";
                        next.query.page = 1;
                        go.run(next);
                    }>
                        {WorkerSort::ALL.into_iter().flat_map(|k| [(k, false), (k, true)]).map(|(k, desc)| {
                            let value = format!("{}:{}", k.as_str(), if desc { "desc" } else { "asc" });
                            let label = format!("{}, {}", sort_label(k), if desc { "descending" } else { "ascending" });
                            view! { <option value=value selected=move || { let q = state.get().query; q.sort == k && q.descending == desc }>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
            </form>
            <BulkPanel campaign_id=id wilcoxon=Signal::derive(move || state.get().wilcoxon) counts=bulk_counts bulk/>
            <div role="status" aria-live="polite" id="decision-status">
                {move || match editor.decide.value().get() {
                    Some(Ok(done)) => Some(view! { <p class="notice" id="decision-done">{done}</p> }),
                    _ => None,
                }}
            </div>
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match workers.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert" id="workers-error">{error_text(&e)}</p> }),
                        Ok(w) => Either::Right(view! { <WorkersBody w=w wilcoxon=state.get_untracked().wilcoxon editor go/> }),
                    }
                })}
            </Transition>
        </section>
    }
}

/// The review page's heading, links and the campaign's gate.
#[component]
fn ReviewHeading(campaign: String, gate: String, currency: String, campaign_id: i64) -> impl IntoView {
    view! {
        <h1>"Workers: " {campaign}</h1>
        <p class="hint review-links">
            <a href=format!("/campaigns/{campaign_id}") rel="external">"Campaign"</a> " · "
            <A href=format!("/campaigns/{campaign_id}/results")>"Results"</A> " · "
            <a id="decisions-csv" href=format!("/campaigns/{campaign_id}/decisions.csv") download="" rel="external">"Decisions (CSV)"</a> " · "
            <a id="mturk-csv" href=format!("/campaigns/{campaign_id}/mturk-batch.csv") download="" rel="external">"Mechanical Turk batch results (CSV, for “Upload CSV”)"</a>
        </p>
        <p id="gate-setting">"Quality gate: " {gate} " · Bonuses in " {currency}</p>
    }
}

fn sort_label(k: WorkerSort) -> &'static str {
    match k {
        WorkerSort::Worker => "worker",
        WorkerSort::Verdict => "verdict",
        WorkerSort::P => "reliability p",
        WorkerSort::Flags => "number of flags",
    }
}

/// The bulk decisions: approve every worker who passed, reject every worker who failed (with
/// one reason), each after a confirmation that names how many workers it concerns.
#[component]
fn BulkPanel(
    campaign_id: impl Fn() -> i64 + Copy + Send + Sync + 'static,
    wilcoxon: Signal<bool>,
    counts: RwSignal<Option<BulkCounts>>,
    bulk: ServerAction<BulkDecideWorkers>,
) -> impl IntoView {
    let reason = RwSignal::new(String::new());
    // The decision waiting for its confirmation, with the number of workers confirmed.
    let confirm = RwSignal::new(None::<(BulkAction, usize)>);
    let problem = RwSignal::new(None::<String>);
    let ask = move |action: BulkAction| {
        problem.set(None);
        bulk.value().set(None);
        let Some(c) = counts.get_untracked() else { return };
        if action == BulkAction::RejectFailed && reason.get_untracked().trim().is_empty() {
            problem.set(Some("Give a reason for the rejections: the workers read it on the crowd platform.".into()));
            request_animation_frame(|| focus_id("bulk-reason"));
            return;
        }
        let n = if action == BulkAction::ApprovePassed { c.approve } else { c.reject };
        confirm.set(Some((action, n)));
        request_animation_frame(|| focus_id("bulk-confirm-yes"));
    };
    let go = move |_| {
        let Some((action, n)) = confirm.get_untracked() else { return };
        confirm.set(None);
        let reason = if action == BulkAction::RejectFailed { reason.get_untracked() } else { String::new() };
        bulk.dispatch(BulkDecideWorkers { campaign_id: campaign_id(), wilcoxon: wilcoxon.get_untracked(), action: action.as_str().to_string(), reason, expected: n });
    };
    let cancel = move |_| {
        let asked = confirm.get_untracked().map(|(a, _)| a);
        confirm.set(None);
        request_animation_frame(move || focus_id(if asked == Some(BulkAction::RejectFailed) { "bulk-reject" } else { "bulk-approve" }));
    };
    let approve_n = move || counts.get().map_or(0, |c| c.approve);
    let reject_n = move || counts.get().map_or(0, |c| c.reject);
    view! {
        <section class="bulk" id="bulk" aria-labelledby="bulk-title">
            <h2 id="bulk-title">"Decide about many workers"</h2>
            <p class="hint" id="bulk-hint">
                {move || match counts.get() {
                    None => "Approve every worker who passed the reliability test, or reject every worker who failed it, with one reason.".to_string(),
                    Some(c) => {
                        let mut t = format!(
                            "By the reliability test chosen above: {} to approve ({} approved already), {} to reject ({} rejected already).",
                            c.approve, c.approved_already, c.reject, c.rejected_already
                        );
                        if c.several_sessions > 0 {
                            t.push_str(&format!(" {} worker(s) whose id arrived with several platform sessions are left out: decide about them one session at a time.", c.several_sessions));
                        }
                        t
                    }
                }}
            </p>
            <div class="row bulk-actions">
                <button type="button" id="bulk-approve" data-count=move || approve_n().to_string()
                    disabled=move || approve_n() == 0 || bulk.pending().get() on:click=move |_| ask(BulkAction::ApprovePassed)>
                    {move || format!("Approve all who passed ({})", approve_n())}
                </button>
                <label class="bulk-reason">
                    "Reason for the rejections (the workers read it)"
                    <input type="text" id="bulk-reason" maxlength="2000" prop:value=move || reason.get()
                        on:input=move |ev| reason.set(event_target_value(&ev))/>
                </label>
                <button type="button" id="bulk-reject" data-count=move || reject_n().to_string()
                    disabled=move || reject_n() == 0 || bulk.pending().get() on:click=move |_| ask(BulkAction::RejectFailed)>
                    {move || format!("Reject all who failed ({})", reject_n())}
                </button>
            </div>
            {move || confirm.get().map(|(action, n)| {
                let (question, yes) = match action {
                    BulkAction::ApprovePassed => (
                        format!("Approve {n} worker(s) who passed? Their held completion codes are released. Workers approved already are left alone."),
                        format!("Approve {n} worker(s)"),
                    ),
                    BulkAction::RejectFailed => (
                        format!("Reject {n} worker(s) who failed, with the reason “{}”? Their judgments are kept.", reason.get_untracked().trim()),
                        format!("Reject {n} worker(s)"),
                    ),
                };
                view! {
                    <div class="confirm" role="alertdialog" aria-labelledby="bulk-question" id="bulk-confirm" data-action=action.as_str() data-count=n.to_string()
                        on:keydown=move |ev| if ev.key() == "Escape" { cancel(()) }>
                        <p id="bulk-question">{question}</p>
                        <button type="button" class="primary" id="bulk-confirm-yes" on:click=go>{yes}</button>
                        " "
                        <button type="button" id="bulk-cancel" on:click=move |_| cancel(())>"Cancel"</button>
                    </div>
                }
            })}
            <div role="status" aria-live="polite" id="bulk-status">
                {move || match bulk.value().get() {
                    Some(Ok(done)) => Some(view! { <p class="notice" id="bulk-done">{done}</p> }),
                    _ => None,
                }}
            </div>
            {move || {
                let error = problem.get().or_else(|| match bulk.value().get() {
                    Some(Err(e)) => Some(error_text(&e)),
                    _ => None,
                });
                error.map(|e| view! { <p class="error" role="alert" id="bulk-error">{e}</p> })
            }}
        </section>
    }
}

/// The id of the button that opens a worker's decision editor.
fn decide_button_id(worker: &str) -> String {
    let safe: String = worker.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("decide-{safe}-{:x}", worker.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32)))
}

#[component]
fn WorkersBody(w: WorkersView, wilcoxon: bool, editor: Editor, go: Callback<ReviewState>) -> impl IntoView {
    let q = w.query.clone();
    let here = ReviewState { query: q.clone(), wilcoxon };
    let pages = q.pages(w.matching);
    let first = if w.workers.is_empty() { 0 } else { (q.page - 1) * q.per_page + 1 };
    let last = (q.page - 1) * q.per_page + w.workers.len();
    let filtered = !q.search.is_empty() || q.verdict.is_some() || q.flag.is_some();
    let summary = if w.total == 0 {
        "No rows yet.".to_string()
    } else if w.matching == 0 {
        format!("No rows match (of {} in all).", thousands(w.total))
    } else if filtered {
        format!("Rows {}–{} of {} matching ({} in all).", thousands(first), thousands(last), thousands(w.matching), thousands(w.total))
    } else {
        format!("Rows {}–{} of {}.", thousands(first), thousands(last), thousands(w.total))
    };
    let counts_text = format!(
        "Verdicts: pass {}, fail {}, not enough evidence {}; excluded {}.",
        thousands(w.counts.pass),
        thousands(w.counts.fail),
        thousands(w.counts.not_enough_evidence),
        thousands(w.counts.excluded)
    );
    let f = w.flag_counts;
    let flags_text = {
        let kinds: Vec<String> = FlagFilter::KINDS.iter().filter(|k| f.count(**k) > 0).map(|k| format!("{} {}", k.label(), thousands(f.count(*k)))).collect();
        let kinds = if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) };
        format!("Flags: {} row(s) flagged{kinds}, {} not.", thousands(f.any), thousands(f.none))
    };
    // A verdict chip: pressed when it is the filter; pressing it again shows every row.
    let chip = {
        let here = here.clone();
        move |filter: Option<VerdictFilter>, count: usize| {
            let pressed = q.verdict == filter;
            let label = filter.map_or("all", |v| v.label());
            let mut next = here.clone();
            next.query.verdict = if pressed { None } else { filter };
            next.query.page = 1;
            view! {
                <button type="button" class="chip" aria-pressed=pressed.to_string()
                    data-verdict=filter.map_or("all", |v| v.as_str()) data-count=count.to_string()
                    on:click=move |_| go.run(next.clone())>
                    {format!("{label} ({})", thousands(count))}
                </button>
            }
        }
    };
    // A sortable column heading: the active one says its order (aria-sort); pressing it turns
    // the order round, pressing another sorts by it ascending.
    let heading = {
        let here = here.clone();
        let q = w.query.clone();
        move |key: WorkerSort, label: &'static str| {
            let active = q.sort == key;
            let aria = if !active { "none" } else if q.descending { "descending" } else { "ascending" };
            let arrow = if !active { "↕" } else if q.descending { "▼" } else { "▲" };
            let mut next = here.clone();
            next.query.descending = active && !q.descending;
            next.query.sort = key;
            next.query.page = 1;
            view! {
                <th scope="col" aria-sort=aria>
                    <button type="button" class="sort" data-sort=key.as_str() on:click=move |_| go.run(next.clone())>
                        {label} <span class="arrow" aria-hidden="true">{arrow}</span>
                    </button>
                </th>
            }
        }
    };
    let to_page = {
        let here = here.clone();
        move |page: usize| {
            let mut next = here.clone();
            next.query.page = page;
            next
        }
    };
    let (p_first, p_prev, p_next, p_last) = (to_page(1), to_page(q.page.saturating_sub(1).max(1)), to_page((q.page + 1).min(pages)), to_page(pages));
    let (at_start, at_end) = (q.page <= 1, q.page >= pages);
    let counts = w.counts;
    view! {
        <div class="chips" role="group" aria-label="Show the rows with the verdict" id="verdict-chips">
            {chip(None, w.total)}
            {chip(Some(VerdictFilter::Pass), counts.pass)}
            {chip(Some(VerdictFilter::Fail), counts.fail)}
            {chip(Some(VerdictFilter::NotEnoughEvidence), counts.not_enough_evidence)}
            {chip(Some(VerdictFilter::Excluded), counts.excluded)}
        </div>
        <div role="status" aria-live="polite" class="review-summary">
            <p id="workers-summary" data-total=w.total.to_string() data-matching=w.matching.to_string()>{summary}</p>
            <p id="verdict-counts" class="hint">{counts_text}</p>
            <p id="flag-counts" class="hint" data-any=f.any.to_string() data-none=f.none.to_string()>{flags_text}</p>
        </div>
        {(w.total == 0).then(|| view! { <p class="empty" id="workers-empty">"No worker has judged anything yet."</p> })}
        <div class="table-scroll" role="region" aria-label="Workers" tabindex="0">
            <table class="data workers" id="worker-table">
                <caption class="visually-hidden">{format!("Workers, page {} of {pages}", q.page)}</caption>
                <thead><tr>
                    {heading(WorkerSort::Worker, "Worker")}<th scope="col">"HITs"</th>
                    {heading(WorkerSort::Verdict, "Verdict")}{heading(WorkerSort::P, "p")}<th scope="col">"Repeats"</th>
                    <th scope="col">"Means"</th>{heading(WorkerSort::Flags, "Flags")}<th scope="col">"Original vs bad"</th><th scope="col">"Decision"</th>
                </tr></thead>
                <tbody>{w.workers.into_iter().map(|r| view! { <Worker r editor/> }).collect_view()}</tbody>
            </table>
        </div>
        <nav class="pager" aria-label="Pages of workers" id="pager">
            <button type="button" id="page-first" disabled=at_start on:click=move |_| go.run(p_first.clone())>"« First"</button>
            <button type="button" id="page-prev" disabled=at_start on:click=move |_| go.run(p_prev.clone())>"‹ Previous"</button>
            <span id="page-of" data-page=q.page.to_string() data-pages=pages.to_string()>{format!("Page {} of {}", thousands(q.page), thousands(pages))}</span>
            <button type="button" id="page-next" disabled=at_end on:click=move |_| go.run(p_next.clone())>"Next ›"</button>
            <button type="button" id="page-last" disabled=at_end on:click=move |_| go.run(p_last.clone())>"Last »"</button>
        </nav>
    }
}

/// The columns of the review table (the decision editor's row spans them).
const WORKER_COLUMNS: usize = 9;

#[component]
fn Worker(r: WorkerRow, editor: Editor) -> impl IntoView {
    let class = if r.excluded { "worker-row excluded" } else { "worker-row" };
    let (worker_attr, verdict_attr) = (r.worker.clone(), r.verdict.clone());
    let standing_attr = r.standing.clone().unwrap_or_default();
    let gate_attr = r.gate.as_ref().map(|g| g.verdict.clone()).unwrap_or_default();
    let at_submission = r.gate.as_ref().map(|g| {
        let code = if g.code_given { "code given" } else { "code held" };
        format!(
            "At submission: {} (p {}, {} pairs, {} HIT(s)), {code}, {}, {:.1} ms",
            g.verdict,
            p_text(g.p_value),
            g.n_pairs,
            g.hits,
            crate::results::utc_time(g.computed_at),
            g.compute_us as f64 / 1000.0
        )
    });
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
    let status = if status.is_empty() { "undecided".to_string() } else { status.join(" · ") };
    let who = r.worker.clone();
    let button_id = decide_button_id(&who);
    let editor_id = format!("{button_id}-editor");
    let is_open = {
        let who = who.clone();
        move || editor.open.with(|o| o.as_deref() == Some(who.as_str()))
    };
    let toggle = {
        let who = who.clone();
        move |_| editor.toggle(&who)
    };
    let history = r.decisions.len();
    let means = [("real", r.mean_original), ("bad", r.mean_bad_ref), ("ref", r.mean_ref)];
    let hit_time = r.mean_hit_seconds.map(|s| format!("{s:.0} s/HIT"));
    view! {
        <tr class=class data-worker=worker_attr data-p=r.p_value.map(|p| p.to_string()).unwrap_or_default() data-verdict=verdict_attr data-standing=standing_attr data-gate=gate_attr
            data-blocked=r.blocked.to_string()>
            <td class="worker-id" data-label="Worker">
                <span class="id">{r.worker.clone()}</span>
                <span class="hint sub">{r.task.clone()}</span>
            </td>
            <td class="num" data-label="HITs">{r.hits}{hit_time.map(|t| view! { <span class="hint sub">{t}</span> })}</td>
            <td class="verdict" data-label="Verdict">
                <strong>{r.verdict.clone()}</strong>{r.excluded.then_some(" (excluded)")}
                <span class="hint sub">{format!("{}, {} pairs", r.test, r.n_pairs)}</span>
                {r.gold.as_ref().map(|g| view! {
                    <span class="hint sub gold-agreement">{format!("gold agreement {} ({}; threshold {}); degraded copies: {}", g.summary, g.verdict, g.threshold, g.copies_verdict)}</span>
                })}
                {at_submission.map(|t| view! { <span class="hint sub at-submission">{t}</span> })}
            </td>
            <td class="num" data-label="p">{p_text(r.p_value)}</td>
            <td data-label="Repeats">{format!("{} pairs, p {} ({})", r.consistency_pairs, p_text(r.consistency_p), r.consistency_verdict)}</td>
            <td class="means" data-label="Means">
                {means.into_iter().map(|(k, v)| view! { <span class="mean">{format!("{k} {}", opt(v, 1))}</span> }).collect_view()}
            </td>
            <td data-label="Flags" class="flags" data-flags=r.flags.len().to_string()>
                {if r.flags.is_empty() { Either::Left("–") } else { Either::Right(view! { <ul class="flag-list">{r.flags.iter().map(|f| view! { <li>{f.clone()}</li> }).collect_view()}</ul> }) }}
            </td>
            <td data-label="Original vs bad"><div class="mini" inner_html=r.scatter_svg></div></td>
            <td class="decisions" data-label="Decision">
                <strong class="standing">{status}</strong>
                {(history > 0).then(|| view! {
                    <details class="decision-history-box">
                        <summary>{format!("History ({history})")}</summary>
                        <ul class="decision-history">
                            {r.decisions.into_iter().map(|d| {
                                let what = match &d.bonus { Some(b) => format!("{} {b}", d.decision), None => d.decision.clone() };
                                let what = match &d.session { Some(s) => format!("{what} (session {s})"), None => what };
                                let reason = if d.reason.is_empty() { String::new() } else { format!(": {}", d.reason) };
                                view! {
                                    <li data-decision=d.decision.clone()>
                                        {what} {reason} <span class="hint">{format!(" — {}, {}", d.decided_by, crate::results::utc_time(d.decided_at))}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </details>
                })}
                <button type="button" class="review-worker" id=button_id.clone() aria-controls=editor_id.clone()
                    aria-expanded={let open = is_open.clone(); move || open().to_string()}
                    aria-label=format!("Decide about {who}") on:click=toggle>
                    "Decide…"
                </button>
            </td>
        </tr>
        {move || is_open().then(|| view! { <DecisionEditor worker=r.worker.clone() sessions=r.sessions.clone() blocked=r.blocked editor id=editor_id.clone() button=button_id.clone()/> })}
    }
}

/// The decision editor, in a row of its own under the worker's row: approve, reject (with a
/// reason), block or unblock, grant a bonus; for a worker id that arrived with several platform
/// sessions, the session it is for. Escape or Cancel closes it.
#[component]
fn DecisionEditor(worker: String, sessions: Vec<String>, blocked: bool, editor: Editor, id: String, button: String) -> impl IntoView {
    let decide = editor.decide;
    let campaign = campaign_id();
    let submit = {
        let worker = worker.clone();
        move |ev: leptos::ev::SubmitEvent| {
            ev.prevent_default();
            let decision = editor.action.get_untracked();
            let amount = if decision == "bonus" { editor.amount.get_untracked() } else { String::new() };
            decide.dispatch(DecideWorker {
                campaign_id: campaign(),
                worker: worker.clone(),
                session: editor.session.get_untracked(),
                decision,
                reason: editor.reason.get_untracked(),
                amount,
            });
        }
    };
    let close = {
        let button = button.clone();
        move || {
            editor.open.set(None);
            let button = button.clone();
            request_animation_frame(move || focus_id(&button));
        }
    };
    let first = NodeRef::<leptos::html::Select>::new();
    Effect::new(move |_| {
        if let Some(el) = first.get() {
            let _ = el.focus();
        }
    });
    let several = sessions.len() > 1;
    let heading_id = format!("{id}-title");
    let labelled_by = heading_id.clone();
    let close_key = close.clone();
    view! {
        <tr class="decide-row">
            <td colspan=WORKER_COLUMNS.to_string()>
                <form class="decision" id=id.clone() aria-labelledby=labelled_by on:submit=submit
                    on:keydown=move |ev| if ev.key() == "Escape" { ev.prevent_default(); close_key() }>
                    <p class="decision-title" id=heading_id>"Decision about " <strong id="decision-worker">{worker.clone()}</strong></p>
                    <div class="row">
                        <label>
                            "Decision"
                            <select id="decision-action" node_ref=first on:change=move |ev| editor.action.set(event_target_value(&ev))>
                                <option value="approve" selected=move || editor.action.get() == "approve">"approve"</option>
                                <option value="reject" selected=move || editor.action.get() == "reject">"reject (give a reason)"</option>
                                {(!blocked).then(|| view! {
                                    <option value="block" selected=move || editor.action.get() == "block">"block: no more HITs in any campaign"</option>
                                })}
                                {blocked.then(|| view! {
                                    <option value="unblock" selected=move || editor.action.get() == "unblock">"unblock"</option>
                                })}
                                <option value="bonus" selected=move || editor.action.get() == "bonus">"grant a bonus"</option>
                            </select>
                        </label>
                        {several.then(|| view! {
                            <label>
                                "Platform session (the id arrived with several)"
                                <select id="decision-session" on:change=move |ev| editor.session.set(event_target_value(&ev))>
                                    <option value="" selected=move || editor.session.get().is_empty()>"— choose —"</option>
                                    {sessions.iter().map(|s| {
                                        let v = s.clone();
                                        view! { <option value=s.clone() selected=move || editor.session.get() == v>{s.clone()}</option> }
                                    }).collect_view()}
                                    <option value="all" selected=move || editor.session.get() == "all">"all sessions"</option>
                                </select>
                            </label>
                        })}
                        <label class="grow">
                            {move || if matches!(editor.action.get().as_str(), "reject" | "bonus") { "Reason (required: the worker reads it)" } else { "Reason (optional: the worker reads it)" }}
                            <input type="text" id="decision-reason" maxlength="2000" prop:value=move || editor.reason.get()
                                on:input=move |ev| editor.reason.set(event_target_value(&ev))/>
                        </label>
                        {move || (editor.action.get() == "bonus").then(|| view! {
                            <label>
                                "Bonus amount"
                                <input type="number" id="decision-amount" min="0.01" step="0.01" prop:value=move || editor.amount.get()
                                    on:input=move |ev| editor.amount.set(event_target_value(&ev))/>
                            </label>
                        })}
                    </div>
                    <div class="row">
                        <button type="submit" class="primary" id="decide" disabled=move || decide.pending().get()>"Record the decision"</button>
                        <button type="button" id="decide-cancel" on:click=move |_| close()>"Cancel"</button>
                    </div>
                    {move || match decide.value().get() {
                        Some(Err(e)) => Some(view! { <p class="error" role="alert" id="decision-error">{error_text(&e)}</p> }),
                        _ => None,
                    }}
                </form>
            </td>
        </tr>
    }
}

/// The researcher's home: the campaigns with judgments to read, or why there are none yet.
#[component]
pub fn ResearcherHome() -> impl IntoView {
    let list = crate::resource::resource(|| (), |_| results_campaigns());
    view! {
        <h2>"Results"</h2>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match list.await {
                    Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                    Ok(l) => {
                        let launched = l.len();
                        let with: Vec<_> = l.into_iter().filter(|c| c.judgments > 0).collect();
                        if with.is_empty() {
                            Either::Right(Either::Left(view! {
                                <p class="empty" id="empty-state">
                                    {if launched == 0 {
                                        "No campaign has been launched yet. Results appear here as soon as annotators finish their first HITs."
                                    } else {
                                        "No campaign has judgments yet. Results appear here as soon as annotators finish their first HITs."
                                    }}
                                </p>
                            }))
                        } else {
                            Either::Right(Either::Right(view! {
                                <ul class="queue" id="home-results">
                                    {with.into_iter().map(|c| view! {
                                        <li data-campaign=c.id.to_string()>
                                            <a href=format!("/campaigns/{}/results", c.id) rel="external"><strong>{c.name}</strong></a>
                                            {format!(" · {} · {} · {} answers", assay_core::protocol::task_label(c.task.as_str()), c.status, thousands(c.judgments.max(0) as usize))}
                                        </li>
                                    }).collect_view()}
                                </ul>
                                <p><a href="/results" rel="external">"Every launched campaign"</a></p>
                            }))
                        }
                    }
                }
            })}
        </Suspense>
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
                                <thead><tr><th>"Campaign"</th><th>"Task"</th><th>"Status"</th><th>"Answers"</th></tr></thead>
                                <tbody>
                                    {l.into_iter().map(|c| view! {
                                        <tr>
                                            <td><A href=format!("/campaigns/{}/results", c.id)>{c.name}</A></td>
                                            <td>{c.task.as_str()}</td><td>{c.status}</td><td class="num">{c.judgments}</td>
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
