//! The `coordinator` toolset on the same `workflows` service as `/api/coordinator/runs`: start
//! a run toward a goal (admin; the service refuses viewers), list runs, and one run with its
//! nine steps, children and synthesis.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{CursorArgs, CursorInfo, limit};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{Access, McpTool, Toolset};
use crate::workflows::listing::PageQuery;
use crate::workflows::service::RunRequest;
use crate::workflows::views::{RunDetail, RunStarted, RunSummary};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunArgs {
    /// What the team should achieve, in a sentence (1 to 2,000 bytes); name companies to research them.
    pub goal: String,
}

pub struct CoordinatorRun;
impl McpTool for CoordinatorRun {
    const NAME: &'static str = "coordinator_run";
    const TOOLSET: Toolset = Toolset::Coordinator;
    const DESCRIPTION: &'static str = "Start a coordinator run toward a goal (admin only): intake, load context, \
        research accounts, plan, assign, dispatch child workflows to the workers, await their results and \
        approvals, synthesize, write memory and notify. Answers runId and workflowId; follow with \
        coordinator_run_get.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = RunArgs;
    type Output = RunStarted;
    fn example() -> Value {
        json!({ "goal": "Qualify Construction Partners and onboard Home Depot" })
    }
    async fn run(ctx: &ToolContext, a: RunArgs) -> Result<RunStarted, ToolError> {
        let workflows = ctx.state.workflows()?;
        Ok(workflows.run_coordinator(ctx.admin()?, RunRequest { goal: a.goal }).await?)
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RunsPage {
    /// Newest first.
    pub runs: Vec<RunSummary>,
    pub page: CursorInfo,
}

pub struct CoordinatorRuns;
impl McpTool for CoordinatorRuns {
    const NAME: &'static str = "coordinator_runs";
    const TOOLSET: Toolset = Toolset::Coordinator;
    const DESCRIPTION: &'static str = "Coordinator runs newest first, one page at a time: run id, workflow id, goal, \
        status, current step, started and updated times. Same data as GET /api/coordinator/runs.";
    type Args = CursorArgs;
    type Output = RunsPage;
    fn example() -> Value {
        json!({ "limit": 5 })
    }
    async fn run(ctx: &ToolContext, a: CursorArgs) -> Result<RunsPage, ToolError> {
        let limit = limit(a.limit)?;
        let query = PageQuery { limit: Some(limit), cursor: a.cursor };
        let list = ctx.state.workflows()?.runs(&query).await?;
        let page = CursorInfo::new(list.total, limit, list.runs.len(), list.next_cursor);
        Ok(RunsPage { runs: list.runs, page })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunIdArgs {
    /// A run id (`run-…`) or the run's workflow id (`coordinator-…`).
    pub run_id: String,
}

pub struct CoordinatorRunGet;
impl McpTool for CoordinatorRunGet {
    const NAME: &'static str = "coordinator_run_get";
    const TOOLSET: Toolset = Toolset::Coordinator;
    const DESCRIPTION: &'static str = "One coordinator run: its nine steps (each with status, times and output), \
        its child workflow ids and, once done, its synthesis. An unknown id is an error.";
    type Args = RunIdArgs;
    type Output = RunDetail;
    fn example() -> Value {
        json!({ "run_id": "run-0123456789ab" })
    }
    async fn run(ctx: &ToolContext, a: RunIdArgs) -> Result<RunDetail, ToolError> {
        Ok(ctx.state.workflows()?.run(&a.run_id).await?)
    }
}
