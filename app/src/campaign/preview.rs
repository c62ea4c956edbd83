//! The Mechanical Turk preview of a campaign (a crowd link opened with
//! `assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE`, before the worker accepts the HIT): the
//! campaign's instructions page and a sample item, read-only, as one static page (no script:
//! it is shown inside MTurk's frame, often on a phone).
//!
//! The sample is the campaign's first practice item a careful reader scores low when it has
//! practice (a text set apart from the HITs, so the preview shows nothing a real item shows; a
//! degraded copy looks like a typical item, unlike a reference shown beside itself); otherwise the first system output
//! of the first HIT, shown like every item (nothing says what kind of item it is). Everything
//! the organizer wrote is escaped: the instructions are plain text ([`assay_core::instructions`]).

use crate::campaign::CampaignSettings;
use crate::db::Db;
use crate::error::{AppResult, StorageContext};
use crate::model::TaskKind;
use assay_core::protocol::{self, Beside, HitPlan};
use assay_core::i18n::{Lang, Msg, Text};
use assay_core::instructions::{Block, blocks};

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The `lang` (BCP 47, `und` when unknown) and `dir` of a test set's language code.
fn lang_dir(code: &str) -> (String, &'static str) {
    match crate::import::LangCode::parse(code) {
        Ok(c) => (c.to_string(), if c.is_rtl() { "rtl" } else { "ltr" }),
        Err(_) => ("und".to_string(), "ltr"),
    }
}

/// The instructions as HTML paragraphs and lists, every text escaped.
pub fn instructions_html(text: &str) -> String {
    blocks(text)
        .into_iter()
        .map(|b| match b {
            Block::Paragraph(p) => format!("<p>{}</p>", esc(&p)),
            Block::List(items) => format!("<ul>{}</ul>", items.iter().map(|i| format!("<li>{}</li>", esc(i))).collect::<String>()),
        })
        .collect()
}

/// A sample item: (context, candidate).
type Sample = (Option<String>, String);

async fn sample(db: &Db, campaign: i64, task: TaskKind, reference: Option<&str>) -> AppResult<Option<Sample>> {
    let what = || format!("reading a sample item of campaign {campaign}");
    let practice: Option<(Option<String>, String)> =
        sqlx::query_as("SELECT context, candidate FROM practice_items WHERE campaign_id = $1 ORDER BY expect_high, position LIMIT 1")
            .bind(campaign)
            .fetch_optional(&db.pool)
            .await
            .with_context(what)?;
    if practice.is_some() {
        return Ok(practice);
    }
    let first: Option<(String, String, Option<String>)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT hi.shown_text, s.source, (SELECT r.text FROM segment_references r WHERE r.segment_id = hi.segment_id \
              AND r.name = {}) AS reference \
         FROM hit_items hi JOIN hits h ON h.id = hi.hit_id JOIN segments s ON s.id = hi.segment_id \
         WHERE h.campaign_id = $1 AND h.hit_index = 0 AND hi.item_type = 'SYSTEM' ORDER BY hi.position LIMIT 1",
        crate::campaign::launch::item_reference_sql("h.campaign_id", "hi.segment_id", "CAST($2 AS TEXT)")
    )))
    .bind(campaign)
    .bind(reference.map(str::to_string))
    .fetch_optional(&db.pool)
    .await
    .with_context(what)?;
    Ok(first.map(|(shown, source, reference)| {
        let context = match protocol::for_task(task).beside() {
            Beside::Nothing => None,
            Beside::Source => Some(source),
            Beside::Reference => reference,
        };
        (context, shown)
    }))
}

/// A campaign's interface language (issue 18 item 3): the organizer's choice, else its target
/// language if the catalog has it, else the browser's (`accept_language`), else English. An
/// unknown campaign or a failed read gives the browser's.
pub async fn interface_lang(db: &Db, campaign: i64, accept_language: Option<&str>) -> Lang {
    let row: Option<(String, String, String)> = sqlx::query_as(
        "SELECT c.settings, c.task, t.target_lang FROM campaigns c JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign)
    .fetch_optional(&db.pool)
    .await
    .ok()
    .flatten();
    // A campaign whose task this release does not know has no language of its own either.
    match row.and_then(|(settings, task, target): (String, String, String)| Some((settings, TaskKind::parse(&task)?, target))) {
        Some((settings, task, target)) => Lang::choose(&CampaignSettings::read(&settings, task, "", "").interface_language, &target, accept_language),
        None => Lang::choose("", "", accept_language),
    }
}

/// The preview page's HTML (a whole document), or `None` for an unknown campaign: in the
/// campaign's interface language for a browser that reads `accept_language`.
pub async fn preview_html(db: &Db, campaign: i64, accept_language: Option<&str>) -> AppResult<Option<String>> {
    let row: Option<(String, String, Option<String>, String, String)> = sqlx::query_as(
        "SELECT c.task, c.settings, c.reference_name, t.source_lang, t.target_lang FROM campaigns c \
         JOIN test_sets t ON t.id = c.test_set_id WHERE c.id = $1",
    )
    .bind(campaign)
    .fetch_optional(&db.pool)
    .await
    .with_context(|| format!("reading campaign {campaign} for its preview"))?;
    let Some((task, settings, reference, source_lang, target_lang)) = row else { return Ok(None) };
    let task = TaskKind::of_campaign(campaign, &task)?;
    let target_name = crate::import::LangCode::parse(&target_lang).map(|c| c.english_name().to_string()).unwrap_or_else(|_| target_lang.clone());
    let source_name = crate::import::LangCode::parse(&source_lang).map(|c| c.english_name().to_string()).unwrap_or_else(|_| source_lang.clone());
    let s = CampaignSettings::read(&settings, task, &target_name, &source_name);
    let ui = Lang::choose(&s.interface_language, &target_lang, accept_language);
    let english_next = s.wording.next_label == CampaignSettings::read("{}", task, "", "").wording.next_label;
    // The task's default wording in the interface language; the organizer's stays.
    let localize = |w, target: &str, source: &str| {
        assay_core::wording::localize(w, task, ui, (&target_lang, target), (&source_lang, source))
    };
    let w = localize(s.wording.clone(), &s.target_language, &s.source_language_name);
    let w = &localize(w, &target_name, &source_name);
    let (lang, dir) = lang_dir(&target_lang);
    // The wording's language: the interface's when it is the default, else the target's.
    let (w_lang, w_dir) = if english_next { (ui.tag().to_string(), ui.dir()) } else { (lang.clone(), dir) };
    let (src_lang, src_dir) = lang_dir(&source_lang);
    let text = |label: &str, class: &str, lang: &str, dir: &str, body: &str, id: &str| {
        format!(
            "<div class=\"text-block\" role=\"group\" aria-labelledby=\"{id}-label\"><p class=\"text-label\" id=\"{id}-label\">{}</p>\
             <p class=\"{class}\" id=\"{id}\" lang=\"{lang}\" dir=\"{dir}\">{}</p></div>",
            esc(label),
            esc(body)
        )
    };
    let sample_html = match sample(db, campaign, task, reference.as_deref()).await? {
        None => String::new(),
        Some((context, candidate)) => {
            let plan = protocol::for_task(task).hit_plan();
            let texts = match plan {
                HitPlan::WordOrderPairs => format!(
                    "{}{}",
                    text(ui.msg(Msg::FirstSentence), "candidate", &lang, dir, &candidate, "sample-candidate"),
                    text(ui.msg(Msg::SecondSentence), "context reference", &lang, dir, &context.unwrap_or_default(), "sample-context")
                ),
                HitPlan::Items | HitPlan::Blocks | HitPlan::Documents | HitPlan::Pairs => {
                    let context = context.map(|c| match protocol::for_task(task).beside() {
                        Beside::Source => text(&w.label_source, "context source", &src_lang, src_dir, &c, "sample-context"),
                        Beside::Reference | Beside::Nothing => text(&w.label_reference, "context reference", &lang, dir, &c, "sample-context"),
                    });
                    format!("{}{}", context.unwrap_or_default(), text(&w.label_candidate, "candidate", &lang, dir, &candidate, "sample-candidate"))
                }
            };
            let answer = match plan {
                HitPlan::WordOrderPairs => {
                    let q = |question: &str, low: &str, high: &str| {
                        format!(
                            "<fieldset class=\"woj-question\" disabled><legend>{}</legend><div class=\"boxes\" dir=\"ltr\"><span class=\"end low\">{}</span>{}<span class=\"end high\">{}</span></div></fieldset>",
                            esc(question),
                            esc(low),
                            "<span class=\"box\" aria-hidden=\"true\"></span>".repeat(5),
                            esc(high)
                        )
                    };
                    format!("{}{}", q(&w.woj_question1, &w.woj_low1, &w.woj_high1), q(&w.woj_question2, &w.woj_low2, &w.woj_high2))
                }
                HitPlan::Blocks => String::new(),
                // The three choices of a pair (the sample shows one of its two translations).
                HitPlan::Pairs => format!(
                    "<div class=\"pair-choices\" aria-hidden=\"true\">{}</div>",
                    [Msg::PairPickA, Msg::PairPickB, Msg::PairPickSame]
                        .iter()
                        .enumerate()
                        .map(|(k, &m)| format!("<button type=\"button\" class=\"pair-choice\" disabled><kbd>{}</kbd> {}</button>", k + 1, esc(ui.msg(m))))
                        .collect::<String>()
                ),
                HitPlan::Items | HitPlan::Documents => format!(
                    "<div class=\"slider\" dir=\"ltr\" aria-hidden=\"true\"><div class=\"slider-track\" data-set=\"false\"><span class=\"tick\" style=\"left: 25%\"></span>\
                     <span class=\"tick\" style=\"left: 50%\"></span><span class=\"tick\" style=\"left: 75%\"></span></div>\
                     <div class=\"anchors\"><span class=\"anchor low\">{}</span><span class=\"anchor high\">{}</span></div></div>",
                    esc(&w.anchor_low),
                    esc(&w.anchor_high)
                ),
            };
            let statement = if plan == HitPlan::WordOrderPairs { String::new() } else { format!("<p class=\"statement\">{}</p>", esc(&w.statement)) };
            format!(
                "<section class=\"card item-screen sample\" id=\"sample-item\" aria-labelledby=\"sample-heading\" lang=\"{w_lang}\" dir=\"{w_dir}\">\
                 <h2 id=\"sample-heading\" lang=\"{ui_lang}\" dir=\"{ui_dir}\">{heading}</h2>{statement}<div class=\"texts\">{texts}</div>{answer}</section>",
                ui_lang = ui.tag(),
                ui_dir = ui.dir(),
                heading = esc(ui.text(Text::PreviewSample)),
            )
        }
    };
    Ok(Some(format!(
        "<!DOCTYPE html><html lang=\"{ui_lang}\" dir=\"{ui_dir}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><link rel=\"stylesheet\" href=\"/assay.css\"></head><body><main><div class=\"annotate\" id=\"preview\">\
         <section class=\"card start-page\"><h1>{title}</h1><p class=\"notice\" id=\"crowd-message\">{accept}</p>\
         <h2 id=\"instructions-heading\">{heading}</h2><div class=\"instructions\" id=\"instructions\" aria-labelledby=\"instructions-heading\" lang=\"{w_lang}\" dir=\"{w_dir}\">{}</div></section>\
         {sample_html}</div></main></body></html>",
        instructions_html(&w.instructions),
        ui_lang = ui.tag(),
        ui_dir = ui.dir(),
        title = esc(ui.text(Text::PreviewTitle)),
        accept = esc(ui.text(Text::PreviewAccept)),
        heading = esc(ui.msg(Msg::Instructions)),
    )))
}

#[cfg(test)]
mod tests {
    #[test]
    fn instructions_are_escaped_paragraphs_and_lists() {
        assert_eq!(
            super::instructions_html("Read <b>this</b> & that.\n\n- one\n- \"two\""),
            "<p>Read &lt;b&gt;this&lt;/b&gt; &amp; that.</p><ul><li>one</li><li>&quot;two&quot;</li></ul>"
        );
    }
}
