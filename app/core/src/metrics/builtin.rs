//! The built-in metrics on a test set's own texts: BLEU, chrF and chrF++ for every system, at
//! system level (corpus scores, sacrebleu's `corpus_score`) and segment level (sacrebleu's
//! `sentence_score`), as [`Scores`] that [`super::meta::meta_evaluate`] takes beside uploaded
//! metrics. A system is scored on the segments it has an output for and that have a reference;
//! elsewhere its segment scores are missing.

use super::bleu::{BleuConfig, corpus_bleu, sentence_bleus};
use super::chrf::{ChrfConfig, corpus_chrf, sentence_chrfs};
use super::read::{PairScores, Scores};
use super::tokenize::Tokenizer;
use super::MetricError;

/// One system's outputs, aligned with the segment ids (`None`: no output).
#[derive(Clone, Debug, PartialEq)]
pub struct SystemOutputs {
    pub system: String,
    pub outputs: Vec<Option<String>>,
}

/// BLEU's tokenizer for a target language as sacrebleu chooses it from `-l src-trg`: `zh` for
/// Chinese; for Japanese and Korean sacrebleu uses MeCab, which Assay does not have, so
/// `char` stands in (the signature says so); `13a` otherwise.
pub fn bleu_tokenizer(target_lang: &str) -> Tokenizer {
    match target_lang.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase().as_str() {
        "zh" | "zho" | "chi" | "cmn" => Tokenizer::Zh,
        "ja" | "jpn" | "ko" | "kor" => Tokenizer::Char,
        _ => Tokenizer::Thirteen,
    }
}

/// The metrics' names, as their scores are called: `BLEU`, `chrF`, `chrF++`.
pub const BUILTIN: [&str; 3] = ["BLEU", "chrF", "chrF++"];

/// BLEU, chrF and chrF++ of every system of language pair `pair` against one reference
/// stream (`references[i]` for `segment_ids[i]`), each with the signature it was computed
/// with. Systems without any scorable segment are left out.
pub fn builtin_scores(
    pair: &str,
    target_lang: &str,
    segment_ids: &[String],
    references: &[Option<String>],
    systems: &[SystemOutputs],
) -> Result<Vec<(Scores, String)>, MetricError> {
    if references.len() != segment_ids.len() {
        return Err(MetricError::Invalid(format!("{} references for {} segments", references.len(), segment_ids.len())));
    }
    let bleu = BleuConfig { tokenize: bleu_tokenizer(target_lang), ..BleuConfig::default() };
    let chrf = ChrfConfig::chrf();
    let chrfpp = ChrfConfig::chrf_plus_plus();
    let mut out: Vec<(Scores, String)> = vec![
        (Scores { name: BUILTIN[0].into(), pairs: Default::default() }, bleu.signature(1)),
        (Scores { name: BUILTIN[1].into(), pairs: Default::default() }, chrf.signature(1)),
        (Scores { name: BUILTIN[2].into(), pairs: Default::default() }, chrfpp.signature(1)),
    ];
    let mut pairs: Vec<PairScores> =
        (0..3).map(|_| PairScores { segment_ids: segment_ids.to_vec(), ..PairScores::default() }).collect();
    for s in systems {
        if s.outputs.len() != segment_ids.len() {
            return Err(MetricError::Invalid(format!("system {}: {} outputs for {} segments", s.system, s.outputs.len(), segment_ids.len())));
        }
        // The segments this system can be scored on.
        let at: Vec<usize> = (0..segment_ids.len()).filter(|&i| s.outputs[i].is_some() && references[i].is_some()).collect();
        if at.is_empty() {
            continue;
        }
        let hyps: Vec<String> = at.iter().map(|&i| s.outputs[i].clone().unwrap_or_default()).collect();
        let refs = vec![at.iter().map(|&i| references[i].clone().unwrap_or_default()).collect::<Vec<String>>()];
        let spread = |vals: Vec<f64>| -> Vec<Option<f64>> {
            let mut row = vec![None; segment_ids.len()];
            for (&i, v) in at.iter().zip(vals) {
                row[i] = Some(v);
            }
            row
        };
        pairs[0].system.insert(s.system.clone(), corpus_bleu(&hyps, &refs, &bleu)?.score);
        pairs[0].segment.insert(s.system.clone(), spread(sentence_bleus(&hyps, &refs, &bleu.sentence())?.into_iter().map(|b| b.score).collect()));
        pairs[1].system.insert(s.system.clone(), corpus_chrf(&hyps, &refs, &chrf)?);
        pairs[1].segment.insert(s.system.clone(), spread(sentence_chrfs(&hyps, &refs, &chrf)?));
        pairs[2].system.insert(s.system.clone(), corpus_chrf(&hyps, &refs, &chrfpp)?);
        pairs[2].segment.insert(s.system.clone(), spread(sentence_chrfs(&hyps, &refs, &chrfpp)?));
    }
    for ((scores, _), p) in out.iter_mut().zip(pairs) {
        scores.pairs.insert(pair.to_string(), p);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> String {
        x.to_string()
    }

    #[test]
    fn every_system_scored_on_its_own_segments_as_sacrebleu_would() {
        let ids = vec![s("1"), s("2"), s("3")];
        let refs = vec![Some(s("The cat sat on the mat.")), Some(s("It was raining all day long.")), None];
        let systems = vec![
            SystemOutputs { system: s("A"), outputs: vec![Some(s("The cat sat on a mat.")), Some(s("It rained all day.")), Some(s("x"))] },
            SystemOutputs { system: s("B"), outputs: vec![Some(s("A cat is on the mat.")), None, Some(s("y"))] },
            SystemOutputs { system: s("C"), outputs: vec![None, None, Some(s("z"))] },
        ];
        let out = builtin_scores("en-de", "de", &ids, &refs, &systems).unwrap();
        assert_eq!(out.iter().map(|(m, _)| m.name.as_str()).collect::<Vec<_>>(), BUILTIN);
        assert!(out[0].1.starts_with("nrefs:1|case:mixed|eff:no|tok:13a"), "{}", out[0].1);
        let bleu = &out[0].0.pairs["en-de"];
        // C has no scorable segment (its only output has no reference): left out.
        assert_eq!(bleu.system.keys().collect::<Vec<_>>(), ["A", "B"]);
        // A's corpus score is sacrebleu's on its two segments; B's on its one.
        let cfg = BleuConfig::default();
        let a = corpus_bleu(&[s("The cat sat on a mat."), s("It rained all day.")], &[vec![s("The cat sat on the mat."), s("It was raining all day long.")]], &cfg).unwrap();
        assert_eq!(bleu.system["A"], a.score);
        assert_eq!(bleu.segment["B"][1], None);
        assert_eq!(bleu.segment["A"][2], None, "no reference, no score");
        let single = sentence_bleus(&[s("A cat is on the mat.")], &[vec![s("The cat sat on the mat.")]], &cfg.sentence()).unwrap();
        assert_eq!(bleu.segment["B"][0], Some(single[0].score));
        let chrf = &out[1].0.pairs["en-de"];
        // On one segment, the corpus chrF is the sentence chrF.
        assert_eq!(Some(chrf.system["B"]), chrf.segment["B"][0], "{chrf:?}");
        assert_ne!(out[2].0.pairs["en-de"].system["A"], chrf.system["A"], "chrF++ adds word n-grams");
        assert_eq!(builtin_scores("en-de", "de", &ids, &refs[..2], &systems).unwrap_err().to_string(), "2 references for 3 segments");
    }

    #[test]
    fn the_tokenizer_follows_the_target_language() {
        assert_eq!(bleu_tokenizer("zh"), Tokenizer::Zh);
        assert_eq!(bleu_tokenizer("ja"), Tokenizer::Char);
        assert_eq!(bleu_tokenizer("de"), Tokenizer::Thirteen);
        assert_eq!(bleu_tokenizer("zh-Hant"), Tokenizer::Zh);
    }
}
