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
mod tests {
    use super::*;

    fn texts() -> Vec<(String, String)> {
        (0..12)
            .map(|i| {
                (
                    format!("Quelle Satz Nummer {i} mit einigen Wörtern darin."),
                    format!("The committee met on day {i} and agreed to publish the new report before the end of the month."),
                )
            })
            .collect()
    }

    /// A valid answer: a score (and a second), and error spans of these severities.
    fn answer(score: Option<f64>, score2: Option<f64>, severities: &[crate::protocol::Severity]) -> crate::protocol::Answer {
        let spans = severities
            .iter()
            .map(|&severity| crate::protocol::Span { start: 0, end: 3, severity, category: None, missing: false })
            .collect();
        crate::protocol::Answer { score, score2, skipped: false, detail: crate::protocol::Detail { spans, ..Default::default() } }
    }

    fn da(v: f64) -> crate::protocol::Answer {
        answer(Some(v), None, &[])
    }

    #[test]
    fn practice_alternates_high_and_low_with_reasons_and_is_deterministic() {
        let owned = texts();
        let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
        for task in [TaskKind::DaAdequacy, TaskKind::DaFluency, TaskKind::DaSourceBased, TaskKind::WordOrder, TaskKind::Esa, TaskKind::Mqm] {
            let items = build_practice(task, &t, 4, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap();
            assert_eq!(items.len(), 4, "{task:?}");
            assert_eq!(items.iter().map(|i| i.high).collect::<Vec<_>>(), [true, false, true, false]);
            let mut used: Vec<usize> = items.iter().map(|i| i.text).collect();
            used.sort_unstable();
            used.dedup();
            assert_eq!(used.len(), 4, "{task:?}: each item from its own segment");
            for it in &items {
                let reference = &owned[it.text].1;
                if it.high {
                    assert_eq!(&it.candidate, reference);
                } else {
                    assert_ne!(&it.candidate, reference, "{task:?}");
                }
                match task {
                    TaskKind::DaFluency => assert_eq!(it.context, None),
                    TaskKind::DaSourceBased | TaskKind::Esa | TaskKind::Mqm => assert_eq!(it.context.as_deref(), Some(owned[it.text].0.as_str())),
                    _ => assert_eq!(it.context.as_deref(), Some(reference.as_str())),
                }
            }
            let low = &items[1];
            match task {
                TaskKind::DaAdequacy | TaskKind::DaSourceBased | TaskKind::Esa | TaskKind::Mqm => {
                    assert!(low.reason.starts_with("part of the meaning is missing: “"), "{}", low.reason);
                    let whose = if task == TaskKind::DaAdequacy { "the gray text says" } else { "the source says" };
                    assert!(low.reason.ends_with(whose), "{task:?}: {}", low.reason);
                    // At least a third of the 18 words are gone.
                    let left = low.candidate.split_whitespace().count();
                    assert!(left <= 12, "{left}: {}", low.candidate);
                }
                TaskKind::DaFluency => {
                    assert!(low.reason.starts_with("words are repeated where they do not belong (“"), "{}", low.reason);
                    assert!(low.candidate.split_whitespace().count() >= 18 + 2);
                }
                _ => {
                    assert!(low.reason.starts_with("its words are out of order (“"), "{}", low.reason);
                    assert!(low.matches(task, &answer(Some(1.0), Some(0.25), &[])) && !low.matches(task, &answer(Some(1.0), Some(0.75), &[])));
                    assert!(items[0].matches(task, &answer(Some(1.0), Some(0.75), &[])) && !items[0].matches(task, &answer(Some(0.5), Some(1.0), &[])));
                }
            }
            assert_eq!(build_practice(task, &t, 4, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap(), items, "deterministic");
        }
    }

    /// What each protocol counts as a careful reader's answer: DA and ESA the score's range; ESA
    /// also no major error in a human translation and at least one error in a degraded one; MQM
    /// (no score) only the errors.
    #[test]
    fn each_protocol_says_what_a_careful_answer_is() {
        use crate::protocol::Severity::{Critical, Major, Minor};
        let owned = texts();
        let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
        let items = |task| build_practice(task, &t, 2, AdequacyPolicy::Delete, Some("en"), &[], 7).unwrap();
        for task in [TaskKind::DaAdequacy, TaskKind::DaSourceBased, TaskKind::DaFluency] {
            let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
            assert!(low.matches(task, &da(20.0)) && low.matches(task, &da(50.0)) && !low.matches(task, &da(51.0)), "{task:?}");
            assert!(high.matches(task, &da(95.0)) && high.matches(task, &da(60.0)) && !high.matches(task, &da(40.0)), "{task:?}");
        }
        let task = TaskKind::Esa;
        let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
        assert!(low.matches(task, &answer(Some(20.0), None, &[Major])));
        assert!(low.matches(task, &answer(Some(30.0), None, &[Minor])), "any error marked");
        assert!(!low.matches(task, &answer(Some(20.0), None, &[])), "a low score without the errors");
        assert!(!low.matches(task, &answer(Some(80.0), None, &[Major])), "the errors with a high score");
        assert!(high.matches(task, &answer(Some(90.0), None, &[])));
        assert!(high.matches(task, &answer(Some(90.0), None, &[Minor])), "a minor error in a human translation");
        assert!(!high.matches(task, &answer(Some(90.0), None, &[Major])));
        assert!(!high.matches(task, &answer(Some(30.0), None, &[])));
        let task = TaskKind::Mqm;
        let [high, low] = <[PracticeItem; 2]>::try_from(items(task)).unwrap();
        assert!(low.matches(task, &answer(None, None, &[Major])) && low.matches(task, &answer(None, None, &[Minor, Critical])));
        assert!(!low.matches(task, &answer(None, None, &[Minor])) && !low.matches(task, &answer(None, None, &[])));
        assert!(high.matches(task, &answer(None, None, &[])) && high.matches(task, &answer(None, None, &[Minor])));
        assert!(!high.matches(task, &answer(None, None, &[Critical])));
    }

    #[test]
    fn too_few_texts_are_refused_with_the_reason() {
        let owned = texts();
        let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
        let e = build_practice(TaskKind::DaAdequacy, &t, 13, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap_err().to_string();
        assert!(e.contains("13 practice items need 13 segments") && e.contains("has only 12"), "{e}");
        let short = [PracticeText { source: "a", reference: "Too short." }];
        assert!(build_practice(TaskKind::DaFluency, &short, 1, AdequacyPolicy::Delete, None, &[], 1).is_err());
        assert_eq!(build_practice(TaskKind::Ranking, &t, 0, AdequacyPolicy::Delete, None, &[], 1).unwrap(), vec![]);
        let e = build_practice(TaskKind::Pairwise, &t, 13, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap_err().to_string();
        assert!(e.contains("13 practice items need 13 segments"), "{e}");
    }

    /// Pairwise preference and ranking (issue 37 item 6, issue 38 row 15): each practice screen
    /// shows a human reference and its strongly degraded copy, in an order drawn per item; a
    /// careful reader prefers the original (ranks the copy below it), and the reason names
    /// what was left out of the copy.
    #[test]
    fn a_screen_of_several_outputs_puts_an_original_beside_its_degraded_copy_in_a_drawn_order() {
        let owned = texts();
        let t: Vec<PracticeText> = owned.iter().map(|(s, r)| PracticeText { source: s, reference: r }).collect();
        for task in [TaskKind::Pairwise, TaskKind::Ranking] {
            let mut sides = [0usize; 2];
            for seed in 1..=4 {
                let items = build_practice(task, &t, 3, AdequacyPolicy::Delete, Some("en"), &[], seed).unwrap();
                assert_eq!(items.len(), 3, "{task:?}");
                assert_eq!(build_practice(task, &t, 3, AdequacyPolicy::Delete, Some("en"), &[], seed).unwrap(), items, "deterministic");
                for it in &items {
                    let (source, reference) = &owned[it.text];
                    assert_eq!(it.context.as_deref(), Some(source.as_str()), "the source above the outputs");
                    let shown = it.shown();
                    assert_eq!(shown.len(), 2);
                    let original = it.original.expect("the original's place");
                    sides[original] += 1;
                    assert_eq!(shown[original], reference.as_str());
                    let copy = shown[1 - original];
                    assert_ne!(copy, reference.as_str());
                    assert!(copy.split_whitespace().count() <= 12, "a third of the 18 words gone: {copy}");
                    assert!(it.reason.starts_with("part of the meaning is missing: “") && it.reason.ends_with("the source says"), "{}", it.reason);
                    // Ranks per output shown: the original above its copy, tied, below.
                    let mut ranks = [2u32, 2];
                    ranks[original] = 1;
                    assert_eq!(it.original_share(&ranks), Some(1.0));
                    assert_eq!(it.original_share(&[1, 1]), Some(0.5));
                    ranks.swap(0, 1);
                    assert_eq!(it.original_share(&ranks), Some(0.0));
                    assert_eq!(it.original_share(&[1]), None, "ranks that do not fit the screen");
                    assert_eq!(it.original_share(&[0, 1]), None);
                    let answer = |share: f64| answer(Some(share), None, &[]);
                    assert!(it.matches(task, &answer(1.0)), "{task:?}: the original preferred");
                    assert!(!it.matches(task, &answer(0.5)) && !it.matches(task, &answer(0.0)), "{task:?}: a tie or the copy preferred");
                }
            }
            assert!(sides[0] > 0 && sides[1] > 0, "{task:?}: the original on either side ({sides:?})");
        }
        // An item of one output has no share of the win.
        let da = build_practice(TaskKind::DaAdequacy, &t, 2, AdequacyPolicy::Delete, Some("en"), &[], 1).unwrap();
        assert!(da.iter().all(|i| i.others.is_empty() && i.original.is_none() && i.original_share(&[1]).is_none()));
    }
}
