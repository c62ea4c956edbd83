//! Appraise batch JSON: a list of batches (a single batch object is accepted too), each
//! `{"items": [...], "task": {"sourceLanguage", "targetLanguage", ...}}`.
//!
//! Per item: `itemType` (`TGT`, `REF`, `BAD`, `CHK`; ESA's `BAD.<payload>` counts as `BAD`),
//! `sourceID` (number or string), `sourceText`, `targetID`, `targetText`, optional `documentID`
//! and `isCompleteDocument`. Segments are keyed by (`documentID`, `sourceID`) per language pair.
//! - `TGT`: a system output; `targetID` may join identical systems with `+` (`sysA+sysB`), the
//!   output is given to each of them.
//! - `REF`: the human reference of the segment, named by `targetID` (`ref` if empty).
//! - `BAD`, `CHK`: Appraise's own quality control; skipped, counted in a note.
//! - Items with `isCompleteDocument: true` (document-level pseudo-items) are skipped with a note.
//!
//! Appraise's reference-based campaigns may put the reference into `sourceText`; the importer
//! cannot tell and stores `sourceText` as the source. Errors name the batch and item (1-based
//! positions in the file) because JSON values carry no line numbers; syntax errors give line and
//! column. Other keys (`_item`, `_block`, `mqm`, context fields, …) are ignored.

use std::io::Read;

use serde_json::{Map, Value};

use super::builder::{Builder, Loc};
use super::text::{Budget, is_blank, read_all};
use super::{Errors, ImportBundle, ImportError, ImportOptions, LanguagePair};
use crate::model::ItemType;

/// Imports Appraise batch JSON read from `reader`; `file` names it in error messages.
pub fn import_appraise(
    file: &str,
    reader: &mut dyn Read,
    opts: &ImportOptions,
) -> Result<ImportBundle, Vec<ImportError>> {
    let mut budget = Budget::default();
    let bytes = read_all(reader, file, &opts.limits, &mut budget).map_err(|e| vec![e])?;
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            let problem = if e.is_data() || e.is_eof() || e.is_syntax() {
                format!("invalid JSON at column {}: {e}", e.column())
            } else {
                format!("invalid JSON: {e}")
            };
            let line = if e.line() > 0 { Some(e.line()) } else { None };
            return Err(vec![ImportError::new(file, line, strip_position(&problem))]);
        }
    };
    let batches: Vec<&Value> = match &value {
        Value::Array(list) => list.iter().collect(),
        Value::Object(_) => vec![&value],
        _ => {
            return Err(vec![ImportError::new(
                file,
                None,
                "expected a list of Appraise batches (a JSON array)",
            )]);
        }
    };
    let mut errs = Errors::new(opts.limits.max_errors);
    let mut b = Builder::default();
    let (mut bad, mut chk, mut docs) = (0usize, 0usize, 0usize);
    if batches.is_empty() {
        errs.push(file, None, "the file holds no batches");
    }
    'batches: for (bi, batch) in batches.iter().enumerate() {
        let here = |at: String| Loc {
            file: file.to_string(),
            line: None,
            at: Some(at),
        };
        let bloc = here(format!("batch {}", bi + 1));
        let Some(batch) = batch.as_object() else {
            bloc.err(&mut errs, "expected an object with `items` and `task`");
            continue;
        };
        let Some(task) = batch.get("task").and_then(Value::as_object) else {
            bloc.err(&mut errs, "missing `task` object");
            continue;
        };
        let pair = match (
            str_field(task, "sourceLanguage"),
            str_field(task, "targetLanguage"),
        ) {
            (Some(s), Some(t)) => match (super::LangCode::parse(s), super::LangCode::parse(t)) {
                (Ok(source), Ok(target)) => LanguagePair { source, target },
                (Err(e), _) | (_, Err(e)) => {
                    bloc.err(&mut errs, format!("task: {}", e.0));
                    continue;
                }
            },
            _ => {
                bloc.err(
                    &mut errs,
                    "task needs `sourceLanguage` and `targetLanguage` strings",
                );
                continue;
            }
        };
        let Some(items) = batch.get("items").and_then(Value::as_array) else {
            bloc.err(&mut errs, "missing `items` list");
            continue;
        };
        for (ii, item) in items.iter().enumerate() {
            if errs.full() {
                break 'batches;
            }
            let loc = here(format!("batch {}, item {}", bi + 1, ii + 1));
            let Some(item) = item.as_object() else {
                loc.err(&mut errs, "expected an object");
                continue;
            };
            let Some(type_str) = str_field(item, "itemType") else {
                loc.err(&mut errs, "missing `itemType`");
                continue;
            };
            let base = type_str.split('.').next().unwrap_or("");
            let kind = match base {
                "TGT" | "REF" | "BAD" | "CHK" => ItemType::parse(base),
                _ => None,
            };
            let Some(kind) = kind else {
                loc.err(
                    &mut errs,
                    format!("unknown itemType `{type_str}` (expected TGT, REF, BAD or CHK)"),
                );
                continue;
            };
            match kind {
                ItemType::BadRef => {
                    bad += 1;
                    continue;
                }
                ItemType::Repeat => {
                    chk += 1;
                    continue;
                }
                ItemType::System | ItemType::Ref => {}
            }
            if item.get("isCompleteDocument").and_then(Value::as_bool) == Some(true) {
                docs += 1;
                continue;
            }
            let Some(sid) = id_field(item, "sourceID") else {
                loc.err(&mut errs, "missing `sourceID` (a number or a string)");
                continue;
            };
            let document = match item.get("documentID") {
                None | Some(Value::Null) => None,
                Some(_) => match id_field(item, "documentID") {
                    Some(d) => Some(d),
                    None => {
                        loc.err(&mut errs, "`documentID` must be a string or a number");
                        continue;
                    }
                },
            };
            let Some(source) = str_field(item, "sourceText") else {
                loc.err(&mut errs, "missing `sourceText` string");
                continue;
            };
            if is_blank(source) {
                loc.err(
                    &mut errs,
                    "empty `sourceText` where a source segment is needed",
                );
                continue;
            }
            let Some(target) = str_field(item, "targetText") else {
                loc.err(&mut errs, "missing `targetText` string");
                continue;
            };
            let target_id = str_field(item, "targetID").unwrap_or("").trim();
            let empty_target = is_blank(target);
            if empty_target && (kind == ItemType::Ref || !opts.allow_empty_outputs) {
                let what = if kind == ItemType::Ref {
                    "a reference"
                } else {
                    "a system output"
                };
                loc.err(
                    &mut errs,
                    format!("empty `targetText` where {what} is needed"),
                );
                continue;
            }
            let Some(seg) = b.segment(
                &mut errs,
                &pair,
                document,
                None,
                sid,
                source.to_string(),
                &loc,
            ) else {
                continue;
            };
            if kind == ItemType::Ref {
                let name = if target_id.is_empty() {
                    "ref"
                } else {
                    target_id
                };
                b.reference(&mut errs, &pair, seg, name, target.to_string(), &loc);
                continue;
            }
            if target_id.is_empty() {
                loc.err(&mut errs, "TGT item without `targetID` (the system name)");
                continue;
            }
            let text = if empty_target {
                None
            } else {
                Some(target.to_string())
            };
            let at = format!("batch {}, item {}: ", bi + 1, ii + 1);
            for part in target_id.split('+') {
                if let Some(system) = b.systems.register(part, &mut errs, file, None, &at) {
                    b.output(&mut errs, &pair, seg, &system, text.clone(), &loc);
                }
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs.into_vec());
    }
    let (test_sets, systems) = b.into_test_sets(&opts.test_set_name);
    if test_sets.is_empty() {
        return Err(vec![ImportError::new(
            file,
            None,
            "no TGT or REF items found",
        )]);
    }
    let mut notes = Vec::new();
    if bad + chk > 0 {
        notes.push(format!(
            "ignored {bad} BAD and {chk} CHK items (Appraise's own quality control; Assay builds its own)"
        ));
    }
    if docs > 0 {
        notes.push(format!(
            "ignored {docs} document-level items (isCompleteDocument)"
        ));
    }
    Ok(ImportBundle {
        test_sets,
        systems,
        notes,
    })
}

/// serde_json's message ends with " at line L column C"; the line is in the error, drop the tail.
pub(crate) fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn str_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// A string or integer id as a string.
fn id_field(obj: &Map<String, Value>, key: &str) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}
