//! `GET /studies/{id}/export`: one `.tar.gz` with everything behind a study's page
//! (researchers and up):
//!
//! - `judgments.csv`: every judgment of every arm, with its worker's quality-control verdict
//!   (excluded workers' judgments are kept and marked, never dropped);
//! - `gains.csv` and `gains.json`: the calibrated gains (raw and z, per pair and the mean) with
//!   intervals and p-values;
//! - `timeline-<task>.svg`: the time-line plot of each task;
//! - `manifest.json`: the study, its campaigns and their settings and seeds, the bootstrap's
//!   settings, the Assay version and every file with its size and SHA-256.
//!
//! Self-contained on purpose ([`study_archive`] is a pure function of the computed study), so
//! it can later share the manifest writer of the general campaign exports.

use super::build::{self, ArmResult};
use super::{GainRow, StudyView};
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::campaign::launch::load_campaign;
use crate::db::Db;
use crate::error::{AppError, AppResult};
use crate::state::AppState;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The export route.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new().route("/studies/{id}/export", get(export))
}

async fn export(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: axum::http::HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let user = match crate::web::api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await {
        Ok(u) => u,
        Err(refused) => return refused.into_response(),
    };
    let Ok(id) = id.parse::<i64>() else {
        return AppError::invalid("id", format!("{id:?} is not a study id")).into_response();
    };
    // Another team's study is refused as a missing one.
    if let Err(e) = crate::web::require_in_team(&state.db, &user, crate::web::Owned::Study(id)).await {
        return e.in_argument("id").into_response();
    }
    // An unknown study has always been a 400 here; failures are 500 and logged.
    match archive(&state.db, id).await.map_err(|e| e.in_argument("id")) {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "application/gzip".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"study-{id}.tar.gz\"")),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => e.into_response(),
    }
}

/// Computes the study and packs it.
pub async fn archive(db: &Db, study_id: i64) -> AppResult<Vec<u8>> {
    let (view, arms) = build::study_view(db, study_id).await?;
    let mut settings = Vec::new();
    for a in &view.study.arms {
        let c = load_campaign(db, a.campaign_id).await?;
        let groups = crate::campaign::launch::study_groups(db, a.campaign_id).await?.unwrap_or_default();
        let reference_of = |i: usize| groups.get(i).and_then(|g| g.reference.clone());
        settings.push(serde_json::json!({
            "campaign_id": c.id,
            "name": c.name,
            "task": c.task.as_str(),
            "status": c.status,
            "seed": c.seed,
            "reference": c.reference_name,
            "old_reference": reference_of(0),
            "new_reference": reference_of(1),
            "settings": c.settings,
            "old_test_set": a.old_test_set,
            "new_test_set": a.new_test_set,
            "best_old": a.best_old,
            "best_new": a.best_new,
            "benchmark": a.benchmark,
        }));
    }
    study_archive(&view, &arms, settings).map_err(|e| AppError::internal(format!("cannot write the archive: {e}")))
}

fn csv_field(s: &str) -> String {
    crate::analysis::formats::csv_text(s).into_owned()
}

fn opt(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| format!("{v}"))
}

/// Every judgment of the study's arms, one CSV row each.
pub fn judgments_csv(arms: &[ArmResult]) -> String {
    let mut s = String::from("campaign_id,task,pair,worker,worker_excluded,hit,item_type,system,test_set,segment,score,seconds\n");
    for a in arms {
        let set = &a.analysis.set;
        let r = &a.analysis.result;
        let excluded = |w: u32, t: u16| r.workers.iter().any(|q| q.worker == w && q.task == t && r.settings.exclusion.excludes(q));
        for j in &set.records {
            let label = set.systems.name(j.system);
            let (system, test_set) = label.rsplit_once(" @ ").unwrap_or((label, ""));
            let seg = set.segments.name(j.segment);
            let key = seg.strip_prefix(&format!("{test_set}:")).unwrap_or(seg);
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                a.arm.campaign_id,
                csv_field(a.arm.task.as_str()),
                csv_field(&a.arm.pair),
                csv_field(set.workers.name(j.worker)),
                excluded(j.worker, j.task),
                csv_field(set.hits.name(j.hit)),
                j.item_type.wmt_name(),
                csv_field(system),
                csv_field(test_set),
                csv_field(key),
                j.score,
                j.seconds
            );
        }
    }
    s
}

/// The gain tables as CSV: one row per (task, scale, pair) and the mean.
pub fn gains_csv(view: &StudyView) -> String {
    let mut s = String::from(
        "task,scale,pair,curr_old,curr_new,delta,delta_lower,delta_upper,best_old,best_new,difference,difference_lower,difference_upper,gain,gain_lower,gain_upper,n_best_old,n_curr_old,n_best_new,n_curr_new,p_best_new_better,p_best_old_better,p_curr_old_better,p_curr_new_better\n",
    );
    let mut row = |task: &str, scale: &str, r: &GainRow| {
        let _ = writeln!(
            s,
            "{},{scale},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(task),
            csv_field(&r.pair),
            r.curr_old,
            r.curr_new,
            r.delta,
            r.delta_ci.0,
            r.delta_ci.1,
            r.best_old,
            r.best_new,
            r.difference,
            r.difference_ci.0,
            r.difference_ci.1,
            r.gain,
            r.gain_ci.0,
            r.gain_ci.1,
            r.n[0],
            r.n[1],
            r.n[2],
            r.n[3],
            opt(r.p_best_new_better),
            opt(r.p_best_old_better),
            opt(r.p_curr_old_better),
            opt(r.p_curr_new_better)
        );
    };
    for t in &view.tasks {
        for r in &t.raw {
            row(&t.task, "raw", r);
        }
        for r in &t.z {
            row(&t.task, "z", r);
        }
    }
    s
}

/// The archive's bytes (`.tar.gz`), with the manifest last.
pub fn study_archive(view: &StudyView, arms: &[ArmResult], campaigns: Vec<serde_json::Value>) -> std::io::Result<Vec<u8>> {
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("judgments.csv".into(), judgments_csv(arms).into_bytes()),
        ("gains.csv".into(), gains_csv(view).into_bytes()),
        ("gains.json".into(), serde_json::to_vec_pretty(&view.tasks.iter().map(|t| serde_json::json!({
            "task": t.task, "raw": t.raw, "z": t.z,
            "judgments": t.judgments, "judgments_excluded": t.judgments_excluded,
            "workers": t.workers, "workers_excluded": t.workers_excluded,
        })).collect::<Vec<_>>())?),
    ];
    for t in &view.tasks {
        files.push((format!("timeline-{}.svg", t.task), t.timeline_svg.clone().into_bytes()));
    }
    let listed: Vec<serde_json::Value> = files
        .iter()
        .map(|(name, bytes)| serde_json::json!({ "name": name, "bytes": bytes.len(), "sha256": format!("{:x}", Sha256::digest(bytes)) }))
        .collect();
    let manifest = serde_json::json!({
        "kind": "assay-study-export",
        "assay_version": env!("CARGO_PKG_VERSION"),
        "study": { "id": view.study.id, "name": view.study.name, "seed": view.study.seed },
        "campaigns": campaigns,
        "gain": {
            "formula": "gain = (BEST_new - BEST_old) + (CURR_old - CURR_new); mean = unweighted mean over language pairs",
            "bootstrap": { "unit": "segment, resampled within each test set", "samples": view.samples, "confidence": view.confidence, "seed": view.seed },
            "significance": "one-sided Mann-Whitney U on z-scores (METHOD §6)",
            "analysis": "METHOD defaults: paired t reliability test, alpha 0.05, failing workers excluded, z per worker over all their scores",
        },
        "waiting": view.waiting,
        "files": listed,
    });
    files.push(("manifest.json".into(), serde_json::to_vec_pretty(&manifest)?));
    let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut b = tar::Builder::new(enc);
    let dir = format!("study-{}", view.study.id);
    for (name, bytes) in &files {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, format!("{dir}/{name}"), bytes.as_slice())?;
    }
    b.into_inner().and_then(|e| e.finish())
}
