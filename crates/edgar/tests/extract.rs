//! End-to-end test of `gtms-edgar extract` on the miniature data directory in
//! `tests/fixtures/edgar/data`: real EDGAR documents (a Meta 8-K, an ABVC full submission
//! and press release) plus a synthetic filer with extracted 10-K text, an inline-XBRL 10-K
//! with a hidden header, an Exhibit 21 and a 10-K item JSON that must not back any quote.

use std::path::{Path, PathBuf};

use gtms_companies::seed::{COMPANIES_FILE, SeedCompany, read_companies};
use gtms_edgar::extract::run;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/edgar/data")
}

fn extract_into(out: &Path) -> (gtms_edgar::extract::ExtractReport, Vec<u8>) {
    let report = match run(&data_dir(), out, false) {
        Ok(r) => r,
        Err(e) => panic!("extraction failed: {e}"),
    };
    let bytes = std::fs::read(out.join(COMPANIES_FILE)).unwrap_or_default();
    (report, bytes)
}

fn companies(bytes: &[u8]) -> Vec<SeedCompany> {
    read_companies(bytes).unwrap_or_default()
}

fn company<'a>(all: &'a [SeedCompany], cik: &str) -> &'a SeedCompany {
    match all.iter().find(|c| c.cik == cik) {
        Some(c) => c,
        None => panic!("no row for {cik}"),
    }
}

#[test]
fn every_tracked_company_gets_one_row_sorted_by_cik_with_identity_and_reference_data() {
    let out = tempfile::tempdir().expect("valid");
    let (report, bytes) = extract_into(out.path());
    let all = companies(&bytes);
    let ciks: Vec<&str> = all.iter().map(|c| c.cik.as_str()).collect();
    assert_eq!(ciks, vec!["0000000002", "0000000003", "0001173313", "0001326801"]);
    assert_eq!(report.tracked, 4);

    let zed = company(&all, "0000000002");
    assert_eq!(zed.tickers, vec!["ZZZ", "ZZZ-A"], "plain ticker first");
    assert_eq!(zed.domain, None, "a name_match=no website is not used");
    assert!(zed.statements.is_empty());

    let meta = company(&all, "0001326801");
    assert_eq!(meta.domain.as_deref(), Some("fb.com"));
    assert_eq!(meta.sector.as_deref(), Some("Communication Services"));
    let exmp = company(&all, "0000000003");
    assert_eq!(exmp.domain.as_deref(), Some("example-widgets.com"));
    assert_eq!(company(&all, "0001173313").sector.as_deref(), Some("Biotechnology"));
    assert_eq!(report.domains, 2);
}

#[test]
fn statements_are_receipted_verbatim_and_come_only_from_exact_or_inferred_documents() {
    let out = tempfile::tempdir().expect("valid");
    let (report, bytes) = extract_into(out.path());
    let all = companies(&bytes);
    let exmp = company(&all, "0000000003");
    let texts: Vec<&str> = exmp.statements.iter().map(|s| s.value().text.as_str()).collect();
    assert!(
        texts.contains(
            &"In 2022, we acquired Gearworks Inc. of Ohio for $45 million to add precision gear manufacturing."
        )
    );
    assert!(texts.iter().any(|t| t.starts_with("In March 2023, we launched the WidgetPro")));
    assert!(!texts.iter().any(|t| t.contains("Secret Items")), "10-K item JSON has only an index URL");
    assert!(!texts.iter().any(|t| t.contains("Hidden Header")), "ix:header content is hidden");
    assert!(!texts.iter().any(|t| t.contains("forward-looking") || t.contains('@')));
    for s in &exmp.statements {
        let r = s.receipt();
        assert_eq!(r.quote(), s.value().text);
        assert!(r.url().ends_with(".htm") && !r.url().ends_with("-index.htm"));
    }
    // The inferred 10-K had no filing date in the manifest; the SGML header index gives it.
    assert!(exmp.statements.iter().any(|s| s.receipt().filed() == "2024-02-20"));
    let meta = company(&all, "0001326801");
    assert!(
        meta.statements.iter().any(|s| s.value().kind.as_str() == "leadership_change" && s.receipt().form() == "8-K")
    );
    assert!(report.with_statements >= 2);
    assert_eq!(report.dropped_quotes, 0);
}

#[test]
fn executives_and_subsidiaries_are_cleaned_and_receipted_by_their_lines() {
    let out = tempfile::tempdir().expect("valid");
    let (_, bytes) = extract_into(out.path());
    let all = companies(&bytes);
    let exmp = company(&all, "0000000003");
    let people: Vec<(&str, &str)> =
        exmp.executives.iter().map(|e| (e.value().name.as_str(), e.value().title.as_str())).collect();
    assert_eq!(
        people,
        vec![
            ("Jane Q. Example", "President, Chief Executive Officer and Director"),
            ("John Roe", "Executive Vice President and Chief Financial Officer")
        ]
    );
    assert!(exmp.executives[0].receipt().quote().contains("JANE Q. EXAMPLE"));
    let subs: Vec<(&str, Option<&str>)> =
        exmp.subsidiaries.iter().map(|s| (s.value().name.as_str(), s.value().jurisdiction.as_deref())).collect();
    assert_eq!(
        subs,
        vec![
            ("Gearworks Inc.", Some("Ohio")),
            ("Example Widgets Europe B.V.", Some("Netherlands")),
            ("Widget Finance LLC", Some("Delaware"))
        ]
    );
    let meta = company(&all, "0001326801");
    assert_eq!(meta.executives.len(), 1);
    assert_eq!(meta.executives[0].value().title, "Vice President and Corporate Secretary");
}

#[test]
fn a_second_run_writes_byte_identical_output() {
    let (a, b) = (tempfile::tempdir(), tempfile::tempdir());
    let (a, b) = match (a, b) {
        (Ok(a), Ok(b)) => (a, b),
        _ => panic!("no temp dirs"),
    };
    let (_, first) = extract_into(a.path());
    let (_, second) = extract_into(b.path());
    assert!(!first.is_empty());
    assert_eq!(first, second);
    let (_, again) = extract_into(a.path());
    assert_eq!(first, again, "overwriting in place gives the same bytes");
    let leftovers: Vec<_> =
        std::fs::read_dir(a.path()).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert_eq!(leftovers, vec![std::ffi::OsString::from(COMPANIES_FILE)], "no temporary file left behind");
}
