//! `assay analyze`: the analysis pipeline (METHOD §4–§6) on a campaign in the database or on a
//! judgment file, writing the WMT `ad-*` files, the mt-metrics-eval and WMT metrics-task score
//! files, and one `analysis.json` with everything and a manifest.
//!
//! Nothing is half-written: every file goes into a fresh directory beside `--out`, which is
//! renamed into place only once the analysis and every write succeeded.
//!
//! `assay simulate` writes a simulated crowd's judgments (the Graham/MTurk TSV) and, with
//! `--truth`, the simulation's truth as JSON: for tests, benchmarks and trying the analysis.

use std::fs::File;
use std::io::{BufWriter, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use app::analysis::bundle::{self, BundleOptions, DirSink, FileSink};
use app::analysis::formats;
use app::analysis::manifest::{self, ManifestInput};
use app::analysis::{AnalysisResult, AnalysisSettings, BootstrapSettings, ExclusionPolicy, JudgmentSet, QcTest, analyse};
use assay_core::protocol::pairwise;
use assay_core::metrics::postedit;
use serde_json::{Value, json};

use crate::config::Config;
use crate::error::{CliError, CliResult};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect from the first line.
    Auto,
    /// Graham/MTurk judgment TSV (`HITId WorkerId Input.src … score time`).
    Graham,
    /// Appraise segment-level CSV (`username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd`).
    Appraise,
    /// Assay's own judgment export, CSV (`judgments.csv`, raw or cleaned).
    AssayCsv,
    /// Assay's own judgment export, JSONL (`judgments.jsonl`).
    AssayJsonl,
    /// WMT relative-ranking CSV (`srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,…,system1rank,…`).
    WmtRanking,
    /// Appraise/WMT 2024 ESA CSV, no header (`user,system,itemID,itemType,srcLang,tgtLang,score,documentID,isCompleteDocument,spansJSON,start_time,end_time`).
    EsaCsv,
    /// WMT 2024 ESA JSONL (`langs, line_id, src, tgt, doc_id, domain, esa_spans, esa_score, system, annotator`).
    EsaJsonl,
    /// Google's MQM TSV (`system doc doc_seg_id global_seg_id rater source target category severity [metadata]`, spans as `<v>…</v>`).
    MqmTsv,
    /// Pairwise preference judgments, CSV (`segment,system_a,system_b,winner,worker`, optional `pair`).
    PairwiseCsv,
    /// Post-edit judgments, CSV (`segment,system,output,post_edit,worker`, optional `edit_ms`, `pair`).
    PostEditCsv,
    /// Contrastive ESA screens, Appraise's ContrastiveESA JSONL (`annotator, targets: [{target_id, score, mqm_annotations, …}], document_id, task_type`), as Appraise or Assay exports it.
    ContrastiveJsonl,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EsaRuleArg {
    /// WMT 2024: two-sided per-domain Wilcoxon + Stouffer, rank ranges (losses+1, N−wins), WMT 2024's cluster walk.
    Wmt24,
    /// WMT 2025: one-sided tests, ranges to the first significantly different neighbour, clusters from ranges.
    Wmt25,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReliabilityTest {
    /// Paired one-sided Student t test (default, EACL 2014).
    T,
    /// Paired one-sided Wilcoxon signed-rank test.
    Wilcoxon,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exclusion {
    /// Keep only workers who passed the reliability test (default).
    NotPassed,
    /// Exclude only workers who failed; keep those with too few pairs.
    FailedOnly,
    /// Exclude nobody.
    None,
}

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Analyse this campaign of the database.
    #[arg(long, conflicts_with = "input", required_unless_present = "input")]
    pub campaign: Option<i64>,
    /// Analyse this judgment file (Graham/MTurk TSV, Appraise CSV, or Assay's judgments.csv / .jsonl).
    #[arg(long)]
    pub input: Option<PathBuf>,
    /// Format of --input.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: InputFormat,
    /// Task name for Appraise files (they do not carry one).
    #[arg(long, default_value = assay_core::protocol::da::FAMILY)]
    pub task: String,
    /// Directory to write (created; must not exist or be empty unless --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace --out if it exists and is not empty.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// NAME of the mt-metrics-eval files (`LP.NAME-z.sys.score`, …) and DATA of DA-seglevel.csv
    /// and DArr-seglevel.csv.
    #[arg(long, default_value = "assay")]
    pub name: String,
    /// DArr-seglevel.csv: two outputs of the same source make a relative-ranking pair when their
    /// mean raw DA scores differ by at least this many points (WMT: 25; see --darr-rule).
    #[arg(long, default_value_t = app::analysis::export::DARR_THRESHOLD)]
    pub darr_threshold: f64,
    /// Which differences make a DArr pair: `at-least` the threshold (mt-metrics-eval's and WMT
    /// 2020's script, the default) or `over` it (the papers' "greater than", Assay's reading
    /// before December 2026).
    #[arg(long, default_value = "at-least")]
    pub darr_rule: String,
    /// ESA input: the ranking rule.
    #[arg(long, value_enum, default_value = "wmt24")]
    pub esa_rule: EsaRuleArg,
    /// ESA input: a documents file (`DOMAIN<TAB>DOCUMENT` per line, WMT's documents/<lp>.docs) giving
    /// each document's domain; may be repeated. Without one: the JSONL's domain, or the document id.
    #[arg(long)]
    pub esa_docs: Vec<PathBuf>,
    /// ESA and MQM input: language pairs averaging fewer segments per system are reported as too thin, not ranked.
    #[arg(long, default_value_t = 100.0)]
    pub esa_min_segments: f64,
    /// MQM input: the language pair (`en-de`) of the file; default: from a Google release's
    /// name (`mqm_newstest2020_ende.tsv`), else `all`.
    #[arg(long)]
    pub mqm_pair: Option<String>,
    /// MQM input: weights as JSON, the rest at their defaults (Major 5, Minor 1, Critical 5,
    /// Neutral 0, Minor Fluency/Punctuation 0.1, Non-translation 25, Source issue 0),
    /// e.g. '{"critical": 10}'.
    #[arg(long)]
    pub mqm_weights: Option<String>,
}

/// The pipeline's settings (METHOD §4–§6), shared by `analyze` and `export`.
#[derive(clap::Args, Debug)]
pub struct SettingsArgs {
    /// Reliability test on (original, bad reference) pairs.
    #[arg(long, value_enum, default_value = "t")]
    pub reliability_test: ReliabilityTest,
    /// Significance level of the worker tests.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Significance level of the system comparisons (wins, rank ranges, clusters).
    #[arg(long, default_value_t = 0.05)]
    pub comparison_alpha: f64,
    /// Fewest (original, bad reference) pairs for a verdict.
    #[arg(long, default_value_t = 5)]
    pub min_pairs: usize,
    /// Which workers are left out of the statistics.
    #[arg(long, value_enum, default_value = "not-passed")]
    pub exclude: Exclusion,
    /// Leave REF items out of each worker's mean and standard deviation.
    #[arg(long)]
    pub z_exclude_ref: bool,
    /// Leave BAD_REF items out of each worker's mean and standard deviation.
    #[arg(long)]
    pub z_exclude_bad_ref: bool,
    /// System score = mean of segment means (later WMT practice) instead of the mean of all judgments.
    #[arg(long)]
    pub per_segment: bool,
    /// Bootstrap samples for confidence intervals of system scores (0: none).
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 0x5EED)]
    pub seed: u64,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// About this many judgments (rounded up to whole HITs) in the file of `--out`.
    #[arg(long, default_value_t = 10_000)]
    pub judgments: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of systems (default: the simulator's 8) in the file of `--out`.
    #[arg(long)]
    pub systems: Option<usize>,
    /// The TSV to write (a Graham/MTurk judgment file of a simulated campaign).
    #[arg(long, conflicts_with = "campaign", required_unless_present = "campaign")]
    pub out: Option<PathBuf>,
    /// Also write the truth (system qualities and order, worker kinds) as JSON here.
    #[arg(long)]
    pub truth: Option<PathBuf>,
    /// Instead of a file: answer this launched campaign's HITs with simulated crowd workers,
    /// through the same storage path as the annotators' pages (for demos, tests, benchmarks).
    #[arg(long)]
    pub campaign: Option<i64>,
    /// The crowd: shares of careful, noisy, lazy (one score for everything), random (random
    /// clicks), harsh and lenient workers.
    #[arg(long, default_value = "careful=70,noisy=10,lazy=5,random=10,harsh=3,lenient=2")]
    pub mix: String,
    /// Workers to send (default: enough to take every free slot).
    #[arg(long)]
    pub workers: Option<usize>,
    /// HITs each worker does at most.
    #[arg(long, default_value_t = 1)]
    pub hits_per_worker: usize,
    /// Points between the worst and the best system's true quality.
    #[arg(long, default_value_t = 20.0)]
    pub spread: f64,
    /// The design benchmark (issue 39): `adaptive`, `uniform` or `both` designs run on simulated
    /// campaigns until every pair of systems is decided or too close, or the budget is spent;
    /// then `--truth` is the TSV `system<TAB>mean` to read and `--out` the directory to write
    /// `design.json` into. Given `--runs` alone, `both`.
    #[arg(long, conflicts_with = "campaign")]
    pub design: Option<String>,
    /// Benchmark: simulated campaigns per design.
    #[arg(long, conflicts_with = "campaign")]
    pub runs: Option<usize>,
    /// Benchmark: the crowd's shares of careful, noisy and careless (random-clicking) workers.
    #[arg(long, default_value = "careful=0.7,noisy=0.2,careless=0.1")]
    pub crowd: String,
    /// Benchmark: the chance of any wrong ordering (split evenly over the pairs of systems).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Benchmark: the smallest difference that matters, in points.
    #[arg(long, default_value_t = 1.0)]
    pub delta: f64,
    /// Benchmark: the budget of each campaign, in judgments (every item of a HIT).
    #[arg(long, default_value_t = 100_000)]
    pub budget: usize,
    /// Benchmark: the adaptive design's warm-up share of the budget (HITs built as today).
    #[arg(long, default_value_t = 0.01)]
    pub warm_up: f64,
    /// Replay recorded judgments (any file `assay analyze --input` reads) instead of simulating:
    /// each request for a system's output of a segment is answered with a recorded score of it,
    /// each used once; writes `--out DIR/replay.json`. The language pair (and task) with the
    /// most judgments is replayed.
    #[arg(long, conflicts_with_all = ["campaign", "truth"])]
    pub replay: Option<PathBuf>,
    /// Task of an Appraise CSV given as --replay (as `assay analyze --task`).
    #[arg(long, default_value = assay_core::protocol::da::FAMILY, requires = "replay")]
    pub task: String,
}

/// `assay simulate`.
pub async fn simulate(config: &crate::config::Config, args: SimulateArgs) -> CliResult<()> {
    let Some(campaign) = args.campaign else { return simulate_file(args) };
    let shares = app::annotate::simulate::CrowdMix::parse_shares(&args.mix).map_err(|e| CliError::usage(format!("--mix: {e}")))?;
    if args.hits_per_worker == 0 {
        return Err(CliError::usage("--hits-per-worker must be at least 1"));
    }
    let state = config.open_state().await?;
    let db = &state.db;
    // Free slots: every HIT's redundancy less its live assignments.
    let free = app::annotate::simulate::free_slots(db, campaign).await?;
    // An adaptive campaign builds more HITs as work is handed out, up to its budget.
    let free = free + app::campaign::launch::adaptive::slots_to_come(db, campaign).await?;
    let workers = args.workers.unwrap_or_else(|| free.div_ceil(args.hits_per_worker) + 3);
    let mix = app::annotate::simulate::CrowdMix { shares, workers, hits_per_worker: args.hits_per_worker, spread: args.spread, seed: args.seed };
    eprintln!("assay: {workers} simulated workers for the {free} free slots of campaign {campaign}");
    let started = Instant::now();
    let mut last = 0usize;
    let report = app::annotate::simulate::simulate_campaign(db, &state.secret, campaign, &mix, |r| {
        let tenth = r.workers * 10 / workers.max(1);
        if tenth > last {
            last = tenth;
            eprintln!("assay: {}% of the workers: {} HITs, {} judgments, {:.0} judgments/s", tenth * 10, r.hits, r.judgments, r.judgments as f64 / started.elapsed().as_secs_f64().max(1e-9));
        }
    })
    .await
    ?;
    let kinds: Vec<String> = report.by_kind.iter().map(|(k, n)| format!("{n} {k}")).collect();
    eprintln!(
        "assay: {} workers did {} HITs ({} judgments) in {:.1} s; {} failed the practice and left; {} found no work; kinds: {}",
        report.workers - report.idle_workers - report.failed_practice,
        report.hits,
        report.judgments,
        started.elapsed().as_secs_f64(),
        report.failed_practice,
        report.idle_workers,
        kinds.join(", ")
    );
    Ok(())
}

/// `assay simulate --design …`: the design benchmark, writing `DIR/design.json`.
fn simulate_designs(args: SimulateArgs) -> CliResult<()> {
    use assay_core::adaptive::bench::{self, BenchConfig, CrowdShares, Design};
    let designs: &[Design] = match args.design.as_deref().unwrap_or("both") {
        "both" => &[Design::Adaptive, Design::Uniform],
        "adaptive" => &[Design::Adaptive],
        "uniform" => &[Design::Uniform],
        other => return Err(CliError::usage(format!("--design must be adaptive, uniform or both, not {other:?}"))),
    };
    let truth_path = args.truth.clone().ok_or_else(|| CliError::usage("the design benchmark needs --truth FILE (system<TAB>mean)"))?;
    let out = args.out.clone().ok_or_else(|| CliError::usage("the design benchmark needs --out DIR"))?;
    let text = std::fs::read_to_string(&truth_path).map_err(|source| CliError::Open { path: truth_path.clone(), source })?;
    let truth = bench::parse_truth(&text).map_err(|e| CliError::Input { path: truth_path.clone(), problem: e.to_string() })?;
    let crowd = CrowdShares::parse(&args.crowd).map_err(|e| CliError::usage(e.to_string()))?;
    let runs = args.runs.unwrap_or(1000);
    if runs == 0 {
        return Err(CliError::usage("--runs must be at least 1"));
    }
    let settings = assay_core::adaptive::AdaptiveSettings { alpha: args.alpha, delta: args.delta, warm_up: args.warm_up, budget: args.budget, ..Default::default() };
    settings.validate().map_err(|e| CliError::usage(e.to_string()))?;
    let config = BenchConfig::new(truth, crowd, runs, args.seed, settings);
    let mut report = serde_json::Map::new();
    for &d in designs {
        let started = Instant::now();
        let summary = bench::run_design(&config, d).map_err(|e| CliError::usage(e.to_string()))?;
        eprintln!(
            "assay: {} design, {} runs: judgments median {} (q1 {}, q3 {}); pairs decided {}, wrong {}, too close {}, open {}; {} runs stopped by the budget ({:.1} s)",
            d.name(), summary.runs, summary.judgments_median, summary.judgments_q1, summary.judgments_q3, summary.pairs_decided, summary.pairs_wrong,
            summary.pairs_too_close, summary.pairs_open, summary.runs_budget_spent, started.elapsed().as_secs_f64()
        );
        report.insert(d.name().to_string(), serde_json::to_value(&summary).map_err(|e| CliError::other(e.to_string()))?);
    }
    report.insert("settings".into(), serde_json::json!({
        "truth": config.truth, "crowd": config.crowd, "seed": config.seed, "alpha": settings.alpha, "delta": settings.delta,
        "budget": settings.budget, "warm_up": settings.warm_up, "grid": settings.grid, "hit_length": config.design.length,
        "multiplicity": "Bonferroni: alpha / pairs",
    }));
    std::fs::create_dir_all(&out).map_err(CliError::io(format!("create {}", out.display())))?;
    let path = out.join("design.json");
    let text = serde_json::to_string_pretty(&serde_json::Value::Object(report)).map_err(|e| CliError::other(e.to_string()))?;
    std::fs::write(&path, text + "\n").map_err(CliError::io(format!("write {}", path.display())))?;
    eprintln!("assay: wrote {}", path.display());
    Ok(())
}

/// The recorded SYSTEM scores of the file's largest language pair (and task), by system and
/// segment, and that group's name.
fn replay_data(path: &Path, task: &str) -> CliResult<(assay_core::adaptive::replay::ReplayData, String)> {
    use std::collections::BTreeMap;
    let format = detect_format(path)?;
    // (group, system, segment, score)
    let mut rows: Vec<(String, String, String, f64)> = Vec::new();
    match format {
        InputFormat::EsaCsv | InputFormat::EsaJsonl => {
            let file = File::open(path).map_err(CliError::open(path))?;
            let reader = std::io::BufReader::new(file);
            let data = match format {
                InputFormat::EsaCsv => app::analysis::esa::read_esa_csv(reader),
                _ => app::analysis::esa::read_esa_jsonl(reader),
            }
            .map_err(CliError::bad(path))?;
            for r in data.ratings.iter().filter(|r| r.item_type == "TGT" && !r.complete_document) {
                rows.push((r.pair.clone(), r.system.clone(), r.item.clone(), r.score));
            }
        }
        InputFormat::Auto | InputFormat::Graham | InputFormat::Appraise | InputFormat::AssayCsv | InputFormat::AssayJsonl => {
            let (set, _, _) = read_file(path, format, task)?;
            for j in set.records.iter().filter(|j| j.item_type == app::model::ItemType::System) {
                let group = format!("{} {}", set.lang_pairs.name(u32::from(j.lang_pair)), set.tasks.name(u32::from(j.task)));
                rows.push((group, set.systems.name(j.system).to_string(), set.segments.name(j.segment).to_string(), j.score));
            }
        }
        other => return Err(CliError::usage(format!("--replay reads scored judgments (DA, ESA); {} files hold none", other.as_str()))),
    }
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        *sizes.entry(r.0.as_str()).or_default() += 1;
    }
    let group = sizes.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0))).map(|(g, _)| g.to_string()).ok_or_else(|| CliError::input(path, "no scored system outputs to replay"))?;
    let mut systems: BTreeMap<String, usize> = BTreeMap::new();
    let mut segments: BTreeMap<String, usize> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.0 == group) {
        let n = systems.len();
        systems.entry(r.1.clone()).or_insert(n);
        let n = segments.len();
        segments.entry(r.2.clone()).or_insert(n);
    }
    let mut cells = vec![vec![Vec::new(); segments.len()]; systems.len()];
    for r in rows.iter().filter(|r| r.0 == group) {
        cells[systems[&r.1]][segments[&r.2]].push(r.3);
    }
    let by_index = |m: BTreeMap<String, usize>| {
        let mut v: Vec<(usize, String)> = m.into_iter().map(|(k, i)| (i, k)).collect();
        v.sort();
        v.into_iter().map(|(_, k)| k).collect::<Vec<String>>()
    };
    Ok((assay_core::adaptive::replay::ReplayData { systems: by_index(systems), segments: by_index(segments), cells }, group))
}

/// `assay simulate --replay FILE …`: writes `DIR/replay.json`.
fn simulate_replay(args: SimulateArgs, path: PathBuf) -> CliResult<()> {
    use assay_core::adaptive::replay;
    let adaptive: &[bool] = match args.design.as_deref().unwrap_or("both") {
        "both" => &[true, false],
        "adaptive" => &[true],
        "uniform" => &[false],
        other => return Err(CliError::usage(format!("--design must be adaptive, uniform or both, not {other:?}"))),
    };
    let out = args.out.clone().ok_or_else(|| CliError::usage("--replay needs --out DIR"))?;
    let runs = args.runs.unwrap_or(100);
    if runs == 0 {
        return Err(CliError::usage("--runs must be at least 1"));
    }
    let settings = assay_core::adaptive::AdaptiveSettings { alpha: args.alpha, delta: args.delta, warm_up: 0.0, budget: usize::MAX, ..Default::default() };
    settings.validate().map_err(|e| CliError::usage(e.to_string()))?;
    let (data, group) = replay_data(&path, &args.task)?;
    if data.systems.len() < 2 {
        return Err(CliError::input(&path, format!("{group}: {} system(s); a replay needs at least two", data.systems.len())));
    }
    eprintln!("assay: replaying {group}: {} systems, {} segments, {} judgments", data.systems.len(), data.segments.len(), data.available());
    let mut report = serde_json::Map::new();
    for &a in adaptive {
        let name = if a { "adaptive" } else { "uniform" };
        let summary = replay::replay_design(&data, &settings, a, runs, args.seed).map_err(|e| CliError::usage(e.to_string()))?;
        eprintln!(
            "assay: {name}: judgments median {} of {} (q1 {}, q3 {}); pairs decided {}, disagreeing {}, too close {}, open {}; {} runs ran out of judgments",
            summary.judgments_median, summary.judgments_available, summary.judgments_q1, summary.judgments_q3, summary.pairs_decided,
            summary.pairs_disagreeing, summary.pairs_too_close, summary.pairs_open, summary.runs_exhausted
        );
        report.insert(name.into(), serde_json::to_value(&summary).map_err(|e| CliError::other(e.to_string()))?);
    }
    report.insert("full_analysis".into(), serde_json::to_value(data.full_analysis()).map_err(|e| CliError::other(e.to_string()))?);
    report.insert("settings".into(), serde_json::json!({
        "file": path.display().to_string(), "replayed": group, "seed": args.seed, "alpha": settings.alpha, "delta": settings.delta,
        "multiplicity": "Bonferroni: alpha / pairs",
    }));
    std::fs::create_dir_all(&out).map_err(CliError::io(format!("create {}", out.display())))?;
    let file = out.join("replay.json");
    let text = serde_json::to_string_pretty(&serde_json::Value::Object(report)).map_err(|e| CliError::other(e.to_string()))?;
    std::fs::write(&file, text + "\n").map_err(CliError::io(format!("write {}", file.display())))?;
    eprintln!("assay: wrote {}", file.display());
    Ok(())
}

fn simulate_file(args: SimulateArgs) -> CliResult<()> {
    if let Some(path) = args.replay.clone() {
        return simulate_replay(args, path);
    }
    if args.design.is_some() || args.runs.is_some() {
        return simulate_designs(args);
    }
    let out = args.out.clone().ok_or_else(|| CliError::usage("give --out FILE or --campaign ID"))?;
    let mut config = app::simulate::CrowdConfig::with_judgments(args.judgments);
    config.seed = args.seed;
    if let Some(k) = args.systems {
        if k == 0 {
            return Err(CliError::usage("--systems must be at least 1"));
        }
        // Quality spread over 40–80 (the default eight systems span 45–80), and as many
        // SYSTEM items per system as the judgment count asks for.
        config.system_quality = (0..k).map(|i| 40.0 + 40.0 * i as f64 / k.max(2) as f64).collect();
        let hits = args.judgments.div_ceil(config.design.length * config.assignments_per_hit);
        config.wanted = app::hit::JudgmentsWanted::PerSystem((hits * config.design.system_items() / k).max(1));
    }
    let file = File::create(&out).map_err(CliError::io(format!("create {}", out.display())))?;
    let truth = app::simulate::write_graham_tsv(&config, BufWriter::new(file))
        .map_err(|e| CliError::other(format!("{}: {e}", out.display())))?;
    if let Some(path) = args.truth {
        let text = serde_json::to_string_pretty(&truth).map_err(|e| CliError::other(e.to_string()))?;
        std::fs::write(&path, text).map_err(CliError::io(format!("write {}", path.display())))?;
    }
    eprintln!("assay: wrote {} judgments of {} HITs to {}", truth.judgments, truth.hits, out.display());
    Ok(())
}

impl InputFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Graham => "graham",
            InputFormat::Appraise => "appraise",
            InputFormat::AssayCsv => "assay-csv",
            InputFormat::AssayJsonl => "assay-jsonl",
            InputFormat::WmtRanking => "wmt-ranking",
            InputFormat::EsaCsv => "esa-csv",
            InputFormat::EsaJsonl => "esa-jsonl",
            InputFormat::MqmTsv => "mqm-tsv",
            InputFormat::PairwiseCsv => "pairwise-csv",
            InputFormat::PostEditCsv => "postedit-csv",
            InputFormat::ContrastiveJsonl => "contrastive-jsonl",
        }
    }
}

/// Reads a file and reports progress on stderr (every 10% for files over 20 MB).
struct Progress<R> {
    inner: R,
    read: u64,
    total: u64,
    next_report: u64,
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if self.total > 20_000_000 && self.read >= self.next_report {
            eprintln!("assay: read {}%", self.read * 100 / self.total);
            self.next_report += self.total / 10;
        }
        Ok(n)
    }
}

pub fn detect_format(path: &Path) -> CliResult<InputFormat> {
    // The file's head: its first line decides, or, for a CSV, its first record (a quoted field
    // may hold a line break: the record goes on past the line).
    let mut file = File::open(path).map_err(CliError::open(path))?;
    let mut head = Vec::with_capacity(64 * 1024);
    (&mut file).take(64 * 1024).read_to_end(&mut head).map_err(|e| CliError::input(path, format!("line 1: cannot read: {e}")))?;
    // What is UTF-8 of it (the head may end inside a character; a reader names a later bad byte).
    let head = match std::str::from_utf8(&head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
    };
    if head.trim().is_empty() && !file.metadata().is_ok_and(|m| m.len() == head.len() as u64) {
        return Err(CliError::input(path, "line 1: cannot read: not UTF-8 text"));
    }
    let head = head.trim_start_matches('\u{feff}').trim_start_matches(['\r', '\n', ' ', '\t']);
    let line = head.lines().next().unwrap_or_default().trim();
    if line.is_empty() {
        return Err(CliError::input(path, "line 1: the file is empty"));
    }
    if line.split_whitespace().any(|w| w == "HITId") && line.split_whitespace().any(|w| w == "WorkerId") {
        return Ok(InputFormat::Graham);
    }
    if line.to_ascii_lowercase().starts_with("srclang,trglang,") {
        return Ok(InputFormat::WmtRanking);
    }
    if formats::csv_first_record(head).is_some_and(|r| pairwise::files::is_judgment_header(&r)) {
        return Ok(InputFormat::PairwiseCsv);
    }
    if formats::csv_first_record(head).is_some_and(|r| postedit::files::is_judgment_header(&r)) {
        return Ok(InputFormat::PostEditCsv);
    }
    if line.starts_with("judgment_id,") {
        return Ok(InputFormat::AssayCsv);
    }
    if app::analysis::mqm::looks_like_mqm_tsv(line) {
        return Ok(InputFormat::MqmTsv);
    }
    if assay_core::analysis::contrastive::looks_like_appraise_jsonl(line) {
        return Ok(InputFormat::ContrastiveJsonl);
    }
    if app::analysis::esa::looks_like_esa_jsonl(line) {
        return Ok(InputFormat::EsaJsonl);
    }
    if app::analysis::esa::looks_like_esa_csv(head) {
        return Ok(InputFormat::EsaCsv);
    }
    if line.starts_with('{') {
        return Ok(InputFormat::AssayJsonl);
    }
    if line.starts_with("username,") || (!line.contains('\t') && matches!(formats::csv_first_record(head).map(|r| r.len()), Some(9 | 11))) {
        return Ok(InputFormat::Appraise);
    }
    Err(CliError::input(
        path,
        "line 1: neither a Graham/MTurk header (HITId WorkerId Input.src Input.trg Input.item hit sys_id \
         rid type sid score time) nor an Appraise CSV row (9 comma-separated fields) nor an ESA CSV row (12 fields) or WMT 2024 ESA JSONL \
         nor an MQM TSV (system<TAB>doc… header, or 9–10 tab-separated fields ending in a severity) \
         nor a pairwise preference CSV (segment,system_a,system_b,winner,worker) nor a post-edit CSV (segment,system,output,post_edit,worker) \
         nor Appraise's ContrastiveESA JSONL nor an Assay judgments.csv/.jsonl; name the format with --format",
    ))
}

pub fn read_file(path: &Path, format: InputFormat, task: &str) -> CliResult<(JudgmentSet, InputFormat, u64)> {
    let format = match format {
        InputFormat::Auto => detect_format(path)?,
        f => f,
    };
    let file = File::open(path).map_err(CliError::open(path))?;
    let total = file.metadata().map(|m| m.len()).unwrap_or(0);
    let reader = Progress { inner: file, read: 0, total, next_report: total / 10 };
    let set = match format {
        InputFormat::Appraise => formats::read_appraise_csv(reader, task),
        InputFormat::AssayCsv => formats::read_assay_csv(reader),
        InputFormat::AssayJsonl => formats::read_assay_jsonl(reader),
        _ => {
            // Read in parts on every core, block by block (no per-block progress).
            if total > 20_000_000 {
                eprintln!("assay: reading {} ({} MB) on every core", path.display(), total / 1_000_000);
            }
            formats::read_graham_file(path)
        }
    }
    .map_err(CliError::bad(path))?;
    Ok((set, format, total))
}

pub fn settings(args: &SettingsArgs) -> CliResult<AnalysisSettings> {
    for (flag, v) in [("--alpha", args.alpha), ("--comparison-alpha", args.comparison_alpha)] {
        if !(v > 0.0 && v < 1.0) {
            return Err(CliError::usage(format!("{flag} must lie strictly between 0 and 1 (got {v})")));
        }
    }
    let mut s = AnalysisSettings::default();
    s.qc.reliability_test = match args.reliability_test {
        ReliabilityTest::T => QcTest::PairedT,
        ReliabilityTest::Wilcoxon => QcTest::SignedRank,
    };
    s.qc.alpha = args.alpha;
    s.qc.min_pairs = args.min_pairs;
    s.exclusion = match args.exclude {
        Exclusion::NotPassed => ExclusionPolicy::NotPassed,
        Exclusion::FailedOnly => ExclusionPolicy::FailedOnly,
        Exclusion::None => ExclusionPolicy::None,
    };
    s.z.exclude_ref = args.z_exclude_ref;
    s.z.exclude_bad_ref = args.z_exclude_bad_ref;
    s.average_per_segment = args.per_segment;
    s.bootstrap = (args.bootstrap > 0).then_some(BootstrapSettings {
        samples: args.bootstrap,
        seed: args.seed,
        ..BootstrapSettings::default()
    });
    s.comparison.alpha = args.comparison_alpha;
    Ok(s)
}

/// Logs how long each file took to write (`ASSAY_LOG=debug`).
fn log_written(name: &str, ms: u128) {
    tracing::debug!("{name} written in {ms} ms");
}

/// A language pair's WMT 2024 ranking and p-value matrix, `<task>-ranking-<lp>.csv` and
/// `<task>-pvalues-<lp>.csv` (ESA and MQM alike), added to `files`.
fn write_ranking_files(sink: &mut DirSink, files: &mut Vec<String>, task: &str, lp: &str, r: &app::analysis::esa::EsaPairReport) -> CliResult<()> {
    use app::analysis::esa;
    let name = format!("{task}-ranking-{lp}.csv");
    sink.file(&name, &mut |w| esa::write_esa_ranking_csv(w, r))?;
    files.push(name);
    let name = format!("{task}-pvalues-{lp}.csv");
    sink.file(&name, &mut |w| esa::write_esa_pvalues_csv(w, r))?;
    files.push(name);
    Ok(())
}

/// A fresh staging directory beside `out`.
pub fn staging_dir(out: &Path) -> CliResult<PathBuf> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(CliError::io(format!("create {}", parent.display())))?;
    let base = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "analysis".into());
    let dir = parent.join(format!(".{base}.partial-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(CliError::io(format!("clear {}", dir.display())))?;
    }
    std::fs::create_dir(&dir).map_err(CliError::io(format!("create {}", dir.display())))?;
    Ok(dir)
}

pub fn check_out(out: &Path, force: bool) -> CliResult<()> {
    if out.exists() {
        if !out.is_dir() {
            return Err(CliError::usage(format!("--out {} exists and is not a directory", out.display())));
        }
        let empty = std::fs::read_dir(out).map_err(CliError::io(format!("read {}", out.display())))?.next().is_none();
        if !empty && !force {
            return Err(CliError::usage(format!("--out {} exists and is not empty (use --force to replace it)", out.display())));
        }
    }
    Ok(())
}

/// Writes the files of `out` into a staging directory beside it and moves them into place only
/// when every file was written: `out` is whole or unchanged.
fn write_whole(out: &Path, write: impl FnOnce(&Path) -> CliResult<()>) -> CliResult<()> {
    let staging = staging_dir(out)?;
    match write(&staging) {
        Ok(()) => move_into_place(&staging, out),
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

pub fn move_into_place(staging: &Path, out: &Path) -> CliResult<()> {
    if out.exists() {
        let old = staging.with_extension("old");
        std::fs::rename(out, &old).map_err(CliError::io(format!("move the old {} aside", out.display())))?;
        std::fs::rename(staging, out).map_err(CliError::io(format!("move the results to {}", out.display())))?;
        std::fs::remove_dir_all(&old).map_err(CliError::io(format!("remove {}", old.display())))?;
    } else {
        std::fs::rename(staging, out).map_err(CliError::io(format!("move the results to {}", out.display())))?;
    }
    Ok(())
}

/// An analysis of a file, or of a campaign (shared with the cache).
enum Analysed {
    File(JudgmentSet, AnalysisResult),
    Campaign(std::sync::Arc<app::analysis::campaign::CampaignAnalysis>),
}

impl Analysed {
    fn result(&self) -> &AnalysisResult {
        match self {
            Analysed::File(_, r) => r,
            Analysed::Campaign(a) => &a.result,
        }
    }
}

fn announce(set: &app::analysis::JudgmentSet) {
    eprintln!(
        "assay: {} judgments by {} workers of {} systems; quality control, z-scores, scores and comparisons",
        set.records.len(),
        set.workers.len(),
        set.systems.len()
    );
}

/// `assay analyze`.
pub async fn analyze(config: &Config, args: AnalyzeArgs) -> CliResult<()> {
    let start = Instant::now();
    let settings = settings(&args.settings)?;
    if !(args.darr_threshold.is_finite() && args.darr_threshold >= 0.0) {
        return Err(CliError::usage(format!("--darr-threshold must be a number of points, 0 or more, not {}", args.darr_threshold)));
    }
    if app::analysis::export::DarrRule::parse(&args.darr_rule).is_none() {
        return Err(CliError::usage(format!("--darr-rule must be at-least or over, not {:?}", args.darr_rule)));
    }
    check_out(&args.out, args.force)?;
    if let Some(path) = &args.input {
        let format = match args.format {
            InputFormat::Auto => detect_format(path)?,
            f => f,
        };
        if format == InputFormat::WmtRanking {
            return analyze_ranking(path, &args, start);
        }
        if matches!(format, InputFormat::EsaCsv | InputFormat::EsaJsonl) {
            return analyze_esa(path, &args, format, start);
        }
        if format == InputFormat::MqmTsv {
            return analyze_mqm(path, &args, start);
        }
        if format == InputFormat::PairwiseCsv {
            return analyze_pairwise(path, &args, start);
        }
        if format == InputFormat::PostEditCsv {
            return analyze_postedit(path, &args, start);
        }
        if format == InputFormat::ContrastiveJsonl {
            return analyze_contrastive(path, &args, start);
        }
    }
    let (analysed, source, from_db) = match (&args.input, args.campaign) {
        (Some(path), _) => {
            eprintln!("assay: reading {}", path.display());
            let (set, format, bytes) = read_file(path, args.format, &args.task)?;
            let source = json!({"kind": "file", "path": path.display().to_string(), "format": format.as_str(), "bytes": bytes});
            if set.records.is_empty() {
                return Err(CliError::input(path, "no judgments (only a header?)"));
            }
            announce(&set);
            let result = analyse(&set, &settings);
            (Analysed::File(set, result), source, false)
        }
        (None, Some(id)) => {
            let db = app::db::connect(&config.database_url()).await?;
            eprintln!("assay: reading campaign {id} from the database and analysing it");
            // The shared path of every view of a campaign (the results page, the API, exports).
            let a = app::analysis::campaign::analyse(&db, id, &settings).await?;
            if a.set.records.is_empty() {
                return Err(CliError::other(format!("campaign {id} has no judgments yet")));
            }
            announce(&a.set);
            let backend = format!("{:?}", db.backend).to_lowercase();
            let source = app::export::campaign_source(&a.info, &backend);
            (Analysed::Campaign(a), source, true)
        }
        (None, None) => return Err(CliError::usage("give --input FILE or --campaign ID")),
    };
    let result = analysed.result();
    eprintln!("assay: analysed in {:.2} s; writing {}", start.elapsed().as_secs_f64(), args.out.display());

    write_whole(&args.out, |dir| write_all(dir, &args, &analysed, &source, from_db, start))?;
    let g = result.groups.len();
    eprintln!(
        "assay: {} of {} workers kept; {} group(s) of task and language pair; results in {}",
        result.workers.iter().filter(|w| !settings.exclusion.excludes(w)).count(),
        result.workers.len(),
        g,
        args.out.display()
    );
    Ok(())
}

/// `assay analyze --input` on a WMT ranking CSV: every method of WMT 2012 per language pair,
/// `ranking-<lp>.csv`, `head-to-head-<lp>.csv`, the agreement of every pair in
/// `ranking-agreement.csv` and `ranking.json`, written whole or not at all.
fn analyze_ranking(path: &Path, args: &AnalyzeArgs, start: Instant) -> CliResult<()> {
    use app::analysis::ranking;
    eprintln!("assay: reading {} (WMT relative ranking)", path.display());
    let file = File::open(path).map_err(CliError::open(path))?;
    let pairs = ranking::read_wmt_ranking_csv(std::io::BufReader::new(file)).map_err(CliError::bad(path))?;
    if pairs.iter().all(|p| p.blocks.is_empty()) {
        return Err(CliError::input(path, "no ranked blocks (only a header?)"));
    }
    let samples = if args.settings.bootstrap > 0 { args.settings.bootstrap } else { 1000 };
    let reports: Vec<ranking::PairReport> = pairs
        .iter()
        .map(|d| {
            eprintln!("assay: {}: {} blocks, {} systems", d.pair, d.blocks.len(), d.systems.len());
            ranking::report(d, samples, args.settings.seed)
        })
        .collect();
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        for r in &reports {
            app::analysis::bundle::write_ranking_files(&mut sink, r, None)?;
        }
        sink.file("ranking-agreement.csv", &mut |w| ranking::write_agreement_csv(w, &reports))?;
        let json = serde_json::json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": "wmt-ranking"},
            "bootstrap": {"samples": samples, "seed": args.settings.seed},
            "seconds": start.elapsed().as_secs_f64(),
            "pairs": reports,
        });
        sink.file("ranking.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!("assay: {} language pair(s) ranked in {:.2} s; results in {}", reports.len(), start.elapsed().as_secs_f64(), args.out.display());
    Ok(())
}

/// `assay analyze --input` on a pairwise preference CSV: Bradley–Terry ratings per language pair,
/// `pairwise-<pair>.csv` and `pairwise.json` (with the win and tie matrices), written whole or
/// not at all. `--bootstrap` resamples (0: no intervals) with `--seed`.
fn analyze_pairwise(path: &Path, args: &AnalyzeArgs, start: Instant) -> CliResult<()> {
    use pairwise::bradley_terry::{self, BtSettings};
    eprintln!("assay: reading {} (pairwise preference)", path.display());
    let file = File::open(path).map_err(CliError::open(path))?;
    let pairs = pairwise::files::read_judgment_csv(std::io::BufReader::new(file)).map_err(|e| CliError::input(path, e))?;
    if pairs.is_empty() {
        return Err(CliError::input(path, "no judgments (only a header?)"));
    }
    let settings = BtSettings { samples: args.settings.bootstrap, seed: args.settings.seed };
    let mut reports = Vec::new();
    for d in &pairs {
        eprintln!("assay: {}: {} judgments, {} systems", d.pair, d.judgments.len(), d.systems.len());
        let report = bradley_terry::rate(&d.systems, &d.comparisons(), &settings).map_err(|e| CliError::input(path, format!("{}: {e}", d.pair)))?;
        reports.push((d.pair.as_str(), report));
    }
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        for (pair, r) in &reports {
            sink.file(&pairwise::files::ratings_file_name(pair), &mut |w| pairwise::files::write_ratings_csv(w, r))?;
        }
        let json = serde_json::json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": InputFormat::PairwiseCsv.as_str()},
            "seconds": start.elapsed().as_secs_f64(),
            "pairs": reports.iter().map(|(pair, r)| serde_json::json!({"pair": pair, "bradley_terry": r})).collect::<Vec<_>>(),
        });
        sink.file("pairwise.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!("assay: {} language pair(s) rated in {:.2} s; results in {}", reports.len(), start.elapsed().as_secs_f64(), args.out.display());
    Ok(())
}

/// `assay analyze --input` on Appraise's ContrastiveESA JSONL (Appraise's export or Assay's
/// `appraise-contrastive-<pair>.jsonl`): per language pair, the systems compared within screens
/// (one-sided Wilcoxon signed-rank tests at `--comparison-alpha`, WMT 2025's rank ranges and clusters),
/// `contrastive-<pair>.csv` as a campaign's export writes it and `contrastive.json`; written
/// whole or not at all.
fn analyze_contrastive(path: &Path, args: &AnalyzeArgs, start: Instant) -> CliResult<()> {
    use assay_core::analysis::contrastive;
    eprintln!("assay: reading {} (contrastive ESA, Appraise's JSONL)", path.display());
    let file = File::open(path).map_err(CliError::open(path))?;
    let pairs = contrastive::read_appraise_jsonl(std::io::BufReader::new(file)).map_err(CliError::bad(path))?;
    if pairs.iter().all(|p| p.scores.is_empty()) {
        return Err(CliError::input(path, "no system outputs (TGT) to compare"));
    }
    let reports: Vec<contrastive::ContrastiveReport> = pairs
        .iter()
        .map(|p| {
            eprintln!("assay: {}: {} scores of system outputs, {} quality-control outputs", p.pair, p.scores.len(), p.control);
            contrastive::compare_within_screens(&p.pair, &p.scores, args.settings.comparison_alpha)
        })
        .collect();
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        for r in &reports {
            let name = format!("contrastive-{}.csv", app::analysis::esa::file_pair(&r.ranking.pair));
            sink.file(&name, &mut |w| contrastive::write_contrastive_csv(w, r))?;
        }
        let json = serde_json::json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": InputFormat::ContrastiveJsonl.as_str()},
            "seconds": start.elapsed().as_secs_f64(),
            "pairs": reports,
        });
        sink.file("contrastive.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!("assay: {} language pair(s) compared in {:.2} s; results in {}", reports.len(), start.elapsed().as_secs_f64(), args.out.display());
    Ok(())
}

/// `assay analyze --input` on a post-edit judgment CSV: HTER per system (sacrebleu's TER of
/// each output against its post-edit, corpus-level) with bootstrap intervals (`--bootstrap`
/// resamples of segments, 0: none, `--seed`) and rank ranges, per language pair:
/// `postedit-<pair>.csv`, `postedit-<pair>-segments.csv`, the judgments again as
/// `postedit-<pair>-judgments.csv`, each system's post-edits as `postedits-<pair>-<system>.txt`
/// (one line per segment, in the file's order of segments) and `postedit.json`; written whole or
/// not at all.
fn analyze_postedit(path: &Path, args: &AnalyzeArgs, start: Instant) -> CliResult<()> {
    use assay_core::metrics::hter::HterSettings;
    use postedit::{campaign, files};
    eprintln!("assay: reading {} (post-edits)", path.display());
    let file = File::open(path).map_err(CliError::open(path))?;
    let pairs = files::read_judgment_csv(std::io::BufReader::new(file)).map_err(|e| CliError::input(path, e))?;
    let settings = HterSettings { samples: args.settings.bootstrap, seed: args.settings.seed, ..HterSettings::default() };
    let none = std::collections::BTreeSet::new();
    let mut reports = Vec::new();
    for d in &pairs {
        eprintln!("assay: {}: {} post-edits, {} segments", d.pair, d.post_edits.len(), d.segments.len());
        let report = campaign::analyse(&d.pair, &d.post_edits, &none, &settings).map_err(|e| CliError::input(path, format!("{}: {e}", d.pair)))?;
        reports.push((d, report));
    }
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        for (d, r) in &reports {
            sink.file(&files::hter_file_name(&d.pair), &mut |w| files::write_hter_csv(w, r))?;
            sink.file(&files::segments_file_name(&d.pair), &mut |w| files::write_segments_csv(w, r))?;
            sink.file(&format!("postedit-{}-judgments.csv", d.pair), &mut |w| files::write_judgment_csv(w, &d.pair, &d.post_edits))?;
            for (system, lines) in campaign::references(&d.post_edits, &none, &d.segments) {
                sink.file(&files::references_file_name(&d.pair, system), &mut |w| files::write_references(w, &lines))?;
            }
        }
        let json = serde_json::json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": InputFormat::PostEditCsv.as_str()},
            "seconds": start.elapsed().as_secs_f64(),
            "ter_signature": assay_core::metrics::ter::TerConfig::default().signature(1),
            "pairs": reports.iter().map(|(_, r)| r).collect::<Vec<_>>(),
        });
        sink.file("postedit.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!("assay: {} language pair(s) post-edited, HTER in {:.2} s; results in {}", reports.len(), start.elapsed().as_secs_f64(), args.out.display());
    Ok(())
}

/// `assay analyze --input` on an ESA CSV or JSONL: the WMT 2024 reading and ranking (or the WMT
/// 2025 rule) per language pair, `esa-ranking-<lp>.csv`, `esa-pvalues-<lp>.csv` and `esa.json`,
/// written whole or not at all.
fn analyze_esa(path: &Path, args: &AnalyzeArgs, format: InputFormat, start: Instant) -> CliResult<()> {
    use app::analysis::esa;
    let settings = esa_settings(args)?;
    eprintln!("assay: reading {} ({})", path.display(), format.as_str());
    let file = File::open(path).map_err(CliError::open(path))?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let reader = std::io::BufReader::new(file);
    let data = match format {
        InputFormat::EsaCsv => esa::read_esa_csv(reader),
        _ => esa::read_esa_jsonl(reader),
    }
    .map_err(CliError::bad(path))?;
    if data.ratings.is_empty() {
        return Err(CliError::input(path, "no ratings"));
    }
    let documents = documents_map(args)?;
    let analysis = esa::analyse(&data, documents.as_ref(), &settings).map_err(CliError::bad(path))?;
    for r in &analysis.ranked {
        eprintln!(
            "assay: {}: {} systems, {} segments ({:.1} per system), {} annotators, {} domains, {} cluster(s)",
            r.pair,
            r.systems.len(),
            r.segments,
            r.average_segments_per_system,
            r.annotators,
            r.domains.len(),
            r.systems.last().map_or(0, |s| s.cluster)
        );
    }
    for t in &analysis.too_thin {
        eprintln!(
            "assay: {}: too thin to rank ({:.1} segments per system on average, fewer than {})",
            t.pair, t.average_segments_per_system, t.min_segments
        );
    }
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        let mut files = Vec::new();
        for r in &analysis.ranked {
            let lp = esa::file_pair(&r.pair);
            write_ranking_files(&mut sink, &mut files, assay_core::protocol::esa::NAME, &lp, r)?;
        }
        files.push("esa.json".into());
        let json = json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": format.as_str(), "bytes": bytes},
            "documents_files": args.esa_docs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "conventions": {
                "span_offsets": "Unicode scalar values of the target, start inclusive, end exclusive; omissions (\"missing\") at 0-0",
                "segment": "language pair, system, document, item id; value = mean over annotators of each annotator's latest rating",
                "system_score": "mean of the system's per-domain means",
                "p_values": if settings.rule == esa::EsaRule::Wmt24 { "two-sided per-domain Wilcoxon (SciPy defaults), Stouffer; symmetric" } else { "one-sided (row better than column) per-domain Wilcoxon (SciPy defaults), Stouffer" },
            },
            "settings": analysis.settings,
            "domain_source": analysis.domain_source,
            "ratings_read": analysis.ratings_read,
            "dropped": analysis.dropped,
            "spans": analysis.spans,
            "too_thin": analysis.too_thin,
            "pairs": analysis.ranked,
            "files": files,
            "seconds": start.elapsed().as_secs_f64(),
        });
        sink.file("esa.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!(
        "assay: {} language pair(s) ranked, {} too thin, in {:.2} s; results in {}",
        analysis.ranked.len(),
        analysis.too_thin.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// The settings of the ESA ranking from the command line (shared by ESA and MQM input).
fn esa_settings(args: &AnalyzeArgs) -> CliResult<app::analysis::esa::EsaSettings> {
    use app::analysis::esa;
    if !(args.esa_min_segments.is_finite() && args.esa_min_segments >= 0.0) {
        return Err(CliError::usage(format!("--esa-min-segments must be a number ≥ 0 (got {})", args.esa_min_segments)));
    }
    Ok(esa::EsaSettings {
        rule: match args.esa_rule {
            EsaRuleArg::Wmt24 => esa::EsaRule::Wmt24,
            EsaRuleArg::Wmt25 => esa::EsaRule::Wmt25,
        },
        alpha: args.settings.comparison_alpha,
        min_segments: args.esa_min_segments,
    })
}

/// Document → domain, as the `--esa-docs` files give them.
type Domains = std::collections::HashMap<String, String>;

/// Reads every `--esa-docs` file into one document → domain map (`None` without any).
fn documents_map(args: &AnalyzeArgs) -> CliResult<Option<Domains>> {
    if args.esa_docs.is_empty() {
        return Ok(None);
    }
    let mut map = std::collections::HashMap::new();
    for docs in &args.esa_docs {
        let f = File::open(docs).map_err(CliError::open(docs))?;
        app::analysis::esa::read_documents(std::io::BufReader::new(f), &mut map).map_err(CliError::bad(docs))?;
    }
    Ok(Some(map))
}

/// `assay analyze --input` on Google's MQM TSV: MQM scores per rater, segment and system, the
/// ranking with the ESA tests on the per-segment scores, `mqm-scores-<lp>.csv`,
/// `mqm-ranking-<lp>.csv` (the ESA header), `mqm-pvalues-<lp>.csv` and `mqm.json`, written whole
/// or not at all.
fn analyze_mqm(path: &Path, args: &AnalyzeArgs, start: Instant) -> CliResult<()> {
    use app::analysis::{esa, mqm};
    let settings = esa_settings(args)?;
    let weights: assay_core::protocol::mqm::MqmWeights = match &args.mqm_weights {
        None => Default::default(),
        Some(json) => match serde_json::from_str::<serde_json::Value>(json) {
            Ok(v @ Value::Object(_)) => serde_json::from_value(v).map_err(|e| CliError::usage(format!("--mqm-weights: {e} (known: minor, major, critical, neutral, minor_punctuation, non_translation, source_issue, reinterpretation)")))?,
            _ => return Err(CliError::usage(format!("--mqm-weights: not a JSON object of weights: {json}"))),
        },
    };
    weights.validate().map_err(|e| CliError::usage(format!("--mqm-weights: {e}")))?;
    let pair = match &args.mqm_pair {
        Some(p) => app::import::LanguagePair::parse(p).map_err(|e| CliError::usage(format!("--mqm-pair: {e}")))?.to_string(),
        None => path.file_name().and_then(|n| mqm::pair_from_file_name(&n.to_string_lossy())).unwrap_or_else(|| "all".into()),
    };
    eprintln!("assay: reading {} (MQM TSV, language pair {pair})", path.display());
    let file = File::open(path).map_err(CliError::open(path))?;
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let data = mqm::read_mqm_tsv(std::io::BufReader::new(file)).map_err(CliError::bad(path))?;
    if data.rows.is_empty() {
        return Err(CliError::input(path, "no rows (only a header?)"));
    }
    if !data.unclosed_markers.is_empty() {
        eprintln!("assay: {} row(s) open <v> without </v> (read to the end of the text), first on line {}", data.unclosed_markers.len(), data.unclosed_markers[0]);
    }
    let documents = documents_map(args)?;
    let analysis = mqm::analyse(&pair, &data.rows, &weights, documents.as_ref(), &settings).map_err(CliError::bad(path))?;
    match (&analysis.ranking, &analysis.too_thin) {
        (Some(r), _) => eprintln!(
            "assay: {}: {} systems, {} segments ({:.1} per system), {} raters, {} domains, {} cluster(s)",
            r.pair,
            r.systems.len(),
            r.segments,
            r.average_segments_per_system,
            r.annotators,
            r.domains.len(),
            r.systems.last().map_or(0, |s| s.cluster)
        ),
        (None, Some(t)) => eprintln!(
            "assay: {}: too thin to rank ({:.1} segments per system on average, fewer than {}); scores written",
            t.pair, t.average_segments_per_system, t.min_segments
        ),
        (None, None) => {}
    }
    write_whole(&args.out, |dir| {
        let mut sink = DirSink { dir, written: Some(&log_written) };
        let lp = esa::file_pair(&pair);
        let mut files = Vec::new();
        let name = format!("mqm-scores-{lp}.csv");
        sink.file(&name, &mut |w| mqm::write_mqm_scores_csv(w, &analysis.systems))?;
        files.push(name);
        if let Some(r) = &analysis.ranking {
            write_ranking_files(&mut sink, &mut files, assay_core::protocol::mqm::NAME, &lp, r)?;
        }
        files.push("mqm.json".into());
        let json = json!({
            "source": {"kind": "file", "path": path.display().to_string(), "format": InputFormat::MqmTsv.as_str(), "bytes": bytes},
            "documents_files": args.esa_docs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "conventions": {
                "span_offsets": "Unicode scalar values of the text carrying the <v> markers (target, or source when flagged), markers removed, start inclusive, end exclusive",
                "score": "MQM score = -(sum of error weights): 0 is perfect, lower is worse (Google's sign)",
                "segment": "system, doc, doc_seg_id, global_seg_id; value = mean over raters of each rater's score",
                "system_score": "mqm-scores: mean over the system's segments; mqm-ranking: mean of per-domain means (the same with one domain)",
                "p_values": if settings.rule == esa::EsaRule::Wmt24 { "two-sided per-domain Wilcoxon (SciPy defaults), Stouffer; symmetric" } else { "one-sided (row better than column) per-domain Wilcoxon (SciPy defaults), Stouffer" },
            },
            "settings": settings,
            "unclosed_markers": data.unclosed_markers,
            "analysis": analysis,
            "files": files,
            "seconds": start.elapsed().as_secs_f64(),
        });
        sink.file("mqm.json", &mut |w| serde_json::to_writer_pretty(w, &json).map_err(std::io::Error::other))?;
        Ok(())
    })?;
    eprintln!("assay: MQM scores of {} systems in {:.2} s; results in {}", analysis.systems.len(), start.elapsed().as_secs_f64(), args.out.display());
    Ok(())
}

fn write_all(dir: &Path, args: &AnalyzeArgs, analysed: &Analysed, source: &Value, from_db: bool, start: Instant) -> CliResult<()> {
    let mut sink = DirSink { dir, written: Some(&log_written) };
    let options = BundleOptions {
        name: &args.name,
        segments_in_test_set_order: from_db,
        darr_threshold: args.darr_threshold,
        darr_rule: app::analysis::export::DarrRule::parse(&args.darr_rule).unwrap_or_default(),
    };
    let result = analysed.result();
    // A campaign's files are the exports' (a ranking campaign's included).
    let mut files = match analysed {
        Analysed::File(set, result) => bundle::write_result_files(&mut sink, result, Some(set), &options)?,
        Analysed::Campaign(a) => a.write_files(&mut sink, &options)?,
    };
    // The agreement report, as the exports' agreement.json (a file's: each task on its
    // question's scale, word order's two questions read from score and score2).
    let agreement = match analysed {
        Analysed::File(set, result) => app::analysis::campaign::agreement(set, result, app::analysis::campaign::agreement_of_all(set)),
        Analysed::Campaign(a) => a.agreement().clone(),
    };
    sink.file("agreement.json", &mut |w| {
        serde_json::to_writer_pretty(&mut *w, &agreement)?;
        w.write_all(b"\n")
    })?;
    files.push("agreement.json".into());
    files.push("analysis.json".into());
    let manifest = manifest::manifest(
        result,
        ManifestInput { source: source.clone(), filter: None, files: &files, seconds: Some(start.elapsed().as_secs_f64()) },
    );
    sink.file("analysis.json", &mut |w| bundle::write_analysis_json(w, &manifest, result))?;
    Ok(())
}
