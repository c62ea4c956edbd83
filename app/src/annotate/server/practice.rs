//! Practice (issue 18): items of their own table, answered before Start, scored against expected
//! ranges, never judgments. The worker's progress is kept per campaign, so a reload or the
//! worker's next HIT of the campaign does not repeat a practice already passed.

use super::assignment::{Loaded, load};
use super::error::WorkError;
use super::validation::Rules;
use crate::annotate::ItemView;
use crate::db::{Db, now_ms};
use crate::model::{AssignmentStatus, TaskKind};
use assay_core::i18n::{Message, Text, fill};
use assay_core::protocol;

crate::rows::row! {
    /// A row of `practice_items`.
    struct PracticeRow {
        position: i64,
        context: Option<String>,
        candidate: String,
        expect_high: i64,
        expect_low1: f64,
        expect_high1: f64,
        expect_low2: f64,
        expect_high2: f64,
        reason: String,
        others: Option<String>,
        original_at: Option<i64>,
    }
}

impl PracticeRow {
    /// The item as the screen shows it: one output, or the first of several (a pair: with the
    /// second on the right, as a real pair; a screen ranked together: the rest in
    /// [`PracticeRow::together`], as a real screen's).
    pub(super) fn view(&self, task: TaskKind) -> ItemView {
        let pair = protocol::for_task(task).practice().is_some_and(|r| r.feedback == protocol::Feedback::Pair);
        let others = if pair { self.core().others } else { Vec::new() };
        ItemView {
            position: self.position,
            candidate: self.candidate.clone(),
            context: self.context.clone(),
            reference: None,
            screen: None,
            document: None,
            prefilled: Vec::new(),
            right: others.first().cloned(),
            pair_left: None,
            hidden_output: None,
        }
    }

    /// A screen of several outputs ranked together: the outputs after the first, as a real
    /// screen's rest (none for a pair, whose second output is its item's right side).
    pub(super) fn together(&self, task: TaskKind) -> Vec<ItemView> {
        let first = self.view(task);
        if first.right.is_some() {
            return Vec::new();
        }
        self.core().others.into_iter().map(|candidate| ItemView { candidate, ..first.clone() }).collect()
    }

    /// The practice item as the core built it (its outputs and which one is the original).
    fn core(&self) -> assay_core::hit::practice::PracticeItem {
        let expected = self.expected();
        assay_core::hit::practice::PracticeItem {
            text: 0,
            context: self.context.clone(),
            candidate: self.candidate.clone(),
            high: expected.high,
            range1: expected.range1,
            range2: expected.range2,
            reason: self.reason.clone(),
            // Written by the launch from a list of strings: anything else is no list.
            others: self.others.as_deref().and_then(|o| serde_json::from_str(o).ok()).unwrap_or_default(),
            original: self.original_at.and_then(|o| usize::try_from(o).ok()),
        }
    }

    /// What a careful reader answers to it.
    pub(super) fn expected(&self) -> protocol::Practice {
        protocol::Practice { high: self.expect_high != 0, range1: (self.expect_low1, self.expect_high1), range2: (self.expect_low2, self.expect_high2) }
    }
}

async fn practice_items(db: &Db, campaign_id: i64) -> Result<Vec<PracticeRow>, WorkError> {
    Ok(sqlx::query_as(
        "SELECT position, context, candidate, expect_high, expect_low1, expect_high1, expect_low2, expect_high2, reason, others, original_at \
         FROM practice_items WHERE campaign_id = $1 ORDER BY position",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await?)
}

/// (next position, answers in range this round, rounds, passed) of a worker in a campaign.
async fn practice_progress(db: &Db, a: &Loaded) -> Result<(i64, i64, i64, bool), WorkError> {
    let row: Option<(i64, i64, i64, Option<i64>)> = sqlx::query_as(
        "SELECT next_position, matched, rounds, passed_at FROM practice_progress WHERE campaign_id = $1 AND worker_id = $2",
    )
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|(n, m, r, p)| (n, m, r, p.is_some())).unwrap_or((0, 0, 1, false)))
}

/// How many practice answers in range the campaign asks for (at most the items there are).
fn practice_required(a: &Loaded, items: usize) -> i64 {
    crate::campaign::CampaignSettings::read(&a.settings, a.task, "", "").practice_pass.min(items) as i64
}

/// Where the worker stands in the campaign's practice; `None` when it has none.
pub(super) async fn practice_view(db: &Db, a: &Loaded) -> Result<Option<crate::annotate::PracticeView>, WorkError> {
    let items = practice_items(db, a.campaign_id).await?;
    if items.is_empty() {
        return Ok(None);
    }
    let (next, matched, round, passed) = practice_progress(db, a).await?;
    let current = if passed { None } else { items.get(usize::try_from(next).unwrap_or(0)) };
    let (item, together) = (current.map(|c| c.view(a.task)), current.map(|c| c.together(a.task)).unwrap_or_default());
    Ok(Some(crate::annotate::PracticeView {
        total: items.len() as i64,
        required: practice_required(a, items.len()),
        position: next,
        matched,
        round,
        passed,
        item,
        together,
    }))
}

/// Stores nothing but the worker's progress: checks a practice answer against its expected
/// range and says what a careful reader would answer and why. The next practice item (or the
/// round's end) is in the returned view.
pub async fn practice_answer(
    db: &Db,
    caller: Option<i64>,
    public_id: &str,
    position: i64,
    score: Option<f64>,
    score2: Option<f64>,
) -> Result<crate::annotate::PracticeFeedback, WorkError> {
    practice_answer_in(db, caller, public_id, position, PracticeGiven { score, score2, ..Default::default() }, None).await
}

/// A practice answer as sent: a score (DA, ESA), a second (word order), error spans (ESA, MQM),
/// a rank per output shown (a screen of several outputs ranked; a pair is answered by the
/// side clicked as its score, as a real pair: 1 the left output, ½ about the same, 0 the right).
#[derive(Clone, Debug, Default)]
pub struct PracticeGiven {
    pub score: Option<f64>,
    pub score2: Option<f64>,
    pub spans: Vec<protocol::Span>,
    pub ranks: Vec<u32>,
}

/// The ranks of a practice screen of `outputs` outputs as sent: as they are, or a pair's
/// side clicked (1 the left output, ½ about the same, 0 the right), each output's rank in
/// 1 ..= `top`, one per output.
fn practice_ranks(given: &PracticeGiven, outputs: usize, top: usize) -> Result<Vec<u32>, WorkError> {
    let choose = || WorkError::Invalid(assay_core::stored_answer::CHOOSE_A_SIDE.into());
    let ranks = match (given.ranks.is_empty(), outputs) {
        (false, _) => given.ranks.clone(),
        (true, 2) => assay_core::stored_answer::pair_ranks(given.score).ok_or_else(choose)?.to_vec(),
        _ => return Err(choose()),
    };
    let top = top.max(outputs);
    if ranks.len() != outputs || ranks.iter().any(|&r| r == 0 || r as usize > top) || given.score2.is_some() || !given.spans.is_empty() {
        return Err(WorkError::Invalid(Message::plain(format!(
            "This practice screen shows {outputs} translations: give each a rank from 1 (best) to {top}, and nothing else."
        ))));
    }
    Ok(ranks)
}

/// [`practice_answer`] with its feedback in the interface language of a browser that reads the
/// languages of `accept_language`.
pub async fn practice_answer_in(
    db: &Db,
    caller: Option<i64>,
    public_id: &str,
    position: i64,
    given: PracticeGiven,
    accept_language: Option<&str>,
) -> Result<crate::annotate::PracticeFeedback, WorkError> {
    let a = load(db, caller, public_id).await?;
    a.check_live()?;
    if a.started() || a.status == AssignmentStatus::Completed {
        return Err(WorkError::Conflict(Text::ErrPracticeOver.into()));
    }
    let items = practice_items(db, a.campaign_id).await?;
    if items.is_empty() {
        return Err(WorkError::Invalid("This campaign has no practice items.".into()));
    }
    let (next, matched, round, passed) = practice_progress(db, &a).await?;
    if passed {
        return Err(WorkError::Conflict(Text::ErrPracticeDone.into()));
    }
    if position != next {
        return Err(WorkError::Conflict(Message::new(Text::ErrPracticeNotCurrent, &[("n", &(next + 1).to_string())])));
    }
    let item = items.get(usize::try_from(position).unwrap_or(usize::MAX)).ok_or_else(|| WorkError::Internal(format!("no practice item {position}")))?;
    let rules = Rules::of(&a);
    let task = rules.task;
    // Checked as a real answer to the text shown is (its spans against that text), then by the
    // protocol against what a careful reader answers.
    // A screen of several outputs (a pair, outputs ranked together) is answered by the original's
    // share of the win against its copy, from the ranks given (`PracticeItem::original_share`).
    let core = item.core();
    let (stored, ranks) = if core.original.is_some() {
        let ranks = practice_ranks(&given, core.others.len() + 1, rules.answers.outputs)?;
        let share = core.original_share(&ranks).ok_or_else(|| WorkError::Internal(format!("practice item {position} has no original among its outputs")))?;
        (protocol::Answer { score: Some(share), ..Default::default() }, ranks)
    } else {
        let answer = protocol::Answer {
            score: given.score,
            score2: given.score2,
            skipped: false,
            detail: protocol::Detail { spans: given.spans, ..Default::default() },
        };
        (protocol::validate_on(task, &item.candidate, &answer, &rules.answers).map_err(|e| WorkError::Invalid(Message::plain(e.problem)))?, Vec::new())
    };
    let spans_task = task.marks_spans();
    if stored.score.is_none() && !spans_task {
        return Err(WorkError::Invalid("A practice item needs an answer.".into()));
    }
    let in_range = protocol::for_task(task).practice_matches(&item.expected(), &stored);
    let feedback = protocol::for_task(task).practice().map_or(protocol::Feedback::Slider, |r| r.feedback);
    let woj = feedback == protocol::Feedback::Boxes;
    let value = stored.score.unwrap_or(0.0);

    let total = items.len() as i64;
    let required = practice_required(&a, items.len());
    let now = now_ms();
    let matched_now = matched + i64::from(in_range);
    let last = position + 1 >= total;
    let passes = last && matched_now >= required;
    let (new_next, new_matched, new_round, passed_at) = match (last, passes) {
        (false, _) => (position + 1, matched_now, round, None),
        (true, true) => (total, matched_now, round, Some(now)),
        (true, false) => (0, 0, round + 1, None),
    };
    let mut tx = db.writer.begin().await?;
    sqlx::query(
        "INSERT INTO practice_progress (campaign_id, worker_id, next_position, matched, rounds, updated_at) VALUES ($1, $2, 0, 0, 1, $3) \
         ON CONFLICT (campaign_id, worker_id) DO NOTHING",
    )
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let moved = sqlx::query(
        "UPDATE practice_progress SET next_position = $1, matched = $2, rounds = $3, passed_at = $4, updated_at = $5 \
         WHERE campaign_id = $6 AND worker_id = $7 AND next_position = $8 AND rounds = $9 AND passed_at IS NULL",
    )
    .bind(new_next)
    .bind(new_matched)
    .bind(new_round)
    .bind(passed_at)
    .bind(now)
    .bind(a.campaign_id)
    .bind(a.worker_id)
    .bind(position)
    .bind(round)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if moved != 1 {
        tx.rollback().await?;
        return Err(WorkError::Conflict(Text::ErrPracticeAnswered.into()));
    }
    tx.commit().await?;

    let screen = crate::annotate::localized_screen_settings(&a.settings, a.task, &a.target_lang, &a.source_lang, accept_language);
    let (l, w) = (screen.ui, &screen.wording);
    let reason = assay_core::i18n::practice_reason(l, &item.reason);
    let high = item.expect_high != 0;
    // A screen of several outputs: each output's label on the screen, the original's, and its
    // copies'.
    let labels: Vec<String> = (0..=core.others.len())
        .map(|k| match (feedback, k) {
            (protocol::Feedback::Pair, 0) => l.msg(crate::annotate::Msg::PairTranslationA).to_string(),
            (protocol::Feedback::Pair, _) => l.msg(crate::annotate::Msg::PairTranslationB).to_string(),
            _ => fill(l.msg(crate::annotate::Msg::TranslationN), &[("n", &(k + 1).to_string())]),
        })
        .collect();
    let original = core.original.unwrap_or(0);
    let better = labels.get(original).cloned().unwrap_or_default();
    let worse = labels.iter().enumerate().filter(|&(k, _)| k != original).map(|(_, s)| s.as_str()).collect::<Vec<_>>().join(", ");
    let message = match (feedback, high) {
        (protocol::Feedback::Pair, _) => fill(l.text(Text::FeedbackPair), &[("better", &better), ("worse", &worse), ("reason", &reason)]),
        (protocol::Feedback::Ranks, _) => fill(l.text(Text::FeedbackRanks), &[("better", &better), ("worse", &worse), ("reason", &reason)]),
        (protocol::Feedback::Boxes, true) => fill(l.text(Text::FeedbackWojHigh), &[("high1", &w.woj_high1), ("high2", &w.woj_high2), ("reason", &reason)]),
        (protocol::Feedback::Boxes, false) => fill(l.text(Text::FeedbackWojLow), &[("low2", &w.woj_low2), ("reason", &reason)]),
        (protocol::Feedback::SpansAndScore, true) => fill(l.text(Text::FeedbackSpansHigh), &[("high", &w.anchor_high), ("reason", &reason)]),
        (protocol::Feedback::SpansAndScore, false) => fill(l.text(Text::FeedbackSpansLow), &[("low", &w.anchor_low), ("reason", &reason)]),
        (protocol::Feedback::Spans, true) => fill(l.text(Text::FeedbackMqmHigh), &[("reason", &reason)]),
        (protocol::Feedback::Spans, false) => fill(l.text(Text::FeedbackMqmLow), &[("reason", &reason)]),
        (protocol::Feedback::Slider, true) => {
            fill(l.text(Text::FeedbackHigh), &[("high", &w.anchor_high), ("reason", &reason)])
        }
        (protocol::Feedback::Slider, false) => {
            fill(l.text(Text::FeedbackLow), &[("low", &w.anchor_low), ("reason", &reason)])
        }
    };
    let rating = || fill(l.text(Text::YourRating), &[("words", &crate::annotate::screens::widgets::slider_words(|m| l.msg(m).to_string(), Some(value), &w.anchor_low, &w.anchor_high))]);
    let yours = if feedback == protocol::Feedback::Pair {
        let choice = match ranks.as_slice() {
            [a, b] if a < b => crate::annotate::Msg::PairPickA,
            [a, b] if a > b => crate::annotate::Msg::PairPickB,
            _ => crate::annotate::Msg::PairPickSame,
        };
        fill(l.text(Text::YourPick), &[("choice", l.msg(choice))])
    } else if !ranks.is_empty() {
        let each = labels
            .iter()
            .zip(&ranks)
            .map(|(label, r)| format!("{label}: {}", fill(l.msg(crate::annotate::Msg::RankN), &[("r", &r.to_string())])))
            .collect::<Vec<_>>()
            .join("; ");
        fill(l.text(Text::YourRanks), &[("ranks", &each)])
    } else if woj {
        let words = |v: f64, low: &str, high: &str| match crate::annotate::woj_box(v) {
            Some(b) if !screen.woj_sliders => fill(l.msg(crate::annotate::Msg::BoxN), &[("n", &b.to_string())]),
            _ => crate::annotate::screens::widgets::slider_words(|m| l.msg(m).to_string(), Some(v * 100.0), low, high),
        };
        fill(
            l.text(Text::YourAnswers),
            &[
                ("first", &words(value, &w.woj_low1, &w.woj_high1)),
                ("second", &words(stored.score2.unwrap_or(0.0), &w.woj_low2, &w.woj_high2)),
            ],
        )
    } else if spans_task {
        let spans = &stored.detail.spans;
        let serious = spans.iter().filter(|s| s.severity >= protocol::Severity::Major).count();
        let marked = fill(l.text(Text::YourSpans), &[("n", &spans.len().to_string()), ("major", &serious.to_string())]);
        if stored.score.is_some() { format!("{marked} {}", rating()) } else { marked }
    } else {
        rating()
    };
    let verdict = l.text(if in_range { Text::VerdictIn } else { Text::VerdictOut }).to_string();
    let (matched_s, total_s, required_s) = (matched_now.to_string(), total.to_string(), required.to_string());
    let round_result = last.then(|| {
        let counts = [("matched", matched_s.as_str()), ("total", total_s.as_str()), ("required", required_s.as_str())];
        fill(l.text(if passes { Text::RoundPassed } else { Text::RoundFailed }), &counts)
    });
    let practice = practice_view(db, &a).await?.ok_or_else(|| WorkError::Internal("the practice items disappeared".into()))?;
    let outputs = if core.original.is_some() { labels.into_iter().zip(core.shown().into_iter().map(str::to_string)).collect() } else { Vec::new() };
    Ok(crate::annotate::PracticeFeedback { in_range, message, yours, verdict, round_result, practice, outputs })
}
