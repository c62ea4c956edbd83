//! Analysis on the server: the pure pipeline of `assay_core::analysis` (re-exported here under
//! the same names), and [`db`], which reads a campaign's judgments from the database into it.

pub use assay_core::analysis::*;

pub mod db;
