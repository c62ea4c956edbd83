//! Studies on SQLite and PostgreSQL (the campaign tests' fixtures).

use crate::campaign::tests::{count, databases, import_folder};
use sqlx::Row;
use std::collections::HashMap;

/// Two years' test sets (60 segments each: Best07 and Bench, Best12 and Bench): their ids and
/// every system's id by name.
async fn two_years(db: &crate::db::Db) -> (i64, i64, HashMap<String, i64>) {
    let old = import_folder(db, "wmt07", 60, &["Best07", "Bench"]).await.test_sets[0].id;
    let new = import_folder(db, "wmt12", 60, &["Best12", "Bench"]).await.test_sets[0].id;
    let mut ids = HashMap::new();
    for r in sqlx::query("SELECT id, name FROM systems").fetch_all(&db.pool).await.unwrap() {
        ids.insert(r.try_get::<String, _>("name").unwrap(), r.try_get::<i64, _>("id").unwrap());
    }
    (old, new, ids)
}

/// A study launches all its campaigns in one transaction: when one of them cannot be built,
/// none is launched and no HIT is stored; once it can, both are.
#[tokio::test]
async fn a_study_launches_all_its_campaigns_or_none() {
    for (db, _dir) in databases().await {
        let (old, new, ids) = two_years(&db).await;
        let draft: crate::study::StudyDraft = serde_json::from_value(serde_json::json!({
            "name": "07 vs 12", "tasks": ["da-adequacy", "da-fluency"], "seed": 11,
            "pairs": [{ "old_test_set_id": old, "best_old": ids["Best07"], "new_test_set_id": new, "best_new": ids["Best12"], "benchmark": ids["Bench"] }],
            "settings": { "hit_length": 30, "bad_refs": 5, "repeats": 2, "refs": 3, "sets": 2, "judgments_wanted": 20, "redundancy": 2 },
        }))
        .unwrap();
        let organizer = crate::auth::server::create_user(&db, "study@example.org", "S", "a long enough password", crate::auth::Role::Organizer).await.unwrap();
        let study = crate::study::store::create_study(&db, &draft, organizer.id, &|_| true).await.unwrap();
        let arms: Vec<i64> = sqlx::query("SELECT campaign_id FROM study_arms WHERE study_id = $1 ORDER BY campaign_id")
            .bind(study)
            .fetch_all(&db.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get("campaign_id").unwrap())
            .collect();
        assert_eq!(arms.len(), 2);
        let settings: String = sqlx::query("SELECT settings FROM campaigns WHERE id = $1").bind(arms[1]).fetch_one(&db.pool).await.unwrap().try_get("settings").unwrap();
        sqlx::query("UPDATE campaigns SET settings = 'not settings' WHERE id = $1").bind(arms[1]).execute(&db.pool).await.unwrap();

        let e = crate::study::store::launch_study(&db, study).await.unwrap_err().to_string();
        assert!(e.contains("unreadable settings"), "{e}");
        assert_eq!(count(&db, "hits").await, 0, "no campaign of the study launched");
        let launched: i64 = sqlx::query("SELECT COUNT(*) AS n FROM campaigns WHERE status <> 'draft'").fetch_one(&db.pool).await.unwrap().try_get("n").unwrap();
        assert_eq!(launched, 0);

        sqlx::query("UPDATE campaigns SET settings = $1 WHERE id = $2").bind(settings).bind(arms[1]).execute(&db.pool).await.unwrap();
        let out = crate::study::store::launch_study(&db, study).await.unwrap();
        assert_eq!(out.iter().map(|(_, hits)| *hits).collect::<Vec<_>>(), [4, 4], "{out:?}");
        assert!(count(&db, "hits").await == 8);
        assert!(crate::study::store::launch_study(&db, study).await.unwrap_err().to_string().contains("launched already"));
    }
}

/// Issue 18 item 8: test sets of two years name their references as they were imported. A
/// study whose old test set calls its reference "ref-2007" and the new one "ref-2012" failed at
/// launch with 'no reference named "ref-2007"' (one name for the campaign). Each test set now has
/// its own reference, chosen in the designer and checked when the study is made; every item of
/// both test sets shows its own test set's reference.
#[tokio::test]
async fn each_test_set_of_a_study_shows_its_own_reference() {
    for (db, _dir) in databases().await {
        let (old, new, ids) = two_years(&db).await;
        for (set, name) in [(old, "ref-2007"), (new, "ref-2012")] {
            sqlx::query("UPDATE segment_references SET name = $1 WHERE segment_id IN (SELECT id FROM segments WHERE test_set_id = $2)")
                .bind(name)
                .bind(set)
                .execute(&db.pool)
                .await
                .unwrap();
        }
        let draft = |new_reference: Option<&str>| -> crate::study::StudyDraft {
            serde_json::from_value(serde_json::json!({
                "name": "07 vs 12", "tasks": ["da-adequacy"], "seed": 11,
                "pairs": [{ "old_test_set_id": old, "best_old": ids["Best07"], "new_test_set_id": new, "best_new": ids["Best12"],
                            "benchmark": ids["Bench"], "new_reference": new_reference }],
                "settings": { "hit_length": 30, "bad_refs": 5, "repeats": 2, "refs": 3, "sets": 2, "judgments_wanted": 20, "redundancy": 1 },
            }))
            .unwrap()
        };
        let organizer = crate::auth::server::create_user(&db, "refs@example.org", "R", "a long enough password", crate::auth::Role::Organizer).await.unwrap();

        // A reference the test set does not have is refused when the study is made, naming it.
        let problems = crate::study::store::check_study(&db, &draft(Some("ref-2007")), &|_| true).await.problems.join("; ");
        assert!(problems.contains("no reference named \"ref-2007\"") && problems.contains("ref-2012"), "{problems}");
        let e = crate::study::store::create_study(&db, &draft(Some("ref-2007")), organizer.id, &|_| true).await.unwrap_err().to_string();
        assert!(e.contains("no reference named \"ref-2007\""), "{e}");
        assert_eq!(count(&db, "studies").await, 0);

        // Chosen or by default, each test set shows its own.
        let study = crate::study::store::create_study(&db, &draft(Some("ref-2012")), organizer.id, &|_| true).await.unwrap();
        let arm: (i64, Option<String>, Option<String>) =
            sqlx::query_as("SELECT campaign_id, old_reference, new_reference FROM study_arms WHERE study_id = $1").bind(study).fetch_one(&db.pool).await.unwrap();
        assert_eq!((arm.1.as_deref(), arm.2.as_deref()), (Some("ref-2007"), Some("ref-2012")));
        let out = crate::study::store::launch_study(&db, study).await.unwrap();
        assert!(out[0].1 > 0, "{out:?}");
        let mut seen = std::collections::HashSet::new();
        for hit in 0..out[0].1 as i64 {
            for item in crate::campaign::status::hit_items(&db, arm.0, hit).await.unwrap() {
                let (set, want): (i64, String) = sqlx::query_as(
                    "SELECT s.test_set_id, r.text FROM segments s JOIN segment_references r ON r.segment_id = s.id WHERE s.id = $1",
                )
                .bind(item.segment_id)
                .fetch_one(&db.pool)
                .await
                .unwrap();
                assert_eq!(item.reference.as_deref(), Some(want.as_str()), "item {} of HIT {hit}", item.position);
                seen.insert(set);
            }
        }
        assert_eq!(seen.len(), 2, "items of both test sets");
    }
}

/// Teams (issue 17, finding 12): a study's test sets belong to one team, which the study and
/// its arms then belong to; a test set the caller may not use is refused as a missing one; a
/// study of another team is out of reach and out of sight.
#[tokio::test]
async fn a_study_belongs_to_its_test_sets_team() {
    use crate::auth::{Role, teams};
    use crate::web::{Owned, Visible, require_in_team};
    for (db, _dir) in databases().await {
        let (old, new, ids) = two_years(&db).await;
        let draft: crate::study::StudyDraft = serde_json::from_value(serde_json::json!({
            "name": "07 vs 12", "tasks": ["da-adequacy"], "seed": 11,
            "pairs": [{ "old_test_set_id": old, "best_old": ids["Best07"], "new_test_set_id": new, "best_new": ids["Best12"], "benchmark": ids["Bench"] }],
            "settings": { "hit_length": 30, "bad_refs": 5, "repeats": 2, "refs": 3, "sets": 2, "judgments_wanted": 20, "redundancy": 1 },
        }))
        .unwrap();
        let lab = teams::create_team(&db, "Lab").await.unwrap();
        let organizer = crate::auth::server::create_user(&db, "lab@example.org", "L", "a long enough password", Role::Organizer).await.unwrap();
        teams::set_member(&db, lab, organizer.id, true).await.unwrap();
        teams::set_member(&db, teams::DEFAULT_TEAM, organizer.id, false).await.unwrap();

        // The default team's test sets, asked by the lab's organizer: as missing.
        let reach = Visible::of(&db, &organizer).await.unwrap();
        let check = crate::study::store::check_study(&db, &draft, &|id| reach.test_set(id)).await;
        assert_eq!(check.problems, vec![format!("pair 1: there is no test set with id {old}")]);
        // Test sets of two teams: refused.
        sqlx::query("UPDATE test_sets SET team_id = $1 WHERE id = $2").bind(lab).bind(new).execute(&db.pool).await.unwrap();
        let mixed = crate::study::store::check_study(&db, &draft, &|_| true).await.problems.join("; ");
        assert!(mixed.contains("belong to one team"), "{mixed}");
        // Both the lab's: the study and its arm are the lab's.
        sqlx::query("UPDATE test_sets SET team_id = $1 WHERE id = $2").bind(lab).bind(old).execute(&db.pool).await.unwrap();
        let reach = Visible::of(&db, &organizer).await.unwrap();
        let study = crate::study::store::create_study(&db, &draft, organizer.id, &|id| reach.test_set(id)).await.unwrap();
        let team: i64 = sqlx::query_scalar("SELECT team_id FROM studies WHERE id = $1").bind(study).fetch_one(&db.pool).await.unwrap();
        let arm: i64 = sqlx::query_scalar("SELECT c.team_id FROM study_arms a JOIN campaigns c ON c.id = a.campaign_id WHERE a.study_id = $1")
            .bind(study)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        assert_eq!((team, arm), (lab, lab));
        require_in_team(&db, &organizer, Owned::Study(study)).await.unwrap();
        let outsider = crate::auth::server::create_user(&db, "out@example.org", "O", "a long enough password", Role::Researcher).await.unwrap();
        let e = require_in_team(&db, &outsider, Owned::Study(study)).await.unwrap_err();
        assert_eq!(e.to_string(), format!("there is no study with id {study}"));
        assert!(!Visible::of(&db, &outsider).await.unwrap().study(study));
    }
}
