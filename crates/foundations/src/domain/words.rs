//! The words text is searched by: runs of letters and digits, three characters or more,
//! lowercased. Memory search, the memory index and the demo model all use this one rule. And
//! what text costs in tokens, by the same estimate for budgets, the memory index and the demo
//! model.

use std::collections::HashSet;

pub fn search_words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() > 2).map(str::to_lowercase).collect()
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
}
