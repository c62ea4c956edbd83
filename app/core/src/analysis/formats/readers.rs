//! The Appraise segment-level CSV and Assay's own judgment files (CSV and JSONL).

use super::*;

pub(super) const APPRAISE_COLUMNS: [&str; 9] = [
    "username",
    "system",
    "itemId",
    "itemType",
    "srcLang",
    "trgLang",
    "score",
    "timeStart",
    "timeEnd",
];

/// Reads an Appraise segment-level score CSV (WMT22 column order, header optional). All rows
/// belong to campaign task `task`. Text fields are read as Assay writes them ([`csv_untext`]).
pub fn read_appraise_csv(input: impl Read, task: &str) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut rows = csv_rows(input);
    let mut first = true;
    while let Some(n) = rows.next_record()? {
        let f = &rows.record;
        if std::mem::take(&mut first) && f[0].trim().eq_ignore_ascii_case("username") {
            let got: Vec<&str> = f.iter().map(|s| s.trim()).collect();
            if got != APPRAISE_COLUMNS {
                return Err(err(
                    n,
                    format!("unexpected header: expected {}", APPRAISE_COLUMNS.join(",")),
                ));
            }
            continue;
        }
        match f.len() {
            9 => {}
            11 => {
                return Err(err(
                    n,
                    "a document-level row (11 fields): only segment-level rows (9 fields) are read",
                ));
            }
            k => return Err(rows.wrong_width(n, 9, &APPRAISE_COLUMNS.join(","), k)),
        }
        let item_type = parse_item_type(n, f[3].trim())?;
        let score = parse_number(n, "score", &f[6])?;
        let start = parse_number(n, "timeStart", &f[7])?;
        let end = parse_number(n, "timeEnd", &f[8])?;
        if end < start {
            return Err(err(n, format!("timeEnd {end} is before timeStart {start}")));
        }
        let pair = format!("{}-{}", f[4].trim(), f[5].trim());
        let user = csv_untext(&f[0]);
        set.push(
            JudgmentNames {
                worker: user,
                hit: user,
                system: csv_untext(&f[1]),
                segment: csv_untext(&f[2]),
                lang_pair: &pair,
                task,
                // Appraise's segment-level file holds DA scores.
                scale: Scale::Continuous,
            },
            item_type,
            score,
            (end - start) as f32,
        );
    }
    Ok(set)
}

/// The columns of Assay's own judgment export (`judgments.csv` / `judgments.jsonl`, see
/// `export::rows`) that the analysis reads; the others are ignored (`score2` and `seconds` are
/// read when present).
pub(super) const ASSAY_COLUMNS: [&str; 10] = ["task", "src_lang", "trg_lang", "hit", "worker", "item_type", "system", "segment", "score", "skipped"];

/// One row of an Assay judgment file: a record per question of its campaign task's protocol
/// that the answer answers (word order: `word-order-q1` from `score`, `word-order-q2` from
/// `score2`), as the analysis reads a campaign, each on its question's agreement scale.
pub(super) fn assay_record(
    set: &mut JudgmentSet,
    n: usize,
    get: &dyn Fn(usize) -> Option<String>,
    score2: Option<String>,
    seconds: Option<String>,
) -> Result<(), FormatError> {
    let skipped = matches!(get(9).as_deref().map(str::trim), Some("1" | "true"));
    let number = |what: &str, v: Option<String>| -> Result<Option<f64>, FormatError> {
        match v.as_deref().map(str::trim) {
            None | Some("" | "null") => Ok(None),
            Some(v) => parse_number(n, what, v).map(Some),
        }
    };
    if skipped {
        return Ok(());
    }
    let Some(score) = number("score", get(8))? else { return Ok(()) };
    let score2 = number("score2", score2)?;
    let type_text = get(5).unwrap_or_default();
    if type_text.trim().eq_ignore_ascii_case("GOLD") {
        // An output of a gold block (relative ranking): quality control in no score or ranking.
        return Ok(());
    }
    let item_type = parse_item_type(n, type_text.trim())?;
    let seconds = match seconds.as_deref().map(str::trim) {
        None | Some("") | Some("null") => 0.0,
        Some(t) => parse_number(n, "seconds", t)?,
    };
    // Names exactly as written (a name may begin or end with a space or a line break).
    let field = |k: usize| get(k).unwrap_or_default();
    let pair = format!("{}-{}", field(1), field(2));
    let (task, hit, worker, system, segment) = (field(0), field(3), field(4), field(6), field(7));
    if worker.trim().is_empty() || system.trim().is_empty() || segment.trim().is_empty() {
        return Err(err(n, "worker, system and segment must not be empty"));
    }
    let kind = crate::model::TaskKind::parse(&task)
        .ok_or_else(|| err(n, format!("task {task:?} is not a campaign task (an Assay judgment file names its campaign's task: {})", crate::model::TaskKind::ALL.map(crate::model::TaskKind::as_str).join(", "))))?;
    let answer = crate::protocol::Answer { score: Some(score), score2, ..Default::default() };
    for q in crate::protocol::for_task(kind).questions() {
        let Some(value) = (q.read)(&answer) else { continue };
        let names = JudgmentNames { worker: &worker, hit: &hit, system: &system, segment: &segment, lang_pair: &pair, task: q.task_name(kind), scale: q.scale };
        set.push(names, item_type, value, seconds as f32);
    }
    Ok(())
}

/// Reads Assay's own judgment CSV (`judgments.csv`, raw or cleaned): a header naming the
/// columns, then one judgment per record (a quoted text may hold line breaks: records are read
/// with the `csv` crate, texts exactly as written, [`csv_untext`]); skipped judgments are left
/// out, as when the analysis reads the database; outputs of gold blocks (`GOLD`) too. Seconds
/// per item ([`TimeBasis::PerItem`]) from `seconds`.
pub fn read_assay_csv(input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let mut rows = csv_rows(input);
    let mut columns: Option<([usize; 10], Option<usize>, Option<usize>, usize)> = None;
    while let Some(n) = rows.next_record()? {
        let f = &rows.record;
        let Some((cols, score2, seconds, width)) = columns else {
            let mut idx = [0usize; 10];
            for (k, want) in ASSAY_COLUMNS.iter().enumerate() {
                idx[k] = f.iter().position(|h| h.trim() == *want).ok_or_else(|| {
                    err(n, format!("the header lacks column {want:?} (an Assay judgments.csv has {})", ASSAY_COLUMNS.join(",")))
                })?;
            }
            let optional = |name: &str| f.iter().position(|h| h.trim() == name);
            columns = Some((idx, optional("score2"), optional("seconds"), f.len()));
            continue;
        };
        if f.len() != width {
            return Err(rows.wrong_width(n, width, "", f.len()));
        }
        let get = |k: usize| Some(csv_untext(&f[cols[k]]).to_string());
        assay_record(&mut set, n, &get, score2.map(|k| f[k].to_string()), seconds.map(|k| f[k].to_string()))?;
    }
    if columns.is_none() {
        return Err(err(1, "empty input: expected the header line"));
    }
    Ok(set)
}

/// Reads Assay's own judgment JSONL (`judgments.jsonl`): one JSON object per line with the
/// keys of `judgments.csv`.
pub fn read_assay_jsonl(input: impl Read) -> Result<JudgmentSet, FormatError> {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    for (n, line) in lines(input) {
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).map_err(|e| err(n, format!("not a JSON object: {e}")))?;
        let obj = v.as_object().ok_or_else(|| err(n, "not a JSON object"))?;
        if let Some(missing) = ASSAY_COLUMNS.iter().find(|k| !obj.contains_key(**k)) {
            return Err(err(n, format!("the object lacks the key {missing:?}")));
        }
        let text = |v: &serde_json::Value| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        };
        let get = |k: usize| obj.get(ASSAY_COLUMNS[k]).map(text);
        assay_record(&mut set, n, &get, obj.get("score2").map(text), obj.get("seconds").map(text))?;
    }
    Ok(set)
}
