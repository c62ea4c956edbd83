//! Relative ranking (WMT 2012, seed 001 §4): annotators rank up to five outputs of one source from
//! best to worst, ties allowed. Every scoring method of the Findings paper, side by side, from
//! one matrix of pairwise outcomes:
//!
//! - (b) the ratio of wins and ties, `(win + tie) / (win + loss + tie)`;
//! - (d) wins ignoring ties, `win / (win + loss)`, the official WMT 2012 score;
//! - (h) expected wins, the mean over opponents of `p(i beats j)` (Eq. 10, normalised by the
//!   opponents actually met), with rank ranges from resampling the blocks;
//! - (e) Lopez's minimum feedback arc set and (f) the most probable ranking, both exact by a
//!   dynamic programme over subsets for up to [`MAX_EXACT_SYSTEMS`] systems;
//! - TrueSkill (WMT 2014–2016), two-player updates with draws;
//! - winners by the sign test (no other system significantly better at p ≤ 0.10) and the
//!   head-to-head table (the share of comparisons the column system won against the row system).
//! - agreement as WMT 2012 measured it ([`agreement`]): Cohen's κ on the pairwise outcomes
//!   (A > B, A = B, A < B) of a system pair on a segment, inter-annotator over outcomes of two
//!   annotators and intra-annotator over outcomes one annotator gave more than once, with P(E)
//!   from the language pair's tie rate, and the Landis–Koch reading.
//!
//! Pure: blocks in, numbers out. Checked against an independent Python implementation with the
//! `trueskill` package and SciPy (`tests/fixtures/ranking`), and against the paper's examples.

use assay_stats::{Alternative, LandisKoch, SplitMix64, cohen_kappa, sign_test};
use serde::{Deserialize, Serialize};

/// The largest number of systems the exact orderings (MFAS, most probable) solve: 2ⁿ states of
/// 9 bytes, 300 MB at 25 (WMT never had more systems per language pair).
pub const MAX_EXACT_SYSTEMS: usize = 25;

/// One output in a ranked block: its system (an index into the language pair's systems) and
/// its rank (1 = best; equal ranks are ties; `None` when the annotator gave none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedOutput {
    pub system: usize,
    pub rank: Option<u32>,
}

/// What cannot be ranked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankingError {
    #[error("block {block}: system {system} is not one of the {systems} systems")]
    UnknownSystem { block: usize, system: usize, systems: usize },
    #[error("block {block}: system {system} appears twice")]
    Repeated { block: usize, system: usize },
    #[error("{systems} systems are too many to order exactly (at most {max}); use expected wins or TrueSkill")]
    TooManySystems { systems: usize, max: usize },
}

/// The pairwise outcomes of a language pair: `wins[i][j]` comparisons that i won against j,
/// `ties[i][j]` (symmetric) ties.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pairwise {
    n: usize,
    wins: Vec<u64>,
    ties: Vec<u64>,
}

impl Pairwise {
    pub fn new(n: usize) -> Self {
        Pairwise { n, wins: vec![0; n * n], ties: vec![0; n * n] }
    }

    /// From given counts (row-major `n × n`; the diagonal is ignored): for published tables.
    pub fn from_counts(n: usize, wins: Vec<u64>, ties: Vec<u64>) -> Self {
        assert_eq!(wins.len(), n * n);
        assert_eq!(ties.len(), n * n);
        Pairwise { n, wins, ties }
    }

    /// Expands every block into its N(N−1)/2 pairwise outcomes.
    pub fn from_blocks<'a>(n: usize, blocks: impl IntoIterator<Item = &'a [RankedOutput]>) -> Result<Self, RankingError> {
        let mut p = Pairwise::new(n);
        for (b, block) in blocks.into_iter().enumerate() {
            p.add_block(b, block)?;
        }
        Ok(p)
    }

    /// Adds one block (`index` names it in errors).
    pub fn add_block(&mut self, index: usize, block: &[RankedOutput]) -> Result<(), RankingError> {
        check_block(self.n, index, block)?;
        for (a, x) in block.iter().enumerate() {
            let Some(rx) = x.rank else { continue };
            for y in &block[a + 1..] {
                let Some(ry) = y.rank else { continue };
                match rx.cmp(&ry) {
                    std::cmp::Ordering::Less => self.wins[x.system * self.n + y.system] += 1,
                    std::cmp::Ordering::Greater => self.wins[y.system * self.n + x.system] += 1,
                    std::cmp::Ordering::Equal => {
                        self.ties[x.system * self.n + y.system] += 1;
                        self.ties[y.system * self.n + x.system] += 1;
                    }
                }
            }
        }
        Ok(())
    }

    pub fn systems(&self) -> usize {
        self.n
    }

    /// Comparisons i won against j.
    pub fn wins(&self, i: usize, j: usize) -> u64 {
        self.wins[i * self.n + j]
    }

    /// Ties between i and j.
    pub fn ties(&self, i: usize, j: usize) -> u64 {
        self.ties[i * self.n + j]
    }

    /// p(i beats j) = win(i, j) / (win(i, j) + win(j, i)) (Eq. 8); `None` without a decisive
    /// comparison.
    pub fn p_beats(&self, i: usize, j: usize) -> Option<f64> {
        let (w, l) = (self.wins(i, j), self.wins(j, i));
        (w + l > 0).then(|| w as f64 / (w + l) as f64)
    }
}

/// A block's systems are among the `n` and each appears once.
fn check_block(n: usize, index: usize, block: &[RankedOutput]) -> Result<(), RankingError> {
    for (a, x) in block.iter().enumerate() {
        if x.system >= n {
            return Err(RankingError::UnknownSystem { block: index, system: x.system, systems: n });
        }
        if block[..a].iter().any(|y| y.system == x.system) {
            return Err(RankingError::Repeated { block: index, system: x.system });
        }
    }
    Ok(())
}

/// Every block checked (without counting anything).
fn check_blocks(n: usize, blocks: &[&[RankedOutput]]) -> Result<(), RankingError> {
    blocks.iter().enumerate().try_for_each(|(i, b)| check_block(n, i, b))
}

/// A system's figures under the win-based methods.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// (d) `win / (win + loss)`, WMT 2012's official score.
    pub wins_ratio: Option<f64>,
    /// (b) `(win + tie) / (win + loss + tie)`, the official score before 2012.
    pub wins_and_ties_ratio: Option<f64>,
    /// (h) the mean over opponents met in a decisive comparison of p(beats them).
    pub expected_wins: Option<f64>,
}

/// Every system's standing.
pub fn standings(p: &Pairwise) -> Vec<Standing> {
    let n = p.systems();
    (0..n)
        .map(|i| {
            let (mut wins, mut losses, mut ties) = (0, 0, 0);
            let (mut ew_sum, mut ew_count) = (0.0, 0usize);
            for j in (0..n).filter(|&j| j != i) {
                wins += p.wins(i, j);
                losses += p.wins(j, i);
                ties += p.ties(i, j);
                if let Some(q) = p.p_beats(i, j) {
                    ew_sum += q;
                    ew_count += 1;
                }
            }
            let ratio = |num: u64, den: u64| (den > 0).then(|| num as f64 / den as f64);
            Standing {
                wins,
                losses,
                ties,
                wins_ratio: ratio(wins, wins + losses),
                wins_and_ties_ratio: ratio(wins + ties, wins + losses + ties),
                expected_wins: (ew_count > 0).then(|| ew_sum / ew_count as f64),
            }
        })
        .collect()
}

/// The head-to-head table of the Findings' appendix: `[row][col]` is the share of the two
/// systems' comparisons (ties included) that the column system won; `None` on the diagonal and
/// for pairs never compared.
pub fn head_to_head(p: &Pairwise) -> Vec<Vec<Option<f64>>> {
    let n = p.systems();
    (0..n)
        .map(|row| {
            (0..n)
                .map(|col| {
                    let total = p.wins(col, row) + p.wins(row, col) + p.ties(row, col);
                    (row != col && total > 0).then(|| p.wins(col, row) as f64 / total as f64)
                })
                .collect()
        })
        .collect()
}

/// The two-sided sign test of every pair (ties excluded): `[i][j]`, `None` on the diagonal and
/// without a decisive comparison.
pub fn sign_tests(p: &Pairwise) -> Vec<Vec<Option<f64>>> {
    let n = p.systems();
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| if i == j { None } else { sign_test(p.wins(i, j), p.wins(j, i), Alternative::TwoSided).ok() })
                .collect()
        })
        .collect()
}

/// WMT 2012's winners: the systems that no other system beats significantly (more wins than
/// losses against it, two-sided sign test at p ≤ `alpha`; WMT used 0.10).
pub fn winners(p: &Pairwise, alpha: f64) -> Vec<usize> {
    let tests = sign_tests(p);
    (0..p.systems())
        .filter(|&i| {
            !(0..p.systems()).any(|j| p.wins(j, i) > p.wins(i, j) && tests[j][i].is_some_and(|q| q <= alpha))
        })
        .collect()
}

/// What an exact ordering minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderCriterion {
    /// (e) Lopez: the sum over pairs ranked x above y of max(0, win(y, x) − win(x, y)).
    MinFeedbackArcSet,
    /// (f) the product over pairs ranked x above y of p(x beats y) (½ when never decided),
    /// maximised.
    MostProbable,
}

/// The best ordering (systems, best first) and its cost (MFAS: the violations; most probable:
/// −ln of the probability).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ordering {
    pub order: Vec<usize>,
    pub cost: f64,
}

/// The exact optimum over all n! orderings by a dynamic programme over the subsets placed at the
/// top: best(S ∪ {k}) = min best(S) + cost of S above k. Among equal optima the first found in
/// a fixed order is returned (deterministic).
pub fn best_order(p: &Pairwise, criterion: OrderCriterion) -> Result<Ordering, RankingError> {
    let n = p.systems();
    if n > MAX_EXACT_SYSTEMS {
        return Err(RankingError::TooManySystems { systems: n, max: MAX_EXACT_SYSTEMS });
    }
    if n == 0 {
        return Ok(Ordering { order: Vec::new(), cost: 0.0 });
    }
    // above[x][y]: the cost of ranking x above y.
    let above = |x: usize, y: usize| -> f64 {
        match criterion {
            OrderCriterion::MinFeedbackArcSet => p.wins(y, x).saturating_sub(p.wins(x, y)) as f64,
            OrderCriterion::MostProbable => -p.p_beats(x, y).unwrap_or(0.5).ln(),
        }
    };
    // The cost of placing k below a set S is Σ_{x ∈ S} above(x, k): two tables per k, one per
    // half of the bits, so that each step is two lookups.
    let lo_bits = n.div_ceil(2);
    let hi_bits = n - lo_bits;
    let table = |k: usize, bits: usize, offset: usize| -> Vec<f64> {
        let mut t = vec![0.0; 1 << bits];
        for m in 1usize..(1 << bits) {
            let low = m.trailing_zeros() as usize;
            t[m] = t[m & (m - 1)] + if low + offset == k { 0.0 } else { above(low + offset, k) };
        }
        t
    };
    let lo: Vec<Vec<f64>> = (0..n).map(|k| table(k, lo_bits, 0)).collect();
    let hi: Vec<Vec<f64>> = (0..n).map(|k| table(k, hi_bits, lo_bits)).collect();
    let full = (1usize << n) - 1;
    let lo_mask = (1usize << lo_bits) - 1;
    let mut best = vec![f64::INFINITY; full + 1];
    let mut last = vec![u8::MAX; full + 1];
    best[0] = 0.0;
    for s in 0..full {
        let base = best[s];
        if base == f64::INFINITY {
            continue;
        }
        let (sl, sh) = (s & lo_mask, s >> lo_bits);
        for k in 0..n {
            if s & (1 << k) != 0 {
                continue;
            }
            let t = s | (1 << k);
            let cost = base + lo[k][sl] + hi[k][sh];
            if cost < best[t] {
                best[t] = cost;
                last[t] = k as u8;
            }
        }
    }
    // Every subset is reachable even when some orders cost ∞ (a probability of 0): fall back
    // to the index order for the unreachable, which cannot happen with finite costs.
    if last[full] == u8::MAX {
        return Ok(Ordering { order: (0..n).collect(), cost: f64::INFINITY });
    }
    let mut order = Vec::with_capacity(n);
    let mut s = full;
    while s != 0 {
        let k = last[s] as usize;
        order.push(k);
        s &= !(1 << k);
    }
    order.reverse();
    Ok(Ordering { order, cost: best[full] })
}

/// The cost of a given ordering under a criterion (to compare methods' orders on one scale).
pub fn order_cost(p: &Pairwise, order: &[usize], criterion: OrderCriterion) -> f64 {
    let mut cost = 0.0;
    for (a, &x) in order.iter().enumerate() {
        for &y in &order[a + 1..] {
            cost += match criterion {
                OrderCriterion::MinFeedbackArcSet => p.wins(y, x).saturating_sub(p.wins(x, y)) as f64,
                OrderCriterion::MostProbable => -p.p_beats(x, y).unwrap_or(0.5).ln(),
            };
        }
    }
    cost
}

/// Ranks (1 = best) of scores, higher better; equal scores share the better rank; `None`
/// scores rank after every scored system.
pub fn ranks_of(scores: &[Option<f64>]) -> Vec<usize> {
    (0..scores.len())
        .map(|i| {
            1 + (0..scores.len())
                .filter(|&j| match (scores[j], scores[i]) {
                    (Some(a), Some(b)) => a > b,
                    (Some(_), None) => true,
                    _ => false,
                })
                .count()
        })
        .collect()
}

/// 95% rank ranges of expected wins by resampling the blocks with replacement `samples` times
/// (seeded): for each system the 2.5% and 97.5% quantiles of its rank (1 = best).
pub fn expected_wins_rank_ranges(
    n: usize,
    blocks: &[&[RankedOutput]],
    samples: usize,
    seed: u64,
) -> Result<Vec<(usize, usize)>, RankingError> {
    // Checked once; resampled blocks are then added without checks failing.
    check_blocks(n, blocks)?;
    let mut rng = SplitMix64::new(seed);
    let mut ranks: Vec<Vec<usize>> = vec![Vec::with_capacity(samples); n];
    // Each block's pairwise outcomes as cells of one count array (wins `[i·n + j]`, then ties
    // `[n² + i·n + j]`, both directions), flat and in block order: a resample counts how often
    // each block was drawn (the same draws as adding the blocks one by one), then adds each
    // drawn block's cells times its count in one pass in memory order. Same counts, about 25
    // times faster at 200,000 blocks than adding every drawn block.
    let cells_n = n * n;
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    let mut cells: Vec<u32> = Vec::new();
    offsets.push(0usize);
    for block in blocks {
        for (a, x) in block.iter().enumerate() {
            let Some(rx) = x.rank else { continue };
            for y in &block[a + 1..] {
                let Some(ry) = y.rank else { continue };
                match rx.cmp(&ry) {
                    std::cmp::Ordering::Less => cells.push((x.system * n + y.system) as u32),
                    std::cmp::Ordering::Greater => cells.push((y.system * n + x.system) as u32),
                    std::cmp::Ordering::Equal => {
                        cells.push((cells_n + x.system * n + y.system) as u32);
                        cells.push((cells_n + y.system * n + x.system) as u32);
                    }
                }
            }
        }
        offsets.push(cells.len());
    }
    let mut drawn = vec![0u32; blocks.len()];
    let mut counts = vec![0u64; 2 * cells_n];
    for _ in 0..samples {
        drawn.iter_mut().for_each(|c| *c = 0);
        for _ in 0..blocks.len() {
            drawn[rng.below(blocks.len() as u64) as usize] += 1;
        }
        counts.iter_mut().for_each(|c| *c = 0);
        for (b, &k) in drawn.iter().enumerate() {
            if k > 0 {
                for &cell in &cells[offsets[b]..offsets[b + 1]] {
                    counts[cell as usize] += u64::from(k);
                }
            }
        }
        let p = Pairwise::from_counts(n, counts[..cells_n].to_vec(), counts[cells_n..].to_vec());
        let ew: Vec<Option<f64>> = standings(&p).into_iter().map(|s| s.expected_wins).collect();
        for (i, r) in ranks_of(&ew).into_iter().enumerate() {
            ranks[i].push(r);
        }
    }
    Ok(ranks
        .into_iter()
        .map(|mut r| {
            if r.is_empty() {
                return (1, n);
            }
            r.sort_unstable();
            let m = r.len();
            let lo = ((0.025 * m as f64).floor() as usize).min(m - 1);
            let hi = (((0.975 * m as f64).ceil() as usize).max(1) - 1).min(m - 1);
            (r[lo], r[hi])
        })
        .collect())
}

/// TrueSkill's parameters (Herbrich et al. 2006; WMT 2014–2016 with μ₀ = 0, σ₀ = 0.5,
/// β = σ₀·N/40 for N systems, τ = 0, draw probability 0.25).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrueSkillParams {
    pub mu: f64,
    pub sigma: f64,
    pub beta: f64,
    pub tau: f64,
    pub draw_probability: f64,
}

impl TrueSkillParams {
    /// WMT's parameters for `systems` systems.
    pub fn wmt(systems: usize) -> Self {
        TrueSkillParams { mu: 0.0, sigma: 0.5, beta: 0.5 * systems as f64 / 40.0, tau: 0.0, draw_probability: 0.25 }
    }
}

/// A system's skill: mean and standard deviation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

fn std_normal() -> statrs::distribution::Normal {
    statrs::distribution::Normal::new(0.0, 1.0).expect("the standard normal")
}

/// One two-player update: `a` beat `b`, or they drew.
fn rate_pair(a: Skill, b: Skill, drawn: bool, params: &TrueSkillParams, draw_margin: f64) -> (Skill, Skill) {
    use statrs::distribution::{Continuous, ContinuousCDF};
    let normal = std_normal();
    let (pdf, cdf) = (|x: f64| normal.pdf(x), |x: f64| normal.cdf(x));
    let (va, vb) = (a.sigma * a.sigma + params.tau * params.tau, b.sigma * b.sigma + params.tau * params.tau);
    let c2 = 2.0 * params.beta * params.beta + va + vb;
    let c = c2.sqrt();
    let t = (a.mu - b.mu) / c;
    let e = draw_margin / c;
    let (v, w) = if drawn {
        // The truncation to |performance difference| < ε.
        let abs = t.abs();
        let (hi, lo) = (e - abs, -e - abs);
        let denom = cdf(hi) - cdf(lo);
        let v_abs = if denom > 0.0 { (pdf(lo) - pdf(hi)) / denom } else { hi };
        let v = if t < 0.0 { -v_abs } else { v_abs };
        let w = if denom > 0.0 { v_abs * v_abs + (hi * pdf(hi) - lo * pdf(lo)) / denom } else { 1.0 };
        (v, w)
    } else {
        let x = t - e;
        let denom = cdf(x);
        // Far in the tail the ratio pdf/cdf tends to −x.
        let v = if denom > 1e-300 { pdf(x) / denom } else { -x };
        (v, v * (v + x))
    };
    let a2 = Skill { mu: a.mu + va / c * v, sigma: (va * (1.0 - va / c2 * w)).max(0.0).sqrt() };
    let b2 = Skill { mu: b.mu - vb / c * v, sigma: (vb * (1.0 - vb / c2 * w)).max(0.0).sqrt() };
    (a2, b2)
}

/// TrueSkill over the blocks' pairwise outcomes in the given order (blocks in turn, within a
/// block each pair in block order): the skills after every comparison has been seen once.
pub fn trueskill(n: usize, blocks: &[&[RankedOutput]], params: &TrueSkillParams) -> Result<Vec<Skill>, RankingError> {
    use statrs::distribution::ContinuousCDF;
    check_blocks(n, blocks)?;
    let draw_margin = std_normal().inverse_cdf((params.draw_probability + 1.0) / 2.0) * 2f64.sqrt() * params.beta;
    let mut skills = vec![Skill { mu: params.mu, sigma: params.sigma }; n];
    for block in blocks {
        for (a, x) in block.iter().enumerate() {
            let Some(rx) = x.rank else { continue };
            for y in &block[a + 1..] {
                let Some(ry) = y.rank else { continue };
                let (w, l, drawn) = match rx.cmp(&ry) {
                    std::cmp::Ordering::Less => (x.system, y.system, false),
                    std::cmp::Ordering::Greater => (y.system, x.system, false),
                    std::cmp::Ordering::Equal => (x.system, y.system, true),
                };
                let (sw, sl) = rate_pair(skills[w], skills[l], drawn, params, draw_margin);
                skills[w] = sw;
                skills[l] = sl;
            }
        }
    }
    Ok(skills)
}

// ---------------------------------------------------------------------------------------------
// The WMT ranking CSV (keisks/wmt-trueskill, WMT 2013–2016 releases)

/// One ranked block as a file holds it: the segment, the judge and the ranked outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingBlock {
    pub segment: String,
    pub judge: String,
    pub outputs: Vec<RankedOutput>,
}

/// The blocks of one language pair; `RankedOutput::system` indexes `systems`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingData {
    /// `fr-en` when both languages are known (by code or by English name), else `French-Xyz`.
    pub pair: String,
    pub systems: Vec<String>,
    pub blocks: Vec<RankingBlock>,
}

impl RankingData {
    /// The blocks' outputs, for the methods above.
    pub fn block_slices(&self) -> Vec<&[RankedOutput]> {
        self.blocks.iter().map(|b| b.outputs.as_slice()).collect()
    }

    pub fn pairwise(&self) -> Pairwise {
        Pairwise::from_blocks(self.systems.len(), self.block_slices()).expect("blocks read from a file are valid")
    }

    /// A language pair without blocks.
    pub fn new(pair: impl Into<String>) -> Self {
        RankingData { pair: pair.into(), systems: Vec::new(), blocks: Vec::new() }
    }

    /// Adds a block whose outputs are named by system (systems are numbered in the order they
    /// first appear). A block of fewer than two outputs compares nothing and is not added
    /// (returns false); a system twice in a block is an error.
    pub fn push_block<'a>(
        &mut self,
        segment: &str,
        judge: &str,
        outputs: impl IntoIterator<Item = (&'a str, Option<u32>)>,
    ) -> Result<bool, RankingError> {
        let mut ranked = Vec::new();
        for (name, rank) in outputs {
            let system = match self.systems.iter().position(|s| s == name) {
                Some(i) => i,
                None => {
                    self.systems.push(name.to_string());
                    self.systems.len() - 1
                }
            };
            if ranked.iter().any(|o: &RankedOutput| o.system == system) {
                return Err(RankingError::Repeated { block: self.blocks.len(), system });
            }
            ranked.push(RankedOutput { system, rank });
        }
        if ranked.len() < 2 {
            return Ok(false);
        }
        self.blocks.push(RankingBlock { segment: segment.to_string(), judge: judge.to_string(), outputs: ranked });
        Ok(true)
    }

    /// The same language pair with only the blocks `keep` accepts (every system kept, so that
    /// indices stay valid and a system without blocks shows as such).
    pub fn filtered(&self, keep: impl Fn(&RankingBlock) -> bool) -> RankingData {
        RankingData { pair: self.pair.clone(), systems: self.systems.clone(), blocks: self.blocks.iter().filter(|b| keep(b)).cloned().collect() }
    }
}

/// A language as WMT's files write it: a code (`fr`, `fra`) or an English name (`French`).
fn language_code(text: &str) -> Option<String> {
    use crate::import::LangCode;
    LangCode::parse(text).or_else(|_| LangCode::from_english_name(text).ok_or(())).ok().map(|c| c.to_string())
}

/// Reads a WMT ranking CSV: the header `srclang, trglang, srcIndex, documentId, segmentId,
/// judgeId, system1Number, system1Id, …, system1rank, …` (any number of systems per row, found by
/// the header's names; columns in any order), ranks 1 and up with ties, −1 for a rank not given;
/// a system id of −1 or empty is an empty slot. Language pairs in the order they first appear.
/// Every problem names its line.
pub fn read_wmt_ranking_csv(input: impl std::io::Read) -> Result<Vec<RankingData>, super::formats::FormatError> {
    use super::formats::{csv_rows, csv_untext, err};
    let mut rows = csv_rows(input);
    let Some(_) = rows.next_record()? else { return Err(err(1, "empty input: expected the header line")) };
    let names: Vec<String> = rows.record.iter().map(String::from).collect();
    let column = |name: &str| names.iter().position(|n| n.trim().eq_ignore_ascii_case(name));
    let need = |name: &str| column(name).ok_or_else(|| err(1, format!("the header has no column {name:?} (a WMT ranking CSV starts srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,…)")));
    let (src, tgt, judge) = (need("srclang")?, need("trglang")?, need("judgeId")?);
    let segment = column("segmentId").or_else(|| column("srcIndex")).ok_or_else(|| err(1, "the header has neither segmentId nor srcIndex"))?;
    let mut slots = Vec::new();
    for k in 1.. {
        match (column(&format!("system{k}Id")), column(&format!("system{k}rank"))) {
            (Some(id), Some(rank)) => slots.push((id, rank)),
            (None, None) => break,
            _ => return Err(err(1, format!("the header has only one of system{k}Id and system{k}rank"))),
        }
    }
    if slots.len() < 2 {
        return Err(err(1, "the header names fewer than two systems (system1Id, system1rank, system2Id, …)"));
    }
    let mut out: Vec<RankingData> = Vec::new();
    let mut system_index: Vec<std::collections::HashMap<String, usize>> = Vec::new();
    while let Some(n) = rows.next_record()? {
        let fields = &rows.record;
        if fields.len() != names.len() {
            let hint = if fields.iter().any(|f| f.contains(['\n', '\r'])) { " (a quoted field holding a line break: is a quote not closed?)" } else { "" };
            return Err(err(n, format!("{} fields, but the header has {}{hint}", fields.len(), names.len())));
        }
        let (s, t) = (fields[src].trim(), fields[tgt].trim());
        let pair = match (language_code(s), language_code(t)) {
            (Some(a), Some(b)) => format!("{a}-{b}"),
            _ => format!("{s}-{t}"),
        };
        let at = match out.iter().position(|d| d.pair == pair) {
            Some(at) => at,
            None => {
                out.push(RankingData { pair: pair.clone(), systems: Vec::new(), blocks: Vec::new() });
                system_index.push(Default::default());
                out.len() - 1
            }
        };
        let mut outputs = Vec::with_capacity(slots.len());
        for &(id_col, rank_col) in &slots {
            let id = csv_untext(fields[id_col].trim());
            if id.is_empty() || id == "-1" {
                continue;
            }
            let rank_text = fields[rank_col].trim();
            let rank = match rank_text.parse::<i64>() {
                Ok(-1) => None,
                Ok(r) if r >= 1 && r <= 1000 => Some(r as u32),
                _ => return Err(err(n, format!("{:?} is not a rank (1 and up, or -1 for none) in column {}", rank_text, names[rank_col].trim()))),
            };
            let data = &mut out[at];
            let system = *system_index[at].entry(id.to_string()).or_insert_with(|| {
                data.systems.push(id.to_string());
                data.systems.len() - 1
            });
            if outputs.iter().any(|o: &RankedOutput| o.system == system) {
                return Err(err(n, format!("system {id} is ranked twice in one row")));
            }
            outputs.push(RankedOutput { system, rank });
        }
        out[at].blocks.push(RankingBlock { segment: csv_untext(fields[segment].trim()).to_string(), judge: csv_untext(fields[judge].trim()).to_string(), outputs });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Agreement (WMT 2012 Findings §3.2, Table 3)

/// One kind of agreement of a language pair: inter-annotator (two annotators' outcomes of the
/// same system pair on the same segment) or intra-annotator (one annotator's outcomes of it,
/// given more than once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KappaFigures {
    /// Pairs of outcomes compared: every unordered pair of outcomes of the same system pair on
    /// the same segment, by two annotators (inter) or by one annotator (intra).
    pub comparisons: u64,
    /// Those that agree: both A > B, both A = B or both A < B.
    pub agreeing: u64,
    /// (Segment, system pair) items with at least one comparison.
    pub items: usize,
    /// P(A) = agreeing / comparisons.
    pub p_a: Option<f64>,
    /// κ = (P(A) − P(E)) / (1 − P(E)) with the language pair's P(E).
    pub kappa: Option<f64>,
    /// Landis and Koch's reading of κ.
    pub reading: Option<LandisKoch>,
    /// κ with the uniform chance agreement of WMT before 2012, P(E) = 1/3, for comparison
    /// with earlier years.
    pub kappa_uniform: Option<f64>,
    /// Why κ is missing (no comparison, or P(E) = 1).
    pub note: Option<String>,
}

/// Inter- and intra-annotator agreement of one language pair, as WMT 2012 measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankingAgreement {
    /// Pairwise outcomes of the language pair: each pair of outputs of a block that both have
    /// a rank.
    pub outcomes: u64,
    /// Outcomes that are ties.
    pub ties: u64,
    /// P(A = B) = ties / outcomes.
    pub p_tie: Option<f64>,
    /// Chance agreement P(E) = P(A>B)² + P(A=B)² + P(A<B)², "computed empirically, by observing
    /// how often annotators actually rank two systems as being tied" (WMT 2012): P(A=B) is the
    /// tie rate over every outcome of the language pair, and P(A>B) = P(A<B) = (1 − P(A=B))/2
    /// (each outcome read in both directions, so that which system is called A does not
    /// matter). One P(E) serves both figures, as in the Findings' Table 3.
    pub p_e: Option<f64>,
    pub inter: KappaFigures,
    pub intra: KappaFigures,
}

/// P(E) from a tie rate: t² + 2((1 − t)/2)².
pub fn chance_agreement(p_tie: f64) -> f64 {
    let decisive = (1.0 - p_tie) / 2.0;
    p_tie * p_tie + 2.0 * decisive * decisive
}

/// Agreement of one language pair's blocks (WMT 2012 Findings §3.2). Every block is expanded
/// into its pairwise outcomes, each oriented from the lower system index to the higher one:
/// A > B, A = B or A < B (outputs without a rank take part in none). An *item* is a system pair
/// on a segment (`RankingBlock::segment`); within an item every unordered pair of outcomes
/// counts once, towards `inter` when two annotators (`judge`) gave them, towards `intra` when
/// one annotator gave both (a repeated block). A block holding a system twice is not a valid
/// block ([`RankingError::Repeated`]).
pub fn agreement(data: &RankingData) -> Result<RankingAgreement, RankingError> {
    let n = data.systems.len();
    check_blocks(n, &data.block_slices())?;
    // item (segment id, a, b) → (judge id, outcome 0: a better, 1: tie, 2: b better)
    let mut segments: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let mut judges: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let mut items: std::collections::HashMap<(u32, usize, usize), Vec<(u32, u8)>> = std::collections::HashMap::new();
    let (mut outcomes, mut ties) = (0u64, 0u64);
    for block in &data.blocks {
        let next = segments.len() as u32;
        let segment = *segments.entry(block.segment.as_str()).or_insert(next);
        let next = judges.len() as u32;
        let judge = *judges.entry(block.judge.as_str()).or_insert(next);
        for (i, x) in block.outputs.iter().enumerate() {
            let Some(rx) = x.rank else { continue };
            for y in &block.outputs[i + 1..] {
                let Some(ry) = y.rank else { continue };
                // Oriented from the lower system index: a < b.
                let ((a, ra), (b, rb)) = if x.system < y.system { ((x.system, rx), (y.system, ry)) } else { ((y.system, ry), (x.system, rx)) };
                let outcome = match ra.cmp(&rb) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 2,
                };
                outcomes += 1;
                ties += u64::from(outcome == 1);
                items.entry((segment, a, b)).or_default().push((judge, outcome));
            }
        }
    }
    let p_tie = (outcomes > 0).then(|| ties as f64 / outcomes as f64);
    let p_e = p_tie.map(chance_agreement);
    // Pairs are counted, not listed (an item judged m times has m(m − 1)/2 pairs).
    let choose2 = |k: u64| k * k.saturating_sub(1) / 2;
    let (mut inter, mut intra) = ((0u64, 0u64, 0usize), (0u64, 0u64, 0usize));
    for outcomes in items.values_mut() {
        outcomes.sort_unstable();
        let mut all = [0u64; 3];
        let (mut same_pairs, mut same_agreeing) = (0u64, 0u64);
        for run in outcomes.chunk_by(|p, q| p.0 == q.0) {
            let mut own = [0u64; 3];
            for &(_, o) in run {
                own[o as usize] += 1;
                all[o as usize] += 1;
            }
            same_pairs += choose2(run.len() as u64);
            same_agreeing += own.iter().map(|&c| choose2(c)).sum::<u64>();
        }
        let all_pairs = choose2(outcomes.len() as u64);
        let all_agreeing: u64 = all.iter().map(|&c| choose2(c)).sum();
        if same_pairs > 0 {
            intra = (intra.0 + same_pairs, intra.1 + same_agreeing, intra.2 + 1);
        }
        if all_pairs > same_pairs {
            inter = (inter.0 + all_pairs - same_pairs, inter.1 + all_agreeing - same_agreeing, inter.2 + 1);
        }
    }
    let figures = |(comparisons, agreeing, items): (u64, u64, usize), nobody: &str| {
        let p_a = (comparisons > 0).then(|| agreeing as f64 / comparisons as f64);
        let (kappa, note) = match (p_a, p_e) {
            (None, _) if outcomes == 0 => (None, Some("no ranked pair of outputs".to_string())),
            (None, _) => (None, Some(nobody.to_string())),
            (Some(pa), Some(pe)) => match cohen_kappa(pa, pe) {
                Ok(k) => (Some(k), None),
                Err(_) => (None, Some("every comparison is a tie, so P(E) = 1 and κ is undefined".to_string())),
            },
            (Some(_), None) => (None, None),
        };
        KappaFigures {
            comparisons,
            agreeing,
            items,
            p_a,
            kappa,
            reading: kappa.and_then(LandisKoch::of),
            kappa_uniform: p_a.and_then(|pa| cohen_kappa(pa, 1.0 / 3.0).ok()),
            note,
        }
    };
    Ok(RankingAgreement {
        outcomes,
        ties,
        p_tie,
        p_e,
        inter: figures(inter, "no system pair of a segment was ranked by two or more annotators"),
        intra: figures(intra, "no annotator ranked the same system pair of a segment more than once"),
    })
}

// ---------------------------------------------------------------------------------------------
// One language pair's report and its files

/// Every method on one language pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairReport {
    pub pair: String,
    pub systems: Vec<String>,
    pub blocks: usize,
    pub standings: Vec<Standing>,
    /// 95% rank ranges of expected wins (bootstrap over blocks).
    pub rank_ranges: Vec<(usize, usize)>,
    pub trueskill: Vec<Skill>,
    /// `None` above [`MAX_EXACT_SYSTEMS`].
    pub mfas: Option<Ordering>,
    pub most_probable: Option<Ordering>,
    /// `[row][col]`: the share of comparisons the column system won.
    pub head_to_head: Vec<Vec<Option<f64>>>,
    /// `[i][j]`: the two-sided sign test of i against j.
    pub sign_p: Vec<Vec<Option<f64>>>,
    /// No other system significantly better at p ≤ 0.10.
    pub winners: Vec<usize>,
    /// Inter- and intra-annotator agreement (WMT 2012 Table 3).
    pub agreement: RankingAgreement,
}

/// Runs every method on one language pair (`samples` bootstrap samples, seeded).
pub fn report(data: &RankingData, samples: usize, seed: u64) -> PairReport {
    let n = data.systems.len();
    let blocks = data.block_slices();
    let p = data.pairwise();
    PairReport {
        pair: data.pair.clone(),
        systems: data.systems.clone(),
        blocks: blocks.len(),
        standings: standings(&p),
        rank_ranges: expected_wins_rank_ranges(n, &blocks, samples, seed).expect("blocks read from a file are valid"),
        trueskill: trueskill(n, &blocks, &TrueSkillParams::wmt(n)).expect("blocks read from a file are valid"),
        mfas: best_order(&p, OrderCriterion::MinFeedbackArcSet).ok(),
        most_probable: best_order(&p, OrderCriterion::MostProbable).ok(),
        head_to_head: head_to_head(&p),
        sign_p: sign_tests(&p),
        winners: winners(&p, 0.10),
        agreement: agreement(data).expect("blocks read from a file are valid"),
    }
}

/// Positions (1 = best) of the systems in an ordering.
pub fn positions(order: &Option<Ordering>, n: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; n];
    if let Some(o) = order {
        for (at, &s) in o.order.iter().enumerate() {
            out[s] = Some(at + 1);
        }
    }
    out
}

/// The methods of a report, each as every system's position (1 = best; equal scores share
/// the better position; `None` where the method gave no order, e.g. MFAS above
/// [`MAX_EXACT_SYSTEMS`]): (d) wins ratio, (b) wins and ties, (h) expected wins, TrueSkill μ,
/// (e) minimum feedback arc set, (f) most probable.
pub fn method_positions(r: &PairReport) -> Vec<(&'static str, Vec<Option<usize>>)> {
    let n = r.systems.len();
    let by = |f: &dyn Fn(&Standing) -> Option<f64>| ranks_of(&r.standings.iter().map(f).collect::<Vec<_>>()).into_iter().map(Some).collect();
    vec![
        ("wins ratio", by(&|s| s.wins_ratio)),
        ("wins and ties ratio", by(&|s| s.wins_and_ties_ratio)),
        ("expected wins", by(&|s| s.expected_wins)),
        ("TrueSkill", ranks_of(&r.trueskill.iter().map(|k| Some(k.mu)).collect::<Vec<_>>()).into_iter().map(Some).collect()),
        ("minimum feedback arc set", positions(&r.mfas, n)),
        ("most probable ranking", positions(&r.most_probable, n)),
    ]
}

/// Where the methods disagree: each pair of systems that two methods put in opposite orders,
/// as `(better by some, worse by them, the methods that put the first above, the methods that
/// put it below)`, pairs in the listing order.
pub fn method_disagreements(r: &PairReport) -> Vec<(usize, usize, Vec<&'static str>, Vec<&'static str>)> {
    let methods = method_positions(r);
    let order = listing_order(r);
    let mut out = Vec::new();
    for (x, &a) in order.iter().enumerate() {
        for &b in &order[x + 1..] {
            let (mut above, mut below) = (Vec::new(), Vec::new());
            for (name, pos) in &methods {
                match (pos[a], pos[b]) {
                    (Some(pa), Some(pb)) if pa < pb => above.push(*name),
                    (Some(pa), Some(pb)) if pa > pb => below.push(*name),
                    _ => {}
                }
            }
            if !above.is_empty() && !below.is_empty() {
                out.push((a, b, above, below));
            }
        }
    }
    out
}

/// The systems in the order the files list them: expected wins, best first (then name).
pub fn listing_order(r: &PairReport) -> Vec<usize> {
    let mut order: Vec<usize> = (0..r.systems.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (r.standings[a].expected_wins.unwrap_or(-1.0), r.standings[b].expected_wins.unwrap_or(-1.0));
        y.total_cmp(&x).then_with(|| r.systems[a].cmp(&r.systems[b]))
    });
    order
}

/// `ranking-<lp>.csv`: one row per system, `system, wins, losses, ties, wins_ratio,
/// wins_and_ties_ratio, expected_wins, rank_lo, rank_hi, trueskill_mu, trueskill_sigma,
/// mfas_rank, most_probable_rank, winner` (empty cells for undefined values).
pub fn write_ranking_csv(mut w: impl std::io::Write, r: &PairReport) -> std::io::Result<()> {
    use super::formats::{csv_text, r_number};
    let num = |x: Option<f64>| x.map(|v| r_number(v, 15)).unwrap_or_default();
    let pos = |x: Option<usize>| x.map(|v| v.to_string()).unwrap_or_default();
    let (mfas, mp) = (positions(&r.mfas, r.systems.len()), positions(&r.most_probable, r.systems.len()));
    writeln!(w, "system,wins,losses,ties,wins_ratio,wins_and_ties_ratio,expected_wins,rank_lo,rank_hi,trueskill_mu,trueskill_sigma,mfas_rank,most_probable_rank,winner")?;
    for i in listing_order(r) {
        let s = &r.standings[i];
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_text(&r.systems[i]),
            s.wins,
            s.losses,
            s.ties,
            num(s.wins_ratio),
            num(s.wins_and_ties_ratio),
            num(s.expected_wins),
            r.rank_ranges[i].0,
            r.rank_ranges[i].1,
            r_number(r.trueskill[i].mu, 15),
            r_number(r.trueskill[i].sigma, 15),
            pos(mfas[i]),
            pos(mp[i]),
            u8::from(r.winners.contains(&i)),
        )?;
    }
    Ok(())
}

/// A language pair's blocks as a WMT ranking CSV (the layout [`read_wmt_ranking_csv`] reads):
/// `srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,…,
/// system1rank,…`, as many system columns as the largest block, `-1` for an empty slot and a
/// rank not given. `srcIndex` numbers the blocks from 1; `documentId` is `-1` (not known here).
pub fn write_wmt_ranking_csv(mut w: impl std::io::Write, data: &RankingData) -> std::io::Result<()> {
    use super::formats::csv_text;
    let (src, trg) = data.pair.split_once('-').unwrap_or((data.pair.as_str(), ""));
    let width = data.blocks.iter().map(|b| b.outputs.len()).max().unwrap_or(2).max(2);
    let mut header = String::from("srclang,trglang,srcIndex,documentId,segmentId,judgeId");
    for k in 1..=width {
        header.push_str(&format!(",system{k}Number,system{k}Id"));
    }
    for k in 1..=width {
        header.push_str(&format!(",system{k}rank"));
    }
    writeln!(w, "{header}")?;
    for (i, b) in data.blocks.iter().enumerate() {
        write!(w, "{},{},{},-1,{},{}", csv_text(src), csv_text(trg), i + 1, csv_text(&b.segment), csv_text(&b.judge))?;
        for k in 0..width {
            match b.outputs.get(k) {
                Some(o) => write!(w, ",{},{}", o.system + 1, csv_text(&data.systems[o.system]))?,
                None => write!(w, ",-1,-1")?,
            }
        }
        for k in 0..width {
            match b.outputs.get(k).and_then(|o| o.rank) {
                Some(r) => write!(w, ",{r}")?,
                None => write!(w, ",-1")?,
            }
        }
        writeln!(w)?;
    }
    Ok(())
}

/// `head-to-head-<lp>.csv`: the Findings' appendix table, rows and columns in the listing
/// order; a cell is the share of comparisons the column system won against the row system,
/// with the sign test's `*` (p ≤ 0.10), `**` (p ≤ 0.05), `***` (p ≤ 0.01) when the column system
/// won more; empty on the diagonal and for pairs never compared.
pub fn write_head_to_head_csv(mut w: impl std::io::Write, r: &PairReport) -> std::io::Result<()> {
    use super::formats::csv_text;
    let order = listing_order(r);
    let names: Vec<String> = order.iter().map(|&i| csv_text(&r.systems[i]).into_owned()).collect();
    writeln!(w, "row \\ column,{}", names.join(","))?;
    for &row in &order {
        let cells: Vec<String> = order
            .iter()
            .map(|&col| match r.head_to_head[row][col] {
                None => String::new(),
                Some(share) => {
                    let better = r.head_to_head[col][row].is_some_and(|back| share > back);
                    let stars = match r.sign_p[col][row] {
                        Some(q) if better && q <= 0.01 => "***",
                        Some(q) if better && q <= 0.05 => "**",
                        Some(q) if better && q <= 0.10 => "*",
                        _ => "",
                    };
                    format!("{share:.3}{stars}")
                }
            })
            .collect();
        writeln!(w, "{},{}", csv_text(&r.systems[row]), cells.join(","))?;
    }
    Ok(())
}

/// `ranking-agreement.csv`: two rows per language pair, `inter` and `intra`, with the columns
/// `pair, type, comparisons, agreeing, items, p_a, p_e, kappa, landis_koch, kappa_uniform,
/// outcomes, ties, note` (WMT 2012 Table 3, plus the counts behind it; empty cells for
/// undefined values, the note saying why).
pub fn write_agreement_csv<'a>(mut w: impl std::io::Write, reports: impl IntoIterator<Item = &'a PairReport>) -> std::io::Result<()> {
    use super::formats::{csv_text, r_number};
    let num = |x: Option<f64>| x.map(|v| r_number(v, 15)).unwrap_or_default();
    writeln!(w, "pair,type,comparisons,agreeing,items,p_a,p_e,kappa,landis_koch,kappa_uniform,outcomes,ties,note")?;
    for r in reports {
        let a = &r.agreement;
        for (kind, f) in [("inter", &a.inter), ("intra", &a.intra)] {
            writeln!(
                w,
                "{},{kind},{},{},{},{},{},{},{},{},{},{},{}",
                csv_text(&r.pair),
                f.comparisons,
                f.agreeing,
                f.items,
                num(f.p_a),
                num(a.p_e),
                num(f.kappa),
                f.reading.map(LandisKoch::as_str).unwrap_or_default(),
                num(f.kappa_uniform),
                a.outcomes,
                a.ties,
                csv_text(f.note.as_deref().unwrap_or_default()),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "ranking_tests.rs"]
mod tests;
