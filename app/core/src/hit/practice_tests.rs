use super::*;

fn texts() -> Vec<(String, String)> {
    (0..12)
        .map(|i| {
            (
                format!("Quelle Satz Nummer {i} mit einigen Wörtern darin."),
                format!("The committee met on day {i} and agreed to publish the new report before the end of the month."),
            )
        })
        .collect()
}

/// A valid answer: a score (and a second), and error spans of these severities.
fn answer(score: Option<f64>, score2: Option<f64>, severities: &[crate::protocol::Severity]) -> crate::protocol::Answer {
    let spans = severities
        .iter()
        .map(|&severity| crate::protocol::Span { start: 0, end: 3, severity, category: None, missing: false })
        .collect();
    crate::protocol::Answer { score, score2, skipped: false, detail: crate::protocol::Detail { spans, ..Default::default() } }
}

fn da(v: f64) -> crate::protocol::Answer {
    answer(Some(v), None, &[])
}

#[test]
fn practice_alternates_high_and_low_with_reasons_and_is_deterministic() {
    let owned = texts();
    let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
    for task in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased, TaskKind::WordOrder, TaskKind::Esa, TaskKind::Mqm] {
        let items = build_practice(task, &t, 4, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap();
        assert_eq!(items.len(), 4, "{task:?}");
        assert_eq!(items.iter().map(|i| i.high).collect::<Vec<_>>(), [true, false, true, false]);
        let mut used: Vec<usize> = items.iter().map(|i| i.text).collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), 4, "{task:?}: each item from its own segment");
        for it in &items {
            let reference = &owned[it.text].1;
            if it.high {
                assert_eq!(&it.candidate, reference);
            } else {
                assert_ne!(&it.candidate, reference, "{task:?}");
            }
            match task {
                TaskKind::DaFluency => assert_eq!(it.context, None),
                TaskKind::DaSourceBased | TaskKind::Esa | TaskKind::Mqm => assert_eq!(it.context.as_deref(), Some(owned[it.text].0.as_str())),
                _ => assert_eq!(it.context.as_deref(), Some(reference.as_str())),
            }
        }
        let low = &items[1];
        match task {
            TaskKind::DaAdequacy | TaskKind::DaSourceBased | TaskKind::Esa | TaskKind::Mqm => {
                assert!(low.reason.starts_with("part of the meaning is missing: “"), "{}", low.reason);
                let whose = if task == TaskKind::DaAdequacy { "the gray text says" } else { "the source says" };
                assert!(low.reason.ends_with(whose), "{task:?}: {}", low.reason);
                // At least a third of the 18 words are gone.
                let left = low.candidate.split_whitespace().count();
                assert!(left <= 12, "{left}: {}", low.candidate);
            }
            TaskKind::DaFluency => {
                assert!(low.reason.starts_with("words are repeated where they do not belong (“"), "{}", low.reason);
                assert!(low.candidate.split_whitespace().count() >= 18 + 2);
            }
            _ => {
                assert!(low.reason.starts_with("its words are out of order (“"), "{}", low.reason);
                assert!(low.matches(task, &answer(Some(1.0), Some(0.25), &[])) && !low.matches(task, &answer(Some(1.0), Some(0.75), &[])));
                assert!(items[0].matches(task, &answer(Some(1.0), Some(0.75), &[])) && !items[0].matches(task, &answer(Some(0.5), Some(1.0), &[])));
            }
        }
        assert_eq!(build_practice(task, &t, 4, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap(), items, "deterministic");
    }
}

/// What each protocol counts as a careful reader's answer: DA and ESA the score's range; ESA
/// also no major error in a human translation and at least one error in a degraded one; MQM
/// (no score) only the errors.
#[test]
fn each_protocol_says_what_a_careful_answer_is() {
    use crate::protocol::Severity::{Critical, Major, Minor};
    let owned = texts();
    let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
    let items = |task| build_practice(task, &t, 2, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap();
    for task in [TaskKind::DaAdequacy, TaskKind::DaSourceBased, TaskKind::DaFluency] {
        let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
        assert!(low.matches(task, &da(20.0)) && low.matches(task, &da(50.0)) && !low.matches(task, &da(51.0)), "{task:?}");
        assert!(high.matches(task, &da(95.0)) && high.matches(task, &da(60.0)) && !high.matches(task, &da(40.0)), "{task:?}");
    }
    let task = TaskKind::Esa;
    let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
    assert!(low.matches(task, &answer(Some(20.0), None, &[Major])));
    assert!(low.matches(task, &answer(Some(30.0), None, &[Minor])), "any error marked");
    assert!(!low.matches(task, &answer(Some(20.0), None, &[])), "a low score without the errors");
    assert!(!low.matches(task, &answer(Some(80.0), None, &[Major])), "the errors with a high score");
    assert!(high.matches(task, &answer(Some(90.0), None, &[])));
    assert!(high.matches(task, &answer(Some(90.0), None, &[Minor])), "a minor error in a human translation");
    assert!(!high.matches(task, &answer(Some(90.0), None, &[Major])));
    assert!(!high.matches(task, &answer(Some(30.0), None, &[])));
    let task = TaskKind::Mqm;
    let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
    assert!(low.matches(task, &answer(None, None, &[Major])) && low.matches(task, &answer(None, None, &[Minor, Critical])));
    assert!(!low.matches(task, &answer(None, None, &[Minor])) && !low.matches(task, &answer(None, None, &[])));
    assert!(high.matches(task, &answer(None, None, &[])) && high.matches(task, &answer(None, None, &[Minor])));
    assert!(!high.matches(task, &answer(None, None, &[Critical])));
}

#[test]
fn too_few_texts_are_refused_with_the_reason() {
    let owned = texts();
    let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
    let e = build_practice(TaskKind::DaAdequacy, &t, 13, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap_err().to_string();
    assert!(e.contains("13 practice items need 13 segments") && e.contains("has only 12"), "{e}");
    let short = [PracticeText { source: "a", reference: "Too short." }];
    assert!(build_practice(TaskKind::DaFluency, &short, 1, AdequacyPolicy::Delete, None, &[], 1).is_err());
    assert_eq!(build_practice(TaskKind::Ranking, &t, 0, AdequacyPolicy::Delete, None, &[], 1).unwrap(), vec![]);
    let e = build_practice(TaskKind::Pairwise, &t, 13, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap_err().to_string();
    assert!(e.contains("13 practice items need 13 segments"), "{e}");
}

/// Pairwise preference and ranking (issue 37 item 6, issue 38 row 15): each practice screen
/// shows a human reference and its strongly degraded copy, in an order drawn per item; a
/// careful reader prefers the original (ranks the copy below it), and the reason names
/// what was left out of the copy.
#[test]
fn a_screen_of_several_outputs_puts_an_original_beside_its_degraded_copy_in_a_drawn_order() {
    let owned = texts();
    let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
    for task in [TaskKind::Pairwise, TaskKind::Ranking] {
        let mut sides = [0usize; 2];
        for seed in 1..=4 {
            let items = build_practice(task, &t, 3, AdequacyPolicy::Delete, Some("en"), &[], seed).unwrap();
            assert_eq!(items.len(), 3, "{task:?}");
            assert_eq!(build_practice(task, &t, 3, AdequacyPolicy::Delete, Some("en"), &[], seed).unwrap(), items, "deterministic");
            for it in &items {
                let (source, reference) = &owned[it.text];
                assert_eq!(it.context.as_deref(), Some(source.as_str()), "the source above the outputs");
                let shown = it.shown();
                assert_eq!(shown.len(), 2);
                let original = it.original.expect("the original's place");
                sides[original] += 1;
                assert_eq!(shown[original], reference.as_str());
                let copy = shown[1 - original];
                assert_ne!(copy, reference.as_str());
                assert!(copy.split_whitespace().count() <= 12, "a third of the 18 words gone: {copy}");
                assert!(it.reason.starts_with("part of the meaning is missing: “") && it.reason.ends_with("the source says"), "{}", it.reason);
                // Ranks per output shown: the original above its copy, tied, below.
                let mut ranks = [2u32, 2];
                ranks[original] = 1;
                assert_eq!(it.original_share(&ranks), Some(1.0));
                assert_eq!(it.original_share(&[1, 1]), Some(0.5));
                ranks.swap(0, 1);
                assert_eq!(it.original_share(&ranks), Some(0.0));
                assert_eq!(it.original_share(&[1]), None, "ranks that do not fit the screen");
                assert_eq!(it.original_share(&[0, 1]), None);
                let answer = |share: f64| answer(Some(share), None, &[]);
                assert!(it.matches(task, &answer(1.0)), "{task:?}: the original preferred");
                assert!(!it.matches(task, &answer(0.5)) && !it.matches(task, &answer(0.0)), "{task:?}: a tie or the copy preferred");
            }
        }
        assert!(sides[0] > 0 && sides[1] > 0, "{task:?}: the original on either side ({sides:?})");
    }
    // An item of one output has no share of the win.
    let da = build_practice(TaskKind::DaAdequacy, &t, 2, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap();
    assert!(da.iter().all(|i| i.others.is_empty() && i.original.is_none() && i.original_share(&[1]).is_none()));
}
