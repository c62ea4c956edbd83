//! Shared assembly of bundles from records (TSV, JSONL, Appraise): segments keyed by
//! (document, id), references and outputs attached with consistency checks, system names checked
//! for case-insensitive collisions.

use std::collections::{BTreeMap, HashMap};

use super::{Errors, LanguagePair, Reference, Segment, System, SystemOutput, TestSet};

/// Where a record came from, for messages.
#[derive(Clone, Debug)]
pub(crate) struct Loc {
    pub(crate) file: String,
    pub(crate) line: Option<usize>,
    /// Extra position when there is no line (`batch 2, item 7`).
    pub(crate) at: Option<String>,
}

impl Loc {
    pub(crate) fn describe(&self) -> String {
        match (&self.at, self.line) {
            (Some(a), _) => a.clone(),
            (None, Some(l)) => format!("line {l}"),
            (None, None) => self.file.clone(),
        }
    }

    pub(crate) fn err(&self, errs: &mut Errors, problem: impl Into<String>) {
        let problem = problem.into();
        let problem = match &self.at {
            Some(a) => format!("{a}: {problem}"),
            None => problem,
        };
        errs.push(&self.file, self.line, problem);
    }
}

/// Known system names; the first spelling wins and any other spelling that differs only in case
/// is an error.
#[derive(Default)]
pub(crate) struct SystemRegistry {
    by_lower: HashMap<String, String>,
}

impl SystemRegistry {
    /// Registers a name; returns it trimmed, or `None` after reporting a problem.
    pub(crate) fn register(
        &mut self,
        name: &str,
        errs: &mut Errors,
        file: &str,
        line: Option<usize>,
        at: &str,
    ) -> Option<String> {
        let name = name.trim();
        if name.is_empty() {
            errs.push(file, line, format!("{at}empty system name"));
            return None;
        }
        let lower = name.to_lowercase();
        match self.by_lower.get(&lower) {
            Some(existing) if existing != name => {
                errs.push(
                    file,
                    line,
                    format!("{at}system name `{name}` collides with `{existing}` (system names must differ ignoring case)"),
                );
                None
            }
            Some(_) => Some(name.to_string()),
            None => {
                self.by_lower.insert(lower, name.to_string());
                Some(name.to_string())
            }
        }
    }

    /// All registered systems, ordered by name.
    pub(crate) fn into_systems(self) -> Vec<System> {
        let mut names: Vec<String> = self.by_lower.into_values().collect();
        names.sort();
        names
            .into_iter()
            .map(|name| System {
                name,
                description: None,
                year: None,
            })
            .collect()
    }
}

struct SegAcc {
    seg: Segment,
    refs: BTreeMap<String, String>,
    first: Loc,
}

#[derive(Default)]
struct SetAcc {
    segments: Vec<SegAcc>,
    index: HashMap<(Option<String>, String), usize>,
    /// system → segment index → (text, where first seen)
    outputs: BTreeMap<String, HashMap<usize, (Option<String>, Loc)>>,
    /// system → segment index → pre-filled spans (checked against the output's text)
    spans: BTreeMap<String, HashMap<usize, Vec<crate::protocol::Span>>>,
}

/// Accumulates records of one import into test sets.
#[derive(Default)]
pub(crate) struct Builder {
    sets: BTreeMap<LanguagePair, SetAcc>,
    pub(crate) systems: SystemRegistry,
}

impl Builder {
    /// Adds (or finds) a segment; a second record with a different source is an error.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn segment(
        &mut self,
        errs: &mut Errors,
        pair: &LanguagePair,
        document: Option<String>,
        domain: Option<String>,
        id: String,
        source: String,
        loc: &Loc,
    ) -> Option<usize> {
        let set = self.sets.entry(pair.clone()).or_default();
        let key = (document.clone(), id.clone());
        if let Some(&i) = set.index.get(&key) {
            let acc = &set.segments[i];
            if acc.seg.source != source {
                loc.err(
                    errs,
                    format!(
                        "segment `{}` has a different source text than at {}",
                        id,
                        acc.first.describe()
                    ),
                );
                return None;
            }
            return Some(i);
        }
        let i = set.segments.len();
        set.segments.push(SegAcc {
            seg: Segment {
                id,
                document,
                domain,
                source,
                references: Vec::new(),
            },
            refs: BTreeMap::new(),
            first: loc.clone(),
        });
        set.index.insert(key, i);
        Some(i)
    }

    /// Attaches a named reference to a segment; a different text for the same name is an error.
    pub(crate) fn reference(
        &mut self,
        errs: &mut Errors,
        pair: &LanguagePair,
        seg: usize,
        name: &str,
        text: String,
        loc: &Loc,
    ) {
        let Some(acc) = self
            .sets
            .get_mut(pair)
            .and_then(|s| s.segments.get_mut(seg))
        else {
            return;
        };
        match acc.refs.get(name) {
            Some(old) if *old != text => loc.err(
                errs,
                format!(
                    "segment `{}` has a different reference `{name}` than at {}",
                    acc.seg.id,
                    acc.first.describe()
                ),
            ),
            Some(_) => {}
            None => {
                acc.refs.insert(name.to_string(), text);
            }
        }
    }

    /// Attaches a system's output (`None` = accepted empty output) to a segment; a different text
    /// for the same system and segment is an error, an identical repeat is merged.
    pub(crate) fn output(
        &mut self,
        errs: &mut Errors,
        pair: &LanguagePair,
        seg: usize,
        system: &str,
        text: Option<String>,
        loc: &Loc,
    ) {
        let Some(set) = self.sets.get_mut(pair) else {
            return;
        };
        let seg_id = set
            .segments
            .get(seg)
            .map(|s| s.seg.id.clone())
            .unwrap_or_default();
        let per = set.outputs.entry(system.to_string()).or_default();
        match per.get(&seg) {
            Some((old, first)) if *old != text => loc.err(
                errs,
                format!(
                    "system `{system}` has a different output for segment `{seg_id}` than at {}",
                    first.describe()
                ),
            ),
            Some(_) => {}
            None => {
                per.insert(seg, (text, loc.clone()));
            }
        }
    }

    /// Attaches pre-filled spans to a system's output of a segment (after [`Builder::output`]):
    /// they must fit the output's text (file and line in the error), and a second record of the
    /// same output must repeat them.
    pub(crate) fn spans(
        &mut self,
        errs: &mut Errors,
        pair: &LanguagePair,
        seg: usize,
        system: &str,
        spans: Vec<crate::protocol::Span>,
        loc: &Loc,
    ) {
        let Some(set) = self.sets.get_mut(pair) else {
            return;
        };
        let seg_id = set.segments.get(seg).map(|s| s.seg.id.clone()).unwrap_or_default();
        let Some(Some(text)) = set.outputs.get(system).and_then(|o| o.get(&seg)).map(|(t, _)| t.clone()) else {
            loc.err(errs, format!("pre-filled spans for segment `{seg_id}` of system `{system}`, which has no output to mark"));
            return;
        };
        if let Err(problem) = super::check_prefilled(&text, &spans) {
            loc.err(errs, format!("system `{system}`, segment `{seg_id}`: {problem}"));
            return;
        }
        let per = set.spans.entry(system.to_string()).or_default();
        match per.get(&seg) {
            Some(old) if *old != spans => loc.err(
                errs,
                format!("system `{system}` has different pre-filled spans for segment `{seg_id}` than before"),
            ),
            Some(_) => {}
            None => {
                per.insert(seg, spans);
            }
        }
    }

    /// Checks that every segment has a reference named `name` (when the format promised one).
    pub(crate) fn require_reference(&self, errs: &mut Errors, name: &str) {
        for set in self.sets.values() {
            for acc in &set.segments {
                if !acc.refs.contains_key(name) {
                    acc.first.err(
                        errs,
                        format!("segment `{}` has no reference (the reference is empty wherever this segment appears)", acc.seg.id),
                    );
                    if errs.full() {
                        return;
                    }
                }
            }
        }
    }

    /// Finishes into test sets, one per language pair.
    pub(crate) fn into_test_sets(self, name: &str) -> (Vec<TestSet>, Vec<System>) {
        let mut sets = Vec::new();
        for (pair, acc) in self.sets {
            let n = acc.segments.len();
            let mut all_spans = acc.spans;
            let outputs = acc
                .outputs
                .into_iter()
                .map(|(system, per)| {
                    let mut texts = vec![None; n];
                    for (i, (t, _)) in per {
                        if let Some(slot) = texts.get_mut(i) {
                            *slot = t;
                        }
                    }
                    let mut spans = Vec::new();
                    if let Some(given) = all_spans.remove(&system).filter(|g| !g.is_empty()) {
                        spans = vec![None; n];
                        for (i, s) in given {
                            if let Some(slot) = spans.get_mut(i) {
                                *slot = Some(s);
                            }
                        }
                    }
                    SystemOutput { system, texts, spans }
                })
                .collect();
            let segments = acc
                .segments
                .into_iter()
                .map(|a| {
                    let mut seg = a.seg;
                    seg.references = a
                        .refs
                        .into_iter()
                        .map(|(name, text)| Reference { name, text })
                        .collect();
                    seg
                })
                .collect();
            sets.push(TestSet {
                name: name.to_string(),
                pair,
                segments,
                outputs,
            });
        }
        (sets, self.systems.into_systems())
    }
}
