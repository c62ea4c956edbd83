//! Pairwise system comparison, rank ranges and clusters (METHOD §6).
//!
//! **Matrix.** For every ordered pair of systems (A, B) of a task and language pair: the
//! one-sided Wilcoxon rank-sum / Mann–Whitney test of "A's z-scores tend to be higher than
//! B's" (per judgment by default, or per segment). Each system's sample is sorted once; each
//! unordered pair costs one merge, which yields both directions.
//!
//! **Order.** Systems are listed by mean z, best first (ties: higher raw mean, then lower id).
//!
//! **Wins and rank ranges** (WMT): A *wins* against B when p(A > B) < α. A system's rank
//! range runs from 1 + (number of systems that win against it) to N − (number it wins
//! against).
//!
//! **Clusters.** Walking down the order, a boundary is drawn after position i (0-based) when
//! - [`ClusterRule::WmtWins`] (default; WMT22 `make_rankings.py`, and what the published
//!   `clusters.csv` files show): the smallest win count among positions 0..=i equals the number
//!   of systems below i (N − 1 − i). Every system above then has at least as many wins as there
//!   are systems below — with wins counted against any system, so this is a count rule;
//! - [`ClusterRule::Strict`]: every system at positions 0..=i wins against every system below.
//!
//! The last position always closes a cluster. A cluster is reported with its first and last
//! position (1-based), as in `clusters.csv`.
//!
//! **Adequacy first, fluency breaks ties** ([`combine_adequacy_fluency`], WMT 2014): for a
//! pair whose adequacy test is significant in either direction the adequacy p-values stand;
//! otherwise the fluency p-values of that pair are used.

use serde::{Deserialize, Serialize};

use assay_stats::{Alternative, rank::{RankSumStats, SortedRuns}};

use super::ComparisonSettings;
use super::scores::ScoredGroup;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ComparisonUnit {
    /// Every judgment's z-score (Graham et al.; WMT DA).
    #[default]
    Judgments,
    /// Each segment's mean z-score.
    Segments,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClusterRule {
    #[default]
    WmtWins,
    Strict,
}

/// Which judgments decided a cell of a combined matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecidedBy {
    Adequacy,
    Fluency,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SystemRank {
    pub system: u32,
    /// Systems this one is significantly better than.
    pub wins: usize,
    /// Systems significantly better than this one.
    pub losses: usize,
    /// 1 + losses.
    pub rank_best: usize,
    /// N − wins.
    pub rank_worst: usize,
    /// Index into `clusters`.
    pub cluster: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    /// First and last position (1-based) of the cluster in the order.
    pub start: usize,
    pub end: usize,
    pub systems: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub alpha: f64,
    pub unit: ComparisonUnit,
    pub rule: ClusterRule,
    /// System ids, best mean z first.
    pub systems: Vec<u32>,
    pub mean_z: Vec<f64>,
    /// `p_values[i][j]`: one-sided p of "system i better than system j"; `None` on the diagonal
    /// and where a test could not run (a system without judgments).
    pub p_values: Vec<Vec<Option<f64>>>,
    /// For a combined adequacy/fluency matrix: which task decided each cell.
    pub decided_by: Option<Vec<Vec<Option<DecidedBy>>>>,
    pub ranks: Vec<SystemRank>,
    pub clusters: Vec<Cluster>,
}

impl Comparison {
    /// p-value of "a better than b" by system id.
    pub fn p(&self, a: u32, b: u32) -> Option<f64> {
        let i = self.systems.iter().position(|s| *s == a)?;
        let j = self.systems.iter().position(|s| *s == b)?;
        self.p_values[i][j]
    }
}

pub(crate) struct Compared {
    /// Positions into the group's `systems`, best first.
    pub order: Vec<usize>,
    pub comparison: Comparison,
}

pub(crate) fn compare(g: &ScoredGroup, settings: &ComparisonSettings) -> Compared {
    let mut order: Vec<usize> = (0..g.systems.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&g.systems[a], &g.systems[b]);
        y.z.total_cmp(&x.z)
            .then(y.raw.total_cmp(&x.raw))
            .then(x.system.cmp(&y.system))
    });
    let n = order.len();
    // Samples are finite z-scores sorted by `score_groups`; their means are computed once.
    let means: Vec<f64> = order
        .iter()
        .map(|&k| g.samples[k].iter().sum::<f64>() / g.samples[k].len().max(1) as f64)
        .collect();
    // Each sample as distinct values with counts, once; then the pairs, independent of each
    // other, on every core.
    let runs: Vec<SortedRuns> = super::par_map(&order, |&k| SortedRuns::from_sorted(&g.samples[k]));
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect();
    let tested = super::par_map(&pairs, |&(i, j)| {
        let (a, b) = (&runs[i], &runs[j]);
        if a.is_empty() || b.is_empty() {
            return (None, None);
        }
        let stats = RankSumStats::from_runs(a, b, means[i] - means[j]);
        (
            stats.test(Alternative::Greater, settings.rank_sum).ok().map(|r| r.p_value),
            stats.test(Alternative::Less, settings.rank_sum).ok().map(|r| r.p_value),
        )
    });
    let mut p = vec![vec![None; n]; n];
    for (&(i, j), (greater, less)) in pairs.iter().zip(tested) {
        p[i][j] = greater;
        p[j][i] = less;
    }
    let systems: Vec<u32> = order.iter().map(|&k| g.systems[k].system).collect();
    let mean_z: Vec<f64> = order.iter().map(|&k| g.systems[k].z).collect();
    let comparison = finish(
        systems,
        mean_z,
        p,
        None,
        settings.alpha,
        settings.unit,
        settings.cluster_rule,
    );
    Compared { order, comparison }
}

/// Wins, rank ranges and clusters from an ordered p-value matrix.
pub fn finish(
    systems: Vec<u32>,
    mean_z: Vec<f64>,
    p_values: Vec<Vec<Option<f64>>>,
    decided_by: Option<Vec<Vec<Option<DecidedBy>>>>,
    alpha: f64,
    unit: ComparisonUnit,
    rule: ClusterRule,
) -> Comparison {
    let n = systems.len();
    let beats = |i: usize, j: usize| p_values[i][j].is_some_and(|p| p < alpha);
    let wins: Vec<usize> = (0..n)
        .map(|i| (0..n).filter(|&j| beats(i, j)).count())
        .collect();
    let losses: Vec<usize> = (0..n)
        .map(|i| (0..n).filter(|&j| beats(j, i)).count())
        .collect();
    let mut boundaries = Vec::new();
    let mut min_wins = usize::MAX;
    for (i, &w) in wins.iter().enumerate() {
        min_wins = min_wins.min(w);
        let below = n - 1 - i;
        let boundary = i + 1 == n
            || match rule {
                ClusterRule::WmtWins => min_wins == below,
                ClusterRule::Strict => (0..=i).all(|a| (i + 1..n).all(|b| beats(a, b))),
            };
        if boundary {
            boundaries.push(i);
        }
    }
    let mut clusters = Vec::new();
    let mut cluster_of = vec![0; n];
    let mut start = 0;
    for end in boundaries {
        for c in &mut cluster_of[start..=end] {
            *c = clusters.len();
        }
        clusters.push(Cluster {
            start: start + 1,
            end: end + 1,
            systems: systems[start..=end].to_vec(),
        });
        start = end + 1;
    }
    let ranks = (0..n)
        .map(|i| SystemRank {
            system: systems[i],
            wins: wins[i],
            losses: losses[i],
            rank_best: 1 + losses[i],
            rank_worst: n - wins[i],
            cluster: cluster_of[i],
        })
        .collect();
    Comparison {
        alpha,
        unit,
        rule,
        systems,
        mean_z,
        p_values,
        decided_by,
        ranks,
        clusters,
    }
}

/// Adequacy decides; fluency breaks adequacy ties (WMT 2014). Systems keep the adequacy order;
/// a system missing from the fluency comparison keeps its adequacy p-values.
pub fn combine_adequacy_fluency(adequacy: &Comparison, fluency: &Comparison) -> Comparison {
    let n = adequacy.systems.len();
    let alpha = adequacy.alpha;
    let pos_f: Vec<Option<usize>> = adequacy
        .systems
        .iter()
        .map(|s| fluency.systems.iter().position(|f| f == s))
        .collect();
    let mut p = vec![vec![None; n]; n];
    let mut decided = vec![vec![None; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let (pa, pa_rev) = (adequacy.p_values[i][j], adequacy.p_values[j][i]);
            let significant = pa.is_some_and(|v| v < alpha) || pa_rev.is_some_and(|v| v < alpha);
            let pf = match (pos_f[i], pos_f[j]) {
                (Some(a), Some(b)) => fluency.p_values[a][b],
                _ => None,
            };
            (p[i][j], decided[i][j]) = match (significant, pf) {
                (false, Some(v)) => (Some(v), Some(DecidedBy::Fluency)),
                _ => (pa, pa.map(|_| DecidedBy::Adequacy)),
            };
        }
    }
    finish(
        adequacy.systems.clone(),
        adequacy.mean_z.clone(),
        p,
        Some(decided),
        alpha,
        adequacy.unit,
        adequacy.rule,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a p matrix in which `wins[i]` lists the positions system i beats.
    fn matrix(n: usize, wins: &[&[usize]]) -> Vec<Vec<Option<f64>>> {
        let mut p = vec![vec![Some(0.5); n]; n];
        for (i, row) in p.iter_mut().enumerate() {
            row[i] = None;
        }
        for (i, ws) in wins.iter().enumerate() {
            for &j in *ws {
                p[i][j] = Some(0.001);
            }
        }
        p
    }

    fn run(n: usize, wins: &[&[usize]], rule: ClusterRule) -> Comparison {
        finish(
            (0..n as u32).collect(),
            vec![0.0; n],
            matrix(n, wins),
            None,
            0.05,
            ComparisonUnit::Judgments,
            rule,
        )
    }

    fn spans(c: &Comparison) -> Vec<(usize, usize)> {
        c.clusters.iter().map(|c| (c.start, c.end)).collect()
    }

    /// The cs-en block of the published WMT22 `clusters.csv`: 12 systems with wins
    /// 11, 8, 5, 4, 4, 3, 4, 3, 3, 2, 0, 0 give clusters 1–1, 2–9, 10–10, 11–12.
    #[test]
    fn reproduces_wmt22_cs_en_clusters() {
        let n = 12;
        // Each system beats the systems at the bottom of the order: wins[i] = the last k.
        let counts = [11, 8, 5, 4, 4, 3, 4, 3, 3, 2, 0, 0];
        let rows: Vec<Vec<usize>> = counts.iter().map(|&k| (n - k..n).collect()).collect();
        let refs: Vec<&[usize]> = rows.iter().map(|r| r.as_slice()).collect();
        let c = run(n, &refs, ClusterRule::WmtWins);
        assert_eq!(spans(&c), vec![(1, 1), (2, 9), (10, 10), (11, 12)]);
        assert_eq!(c.ranks.iter().map(|r| r.wins).collect::<Vec<_>>(), counts);
        // Rank ranges: 1 + losses .. N − wins.
        assert_eq!((c.ranks[0].rank_best, c.ranks[0].rank_worst), (1, 1));
        assert_eq!((c.ranks[1].rank_best, c.ranks[1].rank_worst), (2, 4));
        assert_eq!((c.ranks[11].rank_best, c.ranks[11].rank_worst), (11, 12));
    }

    /// The ru-en block: wins 7, 7, 2, 2, 1, 1, 1, 1, 1, 0 → clusters 1–9 and 10–10.
    #[test]
    fn reproduces_wmt22_ru_en_clusters() {
        let n = 10;
        let counts = [7, 7, 2, 2, 1, 1, 1, 1, 1, 0];
        let rows: Vec<Vec<usize>> = counts.iter().map(|&k| (n - k..n).collect()).collect();
        let refs: Vec<&[usize]> = rows.iter().map(|r| r.as_slice()).collect();
        assert_eq!(
            spans(&run(n, &refs, ClusterRule::WmtWins)),
            vec![(1, 9), (10, 10)]
        );
    }

    #[test]
    fn strict_rule_needs_every_pair_across_the_boundary() {
        // 0 beats 2 and 3 but not 1; 1 beats 3 only; 2 beats 3.
        let wins: [&[usize]; 4] = [&[2, 3], &[3], &[3], &[]];
        let strict = run(4, &wins, ClusterRule::Strict);
        assert_eq!(spans(&strict), vec![(1, 3), (4, 4)]);
        // The count rule: min wins after position 0 is 2 ≠ 3 below; after 1: 1 ≠ 2; after 2: 1 = 1.
        assert_eq!(
            spans(&run(4, &wins, ClusterRule::WmtWins)),
            vec![(1, 3), (4, 4)]
        );
        // No significant difference at all: one cluster, every rank range 1–N.
        let none = run(3, &[&[], &[], &[]], ClusterRule::Strict);
        assert_eq!(spans(&none), vec![(1, 3)]);
        assert!(
            none.ranks
                .iter()
                .all(|r| (r.rank_best, r.rank_worst) == (1, 3))
        );
        // A total order: every system its own cluster.
        let total = run(3, &[&[1, 2], &[2], &[]], ClusterRule::Strict);
        assert_eq!(spans(&total), vec![(1, 1), (2, 2), (3, 3)]);
    }

    #[test]
    fn fluency_breaks_adequacy_ties_only() {
        let sys = vec![10, 20, 30];
        let mk = |p: Vec<Vec<Option<f64>>>| {
            finish(
                sys.clone(),
                vec![0.3, 0.2, 0.1],
                p,
                None,
                0.05,
                ComparisonUnit::Judgments,
                ClusterRule::WmtWins,
            )
        };
        // Adequacy: 10 > 30 significant; 10 vs 20 and 20 vs 30 tied.
        let a = mk(vec![
            vec![None, Some(0.3), Some(0.01)],
            vec![Some(0.7), None, Some(0.4)],
            vec![Some(0.99), Some(0.6), None],
        ]);
        // Fluency (different order): 20 > 10 significant, 30 > 10 significant (ignored: adequacy decided).
        let f = finish(
            vec![20, 30, 10],
            vec![0.5, 0.4, 0.0],
            vec![
                vec![None, Some(0.5), Some(0.001)],
                vec![Some(0.5), None, Some(0.002)],
                vec![Some(0.999), Some(0.998), None],
            ],
            None,
            0.05,
            ComparisonUnit::Judgments,
            ClusterRule::WmtWins,
        );
        let c = combine_adequacy_fluency(&a, &f);
        assert_eq!(c.systems, vec![10, 20, 30]);
        assert_eq!(c.p(10, 30), Some(0.01));
        assert_eq!(c.p(30, 10), Some(0.99));
        assert_eq!(c.p(20, 10), Some(0.001));
        assert_eq!(c.p(10, 20), Some(0.999));
        assert_eq!(c.p(20, 30), Some(0.5));
        let d = c.decided_by.as_ref().unwrap();
        assert_eq!(d[0][2], Some(DecidedBy::Adequacy));
        assert_eq!(d[1][0], Some(DecidedBy::Fluency));
        assert_eq!(c.ranks[1].wins, 1);
    }
}
