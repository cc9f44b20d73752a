//! Officers named in appointment sentences: "On May 1, 2025, the Board appointed Jane Roe as
//! Chief Executive Officer", "Jane Roe was elected President", "today announced the
//! appointment of Donna Dorsey as Chief Human Resources Officer". The person and the title
//! become an executive record whose receipt is the sentence itself (`executives::quote_for`
//! finds the line holding both), so a company's chief executive is found wherever a filing
//! names one, and a newer appointment supersedes an older title. Departures ("resigned as")
//! and successions ("will succeed X as") name no appointee and are not read.

use super::titles::TITLE_WORDS;

/// Verbs after which the appointee is named ("appointed Jane Roe as ...").
const VERBS: [&str; 8] = ["appointed", "elected", "named", "promoted", "appoints", "elects", "names", "promotes"];
/// Nouns after which, with "of", the appointee is named ("the appointment of Jane Roe as ...").
const NOUNS: [&str; 3] = ["appointment", "election", "promotion"];
/// Courtesy titles skipped before a name.
const COURTESY: [&str; 5] = ["Mr.", "Ms.", "Mrs.", "Dr.", "Miss"];
/// Words that open a clause or a body, never a person's name.
const NOT_NAMES: [&str; 12] =
    ["The", "Board", "Company", "Directors", "Our", "Its", "We", "It", "Each", "Effective", "On", "In"];
/// Words of a title (beside `titles::TITLE_WORDS`), never of a person's name ("Executive Vice
/// President was appointed ...", "the Companys Interim Chief Financial Officer").
const MORE_TITLE_WORDS: [&str; 7] = ["companys", "company's", "group", "financial", "operating", "interim", "acting"];
/// Words that may stand inside a title between capitalised words.
const CONNECTORS: [&str; 3] = ["and", "&", "of"];
/// Words that make a title one of an officer (a board seat alone is no officer title).
const OFFICER_WORDS: [&str; 12] = [
    "chief",
    "president",
    "officer",
    "chair",
    "chairman",
    "chairwoman",
    "treasurer",
    "secretary",
    "controller",
    "counsel",
    "ceo",
    "cfo",
];

/// A person appointed to a title, as the sentence spells both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appointment {
    pub person: String,
    pub title: String,
}

/// The appointment a sentence states, if it names both the person and an officer title.
pub fn appointment(sentence: &str) -> Option<Appointment> {
    let tokens: Vec<&str> = sentence.split_whitespace().collect();
    (0..tokens.len()).find_map(|i| after_verb(&tokens, i).or_else(|| before_verb(&tokens, i)))
}

/// "appointed Jane Roe as Chief Executive Officer", "the appointment of Jane Roe as ...".
fn after_verb(tokens: &[&str], i: usize) -> Option<Appointment> {
    let word = bare(tokens[i]).to_lowercase();
    let start = if VERBS.contains(&word.as_str()) {
        i + 1
    } else if NOUNS.contains(&word.as_str()) && tokens.get(i + 1) == Some(&"of") {
        i + 2
    } else {
        return None;
    };
    let start = start + usize::from(tokens.get(start).is_some_and(|t| COURTESY.contains(t)));
    let (person, next) = name_from(tokens, start)?;
    let title = title_after(tokens, next)?;
    Some(Appointment { person, title })
}

/// "Jane Roe was appointed Chief Executive Officer", "Jane Roe has been named President".
fn before_verb(tokens: &[&str], i: usize) -> Option<Appointment> {
    if !VERBS[..4].contains(&bare(tokens[i]).to_lowercase().as_str()) {
        return None;
    }
    let aux = match tokens.get(i.checked_sub(2)?..i)? {
        [_, "was" | "is"] => 1,
        ["has" | "had", "been"] | ["will", "be"] => 2,
        _ => return None,
    };
    let end = i - aux;
    let begin = (end.saturating_sub(5)..end).find(|&b| tokens[b..end].iter().all(|t| is_name_token(t)))?;
    let words: Vec<&str> = tokens[begin..end].iter().map(|t| bare(t)).collect();
    let person = person_of(&words)?;
    let title = title_after(tokens, i + 1)?;
    Some(Appointment { person, title })
}

/// A name of two to five capitalised words starting at `start`; returns it and the index after.
fn name_from(tokens: &[&str], start: usize) -> Option<(String, usize)> {
    let mut words = Vec::new();
    let mut i = start;
    while let Some(t) = tokens.get(i)
        && is_name_token(t)
        && words.len() < 5
    {
        words.push(bare(t));
        i += 1;
        if t.ends_with(',') {
            break;
        }
    }
    Some((person_of(&words)?, i))
}

fn person_of(words: &[&str]) -> Option<String> {
    let words = match words.split_first() {
        Some((first, rest)) if COURTESY.contains(first) => rest,
        _ => words,
    };
    let real = words.iter().filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() > 1).count();
    let titled = words.iter().any(|w| {
        let w = w.to_lowercase().replace('\u{2019}', "'");
        TITLE_WORDS.contains(&w.as_str()) || MORE_TITLE_WORDS.contains(&w.as_str())
    });
    if !(2..=5).contains(&words.len()) || real < 2 || titled || NOT_NAMES.contains(&words[0]) {
        return None;
    }
    Some(words.join(" "))
}

/// The title after "as", "to", "to serve as" (and "the Company's", "its", "our", "the"):
/// capitalised words, with "and", "&" or "of" between them, up to the first stop.
fn title_after(tokens: &[&str], at: usize) -> Option<String> {
    let mut i = at;
    match tokens.get(i) {
        Some(&"as") => i += 1,
        Some(&"to") if tokens.get(i + 1) == Some(&"serve") && tokens.get(i + 2) == Some(&"as") => i += 3,
        Some(&"to") => i += 1,
        _ => {}
    }
    while let Some(t) = tokens.get(i)
        && matches!(*t, "the" | "its" | "our" | "new" | "Company's" | "Company\u{2019}s" | "Companys" | "a")
    {
        i += 1;
    }
    let mut words: Vec<&str> = Vec::new();
    while let Some(t) = tokens.get(i) {
        let word = bare(t);
        let capital = word.chars().next().is_some_and(char::is_uppercase);
        let connector = CONNECTORS.contains(&word)
            && tokens
                .get(i + 1)
                .is_some_and(|n| n.chars().next().is_some_and(char::is_uppercase) && !n.starts_with("The"));
        if !(capital || connector) || word.is_empty() {
            break;
        }
        words.push(word);
        i += 1;
        if t.ends_with([',', '.', ';', ')']) || t.starts_with('(') {
            break;
        }
    }
    while words.last().is_some_and(|w| CONNECTORS.contains(w)) {
        words.pop();
    }
    let title = words.join(" ");
    let lower = title.to_lowercase();
    lower.split_whitespace().any(|w| OFFICER_WORDS.contains(&w)).then_some(title)
}

/// A capitalised word of a name, or an initial ("M.").
fn is_name_token(token: &str) -> bool {
    let word = bare(token);
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase)
        && chars.all(|c| c.is_alphabetic() || matches!(c, '.' | '-' | '\'' | '\u{2019}'))
        && !token.starts_with(['(', '"', '\u{201c}'])
}

/// A token without the punctuation that may close it.
fn bare(token: &str) -> &str {
    token.trim_end_matches([',', ';', ':', ')']).trim_end_matches(|c| c == '.' && token.len() > 3 && !is_initial(token))
}

fn is_initial(token: &str) -> bool {
    let t = token.trim_end_matches(',');
    t.len() == 2 && t.ends_with('.') && t.starts_with(|c: char| c.is_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn got(s: &str) -> Option<(String, String)> {
        appointment(s).map(|a| (a.person, a.title))
    }

    fn pair(p: &str, t: &str) -> Option<(String, String)> {
        Some((p.to_owned(), t.to_owned()))
    }

    #[test]
    fn the_appointee_and_the_title_are_read_from_real_sentences() {
        assert_eq!(
            got(
                "CHICAGO\u{2013}(BUSINESS WIRE)\u{2013}Alight, Inc. (NYSE: ALIT), a leading cloud-based provider of human capital and technology-enabled services, today announced the appointment of Donna Dorsey as Chief Human Resources Officer (CHRO)."
            ),
            pair("Donna Dorsey", "Chief Human Resources Officer")
        );
        assert_eq!(
            got(
                "On January 5, 2025, the Board of Directors appointed Mr. John A. Smith as President and Chief Executive Officer of the Company, effective immediately."
            ),
            pair("John A. Smith", "President and Chief Executive Officer")
        );
        assert_eq!(
            got("Sean Folkson was elected President, CEO and a director upon formation of the Company."),
            pair("Sean Folkson", "President")
        );
        assert_eq!(
            got("Effective March 1, 2025, Jane Roe has been named Chief Financial Officer."),
            pair("Jane Roe", "Chief Financial Officer")
        );
    }

    #[test]
    fn departures_board_seats_and_clauses_are_no_appointment() {
        for s in [
            "On May 1, 2025, John Smith resigned as Chief Executive Officer of the Company.",
            "The Board appointed Jane Roe to the Board of Directors.",
            "We appointed Ms. Xiang as our audit committee financial expert.",
            "The Company was appointed as the sole managing member of Symbotic Holdings.",
            "Ronald Schellekens 58 Executive Vice President was named Chief Human Resources Officer in 2019.",
        ] {
            assert_eq!(got(s), None, "{s}");
        }
    }
}
