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

/// An account as the admin's accounts page lists it: who, and whether it is disabled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    #[serde(flatten)]
    pub user: UserInfo,
    pub disabled: bool,
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

crate::rows::row! {
    /// A personal API token as its owner's token page lists it (never the token itself).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct ApiToken {
        pub id: i64,
        pub name: String,
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
