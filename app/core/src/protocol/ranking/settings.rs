//! Relative ranking's part of a campaign's design (`CampaignSettings::ranking`), flattened into
//! the stored settings JSON under its historical keys (`rank_*`), so stored campaigns and the
//! designer's form read as before.

use serde::{Deserialize, Serialize};

/// How a ranking HIT is built, what its screen shows and how its gold blocks judge a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RankingSettings {
    /// Outputs of one source ranked together (a block; WMT 2012: 5).
    #[serde(rename = "rank_outputs")]
    pub outputs: usize,
    /// Consecutive segments (blocks) per screen (WMT 2012: 3).
    #[serde(rename = "rank_blocks_per_screen")]
    pub blocks_per_screen: usize,
    /// Show the human reference under the source.
    #[serde(rename = "rank_show_reference")]
    pub show_reference: bool,
    /// Gold blocks per HIT (0: off), from the gold orders imported for the test set
    /// (`analysis::gold`).
    #[serde(rename = "rank_gold_blocks")]
    pub gold_blocks: usize,
    /// Least agreement with the gold orders to pass, on [0, 1].
    #[serde(rename = "rank_gold_threshold")]
    pub gold_threshold: f64,
    /// Fewer gold pairs than this is "not enough evidence".
    #[serde(rename = "rank_gold_min_pairs")]
    pub gold_min_pairs: usize,
}

impl Default for RankingSettings {
    fn default() -> Self {
        RankingSettings {
            outputs: super::DEFAULT_OUTPUTS,
            blocks_per_screen: 3,
            show_reference: false,
            gold_blocks: 0,
            gold_threshold: 0.7,
            gold_min_pairs: 10,
        }
    }
}
