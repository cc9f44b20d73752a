//! `filings/manifest.csv` and `fresh/manifest.csv` (the 2024–2026 filings, same columns, its
//! paths under `fresh/`): which stored document belongs to which company and filing, and at
//! which EDGAR address. Also fills missing filing dates from the metadata-only indexes
//! (`sgml_headers_sp500.csv`, `submissions_recent_filings.csv.gz`) by accession number,
//! and cleans stray markup out of the `form` column. Reads no document bodies.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use super::ExtractError;
use super::registry::normalise_cik;

pub const MANIFEST_FILE: &str = "filings/manifest.csv";

/// The fresher filings' manifest, read after the first when it is there.
pub const FRESH_MANIFEST_FILE: &str = "fresh/manifest.csv";

/// One stored document or text, as the manifest describes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct ManifestRow {
    pub cik: String,
    pub form: String,
    pub doc_type: String,
    pub filed: String,
    pub accession: String,
    pub document: String,
    pub url: String,
    pub url_confidence: String,
    pub content_kind: String,
    pub local_path: String,
}

impl ManifestRow {
    /// Whether the URL is the document's own address, so it may back a verbatim quote.
    pub fn quotable(&self) -> bool {
        matches!(self.url_confidence.as_str(), "exact" | "inferred")
    }

    pub fn is_full_submission(&self) -> bool {
        self.doc_type == "full-submission"
    }
}

/// Reads the manifests (`filings/`, then `fresh/` when present): CIKs zero-padded, forms
/// cleaned, missing `filed` dates filled from the filing indexes where the accession is known
/// there. Order is the files' order.
pub fn read_manifest(data_dir: &Path) -> Result<Vec<ManifestRow>, ExtractError> {
    let dates = filing_dates(data_dir)?;
    let mut rows = Vec::new();
    read_one(&data_dir.join(MANIFEST_FILE), &dates, &mut rows)?;
    let fresh = data_dir.join(FRESH_MANIFEST_FILE);
    if fresh.exists() {
        read_one(&fresh, &dates, &mut rows)?;
    }
    Ok(rows)
}

fn read_one(path: &Path, dates: &BTreeMap<String, String>, rows: &mut Vec<ManifestRow>) -> Result<(), ExtractError> {
    let mut reader = csv::Reader::from_path(path).map_err(|e| ExtractError::csv(path, e))?;
    for row in reader.deserialize::<ManifestRow>() {
        let mut row = row.map_err(|e| ExtractError::csv(path, e))?;
        let Some(cik) = normalise_cik(&row.cik) else {
            continue;
        };
        row.cik = cik;
        row.form = clean_form(&row.form);
        if row.filed.is_empty()
            && let Some(filed) = dates.get(&row.accession)
        {
            row.filed.clone_from(filed);
        }
        rows.push(row);
    }
    Ok(())
}

/// `8-K</strong>` → `8-K`: the form column sometimes carries the tail of an HTML cell.
pub fn clean_form(raw: &str) -> String {
    raw.split('<').next().unwrap_or("").trim().to_owned()
}

/// Accession → filing date from the metadata-only indexes.
pub fn filing_dates(data_dir: &Path) -> Result<BTreeMap<String, String>, ExtractError> {
    let mut dates = BTreeMap::new();
    let headers = data_dir.join("filings/sgml_headers_sp500.csv");
    if headers.exists() {
        collect_dates(csv::Reader::from_path(&headers), &headers, &mut dates)?;
    }
    let recent = data_dir.join("filings/submissions_recent_filings.csv.gz");
    if recent.exists() {
        let bytes = read_gz(&recent)?;
        collect_dates(Ok(csv::Reader::from_reader(bytes.as_slice())), &recent, &mut dates)?;
    }
    Ok(dates)
}

fn collect_dates<R: Read>(
    reader: csv::Result<csv::Reader<R>>,
    path: &Path,
    dates: &mut BTreeMap<String, String>,
) -> Result<(), ExtractError> {
    #[derive(serde::Deserialize)]
    struct Row {
        accession: String,
        filed: String,
    }
    let mut reader = reader.map_err(|e| ExtractError::csv(path, e))?;
    for row in reader.deserialize::<Row>() {
        let row = row.map_err(|e| ExtractError::csv(path, e))?;
        if !row.accession.is_empty() && row.filed.len() == 10 {
            dates.entry(row.accession).or_insert(row.filed);
        }
    }
    Ok(())
}

/// Reads and gunzips a file.
pub fn read_gz(path: &Path) -> Result<Vec<u8>, ExtractError> {
    let file = std::fs::File::open(path).map_err(|e| ExtractError::io(path, e))?;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file))
        .read_to_end(&mut out)
        .map_err(|e| ExtractError::io(path, e))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_lose_trailing_markup() {
        assert_eq!(clean_form("8-K</strong>"), "8-K");
        assert_eq!(clean_form(" 10-K "), "10-K");
        assert_eq!(clean_form(""), "");
    }
}
