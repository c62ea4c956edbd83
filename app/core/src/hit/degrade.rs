//! Degraded items (METHOD §3): fluency and adequacy bad references, and the word-order
//! permutations of McCaffery's thesis (seed 002). Deterministic from a seed; every function
//! returns an error — never a panic, never the unchanged input — when it cannot degrade.
//!
//! Tokenisation: whitespace words for space-delimited scripts; grapheme clusters for
//! scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar, Tibetan),
//! chosen from a language code or detected from the Unicode script of the text. In
//! grapheme mode whitespace is kept attached to the grapheme before it. Right-to-left text
//! is handled in logical order like any other text.

use std::collections::HashSet;
use std::fmt;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

/// How a text is cut into units ("words") for degradation (METHOD §3, Tokenization).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Segmentation {
    /// Whitespace-separated words; the output is re-joined with single spaces.
    Words,
    /// Extended grapheme clusters (for scripts written without spaces).
    Graphemes,
}

/// Language codes (ISO 639-1/3, optionally with a region or script tag) of languages
/// written without spaces between words.
const SPACELESS_LANGUAGES: &[&str] = &["zh", "ja", "th", "lo", "km", "my", "bo", "yue", "wuu"];

fn is_spaceless_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x31F0..=0x31FF // Katakana extensions
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xF900..=0xFAFF // CJK compatibility ideographs
        | 0xFF66..=0xFF9F // half-width Katakana
        | 0x20000..=0x2FA1F // CJK extensions B–F, compatibility supplement
        | 0x0E00..=0x0E7F // Thai
        | 0x0E80..=0x0EFF // Lao
        | 0x1780..=0x17FF // Khmer
        | 0x1000..=0x109F // Myanmar
        | 0x0F00..=0x0FFF // Tibetan
    )
}

impl Segmentation {
    /// The segmentation for a language code (`"zh"`, `"ja-JP"`, `"th"` → graphemes), or
    /// `None` when the code is empty.
    pub fn for_language(code: &str) -> Option<Segmentation> {
        let primary = code
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if primary.is_empty() {
            return None;
        }
        Some(if SPACELESS_LANGUAGES.contains(&primary.as_str()) {
            Segmentation::Graphemes
        } else {
            Segmentation::Words
        })
    }

    /// Detects the segmentation from the text's script: graphemes when most letters belong
    /// to a script written without spaces.
    pub fn detect(text: &str) -> Segmentation {
        let (mut spaceless, mut letters) = (0usize, 0usize);
        for c in text.chars().filter(|c| c.is_alphanumeric()) {
            letters += 1;
            if is_spaceless_script(c) {
                spaceless += 1;
            }
        }
        if letters > 0 && spaceless * 2 > letters {
            Segmentation::Graphemes
        } else {
            Segmentation::Words
        }
    }

    /// The language code's segmentation if given, else detection from the text.
    pub fn choose(text: &str, language: Option<&str>) -> Segmentation {
        language
            .and_then(Segmentation::for_language)
            .unwrap_or_else(|| Segmentation::detect(text))
    }
}

/// Cuts a text into units (METHOD §3 Tokenization).
pub fn tokenize(text: &str, seg: Segmentation) -> Vec<String> {
    match seg {
        Segmentation::Words => text.split_whitespace().map(str::to_string).collect(),
        Segmentation::Graphemes => {
            let mut units: Vec<String> = Vec::new();
            for g in text.trim().graphemes(true) {
                if g.chars().all(char::is_whitespace) {
                    if let Some(last) = units.last_mut() {
                        last.push_str(g);
                    }
                } else {
                    units.push(g.to_string());
                }
            }
            units
        }
    }
}

/// Joins units back into a text (inverse of [`tokenize`] up to whitespace normalisation).
pub fn join(units: &[String], seg: Segmentation) -> String {
    match seg {
        Segmentation::Words => units.join(" "),
        Segmentation::Graphemes => units.concat().trim_end().to_string(),
    }
}

/// The unit without the whitespace that grapheme mode attaches to it.
fn core_of(unit: &str) -> &str {
    unit.trim_end()
}

/// The number of words k an adequacy bad reference deletes from a text of n words
/// (METHOD §3; EACL L1472–1481, ceiling for n > 20). 0 for n < 2 (n = 1 is replaced).
pub fn deletion_length(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        2..=3 => 1,
        4..=5 => 2,
        6..=8 => 3,
        9..=15 => 4,
        16..=20 => 5,
        _ => n.div_ceil(5),
    }
}

/// The adequacy bad-reference policy (METHOD §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum AdequacyPolicy {
    /// Delete one contiguous run of k words (EACL 2014). The default.
    #[default]
    Delete,
    /// Replace the run with a same-length phrase from another reference (Graham 2016,
    /// Appraise).
    ReplaceWithPhrase,
}

/// Word-order permutation types (METHOD §3; thesis L1995–2118).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WordOrderKind {
    /// Degree k moves k distinct words by k, k−1, …, 1 positions (Algorithm 3, L2001–2029).
    Order,
    /// k/2 disjoint pairs of words swapped (L2031–2035; no POS constraint without a tagger).
    Swap,
    /// Contiguous blocks totalling k words moved to word boundaries (Algorithm 4,
    /// L2037–2079; blocks of ≤ 9 words, chosen at random without a parser).
    Phrase,
    /// k words replaced by words of the MT hypothesis, no order change (Algorithm 5,
    /// L2081–2118; no POS constraint without a tagger).
    Choice,
}

impl WordOrderKind {
    /// All four kinds in the thesis's order.
    pub const ALL: [WordOrderKind; 4] = [
        WordOrderKind::Order,
        WordOrderKind::Swap,
        WordOrderKind::Phrase,
        WordOrderKind::Choice,
    ];

    /// The thesis's name (`order`, `swap`, `phrase`, `choice`).
    pub fn as_str(self) -> &'static str {
        match self {
            WordOrderKind::Order => "order",
            WordOrderKind::Swap => "swap",
            WordOrderKind::Phrase => "phrase",
            WordOrderKind::Choice => "choice",
        }
    }
}

/// What degradation to apply (METHOD §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Degradation {
    /// Fluency bad reference: 2 words duplicated.
    Fluency,
    /// Adequacy bad reference.
    Adequacy(AdequacyPolicy),
    /// Word-order permutation of a reference.
    WordOrder { kind: WordOrderKind, degree: usize },
}

/// Everything a degrader may need besides the text and the seed.
#[derive(Clone, Copy, Debug, Default)]
pub struct DegradeContext<'a> {
    /// Forced segmentation; `None` = from `language`, else detected from the text.
    pub segmentation: Option<Segmentation>,
    /// Target-language code, used to choose the segmentation.
    pub language: Option<&'a str>,
    /// Texts of other segments of the campaign (adequacy: one-word replacement and the
    /// replace-with-phrase policy).
    pub donors: &'a [&'a str],
    /// The MT hypothesis (word-order `choice` takes its replacement words from it).
    pub hypothesis: Option<&'a str>,
}

/// Why a text cannot be degraded. The builder can then choose another item.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DegradeError {
    #[error("the text has no words to degrade")]
    Empty,
    #[error(
        "cannot make a fluency bad reference from this {words}-word text: no two words can be copied to a place that is neither first nor last nor next to the same word"
    )]
    FluencyNoInsertionPoint { words: usize },
    #[error(
        "a one-word text is degraded by replacing its word with a word of another segment, but no other segment of the campaign offers a different word"
    )]
    NoDonorWord,
    #[error(
        "no other reference of the campaign has a run of {words} words different from the one to replace"
    )]
    NoDonorPhrase { words: usize },
    #[error("a permutation degree must be at least 1")]
    DegreeZero,
    #[error(
        "`{kind}` of degree {degree} is impossible on a text of {words} movable words (at most {max})"
    )]
    DegreeTooHigh {
        kind: &'static str,
        degree: usize,
        words: usize,
        max: usize,
    },
    #[error("`swap` swaps pairs of words, so its degree must be even, not {degree}")]
    OddSwapDegree { degree: usize },
    #[error(
        "`{kind}` of degree {degree} left the text unchanged on every attempt (are its words all identical?)"
    )]
    NoChange { kind: &'static str, degree: usize },
    #[error("`choice` needs the MT hypothesis to take replacement words from")]
    ChoiceNeedsHypothesis,
    #[error(
        "`choice` of degree {degree} needs {degree} hypothesis words absent from the reference, but found only {found}"
    )]
    NotEnoughChoiceWords { degree: usize, found: usize },
}

/// One word copied (fluency) or moved (word order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordMove {
    pub word: String,
    /// Index of the word in the original text's units.
    pub from: usize,
    /// Index of the copy / moved word in the degraded text's units.
    pub to: usize,
}

/// What a degrader changed, for the organiser's preview (METHOD §3 "previewable").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// Fluency: copies inserted.
    Duplicated { copies: Vec<WordMove> },
    /// Adequacy: a run deleted, starting at unit `start`.
    Deleted { start: usize, words: Vec<String> },
    /// Adequacy (n = 1 or replacement policy): a run replaced by donor words.
    Replaced {
        start: usize,
        removed: Vec<String>,
        inserted: Vec<String>,
    },
    /// `order` / `phrase`: words moved (indices in the original and in the result).
    Moved { moves: Vec<WordMove> },
    /// `swap`: pairs of unit indices whose words were exchanged.
    Swapped { pairs: Vec<(usize, usize)> },
    /// `choice`: (unit index, old word, new word).
    Chosen {
        replacements: Vec<(usize, String, String)>,
    },
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Duplicated { copies } => {
                let parts: Vec<String> = copies
                    .iter()
                    .map(|m| {
                        format!(
                            "copied “{}” (word {}) to word {}",
                            m.word,
                            m.from + 1,
                            m.to + 1
                        )
                    })
                    .collect();
                write!(f, "{}", parts.join("; "))
            }
            Change::Deleted { start, words } => write!(
                f,
                "deleted {} word(s) from word {}: “{}”",
                words.len(),
                start + 1,
                words.join(" ")
            ),
            Change::Replaced {
                start,
                removed,
                inserted,
            } => write!(
                f,
                "replaced “{}” (from word {}) with “{}”",
                removed.join(" "),
                start + 1,
                inserted.join(" ")
            ),
            Change::Moved { moves } => {
                // In the organizer's words: how far each word went, and never a word that
                // ended where it began (the others moved around it).
                let parts: Vec<String> = moves
                    .iter()
                    .filter(|m| m.from != m.to)
                    .map(|m| {
                        let (n, way) = if m.to > m.from {
                            (m.to - m.from, "later")
                        } else {
                            (m.from - m.to, "earlier")
                        };
                        format!(
                            "moved “{}” {} word{} {}",
                            m.word,
                            n,
                            if n == 1 { "" } else { "s" },
                            way
                        )
                    })
                    .collect();
                if parts.is_empty() {
                    write!(f, "changed the order of the words")
                } else {
                    write!(f, "{}", parts.join("; "))
                }
            }
            Change::Swapped { pairs } => {
                let parts: Vec<String> = pairs
                    .iter()
                    .map(|(a, b)| format!("swapped words {} and {}", a + 1, b + 1))
                    .collect();
                write!(f, "{}", parts.join("; "))
            }
            Change::Chosen { replacements } => {
                let parts: Vec<String> = replacements
                    .iter()
                    .map(|(i, old, new)| format!("word {}: “{old}” → “{new}”", i + 1))
                    .collect();
                write!(f, "{}", parts.join("; "))
            }
        }
    }
}

/// A degraded text and what was changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Degraded {
    pub text: String,
    pub segmentation: Segmentation,
    pub change: Change,
}

/// A per-item seed from a campaign seed and an item number (SplitMix64), so each item's
/// degradation is reproducible on its own.
pub fn item_seed(campaign_seed: u64, item: u64) -> u64 {
    let mut z = campaign_seed ^ item.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Applies `how` to `text`, deterministically from `seed` (METHOD §3).
pub fn degrade(
    text: &str,
    how: &Degradation,
    ctx: &DegradeContext<'_>,
    seed: u64,
) -> Result<Degraded, DegradeError> {
    let seg = ctx
        .segmentation
        .unwrap_or_else(|| Segmentation::choose(text, ctx.language));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let units = tokenize(text, seg);
    let (out, change) = match *how {
        Degradation::Fluency => fluency_units(&units, &mut rng)?,
        Degradation::Adequacy(policy) => {
            let donors: Vec<Vec<String>> = ctx.donors.iter().map(|d| tokenize(d, seg)).collect();
            adequacy_units(&units, policy, &donors, &mut rng)?
        }
        Degradation::WordOrder { kind, degree } => {
            let hyp = ctx.hypothesis.map(|h| tokenize(h, seg));
            permute_units(&units, kind, degree, hyp.as_deref(), &mut rng)?
        }
    };
    Ok(Degraded {
        text: join(&out, seg),
        segmentation: seg,
        change,
    })
}

/// Fluency bad reference (METHOD §3; EACL L1449–1453, LAW L5192–5195): two words are
/// chosen and a copy of each is inserted elsewhere, never first or last, never next to the
/// original (nor next to any other unit with the same text). The text grows by 2 units.
pub fn fluency_units(
    units: &[String],
    rng: &mut ChaCha8Rng,
) -> Result<(Vec<String>, Change), DegradeError> {
    if units.is_empty() {
        return Err(DegradeError::Empty);
    }
    let legal = |seq: &[String], word: &str| -> Vec<usize> {
        // Inserting before index j (1..len) keeps the copy off the first and last place.
        (1..seq.len())
            .filter(|&j| core_of(&seq[j - 1]) != word && core_of(&seq[j]) != word)
            .collect()
    };
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.shuffle(rng);
    for (ai, &a) in order.iter().enumerate() {
        let wa = core_of(&units[a]);
        let mut slots_a = legal(units, wa);
        slots_a.shuffle(rng);
        for &ja in &slots_a {
            let mut seq = units.to_vec();
            seq.insert(ja, units[a].clone());
            for &b in order.iter().skip(ai + 1).chain(order.iter().take(ai)) {
                let wb = core_of(&units[b]);
                let slots_b = legal(&seq, wb);
                if slots_b.is_empty() {
                    continue;
                }
                let jb = slots_b[rng.random_range(0..slots_b.len())];
                seq.insert(jb, units[b].clone());
                let pos_a = if jb <= ja { ja + 1 } else { ja };
                let copies = vec![
                    WordMove {
                        word: wa.to_string(),
                        from: a,
                        to: pos_a,
                    },
                    WordMove {
                        word: wb.to_string(),
                        from: b,
                        to: jb,
                    },
                ];
                return Ok((seq, Change::Duplicated { copies }));
            }
        }
    }
    Err(DegradeError::FluencyNoInsertionPoint { words: units.len() })
}

/// Adequacy bad reference (METHOD §3; EACL L1454–1481): deletes a contiguous run of
/// [`deletion_length`] units, or replaces it with a donor phrase (policy); a one-unit text
/// has its unit replaced by a random, different unit of a donor.
pub fn adequacy_units(
    units: &[String],
    policy: AdequacyPolicy,
    donors: &[Vec<String>],
    rng: &mut ChaCha8Rng,
) -> Result<(Vec<String>, Change), DegradeError> {
    let n = units.len();
    if n == 0 {
        return Err(DegradeError::Empty);
    }
    if n == 1 {
        let word = core_of(&units[0]);
        let mut order: Vec<usize> = (0..donors.len()).collect();
        order.shuffle(rng);
        for d in order {
            let mut ws: Vec<&String> = donors[d].iter().filter(|w| core_of(w) != word).collect();
            if ws.is_empty() {
                continue;
            }
            ws.shuffle(rng);
            let new = core_of(ws[0]).to_string();
            return Ok((
                vec![new.clone()],
                Change::Replaced {
                    start: 0,
                    removed: vec![word.to_string()],
                    inserted: vec![new],
                },
            ));
        }
        return Err(DegradeError::NoDonorWord);
    }
    let k = deletion_length(n);
    let start = rng.random_range(0..=n - k);
    let removed: Vec<String> = units[start..start + k]
        .iter()
        .map(|u| core_of(u).to_string())
        .collect();
    match policy {
        AdequacyPolicy::Delete => {
            let mut out = units[..start].to_vec();
            out.extend_from_slice(&units[start + k..]);
            Ok((
                out,
                Change::Deleted {
                    start,
                    words: removed,
                },
            ))
        }
        AdequacyPolicy::ReplaceWithPhrase => {
            let mut order: Vec<usize> = (0..donors.len()).collect();
            order.shuffle(rng);
            for d in order {
                let donor = &donors[d];
                if donor.len() < k {
                    continue;
                }
                let mut starts: Vec<usize> = (0..=donor.len() - k).collect();
                starts.shuffle(rng);
                for s in starts {
                    let phrase: Vec<String> = donor[s..s + k]
                        .iter()
                        .map(|u| core_of(u).to_string())
                        .collect();
                    if phrase != removed {
                        let mut out = units[..start].to_vec();
                        // Keep the whitespace that followed the replaced run (grapheme mode).
                        let mut inserted_units = phrase.clone();
                        let tail_ws = &units[start + k - 1][core_of(&units[start + k - 1]).len()..];
                        if let Some(last) = inserted_units.last_mut() {
                            last.push_str(tail_ws);
                        }
                        out.extend(inserted_units);
                        out.extend_from_slice(&units[start + k..]);
                        return Ok((
                            out,
                            Change::Replaced {
                                start,
                                removed,
                                inserted: phrase,
                            },
                        ));
                    }
                }
            }
            Err(DegradeError::NoDonorPhrase { words: k })
        }
    }
}

/// Characters that count as attached punctuation at the start of a word (thesis L1974,
/// plus their typographic and non-Latin equivalents).
const LEADING_PUNCT: &[char] = &[
    '(', '\'', '`', '"', '“', '‘', '«', '„', '¿', '¡', '「', '『', '（', '[',
];
/// … and at the end of a word.
const TRAILING_PUNCT: &[char] = &[
    '.', '?', '!', ':', ',', ';', ')', '\'', '`', '"', '”', '’', '»', '…', '،', '؛', '؟', '।',
    '。', '，', '、', '！', '？', '：', '；', '」', '』', '）', ']', '׃',
];

/// A unit split into (leading punctuation, core word, trailing punctuation + whitespace).
struct Token {
    lead: String,
    core: String,
    trail: String,
}

fn split_token(unit: &str) -> Token {
    let body = unit.trim_end();
    let ws = &unit[body.len()..];
    let core_start = body
        .char_indices()
        .find(|(_, c)| !LEADING_PUNCT.contains(c))
        .map(|(i, _)| i)
        .unwrap_or(body.len());
    let rest = &body[core_start..];
    let core_end = rest
        .char_indices()
        .rev()
        .find(|(_, c)| !TRAILING_PUNCT.contains(c))
        .map(|(i, c)| i + c.len_utf8())
        .unwrap_or(0);
    Token {
        lead: body[..core_start].to_string(),
        core: rest[..core_end].to_string(),
        trail: format!("{}{}", &rest[core_end..], ws),
    }
}

/// Word-order permutation of a reference (METHOD §3; thesis L1966–2118). Punctuation
/// attached to a word stays at its position and the words move under it (the METHOD's
/// reading of the transfer rule, L1974); tokens that are only punctuation never move.
pub fn permute_units(
    units: &[String],
    kind: WordOrderKind,
    degree: usize,
    hypothesis: Option<&[String]>,
    rng: &mut ChaCha8Rng,
) -> Result<(Vec<String>, Change), DegradeError> {
    if units.is_empty() {
        return Err(DegradeError::Empty);
    }
    if degree == 0 {
        return Err(DegradeError::DegreeZero);
    }
    let tokens: Vec<Token> = units.iter().map(|u| split_token(u)).collect();
    // Positions of movable words (non-empty core) in the unit list.
    let slots: Vec<usize> = (0..tokens.len())
        .filter(|&i| !tokens[i].core.is_empty())
        .collect();
    let m = slots.len();
    let cores: Vec<&str> = slots.iter().map(|&i| tokens[i].core.as_str()).collect();
    let too_high = |max: usize| DegradeError::DegreeTooHigh {
        kind: kind.as_str(),
        degree,
        words: m,
        max,
    };
    let rebuild = |new_cores: &[String]| -> Vec<String> {
        let mut out: Vec<String> = tokens
            .iter()
            .map(|t| format!("{}{}{}", t.lead, t.core, t.trail))
            .collect();
        for (k, &i) in slots.iter().enumerate() {
            let t = &tokens[i];
            out[i] = format!("{}{}{}", t.lead, new_cores[k], t.trail);
        }
        out
    };
    const ATTEMPTS: usize = 32;
    match kind {
        WordOrderKind::Order => {
            if degree >= m {
                return Err(too_high(m.saturating_sub(1)));
            }
            for _ in 0..ATTEMPTS {
                if let Some((seq, moved)) = order_attempt(m, degree, rng) {
                    let new: Vec<String> = seq.iter().map(|&i| cores[i].to_string()).collect();
                    if new.iter().map(String::as_str).ne(cores.iter().copied()) {
                        let moves = moved
                            .into_iter()
                            .map(|id| {
                                let to = seq.iter().position(|&x| x == id).unwrap_or(id);
                                WordMove {
                                    word: cores[id].to_string(),
                                    from: slots[id],
                                    to: slots[to],
                                }
                            })
                            .collect();
                        return Ok((rebuild(&new), Change::Moved { moves }));
                    }
                }
            }
            Err(DegradeError::NoChange {
                kind: kind.as_str(),
                degree,
            })
        }
        WordOrderKind::Swap => {
            if degree % 2 == 1 {
                return Err(DegradeError::OddSwapDegree { degree });
            }
            if degree > m {
                return Err(too_high(m - m % 2));
            }
            for _ in 0..ATTEMPTS {
                let mut pos: Vec<usize> = (0..m).collect();
                pos.shuffle(rng);
                let mut used = vec![false; m];
                let mut pairs = Vec::new();
                for x in 0..m {
                    if pairs.len() == degree / 2 {
                        break;
                    }
                    let a = pos[x];
                    if used[a] {
                        continue;
                    }
                    if let Some(&b) = pos[x + 1..]
                        .iter()
                        .find(|&&b| !used[b] && cores[b] != cores[a])
                    {
                        used[a] = true;
                        used[b] = true;
                        pairs.push((a.min(b), a.max(b)));
                    }
                }
                if pairs.len() == degree / 2 {
                    let mut new: Vec<String> = cores.iter().map(|c| c.to_string()).collect();
                    for &(a, b) in &pairs {
                        new.swap(a, b);
                    }
                    let pairs = pairs
                        .into_iter()
                        .map(|(a, b)| (slots[a], slots[b]))
                        .collect();
                    return Ok((rebuild(&new), Change::Swapped { pairs }));
                }
            }
            Err(DegradeError::NoChange {
                kind: kind.as_str(),
                degree,
            })
        }
        WordOrderKind::Phrase => {
            if degree >= m {
                return Err(too_high(m.saturating_sub(1)));
            }
            for _ in 0..ATTEMPTS {
                if let Some((seq, moved)) = phrase_attempt(m, degree, rng) {
                    let new: Vec<String> = seq.iter().map(|&i| cores[i].to_string()).collect();
                    if new.iter().map(String::as_str).ne(cores.iter().copied()) {
                        let moves = moved
                            .into_iter()
                            .map(|id| {
                                let to = seq.iter().position(|&x| x == id).unwrap_or(id);
                                WordMove {
                                    word: cores[id].to_string(),
                                    from: slots[id],
                                    to: slots[to],
                                }
                            })
                            .collect();
                        return Ok((rebuild(&new), Change::Moved { moves }));
                    }
                }
            }
            Err(DegradeError::NoChange {
                kind: kind.as_str(),
                degree,
            })
        }
        WordOrderKind::Choice => {
            let hyp = hypothesis.ok_or(DegradeError::ChoiceNeedsHypothesis)?;
            if degree > m {
                return Err(too_high(m));
            }
            let in_ref: HashSet<String> = cores.iter().map(|c| c.to_lowercase()).collect();
            let mut seen = HashSet::new();
            let mut words: Vec<String> = hyp
                .iter()
                .map(|u| split_token(u).core)
                .filter(|c| !c.is_empty() && !in_ref.contains(&c.to_lowercase()))
                .filter(|c| seen.insert(c.to_lowercase()))
                .collect();
            if words.len() < degree {
                return Err(DegradeError::NotEnoughChoiceWords {
                    degree,
                    found: words.len(),
                });
            }
            words.shuffle(rng);
            let mut pos: Vec<usize> = (0..m).collect();
            pos.shuffle(rng);
            let mut new: Vec<String> = cores.iter().map(|c| c.to_string()).collect();
            let mut replacements = Vec::with_capacity(degree);
            for (&p, w) in pos.iter().zip(words).take(degree) {
                replacements.push((slots[p], cores[p].to_string(), w.clone()));
                new[p] = w;
            }
            replacements.sort();
            Ok((rebuild(&new), Change::Chosen { replacements }))
        }
    }
}

/// One try of Algorithm 3 (`order`) on word ids 0..m: for distance = degree down to 1,
/// move a not-yet-moved word by ±distance (only directions that stay inside the sentence —
/// the thesis leaves the out-of-range case open, ambiguity 9).
fn order_attempt(
    m: usize,
    degree: usize,
    rng: &mut ChaCha8Rng,
) -> Option<(Vec<usize>, Vec<usize>)> {
    let mut seq: Vec<usize> = (0..m).collect();
    let mut used = vec![false; m];
    let mut moved = Vec::with_capacity(degree);
    for dist in (1..=degree).rev() {
        let candidates: Vec<usize> = (0..m)
            .filter(|&p| !used[seq[p]] && (p + dist < m || p >= dist))
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let p = candidates[rng.random_range(0..candidates.len())];
        let right = p + dist < m;
        let left = p >= dist;
        let go_right = match (right, left) {
            (true, true) => rng.random_bool(0.5),
            (r, _) => r,
        };
        let w = seq.remove(p);
        used[w] = true;
        moved.push(w);
        let target = if go_right { p + dist } else { p - dist };
        seq.insert(target, w);
    }
    Some((seq, moved))
}

/// One try of `phrase` without a parser: non-overlapping blocks of ≤ 9 words totalling
/// `degree`, moved in descending size to a random word boundary outside every chosen block
/// (Algorithm 4, L2037–2079).
fn phrase_attempt(
    m: usize,
    degree: usize,
    rng: &mut ChaCha8Rng,
) -> Option<(Vec<usize>, Vec<usize>)> {
    // Block sizes: prefer ≥ 2 words so a block is a phrase, not a single word.
    let mut sizes = Vec::new();
    let mut left = degree;
    while left > 0 {
        let lo = left.min(2);
        let hi = left.min(9);
        let s = rng.random_range(lo..=hi);
        sizes.push(s);
        left -= s;
    }
    sizes.shuffle(rng);
    // Place blocks left to right with random gaps summing to m − degree.
    let free = m - degree;
    let mut cuts: Vec<usize> = (0..sizes.len())
        .map(|_| rng.random_range(0..=free))
        .collect();
    cuts.sort_unstable();
    let mut blocks: Vec<Vec<usize>> = Vec::with_capacity(sizes.len());
    let mut pos = 0;
    let mut prev_cut = 0;
    for (s, cut) in sizes.iter().zip(cuts) {
        pos += cut - prev_cut;
        prev_cut = cut;
        blocks.push((pos..pos + s).collect());
        pos += s;
    }
    let mut in_block = vec![false; m];
    for b in &blocks {
        for &w in b {
            in_block[w] = true;
        }
    }
    blocks.sort_by_key(|b| std::cmp::Reverse(b.len()));
    let mut seq: Vec<usize> = (0..m).collect();
    let mut moved = Vec::new();
    for b in &blocks {
        let start = seq.iter().position(|&x| x == b[0])?;
        let len = b.len();
        let block: Vec<usize> = seq.drain(start..start + len).collect();
        // Boundary j (insert before seq[j]) is inside another chosen block when both
        // neighbours belong to that same block.
        let boundaries: Vec<usize> = (0..=seq.len())
            .filter(|&j| j != start)
            .filter(|&j| {
                !(j > 0
                    && j < seq.len()
                    && in_block[seq[j - 1]]
                    && in_block[seq[j]]
                    && blocks
                        .iter()
                        .any(|o| o.contains(&seq[j - 1]) && o.contains(&seq[j])))
            })
            .collect();
        if boundaries.is_empty() {
            return None;
        }
        let j = boundaries[rng.random_range(0..boundaries.len())];
        moved.extend_from_slice(&block);
        seq.splice(j..j, block);
    }
    Some((seq, moved))
}

/// One line of a degradation preview: the original, and the degraded text with what
/// changed or the reason it cannot be degraded (METHOD §3 "previewable").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preview {
    pub original: String,
    pub result: Result<(String, String), DegradeError>,
}

/// Degrades each text for display before launch (METHOD §3). Text *i* uses
/// `item_seed(seed, i)`; the other texts of the list serve as donors, after `ctx.donors`.
pub fn preview(
    texts: &[&str],
    how: &Degradation,
    ctx: &DegradeContext<'_>,
    seed: u64,
) -> Vec<Preview> {
    texts
        .iter()
        .enumerate()
        .map(|(i, &text)| {
            let donors: Vec<&str> = ctx
                .donors
                .iter()
                .copied()
                .chain(
                    texts
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, t)| *t),
                )
                .collect();
            let local = DegradeContext {
                donors: &donors,
                ..*ctx
            };
            Preview {
                original: text.to_string(),
                result: degrade(text, how, &local, item_seed(seed, i as u64))
                    .map(|d| (d.text, d.change.to_string())),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 18 item 8: the designer's preview read "moved “a” from word 5 to word 5".
    #[test]
    fn moved_words_are_described_plainly() {
        let m = |word: &str, from, to| WordMove {
            word: word.into(),
            from,
            to,
        };
        let change = Change::Moved {
            moves: vec![m("a", 4, 4), m("house", 1, 4), m("red", 6, 5)],
        };
        assert_eq!(
            change.to_string(),
            "moved “house” 3 words later; moved “red” 1 word earlier"
        );
        assert_eq!(
            Change::Moved {
                moves: vec![m("a", 4, 4)]
            }
            .to_string(),
            "changed the order of the words"
        );
    }
    use proptest::prelude::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    fn sorted(mut v: Vec<String>) -> Vec<String> {
        v.sort();
        v
    }

    /// Punctuation shape per position: (lead, trail) of every unit.
    fn punct_shape(units: &[String]) -> Vec<(String, String)> {
        units
            .iter()
            .map(|u| {
                let t = split_token(u);
                (t.lead, t.trail)
            })
            .collect()
    }

    #[test]
    fn deletion_length_table() {
        let expect = [
            (2, 1),
            (3, 1),
            (4, 2),
            (5, 2),
            (6, 3),
            (8, 3),
            (9, 4),
            (15, 4),
            (16, 5),
            (20, 5),
            (21, 5),
            (25, 5),
            (26, 6),
            (30, 6),
            (31, 7),
            (100, 20),
        ];
        for (n, k) in expect {
            assert_eq!(deletion_length(n), k, "n = {n}");
        }
        for n in 2..500 {
            assert!(
                deletion_length(n + 1) >= deletion_length(n),
                "non-decreasing at {n}"
            );
            assert!(deletion_length(n) >= 1 && deletion_length(n) < n);
        }
    }

    #[test]
    fn segmentation_by_language_and_script() {
        assert_eq!(
            Segmentation::for_language("zh-Hans"),
            Some(Segmentation::Graphemes)
        );
        assert_eq!(
            Segmentation::for_language("ja_JP"),
            Some(Segmentation::Graphemes)
        );
        assert_eq!(
            Segmentation::for_language("th"),
            Some(Segmentation::Graphemes)
        );
        assert_eq!(Segmentation::for_language("ar"), Some(Segmentation::Words));
        assert_eq!(Segmentation::for_language(""), None);
        assert_eq!(
            Segmentation::detect("我们今天去北京。"),
            Segmentation::Graphemes
        );
        assert_eq!(
            Segmentation::detect("今日は東京へ行きます。"),
            Segmentation::Graphemes
        );
        assert_eq!(
            Segmentation::detect("ฉันไปตลาดเมื่อวานนี้"),
            Segmentation::Graphemes
        );
        assert_eq!(
            Segmentation::detect("ذهبت إلى السوق أمس"),
            Segmentation::Words
        );
        assert_eq!(
            Segmentation::detect("הלכתי לשוק אתמול"),
            Segmentation::Words
        );
        assert_eq!(Segmentation::detect("The cat sat."), Segmentation::Words);
        // Graphemes, not code points: a combining sequence and a flag stay whole.
        let g = tokenize("e\u{301}🇫🇷好 字", Segmentation::Graphemes);
        assert_eq!(g, vec!["e\u{301}", "🇫🇷", "好 ", "字"]);
        assert_eq!(join(&g, Segmentation::Graphemes), "e\u{301}🇫🇷好 字");
    }

    #[test]
    fn fluency_refuses_short_texts() {
        for t in [&["one"][..], &["one", "two"][..], &["a", "a", "a"][..]] {
            assert_eq!(
                fluency_units(&words(t), &mut rng(1)).unwrap_err(),
                DegradeError::FluencyNoInsertionPoint { words: t.len() }
            );
        }
        assert_eq!(
            fluency_units(&[], &mut rng(1)).unwrap_err(),
            DegradeError::Empty
        );
        // Three distinct words are enough: a b c → e.g. a b a c … with both copies placed.
        let (out, _) = fluency_units(&words(&["a", "b", "c"]), &mut rng(1)).unwrap();
        assert_eq!(out.len(), 5);
    }

    #[test]
    fn adequacy_one_word_uses_a_donor_word() {
        let donors = vec![words(&["hello", "world"]), words(&["word"])];
        let (out, change) = adequacy_units(
            &words(&["word"]),
            AdequacyPolicy::Delete,
            &donors,
            &mut rng(3),
        )
        .unwrap();
        assert_eq!(out.len(), 1);
        assert!(["hello", "world"].contains(&out[0].as_str()));
        assert!(matches!(change, Change::Replaced { .. }));
        let only_same = vec![words(&["word"])];
        assert_eq!(
            adequacy_units(
                &words(&["word"]),
                AdequacyPolicy::Delete,
                &only_same,
                &mut rng(3)
            )
            .unwrap_err(),
            DegradeError::NoDonorWord
        );
        assert_eq!(
            adequacy_units(
                &words(&["a", "b", "c", "d", "e", "f"]),
                AdequacyPolicy::ReplaceWithPhrase,
                &[words(&["x", "y"])],
                &mut rng(3)
            )
            .unwrap_err(),
            DegradeError::NoDonorPhrase { words: 3 }
        );
    }

    #[test]
    fn right_to_left_texts_are_degraded_in_logical_order() {
        let ar = "ذهبت إلى السوق أمس واشتريت الخبز والحليب، ثم عدت إلى البيت؟";
        let he = "הלכתי לשוק אתמול וקניתי לחם, חלב וגבינה.";
        for (text, lang) in [(ar, "ar"), (he, "he")] {
            let ctx = DegradeContext {
                language: Some(lang),
                donors: &[he, ar],
                ..Default::default()
            };
            let units = tokenize(text, Segmentation::Words);
            let f = degrade(text, &Degradation::Fluency, &ctx, 5).unwrap();
            assert_eq!(f.segmentation, Segmentation::Words);
            assert_eq!(
                tokenize(&f.text, Segmentation::Words).len(),
                units.len() + 2
            );
            let a = degrade(
                text,
                &Degradation::Adequacy(AdequacyPolicy::Delete),
                &ctx,
                5,
            )
            .unwrap();
            assert_eq!(
                tokenize(&a.text, Segmentation::Words).len(),
                units.len() - deletion_length(units.len())
            );
            let o = degrade(
                text,
                &Degradation::WordOrder {
                    kind: WordOrderKind::Order,
                    degree: 3,
                },
                &ctx,
                5,
            )
            .unwrap();
            let out = tokenize(&o.text, Segmentation::Words);
            assert_eq!(punct_shape(&out), punct_shape(&units), "{}", o.text);
            assert_ne!(o.text, text);
        }
        // The Arabic comma and question mark stay where they were.
        let ctx = DegradeContext::default();
        let o = degrade(
            ar,
            &Degradation::WordOrder {
                kind: WordOrderKind::Swap,
                degree: 4,
            },
            &ctx,
            8,
        )
        .unwrap();
        assert!(o.text.ends_with('؟'));
        assert_eq!(o.text.matches('،').count(), 1);
    }

    #[test]
    fn spaceless_scripts_are_degraded_by_grapheme() {
        let zh = "我们今天下午去北京看朋友。";
        let ctx = DegradeContext::default();
        let a = degrade(zh, &Degradation::Adequacy(AdequacyPolicy::Delete), &ctx, 2).unwrap();
        assert_eq!(a.segmentation, Segmentation::Graphemes);
        let n = zh.chars().count();
        assert_eq!(a.text.chars().count(), n - deletion_length(n));
        assert!(!a.text.contains(' '));
        let ja = "今日は東京へ行きます";
        let ctx = DegradeContext {
            language: Some("ja"),
            ..Default::default()
        };
        let f = degrade(ja, &Degradation::Fluency, &ctx, 2).unwrap();
        assert_eq!(f.text.chars().count(), ja.chars().count() + 2);
        let th = "ฉันไปตลาดเมื่อวานนี้";
        let o = degrade(
            th,
            &Degradation::WordOrder {
                kind: WordOrderKind::Order,
                degree: 2,
            },
            &ctx,
            4,
        )
        .unwrap();
        let mut a: Vec<&str> = th.graphemes(true).collect();
        let mut b: Vec<&str> = o.text.graphemes(true).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
        assert_ne!(o.text, th);
    }

    #[test]
    fn thesis_table_6_1_reference_keeps_punctuation_in_place() {
        let r = "At the same time she's a usurper and wants to cook him to death, adds Bajgar.";
        let units = tokenize(r, Segmentation::Words);
        let ctx = DegradeContext {
            hypothesis: Some(
                "But at the same time, he's an usurper, and he wants to take care of his husband to death, Bajgar said.",
            ),
            ..Default::default()
        };
        for (kind, degree) in [
            (WordOrderKind::Order, 1),
            (WordOrderKind::Order, 5),
            (WordOrderKind::Order, 15),
            (WordOrderKind::Swap, 2),
            (WordOrderKind::Phrase, 3),
            (WordOrderKind::Phrase, 7),
            (WordOrderKind::Choice, 3),
        ] {
            for seed in 0..20 {
                let d = degrade(r, &Degradation::WordOrder { kind, degree }, &ctx, seed).unwrap();
                let out = tokenize(&d.text, Segmentation::Words);
                assert_eq!(out.len(), units.len());
                assert_eq!(
                    punct_shape(&out),
                    punct_shape(&units),
                    "{kind:?} {degree}: {}",
                    d.text
                );
                assert!(d.text.ends_with("Bajgar.") || !out[15].starts_with("Bajgar"));
                assert!(out[13].ends_with(','), "{}", d.text);
                assert_ne!(d.text, r);
            }
        }
        // `choice` only takes hypothesis words absent from the reference.
        let d = degrade(
            r,
            &Degradation::WordOrder {
                kind: WordOrderKind::Choice,
                degree: 3,
            },
            &ctx,
            1,
        )
        .unwrap();
        let Change::Chosen { replacements } = &d.change else {
            panic!("{:?}", d.change)
        };
        assert_eq!(replacements.len(), 3);
        for (_, _, new) in replacements {
            assert!(!r.to_lowercase().split_whitespace().any(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'') == new.to_lowercase()
            }));
        }
    }

    #[test]
    fn word_order_errors() {
        let ctx = DegradeContext::default();
        let t = "one two three";
        let wo = |kind, degree| Degradation::WordOrder { kind, degree };
        assert_eq!(
            degrade(t, &wo(WordOrderKind::Order, 0), &ctx, 1).unwrap_err(),
            DegradeError::DegreeZero
        );
        assert!(matches!(
            degrade(t, &wo(WordOrderKind::Order, 3), &ctx, 1).unwrap_err(),
            DegradeError::DegreeTooHigh {
                max: 2,
                words: 3,
                ..
            }
        ));
        assert_eq!(
            degrade(t, &wo(WordOrderKind::Swap, 1), &ctx, 1).unwrap_err(),
            DegradeError::OddSwapDegree { degree: 1 }
        );
        assert_eq!(
            degrade("a a a a", &wo(WordOrderKind::Swap, 2), &ctx, 1).unwrap_err(),
            DegradeError::NoChange {
                kind: "swap",
                degree: 2
            }
        );
        assert_eq!(
            degrade(t, &wo(WordOrderKind::Choice, 1), &ctx, 1).unwrap_err(),
            DegradeError::ChoiceNeedsHypothesis
        );
        let ctx = DegradeContext {
            hypothesis: Some("one two four"),
            ..Default::default()
        };
        assert_eq!(
            degrade(t, &wo(WordOrderKind::Choice, 2), &ctx, 1).unwrap_err(),
            DegradeError::NotEnoughChoiceWords {
                degree: 2,
                found: 1
            }
        );
        assert_eq!(
            degrade("  ", &Degradation::Fluency, &ctx, 1).unwrap_err(),
            DegradeError::Empty
        );
    }

    #[test]
    fn preview_reports_changes_and_refusals() {
        let texts = [
            "The cat sat on the mat today.",
            "Hi",
            "A dog barked loudly at night.",
        ];
        let p = preview(
            &texts,
            &Degradation::Adequacy(AdequacyPolicy::Delete),
            &DegradeContext::default(),
            9,
        );
        assert_eq!(p.len(), 3);
        let (deg, what) = p[0].result.clone().unwrap();
        assert_ne!(deg, texts[0]);
        assert!(what.starts_with("deleted 3 word(s)"), "{what}");
        // "Hi" has one word: replaced by a word of another text of the list.
        let (deg, what) = p[1].result.clone().unwrap();
        assert!(texts[0].contains(&deg) || texts[2].contains(&deg), "{deg}");
        assert!(what.starts_with("replaced “Hi”"), "{what}");
        let f = preview(&texts, &Degradation::Fluency, &DegradeContext::default(), 9);
        assert!(f[1].result.is_err());
        assert!(
            f[1].result
                .clone()
                .unwrap_err()
                .to_string()
                .contains("1-word")
        );
    }

    fn sentence() -> impl Strategy<Value = Vec<String>> {
        // A small vocabulary makes repeated words common; some words carry punctuation.
        let word = prop::sample::select(vec![
            "the", "cat", "sat", "on", "mat", "\"quoted", "end.", "(paren", "comma,", "why?",
            "the", "a", "dog", "ran",
        ]);
        prop::collection::vec(word.prop_map(str::to_string), 1..40)
    }

    fn distinct_sentence() -> impl Strategy<Value = Vec<String>> {
        (3usize..40).prop_map(|n| (0..n).map(|i| format!("w{i}")).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn fluency_rules(units in sentence(), seed in any::<u64>()) {
            match fluency_units(&units, &mut rng(seed)) {
                Ok((out, Change::Duplicated { copies })) => {
                    prop_assert_eq!(out.len(), units.len() + 2);
                    prop_assert_eq!(copies.len(), 2);
                    let mut rest = out.clone();
                    let mut pos: Vec<usize> = copies.iter().map(|c| c.to).collect();
                    pos.sort_unstable();
                    for c in &copies {
                        prop_assert!(c.to != 0 && c.to != out.len() - 1, "copy first or last");
                        prop_assert_eq!(&out[c.to], &c.word);
                        prop_assert_eq!(&units[c.from], &c.word);
                        prop_assert!(out[c.to - 1] != c.word && out[c.to + 1] != c.word, "copy next to the same word");
                    }
                    rest.remove(pos[1]);
                    rest.remove(pos[0]);
                    prop_assert_eq!(&rest, &units);
                    prop_assert_ne!(join(&out, Segmentation::Words), join(&units, Segmentation::Words));
                }
                Ok((_, other)) => prop_assert!(false, "unexpected change {:?}", other),
                Err(e) => prop_assert_eq!(e, DegradeError::FluencyNoInsertionPoint { words: units.len() }),
            }
        }

        #[test]
        fn fluency_always_succeeds_on_distinct_words(units in distinct_sentence(), seed in any::<u64>()) {
            prop_assert!(fluency_units(&units, &mut rng(seed)).is_ok());
        }

        #[test]
        fn adequacy_deletion_rules(units in sentence(), seed in any::<u64>()) {
            let donors = vec![words(&["x", "y", "z", "q", "r", "s", "t", "u", "v", "w"])];
            let n = units.len();
            let (out, change) = adequacy_units(&units, AdequacyPolicy::Delete, &donors, &mut rng(seed)).unwrap();
            if n == 1 {
                prop_assert_eq!(out.len(), 1);
                prop_assert!(donors[0].contains(&out[0]));
            } else {
                let k = deletion_length(n);
                prop_assert_eq!(out.len(), n - k);
                let Change::Deleted { start, words } = change else { panic!("{change:?}") };
                prop_assert_eq!(words.len(), k);
                let mut expect = units[..start].to_vec();
                expect.extend_from_slice(&units[start + k..]);
                prop_assert_eq!(&out, &expect);
            }
            prop_assert_ne!(join(&out, Segmentation::Words), join(&units, Segmentation::Words));
            // Same seed, same output.
            let again = adequacy_units(&units, AdequacyPolicy::Delete, &donors, &mut rng(seed)).unwrap();
            prop_assert_eq!(again.0, out);
        }

        #[test]
        fn adequacy_replacement_rules(units in sentence(), seed in any::<u64>()) {
            let donors = vec![words(&["x", "y", "z", "q", "r", "s", "t", "u", "v", "w"])];
            let n = units.len();
            let (out, change) = adequacy_units(&units, AdequacyPolicy::ReplaceWithPhrase, &donors, &mut rng(seed)).unwrap();
            prop_assert_eq!(out.len(), n);
            let Change::Replaced { start, removed, inserted } = change else { panic!("{change:?}") };
            prop_assert_eq!(removed.len(), inserted.len());
            prop_assert_eq!(removed.len(), deletion_length(n).max(1));
            prop_assert!(donors[0].windows(inserted.len()).any(|w| w == &inserted[..]));
            prop_assert_eq!(&out[..start], &units[..start]);
            prop_assert_eq!(&out[start + inserted.len()..], &units[start + inserted.len()..]);
            prop_assert_ne!(out, units);
        }

        #[test]
        fn permutations_keep_words_and_punctuation(units in sentence(), kind in prop::sample::select(WordOrderKind::ALL.to_vec()), degree in 1usize..19, seed in any::<u64>()) {
            let hyp = words(&["alpha", "beta,", "gamma", "delta.", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau"]);
            let r = permute_units(&units, kind, degree, Some(&hyp), &mut rng(seed));
            match r {
                Ok((out, change)) => {
                    prop_assert_eq!(out.len(), units.len());
                    prop_assert_eq!(punct_shape(&out), punct_shape(&units));
                    prop_assert_ne!(&out, &units);
                    let cores = |v: &[String]| sorted(v.iter().map(|u| split_token(u).core).collect());
                    match (kind, change) {
                        (WordOrderKind::Choice, Change::Chosen { replacements }) => {
                            prop_assert_eq!(replacements.len(), degree);
                            let changed = out.iter().zip(&units).filter(|(a, b)| a != b).count();
                            prop_assert_eq!(changed, degree);
                        }
                        (WordOrderKind::Swap, Change::Swapped { pairs }) => {
                            prop_assert_eq!(pairs.len() * 2, degree);
                            prop_assert_eq!(cores(&out), cores(&units));
                        }
                        (WordOrderKind::Order, Change::Moved { moves }) => {
                            prop_assert_eq!(moves.len(), degree);
                            let ids: HashSet<usize> = moves.iter().map(|m| m.from).collect();
                            prop_assert_eq!(ids.len(), degree, "distinct words moved");
                            prop_assert_eq!(cores(&out), cores(&units));
                        }
                        (WordOrderKind::Phrase, Change::Moved { moves }) => {
                            prop_assert_eq!(moves.len(), degree);
                            prop_assert_eq!(cores(&out), cores(&units));
                        }
                        (k, c) => prop_assert!(false, "{:?} gave {:?}", k, c),
                    }
                    let again = permute_units(&units, kind, degree, Some(&hyp), &mut rng(seed)).unwrap();
                    prop_assert_eq!(again.0, out);
                }
                Err(DegradeError::DegreeTooHigh { .. } | DegradeError::OddSwapDegree { .. } | DegradeError::NoChange { .. } | DegradeError::NotEnoughChoiceWords { .. }) => {}
                Err(e) => prop_assert!(false, "unexpected error {}", e),
            }
        }

        #[test]
        fn permutations_succeed_on_distinct_words(units in distinct_sentence(), kind in prop::sample::select(vec![WordOrderKind::Order, WordOrderKind::Phrase, WordOrderKind::Swap]), seed in any::<u64>()) {
            let n = units.len();
            let degree = match kind { WordOrderKind::Swap => 2 * (1 + seed as usize % (n / 2)), _ => 1 + seed as usize % (n - 1).min(18) };
            let r = permute_units(&units, kind, degree, None, &mut rng(seed));
            prop_assert!(r.is_ok(), "{:?} degree {} on {} words: {:?}", kind, degree, n, r.err());
        }
    }
}
