//! The `controls` toolset (opt-in: `?toolsets=controls`): the audit log of admin actions,
//! read as `GET /api/audit` reads it (admins only).

use serde_json::{Value, json};

use crate::audit::{self, AuditList, AuditListQuery};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

pub struct AuditListTool;
impl McpTool for AuditListTool {
    const NAME: &'static str = "audit_list";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "The audit log (admin only): who did what to which target, when and from \
        where (api, console, mcp with the client address, or cli), newest first. Each record holds the SHA-256 of \
        the one before. Filter by exact action (deal.update, memory.write, approval.decide, workflow.start, \
        key.create, invite.create, backup.create, ...), actor or target; page with limit (1-1000, default 100) \
        and the nextCursor of the page before.";
    type Args = AuditListQuery;
    type Output = AuditList;
    fn example() -> Value {
        json!({ "action": "deal.update", "limit": 20 })
    }
    async fn run(ctx: &ToolContext, query: AuditListQuery) -> Result<AuditList, ToolError> {
        let admin = ctx.admin()?;
        Ok(audit::list(ctx.state.store(), admin, query).await?)
    }
}
