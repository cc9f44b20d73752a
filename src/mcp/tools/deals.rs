//! The `deals` toolset: the pipeline through the same `deals` service as `/api/deals` —
//! list (filters and paging), detail, the summary, the admin update with its stage rules,
//! and `account_brief`, a deal joined with its company's receipted card.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::directory::NoArgs;
use super::{CursorInfo, limit};
use crate::companies::card::Card;
use crate::deals::{self, DealDetail, DealFilter, DealSummary, DealUpdate, PipelineSummary};
use crate::domain::{CalendarDate, DealType, Stage};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{Access, McpTool, Toolset};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealsListArgs {
    pub stage: Option<Stage>,
    pub deal_type: Option<DealType>,
    /// A sales rep's name, exactly as deals carry it.
    pub rep: Option<String>,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DealsPage {
    pub deals: Vec<DealSummary>,
    pub page: CursorInfo,
}

pub struct DealsList;
impl McpTool for DealsList {
    const NAME: &'static str = "deals_list";
    const TOOLSET: Toolset = Toolset::Deals;
    const DESCRIPTION: &'static str = "Deals of the pipeline in id order, optionally filtered by stage, deal type \
        and rep (an unknown value is an error), one page at a time. Same data as GET /api/deals.";
    type Args = DealsListArgs;
    type Output = DealsPage;
    fn example() -> Value {
        json!({ "stage": "proposal", "limit": 5 })
    }
    async fn run(ctx: &ToolContext, args: DealsListArgs) -> Result<DealsPage, ToolError> {
        let limit = limit(args.limit)?;
        let filter = DealFilter { stage: args.stage, deal_type: args.deal_type, rep: args.rep };
        let found = deals::page(ctx.state.store(), &filter, args.cursor.as_deref(), limit);
        let total = usize::try_from(found.total).unwrap_or(usize::MAX);
        let page = CursorInfo::new(total, limit, found.deals.len(), found.next);
        Ok(DealsPage { deals: found.deals, page })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealIdArgs {
    /// Deal id, e.g. `deal-001` (find ids with deals_list).
    pub id: String,
}

pub struct DealGet;
impl McpTool for DealGet {
    const NAME: &'static str = "deal_get";
    const TOOLSET: Toolset = Toolset::Deals;
    const DESCRIPTION: &'static str =
        "One deal in detail: value, stage, type, rep, champion and champion status, next step and stage history.";
    type Args = DealIdArgs;
    type Output = DealDetail;
    fn example() -> Value {
        json!({ "id": "deal-001" })
    }
    async fn run(ctx: &ToolContext, args: DealIdArgs) -> Result<DealDetail, ToolError> {
        Ok(deals::get(ctx.state.store(), &args.id).await?)
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealUpdateArgs {
    /// Deal id, e.g. `deal-001`.
    pub id: String,
    /// The fields to change, exactly as the body of PATCH /api/deals/:id.
    pub changes: DealUpdate,
}

pub struct DealUpdateTool;
impl McpTool for DealUpdateTool {
    const NAME: &'static str = "deal_update";
    const TOOLSET: Toolset = Toolset::Deals;
    const DESCRIPTION: &'static str = "Update a deal (admin only): move it forward or close it, or change its next \
        step, champion, champion status, probability or close date. Every stage move is added to the history.";
    const ACCESS: Access = Access::Write;
    const IDEMPOTENT: bool = false;
    type Args = DealUpdateArgs;
    type Output = DealDetail;
    fn example() -> Value {
        json!({ "id": "deal-001", "changes": { "nextStep": "Send the order form" } })
    }
    async fn run(ctx: &ToolContext, a: DealUpdateArgs) -> Result<DealDetail, ToolError> {
        let today = CalendarDate::from_naive(ctx.state.clock().utc().date_naive());
        Ok(deals::update(ctx.state.store(), ctx.admin()?, &a.id, a.changes, today).await?)
    }
}

pub struct PipelineSummaryTool;
impl McpTool for PipelineSummaryTool {
    const NAME: &'static str = "pipeline_summary";
    const TOOLSET: Toolset = Toolset::Deals;
    const DESCRIPTION: &'static str =
        "Pipeline totals: summed deal value overall, by stage and by type, and the deal count.";
    type Args = NoArgs;
    type Output = PipelineSummary;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<PipelineSummary, ToolError> {
        Ok(deals::summary(ctx.state.store()))
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountBrief {
    pub deal: DealDetail,
    /// The receipted card of the deal's company; null when it has none.
    pub company: Option<Card>,
}

pub struct AccountBriefTool;
impl McpTool for AccountBriefTool {
    const NAME: &'static str = "account_brief";
    const TOOLSET: Toolset = Toolset::Deals;
    const DESCRIPTION: &'static str = "A deal joined with its company's receipted card: the deal in detail plus \
        the company's why-now statements and executives, every claim with its receipt.";
    type Args = DealIdArgs;
    type Output = AccountBrief;
    fn example() -> Value {
        json!({ "id": "deal-001" })
    }
    async fn run(ctx: &ToolContext, args: DealIdArgs) -> Result<AccountBrief, ToolError> {
        let deal = deals::get(ctx.state.store(), &args.id).await?;
        let directory = ctx.state.directory();
        let company = deal.company_slug.as_deref().and_then(|s| directory.by_slug(s)).and_then(|c| c.card().cloned());
        Ok(AccountBrief { company: company.map(|c| c.as_ref().clone()), deal })
    }
}
