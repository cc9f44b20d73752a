//! The MCP face: an rmcp Streamable HTTP server at `/mcp` whose tools come from one registry
//! (`registry`, `tools/`), grouped into toolsets, plus the guide page (`/mcp/guide`) and the
//! RFC 9728 protected-resource metadata. Tools call the company services (`companies::*`)
//! exactly as the HTTP routes do; this module never imports the HTTP face, and it never
//! chooses an HTTP error status — refusals go back to the accept loop as `Refusal`.

mod access;
mod answers;
mod context;
mod error;
mod fast;
mod guide;
mod handler;
mod registry;
mod tool_schemas;
mod tools;
mod toolset;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, Request, Response, Uri};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use rmcp::transport::streamable_http_server::session::SessionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

pub use access::Gate;
pub use context::{CallContext, Caller, Selection};
pub use error::{Refusal, ToolError};
pub use registry::{Access, McpTool, Registry, ToolDef, Toolset};

use crate::limits::FixedWindow;
use crate::state::AppState;
use handler::{GtmsMcp, Shared};

/// The path of the protected-resource metadata (RFC 9728); also served with `/mcp` appended.
pub const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Window of the per-credential tool-call limit.
const RATE_WINDOW_SECS: u64 = 60;

/// The tools and the guide page made from them: pure, so made beside the rest of start-up.
pub struct Toolbox {
    registry: Arc<Registry>,
    guide: Bytes,
}

impl Toolbox {
    pub fn build() -> Self {
        let registry = Arc::new(Registry::new(tools::all()));
        let guide = Bytes::from(guide::render(&registry));
        Toolbox { registry, guide }
    }
}

/// The `/mcp` endpoint, built once at start-up.
pub struct Mcp {
    state: AppState,
    gate: Gate,
    registry: Arc<Registry>,
    service: StreamableHttpService<GtmsMcp, LocalSessionManager>,
    /// What the sessions share, for the tool calls `fast` answers itself.
    shared: Arc<Shared>,
    sessions: Arc<LocalSessionManager>,
    owners: fast::Owners,
    guide: Bytes,
    scheme: &'static str,
    bound: SocketAddr,
}

impl Mcp {
    /// `bound` is the listening address (for default allowed hosts and origins); cancelling
    /// `shutdown` closes every MCP session so open streams never hold a graceful exit.
    pub fn new(state: AppState, toolbox: Toolbox, bound: SocketAddr, shutdown: CancellationToken) -> Self {
        let settings = &state.config().mcp;
        let gate = Gate::new(settings, bound);
        let Toolbox { registry, guide } = toolbox;
        let shared = Arc::new(Shared {
            state: state.clone(),
            registry: Arc::clone(&registry),
            limiter: FixedWindow::new(settings.rate_limit, RATE_WINDOW_SECS),
            answers: Default::default(),
        });
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(gate.hosts().iter().cloned())
            .with_allowed_origins(gate.origins().iter().cloned())
            .enforce_origin_validation()
            .with_max_request_body_bytes(fast::MAX_BODY_BYTES)
            .with_cancellation_token(shutdown);
        let for_sessions = Arc::clone(&shared);
        let factory = move || Ok(GtmsMcp::new(Arc::clone(&for_sessions)));
        let sessions = Arc::new(LocalSessionManager::default());
        let service = StreamableHttpService::new(factory, Arc::clone(&sessions), config);
        let tls = state.config().tls.is_some() || state.config().secure_cookies;
        let scheme = if tls { "https" } else { "http" };
        Self { state, gate, registry, service, shared, sessions, owners: fast::Owners::default(), guide, scheme, bound }
    }

    /// Whether a path belongs to this face.
    pub fn owns(path: &str) -> bool {
        path == "/mcp" || path.starts_with("/mcp/") || path.starts_with(RESOURCE_METADATA_PATH)
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The guide page (HTML).
    pub fn guide(&self) -> Bytes {
        self.guide.clone()
    }

    /// `scheme://host` as the client addressed us (when that host is allowed), else the bound address.
    pub fn base_url(&self, headers: &HeaderMap, uri: &Uri) -> String {
        let host = headers.get(http::header::HOST).and_then(|v| v.to_str().ok());
        match host.filter(|_| self.gate.host_allowed(headers, uri)) {
            Some(h) => format!("{}://{h}", self.scheme),
            None => format!("{}://{}", self.scheme, self.bound),
        }
    }

    /// The RFC 9728 protected-resource metadata document.
    pub fn resource_metadata(&self, headers: &HeaderMap, uri: &Uri) -> serde_json::Value {
        let base = self.base_url(headers, uri);
        serde_json::json!({
            "resource": format!("{base}/mcp"),
            "authorization_servers": [],
            "bearer_methods_supported": ["header"],
            "resource_name": "gtms company intelligence and workspace tools (MCP)",
            "resource_documentation": format!("{base}/mcp/guide"),
        })
    }

    /// The `WWW-Authenticate` value of a 401 from `/mcp`.
    pub fn challenge(&self, headers: &HeaderMap, uri: &Uri) -> String {
        format!("Bearer resource_metadata=\"{}{RESOURCE_METADATA_PATH}\"", self.base_url(headers, uri))
    }

    /// Host, Origin, credential and toolset checks for one `/mcp` request.
    pub async fn admit(
        &self,
        headers: &HeaderMap,
        uri: &Uri,
        token: Option<&str>,
        client: std::net::IpAddr,
    ) -> Result<CallContext, Refusal> {
        access::admit(&self.state, &self.gate, headers, uri, token, client).await
    }

    /// Serves an admitted request: a plain tool call on a live session of the caller's is
    /// answered here as one JSON response (`fast`); everything else by the rmcp transport.
    pub async fn serve<B>(&self, req: Request<B>, admitted: CallContext) -> Response<BoxBody<Bytes, Infallible>>
    where
        B: hyper::body::Body + Send + 'static,
        B::Error: std::fmt::Display,
    {
        match fast::sort(req).await {
            fast::Sorted::Untouched(req) => self.by_rmcp(req, admitted).await,
            fast::Sorted::Read(req) => self.by_rmcp(req, admitted).await,
            fast::Sorted::Refused(res) => res.map(BodyExt::boxed),
            fast::Sorted::Call(plain) => {
                let fast::PlainCall { id, call, session, request } = *plain;
                let live = self.sessions.has_session(&session.as_str().into()).await.unwrap_or(false);
                if !live {
                    self.owners.closed(&session);
                } else if self.owners.owned_by(&session, &admitted.caller.id()) {
                    return fast::answer(id, self.shared.run_json(admitted, call).await).map(BodyExt::boxed);
                }
                self.by_rmcp(request, admitted).await
            }
        }
    }

    /// Hands an admitted request to the rmcp transport, noting which credential opens or
    /// closes a session.
    async fn by_rmcp<B>(&self, mut req: Request<B>, admitted: CallContext) -> Response<BoxBody<Bytes, Infallible>>
    where
        B: hyper::body::Body + Send + 'static,
        B::Error: std::fmt::Display,
    {
        let session = req.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
        let credential = admitted.caller.id();
        req.extensions_mut().insert(admitted);
        let terminating = req.method() == hyper::Method::DELETE;
        let mut res = self.service.handle(req).await;
        // rmcp acknowledges a session's termination with 202; the MCP transport says 200 (or
        // 204 with no body), and clients log anything else as a failed termination.
        if terminating && res.status() == hyper::StatusCode::ACCEPTED {
            *res.status_mut() = hyper::StatusCode::NO_CONTENT;
        }
        let opened = res.headers().get("mcp-session-id").and_then(|v| v.to_str().ok());
        match (&session, opened) {
            (None, Some(opened)) if res.status().is_success() => self.owners.opened(opened, credential),
            (Some(closed), _) if terminating && res.status().is_success() => self.owners.closed(closed),
            _ => {}
        }
        res
    }
}
