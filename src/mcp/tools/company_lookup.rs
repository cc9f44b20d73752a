//! Finding one company: by slug (the card itself, as each card's `mcp_package_hint` names),
//! ticker, domain or CIK, ticker to slug, and enrichment (the best receipted signal, ranked by
//! `companies::enrich` exactly as `GET /v1/enrich` ranks it).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::card;
use crate::companies::card::Card;
use crate::companies::directory::Company;
use crate::companies::enrich::{self, EnrichReply};
use crate::companies::query;
use crate::domain::{DomainName, Ticker};
use crate::mcp::context::Caller;
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlugArgs {
    /// Company slug, e.g. `apple` (lowercase kebab; find it with company_search).
    pub slug: String,
}

pub struct CompanyGet;
impl McpTool for CompanyGet {
    const NAME: &'static str = "company_get";
    const TOOLSET: Toolset = Toolset::Company;
    const CACHEABLE: bool = true;
    const DESCRIPTION: &'static str = "The full receipted card of one company by slug: identity, sector, domain, \
        family (subsidiaries), why-now statements newest first and executives, every claim with its receipt \
        (verbatim quote, EDGAR URL, form, filing date, accession). Same JSON as /company/data/{slug}.json.";
    type Args = SlugArgs;
    type Output = Card;
    fn example() -> Value {
        json!({ "slug": "apple" })
    }
    async fn run(ctx: &ToolContext, args: SlugArgs) -> Result<Card, ToolError> {
        Ok(card(ctx, &args.slug)?.as_ref().clone())
    }
}

/// A tracked company (every SEC registrant with a ticker), with its card when it has one.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CompanyMatch {
    pub company: TrackedCompany,
    /// The receipted card; null when the company has no receipted statement yet.
    pub card: Option<Card>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackedCompany {
    pub cik: String,
    pub legal_name: String,
    /// Every ticker; the first is the primary one.
    pub tickers: Vec<String>,
    pub domain: Option<String>,
    /// The card's slug, when the company has a card.
    pub slug: Option<String>,
}

impl From<&Company> for CompanyMatch {
    fn from(c: &Company) -> Self {
        let company = TrackedCompany {
            cik: c.row.cik.clone(),
            legal_name: c.row.legal_name.clone(),
            tickers: c.row.tickers.clone(),
            domain: c.row.domain.clone(),
            slug: c.row.slug.clone(),
        };
        Self { company, card: c.card().map(|card| (**card).clone()) }
    }
}

fn ticker(input: &str) -> Result<Ticker, ToolError> {
    Ticker::parse(input).map_err(|e| ToolError::bad(format!("ticker {input:?}: {e}")))
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TickerArgs {
    /// Exchange ticker, any case; share classes as BRK.B, BRK-B or BRK/B.
    pub ticker: String,
}

pub struct CompanyByTicker;
impl McpTool for CompanyByTicker {
    const NAME: &'static str = "company_by_ticker";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Look a tracked company up by any of its tickers (share classes included). \
        Returns the registry entry and, when the company has one, its receipted card.";
    type Args = TickerArgs;
    type Output = CompanyMatch;
    fn example() -> Value {
        json!({ "ticker": "AAPL" })
    }
    async fn run(ctx: &ToolContext, args: TickerArgs) -> Result<CompanyMatch, ToolError> {
        let t = ticker(&args.ticker)?;
        let found = ctx.state.directory().by_ticker(&t);
        found
            .map(CompanyMatch::from)
            .ok_or_else(|| ToolError::NotFound(format!("no tracked company has the ticker {t}")))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DomainArgs {
    /// Company website domain or URL (`apple.com`, `https://www.apple.com/iphone`); reduced to the
    /// registrable domain.
    pub domain: String,
}

pub struct CompanyByDomain;
impl McpTool for CompanyByDomain {
    const NAME: &'static str = "company_by_domain";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Look a tracked company up by its website domain (scheme, www., port, path \
        and case are ignored; subdomains fall back to the registrable domain). Returns the registry entry and its \
        receipted card when it has one.";
    type Args = DomainArgs;
    type Output = CompanyMatch;
    fn example() -> Value {
        json!({ "domain": "https://www.apple.com/" })
    }
    async fn run(ctx: &ToolContext, args: DomainArgs) -> Result<CompanyMatch, ToolError> {
        let d = DomainName::parse(&args.domain).map_err(ToolError::bad)?;
        let found = ctx.state.directory().by_domain(&d);
        found
            .map(CompanyMatch::from)
            .ok_or_else(|| ToolError::NotFound(format!("no tracked company has the domain {d}")))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CikArgs {
    /// SEC Central Index Key, 1–10 digits (zero padding optional), e.g. `320193`.
    pub cik: String,
}

pub struct CompanyByCik;
impl McpTool for CompanyByCik {
    const NAME: &'static str = "company_by_cik";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Look a tracked company up by its SEC CIK (with or without zero padding). \
        Returns the registry entry and its receipted card when it has one.";
    type Args = CikArgs;
    type Output = CompanyMatch;
    fn example() -> Value {
        json!({ "cik": "320193" })
    }
    async fn run(ctx: &ToolContext, args: CikArgs) -> Result<CompanyMatch, ToolError> {
        let cik = query::parse_cik(&args.cik)
            .ok_or_else(|| ToolError::bad(format!("cik {:?} is not 1 to 10 digits", args.cik)))?;
        let found = ctx.state.directory().by_cik(&cik);
        found
            .map(CompanyMatch::from)
            .ok_or_else(|| ToolError::NotFound(format!("no tracked company has the CIK {cik}")))
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TickerSlug {
    /// The ticker as normalised (upper case, share class with a dash).
    pub ticker: String,
    pub cik: String,
    pub legal_name: String,
    /// The card's slug; null when the company has no card (as in /company/_slugmap.json).
    pub slug: Option<String>,
}

pub struct TickerToSlug;
impl McpTool for TickerToSlug {
    const NAME: &'static str = "ticker_to_slug";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Map a ticker to the company's card slug (null when the tracked company has \
        no card), with its CIK and legal name.";
    type Args = TickerArgs;
    type Output = TickerSlug;
    fn example() -> Value {
        json!({ "ticker": "aapl" })
    }
    async fn run(ctx: &ToolContext, args: TickerArgs) -> Result<TickerSlug, ToolError> {
        let t = ticker(&args.ticker)?;
        let c = ctx
            .state
            .directory()
            .by_ticker(&t)
            .ok_or_else(|| ToolError::NotFound(format!("no tracked company has the ticker {t}")))?;
        let slug = c.card().map(|card| card.slug.clone());
        Ok(TickerSlug { ticker: t.to_string(), cik: c.row.cik.clone(), legal_name: c.row.legal_name.clone(), slug })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnrichArgs {
    /// Company website domain or URL (the primary key).
    pub domain: Option<String>,
    /// Ticker (the alternate key). When both are given they must name the same company.
    pub ticker: Option<String>,
    /// Only a signal at most this many days old today (its `age_days`); none that fresh is an
    /// error (`no_signal`).
    pub max_age_days: Option<u32>,
}

pub struct CompanyEnrich;
impl McpTool for CompanyEnrich {
    const NAME: &'static str = "company_enrich";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Enrich an account: the company named by domain and/or ticker and its single \
        best receipted why-now signal (kind weight × recency) with its age in days, as GET /v1/enrich answers; \
        max_age_days keeps only signals at most that old.";
    type Args = EnrichArgs;
    type Output = EnrichReply;
    fn example() -> Value {
        json!({ "domain": "apple.com" })
    }
    async fn run(ctx: &ToolContext, args: EnrichArgs) -> Result<EnrichReply, ToolError> {
        let nonempty = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        let domain = nonempty(&args.domain).map(|d| DomainName::parse(&d)).transpose().map_err(ToolError::bad)?;
        let ticker = nonempty(&args.ticker).map(|t| ticker(&t)).transpose()?;
        let tenant = match &ctx.caller {
            Caller::ApiKey { tenant, .. } => Some(tenant.clone()),
            Caller::Workspace(_) => None,
        };
        let now = ctx.state.clock().utc();
        let query =
            enrich::EnrichQuery { domain: domain.as_ref(), ticker: ticker.as_ref(), max_age_days: args.max_age_days };
        Ok(enrich::enrich(ctx.state.directory(), query, tenant, now)?)
    }
}
