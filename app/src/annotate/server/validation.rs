//! Validation: an answer as the browser sends it, the campaign's rules it is checked against, and
//! the check itself (the request's key, times and position, then the task's protocol).

use super::assignment::Loaded;
use super::error::WorkError;
use crate::annotate::ItemView;
use crate::model::TaskKind;
use assay_core::i18n::Message;
use assay_core::protocol;
use assay_core::stored_answer::{self, CampaignAnswerRules};

/// The longest time on screen accepted for one item (a day), in milliseconds.
pub const MAX_TIME_ON_SCREEN_MS: i64 = 24 * 3600 * 1000;

/// One answer as the browser sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub position: i64,
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub skipped: bool,
    /// Time the item was on screen, measured by the browser.
    pub time_on_screen_ms: i64,
    /// Of that, the time the page was in use (visible, focused, input within the campaign's
    /// idle gap), measured by the browser; `None` when not sent.
    pub active_ms: Option<i64>,
    /// Chosen by the browser per item; a retry sends the same key.
    pub idempotency_key: String,
    /// What the task's protocol answers besides scores (error spans, a document score, …);
    /// empty for a protocol that answers with scores only.
    pub detail: protocol::Detail,
}

/// What an answer is checked against: the campaign's task and its answer rules, and the HIT's
/// length.
#[derive(Clone, Debug)]
pub(super) struct Rules {
    pub(super) task: TaskKind,
    pub(super) total: i64,
    pub(super) answers: protocol::AnswerRules,
    /// The campaign's rules of the task's own (read once).
    pub(super) campaign: CampaignAnswerRules,
}

impl Rules {
    pub(super) fn of(a: &Loaded) -> Rules {
        let screen = crate::annotate::screen_settings(&a.settings, a.task, &a.target_lang, "");
        Rules {
            task: a.task,
            total: a.total,
            answers: protocol::AnswerRules { allow_skip: screen.allow_skip, woj_sliders: screen.woj_sliders, outputs: screen.rank_outputs },
            campaign: CampaignAnswerRules::of(a.task, || assay_core::settings::CampaignSettings::read(&a.settings, a.task, "", "")),
        }
    }
}

/// The active time of an answer is at most its time on screen.
pub(super) fn check_active(active_ms: Option<i64>, time_on_screen_ms: i64) -> Result<(), WorkError> {
    match active_ms {
        Some(t) if !(0..=time_on_screen_ms).contains(&t) => Err(WorkError::Invalid(Message::plain(format!(
            "The active time must be between 0 and the time on screen ({time_on_screen_ms} ms); got {t}."
        )))),
        _ => Ok(()),
    }
}

/// [`validate_on`] for an answer without spans: the (score, score2) to store.
#[cfg(test)]
pub(super) fn validate(a: &Rules, answer: &Answer) -> Result<(Option<f64>, Option<f64>), WorkError> {
    validate_on(a, None, answer).map(|s| (s.score, s.score2))
}

/// Checks the request (key, time, position), then the answer by the task's protocol against
/// the item shown (`item`: its text for error spans, its document for a document score;
/// [`protocol::validate_on`]); returns the answer to store.
pub(super) fn validate_on(a: &Rules, item: Option<&ItemView>, answer: &Answer) -> Result<protocol::Answer, WorkError> {
    let key = answer.idempotency_key.trim();
    if key.is_empty() || key.len() > 100 || key.chars().any(char::is_control) {
        return Err(WorkError::Invalid("The request needs an idempotency key of 1 to 100 printable characters.".into()));
    }
    if !(0..=MAX_TIME_ON_SCREEN_MS).contains(&answer.time_on_screen_ms) {
        return Err(WorkError::Invalid(Message::plain(format!(
            "The time on screen must be between 0 and {MAX_TIME_ON_SCREEN_MS} ms (got {}).",
            answer.time_on_screen_ms
        ))));
    }
    check_active(answer.active_ms, answer.time_on_screen_ms)?;
    if answer.position < 0 || answer.position >= a.total {
        // Named as the page numbers items (from 1), without wrapping at the ends of i64.
        return Err(WorkError::Invalid(Message::plain(format!(
            "This HIT has items 1 to {}; there is no item {}.",
            a.total,
            i128::from(answer.position) + 1
        ))));
    }
    let given = protocol::Answer { score: answer.score, score2: answer.score2, skipped: answer.skipped, detail: answer.detail.clone() };
    // The output judged (or edited): the one kept on the server when the screen does not show it.
    let text = item.map_or("", |v| v.hidden_output.as_deref().unwrap_or(&v.candidate));
    // Checked by the task's protocol, with what the server alone knows (a pair's sides, the
    // text shown, the campaign's own rules): `stored_answer::settle`.
    let stored = stored_answer::settle(a.task, text, item.and_then(|v| v.pair_left), &given, &a.answers, &a.campaign)
        .map_err(|problem| WorkError::Invalid(Message::plain(problem.0)))?;
    // A document score comes with a document's last segment when the campaign asks for one,
    // and with no other segment.
    let wanted = item.and_then(|v| v.document.as_ref()).is_some_and(|d| d.document_score);
    match (wanted, stored.detail.document_score.is_some()) {
        (true, false) if !stored.skipped => {
            return Err(WorkError::Invalid("Please also score the whole document before going on.".into()));
        }
        (false, true) => return Err(WorkError::Invalid("Only the last segment of a document takes a document score.".into())),
        _ => {}
    }
    Ok(stored)
}
