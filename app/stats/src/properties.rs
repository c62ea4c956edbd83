//! Property tests: z-scores are standardised, p-values lie in [0, 1], and swapping the two
//! samples mirrors one-sided results.

use proptest::prelude::*;

use super::*;

/// Slider-like scores: integers 0–100 (many ties), sometimes with a decimal.
fn scores(min: usize, max: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        (0u32..=1000).prop_map(|v| {
            if v % 3 == 0 {
                f64::from(v) / 10.0
            } else {
                f64::from(v / 10)
            }
        }),
        min..=max,
    )
}

fn paired(min: usize, max: usize) -> impl Strategy<Value = (Vec<f64>, Vec<f64>)> {
    (min..=max).prop_flat_map(|n| (scores(n, n), scores(n, n)))
}

fn in_unit(p: f64) -> bool {
    (0.0..=1.0).contains(&p)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 + 1e-9 * b.abs()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The run-length merge gives exactly the U and tie term of the element-wise merge
    /// (heavy ties within and across the samples, one-element samples, disjoint ranges).
    #[test]
    fn rank_sum_from_runs_equals_the_elementwise_merge(x in scores(1, 120), y in scores(1, 120), shift in prop::sample::select(vec![0.0, 0.0, 50.0, -200.0])) {
        let mut x = x;
        let mut y: Vec<f64> = y.into_iter().map(|v| v + shift).collect();
        x.sort_by(f64::total_cmp);
        y.sort_by(f64::total_cmp);
        let merged = RankSumStats::from_sorted_unchecked(&x, &y, 0.25);
        let (rx, ry) = (SortedRuns::from_sorted(&x), SortedRuns::from_sorted(&y));
        prop_assert_eq!(RankSumStats::from_runs(&rx, &ry, 0.25), merged);
        prop_assert_eq!(RankSumStats::from_runs(&ry, &rx, 0.25).u1, (x.len() * y.len()) as f64 - merged.u1);
    }

    #[test]
    fn zscores_have_mean_zero_and_sd_one(x in scores(2, 80)) {
        match zscores(&x) {
            Ok(z) => {
                let (m, sd) = mean_sd(&z).unwrap();
                prop_assert!(m.abs() < 1e-9, "mean {m}");
                prop_assert!((sd - 1.0).abs() < 1e-9, "sd {sd}");
            }
            Err(e) => {
                prop_assert_eq!(e, StatsError::ZeroVariance { what: "z-scores" });
                prop_assert!(x.iter().all(|v| *v == x[0]));
            }
        }
    }

    #[test]
    fn p_values_lie_in_the_unit_interval((x, y) in paired(1, 70), extra in scores(1, 40)) {
        for alt in [Alternative::TwoSided, Alternative::Greater, Alternative::Less] {
            for r in [
                paired_t(&x, &y, alt),
                welch_t(&x, &extra, alt),
                signed_rank(&x, &y, alt, SignedRankOptions::default()),
                signed_rank(&x, &y, alt, SignedRankOptions { zero_method: ZeroMethod::Pratt, ..Default::default() }),
                rank_sum(&x, &extra, alt, RankSumOptions::default()),
                rank_sum(&x, &extra, alt, RankSumOptions { method: MethodChoice::Normal, continuity_correction: false, ..Default::default() }),
            ].into_iter().flatten() {
                prop_assert!(in_unit(r.p_value), "{r:?}");
                prop_assert!(!r.statistic.is_nan(), "{r:?}");
            }
        }
    }

    #[test]
    fn swapping_samples_mirrors_one_sided_results((x, y) in paired(1, 70), extra in scores(1, 60)) {
        for alt in [Alternative::Greater, Alternative::Less, Alternative::TwoSided] {
            let m = alt.mirrored();
            if let (Ok(a), Ok(b)) = (rank_sum(&x, &extra, alt, RankSumOptions::default()), rank_sum(&extra, &x, m, RankSumOptions::default())) {
                prop_assert!(close(a.p_value, b.p_value), "{a:?} {b:?}");
                prop_assert_eq!(a.statistic + b.statistic, (x.len() * extra.len()) as f64);
            }
            let o = SignedRankOptions::default();
            if let (Ok(a), Ok(b)) = (signed_rank(&x, &y, alt, o), signed_rank(&y, &x, m, o)) {
                prop_assert!(close(a.p_value, b.p_value), "{a:?} {b:?}");
            }
            if let (Ok(a), Ok(b)) = (paired_t(&x, &y, alt), paired_t(&y, &x, m)) {
                prop_assert!(close(a.p_value, b.p_value), "{a:?} {b:?}");
                prop_assert!(a.statistic == -b.statistic);
            }
            if let (Ok(a), Ok(b)) = (welch_t(&x, &extra, alt), welch_t(&extra, &x, m)) {
                prop_assert!(close(a.p_value, b.p_value), "{a:?} {b:?}");
            }
        }
        // For t (a continuous distribution) the two one-sided p-values add up to 1.
        if let (Ok(g), Ok(l)) = (paired_t(&x, &y, Alternative::Greater), paired_t(&x, &y, Alternative::Less))
            && g.method == PMethod::StudentT
        {
            prop_assert!(close(g.p_value + l.p_value, 1.0));
        }
    }

    #[test]
    fn kendall_and_spearman_are_symmetric_and_bounded((x, y) in paired(2, 60)) {
        if let (Ok(a), Ok(b)) = (kendall_tau_b(&x, &y), kendall_tau_b(&y, &x)) {
            prop_assert!(close(a, b) && (-1.0..=1.0).contains(&a));
        }
        if let (Ok(a), Ok(b)) = (spearman(&x, &y), spearman(&y, &x)) {
            prop_assert!(close(a, b) && (-1.0..=1.0).contains(&a));
        }
    }
}
