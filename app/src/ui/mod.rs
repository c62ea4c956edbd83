//! The frame around every page: document shell, router, header and the home page of each role;
//! the browser bundles that hydrate them (`bundles`). The top of the page modules: every page
//! family's pages are routed here; nothing below imports it.

use crate::annotate::pages::AnnotatorHome;
use crate::accounts::api::{AcceptInvitation, Login, Logout, current_user};
use crate::auth::{Role, UserInfo};
use crate::campaign::pages::OrganizerHome;
// The pages: a browser bundle holds only its family's (see `page!`).
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

#[cfg(feature = "ssr")]
pub mod assets;
mod bundles;
#[cfg(feature = "ssr")]
pub mod gate;

use bundles::Elsewhere;
pub use bundles::{ALL_PAGES_STEM, BrowserBundle, Every, Family, Pages, family};
use crate::resource::resource;
pub use crate::accounts::Session;

/// The style sheet (`style/assay.css`, served as `/assay-{hash}.css`, `assets`), for the pages that carry it
/// inline (see [`shell`]).
#[cfg(feature = "ssr")]
const STYLE_SHEET: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../style/assay.css"));
#[cfg(not(feature = "ssr"))]
const STYLE_SHEET: &str = "";

/// A HIT's work page (`/work/:id`), which a crowd worker opens from a platform: no way off it
/// in the header, and the early script and the style sheet in the page (see [`shell`]).
pub fn is_work_page(path: &str) -> bool {
    path.starts_with("/work/")
}

/// The HTML document the server sends; the app hydrates inside `<body>` with the browser bundle
/// of the page's family (see [`BrowserBundle`]).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let (options, work_page) = {
        let mut options = options;
        let parts = use_context::<http::request::Parts>();
        let path = parts.as_ref().map(|parts| parts.uri.path().to_string());
        // A work page's HIT's protocol, found before rendering (`gate::page_gate`).
        let screen = parts.as_ref().and_then(|parts| parts.extensions.get::<crate::annotate::screens::WorkScreen>()).map(|s| s.0);
        if let Some(path) = &path {
            // Under a name with its files' hash, kept for good by the browser (`assets`).
            let stem = bundles::served_stem_in(BrowserBundle::for_page(path, screen), &options.site_root);
            options.output_name = assets::bundle_name(&options.site_root, &stem).into();
        }
        // Before any script is written: the scripts below carry the nonce it names.
        crate::web::set_page_security_policy();
        (options, path.is_some_and(|p| is_work_page(&p)))
    };
    #[cfg(not(feature = "ssr"))]
    let work_page = false;
    // The style sheet's address with its hash (`assets`), kept for good by the browser.
    #[cfg(feature = "ssr")]
    let style_sheet = assets::file_href(&options.site_root, "assay.css");
    #[cfg(not(feature = "ssr"))]
    let style_sheet = "/assay.css".to_string();
    // A work page (a crowd worker's, often on a slow phone): the script that answers the first
    // DA item before the bundle has arrived, first in the head so that nothing waits for it
    // (`annotate::early`), and the style sheet in the page, which spares a round trip before
    // anything is drawn (0.56 s on the Slow-4G profile; the sheet is 5 KB compressed).
    #[cfg(feature = "ssr")]
    let early = work_page.then(|| view! { <script nonce=leptos::nonce::use_nonce() inner_html=crate::annotate::early::script()></script> });
    #[cfg(not(feature = "ssr"))]
    let early: Option<()> = None;
    let style = if work_page {
        Either::Left(view! { <style inner_html=STYLE_SHEET></style> })
    } else {
        Either::Right(view! { <link rel="stylesheet" href=style_sheet/> })
    };
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                {early}
                {style}
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

/// `page!(Family, Page)` inside [`app_for`]: the page's view on the server and in its family's
/// bundle, [`Elsewhere`] in the others; `page!(Work, WorkPage)`: the work page in the bundles
/// with a protocol's screen (`annotate::screens`). The choice is a constant of the build, so a bundle's
/// code holds only its family's pages (the compiler never generates the other branch).
macro_rules! page {
    // The work page: in the bundles with a protocol's screen, generic over the screens they link.
    (Work, $page:ident) => {
        move || {
            if const { <F as crate::annotate::screens::ScreenFamily>::SCREENS.any() } {
                Either::Left($page::<F>())
            } else {
                Either::Right(Elsewhere())
            }
        }
    };
    ($family:ident, $page:ident) => {
        move || {
            if const { F::PAGES.shows(BrowserBundle::$family) } {
                Either::Left($page())
            } else {
                Either::Right(Elsewhere())
            }
        }
    };
}

/// Every page, as the server renders it.
#[component]
pub fn App() -> impl IntoView {
    app_for::<Every>()
}

/// The router with the pages of the family `F`: every page on the server ([`Every`]), one
/// family's in its browser bundle (`app/bundles/`).
pub fn app_for<F: Family>() -> impl IntoView {
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
                    <Route path=path!("/") view=page!(Annotate, HomePage)/>
                    <Route path=path!("/login") view=page!(Annotate, LoginPage)/>
                    <Route path=path!("/invite/:token") view=page!(Annotate, InvitePage)/>
                    <Route path=path!("/admin/users") view=page!(Accounts, AdminUsersPage)/>
                    <Route path=path!("/account/tokens") view=page!(Accounts, TokensPage)/>
                    <Route path=path!("/import") view=page!(Campaigns, ImportPage)/>
                    <Route path=path!("/campaigns") view=page!(Campaigns, CampaignsPage)/>
                    <Route path=path!("/campaigns/new") view=page!(Campaigns, DesignerPage)/>
                    <Route path=path!("/campaigns/:id") view=page!(Campaigns, CampaignStatusPage)/>
                    <Route path=path!("/campaigns/:id/edit") view=page!(Campaigns, DesignerPage)/>
                    <Route path=path!("/results") view=page!(Results, ResultsIndex)/>
                    <Route path=path!("/campaigns/:id/results") view=page!(Results, ResultsPage)/>
                    <Route path=path!("/campaigns/:id/workers") view=page!(Results, WorkersPage)/>
                    <Route path=path!("/campaigns/:id/metrics") view=page!(Results, MetricsPage)/>
                    <Route path=path!("/work/:id") view=page!(Work, WorkPage)/>
                    <Route path=path!("/studies") view=page!(Studies, StudiesPage)/>
                    <Route path=path!("/studies/new") view=page!(Studies, StudyDesignerPage)/>
                    <Route path=path!("/studies/:id") view=page!(Studies, StudyPage)/>
                    <Route path=path!("/history") view=page!(Studies, HistoryPage)/>
                </Routes>
            </main>
        </Router>
    }
}

#[component]
fn Header() -> impl IntoView {
    let session = expect_context::<Session>();
    // A crowd worker on an annotation page has no account here: no "Sign in", no way off the HIT.
    let location = leptos_router::hooks::use_location();
    let crowd_page = move || location.pathname.with(|p| is_work_page(p));
    view! {
        <header class="top">
            {move || if crowd_page() {
                Either::Left(view! { <span class="brand">"Assay"</span> })
            } else {
                Either::Right(view! { <A href="/" attr:class="brand">"Assay"</A> })
            }}
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    match session.user.await {
                        Ok(Some(crate::auth::SignedIn { user, words })) => Either::Left(view! {
                            <nav lang=words.tag dir=words.dir>
                                {(user.role >= Role::Organizer).then(|| view! {
                                    <A href="/campaigns">"Campaigns"</A>
                                    <a href="/import" rel="external">"Import"</a>
                                })}
                                {(user.role >= Role::Researcher).then(|| view! { <A href="/results">"Results"</A> <A href="/studies">"Studies"</A> <A href="/account/tokens">"API tokens"</A> })}
                                {(user.role >= Role::Admin).then(|| view! { <A href="/admin/users">"Accounts"</A> })}
                                <span class="who" id="who">{user.name.clone()} " · " {words.role}</span>
                                // A plain form (it works before the page is live) that the
                                // browser submits through the action: no form decoding in
                                // the bundle for an action without fields.
                                <form method="post" action=Logout::PATH class="inline"
                                    on:submit=move |ev| {
                                        ev.prevent_default();
                                        session.logout.dispatch(Logout {});
                                    }>
                                    <button type="submit" class="link">{words.sign_out}</button>
                                </form>
                            </nav>
                        }),
                        _ => Either::Right((!crowd_page()).then(|| view! { <nav><A href="/login">"Sign in"</A></nav> })),
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
                    Ok(Some(signed_in)) => Either::Left(view! { <RoleHome user=signed_in.user/> }),
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
    let body = match user.role {
        // In the annotator's language, with its own heading.
        Role::Annotator => return Either::Left(view! { <AnnotatorHome name=user.name/> }),
        Role::Researcher => Either::Left(view! { <crate::results::pages::ResearcherHome/> }),
        Role::Organizer => Either::Right(Either::Left(view! { <OrganizerHome/> })),
        Role::Admin => Either::Right(Either::Right(view! {
            <h2>"Administration"</h2>
            <p class="empty" id="empty-state">
                "Invite organizers, researchers and annotators from the " <A href="/admin/users">"accounts page"</A> "."
            </p>
        })),
    };
    Either::Right(view! {
        <section class="card" data-role=user.role.as_str()>
            <h1>{format!("Welcome, {}", user.name)}</h1>
            <p class="role-badge">{user.role.label()}</p>
            {body}
        </section>
    })
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

