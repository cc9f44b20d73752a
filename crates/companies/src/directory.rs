//! `Directory`: the in-memory company lookup every face shares, built once at start-up from
//! the internal registry — by slug, CIK, ticker (all share classes) and registrable domain.
//! A company's card is decoded and parsed from its embedded brotli on first use and kept
//! (issue 27: parsing every card at start-up was most of the time to the first answer and a
//! third of the idle memory); the first search or hub page parses them all.

use std::hash::BuildHasher;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use hashbrown::HashTable;
use serde::de::{DeserializeSeed, SeqAccess, Visitor};

use super::assets::AssetTable;
use super::card::{Card, RegistryRow};
use crate::domain::{DomainName, Ticker};

/// One tracked company; its card is present when it has a public page.
#[derive(Debug, Clone)]
pub struct Company {
    pub row: RegistryRow,
    /// Boxed: nine companies in ten have no page, and pay 8 bytes for it instead of 112.
    card: Option<Box<LazyCard>>,
}

/// A card's embedded brotli bytes, parsed on first use with its best signal.
#[derive(Debug, Clone)]
struct LazyCard {
    brotli: Bytes,
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
        self.card.as_deref()?.memo.get_or_init(made).as_deref()
    }

    fn parsed(&self) -> Option<&Parsed> {
        let lazy = self.card.as_deref()?;
        let parse = || {
            let json = gtms_precompress::unbrotli(&lazy.brotli).ok()?;
            let card: Card = serde_json::from_slice(&json).ok()?;
            let best = super::rank::best_index(&card, &lazy.as_of);
            Some(Parsed { card: Arc::new(card), best })
        };
        lazy.parsed.get_or_init(parse).as_ref()
    }

    /// The company's `key` (its `nth` ticker for `Key::Ticker`; "" where it has none).
    fn key(&self, key: Key, nth: usize) -> &str {
        let row = &self.row;
        match key {
            Key::Slug => row.slug.as_deref().unwrap_or_default(),
            Key::Cik => &row.cik,
            Key::Ticker => row.tickers.get(nth).map_or("", String::as_str),
            Key::Domain => row.domain.as_deref().unwrap_or_default(),
        }
    }
}

/// What a lookup finds companies by.
#[derive(Debug, Clone, Copy, Default)]
enum Key {
    #[default]
    Slug,
    Cik,
    Ticker,
    Domain,
}

/// Bits of a lookup's entry that name which of a company's tickers it is.
const NTH_BITS: u32 = 8;

/// The key a lookup's `entry` stands for ("" for an entry naming no company).
fn entry_key(companies: &[Company], key: Key, entry: u32) -> &str {
    let (at, nth) = ((entry >> NTH_BITS) as usize, (entry & ((1 << NTH_BITS) - 1)) as usize);
    companies.get(at).map_or("", |c| c.key(key, nth))
}

/// Companies found by a key each of them holds: a table of 4-byte entries (the company's
/// place, and which of its tickers), the key itself read from the company. Maps of owned key
/// strings were a fifth of the idle heap (issue 27). The keys come from the embedded registry,
/// never from a client: a fast hasher (hashing was a tenth of the start-up) cannot be flooded
/// with collisions.
#[derive(Default)]
struct Lookup {
    key: Key,
    table: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

impl Lookup {
    fn new(key: Key) -> Self {
        Self { key, ..Self::default() }
    }

    fn key_of<'c>(&self, companies: &'c [Company], entry: u32) -> &'c str {
        entry_key(companies, self.key, entry)
    }

    fn get(&self, companies: &[Company], key: &str) -> Option<usize> {
        let found = self.table.find(self.hasher.hash_one(key), |&e| self.key_of(companies, e) == key)?;
        Some((found >> NTH_BITS) as usize)
    }

    /// Adds the `nth` key of company `at` unless a company already holds it (the first wins).
    fn add(&mut self, companies: &[Company], at: usize, nth: usize) {
        let (Ok(at), Ok(nth)) = (u32::try_from(at), u32::try_from(nth)) else { return };
        if at >= 1 << (32 - NTH_BITS) || nth >= 1 << NTH_BITS {
            return;
        }
        let entry = (at << NTH_BITS) | nth;
        let key = self.key_of(companies, entry);
        if key.is_empty() || self.get(companies, key).is_some() {
            return;
        }
        let Self { key: kind, table, hasher } = self;
        table.insert_unique(hasher.hash_one(key), entry, |&e| hasher.hash_one(entry_key(companies, *kind, e)));
    }

    fn len(&self) -> usize {
        self.table.len()
    }
}

/// What the directory reads of `index.json` (the rest is skipped as it streams by).
#[derive(serde::Deserialize)]
struct IndexHead {
    generated_at: String,
}

#[derive(Default)]
pub struct Directory {
    companies: Vec<Company>,
    by_slug: Lookup,
    by_cik: Lookup,
    by_ticker: Lookup,
    by_domain: Lookup,
    generated_at: String,
}

impl std::fmt::Debug for Directory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directory").field("tracked", &self.tracked()).field("with_page", &self.with_page()).finish()
    }
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
        match crate::assets::registry() {
            Some(registry) => Self::build(registry, assets),
            None => Self::build(std::io::empty(), assets),
        }
    }

    /// Builds the lookup from the registry's JSON rows, read and decoded one at a time (a
    /// vector of every row beside the directory was its size again at start-up, and the whole
    /// JSON at once a 0.9 MB buffer); each card stays in the asset table until used.
    pub fn build(registry: impl std::io::Read, assets: &AssetTable) -> Result<Self, DirectoryError> {
        let mut dir = Directory {
            by_slug: Lookup::new(Key::Slug),
            by_cik: Lookup::new(Key::Cik),
            by_ticker: Lookup::new(Key::Ticker),
            by_domain: Lookup::new(Key::Domain),
            ..Directory::default()
        };
        if let Some(index) = assets.get("/company/data/index.json") {
            let head = serde_json::from_reader::<_, IndexHead>(std::io::BufReader::new(index.reader()));
            dir.generated_at = head.map(|h| h.generated_at).unwrap_or_default();
        }
        let mut json = serde_json::Deserializer::from_reader(std::io::BufReader::new(registry));
        let as_of: Arc<str> = Arc::from(dir.generated_at.as_str());
        Rows { dir: &mut dir, assets, as_of }.deserialize(&mut json).map_err(DirectoryError::Registry)?;
        json.end().map_err(DirectoryError::Registry)?;
        dir.companies.shrink_to_fit();
        Ok(dir)
    }

    /// Adds a company, its tickers and domain in their normal form (as the lookups are asked).
    fn insert(&mut self, mut row: RegistryRow, card: Option<Box<LazyCard>>) {
        for ticker in &mut row.tickers {
            if let Ok(t) = Ticker::parse(ticker) {
                *ticker = t.as_str().to_owned();
            }
        }
        row.tickers.shrink_to_fit();
        let domain = row.domain.as_deref().and_then(|d| DomainName::parse(d).ok());
        let indexed_domain = domain.is_some();
        if let Some(normal) = domain {
            row.domain = Some(normal.as_str().to_owned());
        }
        let (has_page, tickers) = (card.is_some() && row.slug.is_some(), row.tickers.len());
        let at = self.companies.len();
        self.companies.push(Company { row, card });
        let companies = &self.companies;
        if has_page {
            self.by_slug.add(companies, at, 0);
        }
        self.by_cik.add(companies, at, 0);
        for nth in 0..tickers {
            if Ticker::parse(companies[at].key(Key::Ticker, nth)).is_ok() {
                self.by_ticker.add(companies, at, nth);
            }
        }
        if indexed_domain {
            self.by_domain.add(companies, at, 0);
        }
    }

    pub fn by_slug(&self, slug: &str) -> Option<&Company> {
        self.by_slug.get(&self.companies, slug).map(|i| &self.companies[i])
    }
    pub fn by_cik(&self, cik: &str) -> Option<&Company> {
        self.by_cik.get(&self.companies, cik).map(|i| &self.companies[i])
    }
    pub fn by_ticker(&self, ticker: &Ticker) -> Option<&Company> {
        self.by_ticker.get(&self.companies, ticker.as_str()).map(|i| &self.companies[i])
    }
    pub fn by_domain(&self, domain: &DomainName) -> Option<&Company> {
        self.by_domain.get(&self.companies, domain.as_str()).map(|i| &self.companies[i])
    }

    /// Every tracked company, in registry (CIK) order.
    pub fn companies(&self) -> &[Company] {
        &self.companies
    }

    /// Companies with a card, in slug order.
    pub fn cards(&self) -> impl Iterator<Item = &Arc<Card>> {
        let mut slugs: Vec<(&str, &Company)> = self
            .by_slug
            .table
            .iter()
            .map(|&e| (self.by_slug.key_of(&self.companies, e), &self.companies[(e >> NTH_BITS) as usize]))
            .collect();
        slugs.sort_unstable_by_key(|(slug, _)| *slug);
        slugs.into_iter().filter_map(|(_, company)| company.card())
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

/// The registry's rows, added to the directory as they are read.
struct Rows<'d> {
    dir: &'d mut Directory,
    assets: &'d AssetTable,
    as_of: Arc<str>,
}

impl<'de> DeserializeSeed<'de> for Rows<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Rows<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of registry rows")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut rows: A) -> Result<(), A::Error> {
        while let Some(row) = rows.next_element::<RegistryRow>()? {
            let file = row.slug.as_ref().and_then(|slug| self.assets.get(&format!("/company/data/{slug}.json")));
            let card = file.map(|f| {
                let (as_of, parsed, memo) = (Arc::clone(&self.as_of), OnceLock::new(), OnceLock::new());
                Box::new(LazyCard { brotli: f.brotli.clone(), as_of, parsed, memo })
            });
            self.dir.insert(row, card);
        }
        Ok(())
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
        assert_eq!(dir.cards().count(), slugs.len(), "every card, once");
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
