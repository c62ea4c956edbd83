//! TEST FIXTURE — not the product's way of launching campaigns.
//!
//! Seeds, with plain SQL into the existing schema, a small English test set (30 segments with
//! German sources and one reference each), three systems with outputs, two campaigns
//! (DA adequacy and word order), one HIT each built with the real HIT builders
//! (`hit::build_hits`, default 100-item design; `hit::build_word_order_hits`, 50 items) with
//! `shown_text` filled by the real degraders, and assignments: one of each HIT for an account
//! (status `active`, random public id) and one crowd assignment of the DA HIT. A small
//! English→Arabic fluency campaign (one 12-item HIT, crowd assignment by link, wording in
//! Arabic) shows right-to-left text.
//!
//! `assay serve --demo` calls [`seed_demo_work`] so the demo annotator has work; the
//! integration and end-to-end tests rely on that. The campaign stage's launch replaces it.

use crate::db::{Db, now_ms};
use crate::hit::degrade::{AdequacyPolicy, Degradation, DegradeContext, WordOrderKind, degrade, item_seed};
use crate::hit::{Candidate, HitDesign, JudgmentsWanted, WordOrderDesign, build_hits, build_word_order_hits};
use crate::model::ItemType;
use sqlx::Row;
use std::collections::HashMap;

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

/// What the fixture made.
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

fn e(err: impl std::fmt::Display) -> String {
    err.to_string()
}

/// Seeds the demo work for the account `user_id` unless it is there already (idempotent: a
/// second call returns the existing assignments).
pub async fn seed_demo_work(db: &Db, user_id: i64) -> Result<DemoWork, String> {
    if let Some(existing) = existing_demo(db, user_id).await? {
        return Ok(existing);
    }
    let now = now_ms();
    let test_set_id: i64 = sqlx::query(
        "INSERT INTO test_sets (name, source_lang, target_lang, year, created_at) VALUES ($1, 'de', 'en', 2026, $2) RETURNING id",
    )
    .bind("Assay demo news")
    .bind(now)
    .fetch_one(&db.pool)
    .await
    .map_err(e)?
    .try_get("id")
    .map_err(e)?;

    // Segments, references, systems, outputs.
    let mut segment_ids = HashMap::new();
    let mut references = HashMap::new();
    for (i, (source, reference)) in SEGMENTS.iter().enumerate() {
        let key = format!("demo-{:02}", i + 1);
        let id: i64 = sqlx::query(
            "INSERT INTO segments (test_set_id, position, segment_key, document, source) VALUES ($1, $2, $3, 'demo', $4) RETURNING id",
        )
        .bind(test_set_id)
        .bind(i as i64 + 1)
        .bind(&key)
        .bind(*source)
        .fetch_one(&db.pool)
        .await
        .map_err(e)?
        .try_get("id")
        .map_err(e)?;
        sqlx::query("INSERT INTO segment_references (segment_id, name, text) VALUES ($1, 'refA', $2)")
            .bind(id)
            .bind(*reference)
            .execute(&db.pool)
            .await
            .map_err(e)?;
        segment_ids.insert(key.clone(), id);
        references.insert(key, reference.to_string());
    }
    let mut system_ids = HashMap::new();
    let mut outputs: HashMap<(String, String), String> = HashMap::new();
    for (s, name) in SYSTEMS.iter().enumerate() {
        let id: i64 = match sqlx::query("SELECT id FROM systems WHERE name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&db.pool)
            .await
            .map_err(e)?
        {
            Some(row) => row.try_get("id").map_err(e)?,
            None => sqlx::query("INSERT INTO systems (name, name_key, description, year, created_at) VALUES ($1, $2, 'demo system', 2026, $3) RETURNING id")
                .bind(*name)
                .bind(name.to_lowercase())
                .bind(now)
                .fetch_one(&db.pool)
                .await
                .map_err(e)?
                .try_get("id")
                .map_err(e)?,
        };
        system_ids.insert(name.to_string(), id);
        for (key, reference) in &references {
            let text = system_output(s, reference);
            sqlx::query("INSERT INTO system_outputs (system_id, segment_id, text) VALUES ($1, $2, $3)")
                .bind(id)
                .bind(segment_ids[key])
                .bind(&text)
                .execute(&db.pool)
                .await
                .map_err(e)?;
            outputs.insert((name.to_string(), key.clone()), text);
        }
    }
    let mut keys: Vec<&String> = references.keys().collect();
    keys.sort();
    let candidates: Vec<Candidate> = SYSTEMS
        .iter()
        .flat_map(|s| {
            keys.iter().map(|k| Candidate {
                reference_words: references.get(*k).map(|r| r.split_whitespace().count()),
                ..Candidate::new(*s, k.as_str())
            })
        })
        .collect();
    let data = Data {
        language: "en",
        bad_ref: Degradation::Adequacy(AdequacyPolicy::Delete),
        segment_ids: &segment_ids,
        references: &references,
        system_ids: &system_ids,
        outputs: &outputs,
    };

    // The DA adequacy campaign and its first HIT.
    let da_seed = 20_260_001u64;
    let da_hits = build_hits(&candidates, &HitDesign::default(), JudgmentsWanted::PerSystem(1), da_seed).map_err(e)?;
    let da_hit = da_hits.first().ok_or("the DA builder made no HIT")?;
    let da_campaign = insert_campaign(db, test_set_id, "Demo: news adequacy (de→en)", "da-adequacy", da_seed, &system_ids, english_settings()).await?;
    let donors: Vec<&str> = SEGMENTS.iter().map(|(_, r)| *r).collect();
    let da_hit_id = insert_hit(db, da_campaign, da_hit, &data, da_seed, &donors).await?;

    // The word-order campaign and its first HIT.
    let wo_seed = 20_260_002u64;
    let wo_hits =
        build_word_order_hits(&candidates, &WordOrderDesign::default(), JudgmentsWanted::PerSystem(1), wo_seed).map_err(e)?;
    let wo_hit = wo_hits.first().ok_or("the word-order builder made no HIT")?;
    let wo_campaign = insert_campaign(db, test_set_id, "Demo: news word order (de→en)", "word-order", wo_seed, &system_ids, english_settings()).await?;
    let wo_hit_id = insert_hit(db, wo_campaign, wo_hit, &data, wo_seed, &donors).await?;

    // Workers and assignments.
    let account_worker = worker(db, Some(user_id), "account", &user_id.to_string()).await?;
    let crowd_worker = worker(db, None, "prolific", "demo-prolific-worker").await?;
    let da_assignment = insert_assignment(db, da_hit_id, 0, account_worker, None).await?;
    let word_order_assignment = insert_assignment(db, wo_hit_id, 0, account_worker, None).await?;
    let crowd_params = r#"{"PROLIFIC_PID":"demo-prolific-worker","STUDY_ID":"demo-study","SESSION_ID":"demo-session","return_url":"https://app.prolific.com/submissions/complete?cc={code}"}"#;
    let crowd_assignment = insert_assignment(db, da_hit_id, 1, crowd_worker, Some(crowd_params)).await?;
    let rtl_assignment = seed_rtl(db).await?;
    Ok(DemoWork { da_assignment, word_order_assignment, crowd_assignment, rtl_assignment })
}

async fn existing_demo(db: &Db, user_id: i64) -> Result<Option<DemoWork>, String> {
    let rows = sqlx::query(
        "SELECT a.public_id, c.task, w.platform FROM assignments a JOIN workers w ON w.id = a.worker_id \
         JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id \
         WHERE t.name = 'Assay demo news' AND (w.user_id = $1 OR w.platform = 'prolific') ORDER BY a.id",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await
    .map_err(e)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let find = |task: &str, platform: &str| {
        rows.iter().find_map(|r| {
            let t: String = r.try_get("task").ok()?;
            let p: String = r.try_get("platform").ok()?;
            (t == task && p == platform).then(|| r.try_get::<String, _>("public_id").ok()).flatten()
        })
    };
    let rtl = sqlx::query(
        "SELECT a.public_id FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id \
         JOIN test_sets t ON t.id = c.test_set_id WHERE t.name = 'Assay demo en-ar' ORDER BY a.id",
    )
    .fetch_optional(&db.pool)
    .await
    .map_err(e)?
    .map(|r| r.try_get::<String, _>("public_id"))
    .transpose()
    .map_err(e)?;
    Ok(match (find("da-adequacy", "account"), find("word-order", "account"), find("da-adequacy", "prolific"), rtl) {
        (Some(da), Some(wo), Some(crowd), Some(rtl)) => Some(DemoWork {
            da_assignment: da,
            word_order_assignment: wo,
            crowd_assignment: crowd,
            rtl_assignment: rtl,
        }),
        _ => None,
    })
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

/// A small English→Arabic fluency campaign (right to left, wording in Arabic) with one 12-item
/// HIT and a crowd assignment by link; returns the assignment's public id.
async fn seed_rtl(db: &Db) -> Result<String, String> {
    let now = now_ms();
    let test_set_id: i64 = sqlx::query(
        "INSERT INTO test_sets (name, source_lang, target_lang, year, created_at) VALUES ('Assay demo en-ar', 'en', 'ar', 2026, $1) RETURNING id",
    )
    .bind(now)
    .fetch_one(&db.pool)
    .await
    .map_err(e)?
    .try_get("id")
    .map_err(e)?;
    let mut segment_ids = HashMap::new();
    let mut references = HashMap::new();
    let mut outputs = HashMap::new();
    let mut system_ids = HashMap::new();
    for name in &SYSTEMS[..2] {
        let row = sqlx::query("SELECT id FROM systems WHERE name_key = $1").bind(name.to_lowercase()).fetch_one(&db.pool).await.map_err(e)?;
        system_ids.insert(name.to_string(), row.try_get::<i64, _>("id").map_err(e)?);
    }
    for (i, (source, reference)) in ARABIC.iter().enumerate() {
        let key = format!("ar-{:02}", i + 1);
        let id: i64 = sqlx::query(
            "INSERT INTO segments (test_set_id, position, segment_key, document, source) VALUES ($1, $2, $3, 'demo', $4) RETURNING id",
        )
        .bind(test_set_id)
        .bind(i as i64 + 1)
        .bind(&key)
        .bind(*source)
        .fetch_one(&db.pool)
        .await
        .map_err(e)?
        .try_get("id")
        .map_err(e)?;
        sqlx::query("INSERT INTO segment_references (segment_id, name, text) VALUES ($1, 'refA', $2)")
            .bind(id)
            .bind(*reference)
            .execute(&db.pool)
            .await
            .map_err(e)?;
        let words: Vec<&str> = reference.split_whitespace().collect();
        for (s, name) in SYSTEMS[..2].iter().enumerate() {
            // One system swaps two words, the other drops one.
            let mut w = words.clone();
            if s == 0 {
                w.swap(1, 2);
            } else {
                w.remove(w.len() / 2);
            }
            let text = w.join(" ");
            sqlx::query("INSERT INTO system_outputs (system_id, segment_id, text) VALUES ($1, $2, $3)")
                .bind(system_ids[*name])
                .bind(id)
                .bind(&text)
                .execute(&db.pool)
                .await
                .map_err(e)?;
            outputs.insert((name.to_string(), key.clone()), text);
        }
        segment_ids.insert(key.clone(), id);
        references.insert(key, reference.to_string());
    }
    let mut keys: Vec<&String> = references.keys().collect();
    keys.sort();
    let candidates: Vec<Candidate> =
        SYSTEMS[..2].iter().flat_map(|s| keys.iter().map(|k| Candidate::new(*s, k.as_str()))).collect();
    let design = HitDesign { length: 12, bad_refs: 2, repeats: 1, refs: 1, sets: 2 };
    let seed = 20_260_003u64;
    let hits = build_hits(&candidates, &design, JudgmentsWanted::PerSystem(1), seed).map_err(e)?;
    let hit = hits.first().ok_or("the DA builder made no right-to-left HIT")?;
    let settings = serde_json::json!({
        "target_language": "ar",
        "source_language_name": "الإنجليزية",
        "allow_skip": false,
        "wording": {
            "statement": "اقرأ النص أدناه وقيّم مدى موافقتك على العبارة التالية: النص مكتوب بلغة عربية سليمة وطبيعية.",
            "instructions": "سترى نصا واحدا في كل مرة. حرّك المؤشر لتبيّن مدى موافقتك على العبارة، ثم اضغط الزر للمتابعة.",
            "anchor_low": "لا أوافق بشدة",
            "anchor_high": "أوافق بشدة",
            "next_label": "التالي",
        },
    });
    let campaign = insert_campaign(db, test_set_id, "Demo: fluency (en→ar)", "da-fluency", seed, &system_ids, settings).await?;
    let donors: Vec<&str> = ARABIC.iter().map(|(_, r)| *r).collect();
    let data = Data {
        language: "ar",
        bad_ref: Degradation::Fluency,
        segment_ids: &segment_ids,
        references: &references,
        system_ids: &system_ids,
        outputs: &outputs,
    };
    let hit_id = insert_hit(db, campaign, hit, &data, seed, &donors).await?;
    let link_worker = worker(db, None, "link", "demo-link-worker").await?;
    insert_assignment(db, hit_id, 0, link_worker, None).await
}

struct Data<'a> {
    /// Target-language code (segmentation of the degraders).
    language: &'a str,
    /// How a DA bad reference is made.
    bad_ref: Degradation,
    segment_ids: &'a HashMap<String, i64>,
    references: &'a HashMap<String, String>,
    system_ids: &'a HashMap<String, i64>,
    outputs: &'a HashMap<(String, String), String>,
}

fn english_settings() -> serde_json::Value {
    serde_json::json!({
        "target_language": "en",
        "source_language_name": "German",
        "woj_scale": "boxes",
        "allow_skip": false,
    })
}

async fn insert_campaign(
    db: &Db,
    test_set_id: i64,
    name: &str,
    task: &str,
    seed: u64,
    system_ids: &HashMap<String, i64>,
    settings: serde_json::Value,
) -> Result<i64, String> {
    let id: i64 = sqlx::query(
        "INSERT INTO campaigns (public_id, name, task, test_set_id, reference_name, settings, seed, status, created_at, launched_at) \
         VALUES ($1, $2, $3, $4, 'refA', $5, $6, 'launched', $7, $7) RETURNING id",
    )
    .bind(crate::auth::server::random_token())
    .bind(name)
    .bind(task)
    .bind(test_set_id)
    .bind(settings.to_string())
    .bind(seed as i64)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
    .map_err(e)?
    .try_get("id")
    .map_err(e)?;
    for system_id in system_ids.values() {
        sqlx::query("INSERT INTO campaign_systems (campaign_id, system_id) VALUES ($1, $2)")
            .bind(id)
            .bind(*system_id)
            .execute(&db.pool)
            .await
            .map_err(e)?;
    }
    Ok(id)
}

/// The text an item shows, made exactly as the campaign stage will: outputs as they are,
/// references for REF items, the adequacy degrader for bad references, the word-order
/// permutation of the reference (with the base output as hypothesis) for word-order items.
fn shown_text(
    hit: &crate::hit::Hit,
    item: &crate::hit::HitItem,
    data: &Data<'_>,
    seed: u64,
    donors: &[&str],
) -> Result<(String, Option<String>), String> {
    let reference = data.references.get(&item.segment).cloned().unwrap_or_default();
    let output_of = |it: &crate::hit::HitItem| -> Option<String> {
        let system = it.system.clone()?;
        data.outputs.get(&(system, it.segment.clone())).cloned()
    };
    let item_seed = item_seed(seed, item.position as u64);
    match item.item_type {
        ItemType::System | ItemType::Repeat => Ok((output_of(item).ok_or("an output is missing")?, None)),
        ItemType::Ref => Ok((reference, None)),
        ItemType::BadRef => match item.permutation {
            None => {
                let base = output_of(item).ok_or("the output of a bad reference is missing")?;
                let others: Vec<&str> = donors.iter().copied().filter(|d| *d != reference).collect();
                let ctx = DegradeContext { language: Some(data.language), donors: &others, ..Default::default() };
                let d = degrade(&base, &data.bad_ref, &ctx, item_seed).map_err(e)?;
                Ok((d.text, Some(d.change.to_string())))
            }
            Some(p) => {
                let hypothesis = item.paired_with.and_then(|pos| hit.items.get(pos)).and_then(output_of);
                let ctx = DegradeContext { language: Some(data.language), hypothesis: hypothesis.as_deref(), ..Default::default() };
                // The fixture's outputs share most words with the references, so `choice`
                // may lack replacement words: fall back to lower degrees, then to `order`.
                let mut tries = vec![];
                for d in (1..=p.degree).rev() {
                    tries.push((p.kind, d));
                }
                tries.push((WordOrderKind::Order, 2));
                tries.push((WordOrderKind::Order, 1));
                let mut last_err = String::new();
                for (kind, degree) in tries {
                    if kind == WordOrderKind::Swap && degree % 2 == 1 {
                        continue;
                    }
                    match degrade(&reference, &Degradation::WordOrder { kind, degree }, &ctx, item_seed) {
                        Ok(d) => return Ok((d.text, Some(format!("{} {degree}: {}", kind.as_str(), d.change)))),
                        Err(err) => last_err = err.to_string(),
                    }
                }
                Err(last_err)
            }
        },
    }
}

async fn insert_hit(
    db: &Db,
    campaign_id: i64,
    hit: &crate::hit::Hit,
    data: &Data<'_>,
    seed: u64,
    donors: &[&str],
) -> Result<i64, String> {
    let mut rows = Vec::with_capacity(hit.items.len());
    for item in &hit.items {
        rows.push((item, shown_text(hit, item, data, seed, donors)?));
    }
    let mut tx = db.pool.begin().await.map_err(e)?;
    let hit_id: i64 = sqlx::query("INSERT INTO hits (campaign_id, hit_index, item_count) VALUES ($1, $2, $3) RETURNING id")
        .bind(campaign_id)
        .bind(hit.index as i64)
        .bind(hit.items.len() as i64)
        .fetch_one(&mut *tx)
        .await
        .map_err(e)?
        .try_get("id")
        .map_err(e)?;
    for (item, (text, degradation)) in rows {
        let system_id = item.system.as_ref().and_then(|s| data.system_ids.get(s)).copied();
        let segment_id = *data.segment_ids.get(&item.segment).ok_or("unknown segment")?;
        sqlx::query(
            "INSERT INTO hit_items (hit_id, position, item_type, system_id, segment_id, paired_position, shown_text, degradation) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(hit_id)
        .bind(item.position as i64)
        .bind(item.item_type.wmt_name())
        .bind(system_id)
        .bind(segment_id)
        .bind(item.paired_with.map(|p| p as i64))
        .bind(text)
        .bind(degradation)
        .execute(&mut *tx)
        .await
        .map_err(e)?;
    }
    tx.commit().await.map_err(e)?;
    Ok(hit_id)
}

async fn worker(db: &Db, user_id: Option<i64>, platform: &str, external_id: &str) -> Result<i64, String> {
    if let Some(row) = sqlx::query("SELECT id FROM workers WHERE platform = $1 AND external_id = $2")
        .bind(platform)
        .bind(external_id)
        .fetch_optional(&db.pool)
        .await
        .map_err(e)?
    {
        return row.try_get("id").map_err(e);
    }
    sqlx::query("INSERT INTO workers (user_id, platform, external_id, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
        .bind(user_id)
        .bind(platform)
        .bind(external_id)
        .bind(now_ms())
        .fetch_one(&db.pool)
        .await
        .map_err(e)?
        .try_get("id")
        .map_err(e)
}

/// Inserts an active assignment with a random 256-bit public id; returns the public id.
pub async fn insert_assignment(db: &Db, hit_id: i64, slot: i64, worker_id: i64, platform_params: Option<&str>) -> Result<String, String> {
    let public_id = crate::auth::server::random_token();
    let now = now_ms();
    sqlx::query(
        "INSERT INTO assignments (public_id, hit_id, slot, worker_id, status, platform_params, next_position, started_at, last_seen_at) \
         VALUES ($1, $2, $3, $4, 'active', $5, 0, $6, $6)",
    )
    .bind(&public_id)
    .bind(hit_id)
    .bind(slot)
    .bind(worker_id)
    .bind(platform_params.map(String::from))
    .bind(now)
    .execute(&db.pool)
    .await
    .map_err(e)?;
    Ok(public_id)
}
