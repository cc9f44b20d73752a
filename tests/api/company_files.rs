//! The keyless company files: every route, content types, ETag/304, encodings, HEAD, and
//! 404s for unknown or malformed slugs and path tricks.

use std::io::Read;

use sha2::Digest as _;

use crate::envelope::assert_envelope;
use crate::helpers::{TestApp, spawn_app};

/// A client that does not decompress, so encodings can be checked byte for byte.
fn raw_client() -> reqwest::Client {
    reqwest::Client::builder().no_gzip().no_brotli().build().expect("client")
}

async fn some_slug(app: &TestApp) -> String {
    let index: serde_json::Value = app.get("/company/data/index.json").await.json().await.expect("index");
    index["companies"][0]["slug"].as_str().expect("a company with a page").to_owned()
}

#[tokio::test]
async fn every_keyless_route_answers_without_a_key_with_its_content_type() {
    let app = spawn_app().await;
    let slug = some_slug(&app).await;
    let card = format!("/company/data/{slug}.json");
    let routes = [
        ("/company/data/index.json", "application/json"),
        (card.as_str(), "application/json"),
        ("/company/search-index.json", "application/json"),
        ("/company/quotes.json", "application/json"),
        ("/company/_slugmap.json", "application/json"),
        ("/company/llms.txt", "text/plain; charset=utf-8"),
        ("/llms.txt", "text/plain; charset=utf-8"),
        ("/sitemap.xml", "application/xml"),
    ];
    for (path, content_type) in routes {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(res.headers()["content-type"], content_type, "{path}");
        assert_eq!(res.headers()["cache-control"], "public, max-age=3600", "{path}");
        assert!(res.headers().contains_key("etag"), "{path}");
        assert!(res.headers().contains_key("x-request-id"), "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn index_carries_counts_and_hubs_and_cards_follow_the_design_shape() {
    let app = spawn_app().await;
    let index: serde_json::Value = app.get("/company/data/index.json").await.json().await.expect("json");
    let with_page = index["with_page"].as_u64().expect("with_page");
    assert!(index["tracked"].as_u64().expect("tracked") >= with_page);
    assert_eq!(index["companies"].as_array().map(Vec::len), Some(with_page as usize));
    let hub_total: u64 =
        index["letters"].as_array().expect("letters").iter().map(|l| l["count"].as_u64().unwrap_or(0)).sum();
    assert_eq!(hub_total, with_page);
    assert!(index["sectors"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(index["generated_at"].as_str().is_some_and(|d| d.len() == 10));

    let slug = some_slug(&app).await;
    let card: serde_json::Value = app.get(&format!("/company/data/{slug}.json")).await.json().await.expect("card");
    for key in [
        "account_id",
        "slug",
        "legal_name",
        "ticker",
        "cik",
        "exchange",
        "sector",
        "domain",
        "family",
        "as_of",
        "fresh_signals",
        "freshness",
        "why_now",
        "executives",
        "mcp_package_hint",
    ] {
        assert!(card.get(key).is_some(), "card lacks {key}");
    }
    let claims = ["why_now", "executives"].iter().map(|k| card[k].as_array().map_or(0, Vec::len)).sum::<usize>()
        + card["family"]["subsidiaries"].as_array().map_or(0, Vec::len);
    assert!(claims > 0, "a card exists only with a receipted claim (a signal, an executive or a subsidiary)");
    assert_eq!(card["mcp_package_hint"]["tool"], "company_get");
    assert_eq!(card["mcp_package_hint"]["arguments"]["slug"], slug);

    let built = index["generated_at"].as_str().expect("generated_at").to_owned();
    let mut fresh_cards = 0;
    for company in index["companies"].as_array().expect("companies") {
        let slug = company["slug"].as_str().expect("slug");
        let card: serde_json::Value = app.get(&format!("/company/data/{slug}.json")).await.json().await.expect("card");
        fresh_cards += usize::from(dated_as_the_design_says(&card, &built) > 0);
    }
    eprintln!("{fresh_cards} cards have a fresh signal (data built {built})");
    app.stop().await;
}

fn day(text: &str) -> chrono::NaiveDate {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap_or_else(|_| panic!("a date: {text:?}"))
}

/// Checks a card's dates (docs/company-data.md, "Freshness"); returns its fresh signals.
fn dated_as_the_design_says(card: &serde_json::Value, built: &str) -> usize {
    let slug = card["slug"].as_str().unwrap_or_default();
    let why_now = card["why_now"].as_array().expect("why_now");
    let text =
        |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or_else(|| panic!("{slug}: {k} in {v}")).to_owned();
    let mut fresh = 0;
    for signal in why_now {
        let (filed, as_of) = (text(signal, "filed"), text(signal, "as_of"));
        assert_eq!(filed, text(&signal["receipt"], "filed"), "{slug}: a signal's filed is its receipt's");
        match signal["event_date"].as_str() {
            None => assert_eq!(as_of, filed, "{slug}: no event date, the filing date"),
            Some(event) => {
                let first = match event.len() {
                    4 => format!("{event}-01-01"),
                    7 => format!("{event}-01"),
                    _ => event.to_owned(),
                };
                assert_eq!(as_of, first, "{slug}: the event date's first day");
                let year: i32 = event[..4].parse().expect("year");
                assert!(
                    year >= 1990 && day(&as_of) <= day(&filed) + chrono::Duration::days(5 * 366),
                    "{slug}: {event}"
                );
            }
        }
        let is_fresh = (day(built) - day(&as_of)).num_days() <= 365;
        assert_eq!(signal["fresh"].as_bool(), Some(is_fresh), "{slug}: {signal}");
        fresh += usize::from(is_fresh);
    }
    let as_ofs: Vec<String> = why_now.iter().map(|s| text(s, "as_of")).collect();
    assert!(as_ofs.windows(2).all(|w| w[0] >= w[1]), "{slug}: most recent first: {as_ofs:?}");
    assert_eq!(card["fresh_signals"].as_u64(), Some(fresh as u64), "{slug}");
    let freshness = text(card, "freshness");
    let expected = match (why_now.is_empty(), fresh) {
        (true, _) => "No signal: ",
        (false, 0) => "No signal is fresh",
        _ => "",
    };
    assert!(
        freshness.starts_with(expected) && (expected.is_empty() != freshness.starts_with("No signal")),
        "{slug}: {freshness}"
    );
    let filed = why_now.iter().chain(card["executives"].as_array().expect("executives"));
    let newest =
        filed.chain(card["family"]["subsidiaries"].as_array().expect("family")).map(|c| text(&c["receipt"], "filed"));
    assert_eq!(Some(text(card, "as_of")), newest.max(), "{slug}: as_of is the newest filing behind the card");
    fresh
}

#[tokio::test]
async fn etags_answer_if_none_match_with_304() {
    let app = spawn_app().await;
    let client = raw_client();
    let url = app.url("/company/data/index.json");
    let first = client.get(&url).send().await.expect("get");
    let etag = first.headers()["etag"].to_str().expect("etag").to_owned();
    // A content hash: the first 16 bytes of the SHA-256 of the embedded brotli bytes (from the
    // build; brotli is deterministic, so it changes exactly when the content does).
    let gz = client.get(&url).header("accept-encoding", "gzip").send().await.expect("gzip get");
    assert_eq!(gz.headers()["etag"].to_str().ok(), Some(format!("{}-gz\"", etag.trim_end_matches('"')).as_str()));
    let br = client.get(&url).header("accept-encoding", "br").send().await.expect("brotli get");
    assert_eq!(br.headers()["etag"].to_str().ok(), Some(format!("{}-br\"", etag.trim_end_matches('"')).as_str()));
    let digest = sha2::Sha256::digest(br.bytes().await.expect("brotli body"));
    assert_eq!(etag, format!("\"{}\"", hex::encode(&digest[..16])));

    let again = client.get(&url).header("if-none-match", &etag).send().await.expect("conditional get");

    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().ok(), Some(etag.as_str()));
    assert!(again.bytes().await.expect("body").is_empty());
    let stale = client.get(&url).header("if-none-match", "\"other\"").send().await.expect("get");
    assert_eq!(stale.status(), 200);
    app.stop().await;
}

#[tokio::test]
async fn accept_encoding_picks_brotli_then_gzip_then_identity_with_the_same_content() {
    let app = spawn_app().await;
    let client = raw_client();
    let url = app.url("/company/data/index.json");
    let identity = client.get(&url).send().await.expect("get");
    assert!(identity.headers().get("content-encoding").is_none());
    assert_eq!(identity.headers()["vary"], "Accept-Encoding");
    let plain = identity.bytes().await.expect("body").to_vec();

    let br = client.get(&url).header("accept-encoding", "gzip, br").send().await.expect("get");
    assert_eq!(br.headers()["content-encoding"], "br");
    let mut decoded = Vec::new();
    brotli::Decompressor::new(&br.bytes().await.expect("body")[..], 4096).read_to_end(&mut decoded).expect("brotli");
    assert_eq!(decoded, plain);

    let gz = client.get(&url).header("accept-encoding", "gzip").send().await.expect("get");
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&gz.bytes().await.expect("body")[..]).read_to_end(&mut decoded).expect("gzip");
    assert_eq!(decoded, plain);
    app.stop().await;
}

#[tokio::test]
async fn head_gives_headers_without_a_body() {
    let app = spawn_app().await;
    let res = raw_client().head(app.url("/company/quotes.json")).send().await.expect("head");
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert!(res.bytes().await.expect("body").is_empty());
    app.stop().await;
}

#[tokio::test]
async fn unknown_and_malformed_slugs_and_path_tricks_are_404_envelopes() {
    let app = spawn_app().await;
    let long = format!("/company/data/{}.json", "a".repeat(81));
    let paths = [
        "/company/data/no-such-company-here.json",
        "/company/data/Apple.json",
        "/company/data/a--b.json",
        "/company/data/../../Cargo.toml",
        "/company/data/..%2f..%2fCargo.toml",
        "/company/data/%2e%2e/index.json",
        "/company/%2fetc%2fpasswd",
        "/company/data/%C3%A9.json",
        "/company/data/index.json.gz",
        "/company/data/index.json.br",
        "/company/data/",
        long.as_str(),
    ];
    for path in paths {
        let res = app.client.get(app.url(path)).send().await.expect("get");
        let body = assert_envelope(res, 404, "not_found").await;
        assert!(!body.to_string().contains("[package]"), "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn writes_to_company_files_are_405() {
    let app = spawn_app().await;
    let res = app.client.post(app.url("/company/data/index.json")).send().await.expect("post");
    assert_eq!(res.headers()["allow"], "GET, HEAD");
    assert_envelope(res, 405, "method_not_allowed").await;
    app.stop().await;
}
