//! `directory_guide`: what the data is, the truth rule, the keyless files, and the tools this
//! connection can call, grouped by toolset (from the registry, so it never drifts).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::directory::NoArgs;
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

#[derive(Debug, Serialize, JsonSchema)]
pub struct Guide {
    pub about: String,
    pub truth_rule: String,
    pub paging: String,
    /// The keyless JSON files of the same data (no key needed).
    pub files: Vec<FileEntry>,
    /// The HTML page listing every tool with schemas and an example call.
    pub guide_page: String,
    /// The toolsets and tools this connection can use.
    pub toolsets: Vec<ToolsetEntry>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FileEntry {
    pub path: String,
    pub what: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ToolsetEntry {
    pub name: String,
    pub tools: Vec<ToolEntry>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ToolEntry {
    pub name: String,
    pub description: String,
    pub example_arguments: Value,
}

const FILES: [(&str, &str); 5] = [
    ("/company/data/index.json", "counts, every company with a card, sector and letter hubs"),
    ("/company/data/{slug}.json", "one company's card (what company_get returns)"),
    ("/company/search-index.json", "rows of slug, name, ticker, statements, people"),
    ("/company/quotes.json", "one newest verbatim quote per company with its receipt"),
    ("/company/_slugmap.json", "ticker to slug"),
];

pub struct DirectoryGuide;
impl McpTool for DirectoryGuide {
    const NAME: &'static str = "directory_guide";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Start here: what the company data is, the receipt (truth) rule, paging, the \
        keyless files, and every tool this connection can call with an example.";
    type Args = NoArgs;
    type Output = Guide;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<Guide, ToolError> {
        let dir = ctx.state.directory();
        let toolsets = ctx
            .selection
            .toolsets()
            .map(|t| ToolsetEntry {
                name: t.as_str().to_owned(),
                tools: ctx
                    .registry
                    .in_toolset(t)
                    .filter(|tool| tool.admitted_by(&ctx.selection))
                    .map(|tool| ToolEntry {
                        name: tool.name.to_owned(),
                        description: tool.description.to_owned(),
                        example_arguments: tool.example.clone(),
                    })
                    .collect(),
            })
            .collect();
        Ok(Guide {
            about: format!(
                "Receipted facts about US public companies from SEC EDGAR filings: {} tracked companies, {} with a \
                 card; newest filing {}.",
                dir.tracked(),
                dir.with_page(),
                dir.generated_at()
            ),
            truth_rule: "Every statement, executive and subsidiary carries receipt {quote, url, form, filed, \
                         accession}: the verbatim sentence and the EDGAR address of the filing it stands in. \
                         Nothing is returned without one, and no contact data is ever returned."
                .into(),
            paging: "List tools take limit (1-100, default 20) and offset; each list output has page {total, \
                     offset, limit, returned, truncated, next_offset}. The workspace lists that grow without \
                     bound (deals_list, workflows_list, approvals_list, coordinator_runs) take limit and cursor \
                     instead; their page is {total, limit, returned, truncated, next_cursor}."
                .into(),
            files: FILES.iter().map(|(path, what)| FileEntry { path: (*path).into(), what: (*what).into() }).collect(),
            guide_page: "/mcp/guide".into(),
            toolsets,
        })
    }
}
