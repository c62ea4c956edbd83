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
#[path = "settings_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "settings_read_tests.rs"]
mod read_tests;

#[cfg(test)]
#[path = "settings_per_protocol_tests.rs"]
mod per_protocol_tests;
