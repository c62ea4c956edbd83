//! How the command line fails: [`CliError`], each kind with its exit code (README, "Command
//! line"). The message is what `assay` prints after `assay: `; the kind decides the code:
//!
//! | code | kind                                                                              |
//! |------|-----------------------------------------------------------------------------------|
//! | 1    | anything else: an output that cannot be written, a refusal of the server's domain |
//! | 2    | usage: a flag's value or a combination of flags (clap's own usage errors too)     |
//! | 3    | a bad input file: it cannot be opened or read, or is not what it should be        |
//! | 4    | the database: it cannot be opened or migrated, or a query failed                  |

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use app::analysis::bundle::SinkError;
use app::error::AppError;

/// A failure of an `assay` command, by kind.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The command line is wrong: `--alpha 2`, neither `--input` nor `--campaign`.
    #[error("{0}")]
    Usage(String),
    /// An input file cannot be opened.
    #[error("cannot open {}: {source}", path.display())]
    Open { path: PathBuf, source: std::io::Error },
    /// An input file cannot be read, or is not what it should be: `problem` says where (the
    /// line) and what.
    #[error("{}: {problem}", path.display())]
    Input { path: PathBuf, problem: String },
    /// Files that should have as many lines as each other do not (a reference and its
    /// hypothesis).
    #[error("{} has {lines} lines, {other} has {expected}", path.display())]
    Lengths { path: PathBuf, lines: usize, other: String, expected: usize },
    /// Input files refused as a whole (an import, an upload of metric scores): every problem
    /// found, by file and line; `done` is what did not happen ("imported").
    #[error("nothing was {done}:\n{}", problems.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n"))]
    Nothing { done: &'static str, problems: Vec<String> },
    /// A metric cannot be computed on the files given (a reference of another length).
    #[error(transparent)]
    Metric(#[from] assay_core::metrics::MetricError),
    /// The database cannot be opened or migrated.
    #[error(transparent)]
    Connect(#[from] app::db::ConnectError),
    /// A file or directory of the output (or of the data directory) cannot be made or written:
    /// `doing` says what ("create /tmp/out", "move the results to /tmp/out").
    #[error("cannot {doing}: {source}")]
    Io { doing: String, source: std::io::Error },
    /// A computed file cannot be written.
    #[error(transparent)]
    Sink(#[from] SinkError),
    /// The server's domain refused or failed (an unknown campaign, a storage error).
    #[error("{0}")]
    App(AppError),
    /// Something else went wrong: the message says what.
    #[error("{0}")]
    Other(String),
}

/// The result of a command.
pub type CliResult<T> = Result<T, CliError>;

impl From<AppError> for CliError {
    fn from(e: AppError) -> Self {
        CliError::App(e)
    }
}

impl CliError {
    /// A usage error: what is wrong with the command line.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// An input file that is not what it should be (`problem`, with its line where known).
    pub fn input(path: &Path, problem: impl std::fmt::Display) -> Self {
        CliError::Input { path: path.to_path_buf(), problem: problem.to_string() }
    }

    /// For `map_err`: an input file that cannot be opened.
    pub fn open(path: &Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
        move |source| CliError::Open { path: path.to_path_buf(), source }
    }

    /// For `map_err`: an input file whose contents are wrong (the reader's error says where).
    pub fn bad<E: std::fmt::Display>(path: &Path) -> impl FnOnce(E) -> CliError + '_ {
        move |e| CliError::input(path, e)
    }

    /// For `map_err`: an input/output failure while doing `doing` ("create /tmp/out").
    pub fn io(doing: impl Into<String>) -> impl FnOnce(std::io::Error) -> CliError {
        let doing = doing.into();
        move |source| CliError::Io { doing, source }
    }

    /// Anything else.
    pub fn other(message: impl Into<String>) -> Self {
        CliError::Other(message.into())
    }

    /// The exit code of this kind of failure (the table above).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Open { .. } | CliError::Input { .. } | CliError::Lengths { .. } | CliError::Nothing { .. } | CliError::Metric(_) => 3,
            CliError::Connect(_) | CliError::App(AppError::Storage { .. }) => 4,
            CliError::Io { .. } | CliError::Sink(_) | CliError::App(_) | CliError::Other(_) => 1,
        }
    }

    /// Prints the error and gives the process its exit code.
    pub fn report(self) -> ExitCode {
        eprintln!("assay: {self}");
        ExitCode::from(self.exit_code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_exit_code_and_says_what() {
        let path = Path::new("judgments.tsv");
        let closed = format!("database error while reading campaign 3: {}", sqlx::Error::PoolClosed);
        let cases = [
            (CliError::usage("--alpha must lie strictly between 0 and 1 (got 2)"), 2, "--alpha must lie strictly between 0 and 1 (got 2)"),
            (CliError::input(path, "line 3: the score is not a number"), 3, "judgments.tsv: line 3: the score is not a number"),
            (CliError::open(path)(std::io::Error::from(std::io::ErrorKind::NotFound)), 3, "cannot open judgments.tsv: entity not found"),
            (CliError::Nothing { done: "imported", problems: vec!["a.tsv: line 2: no source".into()] }, 3, "nothing was imported:\n  a.tsv: line 2: no source"),
            (CliError::from(app::db::ConnectError::Scheme { scheme: "mysql".into() }), 4, "DATABASE_URL must start with sqlite: or postgres:// (got \"mysql\")"),
            (CliError::from(AppError::storage("reading campaign 3", sqlx::Error::PoolClosed)), 4, closed.as_str()),
            (CliError::from(AppError::not_found("there is no campaign with id 9")), 1, "there is no campaign with id 9"),
            (CliError::io("create out")(std::io::Error::from(std::io::ErrorKind::PermissionDenied)), 1, "cannot create out: permission denied"),
        ];
        for (e, code, message) in cases {
            assert_eq!((e.exit_code(), e.to_string()), (code, message.to_string()));
        }
    }
}
