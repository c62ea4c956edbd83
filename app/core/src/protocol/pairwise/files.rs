//! The files of pairwise preference.
//!
//! - The judgment CSV `assay analyze --input` reads: a header
//!   `segment,system_a,system_b,winner,worker` (any order; an optional `pair` column for the
//!   language pair, `xx-xx` when there is none), one judgment a row, `winner` one of `a`, `b`,
//!   `tie` (any case). RFC 4180 quoting, read by the `csv` crate; errors name the line.
//! - `pairwise-<pair>.csv`, one row per system, highest rating first:
//!   `system,rating,ci_low,ci_high,rank_low,rank_high,wins,losses,ties,n`. A system without a
//!   finite rating has `rating`, `ci_low` and `ci_high` empty; a rated system whose bootstrap
//!   gave no interval has empty `ci_low` and `ci_high`. Numbers in full precision.

use std::io::{Read, Write};

use super::Winner;
use super::bradley_terry::{BtReport, Comparison, MAX_SYSTEMS};

pub use crate::judgment_csv::DEFAULT_PAIR;
use crate::judgment_csv::{JudgmentCsv, Layout};

/// The columns of the judgment CSV, `pair` optional.
pub const JUDGMENT_COLUMNS: [&str; 5] = ["segment", "system_a", "system_b", "winner", "worker"];

/// The judgment CSV as the one reader of judgment CSVs reads it (`judgment_csv`).
const LAYOUT: Layout = Layout { kind: "a pairwise judgment CSV", required: &JUDGMENT_COLUMNS, optional: &[] };

/// The header of `pairwise-<pair>.csv`.
pub const RATING_HEADER: [&str; 10] = ["system", "rating", "ci_low", "ci_high", "rank_low", "rank_high", "wins", "losses", "ties", "n"];

/// A problem in a judgment CSV: the 1-based line and what is wrong.
pub type PairwiseFileError = crate::judgment_csv::CsvLineError;

/// One judgment of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgment {
    pub segment: String,
    pub worker: String,
    pub comparison: Comparison,
}

/// The judgments of one language pair, systems in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairwiseData {
    pub pair: String,
    pub systems: Vec<String>,
    pub judgments: Vec<Judgment>,
}

impl PairwiseData {
    pub fn comparisons(&self) -> Vec<Comparison> {
        self.judgments.iter().map(|j| j.comparison).collect()
    }
}

/// Whether the fields of a CSV's first record are a pairwise judgment header (it names
/// `system_a`, `system_b` and `winner`).
pub fn is_judgment_header<S: AsRef<str>>(fields: &[S]) -> bool {
    let has = |name: &str| fields.iter().any(|f| f.as_ref().trim().eq_ignore_ascii_case(name));
    has("system_a") && has("system_b") && has("winner")
}

/// The name of a language pair's ratings file.
pub fn ratings_file_name(pair: &str) -> String {
    format!("pairwise-{pair}.csv")
}

use crate::csv_guard::spreadsheet_guard as guard;

/// Reads a pairwise judgment CSV, grouped by language pair in order of first appearance.
pub fn read_judgment_csv(input: impl Read) -> Result<Vec<PairwiseData>, PairwiseFileError> {
    let mut csv = JudgmentCsv::open(input, &LAYOUT)?;
    let (segment, system_a, system_b, winner, worker) = (0, 1, 2, 3, 4);
    let mut out: Vec<PairwiseData> = Vec::new();
    let mut index: Vec<std::collections::HashMap<String, usize>> = Vec::new();
    while let Some(row) = csv.next_row()? {
        let (line, pair) = (row.line, row.pair);
        let a_name = row.text(system_a);
        let b_name = row.text(system_b);
        for (column, name) in [("system_a", a_name), ("system_b", b_name)] {
            if name.is_empty() {
                return Err(row.error(format!("{column} is empty")));
            }
        }
        if a_name == b_name {
            return Err(row.error(format!("system_a and system_b are the same system ({a_name}): a system cannot be compared with itself")));
        }
        let chosen = Winner::parse(row.raw(winner)).ok_or_else(|| row.error(format!("winner must be a, b or tie, not {:?}", row.raw(winner).trim())))?;
        let at = match out.iter().position(|d| d.pair == pair) {
            Some(at) => at,
            None => {
                out.push(PairwiseData { pair: pair.to_string(), systems: Vec::new(), judgments: Vec::new() });
                index.push(Default::default());
                out.len() - 1
            }
        };
        let mut system = |name: &str| -> Result<usize, PairwiseFileError> {
            if let Some(&i) = index[at].get(name) {
                return Ok(i);
            }
            let data = &mut out[at];
            if data.systems.len() >= MAX_SYSTEMS {
                return Err(crate::judgment_csv::line_error(line, format!("more than {MAX_SYSTEMS} systems in {}", data.pair)));
            }
            data.systems.push(name.to_string());
            index[at].insert(name.to_string(), data.systems.len() - 1);
            Ok(data.systems.len() - 1)
        };
        let (a, b) = (system(a_name)?, system(b_name)?);
        out[at].judgments.push(Judgment {
            segment: row.text(segment).to_string(),
            worker: row.text(worker).to_string(),
            comparison: Comparison { a, b, winner: chosen },
        });
    }
    Ok(out)
}

/// Writes `pairwise-<pair>.csv`.
pub fn write_ratings_csv(w: impl Write, report: &BtReport) -> std::io::Result<()> {
    let mut out = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(w);
    out.write_record(RATING_HEADER)?;
    let number = |x: Option<f64>| x.filter(|v| v.is_finite()).map_or_else(String::new, |v| v.to_string());
    for r in &report.systems {
        out.write_record([
            guard(&r.system).into_owned(),
            number(r.rating),
            number(r.ci_low),
            number(r.ci_high),
            r.rank_low.to_string(),
            r.rank_high.to_string(),
            r.wins.to_string(),
            r.losses.to_string(),
            r.ties.to_string(),
            r.n.to_string(),
        ])?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::super::bradley_terry::{BtSettings, rate};
    use super::*;

    fn read(text: &str) -> Result<Vec<PairwiseData>, PairwiseFileError> {
        read_judgment_csv(text.as_bytes())
    }

    #[test]
    fn judgments_are_read_by_pair_with_the_default_pair() {
        let data = read("segment,system_a,system_b,winner,worker\n1,A,B,a\u{0},w1\n").unwrap_err();
        assert_eq!(data.line, 2);
        let data = read("\u{feff}Segment,System_A,system_b,WINNER,worker\n1,A,B,a,w1\n\n2,B,\"C, Inc\",TIE,w2\n3,'=X,A,b,w1\n").unwrap();
        assert_eq!(data.len(), 1);
        assert_eq!(data[0].pair, "xx-xx");
        assert_eq!(data[0].systems, ["A", "B", "C, Inc", "=X"]);
        let c: Vec<_> = data[0].comparisons();
        assert_eq!(c[0], Comparison { a: 0, b: 1, winner: Winner::A });
        assert_eq!(c[1], Comparison { a: 1, b: 2, winner: Winner::Tie });
        assert_eq!(c[2], Comparison { a: 3, b: 0, winner: Winner::B });
        assert_eq!((data[0].judgments[1].segment.as_str(), data[0].judgments[1].worker.as_str()), ("2", "w2"));
        let two = read("worker,pair,segment,system_a,system_b,winner\nw,en-de,1,A,B,a\nw,cs-en,1,A,B,b\nw,en-de,2,B,C,a\n").unwrap();
        assert_eq!(two.iter().map(|d| (d.pair.as_str(), d.judgments.len(), d.systems.len())).collect::<Vec<_>>(), [("en-de", 2, 3), ("cs-en", 1, 2)]);
    }

    #[test]
    fn bad_rows_are_refused_with_their_line() {
        let header = "segment,system_a,system_b,winner,worker\n";
        let cases = [
            ("", 1, "empty input"),
            ("segment,system_a,system_b,winner\n", 1, "no column worker"),
            ("segment,system_a,system_b,winner,worker,score\n", 1, "unknown column \"score\""),
            ("segment,system_a,system_b,winner,worker,winner\n", 1, "appears twice"),
            (&format!("{header}1,A,B,a,w\n2,A,B,left,w\n"), 3, "winner must be a, b or tie, not \"left\""),
            (&format!("{header}1,A,A,a,w\n"), 2, "a system cannot be compared with itself"),
            (&format!("{header}1,,B,a,w\n"), 2, "system_a is empty"),
            (&format!("{header}1,A,B,a\n"), 2, "4 fields, but the header has 5"),
            (&format!("{header}1,A,\"B,a,w\n2,A,B,a,w\n"), 2, "is a quote not closed?"),
            ("segment,system_a,system_b,winner,worker,pair\n1,A,B,a,w,../x\n", 2, "not a language pair"),
        ];
        for (text, line, words) in cases {
            let e = read(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_header_is_recognised() {
        assert!(is_judgment_header(&["segment", "system_a", "system_b", "winner", "worker"]));
        assert!(is_judgment_header(&["pair", " System_A", "system_b", "Winner"]));
        assert!(!is_judgment_header(&["segment", "system", "score"]));
    }

    #[test]
    fn the_ratings_file_has_one_row_per_system_highest_first_and_no_non_finite_number() {
        // A and B equally good; C never wins: ranked last, no finite rating, empty fields.
        let names: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
        let mut c = Vec::new();
        for k in 0..30 {
            c.push(Comparison { a: 0, b: 1, winner: if k % 2 == 0 { Winner::B } else { Winner::A } });
            c.push(Comparison { a: 2, b: k % 2, winner: Winner::B });
        }
        let report = rate(&names, &c, &BtSettings { samples: 200, seed: 3 }).unwrap();
        let mut out = Vec::new();
        write_ratings_csv(&mut out, &report).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "system,rating,ci_low,ci_high,rank_low,rank_high,wins,losses,ties,n");
        assert_eq!(lines.len(), 4);
        let a: Vec<&str> = lines[1].split(',').collect();
        assert_eq!(a[0], "A");
        assert_eq!(a[1], "1000");
        assert!(a[2].parse::<f64>().unwrap() < 1000.0 && a[3].parse::<f64>().unwrap() > 1000.0);
        assert_eq!(&a[4..], ["1", "2", "30", "15", "0", "45"]);
        assert!(lines[2].starts_with("B,"));
        assert_eq!(lines[3], "C,,,,3,3,0,30,0,30");
        assert!(!text.contains("NaN") && !text.contains("inf"));
        assert_eq!(ratings_file_name("en-de"), "pairwise-en-de.csv");
        // A name a spreadsheet would run is guarded, and read back as it was.
        let guarded = rate(&["=A".to_string(), "B".to_string()], &[Comparison { a: 0, b: 1, winner: Winner::Tie }], &BtSettings { samples: 0, seed: 0 }).unwrap();
        let mut out = Vec::new();
        write_ratings_csv(&mut out, &guarded).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("\n'=A,1000,"));
    }
}
