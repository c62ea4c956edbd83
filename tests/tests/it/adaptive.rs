//! `assay simulate --design` and `--replay` (issue 39): the files the issue specifies, and typed
//! refusals of bad input that write nothing.

use assay_tests::{assay_cli, succeeded};
use serde_json::Value;

#[test]
fn the_design_benchmark_and_the_replay_write_what_the_issue_specifies() {
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.tsv");
    std::fs::write(&truth, "system\tmean\nA\t80\nB\t60\nC\t40\n").unwrap();
    let out = dir.path().join("bench");
    let t = truth.to_str().unwrap();
    succeeded(&assay_cli(&["simulate", "--design", "both", "--truth", t, "--crowd", "careful=0.7,noisy=0.2,careless=0.1", "--runs", "3", "--seed", "2", "--alpha", "0.05", "--out", out.to_str().unwrap()]));
    let design: Value = serde_json::from_str(&std::fs::read_to_string(out.join("design.json")).unwrap()).unwrap();
    for d in ["adaptive", "uniform"] {
        let s = &design[d];
        assert_eq!(s["runs"], 3, "{design}");
        for key in ["judgments_median", "judgments_q1", "judgments_q3"] {
            assert!(s[key].as_f64().unwrap() >= 100.0, "{d} {key}: {design}");
        }
        assert!(s["judgments_q1"].as_f64() <= s["judgments_median"].as_f64() && s["judgments_median"].as_f64() <= s["judgments_q3"].as_f64());
        // Three systems 20 points apart: every pair decided, none the wrong way round.
        assert_eq!((s["pairs_decided"].as_u64(), s["pairs_wrong"].as_u64()), (Some(9), Some(0)), "{d}: {design}");
    }
    // A replay of a simulated judgment file.
    let tsv = dir.path().join("sim.tsv");
    succeeded(&assay_cli(&["simulate", "--judgments", "20000", "--systems", "3", "--seed", "4", "--out", tsv.to_str().unwrap()]));
    let rout = dir.path().join("replay");
    succeeded(&assay_cli(&["simulate", "--replay", tsv.to_str().unwrap(), "--design", "both", "--alpha", "0.05", "--runs", "3", "--seed", "1", "--out", rout.to_str().unwrap()]));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(rout.join("replay.json")).unwrap()).unwrap();
    let available = replay["adaptive"]["judgments_available"].as_u64().unwrap();
    assert!((13_000..=14_100).contains(&available), "the file's SYSTEM scores: {replay}");
    for d in ["adaptive", "uniform"] {
        let s = &replay[d];
        assert_eq!(s["runs"], 3);
        assert_eq!(s["judgments_available"], available, "{replay}");
        assert!(s["judgments_median"].as_f64().unwrap() <= available as f64);
        assert!(s["pairs_decided"].as_u64().unwrap() + s["pairs_too_close"].as_u64().unwrap() + s["pairs_open"].as_u64().unwrap() == 9);
        assert!(s["pairs_disagreeing"].is_u64());
    }
    assert_eq!(replay["full_analysis"]["systems"].as_array().unwrap().len(), 3);
}

#[test]
fn bad_benchmark_input_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let truth = dir.path().join("truth.tsv");
    std::fs::write(&truth, "A\t80\nB\tlots\n").unwrap();
    let good = dir.path().join("good.tsv");
    std::fs::write(&good, "A\t80\nB\t60\n").unwrap();
    let out = dir.path().join("o");
    let o = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--design", "both", "--truth", truth.to_str().unwrap()], "line 2"),
        (vec!["--design", "sideways", "--truth", good.to_str().unwrap()], "--design must be adaptive, uniform or both"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--crowd", "careful=0.5"], "sum to"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--alpha", "1.5"], "α must be between 0 and 1"),
        (vec!["--design", "both", "--truth", good.to_str().unwrap(), "--runs", "0"], "--runs must be at least 1"),
    ] {
        let mut argv = vec!["simulate"];
        argv.extend(args);
        argv.extend(["--out", o]);
        let failed = assay_cli(&argv);
        assert!(!failed.status.success(), "{argv:?}");
        let stderr = String::from_utf8_lossy(&failed.stderr);
        assert!(stderr.contains(says), "{argv:?}: {stderr}");
        assert!(!out.exists(), "{argv:?} wrote {o}");
    }
}
