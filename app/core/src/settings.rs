//! The design of a campaign, as the organizer chooses it and the database stores it (JSON in
//! `campaigns.settings`), and the quality gate at submission. Shared by the designer page (which
//! shows what a design implies while the organizer types), the server and the annotation screens.
//!
//! [`CampaignSettings::read`] is the one reader of the stored JSON: the task's defaults
//! ([`CampaignSettings::for_task`]), overlaid by every field the JSON gives well.

use serde::{Deserialize, Serialize};

use crate::model::TaskKind;
use crate::protocol::pairwise::PairwiseSettings;
use crate::protocol::ranking::RankingSettings;
use crate::protocol::word_order::WordOrderSettings;
use crate::protocol::{Beside, HitPlan};

pub use crate::protocol::esa::{DocumentContext, DocumentSettings};

/// What the annotator reads besides the texts (METHOD §1), in the target language. The
/// annotation screens read these keys (`wording.statement`, `wording.anchor_low`, …).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Wording {
    /// The DA statement the annotator agrees or disagrees with (the whole sentence).
    pub statement: String,
    /// The instructions page shown before a HIT starts (and in the Mechanical Turk preview):
    /// plain text, paragraphs separated by blank lines, lines starting with "- " a list
    /// ([`crate::instructions::blocks`]). Never HTML: it is shown as text.
    pub instructions: String,
    /// Left end of the DA slider.
    pub anchor_low: String,
    /// Right end of the DA slider.
    pub anchor_high: String,
    /// Word order, question 1.
    pub woj_question1: String,
    /// Word order, question 2.
    pub woj_question2: String,
    pub woj_low1: String,
    pub woj_high1: String,
    pub woj_low2: String,
    pub woj_high2: String,
    /// The button that submits an item.
    pub next_label: String,
    /// The label of the source text (source-based DA, ranking).
    pub label_source: String,
    /// The label of the human reference (the gray text of adequacy; ranking's reference).
    pub label_reference: String,
    /// The label of the text being judged.
    pub label_candidate: String,
}

impl Default for Wording {
    fn default() -> Self {
        // Direct assessment of adequacy, METHOD's first task.
        Wording::of(&crate::protocol::da::ADEQUACY, "English", "English")
    }
}

/// How bad references are made (METHOD §3). Fluency campaigns always duplicate two words;
/// adequacy (and source-based) campaigns delete a run or replace it with a phrase of another
/// reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum DegradationPolicy {
    /// Delete one contiguous run of words (EACL 2014).
    #[default]
    Delete,
    /// Replace the run with a same-length phrase from another reference (Graham 2016, Appraise).
    ReplacePhrase,
}

/// Whether judgments are counted per system or per system output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum WantedPer {
    #[default]
    System,
    Segment,
}

/// The whole design of a campaign, stored as JSON in `campaigns.settings`. Every field has a
/// default (METHOD §1–§4), so older or partial JSON still reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CampaignSettings {
    /// Items per HIT (DA default 100 = 70 + 10 + 10 + 10; word order default 50).
    pub hit_length: usize,
    pub bad_refs: usize,
    pub repeats: usize,
    pub refs: usize,
    /// A second reference of the test set to show as the candidate of REF items (adequacy shows
    /// the main reference beside every item, so a REF item showing that same text is recognisable
    /// by content). `None`: REF items show the main reference.
    pub ref_item_reference: Option<String>,
    /// Sets per DA HIT (QC pairs span set i and i + sets/2).
    pub sets: usize,
    /// Judgments wanted (system items), per system or per system output.
    pub judgments_wanted: usize,
    pub wanted_per: WantedPer,
    /// k: distinct workers per HIT.
    pub redundancy: usize,
    pub degradation: DegradationPolicy,
    /// Payment per HIT, in the campaign's currency (`payment_currency`).
    pub payment_per_hit: f64,
    /// ISO 4217 code of the payment currency (payments and bonuses), e.g. USD, GBP, EUR.
    pub payment_currency: String,
    /// HITs done faster than this (seconds) are flagged for review.
    pub time_floor_seconds: i64,
    /// An assignment idle longer than this goes back to the pool.
    pub assignment_timeout_minutes: i64,
    /// Active time: a gap longer than this (seconds) without input (key, pointer, touch,
    /// scrolling) is idle and not counted; nor is time with the page hidden or unfocused.
    pub idle_gap_seconds: i64,
    /// Expected seconds per fluency judgment (for the time estimate).
    pub seconds_per_fluency_judgment: f64,
    /// Expected seconds per adequacy (and source-based, word-order) judgment.
    pub seconds_per_adequacy_judgment: f64,
    /// Name of the target language as the annotator reads it (e.g. "German").
    pub target_language: String,
    /// Name of the source language (word order: "a translation from …").
    pub source_language_name: String,
    /// Whether an annotator may skip an item.
    pub allow_skip: bool,
    /// Practice items a worker answers, with feedback, before the first real item of the
    /// campaign (0: no practice). Built at launch from segments set apart from the HITs.
    pub practice_items: usize,
    /// How many practice answers must be in the expected range to go on (a round with fewer
    /// starts again). At most `practice_items`.
    pub practice_pass: usize,
    /// The annotator's interface language: a code of the catalog (`de`, `ar`, …, see
    /// [`crate::i18n::Lang`]), or empty for automatic (the target language if the catalog has
    /// it, else the browser's).
    pub interface_language: String,
    /// The title annotators see on a HIT's start page; empty: a neutral title in their
    /// language. The campaign's name is the organizers' and never reaches an annotator.
    pub public_title: String,
    // Each protocol's own settings, typed in its folder (issue 37 item 1). Flattened: their
    // fields are keys of the one stored JSON object, as they were before they had a struct,
    // so stored campaigns, the designer's form and the API read and write the same JSON.
    /// Word order (`woj_*`): permutations per HIT and the scale of its two questions.
    #[serde(flatten)]
    pub word_order: WordOrderSettings,
    /// Relative ranking (`rank_*`): outputs per block, blocks per screen, the reference, gold.
    #[serde(flatten)]
    pub ranking: RankingSettings,
    /// HITs of documents (ESA, MQM): their size, the context shown, the document score,
    /// pre-filled spans.
    #[serde(flatten)]
    pub documents: DocumentSettings,
    /// Pairwise preference (`pair_*`): whether the reference is shown.
    #[serde(flatten)]
    pub pairwise: PairwiseSettings,
    /// Post-editing (`pe_*`): from scratch, whether the reference is shown.
    #[serde(flatten)]
    pub postedit: crate::protocol::postedit::PostEditSettings,
    /// MQM: the error categories, their weights, the most errors per segment, and whether
    /// Critical may be marked (nested under `mqm`, as it always was).
    pub mqm: crate::protocol::mqm::MqmSettings,
    pub wording: Wording,
    /// What becomes of a worker the reliability test cannot judge (fewer pairs than its
    /// minimum: "not enough evidence"); default: kept, flagged (nothing paid for is lost).
    pub thin_evidence: ThinEvidence,
    /// The organizer's "I know": launch although some HIT cannot give its worker the
    /// reliability test's minimum of pairs ([`crate::hit::evidence`]); without it such a
    /// design is refused at launch.
    pub accept_thin_evidence: bool,
    /// Adaptive allocation and the stopping rule (issue 39; off by default).
    pub adaptive: crate::adaptive_design::AdaptiveDesign,
}

/// What a campaign does with a worker whose reliability test says "not enough evidence" (too
/// few pairs to test). Applied by the campaign's analysis (who is left out of the scores) and
/// the quality gate (whose completion code waits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ThinEvidence {
    /// In the scores, flagged for review; the completion code is given (loses nothing paid for).
    #[default]
    Keep,
    /// The completion code waits for the organizer's approval (the quality gate's "hold"); out
    /// of the scores, as excluded.
    Hold,
    /// Out of the scores (what the authors' scripts do: "not enough evidence" is not a pass).
    Exclude,
}

impl ThinEvidence {
    pub const ALL: [ThinEvidence; 3] = [ThinEvidence::Keep, ThinEvidence::Hold, ThinEvidence::Exclude];

    pub fn as_str(self) -> &'static str {
        match self {
            ThinEvidence::Keep => "keep",
            ThinEvidence::Hold => "hold",
            ThinEvidence::Exclude => "exclude",
        }
    }

    pub fn parse(s: &str) -> Option<ThinEvidence> {
        ThinEvidence::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The designer's words for the choice.
    pub fn label(self) -> &'static str {
        match self {
            ThinEvidence::Keep => "keep them in the scores, flagged for review",
            ThinEvidence::Hold => "hold their completion code until I approve them (needs the quality gate; out of the scores)",
            ThinEvidence::Exclude => "exclude them from the scores",
        }
    }
}

impl Default for CampaignSettings {
    fn default() -> Self {
        CampaignSettings {
            hit_length: 100,
            bad_refs: 10,
            repeats: 10,
            refs: 10,
            ref_item_reference: None,
            sets: 10,
            judgments_wanted: 70,
            wanted_per: WantedPer::System,
            redundancy: 1,
            degradation: DegradationPolicy::Delete,
            payment_per_hit: 0.0,
            payment_currency: "USD".into(),
            time_floor_seconds: 600,
            assignment_timeout_minutes: 120,
            idle_gap_seconds: 30,
            seconds_per_fluency_judgment: 13.0,
            seconds_per_adequacy_judgment: 18.0,
            target_language: "English".into(),
            source_language_name: "English".into(),
            allow_skip: false,
            practice_items: 0,
            practice_pass: 0,
            interface_language: String::new(),
            public_title: String::new(),
            word_order: WordOrderSettings::default(),
            ranking: RankingSettings::default(),
            documents: DocumentSettings::default(),
            pairwise: PairwiseSettings::default(),
            postedit: crate::protocol::postedit::PostEditSettings::default(),
            mqm: crate::protocol::mqm::MqmSettings::default(),
            wording: Wording::default(),
            thin_evidence: ThinEvidence::Keep,
            accept_thin_evidence: false,
            adaptive: crate::adaptive_design::AdaptiveDesign::default(),
        }
    }
}

impl CampaignSettings {
    /// Defaults for a task: word order gets 50-item HITs with 25 permutations; the wording
    /// follows METHOD §1 with the language names given.
    pub fn for_task(task: TaskKind, target_language: &str, source_language: &str) -> CampaignSettings {
        let mut s = CampaignSettings {
            target_language: target_language.to_string(),
            source_language_name: source_language.to_string(),
            wording: Wording::for_task(task, target_language, source_language),
            ..CampaignSettings::default()
        };
        match crate::protocol::for_task(task).hit_plan() {
            HitPlan::Items => {}
            HitPlan::WordOrderPairs => {
            s.hit_length = 50;
            s.bad_refs = 0;
            s.repeats = 0;
            s.refs = 0;
            s.sets = 1;
            s.judgments_wanted = 25;
            }
            HitPlan::Blocks => {
            // For ranking, a HIT's length counts screens; bad references count blocks with a
            // degraded copy, repeats whole screens shown again.
            s.hit_length = 8;
            s.bad_refs = 5;
            s.repeats = 1;
            s.refs = 0;
            s.sets = 1;
            s.judgments_wanted = 100;
            // The protocol's outputs per block; a protocol scoring each output (contrastive ESA)
            // shows one segment's block per screen, a degraded copy on a few of them.
            if let crate::protocol::Layout::Several { outputs } = crate::protocol::for_task(task).layout() {
                s.ranking.outputs = outputs;
            }
            if !crate::protocol::ranks_blocks(task) {
                (s.hit_length, s.ranking.blocks_per_screen, s.bad_refs, s.repeats) = (12, 1, 3, 2);
            }
            }
            HitPlan::Documents => {
            // Whole documents per HIT, sized by expected time; bad references and repeats
            // count documents; every output judged once.
            s.bad_refs = 1;
            s.repeats = 1;
            s.refs = 0;
            s.sets = 1;
            s.judgments_wanted = 1;
            s.wanted_per = WantedPer::Segment;
            s.seconds_per_adequacy_judgment = 40.0;
            s.time_floor_seconds = 300;
            }
            HitPlan::Pairs => {
            // A HIT's length counts pairs; bad references count pairs of an output against its
            // degraded copy, repeats pairs shown again with the sides swapped.
            s.hit_length = 40;
            s.bad_refs = 4;
            s.repeats = 4;
            s.refs = 0;
            s.sets = 1;
            s.judgments_wanted = 100;
            }
        }
        s
    }

    /// Items (outputs) per HIT: for ranking, screens × blocks × outputs; otherwise the HIT's
    /// length.
    pub fn items_per_hit(&self, task: TaskKind) -> usize {
        match crate::protocol::for_task(task).hit_plan() {
            HitPlan::Blocks => self.hit_length.saturating_mul(self.ranking.blocks_per_screen).saturating_mul(self.ranking.outputs),
            HitPlan::Items | HitPlan::WordOrderPairs | HitPlan::Documents | HitPlan::Pairs => self.hit_length,
        }
    }

    /// SYSTEM items per HIT (what counts towards the judgments wanted).
    pub fn system_items(&self, task: TaskKind) -> usize {
        match crate::protocol::for_task(task).hit_plan() {
            HitPlan::WordOrderPairs => self.hit_length.saturating_sub(self.word_order.permutations),
            HitPlan::Blocks => self
                .hit_length
                .saturating_sub(self.repeats)
                .saturating_mul(self.ranking.blocks_per_screen)
                .saturating_mul(self.ranking.outputs)
                .saturating_sub(self.bad_refs)
                .saturating_sub(self.ranking.gold_blocks.saturating_mul(self.ranking.outputs)),
            HitPlan::Items | HitPlan::Documents => self.hit_length.saturating_sub(self.bad_refs.saturating_add(self.repeats).saturating_add(self.refs)),
            HitPlan::Pairs => self.hit_length.saturating_sub(self.bad_refs.saturating_add(self.repeats)),
        }
    }

    /// Whether a screen of `task` shows the human reference beside the source, as the design
    /// chooses (ranking's and pairwise's own setting; the other protocols show what
    /// `Protocol::beside` says and nothing more).
    pub fn shows_reference(&self, task: TaskKind) -> bool {
        match crate::protocol::for_task(task).hit_plan() {
            HitPlan::Blocks => self.ranking.show_reference,
            HitPlan::Pairs => self.pairwise.show_reference_or(self.ranking.show_reference),
            // Single items: only a design that asks for it in post-editing's key (no other
            // protocol's designer writes it).
            HitPlan::Items => self.postedit.show_reference,
            HitPlan::WordOrderPairs | HitPlan::Documents => false,
        }
    }

    /// Expected seconds for one judgment of this task.
    pub fn seconds_per_judgment(&self, task: TaskKind) -> f64 {
        // A text read alone (fluency) is judged faster than one beside another.
        match crate::protocol::for_task(task).beside() {
            Beside::Nothing => self.seconds_per_fluency_judgment,
            Beside::Reference | Beside::Source => self.seconds_per_adequacy_judgment,
        }
    }

    /// What the design implies for `systems` systems with at most `outputs_per_system` outputs
    /// each (the same arithmetic as the HIT builder's allocation). The numbers are the
    /// designer's, any size a form can send: the products saturate instead of wrapping (a
    /// design that large is refused by the checks; its implications only have to be shown).
    pub fn implications(&self, task: TaskKind, systems: usize, outputs_per_system: usize) -> Implications {
        if task.marks_spans() {
            return self.document_implications(systems, outputs_per_system);
        }
        let per_hit = self.system_items(task);
        let per_system = match self.wanted_per {
            WantedPer::System => self.judgments_wanted,
            WantedPer::Segment => self.judgments_wanted.saturating_mul(outputs_per_system),
        };
        let hits = if per_hit == 0 || systems == 0 { 0 } else { per_system.saturating_mul(systems).div_ceil(per_hit) };
        let k = self.redundancy.max(1);
        let assignments = hits.saturating_mul(k);
        let judgments_per_system =
            if systems == 0 { 0.0 } else { hits as f64 * per_hit as f64 / systems as f64 * k as f64 };
        let minutes_per_hit = self.items_per_hit(task) as f64 * self.seconds_per_judgment(task) / 60.0;
        Implications {
            hits,
            system_items_per_hit: per_hit,
            judgments_per_system,
            assignments,
            workers_needed: if hits == 0 { 0 } else { k },
            cost: assignments as f64 * self.payment_per_hit,
            minutes_per_hit,
            total_hours: assignments as f64 * minutes_per_hit / 60.0,
        }
    }
}

impl CampaignSettings {
    /// [`CampaignSettings::implications`] of a task of documents, before its documents are read:
    /// segments of [`ASSUMED_SOURCE_WORDS`] source words, HITs filled to `hit_minutes` with
    /// the quality-control copies inside. The designer's check replaces the HIT count with the
    /// builder's.
    fn document_implications(&self, systems: usize, outputs_per_system: usize) -> Implications {
        let per_segment = ASSUMED_SOURCE_WORDS * self.documents.seconds_per_source_word.max(0.0);
        let minutes = self.documents.seconds_per_hit().max(0.0) / 60.0;
        let slots = if per_segment > 0.0 { (minutes * 60.0 / per_segment).floor() as usize } else { 0 };
        // The copies of `bad_refs + repeats` documents of about 5 segments take their share.
        let per_hit = slots.saturating_sub(5 * (self.bad_refs + self.repeats)).max(usize::from(slots > 0));
        let outputs = systems.saturating_mul(outputs_per_system).saturating_mul(self.judgments_wanted);
        let hits = if per_hit == 0 { 0 } else { outputs.div_ceil(per_hit) };
        let k = self.redundancy.max(1);
        let assignments = hits.saturating_mul(k);
        Implications {
            hits,
            system_items_per_hit: per_hit,
            judgments_per_system: (outputs_per_system.saturating_mul(self.judgments_wanted).saturating_mul(k)) as f64,
            assignments,
            workers_needed: if hits == 0 { 0 } else { k },
            cost: assignments as f64 * self.payment_per_hit,
            minutes_per_hit: minutes,
            total_hours: assignments as f64 * minutes / 60.0,
        }
    }
}

/// Source words per segment the designer assumes for a task of documents before the HITs are
/// built (news sentences average about 20 words).
pub const ASSUMED_SOURCE_WORDS: f64 = 20.0;

/// What a design implies, shown live on the designer page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Implications {
    pub hits: usize,
    pub system_items_per_hit: usize,
    /// SYSTEM judgments each system gets over all HITs and all k copies.
    pub judgments_per_system: f64,
    /// HITs × redundancy.
    pub assignments: usize,
    /// Distinct workers needed at least (k: every HIT needs k different workers).
    pub workers_needed: usize,
    /// assignments × payment per HIT.
    pub cost: f64,
    pub minutes_per_hit: f64,
    /// Person-hours of work over all assignments.
    pub total_hours: f64,
}

/// Whether a finished HIT's completion code needs the worker to pass quality control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GateMode {
    /// The code is always given (the organizer reviews afterwards).
    #[default]
    Off,
    /// The code only if the worker's pooled reliability verdict is pass (METHOD §4).
    RequirePass,
}

/// Under `RequirePass`, what a worker with "not enough evidence" (too few pairs) gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GateUnsure {
    /// The code (benefit of the doubt; the organizer can still reject).
    #[default]
    Give,
    /// No code until the organizer approves the worker.
    Hold,
}

/// The quality gate at submission (stored in `campaigns.gate` and `campaigns.gate_unsure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct QualityGate {
    pub mode: GateMode,
    pub unsure: GateUnsure,
}

impl QualityGate {
    pub fn mode_str(self) -> &'static str {
        match self.mode {
            GateMode::Off => "off",
            GateMode::RequirePass => "require-pass",
        }
    }

    pub fn unsure_str(self) -> &'static str {
        match self.unsure {
            GateUnsure::Give => "give",
            GateUnsure::Hold => "hold",
        }
    }

    /// Reads the two stored columns.
    pub fn parse(mode: &str, unsure: &str) -> Option<QualityGate> {
        let mode = match mode {
            "off" => GateMode::Off,
            "require-pass" => GateMode::RequirePass,
            _ => return None,
        };
        let unsure = match unsure {
            "give" => GateUnsure::Give,
            "hold" => GateUnsure::Hold,
            _ => return None,
        };
        Some(QualityGate { mode, unsure })
    }

    /// What the organizer reads.
    pub fn describe(self) -> String {
        match (self.mode, self.unsure) {
            (GateMode::Off, _) => "off: every finished HIT gets its completion code".into(),
            (GateMode::RequirePass, GateUnsure::Give) => {
                "the completion code needs a pass of the reliability test; not enough evidence gets the code".into()
            }
            (GateMode::RequirePass, GateUnsure::Hold) => {
                "the completion code needs a pass of the reliability test; not enough evidence is held for review".into()
            }
        }
    }
}

impl CampaignSettings {
    /// What becomes of a worker the reliability test cannot judge, as the campaign applies it:
    /// the quality gate's "hold" holds; else the design's choice ("hold" without the gate, which
    /// the designer's check refuses, keeps).
    pub fn thin_evidence_with(&self, gate: QualityGate) -> ThinEvidence {
        match (gate.mode, gate.unsure, self.thin_evidence) {
            (GateMode::RequirePass, GateUnsure::Hold, _) => ThinEvidence::Hold,
            (_, _, ThinEvidence::Hold) => ThinEvidence::Keep,
            (_, _, policy) => policy,
        }
    }
}

impl CampaignSettings {
    /// The design as a campaign of `task` means it: every wording text still at the generic
    /// default (what a draft sent without wording gets from serde: DA adequacy's English) is
    /// replaced by the task's own, in the design's language names. Texts the organizer wrote
    /// stay.
    pub fn with_task_wording(mut self, task: TaskKind) -> CampaignSettings {
        let generic = Wording::default();
        let own = Wording::for_task(task, &self.target_language, &self.source_language_name);
        let w = &mut self.wording;
        for (field, generic, own) in [
            (&mut w.statement, generic.statement, own.statement),
            (&mut w.instructions, generic.instructions, own.instructions),
            (&mut w.anchor_low, generic.anchor_low, own.anchor_low),
            (&mut w.anchor_high, generic.anchor_high, own.anchor_high),
            (&mut w.woj_question1, generic.woj_question1, own.woj_question1),
            (&mut w.woj_question2, generic.woj_question2, own.woj_question2),
            (&mut w.woj_low1, generic.woj_low1, own.woj_low1),
            (&mut w.woj_high1, generic.woj_high1, own.woj_high1),
            (&mut w.woj_low2, generic.woj_low2, own.woj_low2),
            (&mut w.woj_high2, generic.woj_high2, own.woj_high2),
            (&mut w.next_label, generic.next_label, own.next_label),
            (&mut w.label_source, generic.label_source, own.label_source),
            (&mut w.label_reference, generic.label_reference, own.label_reference),
            (&mut w.label_candidate, generic.label_candidate, own.label_candidate),
        ] {
            if *field == generic {
                *field = own;
            }
        }
        self
    }
}

impl CampaignSettings {
    /// Reads a campaign's stored settings. Starts from the task's defaults (with the language
    /// names given) and takes every field of the JSON that reads well: a field of the wrong
    /// type or with an unknown value, and a blank text, keep their defaults; JSON that does not
    /// parse at all gives the defaults.
    pub fn read(json: &str, task: TaskKind, target_language: &str, source_language: &str) -> CampaignSettings {
        let defaults = CampaignSettings::for_task(task, target_language, source_language);
        let Ok(serde_json::Value::Object(given)) = serde_json::from_str::<serde_json::Value>(json) else {
            return defaults;
        };
        let mut merged = serde_json::to_value(&defaults).expect("settings always serialise");
        // Every field at once first: a stored campaign's settings (read several times per HIT
        // on the annotation server) normally all read well, and then this is what the field by
        // field reading below arrives at (each field reads on its own: no check across fields),
        // with one deserialisation instead of one per field.
        let mut all = merged.clone();
        for (key, value) in &given {
            if let Some(slot) = all.get_mut(key) {
                overlay(slot, value.clone());
            }
        }
        // A design stored without the choice for workers the reliability test cannot judge was
        // made before there was one (or sent without it): it keeps what analysis did then,
        // leaving them out, so that an upgrade changes no campaign's results. The designer
        // stores every field, so a new design has its own choice (by default, keep).
        let stored_without_choice = !given.contains_key("thin_evidence");
        let as_before = |mut settings: CampaignSettings| {
            if stored_without_choice {
                settings.thin_evidence = ThinEvidence::Exclude;
            }
            settings
        };
        if let Ok(settings) = serde_json::from_value::<CampaignSettings>(all) {
            return as_before(settings);
        }
        for (key, value) in given {
            if merged.get(&key).is_none() {
                continue;
            }
            let mut candidate = merged.clone();
            if overlay(&mut candidate[key.as_str()], value) && serde_json::from_value::<CampaignSettings>(candidate.clone()).is_ok() {
                merged = candidate;
            }
        }
        as_before(serde_json::from_value(merged).unwrap_or(defaults))
    }
}

/// Puts `value` over `slot`: objects field by field, blank texts and nulls not at all. Returns
/// whether anything was taken.
fn overlay(slot: &mut serde_json::Value, value: serde_json::Value) -> bool {
    use serde_json::Value;
    match (slot, value) {
        (_, Value::Null) => false,
        (_, Value::String(s)) if s.trim().is_empty() => false,
        (Value::Object(fields), Value::Object(given)) => {
            let mut took = false;
            for (k, v) in given {
                if let Some(field) = fields.get_mut(&k) {
                    let same_kind = std::mem::discriminant(field) == std::mem::discriminant(&v)
                        || (field.is_number() && v.is_number());
                    if same_kind || field.is_object() {
                        took |= overlay(field, v);
                    }
                }
            }
            took
        }
        (slot, Value::String(s)) => {
            *slot = Value::String(s.trim().to_string());
            true
        }
        (slot, v) => {
            *slot = v;
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upgrade changes no campaign's results: a design stored before the choice for workers
    /// with too few pairs existed leaves them out, as analysis did then; a design that names it
    /// keeps its choice; a new design keeps them (nothing paid for is lost).
    #[test]
    fn designs_stored_without_the_thin_evidence_choice_leave_such_workers_out_as_before() {
        assert_eq!(CampaignSettings::read("{}", TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Exclude);
        assert_eq!(CampaignSettings::read(r#"{"items_per_hit": 50}"#, TaskKind::Esa, "German", "English").thin_evidence, ThinEvidence::Exclude);
        assert_eq!(CampaignSettings::read(r#"{"thin_evidence": "keep"}"#, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Keep);
        assert_eq!(CampaignSettings::read(r#"{"thin_evidence": "hold"}"#, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Hold);
        let new = CampaignSettings::for_task(TaskKind::DaAdequacy, "German", "English");
        assert_eq!(new.thin_evidence, ThinEvidence::Keep);
        let stored = serde_json::to_string(&new).unwrap();
        assert_eq!(CampaignSettings::read(&stored, TaskKind::DaAdequacy, "German", "English").thin_evidence, ThinEvidence::Keep);
    }

    #[test]
    fn defaults_follow_the_method() {
        let s = CampaignSettings::default();
        assert_eq!((s.hit_length, s.bad_refs, s.repeats, s.refs, s.sets), (100, 10, 10, 10, 10));
        assert_eq!(s.system_items(TaskKind::DaAdequacy), 70);
        assert_eq!(s.seconds_per_judgment(TaskKind::DaFluency), 13.0);
        assert_eq!(s.seconds_per_judgment(TaskKind::DaAdequacy), 18.0);
        let f = CampaignSettings::for_task(TaskKind::DaFluency, "German", "English");
        assert!(f.wording.statement.ends_with("agree that: the text is fluent German."), "{}", f.wording.statement);
        let w = CampaignSettings::for_task(TaskKind::WordOrder, "English", "Czech");
        assert_eq!(w.hit_length, 50);
        assert_eq!(w.system_items(TaskKind::WordOrder), 25);
        assert!(w.wording.instructions.contains("Czech"));
    }

    #[test]
    fn settings_json_uses_the_agreed_keys_and_reads_partial_json() {
        let v = serde_json::to_value(CampaignSettings::default()).unwrap();
        for key in ["statement", "instructions", "anchor_low", "anchor_high", "woj_question1", "woj_question2",
            "woj_low1", "woj_high1", "woj_low2", "woj_high2", "next_label"] {
            assert!(v["wording"][key].is_string(), "wording.{key}");
        }
        for key in ["label_source", "label_reference", "label_candidate"] {
            assert!(v["wording"][key].is_string(), "wording.{key}");
        }
        assert_eq!((v["practice_items"].as_u64(), v["practice_pass"].as_u64(), v["idle_gap_seconds"].as_i64()), (Some(0), Some(0), Some(30)));
        assert_eq!(v["woj_scale"], "boxes");
        assert_eq!(v["allow_skip"], false);
        assert!(v["target_language"].is_string() && v["source_language_name"].is_string());
        let partial: CampaignSettings = serde_json::from_str(r#"{"redundancy": 3, "wording": {"next_label": "Weiter"}}"#).unwrap();
        assert_eq!(partial.redundancy, 3);
        assert_eq!(partial.wording.next_label, "Weiter");
        assert_eq!(partial.wording.anchor_low, "strongly disagree");
        assert_eq!(partial.hit_length, 100);
    }

    #[test]
    fn implications_count_hits_workers_cost_and_time() {
        let mut s = CampaignSettings { judgments_wanted: 140, redundancy: 3, payment_per_hit: 2.5, ..Default::default() };
        // 4 systems × 140 = 560 system items / 70 per HIT = 8 HITs.
        let i = s.implications(TaskKind::DaAdequacy, 4, 1000);
        assert_eq!(i.hits, 8);
        assert_eq!(i.assignments, 24);
        assert_eq!(i.workers_needed, 3);
        assert!((i.cost - 60.0).abs() < 1e-9);
        assert!((i.minutes_per_hit - 30.0).abs() < 1e-9);
        assert!((i.judgments_per_system - 420.0).abs() < 1e-9);
        assert!((i.total_hours - 12.0).abs() < 1e-9);
        s.wanted_per = WantedPer::Segment;
        s.judgments_wanted = 1;
        // 1 judgment per output, 35 outputs per system, 4 systems → 140 / 70 = 2 HITs.
        assert_eq!(s.implications(TaskKind::DaAdequacy, 4, 35).hits, 2);
        assert_eq!(s.implications(TaskKind::DaAdequacy, 0, 35).hits, 0);
    }

    #[test]
    fn document_hits_are_sized_by_time_or_by_source_words() {
        let mut s = CampaignSettings::for_task(TaskKind::Esa, "German", "English");
        assert_eq!((s.documents.hit_minutes, s.documents.seconds_per_source_word, s.documents.hit_words), (60.0, 0.8, 0));
        assert_eq!(s.documents.seconds_per_hit(), 3600.0);
        assert_eq!(s.implications(TaskKind::Esa, 2, 100).minutes_per_hit, 60.0);
        // 1,500 source words at 0.8 s: 20 minutes, whatever the minutes say.
        s.documents.hit_words = 1500;
        assert!((s.documents.seconds_per_hit() - 1200.0).abs() < 1e-9);
        let i = s.implications(TaskKind::Esa, 2, 100);
        assert!((i.minutes_per_hit - 20.0).abs() < 1e-9, "{i:?}");
        // Segments of 20 words at 0.8 s: 75 per HIT, less 10 for the two copied documents.
        assert_eq!(i.system_items_per_hit, 65);
        assert_eq!(i.hits, 200usize.div_ceil(65));
    }
}

#[cfg(test)]
mod read_tests {
    use super::*;

    #[test]
    fn a_design_sent_without_wording_gets_its_tasks_wording() {
        let sent: CampaignSettings = serde_json::from_str(r#"{"target_language": "German", "wording": {"next_label": "Weiter"}}"#).unwrap();
        let ranking = sent.clone().with_task_wording(TaskKind::Ranking);
        assert_eq!(ranking.wording.statement, "Rank the translations from best to worst (ties are allowed).");
        assert_eq!(ranking.wording.next_label, "Weiter", "what the organizer wrote stays");
        let fluency = sent.clone().with_task_wording(TaskKind::DaFluency);
        assert!(fluency.wording.statement.ends_with("the text is fluent German."), "{}", fluency.wording.statement);
        assert_eq!(sent.clone().with_task_wording(TaskKind::DaAdequacy), sent);
    }

    #[test]
    fn read_takes_the_task_defaults_and_every_well_formed_field() {
        // Nothing stored, or not JSON: the task's defaults.
        let wo = CampaignSettings::read("", TaskKind::WordOrder, "English", "Czech");
        assert_eq!(wo, CampaignSettings::for_task(TaskKind::WordOrder, "English", "Czech"));
        assert_eq!(CampaignSettings::read("[1]", TaskKind::DaFluency, "German", "English").hit_length, 100);
        // Fields that read well are taken, the others keep their defaults, one by one.
        let s = CampaignSettings::read(
            r#"{"hit_length": 60, "redundancy": "three", "degradation": "shuffle", "payment_currency": "EUR",
                "wording": {"next_label": " Weiter ", "anchor_low": "", "statement": 7, "unknown": "x"},
                "woj_scale": "sliders", "allow_skip": true, "no_such_field": 1}"#,
            TaskKind::DaFluency,
            "German",
            "English",
        );
        assert_eq!(s.hit_length, 60);
        assert_eq!(s.redundancy, 1, "a number field given as text keeps its default");
        assert_eq!(s.degradation, DegradationPolicy::Delete, "an unknown policy keeps the default");
        assert_eq!(s.payment_currency, "EUR");
        assert_eq!(s.wording.next_label, "Weiter");
        assert_eq!(s.wording.anchor_low, "strongly disagree", "a blank text keeps its default");
        assert!(s.wording.statement.ends_with("the text is fluent German."), "{}", s.wording.statement);
        assert_eq!(s.word_order.scale, "sliders");
        assert!(s.allow_skip);
        // Word order keeps its own defaults where the JSON is silent.
        let w = CampaignSettings::read(r#"{"redundancy": 2}"#, TaskKind::WordOrder, "English", "Czech");
        assert_eq!((w.hit_length, w.redundancy, w.word_order.permutations), (50, 2, 25));
        assert!(w.wording.instructions.contains("Czech"));
    }

    #[test]
    fn read_gives_back_stored_settings_whole_or_field_by_field() {
        // Settings as a campaign stores them (every field, all well formed) read back as they
        // were: the reading of every field at once.
        let mut stored = CampaignSettings::for_task(TaskKind::Mqm, "German", "English");
        stored.hit_length = 40;
        stored.redundancy = 3;
        stored.practice_pass = 2;
        stored.mqm.taxonomy = crate::protocol::mqm::Taxonomy::parse("Accuracy/Omission\nOther").unwrap();
        stored.mqm.critical = true;
        stored.wording.next_label = "Weiter".into();
        let json = serde_json::to_string(&stored).unwrap();
        assert_eq!(CampaignSettings::read(&json, TaskKind::Mqm, "German", "English"), stored);
        // A field that does not read (MQM's, with a category given twice) keeps its default and
        // the others are still taken: the field by field reading.
        let mut value = serde_json::to_value(&stored).unwrap();
        value["mqm"]["taxonomy"] = serde_json::json!(["Other", "other"]);
        let s = CampaignSettings::read(&value.to_string(), TaskKind::Mqm, "German", "English");
        assert_eq!(s.mqm, crate::protocol::mqm::MqmSettings::default());
        assert_eq!((s.hit_length, s.redundancy, s.practice_pass), (40, 3, 2));
        assert_eq!(s.wording.next_label, "Weiter");
    }
}

#[cfg(test)]
mod per_protocol_tests {
    use super::*;

    /// Settings JSON as campaigns stored it before each protocol had its own struct (every key
    /// of the flat struct of 44 fields, the protocols' ones set away from their defaults).
    const STORED_BEFORE: &str = r#"{
        "hit_length": 40, "bad_refs": 3, "repeats": 2, "refs": 1, "ref_item_reference": "ref-B", "sets": 4,
        "woj_permutations": 12, "woj_same_reference_pairs": 3, "woj_max_degree": 9,
        "judgments_wanted": 33, "wanted_per": "segment", "redundancy": 2, "degradation": "replace-phrase",
        "payment_per_hit": 1.5, "payment_currency": "EUR", "time_floor_seconds": 120,
        "assignment_timeout_minutes": 30, "idle_gap_seconds": 20, "seconds_per_fluency_judgment": 11.0,
        "seconds_per_adequacy_judgment": 17.0, "target_language": "German", "source_language_name": "English",
        "woj_scale": "sliders", "allow_skip": true,
        "rank_outputs": 4, "rank_blocks_per_screen": 2, "rank_show_reference": true, "rank_gold_blocks": 1,
        "rank_gold_threshold": 0.65, "rank_gold_min_pairs": 8,
        "practice_items": 4, "practice_pass": 3, "interface_language": "de", "public_title": "Übersetzungen",
        "document_context": "whole", "document_score": true, "hit_minutes": 45.0, "seconds_per_source_word": 0.9,
        "hit_words": 700, "show_prefilled": false,
        "mqm": {"taxonomy": ["Accuracy/Omission", "Other"], "critical": true},
        "wording": {"next_label": "Weiter"},
        "thin_evidence": "hold", "accept_thin_evidence": true
    }"#;

    /// The flat struct's keys, as the designer sent and the database stored them.
    const KEYS_BEFORE: [&str; 44] = [
        "hit_length", "bad_refs", "repeats", "refs", "ref_item_reference", "sets", "woj_permutations",
        "woj_same_reference_pairs", "woj_max_degree", "judgments_wanted", "wanted_per", "redundancy", "degradation",
        "payment_per_hit", "payment_currency", "time_floor_seconds", "assignment_timeout_minutes", "idle_gap_seconds",
        "seconds_per_fluency_judgment", "seconds_per_adequacy_judgment", "target_language", "source_language_name",
        "woj_scale", "allow_skip", "rank_outputs", "rank_blocks_per_screen", "rank_show_reference", "rank_gold_blocks",
        "rank_gold_threshold", "rank_gold_min_pairs", "practice_items", "practice_pass", "interface_language",
        "public_title", "document_context", "document_score", "hit_minutes", "seconds_per_source_word", "hit_words",
        "show_prefilled", "mqm", "wording", "thin_evidence", "accept_thin_evidence",
    ];

    #[test]
    fn settings_stored_before_the_per_protocol_structs_read_to_the_same_values() {
        for task in TaskKind::ALL {
            let s = CampaignSettings::read(STORED_BEFORE, task, "German", "English");
            assert_eq!(
                s.word_order,
                crate::protocol::word_order::WordOrderSettings { permutations: 12, same_reference_pairs: 3, max_degree: 9, scale: "sliders".into() }
            );
            assert_eq!(
                s.ranking,
                RankingSettings { outputs: 4, blocks_per_screen: 2, show_reference: true, gold_blocks: 1, gold_threshold: 0.65, gold_min_pairs: 8 }
            );
            assert_eq!(
                s.documents,
                DocumentSettings { context: DocumentContext::Whole, score: true, hit_minutes: 45.0, seconds_per_source_word: 0.9, hit_words: 700, show_prefilled: false }
            );
            // A pairwise design stored before kept its reference choice in ranking's key.
            assert_eq!(s.pairwise.show_reference, None);
            assert_eq!(s.shows_reference(task), matches!(crate::protocol::for_task(task).hit_plan(), HitPlan::Blocks | HitPlan::Pairs), "{task:?}");
            assert!(s.mqm.critical);
            assert_eq!(s.mqm.taxonomy.categories.len(), 2);
            assert_eq!((s.hit_length, s.bad_refs, s.repeats, s.refs, s.sets), (40, 3, 2, 1, 4));
            assert_eq!(s.ref_item_reference.as_deref(), Some("ref-B"));
            assert_eq!((s.judgments_wanted, s.wanted_per, s.redundancy, s.degradation), (33, WantedPer::Segment, 2, DegradationPolicy::ReplacePhrase));
            assert_eq!((s.payment_per_hit, s.payment_currency.as_str(), s.time_floor_seconds), (1.5, "EUR", 120));
            assert_eq!((s.assignment_timeout_minutes, s.idle_gap_seconds), (30, 20));
            assert_eq!((s.seconds_per_fluency_judgment, s.seconds_per_adequacy_judgment), (11.0, 17.0));
            assert!(s.allow_skip && s.accept_thin_evidence);
            assert_eq!((s.practice_items, s.practice_pass), (4, 3));
            assert_eq!((s.interface_language.as_str(), s.public_title.as_str()), ("de", "Übersetzungen"));
            assert_eq!((s.thin_evidence, s.wording.next_label.as_str()), (ThinEvidence::Hold, "Weiter"));
        }
    }

    #[test]
    fn the_stored_json_keeps_the_flat_keys_and_round_trips() {
        let s = CampaignSettings::read(STORED_BEFORE, TaskKind::Ranking, "German", "English");
        let v = serde_json::to_value(&s).unwrap();
        let keys: std::collections::BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        // Every key of before, at the top level and nothing nested under a protocol's name; the
        // new keys are pairwise's own, not given (null) in a design stored before it, and the
        // adaptive design (a design of the campaign, not of a protocol: one nested object, off
        // when not given).
        let mut expected: std::collections::BTreeSet<&str> = KEYS_BEFORE.into_iter().collect();
        expected.insert("pair_show_reference");
        expected.insert("adaptive");
        // Post-editing's own keys (false when not given).
        expected.insert("pe_from_scratch");
        expected.insert("pe_show_reference");
        assert_eq!(keys, expected);
        assert_eq!((v["rank_outputs"].as_u64(), v["woj_scale"].as_str(), v["document_context"].as_str()), (Some(4), Some("sliders"), Some("whole")));
        assert_eq!((v["hit_words"].as_u64(), &v["pair_show_reference"]), (Some(700), &serde_json::Value::Null));
        // Written and read back, by serde and by the one reader: the same settings.
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<CampaignSettings>(&json).unwrap(), s);
        assert_eq!(CampaignSettings::read(&json, TaskKind::Ranking, "German", "English"), s);
        // Each protocol's settings change on their own: pairwise's reference, once chosen, is
        // not ranking's (the one new key, `pair_show_reference`).
        let mut own = s.clone();
        own.pairwise.show_reference = Some(false);
        let json = serde_json::to_string(&own).unwrap();
        assert!(json.contains(r#""pair_show_reference":false"#), "{json}");
        for read in [CampaignSettings::read(&json, TaskKind::Pairwise, "German", "English"), serde_json::from_str(&json).unwrap()] {
            assert_eq!(read, own);
            assert!(!read.shows_reference(TaskKind::Pairwise) && read.shows_reference(TaskKind::Ranking));
        }
    }

    #[test]
    fn a_protocol_field_that_does_not_read_keeps_its_default_alone() {
        // A flattened field given badly keeps its default; its neighbours in the same struct
        // and the common fields are still taken (the field by field reading).
        let s = CampaignSettings::read(
            r#"{"rank_outputs": "four", "rank_gold_min_pairs": 7, "document_context": "sideways", "hit_words": 900, "woj_max_degree": -3, "redundancy": 3}"#,
            TaskKind::Ranking,
            "German",
            "English",
        );
        assert_eq!((s.ranking.outputs, s.ranking.gold_min_pairs), (crate::protocol::ranking::DEFAULT_OUTPUTS, 7));
        assert_eq!((s.documents.context, s.documents.hit_words), (DocumentContext::Left, 900));
        assert_eq!((s.word_order.max_degree, s.redundancy), (18, 3));
        // Partial JSON straight through serde: each struct's missing fields are its defaults.
        let partial: CampaignSettings = serde_json::from_str(r#"{"rank_outputs": 3, "show_prefilled": false}"#).unwrap();
        assert_eq!(partial.ranking, RankingSettings { outputs: 3, ..RankingSettings::default() });
        assert_eq!(partial.documents, DocumentSettings { show_prefilled: false, ..DocumentSettings::default() });
        assert_eq!(partial.word_order, crate::protocol::word_order::WordOrderSettings::default());
    }
}
