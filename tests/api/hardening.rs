//! Hostile load at small scale (issue 11): forged keys and bad logins are refused before
//! argon2 runs, argon2 memory stays bounded in the real binary, slow connections are closed,
//! the connection cap keeps health answerable, HEAD answers where GET does, a repeated query
//! parameter is 400, and `/mcp`'s own refusals are envelopes.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::envelope::assert_envelope;
use crate::helpers::{gtms, spawn_app, spawn_app_with};

fn forged(key: &str, n: usize) -> String {
    let (prefix, _) = key.rsplit_once('_').expect("gtms_<id>_<secret>");
    format!("{prefix}_{n:064x}")
}

#[tokio::test]
async fn forged_keys_are_refused_before_argon2_once_the_key_id_used_its_failures() {
    let app = spawn_app_with(|l| {
        l.failed_auth_per_credential = Some(3);
        l.argon2_memory_kib = Some(64);
        l.argon2_iterations = Some(1);
    })
    .await;
    let (key, _) = app.api_key("acme").await;
    let runs = || app.state().hasher().runs();
    let before = runs();
    let mut statuses = Vec::new();
    for n in 0..10 {
        let res = app.authed(reqwest::Method::GET, "/v1/enrich?ticker=AAPL", &forged(&key, n)).send().await;
        let res = res.expect("send");
        if res.status() == 429 {
            assert!(res.headers().contains_key("retry-after") && res.headers().contains_key("x-ratelimit-reset"));
        }
        statuses.push(res.status().as_u16());
    }
    assert_eq!(statuses, [401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    assert_eq!(runs() - before, 3, "only the admitted attempts ran argon2");
    let again = app.authed(reqwest::Method::GET, "/v1/enrich?ticker=AAPL", &forged(&key, 0)).send().await;
    assert_eq!(again.expect("send").status(), 401, "a remembered failure answers without argon2");
    assert_eq!(runs() - before, 3);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_first_uses_of_a_valid_key_run_one_verification() {
    let app = spawn_app_with(|l| l.argon2_memory_kib = Some(64)).await;
    let (key, _) = app.api_key("acme").await;
    let before = app.state().hasher().runs();
    let requests = (0..24).map(|_| app.authed(reqwest::Method::GET, "/v1/enrich?ticker=AAPL", &key).send());
    let results = futures_util::future::join_all(requests).await;
    assert!(results.iter().all(|r| r.as_ref().is_ok_and(|r| r.status() == 200)));
    assert_eq!(app.state().hasher().runs() - before, 1, "single flight per key id");
    app.stop().await;
}

#[tokio::test]
async fn repeated_logins_with_a_bad_code_cost_one_argon2_run() {
    let app = spawn_app_with(|l| {
        l.argon2_memory_kib = Some(64);
        l.auth_rate_limit = Some(100);
    })
    .await;
    let before = app.state().hasher().runs();
    for _ in 0..5 {
        let res = app.client.post(app.url("/auth/login")).json(&json!({ "inviteCode": "inv_nope" })).send().await;
        assert_eq!(res.expect("login").status(), 401);
    }
    assert_eq!(app.state().hasher().runs() - before, 1);
    app.stop().await;
}

#[tokio::test]
async fn head_answers_wherever_get_does() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let token = app.token(gtms::domain::Role::Viewer).await;
    for (path, auth) in [
        ("/api/health", None),
        ("/api/config", Some(&token)),
        ("/api/deals", Some(&token)),
        ("/v1/enrich?ticker=AAPL", Some(&key)),
        ("/company/data/index.json", None),
        ("/mcp/guide", None),
    ] {
        let mut req = app.client.head(app.url(path));
        if let Some(t) = auth {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let res = req.send().await.expect("head");
        assert_eq!(res.status(), 200, "HEAD {path}");
        assert!(res.headers().contains_key("content-type"), "HEAD {path} keeps the headers");
        assert!(res.bytes().await.expect("body").is_empty(), "HEAD {path} has no body");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_repeated_query_parameter_is_400() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let token = app.token(gtms::domain::Role::Viewer).await;
    let res = app.authed(reqwest::Method::GET, "/v1/enrich?ticker=AAPL&ticker=MSFT", &key).send().await;
    assert_envelope(res.expect("send"), 400, "bad_request").await;
    let res = app.authed(reqwest::Method::GET, "/api/deals?stage=proposal&stage=negotiation", &token).send().await;
    assert_envelope(res.expect("send"), 400, "bad_request").await;
    app.stop().await;
}

#[tokio::test]
async fn mcp_transport_refusals_are_envelopes() {
    let app = spawn_app().await;
    let (key, _) = app.api_key("acme").await;
    let post = |accept: &'static str, body: &'static str| {
        app.authed(reqwest::Method::POST, "/mcp", &key)
            .header("accept", accept)
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let both = "application/json, text/event-stream";
    assert_envelope(post(both, "{not json").await.expect("send"), 400, "bad_request").await;
    assert_envelope(post("text/html", "{}").await.expect("send"), 406, "not_acceptable").await;
    let big: &'static str = Box::leak("x".repeat(70 * 1024).into_boxed_str());
    assert_envelope(post(both, big).await.expect("send"), 413, "payload_too_large").await;
    let res = app.authed(reqwest::Method::PUT, "/mcp", &key).send().await.expect("send");
    assert_envelope(res, 405, "method_not_allowed").await;
    app.stop().await;
}

/// Reads until the server closes the connection (or `limit` passes); true when it closed.
fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    stream.set_read_timeout(Some(Duration::from_millis(200))).expect("timeout");
    let mut buf = [0u8; 4096];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

#[tokio::test]
async fn slow_and_idle_connections_are_closed_after_their_timeouts() {
    let app = spawn_app_with(|l| {
        l.header_timeout_secs = Some(1);
        l.idle_timeout_secs = Some(1);
        l.body_timeout_secs = Some(1);
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    tokio::task::spawn_blocking(move || {
        let mut silent = TcpStream::connect(&addr).expect("connect");
        let mut half_line = TcpStream::connect(&addr).expect("connect");
        half_line.write_all(b"GET /api/hea").expect("write");
        let mut half_body = TcpStream::connect(&addr).expect("connect");
        let head =
            "POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{";
        half_body.write_all(head.as_bytes()).expect("write");
        let mut idle = TcpStream::connect(&addr).expect("connect");
        idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").expect("write");
        for (name, stream) in
            [("silent", &mut silent), ("half line", &mut half_line), ("half body", &mut half_body), ("idle", &mut idle)]
        {
            assert!(closed_within(stream, Duration::from_secs(20)), "{name} connection was not closed");
        }
    })
    .await
    .expect("joined");
    app.stop().await;
}

#[tokio::test]
async fn health_answers_while_the_connection_cap_is_reached() {
    let app = spawn_app_with(|l| l.max_connections = Some(3)).await;
    let addr = app.base.trim_start_matches("http://").to_owned();
    let held: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(&addr).expect("connect")).collect();
    // The held connections are counted once the server accepted them: poll until a fresh one is
    // served in reserve mode.
    let deadline = Instant::now() + Duration::from_secs(20);
    let fresh = || reqwest::Client::builder().pool_max_idle_per_host(0).build().expect("client");
    loop {
        let res = fresh().get(app.url("/api/config")).send().await.expect("send");
        if res.status() == 503 {
            assert_envelope(res, 503, "unavailable").await;
            break;
        }
        assert!(Instant::now() < deadline, "the cap never applied");
        tokio::task::yield_now().await;
    }
    let health = fresh().get(app.url("/api/health")).send().await.expect("health");
    assert_eq!(health.status(), 200, "health stays answerable at the cap");
    drop(held);
    app.stop().await;
}

fn vm_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let line = status.lines().find(|l| l.starts_with(field)).expect("field");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("kib")
}

#[tokio::test]
async fn bad_logins_and_forged_keys_keep_the_binary_under_a_memory_ceiling() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("gtms.redb");
    let out = gtms()
        .args(["keys", "create", "--tenant", "acme", "--data"])
        .arg(&data)
        .env("GTMS_ARGON2_MEMORY_KIB", "8192")
        .output()
        .expect("keys create");
    let key =
        String::from_utf8_lossy(&out.stdout).split_whitespace().find(|w| w.starts_with("gtms_")).map(str::to_owned);
    let key = key.expect("a key is printed");
    // argon2 at 8 MiB: the arena pool holds at most cores × 8 MiB however many attempts come.
    let bin = crate::helpers::Binary::serve_with_env(
        &data,
        &[],
        &[
            ("GTMS_ARGON2_MEMORY_KIB", "8192"),
            ("GTMS_TRUSTED_PROXIES", "127.0.0.1"),
            ("GTMS_FAILED_AUTH_PER_CREDENTIAL", "1000"),
            ("GTMS_FAILED_AUTH_PER_IP", "1000"),
        ],
    );
    let pid = bin.child.id();
    let client = reqwest::Client::new();
    let logins = (0..60).map(|i| {
        client
            .post(format!("{}/auth/login", bin.base))
            .header("x-forwarded-for", format!("203.0.113.{}", i % 30))
            .json(&json!({ "inviteCode": format!("inv_{:012x}_{:032x}", i, i) }))
            .send()
    });
    let keys =
        (0..60).map(|i| client.get(format!("{}/v1/enrich?ticker=AAPL", bin.base)).bearer_auth(forged(&key, i)).send());
    let (logins, keys) = tokio::join!(futures_util::future::join_all(logins), futures_util::future::join_all(keys));
    assert!(logins.iter().all(|r| r.as_ref().is_ok_and(|r| [401, 429, 503].contains(&r.status().as_u16()))));
    assert!(keys.iter().all(|r| r.as_ref().is_ok_and(|r| [401, 429, 503].contains(&r.status().as_u16()))));
    let peak_mib = vm_kib(pid, "VmHWM:") / 1024;
    assert!(peak_mib < 200, "peak RSS {peak_mib} MiB");
    let health = client.get(format!("{}/api/health", bin.base)).send().await.expect("health");
    assert_eq!(health.status(), 200);
}
