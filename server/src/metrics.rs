//! `assay metrics`: automatic metrics and how well they agree with human judgments (issue 21).
//!
//! - `assay metrics score`: BLEU, chrF, chrF++ or TER of one system output against one or more
//!   references, exactly as sacrebleu 2.4.3 computes them; prints sacrebleu's line (signature,
//!   rounded score, details) and, last, `NAME SCORE` at full precision (or, with `--segments`,
//!   the signature and one segment score per line).
//! - `assay metrics compare`: randomized significance tests between system outputs on corpus
//!   BLEU / chrF, resampling the metric's sufficient statistics (Graham & Liu 2014).
//! - `assay metrics evaluate`: the meta-evaluation of metric scores against human scores,
//!   written as CSV and JSON into a fresh directory (moved into place only when complete).
//!
//! Text files are read as UTF-8, one segment a line (`\n`, a trailing `\r` dropped).

use crate::error::{CliError, CliResult};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use assay_core::metrics::bleu::{self, BleuConfig};
use assay_core::metrics::chrf::{self, ChrfConfig};
use assay_core::metrics::ter::{self, TerConfig};
use assay_core::metrics::meta::{self, MetaReport, MetaSettings};
use assay_core::metrics::report::{self, alt_name, test_name};
use assay_core::metrics::read::{self, ReadError, Scores, TableFormat};
use assay_core::metrics::systems::{self, SystemTestSettings};
use assay_core::metrics::tokenize::Tokenizer;
use assay_core::metrics::python_repr;
use app::stats::Alternative;
use app::stats::resample::RandomizedTest;

use crate::analyze::{check_out, move_into_place, staging_dir};

#[derive(clap::Subcommand, Debug)]
pub enum MetricsCommand {
    /// Score a system output with BLEU, chrF, chrF++ or TER (sacrebleu 2.4.3, to the last digit).
    Score(ScoreArgs),
    /// Randomized significance tests between system outputs on corpus BLEU or chrF.
    Compare(CompareArgs),
    /// Meta-evaluate metric scores against human scores; writes CSV and meta.json.
    Evaluate(EvaluateArgs),
    /// Upload metric scores for a campaign (they join BLEU and chrF on its metrics page).
    Add(AddArgs),
    /// Delete a metric uploaded for a campaign, with its scores.
    Remove(RemoveArgs),
}

#[derive(clap::Args, Debug)]
pub struct AddArgs {
    /// The campaign the scores are for.
    #[arg(long)]
    pub campaign: i64,
    /// The metric's name for a TSV or JSONL file without a metric column.
    #[arg(long)]
    pub name: Option<String>,
    /// Score files (mt-metrics-eval LP/METRIC-REF.sys.score and .seg.score, .tsv, .jsonl) or
    /// directories holding them (an mt-metrics-eval LP directory, or its parent).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct RemoveArgs {
    /// The campaign.
    #[arg(long)]
    pub campaign: i64,
    /// The uploaded metric's name.
    #[arg(long)]
    pub metric: String,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricName {
    Bleu,
    Chrf,
    #[value(name = "chrf++")]
    ChrfPlusPlus,
    /// TER (sacrebleu's `TER`: Tercom's shifts, lowercased unless --ter-case-sensitive).
    Ter,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenizeName {
    #[value(name = "13a")]
    Thirteen,
    Zh,
    Intl,
    Char,
    None,
    /// MeCab with the IPA dictionary (see [`ja_mecab`]).
    #[value(name = "ja-mecab")]
    JaMecab,
    /// Refused: MeCab-ko with mecab-ko-dic, on no registry this project uses.
    #[value(name = "ko-mecab")]
    KoMecab,
    /// Refused: a SentencePiece model.
    #[value(name = "spm", alias = "flores101", alias = "flores200")]
    Spm,
}

/// sacrebleu's signature of its ja-mecab tokenizer (mecab-python3's MeCab 0.996, IPA dictionary).
pub const JA_MECAB_SIGNATURE: &str = "ja-mecab-0.996-IPA";

/// Where the IPA dictionary's source files are by default: Debian's `mecab-ipadic` package.
pub const IPADIC_DEFAULT: &str = "/usr/share/mecab/dic/ipadic";

/// MeCab's segmentation (`-Owakati`) with the IPA dictionary 2.7.0, as sacrebleu's ja-mecab
/// tokenizer does it: no crate on crates.io carries the dictionary (its source is larger than
/// a crate may be), so its source files are read from `dir` (Debian's `mecab-ipadic`, EUC-JP or
/// UTF-8) and built with the `vibrato` crate, a reimplementation of MeCab's Viterbi search
/// (checked against sacrebleu with mecab-python3 and PyPI's `ipadic` in
/// `tests/fixtures/metrics/ja-mecab.json`).
pub fn ja_mecab(dir: &Path) -> CliResult<vibrato::Tokenizer> {
    let why = "--tokenize ja-mecab needs the source files of MeCab's IPA dictionary 2.7.0 (Debian: apt-get install mecab-ipadic), given with --mecab-dic DIR";
    let read = |name: &str| -> CliResult<String> {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).map_err(|e| CliError::usage(format!("{why}: cannot read {}: {e}", path.display())))?;
        Ok(match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => encoding_rs::EUC_JP.decode(e.as_bytes()).0.into_owned(),
        })
    };
    let mut csv: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| CliError::usage(format!("{why}: cannot read {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    csv.sort();
    let mut lex = String::new();
    for p in &csv {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let text = read(&name)?;
        lex.push_str(&text);
        if !text.ends_with('\n') {
            lex.push('\n');
        }
    }
    // The IPA dictionary 2.7.0-20070801: 392127 lines of source (MeCab calls the compiled
    // dictionary 392126 entries, which sacrebleu checks); another dictionary is refused.
    let entries = lex.lines().filter(|l| !l.trim().is_empty()).count();
    if entries != 392_127 {
        return Err(CliError::usage(format!("{why}: {} holds {entries} entries, not the IPA dictionary 2.7.0's 392127", dir.display())));
    }
    let dict = vibrato::SystemDictionaryBuilder::from_readers(lex.as_bytes(), read("matrix.def")?.as_bytes(), read("char.def")?.as_bytes(), read("unk.def")?.as_bytes())
        .map_err(|e| CliError::usage(format!("{why}: {}: {e}", dir.display())))?;
    // MeCab skips spaces between words and groups unknown words of a category up to 24 characters.
    Ok(vibrato::Tokenizer::new(dict).ignore_space(true).map_err(|e| CliError::usage(format!("{why}: {e}")))?.max_grouping_len(24))
}

/// Lines segmented as sacrebleu's ja-mecab does (stripped, MeCab's words joined by one space),
/// lowercased first when BLEU lowercases (sacrebleu lowercases before it tokenizes).
fn segment_lines(t: &vibrato::Tokenizer, lines: &[String], lowercase: bool) -> Vec<String> {
    let mut w = t.new_worker();
    lines
        .iter()
        .map(|l| {
            let l = if lowercase { l.to_lowercase() } else { l.clone() };
            w.reset_sentence(l.trim());
            w.tokenize();
            (0..w.num_tokens()).map(|i| w.token(i).surface().to_string()).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

impl TokenizeName {
    fn tokenizer(self) -> CliResult<Tokenizer> {
        Ok(match self {
            TokenizeName::Thirteen => Tokenizer::Thirteen,
            TokenizeName::Zh => Tokenizer::Zh,
            TokenizeName::Intl => Tokenizer::Intl,
            TokenizeName::Char => Tokenizer::Char,
            TokenizeName::None => Tokenizer::None,
            // BLEU on the lines ja-mecab segmented (see `MetricArgs::segmented`).
            TokenizeName::JaMecab => Tokenizer::None,
            TokenizeName::KoMecab => {
                return Err(CliError::usage("--tokenize ko-mecab is not available: sacrebleu's ko-mecab needs MeCab-ko and its dictionary (mecab-ko-dic), which no crate on crates.io carries; use --tokenize char for Korean"));
            }
            TokenizeName::Spm => {
                return Err(CliError::usage("--tokenize spm/flores101/flores200 is not available: sacrebleu's SentencePiece tokenizers load a model it downloads at run time, which Assay does not do"));
            }
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct MetricArgs {
    #[arg(long, value_enum, default_value = "bleu")]
    pub metric: MetricName,
    /// A reference file, one segment a line; repeat for several references.
    #[arg(long = "reference", required = true)]
    pub references: Vec<PathBuf>,
    /// BLEU's tokenizer (sacrebleu's `--tokenize`).
    #[arg(long, value_enum, default_value = "13a")]
    pub tokenize: TokenizeName,
    /// Lowercase hypothesis and references first.
    #[arg(long)]
    pub lowercase: bool,
    /// `--tokenize ja-mecab`: the source files of MeCab's IPA dictionary 2.7.0 (Debian's
    /// mecab-ipadic puts them here).
    #[arg(long, env = "ASSAY_MECAB_IPADIC", default_value = IPADIC_DEFAULT)]
    pub mecab_dic: PathBuf,
    /// chrF: sacrebleu's `--chrf-eps-smoothing` (eff:no).
    #[arg(long)]
    pub eps_smoothing: bool,
    /// TER: sacrebleu's `--ter-normalized` (Tercom's punctuation tokenization, norm:yes).
    #[arg(long)]
    pub ter_normalized: bool,
    /// TER: sacrebleu's `--ter-no-punct` (punctuation removed, punct:no).
    #[arg(long)]
    pub ter_no_punct: bool,
    /// TER: sacrebleu's `--ter-asian-support` (CJK apart with --ter-normalized, CJK punctuation
    /// removed with --ter-no-punct; asian:yes).
    #[arg(long)]
    pub ter_asian_support: bool,
    /// TER: sacrebleu's `--ter-case-sensitive` (case:mixed; TER lowercases by default).
    #[arg(long)]
    pub ter_case_sensitive: bool,
}

impl MetricArgs {
    /// With BLEU and `--tokenize ja-mecab`: the texts segmented by MeCab (BLEU then splits on
    /// spaces, as sacrebleu does after its tokenizer), and the signature's tokenizer name.
    fn segmented(&self, texts: &mut [&mut Vec<String>]) -> CliResult<Option<&'static str>> {
        if self.metric != MetricName::Bleu || self.tokenize != TokenizeName::JaMecab {
            return Ok(None);
        }
        let t = ja_mecab(&self.mecab_dic)?;
        for lines in texts.iter_mut() {
            **lines = segment_lines(&t, lines, self.lowercase);
        }
        Ok(Some(JA_MECAB_SIGNATURE))
    }
}

/// The output with the signature naming the tokenizer that segmented the text.
fn named(o: String, tok: Option<&str>) -> String {
    match tok {
        Some(t) => o.replace("|tok:none|", &format!("|tok:{t}|")),
        None => o,
    }
}

#[derive(clap::Args, Debug)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub metric: MetricArgs,
    /// The system output, one segment a line.
    #[arg(long)]
    pub hypothesis: PathBuf,
    /// Print each segment's score (sacrebleu's sentence_bleu / sentence_chrf) instead of the corpus score.
    #[arg(long)]
    pub segments: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestName {
    /// Approximate randomization (each segment's pair swapped with probability ½).
    Ar,
    /// Bootstrap with shift-to-zero.
    Bootstrap,
    /// Koehn's paired bootstrap (one-sided).
    PairedBootstrap,
}

#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// The randomized test between systems.
    #[arg(long, value_enum, default_value = "ar")]
    pub test: TestName,
    /// Two-sided instead of one-sided (row system better than column system).
    #[arg(long)]
    pub two_sided: bool,
    /// Resamples of the randomized tests between systems.
    #[arg(long, default_value_t = 1000)]
    pub test_samples: usize,
    /// Significance level.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl TestArgs {
    fn settings(&self) -> CliResult<SystemTestSettings> {
        if self.test_samples == 0 || !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(CliError::usage("--test-samples must be ≥ 1 and --alpha in (0, 1)"));
        }
        Ok(SystemTestSettings {
            test: match self.test {
                TestName::Ar => RandomizedTest::ApproximateRandomization,
                TestName::Bootstrap => RandomizedTest::Bootstrap,
                TestName::PairedBootstrap => RandomizedTest::PairedBootstrap,
            },
            alternative: if self.two_sided { Alternative::TwoSided } else { Alternative::Greater },
            samples: self.test_samples,
            seed: self.seed,
            alpha: self.alpha,
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    #[command(flatten)]
    pub metric: MetricArgs,
    /// A system output; repeat for each system (at least two). The system's name is the file
    /// name without its extension.
    #[arg(long = "hypothesis", required = true)]
    pub hypotheses: Vec<PathBuf>,
    #[command(flatten)]
    pub test: TestArgs,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssayScoreName {
    Z,
    Raw,
}

#[derive(clap::Args, Debug)]
pub struct EvaluateArgs {
    /// Human scores: Assay's `analysis.json`, mt-metrics-eval `.score` files (`LP.NAME.sys.score`, `LP.NAME.seg.score`,
    /// as `assay analyze` writes them, or `LP/NAME.LEVEL.score`), a TSV (`system segment score`
    /// with or without that header, or named columns) or a JSONL file. Repeat for a sys and a
    /// seg file.
    #[arg(long = "human", required_unless_present = "judgments", conflicts_with = "judgments")]
    pub human: Vec<PathBuf>,
    /// Instead of --human: a judgment file, as `assay analyze --input` reads it (Graham/MTurk
    /// TSV, Appraise CSV, Assay's judgments.csv / .jsonl, e.g. from a campaign's or a study's
    /// export), analysed with the results page's default settings; its human scores are the
    /// kept workers' mean z per system and per segment, as on a campaign's metrics page. The
    /// metric files are then fitted to it as uploads to a campaign are (its language pair, its
    /// judged systems, its segment ids; every problem with its file and line; all or nothing),
    /// and the files written are named as in a campaign's export (`metrics-system-level.csv`,
    /// …, `metrics.json`).
    #[arg(long)]
    pub judgments: Option<PathBuf>,
    /// Format of --judgments.
    #[arg(long, value_enum, default_value = "auto", requires = "judgments")]
    pub format: crate::analyze::InputFormat,
    /// Task of an Appraise CSV given as --judgments.
    #[arg(long, default_value = assay_core::protocol::da::FAMILY, requires = "judgments")]
    pub task: String,
    /// With --judgments: the test set has this many segments, with ids 1..N in order (as WMT's
    /// segment ids are), so an mt-metrics-eval segment file lists N lines per system; without
    /// it the test set is the judged segments' ids, in order.
    #[arg(long, requires = "judgments")]
    pub test_set_segments: Option<usize>,
    /// Metric scores: directories (searched for `*.score`, `*.tsv`, `*.jsonl`) or files.
    #[arg(long = "metrics", required = true, num_args = 1..)]
    pub metrics: Vec<PathBuf>,
    /// Which of Assay's scores to read from an `analysis.json` given as --human.
    #[arg(long, value_enum, default_value = "z")]
    pub assay_scores: AssayScoreName,
    /// Language pair of TSV/JSONL rows without a pair column.
    #[arg(long)]
    pub pair: Option<String>,
    /// Directory to write (created; must not exist or be empty unless --force).
    #[arg(long)]
    pub output: PathBuf,
    #[arg(long)]
    pub force: bool,
    /// Bootstrap resamples of the correlation intervals.
    #[arg(long, default_value_t = 1000)]
    pub bootstrap: usize,
    /// Resamples of PERM-BOTH and of the permutation p-values behind SPA.
    #[arg(long, default_value_t = 1000)]
    pub permutations: usize,
    /// Human score difference above which two outputs of a segment form a DArr pair.
    #[arg(long, default_value_t = 25.0)]
    pub darr_threshold: f64,
    /// Which human differences make a DArr pair: `at-least` the threshold (WMT's and
    /// mt-metrics-eval's KendallLike) or `over` it (Assay's reading before December 2026).
    #[arg(long, default_value = "at-least")]
    pub darr_rule: String,
    /// How acc_eq is averaged: `per-segment` (mt-metrics-eval's acc23, average_by="item") or
    /// `pooled` over all pairs (Assay's reading before December 2026).
    #[arg(long, default_value = "per-segment")]
    pub acc_eq: String,
    /// Skip the randomized tests between systems.
    #[arg(long)]
    pub no_system_tests: bool,
    #[command(flatten)]
    pub test: TestArgs,
}

pub fn run(command: MetricsCommand) -> CliResult<()> {
    match command {
        MetricsCommand::Score(a) => score(&a),
        MetricsCommand::Compare(a) => compare(&a),
        MetricsCommand::Evaluate(a) => evaluate(&a),
        MetricsCommand::Add(_) | MetricsCommand::Remove(_) => Err(CliError::other("this command needs the database (run through `campaign`)")),
    }
}

/// The commands that read or write the database: `add` and `remove`.
pub async fn campaign(config: &crate::config::Config, command: MetricsCommand) -> CliResult<()> {
    use app::results::uploaded::{self, AddError};
    let db = app::db::connect(&config.database_url()).await?;
    match command {
        MetricsCommand::Add(a) => {
            let mut paths = Vec::new();
            for p in &a.files {
                if p.is_dir() {
                    let mut found = Vec::new();
                    list_files(p, &mut found)?;
                    if found.is_empty() {
                        return Err(CliError::input(p, "no .score, .tsv or .jsonl file in this directory"));
                    }
                    // Keep the language-pair directory in the name mt-metrics-eval files are read by.
                    for f in found {
                        let rel = f.strip_prefix(p.parent().unwrap_or(Path::new(""))).unwrap_or(&f).display().to_string();
                        paths.push((f, rel));
                    }
                } else {
                    paths.push((p.clone(), p.display().to_string()));
                }
            }
            let mut files = Vec::new();
            for (path, rel) in paths {
                files.push((rel, std::fs::read_to_string(&path).map_err(CliError::open(&path))?));
            }
            match uploaded::add(&db, a.campaign, None, &files, a.name.as_deref()).await {
                Ok(s) => {
                    println!("{}", s.line());
                    Ok(())
                }
                Err(AddError::Files(errors)) => Err(CliError::Nothing { done: "uploaded", problems: errors.iter().map(|e| e.to_string()).collect() }),
                Err(AddError::App(e)) => Err(e.into()),
            }
        }
        MetricsCommand::Remove(a) => {
            let list = uploaded::list(&db, a.campaign).await?;
            let Some(m) = list.iter().find(|m| m.name == a.metric) else {
                let names: Vec<&str> = list.iter().map(|m| m.name.as_str()).collect();
                return Err(CliError::usage(format!(
                    "campaign {} has no uploaded metric {:?} (uploaded: {})",
                    a.campaign,
                    a.metric,
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                )));
            };
            uploaded::delete(&db, a.campaign, m.id).await?;
            println!("Deleted {} from campaign {}.", m.name, a.campaign);
            Ok(())
        }
        other => run(other),
    }
}

fn read_lines(path: &Path) -> CliResult<Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(CliError::open(path))?;
    let mut lines: Vec<String> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l).to_string()).collect();
    if text.ends_with('\n') || text.is_empty() {
        lines.pop();
    }
    Ok(lines)
}

fn read_refs(paths: &[PathBuf], n: usize) -> CliResult<Vec<Vec<String>>> {
    let mut refs = Vec::new();
    for p in paths {
        let r = read_lines(p)?;
        if r.len() != n {
            return Err(CliError::Lengths { path: p.clone(), lines: r.len(), other: "the hypothesis".into(), expected: n });
        }
        refs.push(r);
    }
    Ok(refs)
}

enum Config {
    Bleu(BleuConfig),
    Chrf(ChrfConfig),
    Ter(TerConfig),
}

fn config(a: &MetricArgs) -> CliResult<Config> {
    Ok(match a.metric {
        MetricName::Bleu => Config::Bleu(BleuConfig { tokenize: a.tokenize.tokenizer()?, lowercase: a.lowercase, ..BleuConfig::default() }),
        MetricName::Chrf | MetricName::ChrfPlusPlus => {
            let mut c = if a.metric == MetricName::Chrf { ChrfConfig::chrf() } else { ChrfConfig::chrf_plus_plus() };
            c.lowercase = a.lowercase;
            c.eps_smoothing = a.eps_smoothing;
            Config::Chrf(c)
        }
        MetricName::Ter => {
            if a.lowercase {
                return Err(CliError::usage("--lowercase does not apply to TER: it lowercases by default (case:lc); --ter-case-sensitive keeps case"));
            }
            Config::Ter(TerConfig {
                normalized: a.ter_normalized,
                no_punct: a.ter_no_punct,
                asian_support: a.ter_asian_support,
                case_sensitive: a.ter_case_sensitive,
            })
        }
    })
}

fn score(a: &ScoreArgs) -> CliResult<()> {
    let mut o = String::new();
    let mut hyps = read_lines(&a.hypothesis)?;
    let mut refs = read_refs(&a.metric.references, hyps.len())?;
    let mut texts: Vec<&mut Vec<String>> = vec![&mut hyps];
    texts.extend(refs.iter_mut());
    let tok = a.metric.segmented(&mut texts)?;
    let nrefs = refs.len();
    let e = CliError::Metric;
    match config(&a.metric)? {
        Config::Bleu(c) if a.segments => {
            let c = c.sentence();
            let _ = writeln!(o, "{}", c.signature(nrefs));
            for s in bleu::sentence_bleus(&hyps, &refs, &c).map_err(e)? {
                let _ = writeln!(o, "{}", python_repr(s.score));
            }
        }
        Config::Bleu(c) => {
            let s = bleu::corpus_bleu(&hyps, &refs, &c).map_err(e)?;
            let prec: Vec<String> = s.precisions.iter().map(|p| format!("{p:.1}")).collect();
            let ratio = if s.stats.ref_len > 0 { s.stats.hyp_len as f64 / s.stats.ref_len as f64 } else { 0.0 };
            let _ = writeln!(o, 
                "BLEU|{} = {:.2} {} (BP = {:.3} ratio = {ratio:.3} hyp_len = {} ref_len = {})",
                c.signature(nrefs),
                s.score,
                prec.join("/"),
                s.bp,
                s.stats.hyp_len,
                s.stats.ref_len
            );
            let _ = writeln!(o, "BLEU {}", python_repr(s.score));
        }
        Config::Chrf(c) if a.segments => {
            let _ = writeln!(o, "{}", c.signature(nrefs));
            for s in chrf::sentence_chrfs(&hyps, &refs, &c).map_err(e)? {
                let _ = writeln!(o, "{}", python_repr(s));
            }
        }
        Config::Chrf(c) => {
            let s = chrf::corpus_chrf(&hyps, &refs, &c).map_err(e)?;
            let _ = writeln!(o, "{}|{} = {s:.2}", c.name(), c.signature(nrefs));
            let _ = writeln!(o, "{} {}", c.name(), python_repr(s));
        }
        Config::Ter(c) if a.segments => {
            let _ = writeln!(o, "{}", c.signature(nrefs));
            for s in ter::sentence_ters(&hyps, &refs, &c).map_err(e)? {
                let _ = writeln!(o, "{}", python_repr(s));
            }
        }
        Config::Ter(c) => {
            // sacrebleu's line (`str(score)` with its signature), then the full-precision score.
            let (s, _) = ter::corpus_ter(&hyps, &refs, &c).map_err(e)?;
            let _ = writeln!(o, "TER|{} = {s:.2}", c.signature(nrefs));
            let _ = writeln!(o, "TER {}", python_repr(s));
        }
    }
    emit(&named(o, tok))
}

/// Writes the command's output at once; a closed pipe (`| head`) is not an error.
fn emit(o: &str) -> CliResult<()> {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(o.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io { doing: "write".into(), source: e }),
        _ => Ok(()),
    }
}

fn system_name(p: &Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| p.display().to_string())
}

fn compare(a: &CompareArgs) -> CliResult<()> {
    let mut o = String::new();
    if a.hypotheses.len() < 2 {
        return Err(CliError::usage("give at least two --hypothesis files"));
    }
    let settings = a.test.settings()?;
    let mut outputs: Vec<(String, Vec<String>)> = a.hypotheses.iter().map(|p| Ok((system_name(p), read_lines(p)?))).collect::<CliResult<_>>()?;
    let n = outputs[0].1.len();
    if let Some((name, o)) = outputs.iter().find(|(_, o)| o.len() != n) {
        return Err(CliError::Lengths { path: name.into(), lines: o.len(), other: outputs[0].0.clone(), expected: n });
    }
    let mut refs = read_refs(&a.metric.references, n)?;
    let mut texts: Vec<&mut Vec<String>> = outputs.iter_mut().map(|(_, o)| o).collect();
    texts.extend(refs.iter_mut());
    let tok = a.metric.segmented(&mut texts)?;
    let e = CliError::Metric;
    let (signature, matrix, scores) = match config(&a.metric)? {
        Config::Bleu(c) => {
            let mut stats = Vec::new();
            for (name, o) in &outputs {
                stats.push((name.clone(), bleu::segment_statistics(o, &refs, &c).map_err(e)?));
            }
            let scores: Vec<f64> = stats.iter().map(|(_, s)| bleu::bleu_from_stats(&bleu::BleuStats::sum(s), &c).score).collect();
            (format!("BLEU|{}", c.signature(refs.len())), systems::bleu_significance(&stats, &c, &settings).map_err(|e| CliError::other(e.to_string()))?, scores)
        }
        Config::Chrf(c) => {
            let mut stats = Vec::new();
            for (name, o) in &outputs {
                stats.push((name.clone(), chrf::segment_statistics(o, &refs, &c).map_err(e)?));
            }
            let scores: Vec<f64> = stats.iter().map(|(_, s)| chrf::chrf_from_stats(&chrf::ChrfStats::sum(s), &c)).collect();
            (format!("{}|{}", c.name(), c.signature(refs.len())), systems::chrf_significance(&stats, &c, &settings).map_err(|e| CliError::other(e.to_string()))?, scores)
        }
        Config::Ter(_) => {
            return Err(CliError::usage("compare tests BLEU and chrF; TER has no randomized test between systems in Assay yet"));
        }
    };
    let _ = writeln!(o, "{signature}");
    let _ = writeln!(o, "test: {} ({}), {} samples, seed {}; p[row][column]: {}", test_name(&matrix), alt_name(matrix.alternative), matrix.samples, matrix.seed, if matrix.alternative == Alternative::TwoSided { "row and column differ" } else { "row better than column" });
    let _ = write!(o, "system\tscore");
    for s in &matrix.systems {
        let _ = write!(o, "\t{s}");
    }
    o.push('\n');
    for (i, s) in matrix.systems.iter().enumerate() {
        let _ = write!(o, "{s}\t{}", python_repr(scores[i]));
        for p in &matrix.p[i] {
            match p {
                Some(p) => {
                    let _ = write!(o, "\t{}{}", python_repr(*p), if *p < a.test.alpha { "*" } else { "" });
                }
                None => o.push_str("\t-"),
            }
        }
        o.push('\n');
    }
    emit(&named(o, tok))
}

/// Reads one score file by its extension.
fn read_scores(path: &Path, rel: &str, default_name: Option<&str>, pair: Option<&str>, assay: read::AssayScore) -> Result<Vec<Scores>, Vec<ReadError>> {
    let text = std::fs::read_to_string(path).map_err(|e| vec![ReadError::new(rel, None, format!("cannot read: {e}"))])?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "score" => read::read_mme(&[(rel.to_string(), text)]),
        "jsonl" => read::read_table(rel, &text, TableFormat::Jsonl, default_name, pair),
        "json" => read::read_analysis_json(rel, &text, assay),
        _ => read::read_table(rel, &text, TableFormat::Tsv, default_name, pair),
    }
}

fn list_files(root: &Path, out: &mut Vec<PathBuf>) -> CliResult<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root)
        .map_err(CliError::io(format!("read {}", root.display())))?
        .map(|e| e.map(|e| e.path()).map_err(CliError::io(format!("read {}", root.display()))))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        if p.is_dir() {
            list_files(&p, out)?;
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("score" | "tsv" | "jsonl")) {
            out.push(p);
        }
    }
    Ok(())
}

/// Reads every file; mt-metrics-eval files are read together (a metric's sys and seg files
/// merge), tables one by one. All or nothing.
fn read_all(paths: &[PathBuf], default_name: Option<&str>, pair: Option<&str>, assay: read::AssayScore) -> Result<Vec<Scores>, Vec<ReadError>> {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            if let Err(e) = list_files(p, &mut found) {
                errors.push(ReadError::new(&p.display().to_string(), None, e.to_string()));
            }
            if found.is_empty() {
                errors.push(ReadError::new(&p.display().to_string(), None, "no .score, .tsv or .jsonl file in this directory"));
            }
            for f in found {
                // Keep the language-pair directory in the name mt-metrics-eval files are read by.
                let rel = f.strip_prefix(p.parent().unwrap_or(Path::new(""))).unwrap_or(&f).display().to_string();
                files.push((f, rel));
            }
        } else {
            files.push((p.clone(), p.display().to_string()));
        }
    }
    let mut mme = Vec::new();
    let mut out: Vec<Scores> = Vec::new();
    for (path, rel) in files {
        if path.extension().and_then(|e| e.to_str()) == Some("score") {
            match std::fs::read_to_string(&path) {
                Ok(t) => mme.push((rel, t)),
                Err(e) => errors.push(ReadError::new(&rel, None, format!("cannot read: {e}"))),
            }
        } else {
            match read_scores(&path, &rel, default_name, pair, assay) {
                Ok(s) => out.extend(s),
                Err(e) => errors.extend(e),
            }
        }
    }
    if !mme.is_empty() {
        match read::read_mme(&mme) {
            Ok(s) => out.extend(s),
            Err(e) => errors.extend(e),
        }
    }
    // One entry per name: the same metric from several files merges by pair.
    let mut merged: std::collections::BTreeMap<String, Scores> = std::collections::BTreeMap::new();
    for s in out {
        let e = merged.entry(s.name.clone()).or_insert_with(|| Scores { name: s.name.clone(), pairs: Default::default() });
        for (pair, p) in s.pairs {
            match e.pairs.entry(pair) {
                std::collections::btree_map::Entry::Occupied(o) => {
                    errors.push(ReadError::new("", None, format!("{} {}: scores come from more than one file", s.name, o.key())));
                }
                std::collections::btree_map::Entry::Vacant(v) => {
                    v.insert(p);
                }
            }
        }
    }
    if errors.is_empty() { Ok(merged.into_values().collect()) } else { Err(errors) }
}

fn listed(errors: Vec<ReadError>) -> CliError {
    CliError::Nothing { done: "evaluated", problems: errors.iter().map(|e| e.to_string()).collect() }
}

fn evaluate(a: &EvaluateArgs) -> CliResult<()> {
    check_out(&a.output, a.force)?;
    let system_tests = if a.no_system_tests { None } else { Some(a.test.settings()?) };
    if a.bootstrap == 0 || a.permutations == 0 {
        return Err(CliError::usage("--bootstrap and --permutations must be ≥ 1"));
    }
    let darr_rule = meta::DarrRule::parse(&a.darr_rule)
        .ok_or_else(|| CliError::usage(format!("--darr-rule must be one of {}, not {:?}", meta::DarrRule::ALL.map(|r| r.name()).join(", "), a.darr_rule)))?;
    let acc_eq_averaging = meta::AccEqAveraging::parse(&a.acc_eq)
        .ok_or_else(|| CliError::usage(format!("--acc-eq must be one of {}, not {:?}", meta::AccEqAveraging::ALL.map(|r| r.name()).join(", "), a.acc_eq)))?;
    let assay = match a.assay_scores {
        AssayScoreName::Z => read::AssayScore::Z,
        AssayScoreName::Raw => read::AssayScore::Raw,
    };
    let (human, metrics, names) = match &a.judgments {
        Some(path) => {
            let (human, metrics) = from_judgments(path, a)?;
            (human, metrics, report::EXPORT_FILES)
        }
        None => {
            let human = read_all(&a.human, Some("human"), a.pair.as_deref(), assay).map_err(listed)?;
            let mut human_iter = human.into_iter();
            let (Some(human), None) = (human_iter.next(), human_iter.next()) else {
                return Err(CliError::usage("--human must hold the scores of one set of human judgments (found several names)"));
            };
            let metrics = read_all(&a.metrics, None, a.pair.as_deref(), assay).map_err(listed)?;
            let metrics: Vec<Scores> = metrics.into_iter().filter(|m| m.name != human.name).collect();
            (human, metrics, report::REPORT_FILES)
        }
    };
    if metrics.is_empty() {
        return Err(CliError::usage("no metric scores were found"));
    }
    eprintln!("assay: {} metric(s), {} language pair(s) of human scores", metrics.len(), human.pairs.len());
    let settings = MetaSettings {
        bootstrap_samples: a.bootstrap,
        confidence: 0.95,
        permutation_samples: a.permutations,
        alpha: a.test.alpha,
        seed: a.test.seed,
        darr_threshold: a.darr_threshold,
        system_tests,
        darr_rule,
        acc_eq_averaging,
    };
    let report = meta::meta_evaluate(&human, &metrics, &settings);
    for p in &report.pairs {
        for n in &p.notes {
            eprintln!("assay: {}: {n}", p.pair);
        }
    }
    let staging = staging_dir(&a.output)?;
    match write_report(&staging, &report, &names) {
        Ok(()) => move_into_place(&staging, &a.output)?,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    }
    eprintln!("assay: wrote {}", a.output.display());
    Ok(())
}

/// Writes the report's files under `names` (in [`report::REPORT_FILES`]' order).
fn write_report(dir: &Path, r: &MetaReport, names: &[&str; 6]) -> CliResult<()> {
    for (name, (_, text)) in names.iter().zip(report::report_files(r).map_err(|e| CliError::other(format!("cannot encode the report: {e}")))?) {
        std::fs::write(dir.join(name), text).map_err(CliError::io(format!("write {name}")))?;
    }
    Ok(())
}

/// `evaluate --judgments`: the judgment file analysed as a campaign's metrics page analyses its
/// judgments (default settings; the kept workers' mean z), and the metric files fitted to it as
/// uploads are fitted to a campaign.
fn from_judgments(path: &Path, a: &EvaluateArgs) -> CliResult<(Scores, Vec<Scores>)> {
    use crate::analyze::InputFormat;
    use app::analysis::{AnalysisSettings, analyse};
    use assay_core::metrics::upload::{CampaignShape, read_upload};
    let format = match a.format {
        InputFormat::Auto => crate::analyze::detect_format(path)?,
        f => f,
    };
    if matches!(format, InputFormat::WmtRanking | InputFormat::EsaCsv | InputFormat::EsaJsonl | InputFormat::MqmTsv | InputFormat::PairwiseCsv | InputFormat::PostEditCsv | InputFormat::ContrastiveJsonl) {
        return Err(CliError::input(
            path,
            format!("a {} file has no DA scores to standardise; run `assay analyze --input` on it and give its system and segment scores as --human", format.as_str()),
        ));
    }
    eprintln!("assay: reading {}", path.display());
    let (set, _, _) = crate::analyze::read_file(path, format, &a.task)?;
    if set.records.is_empty() {
        return Err(CliError::input(path, "no judgments (only a header?)"));
    }
    let result = analyse(&set, &AnalysisSettings::default());
    let json = serde_json::to_string(&result).map_err(|e| CliError::other(format!("cannot write the analysis: {e}")))?;
    let file = path.display().to_string();
    let mut humans = read::read_analysis_json(&file, &json, read::AssayScore::Z)
        .map_err(|_| CliError::input(path, "no human scores: no worker passed quality control, or no system output was judged"))?;
    let mut human = humans.remove(0);
    let pairs: Vec<String> = human.pairs.keys().cloned().collect();
    let pair = match (&a.pair, pairs.as_slice()) {
        (Some(p), _) if pairs.contains(p) => p.clone(),
        (Some(p), _) => return Err(CliError::input(path, format!("no judgments of the pair {p} (it has {})", pairs.join(", ")))),
        (None, [only]) => only.clone(),
        (None, _) => return Err(CliError::usage(format!("{file}: judgments of several language pairs ({}): choose one with --pair", pairs.join(", ")))),
    };
    human.pairs.retain(|p, _| *p == pair);
    let scores = &human.pairs[&pair];
    let segments: Vec<String> = match a.test_set_segments {
        Some(0) => return Err(CliError::usage("--test-set-segments must be 1 or more")),
        Some(n) => {
            let ids: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
            let outside: Vec<&String> = scores.segment_ids.iter().filter(|s| !ids.contains(s)).collect();
            if let Some(s) = outside.first() {
                return Err(CliError::input(path, format!("segment {s:?} was judged but is not among the test set's ids 1..{n} (--test-set-segments)")));
            }
            ids
        }
        None => scores.segment_ids.clone(),
    };
    let shape = CampaignShape { pair: pair.clone(), systems: scores.system_scores().into_keys().collect(), segments: segments.clone(), taken: vec![human.name.clone()] };
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in &a.metrics {
        let found = if p.is_dir() {
            let mut found = Vec::new();
            list_files(p, &mut found)?;
            if found.is_empty() {
                errors.push(ReadError::new(&p.display().to_string(), None, "no .score, .tsv or .jsonl file in this directory"));
            }
            // Keep the language-pair directory in the name mt-metrics-eval files are read by.
            found.into_iter().map(|f| (f.strip_prefix(p.parent().unwrap_or(Path::new(""))).unwrap_or(&f).display().to_string(), f)).collect()
        } else {
            vec![(p.display().to_string(), p.clone())]
        };
        for (rel, f) in found {
            match std::fs::read_to_string(&f) {
                Ok(t) => files.push((rel, t)),
                Err(e) => errors.push(ReadError::new(&rel, None, format!("cannot read: {e}"))),
            }
        }
    }
    if !errors.is_empty() {
        return Err(listed(errors));
    }
    // The upload's checks, worded for a judgment file rather than a campaign.
    let reworded = |errors: Vec<ReadError>| {
        listed(
            errors
                .into_iter()
                .map(|e| ReadError { problem: e.problem.replace("the campaign's", "the judgment file's").replace("for this campaign already", "already (the human scores')"), ..e })
                .collect(),
        )
    };
    let uploaded = read_upload(&files, None, &shape).map_err(reworded)?;
    eprintln!("assay: {} judged systems of {pair}, {} test-set segments", shape.systems.len(), segments.len());
    Ok((human, uploaded.iter().map(|m| m.scores(&pair, &segments)).collect()))
}
