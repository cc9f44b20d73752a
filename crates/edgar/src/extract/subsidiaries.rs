//! Subsidiaries from Exhibit 21 ("Subsidiaries of the Registrant") and Exhibit 22
//! (subsidiary issuers and guarantors). Each table row becomes one line of text; a line is
//! a subsidiary when it names an entity (it contains a legal-form word such as "Inc.",
//! "LLC", "Ltd", "GmbH"), with the jurisdiction taken from a known state or country at its
//! end. The receipt quote is the whole line, so it is verbatim. Prose lines (over 150
//! characters), headings and contact data are skipped.

use super::contact::has_contact_data;
use super::documents::DocText;
use gtms_companies::domain::{Claim, Receipt};
use gtms_companies::seed::Subsidiary;

pub const PER_COMPANY: usize = 100;
const MAX_LINE: usize = 150;

/// Legal-form words that make a line (or, in `subsidiary_mentions`, a name) an entity.
pub(super) const ENTITY_WORDS: [&str; 27] = [
    "inc",
    "llc",
    "l.l.c",
    "ltd",
    "limited",
    "corp",
    "corporation",
    "company",
    "co",
    "l.p",
    "lp",
    "gmbh",
    "b.v",
    "bv",
    "s.a",
    "n.v",
    "ag",
    "plc",
    "pty",
    "trust",
    "holdings",
    "s.l",
    "s.p.a",
    "sas",
    "s.a.s",
    "k.k",
    "llp",
];

/// Descriptions that may open a row before the entity's name.
const OWNERSHIP_PREFIXES: [&str; 2] = ["wholly owned subsidiary of ", "wholly-owned subsidiary of "];

const ROLE_WORDS: [&str; 4] = ["issuer", "guarantor", "co-issuer", "parent"];

/// Jurisdictions recognised at the end of a line (longest first where one contains another).
const JURISDICTIONS: [&str; 114] = [
    "People's Republic of China",
    "People’s Republic of China",
    "Hong Kong SAR",
    "Macau SAR",
    "United Arab Emirates",
    "Marshall Islands",
    "Republic of Korea",
    "the PRC",
    "British Virgin Islands",
    "Cayman Islands",
    "England and Wales",
    "United Kingdom",
    "United States",
    "District of Columbia",
    "Puerto Rico",
    "Hong Kong",
    "New Zealand",
    "South Africa",
    "South Korea",
    "Isle of Man",
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "South Carolina",
    "South Dakota",
    "Rhode Island",
    "West Virginia",
    "Alabama",
    "Alaska",
    "Arizona",
    "Arkansas",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "Florida",
    "Georgia",
    "Hawaii",
    "Idaho",
    "Illinois",
    "Indiana",
    "Iowa",
    "Kansas",
    "Kentucky",
    "Louisiana",
    "Maine",
    "Maryland",
    "Massachusetts",
    "Michigan",
    "Minnesota",
    "Mississippi",
    "Missouri",
    "Montana",
    "Nebraska",
    "Nevada",
    "Ohio",
    "Oklahoma",
    "Oregon",
    "Pennsylvania",
    "Tennessee",
    "Texas",
    "Utah",
    "Vermont",
    "Virginia",
    "Washington",
    "Wisconsin",
    "Wyoming",
    "Canada",
    "Bermuda",
    "Ireland",
    "Netherlands",
    "Luxembourg",
    "Germany",
    "France",
    "Japan",
    "China",
    "Singapore",
    "PRC",
    "Macau",
    "Macao",
    "Taiwan",
    "Malaysia",
    "Labuan",
    "Samoa",
    "Seychelles",
    "Mauritius",
    "Anguilla",
    "Korea",
    "India",
    "Australia",
    "Switzerland",
    "Israel",
    "Thailand",
    "Vietnam",
    "Indonesia",
    "Philippines",
    "Mexico",
    "Brazil",
    "Italy",
    "Spain",
    "Sweden",
    "Denmark",
    "Norway",
    "Belgium",
    "Austria",
    "Poland",
    "Cyprus",
    "Greece",
    "BVI",
    "Cayman",
    "Myanmar",
];

/// Subsidiaries listed in an exhibit, each receipted by its line.
pub fn subsidiaries(doc: &DocText, url: &str, form: &str, filed: &str, accession: &str) -> Vec<Claim<Subsidiary>> {
    let mut out: Vec<Claim<Subsidiary>> = Vec::new();
    for line in &doc.lines {
        if out.len() >= PER_COMPANY {
            break;
        }
        let Some(sub) = parse_line(line) else {
            continue;
        };
        if out.iter().any(|c| c.value().name.eq_ignore_ascii_case(&sub.name)) {
            continue;
        }
        if let Ok(receipt) = Receipt::new(line.clone(), url, form, filed, accession) {
            out.push(Claim::new(sub, receipt));
        }
    }
    out
}

/// One exhibit line as a subsidiary, if it names an entity.
pub fn parse_line(line: &str) -> Option<Subsidiary> {
    let lower = line.to_lowercase();
    let heading = lower.starts_with("exhibit") || lower.contains("subsidiaries") || lower.contains("jurisdiction");
    if line.len() > MAX_LINE || heading || has_contact_data(line) {
        return None;
    }
    // An ownership column ("100%", "51.5 %") may follow the jurisdiction.
    let row = without_percentages(line);
    let (mut rest, jurisdiction) = match JURISDICTIONS.iter().find(|j| ends_with_word(row, j)) {
        Some(j) => {
            let trimmed = row.trim_end_matches([' ', '.', ')']);
            (trimmed[..trimmed.len() - j.len()].trim_end(), Some((*j).to_owned()))
        }
        None => (row, None),
    };
    loop {
        let trimmed = rest.trim_end_matches([' ', ',', '(', ')', '-', '\u{2013}', '\u{2014}', ':']);
        let last = trimmed.rsplit(' ').next().unwrap_or("");
        if ROLE_WORDS.contains(&last.to_lowercase().as_str()) && trimmed.len() > last.len() {
            rest = &trimmed[..trimmed.len() - last.len()];
        } else {
            rest = trimmed;
            break;
        }
    }
    let name =
        rest.trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ' ' | '-' | '\u{2022}')).trim();
    // A 20-F row may describe the entity before naming it ("Wholly owned subsidiary of X Limited").
    let name = OWNERSHIP_PREFIXES
        .iter()
        .find_map(|p| name.get(..p.len()).filter(|h| h.eq_ignore_ascii_case(p)).map(|_| &name[p.len()..]))
        .unwrap_or(name)
        .trim();
    let has_entity_word =
        name.split([' ', ',']).any(|w| ENTITY_WORDS.contains(&w.trim_end_matches('.').to_lowercase().as_str()));
    (has_entity_word && name.len() >= 4 && name.chars().next().is_some_and(char::is_alphanumeric))
        .then(|| Subsidiary { name: name.to_owned(), jurisdiction })
}

/// The line without the percentages at its end ("100%", "51.5 %").
fn without_percentages(line: &str) -> &str {
    let mut rest = line.trim_end();
    while let Some(before) = rest.strip_suffix('%') {
        let before = before.trim_end();
        let number = before.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if number.len() == before.len() || number.trim_end().is_empty() {
            break;
        }
        rest = number.trim_end();
    }
    rest
}

fn ends_with_word(line: &str, word: &str) -> bool {
    let trimmed = line.trim_end_matches([' ', '.', ')']);
    trimmed.len() > word.len()
        && trimmed.ends_with(word)
        && trimmed[..trimmed.len() - word.len()].ends_with([' ', ',', '('])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exhibit_rows_become_named_subsidiaries_with_jurisdictions() {
        let s = parse_line("Apple Operations International Limited Ireland");
        assert_eq!(
            s.map(|s| (s.name, s.jurisdiction)),
            Some(("Apple Operations International Limited".into(), Some("Ireland".into())))
        );
        let s = parse_line("Braeburn Capital, Inc. Nevada");
        assert_eq!(s.map(|s| (s.name, s.jurisdiction)), Some(("Braeburn Capital, Inc.".into(), Some("Nevada".into()))));
    }

    #[test]
    fn twenty_f_rows_with_an_ownership_column_keep_name_and_jurisdiction() {
        let s = parse_line("Kayser Myanmar Manufacturing Company Ltd. Myanmar 100%");
        assert_eq!(
            s.map(|s| (s.name, s.jurisdiction)),
            Some(("Kayser Myanmar Manufacturing Company Ltd.".into(), Some("Myanmar".into())))
        );
        let s = parse_line("Beijing Century Friendship Technology Co., Ltd. PRC 100 %");
        assert_eq!(
            s.map(|s| (s.name, s.jurisdiction)),
            Some(("Beijing Century Friendship Technology Co., Ltd.".into(), Some("PRC".into())))
        );
        let s = parse_line("Ctrip.com (Hong Kong) Limited Hong Kong SAR");
        assert_eq!(s.and_then(|s| s.jurisdiction), Some("Hong Kong SAR".into()));
    }

    #[test]
    fn a_row_that_describes_before_it_names_keeps_the_name() {
        let s = parse_line("Wholly owned subsidiary of Xintong International Trading Limited");
        assert_eq!(s.map(|s| s.name), Some("Xintong International Trading Limited".into()));
    }

    #[test]
    fn guarantor_rows_lose_their_role_word() {
        let s = parse_line("Thomson Reuters (Tax & Accounting) Inc. Guarantor");
        assert_eq!(s.map(|s| s.name), Some("Thomson Reuters (Tax & Accounting) Inc.".into()));
    }

    #[test]
    fn headings_and_prose_are_not_subsidiaries() {
        assert_eq!(parse_line("Subsidiaries of the Registrant"), None);
        assert_eq!(parse_line("Name Jurisdiction of Incorporation"), None);
        assert_eq!(parse_line("Exhibit 21.1 Apple Inc."), None);
        assert_eq!(parse_line("SUBSIDIARIES OF EXAMPLE WIDGETS CORP"), None);
    }

    #[test]
    fn claims_quote_the_whole_line() {
        let doc =
            DocText::from_lines(vec!["Subsidiaries".into(), "Foo LLC Delaware".into(), "Foo LLC Delaware".into()]);
        let subs = subsidiaries(
            &doc,
            "https://www.sec.gov/Archives/edgar/data/1/x/ex21.htm",
            "10-K",
            "2024-01-01",
            "0000000001-24-000001",
        );
        assert_eq!(subs.len(), 1);
        assert_eq!(subs[0].receipt().quote(), "Foo LLC Delaware");
    }
}
