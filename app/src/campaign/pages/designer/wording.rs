//! The designer's wording: the interface language, the texts annotators read, the labels the
//! chosen protocol shows, and practice before the HIT.

use super::super::fields::{number_field, text_area, text_field};
use crate::campaign::CampaignSettings;
use crate::model::TaskKind;
use leptos::prelude::*;

/// The interface language, the title, languages, buttons, instructions and labels.
pub(super) fn wording_fields(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
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
    }
}

/// Practice before the HIT, where the protocol has it.
pub(super) fn practice_fields(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
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
                        "With several translations on a screen (pairwise preference, ranking), a screen shows a human reference beside its degraded copy, in an order drawn per item: a careful answer prefers the original (ranks it above the copy). "
                        "They are never stored as judgments. A round with fewer matching answers than asked starts over. For example: 4 items, 3 to match."
                    </p>
                })}
    }
}
