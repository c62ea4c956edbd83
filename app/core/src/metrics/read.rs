//! Metric and human scores in, validated like imports: every problem is reported with its file,
//! line and what is wrong, and nothing is returned unless everything is valid.
//!
//! Formats:
//! - **mt-metrics-eval** score files: `LP/METRIC-REF.LEVEL.score` (the metric-scores layout)
//!   or `LP.NAME.LEVEL.score` (the human-scores layout, which `assay analyze` and `assay export`
//!   write). LEVEL is `sys` or `seg`; `doc` and `domain` files are refused. Each line is
//!   `SYSTEM<TAB>SCORE` (a leading DOMAIN column, `DOMAIN<TAB>SYSTEM<TAB>SCORE`, is accepted and
//!   must then be on every line; it is not used). A segment file lists each system's scores in
//!   test-set order (segment ids 1, 2, …), `None` where there is no score; every system must
//!   have the same number of lines.
//! - **TSV** with a header naming its columns, or **JSONL** objects with the same keys:
//!   `system` and `score` (required), `segment` (rows without it, or with it empty, are system
//!   scores), `metric` (else the name given by the caller), `pair` or `lp` (else the pair given
//!   by the caller, else `""`). A TSV whose first line is not a header and has three columns is
//!   read as `system<TAB>segment<TAB>score`.
//!
//! - **Assay's `analysis.json`** (what `assay analyze` and the exports write): every group's
//!   system and per-segment scores, z or raw, named `assay-z` / `assay-raw` (with the task,
//!   `assay-TASK-z`, when there are several), segments by their names (the test set's segment
//!   ids, so they line up with a metric's `segment` column, or with the positions 1, 2, … of an
//!   mt-metrics-eval segment file when the ids are 1-based positions).
//!
//! Scores are finite numbers; `None`, `null`, `NA` and the empty cell are missing values.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

/// One problem in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadError {
    pub file: String,
    /// 1-based line, when the problem is on one line.
    pub line: Option<usize>,
    pub problem: String,
}

impl ReadError {
    pub fn new(file: &str, line: Option<usize>, problem: impl Into<String>) -> Self {
        ReadError { file: file.to_string(), line, problem: problem.into() }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}, line {}: {}", self.file, l, self.problem),
            None => write!(f, "{}: {}", self.file, self.problem),
        }
    }
}

impl std::error::Error for ReadError {}

/// The scores of one metric (or of the humans) for one language pair.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairScores {
    /// System-level scores as given (a `.sys` file or rows without a segment).
    pub system: BTreeMap<String, f64>,
    /// Segment ids in test-set order (for mt-metrics-eval files "1", "2", …).
    pub segment_ids: Vec<String>,
    /// Per system, one entry per id of `segment_ids`, `None` where there is no score.
    pub segment: BTreeMap<String, Vec<Option<f64>>>,
}

impl PairScores {
    /// System scores: those given, else the mean of the system's segment scores.
    pub fn system_scores(&self) -> BTreeMap<String, f64> {
        if !self.system.is_empty() {
            return self.system.clone();
        }
        self.segment
            .iter()
            .filter_map(|(s, v)| {
                let vals: Vec<f64> = v.iter().flatten().copied().collect();
                (!vals.is_empty()).then(|| (s.clone(), vals.iter().sum::<f64>() / vals.len() as f64))
            })
            .collect()
    }
}

/// One metric's (or the humans') scores, by language pair.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Scores {
    pub name: String,
    pub pairs: BTreeMap<String, PairScores>,
}

/// Human scores: the same shape as a metric's.
pub type HumanScores = Scores;
/// A metric's scores.
pub type MetricScores = Scores;

/// A score cell that is not a score.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("score {0:?} is not a finite number")]
    NotFinite(String),
    #[error("score {0:?} is not a number")]
    NotANumber(String),
}

fn parse_score(cell: &str) -> Result<Option<f64>, ScoreError> {
    let c = cell.trim();
    if c.is_empty() || matches!(c, "None" | "none" | "null" | "NA" | "nan" | "NaN") {
        return Ok(None);
    }
    match c.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        Ok(_) => Err(ScoreError::NotFinite(c.to_string())),
        Err(_) => Err(ScoreError::NotANumber(c.to_string())),
    }
}

/// The level of a score file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    System,
    Segment,
}

fn looks_like_pair(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 2 && parts.iter().all(|p| !p.is_empty() && p.len() <= 8 && p.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
}

/// Why a file name is not an mt-metrics-eval score file's (`file` is the name without folders).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileNameError {
    #[error("{file:?} is not an mt-metrics-eval file (NAME.LEVEL.score)")]
    NotScore { file: String },
    #[error("{file:?} has no level (NAME.sys.score or NAME.seg.score)")]
    NoLevel { file: String },
    #[error("{file:?} holds {level}-level scores; only sys and seg files are read")]
    NotRead { file: String, level: String },
    #[error("{file:?}: unknown level {level:?} (sys or seg)")]
    UnknownLevel { file: String, level: String },
    /// Neither the name (`LP.NAME.sys.score`) nor its folder (`LP/NAME.sys.score`) gives one.
    #[error("{file:?}: no language pair (LP/NAME.{level}.score or LP.NAME.{level}.score)")]
    NoPair { file: String, level: &'static str },
}

/// What an mt-metrics-eval file name says: (language pair, name, level).
pub fn mme_file_name(path: &str) -> Result<(String, String, Level), FileNameError> {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let file = parts.last().copied().unwrap_or("");
    let dir = if parts.len() >= 2 { Some(parts[parts.len() - 2]) } else { None };
    let stem = file
        .strip_suffix(".score")
        .ok_or_else(|| FileNameError::NotScore { file: file.to_string() })?;
    let (rest, level) = stem
        .rsplit_once('.')
        .ok_or_else(|| FileNameError::NoLevel { file: file.to_string() })?;
    let level = match level {
        "sys" => Level::System,
        "seg" => Level::Segment,
        "doc" | "domain" => {
            return Err(FileNameError::NotRead { file: file.to_string(), level: level.to_string() });
        }
        other => return Err(FileNameError::UnknownLevel { file: file.to_string(), level: other.to_string() }),
    };
    if let Some((lp, name)) = rest.split_once('.')
        && looks_like_pair(lp)
        && !name.is_empty()
    {
        return Ok((lp.to_string(), name.to_string(), level));
    }
    match dir {
        Some(d) if looks_like_pair(d) && !rest.is_empty() => Ok((d.to_string(), rest.to_string(), level)),
        _ => Err(FileNameError::NoPair { file: file.to_string(), level: if level == Level::System { "sys" } else { "seg" } }),
    }
}

/// Reads mt-metrics-eval score files, given as (path, text). Files of the same name (one
/// metric) and language pair are merged: a `.sys` and a `.seg` file may both be given.
pub fn read_mme(files: &[(String, String)]) -> Result<Vec<Scores>, Vec<ReadError>> {
    let mut errors = Vec::new();
    let mut out: BTreeMap<String, Scores> = BTreeMap::new();
    for (path, text) in files {
        let (pair, name, level) = match mme_file_name(path) {
            Ok(x) => x,
            Err(e) => {
                errors.push(ReadError::new(path, None, e.to_string()));
                continue;
            }
        };
        let before = errors.len();
        let mut sys: BTreeMap<String, f64> = BTreeMap::new();
        let mut seg: BTreeMap<String, Vec<Option<f64>>> = BTreeMap::new();
        let mut columns: Option<usize> = None;
        for (i, line) in text.lines().enumerate() {
            let ln = i + 1;
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 2 && f.len() != 3 {
                errors.push(ReadError::new(path, Some(ln), format!("expected SYSTEM<TAB>SCORE (optionally after a DOMAIN column), found {} columns", f.len())));
                continue;
            }
            if *columns.get_or_insert(f.len()) != f.len() {
                errors.push(ReadError::new(path, Some(ln), "the number of columns changes from the first line"));
                continue;
            }
            let (system, cell) = (f[f.len() - 2].trim(), f[f.len() - 1]);
            if system.is_empty() {
                errors.push(ReadError::new(path, Some(ln), "empty system name"));
                continue;
            }
            let score = match parse_score(cell) {
                Ok(s) => s,
                Err(e) => {
                    errors.push(ReadError::new(path, Some(ln), e.to_string()));
                    continue;
                }
            };
            match level {
                Level::System => {
                    let Some(v) = score else {
                        errors.push(ReadError::new(path, Some(ln), "a system-level score is missing"));
                        continue;
                    };
                    if sys.insert(system.to_string(), v).is_some() {
                        errors.push(ReadError::new(path, Some(ln), format!("system {system:?} appears twice")));
                    }
                }
                Level::Segment => seg.entry(system.to_string()).or_default().push(score),
            }
        }
        if level == Level::Segment {
            let lens: Vec<usize> = seg.values().map(Vec::len).collect();
            if let (Some(min), Some(max)) = (lens.iter().min(), lens.iter().max())
                && min != max
            {
                let counts: Vec<String> = seg.iter().map(|(s, v)| format!("{s}: {}", v.len())).collect();
                errors.push(ReadError::new(path, None, format!("systems have different numbers of segments ({})", counts.join(", "))));
            }
        }
        if sys.is_empty() && seg.is_empty() && errors.len() == before {
            errors.push(ReadError::new(path, None, "no scores"));
        }
        if errors.len() > before {
            continue;
        }
        let entry = out.entry(name.clone()).or_insert_with(|| Scores { name: name.clone(), pairs: BTreeMap::new() });
        let p = entry.pairs.entry(pair.clone()).or_default();
        match level {
            Level::System => {
                if !p.system.is_empty() {
                    errors.push(ReadError::new(path, None, format!("a second system-level file for {name} {pair}")));
                }
                p.system = sys;
            }
            Level::Segment => {
                if !p.segment.is_empty() {
                    errors.push(ReadError::new(path, None, format!("a second segment-level file for {name} {pair}")));
                }
                let n = seg.values().next().map_or(0, Vec::len);
                p.segment_ids = (1..=n).map(|i| i.to_string()).collect();
                p.segment = seg;
            }
        }
    }
    if errors.is_empty() { Ok(out.into_values().collect()) } else { Err(errors) }
}

/// A table format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    Tsv,
    Jsonl,
}

struct Row {
    line: usize,
    metric: Option<String>,
    pair: Option<String>,
    system: String,
    segment: Option<String>,
    score: Option<f64>,
}

fn tsv_rows(file: &str, text: &str, errors: &mut Vec<ReadError>) -> Vec<Row> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r'))).filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        errors.push(ReadError::new(file, None, "the file is empty"));
        return Vec::new();
    };
    let head: Vec<String> = first.split('\t').map(|h| h.trim().to_ascii_lowercase()).collect();
    let named = head.iter().any(|h| h == "system") && head.iter().any(|h| h == "score");
    let (cols, data_first): (Vec<String>, bool) = if named {
        (head, false)
    } else if head.len() == 3 {
        (vec!["system".into(), "segment".into(), "score".into()], true)
    } else {
        errors.push(ReadError::new(file, Some(1), "the header must name the columns system and score (and optionally segment, metric, pair), or the file must have three columns system<TAB>segment<TAB>score"));
        return Vec::new();
    };
    let col = |name: &str| cols.iter().position(|c| c == name);
    let (sys_c, seg_c, score_c, metric_c) = (col("system"), col("segment"), col("score"), col("metric"));
    let pair_c = col("pair").or_else(|| col("lp"));
    let mut rows = Vec::new();
    let all: Vec<(usize, &str)> = if data_first { std::iter::once((1, first)).chain(lines).collect() } else { lines.collect() };
    for (ln, line) in all {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != cols.len() {
            errors.push(ReadError::new(file, Some(ln), format!("{} columns, the header has {}", f.len(), cols.len())));
            continue;
        }
        let get = |c: Option<usize>| c.map(|i| f[i].trim().to_string()).filter(|s| !s.is_empty());
        let Some(system) = get(sys_c) else {
            errors.push(ReadError::new(file, Some(ln), "empty system"));
            continue;
        };
        let score = match parse_score(f[score_c.unwrap_or(0)]) {
            Ok(s) => s,
            Err(e) => {
                errors.push(ReadError::new(file, Some(ln), e.to_string()));
                continue;
            }
        };
        rows.push(Row { line: ln, metric: get(metric_c), pair: get(pair_c), system, segment: get(seg_c), score });
    }
    rows
}

fn jsonl_rows(file: &str, text: &str, errors: &mut Vec<ReadError>) -> Vec<Row> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                errors.push(ReadError::new(file, Some(ln), format!("not JSON: {e}")));
                continue;
            }
        };
        let Some(obj) = v.as_object() else {
            errors.push(ReadError::new(file, Some(ln), "not a JSON object"));
            continue;
        };
        let text_of = |k: &str| -> Option<String> {
            match obj.get(k) {
                Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
                Some(serde_json::Value::Number(n)) => Some(n.to_string()),
                _ => None,
            }
        };
        let Some(system) = text_of("system") else {
            errors.push(ReadError::new(file, Some(ln), "no system"));
            continue;
        };
        let score = match obj.get("score") {
            Some(serde_json::Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => Some(x),
                _ => {
                    errors.push(ReadError::new(file, Some(ln), "score is not a finite number"));
                    continue;
                }
            },
            Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::String(s)) => match parse_score(s) {
                Ok(x) => x,
                Err(e) => {
                    errors.push(ReadError::new(file, Some(ln), e.to_string()));
                    continue;
                }
            },
            _ => {
                errors.push(ReadError::new(file, Some(ln), "no score (a number or null)"));
                continue;
            }
        };
        rows.push(Row { line: ln, metric: text_of("metric"), pair: text_of("pair").or_else(|| text_of("lp")), system, segment: text_of("segment"), score });
    }
    rows
}

/// Reads a TSV or JSONL table of scores. `default_name` names the scores when there is no
/// `metric` column (required then); `default_pair` is the pair of rows without one.
pub fn read_table(
    file: &str,
    text: &str,
    format: TableFormat,
    default_name: Option<&str>,
    default_pair: Option<&str>,
) -> Result<Vec<Scores>, Vec<ReadError>> {
    let mut errors = Vec::new();
    let rows = match format {
        TableFormat::Tsv => tsv_rows(file, text, &mut errors),
        TableFormat::Jsonl => jsonl_rows(file, text, &mut errors),
    };
    if rows.is_empty() && errors.is_empty() {
        errors.push(ReadError::new(file, None, "no scores"));
    }
    // name → pair → (system scores, segment ids in order, system → id → score)
    type Cells = BTreeMap<String, BTreeMap<String, Option<f64>>>;
    type Pair = (BTreeMap<String, f64>, Vec<String>, Cells);
    let mut acc: BTreeMap<String, BTreeMap<String, Pair>> = BTreeMap::new();
    for r in rows {
        let Some(name) = r.metric.clone().or_else(|| default_name.map(str::to_string)) else {
            errors.push(ReadError::new(file, Some(r.line), "no metric name (a metric column or field, or a name given with the file)"));
            continue;
        };
        let pair = r.pair.clone().or_else(|| default_pair.map(str::to_string)).unwrap_or_default();
        let (sys, ids, cells) = acc.entry(name).or_default().entry(pair).or_default();
        match &r.segment {
            None => {
                let Some(v) = r.score else {
                    errors.push(ReadError::new(file, Some(r.line), "a system-level score is missing"));
                    continue;
                };
                if sys.insert(r.system.clone(), v).is_some() {
                    errors.push(ReadError::new(file, Some(r.line), format!("a second system score for {:?}", r.system)));
                }
            }
            Some(seg) => {
                let per = cells.entry(r.system.clone()).or_default();
                if !per.contains_key(seg) && !ids.contains(seg) {
                    ids.push(seg.clone());
                }
                if per.insert(seg.clone(), r.score).is_some() {
                    errors.push(ReadError::new(file, Some(r.line), format!("a second score for system {:?}, segment {seg:?}", r.system)));
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(acc
        .into_iter()
        .map(|(name, pairs)| Scores {
            name,
            pairs: pairs
                .into_iter()
                .map(|(pair, (system, mut ids, cells))| {
                    // Numeric ids in numeric order, others in order of appearance.
                    if ids.iter().all(|i| i.parse::<i64>().is_ok()) {
                        ids.sort_by_key(|i| i.parse::<i64>().unwrap_or(0));
                    }
                    let segment = cells
                        .into_iter()
                        .map(|(s, per)| (s, ids.iter().map(|id| per.get(id).copied().flatten()).collect()))
                        .collect();
                    (pair, PairScores { system, segment_ids: ids, segment })
                })
                .collect(),
        })
        .collect())
}

/// Which of Assay's scores to read from `analysis.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AssayScore {
    Z,
    Raw,
}

/// Reads the human scores of Assay's `analysis.json` (the whole file, or its `result`).
pub fn read_analysis_json(file: &str, text: &str, kind: AssayScore) -> Result<Vec<Scores>, Vec<ReadError>> {
    let err = |m: String| vec![ReadError::new(file, None, m)];
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| vec![ReadError::new(file, Some(e.line()), format!("not JSON: {e}"))])?;
    let r = if v.get("result").is_some() { &v["result"] } else { &v };
    let names = |k: &str| -> Result<Vec<String>, Vec<ReadError>> {
        r["names"][k]
            .as_array()
            .map(|a| a.iter().map(|x| x.as_str().unwrap_or_default().to_string()).collect())
            .ok_or_else(|| err(format!("no names.{k}: not an Assay analysis.json")))
    };
    let (pairs, tasks, systems, segments) = (names("lang_pairs")?, names("tasks")?, names("systems")?, names("segments")?);
    let groups = r["groups"].as_array().ok_or_else(|| err("no groups: not an Assay analysis.json".into()))?;
    let key = match kind {
        AssayScore::Z => "z",
        AssayScore::Raw => "raw",
    };
    let name_of = |task: &str| if tasks.len() > 1 { format!("assay-{task}-{key}") } else { format!("assay-{key}") };
    let idx = |x: &serde_json::Value, list: &[String], what: &str| -> Result<String, Vec<ReadError>> {
        x.as_u64().and_then(|i| list.get(i as usize)).cloned().ok_or_else(|| err(format!("a {what} index out of range")))
    };
    let mut out: BTreeMap<String, Scores> = BTreeMap::new();
    for g in groups {
        let task = idx(&g["task"], &tasks, "task")?;
        let pair = idx(&g["lang_pair"], &pairs, "language pair")?;
        let name = name_of(&task);
        let mut p = PairScores::default();
        for s in g["systems"].as_array().into_iter().flatten() {
            if let Some(v) = s[key].as_f64() {
                p.system.insert(idx(&s["system"], &systems, "system")?, v);
            }
        }
        let mut cells: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        let mut ids: BTreeSet<String> = BTreeSet::new();
        for c in g["segments"].as_array().into_iter().flatten() {
            let (sys, seg) = (idx(&c["system"], &systems, "system")?, idx(&c["segment"], &segments, "segment")?);
            if let Some(v) = c[key].as_f64() {
                ids.insert(seg.clone());
                cells.entry(sys).or_default().insert(seg, v);
            }
        }
        let mut ids: Vec<String> = ids.into_iter().collect();
        if ids.iter().all(|i| i.parse::<i64>().is_ok()) {
            ids.sort_by_key(|i| i.parse::<i64>().unwrap_or(0));
        }
        p.segment = cells.into_iter().map(|(s, m)| (s, ids.iter().map(|i| m.get(i).copied()).collect())).collect();
        p.segment_ids = ids;
        out.entry(name.clone()).or_insert_with(|| Scores { name, pairs: BTreeMap::new() }).pairs.insert(pair, p);
    }
    if out.is_empty() {
        return Err(err("no scores in this analysis".into()));
    }
    Ok(out.into_values().collect())
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
