//! Word order's part of a campaign's design (`CampaignSettings::word_order`), flattened into the
//! stored settings JSON under its historical keys (`woj_*`), so stored campaigns and the
//! designer's form read as before.

use serde::{Deserialize, Serialize};

/// How a word-order HIT is built and what its screen shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WordOrderSettings {
    /// Permuted references per HIT.
    #[serde(rename = "woj_permutations")]
    pub permutations: usize,
    /// Same-reference pairs per permutation kind.
    #[serde(rename = "woj_same_reference_pairs")]
    pub same_reference_pairs: usize,
    /// The highest permutation degree.
    #[serde(rename = "woj_max_degree")]
    pub max_degree: usize,
    /// "boxes" (two 5-point scales) or "sliders" (two 0–100 sliders).
    #[serde(rename = "woj_scale")]
    pub scale: String,
}

impl Default for WordOrderSettings {
    fn default() -> Self {
        WordOrderSettings { permutations: 25, same_reference_pairs: 2, max_degree: 18, scale: "boxes".into() }
    }
}

impl WordOrderSettings {
    /// Whether the screen shows two sliders instead of two rows of five boxes.
    pub fn sliders(&self) -> bool {
        self.scale == "sliders"
    }
}
