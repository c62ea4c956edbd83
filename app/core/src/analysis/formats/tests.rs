/// `write_display_f64` against `Display` itself: every kind of number the files write and
/// millions of random ones (bit patterns, decimals of every length, whole numbers).
#[test]
fn numbers_are_written_as_display_writes_them() {
    let check = |v: f64| {
        let mut fast = String::new();
        super::write_display_f64(&mut fast, v);
        assert_eq!(fast, format!("{v}"), "bits {:#x}", v.to_bits());
    };
    for v in [
        0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.0 / 3.0, 69.0, 100.0, 3.001, 2.815717002936006e-6, 0.21458450929157705,
        1e15, 1e16, 1e21, 1e22, 1e23, 9_007_199_254_740_992.0, 9_007_199_254_740_994.0, -9_007_199_254_740_992.0,
        123_456_789_012_345_680.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, -5e-324, 1e-7, 1.5e-300, f64::EPSILON,
        f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
    ] {
        check(v);
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..2_000_000 {
        let v = f64::from_bits(next());
        if v.is_finite() {
            check(v);
        }
        let mut json = String::new();
        super::write_json_f64(&mut json, v);
        assert_eq!(json, serde_json::Value::from(v).to_string(), "bits {:#x}", v.to_bits());
    }
    for _ in 0..1_000_000 {
        let r = next();
        let whole = (r >> 11) as f64 * if r & 1 == 0 { 1.0 } else { -1.0 };
        check(whole);
        check(whole / 10f64.powi((r % 23) as i32));
        check((r % 100_001) as f64 / 1000.0);
        // Large numbers with a few binary fractions: where shortest forms tie.
        check((r >> 12) as f64 / 2f64.powi((r % 5) as i32 + 1));
    }
}

#[test]
fn csv_text_quotes_and_guards_formulas() {
    use super::csv_text;
    assert_eq!(csv_text("Sys A"), "Sys A");
    assert_eq!(csv_text("a,b"), "\"a,b\"");
    assert_eq!(csv_text("say \"hi\""), "\"say \"\"hi\"\"\"");
    for formula in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
        assert!(csv_text(formula).trim_start_matches('"').starts_with('\''), "{formula:?} → {}", csv_text(formula));
    }
    assert_eq!(csv_text("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
    assert_eq!(csv_text("a=b"), "a=b");
    // A text whose `'`s come before a formula's start gets one more, so that the readers can
    // take exactly one off; other `'`s are text.
    assert_eq!(csv_text("'=x"), "''=x");
    assert_eq!(csv_text("'x"), "'x");
    assert_eq!((csv_untext("''=x"), csv_untext("'=x"), csv_untext("'x"), csv_untext("x'")), ("'=x", "=x", "'x", "x'"));
}

use super::*;

proptest::proptest! {
    /// A text written by `csv_text` and read by the `csv` crate, the guard taken off, is the
    /// text: whatever it holds (line breaks, quotes, commas, tabs, `'`, formula starts,
    /// any Unicode), alone or among other fields.
    #[test]
    fn csv_text_reads_back_exactly(texts in proptest::collection::vec("(\\PC|[\r\n\t\"',=+@-])*", 1..4)) {
        let line: Vec<String> = texts.iter().map(|t| csv_text(t).into_owned()).collect();
        let file = format!("{}\nend\n", line.join(","));
        let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(file.as_bytes());
        let first = reader.records().next().unwrap().unwrap();
        let read: Vec<&str> = first.iter().map(csv_untext).collect();
        // One empty field alone is an empty line to CSV.
        if texts != [""] {
            proptest::prop_assert_eq!(read, texts.iter().map(String::as_str).collect::<Vec<_>>());
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 20_000, ..Default::default() })]
    /// The fast path reads every plain decimal to the same bits as `str::parse`, and
    /// declines (leaving it to `str::parse`) whatever it cannot read exactly.
    #[test]
    fn plain_decimals_read_as_str_parse_reads_them(text in "[-+]?[0-9]{0,17}(\\.[0-9]{0,17})?") {
        if let Some(v) = parse_plain_decimal(&text) {
            let expected: f64 = text.parse().unwrap();
            proptest::prop_assert_eq!(v.to_bits(), expected.to_bits(), "{}", text);
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 5_000, ..Default::default() })]
    /// The eight-bytes-at-a-time scan finds exactly the tabs and newlines, in order.
    #[test]
    fn separators_are_every_tab_and_newline(bytes in proptest::collection::vec(proptest::prop_oneof![
        proptest::strategy::Just(b'\t'), proptest::strategy::Just(b'\n'), proptest::strategy::Just(0u8),
        proptest::strategy::Just(0x89u8), proptest::strategy::Just(0x8au8), proptest::prelude::any::<u8>()
    ], 0..70)) {
        let expected: Vec<(usize, bool)> = (0..bytes.len()).filter(|&i| bytes[i] == b'\t' || bytes[i] == b'\n').map(|i| (i, bytes[i] == b'\n')).collect();
        proptest::prop_assert_eq!(Separators::new(&bytes).collect::<Vec<_>>(), expected);
    }
}

#[test]
fn plain_decimal_edges() {
    for (text, expected) in [("73", 73.0), ("-12.5", -12.5), ("1503.0", 1503.0), ("0.1", 0.1), ("5.", 5.0), (".5", 0.5), ("999999999999999", 999999999999999.0), ("0.00000000000001", 1e-14)] {
        assert_eq!(parse_plain_decimal(text), Some(expected), "{text}");
    }
    assert_eq!(parse_plain_decimal("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
    for text in ["", "-", ".", "1e5", "inf", "NaN", "1.2.3", "1,5", "9999999999999999", "0.0000000000000001"] {
        assert_eq!(parse_plain_decimal(text), None, "{text}");
    }
}

/// A file with a bad row and, further on, a line that is not UTF-8 reports the bad row
/// (the first error in the file), however the file is cut into chunks; the UTF-8 error
/// alone is reported with its own line number.
#[test]
fn graham_reader_reports_the_first_error_in_the_file() {
    let header = "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time\n";
    let row = "H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\t1503.0\n";
    let mut lines: Vec<Vec<u8>> = (0..40).map(|_| row.as_bytes().to_vec()).collect();
    lines[30] = b"H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t\xff\t1503.0\n".to_vec();
    let only_utf8: Vec<u8> = header.bytes().chain(lines.concat()).collect();
    for threads in [1, 2, 3] {
        let e = read_graham_bytes(&only_utf8, threads, 0).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (32, "the line is not valid UTF-8"), "{threads} threads");
    }
    lines[20] = b"H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\n".to_vec();
    let both: Vec<u8> = header.bytes().chain(lines.concat()).collect();
    for threads in [1, 2, 3] {
        let e = read_graham_bytes(&both, threads, 0).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (22, "expected 12 tab-separated fields, found 11"), "{threads} threads");
    }
}

/// The formatting before `write_r_number` (two exact formattings a number), kept to check
/// the new one against.
fn r_number_before(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    let sci = format!("{:.*e}", digits.saturating_sub(1), x);
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let neg = mantissa.starts_with('-');
    let sig: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sig = sig.trim_end_matches('0');
    let sig = if sig.is_empty() { "0" } else { sig };
    let d = sig.len() as i32;
    let sci_width = neg as i32 + d + (d > 1) as i32 + 4;
    let decimals = (d - exp - 1).max(0);
    let int_digits = (exp + 1).max(1);
    let fixed_width = neg as i32 + int_digits + if decimals > 0 { 1 + decimals } else { 0 };
    if fixed_width <= sci_width {
        let s = format!("{:.*}", decimals as usize, x);
        if s.trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            "0".into()
        } else {
            s
        }
    } else {
        let mut m = String::new();
        if neg {
            m.push('-');
        }
        m.push_str(&sig[..1]);
        if d > 1 {
            m.push('.');
            m.push_str(&sig[1..]);
        }
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

#[test]
fn r_number_writes_what_it_wrote_before() {
    // Numbers of every size and sign, whole ones, ones at the edge of the notations, and
    // random bit patterns.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut values = vec![1e15, 1e-5, 1e-4, 0.0001234, 123456789012345.0, 1234567890123456.0, 99999.99999, 0.5, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1e5, 100000.0, 1e-15, 2.5e-5];
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let bits = f64::from_bits(x);
        if bits.is_finite() {
            values.push(bits);
        }
        let scaled = (x >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((x % 41) as i32 - 20);
        values.push(scaled);
        values.push(-scaled);
        values.push(((x % 2001) as f64 - 1000.0) / 8.0);
    }
    for v in values {
        for digits in [1, 3, 7, 15, 17] {
            assert_eq!(r_number(v, digits), r_number_before(v, digits), "{v:e} at {digits} digits");
        }
    }
}

#[test]
fn r_number_matches_published_files() {
    // From wmt22 adwilcox-csen.csv and ad-sys-scores-cs-en.csv.
    assert_eq!(r_number(0.0165819538231206, 15), "0.0165819538231206");
    assert_eq!(r_number(0.000242040654183865, 15), "0.000242040654183865");
    assert_eq!(r_number(6.22809962025843e-05, 15), "6.22809962025843e-05");
    assert_eq!(r_number(1.03341462986055e-47, 15), "1.03341462986055e-47");
    assert_eq!(r_number(75.2635379061372, 15), "75.2635379061372");
    assert_eq!(r_number(-0.00390300467990136, 15), "-0.00390300467990136");
    assert_eq!(r_number(0.12, 15), "0.12");
    assert_eq!(r_number(1385.0, 15), "1385");
    assert_eq!(r_number(-0.1, 7), "-0.1");
    assert_eq!(r_number(-0.0, 7), "0");
    assert_eq!(r_number(round_to(-0.004, 2), 7), "0");
    assert_eq!(r_number(f64::NAN, 7), "NaN");
    assert_eq!(r_number(1e15, 15), "1e+15");
    assert_eq!(r_number(123456.0, 15), "123456");
}

/// Records are read by the `csv` crate: a quoted field may hold commas, quotes and line
/// breaks, and a record then spans lines; each record knows the line it starts on.
#[test]
fn csv_records_span_lines() {
    let text = "a,\"b,c\",,\"say \"\"hi\"\"\"\n\n\"two\r\nlines\",\"and\rone\",x\n  \nlast,\"\nline\"\n";
    let mut rows = csv_rows(text.as_bytes());
    let mut got = Vec::new();
    while let Some(line) = rows.next_record().unwrap() {
        got.push((line, rows.record.iter().map(String::from).collect::<Vec<_>>()));
    }
    assert_eq!(
        got,
        [
            (1, vec!["a".to_string(), "b,c".into(), "".into(), "say \"hi\"".into()]),
            // A blank line before a record counts as the record's first (the csv crate's count).
            (2, vec!["two\r\nlines".into(), "and\rone".into(), "x".into()]),
            (6, vec!["last".into(), "\nline".into()]),
        ]
    );
    assert_eq!(csv_first_record("\"a\nb\",c\nd,e,f\n"), Some(vec!["a\nb".to_string(), "c".into()]));
    // Not UTF-8: the line of the record.
    let mut rows = csv_rows(&b"a,b\nc,\xff\n"[..]);
    rows.next_record().unwrap();
    assert_eq!(rows.next_record().unwrap_err(), err(2, "field 2 is not valid UTF-8"));
}

/// The Assay reader reads a judgment file whose names hold line breaks (it read line by line
/// and refused it), each name exactly as written, the spreadsheet guard taken off; a wrong
/// count of fields names the line its record starts on.
#[test]
fn assay_reader_reads_records_across_lines() {
    let csv = "task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,skipped,seconds\n\
               da-adequacy,de,en,0,\"link:a\nb\",SYSTEM,\"Sys\r\nA\",\" s1\r\",70,0,2\n\
               da-adequacy,de,en,0,'-w,REF,\"'=SUM(1,2)\",s2,60,0,1\n";
    let set = read_assay_csv(csv.as_bytes()).unwrap();
    assert_eq!(set.workers.names(), ["link:a\nb", "-w"]);
    assert_eq!(set.systems.names(), ["Sys\r\nA", "=SUM(1,2)"]);
    assert_eq!(set.segments.names(), [" s1\r", "s2"]);
    let bad = format!("{csv}da-adequacy,de,en,0,\"w,SYSTEM,S,s3,1,0,1\n");
    assert_eq!(
        read_assay_csv(bad.as_bytes()).unwrap_err().to_string(),
        "line 6: expected 11 comma-separated fields, found 5 (a quoted field holding a line break: is a quote not closed?)"
    );
}

#[test]
fn graham_reader_and_errors() {
    let text = "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time\n\
                H1\tW1\tlv\ten\tad\t13\tSysA\t1003221\tSYSTEM\t121\t55\t1503.0\n\
                H1\tW1\tlv\ten\tad\t13\tSysA\t1003222\tBAD_REF\t121\t12.5\t1503.0\n";
    let set = read_graham_tsv(text.as_bytes()).unwrap();
    assert_eq!(set.records.len(), 2);
    assert_eq!(set.lang_pairs.name(0), "lv-en");
    assert_eq!(set.tasks.name(0), "ad");
    assert_eq!(set.records[1].item_type, ItemType::BadRef);
    assert_eq!(set.records[1].score, 12.5);
    assert_eq!(set.records[0].seconds, 1503.0);

    let bad = text.replace("12.5", "twelve");
    assert_eq!(
        read_graham_tsv(bad.as_bytes()).unwrap_err().to_string(),
        "line 3: score is not a number: \"twelve\""
    );
    let bad = text.replace("BAD_REF", "BADREF");
    assert!(
        read_graham_tsv(bad.as_bytes())
            .unwrap_err()
            .to_string()
            .starts_with("line 3: unknown item type \"BADREF\"")
    );
    let bad = text.replace("\t1503.0\n", "\n");
    assert_eq!(
        read_graham_tsv(bad.as_bytes()).unwrap_err().to_string(),
        "line 2: expected 12 tab-separated fields, found 11"
    );
    let bad = text.replace("sid", "seg");
    assert!(
        read_graham_tsv(bad.as_bytes())
            .unwrap_err()
            .to_string()
            .starts_with("line 1: the header lacks column \"sid\"")
    );
    assert_eq!(read_graham_tsv("".as_bytes()).unwrap_err().line, 1);
}

/// A simulated judgment file with CRLF endings on some lines and blank lines in the
/// middle (which must not move line numbers).
fn awkward_graham_file() -> String {
    let config = crate::simulate::CrowdConfig { segments: 60, ..Default::default() };
    let mut file = Vec::new();
    crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
    let mut text = String::from_utf8(file).unwrap().replacen("\n", "\r\n", 40);
    let cut = text.len() / 3;
    let at = cut + text[cut..].find('\n').unwrap() + 1;
    text.insert_str(at, "\n  \n");
    text
}

/// The text with one field too many on the fifth line from the end, and that line's number.
fn with_bad_row_near_the_end(text: &str) -> (String, usize) {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let target = lines.len() - 5;
    lines[target] = lines[target].replacen("\t", "\tx\t", 1);
    (lines.join("\n"), target + 1)
}

/// The standardised judgment file is the same whether its lines are formatted on one thread
/// or on several (batches split among them, written in order), and has a line per kept
/// judgment.
#[test]
fn good_stnd_lines_are_the_same_on_several_threads() {
    let config = crate::simulate::CrowdConfig::with_judgments(30_000);
    let mut file = Vec::new();
    crate::simulate::write_graham_tsv(&config, &mut file).unwrap();
    let set = read_graham_tsv(file.as_slice()).unwrap();
    assert!(set.records.len() > 20_000, "{} records", set.records.len());
    let result = crate::analysis::analyse(&set, &crate::analysis::AnalysisSettings::default());
    let write = |threads| {
        let mut out = Vec::new();
        let rows = write_good_stnd_in(&mut out, &set, &result, 0, 0, threads).unwrap();
        (rows, String::from_utf8(out).unwrap())
    };
    let (rows, one) = write(1);
    assert!(rows > 10_000 && rows <= set.records.len(), "{rows} rows");
    assert_eq!(one.lines().count(), rows + 1);
    for threads in [2, 3, 8] {
        let (n, text) = write(threads);
        assert_eq!(n, rows, "{threads} threads");
        assert!(text == one, "{threads} threads: the text differs");
    }
    // Each line's z is (score − μ) / σ of its worker, as R prints it.
    let line = one.lines().nth(1).unwrap();
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.len(), 12, "{line}");
    assert!(fields[10].parse::<f64>().unwrap().abs() < 10.0, "{line}");
}

/// Every name table of a set, in id order.
fn names(s: &JudgmentSet) -> [Vec<String>; 6] {
    [&s.workers, &s.hits, &s.systems, &s.segments, &s.lang_pairs, &s.tasks].map(|i| i.names().to_vec())
}

/// Reading in chunks on several threads gives exactly the sequential result: the same
/// records and the same ids in order of first appearance; an error in a late chunk names
/// its line in the whole file.
#[test]
fn graham_reader_in_chunks_equals_one_pass() {
    let text = awkward_graham_file();
    let one = read_graham_bytes(text.as_bytes(), 1, usize::MAX).unwrap();
    assert!(one.records.len() > 1000, "{}", one.records.len());
    for threads in [2, 3, 7] {
        let many = read_graham_bytes(text.as_bytes(), threads, 0).unwrap();
        assert_eq!(names(&many), names(&one), "{threads} threads");
        assert!(many.records == one.records, "{threads} threads: records differ");
    }
    // Break a row near the end: the line number counts every line before it.
    let (broken, line) = with_bad_row_near_the_end(&text);
    let expected = read_graham_bytes(broken.as_bytes(), 1, usize::MAX).unwrap_err();
    assert_eq!(expected.line, line);
    for threads in [2, 3, 7] {
        assert_eq!(read_graham_bytes(broken.as_bytes(), threads, 0).unwrap_err(), expected);
    }
    // Invalid UTF-8 on a later line, found by whichever chunk holds it.
    let mut bytes = text.clone().into_bytes();
    let pos = bytes.len() - 10;
    bytes[pos] = 0xff;
    let e1 = read_graham_bytes(&bytes, 1, usize::MAX).unwrap_err();
    assert_eq!(read_graham_bytes(&bytes, 3, 0).unwrap_err(), e1);
    assert!(e1.message.contains("UTF-8"), "{e1}");
}

/// Reading a file in parts, block by block, gives exactly what reading it whole gives,
/// for any number of parts and any block size (lines longer than a block, a part
/// boundary on a line start, CRLF and blank lines, no final newline), and the same first
/// error with the same line number.
#[test]
fn graham_file_in_parts_equals_one_pass() {
    let text = awkward_graham_file();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("judgments.tsv");
    for body in [text.clone(), text.trim_end().to_string()] {
        std::fs::write(&path, &body).unwrap();
        let one = read_graham_bytes(body.as_bytes(), 1, usize::MAX).unwrap();
        assert!(one.records.len() > 1000);
        for threads in [2, 3, 7] {
            for block in [64, 1000, 4096, 1 << 20] {
                let many = read_graham_file_in(&path, threads, 0, block).unwrap();
                assert_eq!(names(&many), names(&one), "{threads} threads, blocks of {block}");
                assert!(many.records == one.records, "{threads} threads, blocks of {block}: records differ");
            }
        }
    }
    // A bad row near the end, then also invalid UTF-8 before it.
    let (broken, line) = with_bad_row_near_the_end(&text);
    let mut bytes = broken.into_bytes();
    for round in 0..2 {
        std::fs::write(&path, &bytes).unwrap();
        let expected = read_graham_bytes(&bytes, 1, usize::MAX).unwrap_err();
        for threads in [2, 3, 7] {
            for block in [64, 4096] {
                assert_eq!(read_graham_file_in(&path, threads, 0, block).unwrap_err(), expected, "{threads} threads, blocks of {block}");
            }
        }
        if round == 0 {
            assert_eq!(expected.line, line);
            let pos = bytes.len() * 2 / 3;
            bytes[pos] = 0xff;
        } else {
            assert!(expected.message.contains("UTF-8"), "{expected}");
        }
    }
    assert_eq!(
        read_graham_file_in(&dir.path().join("missing.tsv"), 2, 0, 64).unwrap_err().line,
        1
    );
}

#[test]
fn appraise_reader_with_and_without_header() {
    let rows = "engdeu0a0f,sysA,12,TGT,eng,deu,67,1666000000.5,1666000010.5\n\
                engdeu0a0f,sysA,12,BAD,eng,deu,20,1666000020,1666000031\n";
    let header = "username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd\n";
    for text in [rows.to_string(), format!("{header}{rows}")] {
        let set = read_appraise_csv(text.as_bytes(), "da").unwrap();
        assert_eq!(set.records.len(), 2);
        assert_eq!(set.records[0].seconds, 10.0);
        assert_eq!(set.records[1].item_type, ItemType::BadRef);
        assert_eq!(set.lang_pairs.name(0), "eng-deu");
        assert_eq!(set.time_basis, TimeBasis::PerItem);
    }
    let doc = format!("{header}u,s,1,TGT,eng,deu,50,doc1,False,1,2\n");
    assert_eq!(
        read_appraise_csv(doc.as_bytes(), "da")
            .unwrap_err()
            .to_string(),
        "line 2: a document-level row (11 fields): only segment-level rows (9 fields) are read"
    );
    let backwards = "u,s,1,TGT,eng,deu,50,10,5\n";
    assert_eq!(
        read_appraise_csv(backwards.as_bytes(), "da")
            .unwrap_err()
            .line,
        1
    );
    let short = format!("{rows}u,s,1,TGT,eng,deu,50\n");
    assert!(
        read_appraise_csv(short.as_bytes(), "da")
            .unwrap_err()
            .to_string()
            .starts_with("line 3: expected 9")
    );
}

#[test]
fn assay_reader_skips_skipped_judgments_and_names_bad_lines() {
    let csv = "judgment_id,campaign_id,task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,skipped,seconds,worker_verdict\n\
               1,4,da-adequacy,de,en,0,\"link:a,b\",SYSTEM,SysA,s1,70.5,0,3.5,pass\n\
               2,4,da-adequacy,de,en,0,\"link:a,b\",REF,SysA,s2,,1,1,pass\n\
               3,4,da-adequacy,de,en,0,mturk:W,BAD_REF,SysA,s1,20,0,2.25,fail\n";
    let set = read_assay_csv(csv.as_bytes()).unwrap();
    assert_eq!(set.records.len(), 2);
    assert_eq!(set.workers.names(), ["link:a,b", "mturk:W"]);
    assert_eq!((set.records[0].score, set.records[0].seconds), (70.5, 3.5));
    assert_eq!(set.records[1].item_type, ItemType::BadRef);
    assert_eq!((set.lang_pairs.name(0), set.tasks.name(0), set.hits.name(0)), ("de-en", "da-adequacy", "0"));
    let bad = csv.replace("20,0,2.25", "x,0,2.25");
    assert_eq!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string(), "line 4: score is not a number: \"x\"");
    let bad = csv.replace("segment,", "seg,");
    assert!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string().starts_with("line 1: the header lacks column \"segment\""));
    // An output of a gold block is quality control: left out like a skipped judgment.
    let with_gold = format!("{csv}4,4,ranking,de,en,0,mturk:W,GOLD,SysA,s3,0.5,0,2,fail\n");
    assert_eq!(read_assay_csv(with_gold.as_bytes()).unwrap().records.len(), 2);

    let jsonl = r#"{"task":"da-fluency","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"REPEAT","system":"S","segment":"7","score":55.0,"skipped":false,"seconds":1.5}
{"task":"da-fluency","src_lang":"de","trg_lang":"en","hit":3,"worker":"w","item_type":"SYSTEM","system":"S","segment":"7","score":null,"skipped":true,"seconds":0}
"#;
    let set = read_assay_jsonl(jsonl.as_bytes()).unwrap();
    assert_eq!(set.records.len(), 1);
    assert_eq!((set.records[0].item_type, set.records[0].score, set.hits.name(0)), (ItemType::Repeat, 55.0, "3"));
    let bad = jsonl.replace("\"segment\":\"7\",", "");
    assert_eq!(read_assay_jsonl(bad.as_bytes()).unwrap_err().to_string(), "line 1: the object lacks the key \"segment\"");
    let bad = jsonl.replace("da-fluency", "da");
    assert!(read_assay_jsonl(bad.as_bytes()).unwrap_err().to_string().starts_with("line 1: task \"da\" is not a campaign task"));
}

/// A word-order campaign's file is read as the campaign is: a record per question, named as
/// the campaign's (`word-order-q1` from `score`, `word-order-q2` from `score2`), each on the
/// five boxes' scale.
#[test]
fn assay_reader_reads_both_word_order_questions() {
    let csv = "task,src_lang,trg_lang,hit,worker,item_type,system,segment,score,score2,skipped\n\
               word-order,de,en,0,w,SYSTEM,S,1,0.75,0.25,0\n\
               word-order,de,en,0,w,BAD_REF,S,1,0,0.5,0\n";
    let set = read_assay_csv(csv.as_bytes()).unwrap();
    assert_eq!(set.tasks.names(), ["word-order-q1", "word-order-q2"]);
    let records: Vec<(&str, f64)> = set.records.iter().map(|j| (set.tasks.name(u32::from(j.task)), j.score)).collect();
    assert_eq!(records, [("word-order-q1", 0.75), ("word-order-q2", 0.25), ("word-order-q1", 0.0), ("word-order-q2", 0.5)]);
    assert_eq!([set.tasks.scale(0), set.tasks.scale(1)], [Scale::Categorical { categories: 5 }; 2]);
    let bad = csv.replace("0.25,0", "y,0");
    assert_eq!(read_assay_csv(bad.as_bytes()).unwrap_err().to_string(), "line 2: score2 is not a number: \"y\"");
}
