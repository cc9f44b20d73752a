//! The `metrics` toolset: the four metric views (the latest rollup, as the HTTP routes
//! serve it), the scheduler's jobs and the server's health.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::directory::NoArgs;
use crate::jobs::{self, JobStatus};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};
use crate::metrics::{self, ConsumptionView, Latest, PipelineView, TokenView, TokensReply, WorkersView};
use crate::state::Health;

macro_rules! metric_tool {
    ($ty:ident, $name:literal, $view:ty, $desc:literal) => {
        pub struct $ty;
        impl McpTool for $ty {
            const NAME: &'static str = $name;
            const TOOLSET: Toolset = Toolset::Metrics;
            const DESCRIPTION: &'static str = $desc;
            type Args = NoArgs;
            /// The view as `/api/metrics/{view}` returns it, with `computedAt`.
            type Output = Latest<$view>;
            fn example() -> Value {
                json!({})
            }
            async fn run(ctx: &ToolContext, _: NoArgs) -> Result<Latest<$view>, ToolError> {
                Ok(metrics::latest::<$view>(ctx.state.store()).await?)
            }
        }
    };
}

metric_tool!(
    MetricsPipeline,
    "metrics_pipeline",
    PipelineView,
    "Pipeline metrics: total, open and weighted value, deal counts by stage, win rate = won / (won + lost)."
);
pub struct MetricsTokens;
impl McpTool for MetricsTokens {
    const NAME: &'static str = "metrics_tokens";
    const TOOLSET: Toolset = Toolset::Metrics;
    const DESCRIPTION: &'static str = "Language-model token use: input and output tokens and USD cost, by worker, \
        by model and by day; with every token budget (workspace, Brain, each worker) and what was spent against it \
        today and this month, as of now.";
    type Args = NoArgs;
    /// As `/api/metrics/tokens` returns it: the rollup with `computedAt`, and `budgets`.
    type Output = TokensReply;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<TokensReply, ToolError> {
        let store = ctx.state.store();
        let latest = metrics::latest::<TokenView>(store).await?;
        let budgets = crate::budgets::list_all(store, &ctx.state.config().budgets).await?.budgets;
        Ok(TokensReply { latest, budgets })
    }
}
metric_tool!(
    MetricsConsumption,
    "metrics_consumption",
    ConsumptionView,
    "Consumption per account with a commit: month-to-date usage, daily run-rate, EBAM, EAR and headroom."
);
metric_tool!(
    MetricsWorkers,
    "metrics_workers",
    WorkersView,
    "Per worker: workflows started, completed and failed, success rate, mean duration, pending approvals, tokens, cost."
);

#[derive(Debug, Serialize, JsonSchema)]
pub struct Jobs {
    pub jobs: Vec<JobStatus>,
}

pub struct TasksStatus;
impl McpTool for TasksStatus {
    const NAME: &'static str = "tasks_status";
    const TOOLSET: Toolset = Toolset::Metrics;
    const DESCRIPTION: &'static str =
        "The scheduler's jobs: each job's cron schedule, its last run (times, outcome, error) and next run.";
    type Args = NoArgs;
    type Output = Jobs;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<Jobs, ToolError> {
        let jobs = jobs::status(&ctx.state).await?;
        Ok(Jobs { jobs })
    }
}

pub struct HealthTool;
impl McpTool for HealthTool {
    const NAME: &'static str = "health";
    const TOOLSET: Toolset = Toolset::Metrics;
    const DESCRIPTION: &'static str = "The server's health: status, workflow engine (temporal connected, disconnected or disabled), mode, uptime, version.";
    type Args = NoArgs;
    type Output = Health;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<Health, ToolError> {
        Ok(ctx.state.health())
    }
}
