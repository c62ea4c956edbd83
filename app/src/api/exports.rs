//! `GET /api/v1/campaigns/{id}/export/{file}` and `GET /campaigns/{id}/export/{file}` (the
//! results page's buttons): a campaign's export files (researchers and up). The judgment files
//! and `all.zip` stream; the computed files come from one pipeline run. An unknown campaign or
//! an impossible file name is a 404, a file this campaign's result does not have a 400.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Extension, Path, Query};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use axum::routing::get;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{FileQuery, SettingsQuery};
use crate::auth::Role;
use crate::auth::server::CurrentSession;
use crate::error::{AppError, AppResult, StreamError};
use crate::export::{self, Kind, Prepared, rows};
use crate::state::AppState;
use crate::web::api_caller;

pub fn router<S: Clone + Send + Sync + 'static>() -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(export))
        // The results page's buttons: the same files, outside the API's paths.
        .route("/campaigns/{id}/export/{file}", get(export))
}

/// One export file (researchers and up); the same as GET /campaigns/{id}/export/{file}.
#[utoipa::path(get, path = "/api/v1/campaigns/{id}/export/{file}", operation_id = "campaignExport",
    params(
        ("id" = i64, Path, description = "Campaign id."),
        ("file" = String, Path, description = "The file's name: the judgment files, analysis.json, agreement.json, manifest.json and all.zip, or a computed file as `export_files` and `metric_export_files` of the results name it."),
        SettingsQuery, FileQuery,
    ),
    responses(
        (status = 200, description = "The file, as an attachment.", content(
            ("text/csv"), ("application/x-ndjson"), ("application/json"), ("application/zip"), ("text/plain"),
        )),
        super::doc::Refusals,
    ))]
async fn export(
    Extension(state): Extension<AppState>,
    session: Option<Extension<CurrentSession>>,
    method: axum::http::Method,
    headers: HeaderMap,
    Path((id, file)): Path<(i64, String)>,
    Query(settings): Query<SettingsQuery>,
    Query(q): Query<FileQuery>,
) -> AppResult<Response> {
    let user = api_caller(&state, session, &method, &headers, Role::Researcher, crate::auth::TokenScope::Read).await?;
    let kind = Kind::parse(&file)?;
    let (filter, name) = (q.filter()?, q.name()?);
    // (The file and the settings are checked first: their refusals say nothing of the campaign.)
    crate::web::require_in_team(&state.db, &user, crate::web::Owned::Campaign(id)).await?;
    let settings = crate::results::build::campaign_settings(&state.db, id, settings.options()).await?;
    let mut p = export::prepare(&state.db, id, settings, &kind, filter, &name).await?;
    if export::wants_metrics(&kind) {
        p.add_metrics(&state.db).await?;
    }
    let filter = q.filter.clone().unwrap_or_else(|| "raw".into());
    body(&state, &p, &kind, id, &filter).await
}

/// The file's body, downloaded under a name with the campaign and the filter
/// ([`crate::results::export_download_name`]).
async fn body(state: &AppState, p: &Prepared, kind: &Kind, campaign_id: i64, filter: &str) -> AppResult<Response> {
    let attachment = |name: &str, content_type: &str, body: Body| attachment(&crate::results::export_download_name(campaign_id, name, filter), content_type, body);
    Ok(match kind {
        Kind::Judgments(f) => {
            let ctx = Arc::new(p.row_context(&state.db).await?);
            let rx = rows::spawn_rows(state.db.clone(), *f, ctx);
            attachment(f.file_name(), f.content_type(), Body::from_stream(ReceiverStream::new(rx)))
        }
        Kind::Computed(name) => {
            let bytes = p.computed_file(name)?.ok_or_else(|| export::unknown_file(p, name))?;
            attachment(name, content_type_of(name), Body::from(bytes))
        }
        Kind::AnalysisJson => attachment("analysis.json", "application/json", Body::from(p.analysis_json(&["analysis.json".into()])?)),
        Kind::AgreementJson => attachment("agreement.json", "application/json", Body::from(p.agreement_json())),
        Kind::ManifestJson => {
            let names = p.all_file_names()?;
            let mut v = serde_json::to_vec_pretty(&p.manifest(&names)).map_err(|e| AppError::internal(format!("cannot write manifest.json: {e}")))?;
            v.push(b'\n');
            attachment("manifest.json", "application/json", Body::from(v))
        }
        Kind::All => {
            let tmp = tempfile::Builder::new()
                .prefix("assay-export-")
                .suffix(".zip")
                .tempfile()
                .map_err(|e| AppError::internal(format!("cannot create a temp file: {e}")))?;
            let (file, path) = tmp.into_parts();
            export::write_zip(&state.db, p, file).await?;
            attachment("all.zip", "application/zip", stream_temp_file(path))
        }
    })
}

fn attachment(name: &str, content_type: &str, body: Body) -> Response {
    let safe: String = name.chars().filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\').collect();
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

fn content_type_of(name: &str) -> &'static str {
    if name.ends_with(".json") {
        "application/json"
    } else if name.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else if name.ends_with(".zip") {
        "application/zip"
    } else if name.ends_with(".jsonl") {
        "application/x-ndjson; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    }
}

/// Streams a file's bytes, deleting the file afterwards.
fn stream_temp_file(path: tempfile::TempPath) -> Body {
    let (tx, rx) = mpsc::channel::<Result<Vec<u8>, StreamError>>(4);
    tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        let mut file = match tokio::fs::File::open(&path).await {
            Ok(f) => f,
            Err(e) => {
                let _ = tx.send(Err(AppError::internal(format!("cannot read the archive: {e}")).into())).await;
                return;
            }
        };
        loop {
            let mut buf = vec![0u8; rows::CHUNK];
            match file.read(&mut buf).await {
                Ok(0) => break,
                Ok(n) => {
                    buf.truncate(n);
                    if tx.send(Ok(buf)).await.is_err() {
                        break;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Err(AppError::internal(format!("cannot read the archive: {e}")).into())).await;
                    break;
                }
            }
        }
        drop(path);
    });
    Body::from_stream(ReceiverStream::new(rx))
}
