//! Company slugs: lowercase ASCII kebab, `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 80 characters.

use std::fmt;

pub const MAX_SLUG_LEN: usize = 80;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a company slug (lowercase letters, digits and single dashes, at most 80 characters)")]
pub struct SlugError;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slug(String);

impl Slug {
    pub fn parse(s: &str) -> Result<Self, SlugError> {
        let valid = !s.is_empty()
            && s.len() <= MAX_SLUG_LEN
            && s.split('-')
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        if valid { Ok(Self(s.to_owned())) } else { Err(SlugError) }
    }

    /// Kebab-cases free text (a company's legal name) into a slug, if anything is left.
    pub fn from_name(name: &str) -> Option<Self> {
        let mut out = String::with_capacity(name.len());
        for c in name.chars() {
            if c.is_ascii_alphanumeric() {
                out.push(c.to_ascii_lowercase());
            } else if c == '&' {
                if !out.is_empty() && !out.ends_with('-') {
                    out.push('-');
                }
                out.push_str("and-");
            } else if c == '\'' || c == '.' && out.ends_with(|p: char| p.is_ascii_alphabetic()) {
                // "McDonald's" -> "mcdonalds", "U.S." -> "us"
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
        let mut s = out.trim_matches('-').to_owned();
        while s.contains("--") {
            s = s.replace("--", "-");
        }
        if s.len() > MAX_SLUG_LEN {
            s.truncate(MAX_SLUG_LEN);
            s = s.trim_end_matches('-').to_owned();
        }
        Self::parse(&s).ok()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_slugs_parse_and_malformed_ones_do_not() {
        for ok in ["apple", "a1", "coca-cola", "x-2-y"] {
            assert!(Slug::parse(ok).is_ok(), "{ok}");
        }
        let long = "a".repeat(81);
        for bad in ["", "-a", "a-", "a--b", "Apple", "a_b", "..", "a/b", "é", long.as_str()] {
            assert!(Slug::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_become_kebab_slugs() {
        let slug = |n: &str| Slug::from_name(n).map(|s| s.0);
        assert_eq!(slug("Apple"), Some("apple".into()));
        assert_eq!(slug("Johnson & Johnson"), Some("johnson-and-johnson".into()));
        assert_eq!(slug("McDonald's"), Some("mcdonalds".into()));
        assert_eq!(slug("AT&T"), Some("at-and-t".into()));
        assert_eq!(slug("---"), None);
    }
}
