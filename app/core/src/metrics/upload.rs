//! Metric scores uploaded for one campaign (issue 21): files read with [`super::read`] (the
//! mt-metrics-eval layout, TSV, JSONL, chosen by the file's name), then fitted to the campaign
//! — its language pair, its systems, its test set's segments — with every problem reported
//! with its file and line, and nothing returned unless everything fits.
//!
//! - An mt-metrics-eval segment file (`LP/METRIC-REF.seg.score`) lists each system's scores in
//!   test-set order: it must have exactly one line per segment of the campaign's test set for
//!   every system; line *k* of a system is the test set's *k*-th segment.
//! - A table's `segment` column holds the test set's segment ids (as imported).
//! - Every system must be one of the campaign's; the language pair (the file's `LP`, a table's
//!   `pair`/`lp` column) the campaign's.
//! - A metric's name may not be a built-in metric's or one already uploaded for the campaign;
//!   a metric's system-level (or segment-level) scores may come from one file only.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::read::{ReadError, Scores, TableFormat, read_mme, read_table};

/// What uploaded scores are fitted to.
#[derive(Clone, Debug)]
pub struct CampaignShape {
    /// `SRC-TGT`, as the analysis names the pair.
    pub pair: String,
    /// The campaign's systems.
    pub systems: Vec<String>,
    /// The test set's segment ids, in test-set order.
    pub segments: Vec<String>,
    /// Metric names that are taken (the built-in metrics, the metrics already uploaded).
    pub taken: Vec<String>,
}

/// One uploaded metric, fitted to the campaign: what is stored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UploadedMetric {
    pub name: String,
    /// The files its scores came from.
    pub files: Vec<String>,
    /// System-level scores as given.
    pub system: BTreeMap<String, f64>,
    /// (system, segment id, score); missing scores are left out.
    pub segment: Vec<(String, String, f64)>,
}

impl UploadedMetric {
    /// The metric as the meta-evaluation reads it, for the campaign's pair and test set.
    pub fn scores(&self, pair: &str, segments: &[String]) -> Scores {
        let at: BTreeMap<&str, usize> = segments.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
        let mut p = super::read::PairScores { system: self.system.clone(), ..Default::default() };
        if !self.segment.is_empty() {
            p.segment_ids = segments.to_vec();
            for (system, seg, v) in &self.segment {
                if let Some(&i) = at.get(seg.as_str()) {
                    p.segment.entry(system.clone()).or_insert_with(|| vec![None; segments.len()])[i] = Some(*v);
                }
            }
        }
        Scores { name: self.name.clone(), pairs: BTreeMap::from([(pair.to_string(), p)]) }
    }
}

/// A file whose name says none of the formats [`format_of`] knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format: name the file LP/METRIC-REF.sys.score or .seg.score (mt-metrics-eval), .tsv or .jsonl")]
pub struct UnknownFormat;

/// The format a file's name says: mt-metrics-eval (`.score`), TSV (`.tsv`, `.txt`), JSONL
/// (`.jsonl`, `.ndjson`).
pub fn format_of(file: &str) -> Result<Option<TableFormat>, UnknownFormat> {
    let lower = file.to_ascii_lowercase();
    if lower.ends_with(".score") {
        Ok(None)
    } else if lower.ends_with(".tsv") || lower.ends_with(".txt") {
        Ok(Some(TableFormat::Tsv))
    } else if lower.ends_with(".jsonl") || lower.ends_with(".ndjson") {
        Ok(Some(TableFormat::Jsonl))
    } else {
        Err(UnknownFormat)
    }
}

/// The first line (1-based) of `text` whose field `key` is `value`: a tab-separated field for
/// score files and TSV, the JSON key for JSONL.
fn line_of(text: &str, format: Option<TableFormat>, key: &str, value: &str) -> Option<usize> {
    text.lines().enumerate().find_map(|(i, line)| {
        let hit = match format {
            Some(TableFormat::Jsonl) => serde_json::from_str::<serde_json::Value>(line).ok().is_some_and(|v| match &v[key] {
                serde_json::Value::String(s) => s.trim() == value,
                serde_json::Value::Number(n) => n.to_string() == value,
                _ => false,
            }),
            _ => line.trim_end_matches('\r').split('\t').any(|f| f.trim() == value),
        };
        hit.then_some(i + 1)
    })
}

fn listed(names: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut s = names.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > SHOWN {
        s.push_str(&format!(", … ({} in all)", names.len()));
    }
    s
}

/// Reads uploaded files, given as (name, text), and fits them to the campaign. `default_name`
/// names the metric of a table without a `metric` column.
pub fn read_upload(files: &[(String, String)], default_name: Option<&str>, shape: &CampaignShape) -> Result<Vec<UploadedMetric>, Vec<ReadError>> {
    let mut errors = Vec::new();
    if files.is_empty() {
        return Err(vec![ReadError::new("upload", None, "no file was given")]);
    }
    let systems: BTreeSet<&str> = shape.systems.iter().map(String::as_str).collect();
    let segments: BTreeSet<&str> = shape.segments.iter().map(String::as_str).collect();
    let default_name = default_name.map(str::trim).filter(|n| !n.is_empty());
    // name → (metric, the file of its system scores, the file of its segment scores)
    let mut out: BTreeMap<String, (UploadedMetric, Option<String>, Option<String>)> = BTreeMap::new();
    for (file, text) in files {
        let format = match format_of(file) {
            Ok(f) => f,
            Err(e) => {
                errors.push(ReadError::new(file, None, e.to_string()));
                continue;
            }
        };
        let read = match format {
            // A browser sends a file's name without its folder: a score file named without its
            // language pair (METRIC-REF.sys.score) is the campaign's pair's.
            None if matches!(super::read::mme_file_name(file), Err(super::read::FileNameError::NoPair { .. })) => {
                let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
                let as_pair = format!("{}/{base}", shape.pair);
                read_mme(&[(as_pair.clone(), text.clone())]).map_err(|errors| {
                    errors.into_iter().map(|e| ReadError { file: if e.file == as_pair { file.clone() } else { e.file }, ..e }).collect()
                })
            }
            None => read_mme(std::slice::from_ref(&(file.clone(), text.clone()))),
            Some(f) => read_table(file, text, f, default_name, Some(&shape.pair)),
        };
        let scores = match read {
            Ok(s) => s,
            Err(e) => {
                errors.extend(e);
                continue;
            }
        };
        let before = errors.len();
        let mut fitted = Vec::new();
        for s in scores {
            let name = s.name.trim().to_string();
            if name.chars().count() > crate::limits::MAX_LABEL_CHARS {
                errors.push(ReadError::new(file, None, format!("the metric's name has more than {} characters", crate::limits::MAX_LABEL_CHARS)));
                continue;
            }
            if let Some(t) = shape.taken.iter().find(|t| t.eq_ignore_ascii_case(&name)) {
                errors.push(ReadError::new(file, None, format!("a metric named {t:?} exists for this campaign already (a built-in metric, or one uploaded before: delete it first, or rename this one)")));
                continue;
            }
            for (pair, p) in s.pairs {
                if pair != shape.pair {
                    let line = if format.is_some() { line_of(text, format, "pair", &pair).or_else(|| line_of(text, format, "lp", &pair)) } else { None };
                    errors.push(ReadError::new(file, line, format!("language pair {pair:?}: the campaign's is {:?}", shape.pair)));
                    continue;
                }
                let mut m = UploadedMetric { name: name.clone(), files: vec![file.clone()], ..Default::default() };
                let mut unknown: BTreeSet<String> = BTreeSet::new();
                for s in p.system.keys().chain(p.segment.keys()) {
                    if !systems.contains(s.as_str()) && unknown.insert(s.clone()) {
                        let hint = shape.systems.iter().find(|c| c.eq_ignore_ascii_case(s)).map(|c| format!(" (did you mean {c:?}? names are compared exactly)")).unwrap_or_default();
                        errors.push(ReadError::new(
                            file,
                            line_of(text, format, "system", s),
                            format!("system {s:?} is not one of the campaign's systems ({}){hint}", listed(&shape.systems)),
                        ));
                    }
                }
                m.system = p.system;
                if !p.segment.is_empty() {
                    // Segment ids: positions 1..n of a score file, the test set's ids in a table.
                    let keys: Vec<Option<&String>> = if format.is_none() {
                        if p.segment_ids.len() != shape.segments.len() {
                            errors.push(ReadError::new(
                                file,
                                None,
                                format!(
                                    "{} lines per system, but the campaign's test set has {} segments (a segment file lists every segment in test-set order, None where there is no score)",
                                    p.segment_ids.len(),
                                    shape.segments.len()
                                ),
                            ));
                            continue;
                        }
                        shape.segments.iter().map(Some).collect()
                    } else {
                        let mut missing = Vec::new();
                        let keys = p
                            .segment_ids
                            .iter()
                            .map(|id| {
                                if segments.contains(id.as_str()) {
                                    Some(id)
                                } else {
                                    missing.push(id.clone());
                                    None
                                }
                            })
                            .collect();
                        for id in missing.iter().take(5) {
                            errors.push(ReadError::new(file, line_of(text, format, "segment", id), format!("segment {id:?} is not a segment of the campaign's test set")));
                        }
                        if missing.len() > 5 {
                            errors.push(ReadError::new(file, None, format!("{} more segments are not in the campaign's test set", missing.len() - 5)));
                        }
                        keys
                    };
                    for (system, values) in &p.segment {
                        for (k, v) in keys.iter().zip(values) {
                            if let (Some(k), Some(v)) = (k, v) {
                                m.segment.push((system.clone(), (*k).clone(), *v));
                            }
                        }
                    }
                }
                fitted.push(m);
            }
        }
        if errors.len() > before {
            continue;
        }
        for m in fitted {
            let (has_sys, has_seg) = (!m.system.is_empty(), !m.segment.is_empty());
            let entry = out.entry(m.name.clone()).or_insert_with(|| (UploadedMetric { name: m.name.clone(), ..Default::default() }, None, None));
            if has_sys {
                if let Some(first) = &entry.1 {
                    errors.push(ReadError::new(file, None, format!("{:?} has system-level scores in {first} already", m.name)));
                    continue;
                }
                entry.1 = Some(file.clone());
            }
            if has_seg {
                if let Some(first) = &entry.2 {
                    errors.push(ReadError::new(file, None, format!("{:?} has segment-level scores in {first} already", m.name)));
                    continue;
                }
                entry.2 = Some(file.clone());
            }
            if !entry.0.files.contains(file) {
                entry.0.files.push(file.clone());
            }
            entry.0.system.extend(m.system);
            entry.0.segment.extend(m.segment);
        }
    }
    if errors.is_empty() && out.values().all(|(m, _, _)| m.system.is_empty() && m.segment.is_empty()) {
        errors.push(ReadError::new(&files[0].0, None, "no scores"));
    }
    if errors.is_empty() { Ok(out.into_values().map(|(m, _, _)| m).collect()) } else { Err(errors) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> CampaignShape {
        CampaignShape {
            pair: "en-de".into(),
            systems: vec!["Alpha".into(), "Beta".into()],
            segments: vec!["s1".into(), "s2".into(), "s3".into()],
            taken: vec!["BLEU".into(), "chrF".into(), "chrF++".into(), "old".into()],
        }
    }

    fn f(name: &str, text: &str) -> (String, String) {
        (name.to_string(), text.to_string())
    }

    #[test]
    fn score_files_map_lines_to_the_test_set_in_order_and_merge() {
        let files = [
            f("en-de/COMET-refA.seg.score", "Alpha\t0.1\nAlpha\tNone\nAlpha\t0.3\nBeta\t0.4\nBeta\t0.5\nBeta\t0.6\n"),
            f("en-de/COMET-refA.sys.score", "Alpha\t0.2\nBeta\t0.5\n"),
            f("more.tsv", "metric\tsystem\tsegment\tscore\nBLEURT\tBeta\ts3\t7\nBLEURT\tAlpha\ts1\t5\n"),
        ];
        let m = read_upload(&files, None, &shape()).unwrap();
        assert_eq!(m.len(), 2);
        let comet = m.iter().find(|m| m.name == "COMET-refA").unwrap();
        assert_eq!(comet.files, ["en-de/COMET-refA.seg.score", "en-de/COMET-refA.sys.score"]);
        assert_eq!(comet.system["Beta"], 0.5);
        assert_eq!(comet.segment.len(), 5, "None is not stored");
        assert!(comet.segment.contains(&("Alpha".into(), "s3".into(), 0.3)));
        assert!(comet.segment.contains(&("Beta".into(), "s1".into(), 0.4)));
        let s = comet.scores("en-de", &shape().segments);
        assert_eq!(s.pairs["en-de"].segment["Alpha"], vec![Some(0.1), None, Some(0.3)]);
        let bleurt = m.iter().find(|m| m.name == "BLEURT").unwrap();
        assert_eq!(bleurt.scores("en-de", &shape().segments).pairs["en-de"].segment["Alpha"], vec![Some(5.0), None, None]);
    }

    #[test]
    fn what_the_campaign_does_not_have_is_refused_with_file_and_line() {
        let files = [
            f("en-de/M-refA.sys.score", "Alpha\t1\nGamma\t2\n"),
            f("en-de/M-refA.seg.score", "Alpha\t1\nAlpha\t2\nBeta\t1\nBeta\t2\n"),
            f("fr-de/N.sys.score", "Alpha\t1\n"),
            f("t.tsv", "system\tsegment\tscore\nAlpha\ts1\t1\nbeta\ts9\t2\n"),
            f("bleu.jsonl", "{\"metric\": \"bleu\", \"system\": \"Alpha\", \"score\": 3}\n"),
            f("x.csv", "a,b\n"),
        ];
        let errs: Vec<String> = read_upload(&files, Some("tsvm"), &shape()).unwrap_err().iter().map(ToString::to_string).collect();
        let has = |s: &str| assert!(errs.iter().any(|e| e.starts_with(s)), "{s}\n{errs:#?}");
        has("en-de/M-refA.sys.score, line 2: system \"Gamma\" is not one of the campaign's systems (Alpha, Beta)");
        has("en-de/M-refA.seg.score: 2 lines per system, but the campaign's test set has 3 segments");
        has("fr-de/N.sys.score: language pair \"fr-de\": the campaign's is \"en-de\"");
        has("t.tsv, line 3: system \"beta\" is not one of the campaign's systems (Alpha, Beta) (did you mean \"Beta\"?");
        has("t.tsv, line 3: segment \"s9\" is not a segment of the campaign's test set");
        has("bleu.jsonl: a metric named \"BLEU\" exists for this campaign already");
        has("x.csv: unknown format");
        assert_eq!(errs.len(), 7, "{errs:#?}");
    }

    #[test]
    fn a_score_file_without_its_folder_is_the_campaigns_pair() {
        let m = read_upload(&[f("COMET-refA.sys.score", "Alpha\t1\nBeta\t2\n")], None, &shape()).unwrap();
        assert_eq!((m[0].name.as_str(), m[0].system.len()), ("COMET-refA", 2));
        let e = read_upload(&[f("COMET-refA.sys.score", "Alpha\tx\n")], None, &shape()).unwrap_err();
        assert_eq!(e[0].to_string(), "COMET-refA.sys.score, line 1: score \"x\" is not a number");
    }

    #[test]
    fn one_file_per_level_and_something_to_store() {
        let files = [f("en-de/M.sys.score", "Alpha\t1\n"), f("m.tsv", "metric\tsystem\tscore\nM\tBeta\t2\n")];
        let e = read_upload(&files, None, &shape()).unwrap_err();
        assert_eq!(e[0].to_string(), "m.tsv: \"M\" has system-level scores in en-de/M.sys.score already");
        assert!(read_upload(&[], None, &shape()).is_err());
        let e = read_upload(&[f("m.tsv", "metric\tsystem\tsegment\tscore\nM\tBeta\ts1\tNone\n")], None, &shape()).unwrap_err();
        assert_eq!(e[0].to_string(), "m.tsv: no scores");
    }
}
