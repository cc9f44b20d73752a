//! Building one company's row of the extract from its manifest rows and executive records:
//! loads its quotable documents (exact or inferred URL, or 10-K item text whose URL is the
//! filing's EDGAR index page; always a known filing date), collects and ranks statements, receipts
//! executives and reads Exhibit 21/22 subsidiaries. A full submission contributes only the
//! `<DOCUMENT>`s that the manifest does not list on their own, so no text counts twice.

use std::collections::BTreeSet;
use std::path::Path;

use super::ExtractError;
use super::documents::{DocText, Loaded, load};
use super::executives::{ExecRecord, executives};
use super::manifest::ManifestRow;
use super::rank::select;
use super::reference::Reference;
use super::registry::Tracked;
use super::statements::{candidates, name_word};
use super::subsidiaries::subsidiaries;
use gtms_companies::domain::{Claim, Receipt};
use gtms_companies::seed::{SeedCompany, Statement};

/// Document types whose prose may hold company statements.
const PROSE_TYPES: [&str; 18] = [
    "10-K", "10-Q", "8-K", "EX-99", "S-1", "S-3", "S-4", "F-1", "F-3", "F-4", "424B", "DEF 14A", "20-F", "40-F", "6-K",
    "POS AM", "10-KT", "ARS",
];

/// One document's text with the receipt fields of its EDGAR address.
pub struct Source {
    pub text: DocText,
    pub url: String,
    pub form: String,
    pub filed: String,
    pub accession: String,
    pub doc_type: String,
}

/// A built row and how many of its quotes failed verification.
pub struct Built {
    pub company: SeedCompany,
    pub dropped_quotes: usize,
}

/// Whether a document of this `<TYPE>` is searched for statements (by prefix, so
/// amendments and variants such as `10-K/A` and `S-3ASR` count).
pub fn is_prose(doc_type: &str) -> bool {
    PROSE_TYPES.iter().any(|p| doc_type.starts_with(p))
}

/// Whether a document of this `<TYPE>` lists subsidiaries.
pub fn is_subsidiary_list(doc_type: &str) -> bool {
    doc_type.starts_with("EX-21") || doc_type.starts_with("EX-22")
}

/// Builds the row of one tracked company. `listed` holds (accession, document) of every
/// manifest row, to skip full-submission parts stored on their own.
pub fn build(
    data_dir: &Path,
    tracked: &Tracked,
    reference: &Reference,
    rows: &[ManifestRow],
    listed: &BTreeSet<(String, String)>,
    exec_records: &[ExecRecord],
) -> Result<Built, ExtractError> {
    let sources = load_sources(data_dir, rows, listed)?;
    let name = name_word(&tracked.legal_name);
    let mut all = Vec::new();
    for (i, s) in sources.iter().enumerate().filter(|(_, s)| is_prose(&s.doc_type)) {
        all.extend(candidates(&s.text, i, &s.form, &s.filed, name.as_deref()));
    }
    let ranked = select(all, |doc| sources[doc].filed.clone(), |c| sources[c.doc].text.contains_verbatim(&c.quote));
    let statements = ranked
        .kept
        .into_iter()
        .filter_map(|c| {
            let s = &sources[c.doc];
            let receipt = Receipt::new(c.quote.clone(), &s.url, &s.form, &s.filed, &s.accession).ok()?;
            Some(Claim::new(Statement { kind: c.kind, text: c.quote, event_date: c.event_date }, receipt))
        })
        .collect();
    let execs = executives(exec_records, |url| sources.iter().find(|s| s.url == url).map(|s| &s.text));
    let mut subs = Vec::new();
    for s in sources.iter().filter(|s| is_subsidiary_list(&s.doc_type)) {
        for claim in subsidiaries(&s.text, &s.url, &s.form, &s.filed, &s.accession) {
            if !subs.iter().any(|c: &Claim<_>| c.value() == claim.value()) {
                subs.push(claim);
            }
        }
    }
    subs.truncate(super::subsidiaries::PER_COMPANY);
    Ok(Built {
        company: SeedCompany {
            cik: tracked.cik.clone(),
            tickers: tracked.tickers.clone(),
            exchange: tracked.exchange.clone(),
            legal_name: tracked.legal_name.clone(),
            sector: reference.sector.clone(),
            domain: reference.domain.clone(),
            statements,
            executives: execs,
            subsidiaries: subs,
        },
        dropped_quotes: ranked.dropped,
    })
}

/// Loads every quotable document of the company, newest filing first.
fn load_sources(
    data_dir: &Path,
    rows: &[ManifestRow],
    listed: &BTreeSet<(String, String)>,
) -> Result<Vec<Source>, ExtractError> {
    let mut rows: Vec<&ManifestRow> = rows
        .iter()
        .filter(|r| (r.quotable() || r.content_kind == "extracted-items") && r.filed.len() == 10)
        .filter(|r| r.is_full_submission() || is_prose(&r.doc_type) || is_subsidiary_list(&r.doc_type))
        .collect();
    rows.sort_by(|a, b| b.filed.cmp(&a.filed).then_with(|| a.local_path.cmp(&b.local_path)));
    let mut sources = Vec::new();
    for row in rows {
        let source = |text, doc_type: &str| Source {
            text,
            url: row.url.clone(),
            form: row.form.clone(),
            filed: row.filed.clone(),
            accession: row.accession.clone(),
            doc_type: doc_type.to_owned(),
        };
        match load(data_dir, row)? {
            Loaded::Text(text) => sources.push(source(text, &row.doc_type)),
            Loaded::Submission(parts) => {
                for part in parts {
                    if !listed.contains(&(row.accession.clone(), part.filename.clone())) {
                        sources.push(source(part.text, &part.doc_type));
                    }
                }
            }
        }
    }
    Ok(sources)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_types_include_primary_documents_and_press_releases_only() {
        for t in ["10-K", "10-K/A", "8-K", "EX-99.1", "424B5", "S-3ASR", "DEF 14A"] {
            assert!(is_prose(t), "{t}");
        }
        for t in ["EX-23.1", "EX-5.1", "EX-10.1", "13F-HR", "4", "CORRESP", "filing-index"] {
            assert!(!is_prose(t), "{t}");
        }
        assert!(is_subsidiary_list("EX-21.1") && is_subsidiary_list("EX-22.1") && !is_subsidiary_list("EX-23"));
    }
}
