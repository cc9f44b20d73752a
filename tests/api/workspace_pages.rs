//! `/api/config` (never a secret) and the `/status` dashboard, rendered in headless Chromium.

use std::process::Command;

use gtms::config::Secret;
use gtms::domain::Role;

use crate::helpers::{spawn_app, spawn_app_with};

const JWT_SECRET: &str = "a-very-secret-jwt-signing-key-0123456789";

#[tokio::test]
async fn client_config_shows_mode_version_ws_and_features_but_no_secret() {
    let app = spawn_app_with(|l| {
        l.jwt_secret = Some(Secret::new(JWT_SECRET));
        l.voice_publishable_key = Some("pk_voice_public".into());
    })
    .await;
    let (code, _) = app.invite(Role::Viewer).await;
    let (key, _) = app.api_key("acme").await;
    let token = app.token(Role::Viewer).await;

    let res = app.client.get(app.url("/api/config")).header("authorization", format!("Bearer {token}")).send().await;
    let text = res.expect("config").text().await.expect("body");

    let body: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(body["mode"], "demo");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert!(body["wsUrl"].as_str().is_some_and(|u| u.starts_with("ws://") && u.ends_with("/ws")));
    assert!(body["features"].as_array().is_some_and(|f| !f.is_empty()));
    assert_eq!(body["voice"]["publishableKey"], "pk_voice_public");
    for secret in [JWT_SECRET, code.as_str(), key.as_str(), token.as_str()] {
        assert!(!text.contains(secret), "/api/config leaked a secret");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_home_page_says_what_this_is_and_links_onward() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/html; charset=utf-8");
    let html = res.text().await.expect("html");
    for link in ["href=\"/status\"", "href=\"/mcp/guide\"", "href=\"/llms.txt\"", "href=\"/api/openapi.json\""] {
        assert!(html.contains(link), "{link}");
    }
    assert!(html.contains("/auth/login") && html.contains("gtms invites create"), "how to sign in");
    assert!(!html.contains("{{"), "every placeholder filled");
    let head = app.client.head(app.url("/")).send().await.expect("head");
    assert_eq!(head.status(), 200);
    app.stop().await;
}

/// Multi-threaded: the browser runs as a blocking child process while the app answers it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_page_renders_in_headless_chromium() {
    let app = spawn_app().await;
    let res = app.get("/status").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/html; charset=utf-8");
    let html = res.text().await.expect("html");
    for external in ["http://", "https://", "//cdn"] {
        assert!(
            !html.contains(&format!("src=\"{external}")) && !html.contains(&format!("href=\"{external}")),
            "external asset"
        );
    }

    let dir = tempfile::tempdir().expect("dir");
    let shot = dir.path().join("status.png");
    let chromium = |extra: &[String]| {
        // `timeout` bounds a browser that never settles; the page itself polls forever.
        Command::new("timeout")
            .args(["60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
            .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
            .arg(format!("--user-data-dir={}", dir.path().join("profile").display()))
            .args(extra)
            .arg(app.url("/status"))
            .output()
            .expect("chromium is installed (.ci/run installs it)")
    };
    let dom = chromium(&["--dump-dom".into()]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    for text in [
        "gtms",
        "healthy",
        "Company coverage",
        "Tracked companies",
        "Workers",
        "Workflows",
        "Approvals",
        "Scheduler jobs",
        "Pipeline",
        "Token spend",
        env!("CARGO_PKG_VERSION"),
    ] {
        assert!(dom.contains(text), "status page lacks {text:?}");
    }
    for text in ["metrics-rollup", "usage-rollup", "cleanup", "Weighted value", "Cost"] {
        assert!(dom.contains(text), "status page lacks {text:?}");
    }
    let tracked = app.state().directory().tracked();
    let grouped = format!("{},{:03}", tracked / 1000, tracked % 1000);
    assert!(tracked >= 1000 && dom.contains(&grouped), "coverage count {grouped} shown");
    let out = chromium(&[format!("--screenshot={}", shot.display()), "--window-size=1280,900".into()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&shot).expect("screenshot written");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 5_000, "a real screenshot");
    app.stop().await;
}
