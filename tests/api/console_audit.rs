//! The console's `/app/audit` (issue 28): over HTTP — signed out sent to sign in, a viewer
//! refused with the 403 page and no "Audit" in the navigation — and in real Chromium: an admin
//! signs in, follows "Audit" in the navigation, finds the deal update and the memory write just
//! made through the API at the top, newest first, narrows the log to one action with the
//! filter form, and the filter stays chosen. Screenshots at 375 and 1440 px go to
//! `target/console/`.

use gtms::domain::Role;
use reqwest::Method;
use serde_json::json;

use crate::browser::browser;
use crate::console::no_redirects;
use crate::helpers::spawn_app;

#[tokio::test]
async fn an_admin_reads_and_filters_the_audit_log_in_chromium_and_a_viewer_is_refused() {
    let app = spawn_app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let deals = app.get_json(&admin, "/api/deals?limit=1").await;
    let deal = deals["deals"][0]["id"].as_str().expect("a demo deal").to_owned();
    let res = app.authed(Method::PATCH, &format!("/api/deals/{deal}"), &admin).json(&json!({"probability": 40}));
    assert_eq!(res.send().await.expect("patch").status(), 200);
    let memory = json!({"scope": "org", "key": "audit-console", "value": "Seen in the audit page"});
    let res = app.authed(Method::POST, "/api/memory", &admin).json(&memory).send().await.expect("write");
    assert_eq!(res.status(), 201);

    let res = no_redirects().get(app.url("/app/audit")).send().await.expect("get");
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/app/login?next=%2Fapp%2Faudit");
    let as_viewer = |path: &str| no_redirects().get(app.url(path)).header("cookie", format!("gtms_session={viewer}"));
    let res = as_viewer("/app/audit").send().await.expect("get");
    assert_eq!(res.status(), 403);
    assert!(res.text().await.expect("html").contains("the audit log is for admins"));
    let deals_page = as_viewer("/app/deals").send().await.expect("get").text().await.expect("html");
    assert!(!deals_page.contains("href=\"/app/audit\""), "a viewer's navigation has no Audit");

    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let (code, _) = app.invite(Role::Admin).await;
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    page.watch_errors().await;
    page.open(&app.url("/app/login")).await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/deals'", "signed in").await;
    page.click("nav a[href='/app/audit']").await;
    page.until("location.pathname === '/app/audit' && !!document.querySelector('#audit')", "the audit page").await;
    let rows = "Array.from(document.querySelectorAll('#audit tbody tr')).map(r => r.cells[3].textContent + ' ' + r.cells[4].textContent)";
    let listed = page.eval(rows).await;
    let listed: Vec<&str> = listed.as_array().expect("rows").iter().filter_map(|r| r.as_str()).collect();
    assert_eq!(listed[..2], ["memory.write org/audit-console".to_owned(), format!("deal.update {deal}")], "{listed:?}");
    assert!(page.eval("document.querySelector('#audit tbody tr').cells[5].textContent").await == "api 127.0.0.1");
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("audit-{width}.png")), true).await;
    }

    page.choose("#audit-action", "deal.update").await;
    page.click("form.filters button[type=submit]").await;
    page.until("new URLSearchParams(location.search).get('action') === 'deal.update'", "the filtered page").await;
    page.until("document.querySelectorAll('#audit tbody tr').length === 1", "one deal update").await;
    assert_eq!(page.eval("document.querySelector('#audit-action').value").await, "deal.update");
    let detail = format!("fields=probability stage={}", stage(&app, &admin, &deal).await);
    assert_eq!(page.eval("document.querySelector('#audit tbody tr').cells[6].textContent.trim()").await, detail);
    assert!(page.errors.is_empty(), "errors in the audit page: {:?}", page.errors);
    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}

async fn stage(app: &crate::helpers::TestApp, token: &str, deal: &str) -> String {
    let detail = app.get_json(token, &format!("/api/deals/{deal}")).await;
    detail["stage"].as_str().expect("stage").to_owned()
}
