//! Gold blocks of relative ranking (WMT 2012, seed 001 §2.2 and §7.1 item 3): blocks of a
//! test set's outputs with an expected order, mixed into ranking HITs as ordinary blocks, on
//! which each worker's agreement with the expected order is measured. WMT 2012 screened its
//! crowd with such controls ("items on which trusted annotators agreed strongly") and discarded
//! workers below a threshold of agreement, which the paper does not give; here it is the
//! campaign's setting.
//!
//! **The file** (one gold block per line; `#` comments and blank lines skipped):
//! - TSV: `segment<TAB>order`, an optional header line `segment<TAB>order`;
//! - JSONL: `{"segment": "…", "order": "A > B = C > D"}`, or `"order": [["A"], ["B", "C"], ["D"]]`
//!   (groups best first, a group's systems tied).
//!
//! An order is system names best first, `>` between ranks and `=` between tied systems:
//! `A > B = C > D` gives ranks A 1, B 2, C 2, D 4 (tied outputs share the best rank of their
//! group, as a ranking screen stores them). Every line needs two systems or more, each once,
//! and at least one strict preference. Segments and systems must be the test set's
//! ([`check_names`]); a file with any problem is refused whole.
//!
//! **The rule** ([`gold_check`]): the *gold pairs* of a shown gold block are its pairs of
//! outputs the gold orders strictly (pairs the gold ties are left out). A pair *agrees* when
//! the worker ranks it strictly the same way; a tie given where the gold is strict does not
//! agree (it is counted apart, as `tied`). Agreement = agreeing pairs / gold pairs. With fewer
//! gold pairs than the minimum: "not enough evidence"; else pass at agreement ≥ the threshold,
//! fail below it.
//!
//! **With the degraded-copy sign test** ([`combine`]): a worker fails when either check fails,
//! passes when at least one passes and neither fails, and has not enough evidence when neither
//! decides. The combined verdict is the worker's reliability verdict everywhere it is read (the
//! quality gate, exclusion, the review page, decisions, exports).

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};


/// One gold block of a file: a segment's systems with their expected ranks (1 = best).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoldOrder {
    /// The line of the file it was read from (1-based).
    pub line: usize,
    pub segment: String,
    /// (system, expected rank), best first.
    pub ranks: Vec<(String, u32)>,
}

impl GoldOrder {
    /// The order written back as `A > B = C`.
    pub fn order_text(&self) -> String {
        let mut out = String::new();
        for (i, (system, rank)) in self.ranks.iter().enumerate() {
            if i > 0 {
                out.push_str(if *rank == self.ranks[i - 1].1 { " = " } else { " > " });
            }
            out.push_str(system);
        }
        out
    }
}

/// A problem of a gold file: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldError {
    pub file: String,
    /// 1-based; 0: the file as a whole.
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for GoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}, line {}: {}", self.file, self.line, self.problem)
        }
    }
}

/// What is wrong with one gold order (a line of a gold file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OrderError {
    #[error("the order is empty")]
    Empty,
    #[error("an empty place in the order (two '>' in a row, or one at an end)")]
    EmptyPlace,
    #[error("an empty system name in the order")]
    EmptyName,
    #[error("system {0:?} is in the order twice")]
    Twice(String),
    #[error("an order needs at least 2 systems, not {0}")]
    TooFew(usize),
    #[error("every system is tied: a gold order needs at least one strict preference")]
    AllTied,
    #[error("not a JSON object: {0}")]
    NotJson(String),
    #[error("not a JSON object")]
    NotObject,
    #[error("no \"segment\" (a string)")]
    NoSegment,
    #[error("a system name that is not a string")]
    NameNotText,
    #[error("\"order\" must be a list of groups of system names, best first")]
    OrderShape,
    #[error("no \"order\" (\"A > B = C\" or [[\"A\"], [\"B\", \"C\"]])")]
    NoOrder,
    #[error("expected 2 tab-separated columns (segment, order), found {0}")]
    Columns(usize),
}

/// Ranks of an order's groups (best first): tied systems share the best rank of their group.
fn ranks_of_groups(groups: Vec<Vec<String>>) -> Result<Vec<(String, u32)>, OrderError> {
    let mut out: Vec<(String, u32)> = Vec::new();
    let mut seen = HashSet::new();
    for group in groups {
        if group.is_empty() {
            return Err(OrderError::EmptyPlace);
        }
        let rank = out.len() as u32 + 1;
        for system in group {
            let system = system.trim().to_string();
            if system.is_empty() {
                return Err(OrderError::EmptyName);
            }
            if !seen.insert(system.clone()) {
                return Err(OrderError::Twice(system));
            }
            out.push((system, rank));
        }
    }
    if out.len() < 2 {
        return Err(OrderError::TooFew(out.len()));
    }
    if out.iter().all(|(_, r)| *r == 1) {
        return Err(OrderError::AllTied);
    }
    Ok(out)
}

/// Parses `A > B = C > D`.
pub fn parse_order(text: &str) -> Result<Vec<(String, u32)>, OrderError> {
    if text.trim().is_empty() {
        return Err(OrderError::Empty);
    }
    ranks_of_groups(text.split('>').map(|g| g.split('=').map(str::to_string).collect::<Vec<_>>()).map(|g| {
        if g.len() == 1 && g[0].trim().is_empty() { Vec::new() } else { g }
    }).collect())
}

fn parse_json_line(line: &str) -> Result<(String, Vec<(String, u32)>), OrderError> {
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| OrderError::NotJson(e.to_string()))?;
    let obj = v.as_object().ok_or(OrderError::NotObject)?;
    let segment = match obj.get("segment") {
        Some(serde_json::Value::String(s)) => s.trim().to_string(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => return Err(OrderError::NoSegment),
    };
    let ranks = match obj.get("order") {
        Some(serde_json::Value::String(s)) => parse_order(s)?,
        Some(serde_json::Value::Array(groups)) => {
            let mut out = Vec::new();
            for g in groups {
                let names = match g {
                    serde_json::Value::String(s) => vec![s.clone()],
                    serde_json::Value::Array(a) => a
                        .iter()
                        .map(|x| x.as_str().map(str::to_string).ok_or(OrderError::NameNotText))
                        .collect::<Result<Vec<_>, _>>()?,
                    _ => return Err(OrderError::OrderShape),
                };
                out.push(names);
            }
            ranks_of_groups(out)?
        }
        _ => return Err(OrderError::NoOrder),
    };
    Ok((segment, ranks))
}

/// Reads a gold file (TSV, or JSONL when its name ends in `.jsonl`/`.json` or its first
/// content line starts with `{`). Every problem is reported, with its line.
pub fn read_gold(file: &str, text: &str) -> Result<Vec<GoldOrder>, Vec<GoldError>> {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    let mut segments: HashMap<String, usize> = HashMap::new();
    let err = |line: usize, problem: String| GoldError { file: file.to_string(), line, problem };
    let lower = file.to_ascii_lowercase();
    let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    let json = lower.ends_with(".jsonl") || lower.ends_with(".json") || first.is_some_and(|l| l.starts_with('{'));
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let parsed = if json {
            parse_json_line(line)
        } else {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() != 2 {
                Err(OrderError::Columns(cols.len()))
            } else if out.is_empty() && errors.is_empty() && cols[0].trim().eq_ignore_ascii_case("segment") {
                continue;
            } else {
                parse_order(cols[1]).map(|r| (cols[0].trim().to_string(), r))
            }
        };
        match parsed {
            Ok((segment, ranks)) => {
                if segment.is_empty() {
                    errors.push(err(n, "the segment is empty".into()));
                } else if let Some(earlier) = segments.insert(segment.clone(), n) {
                    errors.push(err(n, format!("segment {segment:?} has a gold order already (line {earlier})")));
                } else {
                    out.push(GoldOrder { line: n, segment, ranks });
                }
            }
            Err(problem) => errors.push(err(n, problem.to_string())),
        }
    }
    if errors.is_empty() && out.is_empty() {
        errors.push(err(0, "no gold order in the file".into()));
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

/// Problems of orders whose segment or systems the test set does not have.
pub fn check_names(file: &str, orders: &[GoldOrder], has_segment: impl Fn(&str) -> bool, has_output: impl Fn(&str, &str) -> Option<String>) -> Vec<GoldError> {
    let mut errors = Vec::new();
    for o in orders {
        if !has_segment(&o.segment) {
            errors.push(GoldError { file: file.into(), line: o.line, problem: format!("the test set has no segment {:?}", o.segment) });
            continue;
        }
        for (system, _) in &o.ranks {
            if let Some(problem) = has_output(&o.segment, system) {
                errors.push(GoldError { file: file.into(), line: o.line, problem });
            }
        }
    }
    errors
}

pub use super::gold_check::{DEFAULT_MIN_PAIRS, DEFAULT_THRESHOLD, GoldAnswer, GoldCheck, GoldRule, GoldSet, combine, gold_check};

/// `gold-agreement.csv`: each worker's gold check beside the degraded-copy test and the
/// combined verdict: `worker,task,gold_blocks,gold_pairs,agreed,tied_by_worker,agreement,
/// threshold,min_pairs,gold_verdict,copies_verdict,verdict,excluded`.
pub fn write_agreement_csv(
    w: &mut dyn std::io::Write,
    workers: &[String],
    tasks: &[String],
    qc: &[super::quality::WorkerQc],
    excluded: impl Fn(&super::quality::WorkerQc) -> bool,
) -> std::io::Result<()> {
    use super::formats::csv_text;
    use super::manifest::verdict_name;
    writeln!(w, "worker,task,gold_blocks,gold_pairs,agreed,tied_by_worker,agreement,threshold,min_pairs,gold_verdict,copies_verdict,verdict,excluded")?;
    for q in qc {
        let Some(g) = &q.reliability.gold else { continue };
        let name = |names: &[String], i: usize| names.get(i).cloned().unwrap_or_else(|| format!("#{i}"));
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&name(workers, q.worker as usize)),
            csv_text(&name(tasks, q.task as usize)),
            g.blocks,
            g.pairs,
            g.agreed,
            g.tied,
            g.agreement.map_or(String::new(), |a| format!("{a:.4}")),
            g.threshold,
            g.min_pairs,
            verdict_name(g.verdict),
            verdict_name(g.copies),
            verdict_name(q.reliability.verdict),
            excluded(q)
        )?;
    }
    Ok(())
}

/// Gold orders made from a finished campaign's blocks (WMT 2012: controls "selected such that
/// there was high agreement" among trusted annotators): for each segment, the systems that at
/// least `min_judges` distinct judges ranked, every pair of them compared by at least
/// `min_judges` judges, and each pair's comparisons at least `min_agreement` one way (a win
/// either way, or a tie; the other outcomes count against). A segment becomes an order when every
/// pair of its chosen systems agrees so, the pairs form one order with ties, and one pair is
/// strict. Give it the kept workers' first showings (`RankingAnalysis::kept`); the result is a
/// gold file for [`read_gold`] ([`write_gold_tsv`]).
pub fn gold_from_blocks(data: &super::ranking::RankingData, min_judges: usize, min_agreement: f64) -> Vec<GoldOrder> {
    use std::collections::{BTreeMap, BTreeSet};
    let min_judges = min_judges.max(2);
    // segment → (system a < b) → (a better, b better, tied, judges).
    let mut pairs: BTreeMap<&str, BTreeMap<(usize, usize), (usize, usize, usize, BTreeSet<&str>)>> = BTreeMap::new();
    let mut judges_of: BTreeMap<&str, BTreeMap<usize, BTreeSet<&str>>> = BTreeMap::new();
    for b in &data.blocks {
        let ranked: Vec<(usize, u32)> = b.outputs.iter().filter_map(|o| o.rank.map(|r| (o.system, r))).collect();
        for &(s, _) in &ranked {
            judges_of.entry(&b.segment).or_default().entry(s).or_default().insert(&b.judge);
        }
        for (i, &(s1, r1)) in ranked.iter().enumerate() {
            for &(s2, r2) in &ranked[i + 1..] {
                if s1 == s2 {
                    continue;
                }
                let (a, ra, c, rc) = if s1 < s2 { (s1, r1, s2, r2) } else { (s2, r2, s1, r1) };
                let e = pairs.entry(&b.segment).or_default().entry((a, c)).or_default();
                match ra.cmp(&rc) {
                    std::cmp::Ordering::Less => e.0 += 1,
                    std::cmp::Ordering::Greater => e.1 += 1,
                    std::cmp::Ordering::Equal => e.2 += 1,
                }
                e.3.insert(&b.judge);
            }
        }
    }
    let mut out = Vec::new();
    for (segment, systems) in &judges_of {
        let chosen: Vec<usize> = systems.iter().filter(|(_, j)| j.len() >= min_judges).map(|(s, _)| *s).collect();
        if chosen.len() < 2 {
            continue;
        }
        // Each pair's agreed outcome: -1 (first better), 1 (second better), 0 (tied).
        let mut outcome: BTreeMap<(usize, usize), i8> = BTreeMap::new();
        let mut ok = true;
        for (i, &a) in chosen.iter().enumerate() {
            for &c in &chosen[i + 1..] {
                let Some((wa, wc, t, judges)) = pairs.get(segment).and_then(|p| p.get(&(a, c))) else {
                    ok = false;
                    break;
                };
                let n = (wa + wc + t) as f64;
                let share = |k: usize| k as f64 / n;
                let agreed = if judges.len() < min_judges {
                    None
                } else if share(*wa) + 1e-9 >= min_agreement {
                    Some(-1)
                } else if share(*wc) + 1e-9 >= min_agreement {
                    Some(1)
                } else if share(*t) + 1e-9 >= min_agreement {
                    Some(0)
                } else {
                    None
                };
                match agreed {
                    Some(o) => {
                        outcome.insert((a, c), o);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                break;
            }
        }
        if !ok || outcome.values().all(|&o| o == 0) {
            continue;
        }
        // Rank by the number of systems each beats; then check every pair against the ranks.
        let beats = |s: usize| {
            outcome.iter().filter(|&(&(a, c), &o)| (a == s && o == -1) || (c == s && o == 1)).count()
        };
        let mut order: Vec<(usize, usize)> = chosen.iter().map(|&s| (s, beats(s))).collect();
        order.sort_by(|x, y| y.1.cmp(&x.1).then(data.systems[x.0].cmp(&data.systems[y.0])));
        let mut ranks: Vec<(usize, u32)> = Vec::new();
        for (i, &(s, b)) in order.iter().enumerate() {
            let rank = if i > 0 && order[i - 1].1 == b { ranks[i - 1].1 } else { i as u32 + 1 };
            ranks.push((s, rank));
        }
        let rank_of = |s: usize| ranks.iter().find(|r| r.0 == s).map(|r| r.1).unwrap_or(0);
        let consistent = outcome.iter().all(|(&(a, c), &o)| match o {
            -1 => rank_of(a) < rank_of(c),
            1 => rank_of(a) > rank_of(c),
            _ => rank_of(a) == rank_of(c),
        });
        if consistent {
            out.push(GoldOrder {
                line: out.len() + 1,
                segment: segment.to_string(),
                ranks: ranks.iter().map(|&(s, r)| (data.systems[s].clone(), r)).collect(),
            });
        }
    }
    out
}

/// Gold orders as a TSV gold file (`segment<TAB>order`), with a header.
pub fn write_gold_tsv(w: &mut dyn std::io::Write, orders: &[GoldOrder]) -> std::io::Result<()> {
    writeln!(w, "segment\torder")?;
    for o in orders {
        writeln!(w, "{}\t{}", o.segment, o.order_text())?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "gold_tests.rs"]
mod tests;
