//! The one error vocabulary of the services. Every service error (`DealError`, `LookupError`,
//! `StoreError`, ...) says which `ErrorKind` it is; each face maps a kind exactly once —
//! `http/error.rs` to a status code and the JSON envelope, `mcp/error.rs` to an `isError`
//! tool result. The error itself travels with the kind, so a 500 can log its source chain
//! while the client sees only an opaque sentence. This module imports nothing of ours.

/// What went wrong, from the caller's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input cannot be accepted as sent (a malformed value, a missing field).
    BadInput,
    /// The thing named does not exist.
    NotFound,
    /// The thing exists but is in a state that refuses the change (stale version, final deal).
    Conflict,
    /// No credential, or one that does not verify (deliberately not saying which).
    Unauthenticated,
    /// The caller is known but may not do this.
    Forbidden,
    /// The input is larger than the limit for its kind.
    TooLarge,
    /// The input is well-formed but its content cannot be accepted; `ServiceError::details`
    /// lists every problem (a CSV import's bad rows).
    Unprocessable,
    /// Too many attempts in the current window; `ServiceError::retry_after` says when to retry.
    RateLimited,
    /// A dependency (model provider, workflow engine) cannot answer now; retrying may help.
    Unavailable,
    /// Our own failure; the cause is logged, never shown.
    Internal,
}

/// An error a service returns to its faces.
pub trait ServiceError: std::error::Error + Send + Sync + 'static {
    fn kind(&self) -> ErrorKind;

    /// A machine code more precise than the kind's own, when the face should show one
    /// (e.g. `no_signal` for a company without a receipted signal).
    fn code(&self) -> Option<&'static str> {
        None
    }

    /// Seconds until a `RateLimited` caller may try again.
    fn retry_after(&self) -> Option<u64> {
        None
    }

    /// Every problem of an `Unprocessable` input, shown beside the message (the HTTP
    /// envelope's `errors`).
    fn details(&self) -> Option<serde_json::Value> {
        None
    }
}

/// The full `source()` chain of an error as one line, for logs.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut out = error.to_string();
    let mut next = error.source();
    while let Some(e) = next {
        out.push_str(": ");
        out.push_str(&e.to_string());
        next = e.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn the_chain_names_every_cause() {
        let e = Outer(std::io::Error::other("disk full"));
        assert_eq!(chain(&e), "outer: disk full");
    }
}
