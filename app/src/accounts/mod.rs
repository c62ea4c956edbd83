//! The pages and server functions of accounts: signing in and out, invitations, the admin's
//! accounts page, personal API tokens. Above the web layer (`crate::web`), which they use; the
//! domain beneath them (roles, sessions, passwords, throttling, tokens) is `crate::auth`.

pub mod api;
pub mod pages;

/// Who is signed in, and the two actions that change it. Provided to every page.
#[derive(Clone, Copy)]
pub struct Session {
    pub login: leptos::prelude::ServerAction<api::Login>,
    pub logout: leptos::prelude::ServerAction<api::Logout>,
    /// Accepting an invitation also signs in.
    pub accept_invitation: leptos::prelude::ServerAction<api::AcceptInvitation>,
    pub user: leptos::prelude::Resource<Result<Option<crate::auth::SignedIn>, leptos::prelude::ServerFnError>, crate::resource::JsonCodec>,
}
