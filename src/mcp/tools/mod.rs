//! The tools, one file per group, and `visit()`: the registration list. Adding a tool is a type
//! implementing `McpTool` in its group's file, one line here and `make tool-schemas`. Also the pieces tools share:
//! paging (limit 1–100, default 20, with `truncated` and `next_offset` in every list output;
//! the workspace lists, which grow without bound, page by `cursor` and answer `next_cursor`),
//! the compact company reference, and slug resolution.
//! All 53 tools of DESIGN.md: 22 company tools and 31 workspace tools in six toolsets, served
//! by default; and the opt-in `controls` toolset (`audit_list`, `pauses_list`, `pause`, `resume`,
//! `workflow_cancel`, `workflows_cancel`, `budgets_list`, `budget_set`).

mod brain;
mod company_claims;
mod company_lookup;
mod controls;
mod coordinator;
mod deals;
mod directory;
mod guide_tool;
mod memory;
mod ops;
mod receipts;
mod workers;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::ToolError;
use super::registry::{McpTool, ToolContext, ToolDef};
use crate::companies::card::Card;
pub use crate::companies::card::CompanyRef;
use crate::domain::Slug;

/// Something done with every tool type, in the order `tools/list` and the guide show them
/// (`visit`): registering it (`all`), or deriving its schemas (the test that writes
/// `tool_schemas.json`).
pub trait Visit {
    fn tool<T: McpTool>(&mut self)
    where
        T::Args: Send;
}

/// Calls `v.tool` with every tool of the server, in order.
pub fn visit(v: &mut impl Visit) {
    v.tool::<company_lookup::CompanyGet>();
    v.tool::<directory::CompanySearch>();
    v.tool::<company_lookup::CompanyByTicker>();
    v.tool::<company_lookup::CompanyByDomain>();
    v.tool::<company_lookup::CompanyByCik>();
    v.tool::<company_lookup::TickerToSlug>();
    v.tool::<company_lookup::CompanyEnrich>();
    v.tool::<company_claims::CompanyWhyNow>();
    v.tool::<company_claims::CompanyStatements>();
    v.tool::<company_claims::CompanyLatestQuote>();
    v.tool::<company_claims::CompanyExecutives>();
    v.tool::<company_claims::CompanyFamily>();
    v.tool::<company_claims::CompanySources>();
    v.tool::<company_claims::CompaniesCompare>();
    v.tool::<directory::SectorList>();
    v.tool::<directory::SectorCompanies>();
    v.tool::<directory::LetterCompanies>();
    v.tool::<directory::SignalsSearch>();
    v.tool::<directory::ExecutivesSearch>();
    v.tool::<receipts::ReceiptVerify>();
    v.tool::<receipts::CoverageStats>();
    v.tool::<guide_tool::DirectoryGuide>();
    v.tool::<ops::HealthTool>();
    v.tool::<ops::TasksStatus>();
    v.tool::<workers::WorkersList>();
    v.tool::<workers::WorkerGet>();
    v.tool::<workers::WorkerStartWorkflow>();
    v.tool::<workers::WorkflowTypesTool>();
    v.tool::<workers::WorkflowsList>();
    v.tool::<workers::WorkflowGet>();
    v.tool::<workers::ApprovalsList>();
    v.tool::<workers::ApprovalDecide>();
    v.tool::<deals::DealsList>();
    v.tool::<deals::DealGet>();
    v.tool::<deals::DealUpdateTool>();
    v.tool::<deals::PipelineSummaryTool>();
    v.tool::<deals::AccountBriefTool>();
    v.tool::<memory::MemoryTree>();
    v.tool::<memory::MemoryGet>();
    v.tool::<memory::MemoryWrite>();
    v.tool::<memory::MemorySearch>();
    v.tool::<memory::MemoryHealth>();
    v.tool::<memory::MemoryCompress>();
    v.tool::<brain::BrainChat>();
    v.tool::<brain::BrainHistory>();
    v.tool::<brain::BrainHistoryClear>();
    v.tool::<ops::MetricsPipeline>();
    v.tool::<ops::MetricsTokens>();
    v.tool::<ops::MetricsConsumption>();
    v.tool::<ops::MetricsWorkers>();
    v.tool::<coordinator::CoordinatorRun>();
    v.tool::<coordinator::CoordinatorRuns>();
    v.tool::<coordinator::CoordinatorRunGet>();
    v.tool::<controls::AuditListTool>();
    v.tool::<controls::PausesList>();
    v.tool::<controls::Pause>();
    v.tool::<controls::Resume>();
    v.tool::<controls::WorkflowCancel>();
    v.tool::<controls::WorkflowsCancel>();
    v.tool::<controls::BudgetsList>();
    v.tool::<controls::BudgetSet>();
}

/// Every tool of the server, in the order `tools/list` and the guide show them.
pub fn all() -> Vec<ToolDef> {
    struct Defs(Vec<ToolDef>);
    impl Visit for Defs {
        fn tool<T: McpTool>(&mut self)
        where
            T::Args: Send,
        {
            self.0.push(ToolDef::of::<T>());
        }
    }
    let mut defs = Defs(Vec::with_capacity(64));
    visit(&mut defs);
    defs.0
}

pub const DEFAULT_LIMIT: usize = 20;
pub const MAX_LIMIT: usize = 100;

/// Where a page sits in the full result list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PageInfo {
    /// Results in the full list.
    pub total: usize,
    pub offset: usize,
    pub limit: usize,
    pub returned: usize,
    /// True when results exist beyond this page.
    pub truncated: bool,
    /// The `offset` of the next page, when there is one.
    pub next_offset: Option<usize>,
}

/// Where a page of a cursor-paged list stands (deals, workflows, approvals, runs).
#[derive(Debug, Serialize, JsonSchema)]
pub struct CursorInfo {
    /// Results in the full list.
    pub total: usize,
    pub limit: usize,
    pub returned: usize,
    /// True when results exist beyond this page.
    pub truncated: bool,
    /// The `cursor` of the next page, when there is one.
    pub next_cursor: Option<String>,
}

impl CursorInfo {
    pub fn new(total: usize, limit: usize, returned: usize, next_cursor: Option<String>) -> Self {
        CursorInfo { total, limit, returned, truncated: next_cursor.is_some(), next_cursor }
    }
}

/// The arguments of a cursor-paged list without filters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CursorArgs {
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// A page size: 1–100, 20 when not given.
pub fn limit(limit: Option<u32>) -> Result<usize, ToolError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(l) if (1..=MAX_LIMIT as u32).contains(&l) => Ok(l as usize),
        Some(l) => Err(ToolError::bad(format!("limit must be between 1 and {MAX_LIMIT}, got {l}"))),
    }
}

/// One page of `items`; `limit` must be 1–100 (default 20).
pub fn page<T>(items: Vec<T>, limit: Option<u32>, offset: Option<u32>) -> Result<(Vec<T>, PageInfo), ToolError> {
    let limit = self::limit(limit)?;
    let offset = offset.unwrap_or(0) as usize;
    let total = items.len();
    let rows: Vec<T> = items.into_iter().skip(offset).take(limit).collect();
    let end = offset.saturating_add(rows.len());
    let truncated = end < total;
    let info =
        PageInfo { total, offset, limit, returned: rows.len(), truncated, next_offset: truncated.then_some(end) };
    Ok((rows, info))
}

/// The card of `slug`, or a clear error saying how to find one.
pub fn card(ctx: &ToolContext, slug: &str) -> Result<Arc<Card>, ToolError> {
    let slug = Slug::parse(slug.trim()).map_err(|e| ToolError::bad(format!("slug {slug:?}: {e}")))?;
    let company = ctx.state.directory().by_slug(slug.as_str());
    company.and_then(|c| c.card().cloned()).ok_or_else(|| {
        ToolError::NotFound(format!("no company card has the slug {slug:?}; find slugs with company_search"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_a_valid_schema_and_a_unique_name() {
        let tools = all();
        assert_eq!(tools.len(), 61);
        let per_toolset: Vec<usize> = crate::mcp::registry::Toolset::ALL
            .iter()
            .map(|set| tools.iter().filter(|t| t.toolset == *set).count())
            .collect();
        // company, workers, deals, memory, brain, metrics, coordinator (DESIGN.md, MCP: 53 by
        // default), then the opt-in controls.
        assert_eq!(per_toolset, [22, 8, 5, 6, 3, 6, 3, 8]);
        let mut names: Vec<&str> = tools.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 61);
        for t in &tools {
            assert_eq!(t.input_schema.get("type"), Some(&serde_json::json!("object")), "{}", t.name);
            assert_eq!(t.output_schema.get("type"), Some(&serde_json::json!("object")), "{}", t.name);
            assert!(t.example.is_object(), "{}", t.name);
        }
    }

    #[test]
    fn pages_are_bounded_and_say_when_truncated() {
        let (rows, info) = page((0..45).collect::<Vec<_>>(), None, Some(20)).unwrap();
        assert_eq!((rows.len(), info.truncated, info.next_offset), (20, true, Some(40)));
        let (rows, info) = page((0..45).collect::<Vec<_>>(), Some(100), Some(40)).unwrap();
        assert_eq!((rows.len(), info.truncated, info.next_offset), (5, false, None));
        assert!(page(vec![1], Some(101), None).is_err());
        assert!(page(vec![1], Some(0), None).is_err());
    }
}
