//! Bradley–Terry ratings of systems from pairwise preferences, by maximum likelihood.
//!
//! The model: system i beats system j with probability `pᵢ / (pᵢ + pⱼ)`, `pᵢ = exp(βᵢ)`. A tie
//! counts as half a win for each side (Chatbot Arena's convention), so with `wᵢⱼ` = i's wins
//! over j plus half their ties, the log-likelihood is
//! `ℓ(β) = Σ_{i≠j} wᵢⱼ (βᵢ − log(e^βᵢ + e^βⱼ))`.
//! It is maximised by Hunter's MM iterations (2004) and then Newton's method on β (the Hessian
//! is minus a weighted graph Laplacian; one system is held fixed in each step) until the
//! gradient's Euclidean norm, in judgments, is under [`GRADIENT_TOLERANCE`]. Ratings are on the
//! Elo scale, `400·log10 pᵢ`, shifted so that their mean over the rated systems is 1000.
//!
//! **When there is no finite maximum.** Let i → j when i has won against (or tied with) j. The
//! maximum is finite exactly when every system reaches every other along such edges (Zermelo
//! 1929; Ford 1957). Otherwise the likelihood grows as some groups of systems are pushed
//! infinitely far apart: a system that never wins (nor ties) goes to −∞, one that never loses to
//! +∞. Then the largest group of systems that all reach each other (the largest strongly
//! connected component; ties broken by the number of judgments inside it, then by the first
//! system) is rated on its own comparisons, and every other system is ranked but has no finite
//! rating ([`NoRating`]). Its place comes from who reaches whom: x is certainly above y when x
//! reaches y and y does not reach x.
//!
//! **Intervals and rank ranges.** 95% percentile intervals from a bootstrap over judgments
//! (resampled with replacement, seeded, [`BtSettings::samples`] resamples, 1000 by default); a
//! resample in which the rated systems no longer all reach each other has no finite maximum and
//! is drawn again (at most ten times the samples in all; how many were skipped is reported). A
//! system's rank range runs from one plus the number of systems certainly above it (above by
//! the reach order, or rated with an interval entirely above its interval) to the number of
//! systems minus those certainly below it.
//!
//! A comparison graph in several parts that were never compared with each other has no common
//! scale at all: it is refused ([`BtError::Disconnected`], naming the parts).
//!
//! Checked against SciPy's optimiser on the same likelihood (`tests/fixtures/pairwise`).

use assay_stats::SplitMix64;
use serde::{Deserialize, Serialize};

use super::Winner;
pub use super::rating::{NoRating, Rated};

/// The Newton iterations stop once the gradient's Euclidean norm (in judgments) is below this.
pub const GRADIENT_TOLERANCE: f64 = 1e-9;

/// The most systems of one language pair (the matrices are dense and the reach order cubic).
pub const MAX_SYSTEMS: usize = 500;

/// Bootstrap resamples by default.
pub const DEFAULT_SAMPLES: usize = 1000;

/// ln 10 / 400: one Elo point in natural-log strength.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// One judgment: system `a` against system `b` (indices into the systems' names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    pub a: usize,
    pub b: usize,
    pub winner: Winner,
}

/// What cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BtError {
    #[error("at least two systems are needed for a preference rating, found {0}")]
    TooFewSystems(usize),
    #[error("{0} systems, more than the {MAX_SYSTEMS} one preference rating takes")]
    TooManySystems(usize),
    #[error("judgment {index}: system {system} is not one of the {systems} systems")]
    UnknownSystem { index: usize, system: usize, systems: usize },
    #[error("judgment {index}: a system ({name}) cannot be compared with itself")]
    SelfComparison { index: usize, name: String },
    #[error("{}", disconnected(.parts))]
    Disconnected {
        /// The systems of each part, in the order of the names given.
        parts: Vec<Vec<String>>,
    },
}

fn disconnected(parts: &[Vec<String>]) -> String {
    let list: Vec<String> = parts
        .iter()
        .map(|p| {
            let shown: Vec<&str> = p.iter().take(8).map(String::as_str).collect();
            let more = if p.len() > 8 { format!(" and {} more", p.len() - 8) } else { String::new() };
            format!("{{{}{more}}}", shown.join(", "))
        })
        .collect();
    format!(
        "the comparisons fall into {} parts never compared with each other, so no rating puts them on one scale: {} (compare systems across the parts)",
        parts.len(),
        list.join(" and ")
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BtSettings {
    /// Bootstrap resamples (0: no intervals).
    pub samples: usize,
    pub seed: u64,
}

impl Default for BtSettings {
    fn default() -> Self {
        BtSettings { samples: DEFAULT_SAMPLES, seed: 1 }
    }
}

/// How the maximum was reached.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Convergence {
    pub mm_iterations: usize,
    pub newton_iterations: usize,
    /// Euclidean norm of ∂ℓ/∂β at the end (judgments).
    pub gradient_norm: f64,
    /// ℓ at the maximum (natural log), over the rated systems' judgments among themselves.
    pub log_likelihood: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BootstrapFigures {
    /// Resamples asked for.
    pub samples: usize,
    /// Resamples the intervals come from.
    pub used: usize,
    /// Resamples drawn again because they had no finite maximum.
    pub skipped: usize,
    pub seed: u64,
}

/// The Bradley–Terry result of one language pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BtReport {
    /// One line per system, highest first (systems without a finite rating where the reach
    /// order puts them).
    pub systems: Vec<Rated>,
    /// The systems in the order they were given; the matrices below are in this order.
    pub names: Vec<String>,
    /// `wins[i][j]`: judgments where i was preferred to j.
    pub wins: Vec<Vec<u64>>,
    /// `ties[i][j]` (symmetric).
    pub ties: Vec<Vec<u64>>,
    /// `win_rate[i][j]`: i's share of the judgments between i and j, a tie counting half;
    /// `None` when they were never compared (and on the diagonal).
    pub win_rate: Vec<Vec<Option<f64>>>,
    /// `None` when no two systems could be rated together.
    pub convergence: Option<Convergence>,
    pub bootstrap: BootstrapFigures,
    pub judgments: usize,
}

/// Judgment counts between systems.
#[derive(Clone, Debug, PartialEq)]
struct Counts {
    n: usize,
    wins: Vec<u64>,
    ties: Vec<u64>,
}

impl Counts {
    fn new(n: usize) -> Counts {
        Counts { n, wins: vec![0; n * n], ties: vec![0; n * n] }
    }

    fn add(&mut self, c: &Comparison) {
        let n = self.n;
        match c.winner {
            Winner::A => self.wins[c.a * n + c.b] += 1,
            Winner::B => self.wins[c.b * n + c.a] += 1,
            Winner::Tie => {
                self.ties[c.a * n + c.b] += 1;
                self.ties[c.b * n + c.a] += 1;
            }
        }
    }

    fn wins(&self, i: usize, j: usize) -> u64 {
        self.wins[i * self.n + j]
    }

    fn ties(&self, i: usize, j: usize) -> u64 {
        self.ties[i * self.n + j]
    }

    /// i's wins over j plus half their ties.
    fn weight(&self, i: usize, j: usize) -> f64 {
        self.wins(i, j) as f64 + 0.5 * self.ties(i, j) as f64
    }

    fn total(&self, i: usize, j: usize) -> u64 {
        self.wins(i, j) + self.wins(j, i) + self.ties(i, j)
    }
}

/// Which of `members` each member reaches along "won against or tied with" edges among the
/// members (`reach[x][y]`, indices into `members`; everyone reaches themselves).
fn reach(counts: &Counts, members: &[usize]) -> Vec<Vec<bool>> {
    let k = members.len();
    let mut reach = vec![vec![false; k]; k];
    for (x, row) in reach.iter_mut().enumerate() {
        row[x] = true;
        let mut stack = vec![x];
        while let Some(u) = stack.pop() {
            for v in 0..k {
                if !row[v] && counts.weight(members[u], members[v]) > 0.0 {
                    row[v] = true;
                    stack.push(v);
                }
            }
        }
    }
    reach
}

fn strongly_connected(counts: &Counts, members: &[usize]) -> bool {
    reach(counts, members).iter().all(|row| row.iter().all(|&r| r))
}

/// The parts of the comparison graph (systems compared at least once, directly or through
/// others), each in index order, ordered by their first system.
fn parts(counts: &Counts) -> Vec<Vec<usize>> {
    let n = counts.n;
    let mut part = vec![usize::MAX; n];
    let mut out = Vec::new();
    for start in 0..n {
        if part[start] != usize::MAX {
            continue;
        }
        let id = out.len();
        let mut members = vec![start];
        part[start] = id;
        let mut stack = vec![start];
        while let Some(u) = stack.pop() {
            for (v, p) in part.iter_mut().enumerate() {
                if *p == usize::MAX && counts.total(u, v) > 0 {
                    *p = id;
                    members.push(v);
                    stack.push(v);
                }
            }
        }
        members.sort_unstable();
        out.push(members);
    }
    out
}

fn log_sum_exp(x: f64, y: f64) -> f64 {
    let m = x.max(y);
    m + ((x - m).exp() + (y - m).exp()).ln()
}

/// P(x beats y) for strengths exp(x), exp(y).
fn sigmoid(d: f64) -> f64 {
    if d >= 0.0 { 1.0 / (1.0 + (-d).exp()) } else { d.exp() / (1.0 + d.exp()) }
}

fn log_likelihood(counts: &Counts, members: &[usize], beta: &[f64]) -> f64 {
    let mut ll = 0.0;
    for (x, &i) in members.iter().enumerate() {
        for (y, &j) in members.iter().enumerate() {
            let w = counts.weight(i, j);
            if x != y && w > 0.0 {
                ll += w * (beta[x] - log_sum_exp(beta[x], beta[y]));
            }
        }
    }
    ll
}

fn gradient(counts: &Counts, members: &[usize], beta: &[f64]) -> Vec<f64> {
    let k = members.len();
    let mut g = vec![0.0; k];
    for x in 0..k {
        for y in 0..k {
            if x != y {
                let (i, j) = (members[x], members[y]);
                let total = counts.weight(i, j) + counts.weight(j, i);
                if total > 0.0 {
                    g[x] += counts.weight(i, j) - total * sigmoid(beta[x] - beta[y]);
                }
            }
        }
    }
    g
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn center(beta: &mut [f64]) {
    let mean = beta.iter().sum::<f64>() / beta.len() as f64;
    beta.iter_mut().for_each(|b| *b -= mean);
}

/// Solves `a · x = b` for a symmetric positive-definite `a` (row-major, `k × k`) by Cholesky;
/// `None` when `a` is not positive definite.
fn cholesky_solve(mut a: Vec<f64>, mut b: Vec<f64>, k: usize) -> Option<Vec<f64>> {
    for c in 0..k {
        let mut d = a[c * k + c];
        for m in 0..c {
            d -= a[c * k + m] * a[c * k + m];
        }
        // Not positive (or NaN): not positive definite.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let d = d.sqrt();
        a[c * k + c] = d;
        for r in c + 1..k {
            let mut s = a[r * k + c];
            for m in 0..c {
                s -= a[r * k + m] * a[c * k + m];
            }
            a[r * k + c] = s / d;
        }
    }
    for r in 0..k {
        let mut s = b[r];
        for m in 0..r {
            s -= a[r * k + m] * b[m];
        }
        b[r] = s / a[r * k + r];
    }
    for r in (0..k).rev() {
        let mut s = b[r];
        for m in r + 1..k {
            s -= a[m * k + r] * b[m];
        }
        b[r] = s / a[r * k + r];
    }
    Some(b)
}

/// The maximum-likelihood β of `members` (strongly connected, at least two), centred at 0,
/// from `start` (or all zeros).
fn maximise(counts: &Counts, members: &[usize], start: Option<&[f64]>) -> (Vec<f64>, Convergence) {
    let k = members.len();
    let mut beta: Vec<f64> = start.map_or_else(|| vec![0.0; k], <[f64]>::to_vec);
    let won: Vec<f64> = members.iter().map(|&i| members.iter().map(|&j| if i == j { 0.0 } else { counts.weight(i, j) }).sum()).collect();
    // MM (Hunter 2004): pᵢ ← Wᵢ / Σⱼ nᵢⱼ / (pᵢ + pⱼ), in logs; monotone from anywhere, slow near
    // the end, so only until it is close.
    let mut mm_iterations = 0;
    if start.is_none() {
        for _ in 0..500 {
            mm_iterations += 1;
            let mut next = vec![0.0; k];
            let mut change: f64 = 0.0;
            for x in 0..k {
                let mut denominator = 0.0;
                for y in 0..k {
                    let nxy = if x == y { 0.0 } else { counts.weight(members[x], members[y]) + counts.weight(members[y], members[x]) };
                    if nxy > 0.0 {
                        // nxy / (pₓ + p_y), scaled by pₓ: nxy / (1 + exp(β_y − βₓ)).
                        denominator += nxy * sigmoid(beta[x] - beta[y]);
                    }
                }
                // pₓ' = Wₓ / (denominator / pₓ)  ⇒  βₓ' = βₓ + ln Wₓ − ln denominator.
                next[x] = beta[x] + won[x].ln() - denominator.ln();
                change = change.max((next[x] - beta[x]).abs());
            }
            beta = next;
            center(&mut beta);
            if change < 1e-6 {
                break;
            }
        }
    }
    // Newton: β ← β + L⁻¹ g, L = −Hessian (a weighted Laplacian), the last system held fixed.
    let mut newton_iterations = 0;
    let mut g = gradient(counts, members, &beta);
    let mut ll = log_likelihood(counts, members, &beta);
    while norm(&g) >= GRADIENT_TOLERANCE && newton_iterations < 100 {
        newton_iterations += 1;
        let m = k - 1;
        let mut l = vec![0.0; m * m];
        for x in 0..k {
            for y in x + 1..k {
                let nxy = counts.weight(members[x], members[y]) + counts.weight(members[y], members[x]);
                if nxy > 0.0 {
                    let s = sigmoid(beta[x] - beta[y]);
                    let h = nxy * s * (1.0 - s);
                    if x < m {
                        l[x * m + x] += h;
                    }
                    if y < m {
                        l[y * m + y] += h;
                    }
                    if x < m && y < m {
                        l[x * m + y] -= h;
                        l[y * m + x] -= h;
                    }
                }
            }
        }
        let Some(step) = cholesky_solve(l, g[..m].to_vec(), m) else { break };
        // Halve the step while the likelihood falls (it does not, near the maximum).
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..60 {
            let mut trial: Vec<f64> = beta.iter().enumerate().map(|(x, b)| b + if x < m { t * step[x] } else { 0.0 }).collect();
            center(&mut trial);
            let trial_ll = log_likelihood(counts, members, &trial);
            if trial_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                beta = trial;
                ll = trial_ll;
                improved = true;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
        g = gradient(counts, members, &beta);
    }
    let gradient_norm = norm(&g);
    (beta, Convergence { mm_iterations, newton_iterations, gradient_norm, log_likelihood: ll })
}

/// The Elo ratings of `beta`, mean 1000.
fn elo(beta: &[f64]) -> Vec<f64> {
    let mean = beta.iter().sum::<f64>() / beta.len() as f64;
    beta.iter().map(|b| 1000.0 + ELO * (b - mean)).collect()
}

/// The `q`-quantile of sorted values, linearly interpolated (NumPy's default).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Checks the judgments against the systems.
fn check(names: &[String], comparisons: &[Comparison]) -> Result<Counts, BtError> {
    let n = names.len();
    if n < 2 {
        return Err(BtError::TooFewSystems(n));
    }
    if n > MAX_SYSTEMS {
        return Err(BtError::TooManySystems(n));
    }
    let mut counts = Counts::new(n);
    for (index, c) in comparisons.iter().enumerate() {
        for system in [c.a, c.b] {
            if system >= n {
                return Err(BtError::UnknownSystem { index, system, systems: n });
            }
        }
        if c.a == c.b {
            return Err(BtError::SelfComparison { index, name: names[c.a].clone() });
        }
        counts.add(c);
    }
    let parts = parts(&counts);
    if parts.len() > 1 {
        return Err(BtError::Disconnected { parts: parts.iter().map(|p| p.iter().map(|&i| names[i].clone()).collect()).collect() });
    }
    Ok(counts)
}

/// Maximum-likelihood ratings of the systems that can be rated together, by index (`None` for
/// the others), with how the maximum was reached. What [`rate`] reports, without intervals.
pub fn fit(names: &[String], comparisons: &[Comparison]) -> Result<(Vec<Option<f64>>, Option<Convergence>), BtError> {
    let counts = check(names, comparisons)?;
    let main = rated_group(&counts);
    let mut ratings = vec![None; names.len()];
    let mut convergence = None;
    if !main.is_empty() {
        let (beta, c) = maximise(&counts, &main, None);
        for (&i, r) in main.iter().zip(elo(&beta)) {
            ratings[i] = Some(r);
        }
        convergence = Some(c);
    }
    Ok((ratings, convergence))
}

/// The largest group of systems that all reach each other (empty when that is one system).
fn rated_group(counts: &Counts) -> Vec<usize> {
    let all: Vec<usize> = (0..counts.n).collect();
    let reach = reach(counts, &all);
    let mut seen = vec![false; counts.n];
    let mut best: Vec<usize> = Vec::new();
    let mut best_judgments = 0u64;
    for i in 0..counts.n {
        if seen[i] {
            continue;
        }
        let group: Vec<usize> = (0..counts.n).filter(|&j| reach[i][j] && reach[j][i]).collect();
        group.iter().for_each(|&j| seen[j] = true);
        let judgments: u64 = group.iter().flat_map(|&x| group.iter().filter(move |&&y| y > x).map(move |&y| (x, y))).map(|(x, y)| counts.total(x, y)).sum();
        if group.len() > best.len() || (group.len() == best.len() && judgments > best_judgments) {
            best = group;
            best_judgments = judgments;
        }
    }
    if best.len() < 2 { Vec::new() } else { best }
}

/// Bradley–Terry ratings, intervals, rank ranges and counts of the systems `names` from their
/// judgments.
pub fn rate(names: &[String], comparisons: &[Comparison], settings: &BtSettings) -> Result<BtReport, BtError> {
    let counts = check(names, comparisons)?;
    let n = names.len();
    let all: Vec<usize> = (0..n).collect();
    let reach = reach(&counts, &all);
    let main = rated_group(&counts);
    let mut rating: Vec<Option<f64>> = vec![None; n];
    let mut convergence = None;
    let mut ci: Vec<Option<(f64, f64)>> = vec![None; n];
    let mut bootstrap = BootstrapFigures { samples: settings.samples, used: 0, skipped: 0, seed: settings.seed };
    if !main.is_empty() {
        let (beta, c) = maximise(&counts, &main, None);
        for (&i, r) in main.iter().zip(elo(&beta)) {
            rating[i] = Some(r);
        }
        convergence = Some(c);
        if settings.samples > 0 && !comparisons.is_empty() {
            let mut rng = SplitMix64::new(settings.seed);
            let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(settings.samples); main.len()];
            let m = comparisons.len() as u64;
            let mut resample = Counts::new(n);
            while bootstrap.used < settings.samples && bootstrap.used + bootstrap.skipped < settings.samples * 10 {
                resample.wins.iter_mut().for_each(|w| *w = 0);
                resample.ties.iter_mut().for_each(|t| *t = 0);
                for _ in 0..m {
                    resample.add(&comparisons[rng.below(m) as usize]);
                }
                if !strongly_connected(&resample, &main) {
                    bootstrap.skipped += 1;
                    continue;
                }
                let (b, _) = maximise(&resample, &main, Some(&beta));
                for (d, r) in draws.iter_mut().zip(elo(&b)) {
                    d.push(r);
                }
                bootstrap.used += 1;
            }
            if bootstrap.used > 0 {
                for (d, &i) in draws.iter_mut().zip(&main) {
                    d.sort_by(f64::total_cmp);
                    ci[i] = Some((quantile(d, 0.025), quantile(d, 0.975)));
                }
            }
        }
    }
    // x is certainly above y: x reaches y and y does not reach x, or both are rated and x's
    // interval lies entirely above y's.
    let above = |x: usize, y: usize| -> bool {
        (reach[x][y] && !reach[y][x]) || matches!((ci[x], ci[y]), (Some((x_low, _)), Some((_, y_high))) if x_low > y_high)
    };
    let mut rows: Vec<(usize, Rated)> = (0..n)
        .map(|i| {
            let (mut wins, mut losses, mut ties) = (0, 0, 0);
            for j in 0..n {
                wins += counts.wins(i, j);
                losses += counts.wins(j, i);
                ties += counts.ties(i, j);
            }
            let no_rating = rating[i].is_none().then(|| {
                if wins + ties == 0 {
                    NoRating::NeverWins
                } else if losses + ties == 0 {
                    NoRating::NeverLoses
                } else {
                    NoRating::Separated
                }
            });
            let certainly_above = (0..n).filter(|&j| j != i && above(j, i)).count();
            let certainly_below = (0..n).filter(|&j| j != i && above(i, j)).count();
            let rated = Rated {
                system: names[i].clone(),
                rating: rating[i],
                ci_low: ci[i].map(|c| c.0),
                ci_high: ci[i].map(|c| c.1),
                rank_low: 1 + certainly_above,
                rank_high: n - certainly_below,
                wins,
                losses,
                ties,
                n: wins + losses + ties,
                no_rating,
            };
            (i, rated)
        })
        .collect();
    // Highest first: by the systems certainly above by reach (a linear extension of the reach
    // order), then by rating (rated first), then by the systems certainly below, then by name.
    let reach_above = |i: usize| (0..n).filter(|&j| reach[j][i] && !reach[i][j]).count();
    let reach_below = |i: usize| (0..n).filter(|&j| reach[i][j] && !reach[j][i]).count();
    rows.sort_by(|(i, a), (j, b)| {
        reach_above(*i)
            .cmp(&reach_above(*j))
            .then_with(|| match (a.rating, b.rating) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| reach_below(*j).cmp(&reach_below(*i)))
            .then_with(|| a.system.cmp(&b.system))
    });
    let matrix = |f: &dyn Fn(usize, usize) -> u64| -> Vec<Vec<u64>> { (0..n).map(|i| (0..n).map(|j| f(i, j)).collect()).collect() };
    let win_rate = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    let total = counts.total(i, j);
                    (i != j && total > 0).then(|| counts.weight(i, j) / total as f64)
                })
                .collect()
        })
        .collect();
    Ok(BtReport {
        systems: rows.into_iter().map(|(_, r)| r).collect(),
        names: names.to_vec(),
        wins: matrix(&|i, j| counts.wins(i, j)),
        ties: matrix(&|i, j| if i == j { 0 } else { counts.ties(i, j) }),
        win_rate,
        convergence,
        bootstrap,
        judgments: comparisons.len(),
    })
}

#[cfg(test)]
#[path = "bradley_terry_tests.rs"]
mod tests;
