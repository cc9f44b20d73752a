//! The words text is searched by: runs of letters and digits, three characters or more,
//! lowercased. Memory search, the memory index and the demo model all use this one rule. And
//! what text costs in tokens, by the same estimate for budgets, the memory index and the demo
//! model.

use std::borrow::Cow;
use std::collections::HashSet;

pub fn search_words(text: &str) -> HashSet<String> {
    let mut words = HashSet::new();
    each_search_word(text, |w| {
        words.insert(w.to_owned());
    });
    words
}

/// Calls `found` with each search word of `text` (repeats included), allocating only for a
/// word that is not lowercase already: the memory index reads a million entries at open this way.
pub fn each_search_word(text: &str, mut found: impl FnMut(&str)) {
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() > 2) {
        let lower = if word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
            Cow::Borrowed(word)
        } else {
            Cow::Owned(word.to_lowercase())
        };
        found(&lower);
    }
}

/// The words a name is matched by: apostrophes dropped ("Lowe's" is `lowes`), every other run
/// of non-alphanumerics a break, lowercased. The Brain finds the deals a question names by them
/// (`store::DealIndex`), so one rule serves the index and the match.
pub fn name_words(text: &str) -> Vec<String> {
    let kept: String = text.chars().filter(|c| !matches!(c, '\'' | '’')).collect();
    kept.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

/// A rough token count (about four characters per token), for budgets and the demo model.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_words_and_punctuation_are_dropped() {
        let mut got: Vec<String> = search_words("ICP: mid-market banks, v2 of_it").into_iter().collect();
        got.sort();
        assert_eq!(got, ["banks", "icp", "market", "mid"]);
    }

    #[test]
    fn name_words_drop_apostrophes_and_break_at_punctuation() {
        assert_eq!(name_words("LOWE’S Companies, Inc. / deal-043"), ["lowes", "companies", "inc", "deal", "043"]);
        assert!(name_words(" -- ").is_empty());
    }
}
