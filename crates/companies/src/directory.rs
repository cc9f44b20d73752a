//! `Directory`: the in-memory company lookup every face shares, built once at start-up from
//! the embedded cards and the internal registry — by slug, CIK, ticker (all share classes)
//! and registrable domain.

use std::collections::HashMap;
use std::sync::Arc;

use super::assets::AssetTable;
use super::card::{Card, RegistryRow};
use crate::domain::{DomainName, Ticker};

/// One tracked company; `card` is present when it has a public page.
#[derive(Debug, Clone)]
pub struct Company {
    pub row: RegistryRow,
    pub card: Option<Arc<Card>>,
    /// The card's best signal (index into `why_now`, score) as of the data's newest filing,
    /// ranked once at start-up so enrichment does no ranking per request.
    pub best: Option<(usize, f64)>,
}

#[derive(Debug, Default)]
pub struct Directory {
    companies: Vec<Company>,
    by_slug: HashMap<String, usize>,
    by_cik: HashMap<String, usize>,
    by_ticker: HashMap<String, usize>,
    by_domain: HashMap<String, usize>,
    generated_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    #[error("embedded registry: {0}")]
    Registry(serde_json::Error),
    #[error("embedded card {path}: {source}")]
    Card { path: String, source: serde_json::Error },
    #[error("embedded card {path}: {source}")]
    Unpack { path: String, source: std::io::Error },
}

impl Directory {
    /// The lookup over the embedded company data (what a `gtms worker` reads).
    pub fn embedded() -> Result<Self, DirectoryError> {
        let registry = crate::assets::registry_json().unwrap_or_default();
        Self::build(&registry, &AssetTable::embedded())
    }

    /// Builds the lookup from the registry rows and the cards (parsed from the asset table).
    pub fn build(registry: &[u8], assets: &AssetTable) -> Result<Self, DirectoryError> {
        let rows: Vec<RegistryRow> = serde_json::from_slice(registry).map_err(DirectoryError::Registry)?;
        let mut dir = Directory::default();
        for row in rows {
            let card = match &row.slug {
                Some(slug) => {
                    let path = format!("/company/data/{slug}.json");
                    match assets.get(&path) {
                        Some(file) => {
                            let json =
                                file.read().map_err(|source| DirectoryError::Unpack { path: path.clone(), source })?;
                            let card = serde_json::from_slice::<Card>(&json)
                                .map_err(|source| DirectoryError::Card { path, source })?;
                            Some(Arc::new(card))
                        }
                        None => None,
                    }
                }
                None => None,
            };
            dir.insert(Company { row, card, best: None });
        }
        if let Some(index) = assets.get("/company/data/index.json") {
            let json = index.read().unwrap_or_default();
            let value: serde_json::Value = serde_json::from_slice(&json).unwrap_or_default();
            dir.generated_at = value["generated_at"].as_str().unwrap_or_default().to_owned();
        }
        for company in &mut dir.companies {
            company.best = company.card.as_deref().and_then(|card| super::rank::best_index(card, &dir.generated_at));
        }
        Ok(dir)
    }

    fn insert(&mut self, company: Company) {
        let i = self.companies.len();
        if let Some(card) = &company.card {
            self.by_slug.insert(card.slug.clone(), i);
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
        slugs.into_iter().filter_map(|(_, &i)| self.companies[i].card.as_ref())
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
