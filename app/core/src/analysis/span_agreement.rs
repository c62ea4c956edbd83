//! Agreement between two annotators' error spans on the same texts (ESA, MQM; also an
//! annotator against pre-filled spans): character-level F1, a severity-weighted variant, Cohen's
//! κ on per-character severity labels, omissions as counts, and Pearson's r of the scores.
//!
//! # Per item ([`compare`])
//!
//! The text's characters (Unicode scalar values, the offset convention of
//! [`crate::protocol::spans`]) are labelled once per annotator:
//! - **marked**: inside any span that is not an omission (any severity, neutral included);
//! - **severity label**: the gravest severity of the spans covering the character
//!   (undecided < neutral < minor < major < critical), or none.
//!
//! With annotator A as the reference and B as the prediction (F1 is symmetric, so the order does
//! not matter): tp = characters both mark, fp = B only, fn = A only; **F1** = 2tp / (2tp + fp +
//! fn), undefined (`None`) when neither marks a character. Per severity s the same on "labelled
//! s" ([`ItemAgreement::severity_f1`]); **severity accuracy** is the share of characters given
//! the same label (none = none counts as agreement). **Omissions** (`[MISSING]`) have no
//! characters: each side's count is reported.
//!
//! # Over many items ([`summarize`])
//!
//! - **micro F1**: tp, fp, fn summed over items, then F1 (items where nobody marks anything add
//!   nothing); per severity likewise;
//! - **κ**: Cohen's κ on the severity labels of every character of every item pooled,
//!   κ = (p_o − p_e) / (1 − p_e) with p_e from each annotator's label shares; undefined when
//!   p_e = 1 (both give one and the same label everywhere);
//! - **Pearson r** of the two scores over the items where both have one (undefined with fewer
//!   than two such items or no variance on a side);
//! - omissions: totals per side and the items whose counts agree.
//!
//! Checked against an independent Python implementation (scikit-learn's `f1_score`,
//! `cohen_kappa_score`, SciPy's `pearsonr`: `tests/fixtures/spans/generate.py`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::protocol::spans::{Severity, Span, SpanError, char_len};

/// True positives, false positives, false negatives of a binary character labelling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub tp: usize,
    pub fp: usize,
    pub fn_: usize,
}

impl Counts {
    /// 2tp / (2tp + fp + fn); `None` when the denominator is 0 (nothing marked on either side).
    pub fn f1(&self) -> Option<f64> {
        let d = 2 * self.tp + self.fp + self.fn_;
        (d > 0).then(|| 2.0 * self.tp as f64 / d as f64)
    }

    fn add(&mut self, o: &Counts) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
}

/// Two annotators' agreement on one text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemAgreement {
    /// Characters of the text.
    pub chars: usize,
    /// Marked or not (see the module documentation).
    pub marked: Counts,
    /// `marked.f1()`.
    pub f1: Option<f64>,
    /// Share of characters with the same gravest-severity label (1 for an empty text).
    pub severity_accuracy: f64,
    /// Per severity label given by either side: its counts.
    pub severity: BTreeMap<Severity, Counts>,
    /// Per severity label given by either side: its F1.
    pub severity_f1: BTreeMap<Severity, Option<f64>>,
    pub omissions_a: usize,
    pub omissions_b: usize,
}

/// Per character of `text`: the gravest severity of the non-omission spans covering it.
/// Refuses a span that is empty or reversed or lies beyond the text.
pub fn char_labels(text: &str, spans: &[Span]) -> Result<Vec<Option<Severity>>, SpanError> {
    let len = char_len(text);
    let mut out: Vec<Option<Severity>> = vec![None; len];
    for s in spans.iter().filter(|s| !s.missing) {
        if s.start >= s.end {
            return Err(SpanError::Empty { start: s.start, end: s.end });
        }
        if s.end > len {
            return Err(SpanError::OutOfRange { start: s.start, end: s.end, len });
        }
        for label in &mut out[s.start..s.end] {
            *label = (*label).max(Some(s.severity));
        }
    }
    Ok(out)
}

fn counts_of(a: &[Option<Severity>], b: &[Option<Severity>], is: impl Fn(Option<Severity>) -> bool) -> Counts {
    let mut c = Counts::default();
    for (&x, &y) in a.iter().zip(b) {
        match (is(x), is(y)) {
            (true, true) => c.tp += 1,
            (false, true) => c.fp += 1,
            (true, false) => c.fn_ += 1,
            (false, false) => {}
        }
    }
    c
}

/// Compares annotator A's spans with annotator B's on one text (see the module
/// documentation).
pub fn compare(text: &str, a: &[Span], b: &[Span]) -> Result<ItemAgreement, SpanError> {
    let la = char_labels(text, a)?;
    let lb = char_labels(text, b)?;
    let marked = counts_of(&la, &lb, |l| l.is_some());
    let same = la.iter().zip(&lb).filter(|(x, y)| x == y).count();
    let labels: std::collections::BTreeSet<Severity> = la.iter().chain(&lb).flatten().copied().collect();
    let severity: BTreeMap<Severity, Counts> = labels.iter().map(|&s| (s, counts_of(&la, &lb, |l| l == Some(s)))).collect();
    let severity_f1 = severity.iter().map(|(&s, c)| (s, c.f1())).collect();
    Ok(ItemAgreement {
        chars: la.len(),
        marked,
        f1: marked.f1(),
        severity_accuracy: if la.is_empty() { 1.0 } else { same as f64 / la.len() as f64 },
        severity,
        severity_f1,
        omissions_a: a.iter().filter(|s| s.missing).count(),
        omissions_b: b.iter().filter(|s| s.missing).count(),
    })
}

/// One text annotated by two annotators (for [`summarize`]).
#[derive(Clone, Copy, Debug)]
pub struct AgreementItem<'a> {
    pub text: &'a str,
    pub a: &'a [Span],
    pub b: &'a [Span],
    /// The two annotators' scores of the item (ESA 0–100, MQM −Σw), if any.
    pub score_a: Option<f64>,
    pub score_b: Option<f64>,
}

/// Agreement over many items.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgreementSummary {
    pub items: usize,
    /// Characters over all items.
    pub chars: usize,
    pub marked: Counts,
    /// F1 of the summed counts.
    pub micro_f1: Option<f64>,
    /// Per severity: F1 of the summed counts.
    pub severity_micro_f1: BTreeMap<Severity, Option<f64>>,
    /// Share of all characters with the same severity label.
    pub severity_accuracy: Option<f64>,
    /// Cohen's κ on the pooled per-character severity labels.
    pub kappa: Option<f64>,
    /// Pearson's r of the scores (items where both sides have one).
    pub pearson_r: Option<f64>,
    /// Items where both sides have a score.
    pub scored_items: usize,
    pub omissions_a: usize,
    pub omissions_b: usize,
    /// Items whose two omission counts are equal.
    pub omission_counts_equal: usize,
}

/// Cohen's κ of two equally long label sequences; `None` when empty or when chance agreement
/// is 1.
pub fn cohen_kappa<T: Ord + Copy>(a: &[T], b: &[T]) -> Option<f64> {
    let n = a.len().min(b.len());
    if n == 0 {
        return None;
    }
    let mut pa: BTreeMap<T, usize> = BTreeMap::new();
    let mut pb: BTreeMap<T, usize> = BTreeMap::new();
    let mut same = 0usize;
    for (&x, &y) in a.iter().zip(b) {
        *pa.entry(x).or_default() += 1;
        *pb.entry(y).or_default() += 1;
        same += usize::from(x == y);
    }
    let nf = n as f64;
    let po = same as f64 / nf;
    let pe: f64 = pa.iter().map(|(k, &ca)| ca as f64 / nf * pb.get(k).copied().unwrap_or(0) as f64 / nf).sum();
    if (1.0 - pe).abs() < 1e-15 {
        return None;
    }
    Some((po - pe) / (1.0 - pe))
}

/// Pearson's r of paired values; `None` with fewer than two pairs or no variance on a side.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    if n < 2 {
        return None;
    }
    let mx = x[..n].iter().sum::<f64>() / n as f64;
    let my = y[..n].iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (dx, dy) = (x[i] - mx, y[i] - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// Agreement over many items (see the module documentation); the first item whose spans do
/// not fit its text is refused with its index.
pub fn summarize(items: &[AgreementItem<'_>]) -> Result<AgreementSummary, (usize, SpanError)> {
    let (mut all_a, mut all_b) = (Vec::new(), Vec::new());
    let mut marked = Counts::default();
    let mut severity: BTreeMap<Severity, Counts> = BTreeMap::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let (mut om_a, mut om_b, mut om_eq) = (0, 0, 0);
    for (i, it) in items.iter().enumerate() {
        let la = char_labels(it.text, it.a).map_err(|e| (i, e))?;
        let lb = char_labels(it.text, it.b).map_err(|e| (i, e))?;
        let item = compare(it.text, it.a, it.b).map_err(|e| (i, e))?;
        marked.add(&item.marked);
        for (s, c) in &item.severity {
            severity.entry(*s).or_default().add(c);
        }
        om_a += item.omissions_a;
        om_b += item.omissions_b;
        om_eq += usize::from(item.omissions_a == item.omissions_b);
        if let (Some(x), Some(y)) = (it.score_a, it.score_b) {
            xs.push(x);
            ys.push(y);
        }
        all_a.extend(la);
        all_b.extend(lb);
    }
    let same = all_a.iter().zip(&all_b).filter(|(x, y)| x == y).count();
    Ok(AgreementSummary {
        items: items.len(),
        chars: all_a.len(),
        marked,
        micro_f1: marked.f1(),
        severity_micro_f1: severity.iter().map(|(&s, c)| (s, c.f1())).collect(),
        severity_accuracy: (!all_a.is_empty()).then(|| same as f64 / all_a.len() as f64),
        kappa: cohen_kappa(&all_a, &all_b),
        pearson_r: pearson(&xs, &ys),
        scored_items: xs.len(),
        omissions_a: om_a,
        omissions_b: om_b,
        omission_counts_equal: om_eq,
    })
}

#[cfg(test)]
#[path = "span_agreement_tests.rs"]
mod tests;
