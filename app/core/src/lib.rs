//! Assay's pure core: no web framework, no database, no async runtime.
//!
//! Always compiled (server and browser alike):
//! - [`i18n`]: the annotator's interface in seven languages (the message catalogs);
//! - [`limits`]: how long stored texts may be, and that none holds NUL;
//! - [`model`]: the field's vocabulary (item types, task kinds, statuses);
//! - [`protocol`]: the judgment model: what each protocol shows, what an answer holds, how it is
//!   checked, which quality control it uses and how it is analysed;
//! - [`report`]: figures the analysis reports and the pages show;
//! - [`settings`]: the design of a campaign and its one reader of the stored JSON.
//!
//! With the `engine` feature (the server, the command line, the benchmarks), the stages of the
//! flow import → HIT → judgment → analysis that need no I/O beyond `Read`/`Write`:
//! - [`import`]: parsing and validating test sets and system outputs;
//! - [`hit`]: the HIT builder (METHOD §2) and the degraders (METHOD §3);
//! - [`simulate`]: a seeded simulated crowd for tests, benchmarks and the demo;
//! - [`analysis`]: worker quality control, z-scores, system scores, clusters, agreement, and the
//!   file formats of the field;
//! - [`plots`]: the plots of results and studies as SVG text.
//!
//! Statistics live in the `assay-stats` crate, beneath this one.

pub mod csv_guard;
pub mod designer;
pub mod evidence;
pub mod i18n;
pub mod instructions;
pub mod limits;
pub mod model;
pub mod protocol;
pub mod report;
pub mod settings;
pub mod verdict;
pub mod wording;

#[cfg(feature = "engine")]
pub mod analysis;
#[cfg(feature = "engine")]
pub mod hit;
#[cfg(feature = "engine")]
pub mod judgment_csv;
#[cfg(feature = "engine")]
pub mod import;
#[cfg(feature = "engine")]
pub mod metrics;
#[cfg(feature = "engine")]
pub mod plots;
#[cfg(feature = "engine")]
pub mod simulate;
#[cfg(feature = "engine")]
pub mod stored_answer;
/// Adaptive campaigns: with `engine`, the decisions, allocation and benchmarks (their design,
/// always compiled for the designer, is `adaptive_design`).
pub mod adaptive;
/// The design of an adaptive campaign (a field of the settings; a module of its own so that
/// the settings do not reach the adaptive engine, which reaches the settings).
pub mod adaptive_design;
