//! Figures the analysis reports and the pages show, shared by the server and the browser.

use serde::{Deserialize, Serialize};

/// How a task's scores are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// DA: correlation and mean absolute difference.
    Continuous,
    /// Word order: κ over `categories` categories (score × (categories − 1), rounded).
    Categorical { categories: u32 },
}

impl Scale {
    /// The scale of a campaign task by its name: its protocol's ([`crate::protocol::Protocol::scale`]);
    /// continuous for any other name.
    pub fn of_task(task: &str) -> Scale {
        crate::model::TaskKind::parse(task).map_or(Scale::Continuous, |t| crate::protocol::for_task(t).scale())
    }

    pub fn category(self, score: f64) -> u32 {
        match self {
            Scale::Continuous => 0,
            Scale::Categorical { categories } => {
                let top = f64::from(categories - 1);
                (score * top).round().clamp(0.0, top) as u32
            }
        }
    }
}

/// Agreement over one kind of pair (same worker, or two workers).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairFigures {
    /// Unordered pairs of judgments compared.
    pub pairs: usize,
    /// Workers who contributed a pair.
    pub workers: usize,
    /// Items with at least one pair.
    pub items: usize,
    /// Mean |difference| between the two scores of a pair.
    pub mean_abs_difference: Option<f64>,
    /// Pearson's r (continuous scales; None with fewer than 2 pairs or no variance).
    pub pearson_r: Option<f64>,
    /// Share of pairs in the same category (categorical scales).
    pub p_agree: Option<f64>,
    /// Cohen's κ with P(E) from the data (categorical scales).
    pub kappa: Option<f64>,
}

/// The report of one (task, language pair).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupAgreement {
    pub task: String,
    pub lang_pair: String,
    pub scale: Scale,
    /// Judgments of items (SYSTEM and REPEAT) that entered.
    pub judgments: usize,
    /// P(E) of κ (categorical scales).
    pub p_chance: Option<f64>,
    /// The same worker on the same item (repeats).
    pub intra: PairFigures,
    /// Two workers on the same item.
    pub inter: PairFigures,
}


/// The agreement report of a campaign: over every judgment, and over the judgments of the
/// workers quality control retained.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgreementReport {
    pub all_workers: Vec<GroupAgreement>,
    pub retained_workers: Vec<GroupAgreement>,
}
