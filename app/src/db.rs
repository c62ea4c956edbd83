//! The database: SQLite (a file, WAL mode) by default, PostgreSQL when `DATABASE_URL` says so.
//!
//! Both are reached through sqlx's `Any` driver, so every query is written once. The rules that
//! make that work: integers are BIGINT (i64), reals DOUBLE PRECISION / REAL (f64), flags are
//! integers 0/1, times are Unix milliseconds, and placeholders are `$1, $2, …` (SQLite accepts
//! them too). Migrations differ only in DDL and live in `migrations/sqlite` and
//! `migrations/postgres`; both are embedded in the binary and run at start.

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, ConnectOptions, Executor, SqlSafeStr};
use std::borrow::Cow;
use std::str::FromStr;
use std::time::Duration;

/// Which database engine a pool talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A connection pool and the engine behind it.
#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub backend: Backend,
}

/// The migrations, embedded: (version, description, SQLite DDL, PostgreSQL DDL).
/// Add a pair of files under `migrations/` and a line here.
const MIGRATIONS: &[(i64, &str, &str, &str)] = &[
    (
        1,
        "accounts",
        include_str!("../../migrations/sqlite/0001_accounts.sql"),
        include_str!("../../migrations/postgres/0001_accounts.sql"),
    ),
    (
        2,
        "campaigns",
        include_str!("../../migrations/sqlite/0002_campaigns.sql"),
        include_str!("../../migrations/postgres/0002_campaigns.sql"),
    ),
    (
        3,
        "api tokens",
        include_str!("../../migrations/sqlite/0003_api_tokens.sql"),
        include_str!("../../migrations/postgres/0003_api_tokens.sql"),
    ),
    (
        4,
        "worker decisions",
        include_str!("../../migrations/sqlite/0004_worker_decisions.sql"),
        include_str!("../../migrations/postgres/0004_worker_decisions.sql"),
    ),
    (
        5,
        "studies",
        include_str!("../../migrations/sqlite/0005_studies.sql"),
        include_str!("../../migrations/postgres/0005_studies.sql"),
    ),
];

fn migrator(backend: Backend) -> Migrator {
    Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sqlite, postgres)| {
                let sql = match backend {
                    Backend::Sqlite => sqlite,
                    Backend::Postgres => postgres,
                };
                Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, sql.into_sql_str(), false)
            })
            .collect(),
    )
}

impl Backend {
    /// The engine a `DATABASE_URL` names.
    pub fn of_url(url: &str) -> Result<Backend, String> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else {
            Err(format!(
                "DATABASE_URL must start with sqlite: or postgres:// (got {:?})",
                url.split(':').next().unwrap_or_default()
            ))
        }
    }
}

/// Connects, applies the engine's settings and runs the migrations.
pub async fn connect(url: &str) -> Result<Db, String> {
    sqlx::any::install_default_drivers();
    let backend = Backend::of_url(url)?;
    let options = AnyConnectOptions::from_str(url)
        .map_err(|e| format!("invalid DATABASE_URL: {e}"))?
        .disable_statement_logging();
    if backend == Backend::Postgres {
        use sqlx::migrate::MigrateDatabase;
        // A deployment (or a test run) may name a database that does not exist yet.
        if !sqlx::Any::database_exists(url).await.map_err(|e| format!("cannot reach PostgreSQL: {e}"))? {
            sqlx::Any::create_database(url).await.map_err(|e| format!("cannot create the database: {e}"))?;
        }
    }
    let pool = match backend {
        Backend::Sqlite => {
            AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(30))
                .after_connect(|conn, _meta| {
                    Box::pin(async move {
                        // Per-connection settings. WAL itself is a property of the file (below).
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // In WAL mode NORMAL is durable across a crash of the process; only a
                        // power loss can lose the last transactions.
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await
        }
        Backend::Postgres => {
            AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(30))
                .connect_with(options)
                .await
        }
    }
    .map_err(|e| format!("cannot open the database: {e}"))?;

    if backend == Backend::Sqlite {
        pool.execute("PRAGMA journal_mode = WAL")
            .await
            .map_err(|e| format!("cannot switch SQLite to WAL mode: {e}"))?;
    }
    migrator(backend)
        .run(&pool)
        .await
        .map_err(|e| format!("database migration failed: {e}"))?;
    Ok(Db { pool, backend })
}

/// Milliseconds since the Unix epoch: the one time format of the database.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
