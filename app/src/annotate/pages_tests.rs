use super::super::{Completion, ContextSegment, DocumentView, ItemView, PracticeFeedback, PracticeView, Step, WorkState, localized_screen_settings, public_title};
use super::*;
use crate::model::TaskKind;
use assay_core::i18n::{Text, mqm, page_words};
use assay_core::protocol::{Severity, Span};

/// Every protocol's screen, as the server renders them (the annotate module does not
/// import the frame, `ui`, which imports it).
struct AllScreens;
impl crate::annotate::screens::ScreenFamily for AllScreens {
    const SCREENS: crate::annotate::screens::Screens = crate::annotate::screens::Screens::Every;
}

/// The texts of the items: in no catalog (the texts under judgment are not the interface's).
fn item(position: i64, task: TaskKind) -> ItemView {
    let mut prefilled = Vec::new();
    if task.marks_spans() {
        let mut span = Span::new(0, 3, Severity::Minor);
        if task == TaskKind::Mqm {
            span.category = Some("Accuracy/Mistranslation".into());
        }
        prefilled.push(span);
    }
    ItemView {
        position,
        candidate: "Qxv zwk jjb".into(),
        context: Some("Pqw rrt vvz".into()),
        reference: (task == TaskKind::Ranking).then(|| "Wqq yyx".into()),
        screen: (task == TaskKind::Ranking).then_some(0),
        document: task.marks_spans().then(|| DocumentView {
            index: 1,
            total: 3,
            before: vec![ContextSegment { source: "Kkq".into(), candidate: "Zzq".into() }],
            after: vec![ContextSegment { source: "Vvq".into(), candidate: "Xxq".into() }],
            document_score: true,
        }),
        prefilled,
        right: (task == TaskKind::Pairwise).then(|| "Jjq wwp kkv".into()),
        pair_left: (task == TaskKind::Pairwise).then_some(assay_core::protocol::pairwise::Side::B),
        hidden_output: None,
    }
}

fn state(task: TaskKind, settings: &str, lang: Lang) -> WorkState {
    // A target language the catalog does not have: the interface is the campaign's choice.
    let screen = localized_screen_settings(settings, task, "fra", "eng", None);
    assert_eq!(screen.ui, lang);
    let first = item(0, task);
    let together = if task == TaskKind::Ranking { vec![item(1, task), item(2, task)] } else { Vec::new() };
    let practice = PracticeView { total: 4, required: 3, position: 1, matched: 1, round: 1, passed: false, item: Some(first.clone()), together: together.clone() };
    WorkState {
        assignment: "a".into(),
        title: public_title(settings, task, lang),
        task,
        screen,
        target_dir: "ltr".into(),
        source_dir: "ltr".into(),
        source_lang: "en".into(),
        practice: Some(practice),
        total: 12,
        screens: (task == TaskKind::Ranking).then_some(4),
        started: true,
        step: Step { answered: 3, item: Some(first), together, completion: None },
        ahead: None,
    }
}

/// Every screen a worker of `task` can meet, as the server renders it.
fn screens(task: TaskKind, settings: &str, lang: Lang) -> Vec<(&'static str, String)> {
    screens_of(state(task, settings, lang))
}

fn screens_of(s: WorkState) -> Vec<(&'static str, String)> {
    let (task, lang) = (s.kind().unwrap(), s.screen.ui);
    let owner = Owner::new();
    owner.with(|| {
        let info = StoredValue::new(s.clone());
        let busy = RwSignal::new(false);
        let submit = Callback::new(|_: AnswerValues| {});
        let ranks = Callback::new(|_: Vec<RankAnswer>| {});
        let spans = Callback::new(|_: EsaAnswer| {});
        let item = s.step.item.clone().unwrap();
        let practice = s.practice.clone().unwrap();
        // As the server words it (`server::practice_answer_in`).
        let w = &s.screen.wording;
        let feedback = |passed: bool| PracticeFeedback {
            in_range: passed,
            message: fill(lang.text(Text::FeedbackHigh), &[("high", &w.anchor_high), ("reason", lang.text(Text::ReasonSame))]),
            yours: fill(lang.text(Text::YourRating), &[("words", &slider_words(|m| lang.msg(m).to_string(), Some(40.0), &w.anchor_low, &w.anchor_high))]),
            verdict: lang.text(if passed { Text::VerdictIn } else { Text::VerdictOut }).into(),
            round_result: Some(fill(lang.text(if passed { Text::RoundPassed } else { Text::RoundFailed }), &[("matched", "3"), ("total", "4"), ("required", "3")])),
            practice: PracticeView { position: if passed { 0 } else { 2 }, passed, ..practice.clone() },
            outputs: Vec::new(),
        };
        let mut out = vec![
            ("start", view! { <StartPage info practice=Some(practice.clone()) busy start=|_| {} early=true/> }.to_html()),
            ("item", item_screen::<AllScreens>(info, item.clone(), s.step.together.clone(), 3, busy, Submits { values: submit, ranks, spans, post_edits: Callback::new(|_| {}), scored: Callback::new(|_| {}) }).to_html()),
            ("feedback", view! { <PracticeFeedbackScreen info item=item.clone() feedback=feedback(false) busy start=|_| {}/> }.to_html()),
            ("feedback passed", view! { <PracticeFeedbackScreen info item=item.clone() feedback=feedback(true) busy start=|_| {}/> }.to_html()),
            ("finished", view! { <Finished code=Some("C0DE".into()) return_url=Some("https://example.org".into()) ui=Ui::of(info)/> }.to_html()),
            ("finished here", view! { <Finished code=Some("C0DE".into()) return_url=None ui=Ui::of(info)/> }.to_html()),
            ("held", view! { <Finished code=None return_url=None ui=Ui::of(info)/> }.to_html()),
        ];
        // Every protocol but post-editing and contrastive ESA has practice (pairwise preference
        // and ranking since issue 37 item 6 and issue 38 row 15).
        let practises = assay_core::protocol::for_task(task).practice().is_some();
        assert_eq!(practises, !matches!(task, TaskKind::PostEdit | TaskKind::ContrastiveEsa), "{task:?}");
        if practises {
            out.push(("practice", practice_screen::<AllScreens>(info, practice.clone(), item.clone(), busy, Submits { values: submit, ranks, spans, post_edits: Callback::new(|_| ()), scored: Callback::new(|_| ()) }).to_html()));
        }
        let _ = Completion { code: None, return_url: None };
        out
    })
}

/// What a reader of the page meets, one line each: its text and the attributes read aloud or
/// shown (`aria-label`, `aria-valuetext`, the slider's words, an option group's `label`,
/// `title`, `placeholder`), not the markup's names (classes, ids, values sent); key caps
/// (`<kbd>`, the same on every keyboard) left out; the HTML escapes undone.
fn words_of(html: &str) -> String {
    const READ: [&str; 6] = ["aria-label", "aria-valuetext", "data-words", "label", "title", "placeholder"];
    let unescape = |s: &str| s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#x27;", "'").replace("&#39;", "'").replace("&amp;", "&");
    let mut out = Vec::new();
    let mut rest = html;
    let mut in_kbd = false;
    while let Some(open) = rest.find('<') {
        if !in_kbd {
            out.push(unescape(&rest[..open]));
        }
        let Some(close) = rest[open..].find('>') else { break };
        let tag = &rest[open + 1..open + close];
        in_kbd = tag == "kbd" || (in_kbd && tag != "/kbd");
        // Attributes: name="value" pairs (the server quotes every value).
        let mut attrs = tag;
        while let Some(eq) = attrs.find("=\"") {
            let name = attrs[..eq].rsplit(' ').next().unwrap_or("");
            let value_and_rest = &attrs[eq + 2..];
            let end = value_and_rest.find('"').unwrap_or(value_and_rest.len());
            if READ.contains(&name) {
                out.push(unescape(&value_and_rest[..end]));
            }
            attrs = &value_and_rest[(end + 1).min(value_and_rest.len())..];
        }
        rest = &rest[open + close + 1..];
    }
    out.push(unescape(rest));
    out.join("\n")
}

/// A language's catalog strings, cut at their placeholders: the pieces that could show.
fn pieces(lang: Lang) -> Vec<String> {
    let whole = Msg::ALL
        .iter()
        .map(|&m| lang.msg(m))
        .chain(Text::ALL.iter().map(|&t| lang.text(t)))
        .chain(mqm::parts(lang).iter().copied())
        .chain([page_words(lang).0, page_words(lang).1]);
    let mut out = Vec::new();
    for s in whole {
        let mut rest = s;
        loop {
            let (piece, after) = match rest.find('{') {
                Some(i) => (&rest[..i], rest[i..].split_once('}').map_or("", |(_, a)| a)),
                None => (rest, ""),
            };
            let piece = piece.trim_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation());
            if piece.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
                out.push(piece.to_string());
            }
            if after.is_empty() {
                break;
            }
            rest = after;
        }
    }
    out
}

/// `piece` stands in `text` as words of their own (not inside a longer word).
fn stands_in(text: &str, piece: &str) -> bool {
    text.match_indices(piece).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + piece.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[test]
fn every_screen_of_every_protocol_is_in_one_language() {
    let own: Vec<(Lang, String)> = Lang::ALL.iter().map(|&l| (l, pieces(l).join("\n"))).collect();
    let all: Vec<(Lang, Vec<String>)> = Lang::ALL.iter().map(|&l| (l, pieces(l))).collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for task in TaskKind::ALL {
        for lang in Lang::ALL {
            let mut settings = vec![format!(r#"{{"interface_language":"{}"}}"#, lang.tag())];
            if task == TaskKind::WordOrder {
                settings.push(format!(r#"{{"interface_language":"{}","woj_scale":"sliders","allow_skip":true}}"#, lang.tag()));
            }
            let mine = &own.iter().find(|(l, _)| *l == lang).unwrap().1;
            for settings in &settings {
                for (name, html) in screens(task, settings, lang) {
                    let text = words_of(&html);
                    // A piece can stand in the text only if its first word does.
                    let words: std::collections::HashSet<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
                    for (other, pieces) in all.iter().filter(|(o, _)| *o != lang) {
                        for piece in pieces {
                            // A piece both catalogs have (a term, "HIT", a shared word) is this language's too.
                            let first = piece.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or_default();
                            if words.contains(first) && !mine.contains(piece.as_str()) && stands_in(&text, piece) {
                                wrong.push(format!("{task:?} {name} in {lang:?}: {other:?}'s “{piece}”"));
                            }
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{} strings of another language:\n{}", wrong.len(), wrong.join("\n"));
    assert!(checked >= 7 * 8 * 7, "only {checked} screens rendered");
}

/// The texts under judgment carry their own language and direction (issue 38's walkthrough:
/// in the Arabic interface a ranking output's final full stop was drawn on the wrong side):
/// every word of a source, reference, output or context segment on every screen sits in an
/// element whose nearest `lang` is the text's language, and that element sets `dir`.
#[test]
fn the_texts_under_judgment_carry_their_language_and_direction() {
    const VOID: [&str; 6] = ["input", "br", "img", "meta", "hr", "source"];
    let target = ["Qxv", "zwk", "jjb", "Wqq", "yyx", "Zzq", "Xxq", "Jjq", "wwp", "kkv"];
    let source = ["Pqw", "rrt", "vvz", "Kkq", "Vvq"];
    let context = ["Pqw", "rrt", "vvz"];
    let mut wrong = Vec::new();
    let mut seen = 0;
    for task in TaskKind::ALL {
        for lang in [Lang::Ar, Lang::De] {
            let mut s = state(task, &format!(r#"{{"interface_language":"{}"}}"#, lang.tag()), lang);
            s.source_lang = "qaa".into(); // a code no interface language has
            s.source_dir = "ltr".into();
            let target_lang = s.screen.lang.clone();
            for (name, html) in screens_of(s) {
                // The open elements (tag, lang, has dir) at each text node.
                let mut open: Vec<(String, Option<String>, bool)> = Vec::new();
                let mut rest = html.as_str();
                while let Some(at) = rest.find('<') {
                    let text = &rest[..at];
                    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                        // The item's context is the source only where the protocol shows the source there.
                        let in_source = source.contains(&word) && (!context.contains(&word) || crate::annotate::screens::Context::of(task) == crate::annotate::screens::Context::Source);
                        let want = if in_source { "qaa" } else if target.contains(&word) || context.contains(&word) { &target_lang } else { continue };
                        seen += 1;
                        let nearest = open.iter().rev().find(|(_, l, _)| l.is_some());
                        match nearest {
                            Some((_, Some(l), dir)) if l == want && *dir => {}
                            other => wrong.push(format!("{task:?} {name} in {lang:?}: “{word}” under {other:?}, want lang {want} with dir")),
                        }
                    }
                    if rest[at..].starts_with("<!--") {
                        let end = rest[at..].find("-->").map_or(rest.len(), |e| at + e + 3);
                        rest = &rest[end..];
                        continue;
                    }
                    let close = rest[at..].find('>').map_or(rest.len(), |e| at + e);
                    let tag = &rest[at + 1..close];
                    rest = &rest[(close + 1).min(rest.len())..];
                    if let Some(name) = tag.strip_prefix('/') {
                        if let Some(i) = open.iter().rposition(|(t, _, _)| t == name.trim()) {
                            open.truncate(i);
                        }
                        continue;
                    }
                    let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap_or("").to_string();
                    if tag.ends_with('/') || VOID.contains(&name.as_str()) {
                        continue;
                    }
                    let attr = |a: &str| tag.find(&format!(" {a}=\"")).map(|i| tag[i + a.len() + 3..].split('"').next().unwrap_or("").to_string());
                    open.push((name, attr("lang"), attr("dir").is_some()));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(seen > 100, "only {seen} words of the texts found");
    assert!(wrong.is_empty(), "{} texts without their language:\n{}", wrong.len(), wrong.join("\n"));
}

/// Issue 38 item 6: a ranking HIT's start page counts its screens and says how many outputs
/// a sentence has (the campaign's), not its items; the instructions name no fixed number.
#[test]
fn a_ranking_start_page_counts_screens_and_its_outputs() {
    let s = state(TaskKind::Ranking, r#"{"rank_outputs":4}"#, Lang::En);
    assert_eq!(s.screen.rank_outputs, 4);
    let start = screens_of(s).into_iter().find(|(n, _)| *n == "start").unwrap().1;
    let text = words_of(&start);
    assert!(text.contains("This HIT has 4 screens; each sentence on a screen has 4 translations to rank, from 1 (best) to 4."), "{text}");
    assert!(!text.contains("12 items") && !text.contains("1 to 5"), "{text}");
    let de = screens(TaskKind::Ranking, r#"{"interface_language":"de","rank_outputs":3}"#, Lang::De);
    let text = words_of(&de.into_iter().find(|(n, _)| *n == "start").unwrap().1);
    assert!(text.contains("Dieser HIT umfasst 4 Seiten; zu jedem Satz einer Seite gibt es 3 Übersetzungen"), "{text}");
    // One item a screen: the items are counted.
    let da = words_of(&screens(TaskKind::DaAdequacy, "{}", Lang::En).into_iter().find(|(n, _)| *n == "start").unwrap().1);
    assert!(da.contains("This HIT has 12 items."), "{da}");
}

/// Issue 38 item 5: each word-order question is one radio group with one tab stop (the first
/// box while none is chosen), so that Tab goes to the next question as the legend says.
#[test]
fn each_word_order_question_is_one_tab_stop() {
    let item = screens(TaskKind::WordOrder, "{}", Lang::En).into_iter().find(|(n, _)| *n == "item").unwrap().1;
    for q in ["q1", "q2"] {
        let stops: Vec<&str> = item.match_indices(&format!("id=\"{q}-box-")).map(|(at, _)| &item[at..at + item[at..].find('>').unwrap()]).collect();
        assert_eq!(stops.len(), 5, "{q}: {stops:?}");
        let focusable: Vec<&&str> = stops.iter().filter(|b| b.contains("tabindex=\"0\"")).collect();
        assert_eq!(focusable.len(), 1, "{q}: {stops:?}");
        assert!(focusable[0].contains(&format!("{q}-box-1")), "{focusable:?}");
        assert_eq!(stops.iter().filter(|b| b.contains("tabindex=\"-1\"")).count(), 4, "{q}: {stops:?}");
    }
}

/// Issue 38 item 4: a screen with suggested errors says so and offers Undo (disabled until
/// something changed, with its key); one without suggestions has no note.
#[test]
fn a_screen_with_suggestions_has_the_note_and_undo() {
    for task in [TaskKind::Esa, TaskKind::Mqm] {
        let item = screens(task, "{}", Lang::En).into_iter().find(|(n, _)| *n == "item").unwrap().1;
        let note = &item[item.find("id=\"esa-prefilled\"").expect("the note")..];
        assert!(!note[..note.find('>').unwrap()].contains("hidden"), "a suggestion is left: the note shows");
        let undo = &item[item.find("id=\"esa-undo\"").expect("Undo")..];
        let undo = &undo[..undo.find('>').unwrap()];
        assert!(undo.contains("disabled") && undo.contains("aria-keyshortcuts=\"Control+Z\""), "{undo}");
        assert!(words_of(&item).contains("undo"), "the key legend names Ctrl+Z");
    }
    let mut s = state(TaskKind::Esa, "{}", Lang::En);
    if let Some(item) = s.step.item.as_mut() {
        item.prefilled.clear();
    }
    let item = screens_of(s).into_iter().find(|(n, _)| *n == "item").unwrap().1;
    assert!(!item.contains("esa-prefilled"));
}

/// The check above finds what it looks for: a German ESA screen with its wording left in
/// English (as before issue 38) has English strings.
#[test]
fn an_english_wording_on_a_german_screen_is_found() {
    let mut s = state(TaskKind::Esa, r#"{"interface_language":"de"}"#, Lang::De);
    s.screen.wording = crate::campaign::CampaignSettings::read("{}", TaskKind::Esa, "French", "English").wording;
    let found: Vec<String> = screens_of(s)
        .into_iter()
        .flat_map(|(_, html)| pieces(Lang::En).into_iter().filter(move |p| stands_in(&words_of(&html), p)))
        .collect();
    for english in ["Next", "Source", "Candidate translation", "No meaning preserved"] {
        assert!(found.iter().any(|p| p == english), "{english}: {found:?}");
    }
}
