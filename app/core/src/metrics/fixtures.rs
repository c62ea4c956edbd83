//! The built-in metrics against sacrebleu 2.4.3 on `tests/fixtures/metrics/sacrebleu.json`
//! (written by `tests/fixtures/metrics/generate.py`): every tokenizer output, and every corpus
//! and sentence score of BLEU, chrF and chrF++ must equal sacrebleu's bit for bit (the printed
//! repr is compared, so not even the last digit may differ), and the signatures must be the
//! same strings.

use serde_json::Value;

use super::bleu::{BleuConfig, corpus_bleu, sentence_bleus};
use super::chrf::{ChrfConfig, corpus_chrf, sentence_chrfs};
use super::python_repr;
use super::tokenize::Tokenizer;

fn load() -> Value {
    serde_json::from_str(include_str!("../../../../tests/fixtures/metrics/sacrebleu.json")).expect("valid JSON")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

fn check(id: &str, what: &str, got: f64, expected: &Value) {
    let want = expected["value"].as_f64().unwrap();
    let repr = expected["repr"].as_str().unwrap();
    assert!((got - want).abs() <= 1e-9, "{id} {what}: {got} vs sacrebleu {want}");
    assert_eq!(python_repr(got), repr, "{id} {what}: printed differently");
}

#[test]
fn tokenizers_match_sacrebleu() {
    let data = load();
    let cases = data["tokenize"].as_array().unwrap();
    assert!(cases.len() >= 80);
    for c in cases {
        let tok = Tokenizer::parse(c["tokenizer"].as_str().unwrap()).unwrap();
        let input = c["input"].as_str().unwrap();
        assert_eq!(tok.tokenize(input), c["output"].as_str().unwrap(), "{} on {input:?}", tok.name());
    }
}

/// Rust's `to_lowercase` against Python's `str.lower` (Turkish dotted I, final sigma, ß, titlecase
/// digraphs, full-width and enclosed letters).
#[test]
fn lowercase_matches_python() {
    let data = load();
    let cases = data["lowercase"].as_array().unwrap();
    assert!(cases.len() >= 7);
    for c in cases {
        let input = c["input"].as_str().unwrap();
        assert_eq!(input.to_lowercase(), c["output"].as_str().unwrap(), "{input:?}");
    }
}

#[test]
fn bleu_and_chrf_match_sacrebleu() {
    let data = load();
    assert_eq!(data["versions"]["sacrebleu"], super::SACREBLEU_VERSION);
    let cases = data["cases"].as_array().unwrap();
    let (mut bleu, mut chrf, mut segments) = (0, 0, 0);
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let hyps = strings(&c["hyps"]);
        let refs: Vec<Vec<String>> = c["refs"].as_array().unwrap().iter().map(strings).collect();
        let lowercase = c["lowercase"].as_bool().unwrap();
        match c["metric"].as_str().unwrap() {
            "bleu" => {
                let config = BleuConfig {
                    tokenize: Tokenizer::parse(c["tokenize"].as_str().unwrap()).unwrap(),
                    lowercase,
                    ..BleuConfig::default()
                };
                let s = corpus_bleu(&hyps, &refs, &config).unwrap();
                assert_eq!(config.signature(refs.len()), c["signature"].as_str().unwrap());
                let expected = &c["corpus"];
                let counts: Vec<u64> = expected["counts"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
                assert_eq!(s.stats.correct.to_vec(), counts, "{id}");
                assert_eq!(s.stats.hyp_len, expected["sys_len"].as_u64().unwrap(), "{id}");
                assert_eq!(s.stats.ref_len, expected["ref_len"].as_u64().unwrap(), "{id}");
                check(id, "corpus", s.score, expected);
                let sentence = config.sentence();
                assert_eq!(sentence.signature(refs.len()), c["sentence_signature"].as_str().unwrap());
                let seg = sentence_bleus(&hyps, &refs, &sentence).unwrap();
                for (i, (got, want)) in seg.iter().zip(c["segments"].as_array().unwrap()).enumerate() {
                    check(id, &format!("segment {i}"), got.score, want);
                    segments += 1;
                }
                bleu += 1;
            }
            name => {
                let mut config = if name == "chrf++" { ChrfConfig::chrf_plus_plus() } else { ChrfConfig::chrf() };
                config.lowercase = lowercase;
                config.eps_smoothing = c["eps_smoothing"].as_bool().unwrap();
                assert_eq!(config.signature(refs.len()), c["signature"].as_str().unwrap());
                check(id, "corpus", corpus_chrf(&hyps, &refs, &config).unwrap(), &c["corpus"]);
                let seg = sentence_chrfs(&hyps, &refs, &config).unwrap();
                for (i, (got, want)) in seg.iter().zip(c["segments"].as_array().unwrap()).enumerate() {
                    check(id, &format!("segment {i}"), *got, want);
                    segments += 1;
                }
                chrf += 1;
            }
        }
    }
    assert!(bleu >= 60 && chrf >= 60 && segments > 500, "{bleu} {chrf} {segments}");
}
