//! Cards from seed rows: who gets a page (at least one receipted statement), slug assignment
//! (colliding base slugs all take their ticker, so a slug never depends on input order), and
//! the card itself with statements newest first.

use std::collections::BTreeMap;

use crate::card::{Card, Family, McpHint, account_id};
use crate::domain::Slug;
use crate::names;
use crate::seed::SeedCompany;

/// Assigns a unique slug to every company with a page; keyed by CIK.
pub fn assign_slugs(companies: &[SeedCompany]) -> BTreeMap<String, Slug> {
    let paged: Vec<(&SeedCompany, Slug)> = companies
        .iter()
        .filter(|c| !c.statements.is_empty())
        .filter_map(|c| {
            let base =
                names::base_slug(&c.legal_name).or_else(|| c.tickers.first().and_then(|t| Slug::from_name(t)))?;
            Some((c, base))
        })
        .collect();
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, base) in &paged {
        *uses.entry(base.as_str()).or_default() += 1;
    }
    let mut out = BTreeMap::new();
    for (company, base) in &paged {
        let slug = if uses[base.as_str()] > 1 {
            let ticker = company.tickers.first().map(String::as_str).unwrap_or(&company.cik);
            names::slug_with_ticker(base, ticker).unwrap_or_else(|| base.clone())
        } else {
            base.clone()
        };
        out.insert(company.cik.clone(), slug);
    }
    out
}

pub fn build_card(company: &SeedCompany, slug: &Slug, base_url: &str) -> Card {
    let mut why_now = company.statements.clone();
    // Newest filing first; the extractor's rank order breaks ties (stable sort).
    why_now.sort_by(|a, b| b.receipt().filed().cmp(a.receipt().filed()));
    Card {
        account_id: account_id(&company.cik),
        slug: slug.to_string(),
        legal_name: company.legal_name.clone(),
        ticker: company.tickers.first().cloned().unwrap_or_default(),
        cik: company.cik.clone(),
        exchange: company.exchange.clone(),
        sector: company.sector.clone(),
        domain: company.domain.clone(),
        family: Family { parent: None, subsidiaries: company.subsidiaries.clone() },
        why_now,
        executives: company.executives.clone(),
        mcp_package_hint: McpHint {
            server_url: format!("{base_url}/mcp"),
            transport: "streamable-http".into(),
            tool: "company_get".into(),
            arguments: serde_json::json!({ "slug": slug.as_str() }),
        },
    }
}

/// The newest filing date behind any claim of the card.
pub fn last_modified(card: &Card) -> Option<&str> {
    let statements = card.why_now.iter().map(|c| c.receipt().filed());
    let people = card.executives.iter().map(|c| c.receipt().filed());
    let family = card.family.subsidiaries.iter().map(|c| c.receipt().filed());
    statements.chain(people).chain(family).max()
}
