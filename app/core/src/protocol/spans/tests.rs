use super::*;
use proptest::prelude::*;

/// Pieces of text in the scripts the screens must handle: Latin with precomposed and combining
/// accents, Chinese (with two ideographs outside the BMP: two UTF-16 units each), Arabic with
/// harakat (combining, right to left), Hindi with vowel signs and viramas, emoji sequences.
const PIECES: &[&str] = &[
    "The ", "cafe\u{301} ", "naïve ", "Zoe\u{308}", ", ", "résumé. ", "x\u{323}\u{302}",
    "我们", "今天", "去北京", "。", "𠮷野家", "𠀀", "，",
    "مرحبا ", "بالعالم", "مَرْحَبًا", "، ", "كِتَابٌ ",
    "नमस्ते ", "दुनिया", "क्षत्रिय ", "हिन्दी", "।",
    "👍🏽", "👨\u{200d}👩\u{200d}👧", " ", "🇩🇪", "a",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 1..12).prop_map(|v| v.concat())
}

/// A text and a span on two of its grapheme boundaries.
fn text_and_span() -> impl Strategy<Value = (String, usize, usize)> {
    text().prop_flat_map(|t| {
        let b = grapheme_boundaries(&t);
        let n = b.len();
        (Just(t), 0..n - 1, 1..n).prop_filter_map("start before end", move |(t, i, j)| {
            (i < j).then(|| {
                let b = grapheme_boundaries(&t);
                (t, b[i], b[j])
            })
        })
    })
}

fn utf16_slice(text: &str, a: usize, b: usize) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    String::from_utf16(&units[a..b]).expect("a span in UTF-16 never splits a surrogate pair")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// char → UTF-16 → char gives the same span, and the browser (slicing UTF-16 code units)
    /// shows exactly the characters the span names.
    #[test]
    fn spans_survive_char_utf16_char((t, s, e) in text_and_span(), major in any::<bool>()) {
        let severity = if major { Severity::Major } else { Severity::Minor };
        let span = Span::new(s, e, severity);
        prop_assert_eq!(span.validate(&t, Scheme::Esa), Ok(()));
        let (s16, e16) = span.to_utf16(&t).unwrap();
        prop_assert!(s16 < e16 && e16 <= t.encode_utf16().count());
        let back = Span::from_utf16(&t, s16, e16, severity).unwrap();
        prop_assert_eq!(&back, &span);
        let marked = span.marked(&t).unwrap();
        prop_assert_eq!(marked.chars().count(), e - s);
        prop_assert_eq!(utf16_slice(&t, s16, e16), marked);
        // Python's text[start:end] is the same slice of scalar values.
        let by_chars: String = t.chars().skip(s).take(e - s).collect();
        prop_assert_eq!(by_chars.as_str(), marked);
    }

    /// Export → import → display: spans written as Appraise/WMT JSON read back equal, still
    /// valid for their text, and show the same characters.
    #[test]
    fn spans_survive_export_import_display((t, s, e) in text_and_span(), omission in any::<bool>()) {
        let mut spans = vec![Span::new(s, e, Severity::Major)];
        if omission {
            spans.push(Span::omission(Severity::Minor));
        }
        let json = spans_to_appraise_json(&spans);
        let back = spans_from_appraise_json(&json).unwrap();
        prop_assert_eq!(&back, &spans);
        prop_assert_eq!(validate_spans(&t, &back, Scheme::Esa), Ok(()));
        prop_assert_eq!(back[0].marked(&t), spans[0].marked(&t));
    }

    /// Grapheme index ↔ character offset round trip on every boundary.
    #[test]
    fn grapheme_indices_round_trip(t in text()) {
        let b = grapheme_boundaries(&t);
        prop_assert_eq!(*b.last().unwrap(), t.chars().count());
        for (g, &c) in b.iter().enumerate() {
            prop_assert_eq!(char_to_grapheme(&t, c), Ok(g));
            prop_assert_eq!(grapheme_to_char(&t, g), Ok(c));
        }
    }

    /// Every selection the browser can report (any two UTF-16 offsets, either order, inside
    /// surrogate pairs and clusters too) becomes a valid span covering what was selected, or a
    /// clear "empty" refusal; snapping is idempotent.
    #[test]
    fn any_selection_snaps_to_a_valid_span(t in text(), a in 0usize..200, f in 0usize..200) {
        let len16 = t.encode_utf16().count();
        let (a, f) = (a % (len16 + 1), f % (len16 + 1));
        match selection_from_utf16(&t, a, f) {
            Ok((s, e)) => {
                prop_assert_eq!(Span::new(s, e, Severity::Minor).validate(&t, Scheme::Esa), Ok(()));
                let (s16, e16) = Span::new(s, e, Severity::Minor).to_utf16(&t).unwrap();
                prop_assert!(s16 <= a.min(f) && e16 >= a.max(f));
                prop_assert_eq!(snap_to_graphemes(&t, s, e), (s, e));
            }
            Err(SpanError::Empty { .. }) => prop_assert_eq!(a, f),
            Err(other) => prop_assert!(false, "unexpected {other}"),
        }
    }
}

#[test]
fn utf16_offsets_inside_surrogate_pairs_and_beyond_are_refused() {
    let t = "a𠮷b"; // 𠮷 is U+20BB7: two UTF-16 units
    assert_eq!(char_to_utf16(t, 2), Ok(3));
    assert_eq!(utf16_to_char(t, 3), Ok(2));
    assert_eq!(utf16_to_char(t, 2), Err(SpanError::InsideSurrogatePair { offset: 2 }));
    assert_eq!(utf16_to_char(t, 5), Err(SpanError::Utf16OutOfRange { offset: 5, len: 4 }));
    assert_eq!(char_to_utf16(t, 4), Err(SpanError::CharOutOfRange { offset: 4, len: 3 }));
    // A selection ending inside the pair takes the whole character.
    assert_eq!(selection_from_utf16(t, 0, 2), Ok((0, 2)));
}

#[test]
fn validation_names_each_problem() {
    let hindi = "नमस्ते"; // न म स ् त े: "स्ते" is one cluster here or "ते" at least
    assert!(!is_grapheme_boundary(hindi, 5), "the vowel sign े belongs to त");
    let e = Span::new(0, 5, Severity::Minor).validate(hindi, Scheme::Esa).unwrap_err();
    assert_eq!(e, SpanError::SplitsGrapheme { offset: 5 });
    assert!(e.to_string().contains("combining marks"));
    assert_eq!(snap_to_graphemes(hindi, 0, 5), (0, 6));

    let latin = "cafe\u{301}";
    assert_eq!(Span::new(0, 4, Severity::Major).validate(latin, Scheme::Esa), Err(SpanError::SplitsGrapheme { offset: 4 }));
    assert_eq!(Span::new(0, 5, Severity::Major).validate(latin, Scheme::Esa), Ok(()));
    assert_eq!(Span::new(2, 7, Severity::Major).validate(latin, Scheme::Esa), Err(SpanError::OutOfRange { start: 2, end: 7, len: 5 }));
    assert_eq!(Span::new(3, 3, Severity::Major).validate(latin, Scheme::Esa), Err(SpanError::Empty { start: 3, end: 3 }));
    assert_eq!(Span::new(4, 2, Severity::Major).validate(latin, Scheme::Esa), Err(SpanError::Empty { start: 4, end: 2 }));
    let e = Span::new(0, 2, Severity::Critical).validate(latin, Scheme::Esa).unwrap_err();
    assert_eq!(e.to_string(), "severity critical is not one of ESA's (minor, major)");
    assert_eq!(Span::new(0, 2, Severity::Undecided).validate(latin, Scheme::Mqm).unwrap_err(), SpanError::SeverityNotAllowed { severity: Severity::Undecided, scheme: Scheme::Mqm });
    assert_eq!(Span::new(0, 2, Severity::Critical).validate(latin, Scheme::Mqm), Err(SpanError::CategoryMissing));
    let mqm = Span { category: Some("accuracy/mistranslation".into()), ..Span::new(0, 2, Severity::Critical) };
    assert_eq!(mqm.validate(latin, Scheme::Mqm), Ok(()));
    assert!(matches!(Span { severity: Severity::Minor, ..mqm.clone() }.validate(latin, Scheme::Esa), Err(SpanError::CategoryNotAllowed { .. })));
    assert_eq!(Span::omission(Severity::Major).validate(latin, Scheme::Esa), Ok(()));
    assert_eq!(Span { start: 5, end: 5, ..Span::omission(Severity::Major) }.validate(latin, Scheme::Esa), Err(SpanError::OmissionWithOffsets { start: 5, end: 5 }));
    assert_eq!(Severity::parse("Major"), Ok(Severity::Major));
    assert_eq!(Severity::parse("severe").unwrap_err().to_string(), "unknown severity \"severe\" (expected minor, major, critical or neutral)");
}

#[test]
fn arabic_offsets_are_logical_not_visual() {
    // "مرحبا بالعالم": the first word is offsets 0..5 whatever direction it is drawn in; a
    // selection dragged leftwards (focus before anchor in memory order) gives the same span.
    let t = "مرحبا بالعالم";
    assert_eq!(selection_from_utf16(t, 5, 0), Ok((0, 5)));
    assert_eq!(Span::new(0, 5, Severity::Minor).marked(t), Some("مرحبا"));
    // With harakat a mark is never split from its letter.
    let h = "مَرْحَبًا";
    assert_eq!(selection_from_utf16(h, 0, 1), Ok((0, 2)));
}

#[test]
fn appraise_span_json_reads_the_public_shapes() {
    // The shapes of WMT 2024's released ESA CSV (waves 2–3).
    let spans = spans_from_appraise_json(
        r#"[{"start_i":54,"end_i":57,"severity":"minor","error_type":null},{"start_i":"missing","end_i":"missing","severity":"major"},{"start_i":8,"end_i":8,"severity":"undecided"}]"#,
    )
    .unwrap();
    assert_eq!(spans, vec![Span::new(54, 57, Severity::Minor), Span::omission(Severity::Major), Span::new(8, 8, Severity::Undecided)]);
    assert_eq!(spans_from_appraise_json("[]").unwrap(), vec![]);
    for (bad, says) in [
        (r#"[{"start_i":5,"end_i":3,"severity":"minor"}]"#, "span 1: the span 5–3 is empty or reversed"),
        (r#"[{"start_i":1,"end_i":3,"severity":"minor"},{"start_i":"missing","end_i":4,"severity":"minor"}]"#, "span 2: only one of start_i and end_i"),
        (r#"[{"start_i":1,"end_i":3,"severity":"awful"}]"#, "span 1: unknown severity \"awful\""),
        (r#"[{"start_i":-1,"end_i":3,"severity":"minor"}]"#, "span 1: start_i is not a whole number"),
        (r#"[{"start_i":1,"end_i":3}]"#, "span 1: no severity"),
        (r#"{"start_i":1}"#, "not a JSON array"),
        ("[{", "the spans are not JSON"),
    ] {
        let e = spans_from_appraise_json(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let mqm = Span { category: Some("Fluency/Punctuation".into()), ..Span::new(1, 2, Severity::Minor) };
    assert_eq!(spans_to_appraise_json(&[mqm.clone()]), r#"[{"end_i":2,"error_type":"Fluency/Punctuation","severity":"minor","start_i":1}]"#);
    assert_eq!(spans_from_appraise_json(&spans_to_appraise_json(&[mqm.clone()])).unwrap(), vec![mqm]);
}
