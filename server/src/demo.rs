//! `assay serve --demo`: accounts (and, as the stages land, a small campaign) to try Assay with.

use app::auth::Role;
use app::auth::server::ensure_user;
use app::state::AppState;

/// The demo accounts: (email, name, password, role).
pub const DEMO_ACCOUNTS: [(&str, &str, &str, Role); 4] = [
    ("admin@demo.assay", "Demo Admin", "demo-admin-pass", Role::Admin),
    ("organizer@demo.assay", "Demo Organizer", "demo-organizer-pass", Role::Organizer),
    ("researcher@demo.assay", "Demo Researcher", "demo-researcher-pass", Role::Researcher),
    ("annotator@demo.assay", "Demo Annotator", "demo-annotator-pass", Role::Annotator),
];

/// Creates whatever of the demo is missing (idempotent) and prints how to sign in.
pub async fn seed(state: &AppState, public_url: &str) -> Result<(), String> {
    for (email, name, password, role) in DEMO_ACCOUNTS {
        ensure_user(&state.db, email, name, password, role).await?;
    }
    println!("Demo accounts (sign in at {public_url}/login):");
    for (email, _, password, role) in DEMO_ACCOUNTS {
        println!("  {:<11} {email:<24} password: {password}", role.as_str());
    }
    // TEST FIXTURE until campaigns launch for real: one DA and one word-order HIT for the
    // demo annotator, and a crowd assignment of the DA HIT.
    if let Some(annotator) = app::auth::server::find_user(&state.db, DEMO_ACCOUNTS[3].0).await? {
        let work = app::annotate::fixture::seed_demo_work(&state.db, annotator.id).await?;
        println!("Demo crowd HITs (no sign-in): {public_url}/work/{}", work.crowd_assignment);
        println!("  right to left (en→ar): {public_url}/work/{}", work.rtl_assignment);
    }
    Ok(())
}
