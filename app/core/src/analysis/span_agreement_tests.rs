//! Span agreement: hand-checked cases, and every case of the independent Python implementation
//! of `tests/fixtures/spans/generate.py` (scikit-learn's `f1_score`, `accuracy_score`,
//! `cohen_kappa_score`, SciPy's `pearsonr`).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::*;
use crate::protocol::spans::is_grapheme_boundary;

fn sp(start: usize, end: usize, severity: Severity) -> Span {
    Span::new(start, end, severity)
}

#[test]
fn hand_checked() {
    let text = "abcdefghij";
    // A marks 0–4 minor, B marks 2–6 major: tp 2 (c, d), fp 2, fn 2 → F1 0.5.
    let r = compare(text, &[sp(0, 4, Severity::Minor)], &[sp(2, 6, Severity::Major)]).unwrap();
    assert_eq!(r.marked, Counts { tp: 2, fp: 2, fn_: 2 });
    assert_eq!(r.f1, Some(0.5));
    // Labels agree on the 4 unmarked characters only.
    assert_eq!(r.severity_accuracy, 0.4);
    assert_eq!(r.severity_f1[&Severity::Minor], Some(0.0));
    assert_eq!(r.severity_f1[&Severity::Major], Some(0.0));
    // Nothing marked: F1 undefined, labels agree everywhere.
    let none = compare(text, &[], &[Span::omission(Severity::Major)]).unwrap();
    assert_eq!(none.f1, None);
    assert_eq!(none.severity_accuracy, 1.0);
    assert_eq!((none.omissions_a, none.omissions_b), (0, 1));
    // Overlapping spans of one annotator: the gravest label.
    let labels = char_labels(text, &[sp(0, 5, Severity::Minor), sp(3, 7, Severity::Critical)]).unwrap();
    assert_eq!(labels[2], Some(Severity::Minor));
    assert_eq!(labels[4], Some(Severity::Critical));
    assert_eq!(labels[7], None);
    // Offsets count characters: 3 Chinese characters are 3, not 9 bytes.
    let zh = compare("我们去北京", &[sp(2, 5, Severity::Major)], &[sp(2, 5, Severity::Major)]).unwrap();
    assert_eq!((zh.chars, zh.marked.tp, zh.f1), (5, 3, Some(1.0)));
    // Refusals.
    assert_eq!(char_labels(text, &[sp(5, 11, Severity::Minor)]), Err(SpanError::OutOfRange { start: 5, end: 11, len: 10 }));
    assert_eq!(char_labels(text, &[sp(5, 5, Severity::Minor)]), Err(SpanError::Empty { start: 5, end: 5 }));
    let bad = [sp(0, 20, Severity::Minor)];
    let items = [AgreementItem { text, a: &[], b: &[], score_a: None, score_b: None }, AgreementItem { text, a: &bad, b: &[], score_a: None, score_b: None }];
    assert_eq!(summarize(&items).unwrap_err().0, 1);
}

#[test]
fn kappa_and_pearson_by_hand() {
    // 2×2 table [[20, 5], [10, 15]]: po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5 → κ = 0.4.
    let a: Vec<u8> = [vec![0; 25], vec![1; 25]].concat();
    let b: Vec<u8> = [vec![0; 20], vec![1; 5], vec![0; 10], vec![1; 15]].concat();
    assert!((cohen_kappa(&a, &b).unwrap() - 0.4).abs() < 1e-12);
    assert_eq!(cohen_kappa(&[1u8, 1, 1], &[1, 1, 1]), None);
    assert_eq!(cohen_kappa::<u8>(&[], &[]), None);
    assert!((pearson(&[1.0, 2.0, 3.0], &[2.0, 4.0, 6.5]).unwrap() - 0.9979487157886733).abs() < 1e-12);
    assert_eq!(pearson(&[1.0], &[2.0]), None);
    assert_eq!(pearson(&[1.0, 1.0], &[2.0, 3.0]), None);
}

#[derive(Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    items: Vec<Item>,
    expected: Expected,
}

#[derive(Deserialize)]
struct Item {
    text: String,
    a: Vec<Span>,
    b: Vec<Span>,
    score_a: Option<f64>,
    score_b: Option<f64>,
}

#[derive(Deserialize)]
struct Expected {
    items: Vec<ItemExpected>,
    summary: SummaryExpected,
}

#[derive(Deserialize)]
struct ItemExpected {
    chars: usize,
    tp: usize,
    fp: usize,
    #[serde(rename = "fn")]
    fn_: usize,
    f1: Option<f64>,
    severity_accuracy: f64,
    severity_f1: BTreeMap<Severity, Option<f64>>,
    omissions_a: usize,
    omissions_b: usize,
}

#[derive(Deserialize)]
struct SummaryExpected {
    items: usize,
    chars: usize,
    tp: usize,
    micro_f1: Option<f64>,
    severity_micro_f1: BTreeMap<Severity, Option<f64>>,
    severity_accuracy: Option<f64>,
    kappa: Option<f64>,
    pearson_r: Option<f64>,
    scored_items: usize,
    omissions_a: usize,
    omissions_b: usize,
    omission_counts_equal: usize,
}

fn close(what: &str, got: Option<f64>, want: Option<f64>) {
    match (got, want) {
        (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{what}: {g} vs {w}"),
        (g, w) => assert_eq!(g, w, "{what}"),
    }
}

fn close_map(what: &str, got: &BTreeMap<Severity, Option<f64>>, want: &BTreeMap<Severity, Option<f64>>) {
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "{what}: labels");
    for (k, w) in want {
        close(&format!("{what} {}", k.as_str()), got[k], *w);
    }
}

#[test]
fn agrees_with_the_python_implementation() {
    let fixture: Fixture = serde_json::from_str(include_str!("../../../../tests/fixtures/spans/spans.json")).expect("the span fixture");
    assert!(fixture.cases.len() >= 10);
    let mut items_checked = 0;
    for case in &fixture.cases {
        let name = &case.name;
        for (i, (it, want)) in case.items.iter().zip(&case.expected.items).enumerate() {
            // The generator's spans are whole grapheme clusters, as stored spans are.
            for s in it.a.iter().chain(&it.b) {
                assert!(s.missing || (is_grapheme_boundary(&it.text, s.start) && is_grapheme_boundary(&it.text, s.end)), "{name} item {i}: {s:?} in {:?}", it.text);
            }
            let got = compare(&it.text, &it.a, &it.b).unwrap_or_else(|e| panic!("{name} item {i}: {e}"));
            let what = format!("{name} item {i}");
            assert_eq!((got.chars, got.marked.tp, got.marked.fp, got.marked.fn_), (want.chars, want.tp, want.fp, want.fn_), "{what}");
            close(&format!("{what} f1"), got.f1, want.f1);
            close(&format!("{what} severity accuracy"), Some(got.severity_accuracy), Some(want.severity_accuracy));
            close_map(&format!("{what} severity f1"), &got.severity_f1, &want.severity_f1);
            assert_eq!((got.omissions_a, got.omissions_b), (want.omissions_a, want.omissions_b), "{what}");
            items_checked += 1;
        }
        let items: Vec<AgreementItem<'_>> =
            case.items.iter().map(|it| AgreementItem { text: &it.text, a: &it.a, b: &it.b, score_a: it.score_a, score_b: it.score_b }).collect();
        let got = summarize(&items).unwrap();
        let w = &case.expected.summary;
        assert_eq!((got.items, got.chars, got.marked.tp, got.scored_items), (w.items, w.chars, w.tp, w.scored_items), "{name}");
        close(&format!("{name} micro f1"), got.micro_f1, w.micro_f1);
        close_map(&format!("{name} severity micro f1"), &got.severity_micro_f1, &w.severity_micro_f1);
        close(&format!("{name} severity accuracy"), got.severity_accuracy, w.severity_accuracy);
        close(&format!("{name} kappa"), got.kappa, w.kappa);
        close(&format!("{name} pearson"), got.pearson_r, w.pearson_r);
        assert_eq!((got.omissions_a, got.omissions_b, got.omission_counts_equal), (w.omissions_a, w.omissions_b, w.omission_counts_equal), "{name}");
    }
    assert!(items_checked > 300);
    // The fixture covers what it should: an undefined F1, an undefined κ and r, a perfect κ.
    let random = fixture.cases.last().unwrap();
    assert!(random.expected.summary.kappa.is_some_and(|k| k > 0.3 && k < 0.9));
    assert!(fixture.cases.iter().any(|c| c.expected.summary.kappa.is_none()));
    assert!(fixture.cases.iter().any(|c| c.expected.summary.micro_f1.is_none()));
}
