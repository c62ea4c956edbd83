//! Reading a campaign's judgments from the database: the one judgment query ([`judgments`]),
//! and the pipeline's [`JudgmentSet`] built from it ([`load_campaign`], [`load_worker`]). The
//! results page, the API, the exports, `assay analyze --campaign`, the study pages, the review
//! page and the quality gate all read judgments here.
//!
//! The query reads ids, not names: hits ⨝ assignments ⨝ judgments ⨝ hit_items (and the paired
//! item, for a REF item's system), in the order of the indexes (no sort in the database). The
//! names of workers, systems and segments come from three small queries ([`StoredNames`]) and are
//! interned once per id, so a million judgments cost a million rows of integers. Decisions:
//! - **Worker** names are `platform:external_id` (unique by the schema).
//! - **HIT** names are `hit_index` (the pipeline groups by worker, then HIT, so a HIT done by
//!   several workers is several groups, as in Graham's files).
//! - **System** of a REF item (no `system_id`): the system of its paired item, as Graham's QC
//!   items copy their partner's system id; `REF` if it has no pair.
//! - **Segments** are interned in test-set order first (every segment of the test set), so the
//!   interner's order is the test-set order the mt-metrics-eval `.seg.score` files need.
//! - **Seconds** per item ([`TimeBasis::PerItem`]): the item's active time (`active_ms`: the
//!   browser's count of time in use, idle gaps left out; issue 18, item 4) when it is less than
//!   the server's `submitted_at − shown_at` (when the item was served, then answered), else the
//!   server's time, else the browser's `time_on_screen_ms` (a judgment stored without the time
//!   it was shown), else 0. The browser's figures are whatever the client sends, so they can
//!   only shorten the server's time, never lengthen it: the HIT-time flags and the quality
//!   gate's floor never rest on a browser's word that a worker took longer than the server saw
//!   (issue 17, finding 8); `time_on_screen_ms` is kept as information (in the exports).
//! - Skipped judgments and judgments without a score are left out.
//! - A judgment of a protocol that asks several questions (`Protocol::questions`; METHOD §1)
//!   becomes a record of its own task per question, named by the protocol (`Question::task_name`),
//!   so quality control, z-scores and system scores are computed per question.
//!
//! - Records are in judgment-id order (the order they were stored), names numbered in order of
//!   first appearance, as reading the judgments file of an export gives them.
//! - A comparison study's arm (METHOD §7) judges a benchmark system on two test sets: its
//!   systems are named `system @ test set` and its segments `test set:key`, so each is scored
//!   on each test set apart; quality control and z-scores still pool all of a worker's
//!   judgments in the campaign. [`load_campaign`] decides this from `study_arms`, for every
//!   caller.
//!
//! One job a file: [`info`] (a campaign's description), [`query`] (the judgment query as each
//! engine's SQL, and its rows), [`readers`] (both engines' readers of a whole campaign),
//! [`stream`] (the exports' judgment text in id order), [`names`] (workers, systems, segments),
//! [`records`] (the pipeline's records), [`blocks`] and [`spans`] (what a protocol that ranks
//! blocks of outputs, or marks error spans, reads besides), [`load`] (a campaign or a worker
//! loaded through all of these).

mod blocks;
mod info;
mod load;
mod names;
mod query;
mod readers;
mod records;
mod spans;
mod stream;

pub use blocks::{CampaignBlocks, ranking_blocks};
pub use info::{CampaignInfo, campaign_info};
pub use load::{KeptRows, LoadedCampaign, ProtocolRows, is_study_arm, load_campaign, load_campaign_keeping_rows, load_campaign_with_blocks, load_worker};
pub use names::{SegmentName, StoredNames};
pub use query::{Scope, StoredJudgment, judgments, read_judgments};
pub use readers::{CampaignJudgments, each_sqlite_judgment, read_campaign_judgments, read_parts};
pub use records::{SetShape, judgment_set};
pub use spans::{ItemDetail, campaign_details, esa_ratings};
pub use stream::{KnownJudgments, pg_text_in_order, sqlite_text_in_order};

#[cfg(test)]
mod tests;
