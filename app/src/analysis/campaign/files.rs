//! The files computed from a campaign's analysis: the pipeline's, then what its protocol adds
//! (ranking, ESA/MQM, pairwise preference, gold agreement). The one list the exports, the results
//! page and `assay analyze --campaign` offer.

use super::esa::EsaCampaignAnalysis;
use super::ranking::{GOLD_MIN_AGREEMENT, GOLD_MIN_JUDGES};
use super::CampaignAnalysis;
use crate::analysis::bundle::{BundleOptions, FileSink};

/// The files of pre-filled spans (ESA-AI): `<task>-prefilled.csv`, per system (kept workers,
/// system items): ratings, spans shown, accepted, changed, removed, added, character F1 of
/// the final spans with the pre-filled ones; and `<task>-prefilled-spans.csv`, every span's
/// fate in every rating whose screen showed pre-filled spans (every worker, every item type):
/// `user, system, item, item_type, document, fate`, then the pre-filled span and the final
/// span (`start, end, severity, category`; offsets `missing` for an omission, empty where the
/// fate has no such span: `removed` has no final span, `added` no pre-filled one). The ESA CSV
/// keeps Appraise's 12 fields (it is read back by `assay analyze --input`), so the fates live here.
fn write_prefilled_files(sink: &mut dyn FileSink, task: &str, e: &EsaCampaignAnalysis) -> Result<Vec<String>, crate::analysis::bundle::SinkError> {
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
    pub fn write_files(&self, sink: &mut dyn FileSink, o: &BundleOptions<'_>) -> Result<Vec<String>, crate::analysis::bundle::SinkError> {
        let mut files = crate::analysis::bundle::write_result_files(sink, &self.result, Some(&self.set), o)?;
        if let Some(k) = &self.ranking {
            files.extend(crate::analysis::bundle::write_ranking_files(sink, &k.report, Some(&k.kept))?);
            sink.file("ranking-agreement.csv", &mut |w| crate::analysis::ranking::write_agreement_csv(w, std::slice::from_ref(&k.report)))?;
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
        // Contrastive ESA: the paired comparisons within screens of the language pair.
        if let Some(c) = &self.contrastive {
            let name = format!("contrastive-{}.csv", assay_core::analysis::esa::file_pair(&c.ranking.pair));
            sink.file(&name, &mut |w| assay_core::analysis::contrastive::write_contrastive_csv(w, c))?;
            files.push(name);
            // The kept workers' screens as Appraise's ContrastiveESA JSONL (`assay analyze
            // --input` reads it back into the same comparisons).
            let name = format!("appraise-contrastive-{}.jsonl", assay_core::analysis::esa::file_pair(&c.ranking.pair));
            let i = &self.info;
            sink.file(&name, &mut |w| assay_core::analysis::contrastive::write_appraise_jsonl(w, &i.name, &i.source_lang, &i.target_lang, &self.contrastive_outputs))?;
            files.push(name);
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
    fn write_esa_files(&self, sink: &mut dyn FileSink, e: &EsaCampaignAnalysis) -> Result<Vec<String>, crate::analysis::bundle::SinkError> {
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
                rows.extend(rows_for_answer(seg, &x.spans).map_err(|m| crate::analysis::bundle::SinkError::Content {
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
}
