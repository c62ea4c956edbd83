//! Teams: who works with whom (issue 17, finding 12). A test set, a campaign and a study belong
//! to one team; an account may be in several. The default team ([`DEFAULT_TEAM`], "Everyone")
//! holds everything an install had before teams, and every new account joins it, so an install
//! that never makes a team works as before. Whether a caller may reach a resource is decided in
//! one place, `web::teams`; this module only stores teams and their members.

use super::{Role, Team, TeamMember};
use crate::db::{Db, now_ms};
use crate::error::{AppError, AppResult, StorageContext};
use sqlx::Row;

/// The team every existing row and account belongs to, and every new account joins.
pub const DEFAULT_TEAM: i64 = 1;

fn check_team_name(name: &str) -> AppResult<String> {
    let name = name.trim();
    assay_core::limits::check_name(name).map_err(|p| AppError::invalid("name", format!("The team's name {p}.")))?;
    Ok(name.to_string())
}

/// The ids of the teams an account is in, smallest first.
pub async fn team_ids_of(db: &Db, user_id: i64) -> AppResult<Vec<i64>> {
    sqlx::query_scalar("SELECT team_id FROM team_members WHERE user_id = $1 ORDER BY team_id")
        .bind(user_id)
        .fetch_all(&db.pool)
        .await
        .context("reading an account's teams")
}

/// Every team (id and name), by id.
pub async fn team_names(db: &Db) -> AppResult<Vec<(i64, String)>> {
    sqlx::query_as("SELECT id, name FROM teams ORDER BY id").fetch_all(&db.pool).await.context("listing the teams")
}

/// Every team with its members (by email), by id.
pub async fn list_teams(db: &Db) -> AppResult<Vec<Team>> {
    let mut teams: Vec<Team> =
        team_names(db).await?.into_iter().map(|(id, name)| Team { id, name, members: Vec::new() }).collect();
    let rows = sqlx::query(
        "SELECT m.team_id, u.id, u.email, u.display_name, u.role FROM team_members m JOIN users u ON u.id = m.user_id ORDER BY m.team_id, u.email",
    )
    .fetch_all(&db.pool)
    .await
    .context("listing the teams' members")?;
    for r in rows {
        let team: i64 = r.try_get(0).context("reading a team member")?;
        let role: String = r.try_get(4).context("reading a team member")?;
        let member = TeamMember {
            user_id: r.try_get(1).context("reading a team member")?,
            email: r.try_get(2).context("reading a team member")?,
            name: r.try_get(3).context("reading a team member")?,
            role: Role::parse(&role).unwrap_or(Role::Annotator),
        };
        if let Some(t) = teams.iter_mut().find(|t| t.id == team) {
            t.members.push(member);
        }
    }
    Ok(teams)
}

fn taken(name: &str) -> impl FnOnce(sqlx::Error) -> AppError + '_ {
    move |e| {
        if e.as_database_error().is_some_and(|d| d.is_unique_violation()) {
            AppError::invalid("name", format!("A team named {name:?} exists already."))
        } else {
            AppError::storage(format!("storing the team {name:?}"), e)
        }
    }
}

/// Makes a team (no members yet); returns its id. Names are unique.
pub async fn create_team(db: &Db, name: &str) -> AppResult<i64> {
    let name = check_team_name(name)?;
    sqlx::query_scalar("INSERT INTO teams (name, created_at) VALUES ($1, $2) RETURNING id")
        .bind(&name)
        .bind(now_ms())
        .fetch_one(&db.writer)
        .await
        .map_err(taken(&name))
}

/// Renames a team.
pub async fn rename_team(db: &Db, team_id: i64, name: &str) -> AppResult<()> {
    let name = check_team_name(name)?;
    let done = sqlx::query("UPDATE teams SET name = $2 WHERE id = $1").bind(team_id).bind(&name).execute(&db.writer).await.map_err(taken(&name))?;
    if done.rows_affected() == 0 {
        return Err(AppError::invalid("team_id", format!("There is no team with id {team_id}.")));
    }
    Ok(())
}

/// Adds an account to a team or takes it out (nothing changes if it already is or is not in it).
pub async fn set_member(db: &Db, team_id: i64, user_id: i64, member: bool) -> AppResult<()> {
    let what = || format!("changing the members of team {team_id}");
    let team: Option<i64> = sqlx::query_scalar("SELECT id FROM teams WHERE id = $1").bind(team_id).fetch_optional(&db.pool).await.with_context(what)?;
    if team.is_none() {
        return Err(AppError::invalid("team_id", format!("There is no team with id {team_id}.")));
    }
    let user: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE id = $1").bind(user_id).fetch_optional(&db.pool).await.with_context(what)?;
    if user.is_none() {
        return Err(AppError::invalid("user_id", format!("There is no account with id {user_id}.")));
    }
    if member {
        let there: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM team_members WHERE team_id = $1 AND user_id = $2")
            .bind(team_id)
            .bind(user_id)
            .fetch_one(&db.writer)
            .await
            .with_context(what)?;
        if there == 0 {
            sqlx::query("INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)").bind(team_id).bind(user_id).execute(&db.writer).await.with_context(what)?;
        }
    } else {
        sqlx::query("DELETE FROM team_members WHERE team_id = $1 AND user_id = $2").bind(team_id).bind(user_id).execute(&db.writer).await.with_context(what)?;
    }
    Ok(())
}

/// Puts a new account in the default team (see the module's note).
pub async fn join_default_team(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO team_members (team_id, user_id) VALUES ($1, $2)").bind(DEFAULT_TEAM).bind(user_id).execute(conn).await.map(drop)
}
