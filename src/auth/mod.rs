//! Credentials: argon2id hashing of secrets at rest (`secrets`), and the `gtms_` API keys of
//! `/v1/enrich` and MCP with their verification cache and usage meter (`keys`). Knows nothing
//! of HTTP; faces map `AuthError` to status codes.

pub mod keys;
pub mod secrets;
pub mod sessions;

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
}
