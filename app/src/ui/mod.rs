//! The frame around every page: document shell, router, header and the home page of each role.

use crate::annotate::pages::MyHits;
use crate::auth::api::{AcceptInvitation, Login, Logout, current_user};
use crate::auth::{Role, UserInfo};
use crate::campaign::pages::{AnnotatorQueue, OrganizerHome};
// The pages: a browser bundle uses only its audience's (see `page!`).
#[cfg_attr(feature = "hydrate", allow(unused_imports))]
use crate::{
    annotate::pages::WorkPage,
    auth::pages::{AdminUsersPage, InvitePage, LoginPage, TokensPage},
    campaign::pages::{CampaignStatusPage, CampaignsPage, DesignerPage, ImportPage},
    results::pages::{ResultsIndex, ResultsPage, WorkersPage},
    study::pages::{HistoryPage, StudiesPage, StudyDesignerPage, StudyPage},
};
use leptos::either::Either;
use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

/// The HTML document the server sends; the app hydrates inside `<body>` with the browser bundle
/// of the page's audience (see [`BrowserBundle`]).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let options = {
        let mut options = options;
        if let Some(parts) = use_context::<http::request::Parts>() {
            options.output_name = BrowserBundle::for_path(parts.uri.path()).file_stem().into();
        }
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

/// The browser bundles. Each page is hydrated by the bundle of its family of pages, so that a
/// crowd worker's browser never downloads the designer, the results or the account pages, and an
/// organizer's never downloads the results: each bundle is the app built with one `bundle-…`
/// feature, in which the other families' pages are [`Elsewhere`] (a link to one of them loads it
/// from the server). The server renders every page and names its bundle in the document
/// (`shell`); `BrowserBundle::for_path` and the routes of [`App`] must agree, which a test checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowserBundle {
    /// Start page, sign-in, invitations and the annotation page.
    Annotate,
    /// Import, the campaign list, the designer and a campaign's status.
    Campaigns,
    /// Accounts and API tokens.
    Accounts,
    /// Results and workers.
    Results,
    /// Studies and comparisons across years.
    Studies,
}

impl BrowserBundle {
    pub const ALL: [BrowserBundle; 5] = [
        BrowserBundle::Annotate,
        BrowserBundle::Campaigns,
        BrowserBundle::Accounts,
        BrowserBundle::Results,
        BrowserBundle::Studies,
    ];

    /// Its name: the cargo feature `bundle-<name>` builds it into `pkg/assay-<name>.js` and
    /// `pkg/assay-<name>_bg.wasm`.
    pub fn name(self) -> &'static str {
        match self {
            BrowserBundle::Annotate => "annotate",
            BrowserBundle::Campaigns => "campaigns",
            BrowserBundle::Accounts => "accounts",
            BrowserBundle::Results => "results",
            BrowserBundle::Studies => "studies",
        }
    }

    /// The stem of its files under `pkg/`, as `LeptosOptions::output_name`.
    pub fn file_stem(self) -> String {
        format!("assay-{}", self.name())
    }

    /// The bundle that hydrates the page at `path` (a URL path, without query). Unknown paths get
    /// the not-found page, which every bundle has.
    pub fn for_path(path: &str) -> BrowserBundle {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match segments.as_slice() {
            ["results"] | ["campaigns", _, "results" | "workers"] => BrowserBundle::Results,
            ["studies", ..] | ["history"] => BrowserBundle::Studies,
            ["import"] | ["campaigns", ..] => BrowserBundle::Campaigns,
            ["admin", "users"] | ["account", "tokens"] => BrowserBundle::Accounts,
            _ => BrowserBundle::Annotate,
        }
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

/// Set once the page has hydrated: from then on, routes change in the browser.
#[cfg(feature = "hydrate")]
pub static HYDRATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A page of another bundle, reached by a link or a redirect inside this one: the browser loads
/// it from the server, which sends it with its own bundle. Never rendered while hydrating (the
/// server names the page's own bundle); if it were, it says so in the console instead of reloading.
#[component]
#[allow(dead_code)]
fn Elsewhere() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        let navigating = HYDRATED.load(std::sync::atomic::Ordering::Relaxed);
        let location = leptos_router::hooks::use_location();
        let search = location.search.get_untracked();
        let url = format!(
            "{}{}{}{}",
            location.pathname.get_untracked(),
            if search.is_empty() { "" } else { "?" },
            search,
            location.hash.get_untracked()
        );
        if navigating {
            // After the router's own work for this navigation (it puts the address in the history
            // once the route has rendered): the load then replaces that entry instead of adding a
            // second one, and the back button returns to the page the link was on.
            set_timeout(
                move || {
                    let here = window().location();
                    let shown = format!(
                        "{}{}{}",
                        here.pathname().unwrap_or_default(),
                        here.search().unwrap_or_default(),
                        here.hash().unwrap_or_default()
                    );
                    let _ = if shown == url { here.replace(&url) } else { here.assign(&url) };
                },
                std::time::Duration::ZERO,
            );
        } else {
            leptos::logging::error!("{url} belongs to another browser bundle than the one this page loaded");
        }
    }
    view! { <p class="loading">"Loading…"</p> }
}

/// The codec of every resource: JSON read with `serde_json::from_slice`, the reader server
/// function replies use, so that a browser bundle holds one decoder per type instead of two (the
/// default resource codec reads from `&str`, which serde_json compiles separately).
pub struct JsonCodec;

impl<T: serde::Serialize> codee::Encoder<T> for JsonCodec {
    type Error = serde_json::Error;
    type Encoded = String;

    fn encode(value: &T) -> Result<String, serde_json::Error> {
        serde_json::to_string(value)
    }
}

impl<T: serde::de::DeserializeOwned> codee::Decoder<T> for JsonCodec {
    type Error = serde_json::Error;
    type Encoded = str;

    fn decode(text: &str) -> Result<T, serde_json::Error> {
        serde_json::from_slice(text.as_bytes())
    }
}

/// A resource of the app: loaded on the server while rendering, handed to the browser in the page
/// with [`JsonCodec`], reloaded when `source` changes.
#[track_caller]
pub fn resource<T, S, Fut>(
    source: impl Fn() -> S + Send + Sync + 'static,
    fetcher: impl Fn(S) -> Fut + Send + Sync + 'static,
) -> Resource<T, JsonCodec>
where
    T: serde::Serialize + serde::de::DeserializeOwned + Send + Sync + 'static,
    S: Send + Sync + Clone + PartialEq + 'static,
    Fut: std::future::Future<Output = T> + Send + 'static,
{
    Resource::new_with_options(source, fetcher, false)
}

/// Who is signed in, and the two actions that change it. Provided to every page.
#[derive(Clone, Copy)]
pub struct Session {
    pub login: ServerAction<Login>,
    pub logout: ServerAction<Logout>,
    /// Accepting an invitation also signs in.
    pub accept_invitation: ServerAction<AcceptInvitation>,
    pub user: Resource<Result<Option<UserInfo>, ServerFnError>, JsonCodec>,
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

#[cfg(test)]
mod tests {
    use super::BrowserBundle;

    /// Every route of `App` names a bundle, and the server sends that bundle with the page.
    #[test]
    fn the_server_sends_each_page_with_the_bundle_that_has_it() {
        let source = include_str!("mod.rs");
        let mut checked = 0;
        for line in source.lines().map(str::trim).filter(|l| l.starts_with("<Route ")) {
            let path = line.split("path!(\"").nth(1).and_then(|r| r.split('"').next()).expect(line);
            let feature = line
                .split("page!(\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or_else(|| panic!("route {path} does not name its bundle with page!(…)"));
            let concrete: String = path
                .split('/')
                .map(|s| if s.starts_with(':') { "7" } else { s })
                .collect::<Vec<_>>()
                .join("/");
            let bundle = BrowserBundle::for_path(&concrete);
            assert_eq!(format!("bundle-{}", bundle.name()), feature, "{path}: the server would send {bundle:?}");
            checked += 1;
        }
        assert!(checked >= 17, "only {checked} routes found");
    }

    #[test]
    fn paths_are_matched_by_segment() {
        assert_eq!(BrowserBundle::for_path("/"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/work/abc"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/campaigns"), BrowserBundle::Campaigns);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/"), BrowserBundle::Campaigns);
        assert_eq!(BrowserBundle::for_path("/account/tokens"), BrowserBundle::Accounts);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/results"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/workers"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaignsx"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/studies/new"), BrowserBundle::Studies);
        assert_eq!(BrowserBundle::for_path("/no/such/page"), BrowserBundle::Annotate);
        let stems: std::collections::HashSet<_> = BrowserBundle::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(stems.len(), BrowserBundle::ALL.len());
    }
}
