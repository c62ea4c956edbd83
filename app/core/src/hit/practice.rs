//! Practice items (issue 18): what a worker answers, with feedback, before the first real item
//! of a campaign. Built at launch from the campaign's own test set with the degraders of
//! METHOD §3, so an organizer gets practice without writing any:
//!
//! - a human reference shown as its own candidate: a careful reader scores it **high**;
//! - a copy of a reference degraded more strongly than a bad reference (the degrader applied
//!   until about a third of the words are affected): a careful reader scores it **low**, and the
//!   feedback names what the degrader changed ("the words “…” were left out").
//!
//! A protocol whose screen shows several outputs of one source (pairwise preference, relative
//! ranking: `Layout::Several`) gets a screen of a human reference beside its strongly degraded
//! copy, in an order drawn per item: a careful reader prefers the original (pairwise) or ranks
//! the copy below it (ranking), and the feedback names what the degrader changed in the copy.
//!
//! The segments used are set apart from the campaign's HITs (the launch leaves them out of the
//! HIT builder's candidates), so no practice text comes back as a real item: practice cannot
//! teach which real items are quality control. Pure and deterministic from the seed.

use crate::i18n::{Lang::En, Text};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::degrade::{
    AdequacyPolicy, Change, Degradation, DegradeContext, Segmentation, WordOrderKind, degrade, item_seed, tokenize,
};
use crate::model::TaskKind;

/// One test-set segment practice may be built from.
#[derive(Clone, Copy, Debug)]
pub struct PracticeText<'a> {
    pub source: &'a str,
    pub reference: &'a str,
}

/// A practice item: the texts shown (as a real item of the task shows them), what a careful
/// reader answers, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PracticeItem {
    /// Index of the [`PracticeText`] it was built from.
    pub text: usize,
    /// The gray text (adequacy, word order's second sentence) or the source (source-based DA);
    /// `None` for fluency.
    pub context: Option<String>,
    /// The text to judge (word order: the first sentence).
    pub candidate: String,
    /// A careful reader scores it high (else low).
    pub high: bool,
    /// The expected range of the answer: DA 0–100; word order question 1, 0–1.
    pub range1: (f64, f64),
    /// Word order question 2 (0–1); `(0, 1)` for DA.
    pub range2: (f64, f64),
    /// Why, as the end of "A careful reader would … because …".
    pub reason: String,
    /// A screen of several outputs (pairwise preference, ranking): the outputs shown after
    /// `candidate`, in the screen's order (pairwise: the right one). Empty for one output.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<String>,
    /// A screen of several outputs: which one is the original (0: `candidate`, k: `others[k −
    /// 1]`); every other is a degraded copy of it. `None` for one output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<usize>,
}

/// DA: a text a careful reader scores high lands at 60 or more; one scored low at 50 or less.
pub use crate::protocol::{DA_HIGH, DA_LOW, WOJ_HIGH, WOJ_LOW};
use crate::protocol::{Beside, Degrader, Layout, for_task};
/// Word order: the two upper boxes (.75, 1) for an unchanged sentence; question 2 in the three
/// lower boxes (0 – .5) for a strongly permuted one.

impl PracticeItem {
    /// What a careful reader answers to it.
    pub fn expected(&self) -> crate::protocol::Practice {
        crate::protocol::Practice { high: self.high, range1: self.range1, range2: self.range2 }
    }

    /// The outputs shown, in the screen's order.
    pub fn shown(&self) -> Vec<&str> {
        std::iter::once(self.candidate.as_str()).chain(self.others.iter().map(String::as_str)).collect()
    }

    /// A screen of several outputs answered with a rank per output shown (1 best; ties share a
    /// rank; pairwise: 1 for the output chosen and 2 for the other, both 1 for "about the
    /// same"): the original's share of the win against its copies, the least over the copies
    /// (1 ranked above every copy, ½ tied with one, 0 below one). `None` for one output or
    /// ranks that do not fit the screen.
    pub fn original_share(&self, ranks: &[u32]) -> Option<f64> {
        let original = self.original?;
        if ranks.len() != self.others.len() + 1 || ranks.contains(&0) {
            return None;
        }
        let r = ranks[original];
        (0..ranks.len())
            .filter(|&k| k != original)
            .map(|k| match ranks[k].cmp(&r) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            })
            .reduce(f64::min)
    }

    /// Whether a (valid) answer of `task` is where a careful reader's would be: the protocol
    /// decides ([`crate::protocol::Protocol::practice_matches`]). A screen of several outputs
    /// is answered by [`PracticeItem::original_share`] as the score.
    pub fn matches(&self, task: TaskKind, answer: &crate::protocol::Answer) -> bool {
        crate::protocol::for_task(task).practice_matches(&self.expected(), answer)
    }
}

/// Reference lengths (in words or characters) used for practice: short enough to read quickly,
/// long enough to degrade visibly.
const MIN_UNITS: usize = 4;
const MAX_UNITS: usize = 60;

/// Quotes at most 8 words of a run.
fn quote(words: &[String]) -> String {
    let mut s = words.iter().take(8).cloned().collect::<Vec<_>>().join(" ");
    if words.len() > 8 {
        s.push_str(" …");
    }
    format!("“{s}”")
}

/// "a", "a and b", "a, b and c".
fn and_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Applies `how` to `text` in rounds (each from the last round's text) until `enough` says the
/// changes suffice (at most 4 rounds). Returns the text and every change.
fn degrade_strongly(
    text: &str,
    how: &Degradation,
    ctx: &DegradeContext<'_>,
    seed: u64,
    enough: impl Fn(&[Change]) -> bool,
) -> Option<(String, Vec<Change>)> {
    let mut current = text.to_string();
    let mut changes = Vec::new();
    for round in 0..4u64 {
        match degrade(&current, how, ctx, item_seed(seed, round)) {
            Ok(d) => {
                current = d.text;
                changes.push(d.change);
            }
            Err(_) => break,
        }
        if enough(&changes) {
            break;
        }
    }
    (!changes.is_empty() && current != text).then_some((current, changes))
}

/// The practice item shows the source beside the text to judge (source-based DA, ESA, MQM), not
/// the reference.
fn shows_source(task: TaskKind) -> bool {
    for_task(task).beside() == Beside::Source
}

/// Why a degraded copy is worse, from what the degrader changed.
fn reason_of(task: TaskKind, changes: &[Change]) -> String {
    let mut deleted = Vec::new();
    let mut replaced = Vec::new();
    let mut copied = Vec::new();
    let mut moved = Vec::new();
    for c in changes {
        match c {
            Change::Deleted { words, .. } => deleted.push(quote(words)),
            Change::Replaced { removed, inserted, .. } => replaced.push(format!("{} became {}", quote(removed), quote(inserted))),
            Change::Duplicated { copies } => copied.extend(copies.iter().map(|m| format!("“{}”", m.word))),
            Change::Moved { moves } => moved.extend(moves.iter().map(|m| format!("“{}”", m.word))),
            Change::Swapped { .. } | Change::Chosen { .. } => {}
        }
    }
    let whose = if shows_source(task) { "the source" } else { "the gray text" };
    if !deleted.is_empty() {
        format!("part of the meaning is missing: {} left out, so it does not say everything {whose} says", and_list(&deleted) + if deleted.len() == 1 { " was" } else { " were" })
    } else if !replaced.is_empty() {
        format!("words were replaced by others that change the meaning ({}), so it does not say what {whose} says", and_list(&replaced))
    } else if !copied.is_empty() {
        format!("words are repeated where they do not belong ({}), so it does not read naturally", and_list(&copied))
    } else if !moved.is_empty() {
        format!("its words are out of order ({} are not where they belong), which clouds its meaning", and_list(&moved))
    } else {
        En.text(Text::ReasonChanged).to_string()
    }
}

/// Why a test set cannot give a campaign's practice items.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PracticeError {
    /// The protocol has no practice yet.
    #[error("practice items are not available for {protocol} yet: set practice items to 0")]
    NotAvailable { protocol: &'static str },
    /// Fewer texts fit than practice items were asked for.
    #[error(
        "{wanted} practice items need {wanted} segments with a reference of {MIN_UNITS} to {MAX_UNITS} words that can be degraded; this test set has only {found}"
    )]
    TooFewTexts { wanted: usize, found: usize },
}

/// The practice items of a campaign: `wanted` items from `texts` (whose references must be of
/// 4 to 60 words), alternately one a careful reader scores high and one scored low, the texts
/// chosen in an order shuffled by `seed`. `donors` are other references of the campaign (for
/// the replace-phrase policy and one-word texts). An error says why the test set cannot give
/// that many.
pub fn build_practice(
    task: TaskKind,
    texts: &[PracticeText<'_>],
    wanted: usize,
    policy: AdequacyPolicy,
    language: Option<&str>,
    donors: &[&str],
    seed: u64,
) -> Result<Vec<PracticeItem>, PracticeError> {
    if wanted == 0 {
        return Ok(Vec::new());
    }
    let protocol = for_task(task);
    let Some(rule) = protocol.practice() else {
        return Err(PracticeError::NotAvailable { protocol: protocol.name() });
    };
    let units = |t: &str| tokenize(t, Segmentation::choose(t, language)).len();
    let mut order: Vec<usize> = (0..texts.len()).filter(|&i| (MIN_UNITS..=MAX_UNITS).contains(&units(texts[i].reference))).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(item_seed(seed, 0x5052_4143)));
    // The order of a screen of several outputs, drawn per item.
    let mut sides = ChaCha8Rng::seed_from_u64(item_seed(seed, 0x5349_4445));
    let several = matches!(protocol.layout(), Layout::Several { .. });
    let mut out = Vec::with_capacity(wanted);
    let mut next = order.into_iter();
    while out.len() < wanted {
        let high = out.len() % 2 == 0 && !several;
        let Some(i) = next.next() else {
            return Err(PracticeError::TooFewTexts { wanted, found: out.len() });
        };
        let t = texts[i];
        let n = units(t.reference);
        let context = match protocol.beside() {
            Beside::Nothing => None,
            Beside::Source => Some(t.source.to_string()),
            Beside::Reference => Some(t.reference.to_string()),
        };
        if high {
            let ((range1, range2), reason) = (rule.high, En.text(rule.high_reason).to_string());
            out.push(PracticeItem { text: i, context, candidate: t.reference.to_string(), high, range1, range2, reason, others: Vec::new(), original: None });
            continue;
        }
        let ctx = DegradeContext { language, donors, ..Default::default() };
        let item_seed = item_seed(seed, 0x5052_0000 + i as u64);
        let built = match protocol.degrader() {
            Degrader::WordOrder => {
                let top = (n / 2).clamp(2, 8);
                (2..=top).rev().find_map(|degree| {
                    degrade(t.reference, &Degradation::WordOrder { kind: WordOrderKind::Order, degree }, &ctx, item_seed)
                        .ok()
                        .map(|d| (d.text, vec![d.change]))
                })
            }
            Degrader::Fluency => degrade_strongly(t.reference, &Degradation::Fluency, &ctx, item_seed, |c| {
                c.iter().map(|c| if let Change::Duplicated { copies } = c { copies.len() } else { 0 }).sum::<usize>() >= (n / 6).max(2)
            }),
            Degrader::Adequacy => degrade_strongly(t.reference, &Degradation::Adequacy(policy), &ctx, item_seed, |c| {
                let touched: usize = c
                    .iter()
                    .map(|c| match c {
                        Change::Deleted { words, .. } => words.len(),
                        Change::Replaced { removed, .. } => removed.len(),
                        _ => 0,
                    })
                    .sum();
                touched * 3 >= n
            }),
        };
        let Some((degraded, changes)) = built else { continue };
        let reason = reason_of(task, &changes);
        if several {
            // The original and its copy, in an order drawn per item (Fisher–Yates over two).
            let original = usize::from(rand::Rng::random_bool(&mut sides, 0.5));
            let (candidate, others) =
                if original == 0 { (t.reference.to_string(), vec![degraded]) } else { (degraded, vec![t.reference.to_string()]) };
            let (range1, range2) = rule.high;
            out.push(PracticeItem { text: i, context, candidate, high: true, range1, range2, reason, others, original: Some(original) });
            continue;
        }
        let (range1, range2) = rule.low;
        out.push(PracticeItem { text: i, context, candidate: degraded, high, range1, range2, reason, others: Vec::new(), original: None });
    }
    Ok(out)
}

#[cfg(test)]
#[path = "practice_tests.rs"]
mod tests;
