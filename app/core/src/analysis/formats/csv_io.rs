//! CSV as Assay reads it (the `csv` crate's records with their lines) and writes it (text fields
//! quoted and guarded against spreadsheet formulas).

use super::*;

/// The records of a CSV file as the `csv` crate reads them (RFC 4180: a quoted field may hold
/// commas, quotes and line breaks, so a record may span lines), each with the 1-based line it
/// starts on (as the crate counts: empty lines just before it count as its first); blank lines
/// are skipped, a UTF-8 byte-order mark at the start too. Every CSV reader
/// of Assay's and the field's files goes through it (its record loop is
/// [`crate::judgment_csv::next_record`], which the protocols' judgment CSVs read through as well).
pub(crate) struct CsvRows<R: Read> {
    reader: csv::Reader<R>,
    /// The last record read.
    pub(crate) record: csv::StringRecord,
}

pub(crate) fn csv_rows<R: Read>(input: R) -> CsvRows<R> {
    CsvRows { reader: crate::judgment_csv::reader(input), record: csv::StringRecord::new() }
}

impl<R: Read> CsvRows<R> {
    /// Reads the next record that is not blank into `record`: the line it starts on, `None` at
    /// the end of the input.
    pub(crate) fn next_record(&mut self) -> Result<Option<usize>, FormatError> {
        // The one record loop of Assay's CSV readers (the protocols' judgment CSVs use it too).
        crate::judgment_csv::next_record(&mut self.reader, &mut self.record).map_err(|e| err(e.line, e.message))
    }

    /// The error for a record of `found` fields where `expected` belong: a field holding a line
    /// break then most likely opens a quote that is never closed (the rest of the file is in it).
    /// `names`: the fields', shown in parentheses when not empty.
    pub(crate) fn wrong_width(&self, line: usize, expected: usize, names: &str, found: usize) -> FormatError {
        let hint = if self.record.iter().any(|f| f.contains(['\n', '\r'])) { " (a quoted field holding a line break: is a quote not closed?)" } else { "" };
        let names = if names.is_empty() { String::new() } else { format!(" ({names})") };
        err(line, format!("expected {expected} comma-separated fields{names}, found {found}{hint}"))
    }
}

/// The fields of the first record of CSV text that is not blank (it may span lines), as the
/// readers read it; `None` when there is none or it is not valid.
pub fn csv_first_record(text: &str) -> Option<Vec<String>> {
    let mut rows = csv_rows(text.as_bytes());
    rows.next_record().ok().flatten()?;
    Some(rows.record.iter().map(String::from).collect())
}

/// A text field of a CSV file Assay wrote, as it was before [`csv_text`] guarded it against
/// spreadsheets: the one `'` put before a text that starts like a formula taken off again (the
/// guard is put before exactly those texts and those with `'`s before such a start, so the two
/// are inverse: `csv_untext(csv_text(s)) == s` once read as CSV).
pub fn csv_untext(s: &str) -> &str {
    crate::csv_guard::spreadsheet_unguard(s)
}

pub(super) use crate::csv_guard::looks_like_formula;

/// A text field of every CSV file Assay writes: quoted when it holds a comma, a quote or a line
/// break (RFC 4180, as the `csv` crate quotes: it reads the field back exactly), and, when a
/// spreadsheet would run it as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return: worker ids come from crowd links anyone can write, system names and segment ids from
/// imported files), led by a `'`; so is a text whose leading `'`s come before such a start, so that
/// the readers can take the guard off again ([`csv_untext`]). Numbers are not text fields: a
/// negative score is written as it is.
pub fn csv_text(s: &str) -> std::borrow::Cow<'_, str> {
    // Most text needs neither: one pass over its bytes (the judgment files' hot loop).
    let formula = matches!(s.as_bytes().first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r' | b'\'')) && looks_like_formula(s);
    if !formula && !s.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        return s.into();
    }
    let guarded: std::borrow::Cow<'_, str> = if formula { format!("'{s}").into() } else { s.into() };
    if guarded.contains([',', '"', '\n', '\r']) { format!("\"{}\"", guarded.replace('"', "\"\"")).into() } else { guarded }
}

/// [`csv_text`]'s guard alone, for a writer that quotes by itself (the `csv` crate's): `s` led by
/// a `'` when a spreadsheet could run it as a formula.
pub use crate::csv_guard::spreadsheet_guard;
