//! Agreement between annotators (Cohen's kappa with P(E) estimated from the data, WMT 2012)
//! and Clopper–Pearson intervals for proportions.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Beta, ContinuousCDF};

use super::{Result, StatsError};

/// κ = (P(A) − P(E)) / (1 − P(E)).
pub fn cohen_kappa(p_a: f64, p_e: f64) -> Result<f64> {
    const WHAT: &str = "kappa";
    if !(0.0..=1.0).contains(&p_a) || !(0.0..=1.0).contains(&p_e) {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: format!("P(A) = {p_a} and P(E) = {p_e} must lie in [0, 1]"),
        });
    }
    if p_e == 1.0 {
        return Err(StatsError::ZeroVariance { what: WHAT });
    }
    Ok((p_a - p_e) / (1.0 - p_e))
}

/// Landis and Koch's (1977) reading of κ, as the WMT Findings quote it ("0 − 0.2 is slight,
/// 0.2 − 0.4 is fair, 0.4 − 0.6 is moderate, 0.6 − 0.8 is substantial, and 0.8 − 1.0 is almost
/// perfect"), with Landis and Koch's own "poor" below 0. A boundary value belongs to the band
/// above it (0.2 is fair), except 1.0, which is almost perfect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LandisKoch {
    Poor,
    Slight,
    Fair,
    Moderate,
    Substantial,
    AlmostPerfect,
}

impl LandisKoch {
    /// The band of `kappa` (`None` for a value that is not a number).
    pub fn of(kappa: f64) -> Option<LandisKoch> {
        if kappa.is_nan() {
            return None;
        }
        Some(match kappa {
            k if k < 0.0 => LandisKoch::Poor,
            k if k < 0.2 => LandisKoch::Slight,
            k if k < 0.4 => LandisKoch::Fair,
            k if k < 0.6 => LandisKoch::Moderate,
            k if k < 0.8 => LandisKoch::Substantial,
            _ => LandisKoch::AlmostPerfect,
        })
    }

    /// The words of the reading: `slight`, `fair`, `moderate`, `substantial`, `almost perfect`
    /// (`poor` below 0).
    pub fn as_str(self) -> &'static str {
        match self {
            LandisKoch::Poor => "poor",
            LandisKoch::Slight => "slight",
            LandisKoch::Fair => "fair",
            LandisKoch::Moderate => "moderate",
            LandisKoch::Substantial => "substantial",
            LandisKoch::AlmostPerfect => "almost perfect",
        }
    }
}

/// One categorical judgment: who judged which item, and the category chosen (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelledJudgment {
    pub annotator: u32,
    pub item: u32,
    pub category: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgreementPairs {
    /// Pairs of judgments of the same item compared.
    pub pairs: u64,
    pub agreeing: u64,
    /// P(A) = agreeing / pairs (`None` without pairs).
    pub p_a: Option<f64>,
    pub kappa: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Share of each category among all judgments.
    pub category_shares: Vec<f64>,
    /// P(E) = Σ p_c², the chance that two judgments drawn at random agree (WMT 2012: "computed
    /// empirically"); the same P(E) serves the inter- and the intra-annotator figure.
    pub p_e: f64,
    /// Pairs of judgments of the same item by different annotators.
    pub inter: AgreementPairs,
    /// Pairs of judgments of the same item by the same annotator (repeats).
    pub intra: AgreementPairs,
}

/// Inter- and intra-annotator agreement of categorical judgments. Every unordered pair of
/// judgments of the same item counts once: by two annotators towards `inter`, by one annotator
/// (a repeat) towards `intra`. Categories must be below `categories`.
pub fn agreement(judgments: &[LabelledJudgment], categories: u32) -> Result<Agreement> {
    const WHAT: &str = "agreement";
    if judgments.is_empty() {
        return Err(StatsError::Empty { what: WHAT });
    }
    if let Some(j) = judgments.iter().find(|j| j.category >= categories) {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: format!("category {} is not below {categories}", j.category),
        });
    }
    let mut counts = vec![0u64; categories as usize];
    for j in judgments {
        counts[j.category as usize] += 1;
    }
    let total = judgments.len() as f64;
    let category_shares: Vec<f64> = counts.iter().map(|c| *c as f64 / total).collect();
    let p_e: f64 = category_shares.iter().map(|p| p * p).sum();

    let mut sorted = judgments.to_vec();
    sorted.sort_unstable_by_key(|j| (j.item, j.annotator));
    let (mut inter, mut intra) = ((0u64, 0u64), (0u64, 0u64));
    // Pairs are counted, not listed: an item judged m times has m(m − 1)/2 pairs, of which
    // those of one annotator are intra and the rest inter; agreeing pairs likewise from the
    // counts per category (O(m) per item, where listing pairs is O(m²)).
    let choose2 = |k: u64| k * k.saturating_sub(1) / 2;
    let mut per_category = vec![0u64; categories as usize];
    let mut own = vec![0u64; categories as usize];
    for group in sorted.chunk_by(|a, b| a.item == b.item) {
        per_category.iter_mut().for_each(|c| *c = 0);
        let (mut same_pairs, mut same_agreeing) = (0u64, 0u64);
        for run in group.chunk_by(|a, b| a.annotator == b.annotator) {
            own.iter_mut().for_each(|c| *c = 0);
            for j in run {
                own[j.category as usize] += 1;
                per_category[j.category as usize] += 1;
            }
            same_pairs += choose2(run.len() as u64);
            same_agreeing += own.iter().map(|&c| choose2(c)).sum::<u64>();
        }
        let all_pairs = choose2(group.len() as u64);
        let all_agreeing: u64 = per_category.iter().map(|&c| choose2(c)).sum();
        intra.0 += same_pairs;
        intra.1 += same_agreeing;
        inter.0 += all_pairs - same_pairs;
        inter.1 += all_agreeing - same_agreeing;
    }
    let finish = |(pairs, agreeing): (u64, u64)| -> Result<AgreementPairs> {
        let p_a = (pairs > 0).then(|| agreeing as f64 / pairs as f64);
        let kappa = match p_a {
            Some(p) if p_e < 1.0 => Some(cohen_kappa(p, p_e)?),
            _ => None,
        };
        Ok(AgreementPairs {
            pairs,
            agreeing,
            p_a,
            kappa,
        })
    };
    Ok(Agreement {
        category_shares,
        p_e,
        inter: finish(inter)?,
        intra: finish(intra)?,
    })
}

/// Maps continuous scores to `k` ordered categories by percentiles of the whole set (LAW 2013:
/// "bottom 20th percentile corresponds to strongly disagree, scores between the 20th and 40th
/// percentile to disagree, and so on"): thresholds at the i/k quantiles (type 7), a score
/// belongs to category #{thresholds below it}, so a score equal to a threshold goes down.
pub fn categories_by_percentile(scores: &[f64], k: u32) -> Result<Vec<u32>> {
    const WHAT: &str = "percentile categories";
    super::check_finite(WHAT, scores)?;
    if k == 0 {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: "needs at least one category".into(),
        });
    }
    let mut sorted = scores.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let thresholds = (1..k)
        .map(|i| super::describe::quantile_sorted(&sorted, f64::from(i) / f64::from(k)))
        .collect::<Result<Vec<f64>>>()?;
    Ok(scores
        .iter()
        .map(|x| thresholds.iter().filter(|t| x > t).count() as u32)
        .collect())
}

/// Exact (Clopper–Pearson) confidence interval for a binomial proportion k / n.
pub fn clopper_pearson(k: u64, n: u64, confidence: f64) -> Result<(f64, f64)> {
    const WHAT: &str = "Clopper–Pearson interval";
    if n == 0 {
        return Err(StatsError::Empty { what: WHAT });
    }
    if k > n || !(confidence > 0.0 && confidence < 1.0) {
        return Err(StatsError::Invalid {
            what: WHAT,
            message: format!("needs k ≤ n and 0 < confidence < 1 (k = {k}, n = {n})"),
        });
    }
    let alpha = 1.0 - confidence;
    let (k, n) = (k as f64, n as f64);
    let lower = if k == 0.0 {
        0.0
    } else {
        Beta::new(k, n - k + 1.0).unwrap().inverse_cdf(alpha / 2.0)
    };
    let upper = if k == n {
        1.0
    } else {
        Beta::new(k + 1.0, n - k)
            .unwrap()
            .inverse_cdf(1.0 - alpha / 2.0)
    };
    Ok((lower, upper))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WMT 2012 Table 3: κ recomputed from the printed P(A) and P(E) agrees within 0.001
    /// (the printed values look truncated).
    #[test]
    fn wmt12_table3_kappas() {
        let rows = [
            (0.567, 0.405, 0.272, 0.660, 0.428),
            (0.576, 0.383, 0.312, 0.566, 0.296),
            (0.595, 0.401, 0.323, 0.733, 0.554),
            (0.598, 0.394, 0.336, 0.732, 0.557),
            (0.540, 0.408, 0.222, 0.792, 0.648),
            (0.504, 0.398, 0.176, 0.566, 0.279),
            (0.568, 0.406, 0.272, 0.719, 0.526),
            (0.519, 0.388, 0.214, 0.634, 0.401),
            (0.568, 0.396, 0.284, 0.671, 0.455),
            (0.601, 0.362, 0.375, 0.722, 0.564),
        ];
        for (inter_pa, pe, inter_k, intra_pa, intra_k) in rows {
            assert!((cohen_kappa(inter_pa, pe).unwrap() - inter_k).abs() <= 0.0011);
            assert!((cohen_kappa(intra_pa, pe).unwrap() - intra_k).abs() <= 0.0011);
        }
        // The pre-2012 uniform prior over three outcomes.
        assert!((3.0 * (1.0f64 / 3.0).powi(2) - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn landis_koch_bands() {
        use LandisKoch::*;
        let cases = [(-0.1, Poor), (0.0, Slight), (0.176, Slight), (0.2, Fair), (0.284, Fair), (0.4, Moderate), (0.455, Moderate), (0.6, Substantial), (0.648, Substantial), (0.8, AlmostPerfect), (1.0, AlmostPerfect)];
        for (k, band) in cases {
            assert_eq!(LandisKoch::of(k), Some(band), "{k}");
        }
        assert_eq!(LandisKoch::of(f64::NAN), None);
        assert_eq!(AlmostPerfect.as_str(), "almost perfect");
        // WMT 2012's words for its Table 3: inter-annotator "fair" (0.284), intra "moderate" (0.455).
        assert_eq!(LandisKoch::of(cohen_kappa(0.568, 0.396).unwrap()).unwrap().as_str(), "fair");
        assert_eq!(LandisKoch::of(cohen_kappa(0.671, 0.396).unwrap()).unwrap().as_str(), "moderate");
    }

    #[test]
    fn inter_and_intra_pairs() {
        let j = |annotator, item, category| LabelledJudgment {
            annotator,
            item,
            category,
        };
        // item 0: annotator 0 twice (agree), annotator 1 once (disagrees with both)
        // item 1: annotators 0 and 1 agree
        let data = [j(0, 0, 1), j(0, 0, 1), j(1, 0, 2), j(0, 1, 0), j(1, 1, 0)];
        let a = agreement(&data, 3).unwrap();
        assert_eq!((a.intra.pairs, a.intra.agreeing), (1, 1));
        assert_eq!((a.inter.pairs, a.inter.agreeing), (3, 1));
        let pe = (2.0f64 / 5.0).powi(2) + (2.0f64 / 5.0).powi(2) + (1.0f64 / 5.0).powi(2);
        assert!((a.p_e - pe).abs() < 1e-15);
        assert!((a.inter.kappa.unwrap() - (1.0 / 3.0 - pe) / (1.0 - pe)).abs() < 1e-15);
        assert!(agreement(&[], 3).is_err());
        assert!(agreement(&[j(0, 0, 3)], 3).is_err());
    }

    /// WMT 2014 Tables 1–2: the bracketed accuracy intervals are Clopper–Pearson 95 %.
    #[test]
    fn wmt14_accuracy_intervals() {
        for (k, n, lo, hi) in [
            (53, 66, 68.7, 89.1),
            (54, 66, 70.4, 90.2),
            (52, 66, 67.0, 87.9),
            (51, 66, 65.3, 86.7),
            (48, 66, 60.4, 83.0),
            (50, 66, 63.6, 85.5),
            (34, 55, 47.7, 74.6),
            (32, 55, 44.1, 71.3),
            (31, 55, 42.3, 69.7),
            (33, 55, 45.9, 73.0),
            (30, 55, 40.6, 68.0),
        ] {
            let (l, h) = clopper_pearson(k, n, 0.95).unwrap();
            assert!(
                ((l * 1000.0).round() / 10.0 - lo).abs() < 1e-9,
                "{k}/{n}: {l}"
            );
            assert!(
                ((h * 1000.0).round() / 10.0 - hi).abs() < 1e-9,
                "{k}/{n}: {h}"
            );
        }
        assert_eq!(clopper_pearson(0, 10, 0.95).unwrap().0, 0.0);
        assert_eq!(clopper_pearson(10, 10, 0.95).unwrap().1, 1.0);
        assert!(clopper_pearson(0, 0, 0.95).is_err());
    }

    #[test]
    fn percentile_categories() {
        let scores: Vec<f64> = (1..=10).map(f64::from).collect();
        // Quintile thresholds (type 7): 2.8, 4.6, 6.4, 8.2.
        assert_eq!(
            categories_by_percentile(&scores, 5).unwrap(),
            vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
        );
        assert_eq!(
            categories_by_percentile(&[5.0, 5.0, 5.0], 2).unwrap(),
            vec![0, 0, 0]
        );
        assert!(categories_by_percentile(&[], 2).is_err());
    }
}
