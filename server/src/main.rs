//! `assay`: the one binary. `assay serve` (the default) runs the web application;
//! `assay admin create` makes an administrator account; `assay import` imports a test set and
//! system outputs; `assay analyze` and `assay export` read results; `assay metrics` scores
//! outputs with BLEU/chrF and meta-evaluates metrics against human scores.

mod analyze;
mod caching;
mod config;
mod demo;
mod error;
mod export;
mod metrics;
mod router;

use app::auth::Role;
use clap::{Parser, Subcommand};
use config::Config;
use error::{CliError, CliResult};
use std::io::{BufRead, IsTerminal, Write};

#[derive(Parser)]
#[command(
    name = "assay",
    version,
    about = "Crowdsourced human evaluation of machine translation",
    after_help = "Exit codes: 0 done, 1 any other failure, 2 usage, 3 a bad input file, 4 the database."
)]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the web application (the default).
    Serve {
        /// Seed a demo organizer, a demo annotator and a demo campaign, and print how to sign in.
        #[arg(long)]
        demo: bool,
    },
    /// Import a test set and system outputs: a WMT folder, .zip or .tar.gz, Appraise JSON, TSV or
    /// JSONL. All or nothing: on any error nothing is saved and the errors are listed.
    Import {
        /// The folder or file to import.
        path: std::path::PathBuf,
        /// Name of the test set (default: the folder or file name without extension).
        #[arg(long)]
        name: Option<String>,
        /// Language pair for TSV/JSONL without language columns, e.g. en-de.
        #[arg(long)]
        pair: Option<String>,
        /// Accept empty system outputs (they are not stored) instead of reporting them.
        #[arg(long)]
        allow_empty_outputs: bool,
    },
    /// Analyse judgments (a campaign or a file): worker QC, z-scores, system scores,
    /// significance matrix, clusters; writes the WMT and mt-metrics-eval files and analysis.json.
    Analyze(analyze::AnalyzeArgs),
    /// Export a campaign: judgments (Assay CSV/JSONL, Appraise CSV WMT22/23/24, raw or cleaned),
    /// the WMT ad-* and mt-metrics-eval files, analysis.json, agreement.json, with manifest.json.
    Export(export::ExportArgs),
    /// Automatic metrics: BLEU/chrF/chrF++ as sacrebleu 2.4.3 computes them (`score`),
    /// randomized tests between outputs (`compare`), and the meta-evaluation of metric scores
    /// against human scores (`evaluate`: correlations, pairwise accuracy, SPA, Williams,
    /// PERM-BOTH, clusters).
    Metrics {
        #[command(subcommand)]
        command: metrics::MetricsCommand,
    },
    /// Write a simulated crowd's judgments as a Graham/MTurk TSV (for tests and benchmarks).
    Simulate(analyze::SimulateArgs),
    /// Manage accounts from the command line.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an account (an administrator unless --role says otherwise).
    Create {
        #[arg(long)]
        email: String,
        #[arg(long, default_value = "")]
        name: String,
        #[arg(long, default_value = "admin", value_parser = ["admin", "organizer", "researcher", "annotator"])]
        role: String,
        /// Read the password from the first line of standard input instead of prompting.
        #[arg(long)]
        password_stdin: bool,
    },
}

/// Allocations of 1 MiB and more are mapped and unmapped on their own. glibc otherwise raises
/// its threshold to the largest block freed, and then keeps every freed 19 MiB argon2 buffer in
/// the freeing thread's arena: 100 sign-ins, two hashes at a time, still took the server from
/// 96 to about 700 MB (81 MB with this threshold).
fn bounded_malloc_retention() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator parameter; it is called before any other thread
    // exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

fn main() -> std::process::ExitCode {
    bounded_malloc_retention();
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ASSAY_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("assay: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

async fn run(cli: Cli) -> CliResult<()> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve { demo: false }) {
        Command::Serve { demo } => router::serve(config, demo).await,
        Command::Import { path, name, pair, allow_empty_outputs } => import(&config, &path, name, pair, allow_empty_outputs).await,
        Command::Analyze(args) => analyze::analyze(&config, args).await,
        Command::Export(args) => export::export(&config, args).await,
        Command::Simulate(args) => analyze::simulate(&config, args).await,
        Command::Metrics { command: command @ (metrics::MetricsCommand::Add(_) | metrics::MetricsCommand::Remove(_)) } => metrics::campaign(&config, command).await,
        Command::Metrics { command } => metrics::run(command),
        Command::Admin { command: AdminCommand::Create { email, name, role, password_stdin } } => {
            let state = config.open_state().await?;
            let password = read_password(password_stdin)?;
            let role = Role::parse(&role).ok_or_else(|| CliError::usage("unknown role"))?;
            let user = app::auth::server::create_user(&state.db, &email, &name, &password, role).await?;
            println!("Created {} account {} (id {}).", user.role.as_str(), user.email, user.id);
            Ok(())
        }
    }
}

/// `assay import`: parse, then save in one transaction.
async fn import(
    config: &Config,
    path: &std::path::Path,
    name: Option<String>,
    pair: Option<String>,
    allow_empty_outputs: bool,
) -> CliResult<()> {
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("import").to_string();
    let name = name.unwrap_or_else(|| file_name.split('.').next().unwrap_or("import").to_string());
    let mut opts = app::import::ImportOptions::new(name);
    opts.allow_empty_outputs = allow_empty_outputs;
    if let Some(p) = pair {
        opts.pair = Some(app::import::LanguagePair::parse(&p).map_err(|e| CliError::usage(format!("--pair: {e}")))?);
    }
    let bundle = app::import::import_path(path, &file_name, &opts)
        .map_err(|errors| CliError::Nothing { done: "imported", problems: errors.iter().map(|e| e.to_string()).collect() })?;
    let state = config.open_state().await?;
    let summary = app::campaign::store::save_import(&state.db, &bundle).await.map_err(|e| CliError::App(e.prefixed("nothing was imported")))?;
    println!("{}", app::campaign::http::summary_line(&summary));
    for note in &summary.notes {
        println!("note: {note}");
    }
    Ok(())
}

fn read_password(from_stdin: bool) -> CliResult<String> {
    let stdin = std::io::stdin();
    if !from_stdin && stdin.is_terminal() {
        // Prompt twice without echo.
        let first = prompt_hidden("Password: ")?;
        let second = prompt_hidden("Repeat password: ")?;
        if first != second {
            return Err(CliError::usage("the two passwords differ"));
        }
        return Ok(first);
    }
    let mut line = String::new();
    stdin.lock().read_line(&mut line).map_err(CliError::io("read the password"))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

fn prompt_hidden(prompt: &str) -> CliResult<String> {
    eprint!("{prompt}");
    let _ = std::io::stderr().flush();
    // Turn terminal echo off while reading.
    let stty = |arg: &str| std::process::Command::new("stty").arg(arg).stdin(std::process::Stdio::inherit()).status();
    let _ = stty("-echo");
    let mut line = String::new();
    let read = std::io::stdin().lock().read_line(&mut line);
    let _ = stty("echo");
    eprintln!();
    read.map_err(CliError::io("read the password"))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}
