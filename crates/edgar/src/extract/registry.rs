//! The tracked companies: every CIK in `registrants/company_tickers_exchange.csv`, one
//! entry per CIK with all its tickers (share classes, preferreds). The primary ticker is
//! chosen deterministically: a ticker without a class suffix (`-A`, `.B`) first, then the
//! shortest, then alphabetical. Reads only that one table.

use std::collections::BTreeMap;
use std::path::Path;

use super::ExtractError;

pub const TICKERS_FILE: &str = "registrants/company_tickers_exchange.csv";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tracked {
    pub cik: String,
    /// Primary first.
    pub tickers: Vec<String>,
    /// Exchange of the primary ticker.
    pub exchange: String,
    pub legal_name: String,
}

#[derive(serde::Deserialize)]
struct Row {
    cik: String,
    ticker: String,
    exchange: String,
    name: String,
}

/// Reads the tickers table into tracked companies keyed (and so sorted) by CIK.
pub fn read_tracked(data_dir: &Path) -> Result<BTreeMap<String, Tracked>, ExtractError> {
    let path = data_dir.join(TICKERS_FILE);
    let mut reader = csv::Reader::from_path(&path).map_err(|e| ExtractError::csv(&path, e))?;
    let mut rows: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for row in reader.deserialize::<Row>() {
        let row = row.map_err(|e| ExtractError::csv(&path, e))?;
        let Some(cik) = normalise_cik(&row.cik) else {
            continue;
        };
        if row.ticker.trim().is_empty() {
            continue;
        }
        rows.entry(cik).or_default().push(row);
    }
    Ok(rows
        .into_iter()
        .filter_map(|(cik, mut rows)| {
            rows.sort_by(|a, b| ticker_order(&a.ticker, &b.ticker));
            rows.dedup_by(|a, b| a.ticker == b.ticker);
            let primary = rows.first()?;
            let tracked = Tracked {
                cik: cik.clone(),
                exchange: primary.exchange.trim().to_owned(),
                legal_name: primary.name.trim().to_owned(),
                tickers: rows.iter().map(|r| r.ticker.trim().to_owned()).collect(),
            };
            Some((cik, tracked))
        })
        .collect())
}

/// Zero-pads a CIK to ten digits; `None` when it is not a number.
pub fn normalise_cik(raw: &str) -> Option<String> {
    let t = raw.trim();
    let n: u64 = t.parse().ok()?;
    (n > 0).then(|| format!("{n:010}"))
}

fn has_class_suffix(ticker: &str) -> bool {
    ticker.contains(['-', '.', '/'])
}

fn ticker_order(a: &str, b: &str) -> std::cmp::Ordering {
    (has_class_suffix(a), a.len(), a).cmp(&(has_class_suffix(b), b.len(), b))
}

/// A ticker as the reference tables may spell it (`BRK.B` and `BRK-B` are the same).
pub fn ticker_key(ticker: &str) -> String {
    ticker.trim().to_ascii_uppercase().replace(['.', '/'], "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_tickers_come_before_share_classes_then_shortest_then_alphabetical() {
        let mut t = vec!["BRK-B", "BRK-A", "GOOGL", "GOOG", "AB"];
        t.sort_by(|a, b| ticker_order(a, b));
        assert_eq!(t, vec!["AB", "GOOG", "GOOGL", "BRK-A", "BRK-B"]);
    }

    #[test]
    fn ciks_are_zero_padded_and_junk_is_refused() {
        assert_eq!(normalise_cik("320193").as_deref(), Some("0000320193"));
        assert_eq!(normalise_cik("0000320193").as_deref(), Some("0000320193"));
        assert_eq!(normalise_cik("x"), None);
        assert_eq!(normalise_cik(""), None);
    }

    #[test]
    fn ticker_keys_treat_dot_and_dash_alike() {
        assert_eq!(ticker_key("brk.b"), ticker_key("BRK-B"));
    }
}
