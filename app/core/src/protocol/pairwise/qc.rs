//! Quality control of pairwise preference, as pure functions of the answers.
//!
//! - **A degraded copy against its own original** (an item whose `a` or `b` is a degraded copy
//!   of the other): a careful annotator prefers the original ([`copy_outcome`]).
//! - **Repeated pairs** come back with their sides swapped ([`repeat_left`]), so that a choice
//!   that follows the screen rather than the outputs shows up as a disagreement
//!   ([`consistency`]).
//! - **The reliability gate's paired test** ([`reliability`]): over a worker's copy pairs, the
//!   exact one-sided sign test (binomial, p = ½, ties left out) of "the original is preferred
//!   more often than chance", i.e. of the degraded side being preferred no more often than
//!   chance under the null; pass when p < α, with at least a minimum number of pairs ("not
//!   enough evidence" below it, never "pass").

use assay_stats::{Alternative, sign_test};
use serde::{Deserialize, Serialize};

use super::{Preference, Side, Winner};

/// How a degraded copy fared against its original in one answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CopyOutcome {
    OriginalPreferred,
    Tie,
    DegradedPreferred,
}

/// The outcome of an answer to a pair whose `degraded` side is a degraded copy of the other.
pub fn copy_outcome(answer: &Preference, degraded: Side) -> CopyOutcome {
    match (answer.winner, degraded) {
        (Winner::Tie, _) => CopyOutcome::Tie,
        (Winner::A, Side::B) | (Winner::B, Side::A) => CopyOutcome::OriginalPreferred,
        _ => CopyOutcome::DegradedPreferred,
    }
}

/// Whether the degraded copy lost, as it must.
pub fn degraded_loses(answer: &Preference, degraded: Side) -> bool {
    copy_outcome(answer, degraded) == CopyOutcome::OriginalPreferred
}

/// The output a repeat of a pair shows on the left: the other one.
pub fn repeat_left(first_left: Side) -> Side {
    first_left.other()
}

/// A repeat that was shown with the same sides as its first showing (a HIT built wrongly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("repeat {index}: the pair was shown with the same output on the left both times; a repeat must come back with its sides swapped")]
pub struct SidesNotSwapped {
    pub index: usize,
}

/// A worker's repeated pairs: how often the second answer chose the same output as the first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConsistencyCheck {
    pub pairs: usize,
    /// The same choice (a, b or tie) both times.
    pub agreeing: usize,
    /// `agreeing / pairs`; `None` without pairs. A worker who answers at random among the three
    /// choices agrees on a third of the pairs on average.
    pub agreement: Option<f64>,
    /// Pairs where both answers picked an output and it was the same side of the screen both
    /// times (with the sides swapped, that is two different outputs): the mark of a worker who
    /// follows the screen, not the translations.
    pub same_screen_side: usize,
}

/// The consistency of `(first, repeat)` answers to repeated pairs.
pub fn consistency(pairs: &[(Preference, Preference)]) -> Result<ConsistencyCheck, SidesNotSwapped> {
    let mut check = ConsistencyCheck { pairs: pairs.len(), agreeing: 0, agreement: None, same_screen_side: 0 };
    for (index, (first, repeat)) in pairs.iter().enumerate() {
        if repeat.left != repeat_left(first.left) {
            return Err(SidesNotSwapped { index });
        }
        if first.winner == repeat.winner {
            check.agreeing += 1;
        }
        if first.winner != Winner::Tie && repeat.winner != Winner::Tie && first.screen_pick() == repeat.screen_pick() {
            check.same_screen_side += 1;
        }
    }
    check.agreement = (!pairs.is_empty()).then(|| check.agreeing as f64 / pairs.len() as f64);
    Ok(check)
}

/// The reliability test's verdict: the analysis's own ([`crate::verdict`]).
pub use crate::verdict::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReliabilitySettings {
    /// The test's level (0.05 as in the DA gate).
    pub alpha: f64,
    /// Fewer copy pairs than this: not enough evidence (5 as in the DA gate).
    pub min_pairs: usize,
}

impl Default for ReliabilitySettings {
    fn default() -> Self {
        ReliabilitySettings { alpha: 0.05, min_pairs: 5 }
    }
}

/// A worker's paired test on degraded copies against their originals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReliabilityCheck {
    pub pairs: usize,
    pub original_preferred: u64,
    pub degraded_preferred: u64,
    pub ties: u64,
    /// One-sided exact sign test (ties left out): P(X ≥ original_preferred), X ~ Binomial(original
    /// + degraded preferred, ½).
    pub p_value: Option<f64>,
    pub verdict: Verdict,
    /// Why the test could not run or how a degenerate case was decided.
    pub note: Option<String>,
}

/// The reliability gate's paired test on a worker's copy outcomes.
pub fn reliability(outcomes: &[CopyOutcome], settings: &ReliabilitySettings) -> ReliabilityCheck {
    let count = |o: CopyOutcome| outcomes.iter().filter(|&&x| x == o).count() as u64;
    let (original, degraded, ties) = (count(CopyOutcome::OriginalPreferred), count(CopyOutcome::DegradedPreferred), count(CopyOutcome::Tie));
    let mut check = ReliabilityCheck {
        pairs: outcomes.len(),
        original_preferred: original,
        degraded_preferred: degraded,
        ties,
        p_value: None,
        verdict: Verdict::NotEnoughEvidence,
        note: None,
    };
    let enough = outcomes.len() >= settings.min_pairs;
    match sign_test(original, degraded, Alternative::Greater) {
        Ok(p) => {
            check.p_value = Some(p);
            if enough {
                check.verdict = if p < settings.alpha { Verdict::Pass } else { Verdict::Fail };
            }
        }
        Err(_) if enough => {
            check.verdict = Verdict::Fail;
            check.note = Some("every degraded copy was judged about the same as its original".into());
        }
        Err(e) => check.note = Some(e.to_string()),
    }
    if !enough {
        check.note = Some(format!("{} pairs, fewer than the minimum of {}", outcomes.len(), settings.min_pairs));
    }
    check
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pref(left: Side, winner: Winner) -> Preference {
        Preference { left, winner }
    }

    #[test]
    fn a_degraded_copy_must_lose_whichever_side_it_is() {
        assert_eq!(copy_outcome(&pref(Side::A, Winner::A), Side::B), CopyOutcome::OriginalPreferred);
        assert_eq!(copy_outcome(&pref(Side::B, Winner::B), Side::A), CopyOutcome::OriginalPreferred);
        assert_eq!(copy_outcome(&pref(Side::A, Winner::B), Side::B), CopyOutcome::DegradedPreferred);
        assert_eq!(copy_outcome(&pref(Side::A, Winner::Tie), Side::A), CopyOutcome::Tie);
        assert!(degraded_loses(&pref(Side::B, Winner::A), Side::B));
        assert!(!degraded_loses(&pref(Side::B, Winner::Tie), Side::B));
        assert!(!degraded_loses(&pref(Side::B, Winner::B), Side::B));
    }

    #[test]
    fn repeats_come_back_swapped_and_a_screen_follower_is_seen() {
        assert_eq!(repeat_left(Side::A), Side::B);
        // A careful worker: the same output both times, whatever side it is on.
        let careful = [(pref(Side::A, Winner::A), pref(Side::B, Winner::A)), (pref(Side::B, Winner::Tie), pref(Side::A, Winner::Tie))];
        let c = consistency(&careful).unwrap();
        assert_eq!((c.pairs, c.agreeing, c.agreement, c.same_screen_side), (2, 2, Some(1.0), 0));
        // Always the left one: every repeat disagrees, every decisive pair on the same side.
        let lefty: Vec<_> = [Side::A, Side::B, Side::A]
            .iter()
            .map(|&l| (Preference::from_screen(l, super::super::ScreenPick::Left), Preference::from_screen(l.other(), super::super::ScreenPick::Left)))
            .collect();
        let c = consistency(&lefty).unwrap();
        assert_eq!((c.agreeing, c.agreement, c.same_screen_side), (0, Some(0.0), 3));
        // A repeat with the same sides is a HIT built wrongly.
        let e = consistency(&[careful[0], (pref(Side::A, Winner::A), pref(Side::A, Winner::A))]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.to_string().contains("sides swapped"));
        assert_eq!(consistency(&[]).unwrap().agreement, None);
    }

    #[test]
    fn the_paired_test_passes_a_careful_worker_and_fails_a_random_one() {
        use CopyOutcome::*;
        let s = ReliabilitySettings::default();
        let careful = [OriginalPreferred; 8];
        let r = reliability(&careful, &s);
        assert_eq!(r.verdict, Verdict::Pass);
        // P(X ≥ 8), X ~ Binomial(8, ½) = 1/256.
        assert!((r.p_value.unwrap() - 1.0 / 256.0).abs() < 1e-15);
        // 7 of 10 decisive, 2 ties: P(X ≥ 7 | n = 10) = 176/1024 > 0.05.
        let mixed: Vec<CopyOutcome> = [[OriginalPreferred; 7].as_slice(), &[DegradedPreferred; 3], &[Tie; 2]].concat();
        let r = reliability(&mixed, &s);
        assert_eq!((r.original_preferred, r.degraded_preferred, r.ties, r.pairs), (7, 3, 2, 12));
        assert!((r.p_value.unwrap() - 176.0 / 1024.0).abs() < 1e-12);
        assert_eq!(r.verdict, Verdict::Fail);
        // The same p-value from statrs' binomial distribution directly.
        use statrs::distribution::{Binomial, DiscreteCDF};
        let b = Binomial::new(0.5, 10).unwrap();
        assert!((r.p_value.unwrap() - b.sf(6)).abs() < 1e-12);
        // Too few pairs: never a pass, however clean.
        let r = reliability(&careful[..4], &s);
        assert_eq!(r.verdict, Verdict::NotEnoughEvidence);
        assert!(r.note.unwrap().contains("fewer than the minimum of 5"));
        // Only ties, with enough pairs: the copies were not told apart.
        let r = reliability(&[Tie; 6], &s);
        assert_eq!(r.verdict, Verdict::Fail);
        assert_eq!(r.p_value, None);
        // The degraded side preferred more often than chance: fail.
        assert_eq!(reliability(&[DegradedPreferred; 6], &s).verdict, Verdict::Fail);
    }
}
