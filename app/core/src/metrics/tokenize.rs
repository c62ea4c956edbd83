//! sacrebleu's tokenizers, reproduced from its source (version [`super::SACREBLEU_VERSION`]):
//! `13a` (mteval-v13a, the default), `zh`, `intl` (mteval-v14 international), `char` and
//! `none`. Also the parts of Python's string handling that the metrics depend on: what
//! `str.split()`, `str.strip()` and `str.rstrip()` call whitespace differs from Rust's
//! `char::is_whitespace` (Python also splits on U+001C–U+001F).

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// A tokenizer of sacrebleu, by its signature name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tokenizer {
    /// `13a`: mteval-v13a, sacrebleu's default.
    #[serde(rename = "13a")]
    Thirteen,
    /// `zh`: every Chinese character (sacrebleu's ranges, read as Python compares them) on its
    /// own, then the language-dependent part of 13a.
    #[serde(rename = "zh")]
    Zh,
    /// `intl`: mteval-v14's international tokenization (Unicode punctuation and symbols).
    #[serde(rename = "intl")]
    Intl,
    /// `char`: every character a token.
    #[serde(rename = "char")]
    Char,
    /// `none`: the text as it is.
    #[serde(rename = "none")]
    None,
}

impl Tokenizer {
    pub const ALL: [Tokenizer; 5] = [
        Tokenizer::Thirteen,
        Tokenizer::Zh,
        Tokenizer::Intl,
        Tokenizer::Char,
        Tokenizer::None,
    ];

    /// The name in sacrebleu's signature (`tok:13a`).
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::Thirteen => "13a",
            Tokenizer::Zh => "zh",
            Tokenizer::Intl => "intl",
            Tokenizer::Char => "char",
            Tokenizer::None => "none",
        }
    }

    pub fn parse(name: &str) -> Option<Tokenizer> {
        Tokenizer::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Tokenizes one line as sacrebleu's tokenizer of this name does.
    pub fn tokenize(self, line: &str) -> String {
        match self {
            Tokenizer::Thirteen => thirteen_a(line),
            Tokenizer::Zh => zh(line),
            Tokenizer::Intl => intl(line),
            Tokenizer::Char => {
                let mut out = String::with_capacity(line.len() * 2);
                for (i, c) in line.chars().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push(c);
                }
                out
            }
            Tokenizer::None => line.to_string(),
        }
    }
}

/// Python's `str.isspace()` for one character (what `str.split()` with no argument splits on):
/// bidirectional class WS, B or S, or general category Zs.
pub fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\u{1C}'..='\u{20}'
            | '\u{85}'
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
    )
}

/// Python's `s.split()`.
pub fn py_split(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// Python's `s.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(is_py_space)
}

/// Python's `s.rstrip()`.
pub fn py_rstrip(s: &str) -> &str {
    s.trim_end_matches(is_py_space)
}

/// Python's `' '.join(s.split())`.
pub(crate) fn normalize_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in py_split(s) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("a fixed pattern: {e}"))
}

/// sacrebleu's `TokenizerRegexp`, the language-dependent part of 13a (and of zh), in order:
/// symbols `[\{-\~\[-\` -\&\(-\+\:-\@\/]` apart; period and comma apart unless preceded by a
/// digit, then unless followed by one; a dash after a digit apart.
/// The first one, a one-character class replaced by itself between spaces, is applied by hand
/// (the same result: its matches cannot overlap); it matches every space, and the regular
/// expression engine's replacement with captures was most of BLEU's time.
static REGEXP_13A: LazyLock<[(Regex, &'static str); 3]> = LazyLock::new(|| {
    [
        (re(r"([^0-9])([.,])"), "${1} ${2} "),
        (re(r"([.,])([^0-9])"), " ${1} ${2}"),
        (re(r"([0-9])(-)"), "${1} ${2} "),
    ]
});

/// `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: the symbols 13a puts apart.
fn is_13a_symbol(c: char) -> bool {
    matches!(c, '\x7B'..='\x7E' | '\x5B'..='\x60' | '\x20'..='\x26' | '\x28'..='\x2B' | '\x3A'..='\x40' | '/')
}

fn post_tokenize_13a(line: &str) -> String {
    let mut first = String::with_capacity(line.len() * 2);
    for c in line.chars() {
        if is_13a_symbol(c) {
            first.push(' ');
            first.push(c);
            first.push(' ');
        } else {
            first.push(c);
        }
    }
    let mut s = std::borrow::Cow::Borrowed(first.as_str());
    for (r, rep) in REGEXP_13A.iter() {
        if let std::borrow::Cow::Owned(o) = r.replace_all(&s, *rep) {
            s = std::borrow::Cow::Owned(o);
        }
    }
    normalize_spaces(&s)
}

fn thirteen_a(line: &str) -> String {
    let mut line = line.replace("<skipped>", "").replace("-\n", "").replace('\n', " ");
    if line.contains('&') {
        line = line
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    post_tokenize_13a(&format!(" {line} "))
}

/// sacrebleu's `_UCODE_RANGES` as Python compares them: each bound is a string, and
/// `'\u20000'` is U+2000 followed by `'0'` (Python's `\u` takes four hex digits), so a single
/// character c satisfies `'\u2000' '0' <= c <= '\u2a6d' '6'` exactly when U+2000 < c ≤ U+2A6D;
/// likewise `'\u2f800'`–`'\u2fa1d'` covers U+2F81..=U+2FA1. Extension B itself is not covered.
const ZH_RANGES: [(u32, u32); 22] = [
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),
    (0x2F81, 0x2FA1),
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
];

/// Whether sacrebleu's zh tokenizer puts `c` apart.
pub fn is_zh_char(c: char) -> bool {
    let c = c as u32;
    ZH_RANGES.iter().any(|&(a, b)| a <= c && c <= b)
}

fn zh(line: &str) -> String {
    let line = py_strip(line);
    let mut out = String::with_capacity(line.len() * 2);
    for c in line.chars() {
        if is_zh_char(c) {
            out.push(' ');
            out.push(c);
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    post_tokenize_13a(&out)
}

static REGEXP_INTL: LazyLock<[(Regex, &'static str); 3]> = LazyLock::new(|| {
    [
        (re(r"(\P{N})(\p{P})"), "${1} ${2} "),
        (re(r"(\p{P})(\P{N})"), " ${1} ${2}"),
        (re(r"(\p{S})"), " ${1} "),
    ]
});

fn intl(line: &str) -> String {
    let mut s = line.to_string();
    for (r, rep) in REGEXP_INTL.iter() {
        s = r.replace_all(&s, *rep).into_owned();
    }
    normalize_spaces(&s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_whitespace_is_not_rusts() {
        assert!(is_py_space('\u{1C}') && !'\u{1C}'.is_whitespace());
        assert!(!is_py_space('\u{200B}'));
        assert_eq!(py_split(" a\u{1F}b\u{3000}c  ").collect::<Vec<_>>(), ["a", "b", "c"]);
        assert_eq!(py_strip("\u{A0} x \t"), "x");
    }

    #[test]
    fn the_hand_written_symbol_class_is_the_regular_expression() {
        let r = re(r"^[\x7B-\x7E\x5B-\x60\x20-\x26\x28-\x2B\x3A-\x40/]$");
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            assert_eq!(is_13a_symbol(c), r.is_match(c.encode_utf8(&mut [0; 4])), "{c:?}");
        }
    }

    #[test]
    fn thirteen_a_examples() {
        assert_eq!(Tokenizer::Thirteen.tokenize("Hello, world. 3.14, 1,000"), "Hello , world . 3.14 , 1,000");
        assert_eq!(Tokenizer::Thirteen.tokenize("It's 10-15"), "It's 10 - 15");
        assert_eq!(Tokenizer::Thirteen.tokenize("&quot;x&quot;"), "\" x \"");
    }

    #[test]
    fn zh_reads_the_ranges_as_python_does() {
        assert!(!is_zh_char('\u{2000}') && is_zh_char('\u{2001}'));
        assert!(is_zh_char('\u{2A6D}') && !is_zh_char('\u{2A6E}'));
        assert!(!is_zh_char('\u{20000}'));
        assert_eq!(Tokenizer::Zh.tokenize("中文abc"), "中 文 abc");
    }
}
