//! Why a request about an assignment was refused ([`WorkError`], its kinds kept through the one
//! mapping to HTTP), and the language a refusal is worded in.

use crate::db::Db;
use crate::model::TaskKind;
use assay_core::i18n::{Lang, Message, Text};

/// Why a request about an assignment was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkError {
    #[error("Please sign in to work on this HIT.")]
    NotSignedIn,
    #[error("This HIT is assigned to someone else.")]
    NotYours,
    #[error("There is no HIT at this address.")]
    NotFound,
    /// Something else the request names does not exist (404; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Missing(String),
    /// The caller may not do this (403; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Forbidden(String),
    /// Nobody is signed in, or the credentials are not valid (401; kept from an [`AppError`](crate::error::AppError)).
    #[error("{0}")]
    Unauthorized(String),
    /// Too much at once: come back in `retry_after_seconds` (429).
    #[error("{message}")]
    Busy { message: String, retry_after_seconds: u64 },
    /// The assignment is no longer open (expired, returned, blocked): a catalog message.
    #[error("{0}")]
    Gone(Message),
    /// The request collides with the assignment's state (not the current item, answered
    /// already): a catalog message with its values.
    #[error("{0}")]
    Conflict(Message),
    /// The answer is wrong (its problem, worded where it was found, or a catalog message).
    #[error("{0}")]
    Invalid(Message),
    #[error("{0}")]
    Internal(String),
}

impl From<sqlx::Error> for WorkError {
    fn from(e: sqlx::Error) -> Self {
        WorkError::Internal(e.to_string())
    }
}

/// A failure of a step annotation shares with other stages (the quality gate, the team
/// checks) keeps its kind: not found stays 404, forbidden 403; a server fault stays the server's.
impl From<crate::error::AppError> for WorkError {
    fn from(e: crate::error::AppError) -> Self {
        use crate::error::AppError;
        match e {
            AppError::NotFound(m) => WorkError::Missing(m),
            AppError::Forbidden(m) => WorkError::Forbidden(m),
            AppError::Unauthorized(m) => WorkError::Unauthorized(m),
            AppError::Gone(m) => WorkError::Gone(m.into()),
            AppError::Conflict(m) => WorkError::Conflict(m.into()),
            AppError::Busy { message, retry_after_seconds } => WorkError::Busy { message, retry_after_seconds },
            e @ (AppError::Invalid { .. } | AppError::Rejected { .. } | AppError::TooLarge(_)) => WorkError::Invalid(e.to_string().into()),
            e @ (AppError::Storage { .. } | AppError::Internal(_)) => WorkError::Internal(e.into_message()),
        }
    }
}

/// A refusal of the annotation domain is the [`AppError`](crate::error::AppError) of the same
/// kind, with the same message (the one mapping to HTTP is there).
impl From<WorkError> for crate::error::AppError {
    fn from(e: WorkError) -> Self {
        let message = e.to_string();
        e.with_message(message)
    }
}

impl WorkError {
    /// The refusal as the annotator reads it in `lang` (issue 18 item 3): the catalog renders
    /// its message key with its values, with the same kind (and so the same HTTP status). A
    /// text the catalog does not have (a fault of the server) stays as it is.
    pub fn in_language(self, lang: Lang) -> crate::error::AppError {
        let message = match &self {
            WorkError::NotSignedIn => lang.text(Text::ErrNotSignedIn).to_string(),
            WorkError::NotYours => lang.text(Text::ErrNotYours).to_string(),
            WorkError::NotFound => lang.text(Text::ErrNotFound).to_string(),
            WorkError::Gone(m) | WorkError::Conflict(m) | WorkError::Invalid(m) => m.in_language(lang),
            other => other.to_string(),
        };
        self.with_message(message)
    }

    fn with_message(self, message: String) -> crate::error::AppError {
        use crate::error::AppError;
        match self {
            WorkError::NotSignedIn => AppError::Unauthorized(message),
            WorkError::NotYours => AppError::Forbidden(message),
            WorkError::NotFound | WorkError::Missing(_) => AppError::NotFound(message),
            WorkError::Forbidden(_) => AppError::Forbidden(message),
            WorkError::Unauthorized(_) => AppError::Unauthorized(message),
            WorkError::Busy { retry_after_seconds, .. } => AppError::busy(message, retry_after_seconds),
            WorkError::Gone(_) => AppError::Gone(message),
            WorkError::Conflict(_) => AppError::Conflict(message),
            WorkError::Invalid(_) => AppError::invalid("answer", message),
            WorkError::Internal(_) => AppError::Internal(message),
        }
    }
}

/// The interface language of an assignment's pages (issue 18 item 3), for its refusals: the
/// campaign's ([`crate::annotate::interface_language`]) when the address is an assignment's, else the
/// browser's (`accept_language`), else English. Says nothing else about the assignment.
pub async fn interface_lang_of(db: &Db, public_id: &str, accept_language: Option<&str>) -> Lang {
    let row: Option<(String, String, String)> = if public_id.is_empty() || public_id.len() > 200 {
        None
    } else {
        sqlx::query_as(
            "SELECT c.settings, c.task, t.target_lang FROM assignments a JOIN hits h ON h.id = a.hit_id \
             JOIN campaigns c ON c.id = h.campaign_id JOIN test_sets t ON t.id = c.test_set_id WHERE a.public_id = $1",
        )
        .bind(public_id)
        .fetch_optional(&db.pool)
        .await
        .ok()
        .flatten()
    };
    // A campaign whose task this release does not know has no language of its own either.
    match row.and_then(|(settings, task, target): (String, String, String)| Some((settings, TaskKind::parse(&task)?, target))) {
        Some((settings, task, target)) => crate::annotate::interface_language(&settings, task, &target, accept_language),
        None => Lang::choose("", "", accept_language),
    }
}
