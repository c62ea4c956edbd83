use super::*;
use crate::analysis::{
    AnalysisSettings, ComparisonUnit, JudgmentNames, JudgmentSet, TimeBasis, analyse,
};
use crate::model::ItemType;

#[test]
fn numeric_segment_names_sort_numerically() {
    let names: Vec<String> = ["10", "2", "1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(test_set_order(&names), vec![2, 1, 0]);
    let names: Vec<String> = ["b", "a", "3"].iter().map(|s| s.to_string()).collect();
    assert_eq!(test_set_order(&names), vec![0, 1, 2]);
}

/// Two systems, one worker; system B is missing segment 2.
#[test]
fn score_files_have_one_line_per_system_and_segment_with_none_for_gaps() {
    let mut set = JudgmentSet::new(TimeBasis::PerHit);
    let rows = [("A", "1", 80.0), ("A", "2", 60.0), ("B", "1", 40.0), ("B", "1", 30.0)];
    for (sys, seg, score) in rows {
        set.push(
            JudgmentNames {
                worker: "w",
                hit: "h",
                system: sys,
                segment: seg,
                lang_pair: "de-en",
                task: "ad",
                scale: crate::report::Scale::Continuous,
            },
            ItemType::System,
            score,
            500.0,
        );
    }
    let settings = AnalysisSettings {
        exclusion: crate::analysis::ExclusionPolicy::None,
        bootstrap: None,
        ..AnalysisSettings::default()
    };
    assert_eq!(settings.comparison.unit, ComparisonUnit::Judgments);
    let r = analyse(&set, &settings);
    let g = &r.groups[0];
    let order = test_set_order(&r.names.segments);
    let judged = judged_segments(g, &order, r.names.segments.len());
    assert_eq!(judged, vec![0, 1]);

    let mut out = Vec::new();
    write_mme_seg_scores(&mut out, &r.names, g, &judged, ScoreKind::Raw).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "A\t80\nA\t60\nB\t35\nB\tNone\n");

    let mut out = Vec::new();
    write_mme_sys_scores(&mut out, &r.names, g, ScoreKind::Raw).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "A\t70\nB\t35\n");

    // z: mean 52.5, sd of (80, 60, 40, 30).
    let sd = ((27.5f64.powi(2) + 7.5f64.powi(2) + 12.5f64.powi(2) + 22.5f64.powi(2)) / 3.0).sqrt();
    let mut out = Vec::new();
    write_da_syslevel(&mut out, &r.names, &r.groups).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "LP SCORE SYSTEM");
    let a: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!((a[0], a[2]), ("de-en", "A"));
    assert!((a[1].parse::<f64>().unwrap() - (17.5 / sd)).abs() < 1e-12);

    let mut out = Vec::new();
    write_da_seglevel(&mut out, &r.names, "test2026", &r.groups).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "LP DATA SYSTEM SID SCORE");
    assert_eq!(lines.len(), 4);
    let b: Vec<&str> = lines[3].split(' ').collect();
    assert_eq!(&b[..4], &["de-en", "test2026", "B", "1"]);
    assert!((b[4].parse::<f64>().unwrap() - (-17.5 / sd)).abs() < 1e-12);
}

#[test]
fn darr_pairs_compare_mean_raw_scores_of_outputs_of_one_source() {
    // Segment 1: A 90 (one judgment), B mean 60 (70, 50), C 64, D 30.
    // Segment 2: A 40, B 66 (strictly more than 25 apart only for B − A = 26).
    // Segment 3: one output only.
    let judgments = [
        (1, 0, 90.0),
        (1, 1, 70.0),
        (1, 1, 50.0),
        (1, 2, 64.0),
        (1, 3, 30.0),
        (2, 0, 40.0),
        (2, 1, 66.0),
        (2, 2, 65.0),
        (3, 0, 10.0),
        (1, 2, f64::NAN),
    ];
    let pairs = darr_pairs(judgments, DARR_THRESHOLD, DarrRule::Over);
    let got: Vec<(u32, u32, u32)> = pairs.iter().map(|p| (p.segment, p.better, p.worse)).collect();
    // Seg 1: A–B 30 ✓, A–C 26 ✓, A–D 60 ✓, B–C 4, B–D 30 ✓, C–D 34 ✓. Seg 2: A–B 26 ✓ (B
    // better), A–C exactly 25: not more than 25, B–C 1.
    assert_eq!(got, vec![(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 3), (1, 2, 3), (2, 1, 0)]);
    assert_eq!((pairs[0].better_score, pairs[0].worse_score), (90.0, 60.0));
    // The threshold is a parameter: at 30, only differences above 30.
    let wide: Vec<(u32, u32, u32)> = darr_pairs(judgments, 30.0, DarrRule::Over).iter().map(|p| (p.segment, p.better, p.worse)).collect();
    assert_eq!(wide, vec![(1, 0, 3), (1, 2, 3)]);
    // The default, mt-metrics-eval's: at least 25 apart, so seg 2's A–C at exactly 25 too
    // (C better); at 30, seg 1's A–B and B–D at exactly 30 join.
    assert_eq!(DarrRule::default(), DarrRule::AtLeast);
    let at_least: Vec<(u32, u32, u32)> = darr_pairs(judgments, DARR_THRESHOLD, DarrRule::default()).iter().map(|p| (p.segment, p.better, p.worse)).collect();
    assert_eq!(at_least, vec![(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 3), (1, 2, 3), (2, 1, 0), (2, 2, 0)]);
    let wide: Vec<(u32, u32, u32)> = darr_pairs(judgments, 30.0, DarrRule::AtLeast).iter().map(|p| (p.segment, p.better, p.worse)).collect();
    assert_eq!(wide, vec![(1, 0, 1), (1, 0, 3), (1, 1, 3), (1, 2, 3)]);
    // Equal means never make a pair, even at threshold 0, under either rule.
    for rule in DarrRule::ALL {
        assert!(darr_pairs([(1, 0, 50.0), (1, 1, 50.0)], 0.0, rule).is_empty());
        assert!(darr_pairs([], 25.0, rule).is_empty());
    }
    assert!(is_da_task("da-adequacy") && is_da_task("ad") && !is_da_task("word-order-q1") && !is_da_task("ranking"));
}

/// The file from a real analysis: kept workers' mean raw scores per output, test-set order,
/// `LP DATA SID BETTER WORSE`; an excluded worker's judgments do not count.
#[test]
fn darr_seglevel_file_from_an_analysis() {
    let mut set = JudgmentSet::new(TimeBasis::PerHit);
    let mut push = |worker: &str, sys: &str, seg: &str, t: ItemType, score: f64| {
        set.push(JudgmentNames { worker, hit: worker, system: sys, segment: seg, lang_pair: "de-en", task: "ad", scale: crate::report::Scale::Continuous }, t, score, 500.0);
    };
    // Worker g passes (bad references far below their originals); worker r fails.
    for k in 0..8 {
        let seg = (10 + k).to_string();
        push("g", "X", &seg, ItemType::System, 80.0 + k as f64);
        push("g", "X", &seg, ItemType::BadRef, 20.0 + (k * k) as f64);
        push("r", "X", &seg, ItemType::System, 10.0 + 3.0 * k as f64);
        push("r", "X", &seg, ItemType::BadRef, 90.0 - 2.0 * k as f64);
    }
    // Segment "2" and "10": outputs of A, B, C by g; r scores them the other way round.
    for (seg, a, b, c) in [("2", 90.0, 50.0, 70.0), ("10", 20.0, 60.0, 40.0)] {
        push("g", "A", seg, ItemType::System, a);
        push("g", "B", seg, ItemType::System, b);
        push("g", "C", seg, ItemType::System, c);
        push("r", "A", seg, ItemType::System, 100.0 - a);
        push("r", "B", seg, ItemType::System, 100.0 - b);
    }
    let settings = AnalysisSettings { bootstrap: None, ..AnalysisSettings::default() };
    let r = analyse(&set, &settings);
    assert_eq!(r.judgments_excluded, 20, "r is excluded");
    let order = test_set_order(&r.names.segments);
    let mut out = Vec::new();
    write_darr_seglevel(&mut out, &r.names, "newstest2026", &order, &r.groups, DARR_THRESHOLD, DarrRule::default()).unwrap();
    let text = String::from_utf8(out).unwrap();
    // Segment 2 before 10 (numeric order); on 10, X (80) is far above A (20) and C (40) but
    // within 25 of B (60), and B above A; pairs by system id (X, A, B, C) within a segment.
    assert_eq!(
        text,
        "LP DATA SID BETTER WORSE\nde-en newstest2026 2 A B\nde-en newstest2026 10 X A\nde-en newstest2026 10 X C\nde-en newstest2026 10 B A\n"
    );
}
