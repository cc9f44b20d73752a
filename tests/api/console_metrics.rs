//! The console's `/app/metrics` page (issue 24): signed out sent to sign in; signed in, the
//! four metric views as server-drawn SVG charts, each with an accessible name, a `<title>` per
//! bar and a table of its figures, with no inline style (the CSP forbids it); in Chromium, at
//! 375 and 1440 px, screenshots to `target/console/` and no chart wider than the page.

use gtms::domain::Role;

use crate::browser::browser;
use crate::console::no_redirects;
use crate::helpers::spawn_app;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_metrics_draws_the_four_views_as_named_charts() {
    let app = spawn_app().await;
    let job = gtms::jobs::standard(app.state()).into_iter().find(|j| j.name == "metrics-rollup").expect("job");
    gtms::jobs::run_once(app.state().store(), &job).await;

    let res = no_redirects().get(app.url("/app/metrics")).send().await.expect("get");
    assert_eq!(res.status(), 303, "signed out");
    assert_eq!(res.headers()["location"], "/app/login?next=%2Fapp%2Fmetrics");

    let viewer = app.token(Role::Viewer).await;
    let res = no_redirects().get(app.url("/app/metrics")).header("cookie", format!("gtms_session={viewer}")).send();
    let res = res.await.expect("get");
    assert_eq!(res.status(), 200);
    let html = res.text().await.expect("html");
    for section in ["metric-pipeline", "metric-tokens", "metric-consumption", "metric-workers"] {
        assert!(html.contains(&format!("id=\"{section}\"")), "the {section} section");
    }
    let charts: Vec<&str> = html.split("<svg ").skip(1).collect();
    assert!(charts.len() >= 4, "at least one chart per view, {} drawn", charts.len());
    for chart in &charts {
        let tag = chart.split('>').next().unwrap_or_default();
        assert!(tag.contains("role=\"img\"") && tag.contains("aria-label=\"") && tag.contains("viewBox="), "{tag}");
        assert!(chart.contains("<title>"), "a text alternative: {tag}");
    }
    for id in ["chart-pipeline-value", "chart-consumption", "chart-workers"] {
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
    assert!(html.matches("<table class=\"figures\"").count() >= 3, "the figures as tables");
    assert!(!html.contains(" style=") && !html.contains("<style"), "no inline style (CSP)");

    let dir = tempfile::tempdir().expect("dir");
    let (mut chromium, mut page) = browser(&dir.path().join("profile")).await;
    let (code, _) = app.invite(Role::Viewer).await;
    page.open(&app.url("/app/metrics")).await;
    page.until(
        "location.pathname === '/app/login' && !!document.querySelector('#invite-code')",
        "the redirect to sign-in",
    )
    .await;
    page.type_into("#invite-code", &code).await;
    page.click("form.card button[type=submit]").await;
    page.until("location.pathname === '/app/metrics' && !!document.querySelector('svg.chart')", "the metrics page")
        .await;
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/console");
    std::fs::create_dir_all(&shots).expect("screenshot dir");
    for width in [375, 1440] {
        page.screenshot(width, &shots.join(format!("metrics-{width}.png")), true).await;
    }
    let fits = "[...document.querySelectorAll('svg.chart')].every(s => s.getBoundingClientRect().right <= document.documentElement.clientWidth + 1)";
    let phone = serde_json::json!({"width": 375, "height": 900, "deviceScaleFactor": 1, "mobile": true});
    page.call("Emulation.setDeviceMetricsOverride", phone).await;
    assert_eq!(page.eval(fits).await, true, "every chart fits a 375 px page");
    page.call("Emulation.clearDeviceMetricsOverride", serde_json::json!({})).await;
    chromium.kill().await.expect("stop chromium");
    app.stop().await;
}
