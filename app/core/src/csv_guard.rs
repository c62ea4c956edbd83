//! The guard every CSV file Assay writes puts before a text a spreadsheet could run as a formula,
//! and its inverse for the readers. A module beneath every other so that the file formats of
//! `analysis::formats` and the protocols' own files (`protocol::pairwise::files`,
//! `metrics::postedit::files`) share one definition without importing one another.

/// Whether a spreadsheet could run `s` as a formula once its leading `'`s are taken off: it
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return.
pub fn looks_like_formula(s: &str) -> bool {
    matches!(s.trim_start_matches('\'').as_bytes().first(), Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r'))
}

/// `s` led by a `'` when a spreadsheet could run it as a formula (so is a text whose leading
/// `'`s come before such a start, so that [`spreadsheet_unguard`] can take the guard off again).
pub fn spreadsheet_guard(s: &str) -> std::borrow::Cow<'_, str> {
    if looks_like_formula(s) { format!("'{s}").into() } else { s.into() }
}

/// A text as it was before [`spreadsheet_guard`]: the one `'` put before a text that starts like
/// a formula taken off again (`spreadsheet_unguard(&spreadsheet_guard(s)) == s` for every `s`).
pub fn spreadsheet_unguard(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if looks_like_formula(rest) => rest,
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_is_taken_off_again_and_only_where_it_was_put() {
        for s in ["=1+1", "+33", "-2", "@sum", "\tx", "\rx", "'=1", "''@a", "plain", "'quoted'", "", "'", "a=b"] {
            assert_eq!(spreadsheet_unguard(&spreadsheet_guard(s)), s, "{s:?}");
        }
        assert_eq!(spreadsheet_guard("=1"), "'=1");
        assert_eq!(spreadsheet_guard("'=1"), "''=1");
        assert_eq!(spreadsheet_guard("it's"), "it's");
        assert_eq!(spreadsheet_unguard("'plain"), "'plain", "a ' the guard did not put stays");
    }
}
