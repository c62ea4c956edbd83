//! The demo's campaigns, per protocol: which protocol each campaign of the demo work runs. The
//! demo (`assay serve --demo`) and the annotation fixture (`annotate::fixture`, the work the
//! annotation tests rely on) ask here, so that they speak of "a protocol" and name none; each
//! campaign's design (its protocol's defaults, `CampaignSettings::for_task`, and its own
//! adjustments) stays with them.

use crate::model::TaskKind;

/// The fixture's first campaign: scores on single segments with the reference beside them
/// (direct assessment of adequacy).
pub const FIXTURE_SCORES: TaskKind = TaskKind::DaAdequacy;

/// The fixture's second campaign on the same test set: two questions on each pair of
/// sentences (word order).
pub const FIXTURE_QUESTIONS: TaskKind = TaskKind::WordOrder;

/// The fixture's right-to-left campaign: scores on the output alone (fluency), worded in Arabic.
pub const FIXTURE_RIGHT_TO_LEFT: TaskKind = TaskKind::DaFluency;

/// `assay serve --demo`'s campaign of scores on segments (direct assessment of adequacy).
pub const SERVE_SCORES: TaskKind = TaskKind::DaAdequacy;

/// `assay serve --demo`'s campaign of error spans on the same documents (ESA).
pub const SERVE_SPANS: TaskKind = TaskKind::Esa;
