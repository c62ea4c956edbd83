//! The one place that says how long the texts Assay stores may be, and what no stored text may
//! hold. Every entry point (imports, forms, server functions, crowd links) checks its texts
//! here, so a limit is changed once and the message is the same everywhere.
//!
//! - No stored text holds NUL (U+0000): PostgreSQL cannot store it in `TEXT`, and no language
//!   needs it. One-line texts (names, labels, ids) hold no control character at all.
//! - Lengths are counted in characters (Unicode scalar values), as people count them.

/// A name people choose and read: a campaign, a test set, a study, a system, a reference.
pub const MAX_NAME_CHARS: usize = 200;

/// A short label: an API token's label, a language name shown to annotators, a currency.
pub const MAX_LABEL_CHARS: usize = 100;

/// A reason an organizer gives a worker (a rejection, a bonus): a few sentences.
pub const MAX_REASON_CHARS: usize = 2000;

/// A crowd platform's id of a worker (Mechanical Turk's `workerId` is 12–14 characters,
/// Prolific's `PROLIFIC_PID` 24) or of a work session (`assignmentId`, `SESSION_ID`), and any
/// other parameter a crowd link carries. Longer ones are refused before anything is stored.
pub const MAX_PLATFORM_ID_CHARS: usize = 64;

/// A crowd platform's address parameter (Mechanical Turk's `turkSubmitTo`).
pub const MAX_PLATFORM_URL_CHARS: usize = 200;

/// What is wrong with a text, in words the person who typed it can act on (the caller names
/// the field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextProblem {
    /// It holds NUL (U+0000).
    Nul,
    /// A one-line text holds a control character (a line break, a tab, …).
    Control,
    /// It is longer than the limit (characters).
    TooLong { max: usize, chars: usize },
    /// It is empty (or only spaces) where a text is required.
    Empty,
}

impl std::fmt::Display for TextProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextProblem::Nul => f.write_str("contains a NUL character (U+0000), which cannot be stored"),
            TextProblem::Control => f.write_str("contains a control character (a line break, a tab, …); use one line of text"),
            TextProblem::TooLong { max, chars } => write!(f, "is {chars} characters long; at most {max} are allowed"),
            TextProblem::Empty => f.write_str("is empty"),
        }
    }
}

/// Checks a text of any shape that will be stored (segments, instructions, reasons): no NUL.
pub fn check_stored(text: &str) -> Result<(), TextProblem> {
    if text.contains('\0') { Err(TextProblem::Nul) } else { Ok(()) }
}

/// Checks a one-line text (a name, a label, an id), already trimmed by the caller: not empty,
/// no NUL or other control character, at most `max` characters.
pub fn check_line(text: &str, max: usize) -> Result<(), TextProblem> {
    check_stored(text)?;
    if text.trim().is_empty() {
        return Err(TextProblem::Empty);
    }
    if text.chars().any(char::is_control) {
        return Err(TextProblem::Control);
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(TextProblem::TooLong { max, chars });
    }
    Ok(())
}

/// [`check_line`] for a name ([`MAX_NAME_CHARS`]).
pub fn check_name(text: &str) -> Result<(), TextProblem> {
    check_line(text, MAX_NAME_CHARS)
}

/// Where the first NUL is in a JSON value (a key or a string), as a path such as
/// `test_sets[0].segments[3].source`; `None` when there is none.
pub fn nul_path(value: &serde_json::Value) -> Option<String> {
    fn walk(v: &serde_json::Value, path: &mut String) -> bool {
        match v {
            serde_json::Value::String(s) => s.contains('\0'),
            serde_json::Value::Array(items) => items.iter().enumerate().any(|(i, item)| {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                let found = walk(item, path);
                if !found {
                    path.truncate(len);
                }
                found
            }),
            serde_json::Value::Object(map) => map.iter().any(|(k, item)| {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&k.replace('\0', "\\0"));
                let found = k.contains('\0') || walk(item, path);
                if !found {
                    path.truncate(len);
                }
                found
            }),
            _ => false,
        }
    }
    let mut path = String::new();
    walk(value, &mut path).then(|| if path.is_empty() { "the text".to_string() } else { path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_checked_for_nul_controls_and_length() {
        assert_eq!(check_stored("a\nb\tc"), Ok(()));
        assert_eq!(check_stored("a\0b"), Err(TextProblem::Nul));
        assert_eq!(check_name("WMT 2026 en–de"), Ok(()));
        assert_eq!(check_name("a\0"), Err(TextProblem::Nul));
        assert_eq!(check_name("a\nb"), Err(TextProblem::Control));
        assert_eq!(check_name("  "), Err(TextProblem::Empty));
        assert_eq!(check_name(&"é".repeat(MAX_NAME_CHARS)), Ok(()), "characters, not bytes");
        assert_eq!(check_name(&"x".repeat(MAX_NAME_CHARS + 1)), Err(TextProblem::TooLong { max: MAX_NAME_CHARS, chars: MAX_NAME_CHARS + 1 }));
        assert!(TextProblem::TooLong { max: 200, chars: 100_000 }.to_string().contains("at most 200"));
    }

    #[test]
    fn a_nul_is_found_anywhere_in_json_with_its_path() {
        let v = serde_json::json!({ "name": "ok", "settings": { "wording": { "instructions": "a\u{0}b" } } });
        assert_eq!(nul_path(&v).as_deref(), Some("settings.wording.instructions"));
        let v = serde_json::json!({ "sets": [{ "texts": ["x", null, "y\u{0}"] }] });
        assert_eq!(nul_path(&v).as_deref(), Some("sets[0].texts[2]"));
        assert_eq!(nul_path(&serde_json::json!({ "a": ["b", 1, { "c": "d\n" }] })), None);
    }
}
