//! The browser bundles: one per family of pages, so that each browser downloads the code of the
//! pages it shows and no other (a crowd worker's, only the annotation screens').

use leptos::prelude::*;

/// The browser bundles. Each page is hydrated by the bundle of its family of pages: a crowd
/// worker's browser never downloads the designer, the results or the account pages. Each bundle
/// is a crate of its own under `app/bundles/<name>/` that hydrates `ui::app_for::<family::…>`, in
/// which the other families' pages are [`Elsewhere`] (see `page!` in `ui`). One cargo command
/// builds the five: the app is compiled once, and each bundle links only the code its pages
/// reach. The server renders every page and names its bundle in the document (`ui::shell`);
/// `BrowserBundle::for_path` and the routes of `ui::app_for` must agree, which a test checks.
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

    /// Its name: the crate `app/bundles/<name>` (`assay-bundle-<name>`) is built into
    /// `pkg/assay-<name>.js` and `pkg/assay-<name>_bg.wasm`.
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
            ["results"] | ["campaigns", _, "results" | "workers" | "metrics"] => BrowserBundle::Results,
            ["studies", ..] | ["history"] => BrowserBundle::Studies,
            ["import"] | ["campaigns", ..] => BrowserBundle::Campaigns,
            ["admin", "users"] | ["account", "tokens"] => BrowserBundle::Accounts,
            _ => BrowserBundle::Annotate,
        }
    }
}

/// The stem of the bundle with every page (`app/bundles/all`): `scripts/run` builds it first
/// on a fresh clone, so that the product answers while the five family bundles are built (one
/// whole-program optimisation instead of five before the first page).
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
    static FOUND: [AtomicBool; 5] = [const { AtomicBool::new(false) }; 5];
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

/// A build's pages as a type, so that the choice is made when the code is compiled.
pub trait Family: 'static {
    const PAGES: Pages;
}

/// Every page: the server.
pub struct Every;

impl Family for Every {
    const PAGES: Pages = Pages::Every;
}

/// One family of pages per browser bundle (named as [`BrowserBundle`]'s variants).
pub mod family {
    use super::{BrowserBundle, Family, Pages};

    macro_rules! families {
        ($($name:ident),*) => {$(
            pub struct $name;
            impl Family for $name {
                const PAGES: Pages = Pages::Only(BrowserBundle::$name);
            }
        )*};
    }

    families!(Annotate, Campaigns, Accounts, Results, Studies);
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
    use super::BrowserBundle;

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
            assert_eq!(format!("{bundle:?}"), family, "{path}: the server would send {bundle:?}");
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
        assert_eq!(BrowserBundle::for_path("/campaigns/12/metrics"), BrowserBundle::Results);
        assert_eq!(BrowserBundle::for_path("/campaignsx"), BrowserBundle::Annotate);
        assert_eq!(BrowserBundle::for_path("/studies/new"), BrowserBundle::Studies);
        assert_eq!(BrowserBundle::for_path("/no/such/page"), BrowserBundle::Annotate);
        let stems: std::collections::HashSet<_> = BrowserBundle::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(stems.len(), BrowserBundle::ALL.len());
    }
}
