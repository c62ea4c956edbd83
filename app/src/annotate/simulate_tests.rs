use super::*;
use sqlx::Row;
use crate::campaign::tests::{databases, draft, import_folder, organizer};
use crate::campaign::launch::{create_campaign, launch_campaign};

#[test]
fn mixes_parse_and_lay_out_their_shares() {
    let shares = CrowdMix::parse_shares("careful=60, random=20,noisy=20").unwrap();
    assert_eq!(shares, vec![(WorkerKind::Careful, 60.0), (WorkerKind::RandomClicker, 20.0), (WorkerKind::Noisy, 20.0)]);
    let mix = CrowdMix { shares, workers: 100, hits_per_worker: 1, spread: 20.0, seed: 3 };
    let careful = (0..100).filter(|&i| mix.kind(i) == WorkerKind::Careful).count();
    assert!((55..=65).contains(&careful), "{careful} careful of 100");
    assert!(CrowdMix::parse_shares("careful").unwrap_err().to_string().contains("kind=share"));
    assert!(CrowdMix::parse_shares("sloppy=3").unwrap_err().to_string().contains("not a kind"));
    assert!(CrowdMix::parse_shares("careful=0").unwrap_err().to_string().contains("no workers"));
    assert_eq!(nearest_box(61.0), 0.5);
    assert_eq!(nearest_box(100.0), 1.0);
}

/// A launched campaign filled by a simulated crowd through the real path, on both
/// databases: every slot answered, the random clickers held back by quality control, the
/// systems ranked in the order of their true quality.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_simulated_crowd_fills_a_campaign_through_the_storage_path() {
    for (db, _dir) in databases().await {
        let imported = import_folder(&db, "sim", 40, &["Alpha", "Beta", "Gamma"]).await;
        let set = imported.test_sets[0].id;
        let systems: Vec<i64> = sqlx::query("SELECT id FROM systems ORDER BY id").fetch_all(&db.pool).await.unwrap()
            .iter().map(|r| r.try_get("id").unwrap()).collect();
        let uid = organizer(&db).await;
        let id = create_campaign(&db, &draft(set, systems, "da-adequacy", 70, 2), uid).await.unwrap();
        let hits = launch_campaign(&db, id).await.unwrap().hits;
        assert_eq!(free_slots(&db, id).await.unwrap(), hits * 2);
        let mix = CrowdMix {
            shares: CrowdMix::parse_shares("careful=75,random=25").unwrap(),
            workers: 20,
            hits_per_worker: 1,
            spread: 30.0,
            seed: 7,
        };
        let mut calls = 0;
        let report = simulate_campaign(&db, b"secret", id, &mix, |_| calls += 1).await.unwrap();
        // Every slot of every HIT (k = 2) answered; the rest of the workers found none.
        assert_eq!(report.hits, hits * 2, "{report:?}");
        assert_eq!(free_slots(&db, id).await.unwrap(), 0);
        assert_eq!(report.judgments, hits * 2 * 100, "{report:?}");
        assert!(report.idle_workers >= 1 && calls == report.workers, "{report:?}");
        let stored: i64 = sqlx::query("SELECT COUNT(*) AS n FROM judgments").fetch_one(&db.pool).await.unwrap().get("n");
        assert_eq!(stored as usize, report.judgments);
        // The gate ran at every HIT's end.
        let verdicts: i64 = sqlx::query("SELECT COUNT(*) AS n FROM worker_verdicts").fetch_one(&db.pool).await.unwrap().get("n");
        assert_eq!(verdicts as usize, report.hits);

        let (_, judged) = crate::analysis::db::load_campaign(&db, id).await.unwrap();
        let r = crate::analysis::analyse(&judged, &crate::analysis::AnalysisSettings::default());
        let g = &r.groups[0];
        let mut by_z: Vec<(&str, f64)> = g.systems.iter().map(|s| (r.names.systems[s.system as usize].as_str(), s.z)).collect();
        by_z.sort_by(|a, b| b.1.total_cmp(&a.1));
        assert_eq!(by_z.iter().map(|s| s.0).collect::<Vec<_>>(), ["Gamma", "Beta", "Alpha"], "{by_z:?}");
    }
}
