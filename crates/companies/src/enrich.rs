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
        generated_at: stamp(now),
    })
}

/// `generated_at`: RFC 3339 to the second, UTC (`2026-11-27T05:30:00Z`).
fn stamp(now: chrono::DateTime<chrono::Utc>) -> String {
    use chrono::{Datelike, Timelike};
    match now.year() {
        // What `to_rfc3339_opts(Secs, true)` writes, without its formatting machinery (per request).
        0..=9999 => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            now.year(),
            now.month(),
            now.day(),
            now.hour(),
            now.minute(),
            now.second()
        ),
        _ => now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    }
}

/// How the answer serde writes ends when its age is 0, its tenant null and its time empty:
/// what follows the part of the answer no request changes (`fixed_part`).
const PLACEHOLDER_END: &str = r#"0},"tenant":null,"generated_at":""}"#;

/// The part of a company's answer that no request changes — the company and its best signal
/// with its score, up to the value of `age_days` — as serde writes it.
fn fixed_part(card: &Card, index: usize, score: f64) -> Option<String> {
    let signal = ScoredSignal { claim: card.why_now.get(index)?.clone(), score, age_days: 0 };
    let reply = EnrichReply { company: CompanyRef::from(card), signal, tenant: None, generated_at: String::new() };
    let text = serde_json::to_string(&reply).ok()?;
    text.strip_suffix(PLACEHOLDER_END).map(str::to_owned)
}

/// The answer of `GET /v1/enrich` as JSON bytes — the bytes serde writes for `enrich`'s answer
/// (a test holds them equal for every company). Without `max_age_days`, the part no request
/// changes is made once per company (`Company::memo`) and only the age, the tenant and the time
/// are written per request.
pub fn enrich_json(
    dir: &Directory,
    query: EnrichQuery<'_>,
    tenant: Option<Tenant>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<u8>, LookupError> {
    if query.max_age_days.is_none() {
        let company = resolve(dir, query.domain, query.ticker)?;
        if let Some(answer) = fast_answer(company, tenant.as_ref(), now) {
            return Ok(answer);
        }
    }
    let reply = enrich(dir, query, tenant, now)?;
    // Strings, numbers and options under string keys: serde_json cannot fail on them.
    Ok(serde_json::to_vec(&reply).unwrap_or_default())
}

/// The answer from the company's fixed part; `None` when it has none (no signal: `enrich`
/// answers why).
fn fast_answer(company: &Company, tenant: Option<&Tenant>, now: chrono::DateTime<chrono::Utc>) -> Option<Vec<u8>> {
    use std::io::Write;
    let fixed = company.memo(fixed_part)?;
    let (index, _) = company.best()?;
    let age = age_days(company.card()?.why_now.get(index)?, now.date_naive());
    let tenant = serde_json::to_string(&tenant).ok()?;
    let mut out = Vec::with_capacity(fixed.len() + tenant.len() + 64);
    out.extend_from_slice(fixed.as_bytes());
    write!(out, r#"{age}}},"tenant":{tenant},"generated_at":"{}"}}"#, stamp(now)).ok()?;
    Some(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_is_the_rfc3339_time_to_the_second() {
        for secs in [0_i64, 1_764_000_000, 1_764_243_599, 253_402_300_799] {
            let now = chrono::DateTime::from_timestamp(secs, 999_999_999).unwrap_or_default();
            assert_eq!(stamp(now), now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        }
    }

    /// The bytes made from the memo are the bytes serde writes, for every company with a
    /// signal, with and without a tenant, on a day its signal is older than the data.
    #[test]
    fn the_fast_answer_is_what_serde_writes_for_every_company() {
        let dir = Directory::embedded().unwrap_or_default();
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-27T05:30:09Z").map(|t| t.to_utc()).expect("time");
        let tenant = Tenant::parse("acme").expect("tenant");
        let mut compared = 0;
        for company in dir.companies() {
            let Some(ticker) = company.card().map(|c| Ticker::parse(&c.ticker)) else { continue };
            let Ok(ticker) = ticker else { continue };
            let query = EnrichQuery { ticker: Some(&ticker), ..EnrichQuery::default() };
            for tenant in [None, Some(tenant.clone())] {
                let Ok(slow) = enrich(&dir, query, tenant.clone(), now) else { continue };
                let resolved = resolve(&dir, None, Some(&ticker)).expect("the ticker resolves");
                let fast = fast_answer(resolved, tenant.as_ref(), now);
                let slow = serde_json::to_vec(&slow).expect("json");
                assert_eq!(fast.as_deref(), Some(slow.as_slice()), "{}", company.row.cik);
                assert_eq!(enrich_json(&dir, query, tenant, now).ok(), Some(slow));
                compared += 1;
            }
        }
        assert!(compared > 1000, "both ways for every company with a signal: {compared}");
    }
}
