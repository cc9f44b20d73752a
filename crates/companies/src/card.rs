//! The public company card (`/company/data/{slug}.json`) and the internal registry row that
//! lets enrichment find tracked companies without a page. Every claim on a card is a `Claim`,
//! so a card cannot carry an unreceipted statement, executive or subsidiary.

use serde::{Deserialize, Serialize};

use super::seed::{Executive, Subsidiary};
use crate::domain::{Claim, SignalKind};

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
    /// The newest filing date behind any claim of the card (YYYY-MM-DD).
    pub as_of: String,
    /// How many of `why_now` are fresh (docs/company-data.md, "Freshness").
    pub fresh_signals: usize,
    /// The card's freshness in one sentence: how many signals are fresh, or that none is and
    /// how old the newest is. A card never calls an old event "now".
    pub freshness: String,
    /// Receipted signals, most recent first (by `as_of`, then filing date).
    pub why_now: Vec<Claim<Signal>>,
    /// Executives; each one's age counts from its receipt's `filed`.
    pub executives: Vec<Claim<Executive>>,
    pub mcp_package_hint: McpHint,
}

/// A why-now signal as a card serves it: the extract's statement with its dates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Signal {
    pub kind: SignalKind,
    /// The claim in words; equal to the receipt's quote unless shortened for display.
    pub text: String,
    /// When the event happened or is scheduled, as the sentence states it (`YYYY`, `YYYY-MM` or
    /// `YYYY-MM-DD`); absent when the sentence gives none or a date no event can have (before
    /// 1990, or more than five years after the filing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_date: Option<String>,
    /// The filing date of the receipt (YYYY-MM-DD).
    pub filed: String,
    /// The date the signal's age counts from: the event date's first day, else `filed`.
    pub as_of: String,
    /// Whether `as_of` is at most 365 days before the data build (`index.json`'s
    /// `generated_at`), or after it.
    pub fresh: bool,
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
