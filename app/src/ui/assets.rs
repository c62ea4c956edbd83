//! The site's files under names that carry their content's hash (issue 36 item 3), so that a
//! browser keeps them for good and a crowd worker's phone downloads the annotation bundle once,
//! not at every HIT.
//!
//! The files stay on disk under their plain names (`pkg/assay-annotate.js`,
//! `pkg/assay-annotate_bg.wasm`, `assay.css`: the build scripts are unchanged, and a bundle
//! built while the server runs is picked up as before, `bundles::served_stem`). The server
//! hashes them when a page first names them, again whenever a file changes (its size, time or
//! inode), and names them in its pages as:
//! - a browser bundle `pkg/{stem}.js` + `pkg/{stem}_bg.wasm`: `{stem}-{hash}` (so
//!   `/pkg/assay-annotate-{hash}.js` and `/pkg/assay-annotate-{hash}_bg.wasm`), one hash of both
//!   files, since the glue and the wasm only work together;
//! - another file at the site's root (the style sheet): `/assay-{hash}.css`.
//!
//! `{hash}` is the first 16 hex digits of a SHA-256 of the files and their precompressed copies
//! (`.gz`, `.br`: the same name is sent in any of them). The router serves a hashed name only while
//! it is the name of the file as it is now ([`resolve`]), with
//! `Cache-Control: public, max-age=31536000, immutable`; an older name is not served (the file
//! it named is gone), so a name never stands for two contents.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{LazyLock, Mutex};

/// How many hex digits of the hash a name carries.
pub const HASH_DIGITS: usize = 16;

/// What identifies a file's version without reading it: if any of these changed, so may have
/// its content.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Stamp { len: meta.len(), modified: meta.modified().ok(), inode }
    }
}

/// The files hashed so far, with the version each hash is of.
static HASHES: LazyLock<Mutex<HashMap<PathBuf, (Stamp, [u8; 32])>>> = LazyLock::new(Default::default);

/// The hash of the file at `path` as it is served: of its bytes and of its precompressed copies
/// beside it (`.gz`, `.br`, which the router sends to browsers that accept them), so that a name
/// never stands for two contents in any encoding. None when the file is missing.
fn served_hash(path: &Path) -> Option<[u8; 32]> {
    let mut hasher = Sha256::new().chain_update(one_file_hash(path)?);
    for ext in ["gz", "br"] {
        let mut copy = path.as_os_str().to_owned();
        copy.push(".");
        copy.push(ext);
        let copy = PathBuf::from(copy);
        if copy.exists() {
            hasher.update(ext);
            hasher.update(one_file_hash(&copy)?);
        }
    }
    Some(hasher.finalize().into())
}

/// The SHA-256 of the file at `path`, read again only when it has changed; None when there is
/// no such file, or it changed while it was read (a build writing it: named as it will be once
/// it is done).
fn one_file_hash(path: &Path) -> Option<[u8; 32]> {
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let stamp = Stamp::of(&meta);
    if let Some((known, hash)) = HASHES.lock().unwrap_or_else(|e| e.into_inner()).get(path)
        && *known == stamp
    {
        return Some(*hash);
    }
    let mut hasher = Sha256::new();
    let mut file = std::fs::File::open(path).ok()?;
    std::io::copy(&mut file, &mut hasher).ok()?;
    let hash: [u8; 32] = hasher.finalize().into();
    let after = std::fs::metadata(path).ok().map(|m| Stamp::of(&m));
    if after != Some(stamp) {
        return None;
    }
    HASHES.lock().unwrap_or_else(|e| e.into_inner()).insert(path.to_path_buf(), (stamp, hash));
    Some(hash)
}

fn digits(hash: &[u8]) -> String {
    hash.iter().take(HASH_DIGITS / 2).map(|b| format!("{b:02x}")).collect()
}

/// The path under `site_root` of a site-relative path (`pkg/x.js`), or None when it is not a
/// plain one (`..`, a root, a prefix).
fn in_site(site_root: &str, relative: &str) -> Option<PathBuf> {
    let relative = Path::new(relative);
    relative.components().all(|c| matches!(c, Component::Normal(_))).then(|| Path::new(site_root).join(relative))
}

/// The hash in the names of the browser bundle `stem`: of its glue and its wasm together.
fn bundle_hash(site_root: &str, stem: &str) -> Option<String> {
    let js = served_hash(&in_site(site_root, &format!("pkg/{stem}.js"))?)?;
    let wasm = served_hash(&in_site(site_root, &format!("pkg/{stem}_bg.wasm"))?)?;
    Some(digits(&Sha256::new().chain_update(js).chain_update(wasm).finalize()))
}

/// The name under which a page loads the browser bundle `stem` (Leptos's `output_name`: the
/// glue is `/pkg/{name}.js`, the wasm `/pkg/{name}_bg.wasm`): `{stem}-{hash}`, or `stem` itself
/// while either file is missing (served, but not kept, as any unhashed file).
pub fn bundle_name(site_root: &str, stem: &str) -> String {
    match bundle_hash(site_root, stem) {
        Some(hash) => format!("{stem}-{hash}"),
        None => stem.to_string(),
    }
}

/// The address of the file `name` at the site's root (`assay.css`) with its hash
/// (`/assay-{hash}.css`), or its plain address while it is missing.
pub fn file_href(site_root: &str, name: &str) -> String {
    let hash = in_site(site_root, name).and_then(|path| served_hash(&path));
    match (hash, name.rsplit_once('.')) {
        (Some(hash), Some((base, ext))) => format!("/{base}-{}.{ext}", digits(&hash)),
        _ => format!("/{name}"),
    }
}

/// Hashes the bundles `stems` and the root files `names` ahead, so that the first pages need
/// not (a debug wasm is tens of megabytes).
pub fn prepare(site_root: &str, stems: &[String], names: &[&str]) {
    for stem in stems {
        bundle_hash(site_root, stem);
    }
    for name in names {
        file_href(site_root, name);
    }
}

/// What a request's path is among the site's hashed names.
#[derive(Debug, PartialEq, Eq)]
pub enum Hashed {
    /// The hashed name of a file as it is now: the file's own path (`/pkg/assay-annotate.js`),
    /// to be served for good.
    Current(String),
    /// A hashed name of a file that has changed or is gone: not served (it would be kept for
    /// good under a name that is not its content's).
    Gone,
    /// Not a hashed name.
    Plain,
}

/// Which of the site's files a request for `path` (a URL path) names, if it has a hash in its
/// name (see the module's documentation).
pub fn resolve(site_root: &str, path: &str) -> Hashed {
    const SUFFIXES: [&str; 3] = ["_bg.wasm", ".js", ".css"];
    let Some((head, suffix)) = SUFFIXES.iter().find_map(|s| path.strip_suffix(s).map(|head| (head, *s))) else {
        return Hashed::Plain;
    };
    let Some((base, hash)) = head.rsplit_once('-') else { return Hashed::Plain };
    if hash.len() != HASH_DIGITS || !hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return Hashed::Plain;
    }
    let Some(relative) = base.strip_prefix('/') else { return Hashed::Plain };
    let now = match relative.strip_prefix("pkg/") {
        Some(stem) if suffix != ".css" && !stem.contains('/') => bundle_hash(site_root, stem),
        Some(_) => None,
        None if suffix == ".css" => in_site(site_root, &format!("{relative}{suffix}")).and_then(|p| served_hash(&p)).map(|h| digits(&h)),
        None => None,
    };
    if now.as_deref() == Some(hash) { Hashed::Current(format!("{base}{suffix}")) } else { Hashed::Gone }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("pkg")).unwrap();
        std::fs::write(dir.path().join("pkg/assay-annotate.js"), "glue v1").unwrap();
        std::fs::write(dir.path().join("pkg/assay-annotate_bg.wasm"), "wasm v1").unwrap();
        std::fs::write(dir.path().join("assay.css"), "body {}").unwrap();
        dir
    }

    #[test]
    fn a_bundle_is_named_by_both_its_files_and_resolves_while_they_are_unchanged() {
        let dir = site();
        let root = dir.path().to_str().unwrap();
        let name = bundle_name(root, "assay-annotate");
        let hash = name.strip_prefix("assay-annotate-").unwrap();
        assert_eq!(hash.len(), HASH_DIGITS);
        assert_eq!(resolve(root, &format!("/pkg/{name}.js")), Hashed::Current("/pkg/assay-annotate.js".into()));
        assert_eq!(resolve(root, &format!("/pkg/{name}_bg.wasm")), Hashed::Current("/pkg/assay-annotate_bg.wasm".into()));
        // The wasm changes (rebuilt): a new name, and the old one is gone.
        std::fs::write(dir.path().join("pkg/assay-annotate_bg.wasm"), "wasm v2, longer").unwrap();
        let renamed = bundle_name(root, "assay-annotate");
        assert_ne!(renamed, name);
        assert_eq!(resolve(root, &format!("/pkg/{name}_bg.wasm")), Hashed::Gone);
        assert_eq!(resolve(root, &format!("/pkg/{name}.js")), Hashed::Gone);
        assert_eq!(resolve(root, &format!("/pkg/{renamed}.js")), Hashed::Current("/pkg/assay-annotate.js".into()));
        // So does a compressed copy beside a file, which is sent under the same name.
        std::fs::write(dir.path().join("pkg/assay-annotate.js.gz"), "gzipped glue").unwrap();
        let recompressed = bundle_name(root, "assay-annotate");
        assert_ne!(recompressed, renamed);
        assert_eq!(resolve(root, &format!("/pkg/{renamed}.js")), Hashed::Gone);
        // A bundle not built: its plain name, which is not a hashed one.
        assert_eq!(bundle_name(root, "assay-results"), "assay-results");
        assert_eq!(resolve(root, "/pkg/assay-results_bg.wasm"), Hashed::Plain);
        assert_eq!(resolve(root, "/pkg/assay-results-0123456789abcdef.js"), Hashed::Gone);
    }

    #[test]
    fn the_style_sheet_is_named_by_its_content() {
        let dir = site();
        let root = dir.path().to_str().unwrap();
        let href = file_href(root, "assay.css");
        assert!(href.starts_with("/assay-") && href.ends_with(".css") && href.len() == "/assay-.css".len() + HASH_DIGITS, "{href}");
        assert_eq!(resolve(root, &href), Hashed::Current("/assay.css".into()));
        std::fs::write(dir.path().join("assay.css"), "body { color: red }").unwrap();
        assert_ne!(file_href(root, "assay.css"), href);
        assert_eq!(resolve(root, &href), Hashed::Gone);
        assert_eq!(file_href(root, "missing.css"), "/missing.css");
    }

    #[test]
    fn only_hashed_names_of_the_sites_own_files_resolve() {
        let dir = site();
        let root = dir.path().to_str().unwrap();
        let name = bundle_name(root, "assay-annotate");
        let hash = name.strip_prefix("assay-annotate-").unwrap();
        for path in ["/assay.css", "/pkg/assay-annotate.js", "/favicon.ico", "/work/abc-def", "/pkg/assay-annotate-XYZ.js"] {
            assert_eq!(resolve(root, path), Hashed::Plain, "{path}");
        }
        for path in [
            format!("/pkg/../pkg/assay-annotate-{hash}.js"),
            format!("/pkg/sub/assay-annotate-{hash}.js"),
            format!("/pkg/assay-annotate-{hash}.css"),
            format!("/assay-annotate-{hash}.js"),
            format!("/../assay-{hash}.css"),
        ] {
            assert_eq!(resolve(root, &path), Hashed::Gone, "{path}");
        }
    }
}
