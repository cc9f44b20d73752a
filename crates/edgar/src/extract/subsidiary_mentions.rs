//! Subsidiaries named in a filing's prose, for companies whose filings hold no Exhibit 21:
//! "through its wholly owned subsidiary, Acme Robotics, Inc.", "Acme Robotics LLC, a
//! wholly-owned subsidiary of the Company". The name must end in a legal form, as an Exhibit 21
//! row must (`subsidiaries::ENTITY_WORDS`: Inc., LLC, Ltd., ...), and the subsidiary must be the
//! company's own ("its", "our", "of the Company", "of us"): "a wholly owned subsidiary of TenX"
//! is another company's. The receipt quote is the whole sentence, so it is verbatim; the
//! jurisdiction is unknown.

use super::contact::has_contact_data;
use super::documents::DocText;
use super::sentences::split_sentences;
use super::subsidiaries::ENTITY_WORDS;
use gtms_companies::domain::{Claim, Receipt};
use gtms_companies::seed::Subsidiary;

/// Longest sentence read (longer ones are lists and tables run together).
const MAX_SENTENCE: usize = 500;
/// Most words a name may have before its legal form.
const MAX_NAME_WORDS: usize = 10;

/// Legal forms written with a final period ("Inc.", "Co.", "L.P."), which the name keeps.
const DOTTED: [&str; 13] =
    ["inc", "corp", "co", "ltd", "l.p", "b.v", "s.a", "n.v", "s.l", "s.p.a", "s.a.s", "k.k", "l.l.c"];

/// Titles and words that end a name read backwards ("the CEO of EPakia Inc., a wholly owned
/// subsidiary of the Company" names EPakia Inc.).
const STOPS: [&str; 10] =
    ["CEO", "CFO", "COO", "President", "Chairman", "Director", "Officer", "Manager", "Mr.", "Ms."];

/// Words that join the words of a name.
const JOINS: [&str; 3] = ["&", "of", "and"];

/// Words before "wholly owned subsidiary" that make it the company's own.
const OWN: [&str; 5] = ["its", "our", "company's", "company\u{2019}s", "companys"];

/// Words after "subsidiary of" that name the company itself.
const OF_US: [&str; 4] = ["the company", "us", "ours", "the registrant"];

/// Every subsidiary the document's sentences name, each receipted by its sentence.
pub fn mentioned(doc: &DocText, url: &str, form: &str, filed: &str, accession: &str) -> Vec<Claim<Subsidiary>> {
    let mut out: Vec<Claim<Subsidiary>> = Vec::new();
    for line in doc.lines.iter().filter(|l| l.contains("holly")) {
        for sentence in split_sentences(line) {
            if sentence.len() > MAX_SENTENCE || has_contact_data(sentence) {
                continue;
            }
            for name in names(sentence) {
                if out.iter().any(|c| c.value().name.eq_ignore_ascii_case(&name)) {
                    continue;
                }
                if let Ok(receipt) = Receipt::new(sentence.to_owned(), url, form, filed, accession) {
                    out.push(Claim::new(Subsidiary { name, jurisdiction: None }, receipt));
                }
            }
        }
    }
    out
}

/// The company's own subsidiaries a sentence names.
pub fn names(sentence: &str) -> Vec<String> {
    let tokens: Vec<&str> = sentence.split_whitespace().collect();
    let mut out = Vec::new();
    for i in 0..tokens.len() {
        let Some(after) = subsidiary_phrase(&tokens, i) else { continue };
        let own = tokens[i.saturating_sub(3)..i].iter().any(|t| OWN.contains(&t.to_lowercase().as_str()));
        if own && let Some(name) = name_after(&tokens[after..]) {
            out.push(name);
        }
        if is_of_us(&tokens[after..])
            && i >= 2
            && matches!(tokens[i - 1], "a" | "an" | "our" | "its")
            && let Some(name) = name_before(&tokens[..i - 1])
        {
            out.push(name);
        }
    }
    out
}

/// "wholly owned subsidiary" / "wholly-owned subsidiaries" starting at `i`: the index after it.
fn subsidiary_phrase(tokens: &[&str], i: usize) -> Option<usize> {
    let word = |k: usize| tokens.get(k).map(|t| t.trim_end_matches([',', ';']).to_lowercase());
    let first = word(i)?;
    let (next, at) = match first.as_str() {
        "wholly-owned" | "wholly\u{2011}owned" => (word(i + 1)?, i + 1),
        "wholly" if word(i + 1).as_deref() == Some("owned") => (word(i + 2)?, i + 2),
        _ => return None,
    };
    matches!(next.as_str(), "subsidiary" | "subsidiaries").then_some(at + 1)
}

/// "of the Company", "of us" right after the phrase.
fn is_of_us(rest: &[&str]) -> bool {
    rest.first() == Some(&"of") && {
        let tail = rest[1..].iter().take(2).map(|t| t.to_lowercase()).collect::<Vec<_>>().join(" ");
        let tail = tail.trim_end_matches(['.', ',', ';', ')']);
        OF_US.iter().any(|u| tail == *u || tail.starts_with(&format!("{u} ")) || tail.starts_with(&format!("{u},")))
    }
}

/// A name right after the phrase ("subsidiary, Acme Robotics, Inc."): capitalised words up to
/// and including its legal form (two where they follow each other: "Co., Ltd.").
fn name_after(rest: &[&str]) -> Option<String> {
    let mut words: Vec<&str> = Vec::new();
    for (k, token) in rest.iter().enumerate().take(MAX_NAME_WORDS + 2) {
        let word = token.trim_end_matches([',', ';', ':', ')']);
        let opens = words.is_empty() && (token.starts_with(['(', '"', '\u{201c}']) || JOINS.contains(&word));
        if opens || !(starts_capital(word) || JOINS.contains(&word)) || STOPS.contains(&word) {
            return None;
        }
        words.push(token);
        if is_legal_form(word) {
            // A run of legal forms ends the name together ("Holdings Co., Ltd.").
            let more = rest[k + 1..].iter().take_while(|n| is_legal_form(n.trim_end_matches([',', ';', ':', ')'])));
            words.extend(more);
            return finish(&words);
        }
    }
    None
}

/// A name right before ", a wholly owned subsidiary of the Company": capitalised words back to
/// the first, the last a legal form. A comma may stand inside the name only before a legal form
/// ("Acme Robotics, Inc."); any other ends it ("On June 16, 2024, Jiangxi ... Co., Ltd.").
fn name_before(before: &[&str]) -> Option<String> {
    let last = before.last()?;
    if !last.ends_with(',') || !is_legal_form(last.trim_end_matches([',', ')'])) {
        return None;
    }
    let mut start = before.len() - 1;
    while start > 0 && before.len() - start < MAX_NAME_WORDS {
        let token = before[start - 1];
        let word = token.trim_end_matches([',', ')']);
        let comma_ok = !token.ends_with(',') || is_legal_form(before[start].trim_end_matches([',', ')']));
        if !(starts_capital(word) || JOINS.contains(&word)) || STOPS.contains(&word) || !comma_ok {
            break;
        }
        start -= 1;
    }
    while start < before.len() && (JOINS.contains(&before[start]) || before[start].eq_ignore_ascii_case("the")) {
        start += 1;
    }
    finish(&before[start..])
}

/// The name from its tokens, without the punctuation after its last word (a legal form written
/// with a period, "Inc.", keeps it); at least two words.
fn finish(words: &[&str]) -> Option<String> {
    let joined = words.join(" ");
    let name = joined.trim_end_matches([',', ';', ':', ')']);
    let last = name.rsplit(' ').next().unwrap_or("").trim_end_matches('.').to_lowercase();
    let name = if DOTTED.contains(&last.as_str()) { name } else { name.trim_end_matches('.') };
    (words.len() >= 2 && name.len() <= 120 && !has_contact_data(name)).then(|| name.to_owned())
}

fn is_legal_form(word: &str) -> bool {
    ENTITY_WORDS.contains(&word.trim_end_matches('.').to_lowercase().as_str())
}

fn starts_capital(word: &str) -> bool {
    word.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_companys_own_subsidiaries_are_named_after_or_before_the_phrase() {
        assert_eq!(
            names(
                "We conduct our operations in the United States through our wholly owned subsidiary, Acme Robotics, Inc., which we formed in 2019."
            ),
            vec!["Acme Robotics, Inc."]
        );
        assert_eq!(
            names(
                "On June 16, 2024, Jiangxi Universe Technology Co., Ltd., a wholly-owned subsidiary of the Company, signed a loan agreement with Bank of Communications."
            ),
            vec!["Jiangxi Universe Technology Co., Ltd."]
        );
        assert_eq!(
            names("The Company sells its products through its wholly-owned subsidiary Braeburn Capital LLC."),
            vec!["Braeburn Capital LLC"]
        );
    }

    #[test]
    fn another_companys_subsidiary_and_unnamed_ones_are_not_family() {
        for s in [
            "On October 23, 2023, the Company entered into a merger agreement with TenX Keane Acquisition and TenX Merger Sub Inc., a Delaware corporation, and a wholly owned subsidiary of TenX (Merger Sub).",
            "Our wholly owned subsidiaries operate in 14 countries.",
            "We operate through our wholly-owned subsidiary in Hong Kong.",
            "TDH Foods Limited owns 100% of Tiandihui Pet Foodstuffs, with its wholly-owned subsidiary of Qingdao Foodstuff Sales Co., Ltd.",
        ] {
            assert_eq!(names(s), Vec::<String>::new(), "{s}");
        }
    }

    #[test]
    fn each_claim_quotes_its_sentence() {
        let doc = DocText::from_lines(vec![
            "Item 1. Business. We sell robots through our wholly owned subsidiary, Acme Robotics, Inc. We also sell parts.".into(),
        ]);
        let subs = mentioned(
            &doc,
            "https://www.sec.gov/Archives/edgar/data/1/x/a10k.htm",
            "10-K",
            "2025-03-01",
            "0000000001-25-000001",
        );
        assert_eq!(subs.len(), 1);
        assert_eq!(subs[0].value().name, "Acme Robotics, Inc.");
        assert!(doc.contains_verbatim(subs[0].receipt().quote()));
    }
}
