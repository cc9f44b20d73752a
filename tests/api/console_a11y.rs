//! Accessibility of every console page, checked in real Chromium by axe-core (pinned in
//! `tests/console/package.json`, installed by `tests/deps/install.sh`): each page, signed in
//! as an admin (every write control present) with a workspace that has deals, a waiting
//! approval, memory and company cards, in the light and the dark colour scheme, has no
//! serious or critical violation (WCAG 2.1 A and AA rules, colour contrast included), and none
//! reports an error (an exception, a `console.error`, a style or script the CSP refused).

use gtms::domain::Role;
use serde_json::{Value, json};

use crate::browser::{Page, browser};
use crate::workflows::{app, start, wait_for};

/// The axe-core build the tests inject (its bytes, read once per test).
pub fn axe_source() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/console/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (tests/deps/install.sh installs it)", path.display()))
}

/// The serious and critical violations on the open page: "rule: target, …" per violation.
const RUN_AXE: &str = r#"axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
  .then(r => r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
  .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", ")))"#;

/// Runs axe on the open page in both colour schemes; adds what it finds to `found`.
pub async fn check(page: &mut Page, axe: &str, path: &str, found: &mut Vec<String>) {
    for dark in [false, true] {
        page.prefer_dark(dark).await;
        page.eval(axe).await;
        let scheme = if dark { "dark" } else { "light" };
        for v in page.eval_async(RUN_AXE).await.as_array().into_iter().flatten() {
            found.push(format!("{path} ({scheme}): {}", v.as_str().unwrap_or_default()));
        }
    }
}

#[tokio::test]
async fn every_console_page_passes_axe_in_light_and_dark() {
    let app = app().await;
    let (code, _) = app.invite(Role::Admin).await;
    let api = app.token(Role::Admin).await;
    let approval = start(
        &app,
        &api,
        "support-resolver",
        "ticket-resolution",
        json!({"ticketId": "T-1", "subject": "SSO login fails", "priority": "high"}),
    )
    .await;
    wait_for(&app, &api, &approval, |w| w["status"] == "waiting").await;
    let memory = json!({"scope": "org", "key": "icp", "value": "Mid-market banks in the US"});
    let res = app.authed(reqwest::Method::POST, "/api/memory", &api).json(&memory).send().await.expect("memory");
    assert_eq!(res.status(), 201);
    let deals = app.get_json(&api, "/api/deals").await;
    let deal = deals["deals"][0]["id"].as_str().expect("a demo deal").to_owned();
    let index: Value = app.get("/company/data/index.json").await.json().await.expect("index");
    let slug = index["companies"][0]["slug"].as_str().expect("a company").to_owned();
    let workers = app.get_json(&api, "/api/workers").await;
    let worker = workers["workers"][0]["id"].as_str().expect("a worker").to_owned();

    let axe = axe_source();
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    page.watch_errors().await;
    page.open(&app.url("/app/login")).await;
    let mut found = Vec::new();
    check(&mut page, &axe, "/app/login", &mut found).await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/deals'", "signed in").await;
    let pages = [
        "/app/chat".to_owned(),
        "/app/workers".to_owned(),
        format!("/app/workers/{worker}"),
        "/app/approvals".to_owned(),
        "/app/audit".to_owned(),
        "/app/deals".to_owned(),
        "/app/deals?view=list".to_owned(),
        format!("/app/deals/{deal}"),
        "/app/memory".to_owned(),
        "/app/metrics".to_owned(),
        "/app/companies".to_owned(),
        format!("/app/companies/{slug}"),
        "/app/chat/clear".to_owned(),
    ];
    for path in &pages {
        page.open(&app.url(path)).await;
        let status = page.eval("document.title").await;
        assert!(!status.as_str().unwrap_or_default().starts_with("Not Found"), "{path}: {status}");
        check(&mut page, &axe, path, &mut found).await;
    }
    assert!(found.is_empty(), "serious or critical accessibility violations:\n{}", found.join("\n"));
    assert!(page.errors.is_empty(), "errors in the console's pages: {:?}", page.errors);
    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
