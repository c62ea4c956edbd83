//! Server half of the study and history pages: runs the analysis pipeline on each campaign and
//! turns the outcome into gains, time lines and links.

use super::gains::{ArmData, ArmLabels, arm_data, task_gains};
use super::{ArmInfo, HistoryPoint, Link, PairHistory, StudyView, TaskGains, store};
use crate::analysis::campaign::CampaignAnalysis;
use crate::analysis::{self, AnalysisSettings};
use std::sync::Arc;
use crate::db::Db;
use crate::error::{AppResult, StorageContext};
use crate::model::CampaignStatus;
use assay_core::plots::{self, Series};
use std::collections::{BTreeMap, BTreeSet};

/// Bootstrap of the gains: replicates, confidence and seed (fixed, so pages and exports agree).
pub const SAMPLES: usize = 1000;
pub const CONFIDENCE: f64 = 0.95;
pub const SEED: u64 = 0x5EED;

/// An arm's campaign analysed with the METHOD defaults (the shared analysis: systems named by
/// test set, as for every view of a study arm).
pub async fn analyse_campaign(db: &Db, campaign_id: i64) -> AppResult<Arc<CampaignAnalysis>> {
    analysis::campaign::analyse(db, campaign_id, &AnalysisSettings::default()).await
}

fn year_label(name: &str, year: Option<i64>) -> String {
    match year {
        Some(y) => format!("{y} ({name})"),
        None => name.to_string(),
    }
}

/// Everything computed for one arm.
pub struct ArmResult {
    pub arm: ArmInfo,
    pub analysis: Arc<CampaignAnalysis>,
    /// The arm's data, or why its judgments do not give it yet ([`arm_data`]).
    pub data: AppResult<ArmData>,
}

/// Runs the pipeline on every arm of a study that has judgments.
pub async fn arm_results(db: &Db, arms: &[ArmInfo]) -> AppResult<Vec<ArmResult>> {
    let mut out = Vec::new();
    for a in arms {
        if a.judgments == 0 {
            continue;
        }
        let analysis = analyse_campaign(db, a.campaign_id).await?;
        let labels = ArmLabels::new(&a.best_old, &a.best_new, &a.benchmark, &a.old_test_set, &a.new_test_set);
        let data = arm_data(&analysis.result, &labels);
        out.push(ArmResult { arm: a.clone(), analysis, data });
    }
    Ok(out)
}

/// The study page: per task, raw and z gains per pair and their mean, with intervals,
/// significance and a time line.
/// An unknown study is [`AppError::NotFound`].
pub async fn study_view(db: &Db, study_id: i64) -> AppResult<(StudyView, Vec<ArmResult>)> {
    let study = store::load_study(db, study_id).await?;
    let results = arm_results(db, &study.arms).await?;
    let mut waiting = Vec::new();
    for a in &study.arms {
        if a.status == CampaignStatus::Draft {
            waiting.push(format!("{}: not launched yet", a.campaign));
        } else if a.judgments == 0 {
            waiting.push(format!("{}: no judgments yet", a.campaign));
        }
    }
    let mut by_task: BTreeMap<String, Vec<&ArmResult>> = BTreeMap::new();
    for r in &results {
        match &r.data {
            Ok(_) => by_task.entry(r.arm.task.as_str().to_string()).or_default().push(r),
            Err(e) => waiting.push(format!("{}: {e}", r.arm.campaign)),
        }
    }
    let mut tasks = Vec::new();
    for (task, arms) in by_task {
        let pairs: Vec<String> = arms.iter().map(|a| a.arm.pair.clone()).collect();
        let data: Vec<ArmData> = arms.iter().filter_map(|a| a.data.as_ref().ok().cloned()).collect();
        let (raw, z, _) = match task_gains(&pairs, &data, CONFIDENCE, SAMPLES, SEED) {
            Ok(g) => g,
            Err(e) => {
                waiting.push(format!("{task}: {e}"));
                continue;
            }
        };
        let judgments = arms.iter().map(|a| a.analysis.result.judgments).sum();
        let judgments_excluded = arms.iter().map(|a| a.analysis.result.judgments_excluded).sum();
        let workers = arms.iter().map(|a| a.analysis.result.workers.len()).sum();
        let workers_excluded = arms
            .iter()
            .map(|a| a.analysis.result.workers.iter().filter(|w| a.analysis.result.settings.exclusion.excludes(w)).count())
            .sum();
        tasks.push(TaskGains {
            timeline_svg: study_timeline(&arms.iter().map(|a| (&a.arm, a.data.as_ref().ok())).collect::<Vec<_>>()),
            task,
            raw,
            z,
            judgments,
            judgments_excluded,
            workers,
            workers_excluded,
        });
    }
    Ok((StudyView { study, tasks, waiting, confidence: CONFIDENCE, samples: SAMPLES, seed: SEED }, results))
}

/// The study's time line: per pair, BEST (solid) and the benchmark (dashed) from the old to the
/// new test set, raw means with their bootstrap intervals.
pub fn study_timeline(arms: &[(&ArmInfo, Option<&ArmData>)]) -> String {
    let first = arms.first().map(|a| a.0);
    let same_sets = arms.iter().all(|(a, _)| Some(a.old_year) == first.map(|f| f.old_year) && Some(a.new_year) == first.map(|f| f.new_year));
    let times = match first {
        Some(f) if arms.len() == 1 || same_sets => vec![
            format!("old: {}", year_label(&f.old_test_set, f.old_year)),
            format!("new: {}", year_label(&f.new_test_set, f.new_year)),
        ],
        _ => vec!["old test set".to_string(), "new test set".to_string()],
    };
    let names: Vec<(String, String)> = arms
        .iter()
        .map(|(a, _)| {
            let suffix = if arms.len() > 1 { format!(" ({})", a.pair) } else { String::new() };
            (format!("best system{suffix}"), format!("benchmark {}{suffix}", a.benchmark))
        })
        .collect();
    let mut series = Vec::new();
    for ((_, data), (best, bench)) in arms.iter().zip(&names) {
        let Some(d) = data else { continue };
        let m = &d.raw_means;
        series.push(Series { name: best, dashed: false, points: vec![(0, m[0].0, m[0].1), (1, m[2].0, m[2].1)] });
        series.push(Series { name: bench, dashed: true, points: vec![(0, m[1].0, m[1].1), (1, m[3].0, m[3].1)] });
    }
    plots::timeline(&times, &series, "mean raw score (0–100)", Some(CONFIDENCE))
}

/// Every launched campaign with judgments: each system's raw score per test set, on one time
/// line per (language pair, task), with which comparisons are calibrated and why.
pub async fn history(db: &Db) -> AppResult<Vec<PairHistory>> {
    history_of(db, &|_| true).await
}

/// [`history`] of the campaigns `keep` lets through (a caller's teams', see `web::teams`).
pub async fn history_of(db: &Db, keep: &(dyn Fn(i64) -> bool + Sync)) -> AppResult<Vec<PairHistory>> {
    // (id, name, test set, source language, target language, judgments)
    let rows: Vec<(i64, String, String, String, String, i64)> = sqlx::query_as(
        "SELECT c.id, c.name, t.name, t.source_lang, t.target_lang, \
         (SELECT COUNT(*) FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id \
          WHERE h.campaign_id = c.id) AS n \
         FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.status <> $1 \
         ORDER BY c.launched_at, c.id",
    )
    .bind(CampaignStatus::Draft.as_str())
    .fetch_all(&db.pool)
    .await
    .context("listing the campaigns for the history")?;
    // (pair, analysis task) → campaigns in launch order with their points and study facts. A
    // campaign of several questions (word order) has a time line per question: their scores are
    // different measurements.
    let mut groups: BTreeMap<(String, String), Vec<(i64, String, Vec<HistoryPoint>, Option<String>)>> = BTreeMap::new();
    // (pair, analysis task) → why campaigns with judgments have no score there.
    let mut unscored: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (id, name, test_set_name, source_lang, target_lang, n) in rows {
        if n == 0 || !keep(id) {
            continue;
        }
        let pair = format!("{source_lang}-{target_lang}");
        let analysis = analyse_campaign(db, id).await?;
        let result = &analysis.result;
        let mut points: BTreeMap<String, Vec<HistoryPoint>> = BTreeMap::new();
        for g in &result.groups {
            let question = result.names.tasks[g.task as usize].clone();
            for s in &g.systems {
                let label = &result.names.systems[s.system as usize];
                // A study arm names each system with its test set; any other campaign has one.
                let (system, test_set) = label.rsplit_once(" @ ").unwrap_or((label.as_str(), test_set_name.as_str()));
                points.entry(question.clone()).or_default().push(HistoryPoint {
                    campaign_id: id,
                    campaign: name.clone(),
                    task: question.clone(),
                    test_set: test_set.to_string(),
                    system: system.to_string(),
                    raw: s.raw,
                    raw_ci: s.raw_ci.as_ref().map(|c| (c.lower, c.upper)),
                    n: s.n_judgments,
                });
            }
        }
        // Judgments but no score: say why rather than draw an empty time line.
        let missing: Vec<(u32, String)> =
            result.names.tasks.iter().enumerate().filter(|(_, t)| !points.contains_key(*t)).map(|(k, t)| (k as u32, t.clone())).collect();
        for (t, question) in missing {
            let workers: Vec<_> = result.workers.iter().filter(|w| u32::from(w.task) == t).collect();
            let kept = workers.iter().filter(|w| !result.settings.exclusion.excludes(w)).count();
            let why = if kept == 0 {
                format!(
                    "#{id}: {name} has no score yet: quality control kept none of its {} worker(s) (a worker is kept once the reliability test passes; see the campaign's workers page)",
                    workers.len()
                )
            } else {
                format!("#{id}: {name} has no score yet: its kept workers judged no system output")
            };
            unscored.entry((pair.clone(), question.clone())).or_default().push(why);
            points.insert(question.clone(), Vec::new());
        }
        let study = match crate::campaign::launch::study_groups(db, id).await? {
            Some(_) => {
                let bench: Option<String> = sqlx::query_scalar("SELECT s.name FROM study_arms sa JOIN systems s ON s.id = sa.benchmark WHERE sa.campaign_id = $1")
                    .bind(id)
                    .fetch_optional(&db.pool)
                    .await
                    .with_context(|| format!("reading the benchmark of campaign {id}"))?;
                bench
            }
            None => None,
        };
        for (question, points) in points {
            groups.entry((pair.clone(), question)).or_default().push((id, name.clone(), points, study.clone()));
        }
    }
    let mut out = Vec::new();
    for ((pair, task), campaigns) in groups {
        let mut links = Vec::new();
        for (_, name, _, bench) in &campaigns {
            if let Some(b) = bench {
                links.push(Link {
                    a: name.clone(),
                    b: name.clone(),
                    calibrated: true,
                    why: format!(
                        "within the campaign: the best systems of both test sets share HITs with the benchmark {b}, judged on both test sets by the same workers; the study page gives the calibrated gain"
                    ),
                });
            }
        }
        for i in 0..campaigns.len() {
            for j in i + 1..campaigns.len() {
                let anchors = |k: usize| -> BTreeSet<(String, String)> {
                    campaigns[k].2.iter().map(|p| (p.system.clone(), p.test_set.clone())).collect()
                };
                let shared: Vec<String> =
                    anchors(i).intersection(&anchors(j)).map(|(s, t)| format!("{s} on {t}")).collect();
                let (a, b) = (campaigns[i].1.clone(), campaigns[j].1.clone());
                links.push(if shared.is_empty() {
                    Link {
                        a,
                        b,
                        calibrated: false,
                        why: "no system was judged on the same test set in both: their scores differ by system quality, test-set difficulty and the crowd's use of the scale at once, and nothing separates these; z-scores are standardised within each campaign and do not cross campaigns either".into(),
                    }
                } else {
                    Link {
                        a,
                        b,
                        calibrated: true,
                        why: format!(
                            "linked by anchor items: {} judged in both; the anchor's difference estimates the shift between the two crowds, which a comparison must subtract",
                            shared.join(", ")
                        ),
                    }
                });
            }
        }
        let times: Vec<String> = campaigns.iter().map(|c| format!("#{}", c.0)).collect();
        let mut by_system: BTreeMap<String, Vec<(usize, f64, Option<(f64, f64)>)>> = BTreeMap::new();
        for (k, c) in campaigns.iter().enumerate() {
            for p in &c.2 {
                // One series per system and test set: the same system on another test set is
                // another measurement.
                by_system.entry(format!("{} @ {}", p.system, p.test_set)).or_default().push((k, p.raw, p.raw_ci));
            }
        }
        let series: Vec<Series> =
            by_system.iter().map(|(name, points)| Series { name, dashed: false, points: points.clone() }).collect();
        // No point, no axis to draw (an empty plot's axis says nothing of the scale).
        let svg = if series.is_empty() {
            String::new()
        } else {
            plots::timeline(&times, &series, &format!("mean raw score ({})", crate::results::raw_scale(&task).0), Some(CONFIDENCE))
        };
        out.push(PairHistory {
            unscored: unscored.remove(&(pair.clone(), task.clone())).unwrap_or_default(),
            pair,
            task,
            campaigns: campaigns.iter().map(|c| format!("#{}: {}", c.0, c.1)).collect(),
            points: campaigns.into_iter().flat_map(|c| c.2).collect(),
            links,
            timeline_svg: svg,
        });
    }
    Ok(out)
}
