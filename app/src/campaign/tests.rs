//! Database tests of the campaign domain on SQLite (a temp file) and, when
//! `ASSAY_TEST_POSTGRES_URL` is set, on PostgreSQL too.

use super::assign::{Platform, crowd_worker, next_assignment, set_blocked, worker_for_user};
use super::launch::{check_design, create_campaign, launch_campaign};
use super::store::save_import;
use super::*;
use crate::db::{Db, connect};
use crate::import::{ImportOptions, import_path};
use sqlx::Row;
use std::collections::{HashMap, HashSet};

const WORDS: &[&str] = &[
    "the", "house", "river", "green", "quickly", "children", "morning", "bridge", "music", "light", "stone", "garden",
    "letter", "window", "storm", "mountain", "city", "quiet", "bread", "winter", "friend", "road", "cloud", "silver",
];

/// A sentence of 6–14 words, deterministic from (i, salt).
pub(crate) fn sentence(i: usize, salt: usize) -> String {
    let n = 6 + (i * 7 + salt * 3) % 9;
    (0..n).map(|j| WORDS[(i * 5 + j * 11 + salt * 13 + j * j) % WORDS.len()]).collect::<Vec<_>>().join(" ") + "."
}

/// Writes a WMT-layout folder: `segments` lines, one reference, the given systems.
pub(crate) fn write_wmt(dir: &std::path::Path, pair: &str, segments: usize, systems: &[&str]) {
    let w = |p: &str, salt: usize| {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text: String = (0..segments).map(|i| sentence(i, salt) + "\n").collect();
        std::fs::write(path, text).unwrap();
    };
    w(&format!("sources/{pair}.txt"), 0);
    w(&format!("references/{pair}.refA.txt"), 1);
    for (k, s) in systems.iter().enumerate() {
        w(&format!("system-outputs/{pair}/{s}.txt"), 2 + k);
    }
}

/// A fresh database on SQLite (a temp file) and, when `ASSAY_TEST_POSTGRES_URL` is set, one on
/// PostgreSQL.
pub(crate) async fn databases() -> Vec<(Db, tempfile::TempDir)> {
    let mut out = Vec::new();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display());
    out.push((connect(&url).await.unwrap(), dir));
    if let Ok(server) = std::env::var("ASSAY_TEST_POSTGRES_URL") {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let url = format!("{}/assay_unit_{}_{nanos}", server.trim_end_matches('/'), std::process::id());
        out.push((connect(&url).await.unwrap(), tempfile::tempdir().unwrap()));
    }
    out
}

pub(crate) async fn count(db: &Db, table: &'static str) -> i64 {
    let sql = format!("SELECT COUNT(*) AS n FROM {table}");
    sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_one(&db.pool).await.unwrap().try_get("n").unwrap()
}

pub(crate) async fn import_folder(db: &Db, name: &str, segments: usize, systems: &[&str]) -> summary_alias::ImportSummary {
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), "en-de", segments, systems);
    let bundle = import_path(dir.path(), "upload", &ImportOptions::new(name)).unwrap();
    save_import(db, &bundle).await.unwrap()
}

mod summary_alias {
    pub use crate::campaign::store::ImportSummary;
}

pub(crate) fn draft(test_set_id: i64, systems: Vec<i64>, task: &str, wanted: usize, k: usize) -> CampaignDraft {
    let kind = crate::model::TaskKind::parse(task).unwrap();
    CampaignDraft {
        name: format!("{task} test"),
        task: kind,
        test_set_id,
        reference_name: None,
        systems,
        benchmark_systems: vec![],
        seed: 42,
        settings: CampaignSettings { judgments_wanted: wanted, redundancy: k, ..CampaignSettings::for_task(kind, "German", "English") },
        gate: Default::default(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn import_reuses_systems_and_failed_imports_change_nothing() {
    for (db, _dir) in databases().await {
        let first = import_folder(&db, "wmt-a", 30, &["Alpha", "Beta"]).await;
        assert_eq!(first.systems_created, vec!["Alpha", "Beta"]);
        assert_eq!(first.outputs_added, 60);
        assert_eq!(first.references_added, 30);
        assert!(first.test_sets[0].created);
        // Another test set with outputs of an existing system (another spelling of its name).
        let second = import_folder(&db, "wmt-b", 20, &["alpha", "Gamma"]).await;
        assert_eq!(second.systems_reused, vec!["alpha"]);
        assert_eq!(second.systems_created, vec!["Gamma"]);
        assert_eq!(count(&db, "systems").await, 3);
        assert_eq!(count(&db, "test_sets").await, 2);

        // A conflicting import: a new system plus a changed output of a stored one → nothing saved.
        let before: Vec<i64> = futures_counts(&db).await;
        let dir = tempfile::tempdir().unwrap();
        write_wmt(dir.path(), "en-de", 30, &["Alpha", "Delta"]);
        std::fs::write(dir.path().join("system-outputs/en-de/Alpha.txt"), (0..30).map(|i| format!("changed {i}\n")).collect::<String>()).unwrap();
        let bundle = import_path(dir.path(), "upload", &ImportOptions::new("wmt-a")).unwrap();
        let err = save_import(&db, &bundle).await.unwrap_err().to_string();
        assert!(err.contains("Alpha") && err.contains("different output"), "{err}");
        assert_eq!(futures_counts(&db).await, before, "a failed import must leave the database unchanged");
        let delta: i64 = sqlx::query("SELECT COUNT(*) AS n FROM systems WHERE name_key = 'delta'")
            .fetch_one(&db.pool).await.unwrap().try_get("n").unwrap();
        assert_eq!(delta, 0);
    }
}

pub(crate) async fn organizer(db: &Db) -> i64 {
    sqlx::query("INSERT INTO users (email, display_name, password_hash, role, created_at) VALUES ('o@x.org', 'O', 'x', 'organizer', 0) RETURNING id")
        .fetch_one(&db.pool).await.unwrap().try_get("id").unwrap()
}

async fn futures_counts(db: &Db) -> Vec<i64> {
    let mut v = Vec::new();
    for t in ["test_sets", "segments", "segment_references", "systems", "system_outputs"] {
        v.push(count(db, t).await);
    }
    v
}

struct StoredItem {
    position: i64,
    item_type: String,
    system_id: Option<i64>,
    segment_id: i64,
    paired: Option<i64>,
    shown: String,
    degradation: Option<String>,
}

async fn items_of(db: &Db, campaign: i64) -> Vec<Vec<StoredItem>> {
    let hits = sqlx::query("SELECT id FROM hits WHERE campaign_id = $1 ORDER BY hit_index").bind(campaign).fetch_all(&db.pool).await.unwrap();
    let mut out = Vec::new();
    for h in hits {
        let id: i64 = h.try_get("id").unwrap();
        let rows = sqlx::query("SELECT position, item_type, system_id, segment_id, paired_position, shown_text, degradation FROM hit_items WHERE hit_id = $1 ORDER BY position")
            .bind(id).fetch_all(&db.pool).await.unwrap();
        out.push(rows.iter().map(|r| StoredItem {
            position: r.try_get("position").unwrap(),
            item_type: r.try_get("item_type").unwrap(),
            system_id: r.try_get("system_id").unwrap(),
            segment_id: r.try_get("segment_id").unwrap(),
            paired: r.try_get("paired_position").unwrap(),
            shown: r.try_get("shown_text").unwrap(),
            degradation: r.try_get("degradation").unwrap(),
        }).collect());
    }
    out
}

async fn texts(db: &Db) -> (HashMap<(i64, i64), String>, HashMap<i64, String>) {
    let mut outputs = HashMap::new();
    for r in sqlx::query("SELECT system_id, segment_id, text FROM system_outputs").fetch_all(&db.pool).await.unwrap() {
        outputs.insert((r.try_get("system_id").unwrap(), r.try_get("segment_id").unwrap()), r.try_get("text").unwrap());
    }
    let mut refs = HashMap::new();
    for r in sqlx::query("SELECT segment_id, text FROM segment_references").fetch_all(&db.pool).await.unwrap() {
        refs.insert(r.try_get("segment_id").unwrap(), r.try_get("text").unwrap());
    }
    (outputs, refs)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn launched_da_hits_have_the_method_structure_and_are_deterministic() {
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "wmt-s", 40, &["Alpha", "Beta", "Gamma"]).await;
        let set = imported.test_sets[0].id;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let d = draft(set, systems.clone(), "da-adequacy", 70, 1);
        let check = check_design(&db, &d).await.unwrap();
        assert!(check.problems.is_empty(), "{:?}", check.problems);
        assert_eq!(check.implications.hits, 3);
        assert!(!check.samples.is_empty() && check.samples.iter().all(|s| matches!(s.degraded, DegradedText::Copy(_))));

        // The builder's objections name systems, not database ids.
        let lonely = check_design(&db, &draft(set, systems[..1].to_vec(), "da-adequacy", 70, 1)).await.unwrap();
        assert_eq!(lonely.problems, vec!["system Alpha has only 40 outputs, but a HIT needs 70 different outputs of it".to_string()]);
        let uid = organizer(&db).await;
        let id = create_campaign(&db, &d, uid).await.unwrap();
        let twin = create_campaign(&db, &d, uid).await.unwrap();
        let summary = launch_campaign(&db, id).await.unwrap();
        assert_eq!(summary.hits, 3);
        assert_eq!(summary.per_type["SYSTEM"], 3 * 70);
        assert_eq!(summary.per_type["BAD_REF"], 30);
        assert!(launch_campaign(&db, id).await.unwrap_err().to_string().contains("launched already"));
        launch_campaign(&db, twin).await.unwrap();

        let (outputs, refs) = texts(&db).await;
        let hits = items_of(&db, id).await;
        let twin_hits = items_of(&db, twin).await;
        for (hit, twin_hit) in hits.iter().zip(&twin_hits) {
            assert_eq!(hit.len(), 100);
            let n = |t: &str| hit.iter().filter(|i| i.item_type == t).count();
            assert_eq!((n("SYSTEM"), n("BAD_REF"), n("REPEAT"), n("REF")), (70, 10, 10, 10));
            for item in hit {
                // Same seed, same HITs, same texts.
                let t = &twin_hit[item.position as usize];
                assert_eq!((&t.item_type, t.system_id, t.segment_id, &t.shown), (&item.item_type, item.system_id, item.segment_id, &item.shown));
                match item.item_type.as_str() {
                    "SYSTEM" | "REPEAT" => {
                        assert_eq!(item.shown, outputs[&(item.system_id.unwrap(), item.segment_id)]);
                        assert!(item.degradation.is_none());
                    }
                    "REF" => {
                        assert_eq!(item.system_id, None);
                        assert_eq!(item.shown, refs[&item.segment_id]);
                    }
                    "BAD_REF" => {
                        let original = &outputs[&(item.system_id.unwrap(), item.segment_id)];
                        assert_ne!(&item.shown, original);
                        // Adequacy: a run of words deleted.
                        assert!(item.shown.split_whitespace().count() < original.split_whitespace().count());
                        assert!(item.degradation.as_deref().unwrap().contains("deleted"));
                    }
                    other => panic!("unexpected type {other}"),
                }
                if item.item_type != "SYSTEM" {
                    // Every QC item is paired with a SYSTEM item of the same segment, in the other half.
                    let p = item.paired.expect("QC items are paired") as usize;
                    let partner = &hit[p];
                    assert_eq!(partner.item_type, "SYSTEM");
                    assert_eq!(partner.segment_id, item.segment_id);
                    assert_eq!(partner.paired, Some(item.position));
                    if item.item_type != "REF" {
                        assert_eq!(partner.system_id, item.system_id);
                    }
                    let gap = (p as i64 - item.position).abs();
                    assert!((40..=58).contains(&gap), "pair {} ↔ {p} is {gap} apart", item.position);
                    assert_eq!((item.position / 10 - p as i64 / 10).abs(), 5, "pairs span set i and i + 5");
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn assignments_respect_redundancy_under_concurrency() {
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "wmt-c", 40, &["Alpha", "Beta"]).await;
        let set = imported.test_sets[0].id;
        let uid = organizer(&db).await;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let id = create_campaign(&db, &draft(set, systems, "da-adequacy", 70, 3), uid).await.unwrap();
        let w0 = crowd_worker(&db, Platform::MTurk, "early").await.unwrap();
        assert_eq!(next_assignment(&db, id, w0, None).await.unwrap(), None, "no work before launch");
        assert_eq!(launch_campaign(&db, id).await.unwrap().hits, 2);

        let mut workers = Vec::new();
        for i in 0..20 {
            workers.push(crowd_worker(&db, Platform::Prolific, &format!("p{i}")).await.unwrap());
        }
        assert_eq!(crowd_worker(&db, Platform::Prolific, "p3").await.unwrap(), workers[3]);
        let tasks: Vec<_> = workers.iter().map(|&w| {
            let db = db.clone();
            tokio::spawn(async move { next_assignment(&db, id, w, Some(serde_json::json!({"STUDY_ID": "s"}))).await })
        }).collect();
        let mut got = Vec::new();
        for t in tasks {
            if let Some(a) = t.await.unwrap().unwrap() {
                got.push(a);
            }
        }
        assert_eq!(got.len(), 6, "2 HITs × k=3");
        let slots: HashSet<(i64, i64)> = got.iter().map(|a| (a.hit_id, a.slot)).collect();
        assert_eq!(slots.len(), 6, "no slot twice");
        assert!(got.iter().all(|a| a.slot < 3));

        // The same worker asking again (even concurrently) gets the same assignment.
        let acct = worker_for_user(&db, uid).await.unwrap();
        assert_eq!(worker_for_user(&db, uid).await.unwrap(), acct);
        let id2 = {
            let more: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
                .iter().map(|r| r.try_get("id").unwrap()).collect();
            let c = create_campaign(&db, &draft(set, more, "da-adequacy", 70, 1), uid).await.unwrap();
            launch_campaign(&db, c).await.unwrap();
            c
        };
        let (a, b) = tokio::join!(next_assignment(&db, id2, acct, None), next_assignment(&db, id2, acct, None));
        let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
        assert_eq!(a.public_id, b.public_id);
        assert!(a.resumed || b.resumed);

        // Idle assignments expire and free their slot. The worker who comes back before anyone
        // took the slot gets the same assignment again, where they stopped (the demo annotator
        // of an old data directory, a worker back from a break).
        let first = &got[0];
        let holder: i64 = sqlx::query("SELECT worker_id FROM assignments WHERE id = $1").bind(first.id).fetch_one(&db.pool).await.unwrap().try_get("worker_id").unwrap();
        sqlx::query("UPDATE assignments SET last_seen_at = 0, next_position = 5 WHERE id = $1").bind(first.id).execute(&db.pool).await.unwrap();
        assert_eq!(super::assign::expire_idle(&db, id).await.unwrap(), 1);
        let back = next_assignment(&db, id, holder, None).await.unwrap().expect("the worker's own lapsed assignment");
        assert_eq!((back.id, back.public_id.as_str(), back.slot, back.resumed), (first.id, first.public_id.as_str(), first.slot, true));
        let row = sqlx::query("SELECT status, next_position FROM assignments WHERE id = $1").bind(first.id).fetch_one(&db.pool).await.unwrap();
        assert_eq!((row.try_get::<String, _>("status").unwrap().as_str(), row.try_get::<i64, _>("next_position").unwrap()), ("active", 5));
        // Expired again, and this time a newcomer takes the slot first: the HIT is no longer the
        // first worker's.
        sqlx::query("UPDATE assignments SET last_seen_at = 0 WHERE id = $1").bind(first.id).execute(&db.pool).await.unwrap();
        assert_eq!(super::assign::expire_idle(&db, id).await.unwrap(), 1);
        let newcomer = crowd_worker(&db, Platform::MTurk, "late").await.unwrap();
        let taken = next_assignment(&db, id, newcomer, None).await.unwrap().expect("the expired slot is free again");
        assert_eq!((taken.hit_id, taken.slot), (first.hit_id, first.slot));
        let status: String = sqlx::query("SELECT status FROM assignments WHERE id = $1").bind(first.id).fetch_one(&db.pool).await.unwrap().try_get("status").unwrap();
        assert_eq!(status, "expired");
        let again = next_assignment(&db, id, holder, None).await.unwrap();
        assert!(again.is_none_or(|a| a.hit_id != first.hit_id), "a worker never gets the same HIT twice");

        // A blocked worker gets nothing, not even in a campaign with free slots.
        let blocked = crowd_worker(&db, Platform::Link, "blocked-one").await.unwrap();
        set_blocked(&db, blocked, true).await.unwrap();
        assert_eq!(next_assignment(&db, id2, blocked, None).await.unwrap(), None);
    }
}

/// Issue 38: crowd arrivals from one client address, each with a new worker id, all at once,
/// hold at most the address's limit of unstarted assignments of a campaign (the others are
/// told so, and no worker record is kept for them); once a held assignment has an answer it
/// no longer counts; another address is not limited by this one; a worker resumes their own
/// assignment whatever the count.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unstarted_holds_per_client_are_capped_under_concurrency() {
    use super::assign::{Arrival, ClientHolds, crowd_arrival};
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "wmt-h", 40, &["Alpha", "Beta"]).await;
        let set = imported.test_sets[0].id;
        let uid = organizer(&db).await;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        // 2 HITs × k=10: 20 free slots.
        let id = create_campaign(&db, &draft(set, systems, "da-adequacy", 70, 10), uid).await.unwrap();
        launch_campaign(&db, id).await.unwrap();
        let client = ClientHolds { tag: "one-address".into(), max_unstarted: 4 };
        let workers_before = count(&db, "workers").await;
        let tasks: Vec<_> = (0..20).map(|i| {
            let (db, client) = (db.clone(), client.clone());
            tokio::spawn(async move {
                crowd_arrival(&db, id, Platform::Prolific, &format!("made-up-{i}"), Some(serde_json::json!({"SESSION_ID": format!("s{i}")})), Some(&client), || true).await
            })
        }).collect();
        let mut given = Vec::new();
        let mut refused = 0;
        for t in tasks {
            match t.await.unwrap().unwrap() {
                Arrival::Work(a) => given.push(a),
                Arrival::HoldsFull => refused += 1,
                other => panic!("unexpected arrival {other:?}"),
            }
        }
        assert_eq!((given.len(), refused), (4, 16), "at most 4 unstarted holds from one address");
        assert_eq!(count(&db, "workers").await, workers_before + 4, "no record for the refused workers");
        // A holder coming back resumes their assignment (not a new claim, whatever the count).
        let holder: String = sqlx::query("SELECT w.external_id FROM assignments a JOIN workers w ON w.id = a.worker_id WHERE a.id = $1")
            .bind(given[1].id).fetch_one(&db.pool).await.unwrap().try_get("external_id").unwrap();
        let session = format!("s{}", holder.trim_start_matches("made-up-"));
        let again = crowd_arrival(&db, id, Platform::Prolific, &holder, Some(serde_json::json!({"SESSION_ID": session})), Some(&client), || true).await.unwrap();
        assert!(matches!(&again, Arrival::Work(a) if a.public_id == given[1].public_id && a.resumed), "{again:?}");
        // Another address is not held back by this one.
        let elsewhere = ClientHolds { tag: "another-address".into(), max_unstarted: 4 };
        assert!(matches!(crowd_arrival(&db, id, Platform::MTurk, "elsewhere", None, Some(&elsewhere), || true).await.unwrap(), Arrival::Work(_)));
        // An answer given: that hold no longer counts, and one more worker from the address gets work.
        sqlx::query("UPDATE assignments SET next_position = 1 WHERE id = $1").bind(given[0].id).execute(&db.pool).await.unwrap();
        assert!(matches!(crowd_arrival(&db, id, Platform::MTurk, "one-more", None, Some(&client), || true).await.unwrap(), Arrival::Work(_)));
        assert_eq!(crowd_arrival(&db, id, Platform::MTurk, "too-many", None, Some(&client), || true).await.unwrap(), Arrival::HoldsFull);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn word_order_campaign_stores_permuted_references() {
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "wmt-w", 60, &["Alpha", "Beta"]).await;
        let set = imported.test_sets[0].id;
        let uid = organizer(&db).await;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let d = draft(set, systems, "word-order", 25, 1);
        let id = create_campaign(&db, &d, uid).await.unwrap();
        let s = launch_campaign(&db, id).await.unwrap();
        assert_eq!(s.hits, 2);
        let (outputs, refs) = texts(&db).await;
        for hit in items_of(&db, id).await {
            assert_eq!(hit.len(), 50);
            for item in &hit {
                if item.item_type == "BAD_REF" {
                    let r = &refs[&item.segment_id];
                    assert_ne!(&item.shown, r);
                    assert!(item.degradation.is_some());
                    let base = &hit[item.paired.unwrap() as usize];
                    assert_eq!(base.item_type, "SYSTEM");
                    assert_eq!(base.segment_id, item.segment_id);
                } else {
                    assert_eq!(item.item_type, "SYSTEM");
                    assert_eq!(item.shown, outputs[&(item.system_id.unwrap(), item.segment_id)]);
                }
            }
        }
    }
}

/// `choice` needs words of the output that the reference lacks; when outputs only reorder the
/// reference, launching still succeeds: those items fall back to `order`, and say so.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn word_order_falls_back_to_order_when_choice_cannot_apply() {
    use crate::import::{ImportBundle, LanguagePair, Reference, Segment, System, SystemOutput, TestSet};
    for (db, _dir) in databases().await {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];
        let refs: Vec<String> = (0..40).map(|i| {
            let mut w: Vec<&str> = words.to_vec();
            w.rotate_left(i % words.len());
            w.join(" ")
        }).collect();
        let reordered = |r: &String| { let mut w: Vec<&str> = r.split_whitespace().collect(); w.swap(2, 5); w.join(" ") };
        let bundle = ImportBundle {
            test_sets: vec![TestSet {
                name: "same-words".into(),
                pair: LanguagePair::parse("en-de").unwrap(),
                segments: refs.iter().enumerate().map(|(i, r)| Segment {
                    id: (i + 1).to_string(), document: None, domain: None, source: format!("source {i}"),
                    references: vec![Reference { name: "refA".into(), text: r.clone() }],
                }).collect(),
                outputs: ["Same-A", "Same-B"].iter().map(|s| SystemOutput { system: s.to_string(), texts: refs.iter().map(|r| Some(reordered(r))).collect(), spans: Vec::new() }).collect(),
            }],
            systems: ["Same-A", "Same-B"].iter().map(|s| System { name: s.to_string(), description: None, year: None }).collect(),
            notes: vec![],
        };
        let set = save_import(&db, &bundle).await.unwrap().test_sets[0].id;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let id = create_campaign(&db, &draft(set, systems, "word-order", 25, 1), organizer(&db).await).await.unwrap();
        launch_campaign(&db, id).await.expect("a word-order campaign launches even when `choice` cannot apply");
        let notes: Vec<String> = items_of(&db, id).await.into_iter().flatten().filter_map(|i| i.degradation).collect();
        assert!(notes.iter().any(|n| n.contains("instead of choice")), "{notes:?}");
        assert!(notes.iter().all(|n| !n.starts_with("choice")), "no `choice` item can exist here: {notes:?}");
    }
}

/// Teams in storage (issue 17, finding 12): what an install had belongs to the default team, as
/// every new account does; a second team's organizer reaches none of it (refused as missing),
/// lists none of it, and cannot reuse its test set's name; a campaign belongs to its test set's
/// team.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn another_teams_work_is_out_of_reach_and_out_of_sight() {
    use crate::auth::{Role, UserInfo, teams};
    use crate::web::{Owned, Visible, require_in_team, team_for_new};
    for (db, _dir) in databases().await {
        let summary = import_folder(&db, "shared", 30, &["A", "B", "C"]).await;
        let set = summary.test_sets[0].id;
        let systems: Vec<i64> = sqlx::query_scalar("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap();
        let org = organizer(&db).await;
        let campaign = super::launch::create_campaign(&db, &draft(set, systems.clone(), "da-adequacy", 70, 1), org).await.unwrap();
        let team_of = |sql: &'static str| {
            let db = db.clone();
            async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&db.pool).await.unwrap() }
        };
        assert_eq!(team_of("SELECT team_id FROM test_sets").await, teams::DEFAULT_TEAM);
        assert_eq!(team_of("SELECT team_id FROM campaigns").await, teams::DEFAULT_TEAM);

        let lab = teams::create_team(&db, "Lab").await.unwrap();
        assert_ne!(lab, teams::DEFAULT_TEAM);
        assert!(teams::create_team(&db, " Lab ").await.unwrap_err().to_string().contains("exists already"));
        let stranger = crate::auth::server::create_user(&db, "s@x.org", "S", "a long enough password", Role::Organizer).await.unwrap();
        assert_eq!(teams::team_ids_of(&db, stranger.id).await.unwrap(), vec![teams::DEFAULT_TEAM], "a new account joins the default team");
        teams::set_member(&db, lab, stranger.id, true).await.unwrap();
        teams::set_member(&db, teams::DEFAULT_TEAM, stranger.id, false).await.unwrap();
        assert_eq!(teams::team_ids_of(&db, stranger.id).await.unwrap(), vec![lab]);

        // Refused exactly as missing; the default team's organizer and an admin reach it.
        let e = require_in_team(&db, &stranger, Owned::Campaign(campaign)).await.unwrap_err();
        assert_eq!((e.status().as_u16(), e.to_string()), (404, format!("there is no campaign with id {campaign}")));
        let missing = require_in_team(&db, &stranger, Owned::Campaign(campaign + 1000)).await.unwrap_err();
        assert_eq!(missing.to_string(), format!("there is no campaign with id {}", campaign + 1000));
        assert!(require_in_team(&db, &stranger, Owned::TestSet(set)).await.is_err());
        let own = UserInfo { id: org, email: "o@x.org".into(), name: "O".into(), role: Role::Organizer };
        teams::set_member(&db, teams::DEFAULT_TEAM, org, true).await.unwrap();
        require_in_team(&db, &own, Owned::Campaign(campaign)).await.unwrap();
        let admin = UserInfo { id: -1, email: "a@x.org".into(), name: "A".into(), role: Role::Admin };
        require_in_team(&db, &admin, Owned::Campaign(campaign)).await.unwrap();
        let visible = Visible::of(&db, &stranger).await.unwrap();
        assert!(!visible.campaign(campaign) && !visible.test_set(set));
        assert!(Visible::of(&db, &own).await.unwrap().campaign(campaign));

        // New work goes to the stranger's team; a team not theirs is refused.
        assert_eq!(team_for_new(&db, &stranger, None).await.unwrap(), lab);
        assert!(team_for_new(&db, &stranger, Some(teams::DEFAULT_TEAM)).await.is_err());
        let dir = tempfile::tempdir().unwrap();
        write_wmt(dir.path(), "en-de", 30, &["A", "B", "C"]);
        let bundle = import_path(dir.path(), "upload", &ImportOptions::new("shared")).unwrap();
        let taken = super::store::save_import_to(&db, &bundle, lab).await.unwrap_err().to_string();
        assert!(taken.contains("the name is taken"), "{taken}");
        let bundle = import_path(dir.path(), "upload", &ImportOptions::new("lab set")).unwrap();
        let theirs = super::store::save_import_to(&db, &bundle, lab).await.unwrap().test_sets[0].id;
        let theirs_campaign = super::launch::create_campaign(&db, &draft(theirs, systems.clone(), "da-adequacy", 70, 1), stranger.id).await.unwrap();
        let team: i64 = sqlx::query_scalar("SELECT team_id FROM campaigns WHERE id = $1").bind(theirs_campaign).fetch_one(&db.pool).await.unwrap();
        assert_eq!(team, lab, "a campaign belongs to its test set's team");
        let visible = Visible::of(&db, &stranger).await.unwrap();
        assert!(visible.campaign(theirs_campaign) && visible.test_set(theirs));
    }
}

/// Issue 38: DA fluency and source-based DA with 20-item HITs and 2 bad references each. The
/// designer's check says what the design costs (every worker of one HIT "not enough
/// evidence"); the organizer's launch is refused, naming `accept_thin_evidence` and changing
/// nothing, until the design says "I know"; the default design needs nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_design_whose_hits_cannot_reach_the_reliability_test_launches_only_with_i_know() {
    use super::launch::{launch_campaign_checked, update_campaign};
    use crate::error::AppError;
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "wmt-thin", 80, &["Alpha", "Beta", "Gamma", "Delta"]).await;
        let set = imported.test_sets[0].id;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let uid = organizer(&db).await;
        for task in ["da-fluency", "da-source"] {
            let mut d = draft(set, systems.clone(), task, 28, 2);
            d.name = format!("{task} thin");
            d.settings.hit_length = 20;
            d.settings.bad_refs = 2;
            d.settings.repeats = 2;
            d.settings.refs = 2;
            d.settings.sets = 2;
            d.settings.thin_evidence = ThinEvidence::Exclude;
            let check = check_design(&db, &d).await.unwrap();
            assert!(check.problems.is_empty(), "{:?}", check.problems);
            assert_eq!(check.implications.hits, 8, "the issue's 8 HITs");
            let e = check.evidence.clone().unwrap();
            assert_eq!((e.fewest, e.most, e.thin_hits, e.min_pairs), (2, 2, 8, 5));
            let words = check.thin_evidence.clone().unwrap();
            assert!(words.contains("Each worker's HIT has 2 reliability pairs") && words.contains("needs 5") && words.contains("excluded"), "{words}");
            assert!(check.needs_i_know);

            let id = create_campaign(&db, &d, uid).await.unwrap();
            match launch_campaign_checked(&db, id).await {
                Err(AppError::Invalid { field, problem }) => {
                    assert_eq!(field, "accept_thin_evidence");
                    assert!(problem.contains("not enough evidence") && problem.contains("I know"), "{problem}");
                }
                other => panic!("{task}: a thin design launched without \"I know\": {other:?}"),
            }
            let status: String = sqlx::query_scalar("SELECT status FROM campaigns WHERE id = $1").bind(id).fetch_one(&db.pool).await.unwrap();
            assert_eq!(status, "draft", "a refused launch changes nothing");
            let hits: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM hits WHERE campaign_id = $1").bind(id).fetch_one(&db.pool).await.unwrap();
            assert_eq!(hits, 0);

            d.settings.accept_thin_evidence = true;
            update_campaign(&db, id, &d).await.unwrap();
            assert_eq!(launch_campaign_checked(&db, id).await.unwrap().hits, 8);
        }
        // Kept (the default), such workers lose nothing paid for: warned, launched.
        let mut d = draft(set, systems.clone(), "da-fluency", 28, 2);
        (d.name, d.settings.hit_length, d.settings.bad_refs, d.settings.repeats, d.settings.refs, d.settings.sets) = ("kept".into(), 20, 2, 2, 2, 2);
        let check = check_design(&db, &d).await.unwrap();
        assert!(check.thin_evidence.unwrap().contains("kept in the scores unchecked") && !check.needs_i_know);
        let id = create_campaign(&db, &d, uid).await.unwrap();
        assert_eq!(launch_campaign_checked(&db, id).await.unwrap().hits, 8);
        // The default design (100 items, 10 bad references) reaches the minimum: nothing to say.
        let d = draft(set, systems.clone(), "da-source", 70, 1);
        let check = check_design(&db, &d).await.unwrap();
        assert_eq!((check.evidence.map(|e| e.thin_hits), check.thin_evidence), (Some(0), None));
        let id = create_campaign(&db, &d, uid).await.unwrap();
        launch_campaign_checked(&db, id).await.unwrap();
    }
}
