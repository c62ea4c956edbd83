//! The results page (`/campaigns/:id/results`) and the worker review page (`/campaigns/:id/workers`).

use crate::auth::error_text;
use crate::results::api::{DecideWorker, campaign_results, campaign_workers, results_campaigns};
use crate::results::{
    AgreementReport, GroupAgreement, GroupView, PairFigures, RankingView, ResultsOptions, ResultsView, VerdictFilter, WorkerRow, WorkerSort, WorkersQuery,
    WorkersView,
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
            <a href=format!("/campaigns/{campaign_id}/workers")>"Workers"</a> " · "
            <a href=format!("/campaigns/{campaign_id}/metrics")>"Metrics"</a>
        </p>
        <p class="hint" id="results-freshness">
            {format!(
                "Computed {} from the {} judgments stored then; recomputed when new judgments arrive (reload to see them).",
                crate::results::utc_time(r.computed_at_ms),
                r.stored_judgments
            )}
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
        {r.ranking.map(|k| view! { <Ranking k/> })}
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

/// A relative-ranking campaign: every WMT 2012 method side by side, where they disagree, the
/// rank ranges and the head-to-head table.
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
        <section class="group ranking" id="ranking" data-lang-pair=k.lang_pair.clone()>
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

/// The worker review page: one page of the table at a time; its page, sort, search and verdict
/// filter live in the URL (reload and back keep them) and the live refresh keeps them.
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
        move || (id(), state.get(), tick.get(), decide.version().get()),
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
            )
        },
    );
    let selected = RwSignal::new(None::<String>);
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
            <form class="results-settings review-controls" on:submit=search>
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
            <DecisionPanel campaign_id=id selected decide/>
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match workers.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert" id="workers-error">{error_text(&e)}</p> }),
                        Ok(w) => Either::Right(view! { <WorkersBody w=w campaign_id=id() wilcoxon=state.get_untracked().wilcoxon selected go/> }),
                    }
                })}
            </Transition>
        </section>
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
    let session = RwSignal::new(String::new());
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
        decide.dispatch(DecideWorker { campaign_id: campaign_id(), worker, session: session.get_untracked(), decision, reason: reason.get_untracked(), amount });
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
                    "Platform session (empty: every session; name one when the worker arrived with several, or all)"
                    <input type="text" id="decision-session" maxlength="64" prop:value=move || session.get()
                        on:input=move |ev| session.set(event_target_value(&ev))/>
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
fn WorkersBody(w: WorkersView, campaign_id: i64, wilcoxon: bool, selected: RwSignal<Option<String>>, go: Callback<ReviewState>) -> impl IntoView {
    let q = w.query.clone();
    let here = ReviewState { query: q.clone(), wilcoxon };
    let pages = q.pages(w.matching);
    let first = if w.workers.is_empty() { 0 } else { (q.page - 1) * q.per_page + 1 };
    let last = (q.page - 1) * q.per_page + w.workers.len();
    let filtered = !q.search.is_empty() || q.verdict.is_some();
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
                <th aria-sort=aria>
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
        <h1>"Workers: " {w.campaign.clone()}</h1>
        <p class="hint">
            <A href=format!("/campaigns/{campaign_id}/results")>"Results"</A> " · "
            <a id="decisions-csv" href=format!("/campaigns/{campaign_id}/decisions.csv") download="" rel="external">"Decisions (CSV)"</a>
        </p>
        <p id="gate-setting">"Quality gate: " {w.gate.clone()} " · Bonuses in " {w.currency.clone()}</p>
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
        </div>
        {(w.total == 0).then(|| view! { <p class="empty" id="workers-empty">"No worker has judged anything yet."</p> })}
        <div class="table-scroll" role="region" aria-label="Workers" tabindex="0">
            <table class="data workers" id="worker-table">
                <caption class="visually-hidden">{format!("Workers, page {} of {pages}", q.page)}</caption>
                <thead><tr>
                    {heading(WorkerSort::Worker, "Worker")}<th>"Task"</th><th>"HITs"</th><th>"s / HIT"</th><th>"Reliability (test, pairs)"</th>
                    {heading(WorkerSort::P, "p")}{heading(WorkerSort::Verdict, "Verdict")}<th>"At submission"</th><th>"Repeats (pairs, p)"</th>
                    <th>"Mean real"</th><th>"Mean bad"</th><th>"Mean ref"</th>
                    {heading(WorkerSort::Flags, "Flags")}<th>"Original vs bad"</th><th>"Decisions"</th><th><span class="visually-hidden">"Decide"</span></th>
                </tr></thead>
                <tbody>{w.workers.into_iter().map(|r| view! { <Worker r selected/> }).collect_view()}</tbody>
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
    let decide_who = r.worker.clone();
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
        <tr class=class data-worker=worker_attr data-p=r.p_value.map(|p| p.to_string()).unwrap_or_default() data-verdict=verdict_attr data-standing=standing_attr data-gate=gate_attr
            data-blocked=r.blocked.to_string()>
            <td data-label="Worker">{r.worker}</td><td data-label="Task">{r.task}</td><td class="num" data-label="HITs">{r.hits}</td><td class="num" data-label="s / HIT">{opt(r.mean_hit_seconds, 0)}</td>
            <td data-label="Reliability">{format!("{}, {}", r.test, r.n_pairs)}</td><td class="num" data-label="p">{p_text(r.p_value)}</td>
            <td class="verdict" data-label="Verdict">{r.verdict}{r.excluded.then_some(" (excluded)")}</td>
            <td class="at-submission" data-label="At submission">{at_submission.unwrap_or_else(|| "–".into())}</td>
            <td data-label="Repeats">{format!("{}, {} ({})", r.consistency_pairs, p_text(r.consistency_p), r.consistency_verdict)}</td>
            <td class="num" data-label="Mean real">{opt(r.mean_original, 1)}</td><td class="num" data-label="Mean bad">{opt(r.mean_bad_ref, 1)}</td><td class="num" data-label="Mean ref">{opt(r.mean_ref, 1)}</td>
            <td data-label="Flags" class="flags" data-flags=r.flags.len().to_string()>{r.flags.join("; ")}</td>
            <td data-label="Original vs bad"><div class="mini" inner_html=r.scatter_svg></div></td>
            <td class="decisions" data-label="Decisions">
                <strong class="standing">{status.join(" · ")}</strong>
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
            </td>
            <td><button type="button" class="review-worker" aria-label=format!("Decide about {decide_who}") on:click=move |_| selected.set(Some(who.clone()))>"Decide…"</button></td>
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
