//! Upgrading the databases of past releases with the current code. Each release leaves a
//! fixture folder, tests/fixtures/release-YYYY-MM (the first: release-2026-11): a SQLite file
//! and a PostgreSQL dump made by that release's binary, and `expected.json` with what that
//! binary reported about them (see the folder's README.md). Every such folder is checked.
//!
//! Per engine: the fixture goes into a fresh database (a copy of the file; the dump loaded with
//! psql), the current code opens it (`app::db::connect`, which runs the migrations forward),
//! and then:
//! - every migration embedded now is applied, including the release's own (sqlx also refuses
//!   to start if a released migration's text has changed since: its checksum is kept);
//! - every table of the release has the rows it had;
//! - the judgments hash to the same digest over the columns the release had;
//! - `assay analyze --campaign` (the current binary) gives the release's system scores, raw
//!   and z, and the number of judgments behind each;
//! - the current server answers the results API with the release's API token and the same
//!   scores, and verifies the release's completion codes.
//!
//! Only what the release had is compared, so later migrations may add tables, columns and rows
//! of their own. A change of the analysis itself that moves scores on purpose must update
//! expected.json (by re-running make.sh with the release binary is not enough: the release's
//! numbers are what they are; edit the `analyze`/`results_api` entries and say why).

use assay_tests::*;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The release fixtures: tests/fixtures/release-* folders with an expected.json.
fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("release-")) && p.join("expected.json").exists())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no release fixture under {}", dir.display());
    found
}

/// expected.json's facts about one engine's database (`sqlite` or `postgres`).
fn expected(fixture: &Path, engine: &str) -> Value {
    let path = fixture.join("expected.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let all: Value = serde_json::from_str(&text).expect("expected.json is JSON");
    let facts = all[engine].clone();
    assert!(facts.is_object(), "expected.json has no {engine:?} section");
    facts
}

/// The versions of the migrations this code embeds (the numbered files of migrations/sqlite,
/// which tests/tests/it/migrations.rs checks are paired and embedded).
fn embedded_versions() -> Vec<i64> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../migrations/sqlite");
    let mut v: Vec<i64> = std::fs::read_dir(&dir)
        .expect("migrations/sqlite")
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next()?.parse().ok())
        .collect();
    v.sort();
    v
}

/// A table or column name from expected.json, checked to be a plain identifier before it goes
/// into SQL.
fn identifier(name: &str) -> &str {
    assert!(
        !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
        "expected.json names {name:?}, which is not a plain identifier"
    );
    name
}

/// A value as make.py writes it into a digest line.
fn digest_value(row: &sqlx::any::AnyRow, column: &str) -> String {
    if let Ok(v) = row.try_get::<Option<i64>, _>(column) {
        return v.map_or("NULL".into(), |v| v.to_string());
    }
    if let Ok(v) = row.try_get::<Option<f64>, _>(column) {
        return v.map_or("NULL".into(), |v| format!("{v:.6}"));
    }
    row.try_get::<Option<String>, _>(column).unwrap_or_else(|e| panic!("judgments.{column}: {e}")).unwrap_or_else(|| "NULL".into())
}

/// SHA-256 of the judgments' lines `id,…` over `columns`, sorted by id, joined by newlines.
async fn judgments_digest(pool: &sqlx::AnyPool, columns: &[String]) -> (String, usize) {
    let sql = format!("SELECT {} FROM judgments", columns.iter().map(|c| identifier(c)).collect::<Vec<_>>().join(", "));
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await.expect("judgments");
    let mut lines: Vec<(i64, String)> = rows
        .iter()
        .map(|r| (r.get::<i64, _>("id"), columns.iter().map(|c| digest_value(r, c)).collect::<Vec<_>>().join(",")))
        .collect();
    lines.sort();
    let text = lines.iter().map(|(_, l)| l.as_str()).collect::<Vec<_>>().join("\n");
    (format!("{:x}", Sha256::digest(text.as_bytes())), lines.len())
}

/// Scores in expected.json's shape: {"TASK LP": {system: {raw, z, n}}}.
type Scores = BTreeMap<String, BTreeMap<String, (f64, f64, i64)>>;

fn scores_from_expected(v: &Value) -> Scores {
    v.as_object()
        .expect("scores")
        .iter()
        .map(|(group, systems)| {
            let systems = systems
                .as_object()
                .expect("systems")
                .iter()
                .map(|(name, s)| (name.clone(), (s["raw"].as_f64().unwrap(), s["z"].as_f64().unwrap(), s["n"].as_i64().unwrap())))
                .collect();
            (group.clone(), systems)
        })
        .collect()
}

/// What differs between the release's scores and the current ones ("" when nothing does).
fn compare_scores(what: &str, want: &Scores, got: &Scores) -> String {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
    let mut out = String::new();
    if want.keys().collect::<Vec<_>>() != got.keys().collect::<Vec<_>>() {
        out.push_str(&format!("{what}: groups {:?}, the release had {:?}\n", got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>()));
    }
    for (group, systems) in want {
        let Some(now) = got.get(group) else { continue };
        if systems.keys().collect::<Vec<_>>() != now.keys().collect::<Vec<_>>() {
            out.push_str(&format!("{what} {group}: systems {:?}, the release had {:?}\n", now.keys().collect::<Vec<_>>(), systems.keys().collect::<Vec<_>>()));
        }
        for (name, &(raw, z, n)) in systems {
            let Some(&(raw2, z2, n2)) = now.get(name) else { continue };
            if !close(raw, raw2) || !close(z, z2) || n != n2 {
                out.push_str(&format!("{what} {group} {name}: raw {raw2}, z {z2}, n {n2}; the release had raw {raw}, z {z}, n {n}\n"));
            }
        }
    }
    out
}

/// `assay analyze`'s analysis.json reduced to [`Scores`] (the same reduction as make.py's).
fn analysis_scores(analysis: &Value) -> Scores {
    let r = &analysis["result"];
    let name = |kind: &str, i: &Value| r["names"][kind][i.as_u64().expect("an index") as usize].as_str().expect("a name").to_string();
    let mut out = Scores::new();
    for g in r["groups"].as_array().expect("groups") {
        let systems = g["systems"]
            .as_array()
            .expect("systems")
            .iter()
            .map(|s| (name("systems", &s["system"]), (s["raw"].as_f64().unwrap(), s["z"].as_f64().unwrap(), s["n_judgments"].as_i64().unwrap())))
            .collect();
        out.insert(format!("{} {}", name("tasks", &g["task"]), name("lang_pairs", &g["lang_pair"])), systems);
    }
    out
}

/// The results API's answer reduced to [`Scores`].
fn api_scores(results: &Value) -> Scores {
    let mut out = Scores::new();
    for g in results["groups"].as_array().expect("groups") {
        let systems = g["systems"]
            .as_array()
            .expect("systems")
            .iter()
            .map(|s| (s["name"].as_str().unwrap().to_string(), (s["raw"].as_f64().unwrap(), s["z"].as_f64().unwrap(), s["n"].as_i64().unwrap())))
            .collect();
        out.insert(format!("{} {}", g["task"].as_str().unwrap(), g["lang_pair"].as_str().unwrap()), systems);
    }
    out
}

/// Every check on a database that holds the release's data, not yet opened by the current code.
async fn check_upgrade(fixture: &Path, engine: &str, data_dir: tempfile::TempDir, database_url: String) {
    let want = expected(fixture, engine);
    let mut problems = String::new();

    // The current code opens the release's database: the migrations run forward.
    let db = app::db::connect(&database_url).await.unwrap_or_else(|e| panic!("{engine}: the current code cannot open the release's database: {e}"));
    let applied: Vec<i64> = sqlx::query("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
        .fetch_all(&db.pool)
        .await
        .expect("_sqlx_migrations")
        .iter()
        .map(|r| r.get("version"))
        .collect();
    let released: Vec<i64> = want["migrations"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(applied, embedded_versions(), "{engine}: applied migrations after the upgrade (the release had {released:?})");
    assert!(released.iter().all(|v| applied.contains(v)), "{engine}: a migration of the release is gone: {released:?} → {applied:?}");

    // Row counts of the release's tables.
    for (table, count) in want["row_counts"].as_object().unwrap() {
        let n: i64 = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) AS n FROM {}", identifier(table))))
            .fetch_one(&db.pool)
            .await
            .unwrap_or_else(|e| panic!("{engine}: counting {table}: {e}"))
            .get("n");
        if Some(n) != count.as_i64() {
            problems.push_str(&format!("{engine}: {table} has {n} rows, the release had {count}\n"));
        }
    }

    // The judgments, digested over the release's columns.
    let d = &want["judgments_digest"];
    let columns: Vec<String> = d["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let (digest, rows) = judgments_digest(&db.pool, &columns).await;
    if digest != d["sha256"].as_str().unwrap() || Some(rows as i64) != d["rows"].as_i64() {
        problems.push_str(&format!("{engine}: the judgments ({rows} rows over {columns:?}) digest to {digest}, the release's to {} ({} rows)\n", d["sha256"], d["rows"]));
    }
    // A completion code with the ids its worker presents it with (required since issue 38).
    let code: Option<(String, Vec<(&str, String)>)> = sqlx::query(
        "SELECT a.completion_code, w.platform, w.external_id, a.platform_params FROM assignments a JOIN workers w ON w.id = a.worker_id \
         WHERE a.completion_code IS NOT NULL ORDER BY a.id LIMIT 1",
    )
    .fetch_optional(&db.pool)
    .await
    .expect("a completion code")
    .map(|r| {
        let platform: String = r.get("platform");
        let worker: String = r.get("external_id");
        let params: Value = r.get::<Option<String>, _>("platform_params").and_then(|p| serde_json::from_str(&p).ok()).unwrap_or(Value::Null);
        let param = |k: &str| params[k].as_str().map(str::to_string);
        let ids = match platform.as_str() {
            "mturk" => [("workerId", Some(worker)), ("assignmentId", param("assignmentId"))].into_iter().filter_map(|(k, v)| Some((k, v?))).collect(),
            "prolific" => [("PROLIFIC_PID", Some(worker)), ("SESSION_ID", param("SESSION_ID"))].into_iter().filter_map(|(k, v)| Some((k, v?))).collect(),
            _ => vec![("worker", worker)],
        };
        (r.get("completion_code"), ids)
    });
    db.pool.close().await;
    db.writer.close().await;

    // The system scores, as `assay analyze --campaign` gives them.
    for a in want["analyze"].as_array().unwrap() {
        let campaign = a["campaign"].as_i64().unwrap().to_string();
        let args: Vec<&str> = a["args"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let out = data_dir.path().join(format!("analysis-{campaign}-{}", args.join("")));
        let run = Command::new(assay_bin())
            .args(["analyze", "--campaign", &campaign, "--out"])
            .arg(&out)
            .args(&args)
            .env("DATABASE_URL", &database_url)
            .env("ASSAY_DATA_DIR", data_dir.path())
            .env("ASSAY_LOG", "warn")
            .output()
            .expect("assay analyze");
        assert!(run.status.success(), "{engine}: assay analyze --campaign {campaign} {args:?}: {}", String::from_utf8_lossy(&run.stderr));
        let analysis: Value = serde_json::from_str(&std::fs::read_to_string(out.join("analysis.json")).expect("analysis.json")).expect("JSON");
        problems.push_str(&compare_scores(
            &format!("{engine}: assay analyze --campaign {campaign} {}", args.join(" ")),
            &scores_from_expected(&a["scores"]),
            &analysis_scores(&analysis),
        ));
    }

    // The current server on the upgraded database: the release's token reads the results API,
    // with the release's scores; the release's completion codes verify.
    let secret = want["secret_key"].as_str().unwrap().to_string();
    let server = TestServer::start_at(data_dir, database_url, &[("ASSAY_SECRET_KEY", &secret)], false).await;
    let token = want["api_token"].as_str().unwrap();
    let client = reqwest::Client::new();
    for r in want["results_api"].as_array().unwrap() {
        let campaign = r["campaign"].as_i64().unwrap();
        let answer = client.get(format!("{}/api/v1/campaigns/{campaign}/results", server.base)).bearer_auth(token).send().await.expect("results API");
        let status = answer.status().as_u16();
        let body = answer.text().await.unwrap_or_default();
        if status != 200 {
            problems.push_str(&format!("{engine}: GET /api/v1/campaigns/{campaign}/results with the release's token: {status} {body}\n"));
            continue;
        }
        let results: Value = serde_json::from_str(&body).expect("results JSON");
        problems.push_str(&compare_scores(&format!("{engine}: results API, campaign {campaign}"), &scores_from_expected(&r["scores"]), &api_scores(&results)));
    }
    let (code, ids) = code.unwrap_or_else(|| panic!("{engine}: the fixture has no completion code"));
    let check: Value = client
        .get(format!("{}/api/verify_completion_code", server.base))
        .query(&[("code", &code)])
        .query(&ids)
        .send()
        .await
        .expect("verify_completion_code")
        .json()
        .await
        .expect("JSON");
    if check["valid"] != true {
        problems.push_str(&format!("{engine}: the release's completion code {code} does not verify: {check}\n"));
    }

    assert!(problems.is_empty(), "\nUpgrading the database of {}:\n{problems}", fixture.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_releases_sqlite_databases_upgrade() {
    for fixture in fixtures() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = fresh_database_url(Backend::Sqlite, dir.path()).expect("sqlite url");
        std::fs::copy(fixture.join("assay.sqlite"), dir.path().join("assay.db")).expect("copy the SQLite fixture");
        check_upgrade(&fixture, "sqlite", dir, url).await;
    }
}

/// psql: on the PATH or in Debian's versioned folder.
fn psql() -> PathBuf {
    if Command::new("psql").arg("--version").stdout(Stdio::null()).status().is_ok_and(|s| s.success()) {
        return PathBuf::from("psql");
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| d.filter_map(|e| Some(e.ok()?.path().join("bin/psql"))).filter(|p| p.exists()).collect())
        .unwrap_or_default();
    found.sort();
    found.pop().expect("psql is needed to load the PostgreSQL dump (apt-get install postgresql-client)")
}

fn load_dump(url: &str, dump: &Path) {
    let out = Command::new(psql())
        .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f"])
        .arg(dump)
        .stdout(Stdio::null())
        .output()
        .expect("run psql");
    assert!(out.status.success(), "loading {} with psql failed: {}", dump.display(), String::from_utf8_lossy(&out.stderr));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_releases_postgres_databases_upgrade() {
    for fixture in fixtures() {
        let dir = tempfile::tempdir().expect("temp dir");
        let Some(url) = fresh_database_url(Backend::Postgres, dir.path()) else { return };
        sqlx::any::install_default_drivers();
        {
            use sqlx::migrate::MigrateDatabase;
            sqlx::Any::create_database(&url).await.expect("create the database");
        }
        load_dump(&url, &fixture.join("assay.pg.sql"));
        check_upgrade(&fixture, "postgres", dir, url).await;
    }
}

#[test]
fn the_fixtures_are_small() {
    for fixture in fixtures() {
        for file in ["assay.sqlite", "assay.pg.sql"] {
            let path = fixture.join(file);
            let len = std::fs::metadata(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).len();
            assert!(len < 1 << 20, "{} is {len} bytes: keep release fixtures under 1 MB", path.display());
        }
    }
}
