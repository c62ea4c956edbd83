//! Words of the field shared by every stage of the flow
//! (import → campaign → HIT → judgment → analysis → export).
//! Pure data: no I/O, compiled for the server and the browser alike.

use serde::{Deserialize, Serialize};

/// What an item of a HIT is. Never sent to the annotator's browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ItemType {
    /// A system output judged for real.
    System,
    /// A degraded copy of a system output (quality control, Assumption B).
    BadRef,
    /// An exact repeat of a system output (quality control, Assumption A).
    Repeat,
    /// The human reference shown as if it were a system output.
    Ref,
}

impl ItemType {
    /// The name used in Graham's scripts and the WMT `ad-*` files.
    pub fn wmt_name(self) -> &'static str {
        match self {
            ItemType::System => "SYSTEM",
            ItemType::BadRef => "BAD_REF",
            ItemType::Repeat => "REPEAT",
            ItemType::Ref => "REF",
        }
    }

    /// The name used by Appraise (`itemType`).
    pub fn appraise_name(self) -> &'static str {
        match self {
            ItemType::System => "TGT",
            ItemType::BadRef => "BAD",
            ItemType::Repeat => "CHK",
            ItemType::Ref => "REF",
        }
    }

    pub fn parse(s: &str) -> Option<ItemType> {
        // A stored name as it is, without a copy (a million are read with a campaign).
        const ALL: [ItemType; 4] = [ItemType::System, ItemType::BadRef, ItemType::Repeat, ItemType::Ref];
        if let Some(t) = ALL.into_iter().find(|t| t.wmt_name() == s) {
            return Some(t);
        }
        match s.trim().to_ascii_uppercase().as_str() {
            "SYSTEM" | "TGT" => Some(ItemType::System),
            "BAD_REF" | "BAD" => Some(ItemType::BadRef),
            "REPEAT" | "CHK" => Some(ItemType::Repeat),
            "REF" => Some(ItemType::Ref),
            _ => None,
        }
    }
}

/// The kind of judgment a campaign asks for (METHOD §1).
///
/// Serialized as its stored name (`da-adequacy`, …), the name of every file and API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum TaskKind {
    /// Monolingual, reference-based: reference in gray, output in black.
    DaAdequacy,
    /// The output alone.
    DaFluency,
    /// Bilingual: source and output.
    DaSourceBased,
    /// Word-order judgment: two 5-point questions.
    WordOrder,
    /// Relative ranking (WMT 2012): several outputs of one source ranked best to worst, ties
    /// allowed.
    Ranking,
    /// Error Span Annotation (WMT 2024/2025): error spans (minor or major, omissions on a
    /// `[MISSING]` token) in the translation of a document's segments, then a 0–100 score.
    Esa,
    /// MQM: error spans with a category of the campaign's taxonomy and a severity in the
    /// translation of a document's segments; the segment's score is −Σ weights.
    Mqm,
    /// Pairwise preference: two outputs of one source side by side, the better one picked or
    /// "about the same"; Bradley–Terry ratings.
    Pairwise,
    /// Post-editing: the output corrected in an editable field (or translated from scratch);
    /// HTER per segment and system.
    PostEdit,
    /// Contrastive ESA: 2–4 outputs of one segment side by side, each with its error spans and
    /// a 0–100 score.
    ContrastiveEsa,
}

impl TaskKind {
    // Every task (`TaskKind::ALL`, in the designer's order) and what sets their protocols apart
    // (`marks_spans`) are listed beside the registry, `protocol::for_task`: the one place a
    // protocol is registered.

    // The stored name of each task, `TaskKind::as_str`, is its protocol's (`NAME` in each
    // protocol's folder), read in the registry `protocol::for_task`'s module.

    pub fn parse(s: &str) -> Option<TaskKind> {
        TaskKind::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// Where a campaign is in its life (`campaigns.status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CampaignStatus {
    /// Being designed; no HITs yet.
    Draft,
    /// HITs built and handed out.
    Launched,
    /// No more work handed out.
    Closed,
}

/// Where an assignment (one worker's copy of a HIT) is (`assignments.status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AssignmentStatus {
    /// Being worked on.
    Active,
    /// Every item answered.
    Completed,
    /// Left idle too long; the HIT slot went back to the pool.
    Expired,
    /// Given back by the worker (a crowd platform's return).
    Returned,
}

/// The database spelling of the statuses, and back.
macro_rules! stored_names {
    ($t:ty { $($v:ident => $s:literal),* $(,)? }) => {
        impl $t {
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$v => $s),* }
            }
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($s => Some(Self::$v),)* _ => None }
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        stored_name_conversion!($t);
    };
}

/// Reading a stored name back: `TryFrom<String>`, which the storage layer's row mapping uses
/// (`#[sqlx(try_from = "String")]`), with an error that names the kind and the value.
macro_rules! stored_name_conversion {
    ($t:ty) => {
        impl TryFrom<String> for $t {
            type Error = UnknownName;
            fn try_from(s: String) -> Result<Self, UnknownName> {
                <$t>::parse(&s).ok_or(UnknownName { kind: stringify!($t), value: s })
            }
        }
    };
}
stored_name_conversion!(TaskKind);

impl From<TaskKind> for &'static str {
    fn from(t: TaskKind) -> &'static str {
        t.as_str()
    }
}
stored_name_conversion!(ItemType);

impl TaskKind {
    /// The stored task of campaign `campaign`: a name this release does not know is an error
    /// naming the campaign (never another task in its place).
    pub fn of_campaign(campaign: i64, name: &str) -> Result<TaskKind, UnknownTask> {
        TaskKind::parse(name).ok_or_else(|| UnknownTask { campaign, name: name.to_string() })
    }
}

/// A campaign whose stored task this release does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("campaign {campaign} has the task {name:?}, which this release does not know")]
pub struct UnknownTask {
    pub campaign: i64,
    pub name: String,
}

/// A stored name that no variant has (a database written by a newer release, or by hand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    pub kind: &'static str,
    pub value: String,
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not a {} this release knows", self.value, self.kind)
    }
}

impl std::error::Error for UnknownName {}
stored_names!(CampaignStatus { Draft => "draft", Launched => "launched", Closed => "closed" });
stored_names!(AssignmentStatus { Active => "active", Completed => "completed", Expired => "expired", Returned => "returned" });


/// A time in Unix milliseconds as its UTC civil date and time of day: (year, month, day,
/// seconds since midnight). Howard Hinnant's civil-from-days.
pub fn utc_civil(ms: i64) -> (i64, i64, i64, i64) {
    let secs = ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day, rem)
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
