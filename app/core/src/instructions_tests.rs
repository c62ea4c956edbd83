use super::*;

#[test]
fn paragraphs_and_lists() {
    let text = "First line\nsecond line\n\n- one\n- two\n  continued\n\n\n* three\nAfter <b>&amp;</b>\r\n\r\nEnd";
    assert_eq!(
        blocks(text),
        vec![
            Block::Paragraph("First line\nsecond line".into()),
            Block::List(vec!["one".into(), "two continued".into()]),
            Block::List(vec!["three After <b>&amp;</b>".into()]),
            Block::Paragraph("End".into()),
        ]
    );
    assert_eq!(blocks(""), vec![]);
    assert_eq!(blocks(" \n\n "), vec![]);
    assert_eq!(blocks("Para\n- item"), vec![Block::Paragraph("Para".into()), Block::List(vec!["item".into()])]);
}

#[test]
fn every_default_page_has_paragraphs_a_list_and_examples() {
    use crate::model::TaskKind;
    for task in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased, TaskKind::WordOrder, TaskKind::Ranking] {
        let w = crate::settings::Wording::for_task(task, "German", "Czech");
        let b = blocks(&w.instructions);
        assert!(b.iter().filter(|b| matches!(b, Block::Paragraph(_))).count() >= 2, "{task:?}: {b:?}");
        assert!(b.iter().any(|b| matches!(b, Block::List(items) if items.len() >= 2)), "{task:?}: {b:?}");
        assert!(w.instructions.contains("Example"), "{task:?}");
    }
}
