//! Pairwise preference's part of a campaign's design (`CampaignSettings::pairwise`), flattened
//! into the stored settings JSON (`pair_*` keys).

use serde::{Deserialize, Serialize};

/// What a pairwise screen shows besides the two outputs and the source.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PairwiseSettings {
    /// Show the human reference under the source. `None`: not given, as in designs made before
    /// pairwise had settings of its own, which kept this choice in ranking's
    /// `rank_show_reference`; that key then still decides
    /// ([`PairwiseSettings::show_reference_or`]).
    /// (Written as `null` when not given: `CampaignSettings::read` takes the keys its defaults
    /// write.)
    #[serde(rename = "pair_show_reference")]
    pub show_reference: Option<bool>,
}

impl PairwiseSettings {
    /// Whether the screen shows the reference: the design's own choice, else what a design
    /// stored before gave in ranking's key (`before`).
    pub fn show_reference_or(&self, before: bool) -> bool {
        self.show_reference.unwrap_or(before)
    }
}
