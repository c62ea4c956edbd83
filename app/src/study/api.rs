//! Server functions of comparison studies. Each checks who asks, calls the domain, returns.

#[cfg(feature = "ssr")]
use crate::auth::Role;
#[cfg(feature = "ssr")]
use crate::web;
use crate::study::{PairHistory, StudyCheck, StudyDraft, StudyInfo, StudyView};
use leptos::prelude::*;
use leptos::server_fn::codec::Json;

/// HITs per arm of a study design, or what stops it; stores nothing (organizers).
#[server(endpoint = "check_study", input = Json)]
pub async fn check_study(draft: StudyDraft) -> Result<StudyCheck, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    Ok(crate::study::store::check_study(&state.db, &draft, &|id| visible.test_set(id)).await)
}

/// Stores a study and one draft campaign per (language pair, task) (organizers).
#[server(endpoint = "create_study", input = Json)]
pub async fn create_study(draft: StudyDraft) -> Result<i64, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    Ok(crate::study::store::create_study(&state.db, &draft, user.id, &|id| visible.test_set(id)).await?)
}

/// Builds the HITs of every draft campaign of a study (organizers).
#[server(endpoint = "launch_study")]
pub async fn launch_study(study_id: i64) -> Result<Vec<(String, usize)>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    // An unknown study (or another team's) is the argument's fault here (400), as the page has
    // always been told.
    web::require_in_team(&state.db, &user, web::Owned::Study(study_id)).await.map_err(|e| e.in_argument("study_id"))?;
    Ok(crate::study::store::launch_study(&state.db, study_id).await.map_err(|e| e.in_argument("study_id"))?)
}

/// Every study with its campaigns (researchers and up).
#[server(endpoint = "list_studies")]
pub async fn list_studies() -> Result<Vec<StudyInfo>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    let mut studies = crate::study::store::list_studies(&state.db).await?;
    studies.retain(|s| visible.study(s.id));
    Ok(studies)
}

/// A study's calibrated gains with intervals, significance and time line (researchers and up).
#[server(endpoint = "study_results")]
pub async fn study_results(study_id: i64) -> Result<StudyView, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Study(study_id)).await.map_err(|e| e.in_argument("study_id"))?;
    Ok(crate::study::build::study_view(&state.db, study_id).await.map(|(v, _)| v).map_err(|e| e.in_argument("study_id"))?)
}

/// Every system's score in every campaign, per language pair and task (researchers and up).
#[server(endpoint = "study_history")]
pub async fn study_history() -> Result<Vec<PairHistory>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    Ok(crate::study::build::history_of(&state.db, &|id| visible.campaign(id)).await?)
}
