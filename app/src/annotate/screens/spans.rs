//! The error-span screen, ESA and MQM (in the `spans` bundle only): the segment's document as
//! context, the translation offered word by word for marking error spans (minor or major; omissions on a
//! `[MISSING]` token), the list of marked errors, and the 0–100 score with ESA's anchors.
//!
//! Marking, the same in every script (`assay_core::protocol::esa::tokens`: words, or grapheme
//! clusters in scripts without spaces, so every span is valid by construction):
//! - mouse: drag over the words (or click one), then choose Minor or Major;
//! - touch: tap the first word, then the last, then choose;
//! - keyboard: the words are one tab stop; arrows move between them (in reading order, also in
//!   right-to-left text), Shift+arrows extend the selection, `1` marks it minor, `2` major,
//!   Enter or Space on a marked word changes it (minor → major → removed), Delete removes it;
//! - clicking a marked word changes it the same way (ESA: minor → major → removed).
//!
//! Spans are kept as character offsets of the text shown, end exclusive, and sent as they are.
//! A score below 66 with no error marked asks for confirmation (Appraise's rule).

use super::super::{ItemView, WorkState};
use super::widgets::{NextActions, Slider, Ui};
use assay_core::i18n::{Msg, fill};
use assay_core::protocol::esa::{CONFIRM_BELOW, Token, tokens};
use assay_core::protocol::{Severity, Span};
use leptos::ev;
use leptos::prelude::*;

/// What the ESA screen sends.
#[derive(Clone, Debug, PartialEq)]
pub struct EsaAnswer {
    /// ESA's 0–100 score; `None` for MQM (the server scores the errors).
    pub score: Option<f64>,
    pub spans: Vec<Span>,
    pub document_score: Option<f64>,
}

/// The text of a span as the annotator reads it (the `[MISSING]` token for an omission).
fn span_text(text: &str, s: &Span) -> String {
    if s.missing { "[MISSING]".to_string() } else { s.marked(text).unwrap_or_default().to_string() }
}

/// A severity's name in the page's markup (classes, ids, `data-severity`): never shown.
fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Major => "major",
        Severity::Critical => "critical",
        Severity::Neutral => "neutral",
        _ => "minor",
    }
}

/// A severity in a sentence, in the interface language.
fn severity_text(ui: Ui, s: Severity) -> String {
    ui.msg(match s {
        Severity::Major => Msg::SevMajor,
        Severity::Critical => Msg::SevCritical,
        Severity::Neutral => Msg::SevNeutral,
        _ => Msg::SevMinor,
    })
}

/// A button marking the selection with a severity.
fn mark_label(ui: Ui, s: Severity) -> String {
    ui.msg(match s {
        Severity::Major => Msg::MarkMajor,
        Severity::Critical => Msg::MarkCritical,
        Severity::Neutral => Msg::MarkNeutral,
        _ => Msg::MarkMinor,
    })
}

/// The MQM categories grouped by parent for the category list, with their labels in the
/// interface language (`labels`, in the order of `categories`): (group's label, [(value,
/// label)]).
fn category_groups(categories: &[String], labels: &[String]) -> Vec<(String, Vec<(String, String)>)> {
    let mut out: Vec<(String, String, Vec<(String, String)>)> = Vec::new();
    for (k, c) in categories.iter().enumerate() {
        let shown = labels.get(k).cloned().unwrap_or_else(|| c.trim_end_matches('!').to_string());
        let (group, group_label, label) = match (c.split_once('/'), shown.split_once('/')) {
            (Some((p, _)), Some((pl, child))) => (p.to_string(), pl.to_string(), child.to_string()),
            (Some((p, child)), None) => (p.to_string(), p.to_string(), child.to_string()),
            (None, _) => (String::new(), String::new(), shown),
        };
        match out.iter_mut().find(|(g, _, _)| *g == group && !group.is_empty()) {
            Some((_, _, items)) => items.push((c.clone(), label)),
            None => out.push((group, group_label, vec![(c.clone(), label)])),
        }
    }
    out.into_iter().map(|(_, label, items)| (label, items)).collect()
}

/// A category's label in the interface language (the category itself if it has none).
fn category_label(categories: &[String], labels: &[String], category: &str) -> String {
    categories.iter().position(|c| c == category).and_then(|k| labels.get(k)).cloned().unwrap_or_else(|| category.to_string())
}

/// Moves focus to the token element `index` (the `[MISSING]` token is `count`).
fn focus_token(index: usize) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = document().get_element_by_id(&format!("tok-{index}")).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = index;
}

#[component]
pub fn EsaItem(info: StoredValue<WorkState>, item: ItemView, busy: RwSignal<bool>, submit: Callback<EsaAnswer>) -> impl IntoView {
    let i = info.get_value();
    let ui = Ui::of(info);
    let w = i.screen.wording.clone();
    let text = StoredValue::new(item.candidate.clone());
    let toks: Vec<Token> = tokens(&item.candidate);
    let words: Vec<usize> = (0..toks.len()).filter(|&k| !toks[k].space).collect();
    let toks = StoredValue::new(toks);
    let words = StoredValue::new(words);
    // The [MISSING] token's index among the words.
    let missing_index = words.with_value(Vec::len);

    // Pre-filled spans (ESA-AI) are where the screen starts; the answer holds the spans as sent.
    let prefilled = !item.prefilled.is_empty();
    let spans = RwSignal::new(item.prefilled.clone());
    // The spans before each change, the last change last: Undo goes back one (issue 38 item 4).
    let history = RwSignal::new(Vec::<Vec<Span>>::new());
    let change = move |f: &dyn Fn(&mut Vec<Span>)| {
        history.update(|h| h.push(spans.get_untracked()));
        spans.update(|s| f(s));
    };
    // The note on suggestions stands while one of them is still on the text as suggested.
    let suggestions = StoredValue::new(item.prefilled.clone());
    let suggestion_left = move || spans.with(|s| suggestions.with_value(|p| s.iter().any(|x| p.contains(x))));
    // The selection: (anchor, focus) as indices into `words` (the missing token is
    // `missing_index`); `None` when nothing is selected.
    let selection = RwSignal::new(None::<(usize, usize)>);
    let cursor = RwSignal::new(0usize);
    let dragging = RwSignal::new(false);
    let score = RwSignal::new(None::<f64>);
    let doc_score = RwSignal::new(None::<f64>);
    let confirm = RwSignal::new(false);
    let said = RwSignal::new(String::new());
    let wants_doc = item.document.as_ref().is_some_and(|d| d.document_score);
    let rtl = i.target_dir == "rtl";
    // MQM: a category for every error, no slider; the categories and severities are the
    // campaign's.
    let mqm = i.kind().is_some_and(|k| assay_core::protocol::for_task(k).span_scheme() == Some(assay_core::protocol::Scheme::Mqm));
    let categories = i.screen.mqm_categories.clone();
    let labels = StoredValue::new((i.screen.mqm_categories.clone(), i.screen.mqm_labels.clone()));
    let label_of = move |c: &str| labels.with_value(|(cs, ls)| category_label(cs, ls, c));
    let omission_category = categories.iter().find(|c| c.eq_ignore_ascii_case("Accuracy/Omission")).cloned();
    let category = RwSignal::new(String::new());
    let max_errors = i.screen.mqm_max_errors;
    let mut severities = vec![Severity::Minor, Severity::Major];
    if mqm && i.screen.mqm_critical {
        severities.push(Severity::Critical);
    }
    if mqm {
        severities.push(Severity::Neutral);
    }

    let char_range = move |a: usize, b: usize| -> Option<(usize, usize)> {
        let (lo, hi) = (a.min(b), a.max(b));
        words.with_value(|ws| toks.with_value(|t| (hi < ws.len()).then(|| (t[ws[lo]].start, t[ws[hi]].end))))
    };
    // The span (its index) that covers word `k`, if any.
    let span_at = move |k: usize| -> Option<usize> {
        if k == missing_index {
            return spans.with(|s| s.iter().position(|s| s.missing));
        }
        let (start, end) = words.with_value(|ws| toks.with_value(|t| (t[ws[k]].start, t[ws[k]].end)));
        spans.with(|s| s.iter().position(|s| !s.missing && s.start < end && start < s.end))
    };
    let selected = move |k: usize| selection.get().is_some_and(|(a, b)| a.min(b) <= k && k <= a.max(b));
    let announce = move |m: String| said.set(m);

    // Marks the selection with `severity`: spans it overlaps are replaced by it.
    let omission_category = StoredValue::new(omission_category);
    let mark = move |severity: Severity| {
        let Some((a, b)) = selection.get_untracked() else { return };
        let mut new = if a == missing_index || b == missing_index {
            Span::omission(severity)
        } else {
            let Some((start, end)) = char_range(a, b) else { return };
            Span::new(start, end, severity)
        };
        if mqm {
            let chosen = category.get_untracked();
            let chosen = if chosen.is_empty() && new.missing { omission_category.get_value().unwrap_or_default() } else { chosen };
            if chosen.is_empty() {
                announce(ui.msg(Msg::EsaChooseCategory));
                return;
            }
            let replaced = spans.with_untracked(|s| s.iter().filter(|o| if new.missing { o.missing } else { !o.missing && o.start < new.end && new.start < o.end }).count());
            if max_errors > 0 && spans.with_untracked(Vec::len) - replaced >= max_errors {
                announce(fill(&ui.msg(Msg::EsaMaxErrors), &[("n", &max_errors.to_string())]));
                return;
            }
            new.category = Some(chosen);
        }
        change(&|s| {
            s.retain(|o| if new.missing { !o.missing } else { o.missing || o.end <= new.start || new.end <= o.start });
            s.push(new.clone());
        });
        selection.set(None);
        confirm.set(false);
        let what = new.category.as_deref().map(|c| format!(" ({})", label_of(c))).unwrap_or_default();
        let marked = text.with_value(|t| span_text(t, &new));
        announce(fill(&ui.msg(Msg::EsaMarked), &[("text", &marked), ("severity", &format!("{}{what}", severity_text(ui, severity)))]));
    };
    // ESA's click: minor → major → removed.
    let cycle = move |index: usize| {
        let Some(s) = spans.with_untracked(|s| s.get(index).cloned()) else { return };
        let t = text.with_value(|t| span_text(t, &s));
        if s.severity == Severity::Minor {
            change(&|v| v[index].severity = Severity::Major);
            announce(fill(&ui.msg(Msg::EsaNowMajor), &[("text", &t)]));
        } else {
            change(&|v| {
                v.remove(index);
            });
            announce(fill(&ui.msg(Msg::EsaRemoved), &[("text", &t)]));
        }
    };
    let remove = move |index: usize| {
        let Some(s) = spans.with_untracked(|s| s.get(index).cloned()) else { return };
        change(&|v| {
            v.remove(index);
        });
        announce(fill(&ui.msg(Msg::EsaRemoved), &[("text", &text.with_value(|t| span_text(t, &s)))]));
    };

    // Undo: the spans as they were before the last change, said to screen readers.
    let undo = move || {
        let Some(before) = history.try_update(|h| h.pop()).flatten() else { return };
        spans.set(before);
        selection.set(None);
        announce(ui.msg(Msg::EsaUndone));
    };

    // Pointer: a press on a word starts a selection (a touch or pen press extends one already
    // started); dragging with a mouse extends it; a click on a marked word alone cycles it.
    let press = move |k: usize, e: ev::PointerEvent| {
        if e.button() != 0 {
            return;
        }
        e.prevent_default();
        cursor.set(k);
        let touch = e.pointer_type() != "mouse";
        match selection.get_untracked() {
            Some((a, b)) if touch && a == b && a != k && k != missing_index && a != missing_index => selection.set(Some((a, k))),
            _ => selection.set(Some((k, k))),
        }
        dragging.set(!touch);
    };
    let enter = move |k: usize| {
        if dragging.get_untracked() && k != missing_index {
            selection.update(|s| {
                if let Some((a, _)) = s
                    && *a != missing_index
                {
                    *s = Some((*a, k));
                }
            });
        }
    };
    let release = move |k: usize| {
        dragging.set(false);
        // A click (no drag) on a marked word changes that error instead of selecting.
        if selection.get_untracked() == Some((k, k))
            && let Some(index) = span_at(k)
        {
            selection.set(None);
            cycle(index);
        }
    };
    let key = move |k: usize, e: ev::KeyboardEvent| {
        let last = missing_index;
        let (next, prev) = if rtl { ("ArrowLeft", "ArrowRight") } else { ("ArrowRight", "ArrowLeft") };
        let to = match e.key().as_str() {
            x if x == next => Some((k + 1).min(last)),
            x if x == prev => Some(k.saturating_sub(1)),
            "Home" => Some(0),
            "End" => Some(last),
            _ => None,
        };
        if let Some(to) = to {
            e.prevent_default();
            e.stop_propagation();
            if e.shift_key() && to != last && k != last {
                let anchor = selection.get_untracked().map_or(k, |(a, _)| a);
                selection.set(Some((anchor, to)));
            } else if e.shift_key() {
                // The [MISSING] token is marked alone.
            } else {
                selection.set(None);
            }
            cursor.set(to);
            focus_token(to);
            return;
        }
        match e.key().as_str() {
            "1" | "2" => {
                e.prevent_default();
                e.stop_propagation();
                if selection.get_untracked().is_none() {
                    selection.set(Some((k, k)));
                }
                mark(if e.key() == "1" { Severity::Minor } else { Severity::Major });
            }
            "Enter" | " " => {
                e.prevent_default();
                e.stop_propagation();
                match span_at(k) {
                    Some(index) if selection.get_untracked().is_none_or(|(a, b)| a == b) => {
                        selection.set(None);
                        cycle(index);
                    }
                    _ => selection.set(Some((k, k))),
                }
            }
            "Delete" | "Backspace" => {
                if let Some(index) = span_at(k) {
                    e.prevent_default();
                    e.stop_propagation();
                    remove(index);
                }
            }
            "Escape" => selection.set(None),
            _ => {}
        }
    };

    let severity_of = move |k: usize| span_at(k).and_then(|i| spans.with(|s| s.get(i).map(|s| s.severity)));
    let token_view = move |k: usize| {
        let (word_text, label) = if k == missing_index {
            ("[MISSING]".to_string(), ui.msg(Msg::EsaMissingLabel))
        } else {
            let t = words.with_value(|ws| toks.with_value(|t| t[ws[k]]));
            let s: String = text.with_value(|x| x.chars().skip(t.start).take(t.end - t.start).collect());
            (s.clone(), s)
        };
        view! {
            <span
                class="tok"
                class:missing-token={k == missing_index}
                class:selected=move || selected(k)
                class:minor=move || severity_of(k) == Some(Severity::Minor)
                class:major=move || severity_of(k) == Some(Severity::Major)
                id=format!("tok-{k}")
                data-k=k.to_string()
                role="option"
                aria-label=move || match severity_of(k) {
                    Some(s) => fill(&ui.msg(Msg::EsaWordMarked), &[("word", &label), ("severity", &severity_text(ui, s))]),
                    None => label.clone(),
                }
                aria-selected=move || if selected(k) { "true" } else { "false" }
                tabindex=move || if cursor.get() == k { "0" } else { "-1" }
                on:pointerdown=move |e| press(k, e)
                on:pointerenter=move |_| enter(k)
                on:pointerup=move |_| release(k)
                on:keydown=move |e| key(k, e)
                on:focus=move |_| cursor.set(k)
            >
                {word_text}
            </span>
        }
    };
    // The translation as tokens: words markable, spaces as text (inside a marked run they are
    // highlighted with it).
    let rendered = {
        let mut out = Vec::new();
        let mut k = 0;
        let spaces_marked = move |start: usize, end: usize| {
            spans.with(|s| s.iter().find(|s| !s.missing && s.start <= start && end <= s.end).map(|s| s.severity))
        };
        for t in toks.get_value() {
            if t.space {
                let s: String = text.with_value(|x| x.chars().skip(t.start).take(t.end - t.start).collect());
                out.push(view! {
                    <span
                        class="gap"
                        class:minor=move || spaces_marked(t.start, t.end) == Some(Severity::Minor)
                        class:major=move || spaces_marked(t.start, t.end) == Some(Severity::Major)
                        aria-hidden="true"
                    >{s}</span>
                }.into_any());
            } else {
                out.push(token_view(k).into_any());
                k += 1;
            }
        }
        out.push(view! { <span class="gap" aria-hidden="true">" "</span> }.into_any());
        out.push(token_view(missing_index).into_any());
        out
    };

    let selection_text = move || {
        selection.get().map(|(a, b)| {
            if a == missing_index || b == missing_index {
                "[MISSING]".to_string()
            } else {
                char_range(a, b).map(|(s, e)| text.with_value(|t| t.chars().skip(s).take(e - s).collect::<String>())).unwrap_or_default()
            }
        })
    };

    let send = move || {
        if mqm {
            // MQM's segment score comes from its errors; a document's last segment may also ask
            // the document's score.
            if wants_doc && doc_score.get_untracked().is_none() {
                return;
            }
            submit.run(EsaAnswer { score: None, spans: spans.get_untracked(), document_score: if wants_doc { doc_score.get_untracked() } else { None } });
            return;
        }
        let Some(s) = score.get_untracked() else { return };
        if wants_doc && doc_score.get_untracked().is_none() {
            return;
        }
        if s < CONFIRM_BELOW && spans.with_untracked(Vec::is_empty) && !confirm.get_untracked() {
            confirm.set(true);
            return;
        }
        submit.run(EsaAnswer { score: Some(s), spans: spans.get_untracked(), document_score: if wants_doc { doc_score.get_untracked() } else { None } });
    };
    let why = move || {
        if mqm {
            if wants_doc && doc_score.get().is_none() { ui.msg(Msg::WhyEsaDocument) } else { String::new() }
        } else if score.get().is_none() {
            ui.msg(Msg::WhyEsaScore)
        } else if wants_doc && doc_score.get().is_none() {
            ui.msg(Msg::WhyEsaDocument)
        } else {
            String::new()
        }
    };

    let lang = Some(i.screen.lang.clone());
    let source_lang = i.source_lang.clone();
    let (source_dir, target_dir) = (i.source_dir.clone(), i.target_dir.clone());
    let doc = item.document.clone().unwrap_or_default();
    let place = (doc.total > 1).then(|| fill(&ui.msg(Msg::EsaSegmentOf), &[("k", &(doc.index + 1).to_string()), ("n", &doc.total.to_string())]));
    let context_rows = |rows: Vec<super::super::ContextSegment>, class: &'static str| {
        let (sl, sd, tl, td) = (source_lang.clone(), source_dir.clone(), lang.clone(), target_dir.clone());
        (!rows.is_empty()).then(|| {
            view! {
                <ol class=format!("doc-context {class}") aria-label=if class == "before" { ui.msg(Msg::EsaSoFar) } else { ui.msg(Msg::EsaRest) }>
                    {rows
                        .into_iter()
                        .map(|r| view! {
                            <li>
                                <p class="ctx-source" lang=sl.clone() dir=sd.clone()>{r.source}</p>
                                <p class="ctx-target" lang=tl.clone() dir=td.clone()>{r.candidate}</p>
                            </li>
                        })
                        .collect_view()}
                </ol>
            }
        })
    };
    let before = context_rows(doc.before.clone(), "before");
    let after = context_rows(doc.after.clone(), "after");
    let source = item.context.clone().unwrap_or_default();

    view! {
        <div
            class="spans-screen"
            on:keydown=move |e: ev::KeyboardEvent| {
                if (e.ctrl_key() || e.meta_key()) && e.key().eq_ignore_ascii_case("z") {
                    e.prevent_default();
                    undo();
                } else if e.key() == "Enter" && !e.default_prevented() {
                    e.prevent_default();
                    send();
                }
            }
            on:pointerup=move |_| dragging.set(false)
        >
            <p class="statement" id="statement">{w.statement.clone()}</p>
            {place.map(|p| view! { <p class="doc-place" id="doc-place" lang=ui.tag() dir=ui.dir()>{p}</p> })}
            {before}
            <div class="esa-current">
                <div class="text-block" role="group" aria-labelledby="context-label">
                    <p class="text-label" id="context-label">{w.label_source.clone()}</p>
                    <p class="context source" id="context" lang=i.source_lang.clone() dir=i.source_dir.clone()>{source}</p>
                </div>
                <div class="text-block">
                    <p class="text-label" id="candidate-label">{w.label_candidate.clone()}</p>
                    <p
                        class="candidate esa-text"
                        id="candidate"
                        role="listbox"
                        aria-multiselectable="true"
                        aria-labelledby="candidate-label"
                        aria-describedby="esa-help"
                        lang=lang.clone()
                        dir=i.target_dir.clone()
                    >
                        {rendered}
                    </p>
                    <p class="esa-help" id="esa-help" lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::EsaHelp)}</p>
                    {prefilled.then(|| view! {
                        <p class="notice esa-prefilled" id="esa-prefilled" lang=ui.tag() dir=ui.dir() hidden=move || !suggestion_left()>{ui.msg(Msg::EsaPrefilled)}</p>
                    })}
                </div>
            </div>
            {after}
            <div class="esa-toolbar" role="toolbar" aria-label=ui.msg(Msg::EsaToolbar) lang=ui.tag() dir=ui.dir()>
                <span class="esa-selection" id="esa-selection">
                    {move || match selection_text() {
                        Some(t) => fill(&ui.msg(Msg::EsaSelected), &[("text", &t)]),
                        None => ui.msg(Msg::EsaNothingSelected),
                    }}
                </span>
                {mqm.then(|| view! {
                    <label class="mqm-category">
                        {ui.msg(Msg::EsaCategory)}" "
                        <select id="mqm-category" on:change=move |ev| category.set(event_target_value(&ev))>
                            <option value="" selected=move || category.get().is_empty()>{ui.msg(Msg::EsaChoose)}</option>
                            {labels.with_value(|(cs, ls)| category_groups(cs, ls)).into_iter().map(|(group, items)| {
                                let options = items.into_iter().map(|(value, label)| {
                                    let v = value.clone();
                                    view! { <option value=value.clone() selected=move || category.get() == v>{label}</option> }
                                }).collect_view();
                                if group.is_empty() {
                                    leptos::either::Either::Left(options)
                                } else {
                                    leptos::either::Either::Right(view! { <optgroup label=group>{options}</optgroup> })
                                }
                            }).collect_view()}
                        </select>
                    </label>
                })}
                {severities.iter().map(|&sev| {
                    let word = severity_word(sev);
                    view! {
                        <button type="button" id=format!("mark-{word}") class=word disabled=move || selection.get().is_none() on:click=move |_| mark(sev)>
                            {mark_label(ui, sev)}
                        </button>
                    }
                }).collect_view()}
                <button type="button" id="mark-cancel" disabled=move || selection.get().is_none() on:click=move |_| selection.set(None)>
                    {ui.msg(Msg::Cancel)}
                </button>
                <button type="button" id="esa-undo" aria-keyshortcuts="Control+Z" disabled=move || history.with(Vec::is_empty) on:click=move |_| undo()>
                    {ui.msg(Msg::Undo)}
                </button>
            </div>
            <div class="esa-marked" lang=ui.tag() dir=ui.dir()>
                <h2 class="esa-marked-title" id="esa-marked-title">
                    {move || match spans.with(Vec::len) {
                        0 => ui.msg(Msg::EsaNoErrors),
                        1 => ui.msg(Msg::EsaOneError),
                        n => fill(&ui.msg(Msg::EsaErrorsMarked), &[("n", &n.to_string())]),
                    }}
                </h2>
                <ul id="esa-spans" aria-labelledby="esa-marked-title">
                    {move || {
                        spans
                            .get()
                            .into_iter()
                            .enumerate()
                            .map(|(index, s)| {
                                let t = text.with_value(|t| span_text(t, &s));
                                let sev = severity_word(s.severity);
                                let sev_text = severity_text(ui, s.severity);
                                let other = ui.msg(if s.severity == Severity::Minor { Msg::MakeMajor } else { Msg::MakeMinor });
                                view! {
                                    <li class=format!("esa-span {sev}") data-start=s.start.to_string() data-end=s.end.to_string() data-severity=sev>
                                        <span class="esa-span-text" lang=lang.clone() dir="auto">{format!("“{t}”")}</span>
                                        " "<span class="esa-span-severity">{sev_text}</span>
                                        {s.category.clone().map(|c| view! { " "<span class="esa-span-category" data-category=c.clone()>{label_of(&c)}</span> })}
                                        " "
                                        <button type="button" class="small" on:click=move |_| {
                                            change(&|v| {
                                                if let Some(x) = v.get_mut(index) {
                                                    x.severity = if x.severity == Severity::Minor { Severity::Major } else { Severity::Minor };
                                                }
                                            });
                                        }>{other}</button>
                                        " "
                                        <button type="button" class="small" on:click=move |_| remove(index)>{ui.msg(Msg::Remove)}</button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
            <p class="visually-hidden" aria-live="polite" id="esa-said" lang=ui.tag() dir=ui.dir()>{move || said.get()}</p>
            {(!mqm).then(|| view! {
            <p class="text-label" id="score-label" lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::EsaScoreSegment)}</p>
            <Slider value=score low=w.anchor_low.clone() high=w.anchor_high.clone() label=ui.msg(Msg::EsaScoreSegment) id="score" ui=ui ticks=vec![33, 66]/>
            <div class="esa-anchors" aria-hidden="true" lang=ui.tag() dir="ltr">
                <span style="left: 33%">{ui.msg(Msg::EsaAnchorSome)}</span>
                <span style="left: 66%">{ui.msg(Msg::EsaAnchorMost)}</span>
            </div>
            })}
            {wants_doc.then(|| view! {
                <p class="text-label" id="document-score-label" lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::EsaScoreDocument)}</p>
                <Slider value=doc_score low=w.anchor_low.clone() high=w.anchor_high.clone() label=ui.msg(Msg::EsaScoreDocument) id="document-score" ui=ui ticks=vec![33, 66]/>
            })}
            {move || confirm.get().then(|| view! {
                <p class="notice" id="esa-confirm" role="alert" lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::EsaConfirm)}</p>
            })}
            <NextActions
                ui
                why=Signal::derive(why)
                disabled=Signal::derive(move || (!mqm && score.get().is_none()) || (wants_doc && doc_score.get().is_none()) || busy.get())
                label=w.next_label.clone()
                on_next=Callback::new(move |()| send())
            />
            <p class="key-legend" id="key-legend" lang=ui.tag() dir=ui.dir()>
                <span class="keys-title">{ui.msg(Msg::KeysTitle)}" "</span>
                <kbd>"Tab"</kbd>" "{ui.msg(Msg::KeysToTheTranslation)}" · "<kbd>"←"</kbd>" "<kbd>"→"</kbd>" "{ui.msg(Msg::KeysWords)}" · "<kbd>"Shift"</kbd>"+"<kbd>"←"</kbd>" "<kbd>"→"</kbd>" "{ui.msg(Msg::KeysSelect)}" · "
                <kbd>"1"</kbd>" "{ui.msg(Msg::KeysMinor)}" · "<kbd>"2"</kbd>" "{ui.msg(Msg::KeysMajor)}" · "<kbd>"Enter"</kbd>" "{ui.msg(Msg::KeysChangeError)}" · "<kbd>"Delete"</kbd>" "{ui.msg(Msg::KeysRemove)}" · "<kbd>"Ctrl"</kbd>"+"<kbd>"Z"</kbd>" "{ui.msg(Msg::KeysUndo)}" · "
                <kbd>"Enter"</kbd>" "{ui.msg(Msg::KeysElsewhere)}
            </p>
        </div>
    }
}
