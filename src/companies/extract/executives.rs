//! Executives from `executives/*.json` (signature blocks, executive-officer tables, Forms
//! 3/4/5), each receipted by the line of its source document that names the person — the
//! signature line or table row — so the quote is verbatim. People are deduplicated by
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
use crate::companies::seed::Executive;
use crate::domain::{Claim, Receipt};

pub const PER_COMPANY: usize = 25;
const RECENT_DAYS: i64 = 400;
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
    /// 0 = officer table, 1 = signature block, 2 = Form 3/4/5 (lower wins ties).
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
/// at an EDGAR URL when it is stored.
pub fn executives<'d>(records: &[ExecRecord], doc_of: impl Fn(&str) -> Option<&'d DocText>) -> Vec<Claim<Executive>> {
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
    let newest = best.values().map(|(r, _, _)| day_number(&r.filed)).max().unwrap_or(0);
    let mut people: Vec<(u8, String, Claim<Executive>)> = best
        .into_values()
        .filter(|(r, _, _)| newest - day_number(&r.filed) <= RECENT_DAYS)
        .filter_map(|(r, name, title)| {
            let doc = doc_of(&r.url)?;
            let quote = quote_for(doc, &r.person, &title)?;
            let receipt = Receipt::new(quote, &r.url, &r.form, &r.filed, &r.accession).ok()?;
            Some((seniority(&title), name.clone(), Claim::new(Executive { name, title }, receipt)))
        })
        .collect();
    people.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    people.into_iter().take(PER_COMPANY).map(|(_, _, c)| c).collect()
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

/// The document line naming the person (as written there), preferring one that also holds
/// a word of the title; clipped to a window around the name when long. Verbatim.
pub fn quote_for(doc: &DocText, person: &str, title: &str) -> Option<String> {
    let needle = person.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    if needle.is_empty() {
        return None;
    }
    let title_word = title.split_whitespace().next().unwrap_or("").to_lowercase();
    let mut fallback = None;
    for line in &doc.lines {
        let lower = line.to_lowercase();
        if lower.len() != line.len() {
            continue; // byte offsets would not line up
        }
        let Some(at) = lower.find(&needle) else {
            continue;
        };
        if !line.is_char_boundary(at) || !line.is_char_boundary(at + needle.len()) {
            continue;
        }
        let quote = clip(line, at, needle.len());
        if has_contact_data(quote) {
            continue;
        }
        if lower.contains(&title_word) && doc.contains_verbatim(quote) {
            return Some(quote.to_owned());
        }
        fallback.get_or_insert_with(|| quote.to_owned());
    }
    fallback.filter(|q| doc.contains_verbatim(q))
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
        let execs = executives(&records, |_| Some(&doc));
        let names: Vec<(&str, &str)> =
            execs.iter().map(|e| (e.value().name.as_str(), e.value().title.as_str())).collect();
        assert_eq!(names, vec![("Timothy D. Cook", "Chief Executive Officer and Director"), ("Jane Roe", "Director")]);
        for e in &execs {
            assert!(doc.contains_verbatim(e.receipt().quote()));
        }
    }

    #[test]
    fn a_person_not_named_in_the_document_gets_no_receipt() {
        let doc = DocText::from_lines(vec!["/s/ Someone Else Director".into()]);
        assert!(executives(&[record("Jane Roe", "Director", "2024-11-01", 1)], |_| Some(&doc)).is_empty());
        assert_eq!(quote_for(&doc, "Jane Roe", "Director"), None);
    }

    #[test]
    fn long_lines_are_clipped_around_the_name() {
        let line = format!("{} /s/ Jane Roe Director {}", "word ".repeat(100), "more ".repeat(100));
        let doc = DocText::from_lines(vec![crate::companies::extract::text::normalise_whitespace(&line)]);
        let q = quote_for(&doc, "Jane Roe", "Director").unwrap_or_default();
        assert!(q.contains("Jane Roe") && q.len() <= MAX_QUOTE, "{q}");
        assert!(doc.contains_verbatim(&q));
    }
}
