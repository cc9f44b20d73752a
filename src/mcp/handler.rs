//! The rmcp `ServerHandler`: one instance per MCP session. `tools/list` shows the registry's
//! tools that the request's selection admits; `tools/call` checks the selection, the role,
//! the per-credential rate limit, then runs the tool. A session is bound to the credential
//! that opened it: another credential presenting its id is refused.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, InitializeRequestParams, InitializeResult,
    JsonObject, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

use super::answers::Answers;
use super::context::{CallContext, Caller};
use super::error::ToolError;
use super::registry::{Registry, ToolContext, ToolDef};
use crate::limits::FixedWindow;
use crate::state::AppState;

/// The protocol revisions served: 2025-06-18 and newer ones that keep the `initialize` handshake.
pub(super) const PROTOCOL_VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_06_18, ProtocolVersion::V_2025_11_25];

const INSTRUCTIONS: &str = "Receipted facts about US public companies from SEC EDGAR filings. Every statement, \
executive and subsidiary comes with a receipt: the verbatim sentence, the EDGAR address of the filing, its form, \
date and accession number. Start with company_search or company_get {\"slug\": ...}; directory_guide explains the \
rest. Lists are paged (limit 1-100, default 20; `truncated` and `next_offset` say when there is more).";

/// What every session shares.
pub struct Shared {
    pub state: AppState,
    pub registry: Arc<Registry>,
    /// Tool calls per credential per minute.
    pub limiter: FixedWindow,
    /// Answers of cacheable tools, given again to plain calls.
    pub answers: Answers,
}

#[derive(Clone)]
pub struct GtmsMcp {
    shared: Arc<Shared>,
    /// The credential id of the request that opened the session.
    owner: Arc<OnceLock<String>>,
}

impl GtmsMcp {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self { shared, owner: Arc::new(OnceLock::new()) }
    }

    fn call_context(&self, ctx: &RequestContext<RoleServer>) -> Result<CallContext, McpError> {
        let found = ctx.extensions.get::<http::request::Parts>().and_then(|p| p.extensions.get::<CallContext>());
        let cc = found.cloned().ok_or_else(|| McpError::internal_error("request arrived without admission", None))?;
        let id = cc.caller.id();
        if self.owner.get_or_init(|| id.clone()) != &id {
            return Err(McpError::invalid_request("this MCP session was opened by another credential", None));
        }
        Ok(cc)
    }
}

/// A call that passed the checks, or the answer that refused it.
enum Admission<'r> {
    Refused(CallToolResult),
    Admitted(&'r ToolDef, ToolContext),
}

impl Shared {
    /// The checks before a tool runs: the tool must be in the caller's selection (else a
    /// protocol error); the per-credential limit (else a tool error); the key's use recorded.
    fn admit(&self, cc: CallContext, name: &str) -> Result<Admission<'_>, McpError> {
        let Some(tool) = self.registry.get(name).filter(|t| t.admitted_by(&cc.selection)) else {
            return Err(McpError::invalid_params(
                format!("unknown tool {name:?}; tools/list shows the tools of this connection's toolsets"),
                None,
            ));
        };
        let now = self.state.clock().now();
        let decision = self.limiter.check(&cc.caller.id(), now);
        if !decision.allowed {
            let limited = ToolError::RateLimited { limit: decision.limit, retry_after: decision.retry_after(now) };
            crate::prometheus::tool_call(name, "rate_limited");
            return Ok(Admission::Refused(limited.into_result()));
        }
        if let Caller::ApiKey { id, .. } = &cc.caller {
            self.state.api_keys().record_use(id, now as i64);
        }
        let ctx = ToolContext {
            state: self.state.clone(),
            caller: cc.caller,
            selection: cc.selection,
            registry: Arc::clone(&self.registry),
        };
        Ok(Admission::Admitted(tool, ctx))
    }

    /// Runs an admitted tool and counts the call.
    async fn finish(tool: &ToolDef, ctx: &ToolContext, arguments: JsonObject) -> (CallToolResult, bool) {
        let (result, ok) = match tool.call(ctx, arguments).await {
            Ok(value) => (CallToolResult::structured(value), true),
            Err(e) => (e.into_result(), false),
        };
        crate::prometheus::tool_call(tool.name, if ok { "ok" } else { "error" });
        (result, ok)
    }

    /// Runs one `tools/call` for `cc` in a session's handler.
    pub(super) async fn run(
        &self,
        cc: CallContext,
        request: CallToolRequestParams,
    ) -> Result<CallToolResult, McpError> {
        match self.admit(cc, &request.name)? {
            Admission::Refused(result) => Ok(result),
            Admission::Admitted(tool, ctx) => {
                Ok(Self::finish(tool, &ctx, request.arguments.unwrap_or_default()).await.0)
            }
        }
    }

    /// Runs one plain `tools/call` (`fast`) with the same checks and result as `run`, answered
    /// as the result's JSON text. A cacheable tool's answer is kept the first time and given
    /// again after the same checks (`answers`).
    pub(super) async fn run_json(&self, cc: CallContext, request: CallToolRequestParams) -> Result<Arc<str>, McpError> {
        let (tool, ctx) = match self.admit(cc, &request.name)? {
            Admission::Refused(result) => return Ok(to_json(&result)),
            Admission::Admitted(tool, ctx) => (tool, ctx),
        };
        let arguments = request.arguments.unwrap_or_default();
        let key = tool.cacheable.then(|| serde_json::to_string(&arguments).ok()).flatten();
        if let Some(kept) = key.as_deref().and_then(|k| self.answers.get(tool.name, k)) {
            crate::prometheus::tool_call(tool.name, "ok");
            return Ok(kept);
        }
        let (result, ok) = Self::finish(tool, &ctx, arguments).await;
        let json = to_json(&result);
        if let Some(key) = key.filter(|_| ok) {
            self.answers.keep(tool.name, key, Arc::clone(&json));
        }
        Ok(json)
    }
}

/// A result as JSON text (a `CallToolResult` always serialises).
fn to_json(result: &CallToolResult) -> Arc<str> {
    Arc::from(serde_json::to_string(result).unwrap_or_default())
}

impl ServerHandler for GtmsMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .with_server_info(Implementation::new("gtms", crate::state::VERSION))
            .with_instructions(INSTRUCTIONS)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&PROTOCOL_VERSIONS)
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        self.call_context(&context)?;
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let cc = self.call_context(&context)?;
        let tools =
            self.shared.registry.all().iter().filter(|t| t.admitted_by(&cc.selection)).map(|t| t.to_tool()).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let cc = self.call_context(&context)?;
        self.shared.run(cc, request).await.map(CallToolResponse::from)
    }
}
