//! Assay: crowdsourced human evaluation of machine translation.
//!
//! The code follows the data: `import` → `campaign` → `hit` → judgment → `analysis` → export.
//! `model` holds the shared vocabulary, `stats` the pure statistics, `auth` accounts and
//! roles, `ui` the page frame. Server-only modules (`db`, `state`, and the server halves of each
//! stage) compile with the `ssr` feature; the browser bundles (`app/bundles/`) get pages only.

pub mod accounts;
pub mod annotate;
pub mod auth;
pub mod campaign;
pub mod results;
pub mod study;
pub mod ui;

/// `row!`: structs read from the database's rows.
mod rows;

/// The codec of the pages' resources (shared by every page family).
pub mod resource;

// The pure core (crates `assay-core` and `assay-stats`), under the names the flow uses.
pub use assay_core::{model, report};
#[cfg(feature = "ssr")]
pub use assay_core::{hit, import, simulate};
/// The catalogs of every interface language, and the messages they render (refusals by key).
pub use assay_core::i18n;
#[cfg(feature = "ssr")]
pub use assay_stats as stats;

// The flow, stage by stage (server side).
#[cfg(feature = "ssr")]
pub mod analysis;
#[cfg(feature = "ssr")]
pub mod export;

#[cfg(feature = "ssr")]
pub mod api;
#[cfg(feature = "ssr")]
pub mod db;
#[cfg(feature = "ssr")]
pub mod signing;
#[cfg(feature = "ssr")]
pub mod error;
#[cfg(feature = "ssr")]
pub mod state;
#[cfg(feature = "ssr")]
pub mod web;

pub use ui::{App, shell};

/// What a browser bundle runs (its crate under `app/bundles/` exports it as `hydrate`): hydrates
/// the server-rendered page with the pages of the family `F`.
#[cfg(feature = "hydrate")]
pub fn hydrate<F: ui::Family>() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(ui::app_for::<F>);
    // Marks the page as live: `ui::bundles::Elsewhere` reads it, and end-to-end tests wait for it.
    if let Some(body) = leptos::prelude::document().body() {
        let _ = body.set_attribute("data-hydrated", "true");
    }
}
