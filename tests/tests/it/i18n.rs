//! The annotator's interface language against the real server on both databases (issue 18
//! item 3): a campaign whose target language the catalog has speaks it (German Start and Next,
//! German refusals and crowd pages), Arabic pages are `lang="ar" dir="rtl"`, and a target the
//! catalog lacks (French) follows the browser's Accept-Language; the organizer's setting wins.

use assay_tests::fixtures::{tar_gz, write_wmt};
use assay_tests::*;
use serde_json::{Value, json};
use std::path::Path;

/// Uploads a generated WMT folder for `pair` as test set `name`; the test set as listed.
async fn upload(org: &Browser, pair: &str, name: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    write_wmt(dir.path(), pair, 30, &["Alpha", "Beta", "Gamma"]);
    let r = org
        .client
        .post(format!("{}/upload/import", org.base))
        .header("x-assay-file-name", format!("{name}.tar.gz"))
        .header("x-assay-test-set", name)
        .header("x-assay-pair", pair)
        .body(tar_gz(Path::new(dir.path())))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap_or_default());
    let sets = org.call("list_test_sets", &[]).await.json();
    sets.as_array().unwrap().iter().find(|t| t["name"] == name).cloned().expect("the test set")
}

/// Creates and launches a small DA campaign on `set` with `settings`; its crowd link's path.
async fn launch(org: &Browser, set: &Value, name: &str, settings: Value) -> String {
    let systems: Vec<i64> = set["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
    let mut s = json!({ "judgments_wanted": 14, "redundancy": 1 });
    s.as_object_mut().unwrap().extend(settings.as_object().unwrap().clone());
    let draft = json!({ "name": name, "task": "da-adequacy", "test_set_id": set["id"], "systems": systems, "benchmark_systems": [], "seed": 4, "settings": s });
    let created = org.call_json("create_campaign", json!({ "draft": draft })).await;
    assert_eq!(created.status, 200, "{}", created.body);
    let id = created.json().as_i64().unwrap().to_string();
    assert_eq!(org.call("launch_campaign", &[("campaign_id", &id)]).await.status, 200);
    let link = org.call("campaign_progress", &[("campaign_id", &id)]).await.json()["crowd_link"].as_str().unwrap().to_string();
    let after_scheme = link.split_once("://").map(|(_, rest)| rest).unwrap_or(&link).to_string();
    after_scheme[after_scheme.find('/').unwrap()..].to_string()
}

/// A crowd worker's arrival through `link` with `accept_language`: the assignment's id.
async fn arrive(server: &TestServer, link: &str, worker: &str, accept_language: &str) -> (Browser, String) {
    let b = server.browser();
    let r = b.client.get(format!("{}{link}&worker={worker}", b.base)).header("accept-language", accept_language).send().await.unwrap();
    assert!(r.status().is_redirection(), "{}", r.status());
    let to = r.headers()["location"].to_str().unwrap().to_string();
    (b, to.trim_start_matches("/work/").to_string())
}

/// GET a page with `accept_language`.
async fn page(b: &Browser, path: &str, accept_language: &str) -> String {
    let r = b.client.get(format!("{}{path}", b.base)).header("accept-language", accept_language).send().await.unwrap();
    assert_eq!(r.status(), 200);
    r.text().await.unwrap()
}

/// A server function with `accept_language`: (status, body).
async fn call(b: &Browser, name: &str, form: &[(&str, &str)], accept_language: &str) -> (u16, String) {
    let r = b.client.post(format!("{}/api/{name}", b.base)).header("accept-language", accept_language).form(form).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A crowd link to a campaign that does not exist (its id changed, its signature kept).
fn forged_unknown(link: &str) -> String {
    let (path, query) = link.split_once('?').unwrap();
    format!("{path}x?{query}")
}

/// The opening tag of the element with `id` in `html`.
fn tag_of<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in {html}"));
    let start = html[..at].rfind('<').unwrap();
    &html[start..start + html[start..].find('>').unwrap() + 1]
}

both_backends! {
    /// Issue 18: crowd pages showed the campaign's internal name (which may say what the
    /// campaign tests). Annotators see the organizer's title for them, else a neutral one in
    /// their language; the name is in nothing the worker's browser receives.
    async fn annotators_see_a_title_never_the_campaigns_name(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let de = upload(&org, "en-de", "title-de").await;
        let secret = "Batch 7 (10% bad refs, spammer trap)";
        let link = launch(&org, &de, secret, json!({})).await;
        let (worker, a) = arrive(&server, &link, "T-1", "en-US").await;
        let html = page(&worker, &format!("/work/{a}"), "en-US").await;
        assert!(html.contains("id=\"hit-title\">Übersetzungen bewerten<"), "a neutral title in German: {html}");
        let state = call(&worker, "load_work", &[("assignment", &a)], "en-US").await.1;
        assert_eq!(serde_json::from_str::<Value>(&state).unwrap()["title"], "Übersetzungen bewerten");
        for what in [&html, &state] {
            assert!(!what.contains("Batch 7") && !what.contains("spammer"), "the campaign's name reached the worker: {what}");
        }
        let link = launch(&org, &de, "Batch 8", json!({ "public_title": "Bewerten Sie Nachrichtentexte" })).await;
        let (worker, a) = arrive(&server, &link, "T-2", "en-US").await;
        let html = page(&worker, &format!("/work/{a}"), "en-US").await;
        assert!(html.contains("id=\"hit-title\">Bewerten Sie Nachrichtentexte<") && !html.contains("Batch 8"), "{html}");
    }

    /// Issue 18: a crowd link refused before its campaign is known spoke English; it now
    /// speaks the browser's language, and once the campaign is known, the campaign's.
    async fn refused_crowd_links_speak_the_workers_language(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;
        let de = upload(&org, "en-de", "refusal-de").await;
        let link = launch(&org, &de, "Refusals", json!({})).await;
        let b = server.browser();
        let get = |path: String, lang: &'static str| {
            let b = &b;
            async move {
                let r = b.client.get(format!("{}{path}", b.base)).header("accept-language", lang).send().await.unwrap();
                (r.status().as_u16(), r.text().await.unwrap())
            }
        };
        let (at, sig) = link.split_once("sig=").unwrap();
        let forged = format!("{at}sig={}{}", if sig.starts_with('0') { "1" } else { "0" }, &sig[1..]);
        let (status, html) = get(forged, "cs-CZ,cs;q=0.9").await;
        assert_eq!(status, 403);
        assert!(html.contains("<html lang=\"cs\"") && html.contains("Neplatný odkaz") && html.contains("Použijte prosím odkaz"), "{html}");
        let (status, html) = get(forged_unknown(&link), "ar").await;
        assert!(status == 403 || status == 404, "{status}");
        assert!(html.contains("dir=\"rtl\""), "{html}");
        // The campaign is known (German): its language, whatever the browser's.
        let (status, html) = get(link.clone(), "en-US").await;
        assert_eq!(status, 400);
        assert!(html.contains("Wer sind Sie?") && html.contains("PROLIFIC_PID"), "{html}");
    }

    async fn the_interface_speaks_the_target_language_or_the_browsers(server) {
        let org = server.browser();
        org.login(ORGANIZER).await;

        // German target: the start page and the item screen in German, whatever the browser.
        let de = upload(&org, "en-de", "i18n-de").await;
        let link = launch(&org, &de, "German", json!({ "target_language": "German" })).await;
        // The Mechanical Turk preview (before accepting) in German too.
        let preview = page(&org, &format!("{link}&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H"), "en-US").await;
        assert!(preview.starts_with("<!DOCTYPE html><html lang=\"de\" dir=\"ltr\">"), "{preview}");
        assert!(preview.contains("<h1>Vorschau</h1>") && preview.contains("Nehmen Sie den HIT an, um zu beginnen."), "{preview}");
        assert!(preview.contains(">Ein Beispielelement (nur zum Lesen)<") && preview.contains(">Zu bewertende Übersetzung<"), "{preview}");
        let (worker, a) = arrive(&server, &link, "DE-1", "en-US,en;q=0.9").await;
        let html = page(&worker, &format!("/work/{a}"), "en-US").await;
        assert!(tag_of(&html, "work").contains("lang=\"de\"") && tag_of(&html, "work").contains("dir=\"ltr\""), "{}", tag_of(&html, "work"));
        assert!(html.contains(">Beginnen<"), "German Start: {html}");
        assert!(html.contains("Dieser HIT umfasst 100 Elemente."), "{html}");
        assert!(html.contains("Sie lesen Textpaare"), "the default instructions in German");
        let (status, body) = call(&worker, "start_work", &[("assignment", &a)], "en-US").await;
        assert_eq!(status, 200, "{body}");
        let state: Value = serde_json::from_str(&call(&worker, "load_work", &[("assignment", &a)], "en-US").await.1).unwrap();
        assert_eq!(state["screen"]["ui"], "de");
        assert_eq!(state["screen"]["wording"]["next_label"], "Weiter");
        assert_eq!(state["screen"]["wording"]["label_candidate"], "Zu bewertende Übersetzung");
        let texts = state["screen"]["texts"].as_array().unwrap();
        assert!(texts.iter().any(|t| t == "{n} von {total}"), "German progress");
        assert!(texts.iter().any(|t| t == "Bewegen Sie den Schieberegler, um Ihre Bewertung abzugeben."));
        let html = page(&worker, &format!("/work/{a}"), "en-US").await;
        assert!(html.contains(">Weiter<") && html.contains("1 von 100"), "German Next and progress: {html}");
        // A refusal the annotator meets, in German, with the same status.
        let form = [("assignment", a.as_str()), ("position", "3"), ("score", "50"), ("time_on_screen_ms", "900"), ("key", "k3")];
        let (status, body) = call(&worker, "submit_judgment", &form, "en-US").await;
        assert_eq!(status, 409, "{body}");
        assert!(body.contains("Element 4 ist nicht das aktuelle Element: Beantworten Sie als Nächstes Element 1."), "{body}");
        let (status, body) = call(&worker, "load_work", &[("assignment", "no-such-assignment")], "cs").await;
        assert_eq!(status, 404);
        assert!(body.contains("Na této adrese žádný HIT není."), "no campaign: the browser's language: {body}");

        // Arabic target: the interface right to left.
        let ar = upload(&org, "en-ar", "i18n-ar").await;
        let link = launch(&org, &ar, "Arabic", json!({})).await;
        let (worker, a) = arrive(&server, &link, "AR-1", "en-US").await;
        let html = page(&worker, &format!("/work/{a}"), "en-US").await;
        let work = tag_of(&html, "work");
        assert!(work.contains("lang=\"ar\"") && work.contains("dir=\"rtl\""), "{work}");
        assert!(html.contains(">ابدأ<"), "Arabic Start: {html}");
        assert!(tag_of(&html, "instructions").contains("dir=\"rtl\""));

        // French target (not in the catalog): the browser's first catalog language.
        let fr = upload(&org, "en-fr", "i18n-fr").await;
        let link = launch(&org, &fr, "French", json!({})).await;
        let (worker, a) = arrive(&server, &link, "FR-1", "fr-FR, fr;q=0.9, cs;q=0.8, de;q=0.7").await;
        let html = page(&worker, &format!("/work/{a}"), "fr-FR, fr;q=0.9, cs;q=0.8, de;q=0.7").await;
        assert!(tag_of(&html, "work").contains("lang=\"cs\""), "{}", tag_of(&html, "work"));
        assert!(html.contains(">Začít<"), "Czech Start: {html}");
        // The texts being judged keep their own language.
        let state: Value = serde_json::from_str(&call(&worker, "load_work", &[("assignment", &a)], "ja").await.1).unwrap();
        assert_eq!((state["screen"]["ui"].clone(), state["screen"]["lang"].clone()), (json!("ja"), json!("fr")));
        let html = page(&worker, &format!("/work/{a}"), "pt-BR").await;
        assert!(tag_of(&html, "work").contains("lang=\"en\"") && html.contains(">Start<"), "no catalog language: English");

        // A language the catalog lacks is refused by name, and nothing is created.
        let before = org.call("list_campaigns", &[]).await.json().as_array().unwrap().len();
        let systems: Vec<i64> = de["systems"].as_array().unwrap().iter().map(|s| s["id"].as_i64().unwrap()).collect();
        let draft = json!({ "name": "Klingon", "task": "da-adequacy", "test_set_id": de["id"], "systems": systems, "benchmark_systems": [], "seed": 4,
            "settings": { "judgments_wanted": 14, "interface_language": "tlh" } });
        let refused = org.call_json("create_campaign", json!({ "draft": draft })).await;
        assert_eq!(refused.status, 400, "{}", refused.body);
        assert!(refused.body.contains("the interface language must be empty (automatic) or one of en, de, cs, zh-Hans, ja, ar, hi, not") && refused.body.contains("tlh"), "{}", refused.body);
        assert_eq!(org.call("list_campaigns", &[]).await.json().as_array().unwrap().len(), before);

        // The organizer's choice wins over the target; the crowd page follows it.
        let link = launch(&org, &de, "German in Hindi", json!({ "interface_language": "hi", "hit_length": 12, "bad_refs": 2, "repeats": 1, "refs": 1, "sets": 2, "judgments_wanted": 1 })).await;
        let (worker, a) = arrive(&server, &link, "HI-1", "de").await;
        let html = page(&worker, &format!("/work/{a}"), "de").await;
        assert!(tag_of(&html, "work").contains("lang=\"hi\"") && html.contains(">शुरू करें<"), "{html}");
        let other = server.browser();
        let r = other.client.get(format!("{}{link}&worker=HI-2", other.base)).header("accept-language", "de").send().await.unwrap();
        assert_eq!(r.status(), 200, "one HIT only: no work for a second worker");
        let body = r.text().await.unwrap();
        assert!(body.contains("lang=\"hi\"") && body.contains("अभी कोई काम नहीं"), "{body}");
    }
}
