#[test]
fn word_order_and_ranking_scores_are_labelled_0_to_1() {
    assert_eq!(super::raw_scale("word-order-q1"), ("0–1", 3));
    assert_eq!(super::raw_scale("word-order-q2"), ("0–1", 3));
    assert_eq!(super::raw_scale("ranking"), ("0–1", 3));
    assert_eq!(super::raw_scale("da-adequacy"), ("0–100", 1));
}
