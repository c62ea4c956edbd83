//! The designer's fields a protocol asks for (`TaskKind::designer`, never read from its name):
//! what a HIT holds and its quality-control items, and the protocol's own wording.

use super::super::fields::{check_field, number_field, text_field};
use crate::campaign::{CampaignSettings, TestSetInfo};
use crate::model::TaskKind;
use leptos::prelude::*;

/// The "HITs" section: the fields of the chosen protocol's HITs (documents, MQM's errors, items,
/// ranking screens, pairs, quality-control items, word order's permutations).
pub(super) fn hit_fields(
    task: RwSignal<TaskKind>,
    settings: RwSignal<CampaignSettings>,
    chosen: impl Fn() -> Option<TestSetInfo> + Copy + Send + Sync + 'static,
    reference: RwSignal<String>,
) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
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
                        {move || fields().document_score.then(|| check_field("Ask for a score of the whole document after its last segment", "document-score", settings, |s| s.documents.score, |s, v| s.documents.score = v))}
                        {check_field("Start each screen with the output's pre-filled error spans, where the test set has them (ESA-AI: the annotator keeps, changes or removes them)", "show-prefilled", settings, |s| s.documents.show_prefilled, |s, v| s.documents.show_prefilled = v)}
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
                            {check_field("Annotators may mark Critical errors", "mqm-critical", settings, |s| s.mqm.critical, |s, v| s.mqm.critical = v)}
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
                        {check_field("Show the reference under the source", "rank-show-reference", settings, |s| s.ranking.show_reference, |s, v| s.ranking.show_reference = v)}
                        <p class="hint" id="ranking-design-hint">
                            "WMT 2012 ranked 5 outputs of each of 3 consecutive segments per screen. A degraded copy of one output sits in its original's block; a careful annotator ranks it lower (a sign test per worker). A repeated screen comes back later with its outputs in another order. Gold blocks (WMT 2012's controls) show outputs of a segment in an order imported for the test set (POST /api/v1/test-sets/{id}/gold); a worker whose agreement with it on the pairs it orders strictly is below the threshold fails, as one failing the sign test does."
                        </p>
                    })}
                    {move || fields().pairs.then(|| view! {
                        {number_field("Pairs per HIT", "hit-length", settings, |s| s.hit_length as f64, |s, v| s.hit_length = v as usize, "1")}
                        {number_field("Pairs with a degraded copy", "bad-refs", settings, |s| s.bad_refs as f64, |s, v| s.bad_refs = v as usize, "1")}
                        {number_field("Repeated pairs", "repeats", settings, |s| s.repeats as f64, |s, v| s.repeats = v as usize, "1")}
                        {check_field("Show the reference under the source", "pair-show-reference", settings, |s| s.pairwise.show_reference_or(s.ranking.show_reference), |s, v| s.pairwise.show_reference = Some(v))}
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
    }
}

/// The protocol's own wording: DA's statement and anchors, word order's two questions.
pub(super) fn protocol_wording(task: RwSignal<TaskKind>, settings: RwSignal<CampaignSettings>) -> impl IntoView {
    let fields = move || task.get().designer();
    view! {
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
    }
}
