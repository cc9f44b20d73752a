//! The text indexes for agents and crawlers: `/llms.txt`, `/company/llms.txt`
//! (llmstxt.org format) and `/sitemap.xml`.

use std::fmt::Write;

use crate::card::Card;
use crate::domain::Source;

pub fn root_llms(base: &str, tracked: usize, with_page: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# gtms\n");
    let _ = writeln!(
        s,
        "> Receipted facts about US public companies from their SEC EDGAR filings and their own press releases: {tracked} tracked companies, {with_page} with a public card. Every claim carries the verbatim sentence and the address of the record it came from; its receipt's `source` says which kind (`edgar`: the filing, with its accession; `press_release`: the company's release, dated by its publication). Where both state the same sentence, the filing is the receipt.\n"
    );
    let _ = writeln!(
        s,
        "Keyless JSON needs no key. Enrichment (`/v1/enrich`) needs an API key. The MCP server at `/mcp` speaks Streamable HTTP.\n"
    );
    let _ = writeln!(s, "## Company data\n");
    let _ = writeln!(s, "- [Company directory for agents]({base}/company/llms.txt): every company with a card");
    let _ = writeln!(s, "- [Company index]({base}/company/data/index.json): counts, companies, sector and letter hubs");
    let _ = writeln!(
        s,
        "- [Search index]({base}/company/search-index.json): rows of slug, name, ticker, statements, people"
    );
    let _ = writeln!(
        s,
        "- [Latest quotes]({base}/company/quotes.json): one newest verbatim quote per company with its receipt"
    );
    let _ = writeln!(s, "- [Ticker map]({base}/company/_slugmap.json): ticker to slug\n");
    let _ = writeln!(s, "## Tools\n");
    let _ = writeln!(s, "- [MCP tool guide]({base}/mcp/guide): every tool with its schemas and an example call");
    let _ = writeln!(s, "\n## Optional\n");
    let _ = writeln!(s, "- [Sitemap]({base}/sitemap.xml)");
    s
}

pub fn company_llms(base: &str, tracked: usize, cards: &[Card]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# gtms company directory\n");
    let _ = writeln!(
        s,
        "> {} of {tracked} tracked US public companies have a card with receipted claims from their SEC filings and press releases. Each card is JSON at /company/data/{{slug}}.json.\n",
        cards.len()
    );
    let _ = writeln!(s, "## Companies\n");
    for card in cards {
        let sector = card.sector.as_deref().unwrap_or("Unclassified");
        let _ = writeln!(
            s,
            "- [{} ({})]({base}/company/data/{}.json): {sector}; {} receipted statements ({} from press releases), {} executives, {} subsidiaries",
            card.legal_name,
            card.ticker,
            card.slug,
            card.why_now.len(),
            card.why_now.iter().filter(|w| w.receipt().source() == Source::PressRelease).count(),
            card.executives.len(),
            card.family.subsidiaries.len()
        );
    }
    s
}

/// `(url path, lastmod)` pairs become the sitemap.
pub fn sitemap(base: &str, entries: &[(String, String)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (path, lastmod) in entries {
        let _ = writeln!(
            s,
            "  <url><loc>{}{}</loc><lastmod>{}</lastmod></url>",
            xml_escape(base),
            xml_escape(path),
            lastmod
        );
    }
    s.push_str("</urlset>\n");
    s
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
