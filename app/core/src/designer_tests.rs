use super::*;

/// Every task shows one way of sizing its HITs and one kind of checks, and the page's
/// previous per-task choices hold (pages.rs before issue 38: e.g. fluency hid the
/// degradation choice, ranking had no practice, word order no statement).
#[test]
fn each_task_has_one_way_to_size_its_hits() {
    for t in TaskKind::ALL {
        let d = t.designer();
        let sizes = [d.items_per_hit && !d.permutations, d.documents, d.ranking, d.permutations, d.pairs].iter().filter(|x| **x).count();
        assert_eq!(sizes, 1, "{t:?}");
        // Post-editing's HITs are single items with direct assessment's checks.
        assert_eq!(d.item_checks, matches!(t, TaskKind::DaAdequacy | TaskKind::DaFluency | TaskKind::DaSourceBased | TaskKind::PostEdit), "{t:?}");
        assert_eq!(d.documents, t.marks_spans(), "{t:?}");
        assert_eq!(d.statement, !d.two_questions, "{t:?}");
        assert!(!d.reference_help.is_empty());
    }
    assert!(!TaskKind::DaFluency.designer().degradation_policy && !TaskKind::WordOrder.designer().degradation_policy);
    assert!(!TaskKind::Ranking.designer().label_candidate);
    // Every protocol but post-editing and contrastive ESA has practice (ranking and pairwise
    // preference since issue 37 item 6 and 38 row 15), and the designer offers it exactly
    // where it exists.
    assert!(TaskKind::ALL.iter().filter(|&&t| !matches!(t, TaskKind::PostEdit | TaskKind::ContrastiveEsa)).all(|t| t.designer().practice && crate::protocol::for_task(*t).practice().is_some()));
    assert!(TaskKind::ALL.iter().all(|t| t.designer().practice == crate::protocol::for_task(*t).practice().is_some()));
    assert_eq!(TaskKind::DaFluency.designer().judgment_time, Some(JudgmentTime::Fluency));
    assert_eq!(TaskKind::Esa.designer().judgment_time, None);
    // Both protocols of documents ask a document's score after its last segment when the
    // organizer wants it (MQM too since issue 38 row 15a, as Appraise's document task).
    assert!(TaskKind::Esa.designer().document_score && TaskKind::Mqm.designer().document_score);
    assert!(!TaskKind::DaAdequacy.designer().document_score && !TaskKind::Ranking.designer().document_score);
    assert!(TaskKind::Mqm.designer().mqm && !TaskKind::Esa.designer().mqm);
    assert!(TaskKind::DaAdequacy.designer().label_reference && !TaskKind::DaSourceBased.designer().label_reference);
}
