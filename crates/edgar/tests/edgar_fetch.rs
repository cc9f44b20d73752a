//! `gtms_edgar::fetch` end to end against a tiny fake EDGAR inside the test (submissions
//! JSON, an 8-K filing index, documents; one 429 on the first try): the fetch follows the
//! fair-access rules (declared User-Agent, retry on 429), writes the corpus layout, resumes
//! without fetching again, and `edgar-extract` + `ingest` on what it fetched give a card
//! whose statements are receipted by the fetched documents' exact EDGAR URLs.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gtms_companies::seed::read_companies;
use gtms_edgar::fetch::{FetchOptions, run};

const CIK: &str = "0000000042";

fn filings() -> HashMap<String, (u16, String)> {
    let submissions = serde_json::json!({"cik": "42", "name": "ACME WIDGETS INC", "filings": {"recent": {
        "accessionNumber": ["0000000042-24-000007", "0000000042-24-000005", "0000000042-24-000003", "0000000042-24-000001"],
        "filingDate": ["2024-05-02", "2024-04-01", "2024-03-15", "2024-02-20"],
        "form": ["8-K", "4", "DEF 14A", "10-K"],
        "primaryDocument": ["acme-8k.htm", "form4.xml", "acme-def14a.htm", "acme-20231231.htm"]
    }}});
    let archive = "/Archives/edgar/data/42";
    let page = |body: &str| format!("<html><body>{body}</body></html>");
    [
        (format!("/submissions/CIK{CIK}.json"), submissions.to_string()),
        (format!("{archive}/000000004224000001/index.json"), serde_json::json!({"directory": {"item": [{"name": "acme-20231231.htm"}, {"name": "acme-ex21.htm"}]}}).to_string()),
        (format!("{archive}/000000004224000001/acme-ex21.htm"), page("<p>Subsidiaries of the Registrant</p><table><tr><td>Gearbox Robotics LLC</td><td>Delaware</td></tr></table>")),
        (format!("{archive}/000000004224000001/acme-20231231.htm"), page("<p>Item 1. Business</p><p>In January 2024, we acquired Gearbox Robotics, a maker of warehouse robots, for $80 million.</p><p>SIGNATURES</p><table><tr><td>/s/ Jane Acme</td><td>President and Chief Executive Officer</td><td>February 20, 2024</td></tr></table>")),
        (format!("{archive}/000000004224000003/acme-def14a.htm"), page("<p>Our Board of Directors declared a quarterly dividend of $0.10 per share on March 1, 2024.</p>")),
        (format!("{archive}/000000004224000007/acme-8k.htm"), page("<p>Item 8.01 Other Events. The press release is attached as Exhibit 99.1.</p>")),
        (format!("{archive}/000000004224000007/index.json"), serde_json::json!({"directory": {"item": [{"name": "acme-8k.htm"}, {"name": "acme-ex991.htm"}, {"name": "acme-ex101.htm"}]}}).to_string()),
        (format!("{archive}/000000004224000007/acme-ex991.htm"), page("<p>ACME, Ohio, May 2, 2024. On May 1, 2024, we opened a new distribution center in Columbus, Ohio, adding 300 jobs.</p>")),
    ]
    .into_iter()
    .map(|(path, body)| (path, (200, body)))
    .collect()
}

struct Fake {
    base: String,
    seen: Arc<Mutex<Vec<(String, String)>>>,
}

/// Serves `filings()`; the 10-K answers 429 the first time.
async fn fake_edgar() -> Fake {
    use warp::Filter;
    let files = Arc::new(filings());
    let seen: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let log = seen.clone();
    let routes = warp::path::full().and(warp::header::optional::<String>("user-agent")).map(
        move |path: warp::path::FullPath, ua: Option<String>| {
            let path = path.as_str().to_owned();
            let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
            let first_try = !log.iter().any(|(p, _)| *p == path);
            log.push((path.clone(), ua.unwrap_or_default()));
            let (status, body) = match files.get(&path) {
                Some(_) if path.ends_with("acme-20231231.htm") && first_try => (429, String::new()),
                Some((s, b)) => (*s, b.clone()),
                None => (404, String::new()),
            };
            let status = warp::http::StatusCode::from_u16(status).unwrap_or(warp::http::StatusCode::NOT_FOUND);
            warp::reply::with_status(body, status)
        },
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("valid");
    let addr = listener.local_addr().expect("valid");
    tokio::spawn(warp::serve(routes).incoming(listener).run());
    Fake { base: format!("http://{addr}"), seen }
}

fn corpus(dir: &Path) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/edgar/data/reference");
    std::fs::create_dir_all(dir.join("reference")).expect("valid");
    for entry in std::fs::read_dir(&fixtures).expect("valid").flatten() {
        std::fs::copy(entry.path(), dir.join("reference").join(entry.file_name())).expect("valid");
    }
    std::fs::create_dir_all(dir.join("registrants")).expect("valid");
    std::fs::write(
        dir.join("registrants/company_tickers_exchange.csv"),
        format!("cik,ticker,exchange,name\n{CIK},ACME,NYSE,ACME WIDGETS INC\n"),
    )
    .expect("valid");
}

fn options(dir: &Path, base: &str) -> FetchOptions {
    FetchOptions {
        out: dir.to_owned(),
        companies: vec!["ACME".into()],
        user_agent: "gtms test ops@example.com".into(),
        data_base: base.to_owned(),
        archives_base: base.to_owned(),
        per_form: 2,
        since: None,
        min_interval: Duration::from_millis(1),
        backoff: Duration::from_millis(5),
        show_progress: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_then_extract_and_ingest_gives_a_receipted_card() {
    let fake = fake_edgar().await;
    let dir = tempfile::tempdir().expect("valid");
    corpus(dir.path());
    let opts = options(dir.path(), &fake.base);
    let first = tokio::task::spawn_blocking(move || run(&opts)).await.expect("valid");
    let first = first.unwrap_or_else(|e| panic!("fetch failed: {e}"));
    assert_eq!((first.companies, first.fetched, first.skipped), (1, 5, 0), "10-K, EX-21, DEF 14A, 8-K, EX-99");
    {
        let seen = fake.seen.lock().unwrap_or_else(|e| e.into_inner());
        assert!(seen.iter().all(|(_, ua)| ua == "gtms test ops@example.com"), "declared User-Agent on every request");
        assert_eq!(seen.iter().filter(|(p, _)| p.ends_with("acme-20231231.htm")).count(), 2, "retried after 429");
        assert!(!seen.iter().any(|(p, _)| p.ends_with("form4.xml") || p.ends_with("acme-ex101.htm")));
    }
    let manifest = std::fs::read_to_string(dir.path().join("filings/manifest.csv")).unwrap_or_default();
    assert_eq!(manifest.lines().count(), 6, "{manifest}");
    assert!(manifest.contains(",EX-99,2024-05-02,0000000042-24-000007,acme-ex991.htm,"));

    // Resumes: everything is on disk, nothing is fetched again but the submissions JSON and the index.
    let opts = options(dir.path(), &fake.base);
    let again = tokio::task::spawn_blocking(move || run(&opts)).await.expect("valid");
    let again = again.expect("valid");
    assert_eq!((again.fetched, again.skipped, again.requests), (0, 5, 3), "submissions and two indexes");

    let seed = dir.path().join("seed");
    let report = gtms_edgar::extract::run(dir.path(), &seed, false).expect("valid");
    assert_eq!(report.with_statements, 1);
    let bytes = std::fs::read(seed.join("companies.jsonl")).unwrap_or_default();
    let companies = read_companies(bytes.as_slice()).unwrap_or_default();
    let acme = &companies[0];
    let kinds: Vec<&str> = acme.statements.iter().map(|s| s.value().kind.as_str()).collect();
    assert!(kinds.contains(&"acquisition") && kinds.contains(&"expansion") && kinds.contains(&"dividend"), "{kinds:?}");
    for s in &acme.statements {
        assert!(s.receipt().url().starts_with("https://www.sec.gov/Archives/edgar/data/42/000000004224"));
    }
    let family: Vec<&str> = acme.subsidiaries.iter().map(|s| s.value().name.as_str()).collect();
    assert_eq!(family, vec!["Gearbox Robotics LLC"], "the fetched EX-21 gives the family");
    assert!(acme.subsidiaries[0].receipt().url().ends_with("/000000004224000001/acme-ex21.htm"));
    let assets = dir.path().join("assets");
    let ingest = gtms_companies::ingest::run(&seed, &assets, "http://127.0.0.1:3000");
    let ingest = ingest.unwrap_or_else(|e| panic!("ingest: {e}"));
    assert_eq!(ingest.with_page, 1);
    assert!(assets.join("public/company/data/acme-widgets.json").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn since_fetches_only_filings_newer_than_the_corpus() {
    let fake = fake_edgar().await;
    let dir = tempfile::tempdir().expect("valid");
    corpus(dir.path());
    let mut opts = options(dir.path(), &fake.base);
    opts.since = Some("2024-04-01".into());
    let report = tokio::task::spawn_blocking(move || run(&opts)).await.expect("valid").expect("fetch");
    assert_eq!((report.fetched, report.skipped), (2, 0), "the 8-K of 2024-05-02 and its EX-99 only");
    let seen = fake.seen.lock().unwrap_or_else(|e| e.into_inner());
    assert!(!seen.iter().any(|(p, _)| p.contains("000000004224000001") || p.contains("000000004224000003")));
}

#[tokio::test]
async fn a_user_agent_without_a_contact_is_refused_before_any_request() {
    let dir = tempfile::tempdir().expect("valid");
    corpus(dir.path());
    let mut opts = options(dir.path(), "http://127.0.0.1:9");
    opts.user_agent = "gtms".into();
    let err = tokio::task::spawn_blocking(move || run(&opts)).await.expect("valid");
    assert!(matches!(err, Err(gtms_edgar::fetch::FetchError::UserAgent)), "{err:?}");
}
