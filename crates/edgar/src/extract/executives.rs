//! Executives from `executives/*.json` (signature blocks, executive-officer tables, Forms
//! 3/4/5) and from the company's own appointment sentences (`appointments.rs`), each receipted
//! by the line of its source document that names the person and states the title offered — the signature row with its title cell, the officer-table row
//! or the appointment sentence — so the quote is verbatim and proves the whole claim. A
//! person whose title no line proves is not emitted (the card never shows a bare name). People are deduplicated by
//! `titles::person_key`; each keeps the record of the newest filing (officer tables win
//! ties over signatures, being more descriptive). Only people named in a filing within
//! `RECENT_DAYS` of the company's newest executive filing are kept, officers before
//! directors, at most `PER_COMPANY`.

use std::collections::BTreeMap;
use std::path::Path;

use super::ExtractError;
use super::contact::has_contact_data;
use super::documents::DocText;
use super::registry::normalise_cik;
use super::titles::{clean_name, clean_title, person_key};
use gtms_companies::domain::{Claim, Receipt};
use gtms_companies::seed::{Executive, ExecutiveRole};

pub const PER_COMPANY: usize = 25;
/// A person named only in a filing more than this many days (24 months) older than the
/// company's newest filing is served marked not current.
const CURRENT_DAYS: i64 = 24 * 31;
const RECENT_DAYS: i64 = 400;
/// The rank of a record read from an appointment sentence (`appointments.rs`). Such records
/// supersede older titles of the same person but do not move the `RECENT_DAYS` window, which
/// the executive files' own records set: one new appointment must not hide the rest of a team.
pub const APPOINTMENT_RANK: u8 = 3;
const MAX_QUOTE: usize = 300;

/// One person-and-title row from any of the three executive files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecRecord {
    pub cik: String,
    pub person: String,
    pub title: String,
    pub form: String,
    pub filed: String,
    pub accession: String,
    pub url: String,
    /// 0 = officer table, 1 = signature block, 2 = Form 3/4/5, `APPOINTMENT_RANK` = an
    /// appointment sentence of the company's own documents (lower wins ties).
    pub source_rank: u8,
}

/// Reads the three executive files into records keyed by CIK (file order within a CIK).
pub fn read_records(data_dir: &Path) -> Result<BTreeMap<String, Vec<ExecRecord>>, ExtractError> {
    let mut out: BTreeMap<String, Vec<ExecRecord>> = BTreeMap::new();
    let files = [
        ("executives/officers_from_10k_text.json", 0, "cik", "title"),
        ("executives/signature_executives.json", 1, "cik", "title"),
        ("executives/form345_reporting_owners.json", 2, "issuer_cik", "officer_title"),
    ];
    for (file, source_rank, cik_field, title_field) in files {
        let path = data_dir.join(file);
        if !path.exists() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| ExtractError::io(&path, e))?;
        let rows: Vec<serde_json::Value> = serde_json::from_str(&text).map_err(|e| ExtractError::json(&path, e))?;
        for row in rows {
            let get = |k: &str| row.get(k).and_then(|v| v.as_str()).unwrap_or("").trim().to_owned();
            let Some(cik) = normalise_cik(&get(cik_field)) else {
                continue;
            };
            if row.get("url_confidence").and_then(|v| v.as_str()).is_some_and(|c| c == "index") {
                continue;
            }
            out.entry(cik.clone()).or_default().push(ExecRecord {
                cik,
                person: get("person"),
                title: get(title_field),
                form: super::manifest::clean_form(&get("form")),
                filed: get("filed"),
                accession: get("accession"),
                url: get("url"),
                source_rank,
            });
        }
    }
    Ok(out)
}

/// Builds a company's receipted executives. `doc_of(url)` gives the text of the document
/// at an EDGAR URL when it is stored; `newest_filing` is the company's newest filing date of
/// any kind, against which a person is current or not. Current people come first.
pub fn executives<'d>(
    records: &[ExecRecord],
    doc_of: impl Fn(&str) -> Option<&'d DocText>,
    newest_filing: &str,
) -> Vec<Claim<Executive>> {
    let mut best: BTreeMap<String, (ExecRecord, String, String)> = BTreeMap::new();
    for r in records.iter().filter(|r| r.filed.len() == 10) {
        let Some(name) = clean_name(&display_order(&r.person, r.source_rank)) else {
            continue;
        };
        let Some(title) = clean_title(&r.title, &r.person) else {
            continue;
        };
        if has_contact_data(&name) || has_contact_data(&title) {
            continue;
        }
        let key = person_key(&name);
        let better = best.get(&key).is_none_or(|(b, _, t)| {
            (r.filed.as_str(), std::cmp::Reverse(r.source_rank), title.len())
                > (b.filed.as_str(), std::cmp::Reverse(b.source_rank), t.len())
        });
        if better && !key.is_empty() {
            best.insert(key, (r.clone(), name, title));
        }
    }
    let newest = best
        .values()
        .filter(|(r, _, _)| r.source_rank < APPOINTMENT_RANK)
        .map(|(r, _, _)| day_number(&r.filed))
        .max()
        .unwrap_or_else(|| day_number(newest_filing));
    let company_newest = day_number(newest_filing).max(newest);
    let mut people: Vec<(bool, u8, String, Claim<Executive>)> = best
        .into_values()
        .filter(|(r, _, _)| newest - day_number(&r.filed) <= RECENT_DAYS)
        .filter_map(|(r, name, title)| {
            let doc = doc_of(&r.url)?;
            let quote = quote_for(doc, &r.person, &title)?;
            let receipt = Receipt::new(quote, &r.url, &r.form, &r.filed, &r.accession).ok()?;
            let current = company_newest - day_number(&r.filed) <= CURRENT_DAYS;
            let role = ExecutiveRole::of_title(&title);
            let person = Executive { name: name.clone(), title: title.clone(), role, current };
            Some((!current, seniority(&title), name, Claim::new(person, receipt)))
        })
        .collect();
    people.sort_by(|a, b| (a.0, a.1, &a.2).cmp(&(b.0, b.1, &b.2)));
    people.into_iter().take(PER_COMPANY).map(|(_, _, _, c)| c).collect()
}

/// Forms 3/4/5 give "Last First Middle"; turn it into "First Middle Last".
fn display_order(person: &str, source_rank: u8) -> String {
    if source_rank != 2 {
        return person.to_owned();
    }
    let mut words: Vec<&str> = person.split_whitespace().collect();
    if words.len() >= 2 {
        let last = words.remove(0);
        words.push(last);
    }
    words.join(" ")
}

/// The quote that proves a person's title: a document line (signature-table row, officer
/// table row or sentence) that holds both the person's name as written there and the whole
/// title offered, clipped to at most `MAX_QUOTE` bytes around the two. `None` when no line
/// holds both: such a person is not emitted. Verbatim.
pub fn quote_for(doc: &DocText, person: &str, title: &str) -> Option<String> {
    let needle = person.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let title = title.to_lowercase();
    if needle.is_empty() || title.is_empty() {
        return None;
    }
    // One line first; then two or three consecutive lines, as when a signature table puts
    // "Name:" and "Title:" on rows of their own (the document text joins lines by a space).
    for span in 1..=3 {
        for window in doc.lines.windows(span) {
            let line = super::text::normalise_whitespace(&window.join(" "));
            if let Some(quote) = proving_slice(&line, &needle, &title)
                && doc.contains_verbatim(quote)
            {
                return Some(quote.to_owned());
            }
        }
    }
    None
}

/// The slice of `line` (at most `MAX_QUOTE` bytes) holding both the name and the title.
fn proving_slice<'l>(line: &'l str, needle: &str, title: &str) -> Option<&'l str> {
    let lower = line.to_lowercase();
    if lower.len() != line.len() {
        return None; // byte offsets would not line up
    }
    let name_at = lower.find(needle)?;
    let title_at = nearest(&lower, title, name_at)?;
    let (start, end) = (name_at.min(title_at), (name_at + needle.len()).max(title_at + title.len()));
    if end - start > MAX_QUOTE || !line.is_char_boundary(start) || !line.is_char_boundary(end) {
        return None;
    }
    let quote = clip(line, start, end - start);
    (!has_contact_data(quote)).then_some(quote)
}

/// The occurrence of `title` in `lower` closest to byte `near`.
fn nearest(lower: &str, title: &str, near: usize) -> Option<usize> {
    lower.match_indices(title).map(|(i, _)| i).min_by_key(|&i| i.abs_diff(near))
}

/// A slice of `line` of at most `MAX_QUOTE` bytes around `[at, at+len)`, cut at spaces.
fn clip(line: &str, at: usize, len: usize) -> &str {
    if line.len() <= MAX_QUOTE {
        return line;
    }
    let mut start = at.saturating_sub(20);
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let start = line[..start].rfind(' ').map_or(0, |s| s + 1);
    let mut end = (start + MAX_QUOTE).min(line.len()).max(at + len).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let end = if end < line.len() { line[..end].rfind(' ').filter(|&e| e >= at + len).unwrap_or(end) } else { end };
    line.get(start..end).unwrap_or("").trim()
}

/// Order of executives on a card: chief executive, presidents, chairs, other chiefs, other
/// officers, directors.
fn seniority(title: &str) -> u8 {
    let t = title.to_lowercase();
    if t.contains("chief executive") || t.contains("ceo") {
        0
    } else if t.starts_with("president") || t.contains(", president") {
        1
    } else if t.contains("chair") {
        2
    } else if t.contains("chief") {
        3
    } else if t.contains("director") && !t.contains("officer") && !t.contains("president") {
        5
    } else {
        4
    }
}

/// Days since 0000-01-01, roughly (enough to compare filing dates).
fn day_number(date: &str) -> i64 {
    let part = |r: std::ops::Range<usize>| date.get(r).and_then(|s| s.parse::<i64>().ok()).unwrap_or(0);
    part(0..4) * 372 + part(5..7) * 31 + part(8..10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(person: &str, title: &str, filed: &str, rank: u8) -> ExecRecord {
        ExecRecord {
            cik: "0000000001".into(),
            person: person.into(),
            title: title.into(),
            form: "10-K".into(),
            filed: filed.into(),
            accession: "0000000001-24-000001".into(),
            url: "https://www.sec.gov/Archives/edgar/data/1/000000000124000001/a.htm".into(),
            source_rank: rank,
        }
    }

    #[test]
    fn executives_are_deduplicated_cleaned_and_receipted_by_their_line() {
        let doc = DocText::from_lines(vec![
            "SIGNATURES".into(),
            "/s/ TIMOTHY D. COOK Chief Executive Officer and Director (Principal Executive Officer) November 1, 2024"
                .into(),
            "/s/ Jane Roe Director November 1, 2024".into(),
        ]);
        let records = vec![
            record(
                "TIMOTHY D. COOK",
                "Timothy D. Cook Chief Executive Officer and Director November 1, 2024",
                "2024-11-01",
                1,
            ),
            record("Timothy D. Cook", "Chief Executive Officer", "2023-11-03", 0),
            record("Jane Roe", "Director", "2024-11-01", 1),
            record("Old Person", "Director", "2019-01-01", 1),
        ];
        let execs = executives(&records, |_| Some(&doc), "");
        let names: Vec<(&str, &str)> =
            execs.iter().map(|e| (e.value().name.as_str(), e.value().title.as_str())).collect();
        assert_eq!(names, vec![("Timothy D. Cook", "Chief Executive Officer and Director"), ("Jane Roe", "Director")]);
        let roles: Vec<ExecutiveRole> = execs.iter().map(|e| e.value().role).collect();
        assert_eq!(roles, vec![ExecutiveRole::Officer, ExecutiveRole::Director]);
        for e in &execs {
            assert!(doc.contains_verbatim(e.receipt().quote()));
        }
    }

    #[test]
    fn people_named_over_24_months_before_the_newest_filing_are_served_not_current_and_last() {
        let doc = DocText::from_lines(vec![
            "/s/ Jane Roe Chief Financial Officer".into(),
            "/s/ John Doe Chief Executive Officer".into(),
        ]);
        let records = vec![
            record("John Doe", "Chief Executive Officer", "2022-11-01", 1),
            record("Jane Roe", "Chief Financial Officer", "2023-03-01", 1),
        ];
        let execs = executives(&records, |_| Some(&doc), "2025-02-01");
        let people: Vec<(&str, bool)> = execs.iter().map(|e| (e.value().name.as_str(), e.value().current)).collect();
        assert_eq!(people, vec![("Jane Roe", true), ("John Doe", false)], "current first, then seniority");
    }

    #[test]
    fn titles_tell_officers_from_directors() {
        for (title, role) in [
            ("Director", ExecutiveRole::Director),
            ("Chairman of the Board", ExecutiveRole::Director),
            ("Lead Independent Director", ExecutiveRole::Director),
            ("Chairman and Chief Executive Officer", ExecutiveRole::Officer),
            ("President and Director", ExecutiveRole::Officer),
            ("Senior Vice President, General Counsel", ExecutiveRole::Officer),
        ] {
            assert_eq!(ExecutiveRole::of_title(title), role, "{title}");
        }
    }

    #[test]
    fn a_person_not_named_in_the_document_gets_no_receipt() {
        let doc = DocText::from_lines(vec!["/s/ Someone Else Director".into()]);
        assert!(executives(&[record("Jane Roe", "Director", "2024-11-01", 1)], |_| Some(&doc), "").is_empty());
        assert_eq!(quote_for(&doc, "Jane Roe", "Director"), None);
    }

    #[test]
    fn a_line_with_the_name_but_not_the_title_proves_nothing() {
        let doc = DocText::from_lines(vec![
            "/s/ Jane Roe".into(),
            "Jane Roe, by signing her name hereto, signs this report under powers of attorney.".into(),
            "Jane Roe Chief Executive Officer, Europe February 1, 2024".into(),
        ]);
        assert_eq!(
            quote_for(&doc, "Jane Roe", "Chief Executive Officer, Europe").as_deref(),
            Some("Jane Roe Chief Executive Officer, Europe February 1, 2024")
        );
        assert_eq!(quote_for(&doc, "Jane Roe", "Chief Financial Officer"), None);
        let execs = executives(
            &[record("Jane Roe", "Chief Executive Officer, Europe February 1, 2024", "2024-11-01", 1)],
            |_| Some(&doc),
            "",
        );
        assert_eq!(execs.len(), 1);
        assert_eq!(execs[0].value().title, "Chief Executive Officer, Europe");
    }

    #[test]
    fn long_lines_are_clipped_around_the_name() {
        let line = format!("{} /s/ Jane Roe Director {}", "word ".repeat(100), "more ".repeat(100));
        assert!(line.len() > MAX_QUOTE);
        let doc = DocText::from_lines(vec![crate::extract::text::normalise_whitespace(&line)]);
        let q = quote_for(&doc, "Jane Roe", "Director").unwrap_or_default();
        assert!(q.contains("Jane Roe") && q.len() <= MAX_QUOTE, "{q}");
        assert!(doc.contains_verbatim(&q));
    }
}
