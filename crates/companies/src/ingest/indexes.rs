//! The JSON indexes beside the cards: `index.json` (counts, companies, sector and letter
//! hubs), `search-index.json`, `quotes.json`, `_slugmap.json`, and the internal registry.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::card::{Card, RegistryRow};
use crate::domain::{Slug, Source};
use crate::hubs;
use crate::seed::SeedCompany;

/// How the cards' claims are covered: which kind of record their signals come from, how many
/// carry a recent signal (filed or published since 1 January of the year before the data
/// build) and how many a family. Printed by the ingest and written into `index.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Cards whose signals all come from EDGAR filings.
    pub edgar_only: usize,
    /// Cards whose signals all come from the company's press releases.
    pub press_only: usize,
    /// Cards with signals of both kinds.
    pub both: usize,
    /// Cards with no signal (a family or executives only).
    pub no_signal: usize,
    /// The first day a signal counts as recent.
    pub recent_since: String,
    /// Cards with a signal filed or published on or after `recent_since`.
    pub recent: usize,
    /// Cards with at least one subsidiary.
    pub with_family: usize,
}

pub fn coverage(cards: &[Card], generated_at: &str) -> Coverage {
    let year: i32 = generated_at.get(..4).and_then(|y| y.parse().ok()).unwrap_or(1970);
    let recent_since = format!("{}-01-01", year - 1);
    let mut c = Coverage { recent_since, ..Coverage::default() };
    for card in cards {
        let sources = |s: Source| card.why_now.iter().any(|w| w.receipt().source() == s);
        match (sources(Source::Edgar), sources(Source::PressRelease)) {
            (true, true) => c.both += 1,
            (true, false) => c.edgar_only += 1,
            (false, true) => c.press_only += 1,
            (false, false) => c.no_signal += 1,
        }
        c.recent += usize::from(card.why_now.iter().any(|w| w.receipt().filed() >= c.recent_since.as_str()));
        c.with_family += usize::from(!card.family.subsidiaries.is_empty());
    }
    c
}

pub fn index_json(generated_at: &str, tracked: usize, cards: &[Card]) -> Value {
    let companies: Vec<Value> = cards
        .iter()
        .map(|c| json!({ "slug": c.slug, "name": c.legal_name, "ticker": c.ticker, "sector": c.sector }))
        .collect();
    let sectors: Vec<Value> = hubs::by_sector(cards)
        .into_iter()
        .map(|(name, cards)| {
            let slugs: Vec<&str> = cards.iter().map(|c| c.slug.as_str()).collect();
            json!({ "slug": hubs::sector_slug(name), "name": name, "count": slugs.len(), "companies": slugs })
        })
        .collect();
    let letters: Vec<Value> = hubs::by_letter(cards)
        .into_iter()
        .map(|(letter, cards)| {
            let slugs: Vec<&str> = cards.iter().map(|c| c.slug.as_str()).collect();
            json!({ "letter": letter, "count": slugs.len(), "companies": slugs })
        })
        .collect();
    json!({
        "generated_at": generated_at,
        "tracked": tracked,
        "with_page": cards.len(),
        "coverage": coverage(cards, generated_at),
        "companies": companies,
        "sectors": sectors,
        "letters": letters,
    })
}

/// Compact rows `[slug, name, ticker, statements, people]`.
pub fn search_index(cards: &[Card]) -> Value {
    let rows: Vec<Value> =
        cards.iter().map(|c| json!([c.slug, c.legal_name, c.ticker, c.why_now.len(), c.executives.len()])).collect();
    Value::Array(rows)
}

#[derive(Serialize)]
struct LatestQuote<'a> {
    slug: &'a str,
    name: &'a str,
    ticker: &'a str,
    kind: &'static str,
    quote: &'a str,
    receipt: &'a crate::domain::Receipt,
}

/// One latest verbatim quote per company (its newest statement), with the receipt.
pub fn quotes(cards: &[Card]) -> Value {
    let rows: Vec<LatestQuote<'_>> = cards
        .iter()
        .filter_map(|c| {
            let newest = crate::query::latest_statement(c)?;
            Some(LatestQuote {
                slug: &c.slug,
                name: &c.legal_name,
                ticker: &c.ticker,
                kind: newest.value().kind.as_str(),
                quote: newest.receipt().quote(),
                receipt: newest.receipt(),
            })
        })
        .collect();
    serde_json::to_value(rows).unwrap_or(Value::Null)
}

/// Every ticker (share classes included) of a company with a page, to its slug.
pub fn slugmap(companies: &[SeedCompany], slugs: &BTreeMap<String, Slug>) -> Value {
    let mut map: BTreeMap<&str, &str> = BTreeMap::new();
    for company in companies {
        if let Some(slug) = slugs.get(&company.cik) {
            for ticker in &company.tickers {
                map.entry(ticker).or_insert(slug.as_str());
            }
        }
    }
    serde_json::to_value(map).unwrap_or(Value::Null)
}

pub fn registry(companies: &[SeedCompany], slugs: &BTreeMap<String, Slug>) -> Vec<RegistryRow> {
    companies
        .iter()
        .map(|c| RegistryRow {
            cik: c.cik.clone(),
            tickers: c.tickers.clone(),
            legal_name: c.legal_name.clone(),
            domain: c.domain.clone(),
            slug: slugs.get(&c.cik).map(|s| s.to_string()),
        })
        .collect()
}
