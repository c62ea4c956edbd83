//! The ESA readers and ranking: hand-checked cases, and agreement with the independent Python
//! implementation of `tests/fixtures/esa/generate.py` (SciPy's `wilcoxon` and `norm.ppf`).

use super::*;
use crate::protocol::Severity;

/// Lines in the shapes of WMT 2024's released ESA CSV (wave 2).
const RELEASED: &str = r#"engjpn7904,ende-tutorial1,1000001,TGT,eng,jpn,0,ende-tutorial1,False,[],1724108643.055,1724108643.055
engjpn7904,Llama3-70B,7,TGT,eng,jpn,91,test-en-news_brisbanetimes.com.au.228963,False,"[{""start_i"":54,""end_i"":57,""severity"":""minor"",""error_type"":null}]",1724108941.361,1724109050.071
engjpn790a,Unbabel-Tower70B,758,TGT,eng,jpn,64,test-en-speech_OExU5AL7RMM_000,False,"[{""start_i"":9,""end_i"":18,""severity"":""minor"",""error_type"":null},{""start_i"":""missing"",""end_i"":""missing"",""severity"":""minor"",""error_type"":null}]",1724111300.683,1724111319.604
engjpn7905,IKUN-C,716,BAD,eng,jpn,18,test-en-speech_5969NouFGfs_002#bad,False,[],1724111006.824,1724111112.084
engzho7902,HW-TSC,481,TGT,eng,zho,86,test-en-social_112140958167999904#incomplete,False,[],1724109071.143,1724109071.145
"#;

#[test]
fn reads_the_released_csv_shapes() {
    let file = read_esa_csv(RELEASED.as_bytes()).unwrap();
    assert_eq!(file.ratings.len(), 5);
    let r = &file.ratings[2];
    assert_eq!((r.line, r.user.as_str(), r.system.as_str(), r.item.as_str(), r.pair.as_str()), (3, "engjpn790a", "Unbabel-Tower70B", "758", "en-ja"));
    assert_eq!(r.score, 64.0);
    assert_eq!(r.spans, vec![Span::new(9, 18, Severity::Minor), Span::omission(Severity::Minor)]);
    assert_eq!(r.end_time, Some(1724111319.604));
    assert_eq!(file.ratings[4].pair, "en-zh");
    assert_eq!((file.spans.spans, file.spans.omissions, file.spans.minor), (3, 1, 3));
    assert!(looks_like_esa_csv(RELEASED.lines().nth(1).unwrap()));
    assert!(!looks_like_esa_csv("username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd"));
    assert!(!looks_like_esa_csv("u,s,1,TGT,eng,deu,50,1.0,2.0"));

    let sel = select(&file.ratings, None).unwrap();
    assert_eq!(sel.dropped, Dropped { not_tgt: 1, tutorial: 1, incomplete: 1, ..Dropped::default() });
    assert_eq!(sel.pairs.len(), 1);
    assert_eq!(sel.pairs[0].domains, vec!["news".to_string(), "speech".to_string()]);
}

#[test]
fn domains_from_document_ids() {
    assert_eq!(domain_from_document_id("test-en-social_112140958167999904"), Some("social"));
    assert_eq!(domain_from_document_id("test-en-speech_-uigLE6EI1g_000"), Some("speech"));
    assert_eq!(domain_from_document_id("test-en-news_brisbanetimes.com.au.228963"), Some("news"));
    assert_eq!(domain_from_document_id("news_x"), Some("news"));
    assert_eq!(domain_from_document_id("canary"), None);
    assert_eq!(domain_from_document_id("test-_x"), None);
}

#[test]
fn read_errors_name_the_line_and_field() {
    let ok = "u,S,1,TGT,eng,deu,70,test-en-news_a,False,[],1.0,2.0\n";
    for (bad, says) in [
        ("u,S,1,TGT,eng,deu,70,test-en-news_a,False,[],1.0\n", "line 2: expected 12 comma-separated fields"),
        ("u,S,1,TGT,eng,deu,seventy,test-en-news_a,False,[],1.0,2.0\n", "line 2: field 7 (score): not a number: \"seventy\""),
        ("u,S,1,TGT,eng,deu,170,test-en-news_a,False,[],1.0,2.0\n", "line 2: field 7 (score): the score 170 lies outside 0–100"),
        ("u,S,1,TGT,xx1,deu,70,test-en-news_a,False,[],1.0,2.0\n", "line 2: field 5 (srcLang): unknown language code"),
        ("u,S,1,TGT,eng,deu,70,test-en-news_a,Maybe,[],1.0,2.0\n", "line 2: field 9 (isCompleteDocument): expected True or False"),
        ("u,S,1,TGT,eng,deu,70,test-en-news_a,False,\"[{\"\"start_i\"\":3,\"\"end_i\"\":1,\"\"severity\"\":\"\"minor\"\"}]\",1.0,2.0\n", "line 2: field 10 (spansJSON): span 1: the span 3–1 is empty or reversed"),
        ("u,S,1,TGT,eng,deu,70,test-en-news_a,False,\"[{\"\"start_i\"\":3,\"\"end_i\"\":4,\"\"severity\"\":\"\"bad\"\"}]\",1.0,2.0\n", "line 2: field 10 (spansJSON): span 1: unknown severity \"bad\""),
        ("u,S,1,TGT,eng,deu,70,test-en-news_a,False,[],2.0,1.0\n", "line 2: field 12 (end_time): 1 is before start_time 2"),
        ("u,,1,TGT,eng,deu,70,test-en-news_a,False,[],1.0,2.0\n", "line 2: field 2 (system): empty"),
        ("u,S,1,TGT,eng,deu,70,\"test-en-news_a,False,[],1.0,2.0\n", "line 2: expected 12 comma-separated fields (user, system, itemID, itemType, srcLang, tgtLang, score, documentID, isCompleteDocument, spansJSON, start_time, end_time), found 8 (a quoted field holding a line break: is a quote not closed?)"),
    ] {
        let text = format!("{ok}{bad}");
        let e = read_esa_csv(text.as_bytes()).unwrap_err().to_string();
        assert!(e.starts_with(says), "{bad}: {e}");
    }
    let jsonl_ok = r#"{"langs":"en-de","line_id":3,"src":"a","tgt":"b c","doc_id":"test-en-news_a","domain":"news","esa_spans":[],"esa_score":"70","system":"S","annotator":"u"}"#;
    for (bad, says) in [
        (r#"{"langs":"en-de","line_id":3,"src":"a","tgt":"b","doc_id":"d","domain":"news","esa_spans":[],"system":"S","annotator":"u"}"#, "line 2: key \"esa_score\": missing"),
        (r#"{"langs":"en","line_id":3,"src":"a","tgt":"b","doc_id":"d","domain":"news","esa_spans":[],"esa_score":1,"system":"S","annotator":"u"}"#, "line 2: key \"langs\": "),
        (r#"{"langs":"en-de","line_id":3,"src":"a","tgt":"b","doc_id":"d","domain":"news","esa_spans":[],"esa_score":"x","system":"S","annotator":"u"}"#, "line 2: key \"esa_score\": not a number"),
        (r#"{"langs":"en-de","line_id":3,"src":"a","tgt":"b","doc_id":"d","domain":"news","esa_spans":{},"esa_score":1,"system":"S","annotator":"u"}"#, "line 2: key \"esa_spans\": the spans are not a JSON array"),
        (r#"{"langs":"en-de","line_id":3,"src":"a","tgt":"b","doc_id":"d","domain":"news","esa_spans":[],"esa_score":1,"system":"S","annotator":"u","times":[1]}"#, "line 2: key \"times\": expected [start, end]"),
        ("[1, 2]", "line 2: not a JSON object"),
    ] {
        let text = format!("{jsonl_ok}\n{bad}\n");
        let e = read_esa_jsonl(text.as_bytes()).unwrap_err().to_string();
        assert!(e.starts_with(says), "{bad}: {e}");
    }
    let file = read_esa_jsonl(format!("{jsonl_ok}\n").as_bytes()).unwrap();
    assert_eq!((file.ratings[0].score, file.ratings[0].item.as_str(), file.ratings[0].domain.as_deref()), (70.0, "3", Some("news")));
    assert!(looks_like_esa_jsonl(jsonl_ok));

    // A document whose domain cannot be told, and one missing from a documents file.
    let no_domain = "u,S,1,TGT,eng,deu,70,plaindoc,False,[],1.0,2.0\n";
    let file = read_esa_csv(no_domain.as_bytes()).unwrap();
    assert!(select(&file.ratings, None).unwrap_err().to_string().starts_with("line 1: cannot tell the domain of document \"plaindoc\""));
    let mut docs = HashMap::new();
    read_documents("canary\tcanary\nnews\tother\n".as_bytes(), &mut docs).unwrap();
    assert_eq!(select(&file.ratings, Some(&docs)).unwrap_err().to_string(), "line 1: document \"plaindoc\" is not in the documents file");
    assert!(read_documents("news\ta\nsocial\ta\n".as_bytes(), &mut docs).unwrap_err().to_string().starts_with("line 2: document \"a\" is in domain \"social\" here but \"news\" before"));
}

#[test]
fn the_latest_rating_per_annotator_and_item_and_the_mean_over_annotators() {
    let text = "\
a,S,1,TGT,eng,deu,10,test-en-news_d,False,[],100.0,300.0
a,S,1,TGT,eng,deu,30,test-en-news_d,False,[],100.0,200.0
b,S,1,TGT,eng,deu,60,test-en-news_d,False,[],100.0,150.0
b,S,1,TGT,eng,deu,80,test-en-news_d,False,[],100.0,150.0
a,S,1,TGT,eng,deu,0,test-en-news_d,True,[],100.0,150.0
";
    let file = read_esa_csv(text.as_bytes()).unwrap();
    let sel = select(&file.ratings, None).unwrap();
    // a: 10 (end 300 beats 200); b: 80 (equal end times: the later line); mean 45.
    assert_eq!(sel.dropped, Dropped { superseded: 2, document_level: 1, ..Dropped::default() });
    let v = &sel.pairs[0].segments[0][&("test-en-news_d".to_string(), "1".to_string())];
    assert_eq!((v.value, v.annotators), (45.0, 2));
}

#[test]
fn stouffer_as_wmt_computes_it() {
    assert_eq!(stouffer(&[]), None);
    // One domain: 1 − Φ(Φ⁻¹(1 − p)) = p (to statrs's precision).
    assert!((stouffer(&[0.03]).unwrap() - 0.03).abs() < 1e-11);
    // A domain with p = 1 makes Z = −∞: p = 1 whatever the others.
    assert_eq!(stouffer(&[1e-9, 1.0]), Some(1.0));
    // Two domains at two-sided p = 0.5: z = 0 each, p = 0.5.
    assert!((stouffer(&[0.5, 0.5]).unwrap() - 0.5).abs() < 1e-15);
}

// ---------------------------------------------------------------------------------------------
// The fixture

#[derive(serde::Deserialize)]
struct Fixture {
    scipy: String,
    cases: Vec<Case>,
    wilcoxon: Vec<WilcoxonCase>,
}

#[derive(serde::Deserialize)]
struct Case {
    name: String,
    alpha: f64,
    min_segments: f64,
    csv: String,
    expected_csv: Expected,
    jsonl: Option<String>,
    expected_jsonl: Option<Expected>,
    docs: Option<String>,
}

#[derive(serde::Deserialize)]
struct Expected {
    dropped: Dropped,
    pairs: BTreeMap<String, BTreeMap<String, Ranking>>,
    too_thin: Vec<String>,
}

#[derive(serde::Deserialize)]
struct Ranking {
    systems: Vec<String>,
    score: Vec<f64>,
    n: Vec<usize>,
    wins: Vec<usize>,
    losses: Vec<usize>,
    rank_lo: Vec<usize>,
    rank_hi: Vec<usize>,
    cluster: Vec<usize>,
    p: Vec<Vec<Option<f64>>>,
    tests: TestMethods,
}

#[derive(serde::Deserialize)]
struct WilcoxonCase {
    d: Vec<f64>,
    method: String,
    two_sided: f64,
    greater: f64,
    scipy_two_sided: Option<f64>,
}

/// Largest deviations seen, for the report.
#[derive(Default, Debug)]
struct Deviation {
    compared: usize,
    max_abs: f64,
    max_rel: f64,
}

impl Deviation {
    fn check(&mut self, got: f64, want: f64, what: &dyn Fn() -> String) {
        let abs = (got - want).abs();
        let rel = abs / want.abs().max(1e-300);
        assert!(abs <= 1e-12 || rel <= 1e-9, "{}: got {got}, SciPy {want}", what());
        self.compared += 1;
        self.max_abs = self.max_abs.max(abs);
        self.max_rel = self.max_rel.max(if want == 0.0 { 0.0 } else { rel });
    }
}

fn check_analysis(got: &EsaAnalysis, want: &Expected, case: &str, p_dev: &mut Deviation, score_dev: &mut Deviation, decisions: &mut usize) {
    assert_eq!(got.dropped, want.dropped, "{case}: dropped");
    let thin: Vec<&str> = got.too_thin.iter().map(|t| t.pair.as_str()).collect();
    assert_eq!(thin, want.too_thin.iter().map(String::as_str).collect::<Vec<_>>(), "{case}: too thin");
    let rule = got.settings.rule.as_str();
    assert_eq!(got.ranked.len(), want.pairs.len(), "{case}: pairs ranked");
    for report in &got.ranked {
        let w = &want.pairs[&report.pair][rule];
        let ctx = |what: &str| format!("{case}, {}, {rule}: {what}", report.pair);
        let names: Vec<&str> = report.systems.iter().map(|s| s.system.as_str()).collect();
        assert_eq!(names, w.systems.iter().map(String::as_str).collect::<Vec<_>>(), "{}", ctx("order"));
        for (i, s) in report.systems.iter().enumerate() {
            score_dev.check(s.score, w.score[i], &|| ctx(&format!("score of {}", s.system)));
            let got_row = (s.n, s.wins, s.losses, s.rank_lo, s.rank_hi, s.cluster);
            let want_row = (w.n[i], w.wins[i], w.losses[i], w.rank_lo[i], w.rank_hi[i], w.cluster[i]);
            assert_eq!(got_row, want_row, "{}", ctx(&format!("n, wins, losses, rank_lo, rank_hi, cluster of {}", s.system)));
            *decisions += 1;
            for (j, want_p) in w.p[i].iter().enumerate() {
                match (report.p_values[i][j], want_p) {
                    (Some(g), Some(e)) => p_dev.check(g, *e, &|| ctx(&format!("p({}, {})", s.system, names[j]))),
                    (None, None) => {}
                    (g, e) => panic!("{}: got {g:?}, expected {e:?}", ctx(&format!("p({}, {})", s.system, names[j]))),
                }
            }
        }
        assert_eq!(report.tests, w.tests, "{}", ctx("the tests' methods"));
    }
}

#[test]
fn the_ranking_matches_the_independent_python_implementation() {
    let fixture: Fixture = serde_json::from_str(include_str!("../../../../tests/fixtures/esa/esa.json")).expect("the ESA fixture");
    assert!(fixture.cases.len() >= 10);
    let (mut p_dev, mut score_dev, mut decisions, mut runs) = (Deviation::default(), Deviation::default(), 0, 0);
    let mut methods = TestMethods::default();
    for case in &fixture.cases {
        let docs = case.docs.as_ref().map(|text| {
            let mut map = HashMap::new();
            read_documents(text.as_bytes(), &mut map).unwrap();
            map
        });
        let csv = read_esa_csv(case.csv.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let jsonl = case.jsonl.as_ref().map(|t| read_esa_jsonl(t.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", case.name)));
        for rule in [EsaRule::Wmt24, EsaRule::Wmt25] {
            let settings = EsaSettings { rule, alpha: case.alpha, min_segments: case.min_segments };
            let got = analyse(&csv, docs.as_ref(), &settings).unwrap();
            check_analysis(&got, &case.expected_csv, &format!("{} (CSV)", case.name), &mut p_dev, &mut score_dev, &mut decisions);
            runs += 1;
            for r in &got.ranked {
                methods.exact += r.tests.exact;
                methods.permutation += r.tests.permutation;
                methods.normal += r.tests.normal;
                methods.all_zero += r.tests.all_zero;
            }
            if let (Some(file), Some(want)) = (&jsonl, &case.expected_jsonl) {
                let got = analyse(file, None, &settings).unwrap();
                assert_eq!(got.domain_source, DomainSource::JsonlColumn);
                check_analysis(&got, want, &format!("{} (JSONL)", case.name), &mut p_dev, &mut score_dev, &mut decisions);
                runs += 1;
            }
        }
    }
    eprintln!(
        "ESA fixture (SciPy {}): {} analyses, {} system rows identical (n, wins, losses, ranks, clusters); p-values: {:?}; scores: {:?}; per-domain tests {:?}",
        fixture.scipy, runs, decisions, p_dev, score_dev, methods
    );
    assert!(methods.exact > 50 && methods.permutation > 50 && methods.normal > 50 && methods.all_zero > 0, "{methods:?}");
}

#[test]
fn the_per_domain_test_is_scipys_wilcoxon_with_its_defaults() {
    let fixture: Fixture = serde_json::from_str(include_str!("../../../../tests/fixtures/esa/esa.json")).expect("the ESA fixture");
    let mut dev = Deviation::default();
    let mut seen = BTreeSet::new();
    for case in &fixture.wilcoxon {
        let mut methods = TestMethods::default();
        for (alt, want) in [(Alternative::TwoSided, case.two_sided), (Alternative::Greater, case.greater)] {
            let got = domain_p(&case.d, alt, &mut methods);
            dev.check(got, want, &|| format!("{:?} {alt:?} ({})", case.d, case.method));
        }
        let method = match (methods.exact, methods.permutation, methods.normal, methods.all_zero) {
            (2, 0, 0, 0) => "exact",
            (0, 2, 0, 0) => "permutation",
            (0, 0, 2, 0) => "normal",
            (0, 0, 0, 2) => "all_zero",
            other => panic!("mixed methods {other:?}"),
        };
        assert_eq!(method, case.method, "{:?}", case.d);
        seen.insert(method);
        // SciPy itself gives NaN only when every difference is zero and there are more than 13.
        let all_zero_above_13 = case.d.iter().all(|x| *x == 0.0) && case.d.len() > 13;
        assert_eq!(case.scipy_two_sided.is_none(), all_zero_above_13, "{:?}", case.d);
        if all_zero_above_13 {
            assert!(matches!(signed_rank_scipy_auto(&case.d, Alternative::TwoSided), Err(StatsError::AllZero { .. })));
        }
    }
    assert_eq!(seen.len(), 4, "every branch of SciPy's choice is covered: {seen:?}");
    eprintln!("wilcoxon: {} cases against SciPy {}: {dev:?}", fixture.wilcoxon.len(), fixture.scipy);
}

#[test]
fn the_normal_quantile_agrees_with_scipy() {
    // Values of SciPy 1.17's norm.ppf.
    let normal = Normal::standard();
    for (q, want) in [
        (0.97, 1.8807936081512509),
        (0.5, 0.0),
        (0.025, -1.9599639845400545),
        (1e-10, -6.361340902404056),
        (0.999999, 4.753424308817087),
        (0.3, -0.5244005127080409),
    ] {
        let got = normal_quantile(&normal, q);
        assert!((got - want).abs() <= 1e-10 * want.abs().max(1.0), "Φ⁻¹({q}) = {got}, SciPy {want}");
    }
    assert_eq!(normal_quantile(&normal, 0.0), f64::NEG_INFINITY);
    assert_eq!(normal_quantile(&normal, 1.0), f64::INFINITY);
}

#[test]
fn the_csv_writer_is_read_back_exactly() {
    let file = read_esa_csv(RELEASED.as_bytes()).unwrap();
    let mut out = Vec::new();
    write_esa_csv(&mut out, "eng", "jpn", &file.ratings[..4]).unwrap();
    let again = read_esa_csv(out.as_slice()).unwrap();
    assert_eq!(again.ratings.len(), 4);
    for (a, b) in file.ratings.iter().zip(&again.ratings) {
        assert_eq!((&a.user, &a.system, &a.item, &a.item_type, a.score, &a.document, a.complete_document), (&b.user, &b.system, &b.item, &b.item_type, b.score, &b.document, b.complete_document));
        assert_eq!(a.spans, b.spans);
        assert_eq!((a.start_time, a.end_time), (b.start_time, b.end_time));
    }
    // Commas and quotes in names, a document score, spans in Arabic text offsets.
    let r = EsaRating {
        line: 1,
        user: "link:W,1".into(),
        system: "Sys \"A\"".into(),
        item: "7".into(),
        item_type: "TGT".into(),
        pair: "en-ar".into(),
        score: 33.5,
        document: "doc-1".into(),
        complete_document: true,
        domain: None,
        spans: vec![Span::new(3, 9, Severity::Major), Span::omission(Severity::Minor)],
        start_time: Some(1.5),
        end_time: Some(20.25),
        target: None,
        original: None,
        source: None,
        prefilled: None,
        doc_seg: None,
    };
    let mut out = Vec::new();
    write_esa_csv(&mut out, "eng", "ara", std::slice::from_ref(&r)).unwrap();
    let back = read_esa_csv(out.as_slice()).unwrap().ratings.remove(0);
    assert_eq!((back.user.as_str(), back.system.as_str(), back.pair.as_str(), back.score, back.complete_document), ("link:W,1", "Sys \"A\"", "en-ar", 33.5, true));
    assert_eq!(back.spans, r.spans);
}

/// A system's score is the mean of its domains' means of its segments' means over annotators:
/// summed as floating point numbers it comes out a few units in the last place off (here
/// 54.00000000000001 for the exact 54 = (224/3 + 2 + 90 + 148/3) / 4), which the ranking file
/// printed; the ranking and its file hold 54. A rating's score is written the same way.
#[test]
fn scores_are_written_without_float_noise() {
    let mut text = String::new();
    for (item, scores) in [(1, &[48, 87, 89][..]), (2, &[2]), (3, &[90]), (4, &[52, 53, 43])] {
        for (k, score) in scores.iter().enumerate() {
            text.push_str(&format!("u{k},S,{item},TGT,eng,deu,{score},test-en-news_d,False,[],1.0,2.0\n"));
        }
    }
    let file = read_esa_csv(text.as_bytes()).unwrap();
    let data = &select(&file.ratings, None).unwrap().pairs[0];
    let naive = data.segments[0].values().map(|v| v.value).sum::<f64>() / 4.0;
    assert_eq!(naive, 54.00000000000001, "the noise this test is about");
    let report = rank_pair(data, &EsaSettings { min_segments: 0.0, ..EsaSettings::default() });
    assert_eq!(report.systems[0].score, 54.0);
    assert_eq!(report.systems[0].domains["news"].mean, 54.0);
    let mut out = Vec::new();
    write_esa_ranking_csv(&mut out, &report).unwrap();
    assert_eq!(String::from_utf8(out).unwrap().lines().nth(1), Some("S,54,4,0,0,1,1,1"));
    let mut r = file.ratings[0].clone();
    r.score = 0.1 + 0.2;
    let mut out = Vec::new();
    write_esa_csv(&mut out, "eng", "deu", &[r]).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "u0,S,1,TGT,eng,deu,0.3,test-en-news_d,False,[],1,2\n");
}

/// Text holding everything a CSV field can: line breaks of every kind, quotes, commas, tabs,
/// the first characters of a spreadsheet formula and `'`, and text beyond ASCII (combining
/// marks, right to left, CJK, emoji sequences), never only blanks.
fn awkward_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "\n", "\r\n", "\r", "\"", "\"\"", ",", "\t", "'", "=", "+", "-", "@", " ", "a", "Z9", "e\u{301}", "\u{5e9}\u{5dc}\u{5d5}\u{5dd}",
        "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}", "\u{6f22}\u{5b57}", "\u{1f600}", "\u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}", "a\u{feff}",
    ]);
    prop::collection::vec(pieces, 1..10).prop_map(|p| p.concat()).prop_filter("something besides blanks", |s| !s.trim().is_empty())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The ESA CSV Assay writes (`esa-<lp>.csv`, `mqm-<lp>.csv`) is read back exactly, whatever
    /// its names and the spans' categories hold.
    #[test]
    fn the_esa_csv_reads_back_whatever_its_texts_hold(
        ratings in proptest::collection::vec((awkward_text(), awkward_text(), awkward_text(), awkward_text(), awkward_text(), proptest::option::of(awkward_text()), 0u8..=100), 1..5),
    ) {
        let ratings: Vec<EsaRating> = ratings
            .into_iter()
            .enumerate()
            .map(|(i, (user, system, item, item_type, document, category, score))| EsaRating {
                line: i + 1,
                user,
                system,
                item,
                item_type,
                pair: "en-de".into(),
                score: f64::from(score),
                document,
                complete_document: i % 2 == 1,
                domain: None,
                spans: vec![Span { category, ..Span::new(1, 4, Severity::Major) }, Span::omission(Severity::Minor)],
                start_time: Some(1.5),
                end_time: Some(2.0 + i as f64),
                target: None,
                original: None,
                source: None,
                prefilled: None,
                doc_seg: None,
            })
            .collect();
        let mut out = Vec::new();
        write_esa_csv(&mut out, "eng", "deu", &ratings).unwrap();
        let back = read_esa_csv(out.as_slice()).unwrap().ratings;
        proptest::prop_assert_eq!(back.len(), ratings.len());
        for (a, b) in ratings.iter().zip(&back) {
            proptest::prop_assert_eq!((&a.user, &a.system, &a.item, &a.item_type, &a.document), (&b.user, &b.system, &b.item, &b.item_type, &b.document));
            proptest::prop_assert_eq!((a.score, a.complete_document, &a.pair, a.end_time), (b.score, b.complete_document, &b.pair, b.end_time));
            proptest::prop_assert_eq!(&a.spans, &b.spans);
        }
    }
}
