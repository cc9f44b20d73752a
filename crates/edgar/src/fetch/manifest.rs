//! The corpus side of `edgar-fetch`: manifest rows for fetched documents (the same columns
//! as the shared data's `filings/manifest.csv`, `url_confidence = exact`), the gzipped
//! document files, and rewriting the manifest atomically after each company (so a stopped
//! run resumes with what it had).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use crate::extract::manifest::MANIFEST_FILE;
use crate::extract::registry::Tracked;

/// One manifest row (all columns of `filings/manifest.csv`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub cik: String,
    pub ticker: String,
    pub company_name: String,
    pub form: String,
    pub doc_type: String,
    pub filed: String,
    pub accession: String,
    pub document: String,
    pub url: String,
    pub url_confidence: String,
    pub index_url: String,
    pub content_kind: String,
    pub source: String,
    pub bytes: String,
    pub local_path: String,
}

impl Row {
    pub fn new(
        t: &Tracked,
        form: &str,
        doc_type: &str,
        filed: &str,
        accession: &str,
        name: &str,
        folder: &str,
    ) -> Self {
        Self {
            cik: t.cik.clone(),
            ticker: t.tickers.first().cloned().unwrap_or_default(),
            company_name: t.legal_name.clone(),
            form: form.to_owned(),
            doc_type: doc_type.to_owned(),
            filed: filed.to_owned(),
            accession: accession.to_owned(),
            document: name.to_owned(),
            url: format!("{folder}/{name}"),
            url_confidence: "exact".into(),
            index_url: format!("{folder}/{accession}-index.htm"),
            content_kind: "original".into(),
            source: "gtms edgar-fetch".into(),
            bytes: String::new(),
            local_path: format!("filings/documents/{}/{accession}/{name}.gz", t.cik),
        }
    }
}

/// Existing manifest rows keyed by local path (empty when there is no manifest yet).
pub fn read_rows(out: &Path) -> Result<BTreeMap<String, Row>, std::io::Error> {
    let path = out.join(MANIFEST_FILE);
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let mut reader = csv::Reader::from_path(&path).map_err(std::io::Error::other)?;
    let mut rows = BTreeMap::new();
    for row in reader.deserialize::<Row>() {
        let row = row.map_err(std::io::Error::other)?;
        rows.insert(row.local_path.clone(), row);
    }
    Ok(rows)
}

/// Rewrites the manifest through a temporary file and a rename.
pub fn write_manifest(out: &Path, rows: &BTreeMap<String, Row>) -> Result<(), std::io::Error> {
    let path = out.join(MANIFEST_FILE);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("csv.tmp");
    let mut writer = csv::Writer::from_path(&tmp).map_err(std::io::Error::other)?;
    for row in rows.values() {
        writer.serialize(row).map_err(std::io::Error::other)?;
    }
    writer.flush()?;
    drop(writer);
    std::fs::rename(&tmp, &path)
}

/// Writes `body` gzipped to `path` (through a temporary file, so a half file never counts
/// as fetched).
pub fn write_gz(path: &Path, body: &[u8]) -> Result<(), std::io::Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("part");
    let file = std::fs::File::create(&tmp)?;
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    gz.write_all(body)?;
    gz.finish()?.sync_all()?;
    std::fs::rename(&tmp, path)
}
