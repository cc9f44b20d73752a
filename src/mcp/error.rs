//! The MCP face's errors. `ToolError` is what a tool call can fail with; it always reaches
//! the client as an `isError: true` tool result with a readable sentence (never a protocol
//! error), so a model can correct its call. `Refusal` is why the HTTP endpoint turned a
//! request away before MCP began; the accept loop maps it to the JSON error envelope.

use rmcp::model::{CallToolResult, ContentBlock};

use crate::error::{ErrorKind, ServiceError, chain};

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{0}")]
    InvalidArguments(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    NotPermitted(String),
    #[error("rate limited: {limit} tool calls per minute per credential; retry in {retry_after} seconds")]
    RateLimited { limit: u64, retry_after: u64 },
    /// A service's error; its kind picks the code, and an internal one is logged with its
    /// cause chain while the client sees only "internal error".
    #[error("{}", service_message(.0.as_ref()))]
    Service(Box<dyn ServiceError>),
}

impl<E: ServiceError> From<E> for ToolError {
    fn from(e: E) -> Self {
        ToolError::Service(Box::new(e))
    }
}

fn service_message(e: &dyn ServiceError) -> String {
    match e.kind() {
        ErrorKind::Internal => "internal error".into(),
        ErrorKind::BadInput | ErrorKind::TooLarge => format!("invalid arguments: {e}"),
        _ => e.to_string(),
    }
}

/// The machine code of each service error kind, as the HTTP envelope names it.
fn kind_code(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::BadInput => "bad_request",
        ErrorKind::Unauthenticated => "unauthorized",
        ErrorKind::Forbidden => "forbidden",
        ErrorKind::NotFound => "not_found",
        ErrorKind::Conflict => "conflict",
        ErrorKind::TooLarge => "payload_too_large",
        ErrorKind::Unprocessable => "unprocessable",
        ErrorKind::RateLimited => "rate_limited",
        ErrorKind::Unavailable => "unavailable",
        ErrorKind::Internal => "internal",
    }
}

impl ToolError {
    /// A bad argument value, named by the tool's field.
    pub fn bad(message: impl std::fmt::Display) -> Self {
        ToolError::InvalidArguments(format!("invalid arguments: {message}"))
    }

    pub fn code(&self) -> &'static str {
        match self {
            ToolError::InvalidArguments(_) => "bad_request",
            ToolError::NotFound(_) => "not_found",
            ToolError::NotPermitted(_) => "forbidden",
            ToolError::RateLimited { .. } => "rate_limited",
            ToolError::Service(e) => e.code().unwrap_or(kind_code(e.kind())),
        }
    }

    /// The `isError` result the client sees: `{code}: {sentence}` as text.
    pub fn into_result(self) -> CallToolResult {
        if let ToolError::Service(e) = &self
            && e.kind() == ErrorKind::Internal
        {
            tracing::error!(cause = %chain(e.as_ref()), "MCP tool failed");
        }
        CallToolResult::error(vec![ContentBlock::text(format!("{}: {self}", self.code()))])
    }
}

/// Why `/mcp` refused a request before the MCP layer saw it.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// No credential, or one that does not verify.
    #[error("{0}")]
    Unauthorized(String),
    /// A foreign `Host` or `Origin`, or a toolset the credential may not use.
    #[error("{0}")]
    Forbidden(String),
    /// An unknown toolset name.
    #[error("{0}")]
    BadRequest(String),
    /// The credential check failed (a service error, usually internal).
    #[error("{0}")]
    Service(Box<dyn ServiceError>),
}
