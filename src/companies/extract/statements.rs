//! Candidate statements from one document: the sentences a company states about itself,
//! classified and scored. A sentence qualifies when it is 40..=400 characters, starts
//! with a capital (or quote/bracket) and ends with `.`, refers to the company ("we",
//! "our", "us", "the Company", or the first word of its name), is not boilerplate
//! (forward-looking disclaimers, references to notes or exhibits, table lead-ins,
//! assurances), is not hedged or negated unless it is a risk or outlook statement, is not
//! a table row (few digits and dollar signs), holds no contact data
//! and matches a classification rule. Quotes are slices of the document's own lines, so
//! they are verbatim by construction; `rank` still verifies each before it is kept.

use super::classify::{classify, words};
use super::contact::has_contact_data;
use super::documents::DocText;
use crate::domain::SignalKind;

pub const MIN_CHARS: usize = 40;
pub const MAX_CHARS: usize = 400;

/// Phrases that mark a sentence as boilerplate; such sentences are never statements.
const BOILERPLATE: [&str; 24] = [
    "assumes $100",
    "reinvested",
    "forward-looking",
    "forward looking",
    "private securities litigation",
    "safe harbor",
    "undue reliance",
    "incorporated by reference",
    "incorporated herein",
    "table of contents",
    "see note",
    "refer to note",
    "notes to consolidated",
    "notes to the consolidated",
    "the following table",
    "as follows:",
    "set forth below",
    "set forth in",
    "no assurance",
    "cannot assure",
    "can be no assurance",
    "not historical",
    "this prospectus",
    "prospectus supplement",
];

/// Words that make a sentence conditional or negative; only risk and outlook statements
/// may carry them, since a hedged "acquisition" or a denied "dividend" is no signal.
const HEDGES: [&str; 13] =
    ["may", "might", "could", "would", "if", "unable", "likely", "not", "no", "never", "cannot", "neither", "whether"];

/// Past-tense verbs that mark a statement as news rather than description.
const ACTION_WORDS: [&str; 14] = [
    "completed",
    "announced",
    "launched",
    "acquired",
    "opened",
    "signed",
    "entered",
    "introduced",
    "appointed",
    "agreed",
    "closed",
    "expanded",
    "began",
    "named",
];

/// Words in a company name too common to identify it in a sentence.
const GENERIC_NAME_WORDS: [&str; 16] = [
    "american",
    "first",
    "united",
    "national",
    "general",
    "international",
    "global",
    "new",
    "the",
    "bank",
    "energy",
    "capital",
    "financial",
    "group",
    "holdings",
    "trust",
];

/// A classified, scored sentence and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub kind: SignalKind,
    pub quote: String,
    pub score: i32,
    /// Index of the source document in the caller's list.
    pub doc: usize,
    /// Position of the sentence in its document (for stable ordering).
    pub position: usize,
}

/// The lowercase word that names the company in prose ("nvidia" for "NVIDIA CORP"), if
/// its first word is distinctive enough.
pub fn name_word(legal_name: &str) -> Option<String> {
    let first = words(legal_name).into_iter().next()?;
    (first.len() >= 4 && !GENERIC_NAME_WORDS.contains(&first.as_str())).then_some(first)
}

/// Every qualifying sentence of `text`, in document order.
pub fn candidates(text: &DocText, doc: usize, name_word: Option<&str>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut position = 0;
    for line in &text.lines {
        if line.len() < MIN_CHARS {
            continue;
        }
        for sentence in super::sentences::split_sentences(line) {
            position += 1;
            if let Some((kind, score)) = assess(sentence, name_word) {
                out.push(Candidate { kind, quote: sentence.to_owned(), score, doc, position });
            }
        }
    }
    out
}

/// Kind and score of a sentence, or `None` when it does not qualify.
pub fn assess(sentence: &str, name_word: Option<&str>) -> Option<(SignalKind, i32)> {
    let len = sentence.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&len) || !sentence.ends_with('.') {
        return None;
    }
    let first = sentence.chars().next()?;
    if !(first.is_uppercase() || matches!(first, '"' | '\u{201c}' | '(')) {
        return None;
    }
    let lower = sentence.to_lowercase();
    if BOILERPLATE.iter().any(|b| lower.contains(b)) || looks_tabular(sentence) || has_contact_data(sentence) {
        return None;
    }
    let ws = words(sentence);
    if ws.len() < 7 || !about_company(&ws, &lower, name_word) {
        return None;
    }
    let kind = classify(sentence)?;
    let hedged = ws.iter().any(|w| HEDGES.contains(&w.as_str()));
    if hedged && !matches!(kind, SignalKind::Risk | SignalKind::Outlook) {
        return None;
    }
    Some((kind, score(kind, sentence, &ws, &lower)))
}

/// Numbers-heavy text is a flattened table, not prose.
fn looks_tabular(sentence: &str) -> bool {
    let digits = sentence.chars().filter(char::is_ascii_digit).count();
    let dollars = sentence.matches('$').count();
    digits * 100 > sentence.len() * 15 || dollars > 4 || sentence.contains("  ") || sentence.contains(" | ")
}

fn about_company(ws: &[String], lower: &str, name_word: Option<&str>) -> bool {
    ws.iter().any(|w| matches!(w.as_str(), "we" | "our" | "us"))
        || lower.contains("the company")
        || name_word.is_some_and(|n| ws.iter().any(|w| w == n))
}

/// Kind weight, plus concreteness (figures, years, action verbs), minus references to the
/// report itself and length over 300 characters.
fn score(kind: SignalKind, sentence: &str, ws: &[String], lower: &str) -> i32 {
    let mut score = i32::try_from(kind.weight()).unwrap_or(0);
    if sentence.chars().any(|c| c.is_ascii_digit()) {
        score += 10;
    }
    if ws
        .iter()
        .any(|w| w.len() == 4 && (w.starts_with("19") || w.starts_with("20")) && w.chars().all(|c| c.is_ascii_digit()))
    {
        score += 5;
    }
    if ws.iter().any(|w| ACTION_WORDS.contains(&w.as_str())) {
        score += 10;
    }
    if lower.contains("form 10-k") || lower.contains("annual report") || lower.contains("form 10-q") {
        score -= 10;
    }
    if sentence.len() > 300 {
        score -= 10;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_company_news_sentence_qualifies() {
        let s = "In March 2023, we acquired Acme Robotics, a maker of warehouse robots, for $120 million.";
        let (kind, score) = assess(s, None).unwrap_or((SignalKind::Risk, 0));
        assert_eq!(kind, SignalKind::Acquisition);
        assert!(score > 100, "{score}");
    }

    #[test]
    fn boilerplate_short_tabular_and_third_party_sentences_do_not_qualify() {
        for s in [
            "This report contains forward-looking statements within the meaning of the Private Securities Litigation Reform Act.",
            "We acquired it.",
            "Revenue 2023 2022 2021 $ 1,234 $ 1,100 $ 998 12.3% 11.1% we expanded 10.1%.",
            "The acquisition of Foo by Bar was completed after regulators approved the merger agreement.",
            "For questions about our expansion, call our investor line at (408) 996-1010 today.",
            "we expanded our plant in Ohio and added two production lines for new products.",
            "We have not sold our retail business and do not plan to sell it this year.",
            "If we raise capital, we may expand our plant in Ohio with new production lines.",
        ] {
            assert_eq!(assess(s, None), None, "{s}");
        }
    }

    #[test]
    fn the_company_name_counts_as_self_reference() {
        let s = "Nvidia launched the Hopper architecture for data center computing in 2022.";
        assert_eq!(name_word("NVIDIA CORP").as_deref(), Some("nvidia"));
        assert!(assess(s, Some("nvidia")).is_some());
        assert_eq!(name_word("AMERICAN EXPRESS CO"), None);
    }

    #[test]
    fn candidates_are_slices_of_the_document_lines() {
        let doc = DocText::from_lines(vec![
            "Item 1. Business".into(),
            "We opened 42 new stores in Texas during 2023. Our stores sell groceries and household goods.".into(),
        ]);
        let found = candidates(&doc, 0, None);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, SignalKind::Expansion);
        assert!(doc.contains_verbatim(&found[0].quote));
    }
}
