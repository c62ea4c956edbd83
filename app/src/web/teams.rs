//! Whose work it is: the one team check of server functions and routes (issue 17, finding 12).
//!
//! A test set, a campaign and a study belong to a team (a campaign's HITs, assignments,
//! judgments, decisions, metric uploads and exports follow the campaign). Organizers and
//! researchers reach their teams' work only; admins reach everything; annotators and crowd
//! workers reach work by assignment (their own HIT) and are not asked about teams. An API token
//! acts with its owner's teams.
//!
//! Another team's resource is refused exactly as a missing one is, with the same error (the
//! domain's "there is no campaign with id …", a 404, or the 400 of a function that has always
//! called an unknown id the argument's fault): nobody learns that it exists. Listings keep only
//! what [`Visible`] lets through.

use crate::auth::UserInfo;
use crate::auth::teams::team_ids_of;
use crate::auth::Role;
use crate::db::Db;
use crate::error::{AppError, AppResult, StorageContext};
use std::collections::HashSet;

/// Something a team owns.
#[derive(Clone, Copy, Debug)]
pub enum Owned<'a> {
    TestSet(i64),
    Campaign(i64),
    Study(i64),
    /// An assignment by its public id: it belongs to its campaign's team.
    Assignment(&'a str),
}

impl Owned<'_> {
    /// The refusal of a missing (or another team's) resource.
    fn missing(&self) -> AppError {
        match self {
            Owned::TestSet(id) => AppError::not_found(format!("there is no test set with id {id}")),
            Owned::Campaign(id) => AppError::not_found(format!("there is no campaign with id {id}")),
            Owned::Study(id) => AppError::not_found(format!("there is no study with id {id}")),
            Owned::Assignment(_) => AppError::not_found("There is no HIT at this address."),
        }
    }

    /// The owning team, if the resource exists.
    async fn team(&self, db: &Db) -> AppResult<Option<i64>> {
        let q = match self {
            Owned::TestSet(id) => sqlx::query_scalar("SELECT team_id FROM test_sets WHERE id = $1").bind(*id),
            Owned::Campaign(id) => sqlx::query_scalar("SELECT team_id FROM campaigns WHERE id = $1").bind(*id),
            Owned::Study(id) => sqlx::query_scalar("SELECT team_id FROM studies WHERE id = $1").bind(*id),
            Owned::Assignment(public_id) => sqlx::query_scalar(
                "SELECT c.team_id FROM assignments a JOIN hits h ON h.id = a.hit_id JOIN campaigns c ON c.id = h.campaign_id WHERE a.public_id = $1",
            )
            .bind(public_id.to_string()),
        };
        q.fetch_optional(&db.pool).await.with_context(|| format!("reading the team of {self:?}"))
    }
}

/// Whether `user` may reach `what`: an admin anything that exists; anyone else what belongs to
/// one of their teams. Otherwise the error a missing resource gets (see the module's note).
pub async fn require_in_team(db: &Db, user: &UserInfo, what: Owned<'_>) -> AppResult<()> {
    let Some(team) = what.team(db).await? else { return Err(what.missing()) };
    if user.role >= Role::Admin || team_ids_of(db, user.id).await?.contains(&team) {
        Ok(())
    } else {
        Err(what.missing())
    }
}

/// Whether `user` may reach `what` (see [`require_in_team`]); `true` for a missing resource,
/// whose own refusal then follows (for callers that answer a missing resource in a way of
/// their own, as the designer's list of problems does).
pub async fn reaches(db: &Db, user: &UserInfo, what: Owned<'_>) -> AppResult<bool> {
    match require_in_team(db, user, what).await {
        Ok(()) => Ok(true),
        Err(e) if e.is_server_fault() => Err(e),
        Err(_) => Ok(what.team(db).await?.is_none()),
    }
}

/// The team a new test set, campaign or study of `user` goes to: `wanted` if given (one of
/// the user's teams; an admin may name any team), else the user's first team. Refused when the
/// user is in no team, or names a team that is not theirs.
pub async fn team_for_new(db: &Db, user: &UserInfo, wanted: Option<i64>) -> AppResult<i64> {
    let mine = team_ids_of(db, user.id).await?;
    match wanted {
        Some(t) if user.role >= Role::Admin => {
            let exists: Option<i64> =
                sqlx::query_scalar("SELECT id FROM teams WHERE id = $1").bind(t).fetch_optional(&db.pool).await.context("reading a team")?;
            exists.ok_or_else(|| AppError::invalid("team_id", format!("There is no team with id {t}.")))
        }
        Some(t) if mine.contains(&t) => Ok(t),
        Some(t) => Err(AppError::invalid("team_id", format!("You are not in team {t}."))),
        None => match mine.first() {
            Some(&t) => Ok(t),
            None if user.role >= Role::Admin => Ok(crate::auth::teams::DEFAULT_TEAM),
            None => Err(AppError::invalid("team_id", "You are in no team: ask an administrator to add you to one.")),
        },
    }
}

/// What a listing may show `user`.
#[derive(Clone, Debug)]
pub enum Visible {
    /// An admin: everything.
    All,
    /// The ids of the user's teams' test sets, campaigns and studies.
    Only { test_sets: HashSet<i64>, campaigns: HashSet<i64>, studies: HashSet<i64> },
}

impl Visible {
    pub async fn of(db: &Db, user: &UserInfo) -> AppResult<Visible> {
        if user.role >= Role::Admin {
            return Ok(Visible::All);
        }
        let ids = |table: &'static str| {
            let sql = format!("SELECT id FROM {table} WHERE team_id IN (SELECT team_id FROM team_members WHERE user_id = $1)");
            async move {
                let v: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .bind(user.id)
                    .fetch_all(&db.pool)
                    .await
                    .with_context(|| format!("reading the {table} of an account's teams"))?;
                AppResult::Ok(v.into_iter().collect::<HashSet<i64>>())
            }
        };
        Ok(Visible::Only { test_sets: ids("test_sets").await?, campaigns: ids("campaigns").await?, studies: ids("studies").await? })
    }

    pub fn test_set(&self, id: i64) -> bool {
        match self {
            Visible::All => true,
            Visible::Only { test_sets, .. } => test_sets.contains(&id),
        }
    }

    pub fn campaign(&self, id: i64) -> bool {
        match self {
            Visible::All => true,
            Visible::Only { campaigns, .. } => campaigns.contains(&id),
        }
    }

    pub fn study(&self, id: i64) -> bool {
        match self {
            Visible::All => true,
            Visible::Only { studies, .. } => studies.contains(&id),
        }
    }
}
