//! The field's libraries where Assay once wrote its own (issue 36 item 6), measured against what
//! they replace or sit beside:
//! - writing the rows of a judgment file (`judgments.csv`'s 27 fields): Assay's hand-written
//!   row (`csv_text`, `write_display_f64`, as `export::rows::write_row`) against the `csv`
//!   crate's `Writer` given the same fields (the same bytes come out: checked);
//! - reading them back with `read_assay_csv` (the `csv` crate's reader);
//! - hashing: rustc-hash's `FxHashMap` (`analysis::FxMap`) against Assay's former own Fx hasher
//!   (kept here, as it was) on the analysis' keys: integer ids, packed short names (`u128`) and
//!   names interned as strings.
//!
//! Run by hand: `cargo bench -p assay-core --bench libraries`. Environment:
//! `ASSAY_BENCH_ROWS` (default 1,000,000), `ASSAY_BENCH_RUNS` (default 3; the best run counts).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::time::Instant;

use assay_core::analysis::formats::{csv_text, read_assay_csv, spreadsheet_guard, write_display_f64, write_json_f64};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The best of `runs` timings of `f`, in seconds, with its last result.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("one run"))
}

/// One judgment's values, as the export has them.
struct Row {
    id: i64,
    hit: i64,
    worker: String,
    system: String,
    segment: String,
    score: f64,
    ms: i64,
    verdict: &'static str,
    p: f64,
    z: f64,
}

fn rows(n: usize) -> Vec<Row> {
    let systems: Vec<String> = (0..20).map(|k| if k == 7 { "Sys \"seven\", v2".to_string() } else { format!("system-{k:02}") }).collect();
    (0..n)
        .map(|i| Row {
            id: i as i64 + 1,
            hit: (i / 100) as i64,
            // One worker id in a hundred holds a comma, one in a thousand a line break; one in
            // five hundred starts like a formula.
            worker: match i % 1000 {
                0 => format!("link:w{}\nx", i / 100),
                k if k % 500 == 1 => format!("link:=w{}", i / 100),
                k if k % 100 == 2 => format!("link:w{},x", i / 100),
                _ => format!("prolific:{:024x}", (i / 100) * 7919),
            },
            system: systems[i % 20].clone(),
            segment: format!("{}", i % 1500),
            score: (i % 101) as f64 + if i % 3 == 0 { 0.5 } else { 0.0 },
            ms: (i % 9000) as i64,
            verdict: if i % 7 == 0 { "fail" } else { "pass" },
            p: 1.0 / ((i % 97) as f64 + 3.0),
            z: ((i % 101) as f64 - 50.0) / 17.3,
        })
        .collect()
}

/// The row as `export::rows::write_row` writes it: field by field into one `String`.
fn hand_written(rows: &[Row]) -> String {
    let mut out = String::with_capacity(rows.len() * 200);
    let mut digits = itoa::Buffer::new();
    for r in rows {
        let text = |out: &mut String, s: &str| out.push_str(&csv_text(s));
        let mut int = |out: &mut String, v: i64| out.push_str(digits.format(v));
        int(&mut out, r.id);
        out.push(',');
        int(&mut out, 4);
        out.push(',');
        text(&mut out, "da-adequacy");
        out.push(',');
        text(&mut out, "en");
        out.push(',');
        text(&mut out, "de");
        out.push(',');
        int(&mut out, r.hit);
        out.push(',');
        int(&mut out, r.hit * 3);
        out.push(',');
        int(&mut out, 1);
        out.push(',');
        text(&mut out, &r.worker);
        out.push(',');
        text(&mut out, "prolific");
        out.push(',');
        int(&mut out, r.id % 100);
        out.push_str(",SYSTEM,");
        text(&mut out, &r.system);
        out.push(',');
        text(&mut out, &r.segment);
        out.push(',');
        text(&mut out, "doc-1");
        out.push(',');
        write_display_f64(&mut out, r.score);
        out.push_str(",,0,");
        int(&mut out, 1_700_000_000_000 + r.id);
        out.push(',');
        int(&mut out, r.ms);
        out.push(',');
        write_display_f64(&mut out, r.ms as f64 / 1000.0);
        out.push(',');
        text(&mut out, r.verdict);
        out.push(',');
        write_json_f64(&mut out, r.p);
        out.push_str(",false,");
        text(&mut out, "");
        out.push(',');
        write_display_f64(&mut out, r.z);
        out.push_str(",\n");
    }
    out
}

/// The same fields through the `csv` crate's `Writer` (it quotes; the spreadsheet guard and the
/// numbers' text are Assay's).
fn with_csv_crate(rows: &[Row]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::with_capacity(rows.len() * 200));
    let mut digits = itoa::Buffer::new();
    let mut number = String::with_capacity(32);
    for r in rows {
        w.write_field(digits.format(r.id)).unwrap();
        w.write_field("4").unwrap();
        for s in ["da-adequacy", "en", "de"] {
            w.write_field(spreadsheet_guard(s).as_bytes()).unwrap();
        }
        w.write_field(digits.format(r.hit)).unwrap();
        w.write_field(digits.format(r.hit * 3)).unwrap();
        w.write_field("1").unwrap();
        w.write_field(spreadsheet_guard(&r.worker).as_bytes()).unwrap();
        w.write_field(spreadsheet_guard("prolific").as_bytes()).unwrap();
        w.write_field(digits.format(r.id % 100)).unwrap();
        w.write_field("SYSTEM").unwrap();
        w.write_field(spreadsheet_guard(&r.system).as_bytes()).unwrap();
        w.write_field(spreadsheet_guard(&r.segment).as_bytes()).unwrap();
        w.write_field(spreadsheet_guard("doc-1").as_bytes()).unwrap();
        number.clear();
        write_display_f64(&mut number, r.score);
        w.write_field(&number).unwrap();
        w.write_field("").unwrap();
        w.write_field("0").unwrap();
        w.write_field(digits.format(1_700_000_000_000 + r.id)).unwrap();
        w.write_field(digits.format(r.ms)).unwrap();
        number.clear();
        write_display_f64(&mut number, r.ms as f64 / 1000.0);
        w.write_field(&number).unwrap();
        w.write_field(spreadsheet_guard(r.verdict).as_bytes()).unwrap();
        number.clear();
        write_json_f64(&mut number, r.p);
        w.write_field(&number).unwrap();
        w.write_field("false").unwrap();
        w.write_field("").unwrap();
        number.clear();
        write_display_f64(&mut number, r.z);
        w.write_field(&number).unwrap();
        w.write_field("").unwrap();
        w.write_record(None::<&[u8]>).unwrap();
    }
    w.into_inner().unwrap()
}

/// Assay's own Fx hasher as it was (multiply–rotate, a final avalanche).
#[derive(Default, Clone, Copy)]
struct OwnFxHasher(u64);

impl Hasher for OwnFxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^ (z >> 33)
    }
}

type OwnMap<K, V> = HashMap<K, V, BuildHasherDefault<OwnFxHasher>>;

/// Finds or adds each key (as the interners do), then looks every key up again: the sum of ids.
fn intern<K: Hash + Eq + Clone, M: Default>(keys: &[K], map: &mut M, entry: impl Fn(&mut M, K) -> u32, get: impl Fn(&M, &K) -> u32) -> u64 {
    let mut sum = 0u64;
    for k in keys {
        sum += u64::from(entry(map, k.clone()));
    }
    for k in keys {
        sum += u64::from(get(map, k));
    }
    sum
}

fn hash_case<K: Hash + Eq + Clone>(name: &str, keys: &[K], runs: usize) {
    let (own, a) = best(runs, || {
        let mut m: OwnMap<K, u32> = OwnMap::default();
        intern(keys, &mut m, |m, k| { let n = m.len() as u32; *m.entry(k).or_insert(n) }, |m, k| m[k])
    });
    let (lib, b) = best(runs, || {
        let mut m: rustc_hash::FxHashMap<K, u32> = rustc_hash::FxHashMap::default();
        intern(keys, &mut m, |m, k| { let n = m.len() as u32; *m.entry(k).or_insert(n) }, |m, k| m[k])
    });
    assert_eq!(a, b, "{name}: the same ids");
    let per = |s: f64| s * 1e9 / (2 * keys.len()) as f64;
    println!("  {name:<40} own Fx {:>6.1} ns/op   rustc-hash {:>6.1} ns/op   ({:+.0}%)", per(own), per(lib), (lib / own - 1.0) * 100.0);
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        println!("libraries benchmark: skipped (run it with `cargo bench -p assay-core --bench libraries`)");
        return;
    }
    let n = env_usize("ASSAY_BENCH_ROWS", 1_000_000);
    let runs = env_usize("ASSAY_BENCH_RUNS", 3).max(1);
    let rows = rows(n);
    println!("{n} judgment rows (27 fields), best of {runs}:");
    let (hand, hand_text) = best(runs, || hand_written(&rows));
    let (lib, lib_bytes) = best(runs, || with_csv_crate(&rows));
    assert!(hand_text.as_bytes() == lib_bytes.as_slice(), "the csv crate writes other bytes");
    println!("  write, hand-written row ({} MB)       {:>6.3} s   {:>5.2} M rows/s", hand_text.len() / 1_000_000, hand, n as f64 / hand / 1e6);
    println!("  write, csv::Writer (same bytes)          {:>6.3} s   {:>5.2} M rows/s   ({:+.0}%)", lib, n as f64 / lib / 1e6, (lib / hand - 1.0) * 100.0);
    let file = format!(
        "judgment_id,campaign_id,task,src_lang,trg_lang,hit,assignment,slot,worker,platform,position,item_type,system,segment,document,score,score2,skipped,submitted_at_ms,time_on_screen_ms,seconds,worker_verdict,worker_p_value,worker_excluded,worker_decision,z,z2\n{hand_text}"
    );
    let (read, set) = best(runs, || read_assay_csv(file.as_bytes()).expect("the file reads back"));
    assert_eq!(set.records.len(), n);
    println!("  read, read_assay_csv (csv crate)         {:>6.3} s   {:>5.2} M rows/s", read, n as f64 / read / 1e6);

    println!("hashing: find-or-add then look up every key, best of {runs}:");
    let ids: Vec<u64> = (0..n as u64).map(|i| (i * 2_654_435_761) % (n as u64 / 4 + 1)).collect();
    hash_case("u64 ids (a quarter distinct)", &ids, runs);
    let aligned: Vec<u64> = (0..n as u64).map(|i| (i % 50_000) << 20).collect();
    hash_case("u64 ids, low 20 bits zero", &aligned, runs);
    let packed: Vec<u128> = rows.iter().map(|r| {
        let b = r.segment.as_bytes();
        let mut key = [0u8; 16];
        key[..b.len()].copy_from_slice(b);
        key[15] = b.len() as u8;
        u128::from_le_bytes(key)
    }).collect();
    hash_case("u128 packed short names (segments)", &packed, runs);
    let names: Vec<String> = rows.iter().map(|r| r.worker.clone()).collect();
    hash_case("String names (worker ids, 33 bytes)", &names, runs);
}
