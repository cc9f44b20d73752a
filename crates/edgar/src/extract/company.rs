//! Building one company's row of the extract from its manifest rows and executive records:
//! loads its quotable documents (exact or inferred URL, or 10-K item text whose URL is the
//! filing's EDGAR index page; always a known filing date), collects and ranks statements, receipts
//! executives and reads Exhibit 21/22 subsidiaries (Exhibit 8 of a 20-F) and the ones its prose
//! names. The company's press releases are searched like filings and receipted by their own address; where a release and
//! a filing state the same sentence, the filing's copy is kept. A full submission contributes
//! only the `<DOCUMENT>`s that the manifest does not list on their own, so no text counts twice.

use std::collections::BTreeSet;
use std::path::Path;

use super::ExtractError;
use super::appointments::appointment;
use super::documents::{DocText, Loaded, load};
use super::executives::{APPOINTMENT_RANK, ExecRecord, executives};
use super::manifest::ManifestRow;
use super::press::{Release, issuer_word};
use super::rank::{dedupe_key, select};
use super::reference::Reference;
use super::registry::Tracked;
use super::statements::{candidates, is_history, name_word};
use super::subsidiaries::subsidiaries;
use super::subsidiary_mentions::mentioned;
use gtms_companies::domain::{Claim, PRESS_RELEASE_FORM, Receipt, SignalKind};
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
    /// A company press release rather than an EDGAR document.
    pub press: bool,
}

impl Source {
    fn release(r: &Release) -> Self {
        Self {
            text: r.text.clone(),
            url: r.url.clone(),
            form: PRESS_RELEASE_FORM.to_owned(),
            filed: r.published.clone(),
            accession: String::new(),
            doc_type: PRESS_RELEASE_FORM.to_owned(),
            press: true,
        }
    }

    /// The executive record of an appointment this document states in `sentence`.
    fn appointment_record(&self, cik: &str, sentence: &str) -> Option<ExecRecord> {
        let a = appointment(sentence)?;
        Some(ExecRecord {
            cik: cik.to_owned(),
            person: a.person,
            title: a.title,
            form: self.form.clone(),
            filed: self.filed.clone(),
            accession: self.accession.clone(),
            url: self.url.clone(),
            source_rank: APPOINTMENT_RANK,
        })
    }

    fn receipt(&self, quote: String) -> Option<Receipt> {
        if self.press {
            Receipt::press_release(quote, &self.url, &self.filed).ok()
        } else {
            Receipt::new(quote, &self.url, &self.form, &self.filed, &self.accession).ok()
        }
    }
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

/// Whether a document of this `<TYPE>` in a `form` filing lists subsidiaries: Exhibit 21 or 22,
/// or Exhibit 8 of a 20-F (its list of subsidiaries; Exhibit 8 of other forms is a tax opinion).
pub fn is_subsidiary_list(doc_type: &str, form: &str) -> bool {
    doc_type.starts_with("EX-21")
        || doc_type.starts_with("EX-22")
        || (doc_type.starts_with("EX-8") && form.starts_with("20-F"))
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
    releases: &[Release],
) -> Result<Built, ExtractError> {
    let mut sources = load_sources(data_dir, rows, listed)?;
    sources.extend(releases.iter().map(Source::release));
    let name = name_word(&tracked.legal_name);
    let mut all = Vec::new();
    for (i, s) in sources.iter().enumerate().filter(|(_, s)| s.press || is_prose(&s.doc_type)) {
        let issuer = if s.press { issuer_word(&s.text, name.as_deref(), &tracked.tickers) } else { name.clone() };
        all.extend(candidates(&s.text, i, &s.form, &s.filed, issuer.as_deref()));
    }
    let in_filings: BTreeSet<String> =
        all.iter().filter(|c| !sources[c.doc].press).map(|c| dedupe_key(&c.quote)).collect();
    all.retain(|c| !sources[c.doc].press || !in_filings.contains(&dedupe_key(&c.quote)));
    let appointed = all
        .iter()
        .filter(|c| c.kind == SignalKind::LeadershipChange && !sources[c.doc].press)
        // An appointment dated years before its filing names a past title, not a current one.
        .filter(|c| !is_history(c.event_date.as_deref(), &sources[c.doc].filed))
        .filter_map(|c| sources[c.doc].appointment_record(&tracked.cik, &c.quote));
    let records: Vec<ExecRecord> = exec_records.iter().cloned().chain(appointed).collect();
    let ranked = select(all, |doc| sources[doc].filed.clone(), |c| sources[c.doc].text.contains_verbatim(&c.quote));
    let statements = ranked
        .kept
        .into_iter()
        .filter_map(|c| {
            let receipt = sources[c.doc].receipt(c.quote.clone())?;
            Some(Claim::new(Statement { kind: c.kind, text: c.quote, event_date: c.event_date }, receipt))
        })
        .collect();
    let newest = sources.iter().filter(|s| !s.press).map(|s| s.filed.as_str()).max().unwrap_or_default();
    let execs = executives(&records, |url| sources.iter().find(|s| s.url == url).map(|s| &s.text), newest);
    let mut subs = Vec::new();
    for s in sources.iter().filter(|s| is_subsidiary_list(&s.doc_type, &s.form)) {
        for claim in subsidiaries(&s.text, &s.url, &s.form, &s.filed, &s.accession) {
            if !subs.iter().any(|c: &Claim<_>| c.value() == claim.value()) {
                subs.push(claim);
            }
        }
    }
    // Subsidiaries the prose names ("through its wholly owned subsidiary, Acme Robotics, Inc."),
    // after the exhibit lists, where the name is not listed already.
    for s in sources.iter().filter(|s| !s.press && is_prose(&s.doc_type)) {
        for claim in mentioned(&s.text, &s.url, &s.form, &s.filed, &s.accession) {
            if !subs.iter().any(|c: &Claim<_>| c.value().name.eq_ignore_ascii_case(&claim.value().name)) {
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
        .filter(|r| r.is_full_submission() || is_prose(&r.doc_type) || is_subsidiary_list(&r.doc_type, &r.form))
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
            press: false,
        };
        match load(data_dir, row)? {
            Loaded::Text(text) => sources.push(source(text, &row.doc_type)),
            Loaded::Submission(parts) => {
                // A full submission gives the documents not stored on their own; a document
                // stored in its `<DOCUMENT>` wrapper (the fresher filings) is the row itself.
                for part in parts {
                    let elsewhere =
                        row.is_full_submission() && listed.contains(&(row.accession.clone(), part.filename.clone()));
                    if !elsewhere {
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
        assert!(is_subsidiary_list("EX-21.1", "10-K") && is_subsidiary_list("EX-22.1", "10-K"));
        assert!(is_subsidiary_list("EX-8.1", "20-F") && is_subsidiary_list("EX-8", "20-F/A"));
        assert!(!is_subsidiary_list("EX-23", "10-K") && !is_subsidiary_list("EX-8.1", "S-1"));
    }
}
