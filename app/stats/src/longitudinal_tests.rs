use super::*;

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// One row of EACL Tables 4–5: CURR07, CURR12, Δ, BEST07, BEST12, (diff), gain.
type Row = (f64, f64, f64, f64, f64, f64, f64);

fn scores(r: &Row) -> CalibratedScores {
    CalibratedScores {
        curr_old: r.0,
        curr_new: r.1,
        best_old: r.3,
        best_new: r.4,
    }
}

// (pair, fluency score, adequacy score, BLEU, METEOR) as printed in
// shared/reference/seed000-da-method.md §5.2.
const TABLES_4_5: [(&str, Row, Row, Row, Row); 7] = [
    (
        "DE-EN",
        (65.3, 57.9, 7.4, 52.8, 55.0, 2.2, 9.6),
        (63.8, 52.8, 11.0, 46.5, 49.8, 3.3, 14.3),
        (38.3, 26.5, 11.8, 21.1, 23.8, 2.7, 14.5),
        (40.3, 32.7, 7.6, 33.4, 31.7, -1.7, 5.9),
    ),
    (
        "FR-EN",
        (65.9, 58.0, 7.9, 57.8, 60.2, 2.4, 10.3),
        (61.0, 52.3, 8.7, 52.7, 51.5, -1.2, 7.5),
        (39.4, 32.0, 7.4, 28.6, 31.5, 2.9, 10.3),
        (39.8, 34.6, 5.2, 35.9, 34.3, -1.6, 3.6),
    ),
    (
        "ES-EN",
        (68.4, 59.2, 9.2, 56.7, 56.7, 0.0, 9.2),
        (68.0, 56.9, 11.1, 59.0, 55.7, -3.3, 7.8),
        (51.2, 38.3, 12.9, 35.1, 33.5, -1.6, 11.3),
        (45.4, 37.0, 8.4, 39.9, 36.0, -3.9, 4.5),
    ),
    (
        "CS-EN",
        (62.3, 49.9, 12.4, 40.8, 50.5, 9.7, 22.1),
        (62.4, 47.5, 14.9, 41.7, 47.4, 5.7, 20.6),
        (52.3, 25.0, 27.3, 25.1, 22.4, -2.7, 24.6),
        (44.7, 31.6, 13.1, 34.3, 30.8, -3.5, 9.6),
    ),
    (
        "EN-ES",
        (77.2, 73.4, 3.8, 63.3, 71.9, 8.6, 12.4),
        (75.2, 68.1, 7.1, 62.5, 67.2, 4.7, 11.8),
        (48.2, 38.7, 9.5, 29.1, 35.3, 6.2, 15.7),
        (69.9, 59.6, 10.3, 57.0, 58.1, 1.1, 11.4),
    ),
    (
        "EN-FR",
        (57.1, 55.2, 1.9, 49.5, 56.4, 6.9, 8.8),
        (64.2, 61.9, 2.3, 57.2, 62.3, 5.1, 7.4),
        (37.2, 30.8, 6.4, 25.3, 29.9, 4.6, 11.0),
        (59.4, 52.9, 6.5, 50.4, 52.0, 1.6, 8.1),
    ),
    (
        "EN-DE",
        (52.3, 54.1, -1.8, 53.7, 55.5, 1.8, 0.0),
        (60.3, 57.4, 2.9, 58.3, 58.3, 0.0, 2.9),
        (23.6, 18.7, 4.9, 14.6, 17.2, 2.6, 7.5),
        (44.7, 39.1, 5.6, 36.7, 38.0, 1.3, 6.9),
    ),
];

/// Every Δ, difference and gain cell of EACL Tables 4 and 5 follows from the four published
/// scores of its row. The inputs have one decimal, so the results are exact up to
/// floating-point representation (tolerance 1e-9).
#[test]
fn eacl_tables_4_and_5_every_gain_cell() {
    let mut checked = 0;
    for (pair, f, a, bleu, meteor) in TABLES_4_5 {
        for (what, row) in [
            ("fluency", f),
            ("adequacy", a),
            ("BLEU", bleu),
            ("METEOR", meteor),
        ] {
            let g = gain(&scores(&row));
            assert!(
                (g.delta - row.2).abs() < 1e-9,
                "{pair} {what} Δ {} vs {}",
                g.delta,
                row.2
            );
            assert!(
                (g.best_difference - row.5).abs() < 1e-9,
                "{pair} {what} diff {}",
                g.best_difference
            );
            assert!(
                (g.gain - row.6).abs() < 1e-9,
                "{pair} {what} gain {} vs {}",
                g.gain,
                row.6
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 28);
}

/// EACL Table 3 and the headline "+10.4 fluency, +10.3 adequacy": unweighted means over the
/// seven pairs. The means round to the printed 64.1 / 58.2 / 53.5 / 58.0 (fluency) and
/// 65.0 / 56.7 / 54.0 / 56.0 (adequacy). The printed Δ and difference columns are
/// differences of those *rounded* means, and the printed gain their sum: fluency
/// 64.1 − 58.2 = 5.9 and 58.0 − 53.5 = 4.5 → 10.4, whereas the unrounded gain is
/// 5.83 + 4.51 = 10.34; adequacy 65.0 − 56.7 = 8.3, 56.0 − 54.0 = 2.0 → 10.3 (unrounded 10.33).
#[test]
fn eacl_table_3_average_gains() {
    let fluency: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.1)).collect();
    let adequacy: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.2)).collect();
    let f = mean_gain(&fluency).unwrap();
    let a = mean_gain(&adequacy).unwrap();
    let m = f.means;
    assert_eq!(
        [
            round1(m.curr_old),
            round1(m.curr_new),
            round1(m.best_old),
            round1(m.best_new)
        ],
        [64.1, 58.2, 53.5, 58.0]
    );
    let m = a.means;
    assert_eq!(
        [
            round1(m.curr_old),
            round1(m.curr_new),
            round1(m.best_old),
            round1(m.best_new)
        ],
        [65.0, 56.7, 54.0, 56.0]
    );
    let printed = |s: &GainSummary| {
        let rounded = CalibratedScores {
            curr_old: round1(s.means.curr_old),
            curr_new: round1(s.means.curr_new),
            best_old: round1(s.means.best_old),
            best_new: round1(s.means.best_new),
        };
        let g = gain(&rounded);
        (round1(g.delta), round1(g.best_difference), round1(g.gain))
    };
    assert_eq!(printed(&f), (5.9, 4.5, 10.4));
    assert_eq!(printed(&a), (8.3, 2.0, 10.3));
    assert!((f.mean.gain - 10.342_857_142_857).abs() < 1e-9);
    assert_eq!(round1(a.mean.gain), 10.3);
    // The mean of the per-pair gains is the gain of the means.
    let per_pair_mean = f.per_pair.iter().map(|g| g.gain).sum::<f64>() / 7.0;
    assert!((per_pair_mean - f.mean.gain).abs() < 1e-9);
}

/// Table 3's z rows (only averages are published): F 0.18 − 0.00 = 0.18, −0.16 → 0.00
/// (+0.16), gain 0.34; A 0.18 − (−0.07) = 0.25, −0.16 → −0.09 (+0.07), gain 0.32.
/// BLEU and METEOR averages (Δ 11.4 / 8.1, gain 13.5 / 7.1) come from unrounded per-pair
/// values; from the rounded per-pair table they agree within the rounding of 4 means
/// (±0.05 each) plus the printed rounding: tolerance 0.25.
#[test]
fn eacl_table_3_z_rows_and_metrics() {
    let fz = gain(&CalibratedScores {
        curr_old: 0.18,
        curr_new: 0.00,
        best_old: -0.16,
        best_new: 0.00,
    });
    assert!(
        (fz.delta - 0.18).abs() < 1e-12
            && (fz.best_difference - 0.16).abs() < 1e-12
            && (fz.gain - 0.34).abs() < 1e-12
    );
    let az = gain(&CalibratedScores {
        curr_old: 0.18,
        curr_new: -0.07,
        best_old: -0.16,
        best_new: -0.09,
    });
    assert!(
        (az.delta - 0.25).abs() < 1e-12
            && (az.best_difference - 0.07).abs() < 1e-12
            && (az.gain - 0.32).abs() < 1e-12
    );
    let bleu: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.3)).collect();
    let meteor: Vec<_> = TABLES_4_5.iter().map(|t| scores(&t.4)).collect();
    let b = mean_gain(&bleu).unwrap();
    let m = mean_gain(&meteor).unwrap();
    assert!(
        (b.mean.delta - 11.4).abs() < 0.25 && (b.mean.gain - 13.5).abs() < 0.25,
        "{b:?}"
    );
    assert!(
        (m.mean.delta - 8.1).abs() < 0.25 && (m.mean.gain - 7.1).abs() < 0.25,
        "{m:?}"
    );
    assert!(mean_gain(&[]).is_err());
}

/// Deterministic pseudo-random judgments: per segment of a test set, `k` judgments of each
/// of the two systems around `quality + difficulty` (difficulty shared by both systems).
fn pair(old: (f64, f64), new: (f64, f64), segments: usize, seed: u64) -> PairSegments {
    let mut rng = crate::SplitMix64::new(seed);
    let mut unit = move || rng.next_u64() as f64 / u64::MAX as f64 - 0.5;
    let mut rows = |(best, curr): (f64, f64), shift: f64| -> Vec<[SegmentSum; 2]> {
        (0..segments)
            .map(|_| {
                let difficulty = 20.0 * unit() + shift;
                let mut cell = |q: f64| {
                    let n = 1 + (segments % 3);
                    let sum = (0..n).map(|_| q + difficulty + 30.0 * unit()).sum();
                    SegmentSum { sum, n }
                };
                [cell(best), cell(curr)]
            })
            .collect()
    };
    PairSegments { old: rows(old, 0.0), new: rows(new, -10.0) }
}

/// The same system as BEST and as CURR on both test sets: the gain is exactly 0 (BEST and
/// CURR are the same numbers), and so is every replicate.
#[test]
fn identical_systems_gain_nothing() {
    let mut p = pair((60.0, 60.0), (60.0, 60.0), 40, 3);
    for r in p.old.iter_mut().chain(p.new.iter_mut()) {
        r[1] = r[0];
    }
    let g = bootstrap_gains(&[p], 0.95, 500, 1).unwrap();
    assert!(g.mean.gain.gain.abs() < 1e-9, "{:?}", g.mean.gain);
    assert!(g.mean.gain_ci.contains(0.0) && (g.mean.gain_ci.upper - g.mean.gain_ci.lower) < 1e-9);
    // The uncalibrated difference sees only the harder test set (−10 points) and the noise.
    assert!(g.mean.best_difference_ci.upper < 0.0, "{:?}", g.mean.best_difference_ci);
}

/// Systems of equal quality judged independently: gain ≈ 0 with an interval covering 0.
#[test]
fn equal_systems_interval_covers_zero() {
    let pairs: Vec<_> = (0..3).map(|k| pair((55.0, 70.0), (55.0, 70.0), 60, 10 + k)).collect();
    let g = bootstrap_gains(&pairs, 0.95, 1000, 2).unwrap();
    assert!(g.mean.gain_ci.contains(0.0), "{:?}", g.mean);
    for p in &g.per_pair {
        assert!(p.gain_ci.contains(0.0), "{p:?}");
        assert!(p.gain_ci.lower < p.gain.gain && p.gain.gain < p.gain_ci.upper);
    }
    // The mean's point gain is the mean of the per-pair gains (the formula is linear).
    let avg = g.per_pair.iter().map(|p| p.gain.gain).sum::<f64>() / 3.0;
    assert!((avg - g.mean.gain.gain).abs() < 1e-9);
}

/// Swapping the old and the new test set (and BEST_old with BEST_new) negates every gain.
#[test]
fn swapping_old_and_new_negates_the_gain() {
    let pairs: Vec<_> = (0..2).map(|k| pair((50.0, 65.0), (58.0, 65.0), 30, 20 + k)).collect();
    let swapped: Vec<_> = pairs.iter().map(|p| PairSegments { old: p.new.clone(), new: p.old.clone() }).collect();
    let a = bootstrap_gains(&pairs, 0.9, 400, 7).unwrap();
    let b = bootstrap_gains(&swapped, 0.9, 400, 7).unwrap();
    for (x, y) in a.per_pair.iter().chain([&a.mean]).zip(b.per_pair.iter().chain([&b.mean])) {
        assert!((x.gain.gain + y.gain.gain).abs() < 1e-9);
        assert!((x.gain.delta + y.gain.delta).abs() < 1e-9);
        assert!(x.gain.gain > 0.0);
    }
    assert!(bootstrap_gains(&[], 0.95, 10, 1).is_err());
    let mut empty = pairs[0].clone();
    for r in &mut empty.new {
        r[1] = SegmentSum::default();
    }
    let e = bootstrap_gains(&[empty], 0.95, 10, 1).unwrap_err().to_string();
    assert!(e.contains("lacks judgments"), "{e}");
}
