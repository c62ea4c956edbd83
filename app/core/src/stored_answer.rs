//! What the server makes of an answer before storing it, beyond the judgment model's check
//! ([`protocol::validate_on`]): the parts particular protocols add (a pair's side clicked turned
//! into a preference that names the outputs, a post-edit's edit rate, MQM's taxonomy and score),
//! and what an item shows that a protocol decides (an output kept on the server). In one place so
//! that the annotation domain (`app::annotate::server`) speaks of "a protocol" only.
//!
//! A module of its own beneath no protocol: it reads `protocol` and `metrics` (post-editing's
//! edit rate), and `metrics` reads `protocol`, so this cannot live in a protocol's folder.

use std::sync::Arc;

use crate::model::TaskKind;
use crate::protocol::mqm::MqmSettings;
use crate::protocol::pairwise::{Preference, ScreenPick};
use crate::protocol::{self, Answer, AnswerRules};
use crate::settings::CampaignSettings;

pub use crate::protocol::pairwise::Side;

/// What the browser is told when a pair's answer names no side (the screen's score: 1 the left
/// output, ½ about the same, 0 the right one).
pub const CHOOSE_A_SIDE: &str = "Please choose A, B or \u{201c}about the same\u{201d} before going on (score 1, 0 or 0.5).";

/// Why an answer cannot be stored, worded for the worker.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AnswerProblem(pub String);

impl From<&str> for AnswerProblem {
    fn from(problem: &str) -> Self {
        AnswerProblem(problem.to_string())
    }
}

/// The campaign's settings an answer is checked against besides [`AnswerRules`]: a protocol's
/// own (MQM's categories, severities, error cap and weights), read once per assignment.
#[derive(Clone, Debug, Default)]
pub struct CampaignAnswerRules {
    mqm: Option<Arc<MqmSettings>>,
}

impl CampaignAnswerRules {
    /// The rules of a campaign of `task`; `settings` is read only when the task's protocol has
    /// rules of its own.
    pub fn of(task: TaskKind, settings: impl FnOnce() -> CampaignSettings) -> CampaignAnswerRules {
        let mqm = (protocol::for_task(task).span_scheme() == Some(protocol::Scheme::Mqm)).then(|| Arc::new(settings().mqm));
        CampaignAnswerRules { mqm }
    }
}

/// Whether an item of `task` starts with an empty field and keeps its output on the server (a
/// post-edit from scratch, as the campaign chooses).
pub fn hides_output(task: TaskKind, settings: &CampaignSettings) -> bool {
    let p = protocol::for_task(task);
    settings.postedit.from_scratch && p.layout() == protocol::Layout::Single && p.beside() == protocol::Beside::Source
}

/// The output on the left of a pair item, as the launch stores it (`a` or `b`).
pub fn stored_side(stored: &str) -> Option<Side> {
    match stored {
        "a" => Some(Side::A),
        "b" => Some(Side::B),
        _ => None,
    }
}

/// A pair item's outputs as the screen shows them: (left, right, which output is on the left),
/// from its outputs `a` and `b` and the side the launch stored (`None` when it is not `a` or `b`).
pub fn pair_on_screen(a: String, b: String, stored_left: Option<&str>) -> Option<(String, String, Side)> {
    match stored_left.and_then(stored_side)? {
        Side::A => Some((a, b, Side::A)),
        Side::B => Some((b, a, Side::B)),
    }
}

/// A pair's side clicked, sent as a score (1 the left output, ½ about the same, 0 the right).
pub fn screen_pick(score: Option<f64>) -> Option<ScreenPick> {
    match score {
        Some(s) if s == 1.0 => Some(ScreenPick::Left),
        Some(s) if s == 0.5 => Some(ScreenPick::Same),
        Some(s) if s == 0.0 => Some(ScreenPick::Right),
        _ => None,
    }
}

/// The ranks (left, right) of a pair's side clicked sent as a score ([`screen_pick`]).
pub fn pair_ranks(score: Option<f64>) -> Option<[u32; 2]> {
    Some(match screen_pick(score)? {
        ScreenPick::Left => [1, 2],
        ScreenPick::Same => [1, 1],
        ScreenPick::Right => [2, 1],
    })
}

/// The answer to store for an item of `task` showing `text` (the output the worker judged or
/// edited), `pair_left` when the item is a pair (the output shown on the left): the side clicked
/// made a preference naming the outputs, which only the server knows; the answer checked by the
/// task's protocol ([`protocol::validate_on`]); a post-edit's edit rate from the text shown; the
/// campaign's own rules ([`CampaignAnswerRules`]).
pub fn settle(task: TaskKind, text: &str, pair_left: Option<Side>, given: &Answer, rules: &AnswerRules, campaign: &CampaignAnswerRules) -> Result<Answer, AnswerProblem> {
    let pair_answer;
    let given = match pair_left {
        Some(left) if !given.skipped => {
            let pick = match given.detail.preference {
                Some(shown) => shown.screen_pick(),
                None => screen_pick(given.score).ok_or(CHOOSE_A_SIDE)?,
            };
            pair_answer = Answer { detail: protocol::Detail { preference: Some(Preference::from_screen(left, pick)), ..Default::default() }, ..Default::default() };
            &pair_answer
        }
        None if given.detail.preference.is_some() => return Err("This item shows one translation; there is no pair to choose from.".into()),
        _ => given,
    };
    let mut stored = protocol::validate_on(task, text, given, rules).map_err(|e| AnswerProblem(e.problem))?;
    // A post-edit: its score from the text shown ("no change needed" stores that text).
    crate::metrics::postedit::settle(text, &mut stored);
    // MQM: the campaign's categories, severities and cap; the score is −Σ weights.
    if let Some(m) = &campaign.mqm {
        m.apply(text, &mut stored).map_err(|e| AnswerProblem(format!("{}.", upper_first(&e.to_string()))))?;
    }
    Ok(stored)
}

/// `text` with its first letter in upper case (a message that starts a sentence).
fn upper_first(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_clicked_is_a_score_and_ranks() {
        assert_eq!(pair_ranks(Some(1.0)), Some([1, 2]));
        assert_eq!(pair_ranks(Some(0.5)), Some([1, 1]));
        assert_eq!(pair_ranks(Some(0.0)), Some([2, 1]));
        assert_eq!(pair_ranks(Some(0.25)), None);
        assert_eq!(pair_ranks(None), None);
        assert_eq!((stored_side("a"), stored_side("b"), stored_side("A")), (Some(Side::A), Some(Side::B), None));
        let on = |left| pair_on_screen("a".into(), "b".into(), left);
        assert_eq!(on(Some("a")), Some(("a".into(), "b".into(), Side::A)));
        assert_eq!(on(Some("b")), Some(("b".into(), "a".into(), Side::B)));
        assert_eq!((on(Some("left")), on(None)), (None, None));
        assert_eq!(upper_first("ésa"), "Ésa");
        assert_eq!(upper_first(""), "");
    }
}
