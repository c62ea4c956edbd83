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
    /// origin (the CSRF check); when not, from the listening address's ([`Self::trusted_origins`]).
    pub public_url_configured: bool,
    /// Failed sign-ins for an account from one client address in the throttle window before
    /// attempts from that address for that account are slowed (others can still sign in to it):
    /// the next waits [`Self::slow_delay_ms`] after the last failure, twice as long after each
    /// failure more, at most the throttle window.
    pub max_failures_per_account: i64,
    /// Failed sign-ins for an account from every address together before every attempt on the
    /// account is slowed (against guessing from many addresses): a second more per failure
    /// beyond, after the account's last failure, at most [`Self::account_delay_cap_ms`]. Slowed,
    /// never locked: the right password from a new address gets in after at most that wait.
    pub max_failures_per_account_everywhere: i64,
    /// The longest wait the failures of an account from everywhere impose.
    pub account_delay_cap_ms: i64,
    /// Failed sign-ins per client address (any account) in the throttle window before that
    /// address is slowed, as for one account from one address.
    pub max_failures_per_address: i64,
    /// The first wait of a slowed address (then doubling).
    pub slow_delay_ms: i64,
    /// Length of the throttle window in milliseconds: older failures are not counted.
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
            account_delay_cap_ms: 30_000,
            max_failures_per_address: 20,
            slow_delay_ms: 15_000,
            throttle_window_ms: 15 * 60 * 1000,
            sign_ins_per_minute: 60,
            crowd_claims_per_hour: 30,
            crowd_holds_per_address: 10,
        }
    }
}

impl ServerSettings {
    /// The origins (`scheme://host[:port]`, lower case, without a default port) that
    /// state-changing requests must come from: the configured public URL's; when none was
    /// configured, the listening address's (`http://BIND`), and for a loopback or wildcard bind
    /// its loopback equivalents (`localhost`, `127.0.0.1`, `[::1]` on the same port). Never the
    /// request's own `Host`, which the client writes.
    pub fn trusted_origins(&self) -> Vec<String> {
        let Some(origin) = origin_of(&self.public_url) else { return Vec::new() };
        if self.public_url_configured {
            return vec![origin];
        }
        let Some((scheme, authority)) = origin.split_once("://") else { return vec![origin] };
        let (host, port) = split_host_port(authority);
        let ip = host.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>().ok();
        let loopback = host == "localhost" || ip.is_some_and(|ip| ip.is_loopback() || ip.is_unspecified());
        let mut origins = Vec::new();
        if !ip.is_some_and(|ip| ip.is_unspecified()) {
            origins.push(origin.clone());
        }
        if loopback {
            let port = port.map(|p| format!(":{p}")).unwrap_or_default();
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                let o = format!("{scheme}://{name}{port}");
                if !origins.contains(&o) {
                    origins.push(o);
                }
            }
        }
        origins
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

/// The host and the port of an authority (`host`, `host:port`, `[v6]`, `[v6]:port`).
fn split_host_port(authority: &str) -> (&str, Option<&str>) {
    if authority.starts_with('[') {
        match authority.split_once("]:") {
            Some((host, port)) => (&authority[..host.len() + 1], Some(port)),
            None => (authority, None),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
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
