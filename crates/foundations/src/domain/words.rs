//! The words text is searched by: runs of letters and digits, three characters or more,
//! lowercased. Memory search, the memory index and the demo model all use this one rule.

use std::collections::HashSet;

pub fn search_words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() > 2).map(str::to_lowercase).collect()
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
