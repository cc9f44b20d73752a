//! One company's receipted claims: why-now signals ranked as enrichment ranks them, every
//! statement with filters, the latest quote, executives, family, the filings cited, and a
//! side-by-side comparison. Every claim leaves with its receipt.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{CompanyRef, PageInfo, card, page};
use crate::companies::card::Signal;
use crate::companies::enrich;
use crate::companies::enrich::ScoredSignal;
use crate::companies::query::{self, StatementFilter};
use crate::companies::seed::{Executive, Subsidiary};
use crate::domain::{Claim, SignalKind};
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PagedSlugArgs {
    /// Company slug, e.g. `apple`.
    pub slug: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhyNowArgs {
    /// Company slug, e.g. `apple`.
    pub slug: String,
    /// Page size, 1–100 (default 20).
    pub limit: Option<u32>,
    /// Results to skip (default 0).
    pub offset: Option<u32>,
    /// Only signals at most this many days old today (their `age_days`); none that fresh is an
    /// error (`no_signal`).
    pub max_age_days: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct RankedSignals {
    pub company: CompanyRef,
    /// The reference date of the recency score.
    pub as_of: String,
    pub page: PageInfo,
    /// Best first: kind weight × recency, then the newer filing.
    pub signals: Vec<ScoredSignal>,
}

pub struct CompanyWhyNow;
impl McpTool for CompanyWhyNow {
    const NAME: &'static str = "company_why_now";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Why reach out now: a company's receipted signals ranked best first by kind \
        weight × recency (the enrichment ranking), each with its score, its age in days, whether it is fresh, and \
        its receipt; max_age_days keeps only signals at most that old. Paged.";
    type Args = WhyNowArgs;
    type Output = RankedSignals;
    fn example() -> Value {
        json!({ "slug": "apple", "limit": 5 })
    }
    async fn run(ctx: &ToolContext, args: WhyNowArgs) -> Result<RankedSignals, ToolError> {
        let c = card(ctx, &args.slug)?;
        let as_of = ctx.state.directory().generated_at();
        let today = ctx.state.clock().utc().date_naive();
        let ranked: Vec<ScoredSignal> = enrich::ranked_signals(&c, as_of)
            .into_iter()
            .map(|(claim, score)| ScoredSignal::new(claim.clone(), score, today))
            .filter(|s| args.max_age_days.is_none_or(|max| s.age_days <= i64::from(max)))
            .collect();
        if let (Some(max), true) = (args.max_age_days, ranked.is_empty()) {
            return Err(enrich::LookupError::NoFreshSignal(max).into());
        }
        let (signals, page) = page(ranked, args.limit, args.offset)?;
        Ok(RankedSignals { company: c.as_ref().into(), as_of: as_of.to_owned(), page, signals })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatementsArgs {
    /// Company slug, e.g. `apple`.
    pub slug: String,
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
pub struct Statements {
    pub company: CompanyRef,
    pub page: PageInfo,
    /// Newest filing first.
    pub statements: Vec<Claim<Signal>>,
}

/// A YYYY-MM-DD date argument.
pub fn date_arg(name: &str, value: Option<&str>) -> Result<Option<String>, ToolError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) if chrono::NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok() => Ok(Some(v.to_owned())),
        Some(v) => Err(ToolError::bad(format!("{name} {v:?} is not a YYYY-MM-DD date"))),
    }
}

pub struct CompanyStatements;
impl McpTool for CompanyStatements {
    const NAME: &'static str = "company_statements";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Every receipted statement a company makes about itself in its filings, \
        newest first, optionally only one kind or only since a date. Paged.";
    type Args = StatementsArgs;
    type Output = Statements;
    fn example() -> Value {
        json!({ "slug": "apple", "since": "2024-01-01" })
    }
    async fn run(ctx: &ToolContext, args: StatementsArgs) -> Result<Statements, ToolError> {
        let c = card(ctx, &args.slug)?;
        let since = date_arg("since", args.since.as_deref())?;
        let filter = StatementFilter { text: None, kind: args.kind, since: since.as_deref() };
        let all = c.why_now.iter().filter(|s| filter.admits(s)).cloned().collect();
        let (statements, page) = page(all, args.limit, args.offset)?;
        Ok(Statements { company: c.as_ref().into(), page, statements })
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct LatestQuote {
    pub company: CompanyRef,
    /// The newest receipted statement (as listed in /company/quotes.json).
    pub statement: Claim<Signal>,
}

pub struct CompanyLatestQuote;
impl McpTool for CompanyLatestQuote {
    const NAME: &'static str = "company_latest_quote";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "A company's newest verbatim quote from its filings, with the receipt.";
    type Args = super::company_lookup::SlugArgs;
    type Output = LatestQuote;
    fn example() -> Value {
        json!({ "slug": "apple" })
    }
    async fn run(ctx: &ToolContext, args: Self::Args) -> Result<LatestQuote, ToolError> {
        let c = card(ctx, &args.slug)?;
        let newest = query::latest_statement(&c)
            .ok_or_else(|| ToolError::NotFound(format!("{} has no receipted statement", c.slug)))?;
        Ok(LatestQuote { company: c.as_ref().into(), statement: newest.clone() })
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Executives {
    pub company: CompanyRef,
    pub page: PageInfo,
    pub executives: Vec<Claim<Executive>>,
}

pub struct CompanyExecutives;
impl McpTool for CompanyExecutives {
    const NAME: &'static str = "company_executives";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "A company's executives (name and title as its filings state them), each \
        with the receipt. No contact data is ever returned. Paged.";
    type Args = PagedSlugArgs;
    type Output = Executives;
    fn example() -> Value {
        json!({ "slug": "apple" })
    }
    async fn run(ctx: &ToolContext, args: PagedSlugArgs) -> Result<Executives, ToolError> {
        let c = card(ctx, &args.slug)?;
        let (executives, page) = page(c.executives.clone(), args.limit, args.offset)?;
        Ok(Executives { company: c.as_ref().into(), page, executives })
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FamilyPage {
    pub company: CompanyRef,
    /// The parent company's slug when the registrant is itself a subsidiary.
    pub parent: Option<String>,
    pub page: PageInfo,
    /// Subsidiaries from Exhibit 21, each with its receipt.
    pub subsidiaries: Vec<Claim<Subsidiary>>,
}

pub struct CompanyFamily;
impl McpTool for CompanyFamily {
    const NAME: &'static str = "company_family";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "A company's corporate family: parent (if known) and subsidiaries as listed \
        in its filings' Exhibit 21, each with the receipt. Paged.";
    type Args = PagedSlugArgs;
    type Output = FamilyPage;
    fn example() -> Value {
        json!({ "slug": "apple", "limit": 50 })
    }
    async fn run(ctx: &ToolContext, args: PagedSlugArgs) -> Result<FamilyPage, ToolError> {
        let c = card(ctx, &args.slug)?;
        let (subsidiaries, page) = page(c.family.subsidiaries.clone(), args.limit, args.offset)?;
        Ok(FamilyPage { company: c.as_ref().into(), parent: c.family.parent.clone(), page, subsidiaries })
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Sources {
    pub company: CompanyRef,
    pub page: PageInfo,
    /// The filing documents the card's claims cite, newest first.
    pub filings: Vec<Filing>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Filing {
    /// The document's address (EDGAR's, or a press release's own).
    pub url: String,
    pub form: String,
    pub filed: String,
    /// SEC accession number; null for a press release.
    pub accession: Option<String>,
    /// How many of the card's claims cite this document.
    pub claims: usize,
}

pub struct CompanySources;
impl McpTool for CompanySources {
    const NAME: &'static str = "company_sources";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "The SEC filings behind a company's card: each EDGAR document cited by its \
        claims, with form, filing date, accession and how many claims cite it. Paged.";
    type Args = PagedSlugArgs;
    type Output = Sources;
    fn example() -> Value {
        json!({ "slug": "apple" })
    }
    async fn run(ctx: &ToolContext, args: PagedSlugArgs) -> Result<Sources, ToolError> {
        let c = card(ctx, &args.slug)?;
        let filings = query::filings(&c)
            .into_iter()
            .map(|f| Filing {
                url: f.url.to_owned(),
                form: f.form.to_owned(),
                filed: f.filed.to_owned(),
                accession: f.accession.map(str::to_owned),
                claims: f.claims,
            })
            .collect();
        let (filings, page) = page(filings, args.limit, args.offset)?;
        Ok(Sources { company: c.as_ref().into(), page, filings })
    }
}

/// How many companies `companies_compare` takes.
const COMPARE_MAX: usize = 5;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareArgs {
    /// 2 to 5 company slugs.
    pub slugs: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Comparison {
    /// The reference date of the recency scores.
    pub as_of: String,
    /// In the order asked.
    pub companies: Vec<ComparedCompany>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ComparedCompany {
    pub company: CompanyRef,
    pub exchange: String,
    pub domain: Option<String>,
    pub statements: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    /// The newest filing date behind any statement.
    pub latest_filing: Option<String>,
    /// The best signal by the enrichment ranking, with its receipt.
    pub best_signal: Option<ScoredSignal>,
}

pub struct CompaniesCompare;
impl McpTool for CompaniesCompare {
    const NAME: &'static str = "companies_compare";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Compare 2–5 companies side by side: sector, exchange, counts of receipted \
        statements, executives and subsidiaries, newest filing, and each one's best receipted signal.";
    type Args = CompareArgs;
    type Output = Comparison;
    fn example() -> Value {
        json!({ "slugs": ["apple", "microsoft"] })
    }
    async fn run(ctx: &ToolContext, args: CompareArgs) -> Result<Comparison, ToolError> {
        if !(2..=COMPARE_MAX).contains(&args.slugs.len()) {
            return Err(ToolError::bad(format!(
                "slugs must list 2 to {COMPARE_MAX} companies, got {}",
                args.slugs.len()
            )));
        }
        let as_of = ctx.state.directory().generated_at();
        let today = ctx.state.clock().utc().date_naive();
        let mut companies = Vec::with_capacity(args.slugs.len());
        for slug in &args.slugs {
            let c = card(ctx, slug)?;
            let best = enrich::ranked_signals(&c, as_of).into_iter().next();
            companies.push(ComparedCompany {
                company: c.as_ref().into(),
                exchange: c.exchange.clone(),
                domain: c.domain.clone(),
                statements: c.why_now.len(),
                executives: c.executives.len(),
                subsidiaries: c.family.subsidiaries.len(),
                latest_filing: c.why_now.iter().map(|s| s.receipt().filed().to_owned()).max(),
                best_signal: best.map(|(claim, score)| ScoredSignal::new(claim.clone(), score, today)),
            });
        }
        Ok(Comparison { as_of: as_of.to_owned(), companies })
    }
}
