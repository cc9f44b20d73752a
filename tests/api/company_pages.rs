//! The public company pages (`/company/{slug}`, the directory and its sector and letter hubs):
//! over HTTP, every page of the index answers HTML with the pages' CSP, within 30 kB, with the
//! card's claims and a schema.org `Organization`; the sitemap lists pages and JSON alike; a
//! browser asking for a missing page gets an HTML 404, an API client the envelope. In real
//! Chromium, a person walks from the directory to a letter, a company, its filing link and its
//! JSON card, and to a sector hub: no page reports an error, axe finds nothing serious in light
//! or dark, and a screenshot of each kind of page is saved under `target/company-pages/`.

use serde_json::Value;

use crate::browser::browser;
use crate::console_a11y::{axe_source, check};
use crate::envelope::assert_envelope;
use crate::helpers::spawn_app;

/// Page budget, bytes of HTML as served without compression.
const PAGE_BYTES: usize = 30 * 1024;

#[tokio::test]
async fn every_company_page_and_hub_is_html_within_budget_with_its_claims_and_json_ld() {
    let app = spawn_app().await;
    let index: Value = app.get("/company/data/index.json").await.json().await.expect("index");
    let sitemap = app.get("/sitemap.xml").await.text().await.expect("sitemap");
    let mut largest = 0;
    for company in index["companies"].as_array().expect("companies") {
        let slug = company["slug"].as_str().expect("slug");
        let res = app.get(&format!("/company/{slug}")).await;
        assert_eq!(res.status(), 200, "{slug}");
        let headers = res.headers().clone();
        assert_eq!(headers["content-type"], "text/html; charset=utf-8");
        let csp = headers["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("default-src 'none'") && !csp.contains("unsafe"), "{csp}");
        let html = res.text().await.expect("html");
        largest = largest.max(html.len());
        assert!(html.len() <= PAGE_BYTES, "{slug}: {} bytes", html.len());
        let card: Value = app.get(&format!("/company/data/{slug}.json")).await.json().await.expect("card");
        for claim in
            card["why_now"].as_array().into_iter().flatten().chain(card["executives"].as_array().into_iter().flatten())
        {
            let url = claim["receipt"]["url"].as_str().expect("url").replace('&', "&amp;");
            assert!(html.contains(&format!("href=\"{url}\"")), "{slug}: the filing link {url}");
        }
        let ld = html.split("<script type=\"application/ld+json\">").nth(1).and_then(|r| r.split("</script>").next());
        let ld: Value = serde_json::from_str(ld.expect("JSON-LD")).expect("JSON-LD parses");
        assert_eq!(
            (ld["@type"].as_str(), ld["legalName"].as_str()),
            (Some("Organization"), card["legal_name"].as_str())
        );
        assert!(html.contains(card["freshness"].as_str().expect("freshness")), "{slug}: the freshness sentence");
        assert!(sitemap.contains(&format!("/company/{slug}</loc>")), "{slug} in the sitemap");
        assert!(sitemap.contains(&format!("/company/data/{slug}.json</loc>")), "{slug}'s JSON in the sitemap");
    }
    eprintln!("the largest company page is {largest} bytes");
    let hubs = index["sectors"]
        .as_array()
        .expect("sectors")
        .iter()
        .map(|s| format!("/company/sector/{}", s["slug"].as_str().unwrap_or("")));
    let letters = index["letters"]
        .as_array()
        .expect("letters")
        .iter()
        .map(|l| format!("/company/letter/{}", l["letter"].as_str().unwrap_or("")));
    for path in hubs.chain(letters).chain(["/company/".to_owned()]) {
        let res = app.get(&path).await;
        assert_eq!(res.status(), 200, "{path}");
        assert_eq!(res.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert!(sitemap.contains(&format!("{path}</loc>")), "{path} in the sitemap");
    }
    let bare = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
    let redirect = bare.get(app.url("/company")).send().await.expect("get");
    assert_eq!((redirect.status().as_u16(), redirect.headers()["location"].to_str().ok()), (308, Some("/company/")));
    let css = app.get("/company/page.css").await;
    assert_eq!(css.headers()["content-type"], "text/css; charset=utf-8");

    let missing =
        app.client.get(app.url("/company/no-such-company")).header("accept", "text/html").send().await.expect("get");
    assert_eq!(missing.status(), 404);
    assert_eq!(missing.headers()["content-type"], "text/html; charset=utf-8");
    assert!(missing.text().await.expect("html").contains("no company with that slug"));
    assert_envelope(app.get("/company/no-such-company").await, 404, "not_found").await;
    assert_envelope(app.get("/company/Bad_Slug").await, 404, "not_found").await;
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_walks_from_the_directory_to_a_company_and_its_receipts_in_chromium() {
    let app = spawn_app().await;
    let dir = tempfile::tempdir().expect("dir");
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/company-pages");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    page.watch_errors().await;
    let axe = axe_source();
    let mut violations = Vec::new();

    page.open(&app.url("/company/")).await;
    check(&mut page, &axe, "/company/", &mut violations).await;
    page.screenshot(1440, &shots.join("directory-1440.png"), true).await;
    page.click("nav.letters a[href='/company/letter/a']").await;
    page.until("location.pathname === '/company/letter/a' && document.readyState === 'complete'", "the letter A").await;
    check(&mut page, &axe, "/company/letter/a", &mut violations).await;
    let first = page.eval("document.querySelector('tbody a').getAttribute('href')").await;
    let first = first.as_str().expect("a company on the letter's page").to_owned();
    page.click("tbody a").await;
    page.until(&format!("location.pathname === {first:?} && document.readyState === 'complete'"), "the company page")
        .await;
    check(&mut page, &axe, &first, &mut violations).await;
    // The first screen at 375 px: the whole of a long page at phone width is a large capture,
    // slow for a loaded CI machine, and the layout shows in its first screen.
    page.screenshot(375, &shots.join("company-375.png"), false).await;
    page.screenshot(1440, &shots.join("company-1440.png"), true).await;
    let facts = page
        .eval(
            "[document.querySelector('h1').textContent, document.querySelectorAll('.claims li').length, \
        [...document.querySelectorAll('.source a')].every(a => a.href.startsWith('https://www.sec.gov/'))]",
        )
        .await;
    assert!(facts[0].as_str().is_some_and(|h| !h.is_empty()) && facts[1].as_u64() > Some(0), "{facts}");
    assert_eq!(facts[2], true, "every receipt links to EDGAR");
    let text = page.eval("document.body.innerText").await;
    let text = text.as_str().unwrap_or_default();
    assert!(!text.contains('@'), "no email address on the page");

    page.click("dd a[href$='.json']").await;
    page.until("location.pathname.endsWith('.json') && document.readyState === 'complete'", "the JSON card").await;
    // The browser shows a JSON document as text in a <pre> (with controls of its own around it).
    let card = page.eval("JSON.parse((document.querySelector('pre') ?? document.body).textContent).slug").await;
    assert_eq!(Some(format!("/company/{}", card.as_str().unwrap_or_default())), Some(first.clone()));

    page.open(&app.url(&first)).await;
    page.click(".crumbs a[href^='/company/sector/']").await;
    page.until(
        "location.pathname.startsWith('/company/sector/') && document.readyState === 'complete'",
        "the sector hub",
    )
    .await;
    check(&mut page, &axe, "sector hub", &mut violations).await;
    assert!(
        page.eval(&format!("!!document.querySelector('tbody a[href={first:?}]')")).await == true,
        "the company is in its sector"
    );
    page.screenshot(375, &shots.join("sector-375.png"), false).await;

    assert!(violations.is_empty(), "axe: {violations:#?}");
    // The browser's own view of the JSON card asks for /favicon.ico, which the appliance has not
    // (our pages name no icon to fetch): the viewer's request, not an error of the pages.
    page.errors.retain(|e| !e.contains("/favicon.ico"));
    assert!(page.errors.is_empty(), "the pages reported errors: {:#?}", page.errors);
    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
