use super::*;

fn score(s: f64) -> Answer {
    Answer { score: Some(s), ..Answer::default() }
}

#[test]
fn da_takes_one_score_in_range() {
    let rules = AnswerRules::default();
    assert_eq!(validate(TaskKind::DaAdequacy, &score(37.5), &rules).unwrap(), score(37.5));
    let e = validate(TaskKind::DaFluency, &Answer::default(), &rules).unwrap_err();
    assert_eq!((e.field, e.problem.as_str()), ("score", "Please set the slider before going on."));
    assert_eq!(validate(TaskKind::DaSourceBased, &score(100.5), &rules).unwrap_err().field, "score");
    assert_eq!(validate(TaskKind::DaSourceBased, &score(f64::NAN), &rules).unwrap_err().field, "score");
    let two = Answer { score2: Some(1.0), ..score(50.0) };
    assert_eq!(validate(TaskKind::DaAdequacy, &two, &rules).unwrap_err().field, "score2");
    let ranked = Answer { detail: Detail { rank: Some(1), ..Detail::default() }, ..score(50.0) };
    assert_eq!(validate(TaskKind::DaAdequacy, &ranked, &rules).unwrap_err().field, "detail");
}

#[test]
fn word_order_takes_two_boxes_or_two_slider_values() {
    let boxes = AnswerRules::default();
    let sliders = AnswerRules { woj_sliders: true, ..AnswerRules::default() };
    let a = Answer { score: Some(0.25), score2: Some(1.0), ..Answer::default() };
    assert_eq!(validate(TaskKind::WordOrder, &a, &boxes).unwrap(), a);
    let between = Answer { score: Some(0.3), score2: Some(1.0), ..Answer::default() };
    assert!(validate(TaskKind::WordOrder, &between, &boxes).unwrap_err().problem.contains("one of the five boxes"));
    assert_eq!(validate(TaskKind::WordOrder, &between, &sliders).unwrap(), between);
    let missing = Answer { score: Some(0.5), ..Answer::default() };
    let e = validate(TaskKind::WordOrder, &missing, &boxes).unwrap_err();
    assert_eq!((e.field, e.problem.as_str()), ("score2", "Please answer the second question."));
    assert_eq!(word_order::box_of(0.75), Some(4));
    assert_eq!(word_order::box_of(0.3), None);
}

#[test]
fn skipping_is_the_same_for_every_protocol() {
    let skip = Answer { skipped: true, ..Answer::default() };
    let allow = AnswerRules { allow_skip: true, ..AnswerRules::default() };
    for task in [TaskKind::DaAdequacy, TaskKind::WordOrder] {
        assert_eq!(validate(task, &skip, &AnswerRules::default()).unwrap_err().field, "skipped");
        assert_eq!(validate(task, &skip, &allow).unwrap(), skip);
        let both = Answer { skipped: true, ..score(1.0) };
        assert_eq!(validate(task, &both, &allow).unwrap_err().problem, "A skipped item cannot also have an answer.");
    }
}

#[test]
fn detail_is_null_when_empty_and_round_trips_otherwise() {
    assert_eq!(Detail::default().to_column(), None);
    assert_eq!(Detail::from_column(None).unwrap(), Detail::default());
    let d = Detail {
        rank: Some(2),
        spans: vec![
            Span { start: 3, end: 9, severity: Severity::Major, category: None, missing: false },
            Span { start: 0, end: 0, severity: Severity::Minor, category: Some("accuracy/omission".into()), missing: true },
        ],
        document_score: Some(71.0),
        preference: None,
        post_edit: None,
    };
    let column = d.to_column().unwrap();
    assert_eq!(
        column,
        r#"{"rank":2,"spans":[{"start":3,"end":9,"severity":"major"},{"start":0,"end":0,"severity":"minor","category":"accuracy/omission","missing":true}],"document_score":71.0}"#
    );
    assert_eq!(Detail::from_column(Some(&column)).unwrap(), d);
    assert!(Detail::from_column(Some("{\"rank\":\"x\"}")).is_err());
}

#[test]
fn every_task_has_a_protocol_whose_questions_name_analysis_tasks() {
    for task in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased, TaskKind::WordOrder] {
        let p = for_task(task);
        assert!(!p.questions().is_empty(), "{}", p.name());
        assert_eq!(p.layout(), Layout::Single);
    }
    let wo: Vec<_> = for_task(TaskKind::WordOrder).questions().iter().map(|q| q.task_name(TaskKind::WordOrder)).collect();
    assert_eq!(wo, [crate::protocol::word_order::WORD_ORDER_Q1, crate::protocol::word_order::WORD_ORDER_Q2]);
    assert_eq!(for_task(TaskKind::DaFluency).questions()[0].task_name(TaskKind::DaFluency), "da-fluency");
    // Each question carries its agreement scale: κ over the five boxes on both word-order
    // questions, whatever their analysis tasks are called; DA's correlation.
    let scales: Vec<_> = for_task(TaskKind::WordOrder).questions().iter().map(|q| q.scale).collect();
    assert_eq!(scales, [Scale::Categorical { categories: 5 }; 2]);
    assert_eq!(for_task(TaskKind::DaAdequacy).questions()[0].scale, Scale::Continuous);
}

#[test]
fn ranking_takes_a_rank_among_the_block_and_stores_it_as_a_score_too() {
    let rules = AnswerRules { outputs: 5, ..AnswerRules::default() };
    let ranked = |r: u32| Answer { detail: Detail { rank: Some(r), ..Detail::default() }, ..Answer::default() };
    let best = validate(TaskKind::Ranking, &ranked(1), &rules).unwrap();
    assert_eq!((best.score, best.detail.rank), (Some(1.0), Some(1)));
    assert_eq!(validate(TaskKind::Ranking, &ranked(5), &rules).unwrap().score, Some(0.0));
    assert_eq!(validate(TaskKind::Ranking, &ranked(2), &rules).unwrap().score, Some(0.75));
    for bad in [0, 6] {
        let e = validate(TaskKind::Ranking, &ranked(bad), &rules).unwrap_err();
        assert_eq!(e.field, "detail");
        assert!(e.problem.contains("between 1 (best) and 5 (worst)"), "{}", e.problem);
    }
    let e = validate(TaskKind::Ranking, &Answer::default(), &rules).unwrap_err();
    assert_eq!(e.problem, "Please rank every translation before going on.");
    // A score sent by the browser is refused: the server derives it from the rank.
    let scored = Answer { score: Some(1.0), ..ranked(1) };
    assert_eq!(validate(TaskKind::Ranking, &scored, &rules).unwrap_err().field, "score");
    let spans = Answer { detail: Detail { rank: Some(1), document_score: Some(3.0), ..Detail::default() }, ..Answer::default() };
    assert_eq!(validate(TaskKind::Ranking, &spans, &rules).unwrap_err().field, "detail");
    // A block needs at least two outputs.
    assert!(validate(TaskKind::Ranking, &ranked(1), &AnswerRules::default()).is_err());
    assert_eq!(for_task(TaskKind::Ranking).layout(), Layout::Several { outputs: 5 });
    assert_eq!(for_task(TaskKind::Ranking).quality_control(), &[ItemType::BadRef, ItemType::Repeat]);
}

#[test]
fn a_stored_ranking_score_gives_back_its_rank() {
    use super::ranking::{rank_of_score, score_of_rank};
    for outputs in 2..=25usize {
        for rank in 1..=outputs as u32 {
            assert_eq!(rank_of_score(score_of_rank(rank, outputs), outputs), Some(rank), "rank {rank} of {outputs}");
        }
    }
    // Scores no rank gives: between ranks, outside [0, 1], not a number.
    assert_eq!(rank_of_score(0.6, 5), None);
    assert_eq!(rank_of_score(1.25, 5), None);
    assert_eq!(rank_of_score(-0.25, 5), None);
    assert_eq!(rank_of_score(f64::NAN, 5), None);
    assert_eq!((rank_of_score(1.0, 1), rank_of_score(0.0, 1)), (Some(1), None));
}

#[test]
fn esa_takes_a_score_spans_on_the_shown_text_and_an_optional_document_score() {
    let rules = AnswerRules::default();
    let text = "Das Treffen wurde verschoben.";
    let spans = vec![Span::new(4, 11, Severity::Major), Span::omission(Severity::Minor)];
    let a = Answer { detail: Detail { spans: spans.clone(), document_score: Some(70.0), ..Detail::default() }, ..score(42.0) };
    assert_eq!(validate_on(TaskKind::Esa, text, &a, &rules).unwrap(), a);
    // A score is needed, in range; no rank, no second score.
    let e = validate_on(TaskKind::Esa, text, &Answer { score: None, ..a.clone() }, &rules).unwrap_err();
    assert_eq!(e.field, "score");
    assert_eq!(validate_on(TaskKind::Esa, text, &Answer { score2: Some(1.0), ..a.clone() }, &rules).unwrap_err().field, "score2");
    let bad_doc = Answer { detail: Detail { document_score: Some(101.0), ..a.detail.clone() }, ..a.clone() };
    assert_eq!(validate_on(TaskKind::Esa, text, &bad_doc, &rules).unwrap_err().field, "document_score");
    // Spans must fit the text shown, with ESA's severities and no category.
    let outside = Answer { detail: Detail { spans: vec![Span::new(20, 40, Severity::Minor)], ..Detail::default() }, ..score(50.0) };
    let e = validate_on(TaskKind::Esa, text, &outside, &rules).unwrap_err();
    assert!(e.problem.starts_with("Error span 1:") && e.problem.contains("outside the text"), "{}", e.problem);
    let critical = Answer { detail: Detail { spans: vec![Span::new(0, 3, Severity::Critical)], ..Detail::default() }, ..score(50.0) };
    assert!(validate_on(TaskKind::Esa, text, &critical, &rules).unwrap_err().problem.contains("critical"));
    let too_many = Answer { detail: Detail { spans: vec![Span::new(0, 3, Severity::Minor); esa::MAX_SPANS + 1], ..Detail::default() }, ..score(50.0) };
    assert_eq!(validate_on(TaskKind::Esa, text, &too_many, &rules).unwrap_err().field, "detail");
    // DA refuses spans; a skipped ESA item needs the campaign's permission.
    assert_eq!(validate_on(TaskKind::DaAdequacy, text, &Answer { detail: a.detail.clone(), ..score(5.0) }, &rules).unwrap_err().field, "detail");
    assert_eq!(validate_on(TaskKind::Esa, text, &Answer { skipped: true, ..Answer::default() }, &rules).unwrap_err().field, "skipped");
    assert_eq!(for_task(TaskKind::Esa).span_scheme(), Some(Scheme::Esa));
    assert_eq!(for_task(TaskKind::Esa).layout(), Layout::Document);
}

/// What the rest of the tree asks a protocol instead of naming it: the raw range of an
/// analysis task under the names real data carries (before, results and DArr read it from the
/// name, `starts_with("word-order")`), the HIT builder's part, what is shown beside the text.
#[test]
fn the_registry_answers_for_every_task() {
    assert_eq!(raw_range("word-order-q1"), RawRange::Unit);
    assert_eq!(raw_range("word-order-q2"), RawRange::Unit);
    assert_eq!(raw_range(TaskKind::Ranking.as_str()), RawRange::Unit);
    for t in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased, TaskKind::Esa] {
        assert_eq!(raw_range(t.as_str()), RawRange::Percent, "{t:?}");
    }
    // A DA file's own task name is DA's.
    assert_eq!(raw_range("ad"), RawRange::Percent);
    assert_eq!((RawRange::Unit.label(), RawRange::Unit.decimals()), ("0–1", 3));
    let plans: Vec<HitPlan> = TaskKind::ALL.iter().map(|&t| for_task(t).hit_plan()).collect();
    use HitPlan::*;
    assert_eq!(plans, [Items, Items, Items, WordOrderPairs, Blocks, Documents, Documents, Pairs, Items, Blocks]);
    let beside: Vec<Beside> = TaskKind::ALL.iter().map(|&t| for_task(t).beside()).collect();
    use Beside::*;
    assert_eq!(beside, [Reference, Nothing, Source, Reference, Source, Source, Source, Source, Source, Source]);
    assert_eq!(for_task(TaskKind::DaFluency).degrader(), Degrader::Fluency);
    assert_eq!(for_task(TaskKind::WordOrder).degrader(), Degrader::WordOrder);
    // Every protocol but post-editing has practice (ranking and pairwise preference since issue 38
    // row 15 and issue 37 item 6): those of several outputs are judged by the original's share of
    // the win against its copy, which a careful reader makes 1, and explained in their own words.
    // Post-editing has none yet (a practice post-edit needs feedback of its own), nor contrastive
    // ESA (its practice screen would score each output, not rank them).
    let without = [TaskKind::PostEdit, TaskKind::ContrastiveEsa];
    assert!(without.iter().all(|&t| for_task(t).practice().is_none() && !t.designer().practice));
    assert!(TaskKind::ALL.iter().filter(|t| !without.contains(t)).all(|&t| for_task(t).practice().is_some() && t.designer().practice));
    for (t, feedback) in [(TaskKind::Ranking, Feedback::Ranks), (TaskKind::Pairwise, Feedback::Pair)] {
        let rule = for_task(t).practice().unwrap();
        assert_eq!((rule.feedback, rule.high.0, rule.low.0), (feedback, ORIGINAL_PREFERRED, ORIGINAL_PREFERRED), "{t:?}");
        let expected = Practice { high: true, range1: rule.high.0, range2: rule.high.1 };
        let share = |s: f64| Answer { score: Some(s), ..Answer::default() };
        assert!(for_task(t).practice_matches(&expected, &share(1.0)), "{t:?}");
        assert!(!for_task(t).practice_matches(&expected, &share(0.5)) && !for_task(t).practice_matches(&expected, &share(0.0)), "{t:?}");
    }
    let names: std::collections::BTreeSet<&str> = TaskKind::ALL.iter().map(|&t| for_task(t).simulated_name()).collect();
    assert_eq!(names.len(), TaskKind::ALL.len(), "each task's simulated items have a name of their own");
}
