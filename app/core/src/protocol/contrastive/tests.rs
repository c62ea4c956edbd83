use super::*;
use crate::model::TaskKind;
use crate::protocol::{Detail, Span, for_task, ranks_blocks, validate, validate_on};

fn rules(outputs: usize) -> AnswerRules {
    AnswerRules { outputs, ..AnswerRules::default() }
}

fn esa(score: f64, spans: Vec<Span>) -> Answer {
    Answer { score: Some(score), detail: Detail { spans, ..Detail::default() }, ..Answer::default() }
}

#[test]
fn registered_under_its_name_as_blocks_of_scored_outputs() {
    let p = for_task(TaskKind::ContrastiveEsa);
    assert_eq!(TaskKind::ContrastiveEsa.as_str(), NAME);
    assert_eq!(TaskKind::parse(NAME), Some(TaskKind::ContrastiveEsa));
    assert_eq!((p.name(), p.hit_plan(), p.layout(), p.simulated_name()), ("contrastive error span annotation", HitPlan::Blocks, Layout::Several { outputs: 3 }, "cesa"));
    assert_eq!(p.span_scheme(), Some(Scheme::Esa));
    assert_eq!(p.worker_test(), crate::protocol::WorkerTest::ScorePairs);
    assert_eq!(p.quality_control(), &[ItemType::BadRef, ItemType::Repeat]);
    // Its blocks are scored, not ranked: analysis reads its scores, as ESA's.
    assert!(!ranks_blocks(TaskKind::ContrastiveEsa));
    assert!(ranks_blocks(TaskKind::Ranking));
    assert!(TaskKind::ALL.iter().filter(|&&t| ranks_blocks(t)).eq([TaskKind::Ranking].iter()));
    // The same questions as ESA: one 0–100 score.
    assert_eq!(p.questions().len(), 1);
    assert_eq!(crate::protocol::raw_range(NAME), crate::protocol::RawRange::Percent);
}

#[test]
fn each_output_takes_esa_spans_and_a_score() {
    let shown = "Das Treffen wurde verschoben.";
    let spans = vec![Span::new(0, 3, Severity::Minor), Span::new(12, 18, Severity::Major)];
    let stored = validate_on(TaskKind::ContrastiveEsa, shown, &esa(40.0, spans.clone()), &rules(3)).unwrap();
    assert_eq!(stored, esa(40.0, spans));
    // The same as ESA stores for the same answer (one rule, not a copy).
    let mut as_esa = validate_on(TaskKind::Esa, shown, &esa(40.0, vec![Span::new(0, 3, Severity::Minor)]), &rules(3)).unwrap();
    as_esa.detail.document_score = None;
    assert_eq!(validate_on(TaskKind::ContrastiveEsa, shown, &esa(40.0, vec![Span::new(0, 3, Severity::Minor)]), &rules(3)).unwrap(), as_esa);
    // An omission on [MISSING].
    let missing = Span { start: 0, end: 0, severity: Severity::Major, category: None, missing: true };
    assert!(validate_on(TaskKind::ContrastiveEsa, shown, &esa(10.0, vec![missing]), &rules(2)).is_ok());
}

#[test]
fn bad_answers_are_refused_with_the_reason() {
    let shown = "short";
    // A span outside the text shown.
    let e = validate_on(TaskKind::ContrastiveEsa, shown, &esa(50.0, vec![Span::new(2, 40, Severity::Minor)]), &rules(3)).unwrap_err();
    assert!(e.problem.starts_with("Error span 1:"), "{e}");
    // No score; out of range; a rank; a document score.
    assert_eq!(validate(TaskKind::ContrastiveEsa, &Answer::default(), &rules(3)).unwrap_err().field, "score");
    assert_eq!(validate(TaskKind::ContrastiveEsa, &esa(100.5, vec![]), &rules(3)).unwrap_err().field, "score");
    let ranked = Answer { detail: Detail { rank: Some(1), ..Detail::default() }, ..esa(50.0, vec![]) };
    assert_eq!(validate(TaskKind::ContrastiveEsa, &ranked, &rules(3)).unwrap_err().field, "detail");
    let doc = Answer { detail: Detail { document_score: Some(50.0), ..Detail::default() }, ..esa(50.0, vec![]) };
    assert!(validate(TaskKind::ContrastiveEsa, &doc, &rules(3)).unwrap_err().problem.contains("not a document"));
    // Screens of 2–4 outputs only.
    for n in [0, 1, 5] {
        assert!(validate(TaskKind::ContrastiveEsa, &esa(50.0, vec![]), &rules(n)).unwrap_err().problem.contains("2 to 4"), "{n}");
    }
    for n in 2..=4 {
        assert!(validate(TaskKind::ContrastiveEsa, &esa(50.0, vec![]), &rules(n)).is_ok());
    }
}

#[test]
fn appraise_asks_to_confirm_a_low_score_without_errors() {
    assert!(needs_confirmation(65.9, 0));
    assert!(!needs_confirmation(66.0, 0));
    assert!(!needs_confirmation(10.0, 1));
}

#[test]
fn a_design_compares_two_to_four_outputs_of_one_segment() {
    assert!(check_design(3, 1).is_ok());
    assert!(check_design(2, 1).is_ok() && check_design(4, 1).is_ok());
    assert_eq!(check_design(5, 1).unwrap_err(), "a contrastive screen compares 2 to 4 outputs, not 5");
    assert!(check_design(1, 1).is_err());
    assert_eq!(check_design(3, 2).unwrap_err(), "a contrastive screen shows the outputs of one segment, not 2");
}

#[test]
fn its_defaults_are_a_valid_design() {
    let s = crate::settings::CampaignSettings::for_task(TaskKind::ContrastiveEsa, "German", "English");
    assert!(check_design(s.ranking.outputs, s.ranking.blocks_per_screen).is_ok(), "{} {}", s.ranking.outputs, s.ranking.blocks_per_screen);
    assert!(s.bad_refs > 0 && s.repeats > 0);
    // Ranking's defaults are unchanged.
    let r = crate::settings::CampaignSettings::for_task(TaskKind::Ranking, "German", "English");
    assert_eq!((r.ranking.outputs, r.ranking.blocks_per_screen), (5, 3));
}
