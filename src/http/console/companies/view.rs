//! The markup of the company pages: the search form and its results, and a card with its
//! receipted signals and executives (each quote beside the link to its filing, the filing date
//! and its age) and, for admins, the "Add to pipeline" form.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::NaiveDate;
use maud::{Markup, html};

use super::super::deals::{DealForm, deal_fields};
use crate::companies::card::Card;
use crate::companies::directory::Directory;
use crate::domain::Receipt;

/// Results the search page lists before it asks for a narrower query.
const SHOWN: usize = 50;

/// The "Add to pipeline" fields: (name, label, input type, required).
const FIELDS: [(&str, &str, &str, bool); 7] = [
    ("accountName", "Account", "text", true),
    ("value", "Value (USD)", "number", true),
    ("stage", "Stage", "stage", true),
    ("type", "Type", "type", true),
    ("rep", "Rep", "text", true),
    ("closeDate", "Close date", "date", true),
    ("nextStep", "Next step", "text", false),
];

/// The "Add to pipeline" form prefilled for `card`: the account is the company's legal name.
pub fn prefilled(card: &Card) -> DealForm {
    let values = BTreeMap::from([("accountName".to_owned(), card.legal_name.clone())]);
    DealForm { values, ..DealForm::default() }
}

pub fn search(dir: &Directory, q: &str, hits: Option<&[&Arc<Card>]>) -> Markup {
    html! {
        h1 { "Companies" }
        form.toolbar #company-search method="get" action="/app/companies" role="search" aria-label="Search companies" {
            label for="company-q" { "Name, ticker or domain" }
            input #company-q type="search" name="q" value=(q) maxlength="200";
            button type="submit" { "Search" }
        }
        @match hits {
            None => p.hint { (dir.with_page()) " companies have a receipted card (of " (dir.tracked()) " tracked US public companies)." },
            Some(hits) => {
                table #company-results {
                    caption {
                        (hits.len()) " " (if hits.len() == 1 { "company" } else { "companies" }) " for “" (q) "”"
                        @if hits.len() > SHOWN { " (the best " (SHOWN) " shown; narrow the search)" }
                    }
                    thead { tr { th scope="col" { "Company" } th scope="col" { "Ticker" } th scope="col" { "Domain" } th scope="col" { "Sector" } } }
                    tbody {
                        @for card in hits.iter().take(SHOWN) {
                            tr data-slug=(card.slug) {
                                td { a href={ "/app/companies/" (card.slug) } { (card.legal_name) } }
                                td { (card.ticker) }
                                td { (card.domain.as_deref().unwrap_or("—")) }
                                td { (card.sector.as_deref().unwrap_or("—")) }
                            }
                        }
                    }
                }
                @if hits.is_empty() { p { "No company with a card matches; try its ticker or its website's domain." } }
            },
        }
    }
}

/// How long ago `filed` was on `today`: days within a year, years (one decimal) beyond.
pub fn age(filed: &str, today: NaiveDate) -> String {
    let Ok(date) = NaiveDate::parse_from_str(filed, "%Y-%m-%d") else {
        return String::new();
    };
    match (today - date).num_days() {
        ..0 => "filed after today's date".to_owned(),
        0 => "today".to_owned(),
        1 => "1 day ago".to_owned(),
        days @ 2..365 => format!("{days} days ago"),
        days => format!("{:.1} years ago", days as f64 / 365.25),
    }
}

/// A claim's receipt: the verbatim sentence, then its filing, date and age.
fn receipt(r: &Receipt, today: NaiveDate) -> Markup {
    html! {
        blockquote.quote cite=(r.url()) { (r.quote()) }
        p.source {
            a.filing href=(r.url()) { (r.document()) }
            " · filed " time datetime=(r.filed()) { (r.filed()) }
            " · " span.age { (age(r.filed(), today)) }
        }
    }
}

pub fn card(card: &Card, today: NaiveDate, form: Option<&DealForm>) -> Markup {
    html! {
        p { a href="/app/companies" { "← Companies" } }
        h1 { (card.legal_name) }
        dl.facts {
            dt { "Ticker" } dd { (card.ticker) " (" (card.exchange) ")" }
            dt { "Sector" } dd { (card.sector.as_deref().unwrap_or("—")) }
            dt { "Domain" } dd { (card.domain.as_deref().unwrap_or("—")) }
            dt { "CIK" } dd { (card.cik) }
            dt { "Card" } dd { a href={ "/company/" (card.slug) } { "Public page" } " · " a href={ "/company/data/" (card.slug) ".json" } { "JSON" } }
        }
        @if let Some(form) = form { (deal_form(card, form)) }
        // A card never calls an old event "now": without a fresh signal the list is background.
        h2 #why-now-title { @if card.fresh_signals > 0 { "Why now" } @else { "Signals (none fresh)" } }
        p.hint #freshness { (card.freshness) " Each signal is the company's own sentence, quoted from the filing it links to." }
        @if card.why_now.is_empty() { p { "No receipted signal on this card." } }
        ol.claims #why-now aria-labelledby="why-now-title" {
            @for claim in &card.why_now {
                @let s = claim.value();
                li.claim data-kind=(s.kind.as_str()) data-fresh=(s.fresh) {
                    p.kind {
                        span.tag { (s.kind.as_str()) }
                        @if s.fresh { " " span.tag.fresh { "fresh" } }
                        @if let Some(when) = &s.event_date { " · about " (when) }
                    }
                    (receipt(claim.receipt(), today))
                }
            }
        }
        h2 #executives-title { "Executives" }
        @if card.executives.is_empty() { p { "No receipted executive on this card." } }
        ul.claims #executives aria-labelledby="executives-title" {
            @for claim in &card.executives {
                li.claim {
                    p.person { strong { (claim.value().name) } ", " (claim.value().title) }
                    (receipt(claim.receipt(), today))
                }
            }
        }
    }
}

fn deal_form(card: &Card, form: &DealForm) -> Markup {
    let open = form.message.is_some() || !form.problems.is_empty();
    html! {
        details #add-deal open[open] {
            summary { "Add to pipeline" }
            form.card method="post" action={ "/app/companies/" (card.slug) "/deal" } {
                p.hint { "Creates a deal linked to this company's card." }
                @if let Some(message) = &form.message { p.error role="alert" { (message) } }
                (deal_fields("deal", &FIELDS, form))
                button type="submit" { "Add to pipeline" }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_days_within_a_year_then_years() {
        let today = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap_or_default();
        assert_eq!(age("2026-03-01", today), "today");
        assert_eq!(age("2026-02-28", today), "1 day ago");
        assert_eq!(age("2025-12-01", today), "90 days ago");
        assert_eq!(age("2024-03-01", today), "2.0 years ago");
        assert_eq!(age("2026-04-01", today), "filed after today's date");
        assert_eq!(age("someday", today), "");
    }
}
