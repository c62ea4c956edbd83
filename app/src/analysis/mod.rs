//! Analysis on the server: the pure pipeline of `assay_core::analysis` (re-exported here under
//! the same names), [`db`], which reads a campaign's judgments from the database into it, and
//! [`campaign`], the one owner of "campaign → analysis" (with its cache).

pub use assay_core::analysis::*;

pub mod campaign;
pub mod db;
pub mod pairwise;
pub mod postedit;
pub mod contrastive;
mod sqlite_rows;
