//! The one list of HTTP routes. A new route is one entry here (its method, pattern with
//! `{params}`, operation id, summary, tag, auth, query/body/response types and the error
//! statuses its service can add); the tests fail until the table and what is served agree.

use std::sync::LazyLock;

use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

use super::Method::{Delete, Get, Patch, Post};
use super::console_routes::CONSOLE_ROUTES;
use super::{Auth, Content, Route, inline, schema};
use crate::brain::chat::{ChatReply, ChatRequest, Cleared, History};
use crate::companies::card::Card;
use crate::companies::enrich::EnrichReply;
use crate::deals::{DealDetail, DealUpdate, ImportReport, NewDeal, PipelineSummary};
use crate::memory::{CompressionReport, KeyHistory, MemoryEntry, WriteRequest};
use crate::memory::{HealthReport, SearchResults, Tree};
use crate::metrics::{ConsumptionView, Latest, PipelineView, WorkersView};
use crate::state::Health;
use crate::workflows::StartBody;
use crate::workflows::listing::PageQuery;
use crate::workflows::service::{DecideRequest, RunRequest, WorkflowFilter};
use crate::workflows::views::{
    ApprovalList, DecisionReply, RunDetail, RunList, RunStarted, StartReply, WorkerDetail, WorkerList, WorkflowDetail,
    WorkflowList,
};

const COMPANY: &str = "company files";
const ENRICH: &str = "enrich";
const AUTH: &str = "auth";
const DEALS: &str = "deals";
const MEMORY: &str = "memory";
const BRAIN: &str = "brain";
const METRICS: &str = "metrics";
const OPS: &str = "operations";
const MCP: &str = "mcp";
const PAGES_TAG: &str = "pages";
const WORKERS: &str = "workers";
const COORDINATOR: &str = "coordinator";
const CONTROLS: &str = "controls";

pub(super) const HTML: Content = Content::Text("text/html; charset=utf-8");
const CSV: &str = "text/csv; charset=utf-8";
const OBJECT: Content = Content::Json(schema::<Map<String, Value>>);
/// The Prometheus text exposition format.
pub const EXPOSITION: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `/api/metrics/{view}` answers the latest rollup of the view it names (built only by the
/// tests, as `schema` is).
fn metric_view(g: &mut SchemaGenerator) -> Schema {
    if !cfg!(test) {
        return Schema::default();
    }
    let views = [
        g.subschema_for::<Latest<PipelineView>>(),
        g.subschema_for::<crate::metrics::TokensReply>(),
        g.subschema_for::<Latest<ConsumptionView>>(),
        g.subschema_for::<Latest<WorkersView>>(),
    ];
    schemars::json_schema!({ "anyOf": views })
}

/// Every route: the pages, then the console's (`console_routes`), then the API's and the files'.
pub static ROUTES: LazyLock<Vec<&'static Route>> =
    LazyLock::new(|| PAGES.iter().chain(CONSOLE_ROUTES).chain(API).collect());

/// Pages and documents.
static PAGES: &[Route] = &[
    Route::new(Get, "/", "home", "The home page: what this appliance is and where to look")
        .tag(PAGES_TAG)
        .content(HTML),
    Route::new(Get, "/status", "statusPage", "The server-rendered status dashboard").tag(PAGES_TAG).content(HTML),
];

/// The API, the keyless files and the MCP face.
static API: &[Route] = &[
    Route::new(Get, "/api/openapi.json", "openapi", "This OpenAPI 3.1 document").tag(OPS).content(OBJECT),
    Route::new(Get, "/metrics", "prometheusMetrics", "Prometheus metrics (text exposition format)")
        .tag(OPS)
        .auth(Auth::Metrics)
        .content(Content::Text(EXPOSITION)),
    Route::new(Get, "/api/health", "health", "Liveness, engine and version").tag(OPS).json(schema::<Health>),
    Route::new(Get, "/api/config", "clientConfig", "What a browser client needs (never a secret)")
        .tag(OPS)
        .auth(Auth::Session)
        .json(schema::<crate::http::client_config::ClientConfig>),
    Route::new(Get, "/api/audit", "auditList", "The audit log of admin actions, newest first (admin)")
        .tag(OPS)
        .auth(Auth::Admin)
        .query(inline::<crate::audit::AuditListQuery>)
        .json(schema::<crate::audit::AuditList>),
    Route::new(Get, "/api/tasks/status", "tasksStatus", "The scheduler's jobs: schedule, last run, next run")
        .tag(OPS)
        .auth(Auth::Session)
        .json(schema::<crate::http::metrics::JobsReply>),
    Route::new(Get, "/ws", "events", "Live events over a WebSocket (upgrade)")
        .tag(OPS)
        .auth(Auth::Session)
        .success(&[101])
        .errors(&[400]),
    // Keyless company files.
    Route::new(Get, "/company/data/index.json", "companyIndex", "Every company with a page, by sector and letter")
        .tag(COMPANY)
        .content(Content::File("application/json", None)),
    Route::new(Get, "/company/data/{slug}.json", "companyCard", "One company's receipted card")
        .tag(COMPANY)
        .content(Content::File("application/json", Some(schema::<Card>))),
    Route::new(Get, "/company/", "companyDirectory", "The company directory page: counts, letters and sectors")
        .tag(COMPANY)
        .content(Content::File("text/html; charset=utf-8", None)),
    Route::new(Get, "/company/{slug}", "companyPage", "One company's public page (HTML, schema.org JSON-LD)")
        .tag(COMPANY)
        .content(Content::File("text/html; charset=utf-8", None)),
    Route::new(Get, "/company/sector/{sector}", "companySectorPage", "A sector's companies (HTML)")
        .tag(COMPANY)
        .content(Content::File("text/html; charset=utf-8", None)),
    Route::new(Get, "/company/letter/{letter}", "companyLetterPage", "A letter's companies (HTML)")
        .tag(COMPANY)
        .content(Content::File("text/html; charset=utf-8", None)),
    Route::new(Get, "/company/page.css", "companyPageStyle", "The company pages' stylesheet")
        .tag(COMPANY)
        .content(Content::File("text/css; charset=utf-8", None)),
    Route::new(Get, "/company/search-index.json", "companySearchIndex", "Compact search rows")
        .tag(COMPANY)
        .content(Content::File("application/json", None)),
    Route::new(Get, "/company/quotes.json", "companyQuotes", "The latest verbatim quote per company")
        .tag(COMPANY)
        .content(Content::File("application/json", None)),
    Route::new(Get, "/company/_slugmap.json", "companySlugMap", "Ticker to slug")
        .tag(COMPANY)
        .content(Content::File("application/json", None)),
    Route::new(Get, "/company/llms.txt", "companyLlmsTxt", "The company directory's agent index")
        .tag(COMPANY)
        .content(Content::File("text/plain; charset=utf-8", None)),
    Route::new(Get, "/llms.txt", "llmsTxt", "The appliance's agent index")
        .tag(COMPANY)
        .content(Content::File("text/plain; charset=utf-8", None)),
    Route::new(Get, "/sitemap.xml", "sitemap", "Every public URL with its lastmod")
        .tag(COMPANY)
        .content(Content::File("application/xml", None)),
    // Enrichment.
    Route::new(Get, "/v1/enrich", "enrich", "The best receipted signal of a company, by domain or ticker")
        .tag(ENRICH)
        .auth(Auth::ApiKey)
        .query(inline::<crate::http::enrich::EnrichQuery>)
        .json(schema::<EnrichReply>)
        .errors(&[403, 404]),
    // Sign-in.
    Route::new(Post, "/auth/login", "login", "Exchange an invite code for a token and the session cookie")
        .tag(AUTH)
        .body(schema::<crate::http::login::LoginRequest>)
        .json(schema::<crate::http::login::LoginReply>)
        .errors(&[401]),
    Route::new(Post, "/auth/logout", "logout", "Clear the session cookie")
        .tag(AUTH)
        .json(schema::<crate::http::login::SignedOut>),
    // Deals.
    Route::new(Get, "/api/deals", "dealsList", "Deals, filtered by stage, type and rep, a page at a time")
        .tag(DEALS)
        .auth(Auth::Session)
        .query(inline::<crate::http::deals::DealListQuery>)
        .json(schema::<crate::http::deals::DealList>),
    Route::new(Post, "/api/deals", "dealCreate", "Add a deal (admin): the list form without id; 201 with the detail")
        .tag(DEALS)
        .auth(Auth::Admin)
        .body(schema::<NewDeal>)
        .success(&[201])
        .json(schema::<DealDetail>)
        .errors(&[404, 409]),
    Route::new(Post, "/api/deals/import", "dealsImport", "Import deals from CSV (admin; all or nothing; ?dryRun=true)")
        .tag(DEALS)
        .auth(Auth::Admin)
        .query(inline::<crate::http::deals::ImportQuery>)
        .body_as(CSV, schema::<String>)
        .json(schema::<ImportReport>)
        .errors(&[422])
        .no_fuzz("a CSV body: no schema says which texts are importable; tests/api/deals_write.rs covers it"),
    Route::new(Get, "/api/deals/export", "dealsExport", "Every deal as CSV, in the import's columns")
        .tag(DEALS)
        .auth(Auth::Session)
        .content(Content::Text(CSV)),
    Route::new(Get, "/api/deals/summary/pipeline", "dealsSummary", "Pipeline totals by stage and type")
        .tag(DEALS)
        .auth(Auth::Session)
        .json(schema::<PipelineSummary>),
    Route::new(Get, "/api/deals/{id}", "dealGet", "One deal with its history")
        .tag(DEALS)
        .auth(Auth::Session)
        .json(schema::<DealDetail>),
    Route::new(Patch, "/api/deals/{id}", "dealUpdate", "Move a deal's stage or edit its fields (admin)")
        .tag(DEALS)
        .auth(Auth::Admin)
        .body(schema::<DealUpdate>)
        .json(schema::<DealDetail>)
        .errors(&[409]),
    // Memory.
    Route::new(Post, "/api/memory", "memoryWrite", "Write an entry (201 new, 200 updated; admin)")
        .tag(MEMORY)
        .auth(Auth::Admin)
        .body(schema::<WriteRequest>)
        .success(&[200, 201])
        .json(schema::<MemoryEntry>)
        .errors(&[409]),
    Route::new(Get, "/api/memory/tree", "memoryTree", "Scopes with their totals and one page of keys each")
        .tag(MEMORY)
        .auth(Auth::Session)
        .query(inline::<crate::memory::TreePage>)
        .json(schema::<Tree>)
        .errors(&[400]),
    Route::new(Get, "/api/memory/search", "memorySearch", "Entries by words of key, value and tags")
        .tag(MEMORY)
        .auth(Auth::Session)
        .query(inline::<crate::http::memory::SearchQuery>)
        .json(schema::<SearchResults>),
    Route::new(Get, "/api/memory/health/{workerId}", "memoryHealth", "A worker's memory budget and staleness")
        .tag(MEMORY)
        .auth(Auth::Session)
        .json(schema::<HealthReport>)
        .errors(&[400]),
    Route::new(Post, "/api/memory/compress/{workerId}", "memoryCompress", "Compress a worker's memory now (admin)")
        .tag(MEMORY)
        .auth(Auth::Admin)
        .json(schema::<CompressionReport>)
        .errors(&[400, 503]),
    Route::new(Get, "/api/memory/{scope}/{key}/history", "memoryHistory", "Every version of a key")
        .tag(MEMORY)
        .auth(Auth::Session)
        .json(schema::<KeyHistory>)
        .errors(&[400]),
    Route::new(Get, "/api/memory/{scope}/{key}", "memoryGet", "One entry")
        .tag(MEMORY)
        .auth(Auth::Session)
        .json(schema::<MemoryEntry>)
        .errors(&[400]),
    Route::new(Get, "/api/project/memory", "projectMemory", "The org scope's entries")
        .tag(MEMORY)
        .auth(Auth::Session)
        .json(schema::<crate::http::memory::ProjectMemory>),
    // Brain.
    Route::new(Post, "/api/brain/chat", "brainChat", "Ask the Brain; the answer cites what it used")
        .tag(BRAIN)
        .auth(Auth::Session)
        .body(schema::<ChatRequest>)
        .json(schema::<ChatReply>)
        .errors(&[503]),
    Route::new(Get, "/api/brain/history", "brainHistory", "Your conversation")
        .tag(BRAIN)
        .auth(Auth::Session)
        .json(schema::<History>),
    Route::new(Delete, "/api/brain/history", "brainHistoryClear", "Clear your conversation")
        .tag(BRAIN)
        .auth(Auth::Session)
        .json(schema::<Cleared>),
    // Workers and workflows (every one needs the workflow engine: 503 without it).
    Route::new(Get, "/api/workers", "workersList", "The eight workers with their derived status")
        .tag(WORKERS)
        .auth(Auth::Session)
        .json(schema::<WorkerList>)
        .errors(&[503]),
    Route::new(Get, "/api/workers/{id}", "workerGet", "One worker with its memory")
        .tag(WORKERS)
        .auth(Auth::Session)
        .json(schema::<WorkerDetail>)
        .errors(&[503]),
    Route::new(Post, "/api/workers/{id}/start", "workerStart", "Start a workflow on a worker (admin)")
        .tag(WORKERS)
        .auth(Auth::Admin)
        .body(schema::<StartBody>)
        .success(&[202])
        .json(schema::<StartReply>)
        .errors(&[409, 503]),
    Route::new(Post, "/api/coordinator/runs", "coordinatorRun", "Start a coordinator run toward a goal (admin)")
        .tag(COORDINATOR)
        .auth(Auth::Admin)
        .body(schema::<RunRequest>)
        .success(&[202])
        .json(schema::<RunStarted>)
        .errors(&[409, 503]),
    Route::new(Get, "/api/coordinator/runs", "coordinatorRuns", "Coordinator runs, newest first, a page at a time")
        .tag(COORDINATOR)
        .auth(Auth::Session)
        .query(inline::<PageQuery>)
        .json(schema::<RunList>)
        .errors(&[503]),
    Route::new(Get, "/api/coordinator/runs/{id}", "coordinatorRunGet", "One run: its nine steps, children, synthesis")
        .tag(COORDINATOR)
        .auth(Auth::Session)
        .json(schema::<RunDetail>)
        .errors(&[503]),
    Route::new(
        Get,
        "/api/coordinator/workflows",
        "workflowsList",
        "Workflows by worker, type and status, a page at a time",
    )
    .tag(COORDINATOR)
    .auth(Auth::Session)
    .query(inline::<WorkflowFilter>)
    .json(schema::<WorkflowList>)
    .errors(&[503]),
    Route::new(
        Get,
        "/api/coordinator/workflows/{workflowId}",
        "workflowGet",
        "One workflow: params, steps, result, approval",
    )
    .tag(COORDINATOR)
    .auth(Auth::Session)
    .json(schema::<WorkflowDetail>)
    .errors(&[503]),
    Route::new(
        Get,
        "/api/coordinator/approvals",
        "approvalsList",
        "Pending approval gates, oldest first, a page at a time",
    )
    .tag(COORDINATOR)
    .auth(Auth::Session)
    .query(inline::<PageQuery>)
    .json(schema::<ApprovalList>)
    .errors(&[503]),
    Route::new(Post, "/api/coordinator/approvals/{workflowId}", "approvalDecide", "Approve or reject a gate (admin)")
        .tag(COORDINATOR)
        .auth(Auth::Admin)
        .body(schema::<DecideRequest>)
        .json(schema::<DecisionReply>)
        .errors(&[409, 503]),
    Route::new(
        Post,
        "/api/coordinator/approvals",
        "approvalsDecide",
        "Decide up to 100 gates at once, per item (admin)",
    )
    .tag(COORDINATOR)
    .auth(Auth::Admin)
    .body(schema::<crate::workflows::controls::BulkDecideRequest>)
    .json(schema::<crate::workflows::controls::BulkDecideReply>)
    .errors(&[503]),
    Route::new(
        Post,
        "/api/coordinator/workflows/{workflowId}/cancel",
        "workflowCancel",
        "Cancel a live workflow and its live children, with a reason (admin)",
    )
    .tag(CONTROLS)
    .auth(Auth::Admin)
    .body(schema::<crate::workflows::controls::CancelBody>)
    .json(schema::<crate::workflows::controls::CancelReply>)
    .errors(&[409, 503]),
    // Controls.
    Route::new(Get, "/api/controls/pauses", "pausesList", "The standing pauses of workers and workflow types")
        .tag(CONTROLS)
        .auth(Auth::Session)
        .json(schema::<crate::workflows::controls::PauseList>)
        .errors(&[503]),
    Route::new(
        Post,
        "/api/controls/pause",
        "pause",
        "Pause a worker or a workflow type (admin): 201 new, 200 standing",
    )
    .tag(CONTROLS)
    .auth(Auth::Admin)
    .body(schema::<crate::workflows::controls::PauseRequest>)
    .success(&[200, 201])
    .json(schema::<crate::workflows::controls::PauseView>)
    .errors(&[404, 503]),
    Route::new(Post, "/api/controls/resume", "resume", "Lift a pause and wake the workflows it held (admin)")
        .tag(CONTROLS)
        .auth(Auth::Admin)
        .body(schema::<crate::workflows::controls::ResumeRequest>)
        .json(schema::<crate::workflows::controls::ResumeReply>)
        .errors(&[404, 503]),
    Route::new(Get, "/api/controls/budgets", "budgetsList", "Token budgets with what was spent against them")
        .tag(CONTROLS)
        .auth(Auth::Session)
        .json(schema::<crate::budgets::BudgetList>),
    Route::new(
        Post,
        "/api/controls/budgets",
        "budgetSet",
        "Set one token budget, or put it back to the default (admin)",
    )
    .tag(CONTROLS)
    .auth(Auth::Admin)
    .body(schema::<crate::budgets::SetBudget>)
    .json(schema::<crate::budgets::BudgetList>)
    .errors(&[404]),
    Route::new(Post, "/api/controls/cancel", "workflowsCancel", "Cancel every live workflow matching a filter (admin)")
        .tag(CONTROLS)
        .auth(Auth::Admin)
        .body(schema::<crate::workflows::controls::BulkCancelRequest>)
        .json(schema::<crate::workflows::controls::BulkCancelReply>)
        .errors(&[503]),
    // Metrics views.
    Route::new(Get, "/api/metrics/{view}", "metricsView", "The latest rollup of a metric view")
        .tag(METRICS)
        .auth(Auth::Session)
        .json(metric_view),
    // The MCP face.
    Route::new(Post, "/mcp", "mcpPost", "MCP Streamable HTTP: a JSON-RPC message")
        .tag(MCP)
        .auth(Auth::Mcp)
        .success(&[200, 202])
        .content(Content::Rpc)
        .errors(&[400, 404, 406, 413, 415, 429])
        .no_fuzz("the MCP transport (JSON-RPC sessions and event streams); tests/mcp drives it with real clients"),
    Route::new(Get, "/mcp", "mcpStream", "MCP Streamable HTTP: the server-to-client event stream")
        .tag(MCP)
        .auth(Auth::Mcp)
        .content(Content::Rpc)
        .errors(&[400, 404, 405, 406, 429])
        .no_fuzz("an open-ended event stream"),
    Route::new(Delete, "/mcp", "mcpClose", "MCP Streamable HTTP: end a session")
        .tag(MCP)
        .auth(Auth::Mcp)
        .success(&[200, 204])
        .errors(&[400, 404, 405, 429])
        .no_fuzz("ends MCP sessions, which only exist inside the transport"),
    Route::new(Get, "/mcp/guide", "mcpGuide", "Every MCP tool with its schema and an example call")
        .tag(MCP)
        .content(HTML),
    Route::new(Get, "/.well-known/oauth-protected-resource", "mcpResourceMetadata", "RFC 9728 metadata of /mcp")
        .tag(MCP)
        .content(OBJECT),
    Route::new(
        Get,
        "/.well-known/oauth-protected-resource/mcp",
        "mcpResourceMetadataForPath",
        "RFC 9728 metadata of /mcp",
    )
    .tag(MCP)
    .content(OBJECT),
];
