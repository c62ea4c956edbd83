//! The WMT test-set text layout (mt-metrics-eval, WMT `txt` releases):
//!
//! ```text
//! sources/SRC-TGT.txt                 one source segment per line
//! references/SRC-TGT.NAME.txt         one reference per line (NAME e.g. refA); any number
//! system-outputs/SRC-TGT/SYSTEM.txt   one output per line; SYSTEM is the file name without .txt
//! documents/SRC-TGT.docs              optional, `DOMAIN DOCNAME` per line
//! ```
//!
//! The layout may sit inside one top folder (`wmt24/sources/…`). Every file of a language pair must
//! have as many lines as its source file; segment ids are the 1-based line numbers. Files whose
//! name starts with `.` and `__MACOSX/` are skipped silently; other files outside the four folders
//! (e.g. `human-scores/`) are skipped with a note. Language pairs are `SRC-TGT` with codes checked
//! by [`LanguagePair::parse`] (`en-de`, `en-zh_Hant`, `en-cs_CZ`).

use std::collections::{BTreeMap, BTreeSet};

use super::builder::SystemRegistry;
use super::text::{Budget, is_blank, read_lines};
use super::{
    Errors, ImportBundle, ImportError, ImportOptions, ImportSource, LanguagePair, Reference,
    Segment, SystemOutput, TestSet,
};

#[derive(Default)]
struct PairFiles {
    source: Option<String>,
    documents: Option<String>,
    /// reference name → file
    references: BTreeMap<String, String>,
    /// system name → file
    systems: BTreeMap<String, String>,
}

fn hidden(path: &str) -> bool {
    path.split('/')
        .any(|c| c.starts_with('.') || c == "__MACOSX")
}

/// Imports the WMT text layout from any [`ImportSource`].
pub fn import_wmt(
    source: &mut dyn ImportSource,
    opts: &ImportOptions,
) -> Result<ImportBundle, Vec<ImportError>> {
    let limits = &opts.limits;
    let mut errs = Errors::new(limits.max_errors);
    let mut notes = Vec::new();
    let files: Vec<String> = source.files().into_iter().filter(|f| !hidden(f)).collect();

    // Find the root: the folder holding `sources/`.
    let roots: BTreeSet<String> = files
        .iter()
        .filter_map(|f| {
            let (dir, _) = f.rsplit_once('/')?;
            if dir == "sources" {
                Some(String::new())
            } else {
                dir.strip_suffix("/sources").map(|p| format!("{p}/"))
            }
        })
        .collect();
    let root = match roots.len() {
        1 => roots.into_iter().next().unwrap_or_default(),
        0 => {
            return Err(vec![ImportError::new(
                "",
                None,
                "no `sources/SRC-TGT.txt` file found: the WMT layout needs sources/, and optionally references/, system-outputs/ and documents/",
            )]);
        }
        _ => {
            return Err(vec![ImportError::new(
                "",
                None,
                format!(
                    "more than one `sources/` folder ({}); upload one test set at a time",
                    roots
                        .iter()
                        .map(|r| format!("{r}sources/"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )]);
        }
    };

    // Classify the files.
    let mut pairs: BTreeMap<String, PairFiles> = BTreeMap::new();
    let mut ignored = Vec::new();
    for f in &files {
        let Some(rel) = f.strip_prefix(&root) else {
            ignored.push(f.clone());
            continue;
        };
        let parts: Vec<&str> = rel.split('/').collect();
        match parts.as_slice() {
            ["sources", name] => match name.strip_suffix(".txt") {
                Some(p) if !p.contains('.') => pairs.entry(p.to_string()).or_default().source = Some(f.clone()),
                _ => errs.push(f, None, "a source file must be named SRC-TGT.txt, e.g. sources/en-de.txt"),
            },
            ["documents", name] => match name.strip_suffix(".docs") {
                Some(p) if !p.contains('.') => pairs.entry(p.to_string()).or_default().documents = Some(f.clone()),
                _ => errs.push(f, None, "a documents file must be named SRC-TGT.docs, e.g. documents/en-de.docs"),
            },
            ["references", name] => {
                let parsed = name.strip_suffix(".txt").and_then(|s| s.split_once('.'));
                match parsed {
                    Some((p, refname)) if !refname.is_empty() && !p.is_empty() => {
                        let pf = pairs.entry(p.to_string()).or_default();
                        let lower = refname.to_lowercase();
                        if let Some((other, other_file)) =
                            pf.references.iter().find(|(n, _)| n.to_lowercase() == lower)
                        {
                            errs.push(
                                f,
                                None,
                                format!(
                                    "reference name `{refname}` collides with `{other}` of {other_file} (reference names of a language pair must differ ignoring case)"
                                ),
                            );
                        } else {
                            pf.references.insert(refname.to_string(), f.clone());
                        }
                    }
                    _ => errs.push(
                        f,
                        None,
                        "a reference file must be named SRC-TGT.NAME.txt, e.g. references/en-de.refA.txt",
                    ),
                }
            }
            ["system-outputs", p, name] => match name.strip_suffix(".txt") {
                Some(sys) if !sys.trim().is_empty() => {
                    pairs.entry(p.to_string()).or_default().systems.insert(sys.to_string(), f.clone());
                }
                _ => errs.push(
                    f,
                    None,
                    "a system output file must be named system-outputs/SRC-TGT/SYSTEM.txt",
                ),
            },
            ["sources" | "documents" | "references" | "system-outputs", ..] => errs.push(
                f,
                None,
                "unexpected file in the WMT layout (see sources/SRC-TGT.txt, references/SRC-TGT.NAME.txt, system-outputs/SRC-TGT/SYSTEM.txt, documents/SRC-TGT.docs)",
            ),
            _ => ignored.push(f.clone()),
        }
    }
    if !ignored.is_empty() {
        let shown: Vec<&str> = ignored.iter().take(10).map(String::as_str).collect();
        let more = if ignored.len() > 10 {
            format!(" and {} more", ignored.len() - 10)
        } else {
            String::new()
        };
        notes.push(format!(
            "ignored {} file(s) outside the WMT layout: {}{more}",
            ignored.len(),
            shown.join(", ")
        ));
    }

    let mut budget = Budget::default();
    let mut systems = SystemRegistry::default();
    let mut test_sets = Vec::new();
    for (pair_name, pf) in &pairs {
        if errs.full() {
            break;
        }
        let Some(src_file) = &pf.source else {
            let orphans = pf
                .documents
                .iter()
                .chain(pf.references.values())
                .chain(pf.systems.values());
            for f in orphans {
                errs.push(
                    f,
                    None,
                    format!("language pair {pair_name} has no source file sources/{pair_name}.txt"),
                );
            }
            continue;
        };
        let pair = match LanguagePair::parse(pair_name) {
            Ok(p) => p,
            Err(e) => {
                errs.push(src_file, None, e.0);
                continue;
            }
        };
        match read_pair(
            source,
            opts,
            &mut budget,
            &mut errs,
            &mut systems,
            &pair,
            pf,
            src_file,
        ) {
            Flow::Done(ts) => test_sets.push(*ts),
            Flow::Skip => {}
            Flow::Stop => break,
        }
    }
    if test_sets.len() > 1 {
        let mut seen = BTreeSet::new();
        for ts in &test_sets {
            if !seen.insert(ts.pair.clone()) {
                errs.push(
                    "",
                    None,
                    format!(
                        "language pair {} is given twice under different spellings",
                        ts.pair
                    ),
                );
            }
        }
    }
    if !errs.is_empty() {
        return Err(errs.into_vec());
    }
    test_sets.sort_by(|a, b| a.pair.cmp(&b.pair));
    Ok(ImportBundle {
        test_sets,
        systems: systems.into_systems(),
        notes,
    })
}

enum Flow {
    Done(Box<TestSet>),
    Skip,
    Stop,
}

fn read_file_lines(
    source: &mut dyn ImportSource,
    file: &str,
    opts: &ImportOptions,
    budget: &mut Budget,
    errs: &mut Errors,
) -> Option<Vec<String>> {
    let mut reader = match source.open(file) {
        Ok(r) => r,
        Err(e) => {
            errs.add(e);
            return None;
        }
    };
    read_lines(&mut reader, file, &opts.limits, budget, errs).map(|l| l.lines)
}

fn check_count(errs: &mut Errors, file: &str, n: usize, src_file: &str, n_src: usize) -> bool {
    if n != n_src {
        errs.push(
            file,
            None,
            format!("has {n} lines but {src_file} has {n_src} lines"),
        );
        return false;
    }
    true
}

fn blank_lines(errs: &mut Errors, file: &str, lines: &[String], what: &str) {
    for (i, l) in lines.iter().enumerate() {
        if is_blank(l) {
            errs.push(
                file,
                Some(i + 1),
                format!("empty line where {what} is needed"),
            );
            if errs.full() {
                return;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn read_pair(
    source: &mut dyn ImportSource,
    opts: &ImportOptions,
    budget: &mut Budget,
    errs: &mut Errors,
    systems: &mut SystemRegistry,
    pair: &LanguagePair,
    pf: &PairFiles,
    src_file: &str,
) -> Flow {
    let Some(src) = read_file_lines(source, src_file, opts, budget, errs) else {
        return Flow::Stop;
    };
    blank_lines(errs, src_file, &src, "a source segment");
    let n = src.len();
    if n == 0 {
        errs.push(src_file, None, "source file is empty");
    }

    let mut docs: Vec<(Option<String>, Option<String>)> = vec![(None, None); n];
    if let Some(doc_file) = &pf.documents {
        let Some(lines) = read_file_lines(source, doc_file, opts, budget, errs) else {
            return Flow::Stop;
        };
        if check_count(errs, doc_file, lines.len(), src_file, n) {
            for (i, l) in lines.iter().enumerate() {
                let mut it = l.split_whitespace();
                match (it.next(), it.next(), it.next()) {
                    (Some(domain), Some(doc), None) => {
                        docs[i] = (Some(domain.to_string()), Some(doc.to_string()))
                    }
                    _ => errs.push(
                        doc_file,
                        Some(i + 1),
                        "expected `DOMAIN DOCNAME` (two fields separated by a space)",
                    ),
                }
                if errs.full() {
                    break;
                }
            }
        }
    }

    let mut refs: Vec<(String, Vec<String>)> = Vec::new();
    for (name, file) in &pf.references {
        let Some(lines) = read_file_lines(source, file, opts, budget, errs) else {
            return Flow::Stop;
        };
        if check_count(errs, file, lines.len(), src_file, n) {
            blank_lines(errs, file, &lines, "a reference");
        }
        refs.push((name.clone(), lines));
    }

    let mut outputs = Vec::new();
    for (sys, file) in &pf.systems {
        let name = systems.register(sys, errs, file, None, "");
        let Some(lines) = read_file_lines(source, file, opts, budget, errs) else {
            return Flow::Stop;
        };
        if !check_count(errs, file, lines.len(), src_file, n) {
            continue;
        }
        let mut texts = Vec::with_capacity(n);
        for (i, l) in lines.into_iter().enumerate() {
            if is_blank(&l) {
                if opts.allow_empty_outputs {
                    texts.push(None);
                    continue;
                }
                errs.push(
                    file,
                    Some(i + 1),
                    "empty line where a system output is needed",
                );
                if errs.full() {
                    break;
                }
            }
            texts.push(Some(l));
        }
        if let Some(system) = name {
            outputs.push(SystemOutput { system, texts, spans: Vec::new() });
        }
    }
    if !errs.is_empty() {
        return Flow::Skip;
    }

    let segments = src
        .into_iter()
        .enumerate()
        .map(|(i, source)| {
            let (domain, document) = docs[i].clone();
            let references = refs
                .iter()
                .map(|(name, lines)| Reference {
                    name: name.clone(),
                    text: lines[i].clone(),
                })
                .collect();
            Segment {
                id: (i + 1).to_string(),
                document,
                domain,
                source,
                references,
            }
        })
        .collect();
    outputs.sort_by(|a, b| a.system.cmp(&b.system));
    Flow::Done(Box::new(TestSet {
        name: opts.test_set_name.clone(),
        pair: pair.clone(),
        segments,
        outputs,
    }))
}
