//! The `controls` toolset (opt-in: `?toolsets=controls`): the audit log of admin actions,
//! read as `GET /api/audit` reads it (admins only), and pause, resume and cancel as
//! `/api/controls` does them (`workflows::controls`), and the token budgets (`budgets`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::audit::{self, AuditList, AuditListQuery};
use crate::budgets::{self, BudgetList, SetBudget};
use crate::mcp::error::ToolError;
use crate::mcp::registry::{Access, McpTool, ToolContext, Toolset};
use crate::mcp::tools::directory::NoArgs;
use crate::mcp::tools::workers::service;
use crate::workflows::controls::{
    BulkCancelReply, BulkCancelRequest, CancelBody, CancelReply, PauseList, PauseRequest, PauseView, ResumeReply,
    ResumeRequest,
};

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

pub struct PausesList;
impl McpTool for PausesList {
    const NAME: &'static str = "pauses_list";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "The standing pauses, as GET /api/controls/pauses: each names a worker or a \
        workflow type, who paused it, when and why. While a pause stands, starts of what it names are refused and \
        running workflows hold at their next activity boundary.";
    type Args = NoArgs;
    type Output = PauseList;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<PauseList, ToolError> {
        Ok(service(ctx)?.pauses().await?)
    }
}

pub struct Pause;
impl McpTool for Pause {
    const NAME: &'static str = "pause";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Pause a worker or a workflow type (admin only), as POST /api/controls/pause: \
        give exactly one of worker (an id from workers_list) and type (a workflow type), and a reason. New starts \
        are refused (conflict) and running workflows hold at their next activity boundary, with a 'paused' step in \
        their history, until resume. Pausing what is already paused keeps the standing pause.";
    const ACCESS: Access = Access::Write;
    type Args = PauseRequest;
    type Output = PauseView;
    fn example() -> Value {
        json!({ "type": "content-generation", "reason": "brand review before the launch" })
    }
    async fn run(ctx: &ToolContext, request: PauseRequest) -> Result<PauseView, ToolError> {
        Ok(service(ctx)?.pause(ctx.admin()?, request).await?.0)
    }
}

pub struct Resume;
impl McpTool for Resume {
    const NAME: &'static str = "resume";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Lift a pause (admin only), as POST /api/controls/resume: exactly one of worker \
        and type. The workflows it held go on (released counts them); not paused is not_found.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = ResumeRequest;
    type Output = ResumeReply;
    fn example() -> Value {
        json!({ "type": "content-generation" })
    }
    async fn run(ctx: &ToolContext, request: ResumeRequest) -> Result<ResumeReply, ToolError> {
        Ok(service(ctx)?.resume(ctx.admin()?, request).await?)
    }
}

/// `workflow_cancel`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelArgs {
    /// The live workflow to cancel.
    pub workflow_id: String,
    /// Why (recorded in its history and result).
    pub reason: String,
}

pub struct WorkflowCancel;
impl McpTool for WorkflowCancel {
    const NAME: &'static str = "workflow_cancel";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Cancel one live workflow and its live children (admin only), as POST \
        /api/coordinator/workflows/:id/cancel, with a reason recorded in its history. It ends at once when parked at \
        a gate or a pause, else when its current activity ends (status running until then). An ended workflow is a \
        conflict error; an unknown one not_found.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = CancelArgs;
    type Output = CancelReply;
    fn example() -> Value {
        json!({ "workflow_id": "content-generation-0123456789ab", "reason": "the account churned" })
    }
    async fn run(ctx: &ToolContext, a: CancelArgs) -> Result<CancelReply, ToolError> {
        Ok(service(ctx)?.cancel(ctx.admin()?, &a.workflow_id, CancelBody { reason: a.reason }).await?)
    }
}

pub struct WorkflowsCancel;
impl McpTool for WorkflowsCancel {
    const NAME: &'static str = "workflows_cancel";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Cancel every live workflow matching a filter (admin only), as POST \
        /api/controls/cancel: at least one of type, worker and startedBefore (RFC 3339), and a reason. Answers the \
        filter and one result per workflow (cancelled, ended, failed), live children of a matched workflow \
        included with their parent named.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = BulkCancelRequest;
    type Output = BulkCancelReply;
    fn example() -> Value {
        json!({ "type": "content-generation", "startedBefore": "2026-11-27T09:00:00Z", "reason": "wrong brief" })
    }
    async fn run(ctx: &ToolContext, filter: BulkCancelRequest) -> Result<BulkCancelReply, ToolError> {
        Ok(service(ctx)?.cancel_matching(ctx.admin()?, filter).await?)
    }
}

pub struct BudgetsList;
impl McpTool for BudgetsList {
    const NAME: &'static str = "budgets_list";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Token budgets with what was spent against them, as GET /api/controls/budgets: \
        the workspace's, each Brain user's (one limit for every user), and each worker's, per UTC day and month, \
        with source (config or admin), spent tokens and US dollars, and state (ok, near past the soft share, \
        spent).";
    type Args = NoArgs;
    type Output = BudgetList;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<BudgetList, ToolError> {
        Ok(budgets::list_all(ctx.state.store(), &ctx.state.config().budgets).await?)
    }
}

pub struct BudgetSet;
impl McpTool for BudgetSet {
    const NAME: &'static str = "budget_set";
    const TOOLSET: Toolset = Toolset::Controls;
    const DESCRIPTION: &'static str = "Set one token budget (admin only), as POST /api/controls/budgets: scope \
        (brain, worker with its worker id, or workspace) and dailyTokens and/or monthlyTokens (1 to 10^12); both \
        left out puts the budget back to the configured default. A Brain user past the budget gets a \
        rate_limited error until the period renews. Answers every budget with its spend.";
    const ACCESS: Access = Access::Write;
    type Args = SetBudget;
    type Output = BudgetList;
    fn example() -> Value {
        json!({ "scope": "brain", "dailyTokens": 200000 })
    }
    async fn run(ctx: &ToolContext, request: SetBudget) -> Result<BudgetList, ToolError> {
        budgets::set(ctx.state.store(), ctx.admin()?, request).await?;
        Ok(budgets::list_all(ctx.state.store(), &ctx.state.config().budgets).await?)
    }
}
