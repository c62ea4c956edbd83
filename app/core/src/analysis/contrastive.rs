//! Contrastive ESA's analysis beside the pipeline (issue 40 item 1): paired comparisons within a
//! screen. Each screen shows 2–4 systems' outputs of one segment, each scored 0–100 by the same
//! annotator; two systems are compared on the screens that showed both, by the Wilcoxon
//! signed-rank test on the within-screen differences of their scores (SciPy's, as
//! [`super::esa`] computes it), one-sided for each order of the two, and ranked in WMT 2025's
//! reading (rank ranges to the first significantly different neighbour, clusters from the
//! ranges: [`super::esa::rank_pair`] with [`EsaRule::Wmt25`]). Each system's plain ESA score
//! (mean, z-scores, intervals) is the common pipeline's, from the same judgments.
//!
//! Only the outputs of systems are compared: degraded copies and repeated screens are quality
//! control, read by the pipeline's worker test.
//!
//! # Appraise's ContrastiveESA JSONL
//!
//! Appraise (April 2026, `ExportSystemScoresToJSONL`) exports a contrastive campaign as one JSON
//! object per line for each annotator and document: `annotator`, `source_id`, `source_text`,
//! `targets` (each output: `target_id` its system, `target_text`, `segment_id`, `score`,
//! `mqm_annotations` (its spans as JSON text, `start_i`/`end_i`/`severity`/`error_type`), `start_time`,
//! `end_time`, `duration`, `item_database_id`), `item_type`, `source_language`,
//! `target_language`, `document_id`, `is_complete_document`, `batch_number`, `campaign_name`,
//! `task_type` (`"ContrastiveESA"`). [`write_appraise_jsonl`] writes Assay's screens so, one line
//! per screen, with two keys Appraise's readers pass over: `screen` (the screen, unique per
//! annotator: a worker can see one segment on two screens) and each target's own `item_type`
//! (a degraded copy shares its screen with system outputs; the line's `item_type` is `TGT`
//! when any output is). [`read_appraise_jsonl`] reads either tool's file: a screen is the line's
//! `screen`, else its annotator and `document_id`; a system's score on it is the mean of its
//! `TGT` outputs there.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::esa::{EsaPairReport, EsaRule, EsaSettings, PairData, SegmentValue, fixed_score, rank_pair};
use super::formats::{FormatError, csv_text, err};
use crate::import::LangCode;
use crate::model::ItemType;
use crate::protocol::spans::{Span, spans_from_appraise_json, spans_from_appraise_value, spans_to_appraise_json};

/// One system output's score on one screen, as stored (a system item of a contrastive HIT).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScreenScore {
    /// The screen: unique per assignment and screen (`<assignment>:<screen>`).
    pub screen: String,
    /// The segment the screen shows.
    pub segment: String,
    pub system: String,
    pub annotator: String,
    pub score: f64,
}

/// Two systems compared on the screens that showed both.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairComparison {
    pub a: String,
    pub b: String,
    /// Screens that showed both.
    pub screens: usize,
    /// The mean of a's score less b's on those screens.
    pub mean_difference: f64,
    /// The one-sided p-value of "a scores higher than b" (`None`: no common screen).
    pub p_a_better: Option<f64>,
}

/// A language pair's within-screen comparisons.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContrastiveReport {
    /// The systems ranked (best first: by mean score), with wins, losses, rank ranges and
    /// clusters from the one-sided within-screen tests.
    pub ranking: EsaPairReport,
    /// Every ordered pair of systems, in the ranking's order.
    pub pairs: Vec<PairComparison>,
}

/// Ranks the systems of one language pair by paired comparisons within screens (`alpha`: the
/// significance level, WMT: 0.05). Scores must be finite; a system's screen counts once.
pub fn compare_within_screens(pair: &str, scores: &[ScreenScore], alpha: f64) -> ContrastiveReport {
    let mut data = PairData { pair: pair.to_string(), domains: vec![String::new()], ..PairData::default() };
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut annotators: BTreeMap<&str, ()> = BTreeMap::new();
    for s in scores.iter().filter(|s| s.score.is_finite()) {
        let at = *index.entry(&s.system).or_insert_with(|| {
            data.systems.push(s.system.clone());
            data.segments.push(BTreeMap::new());
            data.systems.len() - 1
        });
        annotators.insert(&s.annotator, ());
        // The screen is the pairing unit: two systems' scores pair on it.
        data.segments[at].insert((s.screen.clone(), s.segment.clone()), SegmentValue { domain: 0, value: s.score, annotators: 1 });
        data.ratings += 1;
    }
    data.annotators = annotators.len();
    let settings = EsaSettings { rule: EsaRule::Wmt25, alpha, min_segments: 0.0 };
    let ranking = rank_pair(&data, &settings);
    let position: BTreeMap<&str, usize> = data.systems.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    let mut pairs = Vec::new();
    for (i, a) in ranking.systems.iter().enumerate() {
        for (j, b) in ranking.systems.iter().enumerate() {
            if i == j {
                continue;
            }
            let (sa, sb) = (&data.segments[position[a.system.as_str()]], &data.segments[position[b.system.as_str()]]);
            let diffs: Vec<f64> = sa.iter().filter_map(|(k, va)| sb.get(k).map(|vb| va.value - vb.value)).collect();
            let mean_difference = if diffs.is_empty() { 0.0 } else { fixed_score(diffs.iter().sum::<f64>() / diffs.len() as f64) };
            pairs.push(PairComparison { a: a.system.clone(), b: b.system.clone(), screens: diffs.len(), mean_difference, p_a_better: ranking.p_values[i][j] });
        }
    }
    ContrastiveReport { ranking, pairs }
}

impl ContrastiveReport {
    /// The results page's tables.
    pub fn view(&self) -> crate::protocol::contrastive::ContrastiveView {
        use crate::protocol::contrastive::{ContrastiveView, PairRow, SystemRow};
        let k = &self.ranking;
        ContrastiveView {
            lang_pair: k.pair.clone(),
            alpha: k.alpha,
            scores: k.ratings,
            workers: k.annotators,
            screens: k.segments,
            systems: k
                .systems
                .iter()
                .map(|s| SystemRow { system: s.system.clone(), score: s.score, outputs: s.n, wins: s.wins, losses: s.losses, rank_lo: s.rank_lo, rank_hi: s.rank_hi, cluster: s.cluster })
                .collect(),
            pairs: self
                .pairs
                .iter()
                .map(|p| PairRow { a: p.a.clone(), b: p.b.clone(), screens: p.screens, mean_difference: p.mean_difference, p_a_better: p.p_a_better })
                .collect(),
        }
    }
}

/// `contrastive-<pair>.csv`: one row per ordered pair of systems, in the ranking's order:
/// `system_a,system_b,screens,mean_difference,p_a_better,rank_lo_a,rank_hi_a,cluster_a`.
pub fn write_contrastive_csv(mut w: impl Write, report: &ContrastiveReport) -> io::Result<()> {
    writeln!(w, "system_a,system_b,screens,mean_difference,p_a_better,rank_lo_a,rank_hi_a,cluster_a")?;
    for p in &report.pairs {
        let a = report.ranking.systems.iter().find(|s| s.system == p.a).expect("a compared system is ranked");
        let pv = p.p_a_better.map_or(String::new(), |v| v.to_string());
        writeln!(w, "{},{},{},{},{},{},{},{}", csv_text(&p.a), csv_text(&p.b), p.screens, p.mean_difference, pv, a.rank_lo, a.rank_hi, a.cluster)?;
    }
    Ok(())
}

/// One answered output of a contrastive screen, as the Appraise file carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenOutput {
    /// The worker (`platform:id`).
    pub annotator: String,
    /// The screen, unique per annotator (`<assignment>:<screen>`).
    pub screen: String,
    pub segment: String,
    pub document: String,
    pub system: String,
    pub item_type: ItemType,
    pub source: String,
    /// The text the output showed (a degraded copy's degraded text).
    pub target: String,
    pub score: f64,
    pub spans: Vec<Span>,
    /// Unix seconds: shown, and answered.
    pub start_time: f64,
    pub end_time: f64,
    /// The HIT (Appraise's batch) and the item's id.
    pub batch: i64,
    pub item: i64,
}

/// The task type of Appraise's contrastive lines.
pub const APPRAISE_TASK_TYPE: &str = "ContrastiveESA";

/// Writes `outputs` (grouped by annotator and screen, in their order) as Appraise's
/// ContrastiveESA JSONL, one line per screen (see the module documentation). `src_lang` and
/// `tgt_lang` are written as ISO 639-3 codes, as Appraise does.
pub fn write_appraise_jsonl(mut w: impl Write, campaign: &str, src_lang: &str, tgt_lang: &str, outputs: &[ScreenOutput]) -> io::Result<()> {
    let code = |l: &str| LangCode::parse(l).map_or_else(|_| l.to_string(), |c| c.iso639_3().to_string());
    let (src, tgt) = (code(src_lang), code(tgt_lang));
    let mut groups: Vec<(&str, &str, Vec<&ScreenOutput>)> = Vec::new();
    let mut at: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for o in outputs {
        let k = *at.entry((o.annotator.as_str(), o.screen.as_str())).or_insert_with(|| {
            groups.push((o.annotator.as_str(), o.screen.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[k].2.push(o);
    }
    for (annotator, screen, outs) in groups {
        let first = outs[0];
        let kind = if outs.iter().any(|o| o.item_type == ItemType::System) { ItemType::System } else { first.item_type };
        let targets: Vec<serde_json::Value> = outs
            .iter()
            .map(|o| {
                serde_json::json!({
                    "target_id": o.system,
                    "target_text": o.target,
                    "segment_id": o.segment,
                    "score": o.score,
                    // Appraise stores the spans as JSON text and exports that text.
                    "mqm_annotations": spans_to_appraise_json(&o.spans),
                    "start_time": o.start_time,
                    "end_time": o.end_time,
                    "duration": ((o.end_time - o.start_time) * 10.0).round() / 10.0,
                    "item_database_id": o.item,
                    "item_type": o.item_type.appraise_name(),
                })
            })
            .collect();
        let line = serde_json::json!({
            "annotator": annotator,
            "source_id": first.segment,
            "source_text": first.source,
            "targets": targets,
            "item_type": kind.appraise_name(),
            "source_language": src,
            "target_language": tgt,
            "document_id": first.document,
            "is_complete_document": false,
            "batch_number": first.batch,
            "campaign_name": campaign,
            "task_type": APPRAISE_TASK_TYPE,
            "screen": screen,
        });
        serde_json::to_writer(&mut w, &line).map_err(io::Error::other)?;
        w.write_all(b"\n")?;
    }
    Ok(())
}

/// Whether a line looks like Appraise's ContrastiveESA JSONL (for `assay analyze`'s detection).
pub fn looks_like_appraise_jsonl(line: &str) -> bool {
    let l = line.trim_start();
    l.starts_with('{') && l.contains("\"targets\"") && l.contains(APPRAISE_TASK_TYPE)
}

/// A language pair's screens read from a ContrastiveESA JSONL: the system outputs' scores
/// ([`ScreenScore`], a system's outputs on one screen averaged) and what was left aside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AppraisePair {
    pub pair: String,
    pub scores: Vec<ScreenScore>,
    /// Outputs that are quality control (BAD, CHK, REF), not compared.
    pub control: usize,
}

/// Reads a ContrastiveESA JSONL (Appraise's, or Assay's export): per language pair (in the
/// file's order), each system's score on each screen. All or nothing: the first problem names
/// its line and key. Blank lines are skipped.
pub fn read_appraise_jsonl(input: impl io::Read) -> Result<Vec<AppraisePair>, FormatError> {
    use serde_json::Value;
    let mut pairs: Vec<AppraisePair> = Vec::new();
    // Per pair: (screen, system) → (sum, n), in first-seen order.
    let mut sums: Vec<Vec<((String, String), String, f64, usize)>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let reader = io::BufReader::new(input);
    for (i, line) in io::BufRead::lines(reader).enumerate() {
        let n = i + 1;
        let line = line.map_err(|e| err(n, format!("cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(&line).map_err(|e| err(n, format!("not a JSON object: {e}")))?;
        let obj = v.as_object().ok_or_else(|| err(n, "not a JSON object"))?;
        let text = |o: &serde_json::Map<String, Value>, key: &str| -> Result<String, FormatError> {
            match o.get(key) {
                Some(Value::String(s)) if s.trim().is_empty() => Err(err(n, format!("{key} is empty"))),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(Value::Number(x)) => Ok(x.to_string()),
                Some(other) if !other.is_null() => Err(err(n, format!("{key} is neither text nor a number: {other}"))),
                _ => Err(err(n, format!("no {key}"))),
            }
        };
        match obj.get("task_type") {
            Some(Value::String(t)) if t == APPRAISE_TASK_TYPE => {}
            Some(other) => return Err(err(n, format!("task_type is {other}, not \"{APPRAISE_TASK_TYPE}\" (this reader takes Appraise's contrastive ESA lines)"))),
            None => return Err(err(n, "no task_type")),
        }
        let annotator = text(obj, "annotator")?;
        let lang = |key: &str| -> Result<String, FormatError> {
            let t = text(obj, key)?;
            LangCode::parse(&t).map(|c| c.to_string()).map_err(|e| err(n, format!("{key}: {e}")))
        };
        let pair = format!("{}-{}", lang("source_language")?, lang("target_language")?);
        let screen = match obj.get("screen") {
            Some(Value::String(s)) if !s.is_empty() => format!("{annotator}\u{1f}{s}"),
            _ => format!("{annotator}\u{1f}{}", text(obj, "document_id")?),
        };
        if !seen.insert(screen.clone()) {
            return Err(err(n, format!("the screen of annotator {annotator:?} appears on an earlier line too (its document_id or screen repeats)")));
        }
        let line_type = obj.get("item_type").and_then(Value::as_str).map(|t| ItemType::parse(t).ok_or_else(|| err(n, format!("item_type {t:?} is not one of TGT, BAD, CHK, REF")))).transpose()?;
        let targets = obj.get("targets").and_then(Value::as_array).ok_or_else(|| err(n, "no targets list"))?;
        if targets.is_empty() {
            return Err(err(n, "targets is empty"));
        }
        let k = match pairs.iter().position(|p| p.pair == pair) {
            Some(k) => k,
            None => {
                pairs.push(AppraisePair { pair: pair.clone(), ..AppraisePair::default() });
                sums.push(Vec::new());
                pairs.len() - 1
            }
        };
        for (t, target) in targets.iter().enumerate() {
            let at = |m: String| err(n, format!("target {}: {m}", t + 1));
            let o = target.as_object().ok_or_else(|| at("not a JSON object".into()))?;
            let system = text(o, "target_id").map_err(|e| at(e.message))?;
            let kind = match o.get("item_type").and_then(Value::as_str) {
                Some(s) => ItemType::parse(s).ok_or_else(|| at(format!("item_type {s:?} is not one of TGT, BAD, CHK, REF")))?,
                None => line_type.ok_or_else(|| at("no item_type, here or on the line".into()))?,
            };
            let score = match o.get("score") {
                Some(Value::Number(x)) => x.as_f64().filter(|s| (0.0..=100.0).contains(s)).ok_or_else(|| at(format!("score {x} is not within 0–100")))?,
                Some(other) => return Err(at(format!("score is not a number: {other}"))),
                None => return Err(at("no score".into())),
            };
            // The spans as JSON text (Appraise's) or as a list: checked, not needed for the scores.
            match o.get("mqm_annotations") {
                Some(Value::String(t)) if !t.trim().is_empty() => spans_from_appraise_json(t).map(drop),
                Some(v) => spans_from_appraise_value(v).map(drop),
                None => Ok(()),
            }
            .map_err(|e| at(format!("mqm_annotations: {e}")))?;
            if kind != ItemType::System {
                pairs[k].control += 1;
                continue;
            }
            let key = (screen.clone(), system.clone());
            match sums[k].iter_mut().find(|e| e.0 == key) {
                Some(e) => {
                    e.2 += score;
                    e.3 += 1;
                }
                None => sums[k].push((key, annotator.clone(), score, 1)),
            }
        }
    }
    for (p, s) in pairs.iter_mut().zip(sums) {
        p.scores = s
            .into_iter()
            .map(|((screen, system), annotator, sum, count)| ScreenScore { screen, segment: String::new(), system, annotator, score: sum / count as f64 })
            .collect();
    }
    Ok(pairs)
}

#[cfg(test)]
#[path = "contrastive_tests.rs"]
mod tests;
