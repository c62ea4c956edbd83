//! Simulated rankers doing real ranking HITs (issue 19, "Verified", item 4): careful rankers
//! pass the per-worker sign test on their degraded copies, random rankers pass it no more often
//! than α allows, and every ranking method recovers the true order of the systems from the
//! careful crowd. Run with `--nocapture` to see the rates:
//!
//! ```sh
//! cargo test -p assay-core simulated_rankers -- --nocapture
//! ```

use super::{SimulatedWorker, WorkerKind};
use crate::analysis::quality::{self, QcSettings, Verdict};
use crate::analysis::ranking::{self, OrderCriterion, RankedOutput, RankingBlock, RankingData};
use crate::analysis::{JudgmentNames, JudgmentSet, TimeBasis};
use crate::hit::{Candidate, Hit, JudgmentsWanted, RankingDesign, build_ranking_hits};
use crate::model::ItemType;
use crate::protocol::ranking::score_of_rank;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// WMT 2012's screen (three blocks of five) with Assay's controls: 4 blocks with a degraded copy
/// among the 12 shown first, and one screen shown again.
const DESIGN: RankingDesign = RankingDesign { screens: 5, blocks_per_screen: 3, outputs: 5, degraded_blocks: 4, repeated_screens: 1, gold_blocks: 0 };
/// True mean quality of each system (0–100), `S0` worst … `S5` best, 8 points apart.
const QUALITY: [f64; 6] = [40.0, 48.0, 56.0, 64.0, 72.0, 80.0];
const SEGMENTS: usize = 60;
/// Workers of each kind, and HITs each of them does.
const WORKERS: usize = 400;
const HITS_PER_WORKER: usize = 3;
const ALPHA: f64 = 0.05;

/// The campaign's HITs and the true quality of every output (system, segment).
struct Campaign {
    hits: Vec<Hit>,
    /// `quality[system][segment]`.
    quality: Vec<Vec<f64>>,
}

fn campaign(seed: u64) -> Campaign {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let difficulty: Vec<f64> = (0..SEGMENTS).map(|_| 10.0 * super::normal(&mut rng)).collect();
    let quality = QUALITY.iter().map(|q| difficulty.iter().map(|d| (q + d + 8.0 * super::normal(&mut rng)).clamp(0.0, 100.0)).collect()).collect();
    let candidates: Vec<Candidate> =
        (0..SEGMENTS).flat_map(|g| (0..QUALITY.len()).map(move |s| Candidate::new(format!("S{s}"), g.to_string()))).collect();
    let hits = build_ranking_hits(&candidates, &DESIGN, &[], JudgmentsWanted::PerSystem(1500), seed ^ 0x52414e4b).unwrap();
    Campaign { hits, quality }
}

/// One worker's answers to one HIT: (item, rank) for every item, blocks ranked as a whole (a
/// block is the items of one screen and one segment). A degraded copy's true quality is its
/// original's less 18–42 points (the DA bad reference's damage).
fn answer(c: &Campaign, hit: &Hit, worker: &mut SimulatedWorker, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut ranks = vec![0u32; hit.items.len()];
    let mut at = 0;
    while at < hit.items.len() {
        let (screen, segment) = (hit.items[at].screen, &hit.items[at].segment);
        let end = at + hit.items[at..].iter().take_while(|it| it.screen == screen && &it.segment == segment).count();
        let qualities: Vec<f64> = hit.items[at..end]
            .iter()
            .map(|it| {
                let s: usize = it.system.as_deref().unwrap()[1..].parse().unwrap();
                let g: usize = it.segment.parse().unwrap();
                let q = c.quality[s][g];
                if it.item_type == ItemType::BadRef { (q - 30.0 * (0.6 + 0.8 * rng.random::<f64>())).max(0.0) } else { q }
            })
            .collect();
        let block = worker.rank_block(&qualities);
        assert_eq!(block.len(), end - at);
        assert!(block.iter().all(|&r| (1..=(end - at) as u32).contains(&r)), "{block:?}");
        ranks[at..end].copy_from_slice(&block);
        at = end;
    }
    ranks
}

/// A crowd of `WORKERS` workers of one kind, each with a seed of its own, doing
/// `HITS_PER_WORKER` HITs: the judgments (score = the stored (N − rank)/(N − 1)) and the ranked
/// blocks of the outputs shown first (degraded copies left out).
fn crowd(c: &Campaign, kind: WorkerKind, seed: u64) -> (JudgmentSet, RankingData) {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let systems: Vec<String> = (0..QUALITY.len()).map(|s| format!("S{s}")).collect();
    let mut data = RankingData { pair: "de-en".into(), systems, blocks: Vec::new() };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for w in 0..WORKERS {
        let mut worker = SimulatedWorker::new(kind, seed.wrapping_mul(1_000_003).wrapping_add(w as u64));
        let name = format!("{kind:?}{w:03}");
        for j in 0..HITS_PER_WORKER {
            let hit = &c.hits[(w * HITS_PER_WORKER + j) % c.hits.len()];
            let ranks = answer(c, hit, &mut worker, &mut rng);
            let hit_name = hit.index.to_string();
            // The blocks shown first, each (screen, segment) one block.
            let mut blocks: Vec<RankingBlock> = Vec::new();
            let mut last: Option<(Option<usize>, &str)> = None;
            for (it, &rank) in hit.items.iter().zip(&ranks) {
                let system = it.system.as_deref().unwrap();
                let names = JudgmentNames { worker: &name, hit: &hit_name, system, segment: &it.segment, lang_pair: "de-en", task: "ranking", scale: crate::protocol::for_task(crate::model::TaskKind::Ranking).questions()[0].scale };
                set.push(names, it.item_type, score_of_rank(rank, DESIGN.outputs), 10.0);
                if it.item_type != ItemType::System {
                    continue;
                }
                let output = RankedOutput { system: system[1..].parse().unwrap(), rank: Some(rank) };
                let key = (it.screen, it.segment.as_str());
                match blocks.last_mut() {
                    Some(b) if last == Some(key) => b.outputs.push(output),
                    _ => blocks.push(RankingBlock { segment: it.segment.clone(), judge: name.clone(), outputs: vec![output] }),
                }
                last = Some(key);
            }
            data.blocks.extend(blocks);
        }
    }
    (set, data)
}

/// P(a random ranker passes | n decisive pairs): the one-sided sign test rejects at α exactly
/// for the win counts k with P(Bin(n, ½) ≥ k) < α; under a random ranker the wins are Bin(n, ½)
/// (copy and original get independent uniform ranks, ties excluded), so the pass probability
/// is that tail, at most α.
fn random_pass_probability(n: u64) -> f64 {
    (0..=n).filter(|&k| assay_stats::sign_test(k, n - k, assay_stats::Alternative::Greater).is_ok_and(|p| p < ALPHA)).map(|k| binomial_half(n, k)).sum()
}

fn binomial_half(n: u64, k: u64) -> f64 {
    // C(n, k) / 2ⁿ in logs.
    let ln_fact = |m: u64| (1..=m).map(|i| (i as f64).ln()).sum::<f64>();
    (ln_fact(n) - ln_fact(k) - ln_fact(n - k) - n as f64 * std::f64::consts::LN_2).exp()
}

#[test]
fn simulated_rankers_careful_pass_random_pass_at_most_alpha_and_the_methods_recover_the_order() {
    let c = campaign(19);
    assert!(c.hits.len() >= 150, "{} HITs", c.hits.len());
    let settings = QcSettings { alpha: ALPHA, ..QcSettings::default() };

    // --- Careful rankers: every one passes. ---
    let (careful_set, careful_data) = crowd(&c, WorkerKind::Careful, 1);
    let careful = quality::run(&careful_set, &settings);
    assert_eq!(careful.len(), WORKERS);
    assert!(careful.iter().all(|w| w.reliability.test == quality::QcTest::Sign));
    let passed = careful.iter().filter(|w| w.reliability.verdict == Verdict::Pass).count();
    let pairs: usize = careful.iter().map(|w| w.reliability.n_pairs).sum();
    println!(
        "careful rankers: {passed} of {WORKERS} pass the sign test ({:.1}%), {:.1} (original, copy) pairs each on average",
        100.0 * passed as f64 / WORKERS as f64,
        pairs as f64 / WORKERS as f64
    );
    assert!(careful.iter().all(|w| w.reliability.n_pairs >= settings.min_pairs));
    assert!(passed as f64 >= 0.99 * WORKERS as f64, "{passed} careful rankers passed");

    // --- Random rankers: pass at a rate of at most α. ---
    let (random_set, random_data) = crowd(&c, WorkerKind::RandomClicker, 2);
    let random = quality::run(&random_set, &settings);
    assert_eq!(random.len(), WORKERS);
    let passed_random = random.iter().filter(|w| w.reliability.verdict == Verdict::Pass).count();
    // Each random worker i has n_i decisive pairs (wins + losses; ties excluded) and passes with
    // probability p_i = P(pass | n_i) ≤ α, independently: the number passing is a sum of
    // Bernoulli(p_i), mean μ = Σ p_i, variance Σ p_i (1 − p_i). The observed count must lie
    // within 4 standard deviations of μ, and the rate under α + 4·√(α(1 − α)/W), the bound of
    // Binomial(W, α) that holds whatever the n_i.
    let mut mu = 0.0;
    let mut var = 0.0;
    let mut decisive = 0u64;
    for w in &random {
        let wins = w.reliability.statistic.unwrap_or(0.0) as u64;
        // Pairs with a difference (mean |difference| > 0 for each non-tie): recount from the set.
        let n = decisive_pairs(&random_set, w.worker);
        assert!(wins <= n);
        decisive += n;
        let p = random_pass_probability(n);
        assert!(p <= ALPHA);
        mu += p;
        var += p * (1.0 - p);
    }
    let sd = var.sqrt();
    let bound = ALPHA + 4.0 * (ALPHA * (1.0 - ALPHA) / WORKERS as f64).sqrt();
    println!(
        "random rankers: {passed_random} of {WORKERS} pass ({:.1}%; fail {:.1}%), expected {mu:.1} ± {sd:.1} from their {:.1} decisive pairs each (exact sign-test tail; α = {ALPHA}); bound on the pass rate {:.1}%",
        100.0 * passed_random as f64 / WORKERS as f64,
        100.0 - 100.0 * passed_random as f64 / WORKERS as f64,
        decisive as f64 / WORKERS as f64,
        100.0 * bound
    );
    assert!((passed_random as f64 - mu).abs() <= 4.0 * sd + 1.0, "{passed_random} passed, expected {mu} ± {sd}");
    assert!((passed_random as f64) / (WORKERS as f64) <= bound, "{passed_random} random rankers passed");
    // Ties: a random ranker ties a copy with its original about 1 time in 5.
    let ties: usize = random.iter().map(|w| w.reliability.n_pairs).sum::<usize>() - decisive as usize;
    let tie_rate = ties as f64 / random.iter().map(|w| w.reliability.n_pairs).sum::<usize>() as f64;
    assert!((0.15..0.25).contains(&tie_rate), "tie rate {tie_rate}");

    // --- The methods recover the true order from the careful crowd. ---
    let truth: Vec<usize> = (0..QUALITY.len()).rev().collect();
    let r = ranking::report(&careful_data, 200, 7);
    let by = |scores: Vec<f64>| {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        order
    };
    let ew = by(r.standings.iter().map(|s| s.expected_wins.unwrap()).collect());
    let wr = by(r.standings.iter().map(|s| s.wins_ratio.unwrap()).collect());
    let ts = by(r.trueskill.iter().map(|s| s.mu).collect());
    let mfas = r.mfas.as_ref().unwrap().order.clone();
    let mp = r.most_probable.as_ref().unwrap().order.clone();
    println!(
        "careful crowd: {} blocks; expected wins {:?}, wins ratio {:?}, TrueSkill μ {:?}, MFAS {:?} (cost {}), most probable {:?}; winners {:?}",
        r.blocks,
        ew,
        wr,
        ts,
        mfas,
        r.mfas.as_ref().unwrap().cost,
        mp,
        r.winners
    );
    for (method, order) in [("expected wins", &ew), ("wins ratio", &wr), ("TrueSkill", &ts), ("MFAS", &mfas), ("most probable", &mp)] {
        assert_eq!(order, &truth, "{method} recovers the true order");
    }
    assert_eq!(r.winners, vec![5], "the best system alone wins");
    assert!(r.rank_ranges.iter().enumerate().all(|(s, &(lo, hi))| lo <= QUALITY.len() - s && QUALITY.len() - s <= hi), "{:?}", r.rank_ranges);
    assert_eq!(ranking::best_order(&careful_data.pairwise(), OrderCriterion::MinFeedbackArcSet).unwrap().order, truth);

    // --- Agreement: careful rankers agree, random ones only by chance. ---
    let a = &r.agreement;
    let b = ranking::agreement(&random_data).unwrap();
    println!(
        "agreement: careful inter κ {:.3} ({}, {} comparisons), intra κ {:.3} ({}, {}); random inter κ {:.3}, intra κ {:.3}",
        a.inter.kappa.unwrap(),
        a.inter.reading.unwrap().as_str(),
        a.inter.comparisons,
        a.intra.kappa.unwrap(),
        a.intra.reading.unwrap().as_str(),
        a.intra.comparisons,
        b.inter.kappa.unwrap(),
        b.intra.kappa.unwrap()
    );
    assert!(a.inter.kappa.unwrap() > 0.4 && a.intra.kappa.unwrap() > 0.4, "{a:?}");
    assert!(b.inter.kappa.unwrap().abs() < 0.05 && b.intra.kappa.unwrap().abs() < 0.1, "{b:?}");
}

/// A worker's (original, copy) pairs that are not ties, recounted from the judgments as the
/// quality module pairs them: in each HIT, a copy with the original of its system and segment.
fn decisive_pairs(set: &JudgmentSet, worker: u32) -> u64 {
    let mut n = 0;
    let records: Vec<&crate::analysis::Judgment> = set.records.iter().filter(|r| r.worker == worker).collect();
    for copy in records.iter().filter(|r| r.item_type == ItemType::BadRef) {
        let original = records
            .iter()
            .find(|r| r.item_type == ItemType::System && r.hit == copy.hit && r.system == copy.system && r.segment == copy.segment)
            .expect("a copy's original is in its HIT");
        n += u64::from(original.score != copy.score);
    }
    n
}

#[test]
fn simulated_rankers_answer_every_block_with_ranks_in_range() {
    // A careful worker ranks by quality (ties when close); a constant scorer ties everything; a
    // random clicker's ranks stay within 1..=N.
    let mut careful = SimulatedWorker::new(WorkerKind::Careful, 3);
    let mut agree = 0;
    for _ in 0..200 {
        let r = careful.rank_block(&[90.0, 10.0, 50.0, 70.0, 30.0]);
        agree += usize::from(r == vec![1, 5, 3, 2, 4]);
    }
    assert!(agree >= 190, "{agree}");
    let tied = (0..200)
        .filter(|_| {
            let r = careful.rank_block(&[60.0, 60.2]);
            assert!(r.contains(&1) && r.iter().all(|&x| x <= 2), "{r:?}");
            r[0] == r[1]
        })
        .count();
    assert!(tied > 20, "close outputs are often tied: {tied}");
    assert_eq!(SimulatedWorker::new(WorkerKind::LazyConstant, 1).rank_block(&[10.0, 90.0, 50.0]), vec![1, 1, 1]);
    let mut random = SimulatedWorker::new(WorkerKind::RandomClicker, 4);
    let mut first = [0usize; 5];
    for _ in 0..2000 {
        let r = random.rank_block(&[90.0, 70.0, 50.0, 30.0, 10.0]);
        assert!(r.iter().all(|&x| (1..=5).contains(&x)));
        first[r[0] as usize - 1] += 1;
    }
    // The best output's rank is uniform over 1..=5 (400 each on average).
    assert!(first.iter().all(|&k| (300..500).contains(&k)), "{first:?}");
}
