//! Sign-in, invitation and account-administration screens.

use super::api::{
    ClearFailedSignIns, CreateApiToken, CreateTeam, InviteUser, RenameTeam, RevokeApiToken, SetTeamMember, SetUserDisabled, SetUserRole, SignOutEverywhere, invitation,
    list_api_tokens, list_teams, list_users,
};
use crate::auth::{Account, Role, Team, error_text};
use super::Session;
use leptos::either::Either;
use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};

/// The sign-in form. A plain HTML form underneath, so it also works without JavaScript.
#[component]
pub fn LoginPage() -> impl IntoView {
    let session = expect_context::<Session>();
    let login = session.login;
    let query = use_query_map();
    let error = move || {
        match login.value().get() {
            Some(Err(e)) => Some(error_text(&e)),
            Some(Ok(())) => None,
            None => query.read().get("error"),
        }
    };
    view! {
        <section class="card narrow">
            <h1>"Sign in to Assay"</h1>
            <ActionForm action=login attr:class="stack" attr:id="login-form">
                // Where to go once signed in (the gate's sign-in link names the page asked for).
                {move || query.read().get("next").map(|next| view! { <input type="hidden" name="next" value=next/> })}
                <label>
                    "Email"
                    <input type="email" name="email" autocomplete="username" required=true/>
                </label>
                <label>
                    "Password"
                    <input type="password" name="password" autocomplete="current-password" required=true/>
                </label>
                <button type="submit" class="primary" disabled=move || login.pending().get()>
                    {move || if login.pending().get() { "Signing in…" } else { "Sign in" }}
                </button>
            </ActionForm>
            {move || error().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <p class="hint">"No account? Ask an administrator for an invitation link."</p>
        </section>
    }
}

/// Where an invitation link leads: choose a name and password, and the account exists.
#[component]
pub fn InvitePage() -> impl IntoView {
    let params = use_params_map();
    let token = move || params.read().get("token").unwrap_or_default();
    let offer = crate::resource::blocking_resource(token, invitation);
    let accept = expect_context::<Session>().accept_invitation;
    view! {
        <section class="card narrow">
            <h1>"Join Assay"</h1>
            <Suspense fallback=|| view! { <p>"Checking the invitation…"</p> }>
                {move || Suspend::new(async move {
                    match offer.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(inv) => Either::Right(view! {
                            <p>"You are invited as " <strong>{inv.role.label()}</strong> " with the email " <strong>{inv.email}</strong> "."</p>
                            <ActionForm action=accept attr:class="stack">
                                <input type="hidden" name="token" value=token/>
                                <label>"Your name" <input type="text" name="name" autocomplete="name"/></label>
                                <label>
                                    "Choose a password (at least 10 characters)"
                                    <input type="password" name="password" autocomplete="new-password" required=true minlength="10"/>
                                </label>
                                <button type="submit" class="primary">"Create my account"</button>
                            </ActionForm>
                            {move || match accept.value().get() {
                                Some(Err(e)) => Some(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                                _ => None,
                            }}
                        }),
                    }
                })}
            </Suspense>
        </section>
    }
}

/// The administrator's list of accounts: invite people and set roles.
#[component]
pub fn AdminUsersPage() -> impl IntoView {
    let invite = ServerAction::<InviteUser>::new();
    let set_role = ServerAction::<SetUserRole>::new();
    let set_disabled = ServerAction::<SetUserDisabled>::new();
    let sign_out = ServerAction::<SignOutEverywhere>::new();
    let unlock = ServerAction::<ClearFailedSignIns>::new();
    let users = crate::resource::resource(
        move || (invite.version().get(), set_role.version().get(), set_disabled.version().get(), sign_out.version().get(), unlock.version().get()),
        |_| list_users(),
    );
    view! {
        <section class="card">
            <h1>"Accounts"</h1>
            <h2>"Invite someone"</h2>
            <ActionForm action=invite attr:class="row" attr:id="invite-form">
                <label>"Email" <input type="email" name="email" required=true/></label>
                <label>
                    "Role"
                    <select name="role">
                        {Role::ALL.into_iter().map(|r| view! { <option value=r.as_str() selected=r == Role::Annotator>{r.label()}</option> }).collect_view()}
                    </select>
                </label>
                <button type="submit" class="primary">"Create invitation link"</button>
            </ActionForm>
            {move || match invite.value().get() {
                Some(Ok(link)) => Either::Left(view! {
                    <p class="notice" id="invitation-link">
                        "Send this link to " {link.email} " (valid " {link.expires_in_days} " days): "
                        <code>{link.url}</code>
                    </p>
                }),
                Some(Err(e)) => Either::Right(Some(view! { <p class="error" role="alert">{error_text(&e)}</p> })),
                None => Either::Right(None),
            }}
            <h2>"Everyone with an account"</h2>
            {move || {
                [set_role.value().get().map(|r| r.map(drop)), set_disabled.value().get(), sign_out.value().get(), unlock.value().get().map(|r| r.map(drop))]
                    .into_iter()
                    .flatten()
                    .find_map(Result::err)
                    .map(|e| view! { <p class="error" role="alert">{error_text(&e)}</p> })
            }}
            {move || matches!(unlock.value().get(), Some(Ok(_))).then(|| view! {
                <p class="notice" id="sign-ins-cleared">"The account's failed sign-ins are cleared: it may sign in at once from anywhere."</p>
            })}
            {move || matches!(sign_out.value().get(), Some(Ok(()))).then(|| view! {
                <p class="notice" id="signed-out">"Signed out everywhere: every session of the account has ended."</p>
            })}
            <div role="status" aria-live="polite" id="role-status">
                {move || match set_role.value().get() {
                    Some(Ok(done)) => Some(view! { <p class="notice" id="role-set">{done}</p> }),
                    _ => None,
                }}
            </div>
            <Transition fallback=|| view! { <p>"Loading accounts…"</p> }>
                {move || Suspend::new(async move {
                    match users.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) => Either::Right(view! { <UserTable users=list set_role set_disabled sign_out unlock/> }),
                    }
                })}
            </Transition>
        </section>
        <TeamsPanel/>
    }
}

/// Teams (admins): make and rename teams, add and remove members. Organizers and researchers see
/// and act on their teams' test sets, campaigns and studies only; every account is in the team
/// "Everyone" until an admin takes it out.
#[component]
fn TeamsPanel() -> impl IntoView {
    let create = ServerAction::<CreateTeam>::new();
    let rename = ServerAction::<RenameTeam>::new();
    let member = ServerAction::<SetTeamMember>::new();
    let data = crate::resource::resource(
        move || (create.version().get(), rename.version().get(), member.version().get()),
        |_| async move { Ok::<_, ServerFnError>((list_teams().await?, list_users().await?)) },
    );
    view! {
        <section class="card" id="teams" aria-labelledby="teams-title">
            <h2 id="teams-title">"Teams"</h2>
            <p class="hint">
                "Organizers and researchers see and change only their teams' test sets, campaigns and studies; administrators see everything. "
                "A new account joins the team Everyone."
            </p>
            <ActionForm action=create attr:class="row" attr:id="team-form">
                <label>"New team's name" <input type="text" name="name" id="new-team-name" required=true maxlength="200"/></label>
                <button type="submit" class="primary">"Create team"</button>
            </ActionForm>
            <div role="status" aria-live="polite" id="team-status">
                {move || {
                    let err = [create.value().get().map(|r| r.map(drop)), rename.value().get(), member.value().get()]
                        .into_iter()
                        .flatten()
                        .find_map(Result::err);
                    err.map(|e| view! { <p class="error" role="alert">{error_text(&e)}</p> })
                }}
            </div>
            // A transition, as for the accounts and the tokens: after a change the list stays on
            // the screen while it is read again, instead of flashing to "Loading…" (which also
            // took the keyboard focus away from the button just pressed).
            <Transition fallback=|| view! { <p>"Loading teams…"</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok((teams, users)) => Either::Right(
                            teams.into_iter().map(|t| view! { <TeamCard team=t users=users.clone() rename member/> }).collect_view(),
                        ),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn TeamCard(team: Team, users: Vec<Account>, rename: ServerAction<RenameTeam>, member: ServerAction<SetTeamMember>) -> impl IntoView {
    let others: Vec<Account> = users.into_iter().filter(|a| !team.members.iter().any(|m| m.user_id == a.user.id)).collect();
    let title = format!("team-{}-title", team.id);
    let labelled_by = title.clone();
    let name_id = format!("team-{}-name", team.id);
    let name_for = name_id.clone();
    let add_id = format!("team-{}-add", team.id);
    let add_for = add_id.clone();
    let team_id = team.id;
    let team_name = team.name.clone();
    view! {
        <section class="team" data-team=team.id aria-labelledby=labelled_by>
            <h3 id=title>{team.name.clone()}</h3>
            <ActionForm action=rename attr:class="row">
                <input type="hidden" name="team_id" value=team_id/>
                <label for=name_for>"Name"</label>
                <input type="text" name="name" id=name_id value=team.name.clone() required=true maxlength="200"/>
                <button type="submit">"Rename"</button>
            </ActionForm>
            {if team.members.is_empty() {
                Either::Left(view! { <p class="empty">"No members yet."</p> })
            } else {
                Either::Right(view! {
                    <ul class="members">
                        {team.members.into_iter().map(|m| {
                            let label = format!("Remove {} from {}", m.email, team_name);
                            view! {
                                <li data-member=m.user_id>
                                    {m.name} " (" {m.email} ", " {m.role.label()} ") "
                                    <ActionForm action=member attr:class="inline">
                                        <input type="hidden" name="team_id" value=team_id/>
                                        <input type="hidden" name="user_id" value=m.user_id/>
                                        <input type="hidden" name="member" value="false"/>
                                        <button type="submit" class="remove-member" aria-label=label>"Remove"</button>
                                    </ActionForm>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                })
            }}
            {(!others.is_empty()).then(|| view! {
                <ActionForm action=member attr:class="row">
                    <input type="hidden" name="team_id" value=team_id/>
                    <input type="hidden" name="member" value="true"/>
                    <label for=add_for>"Add an account"</label>
                    <select name="user_id" id=add_id class="add-member">
                        {others.into_iter().map(|a| view! { <option value=a.user.id>{format!("{} ({})", a.user.name, a.user.email)}</option> }).collect_view()}
                    </select>
                    <button type="submit">"Add to team"</button>
                </ActionForm>
            })}
        </section>
    }
}

#[component]
fn UserTable(
    users: Vec<Account>,
    set_role: ServerAction<SetUserRole>,
    set_disabled: ServerAction<SetUserDisabled>,
    sign_out: ServerAction<SignOutEverywhere>,
    unlock: ServerAction<ClearFailedSignIns>,
) -> impl IntoView {
    view! {
        <table class="data" id="users">
            <thead><tr><th>"Name"</th><th>"Email"</th><th>"Role"</th><th>"Access"</th><th></th></tr></thead>
            <tbody>
                {users.into_iter().map(|Account { user: u, disabled, failed_sign_ins }| {
                    let current = u.role;
                    view! {
                        <tr data-user=u.id data-disabled=disabled.to_string()>
                            <td>{u.name}</td>
                            <td>{u.email}</td>
                            <td>{u.role.label()}</td>
                            <td>
                                {if disabled { "Disabled" } else { "Active" }}
                                // Disabling ends the sessions and revokes the API tokens at once.
                                <ActionForm action=set_disabled attr:class="inline">
                                    <input type="hidden" name="user_id" value=u.id/>
                                    <input type="hidden" name="disabled" value=(!disabled).to_string()/>
                                    <button type="submit" class="set-disabled">{if disabled { "Enable" } else { "Disable" }}</button>
                                </ActionForm>
                                <ActionForm action=sign_out attr:class="inline">
                                    <input type="hidden" name="user_id" value=u.id/>
                                    <button type="submit" class="sign-out-everywhere">"Sign out everywhere"</button>
                                </ActionForm>
                                // Failed sign-ins slow further attempts (never lock); clearing them ends the delays.
                                {(failed_sign_ins > 0).then(|| view! {
                                    <span class="failed-sign-ins">{format!(" {failed_sign_ins} failed sign-in{} ", if failed_sign_ins == 1 { "" } else { "s" })}</span>
                                    <ActionForm action=unlock attr:class="inline">
                                        <input type="hidden" name="user_id" value=u.id/>
                                        <button type="submit" class="clear-failed-sign-ins">"Clear failed sign-ins"</button>
                                    </ActionForm>
                                })}
                            </td>
                            <td>
                                <ActionForm action=set_role attr:class="inline">
                                    <input type="hidden" name="user_id" value=u.id/>
                                    <select name="role" aria-label="New role">
                                        {Role::ALL.into_iter().map(|r| view! { <option value=r.as_str() selected=r == current>{r.label()}</option> }).collect_view()}
                                    </select>
                                    <button type="submit">"Set role"</button>
                                </ActionForm>
                            </td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A time in Unix milliseconds as `YYYY-MM-DD HH:MM UTC`.
fn utc(ms: i64) -> String {
    let (y, m, d, rem) = crate::model::utc_civil(ms);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// Personal API tokens (`/account/tokens`, researchers and up): create a named read-only token
/// (shown once), see when each was last used, revoke them.
#[component]
pub fn TokensPage() -> impl IntoView {
    let create = ServerAction::<CreateApiToken>::new();
    let revoke = ServerAction::<RevokeApiToken>::new();
    let tokens = crate::resource::resource(move || (create.version().get(), revoke.version().get()), |_| list_api_tokens());
    view! {
        <section class="card" id="api-tokens">
            <h1>"API tokens"</h1>
            <p class="hint">
                "A token lets a script read results and exports of every campaign you can read, over "
                <code>"GET /api/v1/…"</code> " (see " <a href="/api/v1/openapi.json" rel="external">"the API description"</a>
                "). Send it as " <code>"Authorization: Bearer <token>"</code> ". A token reads; it uploads only what you "
                "allow it when you make it. It has your role at the time it is used, and is stored only as a hash: copy a "
                "new token now, it is shown once."
            </p>
            <ActionForm action=create attr:class="row" attr:id="token-form">
                <label>"Name" <input type="text" name="name" id="token-name" required=true maxlength="100" placeholder="e.g. nightly metrics script"/></label>
                <fieldset class="inline" id="token-scopes">
                    <legend>"It may also"</legend>
                    <label><input type="checkbox" name="metrics_upload" value="true" id="token-metrics-upload"/> " upload metric scores"</label>
                    <label><input type="checkbox" name="gold_upload" value="true" id="token-gold-upload"/> " upload gold orders (organizers)"</label>
                </fieldset>
                <button type="submit" class="primary">"Create token"</button>
            </ActionForm>
            {move || match create.value().get() {
                Some(Ok(t)) => Either::Left(view! {
                    <p class="notice" id="new-token">
                        "Your new token " <strong>{t.token.name}</strong> " (copy it now; it will not be shown again): "
                        <code id="new-token-secret">{t.secret}</code>
                    </p>
                }),
                Some(Err(e)) => Either::Right(Some(view! { <p class="error" role="alert">{error_text(&e)}</p> })),
                None => Either::Right(None),
            }}
            {move || match revoke.value().get() {
                Some(Err(e)) => Some(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                _ => None,
            }}
            <Transition fallback=|| view! { <p>"Loading tokens…"</p> }>
                {move || Suspend::new(async move {
                    match tokens.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) if list.is_empty() => Either::Right(Either::Left(view! { <p class="empty" id="tokens-empty">"You have no API token yet."</p> })),
                        Ok(list) => Either::Right(Either::Right(view! {
                            <table class="data" id="tokens">
                                <thead><tr><th>"Name"</th><th>"May"</th><th>"Created"</th><th>"Last used"</th><th>"Status"</th><th></th></tr></thead>
                                <tbody>
                                    {list.into_iter().map(|t| view! {
                                        <tr class="token-row" data-token-id=t.id>
                                            <td>{t.name.clone()}</td>
                                            <td class="token-scopes" data-scopes=t.scopes.stored()>
                                                {t.scopes.0.iter().map(|s| s.label()).collect::<Vec<_>>().join(", ")}
                                            </td>
                                            <td>{utc(t.created_at)}</td>
                                            <td>{t.last_used_at.map_or("never".to_string(), utc)}</td>
                                            <td class="token-status">{if t.revoked_at.is_some() { "revoked" } else { "live" }}</td>
                                            <td>
                                                {t.revoked_at.is_none().then(|| view! {
                                                    <ActionForm action=revoke attr:class="inline">
                                                        <input type="hidden" name="token_id" value=t.id/>
                                                        <button type="submit" class="revoke">"Revoke"</button>
                                                    </ActionForm>
                                                })}
                                            </td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        })),
                    }
                })}
            </Transition>
        </section>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00 UTC");
        // 2024-02-29 12:34:56 UTC
        assert_eq!(super::utc(1_709_210_096_000), "2024-02-29 12:34 UTC");
    }
}
