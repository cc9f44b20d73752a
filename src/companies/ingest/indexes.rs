//! The JSON indexes beside the cards: `index.json` (counts, companies, sector and letter
//! hubs), `search-index.json`, `quotes.json`, `_slugmap.json`, and the internal registry.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::companies::card::{Card, RegistryRow};
use crate::companies::seed::SeedCompany;
use crate::domain::Slug;

pub fn index_json(generated_at: &str, tracked: usize, cards: &[Card]) -> Value {
    let companies: Vec<Value> = cards
        .iter()
        .map(|c| json!({ "slug": c.slug, "name": c.legal_name, "ticker": c.ticker, "sector": c.sector }))
        .collect();
    let mut sectors: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut letters: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for card in cards {
        sectors.entry(card.sector.as_deref().unwrap_or("Unclassified")).or_default().push(&card.slug);
        letters.entry(letter_of(&card.slug)).or_default().push(&card.slug);
    }
    let sectors: Vec<Value> = sectors
        .into_iter()
        .map(|(name, slugs)| {
            let slug = Slug::from_name(name).map(|s| s.to_string()).unwrap_or_else(|| "unclassified".into());
            json!({ "slug": slug, "name": name, "count": slugs.len(), "companies": slugs })
        })
        .collect();
    let letters: Vec<Value> = letters
        .into_iter()
        .map(|(letter, slugs)| json!({ "letter": letter, "count": slugs.len(), "companies": slugs }))
        .collect();
    json!({
        "generated_at": generated_at,
        "tracked": tracked,
        "with_page": cards.len(),
        "companies": companies,
        "sectors": sectors,
        "letters": letters,
    })
}

/// The letter hub a slug belongs to: its first letter, or `0-9` for a leading digit.
pub fn letter_of(slug: &str) -> String {
    match slug.chars().next() {
        Some(c) if c.is_ascii_digit() => "0-9".into(),
        Some(c) => c.to_string(),
        None => "0-9".into(),
    }
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
            let newest = c.why_now.first()?;
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
