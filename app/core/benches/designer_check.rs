//! What the designer's check adds to building a design (issue 38): counting each HIT's
//! reliability pairs (`hit::evidence::plan`) and the figures of the built HITs
//! (`hit::figures::of_item_hits`), beside the HIT builder itself, on a large DA design.
//!
//! Run by hand: `cargo bench -p assay-core --bench designer_check`. Environment:
//! `ASSAY_BENCH_HITS` (default 10,000 HITs of 100 items), `ASSAY_BENCH_RUNS` (default 5).

use std::time::Instant;

use assay_core::hit::{Candidate, HitDesign, JudgmentsWanted, build_hits, evidence, figures};
use assay_core::model::TaskKind;
use assay_core::settings::CampaignSettings;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("designer check benchmark: skipped (run it with `cargo bench -p assay-core --bench designer_check`)");
        return;
    }
    let hits_wanted = env_usize("ASSAY_BENCH_HITS", 10_000);
    let runs = env_usize("ASSAY_BENCH_RUNS", 5).max(1);
    let (systems, segments) = (20usize, 5_000usize);
    let design = HitDesign::default();
    let cands: Vec<Candidate> = (0..systems).flat_map(|s| (0..segments).map(move |g| Candidate::new(format!("sys{s}"), g.to_string()))).collect();
    let wanted = JudgmentsWanted::PerSystem(hits_wanted * design.system_items() / systems);
    let settings = CampaignSettings::for_task(TaskKind::DaAdequacy, "German", "English");
    let (mut build, mut check) = (Vec::new(), Vec::new());
    let mut built = 0;
    for run in 0..runs {
        let t = Instant::now();
        let hits = build_hits(&cands, &design, wanted, run as u64 + 1).expect("the design builds");
        build.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let e = evidence::plan(&hits, 5, 0);
        let f = figures::of_item_hits(&settings, TaskKind::DaAdequacy, systems, &hits);
        check.push(t.elapsed().as_secs_f64());
        assert_eq!((e.hits, f.hits), (hits.len(), hits.len()));
        built = hits.len();
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (b, c) = (median(&mut build), median(&mut check));
    println!("designer check on {built} HITs of {} items ({runs} runs, medians):", design.length);
    println!("  HIT builder            {:>9.1} ms", b * 1e3);
    println!("  evidence + figures     {:>9.1} ms  ({:.1}% of the build)", c * 1e3, 100.0 * c / b);
}
