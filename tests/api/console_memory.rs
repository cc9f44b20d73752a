//! The console's memory pages (`/app/memory`) over HTTP: 303 to sign-in, the tree with every
//! scope and a link to each entry (a key of `..` too), an entry's versions, search, an admin's
//! edit with the version read (303 and saved), a stale edit (409 with yours and theirs, nothing
//! overwritten) and its re-application, a viewer with no edit form whose forged post is refused,
//! and a post from another site refused. In Chromium: an entry changed elsewhere while it was
//! being edited, the conflict, re-applied; screenshots of the pages at 375 and 1440 px.

use gtms::domain::Role;
use serde_json::{Value, json};

use crate::browser::browser;
use crate::console::{no_redirects, post_form};
use crate::helpers::TestApp;
use crate::memory::{app, write};

/// The console address of an entry, as the pages write it (every non-alphanumeric escaped).
pub fn entry_path(scope: &str, key: &str) -> String {
    let enc = |s: &str| percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string();
    format!("/app/memory/entry?scope={}&key={}", enc(scope), enc(key))
}

/// A console page as `token`'s session sees it: status and HTML.
pub async fn page(app: &TestApp, token: &str, path: &str) -> (u16, String) {
    let res = no_redirects().get(app.url(path)).header("cookie", format!("gtms_session={token}")).send().await;
    let res = res.expect("get");
    (res.status().as_u16(), res.text().await.expect("html"))
}

async fn stored(app: &TestApp, token: &str, scope: &str, key: &str) -> Value {
    app.get_json(token, &format!("/api/memory/{scope}/{key}")).await
}

#[tokio::test]
async fn memory_pages_show_the_tree_versions_and_search_and_edits_check_the_version() {
    let app = app().await;
    let own = app.base.clone();
    let admin = app.token(Role::Admin).await;
    let viewer = app.token(Role::Viewer).await;

    let res = no_redirects().get(app.url("/app/memory")).send().await.expect("get");
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/app/login?next=%2Fapp%2Fmemory");

    for (scope, key, value) in [
        ("org", "icp", "Mid-market US banks"),
        ("org", "icp", "Mid-market US banks and credit unions"),
        ("team:sales", "playbook.v1", "Lead with the compliance calendar"),
        ("worker:sdr-1", "..", "A key made only of dots"),
    ] {
        let res = write(&app, &admin, json!({"scope": scope, "key": key, "value": value})).await;
        assert!(res.status().is_success(), "{scope}/{key}");
    }

    let (status, html) = page(&app, &admin, "/app/memory").await;
    assert_eq!(status, 200);
    for scope in ["org", "team:sales", "worker:sdr-1"] {
        assert!(html.contains(&format!("data-scope=\"{scope}\"")), "the tree lists {scope}");
    }
    assert!(html.contains("1 entry"), "each scope's count");
    let dots = entry_path("worker:sdr-1", "..");
    assert!(html.contains(&dots.replace('&', "&amp;")), "a link to the `..` entry: {dots}");
    let (status, html) = page(&app, &admin, &dots).await;
    assert_eq!(status, 200, "a key of dots has a page");
    assert!(html.contains("A key made only of dots"));

    let icp = entry_path("org", "icp");
    let (status, html) = page(&app, &admin, &icp).await;
    assert_eq!(status, 200);
    assert!(html.contains("data-version=\"1\"") && html.contains("data-version=\"2\""), "both versions listed");
    assert!(html.contains("id=\"edit-entry\"") && html.contains("name=\"version\" value=\"2\""), "the admin's form");

    // An edit at the version read is saved; the page says which version it became.
    let edit = |value: &'static str, version: &'static str| {
        [("scope", "org"), ("key", "icp"), ("value", value), ("version", version)]
    };
    let res = post_form(&app, "/app/memory/entry", &admin, Some(&own), &edit("Banks\r\nand credit unions", "2")).await;
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], format!("{icp}&saved=3").as_str());
    let now = stored(&app, &admin, "org", "icp").await;
    assert_eq!((now["value"].as_str(), now["version"].as_u64()), (Some("Banks\nand credit unions"), Some(3)));
    let (_, html) = page(&app, &admin, &format!("{icp}&saved=3")).await;
    assert!(html.contains("Saved as version 3."));

    // A stale edit: 409 with both values, nothing overwritten; re-applied at theirs, saved.
    let res = post_form(&app, "/app/memory/entry", &admin, Some(&own), &edit("Only banks", "2")).await;
    assert_eq!(res.status(), 409);
    let html = res.text().await.expect("html");
    assert!(html.contains("id=\"yours\">Only banks<"), "yours shown");
    assert!(html.contains("Theirs: version 3") && html.contains("Banks\nand credit unions"), "theirs shown");
    assert!(html.contains("id=\"reapply\"") && html.contains("name=\"version\" value=\"3\""), "re-apply at theirs");
    assert_eq!(stored(&app, &admin, "org", "icp").await["version"], 3, "nothing overwritten");
    let res = post_form(&app, "/app/memory/entry", &admin, Some(&own), &edit("Only banks", "3")).await;
    assert_eq!(res.status(), 303);
    let now = stored(&app, &admin, "org", "icp").await;
    assert_eq!((now["value"].as_str(), now["version"].as_u64()), (Some("Only banks"), Some(4)));

    // A viewer reads and cannot write; no post from elsewhere is taken.
    let (status, html) = page(&app, &viewer, &icp).await;
    assert_eq!(status, 200);
    assert!(!html.contains("id=\"edit-entry\"") && !html.contains("action=\"/app/memory/entry\""), "no form");
    let res = post_form(&app, "/app/memory/entry", &viewer, Some(&own), &edit("Forged", "4")).await;
    assert_eq!(res.status(), 403, "a viewer's forged edit");
    for origin in [None, Some("http://evil.example")] {
        let res = post_form(&app, "/app/memory/entry", &admin, origin, &edit("Cross-site", "4")).await;
        assert_eq!(res.status(), 403, "an edit from {origin:?}");
    }
    assert_eq!(stored(&app, &admin, "org", "icp").await["value"], "Only banks", "nothing written");

    // Search finds an entry and links to it; a query without a word is refused inline.
    let (status, html) = page(&app, &viewer, "/app/memory?q=compliance&scope=").await;
    assert_eq!(status, 200);
    assert!(html.contains("id=\"memory-results\""));
    assert!(html.contains(&entry_path("team:sales", "playbook.v1").replace('&', "&amp;")), "the hit links to it");
    let (status, html) = page(&app, &viewer, "/app/memory?q=a").await;
    assert_eq!(status, 400);
    assert!(html.contains("id=\"memory-q-error\""));
    let (status, _) = page(&app, &viewer, &entry_path("org", "nothing-here")).await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_an_admin_resolves_an_edit_conflict_and_adds_a_company_to_the_pipeline() {
    let app = app().await;
    let (code, _) = app.invite(Role::Admin).await;
    let api = app.token(Role::Admin).await;
    let slug = crate::console_companies::slug_of(&app, "AAPL").await;
    for (key, value) in [("icp", "Mid-market US banks"), ("tone", "Plain and brief")] {
        assert!(write(&app, &api, json!({"scope": "org", "key": key, "value": value})).await.status().is_success());
    }
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let shoot = |name: &str, width: u32| shots.join(format!("{name}-{width}.png"));
    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;

    page.open(&app.url("/app/memory")).await;
    page.until(
        "location.pathname === '/app/login' && !!document.querySelector('#invite-code')",
        "the redirect to sign-in",
    )
    .await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/memory' && !!document.querySelector('#memory-tree')", "the tree").await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("memory", width), true).await;
    }

    // Open the entry and start editing; it changes elsewhere before the save.
    page.click("[data-scope='org'] a[href$='key=icp']").await;
    page.until("!!document.querySelector('#edit-entry')", "the entry page").await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("memory-entry", width), true).await;
    }
    page.type_into("#edit-value", "Banks only").await;
    let elsewhere = json!({"scope": "org", "key": "icp", "value": "Credit unions too"});
    assert_eq!(write(&app, &api, elsewhere).await.status(), 200);
    page.click("#edit-entry button[type=submit]").await;
    page.until("!!document.querySelector('#conflict')", "the conflict").await;
    assert_eq!(page.eval("document.querySelector('#yours').textContent").await, "Banks only");
    assert_eq!(page.eval("document.querySelector('#theirs').textContent").await, "Credit unions too");
    for width in [375, 1440] {
        page.screenshot(width, &shoot("memory-conflict", width), true).await;
    }
    page.click("#reapply button[type=submit]").await;
    page.until("(document.querySelector('#saved') || {}).textContent === 'Saved as version 3.'", "the save").await;
    assert_eq!(page.eval("document.querySelector('#entry-value').textContent").await, "Banks only");
    assert_eq!(stored(&app, &api, "org", "icp").await["value"], "Banks only");

    // Search a company, open its card, add it to the pipeline.
    page.open(&app.url("/app/companies")).await;
    page.type_into("#company-q", "apple.com").await;
    page.click("#company-search button[type=submit]").await;
    page.until(&format!("!!document.querySelector(\"#company-results tr[data-slug='{slug}']\")"), "the result").await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("companies", width), true).await;
    }
    page.click(&format!("#company-results tr[data-slug='{slug}'] a")).await;
    page.until("!!document.querySelector('#why-now a.filing')", "the card").await;
    for width in [375, 1440] {
        page.screenshot(width, &shoot("company-card", width), true).await;
    }
    page.click("#add-deal summary").await;
    page.type_into("#deal-value", "250000").await;
    page.type_into("#deal-rep", "Ada Park").await;
    page.choose("#deal-closeDate", "2027-06-30").await;
    page.click("#add-deal button[type=submit]").await;
    page.until("location.pathname.startsWith('/app/deals/') && !!document.querySelector('#company-card')", "the deal")
        .await;
    let id = page.eval("location.pathname.split('/').pop()").await.as_str().expect("id").to_owned();
    assert_eq!(app.get_json(&api, &format!("/api/deals/{id}")).await["companySlug"], slug.as_str());

    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
