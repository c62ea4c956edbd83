//! Configuration from flags and environment variables, and opening what it names.

use crate::error::{CliError, CliResult};
use app::state::{AppState, ServerSettings};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(clap::Args, Clone, Debug)]
pub struct Config {
    /// Where Assay keeps its SQLite database and signing key.
    #[arg(long, env = "ASSAY_DATA_DIR", default_value = "assay-data", global = true)]
    pub data_dir: PathBuf,
    /// `sqlite:…` or `postgres://…`; default: a SQLite file in the data directory.
    #[arg(long, env = "DATABASE_URL", global = true)]
    pub database_url: Option<String>,
    /// Address and port to listen on.
    #[arg(long, env = "ASSAY_BIND", default_value = "127.0.0.1:3000", global = true)]
    pub bind: String,
    /// The address people use to reach Assay (for invitation links); default: http://BIND.
    #[arg(long, env = "ASSAY_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,
    /// Folder with the built site (the browser bundle under pkg/ and the stylesheet).
    #[arg(long, env = "LEPTOS_SITE_ROOT", default_value = "target/site", global = true)]
    pub site_root: String,
    /// Hex-encoded signing key; default: generated once and kept in the data directory. Give
    /// every app server the same key when several share one PostgreSQL database.
    #[arg(long, env = "ASSAY_SECRET_KEY", hide_env_values = true, global = true)]
    pub secret_key: Option<String>,
    /// Sign-in attempts one client address may make per minute (more are answered 429 before
    /// any password is checked).
    #[arg(long, env = "ASSAY_SIGN_INS_PER_MINUTE", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub sign_ins_per_minute: u32,
    /// Crowd-link arrivals that claim new work (a worker id or platform session new to the
    /// campaign) one client address may make per hour; more are told to come back later.
    #[arg(long, env = "ASSAY_CROWD_CLAIMS_PER_HOUR", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub crowd_claims_per_hour: u32,
    /// Assignments of one campaign that crowd arrivals from one client address may hold at once
    /// without having answered anything; further arrivals from it are told to start one first
    /// or to come back later.
    #[arg(long, env = "ASSAY_CROWD_HOLDS_PER_ADDRESS", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..), global = true)]
    pub crowd_holds_per_address: u32,
}

impl Config {
    pub fn database_url(&self) -> String {
        // An empty DATABASE_URL counts as unset.
        self.database_url.clone().filter(|u| !u.trim().is_empty()).unwrap_or_else(|| {
            let path = self.data_dir.join("assay.db");
            format!("sqlite://{}?mode=rwc", path.display())
        })
    }

    pub fn public_url(&self) -> String {
        self.public_url.clone().unwrap_or_else(|| format!("http://{}", self.bind))
    }

    /// Creates the data directory, opens (and migrates) the database, loads the signing key.
    pub async fn open_state(&self) -> CliResult<AppState> {
        std::fs::create_dir_all(&self.data_dir)
            .map_err(CliError::io(format!("create the data directory {}", self.data_dir.display())))?;
        let db = app::db::connect(&self.database_url()).await?;
        let secret = self.load_secret()?;
        let public_url = self.public_url();
        let settings = ServerSettings {
            secure_cookies: public_url.starts_with("https://"),
            public_url,
            public_url_configured: self.public_url.is_some(),
            sign_ins_per_minute: self.sign_ins_per_minute,
            crowd_claims_per_hour: self.crowd_claims_per_hour,
            crowd_holds_per_address: self.crowd_holds_per_address,
            ..ServerSettings::default()
        };
        Ok(AppState { db, secret: secret.into(), settings: Arc::new(settings) })
    }

    fn load_secret(&self) -> CliResult<Vec<u8>> {
        if let Some(hex) = &self.secret_key {
            return decode_hex(hex.trim())
                .filter(|k| k.len() >= 32)
                .ok_or_else(|| CliError::usage("ASSAY_SECRET_KEY must be at least 64 hexadecimal digits (32 bytes)"));
        }
        let path = self.data_dir.join("secret.key");
        match std::fs::read_to_string(&path) {
            Ok(text) => decode_hex(text.trim())
                .filter(|k| k.len() >= 32)
                .ok_or_else(|| CliError::input(&path, "not a valid key (64 hexadecimal digits)")),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key: [u8; 32] = rand::random();
                let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
                write_private(&path, &hex).map_err(CliError::io(format!("write {}", path.display())))?;
                tracing::info!("generated a new signing key in {}", path.display());
                Ok(key.to_vec())
            }
            Err(e) => Err(CliError::Open { path, source: e }),
        }
    }
}

fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_keys_decode_and_bad_ones_are_refused() {
        assert_eq!(decode_hex("00ff10"), Some(vec![0, 255, 16]));
        assert_eq!(decode_hex("0"), None);
        assert_eq!(decode_hex("zz"), None);
    }

    #[test]
    fn default_database_is_a_sqlite_file_in_the_data_dir() {
        let c = Config {
            data_dir: "/tmp/x".into(),
            database_url: None,
            bind: "127.0.0.1:3000".into(),
            public_url: None,
            site_root: "target/site".into(),
            secret_key: None,
            sign_ins_per_minute: 60,
            crowd_claims_per_hour: 30,
            crowd_holds_per_address: 10,
        };
        assert_eq!(c.database_url(), "sqlite:///tmp/x/assay.db?mode=rwc");
        assert_eq!(c.public_url(), "http://127.0.0.1:3000");
    }
}
