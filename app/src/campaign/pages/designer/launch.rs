//! The designer's last step: create the campaign (a draft), or save the draft being edited.

use leptos::either::Either;
use leptos_router::components::A;

use crate::auth::error_text;
use crate::campaign::CampaignDraft;
use crate::campaign::api::{CreateCampaign, UpdateCampaign};
use leptos::prelude::*;

/// The create or save button (with the way back when editing), and what went wrong.
pub(super) fn launch_buttons(
    editing: impl Fn() -> Option<i64> + Copy + Send + Sync + 'static,
    create: ServerAction<CreateCampaign>,
    save: ServerAction<UpdateCampaign>,
    draft: Memo<CampaignDraft>,
    loaded: RwSignal<bool>,
) -> impl IntoView {
    view! {
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
    }
}
