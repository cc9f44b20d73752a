//! The public HTML pages (DESIGN.md, "Public company pages"): one page per card at
//! `/company/{slug}`, the directory at `/company/`, a hub per sector (`/company/sector/{s}`) and
//! per letter (`/company/letter/{l}`), and their one stylesheet. Written at ingest beside the JSON
//! (file `company/{slug}.html`; the server answers it without the extension). Readable without
//! JavaScript, no external asset, schema.org `Organization` JSON-LD on a company page. Static:
//! an age is given against the data build, not the reader's day.

use chrono::NaiveDate;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde_json::json;

use crate::card::{Card, Signal};
use crate::domain::{Claim, Receipt, Source};
use crate::freshness;
use crate::hubs;

/// The stylesheet's file, beside the pages.
pub const STYLESHEET: &str = "company/page.css";
const STYLE: &str = include_str!("page.css");

/// What every page states about the data.
pub struct Build<'a> {
    pub base: &'a str,
    /// The data build (the newest filing date), YYYY-MM-DD.
    pub built: &'a str,
    pub tracked: usize,
}

/// The stylesheet's bytes.
pub fn stylesheet() -> &'static str {
    STYLE
}

/// The file a page is written to, from its URL path (`/company/` → `company/index.html`).
pub fn file_of(url_path: &str) -> String {
    let rel = url_path.trim_start_matches('/');
    match rel.strip_suffix('/') {
        Some(dir) => format!("{dir}/index.html"),
        None => format!("{rel}.html"),
    }
}

fn layout(title: &str, canonical: &str, build: &Build, head: Markup, body: Markup) -> String {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                // No icon to fetch (a browser would ask for /favicon.ico otherwise).
                link rel="icon" href="data:,";
                link rel="canonical" href={ (build.base) (canonical) };
                link rel="stylesheet" href="/company/page.css";
                (head)
            }
            body {
                header {
                    nav aria-label="Company directory" {
                        a href="/company/" { "Companies" }
                        " · " a href="/llms.txt" { "For agents" }
                        " · " a href="/mcp/guide" { "MCP tools" }
                    }
                }
                main { (body) }
                footer {
                    p {
                        "Every claim is the company's own sentence, quoted verbatim from the filing it links to. "
                        "Data built from filings up to " time datetime=(build.built) { (build.built) } "."
                    }
                }
            }
        }
    };
    page.into_string()
}

/// How long before the data build a date was, in words.
pub fn age_words(date: &str, built: NaiveDate) -> String {
    let Some(date) = freshness::day(date) else { return String::new() };
    let days = (built - date).num_days();
    match days {
        ..0 => "after the data build".to_owned(),
        0 => "on the data build's day".to_owned(),
        1 => "1 day before the data build".to_owned(),
        2..60 => format!("{days} days before the data build"),
        60..730 => format!("{} months before the data build", days / 30),
        _ => format!("{} years before the data build", days / 365),
    }
}

fn receipt(r: &Receipt, built: NaiveDate) -> Markup {
    html! {
        blockquote cite=(r.url()) { (r.quote()) }
        (source_line(r, built))
    }
}

/// The record a claim comes from: its link, its date (a press release's is its publication
/// date) and its age in words.
fn source_line(r: &Receipt, built: NaiveDate) -> Markup {
    let dated = if r.source() == Source::PressRelease { " · published " } else { " · filed " };
    html! {
        p.source {
            a href=(r.url()) rel="nofollow" { (r.document()) }
            (dated) time datetime=(r.filed()) { (r.filed()) }
            " · " (age_words(r.filed(), built))
        }
    }
}

/// Most subsidiaries a page lists; the JSON card has them all.
const FAMILY_ON_PAGE: usize = 40;

/// The subsidiaries, grouped by the exhibit that lists them: each line quoted as the exhibit
/// gives it, the exhibit's link and date once per group (a list of 100 names, each with the same
/// receipt, would outgrow the page budget).
fn family(card: &Card, built: NaiveDate) -> Markup {
    let subs = &card.family.subsidiaries;
    let shown = &subs[..subs.len().min(FAMILY_ON_PAGE)];
    let mut groups: Vec<(&Receipt, Vec<&Receipt>)> = Vec::new();
    for claim in shown {
        let r = claim.receipt();
        match groups.iter_mut().find(|(first, _)| first.url() == r.url()) {
            Some((_, members)) => members.push(r),
            None => groups.push((r, vec![r])),
        }
    }
    html! {
        ul.claims aria-labelledby="family" {
            @for (first, members) in &groups {
                li.claim {
                    ul.names { @for r in members { li { q cite=(r.url()) { (r.quote()) } } } }
                    (source_line(first, built))
                }
            }
        }
        @if subs.len() > shown.len() {
            p { (subs.len() - shown.len()) " more in the " a href={ "/company/data/" (card.slug) ".json" } { "JSON card" } "." }
        }
    }
}

fn signal(claim: &Claim<Signal>, built: NaiveDate) -> Markup {
    let s = claim.value();
    html! {
        li.claim data-kind=(s.kind.as_str()) data-fresh=(s.fresh) {
            p.kind {
                span.tag { (s.kind.as_str()) }
                @if s.fresh { " " span.tag.fresh { "fresh" } }
                @if let Some(event) = &s.event_date { " · event dated " (event) }
            }
            (receipt(claim.receipt(), built))
        }
    }
}

/// The schema.org `Organization` of a card, safe inside a `<script>` element.
fn json_ld(card: &Card, build: &Build) -> Markup {
    let mut org = json!({
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": card.legal_name,
        "legalName": card.legal_name,
        "tickerSymbol": format!("{} {}", card.exchange, card.ticker),
        "identifier": { "@type": "PropertyValue", "propertyID": "SEC CIK", "value": card.cik },
        "mainEntityOfPage": format!("{}/company/{}", build.base, card.slug),
    });
    if let Some(domain) = &card.domain {
        org["url"] = json!(format!("https://{domain}"));
    }
    let subs: Vec<_> = card
        .family
        .subsidiaries
        .iter()
        .take(FAMILY_ON_PAGE)
        .map(|s| json!({ "@type": "Organization", "name": s.value().name }))
        .collect();
    if !subs.is_empty() {
        org["subOrganization"] = json!(subs);
    }
    // `<` escaped so no text of a claim can close the script element.
    let text = org.to_string().replace('<', "\\u003c");
    html! { script type="application/ld+json" { (PreEscaped(text)) } }
}

/// A company's page.
pub fn company(card: &Card, build: &Build) -> String {
    let built = freshness::day(build.built).unwrap_or_default();
    let sector = hubs::sector_name(card);
    let title = format!("{} ({}) — receipted signals from its filings", card.legal_name, card.ticker);
    let head = html! {
        meta name="description" content={ (card.legal_name) ": " (card.freshness) };
        link rel="alternate" type="application/json" href={ "/company/data/" (card.slug) ".json" };
        (json_ld(card, build))
    };
    let body = html! {
        p.crumbs {
            a href={ "/company/letter/" (hubs::letter_of(&card.slug)) } { "Letter " (hubs::letter_of(&card.slug).to_uppercase()) }
            " · " a href={ "/company/sector/" (hubs::sector_slug(sector)) } { (sector) }
        }
        h1 { (card.legal_name) }
        dl.facts {
            dt { "Ticker" } dd { (card.ticker) " (" (card.exchange) ")" }
            dt { "Sector" } dd { (sector) }
            @if let Some(domain) = &card.domain { dt { "Website" } dd { (domain) } }
            dt { "SEC CIK" } dd { (card.cik) }
            dt { "As of" } dd { "newest filing used " time datetime=(card.as_of) { (card.as_of) } }
            dt { "Data" } dd { a href={ "/company/data/" (card.slug) ".json" } { "JSON card" } }
        }
        h2 #signals { @if card.fresh_signals > 0 { "Why now" } @else { "Signals (none fresh)" } }
        p.freshness { (card.freshness) }
        ol.claims aria-labelledby="signals" { @for claim in &card.why_now { (signal(claim, built)) } }
        h2 #executives { "Executives" }
        @if card.executives.is_empty() { p { "No executive is named with a title in the filings we hold." } }
        ul.claims aria-labelledby="executives" {
            @for claim in &card.executives {
                li.claim {
                    p.person {
                        strong { (claim.value().name) } " — " (claim.value().title) " "
                        span.tag { (claim.value().role.as_str()) }
                        @if !claim.value().current { " " span.tag { "may be out of date" } }
                    }
                    (receipt(claim.receipt(), built))
                }
            }
        }
        h2 #family { "Family" }
        @if card.family.subsidiaries.is_empty() { p { "No subsidiary is named in the filings we hold." } }
        (family(card, built))
    };
    layout(&title, &format!("/company/{}", card.slug), build, head, body)
}

fn company_rows(cards: &[&Card]) -> Markup {
    html! {
        table {
            thead { tr { th scope="col" { "Company" } th scope="col" { "Ticker" } th scope="col" { "Sector" } th scope="col" { "Fresh signals" } } }
            tbody {
                @for card in cards {
                    tr {
                        td { a href={ "/company/" (card.slug) } { (card.legal_name) } }
                        td { (card.ticker) }
                        td { (hubs::sector_name(card)) }
                        td { (card.fresh_signals) " of " (card.why_now.len()) }
                    }
                }
            }
        }
    }
}

fn letter_nav(cards: &[Card]) -> Markup {
    html! {
        nav.letters aria-label="By letter" {
            @for (letter, _) in hubs::by_letter(cards) {
                a href={ "/company/letter/" (letter) } { (letter.to_uppercase()) } " "
            }
        }
    }
}

/// The directory: counts, the letters and the sectors.
pub fn directory(cards: &[Card], build: &Build) -> String {
    let fresh = cards.iter().filter(|c| c.fresh_signals > 0).count();
    let body = html! {
        h1 { "Companies" }
        p {
            (cards.len()) " of " (build.tracked) " tracked US public companies have a page: at least one sentence of "
            "their own filings, quoted with its receipt. " (fresh) " of them have a fresh signal (dated at most "
            (freshness::FRESH_DAYS) " days before the data build)."
        }
        h2 { "By letter" }
        (letter_nav(cards))
        h2 { "By sector" }
        ul.hubs {
            @for (name, members) in hubs::by_sector(cards) {
                li { a href={ "/company/sector/" (hubs::sector_slug(name)) } { (name) } " (" (members.len()) ")" }
            }
        }
    };
    layout("Companies — receipted signals from SEC filings", "/company/", build, html! {}, body)
}

/// A sector's hub.
pub fn sector(name: &str, members: &[&Card], build: &Build) -> String {
    let body = html! {
        h1 { (name) }
        p { (members.len()) " companies with a page in this sector." }
        (company_rows(members))
    };
    let path = format!("/company/sector/{}", hubs::sector_slug(name));
    layout(&format!("{name} — companies"), &path, build, html! {}, body)
}

/// A letter's hub.
pub fn letter(letter: &str, members: &[&Card], all: &[Card], build: &Build) -> String {
    let body = html! {
        h1 { "Companies: " (letter.to_uppercase()) }
        (letter_nav(all))
        (company_rows(members))
    };
    layout(
        &format!("Companies: {}", letter.to_uppercase()),
        &format!("/company/letter/{letter}"),
        build,
        html! {},
        body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_words_against_the_data_build_and_files_follow_url_paths() {
        let built = freshness::day("2026-06-25").expect("date");
        assert_eq!(age_words("2026-06-20", built), "5 days before the data build");
        assert_eq!(age_words("2025-08-01", built), "10 months before the data build");
        assert_eq!(age_words("2022-01-01", built), "4 years before the data build");
        assert_eq!(file_of("/company/"), "company/index.html");
        assert_eq!(file_of("/company/apple"), "company/apple.html");
        assert_eq!(file_of("/company/sector/energy"), "company/sector/energy.html");
    }
}
