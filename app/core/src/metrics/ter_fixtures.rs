//! TER against sacrebleu 2.4.3 on `tests/fixtures/metrics/ter.json` (written by
//! `tests/fixtures/metrics/ter.py`): every tokenization under all 16 option sets, every corpus
//! and sentence score (edits and reference length exactly, the score to the printed repr), the
//! signatures, and the exact edit counts of sacrebleu's `translation_edit_rate` on word lists
//! with many repeated words, up to 200 words long.

use serde_json::Value;

use super::python_repr;
use super::ter::{TerConfig, corpus_ter, segment_statistics, sentence_ters, translation_edit_rate};

fn load() -> Value {
    serde_json::from_str(include_str!("../../../../tests/fixtures/metrics/ter.json")).expect("valid JSON")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

fn config(v: &Value) -> TerConfig {
    let flag = |k: &str| v[k].as_bool().unwrap();
    TerConfig { normalized: flag("normalized"), no_punct: flag("no_punct"), asian_support: flag("asian_support"), case_sensitive: flag("case_sensitive") }
}

/// The largest difference from sacrebleu's value seen, to report.
fn check(id: &str, what: &str, got: f64, expected: &Value, max_diff: &mut f64) {
    // sacrebleu's value read from its repr (Rust's parser is exact; serde_json's number may be
    // an ulp off).
    let want: f64 = expected["repr"].as_str().unwrap().parse().unwrap();
    assert!((expected["value"].as_f64().unwrap() - want).abs() <= 1e-9);
    *max_diff = max_diff.max((got - want).abs());
    assert!((got - want).abs() <= 1e-9, "{id} {what}: {got} vs sacrebleu {want}");
    assert_eq!(python_repr(got), expected["repr"].as_str().unwrap(), "{id} {what}: printed differently");
}

#[test]
fn tercom_tokenizer_matches_sacrebleu() {
    let data = load();
    let cases = data["tokenize"].as_array().unwrap();
    assert_eq!(cases.len(), 16 * 16);
    for c in cases {
        let input = c["input"].as_str().unwrap();
        assert_eq!(config(&c["config"]).tokenize(input), c["output"].as_str().unwrap(), "{:?} on {input:?}", c["config"]);
    }
}

#[test]
fn ter_matches_sacrebleu() {
    let data = load();
    assert_eq!(data["versions"]["sacrebleu"], super::SACREBLEU_VERSION);
    let (mut cases, mut segments, mut max_diff) = (0, 0, 0.0f64);
    for c in data["cases"].as_array().unwrap() {
        let id = c["id"].as_str().unwrap();
        let hyps = strings(&c["hyps"]);
        let refs: Vec<Vec<String>> = c["refs"].as_array().unwrap().iter().map(strings).collect();
        let cfg = config(&c["config"]);
        assert_eq!(cfg.signature(refs.len()), c["signature"].as_str().unwrap(), "{id}");
        let (score, stats) = corpus_ter(&hyps, &refs, &cfg).unwrap();
        assert_eq!(stats.edits, c["corpus"]["edits"].as_u64().unwrap(), "{id}: corpus edits");
        assert_eq!(stats.ref_len, c["corpus"]["ref_length"].as_f64().unwrap(), "{id}: corpus reference length");
        check(id, "corpus", score, &c["corpus"], &mut max_diff);
        assert_eq!(format!("TER|{} = {score:.2}", cfg.signature(refs.len())), c["line"].as_str().unwrap(), "{id}: printed line");
        let seg_stats = segment_statistics(&hyps, &refs, &cfg).unwrap();
        let seg_scores = sentence_ters(&hyps, &refs, &cfg).unwrap();
        let want = c["segments"].as_array().unwrap();
        assert_eq!(seg_scores.len(), want.len(), "{id}");
        for (i, ((s, got), w)) in seg_stats.iter().zip(&seg_scores).zip(want).enumerate() {
            assert_eq!(s.edits, w["edits"].as_u64().unwrap(), "{id} segment {i}: edits");
            assert_eq!(s.ref_len, w["ref_length"].as_f64().unwrap(), "{id} segment {i}: reference length");
            check(id, &format!("segment {i}"), *got, w, &mut max_diff);
            segments += 1;
        }
        cases += 1;
    }
    eprintln!("TER: {cases} corpus cases, {segments} segments, largest difference from sacrebleu {max_diff:e}");
    assert_eq!((cases, segments), (109, 560));
}

#[test]
fn edit_counts_match_sacrebleu() {
    let data = load();
    let cases = data["edits"].as_array().unwrap();
    assert_eq!(cases.len(), 300);
    let mut shifted = 0;
    for (k, c) in cases.iter().enumerate() {
        let hyp = strings(&c["hyp"]);
        let reference = strings(&c["ref"]);
        let (edits, len) = translation_edit_rate(&hyp, &reference);
        assert_eq!((edits, len as u64), (c["edits"].as_u64().unwrap(), c["ref_length"].as_u64().unwrap()), "case {k}: {hyp:?} / {reference:?}");
        // Cases where shifting won (fewer edits than the plain edit distance) are many.
        if (edits as usize) < levenshtein(&hyp, &reference) {
            shifted += 1;
        }
    }
    assert!(shifted >= 50, "{shifted}");
}

fn levenshtein(a: &[String], b: &[String]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            row[j + 1] = (prev[j] + usize::from(x != y)).min(prev[j + 1] + 1).min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()]
}
