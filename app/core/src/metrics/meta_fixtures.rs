//! The meta-evaluation statistics against `tests/fixtures/metrics/meta.json` (written by
//! `tests/fixtures/metrics/meta.py`): correlations and p-values against SciPy (values to 1e-9
//! relative, p-values to 1e-8 relative, as assay-stats' SciPy tests), pairwise accuracy, DArr
//! Kendall and acc_eq against brute force, and the seeded permutation p-values of SPA replayed
//! in Python with the same generator (exactly).

use serde_json::Value;

use super::meta::*;

fn load() -> Value {
    serde_json::from_str(include_str!("../../../../tests/fixtures/metrics/meta.json")).expect("valid JSON")
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

fn grid(v: &Value) -> Vec<Vec<Option<f64>>> {
    v.as_array().unwrap().iter().map(|r| r.as_array().unwrap().iter().map(Value::as_f64).collect()).collect()
}

fn close(a: f64, b: f64, rel: f64, abs: f64) -> bool {
    (a - b).abs() <= abs + rel * b.abs()
}

#[test]
fn correlations_match_scipy() {
    let data = load();
    let mut checked = 0;
    for c in data["correlations"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let (x, y) = (floats(&c["x"]), floats(&c["y"]));
        let ours = [
            ("pearson", correlation_test(Correlation::Pearson, &x, &y)),
            ("spearman", correlation_test(Correlation::Spearman, &x, &y)),
            ("kendall_b", correlation_test(Correlation::KendallB, &x, &y)),
            ("kendall_c", kendall_tau_c_test(&x, &y)),
        ];
        for (key, got) in ours {
            let want = &c[key];
            if want.is_null() {
                assert!(got.is_err(), "{name} {key}: SciPy says NaN, we said {got:?}");
                continue;
            }
            let got = got.unwrap_or_else(|e| panic!("{name} {key}: {e}"));
            let v = want["value"].as_f64().unwrap();
            assert!(close(got.value, v, 1e-9, 1e-12), "{name} {key}: {} vs SciPy {v}", got.value);
            match want["p"].as_f64() {
                Some(p) => assert!(close(got.p_value, p, 1e-8, 1e-15), "{name} {key} p: {} vs SciPy {p}", got.p_value),
                // SciPy's spearmanr gives no p-value for n = 2; Assay's is 1 (as for Pearson).
                None => assert_eq!((x.len(), got.p_value), (2, 1.0), "{name} {key}"),
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked}");
}

#[test]
fn pairwise_darr_and_acc_eq_match_brute_force() {
    let data = load();
    for c in data["pairwise"].as_array().unwrap() {
        let got = pairwise_accuracy(&floats(&c["human"]), &floats(&c["metric"])).unwrap();
        assert_eq!((got.agree as u64, got.pairs as u64), (c["agree"].as_u64().unwrap(), c["pairs"].as_u64().unwrap()));
    }
    assert!(pairwise_accuracy(&[1.0], &[2.0]).is_err());
    for c in data["segments"].as_array().unwrap() {
        let (h, m) = (grid(&c["human"]), grid(&c["metric"]));
        // The fixture's brute force counts pairs over the threshold: the earlier reading, by name.
        let d = darr_kendall(&h, &m, 25.0, DarrRule::Over).unwrap();
        assert_eq!(d.concordant as u64, c["darr"]["concordant"].as_u64().unwrap());
        assert_eq!(d.discordant as u64, c["darr"]["discordant"].as_u64().unwrap());
        let a = acc_eq(&h, &m).unwrap();
        assert_eq!(a.pairs as u64, c["acc_eq"]["pairs"].as_u64().unwrap());
        assert_eq!(a.epsilon, c["acc_eq"]["epsilon"].as_f64().unwrap());
        assert!((a.accuracy - c["acc_eq"]["accuracy"].as_f64().unwrap()).abs() < 1e-12);
    }
}

#[test]
fn spa_permutations_replayed_in_python() {
    let data = load();
    let c = &data["spa"];
    let rows = |v: &Value| -> Vec<Vec<f64>> { v.as_array().unwrap().iter().map(floats).collect() };
    let (h, m) = (rows(&c["human"]), rows(&c["metric"]));
    let (samples, seed) = (c["samples"].as_u64().unwrap() as usize, c["seed"].as_u64().unwrap());
    let all = |_: usize, _: usize, _: usize| true;
    let ph = permutation_p_values(&h, &all, samples, seed).unwrap();
    let pm = permutation_p_values(&m, &all, samples, seed).unwrap();
    for (key, want) in c["p_human"].as_object().unwrap() {
        let (i, j) = key.split_once(',').map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap())).unwrap();
        // c / B equal (serde_json may read the last bit of a float differently from Python).
        assert!((ph[i][j].unwrap() - want.as_f64().unwrap()).abs() < 1e-12, "human {key}");
        assert!((pm[i][j].unwrap() - c["p_metric"][key].as_f64().unwrap()).abs() < 1e-12, "metric {key}");
    }
    let spa = soft_pairwise_accuracy(&ph, &pm).unwrap();
    assert!((spa - c["spa"].as_f64().unwrap()).abs() < 1e-12);
}

#[test]
fn perm_both_replayed_in_python() {
    let data = load();
    let cases = data["perm_both"].as_array().unwrap();
    let mut significant = 0;
    for c in cases {
        let (a, b) = (grid(&c["a"]), grid(&c["b"]));
        let human = floats(&c["human"]);
        let r = perm_both(&a, &b, &human, c["samples"].as_u64().unwrap() as usize, c["seed"].as_u64().unwrap()).unwrap();
        assert!((r.delta - c["delta"].as_f64().unwrap()).abs() < 1e-12, "{} vs {}", r.delta, c["delta"]);
        assert!((r.p_value - c["p"].as_f64().unwrap()).abs() < 1e-12, "{} vs {}", r.p_value, c["p"]);
        significant += (r.p_value < 0.05) as usize;
    }
    assert_eq!((cases.len(), significant), (3, 1));
}

/// The defaults against mt-metrics-eval's own code (`tests/fixtures/metrics/mtme_conventions.py`):
/// the DArr Kendall-like τ counting |Δhuman| ≥ 25 and acc23 averaged per segment, with human
/// differences of exactly 25, ties and a segment without a pair. The earlier readings, by name,
/// give other numbers on the cases built for it (so the test can tell them apart).
#[test]
fn conventions_match_mt_metrics_eval() {
    let data: Value = serde_json::from_str(include_str!("../../../../tests/fixtures/metrics/mtme_conventions.json")).expect("valid JSON");
    let settings = MetaSettings::default();
    assert_eq!((settings.darr_rule, settings.acc_eq_averaging), (DarrRule::AtLeast, AccEqAveraging::PerSegment));
    let (mut differ_darr, mut differ_acc) = (0, 0);
    for c in data["cases"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let (h, m) = (grid(&c["human"]), grid(&c["metric"]));
        match c["darr"].as_object() {
            Some(want) => {
                let d = darr_kendall(&h, &m, settings.darr_threshold, settings.darr_rule).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!((d.concordant as u64, d.discordant as u64), (want["concordant"].as_u64().unwrap(), want["discordant"].as_u64().unwrap()), "{name}");
                assert!((d.tau - want["tau"].as_f64().unwrap()).abs() < 1e-12, "{name}: {} vs {}", d.tau, want["tau"]);
                let over = darr_kendall(&h, &m, 25.0, DarrRule::Over).map(|o| (o.concordant, o.discordant)).ok();
                differ_darr += (over != Some((d.concordant, d.discordant))) as usize;
            }
            None => assert!(darr_kendall(&h, &m, 25.0, settings.darr_rule).is_err(), "{name}"),
        }
        let want = &c["acc23"];
        let a = settings.acc_eq_averaging.compute(&h, &m).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(a.pairs as u64, want["pairs"].as_u64().unwrap(), "{name}");
        // (serde_json may read the last bit of a float differently from Python.)
        assert!((a.epsilon - want["epsilon"].as_f64().unwrap()).abs() < 1e-12, "{name}: ε {} vs {}", a.epsilon, want["epsilon"]);
        assert!((a.accuracy - want["accuracy"].as_f64().unwrap()).abs() < 1e-12, "{name}: {} vs {}", a.accuracy, want["accuracy"]);
        let pooled = AccEqAveraging::Pooled.compute(&h, &m).unwrap();
        differ_acc += ((pooled.accuracy - a.accuracy).abs() > 1e-12) as usize;
    }
    assert!(differ_darr >= 3, "the cases must tell ≥ 25 from > 25: {differ_darr}");
    assert!(differ_acc >= 2, "the cases must tell per-segment from pooled: {differ_acc}");
    assert_eq!(DarrRule::parse("over"), Some(DarrRule::Over));
    assert_eq!(AccEqAveraging::parse("pooled"), Some(AccEqAveraging::Pooled));
    assert_eq!(AccEqAveraging::parse("per-segment"), Some(AccEqAveraging::PerSegment));
    assert_eq!(DarrRule::parse("more"), None);
}
