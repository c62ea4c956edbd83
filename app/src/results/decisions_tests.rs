use super::*;

#[test]
fn amounts_are_checked_and_kept_in_hundredths() {
    assert_eq!(parse_amount("2").ok(), Some(200));
    assert_eq!(parse_amount(" 2.5 ").ok(), Some(250));
    assert_eq!(parse_amount("0.05").ok(), Some(5));
    assert_eq!(parse_amount(".5").ok(), Some(50));
    assert_eq!(parse_amount("1000").ok(), Some(MAX_BONUS_CENTS));
    for bad in ["", "0", "0.00", "-1", "1.005", "abc", "1,5", "1e3", "1000.01", "99999999999", ".", "NaN"] {
        assert!(parse_amount(bad).is_err(), "{bad:?}");
    }
    assert_eq!(money(150), "1.50");
    assert_eq!(money(5), "0.05");
}

#[test]
fn reasons_are_required_for_rejections_and_bonuses() {
    assert!(check_reason(Action::Reject, "  ").is_err());
    assert!(check_reason(Action::Bonus, "").is_err());
    assert_eq!(check_reason(Action::Approve, "").ok(), Some(String::new()));
    assert_eq!(check_reason(Action::Reject, " random clicking ").ok(), Some("random clicking".into()));
    assert!(check_reason(Action::Reject, "a\u{0}b").is_err());
    assert!(check_reason(Action::Approve, &"x".repeat(MAX_REASON_CHARS + 1)).is_err());
    assert!(Action::parse("delete").is_err());
}

#[test]
fn the_csv_has_the_agreed_columns_and_quotes_what_it_must() {
    let records = vec![
        DecisionRecord {
            worker: "mturk:A1".into(),
            platform: "mturk".into(),
            platform_worker_id: "A1".into(),
            assignment_ids: vec!["X1".into(), "X2".into()],
            decision: "bonus".into(),
            reason: "careful work, \"thanks\"".into(),
            bonus_cents: Some(150),
            currency: "USD".into(),
            decided_by: "org@example.org".into(),
            decided_at: 1_795_376_606_000,
        },
        DecisionRecord {
            worker: "link:=cmd".into(),
            platform: "link".into(),
            platform_worker_id: "=cmd".into(),
            assignment_ids: vec![],
            decision: "reject".into(),
            reason: "line one\nline two".into(),
            bonus_cents: None,
            currency: "USD".into(),
            decided_by: "org@example.org".into(),
            decided_at: 0,
        },
    ];
    let mut out = Vec::new();
    write_decisions_csv(&mut out, &records).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.split('\n');
    assert_eq!(
        lines.next().unwrap(),
        "worker,platform,platform_worker_id,assignment_ids,decision,reason,bonus_amount,currency,decided_by,decided_at"
    );
    assert_eq!(
        lines.next().unwrap(),
        "mturk:A1,mturk,A1,X1;X2,bonus,\"careful work, \"\"thanks\"\"\",1.50,USD,org@example.org,2026-11-22T19:43:26Z"
    );
    assert_eq!(text.lines().count(), 4, "the quoted line break stays inside its field");
    assert!(text.contains(",'=cmd,"), "{text}");
    assert!(text.contains("\"line one\nline two\",,USD,org@example.org,1970-01-01T00:00:00Z"), "{text}");
}

pub(super) fn cached(worker_id: i64, worker: &str, verdict: &str) -> CachedRow {
    let row = WorkerRow {
        worker: worker.into(),
        task: "da-adequacy".into(),
        hits: 1,
        judgments: 100,
        mean_hit_seconds: None,
        test: "t".into(),
        n_pairs: 10,
        p_value: None,
        verdict: verdict.into(),
        consistency_pairs: 0,
        consistency_p: None,
        consistency_verdict: String::new(),
        flags: Vec::new(),
        mean_original: None,
        mean_bad_ref: None,
        mean_ref: None,
        mean_system: None,
        excluded: verdict == "fail",
        scatter_svg: String::new(),
        gate: None,
        decisions: Vec::new(),
        standing: None,
        blocked: false,
        bonus_total: None,
        held_hits: 0,
        sessions: Vec::new(),
        gold: None,
    };
    CachedRow::new(row, Vec::new(), worker_id)
}

#[test]
fn bulk_plans_take_whole_workers_leave_the_decided_alone_and_the_doubtful_out() {
    // Worker 1 passes both word-order questions; 2 passes one and fails the other; 3 fails;
    // 4 passes but arrived with two sessions; 5 passed and is approved already; 6 has too
    // few pairs.
    let rows = vec![
        cached(1, "link:a", "pass"),
        cached(1, "link:a", "pass"),
        cached(2, "link:b", "pass"),
        cached(2, "link:b", "fail"),
        cached(3, "link:c", "fail"),
        cached(4, "mturk:d", "pass"),
        cached(5, "link:e", "pass"),
        cached(6, "link:f", "not enough evidence"),
    ];
    let sessions = HashMap::from([(4, vec!["A1".to_string(), "A2".to_string()])]);
    let mut standing = HashMap::from([(5, "approve".to_string())]);
    let approve = bulk_plan(&rows, &sessions, &standing, BulkAction::ApprovePassed);
    assert_eq!(approve, BulkPlan { todo: vec![(1, "link:a".into())], already: 1, several_sessions: 1 });
    let reject = bulk_plan(&rows, &sessions, &standing, BulkAction::RejectFailed);
    assert_eq!(reject.todo, vec![(2, "link:b".to_string()), (3, "link:c".to_string())]);
    // Once rejected, a second run has nothing to do; an approval overridden by a
    // rejection is to do again.
    standing.insert(2, "reject".into());
    standing.insert(3, "reject".into());
    standing.insert(1, "reject".into());
    assert_eq!(bulk_plan(&rows, &sessions, &standing, BulkAction::RejectFailed).todo, vec![]);
    assert_eq!(bulk_plan(&rows, &sessions, &standing, BulkAction::ApprovePassed).todo, vec![(1, "link:a".to_string())]);
    let counts = bulk_counts(&rows, &sessions, &standing);
    assert_eq!((counts.approve, counts.approved_already, counts.reject, counts.rejected_already, counts.several_sessions), (1, 1, 0, 2, 1));
}

#[test]
fn the_review_table_filters_by_flags_and_counts_them() {
    let mut rows = vec![cached(1, "link:a", "pass"), cached(2, "link:b", "fail"), cached(3, "mturk:c", "pass")];
    rows[1].row.flags = vec!["3 HIT(s) faster than the floor".into()];
    let sessions = HashMap::from([(3, vec!["A1".to_string(), "A2".to_string()])]);
    let q = |flag: Option<crate::results::FlagFilter>| WorkersQuery { flag, ..WorkersQuery::default() };
    let pick = |s: Selection| s.rows.iter().map(|&i| rows[i].worker_id).collect::<Vec<_>>();
    use crate::results::FlagFilter as F;
    assert_eq!(pick(select(&rows, &q(Some(F::Any)), &sessions)), vec![2, 3]);
    assert_eq!(pick(select(&rows, &q(Some(F::None)), &sessions)), vec![1]);
    assert_eq!(pick(select(&rows, &q(Some(F::Fast)), &sessions)), vec![2]);
    assert_eq!(pick(select(&rows, &q(Some(F::Sessions)), &sessions)), vec![3]);
    assert_eq!(pick(select(&rows, &q(Some(F::LowRef)), &sessions)), Vec::<i64>::new());
    let both = WorkersQuery { flag: Some(F::Any), verdict: Some(crate::results::VerdictFilter::Pass), ..WorkersQuery::default() };
    assert_eq!(pick(select(&rows, &both, &sessions)), vec![3]);
    let s = select(&rows, &q(None), &sessions);
    assert_eq!((s.flag_counts.any, s.flag_counts.none, s.flag_counts.fast, s.flag_counts.sessions), (2, 1, 1, 1));
    // Sorting by flags counts the sessions flag too.
    let by_flags = WorkersQuery { sort: WorkerSort::Flags, descending: true, ..WorkersQuery::default() };
    assert_eq!(pick(select(&rows, &by_flags, &sessions))[2], 1);
}

#[test]
fn the_mturk_batch_file_marks_approve_and_reject_as_the_requester_site_reads_them() {
    let rows = vec![
        MturkBatchRow { hit_id: "H1".into(), assignment_id: "A1".into(), worker_id: "W1".into(), approve: true, reject: None },
        MturkBatchRow { hit_id: "H1".into(), assignment_id: "A2".into(), worker_id: "=W2".into(), approve: false, reject: Some("random, \"fast\"\nclicking".into()) },
        MturkBatchRow { hit_id: "H2".into(), assignment_id: "A3".into(), worker_id: "W3".into(), approve: false, reject: None },
        MturkBatchRow { hit_id: "H2".into(), assignment_id: "A4".into(), worker_id: "W4".into(), approve: false, reject: Some("x".repeat(3000)) },
    ];
    let mut out = Vec::new();
    write_mturk_batch_csv(&mut out, &rows).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "HITId,AssignmentId,WorkerId,Approve,Reject");
    assert_eq!(lines[1], "H1,A1,W1,x,");
    assert_eq!(lines[2], "H1,A2,'=W2,,\"random, \"\"fast\"\" clicking\"");
    assert_eq!(lines[3], "H2,A3,W3,,");
    assert_eq!(lines[4].chars().count(), "H2,A4,W4,,".len() + MTURK_FEEDBACK_CHARS);
    assert_eq!(lines.len(), 5);
}

/// A campaign whose stored task this release does not know (a newer release's, or one
/// written by hand) is an error naming the campaign wherever its task is read, never a
/// direct assessment: before, the review's currency, the simulated crowd's free slots and
/// the preview read it as DA adequacy and went on.
#[tokio::test]
async fn an_unknown_task_is_an_error_naming_the_campaign_not_direct_assessment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = crate::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("t.db").display())).await.expect("sqlite");
    for sql in [
        "INSERT INTO test_sets (id, name, source_lang, target_lang, year, created_at) VALUES (1, 'nt2026', 'de', 'en', 2026, 0)",
        "INSERT INTO task_kinds (name) VALUES ('post-editing')",
        "INSERT INTO campaigns (id, public_id, name, task, test_set_id, settings, seed, status, created_at) VALUES (7, 'pub7', 'c', 'post-editing', 1, '{}', 1, 'launched', 0)",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&db.pool).await.expect(sql);
    }
    let named = |e: AppError| match e {
        AppError::Internal(m) => assert!(m.contains("campaign 7") && m.contains("\"post-editing\""), "{m}"),
        other => panic!("not the server's fault naming the campaign: {other:?}"),
    };
    named(campaign_currency(&db, 7).await.expect_err("the review's currency"));
    named(crate::annotate::simulate::free_slots(&db, 7).await.expect_err("the simulated crowd's free slots"));
    named(crate::campaign::preview::preview_html(&db, 7, None).await.expect_err("the preview"));
    named(crate::analysis::db::load_campaign(&db, 7).await.expect_err("the analysis loader"));
}
