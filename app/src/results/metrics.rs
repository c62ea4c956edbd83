//! Human judgments against metrics for one campaign (`/campaigns/:id/metrics`, researchers and
//! up; issue 21): the campaign's human scores (mean z per system, per segment, from the one
//! campaign → analysis path) against the built-in BLEU, chrF and chrF++ computed on the
//! campaign's own texts, through `assay_core::metrics::meta::meta_evaluate`, the same as
//! `assay metrics evaluate` on the campaign's `analysis.json`.

use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use serde::{Deserialize, Serialize};

/// A correlation with its p-value and bootstrap interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub value: Option<f64>,
    pub p_value: Option<f64>,
    pub interval: Option<(f64, f64)>,
}

/// One metric at system level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemMetricRow {
    pub metric: String,
    pub pearson: Figure,
    pub spearman: Figure,
    pub kendall: Figure,
    /// Agreeing system pairs, of all pairs.
    pub pairwise_accuracy: Option<(f64, usize, usize)>,
    pub soft_pairwise_accuracy: Option<f64>,
    /// Randomized tests between systems on this metric against the humans' (Graham & Liu
    /// 2014): (share of system pairs with the same verdict, agreeing pairs, pairs).
    pub significance_agreement: Option<(f64, usize, usize)>,
}

/// One metric at segment level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SegmentMetricRow {
    pub metric: String,
    pub n: usize,
    pub kendall_b: Figure,
    pub pearson: Figure,
    /// WMT's Kendall-like τ on DArr pairs (human scores at least 25 apart, mt-metrics-eval's rule).
    pub darr_tau: Option<f64>,
    /// acc_eq with tie calibration: accuracy and the ε chosen.
    pub acc_eq: Option<(f64, f64)>,
}

/// One language pair's meta-evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsPairView {
    pub pair: String,
    pub systems: Vec<String>,
    pub system_rows: Vec<SystemMetricRow>,
    /// Williams test between metrics (row metric correlates better than column metric).
    pub williams_svg: Option<String>,
    pub clusters_williams: Vec<Vec<String>>,
    pub clusters_perm_both: Vec<Vec<String>>,
    pub segment_rows: Vec<SegmentMetricRow>,
    /// (metric, its system scores against the humans').
    pub scatter_svgs: Vec<(String, String)>,
    pub notes: Vec<String>,
}

/// The page: what was compared, and each language pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsView {
    pub campaign: String,
    pub human: String,
    pub computed_at_ms: i64,
    pub stored_judgments: i64,
    /// (metric, the signature it was computed with).
    pub signatures: Vec<(String, String)>,
    pub pairs: Vec<MetricsPairView>,
    /// Why there is nothing to compare, when there is not.
    pub empty_reason: Option<String>,
    /// The metrics uploaded for the campaign (they join the built-in ones in every table).
    pub uploaded: Vec<super::uploaded::UploadedInfo>,
}

/// The campaign's human scores against the built-in metrics (researchers and up).
#[server(endpoint = "campaign_metrics")]
pub async fn campaign_metrics(campaign_id: i64) -> Result<MetricsView, ServerFnError> {
    let user = crate::web::require(crate::auth::Role::Researcher)?;
    let state = crate::web::app_state()?;
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(campaign_id)).await.map_err(|e| e.in_argument("campaign_id"))?;
    server::view(&state.db, campaign_id).await.map_err(|e| e.in_argument("campaign_id").into())
}

/// Deletes a metric uploaded for the campaign, with its scores (researchers and up); returns
/// its name.
#[server(endpoint = "delete_campaign_metric")]
pub async fn delete_campaign_metric(campaign_id: i64, metric_id: i64) -> Result<String, ServerFnError> {
    let user = crate::web::require(crate::auth::Role::Researcher)?;
    let state = crate::web::app_state()?;
    // Another team's campaign is answered as one without that metric (as a missing campaign is).
    if !crate::web::teams::reaches(&state.db, &user, crate::web::Owned::Campaign(campaign_id)).await? {
        return Err(crate::error::AppError::invalid("metric_id", format!("campaign {campaign_id} has no uploaded metric with id {metric_id}")).into());
    }
    Ok(super::uploaded::delete(&state.db, campaign_id, metric_id).await?)
}

#[cfg(feature = "ssr")]
pub mod server {
    use super::*;
    use crate::analysis::campaign::CampaignAnalysis;
    use crate::db::Db;
    use crate::error::{AppError, AppResult, StorageContext};
    use assay_core::metrics::builtin::{SystemOutputs, builtin_scores};
    use assay_core::metrics::meta::{CorrelationReport, MetaReport, MetaSettings, meta_evaluate};
    use assay_core::metrics::read::{AssayScore, read_analysis_json};
    use assay_core::plots;
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};

    /// The texts the built-in metrics read: the campaign's test set in order, its reference
    /// (the one the campaign shows), and the outputs of the systems the humans judged.
    async fn texts(db: &Db, campaign_id: i64, systems: &[String]) -> AppResult<(String, Vec<String>, Vec<Option<String>>, Vec<SystemOutputs>)> {
        let context = || format!("reading the texts of campaign {campaign_id}");
        let (test_set, reference, target): (i64, Option<String>, String) = sqlx::query_as(
            "SELECT c.test_set_id, c.reference_name, t.target_lang FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
        )
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(context)?
        .ok_or_else(|| AppError::not_found(format!("there is no campaign with id {campaign_id}")))?;
        let segments: Vec<(i64, String)> = sqlx::query_as("SELECT id, segment_key FROM segments WHERE test_set_id = $1 ORDER BY position")
            .bind(test_set)
            .fetch_all(&db.pool)
            .await
            .with_context(context)?;
        let at: HashMap<i64, usize> = segments.iter().enumerate().map(|(i, (id, _))| (*id, i)).collect();
        let reference = match reference {
            Some(r) => Some(r),
            None => sqlx::query_scalar(
                "SELECT MIN(r.name) FROM segment_references r JOIN segments s ON s.id = r.segment_id WHERE s.test_set_id = $1",
            )
            .bind(test_set)
            .fetch_one(&db.pool)
            .await
            .with_context(context)?,
        };
        let mut references = vec![None; segments.len()];
        if let Some(name) = &reference {
            let rows = crate::campaign::launch::reference_texts(db, test_set, name).await?;
            for (segment, text) in rows {
                if let Some(&i) = at.get(&segment) {
                    references[i] = Some(text);
                }
            }
        }
        let rows: Vec<(String, i64, String)> = sqlx::query_as(
            "SELECT sy.name, o.segment_id, o.text FROM system_outputs o JOIN systems sy ON sy.id = o.system_id \
             JOIN segments s ON s.id = o.segment_id WHERE s.test_set_id = $1",
        )
        .bind(test_set)
        .fetch_all(&db.pool)
        .await
        .with_context(context)?;
        let mut outputs: Vec<SystemOutputs> =
            systems.iter().map(|s| SystemOutputs { system: s.clone(), outputs: vec![None; segments.len()] }).collect();
        let index: HashMap<&str, usize> = systems.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
        for (system, segment, text) in rows {
            if let (Some(&k), Some(&i)) = (index.get(system.as_str()), at.get(&segment)) {
                if !text.trim().is_empty() {
                    outputs[k].outputs[i] = Some(text);
                }
            }
        }
        Ok((target, segments.into_iter().map(|(_, key)| key).collect(), references, outputs))
    }

    fn figure(c: &CorrelationReport) -> Figure {
        Figure { value: c.value, p_value: c.p_value, interval: c.interval.as_ref().map(|i| (i.lower, i.upper)) }
    }

    /// The page's rows and plots from a meta-evaluation.
    pub fn pairs_view(report: &MetaReport) -> Vec<MetricsPairView> {
        report
            .pairs
            .iter()
            .map(|p| {
                let mut v = MetricsPairView {
                    pair: p.pair.clone(),
                    systems: Vec::new(),
                    system_rows: Vec::new(),
                    williams_svg: None,
                    clusters_williams: Vec::new(),
                    clusters_perm_both: Vec::new(),
                    segment_rows: Vec::new(),
                    scatter_svgs: Vec::new(),
                    notes: p.notes.clone(),
                };
                if let Some(s) = &p.system_level {
                    v.systems = s.systems.clone();
                    v.system_rows = s
                        .metrics
                        .iter()
                        .map(|m| SystemMetricRow {
                            metric: m.metric.clone(),
                            pearson: figure(&m.pearson),
                            spearman: figure(&m.spearman),
                            kendall: figure(&m.kendall),
                            pairwise_accuracy: m.pairwise_accuracy.as_ref().map(|a| (a.accuracy, a.agree, a.pairs)),
                            soft_pairwise_accuracy: m.soft_pairwise_accuracy,
                            significance_agreement: m.significance_agreement.as_ref().map(|a| (a.share, a.agree, a.pairs)),
                        })
                        .collect();
                    let names: Vec<&str> = s.williams.metrics.iter().map(String::as_str).collect();
                    if names.len() >= 2 {
                        v.williams_svg = Some(plots::heatmap_titled(
                            &names,
                            &s.williams.p,
                            "Row metric correlates significantly better with the humans than column metric (Williams test, system-level Pearson)",
                            "Row metric better than column",
                        ));
                    }
                    v.clusters_williams = s.clusters_williams.clone();
                    v.clusters_perm_both = s.clusters_perm_both.clone();
                    v.scatter_svgs = s
                        .metrics
                        .iter()
                        .map(|m| {
                            let points: Vec<(&str, f64, f64)> =
                                s.systems.iter().zip(&m.scores).zip(&s.human).map(|((n, &x), &y)| (n.as_str(), x, y)).collect();
                            (m.metric.clone(), plots::labelled_scatter(&points, &m.metric, &format!("humans ({})", report.human)))
                        })
                        .collect();
                }
                if let Some(s) = &p.segment_level {
                    v.segment_rows = s
                        .metrics
                        .iter()
                        .map(|m| SegmentMetricRow {
                            metric: m.metric.clone(),
                            n: m.n,
                            kendall_b: figure(&m.kendall_b),
                            pearson: figure(&m.pearson),
                            darr_tau: m.darr_kendall.as_ref().map(|d| d.tau),
                            acc_eq: m.acc_eq.as_ref().map(|a| (a.accuracy, a.epsilon)),
                        })
                        .collect();
                }
                v
            })
            .collect()
    }

    type Key = (u64, i64, i64, i64, (i64, i64));
    type Report = Arc<(MetaReport, Vec<(String, String)>)>;
    static CACHE: OnceLock<Mutex<HashMap<Key, Report>>> = OnceLock::new();

    /// The campaign's meta-evaluation: the human scores of its analysis (default settings, as
    /// the results page first shows them) against the built-in metrics and the metrics
    /// uploaded for it; kept while the campaign's analysis and its uploaded metrics are
    /// unchanged.
    pub async fn evaluate(db: &Db, campaign_id: i64) -> AppResult<(Arc<CampaignAnalysis>, Option<Report>, Option<String>)> {
        let a = crate::results::build::run(db, campaign_id, crate::results::ResultsOptions::default()).await?;
        let uploaded_version = super::super::uploaded::version(db, campaign_id).await?;
        let key: Key = (db.id, campaign_id, a.computed_at_ms, a.stored_judgments, uploaded_version);
        let cache = CACHE.get_or_init(Default::default);
        if let Some(hit) = cache.lock().map_err(|_| AppError::internal("the metrics cache is poisoned"))?.get(&key).cloned() {
            return Ok((a, Some(hit), None));
        }
        // Read only when not cached (a study arm is never cached).
        if crate::analysis::db::is_study_arm(&mut *db.pool.acquire().await.context("reading a study arm")?, campaign_id).await? {
            return Ok((a, None, Some("A comparison study's arm mixes two test sets; compare metrics on each test set's own campaigns.".into())));
        }
        let json = serde_json::to_string(&a.result).map_err(|e| AppError::internal(format!("cannot write the analysis: {e}")))?;
        let humans = match read_analysis_json("analysis.json", &json, AssayScore::Z) {
            Ok(h) => h,
            Err(_) => return Ok((a, None, Some("No human scores yet: they appear once workers who pass quality control have finished HITs.".into()))),
        };
        let human = humans.into_iter().next().expect("read_analysis_json returns scores or an error");
        let systems: Vec<String> = human.pairs.values().flat_map(|p| p.system_scores().into_keys()).collect();
        let (target, ids, references, outputs) = texts(db, campaign_id, &systems).await?;
        let pair = human.pairs.keys().next().cloned().unwrap_or_default();
        let uploaded = super::super::uploaded::scores(db, campaign_id, &pair, &ids).await?;
        let has_reference = references.iter().any(Option::is_some);
        if !has_reference && uploaded.is_empty() {
            return Ok((
                a,
                None,
                Some("The campaign's test set has no reference, so BLEU and chrF cannot be computed; upload a metric's scores to compare it with the humans.".into()),
            ));
        }
        let report = tokio::task::spawn_blocking(move || -> AppResult<(MetaReport, Vec<(String, String)>)> {
            let (mut metrics, mut signatures) = (Vec::new(), Vec::new());
            if has_reference {
                let builtin = builtin_scores(&pair, &target, &ids, &references, &outputs).map_err(|e| AppError::internal(e.to_string()))?;
                signatures = builtin.iter().map(|(m, s)| (m.name.clone(), s.clone())).collect();
                metrics = builtin.into_iter().map(|(m, _)| m).collect();
            }
            metrics.extend(uploaded);
            Ok((meta_evaluate(&human, &metrics, &MetaSettings::default()), signatures))
        })
        .await
        .map_err(|e| AppError::internal(format!("the meta-evaluation failed: {e}")))??;
        let report = Arc::new(report);
        let mut c = cache.lock().map_err(|_| AppError::internal("the metrics cache is poisoned"))?;
        if c.len() >= 8 {
            c.clear();
        }
        c.insert(key, report.clone());
        Ok((a, Some(report), None))
    }

    /// Whether the campaign has metrics to compare with its human scores (cheap: no
    /// evaluation): not a study arm, and a reference for the built-in metrics or an uploaded
    /// metric.
    pub async fn offered(db: &Db, campaign_id: i64) -> AppResult<bool> {
        if crate::analysis::db::is_study_arm(&mut *db.pool.acquire().await.context("reading a study arm")?, campaign_id).await? {
            return Ok(false);
        }
        if super::super::uploaded::version(db, campaign_id).await?.0 > 0 {
            return Ok(true);
        }
        let references: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM segment_references r JOIN segments s ON s.id = r.segment_id JOIN campaigns c ON c.test_set_id = s.test_set_id WHERE c.id = $1",
        )
        .bind(campaign_id)
        .fetch_one(&db.pool)
        .await
        .with_context(|| format!("reading the references of campaign {campaign_id}"))?;
        Ok(references > 0)
    }

    /// The page's view.
    pub async fn view(db: &Db, campaign_id: i64) -> AppResult<MetricsView> {
        let (a, report, empty_reason) = evaluate(db, campaign_id).await?;
        let uploaded = crate::results::uploaded::list(db, campaign_id).await?;
        Ok(MetricsView {
            uploaded,
            campaign: a.info.name.clone(),
            human: report.as_ref().map_or_else(String::new, |r| r.0.human.clone()),
            computed_at_ms: a.computed_at_ms,
            stored_judgments: a.stored_judgments,
            signatures: report.as_ref().map(|r| r.1.clone()).unwrap_or_default(),
            pairs: report.as_ref().map(|r| pairs_view(&r.0)).unwrap_or_default(),
            empty_reason,
        })
    }
}

fn num(v: Option<f64>, digits: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        _ => "–".into(),
    }
}

fn p_text(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < 0.0001 => "< 0.0001".into(),
        Some(p) => format!("{p:.4}"),
    }
}

fn with_interval(f: &Figure) -> String {
    match f.interval {
        Some((a, b)) => format!("{} [{}, {}]", num(f.value, 3), num(Some(a), 3), num(Some(b), 3)),
        None => num(f.value, 3),
    }
}

/// `/campaigns/:id/metrics`.
#[component]
pub fn MetricsPage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = move || params.with(|p| p.get("id").and_then(|v| v.parse::<i64>().ok()).unwrap_or(0));
    let delete = ServerAction::<DeleteCampaignMetric>::new();
    let view = crate::resource::blocking_resource(move || (id(), delete.version().get()), |(id, _)| campaign_metrics(id));
    view! {
        <section class="card results" id="metrics">
            <Transition fallback=|| view! { <p aria-live="polite">"Computing the metrics and comparing them with the human scores…"</p> }>
                {move || view.get().map(|r| match r {
                    Err(e) => Either::Left(view! { <p class="error" role="alert">{crate::auth::error_text(&e)}</p> }),
                    Ok(v) => Either::Right(view! { <MetricsBody v campaign_id=id()/> }),
                })}
            </Transition>
        </section>
        <section class="card" id="metric-upload" aria-labelledby="metric-upload-title">
            <h2 id="metric-upload-title">"Upload a metric's scores"</h2>
            <p class="hint" id="metric-upload-help">
                "mt-metrics-eval files ("<code>"LP/METRIC-REF.sys.score"</code>" and "<code>"LP/METRIC-REF.seg.score"</code>
                "; a file named without its folder is the campaign's language pair's"
                ": SYSTEM<TAB>SCORE lines, a segment file listing every segment of the test set in order for each system, "<code>"None"</code>
                " where there is no score), or TSV/JSONL with the columns system, score and optionally segment (the test set's segment ids), metric, pair. "
                "Systems must be the campaign's. Nothing is saved unless every file is valid; the metric then joins BLEU and chrF in every table above."
            </p>
            <form method="post" action=move || format!("/api/v1/campaigns/{}/metrics", id()) enctype="multipart/form-data" class="stack" id="metric-upload-form">
                <label>
                    "Metric name (only for TSV or JSONL without a metric column)"
                    <input type="text" name="name" placeholder="COMET-22" maxlength="100"/>
                </label>
                <label>
                    {move || if query.read().get("error").is_some() { "Files (choose them again: a browser never keeps a chosen file after sending it)" } else { "Files" }}
                    <input type="file" name="file" multiple=true required=true aria-describedby="metric-upload-help"/>
                </label>
                <button type="submit" class="primary">"Upload"</button>
            </form>
            {move || query.read().get("done").map(|d| view! { <p class="notice" id="metric-upload-done" role="status">{d}</p> })}
            {move || query.read().get("error").map(|e| view! {
                <div class="error" role="alert" id="metric-upload-errors">
                    <p>"Nothing was uploaded:"</p>
                    <ul>{e.lines().map(|l| view! { <li>{l.to_string()}</li> }).collect_view()}</ul>
                </div>
            })}
            <h3>"Uploaded metrics"</h3>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || view.get().map(|r| match r {
                    Ok(v) if !v.uploaded.is_empty() => Either::Left(view! { <UploadedTable list=v.uploaded campaign_id=id() delete/> }),
                    _ => Either::Right(view! { <p class="empty" id="metric-uploaded-none">"None yet."</p> }),
                })}
            </Transition>
            {move || delete.value().get().map(|r| match r {
                Ok(name) => Either::Left(view! { <p class="notice" role="status" id="metric-deleted">{format!("Deleted {name}.")}</p> }),
                Err(e) => Either::Right(view! { <p class="error" role="alert">{crate::auth::error_text(&e)}</p> }),
            })}
        </section>
    }
}

#[component]
fn UploadedTable(list: Vec<super::uploaded::UploadedInfo>, campaign_id: i64, delete: ServerAction<DeleteCampaignMetric>) -> impl IntoView {
    view! {
        <div class="table-scroll" role="region" aria-label="Uploaded metrics" tabindex="0">
        <table class="data" id="metric-uploaded">
            <thead><tr>
                <th scope="col">"Metric"</th><th scope="col">"Files"</th><th scope="col">"System scores"</th>
                <th scope="col">"Segment scores"</th><th scope="col">"Uploaded"</th><th scope="col"><span class="visually-hidden">"Delete"</span></th>
            </tr></thead>
            <tbody>
                {list.into_iter().map(|m| {
                    let (metric_id, name) = (m.id, m.name.clone());
                    view! {
                        <tr data-metric=m.name.clone()>
                            <th scope="row">{m.name.clone()}</th>
                            <td data-label="Files">{m.files.join(", ")}</td>
                            <td class="num" data-label="System scores">{m.system_scores}</td>
                            <td class="num" data-label="Segment scores">{m.segment_scores}</td>
                            <td data-label="Uploaded">{format!("{}{}", crate::results::utc_time(m.uploaded_at_ms), m.uploaded_by.map(|b| format!(" by {b}")).unwrap_or_default())}</td>
                            <td>
                                <button type="button" aria-label=format!("Delete {name}")
                                    disabled=move || delete.pending().get()
                                    on:click=move |_| { delete.dispatch(DeleteCampaignMetric { campaign_id, metric_id }); }>
                                    "Delete"
                                </button>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
        </div>
    }
}

#[component]
fn MetricsBody(v: MetricsView, campaign_id: i64) -> impl IntoView {
    let uploaded: Vec<String> = v.uploaded.iter().map(|m| m.name.clone()).collect();
    view! {
        <h1>"Metrics: " {v.campaign.clone()}</h1>
        <p class="hint">
            <a href=format!("/campaigns/{campaign_id}/results")>"Results"</a> " · "
            <a href=format!("/campaigns/{campaign_id}")>"Campaign status"</a> " · "
            <a href="#metric-upload">"Upload a metric's scores"</a>
        </p>
        <p class="hint" id="metrics-what">
            {format!(
                "The humans' mean z per system and per segment (workers quality control keeps; computed {} from {} judgments) \
                 against BLEU, chrF and chrF++ computed on the campaign's texts and the reference it shows{}.",
                crate::results::utc_time(v.computed_at_ms),
                v.stored_judgments,
                if uploaded.is_empty() { String::new() } else { format!(", and the uploaded {}", uploaded.join(", ")) }
            )}
        </p>
        {v.empty_reason.clone().map(|r| view! { <p class="empty" id="metrics-empty">{r}</p> })}
        {(!v.signatures.is_empty()).then(|| view! {
            <ul class="hint" id="metric-signatures">
                {v.signatures.iter().map(|(m, s)| view! { <li>{format!("{m}: {s}")}</li> }).collect_view()}
            </ul>
        })}
        {v.pairs.into_iter().map(|p| view! { <MetricsPair p/> }).collect_view()}
    }
}

#[component]
fn MetricsPair(p: MetricsPairView) -> impl IntoView {
    let systems = p.systems.len();
    view! {
        <section class="group" data-lang-pair=p.pair.clone()>
            <h2>{format!("{} · system level ({systems} systems)", p.pair)}</h2>
            <div class="table-scroll" role="region" aria-label="System-level correlations" tabindex="0">
            <table class="data" id="metrics-system">
                <caption>"Correlation of each metric's system scores with the humans', with 95% bootstrap intervals over segments; the last column: system pairs on which a randomized test (approximate randomization, one-sided, α 0.05) on the metric reaches the humans' verdict."</caption>
                <thead><tr>
                    <th scope="col">"Metric"</th><th scope="col">"Pearson r"</th><th scope="col">"p"</th>
                    <th scope="col">"Spearman ρ"</th><th scope="col">"Kendall τ"</th>
                    <th scope="col">"Pairwise accuracy"</th><th scope="col">"Soft pairwise accuracy"</th>
                    <th scope="col">"Agrees with the humans' significance"</th>
                </tr></thead>
                <tbody>
                    {p.system_rows.into_iter().map(|r| view! {
                        <tr data-metric=r.metric.clone()>
                            <th scope="row">{r.metric.clone()}</th>
                            <td class="num" data-label="Pearson r">{with_interval(&r.pearson)}</td>
                            <td class="num" data-label="p">{p_text(r.pearson.p_value)}</td>
                            <td class="num" data-label="Spearman ρ">{with_interval(&r.spearman)}</td>
                            <td class="num" data-label="Kendall τ">{with_interval(&r.kendall)}</td>
                            <td class="num" data-label="Pairwise accuracy">{r.pairwise_accuracy.map_or("–".into(), |(a, k, n)| format!("{a:.3} ({k} of {n})"))}</td>
                            <td class="num" data-label="Soft pairwise accuracy">{num(r.soft_pairwise_accuracy, 3)}</td>
                            <td class="num" data-label="Agrees with the humans' significance">{r.significance_agreement.map_or("–".into(), |(a, k, n)| format!("{a:.3} ({k} of {n})"))}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            {match p.williams_svg {
                Some(svg) => Either::Left(view! {
                    <h3>"Is one metric significantly better? (Williams test)"</h3>
                    <div class="figure" id="williams" inner_html=svg></div>
                }),
                None => Either::Right(()),
            }}
            {(!p.clusters_williams.is_empty()).then(|| view! {
                <p id="metric-clusters">{format!(
                    "Metrics the Williams test cannot tell apart, best first: {}.",
                    p.clusters_williams.iter().map(|c| c.join(" = ")).collect::<Vec<_>>().join(" > ")
                )}</p>
            })}
            <h3>"Metric against human scores"</h3>
            <div class="figures">
                {p.scatter_svgs.into_iter().map(|(m, svg)| view! { <div class="figure scatter-metric" data-metric=m inner_html=svg></div> }).collect_view()}
            </div>
            <h2>{format!("{} · segment level", p.pair)}</h2>
            <div class="table-scroll" role="region" aria-label="Segment-level correlations" tabindex="0">
            <table class="data" id="metrics-segment">
                <thead><tr>
                    <th scope="col">"Metric"</th><th scope="col">"Scores"</th><th scope="col">"Kendall τ-b"</th>
                    <th scope="col">"Pearson r"</th><th scope="col">"DArr τ (WMT)"</th><th scope="col">"acc_eq (ε)"</th>
                </tr></thead>
                <tbody>
                    {p.segment_rows.into_iter().map(|r| view! {
                        <tr data-metric=r.metric.clone()>
                            <th scope="row">{r.metric.clone()}</th>
                            <td class="num" data-label="Scores">{r.n}</td>
                            <td class="num" data-label="Kendall τ-b">{with_interval(&r.kendall_b)}</td>
                            <td class="num" data-label="Pearson r">{with_interval(&r.pearson)}</td>
                            <td class="num" data-label="DArr τ (WMT)">{num(r.darr_tau, 3)}</td>
                            <td class="num" data-label="acc_eq (ε)">{r.acc_eq.map_or("–".into(), |(a, e)| format!("{a:.3} ({e:.3})"))}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            {(!p.notes.is_empty()).then(|| view! {
                <details><summary>"Notes"</summary><ul>{p.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul></details>
            })}
        </section>
    }
}
