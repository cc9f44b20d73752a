//! `/status` in headless Chromium with a workflow parked at its approval: the rendered DOM
//! shows the worker waiting, the approval, the three SVG charts with one bar per stage, day and
//! type, the outbox row and figures formatted for people; a screenshot is taken at desktop and
//! phone widths. And, driven over the DevTools protocol, a signed-in page (the session cookie)
//! connects to `/ws` and shows a workflow started afterwards without a reload.

use std::path::Path;
use std::process::Command;

use gtms::domain::Role;
use serde_json::json;

use crate::browser::{CHROMIUM_FLAGS, browser};
use crate::helpers::TestApp;
use crate::workflows::{app, start, wait_for};

/// Runs Chromium once on `url` (bounded by `timeout`: the page itself polls forever).
fn chromium(profile: &Path, url: &str, extra: &[String]) -> std::process::Output {
    Command::new("timeout")
        .arg("60")
        .arg("chromium")
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium is installed (make deps installs it)")
}

/// The markup of the SVG chart `id` in the DOM.
fn chart<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("chart {id} is on the page"));
    let end = dom[start..].find("</svg>").expect("the chart closes") + start;
    &dom[start..end]
}

/// `1234567` → `$1,234,567`, written independently of the server's formatter.
pub fn dollars(n: u64) -> String {
    let s = n.to_string();
    let groups: Vec<String> = s.as_bytes().rchunks(3).rev().map(|c| String::from_utf8_lossy(c).into_owned()).collect();
    format!("${}", groups.join(","))
}

async fn parked_onboarding(app: &TestApp, admin: &str, account: &str) -> String {
    let params = json!({"accountId": account, "accountName": "Home Depot <Retail & Co>", "tier": "premium"});
    let id = start(app, admin, "onboarding-manager", "client-onboarding", params).await;
    wait_for(app, admin, &id, |w| w["status"] == "waiting").await;
    id
}

/// Multi-threaded: the browser runs as a blocking child process while the app answers it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_page_shows_a_parked_workflow_its_approval_the_charts_and_the_outbox() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let id = parked_onboarding(&app, &admin, "acct-status-1").await;
    let summary = app.get_json(&admin, "/api/deals/summary/pipeline").await;
    let tokens = app.get_json(&admin, "/api/metrics/tokens").await;
    let days = tokens["byDay"].as_array().expect("byDay").len().min(30);
    assert!(days > 0, "the demo workspace has token history");

    let dir = tempfile::tempdir().expect("dir");
    let profile = dir.path().join("profile");
    let url = app.url("/status");
    let out = tokio::task::block_in_place(|| chromium(&profile, &url, &["--dump-dom".into()]));
    let dom = String::from_utf8_lossy(&out.stdout);

    let worker = "<tr data-worker=\"onboarding-manager\" data-status=\"waiting\">";
    assert!(dom.contains(worker), "the worker is waiting: {dom}");
    assert!(dom.contains(&format!("<tr data-approval=\"{id}\">")), "the approval is listed");
    assert!(dom.contains(&format!("<tr data-workflow=\"{id}\">")), "the workflow is listed");
    assert!(dom.contains("plan-approval"), "its current step is shown");
    assert_eq!(chart(&dom, "chart-pipeline").matches("class=\"bar\"").count(), 6, "one bar per stage");
    assert_eq!(chart(&dom, "chart-tokens").matches("class=\"bar\"").count(), days, "one bar per day");
    assert_eq!(chart(&dom, "chart-outcomes").matches("class=\"bar\"").count(), 6, "one row per workflow type");
    assert!(chart(&dom, "chart-outcomes").contains("data-key=\"client-onboarding\""));
    assert!(dom.contains("<tr data-event=\"approval.requested\" data-delivery=\"pending\">"), "the outbox row");
    assert!(dom.contains("No webhook configured — kept in the outbox."));
    assert!(dom.contains("Home Depot &lt;Retail &amp; Co&gt;"), "the summary is escaped, never markup");
    assert!(!dom.contains("<Retail"), "no unescaped user text");
    let total = dollars(summary["total"].as_u64().expect("total"));
    assert!(dom.contains(&total), "pipeline total formatted as {total}");
    assert!(dom.contains(" %</dd>"), "the win rate as a percentage");
    assert!(dom.contains("data-live=\"poll\"") && dom.contains("health-polled"), "not signed in: polled");
    for text in ["Scheduler jobs", "metrics-rollup", "Weighted value", "Token spend", "Notifications"] {
        assert!(dom.contains(text), "status page lacks {text:?}");
    }

    for (name, size) in [("status-desktop.png", "1280,1400"), ("status-phone.png", "390,2400")] {
        let shot = dir.path().join(name);
        let extra = [format!("--screenshot={}", shot.display()), format!("--window-size={size}")];
        let out = tokio::task::block_in_place(|| chromium(&profile, &url, &extra));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let png = std::fs::read(&shot).expect("screenshot written");
        assert!(png.starts_with(b"\x89PNG") && png.len() > 5_000, "a real screenshot");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_status_page_goes_live_over_ws_and_shows_new_workflows_without_a_reload() {
    let app = app().await;
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;

    page.call("Network.setCookie", json!({"name": "gtms_session", "value": viewer, "url": app.base})).await;
    page.call("Page.navigate", json!({"url": app.url("/status")})).await;
    page.until("document.body && document.body.getAttribute('data-live') === 'ws'", "the page rendered signed in")
        .await;
    page.until("document.body.getAttribute('data-live-state') === 'connected'", "the /ws connection").await;
    assert_eq!(page.eval("document.getElementById('live-state').textContent").await, "live");

    let id = parked_onboarding(&app, &admin, "acct-status-live").await;
    let listed = format!("!!document.querySelector('#approvals tr[data-approval=\"{id}\"]')");
    page.until(&listed, "the new approval appearing live").await;
    let waiting =
        "!!document.querySelector('#workers tr[data-worker=\"onboarding-manager\"][data-status=\"waiting\"]')";
    assert_eq!(page.eval(waiting).await, true, "the worker row was swapped too");
    let refreshes = page.eval("Number(document.body.getAttribute('data-refreshes'))").await;
    assert!(refreshes.as_u64().is_some_and(|n| n >= 1), "the sections were re-fetched, not reloaded: {refreshes}");

    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
