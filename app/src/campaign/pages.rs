//! Screens of the campaign stage: import, the campaign list, the designer (with what the design
//! implies and a preview of degraded items), the status page and the annotator's queue.

use crate::auth::error_text;
use crate::campaign::api::{
    CreateCampaign, DryRunDesign, LaunchCampaign, StartCampaignHit, UpdateCampaign, check_design, load_campaign_draft, fetch_progress, hit_items, list_campaigns, list_test_sets,
    my_queue,
};
use crate::campaign::{
    AnnotatorProgress, CampaignDraft, CampaignInfo, CampaignSettings, DegradationPolicy, DegradedSample, DesignCheck, GateMode, GateUnsure, QualityGate, TestSetInfo,
    WantedPer,
};
use crate::model::TaskKind;
use assay_core::protocol::task_label;
use assay_core::designer::JudgmentTime;
use assay_core::settings::ThinEvidence;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};


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

/// What a field of the designers means, in the organizer's words (issue 18 item 8): shown under
/// the field and read with it by a screen reader (`aria-describedby`). Keyed by the field's
/// label, which names one meaning (a HIT's "Items per HIT" and a ranking HIT's "Screens per
/// HIT" differ); a test checks that every label the designers use has its help.
pub(crate) fn field_help(label: &str) -> &'static str {
    match label {
        "Expected minutes per HIT" => "How long one HIT should take a careful annotator. Whole documents are added until this time is reached.",
        "Or source words per HIT (0: by time)" => "Size HITs by source words instead of time. 0 sizes them by the expected minutes.",
        "Seconds per source word" => "Reading and judging time per source word of each translation (WMT 2025: 0.8). Sets how many documents fit a HIT.",
        "Documents shown again degraded" => "Per HIT: documents shown a second time with every segment damaged. A careful annotator marks the damage and scores it lower.",
        "Documents shown again unchanged" => "Per HIT: documents shown a second time as they were. A careful annotator judges them alike.",
        "Errors per segment at most (0: no limit)" => "The most errors an annotator may mark in one segment (Google's MQM guidelines stop at 5).",
        "Items per HIT" => "Texts one annotator judges in one HIT, checks included. The field's usual size is 100 (about 30 minutes).",
        "Screens per HIT" => "Screens in one HIT; each screen ranks the outputs of its segments.",
        "Segments per screen" => "Source segments each screen shows, one block of outputs each (WMT 2012: 3).",
        "Outputs ranked together" => "System outputs of one segment ranked against each other (WMT 2012: 5).",
        "Blocks with a degraded copy" => "Per HIT: blocks in which one output also appears damaged. A careful annotator ranks the damaged copy lower.",
        "Pairs per HIT" => "Pairs of two systems' translations of one source in each HIT, quality-control pairs included.",
        "Pairs with a degraded copy" => "Per HIT: pairs of an output against a damaged copy of itself. A careful annotator prefers the original.",
        "Repeated pairs" => "Per HIT: pairs shown a second time, later, with their sides swapped, to check consistency.",
        "Gold blocks per HIT (0: off)" => "Per HIT: blocks whose right order careful annotators agreed on (imported for the test set). They look like every other block.",
        "Gold agreement to pass (0 to 1)" => "The share of a worker's gold pairs ranked in the agreed order needed to pass (WMT 2012 screened crowds this way).",
        "Least gold pairs for a verdict" => "With fewer gold pairs answered, the gold check says there is not enough evidence yet.",
        "Repeated screens" => "Per HIT: screens shown again later, outputs in another order, to measure consistency.",
        "Bad references" => "Per HIT: outputs shown a second time with words damaged. A careful annotator scores the copy lower; the reliability test reads these pairs.",
        "Repeats" => "Per HIT: outputs shown a second time unchanged. A careful annotator scores them alike.",
        "References" => "Per HIT: human translations shown as if they were system outputs. A careful annotator scores them high.",
        "Sets" => "The HIT is cut into this many parts; a check always sits in another part than its original, so the two are far apart.",
        "Permuted references" => "Per HIT: human translations shown with their words out of order (this task's checks). A careful annotator rates them worse than the originals.",
        "Same-reference pairs per kind" => "Per HIT and kind of reordering: pairs of one reference reordered at two strengths. A careful annotator rates the stronger one worse.",
        "Highest degree" => "The most words one reordering may move. Short references are reordered less.",
        "Judgments wanted" => "How many judgments each system (or each system output, below) should get from one worker.",
        "Judgments wanted per system and test set" => "How many judgments each system should get on each test set, from one worker.",
        "Workers per HIT (k)" => "How many different annotators do each HIT. Two or more measure agreement; it multiplies the cost.",
        "Payment per HIT" => "What one worker earns for one HIT; gives the cost and the pay per hour.",
        "Currency (ISO 4217)" => "Three letters: USD, EUR, GBP…",
        "Flag HITs faster than (s)" => "A HIT done in less time is flagged on the review page as too fast to have been read.",
        "Idle timeout (min)" => "A HIT left untouched this long is given back, so another worker can take it.",
        "Active time: idle after (s) without input" => "Time without a key, touch or pointer input is not counted as work (words per hour, time flags).",
        "Seconds per fluency judgment" | "Seconds per judgment" => "Expected time of one judgment: it gives the expected time per HIT and the total work.",
        "Title annotators see" => "The heading of a HIT's start page. Empty: a neutral title in their language. The campaign's name above stays among organizers.",
        "Target language" => "Its name as annotators read it in the wording (the test set sets it).",
        "Source language" => "Its name as annotators read it in the wording (the test set sets it).",
        "Next button" => "The button that saves an answer and moves on.",
        "Label of the source" => "The heading over the source text.",
        "Label of the reference" => "The heading over the human reference.",
        "Label of the text to rate" => "The heading over the translation being judged.",
        "Practice items (0: none)" => "Answered once before the first HIT, with feedback; never stored as judgments.",
        "Answers that must match to go on" => "Practice answers that must land in the expected range; with fewer, the round starts over.",
        "Statement" => "What annotators rate how much they agree with, on the slider.",
        "Left anchor" => "The words at the slider's low end.",
        "Right anchor" => "The words at the slider's high end.",
        "Question 1" => "The first question about each pair of sentences.",
        "Q1 left" | "Q2 left" => "The words at the low end of its scale.",
        "Q1 right" | "Q2 right" => "The words at the high end of its scale.",
        "Question 2" => "The second question about each pair of sentences.",
        "Budget (judgments; 0: the uniform design's)" => "Every item of every worker's HIT counts. 0: as many as the HITs built without adaptive allocation would collect.",
        "Error rate α" => "The chance that any pair of systems is ordered the wrong way round, split over the pairs.",
        "Smallest difference that matters (points)" => "Two systems closer than this on the 0–100 scale are “too close to matter” and get no more judgments.",
        "Warm-up share of the budget" => "Built at launch as usual (one HIT at least).",
        _ => "",
    }
}

/// A number input bound to one field of the settings, with its help under it.
pub(crate) fn number_field(
    label: &'static str,
    id: &'static str,
    settings: RwSignal<CampaignSettings>,
    get: fn(&CampaignSettings) -> f64,
    set: fn(&mut CampaignSettings, f64),
    step: &'static str,
) -> impl IntoView {
    let help_id = format!("{id}-help");
    view! {
        <div class="field">
            <label>
                {label}
                <input
                    type="number"
                    id=id
                    min="0"
                    step=step
                    aria-describedby=help_id.clone()
                    prop:value=move || settings.with(get).to_string()
                    on:input=move |ev| {
                        // Only a changed number is stored, so typing "0." is not rewritten to "0".
                        if let Ok(v) = event_target_value(&ev).trim().parse::<f64>()
                            && settings.with_untracked(get) != v.max(0.0)
                        {
                            settings.update(|s| set(s, v.max(0.0)));
                        }
                    }
                />
            </label>
            <p class="field-help" id=help_id>{field_help(label)}</p>
        </div>
    }
}

/// A text input bound to one field of the settings, with its help under it.
fn text_field(
    label: &'static str,
    id: &'static str,
    settings: RwSignal<CampaignSettings>,
    get: fn(&CampaignSettings) -> String,
    set: fn(&mut CampaignSettings, String),
) -> impl IntoView {
    let help_id = format!("{id}-help");
    view! {
        <div class="field">
            <label>
                {label}
                <input
                    type="text"
                    id=id
                    aria-describedby=help_id.clone()
                    prop:value=move || settings.with(get)
                    on:input=move |ev| settings.update(|s| set(s, event_target_value(&ev)))
                />
            </label>
            <p class="field-help" id=help_id>{field_help(label)}</p>
        </div>
    }
}

/// A multi-line text bound to one field of the settings, with a hint tied to it.
fn text_area(
    label: &'static str,
    id: &'static str,
    hint: &'static str,
    settings: RwSignal<CampaignSettings>,
    get: fn(&CampaignSettings) -> String,
    set: fn(&mut CampaignSettings, String),
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let described = hint_id.clone();
    view! {
        <label>
            {label}
            <textarea id=id rows="12" aria-describedby=described prop:value=move || settings.with(get)
                on:input=move |ev| settings.update(|s| set(s, event_target_value(&ev)))></textarea>
        </label>
        <p class="hint" id=hint_id>{hint}</p>
    }
}

/// The campaign designer: every choice of the design, what it implies while the organizer
/// edits, the HIT builder's objections, and degraded items to check before launch. At
/// `/campaigns/:id/edit` it opens a draft's design and saves it back (a launched campaign
/// cannot be edited: the page says so).
#[component]
pub fn DesignerPage() -> impl IntoView {
    let params = use_params_map();
    let editing = move || params.read().get("id").and_then(|s| s.parse::<i64>().ok());
    let sets = crate::resource::resource(|| (), |_| list_test_sets());
    let name = RwSignal::new(String::new());
    // The first task of the designer's list is chosen until the organizer picks another.
    let task = RwSignal::new(TaskKind::ALL[0]);
    // Which fields the chosen task shows: asked of the task, never read from its name.
    let fields = move || task.get().designer();
    let test_set = RwSignal::new(0i64);
    let reference = RwSignal::new(String::new());
    let systems = RwSignal::new(Vec::<i64>::new());
    let benchmarks = RwSignal::new(Vec::<i64>::new());
    let seed = RwSignal::new(1i64);
    let settings = RwSignal::new(CampaignSettings::default());
    let gate = RwSignal::new(QualityGate::default());
    let create = ServerAction::<CreateCampaign>::new();
    let save = ServerAction::<UpdateCampaign>::new();
    let dry_run = ServerAction::<DryRunDesign>::new();
    // A draft being edited: its design fills the form once it has arrived.
    let existing = crate::resource::blocking_resource(editing, |id| async move {
        match id {
            Some(id) => load_campaign_draft(id).await.map(Some),
            None => Ok(None),
        }
    });
    let loaded = RwSignal::new(false);
    Effect::new(move |_| {
        if loaded.get_untracked() {
            return;
        }
        if let Some(Ok(Some(d))) = existing.get() {
            name.set(d.name);
            // A stored task this release does not know is refused when the draft is read (`load_draft`).
            task.set(d.task);
            test_set.set(d.test_set_id);
            reference.set(d.reference_name.unwrap_or_default());
            systems.set(d.systems);
            benchmarks.set(d.benchmark_systems);
            seed.set(d.seed);
            settings.set(d.settings);
            gate.set(d.gate);
            loaded.set(true);
        }
    });

    let draft = Memo::new(move |_| CampaignDraft {
        name: name.get(),
        task: task.get(),
        test_set_id: test_set.get(),
        reference_name: Some(reference.get()).filter(|r| !r.is_empty()),
        systems: systems.get(),
        benchmark_systems: benchmarks.get(),
        seed: seed.get(),
        settings: settings.get(),
        gate: gate.get(),
    });
    // The chosen test set's details (from the list).
    let chosen = move || -> Option<TestSetInfo> {
        let id = test_set.get();
        sets.get().and_then(|r| r.ok()).and_then(|l| l.into_iter().find(|t| t.id == id))
    };
    // Language names follow the test set; the wording follows the task.
    let reset_wording = move || {
        let kind = task.get_untracked();
        let (src, tgt) = chosen()
            .map(|t| (t.source_name.clone(), t.target_name.clone()))
            .unwrap_or_else(|| ("English".into(), "English".into()));
        settings.update(|s| {
            let fresh = CampaignSettings::for_task(kind, &tgt, &src);
            *s = CampaignSettings {
                redundancy: s.redundancy,
                payment_per_hit: s.payment_per_hit,
                payment_currency: s.payment_currency.clone(),
                time_floor_seconds: s.time_floor_seconds,
                assignment_timeout_minutes: s.assignment_timeout_minutes,
                idle_gap_seconds: s.idle_gap_seconds,
                degradation: s.degradation,
                practice_items: s.practice_items,
                practice_pass: s.practice_pass,
                ..fresh
            };
        });
    };
    // Live implications, computed in the browser.
    let implications = move || {
        let d = draft.get();
        let kind = task.get();
        let max_outputs = chosen()
            .map(|t| t.systems.iter().filter(|s| d.systems.contains(&s.id)).map(|s| s.outputs as usize).max().unwrap_or(0))
            .unwrap_or(0);
        d.settings.implications(kind, d.systems.len(), max_outputs)
    };
    // The server's check (the HIT builder's messages and degraded samples), re-run 400 ms after
    // the last edit.
    let settled = RwSignal::new(draft.get_untracked());
    Effect::new(move |pending: Option<Option<TimeoutHandle>>| {
        let d = draft.get();
        if let Some(Some(handle)) = pending {
            handle.clear();
        }
        set_timeout_with_handle(move || settled.set(d), std::time::Duration::from_millis(400)).ok()
    });
    let check = crate::resource::resource(move || settled.get(), |d| async move {
        if d.test_set_id == 0 {
            Ok(DesignCheck { problems: vec!["choose a test set".into()], ..Default::default() })
        } else {
            check_design(d).await
        }
    });
    // The figures of the HITs as built, once the server's check has built the design as it
    // stands (issue 38: the estimate cannot know a document's length); the estimate meanwhile.
    let built = RwSignal::new(None::<crate::campaign::Implications>);
    Effect::new(move |_| {
        let current = settled.with(|s| s == &draft.get());
        built.set(match check.get() {
            Some(Ok(c)) if current && c.problems.is_empty() && c.evidence.is_some() => Some(c.implications),
            _ => None,
        });
    });
    let shown = move || built.get().unwrap_or_else(implications);
    let navigate = use_navigate();
    let to_status = navigate.clone();
    Effect::new(move |_| {
        if let Some(Ok(id)) = create.value().get() {
            navigate(&format!("/campaigns/{id}"), Default::default());
        }
    });
    Effect::new(move |_| {
        if let (Some(Ok(())), Some(id)) = (save.value().get(), editing()) {
            to_status(&format!("/campaigns/{id}"), Default::default());
        }
    });

    view! {
        <section class="card" id="designer">
            <h1>{move || if editing().is_some() { "Edit a draft campaign" } else { "Design a campaign" }}</h1>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    match existing.await {
                        Err(e) => Some(view! { <p class="error" role="alert" id="edit-error">{error_text(&e)}</p> }.into_any()),
                        Ok(Some(_)) => Some(view! {
                            <p class="hint" id="editing-draft">"You are changing a draft: nothing is handed out until it is launched. Save it, then launch it from its page."</p>
                        }.into_any()),
                        Ok(None) => None,
                    }
                })}
            </Transition>
            <div class="designer-layout">
            <div class="stack designer-form">
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
                <h2>"HITs"</h2>
                <div class="row">
                    {move || fields().documents.then(|| view! {
                        {number_field("Expected minutes per HIT", "hit-minutes", settings, |s| s.documents.hit_minutes, |s, v| s.documents.hit_minutes = v, "1")}
                        {number_field("Or source words per HIT (0: by time)", "hit-words", settings, |s| s.documents.hit_words as f64, |s, v| s.documents.hit_words = v.max(0.0) as usize, "1")}
                        {number_field("Seconds per source word", "seconds-per-word", settings, |s| s.documents.seconds_per_source_word, |s, v| s.documents.seconds_per_source_word = v, "0.1")}
                        {number_field("Documents shown again degraded", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                        {number_field("Documents shown again unchanged", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                        <label>
                            "Document context"
                            <select id="document-context" aria-describedby="esa-design-hint" on:change=move |ev| {
                                let v = event_target_value(&ev);
                                settings.update(|s| s.documents.context = assay_core::settings::DocumentContext::parse(&v).unwrap_or_default());
                            }>
                                <option value="left" selected=move || settings.with(|s| s.documents.context.as_str() == "left")>"the document so far above each segment"</option>
                                <option value="whole" selected=move || settings.with(|s| s.documents.context.as_str() == "whole")>"the whole document, the segment highlighted"</option>
                                <option value="none" selected=move || settings.with(|s| s.documents.context.as_str() == "none")>"the segment alone"</option>
                            </select>
                        </label>
                        {move || fields().document_score.then(|| view! {
                        <label class="check">
                            <input type="checkbox" id="document-score" prop:checked=move || settings.with(|s| s.documents.score)
                                on:change=move |ev| settings.update(|s| s.documents.score = event_target_checked(&ev))/>
                            "Ask for a score of the whole document after its last segment"
                        </label>
                        })}
                        <label class="check">
                            <input type="checkbox" id="show-prefilled" prop:checked=move || settings.with(|s| s.documents.show_prefilled)
                                on:change=move |ev| settings.update(|s| s.documents.show_prefilled = event_target_checked(&ev))/>
                            "Start each screen with the output's pre-filled error spans, where the test set has them (ESA-AI: the annotator keeps, changes or removes them)"
                        </label>
                        <p class="hint" id="esa-design-hint">
                            "A HIT holds whole documents, each one system's translation, one segment per screen, filled up to the expected time "
                            "(source words × seconds per word; WMT 2025 planned an hour at 0.8 s per word). "
                            "Quality control by documents: a document shown again later in the HIT with every segment degraded (a careful annotator marks the damage and scores it lower; the paired test per worker reads these pairs), "
                            "and a document shown again unchanged (consistency). Judgments wanted count how often every document is judged per system."
                        </p>
                    })}
                    {move || fields().mqm.then(|| {
                        let taxonomy_error = RwSignal::new(None::<String>);
                        view! {
                            {number_field("Errors per segment at most (0: no limit)", "mqm-max-errors", settings, |s| s.mqm.max_errors as f64, |s, v| s.mqm.max_errors = v as usize, "1")}
                            <label class="check">
                                <input type="checkbox" id="mqm-critical" prop:checked=move || settings.with(|s| s.mqm.critical)
                                    on:change=move |ev| settings.update(|s| s.mqm.critical = event_target_checked(&ev))/>
                                "Annotators may mark Critical errors"
                            </label>
                            <label class="wide">
                                "Error categories (one per line, Parent/Child)"
                                <textarea id="mqm-taxonomy" rows="8" aria-describedby="mqm-taxonomy-help"
                                    prop:value=move || settings.with(|s| s.mqm.taxonomy.to_text())
                                    on:change=move |ev| {
                                        match assay_core::protocol::mqm::Taxonomy::parse(&event_target_value(&ev)) {
                                            Ok(t) => {
                                                taxonomy_error.set(None);
                                                settings.update(|s| s.mqm.taxonomy = t);
                                            }
                                            Err(e) => taxonomy_error.set(Some(e.to_string())),
                                        }
                                    }></textarea>
                            </label>
                            {move || taxonomy_error.get().map(|e| view! { <p class="error" role="alert" id="mqm-taxonomy-error">{e}</p> })}
                            <p class="hint" id="mqm-taxonomy-help">
                                {move || settings.with(|s| {
                                    let w = &s.mqm.weights;
                                    format!(
                                        "The default list is the MQM core as Google and WMT use it. A segment's score is minus the sum of its errors' weights: major {}, minor {} (minor Fluency/Punctuation {}), critical {}, non-translation {}, neutral and source issues 0.",
                                        w.major, w.minor, w.minor_punctuation, w.critical, w.non_translation
                                    )
                                })}
                            </p>
                        }
                    })}
                    {move || fields().items_per_hit.then(|| view! {
                        {number_field("Items per HIT", "hit-length", settings, |s| s.hit_length as f64, |s, v| s.hit_length = v as usize, "1")}
                    })}
                    {move || fields().ranking.then(|| view! {
                        {number_field("Screens per HIT", "hit-length", settings, |s| s.hit_length as f64, |s, v| s.hit_length = v as usize, "1")}
                        {number_field("Segments per screen", "rank-blocks", settings, |s| s.ranking.blocks_per_screen as f64, |s, v| s.ranking.blocks_per_screen = v as usize, "1")}
                        {number_field("Outputs ranked together", "rank-outputs", settings, |s| s.ranking.outputs as f64, |s, v| s.ranking.outputs = v as usize, "1")}
                        {number_field("Blocks with a degraded copy", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                        {number_field("Repeated screens", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                        {number_field("Gold blocks per HIT (0: off)", "rank-gold-blocks", settings, |s| s.ranking.gold_blocks as f64, |s, v| s.ranking.gold_blocks = v as usize, "1")}
                        {number_field("Gold agreement to pass (0 to 1)", "rank-gold-threshold", settings, |s| s.ranking.gold_threshold, |s, v| s.ranking.gold_threshold = v, "0.05")}
                        {number_field("Least gold pairs for a verdict", "rank-gold-min-pairs", settings, |s| s.ranking.gold_min_pairs as f64, |s, v| s.ranking.gold_min_pairs = v as usize, "1")}
                        <label class="check">
                            <input type="checkbox" id="rank-show-reference" prop:checked=move || settings.with(|s| s.ranking.show_reference)
                                on:change=move |ev| settings.update(|s| s.ranking.show_reference = event_target_checked(&ev))/>
                            "Show the reference under the source"
                        </label>
                        <p class="hint" id="ranking-design-hint">
                            "WMT 2012 ranked 5 outputs of each of 3 consecutive segments per screen. A degraded copy of one output sits in its original's block; a careful annotator ranks it lower (a sign test per worker). A repeated screen comes back later with its outputs in another order. Gold blocks (WMT 2012's controls) show outputs of a segment in an order imported for the test set (POST /api/v1/test-sets/{id}/gold); a worker whose agreement with it on the pairs it orders strictly is below the threshold fails, as one failing the sign test does."
                        </p>
                    })}
                    {move || fields().pairs.then(|| view! {
                        {number_field("Pairs per HIT", "hit-length", settings, |s| s.hit_length as f64, |s, v| s.hit_length = v as usize, "1")}
                        {number_field("Pairs with a degraded copy", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                        {number_field("Repeated pairs", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                        <label class="check">
                            <input type="checkbox" id="pair-show-reference" prop:checked=move || settings.with(|s| s.pairwise.show_reference_or(s.ranking.show_reference))
                                on:change=move |ev| settings.update(|s| s.pairwise.show_reference = Some(event_target_checked(&ev)))/>
                            "Show the reference under the source"
                        </label>
                        <p class="hint" id="pairs-design-hint">
                            "Each pair shows two systems' translations of one source, the side of each drawn per pair. A pair with a degraded copy puts an output against a damaged copy of itself: a careful annotator prefers the original (a sign test per worker; workers who fail it are left out of the ratings). A repeated pair comes back later with its sides swapped."
                        </p>
                    })}
                    {move || fields().item_checks.then(|| view! {
                        {number_field("Bad references", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                        {number_field("Repeats", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                        {number_field("References", "refs", settings, |s| s.refs as f64, |s, v| s.refs = v as usize, "1")}
                        {number_field("Sets", "sets", settings, |s| s.sets as f64, |s, v| s.sets = v as usize, "1")}
                        <label>
                            "Reference items show"
                            <select id="ref-item-reference" aria-describedby="ref-item-help"
                                on:change=move |ev| {
                                    let v = event_target_value(&ev);
                                    settings.update(|s| s.ref_item_reference = Some(v).filter(|v| !v.is_empty()));
                                }>
                                <option value="" selected=move || settings.with(|s| s.ref_item_reference.is_none())>"the reference shown beside each item"</option>
                                {move || chosen().map(|t| {
                                    let main = reference.get();
                                    let first = t.references.first().cloned().unwrap_or_default();
                                    let main = if main.is_empty() { first } else { main };
                                    t.references.into_iter().filter(|r| *r != main).map(|r| {
                                        let value = r.clone();
                                        view! {
                                            <option value=r.clone() selected=move || settings.with(|s| s.ref_item_reference.as_deref() == Some(value.as_str()))>
                                                {format!("a second reference: {r}")}
                                            </option>
                                        }
                                    }).collect_view()
                                })}
                            </select>
                        </label>
                        <p class="hint" id="ref-item-help">
                            {move || fields().reference_item_help}
                        </p>
                    })}
                    {move || fields().permutations.then(|| view! {
                        {number_field("Permuted references", "woj-permutations", settings, |s| s.word_order.permutations as f64, |s, v| s.word_order.permutations = v as usize, "1")}
                        {number_field("Same-reference pairs per kind", "woj-pairs", settings, |s| s.word_order.same_reference_pairs as f64, |s, v| s.word_order.same_reference_pairs = v as usize, "1")}
                        {number_field("Highest degree", "woj-degree", settings, |s| s.word_order.max_degree as f64, |s, v| s.word_order.max_degree = v as usize, "1")}
                    })}
                </div>
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
                <h2>"Quality gate at submission (METHOD §4)"</h2>
                <div class="row">
                    <label>
                        "Completion code"
                        <select id="gate" aria-describedby="gate-help" on:change=move |ev| {
                            let on = event_target_value(&ev) == "require-pass";
                            gate.update(|g| g.mode = if on { GateMode::RequirePass } else { GateMode::Off });
                            // Holding a code needs the gate: without it, hold becomes keep.
                            if !on && settings.with_untracked(|s| s.thin_evidence == ThinEvidence::Hold) {
                                settings.update(|s| s.thin_evidence = ThinEvidence::Keep);
                                gate.update(|g| g.unsure = GateUnsure::Give);
                            }
                        }>
                            <option value="off" selected=move || gate.with(|g| g.mode == GateMode::Off)>"always given (review afterwards)"</option>
                            <option value="require-pass" selected=move || gate.with(|g| g.mode == GateMode::RequirePass)>"only if the worker passes the reliability test"</option>
                        </select>
                    </label>
                    <label>
                        "Workers with too few pairs to test (not enough evidence)"
                        <select id="thin-evidence" aria-describedby="gate-help thin-evidence-help"
                            on:change=move |ev| {
                                let policy = ThinEvidence::parse(&event_target_value(&ev)).unwrap_or_default();
                                settings.update(|s| s.thin_evidence = policy);
                                gate.update(|g| g.unsure = if policy == ThinEvidence::Hold { GateUnsure::Hold } else { GateUnsure::Give });
                            }>
                            {ThinEvidence::ALL.into_iter().map(|t| view! {
                                <option value=t.as_str()
                                    selected=move || settings.with(|s| s.thin_evidence_with(gate.get())) == t
                                    disabled=move || t == ThinEvidence::Hold && gate.with(|g| g.mode == GateMode::Off)>
                                    {t.label()}
                                </option>
                            }).collect_view()}
                        </select>
                    </label>
                </div>
                <p class="hint" id="gate-help">"The worker's reliability (bad references against their originals, pooled over the worker's HITs in this campaign) is computed when each HIT is finished; a held worker sees a neutral thank-you page, never which items were checks."</p>
                <p class="hint" id="thin-evidence-help">"A worker with fewer pairs than the reliability test needs (5) cannot be judged. Keeping them loses nothing paid for; excluding them leaves their judgments out of the scores; holding (with the gate on) waits for your approval before their completion code."</p>
                <h2>"Wording (in the target language)"</h2>
                <div class="row">
                    <label>
                        "Interface language"
                        <select id="interface-language" aria-describedby="interface-language-hint"
                            on:change=move |ev| settings.update(|s| s.interface_language = event_target_value(&ev))>
                            <option value="" selected=move || settings.with(|s| s.interface_language.is_empty())>"automatic"</option>
                            {assay_core::i18n::Lang::ALL
                                .into_iter()
                                .map(|l| view! {
                                    <option value=l.tag() selected=move || settings.with(|s| s.interface_language == l.tag())>{l.own_name()}</option>
                                })
                                .collect_view()}
                        </select>
                    </label>
                </div>
                <p class="hint" id="interface-language-hint">
                    "The annotators' buttons, progress and messages: automatic is the target language when Assay has it (English, German, Czech, Chinese, Japanese, Arabic, Hindi), else the annotator's browser language, else English. "
                    "Wording left at its default below is shown translated into that language; wording you write is shown as written."
                </p>
                <div class="row">
                    {text_field("Title annotators see", "public-title", settings, |s| s.public_title.clone(), |s, v| s.public_title = v)}
                    {text_field("Target language", "target-language", settings, |s| s.target_language.clone(), |s, v| s.target_language = v)}
                    {text_field("Source language", "source-language", settings, |s| s.source_language_name.clone(), |s, v| s.source_language_name = v)}
                    {text_field("Next button", "next-label", settings, |s| s.wording.next_label.clone(), |s, v| s.wording.next_label = v)}
                    <label class="inline">
                        <input type="checkbox" id="allow-skip" prop:checked=move || settings.with(|s| s.allow_skip)
                            on:change=move |ev| settings.update(|s| s.allow_skip = event_target_checked(&ev))/>
                        "Annotators may skip an item"
                    </label>
                </div>
                {text_area(
                    "Instructions page",
                    "instructions",
                    "Shown before a HIT starts and in the Mechanical Turk preview. Plain text: a blank line starts a new paragraph; lines starting with \"- \" make a list. Give examples in the annotators' language.",
                    settings,
                    |s| s.wording.instructions.clone(),
                    |s, v| s.wording.instructions = v,
                )}
                <div class="row">
                    {move || fields().label_source.then(|| view! {
                        {text_field("Label of the source", "label-source", settings, |s| s.wording.label_source.clone(), |s, v| s.wording.label_source = v)}
                    })}
                    {move || fields().label_reference.then(|| view! {
                        {text_field("Label of the reference", "label-reference", settings, |s| s.wording.label_reference.clone(), |s, v| s.wording.label_reference = v)}
                    })}
                    {move || fields().label_candidate.then(|| view! {
                        {text_field("Label of the text to rate", "label-candidate", settings, |s| s.wording.label_candidate.clone(), |s, v| s.wording.label_candidate = v)}
                    })}
                </div>
                {move || fields().practice.then(|| view! {
                    <h2 id="practice-heading">"Practice before the HIT"</h2>
                    <div class="row" role="group" aria-labelledby="practice-heading">
                        {number_field("Practice items (0: none)", "practice-items", settings, |s| s.practice_items as f64, |s, v| s.practice_items = v as usize, "1")}
                        {number_field("Answers that must match to go on", "practice-pass", settings, |s| s.practice_pass as f64, |s, v| s.practice_pass = v as usize, "1")}
                    </div>
                    <p class="hint" id="practice-hint">
                        "Each worker answers these once per campaign, before their first HIT, and reads after each answer what a careful reader would answer and why. "
                        "They are built at launch from segments of the test set set apart from the HITs: a human reference shown as the text to rate (expected high) and a strongly degraded copy of one (expected low). "
                        "With error spans (ESA, MQM), a careful answer marks no major error in the human translation and at least one error in the degraded copy (MQM: a major one). "
                        "They are never stored as judgments. A round with fewer matching answers than asked starts over. For example: 4 items, 3 to match."
                    </p>
                })}
                {move || fields().statement.then(|| view! {
                    {text_field("Statement", "statement", settings, |s| s.wording.statement.clone(), |s, v| s.wording.statement = v)}
                    <div class="row">
                        {text_field("Left anchor", "anchor-low", settings, |s| s.wording.anchor_low.clone(), |s, v| s.wording.anchor_low = v)}
                        {text_field("Right anchor", "anchor-high", settings, |s| s.wording.anchor_high.clone(), |s, v| s.wording.anchor_high = v)}
                    </div>
                })}
                {move || fields().two_questions.then(|| view! {
                    {text_field("Question 1", "woj-q1", settings, |s| s.wording.woj_question1.clone(), |s, v| s.wording.woj_question1 = v)}
                    <div class="row">
                        {text_field("Q1 left", "woj-low1", settings, |s| s.wording.woj_low1.clone(), |s, v| s.wording.woj_low1 = v)}
                        {text_field("Q1 right", "woj-high1", settings, |s| s.wording.woj_high1.clone(), |s, v| s.wording.woj_high1 = v)}
                    </div>
                    {text_field("Question 2", "woj-q2", settings, |s| s.wording.woj_question2.clone(), |s, v| s.wording.woj_question2 = v)}
                    <div class="row">
                        {text_field("Q2 left", "woj-low2", settings, |s| s.wording.woj_low2.clone(), |s, v| s.wording.woj_low2 = v)}
                        {text_field("Q2 right", "woj-high2", settings, |s| s.wording.woj_high2.clone(), |s, v| s.wording.woj_high2 = v)}
                        <div class="field">
                        <label>
                            "Scales"
                            <select id="woj-scale" aria-describedby="woj-scale-help" on:change=move |ev| settings.update(|s| s.word_order.scale = event_target_value(&ev))>
                                <option value="boxes" selected=move || settings.with(|s| s.word_order.scale != "sliders")>"two 5-point scales"</option>
                                <option value="sliders" selected=move || settings.with(|s| s.word_order.scale == "sliders")>"two 0–100 sliders"</option>
                            </select>
                        </label>
                        <p class="field-help" id="woj-scale-help">"How annotators answer both questions: five labelled boxes, or a slider with no number."</p>
                        </div>
                    </div>
                })}
                // On a phone the summary comes after the form: this line stays in sight at the
                // bottom of the screen meanwhile (hidden from screen readers, which have the
                // summary itself).
                <p class="design-bar" aria-hidden="true">
                    {move || {
                        let i = shown();
                        format!("{} HITs · {} assignments · {:.2} · {:.0} min per HIT", i.hits, i.assignments, i.cost, i.minutes_per_hit)
                    }}
                </p>
            </div>
            // Beside the form on a wide window, sticky while the organizer scrolls; under it
            // on a phone.
            <aside class="design-summary" aria-labelledby="implications-heading">
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
                <p class="row">
                    {move || match editing() {
                        None => Either::Left(view! {
                            <button class="primary" id="create-campaign" on:click=move |_| { create.dispatch(CreateCampaign { draft: draft.get_untracked() }); }
                                disabled=move || create.pending().get()>
                                "Create campaign"
                            </button>
                        }),
                        Some(id) => Either::Right(view! {
                            <button class="primary" id="save-draft" on:click=move |_| { save.dispatch(UpdateCampaign { campaign_id: id, draft: draft.get_untracked() }); }
                                disabled=move || save.pending().get() || !loaded.get()>
                                "Save the draft"
                            </button>
                            <A href=format!("/campaigns/{id}") attr:class="button">"Back without saving"</A>
                        }),
                    }}
                </p>
                {move || match create.value().get() {
                    Some(Err(e)) => Some(view! { <p class="error" role="alert" id="create-error">{error_text(&e)}</p> }),
                    _ => None,
                }}
                {move || match save.value().get() {
                    Some(Err(e)) => Some(view! { <p class="error" role="alert" id="save-error">{error_text(&e)}</p> }),
                    _ => None,
                }}
            </aside>
            </div>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    check.await.ok().map(|c| view! { <DegradedPreview samples=c.samples/> })
                })}
            </Transition>
            <DryRun draft run=dry_run/>
        </section>
    }
}

/// The dry run: the design simulated with a crowd of a chosen mix before launch, and what it
/// would buy (interval widths, pairs told apart, workers removed by quality control).
/// The dry run's action, shared by its section and the designer's check panel.
type DryRunAction = ServerAction<DryRunDesign>;

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

#[cfg(test)]
mod tests {
    /// Every number and text field of the campaign and study designers has plain-language help
    /// (issue 18 item 8), found by reading the designers' source for the fields they use.
    #[test]
    fn every_designer_field_has_help() {
        let mut labels = Vec::new();
        for source in [include_str!("pages.rs"), include_str!("../study/pages.rs")] {
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
        let page = include_str!("pages.rs");
        for t in crate::model::TaskKind::ALL {
            let literal = format!("\"{}\"", t.as_str());
            assert!(!page.contains(&literal), "the page names the task {literal}");
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
                    <label class="check">
                        <input type="checkbox" id="accept-thin-evidence" prop:checked=move || settings.with(|s| s.accept_thin_evidence)
                            on:change=move |ev| settings.update(|s| s.accept_thin_evidence = event_target_checked(&ev))/>
                        "I know: launch this design anyway"
                    </label>
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
                            Ok(t) => Either::Left(view! { <td class="degraded" data-label="Damaged copy">{t}</td> }),
                            Err(e) => Either::Right(view! { <td class="error" data-label="Damaged copy">{e}</td> }),
                        }}
                        <td class="hint" data-label="What changed">{s.change}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    })
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
