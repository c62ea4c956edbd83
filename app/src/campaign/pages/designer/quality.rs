//! The designer's quality control at submission: the gate on the completion code, and what
//! becomes of a worker with too few pairs to test.

use assay_core::settings::ThinEvidence;

use crate::campaign::{CampaignSettings, GateMode, GateUnsure, QualityGate};
use leptos::prelude::*;

/// The quality gate's fields and their help.
pub(super) fn gate_fields(settings: RwSignal<CampaignSettings>, gate: RwSignal<QualityGate>) -> impl IntoView {
    view! {
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
    }
}
