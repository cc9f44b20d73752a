//! `Directory`: the in-memory company lookup every face shares, built once at start-up from
//! the internal registry — by slug, CIK, ticker (all share classes) and registrable domain.
//! A company's card is gunzipped and parsed from its embedded file on first use and kept
//! (issue 27: parsing every card at start-up was most of the time to the first answer and a
//! third of the idle memory); the first search or hub page parses them all.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;

use super::assets::AssetTable;
use super::card::{Card, RegistryRow};
use crate::domain::{DomainName, Ticker};

/// One tracked company; its card is present when it has a public page.
#[derive(Debug, Clone)]
pub struct Company {
    pub row: RegistryRow,
    card: LazyCard,
}

/// A card's embedded gzip bytes, parsed on first use with its best signal.
#[derive(Debug, Clone, Default)]
struct LazyCard {
    gzip: Option<Bytes>,
    /// The data's newest filing date, as of which the best signal is ranked.
    as_of: Arc<str>,
    parsed: OnceLock<Option<Parsed>>,
    /// Text made once from the card and its best signal (`Company::memo`).
    memo: OnceLock<Option<Box<str>>>,
}

#[derive(Debug, Clone)]
struct Parsed {
    card: Arc<Card>,
    best: Option<(usize, f64)>,
}

impl Company {
    /// The company's card, parsed on first use (`None`: no public page).
    pub fn card(&self) -> Option<&Arc<Card>> {
        self.parsed().map(|p| &p.card)
    }

    /// The card's best signal (index into `why_now`, score) as of the data's newest filing,
    /// ranked once with the card so enrichment does no ranking per request.
    pub fn best(&self) -> Option<(usize, f64)> {
        self.parsed().and_then(|p| p.best)
    }

    /// Text made once from the card and its best signal by `make` (its index in `why_now` and
    /// its score), kept for every later call: the part of the enrichment answer that no request
    /// changes (`enrich::enrich_json`). `None` when the company has no best signal or `make` made
    /// nothing.
    pub fn memo(&self, make: impl FnOnce(&Card, usize, f64) -> Option<String>) -> Option<&str> {
        let made = || {
            let parsed = self.parsed()?;
            let (index, score) = parsed.best?;
            make(&parsed.card, index, score).map(String::into_boxed_str)
        };
        self.card.memo.get_or_init(made).as_deref()
    }

    fn parsed(&self) -> Option<&Parsed> {
        let lazy = &self.card;
        let parse = || {
            let json = gtms_precompress::gunzip(lazy.gzip.as_ref()?).ok()?;
            let card: Card = serde_json::from_slice(&json).ok()?;
            let best = super::rank::best_index(&card, &lazy.as_of);
            Some(Parsed { card: Arc::new(card), best })
        };
        lazy.parsed.get_or_init(parse).as_ref()
    }
}

/// The lookups' keys come from the embedded registry, never from a client: a fast hasher
/// (hashing was a tenth of the start-up, issue 27) cannot be flooded with collisions.
type Index = HashMap<String, usize, foldhash::fast::RandomState>;

#[derive(Debug, Default)]
pub struct Directory {
    companies: Vec<Company>,
    by_slug: Index,
    by_cik: Index,
    by_ticker: Index,
    by_domain: Index,
    generated_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    #[error("embedded registry: {0}")]
    Registry(serde_json::Error),
}

impl Directory {
    /// The lookup over the embedded company data (what a `gtms worker` reads).
    pub fn embedded() -> Result<Self, DirectoryError> {
        Self::over_embedded(&AssetTable::embedded())
    }

    /// The lookup over the embedded registry, its cards in `assets` (the server keeps the table
    /// to serve the keyless files).
    pub fn over_embedded(assets: &AssetTable) -> Result<Self, DirectoryError> {
        Self::build(&crate::assets::registry_json().unwrap_or_default(), assets)
    }

    /// Builds the lookup from the registry rows; each card stays in the asset table until used.
    pub fn build(registry: &[u8], assets: &AssetTable) -> Result<Self, DirectoryError> {
        let rows: Vec<RegistryRow> = serde_json::from_slice(registry).map_err(DirectoryError::Registry)?;
        let mut dir = Directory {
            companies: Vec::with_capacity(rows.len()),
            by_cik: Index::with_capacity_and_hasher(rows.len(), Default::default()),
            by_ticker: Index::with_capacity_and_hasher(rows.len(), Default::default()),
            ..Directory::default()
        };
        if let Some(index) = assets.get("/company/data/index.json") {
            let json = index.read().unwrap_or_default();
            let value: serde_json::Value = serde_json::from_slice(&json).unwrap_or_default();
            dir.generated_at = value["generated_at"].as_str().unwrap_or_default().to_owned();
        }
        let as_of: Arc<str> = Arc::from(dir.generated_at.as_str());
        for row in rows {
            let file = row.slug.as_ref().and_then(|slug| assets.get(&format!("/company/data/{slug}.json")));
            let card =
                LazyCard { gzip: file.map(|f| f.gzip.clone()), as_of: Arc::clone(&as_of), ..LazyCard::default() };
            dir.insert(Company { row, card });
        }
        Ok(dir)
    }

    fn insert(&mut self, company: Company) {
        let i = self.companies.len();
        if let Some(slug) = company.row.slug.as_ref().filter(|_| company.card.gzip.is_some()) {
            self.by_slug.insert(slug.clone(), i);
        }
        self.by_cik.insert(company.row.cik.clone(), i);
        for ticker in &company.row.tickers {
            if let Ok(t) = Ticker::parse(ticker) {
                self.by_ticker.entry(t.as_str().to_owned()).or_insert(i);
            }
        }
        if let Some(domain) = company.row.domain.as_deref().and_then(|d| DomainName::parse(d).ok()) {
            self.by_domain.entry(domain.as_str().to_owned()).or_insert(i);
        }
        self.companies.push(company);
    }

    pub fn by_slug(&self, slug: &str) -> Option<&Company> {
        self.by_slug.get(slug).map(|&i| &self.companies[i])
    }
    pub fn by_cik(&self, cik: &str) -> Option<&Company> {
        self.by_cik.get(cik).map(|&i| &self.companies[i])
    }
    pub fn by_ticker(&self, ticker: &Ticker) -> Option<&Company> {
        self.by_ticker.get(ticker.as_str()).map(|&i| &self.companies[i])
    }
    pub fn by_domain(&self, domain: &DomainName) -> Option<&Company> {
        self.by_domain.get(domain.as_str()).map(|&i| &self.companies[i])
    }

    /// Every tracked company, in registry (CIK) order.
    pub fn companies(&self) -> &[Company] {
        &self.companies
    }

    /// Companies with a card, in slug order.
    pub fn cards(&self) -> impl Iterator<Item = &Arc<Card>> {
        let mut slugs: Vec<(&String, &usize)> = self.by_slug.iter().collect();
        slugs.sort_unstable();
        slugs.into_iter().filter_map(|(_, &i)| self.companies[i].card())
    }

    pub fn tracked(&self) -> usize {
        self.companies.len()
    }

    pub fn with_page(&self) -> usize {
        self.by_slug.len()
    }

    /// The newest filing date in the data (`index.json`'s `generated_at`).
    pub fn generated_at(&self) -> &str {
        &self.generated_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cards are parsed on first use, so a card that does not parse would show only then:
    /// every embedded one is checked here, under the slug the registry gives it.
    #[test]
    fn every_embedded_card_parses_on_first_use_under_its_slug() {
        let dir = Directory::embedded().unwrap_or_default();
        let slugs: Vec<&String> = dir.companies().iter().filter_map(|c| c.row.slug.as_ref()).collect();
        assert!(!slugs.is_empty() && slugs.len() == dir.with_page(), "every slug has a page");
        for slug in slugs {
            let company = dir.by_slug(slug);
            let card = company.and_then(Company::card);
            assert_eq!(card.map(|c| c.slug.as_str()), Some(slug.as_str()), "{slug}");
            let best = company.and_then(Company::best);
            assert_eq!(best, card.and_then(|c| crate::rank::best_index(c, dir.generated_at())), "{slug}");
        }
    }
}
