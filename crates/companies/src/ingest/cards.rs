//! Cards from seed rows: who gets a page (at least one receipted claim: a signal, an executive
//! or a subsidiary), slug assignment
//! (colliding base slugs all take their ticker, so a slug never depends on input order), and
//! the card itself with its signals dated and the most recent first.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::card::{Card, Family, McpHint, Signal, account_id};
use crate::domain::{Claim, Slug};
use crate::freshness::{self, FRESH_DAYS};
use crate::names;
use crate::seed::{SeedCompany, Statement};

/// Names under `/company/` that are not companies: a company whose slug would be one takes its
/// ticker, as colliding slugs do.
const RESERVED: [&str; 5] = ["data", "sector", "letter", "index", "page"];

/// Whether a company gets a card and a page: it has at least one receipted claim. A company
/// whose filings name its subsidiaries or officers but state no event still has a family and
/// people worth serving; its card says it has no signal.
pub fn has_page(company: &SeedCompany) -> bool {
    !(company.statements.is_empty() && company.executives.is_empty() && company.subsidiaries.is_empty())
}

/// Assigns a unique slug to every company with a page; keyed by CIK.
pub fn assign_slugs(companies: &[SeedCompany]) -> BTreeMap<String, Slug> {
    let paged: Vec<(&SeedCompany, Slug)> = companies
        .iter()
        .filter(|c| has_page(c))
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
        let slug = if uses[base.as_str()] > 1 || RESERVED.contains(&base.as_str()) {
            let ticker = company.tickers.first().map(String::as_str).unwrap_or(&company.cik);
            names::slug_with_ticker(base, ticker).unwrap_or_else(|| base.clone())
        } else {
            base.clone()
        };
        out.insert(company.cik.clone(), slug);
    }
    out
}

/// The card of a company with a page, for data built on `built` (the newest filing date).
pub fn build_card(company: &SeedCompany, slug: &Slug, base_url: &str, built: NaiveDate) -> Card {
    let mut why_now: Vec<Claim<Signal>> = company.statements.iter().map(|s| signal(s, built)).collect();
    // Most recent first; the extractor's rank order breaks ties (stable sort).
    why_now.sort_by(|a, b| (&b.value().as_of, &b.value().filed).cmp(&(&a.value().as_of, &a.value().filed)));
    let fresh_signals = why_now.iter().filter(|s| s.value().fresh).count();
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
        as_of: newest_filing(company).unwrap_or_default().to_owned(),
        freshness: freshness_sentence(&why_now, fresh_signals, built),
        fresh_signals,
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

/// A statement of the extract as a card's signal: its believable event date kept, its as-of
/// date and freshness worked out.
fn signal(claim: &Claim<Statement>, built: NaiveDate) -> Claim<Signal> {
    let statement = claim.value();
    let filed = claim.receipt().filed();
    let (event_date, as_of, fresh) = match freshness::day(filed) {
        Some(day) => {
            let event = statement.event_date.as_deref().filter(|e| freshness::event_day(e, day).is_some());
            let as_of = freshness::as_of(event, day);
            (event.map(str::to_owned), as_of.to_string(), freshness::is_fresh(as_of, built))
        }
        None => (None, filed.to_owned(), false),
    };
    let value = Signal {
        kind: statement.kind,
        text: statement.text.clone(),
        event_date,
        filed: filed.to_owned(),
        as_of,
        fresh,
    };
    Claim::new(value, claim.receipt().clone())
}

/// The card's freshness in one sentence.
fn freshness_sentence(why_now: &[Claim<Signal>], fresh: usize, built: NaiveDate) -> String {
    let total = why_now.len();
    if total == 0 {
        return "No signal: the filings we hold state no event of this company; its card carries \
                what they do name (subsidiaries, executives)."
            .to_owned();
    }
    if fresh > 0 {
        let of = if fresh == total { format!("All {total}") } else { format!("{fresh} of {total}") };
        let verb = if fresh == 1 { "signal is" } else { "signals are" };
        return format!(
            "{of} {verb} fresh: dated at most {FRESH_DAYS} days before the data build ({built}) or after it."
        );
    }
    let newest = why_now.first().map(|s| s.value().as_of.as_str()).unwrap_or_default();
    let days = freshness::day(newest).map(|d| (built - d).num_days()).unwrap_or_default();
    format!(
        "No signal is fresh: the most recent is dated {newest}, {days} days before the data build ({built}); \
         read them as background, not as a reason to call now."
    )
}

/// The newest filing date of a company's claims: its card's `as_of`.
pub fn newest_filing(company: &SeedCompany) -> Option<&str> {
    let statements = company.statements.iter().map(|c| c.receipt().filed());
    let people = company.executives.iter().map(|c| c.receipt().filed());
    let family = company.subsidiaries.iter().map(|c| c.receipt().filed());
    statements.chain(people).chain(family).max()
}
