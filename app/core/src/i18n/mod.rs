//! The annotator's interface in seven languages (issue 18 item 3): English, German, Czech,
//! Chinese (Simplified), Japanese, Arabic and Hindi.
//!
//! Two catalogs, each a plain `match` per language (no dependency, nothing loaded at run time):
//! - [`Msg`]: what the annotation screens draw in the browser (buttons, progress, key legend,
//!   the reasons a button is disabled, the completion page). These are in the annotation
//!   bundle, so they are short.
//! - [`Text`]: what the server resolves before a page is sent (the default wording and
//!   instructions of each task, the refusals an annotator can meet, the practice feedback, the
//!   crowd link's pages). Only the server refers to them, so they add nothing to the bundle.
//!
//! A message may hold placeholders, `{name}`, filled by [`fill`]; every translation holds the
//! same placeholders as the English (the tests check it), in the order its language needs.
//! No message may hold or reveal a score: the screens never show a number for an answer
//! (METHOD §1).
//!
//! # Adding a message
//! 1. Add its name to the list of [`Msg`] (or [`Text`]) below, with a comment saying where it
//!    is shown.
//! 2. Add its arm to every language's `msg`/`text` function (`en.rs`, `de.rs`, `cs.rs`, `zh.rs`,
//!    `ja.rs`, `ar.rs`, `hi.rs`): the `match` is exhaustive, so the build fails until each
//!    language has it.
//! 3. Use it: `lang.msg(Msg::Name)`, or `fill(lang.msg(Msg::Name), &[("n", &n)])`.
//!
//! # Adding a language
//! A variant of [`Lang`] with its codes in [`Lang::from_tag`], a file with its two functions,
//! and its line in [`Lang::msg`], [`Lang::text`] and [`Lang::ALL`].

use serde::{Deserialize, Serialize};

mod ar;
mod cs;
mod de;
mod en;
mod hi;
mod ja;
pub mod mqm;
mod zh;

/// A language of the annotator's interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lang {
    #[default]
    En,
    De,
    Cs,
    /// Chinese in simplified characters.
    Zh,
    Ja,
    Ar,
    Hi,
}

impl Lang {
    /// Every language of the catalog.
    pub const ALL: [Lang; 7] = [Lang::En, Lang::De, Lang::Cs, Lang::Zh, Lang::Ja, Lang::Ar, Lang::Hi];

    /// The BCP 47 tag of the interface text (the `lang` attribute).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Cs => "cs",
            Lang::Zh => "zh-Hans",
            Lang::Ja => "ja",
            Lang::Ar => "ar",
            Lang::Hi => "hi",
        }
    }

    /// `rtl` for Arabic, else `ltr` (the `dir` attribute of the interface text).
    pub fn dir(self) -> &'static str {
        if self == Lang::Ar { "rtl" } else { "ltr" }
    }

    /// The language's name in itself (for a language menu).
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
            Lang::Cs => "Čeština",
            Lang::Zh => "中文（简体）",
            Lang::Ja => "日本語",
            Lang::Ar => "العربية",
            Lang::Hi => "हिन्दी",
        }
    }

    /// The catalog's language for a language tag or code (`de`, `deu`, `de-AT`, `zh-CN`,
    /// `zh-Hans`, `ara`); `None` when the catalog does not have it. Chinese in traditional
    /// characters (`zh-Hant`, `zh-TW`, `zh-HK`, `zh-MO`) is not Simplified Chinese.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim();
        let mut parts = tag.split(['-', '_']);
        let primary = parts.next()?.to_ascii_lowercase();
        let lang = match primary.as_str() {
            "en" | "eng" => Lang::En,
            "de" | "deu" | "ger" => Lang::De,
            "cs" | "ces" | "cze" => Lang::Cs,
            "zh" | "zho" | "chi" | "cmn" => Lang::Zh,
            "ja" | "jpn" => Lang::Ja,
            "ar" | "ara" | "arb" => Lang::Ar,
            "hi" | "hin" => Lang::Hi,
            _ => return None,
        };
        if lang == Lang::Zh && parts.any(|p| ["hant", "tw", "hk", "mo"].contains(&p.to_ascii_lowercase().as_str())) {
            return None;
        }
        Some(lang)
    }

    /// The first language of an `Accept-Language` header the catalog has, by the header's
    /// weights (`q`, 1 when absent; `q=0` means "not this one"), in the header's order among
    /// equal weights.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut wanted: Vec<(f32, usize, &str)> = header
            .split(',')
            .enumerate()
            .filter_map(|(i, part)| {
                let mut fields = part.split(';');
                let tag = fields.next()?.trim();
                let q = fields
                    .filter_map(|f| f.trim().strip_prefix("q="))
                    .next()
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (!tag.is_empty() && q > 0.0).then_some((q, i, tag))
            })
            .collect();
        wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        wanted.into_iter().find_map(|(_, _, tag)| Lang::from_tag(tag))
    }

    /// The interface language of a campaign's pages: the organizer's choice (`setting`, a code
    /// of the catalog) if there is one, else the campaign's target language if the catalog has
    /// it, else the browser's first language the catalog has (`accept_language`), else English.
    pub fn choose(setting: &str, target_lang: &str, accept_language: Option<&str>) -> Lang {
        Lang::from_tag(setting)
            .or_else(|| Lang::from_tag(target_lang))
            .or_else(|| accept_language.and_then(Lang::from_accept_language))
            .unwrap_or_default()
    }

    /// An interface message in this language.
    pub fn msg(self, m: Msg) -> &'static str {
        match self {
            Lang::En => en::msg(m),
            Lang::De => de::msg(m),
            Lang::Cs => cs::msg(m),
            Lang::Zh => zh::msg(m),
            Lang::Ja => ja::msg(m),
            Lang::Ar => ar::msg(m),
            Lang::Hi => hi::msg(m),
        }
    }

    /// A server-side text in this language.
    pub fn text(self, t: Text) -> &'static str {
        match self {
            Lang::En => en::text(t),
            Lang::De => de::text(t),
            Lang::Cs => cs::text(t),
            Lang::Zh => zh::text(t),
            Lang::Ja => ja::text(t),
            Lang::Ar => ar::text(t),
            Lang::Hi => hi::text(t),
        }
    }

    /// The name of a language (a code such as `de` or `deu`) as this language writes it where
    /// a sentence names the language ("fluent {target}"), or `None` when the catalog does not
    /// know its name.
    pub fn language_name(self, code: &str) -> Option<&'static str> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        let key = match primary.as_str() {
            "en" | "eng" => 0,
            "de" | "deu" | "ger" => 1,
            "cs" | "ces" | "cze" => 2,
            "zh" | "zho" | "chi" | "cmn" => 3,
            "ja" | "jpn" => 4,
            "ar" | "ara" | "arb" => 5,
            "hi" | "hin" => 6,
            "fr" | "fra" | "fre" => 7,
            "es" | "spa" => 8,
            "ru" | "rus" => 9,
            "uk" | "ukr" => 10,
            _ => return None,
        };
        Some(match self {
            Lang::En => en::NAMES[key],
            Lang::De => de::NAMES[key],
            Lang::Cs => cs::NAMES[key],
            Lang::Zh => zh::NAMES[key],
            Lang::Ja => ja::NAMES[key],
            Lang::Ar => ar::NAMES[key],
            Lang::Hi => hi::NAMES[key],
        })
    }
}

/// What the work page says before it knows the campaign: (loading, "cannot be opened"). A
/// small table of its own, so that the browser bundle, which takes every other message from the
/// server ([`Msg`] in the work state), holds no catalog.
pub fn page_words(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => ("Loading…", "This HIT cannot be opened"),
        Lang::De => ("Wird geladen …", "Dieser HIT kann nicht geöffnet werden"),
        Lang::Cs => ("Načítá se…", "Tento HIT nelze otevřít"),
        Lang::Zh => ("正在加载…", "无法打开此 HIT"),
        Lang::Ja => ("読み込み中…", "この HIT を開けません"),
        Lang::Ar => ("جارٍ التحميل…", "تعذّر فتح هذه المهمة (HIT)"),
        Lang::Hi => ("लोड हो रहा है…", "यह HIT खोला नहीं जा सकता"),
    }
}

/// Declares a message enum with the list of all its messages (for the completeness tests).
macro_rules! messages {
    ($(#[$meta:meta])* $name:ident { $($(#[$m_meta:meta])* $m:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$m_meta])* $m,)* }
        impl $name {
            /// Every message.
            pub const ALL: &'static [$name] = &[$($name::$m,)*];
        }
    };
}

messages! {
    /// The interface messages drawn by the annotation screens (in the browser bundle).
    Msg {
        /// While the HIT loads.
        Loading,
        /// Heading of the page when a HIT cannot be opened.
        CannotOpen,
        /// After a failed send of one answer.
        KeptAnswer,
        /// After a failed send of a ranking screen.
        KeptRanks,
        /// After a failed send of an error-span screen (ESA, MQM).
        KeptSpans,
        /// Slider position in words, for screen readers and practice feedback: not set.
        SliderNotSet,
        /// At an end: `{end}` is the anchor's text.
        SliderAt,
        SliderCloseTo,
        SliderLeaning,
        SliderMiddle,
        /// Under an empty slider.
        NotSetYet,
        /// The key legend.
        KeysTitle,
        KeysChooseBox,
        KeysNextQuestion,
        KeysGoOn,
        KeysToTranslation,
        KeysItsRank,
        KeysMoveLittle,
        KeysMoveMore,
        KeysEnds,
        /// Progress on one-item screens: `{n}` of `{total}`.
        Progress,
        /// Progress on ranking screens.
        ProgressRange,
        /// The start page.
        Instructions,
        HitSize,
        PracticeBefore,
        PracticeRequired,
        PracticeResume,
        StartPractice,
        Start,
        /// Practice screens.
        PracticeLabel,
        PracticeFeedbackLabel,
        StartHit,
        PracticeAgain,
        NextPractice,
        /// Why Next is disabled (DA).
        WhySlider,
        /// Word order: the two texts, the source language line, skipping.
        FirstSentence,
        SecondSentence,
        TranslationsFrom,
        Skip,
        WhyBoxesBoth,
        WhyBoxesFirst,
        WhyBoxesSecond,
        WhySlidersBoth,
        WhySliderFirst,
        WhySliderSecond,
        /// Word-order boxes, for screen readers.
        BoxEnd,
        BoxN,
        /// Ranking.
        AllRanked,
        /// One translation left to rank; `RanksLeft`: `{k}` left (a count, never a score).
        RanksLeftOne,
        RanksLeft,
        SentenceNofM,
        Sentence,
        TranslationN,
        RankBest,
        RankWorst,
        RankN,
        /// Pairwise preference: the two outputs' labels, the three choices (a radio group), the
        /// hint until one is chosen.
        PairTranslationA,
        PairTranslationB,
        PairPickA,
        PairPickB,
        PairPickSame,
        PairChoose,
        /// Post-editing: the field's label, "no change needed", the keyboard hint, the hint
        /// when the field is empty.
        PostEditField,
        PostEditUnchanged,
        PostEditKeys,
        PostEditEmpty,
        /// Contrastive ESA: the name of the switch between a screen's translations.
        ContrastiveSwitch,
        /// The completion page.
        Complete,
        Saved,
        HeldMessage,
        YourCode,
        ReturnToPlatform,
        KeepCode,
        /// The ESA/MQM screen: a severity in a sentence (announcements, a marked word's label).
        SevMinor,
        SevMajor,
        SevCritical,
        SevNeutral,
        /// The ESA/MQM screen's buttons that mark the selection.
        MarkMinor,
        MarkMajor,
        MarkCritical,
        MarkNeutral,
        /// MQM: marking before a category is chosen.
        EsaChooseCategory,
        /// MQM: the most errors per segment, `{n}`.
        EsaMaxErrors,
        /// Announced after marking: the words `{text}` and a severity word (`SevMinor`, …) `{severity}`.
        EsaMarked,
        /// Announced when a click makes an error major.
        EsaNowMajor,
        /// Announced when an error is removed.
        EsaRemoved,
        /// The [MISSING] token's label for screen readers.
        EsaMissingLabel,
        /// A marked word's label for screen readers: the word, a severity word.
        EsaWordMarked,
        /// Under the translation.
        EsaHelp,
        /// When the screen starts with pre-filled spans (ESA-AI).
        EsaPrefilled,
        /// The marking toolbar's label.
        EsaToolbar,
        /// The selection, `{text}`.
        EsaSelected,
        EsaNothingSelected,
        /// MQM: the category list's label and its empty choice.
        EsaCategory,
        EsaChoose,
        /// Cancels the selection.
        Cancel,
        /// The list of marked errors: its heading by count (`{n}` from two on).
        EsaNoErrors,
        EsaOneError,
        EsaErrorsMarked,
        /// A marked error's buttons.
        MakeMajor,
        MakeMinor,
        Remove,
        /// ESA's sliders.
        EsaScoreSegment,
        EsaScoreDocument,
        /// ESA's anchors between the ends of the slider.
        EsaAnchorSome,
        EsaAnchorMost,
        /// A low score with no error marked.
        EsaConfirm,
        /// Why Next is disabled (ESA).
        WhyEsaScore,
        WhyEsaDocument,
        /// The segment's place in its document: `{k}` of `{n}`.
        EsaSegmentOf,
        /// The document's context lists.
        EsaSoFar,
        EsaRest,
        /// The ESA screen's key legend.
        KeysToTheTranslation,
        KeysWords,
        KeysSelect,
        KeysMinor,
        KeysMajor,
        KeysChangeError,
        KeysRemove,
        KeysElsewhere,
        /// Undoing the last change of the marked errors (issue 38 item 4).
        Undo,
        EsaUndone,
        KeysUndo,
        /// A ranking HIT's size: its screens and the outputs of a sentence (issue 38 item 6).
        HitScreens,
    }
}

messages! {
    /// The texts the server resolves before a page is sent (not in the browser bundle).
    Text {
        /// DA statements (METHOD §1); fluency names the target language as `{target}`.
        StatementAdequacy,
        StatementFluency,
        StatementSource,
        StatementRanking,
        AnchorLow,
        AnchorHigh,
        WojQuestion1,
        WojQuestion2,
        WojLow1,
        WojHigh1,
        WojLow2,
        WojHigh2,
        Next,
        LabelSource,
        LabelReference,
        LabelCandidate,
        /// The default instructions page of each task (`{target}`, `{source}`: language names).
        InstructionsAdequacy,
        InstructionsFluency,
        InstructionsSource,
        InstructionsWordOrder,
        InstructionsRanking,
        /// Error spans: ESA's and MQM's statements, ESA's slider ends (Appraise's anchors at 0
        /// and 100) and their instructions pages (`{target}`, `{source}`: language names).
        StatementEsa,
        StatementMqm,
        EsaAnchorLow,
        EsaAnchorHigh,
        InstructionsEsa,
        InstructionsMqm,
        /// Refusals an annotator can meet.
        ErrNotSignedIn,
        ErrNotYours,
        ErrNotFound,
        ErrBlocked,
        ErrExpired,
        ErrReturned,
        ErrFinished,
        ErrNotStarted,
        ErrPracticeFirst,
        ErrReservationGone,
        ErrPracticeOver,
        ErrPracticeDone,
        ErrPracticeNotCurrent,
        ErrPracticeAnswered,
        ErrAnsweredAlready,
        ErrNotCurrent,
        ErrScreenAnswered,
        ErrNotOnScreen,
        ErrSameTime,
        /// Practice feedback.
        FeedbackHigh,
        FeedbackLow,
        FeedbackWojHigh,
        FeedbackWojLow,
        FeedbackSpansHigh,
        FeedbackSpansLow,
        FeedbackMqmHigh,
        FeedbackMqmLow,
        YourSpans,
        YourRating,
        YourAnswers,
        /// Practice feedback on a screen of several outputs (pairwise preference, ranking).
        FeedbackPair,
        FeedbackRanks,
        YourPick,
        YourRanks,
        VerdictIn,
        VerdictOut,
        RoundPassed,
        RoundFailed,
        /// Why a practice item is scored as it is (the quoted words are the item's own).
        ReasonSame,
        ReasonFluent,
        ReasonSourceHuman,
        ReasonHuman,
        ReasonMissing,
        ReasonReplaced,
        ReasonRepeated,
        ReasonOrder,
        ReasonChanged,
        TheSource,
        TheGrayText,
        /// The crowd link's pages.
        CrowdNoWorkTitle,
        CrowdNoWork,
        CrowdTooManyTitle,
        CrowdTooMany,
        /// The client address holds as many unstarted assignments of the campaign as it may.
        CrowdHoldsFullTitle,
        CrowdHoldsFull,
        CrowdBusyTitle,
        CrowdBusy,
        CrowdErrorTitle,
        CrowdError,
        /// A crowd link refused before its campaign is known (in the browser's language).
        LinkInvalidTitle,
        LinkInvalid,
        CampaignGoneTitle,
        CampaignGone,
        NoWorkerIdTitle,
        NoWorkerId,
        /// The Mechanical Turk preview.
        PreviewTitle,
        PreviewSample,
        PreviewAccept,
        /// The heading of a HIT's start page when the organizer gave no title for annotators
        /// (the campaign's own name is the organizers').
        WorkTitle,
        /// A signed-in annotator's home page (in the browser's language): its heading.
        HomeWelcome,
        HomeRole,
        HomeYourWork,
        HomeNoWork,
        HomeMinutesPerHit,
        HomeDone,
        HomeContinue,
        HomeStart,
        HomeYourHits,
        HomeLoadingHits,
        /// A HIT's state in the annotator's list.
        HomeFinished,
        HomeNotStarted,
        HomeItemsDone,
        HomeNoHits,
        /// Each task as the annotator's lists name it.
        HomeTaskAdequacy,
        HomeTaskFluency,
        HomeTaskSource,
        HomeTaskWordOrder,
        HomeTaskRanking,
        HomeTaskEsa,
        HomeTaskMqm,
        /// Pairwise preference: its name in the lists, statement and instructions page
        /// (`{target}`, `{source}`: language names).
        HomeTaskPairwise,
        StatementPairwise,
        InstructionsPairwise,
        /// Post-editing: its name in the lists, statement and instructions page.
        HomeTaskPostEdit,
        StatementPostEdit,
        InstructionsPostEdit,
        /// Contrastive ESA: its name in the lists, statement and instructions page; the name of
        /// the switch between its outputs (`Msg::ContrastiveSwitch`).
        HomeTaskContrastive,
        StatementContrastive,
        InstructionsContrastive,
        /// The header's button of a signed-in annotator.
        SignOut,
    }
}

/// Fills a message's placeholders: every `{name}` of `args` is replaced by its value.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}').map(|close| (&after[..close], close)) {
            Some((name, close)) if args.iter().any(|(k, _)| *k == name) => {
                out.push_str(args.iter().find(|(k, _)| *k == name).map(|(_, v)| *v).unwrap_or(""));
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholders of a message, sorted, each once (`{n}` → `n`).
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push(name);
        }
        rest = &after[close + 1..];
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Reads `text` as an instance of `template`: the values of its placeholders, or `None` when
/// the text is not one. Placeholders match as little as they can.
pub fn parse<'a>(template: &str, text: &'a str) -> Option<Vec<(String, &'a str)>> {
    // Literal pieces and the placeholder after each.
    let mut pieces: Vec<(&str, Option<&str>)> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        pieces.push((&rest[..open], Some(&after[..close])));
        rest = &after[close + 1..];
    }
    pieces.push((rest, None));
    let mut values = Vec::new();
    let mut at = 0;
    let mut pending: Option<&str> = None;
    for (i, (literal, name)) in pieces.iter().enumerate() {
        let last = i + 1 == pieces.len();
        match pending.take() {
            None => {
                if !text[at..].starts_with(literal) {
                    return None;
                }
                at += literal.len();
            }
            Some(p) => {
                let found = if last {
                    (text.len() >= at + literal.len() && text.ends_with(literal)).then(|| text.len() - literal.len())
                } else if literal.is_empty() {
                    return None;
                } else {
                    text[at..].find(literal).map(|k| at + k)
                }?;
                if found < at {
                    return None;
                }
                values.push((p.to_string(), &text[at..found]));
                at = found + literal.len();
            }
        }
        pending = *name;
    }
    if let Some(p) = pending {
        values.push((p.to_string(), &text[at..]));
        at = text.len();
    }
    (at == text.len()).then_some(values)
}

/// A message of the server catalog to be said in the reader's language: its key and the
/// values of its placeholders, rendered by the catalog of each language ([`Message::in_language`]).
/// A text the catalog does not have (a problem of an answer worded where it was found) is
/// [`Message::plain`] and reads the same in every language. Reads as its English text
/// (`Display`, and `Deref` to `str`), for logs and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    key: Option<Text>,
    args: Vec<(&'static str, String)>,
    english: String,
}

impl Message {
    /// The catalog's `key` with its placeholders' values.
    pub fn new(key: Text, args: &[(&'static str, &str)]) -> Self {
        let args: Vec<(&'static str, String)> = args.iter().map(|(k, v)| (*k, v.to_string())).collect();
        let english = Self::render(Lang::En, key, &args);
        Message { key: Some(key), args, english }
    }

    /// A text the catalog does not have: every language reads it as it is.
    pub fn plain(text: impl Into<String>) -> Self {
        Message { key: None, args: Vec::new(), english: text.into() }
    }

    /// The catalog's key, if the message has one.
    pub fn key(&self) -> Option<Text> {
        self.key
    }

    /// The message in `lang`: the catalog's text of its key with the values filled in.
    pub fn in_language(&self, lang: Lang) -> String {
        match self.key {
            Some(key) => Self::render(lang, key, &self.args),
            None => self.english.clone(),
        }
    }

    fn render(lang: Lang, key: Text, args: &[(&'static str, String)]) -> String {
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(lang.text(key), &args)
    }
}

impl From<Text> for Message {
    fn from(key: Text) -> Self {
        Message::new(key, &[])
    }
}

impl From<String> for Message {
    fn from(text: String) -> Self {
        Message::plain(text)
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Self {
        Message::plain(text)
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.english)
    }
}

impl std::ops::Deref for Message {
    type Target = str;
    fn deref(&self) -> &str {
        &self.english
    }
}

/// A practice item's reason (written in English when the campaign was launched, by
/// `hit::practice`) in `lang`: the known forms with their quoted words carried over; any other
/// text as it is.
pub fn practice_reason(lang: Lang, reason: &str) -> String {
    if lang == Lang::En {
        return reason.to_string();
    }
    for t in [Text::ReasonSame, Text::ReasonFluent, Text::ReasonSourceHuman, Text::ReasonHuman, Text::ReasonChanged] {
        if reason == Lang::En.text(t) {
            return lang.text(t).to_string();
        }
    }
    let whose = if reason.ends_with("the source says") { lang.text(Text::TheSource) } else { lang.text(Text::TheGrayText) };
    // The quoted words, in the order they appear (“…” pairs); a replacement keeps its arrow.
    let quoted = |s: &str| -> String {
        let mut words = Vec::new();
        let mut rest = s;
        while let Some(open) = rest.find('“') {
            let after = &rest[open + '“'.len_utf8()..];
            let Some(close) = after.find('”') else { break };
            words.push(format!("“{}”", &after[..close]));
            rest = &after[close + '”'.len_utf8()..];
        }
        words.join(", ")
    };
    let form = if reason.starts_with("part of the meaning is missing: ") {
        Text::ReasonMissing
    } else if reason.starts_with("words were replaced by others") {
        Text::ReasonReplaced
    } else if reason.starts_with("words are repeated where they do not belong") {
        Text::ReasonRepeated
    } else if reason.starts_with("its words are out of order") {
        Text::ReasonOrder
    } else {
        return reason.to_string();
    };
    let words = if form == Text::ReasonReplaced {
        // "“a” became “b”, …": pairs shown as “a” → “b”.
        let inner = reason.split_once('(').and_then(|(_, r)| r.rsplit_once(')')).map(|(i, _)| i).unwrap_or("");
        inner.replace(" became ", " → ").replace(" and ", ", ")
    } else {
        quoted(reason)
    };
    fill(lang.text(form), &[("words", &words), ("whose", whose)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_exists_in_every_language_with_the_english_placeholders() {
        for lang in Lang::ALL {
            for &m in Msg::ALL {
                let (en, t) = (Lang::En.msg(m), lang.msg(m));
                assert!(!t.trim().is_empty(), "{lang:?} {m:?} is empty");
                assert_eq!(placeholders(t), placeholders(en), "{lang:?} {m:?}: {t}");
                assert!(!t.contains("{{") && !t.contains("}}"), "{lang:?} {m:?}");
            }
            for &m in Text::ALL {
                let (en, t) = (Lang::En.text(m), lang.text(m));
                assert!(!t.trim().is_empty(), "{lang:?} {m:?} is empty");
                assert_eq!(placeholders(t), placeholders(en), "{lang:?} {m:?}: {t}");
            }
            for key in ["en", "de", "cs", "zh", "ja", "ar", "hi", "fr", "es", "ru", "uk"] {
                assert!(lang.language_name(key).is_some_and(|n| !n.is_empty()), "{lang:?} has no name for {key}");
            }
        }
        // The translations are translations: most differ from the English.
        for lang in Lang::ALL.into_iter().skip(1) {
            let same = Msg::ALL.iter().filter(|&&m| lang.msg(m) == Lang::En.msg(m)).count();
            assert!(same <= 3, "{lang:?}: {same} interface messages are the English ones");
            let same = Text::ALL.iter().filter(|&&m| lang.text(m) == Lang::En.text(m)).count();
            assert_eq!(same, 0, "{lang:?}: server texts equal to the English");
        }
    }

    #[test]
    fn messages_are_indexed_in_order_and_the_page_words_are_the_catalogs() {
        // The browser reads the server's list of messages by `Msg as usize`.
        for (i, &m) in Msg::ALL.iter().enumerate() {
            assert_eq!(m as usize, i);
        }
        for lang in Lang::ALL {
            assert_eq!(page_words(lang), (lang.msg(Msg::Loading), lang.msg(Msg::CannotOpen)), "{lang:?}");
        }
    }

    #[test]
    fn no_message_holds_a_digit_that_could_be_a_score() {
        // The only numbers allowed are the boxes' "5", the ranking's "1" (the best rank) and
        // Japanese "1 つ目", "2 つ目" (first, second): a
        // message never carries an answer's value (METHOD §1).
        for lang in Lang::ALL {
            for &m in Msg::ALL {
                let t = fill(lang.msg(m), &[]);
                let digits: String = t.chars().filter(char::is_ascii_digit).collect();
                assert!(digits.chars().all(|d| matches!(d, '1' | '2' | '5')), "{lang:?} {m:?}: {t}");
            }
        }
    }

    #[test]
    fn placeholders_fill_in_each_languages_order() {
        assert_eq!(fill(Lang::En.msg(Msg::Progress), &[("n", "3"), ("total", "100")]), "3 of 100");
        assert_eq!(fill(Lang::De.msg(Msg::Progress), &[("n", "3"), ("total", "100")]), "3 von 100");
        assert_eq!(fill(Lang::Ja.msg(Msg::Progress), &[("n", "3"), ("total", "100")]), "100 件中 3 件目");
        assert_eq!(fill(Lang::Hi.msg(Msg::Progress), &[("n", "3"), ("total", "100")]), "100 में से 3");
        assert_eq!(fill("{a} and {b} and {c}", &[("a", "x"), ("b", "{a}")]), "x and {a} and {c}");
        assert_eq!(placeholders("{total} 件中 {n} 件目"), vec!["n", "total"]);
    }

    #[test]
    fn languages_are_chosen_by_setting_then_target_then_browser() {
        assert_eq!(Lang::from_tag("deu"), Some(Lang::De));
        assert_eq!(Lang::from_tag("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("zh_hans"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("zh-Hant"), None);
        assert_eq!(Lang::from_tag("zh-TW"), None);
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(Lang::from_tag(""), None);
        assert_eq!(Lang::from_accept_language("fr-CH, fr;q=0.9, cs;q=0.8, de;q=0.9"), Some(Lang::De));
        assert_eq!(Lang::from_accept_language("ja;q=0, hi"), Some(Lang::Hi));
        assert_eq!(Lang::from_accept_language("*;q=0.5, fr"), None);
        assert_eq!(Lang::from_accept_language("q=;;,"), None);
        assert_eq!(Lang::choose("", "de", Some("cs")), Lang::De);
        assert_eq!(Lang::choose("", "fr", Some("fr-FR, cs;q=0.7")), Lang::Cs);
        assert_eq!(Lang::choose("", "fr", None), Lang::En);
        assert_eq!(Lang::choose("auto", "pt-BR", Some("es")), Lang::En);
        assert_eq!(Lang::choose("ja", "de", Some("cs")), Lang::Ja);
        assert_eq!((Lang::Ar.tag(), Lang::Ar.dir(), Lang::Zh.tag(), Lang::De.dir()), ("ar", "rtl", "zh-Hans", "ltr"));
        assert_eq!(serde_json::to_string(&Lang::Zh).unwrap(), "\"zh\"");
    }

    #[test]
    fn refusals_and_reasons_are_translated_with_their_values() {
        let en = Message::new(Text::ErrNotCurrent, &[("n", "4"), ("next", "3")]);
        assert_eq!(en.to_string(), "Item 4 is not the current item: answer item 3 next.");
        assert_eq!(en.in_language(Lang::De), "Element 4 ist nicht das aktuelle Element: Beantworten Sie als Nächstes Element 3.");
        assert_eq!(Message::from(Text::ErrNotFound).in_language(Lang::De), Lang::De.text(Text::ErrNotFound));
        assert_eq!(Message::plain("Something unknown.").in_language(Lang::Ar), "Something unknown.");
        assert_eq!(parse("a {x} b {y}", "a 1 b 22"), Some(vec![("x".to_string(), "1"), ("y".to_string(), "22")]));
        assert_eq!(parse("a {x} b", "a 1 c"), None);
        assert_eq!(parse("{x}.", "done."), Some(vec![("x".to_string(), "done")]));
        let missing = "part of the meaning is missing: “on Friday” was left out, so it does not say everything the gray text says";
        let de = practice_reason(Lang::De, missing);
        assert!(de.contains("„on Friday“") || de.contains("“on Friday”"), "{de}");
        assert!(de.contains(Lang::De.text(Text::TheGrayText)), "{de}");
        let replaced = "words were replaced by others that change the meaning (“a” became “b” and “c” became “d”), so it does not say what the source says";
        let cs = practice_reason(Lang::Cs, replaced);
        assert!(cs.contains("“a” → “b”, “c” → “d”") && cs.contains(Lang::Cs.text(Text::TheSource)), "{cs}");
        assert_eq!(practice_reason(Lang::Ja, Lang::En.text(Text::ReasonSame)), Lang::Ja.text(Text::ReasonSame));
        assert_eq!(practice_reason(Lang::Ja, "an organizer's own words"), "an organizer's own words");
    }
}
