//! The console's company pages (`/app/companies`) over HTTP: 303 to sign-in, search by name,
//! ticker and domain, a card whose every signal and executive shows its verbatim sentence and
//! the link to its filing on sec.gov, the 404 page for an unknown slug, and "Add to pipeline":
//! a viewer has no form and is refused, a bad value is 422 inline with the typed values kept,
//! a good one is 303 to a deal that names the company and whose page links back to the card.

use gtms::domain::Role;
use serde_json::Value;

use crate::console::{no_redirects, post_form};
use crate::console_memory::page;
use crate::deals_write::deal_count;
use crate::helpers::{TestApp, spawn_app};

/// The slug of the company whose primary ticker is `ticker`.
pub async fn slug_of(app: &TestApp, ticker: &str) -> String {
    let map: Value = app.get("/company/_slugmap.json").await.json().await.expect("slug map");
    map[ticker].as_str().expect("a company with a card").to_owned()
}

/// `text` as maud writes it into HTML.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The slugs of the result rows, in order.
fn result_slugs(html: &str) -> Vec<&str> {
    html.split("<tr data-slug=\"").skip(1).filter_map(|rest| rest.split('"').next()).collect()
}

#[tokio::test]
async fn companies_are_found_by_name_ticker_and_domain_and_cards_show_receipts_and_add_deals() {
    let app = spawn_app().await;
    let own = app.base.clone();
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;
    let slug = slug_of(&app, "AAPL").await;
    let card: Value = app.get(&format!("/company/data/{slug}.json")).await.json().await.expect("card");

    let res = no_redirects().get(app.url("/app/companies")).send().await.expect("get");
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/app/login?next=%2Fapp%2Fcompanies");

    for (how, q) in [("name", "apple"), ("ticker", "aapl"), ("domain", "https%3A%2F%2Fwww.apple.com%2Fiphone%2F")] {
        let (status, html) = page(&app, &viewer, &format!("/app/companies?q={q}")).await;
        assert_eq!(status, 200, "{how}");
        assert_eq!(result_slugs(&html).first(), Some(&slug.as_str()), "by {how}, Apple first");
        assert!(html.contains(&format!("href=\"/app/companies/{slug}\"")), "by {how}, a link to the card");
    }

    let (status, html) = page(&app, &admin, &format!("/app/companies/{slug}")).await;
    assert_eq!(status, 200);
    let claims =
        card["why_now"].as_array().expect("signals").iter().chain(card["executives"].as_array().expect("people"));
    let mut shown = 0;
    for claim in claims {
        let receipt = &claim["receipt"];
        let (quote, url) = (receipt["quote"].as_str().expect("quote"), receipt["url"].as_str().expect("url"));
        assert!(url.starts_with("https://www.sec.gov/"), "{url}");
        assert!(html.contains(&escaped(quote)), "the verbatim sentence: {quote}");
        assert!(html.contains(&format!("href=\"{}\"", escaped(url))), "the link to its filing: {url}");
        shown += 1;
    }
    assert!(shown > 0, "the card has receipted claims");
    assert!(html.contains(" ago<") && html.contains("id=\"add-deal\""), "ages, and the admin's form");
    assert!(!html.contains("mailto:") && !html.contains("tel:"), "no contact data");

    let (status, html) = page(&app, &admin, "/app/companies/no-such-company").await;
    assert_eq!(status, 404);
    assert!(html.contains("404 Not Found"), "the console's 404 page");

    let add = format!("/app/companies/{slug}/deal");
    let deal = [
        ("accountName", "Apple Inc."),
        ("value", "250000"),
        ("stage", "prospecting"),
        ("type", "new-business"),
        ("rep", "Ada Park"),
        ("closeDate", "2027-06-30"),
    ];
    let before = deal_count(&app, &admin).await;
    let (_, html) = page(&app, &viewer, &format!("/app/companies/{slug}")).await;
    assert!(!html.contains("id=\"add-deal\""), "no form for a viewer");
    assert_eq!(post_form(&app, &add, &viewer, Some(&own), &deal).await.status(), 403, "a viewer's forged add");
    assert_eq!(post_form(&app, &add, &admin, Some("http://evil.example"), &deal).await.status(), 403);
    let mut bad = deal.to_vec();
    bad[1] = ("value", "a lot");
    let res = post_form(&app, &add, &admin, Some(&own), &bad).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.expect("html");
    assert!(html.contains("id=\"deal-value-error\"") && html.contains("value=\"Ada Park\""), "inline, typed kept");
    assert_eq!(deal_count(&app, &admin).await, before, "nothing written");

    let res = post_form(&app, &add, &admin, Some(&own), &deal).await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("location").to_owned();
    let id = location.strip_prefix("/app/deals/").expect("the new deal's page");
    assert_eq!(app.get_json(&admin, &format!("/api/deals/{id}")).await["companySlug"], slug.as_str());
    let (status, html) = page(&app, &admin, &location).await;
    assert_eq!(status, 200);
    assert!(html.contains(&format!("href=\"/app/companies/{slug}\"")), "the deal links back to the card");
    app.stop().await;
}
