//! Rows of a read-only SQLite statement read straight through SQLite's C interface (rusqlite's
//! `ffi`), for the one query that reads a million rows at a time: the judgment query.
//!
//! rusqlite checks every value it hands out (the column count, the value's type, a `Result`
//! per column); at seventeen columns a row, those checks cost as much as SQLite's own work on
//! the query (a million judgments on two cores: 0.47–0.69 s through rusqlite's rows, 0.37–0.54 s
//! through these; BENCHMARKS.md). Here the column count is checked once, when the statement is
//! prepared; a column that can hold NULL is read with its type, the others as SQLite converts
//! them.

use rusqlite::ffi;
use std::ffi::{CStr, c_int};
use std::marker::PhantomData;

/// A failure of the raw statement: SQLite's own message, or what is wrong with the statement.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RawError {
    /// SQLite refused (its message for the last failure on the connection).
    #[error("{0}")]
    Sqlite(String),
    #[error("the statement is too long")]
    TooLong,
    #[error("the statement is empty")]
    Empty,
    #[error("the statement has {got} columns, not {want}")]
    Columns { got: c_int, want: usize },
}

/// A prepared statement of `conn`, stepped and read column by column.
pub(crate) struct RawStatement<'c> {
    stmt: *mut ffi::sqlite3_stmt,
    db: *mut ffi::sqlite3,
    columns: c_int,
    /// The statement lives no longer than its connection.
    _conn: PhantomData<&'c rusqlite::Connection>,
}

/// SQLite's message for the last failure on `db`.
fn message(db: *mut ffi::sqlite3) -> RawError {
    // SAFETY: `db` is an open connection; `sqlite3_errmsg` returns a NUL-terminated string it owns,
    // copied here before any other call on the connection.
    RawError::Sqlite(unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)).to_string_lossy().into_owned() })
}

impl<'c> RawStatement<'c> {
    /// `sql` prepared on `conn`; an error unless its rows have exactly `columns` columns.
    pub fn prepare(conn: &'c rusqlite::Connection, sql: &str, columns: usize) -> Result<RawStatement<'c>, RawError> {
        let len = c_int::try_from(sql.len()).map_err(|_| RawError::TooLong)?;
        // SAFETY: the handle stays valid while `conn` is borrowed, which `_conn` holds for the
        // statement's life; `sql` is valid for `len` bytes; `stmt` is written only on success.
        let (db, stmt) = unsafe {
            let db = conn.handle();
            let mut stmt = std::ptr::null_mut();
            if ffi::sqlite3_prepare_v2(db, sql.as_ptr().cast(), len, &mut stmt, std::ptr::null_mut()) != ffi::SQLITE_OK {
                return Err(message(db));
            }
            (db, stmt)
        };
        if stmt.is_null() {
            return Err(RawError::Empty);
        }
        let mut statement = RawStatement { stmt, db, columns: 0, _conn: PhantomData };
        // SAFETY: `stmt` is a prepared statement (finalized by `Drop` from here on, once).
        statement.columns = unsafe { ffi::sqlite3_column_count(statement.stmt) };
        if usize::try_from(statement.columns).ok() != Some(columns) {
            return Err(RawError::Columns { got: statement.columns, want: columns });
        }
        Ok(statement)
    }

    /// Runs the statement (again) from its first row with the integer parameters `params`
    /// (`?1`, `?2`, … in order).
    pub fn start(&mut self, params: &[i64]) -> Result<(), RawError> {
        // SAFETY: `stmt` is a prepared statement; a parameter index out of range is an error
        // SQLite reports (SQLITE_RANGE), not undefined behaviour.
        unsafe {
            ffi::sqlite3_reset(self.stmt);
            for (k, &v) in params.iter().enumerate() {
                if ffi::sqlite3_bind_int64(self.stmt, k as c_int + 1, v) != ffi::SQLITE_OK {
                    return Err(message(self.db));
                }
            }
        }
        Ok(())
    }

    /// The next row: `Ok(true)` when there is one to read, `Ok(false)` at the end.
    pub fn step(&mut self) -> Result<bool, RawError> {
        // SAFETY: `stmt` is a prepared statement with its parameters bound.
        match unsafe { ffi::sqlite3_step(self.stmt) } {
            ffi::SQLITE_ROW => Ok(true),
            ffi::SQLITE_DONE => Ok(false),
            _ => Err(message(self.db)),
        }
    }

    /// Column `col` is within the row (checked against the count found when prepared).
    fn check(&self, col: c_int) {
        assert!((0..self.columns).contains(&col), "column {col} of a statement of {} columns", self.columns);
    }

    /// Column `col` of the current row as an integer (a column that is never NULL).
    pub fn int(&self, col: c_int) -> i64 {
        self.check(col);
        // SAFETY: `stmt` is on a row (after `step` gave `Ok(true)`) and `col` is one of its columns.
        unsafe { ffi::sqlite3_column_int64(self.stmt, col) }
    }

    /// Whether column `col` of the current row is NULL.
    fn is_null(&self, col: c_int) -> bool {
        self.check(col);
        // SAFETY: as in `int`.
        unsafe { ffi::sqlite3_column_type(self.stmt, col) == ffi::SQLITE_NULL }
    }

    /// Column `col` as an integer, `None` when NULL.
    pub fn opt_int(&self, col: c_int) -> Option<i64> {
        (!self.is_null(col)).then(|| self.int(col))
    }

    /// Column `col` as a number, `None` when NULL.
    pub fn opt_real(&self, col: c_int) -> Option<f64> {
        // SAFETY: as in `int`.
        (!self.is_null(col)).then(|| unsafe { ffi::sqlite3_column_double(self.stmt, col) })
    }

    /// Column `col` as text (its bytes; empty when NULL), valid until the next step.
    pub fn text(&self, col: c_int) -> &[u8] {
        self.check(col);
        // SAFETY: as in `int`. The text is SQLite's, valid until the statement steps, is reset
        // or finalized, all of which take `&mut self` or `self`, so not while this borrow lives;
        // `sqlite3_column_bytes` is called after `sqlite3_column_text`, as SQLite asks.
        unsafe {
            let text = ffi::sqlite3_column_text(self.stmt, col);
            if text.is_null() {
                return &[];
            }
            let len = ffi::sqlite3_column_bytes(self.stmt, col);
            std::slice::from_raw_parts(text, usize::try_from(len).unwrap_or(0))
        }
    }
}

impl Drop for RawStatement<'_> {
    fn drop(&mut self) {
        // SAFETY: `stmt` is a prepared statement, finalized once, here.
        unsafe {
            ffi::sqlite3_finalize(self.stmt);
        }
    }
}
