//! Export streaming: a campaign's judgments made into text in id order, by readers side by side,
//! on SQLite and on PostgreSQL.

use tokio_stream::StreamExt;

use super::query::{ID_RANGE, JUDGMENT_COLUMN_COUNT, JUDGMENTS_BY_ID, JUDGMENTS_BY_ID_PG, Scope, StoredJudgment, by_id_range, dense, judgment_sql, raw_judgment, stored};
use super::readers::{each_sqlite_judgment, open_sqlite, sqlite_failed};
use crate::error::{AppError, AppResult, StorageContext};
use crate::analysis::sqlite_rows::RawStatement;

/// What a caller knows of a campaign's judgments already (the analysis it exports them with):
/// at least `count` of them are stored, none with an id below `first`. On SQLite both stay true
/// (ids are handed out in commit order, judgments never removed), so [`sqlite_text_in_order`]
/// need not count the campaign's judgments again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnownJudgments {
    pub count: i64,
    pub first: i64,
}

/// What a reader of a campaign's judgment text hands on.
enum Piece {
    Text(String),
    /// The reader's block is done; the next piece is of its next block.
    BlockEnd,
    Failed(AppError),
}

/// Judgment ids a reader of [`sqlite_text_in_order`] takes at a time.
pub(super) const TEXT_BLOCK: usize = 8192;
/// The id range `first..=last` cut into blocks of [`TEXT_BLOCK`] ids, in order.
fn id_blocks(first: i64, last: i64) -> Vec<(i64, i64)> {
    (first..=last).step_by(TEXT_BLOCK).map(|lo| (lo, lo.saturating_add(TEXT_BLOCK as i64 - 1).min(last))).collect()
}

/// Pieces of text a reader of [`sqlite_text_in_order`] may have made ahead of the writer.
const TEXT_AHEAD: usize = 32;

/// Text made by `write` from every judgment of campaign `campaign_id` in the SQLite file at
/// `path`, handed to `emit` in pieces of about `piece` bytes, in judgment-id order, until `emit`
/// returns false (the exports' judgment files). The campaign's id range is cut into blocks of
/// [`TEXT_BLOCK`] ids, read and written by `threads` connections side by side (block `b` by
/// reader `b % threads`) and passed on in order; each reader runs at most [`TEXT_AHEAD`] pieces
/// ahead, so memory stays bounded. A campaign whose judgments are spread thinly among others'
/// (or one thread) is read in one ordered pass. Blocking: call it on a blocking thread.
pub fn sqlite_text_in_order(
    path: &std::path::Path,
    campaign_id: i64,
    known: Option<KnownJudgments>,
    threads: usize,
    piece: usize,
    write: impl Fn(&mut String, StoredJudgment) -> AppResult<()> + Sync,
    mut emit: impl FnMut(String) -> bool,
) -> AppResult<()> {
    let failed = |e: rusqlite::Error| sqlite_failed(campaign_id, e);
    let conn = open_sqlite(path, campaign_id)?;
    let range = match known {
        // The table's largest id is read from the end of its b-tree; counting the campaign's
        // judgments joins every one of them (0.27 s at a million).
        Some(k) => dense(k.count, Some(k.first), conn.query_row("SELECT MAX(id) FROM judgments", [], |r| r.get(0)).map_err(failed)?),
        None => by_id_range(&conn, campaign_id).map_err(failed)?,
    };
    drop(conn);
    let Some((first, last)) = range.filter(|_| threads > 1) else {
        let (mut text, mut error, mut stopped) = (String::new(), None, false);
        each_sqlite_judgment(path, campaign_id, true, |j| {
            if let Err(e) = write(&mut text, j) {
                error = Some(e);
                return false;
            }
            stopped = text.len() >= piece && !emit(std::mem::take(&mut text));
            !stopped
        })?;
        if let Some(e) = error {
            return Err(e);
        }
        if !stopped && !text.is_empty() {
            emit(text);
        }
        return Ok(());
    };
    let blocks = id_blocks(first, last);
    let (blocks, write) = (&blocks, &write);
    std::thread::scope(|s| {
        let readers: Vec<std::sync::mpsc::Receiver<Piece>> = (0..threads)
            .map(|t| {
                let (tx, rx) = std::sync::mpsc::sync_channel::<Piece>(TEXT_AHEAD);
                s.spawn(move || {
                    // Ok(false): the writer has gone (stopped early or failed); nothing to say.
                    let read = || -> AppResult<bool> {
                        let conn = open_sqlite(path, campaign_id)?;
                        let raw_failed = |e: crate::analysis::sqlite_rows::RawError| sqlite_failed(campaign_id, e.to_string());
                        let mut stmt = RawStatement::prepare(&conn, JUDGMENTS_BY_ID, JUDGMENT_COLUMN_COUNT).map_err(raw_failed)?;
                        for &(lo, hi) in blocks.iter().skip(t).step_by(threads) {
                            stmt.start(&[campaign_id, lo, hi]).map_err(raw_failed)?;
                            let mut text = String::with_capacity(piece + 1024);
                            while stmt.step().map_err(raw_failed)? {
                                write(&mut text, raw_judgment(&stmt, campaign_id)?)?;
                                if text.len() >= piece && tx.send(Piece::Text(std::mem::replace(&mut text, String::with_capacity(piece + 1024)))).is_err() {
                                    return Ok(false);
                                }
                            }
                            if (!text.is_empty() && tx.send(Piece::Text(text)).is_err()) || tx.send(Piece::BlockEnd).is_err() {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    };
                    if let Err(e) = read() {
                        let _ = tx.send(Piece::Failed(e));
                    }
                });
                rx
            })
            .collect();
        // Returning drops the receivers, which stops every reader at its next piece.
        for b in 0..blocks.len() {
            loop {
                match readers[b % threads].recv() {
                    Ok(Piece::Text(text)) => {
                        if !emit(text) {
                            return Ok(());
                        }
                    }
                    Ok(Piece::BlockEnd) => break,
                    Ok(Piece::Failed(e)) => return Err(e),
                    Err(_) => return Err(AppError::internal(format!("a reader of campaign {campaign_id}'s judgments stopped"))),
                }
            }
        }
        Ok(())
    })
}

/// [`sqlite_text_in_order`] on PostgreSQL, through its own driver: the text of every judgment
/// of the campaign in id order, sent down `out` as bytes in pieces of about `piece` (a closed
/// `out` stops it). Its readers are tasks, each on a connection of its own: the first is waited
/// for, the others taken only if the pool has them free, so that exports side by side never
/// wait for one another's connections.
pub async fn pg_text_in_order<W>(
    pool: &sqlx::PgPool,
    campaign_id: i64,
    threads: usize,
    piece: usize,
    write: std::sync::Arc<W>,
    out: &tokio::sync::mpsc::Sender<Result<Vec<u8>, crate::error::StreamError>>,
) -> AppResult<()>
where
    W: Fn(&mut String, StoredJudgment) -> AppResult<()> + Send + Sync + 'static,
{
    let what = move || format!("reading the judgments of campaign {campaign_id}");
    let mut conn = pool.acquire().await.with_context(what)?;
    let (n, first, last): (i64, Option<i64>, Option<i64>) =
        sqlx::query_as(ID_RANGE).bind(campaign_id).fetch_one(&mut *conn).await.with_context(what)?;
    let range = dense(n, first, last);
    let mut conns = vec![conn];
    while range.is_some() && conns.len() < threads {
        match pool.try_acquire() {
            Some(c) => conns.push(c),
            None => break,
        }
    }
    let Some((first, last)) = range.filter(|_| conns.len() > 1) else {
        let mut conn = conns.pop().expect("a connection");
        let mut rows = sqlx::query(sqlx::AssertSqlSafe(judgment_sql(Scope::Campaign, true))).bind(campaign_id).fetch(&mut *conn);
        let mut text = String::new();
        while let Some(row) = rows.next().await {
            write(&mut text, stored(&row.with_context(what)?)?)?;
            if text.len() >= piece && out.send(Ok(std::mem::take(&mut text).into_bytes())).await.is_err() {
                return Ok(());
            }
        }
        if !text.is_empty() {
            let _ = out.send(Ok(text.into_bytes())).await;
        }
        return Ok(());
    };
    let threads = conns.len();
    let blocks = std::sync::Arc::new(id_blocks(first, last));
    let mut readers = Vec::with_capacity(threads);
    for (t, mut conn) in conns.into_iter().enumerate() {
        let (tx, rx) = tokio::sync::mpsc::channel::<Piece>(TEXT_AHEAD);
        let (blocks, write) = (blocks.clone(), write.clone());
        tokio::spawn(async move {
            // Ok(false): the writer has gone (stopped early or failed); nothing to say.
            let read = async {
                // A block is a few thousand rows found by their ids: nested loops over the
                // primary keys. Left to itself (a generic plan after a few runs of the prepared
                // statement) PostgreSQL hashes every item of the table for each block: 15 s for
                // a million judgments instead of about one. Only in this transaction, which
                // rolls back when dropped.
                let mut reading = sqlx::Acquire::begin(&mut *conn).await.with_context(what)?;
                for set in ["SET LOCAL enable_hashjoin = off", "SET LOCAL enable_mergejoin = off"] {
                    sqlx::query(set).execute(&mut *reading).await.with_context(what)?;
                }
                for &(lo, hi) in blocks.iter().skip(t).step_by(threads) {
                    let mut rows = sqlx::query(JUDGMENTS_BY_ID_PG).bind(campaign_id).bind(lo).bind(hi).fetch(&mut *reading);
                    let mut text = String::with_capacity(piece + 1024);
                    while let Some(row) = rows.next().await {
                        write(&mut text, stored(&row.with_context(what)?)?)?;
                        if text.len() >= piece && tx.send(Piece::Text(std::mem::replace(&mut text, String::with_capacity(piece + 1024)))).await.is_err() {
                            return Ok(false);
                        }
                    }
                    if (!text.is_empty() && tx.send(Piece::Text(text)).await.is_err()) || tx.send(Piece::BlockEnd).await.is_err() {
                        return Ok(false);
                    }
                }
                AppResult::Ok(true)
            };
            if let Err(e) = read.await {
                let _ = tx.send(Piece::Failed(e)).await;
            }
        });
        readers.push(rx);
    }
    // Returning drops the receivers, which stops every reader at its next piece.
    for b in 0..blocks.len() {
        loop {
            match readers[b % threads].recv().await {
                Some(Piece::Text(text)) => {
                    if out.send(Ok(text.into_bytes())).await.is_err() {
                        return Ok(());
                    }
                }
                Some(Piece::BlockEnd) => break,
                Some(Piece::Failed(e)) => return Err(e),
                None => return Err(AppError::internal(format!("a reader of campaign {campaign_id}'s judgments stopped"))),
            }
        }
    }
    Ok(())
}
