//! Screens of comparison studies: the designer (`/studies/new`), the list (`/studies`), a
//! study's gains (`/studies/:id`) and the history of every system (`/history`).

use crate::auth::error_text;
use crate::campaign::api::list_test_sets;
use crate::campaign::pages::number_field;
use crate::campaign::{CampaignSettings, TestSetInfo};
use crate::model::CampaignStatus;
use crate::study::api::{CreateStudy, LaunchStudy, check_study, list_studies, study_history, study_results};
use crate::study::{GainRow, PairHistory, StudyDraft, StudyPairDraft, StudyView, TaskGains};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_params_map};

fn fixed(v: f64, digits: usize) -> String {
    if v.is_finite() { format!("{v:.digits$}") } else { "–".into() }
}

fn interval(ci: (f64, f64), digits: usize) -> String {
    format!("[{}, {}]", fixed(ci.0, digits), fixed(ci.1, digits))
}

fn stars(p: Option<f64>) -> &'static str {
    match p {
        Some(p) if p < 0.001 => "***",
        Some(p) if p < 0.01 => "**",
        Some(p) if p < 0.05 => "*",
        _ => "",
    }
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.0001 => "< 0.0001".into(),
        Some(p) => format!("{p:.4}"),
    }
}

/// A select of systems with outputs in the given test sets (all of them).
fn system_options(sets: &[TestSetInfo], ids: &[i64], chosen: i64) -> impl IntoView + use<> {
    let mut systems: Vec<(i64, String)> = Vec::new();
    if let Some(first) = sets.iter().find(|t| Some(&t.id) == ids.first()) {
        for s in &first.systems {
            let everywhere = ids.iter().all(|id| sets.iter().find(|t| t.id == *id).is_some_and(|t| t.systems.iter().any(|x| x.id == s.id)));
            if everywhere {
                systems.push((s.id, format!("{} ({} outputs)", s.name, s.outputs)));
            }
        }
    }
    view! {
        <option value="0">"— choose —"</option>
        {systems.into_iter().map(|(id, label)| view! { <option value=id.to_string() selected=chosen == id>{label}</option> }).collect_view()}
    }
}

/// The reference of one test set of a pair that annotators see and bad references are made
/// from: test sets of different years name their references as they were imported, so each
/// has its own choice (default: its first by name).
fn reference_select(
    i: usize,
    which: &'static str,
    pairs: RwSignal<Vec<StudyPairDraft>>,
    all_sets: impl Fn() -> Vec<TestSetInfo> + Copy + Send + Sync + 'static,
    test_set: fn(&StudyPairDraft) -> i64,
    get: fn(&StudyPairDraft) -> Option<String>,
    set: fn(&mut StudyPairDraft, Option<String>),
) -> impl IntoView {
    let current = move || pairs.with(|p| p.get(i).cloned().unwrap_or_default());
    let help = format!("{which}-reference-{i}-help");
    view! {
        <div class="field">
            <label>
                "Its reference"
                <select id=format!("{which}-reference-{i}") aria-describedby=help.clone()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        pairs.update(|p| if let Some(p) = p.get_mut(i) { set(p, Some(v).filter(|v| !v.is_empty())) });
                    }>
                    <option value="" selected=move || get(&current()).is_none()>"first by name"</option>
                    {move || {
                        let p = current();
                        let chosen = get(&p);
                        all_sets()
                            .into_iter()
                            .find(|t| t.id == test_set(&p))
                            .map(|t| t.references)
                            .unwrap_or_default()
                            .into_iter()
                            .map(|r| {
                                let selected = chosen.as_deref() == Some(r.as_str());
                                view! { <option value=r.clone() selected=selected>{r.clone()}</option> }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <p class="field-help" id=help>"The human translation shown beside each output of this test set and degraded for its checks."</p>
        </div>
    }
}

/// One language pair of the designer: the two test sets with their best systems and the
/// benchmark (only systems with outputs for both test sets are offered).
fn pair_row(
    i: usize,
    pairs: RwSignal<Vec<StudyPairDraft>>,
    all_sets: impl Fn() -> Vec<TestSetInfo> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let set_field = move |f: fn(&mut StudyPairDraft, i64)| {
        move |ev: leptos::ev::Event| {
            let v = event_target_value(&ev).parse().unwrap_or(0);
            pairs.update(|p| {
                if let Some(p) = p.get_mut(i) {
                    f(p, v)
                }
            });
        }
    };
    let get = move || pairs.with(|p| p.get(i).cloned().unwrap_or_default());
    let set_options = move |chosen: i64| {
        all_sets()
            .into_iter()
            .map(|t| {
                let label = format!("{} {}-{} ({} segments)", t.name, t.source_lang, t.target_lang, t.segments);
                view! { <option value=t.id.to_string() selected=chosen == t.id>{label}</option> }
            })
            .collect_view()
    };
    view! {
        <fieldset class="study-pair" id=format!("pair-{i}")>
            <legend>{format!("Language pair {}", i + 1)}</legend>
            <div class="row">
                <label>
                    "Old test set"
                    <select id=format!("old-set-{i}") on:change=set_field(|p, v| { p.old_test_set_id = v; p.best_old = 0; p.benchmark = 0; p.old_reference = None; })>
                        <option value="0">"— choose —"</option>
                        {move || set_options(get().old_test_set_id)}
                    </select>
                </label>
                <label>
                    "Its best system (BEST old)"
                    <select id=format!("best-old-{i}") on:change=set_field(|p, v| p.best_old = v)>
                        {move || { let p = get(); system_options(&all_sets(), &[p.old_test_set_id], p.best_old) }}
                    </select>
                </label>
                {reference_select(i, "old", pairs, all_sets, |p| p.old_test_set_id, |p| p.old_reference.clone(), |p, r| p.old_reference = r)}
            </div>
            <div class="row">
                <label>
                    "New test set"
                    <select id=format!("new-set-{i}") on:change=set_field(|p, v| { p.new_test_set_id = v; p.best_new = 0; p.benchmark = 0; p.new_reference = None; })>
                        <option value="0">"— choose —"</option>
                        {move || set_options(get().new_test_set_id)}
                    </select>
                </label>
                <label>
                    "Its best system (BEST new)"
                    <select id=format!("best-new-{i}") on:change=set_field(|p, v| p.best_new = v)>
                        {move || { let p = get(); system_options(&all_sets(), &[p.new_test_set_id], p.best_new) }}
                    </select>
                </label>
                {reference_select(i, "new", pairs, all_sets, |p| p.new_test_set_id, |p| p.new_reference.clone(), |p, r| p.new_reference = r)}
                <label>
                    "Benchmark (outputs for both test sets)"
                    <select id=format!("benchmark-{i}") on:change=set_field(|p, v| p.benchmark = v)>
                        {move || { let p = get(); system_options(&all_sets(), &[p.old_test_set_id, p.new_test_set_id], p.benchmark) }}
                    </select>
                </label>
            </div>
        </fieldset>
    }
}

/// The study designer: language pairs (old test set + its best system, new test set + its best
/// system, a benchmark system with outputs for both), tasks, and the campaign designer's HIT
/// settings.
#[component]
pub fn StudyDesignerPage() -> impl IntoView {
    let sets = crate::resource::resource(|| (), |_| list_test_sets());
    let name = RwSignal::new(String::new());
    let adequacy = RwSignal::new(true);
    let fluency = RwSignal::new(false);
    let pairs = RwSignal::new(vec![StudyPairDraft::default()]);
    let seed = RwSignal::new(1i64);
    let settings = RwSignal::new(CampaignSettings::default());
    let create = ServerAction::<CreateStudy>::new();
    let draft = Memo::new(move |_| StudyDraft {
        name: name.get(),
        tasks: [(assay_core::protocol::da::ADEQUACY_NAME, adequacy.get()), (assay_core::protocol::da::FLUENCY_NAME, fluency.get())]
            .into_iter()
            .filter(|t| t.1)
            .map(|t| t.0.to_string())
            .collect(),
        pairs: pairs.get(),
        seed: seed.get(),
        settings: settings.get(),
    });
    let check = crate::resource::resource(move || draft.get(), |d| async move {
        if d.pairs.iter().any(|p| p.old_test_set_id == 0 || p.new_test_set_id == 0) {
            Ok(crate::study::StudyCheck { arms: vec![], problems: vec!["choose the old and the new test set of every pair".into()] })
        } else {
            check_study(d).await
        }
    });
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Ok(id)) = create.value().get() {
            navigate(&format!("/studies/{id}"), Default::default());
        }
    });
    let all_sets = move || sets.get().and_then(|r| r.ok()).unwrap_or_default();
    let count = Memo::new(move |_| pairs.with(Vec::len));
    view! {
        <section class="card" id="study-designer">
            <h1>"Design a comparison across years"</h1>
            <p class="hint">
                "Per language pair: the best system of an old evaluation on its test set, the best system of a new one on its test set, and a benchmark system that translates both. "
                "All of them go into the same HITs, so the same workers judge old and new; the benchmark's change between the test sets measures how much harder the new test set is (METHOD §7)."
            </p>
            <div class="stack">
                <label>"Study name" <input type="text" id="study-name" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></label>
                <fieldset id="study-tasks">
                    <legend>"Tasks (one campaign per language pair and task)"</legend>
                    <label class="inline"><input type="checkbox" id="task-adequacy" prop:checked=move || adequacy.get() on:change=move |ev| adequacy.set(event_target_checked(&ev))/>" DA adequacy"</label>
                    <label class="inline"><input type="checkbox" id="task-fluency" prop:checked=move || fluency.get() on:change=move |ev| fluency.set(event_target_checked(&ev))/>" DA fluency"</label>
                </fieldset>
                <Transition fallback=|| view! { <p>"Loading test sets…"</p> }>
                    {move || Suspend::new(async move {
                        let _ = sets.await;
                        view! { {move || (0..count.get()).map(|i| pair_row(i, pairs, all_sets)).collect_view()} }
                    })}
                </Transition>
                <p class="row">
                    <button type="button" id="add-pair" on:click=move |_| pairs.update(|p| p.push(StudyPairDraft::default()))>"Add a language pair"</button>
                    <button type="button" id="remove-pair" on:click=move |_| pairs.update(|p| if p.len() > 1 { p.pop(); })>"Remove the last pair"</button>
                </p>
                <h2>"HITs (as in the campaign designer)"</h2>
                <div class="row">
                    {number_field("Items per HIT", "hit-length", settings, |s| s.hit_length as f64, |s, v| s.hit_length = v as usize, "1")}
                    {number_field("Bad references", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                    {number_field("Repeats", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                    {number_field("References", "refs", settings, |s| s.refs as f64, |s, v| s.refs = v as usize, "1")}
                    {number_field("Sets", "sets", settings, |s| s.sets as f64, |s, v| s.sets = v as usize, "1")}
                </div>
                <div class="row">
                    {number_field("Judgments wanted per system and test set", "judgments-wanted", settings, |s| s.judgments_wanted as f64, |s, v| s.judgments_wanted = v as usize, "1")}
                    {number_field("Workers per HIT (k)", "redundancy", settings, |s| s.redundancy as f64, |s, v| s.redundancy = v as usize, "1")}
                    {number_field("Payment per HIT", "payment", settings, |s| s.payment_per_hit, |s, v| s.payment_per_hit = v, "0.01")}
                    <label>
                        "Random seed"
                        <input type="number" id="seed" prop:value=move || seed.get().to_string()
                            on:input=move |ev| if let Ok(v) = event_target_value(&ev).trim().parse() { seed.set(v) }/>
                    </label>
                </div>
            </div>
            <h2>"What this design gives"</h2>
            <Transition fallback=|| view! { <p>"Checking the design…"</p> }>
                {move || Suspend::new(async move {
                    match check.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(c) => Either::Right(view! {
                            <ul id="study-arms">
                                {c.arms.into_iter().map(|(a, h)| view! { <li>{format!("{a}: {h} HITs")}</li> }).collect_view()}
                            </ul>
                            {(!c.problems.is_empty()).then(|| view! {
                                <ul class="error" id="study-problems">
                                    {c.problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                                </ul>
                            })}
                        }),
                    }
                })}
            </Transition>
            <p class="row">
                <button class="primary" id="create-study" on:click=move |_| { create.dispatch(CreateStudy { draft: draft.get_untracked() }); }
                    disabled=move || create.pending().get()>"Create study"</button>
            </p>
            {move || match create.value().get() {
                Some(Err(e)) => Some(view! { <p class="error" role="alert" id="create-error">{error_text(&e)}</p> }),
                _ => None,
            }}
        </section>
    }
}

/// Every study (researchers and up).
#[component]
pub fn StudiesPage() -> impl IntoView {
    let studies = crate::resource::resource(|| (), |_| list_studies());
    view! {
        <section class="card" id="studies">
            <h1>"Comparisons across years"</h1>
            <p><a href="/studies/new">"Design a study"</a> " · " <A href="/history">"History of every system"</A></p>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match studies.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) if list.is_empty() => Either::Right(Either::Left(view! { <p class="empty" id="studies-empty">"No study yet."</p> })),
                        Ok(list) => Either::Right(Either::Right(view! {
                            <ul id="study-list">
                                {list.into_iter().map(|s| view! {
                                    <li><a href=format!("/studies/{}", s.id)>{s.name.clone()}</a>{format!(" ({} campaigns)", s.arms.len())}</li>
                                }).collect_view()}
                            </ul>
                        })),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn GainTable(rows: Vec<GainRow>, digits: usize, id: String) -> impl IntoView {
    view! {
        <table class="data gains" id=id>
            <thead>
                <tr>
                    <th>"Pair"</th><th>"CURR old"</th><th>"CURR new"</th><th>"Δ = CURR old − CURR new"</th>
                    <th>"BEST old"</th><th>"BEST new"</th><th>"BEST new − BEST old (uncalibrated)"</th>
                    <th>"Gain"</th><th>"n (BEST old / CURR old / BEST new / CURR new)"</th>
                </tr>
            </thead>
            <tbody>
                {rows.into_iter().map(|r| {
                    let mean = r.pair == "mean";
                    let title_best = format!("one-sided Mann–Whitney on z: BEST new better p = {}, BEST old better p = {}", p_text(r.p_best_new_better), p_text(r.p_best_old_better));
                    let title_curr = format!("one-sided Mann–Whitney on z: CURR old better p = {}, CURR new better p = {}", p_text(r.p_curr_old_better), p_text(r.p_curr_new_better));
                    view! {
                        <tr class=if mean { "gain-row mean" } else { "gain-row" } data-pair=r.pair.clone()>
                            <th>{if mean { "mean over pairs".to_string() } else { r.pair.clone() }}</th>
                            <td title=title_curr.clone()>{fixed(r.curr_old, digits)}<sup>{stars(r.p_curr_old_better)}</sup></td>
                            <td title=title_curr>{fixed(r.curr_new, digits)}<sup>{stars(r.p_curr_new_better)}</sup></td>
                            <td>{fixed(r.delta, digits)} " " <span class="ci">{interval(r.delta_ci, digits)}</span></td>
                            <td title=title_best.clone()>{fixed(r.best_old, digits)}<sup>{stars(r.p_best_old_better)}</sup></td>
                            <td title=title_best>{fixed(r.best_new, digits)}<sup>{stars(r.p_best_new_better)}</sup></td>
                            <td class="difference">{fixed(r.difference, digits)} " " <span class="ci">{interval(r.difference_ci, digits)}</span></td>
                            <td class="gain"><strong class="gain-value">{fixed(r.gain, digits)}</strong> " " <span class="ci gain-ci">{interval(r.gain_ci, digits)}</span></td>
                            <td>{format!("{} / {} / {} / {}", r.n[0], r.n[1], r.n[2], r.n[3])}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn TaskSection(t: TaskGains, confidence: f64) -> impl IntoView {
    let id = t.task.clone();
    view! {
        <section class="task-gains" id=format!("gains-{id}")>
            <h2>{format!("{} ({} judgments, {} of {} workers excluded by quality control)", t.task, t.judgments, t.workers_excluded, t.workers)}</h2>
            <h3>"Raw scores (0–100)"</h3>
            <GainTable rows=t.raw digits=1 id=format!("raw-{id}")/>
            <h3>"z-scores"</h3>
            <GainTable rows=t.z digits=2 id=format!("z-{id}")/>
            <p class="hint">{format!("Intervals: {:.0}% percentile bootstrap over segments (resampled within each test set). Stars: one-sided Mann–Whitney on z, * p < 0.05, ** p < 0.01, *** p < 0.001, on the higher of the two scores.", confidence * 100.0)}</p>
            <h3>"Time line"</h3>
            <div class="plot-box timeline-box" inner_html=t.timeline_svg></div>
        </section>
    }
}

/// A study: its campaigns, and per task the calibrated gains with intervals and the time line.
#[component]
pub fn StudyPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0);
    let launch = ServerAction::<LaunchStudy>::new();
    let view_ = crate::resource::blocking_resource(move || (id(), launch.version().get()), |(id, _)| study_results(id));
    view! {
        <section class="card" id="study">
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match view_.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert" id="study-error">{error_text(&e)}</p> }),
                        Ok(v) => Either::Right(view! { <StudyBody v launch/> }),
                    }
                })}
            </Transition>
            {move || match launch.value().get() {
                Some(Err(e)) => Some(Either::Left(view! { <p class="error" role="alert" id="launch-error">{error_text(&e)}</p> })),
                Some(Ok(l)) => Some(Either::Right(view! { <p class="notice" id="launch-done">{format!("Launched: {}", l.iter().map(|(c, h)| format!("{c} ({h} HITs)")).collect::<Vec<_>>().join(", "))}</p> })),
                None => None,
            }}
        </section>
    }
}

#[component]
fn StudyBody(v: StudyView, launch: ServerAction<LaunchStudy>) -> impl IntoView {
    let study_id = v.study.id;
    let drafts = v.study.arms.iter().any(|a| a.status == CampaignStatus::Draft);
    let confidence = v.confidence;
    view! {
        <h1>{format!("Study: {}", v.study.name)}</h1>
        <p class="hint">
            <a href=format!("/studies/{study_id}/export") rel="external" id="study-export">"Export (judgments, gains, plot, manifest)"</a>
            " · " <A href="/history">"History of every system"</A>
        </p>
        {drafts.then(|| view! {
            <p><button class="primary" id="launch-study" on:click=move |_| { launch.dispatch(LaunchStudy { study_id }); }
                disabled=move || launch.pending().get()>"Launch every campaign of the study"</button></p>
        })}
        <table class="data" id="study-arms">
            <thead><tr><th>"Campaign"</th><th>"Status"</th><th>"Pair"</th><th>"Old test set · BEST old"</th><th>"New test set · BEST new"</th><th>"Benchmark"</th><th>"Judgments"</th></tr></thead>
            <tbody>
                {v.study.arms.into_iter().map(|a| view! {
                    <tr>
                        <td><a href=format!("/campaigns/{}", a.campaign_id)>{a.campaign}</a></td>
                        <td class="arm-status">{a.status.as_str()}</td>
                        <td>{a.pair}</td>
                        <td>{format!("{} · {}", a.old_test_set, a.best_old)}</td>
                        <td>{format!("{} · {}", a.new_test_set, a.best_new)}</td>
                        <td>{a.benchmark}</td>
                        <td class="arm-judgments">{a.judgments}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
        <p class="hint">
            "Gain = (BEST new − BEST old) + (CURR old − CURR new): the benchmark system (CURR) translated both test sets in the same HITs, so its change measures how much harder the new test set is, and that change is added back. "
            "The uncalibrated difference BEST new − BEST old mixes the systems' progress with the change of test set."
        </p>
        {(!v.waiting.is_empty()).then(|| view! {
            <ul class="notice" id="study-waiting">{v.waiting.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}</ul>
        })}
        {v.tasks.into_iter().map(|t| view! { <TaskSection t confidence/> }).collect_view()}
    }
}

/// Every system's score in every campaign, one time line per language pair and task, and which
/// comparisons across campaigns are calibrated.
#[component]
pub fn HistoryPage() -> impl IntoView {
    let history = crate::resource::resource(|| (), |_| study_history());
    view! {
        <section class="card" id="history">
            <h1>"History of every system"</h1>
            <p class="hint">
                "Each point is a system's mean raw score in one campaign (on the test set named), with its 95% bootstrap interval; campaigns are in launch order. "
                "A raw score from one campaign cannot be compared with a raw score from another: the test sets differ in difficulty, different workers use the scale differently, and z-scores are standardised within each campaign. "
                "Only comparisons calibrated by a shared benchmark system or shared anchor items (the same system on the same test set) measure progress."
            </p>
            <Transition fallback=|| view! { <p>"Computing…"</p> }>
                {move || Suspend::new(async move {
                    match history.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) if list.is_empty() => Either::Right(Either::Left(view! { <p class="empty" id="history-empty">"No campaign has judgments yet."</p> })),
                        Ok(list) => Either::Right(Either::Right(list.into_iter().map(|h| view! { <PairHistoryView h/> }).collect_view())),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn PairHistoryView(h: PairHistory) -> impl IntoView {
    view! {
        <section class="pair-history" data-pair=h.pair.clone() data-task=h.task.clone()>
            <h2>{format!("{} · {}", h.pair, h.task)}</h2>
            {(!h.timeline_svg.is_empty()).then(|| view! { <div class="plot-box timeline-box" inner_html=h.timeline_svg.clone()></div> })}
            {h.unscored.into_iter().map(|why| view! { <p class="hint unscored">{why}</p> }).collect_view()}
            <p class="hint">{format!("Campaigns: {}", h.campaigns.join("; "))}</p>
            <table class="data history-points">
                <thead><tr><th>"Campaign"</th><th>"System"</th><th>"Test set"</th><th>"Mean raw"</th><th>"95% interval"</th><th>"n"</th></tr></thead>
                <tbody>
                    {h.points.into_iter().map(|p| view! {
                        <tr>
                            <td data-label="Campaign">{format!("#{}: {}", p.campaign_id, p.campaign)}</td>
                            <td data-label="System">{p.system}</td>
                            <td data-label="Test set">{p.test_set}</td>
                            <td data-label="Mean raw">{fixed(p.raw, 1)}</td>
                            <td data-label="95% interval">{p.raw_ci.map_or("–".into(), |c| interval(c, 1))}</td>
                            <td data-label="n">{p.n}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            <h3>"Which comparisons are calibrated"</h3>
            {h.links.is_empty().then(|| view! {
                <p class="hint links-none">"One campaign of this pair and task, and no study arm in it: there is nothing to compare yet."</p>
            })}
            <ul class="links">
                {h.links.into_iter().map(|l| view! {
                    <li class=if l.calibrated { "link calibrated" } else { "link uncalibrated" }>
                        <strong>{if l.calibrated { "calibrated" } else { "not calibrated" }}</strong>
                        {if l.a == l.b { format!(" — {}: ", l.a) } else { format!(" — {} vs {}: ", l.a, l.b) }}
                        {l.why}
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}
