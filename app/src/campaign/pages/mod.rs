//! Screens of the campaign stage: import, the campaign list, the designer (with what the design
//! implies and a preview of degraded items), the status page and the annotator's queue.

mod designer;
mod fields;

pub use designer::DesignerPage;
pub(crate) use fields::number_field;
#[cfg(test)]
use fields::field_help;

use crate::auth::error_text;
use crate::campaign::api::{LaunchCampaign, StartCampaignHit, fetch_progress, hit_items, list_campaigns, list_test_sets, my_queue};
use crate::campaign::{AnnotatorProgress, CampaignInfo, TestSetInfo};
use assay_core::protocol::task_label;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_params_map, use_query_map};


/// Upload a test set and system outputs. A plain form: it works without JavaScript and the file
/// is streamed to the server.
#[component]
pub fn ImportPage() -> impl IntoView {
    let query = use_query_map();
    let sets = crate::resource::resource(|| (), |_| list_test_sets());
    let teams = crate::resource::resource(|| (), |_| crate::campaign::api::my_teams());
    // After an error the server sends back what was typed: only the file must be chosen again.
    let typed = move |k: &str| query.read().get(k).unwrap_or_default();
    let refused = move || query.read().get("error").is_some();
    view! {
        <section class="card">
            <h1>"Import test sets and system outputs"</h1>
            <p class="hint">
                "A WMT folder packed as .zip or .tar.gz (sources/, references/, system-outputs/, documents/), Appraise batch JSON, TSV or JSONL; up to 512 MiB. "
                "Nothing is saved unless the whole file is valid. Outputs of a system that exists already are added to that system."
            </p>
            <details class="hint" id="import-formats">
                <summary>"What the WMT folder holds"</summary>
                <ul>
                    <li><code>"sources/SRC-TGT.txt"</code>": one source segment per line (e.g. sources/en-de.txt)."</li>
                    <li><code>"references/SRC-TGT.NAME.txt"</code>": one reference per line; NAME tells references apart (refA, refB)."</li>
                    <li><code>"system-outputs/SRC-TGT/SYSTEM.txt"</code>": one output per line; the file name is the system's name."</li>
                    <li>
                        <code>"documents/SRC-TGT.docs"</code>" (optional): one line per segment, "<code>"DOMAIN DOCNAME"</code>
                        ", two fields separated by a space: the segment's domain (e.g. news) and the document it belongs to "
                        "(e.g. "<code>"news abc-news.12345"</code>"); consecutive segments with the same DOCNAME form a document."
                    </li>
                    <li>"Every file of a language pair has as many lines as its source file: line N is segment N."</li>
                </ul>
            </details>
            <form method="post" action="/upload/import" enctype="multipart/form-data" class="stack" id="import-form">
                <label>"Test set name" <input type="text" name="test_set_name" required=true placeholder="wmt24" value=move || typed("name")/></label>
                <label>
                    "Language pair (only for TSV or JSONL without language columns)"
                    <input type="text" name="pair" placeholder="en-de" value=move || typed("pair")/>
                </label>
                // The team the new test sets belong to: asked only of someone in several teams.
                <Suspense fallback=|| ()>
                    {move || Suspend::new(async move {
                        teams.await.ok().filter(|t| t.len() > 1).map(|list| view! {
                            <label>
                                "Team (the campaigns of these test sets belong to it too)"
                                <select name="team" id="import-team">
                                    {list.into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                                </select>
                            </label>
                        })
                    })}
                </Suspense>
                <label>
                    {move || if refused() { "File (choose it again: a browser never keeps a chosen file after sending it)" } else { "File" }}
                    <input type="file" name="file" required=true/>
                </label>
                <button type="submit" class="primary">"Import"</button>
            </form>
            {move || query.read().get("done").map(|d| view! { <p class="notice" id="import-done">{d}</p> })}
            {move || {
                query.read().get("error").map(|e| {
                    view! {
                        <div class="error" role="alert" id="import-errors">
                            <p>"Nothing was imported:"</p>
                            <ul>{e.lines().map(|l| view! { <li>{l.to_string()}</li> }).collect_view()}</ul>
                        </div>
                    }
                })
            }}
            <h2>"Test sets"</h2>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match sets.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) if list.is_empty() => Either::Right(Either::Left(view! { <p class="empty">"No test set yet."</p> })),
                        Ok(list) => Either::Right(Either::Right(view! { <TestSetTable sets=list/> })),
                    }
                })}
            </Suspense>
            <p><A href="/campaigns/new" attr:class="button">"Design a campaign"</A></p>
        </section>
    }
}

#[component]
fn TestSetTable(sets: Vec<TestSetInfo>) -> impl IntoView {
    view! {
        <table class="data" id="test-sets">
            <thead><tr><th>"Test set"</th><th>"Pair"</th><th>"Segments"</th><th>"References"</th><th>"Systems"</th></tr></thead>
            <tbody>
                {sets.into_iter().map(|t| view! {
                    <tr>
                        <td>{t.name}</td>
                        <td>{format!("{}-{}", t.source_lang, t.target_lang)}</td>
                        <td>{t.segments}</td>
                        <td>{t.references.join(", ")}</td>
                        <td>{t.systems.iter().map(|s| format!("{} ({})", s.name, s.outputs)).collect::<Vec<_>>().join(", ")}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// Every campaign, with links to design a new one and to each campaign's status.
#[component]
pub fn CampaignsPage() -> impl IntoView {
    let campaigns = crate::resource::resource(|| (), |_| list_campaigns());
    view! {
        <section class="card">
            <h1>"Campaigns"</h1>
            <p class="row">
                <A href="/campaigns/new" attr:class="button primary">"Design a campaign"</A>
                <a href="/import" class="button" rel="external">"Import a test set"</a>
            </p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match campaigns.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) => Either::Right(view! { <CampaignTable campaigns=list/> }),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn CampaignTable(campaigns: Vec<CampaignInfo>) -> impl IntoView {
    if campaigns.is_empty() {
        return Either::Left(view! { <p class="empty">"No campaign yet. Import a test set, then design a campaign."</p> });
    }
    Either::Right(view! {
        <table class="data" id="campaigns">
            <thead><tr><th>"Campaign"</th><th>"Task"</th><th>"Test set"</th><th>"Status"</th><th>"HITs"</th></tr></thead>
            <tbody>
                {campaigns.into_iter().map(|c| view! {
                    <tr>
                        <td><A href=format!("/campaigns/{}", c.id)>{c.name}</A></td>
                        <td>{task_label(c.task.as_str())}</td>
                        <td>{format!("{} {}", c.test_set, c.pair)}</td>
                        <td>{c.status}</td>
                        <td>{c.hits}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    })
}

/// The active-time summary on the campaign page (organizers), refreshed every 15 seconds
/// ([`super::pace`] computes it).
#[component]
pub fn ActiveTimeSummary(#[prop(into)] campaign_id: Signal<i64>) -> impl IntoView {
    let tick = RwSignal::new(0u64);
    Effect::new(move |_| {
        if let Ok(handle) = set_interval_with_handle(move || tick.update(|t| *t += 1), std::time::Duration::from_secs(15)) {
            on_cleanup(move || handle.clear());
        }
    });
    let summary = crate::resource::secondary_resource(move || (campaign_id.get(), tick.get()), |(id, _)| super::api::campaign_active_time(id));
    let hours = |h: f64| {
        if h * 60.0 < 1.0 {
            format!("{:.0} s", h * 3600.0)
        } else if h < 1.0 {
            format!("{:.0} min", h * 60.0)
        } else {
            format!("{h:.1} h")
        }
    };
    view! {
        <h2 id="active-time-heading">"Active time and pay"</h2>
        <Transition fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match summary.await {
                    Err(e) => leptos::either::EitherOf3::A(view! { <p class="error" role="alert">{crate::auth::error_text(&e)}</p> }),
                    Ok(t) if t.judgments == 0 => leptos::either::EitherOf3::B(view! {
                        <p class="empty" id="active-time-empty">"No judgment with an active time yet."</p>
                    }),
                    Ok(t) => {
                        let share = if t.screen_hours > 0.0 { t.active_hours / t.screen_hours * 100.0 } else { 0.0 };
                        let rate = |v: Option<f64>| v.map(|v| format!("{v:.0}")).unwrap_or_else(|| "not enough time yet".into());
                        let pay = t.median_worker_pay_per_hour.map(|v| format!("{v:.2} {}", t.currency)).unwrap_or_else(|| "no finished HIT yet".into());
                        leptos::either::EitherOf3::C(view! {
                            <dl class="implications" id="active-time" aria-labelledby="active-time-heading">
                                <dt>"Active time"</dt>
                                <dd id="at-active">{format!("{} of {} on screen ({share:.0} %), over {} judgments", hours(t.active_hours), hours(t.screen_hours), t.judgments)}</dd>
                                <dt>"Words judged per active hour"</dt><dd id="at-words">{rate(t.words_per_hour)}</dd>
                                <dt>"Median worker's words per active hour"</dt><dd id="at-median-words">{rate(t.median_worker_words_per_hour)}</dd>
                                <dt>"Median worker's pay per active hour"</dt><dd id="at-pay">{pay}</dd>
                            </dl>
                            <p class="hint">"Active time counts only while the page is in use: visible, focused, with input no longer ago than the campaign's idle gap. It is never more than the server's time per item, and it is what the HIT-time flags use."</p>
                        })
                    }
                }
            })}
        </Transition>
    }
}

/// A campaign's status: launch it, its crowd link, and numbers that update every few seconds.
#[component]
pub fn CampaignStatusPage() -> impl IntoView {
    let params = use_params_map();
    let id = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok()).unwrap_or(0);
    let launch = ServerAction::<LaunchCampaign>::new();
    let tick = RwSignal::new(0u64);
    Effect::new(move |_| {
        if let Ok(handle) = set_interval_with_handle(move || tick.update(|t| *t += 1), std::time::Duration::from_secs(3)) {
            on_cleanup(move || handle.clear());
        }
    });
    let progress = crate::resource::blocking_resource(move || (id(), tick.get(), launch.version().get()), |(id, _, _)| fetch_progress(id));
    view! {
        <section class="card" id="campaign-status">
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match progress.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(p) => {
                            let c = p.campaign.clone();
                            let name = c.as_ref().map(|c| c.name.clone()).unwrap_or_default();
                            let status = c.as_ref().map(|c| c.status.clone()).unwrap_or_default();
                            let task = c.as_ref().map(|c| task_label(c.task.as_str())).unwrap_or("");
                            let draft = status == "draft";
                            let cid = id();
                            Either::Right(view! {
                                <h1>{name}</h1>
                                <p>{task} " · status: " <strong id="campaign-state">{status}</strong></p>
                                <CampaignLinks campaign_id=cid draft/>
                                {draft.then(|| view! {
                                    <p class="row">
                                        <button class="primary" id="launch" on:click=move |_| { launch.dispatch(LaunchCampaign { campaign_id: id() }); }
                                            disabled=move || launch.pending().get()>"Launch: build the HITs"</button>
                                        <A href=format!("/campaigns/{cid}/edit") attr:class="button" attr:id="edit-draft">"Edit the design"</A>
                                    </p>
                                })}
                                <h2>"Crowd link"</h2>
                                {match p.crowd_link {
                                    Some(link) => Either::Left(view! { <CrowdLink link/> }),
                                    None => Either::Right(view! {
                                        <p class="hint" id="crowd-link-later">"The crowd link appears here once the campaign is launched: before, it would only answer “No work right now”."</p>
                                    }),
                                }}
                                <h2>"Progress"</h2>
                                <dl class="implications" id="progress">
                                    <dt>"HIT copies done"</dt><dd id="p-done">{p.done}</dd>
                                    <dt>"In progress"</dt><dd id="p-active">{p.in_progress}</dd>
                                    <dt>"Open"</dt><dd id="p-open">{p.open}</dd>
                                    <dt>"Expired"</dt><dd>{p.expired}</dd>
                                    <dt>"Workers active / ever"</dt><dd id="p-workers">{format!("{} / {}", p.workers_active, p.workers_total)}</dd>
                                    <dt>"Judgments"</dt><dd id="p-judgments">{p.judgments}</dd>
                                </dl>
                                <h2>"Judgments per system"</h2>
                                <div class="table-scroll">
                                    <table class="data" id="per-system">
                                        <thead><tr><th scope="col">"System"</th><th scope="col">"Judged"</th><th scope="col">"Planned (all copies)"</th></tr></thead>
                                        <tbody>
                                            {p.per_system.into_iter().map(|(s, j, n)| view! {
                                                <tr><td data-label="System">{s}</td><td data-label="Judged">{j}</td><td data-label="Planned">{n}</td></tr>
                                            }).collect_view()}
                                        </tbody>
                                    </table>
                                </div>
                                <crate::campaign::adaptive_pages::AdaptivePanel campaign_id=Signal::derive(id) tick=Signal::derive(move || tick.get())/>
                                <Annotators list=p.annotators total=p.annotators_total campaign_id=cid/>
                            })
                        }
                    }
                })}
            </Transition>
            <ActiveTimeSummary campaign_id=Signal::derive(id)/>
            <HitInspector campaign_id=Signal::derive(id) launched=Signal::derive(move || launch.version().get())/>
            {move || match launch.value().get() {
                Some(Err(e)) => Some(Either::Left(view! { <p class="error" role="alert" id="launch-error">{error_text(&e)}</p> })),
                Some(Ok(s)) => Some(Either::Right(view! { <p class="notice" id="launch-done">{format!("Launched: {} HITs, {} items.", s.hits, s.items)}</p> })),
                None => None,
            }}
        </section>
    }
}

/// The campaign's other pages and every download: results, the worker review, the exports
/// (raw and cleaned, with the results page's default settings), the decisions.
#[component]
fn CampaignLinks(campaign_id: i64, draft: bool) -> impl IntoView {
    let export = move |file: &'static str, filter: &'static str| {
        let href = format!("/campaigns/{campaign_id}/export/{file}?filter={filter}");
        // As `results::export_download_name` names them (the campaign stage may not import results).
        let download = if file.ends_with(".json") && file != "manifest.json" { format!("campaign-{campaign_id}-{file}") } else { format!("campaign-{campaign_id}-{filter}-{file}") };
        view! { <li><a href=href download=download rel="external" class="export" data-file=file data-filter=filter>{format!("{file} ({filter})")}</a></li> }
    };
    view! {
        <nav class="hub" aria-label="This campaign" id="campaign-hub">
            <ul class="hub-links">
                <li><a href=format!("/campaigns/{campaign_id}/results") rel="external" id="hub-results">"Results"</a></li>
                <li><a href=format!("/campaigns/{campaign_id}/workers") rel="external" id="hub-workers">"Workers: review and decide"</a></li>
                {(!draft).then(|| view! { <li class="hint" id="hub-no-edit">"A launched campaign cannot be edited."</li> })}
            </ul>
            <details class="hub-exports" id="hub-exports">
                <summary>"Exports"</summary>
                <ul class="export-list">
                    {["judgments.csv", "judgments.jsonl", "appraise-wmt22.csv", "appraise-wmt23.csv", "appraise-wmt24.csv", "all.zip"]
                        .into_iter().flat_map(|f| [export(f, "raw"), export(f, "cleaned")]).collect_view()}
                    {["analysis.json", "agreement.json", "manifest.json"].into_iter().map(|f| export(f, "raw")).collect_view()}
                    <li><a href=format!("/campaigns/{campaign_id}/decisions.csv") download="" rel="external" id="hub-decisions">"decisions.csv (approvals, rejections, blocks, bonuses)"</a></li>
                    <li><a href=format!("/campaigns/{campaign_id}/mturk-batch.csv") download="" rel="external" id="hub-mturk">"Mechanical Turk batch results (Approve/Reject, for “Upload CSV”)"</a></li>
                    <li><a href=format!("/campaigns/{campaign_id}/results#exports") rel="external">"Every computed file (ad-*, mt-metrics-eval, clusters) with other settings: on the results page"</a></li>
                </ul>
            </details>
        </nav>
    }
}

/// The signed crowd link with a button that copies it (and says so to a screen reader).
#[component]
fn CrowdLink(link: String) -> impl IntoView {
    // None: not tried; Some(true): copied; Some(false): the browser refused.
    let copied = RwSignal::new(None::<bool>);
    let text = link.clone();
    let copy = move |_| {
        copied.set(None);
        copy_to_clipboard(text.clone(), copied);
    };
    view! {
        <p class="hint">"Give this link to Mechanical Turk or Prolific; the platform adds the worker's id (workerId or PROLIFIC_PID). For a plain link add &worker=ID."</p>
        <p class="notice crowd-link"><code id="crowd-link">{link}</code></p>
        <p class="row">
            <button type="button" id="copy-crowd-link" on:click=copy>"Copy the crowd link"</button>
            <span role="status" aria-live="polite" id="copy-status">
                {move || match copied.get() {
                    Some(true) => "Copied.",
                    Some(false) => "The browser did not allow copying: the link above is selected, press Ctrl+C (⌘C on a Mac) to copy it.",
                    None => "",
                }}
            </span>
        </p>
    }
}

/// Writes `text` to the clipboard; `done` says whether it worked. Where the Clipboard API is
/// missing (a page served over plain HTTP from another host than localhost is not a secure
/// context), the shown link (`#crowd-link`) is selected and copied the old way.
fn copy_to_clipboard(text: String, done: RwSignal<Option<bool>>) {
    #[cfg(feature = "hydrate")]
    {
        use leptos::wasm_bindgen::{JsCast, JsValue};
        let navigator = window().navigator();
        let has_api = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined() && !c.is_null());
        // Selects the link on the page and asks the document to copy the selection; the link
        // stays selected for Ctrl+C when that is refused too.
        let select_and_copy = || {
            let doc = document();
            let selected = match (doc.get_element_by_id("crowd-link"), window().get_selection()) {
                (Some(el), Ok(Some(sel))) => sel.select_all_children(&el).is_ok(),
                _ => false,
            };
            selected
                && js_sys::Reflect::get(&doc, &JsValue::from_str("execCommand"))
                    .ok()
                    .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                    .and_then(|f| f.call1(&doc, &JsValue::from_str("copy")).ok())
                    .is_some_and(|r| r.as_bool() == Some(true))
        };
        if has_api {
            let promise = navigator.clipboard().write_text(&text);
            leptos::task::spawn_local(async move {
                let ok = leptos::__reexports::wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
                done.set(Some(ok || select_and_copy()));
            });
        } else {
            done.set(Some(select_and_copy()));
        }
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = (text, done);
    }
}

/// Each annotator's HITs, judgments and time in the campaign.
#[component]
fn Annotators(list: Vec<AnnotatorProgress>, total: i64, campaign_id: i64) -> impl IntoView {
    let shown = list.len() as i64;
    view! {
        <h2 id="annotators-title">"Annotators"</h2>
        {if list.is_empty() {
            Either::Left(view! { <p class="empty" id="annotators-none">"Nobody has had a HIT of this campaign yet."</p> })
        } else {
            Either::Right(view! {
                <p class="hint" id="annotators-summary">
                    {if shown < total { format!("The {shown} most recently active of {total} annotators.") } else { format!("{total} annotator(s), the most recently active first.") }}
                    " Their reliability and your decisions: " <a href=format!("/campaigns/{campaign_id}/workers") rel="external">"the worker review"</a> "."
                </p>
                <div class="table-scroll">
                    <table class="data" id="annotators" aria-labelledby="annotators-title">
                        <thead><tr>
                            <th scope="col">"Annotator"</th><th scope="col">"HITs done"</th><th scope="col">"In progress"</th>
                            <th scope="col">"Given back or expired"</th><th scope="col">"Judgments"</th><th scope="col">"Time on screen"</th><th scope="col">"Last seen"</th>
                        </tr></thead>
                        <tbody>
                            {list.into_iter().map(|a| view! {
                                <tr class="annotator-row" data-worker=a.worker.clone() data-done=a.done.to_string() data-active=a.in_progress.to_string()>
                                    <td data-label="Annotator">{a.worker.clone()}{a.email.map(|e| format!(" ({e})"))}</td>
                                    <td data-label="HITs done">{a.done}</td>
                                    <td data-label="In progress">{a.in_progress}</td>
                                    <td data-label="Given back or expired">{a.left}</td>
                                    <td data-label="Judgments">{a.judgments}</td>
                                    <td data-label="Time on screen">{duration(a.seconds)}</td>
                                    <td data-label="Last seen">{utc_minute(a.last_seen)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            })
        }}
    }
}

/// A time as `YYYY-MM-DD HH:MM UTC`.
fn utc_minute(ms: i64) -> String {
    let (year, month, day, rem) = crate::model::utc_civil(ms);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// Seconds as `1 h 05 min`, `12 min 30 s` or `45 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as i64;
    match s {
        s if s >= 3600 => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
        s if s >= 60 => format!("{} min {:02} s", s / 60, s % 60),
        s => format!("{s} s"),
    }
}

/// The signed-in annotator's queue ([`my_queue`]), as a resource of the home page (created
/// beside the page's words, not inside them: resources made inside a resolved suspense do not
/// hydrate).
pub type QueueResource = Resource<Result<Vec<crate::campaign::QueueEntry>, ServerFnError>, crate::resource::JsonCodec>;

/// The queue of the signed-in annotator's home page.
pub fn queue_resource() -> QueueResource {
    crate::resource::resource(|| (), |_| my_queue())
}

/// The annotator's queue on the home page: campaigns with work, and a button to start or
/// continue, in `words`' language.
#[component]
pub fn AnnotatorQueue(words: super::HomeWords, queue: QueueResource) -> impl IntoView {
    use assay_core::i18n::fill;
    let w = words.clone();
    let start = ServerAction::<StartCampaignHit>::new();
    Effect::new(move |_| {
        if let Some(Ok(public_id)) = start.value().get() {
            // /work/… is a page of the annotation stage: load it in full.
            let _ = window().location().set_href(&format!("/work/{public_id}"));
        }
    });
    view! {
        <h2>{words.your_work.clone()}</h2>
        <Suspense fallback=|| view! { <p>"…"</p> }>
            {move || { let w = w.clone(); Suspend::new(async move {
                match queue.await {
                    Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                    Ok(list) if list.is_empty() => Either::Right(Either::Left(view! {
                        <p class="empty" id="empty-state">{w.no_work.clone()}</p>
                    })),
                    Ok(list) => Either::Right(Either::Right(view! {
                        <ul class="queue" id="queue">
                            {list.into_iter().map(|q| {
                                let cid = q.campaign_id;
                                let minutes = fill(&w.minutes_per_hit, &[("minutes", &format!("{:.0}", q.minutes_per_hit))]);
                                let done = (q.completed_hits > 0).then(|| format!(" · {}", fill(&w.done, &[("n", &q.completed_hits.to_string())])));
                                let (resume, start_label) = (w.resume.clone(), w.start.clone());
                                view! {
                                    <li>
                                        <strong>{q.name}</strong> " · " {w.task(q.task.as_str())} " · " {q.pair}
                                        " · " {minutes}
                                        {done}
                                        " "
                                        {match q.active {
                                            Some(p) => Either::Left(view! { <a class="button primary" rel="external" href=format!("/work/{p}")>{resume}</a> }),
                                            None => Either::Right(view! {
                                                <button class="primary start-work" on:click=move |_| { start.dispatch(StartCampaignHit { campaign_id: cid }); }>{start_label}</button>
                                            }),
                                        }}
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    })),
                }
            }) }}
        </Suspense>
        {move || match start.value().get() {
            Some(Err(e)) => Some(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
            _ => None,
        }}
    }
}

/// The organizer's home: their campaigns, or what to do first.
#[component]
pub fn OrganizerHome() -> impl IntoView {
    let campaigns = crate::resource::resource(|| (), |_| list_campaigns());
    view! {
        <h2>"Campaigns"</h2>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match campaigns.await {
                    Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                    Ok(list) if list.is_empty() => Either::Right(Either::Left(view! {
                        <p class="empty" id="empty-state">
                            "No campaign yet. Start by importing a test set and system outputs, then design a campaign."
                        </p>
                    })),
                    Ok(list) => Either::Right(Either::Right(view! { <CampaignTable campaigns=list/> })),
                }
            })}
        </Suspense>
        <p class="row">
            <a href="/import" class="button" rel="external">"Import a test set"</a>
            <A href="/campaigns/new" attr:class="button primary">"Design a campaign"</A>
        </p>
    }
}

/// The stored items of one HIT, for the organizer: type, system, segment, pair, the text shown
/// and what a bad reference changed (never shown to annotators).
#[component]
fn HitInspector(campaign_id: Signal<i64>, launched: Signal<usize>) -> impl IntoView {
    let hit = RwSignal::new(1i64);
    let items = crate::resource::secondary_resource(move || (campaign_id.get(), hit.get(), launched.get()), |(c, h, _)| hit_items(c, h - 1));
    view! {
        <h2>"Inspect a HIT"</h2>
        <label class="inline">
            "HIT"
            <input type="number" id="inspect-hit" min="1" prop:value=move || hit.get().to_string()
                on:input=move |ev| {
                    if let Ok(v) = event_target_value(&ev).trim().parse::<i64>() && v >= 1 {
                        hit.set(v)
                    }
                }/>
        </label>
        <Transition fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match items.await {
                    Err(e) => Either::Left(view! { <p class="hint">{error_text(&e)}</p> }),
                    Ok(list) => Either::Right(view! {
                        <table class="data" id="hit-items">
                            <thead><tr><th>"#"</th><th>"Type"</th><th>"System"</th><th>"Segment"</th><th>"Paired with"</th><th>"Text shown"</th><th>"What changed"</th></tr></thead>
                            <tbody>
                                {list.into_iter().map(|i| view! {
                                    <tr>
                                        <td>{i.position + 1}</td>
                                        <td>{i.item_type}</td>
                                        <td>{i.system.unwrap_or_default()}</td>
                                        <td>{i.segment_key}</td>
                                        <td>{i.paired_position.map(|p| (p + 1).to_string()).unwrap_or_default()}</td>
                                        <td>{i.shown_text}</td>
                                        <td class="hint">{i.degradation.unwrap_or_default()}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }),
                }
            })}
        </Transition>
    }
}

#[cfg(test)]
mod tests {
    /// The campaign designer's source, every file of it.
    const DESIGNER: [&str; 8] = [
        include_str!("fields.rs"),
        include_str!("designer/mod.rs"),
        include_str!("designer/common.rs"),
        include_str!("designer/protocol.rs"),
        include_str!("designer/quality.rs"),
        include_str!("designer/wording.rs"),
        include_str!("designer/calculator.rs"),
        include_str!("designer/launch.rs"),
    ];

    /// Every number and text field of the campaign and study designers has plain-language help
    /// (issue 18 item 8), found by reading the designers' source for the fields they use.
    #[test]
    fn every_designer_field_has_help() {
        let mut labels = Vec::new();
        for source in DESIGNER.into_iter().chain([include_str!("../../study/pages.rs")]) {
            for call in ["number_field(\"", "text_field(\""] {
                for (at, _) in source.match_indices(call) {
                    let rest = &source[at + call.len()..];
                    labels.push(rest[..rest.find('"').unwrap()].to_string());
                }
            }
        }
        assert!(labels.len() > 45, "found only {} fields", labels.len());
        let missing: Vec<&String> = labels.iter().filter(|l| super::field_help(l).is_empty()).collect();
        assert!(missing.is_empty(), "fields without help: {missing:?}");
    }

    /// Which fields the designer shows is asked of the task (`TaskKind::designer`): no task's
    /// name is written on the page (it compared names, issue 38).
    #[test]
    fn the_designer_names_no_task() {
        for page in DESIGNER {
            for t in crate::model::TaskKind::ALL {
                let literal = format!("\"{}\"", t.as_str());
                assert!(!page.contains(&literal), "the page names the task {literal}");
            }
        }
    }

    #[test]
    fn durations_and_times_read_plainly() {
        assert_eq!(super::duration(45.4), "45 s");
        assert_eq!(super::duration(750.0), "12 min 30 s");
        assert_eq!(super::duration(3900.0), "1 h 05 min");
        assert_eq!(super::utc_minute(1_795_376_606_000), "2026-11-22 19:43 UTC");
    }
}
