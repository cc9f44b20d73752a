//! Issue 32: a claim from a company's press release and a claim from an 8-K are each served
//! with their own kind of receipt — on the card, by `/v1/enrich`, through an MCP tool and on the
//! company page. Companies are picked from the loaded directory, so the test holds for any seed
//! that has both kinds.

use gtms::companies::card::Card;
use gtms::companies::domain::Source;
use serde_json::{Value, json};

use crate::helpers::spawn_app;
use crate::mcp::RawSession;

/// A card whose signals all come from press releases (enrich's answer is then one of them).
fn press_only(cards: &[&Card]) -> Card {
    let found = cards
        .iter()
        .find(|c| !c.why_now.is_empty() && c.why_now.iter().all(|s| s.receipt().source() == Source::PressRelease));
    (*found.expect("a card whose signals all come from press releases")).clone()
}

/// A card with a signal receipted by an 8-K.
fn with_8k(cards: &[&Card]) -> Card {
    let found = cards.iter().find(|c| c.why_now.iter().any(|s| s.receipt().form().starts_with("8-K")));
    (*found.expect("a card with an 8-K signal")).clone()
}

fn check_press_receipt(receipt: &Value, what: &str) {
    assert_eq!(receipt["source"], "press_release", "{what}: {receipt}");
    assert_eq!(receipt["form"], "press release", "{what}");
    assert!(receipt["accession"].is_null(), "{what}: a release has no accession");
    let url = receipt["url"].as_str().unwrap_or_default();
    assert!(url.starts_with("https://") && !url.starts_with("https://www.sec.gov/"), "{what}: {url}");
}

#[tokio::test]
async fn a_press_release_claim_and_an_8k_claim_each_carry_their_own_receipt_everywhere() {
    let app = spawn_app().await;
    let directory = app.state().directory();
    let cards: Vec<&Card> = directory.companies().iter().filter_map(|c| c.card().map(|card| &**card)).collect();
    let press = press_only(&cards);
    let eight_k = with_8k(&cards);

    // The card over HTTP.
    let card: Value = app.get(&format!("/company/data/{}.json", press.slug)).await.json().await.expect("card");
    for signal in card["why_now"].as_array().expect("why_now") {
        check_press_receipt(&signal["receipt"], "card");
        assert_eq!(signal["filed"], signal["receipt"]["filed"], "a release's date is its publication date");
    }
    let card: Value = app.get(&format!("/company/data/{}.json", eight_k.slug)).await.json().await.expect("card");
    let from_8k = card["why_now"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["receipt"]["form"].as_str().is_some_and(|f| f.starts_with("8-K")))
        .expect("the 8-K signal on the card");
    assert_eq!(from_8k["receipt"]["source"], "edgar");
    assert!(from_8k["receipt"]["accession"].is_string());

    // Enrichment.
    let (key, _) = app.api_key("acme").await;
    let res = app
        .client
        .get(app.url(&format!("/v1/enrich?ticker={}", press.ticker)))
        .header("authorization", format!("Bearer {key}"))
        .send()
        .await
        .expect("enrich");
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.expect("json");
    check_press_receipt(&body["signal"]["receipt"], "enrich");

    // MCP.
    let session = RawSession::open(&app.base, &key).await;
    let answer = session.call(1, "company_why_now", json!({"slug": press.slug})).await;
    let signals = answer["result"]["structuredContent"]["signals"].as_array().cloned().unwrap_or_default();
    assert!(!signals.is_empty(), "{answer}");
    for s in &signals {
        check_press_receipt(&s["receipt"], "MCP company_why_now");
    }
    let answer = session.call(2, "company_why_now", json!({"slug": eight_k.slug, "limit": 50})).await;
    let signals = answer["result"]["structuredContent"]["signals"].as_array().cloned().unwrap_or_default();
    assert!(
        signals.iter().any(|s| s["receipt"]["form"].as_str().is_some_and(|f| f.starts_with("8-K"))
            && s["receipt"]["source"] == "edgar"),
        "{answer}"
    );

    // The page names the kind of record and dates a release by its publication.
    let html = app.get(&format!("/company/{}", press.slug)).await.text().await.expect("page");
    assert!(html.contains(">press release</a> · published "), "the page labels the release");
    app.stop().await;
}
