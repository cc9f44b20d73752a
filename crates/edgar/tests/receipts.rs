//! The truth rule over every generated card, not a sample: each claim (statement, executive,
//! subsidiary) carries the address of its record — an EDGAR URL, or the company's own press
//! release (source `press_release`) — and a quote that stands verbatim in the record's text. The source documents live in `../shared/data` beside the repository (present on
//! developer machines and in CI; set GTMS_SHARED_DATA to point elsewhere). Without them only the URL checks run.

use std::collections::HashMap;
use std::path::PathBuf;

use gtms_companies::assets::AssetTable;
use gtms_companies::directory::Directory;
use gtms_companies::domain::{Receipt, Source};
use gtms_edgar::extract::documents::{DocText, Loaded, load};
use gtms_edgar::extract::manifest::read_manifest;
use gtms_edgar::extract::press::read_releases;

/// The repository's root (tests run in this crate's directory).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("GTMS_SHARED_DATA").map(PathBuf::from).unwrap_or_else(|| root().join("../shared/data"));
    dir.join("filings/manifest.csv").exists().then_some(dir)
}

fn all_receipts(dir: &Directory) -> Vec<(String, Receipt)> {
    let mut out = Vec::new();
    for card in dir.cards() {
        let statements = card.why_now.iter().map(|c| c.receipt().clone());
        let people = card.executives.iter().map(|c| c.receipt().clone());
        let family = card.family.subsidiaries.iter().map(|c| c.receipt().clone());
        out.extend(statements.chain(people).chain(family).map(|r| (card.slug.clone(), r)));
    }
    out
}

#[test]
fn every_claim_on_every_card_is_a_verbatim_quote_of_its_edgar_document() {
    let assets = AssetTable::embedded();
    let dir = Directory::over_embedded(&assets).expect("directory");
    let receipts = all_receipts(&dir);
    assert!(dir.with_page() > 0 && !receipts.is_empty());
    for (slug, r) in &receipts {
        match r.source() {
            Source::Edgar => {
                assert!(r.url().starts_with("https://www.sec.gov/Archives/edgar/data/"), "{slug}: {}", r.url());
            }
            Source::PressRelease => {
                assert!(r.url().starts_with("https://") && r.accession().is_none(), "{slug}: {}", r.url());
                assert_eq!(r.form(), "press release", "{slug}");
            }
        }
        assert!(!r.quote().trim().is_empty(), "{slug}");
    }
    let Some(data) = shared_data() else {
        eprintln!("../shared/data not found: verified URLs of {} receipts, not their quotes", receipts.len());
        return;
    };

    let manifest = read_manifest(&data).expect("manifest");
    let mut rows_by_url: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, row) in manifest.iter().enumerate() {
        rows_by_url.entry(row.url.as_str()).or_default().push(i);
    }
    let mut texts: HashMap<String, Vec<DocText>> = HashMap::new();
    for release in read_releases(&data).expect("press releases").into_values().flatten() {
        texts.entry(release.url).or_default().push(release.text);
    }
    let mut missing = Vec::new();
    for (slug, receipt) in &receipts {
        let docs = texts.entry(receipt.url().to_owned()).or_insert_with(|| {
            let rows = rows_by_url.get(receipt.url()).cloned().unwrap_or_default();
            rows.iter()
                .filter_map(|&i| load(&data, &manifest[i]).ok())
                .flat_map(|loaded| match loaded {
                    Loaded::Text(t) => vec![t],
                    Loaded::Submission(parts) => parts.into_iter().map(|p| p.text).collect(),
                })
                .collect()
        });
        if !docs.iter().any(|d| d.contains_verbatim(receipt.quote())) {
            missing.push(format!("{slug}: {:?} not in {}", receipt.quote(), receipt.url()));
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {} quotes not found verbatim:\n{}",
        missing.len(),
        receipts.len(),
        missing.join("\n")
    );
    eprintln!("verified {} receipts on {} cards against {} documents", receipts.len(), dir.with_page(), texts.len());
}

/// Every executive of the committed extract is proven by its quote: the quote holds each
/// word of the person's name (as the document writes it, in any case and order, since Forms
/// 3/4/5 put the last name first) and the whole title offered; titles carry no dates.
#[test]
fn every_executive_quote_shows_the_name_and_the_whole_title() {
    let file = std::fs::File::open(root().join("seed/companies.jsonl")).expect("seed/companies.jsonl");
    let companies = gtms_companies::seed::read_companies(std::io::BufReader::new(file)).expect("seed");
    let months = [
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let mut checked = 0;
    let mut failures = Vec::new();
    for c in &companies {
        for e in &c.executives {
            let (name, title) = (&e.value().name, &e.value().title);
            let quote = e.receipt().quote().to_lowercase();
            let name_shown = name
                .split_whitespace()
                .map(|w| w.trim_matches(|ch: char| !ch.is_alphanumeric()).to_lowercase())
                .filter(|w| w.len() > 1)
                .all(|w| quote.contains(&w));
            let lower_title = title.to_lowercase();
            let dated = lower_title.split_whitespace().any(|w| {
                months.contains(&w.trim_matches(',')) || (w.len() == 4 && w.chars().all(|ch| ch.is_ascii_digit()))
            });
            if !name_shown || !quote.contains(&lower_title) || dated {
                failures.push(format!("{}: {name} / {title}: {:?}", c.cik, e.receipt().quote()));
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "{} of {checked} executives not proven:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{checked} executives proven by their quotes");
}
