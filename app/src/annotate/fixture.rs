//! The demo work of `assay serve --demo`, made the product's way: import (`campaign::store`),
//! design and launch (`campaign::launch`), and assignment (`campaign::assign`).
//!
//! A German→English test set (30 segments, one reference each, three systems) with a DA
//! adequacy campaign (one 100-item HIT, k = 2: the demo annotator and a Prolific worker) and a
//! word-order campaign (one 50-item HIT for the demo annotator); and an English→Arabic fluency
//! campaign (one 12-item HIT, wording in Arabic, a worker by plain link) for right-to-left text.
//! The annotation tests (integration and end-to-end) rely on this work being there.

use crate::campaign::assign::{Platform, crowd_worker, next_assignment, worker_for_user};
use crate::campaign::http::crowd_params;
use crate::campaign::launch::{create_campaign, launch_campaign};
use crate::campaign::store::save_import;
use crate::campaign::{CampaignDraft, CampaignSettings};
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use crate::import::{ImportBundle, LanguagePair, Reference, Segment, System, SystemOutput, TestSet};
use crate::model::TaskKind;
use assay_core::protocol::demo;

/// (German source, English reference).
const SEGMENTS: [(&str, &str); 30] = [
    ("Der Zug nach Berlin hatte heute Morgen zwanzig Minuten Verspätung.", "The train to Berlin was twenty minutes late this morning."),
    ("Die Stadt plant, im nächsten Jahr drei neue Parks zu eröffnen.", "The city plans to open three new parks next year."),
    ("Viele Menschen arbeiten inzwischen zwei Tage pro Woche von zu Hause.", "Many people now work from home two days a week."),
    ("Das Museum bleibt wegen Renovierungsarbeiten bis März geschlossen.", "The museum will stay closed until March because of renovation work."),
    ("Der Bäcker an der Ecke verkauft das beste Brot im ganzen Viertel.", "The baker on the corner sells the best bread in the whole neighbourhood."),
    ("Nach dem Regen war die Luft klar und kühl.", "After the rain the air was clear and cool."),
    ("Die Regierung hat ein neues Gesetz zum Schutz der Wälder beschlossen.", "The government has passed a new law to protect the forests."),
    ("Meine Schwester lernt seit drei Jahren Japanisch.", "My sister has been learning Japanese for three years."),
    ("Der Preis für Kaffee ist in diesem Sommer stark gestiegen.", "The price of coffee rose sharply this summer."),
    ("Die Kinder spielten den ganzen Nachmittag im Garten.", "The children played in the garden all afternoon."),
    ("Das Konzert wurde wegen eines Sturms kurzfristig abgesagt.", "The concert was cancelled at short notice because of a storm."),
    ("Die Forscher haben eine neue Art von Frosch im Regenwald entdeckt.", "The researchers discovered a new kind of frog in the rainforest."),
    ("Wir sollten früh losfahren, um den Verkehr zu vermeiden.", "We should leave early to avoid the traffic."),
    ("Der alte Leuchtturm ist heute ein kleines Hotel.", "The old lighthouse is now a small hotel."),
    ("Die Bibliothek bietet jeden Samstag kostenlose Kurse für Senioren an.", "The library offers free courses for older people every Saturday."),
    ("Er hat seinen Schlüssel im Büro vergessen und musste zurückgehen.", "He left his key at the office and had to go back."),
    ("Die neue Brücke verbindet die beiden Ufer des Flusses.", "The new bridge connects the two banks of the river."),
    ("Im Winter fällt in den Bergen oft meterhoch Schnee.", "In winter the snow in the mountains is often several metres deep."),
    ("Die Firma will bis zum Ende des Jahrzehnts klimaneutral sein.", "The company wants to be climate neutral by the end of the decade."),
    ("Der Arzt empfahl ihr, mehr Wasser zu trinken und besser zu schlafen.", "The doctor advised her to drink more water and to sleep better."),
    ("Auf dem Markt gibt es frisches Obst aus der Region.", "At the market there is fresh fruit from the region."),
    ("Das Fußballspiel endete nach Verlängerung unentschieden.", "The football match ended in a draw after extra time."),
    ("Die Schüler schreiben morgen eine Prüfung in Mathematik.", "The pupils are sitting a mathematics exam tomorrow."),
    ("Der Wind hat in der Nacht mehrere Bäume umgeworfen.", "The wind blew down several trees during the night."),
    ("Sie haben ihr Haus mit Solarzellen auf dem Dach ausgestattet.", "They have fitted their house with solar panels on the roof."),
    ("Die Ausstellung zeigt Fotografien aus hundert Jahren Stadtgeschichte.", "The exhibition shows photographs from a hundred years of the city's history."),
    ("Der Flughafen wird wegen dichten Nebels vorübergehend gesperrt.", "The airport is being closed for a while because of thick fog."),
    ("Meine Großmutter erzählt gern Geschichten aus ihrer Kindheit.", "My grandmother likes telling stories from her childhood."),
    ("Die Straßenbahn fährt am Wochenende nur alle zwanzig Minuten.", "At the weekend the tram runs only every twenty minutes."),
    ("Das Restaurant hat einen neuen Koch aus Italien eingestellt.", "The restaurant has hired a new cook from Italy."),
];

/// The fixture's systems: (name, how its outputs differ from the reference).
pub const SYSTEMS: [&str; 3] = ["Lumen-MT", "Ostrich-7", "Riverbank"];

/// A system output made from the reference, deterministically: each system has its own kind
/// of mistake, so the three outputs of a segment differ.
fn system_output(system: usize, reference: &str) -> String {
    let words: Vec<&str> = reference.split_whitespace().collect();
    let n = words.len();
    match system {
        // Close to the reference: a few word choices differ.
        0 => reference
            .replace(" was ", " has been ")
            .replace(" because of ", " due to ")
            .replace(" new ", " novel "),
        // Two neighbouring words swapped in the middle.
        1 => {
            let mut w: Vec<&str> = words.clone();
            if n >= 4 {
                w.swap(n / 2 - 1, n / 2);
            }
            w.join(" ")
        }
        // A word dropped and a literal rendering.
        _ => {
            let mut w: Vec<&str> = words.clone();
            if n >= 5 {
                w.remove(n / 3);
            }
            w.join(" ").replace(" the ", " the the ").replacen(" the the ", " the ", 1)
        }
    }
}

/// What the demo made.
#[derive(Clone, Debug)]
pub struct DemoWork {
    /// Public ids of the account worker's assignments: (DA HIT, word-order HIT).
    pub da_assignment: String,
    pub word_order_assignment: String,
    /// Public id of a crowd (Prolific) assignment of the DA HIT.
    pub crowd_assignment: String,
    /// Public id of a crowd (link) assignment of a small right-to-left HIT: English→Arabic
    /// fluency, 12 items, with the campaign's wording in Arabic.
    pub rtl_assignment: String,
}

const NEWS_TEST_SET: &str = "Assay demo news";
const RTL_TEST_SET: &str = "Assay demo en-ar";
const DA_CAMPAIGN: &str = "Demo: news adequacy (de→en)";
const WORD_ORDER_CAMPAIGN: &str = "Demo: news word order (de→en)";
const RTL_CAMPAIGN: &str = "Demo: fluency (en→ar)";

/// What the server was doing when the database failed.
const SEEDING: &str = "seeding the demo work";

/// Seeds the demo work for the account `user_id` unless it is there already (idempotent: a
/// second call returns the same assignments).
pub async fn seed_demo_work(db: &Db, user_id: i64) -> AppResult<DemoWork> {
    let organizer = organizer_id(db, user_id).await?;
    let news = test_set_with_systems(db, &news_bundle()?).await?;
    let da = campaign(
        db,
        organizer,
        DA_CAMPAIGN,
        demo::FIXTURE_SCORES,
        &news,
        20_260_001,
        CampaignSettings { judgments_wanted: 1, redundancy: 2, ..CampaignSettings::for_task(demo::FIXTURE_SCORES, "English", "German") },
    )
    .await?;
    let word_order = campaign(
        db,
        organizer,
        WORD_ORDER_CAMPAIGN,
        demo::FIXTURE_QUESTIONS,
        &news,
        20_260_002,
        CampaignSettings { judgments_wanted: 1, ..CampaignSettings::for_task(demo::FIXTURE_QUESTIONS, "English", "German") },
    )
    .await?;
    let rtl_set = test_set_with_systems(db, &arabic_bundle()?).await?;
    let rtl = campaign(db, organizer, RTL_CAMPAIGN, demo::FIXTURE_RIGHT_TO_LEFT, &rtl_set, 20_260_003, arabic_settings()).await?;

    // The annotator first (slot 0 of the DA HIT), then the Prolific worker (slot 1).
    let annotator = worker_for_user(db, user_id).await?;
    let assigned = |campaign: i64, worker: i64, params: Option<serde_json::Value>| async move {
        next_assignment(db, campaign, worker, params)
            .await?
            .map(|a| a.public_id)
            .ok_or_else(|| AppError::internal(format!("the demo campaign {campaign} has no HIT left for worker {worker}")))
    };
    let da_assignment = assigned(da, annotator, None).await?;
    let word_order_assignment = assigned(word_order, annotator, None).await?;
    let prolific = crowd_worker(db, Platform::Prolific, "demo-prolific-worker").await?;
    let params = crowd_params(
        Platform::Prolific,
        [("STUDY_ID", "demo-study"), ("SESSION_ID", "demo-session")].into_iter().map(|(k, v)| (k.to_string(), v.to_string())),
    );
    let crowd_assignment = assigned(da, prolific, params).await?;
    let link = crowd_worker(db, Platform::Link, "demo-link-worker").await?;
    let rtl_assignment = assigned(rtl, link, None).await?;
    Ok(DemoWork { da_assignment, word_order_assignment, crowd_assignment, rtl_assignment })
}

/// Who the demo campaigns are created by: the first organizer or admin, else the annotator.
async fn organizer_id(db: &Db, fallback: i64) -> AppResult<i64> {
    let organizer: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE role IN ($1, $2) ORDER BY id LIMIT 1")
        .bind(crate::auth::Role::Organizer.as_str())
        .bind(crate::auth::Role::Admin.as_str())
        .fetch_optional(&db.pool)
        .await
        .context(SEEDING)?;
    Ok(organizer.unwrap_or(fallback))
}

/// A stored test set and the ids of the bundle's systems.
struct StoredSet {
    id: i64,
    systems: Vec<i64>,
}

/// Imports the bundle unless its test set exists; returns the test set and its systems.
async fn test_set_with_systems(db: &Db, bundle: &ImportBundle) -> AppResult<StoredSet> {
    let set = bundle.test_sets.first().ok_or_else(|| AppError::internal("a demo bundle without a test set"))?;
    let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM test_sets WHERE name = $1")
        .bind(set.name.clone())
        .fetch_optional(&db.pool)
        .await
        .context(SEEDING)?;
    let id = match existing {
        Some(id) => id,
        None => save_import(db, bundle).await?.test_sets.first().ok_or_else(|| AppError::internal("the demo import stored no test set"))?.id,
    };
    let mut systems = Vec::new();
    for s in &bundle.systems {
        let id: i64 = sqlx::query_scalar("SELECT id FROM systems WHERE name_key = $1")
            .bind(s.name.to_lowercase())
            .fetch_one(&db.pool)
            .await
            .context(SEEDING)?;
        systems.push(id);
    }
    Ok(StoredSet { id, systems })
}

/// The launched campaign of that name, creating and launching it when it is missing.
async fn campaign(
    db: &Db,
    organizer: i64,
    name: &str,
    task: TaskKind,
    set: &StoredSet,
    seed: i64,
    settings: CampaignSettings,
) -> AppResult<i64> {
    let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM campaigns WHERE name = $1 AND test_set_id = $2")
        .bind(name.to_string())
        .bind(set.id)
        .fetch_optional(&db.pool)
        .await
        .context(SEEDING)?;
    if let Some(id) = existing {
        return Ok(id);
    }
    let draft = CampaignDraft {
        name: name.to_string(),
        task,
        test_set_id: set.id,
        reference_name: Some("refA".into()),
        systems: set.systems.clone(),
        benchmark_systems: Vec::new(),
        seed,
        settings,
        gate: Default::default(),
    };
    let id = create_campaign(db, &draft, organizer).await?;
    launch_campaign(db, id).await?;
    Ok(id)
}

fn bundle(name: &str, pair: &str, rows: &[(&str, &str)], systems: &[(&str, Vec<String>)]) -> AppResult<ImportBundle> {
    let pair = LanguagePair::parse(pair).map_err(|e| AppError::internal(format!("the demo's language pair: {e}")))?;
    let segments = rows
        .iter()
        .enumerate()
        .map(|(i, (source, reference))| Segment {
            id: format!("{}", i + 1),
            document: Some("demo".into()),
            domain: None,
            source: source.to_string(),
            references: vec![Reference { name: "refA".into(), text: reference.to_string() }],
        })
        .collect();
    let outputs = systems
        .iter()
        .map(|(system, texts)| SystemOutput { system: system.to_string(), texts: texts.iter().cloned().map(Some).collect(), spans: Vec::new() })
        .collect();
    Ok(ImportBundle {
        test_sets: vec![TestSet { name: name.to_string(), pair, segments, outputs }],
        systems: systems
            .iter()
            .map(|(system, _)| System { name: system.to_string(), description: Some("demo system".into()), year: Some(2026) })
            .collect(),
        notes: Vec::new(),
    })
}

fn news_bundle() -> AppResult<ImportBundle> {
    let systems: Vec<(&str, Vec<String>)> = SYSTEMS
        .iter()
        .enumerate()
        .map(|(s, name)| (*name, SEGMENTS.iter().map(|(_, r)| system_output(s, r)).collect()))
        .collect();
    bundle(NEWS_TEST_SET, "de-en", &SEGMENTS, &systems)
}

fn arabic_bundle() -> AppResult<ImportBundle> {
    // One system swaps two words, the other drops one.
    let swapped = ARABIC
        .iter()
        .map(|(_, r)| {
            let mut w: Vec<&str> = r.split_whitespace().collect();
            w.swap(1, 2);
            w.join(" ")
        })
        .collect();
    let dropped = ARABIC
        .iter()
        .map(|(_, r)| {
            let mut w: Vec<&str> = r.split_whitespace().collect();
            w.remove(w.len() / 2);
            w.join(" ")
        })
        .collect();
    bundle(RTL_TEST_SET, "en-ar", &ARABIC, &[(SYSTEMS[0], swapped), (SYSTEMS[1], dropped)])
}

/// A 12-item fluency HIT (8 outputs + 2 bad references + 1 repeat + 1 reference in 2 sets),
/// worded in Arabic.
fn arabic_settings() -> CampaignSettings {
    let mut s = CampaignSettings {
        hit_length: 12,
        bad_refs: 2,
        repeats: 1,
        refs: 1,
        sets: 2,
        judgments_wanted: 1,
        ..CampaignSettings::for_task(demo::FIXTURE_RIGHT_TO_LEFT, "العربية", "الإنجليزية")
    };
    s.wording.statement = "اقرأ النص أدناه وقيّم مدى موافقتك على العبارة التالية: النص مكتوب بلغة عربية سليمة وطبيعية.".into();
    s.wording.instructions = "سترى نصا واحدا في كل مرة. حرّك المؤشر لتبيّن مدى موافقتك على العبارة، ثم اضغط الزر للمتابعة.".into();
    s.wording.anchor_low = "لا أوافق بشدة".into();
    s.wording.anchor_high = "أوافق بشدة".into();
    s.wording.next_label = "التالي".into();
    s
}

/// (English source, Arabic reference) for the right-to-left demo.
const ARABIC: [(&str, &str); 10] = [
    ("The boy went to school in the morning.", "ذهب الولد إلى المدرسة في الصباح الباكر."),
    ("The weather is beautiful in the city today.", "الطقس جميل جدا في المدينة اليوم."),
    ("I read a new book about the history of the sea.", "قرأت كتابا جديدا عن تاريخ البحر والسفن."),
    ("My father works in a large hospital near the river.", "يعمل أبي في مستشفى كبير قرب النهر."),
    ("My sister bought fresh bread at the market.", "اشترت أختي خبزا طازجا من السوق القديم."),
    ("The museum will open its doors again in the spring.", "سيفتح المتحف أبوابه مرة أخرى في الربيع."),
    ("The train was twenty minutes late this morning.", "تأخر القطار عشرين دقيقة هذا الصباح."),
    ("The children play in the garden in the afternoon.", "يلعب الأطفال في الحديقة بعد الظهر كل يوم."),
    ("The government announced a new law to protect the forests.", "أعلنت الحكومة عن قانون جديد لحماية الغابات."),
    ("We like mint tea in the evening.", "نحن نحب الشاي بالنعناع في المساء مع الأصدقاء."),
];

