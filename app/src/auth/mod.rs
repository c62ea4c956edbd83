//! Accounts and roles: who may do what.
//!
//! `Role` and `UserInfo` travel to the browser; `server` (SSR only) holds passwords, sessions,
//! login throttling and CSRF checks; `tokens` the personal API tokens. The pages and server
//! functions of accounts are in `crate::accounts`, above the web layer.

#[cfg(feature = "ssr")]
pub mod server;
#[cfg(feature = "ssr")]
pub mod teams;
#[cfg(feature = "ssr")]
pub mod tokens;

use serde::{Deserialize, Serialize};

/// What an account may do, from least to most. A role includes the powers of those below it:
/// a researcher reads results, an organizer also runs campaigns, an admin also manages accounts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Role {
    Annotator,
    Researcher,
    Organizer,
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Annotator, Role::Researcher, Role::Organizer, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Annotator => "annotator",
            Role::Researcher => "researcher",
            Role::Organizer => "organizer",
            Role::Admin => "admin",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s.trim())
    }

    pub fn label(self) -> &'static str {
        match self {
            Role::Annotator => "Annotator",
            Role::Researcher => "Researcher",
            Role::Organizer => "Organizer",
            Role::Admin => "Administrator",
        }
    }
}

/// The signed-in account as the pages see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
}

/// The signed-in account with the header's words: in the browser's language for an annotator
/// (as the annotator's pages are), in English for the other roles (their pages are English).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedIn {
    #[serde(flatten)]
    pub user: UserInfo,
    pub words: HeaderWords,
}

/// The header's words and the BCP 47 tag and direction of their language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderWords {
    pub tag: String,
    pub dir: String,
    pub role: String,
    pub sign_out: String,
}

impl HeaderWords {
    pub fn of(role: Role, lang: assay_core::i18n::Lang) -> HeaderWords {
        use assay_core::i18n::{Lang, Text};
        let lang = if role == Role::Annotator { lang } else { Lang::default() };
        HeaderWords {
            tag: lang.tag().to_string(),
            dir: lang.dir().to_string(),
            role: if role == Role::Annotator { lang.text(Text::HomeRole).to_string() } else { role.label().to_string() },
            sign_out: lang.text(Text::SignOut).to_string(),
        }
    }
}

/// An account as the admin's accounts page lists it: who, whether it is disabled, and its failed
/// sign-ins in the throttle window (which slow further attempts; the admin may clear them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    #[serde(flatten)]
    pub user: UserInfo,
    pub disabled: bool,
    pub failed_sign_ins: i64,
}

/// A team with its members, as the admin's teams page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub id: i64,
    pub name: String,
    pub members: Vec<TeamMember>,
}

/// A member of a team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMember {
    pub user_id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
}

/// What a personal API token may do, chosen when it is made (issue 36). Every token reads (the
/// GET routes of the API and the downloads); each upload is a scope of its own. The one check is
/// `web::api_caller`, which every token-authenticated route calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TokenScope {
    /// `GET` on the API and the downloads (every token).
    Read,
    /// `POST /api/v1/campaigns/{id}/metrics`: metric scores for a campaign.
    MetricsUpload,
    /// `POST /api/v1/test-sets/{id}/gold`: a test set's gold orders (organizers and up).
    GoldUpload,
}

impl TokenScope {
    pub const ALL: [TokenScope; 3] = [TokenScope::Read, TokenScope::MetricsUpload, TokenScope::GoldUpload];

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenScope::Read => "read",
            TokenScope::MetricsUpload => "metrics-upload",
            TokenScope::GoldUpload => "gold-upload",
        }
    }

    pub fn parse(s: &str) -> Option<TokenScope> {
        TokenScope::ALL.into_iter().find(|x| x.as_str() == s.trim())
    }

    /// What it allows, for the token page and refusals.
    pub fn label(self) -> &'static str {
        match self {
            TokenScope::Read => "read results and exports",
            TokenScope::MetricsUpload => "upload metric scores",
            TokenScope::GoldUpload => "upload gold orders",
        }
    }

    /// The least role whose token may have it (the route checks the owner's role again at each
    /// request).
    pub fn min_role(self) -> Role {
        match self {
            TokenScope::Read | TokenScope::MetricsUpload => Role::Researcher,
            TokenScope::GoldUpload => Role::Organizer,
        }
    }
}

/// A token's scopes, in the order of [`TokenScope::ALL`], `read` always among them; stored as
/// their names separated by spaces.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenScopes(pub Vec<TokenScope>);

impl TokenScopes {
    /// `read` and the given scopes, each once.
    pub fn with(extra: impl IntoIterator<Item = TokenScope>) -> TokenScopes {
        let mut v: Vec<TokenScope> = std::iter::once(TokenScope::Read).chain(extra).collect();
        v.sort();
        v.dedup();
        TokenScopes(v)
    }

    pub fn allows(&self, scope: TokenScope) -> bool {
        self.0.contains(&scope)
    }

    /// The stored form: `read metrics-upload`.
    pub fn stored(&self) -> String {
        self.0.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// A stored token scope Assay does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown token scope {0:?}")]
pub struct UnknownScope(pub String);

impl TryFrom<String> for TokenScopes {
    type Error = UnknownScope;
    fn try_from(s: String) -> Result<Self, UnknownScope> {
        let scopes = s.split_whitespace().map(|w| TokenScope::parse(w).ok_or_else(|| UnknownScope(w.to_string()))).collect::<Result<Vec<_>, _>>()?;
        Ok(TokenScopes::with(scopes))
    }
}

crate::rows::row! {
    /// A personal API token as its owner's token page lists it (never the token itself).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct ApiToken {
        pub id: i64,
        pub name: String,
        pub scopes: TokenScopes as String,
        pub created_at: i64,
        pub last_used_at: Option<i64>,
        pub revoked_at: Option<i64>,
    }
}

/// A token just created: the secret is shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewApiToken {
    pub token: ApiToken,
    pub secret: String,
}

/// The text of a server function error without the framework's prefix.
pub fn error_text(e: &leptos::prelude::ServerFnError) -> String {
    use leptos::prelude::ServerFnError;
    match e {
        ServerFnError::ServerError(m) => m.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_ordered_by_power_and_round_trip() {
        assert!(Role::Admin > Role::Organizer);
        assert!(Role::Organizer > Role::Researcher);
        assert!(Role::Researcher > Role::Annotator);
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("root"), None);
    }

    #[test]
    fn a_sign_in_returns_only_to_this_servers_paths() {
        assert_eq!(return_path(Some("/campaigns/6/results?per_segment=true")), "/campaigns/6/results?per_segment=true");
        for elsewhere in [None, Some(""), Some("https://evil.test/"), Some("//evil.test/x"), Some("/\\evil.test"), Some("/a\nb"), Some("campaigns")] {
            assert_eq!(return_path(elsewhere), "/", "{elsewhere:?}");
        }
    }

    #[test]
    fn token_scopes_round_trip_and_always_read() {
        let s = TokenScopes::with([TokenScope::GoldUpload]);
        assert_eq!(s.stored(), "read gold-upload");
        assert_eq!(TokenScopes::try_from(s.stored()), Ok(s.clone()));
        assert!(s.allows(TokenScope::Read) && s.allows(TokenScope::GoldUpload) && !s.allows(TokenScope::MetricsUpload));
        assert_eq!(TokenScopes::try_from("metrics-upload  read".to_string()).unwrap().stored(), "read metrics-upload");
        assert!(TokenScopes::try_from("read admin".to_string()).is_err());
    }
}

/// Where a sign-in leads: `next` if it is a path of this server (`/…`, not `//host` or `/\host`,
/// no control characters), else the start page. The gate's sign-in link carries the page asked
/// for; anything else a crafted link might carry goes nowhere but here.
pub fn return_path(next: Option<&str>) -> &str {
    match next.map(str::trim) {
        Some(p) if p.starts_with('/') && !p.starts_with("//") && !p.starts_with("/\\") && !p.chars().any(|c| c.is_control() || c == '\\') => p,
        _ => "/",
    }
}

/// Percent-encodes a query value.
pub fn url_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
