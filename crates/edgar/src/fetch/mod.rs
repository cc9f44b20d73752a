//! `gtms-edgar fetch`: downloads, for chosen companies (tickers or CIKs, or every tracked
//! company), their recent 10-K (with its EX-21 list of subsidiaries), 10-Q, 8-K (with EX-99
//! press releases) and DEF 14A — only those filed on or after `--since` when given — from
//! SEC EDGAR into the corpus layout `gtms-edgar extract` reads: documents gzipped under
//! `filings/documents/<CIK10>/<ACCESSION>/`, one row each in `filings/manifest.csv` with
//! the document's exact EDGAR URL and filing date (from the submissions JSON). Follows the
//! SEC's fair-access rules: a declared User-Agent with a contact, at most 10 requests a
//! second, retries with backoff on 429/503. Resumable: a document already on disk is not
//! fetched again. A command-line tool only; nothing here runs while serving.

mod client;
mod manifest;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Deserialize;

use crate::extract::registry::{Tracked, read_tracked, ticker_key};
pub use client::{Client, FetchError};
use manifest::{Row, write_manifest};

/// The EDGAR origin every receipt URL names.
const EDGAR: &str = "https://www.sec.gov";

/// Forms fetched, and how many of the most recent of each.
pub const FORMS: [&str; 4] = ["10-K", "10-Q", "8-K", "DEF 14A"];

/// What to fetch and from where.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// The corpus directory (holds `registrants/company_tickers_exchange.csv`).
    pub out: PathBuf,
    /// Tickers or CIKs; empty = every tracked company.
    pub companies: Vec<String>,
    /// `Name contact@example.com`, as the SEC asks.
    pub user_agent: String,
    /// `https://data.sec.gov` (submissions JSON).
    pub data_base: String,
    /// `https://www.sec.gov` (archives).
    pub archives_base: String,
    pub per_form: usize,
    /// Only filings filed on or after this day (`YYYY-MM-DD`); all recent ones when `None`.
    pub since: Option<String>,
    pub min_interval: Duration,
    pub backoff: Duration,
    pub show_progress: bool,
}

/// Counts of one run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FetchReport {
    pub companies: usize,
    pub fetched: usize,
    pub skipped: usize,
    pub requests: usize,
}

impl std::fmt::Display for FetchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "companies {}, documents fetched {}, already present {}, requests {}",
            self.companies, self.fetched, self.skipped, self.requests
        )
    }
}

#[derive(Deserialize)]
struct Submissions {
    filings: Filings,
}
#[derive(Deserialize)]
struct Filings {
    recent: Recent,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Recent {
    accession_number: Vec<String>,
    filing_date: Vec<String>,
    form: Vec<String>,
    primary_document: Vec<String>,
}
#[derive(Deserialize)]
struct Index {
    directory: Directory,
}
#[derive(Deserialize)]
struct Directory {
    item: Vec<Item>,
}
#[derive(Deserialize)]
struct Item {
    name: String,
}

/// One filing chosen from the submissions JSON.
struct Filing {
    form: String,
    filed: String,
    accession: String,
    primary: String,
}

/// Runs the fetch (blocking; builds its own runtime).
pub fn run(opts: &FetchOptions) -> Result<FetchReport, FetchError> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(fetch_all(opts))
}

async fn fetch_all(opts: &FetchOptions) -> Result<FetchReport, FetchError> {
    if !opts.user_agent.contains('@') {
        return Err(FetchError::UserAgent);
    }
    let tracked = read_tracked(&opts.out).map_err(|e| FetchError::Corpus(e.to_string()))?;
    let chosen = choose(&tracked, &opts.companies)?;
    let client = Client::new(&opts.user_agent, opts.min_interval, opts.backoff)?;
    let mut rows = manifest::read_rows(&opts.out)?;
    let mut report = FetchReport { companies: chosen.len(), ..FetchReport::default() };
    let bar = progress(chosen.len(), opts.show_progress);
    for company in chosen {
        bar.set_message(company.tickers.first().cloned().unwrap_or_default());
        fetch_company(&client, opts, company, &mut rows, &mut report).await?;
        write_manifest(&opts.out, &rows)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    report.requests = client.requests();
    Ok(report)
}

/// The tracked companies named by ticker or CIK (all when none is named).
fn choose<'t>(tracked: &'t BTreeMap<String, Tracked>, ids: &[String]) -> Result<Vec<&'t Tracked>, FetchError> {
    if ids.is_empty() {
        return Ok(tracked.values().collect());
    }
    ids.iter()
        .map(|id| {
            let cik = crate::extract::registry::normalise_cik(id).filter(|_| id.chars().all(|c| c.is_ascii_digit()));
            let by_cik = cik.and_then(|c| tracked.get(&c));
            let key = ticker_key(id);
            by_cik
                .or_else(|| tracked.values().find(|t| t.tickers.iter().any(|k| ticker_key(k) == key)))
                .ok_or_else(|| FetchError::Unknown(id.clone()))
        })
        .collect()
}

async fn fetch_company(
    client: &Client,
    opts: &FetchOptions,
    company: &Tracked,
    rows: &mut BTreeMap<String, Row>,
    report: &mut FetchReport,
) -> Result<(), FetchError> {
    let url = format!("{}/submissions/CIK{}.json", opts.data_base, company.cik);
    let subs: Submissions = serde_json::from_slice(&client.get(&url).await?).map_err(|e| FetchError::Json(url, e))?;
    for filing in recent_filings(&subs.filings.recent, opts.per_form, opts.since.as_deref()) {
        // The receipt names the real EDGAR address; `archives_base` is only where to GET it.
        let path = format!(
            "/Archives/edgar/data/{}/{}",
            company.cik.trim_start_matches('0'),
            filing.accession.replace('-', "")
        );
        let folder = format!("{EDGAR}{path}");
        let source = format!("{}{path}", opts.archives_base);
        let mut documents = vec![(filing.primary.clone(), filing.form.clone())];
        // An 8-K's press releases (EX-99) and a 10-K's list of subsidiaries (EX-21), named in
        // the filing's index.
        let exhibit = match filing.form.as_str() {
            "8-K" => Some(("ex99", "EX-99")),
            "10-K" => Some(("ex21", "EX-21")),
            _ => None,
        };
        if let Some((marker, doc_type)) = exhibit {
            let url = format!("{source}/index.json");
            let index: Index =
                serde_json::from_slice(&client.get(&url).await?).map_err(|e| FetchError::Json(url, e))?;
            let exhibits = index.directory.item.into_iter().filter(|i| is_exhibit(&i.name, marker));
            documents.extend(exhibits.map(|i| (i.name, doc_type.to_owned())));
        }
        for (name, doc_type) in documents {
            let row = Row::new(company, &filing.form, &doc_type, &filing.filed, &filing.accession, &name, &folder);
            let path = opts.out.join(&row.local_path);
            if path.exists() {
                report.skipped += 1;
            } else {
                let body = client.get(&format!("{source}/{name}")).await?;
                manifest::write_gz(&path, &body)?;
                report.fetched += 1;
            }
            rows.insert(row.local_path.clone(), row);
        }
    }
    Ok(())
}

/// The newest `per_form` filings of each fetched form (the submissions list is newest first),
/// filed on or after `since` when given.
fn recent_filings(r: &Recent, per_form: usize, since: Option<&str>) -> Vec<Filing> {
    let mut taken: BTreeMap<&str, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for i in 0..r.form.len() {
        let form = r.form[i].as_str();
        let (Some(acc), Some(filed), Some(primary)) =
            (r.accession_number.get(i), r.filing_date.get(i), r.primary_document.get(i))
        else {
            continue;
        };
        let Some(wanted) = FORMS.iter().find(|f| **f == form) else {
            continue;
        };
        if since.is_some_and(|day| filed.as_str() < day) {
            continue;
        }
        let n = taken.entry(wanted).or_default();
        if *n < per_form && !primary.is_empty() && safe_name(primary) {
            *n += 1;
            out.push(Filing {
                form: form.to_owned(),
                filed: filed.clone(),
                accession: acc.clone(),
                primary: primary.clone(),
            });
        }
    }
    out
}

/// Exhibits are named after their number by every filing agent: `...ex99...` for a press
/// release, `...ex21...` for the list of subsidiaries.
fn is_exhibit(name: &str, marker: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains(marker)
        && (lower.ends_with(".htm") || lower.ends_with(".html") || lower.ends_with(".txt"))
        && safe_name(name)
}

/// A document name that stays inside its folder.
fn safe_name(name: &str) -> bool {
    !name.is_empty() && !name.contains('/') && !name.contains('\\') && !name.starts_with('.')
}

fn progress(len: usize, show: bool) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} companies {msg} {elapsed}") {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn press_releases_subsidiary_lists_and_safe_names() {
        assert!(is_exhibit("d123dex991.htm", "ex99") && is_exhibit("ea0238372-ex99_1.htm", "ex99"));
        assert!(!is_exhibit("d123dex101.htm", "ex99") && !is_exhibit("../ex99.htm", "ex99"));
        assert!(is_exhibit("aapl-20230930xex21.htm", "ex21") && !is_exhibit("aapl-ex211.pdf", "ex21"));
        assert!(!safe_name("a/b.htm") && safe_name("aapl-20230930.htm"));
    }

    #[test]
    fn the_newest_filings_of_each_form_are_chosen() {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        let r = Recent {
            accession_number: s(&["a1", "a2", "a3", "a4", "a5"]),
            filing_date: s(&["2024-05-01", "2024-04-01", "2024-03-01", "2024-02-01", "2024-01-01"]),
            form: s(&["8-K", "4", "8-K", "10-K", "8-K"]),
            primary_document: s(&["k1.htm", "x.xml", "k2.htm", "tenk.htm", "k3.htm"]),
        };
        let got: Vec<String> = recent_filings(&r, 2, None).into_iter().map(|f| f.accession).collect();
        assert_eq!(got, vec!["a1", "a3", "a4"]);
        let newer: Vec<String> = recent_filings(&r, 2, Some("2024-03-01")).into_iter().map(|f| f.accession).collect();
        assert_eq!(newer, vec!["a1", "a3"], "only filings on or after --since");
    }
}
