//! Tests of the importers: the three WMT sources agree, every error case names file and line,
//! limits hold while streaming, and fuzzing never panics.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use proptest::prelude::*;

use super::*;

// ---------------------------------------------------------------- helpers

type Files = Vec<(String, Vec<u8>)>;

fn f(path: &str, content: &str) -> (String, Vec<u8>) {
    (path.to_string(), content.as_bytes().to_vec())
}

/// A small real-shaped WMT set: two language pairs, two references, documents, three systems.
/// The German source has a BOM and CRLF line ends.
fn wmt_files() -> Files {
    vec![
        (
            "sources/de-en.txt".into(),
            b"\xEF\xBB\xBFDer Hund bellt.\r\nEs regnet heute.\r\nWir gehen nach Hause.\r\n"
                .to_vec(),
        ),
        f(
            "references/de-en.refA.txt",
            "The dog barks.\nIt is raining today.\nWe are going home.\n",
        ),
        f(
            "references/de-en.refB.txt",
            "The dog is barking.\nToday it rains.\nWe go home.\n",
        ),
        f(
            "documents/de-en.docs",
            "news doc1\nnews doc1\nspeech doc2\n",
        ),
        f(
            "system-outputs/de-en/Online-B.txt",
            "The dog barks.\nIt rains today.\nWe go home.\n",
        ),
        f(
            "system-outputs/de-en/sysA.txt",
            "Dog barks.\nIt is rain today.\nWe going home.\n",
        ),
        f("sources/en-zh.txt", "Good morning.\nThank you very much."),
        f("references/en-zh.refA.txt", "早上好。\n非常感谢。"),
        f("system-outputs/en-zh/sysA.txt", "早安。\n谢谢。\n"),
        f("README.md", "not part of the layout\n"),
    ]
}

fn write_dir(files: &Files) -> tempfile::TempDir {
    let dir = tempfile::TempDir::new().expect("tempdir");
    for (p, c) in files {
        let full = dir.path().join(p);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, c).expect("write");
    }
    dir
}

fn make_zip(files: &Files) -> std::fs::File {
    let file = tempfile::tempfile().expect("tempfile");
    let mut w = zip::ZipWriter::new(file);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (p, c) in files {
        w.start_file(p.as_str(), opts).expect("start");
        w.write_all(c).expect("write");
    }
    w.finish().expect("finish")
}

fn make_targz(files: &Files) -> Vec<u8> {
    let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(enc);
    for (p, c) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(c.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        b.append_data(&mut h, p, c.as_slice()).expect("append");
    }
    b.into_inner().expect("tar").finish().expect("gz")
}

/// A tar.gz whose single entry has a raw (unchecked) name and type.
fn raw_targz(name: &[u8], kind: tar::EntryType, content: &[u8]) -> Vec<u8> {
    let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(enc);
    let mut h = tar::Header::new_old();
    h.as_old_mut().name[..name.len()].copy_from_slice(name);
    h.set_size(content.len() as u64);
    h.set_mode(0o644);
    h.set_entry_type(kind);
    if kind == tar::EntryType::Symlink {
        h.set_link_name("/etc/passwd").expect("link");
    }
    h.set_cksum();
    b.append(&h, content).expect("append");
    b.into_inner().expect("tar").finish().expect("gz")
}

/// An in-memory source, to test the importers apart from the archive code.
struct MemSource(BTreeMap<String, Vec<u8>>);

impl ImportSource for MemSource {
    fn files(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }
    fn open(&mut self, path: &str) -> Result<Box<dyn Read + '_>, ImportError> {
        match self.0.get(path) {
            Some(c) => Ok(Box::new(c.as_slice())),
            None => Err(ImportError::new(path, None, "no such file")),
        }
    }
}

fn mem(files: &Files) -> MemSource {
    MemSource(files.iter().cloned().collect())
}

/// The errors of a result that must have failed.
fn fail<T>(r: Result<T, Vec<ImportError>>) -> Vec<ImportError> {
    match r {
        Ok(_) => panic!("expected errors, the import succeeded"),
        Err(e) => e,
    }
}

fn opts() -> ImportOptions {
    ImportOptions::new("wmt-test")
}

fn wmt_errors(files: &Files) -> Vec<String> {
    match import_wmt(&mut mem(files), &opts()) {
        Ok(b) => panic!(
            "expected errors, got a bundle with {} test sets",
            b.test_sets.len()
        ),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

fn replace(files: &mut Files, path: &str, content: &[u8]) {
    match files.iter_mut().find(|(p, _)| p == path) {
        Some(entry) => entry.1 = content.to_vec(),
        None => files.push((path.to_string(), content.to_vec())),
    }
}

fn pair(s: &str) -> LanguagePair {
    LanguagePair::parse(s).expect("pair")
}

/// Invariants every bundle must satisfy.
fn assert_valid(b: &ImportBundle) {
    assert!(!b.test_sets.is_empty());
    for ts in &b.test_sets {
        assert!(!ts.segments.is_empty());
        for s in &ts.segments {
            assert!(!s.source.trim().is_empty());
            assert!(!s.id.is_empty());
            for r in &s.references {
                assert!(!r.text.trim().is_empty());
            }
        }
        for o in &ts.outputs {
            assert_eq!(o.texts.len(), ts.segments.len());
            assert!(b.systems.iter().any(|s| s.name == o.system));
        }
    }
    let mut lower: Vec<String> = b.systems.iter().map(|s| s.name.to_lowercase()).collect();
    lower.sort();
    lower.dedup();
    assert_eq!(lower.len(), b.systems.len());
}

// ---------------------------------------------------------------- WMT layout

#[test]
fn wmt_folder_zip_and_targz_give_identical_bundles() {
    let files = wmt_files();
    let limits = ImportLimits::default();
    let dir = write_dir(&files);
    let from_dir = import_wmt(
        &mut DirSource::new(dir.path(), &limits).expect("dir"),
        &opts(),
    )
    .expect("dir import");
    let from_zip = import_wmt(
        &mut ZipSource::new(make_zip(&files), &limits).expect("zip"),
        &opts(),
    )
    .expect("zip import");
    let targz = make_targz(&files);
    let from_tgz = import_wmt(
        &mut TarGzSource::new(targz.as_slice(), &limits).expect("tgz"),
        &opts(),
    )
    .expect("tgz import");
    let from_mem = import_wmt(&mut mem(&files), &opts()).expect("mem import");
    assert_eq!(from_dir, from_zip);
    assert_eq!(from_dir, from_tgz);
    assert_eq!(from_dir, from_mem);
    assert_valid(&from_dir);

    let b = from_dir;
    assert_eq!(
        b.systems
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["Online-B", "sysA"]
    );
    assert_eq!(b.test_sets.len(), 2);
    let de = &b.test_sets[0];
    assert_eq!(de.pair, pair("de-en"));
    assert_eq!(de.name, "wmt-test");
    assert_eq!(de.segments.len(), 3);
    // BOM and CRLF stripped.
    assert_eq!(de.segments[0].source, "Der Hund bellt.");
    assert_eq!(de.segments[1].source, "Es regnet heute.");
    assert_eq!(de.segments[2].id, "3");
    assert_eq!(de.segments[2].document.as_deref(), Some("doc2"));
    assert_eq!(de.segments[2].domain.as_deref(), Some("speech"));
    assert_eq!(
        de.segments[1].references,
        vec![
            Reference {
                name: "refA".into(),
                text: "It is raining today.".into()
            },
            Reference {
                name: "refB".into(),
                text: "Today it rains.".into()
            },
        ]
    );
    assert_eq!(de.outputs.len(), 2);
    assert_eq!(de.outputs[1].system, "sysA");
    assert_eq!(de.outputs[1].texts[2].as_deref(), Some("We going home."));
    let zh = &b.test_sets[1];
    assert_eq!(zh.pair, pair("en-zh"));
    assert!(!zh.pair.target.uses_spaces());
    assert_eq!(zh.segments[1].references[0].text, "非常感谢。");
    assert_eq!(
        zh.outputs[0].texts,
        vec![Some("早安。".to_string()), Some("谢谢。".to_string())]
    );
    assert_eq!(b.notes.len(), 1);
    assert!(b.notes[0].contains("README.md"), "{:?}", b.notes);
    // The bundle round-trips through JSON (language codes as strings, validated on the way in).
    let json = serde_json::to_string(&b).expect("serialize");
    assert!(
        json.contains("\"pair\":{\"source\":\"de\",\"target\":\"en\"}"),
        "{json}"
    );
    assert_eq!(
        serde_json::from_str::<ImportBundle>(&json).expect("deserialize"),
        b
    );
    assert!(serde_json::from_str::<LangCode>("\"xx\"").is_err());
}

#[test]
fn import_path_dispatches_on_the_upload_name() {
    let files = wmt_files();
    let expected = import_wmt(&mut mem(&files), &opts()).expect("mem");
    let dir = write_dir(&files);
    assert_eq!(
        import_path(dir.path(), "upload", &opts()).expect("dir"),
        expected
    );
    let tmp = tempfile::TempDir::new().expect("tmp");
    let zip_path = tmp.path().join("upload-1");
    let mut z = make_zip(&files);
    std::io::copy(
        &mut {
            std::io::Seek::rewind(&mut z).expect("rewind");
            z
        },
        &mut std::fs::File::create(&zip_path).expect("create"),
    )
    .expect("copy");
    assert_eq!(
        import_path(&zip_path, "WMT.ZIP", &opts()).expect("zip"),
        expected
    );
    let tgz_path = tmp.path().join("upload-2");
    std::fs::write(&tgz_path, make_targz(&files)).expect("write");
    assert_eq!(
        import_path(&tgz_path, "wmt.tgz", &opts()).expect("tgz"),
        expected
    );
    let json_path = tmp.path().join("upload-3");
    std::fs::write(&json_path, APPRAISE).expect("write");
    assert_eq!(
        import_path(&json_path, "batches.json", &opts())
            .expect("json")
            .systems
            .len(),
        3
    );
    let e = fail(import_path(&json_path, "batches.xlsx", &opts()));
    assert!(
        e[0].to_string()
            .starts_with("batches.xlsx: unknown kind of file"),
        "{e:?}"
    );
}

#[test]
fn wmt_layout_inside_a_top_folder_and_hidden_files_are_accepted() {
    let mut files: Files = wmt_files()
        .into_iter()
        .map(|(p, c)| (format!("wmt99/{p}"), c))
        .collect();
    files.push(f("__MACOSX/wmt99/._x", "junk"));
    files.push(f("wmt99/.DS_Store", "junk"));
    let nested = import_wmt(
        &mut ZipSource::new(make_zip(&files), &ImportLimits::default()).expect("zip"),
        &opts(),
    )
    .expect("import");
    let flat = import_wmt(&mut mem(&wmt_files()), &opts()).expect("import");
    assert_eq!(nested.test_sets, flat.test_sets);
    assert_eq!(nested.systems, flat.systems);
}

#[test]
fn wmt_line_count_mismatch_names_both_counts() {
    let mut files = wmt_files();
    replace(&mut files, "system-outputs/de-en/sysA.txt", b"one\ntwo\n");
    replace(&mut files, "references/de-en.refB.txt", b"a\nb\nc\nd\n");
    let errs = wmt_errors(&files);
    assert_eq!(
        errs,
        vec![
            "references/de-en.refB.txt: has 4 lines but sources/de-en.txt has 3 lines",
            "system-outputs/de-en/sysA.txt: has 2 lines but sources/de-en.txt has 3 lines",
        ]
    );
}

#[test]
fn wmt_empty_lines_are_reported_with_their_line() {
    let mut files = wmt_files();
    replace(
        &mut files,
        "references/de-en.refA.txt",
        b"The dog barks.\n  \nWe are going home.\n",
    );
    replace(&mut files, "sources/en-zh.txt", b"Good morning.\n\n");
    replace(&mut files, "references/en-zh.refA.txt", b"a\nb\n");
    let errs = wmt_errors(&files);
    assert!(
        errs.contains(
            &"references/de-en.refA.txt, line 2: empty line where a reference is needed"
                .to_string()
        ),
        "{errs:?}"
    );
    assert!(
        errs.contains(
            &"sources/en-zh.txt, line 2: empty line where a source segment is needed".to_string()
        ),
        "{errs:?}"
    );
    // An empty system output is an error by default and None when allowed.
    let mut files = wmt_files();
    replace(
        &mut files,
        "system-outputs/de-en/sysA.txt",
        b"Dog barks.\n\nWe going home.\n",
    );
    assert_eq!(
        wmt_errors(&files),
        vec!["system-outputs/de-en/sysA.txt, line 2: empty line where a system output is needed"]
    );
    let mut o = opts();
    o.allow_empty_outputs = true;
    let b = import_wmt(&mut mem(&files), &o).expect("allowed");
    assert_eq!(b.test_sets[0].outputs[1].texts[1], None);
    assert_valid(&b);
}

#[test]
fn wmt_invalid_utf8_names_the_line() {
    let mut files = wmt_files();
    replace(
        &mut files,
        "system-outputs/de-en/Online-B.txt",
        b"ok\nbad \xFF\xFE here\nok\n",
    );
    assert_eq!(
        wmt_errors(&files),
        vec![
            "system-outputs/de-en/Online-B.txt, line 2: invalid UTF-8 at byte 5 of the line (files must be UTF-8)"
        ]
    );
}

#[test]
fn wmt_unknown_language_code() {
    let mut files = wmt_files();
    replace(&mut files, "sources/xx-en.txt", b"a\n");
    let errs = wmt_errors(&files);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("sources/xx-en.txt: unknown language code `xx`"),
        "{errs:?}"
    );
}

#[test]
fn wmt_duplicate_system_names_ignoring_case() {
    let mut files = wmt_files();
    replace(&mut files, "system-outputs/en-zh/SYSA.txt", b"x\ny\n");
    assert_eq!(
        wmt_errors(&files),
        vec![
            "system-outputs/en-zh/SYSA.txt: system name `SYSA` collides with `sysA` (system names must differ ignoring case)"
        ]
    );
    // Across language pairs too.
    let mut files = wmt_files();
    replace(&mut files, "system-outputs/en-zh/online-b.txt", b"x\ny\n");
    assert_eq!(
        wmt_errors(&files),
        vec![
            "system-outputs/en-zh/online-b.txt: system name `online-b` collides with `Online-B` (system names must differ ignoring case)"
        ]
    );
}

#[test]
fn wmt_output_without_source_file() {
    let mut files = wmt_files();
    replace(&mut files, "system-outputs/en-cs/sysA.txt", b"x\n");
    replace(&mut files, "references/en-cs.refA.txt", b"x\n");
    assert_eq!(
        wmt_errors(&files),
        vec![
            "references/en-cs.refA.txt: language pair en-cs has no source file sources/en-cs.txt",
            "system-outputs/en-cs/sysA.txt: language pair en-cs has no source file sources/en-cs.txt",
        ]
    );
}

#[test]
fn wmt_reference_name_collision() {
    let mut files = wmt_files();
    replace(&mut files, "references/de-en.REFA.txt", b"a\nb\nc\n");
    assert_eq!(
        wmt_errors(&files),
        vec![
            "references/de-en.refA.txt: reference name `refA` collides with `REFA` of references/de-en.REFA.txt (reference names of a language pair must differ ignoring case)"
        ]
    );
}

#[test]
fn wmt_bad_names_and_documents() {
    let mut files = wmt_files();
    replace(
        &mut files,
        "documents/de-en.docs",
        b"news doc1\nnews\nspeech doc2\n",
    );
    replace(&mut files, "sources/de-en.src", b"x\n");
    let errs = wmt_errors(&files);
    assert_eq!(
        errs,
        vec![
            "sources/de-en.src: a source file must be named SRC-TGT.txt, e.g. sources/en-de.txt",
            "documents/de-en.docs, line 2: expected `DOMAIN DOCNAME` (two fields separated by a space)",
        ]
    );
    assert_eq!(
        wmt_errors(&vec![f("notes.txt", "x")]),
        vec![
            "no `sources/SRC-TGT.txt` file found: the WMT layout needs sources/, and optionally references/, system-outputs/ and documents/"
        ]
    );
}

#[test]
fn wmt_collects_at_most_max_errors_then_stops() {
    let mut files = wmt_files();
    let src: String = (0..40).map(|i| format!("s{i}\n")).collect();
    replace(&mut files, "sources/de-en.txt", src.as_bytes());
    replace(
        &mut files,
        "references/de-en.refA.txt",
        "\n".repeat(40).as_bytes(),
    );
    let errs = wmt_errors(&files);
    assert_eq!(errs.len(), 21, "{errs:?}");
    assert!(
        errs[0].starts_with("documents/de-en.docs: has 3 lines"),
        "{errs:?}"
    );
    assert_eq!(
        errs[1],
        "references/de-en.refA.txt, line 1: empty line where a reference is needed"
    );
    assert_eq!(
        errs[19],
        "references/de-en.refA.txt, line 19: empty line where a reference is needed"
    );
    assert!(errs[20].starts_with("stopped after 20 errors"));
}

// ---------------------------------------------------------------- sources: safety and limits

fn small_limits() -> ImportLimits {
    ImportLimits {
        max_total_bytes: 10_000,
        max_file_bytes: 1_000,
        max_files: 20,
        max_line_bytes: 200,
        max_errors: 20,
    }
}

#[test]
fn zip_rejects_traversal_absolute_and_symlinks() {
    let file = tempfile::tempfile().expect("tempfile");
    let mut w = zip::ZipWriter::new(file);
    let o = zip::write::SimpleFileOptions::default();
    w.start_file("../evil.txt", o).expect("start");
    w.write_all(b"x").expect("write");
    w.start_file("/etc/evil.txt", o).expect("start");
    w.write_all(b"x").expect("write");
    w.add_symlink("sources/link.txt", "/etc/passwd", o)
        .expect("link");
    let z = w.finish().expect("finish");
    let errs: Vec<String> = match ZipSource::new(z, &ImportLimits::default()) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    };
    assert_eq!(
        errs,
        vec![
            "../evil.txt: path traversal (`..`) not allowed",
            "/etc/evil.txt: absolute path not allowed",
            "sources/link.txt: symbolic links are not allowed",
        ]
    );
}

#[test]
fn targz_rejects_traversal_and_links() {
    let e = fail(TarGzSource::new(
        raw_targz(b"a/../../evil.txt", tar::EntryType::Regular, b"x").as_slice(),
        &small_limits(),
    ));
    assert_eq!(
        e[0].to_string(),
        "a/../../evil.txt: path traversal (`..`) not allowed"
    );
    let e = fail(TarGzSource::new(
        raw_targz(b"sources/en-de.txt", tar::EntryType::Symlink, b"").as_slice(),
        &small_limits(),
    ));
    assert_eq!(
        e[0].to_string(),
        "sources/en-de.txt: symbolic and hard links are not allowed"
    );
    let e = fail(TarGzSource::new(&b"this is not gzip"[..], &small_limits()));
    assert!(
        e[0].problem.contains("not a readable tar.gz archive"),
        "{e:?}"
    );
}

#[test]
fn dir_rejects_symlinks_and_too_many_files() {
    let dir = write_dir(&vec![f("sources/en-de.txt", "a\n")]);
    std::os::unix::fs::symlink("/etc/passwd", dir.path().join("sources/de-en.txt"))
        .expect("symlink");
    let e = fail(DirSource::new(dir.path(), &small_limits()));
    assert_eq!(
        e[0].to_string(),
        "sources/de-en.txt: symbolic links are not allowed"
    );

    let many: Files = (0..25).map(|i| f(&format!("x/{i:02}.txt"), "a")).collect();
    let dir = write_dir(&many);
    let e = fail(DirSource::new(dir.path(), &small_limits()));
    assert!(
        e[0].problem.contains("too many files: the limit is 20"),
        "{e:?}"
    );
}

#[test]
fn a_huge_file_is_refused_before_it_is_read() {
    // A sparse 2 GiB file: refused from its size, without reading it.
    let dir = write_dir(&vec![f("sources/en-de.txt", "a\n")]);
    let big = std::fs::File::create(dir.path().join("sources/de-en.txt")).expect("create");
    big.set_len(2 << 30).expect("set_len");
    let e = fail(DirSource::new(dir.path(), &ImportLimits::default()));
    assert_eq!(
        e[0].to_string(),
        format!(
            "sources/de-en.txt: file is {} bytes, over the limit of {} bytes per file",
            2u64 << 30,
            128u64 << 20
        )
    );
    // In a zip: the declared size is checked from the central directory.
    let z = make_zip(&vec![f("sources/en-de.txt", &"x".repeat(5_000))]);
    let e = fail(ZipSource::new(z, &small_limits()));
    assert_eq!(
        e[0].to_string(),
        "sources/en-de.txt: file is 5000 bytes, over the limit of 1000 bytes per file"
    );
    // Total over several files.
    let files: Files = (0..12)
        .map(|i| f(&format!("f{i}.txt"), &"y".repeat(900)))
        .collect();
    let e = fail(TarGzSource::new(
        make_targz(&files).as_slice(),
        &small_limits(),
    ));
    assert_eq!(
        e[0].to_string(),
        "f11.txt: the files add up to more than the limit of 10000 bytes"
    );
}

/// A reader that yields an endless pattern and counts what was taken from it.
struct Endless<'a> {
    pattern: &'a [u8],
    pos: usize,
    read: u64,
}

impl Read for Endless<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.pattern[self.pos % self.pattern.len()];
            self.pos += 1;
        }
        self.read += buf.len() as u64;
        Ok(buf.len())
    }
}

#[test]
fn limits_hold_while_streaming() {
    let mut o = opts();
    o.pair = Some(pair("de-en"));
    o.limits.max_file_bytes = 100_000;
    // Per file: an endless well-formed TSV.
    let mut r = Endless {
        pattern: b"segment_id\tsource\n",
        pos: 0,
        read: 0,
    };
    let e = fail(import_tsv("big.tsv", &mut r, &o));
    assert_eq!(
        e[0].to_string(),
        "big.tsv: file is larger than the limit of 100000 bytes"
    );
    assert!(r.read <= 100_001, "read {} bytes", r.read);
    // Per line: an endless line.
    o.limits.max_line_bytes = 10_000;
    let mut r = Endless {
        pattern: b"a",
        pos: 0,
        read: 0,
    };
    let e = fail(import_jsonl("big.jsonl", &mut r, &o));
    assert_eq!(
        e[0].to_string(),
        format!("big.jsonl, line 1: line is longer than the limit of 10000 bytes")
    );
    assert!(r.read <= 10_000 + 8 * 1024 + 1, "read {} bytes", r.read);
    // JSON read whole: stops at the limit.
    let mut r = Endless {
        pattern: b"[",
        pos: 0,
        read: 0,
    };
    let e = fail(import_appraise("big.json", &mut r, &o));
    assert_eq!(
        e[0].to_string(),
        "big.json: file is larger than the limit of 100000 bytes"
    );
    assert!(r.read <= 100_001, "read {} bytes", r.read);
    // Total over files of one import.
    o.limits.max_total_bytes = 50;
    let files = vec![
        f("sources/de-en.txt", &"word\n".repeat(8)),
        f("references/de-en.r.txt", &"word\n".repeat(8)),
    ];
    let e = fail(import_wmt(&mut mem(&files), &o));
    assert!(
        e[0].to_string()
            .contains("more than the limit of 50 bytes in total"),
        "{e:?}"
    );
}

#[test]
fn targz_reads_at_most_the_limit_of_an_oversized_entry() {
    // An incompressible 3 MB entry is refused from its tar header: little of the input is read.
    let mut x: u32 = 12345;
    let data: Vec<u8> = (0..3_000_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    let tgz = make_targz(&vec![("sources/en-de.txt".into(), data)]);
    struct Counting<'a>(&'a [u8], u64);
    impl Read for Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1 += n as u64;
            Ok(n)
        }
    }
    let mut c = Counting(tgz.as_slice(), 0);
    let limits = ImportLimits {
        max_file_bytes: 100_000,
        ..ImportLimits::default()
    };
    let e = fail(TarGzSource::new(&mut c, &limits));
    assert_eq!(
        e[0].to_string(),
        "sources/en-de.txt: file is 3000000 bytes, over the limit of 100000 bytes per file"
    );
    assert!(
        c.1 < 200_000,
        "read {} of {} compressed bytes",
        c.1,
        tgz.len()
    );
}

// ---------------------------------------------------------------- Appraise

const APPRAISE: &str = include_str!("../../../../tests/fixtures/import/appraise-batches.json");

#[test]
fn appraise_batches_import() {
    let b = import_appraise("batches.json", &mut APPRAISE.as_bytes(), &opts()).expect("import");
    assert_valid(&b);
    assert_eq!(
        b.systems
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["sysA", "sysB", "sysC"]
    );
    assert_eq!(b.test_sets.len(), 1);
    let ts = &b.test_sets[0];
    assert_eq!(ts.pair, pair("de-en")); // deu/eng normalised
    assert_eq!(ts.pair.source.iso639_3(), "deu");
    assert_eq!(
        ts.segments
            .iter()
            .map(|s| s.id.as_str())
            .collect::<Vec<_>>(),
        ["101", "102"]
    );
    assert_eq!(
        ts.segments[0].references,
        vec![Reference {
            name: "Human-A".into(),
            text: "The dog is barking.".into()
        }]
    );
    assert!(ts.segments[1].references.is_empty());
    let out = |s: &str| {
        ts.outputs
            .iter()
            .find(|o| o.system == s)
            .expect("system")
            .texts
            .clone()
    };
    // `sysA+sysB` expanded to both systems.
    assert_eq!(
        out("sysA"),
        vec![
            Some("The dog barks.".to_string()),
            Some("It is raining today.".to_string())
        ]
    );
    assert_eq!(out("sysB"), vec![Some("The dog barks.".to_string()), None]);
    assert_eq!(
        out("sysC"),
        vec![
            Some("The dog is barking loudly.".to_string()),
            Some("It rains today.".to_string())
        ]
    );
    assert_eq!(
        b.notes,
        vec![
            "ignored 1 BAD and 1 CHK items (Appraise's own quality control; Assay builds its own)"
        ]
    );
}

fn appraise_errors(json: &str) -> Vec<String> {
    match import_appraise("batches.json", &mut json.as_bytes(), &opts()) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn appraise_errors_are_precise() {
    assert_eq!(
        appraise_errors(
            "[\n  {\"items\": [],\n   \"task\": {\"sourceLanguage\": \"deu\" \"x\"}}\n]"
        ),
        vec!["batches.json, line 3: invalid JSON at column 37: expected `,` or `}`"]
    );
    let bad_lang = APPRAISE.replacen(
        "\"targetLanguage\": \"eng\"",
        "\"targetLanguage\": \"xyz\"",
        1,
    );
    let errs = appraise_errors(&bad_lang);
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].starts_with("batches.json: batch 1: task: unknown language code `xyz`"),
        "{errs:?}"
    );
    let conflict = APPRAISE
        .replacen("\"It is raining today.\"", "\"It rains today.\"", 1)
        .replacen(
            "\"targetID\": \"sysC\", \"targetText\": \"It rains today.\", \"_item\": \"2\"",
            "\"targetID\": \"sysC\", \"targetText\": \"It rains, today.\", \"_item\": \"2\"",
            1,
        );
    assert_eq!(
        appraise_errors(&conflict),
        vec![
            "batches.json: batch 2, item 3: system `sysC` has a different output for segment `102` than at batch 1, item 2"
        ]
    );
    let empty = APPRAISE.replacen("\"The dog is barking.\"", "\" \"", 1);
    assert_eq!(
        appraise_errors(&empty),
        vec!["batches.json: batch 1, item 3: empty `targetText` where a reference is needed"]
    );
    let collide = APPRAISE.replacen("\"sysA+sysB\"", "\"sysA+SYSA\"", 1);
    assert_eq!(
        appraise_errors(&collide),
        vec![
            "batches.json: batch 1, item 1: system name `SYSA` collides with `sysA` (system names must differ ignoring case)"
        ]
    );
    assert_eq!(
        appraise_errors(
            "[{\"items\": [{\"itemType\": \"XYZ\"}], \"task\": {\"sourceLanguage\": \"en\", \"targetLanguage\": \"de\"}}]"
        ),
        vec![
            "batches.json: batch 1, item 1: unknown itemType `XYZ` (expected TGT, REF, BAD or CHK)"
        ]
    );
    assert_eq!(
        appraise_errors("42"),
        vec!["batches.json: expected a list of Appraise batches (a JSON array)"]
    );
}

// ---------------------------------------------------------------- TSV and JSONL

const TSV: &str = include_str!("../../../../tests/fixtures/import/segments.tsv");
const JSONL: &str = include_str!("../../../../tests/fixtures/import/segments.jsonl");

#[test]
fn tsv_and_jsonl_give_the_same_test_set() {
    let mut o = opts();
    o.pair = Some(pair("de-en"));
    let t = import_tsv("segments.tsv", &mut TSV.as_bytes(), &o).expect("tsv");
    let j = import_jsonl("segments.jsonl", &mut JSONL.as_bytes(), &opts()).expect("jsonl");
    assert_valid(&t);
    assert_eq!(t.test_sets, j.test_sets);
    assert_eq!(t.systems, j.systems);
    let ts = &t.test_sets[0];
    // Quotes are literal in TSV; BOM and CRLF stripped.
    assert_eq!(ts.segments[0].source, "Der \"Hund\" bellt.");
    assert_eq!(ts.segments[0].document.as_deref(), Some("doc1"));
    assert_eq!(ts.segments[0].references[0].text, "The dog is barking.");
    assert_eq!(
        ts.outputs[0].texts[0].as_deref(),
        Some("The \"dog\" barks.")
    );
    assert_eq!(ts.outputs[1].texts[1].as_deref(), Some("Rain."));
    assert_eq!(t.notes, vec!["ignored unknown column(s): `notes`"]);
    assert_eq!(j.notes, vec!["ignored unknown column(s): `extra`"]);
}

fn tsv_errors(text: &str, o: &ImportOptions) -> Vec<String> {
    match import_tsv("in.tsv", &mut text.as_bytes(), o) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn tsv_errors_are_precise() {
    let mut o = opts();
    o.pair = Some(pair("en-de"));
    assert_eq!(
        tsv_errors("sid\tsource\n1\ta\tb\n2\n3\tc\n", &o),
        vec![
            "in.tsv, line 2: has 3 fields but the header has 2; TSV fields cannot contain tabs",
            "in.tsv, line 3: has 1 fields but the header has 2; TSV fields cannot contain line breaks (a line break inside a field splits the row)",
        ]
    );
    assert_eq!(
        tsv_errors("sid\ttext\n1\ta\n", &o),
        vec!["in.tsv, line 1: missing required column `source`"]
    );
    assert_eq!(
        tsv_errors("sid\tsegment_id\tsource\n", &o),
        vec!["in.tsv, line 1: column `segment_id` is given twice (`segment_id`)"]
    );
    assert_eq!(
        tsv_errors("sid\tsource\n1\ta\n", &opts()),
        vec![
            "in.tsv, line 1: no language pair: add `src_lang` and `tgt_lang` columns or choose the pair when importing"
        ]
    );
    assert_eq!(
        tsv_errors(
            "sid\tsource\tsystem\toutput\n1\ta\tsysA\tx\n1\tb\tsysB\ty\n2\tc\tsysA\t\n",
            &o
        ),
        vec![
            "in.tsv, line 3: segment `1` has a different source text than at line 2",
            "in.tsv, line 4: empty `output` where a system output of `sysA` is needed",
        ]
    );
    assert_eq!(
        tsv_errors("sid\tsource\treference\n1\ta\tx\n2\tb\t\n", &o),
        vec![
            "in.tsv, line 3: segment `2` has no reference (the reference is empty wherever this segment appears)"
        ]
    );
    assert_eq!(
        tsv_errors("sid\tsource\tsrc_lang\ttgt_lang\n1\ta\ten\tqq\n", &o)[0],
        "in.tsv, line 2: unknown language code `qq` (expected an ISO 639-1 code such as `de` or an ISO 639-3 code such as `deu`, optionally with a script or region such as `zh-Hant` or `pt-BR`)"
    );
    let bad_utf8 = fail(import_tsv(
        "in.tsv",
        &mut &b"sid\tsource\n1\tok\n2\t\xC3(\n"[..],
        &o,
    ));
    assert_eq!(
        bad_utf8[0].to_string(),
        "in.tsv, line 3: invalid UTF-8 at byte 3 of the line (files must be UTF-8)"
    );
}

#[test]
fn jsonl_errors_are_precise() {
    let errs: Vec<String> = fail(import_jsonl(
        "in.jsonl",
        &mut "{\"sid\": 1, \"source\": \"a\", \"src_lang\": \"en\", \"tgt_lang\": \"de\"}\n{\"sid\": 2, \"source\": \"b\",}\n[1]\n{\"sid\": 3, \"source\": [\"x\"]}\n"
            .as_bytes(),
        &opts(),
    ))
    .iter()
    .map(ToString::to_string)
    .collect();
    assert_eq!(
        errs,
        vec![
            "in.jsonl, line 2: invalid JSON at column 26: trailing comma",
            "in.jsonl, line 3: expected a JSON object",
            "in.jsonl, line 4: `source` must be a string",
        ]
    );
}

// ---------------------------------------------------------------- language codes

#[test]
fn language_codes_normalise_and_classify() {
    let c = |s: &str| LangCode::parse(s).expect(s);
    assert_eq!(c("DE").to_string(), "de");
    assert_eq!(c("deu").to_string(), "de");
    assert_eq!(c("zh-hant").to_string(), "zh-Hant");
    assert_eq!(c("pt_br").to_string(), "pt-BR");
    assert_eq!(c("es-419").to_string(), "es-419");
    assert_eq!(c("zh-Hant-TW").region(), Some("TW"));
    assert_eq!(c("hsb").to_string(), "hsb");
    assert_eq!(c("hsb").english_name(), "Upper Sorbian");
    assert_eq!(c("ja").iso639_3(), "jpn");
    assert!(LangCode::parse("xx").is_err());
    assert!(LangCode::parse("en-Latn-Latn").is_err());
    assert!(LangCode::parse("").is_err());
    for rtl in ["ar", "he", "fa", "ur", "ps", "yi", "ckb", "az-Arab"] {
        assert!(c(rtl).is_rtl(), "{rtl}");
    }
    for ltr in ["en", "de", "zh", "tr", "az", "ku", "sd-Deva"] {
        assert_eq!(c(ltr).direction(), TextDirection::Ltr, "{ltr}");
    }
    for unspaced in ["zh", "ja", "th", "lo", "km", "my", "yue", "zh-Hant"] {
        assert!(!c(unspaced).uses_spaces(), "{unspaced}");
    }
    for spaced in ["en", "ko", "ar", "hi", "vi"] {
        assert!(c(spaced).uses_spaces(), "{spaced}");
    }
    assert_eq!(pair("en-zh-Hant").target.to_string(), "zh-Hant");
    assert_eq!(pair("en-cs_CZ").target.to_string(), "cs-CZ");
    assert_eq!(pair("eng-deu"), pair("en-de"));
    let amb = LanguagePair::parse("pt-br-en").expect_err("ambiguous");
    assert!(amb.0.contains("ambiguous"), "{amb}");
}

// ---------------------------------------------------------------- fuzzing

fn check_outcome(r: Result<ImportBundle, Vec<ImportError>>) {
    match r {
        Ok(b) => assert_valid(&b),
        Err(e) => {
            assert!(!e.is_empty());
            assert!(e.len() <= 21);
            for err in &e {
                assert!(!err.problem.is_empty());
            }
        }
    }
}

fn fuzz_opts() -> ImportOptions {
    let mut o = opts();
    o.pair = Some(pair("en-de"));
    o.limits = ImportLimits {
        max_line_bytes: 64,
        max_file_bytes: 4096,
        ..ImportLimits::default()
    };
    o
}

/// Mostly plain short text, sometimes tricky, so that both valid and invalid inputs occur.
fn mostly_plain() -> impl Strategy<Value = String> {
    prop_oneof![3 => proptest::string::string_regex("[a-c]{1,3}").expect("regex"), 1 => tricky_text()]
}

/// Lines drawn from a small alphabet that hits the interesting cases (tabs, CR, quotes, empties).
fn tricky_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-c \t\r\"\\\\{}:,\\[\\]é]{0,12}").expect("regex")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let o = fuzz_opts();
        check_outcome(import_tsv("f.tsv", &mut bytes.as_slice(), &o));
        check_outcome(import_jsonl("f.jsonl", &mut bytes.as_slice(), &o));
        check_outcome(import_appraise("f.json", &mut bytes.as_slice(), &o));
        let _ = ZipSource::new(Cursor::new(bytes.clone()), &o.limits);
        let _ = TarGzSource::new(bytes.as_slice(), &o.limits);
        let files = vec![
            ("sources/en-de.txt".to_string(), bytes.clone()),
            ("system-outputs/en-de/s.txt".to_string(), bytes.iter().rev().copied().collect()),
        ];
        check_outcome(import_wmt(&mut mem(&files), &o));
    }

    #[test]
    fn fuzz_wmt_structured(
        src in proptest::collection::vec(tricky_text(), 0..6),
        refs in proptest::collection::vec(tricky_text(), 0..6),
        outs in proptest::collection::vec(proptest::collection::vec(tricky_text(), 0..6), 0..3),
        names in proptest::collection::vec("[a-cA-C.]{0,3}", 3),
        pair_name in "(en|de|xx|zh-Hant|pt)-(en|de|qq|br)",
    ) {
        let mut files = vec![
            (format!("sources/{pair_name}.txt"), src.join("\n").into_bytes()),
            (format!("references/{pair_name}.{}.txt", names[0]), refs.join("\n").into_bytes()),
        ];
        for (i, o) in outs.iter().enumerate() {
            files.push((format!("system-outputs/{pair_name}/{}.txt", names[i + 1 - i / 2]), o.join("\r\n").into_bytes()));
        }
        let r = import_wmt(&mut mem(&files), &fuzz_opts());
        if let Ok(b) = &r {
            // A final newline ends the last line; it does not start an empty one.
            prop_assert_eq!(b.test_sets[0].segments.len(), src.join("\n").lines().count());
        }
        check_outcome(r);
    }

    #[test]
    fn fuzz_table_structured(
        random_header in proptest::collection::vec("(sid|segment_id|source|reference|system|output|src_lang|tgt_lang|doc_id|x)", 0..7),
        use_random_header in any::<bool>(),
        with_reference in any::<bool>(),
        rows in proptest::collection::vec(proptest::collection::vec(mostly_plain(), 6), 0..6),
        drop_field in any::<bool>(),
    ) {
        let header: Vec<String> = if use_random_header {
            random_header
        } else {
            let mut h: Vec<String> = ["sid", "source", "system", "output", "doc_id"].iter().map(|s| s.to_string()).collect();
            if with_reference {
                h.push("reference".into());
            }
            h
        };
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .enumerate()
            .map(|(i, mut r)| {
                r.truncate(header.len().saturating_sub(usize::from(drop_field && i == 1)));
                r
            })
            .collect();
        let mut tsv = header.join("\t");
        for r in &rows {
            tsv.push('\n');
            tsv.push_str(&r.join("\t"));
        }
        check_outcome(import_tsv("f.tsv", &mut tsv.as_bytes(), &fuzz_opts()));
        let mut jsonl = String::new();
        for r in &rows {
            let obj: serde_json::Map<String, serde_json::Value> = header
                .iter()
                .zip(r)
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect();
            jsonl.push_str(&serde_json::Value::Object(obj).to_string());
            jsonl.push('\n');
        }
        check_outcome(import_jsonl("f.jsonl", &mut jsonl.as_bytes(), &fuzz_opts()));
    }

    #[test]
    fn fuzz_appraise_structured(
        items in proptest::collection::vec(
            (
                prop_oneof![6 => Just("TGT"), 2 => Just("REF"), 1 => Just("BAD"), 1 => Just("CHK"), 1 => Just("BAD.x"), 1 => Just("SRC"), 1 => Just("")],
                prop_oneof![
                    3 => Just(serde_json::json!(1)),
                    3 => Just(serde_json::json!("1")),
                    3 => Just(serde_json::json!(2)),
                    1 => Just(serde_json::json!(null)),
                    1 => Just(serde_json::json!([1])),
                ],
                // "=" stands for a text derived from the ids, so that repeated items agree.
                prop_oneof![3 => Just("=".to_string()), 1 => mostly_plain()],
                "(sysA|sysA|sysa|sysA\\+sysB|\\+|)",
                prop_oneof![3 => Just("=".to_string()), 1 => mostly_plain()],
                any::<bool>(),
            ),
            0..8,
        ),
        langs in ("(eng|de|de|de|xx|zh-Hant)", "(deu|en|en|en|qq)"),
    ) {
        let items: Vec<serde_json::Value> = items
            .into_iter()
            .map(|(t, sid, src, tid, tgt, doc)| {
                let src = if src == "=" { format!("source {sid}") } else { src };
                let tgt = if tgt == "=" { format!("output {sid} {tid}") } else { tgt };
                let mut v = serde_json::json!({"itemType": t, "sourceID": sid, "sourceText": src, "targetID": tid, "targetText": tgt});
                if doc {
                    v["documentID"] = serde_json::json!("d1");
                }
                v
            })
            .collect();
        let json = serde_json::json!([{"items": items, "task": {"sourceLanguage": langs.0, "targetLanguage": langs.1}}]).to_string();
        check_outcome(import_appraise("f.json", &mut json.as_bytes(), &fuzz_opts()));
    }

    #[test]
    fn fuzz_archives_structured(
        entries in proptest::collection::vec(("(sources|references|system-outputs/en-de|\\.\\.|/x|a/\\./b)/(en-de|de-en)(\\.r)?\\.txt", tricky_text()), 0..5),
    ) {
        let files: Files = entries.into_iter().map(|(p, c)| (p, c.into_bytes())).collect::<BTreeMap<_, _>>().into_iter().collect();
        let o = fuzz_opts();
        // zip and tar.gz built from the same files must agree on success or failure.
        let z = make_zip(&files);
        let from_zip = ZipSource::new(z, &o.limits).map_err(|e| e.len()).and_then(|mut s| import_wmt(&mut s, &o).map_err(|e| e.len()));
        // The tar builder refuses `..` and absolute names itself; only compare what it could build.
        let enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut b = tar::Builder::new(enc);
        let mut built = true;
        for (p, c) in &files {
            let mut h = tar::Header::new_gnu();
            h.set_size(c.len() as u64);
            h.set_mode(0o644);
            if b.append_data(&mut h, p, c.as_slice()).is_err() {
                built = false;
                break;
            }
        }
        if built {
            let tgz = b.into_inner().expect("tar").finish().expect("gz");
            let from_tgz = TarGzSource::new(tgz.as_slice(), &o.limits).map_err(|e| e.len()).and_then(|mut s| import_wmt(&mut s, &o).map_err(|e| e.len()));
            prop_assert_eq!(from_zip.is_ok(), from_tgz.is_ok());
            if let (Ok(a), Ok(b)) = (&from_zip, &from_tgz) {
                prop_assert_eq!(a, b);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pre-filled spans (ESA-AI) and Appraise document batches

fn en_de() -> ImportOptions {
    let mut o = opts();
    o.pair = Some(pair("en-de"));
    o
}

#[test]
fn tsv_and_jsonl_read_prefilled_spans_per_output() {
    use crate::protocol::{Severity, Span};
    // "Der Hund lief." : "Hund" is 4..8; an omission; a segment given no error; one not given.
    let tsv = "segment_id\tsource\tsystem\toutput\tspans\n\
               1\tThe dog ran.\tA\tDer Hund lief.\t[{\"start_i\": 4, \"end_i\": 8, \"severity\": \"major\"}, {\"start_i\": \"missing\", \"end_i\": \"missing\", \"severity\": \"minor\"}]\n\
               2\tHi.\tA\tHallo.\t[]\n\
               3\tYes.\tA\tJa.\t\n\
               1\tThe dog ran.\tB\tDer Hund rannte.\t\n";
    let b = import_tsv("in.tsv", &mut tsv.as_bytes(), &en_de()).expect("import");
    let set = &b.test_sets[0];
    let a = set.outputs.iter().find(|o| o.system == "A").unwrap();
    assert_eq!(a.spans.len(), 3, "aligned with the segments");
    assert_eq!(a.spans[0], Some(vec![Span::new(4, 8, Severity::Major), Span::omission(Severity::Minor)]));
    assert_eq!(a.spans[1], Some(vec![]), "[] is given: no error");
    assert_eq!(a.spans[2], None, "blank is none given");
    let bsys = set.outputs.iter().find(|o| o.system == "B").unwrap();
    assert!(bsys.spans.is_empty(), "a system without spans has none");

    let jsonl = "{\"segment_id\": \"1\", \"source\": \"The dog ran.\", \"system\": \"A\", \"output\": \"Der Hund lief.\", \"spans\": [{\"start_i\": 4, \"end_i\": 8, \"severity\": \"major\"}, {\"start_i\": \"missing\", \"end_i\": \"missing\", \"severity\": \"minor\"}]}\n\
                 {\"segment_id\": \"2\", \"source\": \"Hi.\", \"system\": \"A\", \"output\": \"Hallo.\", \"spans\": \"[]\"}\n\
                 {\"segment_id\": \"3\", \"source\": \"Yes.\", \"system\": \"A\", \"output\": \"Ja.\", \"spans\": null}\n\
                 {\"segment_id\": \"1\", \"source\": \"The dog ran.\", \"system\": \"B\", \"output\": \"Der Hund rannte.\"}\n";
    let j = import_jsonl("in.jsonl", &mut jsonl.as_bytes(), &en_de()).expect("import");
    assert_eq!(j.test_sets, b.test_sets, "TSV and JSONL give the same spans");
}

#[test]
fn prefilled_spans_that_do_not_fit_are_refused_with_file_line_and_span() {
    let cases = [
        // beyond the text (14 characters)
        ("[{\"start_i\": 9, \"end_i\": 20, \"severity\": \"minor\"}]", "in.tsv, line 2: system `A`, segment `1`: pre-filled span 1: the span 9–20 lies outside the text, which has 14 characters"),
        // empty
        ("[{\"start_i\": 4, \"end_i\": 8, \"severity\": \"minor\"}, {\"start_i\": 4, \"end_i\": 4, \"severity\": \"minor\"}]", "in.tsv, line 2: system `A`, segment `1`: pre-filled span 2: the span 4–4 is empty or reversed"),
        ("[{\"start_i\": 4, \"end_i\": 8, \"severity\": \"undecided\"}]", "pre-filled span 1: severity \"undecided\" cannot be pre-filled"),
        ("[{\"start_i\": 4, \"end_i\": 8, \"severity\": \"awful\"}]", "in.tsv, line 2: pre-filled span 1: unknown severity \"awful\""),
        ("not json", "in.tsv, line 2: the pre-filled spans are not JSON"),
        ("{\"a\": 1}", "in.tsv, line 2: the pre-filled spans must be a JSON list"),
    ];
    for (spans, want) in cases {
        let tsv = format!("segment_id\tsource\tsystem\toutput\tspans\n1\tThe dog ran.\tA\tDer Hund lief.\t{spans}\n");
        let e = tsv_errors(&tsv, &en_de());
        assert!(e.iter().any(|m| m.starts_with(want) || m.contains(want)), "{spans}: {e:?}");
    }
    // A span splitting a letter from its combining mark (e + U+0301 at 1..3).
    let tsv = "segment_id\tsource\tsystem\toutput\tspans\n1\tcafe\tA\tcafe\u{301} noir\t[{\"start_i\": 3, \"end_i\": 4, \"severity\": \"minor\"}]\n";
    let e = tsv_errors(tsv, &en_de());
    assert!(e.iter().any(|m| m.contains("offset 4 splits a character from its combining marks")), "{e:?}");
    // Spans without an output to mark.
    let tsv = "segment_id\tsource\tsystem\toutput\tspans\n1\tThe dog ran.\t\t\t[]\n";
    let e = tsv_errors(tsv, &en_de());
    assert!(e.iter().any(|m| m.contains("need a `system` and its `output`")), "{e:?}");
}

#[test]
fn appraise_document_batches_with_prefilled_spans() {
    use crate::protocol::{Severity, Span};
    // WMT 2024's ESA batches: sourceID is the pair, itemID the segment; `mqm` pre-filled.
    let json = r#"[{"items": [
        {"itemType": "TGT", "sourceID": "en-de", "itemID": 119, "documentID": "doc-a", "sourceText": "One.", "targetText": "Eins.", "targetID": "sysA",
         "mqm": [{"start_i": 0, "end_i": 4, "severity": "minor"}], "isCompleteDocument": false, "sourceContextLeft": "", "targetContextLeft": ""},
        {"itemType": "TGT", "sourceID": "en-de", "itemID": 120, "documentID": "doc-a", "sourceText": "Two.", "targetText": "Zwei.", "targetID": "sysA",
         "mqm": [], "isCompleteDocument": false, "sourceContextLeft": "One.", "targetContextLeft": "Eins."},
        {"itemType": "TGT", "sourceID": "en-de", "itemID": 120, "documentID": "doc-a", "sourceText": "Two.", "targetText": "Zwo.", "targetID": "sysB",
         "mqm": {"payload": [{"start_i": "missing", "end_i": "missing", "severity": "major"}]}, "isCompleteDocument": false},
        {"itemType": "BAD", "sourceID": "en-de", "itemID": 119, "documentID": "doc-a#bad", "sourceText": "One.", "targetText": "Eins eins.", "targetID": "sysA", "mqm": []},
        {"itemType": "TGT", "sourceID": "en-de", "itemID": 121, "documentID": "doc-a", "sourceText": "Whole.", "targetText": "Ganz.", "targetID": "sysA", "mqm": [], "isCompleteDocument": true}
      ], "task": {"sourceLanguage": "eng", "targetLanguage": "deu", "batchNo": 1}}]"#;
    let b = import_appraise("esa.json", &mut json.as_bytes(), &opts()).expect("import");
    let set = &b.test_sets[0];
    let ids: Vec<(&str, Option<&str>)> = set.segments.iter().map(|s| (s.id.as_str(), s.document.as_deref())).collect();
    assert_eq!(ids, [("119", Some("doc-a")), ("120", Some("doc-a"))], "keyed by itemID within the document");
    let a = set.outputs.iter().find(|o| o.system == "sysA").unwrap();
    assert_eq!(a.spans, vec![Some(vec![Span::new(0, 4, Severity::Minor)]), Some(vec![])]);
    let bs = set.outputs.iter().find(|o| o.system == "sysB").unwrap();
    assert_eq!(bs.spans, vec![None, Some(vec![Span::omission(Severity::Major)])]);
    assert!(b.notes.iter().any(|n| n.contains("keyed by documentID and itemID")), "{:?}", b.notes);
    assert!(b.notes.iter().any(|n| n.contains("1 items carry sourceContextLeft")), "{:?}", b.notes);
    assert!(b.notes.iter().any(|n| n.contains("pre-filled")), "{:?}", b.notes);

    // A span beyond its target: refused with batch and item.
    let bad = json.replace(r#""end_i": 4, "severity": "minor""#, r#""end_i": 9, "severity": "minor""#);
    let e = appraise_errors(&bad);
    assert!(e.iter().any(|m| m.starts_with("batches.json: batch 1, item 1: system `sysA`, segment `119`: pre-filled span 1: the span 0–9 lies outside")), "{e:?}");

    // Without any span in the file, the `mqm` lists are not pre-filled spans.
    let plain = json
        .replace(r#"[{"start_i": 0, "end_i": 4, "severity": "minor"}]"#, "[]")
        .replace(r#"{"payload": [{"start_i": "missing", "end_i": "missing", "severity": "major"}]}"#, "[]");
    let p = import_appraise("esa.json", &mut plain.as_bytes(), &opts()).expect("import");
    assert!(p.test_sets[0].outputs.iter().all(|o| o.spans.is_empty()));
}
