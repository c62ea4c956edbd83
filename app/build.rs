//! Embeds the migrations: every `migrations/sqlite/NNNN_name.sql` with its twin under
//! `migrations/postgres/`, in version order, as `sqlx::migrate!` does from one directory (the
//! description is the name after the version, underscores read as spaces). Adding a migration
//! is adding its pair of files; a file without its twin, a name without a version, or a gap in
//! the versions stops the build with the file named.

use std::path::{Path, PathBuf};

fn sql_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    names
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR")).join("..").join("migrations");
    let (sqlite_dir, postgres_dir) = (root.join("sqlite"), root.join("postgres"));
    println!("cargo:rerun-if-changed={}", sqlite_dir.display());
    println!("cargo:rerun-if-changed={}", postgres_dir.display());
    let sqlite = sql_files(&sqlite_dir);
    let postgres = sql_files(&postgres_dir);
    for (mine, theirs, other) in [(&sqlite, &postgres, "postgres"), (&postgres, &sqlite, "sqlite")] {
        if let Some(lonely) = mine.iter().find(|f| !theirs.contains(f)) {
            panic!("migration {lonely} has no twin: add migrations/{other}/{lonely} (every migration comes as a SQLite and a PostgreSQL file of the same name)");
        }
    }
    let mut out = String::from("&[\n");
    for (i, file) in sqlite.iter().enumerate() {
        let stem = file.trim_end_matches(".sql");
        let (version, name) = stem.split_once('_').unwrap_or_else(|| panic!("migrations/sqlite/{file}: the name must be NNNN_description.sql"));
        let version: i64 = version.parse().unwrap_or_else(|_| panic!("migrations/sqlite/{file}: the name must start with a version number"));
        assert_eq!(version, i as i64 + 1, "migrations/sqlite/{file}: versions must be 1, 2, 3, … without gaps or repeats");
        let description = name.replace('_', " ");
        let s = sqlite_dir.join(file);
        let p = postgres_dir.join(file);
        out.push_str(&format!(
            "    ({version}, {description:?}, include_str!({:?}), include_str!({:?})),\n",
            s.display().to_string(),
            p.display().to_string()
        ));
    }
    out.push_str("]\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("migrations.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}
