//! Human judgments against automatic metrics (issue 21).
//!
//! - [`tokenize`], [`bleu`], [`chrf`]: the built-in metrics, BLEU, chrF and chrF++, exactly as
//!   sacrebleu [`SACREBLEU_VERSION`] computes them (checked against it to the last printed
//!   digit in `tests/fixtures/metrics/sacrebleu.json`);
//! - [`ter`]: TER as sacrebleu computes it (`tests/fixtures/metrics/ter.json`), and HTER, an
//!   output's TER against its post-edit, per segment and per system with a bootstrap interval;
//! - [`read`]: metric and human scores in (mt-metrics-eval `.score` files, TSV, JSONL),
//!   validated like imports: every problem with its file and line, all or nothing;
//! - [`meta`]: the meta-evaluation, [`meta::meta_evaluate`]: system- and segment-level
//!   correlations with intervals, pairwise accuracy, soft pairwise accuracy, acc_eq with tie
//!   calibration, the Williams and PERM-BOTH tests between metrics and their clusters;
//! - [`upload`]: metric scores uploaded for a campaign, fitted to its pair, systems and test
//!   set (file, line, problem; all or nothing);
//! - [`systems`]: randomized significance tests between systems on any metric (paired
//!   bootstrap, bootstrap with shift-to-zero, approximate randomization; BLEU recomputed from
//!   resampled sufficient statistics) and their agreement with a human significance matrix.

pub mod bleu;
pub mod builtin;
pub mod chrf;
pub mod hter;
pub mod meta;
pub mod postedit;
pub mod read;
pub mod report;
pub mod systems;
pub mod ter;
pub mod tokenize;
pub mod upload;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod meta_fixtures;
#[cfg(test)]
mod ter_fixtures;
#[cfg(test)]
mod wmt12_fixtures;

/// The sacrebleu release whose behaviour the built-in metrics reproduce; printed in their
/// signatures (`version:2.4.3`) as sacrebleu prints its own version, so a signature says which
/// sacrebleu numbers Assay's agree with.
pub const SACREBLEU_VERSION: &str = "2.4.3";

/// Why a built-in metric could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MetricError {
    #[error("no reference was given")]
    NoReference,
    #[error("reference {stream} has {got} segments, the hypothesis has {expected}")]
    LengthMismatch { stream: usize, expected: usize, got: usize },
    #[error("{0}")]
    Invalid(String),
}

pub(crate) fn check_streams(hyps: &[String], refs: &[Vec<String>]) -> Result<(), MetricError> {
    if refs.is_empty() {
        return Err(MetricError::NoReference);
    }
    for (k, r) in refs.iter().enumerate() {
        if r.len() != hyps.len() {
            return Err(MetricError::LengthMismatch {
                stream: k + 1,
                expected: hyps.len(),
                got: r.len(),
            });
        }
    }
    Ok(())
}

/// A float as Python's `repr` prints it (shortest round-trip digits; exponent notation below
/// 1e-4 and from 1e16), so that Assay's printed scores can be compared with sacrebleu's.
pub fn python_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let e = format!("{:e}", x.abs());
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let sign = if x < 0.0 { "-" } else { "" };
    if !(-4..16).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let m = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
        return format!("{sign}{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
    let nd = digits.len() as i32;
    let body = if exp < 0 {
        format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
    } else if nd > exp + 1 {
        format!("{}.{}", &digits[..(exp + 1) as usize], &digits[(exp + 1) as usize..])
    } else {
        format!("{}{}.0", digits, "0".repeat((exp + 1 - nd) as usize))
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod repr_tests {
    use super::python_repr;

    #[test]
    fn like_python() {
        for (x, s) in [
            (100.0, "100.0"),
            (0.1, "0.1"),
            (70.13886245816866, "70.13886245816866"),
            (1e-16, "1e-16"),
            (1.5e-5, "1.5e-05"),
            (0.0001, "0.0001"),
            (1e16, "1e+16"),
            (123456789012345.6, "123456789012345.6"),
            (-2.5, "-2.5"),
            (0.0, "0.0"),
        ] {
            assert_eq!(python_repr(x), s);
        }
    }
}
