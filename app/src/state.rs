//! What every request handler shares: the database, the signing key and the settings. (The
//! annotation cache, `annotate::server::Work`, is a request extension of its own, so that this
//! module depends on the database alone.)

use crate::db::Db;
use std::sync::Arc;

/// Settings that change how the server behaves towards browsers.
#[derive(Clone, Debug)]
pub struct ServerSettings {
    /// Mark cookies `Secure` (set when Assay is served over HTTPS).
    pub secure_cookies: bool,
    /// The address people use to reach Assay (for links in invitations), e.g. `http://127.0.0.1:3000`.
    pub public_url: String,
    /// Failed logins for an account from one client address in the throttle window before that
    /// address is throttled for that account (others can still sign in to it).
    pub max_failures_per_account: i64,
    /// Failed logins for an account from every address together before the account is throttled
    /// for everyone (a slower limit, against guessing from many addresses).
    pub max_failures_per_account_everywhere: i64,
    /// Failed logins per client address in the throttle window before the address is throttled.
    pub max_failures_per_address: i64,
    /// Length of the throttle window in milliseconds.
    pub throttle_window_ms: i64,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            secure_cookies: false,
            public_url: "http://127.0.0.1:3000".into(),
            max_failures_per_account: 5,
            max_failures_per_account_everywhere: 50,
            max_failures_per_address: 20,
            throttle_window_ms: 15 * 60 * 1000,
        }
    }
}

/// Shared by every request (cheap to clone).
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    /// Key for HMAC signatures (crowd links, completion codes). Never leaves the server.
    pub secret: Arc<[u8]>,
    pub settings: Arc<ServerSettings>,
}
