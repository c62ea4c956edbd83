//! Post-editing's part of a campaign's design (`CampaignSettings::postedit`), flattened into the
//! stored settings JSON (`pe_*` keys).

use serde::{Deserialize, Serialize};

/// What a post-editing screen starts from and shows.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PostEditSettings {
    /// Translation from scratch: the field starts empty and the output is never sent to the
    /// browser (HTER is then the output's TER against an independent translation, and no
    /// degraded copy is shown, so the paired check has nothing to compare).
    #[serde(rename = "pe_from_scratch")]
    pub from_scratch: bool,
    /// Show the human reference under the source.
    #[serde(rename = "pe_show_reference")]
    pub show_reference: bool,
}
