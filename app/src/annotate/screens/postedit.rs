//! The post-editing screen. In the `postedit` bundle only.
//!
//! The statement, the source (and the reference, as the campaign chooses), then a text field
//! pre-filled with the translation to correct (empty for translation from scratch: the server
//! sends no translation then, and the screen offers no "no change needed"). The field is a
//! labelled `<textarea>` that takes the focus; Ctrl+Enter (or Cmd+Enter) goes on, Enter alone
//! starts a new line (which the server stores as a space: a post-edit is one line). "No change
//! needed" sends the translation as shown. Nothing tells a quality-control item from a real
//! one: a degraded copy is a translation in the field like any other.
//!
//! The screen measures the time from the item's appearance to the first keystroke in the field
//! and from that keystroke to submission, and sends both with the text
//! ([`PostEdit`](assay_core::protocol::postedit::PostEdit)); the server computes the edit rate.

use super::super::{ItemView, Msg, WorkState};
use super::widgets::{NextActions, Ui};
use assay_core::protocol::postedit::{self, PostEdit};
use leptos::ev;
use leptos::prelude::*;

/// The browser's clock in ms (0 on the server, which never measures).
fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(feature = "hydrate"))]
    {
        0.0
    }
}

#[component]
pub fn PostEditItem(info: StoredValue<WorkState>, item: ItemView, busy: RwSignal<bool>, submit: Callback<PostEdit>) -> impl IntoView {
    let i = info.get_value();
    let w = i.screen.wording.clone();
    let ui = Ui::of(info);
    let from_scratch = item.candidate.is_empty();
    let text = RwSignal::new(item.candidate.clone());
    let shown_at = StoredValue::new(now_ms());
    let first_key = StoredValue::new(None::<f64>);
    let send = move |unchanged: bool| {
        if busy.get_untracked() {
            return;
        }
        let t = text.get_untracked();
        if t.trim().is_empty() && !unchanged {
            return;
        }
        let now = now_ms();
        let first = first_key.get_value();
        let ms = |x: f64| Some(x.max(0.0).round() as u64);
        submit.run(PostEdit {
            text: if unchanged { String::new() } else { t },
            unchanged,
            first_key_ms: first.and_then(|f| ms(f - shown_at.get_value())),
            edit_ms: first.and_then(|f| ms(now - f)),
        });
    };
    let on_key = move |e: ev::KeyboardEvent| {
        if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
            e.prevent_default();
            send(false);
        }
    };
    let on_input = move |e: ev::Event| {
        if first_key.get_value().is_none() {
            first_key.set_value(Some(now_ms()));
        }
        text.set(event_target_value(&e));
    };
    let why = move || if text.get().trim().is_empty() { ui.msg(Msg::PostEditEmpty) } else { String::new() };
    let target_lang = i.screen.lang.clone();
    let (source_lang, source_dir, target_dir) = (i.source_lang.clone(), i.source_dir.clone(), i.target_dir.clone());
    let rows = (item.candidate.chars().count() / 60 + 3).min(12).to_string();
    view! {
        <div class="postedit-screen" id="postedit-screen" on:keydown=on_key>
            <p class="statement" id="statement">{w.statement.clone()}</p>
            <div class="texts">
                <p class="text-label" id="source-label">{w.label_source.clone()}</p>
                <p class="context source" aria-labelledby="source-label" lang=source_lang dir=source_dir>{item.context.clone().unwrap_or_default()}</p>
                {item.reference.clone().map(|r| view! {
                    <p class="text-label" id="reference-label">{w.label_reference.clone()}</p>
                    <p class="context reference" aria-labelledby="reference-label" lang=target_lang.clone() dir=target_dir.clone()>{r}</p>
                })}
            </div>
            <label class="text-label" for=postedit::NAME lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::PostEditField)}</label>
            <textarea
                id=postedit::NAME
                class="post-edit candidate"
                rows=rows
                lang=target_lang.clone()
                dir=target_dir.clone()
                spellcheck="true"
                autofocus=true
                aria-describedby="statement postedit-keys"
                prop:value=move || text.get()
                on:input=on_input
            >{item.candidate.clone()}</textarea>
            <p class="hint key-legend" id="postedit-keys" lang=ui.tag() dir=ui.dir()>{ui.msg(Msg::PostEditKeys)}</p>
            {(!from_scratch).then(|| view! {
                <div class="actions postedit-unchanged">
                    <button type="button" id="no-change" disabled=move || busy.get() on:click=move |_| send(true) lang=ui.tag() dir=ui.dir()>
                        {ui.msg(Msg::PostEditUnchanged)}
                    </button>
                </div>
            })}
            <NextActions ui why=Signal::derive(why) disabled=Signal::derive(move || text.get().trim().is_empty() || busy.get()) label=w.next_label.clone() on_next=Callback::new(move |()| send(false))/>
        </div>
    }
}
