//! The console's `/app/workers` pages (issue 24): over HTTP — signed out sent to sign in, the
//! eight workers listed with their status, a worker's page with its status, memory health,
//! live workflows and (for an admin only) its start forms, a viewer's forged start refused 403
//! and a cookie start without or with a foreign `Origin` refused 403 with nothing started, a
//! bad parameter 422 with its problem under its input and what was typed kept, a good start
//! 303 with the new workflow among the worker's live ones, an unknown worker the 404 page —
//! and in real Chromium: an admin signs in on a worker's page, is told what is wrong with a
//! start, fixes it and sees the notice. Screenshots at 375 and 1440 px go to `target/console/`.

use gtms::domain::Role;
use serde_json::Value;

use crate::browser::browser;
use crate::console::{no_redirects, post_form};
use crate::helpers::{TestApp, eventually};

const WORKER: &str = "onboarding-manager";
const START: &str = "/app/workers/onboarding-manager/start";

async fn page(app: &TestApp, token: &str, path: &str) -> (u16, String) {
    let res = no_redirects().get(app.url(path)).header("cookie", format!("gtms_session={token}")).send().await;
    let res = res.expect("get");
    (res.status().as_u16(), res.text().await.expect("html"))
}

/// How many workflows the worker has had, through the API.
async fn started_count(app: &TestApp, token: &str) -> u64 {
    let list: Value = app.get_json(token, &format!("/api/coordinator/workflows?worker={WORKER}")).await;
    list["total"].as_u64().expect("total")
}

fn onboarding(account_name: &str) -> [(&str, &str); 4] {
    [("type", "client-onboarding"), ("accountId", "acct-console-7"), ("accountName", account_name), ("tier", "premium")]
}

#[tokio::test]
async fn console_workers_list_detail_and_start_forms_over_http() {
    let app = crate::workflows::app().await;
    let own = app.base.clone();
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);

    for (path, next) in [("/app/workers", "%2Fapp%2Fworkers"), ("/app/workers/sdr", "%2Fapp%2Fworkers%2Fsdr")] {
        let res = no_redirects().get(app.url(path)).send().await.expect("get");
        assert_eq!(res.status(), 303, "{path} signed out");
        assert_eq!(res.headers()["location"], format!("/app/login?next={next}").as_str());
    }

    let (status, html) = page(&app, &viewer, "/app/workers").await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"workers\""), "the live list");
    assert_eq!(html.matches("<li class=\"worker\"").count(), 8, "the eight workers");
    for card in html.split("<li class=\"worker\"").skip(1) {
        let tag = card.split('>').next().unwrap_or_default();
        let known = ["running", "waiting", "stopped"].iter().any(|s| tag.contains(&format!("data-status=\"{s}\"")));
        assert!(known, "each worker is running, waiting or stopped: {tag}");
    }
    assert!(html.contains(&format!("href=\"/app/workers/{WORKER}\"")), "each worker links to its page");

    let (status, html) = page(&app, &admin, &format!("/app/workers/{WORKER}")).await;
    assert_eq!(status, 200);
    for id in ["worker-status", "worker-workflows", "worker-memory", "start-client-onboarding"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "the admin's page has #{id}");
    }
    for param in ["accountId", "accountName", "tier"] {
        let id = format!("start-client-onboarding-{param}");
        assert!(html.contains(&format!("for=\"{id}\"")) && html.contains(&format!("id=\"{id}\"")), "{param} labelled");
    }
    let (status, html) = page(&app, &viewer, &format!("/app/workers/{WORKER}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"worker-status\""));
    assert!(!html.contains("id=\"start\"") && !html.contains("/start\""), "no start form for a viewer");

    let before = started_count(&app, &admin).await;
    let res = post_form(&app, START, &viewer, Some(&own), &onboarding("Console Co")).await;
    assert_eq!(res.status(), 403, "a viewer's forged start");
    for origin in [None, Some("http://evil.example")] {
        let res = post_form(&app, START, &admin, origin, &onboarding("Console Co")).await;
        assert_eq!(res.status(), 403, "a cookie start from {origin:?}");
    }
    assert_eq!(started_count(&app, &admin).await, before, "nothing was started");

    let res = post_form(&app, START, &admin, Some(&own), &onboarding("   ")).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.expect("html");
    assert!(html.contains("id=\"start-client-onboarding-accountName-error\""), "the field's problem inline");
    assert!(html.contains("not only spaces"), "in the service's words");
    assert!(html.contains("aria-describedby=\"start-client-onboarding-accountName-error\""));
    assert!(html.contains("value=\"acct-console-7\""), "what was typed is kept");
    assert!(html.contains("<option value=\"premium\" selected"), "the chosen tier is kept");
    let missing = [("type", "client-onboarding"), ("accountId", "acct-console-7")];
    let res = post_form(&app, START, &admin, Some(&own), &missing).await;
    assert_eq!(res.status(), 422, "a required field left empty");
    assert!(res.text().await.expect("html").contains("id=\"start-client-onboarding-accountName-error\""));
    let res = post_form(&app, START, &admin, Some(&own), &[("type", "coordinator"), ("goal", "x")]).await;
    assert_eq!(res.status(), 400, "an internal type cannot be started from the page");
    assert_eq!(started_count(&app, &admin).await, before, "nothing was started");

    let res = post_form(&app, START, &admin, Some(&own), &onboarding("Console Co")).await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("location").to_owned();
    let prefix = format!("/app/workers/{WORKER}?started=");
    assert!(location.starts_with(&prefix), "{location}");
    let id = location.trim_start_matches(&prefix).to_owned();
    let (status, html) = page(&app, &admin, &location).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"started\"") && html.contains(&format!("Started {id}.")), "the notice");
    let row = format!("data-workflow=\"{id}\"");
    eventually("the new workflow among the worker's live ones", || {
        let (app, admin, row) = (&app, &admin, &row);
        async move { page(app, admin, &format!("/app/workers/{WORKER}")).await.1.contains(row.as_str()).then_some(()) }
    })
    .await;

    for path in ["/app/workers/nobody", "/app/workers/%3Cscript%3E"] {
        let (status, html) = page(&app, &admin, path).await;
        assert_eq!(status, 404, "{path}");
        assert!(html.contains("404") && !html.contains("<script>"), "{path}: the console's error page");
    }
    let res = post_form(&app, "/app/workers/nobody/start", &admin, Some(&own), &onboarding("Console Co")).await;
    assert_eq!(res.status(), 404, "a start for an unknown worker");
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_workers_an_admin_fixes_a_refused_start_in_chromium() {
    let app = crate::workflows::app().await;
    let (code, _) = app.invite(Role::Admin).await;
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;

    // Signed out, a worker's page sends the person to sign in, and back to it after.
    page.open(&app.url(&format!("/app/workers/{WORKER}"))).await;
    page.until(
        "location.pathname === '/app/login' && !!document.querySelector('#invite-code')",
        "the redirect to sign-in",
    )
    .await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until(&format!("location.pathname === '/app/workers/{WORKER}'"), "the worker's page after sign-in").await;
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("worker-{width}.png")), true).await;
    }

    // Only spaces for the account name: refused, the problem under the input, the rest kept.
    page.type_into("#start-client-onboarding-accountId", "acct-browser-1").await;
    page.type_into("#start-client-onboarding-accountName", "   ").await;
    page.choose("#start-client-onboarding-tier", "enterprise").await;
    page.click("#start-client-onboarding button[type=submit]").await;
    page.until("!!document.querySelector('#start-client-onboarding-accountName-error')", "the field's problem").await;
    assert_eq!(page.eval("document.querySelector('#start-client-onboarding-accountId').value").await, "acct-browser-1");
    assert_eq!(page.eval("document.querySelector('#start-client-onboarding-tier').value").await, "enterprise");
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("worker-start-error-{width}.png")), true).await;
    }

    // Fixed, it starts: the notice names the workflow, which is among the live ones.
    page.type_into("#start-client-onboarding-accountName", "Browser Co").await;
    page.click("#start-client-onboarding button[type=submit]").await;
    page.until("!!document.querySelector('#started')", "the started notice").await;
    let id = page.eval("new URLSearchParams(location.search).get('started')").await;
    let id = id.as_str().expect("the workflow id").to_owned();
    assert_eq!(page.eval("document.querySelector('#started').textContent").await, format!("Started {id}."));
    page.until(
        &format!("!!document.querySelector(\"#worker-workflows [data-workflow='{id}']\")"),
        "the workflow among the live ones",
    )
    .await;

    page.open(&app.url("/app/workers")).await;
    page.until("document.querySelectorAll('#workers li.worker').length === 8", "the eight workers").await;
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("workers-{width}.png")), true).await;
    }

    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}

/// Starts a content draft on the content writer through the API and waits until it asks for
/// approval; returns its id.
async fn waiting_draft(app: &TestApp, admin: &str) -> String {
    let body = serde_json::json!({"workflowType": "content-generation", "params": {"contentType": "email", "accountId": "acct-004"}});
    let res = app.authed(reqwest::Method::POST, "/api/workers/content-writer/start", admin).json(&body).send().await;
    let started: Value = res.expect("start").json().await.expect("json");
    let id = started["workflowId"].as_str().expect("id").to_owned();
    let path = format!("/api/coordinator/workflows/{id}");
    eventually("the draft waits for approval", || {
        let (app, admin, path) = (app, admin, &path);
        async move { (app.get_json(admin, path).await["status"] == "waiting").then_some(()) }
    })
    .await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_workers_an_admin_pauses_resumes_and_cancels_in_chromium() {
    let app = crate::workflows::app().await;
    let (admin, viewer) = (app.token(Role::Admin).await, app.token(Role::Viewer).await);
    let draft = waiting_draft(&app, &admin).await;
    let worker_page = "/app/workers/content-writer";

    // A viewer sees the state, not the forms, and a forged post is refused.
    let (status, html) = page(&app, &viewer, worker_page).await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"worker-controls\"") && !html.contains("id=\"pause-worker\""), "no pause form");
    assert!(!html.contains("class=\"cancel-workflow\""), "no cancel form for a viewer");
    let own = app.base.clone();
    let res = post_form(&app, "/app/workers/content-writer/pause", &viewer, Some(&own), &[("reason", "x")]).await;
    assert_eq!(res.status(), 403, "a viewer's forged pause");
    let res = post_form(&app, "/app/workers/content-writer/pause", &admin, Some(&own), &[("reason", "  ")]).await;
    assert_eq!(res.status(), 400, "a blank reason");
    let res =
        post_form(&app, "/app/workers/content-writer/budget", &admin, Some(&own), &[("dailyTokens", "lots")]).await;
    assert_eq!(res.status(), 400, "a budget that is not a number");
    let res = post_form(&app, "/app/workers/content-writer/budget", &viewer, Some(&own), &[("dailyTokens", "5")]).await;
    assert_eq!(res.status(), 403, "a viewer's forged budget");

    let (code, _) = app.invite(Role::Admin).await;
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    page.open(&app.url(worker_page)).await;
    page.until("!!document.querySelector('#invite-code')", "the sign-in page").await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("!!document.querySelector('#pause-worker')", "the worker's page with its pause form").await;

    page.type_into("#pause-reason", "brand review").await;
    page.click("#pause-worker button[type=submit]").await;
    page.until("!!document.querySelector('#worker-paused')", "the paused notice").await;
    let notice = page.eval("document.querySelector('#worker-paused').textContent").await;
    assert!(notice.as_str().is_some_and(|t| t.contains("brand review")), "{notice}");
    let worker = app.get_json(&admin, "/api/workers/content-writer").await;
    assert_eq!(worker["paused"], true, "{worker}");
    let audit = app.get_json(&admin, "/api/audit?action=pause").await;
    assert_eq!(audit["entries"][0]["from"], "console 127.0.0.1", "the console records the client's address: {audit}");

    page.click("#resume-worker button[type=submit]").await;
    page.until("!!document.querySelector('#pause-worker') && !document.querySelector('#worker-paused')", "resumed")
        .await;
    assert_eq!(app.get_json(&admin, "/api/workers/content-writer").await["paused"], false);

    // The worker's budget: what it spent, and an admin sets a daily limit.
    let budget = page.eval("document.querySelector('#worker-budget').textContent").await;
    assert!(budget.as_str().is_some_and(|t| t.contains("tokens today") && t.contains("(no limit)")), "{budget}");
    page.type_into("#budget-daily", "40000").await;
    page.click("#budget-worker button[type=submit]").await;
    page.until("location.search.includes('budget=1') && !!document.querySelector('#worker-budget')", "saved").await;
    let budget = page.eval("document.querySelector('#worker-budget').textContent").await;
    assert!(budget.as_str().is_some_and(|t| t.contains("of 40000 tokens today") && t.contains("set by")), "{budget}");
    let list = app.get_json(&admin, "/api/controls/budgets").await;
    let writer = list["budgets"].as_array().into_iter().flatten().find(|b| b["worker"] == "content-writer").cloned();
    assert_eq!(writer.map(|b| b["dailyTokens"].clone()), Some(serde_json::json!(40000)), "{list}");

    // The draft is cancelled from its row, with a reason (once the page has caught up, so the
    // click lands on the row that stays).
    let row = format!("#worker-workflows [data-workflow='{draft}']");
    page.until("document.body.dataset.live === 'connected'", "the /ws connection").await;
    page.click(&format!("{row} summary")).await;
    page.until(&format!("!!document.querySelector(\"{row} details[open]\")"), "the cancel form open").await;
    page.type_into(&format!("#cancel-{draft}"), "the account churned").await;
    page.click(&format!("{row} button[type=submit]")).await;
    page.until("!!document.querySelector('#started') && location.search.includes('cancelled=1')", "the notice").await;
    let cancelled = app.get_json(&admin, &format!("/api/coordinator/workflows/{draft}")).await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert_eq!(cancelled["result"]["reason"], "the account churned", "{cancelled}");

    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
