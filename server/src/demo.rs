//! `assay serve --demo`: accounts and a small launched campaign to try Assay with.

use app::auth::Role;
use app::auth::server::{ensure_user, find_user};
use app::campaign::{CampaignDraft, CampaignSettings};
use assay_core::settings::DocumentSettings;
use app::import::{ImportBundle, LanguagePair, Reference, Segment, System, SystemOutput, TestSet};
use assay_core::protocol::demo;
use app::error::{AppError, AppResult};
use app::state::AppState;

/// The demo accounts: (email, name, password, role).
pub const DEMO_ACCOUNTS: [(&str, &str, &str, Role); 4] = [
    ("admin@demo.assay", "Demo Admin", "demo-admin-pass", Role::Admin),
    ("organizer@demo.assay", "Demo Organizer", "demo-organizer-pass", Role::Organizer),
    ("researcher@demo.assay", "Demo Researcher", "demo-researcher-pass", Role::Researcher),
    ("annotator@demo.assay", "Demo Annotator", "demo-annotator-pass", Role::Annotator),
];

/// Creates whatever of the demo is missing (idempotent) and prints how to sign in.
pub async fn seed(state: &AppState, public_url: &str) -> AppResult<()> {
    for (email, name, password, role) in DEMO_ACCOUNTS {
        ensure_user(&state.db, email, name, password, role).await?;
    }
    seed_campaign(state).await?;
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

/// Name of the demo campaign (its presence makes seeding a no-op).
pub const DEMO_CAMPAIGN: &str = "Demo: DA adequacy (de-en)";

/// Name of the demo's error span annotation campaign (documents of four segments).
pub const DEMO_ESA_CAMPAIGN: &str = "Demo: ESA on documents (de-en)";

/// Source sentences of the demo test set, with a reference and three made-up system outputs
/// (a good one, a literal one, a sloppy one).
const DEMO_SEGMENTS: [(&str, &str); 12] = [
    ("Der Zug nach Hamburg hatte heute Morgen zwanzig Minuten Verspätung.", "The train to Hamburg was twenty minutes late this morning."),
    ("Im Garten blühen schon die ersten Tulpen.", "The first tulips are already blooming in the garden."),
    ("Wir haben uns nach dem Konzert in einem kleinen Café getroffen.", "We met in a small café after the concert."),
    ("Die Bibliothek bleibt wegen Renovierung bis Ende Mai geschlossen.", "The library will stay closed for renovation until the end of May."),
    ("Meine Schwester lernt seit zwei Jahren Japanisch.", "My sister has been learning Japanese for two years."),
    ("Der Bäcker an der Ecke verkauft das beste Brot der Stadt.", "The baker on the corner sells the best bread in town."),
    ("Bei Regen fällt das Fußballspiel leider aus.", "Unfortunately the football match is cancelled if it rains."),
    ("Die Kinder bauten am Strand eine riesige Sandburg.", "The children built a huge sandcastle on the beach."),
    ("Können Sie mir sagen, wie ich zum Bahnhof komme?", "Can you tell me how to get to the station?"),
    ("Das neue Museum zeigt Gemälde aus drei Jahrhunderten.", "The new museum shows paintings from three centuries."),
    ("Nach dem langen Winter freuen sich alle auf den Frühling.", "After the long winter everyone is looking forward to spring."),
    ("Er hat vergessen, die Fenster vor dem Sturm zu schließen.", "He forgot to close the windows before the storm."),
];

fn literal(reference: &str) -> String {
    // A stiff variant: swap the first two words after the first, keep the rest.
    let mut w: Vec<&str> = reference.split_whitespace().collect();
    if w.len() > 3 {
        w.swap(1, 2);
    }
    w.join(" ")
}

fn sloppy(reference: &str) -> String {
    // Drops a word from the middle and lower-cases the start.
    let mut w: Vec<String> = reference.split_whitespace().map(str::to_string).collect();
    if w.len() > 4 {
        w.remove(w.len() / 2);
    }
    if let Some(first) = w.first_mut() {
        *first = first.to_lowercase();
    }
    w.join(" ")
}

fn demo_bundle() -> AppResult<ImportBundle> {
    let pair = LanguagePair::parse("de-en").map_err(|e| AppError::internal(format!("the demo's language pair: {e}")))?;
    let segments: Vec<Segment> = DEMO_SEGMENTS
        .iter()
        .enumerate()
        .map(|(i, (src, reference))| Segment {
            id: (i + 1).to_string(),
            document: Some(format!("demo-doc{}", i / 4 + 1)),
            domain: Some("news".into()),
            source: src.to_string(),
            references: vec![Reference { name: "refA".into(), text: reference.to_string() }],
        })
        .collect();
    let outputs = vec![
        SystemOutput { system: "demo-literal".into(), texts: DEMO_SEGMENTS.iter().map(|s| Some(literal(s.1))).collect(), spans: Vec::new() },
        SystemOutput { system: "demo-neural".into(), texts: DEMO_SEGMENTS.iter().map(|s| Some(s.1.replace("Unfortunately ", "Sadly "))).collect(), spans: Vec::new() },
        SystemOutput { system: "demo-sloppy".into(), texts: DEMO_SEGMENTS.iter().map(|s| Some(sloppy(s.1))).collect(), spans: Vec::new() },
    ];
    let systems = outputs.iter().map(|o| System { name: o.system.clone(), description: Some("Demo system".into()), year: Some(2026) }).collect();
    Ok(ImportBundle {
        test_sets: vec![TestSet { name: "demo".into(), pair, segments, outputs }],
        systems,
        notes: vec![],
    })
}

/// The demo test set (12 de-en segments in 3 documents, 3 systems), a launched DA adequacy
/// campaign of 20-item HITs (14 system outputs + 2 bad references + 2 repeats + 2 references)
/// and a launched ESA campaign of whole documents.
async fn seed_campaign(state: &AppState) -> AppResult<()> {
    let db = &state.db;
    if app::campaign::status::list_campaigns(db).await?.iter().any(|c| c.name == DEMO_CAMPAIGN) {
        return Ok(());
    }
    let summary = app::campaign::store::save_import(db, &demo_bundle()?).await?;
    let test_set = summary.test_sets.first().ok_or_else(|| AppError::internal("the demo import stored no test set"))?.id;
    let systems: Vec<i64> = app::campaign::store::systems_of_test_set(db, test_set)
        .await?
        .into_iter()
        .filter(|s| s.name.starts_with("demo-"))
        .map(|s| s.id)
        .collect();
    let organizer = find_user(db, DEMO_ACCOUNTS[1].0).await?.ok_or_else(|| AppError::internal("the demo organizer is missing"))?;
    let settings = CampaignSettings {
        hit_length: 20,
        bad_refs: 2,
        repeats: 2,
        refs: 2,
        sets: 2,
        judgments_wanted: 14,
        redundancy: 2,
        payment_per_hit: 1.5,
        ..CampaignSettings::for_task(demo::SERVE_SCORES, "English", "German")
    };
    let draft = CampaignDraft {
        name: DEMO_CAMPAIGN.into(),
        task: demo::SERVE_SCORES,
        test_set_id: test_set,
        reference_name: Some("refA".into()),
        benchmark_systems: systems.first().copied().into_iter().collect(),
        systems,
        seed: 2026,
        settings,
        gate: Default::default(),
    };
    let id = app::campaign::launch::create_campaign(db, &draft, organizer.id).await?;
    app::campaign::launch::launch_campaign(db, id).await?;
    // Error span annotation on the same documents: 5-minute HITs of whole documents, the
    // document so far as context, a document score, one degraded document per HIT.
    let esa = CampaignDraft {
        name: DEMO_ESA_CAMPAIGN.into(),
        task: demo::SERVE_SPANS,
        benchmark_systems: Vec::new(),
        seed: 2027,
        settings: CampaignSettings {
            bad_refs: 1,
            repeats: 0,
            redundancy: 2,
            payment_per_hit: 1.0,
            documents: DocumentSettings { hit_minutes: 5.0, score: true, ..DocumentSettings::default() },
            ..CampaignSettings::for_task(demo::SERVE_SPANS, "English", "German")
        },
        ..draft
    };
    let id = app::campaign::launch::create_campaign(db, &esa, organizer.id).await?;
    app::campaign::launch::launch_campaign(db, id).await?;
    Ok(())
}
