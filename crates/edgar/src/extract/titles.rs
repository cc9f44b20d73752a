//! Cleaning executive names and titles as the signature blocks and officer tables give
//! them. A title loses: the person's own name, dates ("November 29, 2023"), years, ages and
//! footnote marks, career history (from "since", "from", "effective", "until", "prior to",
//! "previously", "former", "formerly", "served" onward), parentheticals, comma-separated pieces that
//! hold no title word (usually another person's name) unless they qualify the title before
//! them ("Chief Executive Officer, Europe": a region or a business), repeated pieces and
//! dangling words ("and", "Chief" at the end). A title left empty is no title.

/// Words at least one of which a title piece must contain.
pub(super) const TITLE_WORDS: [&str; 32] = [
    "chief",
    "officer",
    "president",
    "director",
    "chairman",
    "chair",
    "chairperson",
    "chairwoman",
    "vice",
    "treasurer",
    "secretary",
    "counsel",
    "controller",
    "executive",
    "head",
    "founder",
    "partner",
    "manager",
    "principal",
    "lead",
    "trustee",
    "ceo",
    "cfo",
    "coo",
    "cto",
    "evp",
    "svp",
    "vp",
    "general",
    "senior",
    "member",
    "accounting",
];

/// Words of a piece that qualifies the title before it (a region or a line of business).
const QUALIFIER_WORDS: [&str; 34] = [
    "europe",
    "emea",
    "americas",
    "america",
    "asia",
    "pacific",
    "apac",
    "international",
    "global",
    "worldwide",
    "north",
    "south",
    "latin",
    "china",
    "japan",
    "india",
    "canada",
    "u.s.",
    "us",
    "usa",
    "operations",
    "sales",
    "marketing",
    "finance",
    "technology",
    "products",
    "services",
    "retail",
    "commercial",
    "digital",
    "research",
    "development",
    "manufacturing",
    "strategy",
];

/// Words that end history in a title cell.
const HISTORY_MARKERS: [&str; 11] = [
    " former ",
    " since ",
    " from ",
    " effective ",
    " until ",
    " through ",
    " prior to ",
    " previously ",
    " formerly ",
    " served ",
    " who ",
];

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Words that cannot end a title.
const DANGLING: [&str; 9] = ["and", "&", "of", "the", "chief", "vice", "senior", "executive", "-"];

/// A clean title, or `None` when nothing of a title is left.
pub fn clean_title(raw: &str, person: &str) -> Option<String> {
    let mut t = format!(" {} ", raw.split_whitespace().collect::<Vec<_>>().join(" "));
    t = remove_case_insensitive(&t, person.trim());
    for marker in HISTORY_MARKERS {
        if let Some(i) = t.to_lowercase().find(marker) {
            t.truncate(i);
        }
    }
    let t = strip_parentheticals(&t);
    let mut pieces: Vec<String> = Vec::new();
    for piece in t.split([',', ';']) {
        let words: Vec<&str> = piece.split_whitespace().filter(|w| !is_date_word(w)).collect();
        let piece = trim_dangling(words).join(" ");
        let lower = piece.to_lowercase();
        let has = |list: &[&str]| {
            lower.split_whitespace().any(|w| list.contains(&w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.')))
        };
        let qualifies = !pieces.is_empty() && has(&QUALIFIER_WORDS);
        if (has(&TITLE_WORDS) || qualifies) && !pieces.iter().any(|p| p.eq_ignore_ascii_case(&piece)) {
            pieces.push(piece);
        }
    }
    let title = trim_dangling(pieces.join(", ").split_whitespace().collect()).join(" ");
    let title = title.trim_end_matches([',', '.', ':', ' ']).to_owned();
    (title.len() >= 3 && title.len() <= 120).then_some(title)
}

/// A display name: single spaces, no `/s/`, all-caps names in title case.
pub fn clean_name(raw: &str) -> Option<String> {
    let name = raw.replace("/s/", " ");
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let name = name.trim_matches([',', ' ']).to_owned();
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 4 || name.len() > 60 || name.chars().any(|c| c.is_ascii_digit() || c == '@') {
        return None;
    }
    let all_caps = !name.chars().any(char::is_lowercase);
    Some(if all_caps { title_case(&name) } else { name })
}

/// A key under which spellings of one person meet: lowercase letters of the words that are
/// longer than an initial, without generational suffixes and degrees.
pub fn person_key(name: &str) -> String {
    name.split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).collect::<String>())
        .filter(|w| {
            w.len() > 1 && !matches!(w.as_str(), "jr" | "sr" | "ii" | "iii" | "iv" | "phd" | "md" | "cpa" | "esq")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn title_case(name: &str) -> String {
    name.split(' ')
        .map(|w| {
            let mut out = String::new();
            let mut start = true;
            for c in w.chars() {
                if start {
                    out.extend(c.to_uppercase());
                } else {
                    out.extend(c.to_lowercase());
                }
                start = matches!(c, '-' | '\'' | '.');
            }
            if matches!(out.as_str(), "Ii" | "Iii" | "Iv") { out.to_uppercase() } else { out }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_date_word(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    !w.is_empty()
        && (w.chars().all(|c| c.is_ascii_digit())
            || MONTHS.contains(&w.as_str())
            || word.starts_with('(') && word.ends_with(')') && word.len() <= 4)
}

fn trim_dangling(mut words: Vec<&str>) -> Vec<&str> {
    while words.last().is_some_and(|w| DANGLING.contains(&w.to_lowercase().as_str())) {
        words.pop();
    }
    while words.first().is_some_and(|w| matches!(w.to_lowercase().as_str(), "and" | "&" | "-" | "as")) {
        words.remove(0);
    }
    words
}

fn strip_parentheticals(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

fn remove_case_insensitive(haystack: &str, needle: &str) -> String {
    if needle.is_empty() {
        return haystack.to_owned();
    }
    let (lh, ln) = (haystack.to_lowercase(), needle.to_lowercase());
    if lh.len() != haystack.len() {
        return haystack.to_owned(); // lowercasing changed byte offsets; leave as is
    }
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    let is_word_char = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    for (i, _) in lh.match_indices(&ln) {
        let before = haystack[..i].chars().next_back();
        let after = haystack[i + ln.len()..].chars().next();
        if i < last || is_word_char(before) || is_word_char(after) {
            continue; // only whole-word occurrences are the person's name
        }
        out.push_str(&haystack[last..i]);
        out.push(' ');
        last = i + ln.len();
    }
    out.push_str(&haystack[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(raw: &str, person: &str) -> Option<String> {
        clean_title(raw, person)
    }

    #[test]
    fn dates_and_repeated_names_are_removed() {
        assert_eq!(
            t("Milton M. Morris, Ph.D. Director November 29, 2023", "MILTON M. MORRIS, PH.D.").as_deref(),
            Some("Director")
        );
        assert_eq!(
            t("Jacob Elguicze Senior Vice President, Chief November 29, 2023", "Jacob Elguicze").as_deref(),
            Some("Senior Vice President")
        );
        assert_eq!(t("Sara E. Armbruster Director", "Sara E. Armbruster").as_deref(), Some("Director"));
    }

    #[test]
    fn other_peoples_names_and_duplicates_are_removed() {
        assert_eq!(t("Robert P. Sumas, Director Kevin Begley, Director", "Kevin Begley").as_deref(), Some("Director"));
    }

    #[test]
    fn years_ages_footnotes_and_history_are_removed() {
        assert_eq!(
            t("Executive Vice President, Chief Product Officer 2021", "X").as_deref(),
            Some("Executive Vice President, Chief Product Officer")
        );
        assert_eq!(t("General Counsel since January 2016.", "X").as_deref(), Some("General Counsel"));
        assert_eq!(
            t("Senior Executive Vice President and Chief Human Resources Officer(5)", "X").as_deref(),
            Some("Senior Executive Vice President and Chief Human Resources Officer")
        );
        assert_eq!(
            t("Chief Executive Officer, President and Chairman of the Board 36", "X").as_deref(),
            Some("Chief Executive Officer, President and Chairman of the Board")
        );
        assert_eq!(
            t("Chief Executive Officer and Director (Principal Executive Officer)", "X").as_deref(),
            Some("Chief Executive Officer and Director")
        );
    }

    #[test]
    fn dangling_words_are_trimmed_and_empty_titles_refused() {
        assert_eq!(
            t("President, Chief Executive Officer and", "X").as_deref(),
            Some("President, Chief Executive Officer")
        );
        assert_eq!(t("November 29, 2023", "X"), None);
        // A former title is no title (a signature line "Vella Deng, Former Chief Financial Officer").
        assert_eq!(t("Former Chief Financial Officer", "Vella Deng"), None);
        assert_eq!(t("Jane Roe", "Jane Roe"), None);
    }

    #[test]
    fn names_are_cleaned_and_keyed() {
        assert_eq!(clean_name("MARK A. STEVENS").as_deref(), Some("Mark A. Stevens"));
        assert_eq!(clean_name("/s/ Timothy D. Cook").as_deref(), Some("Timothy D. Cook"));
        assert_eq!(clean_name("x@y.com"), None);
        assert_eq!(person_key("Timothy D. Cook"), person_key("TIMOTHY COOK, Jr."));
    }
}
