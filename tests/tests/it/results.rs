//! The results and worker-review server functions against the real server on both databases.
//!
//! The demo's adequacy campaign has one 100-item HIT with two slots: the demo annotator answers
//! it attentively (originals by system, bad references low, references high) and the Prolific
//! worker clicks at random. The results must exclude the random clicker, score the systems from
//! the attentive worker's judgments only (raw means checked against a recomputation here), and
//! refuse the wrong roles.

use assay_tests::*;
use std::collections::BTreeMap;

fn results_form(id: &str, wilcoxon: &str) -> Vec<(&'static str, String)> {
    vec![
        ("campaign_id", id.to_string()),
        ("exclude_ref", "false".into()),
        ("exclude_bad_ref", "false".into()),
        ("per_segment", "false".into()),
        ("wilcoxon", wilcoxon.to_string()),
    ]
}

async fn call(b: &Browser, name: &str, form: &[(&'static str, String)]) -> Answer {
    let f: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    b.call(name, &f).await
}

both_backends! {
    async fn results_exclude_the_random_clicker_and_score_from_the_attentive_worker(server) {
        let organizer = server.browser();
        organizer.login(ORGANIZER).await;
        let id = da_campaign(&organizer).await.to_string();
        let (own, crowd) = da_assignments(&server).await;
        let items = organizer.call("assignment_items", &[("assignment", &own)]).await.json();
        // Systems in name order get bases 40, 55, 70, …: the last name is best.
        let mut systems: Vec<String> = items.as_array().unwrap().iter().filter_map(|i| i["system"].as_str().map(String::from)).collect();
        systems.sort();
        systems.dedup();
        assert!(systems.len() >= 2, "{systems:?}");
        let base = |s: &str| 40.0 + 15.0 * systems.iter().position(|x| x == s).unwrap_or(0) as f64;
        let attentive = |p: i64, t: &str, s: &str| match t {
            "BAD_REF" => 5.0 + (p % 5) as f64,
            "REF" => 97.0,
            "REPEAT" => base(s) + 3.0,
            _ => base(s) + (p % 7) as f64,
        };
        let annotator = server.browser();
        annotator.login(ANNOTATOR).await;
        answer_all(&server, &annotator, &own, attentive).await;
        let random = server.browser();
        answer_all(&server, &random, &crowd, |p, _, _| ((p * 37 + 11) % 101) as f64).await;

        // Expected raw means: the attentive worker's SYSTEM and REPEAT scores per system.
        let mut expected: BTreeMap<String, (f64, usize)> = BTreeMap::new();
        for i in items.as_array().unwrap() {
            let t = i["item_type"].as_str().unwrap();
            if t == "SYSTEM" || t == "REPEAT" {
                let s = i["system"].as_str().unwrap();
                let e = expected.entry(s.to_string()).or_default();
                e.0 += attentive(i["position"].as_i64().unwrap(), t, s);
                e.1 += 1;
            }
        }

        // Roles: annotators and anonymous callers are refused; researchers and organizers read.
        let form = results_form(&id, "false");
        assert_eq!(call(&annotator, "campaign_results", &form).await.status, 403);
        assert_eq!(call(&server.browser(), "campaign_results", &form).await.status, 401);
        let researcher = server.browser();
        researcher.login(RESEARCHER).await;
        let r = call(&researcher, "campaign_results", &form).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(call(&organizer, "campaign_results", &form).await.status, 200);
        let r = r.json();
        assert_eq!(r["judgments"], 200, "{r}");
        assert_eq!(r["workers"], 2);
        assert_eq!(r["judgments_excluded"], 100, "the random clicker is excluded: {}", r["excluded"]);
        let excluded = r["excluded"].as_array().unwrap();
        assert_eq!(excluded.len(), 1, "{excluded:?}");
        assert!(excluded[0]["reason"].as_str().unwrap().contains("paired t"), "{excluded:?}");

        let group = &r["groups"][0];
        let rows = group["systems"].as_array().unwrap();
        assert_eq!(rows.len(), expected.len());
        // Sorted by z, best first, and that is the order of the bases (highest name first).
        let zs: Vec<f64> = rows.iter().map(|s| s["z"].as_f64().unwrap()).collect();
        assert!(zs.windows(2).all(|w| w[0] >= w[1]), "{zs:?}");
        assert_eq!(rows[0]["name"], systems.last().unwrap().as_str());
        for row in rows {
            let (sum, n) = expected[row["name"].as_str().unwrap()];
            assert_eq!(row["n"], n as i64, "{row}");
            assert!((row["raw"].as_f64().unwrap() - sum / n as f64).abs() < 1e-9, "{row} vs {}", sum / n as f64);
            let ci = row["z_ci"].as_array().expect("a bootstrap interval");
            let z = row["z"].as_f64().unwrap();
            assert!(ci[0].as_f64().unwrap() <= z + 1e-9 && z <= ci[1].as_f64().unwrap() + 1e-9, "{row}");
        }
        let plot = group["z_plot_svg"].as_str().unwrap();
        assert_eq!(plot.matches(r#"class="point""#).count(), rows.len());
        let heat = group["heatmap_svg"].as_str().unwrap();
        assert_eq!(heat.matches("<rect").count(), rows.len() * rows.len());
        assert!(!group["clusters"].as_array().unwrap().is_empty());

        // Recomputed with other settings: per-segment averaging changes nothing about who is excluded.
        let mut seg = results_form(&id, "true");
        seg[3].1 = "true".into();
        let r2 = call(&researcher, "campaign_results", &seg).await;
        assert_eq!(r2.status, 200, "{}", r2.body);
        let r2 = r2.json();
        assert_eq!(r2["options"]["per_segment"], true);
        assert_eq!(r2["options"]["wilcoxon"], true);
        assert!(r2["excluded"][0]["reason"].as_str().unwrap_or("").contains("Wilcoxon"), "{}", r2["excluded"]);

        // An unknown campaign is a clear error.
        let missing = call(&researcher, "campaign_results", &results_form("999999", "false")).await;
        assert_eq!(missing.status, 400);
        assert!(missing.body.contains("999999"), "{}", missing.body);

        // The worker page: organizers only.
        let wf = [("campaign_id", id.clone()), ("wilcoxon", "false".to_string())];
        assert_eq!(call(&researcher, "campaign_workers", &wf).await.status, 403);
        assert_eq!(call(&annotator, "campaign_workers", &wf).await.status, 403);
        let w = call(&organizer, "campaign_workers", &wf).await;
        assert_eq!(w.status, 200, "{}", w.body);
        let w = w.json();
        let workers = w["workers"].as_array().unwrap();
        assert_eq!(workers.len(), 2);
        let good = workers.iter().find(|x| x["excluded"] == false).expect("the attentive worker");
        let bad = workers.iter().find(|x| x["excluded"] == true).expect("the random clicker");
        assert_eq!(good["verdict"], "pass");
        assert_eq!(good["hits"], 1);
        assert!(good["n_pairs"].as_i64().unwrap() > 0);
        assert!(good["p_value"].as_f64().unwrap() < 0.05);
        assert!(good["mean_original"].as_f64().unwrap() > good["mean_bad_ref"].as_f64().unwrap() + 20.0);
        assert_eq!(good["mean_ref"], 97.0);
        assert_ne!(bad["verdict"], "pass");
        // One circle per (original, bad reference) pair in the scatter.
        let pairs = good["n_pairs"].as_i64().unwrap() as usize;
        assert_eq!(good["scatter_svg"].as_str().unwrap().matches(r#"class="pair""#).count(), pairs);
        assert_eq!(good["test"], "paired t");

        // The researchers' list of campaigns counts the judgments; annotators are refused.
        assert_eq!(annotator.call("results_campaigns", &[]).await.status, 403);
        let list = researcher.call("results_campaigns", &[]).await;
        assert_eq!(list.status, 200, "{}", list.body);
        let list = list.json();
        let entry = list.as_array().unwrap().iter().find(|c| c["id"].to_string() == id).expect("the DA campaign listed");
        assert_eq!(entry["judgments"], 200);

        // The pages render for their roles.
        let page = researcher.get(&format!("/campaigns/{id}/results")).await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains("z-plot") && page.body.contains("heatmap"), "results page");
    }
}
