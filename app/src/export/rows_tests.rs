use super::*;

fn ctx(filter: Filter) -> RowContext {
    let mut workers = HashMap::new();
    workers.insert("mturk:A1".to_string(), WorkerStatus { verdict: "fail".into(), p_value: Some(0.5), excluded: true, decision: "reject".into(), standardization: [None, None] });
    workers.insert("link:b,c".to_string(), WorkerStatus { verdict: "pass".into(), p_value: Some(0.001), excluded: false, decision: String::new(), standardization: [Some((50.0, 10.0)), None] });
    let mut documents = HashMap::new();
    documents.insert("s7".to_string(), ("doc A".to_string(), 3));
    RowContext {
        campaign_id: 4,
        task: "da-adequacy".into(),
        src_lang: "de".into(),
        trg_lang: "en".into(),
        src_lang3: "deu".into(),
        trg_lang3: "eng".into(),
        workers,
        documents,
        filter,
        known: None,
    }
}

fn row(worker: &str, score: Option<f64>) -> JudgmentRow<'_> {
    JudgmentRow {
        id: 10,
        hit: 2,
        assignment: 5,
        slot: 1,
        worker,
        platform: worker.split(':').next().unwrap(),
        position: 7,
        item_type: ItemType::BadRef,
        system: "Sys \"A\"",
        segment: "s7",
        document: Some("doc A"),
        score,
        score2: None,
        skipped: score.is_none(),
        submitted_at_ms: 1_700_000_010_500,
        time_on_screen_ms: Some(3500),
        ms: 3500,
        gold: false,
        status: None,
    }
}

/// Rows written from memory, a batch per core, are the rows written one after another in
/// id order, in every format (parts read side by side interleave their ids).
#[test]
fn judgment_files_written_from_memory_are_in_id_order() {
    use crate::analysis::db::{CampaignJudgments, SegmentName};
    let mut names = StoredNames::default();
    names.workers.insert(1, ("mturk".into(), "A1".into()));
    names.workers.insert(2, ("link".into(), "b,c".into()));
    names.systems.insert(1, "Sys \"A\"".into());
    names.segments.insert(
        7,
        SegmentName { key: "s7".into(), document: Some("doc A".into()), test_set: "t".into(), test_set_id: 1, domain: None, doc_index: Some(3) },
    );
    let j = |id: i64| StoredJudgment {
        id,
        assignment: id / 100,
        worker: 1 + id % 2,
        slot: 0,
        hit_index: (id / 100) as i32,
        position: (id % 100) as i32,
        item_type: if id % 10 == 0 { ItemType::BadRef } else { ItemType::System },
        system: Some(1),
        segment: 7,
        score: (id % 7 != 0).then_some((id % 101) as f64 + 0.25),
        score2: None,
        skipped: id % 7 == 0,
        submitted_at_ms: 1_700_000_000_000 + id,
        time_on_screen_ms: Some(id % 5000),
        ms: id % 4000,
        screen: None,
        gold_rank: None,
    };
    // Three parts whose ids interleave, 100,000 judgments: thirteen batches.
    let parts: Vec<Vec<StoredJudgment>> = (0..3).map(|k| (1..=100_000).filter(|id| id % 3 == k).map(j).collect()).collect();
    let kept = KeptRows { rows: CampaignJudgments::from_parts(parts), names: names.clone() };
    let c = ctx(Filter::Raw);
    let row_names = RowNames::new(names, &c);
    for format in RowFormat::ALL {
        let mut expected = header(format).unwrap_or_default();
        for id in 1..=100_000 {
            write_row(&mut expected, format, &c, &named_row(&j(id), &row_names).unwrap());
        }
        let mut out = Vec::new();
        write_kept(&mut out, format, &c, &kept).unwrap();
        assert!(out == expected.as_bytes(), "{format:?}: {} bytes, not {}", out.len(), expected.len());
    }
    // A judgment of an unknown worker: the error, not a file cut short without one.
    let mut broken = (1..=70_000).map(j).collect::<Vec<_>>();
    broken[66_000].worker = 9;
    let kept = KeptRows { rows: CampaignJudgments::from_parts(vec![broken]), names: kept.names };
    let e = write_kept(&mut Vec::new(), RowFormat::AssayCsv, &c, &kept).unwrap_err();
    assert!(e.to_string().contains("unknown worker 9"), "{e}");
}

#[test]
fn assay_rows_carry_every_field_and_the_workers_status() {
    let c = ctx(Filter::Raw);
    let mut out = header(RowFormat::AssayCsv).unwrap();
    assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", Some(12.25))));
    assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("mturk:A1", None)));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0].split(',').count(), 27);
    assert!(lines[0].ends_with("seconds,worker_verdict,worker_p_value,worker_excluded,worker_decision,z,z2"));
    // z = (12.25 − 50) / 10; no second score, no z2.
    assert_eq!(
        lines[1],
        "10,4,da-adequacy,de,en,2,5,1,\"link:b,c\",link,7,BAD_REF,\"Sys \"\"A\"\"\",s7,doc A,12.25,,0,1700000010500,3500,3.5,pass,0.001,false,,-3.775,"
    );
    // The excluded worker's judgments have no z.
    assert!(lines[2].contains(",,,1,") && lines[2].ends_with("fail,0.5,true,reject,,"), "{}", lines[2]);

    let mut json = String::new();
    write_row(&mut json, RowFormat::AssayJsonl, &c, &row("mturk:A1", Some(40.0)));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 27);
    assert_eq!((v["score"].as_f64(), v["worker_excluded"].as_bool(), v["seconds"].as_f64()), (Some(40.0), Some(true), Some(3.5)));
    assert!(v["z"].is_null() && v["z2"].is_null());
    json.clear();
    write_row(&mut json, RowFormat::AssayJsonl, &c, &row("link:b,c", Some(65.0)));
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!((v["z"].as_f64(), v["z2"].as_f64()), (Some(1.5), None));

    // Cleaned: the excluded worker and the skipped judgment are left out.
    let c = ctx(Filter::Cleaned);
    let mut out = String::new();
    assert!(!write_row(&mut out, RowFormat::AssayCsv, &c, &row("mturk:A1", Some(1.0))));
    assert!(!write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", None)));
    assert!(write_row(&mut out, RowFormat::AssayCsv, &c, &row("link:b,c", Some(1.0))));
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn text_that_a_spreadsheet_would_run_is_guarded_in_every_judgment_file() {
    let c = ctx(Filter::Raw);
    let mut r = row("mturk:=cmd", Some(-0.5));
    r.system = "=HYPERLINK(\"http://x\",\"y\")";
    r.segment = "@s1";
    // Every CSV (JSON lines keep the exact text: no spreadsheet reads them as formulas).
    for format in RowFormat::ALL.into_iter().filter(|f| *f != RowFormat::AssayJsonl) {
        let mut out = String::new();
        write_row(&mut out, format, &c, &r);
        assert!(out.contains("'=HYPERLINK"), "{format:?}: {out}");
        // WMT23 writes the segment's index in its document, not its id.
        assert!(format == RowFormat::AppraiseWmt23 || out.contains("'@s1"), "{format:?}: {out}");
        assert!(!out.contains(",=") && !out.contains(",@") && !out.contains("\"=") && !out.contains(":\"=") , "{format:?}: {out}");
    }
    // Numbers are not text: a negative score stays a number.
    let mut out = String::new();
    write_row(&mut out, RowFormat::AppraiseWmt22, &c, &r);
    assert!(out.contains(",-0.5,"), "{out}");
}

#[test]
fn appraise_rows_follow_each_years_columns() {
    let c = ctx(Filter::Raw);
    let r = row("mturk:A1", Some(66.6));
    let mut out = String::new();
    write_row(&mut out, RowFormat::AppraiseWmt22, &c, &r);
    assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",s7,BAD,deu,eng,66.6,1700000007,1700000010.5\n");
    out.clear();
    write_row(&mut out, RowFormat::AppraiseWmt23, &c, &r);
    assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",3,BAD,deu,eng,67,doc A,False,1700000007,1700000010.5\n");
    out.clear();
    write_row(&mut out, RowFormat::AppraiseWmt24, &c, &r);
    assert_eq!(out, "mturk:A1,\"Sys \"\"A\"\"\",s7,BAD,deu,eng,67,doc A,False,[],1700000007,1700000010.5\n");
    // A skipped judgment is no Appraise row.
    out.clear();
    assert!(!write_row(&mut out, RowFormat::AppraiseWmt22, &c, &row("mturk:A1", None)));
    assert!(out.is_empty());
    // The Appraise reader reads the WMT22 rows back (9 fields, seconds = end − start).
    let mut text = String::new();
    write_row(&mut text, RowFormat::AppraiseWmt22, &c, &row("link:b,c", Some(80.0)));
    let set = crate::analysis::formats::read_appraise_csv(text.as_bytes(), "da").unwrap();
    assert_eq!((set.records[0].score, set.records[0].seconds), (80.0, 3.5));
    assert_eq!(set.workers.name(0), "link:b,c");
}

/// Text holding everything a CSV field can: line breaks of every kind, quotes, commas, tabs,
/// the first characters of a spreadsheet formula and `'`, and text beyond ASCII (combining
/// marks, right to left, CJK, emoji sequences), never only blanks.
pub(crate) fn awkward_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "\n", "\r\n", "\r", "\"", "\"\"", ",", "\t", "'", "=", "+", "-", "@", " ", "a", "Z9", "e\u{301}", "\u{5e9}\u{5dc}\u{5d5}\u{5dd}",
        "\u{627}\u{644}\u{639}\u{631}\u{628}\u{64a}\u{629}", "\u{6f22}\u{5b57}", "\u{1f600}", "\u{1f469}\u{200d}\u{1f469}\u{200d}\u{1f467}", "a\u{feff}",
    ]);
    prop::collection::vec(pieces, 1..10).prop_map(|p| p.concat()).prop_filter("something besides blanks", |s| !s.trim().is_empty())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Every judgment file Assay writes is RFC 4180 that the `csv` crate reads back exactly
    /// (the spreadsheet guard taken off), and Assay's readers read back every name of it:
    /// the Assay CSV and JSON lines, the Appraise files of WMT22 (`read_appraise_csv`) and
    /// WMT24 (`read_esa_csv`); WMT23 field by field.
    #[test]
    fn every_judgment_file_reads_back_exactly(
        task in awkward_text(), src in awkward_text(), trg in awkward_text(), verdict in awkward_text(), decision in awkward_text(),
        rows in proptest::collection::vec((awkward_text(), awkward_text(), awkward_text(), awkward_text(), awkward_text(), 0u8..=100), 1..5),
    ) {
        use crate::analysis::formats::{csv_untext, read_appraise_csv, read_assay_csv, read_assay_jsonl};
        let mut c = ctx(Filter::Raw);
        (c.task, c.src_lang, c.trg_lang) = (task.clone(), src.clone(), trg.clone());
        c.workers.clear();
        c.documents.clear();
        let rows: Vec<(String, String, String, String, String, f64)> =
            rows.into_iter().enumerate().map(|(i, (w, p, sy, se, d, score))| (format!("{w}{i}"), p, sy, format!("{se}{i}"), d, f64::from(score) + 0.25)).collect();
        for (k, (worker, _, _, segment, document, _)) in rows.iter().enumerate() {
            c.workers.insert(worker.clone(), WorkerStatus { verdict: verdict.clone(), p_value: Some(0.01), excluded: false, decision: decision.clone(), standardization: [None, None] });
            c.documents.insert(segment.clone(), (document.clone(), k as i64 + 1));
        }
        let judgment = |k: usize| {
            let (worker, platform, system, segment, document, score) = &rows[k];
            JudgmentRow { id: k as i64 + 1, worker, platform, system, segment, document: Some(document), score: Some(*score), skipped: false, ..row("x", Some(1.0)) }
        };
        let file = |c: &RowContext, format: RowFormat| {
            let mut out = header(format).unwrap_or_default();
            for k in 0..rows.len() {
                assert!(write_row(&mut out, format, c, &judgment(k)));
            }
            out
        };
        let records = |text: &str| -> Vec<Vec<String>> {
            let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
            reader.records().map(|r| r.expect("RFC 4180").iter().map(|f| csv_untext(f).to_string()).collect()).collect()
        };

        // Assay CSV: every field, exactly.
        let text = file(&c, RowFormat::AssayCsv);
        let read = records(&text);
        proptest::prop_assert_eq!(read.len(), rows.len() + 1);
        proptest::prop_assert_eq!(read[0].len(), 27);
        for (k, (worker, platform, system, segment, document, score)) in rows.iter().enumerate() {
            let f = &read[k + 1];
            let texts = [&f[2], &f[3], &f[4], &f[8], &f[9], &f[12], &f[13], &f[14], &f[21], &f[24]];
            proptest::prop_assert_eq!(texts, [&task, &src, &trg, worker, platform, system, segment, document, &verdict, &decision]);
            proptest::prop_assert_eq!(f[15].parse::<f64>().unwrap(), *score);
        }
        let names = |set: &crate::analysis::JudgmentSet| -> Vec<[String; 5]> {
            set.records
                .iter()
                .map(|j| {
                    [set.workers.name(j.worker), set.systems.name(j.system), set.segments.name(j.segment), set.lang_pairs.name(j.lang_pair.into()), set.tasks.name(j.task.into())]
                        .map(String::from)
                })
                .collect()
        };
        // Assay's readers read a campaign's task (a task they know: a word-order answer, say,
        // is read as its two questions), so the files again with a real task; the task field's
        // text came back exactly above.
        c.task = "da-adequacy".to_string();
        let expected: Vec<[String; 5]> = rows.iter().map(|(w, _, sy, se, ..)| [w.clone(), sy.clone(), se.clone(), format!("{src}-{trg}"), c.task.clone()]).collect();
        let set = read_assay_csv(file(&c, RowFormat::AssayCsv).as_bytes()).expect("Assay CSV");
        proptest::prop_assert_eq!(names(&set), expected.clone());
        proptest::prop_assert_eq!(set.records.iter().map(|j| j.score).collect::<Vec<_>>(), rows.iter().map(|r| r.5).collect::<Vec<_>>());
        let set = read_assay_jsonl(file(&c, RowFormat::AssayJsonl).as_bytes()).expect("Assay JSON lines");
        proptest::prop_assert_eq!(names(&set), expected);

        // Appraise WMT22: read back by the Appraise reader (each worker's judgments a HIT).
        let set = read_appraise_csv(file(&c, RowFormat::AppraiseWmt22).as_bytes(), "da").expect("Appraise CSV");
        let got: Vec<[String; 3]> = names(&set).into_iter().map(|[w, sy, se, ..]| [w, sy, se]).collect();
        proptest::prop_assert_eq!(got, rows.iter().map(|(w, _, sy, se, ..)| [w.clone(), sy.clone(), se.clone()]).collect::<Vec<_>>());

        // Appraise WMT23 and WMT24: the texts, field by field; WMT24 by the ESA reader too.
        for (format, at) in [(RowFormat::AppraiseWmt23, [0, 1, 7]), (RowFormat::AppraiseWmt24, [0, 1, 7])] {
            let read = records(&file(&c, format));
            for (k, (worker, _, system, segment, document, _)) in rows.iter().enumerate() {
                proptest::prop_assert_eq!([&read[k][at[0]], &read[k][at[1]], &read[k][at[2]]], [worker, system, document]);
                if format == RowFormat::AppraiseWmt24 {
                    proptest::prop_assert_eq!(&read[k][2], segment);
                }
            }
        }
        let esa = assay_core::analysis::esa::read_esa_csv(file(&c, RowFormat::AppraiseWmt24).as_bytes()).expect("WMT24 CSV");
        let got: Vec<[&str; 4]> = esa.ratings.iter().map(|r| [r.user.as_str(), r.system.as_str(), r.item.as_str(), r.document.as_str()]).collect();
        proptest::prop_assert_eq!(got, rows.iter().map(|(w, _, sy, se, d, _)| [w.as_str(), sy.as_str(), se.as_str(), d.as_str()]).collect::<Vec<_>>());
    }
}
