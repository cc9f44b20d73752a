//! Domains and sectors from the third-party reference tables, following the coverage rules
//! of the data README. Domain: FinanceDatabase `website`, then pytickersymbols
//! `metadata.website`, then FinanceDatabase v1 (only rows with `name_match=yes`). Sector:
//! FinanceDatabase `sector`, then the S&P 500 GICS sector (by CIK), then the
//! pytickersymbols industry, the market-tickers `category name`, then FinanceDatabase v1
//! `sector` (`name_match=yes`). Tickers are compared with `.` and `-` alike; a CIK's
//! tickers are tried primary first. Reads only `reference/`.

use std::collections::BTreeMap;
use std::path::Path;

use super::ExtractError;
use super::registry::{Tracked, normalise_cik, ticker_key};

/// What the reference tables say about one company.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Reference {
    pub domain: Option<String>,
    pub sector: Option<String>,
}

/// One table's facts, keyed by ticker key.
type ByTicker = BTreeMap<String, String>;

#[derive(Default)]
struct Tables {
    fd_website: ByTicker,
    fd_sector: ByTicker,
    pyt_website: ByTicker,
    pyt_sector: ByTicker,
    mt_sector: ByTicker,
    sp500_sector: BTreeMap<String, String>,
    v1_website: BTreeMap<String, String>,
    v1_sector: BTreeMap<String, String>,
}

/// Looks up domain and sector for every tracked company.
pub fn resolve(
    data_dir: &Path,
    tracked: &BTreeMap<String, Tracked>,
) -> Result<BTreeMap<String, Reference>, ExtractError> {
    let t = read_tables(data_dir)?;
    Ok(tracked
        .values()
        .map(|c| {
            let keys: Vec<String> = c.tickers.iter().map(|t| ticker_key(t)).collect();
            let by_ticker = |table: &ByTicker| keys.iter().find_map(|k| table.get(k)).cloned();
            let domain = [by_ticker(&t.fd_website), by_ticker(&t.pyt_website), t.v1_website.get(&c.cik).cloned()]
                .into_iter()
                .flatten()
                .find_map(|w| registrable_domain(&w));
            let sector = [
                by_ticker(&t.fd_sector),
                t.sp500_sector.get(&c.cik).cloned(),
                by_ticker(&t.pyt_sector),
                by_ticker(&t.mt_sector),
                t.v1_sector.get(&c.cik).cloned(),
            ]
            .into_iter()
            .flatten()
            .next();
            (c.cik.clone(), Reference { domain, sector })
        })
        .collect())
}

/// The registrable domain of a website address: no scheme, `www.`, port or path, lowercase.
pub fn registrable_domain(website: &str) -> Option<String> {
    let w = website.trim().to_ascii_lowercase();
    let w = w.split_once("://").map_or(w.as_str(), |(_, rest)| rest);
    let host = w.split(['/', '?', '#', ':']).next()?.trim_end_matches('.');
    if host.is_empty() || !host.contains('.') || host.contains(|c: char| c.is_whitespace() || c == '@') {
        return None;
    }
    psl::domain_str(host).map(str::to_owned)
}

fn read_tables(dir: &Path) -> Result<Tables, ExtractError> {
    let mut t = Tables::default();
    for row in read_csv(&dir.join("reference/financedatabase_equities_us.csv"))? {
        let key = ticker_key(field(&row, "symbol"));
        insert_first(&mut t.fd_website, &key, field(&row, "website"));
        insert_first(&mut t.fd_sector, &key, field(&row, "sector"));
    }
    for row in read_csv(&dir.join("reference/sp500_constituents.csv"))? {
        if let Some(cik) = normalise_cik(field(&row, "CIK")) {
            insert_first(&mut t.sp500_sector, &cik, field(&row, "GICS Sector"));
        }
    }
    for row in read_csv(&dir.join("reference/stocks_usa.csv"))? {
        insert_first(&mut t.mt_sector, &ticker_key(field(&row, "ticker")), field(&row, "category name"));
    }
    for row in read_csv(&dir.join("reference/financedatabase_v1_us_websites.csv"))? {
        let Some(cik) = normalise_cik(field(&row, "cik")) else {
            continue;
        };
        if field(&row, "name_match") == "yes" {
            insert_first(&mut t.v1_website, &cik, field(&row, "website"));
            insert_first(&mut t.v1_sector, &cik, field(&row, "sector"));
        }
    }
    read_index_companies(dir, &mut t)?;
    Ok(t)
}

/// pytickersymbols: the website from `metadata`, the sector as the last `industries` entry.
fn read_index_companies(dir: &Path, t: &mut Tables) -> Result<(), ExtractError> {
    let path = dir.join("reference/us_index_companies.json");
    let entries: Vec<serde_json::Value> = read_json(&path)?;
    for e in &entries {
        let Some(symbol) = e.get("symbol").and_then(|s| s.as_str()) else {
            continue;
        };
        let key = ticker_key(symbol);
        if let Some(w) = e.pointer("/metadata/website").and_then(|w| w.as_str()) {
            insert_first(&mut t.pyt_website, &key, w);
        }
        let sector = e.get("industries").and_then(|i| i.as_array()).and_then(|i| i.last()).and_then(|s| s.as_str());
        if let Some(s) = sector {
            insert_first(&mut t.pyt_sector, &key, s);
        }
    }
    Ok(())
}

/// Keeps the first non-empty value seen for a key (tables are read in file order).
fn insert_first(map: &mut BTreeMap<String, String>, key: &str, value: &str) {
    let value = value.trim();
    if !key.is_empty() && !value.is_empty() {
        map.entry(key.to_owned()).or_insert_with(|| value.to_owned());
    }
}

type CsvRow = BTreeMap<String, String>;

fn read_csv(path: &Path) -> Result<Vec<CsvRow>, ExtractError> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| ExtractError::csv(path, e))?;
    reader.deserialize::<CsvRow>().map(|r| r.map_err(|e| ExtractError::csv(path, e))).collect()
}

fn field<'a>(row: &'a CsvRow, name: &str) -> &'a str {
    row.get(name).map_or("", String::as_str)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ExtractError> {
    let file = std::fs::File::open(path).map_err(|e| ExtractError::io(path, e))?;
    serde_json::from_reader(std::io::BufReader::new(file)).map_err(|e| ExtractError::json(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websites_become_registrable_domains() {
        assert_eq!(registrable_domain("http://www.agilent.com").as_deref(), Some("agilent.com"));
        assert_eq!(registrable_domain("https://investor.Apple.com/x?y").as_deref(), Some("apple.com"));
        assert_eq!(registrable_domain("3m.com").as_deref(), Some("3m.com"));
        assert_eq!(registrable_domain("www.bbc.co.uk:443").as_deref(), Some("bbc.co.uk"));
        assert_eq!(registrable_domain("n/a"), None);
        assert_eq!(registrable_domain(""), None);
    }
}
