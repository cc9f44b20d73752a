//! Trust and coverage: `receipt_verify` (a quote against the ingested receipts) and
//! `coverage_stats` (how much the data set covers).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::CompanyRef;
use super::directory::NoArgs;
use crate::companies::query::{self, ClaimRef, QuoteMatch};
use crate::domain::Receipt;
use crate::mcp::error::ToolError;
use crate::mcp::registry::ToolContext;
use crate::mcp::registry::{McpTool, Toolset};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyArgs {
    /// The quoted sentence, or a part of it (at least 12 characters; whitespace-insensitive).
    pub quote: String,
    /// Only receipts pointing at this EDGAR document URL.
    pub url: Option<String>,
    /// Only receipts of this accession number.
    pub accession: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Verification {
    /// True when a stored receipt quotes the text (exactly or within a longer sentence).
    pub verified: bool,
    /// How the check was done.
    pub method: String,
    /// At most 20 matching receipts.
    pub matches: Vec<ReceiptHit>,
    /// True when more than 20 receipts matched.
    pub truncated: bool,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ReceiptHit {
    pub company: CompanyRef,
    /// `statement`, `executive` or `subsidiary`.
    pub claim: String,
    /// `exact` (the whole receipted sentence) or `within` (part of it).
    #[serde(rename = "match")]
    pub matched: String,
    pub receipt: Receipt,
}

const VERIFY_MAX: usize = 20;

pub struct ReceiptVerify;
impl McpTool for ReceiptVerify {
    const NAME: &'static str = "receipt_verify";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "Check a quote against the stored receipts: is this sentence (optionally from \
        this EDGAR URL or accession) one the data set holds? Ingest verified every stored quote verbatim against \
        its filing; this tool does not fetch EDGAR.";
    type Args = VerifyArgs;
    type Output = Verification;
    fn example() -> Value {
        json!({
            "quote": "the Commission announced that it had opened a formal noncompliance investigation",
            "accession": "0000320193-25-000073"
        })
    }
    async fn run(ctx: &ToolContext, args: VerifyArgs) -> Result<Verification, ToolError> {
        if args.quote.split_whitespace().collect::<String>().chars().count() < query::MIN_QUOTE_LEN {
            return Err(ToolError::bad(format!("quote needs at least {} characters", query::MIN_QUOTE_LEN)));
        }
        let found =
            query::find_receipts(ctx.state.directory(), &args.quote, args.url.as_deref(), args.accession.as_deref());
        let truncated = found.len() > VERIFY_MAX;
        let matches: Vec<ReceiptHit> = found
            .into_iter()
            .take(VERIFY_MAX)
            .map(|(card, claim, m)| ReceiptHit {
                company: card.into(),
                claim: match claim {
                    ClaimRef::Statement(_) => "statement",
                    ClaimRef::Executive(_) => "executive",
                    ClaimRef::Subsidiary(_) => "subsidiary",
                }
                .into(),
                matched: if m == QuoteMatch::Exact { "exact" } else { "within" }.into(),
                receipt: claim.receipt().clone(),
            })
            .collect();
        let method = "matched against the receipts ingested from EDGAR (each verified verbatim at ingest)".into();
        Ok(Verification { verified: !matches.is_empty(), method, matches, truncated })
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CoverageReport {
    /// SEC registrants with a ticker, one per CIK.
    pub tracked: usize,
    /// Companies with a card (at least one receipted statement).
    pub with_page: usize,
    pub with_domain: usize,
    pub statements: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    /// The newest filing date in the data.
    pub generated_at: String,
    pub statements_by_kind: std::collections::BTreeMap<String, usize>,
    pub cards_by_exchange: std::collections::BTreeMap<String, usize>,
}

pub struct CoverageStats;
impl McpTool for CoverageStats {
    const NAME: &'static str = "coverage_stats";
    const TOOLSET: Toolset = Toolset::Company;
    const DESCRIPTION: &'static str = "How much the data set covers: companies tracked and with a card, claim \
        counts, statements by kind, cards by exchange, and the newest filing date.";
    type Args = NoArgs;
    type Output = CoverageReport;
    fn example() -> Value {
        json!({})
    }
    async fn run(ctx: &ToolContext, _: NoArgs) -> Result<CoverageReport, ToolError> {
        let c = query::coverage(ctx.state.directory());
        Ok(CoverageReport {
            tracked: c.tracked,
            with_page: c.with_page,
            with_domain: c.with_domain,
            statements: c.statements,
            executives: c.executives,
            subsidiaries: c.subsidiaries,
            generated_at: c.generated_at.to_owned(),
            statements_by_kind: c.statements_by_kind.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            cards_by_exchange: c.cards_by_exchange.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        })
    }
}
