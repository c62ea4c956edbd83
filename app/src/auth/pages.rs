//! Sign-in, invitation and account-administration screens.

use crate::auth::api::{InviteUser, SetUserRole, invitation, list_users};
use crate::auth::{Role, UserInfo, error_text};
use crate::ui::Session;
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
    let offer = Resource::new(token, invitation);
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
    let users = Resource::new(move || (invite.version().get(), set_role.version().get()), |_| list_users());
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
            {move || match set_role.value().get() {
                Some(Err(e)) => Some(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                _ => None,
            }}
            <Suspense fallback=|| view! { <p>"Loading accounts…"</p> }>
                {move || Suspend::new(async move {
                    match users.await {
                        Err(e) => Either::Left(view! { <p class="error" role="alert">{error_text(&e)}</p> }),
                        Ok(list) => Either::Right(view! { <UserTable users=list set_role/> }),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[component]
fn UserTable(users: Vec<UserInfo>, set_role: ServerAction<SetUserRole>) -> impl IntoView {
    view! {
        <table class="data" id="users">
            <thead><tr><th>"Name"</th><th>"Email"</th><th>"Role"</th><th></th></tr></thead>
            <tbody>
                {users.into_iter().map(|u| {
                    let current = u.role;
                    view! {
                        <tr>
                            <td>{u.name}</td>
                            <td>{u.email}</td>
                            <td>{u.role.label()}</td>
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
