//! The workspace rate limits: both scopes, the headers on every response, the 429 envelope
//! with Retry-After, the window reset (driven by an injected clock), concurrency, and the
//! exempt health check.

use std::sync::Arc;

use gtms::clock::ManualClock;
use gtms::domain::Role;

use crate::envelope::assert_envelope;
use crate::helpers::{Binary, TestApp, spawn_app, spawn_app_with, spawn_app_with_clock};

async fn bad_login(app: &TestApp) -> reqwest::Response {
    let body = serde_json::json!({ "inviteCode": "wrong" });
    app.client.post(app.url("/auth/login")).json(&body).send().await.expect("login")
}

fn header(res: &reqwest::Response, name: &str) -> u64 {
    res.headers()[name].to_str().expect("header").parse().expect("number")
}

#[tokio::test]
async fn auth_routes_allow_ten_per_ip_then_429_with_headers() {
    let app = spawn_app().await;
    for i in 0..10u64 {
        let res = bad_login(&app).await;
        assert_eq!(res.status(), 401);
        assert_eq!(header(&res, "x-ratelimit-limit"), 10);
        assert_eq!(header(&res, "x-ratelimit-remaining"), 9 - i);
        assert!(header(&res, "x-ratelimit-reset") > chrono::Utc::now().timestamp() as u64);
    }
    let res = bad_login(&app).await;
    assert!(header(&res, "retry-after") >= 1);
    assert_eq!(header(&res, "x-ratelimit-remaining"), 0);
    assert_envelope(res, 429, "rate_limited").await;
    let res = app.client.post(app.url("/auth/logout")).send().await.expect("logout");
    assert_eq!(res.status(), 429, "the limit covers every /auth route of the IP");
    app.stop().await;
}

#[tokio::test]
async fn fifty_simultaneous_bad_logins_get_exactly_ten_401s() {
    let app = spawn_app().await;
    let results = futures_util::future::join_all((0..50).map(|_| bad_login(&app))).await;
    let count = |s: u16| results.iter().filter(|r| r.status().as_u16() == s).count();
    assert_eq!((count(401), count(429)), (10, 40));
    app.stop().await;
}

#[tokio::test]
async fn api_routes_count_per_user_after_login_and_per_ip_before() {
    let app = spawn_app_with(|l| {
        l.api_rate_limit = Some(3);
        l.auth_rate_limit = Some(100);
    })
    .await;
    let (alice, bob) = (app.token(Role::Viewer).await, app.token(Role::Viewer).await);
    let get = |token: Option<String>| {
        let mut req = app.client.get(app.url("/api/config"));
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        req.send()
    };
    for remaining in [2, 1, 0] {
        let res = get(Some(alice.clone())).await.expect("get");
        assert_eq!(res.status(), 200);
        assert_eq!(header(&res, "x-ratelimit-remaining"), remaining);
    }
    assert_envelope(get(Some(alice.clone())).await.expect("get"), 429, "rate_limited").await;
    assert_eq!(get(Some(bob)).await.expect("get").status(), 200, "another user has their own window");
    let anonymous = get(None).await.expect("get");
    assert_eq!(anonymous.status(), 401);
    assert_eq!(header(&anonymous, "x-ratelimit-limit"), 3, "401s carry the headers too");
    let unknown = app.client.get(app.url("/api/nope")).send().await.expect("get");
    assert!(unknown.headers().contains_key("x-ratelimit-remaining"), "so do 404s under /api");
    app.stop().await;
}

#[tokio::test]
async fn health_is_never_limited() {
    let app = spawn_app_with(|l| l.api_rate_limit = Some(1)).await;
    for _ in 0..5 {
        let res = app.get("/api/health").await;
        assert_eq!(res.status(), 200);
        assert!(!res.headers().contains_key("x-ratelimit-limit"));
    }
    app.stop().await;
}

#[tokio::test]
async fn a_window_resets_when_the_clock_passes_its_end() {
    let clock = Arc::new(ManualClock::at(1_799_999_990));
    let app = spawn_app_with_clock(clock.clone(), |l| {
        l.auth_rate_limit = Some(2);
        l.rate_limit_window_secs = Some(60);
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(bad_login(&app).await.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 429]);
    let refused = bad_login(&app).await;
    assert_eq!(header(&refused, "x-ratelimit-reset"), 1_800_000_000);
    clock.set(header(&refused, "x-ratelimit-reset") - 1);
    assert_eq!(bad_login(&app).await.status(), 429, "still the same window");
    clock.advance(1);
    let fresh = bad_login(&app).await;
    assert_eq!(fresh.status(), 401, "a new window starts fresh");
    assert_eq!(header(&fresh, "x-ratelimit-remaining"), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_trusted_proxy_forwards_the_client_ip() {
    let app = spawn_app_with(|l| {
        l.auth_rate_limit = Some(1);
        l.trusted_proxies = Some(vec!["127.0.0.1".into()]);
    })
    .await;
    let from = |ip: &'static str| {
        let body = serde_json::json!({ "inviteCode": "wrong" });
        app.client.post(app.url("/auth/login")).header("x-forwarded-for", ip).json(&body).send()
    };
    assert_eq!(from("203.0.113.1").await.expect("send").status(), 401);
    assert_eq!(from("203.0.113.1").await.expect("send").status(), 429);
    assert_eq!(from("203.0.113.2").await.expect("send").status(), 401, "another client behind the proxy");
    app.stop().await;
}

#[tokio::test]
async fn the_cleanup_job_drops_windows_that_ended_on_the_injected_clock() {
    let clock = Arc::new(ManualClock::at(1_799_999_990));
    let app = spawn_app_with_clock(clock.clone(), |l| {
        l.auth_rate_limit = Some(2);
        l.rate_limit_window_secs = Some(60);
    })
    .await;
    assert_eq!(bad_login(&app).await.status(), 401);
    let cleanup = gtms::jobs::standard(app.state()).into_iter().find(|j| j.name == "cleanup").expect("cleanup job");
    let summary = (cleanup.run)().await.expect("cleanup runs");
    assert!(summary.starts_with("0 expired rate-limit windows"), "the window is current: {summary}");

    clock.advance(10);
    let summary = (cleanup.run)().await.expect("cleanup runs");
    assert!(summary.starts_with("1 expired rate-limit windows"), "the clock passed its end: {summary}");
    assert!(gtms::jobs::run_once(app.state().store(), &cleanup).await.ok, "and the recorded run is clean");
    app.stop().await;
}

fn two_per_minute(l: &mut gtms::config::Layer) {
    l.auth_rate_limit = Some(2);
    l.rate_limit_window_secs = Some(60);
}

#[tokio::test]
async fn saved_windows_are_restored_until_the_clock_passes_their_end() {
    let clock = Arc::new(ManualClock::at(1_799_999_990));
    let app = spawn_app_with_clock(clock.clone(), two_per_minute).await;
    for _ in 0..2 {
        assert_eq!(bad_login(&app).await.status(), 401);
    }
    let save = gtms::jobs::standard(app.state()).into_iter().find(|j| j.name == "rate-limit-save").expect("job");
    assert!(gtms::jobs::run_once(app.state().store(), &save).await.ok);
    drop(save); // a job spec holds the store it captured
    let saved = app.state().store().rate_windows().await.expect("read");
    let auth = saved.iter().find(|(name, _)| name == "auth").map(|(_, r)| r.clone()).expect("auth saved");
    assert_eq!((auth.window_secs, auth.counts.len(), auth.counts[0].count), (60, 1, 2), "{auth:?}");

    let app = app.restart_with_clock(clock.clone(), two_per_minute).await;
    let refused = bad_login(&app).await;
    assert_eq!(refused.status(), 429, "the window survived the restart");
    assert_eq!((header(&refused, "x-ratelimit-reset"), header(&refused, "retry-after")), (1_800_000_000, 10));

    clock.set(1_800_000_000);
    let app = app.restart_with_clock(clock.clone(), two_per_minute).await;
    let fresh = bad_login(&app).await;
    assert_eq!(fresh.status(), 401, "a window past its end is not restored");
    assert_eq!(header(&fresh, "x-ratelimit-remaining"), 1);
    app.stop().await;
}

#[tokio::test]
async fn an_exhausted_auth_window_survives_sigterm_and_a_restart_of_the_binary() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    // A window of 10^9 s (it ends in 2033) so the test never straddles a window's end.
    let env = [("GTMS_AUTH_RATE_LIMIT", "3"), ("GTMS_RATE_LIMIT_WINDOW_SECS", "1000000000")];
    let client = reqwest::Client::new();
    let login = |base: String| {
        let body = serde_json::json!({ "inviteCode": "wrong" });
        client.post(format!("{base}/auth/login")).json(&body).send()
    };
    let first = Binary::serve_with_env(&data, &[], &env);
    for _ in 0..3 {
        assert_eq!(login(first.base.clone()).await.expect("login").status(), 401);
    }
    let before = login(first.base.clone()).await.expect("login");
    assert_eq!(before.status(), 429);
    let (code, log) = first.terminate();
    assert_eq!(code, Some(0), "{log}");

    let second = Binary::serve_with_env(&data, &[], &env);
    let after = login(second.base.clone()).await.expect("login");
    assert_eq!(after.status(), 429, "still limited after the restart: {}", second.log());
    assert_eq!(header(&after, "x-ratelimit-reset"), header(&before, "x-ratelimit-reset"));
    let (retry_before, retry_after) = (header(&before, "retry-after"), header(&after, "retry-after"));
    assert!(retry_after <= retry_before && retry_before - retry_after < 60, "{retry_before} then {retry_after}");
    let now = chrono::Utc::now().timestamp() as u64;
    assert!(header(&after, "x-ratelimit-reset").abs_diff(now + retry_after) <= 1, "Retry-After matches the reset");
    assert!(second.log().contains("rate-limit windows restored"), "{}", second.log());
}
