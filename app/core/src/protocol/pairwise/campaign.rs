//! A pairwise-preference campaign's stored answers analysed: each worker's quality control
//! ([`super::qc`]: the paired test on degraded copies against their originals, the consistency
//! of repeated pairs shown with their sides swapped), then Bradley–Terry ratings
//! ([`super::bradley_terry`]) on the real pairs of the workers kept.
//!
//! A worker is kept unless the paired test fails (the degraded side was not preferred less often
//! than chance would have it); a worker with too few copies for a verdict is kept, and counted
//! as such. Quality-control answers (copies, repeats) never count in the ratings.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::bradley_terry::{BtError, BtReport, BtSettings, Comparison, rate};
use super::qc::{ConsistencyCheck, CopyOutcome, ReliabilityCheck, ReliabilitySettings, Verdict, consistency, copy_outcome, reliability};
use super::{Preference, Side};
use crate::model::ItemType;

/// One stored answer of a pairwise campaign, as the loader reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPreference {
    /// The worker (`platform:external id`).
    pub worker: String,
    /// The assignment the answer belongs to (a repeat is paired within it).
    pub assignment: i64,
    pub item_type: ItemType,
    pub segment: String,
    /// The systems of outputs a and b (the same for a degraded copy against its original).
    pub a: String,
    pub b: String,
    pub preference: Preference,
    /// A copy against its original: the side that is the copy.
    pub degraded: Option<Side>,
    /// The item's position in its HIT, and the position of the item it is paired with (a repeat
    /// and its first showing).
    pub position: i64,
    pub paired_position: Option<i64>,
}

/// One worker's quality control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerCheck {
    pub worker: String,
    pub reliability: ReliabilityCheck,
    /// `None` when the worker answered no repeated pair.
    pub consistency: Option<ConsistencyCheck>,
    /// Its real pairs count in the ratings.
    pub kept: bool,
}

/// A pairwise campaign analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignPreferences {
    /// The language pair (`source-target`), as the ratings file is named.
    pub pair: String,
    pub workers: Vec<WorkerCheck>,
    /// The ratings of the kept workers' real pairs; `Err`: why there are none (too few systems,
    /// a comparison graph in parts never compared), in words.
    pub ratings: Result<BtReport, BtError>,
    /// Real-pair answers of the workers kept, and of those left out.
    pub judgments_kept: usize,
    pub judgments_left_out: usize,
}

/// How each degraded copy among `answers` fared against its original.
fn copy_outcomes<'a>(answers: impl Iterator<Item = &'a StoredPreference>) -> Vec<CopyOutcome> {
    answers.filter(|a| a.item_type == ItemType::BadRef).filter_map(|a| a.degraded.map(|d| copy_outcome(&a.preference, d))).collect()
}

/// One worker's reliability for the quality gate at submission, from that worker's answers in
/// the campaign (pooled over their HITs): the paired test on degraded copies, as [`analyse`]
/// runs it, and the number of HITs (assignments) the answers come from.
pub fn worker_reliability(answers: &[StoredPreference], qc: &ReliabilitySettings) -> (ReliabilityCheck, usize) {
    let hits: std::collections::BTreeSet<i64> = answers.iter().map(|a| a.assignment).collect();
    (reliability(&copy_outcomes(answers.iter()), qc), hits.len())
}

/// Analyses a campaign's answers (`pair`: its language pair).
pub fn analyse(pair: &str, answers: &[StoredPreference], qc: &ReliabilitySettings, bt: &BtSettings) -> CampaignPreferences {
    let mut by_worker: BTreeMap<&str, Vec<&StoredPreference>> = BTreeMap::new();
    for a in answers {
        by_worker.entry(a.worker.as_str()).or_default().push(a);
    }
    let mut workers = Vec::with_capacity(by_worker.len());
    let mut kept_workers: HashMap<&str, bool> = HashMap::new();
    for (worker, mine) in &by_worker {
        let check = reliability(&copy_outcomes(mine.iter().copied()), qc);
        // A repeat and its first showing: same assignment, paired positions.
        let at: HashMap<(i64, i64), &StoredPreference> = mine.iter().map(|a| ((a.assignment, a.position), *a)).collect();
        let pairs: Vec<(Preference, Preference)> = mine
            .iter()
            .filter(|a| a.item_type == ItemType::Repeat)
            .filter_map(|r| r.paired_position.and_then(|p| at.get(&(r.assignment, p))).map(|first| (first.preference, r.preference)))
            .collect();
        let consistency = if pairs.is_empty() { None } else { consistency(&pairs).ok() };
        let kept = check.verdict != Verdict::Fail;
        kept_workers.insert(worker, kept);
        workers.push(WorkerCheck { worker: worker.to_string(), reliability: check, consistency, kept });
    }
    // Systems in order of first appearance among real pairs.
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut id = |s: &str| -> usize {
        if let Some(&i) = index.get(s) {
            return i;
        }
        names.push(s.to_string());
        index.insert(s.to_string(), names.len() - 1);
        names.len() - 1
    };
    let mut comparisons = Vec::new();
    let (mut kept, mut left_out) = (0, 0);
    for a in answers.iter().filter(|a| a.item_type == ItemType::System) {
        if !kept_workers.get(a.worker.as_str()).copied().unwrap_or(false) {
            left_out += 1;
            continue;
        }
        kept += 1;
        comparisons.push(Comparison { a: id(&a.a), b: id(&a.b), winner: a.preference.winner });
    }
    let ratings = rate(&names, &comparisons, bt);
    CampaignPreferences { pair: pair.to_string(), workers, ratings, judgments_kept: kept, judgments_left_out: left_out }
}

#[cfg(test)]
mod tests {
    use super::super::Winner;
    use super::*;

    fn answer(worker: &str, item_type: ItemType, a: &str, b: &str, left: Side, winner: Winner, position: i64) -> StoredPreference {
        StoredPreference {
            worker: worker.into(),
            assignment: 1,
            item_type,
            segment: format!("{position}"),
            a: a.into(),
            b: b.into(),
            preference: Preference { left, winner },
            degraded: None,
            position,
            paired_position: None,
        }
    }

    /// A careful worker and one who always picks the left side: the second fails the paired
    /// test (it prefers the degraded copy whenever it is on the left) and its pairs are left
    /// out; the ratings follow the careful worker, with wins, losses and ties counted.
    #[test]
    fn workers_failing_the_paired_test_are_left_out_of_the_ratings() {
        let mut answers = Vec::new();
        let mut pos = 0;
        let push = |x: StoredPreference, answers: &mut Vec<StoredPreference>| answers.push(x);
        for k in 0..8 {
            // Careful: good > mid > bad, one tie.
            let w = if k == 0 { Winner::Tie } else { Winner::A };
            push(answer("careful", ItemType::System, "good", "mid", Side::A, w, pos), &mut answers);
            push(answer("careful", ItemType::System, "mid", "bad", Side::B, Winner::A, pos + 1), &mut answers);
            push(answer("careful", ItemType::System, "bad", "good", Side::A, Winner::B, pos + 2), &mut answers);
            // Its copies: the original wins.
            let mut copy = answer("careful", ItemType::BadRef, "mid", "mid", Side::A, Winner::A, pos + 3);
            copy.degraded = Some(Side::B);
            push(copy, &mut answers);
            // The left-clicker: always the left side; its copies' degraded side is on the left.
            push(answer("lefty", ItemType::System, "bad", "good", Side::A, Winner::A, pos), &mut answers);
            let mut copy = answer("lefty", ItemType::BadRef, "good", "good", Side::A, Winner::A, pos + 3);
            copy.degraded = Some(Side::A);
            push(copy, &mut answers);
            pos += 10;
        }
        // A repeat with the sides swapped and the same output chosen: consistent.
        let mut first = answer("careful", ItemType::System, "good", "bad", Side::A, Winner::A, 1000);
        first.paired_position = Some(1001);
        let mut rep = answer("careful", ItemType::Repeat, "good", "bad", Side::B, Winner::A, 1001);
        rep.paired_position = Some(1000);
        answers.extend([first, rep]);
        let r = analyse("en-de", &answers, &ReliabilitySettings::default(), &BtSettings { samples: 50, seed: 3 });
        let careful = r.workers.iter().find(|w| w.worker == "careful").unwrap();
        let lefty = r.workers.iter().find(|w| w.worker == "lefty").unwrap();
        assert_eq!((careful.reliability.verdict, careful.kept), (Verdict::Pass, true));
        assert_eq!((lefty.reliability.verdict, lefty.kept), (Verdict::Fail, false));
        assert_eq!(careful.consistency.as_ref().map(|c| (c.pairs, c.agreeing)), Some((1, 1)));
        assert_eq!((r.judgments_kept, r.judgments_left_out), (25, 8));
        let report = r.ratings.unwrap();
        let order: Vec<&str> = report.systems.iter().map(|s| s.system.as_str()).collect();
        assert_eq!(order, ["good", "mid", "bad"]);
        let good = &report.systems[0];
        assert_eq!((good.wins, good.losses, good.ties, good.n), (16, 0, 1, 17));
        // bad never won nor tied: ranked last, without a finite rating, and said why.
        let bad = &report.systems[2];
        assert_eq!((bad.wins, bad.ties), (0, 0));
        assert!(bad.rating.is_none() && bad.no_rating.is_some(), "{bad:?}");
    }

    /// The gate's figure for one worker is the analysis's: a left-clicker whose copies were on
    /// the left fails, a careful worker passes, and HITs are counted by assignment.
    #[test]
    fn a_worker_s_gate_check_is_the_analysis_s() {
        let mut careful = Vec::new();
        let mut lefty = Vec::new();
        for k in 0..6 {
            let mut c = answer("careful", ItemType::BadRef, "x", "x", if k % 2 == 0 { Side::A } else { Side::B }, Winner::A, k);
            c.degraded = Some(Side::B);
            c.assignment = 1 + k / 3;
            careful.push(c);
            // The copy on the left, clicked: the degraded side preferred.
            let mut l = answer("lefty", ItemType::BadRef, "x", "x", Side::A, Winner::A, k);
            l.degraded = Some(Side::A);
            lefty.push(l);
            lefty.push(answer("lefty", ItemType::System, "x", "y", Side::A, Winner::A, 10 + k));
        }
        let s = ReliabilitySettings::default();
        let (c, hits) = worker_reliability(&careful, &s);
        assert_eq!((c.verdict, c.pairs, c.original_preferred, hits), (Verdict::Pass, 6, 6, 2));
        let (l, hits) = worker_reliability(&lefty, &s);
        assert_eq!((l.verdict, l.pairs, l.degraded_preferred, hits), (Verdict::Fail, 6, 6, 1));
        let both: Vec<StoredPreference> = careful.iter().chain(&lefty).cloned().collect();
        let r = analyse("en-de", &both, &s, &BtSettings { samples: 10, seed: 1 });
        assert_eq!(r.workers.iter().map(|w| &w.reliability).collect::<Vec<_>>(), [&c, &l]);
        let (none, hits) = worker_reliability(&[], &s);
        assert_eq!((none.verdict, hits), (Verdict::NotEnoughEvidence, 0));
    }

    #[test]
    fn one_system_is_refused_in_words() {
        let mut copy = answer("w", ItemType::BadRef, "x", "x", Side::A, Winner::A, 0);
        copy.degraded = Some(Side::B);
        let r = analyse("en-de", &[copy], &ReliabilitySettings::default(), &BtSettings::default());
        assert!(r.ratings.unwrap_err().to_string().contains("at least two systems"));
        assert_eq!(r.workers[0].reliability.verdict, Verdict::NotEnoughEvidence);
        assert!(r.workers[0].kept);
    }
}
