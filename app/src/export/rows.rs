//! The judgment files of an export, streamed from the database: rows are read with one
//! streaming query (sqlx `fetch`), formatted into chunks of about [`CHUNK`] bytes and sent down
//! a bounded channel, so memory stays constant however many judgments a campaign has and a slow
//! reader (an HTTP client) slows the query down instead of filling memory.
//!
//! Formats ([`RowFormat`]):
//! - **Assay CSV / JSONL**: every field of a judgment, then its worker's quality-control
//!   columns ([`WorkerStatus::COLUMNS`]). Column names are the header (CSV) or the keys (JSONL).
//! - **Appraise CSV**, no header, as released by WMT (`reference/anchors.md`):
//!   WMT22 `username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd`;
//!   WMT23 `UserID,SystemID,SegmentID,Type,SourceLanguage,TargetLanguage,Score,DocumentID,IsDocument,StartTime,EndTime`
//!   (segment id 1-based within its document, score an integer);
//!   WMT24 `user_id,system_id,segment_id,segment_type,source_lang,target_lang,overall,doc_id,isCompleteDocument,error_spans,start_time,end_time`
//!   (score an integer, error spans `[]`). Languages are ISO 639-3 codes (`deu`), item types
//!   Appraise's (`TGT`, `BAD`, `CHK`, `REF`), times Unix seconds: end = submission, start = end
//!   − time on the item. Skipped judgments are not Appraise rows.
//!
//! A **raw** export has every judgment (skipped ones marked); a **cleaned** one leaves out the
//! judgments of excluded workers and skipped judgments.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio_stream::StreamExt;

use crate::analysis::db::{KeptRows, KnownJudgments, Scope, StoredJudgment, StoredNames, judgments};
use crate::analysis::manifest::Filter;
use crate::error::{AppError, AppResult, StreamError};
use crate::db::Db;
use crate::model::ItemType;
use crate::analysis::FxMap;
use assay_core::analysis::formats::{write_display_f64, write_json_f64};

/// Bytes per chunk sent to the reader.
pub const CHUNK: usize = 64 * 1024;
/// Chunks buffered between the query and the reader.
const CHANNEL: usize = 4;

/// A judgment file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    AssayCsv,
    AssayJsonl,
    AppraiseWmt22,
    AppraiseWmt23,
    AppraiseWmt24,
}

impl RowFormat {
    pub const ALL: [RowFormat; 5] =
        [RowFormat::AssayCsv, RowFormat::AssayJsonl, RowFormat::AppraiseWmt22, RowFormat::AppraiseWmt23, RowFormat::AppraiseWmt24];

    /// The export's file name.
    pub fn file_name(self) -> &'static str {
        match self {
            RowFormat::AssayCsv => "judgments.csv",
            RowFormat::AssayJsonl => "judgments.jsonl",
            RowFormat::AppraiseWmt22 => "appraise-wmt22.csv",
            RowFormat::AppraiseWmt23 => "appraise-wmt23.csv",
            RowFormat::AppraiseWmt24 => "appraise-wmt24.csv",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            RowFormat::AssayJsonl => "application/x-ndjson; charset=utf-8",
            _ => "text/csv; charset=utf-8",
        }
    }

    pub fn of_file_name(name: &str) -> Option<RowFormat> {
        RowFormat::ALL.into_iter().find(|f| f.file_name() == name)
    }
}

/// The columns of the Assay judgment files, before the worker's columns.
pub const JUDGMENT_COLUMNS: [&str; 21] = [
    "judgment_id",
    "campaign_id",
    "task",
    "src_lang",
    "trg_lang",
    "hit",
    "assignment",
    "slot",
    "worker",
    "platform",
    "position",
    "item_type",
    "system",
    "segment",
    "document",
    "score",
    "score2",
    "skipped",
    "submitted_at_ms",
    "time_on_screen_ms",
    "seconds",
];

/// A worker's quality-control outcome and the organizer's decision, as the judgment files carry
/// them. Further per-worker columns go here: a name in [`WorkerStatus::COLUMNS`] and a value in
/// [`WorkerStatus::values`].
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerStatus {
    /// `pass`, `fail` or `not enough evidence`.
    pub verdict: String,
    pub p_value: Option<f64>,
    /// Left out of the statistics (and of a cleaned export).
    pub excluded: bool,
    /// The organizer's decision in force (`approve` or `reject`, see `results::decisions`);
    /// empty when there is none.
    pub decision: String,
    /// (μ, σ) of the worker's standardisation for the first and second question (word order:
    /// Q1 and Q2; DA has one): `None` for a worker who is excluded or cannot be standardised.
    pub standardization: [Option<(f64, f64)>; 2],
}

impl WorkerStatus {
    pub const COLUMNS: [&'static str; 4] = ["worker_verdict", "worker_p_value", "worker_excluded", "worker_decision"];

    /// The judgment's standardised scores, after the worker's columns: `z` of `score` and `z2`
    /// of `score2` (METHOD §5: (x − μ) / σ of the worker's task), empty for a worker who is
    /// excluded or cannot be standardised, and for a skipped judgment.
    pub const Z_COLUMNS: [&'static str; 2] = ["z", "z2"];

    /// z of `score` (question 0) or `score2` (question 1).
    pub fn z(&self, question: usize, score: Option<f64>) -> Option<f64> {
        let (mean, sd) = self.standardization.get(question).copied().flatten()?;
        Some((score? - mean) / sd)
    }

    /// The values of [`WorkerStatus::COLUMNS`], as JSON values.
    pub fn values(&self) -> [serde_json::Value; 4] {
        [
            self.verdict.clone().into(),
            self.p_value.map_or(serde_json::Value::Null, serde_json::Value::from),
            self.excluded.into(),
            self.decision.clone().into(),
        ]
    }
}

/// What the rows need besides the database: the campaign, each worker's status (by the
/// analysis' worker name `platform:external_id`), each segment's document position.
pub struct RowContext {
    pub campaign_id: i64,
    pub task: String,
    pub src_lang: String,
    pub trg_lang: String,
    pub src_lang3: String,
    pub trg_lang3: String,
    pub workers: HashMap<String, WorkerStatus>,
    /// Segment key → (document, 1-based index within the document).
    pub documents: HashMap<String, (String, i64)>,
    pub filter: Filter,
    /// What the analysis read of the campaign's judgments (the files then need not count them).
    pub known: Option<KnownJudgments>,
}

/// One judgment as read from the database, its names borrowed from [`RowNames`] (no text is
/// copied for a row: the export's hot loop).
#[derive(Clone, Debug, PartialEq)]
pub struct JudgmentRow<'a> {
    pub id: i64,
    pub hit: i64,
    pub assignment: i64,
    pub slot: i64,
    pub worker: &'a str,
    pub platform: &'a str,
    pub position: i64,
    pub item_type: ItemType,
    pub system: &'a str,
    pub segment: &'a str,
    pub document: Option<&'a str>,
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub skipped: bool,
    pub submitted_at_ms: i64,
    pub time_on_screen_ms: Option<i64>,
    /// Seconds on the item as the analysis counts them: time on screen, else submitted − shown, else 0.
    pub ms: i64,
    /// Relative ranking: an output of a gold block (quality control, in no score or ranking).
    /// Its type is written `GOLD`; the Appraise formats, which have no such type, leave it out.
    pub gold: bool,
    /// The worker's status, when found already (by worker id, [`RowNames`]); else
    /// [`write_row`] looks it up by name in [`RowContext::workers`].
    pub status: Option<&'a WorkerStatus>,
}

impl JudgmentRow<'_> {
    /// The item type as the files write it (`GOLD` for an output of a gold block).
    pub fn type_name(&self) -> &'static str {
        if self.gold { "GOLD" } else { self.item_type.wmt_name() }
    }
}

/// A CSV text field: RFC 4180 quoting and the spreadsheet-formula guard
/// ([`crate::analysis::formats::csv_text`], the one used by every CSV Assay writes).
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    crate::analysis::formats::csv_text(s)
}

/// Unix seconds of a millisecond time, as Appraise writes them.
fn secs(ms: i64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

/// The header line of a format (None: the format has none).
pub fn header(format: RowFormat) -> Option<String> {
    match format {
        RowFormat::AssayCsv => {
            let cols: Vec<&str> = JUDGMENT_COLUMNS.iter().chain(WorkerStatus::COLUMNS.iter()).chain(WorkerStatus::Z_COLUMNS.iter()).copied().collect();
            Some(format!("{}\n", cols.join(",")))
        }
        _ => None,
    }
}

/// Appends one judgment in `format` to `out`; false when the row does not belong in the file
/// (the filter, or a skipped judgment in an Appraise file).
pub fn write_row(out: &mut String, format: RowFormat, ctx: &RowContext, r: &JudgmentRow) -> bool {
    static UNKNOWN: std::sync::LazyLock<WorkerStatus> = std::sync::LazyLock::new(|| WorkerStatus {
        verdict: "not analysed".into(),
        p_value: None,
        excluded: false,
        decision: String::new(),
        standardization: [None, None],
    });
    let status = r.status.or_else(|| ctx.workers.get(r.worker)).unwrap_or(&UNKNOWN);
    if ctx.filter == Filter::Cleaned && (status.excluded || r.skipped || r.score.is_none()) {
        return false;
    }
    let seconds = r.ms.max(0) as f64 / 1000.0;
    match format {
        RowFormat::AssayCsv => {
            // Written field by field (no string per field): the export's hot loop.
            let text = |out: &mut String, s: &str| out.push_str(&csv_field(s));
            let number = |out: &mut String, v: Option<f64>| {
                if let Some(v) = v {
                    write_display_f64(out, v);
                }
            };
            let mut digits = itoa::Buffer::new();
            let mut int = |out: &mut String, v: i64| out.push_str(digits.format(v));
            int(out, r.id);
            out.push(',');
            int(out, ctx.campaign_id);
            out.push(',');
            text(out, &ctx.task);
            out.push(',');
            text(out, &ctx.src_lang);
            out.push(',');
            text(out, &ctx.trg_lang);
            out.push(',');
            int(out, r.hit);
            out.push(',');
            int(out, r.assignment);
            out.push(',');
            int(out, r.slot);
            out.push(',');
            text(out, r.worker);
            out.push(',');
            text(out, r.platform);
            out.push(',');
            int(out, r.position);
            out.push(',');
            out.push_str(r.type_name());
            out.push(',');
            text(out, r.system);
            out.push(',');
            text(out, r.segment);
            out.push(',');
            text(out, r.document.unwrap_or_default());
            out.push(',');
            number(out, r.score);
            out.push(',');
            number(out, r.score2);
            out.push_str(if r.skipped { ",1," } else { ",0," });
            int(out, r.submitted_at_ms);
            out.push(',');
            if let Some(t) = r.time_on_screen_ms {
                int(out, t);
            }
            out.push(',');
            write_display_f64(out, seconds);
            out.push(',');
            text(out, &status.verdict);
            out.push(',');
            // As JSON writes it (the JSONL file's value): 1e-5, not 0.00001.
            if let Some(p) = status.p_value {
                write_json_f64(out, p);
            }
            out.push_str(if status.excluded { ",true," } else { ",false," });
            text(out, &status.decision);
            let (z, z2) = if r.skipped { (None, None) } else { (status.z(0, r.score), status.z(1, r.score2)) };
            out.push(',');
            number(out, z);
            out.push(',');
            number(out, z2);
            out.push('\n');
        }
        RowFormat::AssayJsonl => {
            let mut m = serde_json::Map::new();
            let values: [serde_json::Value; 21] = [
                r.id.into(),
                ctx.campaign_id.into(),
                ctx.task.clone().into(),
                ctx.src_lang.clone().into(),
                ctx.trg_lang.clone().into(),
                r.hit.into(),
                r.assignment.into(),
                r.slot.into(),
                r.worker.into(),
                r.platform.into(),
                r.position.into(),
                r.type_name().into(),
                r.system.into(),
                r.segment.into(),
                r.document.into(),
                r.score.into(),
                r.score2.into(),
                r.skipped.into(),
                r.submitted_at_ms.into(),
                r.time_on_screen_ms.into(),
                seconds.into(),
            ];
            for (k, v) in JUDGMENT_COLUMNS.iter().zip(values) {
                m.insert((*k).into(), v);
            }
            for (k, v) in WorkerStatus::COLUMNS.iter().zip(status.values()) {
                m.insert((*k).into(), v);
            }
            let (z, z2) = if r.skipped { (None, None) } else { (status.z(0, r.score), status.z(1, r.score2)) };
            m.insert("z".into(), z.into());
            m.insert("z2".into(), z2.into());
            out.push_str(&serde_json::Value::Object(m).to_string());
            out.push('\n');
        }
        RowFormat::AppraiseWmt22 | RowFormat::AppraiseWmt23 | RowFormat::AppraiseWmt24 => {
            let Some(score) = r.score.filter(|_| !r.skipped && !r.gold) else { return false };
            let end = r.submitted_at_ms;
            let start = end - r.ms.max(0);
            let user = csv_field(r.worker);
            let system = csv_field(r.system);
            let kind = r.item_type.appraise_name();
            let (src, trg) = (&ctx.src_lang3, &ctx.trg_lang3);
            let _ = match format {
                RowFormat::AppraiseWmt22 => writeln!(
                    out,
                    "{user},{system},{},{kind},{src},{trg},{score},{},{}",
                    csv_field(r.segment),
                    secs(start),
                    secs(end)
                ),
                RowFormat::AppraiseWmt23 => {
                    let (doc, index) = ctx.documents.get(r.segment).cloned().unwrap_or_else(|| (String::new(), 0));
                    writeln!(
                        out,
                        "{user},{system},{index},{kind},{src},{trg},{},{},False,{},{}",
                        score.round() as i64,
                        csv_field(&doc),
                        secs(start),
                        secs(end)
                    )
                }
                _ => {
                    let doc = ctx.documents.get(r.segment).map(|d| d.0.clone()).unwrap_or_default();
                    writeln!(
                        out,
                        "{user},{system},{},{kind},{src},{trg},{},{},False,[],{},{}",
                        csv_field(r.segment),
                        score.round() as i64,
                        csv_field(&doc),
                        secs(start),
                        secs(end)
                    )
                }
            };
        }
    }
    true
}

/// The names of a campaign's judgments as the files write them: [`StoredNames`] with each
/// worker's `platform:external_id` and status found once (by worker id: no name is hashed per
/// row).
pub struct RowNames {
    pub names: StoredNames,
    /// Worker id → (`platform:external_id`, platform, status in `ctx`).
    workers: FxMap<i64, (String, String, Option<WorkerStatus>)>,
}

impl RowNames {
    pub fn new(names: StoredNames, ctx: &RowContext) -> RowNames {
        let workers = names
            .workers
            .iter()
            .map(|(id, (platform, external))| {
                let name = format!("{platform}:{external}");
                let status = ctx.workers.get(&name).cloned();
                (*id, (name, platform.clone(), status))
            })
            .collect();
        RowNames { names, workers }
    }
}

/// A stored judgment with its names, as the files write it. A name the campaign does not have
/// is [`AppError::Internal`] (the database's references guarantee them).
pub fn named_row<'n>(j: &StoredJudgment, names: &'n RowNames) -> AppResult<JudgmentRow<'n>> {
    let (worker, platform, status) =
        names.workers.get(&j.worker).ok_or_else(|| AppError::internal(format!("judgment {}: unknown worker {}", j.id, j.worker)))?;
    let segment = names.names.segment(j.segment)?;
    Ok(JudgmentRow {
        id: j.id,
        hit: j.hit_index.into(),
        assignment: j.assignment,
        slot: j.slot.into(),
        worker,
        platform,
        position: j.position.into(),
        item_type: j.item_type,
        system: names.names.system(j.system)?,
        segment: &segment.key,
        document: segment.document.as_deref(),
        score: j.score,
        score2: j.score2,
        skipped: j.skipped,
        submitted_at_ms: j.submitted_at_ms,
        time_on_screen_ms: j.time_on_screen_ms,
        ms: j.ms,
        gold: j.gold_rank.is_some(),
        status: status.as_ref(),
    })
}

/// Judgments formatted per batch on each core ([`write_kept`]): about 1.5 MB of text, of which
/// each core holds at most three at a time.
const KEPT_BATCH: usize = 8 * 1024;

/// Writes the judgment file of `format` from rows kept in memory (the ones the analysis was
/// built from: [`crate::analysis::campaign::analyse_keeping_rows`]), in judgment-id order:
/// batches of [`KEPT_BATCH`] judgments formatted on every core side by side, written in order
/// (each core at most two batches ahead). The same bytes as [`spawn_rows`] gives for the same
/// judgments. Blocking.
pub fn write_kept(out: &mut dyn std::io::Write, format: RowFormat, ctx: &RowContext, kept: &KeptRows) -> AppResult<()> {
    let failed = |e: std::io::Error| AppError::internal(format!("cannot write {}: {e}", format.file_name()));
    if let Some(h) = header(format) {
        out.write_all(h.as_bytes()).map_err(failed)?;
    }
    let names = RowNames::new(kept.names.clone(), ctx);
    let rows = kept.rows.by_id();
    let batches: Vec<&[&StoredJudgment]> = rows.chunks(KEPT_BATCH).collect();
    let threads = crate::analysis::db::read_parts().min(batches.len()).max(1);
    let (batches, names) = (&batches, &names);
    std::thread::scope(|s| {
        let made: Vec<std::sync::mpsc::Receiver<AppResult<String>>> = (0..threads)
            .map(|t| {
                let (tx, rx) = std::sync::mpsc::sync_channel(2);
                s.spawn(move || {
                    for batch in batches.iter().skip(t).step_by(threads) {
                        let mut text = String::with_capacity(batch.len() * 192);
                        let made = batch.iter().try_for_each(|j| {
                            write_row(&mut text, format, ctx, &named_row(j, names)?);
                            AppResult::Ok(())
                        });
                        let failed = made.is_err();
                        // A closed channel: the writer stopped (it failed); so do we.
                        if tx.send(made.map(|()| text)).is_err() || failed {
                            return;
                        }
                    }
                });
                rx
            })
            .collect();
        // Returning drops the receivers, which stops every formatter at its next batch.
        for b in 0..batches.len() {
            let text = made[b % threads].recv().map_err(|_| AppError::internal("a formatter of the judgment file stopped"))??;
            out.write_all(text.as_bytes()).map_err(failed)?;
        }
        Ok(())
    })
}

/// Starts streaming the judgment file of `format`; chunks (or one error, last) arrive on the
/// receiver. The error is a [`StreamError`]: the receiver becomes an HTTP body stream, whose
/// error must be a `std::error::Error`, which [`AppError`] deliberately is not.
/// The rows come from the one judgment query ([`crate::analysis::db::judgments`]),
/// in judgment-id order; the query runs in its own task and stops when the receiver is dropped.
pub fn spawn_rows(db: Db, format: RowFormat, ctx: Arc<RowContext>) -> mpsc::Receiver<Result<Vec<u8>, StreamError>> {
    let (tx, rx) = mpsc::channel(CHANNEL);
    tokio::spawn(async move {
        let mut conn = match db.pool.acquire().await {
            Ok(c) => c,
            Err(e) => {
                let _ = tx.send(Err(AppError::internal(format!("cannot read the judgments: {e}")).into())).await;
                return;
            }
        };
        let names = match StoredNames::read(&mut conn, ctx.campaign_id, Scope::Campaign).await {
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(Err(e.into())).await;
                return;
            }
        };
        drop(conn);
        let names = RowNames::new(names, &ctx);
        // SQLite: read on blocking threads without sqlx's copy of every value (twice as fast),
        // a connection per core, the text made side by side and sent in judgment-id order.
        if let Some(path) = db.sqlite_file.clone().filter(|p| p.exists()) {
            let chunks = tx.clone();
            let done = tokio::task::spawn_blocking(move || {
                if let Some(h) = header(format)
                    && chunks.blocking_send(Ok(h.into_bytes())).is_err()
                {
                    return Ok(());
                }
                crate::analysis::db::sqlite_text_in_order(
                    &path,
                    ctx.campaign_id,
                    ctx.known,
                    crate::analysis::db::read_parts(),
                    CHUNK,
                    |text, j| {
                        write_row(text, format, &ctx, &named_row(&j, &names)?);
                        Ok(())
                    },
                    // A dropped receiver (the client went away) stops the readers.
                    |text| chunks.blocking_send(Ok(text.into_bytes())).is_ok(),
                )
            })
            .await;
            // The readers' buffers go back to the system.
            tokio::task::spawn_blocking(crate::db::release_freed_memory);
            match done {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    let _ = tx.send(Err(e.into())).await;
                }
                Err(e) => {
                    let _ = tx.send(Err(AppError::internal(format!("cannot read the judgments: {e}")).into())).await;
                }
            }
            return;
        }
        if let Some(h) = header(format)
            && tx.send(Ok(h.into_bytes())).await.is_err()
        {
            return;
        }
        // PostgreSQL: through its own driver, not sqlx's `Any` (which copies every value), a
        // connection per core when the pool has them free, sent in judgment-id order.
        if let Some(pg) = &db.postgres {
            let ctx_id = ctx.campaign_id;
            let (names, ctx) = (Arc::new(names), ctx.clone());
            let write = Arc::new(move |text: &mut String, j: StoredJudgment| {
                write_row(text, format, &ctx, &named_row(&j, &names)?);
                Ok(())
            });
            if let Err(e) = crate::analysis::db::pg_text_in_order(pg, ctx_id, crate::analysis::db::read_parts(), CHUNK, write, &tx).await {
                let _ = tx.send(Err(e.into())).await;
            }
            return;
        }
        let mut conn = match db.pool.acquire().await {
            Ok(c) => c,
            Err(e) => {
                let _ = tx.send(Err(AppError::internal(format!("cannot read the judgments: {e}")).into())).await;
                return;
            }
        };
        let mut buf = String::new();
        let mut rows = std::pin::pin!(judgments(&mut conn, ctx.campaign_id, Scope::Campaign, true));
        while let Some(row) = rows.next().await {
            let parsed = row.and_then(|j| named_row(&j, &names));
            match parsed {
                Ok(r) => {
                    write_row(&mut buf, format, &ctx, &r);
                }
                Err(e) => {
                    let _ = tx.send(Err(e.into())).await;
                    return;
                }
            }
            if buf.len() >= CHUNK && tx.send(Ok(std::mem::take(&mut buf).into_bytes())).await.is_err() {
                return;
            }
        }
        if !buf.is_empty() {
            let _ = tx.send(Ok(buf.into_bytes())).await;
        }
    });
    rx
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
