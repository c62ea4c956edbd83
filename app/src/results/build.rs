//! Server half: runs the analysis pipeline on a campaign and turns its outcome into rows.

use assay_core::plots::{self, ZPoint};
use super::{ClusterRow, ExcludedWorker, GroupView, ResultsOptions, ResultsView, SystemRow, WorkerRow};
use crate::analysis::campaign::{CampaignAnalysis, Stamp};
use crate::analysis::{self, AnalysisResult, AnalysisSettings, ExclusionPolicy, JudgmentSet, QcTest, WorkerQc};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::{CampaignStatus, ItemType};
use std::collections::HashMap;

/// The pipeline's settings for the page's choices; everything else keeps the METHOD defaults.
pub fn settings(o: ResultsOptions) -> AnalysisSettings {
    let mut s = AnalysisSettings::default();
    s.z.exclude_ref = o.exclude_ref;
    s.z.exclude_bad_ref = o.exclude_bad_ref;
    s.average_per_segment = o.per_segment;
    s.qc.reliability_test = if o.wilcoxon { QcTest::SignedRank } else { QcTest::PairedT };
    s
}

/// [`settings`] for campaign `campaign_id`: who leaves the scores follows the campaign's choice
/// for workers with too few pairs to test (`CampaignSettings::thin_evidence`, default keep; the
/// quality gate's "hold" holds). An unknown campaign keeps the defaults (its analysis says it is
/// unknown).
pub async fn campaign_settings(db: &Db, campaign_id: i64, o: ResultsOptions) -> AppResult<AnalysisSettings> {
    let mut s = settings(o);
    let row: Option<(String, String, String, String)> = sqlx::query_as("SELECT task, settings, gate, gate_unsure FROM campaigns WHERE id = $1")
        .bind(campaign_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(|| format!("reading the design of campaign {campaign_id}"))?;
    if let Some((task, json, mode, unsure)) = row
        && let Some(task) = crate::model::TaskKind::parse(&task)
    {
        let design = crate::campaign::CampaignSettings::read(&json, task, "", "");
        let gate = crate::campaign::QualityGate::parse(&mode, &unsure).unwrap_or_default();
        s.exclusion = ExclusionPolicy::from(design.thin_evidence_with(gate));
    }
    Ok(s)
}

use crate::analysis::manifest::{test_name, verdict_name};

fn name(names: &[String], id: usize) -> String {
    names.get(id).cloned().unwrap_or_else(|| format!("#{id}"))
}

/// Every (worker, task) left out of the statistics, with the reason (the manifest's list).
pub fn excluded(r: &AnalysisResult) -> Vec<ExcludedWorker> {
    crate::analysis::manifest::excluded_workers(r)
        .into_iter()
        .map(|e| ExcludedWorker { worker: e.worker, task: e.task, reason: e.reason })
        .collect()
}

/// The names of the computed files an export of this result offers.
pub fn export_file_names(a: &CampaignAnalysis) -> Vec<String> {
    let o = crate::analysis::bundle::BundleOptions {
        name: crate::analysis::bundle::DEFAULT_NAME,
        segments_in_test_set_order: true,
        darr_threshold: crate::analysis::export::DARR_THRESHOLD,
        darr_rule: Default::default(),
    };
    a.write_files(&mut crate::analysis::bundle::NamesOnly, &o).unwrap_or_default()
}

/// The results page's rows and plots from one pipeline run.
/// Groups larger than this (SYSTEM scores) get no weighted reading: its bootstrap refits the
/// model a hundred times.
const WEIGHTED_MAX_SCORES: usize = 200_000;

/// The per-worker precision model's reading of one group (issue 39 item 3), best first; empty
/// for a protocol whose scores are not on 0–100 and for a group above [`WEIGHTED_MAX_SCORES`].
fn weighted_rows(a: &CampaignAnalysis, task: u16, lang_pair: u16) -> Vec<super::WeightedRow> {
    use assay_core::adaptive::precision::{PrecisionSettings, Score, weighted_reading};
    use assay_core::protocol::HitPlan;
    match assay_core::protocol::for_task(a.info.task).hit_plan() {
        HitPlan::Items | HitPlan::Documents => {}
        HitPlan::Pairs | HitPlan::Blocks | HitPlan::WordOrderPairs => return Vec::new(),
    }
    let set = &a.set;
    let records: Vec<&assay_core::analysis::Judgment> =
        set.records.iter().filter(|j| j.task == task && j.lang_pair == lang_pair && j.item_type == ItemType::System && j.score.is_finite()).collect();
    if records.is_empty() || records.len() > WEIGHTED_MAX_SCORES {
        return Vec::new();
    }
    let scores: Vec<Score> = records
        .iter()
        .map(|j| Score { worker: j.worker as usize, system: j.system as usize, segment: j.segment as usize, score: j.score.clamp(0.0, 100.0) })
        .collect();
    let settings = PrecisionSettings { samples: 100, ..PrecisionSettings::default() };
    let r = weighted_reading(&scores, set.systems.len(), set.workers.len(), &settings);
    let mut rows: Vec<super::WeightedRow> = r
        .systems
        .iter()
        .filter(|x| x.scores > 0)
        .map(|x| super::WeightedRow {
            name: name(set.systems.names(), x.system),
            scores: x.scores,
            raw_mean: x.raw_mean,
            weighted: x.weighted_mean,
            low: x.low,
            high: x.high,
        })
        .collect();
    rows.sort_by(|x, y| y.weighted.total_cmp(&x.weighted));
    rows
}

pub fn results_view(a: &CampaignAnalysis, options: ResultsOptions) -> ResultsView {
    let r = &a.result;
    let groups = r
        .groups
        .iter()
        .map(|g| {
            let c = &g.comparison;
            let systems: Vec<SystemRow> = g
                .systems
                .iter()
                .map(|s| {
                    let rank = c.ranks.iter().find(|k| k.system == s.system);
                    SystemRow {
                        name: name(&r.names.systems, s.system as usize),
                        raw: s.raw,
                        z: s.z,
                        n: s.n_judgments,
                        n_segments: s.n_segments,
                        raw_ci: s.raw_ci.as_ref().map(|ci| (ci.lower, ci.upper)),
                        z_ci: s.z_ci.as_ref().map(|ci| (ci.lower, ci.upper)),
                        wins: rank.map_or(0, |k| k.wins),
                        rank_best: rank.map_or(0, |k| k.rank_best),
                        rank_worst: rank.map_or(0, |k| k.rank_worst),
                        cluster: rank.map_or(0, |k| k.cluster),
                    }
                })
                .collect();
            // The comparison's own order (best mean z first) indexes the p matrix.
            let order: Vec<String> = c.systems.iter().map(|&k| name(&r.names.systems, k as usize)).collect();
            let names: Vec<&str> = order.iter().map(String::as_str).collect();
            let points: Vec<ZPoint> =
                systems.iter().map(|s| ZPoint { name: &s.name, z: s.z, ci: s.z_ci }).collect();
            let confidence = r.settings.bootstrap.map(|b| b.confidence);
            GroupView {
                task: name(&r.names.tasks, g.task as usize),
                lang_pair: name(&r.names.lang_pairs, g.lang_pair as usize),
                z_plot_svg: plots::z_plot(&points, confidence),
                heatmap_svg: plots::heatmap(&names, &c.p_values),
                p_values: c.p_values.clone(),
                clusters: c
                    .clusters
                    .iter()
                    .map(|k| ClusterRow {
                        start: k.start,
                        end: k.end,
                        systems: k.systems.iter().map(|&s| name(&r.names.systems, s as usize)).collect(),
                    })
                    .collect(),
                confidence,
                systems,
                weighted: weighted_rows(a, g.task, g.lang_pair),
            }
        })
        .collect();
    ResultsView {
        campaign: a.info.name.clone(),
        computed_at_ms: a.computed_at_ms,
        stored_judgments: a.stored_judgments,
        options,
        judgments: r.judgments,
        questions: r.names.tasks.len(),
        judgments_excluded: r.judgments_excluded,
        judgments_unstandardised: r.judgments_unstandardised,
        judgments_scored: r.judgments_scored,
        // People, not (worker, task) rows: a word-order worker has a row per question.
        workers: r.workers.iter().map(|w| w.worker).collect::<std::collections::HashSet<_>>().len(),
        excluded: excluded(r),
        groups,
        agreement: a.agreement().clone(),
        export_files: export_file_names(a),
        metric_export_files: Vec::new(),
        ranking: a.ranking.as_ref().map(ranking_view),
        pairwise: a.pairwise.as_ref().map(pairwise_view),
        postedit: a.postedit.as_ref().map(|p| postedit_view(p, &format!("{}-{}", a.info.source_lang, a.info.target_lang))),
        contrastive: a.contrastive.as_ref().map(|c| c.view()),
        esa: a.esa.as_ref().map(|e| {
            let mut v = esa_view(e, &format!("{}-{}", a.info.source_lang, a.info.target_lang));
            let scheme = assay_core::protocol::for_task(a.info.task).span_scheme();
            v.protocol = if scheme == Some(assay_core::protocol::Scheme::Mqm) { "MQM".into() } else { "ESA".into() };
            v.region_hits = e
                .region_hits
                .iter()
                .map(|(w, h)| super::RegionRow { worker: w.clone(), degraded: h.answers, with_spans: h.with_spans, on_region: h.on_region, rate: h.rate })
                .collect();
            v.agreement = e.agreement.as_ref().map(|s| super::SpanAgreementView {
                items: s.items,
                micro_f1: s.micro_f1,
                kappa: s.kappa,
                severity_accuracy: s.severity_accuracy,
                pearson_r: s.pearson_r,
            });
            v.prefilled = e
                .prefilled
                .iter()
                .map(|f| super::PrefilledRow {
                    system: f.system.clone(),
                    ratings: f.ratings,
                    shown: f.shown,
                    accepted: f.fates.accepted,
                    changed: f.fates.changed,
                    removed: f.fates.removed,
                    added: f.fates.added,
                    f1: f.f1,
                })
                .collect();
            v
        }),
    }
}

/// The ESA section: the WMT ranking with each system's error spans, the p-value heatmap and the
/// error-span plot.
pub fn esa_view(e: &crate::analysis::campaign::EsaCampaignAnalysis, lang_pair: &str) -> super::EsaView {
    let spans_of = |system: &str| e.spans.iter().find(|s| s.system == system).cloned().unwrap_or_default();
    let bars: Vec<plots::ErrorBar> = e
        .spans
        .iter()
        .map(|s| {
            let n = s.segments.max(1) as f64;
            plots::ErrorBar { name: s.system.as_str(), minor: s.minor as f64 / n, major: s.major as f64 / n }
        })
        .collect();
    let spans_svg = plots::error_span_plot(&bars);
    let empty = |note: String| super::EsaView {
        lang_pair: lang_pair.to_string(),
        rows: Vec::new(),
        domains: Vec::new(),
        segments_per_system: 0.0,
        annotators: 0,
        workers_excluded: e.workers_excluded,
        ratings_left_out: 0,
        heatmap_svg: String::new(),
        spans_svg: spans_svg.clone(),
        note: Some(note),
        categories: e.categories.clone(),
        protocol: String::new(),
        region_hits: Vec::new(),
        agreement: None,
        prefilled: Vec::new(),
        document_scores: e.document_scores.clone(),
    };
    let a = match &e.ranking {
        Err(why) => return empty(format!("The ranking could not be made: {why}")),
        Ok(a) => a,
    };
    let Some(p) = a.ranked.first() else {
        return empty("No worker that quality control keeps has rated a translation yet.".into());
    };
    let rows = p
        .systems
        .iter()
        .map(|s| {
            let sp = spans_of(&s.system);
            super::EsaRow {
                system: s.system.clone(),
                score: s.score,
                n: s.n,
                wins: s.wins,
                losses: s.losses,
                rank_lo: s.rank_lo,
                rank_hi: s.rank_hi,
                cluster: s.cluster,
                minor: sp.minor,
                major: sp.major,
                omissions: sp.omissions,
                error_free: sp.error_free,
                spans_per_segment: sp.per_segment(),
            }
        })
        .collect();
    let names: Vec<&str> = p.systems.iter().map(|s| s.system.as_str()).collect();
    let d = &a.dropped;
    super::EsaView {
        lang_pair: p.pair.clone(),
        rows,
        domains: p.domains.clone(),
        segments_per_system: p.average_segments_per_system,
        annotators: p.annotators,
        workers_excluded: e.workers_excluded,
        ratings_left_out: d.not_tgt + d.document_level + d.superseded,
        heatmap_svg: plots::heatmap_titled(
            &names,
            &p.p_values,
            "Row and column systems significantly different (two-sided Wilcoxon signed-rank per domain, Stouffer)",
            "Significantly different",
        ),
        spans_svg,
        categories: e.categories.clone(),
        protocol: String::new(),
        region_hits: Vec::new(),
        agreement: None,
        prefilled: Vec::new(),
        document_scores: e.document_scores.clone(),
        note: (p.average_segments_per_system < 100.0).then(|| {
            format!(
                "{:.0} segments per system: WMT 2024 ranks a language pair only from 100 segments per system on average; read these ranges with care.",
                p.average_segments_per_system
            )
        }),
    }
}

/// The ranking section: every method's figures per system, where they disagree, and the plots.
/// A pairwise campaign's ratings table and win-rate heatmap.
pub fn pairwise_view(p: &assay_core::protocol::pairwise::campaign::CampaignPreferences) -> super::PairwiseView {
    let failing = p.workers.iter().filter(|w| !w.kept).count();
    let mut v = super::PairwiseView {
        lang_pair: p.pair.clone(),
        rows: Vec::new(),
        heatmap_svg: String::new(),
        note: None,
        judgments_kept: p.judgments_kept,
        judgments_left_out: p.judgments_left_out,
        workers_failing: failing,
        workers: p.workers.len(),
    };
    match &p.ratings {
        Err(why) => v.note = Some(format!("No ratings: {why}.")),
        Ok(r) => {
            v.rows = r.systems.clone();
            let names: Vec<&str> = r.names.iter().map(String::as_str).collect();
            let order: Vec<usize> = r.systems.iter().filter_map(|s| r.names.iter().position(|n| *n == s.system)).collect();
            v.heatmap_svg = plots::win_rate_heatmap(&names, &r.win_rate, &order);
        }
    }
    v
}

/// A post-editing campaign's HTER table.
pub fn postedit_view(p: &crate::analysis::campaign::PostEditAnalysis, pair: &str) -> super::PostEditView {
    match &p.report {
        Ok(r) => super::PostEditView {
            lang_pair: pair.to_string(),
            rows: r.systems.clone(),
            note: None,
            post_edits_kept: r.post_edits_kept,
            post_edits_left_out: r.post_edits_left_out,
            workers: r.workers.clone(),
        },
        Err(why) => super::PostEditView {
            lang_pair: pair.to_string(),
            rows: Vec::new(),
            note: Some(format!("No HTER: {why}.")),
            post_edits_kept: 0,
            post_edits_left_out: 0,
            workers: assay_core::metrics::postedit::campaign::copy_checks(&p.answers, &p.left_out, &assay_core::metrics::hter::HterSettings::default()),
        },
    }
}

pub fn ranking_view(a: &crate::analysis::campaign::RankingAnalysis) -> super::RankingView {
    use crate::analysis::ranking::{MAX_EXACT_SYSTEMS, listing_order, method_disagreements, method_positions};
    let r = &a.report;
    let order = listing_order(r);
    let methods = method_positions(r);
    let rows = order
        .iter()
        .map(|&i| {
            let s = &r.standings[i];
            super::RankingRow {
                system: r.systems[i].clone(),
                wins: s.wins,
                losses: s.losses,
                ties: s.ties,
                wins_ratio: s.wins_ratio,
                wins_and_ties_ratio: s.wins_and_ties_ratio,
                expected_wins: s.expected_wins,
                rank_lo: r.rank_ranges[i].0,
                rank_hi: r.rank_ranges[i].1,
                trueskill_mu: r.trueskill[i].mu,
                trueskill_sigma: r.trueskill[i].sigma,
                positions: methods.iter().map(|(_, p)| p[i]).collect(),
                // A system never compared is no winner.
                winner: r.winners.contains(&i) && s.wins + s.losses + s.ties > 0,
            }
        })
        .collect();
    let disagreements = method_disagreements(r)
        .into_iter()
        .map(|(x, y, above, below)| format!("{} above {} by {}; below it by {}.", r.systems[x], r.systems[y], above.join(", "), below.join(", ")))
        .collect();
    let names: Vec<&str> = r.systems.iter().map(String::as_str).collect();
    let ew_positions = &methods.iter().find(|(m, _)| *m == "expected wins").expect("a method").1;
    let ranges: Vec<plots::RankRange> = order
        .iter()
        .map(|&i| plots::RankRange { name: names[i], lo: r.rank_ranges[i].0, hi: r.rank_ranges[i].1, rank: ew_positions[i].unwrap_or(0) })
        .collect();
    super::RankingView {
        lang_pair: r.pair.clone(),
        blocks: r.blocks,
        blocks_all: a.blocks_all,
        blocks_repeated: a.blocks_repeated,
        judges_excluded: a.judges_excluded,
        rows,
        methods: methods.iter().map(|(m, _)| m.to_string()).collect(),
        disagreements,
        exact_note: (r.systems.len() > MAX_EXACT_SYSTEMS).then(|| {
            format!("{} systems are too many for the exact orderings (at most {MAX_EXACT_SYSTEMS}); use expected wins or TrueSkill.", r.systems.len())
        }),
        rank_range_svg: plots::rank_range_plot(&ranges),
        head_to_head_svg: plots::head_to_head_plot(&names, &r.head_to_head, &r.sign_p, &order),
        agreement: [("inter", &r.agreement.inter), ("intra", &r.agreement.intra)]
            .into_iter()
            .map(|(kind, k)| super::RankingKappaRow {
                kind: kind.into(),
                comparisons: k.comparisons,
                agreeing: k.agreeing,
                p_a: k.p_a,
                p_e: r.agreement.p_e,
                kappa: k.kappa,
                reading: k.reading.map_or_else(String::new, |x| x.as_str().replace('-', " ")),
                kappa_uniform: k.kappa_uniform,
                note: k.note.clone(),
            })
            .collect(),
    }
}

/// (original, bad reference) score pairs of every worker, matched inside a HIT by system and segment.
pub fn bad_ref_pairs(set: &JudgmentSet) -> HashMap<(u32, u16), Vec<(f64, f64)>> {
    // (worker, HIT, system, segment) of each bad reference → the first original's score: only
    // the bad references' keys are kept (a tenth of the records), not every original's.
    let key = |j: &analysis::Judgment| (j.worker, j.hit, j.system, j.segment);
    let mut originals: analysis::FxMap<(u32, u32, u32, u32), Option<f64>> =
        set.records.iter().filter(|j| j.item_type == ItemType::BadRef).map(|j| (key(j), None)).collect();
    for j in &set.records {
        if j.item_type == ItemType::System {
            if let Some(first @ None) = originals.get_mut(&key(j)) {
                *first = Some(j.score);
            }
        }
    }
    let mut out: HashMap<(u32, u16), Vec<(f64, f64)>> = HashMap::new();
    for j in &set.records {
        if j.item_type == ItemType::BadRef {
            if let Some(&Some(o)) = originals.get(&key(j)) {
                out.entry((j.worker, j.task)).or_default().push((o, j.score));
            }
        }
    }
    out
}

/// The review page's rows from the quality control of every (worker, task), each with the
/// worker's (original, bad reference) score pairs: names from the set's tables; the scatter
/// (drawn from the pairs for the rows of the page shown only), the gate's verdicts and the
/// organizer's decisions are added by [`super::decisions::workers_page`].
pub fn worker_rows(set: &JudgmentSet, workers: &[WorkerQc], exclusion: ExclusionPolicy) -> Vec<(WorkerRow, Vec<(f64, f64)>)> {
    worker_rows_with(set, workers, exclusion, bad_ref_pairs(set))
}

/// [`worker_rows`] with the pairs of [`bad_ref_pairs`] given.
fn worker_rows_with(
    set: &JudgmentSet,
    workers: &[WorkerQc],
    exclusion: ExclusionPolicy,
    mut pairs: HashMap<(u32, u16), Vec<(f64, f64)>>,
) -> Vec<(WorkerRow, Vec<(f64, f64)>)> {
    workers
        .iter()
        .map(|w| {
            let mut flags = Vec::new();
            if w.flags.fast_hits > 0 {
                flags.push(format!("{} HIT(s) faster than the floor", w.flags.fast_hits));
            }
            if w.flags.long_identical_run {
                flags.push(format!("long run of identical scores ({})", w.figures.longest_identical_run));
            }
            if w.flags.bad_not_lower {
                flags.push("bad references not scored lower".into());
            }
            if w.flags.low_ref {
                flags.push("references scored low".into());
            }
            let p = pairs.remove(&(w.worker, w.task)).unwrap_or_default();
            let row = WorkerRow {
                worker: name(set.workers.names(), w.worker as usize),
                task: name(set.tasks.names(), w.task as usize),
                hits: w.hits,
                judgments: w.judgments,
                mean_hit_seconds: w.figures.mean_hit_seconds,
                test: test_name(w.reliability.test).into(),
                n_pairs: w.reliability.n_pairs,
                p_value: w.reliability.p_value,
                verdict: verdict_name(w.reliability.verdict).into(),
                consistency_pairs: w.consistency.n_pairs,
                consistency_p: w.consistency.p_value,
                consistency_verdict: verdict_name(w.consistency.verdict).into(),
                flags,
                mean_original: w.figures.mean_original,
                mean_bad_ref: w.figures.mean_bad_ref,
                mean_ref: w.figures.mean_ref,
                mean_system: w.figures.mean_system,
                excluded: exclusion.excludes(w),
                scatter_svg: String::new(),
                gate: None,
                decisions: Vec::new(),
                standing: None,
                blocked: false,
                bonus_total: None,
                held_hits: 0,
                sessions: Vec::new(),
                gold: w.reliability.gold.as_ref().map(|g| super::GoldView {
                    agreement: g.agreement,
                    pairs: g.pairs,
                    agreed: g.agreed,
                    tied: g.tied,
                    blocks: g.blocks,
                    threshold: g.threshold,
                    verdict: verdict_name(g.verdict).into(),
                    copies_verdict: verdict_name(g.copies).into(),
                    summary: g.summary(),
                }),
            };
            (row, p)
        })
        .collect()
}

/// A campaign's review rows as [`qc_from_analysis`] and [`qc_read`] give them.
pub(crate) struct QcRows {
    /// Per (worker, task): the row, its (original, bad reference) score pairs, `workers.id`.
    pub rows: Vec<(WorkerRow, Vec<(f64, f64)>, i64)>,
    /// The versions of the judgments the rows are of.
    pub stamp: Stamp,
}

/// Quality control of every worker of a campaign, as the review page shows it (no z-scores,
/// no bootstrap, no protocol rows), from a current cached analysis of the campaign (its quality
/// control too, when its test is the page's); `None` when this server has none.
pub(crate) async fn qc_from_analysis(db: &Db, campaign_id: i64, options: ResultsOptions) -> AppResult<Option<QcRows>> {
    let settings = campaign_settings(db, campaign_id, options).await?;
    let (qc, exclusion) = (settings.qc, settings.exclusion);
    if let Some((analysis, stamp)) = analysis::campaign::current_analysis(db, campaign_id).await? {
        let same = analysis.result.settings.qc == qc;
        tracing::debug!("review of campaign {campaign_id}: from the cached analysis (its quality control: {same})");
        let rows = tokio::task::spawn_blocking(move || {
            let own;
            let workers = if same {
                &analysis.result.workers
            } else {
                own = analysis::quality::run(&analysis.set, &qc);
                &own
            };
            with_ids(campaign_id, worker_rows(&analysis.set, workers, exclusion), &analysis.worker_ids)
        })
        .await
        .map_err(|e| AppError::internal(format!("quality control failed: {e}")))??;
        return Ok(Some(QcRows { rows, stamp }));
    }
    Ok(None)
}

/// Quality control of every worker of a campaign, as [`qc_from_analysis`], from the campaign
/// read anew.
pub(crate) async fn qc_read(db: &Db, campaign_id: i64, options: ResultsOptions) -> AppResult<QcRows> {
    let settings = campaign_settings(db, campaign_id, options).await?;
    let (qc, exclusion) = (settings.qc, settings.exclusion);
    // The table's version is read before the judgments, so that a judgment stored meanwhile
    // makes the next check look again.
    let table = analysis::campaign::version(db, None).await?;
    let loaded = analysis::db::load_campaign_with_blocks(db, campaign_id, false).await?;
    let stamp = Stamp { campaign: loaded.version, table };
    let rows = tokio::task::spawn_blocking(move || {
        // Quality control and the scatters' pairs on two cores.
        let set = &loaded.set;
        let (workers, pairs) = std::thread::scope(|s| {
            let pairs = s.spawn(|| bad_ref_pairs(set));
            (analysis::quality::run(set, &qc), pairs.join())
        });
        let pairs = pairs.map_err(|_| AppError::internal("pairing the bad references failed"))?;
        with_ids(campaign_id, worker_rows_with(set, &workers, exclusion, pairs), &loaded.worker_ids)
    })
    .await
    .map_err(|e| AppError::internal(format!("quality control failed: {e}")))??;
    Ok(QcRows { rows, stamp })
}

/// Each review row with its worker's database id.
fn with_ids(campaign_id: i64, rows: Vec<(WorkerRow, Vec<(f64, f64)>)>, ids: &HashMap<String, i64>) -> AppResult<Vec<(WorkerRow, Vec<(f64, f64)>, i64)>> {
    rows.into_iter()
        .map(|(row, pairs)| {
            let id = *ids.get(&row.worker).ok_or_else(|| AppError::internal(format!("worker {} of campaign {campaign_id} has no id", row.worker)))?;
            Ok((row, pairs, id))
        })
        .collect()
}

/// The campaign analysed with the page's choices (the shared analysis and its cache).
/// An unknown campaign is [`AppError::NotFound`].
pub async fn run(db: &Db, campaign_id: i64, options: ResultsOptions) -> AppResult<std::sync::Arc<CampaignAnalysis>> {
    analysis::campaign::analyse(db, campaign_id, &campaign_settings(db, campaign_id, options).await?).await
}

/// Every launched or closed campaign with its number of judgments, newest first.
pub async fn list(db: &Db) -> AppResult<Vec<super::ResultsEntry>> {
    // (id, name, task, status, judgments); the status stays the stored name, as the page shows it.
    let rows: Vec<(i64, String, String, String, i64)> = sqlx::query_as(
        "SELECT c.id, c.name, c.task, c.status, \
         (SELECT COUNT(*) FROM judgments j JOIN assignments a ON a.id = j.assignment_id \
          JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = c.id) AS n \
         FROM campaigns c WHERE c.status <> $1 ORDER BY c.id DESC",
    )
    .bind(CampaignStatus::Draft.as_str())
    .fetch_all(&db.pool)
    .await
    .context("listing the campaigns with results")?;
    rows
        .into_iter()
        .map(|(id, name, task, status, judgments)| {
            Ok(super::ResultsEntry { id, task: crate::model::TaskKind::of_campaign(id, &task)?, name, status, judgments })
        })
        .collect::<AppResult<_>>()
}
