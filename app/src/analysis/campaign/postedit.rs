//! What a post-editing campaign's analysis adds (`assay_core::metrics::postedit::campaign`).

/// A post-editing campaign analysed (`assay_core::metrics::postedit::campaign`).
#[derive(Clone, Debug)]
pub struct PostEditAnalysis {
    /// Every answered item, quality-control copies included, in id order.
    pub answers: Vec<assay_core::metrics::postedit::campaign::StoredPostEdit>,
    /// The test set's segments in order (the lines of the reference files).
    pub segments: Vec<String>,
    /// Workers quality control leaves out.
    pub left_out: std::collections::BTreeSet<String>,
    /// HTER per system (`Err`: why there is none).
    pub report: Result<assay_core::metrics::postedit::campaign::CampaignPostEdits, assay_core::metrics::postedit::campaign::PostEditError>,
}
