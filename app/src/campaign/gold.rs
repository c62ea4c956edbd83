//! Gold orders of relative ranking for a test set (issue 19; WMT 2012's controls): read from a
//! file ([`assay_core::analysis::gold::read_gold`]), checked against the test set (every
//! segment a segment key of it, every system one with an output of that segment), and stored
//! in `ranking_gold`, replacing the test set's earlier gold orders. All or nothing: a file with
//! any problem is refused whole with every problem's line, and nothing changes. Ranking
//! campaigns asking for gold blocks draw them from here at launch (`launch::gold_orders`).

use std::collections::HashMap;

use assay_core::analysis::gold::{self, GoldError};

use crate::db::{Db, now_ms};
use crate::error::{AppError, StorageContext};

/// What an import stored.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct GoldSummary {
    pub test_set_id: i64,
    pub test_set: String,
    /// Gold orders (segments) stored.
    pub orders: usize,
    /// Pairs the orders rank strictly, summed over the orders.
    pub strict_pairs: usize,
    /// Gold orders of the test set replaced by this import.
    pub replaced: usize,
}

impl GoldSummary {
    pub fn line(&self) -> String {
        format!(
            "{} gold orders stored for test set {} ({} pairs ranked strictly){}",
            self.orders,
            self.test_set,
            self.strict_pairs,
            if self.replaced > 0 { format!("; {} earlier gold orders replaced", self.replaced) } else { String::new() }
        )
    }
}

/// A refused import: the file's problems, or a server fault.
#[derive(Debug)]
pub enum GoldImportError {
    File(Vec<GoldError>),
    App(AppError),
}

impl From<AppError> for GoldImportError {
    fn from(e: AppError) -> Self {
        GoldImportError::App(e)
    }
}

const SAVING: &str = "storing gold orders";

/// Reads, checks and stores the gold file `file` (`text`) for test set `test_set_id`.
pub async fn import(db: &Db, test_set_id: i64, file: &str, text: &str) -> Result<GoldSummary, GoldImportError> {
    let test_set: String = sqlx::query_scalar("SELECT name FROM test_sets WHERE id = $1")
        .bind(test_set_id)
        .fetch_optional(&db.pool)
        .await
        .context(SAVING)?
        .ok_or_else(|| AppError::not_found(format!("there is no test set with id {test_set_id}")))?;
    let orders = gold::read_gold(file, text).map_err(GoldImportError::File)?;
    let segments: HashMap<String, i64> = sqlx::query_as::<_, (String, i64)>("SELECT segment_key, id FROM segments WHERE test_set_id = $1")
        .bind(test_set_id)
        .fetch_all(&db.pool)
        .await
        .context(SAVING)?
        .into_iter()
        .collect();
    // (segment id, lower-case system name) → system id, for the outputs of the test set.
    let outputs: HashMap<(i64, String), i64> = sqlx::query_as::<_, (i64, String, i64)>(
        "SELECT o.segment_id, y.name_key, y.id FROM system_outputs o JOIN systems y ON y.id = o.system_id \
         JOIN segments s ON s.id = o.segment_id WHERE s.test_set_id = $1",
    )
    .bind(test_set_id)
    .fetch_all(&db.pool)
    .await
    .context(SAVING)?
    .into_iter()
    .map(|(seg, key, id)| ((seg, key), id))
    .collect();
    let errors = gold::check_names(
        file,
        &orders,
        |s| segments.contains_key(s),
        |s, sys| {
            let seg = segments[s];
            (!outputs.contains_key(&(seg, sys.to_lowercase())))
                .then(|| format!("the test set has no output of system {sys:?} for segment {s:?}"))
        },
    );
    if !errors.is_empty() {
        return Err(GoldImportError::File(errors));
    }
    let now = now_ms();
    let mut tx = db.writer.begin().await.context(SAVING)?;
    let replaced: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT g.segment_id) FROM ranking_gold g JOIN segments s ON s.id = g.segment_id WHERE s.test_set_id = $1",
    )
    .bind(test_set_id)
    .fetch_one(&mut *tx)
    .await
    .context(SAVING)?;
    sqlx::query("DELETE FROM ranking_gold WHERE segment_id IN (SELECT id FROM segments WHERE test_set_id = $1)")
        .bind(test_set_id)
        .execute(&mut *tx)
        .await
        .context(SAVING)?;
    let mut strict_pairs = 0;
    for o in &orders {
        let seg = segments[&o.segment];
        for (i, (system, rank)) in o.ranks.iter().enumerate() {
            strict_pairs += o.ranks[i + 1..].iter().filter(|(_, r)| r != rank).count();
            sqlx::query("INSERT INTO ranking_gold (segment_id, system_id, expected_rank, imported_at) VALUES ($1, $2, $3, $4)")
                .bind(seg)
                .bind(outputs[&(seg, system.to_lowercase())])
                .bind(i64::from(*rank))
                .bind(now)
                .execute(&mut *tx)
                .await
                .context(SAVING)?;
        }
    }
    tx.commit().await.context(SAVING)?;
    Ok(GoldSummary { test_set_id, test_set, orders: orders.len(), strict_pairs, replaced: replaced as usize })
}
