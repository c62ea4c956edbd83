//! Creating a campaign from a draft and launching it: the HIT builder's HITs (METHOD §2) with
//! their degraded items (METHOD §3) become `hits` and `hit_items` rows in one transaction.
//! Every item stores the exact text shown, so what an annotator read is never recomputed.
//!
//! One job per file: `plan` (a design's HITs and items), `design` (checks, the designer's
//! answer, the dry run), `store` (drafts in the database), `write` (launching). Every item is
//! re-exported here, so callers name `campaign::launch::…` as before.

use crate::auth::server::random_token;
pub use crate::campaign::LaunchSummary;
use crate::campaign::{
    CampaignDraft, CampaignSettings, DegradationPolicy, DegradedSample, DegradedText, DesignCheck, WantedPer,
};
use crate::error::{AppError, AppResult, StorageContext};
use crate::db::{Db, now_ms};
use crate::hit::degrade::{WordOrderKind, 
    AdequacyPolicy, Degradation, DegradeContext, Segmentation, item_seed, preview, tokenize,
};
use crate::hit::{
    self, Candidate, Hit, HitDesign, JudgmentsWanted, WordOrderDesign,
};
use crate::model::{CampaignStatus, ItemType, TaskKind};
use assay_core::evidence::EvidencePlan;
use assay_core::settings::ThinEvidence;
use assay_core::protocol::{self, Beside, Degrader, HitPlan};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// A design that cannot be built or launched: wrong input in the draft, with the reason the
/// designer shows.
fn problem(reason: impl Into<String>) -> AppError {
    AppError::invalid("draft", reason)
}

pub mod adaptive;
mod design;
mod plan;
mod store;
mod write;

pub use design::*;
pub use plan::*;
pub use store::*;
pub use write::*;
