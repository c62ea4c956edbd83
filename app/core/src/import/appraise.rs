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
//! column. Other keys (`_item`, `_block`, …) are ignored.
//!
//! **Documents** (Appraise's document and ESA/MQM batches): `documentID` is kept with each
//! segment (consecutive segments of one document form it, as in Assay's `.docs` files).
//! WMT 2024's ESA batches put the language pair into every `sourceID` (`"en-de"`) and the
//! segment's number into `itemID`; so when `sourceID` does not identify segments (two items
//! with the same `documentID` and `sourceID` but different `sourceText`), the whole file is
//! keyed by (`documentID`, `itemID`) instead, and a note says so. `sourceContextLeft` and
//! `targetContextLeft` are not stored: a screen shows a segment's document from the
//! document's own segments (a note counts the items that had them).
//!
//! **Pre-filled spans** (ESA-AI): `mqm` holds a TGT item's spans, a list of
//! `{"start_i", "end_i", "severity"}` (offsets in characters of `targetText`, end exclusive,
//! `"missing"` for an omission) or Appraise's tutorial form `{"payload": [...]}`. Every batch
//! item carries `mqm`, mostly `[]`; so only when some TGT item of the file has a span are the
//! file's `mqm` lists read as pre-filled (then `[]` is "no error"), else none are. Spans must
//! fit their target text, or the import fails naming batch, item and span.

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
    let scan = scan_items(&batches);
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
            let sid = if scan.by_item_id {
                let Some(sid) = id_field(item, "itemID") else {
                    loc.err(&mut errs, "missing `itemID` (a number or a string): this file's `sourceID`s do not tell its segments apart, so segments are keyed by `itemID`");
                    continue;
                };
                sid
            } else {
                let Some(sid) = id_field(item, "sourceID") else {
                    loc.err(&mut errs, "missing `sourceID` (a number or a string)");
                    continue;
                };
                sid
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
            let spans = if scan.prefilled {
                match super::parse_prefilled(item.get("mqm").unwrap_or(&Value::Null)) {
                    Ok(s) => Some(s.unwrap_or_default()),
                    Err(problem) => {
                        loc.err(&mut errs, format!("`mqm`: {problem}"));
                        continue;
                    }
                }
            } else {
                None
            };
            let at = format!("batch {}, item {}: ", bi + 1, ii + 1);
            for part in target_id.split('+') {
                if let Some(system) = b.systems.register(part, &mut errs, file, None, &at) {
                    b.output(&mut errs, &pair, seg, &system, text.clone(), &loc);
                    if let Some(spans) = spans.clone().filter(|_| text.is_some()) {
                        b.spans(&mut errs, &pair, seg, &system, spans, &loc);
                    }
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
    if scan.by_item_id {
        notes.push("segments keyed by documentID and itemID: this file's sourceIDs do not tell its segments apart".into());
    }
    if scan.with_context > 0 {
        notes.push(format!(
            "{} items carry sourceContextLeft/targetContextLeft, not stored: a screen shows a segment's document from the document's own segments",
            scan.with_context
        ));
    }
    if scan.prefilled {
        notes.push("read the TGT items' `mqm` spans as pre-filled spans (ESA-AI)".into());
    }
    Ok(ImportBundle {
        test_sets,
        systems,
        notes,
    })
}

/// What a first look over every item decides for the whole file.
struct Scan {
    /// `sourceID` does not tell segments apart: key them by `itemID`.
    by_item_id: bool,
    /// Some TGT item has a pre-filled span: read every TGT item's `mqm`.
    prefilled: bool,
    /// Items with a left context.
    with_context: usize,
}

fn scan_items(batches: &[&Value]) -> Scan {
    use std::collections::HashMap;
    let mut seen: HashMap<(String, String), &str> = HashMap::new();
    let mut scan = Scan { by_item_id: false, prefilled: false, with_context: 0 };
    let items = batches.iter().filter_map(|b| b.get("items")).filter_map(Value::as_array).flatten().filter_map(Value::as_object);
    for item in items {
        let kind = str_field(item, "itemType").unwrap_or("");
        if item.get("isCompleteDocument").and_then(Value::as_bool) == Some(true) || !(kind == "TGT" || kind == "REF") {
            continue;
        }
        if ["sourceContextLeft", "targetContextLeft"].iter().any(|k| str_field(item, k).is_some_and(|t| !t.trim().is_empty())) {
            scan.with_context += 1;
        }
        if kind == "TGT" {
            let spans = match item.get("mqm") {
                Some(Value::Object(o)) => o.get("payload"),
                other => other,
            };
            scan.prefilled |= spans.and_then(Value::as_array).is_some_and(|l| !l.is_empty());
        }
        let document = id_field(item, "documentID").unwrap_or_default();
        if let (Some(sid), Some(text)) = (id_field(item, "sourceID"), str_field(item, "sourceText")) {
            match seen.get(&(document.clone(), sid.clone())) {
                Some(first) if *first != text => scan.by_item_id = true,
                Some(_) => {}
                None => {
                    seen.insert((document, sid), text);
                }
            }
        }
    }
    scan
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
