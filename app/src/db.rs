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

/// The connection pools and the engine behind them.
///
/// Every write goes through `writer`. On SQLite that is a pool of one connection: the file has
/// one writer at a time, so writers queue here, in order, rather than in SQLite's busy handler
/// (which polls with sleeps of up to 100 ms). Answers to items reach it grouped, from a thread
/// of their own (`annotate::server::Work`). Reads use `pool` and run beside the writer (WAL).
/// On PostgreSQL both are the same pool: the database orders writers with row locks.
#[derive(Clone, Debug)]
pub struct Db {
    pub pool: AnyPool,
    pub writer: AnyPool,
    pub backend: Backend,
    /// SQLite only: the database file, which `analysis::db` opens read-only for the reads of a
    /// million rows (sqlx copies every value of every row; see `read_campaign_judgments`).
    pub sqlite_file: Option<std::path::PathBuf>,
    /// PostgreSQL only: a small pool of the engine's own driver (connected when first used) for
    /// the reads of a million rows, which sqlx's `Any` rows make three times slower
    /// (`analysis::db::read_campaign_judgments`).
    pub postgres: Option<sqlx::PgPool>,
    /// This process's number for the database connected to (one per [`connect`]): the caches of
    /// a campaign's figures are kept per database, so that two databases in one process (the
    /// tests) never share them.
    pub id: u64,
}

/// The migrations, embedded by `app/build.rs` from `migrations/`: (version, description, SQLite
/// DDL, PostgreSQL DDL), in version order. Adding a migration is adding its pair of files.
pub const MIGRATIONS: &[(i64, &str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// SQLite migrations that open their own transaction, because they rebuild a table with
/// foreign keys off (`PRAGMA foreign_keys` does nothing inside a transaction).
const SQLITE_OWN_TRANSACTION: &[i64] = &[7, 12];

fn migrator(backend: Backend) -> Migrator {
    Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, sqlite, postgres)| {
                let sql = match backend {
                    Backend::Sqlite => sqlite,
                    Backend::Postgres => postgres,
                };
                let own_transaction = backend == Backend::Sqlite && SQLITE_OWN_TRANSACTION.contains(&version);
                Migration::new(version, Cow::Borrowed(description), MigrationType::Simple, sql.into_sql_str(), own_transaction)
            })
            .collect(),
    )
}

/// Why the database could not be opened: what was being done, and the driver's error.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// `DATABASE_URL` names no engine Assay runs on.
    #[error("DATABASE_URL must start with sqlite: or postgres:// (got {scheme:?})")]
    Scheme { scheme: String },
    /// A step of opening failed: `doing` is "cannot open the database", "database migration
    /// failed", ….
    #[error("{doing}: {source}")]
    Failed { doing: &'static str, source: Box<dyn std::error::Error + Send + Sync> },
}

impl ConnectError {
    fn failed(doing: &'static str) -> impl Fn(sqlx::Error) -> ConnectError + Copy {
        move |e| ConnectError::Failed { doing, source: Box::new(e) }
    }
}

impl Backend {
    /// The engine a `DATABASE_URL` names.
    pub fn of_url(url: &str) -> Result<Backend, ConnectError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else {
            Err(ConnectError::Scheme { scheme: url.split(':').next().unwrap_or_default().to_string() })
        }
    }
}

/// Connects, applies the engine's settings and runs the migrations.
pub async fn connect(url: &str) -> Result<Db, ConnectError> {
    sqlx::any::install_default_drivers();
    let backend = Backend::of_url(url)?;
    let options = AnyConnectOptions::from_str(url)
        .map_err(ConnectError::failed("invalid DATABASE_URL"))?
        .disable_statement_logging();
    if backend == Backend::Postgres {
        use sqlx::migrate::MigrateDatabase;
        // A deployment (or a test run) may name a database that does not exist yet.
        if !sqlx::Any::database_exists(url).await.map_err(ConnectError::failed("cannot reach PostgreSQL"))? {
            sqlx::Any::create_database(url).await.map_err(ConnectError::failed("cannot create the database"))?;
        }
    }
    let opened = ConnectError::failed("cannot open the database");
    let (pool, writer) = match backend {
        Backend::Sqlite => {
            let sqlite = |connections: u32| {
                AnyPoolOptions::new()
                    .max_connections(connections)
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
            };
            let writer = sqlite(1).connect_with(options.clone()).await.map_err(opened)?;
            writer
                .execute("PRAGMA journal_mode = WAL")
                .await
                .map_err(ConnectError::failed("cannot switch SQLite to WAL mode"))?;
            (sqlite(8).connect_with(options).await.map_err(opened)?, writer)
        }
        Backend::Postgres => {
            let pool = AnyPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(30))
                .connect_with(options)
                .await
                .map_err(opened)?;
            (pool.clone(), pool)
        }
    };
    migrator(backend)
        .run(&writer)
        .await
        .map_err(|e| ConnectError::Failed { doing: "database migration failed", source: Box::new(e) })?;
    let sqlite_file = match backend {
        Backend::Sqlite => Some(
            sqlx::sqlite::SqliteConnectOptions::from_str(url).map_err(ConnectError::failed("invalid DATABASE_URL"))?.get_filename().to_path_buf(),
        ),
        Backend::Postgres => None,
    };
    let postgres = match backend {
        Backend::Sqlite => None,
        Backend::Postgres => Some(
            sqlx::postgres::PgPoolOptions::new()
                .max_connections(4)
                .min_connections(0)
                .acquire_timeout(Duration::from_secs(30))
                .idle_timeout(Duration::from_secs(60))
                // JIT compiling the judgment query took 165 ms of its 1.3 s, every time.
                .after_connect(|conn, _meta| {
                    Box::pin(async move {
                        conn.execute("SET jit = off").await?;
                        // The reads run in parts side by side already: no parallel workers
                        // competing with them for the cores.
                        conn.execute("SET max_parallel_workers_per_gather = 0").await?;
                        Ok(())
                    })
                })
                .connect_lazy_with(
                    sqlx::postgres::PgConnectOptions::from_str(url).map_err(ConnectError::failed("invalid DATABASE_URL"))?.disable_statement_logging(),
                ),
        ),
    };
    static CONNECTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let id = CONNECTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(Db { pool, writer, backend, sqlite_file, postgres, id })
}

/// A write that lost a race and may be tried again (or answered from what the winner stored):
/// a unique violation; on PostgreSQL a serialization failure or deadlock; on SQLite busy or
/// locked.
pub fn is_conflict(e: &sqlx::Error) -> bool {
    match e.as_database_error() {
        Some(d) => d.is_unique_violation() || matches!(d.code().as_deref(), Some("40001") | Some("40P01") | Some("5") | Some("6") | Some("517")),
        None => false,
    }
}

/// Milliseconds since the Unix epoch: the one time format of the database.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Gives the heap memory freed after a large read back to the system. A million stored
/// judgments take 144 MB while a campaign is analysed or exported; once they are dropped,
/// glibc keeps most of that memory in its arenas (a server that had analysed such a campaign
/// stayed at 217 MB resident, of which `malloc_trim` released 122 MB), so the next large read
/// came on top of it. Elsewhere than glibc, nothing to do.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` takes no pointer and only releases memory that is free.
    unsafe {
        libc::malloc_trim(0);
    }
}
