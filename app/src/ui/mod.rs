//! The frame around every page: document shell, router, header and the home page of each role;
//! the browser bundles that hydrate them (`bundles`). The top of the page modules: every page
//! family's pages are routed here; nothing below imports it.

use crate::annotate::pages::MyHits;
use crate::accounts::api::{AcceptInvitation, Login, Logout, current_user};
use crate::auth::{Role, UserInfo};
use crate::campaign::pages::{AnnotatorQueue, OrganizerHome};
// The pages: a browser bundle uses only its family's (see `page!`).
#[cfg_attr(feature = "hydrate", allow(unused_imports))]
use crate::{
    annotate::pages::WorkPage,
    accounts::pages::{AdminUsersPage, InvitePage, LoginPage, TokensPage},
    campaign::pages::{CampaignStatusPage, CampaignsPage, DesignerPage, ImportPage},
    results::metrics::MetricsPage,
    results::pages::{ResultsIndex, ResultsPage, WorkersPage},
    study::pages::{HistoryPage, StudiesPage, StudyDesignerPage, StudyPage},
};
use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

mod bundles;

#[cfg_attr(not(feature = "hydrate"), allow(unused_imports))]
use bundles::Elsewhere;
pub use bundles::BrowserBundle;
use crate::resource::resource;
pub use crate::accounts::Session;

/// The HTML document the server sends; the app hydrates inside `<body>` with the browser bundle
/// of the page's family (see [`BrowserBundle`]).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let options = {
        let mut options = options;
        if let Some(parts) = use_context::<http::request::Parts>() {
            options.output_name = BrowserBundle::for_path(parts.uri.path()).file_stem().into();
        }
        // Before any script is written: the scripts below carry the nonce it names.
        crate::web::set_page_security_policy();
        options
    };
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

/// `page!("bundle-…", Page)`: the page's view on the server and in its own bundle, [`Elsewhere`]
/// in the others.
macro_rules! page {
    ($bundle:literal, $page:ident) => {{
        #[cfg(any(not(feature = "hydrate"), feature = $bundle))]
        let view = $page;
        #[cfg(all(feature = "hydrate", not(feature = $bundle)))]
        let view = Elsewhere;
        view
    }};
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let login = ServerAction::<Login>::new();
    let logout = ServerAction::<Logout>::new();
    let accept_invitation = ServerAction::<AcceptInvitation>::new();
    let user = resource(
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
                    <Route path=path!("/") view=page!("bundle-annotate", HomePage)/>
                    <Route path=path!("/login") view=page!("bundle-annotate", LoginPage)/>
                    <Route path=path!("/invite/:token") view=page!("bundle-annotate", InvitePage)/>
                    <Route path=path!("/admin/users") view=page!("bundle-accounts", AdminUsersPage)/>
                    <Route path=path!("/account/tokens") view=page!("bundle-accounts", TokensPage)/>
                    <Route path=path!("/import") view=page!("bundle-campaigns", ImportPage)/>
                    <Route path=path!("/campaigns") view=page!("bundle-campaigns", CampaignsPage)/>
                    <Route path=path!("/campaigns/new") view=page!("bundle-campaigns", DesignerPage)/>
                    <Route path=path!("/campaigns/:id") view=page!("bundle-campaigns", CampaignStatusPage)/>
                    <Route path=path!("/results") view=page!("bundle-results", ResultsIndex)/>
                    <Route path=path!("/campaigns/:id/results") view=page!("bundle-results", ResultsPage)/>
                    <Route path=path!("/campaigns/:id/workers") view=page!("bundle-results", WorkersPage)/>
                    <Route path=path!("/campaigns/:id/metrics") view=page!("bundle-results", MetricsPage)/>
                    <Route path=path!("/work/:id") view=page!("bundle-annotate", WorkPage)/>
                    <Route path=path!("/studies") view=page!("bundle-studies", StudiesPage)/>
                    <Route path=path!("/studies/new") view=page!("bundle-studies", StudyDesignerPage)/>
                    <Route path=path!("/studies/:id") view=page!("bundle-studies", StudyPage)/>
                    <Route path=path!("/history") view=page!("bundle-studies", HistoryPage)/>
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
                                // A plain form (it works before the page is live) that the
                                // browser submits through the action: no form decoding in
                                // the bundle for an action without fields.
                                <form method="post" action=Logout::PATH class="inline"
                                    on:submit=move |ev| {
                                        ev.prevent_default();
                                        session.logout.dispatch(Logout {});
                                    }>
                                    <button type="submit" class="link">"Sign out"</button>
                                </form>
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

