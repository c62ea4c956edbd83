//! Server functions of the annotation screens. Each checks who asks and calls `annotate::server`.
//!
//! The ones a worker uses (`work_state`, `start_work`, `practice_answer`, `practice_spans`, `practice_ranks`, `submit_judgment`, `submit_screen`, `submit_spans`) are open to whoever
//! may work on the assignment: its account's session, or — for crowd assignments — whoever
//! holds its public id. The organizer's views need the Organizer role.

use super::{AssignmentSummary, CodeCheck, JudgmentRecord, MyAssignment, PracticeFeedback, Step, WorkState};
#[cfg(feature = "ssr")]
use crate::auth::Role;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::web;
#[cfg(feature = "ssr")]
use super::server as work;

/// A domain refusal as a server function error: through the one mapping of
/// [`crate::error`] (status and message).
#[cfg(feature = "ssr")]
fn refuse(e: work::WorkError) -> ServerFnError {
    crate::error::AppError::from(e).into()
}

/// A refusal to the annotator of `assignment`, in the interface language of its pages (issue 18
/// item 3).
#[cfg(feature = "ssr")]
async fn refuse_annotator(state: &crate::state::AppState, assignment: &str, e: work::WorkError) -> ServerFnError {
    let lang = work::interface_lang_of(&state.db, assignment, super::accept_language().as_deref()).await;
    e.in_language(lang).into()
}

/// The annotation cache of this server process (a request extension, see `server::Work`).
#[cfg(feature = "ssr")]
fn cache() -> Result<std::sync::Arc<work::Work>, ServerFnError> {
    use_context::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<std::sync::Arc<work::Work>>().cloned())
        .ok_or_else(|| ServerFnError::new("no annotation cache"))
}

#[cfg(feature = "ssr")]
fn caller() -> Option<i64> {
    web::current_session().map(|s| s.user.id)
}

/// The work page: the campaign's screen and where the worker is in the HIT.
#[server(endpoint = "load_work")]
pub async fn load_work(assignment: String) -> Result<WorkState, ServerFnError> {
    let state = web::app_state()?;
    let cache = cache()?;
    match work::work_state_in(&state.db, &cache, &state.secret, caller(), &assignment, super::accept_language().as_deref()).await {
        Ok(s) => Ok(s),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// Leaves the instructions page and returns the first item (or the current one).
#[server(endpoint = "start_work")]
pub async fn start_work(assignment: String) -> Result<Step, ServerFnError> {
    let state = web::app_state()?;
    let cache = cache()?;
    match work::start(&state.db, &cache, &state.secret, caller(), &assignment).await {
        Ok(s) => Ok(s),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// Stores the answer to the current item; returns the next item, or the completion code after
/// the last one. DA: `score` 0–100. Word order: `score` and `score2`, each 0, .25, .5, .75 or 1
/// (boxes) or 0–1 (sliders). `key` identifies the attempt: a retry sends the same key.
/// `active_ms`: of the time on screen, the time the page was in use (optional).
#[allow(clippy::too_many_arguments)]
#[server(endpoint = "submit_judgment")]
pub async fn submit_judgment(
    assignment: String,
    position: i64,
    #[server(default)] score: Option<f64>,
    #[server(default)] score2: Option<f64>,
    #[server(default)] skipped: bool,
    time_on_screen_ms: i64,
    key: String,
    #[server(default)] active_ms: Option<i64>,
) -> Result<Step, ServerFnError> {
    let state = web::app_state()?;
    let answer = work::Answer { position, score, score2, skipped, time_on_screen_ms, active_ms, idempotency_key: key, detail: Default::default() };
    let cache = cache()?;
    match work::submit(&state.db, &cache, &state.secret, caller(), &assignment, &answer).await {
        Ok(s) => Ok(s),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// Checks a practice answer (before Start) against what a careful reader would answer and
/// says why; stores only the worker's progress through the practice, never a judgment. DA:
/// `score` 0–100; word order: `score` and `score2` as for [`submit_judgment`].
#[server(endpoint = "practice_answer")]
pub async fn practice_answer(
    assignment: String,
    position: i64,
    score: Option<f64>,
    #[server(default)] score2: Option<f64>,
) -> Result<PracticeFeedback, ServerFnError> {
    let state = web::app_state()?;
    let given = work::PracticeGiven { score, score2, ..Default::default() };
    match work::practice_answer_in(&state.db, caller(), &assignment, position, given, super::accept_language().as_deref()).await {
        Ok(f) => Ok(f),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// [`practice_answer`] for an error-span task (ESA, MQM): the error spans marked in the practice
/// item's translation (as for [`submit_spans`]) and, for ESA, the 0–100 score.
#[server(endpoint = "practice_spans", input = server_fn::codec::Json)]
pub async fn practice_spans(
    assignment: String,
    position: i64,
    score: Option<f64>,
    spans: Vec<assay_core::protocol::Span>,
) -> Result<PracticeFeedback, ServerFnError> {
    let state = web::app_state()?;
    let given = work::PracticeGiven { score, spans, ..Default::default() };
    match work::practice_answer_in(&state.db, caller(), &assignment, position, given, super::accept_language().as_deref()).await {
        Ok(f) => Ok(f),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// [`practice_answer`] for a practice screen of several outputs ranked (relative ranking): a
/// rank per output, in the screen's order (1 best; equal outputs share a rank).
#[server(endpoint = "practice_ranks", input = server_fn::codec::Json)]
pub async fn practice_ranks(assignment: String, position: i64, ranks: Vec<u32>) -> Result<PracticeFeedback, ServerFnError> {
    let state = web::app_state()?;
    let given = work::PracticeGiven { ranks, ..Default::default() };
    match work::practice_answer_in(&state.db, caller(), &assignment, position, given, super::accept_language().as_deref()).await {
        Ok(f) => Ok(f),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// Stores the answer to the current segment of an error-span task (ESA): its error spans
/// (offsets in characters of the translation shown, end exclusive; omissions with `missing`),
/// its 0–100 score and, with a document's last segment when the campaign asks for it, the
/// document's score. Returns the next step, as [`submit_judgment`] does.
#[allow(clippy::too_many_arguments)]
#[server(endpoint = "submit_spans", input = server_fn::codec::Json)]
pub async fn submit_spans(
    assignment: String,
    position: i64,
    score: Option<f64>,
    spans: Vec<assay_core::protocol::Span>,
    #[server(default)] document_score: Option<f64>,
    time_on_screen_ms: i64,
    key: String,
    #[server(default)] active_ms: Option<i64>,
) -> Result<Step, ServerFnError> {
    let state = web::app_state()?;
    let detail = assay_core::protocol::Detail { spans, document_score, ..Default::default() };
    let answer = work::Answer { position, score, score2: None, skipped: false, time_on_screen_ms, active_ms, idempotency_key: key, detail };
    let cache = cache()?;
    work::submit(&state.db, &cache, &state.secret, caller(), &assignment, &answer).await.map_err(refuse)
}

/// Stores the answer to the current item of a post-editing task: the corrected text (or "no
/// change needed"), with the times the screen measured. The server computes the edit rate
/// from the text it showed. Returns the next step, as [`submit_judgment`] does.
#[server(endpoint = "submit_post_edit", input = server_fn::codec::Json)]
pub async fn submit_post_edit(
    assignment: String,
    position: i64,
    post_edit: assay_core::protocol::postedit::PostEdit,
    time_on_screen_ms: i64,
    key: String,
    #[server(default)] active_ms: Option<i64>,
) -> Result<Step, ServerFnError> {
    let state = web::app_state()?;
    let detail = assay_core::protocol::Detail { post_edit: Some(post_edit), ..Default::default() };
    let answer = work::Answer { position, score: None, score2: None, skipped: false, time_on_screen_ms, active_ms, idempotency_key: key, detail };
    let cache = cache()?;
    work::submit(&state.db, &cache, &state.secret, caller(), &assignment, &answer).await.map_err(refuse)
}

/// One translation's rank on a ranking screen (declared with the shared types: the screens send it).
pub use super::RankAnswer;

/// Stores the ranks of every translation on the current screen (relative ranking), all or
/// nothing; returns the next screen, or the completion code after the last one. `key`
/// identifies the attempt: a retry sends the same key.
#[server(endpoint = "submit_screen", input = server_fn::codec::Json)]
pub async fn submit_screen(
    assignment: String,
    #[server(default)] ranks: Vec<RankAnswer>,
    time_on_screen_ms: i64,
    key: String,
    #[server(default)] active_ms: Option<i64>,
    // A screen that scores each output (contrastive ESA) sends each output's spans and score
    // instead of ranks.
    #[server(default)] outputs: Vec<super::ScoredOutput>,
) -> Result<Step, ServerFnError> {
    let state = web::app_state()?;
    let cache = cache()?;
    if ranks.len() > 100 || outputs.len() > 100 {
        return Err(refuse(work::WorkError::Invalid("A screen has at most 100 translations.".into())));
    }
    let answers = outputs
        .into_iter()
        .enumerate()
        .map(|(i, o)| work::Answer {
            position: o.position,
            score: Some(o.score),
            score2: None,
            skipped: false,
            time_on_screen_ms: 0,
            active_ms: None,
            idempotency_key: format!("{key}#{i}"),
            detail: assay_core::protocol::Detail { spans: o.spans, ..Default::default() },
        })
        .collect();
    let screen = work::ScreenAnswer { ranks: ranks.into_iter().map(|r| (r.position, r.rank)).collect(), answers, time_on_screen_ms, active_ms, idempotency_key: key };
    match work::submit_screen(&state.db, &cache, &state.secret, caller(), &assignment, &screen).await {
        Ok(s) => Ok(s),
        Err(e) => Err(refuse_annotator(&state, &assignment, e).await),
    }
}

/// The signed-in account's HITs (home page).
#[server(endpoint = "my_assignments")]
pub async fn my_assignments() -> Result<Vec<MyAssignment>, ServerFnError> {
    let user = web::require(Role::Annotator)?;
    let state = web::app_state()?;
    work::my_assignments(&state.db, user.id).await.map_err(refuse)
}

/// Verifies a completion code: `GET /api/verify_completion_code?code=…`. Anyone may ask
/// whether a code is valid (a crowd platform's server, a worker); only organizers learn which
/// assignment it belongs to. A GET, so that a platform's server can call it without the
/// browser-only CSRF headers. The platform's ids of the worker who presents it are required
/// (`workerId` and `assignmentId` for Mechanical Turk, `PROLIFIC_PID` and `SESSION_ID` for
/// Prolific, `worker` for a plain link; the session's only when the HIT was started in one):
/// the code is valid only if they are its assignment's, so a code passed on is not, and a code
/// alone is not valid. Organizers of the code's campaign (and admins) may verify without them.
#[server(endpoint = "verify_completion_code", input = server_fn::codec::GetUrl)]
pub async fn verify_completion_code(
    code: String,
    #[server(default)]
    #[server(rename = "workerId")]
    mturk_worker: Option<String>,
    #[server(default)]
    #[server(rename = "assignmentId")]
    mturk_assignment: Option<String>,
    #[server(default)]
    #[server(rename = "PROLIFIC_PID")]
    prolific_worker: Option<String>,
    #[server(default)]
    #[server(rename = "SESSION_ID")]
    prolific_session: Option<String>,
    #[server(default)]
    #[server(rename = "worker")]
    link_worker: Option<String>,
) -> Result<CodeCheck, ServerFnError> {
    let state = web::app_state()?;
    let claim = work::CodeClaim { mturk_worker, mturk_assignment, prolific_worker, prolific_session, link_worker };
    let mut check = work::verify_code(&state.db, &state.secret, &code, &claim).await.map_err(refuse)?;
    // Organizers of the code's campaign's team (and admins) learn whose it is, and need not
    // give the worker's ids (a genuine code comes back with its assignment).
    let organizer = match (web::current_session(), check.assignment.as_deref()) {
        (Some(s), Some(a)) if s.user.role >= Role::Organizer => web::teams::reaches(&state.db, &s.user, web::Owned::Assignment(a)).await?,
        _ => false,
    };
    if organizer {
        check.valid = true;
    } else {
        check.assignment = None;
        check.campaign_name = None;
        check.completed_at = None;
    }
    Ok(check)
}

/// Every assignment with its progress (organizers).
#[server(endpoint = "list_assignments")]
pub async fn list_assignments() -> Result<Vec<AssignmentSummary>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    let mut all = work::all_assignments(&state.db).await.map_err(refuse)?;
    all.retain(|a| visible.campaign(a.campaign_id));
    Ok(all)
}

/// The judgments stored for an assignment, with each item's type and system (organizers).
#[server(endpoint = "assignment_judgments")]
pub async fn assignment_judgments(assignment: String) -> Result<Vec<JudgmentRecord>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Assignment(&assignment)).await?;
    work::judgments_of(&state.db, &assignment).await.map_err(refuse)
}

/// An item of a HIT with its hidden facts (organizers).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemFacts {
    pub position: i64,
    pub item_type: String,
    pub system: Option<String>,
    /// Relative ranking: an output of a gold block, with its expected rank.
    #[serde(default)]
    pub gold_rank: Option<i64>,
    /// Pairwise preference: the pair's second system (`system` is its output a), the output
    /// shown on the left (`a`/`b`) and, for a degraded copy against its original, the side that
    /// is the copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_system: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_left: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_degraded: Option<String>,
}

/// The items of an assignment's HIT with their types and systems (organizers).
#[server(endpoint = "assignment_items")]
pub async fn assignment_items(assignment: String) -> Result<Vec<ItemFacts>, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Assignment(&assignment)).await?;
    let items = work::items_of(&state.db, &assignment).await.map_err(refuse)?;
    Ok(items
        .into_iter()
        .map(|(position, item_type, system, gold_rank, pair_system, pair_left, pair_degraded)| ItemFacts {
            position,
            item_type,
            system,
            gold_rank,
            pair_system,
            pair_left,
            pair_degraded,
        })
        .collect())
}
