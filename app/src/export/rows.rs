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
mod tests {
    use super::*;

    fn ctx(filter: Filter) -> RowContext {
        let mut workers = HashMap::new();
        workers.insert("mturk:A1".to_string(), WorkerStatus { verdict: "fail".into(), p_value: Some(0.5), excluded: true, decision: "reject".into(), standardization: [None, None] });
        workers.insert("link:b,c".to_string(), WorkerStatus { verdict: "pass".into(), p_value: Some(0.001), excluded: false, decision: String::new(), standardization: [Some((50.0, 10.0)), None] });
        let mut documents = HashMap::new();
        documents.insert("s7".to_string(), ("doc A".to_string(), 3));
        RowContext {
            campaign_id: 4,
            task: "da-adequacy".into(),
            src_lang: "de".into(),
            trg_lang: "en".into(),
            src_lang3: "deu".into(),
            trg_lang3: "eng".into(),
            workers,
            documents,
            filter,
            known: None,
        }
    }

    fn row(worker: &str, score: Option<f64>) -> JudgmentRow<'_> {
        JudgmentRow {
            id: 10,
            hit: 2,
            assignment: 5,
            slot: 1,
            worker,
            platform: worker.split(':').next().unwrap(),
            position: 7,
            item_type: ItemType::BadRef,
            system: "Sys \"A\"",
            segment: "s7",
            document: Some("doc A"),
            score,
            score2: None,
            skipped: score.is_none(),
            submitted_at_ms: 1_700_000_010_500,
            time_on_screen_ms: Some(3500),
            ms: 3500,
            gold: false,
            status: None,
        }
    }

    /// Rows written from memory, a batch per core, are the rows written one after another in
    /// id order, in every format (parts read side by side interleave their ids).
    #[test]
    fn judgment_files_written_from_memory_are_in_id_order() {
        use crate::analysis::db::{CampaignJudgments, SegmentName};
        let mut names = StoredNames::default();
        names.workers.insert(1, ("mturk".into(), "A1".into()));
        names.workers.insert(2, ("link".into(), "b,c".into()));
        names.systems.insert(1, "Sys \"A\"".into());
        names.segments.insert(
            7,
            SegmentName { key: "s7".into(), document: Some("doc A".into()), test_set: "t".into(), test_set_id: 1, domain: None, doc_index: Some(3) },
        );
        let j = |id: i64| StoredJudgment {
            id,
            assignment: id / 100,
            worker: 1 + id % 2,
            slot: 0,
            hit_index: (id / 100) as i32,
            position: (id % 100) as i32,
            item_type: if id % 10 == 0 { ItemType::BadRef } else { ItemType::System },
            system: Some(1),
            segment: 7,
            score: (id % 7 != 0).then_some((id % 101) as f64 + 0.25),
            score2: None,
            skipped: id % 7 == 0,
            submitted_at_ms: 1_700_000_000_000 + id,
            time_on_screen_ms: Some(id % 5000),
            ms: id % 4000,
            screen: None,
            gold_rank: None,
        };
        // Three parts whose ids interleave, 100,000 judgments: thirteen batches.
        let parts: Vec<Vec<StoredJudgment>> = (0..3).map(|k| (1..=100_000).filter(|id| id % 3 == k).map(j).collect()).collect();
        let kept = KeptRows { rows: CampaignJudgments::from_parts(parts), names: names.clone() };
        let c = ctx(Filter::Raw);
        let row_names = RowNames::new(names, &c);
        for format in RowFormat::ALL {
            let mut expected = header(format).unwrap_or_default();
            for id in 1..=100_000 {
                write_row(&mut expected, format, &c, &named_row(&j(id), &row_names).unwrap());
            }
            let mut out = Vec::new();
            write_kept(&mut out, format, &c, &kept).unwrap();
            assert!(out == expected.as_bytes(), "{format:?}: {} bytes, not {}", out.len(), expected.len());
        }
        // A judgment of an unknown worker: the error, not a file cut short without one.
        let mut broken = (1..=70_000).map(j).collect::<Vec<_>>();
        broken[66_000].worker = 9;
        let kept = KeptRows { rows: CampaignJudgments::from_parts(vec![broken]), names: kept.names };
        let e = write_kept(&mut Vec::new(), RowFormat::AssayCsv, &c, &kept).unwrap_err();
        assert!(e.to_string().contains("unknown worker 9"), "{e}");
    }

    #[test]
    fn assay_rows_carry_every_field_and_the_workers_status() {
        let c = ctx(Filter::Raw);
        let mut out = header(RowFormat::AssayCsv).unwrap();
        assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", Some(12.25))));
        assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("mturk:A1", None)));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0].split(',').count(), 27);
        assert!(lines[0].ends_with("seconds,worker_verdict,worker_p_value,worker_excluded,worker_decision,z,z2"));
        // z = (12.25 − 50) / 10; no second score, no z2.
        assert_eq!(
            lines[1],
            "10,4,da-adequacy,de,en,2,5,1,\"link:b,c\",link,7,BAD_REF,\"Sys \"\"A\"\"\",s7,doc A,12.25,,0,1700000010500,3500,3.5,pass,0.001,false,,-3.775,"
        );
        // The excluded worker's judgments have no z.
        assert!(lines[2].contains(",,,1,") && lines[2].ends_with("fail,0.5,true,reject,,"), "{}", lines[2]);

        let mut json = String::new();
        write_row(&mut json, RowFormat::AssayJsonl, &c, &row("mturk:A1", Some(40.0)));
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 27);
        assert_eq!((v["score"].as_f64(), v["worker_excluded"].as_bool(), v["seconds"].as_f64()), (Some(40.0), Some(true), Some(3.5)));
        assert!(v["z"].is_null() && v["z2"].is_null());
        json.clear();
        write_row(&mut json, RowFormat::AssayJsonl, &c, &row("link:b,c", Some(65.0)));
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!((v["z"].as_f64(), v["z2"].as_f64()), (Some(1.5), None));

        // Cleaned: the excluded worker and the skipped judgment are left out.
        let c = ctx(Filter::Cleaned);
        let mut out = String::new();
        assert!(!write_row(&mut out, RowFormat::AssayCsv, &c, &row("mturk:A1", Some(1.0))));
        assert!(!write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", None)));
        assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", Some(1.0))));
        assert_eq!(out.lines().count(), 1);
    }

    #[test]
    fn text_that_a_spreadsheet_would_run_is_guarded_in_every_judgment_file() {
        let c = ctx(Filter::Raw);
        let mut r = row("mturk:=cmd", Some(-0.5));
        r.system = "=HYPERLINK(\"http://x\",\"y\")";
        r.segment = "@s1";
        // Every CSV (JSON lines keep the exact text: no spreadsheet reads them as formulas).
        for format in RowFormat::ALL.into_iter().filter(|f| *f != RowFormat::AssayJsonl) {
            let mut out = String::new();
            write_row(&mut out, format, &c, &r);
            assert!(out.contains("'=HYPERLINK"), "{format:?}: {out}");
            // WMT23 writes the segment's index in its document, not its id.
            assert!(format == RowFormat::AppraiseWmt23 || out.contains("'@s1"), "{format:?}: {out}");
            assert!(!out.contains(",=") && !out.contains(",@") && !out.contains("\"=") && !out.contains(":\"=") , "{format:?}: {out}");
        }
        // Numbers are not text: a negative score stays a number.
        let mut out = String::new();
        write_row(&mut out, RowFormat::AppraiseWmt22, &c, &r);
        assert!(out.contains(",-0.5,"), "{out}");
    }

    #[test]
    fn appraise_rows_follow_each_years_columns() {
        let c = ctx(Filter::Raw);
        let r = row("mturk:A1", Some(66.6));
        let mut out = String::new();
        write_row(&mut out, RowFormat::AppraiseWmt22, &c, &r);
        assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",s7,BAD,deu,eng,66.6,1700000007,1700000010.5\n");
        out.clear();
        write_row(&mut out, RowFormat::AppraiseWmt23, &c, &r);
        assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",3,BAD,deu,eng,67,doc A,False,1700000007,1700000010.5\n");
        out.clear();
        write_row(&mut out, RowFormat::AppraiseWmt24, &c, &r);
        assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",s7,BAD,deu,eng,67,doc A,False,[],1700000007,1700000010.5\n");
        // A skipped judgment is no Appraise row.
        out.clear();
        assert!(!write_row(&mut out, RowFormat::AppraiseWmt22, &c, &row("mturk:A1", None)));
        assert!(out.is_empty());
        // The Appraise reader reads the WMT22 rows back (9 fields, seconds = end − start).
        let mut text = String::new();
        write_row(&mut text, RowFormat::AppraiseWmt22, &c, &row("link:b,c", Some(80.0)));
        let set = crate::analysis::formats::read_appraise_csv(text.as_bytes(), "da").unwrap();
        assert_eq!((set.records[0].score, set.records[0].seconds), (80.0, 3.5));
        assert_eq!(set.workers.name(0), "link:b,c");
    }

    /// Text holding everything a CSV field can: line breaks of every kind, quotes, commas, tabs,
    /// the first characters of a spreadsheet formula and `'`, and text beyond ASCII (combining
    /// marks, right to left, CJK, emoji sequences), never only blanks.
    pub(crate) fn awkward_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let pieces = prop::sample::select(vec![
            "\n", "\r\n", "\r", "\"", "\"\"", ",", "\t", "'", "=", "+", "-", "@", " ", "a", "Z9", "e\u{301}", "\u{5e9}\u{5dc}\u{5d5}\u{5dd}",
            "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}", "\u{6f22}\u{5b57}", "\u{1f600}", "\u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}", "a\u{feff}",
        ]);
        prop::collection::vec(pieces, 1..10).prop_map(|p| p.concat()).prop_filter("something besides blanks", |s| !s.trim().is_empty())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Every judgment file Assay writes is RFC 4180 that the `csv` crate reads back exactly
        /// (the spreadsheet guard taken off), and Assay's readers read back every name of it:
        /// the Assay CSV and JSON lines, the Appraise files of WMT22 (`read_appraise_csv`) and
        /// WMT24 (`read_esa_csv`); WMT23 field by field.
        #[test]
        fn every_judgment_file_reads_back_exactly(
            task in awkward_text(), src in awkward_text(), trg in awkward_text(), verdict in awkward_text(), decision in awkward_text(),
            rows in proptest::collection::vec((awkward_text(), awkward_text(), awkward_text(), awkward_text(), awkward_text(), 0u8..=100), 1..5),
        ) {
            use crate::analysis::formats::{csv_untext, read_appraise_csv, read_assay_csv, read_assay_jsonl};
            let mut c = ctx(Filter::Raw);
            (c.task, c.src_lang, c.trg_lang) = (task.clone(), src.clone(), trg.clone());
            c.workers.clear();
            c.documents.clear();
            let rows: Vec<(String, String, String, String, String, f64)> =
                rows.into_iter().enumerate().map(|(i, (w, p, sy, se, d, score))| (format!("{w}{i}"), p, sy, format!("{se}{i}"), d, f64::from(score) + 0.25)).collect();
            for (k, (worker, _, _, segment, document, _)) in rows.iter().enumerate() {
                c.workers.insert(worker.clone(), WorkerStatus { verdict: verdict.clone(), p_value: Some(0.01), excluded: false, decision: decision.clone(), standardization: [None, None] });
                c.documents.insert(segment.clone(), (document.clone(), k as i64 + 1));
            }
            let judgment = |k: usize| {
                let (worker, platform, system, segment, document, score) = &rows[k];
                JudgmentRow { id: k as i64 + 1, worker, platform, system, segment, document: Some(document), score: Some(*score), skipped: false, ..row("x", Some(1.0)) }
            };
            let file = |c: &RowContext, format: RowFormat| {
                let mut out = header(format).unwrap_or_default();
                for k in 0..rows.len() {
                    assert!(write_row(&mut out, format, c, &judgment(k)));
                }
                out
            };
            let records = |text: &str| -> Vec<Vec<String>> {
                let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
                reader.records().map(|r| r.expect("RFC 4180").iter().map(|f| csv_untext(f).to_string()).collect()).collect()
            };

            // Assay CSV: every field, exactly.
            let text = file(&c, RowFormat::AssayCsv);
            let read = records(&text);
            proptest::prop_assert_eq!(read.len(), rows.len() + 1);
            proptest::prop_assert_eq!(read[0].len(), 27);
            for (k, (worker, platform, system, segment, document, score)) in rows.iter().enumerate() {
                let f = &read[k + 1];
                let texts = [&f[2], &f[3], &f[4], &f[8], &f[9], &f[12], &f[13], &f[14], &f[21], &f[24]];
                proptest::prop_assert_eq!(texts, [&task, &src, &trg, worker, platform, system, segment, document, &verdict, &decision]);
                proptest::prop_assert_eq!(f[15].parse::<f64>().unwrap(), *score);
            }
            let names = |set: &crate::analysis::JudgmentSet| -> Vec<[String; 5]> {
                set.records
                    .iter()
                    .map(|j| {
                        [set.workers.name(j.worker), set.systems.name(j.system), set.segments.name(j.segment), set.lang_pairs.name(j.lang_pair.into()), set.tasks.name(j.task.into())]
                            .map(String::from)
                    })
                    .collect()
            };
            // Assay's readers read a campaign's task (a task they know: a word-order answer, say,
            // is read as its two questions), so the files again with a real task; the task field's
            // text came back exactly above.
            c.task = "da-adequacy".to_string();
            let expected: Vec<[String; 5]> = rows.iter().map(|(w, _, sy, se, ..)| [w.clone(), sy.clone(), se.clone(), format!("{src}-{trg}"), c.task.clone()]).collect();
            let set = read_assay_csv(file(&c, RowFormat::AssayCsv).as_bytes()).expect("Assay CSV");
            proptest::prop_assert_eq!(names(&set), expected.clone());
            proptest::prop_assert_eq!(set.records.iter().map(|j| j.score).collect::<Vec<_>>(), rows.iter().map(|r| r.5).collect::<Vec<_>>());
            let set = read_assay_jsonl(file(&c, RowFormat::AssayJsonl).as_bytes()).expect("Assay JSON lines");
            proptest::prop_assert_eq!(names(&set), expected);

            // Appraise WMT22: read back by the Appraise reader (each worker's judgments a HIT).
            let set = read_appraise_csv(file(&c, RowFormat::AppraiseWmt22).as_bytes(), "da").expect("Appraise CSV");
            let got: Vec<[String; 3]> = names(&set).into_iter().map(|[w, sy, se, ..]| [w, sy, se]).collect();
            proptest::prop_assert_eq!(got, rows.iter().map(|(w, _, sy, se, ..)| [w.clone(), sy.clone(), se.clone()]).collect::<Vec<_>>());

            // Appraise WMT23 and WMT24: the texts, field by field; WMT24 by the ESA reader too.
            for (format, at) in [(RowFormat::AppraiseWmt23, [0, 1, 7]), (RowFormat::AppraiseWmt24, [0, 1, 7])] {
                let read = records(&file(&c, format));
                for (k, (worker, _, system, segment, document, _)) in rows.iter().enumerate() {
                    proptest::prop_assert_eq!([&read[k][at[0]], &read[k][at[1]], &read[k][at[2]]], [worker, system, document]);
                    if format == RowFormat::AppraiseWmt24 {
                        proptest::prop_assert_eq!(&read[k][2], segment);
                    }
                }
            }
            let esa = assay_core::analysis::esa::read_esa_csv(file(&c, RowFormat::AppraiseWmt24).as_bytes()).expect("WMT24 CSV");
            let got: Vec<[&str; 4]> = esa.ratings.iter().map(|r| [r.user.as_str(), r.system.as_str(), r.item.as_str(), r.document.as_str()]).collect();
            proptest::prop_assert_eq!(got, rows.iter().map(|(w, _, sy, se, d, _)| [w.as_str(), sy.as_str(), se.as_str(), d.as_str()]).collect::<Vec<_>>());
        }
    }
}
