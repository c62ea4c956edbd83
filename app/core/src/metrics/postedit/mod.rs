//! Post-editing's computations on TER (`protocol::postedit` is the protocol): the score of an
//! answer from the text shown ([`settle`]), a campaign's HTER ([`campaign`]) and its files
//! ([`files`]). Here rather than in the protocol's folder because TER is this module's, and a
//! protocol importing `metrics` would close a circle of modules (metrics → analysis → import →
//! protocol).

pub mod campaign;
pub mod files;

use crate::protocol::Answer;
use crate::protocol::postedit::normalise;

/// The score of a post-edit of `shown`: 100 − min(HTER, 100), HTER as sacrebleu's TER with
/// the post-edit as the reference (default options: lowercased, tercom's tokenization).
pub fn score_of(shown: &str, post_edit: &str) -> f64 {
    let h = crate::metrics::hter::segment_hter(shown, post_edit, &crate::metrics::ter::TerConfig::default()).hter;
    100.0 - h.min(100.0)
}

/// The server's part, with the text shown: "no change needed" stores the text shown, and the
/// score is [`score_of`] the text shown and the post-edit. Answers without a post-edit are left
/// as they are.
pub fn settle(shown: &str, answer: &mut Answer) {
    if let Some(pe) = answer.detail.post_edit.as_mut() {
        if pe.unchanged {
            pe.text = normalise(shown).unwrap_or_else(|_| shown.trim().to_string());
        }
        answer.score = Some(score_of(shown, &pe.text));
    }
}

