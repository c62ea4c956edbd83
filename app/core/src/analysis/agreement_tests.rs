use super::*;
use crate::analysis::{JudgmentNames, TimeBasis};

/// A DA campaign's one question.
const DA: (&str, Scale) = ("da-adequacy", Scale::Continuous);

fn push(set: &mut JudgmentSet, worker: &str, (task, scale): (&str, Scale), system: &str, segment: &str, t: ItemType, score: f64) {
    set.push(JudgmentNames { worker, hit: "h", system, segment, lang_pair: "de-en", task, scale }, t, score, 1.0);
}

/// Expected values from `tests/fixtures/agreement_fixture.py` (SciPy's pearsonr on the same
/// pairs; the pairs and κ spelled out there by hand).
#[test]
fn da_pairs_give_pearson_and_mean_difference() {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    use ItemType::*;
    // Item A/1: w1 60 then repeat 64; w2 50.
    push(&mut set, "w1", DA, "A", "1", System, 60.0);
    push(&mut set, "w2", DA, "A", "1", System, 50.0);
    push(&mut set, "w1", DA, "A", "1", Repeat, 64.0);
    // Item A/2: w1 30, w2 35, w3 20.
    push(&mut set, "w1", DA, "A", "2", System, 30.0);
    push(&mut set, "w2", DA, "A", "2", System, 35.0);
    push(&mut set, "w3", DA, "A", "2", System, 20.0);
    // Item B/1: w2 80 then repeat 70; a bad reference (not an item) and a lone judgment.
    push(&mut set, "w2", DA, "B", "1", System, 80.0);
    push(&mut set, "w2", DA, "B", "1", Repeat, 70.0);
    push(&mut set, "w2", DA, "B", "1", BadRef, 5.0);
    push(&mut set, "w3", DA, "B", "9", System, 44.0);
    // Item C/1: w3 90 then repeat 92.
    push(&mut set, "w3", DA, "C", "1", System, 90.0);
    push(&mut set, "w3", DA, "C", "1", Repeat, 92.0);

    let r = agreement_report(&set, None);
    assert_eq!(r.len(), 1);
    let g = &r[0];
    assert_eq!(g.scale, Scale::Continuous);
    assert_eq!(g.system_output_judgments, 11);
    // Intra: (60, 64), (80, 70), (90, 92).
    assert_eq!((g.intra.pairs, g.intra.items, g.intra.workers), (3, 3, 3));
    assert!((g.intra.mean_abs_difference.unwrap() - 16.0 / 3.0).abs() < 1e-12);
    assert!((g.intra.pearson_r.unwrap() - 0.873_331_638_465_572).abs() < 1e-12, "{:?}", g.intra.pearson_r);
    // Inter: A/1 (60,50), (50,64); A/2 (30,35), (30,20), (35,20): 5 pairs.
    assert_eq!((g.inter.pairs, g.inter.items, g.inter.workers), (5, 2, 3));
    assert!((g.inter.mean_abs_difference.unwrap() - 54.0 / 5.0).abs() < 1e-12);
    assert!((g.inter.pearson_r.unwrap() - 0.709_323_254_139_669_1).abs() < 1e-12, "{:?}", g.inter.pearson_r);
    assert_eq!((g.intra.kappa, g.p_chance), (None, None));

    // Leaving w3 out removes its repeat pair and two inter pairs.
    let keep: Vec<bool> = set.records.iter().map(|j| set.workers.name(j.worker) != "w3").collect();
    let g = &agreement_report(&set, Some(&keep))[0];
    assert_eq!((g.intra.pairs, g.inter.pairs, g.system_output_judgments), (2, 3, 7));
}

/// Word order's questions as a campaign's records carry them: named as the loader names
/// them (`word-order-q1`, `word-order-q2`), on the scale the protocol declares.
fn word_order_questions() -> Vec<(&'static str, Scale)> {
    use crate::{model::TaskKind, protocol::for_task};
    for_task(TaskKind::WordOrder).questions().iter().map(|q| (q.task_name(TaskKind::WordOrder), q.scale)).collect()
}

#[test]
fn word_order_pairs_give_kappa() {
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    use ItemType::*;
    let questions = word_order_questions();
    // Categories (×4) of Q1: item 1: w1 1.0→4, repeat 1.0→4, w2 0.75→3; item 2: w1 0→0,
    // w2 0→0. Q2 the mirror image (1 − Q1), whose κ is the same.
    for (q, mirror) in [(questions[0], false), (questions[1], true)] {
        let v = |x: f64| if mirror { 1.0 - x } else { x };
        push(&mut set, "w1", q, "A", "1", System, v(1.0));
        push(&mut set, "w1", q, "A", "1", Repeat, v(1.0));
        push(&mut set, "w2", q, "A", "1", System, v(0.75));
        push(&mut set, "w1", q, "A", "2", System, v(0.0));
        push(&mut set, "w2", q, "A", "2", System, v(0.0));
    }
    let report = agreement_report(&set, None);
    let tasks: Vec<&str> = report.iter().map(|g| g.task.as_str()).collect();
    assert_eq!(tasks, ["word-order-q1", "word-order-q2"]);
    for g in &report {
        word_order_kappa(g);
    }
}

/// κ on both questions against an independent implementation: statsmodels' Fleiss κ of two
/// workers' boxes on 25 items (`tests/fixtures/agreement/word_order_kappa.py`; with two
/// judgments of every item it is the κ with P(E) from the pooled shares).
#[test]
fn word_order_kappa_is_statsmodels_fleiss_kappa() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../../../tests/fixtures/agreement/word_order_kappa.json")).unwrap();
    let questions = word_order_questions();
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    for (i, item) in fixture["items"].as_array().unwrap().iter().enumerate() {
        for (q, boxes) in questions.iter().zip(item.as_array().unwrap()) {
            for (worker, b) in ["A", "B"].into_iter().zip(boxes.as_array().unwrap()) {
                push(&mut set, worker, *q, "S", &i.to_string(), ItemType::System, b.as_f64().unwrap() / 4.0);
            }
        }
    }
    let report = agreement_report(&set, None);
    assert_eq!(report.len(), 2);
    for (g, want) in report.iter().zip(fixture["questions"].as_array().unwrap()) {
        assert_eq!(g.scale, Scale::Categorical { categories: 5 }, "{}", g.task);
        assert_eq!((g.inter.pairs, g.inter.items, g.intra.pairs), (25, 25, 0), "{}", g.task);
        let close = |got: Option<f64>, key: &str| assert!((got.unwrap() - want[key].as_f64().unwrap()).abs() < 1e-12, "{} {key}: {got:?}", g.task);
        close(g.inter.kappa, "fleiss_kappa");
        close(g.inter.p_agree, "p_agree");
        close(g.p_chance, "p_chance");
    }
}

fn word_order_kappa(g: &GroupAgreement) {
    assert_eq!(g.scale, Scale::Categorical { categories: 5 }, "{}", g.task);
    // Shares: cat 4: 2/5, cat 3: 1/5, cat 0: 2/5 → P(E) = 0.16 + 0.04 + 0.16 = 0.36.
    let pe = 0.36;
    assert!((g.p_chance.unwrap() - pe).abs() < 1e-12);
    // Intra: one pair, agreeing → κ = 1. Inter: (4,3), (4,3), (0,0): P(A) = 1/3.
    assert_eq!((g.intra.pairs, g.intra.p_agree), (1, Some(1.0)));
    assert!((g.intra.kappa.unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(g.inter.pairs, 3);
    assert!((g.inter.kappa.unwrap() - (1.0 / 3.0 - pe) / (1.0 - pe)).abs() < 1e-12);
    assert!((g.inter.mean_abs_difference.unwrap() - 0.5 / 3.0).abs() < 1e-12);
    assert_eq!(g.inter.pearson_r, None);
}
