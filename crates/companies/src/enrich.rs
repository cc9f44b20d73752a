//! Enrichment: resolve a company from a domain and/or ticker and pick its best receipted
//! signal. Score = kind weight (0–1, `SignalKind::weight`) × recency, where recency halves
//! every 365 days of the signal's age (from its as-of date, `freshness`) measured from the
//! data's newest filing date (not the clock, so the same data always ranks the same). Ties go to
//! the newer filing, then card order. The answer adds the signal's age on the request's day;
//! `max_age_days` keeps only signals at most that old (none → `no_signal`).

use std::sync::Arc;

use serde::Serialize;

use super::card::{Card, CompanyRef, Signal};
use super::directory::{Company, Directory};
use super::freshness;
pub use super::rank::ranked_signals;
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
    #[error("the company has no receipted signal at most {0} days old")]
    NoFreshSignal(u32),
}

impl ServiceError for LookupError {
    fn kind(&self) -> ErrorKind {
        match self {
            LookupError::NoKey | LookupError::Mismatch => ErrorKind::BadInput,
            LookupError::Unknown | LookupError::NoSignal | LookupError::NoFreshSignal(_) => ErrorKind::NotFound,
        }
    }

    fn code(&self) -> Option<&'static str> {
        matches!(self, LookupError::NoSignal | LookupError::NoFreshSignal(_)).then_some("no_signal")
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
    pub claim: Claim<Signal>,
    /// Kind weight × recency, 0–1.
    pub score: f64,
    /// Days from the signal's `as_of` to the day of the request (UTC); 0 for an event ahead.
    pub age_days: i64,
}

impl ScoredSignal {
    /// A ranked signal with its age on `today`.
    pub fn new(claim: Claim<Signal>, score: f64, today: chrono::NaiveDate) -> Self {
        let age_days = age_days(&claim, today);
        Self { claim, score, age_days }
    }
}

/// A signal's age in days on `today`.
pub fn age_days(claim: &Claim<Signal>, today: chrono::NaiveDate) -> i64 {
    freshness::day(&claim.value().as_of).map_or(0, |as_of| freshness::age_days(as_of, today))
}

/// What an enrichment asks: the company (by domain and/or ticker) and how old its signal may be.
#[derive(Debug, Clone, Copy, Default)]
pub struct EnrichQuery<'a> {
    pub domain: Option<&'a DomainName>,
    pub ticker: Option<&'a Ticker>,
    /// Only a signal at most this many days old on the request's day.
    pub max_age_days: Option<u32>,
}

/// Resolves the company the query names and answers with its best signal.
pub fn enrich(
    dir: &Directory,
    query: EnrichQuery<'_>,
    tenant: Option<Tenant>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<EnrichReply, LookupError> {
    let company = resolve(dir, query.domain, query.ticker)?;
    let today = now.date_naive();
    let best = match query.max_age_days {
        None => best_signal(company)?,
        Some(max) => best_within(dir, company, today, max)?,
    };
    Ok(EnrichReply {
        company: CompanyRef::from(best.card.as_ref()),
        signal: ScoredSignal::new(best.signal, best.score, today),
        tenant,
        generated_at: now.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    })
}

/// The best signal at most `max` days old on `today`.
fn best_within(
    dir: &Directory,
    company: &Company,
    today: chrono::NaiveDate,
    max: u32,
) -> Result<Enrichment, LookupError> {
    let card = company.card().ok_or(LookupError::NoSignal)?;
    let ranked = ranked_signals(card, dir.generated_at());
    let (signal, score) = ranked
        .into_iter()
        .find(|(s, _)| age_days(s, today) <= i64::from(max))
        .ok_or(LookupError::NoFreshSignal(max))?;
    Ok(Enrichment { card: Arc::clone(card), signal: signal.clone(), score })
}

/// The best signal of a company, with its score.
#[derive(Debug, Clone)]
pub struct Enrichment {
    pub card: Arc<Card>,
    pub signal: Claim<Signal>,
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
    let card = company.card().ok_or(LookupError::NoSignal)?;
    let (index, score) = company.best().ok_or(LookupError::NoSignal)?;
    let signal = card.why_now.get(index).ok_or(LookupError::NoSignal)?.clone();
    Ok(Enrichment { card: Arc::clone(card), signal, score })
}
