use super::*;

fn answer(left: Side, winner: Winner) -> Answer {
    Answer { detail: Detail { preference: Some(Preference { left, winner }), ..Detail::default() }, ..Answer::default() }
}

#[test]
fn a_choice_is_stored_with_its_sides_and_as_a_share_of_the_win() {
    let rules = AnswerRules::default();
    for (winner, score) in [(Winner::A, 1.0), (Winner::Tie, 0.5), (Winner::B, 0.0)] {
        for left in [Side::A, Side::B] {
            let stored = PairwisePreference.validate_answer(&answer(left, winner), &rules).unwrap();
            assert_eq!(stored.score, Some(score));
            assert_eq!(stored.detail.preference, Some(Preference { left, winner }));
            assert_eq!(Winner::of_score(score), Some(winner));
            // The sides and the choice survive the JSON column (and nothing else is in it).
            let column = stored.detail.to_column().unwrap();
            assert_eq!(Detail::from_column(Some(&column)).unwrap(), stored.detail);
        }
    }
    assert_eq!(
        answer(Side::B, Winner::Tie).detail.to_column().unwrap(),
        r#"{"preference":{"left":"b","winner":"tie"}}"#
    );
    // A score that agrees with the choice is accepted.
    let with_score = Answer { score: Some(1.0), ..answer(Side::A, Winner::A) };
    assert_eq!(PairwisePreference.validate_answer(&with_score, &rules).unwrap().score, Some(1.0));
}

#[test]
fn an_old_detail_without_a_preference_still_reads() {
    let d = Detail::from_column(Some(r#"{"rank":2}"#)).unwrap();
    assert_eq!(d.rank, Some(2));
    assert_eq!(d.preference, None);
}

#[test]
fn wrong_answers_are_refused_with_the_part_at_fault() {
    let rules = AnswerRules::default();
    let p = &PairwisePreference;
    let e = p.validate_answer(&Answer::default(), &rules).unwrap_err();
    assert_eq!(e.field, "detail");
    assert!(e.problem.contains("Please choose A, B"), "{}", e.problem);
    let e = p.validate_answer(&Answer { score: Some(0.0), ..answer(Side::A, Winner::A) }, &rules).unwrap_err();
    assert_eq!(e.field, "score");
    assert!(e.problem.contains("does not match the choice \"a\""), "{}", e.problem);
    let e = p.validate_answer(&Answer { score2: Some(1.0), ..answer(Side::A, Winner::A) }, &rules).unwrap_err();
    assert_eq!(e.field, "score2");
    let mut ranked = answer(Side::A, Winner::B);
    ranked.detail.rank = Some(1);
    assert_eq!(p.validate_answer(&ranked, &rules).unwrap_err().field, "detail");
    let mut doc = answer(Side::A, Winner::B);
    doc.detail.document_score = Some(50.0);
    assert_eq!(p.validate_answer(&doc, &rules).unwrap_err().field, "detail");
    // A preference is no part of a DA answer.
    let e = super::super::for_task(crate::model::TaskKind::DaAdequacy).validate_answer(&Answer { score: Some(50.0), ..answer(Side::A, Winner::A) }, &rules).unwrap_err();
    assert_eq!(e.field, "detail");
}

#[test]
fn the_screen_pick_maps_onto_the_outputs_through_the_recorded_sides() {
    assert_eq!(Preference::from_screen(Side::A, ScreenPick::Left).winner, Winner::A);
    assert_eq!(Preference::from_screen(Side::A, ScreenPick::Right).winner, Winner::B);
    assert_eq!(Preference::from_screen(Side::B, ScreenPick::Left).winner, Winner::B);
    assert_eq!(Preference::from_screen(Side::B, ScreenPick::Right).winner, Winner::A);
    assert_eq!(Preference::from_screen(Side::B, ScreenPick::Same).winner, Winner::Tie);
    for left in [Side::A, Side::B] {
        for pick in [ScreenPick::Left, ScreenPick::Right, ScreenPick::Same] {
            assert_eq!(Preference::from_screen(left, pick).screen_pick(), pick);
        }
    }
    assert_eq!(Winner::parse(" TIE "), Some(Winner::Tie));
    assert_eq!(Winner::parse("left"), None);
    assert_eq!(Winner::A.flipped(), Winner::B);
    assert_eq!(Side::A.other(), Side::B);
}

#[test]
fn the_protocol_shows_two_outputs_and_hides_degraded_copies_and_repeats() {
    let p = &PairwisePreference;
    assert_eq!(p.layout(), Layout::Several { outputs: 2 });
    assert_eq!(p.quality_control(), &[ItemType::BadRef, ItemType::Repeat]);
    assert_eq!(p.questions().len(), 1);
    assert!(matches!(p.questions()[0].scale, Scale::Categorical { categories: 3 }));
    assert_eq!((p.questions()[0].read)(&Answer { score: Some(0.5), ..Answer::default() }), Some(0.5));
}

/// Registered as a campaign task: the registry answers for it, its wording is the catalog's in
/// every language, and a stored English default reads in the worker's language.
#[test]
fn pairwise_preference_is_a_registered_task_with_its_wording_in_every_language() {
    use crate::i18n::Lang;
    use crate::model::TaskKind;
    use crate::protocol::{HitPlan, for_task};
    use crate::settings::Wording;
    assert_eq!(TaskKind::parse("pairwise"), Some(TaskKind::Pairwise));
    let p = for_task(TaskKind::Pairwise);
    assert_eq!((p.name(), p.hit_plan(), p.layout(), p.simulated_name()), ("pairwise preference", HitPlan::Pairs, Layout::Several { outputs: 2 }, "pw"));
    assert_eq!(p.quality_control(), &[ItemType::BadRef, ItemType::Repeat]);
    let d = TaskKind::Pairwise.designer();
    assert!(d.pairs && d.label_source && d.label_reference && !d.item_checks && !d.ranking);
    let w = crate::wording::protocol_wording(p, Lang::En, "German", "English");
    assert_eq!(w.statement, "Which translation is better?");
    assert!(w.instructions.contains("a sentence in English and two translations of it into German"), "{}", w.instructions);
    assert!(w.instructions.contains("press 1 for A, 2 for B, 3 for about the same"), "{}", w.instructions);
    for lang in Lang::ALL {
        let own = crate::wording::default_wording(TaskKind::Pairwise, lang, "German", "English");
        assert!(!own.statement.is_empty() && !own.instructions.contains("{target}") && !own.instructions.contains("{source}"), "{lang:?}");
        assert!(own.instructions.contains('1') && own.instructions.contains('3'), "{lang:?}: the keys are named");
        assert!(!lang.text(crate::i18n::Text::HomeTaskPairwise).is_empty());
    }
    let w = crate::wording::localize(Wording::for_task(TaskKind::Pairwise, "German", "English"), TaskKind::Pairwise, Lang::De, ("de", "German"), ("en", "English"));
    assert_eq!(w.statement, "Welche Übersetzung ist besser?");
    assert!(w.instructions.contains("natürlichem Deutsch"), "{}", w.instructions);
}
