//! The public company card (`/company/data/{slug}.json`) and the internal registry row that
//! lets enrichment find tracked companies without a page. Every claim on a card is a `Claim`,
//! so a card cannot carry an unreceipted statement, executive or subsidiary.

use serde::{Deserialize, Serialize};

use super::seed::{Executive, Statement, Subsidiary};
use crate::domain::Claim;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Card {
    /// Stable account id derived from the CIK (`acc_` + ten digits).
    pub account_id: String,
    pub slug: String,
    pub legal_name: String,
    /// Primary ticker.
    pub ticker: String,
    pub cik: String,
    pub exchange: String,
    pub sector: Option<String>,
    pub domain: Option<String>,
    pub family: Family,
    /// Receipted statements, newest filing first.
    pub why_now: Vec<Claim<Statement>>,
    pub executives: Vec<Claim<Executive>>,
    pub mcp_package_hint: McpHint,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Family {
    /// The parent company's slug when the registrant is itself a subsidiary (none known today).
    pub parent: Option<String>,
    pub subsidiaries: Vec<Claim<Subsidiary>>,
}

/// How an agent fetches this card through the MCP server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct McpHint {
    pub server_url: String,
    pub transport: String,
    pub tool: String,
    pub arguments: serde_json::Value,
}

/// A company with a card, in brief: how lists and the enrichment answer name it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CompanyRef {
    pub account_id: String,
    pub slug: String,
    pub legal_name: String,
    pub ticker: String,
    pub cik: String,
    pub domain: Option<String>,
    pub sector: Option<String>,
}

impl From<&Card> for CompanyRef {
    fn from(c: &Card) -> Self {
        Self {
            account_id: c.account_id.clone(),
            slug: c.slug.clone(),
            legal_name: c.legal_name.clone(),
            ticker: c.ticker.clone(),
            cik: c.cik.clone(),
            domain: c.domain.clone(),
            sector: c.sector.clone(),
        }
    }
}

/// One tracked company, page or not: what enrichment needs to resolve a domain or ticker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegistryRow {
    pub cik: String,
    pub tickers: Vec<String>,
    pub legal_name: String,
    pub domain: Option<String>,
    /// Present when the company has a public card.
    pub slug: Option<String>,
}

pub fn account_id(cik: &str) -> String {
    format!("acc_{cik}")
}

impl AsRef<Card> for Card {
    fn as_ref(&self) -> &Card {
        self
    }
}
