//! Across the whole directory: name search, sector and letter hubs (as `index.json` groups
//! them), and statement and executive search.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::company_claims::date_arg;
use super::{CompanyRef, PageInfo, page};
use crate::companies::card::Signal;
use crate::companies::query::{self, StatementFilter};
use crate::companies::seed::Executive;
use crate::companies::{card::Card, hubs};
use crate::domain::{Claim, SignalKind};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Name, ticker or slug (case-insensitive), e.g. `apple` or `AAPL`.
    pub query: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CompanyList {
    pub page: PageInfo,
    pub companies: Vec<ListedCompany>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ListedCompany {
    #[serde(flatten)]
    pub company: CompanyRef,
    /// Receipted statements on the card.
    pub statements: usize,
    /// Executives on the card.
    pub people: usize,
}

fn listed<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Vec<ListedCompany> {
    cards
        .into_iter()
        .map(|c| ListedCompany { company: c.into(), statements: c.why_now.len(), people: c.executives.len() })
        .collect()
}

pub struct CompanySearch;
impl McpTool for CompanySearch {
    const NAME: &'static str = "company_search";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Find companies with a receipted card by name, ticker or slug. Best matches \
        first (exact ticker or slug, then name prefix, then a word of the name, then any substring). Paged.";
    type Args = SearchArgs;
    type Output = CompanyList;
    fn example() -> Value {
        json!({ "query": "apple", "limit": 5 })
    }
    async fn run(ctx: &ToolContext, args: SearchArgs) -> Result<CompanyList, ToolError> {
        if args.query.trim().is_empty() {
            return Err(ToolError::bad("query must not be empty"));
        }
        let hits = query::search(ctx.state.directory(), &args.query);
        let (companies, page) = page(listed(hits.into_iter().map(|c| c.as_ref())), args.limit, args.offset)?;
        Ok(CompanyList { page, companies })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SectorHubs {
    pub sectors: Vec<SectorHub>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SectorHub {
    pub slug: String,
    pub name: String,
    /// Companies with a card in the sector.
    pub count: usize,
}

pub struct SectorList;
impl McpTool for SectorList {
    const NAME: &'static str = "sector_list";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Every sector hub with its slug and number of companies with a card (as in \
        /company/data/index.json).";
    type Args = NoArgs;
    type Output = SectorHubs;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<SectorHubs, ToolError> {
        let sectors = query::sectors(ctx.state.directory())
            .into_iter()
            .map(|(name, cards)| SectorHub { slug: hubs::sector_slug(name), name: name.to_owned(), count: cards.len() })
            .collect();
        Ok(SectorHubs { sectors })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectorArgs {
    /// Sector slug or name, e.g. `financials` (see sector_list).
    pub sector: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct HubCompanies {
    /// The hub: a sector name or a letter.
    pub hub: String,
    pub page: PageInfo,
    pub companies: Vec<ListedCompany>,
}

pub struct SectorCompanies;
impl McpTool for SectorCompanies {
    const NAME: &'static str = "sector_companies";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "The companies with a card in one sector, in slug order. Paged.";
    type Args = SectorArgs;
    type Output = HubCompanies;
    fn example() -> Value {
        json!({ "sector": "financials" })
    }
    async fn run(ctx: &ToolContext, args: SectorArgs) -> Result<HubCompanies, ToolError> {
        let (name, cards) = query::sector(ctx.state.directory(), &args.sector)
            .ok_or_else(|| ToolError::NotFound(format!("no sector {:?}; sector_list names them", args.sector)))?;
        let (companies, page) = page(listed(cards), args.limit, args.offset)?;
        Ok(HubCompanies { hub: name.to_owned(), page, companies })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LetterArgs {
    /// A letter `a`–`z`, or `0-9` for slugs that start with a digit.
    pub letter: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

pub struct LetterCompanies;
impl McpTool for LetterCompanies {
    const NAME: &'static str = "letter_companies";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "The companies with a card whose slug starts with a letter (or `0-9`), in \
        slug order. Paged.";
    type Args = LetterArgs;
    type Output = HubCompanies;
    fn example() -> Value {
        json!({ "letter": "a", "limit": 10 })
    }
    async fn run(ctx: &ToolContext, args: LetterArgs) -> Result<HubCompanies, ToolError> {
        let letter = args.letter.trim().to_lowercase();
        let valid = letter == "0-9" || (letter.len() == 1 && letter.bytes().all(|b| b.is_ascii_lowercase()));
        if !valid {
            return Err(ToolError::bad(format!("letter {:?} is not a-z or 0-9", args.letter)));
        }
        let cards = query::letter(ctx.state.directory(), &letter);
        let (companies, page) = page(listed(cards), args.limit, args.offset)?;
        Ok(HubCompanies { hub: letter, page, companies })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SignalsArgs {
    /// Words the statement contains (case-insensitive).
    pub query: Option<String>,
    /// Only statements of this kind.
    pub kind: Option<SignalKind>,
    /// Only statements filed on or after this date (YYYY-MM-DD).
    pub since: Option<String>,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SignalHits {
    pub page: PageInfo,
    /// Newest filing first.
    pub signals: Vec<SignalHit>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SignalHit {
    pub company: CompanyRef,
    #[serde(flatten)]
    pub statement: Claim<Signal>,
}

pub struct SignalsSearch;
impl McpTool for SignalsSearch {
    const NAME: &'static str = "signals_search";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Search receipted statements across every company by words, kind (e.g. \
        acquisition, leadership_change) and filing date, newest first. Give at least one filter. Paged.";
    type Args = SignalsArgs;
    type Output = SignalHits;
    fn example() -> Value {
        json!({ "kind": "acquisition", "since": "2025-01-01", "limit": 10 })
    }
    async fn run(ctx: &ToolContext, args: SignalsArgs) -> Result<SignalHits, ToolError> {
        let text = args.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let since = date_arg("since", args.since.as_deref())?;
        if text.is_none() && args.kind.is_none() && since.is_none() {
            return Err(ToolError::bad("give at least one of query, kind or since"));
        }
        let filter = StatementFilter { text, kind: args.kind, since: since.as_deref() };
        let hits = query::statements(ctx.state.directory(), filter)
            .into_iter()
            .map(|(card, s)| SignalHit { company: card.into(), statement: s.clone() })
            .collect();
        let (signals, page) = page(hits, args.limit, args.offset)?;
        Ok(SignalHits { page, signals })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PeopleArgs {
    /// Part of a name or a title (case-insensitive), e.g. `chief financial officer`.
    pub query: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PeopleHits {
    pub page: PageInfo,
    pub executives: Vec<PersonHit>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PersonHit {
    pub company: CompanyRef,
    #[serde(flatten)]
    pub executive: Claim<Executive>,
}

pub struct ExecutivesSearch;
impl McpTool for ExecutivesSearch {
    const NAME: &'static str = "executives_search";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Search executives across every company by part of a name or title, each \
        with the company and the receipt. No contact data. Paged.";
    type Args = PeopleArgs;
    type Output = PeopleHits;
    fn example() -> Value {
        json!({ "query": "chief financial officer", "limit": 10 })
    }
    async fn run(ctx: &ToolContext, args: PeopleArgs) -> Result<PeopleHits, ToolError> {
        if args.query.trim().len() < 2 {
            return Err(ToolError::bad("query needs at least 2 characters"));
        }
        let hits = query::executives(ctx.state.directory(), &args.query)
            .into_iter()
            .map(|(card, e)| PersonHit { company: card.into(), executive: e.clone() })
            .collect();
        let (executives, page) = page(hits, args.limit, args.offset)?;
        Ok(PeopleHits { page, executives })
    }
}
