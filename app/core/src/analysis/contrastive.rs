//! Contrastive ESA's analysis beside the pipeline (issue 40 item 1): paired comparisons within a
//! screen. Each screen shows 2–4 systems' outputs of one segment, each scored 0–100 by the same
//! annotator; two systems are compared on the screens that showed both, by the Wilcoxon
//! signed-rank test on the within-screen differences of their scores (SciPy's, as
//! [`super::esa`] computes it), one-sided for each order of the two, and ranked in WMT 2025's
//! reading (rank ranges to the first significantly different neighbour, clusters from the
//! ranges: [`super::esa::rank_pair`] with [`EsaRule::Wmt25`]). Each system's plain ESA score
//! (mean, z-scores, intervals) is the common pipeline's, from the same judgments.
//!
//! Only the outputs of systems are compared: degraded copies and repeated screens are quality
//! control, read by the pipeline's worker test.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::esa::{EsaPairReport, EsaRule, EsaSettings, PairData, SegmentValue, fixed_score, rank_pair};
use super::formats::csv_text;

/// One system output's score on one screen, as stored (a system item of a contrastive HIT).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScreenScore {
    /// The screen: unique per assignment and screen (`<assignment>:<screen>`).
    pub screen: String,
    /// The segment the screen shows.
    pub segment: String,
    pub system: String,
    pub annotator: String,
    pub score: f64,
}

/// Two systems compared on the screens that showed both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairComparison {
    pub a: String,
    pub b: String,
    /// Screens that showed both.
    pub screens: usize,
    /// The mean of a's score less b's on those screens.
    pub mean_difference: f64,
    /// The one-sided p-value of "a scores higher than b" (`None`: no common screen).
    pub p_a_better: Option<f64>,
}

/// A language pair's within-screen comparisons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContrastiveReport {
    /// The systems ranked (best first: by mean score), with wins, losses, rank ranges and
    /// clusters from the one-sided within-screen tests.
    pub ranking: EsaPairReport,
    /// Every ordered pair of systems, in the ranking's order.
    pub pairs: Vec<PairComparison>,
}

/// Ranks the systems of one language pair by paired comparisons within screens (`alpha`: the
/// significance level, WMT: 0.05). Scores must be finite; a system's screen counts once.
pub fn compare_within_screens(pair: &str, scores: &[ScreenScore], alpha: f64) -> ContrastiveReport {
    let mut data = PairData { pair: pair.to_string(), domains: vec![String::new()], ..PairData::default() };
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut annotators: BTreeMap<&str, ()> = BTreeMap::new();
    for s in scores.iter().filter(|s| s.score.is_finite()) {
        let at = *index.entry(&s.system).or_insert_with(|| {
            data.systems.push(s.system.clone());
            data.segments.push(BTreeMap::new());
            data.systems.len() - 1
        });
        annotators.insert(&s.annotator, ());
        // The screen is the pairing unit: two systems' scores pair on it.
        data.segments[at].insert((s.screen.clone(), s.segment.clone()), SegmentValue { domain: 0, value: s.score, annotators: 1 });
        data.ratings += 1;
    }
    data.annotators = annotators.len();
    let settings = EsaSettings { rule: EsaRule::Wmt25, alpha, min_segments: 0.0 };
    let ranking = rank_pair(&data, &settings);
    let position: BTreeMap<&str, usize> = data.systems.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    let mut pairs = Vec::new();
    for (i, a) in ranking.systems.iter().enumerate() {
        for (j, b) in ranking.systems.iter().enumerate() {
            if i == j {
                continue;
            }
            let (sa, sb) = (&data.segments[position[a.system.as_str()]], &data.segments[position[b.system.as_str()]]);
            let diffs: Vec<f64> = sa.iter().filter_map(|(k, va)| sb.get(k).map(|vb| va.value - vb.value)).collect();
            let mean_difference = if diffs.is_empty() { 0.0 } else { fixed_score(diffs.iter().sum::<f64>() / diffs.len() as f64) };
            pairs.push(PairComparison { a: a.system.clone(), b: b.system.clone(), screens: diffs.len(), mean_difference, p_a_better: ranking.p_values[i][j] });
        }
    }
    ContrastiveReport { ranking, pairs }
}

impl ContrastiveReport {
    /// The results page's tables.
    pub fn view(&self) -> crate::protocol::contrastive::ContrastiveView {
        use crate::protocol::contrastive::{ContrastiveView, PairRow, SystemRow};
        let k = &self.ranking;
        ContrastiveView {
            lang_pair: k.pair.clone(),
            alpha: k.alpha,
            scores: k.ratings,
            workers: k.annotators,
            screens: k.segments,
            systems: k
                .systems
                .iter()
                .map(|s| SystemRow { system: s.system.clone(), score: s.score, outputs: s.n, wins: s.wins, losses: s.losses, rank_lo: s.rank_lo, rank_hi: s.rank_hi, cluster: s.cluster })
                .collect(),
            pairs: self
                .pairs
                .iter()
                .map(|p| PairRow { a: p.a.clone(), b: p.b.clone(), screens: p.screens, mean_difference: p.mean_difference, p_a_better: p.p_a_better })
                .collect(),
        }
    }
}

/// `contrastive-<pair>.csv`: one row per ordered pair of systems, in the ranking's order:
/// `system_a,system_b,screens,mean_difference,p_a_better,rank_lo_a,rank_hi_a,cluster_a`.
pub fn write_contrastive_csv(mut w: impl Write, report: &ContrastiveReport) -> io::Result<()> {
    writeln!(w, "system_a,system_b,screens,mean_difference,p_a_better,rank_lo_a,rank_hi_a,cluster_a")?;
    for p in &report.pairs {
        let a = report.ranking.systems.iter().find(|s| s.system == p.a).expect("a compared system is ranked");
        let pv = p.p_a_better.map_or(String::new(), |v| v.to_string());
        writeln!(w, "{},{},{},{},{},{},{},{}", csv_text(&p.a), csv_text(&p.b), p.screens, p.mean_difference, pv, a.rank_lo, a.rank_hi, a.cluster)?;
    }
    Ok(())
}
