//! Span quality control and review: what became of pre-filled spans (ESA-AI), and whether
//! annotators placed spans on the degraded region of a bad reference.
//!
//! # Pre-filled spans ([`classify_prefilled`])
//!
//! An item may come with spans (Appraise's `mqm` field, a column of an import); the annotator
//! keeps, changes, removes or adds spans, and the final answer holds the spans as submitted.
//! Each pre-filled and each final span gets a fate, by these rules in this order:
//!
//! 1. **accepted**: a final span identical to a pre-filled one (same offsets, severity,
//!    category and omission flag); pairs are made greedily, pre-filled spans in order, each
//!    with the first unused identical final span.
//! 2. **changed**: a remaining pre-filled span that *overlaps* remaining final spans (shares at
//!    least one character; omissions overlap only omissions, all sitting on the one
//!    `[MISSING]` token) — one fate per overlapping final span: a span split in two gives two
//!    changed fates of the same pre-filled span, two spans merged into one give two changed fates
//!    of the same final span. Different extent, severity or category all count as changed.
//! 3. **removed**: a remaining pre-filled span overlapping no remaining final span.
//! 4. **added**: a remaining final span overlapping no remaining pre-filled span (a span drawn
//!    over an *accepted* one is added: the accepted one is unchanged beside it).
//!
//! Every pre-filled span and every final span appears in at least one fate; [`FateCounts`]
//! counts pre-filled spans accepted, changed and removed, and final spans added.
//!
//! # Pre-filled spans on a campaign's screens ([`fit_to_scheme`], [`carry_to_copy`])
//!
//! Imported spans are fitted to the campaign's scheme at launch ([`fit_to_scheme`]): ESA
//! drops categories, reads critical as major and leaves out neutral spans; MQM spells a
//! category as its taxonomy does, gives a category the taxonomy lacks (or none) `Other` when
//! the taxonomy has it (else leaves the span out), reads critical as major when critical is
//! not allowed, and keeps at most the campaign's errors per segment (the first ones).
//!
//! A quality-control copy must look like an original, pre-filled spans included. A repeated
//! copy shows its original's spans. A degraded copy ([`carry_to_copy`]) keeps each of its
//! original's spans that still fits: one wholly inside the common prefix of the original and
//! the degraded text keeps its offsets, one wholly inside the common suffix moves with it; a
//! span touching the changed part is left out (its words are not there any more), as is one
//! that would split a grapheme cluster; an omission stays. Showing no spans on degraded
//! segments would tell them apart; showing the original's spans on changed words would mark
//! the damage for the annotator.
//!
//! # Degraded regions ([`degraded_region`], [`spans_on_region`])
//!
//! A bad reference (METHOD §3; `crate::hit::degrade`) changes a contiguous run of its original
//! (an adequacy deletion or replacement) or inserts words (a fluency duplication). The region
//! shown to the annotator as changed is what lies between the longest common prefix and the
//! longest common suffix of the original and the degraded text, in characters of the degraded
//! text, widened to grapheme boundaries: a deletion gives an empty region at the cut, a
//! replacement the new words, a duplication from the first inserted copy to the second (when
//! it is the same word as its neighbour, the copy the common prefix does not cover). Pass the
//! original as the degrader saw it after its whitespace normalisation (`hit::degrade::join`
//! of its tokens): any other difference counts as changed.
//!
//! A span is **on** a non-empty region when it shares a character with it; on an empty region
//! (a deletion) when it contains or touches the cut, and an omission (`[MISSING]`) is on it
//! too — marking the missing words is the right answer there. [`region_hits`] summarizes over
//! many bad references how often the annotators' spans were on the region.

use serde::{Deserialize, Serialize};
use crate::protocol::spans::{Span, SpanError, char_len, snap_to_graphemes};

/// What became of a span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    Accepted,
    Changed,
    Removed,
    Added,
}

/// One fate: the pre-filled span (index into the pre-filled list) and the final span (index
/// into the final list) it concerns; `removed` has no final span, `added` no pre-filled one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpanFate {
    pub fate: Fate,
    pub prefilled: Option<usize>,
    #[serde(rename = "final")]
    pub final_: Option<usize>,
}

/// Pre-filled spans accepted, changed and removed; final spans added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FateCounts {
    pub accepted: usize,
    pub changed: usize,
    pub removed: usize,
    pub added: usize,
}

fn overlaps(a: &Span, b: &Span) -> bool {
    match (a.missing, b.missing) {
        (true, true) => true,
        (false, false) => a.start < b.end && b.start < a.end,
        _ => false,
    }
}

fn identical(a: &Span, b: &Span) -> bool {
    a.missing == b.missing && a.start == b.start && a.end == b.end && a.severity == b.severity && a.category == b.category
}

fn check(text_len: usize, s: &Span) -> Result<(), SpanError> {
    if s.missing {
        return Ok(());
    }
    if s.start >= s.end {
        return Err(SpanError::Empty { start: s.start, end: s.end });
    }
    if s.end > text_len {
        return Err(SpanError::OutOfRange { start: s.start, end: s.end, len: text_len });
    }
    Ok(())
}

/// The fates of pre-filled and final spans on `text` (see the module documentation): accepted
/// and changed in pre-filled order (then final order), then removed, then added in final order.
/// A span that is empty or lies beyond the text is refused.
pub fn classify_prefilled(text: &str, prefilled: &[Span], final_: &[Span]) -> Result<Vec<SpanFate>, SpanError> {
    let len = char_len(text);
    for s in prefilled.iter().chain(final_) {
        check(len, s)?;
    }
    let mut p_used = vec![false; prefilled.len()];
    let mut f_used = vec![false; final_.len()];
    let mut out = Vec::new();
    for (i, p) in prefilled.iter().enumerate() {
        if let Some(j) = (0..final_.len()).find(|&j| !f_used[j] && identical(p, &final_[j])) {
            p_used[i] = true;
            f_used[j] = true;
            out.push(SpanFate { fate: Fate::Accepted, prefilled: Some(i), final_: Some(j) });
        }
    }
    let mut f_changed = vec![false; final_.len()];
    let mut removed = Vec::new();
    for (i, p) in prefilled.iter().enumerate().filter(|(i, _)| !p_used[*i]) {
        let mut any = false;
        for (j, f) in final_.iter().enumerate().filter(|(j, _)| !f_used[*j]) {
            if overlaps(p, f) {
                any = true;
                f_changed[j] = true;
                out.push(SpanFate { fate: Fate::Changed, prefilled: Some(i), final_: Some(j) });
            }
        }
        if !any {
            removed.push(SpanFate { fate: Fate::Removed, prefilled: Some(i), final_: None });
        }
    }
    out.extend(removed);
    for j in 0..final_.len() {
        if !f_used[j] && !f_changed[j] {
            out.push(SpanFate { fate: Fate::Added, prefilled: None, final_: Some(j) });
        }
    }
    Ok(out)
}

/// Pre-filled spans fitted to a campaign's scheme (see the module documentation). `mqm` is
/// `None` for ESA, else (taxonomy, critical allowed, most errors per segment, 0: no limit).
pub fn fit_to_scheme(spans: &[Span], mqm: Option<(&crate::protocol::mqm::Taxonomy, bool, usize)>) -> Vec<Span> {
    use crate::protocol::Severity;
    let mut out = Vec::new();
    for s in spans {
        let mut s = s.clone();
        match mqm {
            None => {
                if s.severity == Severity::Neutral || s.severity == Severity::Undecided {
                    continue;
                }
                if s.severity == Severity::Critical {
                    s.severity = Severity::Major;
                }
                s.category = None;
            }
            Some((taxonomy, critical, max)) => {
                if s.severity == Severity::Undecided {
                    continue;
                }
                if s.severity == Severity::Critical && !critical {
                    s.severity = Severity::Major;
                }
                let found = s.category.as_deref().and_then(|c| taxonomy.find(c)).or_else(|| taxonomy.find("Other"));
                let Some(c) = found else { continue };
                s.category = Some(c.to_string());
                if max > 0 && out.len() >= max {
                    break;
                }
            }
        }
        out.push(s);
    }
    out
}

/// An original's pre-filled spans as a degraded copy shows them (see the module
/// documentation): the spans that still fit `degraded`, moved with the text after the change.
pub fn carry_to_copy(original: &str, degraded: &str, spans: &[Span]) -> Vec<Span> {
    if original == degraded {
        return spans.to_vec();
    }
    let o: Vec<char> = original.chars().collect();
    let d: Vec<char> = degraded.chars().collect();
    let prefix = o.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let room = o.len().min(d.len()) - prefix;
    let suffix = o.iter().rev().zip(d.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let tail = o.len() - suffix;
    let boundaries = crate::protocol::spans::grapheme_boundaries(degraded);
    spans
        .iter()
        .filter_map(|s| {
            if s.missing {
                return Some(s.clone());
            }
            let moved = if s.end <= prefix {
                (s.start, s.end)
            } else if s.start >= tail {
                (s.start - tail + (d.len() - suffix), s.end - tail + (d.len() - suffix))
            } else {
                return None;
            };
            let fits = moved.0 < moved.1 && boundaries.binary_search(&moved.0).is_ok() && boundaries.binary_search(&moved.1).is_ok();
            fits.then(|| Span { start: moved.0, end: moved.1, ..s.clone() })
        })
        .collect()
}

/// Counts fates: distinct pre-filled spans accepted, changed, removed; final spans added.
pub fn count_fates(fates: &[SpanFate]) -> FateCounts {
    let mut changed: Vec<usize> = fates.iter().filter(|f| f.fate == Fate::Changed).filter_map(|f| f.prefilled).collect();
    changed.sort_unstable();
    changed.dedup();
    FateCounts {
        accepted: fates.iter().filter(|f| f.fate == Fate::Accepted).count(),
        changed: changed.len(),
        removed: fates.iter().filter(|f| f.fate == Fate::Removed).count(),
        added: fates.iter().filter(|f| f.fate == Fate::Added).count(),
    }
}

/// The changed region of a bad reference, as character offsets `(start, end)` of the degraded
/// text (see the module documentation); `None` when the two texts are equal. An empty region
/// (`start == end`) is a deletion at that point.
pub fn degraded_region(original: &str, degraded: &str) -> Option<(usize, usize)> {
    if original == degraded {
        return None;
    }
    let o: Vec<char> = original.chars().collect();
    let d: Vec<char> = degraded.chars().collect();
    let prefix = o.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let room = o.len().min(d.len()) - prefix;
    let suffix = o.iter().rev().zip(d.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let (start, end) = (prefix, d.len() - suffix);
    if start == end {
        // A deletion: the cut, moved back to a grapheme boundary.
        let (at, _) = snap_to_graphemes(degraded, start, start);
        return Some((at, at));
    }
    Some(snap_to_graphemes(degraded, start, end))
}

/// Whether any of `spans` is on `region` (see the module documentation).
pub fn spans_on_region(spans: &[Span], region: (usize, usize)) -> bool {
    let (rs, re) = region;
    spans.iter().any(|s| {
        if s.missing {
            rs == re
        } else if rs == re {
            s.start <= rs && rs <= s.end
        } else {
            s.start < re && rs < s.end
        }
    })
}

/// How often annotators' spans were on the degraded region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionHits {
    /// Answers to bad references with a known region.
    pub answers: usize,
    /// Of those, answers with a span on the region.
    pub on_region: usize,
    /// Answers with at least one span (on the region or not).
    pub with_spans: usize,
    /// `on_region / answers` (`None` without answers).
    pub rate: Option<f64>,
}

/// Summarizes answers to bad references: each its spans and the region of its item (`None`
/// regions — the text was not changed — are skipped).
pub fn region_hits<'a>(answers: impl IntoIterator<Item = (&'a [Span], Option<(usize, usize)>)>) -> RegionHits {
    let mut h = RegionHits::default();
    for (spans, region) in answers {
        let Some(region) = region else { continue };
        h.answers += 1;
        h.with_spans += usize::from(!spans.is_empty());
        h.on_region += usize::from(spans_on_region(spans, region));
    }
    h.rate = (h.answers > 0).then(|| h.on_region as f64 / h.answers as f64);
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::spans::Severity;

    fn sp(start: usize, end: usize, severity: Severity) -> Span {
        Span::new(start, end, severity)
    }

    fn fates(v: &[SpanFate]) -> Vec<(Fate, Option<usize>, Option<usize>)> {
        v.iter().map(|f| (f.fate, f.prefilled, f.final_)).collect()
    }

    const TEXT: &str = "The quick brown fox jumps over the lazy dog.";

    #[test]
    fn a_degraded_copy_keeps_the_spans_that_still_fit() {
        let original = "The quick brown fox jumps over the lazy dog.";
        // "brown fox" (10..19) replaced by "red cat" (10..17): 2 characters shorter.
        let degraded = "The quick red cat jumps over the lazy dog.";
        let spans = [
            sp(4, 9, Severity::Minor),   // "quick": in the common prefix, kept
            sp(10, 15, Severity::Major), // "brown": changed, left out
            sp(16, 25, Severity::Minor), // "fox jumps": touches the change, left out
            sp(35, 39, Severity::Major), // "lazy": in the suffix, moved by −2
            Span::omission(Severity::Minor),
        ];
        let got = carry_to_copy(original, degraded, &spans);
        assert_eq!(got, [sp(4, 9, Severity::Minor), sp(33, 37, Severity::Major), Span::omission(Severity::Minor)]);
        assert_eq!(got[1].marked(degraded), Some("lazy"));
        // An unchanged copy keeps every span.
        assert_eq!(carry_to_copy(original, original, &spans), spans);
        // A deletion: the suffix moves back, a span over the cut goes.
        let cut = "The quick fox jumps over the lazy dog.";
        let got = carry_to_copy(original, cut, &[sp(4, 9, Severity::Minor), sp(10, 19, Severity::Major), sp(35, 39, Severity::Major)]);
        assert_eq!(got.iter().map(|s| s.marked(cut).unwrap()).collect::<Vec<_>>(), ["quick", "lazy"]);
        // Every carried span fits the copy's text.
        for s in &got {
            s.validate(cut, crate::protocol::spans::Scheme::Esa).unwrap();
        }
    }

    #[test]
    fn prefilled_spans_are_fitted_to_the_scheme() {
        use crate::protocol::mqm::{DEFAULT_TAXONOMY, Taxonomy};
        let cat = |s: Span, c: &str| Span { category: Some(c.into()), ..s };
        let given = [
            cat(sp(0, 3, Severity::Critical), "accuracy/mistranslation"),
            sp(4, 9, Severity::Neutral),
            cat(sp(10, 15, Severity::Minor), "no such category"),
        ];
        // ESA: no categories, critical read as major, neutral left out.
        assert_eq!(fit_to_scheme(&given, None), [sp(0, 3, Severity::Major), sp(10, 15, Severity::Minor)]);
        // MQM: the taxonomy's spelling; an unknown category becomes Other; critical kept when allowed.
        let t = Taxonomy::parse(DEFAULT_TAXONOMY).unwrap();
        let got = fit_to_scheme(&given, Some((&t, true, 0)));
        assert_eq!(got[0].category.as_deref(), Some("Accuracy/Mistranslation"));
        assert_eq!(got[0].severity, Severity::Critical);
        assert_eq!(got[1].category.as_deref(), Some("Other"));
        assert_eq!(got[2].category.as_deref(), Some("Other"));
        for s in &got {
            s.validate(TEXT, crate::protocol::spans::Scheme::Mqm).unwrap();
        }
        let got = fit_to_scheme(&given, Some((&t, false, 2)));
        assert_eq!(got.len(), 2, "at most 2 errors");
        assert_eq!(got[0].severity, Severity::Major, "critical not allowed");
    }

    #[test]
    fn accepted_changed_removed_added() {
        let pre = [sp(4, 9, Severity::Minor), sp(10, 15, Severity::Major), sp(20, 25, Severity::Minor), Span::omission(Severity::Major)];
        let fin = [
            sp(4, 9, Severity::Minor),   // identical to pre 0
            sp(10, 15, Severity::Minor), // pre 1 regraded
            sp(35, 39, Severity::Major), // new
            Span::omission(Severity::Minor), // pre 3 regraded (omissions overlap omissions)
        ];
        let got = classify_prefilled(TEXT, &pre, &fin).unwrap();
        assert_eq!(
            fates(&got),
            [
                (Fate::Accepted, Some(0), Some(0)),
                (Fate::Changed, Some(1), Some(1)),
                (Fate::Changed, Some(3), Some(3)),
                (Fate::Removed, Some(2), None),
                (Fate::Added, None, Some(2)),
            ]
        );
        assert_eq!(count_fates(&got), FateCounts { accepted: 1, changed: 2, removed: 1, added: 1 });
    }

    #[test]
    fn split_merge_category_and_edge_cases() {
        // Two final spans over one pre-filled span (a split): two changed fates, one changed span.
        let pre = [sp(4, 19, Severity::Major)];
        let fin = [sp(4, 9, Severity::Major), sp(16, 19, Severity::Minor)];
        let got = classify_prefilled(TEXT, &pre, &fin).unwrap();
        assert_eq!(fates(&got), [(Fate::Changed, Some(0), Some(0)), (Fate::Changed, Some(0), Some(1))]);
        assert_eq!(count_fates(&got), FateCounts { changed: 1, ..FateCounts::default() });
        // Two pre-filled merged into one final span.
        let got = classify_prefilled(TEXT, &fin, &pre).unwrap();
        assert_eq!(fates(&got), [(Fate::Changed, Some(0), Some(0)), (Fate::Changed, Some(1), Some(0))]);
        assert_eq!(count_fates(&got).changed, 2);
        // Same extent, other category: changed.
        let cat = |c: &str| Span { category: Some(c.into()), ..sp(4, 9, Severity::Minor) };
        let got = classify_prefilled(TEXT, &[cat("Accuracy/Mistranslation")], &[cat("Fluency/Grammar")]).unwrap();
        assert_eq!(fates(&got), [(Fate::Changed, Some(0), Some(0))]);
        // Touching is not overlapping (end exclusive): removed + added.
        let got = classify_prefilled(TEXT, &[sp(4, 9, Severity::Minor)], &[sp(9, 15, Severity::Minor)]).unwrap();
        assert_eq!(fates(&got), [(Fate::Removed, Some(0), None), (Fate::Added, None, Some(0))]);
        // A span drawn over an accepted one is added.
        let got = classify_prefilled(TEXT, &[sp(4, 9, Severity::Minor)], &[sp(4, 9, Severity::Minor), sp(6, 12, Severity::Major)]).unwrap();
        assert_eq!(fates(&got), [(Fate::Accepted, Some(0), Some(0)), (Fate::Added, None, Some(1))]);
        // An omission never overlaps a span in the text.
        let got = classify_prefilled(TEXT, &[Span::omission(Severity::Major)], &[sp(0, 3, Severity::Major)]).unwrap();
        assert_eq!(fates(&got), [(Fate::Removed, Some(0), None), (Fate::Added, None, Some(0))]);
        // Duplicates: each identical final span used once.
        let got = classify_prefilled(TEXT, &[sp(0, 3, Severity::Minor), sp(0, 3, Severity::Minor)], &[sp(0, 3, Severity::Minor)]).unwrap();
        assert_eq!(fates(&got), [(Fate::Accepted, Some(0), Some(0)), (Fate::Removed, Some(1), None)]);
        // Nothing pre-filled, nothing final.
        assert!(classify_prefilled(TEXT, &[], &[]).unwrap().is_empty());
        // Refusals.
        assert_eq!(classify_prefilled("abc", &[sp(1, 5, Severity::Minor)], &[]), Err(SpanError::OutOfRange { start: 1, end: 5, len: 3 }));
        assert_eq!(classify_prefilled("abc", &[], &[sp(2, 2, Severity::Minor)]), Err(SpanError::Empty { start: 2, end: 2 }));
    }

    #[test]
    fn degraded_regions() {
        // Deletion: empty region at the cut.
        assert_eq!(degraded_region("the quick brown fox", "the fox"), Some((4, 4)));
        // Replacement: the new words.
        let d = "the slow red fox";
        let r = degraded_region("the quick brown fox", d).unwrap();
        assert_eq!(d.chars().skip(r.0).take(r.1 - r.0).collect::<String>(), "slow red");
        // Duplication of two words: from the first copy to the second.
        let r = degraded_region("a b c d e", "a b b c d d e").unwrap();
        assert_eq!(r, (4, 9), "\"b c d\": the second b through the first d");
        // Same word duplicated next to itself: the later copy.
        let r = degraded_region("a cat sat", "a cat cat sat").unwrap();
        assert_eq!(r, (6, 10));
        assert_eq!(degraded_region("same", "same"), None);
        // Graphemes: a change of a combining mark takes the whole cluster.
        assert_eq!(degraded_region("cafe\u{301} noir", "cafe\u{300} noir"), Some((3, 5)));
        // Chinese: characters, not bytes.
        assert_eq!(degraded_region("我们今天去北京", "我们去北京"), Some((2, 2)));
        // Everything deleted.
        assert_eq!(degraded_region("abc", ""), Some((0, 0)));
    }

    #[test]
    fn spans_on_regions_and_the_summary() {
        let region = (4, 9);
        assert!(spans_on_region(&[sp(8, 12, Severity::Minor)], region));
        assert!(!spans_on_region(&[sp(9, 12, Severity::Minor)], region), "end exclusive: touching is not on");
        assert!(!spans_on_region(&[sp(0, 4, Severity::Minor)], region));
        assert!(!spans_on_region(&[Span::omission(Severity::Major)], region), "an omission is not on a replacement");
        assert!(!spans_on_region(&[], region));
        // A deletion at 4: spans touching or containing the cut, and omissions.
        assert!(spans_on_region(&[sp(0, 4, Severity::Major)], (4, 4)));
        assert!(spans_on_region(&[sp(4, 7, Severity::Major)], (4, 4)));
        assert!(!spans_on_region(&[sp(5, 7, Severity::Major)], (4, 4)));
        assert!(spans_on_region(&[Span::omission(Severity::Major)], (4, 4)));
        let a = [sp(8, 12, Severity::Minor)];
        let b = [sp(0, 2, Severity::Minor)];
        let h = region_hits([(&a[..], Some(region)), (&b[..], Some(region)), (&[][..], Some(region)), (&a[..], None)]);
        assert_eq!(h, RegionHits { answers: 3, on_region: 1, with_spans: 2, rate: Some(1.0 / 3.0) });
        assert_eq!(region_hits(std::iter::empty()).rate, None);
    }
}
