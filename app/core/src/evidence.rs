//! What a design's HITs give the reliability test per worker (issue 38), in the organizer's
//! words: the figures [`crate::hit::evidence::plan`] counts on the built HITs, and the
//! consequence of launching a design whose HITs cannot reach the test's minimum, according to
//! what the campaign does with workers it cannot judge ([`ThinEvidence`]). Always built: the
//! designer page shows it.

use crate::settings::ThinEvidence;

/// What the reliability test can read from one worker's HITs of a design.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct EvidencePlan {
    /// The reliability test's minimum of pairs (the analysis's `QcSettings::min_pairs`).
    pub min_pairs: usize,
    /// Ranking with gold blocks: the gold check's minimum of pairs; 0 without gold blocks.
    pub gold_min_pairs: usize,
    /// HITs built.
    pub hits: usize,
    /// The fewest and the most reliability pairs one HIT gives.
    pub fewest: usize,
    pub most: usize,
    /// The fewest gold pairs one HIT gives (ranking with gold blocks; else 0).
    pub fewest_gold: usize,
    /// HITs whose worker, doing only that HIT, gets "not enough evidence".
    pub thin_hits: usize,
}

/// A design whose HITs cannot reach the reliability test's minimum, launched without the
/// organizer's "I know": the consequence in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ThinEvidenceRefusal(pub String);

impl EvidencePlan {
    /// Some HIT leaves its worker below the minimum (a worker who does only that HIT gets
    /// "not enough evidence").
    pub fn is_thin(&self) -> bool {
        self.thin_hits > 0
    }

    /// Every HIT does.
    pub fn all_thin(&self) -> bool {
        self.hits > 0 && self.thin_hits == self.hits
    }

    /// HITs one worker must do, at the fewest pairs per HIT, to reach the minimum; `None` when
    /// no number of HITs does (no pairs at all).
    pub fn hits_to_reach(&self) -> Option<usize> {
        (self.fewest > 0).then(|| self.min_pairs.div_ceil(self.fewest).max(1))
    }

    /// What happens to a worker the test cannot judge, in words (`policy`: the campaign's).
    pub fn fate(policy: ThinEvidence) -> &'static str {
        match policy {
            ThinEvidence::Keep => "kept in the scores unchecked, flagged for review: careless work is paid for and counted",
            ThinEvidence::Hold => "held: no completion code until you approve them (every careful worker included) and out of the scores",
            ThinEvidence::Exclude => "excluded: their judgments, paid for, will not reach the scores",
        }
    }

    /// The consequence of launching this design, in words; `None` when every HIT reaches the
    /// minimum.
    pub fn consequence(&self, policy: ThinEvidence) -> Option<String> {
        if !self.is_thin() {
            return None;
        }
        let has = if self.fewest == self.most {
            format!("Each worker's HIT has {} reliability pairs (bad references against their originals)", self.fewest)
        } else {
            format!("{} of {} HITs have fewer than {} reliability pairs (fewest {}, bad references against their originals)", self.thin_hits, self.hits, self.min_pairs, self.fewest)
        };
        let gold = if self.gold_min_pairs > 0 {
            format!(" and {} gold pairs (the gold check needs {})", self.fewest_gold, self.gold_min_pairs)
        } else {
            String::new()
        };
        let who = if self.all_thin() { "every worker who does one HIT" } else { "a worker who does only such a HIT" };
        let again = match self.hits_to_reach() {
            Some(n) if n > 1 => format!(" A worker reaches {} pairs after {n} HITs.", self.min_pairs),
            Some(_) => String::new(),
            None => " No number of HITs reaches it: add bad references.".to_string(),
        };
        // Every HIT thin and its workers left out: nothing a one-HIT worker did counts.
        let fate = match policy {
            ThinEvidence::Exclude if self.all_thin() => "excluded: no judgment of theirs will reach the scores, all of it paid for",
            _ => Self::fate(policy),
        };
        Some(format!(
            "{has}{gold}; the reliability test needs {}: {who} will be \u{201c}not enough evidence\u{201d} and {fate}.{again}",
            self.min_pairs
        ))
    }

    /// Whether launching this design needs the organizer's "I know": some HIT cannot reach the
    /// minimum and the campaign loses what such workers did (held or excluded). Kept, they lose
    /// nothing paid for: the designer warns, the launch goes ahead.
    pub fn needs_i_know(&self, policy: ThinEvidence) -> bool {
        self.is_thin() && policy != ThinEvidence::Keep
    }

    /// The launch's answer: refused with the consequence when it [needs "I know"](Self::needs_i_know)
    /// and the organizer has not `acknowledged` it.
    pub fn refusal(&self, policy: ThinEvidence, acknowledged: bool) -> Result<(), ThinEvidenceRefusal> {
        match self.consequence(policy) {
            Some(c) if self.needs_i_know(policy) && !acknowledged => Err(ThinEvidenceRefusal(format!(
                "{c} Add bad references (or longer HITs), keep such workers, or launch knowing it (\u{201c}I know\u{201d} in the designer)."
            ))),
            _ => Ok(()),
        }
    }
}
