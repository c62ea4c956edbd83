//! Server functions of the results stage. Each checks who asks, runs the pipeline, returns rows.

#[cfg(feature = "ssr")]
use crate::auth::Role;
#[cfg(feature = "ssr")]
use crate::web;
#[cfg(feature = "ssr")]
use crate::results::ResultsOptions;
use crate::results::{ResultsView, WorkersView};
use leptos::prelude::*;

/// System scores, significance and clusters of a campaign under the chosen METHOD §5 settings
/// (researchers, organizers, admins).
#[server(endpoint = "campaign_results")]
pub async fn campaign_results(
    campaign_id: i64,
    exclude_ref: bool,
    exclude_bad_ref: bool,
    per_segment: bool,
    wilcoxon: bool,
) -> Result<ResultsView, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    let options = ResultsOptions { exclude_ref, exclude_bad_ref, per_segment, wilcoxon };
    // An unknown campaign is the argument's fault here (400), as the page has always been told.
    let a = crate::results::build::run(&state.db, campaign_id, options).await.map_err(|e| e.in_argument("campaign_id"))?;
    let mut view = crate::results::build::results_view(&a, options);
    if !view.groups.is_empty() && crate::results::metrics::server::offered(&state.db, campaign_id).await? {
        view.metric_export_files = assay_core::metrics::report::EXPORT_FILES.iter().map(|f| f.to_string()).collect();
    }
    Ok(view)
}

/// One page of a campaign's workers with quality-control figures (organizers): `page` (from 1,
/// default 1) of `per_page` rows (default 50, at most 200), sorted by `sort` (`worker`, the
/// default, `verdict`, `p` or `flags`) in `order` (`asc`, the default, or `desc`), of the workers
/// whose id contains `search` (any case), with the verdict `verdict` (`pass`, `fail`,
/// `not-enough-evidence`, `excluded`) if given, with flags `flag` (`any`, `none`, or a kind: `fast`,
/// `identical`, `bad-not-lower`, `low-ref`, `sessions`) if given; with the counts per verdict and
/// per flag of the whole campaign and what the bulk decisions would do.
#[server(endpoint = "campaign_workers")]
#[allow(clippy::too_many_arguments)]
pub async fn campaign_workers(
    campaign_id: i64,
    wilcoxon: bool,
    #[server(default)] page: Option<usize>,
    #[server(default)] per_page: Option<usize>,
    #[server(default)] sort: Option<String>,
    #[server(default)] order: Option<String>,
    #[server(default)] search: Option<String>,
    #[server(default)] verdict: Option<String>,
    #[server(default)] flag: Option<String>,
) -> Result<WorkersView, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    let options = ResultsOptions { wilcoxon, ..ResultsOptions::default() };
    let query = crate::results::WorkersQuery::from_params(page, per_page, sort.as_deref(), order.as_deref(), search.as_deref(), verdict.as_deref(), flag.as_deref())
        .map_err(|(field, problem)| crate::error::AppError::invalid(field, problem))?;
    Ok(crate::results::decisions::workers_page(&state.db, campaign_id, options, &query).await.map_err(|e| e.in_argument("campaign_id"))?)
}

/// Records the organizer's decision about a worker of a campaign: `approve`, `reject` (reason
/// required), `block`, `unblock`, or `bonus` (amount in the campaign's currency and a reason).
/// `session` names the worker's platform session the decision is for (empty: every session;
/// required, or `all`, when the worker id arrived with several). Returns what was done
/// (organizers).
#[server(endpoint = "decide_worker")]
pub async fn decide_worker(
    campaign_id: i64,
    worker: String,
    #[server(default)] session: String,
    decision: String,
    reason: String,
    amount: String,
) -> Result<String, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    Ok(crate::results::decisions::decide(&state.db, &state.secret, campaign_id, &worker, &session, &decision, &reason, &amount, user.id)
        .await
        .map_err(|e| e.in_argument("campaign_id"))?)
}

/// Approves every worker who passed (`approve-passed`) or rejects every worker who failed
/// (`reject-failed`, with one `reason`) the reliability test (`wilcoxon` as on the page), in one
/// transaction; `expected` is the number of workers the organizer confirmed (refused, changing
/// nothing, when another number is to be decided now). Workers decided so already are left
/// alone; those whose id arrived with several platform sessions are left out. Returns what was
/// done (organizers).
#[server(endpoint = "bulk_decide_workers")]
pub async fn bulk_decide_workers(
    campaign_id: i64,
    wilcoxon: bool,
    action: String,
    #[server(default)] reason: String,
    expected: usize,
) -> Result<String, ServerFnError> {
    let user = web::require(Role::Organizer)?;
    let state = web::app_state()?;
    web::require_in_team(&state.db, &user, web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    let options = ResultsOptions { wilcoxon, ..ResultsOptions::default() };
    Ok(crate::results::decisions::bulk_decide(&state.db, &state.secret, campaign_id, options, &action, &reason, expected, user.id)
        .await
        .map_err(|e| e.in_argument("campaign_id"))?)
}

/// Launched campaigns with their judgment counts, to pick one to read (researchers and up).
#[server(endpoint = "results_campaigns")]
pub async fn results_campaigns() -> Result<Vec<crate::results::ResultsEntry>, ServerFnError> {
    let user = web::require(Role::Researcher)?;
    let state = web::app_state()?;
    let visible = web::Visible::of(&state.db, &user).await?;
    let mut list = crate::results::build::list(&state.db).await?;
    list.retain(|c| visible.campaign(c.id));
    Ok(list)
}
