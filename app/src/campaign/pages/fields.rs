//! The form fields of the designers (the campaign's and the study's): inputs bound to one field
//! of the settings, each with its help in the organizer's words.

use crate::campaign::CampaignSettings;
use leptos::prelude::*;

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

/// A checkbox bound to one flag of the settings, its words beside it.
pub(crate) fn check_field(
    label: &'static str,
    id: &'static str,
    settings: RwSignal<CampaignSettings>,
    get: fn(&CampaignSettings) -> bool,
    set: fn(&mut CampaignSettings, bool),
) -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" id=id prop:checked=move || settings.with(get)
                on:change=move |ev| settings.update(|s| set(s, event_target_checked(&ev)))/>
            {label}
        </label>
    }
}

/// A text input bound to one field of the settings, with its help under it.
pub(crate) fn text_field(
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
pub(crate) fn text_area(
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

