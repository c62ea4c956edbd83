//! The pipeline's records built from stored judgments: one record per question of the task's
//! protocol, names interned once per id.

use std::borrow::Borrow;

use super::names::{SegmentName, StoredNames};
use super::query::StoredJudgment;
use crate::analysis::{FxMap, Judgment, JudgmentSet, TimeBasis};
use crate::error::{AppError, AppResult};
use crate::model::TaskKind;
use assay_core::protocol;

/// "first", "second", … for the questions of a protocol.
fn ordinal(i: usize) -> &'static str {
    ["first", "second", "third", "fourth"].get(i).copied().unwrap_or("next")
}

/// How [`judgment_set`] names things.
#[derive(Clone, Debug)]
pub struct SetShape {
    pub task: TaskKind,
    pub lang_pair: String,
    /// A study arm: systems `system @ test set`, segments `test set:key`.
    pub by_test_set: bool,
}

/// The pipeline's records of `rows` (sorted by id): skipped and unscored judgments left out,
/// one record per question of the task's protocol (`Protocol::questions`), names interned once per
/// id, the campaign's test-set segments first in test-set order.
pub fn judgment_set<R: Borrow<StoredJudgment>>(rows: &[R], names: &StoredNames, shape: &SetShape) -> AppResult<JudgmentSet> {
    let questions = protocol::for_task(shape.task).questions();
    let mut set = JudgmentSet::new(TimeBasis::PerItem);
    let segment_name = |s: &SegmentName| if shape.by_test_set { format!("{}:{}", s.test_set, s.key) } else { s.key.clone() };
    let mut segments: FxMap<i64, u32> = FxMap::default();
    for &id in &names.test_set_order {
        segments.insert(id, set.segments.intern(&segment_name(names.segment(id)?)));
    }
    let lang_pair = u16::try_from(set.lang_pairs.intern(&shape.lang_pair)).expect("one language pair");
    let tasks: Vec<u16> = questions
        .iter()
        .map(|q| u16::try_from(set.tasks.intern(q.task_name(shape.task), q.scale)).expect("a few questions"))
        .collect();
    let mut workers: FxMap<i64, u32> = FxMap::default();
    let mut hits: FxMap<i32, u32> = FxMap::default();
    let mut systems: FxMap<(Option<i64>, i64), u32> = FxMap::default();
    set.records.reserve(rows.len() * questions.len());
    // Gold blocks (assignment, screen, segment) → (number, outputs answered).
    let mut gold_blocks: FxMap<(i64, i32, i64), (u32, usize)> = FxMap::default();
    for j in rows.iter().map(R::borrow).filter(|j| j.gold_rank.is_some() && j.score.is_some() && !j.skipped) {
        let next = gold_blocks.len() as u32;
        gold_blocks.entry((j.assignment, j.screen.unwrap_or(j.position), j.segment)).or_insert((next, 0)).1 += 1;
    }
    // The last row's worker and HIT: rows in id order mostly follow one another within a HIT,
    // which spares two lookups per row.
    let mut last_worker: Option<(i64, u32)> = None;
    let mut last_hit: Option<(i32, u32)> = None;
    for j in rows.iter().map(R::borrow) {
        let Some(score) = j.score.filter(|_| !j.skipped) else { continue };
        let worker = match last_worker {
            Some((id, w)) if id == j.worker => w,
            _ => {
                let w = match workers.get(&j.worker) {
                    Some(&w) => w,
                    None => {
                        let w = set.workers.intern(&names.worker(j.worker)?);
                        workers.insert(j.worker, w);
                        w
                    }
                };
                last_worker = Some((j.worker, w));
                w
            }
        };
        if let Some(expected) = j.gold_rank {
            let (block, outputs) = gold_blocks[&(j.assignment, j.screen.unwrap_or(j.position), j.segment)];
            let given = protocol::ranking::rank_of_score(score, outputs)
                .ok_or_else(|| AppError::internal(format!("judgment {}: the score {score} is no rank among the {outputs} outputs of its gold block", j.id)))?;
            set.gold.answers.push(assay_core::analysis::gold::GoldAnswer { worker, block, expected: expected.max(1) as u32, given });
            continue;
        }
        let hit = match last_hit {
            Some((index, h)) if index == j.hit_index => h,
            _ => {
                let h = *hits.entry(j.hit_index).or_insert_with(|| set.hits.intern(&j.hit_index.to_string()));
                last_hit = Some((j.hit_index, h));
                h
            }
        };
        let segment = match segments.get(&j.segment) {
            Some(&s) => s,
            None => {
                let s = set.segments.intern(&segment_name(names.segment(j.segment)?));
                segments.insert(j.segment, s);
                s
            }
        };
        // By test set, a system is one per (system, test set).
        let test_set = if shape.by_test_set { names.segment(j.segment)?.test_set_id } else { 0 };
        let system = match systems.get(&(j.system, test_set)) {
            Some(&s) => s,
            None => {
                let plain = names.system(j.system)?;
                let name = if shape.by_test_set { format!("{plain} @ {}", names.segment(j.segment)?.test_set) } else { plain.to_string() };
                let s = set.systems.intern(&name);
                systems.insert((j.system, test_set), s);
                s
            }
        };
        let seconds = (j.ms.max(0) as f64 / 1000.0) as f32;
        let answer = protocol::Answer { score: Some(score), score2: j.score2, ..Default::default() };
        for (i, question) in questions.iter().enumerate() {
            let which = if i == 0 { "score" } else { "second score" };
            match (question.read)(&answer) {
                Some(v) if v.is_finite() => set.records.push(Judgment {
                    worker,
                    hit,
                    system,
                    segment,
                    lang_pair,
                    task: tasks[i],
                    item_type: j.item_type,
                    score: v,
                    seconds,
                }),
                Some(_) => return Err(AppError::internal(format!("judgment {}: the {which} is not a finite number", j.id))),
                None => {
                    return Err(AppError::internal(format!(
                        "judgment {}: a {} judgment without its {} answer",
                        j.id,
                        shape.task.as_str(),
                        ordinal(i)
                    )));
                }
            }
        }
    }
    Ok(set)
}
