//! The `memory` toolset on the same `memory` service as `/api/memory`: the tree, one entry,
//! a key's history, word search, a worker's health, and the admin writes (`memory_write`,
//! `memory_compress`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::auth::Principal;
use crate::mcp::context::Caller;
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{Access, McpTool, Toolset};
use crate::memory::{
    self, CompressionReport, HealthReport, KeyHistory, MemoryEntry, SearchResults, Tree, WriteRequest,
};

/// The workspace user behind a call (write tools are only offered to them).
pub fn principal(ctx: &ToolContext) -> Result<&Principal, ToolError> {
    match &ctx.caller {
        Caller::Workspace(p) => Ok(p),
        Caller::ApiKey { .. } => Err(ToolError::NotPermitted("this tool needs a workspace token".into())),
    }
}

pub struct MemoryTree;
impl McpTool for MemoryTree {
    const NAME: &'static str = "memory_tree";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "The memory hierarchy: every scope (org, team:<id>, worker:<id>) with its entry, \
        byte and token totals and one page of its keys (sizes in bytes and estimated tokens, versions, pinned \
        flags; 100 per scope unless limit says, 1-1000); name a scope and pass its nextCursor as cursor for the \
        next page. Same as GET /api/memory/tree.";
    type Args = memory::TreePage;
    type Output = Tree;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, args: memory::TreePage) -> Result<Tree, ToolError> {
        Ok(memory::tree(ctx.state.store(), &args)?)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryArgs {
    /// `org`, `team:<id>` or `worker:<id>`.
    pub scope: String,
    pub key: String,
    /// Return every version of the key (archived ones included) instead of the current entry.
    #[serde(default)]
    pub history: bool,
}

/// The current entry, or the key's history when asked for.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EntryOrHistory {
    pub entry: Option<MemoryEntry>,
    pub history: Option<KeyHistory>,
}

pub struct MemoryGet;
impl McpTool for MemoryGet {
    const NAME: &'static str = "memory_get";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "One memory entry by scope and key, or with history=true every version of it \
        (superseded and archived ones included). An unknown key is an error.";
    type Args = EntryArgs;
    type Output = EntryOrHistory;
    fn example() -> Value {
        json!({ "scope": "org", "key": "icp" })
    }
    async fn run(ctx: &ToolContext, a: EntryArgs) -> Result<EntryOrHistory, ToolError> {
        let store = ctx.state.store();
        Ok(if a.history {
            EntryOrHistory { entry: None, history: Some(memory::history(store, &a.scope, &a.key).await?) }
        } else {
            EntryOrHistory { entry: Some(memory::get(store, &a.scope, &a.key).await?), history: None }
        })
    }
}

/// The written entry and whether it was new.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Written {
    pub entry: MemoryEntry,
    pub created: bool,
}

pub struct MemoryWrite;
impl McpTool for MemoryWrite {
    const NAME: &'static str = "memory_write";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "Write a memory entry (admin only): scope, key, value (at most 16 KiB), \
        optional pinned and tags, and ifVersion to refuse the write if the entry changed since you read it. \
        The previous version stays in the history.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = WriteRequest;
    type Output = Written;
    fn example() -> Value {
        json!({ "scope": "org", "key": "icp", "value": "Mid-market US banks", "tags": ["sales"] })
    }
    async fn run(ctx: &ToolContext, request: WriteRequest) -> Result<Written, ToolError> {
        let (entry, created) = memory::write(ctx.state.store(), ctx.admin()?, request).await?;
        Ok(Written { entry, created })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words to find in keys, values and tags (three letters or more count).
    pub q: String,
    /// Limit the search to one scope.
    pub scope: Option<String>,
}

pub struct MemorySearch;
impl McpTool for MemorySearch {
    const NAME: &'static str = "memory_search";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "Find memory entries by words (in key, value or tags), best match first \
        (most words, then most recently written; at most 50), optionally in one scope, with `total` \
        matching (at least that many when `totalExact` is false). Same as GET /api/memory/search.";
    type Args = SearchArgs;
    type Output = SearchResults;
    fn example() -> Value {
        json!({ "q": "pricing objections" })
    }
    async fn run(ctx: &ToolContext, a: SearchArgs) -> Result<SearchResults, ToolError> {
        Ok(memory::search(ctx.state.store(), &a.q, a.scope.as_deref()).await?)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkerArgs {
    /// A worker id, e.g. `revenue-analyst`.
    pub worker_id: String,
}

pub struct MemoryHealth;
impl McpTool for MemoryHealth {
    const NAME: &'static str = "memory_health";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "A worker's memory health: entries, pinned facts, estimated tokens against \
        its budget, utilization, stale entries and the last compression.";
    type Args = WorkerArgs;
    type Output = HealthReport;
    fn example() -> Value {
        json!({ "worker_id": "revenue-analyst" })
    }
    async fn run(ctx: &ToolContext, a: WorkerArgs) -> Result<HealthReport, ToolError> {
        Ok(memory::health(ctx.state.store(), &a.worker_id).await?)
    }
}

pub struct MemoryCompress;
impl McpTool for MemoryCompress {
    const NAME: &'static str = "memory_compress";
    const TOOLSET: Toolset = Toolset::Memory;
    const DESCRIPTION: &'static str = "Compress a worker's memory now (admin only): when over budget, its oldest \
        unpinned entries are summarised into one entry by the fast model and archived (still readable through \
        their history). Answers what was folded.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = WorkerArgs;
    type Output = CompressionReport;
    fn example() -> Value {
        json!({ "worker_id": "revenue-analyst" })
    }
    async fn run(ctx: &ToolContext, a: WorkerArgs) -> Result<CompressionReport, ToolError> {
        Ok(memory::compress(ctx.state.store(), ctx.state.llm(), ctx.admin()?, &a.worker_id).await?)
    }
}
