//! The web console (`/app/`): its routes over HTTP (303 to sign-in, the Origin check on every
//! cookie write, viewers refused by the server, form problems shown with the API's status, the
//! page headers and weights), and a person's walk through it in a real headless Chromium:
//! sign in with an invite code, create a deal, move it on the board, import a CSV with a bad
//! row (nothing imported, the row named), fix it, import it, see a deal made elsewhere appear
//! without a reload, watch two approvals arrive live, approve one with a note and reject a
//! selection, sign out, and as a viewer find no write control. Screenshots of every page
//! at 375 and 1440 px go to `target/console/`.

use std::io::Write;

use gtms::domain::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::browser::browser;
use crate::deals_write::deal_count;
use crate::helpers::{TestApp, spawn_app};
use crate::workflows::{start, wait_for};

/// A client that does not follow redirects (the tests read the 303s).
pub fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client")
}

/// A form post carrying only the session cookie, with `origin` (or none).
pub async fn post_form(
    app: &TestApp,
    path: &str,
    token: &str,
    origin: Option<&str>,
    form: &[(&str, &str)],
) -> reqwest::Response {
    let mut req = no_redirects().post(app.url(path)).header("cookie", format!("gtms_session={token}")).form(form);
    if let Some(origin) = origin {
        req = req.header("origin", origin);
    }
    req.send().await.expect("post")
}

#[tokio::test]
async fn console_routes_redirect_refuse_and_show_problems_over_http() {
    let app = spawn_app().await;
    let client = no_redirects();
    let own = app.base.clone();

    for (path, next) in
        [("/app/deals", "%2Fapp%2Fdeals"), ("/app", "%2Fapp%2Fdeals"), ("/app/deals/d-1", "%2Fapp%2Fdeals%2Fd%2D1")]
    {
        let res = client.get(app.url(path)).send().await.expect("get");
        assert_eq!(res.status(), 303, "{path} signed out");
        assert_eq!(res.headers()["location"], format!("/app/login?next={next}").as_str(), "{path}");
    }

    let (code, _) = app.invite(Role::Admin).await;
    let bad = client
        .post(app.url("/app/login"))
        .header("origin", &own)
        .form(&[("inviteCode", "nope"), ("next", "/app/deals")]);
    let bad = bad.send().await.expect("post");
    assert_eq!(bad.status(), 401);
    assert!(bad.text().await.unwrap_or_default().contains("That invite code is not valid."));
    let foreign = client
        .post(app.url("/app/login"))
        .header("origin", "http://evil.example")
        .form(&[("inviteCode", code.as_str())]);
    assert_eq!(foreign.send().await.expect("post").status(), 403, "a sign-in posted from elsewhere");
    let good = client
        .post(app.url("/app/login"))
        .header("origin", &own)
        .form(&[("inviteCode", code.as_str()), ("next", "https://evil.example/")]);
    let good = good.send().await.expect("post");
    assert_eq!(good.status(), 303);
    assert_eq!(good.headers()["location"], "/app/deals", "next is only ever a console page");
    let cookie = good.headers()["set-cookie"].to_str().expect("cookie").to_owned();
    assert!(cookie.contains("SameSite=Strict") && cookie.contains("HttpOnly"), "{cookie}");
    let admin = cookie.trim_start_matches("gtms_session=").split(';').next().expect("token").to_owned();
    let viewer = app.token(Role::Viewer).await;

    let page = client.get(app.url("/app/deals")).header("cookie", format!("gtms_session={admin}")).send().await;
    let page = page.expect("get");
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"].to_str().expect("csp").to_owned();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(page.headers()["cache-control"], "no-store");
    let html = page.text().await.expect("html");
    assert!(html.contains("id=\"new-deal\"") && html.contains("id=\"board\""), "the admin's board with its forms");

    let deal = [
        ("accountName", "Globex"),
        ("value", "5000"),
        ("stage", "prospecting"),
        ("type", "expansion"),
        ("rep", "Ada"),
        ("closeDate", "2027-01-31"),
    ];
    let before = deal_count(&app, &admin).await;
    for origin in [None, Some("http://evil.example"), Some("null")] {
        let res = post_form(&app, "/app/deals", &admin, origin, &deal).await;
        assert_eq!(res.status(), 403, "a cookie write from {origin:?}");
        assert!(res.text().await.unwrap_or_default().contains("another site"));
    }
    let res = post_form(&app, "/app/deals", &viewer, Some(&own), &deal).await;
    assert_eq!(res.status(), 403, "a viewer's forged create");
    let res = post_form(&app, "/app/deals/import", &viewer, Some(&own), &[("csv", "x")]).await;
    assert_eq!(res.status(), 403, "a viewer's forged import");
    assert_eq!(deal_count(&app, &admin).await, before, "nothing was written");

    let mut broken = deal.to_vec();
    broken[1] = ("value", "lots");
    broken[5] = ("closeDate", "someday");
    let res = post_form(&app, "/app/deals", &admin, Some(&own), &broken).await;
    assert_eq!(res.status(), 422);
    let html = res.text().await.expect("html");
    assert!(html.contains("id=\"new-value-error\"") && html.contains("whole US dollars"), "the value's problem inline");
    assert!(html.contains("id=\"new-closeDate-error\""), "the date's problem inline");
    assert!(html.contains("value=\"Globex\""), "what was typed is kept");
    let res = post_form(&app, "/app/deals", &admin, Some(&own), &deal).await;
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().expect("location").to_owned();
    assert!(location.starts_with("/app/deals/"), "{location}");
    let id = location.trim_start_matches("/app/deals/");
    let moved = post_form(
        &app,
        &format!("/app/deals/{id}/move"),
        &admin,
        Some(&own),
        &[("stage", "proposal"), ("back", "/app/deals")],
    )
    .await;
    assert_eq!(moved.status(), 303);
    let detail = app.get_json(&admin, &format!("/api/deals/{id}")).await;
    assert_eq!(detail["stage"], "proposal");
    assert_eq!(
        detail["history"].as_array().and_then(|h| h.last()).map(|h| h["action"].clone()),
        Some(json!("moved to proposal"))
    );
    let back = post_form(&app, &format!("/app/deals/{id}/move"), &admin, Some(&own), &[("stage", "prospecting")]).await;
    assert_eq!(back.status(), 409, "stages only move forward: the page says so with the API's status");

    let res =
        post_form(&app, "/app/approvals", &viewer, Some(&own), &[("act", "approve:selected"), ("id", "w-1")]).await;
    assert_eq!(res.status(), 403, "a viewer's forged decision");
    let res = post_form(&app, "/app/approvals", &admin, Some(&own), &[("act", "approve:selected")]).await;
    assert_eq!(res.status(), 400, "nothing selected");
    assert!(res.text().await.unwrap_or_default().contains("Select at least one approval first."));
    let res = post_form(&app, "/app/approvals", &admin, Some(&own), &[("act", "approve:no-such-workflow")]).await;
    assert_eq!(res.status(), 409);
    assert!(res.text().await.unwrap_or_default().contains("no-such-workflow:"), "the page names what was not decided");

    // The API's cookie writes get the same Origin check; a bearer token does not need one.
    let body = json!({"accountName": "Hooli", "value": 1, "stage": "prospecting", "type": "renewal", "rep": "Ada", "closeDate": "2027-01-31"});
    let cross =
        no_redirects().post(app.url("/api/deals")).header("cookie", format!("gtms_session={admin}")).json(&body);
    let cross = cross.send().await.expect("post");
    assert_eq!(cross.status(), 403);
    assert_eq!(cross.json::<Value>().await.expect("envelope")["error"], "forbidden");
    let same = no_redirects()
        .post(app.url("/api/deals"))
        .header("cookie", format!("gtms_session={admin}"))
        .header("origin", &own)
        .json(&body);
    assert_eq!(same.send().await.expect("post").status(), 201);
    assert_eq!(app.authed(Method::POST, "/api/deals", &admin).json(&body).send().await.expect("post").status(), 201);

    let js = client.get(app.url("/app/assets/console.js")).send().await.expect("js");
    assert_eq!(js.status(), 200);
    let etag = js.headers()["etag"].to_str().expect("etag").to_owned();
    let again = client.get(app.url("/app/assets/console.js")).header("if-none-match", &etag).send().await.expect("js");
    assert_eq!(again.status(), 304);

    // Page weights as served (gzip), reported and held to DESIGN's budgets.
    let gz = |bytes: &[u8]| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(bytes).expect("gzip");
        enc.finish().expect("gzip").len()
    };
    let css =
        gz(&client.get(app.url("/app/assets/console.css")).send().await.expect("css").bytes().await.expect("css"));
    let js = gz(&client.get(app.url("/app/assets/console.js")).send().await.expect("js").bytes().await.expect("js"));
    println!("console assets (gzip): css {css} B, js {js} B");
    assert!(js <= 60 * 1024, "script budget");
    let index: Value = app.get("/company/data/index.json").await.json().await.expect("index");
    let slug = index["companies"][0]["slug"].as_str().expect("a company");
    let pages =
        ["/app/chat", "/app/workers", "/app/workers/onboarding-manager", "/app/approvals", "/app/deals", "/app/memory"];
    let pages = pages.map(str::to_owned).into_iter().chain(["/app/audit".into()]);
    let pages = pages.chain(["/app/metrics".into(), format!("/app/companies/{slug}")]);
    for path in pages {
        let page = client.get(app.url(&path)).header("cookie", format!("gtms_session={admin}")).send().await;
        let page = page.expect("get");
        assert_eq!(page.status(), 200, "{path}");
        let html = gz(&page.bytes().await.expect("html"));
        println!("console page weight (gzip): {path} {html} B, first load {} B", html + css + js);
        assert!(html + css + js <= 150 * 1024, "first-load budget of {path}");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_signs_in_works_the_deals_and_the_approvals_and_a_viewer_finds_no_write_control() {
    let app = crate::workflows::app().await;
    let (admin_code, _) = app.invite(Role::Admin).await;
    let (viewer_code, _) = app.invite(Role::Viewer).await;
    let api = app.token(Role::Admin).await;
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    let shoot = |name: &str, width: u32| shots.join(format!("{name}-{width}.png"));

    // Signed out, the board sends the person to sign in, and back after.
    page.open(&app.url("/app/deals")).await;
    page.until(
        "location.pathname === '/app/login' && !!document.querySelector('#invite-code')",
        "the redirect to sign-in",
    )
    .await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("login", width), true).await;
    }
    page.type_into("#invite-code", "not-a-code").await;
    page.click("form.card button[type=submit]").await;
    page.until("!!document.querySelector('#invite-code-error')", "the bad code's message").await;
    page.type_into("#invite-code", &admin_code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/deals' && !!document.querySelector('#board')", "the board after sign-in")
        .await;
    assert_eq!(page.eval("document.querySelector('#role').textContent").await, "admin");

    // Ask the Brain (the demo model): the answer appears without a reload.
    page.open(&app.url("/app/chat")).await;
    page.eval("window.sameDocument = true").await;
    page.type_into("#message", "What is waiting for my approval?").await;
    page.click("#send").await;
    page.until("!!document.querySelector('#latest .tokens') && window.sameDocument === true", "the Brain's answer")
        .await;
    page.open(&app.url("/app/deals")).await;

    // Create a deal with the form.
    page.click("#new-deal summary").await;
    page.type_into("#new-accountName", "Console Co").await;
    page.type_into("#new-value", "125000").await;
    page.choose("#new-stage", "qualification").await;
    page.choose("#new-type", "new-business").await;
    page.type_into("#new-rep", "Ada Park").await;
    page.choose("#new-closeDate", "2027-03-31").await;
    page.click("#new-deal button[type=submit]").await;
    page.until(
        "location.pathname.startsWith('/app/deals/d') && document.querySelector('h1').textContent === 'Console Co'",
        "the new deal's page",
    )
    .await;
    let id = page.eval("location.pathname.split('/').pop()").await.as_str().expect("id").to_owned();
    for width in [375, 1440] {
        page.screenshot(width, &shoot("deal", width), true).await;
    }

    // Move it on the board: the move is in its history.
    page.open(&app.url("/app/deals")).await;
    page.choose(&format!("#move-{id}"), "proposal").await;
    page.click(&format!("li[data-deal='{id}'] form.move button")).await;
    page.until(
        &format!("!!document.querySelector(\"section[data-stage='proposal'] li[data-deal='{id}']\")"),
        "the deal in the proposal column",
    )
    .await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("deals", width), true).await;
    }
    page.screenshot(1440, &shots.join("readme-deals.png"), false).await;
    let detail = app.get_json(&api, &format!("/api/deals/{id}")).await;
    assert_eq!(
        detail["history"].as_array().and_then(|h| h.last()).map(|h| h["action"].clone()),
        Some(json!("moved to proposal"))
    );

    // Import a CSV with one bad row: nothing is imported and the row is named; fixed, it imports.
    let before = deal_count(&app, &api).await;
    let bad = "accountName,value,stage,type,rep,champion,closeDate,probability\nImport One,1000,prospecting,renewal,Ada,,2027-02-01,\nImport Two,lots,prospecting,renewal,Ada,,2027-02-01,\n";
    page.click("#import summary").await;
    page.choose("#import-csv", bad).await;
    page.click("#import button[type=submit]").await;
    page.until("!!document.querySelector('#import-errors')", "the import's problems").await;
    assert_eq!(page.eval("document.querySelector('#import-errors tbody td').textContent").await, "3", "row 3 is named");
    assert_eq!(page.eval("document.querySelector('#import-errors tbody td:nth-child(2)').textContent").await, "value");
    assert_eq!(deal_count(&app, &api).await, before, "one bad row imports nothing");
    for width in [375, 1440] {
        page.screenshot(width, &shoot("import-errors", width), true).await;
    }
    let fixed = bad.replace("lots", "2000");
    page.choose("#import-csv", &fixed).await;
    page.eval("document.querySelector('#import-dry').checked = true").await;
    page.click("#import button[type=submit]").await;
    page.until(
        "(document.querySelector('#import-report') || {}).textContent?.startsWith('Dry run: would create 2')",
        "the dry run's report",
    )
    .await;
    assert_eq!(deal_count(&app, &api).await, before, "a dry run writes nothing");
    page.eval("document.querySelector('#import-dry').checked = false").await;
    page.click("#import button[type=submit]").await;
    page.until(
        "(document.querySelector('#import-report') || {}).textContent?.startsWith('Imported: created 2')",
        "the import's report",
    )
    .await;
    assert_eq!(deal_count(&app, &api).await, before + 2);

    // A deal made elsewhere appears on the open board without a reload.
    page.open(&app.url("/app/deals")).await;
    page.until("document.body.dataset.live === 'connected'", "the /ws connection").await;
    page.eval("window.sameDocument = true").await;
    let body = json!({"accountName": "Made Elsewhere", "value": 7, "stage": "negotiation", "type": "renewal", "rep": "Ada", "closeDate": "2027-01-31"});
    assert_eq!(app.authed(Method::POST, "/api/deals", &api).json(&body).send().await.expect("post").status(), 201);
    page.until(
        "[...document.querySelectorAll('#board li.deal a')].some(a => a.textContent === 'Made Elsewhere')",
        "the new deal on the board",
    )
    .await;
    assert_eq!(page.eval("window.sameDocument === true").await, true, "swapped, not reloaded");

    // Approvals arrive in the inbox without a reload; one is approved with its note, then a
    // selection rejected with the shared note; the workflows go on.
    page.open(&app.url("/app/approvals")).await;
    page.until("document.body.dataset.live === 'connected'", "the inbox's /ws connection").await;
    let waiting =
        page.eval("Number(document.querySelector('#approvals').dataset.count)").await.as_u64().expect("count");
    let mut parked = Vec::new();
    let onboarding = json!({"accountId": "acct-console-1", "accountName": "Console Co", "tier": "premium"});
    let ticket = json!({"ticketId": "T-77", "subject": "Login fails with SSO", "priority": "high"});
    for (worker, kind, params) in
        [("onboarding-manager", "client-onboarding", onboarding), ("support-resolver", "ticket-resolution", ticket)]
    {
        let id = start(&app, &api, worker, kind, params).await;
        wait_for(&app, &api, &id, |w| w["status"] == "waiting").await;
        parked.push(id);
    }
    let expected = waiting + 2;
    page.until(&format!("document.querySelectorAll('#approvals li.approval').length === {expected} && document.querySelector('#pending-count').textContent === '{expected}'"), "both approvals and the count arriving live").await;
    // The onboarding's approval expires in 72 h (the default); the page says how long is left.
    let expires =
        page.eval(&format!("document.querySelector(\"[data-approval='{}'] .expires\").textContent", parked[0])).await;
    assert!(expires.as_str().is_some_and(|t| t.starts_with("Expires in 71 h") || t == "Expires in 72 h"), "{expires}");
    for width in [375, 1440] {
        page.screenshot(width, &shoot("approvals", width), true).await;
    }
    page.type_into(&format!("[id='note-{}']", parked[0]), "Checked the contract").await;
    page.press("Enter").await;
    page.until("(document.querySelector('#decided') || {}).textContent === '1 approved.'", "the approval's outcome")
        .await;
    let approved = wait_for(&app, &api, &parked[0], |w| w["status"] != "waiting").await;
    assert_ne!(approved["status"], "failed", "{approved}");
    page.click(&format!("[id='pick-{}']", parked[1])).await;
    page.type_into("#bulk-note", "Not this quarter").await;
    page.click("button[value='reject:selected']").await;
    page.until("(document.querySelector('#decided') || {}).textContent === '1 rejected.'", "the selection's outcome")
        .await;
    wait_for(&app, &api, &parked[1], |w| w["status"] != "waiting").await;
    assert_eq!(
        page.eval(&format!(
            "document.querySelectorAll(\"[data-approval='{}'], [data-approval='{}']\").length",
            parked[0], parked[1]
        ))
        .await,
        0,
        "both left the inbox"
    );

    // A client onboarding started from its worker's page: the worker waits for the approval
    // (live), the keyboard finds it in the inbox (`?` lists the shortcuts, `j` selects, `a`
    // approves), and the worker's status moves on.
    let worker = "/app/workers/onboarding-manager";
    page.open(&app.url(worker)).await;
    page.type_into("#start-client-onboarding-accountId", "acct-flow-1").await;
    page.type_into("#start-client-onboarding-accountName", "Flow Co").await;
    page.click("#start-client-onboarding button[type=submit]").await;
    page.until("!!document.querySelector('#started')", "the started notice").await;
    let started = page.eval("new URLSearchParams(location.search).get('started')").await;
    let started = started.as_str().expect("the workflow id").to_owned();
    page.until("document.querySelector('#worker-status').dataset.status === 'waiting'", "the worker waiting").await;
    page.open(&app.url("/app/approvals")).await;
    page.until(&format!("!!document.querySelector(\"[data-approval='{started}']\")"), "the approval in the inbox")
        .await;
    page.press("?").await;
    page.until("document.querySelector('#shortcuts').open", "the shortcuts").await;
    page.press("?").await;
    page.until("!document.querySelector('#shortcuts').open", "the shortcuts closed").await;
    page.press("j").await;
    page.until(
        &format!("document.querySelector('li.approval.selected').dataset.approval === '{started}'"),
        "j selects it",
    )
    .await;
    page.press("a").await;
    page.until("(document.querySelector('#decided') || {}).textContent === '1 approved.'", "approved by keyboard")
        .await;
    page.open(&app.url(worker)).await;
    page.until("document.querySelector('#worker-status').dataset.status !== 'waiting'", "the worker moving on").await;

    // Sign out; a viewer sees the board and no write control, and the server refuses a forged write.
    page.click("#signout").await;
    page.until("location.pathname === '/app/login' && !!document.querySelector('#invite-code')", "signed out").await;
    page.type_into("#invite-code", &viewer_code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/deals' && !!document.querySelector('#board')", "the viewer's board").await;
    assert_eq!(page.eval("document.querySelector('#role').textContent").await, "viewer");
    let controls = "document.querySelectorAll('#new-deal, #import, form.move, form[method=post]:not([action=\"/app/logout\"])').length";
    assert_eq!(page.eval(controls).await, 0, "no write control for a viewer");
    for width in [375, 1440] {
        page.screenshot(width, &shoot("deals-viewer", width), true).await;
    }
    page.open(&app.url("/app/approvals")).await;
    page.until("!!document.querySelector('#approvals')", "the viewer's inbox").await;
    assert_eq!(
        page.eval("document.querySelectorAll('#approvals input, #approvals button').length").await,
        0,
        "a viewer cannot decide"
    );
    let forged = "fetch('/app/deals/import', {method: 'POST', headers: {'content-type': 'application/x-www-form-urlencoded'}, body: 'csv=x'}).then(r => { document.body.dataset.forged = String(r.status); })";
    page.eval(forged).await;
    page.until("document.body.dataset.forged === '403'", "the server refusing the viewer's forged import").await;
    page.eval(&format!("fetch('/app/deals/{id}/move', {{method: 'POST', headers: {{'content-type': 'application/x-www-form-urlencoded'}}, body: 'stage=closed-won'}}).then(r => {{ document.body.dataset.moved = String(r.status); }})")).await;
    page.until("document.body.dataset.moved === '403'", "the server refusing the viewer's forged move").await;

    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
