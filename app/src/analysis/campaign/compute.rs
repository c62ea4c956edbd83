//! The pipeline, and what the campaign's protocol adds, run on a campaign's loaded judgments;
//! the agreement report beside it.

use std::sync::Arc;

use super::{CampaignAnalysis, PostEditAnalysis};
use super::esa::esa_analysis;
use super::ranking::ranking_analysis;
use crate::analysis::db::{KeptRows, LoadedCampaign, ProtocolRows, load_campaign_keeping_rows};
use crate::analysis::{AnalysisResult, AnalysisSettings, JudgmentSet, analyse as run_pipeline};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult};
use assay_core::report::AgreementReport;

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
pub fn agreement(set: &JudgmentSet, r: &AnalysisResult, all_workers: Vec<crate::analysis::agreement::GroupAgreement>) -> AgreementReport {
    let keep = retained_mask(set, r);
    // Quality control kept every judgment: the retained workers' report is the same.
    let retained_workers = if keep.iter().all(|&k| k) {
        all_workers.clone()
    } else {
        crate::analysis::agreement::agreement_report(set, Some(&keep))
    };
    AgreementReport { all_workers, retained_workers }
}

/// Every worker's agreement report of `set` ([`agreement`]'s first half, which does not depend
/// on quality control: [`compute`] makes it beside the pipeline).
pub fn agreement_of_all(set: &JudgmentSet) -> Vec<crate::analysis::agreement::GroupAgreement> {
    crate::analysis::agreement::agreement_report(set, None)
}

/// The pipeline, and what the campaign's protocol adds, run on a campaign's loaded judgments.
pub(super) async fn compute(db: &Db, loaded: LoadedCampaign, settings: &AnalysisSettings) -> AppResult<CampaignAnalysis> {
    let started = std::time::Instant::now();
    // A protocol of pairs reads its pairs' systems and sides beside the pipeline's records.
    let pairs = if assay_core::protocol::for_task(loaded.info.task).hit_plan() == assay_core::protocol::HitPlan::Pairs {
        Some(crate::analysis::pairwise::read(db, loaded.info.id).await?)
    } else {
        None
    };
    // Post-editing reads its texts and post-edits beside the pipeline's records.
    let post_edits = if assay_core::protocol::postedit::is_post_editing(loaded.info.task) { Some(crate::analysis::postedit::read(db, loaded.info.id).await?) } else { None };
    // Contrastive ESA reads each output's screen beside the pipeline's records.
    let screens = if assay_core::protocol::scores_blocks(loaded.info.task) { Some(crate::analysis::contrastive::read(db, loaded.info.id).await?) } else { None };
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
    let (set, result, ranking, esa, pairwise, postedit, contrastive, contrastive_outputs, agreement) = tokio::task::spawn_blocking(move || {
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
        // Contrastive ESA: the kept workers' outputs compared within screens.
        // Its Appraise file holds the same workers' outputs, quality control included.
        let (contrastive, contrastive_outputs) = match screens {
            Some(outputs) => {
                let left_out: std::collections::BTreeSet<String> =
                    result.workers.iter().filter(|w| result.settings.exclusion.excludes(w)).map(|w| set.workers.name(w.worker).to_string()).collect();
                let kept: Vec<_> = outputs.into_iter().filter(|o| !left_out.contains(&o.annotator)).collect();
                let report = assay_core::analysis::contrastive::compare_within_screens(&pair, &crate::analysis::contrastive::scores(&kept), 0.05);
                (Some(report), kept)
            }
            None => (None, Vec::new()),
        };
        let agreement = agreement(&set, &result, all_workers);
        (set, result, ranking, esa, pairwise, postedit, contrastive, contrastive_outputs, agreement)
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
        contrastive,
        contrastive_outputs,
    })
}

/// Campaign `campaign_id` analysed with `settings`, not cached, with the stored judgments and
/// names it was read from: for a process that analyses a campaign once and writes its judgment
/// files from memory (`assay export`), reading the campaign once instead of twice.
pub async fn analyse_keeping_rows(db: &Db, campaign_id: i64, settings: &AnalysisSettings) -> AppResult<(Arc<CampaignAnalysis>, KeptRows)> {
    let (loaded, kept) = load_campaign_keeping_rows(db, campaign_id).await?;
    Ok((Arc::new(compute(db, loaded, settings).await?), kept))
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
