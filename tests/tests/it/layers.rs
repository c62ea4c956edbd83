//! The layer rules of ARCHITECTURE.md, checked on the source: no import circle among the app's
//! modules, and no web, database or async-runtime crate beneath the pure core.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules of `app/src` (folders and files, `lib.rs` aside) and, for each, the
/// other top-level modules its code names as `crate::NAME`.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = root().join("app/src");
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name == "lib" {
            continue;
        }
        let mut files = Vec::new();
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        } else {
            continue;
        }
        modules.insert(name, files);
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    modules
        .into_iter()
        .map(|(name, files)| {
            let mut uses = BTreeSet::new();
            for file in files {
                // Code only: a comment that names a module is no dependency.
                let text: String = std::fs::read_to_string(&file)
                    .unwrap()
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                for (i, _) in text.match_indices("crate::") {
                    let rest = &text[i + "crate::".len()..];
                    let used: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if used != name && names.contains(&used) {
                        uses.insert(used);
                    }
                }
            }
            (name, uses)
        })
        .collect()
}

/// A circle in the graph, if there is one (depth-first search).
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_app_modules_have_no_import_circle() {
    let graph = module_graph();
    assert!(graph.len() > 8, "the app's modules were not found: {graph:?}");
    if let Some(circle) = find_circle(&graph) {
        let edges: Vec<String> = graph.iter().map(|(m, uses)| format!("  {m} -> {}", uses.iter().cloned().collect::<Vec<_>>().join(" "))).collect();
        panic!("import circle: {}\nthe modules and what they use:\n{}", circle.join(" -> "), edges.join("\n"));
    }
    // The frame routes every page family; nothing imports it. The leaves import nothing.
    for (m, uses) in &graph {
        assert!(!uses.contains("ui"), "{m} imports the frame (ui)");
    }
    for leaf in ["db", "signing", "resource"] {
        assert_eq!(graph[leaf], BTreeSet::new(), "{leaf} is a leaf");
    }
    assert_eq!(graph["state"], BTreeSet::from(["db".to_string()]), "state depends on the database alone");
}

#[test]
fn the_circle_finder_finds_circles() {
    let edge = |a: &str, b: &[&str]| (a.to_string(), b.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    let acyclic = BTreeMap::from([edge("a", &["b", "c"]), edge("b", &["c"]), edge("c", &[])]);
    assert_eq!(find_circle(&acyclic), None);
    let circular = BTreeMap::from([edge("a", &["b"]), edge("b", &["c"]), edge("c", &["a"])]);
    assert_eq!(find_circle(&circular), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}

/// Every crate the pure core crates depend on (normal dependencies, transitively).
fn dependencies_of(package: &str) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root())
        .args(["tree", "--offline", "-p", package, "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn the_pure_core_has_no_web_database_or_runtime_dependency() {
    for package in ["assay-core", "assay-stats"] {
        let deps = dependencies_of(package);
        assert!(deps.contains(package), "cargo tree did not list {package}: {deps:?}");
        for forbidden in ["leptos", "axum", "sqlx", "tokio", "hyper", "wasm-bindgen"] {
            assert!(!deps.iter().any(|d| d == forbidden || d.starts_with(&format!("{forbidden}-")) || d.starts_with(&format!("{forbidden}_"))), "{package} depends on {forbidden}: {deps:?}");
        }
    }
}
