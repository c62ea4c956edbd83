use super::*;

fn design(wanted: usize) -> DryRunDesign {
    DryRunDesign {
        task: TaskKind::DaAdequacy,
        design: HitDesign::default(),
        ranking: None,
        documents: None,
        pairs: None,
        word_order: None,
        exclusion: ExclusionPolicy::default(),
        wanted: JudgmentsWanted::PerSystem(wanted),
        redundancy: 1,
        systems: 4,
        segments: 300,
    }
}

/// More judgments buy narrower intervals and more separated pairs; a careless crowd is
/// removed by quality control; the runs are deterministic from the seed.
#[test]
fn a_bigger_design_buys_narrower_intervals() {
    let crowd = DryRunCrowd { careful: 70.0, noisy: 10.0, careless: 20.0, workers: 0, spread: 12.0, alpha: 0.05 };
    let small = dry_run(&design(140), &crowd, 3, 1).unwrap();
    let big = dry_run(&design(1400), &crowd, 3, 1).unwrap();
    assert_eq!(small.systems.len(), 4);
    assert!(big.judgments > 9 * small.judgments, "{} vs {}", big.judgments, small.judgments);
    // Not by √10: the bootstrap resamples segments, and once every segment is judged the
    // segments' own spread of difficulty stays in the interval.
    assert!(big.mean_ci_width < 0.7 * small.mean_ci_width, "{} vs {}", big.mean_ci_width, small.mean_ci_width);
    assert!(big.pairs_separated >= small.pairs_separated && big.pairs_separated > 0.8, "{big:?}");
    assert!(big.separated_in_true_order > 0.95, "{big:?}");
    // About a fifth of the workers are careless; most of them are removed, few careful ones.
    assert!(big.careless_removed > 0.6 * (big.careless_removed + big.careless_kept), "{big:?}");
    assert!(big.workers_removed - big.careless_removed < 0.1 * big.workers, "{big:?}");
    assert_eq!(dry_run(&design(140), &crowd, 3, 1).unwrap().systems, small.systems, "deterministic");
    // No spread: far fewer pairs separate (those that do differ in their outputs: each
    // output's quality is drawn around its system's, so equal systems are not equal on a
    // finite test set).
    let flat = dry_run(&design(1400), &DryRunCrowd { spread: 0.0, ..crowd }, 3, 1).unwrap();
    assert!(flat.pairs_separated < 0.6 * big.pairs_separated, "{flat:?}");
}

/// The dry run of a ranking design simulates ranking (issue 38): its HITs are screens of
/// blocks, every output's judgment a rank's score, and its quality control the sign test on
/// degraded copies, which removes careless rankers and keeps careful ones.
#[test]
fn a_ranking_design_is_ranked_in_its_dry_run() {
    let ranking = RankingDesign { screens: 5, blocks_per_screen: 3, outputs: 5, degraded_blocks: 4, repeated_screens: 1, gold_blocks: 0 };
    let d = DryRunDesign {
        task: TaskKind::Ranking,
        design: HitDesign::default(),
        ranking: Some(ranking),
        documents: None,
        pairs: None,
        word_order: None,
        exclusion: ExclusionPolicy::default(),
        wanted: JudgmentsWanted::PerSystem(600),
        redundancy: 1,
        systems: 6,
        segments: 60,
    };
    let crowd = DryRunCrowd { careful: 70.0, noisy: 0.0, careless: 30.0, workers: 0, spread: 40.0, alpha: 0.05 };
    let report = dry_run(&d, &crowd, 2, 3).unwrap();
    // Every HIT holds 5 screens of 3 blocks of 5 outputs: 75 judgments a worker.
    assert!(report.hits > 0 && report.judgments == report.hits * 75, "{report:?}");
    // The random half of the careless crowd fails the sign test; the constant half (every
    // output first: all ties) gives no decisive pair.
    assert!(report.careless_removed > 0.4 * (report.careless_removed + report.careless_kept), "{report:?}");
    assert!(report.workers_removed - report.careless_removed < 0.1 * report.workers, "{report:?}");
    assert!(report.separated_in_true_order > 0.9, "{report:?}");
    // Simulated as DA instead, the same HITs would hold DA's 100 items.
    let as_da = dry_run(&DryRunDesign { task: TaskKind::DaAdequacy, ranking: None, ..d.clone() }, &crowd, 2, 3).unwrap();
    assert_eq!(as_da.judgments % 100, 0);
    // A ranking design without its screens is refused, not simulated as DA.
    assert!(dry_run(&DryRunDesign { ranking: None, ..d }, &crowd, 2, 3).is_err());
}

/// A crowd of careful workers and one of careless ones (half constant, half random).
fn crowds() -> (DryRunCrowd, DryRunCrowd) {
    let careful = DryRunCrowd { careful: 100.0, noisy: 0.0, careless: 0.0, workers: 0, spread: 30.0, alpha: 0.05 };
    (careful.clone(), DryRunCrowd { careful: 0.0, careless: 100.0, ..careful })
}

fn documents_design(task: TaskKind) -> DryRunDesign {
    DryRunDesign {
        task,
        design: HitDesign::default(),
        ranking: None,
        // 20-minute HITs of documents of 6 segments of 15 words (72 s a document): about
        // 15 documents a HIT, two shown again degraded (12 pairs) and one repeated. (With
        // one degraded document, 6 pairs, MQM's few distinct scores can leave a careful
        // worker's paired t test at p ≈ 0.08: what a dry run is for.)
        documents: Some(DocumentsShape {
            design: DocumentDesign { seconds_per_hit: 1200.0, seconds_per_source_word: 0.8, bad_ref_documents: 2, repeat_documents: 1, copies: 1 },
            segments_per_document: 6,
            source_words: 15,
        }),
        pairs: None,
        word_order: None,
        // A campaign's default: workers with too few pairs are kept.
        exclusion: ExclusionPolicy::FailedOnly,
        wanted: JudgmentsWanted::PerSegment(1),
        redundancy: 1,
        systems: 4,
        segments: 120,
    }
}

/// ESA and MQM are simulated as documents (issue 38): HITs of whole documents with their
/// degraded copies, every segment answered as the protocol answers (ESA a score, MQM errors
/// scored −Σ weights); the paired test removes a careless crowd and keeps a careful one.
#[test]
fn esa_and_mqm_designs_are_simulated_as_documents() {
    let (careful, careless) = crowds();
    for task in [TaskKind::Esa, TaskKind::Mqm] {
        let d = documents_design(task);
        let good = dry_run(&d, &careful, 2, 5).unwrap();
        // 4 systems × 120 segments once, plus up to three copies of 6 segments per HIT (a
        // last HIT of fewer documents has fewer), not DA's HITs of 100 items.
        assert!(good.judgments >= 480 + 18 * (good.hits - 1) && good.judgments <= 480 + 18 * good.hits, "{task:?}: {good:?}");
        assert_ne!(good.judgments, 100 * good.hits, "{task:?}: {good:?}");
        assert!(good.hits >= 4, "{task:?}: {good:?}");
        assert!(good.workers_removed <= 0.1 * good.workers, "{task:?}: careful workers are kept: {good:?}");
        assert!(good.pairs_separated > 0.5 && good.separated_in_true_order > 0.95, "{task:?}: {good:?}");
        let bad = dry_run(&d, &careless, 2, 5).unwrap();
        assert!(bad.careless_removed >= 0.8 * (bad.careless_removed + bad.careless_kept), "{task:?}: careless workers are removed: {bad:?}");
        assert_eq!(bad.interval, DryRunInterval::Z);
    }
    // Without its documents' shape a design of documents is refused, not simulated as DA.
    assert!(dry_run(&DryRunDesign { documents: None, ..documents_design(TaskKind::Mqm) }, &careful, 1, 5).is_err());
}

/// Word order is simulated with its own HITs (issue 38, item 15's dry run; refused before):
/// real outputs and permuted references, each paired with its base output; the paired test
/// keeps a careful crowd and removes most of a careless one, through the same figures as the
/// other protocols ([`figures_of`]).
#[test]
fn a_word_order_design_is_simulated_with_its_permuted_references() {
    let (careful, careless) = crowds();
    let d = DryRunDesign {
        task: TaskKind::WordOrder,
        design: HitDesign::default(),
        ranking: None,
        documents: None,
        pairs: None,
        word_order: Some(WordOrderDesign { length: 50, permutations: 20, same_reference_pairs_per_kind: 1, max_degree: 18 }),
        exclusion: ExclusionPolicy::default(),
        wanted: JudgmentsWanted::PerSystem(240),
        redundancy: 1,
        systems: 4,
        segments: 150,
    };
    let good = dry_run(&d, &careful, 2, 5).unwrap();
    // HITs of 30 real outputs and 20 permutations: 4 × 240 real outputs in 32 HITs of 50.
    assert_eq!((good.hits, good.judgments), (32, 32 * 50), "{good:?}");
    assert!(good.workers_removed <= 0.1 * good.workers, "careful workers are kept: {good:?}");
    assert!(good.pairs_separated > 0.5 && good.separated_in_true_order > 0.95, "{good:?}");
    let bad = dry_run(&d, &careless, 2, 5).unwrap();
    assert!(bad.careless_removed >= 0.8 * (bad.careless_removed + bad.careless_kept), "careless workers are removed: {bad:?}");
    assert_eq!(bad.interval, DryRunInterval::Z);
    // Without its permutations a word-order design is refused, not simulated as DA.
    let e = dry_run(&DryRunDesign { word_order: None, ..d }, &careful, 1, 5).unwrap_err();
    assert!(e.to_string().contains("needs its permuted references"), "{e}");
}

/// MQM's simulated annotator marks more and graver errors on worse outputs: its score (−Σ
/// weights) falls with the quality it perceives, 0 for a near-perfect output.
#[test]
fn simulated_mqm_errors_score_worse_outputs_lower() {
    let words: Vec<(usize, usize)> = (0..20).map(|i| (2 * i, 2 * i + 1)).collect();
    let score = |q: f64| mqm_score(&simulated_error_spans(&words, q, Scheme::Mqm), &MqmWeights::default());
    assert_eq!(score(95.0), 0.0);
    assert_eq!(score(70.0), -2.0, "two minor errors");
    assert_eq!(score(30.0), -15.0, "three major errors");
    assert!(score(10.0) < score(30.0), "an omission too");
    assert!(simulated_error_spans(&words, 0.0, Scheme::Mqm).len() <= crate::protocol::mqm::GOOGLE_MAX_ERRORS);
    assert!(simulated_error_spans(&words, 10.0, Scheme::Esa).iter().all(|s| s.category.is_none()));
}

/// Pairwise preference is simulated as pairs (issue 38): real pairs, degraded copies against
/// their originals and swapped repeats, answered by a choice between two outputs; the
/// campaign's paired test removes a careless crowd and keeps a careful one, and the
/// Bradley–Terry ratings of the kept workers order the systems.
#[test]
fn a_pairwise_design_is_simulated_as_pairs() {
    let (careful, careless) = crowds();
    let d = DryRunDesign {
        task: TaskKind::Pairwise,
        design: HitDesign::default(),
        ranking: None,
        documents: None,
        pairs: Some(PairDesign { pairs: 40, degraded: 6, repeats: 4 }),
        word_order: None,
        exclusion: ExclusionPolicy::FailedOnly,
        wanted: JudgmentsWanted::PerSystem(300),
        redundancy: 1,
        systems: 4,
        segments: 200,
    };
    let good = dry_run(&d, &careful, 2, 9).unwrap();
    assert_eq!(good.interval, DryRunInterval::Rating);
    assert!(good.hits > 0 && good.judgments == 40 * good.hits, "{good:?}");
    assert!(good.workers_removed <= 0.1 * good.workers, "{good:?}");
    assert!(good.pairs_separated > 0.5 && good.separated_in_true_order > 0.95, "{good:?}");
    assert!(good.mean_ci_width > 0.0, "{good:?}");
    let bad = dry_run(&d, &careless, 2, 9).unwrap();
    assert!(bad.careless_removed >= 0.8 * (bad.careless_removed + bad.careless_kept), "{bad:?}");
    // Without its pairs per HIT a pairwise design is refused.
    assert!(dry_run(&DryRunDesign { pairs: None, ..d }, &careful, 1, 9).is_err());
}
