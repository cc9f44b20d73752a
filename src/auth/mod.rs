//! Credentials: argon2id hashing of secrets at rest (`secrets`), and the `gtms_` API keys of
//! `/v1/enrich` and MCP with their verification cache and usage meter (`keys`). Knows nothing
//! of HTTP; faces map `AuthError` to status codes.

pub mod guard;
mod jwt;
pub mod keys;
mod principal;
pub mod secrets;
pub mod sessions;

pub use principal::{AdminProof, Channel, Forbidden, Origin, Principal, SystemProof};

use crate::error::{ErrorKind, ServiceError};
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Missing, malformed, unknown or revoked: deliberately one variant, so no face can tell
    /// a caller which it was.
    #[error("missing or invalid credentials")]
    InvalidCredentials,
    #[error("{0}")]
    BadInput(String),
    #[error("no such {0}")]
    NotFound(&'static str),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("password hashing: {0}")]
    Hash(String),
    /// Every argon2 slot is busy and the queue is full: refused before any work.
    #[error("too many credential checks are under way; try again shortly")]
    Busy,
    /// Too many failed attempts from this client or against this credential in the window:
    /// refused before any argon2 work.
    #[error("too many failed attempts; retry in {retry_after} seconds")]
    TooManyAttempts { decision: crate::limits::Decision, retry_after: u64 },
}

impl ServiceError for AuthError {
    fn kind(&self) -> ErrorKind {
        match self {
            AuthError::InvalidCredentials => ErrorKind::Unauthenticated,
            AuthError::BadInput(_) => ErrorKind::BadInput,
            AuthError::NotFound(_) => ErrorKind::NotFound,
            AuthError::Store(e) => e.kind(),
            AuthError::Hash(_) => ErrorKind::Internal,
            AuthError::Busy => ErrorKind::Unavailable,
            AuthError::TooManyAttempts { .. } => ErrorKind::RateLimited,
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            AuthError::Busy => Some(1),
            AuthError::TooManyAttempts { retry_after, .. } => Some(*retry_after),
            _ => None,
        }
    }
}
