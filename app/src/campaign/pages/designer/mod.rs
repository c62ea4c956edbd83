//! The campaign designer, one section a file: the fields every protocol has ([`common`]), the
//! fields the chosen protocol asks for ([`protocol`]), quality control ([`quality`]), the
//! wording and practice ([`wording`]), the calculator, check and dry run ([`calculator`]), and
//! creating or saving the draft ([`launch`]). This file holds the design's state and lays the
//! sections out.

use leptos_router::hooks::{use_navigate, use_params_map};

use crate::auth::error_text;
use crate::campaign::api::{CreateCampaign, DryRunDesign, UpdateCampaign, check_design, load_campaign_draft, list_test_sets};
use crate::campaign::{CampaignDraft, CampaignSettings, DesignCheck, QualityGate, TestSetInfo};
use crate::model::TaskKind;
use leptos::prelude::*;

mod calculator;
mod common;
mod launch;
mod protocol;
mod quality;
mod wording;

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
                {common::identity_fields(name, task, sets, test_set, reference, systems, benchmarks, chosen, reset_wording)}
                {protocol::hit_fields(task, settings, chosen, reference)}
                {common::volume_fields(task, settings)}
                {common::payment_fields(task, settings, seed)}
                {quality::gate_fields(settings, gate)}
                {wording::wording_fields(task, settings)}
                {wording::practice_fields(task, settings)}
                {protocol::protocol_wording(task, settings)}
                {calculator::design_bar(shown)}
            </div>
            // Beside the form on a wide window, sticky while the organizer scrolls; under it
            // on a phone.
            <aside class="design-summary" aria-labelledby="implications-heading">
                {calculator::implications(built, shown, check, settings, dry_run)}
                {launch::launch_buttons(editing, create, save, draft, loaded)}
            </aside>
            </div>
            {calculator::preview_and_dry_run(check, draft, dry_run)}
        </section>
    }
}

