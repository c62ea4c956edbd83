//! Server functions of the campaign stage. Each checks who asks, calls the domain, returns.

#[cfg(feature = "ssr")]
use crate::auth::Role;
use crate::campaign::{
    CampaignDraft, CampaignInfo, CampaignProgress, DesignCheck, HitItemView, LaunchSummary, QueueEntry, TestSetInfo,
};
use leptos::prelude::*;
use leptos::server_fn::codec::Json;

#[cfg(feature = "ssr")]
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::web;
#[cfg(feature = "ssr")]
use crate::campaign::{assign, launch, status, store};

/// Test sets with their references and systems (organizers).
#[server(endpoint = "list_test_sets")]
pub async fn list_test_sets() -> Result<Vec<TestSetInfo>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    let mut sets = store::list_test_sets(&state.db).await?;
    sets.retain(|t| visible.test_set(t.id));
    Ok(sets)
}

/// What a draft implies, what stops it and degraded samples; stores nothing (organizers).
#[server(endpoint = "check_design", input = Json)]
pub async fn check_design(draft: CampaignDraft) -> Result<DesignCheck, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let reachable = web::teams::reaches(&state.db, &user, web::Owned::TestSet(draft.test_set_id)).await?;
    Ok(launch::check_design_as(&state.db, &draft, reachable).await?)
}

/// The dry run of a draft: the design simulated with a crowd of the given mix and systems of
/// the given spread, analysed each time; what the design would buy (organizers).
#[server(endpoint = "dry_run_design", input = Json)]
pub async fn dry_run_design(
    draft: CampaignDraft,
    crowd: assay_core::report::DryRunCrowd,
) -> Result<assay_core::report::DryRunReport, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let reachable = web::teams::reaches(&state.db, &user, web::Owned::TestSet(draft.test_set_id)).await?;
    Ok(launch::dry_run_as(&state.db, &draft, &crowd, reachable).await?)
}

/// Stores a draft campaign (refused, with the reason, if its design cannot be built).
#[server(endpoint = "create_campaign", input = Json)]
pub async fn create_campaign(draft: CampaignDraft) -> Result<i64, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    // The campaign belongs to its test set's team, which must be the caller's.
    if !web::teams::reaches(&state.db, &user, web::Owned::TestSet(draft.test_set_id)).await? {
        return Err(launch::unreachable_test_set(&state.db, &draft).await.into());
    }
    Ok(launch::create_campaign(&state.db, &draft, user.id).await?)
}

/// A draft campaign's design, to edit it in the designer (organizers; refused for a launched
/// campaign or a study's).
#[server(endpoint = "campaign_draft")]
pub async fn load_campaign_draft(campaign_id: i64) -> Result<CampaignDraft, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(launch::load_draft(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?)
}

/// Replaces a draft campaign's design (checked as a new one is; refused for a launched
/// campaign) (organizers).
#[server(endpoint = "update_campaign", input = Json)]
pub async fn update_campaign(campaign_id: i64, draft: CampaignDraft) -> Result<(), ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    if !web::teams::reaches(&state.db, &user, web::Owned::TestSet(draft.test_set_id)).await? {
        launch::load_draft(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?;
        return Err(launch::unreachable_test_set(&state.db, &draft).await.into());
    }
    Ok(launch::update_campaign(&state.db, campaign_id, &draft).await.map_err(|e| e.in_argument("campaign_id"))?)
}

/// Builds and stores the HITs of a draft campaign; work can be handed out afterwards. A design
/// whose HITs cannot give a worker the reliability test's minimum of pairs is refused
/// (`accept_thin_evidence`, with the consequence in words) unless it says "I know".
#[server(endpoint = "launch_campaign")]
pub async fn launch_campaign(campaign_id: i64) -> Result<LaunchSummary, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(launch::launch_campaign_checked(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?)
}

/// Every campaign (organizers).
#[server(endpoint = "list_campaigns")]
pub async fn list_campaigns() -> Result<Vec<CampaignInfo>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    let mut campaigns = status::list_campaigns(&state.db).await?;
    campaigns.retain(|c| visible.campaign(c.id));
    Ok(campaigns)
}

/// Progress of a campaign and its signed crowd link (organizers; the status page polls it).
#[server(endpoint = "campaign_progress")]
pub async fn fetch_progress(campaign_id: i64) -> Result<CampaignProgress, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(status::progress(&state.db, campaign_id, &state.settings.public_url, &state.secret)
        .await
        .map_err(|e| e.in_argument("campaign_id"))?)
}

/// The words of the signed-in annotator's home page, in the browser's language (its
/// `Accept-Language`; English if the catalog has none of its languages).
#[server(endpoint = "annotator_home_words")]
pub async fn annotator_home_words() -> Result<super::HomeWords, ServerFnError> {
    web::require(Role::Annotator)?;
    let lang = web::accept_language().as_deref().and_then(assay_core::i18n::Lang::from_accept_language).unwrap_or_default();
    Ok(super::home_words(lang))
}

/// Campaigns with work for the signed-in annotator.
#[server(endpoint = "my_queue")]
pub async fn my_queue() -> Result<Vec<QueueEntry>, ServerFnError> {
    let user = web::require(Role::Annotator)?;
    let state = web::app_state()?;
    Ok(status::queue(&state.db, user.id).await?)
}

/// Resumes or claims a HIT of a campaign for the signed-in annotator; returns the assignment's
/// public id (the page then opens `/work/{id}`).
#[server(endpoint = "start_campaign_hit")]
pub async fn start_campaign_hit(campaign_id: i64) -> Result<String, ServerFnError> {
    let user = web::require(Role::Annotator)?;
    let state = web::app_state()?;
    let worker = assign::worker_for_user(&state.db, user.id).await?;
    match assign::next_assignment(&state.db, campaign_id, worker, None).await.map_err(|e| e.in_argument("campaign_id"))? {
        Some(a) => Ok(a.public_id),
        None => Err(AppError::invalid("campaign_id", "There is no HIT for you in this campaign right now.").into()),
    }
}

/// The stored items of one HIT with their types, pairs and what was changed (organizers only:
/// an annotator must never see an item's type).
#[server(endpoint = "hit_items")]
pub async fn hit_items(campaign_id: i64, hit_index: i64) -> Result<Vec<HitItemView>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await?;
    Ok(status::hit_items(&state.db, campaign_id, hit_index).await?)
}

/// Blocks (or unblocks) a crowd worker by platform (`mturk`, `prolific`, `link`) and the
/// platform's worker id: a blocked worker is given no more HITs (organizers).
#[server(endpoint = "set_worker_blocked")]
pub async fn set_worker_blocked(platform: String, external_id: String, blocked: bool) -> Result<(), ServerFnError> {
    web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let platform = match platform.as_str() {
        "mturk" => assign::Platform::MTurk,
        "prolific" => assign::Platform::Prolific,
        "link" => assign::Platform::Link,
        other => return Err(AppError::invalid("platform", format!("{other:?} is not a crowd platform (mturk, prolific or link)")).into()),
    };
    let worker = assign::crowd_worker(&state.db, platform, &external_id).await?;
    Ok(assign::set_blocked(&state.db, worker, blocked).await?)
}

/// A campaign's active time and words per active hour, with the median worker's pay per active
/// hour (organizers).
#[server(endpoint = "campaign_active_time")]
pub async fn campaign_active_time(campaign_id: i64) -> Result<crate::campaign::pace::ActiveTime, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(crate::campaign::pace::active_time(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?)
}

/// The teams the signed-in account may put new work in (id, name), first the default one it
/// gets: its own teams, or every team for an admin (researchers and up).
#[server(endpoint = "my_teams")]
pub async fn my_teams() -> Result<Vec<(i64, String)>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    let all = crate::auth::teams::team_names(&state.db).await?;
    if user.role >= Role::Admin {
        return Ok(all);
    }
    let mine = crate::auth::teams::team_ids_of(&state.db, user.id).await?;
    Ok(all.into_iter().filter(|(id, _)| mine.contains(id)).collect())
}

/// An adaptive campaign's live state: pairs still open, judgments spent, expected remaining
/// cost, the anytime-valid decisions (researchers and up of the campaign's team, who read its
/// results: the results page shows them). `None` for a campaign
/// that is not adaptive.
#[server(endpoint = "campaign_adaptive")]
pub async fn campaign_adaptive(campaign_id: i64) -> Result<Option<crate::campaign::adaptive::AdaptiveView>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(launch::adaptive::view(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id"))?)
}
