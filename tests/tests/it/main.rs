//! The integration tests, one test binary: each module was a binary of its own, and linking the
//! whole app two dozen times was the largest part of building the suite (BENCHMARKS.md, "CI").

mod accounts;
mod adaptive;
mod analyze;
mod annotation;
mod campaigns;
mod contrastive;
mod decisions;
mod esa;
mod esa_campaign;
mod esa_prefilled;
mod errors_house;
mod exports;
mod faults;
mod hostile;
mod i18n;
mod layers;
mod metrics;
mod migrations;
mod mqm;
mod onboarding;
mod practice;
mod pairwise;
mod postedit;
mod ranking;
mod ranking_gold;
mod results;
mod security;
mod setup;
mod studies;
mod upgrade;
mod word_order;
