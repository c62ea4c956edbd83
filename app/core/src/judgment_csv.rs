//! The one reader of a protocol's judgment CSV (pairwise preference's, post-editing's, …): records
//! with the line each starts on (RFC 4180, read by the `csv` crate; blank lines skipped), the
//! header checked (the protocol's required columns, its optional ones and an optional `pair`,
//! each once, names in any case and order), every row's width and language pair checked (`xx-xx`
//! without a `pair` column), and text fields read with the spreadsheet guard taken off
//! ([`crate::csv_guard`]). Every error names its line.
//!
//! A module beneath every other (as `csv_guard`), so that `analysis::formats` (whose CSV records
//! are read by [`next_record`] too) and the protocols' own files share it without importing one
//! another: `analysis` uses `protocol`, so a protocol's file reader cannot use `analysis`.

use std::io::Read;

use crate::csv_guard::spreadsheet_unguard;

/// The language pair of a judgment CSV without a `pair` column.
pub const DEFAULT_PAIR: &str = "xx-xx";

/// A problem in a CSV file: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CsvLineError {
    pub line: usize,
    pub message: String,
}

/// The error `message` at `line`.
pub fn line_error(line: usize, message: impl Into<String>) -> CsvLineError {
    CsvLineError { line, message: message.into() }
}

/// Reads the next record of `reader` that is not blank into `record`: the 1-based line it starts
/// on (as the `csv` crate counts: empty lines just before it count as its first), `None` at the
/// end of the input. An error names its line (the record's before it when the crate gives none).
pub fn next_record<R: Read>(reader: &mut csv::Reader<R>, record: &mut csv::StringRecord) -> Result<Option<usize>, CsvLineError> {
    loop {
        match reader.read_record(record) {
            Ok(false) => return Ok(None),
            Ok(true) if record.len() == 1 && record[0].trim().is_empty() => continue,
            Ok(true) => return Ok(Some(record.position().map_or(1, |p| p.line() as usize))),
            Err(e) => {
                let line = e.position().map_or_else(|| record.position().map_or(1, |p| p.line() as usize), |p| p.line() as usize);
                return Err(match e.kind() {
                    csv::ErrorKind::Utf8 { err: utf8, .. } => line_error(line, format!("field {} is not valid UTF-8", utf8.field() + 1)),
                    csv::ErrorKind::Io(io) => line_error(line, format!("cannot read: {io}")),
                    _ => line_error(line, e.to_string()),
                });
            }
        }
    }
}

/// A CSV reader as every reader of Assay's CSV files sets it up: no header row of the crate's
/// own (the readers check theirs), rows of any width (checked by the readers, with their words).
pub fn reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(input)
}

/// A language pair as a file name may carry it: letters, digits, `-` and `_`, at most 40.
pub fn valid_pair(pair: &str) -> bool {
    !pair.is_empty() && pair.len() <= 40 && pair.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A protocol's judgment CSV: what its errors call it, its required columns (in the order
/// [`Row::raw`] and [`Row::text`] number them) and its optional ones besides `pair` (numbered
/// likewise by [`Row::optional`]).
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// "a pairwise judgment CSV", as a refused header's message names the file.
    pub kind: &'static str,
    pub required: &'static [&'static str],
    pub optional: &'static [&'static str],
}

/// A judgment CSV whose header has been read and checked; its rows follow ([`JudgmentCsv::next_row`]).
pub struct JudgmentCsv<R: Read> {
    reader: csv::Reader<R>,
    record: csv::StringRecord,
    header_line: usize,
    width: usize,
    required: Vec<usize>,
    optional: Vec<Option<usize>>,
    pair: Option<usize>,
}

impl<R: Read> JudgmentCsv<R> {
    /// Reads and checks the header of `input` against `layout`: every required column present,
    /// no column unknown, none twice.
    pub fn open(input: R, layout: &Layout) -> Result<JudgmentCsv<R>, CsvLineError> {
        let mut reader = reader(input);
        let mut record = csv::StringRecord::new();
        let required_list = layout.required.join(",");
        let Some(header_line) = next_record(&mut reader, &mut record)? else {
            return Err(line_error(1, format!("empty input: expected the header {required_list}")));
        };
        let names: Vec<String> = record.iter().map(|f| f.trim().trim_start_matches('\u{feff}').to_ascii_lowercase()).collect();
        let column = |name: &str| names.iter().position(|n| n == name);
        let optional_list = layout.optional.iter().copied().chain(["pair"]).collect::<Vec<_>>().join(", ");
        for (at, name) in names.iter().enumerate() {
            let known = layout.required.contains(&name.as_str()) || layout.optional.contains(&name.as_str()) || name == "pair";
            if !known {
                return Err(line_error(
                    header_line,
                    format!("unknown column {:?} ({} has {required_list} and optionally {optional_list})", record[at].trim(), layout.kind),
                ));
            }
            if names[..at].contains(name) {
                return Err(line_error(header_line, format!("the column {name} appears twice")));
            }
        }
        let required = layout
            .required
            .iter()
            .map(|name| column(name).ok_or_else(|| line_error(header_line, format!("the header has no column {name} ({required_list})"))))
            .collect::<Result<Vec<usize>, _>>()?;
        let optional = layout.optional.iter().map(|name| column(name)).collect();
        let pair = column("pair");
        Ok(JudgmentCsv { reader, record, header_line, width: names.len(), required, optional, pair })
    }

    /// The line of the header.
    pub fn header_line(&self) -> usize {
        self.header_line
    }

    /// The next row that is not blank, as wide as the header and with a valid language pair;
    /// `None` at the end of the input.
    pub fn next_row(&mut self) -> Result<Option<Row<'_>>, CsvLineError> {
        let Some(line) = next_record(&mut self.reader, &mut self.record)? else { return Ok(None) };
        let record = &self.record;
        if record.len() != self.width {
            let hint = if record.iter().any(|f| f.contains(['\n', '\r'])) { " (a quoted field holding a line break: is a quote not closed?)" } else { "" };
            return Err(line_error(line, format!("{} fields, but the header has {}{hint}", record.len(), self.width)));
        }
        let pair = self.pair.map_or(DEFAULT_PAIR, |c| record[c].trim());
        if !valid_pair(pair) {
            return Err(line_error(line, format!("{pair:?} is not a language pair (letters, digits, - and _ only, at most 40, e.g. en-de)")));
        }
        Ok(Some(Row { line, pair, record, required: &self.required, optional: &self.optional }))
    }
}

/// A row of a judgment CSV.
pub struct Row<'a> {
    /// The line it starts on.
    pub line: usize,
    /// Its language pair ([`DEFAULT_PAIR`] without a `pair` column).
    pub pair: &'a str,
    record: &'a csv::StringRecord,
    required: &'a [usize],
    optional: &'a [Option<usize>],
}

impl<'a> Row<'a> {
    /// Required column `k` of the layout, as written.
    pub fn raw(&self, k: usize) -> &'a str {
        &self.record[self.required[k]]
    }

    /// Required column `k` of the layout, trimmed, with the spreadsheet guard taken off.
    pub fn text(&self, k: usize) -> &'a str {
        spreadsheet_unguard(self.raw(k).trim())
    }

    /// Optional column `k` of the layout (besides `pair`), as written, when the file has it.
    pub fn optional(&self, k: usize) -> Option<&'a str> {
        let record = self.record;
        self.optional.get(k).copied().flatten().map(|c| &record[c])
    }

    /// The error `message` at this row's line.
    pub fn error(&self, message: impl Into<String>) -> CsvLineError {
        line_error(self.line, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAYOUT: Layout = Layout { kind: "a test judgment CSV", required: &["segment", "worker"], optional: &["edit_ms"] };

    fn rows(text: &str) -> Result<Vec<(usize, String, String, String, Option<String>)>, CsvLineError> {
        let mut csv = JudgmentCsv::open(text.as_bytes(), &LAYOUT)?;
        let mut out = Vec::new();
        while let Some(row) = csv.next_row()? {
            out.push((row.line, row.pair.to_string(), row.text(0).to_string(), row.raw(1).to_string(), row.optional(0).map(str::to_string)));
        }
        Ok(out)
    }

    #[test]
    fn rows_come_with_their_line_pair_and_guard_taken_off() {
        // A blank line just before a record counts as its first line (as the `csv` crate counts).
        let read = rows("\u{feff}Worker,SEGMENT\n w1 , '=1 \n\n\"w\n2\",2\n3,'3\n").unwrap();
        let expected = [(2, "=1", " w1 "), (3, "2", "w\n2"), (6, "'3", "3")];
        assert_eq!(read, expected.map(|(line, segment, worker)| (line, "xx-xx".to_string(), segment.to_string(), worker.to_string(), None)));
        let read = rows("segment,pair,worker,edit_ms\n1,en-de,w,30\n").unwrap();
        assert_eq!(read, [(2, "en-de".into(), "1".into(), "w".into(), Some("30".into()))]);
    }

    #[test]
    fn bad_headers_and_rows_are_refused_with_their_line() {
        let cases = [
            ("", 1, "empty input: expected the header segment,worker"),
            ("\n\nsegment\n", 1, "the header has no column worker (segment,worker)"),
            ("segment,worker,colour\n", 1, "unknown column \"colour\" (a test judgment CSV has segment,worker and optionally edit_ms, pair)"),
            ("segment,worker,Segment\n", 1, "the column segment appears twice"),
            ("segment,worker\n1,w\n2\n", 3, "1 fields, but the header has 2"),
            ("segment,worker\n\"1,w\n2,w\n", 2, "1 fields, but the header has 2 (a quoted field holding a line break: is a quote not closed?)"),
            ("segment,worker,pair\n1,w,../x\n", 2, "\"../x\" is not a language pair"),
            ("segment,worker,pair\n1,w,\n", 2, "\"\" is not a language pair"),
        ];
        for (text, line, words) in cases {
            let e = rows(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
        let e = JudgmentCsv::open(&b"segment,worker\n1,\xff\n"[..], &LAYOUT).and_then(|mut c| c.next_row().map(|_| ())).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, "field 2 is not valid UTF-8"));
    }

    #[test]
    fn a_pair_is_what_a_file_name_may_carry() {
        assert!(valid_pair("en-de") && valid_pair("zh_Hant-en") && valid_pair(&"a".repeat(40)));
        assert!(!valid_pair("") && !valid_pair("en/de") && !valid_pair(&"a".repeat(41)) && !valid_pair("en de"));
    }
}
