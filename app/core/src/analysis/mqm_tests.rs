use super::*;
use crate::protocol::spans::Span;

const SAMPLE: &str = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment
A\ttalk.1\t1\t1\trater1\tHello world.\tHallo <v>Welt</v>.\tAccuracy/Mistranslation\tMajor\t
A\ttalk.1\t1\t1\trater1\tHello world.\t<v>Hallo</v> Welt.\tFluency/Punctuation\tMinor\t
A\ttalk.1\t1\t1\trater2\tHello world.\tHallo Welt.\tNo-error\tNo-error\t
B\ttalk.1\t1\t1\trater1\tHello <v>big</v> world.\tHallo Welt.\tAccuracy/Omission\tMajor\t
B\ttalk.1\t1\t1\trater2\tHello world.\t我们<v>去北京</v>。\tStyle/Awkward\tMinor\t{\"note\": \"x\"}
B\ttalk.1\t1\t2\trater2\tSee.\tSie<v>he\u{301}</v>.\tFluency/Spelling\tminor\t
A\ttalk.1\t1\t2\trater2\tSee.\tSieh.\tno-error\tno-error\t
A\ttalk.1\t1\t2\trater1\tSee.\tKomplett anders.\tNon-translation!\tMajor\t
";

fn rows() -> Vec<MqmRow> {
    read_mqm_tsv(SAMPLE.as_bytes()).expect("the sample reads").rows
}

#[test]
fn reads_spans_in_the_assay_convention() {
    let r = rows();
    assert_eq!(r.len(), 8);
    assert_eq!(r[0].line, 2);
    assert_eq!(r[0].target, "Hallo Welt.");
    let e = r[0].error.as_ref().unwrap();
    assert_eq!((e.side, e.start, e.end, e.severity), (Side::Target, 6, 10, Severity::Major));
    let span = r[0].target_span().unwrap();
    assert_eq!(span.marked(&r[0].target), Some("Welt"));
    assert_eq!(span.category.as_deref(), Some("Accuracy/Mistranslation"));
    assert!(r[2].error.is_none(), "No-error row");
    // Source side: an omission keeps its flag and its offsets on the source.
    let om = r[3].error.as_ref().unwrap();
    assert_eq!((om.side, om.start, om.end), (Side::Source, 6, 9));
    assert_eq!(r[3].source, "Hello big world.");
    assert!(r[3].target_span().is_none());
    // Chinese: offsets count characters, not bytes.
    let zh = r[4].error.as_ref().unwrap();
    assert_eq!((zh.start, zh.end), (2, 5));
    assert_eq!(r[4].target_span().unwrap().marked(&r[4].target), Some("去北京"));
    assert_eq!(r[4].metadata, "{\"note\": \"x\"}");
    // A combining mark inside the span: e + U+0301 is two characters.
    let sp = r[5].error.as_ref().unwrap();
    assert_eq!((sp.start, sp.end, sp.severity), (3, 6, Severity::Minor));
    assert!(r[5].target_span().unwrap().validate(&r[5].target, crate::protocol::spans::Scheme::Mqm).is_ok());
    // Unmarked non-translation.
    assert_eq!(r[7].error.as_ref().unwrap().side, Side::Unmarked);
}

#[test]
fn headerless_nine_columns_and_csv_quoting() {
    let text = "S\td\t7\t609\tr1\t\"Last week, a \"\"serious\"\" one.\"\t\"Letzte <v>--</v> \"\"ernst\"\".\"\tSource error/-\tMinor\n\
                S\td\t8\t610\tr1\t\"Quote\" at the start\tKein \"Zitat\tNo-error\tNo-error\n";
    let r = read_mqm_tsv(text.as_bytes()).unwrap().rows;
    assert_eq!(r[0].source, "Last week, a \"serious\" one.");
    assert_eq!(r[0].target, "Letzte -- \"ernst\".");
    let e = r[0].error.as_ref().unwrap();
    assert_eq!((e.start, e.end), (7, 9));
    assert_eq!(r[0].weight(&MqmWeights::default()), 0.0, "a source error weighs 0");
    assert_eq!(r[1].source, "\"Quote\" at the start", "not a quoted field: kept as written");
    assert_eq!(r[1].target, "Kein \"Zitat");
    assert!(looks_like_mqm_tsv(text.lines().next().unwrap()));
    assert!(looks_like_mqm_tsv("system\tdoc\tdoc_seg_id\tglobal_seg_id\trater\tsource\ttarget\tcategory\tseverity\tmetadata"));
    assert!(!looks_like_mqm_tsv("HITId\tWorkerId\tInput.src\tInput.trg\tInput.item\thit\tsys_id\trid\ttype"));
    assert!(!looks_like_mqm_tsv("a,b,c"));
}

#[test]
fn read_errors_name_the_line() {
    let head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n";
    let ok = "A\td\t1\t1\tr\ts\tt\tOther\tMinor\n";
    let cases = [
        ("A\td\t1\t1\tr\ts\tt\tOther\n", "expected 9 or 10"),
        ("A\td\t1\t1\tr\ts\tt</v>\tOther\tMinor\n", "field 7 (target)"),
        ("A\td\t1\t1\tr\ts\t<v>t</v> <v>u</v>\tOther\tMinor\n", "one <v>"),
        ("A\td\t1\t1\tr\ts\t</v>t<v>\tOther\tMinor\n", "before"),
        ("A\td\t1\t1\tr\ts\tt\tOther\tSevere\n", "field 9 (severity)"),
        ("A\td\t1\t1\tr\ts\tt\tOther\tundecided\n", "field 9 (severity)"),
        ("A\td\t1\t1\tr\ts\tt\tAccuracy/Omission\tNo-error\n", "No-error with the error category"),
        ("A\td\t1\t1\tr\ts\tt\tNo-error\tMajor\n", "needs a category"),
        ("A\td\t1\t1\tr\t<v>s</v>\t<v>t</v>\tOther\tMinor\n", "both the source and the target"),
        ("A\td\t1\t1\tr\ts\t<v>t</v>\tNo-error\tNo-error\n", "marks a span"),
        ("A\t\t1\t1\tr\ts\tt\tOther\tMinor\n", "field 2 (doc) is empty"),
        ("A\td\t1\t1\t \ts\tt\tOther\tMinor\n", "field 5 (rater) is empty"),
    ];
    for (bad, words) in cases {
        let text = format!("{head}{ok}\n{bad}");
        let e = read_mqm_tsv(text.as_bytes()).unwrap_err();
        assert_eq!(e.line, 4, "{bad:?}: {e}");
        assert!(e.message.contains(words), "{bad:?}: {e}");
    }
}

#[test]
fn an_unclosed_marker_runs_to_the_end_and_is_counted() {
    let text = "A\td\t1\t1\tr\ts\tDaten. <v>?\tFluency/Punctuation\tMinor\nA\td\t1\t2\tr\ts\tok\tNo-error\tNo-error\n";
    let f = read_mqm_tsv(text.as_bytes()).unwrap();
    assert_eq!(f.unclosed_markers, [1]);
    assert_eq!(f.rows[0].target, "Daten. ?");
    let e = f.rows[0].error.as_ref().unwrap();
    assert_eq!((e.start, e.end), (7, 8));
}

#[test]
fn write_then_read_is_the_same() {
    let r = rows();
    let mut out = Vec::new();
    write_mqm_tsv(&mut out, &r).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with(MQM_TSV_HEADER));
    assert!(text.contains("我们<v>去北京</v>。"), "{text}");
    assert!(text.contains("Hello <v>big</v> world."));
    let back = read_mqm_tsv(text.as_bytes()).unwrap().rows;
    assert_eq!(back.len(), r.len());
    for (a, b) in r.iter().zip(&back) {
        assert_eq!(MqmRow { line: 0, ..a.clone() }, MqmRow { line: 0, ..b.clone() });
    }
    // Refusals.
    let mut bad = r[0].clone();
    bad.target = "a\tb".into();
    assert!(write_mqm_tsv(Vec::new(), &[bad]).unwrap_err().to_string().contains("tab"));
    let mut bad = r[0].clone();
    bad.error.as_mut().unwrap().end = 40;
    assert!(write_mqm_tsv(Vec::new(), &[bad]).unwrap_err().to_string().contains("beyond"));
    let mut bad = r[0].clone();
    bad.source = "x <v>y".into();
    assert!(write_mqm_tsv(Vec::new(), &[bad]).unwrap_err().to_string().contains("marker"));
}

#[test]
fn scores_per_rater_segment_and_system() {
    let s = score(&rows(), &MqmWeights::default());
    let get = |sys: &str, seg: &str, rater: &str| s.raters.iter().find(|r| r.system == sys && r.global_seg_id == seg && r.rater == rater).unwrap().score;
    assert!((get("A", "1", "rater1") - -5.1).abs() < 1e-12, "{:?}", s.raters);
    assert_eq!(get("A", "1", "rater2"), 0.0);
    assert!(get("A", "1", "rater2").is_sign_positive());
    assert_eq!(get("A", "2", "rater1"), -25.0);
    assert_eq!(get("B", "1", "rater1"), -5.0);
    assert_eq!(get("B", "1", "rater2"), -1.0);
    assert_eq!(get("B", "2", "rater2"), -1.0);
    // Segments: A1 = (−5.1 + 0)/2 = −2.55, A2 = (0 − 25)/2 = −12.5 → A = −7.525;
    // B1 = (−5 − 1)/2 = −3, B2 = −1 → B = −2.
    assert_eq!(s.systems[0].system, "B");
    assert!((s.systems[0].score - -2.0).abs() < 1e-12);
    assert!((s.systems[1].score - -7.525).abs() < 1e-12, "{}", s.systems[1].score);
    let a = &s.systems[1];
    assert_eq!((a.n, a.ratings, a.errors, a.major, a.minor, a.source_side, a.unmarked), (2, 4, 3, 2, 1, 0, 1));
    let b = &s.systems[0];
    assert_eq!((b.n, b.ratings, b.errors, b.major, b.minor, b.source_side), (2, 3, 3, 1, 2, 1));
    let mut csv = Vec::new();
    write_mqm_scores_csv(&mut csv, &s.systems).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().next(), Some("system,score,n,ratings,errors,minor,major,critical,neutral,source_side,unmarked"));
    assert_eq!(csv.lines().nth(1), Some("B,-2,2,3,3,2,1,0,0,1,0"));
    // Critical as a setting.
    let crit = "A\td\t1\t1\tr\ts\t<v>t</v>\tOther\tCritical\n";
    let r = read_mqm_tsv(crit.as_bytes()).unwrap().rows;
    assert_eq!(score(&r, &MqmWeights::default()).systems[0].score, -5.0);
    assert_eq!(score(&r, &MqmWeights { critical: 10.0, ..MqmWeights::default() }).systems[0].score, -10.0);
}

/// Three systems over 120 segments in two domains: A clean, B one minor error per segment, C
/// one major error on every other segment; rater ids alternate.
fn synthetic() -> Vec<MqmRow> {
    let mut out = Vec::new();
    for seg in 0..120 {
        let doc = if seg < 60 { "news_1" } else { "social_1" };
        let rater = if seg % 2 == 0 { "r1" } else { "r2" };
        let row = |system: &str, error: Option<RowError>| MqmRow {
            line: 0,
            system: system.into(),
            doc: doc.into(),
            doc_seg_id: seg.to_string(),
            global_seg_id: seg.to_string(),
            rater: rater.into(),
            source: "source".into(),
            target: "target text".into(),
            error,
            metadata: String::new(),
        };
        let e = |sev: Severity| Some(RowError { category: "Accuracy/Mistranslation".into(), severity: sev, side: Side::Target, start: 0, end: 6 });
        out.push(row("A", None));
        out.push(row("B", if seg % 10 == 0 { None } else { e(Severity::Minor) }));
        out.push(row("C", if seg % 2 == 0 { e(Severity::Major) } else { None }));
    }
    out
}

#[test]
fn ranking_reuses_the_esa_tests() {
    let rows = synthetic();
    let settings = EsaSettings::default();
    let a = analyse("en-de", &rows, &MqmWeights::default(), None, &settings).unwrap();
    let ranking = a.ranking.as_ref().expect("120 segments per system: ranked");
    let names: Vec<&str> = ranking.systems.iter().map(|s| s.system.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    assert_eq!(ranking.domains, ["all"]);
    assert!((ranking.systems[1].score - -0.9).abs() < 1e-12);
    assert!((ranking.systems[2].score - -2.5).abs() < 1e-12);
    // A beats both, B beats C: three clusters, exact ranks.
    assert_eq!(ranking.systems.iter().map(|s| (s.rank_lo, s.rank_hi, s.cluster)).collect::<Vec<_>>(), [(1, 1, 1), (2, 2, 2), (3, 3, 3)]);
    assert!(ranking.p_values[0][1].unwrap() < 1e-10);
    assert_eq!(a.raters, 2);
    assert_eq!(a.systems.iter().map(|s| s.system.as_str()).collect::<Vec<_>>(), names);
    // Domains from a documents file.
    let docs: HashMap<String, String> = [("news_1", "news"), ("social_1", "social")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    let by_domain = analyse("en-de", &rows, &MqmWeights::default(), Some(&docs), &settings).unwrap();
    assert_eq!(by_domain.ranking.as_ref().unwrap().domains, ["news", "social"]);
    let missing: HashMap<String, String> = [("news_1".to_string(), "news".to_string())].into();
    let e = analyse("en-de", &rows, &MqmWeights::default(), Some(&missing), &settings).unwrap_err();
    assert!(e.message.contains("social_1"), "{e}");
    // Too thin.
    let thin = analyse("en-de", &rows[..30], &MqmWeights::default(), None, &settings).unwrap();
    assert!(thin.ranking.is_none());
    assert_eq!(thin.too_thin.as_ref().unwrap().average_segments_per_system, 10.0);
}

#[test]
fn pair_from_release_names() {
    assert_eq!(pair_from_file_name("mqm_newstest2020_ende.tsv").as_deref(), Some("en-de"));
    assert_eq!(pair_from_file_name("/data/x/mqm_generalMT2022_zhen.3ratingsPerSegment.tsv").as_deref(), Some("zh-en"));
    assert_eq!(pair_from_file_name("data.tsv"), None);
    assert_eq!(pair_from_file_name("my_data.tsv"), None);
    assert_eq!(pair_from_file_name("mqm_ted_xxyy.tsv"), None);
}

#[test]
fn assay_spans_and_rows_agree() {
    // A row's target span is an Assay span: validate it against the stripped target.
    for r in rows() {
        if let Some(s) = r.target_span() {
            let _: &Span = &s;
            assert!(s.validate(&r.target, crate::protocol::spans::Scheme::Mqm).is_ok(), "line {}", r.line);
        }
    }
}


#[test]
fn answers_become_rows() {
    let seg = SegmentRef { system: "S", doc: "d", doc_seg_id: "3", global_seg_id: "7", rater: "r", source: "src", target: "我们去北京" };
    let none = rows_for_answer(seg, &[]).unwrap();
    assert_eq!(none.len(), 1);
    assert!(none[0].error.is_none());
    let spans = [
        Span { category: Some("Accuracy/Mistranslation".into()), ..Span::new(2, 5, Severity::Major) },
        Span { category: Some("Accuracy/Omission".into()), ..Span::omission(Severity::Minor) },
    ];
    let rows = rows_for_answer(seg, &spans).unwrap();
    assert_eq!(rows[0].target_span().unwrap(), spans[0]);
    assert_eq!(rows[1].error.as_ref().unwrap().side, Side::Unmarked);
    assert!(rows_for_answer(seg, &[Span::new(0, 1, Severity::Minor)]).unwrap_err().to_string().contains("no error category"));
    let long = Span { category: Some("Other".into()), ..Span::new(3, 9, Severity::Minor) };
    assert!(rows_for_answer(seg, &[long]).unwrap_err().to_string().contains("does not fit"));
}

mod round_trip {
    use super::*;
    use crate::protocol::spans::grapheme_boundaries;
    use proptest::prelude::*;

    /// Latin with combining marks, Chinese (one ideograph outside the BMP), Arabic with harakat,
    /// Devanagari with viramas, emoji sequences.
    const PIECES: &[&str] = &[
        "The ", "cafe\u{301} ", "Zoe\u{308}", ", ", "我们", "去北京", "。", "𠮷野家", "مَرْحَبًا ", "كِتَابٌ ", "नमस्ते ", "क्षत्रिय ", "हिन्दी", "👍🏽", "👨\u{200d}👩\u{200d}👧", " ",
    ];
    const CATS: &[&str] = &["Accuracy/Mistranslation", "Fluency/Punctuation", "Style/Awkward", "Non-translation!"];

    fn answer() -> impl Strategy<Value = (String, Vec<Span>)> {
        prop::collection::vec(prop::sample::select(PIECES), 1..10).prop_map(|v| v.concat()).prop_flat_map(|t| {
            let n = grapheme_boundaries(&t).len();
            let span = (0..n, 0..n, prop::sample::select(&[Severity::Minor, Severity::Major, Severity::Critical, Severity::Neutral][..]), prop::sample::select(CATS), prop::bool::weighted(0.1));
            (Just(t), prop::collection::vec(span, 0..5))
        }).prop_map(|(t, raw)| {
            let b = grapheme_boundaries(&t);
            let spans = raw
                .into_iter()
                .filter_map(|(i, j, severity, cat, missing)| {
                    let base = Span { category: Some(cat.to_string()), ..Span::new(0, 0, severity) };
                    if missing {
                        return Some(Span { missing: true, ..base });
                    }
                    let (i, j) = (i.min(j), i.max(j));
                    (i < j).then(|| Span { start: b[i], end: b[j], ..base })
                })
                .collect();
            (t, spans)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Spans survive Assay → MQM TSV → Assay exactly, in every script, and mark the same text.
        #[test]
        fn spans_survive_the_tsv((target, spans) in answer()) {
            let seg = SegmentRef { system: "S", doc: "d", doc_seg_id: "1", global_seg_id: "1", rater: "r", source: "source", target: &target };
            let rows = rows_for_answer(seg, &spans).unwrap();
            let mut out = Vec::new();
            write_mqm_tsv(&mut out, &rows).unwrap();
            let back = read_mqm_tsv(&out[..]).unwrap();
            prop_assert!(back.unclosed_markers.is_empty());
            prop_assert_eq!(back.rows.len(), rows.len());
            for (row, s) in back.rows.iter().zip(&spans) {
                prop_assert_eq!(&row.target, &target);
                if s.missing {
                    prop_assert_eq!(row.error.as_ref().unwrap().side, Side::Unmarked);
                } else {
                    let got = row.target_span().unwrap();
                    prop_assert_eq!(&got, s);
                    prop_assert_eq!(got.marked(&row.target), s.marked(&target));
                }
            }
        }
    }
}

/// Google's own per-segment averages on an extract of its 2021 TED release
/// (`tests/fixtures/mqm/README.md`).
#[test]
fn agrees_with_googles_release() {
    let tsv = include_str!("../../../../tests/fixtures/mqm/mqm_ted_ende.extract.tsv");
    let avg = include_str!("../../../../tests/fixtures/mqm/mqm_ted_ende.extract.avg_seg_scores.tsv");
    let file = read_mqm_tsv(tsv.as_bytes()).unwrap();
    assert_eq!(file.rows.len(), 289);
    assert_eq!(file.unclosed_markers.len(), 1, "the release's one <v> without </v> in this extract");
    assert_eq!(file.rows.iter().filter(|r| r.error.as_ref().is_some_and(|e| e.side == Side::Source)).count(), 2);
    let scores = score(&file.rows, &MqmWeights::default());
    let means = segment_means(&scores.raters);
    let ours: HashMap<(String, String), f64> = means.iter().map(|((sys, _, key), (v, _))| ((sys.clone(), key.split('|').nth(1).unwrap().to_string()), *v)).collect();
    let mut checked = 0;
    for line in avg.lines().skip(1) {
        let f: Vec<&str> = line.split(['\t', ' ']).collect();
        let want: f64 = f[1].parse().unwrap();
        let got = ours[&(f[0].to_string(), f[2].to_string())];
        assert!((got - want).abs() < 1e-6, "{line}: ours {got}");
        checked += 1;
    }
    assert_eq!(checked, 270);
    assert_eq!(ours.len(), 270);
}
