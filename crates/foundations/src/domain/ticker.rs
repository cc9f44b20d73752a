//! `Ticker`: an exchange symbol, case-insensitive, with share-class spellings unified to the
//! SEC's dash form (`BRK.B`, `brk/b`, `BRK B` -> `BRK-B`).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a ticker symbol (letters and digits, an optional share class, at most 12 characters)")]
pub struct TickerError;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticker(String);

impl Ticker {
    pub fn parse(input: &str) -> Result<Self, TickerError> {
        let unified: String = input
            .trim()
            .chars()
            .map(|c| if matches!(c, '.' | '/' | ' ' | '_') { '-' } else { c.to_ascii_uppercase() })
            .collect();
        let ok = !unified.is_empty()
            && unified.len() <= 12
            && unified.split('-').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()));
        if ok { Ok(Self(unified)) } else { Err(TickerError) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Ticker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_class_spellings_unify() {
        for input in ["BRK.B", "BRK-B", "brk/b", "brk b", " Brk.b "] {
            assert_eq!(Ticker::parse(input).map(|t| t.0), Ok("BRK-B".to_owned()), "{input}");
        }
        assert_eq!(Ticker::parse("aapl").map(|t| t.0), Ok("AAPL".to_owned()));
    }

    #[test]
    fn junk_is_refused() {
        for bad in ["", "-", "A--B", "AAPL;DROP", "ÄPFEL", "ABCDEFGHIJKLM"] {
            assert!(Ticker::parse(bad).is_err(), "{bad}");
        }
    }
}
