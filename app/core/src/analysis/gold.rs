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
mod tests {
    use super::*;
    use crate::analysis::verdict::Verdict;

    fn answers(block: u32, expected: &[u32], given: &[u32]) -> Vec<GoldAnswer> {
        expected.iter().zip(given).map(|(&e, &g)| GoldAnswer { worker: 0, block, expected: e, given: g }).collect()
    }

    #[test]
    fn orders_read_with_ties_and_every_problem_is_reported_with_its_line() {
        assert_eq!(parse_order("A > B = C > D").unwrap(), vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 2), ("D".into(), 4)]);
        assert_eq!(parse_order(" A = B > C").unwrap(), vec![("A".into(), 1), ("B".into(), 1), ("C".into(), 3)]);
        assert!(parse_order("A = B").unwrap_err().to_string().contains("at least one strict preference"));
        assert!(parse_order("A").unwrap_err().to_string().contains("at least 2 systems"));
        assert!(parse_order("A > > B").unwrap_err().to_string().contains("empty place"));
        assert!(parse_order("A > B > A").unwrap_err().to_string().contains("twice"));
        let tsv = "segment\torder\n1\tA > B = C\n# a comment\n\n2\tC > A\n";
        let orders = read_gold("gold.tsv", tsv).unwrap();
        assert_eq!(orders.len(), 2);
        assert_eq!((orders[1].line, orders[1].segment.as_str(), orders[1].order_text()), (5, "2", "C > A".to_string()));
        assert_eq!(orders[0].order_text(), "A > B = C");
        let bad = "1\tA > B\n1\tB > A\n2\tA = B\n3\n";
        let errors: Vec<String> = read_gold("g.tsv", bad).unwrap_err().iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors[0].starts_with("g.tsv, line 2: segment \"1\" has a gold order already (line 1)"), "{errors:?}");
        assert!(errors[1].starts_with("g.tsv, line 3:") && errors[1].contains("strict"), "{errors:?}");
        assert!(errors[2].starts_with("g.tsv, line 4: expected 2 tab-separated columns"), "{errors:?}");
        let jsonl = "{\"segment\": \"7\", \"order\": [[\"A\"], [\"B\", \"C\"]]}\n{\"segment\": 8, \"order\": \"B > A\"}\n";
        let orders = read_gold("gold.jsonl", jsonl).unwrap();
        assert_eq!(orders[0].ranks, vec![("A".into(), 1), ("B".into(), 2), ("C".into(), 2)]);
        assert_eq!(orders[1].segment, "8");
        let e = read_gold("gold.jsonl", "{\"segment\": \"7\"}\nnot json\n").unwrap_err();
        assert_eq!(e.len(), 2);
        assert!(e[0].to_string().contains("line 1: no \"order\""));
        assert_eq!(read_gold("empty.tsv", "# nothing\n").unwrap_err()[0].to_string(), "empty.tsv: no gold order in the file");
        // Names the test set does not have.
        let orders = read_gold("g.tsv", "1\tA > Z\n9\tA > B\n").unwrap();
        let e = check_names("g.tsv", &orders, |s| s == "1", |_, sys| (sys == "Z").then(|| format!("the test set has no output of system {sys:?}")));
        let e: Vec<String> = e.iter().map(ToString::to_string).collect();
        assert_eq!(e, ["g.tsv, line 1: the test set has no output of system \"Z\"", "g.tsv, line 2: the test set has no segment \"9\""]);
    }

    #[test]
    fn agreement_counts_strict_gold_pairs_and_ties_given_do_not_agree() {
        let rule = GoldRule { threshold: 0.7, min_pairs: 3 };
        // Gold A 1, B 2, C 2, D 4: strict pairs AB, AC, AD, BD, CD (5); BC tied by the gold, left out.
        let exact = answers(0, &[1, 2, 2, 4], &[1, 2, 3, 5]);
        let c = gold_check(&exact, rule, Verdict::NotEnoughEvidence);
        assert_eq!((c.pairs, c.agreed, c.tied, c.blocks), (5, 5, 0, 1));
        assert_eq!((c.agreement, c.verdict), (Some(1.0), Verdict::Pass));
        // Reversed: no agreement.
        let c = gold_check(&answers(0, &[1, 2, 2, 4], &[5, 3, 3, 1]), rule, Verdict::Pass);
        assert_eq!((c.agreed, c.verdict, c.copies), (0, Verdict::Fail, Verdict::Pass));
        // All tied by the worker: five ties, none agreeing.
        let c = gold_check(&answers(0, &[1, 2, 2, 4], &[1, 1, 1, 1]), rule, Verdict::Pass);
        assert_eq!((c.agreed, c.tied, c.agreement), (0, 5, Some(0.0)));
        // Two blocks: pairs never cross blocks (block 1 alone has 1 pair).
        let mut two = answers(0, &[1, 2], &[1, 2]);
        two.extend(answers(1, &[2, 1], &[1, 2]));
        let c = gold_check(&two, rule, Verdict::NotEnoughEvidence);
        assert_eq!((c.blocks, c.pairs, c.agreed), (2, 2, 1));
        // Tiny samples: not enough evidence, whatever the agreement.
        assert_eq!(c.verdict, Verdict::NotEnoughEvidence);
        assert_eq!(gold_check(&[], rule, Verdict::Pass).verdict, Verdict::NotEnoughEvidence);
        assert_eq!(gold_check(&[], rule, Verdict::Pass).agreement, None);
    }

    #[test]
    fn the_threshold_is_inclusive_and_the_minimum_counts_pairs() {
        // 10 strict pairs (5 outputs, all different), 7 agreeing: exactly 0.7.
        let mut a = answers(0, &[1, 2, 3, 4, 5], &[1, 2, 3, 4, 5]);
        // Swap 3 adjacent pairs' worth: given 2,1,3,5,4 reverses (1,2) and (4,5) → 8 of 10.
        a[0].given = 2;
        a[1].given = 1;
        a[3].given = 5;
        a[4].given = 4;
        let at = |threshold: f64, min_pairs: usize| gold_check(&a, GoldRule { threshold, min_pairs }, Verdict::NotEnoughEvidence);
        assert_eq!(at(0.8, 10).agreement, Some(0.8));
        assert_eq!(at(0.8, 10).verdict, Verdict::Pass);
        assert_eq!(at(0.81, 10).verdict, Verdict::Fail);
        assert_eq!(at(0.8, 11).verdict, Verdict::NotEnoughEvidence);
        assert_eq!(at(0.0, 0).verdict, Verdict::Pass, "a minimum of 0 still needs one pair");
        assert_eq!(at(0.8, 10).summary(), "0.80 (8 of 10 gold pairs)");
    }

    #[test]
    fn the_two_checks_combine_failure_first() {
        use Verdict::*;
        assert_eq!(combine(Pass, Fail), Fail);
        assert_eq!(combine(Fail, Pass), Fail);
        assert_eq!(combine(NotEnoughEvidence, Fail), Fail);
        assert_eq!(combine(NotEnoughEvidence, Pass), Pass);
        assert_eq!(combine(Pass, NotEnoughEvidence), Pass);
        assert_eq!(combine(NotEnoughEvidence, NotEnoughEvidence), NotEnoughEvidence);
    }

    /// Through quality control: a ranking worker's gold check joins the degraded-copy test in
    /// the reliability verdict (and so in the exclusion); other tasks ignore gold.
    #[test]
    fn quality_control_folds_the_gold_check_into_the_verdict() {
        use crate::analysis::quality::{self, ExclusionPolicy, QcSettings};
        use crate::analysis::{JudgmentNames, JudgmentSet, TimeBasis};
        use crate::model::ItemType;
        for task in ["ranking", "da-adequacy"] {
            let mut set = JudgmentSet::new(TimeBasis::PerItem);
            for worker in ["good", "bad"] {
                for seg in 0..4 {
                    let segment = seg.to_string();
                    let scale = crate::protocol::for_task(crate::model::TaskKind::parse(task).unwrap()).questions()[0].scale;
                    let names = JudgmentNames { worker, hit: "h", system: "A", segment: &segment, lang_pair: "de-en", task, scale };
                    set.push(names, ItemType::System, 0.5, 1.0);
                }
            }
            set.gold.rule = GoldRule { threshold: 0.7, min_pairs: 10 };
            // Two gold blocks of five outputs each (10 strict pairs per block): "good" ranks them
            // as the gold does, "bad" in reverse.
            for (w, reversed) in [(0u32, false), (1, true)] {
                for block in 0..2 {
                    for e in 1..=5u32 {
                        let given = if reversed { 6 - e } else { e };
                        set.gold.answers.push(GoldAnswer { worker: w, block: w * 2 + block, expected: e, given });
                    }
                }
            }
            let qc = quality::run(&set, &QcSettings::default());
            assert_eq!(qc.len(), 2);
            if task == "ranking" {
                let (good, bad) = (&qc[0].reliability, &qc[1].reliability);
                assert_eq!((good.verdict, good.gold.as_ref().unwrap().pairs), (Verdict::Pass, 20));
                assert_eq!(good.gold.as_ref().unwrap().copies, Verdict::NotEnoughEvidence, "no degraded copies");
                assert_eq!((bad.verdict, bad.gold.as_ref().unwrap().agreement), (Verdict::Fail, Some(0.0)));
                assert!(!ExclusionPolicy::NotPassed.excludes(&qc[0]) && ExclusionPolicy::FailedOnly.excludes(&qc[1]));
                // The stored form reads back (the gate keeps it as JSON).
                let json = serde_json::to_string(bad).unwrap();
                assert_eq!(&serde_json::from_str::<crate::analysis::quality::PairCheck>(&json).unwrap(), bad);
            } else {
                assert!(qc.iter().all(|w| w.reliability.gold.is_none() && w.reliability.verdict == Verdict::NotEnoughEvidence));
            }
        }
    }

    #[test]
    fn gold_is_made_where_judges_agreed_strongly() {
        use crate::analysis::ranking::{RankedOutput, RankingBlock, RankingData};
        let block = |segment: &str, judge: &str, ranks: &[(usize, u32)]| RankingBlock {
            segment: segment.into(),
            judge: judge.into(),
            outputs: ranks.iter().map(|&(system, r)| RankedOutput { system, rank: Some(r) }).collect(),
        };
        let data = RankingData {
            pair: "de-en".into(),
            systems: vec!["A".into(), "B".into(), "C".into()],
            blocks: vec![
                // Segment 1: three judges agree A > B = C.
                block("1", "j1", &[(0, 1), (1, 2), (2, 2)]),
                block("1", "j2", &[(0, 1), (1, 3), (2, 3)]),
                block("1", "j3", &[(2, 2), (0, 1), (1, 2)]),
                // Segment 2: two judges disagree on B against C.
                block("2", "j1", &[(0, 1), (1, 2), (2, 3)]),
                block("2", "j2", &[(0, 1), (1, 3), (2, 2)]),
                // Segment 3: one judge only.
                block("3", "j1", &[(0, 1), (1, 2), (2, 3)]),
                // Segment 4: all tied by both: no strict pair.
                block("4", "j1", &[(0, 1), (1, 1)]),
                block("4", "j2", &[(0, 1), (1, 1)]),
            ],
        };
        let gold = gold_from_blocks(&data, 2, 0.9);
        assert_eq!(gold.len(), 1, "{gold:?}");
        assert_eq!((gold[0].segment.as_str(), gold[0].order_text()), ("1", "A > B = C".to_string()));
        // At 0.5 one judge of two is enough: segment 2 (A > B > C by j1) too.
        assert_eq!(gold_from_blocks(&data, 2, 0.5).len(), 2);
        let mut file = Vec::new();
        write_gold_tsv(&mut file, &gold).unwrap();
        let text = String::from_utf8(file).unwrap();
        assert_eq!(text, "segment\torder\n1\tA > B = C\n");
        // The file reads back as a gold file.
        assert_eq!(read_gold("gold.tsv", &text).unwrap()[0].ranks, gold[0].ranks);
    }
}
