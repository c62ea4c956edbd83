//! Exports of a campaign (issue 6, item 4), from the results page's buttons, the read-only API
//! and `assay export`:
//!
//! - the judgment files, streamed from the database with constant memory ([`rows`]): Assay's
//!   own CSV and JSONL (every field and the worker's verdict) and the Appraise CSV in the
//!   WMT22, WMT23 and WMT24 column orders;
//! - the files computed from the analysis ([`crate::analysis::bundle`]): WMT `ad-*` files,
//!   Wilcoxon p-value and difference matrices, `clusters.csv`, mt-metrics-eval `.score` files,
//!   `DA-seglevel.csv`/`DA-syslevel.csv`; `analysis.json`, `agreement.json`;
//! - `manifest.json` ([`crate::analysis::manifest`]): campaign, settings, filter, excluded
//!   workers and why, seed, version, files;
//! - `all.zip`: everything above in one archive, with the manifest.
//!
//! Every export is **raw** (every judgment with its worker's verdict) or **cleaned** (judgments
//! of workers excluded by quality control removed); the manifest says which.

pub mod rows;

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::analysis::bundle::{self, BundleOptions};
use crate::analysis::campaign::CampaignAnalysis;
use crate::analysis::db::{CampaignInfo, KeptRows};
use crate::analysis::manifest::{self, Filter, ManifestInput};
use crate::analysis::AnalysisSettings;
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::results::AgreementReport;
use rows::{RowContext, RowFormat, WorkerStatus};

pub use crate::analysis::bundle::DEFAULT_NAME;

/// What one export request asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A judgment file, streamed.
    Judgments(RowFormat),
    AnalysisJson,
    AgreementJson,
    ManifestJson,
    /// One computed file by name (`ad-sys-scores-de-en.csv`, …).
    Computed(String),
    /// Everything in a zip archive.
    All,
}

impl Kind {
    /// The kind a file name asks for; computed files are checked against the result later.
    /// An impossible name is [`AppError::NotFound`].
    pub fn parse(name: &str) -> AppResult<Kind> {
        if let Some(f) = RowFormat::of_file_name(name) {
            return Ok(Kind::Judgments(f));
        }
        Ok(match name {
            "analysis.json" => Kind::AnalysisJson,
            "agreement.json" => Kind::AgreementJson,
            "manifest.json" => Kind::ManifestJson,
            "all.zip" => Kind::All,
            other if !other.is_empty() && other.len() <= 200 && !other.contains(['/', '\\']) && !other.starts_with('.') => {
                Kind::Computed(other.to_string())
            }
            other => return Err(AppError::not_found(format!("{other:?} is not an export"))),
        })
    }

    /// Every single-file name an export of `result` offers, then `all.zip`.
    pub fn offered(a: &CampaignAnalysis) -> Vec<String> {
        let mut names: Vec<String> = RowFormat::ALL.iter().map(|f| f.file_name().to_string()).collect();
        names.extend(["analysis.json", "agreement.json", "manifest.json"].map(String::from));
        names.extend(crate::results::build::export_file_names(a));
        names.push("all.zip".into());
        names
    }
}

/// A campaign analysed for an export.
pub struct Prepared {
    pub info: CampaignInfo,
    pub backend: String,
    /// The campaign's analysis ([`crate::analysis::campaign::analyse`]: the same as the results
    /// page's for the same settings).
    pub analysis: Arc<CampaignAnalysis>,
    pub filter: Filter,
    /// NAME of the mt-metrics-eval files.
    pub name: String,
    /// The metrics page's meta-evaluation as files ([`METRIC_FILES`]), once [`Prepared::add_metrics`]
    /// has run and when there is one; with what the manifest says of it.
    pub metric_files: Vec<(String, Vec<u8>)>,
    pub metrics_manifest: Option<Value>,
    /// The stored judgments the analysis was built from, when kept for judgment files written
    /// from memory ([`prepare_keeping_rows`]); [`write_dir`] drops them once those are written.
    pub kept: Option<KeptRows>,
}

pub use assay_core::metrics::report::EXPORT_FILES as METRIC_FILES;

/// Whether an export of `kind` carries the metrics page's files (and must compute them).
pub fn wants_metrics(kind: &Kind) -> bool {
    match kind {
        Kind::All | Kind::ManifestJson => true,
        Kind::Computed(name) => METRIC_FILES.contains(&name.as_str()),
        _ => false,
    }
}

/// Loads a campaign and runs the pipeline with `settings` (through the shared analysis and its
/// cache) for the export of `kind`. A judgment file needs the judgments' z-scores and the
/// workers' verdicts, not the systems' intervals: it takes the cached analysis with `settings`
/// when that is current (the results page's), else one without the bootstrap. An unknown
/// campaign is [`AppError::NotFound`].
pub async fn prepare(db: &Db, campaign_id: i64, mut settings: AnalysisSettings, kind: &Kind, filter: Filter, name: &str) -> AppResult<Prepared> {
    use crate::analysis::campaign;
    let cached = match kind {
        Kind::Judgments(_) => campaign::cached(db, campaign_id, &settings).await?,
        _ => None,
    };
    let analysis = match cached {
        Some(a) => a,
        None => {
            if matches!(kind, Kind::Judgments(_)) {
                settings.bootstrap = None;
            }
            campaign::analyse(db, campaign_id, &settings).await?
        }
    };
    Ok(Prepared::new(db, analysis, filter, name))
}

/// [`prepare`] for a process that exports once (`assay export`): a judgment file's export
/// keeps the stored judgments the analysis was built from, and [`write_dir`] writes the file
/// from them, so the campaign is read once, not twice (1.2 s of the 2.6 s a million judgments
/// took). The rows of a million judgments take about 150 MB, held until the file is written.
/// The analysis is computed without the systems' intervals, as [`prepare`] computes it for a
/// judgment file, and not cached. Every file's export (`--format all`) streams the judgment
/// files from the database as the routes do: the bootstrap's memory and the rows together
/// would take about 400 MB at a million.
pub async fn prepare_keeping_rows(db: &Db, campaign_id: i64, mut settings: AnalysisSettings, kind: &Kind, filter: Filter, name: &str) -> AppResult<Prepared> {
    if !matches!(kind, Kind::Judgments(_)) {
        return prepare(db, campaign_id, settings, kind, filter, name).await;
    }
    settings.bootstrap = None;
    let (analysis, kept) = crate::analysis::campaign::analyse_keeping_rows(db, campaign_id, &settings).await?;
    Ok(Prepared { kept: Some(kept), ..Prepared::new(db, analysis, filter, name) })
}

impl Prepared {
    fn new(db: &Db, analysis: Arc<CampaignAnalysis>, filter: Filter, name: &str) -> Prepared {
        Prepared {
            info: analysis.info.clone(),
            backend: format!("{:?}", db.backend).to_lowercase(),
            analysis,
            filter,
            name: name.to_string(),
            metric_files: Vec::new(),
            metrics_manifest: None,
            kept: None,
        }
    }
}

/// The manifest's description of a campaign read from the database.
pub fn campaign_source(info: &CampaignInfo, backend: &str) -> Value {
    json!({ "kind": "campaign", "id": info.id, "backend": backend, "campaign": info })
}

impl Prepared {
    pub fn source(&self) -> Value {
        campaign_source(&self.info, &self.backend)
    }

    pub fn manifest(&self, files: &[String]) -> Value {
        let mut m = manifest::manifest(&self.analysis.result, ManifestInput { source: self.source(), filter: Some(self.filter), files, seconds: None });
        m["mt_metrics_eval_name"] = json!(self.name);
        if let Some(metrics) = &self.metrics_manifest {
            m["metrics"] = metrics.clone();
        }
        m
    }

    /// Computes the metrics page's meta-evaluation (its cache, the same numbers as the page and
    /// `GET /api/v1/campaigns/{id}/metrics`) and adds its files, when the campaign has one.
    pub async fn add_metrics(&mut self, db: &Db) -> AppResult<()> {
        let (_, report, _) = crate::results::metrics::server::evaluate(db, self.info.id).await?;
        let Some(report) = report else { return Ok(()) };
        let files = assay_core::metrics::report::report_files(&report.0).map_err(|e| AppError::internal(format!("cannot encode the report: {e}")))?;
        self.metric_files = METRIC_FILES.iter().zip(files).map(|(name, (_, text))| (name.to_string(), text.into_bytes())).collect();
        let uploaded = crate::results::uploaded::list(db, self.info.id).await?;
        self.metrics_manifest = Some(json!({
            "files": METRIC_FILES,
            "human": report.0.human,
            "human_scores": "the humans' mean z per system and segment with the results page's default settings (raw filter), whatever this export's settings",
            "settings": report.0.settings,
            "builtin_signatures": report.1,
            "uploaded": uploaded.iter().map(|m| json!({ "name": m.name, "files": m.files, "uploaded_at_ms": m.uploaded_at_ms })).collect::<Vec<_>>(),
        }));
        Ok(())
    }

    pub fn agreement(&self) -> AgreementReport {
        self.analysis.agreement().clone()
    }

    /// The computed files' names, in order, none of them computed (the standardized
    /// judgments alone are about 100 MB at a million judgments).
    pub fn computed_file_names(&self) -> AppResult<Vec<String>> {
        let mut names = self.analysis.write_files(&mut bundle::NamesOnly, &self.bundle_options()).map_err(AppError::from)?;
        names.extend(self.metric_files.iter().map(|(n, _)| n.clone()));
        Ok(names)
    }

    fn bundle_options(&self) -> BundleOptions<'_> {
        BundleOptions { name: &self.name, segments_in_test_set_order: true, darr_threshold: crate::analysis::export::DARR_THRESHOLD, darr_rule: Default::default() }
    }

    /// One computed file by name, if the result has it.
    pub fn computed_file(&self, want: &str) -> AppResult<Option<Vec<u8>>> {
        if let Some((_, bytes)) = self.metric_files.iter().find(|(n, _)| n == want) {
            return Ok(Some(bytes.clone()));
        }
        let mut sink = bundle::OneFile { want, found: None };
        self.analysis.write_files(&mut sink, &self.bundle_options()).map_err(AppError::from)?;
        Ok(sink.found)
    }

    pub fn analysis_json(&self, files: &[String]) -> AppResult<Vec<u8>> {
        let mut out = Vec::new();
        bundle::write_analysis_json(&mut out, &self.manifest(files), &self.analysis.result)
            .map_err(|e| AppError::internal(format!("cannot write analysis.json: {e}")))?;
        Ok(out)
    }

    pub fn agreement_json(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(&self.agreement()).unwrap_or_default();
        v.push(b'\n');
        v
    }

    /// What the judgment files need: each worker's verdict, each segment's document position.
    pub async fn row_context(&self, db: &Db) -> AppResult<RowContext> {
        let r = &self.analysis.result;
        let mut workers = HashMap::new();
        for w in &r.workers {
            workers.insert(
                r.names.workers[w.worker as usize].clone(),
                WorkerStatus {
                    verdict: manifest::verdict_name(w.reliability.verdict).into(),
                    p_value: w.reliability.p_value,
                    excluded: r.settings.exclusion.excludes(w),
                    decision: String::new(),
                    standardization: [None, None],
                },
            );
        }
        // The organizer's decisions in force (the latest approve or reject per worker).
        for d in crate::results::decisions::load_decisions(db, self.info.id).await? {
            if (d.decision == "approve" || d.decision == "reject")
                && let Some(w) = workers.get_mut(&d.worker)
            {
                w.decision = d.decision.clone();
            }
        }
        // Workers who cannot be standardised are left out of the statistics too; the others'
        // (μ, σ) give each judgment its z (per question: word order's second is Q2).
        let retained: std::collections::HashSet<(u32, u16)> =
            r.workers.iter().filter(|w| !r.settings.exclusion.excludes(w)).map(|w| (w.worker, w.task)).collect();
        for s in &r.standardization {
            let Some(w) = workers.get_mut(&r.names.workers[s.worker as usize]) else { continue };
            if s.excluded.is_some() {
                w.excluded = true;
                continue;
            }
            let question = usize::from(r.names.tasks.get(s.task as usize).is_some_and(|t| t == assay_core::protocol::word_order::WORD_ORDER_Q2));
            if let Some(sd) = s.sd.filter(|sd| *sd > 0.0)
                && retained.contains(&(s.worker, s.task))
            {
                w.standardization[question] = Some((s.mean, sd));
            }
        }
        let three = |code: &str| {
            crate::import::LangCode::parse(code).map(|c| c.iso639_3().to_string()).unwrap_or_else(|_| code.to_string())
        };
        Ok(RowContext {
            campaign_id: self.info.id,
            task: self.info.task.as_str().to_string(),
            src_lang: self.info.source_lang.clone(),
            trg_lang: self.info.target_lang.clone(),
            src_lang3: three(&self.info.source_lang),
            trg_lang3: three(&self.info.target_lang),
            workers,
            documents: documents(db, self.info.id).await?,
            filter: self.filter,
            known: (self.analysis.stored_judgments > 0).then_some(crate::analysis::db::KnownJudgments {
                count: self.analysis.stored_judgments,
                first: self.analysis.first_judgment_id,
            }),
        })
    }

    /// Every file of `all.zip`, in order: the judgment files, the computed files, the JSON files.
    pub fn all_file_names(&self) -> AppResult<Vec<String>> {
        let mut names: Vec<String> = RowFormat::ALL.iter().map(|f| f.file_name().to_string()).collect();
        names.extend(self.computed_file_names()?);
        names.extend(["analysis.json", "agreement.json", "manifest.json"].map(String::from));
        Ok(names)
    }
}

/// Segment key → (document, 1-based index in the document) of the campaign's test set.
/// Segments without a document count as one document named after the test set.
async fn documents(db: &Db, campaign_id: i64) -> AppResult<HashMap<String, (String, i64)>> {
    // (segment key, document, test set name)
    let rows: Vec<(String, Option<String>, String)> = sqlx::query_as(
        "SELECT s.segment_key, s.document, t.name AS test_set FROM segments s JOIN campaigns c ON c.test_set_id = s.test_set_id \
         JOIN test_sets t ON t.id = s.test_set_id WHERE c.id = $1 ORDER BY s.position",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(|| format!("reading the segments of campaign {campaign_id}"))?;
    let mut counts: HashMap<String, i64> = HashMap::new();
    let mut out = HashMap::new();
    for (key, doc, test_set) in rows {
        let doc = match doc {
            Some(d) if !d.is_empty() => d,
            _ => test_set,
        };
        let n = counts.entry(doc.clone()).or_default();
        *n += 1;
        out.insert(key, (doc, *n));
    }
    Ok(out)
}

/// Writes `all.zip` into `out` (a file: the archive needs to seek), streaming the judgment files
/// from the database into it. Returns the names of the files inside.
pub async fn write_zip(db: &Db, p: &Prepared, out: std::fs::File) -> AppResult<Vec<String>> {
    let ctx = Arc::new(p.row_context(db).await?);
    let names = p.all_file_names()?;
    // The computed files are written into the archive as they are made (none held in memory:
    // the standardized judgments alone are a line per judgment).
    let (result, bundle_name, metric_files) = (p.analysis.clone(), p.name.clone(), p.metric_files.clone());
    let analysis = p.analysis_json(&names)?;
    let agreement = p.agreement_json();
    let mut manifest = serde_json::to_vec_pretty(&p.manifest(&names)).map_err(|e| AppError::internal(format!("cannot write manifest.json: {e}")))?;
    manifest.push(b'\n');
    let db = db.clone();
    tokio::task::spawn_blocking(move || -> AppResult<()> {
        let mut zip = zip::ZipWriter::new(out);
        // Deflate level 3, not 6: on a million judgments (about 700 MB of judgment files) it
        // compresses twice as fast for an archive about a sixth larger (BENCHMARKS.md).
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(3))
            .large_file(true);
        let zerr = |e: zip::result::ZipError| AppError::internal(format!("cannot write the archive: {e}"));
        let ioerr = |e: std::io::Error| AppError::internal(format!("cannot write the archive: {e}"));
        // One judgment file read at a time, when the archive comes to it: read all at once, each
        // held a connection while waiting for the ones before it (on PostgreSQL, more than its
        // pool of big reads has, so that one could wait for a connection another held).
        for format in RowFormat::ALL {
            let mut rx = rows::spawn_rows(db.clone(), format, ctx.clone());
            zip.start_file(format.file_name(), options).map_err(zerr)?;
            while let Some(chunk) = rx.blocking_recv() {
                zip.write_all(&chunk.map_err(AppError::from)?).map_err(ioerr)?;
            }
        }
        let bundle = BundleOptions { name: &bundle_name, segments_in_test_set_order: true, darr_threshold: crate::analysis::export::DARR_THRESHOLD, darr_rule: Default::default() };
        result.write_files(&mut ZipSink { zip: &mut zip, options }, &bundle).map_err(AppError::from)?;
        let small = metric_files.into_iter().chain([
            ("analysis.json".to_string(), analysis),
            ("agreement.json".to_string(), agreement),
            ("manifest.json".to_string(), manifest),
        ]);
        for (name, bytes) in small {
            zip.start_file(name, options).map_err(zerr)?;
            zip.write_all(&bytes).map_err(ioerr)?;
        }
        zip.finish().map_err(zerr)?;
        crate::db::release_freed_memory();
        Ok(())
    })
    .await
    .map_err(|e| AppError::internal(format!("writing the archive failed: {e}")))??;
    Ok(names)
}

/// Writes each computed file straight into an entry of the archive.
struct ZipSink<'z, W: std::io::Write + std::io::Seek> {
    zip: &'z mut zip::ZipWriter<W>,
    options: zip::write::SimpleFileOptions,
}

impl<W: std::io::Write + std::io::Seek> bundle::FileSink for ZipSink<'_, W> {
    fn file(&mut self, name: &str, write: &mut dyn FnMut(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<(), bundle::SinkError> {
        self.zip.start_file(name, self.options).map_err(|e| bundle::SinkError::Archive { what: e.to_string() })?;
        // Buffered: the formats write a line at a time, which the compressor takes slowly.
        let mut buffered = std::io::BufWriter::with_capacity(64 * 1024, &mut *self.zip);
        write(&mut buffered).and_then(|()| buffered.flush()).map_err(|source| bundle::SinkError::Write { file: name.to_string(), source })
    }
}

/// Writes the export of `kind` into the directory `dir` (for `assay export`), always with
/// `manifest.json`; `Kind::All` writes every file. Returns the names written.
pub async fn write_dir(db: &Db, p: &mut Prepared, kind: &Kind, dir: &std::path::Path) -> AppResult<Vec<String>> {
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).map_err(|e| AppError::internal(format!("cannot write {}: {e}", dir.join(name).display())))
    };
    let mut names = Vec::new();
    let formats: Vec<RowFormat> = match kind {
        Kind::All => RowFormat::ALL.to_vec(),
        Kind::Judgments(f) => vec![*f],
        _ => vec![],
    };
    let kept = p.kept.take();
    if let Some(kept) = kept.filter(|_| !formats.is_empty()) {
        // From the rows the analysis was built from, on blocking threads (then dropped).
        let ctx = p.row_context(db).await?;
        let (dir, formats) = (dir.to_path_buf(), formats.clone());
        let written = tokio::task::spawn_blocking(move || -> AppResult<Vec<String>> {
            let mut names = Vec::new();
            for f in formats {
                let path = dir.join(f.file_name());
                let cannot = |e: std::io::Error| AppError::internal(format!("cannot write {}: {e}", path.display()));
                let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&path).map_err(cannot)?);
                rows::write_kept(&mut file, f, &ctx, &kept)?;
                std::io::Write::flush(&mut file).map_err(cannot)?;
                names.push(f.file_name().to_string());
            }
            Ok(names)
        })
        .await
        .map_err(|e| AppError::internal(format!("writing the judgment files failed: {e}")))??;
        names.extend(written);
    } else if !formats.is_empty() {
        let ctx = Arc::new(p.row_context(db).await?);
        for f in formats {
            let path = dir.join(f.file_name());
            let mut file = tokio::io::BufWriter::new(
                tokio::fs::File::create(&path).await.map_err(|e| AppError::internal(format!("cannot create {}: {e}", path.display())))?,
            );
            let mut rx = rows::spawn_rows(db.clone(), f, ctx.clone());
            use tokio::io::AsyncWriteExt;
            while let Some(chunk) = rx.recv().await {
                file.write_all(&chunk.map_err(AppError::from)?)
                    .await
                    .map_err(|e| AppError::internal(format!("cannot write {}: {e}", path.display())))?;
            }
            file.flush().await.map_err(|e| AppError::internal(format!("cannot write {}: {e}", path.display())))?;
            names.push(f.file_name().to_string());
        }
    }
    match kind {
        Kind::All => {
            // Each written as it is made, none held.
            names.extend(p.analysis.write_files(&mut bundle::DirSink { dir, written: None }, &p.bundle_options()).map_err(AppError::from)?);
            for (name, bytes) in &p.metric_files {
                write(name, bytes)?;
                names.push(name.clone());
            }
            names.extend(["analysis.json", "agreement.json"].map(String::from));
        }
        Kind::Computed(name) => {
            let bytes = p.computed_file(name)?.ok_or_else(|| unknown_file(p, name))?;
            write(name, &bytes)?;
            names.push(name.clone());
        }
        Kind::AnalysisJson => names.push("analysis.json".into()),
        Kind::AgreementJson => names.push("agreement.json".into()),
        Kind::Judgments(_) | Kind::ManifestJson => {}
    }
    names.push("manifest.json".into());
    if names.iter().any(|n| n == "analysis.json") {
        write("analysis.json", &p.analysis_json(&names)?)?;
    }
    if names.iter().any(|n| n == "agreement.json") {
        write("agreement.json", &p.agreement_json())?;
    }
    let mut manifest = serde_json::to_vec_pretty(&p.manifest(&names)).map_err(|e| AppError::internal(format!("cannot write manifest.json: {e}")))?;
    manifest.push(b'\n');
    write("manifest.json", &manifest)?;
    Ok(names)
}

/// The error for a computed file the result does not have, listing those it has (a 400: the
/// name is well-formed, this campaign's result just has no such file).
pub fn unknown_file(p: &Prepared, name: &str) -> AppError {
    AppError::invalid("file", format!("there is no export called {name:?} for this campaign; there are: {}", Kind::offered(&p.analysis).join(", ")))
}
