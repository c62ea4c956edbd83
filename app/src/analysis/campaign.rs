//! Campaign → analysis: the one owner. [`analyse`] loads a campaign's judgments (the one
//! judgment query, [`super::db::load_campaign`]) and runs the pipeline with the given settings;
//! the results page, the results and agreement API, every export, `assay analyze --campaign`
//! and the study pages call it, so they give the same numbers.
//!
//! **Cache.** Each server process keeps the last analyses ([`CAPACITY`]), per (database,
//! campaign, settings). An analysis is reused while the campaign's judgments are unchanged;
//! the check costs one query on the whole `judgments` table (its row count and largest id,
//! both read from an index) and, only when that changed, one on the campaign's. Counting as
//! well as the largest id catches a judgment committed after one with a larger id (PostgreSQL
//! hands out ids before commit). Judgments are only ever added, and what else the analysis
//! reads (HIT items, names, the study arm) is fixed once a campaign is launched. Several app
//! servers each keep their own cache; the check reads the database, so none serves stale
//! numbers. Requests for the same analysis wait for one computation instead of each running
//! it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use sqlx::Row;

use super::db::{CampaignBlocks, CampaignInfo, KeptRows, LoadedCampaign, ProtocolRows, load_campaign_keeping_rows, load_campaign_with_blocks};
use super::bundle::{BundleOptions, FileSink};
use super::ranking::{PairReport, RankingData};
use super::{AnalysisResult, AnalysisSettings, JudgmentSet, analyse as run_pipeline};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use assay_core::report::AgreementReport;

/// Analyses kept per server process.
pub const CAPACITY: usize = 6;

/// A campaign analysed: its description, its judgments as the pipeline read them, the
/// outcome, and when and on how many stored judgments it was computed.
#[derive(Debug)]
pub struct CampaignAnalysis {
    pub info: CampaignInfo,
    pub set: JudgmentSet,
    pub result: AnalysisResult,
    /// Unix milliseconds.
    pub computed_at_ms: i64,
    /// Stored judgments of the campaign at that time (skipped and unscored included).
    pub stored_judgments: i64,
    /// The smallest id among them (0 without judgments).
    pub first_judgment_id: i64,
    /// Milliseconds the reading and the pipeline took.
    pub compute_ms: i64,
    /// The agreement report (intra- and inter-annotator, over all and the retained workers).
    agreement: AgreementReport,
    /// `workers.id` of each worker of the campaign, by name (the review page's decisions).
    pub worker_ids: HashMap<String, i64>,
    /// A ranking campaign's methods side by side; `None` for other tasks.
    pub ranking: Option<RankingAnalysis>,
    /// An ESA campaign's WMT ranking and error spans; `None` for other tasks.
    pub esa: Option<EsaCampaignAnalysis>,
    /// A pairwise-preference campaign's workers' checks and Bradley–Terry ratings; `None` for
    /// other tasks.
    pub pairwise: Option<assay_core::protocol::pairwise::campaign::CampaignPreferences>,
    /// A post-editing campaign's HTER per segment and system, on the post-edits of the workers
    /// quality control keeps; `None` for other tasks.
    pub postedit: Option<PostEditAnalysis>,
}

/// A post-editing campaign analysed (`assay_core::metrics::postedit::campaign`).
#[derive(Clone, Debug)]
pub struct PostEditAnalysis {
    /// Every answered item, quality-control copies included, in id order.
    pub answers: Vec<assay_core::metrics::postedit::campaign::StoredPostEdit>,
    /// The test set's segments in order (the lines of the reference files).
    pub segments: Vec<String>,
    /// Workers quality control leaves out.
    pub left_out: std::collections::BTreeSet<String>,
    /// HTER per system (`Err`: why there is none).
    pub report: Result<assay_core::metrics::postedit::campaign::CampaignPostEdits, assay_core::metrics::postedit::campaign::PostEditError>,
}

/// An ESA campaign analysed as WMT 2024 analyses its ESA data (`analysis::esa`), on the
/// ratings of the workers quality control keeps, and its error spans per system.
#[derive(Clone, Debug)]
pub struct EsaCampaignAnalysis {
    /// Every worker's ratings, quality-control copies and document scores included (the
    /// campaign's ESA CSV).
    pub ratings: Vec<assay_core::analysis::esa::EsaRating>,
    /// The WMT 2024 ranking of the kept workers' ratings (`Err`: why it could not be made).
    pub ranking: Result<assay_core::analysis::esa::EsaAnalysis, String>,
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
    let ranking = rank(&file, None, &settings).map_err(|e| e.to_string());
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

/// A relative-ranking campaign analysed by every method of WMT 2012 (seed 001), on the blocks
/// of the workers quality control keeps.
#[derive(Clone, Debug)]
pub struct RankingAnalysis {
    /// Every method on the retained workers' first showings; its agreement over all their
    /// blocks, repeats included.
    pub report: PairReport,
    /// First-showing blocks of every worker, and of the retained ones (`report.blocks`).
    pub blocks_all: usize,
    /// Blocks of repeated screens (agreement only, never in the rankings).
    pub blocks_repeated: usize,
    /// Workers whose blocks are left out by quality control.
    pub judges_excluded: usize,
    /// The blocks the methods used (retained workers, first showings).
    pub kept: RankingData,
    /// Every worker's blocks.
    pub blocks: CampaignBlocks,
}

/// `gold-from-agreement.tsv`: pairs compared by at least this many kept workers ...
pub const GOLD_MIN_JUDGES: usize = 2;
/// ... and at least this share of their comparisons one way (WMT 2012: "high agreement").
pub const GOLD_MIN_AGREEMENT: f64 = 0.9;

/// The ranking methods on a campaign's blocks, keeping the workers `r`'s exclusion policy keeps:
/// the methods on their first showings, agreement (WMT 2012's κ) on all their blocks, repeats
/// included (they give the intra-annotator figure).
pub fn ranking_analysis(set: &JudgmentSet, r: &AnalysisResult, blocks: CampaignBlocks) -> RankingAnalysis {
    let excluded: std::collections::HashSet<&str> = r
        .workers
        .iter()
        .filter(|w| r.settings.exclusion.excludes(w))
        .map(|w| set.workers.name(w.worker))
        .collect();
    let kept = blocks.select(|i, b| !blocks.repeated[i] && !excluded.contains(b.judge.as_str()));
    let judges_excluded = {
        let mut judges: Vec<&str> = blocks.data.blocks.iter().map(|b| b.judge.as_str()).filter(|j| excluded.contains(j)).collect();
        judges.sort_unstable();
        judges.dedup();
        judges.len()
    };
    let (samples, seed) = r.settings.bootstrap.map_or((1000, 1), |b| (b.samples.max(1), b.seed));
    let mut report = super::ranking::report(&kept, samples, seed);
    let with_repeats = blocks.select(|_, b| !excluded.contains(b.judge.as_str()));
    if let Ok(a) = super::ranking::agreement(&with_repeats) {
        report.agreement = a;
    }
    RankingAnalysis {
        report,
        blocks_all: blocks.repeated.iter().filter(|&&r| !r).count(),
        blocks_repeated: blocks.repeats(),
        judges_excluded,
        kept,
        blocks,
    }
}

/// The files of pre-filled spans (ESA-AI): `<task>-prefilled.csv`, per system (kept workers,
/// system items): ratings, spans shown, accepted, changed, removed, added, character F1 of
/// the final spans with the pre-filled ones; and `<task>-prefilled-spans.csv`, every span's
/// fate in every rating whose screen showed pre-filled spans (every worker, every item type):
/// `user, system, item, item_type, document, fate`, then the pre-filled span and the final
/// span (`start, end, severity, category`; offsets `missing` for an omission, empty where the
/// fate has no such span: `removed` has no final span, `added` no pre-filled one). The ESA CSV
/// keeps Appraise's 12 fields (it is read back by `assay analyze --input`), so the fates live here.
fn write_prefilled_files(sink: &mut dyn FileSink, task: &str, e: &EsaCampaignAnalysis) -> Result<Vec<String>, super::bundle::SinkError> {
    use assay_core::analysis::formats::csv_text;
    use assay_core::analysis::span_qc::{Fate, classify_prefilled};
    let summary = format!("{task}-prefilled.csv");
    sink.file(&summary, &mut |w| {
        writeln!(w, "system,ratings,prefilled,accepted,changed,removed,added,char_f1")?;
        for f in &e.prefilled {
            let f1 = f.f1.map(|v| format!("{v:.4}")).unwrap_or_default();
            writeln!(w, "{},{},{},{},{},{},{},{f1}", csv_text(&f.system), f.ratings, f.shown, f.fates.accepted, f.fates.changed, f.fates.removed, f.fates.added)?;
        }
        Ok(())
    })?;
    let per_span = format!("{task}-prefilled-spans.csv");
    sink.file(&per_span, &mut |w| {
        writeln!(w, "user,system,item,item_type,document,fate,prefilled_start,prefilled_end,prefilled_severity,prefilled_category,final_start,final_end,final_severity,final_category")?;
        let cells = |s: Option<&assay_core::protocol::Span>| match s {
            None => ",,,".to_string(),
            Some(s) => {
                let (a, b) = if s.missing { ("missing".to_string(), "missing".to_string()) } else { (s.start.to_string(), s.end.to_string()) };
                format!("{a},{b},{},{}", s.severity.as_str(), s.category.as_deref().map(csv_text).unwrap_or_default())
            }
        };
        for x in e.ratings.iter().filter(|x| !x.complete_document) {
            let (Some(pre), Some(text)) = (&x.prefilled, &x.target) else { continue };
            let fates = classify_prefilled(text, pre, &x.spans).map_err(|m| std::io::Error::other(format!("the pre-filled spans of {} on {}: {m}", x.user, x.item)))?;
            for f in fates {
                let name = match f.fate {
                    Fate::Accepted => "accepted",
                    Fate::Changed => "changed",
                    Fate::Removed => "removed",
                    Fate::Added => "added",
                };
                writeln!(
                    w,
                    "{},{},{},{},{},{name},{},{}",
                    csv_text(&x.user),
                    csv_text(&x.system),
                    csv_text(&x.item),
                    x.item_type,
                    csv_text(&x.document),
                    cells(f.prefilled.and_then(|i| pre.get(i))),
                    cells(f.final_.and_then(|i| x.spans.get(i))),
                )?;
            }
        }
        Ok(())
    })?;
    Ok(vec![summary, per_span])
}

impl CampaignAnalysis {
    /// Every computed file of this analysis into `sink` (the pipeline's files, then a ranking
    /// campaign's); returns their names in order. The one list the exports and the results
    /// page offer.
    pub fn write_files(&self, sink: &mut dyn FileSink, o: &BundleOptions<'_>) -> Result<Vec<String>, super::bundle::SinkError> {
        let mut files = super::bundle::write_result_files(sink, &self.result, Some(&self.set), o)?;
        if let Some(k) = &self.ranking {
            files.extend(super::bundle::write_ranking_files(sink, &k.report, Some(&k.kept))?);
            sink.file("ranking-agreement.csv", &mut |w| super::ranking::write_agreement_csv(w, std::slice::from_ref(&k.report)))?;
            files.push("ranking-agreement.csv".into());
            // Gold orders where the kept workers agreed strongly, ready to import for a later
            // campaign on the test set (POST /api/v1/test-sets/{id}/gold).
            let gold = assay_core::analysis::gold::gold_from_blocks(&k.kept, GOLD_MIN_JUDGES, GOLD_MIN_AGREEMENT);
            sink.file("gold-from-agreement.tsv", &mut |w| assay_core::analysis::gold::write_gold_tsv(w, &gold))?;
            files.push("gold-from-agreement.tsv".into());
        }
        if let Some(e) = &self.esa {
            files.extend(self.write_esa_files(sink, e)?);
        }
        // Pairwise preference: the Bradley–Terry ratings of the language pair, as
        // `assay analyze --input` writes them for a judgment file.
        if let Some(p) = &self.pairwise
            && let Ok(report) = &p.ratings
        {
            use assay_core::protocol::pairwise::files::{ratings_file_name, write_ratings_csv};
            let name = ratings_file_name(&assay_core::analysis::esa::file_pair(&p.pair));
            sink.file(&name, &mut |w| write_ratings_csv(w, report))?;
            files.push(name);
        }
        // Post-editing: HTER per system and per post-edit, the post-edits as a judgment file
        // `assay analyze --input` reads, and each system's post-edits as a reference file.
        if let Some(p) = &self.postedit {
            use assay_core::metrics::postedit::{campaign::references, files};
            let pair = assay_core::analysis::esa::file_pair(&format!("{}-{}", self.info.source_lang, self.info.target_lang));
            if let Ok(report) = &p.report {
                let name = files::hter_file_name(&pair);
                sink.file(&name, &mut |w| files::write_hter_csv(w, report))?;
                files.push(name);
                let name = files::segments_file_name(&pair);
                sink.file(&name, &mut |w| files::write_segments_csv(w, report))?;
                files.push(name);
            }
            let name = format!("postedit-{pair}-judgments.csv");
            sink.file(&name, &mut |w| files::write_judgment_csv(w, &pair, &p.answers))?;
            files.push(name);
            for (system, lines) in references(&p.answers, &p.left_out, &p.segments) {
                let name = files::references_file_name(&pair, system);
                sink.file(&name, &mut |w| files::write_references(w, &lines))?;
                files.push(name);
            }
        }
        if self.result.workers.iter().any(|w| w.reliability.gold.is_some()) {
            let r = &self.result;
            sink.file("gold-agreement.csv", &mut |w| {
                assay_core::analysis::gold::write_agreement_csv(w, &r.names.workers, &r.names.tasks, &r.workers, |q| r.settings.exclusion.excludes(q))
            })?;
            files.push("gold-agreement.csv".into());
        }
        Ok(files)
    }

    /// An ESA campaign's files: every rating in the Appraise/WMT 2024 ESA CSV
    /// (`esa-<lp>.csv`, languages as ISO 639-3), the WMT ranking and its p-values per language
    /// pair, and the error spans per system (`esa-spans.csv`).
    fn write_esa_files(&self, sink: &mut dyn FileSink, e: &EsaCampaignAnalysis) -> Result<Vec<String>, super::bundle::SinkError> {
        use assay_core::analysis::esa::{file_pair, write_esa_csv, write_esa_pvalues_csv, write_esa_ranking_csv};
        let three = |code: &str| crate::import::LangCode::parse(code).map(|c| c.iso639_3().to_string()).unwrap_or_else(|_| code.to_string());
        let (src, tgt) = (three(&self.info.source_lang), three(&self.info.target_lang));
        let lp = file_pair(&format!("{}-{}", self.info.source_lang, self.info.target_lang));
        // `esa-…` or `mqm-…`: the same files for both protocols (MQM's spans carry categories).
        let task = self.info.task.as_str();
        let mqm = assay_core::protocol::for_task(self.info.task).span_scheme() == Some(assay_core::protocol::Scheme::Mqm);
        let mut files = Vec::new();
        let name = format!("{task}-{lp}.csv");
        sink.file(&name, &mut |w| write_esa_csv(w, &src, &tgt, &e.ratings))?;
        files.push(name);
        if let Ok(a) = &e.ranking {
            for report in &a.ranked {
                let pair = file_pair(&report.pair);
                let name = format!("{task}-ranking-{pair}.csv");
                sink.file(&name, &mut |w| write_esa_ranking_csv(w, report))?;
                files.push(name);
                let name = format!("{task}-pvalues-{pair}.csv");
                sink.file(&name, &mut |w| write_esa_pvalues_csv(w, report))?;
                files.push(name);
            }
        }
        let spans_file = format!("{task}-spans.csv");
        sink.file(&spans_file, &mut |w| {
            writeln!(w, "system,segments,minor,major,omissions,error_free,spans_per_segment")?;
            for s in &e.spans {
                writeln!(
                    w,
                    "{},{},{},{},{},{},{}",
                    assay_core::analysis::formats::csv_text(&s.system),
                    s.segments,
                    s.minor,
                    s.major,
                    s.omissions,
                    s.error_free,
                    s.per_segment()
                )?;
            }
            Ok(())
        })?;
        files.push(spans_file);
        if e.ratings.iter().any(|x| x.prefilled.is_some()) {
            files.extend(write_prefilled_files(sink, task, e)?);
        }
        if mqm {
            // Google's MQM TSV: every worker's errors on system items, a No-error row for a
            // segment without any.
            use assay_core::analysis::mqm::{SegmentRef, rows_for_answer, write_mqm_tsv};
            // doc_seg_id: the segment's 1-based place in its document (as Google's releases);
            // global_seg_id: the segment's key, which keeps segments apart when read back.
            let mut rows = Vec::new();
            for x in e.ratings.iter().filter(|x| x.item_type == "TGT" && !x.complete_document) {
                let doc_seg = x.doc_seg.map(|n| n.to_string()).unwrap_or_else(|| x.item.clone());
                let seg = SegmentRef {
                    system: &x.system,
                    doc: &x.document,
                    doc_seg_id: &doc_seg,
                    global_seg_id: &x.item,
                    rater: &x.user,
                    source: x.source.as_deref().unwrap_or(""),
                    target: x.target.as_deref().unwrap_or(""),
                };
                rows.extend(rows_for_answer(seg, &x.spans).map_err(|m| super::bundle::SinkError::Content {
                    file: format!("mqm-{lp}.tsv"),
                    problem: format!("the MQM TSV of {} on {}: {m}", x.user, x.item),
                })?);
            }
            let name = format!("mqm-{lp}.tsv");
            sink.file(&name, &mut |w| write_mqm_tsv(w, &rows))?;
            files.push(name);
        }
        if !e.categories.is_empty() {
            let name = format!("{task}-categories.csv");
            sink.file(&name, &mut |w| {
                writeln!(w, "category,spans,major")?;
                for (c, n, m) in &e.categories {
                    writeln!(w, "{},{n},{m}", assay_core::analysis::formats::csv_text(c))?;
                }
                Ok(())
            })?;
            files.push(name);
        }
        Ok(files)
    }

    /// The agreement report of this analysis.
    pub fn agreement(&self) -> &AgreementReport {
        &self.agreement
    }
}

/// Per judgment of `set`: is its worker retained by quality control (not excluded for its task)?
pub fn retained_mask(set: &JudgmentSet, r: &AnalysisResult) -> Vec<bool> {
    let n_tasks = set.tasks.len().max(1);
    let mut excluded = vec![false; set.workers.len() * n_tasks];
    for w in &r.workers {
        excluded[w.worker as usize * n_tasks + w.task as usize] = r.settings.exclusion.excludes(w);
    }
    set.records.iter().map(|j| !excluded[j.worker as usize * n_tasks + j.task as usize]).collect()
}

/// The agreement report over every judgment (`all_workers`, made by [`agreement_of_all`]) and
/// over the retained workers' judgments.
pub fn agreement(set: &JudgmentSet, r: &AnalysisResult, all_workers: Vec<super::agreement::GroupAgreement>) -> AgreementReport {
    let keep = retained_mask(set, r);
    // Quality control kept every judgment: the retained workers' report is the same.
    let retained_workers = if keep.iter().all(|&k| k) {
        all_workers.clone()
    } else {
        super::agreement::agreement_report(set, Some(&keep))
    };
    AgreementReport { all_workers, retained_workers }
}

/// Every worker's agreement report of `set` ([`agreement`]'s first half, which does not depend
/// on quality control: [`compute`] makes it beside the pipeline).
pub fn agreement_of_all(set: &JudgmentSet) -> Vec<super::agreement::GroupAgreement> {
    super::agreement::agreement_report(set, None)
}

/// (count, largest id) of a set of judgments.
type Version = (i64, i64);

struct Entry {
    analysis: Arc<CampaignAnalysis>,
    stamp: Stamp,
    used: u64,
}

type Key = (u64, i64, String);

#[derive(Default)]
struct Cache {
    slots: HashMap<Key, Arc<tokio::sync::Mutex<Option<Entry>>>>,
    clock: u64,
}

static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();

fn cache() -> AppResult<std::sync::MutexGuard<'static, Cache>> {
    CACHE.get_or_init(Default::default).lock().map_err(|_| AppError::internal("the analysis cache is poisoned"))
}

/// (number, largest id) of the stored judgments of a campaign, or of every campaign (`None`):
/// what the analysis and review caches compare to know whether their figures are current.
///
/// The whole table's version on SQLite is (0, largest id): SQLite has one writer, a judgment's
/// id is the largest so far plus one when it is stored, and judgments are never deleted, so the
/// largest id moves with every judgment committed. Read through the primary key, that costs
/// microseconds, where counting a million rows took 20 ms (100 ms on a connection's first read).
/// PostgreSQL hands out ids from a sequence before commit, so a smaller id can be committed after
/// a larger one: there the count is read too, most of it once a minute ([`SettledMark`]).
pub(crate) async fn version(db: &Db, campaign: Option<i64>) -> AppResult<Version> {
    let row = match campaign {
        None if db.backend == crate::db::Backend::Sqlite => {
            sqlx::query("SELECT 0, COALESCE(MAX(id), 0) FROM judgments").fetch_one(&db.pool).await
        }
        None => return pg_table_version(db, SETTLE_MS).await,
        Some(id) => {
            sqlx::query(
                "SELECT COUNT(*), COALESCE(MAX(j.id), 0) FROM hits h JOIN assignments a ON a.hit_id = h.id \
                 JOIN judgments j ON j.assignment_id = a.id WHERE h.campaign_id = $1",
            )
            .bind(id)
            .fetch_one(&db.pool)
            .await
        }
    }
    .context("reading how many judgments there are")?;
    Ok((row.try_get(0).context("reading how many judgments there are")?, row.try_get(1).context("reading how many judgments there are")?))
}

/// How long after a judgment id is handed out its transaction has ended (committed or rolled
/// back), as the review page's incremental update assumes too (its late-commit margin).
const SETTLE_MS: i64 = 60_000;

/// PostgreSQL's table version without counting the whole table at every check (70–90 ms at a
/// million judgments): the judgments up to a settled id (`mark`) are counted once (`below`), and
/// a check counts only those above it, an index range. The mark moves up, at most once per
/// [`SETTLE_MS`], to the largest id a check saw at least that long before: every transaction
/// that had an id up to it has ended since, so its count no longer changes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct SettledMark {
    mark: i64,
    below: i64,
    /// The largest id a check saw, and when (Unix ms, after it was read).
    seen: i64,
    seen_at: i64,
}

impl SettledMark {
    /// The id to count up to now, if the mark can move (`settle`: [`SETTLE_MS`]).
    fn due(&self, now: i64, settle: i64) -> Option<i64> {
        (self.seen > self.mark && now - self.seen_at >= settle).then_some(self.seen)
    }

    /// A check saw `max` as the largest id at `now`: kept when nothing is waiting to settle.
    fn saw(&mut self, max: i64, now: i64, settle: i64) {
        if self.seen <= self.mark || now - self.seen_at >= settle {
            self.seen = max;
            self.seen_at = now;
        }
    }
}

static PG_MARKS: OnceLock<Mutex<HashMap<u64, SettledMark>>> = OnceLock::new();

pub(crate) async fn pg_table_version(db: &Db, settle: i64) -> AppResult<Version> {
    let what = "reading how many judgments there are";
    let marks = PG_MARKS.get_or_init(Default::default);
    let mut m = marks.lock().map_err(|_| AppError::internal("the judgment count's mark is poisoned"))?.get(&db.id).copied().unwrap_or_default();
    if let Some(to) = m.due(now_ms(), settle) {
        let below: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM judgments WHERE id <= $1").bind(to).fetch_one(&db.pool).await.context(what)?;
        (m.mark, m.below) = (to, below);
    }
    let (above, max): (i64, i64) =
        sqlx::query_as("SELECT (SELECT COUNT(*) FROM judgments WHERE id > $1), (SELECT COALESCE(MAX(id), 0) FROM judgments)")
            .bind(m.mark)
            .fetch_one(&db.pool)
            .await
            .context(what)?;
    m.saw(max, now_ms(), settle);
    let mut all = marks.lock().map_err(|_| AppError::internal("the judgment count's mark is poisoned"))?;
    // Of two checks at once, the one with the higher mark stays.
    let kept = all.entry(db.id).or_default();
    if m.mark >= kept.mark {
        *kept = m;
    }
    Ok((m.below + above, max))
}

/// What a cache of a campaign's figures keeps to know whether they are current: the version of
/// the campaign's judgments they are of, and the whole judgments table's when last checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stamp {
    pub campaign: Version,
    pub table: Version,
}

/// What [`Stamp::current`] found.
pub(crate) enum Current {
    /// The campaign's judgments are those the figures are of.
    Yes,
    /// They changed: the versions now.
    No { table: Version, campaign: Version },
}

impl Stamp {
    /// Whether the campaign's judgments are unchanged: the table's version first ([`version`]),
    /// the campaign's (a join) only when the table's moved; when only other
    /// campaigns' judgments arrived, the stamp takes the table's new version.
    pub(crate) async fn current(&mut self, db: &Db, campaign_id: i64) -> AppResult<Current> {
        let table = version(db, None).await?;
        if self.table == table {
            return Ok(Current::Yes);
        }
        let campaign = version(db, Some(campaign_id)).await?;
        if self.campaign == campaign {
            self.table = table;
            return Ok(Current::Yes);
        }
        Ok(Current::No { table, campaign })
    }
}

/// Campaign `campaign_id` analysed with `settings`: from the cache when its judgments are
/// unchanged, else computed (once, however many ask at the same time). An unknown campaign is
/// [`AppError::NotFound`].
pub async fn analyse(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<Arc<CampaignAnalysis>> {
    let key: Key = (db.id, campaign_id, serde_json::to_string(settings).map_err(|e| AppError::internal(e.to_string()))?);
    let slot = {
        let mut c = cache()?;
        c.slots.entry(key.clone()).or_default().clone()
    };
    let mut entry = slot.lock().await;
    // The table's version when the analysis must be computed (read before the judgments).
    let table = match entry.as_mut() {
        Some(e) => match e.stamp.current(db, campaign_id).await? {
            Current::Yes => None,
            Current::No { table, .. } => Some(table),
        },
        None => Some(version(db, None).await?),
    };
    if let Some(table) = table {
        let loaded = load_campaign_with_blocks(db, campaign_id, true).await?;
        let campaign = loaded.version;
        let analysis = compute(db, loaded, settings).await?;
        *entry = Some(Entry { analysis: Arc::new(analysis), stamp: Stamp { campaign, table }, used: 0 });
    }
    let analysis = {
        let mut c = cache()?;
        c.clock += 1;
        let e = entry.as_mut().expect("set above");
        e.used = c.clock;
        e.analysis.clone()
    };
    drop(entry);
    evict(&key)?;
    Ok(analysis)
}

/// The pipeline, and what the campaign's protocol adds, run on a campaign's loaded judgments.
async fn compute(db: &Db, loaded: LoadedCampaign, settings: &AnalysisSettings) -> AppResult<CampaignAnalysis> {
    let started = std::time::Instant::now();
    // A protocol of pairs reads its pairs' systems and sides beside the pipeline's records.
    let pairs = if assay_core::protocol::for_task(loaded.info.task).hit_plan() == assay_core::protocol::HitPlan::Pairs {
        Some(super::pairwise::read(db, loaded.info.id).await?)
    } else {
        None
    };
    // Post-editing reads its texts and post-edits beside the pipeline's records.
    let post_edits = if assay_core::protocol::postedit::is_post_editing(loaded.info.task) { Some(super::postedit::read(db, loaded.info.id).await?) } else { None };
    let pair = format!("{}-{}", loaded.info.source_lang, loaded.info.target_lang);
    let bt = assay_core::protocol::pairwise::bradley_terry::BtSettings {
        samples: settings.bootstrap.map_or(0, |_| assay_core::protocol::pairwise::bradley_terry::DEFAULT_SAMPLES),
        seed: settings.bootstrap.map_or(1, |b| b.seed),
    };
    let LoadedCampaign { info, set, protocol: ProtocolRows { ranking: blocks, esa: ratings }, version: campaign, first_id, worker_ids } = loaded;
    let settings = settings.clone();
    let hter = assay_core::metrics::hter::HterSettings {
        samples: settings.bootstrap.map_or(0, |_| assay_core::metrics::hter::HterSettings::default().samples),
        seed: settings.bootstrap.map_or(1, |b| b.seed),
        ..assay_core::metrics::hter::HterSettings::default()
    };
    let (set, result, ranking, esa, pairwise, postedit, agreement) = tokio::task::spawn_blocking(move || {
        // Every worker's agreement report needs no quality control: made beside the pipeline.
        let (result, all_workers) = std::thread::scope(|s| {
            let all = s.spawn(|| agreement_of_all(&set));
            let result = run_pipeline(&set, &settings);
            (result, all.join().expect("the agreement report panicked"))
        });
        let ranking = blocks.map(|b| ranking_analysis(&set, &result, b));
        let esa = ratings.map(|x| esa_analysis(&set, &result, x));
        let pairwise = pairs.map(|p| {
            use assay_core::protocol::pairwise::{campaign, qc::ReliabilitySettings};
            campaign::analyse(&pair, &p, &ReliabilitySettings::default(), &bt)
        });
        let postedit = post_edits.map(|(answers, segments)| {
            let left_out: std::collections::BTreeSet<String> =
                result.workers.iter().filter(|w| result.settings.exclusion.excludes(w)).map(|w| set.workers.name(w.worker).to_string()).collect();
            let report = assay_core::metrics::postedit::campaign::analyse(&pair, &answers, &left_out, &hter);
            PostEditAnalysis { answers, segments, left_out, report }
        });
        let agreement = agreement(&set, &result, all_workers);
        (set, result, ranking, esa, pairwise, postedit, agreement)
    })
    .await
    .map_err(|e| AppError::internal(format!("the analysis failed: {e}")))?;
    tracing::debug!("campaign {}: analysed in {} ms", info.id, started.elapsed().as_millis());
    // The pipeline's working memory (the bootstrap's, the tests') goes back to the system.
    tokio::task::spawn_blocking(crate::db::release_freed_memory);
    Ok(CampaignAnalysis {
        info,
        set,
        result,
        computed_at_ms: now_ms(),
        // The campaign's version is that of the judgments read: no count of its own.
        stored_judgments: campaign.0,
        first_judgment_id: first_id,
        compute_ms: started.elapsed().as_millis() as i64,
        agreement,
        worker_ids,
        ranking,
        esa,
        pairwise,
        postedit,
    })
}

/// Campaign `campaign_id` analysed with `settings`, not cached, with the stored judgments and
/// names it was read from: for a process that analyses a campaign once and writes its judgment
/// files from memory (`assay export`), reading the campaign once instead of twice.
pub async fn analyse_keeping_rows(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<(Arc<CampaignAnalysis>, KeptRows)> {
    let (loaded, kept) = load_campaign_keeping_rows(db, campaign_id).await?;
    Ok((Arc::new(compute(db, loaded, settings).await?), kept))
}

/// The cached analysis of campaign `campaign_id` with `settings` when its judgments are current
/// (none is computed, nor one being computed waited for).
pub(crate) async fn cached(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<Option<Arc<CampaignAnalysis>>> {
    let key: Key = (db.id, campaign_id, serde_json::to_string(settings).map_err(|e| AppError::internal(e.to_string()))?);
    let Some(slot) = cache()?.slots.get(&key).cloned() else { return Ok(None) };
    let Ok(mut entry) = slot.try_lock() else { return Ok(None) };
    let Some(e) = entry.as_mut() else { return Ok(None) };
    Ok(match e.stamp.current(db, campaign_id).await? {
        Current::Yes => Some(e.analysis.clone()),
        Current::No { .. } => None,
    })
}

/// A cached analysis of campaign `campaign_id` (with any settings) whose judgments are current,
/// with the versions it is of: the review page's quality control starts from its judgments (and
/// takes its quality control when the test is the same) instead of reading the campaign again.
/// Only the judgments table's version is read: when other campaigns' judgments arrived since,
/// none counts as current. An analysis being computed is not waited for.
pub(crate) async fn current_analysis(db: &Db, campaign_id: i64) -> AppResult<Option<(Arc<CampaignAnalysis>, Stamp)>> {
    let slots: Vec<_> = {
        let c = cache()?;
        c.slots.iter().filter(|(k, _)| k.0 == db.id && k.1 == campaign_id).map(|(_, slot)| slot.clone()).collect()
    };
    if slots.is_empty() {
        return Ok(None);
    }
    let table = version(db, None).await?;
    for slot in slots {
        let Ok(entry) = slot.try_lock() else { continue };
        if let Some(e) = entry.as_ref().filter(|e| e.stamp.table == table) {
            return Ok(Some((e.analysis.clone(), e.stamp)));
        }
    }
    Ok(None)
}

/// Keeps at most [`CAPACITY`] analyses: drops the least recently used (never `keep`, nor one
/// being computed).
fn evict(keep: &Key) -> AppResult<()> {
    let mut c = cache()?;
    while c.slots.len() > CAPACITY {
        let oldest = c
            .slots
            .iter()
            .filter(|(k, _)| *k != keep)
            .filter_map(|(k, slot)| slot.try_lock().ok().map(|e| (e.as_ref().map_or(0, |e| e.used), k.clone())))
            .min();
        match oldest {
            Some((_, k)) => {
                c.slots.remove(&k);
            }
            None => break,
        }
    }
    Ok(())
}

/// Forgets every analysis of a campaign (tests; a campaign whose judgments were rewritten).
pub fn forget(campaign_id: i64) {
    if let Ok(mut c) = cache() {
        c.slots.retain(|k, _| k.1 != campaign_id);
    }
}

#[cfg(test)]
mod mark_tests {
    use super::SettledMark;

    #[test]
    fn the_mark_moves_to_an_id_seen_a_settling_time_before_and_no_sooner() {
        let mut m = SettledMark::default();
        assert_eq!(m.due(0, 60), None, "nothing seen");
        m.saw(100, 0, 60);
        assert_eq!(m.due(59, 60), None, "not settled yet");
        // Later checks while 100 settles do not move what is waiting.
        m.saw(150, 30, 60);
        assert_eq!((m.seen, m.seen_at), (100, 0));
        assert_eq!(m.due(60, 60), Some(100));
        (m.mark, m.below) = (100, 97);
        m.saw(180, 61, 60);
        assert_eq!((m.seen, m.seen_at), (180, 61), "after a move, the next id to settle");
        assert_eq!(m.due(120, 60), None);
        assert_eq!(m.due(121, 60), Some(180));
        // No judgment since the mark: nothing to count again.
        let mut quiet = SettledMark { mark: 180, below: 170, seen: 180, seen_at: 0 };
        assert_eq!(quiet.due(1_000, 60), None);
        quiet.saw(180, 1_000, 60);
        assert_eq!(quiet.due(2_000, 60), None);
    }
}

#[cfg(test)]
mod agreement_tests {
    use super::*;
    use crate::analysis::agreement::{Scale, agreement_report};
    use crate::analysis::{ExclusionPolicy, JudgmentNames, TimeBasis};
    use crate::model::ItemType;

    /// Two careful workers and a careless one (bad references scored as high as the outputs),
    /// on the same items; the careful ones see each item twice.
    fn crowd() -> JudgmentSet {
        let mut set = JudgmentSet::new(TimeBasis::PerItem);
        for (w, careless) in [("w1", false), ("w2", false), ("w3", true)] {
            for pass in 0..if careless { 1 } else { 2 } {
                for seg in 0..30 {
                    let segment = format!("s{seg}");
                    for (system, base) in [("A", 75.0), ("B", 40.0)] {
                        let score = if careless { 50.0 + (seg % 4) as f64 } else { base + ((seg + pass) % 6) as f64 * 2.0 };
                        set.push(JudgmentNames { worker: w, hit: "h", system, segment: &segment, lang_pair: "de-en", task: "ad", scale: Scale::Continuous }, ItemType::System, score, 2.0);
                    }
                    let bad = if careless { 52.0 } else { 10.0 + (seg % 5) as f64 };
                    set.push(JudgmentNames { worker: w, hit: "h", system: "A", segment: &segment, lang_pair: "de-en", task: "ad", scale: Scale::Continuous }, ItemType::BadRef, bad, 2.0);
                }
            }
        }
        set
    }

    #[test]
    fn the_agreement_made_beside_the_pipeline_is_the_agreement() {
        let set = crowd();
        for exclusion in [ExclusionPolicy::NotPassed, ExclusionPolicy::None] {
            let r = run_pipeline(&set, &AnalysisSettings { exclusion, bootstrap: None, ..AnalysisSettings::default() });
            let excluded = r.workers.iter().any(|w| exclusion.excludes(w));
            assert_eq!(excluded, exclusion == ExclusionPolicy::NotPassed, "the careless worker is excluded only by quality control");
            let keep = retained_mask(&set, &r);
            let expected = AgreementReport {
                all_workers: agreement_report(&set, None),
                retained_workers: agreement_report(&set, Some(&keep)),
            };
            assert_eq!(agreement(&set, &r, agreement_of_all(&set)), expected);
            assert_eq!(expected.all_workers == expected.retained_workers, !excluded);
        }
    }
}
