//! Which kind of company event a sentence states, if any. A kind is assigned only by an
//! *event pattern*: a verb of something done, announced or scheduled ("completed the
//! acquisition of", "entered into .. credit agreement", "the Board .. declared .. dividend"),
//! never by a topic word alone, so descriptions, policies and statistics that merely mention
//! a topic match nothing. Patterns (in `rules.rs`; vetoes and needs in `vetoes.rs`) are word
//! sequences: `a|b` alternatives, `word*` a prefix, `_` any one word, `..` a gap of up to `GAP`
//! words, `{self}` the company (we, the Company, its subsidiary, or the first word of its name).
//! The earliest match in the sentence wins (the main clause usually comes first); at the same
//! position the rule listed first wins. Exclusions (hedges, accounting, history) live in
//! `exclusions.rs`.
//! The rules are listed in `docs/signal-rules.md`; keep the two in step.

use super::rules::{RULES, Rule};
use super::vetoes::{NEEDS, Need, VETOES, Veto};
use gtms_companies::domain::SignalKind;

/// Most words a `..` may skip.
pub const GAP: usize = 8;

/// Words that stand for the company itself as the subject of an event.
const SELF_WORDS: [&str; 7] = ["we", "company", "companys", "company's", "subsidiary", "segment", "registrant"];

/// A matched event: its kind, whether it states something done or announced (rather than
/// only planned), whether it needs a stated date, and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub kind: SignalKind,
    pub at: usize,
    pub needs_date: bool,
}

/// Lowercase words of a sentence: letters, digits, `-` and `'` kept, everything else splits,
/// except that `,` and `.` between digits stay inside a number ("12,000", "3.5").
pub fn words(sentence: &str) -> Vec<String> {
    let chars: Vec<char> = sentence.chars().collect();
    let in_number =
        |i: usize| i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(char::is_ascii_digit);
    let joined: String =
        chars.iter().enumerate().map(|(i, &c)| if matches!(c, ',' | '.') && in_number(i) { '0' } else { c }).collect();
    joined
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches(['-', '\'', '\u{2019}']).replace('\u{2019}', "'").to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The event a sentence states: the matching rule whose verb comes first (rule order breaks
/// ties). A pattern opening with `{self} ..` needs the company named at most `GAP` words
/// before its verb; its position is the verb's, so "we closed the acquisition" is decided
/// by "closed the acquisition", not by "we".
pub fn event(words: &[String], name: Option<&str>) -> Option<Event> {
    let mut best: Option<Event> = None;
    for Rule { kind, pattern, needs_date } in RULES {
        let parts: Vec<&str> = pattern.split(' ').collect();
        let (subject, parts) = match parts.as_slice() {
            ["{self}", "..", rest @ ..] => (Some(GAP), rest),
            ["{self}", rest @ ..] => (Some(1), rest),
            all => (None, all),
        };
        if !anchor_present(words, parts) {
            continue;
        }
        let limit = best.map_or(words.len(), |b| b.at);
        let subject_before = |i: usize| {
            subject.is_none_or(|gap| words[i.saturating_sub(gap)..i].iter().any(|w| token_matches(w, "{self}", name)))
        };
        if let Some(at) =
            (0..limit).find(|&i| matches_at(words, i, parts, name) && subject_before(i) && !subordinate(words, i))
        {
            best = Some(Event { kind: *kind, at, needs_date: *needs_date });
        }
    }
    best.filter(|e| !vetoed(words, e.kind, name) && needs_met(words, e.kind, name))
}

/// Conjunctions that make what follows a clause of time or cause, told as the background of
/// the sentence's news ("after the Company ceased operations of its PPE business in July 2021",
/// "after we acquired the majority of its equity interest").
const SUBORDINATORS: [&str; 3] = ["after", "once", "because"];

/// Whether the event at `at` sits in such a clause: a subordinator among the three words
/// before its verb (its subject between them).
fn subordinate(words: &[String], at: usize) -> bool {
    words[at.saturating_sub(3)..at].iter().any(|w| SUBORDINATORS.contains(&w.as_str()))
}

/// Whether the sentence names what an event of `kind` needs (a kind without needs has them).
fn needs_met(words: &[String], kind: SignalKind, name: Option<&str>) -> bool {
    NEEDS.iter().filter(|n| n.kind == kind).all(|Need { pattern, .. }| {
        let parts: Vec<&str> = pattern.split(' ').collect();
        (0..words.len()).any(|i| matches_at(words, i, &parts, name))
    })
}

/// Whether a veto of `kind` matches anywhere in the sentence.
fn vetoed(words: &[String], kind: SignalKind, name: Option<&str>) -> bool {
    VETOES.iter().filter(|v| v.kind == kind).any(|Veto { pattern, .. }| {
        let parts: Vec<&str> = pattern.split(' ').collect();
        anchor_present(words, &parts) && (0..words.len()).any(|i| matches_at(words, i, &parts, name))
    })
}

/// The kind alone (for callers that need no position).
pub fn classify(sentence: &str, name: Option<&str>) -> Option<SignalKind> {
    event(&words(sentence), name).map(|e| e.kind)
}

/// Cheap pre-check: the pattern's first literal token occurs somewhere in the sentence.
fn anchor_present(words: &[String], parts: &[&str]) -> bool {
    match parts.iter().find(|p| !matches!(**p, ".." | "_" | "{self}")) {
        Some(token) => words.iter().any(|w| token_matches(w, token, None)),
        None => true,
    }
}

/// Whether `parts` match `words` starting exactly at `i`.
fn matches_at(words: &[String], i: usize, parts: &[&str], name: Option<&str>) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return true;
    };
    if *first == ".." {
        return (0..=GAP).any(|skip| i + skip <= words.len() && matches_at(words, i + skip, rest, name));
    }
    match words.get(i) {
        Some(w) if token_matches(w, first, name) => matches_at(words, i + 1, rest, name),
        _ => false,
    }
}

/// One pattern token against one word: `_`, `{self}`, or `|`-separated alternatives, each
/// exact or a `*` prefix.
fn token_matches(word: &str, token: &str, name: Option<&str>) -> bool {
    match token {
        "_" => true,
        _ => token.split('|').any(|alt| match alt {
            "{self}" => SELF_WORDS.contains(&word) || name.is_some_and(|n| n == word),
            _ => match alt.strip_suffix('*') {
                Some(prefix) => word.starts_with(prefix),
                None => word == alt,
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(s: &str) -> Option<&'static str> {
        classify(s, None).map(SignalKind::as_str)
    }

    #[test]
    fn gaps_alternatives_prefixes_and_self() {
        let ws = words("On March 8, 2021, the Company entered into a new unsecured indenture agreement.");
        assert!(matches_at(&ws, 5, &["company", "entered", "into", "..", "indenture"], None));
        assert!(token_matches("notes", "shares|notes", None));
        assert!(token_matches("restructurings", "restructur*", None));
        assert!(token_matches("acme", "{self}", Some("acme")) && !token_matches("acme", "{self}", None));
        assert!(token_matches("company", "board|{self}", None) && token_matches("board", "board|{self}", None));
    }

    #[test]
    fn the_earliest_event_decides_the_kind() {
        assert_eq!(
            kind(
                "On January 18, 2023, in connection with the acquisition of Flooring Liquidators, our subsidiary entered into a promissory note for $5.0 million."
            ),
            Some("capital_raise")
        );
        assert_eq!(
            kind("In 2023, we acquired Acme Robotics and entered into a new credit agreement."),
            Some("acquisition")
        );
    }

    #[test]
    fn an_event_in_a_clause_of_time_or_cause_is_background() {
        assert_eq!(
            kind(
                "The Company had $0 operating revenues for both fiscal years of 2023 and 2022 after the Company ceased operations of its PPE business in July 2021."
            ),
            None
        );
        assert_eq!(
            kind("After a competitive process, the Company acquired Acme Robotics in May 2024."),
            Some("acquisition")
        );
    }

    /// Session 31's kinds, read off `heldaside_served17` (the rules alone; the second reading
    /// may still drop an old event).
    #[test]
    fn licences_notes_sold_investigations_and_joint_development_have_their_kinds() {
        for (s, want) in [
            ("On June 1, 2017 we acquired a patent license to a video synthesis and release system.", "partnership"),
            (
                "In 2021, we also entered into a license agreement with the inventor of the same pharmaceutical product to acquire global rights.",
                "partnership",
            ),
            ("On July 27, 2023, we completed the public offer and sale of senior unsecured notes.", "capital_raise"),
            (
                "On June 26, 2020, the European Commission informed Visa that it opened a preliminary investigation into its rules.",
                "regulatory",
            ),
            (
                "In September 2020, Fluence entered into a Supply Agreement with a battery manufacturer to design, develop and sell a battery module.",
                "partnership",
            ),
        ] {
            let name = s.contains("Visa").then_some("visa").or(s.contains("Fluence").then_some("fluence"));
            assert_eq!(classify(s, name).map(SignalKind::as_str), Some(want), "{s}");
        }
        assert_eq!(kind("In 2023, we completed the sale of our Acme business."), Some("divestiture"));
    }

    #[test]
    fn topic_words_without_an_event_are_no_signal() {
        for s in [
            "Our customers include Walmart, Target and Costco.",
            "Our products are subject to extensive regulation by the FDA.",
            "As of December 31, 2023, we had approximately 4,000 full-time employees.",
            "The Company reviews goodwill for impairment annually as of July 31.",
        ] {
            assert_eq!(kind(s), None, "{s}");
        }
    }

    #[test]
    fn words_are_lowercased_and_split_on_punctuation() {
        assert_eq!(
            words("We (the Company) re-opened, FDA\u{2019}s."),
            vec!["we", "the", "company", "re-opened", "fda's"]
        );
    }
}
