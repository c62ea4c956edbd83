//! Validation: an answer as the browser sends it, the campaign's rules it is checked against, and
//! the check itself (the request's key, times and position, then the task's protocol).

use super::assignment::Loaded;
use super::error::WorkError;
use crate::annotate::ItemView;
use crate::model::TaskKind;
use assay_core::i18n::Message;
use assay_core::protocol;
use assay_core::protocol::pairwise::{Preference, ScreenPick};
use std::sync::Arc;

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
    /// Error spans and a document score (ESA); empty for every other task.
    pub detail: protocol::Detail,
}

/// What an answer is checked against: the campaign's task and its answer rules, and the HIT's
/// length.
#[derive(Clone, Debug)]
pub(super) struct Rules {
    pub(super) task: TaskKind,
    pub(super) total: i64,
    pub(super) answers: protocol::AnswerRules,
    /// MQM: the campaign's categories, severities, error cap and weights.
    pub(super) mqm: Option<Arc<assay_core::protocol::mqm::MqmSettings>>,
}

impl Rules {
    pub(super) fn of(a: &Loaded) -> Rules {
        let screen = crate::annotate::screen_settings(&a.settings, a.task, &a.target_lang, "");
        Rules {
            task: a.task,
            total: a.total,
            answers: protocol::AnswerRules { allow_skip: screen.allow_skip, woj_sliders: screen.woj_sliders, outputs: screen.rank_outputs },
            mqm: (protocol::for_task(a.task).span_scheme() == Some(protocol::Scheme::Mqm))
                .then(|| Arc::new(assay_core::settings::CampaignSettings::read(&a.settings, a.task, "", "").mqm)),
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

/// `text` with its first letter in upper case (a message that starts a sentence).
fn upper_first(text: &str) -> String {
    let mut c = text.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
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
    let task = a.task;
    let mut given = protocol::Answer { score: answer.score, score2: answer.score2, skipped: answer.skipped, detail: answer.detail.clone() };
    // Pairwise preference: the browser names the side clicked, as its score (1 the left
    // translation, ½ about the same, 0 the right one; `screens::pairwise`) or as a preference
    // whose `a` is the left output; the stored preference names the outputs, by the side the
    // item was shown with, which only the server knows.
    if let Some(left) = item.and_then(|v| v.pair_left)
        && !given.skipped
    {
        let pick = match (given.detail.preference, given.score) {
            (Some(shown), _) => shown.screen_pick(),
            (None, Some(s)) if s == 1.0 => ScreenPick::Left,
            (None, Some(s)) if s == 0.5 => ScreenPick::Same,
            (None, Some(s)) if s == 0.0 => ScreenPick::Right,
            _ => return Err(WorkError::Invalid("Please choose A, B or \u{201c}about the same\u{201d} before going on (score 1, 0 or 0.5).".into())),
        };
        given = protocol::Answer { detail: protocol::Detail { preference: Some(Preference::from_screen(left, pick)), ..Default::default() }, ..Default::default() };
    } else if given.detail.preference.is_some() {
        return Err(WorkError::Invalid("This item shows one translation; there is no pair to choose from.".into()));
    }
    let text = item.map_or("", |v| v.hidden_output.as_deref().unwrap_or(&v.candidate));
    let mut stored = protocol::validate_on(task, text, &given, &a.answers).map_err(|e| WorkError::Invalid(Message::plain(e.problem)))?;
    // A post-edit: its score from the text shown ("no change needed" stores that text).
    assay_core::metrics::postedit::settle(text, &mut stored);
    // MQM: the campaign's categories, severities and cap; the score is −Σ weights.
    if let Some(m) = &a.mqm {
        m.apply(text, &mut stored).map_err(|e| WorkError::Invalid(Message::plain(format!("{}.", upper_first(&e.to_string())))))?;
    }
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
