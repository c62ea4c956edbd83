//! The frame around every page: document shell, router, header and the home page of each role.

use crate::annotate::pages::{MyHits, WorkPage};
use crate::auth::api::{AcceptInvitation, Login, Logout, current_user};
use crate::auth::pages::{AdminUsersPage, InvitePage, LoginPage, TokensPage};
use crate::auth::{Role, UserInfo};
use crate::results::pages::{ResultsIndex, ResultsPage, WorkersPage};
use crate::study::pages::{HistoryPage, StudiesPage, StudyDesignerPage, StudyPage};
use crate::campaign::pages::{AnnotatorQueue, CampaignStatusPage, CampaignsPage, DesignerPage, ImportPage, OrganizerHome};
use leptos::either::Either;
use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

/// The HTML document the server sends; the app hydrates inside `<body>`.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <link rel="stylesheet" href="/assay.css"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Who is signed in, and the two actions that change it. Provided to every page.
#[derive(Clone, Copy)]
pub struct Session {
    pub login: ServerAction<Login>,
    pub logout: ServerAction<Logout>,
    /// Accepting an invitation also signs in.
    pub accept_invitation: ServerAction<AcceptInvitation>,
    pub user: Resource<Result<Option<UserInfo>, ServerFnError>>,
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let login = ServerAction::<Login>::new();
    let logout = ServerAction::<Logout>::new();
    let accept_invitation = ServerAction::<AcceptInvitation>::new();
    let user = Resource::new(
        move || (login.version().get(), logout.version().get(), accept_invitation.version().get()),
        |_| current_user(),
    );
    provide_context(Session { login, logout, accept_invitation, user });

    view! {
        <Title text="Assay"/>
        <Router>
            <Header/>
            <main>
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/") view=HomePage/>
                    <Route path=path!("/login") view=LoginPage/>
                    <Route path=path!("/invite/:token") view=InvitePage/>
                    <Route path=path!("/admin/users") view=AdminUsersPage/>
                    <Route path=path!("/account/tokens") view=TokensPage/>
                    <Route path=path!("/import") view=ImportPage/>
                    <Route path=path!("/campaigns") view=CampaignsPage/>
                    <Route path=path!("/campaigns/new") view=DesignerPage/>
                    <Route path=path!("/campaigns/:id") view=CampaignStatusPage/>
                    <Route path=path!("/results") view=ResultsIndex/>
                    <Route path=path!("/campaigns/:id/results") view=ResultsPage/>
                    <Route path=path!("/campaigns/:id/workers") view=WorkersPage/>
                    <Route path=path!("/work/:id") view=WorkPage/>
                    <Route path=path!("/studies") view=StudiesPage/>
                    <Route path=path!("/studies/new") view=StudyDesignerPage/>
                    <Route path=path!("/studies/:id") view=StudyPage/>
                    <Route path=path!("/history") view=HistoryPage/>
                </Routes>
            </main>
        </Router>
    }
}

#[component]
fn Header() -> impl IntoView {
    let session = expect_context::<Session>();
    view! {
        <header class="top">
            <A href="/" attr:class="brand">"Assay"</A>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    match session.user.await {
                        Ok(Some(user)) => Either::Left(view! {
                            <nav>
                                {(user.role >= Role::Organizer).then(|| view! {
                                    <A href="/campaigns">"Campaigns"</A>
                                    <a href="/import" rel="external">"Import"</a>
                                })}
                                {(user.role >= Role::Researcher).then(|| view! { <A href="/results">"Results"</A> <A href="/studies">"Studies"</A> <A href="/account/tokens">"API tokens"</A> })}
                                {(user.role >= Role::Admin).then(|| view! { <A href="/admin/users">"Accounts"</A> })}
                                <span class="who" id="who">{user.name.clone()} " · " {user.role.label()}</span>
                                <ActionForm action=session.logout attr:class="inline">
                                    <button type="submit" class="link">"Sign out"</button>
                                </ActionForm>
                            </nav>
                        }),
                        _ => Either::Right(view! { <nav><A href="/login">"Sign in"</A></nav> }),
                    }
                })}
            </Transition>
        </header>
    }
}

/// Each role's starting point. Empty states say what to do next.
#[component]
fn HomePage() -> impl IntoView {
    let session = expect_context::<Session>();
    view! {
        <Transition fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match session.user.await {
                    Ok(Some(user)) => Either::Left(view! { <RoleHome user/> }),
                    _ => Either::Right(view! {
                        <section class="card narrow">
                            <h1>"Assay"</h1>
                            <p>"Human evaluation of machine translation: direct assessment and word-order judgments, with quality control built in."</p>
                            <p><A href="/login" attr:class="button primary">"Sign in"</A></p>
                        </section>
                    }),
                }
            })}
        </Transition>
    }
}

#[component]
fn RoleHome(user: UserInfo) -> impl IntoView {
    let title = format!("Welcome, {}", user.name);
    let body = match user.role {
        Role::Annotator => Either::Left(view! {
            <AnnotatorQueue/>
            <h2>"Your HITs"</h2>
            <MyHits/>
        }),
        Role::Researcher => Either::Right(Either::Left(view! {
            <h2>"Results"</h2>
            <p class="empty" id="empty-state">
                "No campaign has results yet. Results appear here as soon as annotators finish their first HITs."
            </p>
        })),
        Role::Organizer => Either::Right(Either::Right(Either::Left(view! { <OrganizerHome/> }))),
        Role::Admin => Either::Right(Either::Right(Either::Right(view! {
            <h2>"Administration"</h2>
            <p class="empty" id="empty-state">
                "Invite organizers, researchers and annotators from the " <A href="/admin/users">"accounts page"</A> "."
            </p>
        }))),
    };
    view! {
        <section class="card" data-role=user.role.as_str()>
            <h1>{title}</h1>
            <p class="role-badge">{user.role.label()}</p>
            {body}
        </section>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    {
        if let Some(res) = use_context::<leptos_axum::ResponseOptions>() {
            res.set_status(http::StatusCode::NOT_FOUND);
        }
    }
    view! {
        <section class="card narrow">
            <h1>"Not found"</h1>
            <p>"There is no page at this address. " <A href="/">"Go to the start page"</A></p>
        </section>
    }
}
