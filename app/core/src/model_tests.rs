use super::*;

#[test]
fn stored_names_round_trip_and_match_serde() {
    for s in [CampaignStatus::Draft, CampaignStatus::Launched, CampaignStatus::Closed] {
        assert_eq!(CampaignStatus::parse(s.as_str()), Some(s));
        assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
    }
    for s in [AssignmentStatus::Active, AssignmentStatus::Completed, AssignmentStatus::Expired, AssignmentStatus::Returned] {
        assert_eq!(AssignmentStatus::parse(s.as_str()), Some(s));
        assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
    }
    assert_eq!(AssignmentStatus::parse("Active"), None);
    for t in TaskKind::ALL {
        assert_eq!(TaskKind::parse(t.as_str()), Some(t));
    }
}

/// Shared view types carry a `TaskKind`: on the wire it is the stored name, as it was when
/// they carried the name as a string.
#[test]
fn a_task_travels_by_its_stored_name_and_an_unknown_one_names_its_campaign() {
    for t in TaskKind::ALL {
        assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{}\"", t.as_str()));
        assert_eq!(serde_json::from_str::<TaskKind>(&format!("\"{}\"", t.as_str())).unwrap(), t);
    }
    assert!(serde_json::from_str::<TaskKind>("\"DaAdequacy\"").is_err());
    assert_eq!(TaskKind::of_campaign(7, "da-fluency"), Ok(TaskKind::DaFluency));
    let e = TaskKind::of_campaign(7, "post-editing").unwrap_err().to_string();
    assert!(e.contains("campaign 7") && e.contains("\"post-editing\""), "{e}");
}
