//! `GET /metrics`: who may scrape, and what the exposition says after real traffic, read with
//! a small parser of the text format. The recorder is process-wide and the tests of this
//! binary share it, so counts are checked as lower bounds.

use std::collections::BTreeMap;

use gtms::domain::Role;
use serde_json::json;

use crate::helpers::{TestApp, spawn_app_with};

const TOKEN: &str = "scrape-token-0123456789";

/// One sample line: name, labels, value.
#[derive(Debug, Clone)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Parses the text exposition format (comments skipped; label values unescaped).
fn parse(text: &str) -> Vec<Sample> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let (series, value) = line.rsplit_once(' ').unwrap_or_else(|| panic!("no value in {line:?}"));
        let value: f64 = match value {
            "+Inf" => f64::INFINITY,
            v => v.parse().unwrap_or_else(|_| panic!("bad value in {line:?}")),
        };
        let (name, labels) = match series.split_once('{') {
            None => (series.to_owned(), BTreeMap::new()),
            Some((name, rest)) => (name.to_owned(), parse_labels(rest.strip_suffix('}').expect("closing brace"))),
        };
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'), "bad name {name:?}");
        out.push(Sample { name, labels, value });
    }
    out
}

fn parse_labels(mut rest: &str) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::new();
    while !rest.is_empty() {
        let (key, after) = rest.split_once("=\"").expect("label =\"");
        let mut value = String::new();
        let mut chars = after.char_indices();
        let end = loop {
            match chars.next().expect("closing quote") {
                (_, '\\') => match chars.next().expect("escape").1 {
                    'n' => value.push('\n'),
                    c => value.push(c),
                },
                (i, '"') => break i,
                (_, c) => value.push(c),
            }
        };
        labels.insert(key.trim_start_matches(',').to_owned(), value);
        rest = after[end + 1..].trim_start_matches(',');
    }
    labels
}

fn find<'a>(samples: &'a [Sample], name: &str, labels: &[(&str, &str)]) -> Vec<&'a Sample> {
    samples
        .iter()
        .filter(|s| s.name == name && labels.iter().all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v)))
        .collect()
}

async fn scrape(app: &TestApp, bearer: Option<&str>) -> reqwest::Response {
    let mut req = app.client.get(app.url("/metrics"));
    if let Some(token) = bearer {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    req.send().await.expect("scrape")
}

async fn scrape_samples(app: &TestApp) -> Vec<Sample> {
    let res = scrape(app, Some(TOKEN)).await;
    assert_eq!(res.status(), 200);
    parse(&res.text().await.expect("text"))
}

async fn app() -> TestApp {
    spawn_app_with(|l| l.metrics_token = Some(gtms::config::Secret::new(TOKEN))).await
}

async fn assert_envelope(res: reqwest::Response, status: u16) {
    assert_eq!(res.status().as_u16(), status);
    assert_eq!(res.headers()["content-type"], "application/json");
    let body: serde_json::Value = res.json().await.expect("envelope");
    assert_eq!(body["status"], status);
    assert!(body["error"].is_string() && body["message"].is_string(), "{body}");
}

#[tokio::test]
async fn scraping_needs_an_admin_token_or_the_metrics_token() {
    let app = app().await;
    assert_envelope(scrape(&app, None).await, 401).await;
    assert_envelope(scrape(&app, Some("scrape-token-wrong-value")).await, 401).await;
    let viewer = app.token(Role::Viewer).await;
    assert_envelope(scrape(&app, Some(&viewer)).await, 403).await;
    let admin = app.token(Role::Admin).await;
    for credential in [admin.as_str(), TOKEN] {
        let res = scrape(&app, Some(credential)).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "text/plain; version=0.0.4; charset=utf-8");
    }
    let cookie = app
        .client
        .get(app.url("/metrics"))
        .header("cookie", format!("gtms_session={admin}"))
        .send()
        .await
        .expect("cookie scrape");
    assert_eq!(cookie.status(), 200, "the session cookie of an admin works too");
    let config = app.authed(reqwest::Method::GET, "/api/config", &admin).send().await.expect("config");
    assert!(!config.text().await.expect("text").contains(TOKEN), "/api/config never shows the metrics token");
    app.stop().await;
}

#[tokio::test]
async fn requests_are_counted_by_route_pattern_and_status_never_by_raw_path() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let raw_ids = ["deal-7f3a9c", "deal-8b4d0e", "deal-9c5e1f"];
    for id in raw_ids {
        let res = app.authed(reqwest::Method::GET, &format!("/api/deals/{id}"), &admin).send().await.expect("get");
        assert_eq!(res.status(), 404);
    }
    assert_eq!(app.get("/company/data/apple.json").await.status(), 200);
    assert_eq!(app.get("/no/such/route-4d2a").await.status(), 404);

    let samples = scrape_samples(&app).await;
    let deal_404 = find(
        &samples,
        "gtms_http_requests_total",
        &[("route", "/api/deals/{id}"), ("method", "GET"), ("status", "404")],
    );
    assert!(deal_404.iter().map(|s| s.value).sum::<f64>() >= 3.0, "{deal_404:?}");
    let card = find(&samples, "gtms_http_requests_total", &[("route", "/company/data/{slug}.json"), ("status", "200")]);
    assert!(card.iter().map(|s| s.value).sum::<f64>() >= 1.0);
    assert!(!find(&samples, "gtms_http_requests_total", &[("route", "unmatched"), ("status", "404")]).is_empty());
    for sample in &samples {
        for value in sample.labels.values() {
            assert!(
                !raw_ids.iter().any(|id| value.contains(id)) && !value.contains("apple") && !value.contains("4d2a"),
                "a raw path reached a label: {sample:?}"
            );
        }
    }
    for name in ["gtms_data_file_bytes", "gtms_process_resident_memory_bytes"] {
        assert!(find(&samples, name, &[]).first().is_some_and(|s| s.value > 0.0), "{name}");
    }
    assert!(!find(&samples, "gtms_uptime_seconds", &[]).is_empty());
    app.stop().await;
}

#[tokio::test]
async fn latency_histograms_have_cumulative_buckets_ending_in_the_count() {
    let app = app().await;
    for _ in 0..3 {
        assert_eq!(app.get("/api/health").await.status(), 200);
    }
    let samples = scrape_samples(&app).await;
    let route = [("route", "/api/health")];
    let mut buckets: Vec<(f64, f64)> = find(&samples, "gtms_http_request_duration_seconds_bucket", &route)
        .iter()
        .map(|s| {
            let le = s.labels["le"].as_str();
            (if le == "+Inf" { f64::INFINITY } else { le.parse().expect("le") }, s.value)
        })
        .collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(buckets.len() >= 10, "{buckets:?}");
    assert!(buckets.windows(2).all(|w| w[0].1 <= w[1].1), "buckets are cumulative: {buckets:?}");
    let count = find(&samples, "gtms_http_request_duration_seconds_count", &route)[0].value;
    assert_eq!(buckets.last().map(|b| b.1), Some(count), "+Inf equals the count");
    assert!(count >= 3.0);
    assert!(find(&samples, "gtms_http_request_duration_seconds_sum", &route)[0].value > 0.0);
    app.stop().await;
}

#[tokio::test]
async fn enrich_tool_job_and_model_events_are_counted() {
    let app = app().await;
    let (key, _) = app.api_key("promtenant").await;
    let res = app.authed(reqwest::Method::GET, "/v1/enrich?ticker=AAPL", &key).send().await.expect("enrich");
    assert_eq!(res.status(), 200);
    let res = app.authed(reqwest::Method::GET, "/v1/enrich?ticker=ZZZZZ", &key).send().await.expect("enrich");
    assert_eq!(res.status(), 404);
    let session = crate::mcp::RawSession::open(&app.base, &key).await;
    let answer = session.call(1, "company_get", json!({ "slug": "apple" })).await;
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let admin = app.token(Role::Admin).await;
    let chat = app
        .authed(reqwest::Method::POST, "/api/brain/chat", &admin)
        .json(&json!({ "message": "What is the pipeline worth?" }))
        .send()
        .await
        .expect("chat");
    assert_eq!(chat.status(), 200);

    let samples = scrape_samples(&app).await;
    let enrich = |outcome| find(&samples, "gtms_enrich_calls_total", &[("tenant", "promtenant"), ("outcome", outcome)]);
    assert_eq!(enrich("ok").first().map(|s| s.value), Some(1.0));
    assert_eq!(enrich("not_found").first().map(|s| s.value), Some(1.0));
    let tools = find(&samples, "gtms_mcp_tool_calls_total", &[("tool", "company_get"), ("outcome", "ok")]);
    assert!(tools.first().is_some_and(|s| s.value >= 1.0));
    let jobs = find(&samples, "gtms_job_runs_total", &[("job", "metrics-rollup"), ("outcome", "ok")]);
    assert!(jobs.first().is_some_and(|s| s.value >= 1.0), "the start-up rollup is a job run");
    let input = find(&samples, "gtms_model_tokens_total", &[("kind", "user"), ("direction", "input")]);
    assert!(input.iter().map(|s| s.value).sum::<f64>() > 0.0, "{input:?}");
    assert!(!find(&samples, "gtms_model_cost_usd_micros_total", &[("kind", "user")]).is_empty());
    app.stop().await;
}

#[test]
fn the_parser_reads_labels_with_escapes() {
    let samples = parse("# HELP x y\nx_total{a=\"b\\\"c\",le=\"+Inf\"} 3\nup 1\n");
    assert_eq!(samples.len(), 2);
    assert_eq!(samples[0].labels["a"], "b\"c");
    assert_eq!(samples[0].labels["le"], "+Inf");
    assert_eq!(samples[1].value, 1.0);
}
