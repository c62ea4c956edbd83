//! One error path (issue 37 item 3): errors are typed, not strings; the annotation domain keeps
//! the kind of a refusal it is handed; the command line has an exit code per kind of failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use app::error::AppError;
use assay_tests::assay_cli;

/// Most functions of non-test code in `app`, its core and `server` that may return
/// `Result<_, String>` (79 before issue 37's work on errors).
const MOST_STRING_RESULTS: usize = 10;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// The `.rs` files under `dir`, test files (`tests.rs`, `*_tests.rs`, a `tests/` folder) left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The text without the items under `#[cfg(test)]` (a `mod tests { … }` block, or a `mod x;`).
fn without_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("#[cfg(test)]") {
            i += 1;
            while i < lines.len() && lines[i].trim_start().starts_with("#[") {
                i += 1;
            }
            if i < lines.len() && lines[i].trim_end().ends_with(';') {
                i += 1;
                continue;
            }
            let (mut depth, mut opened) = (0i64, false);
            while i < lines.len() {
                let l = lines[i];
                depth += l.matches('{').count() as i64 - l.matches('}').count() as i64;
                opened |= l.contains('{');
                i += 1;
                if opened && depth <= 0 {
                    break;
                }
            }
            continue;
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    out
}

/// Whether the return type at the start of `ret` (what follows a `->`) is `Result<_, String>`:
/// the second of `Result`'s arguments at its top level, nested generics read through.
fn returns_string_error(ret: &str) -> bool {
    let ret = ret.trim_start();
    let Some(rest) = ret.strip_prefix("Result").or_else(|| ret.strip_prefix("std::result::Result")) else { return false };
    let Some(rest) = rest.trim_start().strip_prefix('<') else { return false };
    let (mut depth, mut args, mut current) = (1usize, Vec::new(), String::new());
    for c in rest.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            break;
        }
        if depth == 1 && c == ',' {
            args.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    args.push(current);
    args.len() == 2 && args[1].trim() == "String"
}

/// Every `Result<_, String>` written in the code: what a function or closure returns, and what a
/// field, a channel or a variable holds (an error carried as text is the same defect wherever
/// it sits; counting the returns only saw 6 of them where a grep saw 14 with the tests).
/// `AppResult<…>`, `CliResult<…>` and other aliases are not `Result`.
fn string_error_types(text: &str) -> usize {
    let code: String = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    code.match_indices("Result")
        .filter(|&(at, _)| at == 0 || !code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        .filter(|&(at, _)| returns_string_error(&code[at..]))
        .count()
}

/// `Result<_, String>` in the non-test code, per file (relative to the workspace).
fn string_results() -> BTreeMap<String, usize> {
    let root = root();
    let mut files = Vec::new();
    for dir in ["app/src", "app/core/src", "server/src"] {
        sources(&root.join(dir), &mut files);
    }
    let mut counts = BTreeMap::new();
    for f in files {
        let text = without_tests(&std::fs::read_to_string(&f).unwrap());
        let n = string_error_types(&text);
        if n > 0 {
            counts.insert(f.strip_prefix(&root).unwrap().display().to_string(), n);
        }
    }
    counts
}

#[test]
fn the_counter_reads_signatures_and_skips_tests() {
    assert!(returns_string_error(" Result<(), String> {"));
    assert!(returns_string_error(" Result<Vec<(String, u32)>, String> {"));
    assert!(returns_string_error(" Result<HashMap<String, Vec<String>>, String>;"));
    assert!(!returns_string_error(" Result<Vec<String>, AppError> {"));
    assert!(!returns_string_error(" AppResult<HashMap<i64, String>> {"));
    assert!(!returns_string_error(" Result<String, Vec<String>> {"));
    let text = "fn a() -> Result<(), String> {}\n#[cfg(test)]\nmod tests {\n    fn b() -> Result<(), String> {\n    }\n}\nfn c() {}\n";
    assert_eq!(without_tests(text), "fn a() -> Result<(), String> {}\nfn c() {}\n");
    // Fields, channels and closures count; aliases, comments and other error types do not.
    let text = "struct S { r: Result<u8, String>, t: AppResult<String> }\nlet (tx, rx) = mpsc::channel::<Result<Vec<u8>, String>>(4);\n/// Result<(), String> in a comment\nlet f = |x| -> std::result::Result<(), String> { Ok(()) };\nfn g() -> CliResult<String> {}\nfn h() -> Result<String, Error> {}\n";
    assert_eq!(string_error_types(text), 3);
}

#[test]
fn few_functions_return_a_string_as_their_error() {
    let counts = string_results();
    let total: usize = counts.values().sum();
    let listed: Vec<String> = counts.iter().map(|(f, n)| format!("  {n:3} {f}")).collect();
    println!("Result<_, String> in non-test code: {total}\n{}", listed.join("\n"));
    assert!(
        total <= MOST_STRING_RESULTS,
        "{total} Result<_, String> in functions, fields and channels (at most {MOST_STRING_RESULTS}): give them a typed error (thiserror), \
         converted into AppError where it reaches the web:\n{}",
        listed.join("\n")
    );
}

/// A refusal handed to the annotation domain keeps its kind: a HIT of another team's campaign,
/// an unknown thing, a caller without the right stay 403 and 404 (every `AppError` was turned into
/// a 500 before).
#[test]
fn work_errors_keep_not_found_and_forbidden() {
    use app::annotate::server::WorkError;
    let cases = [
        (AppError::not_found("there is no campaign with id 9"), 404),
        (AppError::forbidden("This needs the Organizer role."), 403),
        (AppError::unauthorized("Please sign in."), 401),
        (AppError::gone("this assignment has expired"), 410),
        (AppError::conflict("already answered"), 409),
        (AppError::invalid("answer", "the score must be 0 to 100"), 400),
        (AppError::busy("busy", 3), 429),
        (AppError::internal("a broken invariant"), 500),
    ];
    for (e, status) in cases {
        let message = e.public_message();
        let back = AppError::from(WorkError::from(e));
        assert_eq!((back.status().as_u16(), back.public_message()), (status, message));
    }
    // In the worker's language too: the kind is kept.
    let e = WorkError::from(AppError::forbidden("This needs the Organizer role.")).in_language(app::annotate::Lang::De);
    assert_eq!(e.status().as_u16(), 403);
}

/// A refusal of the annotation domain carries its catalog key and values; the worker's
/// language renders them (the English text is never read back into a template).
#[test]
fn refusals_carry_a_message_key_rendered_in_the_workers_language() {
    use app::annotate::server::WorkError;
    use app::i18n::{Lang, Message, Text};
    let m = Message::new(Text::ErrNotCurrent, &[("n", "4"), ("next", "3")]);
    assert_eq!(m.key(), Some(Text::ErrNotCurrent));
    assert_eq!(m.to_string(), "Item 4 is not the current item: answer item 3 next.");
    let de = WorkError::Conflict(m.clone()).in_language(Lang::De);
    assert_eq!((de.status().as_u16(), de.to_string()), (409, "Element 4 ist nicht das aktuelle Element: Beantworten Sie als Nächstes Element 3.".to_string()));
    for lang in Lang::ALL {
        assert_eq!(WorkError::Conflict(m.clone()).in_language(lang).to_string(), app::i18n::fill(lang.text(Text::ErrNotCurrent), &[("n", "4"), ("next", "3")]));
    }
    // A text the catalog does not have reads the same in every language.
    let plain = WorkError::Invalid(Message::plain("A screen's answers cannot be empty.")).in_language(Lang::Ja);
    assert_eq!((plain.status().as_u16(), plain.to_string()), (400, "A screen's answers cannot be empty.".to_string()));
}

/// `assay`'s exit codes (README, "Command line"): 2 for usage, 3 for a bad input file, 4 for
/// the database, each with its message.
#[test]
fn the_command_line_exits_with_the_code_of_its_failure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();

    // Usage: a flag's value out of range (ours), and a flag clap does not know (clap's).
    let input = dir.path().join("j.tsv");
    std::fs::write(&input, "hello world\n").unwrap();
    let r = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out, "--alpha", "2"]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("--alpha must lie strictly between 0 and 1 (got 2)"), "{err}");
    assert_eq!(assay_cli(&["analyze", "--no-such-flag"]).status.code(), Some(2));

    // A bad input file: neither a format Assay reads, nor there at all.
    let r = assay_cli(&["analyze", "--input", input.to_str().unwrap(), "--out", out]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(3), "{err}");
    assert!(err.contains("j.tsv: line 1: neither a Graham/MTurk header"), "{err}");
    let missing = dir.path().join("missing.tsv");
    let r = assay_cli(&["analyze", "--input", missing.to_str().unwrap(), "--out", out]);
    assert_eq!(r.status.code(), Some(3), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stderr).contains("cannot open"), "{}", String::from_utf8_lossy(&r.stderr));

    // The database: a DATABASE_URL of no engine Assay runs on.
    let r = std::process::Command::new(assay_tests::assay_bin())
        .args(["analyze", "--campaign", "1", "--out", out])
        .env("ASSAY_DATA_DIR", dir.path())
        .env("DATABASE_URL", "mysql://localhost/assay")
        .env("ASSAY_LOG", "warn")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(4), "{err}");
    assert!(err.contains("DATABASE_URL must start with sqlite: or postgres://"), "{err}");
    assert!(!Path::new(out).exists());
}
