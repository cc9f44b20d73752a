//! A frozen copy of the keyword rules the extractor used before issue 16 (a sentence's
//! first kind whose word pattern matches). Kept here only so the `keyword` stratum of the
//! evaluation sample can be drawn again exactly; the extractor no longer uses them.

#![allow(dead_code)]

use gtms_companies::domain::SignalKind;

/// The rules, in priority order. Patterns are space-separated words.
pub const RULES: [(SignalKind, &[&str]); 15] = [
    (
        SignalKind::LeadershipChange,
        &[
            "appointed",
            "was named",
            "has been named",
            "were named",
            "resign*",
            "will resign",
            "will retire",
            "retired as",
            "stepped down",
            "step down",
            "will succeed",
            "succeeded",
            "successor to",
            "promoted to",
            "joined the company as",
            "joined us as",
        ],
    ),
    (
        SignalKind::Acquisition,
        &[
            "acquired",
            "to acquire",
            "completed the acquisition",
            "the acquisition of",
            "our acquisition of",
            "its acquisition of",
            "acquisitions of",
            "merger agreement",
            "merged with",
            "agreement and plan of merger",
            "business combination with",
        ],
    ),
    (
        SignalKind::Divestiture,
        &[
            "divest*",
            "spin off",
            "spun off",
            "spin-off",
            "completed the sale",
            "sold our _ business",
            "sale of our _ business",
            "disposition of our",
            "agreed to sell",
            "separation of our",
        ],
    ),
    (
        SignalKind::Partnership,
        &[
            "partnership with",
            "partnered with",
            "partner with",
            "strategic alliance",
            "alliance with",
            "collaboration agreement",
            "collaboration with",
            "joint venture",
            "co-development",
            "licensing agreement with",
            "license agreement with",
        ],
    ),
    (
        SignalKind::Customer,
        &[
            "our customers include",
            "customers include",
            "largest customer*",
            "customer accounted for",
            "customers accounted for",
            "were awarded",
            "we were selected",
            "was awarded",
            "contract with the",
            "contracts with the",
            "customers such as",
            "serve customers",
            "serves customers",
        ],
    ),
    (
        SignalKind::Restructuring,
        &[
            "restructuring",
            "reduction in force",
            "workforce reduction",
            "reduction of our workforce",
            "layoff*",
            "headcount reduction*",
            "cost reduction program",
            "cost savings program",
            "closure of",
            "exit activities",
            "reorganization of",
        ],
    ),
    (SignalKind::Buyback, &["repurchase*", "buyback*", "buy back", "share repurchase*", "stock repurchase*"]),
    (SignalKind::Dividend, &["dividend*"]),
    (
        SignalKind::CapitalRaise,
        &[
            "public offering",
            "private placement",
            "net proceeds",
            "credit facility",
            "credit agreement",
            "term loan",
            "senior notes",
            "convertible notes",
            "at-the-market",
            "at the market offering",
            "issued and sold",
            "raised",
            "equity financing",
        ],
    ),
    (
        SignalKind::Product,
        &[
            "launched",
            "launch",
            "launches",
            "introduced",
            "unveiled",
            "new product*",
            "product launch*",
            "next-generation",
            "next generation",
            "commercial availability",
            "began shipping",
            "began selling",
            "released",
            "new platform",
            "new version",
        ],
    ),
    (
        SignalKind::Expansion,
        &[
            "expand*",
            "expansion",
            "opened",
            "new facility",
            "new facilities",
            "new plant",
            "new market*",
            "new location*",
            "new store*",
            "new office*",
            "broke ground",
            "construction of",
            "entered the",
            "entry into",
            "new distribution center",
        ],
    ),
    (
        SignalKind::Hiring,
        &[
            "full-time employees",
            "employees worldwide",
            "we employed",
            "approximately _ employees",
            "approximately _ full-time",
            "our workforce",
            "headcount",
            "hiring",
            "recruit*",
            "employees located",
        ],
    ),
    (
        SignalKind::Regulatory,
        &[
            "fda",
            "regulatory approval*",
            "approval from the",
            "clearance",
            "antitrust",
            "consent decree",
            "consent order",
            "department of justice",
            "federal trade commission",
            "epa",
            "regulated by",
            "subject to regulation",
            "subject to extensive regulation",
            "marketing authorization",
        ],
    ),
    (
        SignalKind::Outlook,
        &[
            "we expect",
            "we anticipate",
            "we plan to",
            "we intend to",
            "we aim to",
            "our goal is",
            "our guidance",
            "guidance for fiscal",
            "outlook",
            "we are targeting",
            "we target",
            "we remain committed",
        ],
    ),
    (
        SignalKind::Risk,
        &[
            "adversely affect*",
            "adverse effect",
            "material adverse",
            "could harm",
            "could be harmed",
            "could negatively",
            "may be harmed",
            "cybersecurity incident*",
            "security breach*",
            "we face",
            "could reduce",
        ],
    ),
];

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
        .map(|w| w.trim_matches(['-', '\'', '\u{2019}']).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The first kind (in `RULES` order) that has a pattern matching the sentence.
pub fn classify(sentence: &str) -> Option<SignalKind> {
    let words = words(sentence);
    RULES.iter().find(|(_, patterns)| patterns.iter().any(|p| matches_pattern(&words, p))).map(|(kind, _)| *kind)
}

/// Whether the pattern's words occur consecutively in `words`.
fn matches_pattern(words: &[String], pattern: &str) -> bool {
    let parts: Vec<&str> = pattern.split(' ').collect();
    if parts.is_empty() || words.len() < parts.len() {
        return false;
    }
    words.windows(parts.len()).any(|window| {
        window.iter().zip(&parts).all(|(w, p)| match p.strip_suffix('*') {
            Some(prefix) => w.starts_with(prefix),
            None => *p == "_" || w == p,
        })
    })
}
