//! The browser bundles: one per family of pages, so that each browser downloads the code of the
//! pages it shows and no other (a crowd worker's, only its HIT's protocol's screen).

use crate::annotate::screens::{Screen, ScreenFamily, Screens};
use leptos::prelude::*;

/// The browser bundles. Each page is hydrated by the bundle of its family of pages: a crowd
/// worker's browser never downloads the designer, the results or the account pages, nor another
/// protocol's screen. Each bundle is a crate of its own under `app/bundles/<name>/` that hydrates
/// `ui::app_for::<family::…>`, in which the other families' pages are [`Elsewhere`] (see `page!`
/// in `ui`) and the other protocols' screens `AnotherScreen` (`annotate::screens`). One cargo
/// command builds them all: the app is compiled once, and each bundle links only the code its
/// pages reach. The server renders every page and names its bundle in the document
/// (`ui::shell`); `BrowserBundle::for_path` and the routes of `ui::app_for` must agree, which a
/// test checks.
///
/// A work page (`/work/…`) is hydrated by the bundle of its HIT's protocol ([`Self::for_page`]):
/// `da`, `woj`, `rank`, `spans`, `pair` or `postedit`, each with the work page and one protocol's screen. Sign-in,
/// the start page and invitations are on the small `annotate` bundle, which has no screen: a
/// crowd worker never opens them, and an annotator who does downloads no screen there (the
/// HIT list's links load the work page with its own bundle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowserBundle {
    /// Start page, sign-in and invitations.
    Annotate,
    /// Import, the campaign list, the designer and a campaign's status.
    Campaigns,
    /// Accounts and API tokens.
    Accounts,
    /// Results and workers.
    Results,
    /// Studies and comparisons across years.
    Studies,
    /// A DA HIT's work page (adequacy, fluency, source-based).
    Da,
    /// A word-order HIT's work page.
    Woj,
    /// A relative-ranking HIT's work page.
    Rank,
    /// An error-span HIT's work page (ESA, MQM).
    Spans,
    /// A pairwise-preference HIT's work page.
    Pair,
    /// A post-editing HIT's work page.
    PostEdit,
    /// A contrastive ESA HIT's work page.
    Contrastive,
}

impl BrowserBundle {
    pub const ALL: [BrowserBundle; 12] = [
        BrowserBundle::Annotate,
        BrowserBundle::Campaigns,
        BrowserBundle::Accounts,
        BrowserBundle::Results,
        BrowserBundle::Studies,
        BrowserBundle::Da,
        BrowserBundle::Woj,
        BrowserBundle::Rank,
        BrowserBundle::Spans,
        BrowserBundle::Pair,
        BrowserBundle::PostEdit,
        BrowserBundle::Contrastive,
    ];

    /// Its name: the crate `app/bundles/<name>` (`assay-bundle-<name>`) is built into
    /// `pkg/assay-<name>.js` and `pkg/assay-<name>_bg.wasm`.
    pub fn name(self) -> &'static str {
        match self {
            BrowserBundle::Annotate => "annotate",
            BrowserBundle::Campaigns => "campaigns",
            BrowserBundle::Accounts => "accounts",
            BrowserBundle::Results => "results",
            BrowserBundle::Studies => "studies",
            BrowserBundle::Da => assay_core::protocol::da::FAMILY,
            BrowserBundle::Woj => "woj",
            BrowserBundle::Rank => "rank",
            BrowserBundle::Spans => "spans",
            BrowserBundle::Pair => "pair",
            BrowserBundle::PostEdit => "postedit",
            BrowserBundle::Contrastive => "cesa",
        }
    }

    /// The work bundle of a protocol's screen.
    pub const fn of_screen(screen: Screen) -> BrowserBundle {
        match screen {
            Screen::Da => BrowserBundle::Da,
            Screen::WordOrder => BrowserBundle::Woj,
            Screen::Ranking => BrowserBundle::Rank,
            Screen::Spans => BrowserBundle::Spans,
            Screen::Pairwise => BrowserBundle::Pair,
            Screen::PostEdit => BrowserBundle::PostEdit,
            Screen::Contrastive => BrowserBundle::Contrastive,
        }
    }

    /// The protocol screen a bundle links (with the work page), if any.
    pub const fn screens(self) -> Screens {
        match self {
            BrowserBundle::Da => Screens::Only(Screen::Da),
            BrowserBundle::Woj => Screens::Only(Screen::WordOrder),
            BrowserBundle::Rank => Screens::Only(Screen::Ranking),
            BrowserBundle::Spans => Screens::Only(Screen::Spans),
            BrowserBundle::Pair => Screens::Only(Screen::Pairwise),
            BrowserBundle::PostEdit => Screens::Only(Screen::PostEdit),
            BrowserBundle::Contrastive => Screens::Only(Screen::Contrastive),
            BrowserBundle::Annotate | BrowserBundle::Campaigns | BrowserBundle::Accounts | BrowserBundle::Results | BrowserBundle::Studies => {
                Screens::None
            }
        }
    }

    /// The stem of its files under `pkg/`, as `LeptosOptions::output_name`.
    pub fn file_stem(self) -> String {
        format!("assay-{}", self.name())
    }

    /// The bundle that hydrates the page at `path` (a URL path, without query), the screen of the
    /// HIT of a work page as the server found it (`screen`; `None` for no such HIT, whose page
    /// any work bundle draws: the DA one).
    pub fn for_page(path: &str, screen: Option<Screen>) -> BrowserBundle {
        match (BrowserBundle::for_path(path), screen) {
            (BrowserBundle::Da, Some(screen)) => BrowserBundle::of_screen(screen),
            (bundle, _) => bundle,
        }
    }

    /// The bundle that hydrates the page at `path` (a URL path, without query), a work page's
    /// taken as DA's ([`Self::for_page`] knows its HIT). Unknown paths get the not-found page,
    /// which every bundle has.
    pub fn for_path(path: &str) -> BrowserBundle {
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        match segments.as_slice() {
            ["work", _] => BrowserBundle::Da,
            ["results"] | ["campaigns", _, "results" | "workers" | "metrics"] => BrowserBundle::Results,
            ["studies", ..] | ["history"] => BrowserBundle::Studies,
            ["import"] | ["campaigns", ..] => BrowserBundle::Campaigns,
            ["admin", "users"] | ["account", "tokens"] => BrowserBundle::Accounts,
            _ => BrowserBundle::Annotate,
        }
    }
}

/// The stem of the bundle with every page (`app/bundles/all`): `scripts/run` builds it first
/// on a fresh clone, so that the product answers while the family bundles are built (one
/// whole-program optimisation instead of nine before the first page).
pub const ALL_PAGES_STEM: &str = "assay-all";

/// The stem of the files that hydrate a page of `bundle`, given which `pkg/…_bg.wasm` files the
/// site has (`has(stem)`): the family's own bundle, else, while only the all-pages bundle is
/// built, that one.
#[cfg_attr(not(feature = "ssr"), allow(dead_code))]
pub fn served_stem(bundle: BrowserBundle, has: impl Fn(&str) -> bool) -> String {
    let own = bundle.file_stem();
    if !has(&own) && has(ALL_PAGES_STEM) { ALL_PAGES_STEM.to_string() } else { own }
}

/// [`served_stem`] for the site at `site_root`. A family bundle once found is not looked for
/// again (the bundles are only ever added while the server runs).
#[cfg(feature = "ssr")]
pub fn served_stem_in(bundle: BrowserBundle, site_root: &str) -> String {
    use std::sync::atomic::{AtomicBool, Ordering};
    static FOUND: [AtomicBool; BrowserBundle::ALL.len()] = [const { AtomicBool::new(false) }; BrowserBundle::ALL.len()];
    let found = &FOUND[bundle as usize];
    if found.load(Ordering::Relaxed) {
        return bundle.file_stem();
    }
    let stem = served_stem(bundle, |stem| std::path::Path::new(site_root).join("pkg").join(format!("{stem}_bg.wasm")).exists());
    if stem == bundle.file_stem() {
        found.store(true, Ordering::Relaxed);
    }
    stem
}

/// Which pages a build renders: every page (the server), or one family's (a browser bundle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    Every,
    Only(BrowserBundle),
}

impl Pages {
    pub const fn shows(self, bundle: BrowserBundle) -> bool {
        match self {
            Pages::Every => true,
            Pages::Only(own) => own as u8 == bundle as u8,
        }
    }
}

/// A build's pages as a type, so that the choice is made when the code is compiled; with the
/// protocol screens its work page links ([`ScreenFamily`]).
pub trait Family: ScreenFamily {
    const PAGES: Pages;
}

/// Every page: the server.
pub struct Every;

impl Family for Every {
    const PAGES: Pages = Pages::Every;
}

impl ScreenFamily for Every {
    const SCREENS: Screens = Screens::Every;
}

/// One family of pages per browser bundle (named as [`BrowserBundle`]'s variants).
pub mod family {
    use super::{BrowserBundle, Family, Pages, ScreenFamily, Screens};

    macro_rules! families {
        ($($name:ident),*) => {$(
            pub struct $name;
            impl Family for $name {
                const PAGES: Pages = Pages::Only(BrowserBundle::$name);
            }
            impl ScreenFamily for $name {
                const SCREENS: Screens = BrowserBundle::$name.screens();
            }
        )*};
    }

    families!(Annotate, Campaigns, Accounts, Results, Studies, Da, Woj, Rank, Spans, Pair, PostEdit, Contrastive);
}

/// A page of another bundle, reached by a link or a redirect inside this one: the browser loads
/// it from the server, which sends it with its own bundle. Never rendered while hydrating (the
/// server names the page's own bundle); if it were, it says so in the console instead of reloading.
#[component]
pub(super) fn Elsewhere() -> impl IntoView {
    #[cfg(feature = "hydrate")]
    {
        // Once the page is live (`hydrate` marks the body), routes change in the browser.
        let navigating = document().body().is_some_and(|body| body.has_attribute("data-hydrated"));
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

#[cfg(test)]
mod tests {
    use super::{BrowserBundle, Screen, Screens};

    /// Every route of `app_for` names a family, and the server sends that family's bundle with
    /// the page.
    #[test]
    fn the_server_sends_each_page_with_the_bundle_that_has_it() {
        let source = include_str!("mod.rs");
        let mut checked = 0;
        for line in source.lines().map(str::trim).filter(|l| l.starts_with("<Route ")) {
            let path = line.split("path!(\"").nth(1).and_then(|r| r.split('"').next()).expect(line);
            let family = line
                .split("page!(")
                .nth(1)
                .and_then(|r| r.split(',').next())
                .unwrap_or_else(|| panic!("route {path} does not name its family with page!(…)"));
            let concrete: String = path
                .split('/')
                .map(|s| if s.starts_with(':') { "7" } else { s })
                .collect::<Vec<_>>()
                .join("/");
            let bundle = BrowserBundle::for_path(&concrete);
            if family == "Work" {
                // Each protocol's bundle has the work page; the server names the HIT's.
                for screen in Screen::ALL {
                    let bundle = BrowserBundle::for_page(&concrete, Some(screen));
                    assert_eq!(bundle.screens(), Screens::Only(screen), "{path}: the server would send {bundle:?}");
                }
                assert!(bundle.screens().any(), "{path}: a HIT that is not found gets {bundle:?}, without the work page");
            } else {
                assert_eq!(format!("{bundle:?}"), family, "{path}: the server would send {bundle:?}");
                assert_eq!(BrowserBundle::for_page(&concrete, Some(Screen::Spans)), bundle, "{path} is no work page");
            }
            checked += 1;
        }
        assert!(checked >= 17, "only {checked} routes found");
    }

    /// Each bundle's crate hydrates its own family, the all-pages crate every page, and there is
    /// no crate for a bundle the server does not know.
    #[test]
    fn each_bundle_crate_hydrates_its_own_family() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bundles");
        let mut folders: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        folders.sort();
        let mut names: Vec<String> = BrowserBundle::ALL.iter().map(|b| b.name().to_string()).collect();
        names.push(super::ALL_PAGES_STEM.trim_start_matches("assay-").to_string());
        names.sort();
        assert_eq!(folders, names);
        let all = std::fs::read_to_string(root.join("all/src/lib.rs")).unwrap();
        assert!(all.contains("app::hydrate::<app::ui::Every>()"));
        for bundle in BrowserBundle::ALL {
            let source = std::fs::read_to_string(root.join(bundle.name()).join("src/lib.rs")).unwrap();
            assert!(
                source.contains(&format!("app::hydrate::<app::ui::family::{bundle:?}>()")),
                "app/bundles/{}/src/lib.rs does not hydrate family::{bundle:?}",
                bundle.name()
            );
            let manifest = std::fs::read_to_string(root.join(bundle.name()).join("Cargo.toml")).unwrap();
            assert!(manifest.contains(&format!("name = \"assay-bundle-{}\"", bundle.name())));
        }
    }

    /// Each page gets its family's bundle when it is built, the all-pages bundle while only that
    /// one is, and its family's name when neither is (the server warns at start).
    #[test]
    fn the_all_pages_bundle_stands_in_only_for_missing_families() {
        use super::{ALL_PAGES_STEM, served_stem};
        let site = |files: &'static [&'static str]| move |stem: &str| files.contains(&stem);
        assert_eq!(served_stem(BrowserBundle::Results, site(&["assay-results", "assay-all"])), "assay-results");
        assert_eq!(served_stem(BrowserBundle::Results, site(&["assay-annotate", "assay-all"])), ALL_PAGES_STEM);
        assert_eq!(served_stem(BrowserBundle::Annotate, site(&["assay-annotate", "assay-all"])), "assay-annotate");
        assert_eq!(served_stem(BrowserBundle::Studies, site(&[])), "assay-studies");
        // A protocol's work bundle too (a fresh clone's work pages, before the four are built).
        assert_eq!(served_stem(BrowserBundle::Spans, site(&["assay-annotate", "assay-all"])), ALL_PAGES_STEM);
        assert_eq!(served_stem(BrowserBundle::Da, site(&["assay-da", "assay-all"])), "assay-da");
    }

    #[test]
    fn paths_are_matched_by_segment() {
        assert_eq!(BrowserBundle::for_path("/"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/work/abc"), BrowserBundle::Da);
        assert_eq!(BrowserBundle::for_page("/work/abc", Some(Screen::Spans)), BrowserBundle::Spans);
        assert_eq!(BrowserBundle::for_page("/work/abc", Some(Screen::WordOrder)), BrowserBundle::Woj);
        assert_eq!(BrowserBundle::for_page("/work/abc/", Some(Screen::Ranking)), BrowserBundle::Rank);
        assert_eq!(BrowserBundle::for_page("/work/abc", None), BrowserBundle::Da);
        assert_eq!(BrowserBundle::for_page("/login", Some(Screen::Da)), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/campaigns"), BrowserBundle::Campaigns);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/"), BrowserBundle::Campaigns);
        assert_eq!(BrowserBundle::for_path("/account/tokens"), BrowserBundle::Accounts);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/results"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/workers"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaigns/12/metrics"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaignsx"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/studies/new"), BrowserBundle::Studies);
        assert_eq!(BrowserBundle::for_path("/no/such/page"), BrowserBundle::Annotate);
        let stems: std::collections::HashSet<_> = BrowserBundle::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(stems.len(), BrowserBundle::ALL.len());
    }
}
