//! The `workers` toolset on the same `workflows` service as `/api/workers` and
//! `/api/coordinator/{workflows,approvals}`: the workers with their derived status, one worker,
//! the workflow type catalog, workflows (filtered, paged) and one workflow, pending approvals,
//! and the admin writes `worker_start_workflow` and `approval_decide` (the service refuses
//! viewers).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::directory::NoArgs;
use super::{CursorArgs, CursorInfo, limit};
use crate::domain::{Decision, WorkflowStatus, WorkflowType};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{Access, McpTool, Toolset};
use crate::workflows::catalog::{self, WorkflowTypes};
use crate::workflows::listing::PageQuery;
use crate::workflows::service::{DecideRequest, WorkflowFilter};
use crate::workflows::views::{
    DecisionReply, PendingApproval, StartReply, WorkerDetail, WorkerList, WorkflowDetail, WorkflowSummary,
};
use crate::workflows::{StartRequest, Workflows};

/// The workflow service (the controls tools use it too).
pub(super) fn service(ctx: &ToolContext) -> Result<&Workflows, ToolError> {
    Ok(ctx.state.workflows()?)
}

pub struct WorkersList;
impl McpTool for WorkersList {
    const NAME: &'static str = "workers_list";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "The AI workers: id, name, role, status (running when one of its workflows \
        executes, waiting when one is parked at a human approval, stopped otherwise), current task, memory entries \
        and live workflow ids. Same as GET /api/workers.";
    type Args = NoArgs;
    type Output = WorkerList;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<WorkerList, ToolError> {
        Ok(WorkerList { workers: service(ctx)?.workers().await? })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkerIdArgs {
    /// A worker id, e.g. `sdr` (find ids with workers_list).
    pub worker_id: String,
}

pub struct WorkerGet;
impl McpTool for WorkerGet {
    const NAME: &'static str = "worker_get";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "One worker in detail: its derived status, team, the workflow types it runs \
        and its memory (pinned facts, total entries, last compression). An unknown id is an error.";
    type Args = WorkerIdArgs;
    type Output = WorkerDetail;
    fn example() -> Value {
        json!({ "worker_id": "sdr" })
    }
    async fn run(ctx: &ToolContext, a: WorkerIdArgs) -> Result<WorkerDetail, ToolError> {
        Ok(service(ctx)?.worker(&a.worker_id).await?)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartArgs {
    /// The worker to run it, e.g. `sdr`; it must run the type (see workflow_types).
    pub worker_id: String,
    /// A startable type: client-onboarding, lead-qualification, content-generation or ticket-resolution.
    pub workflow_type: String,
    /// The type's parameters, all strings (required and optional ones: see workflow_types).
    #[serde(default)]
    pub params: Map<String, Value>,
}

pub struct WorkerStartWorkflow;
impl McpTool for WorkerStartWorkflow {
    const NAME: &'static str = "worker_start_workflow";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "Start a workflow on a worker (admin only), as POST /api/workers/:id/start: \
        missing or unknown params, a type the worker does not run and internal types are errors. Answers the new \
        workflowId; follow it with workflow_get.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = StartArgs;
    type Output = StartReply;
    fn example() -> Value {
        json!({
            "worker_id": "sdr",
            "workflow_type": "lead-qualification",
            "params": { "leadId": "lead-42", "company": "Construction Partners", "contact": "ops lead" }
        })
    }
    async fn run(ctx: &ToolContext, a: StartArgs) -> Result<StartReply, ToolError> {
        let request = StartRequest::parse(&a.workflow_type, a.params)?;
        Ok(service(ctx)?.start(ctx.admin()?, &a.worker_id, request).await?)
    }
}

pub struct WorkflowTypesTool;
impl McpTool for WorkflowTypesTool {
    const NAME: &'static str = "workflow_types";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "The six registered workflow types: what each does, its steps in order, \
        required and optional params, whether it can be started with worker_start_workflow, and which workers \
        run it.";
    type Args = NoArgs;
    type Output = WorkflowTypes;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<WorkflowTypes, ToolError> {
        Ok(catalog::types(ctx.state.store()).await?)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowsListArgs {
    /// Only this worker's workflows.
    pub worker: Option<String>,
    /// Only this type, e.g. `client-onboarding` (an unknown type is an error).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Only this status: running, waiting, completed, failed or cancelled.
    pub status: Option<String>,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct WorkflowsPage {
    /// Newest first.
    pub workflows: Vec<WorkflowSummary>,
    pub page: CursorInfo,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ApprovalsPage {
    /// Oldest request first.
    pub approvals: Vec<PendingApproval>,
    pub page: CursorInfo,
}

pub struct WorkflowsList;
impl McpTool for WorkflowsList {
    const NAME: &'static str = "workflows_list";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "Workflows newest first, optionally filtered by worker, type and status, one \
        page at a time: id, type, worker, status, current step, started and updated times. Same data as \
        GET /api/coordinator/workflows.";
    type Args = WorkflowsListArgs;
    type Output = WorkflowsPage;
    fn example() -> Value {
        json!({ "status": "waiting", "limit": 10 })
    }
    async fn run(ctx: &ToolContext, a: WorkflowsListArgs) -> Result<WorkflowsPage, ToolError> {
        let kind = match a.kind.as_deref() {
            Some(t) => {
                Some(WorkflowType::parse(t).ok_or_else(|| ToolError::InvalidArguments(format!("unknown type {t:?}")))?)
            }
            None => None,
        };
        let status = match a.status.as_deref() {
            Some(s) => Some(WorkflowStatus::parse(s).ok_or_else(|| {
                ToolError::InvalidArguments(format!(
                    "unknown status {s:?} (running, waiting, completed, failed, cancelled)"
                ))
            })?),
            None => None,
        };
        let limit = limit(a.limit)?;
        let filter = WorkflowFilter { worker: a.worker, kind, status, limit: Some(limit), cursor: a.cursor };
        let list = service(ctx)?.list(&filter).await?;
        let page = CursorInfo::new(list.total, limit, list.workflows.len(), list.next_cursor);
        Ok(WorkflowsPage { workflows: list.workflows, page })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowIdArgs {
    /// A workflow id, e.g. `client-onboarding-0123456789ab` (find ids with workflows_list).
    pub workflow_id: String,
}

pub struct WorkflowGet;
impl McpTool for WorkflowGet {
    const NAME: &'static str = "workflow_get";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "One workflow in detail: params, every step with status, times and output \
        (declared steps not reached yet as pending), result, approval, error, parent run and children.";
    type Args = WorkflowIdArgs;
    type Output = WorkflowDetail;
    fn example() -> Value {
        json!({ "workflow_id": "client-onboarding-0123456789ab" })
    }
    async fn run(ctx: &ToolContext, a: WorkflowIdArgs) -> Result<WorkflowDetail, ToolError> {
        Ok(service(ctx)?.get(&a.workflow_id).await?)
    }
}

pub struct ApprovalsList;
impl McpTool for ApprovalsList {
    const NAME: &'static str = "approvals_list";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "Approvals waiting for a human, oldest first: workflow, worker, type, gated \
        step, what is to be approved and when it was requested. Decide them with approval_decide.";
    type Args = CursorArgs;
    type Output = ApprovalsPage;
    fn example() -> Value {
        json!({ "limit": 10 })
    }
    async fn run(ctx: &ToolContext, a: CursorArgs) -> Result<ApprovalsPage, ToolError> {
        let limit = limit(a.limit)?;
        let list = service(ctx)?.approvals(&PageQuery { limit: Some(limit), cursor: a.cursor }).await?;
        let page = CursorInfo::new(list.total, limit, list.approvals.len(), list.next_cursor);
        Ok(ApprovalsPage { approvals: list.approvals, page })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecideArgs {
    /// The workflow whose approval is pending.
    pub workflow_id: String,
    pub decision: Decision,
    /// Why (at most 1,000 bytes); a rejected onboarding plan is revised with it.
    pub comment: Option<String>,
}

pub struct ApprovalDecide;
impl McpTool for ApprovalDecide {
    const NAME: &'static str = "approval_decide";
    const TOOLSET: Toolset = Toolset::Workers;
    const DESCRIPTION: &'static str = "Approve or reject a workflow's pending approval (admin only), as POST \
        /api/coordinator/approvals/:workflowId. A rejection ends the gated work (content not published, an \
        onboarding plan revised once). Nothing pending is a conflict error; an unknown workflow not_found.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = DecideArgs;
    type Output = DecisionReply;
    fn example() -> Value {
        json!({ "workflow_id": "client-onboarding-0123456789ab", "decision": "approve", "comment": "Looks right" })
    }
    async fn run(ctx: &ToolContext, a: DecideArgs) -> Result<DecisionReply, ToolError> {
        let request = DecideRequest { decision: a.decision, comment: a.comment };
        Ok(service(ctx)?.decide(ctx.admin()?, &a.workflow_id, request).await?)
    }
}
