//! The pipeline benchmark (issue 5, item 6): the whole analysis — reliability tests, z-scores,
//! system scores, the one-sided Mann–Whitney matrix of 20 systems, clusters — on 1,000,000
//! simulated judgments read from a Graham TSV, and the same pipeline written plainly with
//! pandas + SciPy (`tests/bench/pipeline_pandas.py`) on the same file in the same run.
//!
//! Run by hand: `cargo bench -p assay-core --bench pipeline` (needs `python3` with
//! pandas and SciPy). Prints both times, their ratio, peak memory, and whether the two agree
//! (same excluded workers, system z means within 1e-6, same order and clusters).
//! Environment: `ASSAY_BENCH_JUDGMENTS` (default 1,000,000), `ASSAY_BENCH_RUNS` (default 3).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use assay_core::analysis::formats::read_graham_file;
use assay_core::analysis::{AnalysisResult, AnalysisSettings, analyse};
use assay_core::simulate::{CrowdConfig, WorkerKind, write_graham_tsv};

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: the benchmark is run by hand only.
    if !std::env::args().any(|a| a == "--bench") {
        println!("pipeline benchmark: skipped (run it with `cargo bench -p assay-core --bench pipeline`)");
        return;
    }
    let judgments = env_usize("ASSAY_BENCH_JUDGMENTS", 1_000_000);
    let runs = env_usize("ASSAY_BENCH_RUNS", 3).max(1);
    let dir = std::env::temp_dir().join(format!("assay-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench directory");
    let tsv = dir.join("judgments.tsv");

    // 20 systems, 2,000 segments, a crowd scaled to about eight HITs per worker.
    let base = CrowdConfig::with_judgments(judgments);
    let hits = judgments.div_ceil(base.design.length);
    let scale = (hits / 8 / 62).max(1);
    let config = CrowdConfig {
        seed: 2026,
        system_quality: (0..20).map(|i| 40.0 + 2.0 * i as f64).collect(),
        segments: 2000,
        workers: vec![
            (WorkerKind::Careful, 30 * scale),
            (WorkerKind::Noisy, 8 * scale),
            (WorkerKind::LazyConstant, 4 * scale),
            (WorkerKind::RandomClicker, 8 * scale),
            (WorkerKind::Harsh, 6 * scale),
            (WorkerKind::Lenient, 6 * scale),
        ],
        wanted: assay_core::hit::JudgmentsWanted::PerSystem(hits * base.design.system_items() / 20),
        ..base
    };
    let t = Instant::now();
    let truth = write_graham_tsv(&config, BufWriter::new(File::create(&tsv).expect("create TSV"))).expect("simulate");
    let bytes = std::fs::metadata(&tsv).map(|m| m.len()).unwrap_or(0);
    println!(
        "simulated {} judgments ({} HITs, {} workers, 20 systems) into {} ({:.0} MB) in {:.2} s",
        truth.judgments,
        truth.hits,
        truth.workers.len(),
        tsv.display(),
        bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );

    // Rust: read + the whole pipeline, without bootstrap intervals (pandas computes none).
    let settings = AnalysisSettings { bootstrap: None, ..AnalysisSettings::default() };
    let mut best = (f64::INFINITY, 0.0, 0.0);
    let mut result: Option<AnalysisResult> = None;
    for run in 1..=runs {
        let t = Instant::now();
        let set = read_graham_file(&tsv).expect("read TSV");
        let read = t.elapsed().as_secs_f64();
        let r = analyse(&set, &settings);
        let total = t.elapsed().as_secs_f64();
        println!("Rust run {run}: read {read:.3} s, pipeline {:.3} s, total {total:.3} s", total - read);
        if total < best.0 {
            best = (total, read, total - read);
        }
        result = Some(r);
    }
    let rust_hwm = vm_hwm_kib();
    // Where the pipeline's time goes: quality control alone.
    {
        let set = read_graham_file(&tsv).expect("read TSV");
        let t = Instant::now();
        let qc = assay_core::analysis::quality::run(&set, &settings.qc);
        println!(
            "Rust quality control alone ({} workers): {:.3} s; the rest (z, scores, 190 Mann–Whitney pairs, clusters) is the remainder of the pipeline time",
            qc.len(),
            t.elapsed().as_secs_f64()
        );
    }
    let result = result.expect("at least one run");
    // For information: the default settings add 1,000 bootstrap samples per system.
    {
        let set = read_graham_file(&tsv).expect("read TSV");
        let t = Instant::now();
        let _ = analyse(&set, &AnalysisSettings::default());
        println!("Rust pipeline with the default 1,000 bootstrap samples per system: {:.3} s", t.elapsed().as_secs_f64());
    }

    // pandas + SciPy on the same file.
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/bench/pipeline_pandas.py");
    let py_out = dir.join("pandas.json");
    let t = Instant::now();
    let status = Command::new("python3").arg(&script).arg(&tsv).arg(&py_out).status();
    let py_wall = t.elapsed().as_secs_f64();
    let py: Option<serde_json::Value> = match status {
        Ok(s) if s.success() => std::fs::read_to_string(&py_out).ok().and_then(|t| serde_json::from_str(&t).ok()),
        Ok(s) => {
            println!("pandas pipeline failed ({s}); install pandas and scipy: pip install pandas scipy");
            None
        }
        Err(e) => {
            println!("cannot run python3: {e}");
            None
        }
    };

    println!();
    println!("== {} judgments, 20 systems ==", result.judgments);
    println!(
        "Rust:         {:.3} s (read {:.3} s + pipeline {:.3} s), best of {runs}; peak memory (VmHWM) {}",
        best.0,
        best.1,
        best.2,
        rust_hwm.map_or("unknown".into(), |k| format!("{:.0} MiB", k as f64 / 1024.0))
    );
    let Some(py) = py else { return };
    let py_total = py["total_seconds"].as_f64().unwrap_or(f64::NAN);
    println!(
        "pandas+SciPy: {:.3} s (read {:.3} s + pipeline {:.3} s; {:.1} s with interpreter start); peak memory (ru_maxrss) {:.0} MiB",
        py_total,
        py["read_seconds"].as_f64().unwrap_or(f64::NAN),
        py["pipeline_seconds"].as_f64().unwrap_or(f64::NAN),
        py_wall,
        py["peak_rss_kb"].as_f64().unwrap_or(f64::NAN) / 1024.0
    );
    println!("ratio:        Rust is {:.1}× faster", py_total / best.0);

    // Agreement.
    let names = &result.names;
    let mut rust_excluded: Vec<String> = result
        .workers
        .iter()
        .filter(|w| result.settings.exclusion.excludes(w))
        .map(|w| names.workers[w.worker as usize].clone())
        .collect();
    rust_excluded.sort();
    let py_excluded: Vec<String> =
        py["excluded"].as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect()).unwrap_or_default();
    let g = &result.groups[0];
    let mut max_z = 0.0f64;
    let mut max_p = 0.0f64;
    for s in &g.systems {
        let name = &names.systems[s.system as usize];
        let pz = py["system_z"][name].as_f64().unwrap_or(f64::NAN);
        max_z = max_z.max((pz - s.z).abs());
        if (pz - s.z).is_nan() {
            max_z = f64::INFINITY;
        }
    }
    let rust_order: Vec<&str> = g.comparison.systems.iter().map(|s| names.systems[*s as usize].as_str()).collect();
    let py_order: Vec<&str> = py["order"].as_array().map(|a| a.iter().filter_map(|v| v.as_str()).collect()).unwrap_or_default();
    if rust_order == py_order {
        for (i, row) in g.comparison.p_values.iter().enumerate() {
            for (j, p) in row.iter().enumerate() {
                if let (Some(p), Some(q)) = (p, py["p"][i][j].as_f64()) {
                    max_p = max_p.max((p - q).abs());
                }
            }
        }
    }
    let rust_clusters: Vec<(usize, usize)> = g.comparison.clusters.iter().map(|c| (c.start, c.end)).collect();
    let py_clusters: Vec<(usize, usize)> = py["clusters"]
        .as_array()
        .map(|a| a.iter().filter_map(|c| Some((c[0].as_u64()? as usize, c[1].as_u64()? as usize))).collect())
        .unwrap_or_default();
    let same_excluded = rust_excluded == py_excluded;
    println!(
        "agreement:    excluded workers {} ({} vs {}); system z means max |Δ| = {max_z:.2e} ({}); order {}; p-values max |Δ| = {max_p:.2e}; clusters {}",
        if same_excluded { "identical" } else { "DIFFER" },
        rust_excluded.len(),
        py_excluded.len(),
        if max_z <= 1e-6 { "within 1e-6" } else { "NOT within 1e-6" },
        if rust_order == py_order { "identical" } else { "DIFFERS" },
        if rust_clusters == py_clusters { "identical" } else { "DIFFER" },
    );
    println!("versions:     {}", py["versions"]);
    let _ = std::fs::remove_dir_all(&dir);
}
