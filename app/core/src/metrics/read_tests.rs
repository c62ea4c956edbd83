use super::*;

#[test]
fn mme_layouts_and_refusals() {
    assert_eq!(mme_file_name("scores/en-de/BLEU-refA.sys.score").unwrap(), ("en-de".into(), "BLEU-refA".into(), Level::System));
    assert_eq!(mme_file_name("out/de-en.assay-z.seg.score").unwrap(), ("de-en".into(), "assay-z".into(), Level::Segment));
    assert!(mme_file_name("en-de/BLEU-refA.doc.score").unwrap_err().to_string().contains("only sys and seg"));
    assert!(mme_file_name("en-de/BLEU-refA.domain.score").is_err());
    assert!(mme_file_name("BLEU.sys.score").unwrap_err().to_string().contains("language pair"));
}

#[test]
fn mme_files_read_and_merge() {
    let files = vec![
        ("en-de/chrF-refA.sys.score".to_string(), "A\t50.5\nB\t40\n".to_string()),
        ("en-de/chrF-refA.seg.score".to_string(), "A\t1\nA\tNone\nA\t3\nB\t2\nB\t2\nB\t2\n".to_string()),
    ];
    let s = read_mme(&files).unwrap();
    assert_eq!(s.len(), 1);
    let p = &s[0].pairs["en-de"];
    assert_eq!(p.system["A"], 50.5);
    assert_eq!(p.segment["A"], vec![Some(1.0), None, Some(3.0)]);
    assert_eq!(p.segment_ids, ["1", "2", "3"]);
}

#[test]
fn every_problem_is_reported_with_file_and_line() {
    let files = vec![
        ("en-de/m.seg.score".to_string(), "A\t1\nA\tx\nB\t2\nB\t2\nB\t2\n".to_string()),
        ("en-de/m.sys.score".to_string(), "A\t1\nA\t2\nB\tinf\nC\n".to_string()),
    ];
    let errs = read_mme(&files).unwrap_err();
    let text: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(text.contains(&"en-de/m.seg.score, line 2: score \"x\" is not a number".to_string()), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("en-de/m.sys.score, line 2: system \"A\" appears twice")), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("en-de/m.sys.score, line 3: score \"inf\" is not a finite")), "{text:?}");
    assert!(text.iter().any(|t| t.starts_with("en-de/m.sys.score, line 4: expected SYSTEM")), "{text:?}");
}

#[test]
fn assay_analysis_json() {
    let text = r#"{"manifest": {}, "result": {"names": {"lang_pairs": ["de-en"], "tasks": ["da"], "systems": ["A", "B"], "segments": ["10", "2"]},
            "groups": [{"task": 0, "lang_pair": 0, "systems": [{"system": 0, "raw": 70.5, "z": 0.3}, {"system": 1, "raw": 60.0, "z": -0.3}],
              "segments": [{"system": 0, "segment": 0, "raw": 71, "z": 0.4}, {"system": 0, "segment": 1, "raw": 70, "z": 0.2}, {"system": 1, "segment": 1, "raw": 60, "z": -0.3}]}]}}"#;
    let s = read_analysis_json("analysis.json", text, AssayScore::Z).unwrap();
    assert_eq!(s[0].name, "assay-z");
    let p = &s[0].pairs["de-en"];
    assert_eq!(p.segment_ids, ["2", "10"]);
    assert_eq!(p.segment["A"], vec![Some(0.2), Some(0.4)]);
    assert_eq!(p.segment["B"], vec![Some(-0.3), None]);
    assert_eq!(p.system["A"], 0.3);
    let raw = read_analysis_json("analysis.json", text, AssayScore::Raw).unwrap();
    assert_eq!(raw[0].pairs["de-en"].system["B"], 60.0);
    assert!(read_analysis_json("x.json", "{}", AssayScore::Z).unwrap_err()[0].problem.contains("not an Assay analysis.json"));
}

#[test]
fn tables_tsv_jsonl_and_headerless() {
    let tsv = "metric\tpair\tsystem\tsegment\tscore\nBLEU\ten-de\tA\t2\t0.5\nBLEU\ten-de\tA\t1\t0.25\nBLEU\ten-de\tB\t1\tNone\n";
    let s = read_table("m.tsv", tsv, TableFormat::Tsv, None, None).unwrap();
    let p = &s[0].pairs["en-de"];
    assert_eq!(p.segment_ids, ["1", "2"]);
    assert_eq!(p.segment["A"], vec![Some(0.25), Some(0.5)]);
    assert_eq!(p.segment["B"], vec![None, None]);
    let plain = "A\t1\t70\nB\t1\t60\n";
    let h = read_table("h.tsv", plain, TableFormat::Tsv, Some("human"), Some("de-en")).unwrap();
    assert_eq!(h[0].pairs["de-en"].segment["B"], vec![Some(60.0)]);
    let jsonl = "{\"metric\":\"M\",\"system\":\"A\",\"score\":1.5}\n{\"metric\":\"M\",\"system\":\"A\",\"score\":2}\nnot json\n";
    let e = read_table("m.jsonl", jsonl, TableFormat::Jsonl, None, None).unwrap_err();
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(e[0].line, Some(3));
    assert_eq!(e[1].line, Some(2));
    assert!(read_table("x.tsv", "system\tscore\nA\t1\n", TableFormat::Tsv, None, None).unwrap_err()[0].problem.contains("no metric name"));
}
