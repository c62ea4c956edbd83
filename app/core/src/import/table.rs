//! TSV and JSONL with named columns.
//!
//! Columns (names are matched ignoring case; the first name is the canonical one):
//!
//! | column | also accepted | required | meaning |
//! |---|---|---|---|
//! | `segment_id` | `sid`, `seg_id` | yes | segment id, unique per (document, segment) |
//! | `source` | `src` | yes | source text |
//! | `reference` | `ref` | no | human reference (stored under the name `ref`) |
//! | `document` | `doc_id`, `doc` | no | document id (part of the segment key) |
//! | `domain` | | no | domain of the document |
//! | `system` | `sys`, `system_id` | with `output` | system name |
//! | `output` | `target`, `hyp` | with `system` | the system's output |
//! | `src_lang` | `source_lang` | no | source language code |
//! | `tgt_lang` | `target_lang` | no | target language code |
//! | `spans` | `prefilled_spans`, `esa_spans`, `mqm` | no | pre-filled error spans of the output (ESA-AI) |
//!
//! `spans` holds Appraise's span JSON (`[{"start_i": 4, "end_i": 9, "severity": "major"}]`,
//! offsets in characters of `output`, end exclusive, `"missing"` for an omission; in JSONL the
//! list itself or a string holding it). Blank: no spans given; `[]`: given, no error. Each span
//! must fit the output (within it, non-empty, on grapheme boundaries), or the import fails
//! naming the line and the span.
//!
//! Rows are "long": one row per (segment, system). Rows of the same segment must repeat the same
//! source (and reference, if given); a row with empty `system` and `output` only declares the
//! segment. When a `reference` column exists, every segment needs a non-empty reference in at least
//! one of its rows. The language pair comes from `src_lang`/`tgt_lang` (then one test set per pair)
//! or from the caller ([`ImportOptions::pair`]); if both are given they must agree. Unknown columns
//! are ignored and listed in a note.
//!
//! TSV rules (IANA `text/tab-separated-values`): the first line is the header; fields are split on
//! every tab; there is no quoting and no escaping (`"` and `\` are ordinary characters), so a field
//! cannot contain a tab or a line break: a row with more fields than the header is reported as
//! "a tab inside a field", one with fewer as "a line break inside a field". Empty lines are
//! skipped. JSONL: one JSON object per line, keys as above, values strings (numbers are accepted
//! and turned into text, `null` means absent); blank lines are skipped; syntax errors give the line
//! and column.

use std::collections::BTreeSet;
use std::io::Read;

use serde_json::Value;

use super::appraise::strip_position;
use super::builder::{Builder, Loc};
use super::text::{Budget, is_blank, read_lines};
use super::{Errors, ImportBundle, ImportError, ImportOptions, LangCode, LanguagePair};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Col {
    SegmentId,
    Source,
    Reference,
    Document,
    Domain,
    System,
    Output,
    SrcLang,
    TgtLang,
    Spans,
}

const COLUMNS: &[(Col, &[&str])] = &[
    (Col::SegmentId, &["segment_id", "sid", "seg_id"]),
    (Col::Source, &["source", "src"]),
    (Col::Reference, &["reference", "ref"]),
    (Col::Document, &["document", "doc_id", "doc"]),
    (Col::Domain, &["domain"]),
    (Col::System, &["system", "sys", "system_id"]),
    (Col::Output, &["output", "target", "hyp"]),
    (Col::SrcLang, &["src_lang", "source_lang"]),
    (Col::TgtLang, &["tgt_lang", "target_lang"]),
    (Col::Spans, &["spans", "prefilled_spans", "esa_spans", "mqm"]),
];

const NCOLS: usize = 10;

fn column(name: &str) -> Option<Col> {
    let n = name.trim().to_ascii_lowercase();
    COLUMNS
        .iter()
        .find(|(_, names)| names.contains(&n.as_str()))
        .map(|(c, _)| *c)
}

fn canonical(c: Col) -> &'static str {
    COLUMNS
        .iter()
        .find(|(k, _)| *k == c)
        .map(|(_, n)| n[0])
        .unwrap_or("?")
}

/// One row, by canonical column.
type Row = [Option<String>; NCOLS];

/// Which columns the input has, for the checks that depend on the header.
struct Schema {
    present: BTreeSet<Col>,
}

impl Schema {
    /// Checks required and paired columns; returns false if the input cannot be used.
    fn check(
        &self,
        file: &str,
        line: Option<usize>,
        opts: &ImportOptions,
        errs: &mut Errors,
    ) -> bool {
        let mut ok = true;
        for c in [Col::SegmentId, Col::Source] {
            if !self.present.contains(&c) {
                errs.push(
                    file,
                    line,
                    format!("missing required column `{}`", canonical(c)),
                );
                ok = false;
            }
        }
        if self.present.contains(&Col::System) != self.present.contains(&Col::Output) {
            errs.push(
                file,
                line,
                "columns `system` and `output` must be given together",
            );
            ok = false;
        }
        if self.present.contains(&Col::SrcLang) != self.present.contains(&Col::TgtLang) {
            errs.push(
                file,
                line,
                "columns `src_lang` and `tgt_lang` must be given together",
            );
            ok = false;
        }
        if !self.present.contains(&Col::SrcLang) && opts.pair.is_none() {
            errs.push(
                file,
                line,
                "no language pair: add `src_lang` and `tgt_lang` columns or choose the pair when importing",
            );
            ok = false;
        }
        ok
    }
}

struct Rows<'a> {
    file: &'a str,
    opts: &'a ImportOptions,
    b: Builder,
    has_reference: bool,
}

impl Rows<'_> {
    fn add(&mut self, errs: &mut Errors, row: Row, loc: &Loc) {
        let get = |c: Col| row[c as usize].clone();
        let pair = match (get(Col::SrcLang), get(Col::TgtLang)) {
            (Some(s), Some(t)) => match (LangCode::parse(&s), LangCode::parse(&t)) {
                (Ok(source), Ok(target)) => {
                    let p = LanguagePair { source, target };
                    if let Some(given) = &self.opts.pair
                        && *given != p
                    {
                        loc.err(
                            errs,
                            format!("language pair {p} differs from the chosen pair {given}"),
                        );
                        return;
                    }
                    p
                }
                (Err(e), _) | (_, Err(e)) => {
                    loc.err(errs, e.0);
                    return;
                }
            },
            (None, None) => match &self.opts.pair {
                Some(p) => p.clone(),
                None => {
                    loc.err(
                        errs,
                        "no language pair: `src_lang` and `tgt_lang` are empty",
                    );
                    return;
                }
            },
            _ => {
                loc.err(errs, "empty `src_lang` or `tgt_lang`");
                return;
            }
        };
        let Some(sid) = get(Col::SegmentId)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
        else {
            loc.err(errs, "empty `segment_id`");
            return;
        };
        let Some(source) = get(Col::Source).filter(|s| !is_blank(s)) else {
            loc.err(errs, "empty `source` where a source segment is needed");
            return;
        };
        let document = get(Col::Document)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        let domain = get(Col::Domain)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        let Some(seg) = self
            .b
            .segment(errs, &pair, document, domain, sid, source, loc)
        else {
            return;
        };
        if let Some(r) = get(Col::Reference).filter(|s| !is_blank(s)) {
            self.b.reference(errs, &pair, seg, "ref", r, loc);
        }
        let system = get(Col::System)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty());
        let output = get(Col::Output).filter(|s| !is_blank(s));
        let spans = match get(Col::Spans).map(serde_json::Value::String).map(|v| super::parse_prefilled(&v)).transpose() {
            Ok(s) => s.flatten(),
            Err(problem) => {
                loc.err(errs, problem.to_string());
                return;
            }
        };
        if spans.is_some() && (system.is_none() || output.is_none()) {
            loc.err(errs, "pre-filled `spans` need a `system` and its `output` to mark");
            return;
        }
        match (system, output) {
            (None, None) => {}
            (None, Some(_)) => loc.err(errs, "an `output` without a `system`"),
            (Some(sys), out) => {
                if out.is_none() && !self.opts.allow_empty_outputs {
                    loc.err(
                        errs,
                        format!("empty `output` where a system output of `{sys}` is needed"),
                    );
                    return;
                }
                if let Some(name) = self.b.systems.register(&sys, errs, self.file, loc.line, "") {
                    self.b.output(errs, &pair, seg, &name, out, loc);
                    if let Some(spans) = spans {
                        self.b.spans(errs, &pair, seg, &name, spans, loc);
                    }
                }
            }
        }
    }

    fn finish(
        self,
        mut errs: Errors,
        ignored: BTreeSet<String>,
    ) -> Result<ImportBundle, Vec<ImportError>> {
        if self.has_reference {
            self.b.require_reference(&mut errs, "ref");
        }
        if !errs.is_empty() {
            return Err(errs.into_vec());
        }
        let (test_sets, systems) = self.b.into_test_sets(&self.opts.test_set_name);
        if test_sets.is_empty() {
            return Err(vec![ImportError::new(self.file, None, "no rows")]);
        }
        let mut notes = Vec::new();
        if !ignored.is_empty() {
            notes.push(format!(
                "ignored unknown column(s): {}",
                ignored
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(ImportBundle {
            test_sets,
            systems,
            notes,
        })
    }
}

/// Imports a TSV file read from `reader`; `file` names it in error messages.
pub fn import_tsv(
    file: &str,
    reader: &mut dyn Read,
    opts: &ImportOptions,
) -> Result<ImportBundle, Vec<ImportError>> {
    let mut errs = Errors::new(opts.limits.max_errors);
    let mut budget = Budget::default();
    let Some(lines) = read_lines(reader, file, &opts.limits, &mut budget, &mut errs) else {
        return Err(errs.into_vec());
    };
    let mut it = lines
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.is_empty());
    let Some((hi, header)) = it.next() else {
        errs.push(
            file,
            None,
            "empty file: expected a header line such as `segment_id\tsource\treference`",
        );
        return Err(errs.into_vec());
    };
    let header_line = Some(hi + 1);
    let mut cols: Vec<Option<Col>> = Vec::new();
    let mut present = BTreeSet::new();
    let mut ignored = BTreeSet::new();
    for name in header.split('\t') {
        let c = column(name);
        match c {
            Some(c) if !present.insert(c) => errs.push(
                file,
                header_line,
                format!(
                    "column `{}` is given twice (`{}`)",
                    canonical(c),
                    name.trim()
                ),
            ),
            Some(_) => {}
            None => {
                ignored.insert(name.trim().to_string());
            }
        }
        cols.push(c);
    }
    let schema = Schema { present };
    if !schema.check(file, header_line, opts, &mut errs) || !errs.is_empty() {
        return Err(errs.into_vec());
    }
    let mut rows = Rows {
        file,
        opts,
        b: Builder::default(),
        has_reference: schema.present.contains(&Col::Reference),
    };
    for (i, line) in it {
        if errs.full() {
            break;
        }
        let loc = Loc {
            file: file.to_string(),
            line: Some(i + 1),
            at: None,
        };
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != cols.len() {
            let why = if fields.len() > cols.len() {
                "TSV fields cannot contain tabs"
            } else {
                "TSV fields cannot contain line breaks (a line break inside a field splits the row)"
            };
            loc.err(
                &mut errs,
                format!(
                    "has {} fields but the header has {}; {why}",
                    fields.len(),
                    cols.len()
                ),
            );
            continue;
        }
        let mut row: Row = Default::default();
        for (c, f) in cols.iter().zip(fields) {
            if let Some(c) = c {
                row[*c as usize] = Some(f.to_string());
            }
        }
        rows.add(&mut errs, row, &loc);
    }
    rows.finish(errs, ignored)
}

/// Imports a JSONL file read from `reader`; `file` names it in error messages.
pub fn import_jsonl(
    file: &str,
    reader: &mut dyn Read,
    opts: &ImportOptions,
) -> Result<ImportBundle, Vec<ImportError>> {
    let mut errs = Errors::new(opts.limits.max_errors);
    let mut budget = Budget::default();
    let Some(lines) = read_lines(reader, file, &opts.limits, &mut budget, &mut errs) else {
        return Err(errs.into_vec());
    };
    let mut rows = Rows {
        file,
        opts,
        b: Builder::default(),
        has_reference: false,
    };
    let mut ignored = BTreeSet::new();
    let mut checked = false;
    for (i, line) in lines.lines.iter().enumerate() {
        if errs.full() {
            break;
        }
        if is_blank(line) {
            continue;
        }
        let line_no = i + 1;
        let loc = Loc {
            file: file.to_string(),
            line: Some(line_no),
            at: None,
        };
        let obj = match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(o)) => o,
            Ok(_) => {
                loc.err(&mut errs, "expected a JSON object");
                continue;
            }
            Err(e) => {
                loc.err(
                    &mut errs,
                    format!(
                        "invalid JSON at column {}: {}",
                        e.column(),
                        strip_position(&e.to_string())
                    ),
                );
                continue;
            }
        };
        let mut row: Row = Default::default();
        let mut present = BTreeSet::new();
        let mut bad = false;
        for (k, v) in &obj {
            let Some(c) = column(k) else {
                ignored.insert(k.clone());
                continue;
            };
            if !present.insert(c) {
                loc.err(
                    &mut errs,
                    format!("key `{}` is given twice (`{k}`)", canonical(c)),
                );
                bad = true;
                continue;
            }
            row[c as usize] = match v {
                Value::Null => None,
                Value::Array(_) | Value::Object(_) if c == Col::Spans => Some(v.to_string()),
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => {
                    loc.err(&mut errs, format!("`{k}` must be a string"));
                    bad = true;
                    continue;
                }
            };
        }
        if bad {
            continue;
        }
        if !checked {
            let schema = Schema { present };
            if !schema.check(file, Some(line_no), opts, &mut errs) {
                return Err(errs.into_vec());
            }
            checked = true;
        }
        if row[Col::Reference as usize].is_some() {
            rows.has_reference = true;
        }
        rows.add(&mut errs, row, &loc);
    }
    if !checked && errs.is_empty() {
        errs.push(file, None, "no JSON objects in the file");
    }
    rows.finish(errs, ignored)
}
