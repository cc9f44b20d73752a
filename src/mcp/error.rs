//! The MCP face's errors. `ToolError` is what a tool call can fail with; it always reaches
//! the client as an `isError: true` tool result with a readable sentence (never a protocol
//! error), so a model can correct its call. `Refusal` is why the HTTP endpoint turned a
//! request away before MCP began; the accept loop maps it to the JSON error envelope.

use rmcp::model::{CallToolResult, ContentBlock};

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
    /// The cause is logged, never sent.
    #[error("internal error")]
    Internal(String),
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
            ToolError::Internal(_) => "internal",
        }
    }

    /// The `isError` result the client sees: `{code}: {sentence}` as text.
    pub fn into_result(self) -> CallToolResult {
        if let ToolError::Internal(cause) = &self {
            tracing::error!(%cause, "MCP tool failed");
        }
        CallToolResult::error(vec![ContentBlock::text(format!("{}: {self}", self.code()))])
    }
}

/// Why `/mcp` refused a request before the MCP layer saw it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    /// The credential store failed; the cause is logged by the caller.
    #[error("{0}")]
    Internal(String),
}
