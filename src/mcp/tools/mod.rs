//! The tools, one file per group, and `all()`: the registration list. Adding a tool is a type
//! implementing `McpTool` in its group's file plus one line here. Also the pieces tools share:
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
use super::registry::ToolContext;
use super::registry::ToolDef;
use crate::companies::card::Card;
pub use crate::companies::card::CompanyRef;
use crate::domain::Slug;

/// Every tool of the server, in the order `tools/list` and the guide show them.
pub fn all() -> Vec<ToolDef> {
    vec![
        ToolDef::of::<company_lookup::CompanyGet>(),
        ToolDef::of::<directory::CompanySearch>(),
        ToolDef::of::<company_lookup::CompanyByTicker>(),
        ToolDef::of::<company_lookup::CompanyByDomain>(),
        ToolDef::of::<company_lookup::CompanyByCik>(),
        ToolDef::of::<company_lookup::TickerToSlug>(),
        ToolDef::of::<company_lookup::CompanyEnrich>(),
        ToolDef::of::<company_claims::CompanyWhyNow>(),
        ToolDef::of::<company_claims::CompanyStatements>(),
        ToolDef::of::<company_claims::CompanyLatestQuote>(),
        ToolDef::of::<company_claims::CompanyExecutives>(),
        ToolDef::of::<company_claims::CompanyFamily>(),
        ToolDef::of::<company_claims::CompanySources>(),
        ToolDef::of::<company_claims::CompaniesCompare>(),
        ToolDef::of::<directory::SectorList>(),
        ToolDef::of::<directory::SectorCompanies>(),
        ToolDef::of::<directory::LetterCompanies>(),
        ToolDef::of::<directory::SignalsSearch>(),
        ToolDef::of::<directory::ExecutivesSearch>(),
        ToolDef::of::<receipts::ReceiptVerify>(),
        ToolDef::of::<receipts::CoverageStats>(),
        ToolDef::of::<guide_tool::DirectoryGuide>(),
        ToolDef::of::<ops::HealthTool>(),
        ToolDef::of::<ops::TasksStatus>(),
        ToolDef::of::<workers::WorkersList>(),
        ToolDef::of::<workers::WorkerGet>(),
        ToolDef::of::<workers::WorkerStartWorkflow>(),
        ToolDef::of::<workers::WorkflowTypesTool>(),
        ToolDef::of::<workers::WorkflowsList>(),
        ToolDef::of::<workers::WorkflowGet>(),
        ToolDef::of::<workers::ApprovalsList>(),
        ToolDef::of::<workers::ApprovalDecide>(),
        ToolDef::of::<deals::DealsList>(),
        ToolDef::of::<deals::DealGet>(),
        ToolDef::of::<deals::DealUpdateTool>(),
        ToolDef::of::<deals::PipelineSummaryTool>(),
        ToolDef::of::<deals::AccountBriefTool>(),
        ToolDef::of::<memory::MemoryTree>(),
        ToolDef::of::<memory::MemoryGet>(),
        ToolDef::of::<memory::MemoryWrite>(),
        ToolDef::of::<memory::MemorySearch>(),
        ToolDef::of::<memory::MemoryHealth>(),
        ToolDef::of::<memory::MemoryCompress>(),
        ToolDef::of::<brain::BrainChat>(),
        ToolDef::of::<brain::BrainHistory>(),
        ToolDef::of::<brain::BrainHistoryClear>(),
        ToolDef::of::<ops::MetricsPipeline>(),
        ToolDef::of::<ops::MetricsTokens>(),
        ToolDef::of::<ops::MetricsConsumption>(),
        ToolDef::of::<ops::MetricsWorkers>(),
        ToolDef::of::<coordinator::CoordinatorRun>(),
        ToolDef::of::<coordinator::CoordinatorRuns>(),
        ToolDef::of::<coordinator::CoordinatorRunGet>(),
        ToolDef::of::<controls::AuditListTool>(),
        ToolDef::of::<controls::PausesList>(),
        ToolDef::of::<controls::Pause>(),
        ToolDef::of::<controls::Resume>(),
        ToolDef::of::<controls::WorkflowCancel>(),
        ToolDef::of::<controls::WorkflowsCancel>(),
        ToolDef::of::<controls::BudgetsList>(),
        ToolDef::of::<controls::BudgetSet>(),
    ]
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
