//! An ESA or MQM campaign's report beside the pipeline: the WMT 2024 ranking of the kept
//! workers' ratings, their error spans per system, span agreement, quality control by spans and
//! the fates of pre-filled spans.

use crate::analysis::{AnalysisResult, JudgmentSet};

/// An ESA campaign analysed as WMT 2024 analyses its ESA data (`analysis::esa`), on the
/// ratings of the workers quality control keeps, and its error spans per system.
#[derive(Clone, Debug)]
pub struct EsaCampaignAnalysis {
    /// Every worker's ratings, quality-control copies and document scores included (the
    /// campaign's ESA CSV).
    pub ratings: Vec<assay_core::analysis::esa::EsaRating>,
    /// The WMT 2024 ranking of the kept workers' ratings (`Err`: why it could not be made).
    pub ranking: Result<assay_core::analysis::esa::EsaAnalysis, assay_core::analysis::formats::FormatError>,
    /// Workers left out by quality control.
    pub workers_excluded: usize,
    /// Error spans of the kept workers' system items, per system, best-scored system first.
    pub spans: Vec<SystemSpans>,
    /// MQM: the error categories of those spans, most frequent first: (category, spans, of
    /// which major or critical).
    pub categories: Vec<(String, usize, usize)>,
    /// Quality control by spans: per worker, how often their degraded segments got a span on
    /// the damage (every worker, in name order).
    pub region_hits: Vec<(String, assay_core::analysis::span_qc::RegionHits)>,
    /// Agreement between two kept workers on the same system output (the first two who rated
    /// it): character-level F1, severity κ, Pearson r of the scores; `None` without such pairs.
    pub agreement: Option<assay_core::analysis::span_agreement::AgreementSummary>,
    /// Pre-filled spans (ESA-AI): per system, what the kept workers made of them, in the
    /// order of `spans`; empty when no screen showed any.
    pub prefilled: Vec<SystemFates>,
    /// Document scores (asked at a document's end, 0–100) of the kept workers' system
    /// documents, per system in name order: (system, documents scored, mean); empty when the
    /// campaign asked none.
    pub document_scores: Vec<(String, usize, f64)>,
}

/// What the kept workers made of one system's pre-filled spans (system items whose screen
/// showed pre-filled spans; `span_qc::classify_prefilled`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SystemFates {
    pub system: String,
    /// Ratings of items that came with pre-filled spans (an empty pre-filled list counts).
    pub ratings: usize,
    /// Pre-filled spans shown in those ratings.
    pub shown: usize,
    /// Pre-filled spans accepted, changed, removed; final spans added.
    pub fates: assay_core::analysis::span_qc::FateCounts,
    /// Character-level agreement of the final spans with the pre-filled ones (pooled over
    /// the ratings: marked or not, F1 = 2tp / (2tp + fp + fn)); `None` when neither marked any.
    pub f1: Option<f64>,
}

/// The error spans one system's translations received (kept workers, system items).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SystemSpans {
    pub system: String,
    /// Segments rated (ratings).
    pub segments: usize,
    pub minor: usize,
    pub major: usize,
    /// Of the spans, omissions (the `[MISSING]` token).
    pub omissions: usize,
    /// Ratings with no span at all.
    pub error_free: usize,
}

impl SystemSpans {
    /// Spans per rated segment.
    pub fn per_segment(&self) -> f64 {
        if self.segments == 0 { 0.0 } else { (self.minor + self.major) as f64 / self.segments as f64 }
    }
}

/// The ESA analysis of a campaign's ratings, keeping the workers `r`'s exclusion policy keeps.
pub fn esa_analysis(set: &JudgmentSet, r: &AnalysisResult, ratings: Vec<assay_core::analysis::esa::EsaRating>) -> EsaCampaignAnalysis {
    use assay_core::analysis::esa::{EsaSettings, analyse as rank, EsaFile};
    use assay_core::protocol::Severity;
    let excluded: std::collections::HashSet<&str> = r
        .workers
        .iter()
        .filter(|w| r.settings.exclusion.excludes(w))
        .map(|w| set.workers.name(w.worker))
        .collect();
    let kept: Vec<_> = ratings.iter().filter(|x| !excluded.contains(x.user.as_str())).cloned().collect();
    let workers_excluded = {
        let mut w: Vec<&str> = ratings.iter().map(|x| x.user.as_str()).filter(|u| excluded.contains(u)).collect();
        w.sort_unstable();
        w.dedup();
        w.len()
    };
    let mut by_system: std::collections::BTreeMap<String, SystemSpans> = std::collections::BTreeMap::new();
    let mut categories: std::collections::BTreeMap<String, (usize, usize)> = std::collections::BTreeMap::new();
    for x in kept.iter().filter(|x| x.item_type == "TGT" && !x.complete_document) {
        let e = by_system.entry(x.system.clone()).or_insert_with(|| SystemSpans { system: x.system.clone(), ..SystemSpans::default() });
        e.segments += 1;
        if x.spans.is_empty() {
            e.error_free += 1;
        }
        for s in &x.spans {
            if let Some(c) = &s.category {
                let e = categories.entry(c.clone()).or_default();
                e.0 += 1;
                e.1 += usize::from(matches!(s.severity, Severity::Major | Severity::Critical));
            }
            match s.severity {
                Severity::Major | Severity::Critical => e.major += 1,
                _ => e.minor += 1,
            }
            if s.missing {
                e.omissions += 1;
            }
        }
    }
    // Campaigns are ranked whatever their size; the page says when a pair is thinner than
    // WMT's 100 segments per system.
    let settings = EsaSettings { min_segments: 0.0, ..EsaSettings::default() };
    let file = EsaFile { ratings: kept, spans: Default::default() };
    let ranking = rank(&file, None, &settings);
    let mut spans: Vec<SystemSpans> = by_system.into_values().collect();
    if let Ok(a) = &ranking
        && let Some(p) = a.ranked.first()
    {
        let order: Vec<&str> = p.systems.iter().map(|s| s.system.as_str()).collect();
        spans.sort_by_key(|s| order.iter().position(|o| *o == s.system).unwrap_or(usize::MAX));
    }
    // Spans on the damage of degraded copies, per worker.
    let mut by_worker: std::collections::BTreeMap<&str, Vec<(&[assay_core::protocol::Span], Option<(usize, usize)>)>> = std::collections::BTreeMap::new();
    for x in ratings.iter().filter(|x| x.item_type == "BAD" && !x.complete_document) {
        if let (Some(original), Some(target)) = (&x.original, &x.target) {
            let region = assay_core::analysis::span_qc::degraded_region(original, target);
            by_worker.entry(x.user.as_str()).or_default().push((x.spans.as_slice(), region));
        }
    }
    let region_hits = by_worker.into_iter().map(|(w, v)| (w.to_string(), assay_core::analysis::span_qc::region_hits(v))).collect();
    // Agreement: the first two kept workers on each system output.
    let agreement = {
        use assay_core::analysis::span_agreement::{AgreementItem, summarize};
        let mut first: std::collections::BTreeMap<(&str, &str, &str), Vec<&assay_core::analysis::esa::EsaRating>> = std::collections::BTreeMap::new();
        for x in ratings.iter().filter(|x| x.item_type == "TGT" && !x.complete_document && !excluded.contains(x.user.as_str()) && x.target.is_some()) {
            let v = first.entry((x.system.as_str(), x.document.as_str(), x.item.as_str())).or_default();
            if v.len() < 2 && v.iter().all(|y| y.user != x.user) {
                v.push(x);
            }
        }
        let items: Vec<AgreementItem> = first
            .values()
            .filter(|v| v.len() == 2)
            .map(|v| AgreementItem {
                text: v[0].target.as_deref().unwrap_or(""),
                a: &v[0].spans,
                b: &v[1].spans,
                score_a: Some(v[0].score),
                score_b: Some(v[1].score),
            })
            .collect();
        if items.is_empty() { None } else { summarize(&items).ok() }
    };
    let mut categories: Vec<(String, usize, usize)> = categories.into_iter().map(|(c, (n, m))| (c, n, m)).collect();
    categories.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let prefilled = prefilled_fates(ratings.iter().filter(|x| !excluded.contains(x.user.as_str())), &spans);
    let mut documents: std::collections::BTreeMap<&str, (usize, f64)> = std::collections::BTreeMap::new();
    for x in ratings.iter().filter(|x| x.item_type == "TGT" && x.complete_document && !excluded.contains(x.user.as_str())) {
        let e = documents.entry(x.system.as_str()).or_default();
        e.0 += 1;
        e.1 += x.score;
    }
    let document_scores = documents.into_iter().map(|(system, (n, sum))| (system.to_string(), n, sum / n as f64)).collect();
    EsaCampaignAnalysis { ratings, ranking, workers_excluded, spans, categories, region_hits, agreement, prefilled, document_scores }
}

/// Per system, the fates of the pre-filled spans of `ratings`' system items (in the order of
/// `order`'s systems, then by name).
fn prefilled_fates<'a>(ratings: impl Iterator<Item = &'a assay_core::analysis::esa::EsaRating>, order: &[SystemSpans]) -> Vec<SystemFates> {
    use assay_core::analysis::span_agreement::{Counts, compare};
    use assay_core::analysis::span_qc::{classify_prefilled, count_fates};
    let mut by_system: std::collections::BTreeMap<String, (SystemFates, Counts)> = std::collections::BTreeMap::new();
    for x in ratings.filter(|x| x.item_type == "TGT" && !x.complete_document) {
        let (Some(pre), Some(text)) = (&x.prefilled, &x.target) else { continue };
        // Stored answers were checked against the text, so both lists fit it.
        let (Ok(fates), Ok(agree)) = (classify_prefilled(text, pre, &x.spans), compare(text, pre, &x.spans)) else { continue };
        let e = by_system.entry(x.system.clone()).or_insert_with(|| (SystemFates { system: x.system.clone(), ..SystemFates::default() }, Counts::default()));
        e.0.ratings += 1;
        e.0.shown += pre.len();
        let c = count_fates(&fates);
        e.0.fates.accepted += c.accepted;
        e.0.fates.changed += c.changed;
        e.0.fates.removed += c.removed;
        e.0.fates.added += c.added;
        e.1.tp += agree.marked.tp;
        e.1.fp += agree.marked.fp;
        e.1.fn_ += agree.marked.fn_;
    }
    let mut out: Vec<SystemFates> = by_system.into_values().map(|(mut f, c)| {
        f.f1 = c.f1();
        f
    }).collect();
    out.sort_by_key(|f| order.iter().position(|o| o.system == f.system).unwrap_or(usize::MAX));
    out
}
