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
    /// Whether `public_url` was configured (`--public-url`, `ASSAY_PUBLIC_URL`) rather than made
    /// up from the listening address. When it was, a state-changing request must come from its
    /// origin (the CSRF check); when not, from the request's own `Host`.
    pub public_url_configured: bool,
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
    /// Sign-in attempts one client address may make per minute (right or wrong, all at once
    /// or spread), counted in memory before the database's throttle is asked.
    pub sign_ins_per_minute: u32,
    /// Arrivals by crowd links that claim new work (a worker id, or a platform session of a
    /// known worker, new to the campaign) one client address may make per hour, counted in
    /// memory; returning to work already claimed is not counted.
    pub crowd_claims_per_hour: u32,
    /// Assignments of one campaign that crowd arrivals from one client address may hold at once
    /// with no answer given yet; more claims are refused until one is started or released
    /// (`assignments.client_tag`, counted in the database: it holds across app servers).
    pub crowd_holds_per_address: u32,
}

impl Default for ServerSettings {
    fn default() -> Self {
        ServerSettings {
            secure_cookies: false,
            public_url: "http://127.0.0.1:3000".into(),
            public_url_configured: false,
            max_failures_per_account: 5,
            max_failures_per_account_everywhere: 50,
            max_failures_per_address: 20,
            throttle_window_ms: 15 * 60 * 1000,
            sign_ins_per_minute: 60,
            crowd_claims_per_hour: 30,
            crowd_holds_per_address: 10,
        }
    }
}

impl ServerSettings {
    /// The origin (`scheme://host[:port]`, lower case, without a default port) that
    /// state-changing requests must come from: the configured public URL's, or None when no
    /// public URL was configured.
    pub fn trusted_origin(&self) -> Option<String> {
        if self.public_url_configured { origin_of(&self.public_url) } else { None }
    }

    /// Whether Assay is served over HTTPS (the public URL says so): cookies are `Secure` and
    /// browsers are told to keep to HTTPS (`Strict-Transport-Security`).
    pub fn https(&self) -> bool {
        self.public_url.trim().to_ascii_lowercase().starts_with("https://")
    }
}

/// The origin of a URL, as a browser's `Origin` header writes it: `scheme://host[:port]` in lower
/// case, the scheme's default port left out; None for a URL without a scheme or a host.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest).to_ascii_lowercase();
    // No credentials in an origin.
    let authority = authority.rsplit('@').next().unwrap_or(&authority).to_string();
    if authority.is_empty() || scheme.is_empty() {
        return None;
    }
    let authority = match (scheme.as_str(), authority.rsplit_once(':')) {
        ("https", Some((host, "443"))) | ("http", Some((host, "80"))) => host.to_string(),
        _ => authority,
    };
    Some(format!("{scheme}://{authority}"))
}

/// Shared by every request (cheap to clone).
#[derive(Clone, Debug)]
pub struct AppState {
    pub db: Db,
    /// Key for HMAC signatures (crowd links, completion codes). Never leaves the server.
    pub secret: Arc<[u8]>,
    pub settings: Arc<ServerSettings>,
}
