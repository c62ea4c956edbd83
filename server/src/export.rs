//! `assay export`: the exports of a campaign (the same files as the results page's buttons and
//! the API) into a directory, always with `manifest.json`. Nothing is half-written: the files go
//! into a staging directory beside `--out`, renamed into place once every write succeeded.

use crate::error::{CliError, CliResult};
use std::path::PathBuf;

use app::analysis::manifest::Filter;
use app::export::{self, Kind};

use crate::analyze::{SettingsArgs, check_out, move_into_place, settings, staging_dir};
use crate::config::Config;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The campaign to export.
    #[arg(long)]
    pub campaign: i64,
    /// What to export: `all`, or one file: judgments.csv, judgments.jsonl, appraise-wmt22.csv,
    /// appraise-wmt23.csv, appraise-wmt24.csv, analysis.json, agreement.json, manifest.json, or a
    /// computed file (ad-sys-scores-LP.csv, clusters.csv, LP.NAME-z.sys.score, …).
    #[arg(long, default_value = "all")]
    pub format: String,
    /// Directory to write (created; must not exist or be empty unless --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace --out if it exists and is not empty.
    #[arg(long)]
    pub force: bool,
    /// Leave out the judgments of workers excluded by quality control (and skipped judgments).
    #[arg(long, conflicts_with = "raw")]
    pub cleaned: bool,
    /// Every judgment, each with its worker's verdict (the default).
    #[arg(long)]
    pub raw: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
    /// NAME of the mt-metrics-eval files (`LP.NAME-z.sys.score`, …) and DATA of DA-seglevel.csv.
    #[arg(long, default_value = export::DEFAULT_NAME)]
    pub name: String,
}

/// `assay export`.
pub async fn export(config: &Config, args: ExportArgs) -> CliResult<()> {
    let settings = settings(&args.settings)?;
    let kind = if args.format == "all" { Kind::All } else { Kind::parse(&args.format).map_err(|e| CliError::usage(format!("--format: {e}")))? };
    if kind == Kind::All && args.format != "all" {
        return Err(CliError::usage("--format all.zip: use --format all (a directory of every file)"));
    }
    check_out(&args.out, args.force)?;
    let filter = if args.cleaned { Filter::Cleaned } else { Filter::Raw };
    let db = app::db::connect(&config.database_url()).await?;
    eprintln!("assay: reading campaign {} from the database", args.campaign);
    let mut p = export::prepare_keeping_rows(&db, args.campaign, settings, &kind, filter, &args.name).await?;
    if export::wants_metrics(&kind) {
        p.add_metrics(&db).await?;
    }
    let staging = staging_dir(&args.out)?;
    match export::write_dir(&db, &mut p, &kind, &staging).await {
        Ok(names) => {
            move_into_place(&staging, &args.out)?;
            eprintln!(
                "assay: {} export of campaign {} ({} judgments): {} in {}",
                if args.cleaned { "cleaned" } else { "raw" },
                args.campaign,
                p.analysis.result.judgments,
                names.join(", "),
                args.out.display()
            );
            Ok(())
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e.into())
        }
    }
}
