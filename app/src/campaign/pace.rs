//! Active time and words per hour for organizers (issue 18, item 4): how long workers were
//! actually at work on a campaign's items (the browser's active time, never more than the
//! server's own time per item) and what that means for pay: words of the translations judged
//! per active hour, and the payment per active hour, as WMT reports for pay fairness.

use serde::{Deserialize, Serialize};

/// A campaign's active time, as the status page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct ActiveTime {
    /// Judgments with an active time (answered by a browser that counts it).
    pub judgments: usize,
    /// Their active time, in hours.
    pub active_hours: f64,
    /// Their time on screen by the server's clock, in hours.
    pub screen_hours: f64,
    /// Words of the translations judged per active hour, over all workers.
    pub words_per_hour: Option<f64>,
    /// The median worker's words per active hour (workers with at least a minute of it).
    pub median_worker_words_per_hour: Option<f64>,
    /// The median worker's payment per active hour (workers with a finished HIT), in `currency`.
    pub median_worker_pay_per_hour: Option<f64>,
    pub currency: String,
}

/// One timed judgment: (worker, words of the text judged, active ms, the server's ms).
pub type Timed = (i64, usize, i64, i64);

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 })
}

/// The summary of timed judgments; `finished` is each worker's number of finished HITs.
pub fn summarise(rows: &[Timed], finished: &std::collections::HashMap<i64, usize>, pay_per_hit: f64, currency: &str) -> ActiveTime {
    const HOUR: f64 = 3_600_000.0;
    // The active time, in ms, a rate needs when no HIT is finished.
    const MIN_ACTIVE: i64 = 60_000;
    let mut per_worker: std::collections::BTreeMap<i64, (usize, i64)> = Default::default();
    let (mut words, mut active, mut screen) = (0usize, 0i64, 0i64);
    for &(worker, w, a, s) in rows {
        let a = a.clamp(0, s.max(0));
        words += w;
        active += a;
        screen += s.max(0);
        let e = per_worker.entry(worker).or_default();
        e.0 += w;
        e.1 += a;
    }
    // A worker with less than a minute of active time gives no rate worth a median, unless
    // they finished a HIT: a whole HIT is a rate (issue 38 item 15: a quick full HIT said "not
    // enough time yet").
    let done = |k: &i64| finished.get(k).is_some_and(|&n| n > 0);
    let rated: Vec<(i64, usize, i64)> =
        per_worker.into_iter().filter(|(k, (_, a))| *a >= MIN_ACTIVE || (*a > 0 && done(k))).map(|(k, (w, a))| (k, w, a)).collect();
    ActiveTime {
        judgments: rows.len(),
        active_hours: active as f64 / HOUR,
        screen_hours: screen as f64 / HOUR,
        words_per_hour: (active >= MIN_ACTIVE || (active > 0 && !rated.is_empty())).then(|| words as f64 / (active as f64 / HOUR)),
        median_worker_words_per_hour: median(rated.iter().map(|&(_, w, a)| w as f64 / (a as f64 / HOUR)).collect()),
        median_worker_pay_per_hour: median(
            rated
                .iter()
                .filter_map(|&(k, _, a)| finished.get(&k).filter(|&&n| n > 0).map(|&n| n as f64 * pay_per_hit / (a as f64 / HOUR)))
                .collect(),
        ),
        currency: currency.to_string(),
    }
}

/// Reads a campaign's timed judgments and summarises them (organizers).
#[cfg(feature = "ssr")]
pub async fn active_time(db: &crate::db::Db, campaign_id: i64) -> crate::error::AppResult<ActiveTime> {
    use crate::error::{AppError, StorageContext};
    use crate::hit::degrade::{Segmentation, tokenize};
    use tokio_stream::StreamExt;
    let what = || format!("reading the active time of campaign {campaign_id}");
    let c = super::launch::load_campaign(db, campaign_id).await?;
    let target: String = sqlx::query_scalar("SELECT target_lang FROM test_sets WHERE id = $1")
        .bind(c.test_set_id)
        .fetch_optional(&db.pool)
        .await
        .with_context(what)?
        .ok_or_else(|| AppError::internal(format!("campaign {campaign_id} has no test set")))?;
    let mut rows = Vec::new();
    let mut words_of: std::collections::HashMap<i64, usize> = Default::default();
    {
        let mut stream = sqlx::query_as::<_, (i64, i64, String, i64, i64)>(
            "SELECT a.worker_id, hi.id, hi.shown_text, j.active_ms, j.submitted_at - j.shown_at \
             FROM judgments j JOIN assignments a ON a.id = j.assignment_id JOIN hits h ON h.id = a.hit_id \
             JOIN hit_items hi ON hi.id = j.hit_item_id \
             WHERE h.campaign_id = $1 AND j.active_ms IS NOT NULL AND j.shown_at IS NOT NULL AND j.skipped = 0",
        )
        .bind(campaign_id)
        .fetch(&db.pool);
        while let Some(row) = stream.next().await {
            let (worker, item, text, active, screen) = row.with_context(what)?;
            let words = *words_of.entry(item).or_insert_with(|| tokenize(&text, Segmentation::choose(&text, Some(&target))).len());
            rows.push((worker, words, active, screen));
        }
    }
    let finished: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT a.worker_id, COUNT(*) FROM assignments a JOIN hits h ON h.id = a.hit_id WHERE h.campaign_id = $1 AND a.status = 'completed' GROUP BY a.worker_id",
    )
    .bind(campaign_id)
    .fetch_all(&db.pool)
    .await
    .with_context(what)?;
    let finished = finished.into_iter().map(|(w, n)| (w, n as usize)).collect();
    Ok(summarise(&rows, &finished, c.settings.payment_per_hit, &c.settings.payment_currency))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn active_time_is_summed_capped_and_rated_per_worker() {
        let min = 60_000;
        // Worker 1: 600 words in 10 active minutes (of 20 on screen); worker 2: 100 words in 2
        // minutes, and an active time above the server's, counted as the server's.
        let rows = [(1, 300, 5 * min, 10 * min), (1, 300, 5 * min, 10 * min), (2, 100, 3 * min, 2 * min)];
        let finished = [(1, 1usize), (2, 0)].into_iter().collect();
        let t = summarise(&rows, &finished, 2.0, "EUR");
        assert_eq!(t.judgments, 3);
        assert!((t.active_hours - 12.0 / 60.0).abs() < 1e-9);
        assert!((t.screen_hours - 22.0 / 60.0).abs() < 1e-9);
        assert!((t.words_per_hour.unwrap() - 700.0 / (12.0 / 60.0)).abs() < 1e-6);
        // Per worker: 3600 and 3000 words per hour; the median is their mean.
        assert!((t.median_worker_words_per_hour.unwrap() - 3300.0).abs() < 1e-6);
        // Only worker 1 finished a HIT: 2 EUR in 10 minutes.
        assert!((t.median_worker_pay_per_hour.unwrap() - 12.0).abs() < 1e-9);
        assert_eq!(summarise(&[], &Default::default(), 1.0, "USD").words_per_hour, None);
    }

    #[test]
    fn a_finished_hit_has_a_rate_however_quick() {
        // One worker, 40 active seconds, 120 words: a full HIT, rated (issue 38 item 15).
        let rows = [(7, 60, 20_000, 30_000), (7, 60, 20_000, 30_000)];
        let finished = [(7, 1usize)].into_iter().collect();
        let t = summarise(&rows, &finished, 1.0, "EUR");
        assert!((t.words_per_hour.unwrap() - 120.0 / (40.0 / 3600.0)).abs() < 1e-6, "{t:?}");
        assert!((t.median_worker_words_per_hour.unwrap() - 10_800.0).abs() < 1e-6, "{t:?}");
        assert!((t.median_worker_pay_per_hour.unwrap() - 90.0).abs() < 1e-9, "{t:?}");
        // The same answers in a HIT not finished: not enough time yet.
        let t = summarise(&rows, &Default::default(), 1.0, "EUR");
        assert_eq!((t.words_per_hour, t.median_worker_words_per_hour), (None, None));
        // A finished HIT of another worker does not rate one who has not finished.
        let t = summarise(&rows, &[(8, 1usize)].into_iter().collect(), 1.0, "EUR");
        assert_eq!(t.words_per_hour, None);
    }
}
