//! `GET /v1/enrich`: the auth matrix, tenants, every 400/404, domain and ticker spellings,
//! revocation, rate limits and concurrency. Companies are picked from the loaded directory,
//! so the tests hold for any seed.

use gtms::companies::directory::Company;

use std::sync::Arc;

use gtms::clock::ManualClock;

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app, spawn_app_with, spawn_app_with_clock};

/// A company whose card has a signal (a card may hold only a family or executives).
fn with_page_and_domain(app: &TestApp) -> Company {
    app.state()
        .directory()
        .companies()
        .iter()
        .find(|c| c.card().is_some_and(|card| !card.why_now.is_empty()) && c.row.domain.is_some())
        .cloned()
        .expect("a company with a signal and a domain")
}

fn without_page(app: &TestApp) -> Company {
    app.state().directory().companies().iter().find(|c| c.card().is_none()).cloned().expect("a company without a card")
}

async fn enrich(app: &TestApp, query: &str, bearer: Option<&str>) -> reqwest::Response {
    let mut req = app.client.get(app.url(&format!("/v1/enrich?{query}")));
    if let Some(key) = bearer {
        req = req.header("authorization", format!("Bearer {key}"));
    }
    req.send().await.expect("request")
}

fn ticker_of(c: &Company) -> String {
    c.row.tickers[0].clone()
}

#[tokio::test]
async fn the_auth_matrix_answers_401_alike_and_accepts_header_or_query() {
    let app = spawn_app().await;
    let (key, id) = app.api_key("acme").await;
    let t = format!("ticker={}", ticker_of(&with_page_and_domain(&app)));
    let forged = format!("gtms_{}_{}", "ab".repeat(6), "cd".repeat(32));

    let mut bodies = Vec::new();
    for (query, bearer) in [
        (t.clone(), None),
        (t.clone(), Some("not-a-key")),
        (t.clone(), Some(forged.as_str())),
        (format!("{t}&key=garbage"), None),
    ] {
        bodies.push(assert_envelope(enrich(&app, &query, bearer).await, 401, "unauthorized").await);
    }
    let basic = app
        .client
        .get(app.url(&format!("/v1/enrich?{t}")))
        .header("authorization", "Basic abc")
        .send()
        .await
        .expect("req");
    bodies.push(assert_envelope(basic, 401, "unauthorized").await);
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "401s must not reveal which check failed: {bodies:?}");

    assert_eq!(enrich(&app, &t, Some(&key)).await.status(), 200, "header");
    assert_eq!(enrich(&app, &format!("{t}&key={key}"), None).await.status(), 200, "query");
    assert_eq!(
        enrich(&app, &format!("{t}&key=garbage"), Some(&key)).await.status(),
        200,
        "header wins over a bad query key"
    );
    let res = enrich(&app, &format!("{t}&key={key}"), Some("gtms_bad")).await;
    assert_envelope(res, 401, "unauthorized").await;

    app.state().api_keys().revoke(&id, 1).await.expect("revoke");
    assert_envelope(enrich(&app, &t, Some(&key)).await, 401, "unauthorized").await;
    app.stop().await;
}

#[tokio::test]
async fn a_successful_answer_has_the_design_shape_and_a_receipt() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let company = with_page_and_domain(&app);
    let res = enrich(&app, &format!("ticker={}", ticker_of(&company)), Some(&key)).await;
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.expect("json");
    let card = company.card().expect("card");
    assert_eq!(body["company"]["slug"], card.slug.as_str());
    assert_eq!(body["company"]["account_id"], card.account_id.as_str());
    for k in ["legal_name", "ticker", "domain"] {
        assert!(body["company"].get(k).is_some(), "{k}");
    }
    assert_eq!(body["tenant"], "acme");
    assert!(body["generated_at"].is_string());
    let signal = &body["signal"];
    assert!(signal["kind"].is_string() && signal["text"].is_string() && signal["score"].is_number());
    let receipt = &signal["receipt"];
    assert!(receipt["quote"].as_str().is_some_and(|q| !q.is_empty()));
    assert!(receipt["url"].as_str().is_some_and(|u| u.starts_with("https://www.sec.gov/Archives/edgar/data/")));
    for k in ["form", "filed", "accession"] {
        assert!(receipt[k].is_string(), "{k}");
    }
    let on_card = card.why_now.iter().any(|c| c.receipt().quote() == receipt["quote"].as_str().unwrap_or_default());
    assert!(on_card, "the signal is one of the card's receipted statements");
    app.stop().await;
}

#[tokio::test]
async fn tenants_scope_keys() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let t = format!("ticker={}", ticker_of(&with_page_and_domain(&app)));
    assert_eq!(enrich(&app, &format!("{t}&tenant=acme"), Some(&key)).await.status(), 200);
    assert_envelope(enrich(&app, &format!("{t}&tenant=globex"), Some(&key)).await, 403, "forbidden").await;
    app.stop().await;
}

#[tokio::test]
async fn bad_lookups_are_400_and_unknown_ones_404() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let company = with_page_and_domain(&app);
    let other = app
        .state()
        .directory()
        .companies()
        .iter()
        .find(|c| c.card().is_some() && c.row.cik != company.row.cik)
        .cloned()
        .expect("a second company");
    let domain = company.row.domain.clone().expect("domain");
    for query in [
        String::new(),
        "domain=&ticker=".into(),
        "domain=not_a_domain".into(),
        "ticker=AA;PL".into(),
        format!("ticker={}&color=red", ticker_of(&company)),
        format!("domain={domain}&ticker={}", ticker_of(&other)),
    ] {
        assert_envelope(enrich(&app, &query, Some(&key)).await, 400, "bad_request").await;
    }
    assert_envelope(enrich(&app, "domain=no-such-company-anywhere.example", Some(&key)).await, 404, "not_found").await;
    assert_envelope(enrich(&app, "ticker=ZZZZZZZZZZ", Some(&key)).await, 404, "not_found").await;
    let bare = without_page(&app);
    let res = enrich(&app, &format!("ticker={}", ticker_of(&bare)), Some(&key)).await;
    assert_envelope(res, 404, "no_signal").await;
    let same = format!("domain={domain}&ticker={}", ticker_of(&company));
    assert_eq!(enrich(&app, &same, Some(&key)).await.status(), 200, "both naming the same company is fine");
    // A credential header that is not visible ASCII is a bad request, not a missing key.
    let garbled =
        reqwest::header::HeaderValue::from_bytes(b"Bearer gtms_\xff\xfe").expect("obs-text is a header value");
    let res = app
        .client
        .get(app.url(&format!("/v1/enrich?{same}")))
        .header("authorization", garbled)
        .send()
        .await
        .expect("request");
    assert_envelope(res, 400, "bad_request").await;
    app.stop().await;
}

#[tokio::test]
async fn domain_spellings_resolve_to_the_same_company() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let company = with_page_and_domain(&app);
    let domain = company.row.domain.clone().expect("domain");
    let slug = company.card().expect("card").slug.clone();
    let spellings = [
        domain.clone(),
        domain.to_uppercase(),
        format!("https://www.{domain}/about?x=1"),
        format!("http://user@{domain}:8443/"),
        format!("investor.{domain}"),
        format!("{domain}."),
    ];
    for spelling in spellings {
        let query = format!("domain={}", urlencode(&spelling));
        let res = enrich(&app, &query, Some(&key)).await;
        assert_eq!(res.status(), 200, "{spelling}");
        let body: serde_json::Value = res.json().await.expect("json");
        assert_eq!(body["company"]["slug"], slug.as_str(), "{spelling}");
    }
    app.stop().await;
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test]
async fn share_class_ticker_spellings_resolve_alike() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let dir = app.state().directory();
    let classy = dir
        .companies()
        .iter()
        .flat_map(|c| c.row.tickers.iter().map(move |t| (c, t)))
        .find(|(_, t)| t.contains('-'))
        .map(|(c, t)| (c.row.cik.clone(), t.clone()))
        .expect("a share-class ticker in the data");
    let (cik, ticker) = classy;
    let (base, class) = ticker.split_once('-').expect("dash");
    let mut seen = Vec::new();
    for spelling in
        [ticker.clone(), format!("{base}.{class}"), format!("{}/{}", base.to_lowercase(), class.to_lowercase())]
    {
        let res = enrich(&app, &format!("ticker={}", urlencode(&spelling)), Some(&key)).await;
        let status = res.status().as_u16();
        assert!(status == 200 || status == 404, "{spelling}: {status}");
        let body: serde_json::Value = res.json().await.expect("json");
        seen.push((status, body["company"]["slug"].clone(), body["error"].clone()));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{cik} {seen:?}");
    assert_ne!(seen[0].2, "not_found", "{ticker} must be known");
    app.stop().await;
}

#[tokio::test]
async fn the_rate_limit_sets_headers_and_answers_429_with_retry_after() {
    let app = spawn_app_with(|l| l.enrich_rate_limit = Some(3)).await;
    let (key, _) = app.api_key("acme").await;
    let t = format!("ticker={}", ticker_of(&with_page_and_domain(&app)));
    for remaining in [2, 1, 0] {
        let res = enrich(&app, &t, Some(&key)).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["x-ratelimit-limit"], "3");
        assert_eq!(res.headers()["x-ratelimit-remaining"], remaining.to_string().as_str());
        assert!(res.headers()["x-ratelimit-reset"].to_str().expect("reset").parse::<u64>().is_ok());
    }
    let res = enrich(&app, &t, Some(&key)).await;
    let retry: u64 = res.headers()["retry-after"].to_str().expect("retry-after").parse().expect("seconds");
    assert!((1..=60).contains(&retry));
    assert_envelope(res, 429, "rate_limited").await;
    let (other, _) = app.api_key("acme").await;
    assert_eq!(enrich(&app, &t, Some(&other)).await.status(), 200, "limits are per key");
    app.stop().await;
}

#[tokio::test]
async fn concurrent_requests_all_succeed_and_are_counted() {
    let app = spawn_app().await;
    let (key, id) = app.api_key("acme").await;
    let t = format!("ticker={}", ticker_of(&with_page_and_domain(&app)));
    let requests = (0..50).map(|_| enrich(&app, &t, Some(&key)));
    let statuses: Vec<u16> =
        futures_util::future::join_all(requests).await.iter().map(|r| r.status().as_u16()).collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    let keys = app.state().api_keys().list().await.expect("list");
    let mine = keys.iter().find(|k| k.id == id).expect("key");
    assert_eq!(mine.requests, 50);
    assert!(mine.last_used_at.is_some());
    let by_day = app.state().api_keys().usage_by_day(&id).await.expect("usage");
    assert_eq!(by_day.iter().map(|(_, n)| n).sum::<u64>(), 50);
    app.stop().await;
}

/// 2026-07-01T12:00:00Z.
const JULY_FIRST_2026: u64 = 1_782_907_200;

#[tokio::test]
async fn max_age_days_keeps_only_signals_that_young_and_age_days_counts_on_the_request_day() {
    let app = spawn_app_with_clock(Arc::new(ManualClock::at(JULY_FIRST_2026)), |_| {}).await;
    let (key, _) = app.api_key("acme").await;
    // The company with the most recent signal of all: its youngest signal sets the bound.
    let companies = app.state().directory().companies();
    let company = companies
        .iter()
        .filter(|c| c.card().is_some())
        .max_by_key(|c| c.card().and_then(|card| card.why_now.first()).map(|s| s.value().as_of.clone()));
    let company = company.cloned().expect("a company with a card");
    let card = company.card().expect("card");
    let youngest = card.why_now.iter().map(|s| s.value().as_of.clone()).max().expect("a signal");
    let july = chrono::NaiveDate::from_ymd_opt(2026, 7, 1).expect("date");
    let days = (july - chrono::NaiveDate::parse_from_str(&youngest, "%Y-%m-%d").expect("as_of")).num_days().max(0);
    let ticker = ticker_of(&company);

    let body: serde_json::Value =
        enrich(&app, &format!("ticker={ticker}"), Some(&key)).await.json().await.expect("json");
    let as_of = body["signal"]["as_of"].as_str().expect("as_of");
    let age = (july - chrono::NaiveDate::parse_from_str(as_of, "%Y-%m-%d").expect("date")).num_days().max(0);
    assert_eq!(body["signal"]["age_days"].as_i64(), Some(age), "{body}");
    for k in ["filed", "fresh", "kind", "text", "receipt", "score"] {
        assert!(body["signal"].get(k).is_some(), "{k} in {body}");
    }

    let within = enrich(&app, &format!("ticker={ticker}&max_age_days={days}"), Some(&key)).await;
    assert_eq!(within.status(), 200);
    let within: serde_json::Value = within.json().await.expect("json");
    assert_eq!(within["signal"]["age_days"].as_i64(), Some(days), "only the youngest is that young: {within}");
    if days > 0 {
        let res = enrich(&app, &format!("ticker={ticker}&max_age_days={}", days - 1), Some(&key)).await;
        let body = assert_envelope(res, 404, "no_signal").await;
        assert!(body["message"].as_str().is_some_and(|m| m.contains(&format!("{} days", days - 1))), "{body}");
    }
    for bad in ["abc", "-1", "1.5", "99999999999"] {
        let res = enrich(&app, &format!("ticker={ticker}&max_age_days={bad}"), Some(&key)).await;
        assert_envelope(res, 400, "bad_request").await;
    }
    app.stop().await;
}
