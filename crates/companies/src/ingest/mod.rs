//! `gtms ingest`: turns the seed extract into the keyless company files of DESIGN.md — the
//! JSON cards and indexes and the public HTML pages (`pages`) —, each with its brotli sibling
//! (`.br`, what the binary embeds), into `assets/public/` for rust-embed, plus the internal
//! registry in `assets/internal/` (with its `.br` too). Pure and deterministic: the same seed
//! and base URL give byte-identical files (no clocks; `generated_at` is the newest filing date).

mod cards;
mod indexes;
pub use indexes::Coverage;
pub mod pages;
mod texts;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::assets::REGISTRY_FILE;
use super::card::Card;
use super::hubs;
use super::seed::{self, SeedCompany};

use gtms_precompress::{brotli, brotli_streamed};

/// Where ingest writes, relative to the output root.
pub const PUBLIC_DIR: &str = "public";
pub const INTERNAL_DIR: &str = "internal";

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error(transparent)]
    Seed(#[from] seed::SeedError),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("encoding {0}: {1}")]
    Json(String, serde_json::Error),
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct IngestReport {
    pub tracked: usize,
    pub with_page: usize,
    pub statements: usize,
    /// Signals fresh as of the data build (docs/company-data.md, "Freshness").
    pub fresh_signals: usize,
    /// Cards with at least one fresh signal.
    pub fresh_cards: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    pub domains: usize,
    pub files: usize,
    pub coverage: Coverage,
}

/// Every generated file: public URL path (without the leading `/`) to bytes.
pub struct Generated {
    pub public: BTreeMap<String, Vec<u8>>,
    pub registry: Vec<u8>,
    pub report: IngestReport,
}

fn to_json<T: serde::Serialize>(what: &str, value: &T) -> Result<Vec<u8>, IngestError> {
    serde_json::to_vec(value).map_err(|e| IngestError::Json(what.to_owned(), e))
}

/// Builds every file in memory from the seed rows.
pub fn build(companies: &[SeedCompany], base_url: &str) -> Result<Generated, IngestError> {
    let base = base_url.trim_end_matches('/');
    let slugs = cards::assign_slugs(companies);
    let paged = companies.iter().filter(|c| slugs.contains_key(&c.cik));
    let generated_at = paged.filter_map(cards::newest_filing).max().unwrap_or("1970-01-01").to_owned();
    let built = crate::freshness::day(&generated_at).unwrap_or_default();
    let mut page_cards: Vec<Card> = companies
        .iter()
        .filter_map(|c| slugs.get(&c.cik).map(|slug| cards::build_card(c, slug, base, built)))
        .collect();
    page_cards.sort_by(|a, b| a.slug.cmp(&b.slug));

    let mut public = BTreeMap::new();
    let mut sitemap = vec![("/company/data/index.json".to_owned(), generated_at.clone())];
    for card in &page_cards {
        let path = format!("company/data/{}.json", card.slug);
        public.insert(path.clone(), to_json(&path, card)?);
        sitemap.push((format!("/{path}"), card.as_of.clone()));
    }
    let tracked = companies.len();
    let build = pages::Build { base, built: &generated_at, tracked };
    let mut page = |url_path: String, html: String, lastmod: &str| {
        sitemap.push((url_path.clone(), lastmod.to_owned()));
        public.insert(pages::file_of(&url_path), html.into_bytes());
    };
    for card in &page_cards {
        page(format!("/company/{}", card.slug), pages::company(card, &build), &card.as_of);
    }
    page("/company/".into(), pages::directory(&page_cards, &build), &generated_at);
    for (name, members) in hubs::by_sector(&page_cards) {
        page(
            format!("/company/sector/{}", hubs::sector_slug(name)),
            pages::sector(name, &members, &build),
            &generated_at,
        );
    }
    for (letter, members) in hubs::by_letter(&page_cards) {
        let html = pages::letter(&letter, &members, &page_cards, &build);
        page(format!("/company/letter/{letter}"), html, &generated_at);
    }
    public.insert(pages::STYLESHEET.into(), pages::stylesheet().as_bytes().to_vec());
    public.insert(
        "company/data/index.json".into(),
        to_json("index", &indexes::index_json(&generated_at, tracked, &page_cards))?,
    );
    public.insert("company/search-index.json".into(), to_json("search index", &indexes::search_index(&page_cards))?);
    public.insert("company/quotes.json".into(), to_json("quotes", &indexes::quotes(&page_cards))?);
    public.insert("company/_slugmap.json".into(), to_json("slugmap", &indexes::slugmap(companies, &slugs))?);
    public.insert("company/llms.txt".into(), texts::company_llms(base, tracked, &page_cards).into_bytes());
    public.insert("llms.txt".into(), texts::root_llms(base, tracked, page_cards.len()).into_bytes());
    for extra in [
        "/company/search-index.json",
        "/company/quotes.json",
        "/company/_slugmap.json",
        "/company/llms.txt",
        "/llms.txt",
        "/mcp/guide",
    ] {
        sitemap.push((extra.to_owned(), generated_at.clone()));
    }
    sitemap.sort();
    public.insert("sitemap.xml".into(), texts::sitemap(base, &sitemap).into_bytes());

    let report = IngestReport {
        tracked,
        with_page: page_cards.len(),
        statements: page_cards.iter().map(|c| c.why_now.len()).sum(),
        fresh_signals: page_cards.iter().map(|c| c.fresh_signals).sum(),
        fresh_cards: page_cards.iter().filter(|c| c.fresh_signals > 0).count(),
        executives: page_cards.iter().map(|c| c.executives.len()).sum(),
        subsidiaries: page_cards.iter().map(|c| c.family.subsidiaries.len()).sum(),
        domains: companies.iter().filter(|c| c.domain.is_some()).count(),
        files: public.len(),
        coverage: indexes::coverage(&page_cards, &generated_at),
    };
    let registry = to_json("registry", &indexes::registry(companies, &slugs))?;
    Ok(Generated { public, registry, report })
}

/// Reads `seed_dir/companies.jsonl` and writes every file (with its `.br`) under `out_dir`,
/// replacing what was there.
pub fn run(seed_dir: &Path, out_dir: &Path, base_url: &str) -> Result<IngestReport, IngestError> {
    let path = seed_dir.join(seed::COMPANIES_FILE);
    let file = std::fs::File::open(&path).map_err(|source| IngestError::Io { path: path.clone(), source })?;
    let companies = seed::read_companies(std::io::BufReader::new(file))?;
    let generated = build(&companies, base_url)?;
    let staging = out_dir.with_extension("staging");
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| IngestError::Io { path, source }
    };
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io(&staging))?;
    }
    write_tree(&staging.join(PUBLIC_DIR), &generated.public, brotli)?;
    let internal = BTreeMap::from([(REGISTRY_FILE.to_owned(), generated.registry)]);
    write_tree(&staging.join(INTERNAL_DIR), &internal, brotli_streamed)?;
    if out_dir.exists() {
        std::fs::remove_dir_all(out_dir).map_err(io(out_dir))?;
    }
    std::fs::rename(&staging, out_dir).map_err(io(out_dir))?;
    Ok(generated.report)
}

/// Writes `files` under `root`, each with its `.br` sibling made by `encode` (the binary embeds
/// only those; the gzip bytes are the server's to make, `assets::StaticFile::gzip`).
pub fn write_tree(
    root: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    encode: fn(&[u8]) -> std::io::Result<Vec<u8>>,
) -> Result<(), IngestError> {
    for (rel, bytes) in files {
        let path = root.join(rel);
        let io = |source| IngestError::Io { path: path.clone(), source };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&path, bytes).map_err(io)?;
        let sibling = PathBuf::from(format!("{}.br", path.display()));
        std::fs::write(sibling, encode(bytes).map_err(io)?).map_err(io)?;
    }
    Ok(())
}
