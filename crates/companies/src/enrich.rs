//! Enrichment: resolve a company from a domain and/or ticker and pick its best receipted
//! signal. Score = kind weight (0–1, `SignalKind::weight`) × recency, where recency halves
//! every 365 days of filing age measured from the data's newest filing date (not the clock,
//! so the same data always ranks the same). Ties go to the newer filing, then card order.

use std::sync::Arc;

use serde::Serialize;

use super::card::{Card, CompanyRef};
use super::directory::{Company, Directory};
pub use super::rank::ranked_signals;
use super::seed::Statement;
use crate::domain::{Claim, DomainName, Tenant, Ticker};
use crate::error::{ErrorKind, ServiceError};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LookupError {
    #[error("give a domain or a ticker")]
    NoKey,
    #[error("the domain and the ticker name different companies")]
    Mismatch,
    #[error("no tracked company has that domain or ticker")]
    Unknown,
    #[error("the company has no receipted signal")]
    NoSignal,
}

impl ServiceError for LookupError {
    fn kind(&self) -> ErrorKind {
        match self {
            LookupError::NoKey | LookupError::Mismatch => ErrorKind::BadInput,
            LookupError::Unknown | LookupError::NoSignal => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> Option<&'static str> {
        matches!(self, LookupError::NoSignal).then_some("no_signal")
    }
}

/// The answer of `GET /v1/enrich` and of the `company_enrich` tool: one shape for both faces.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EnrichReply {
    pub company: CompanyRef,
    /// The best signal by kind weight × recency, with its receipt.
    pub signal: ScoredSignal,
    /// The tenant the answer is scoped to (the API key's); null for a workspace caller.
    pub tenant: Option<Tenant>,
    /// When this answer was made (RFC 3339, UTC).
    pub generated_at: String,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ScoredSignal {
    #[serde(flatten)]
    pub claim: Claim<Statement>,
    /// Kind weight × recency, 0–1.
    pub score: f64,
}

/// Resolves the company named by `domain` and/or `ticker` and answers with its best signal.
pub fn enrich(
    dir: &Directory,
    domain: Option<&DomainName>,
    ticker: Option<&Ticker>,
    tenant: Option<Tenant>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<EnrichReply, LookupError> {
    let best = best_signal(resolve(dir, domain, ticker)?)?;
    Ok(EnrichReply {
        company: CompanyRef::from(best.card.as_ref()),
        signal: ScoredSignal { claim: best.signal, score: best.score },
        tenant,
        generated_at: now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    })
}

/// The best signal of a company, with its score.
#[derive(Debug, Clone)]
pub struct Enrichment {
    pub card: Arc<Card>,
    pub signal: Claim<Statement>,
    pub score: f64,
}

/// Finds the company named by `domain` and/or `ticker`.
pub fn resolve<'a>(
    dir: &'a Directory,
    domain: Option<&DomainName>,
    ticker: Option<&Ticker>,
) -> Result<&'a Company, LookupError> {
    let by_domain = domain.map(|d| dir.by_domain(d));
    let by_ticker = ticker.map(|t| dir.by_ticker(t));
    match (by_domain, by_ticker) {
        (None, None) => Err(LookupError::NoKey),
        (Some(Some(a)), Some(Some(b))) if a.row.cik != b.row.cik => Err(LookupError::Mismatch),
        (Some(Some(c)), _) | (_, Some(Some(c))) => Ok(c),
        _ => Err(LookupError::Unknown),
    }
}

/// The company's best signal by kind weight and recency (ranked once, at start-up, as of the
/// data's newest filing date).
pub fn best_signal(company: &Company) -> Result<Enrichment, LookupError> {
    let card = company.card.as_ref().ok_or(LookupError::NoSignal)?;
    let (index, score) = company.best.ok_or(LookupError::NoSignal)?;
    let signal = card.why_now.get(index).ok_or(LookupError::NoSignal)?.clone();
    Ok(Enrichment { card: Arc::clone(card), signal, score })
}
