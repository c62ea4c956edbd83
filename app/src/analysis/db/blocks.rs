//! What a protocol that ranks blocks of outputs reads besides the records: the blocks of one
//! screen's outputs, and the campaign's rule for gold blocks.

use std::borrow::Borrow;

use sqlx::AnyConnection;

use super::info::CampaignInfo;
use super::names::StoredNames;
use super::query::StoredJudgment;
use super::records::SetShape;
use crate::analysis::FxMap;
use crate::analysis::ranking::RankingData;
use crate::error::{AppError, AppResult, StorageContext};
use crate::model::ItemType;
use assay_core::protocol;

/// A ranking campaign's blocks: the outputs of one segment an annotator ranked together on
/// one screen, degraded copies left out (they are quality control). Repeated screens are marked:
/// WMT 2012 counted them in its rankings, which Lopez criticised, so Assay ranks systems on
/// first showings only and uses the repeats for agreement.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignBlocks {
    pub data: RankingData,
    /// Per block of `data`: whether it was on a repeated screen.
    pub repeated: Vec<bool>,
}

impl CampaignBlocks {
    /// The blocks `keep` accepts (index, block), every system kept.
    pub fn select(&self, keep: impl Fn(usize, &crate::analysis::ranking::RankingBlock) -> bool) -> RankingData {
        RankingData {
            pair: self.data.pair.clone(),
            systems: self.data.systems.clone(),
            blocks: self.data.blocks.iter().enumerate().filter(|(i, b)| keep(*i, b)).map(|(_, b)| b.clone()).collect(),
        }
    }

    pub fn repeats(&self) -> usize {
        self.repeated.iter().filter(|&&r| r).count()
    }
}

/// The blocks of a ranking campaign's judgments (`rows` sorted by id). An output's rank is
/// read back from its stored score ([`protocol::ranking::rank_of_score`]) among the block's
/// outputs; judges are named as in the pipeline's records (`platform:id`).
pub fn ranking_blocks<R: Borrow<StoredJudgment>>(rows: &[R], names: &StoredNames, shape: &SetShape) -> AppResult<CampaignBlocks> {
    // (assignment, screen, segment) → the block's judgments, in order of first appearance.
    let mut index: FxMap<(i64, i32, i64), usize> = FxMap::default();
    let mut blocks: Vec<Vec<&StoredJudgment>> = Vec::new();
    for j in rows.iter().map(R::borrow) {
        if j.skipped || j.score.is_none() || j.gold_rank.is_some() {
            continue;
        }
        let key = (j.assignment, j.screen.unwrap_or(j.position), j.segment);
        let at = *index.entry(key).or_insert_with(|| {
            blocks.push(Vec::new());
            blocks.len() - 1
        });
        blocks[at].push(j);
    }
    let mut out = CampaignBlocks { data: RankingData::new(shape.lang_pair.clone()), repeated: Vec::new() };
    let mut systems: FxMap<Option<i64>, String> = FxMap::default();
    for block in &blocks {
        let first = block[0];
        let outputs = block.len();
        let mut named = Vec::with_capacity(outputs);
        for j in block {
            if j.item_type == ItemType::BadRef {
                continue;
            }
            let score = j.score.unwrap_or(f64::NAN);
            let rank = protocol::ranking::rank_of_score(score, outputs).ok_or_else(|| {
                AppError::internal(format!("judgment {}: score {score} is not a rank among the {outputs} outputs of its block", j.id))
            })?;
            if !systems.contains_key(&j.system) {
                systems.insert(j.system, names.system(j.system)?.to_string());
            }
            named.push((j.system, rank));
        }
        let repeated = block.iter().any(|j| j.item_type == ItemType::Repeat);
        let segment = names.segment(first.segment)?;
        let segment = if shape.by_test_set { format!("{}:{}", segment.test_set, segment.key) } else { segment.key.clone() };
        let judge = names.worker(first.worker)?;
        let added = out
            .data
            .push_block(&segment, &judge, named.iter().map(|(s, r)| (systems[s].as_str(), Some(*r))))
            .map_err(|e| AppError::internal(format!("judgment {}: {e}", first.id)))?;
        if added {
            out.repeated.push(repeated);
        }
    }
    Ok(out)
}

/// The campaign's rule for gold blocks (relative ranking), from its settings.
pub(super) async fn gold_rule(conn: &mut AnyConnection, info: &CampaignInfo) -> AppResult<assay_core::analysis::gold::GoldRule> {
    let json: String = sqlx::query_scalar("SELECT settings FROM campaigns WHERE id = $1")
        .bind(info.id)
        .fetch_one(&mut *conn)
        .await
        .with_context(|| format!("reading the settings of campaign {}", info.id))?;
    let task = info.task;
    let s = assay_core::settings::CampaignSettings::read(&json, task, "", "");
    Ok(assay_core::analysis::gold::GoldRule { threshold: s.ranking.gold_threshold, min_pairs: s.ranking.gold_min_pairs })
}
