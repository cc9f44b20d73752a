//! Company names to slugs: drop SEC state tags (`/DE/`, `/NEW`), share-listing tags (`/ADR`)
//! and trailing corporate suffixes (Inc, Corp, Co, Ltd, plc, N.V. ...), then kebab-case.

use crate::domain::Slug;

/// Corporate-form words removed from the end of a name (compared without dots and commas).
const SUFFIXES: &[&str] = &[
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "cos",
    "companies",
    "ltd",
    "limited",
    "llc",
    "plc",
    "lp",
    "llp",
    "nv",
    "sa",
    "ag",
    "se",
    "spa",
    "bv",
    "ab",
    "asa",
    "oyj",
    "the",
];

/// The legal name without state tags and corporate suffixes, as written (case kept).
pub fn base_name(legal_name: &str) -> String {
    let mut name = legal_name.trim().to_owned();
    // "COSTCO WHOLESALE CORP /NEW", "BANK OF AMERICA CORP /DE/", "Limited/ADR"
    if let Some(i) = name.find('/') {
        name.truncate(i);
    }
    let mut words: Vec<&str> = name.split_whitespace().collect();
    while let Some(last) = words.last() {
        let bare: String = last.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        if words.len() > 1 && (SUFFIXES.contains(&bare.as_str()) || bare.is_empty()) {
            words.pop();
        } else {
            break;
        }
    }
    words.join(" ").trim_end_matches([',', '.', '&', ' ']).to_owned()
}

/// The slug a company would get before collisions are resolved.
pub fn base_slug(legal_name: &str) -> Option<Slug> {
    Slug::from_name(&base_name(legal_name)).or_else(|| Slug::from_name(legal_name))
}

/// A slug made unique with the ticker: `apple` + `AAPL` -> `apple-aapl`.
pub fn slug_with_ticker(base: &Slug, ticker: &str) -> Option<Slug> {
    Slug::from_name(&format!("{} {}", base.as_str(), ticker))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slug(name: &str) -> String {
        base_slug(name).map(|s| s.as_str().to_owned()).unwrap_or_default()
    }

    #[test]
    fn corporate_suffixes_and_state_tags_are_dropped() {
        assert_eq!(slug("Apple Inc."), "apple");
        assert_eq!(slug("MICROSOFT CORP"), "microsoft");
        assert_eq!(slug("Tesla, Inc."), "tesla");
        assert_eq!(slug("COSTCO WHOLESALE CORP /NEW"), "costco-wholesale");
        assert_eq!(slug("BANK OF AMERICA CORP /DE/"), "bank-of-america");
        assert_eq!(slug("ELI LILLY & Co"), "eli-lilly");
        assert_eq!(slug("JOHNSON & JOHNSON"), "johnson-and-johnson");
        assert_eq!(slug("Contemporary Amperex Technology Co., Limited/ADR"), "contemporary-amperex-technology");
        assert_eq!(slug("ASML HOLDING NV"), "asml-holding");
    }

    #[test]
    fn a_name_that_is_only_a_suffix_keeps_a_slug() {
        assert_eq!(slug("Co"), "co");
    }

    #[test]
    fn tickers_disambiguate() {
        let base = base_slug("Apple Inc.").map(|b| slug_with_ticker(&b, "AAPL"));
        assert_eq!(base.flatten().map(|s| s.as_str().to_owned()), Some("apple-aapl".into()));
        let class = base_slug("Berkshire Hathaway Inc").map(|b| slug_with_ticker(&b, "BRK-B"));
        assert_eq!(class.flatten().map(|s| s.as_str().to_owned()), Some("berkshire-hathaway-brk-b".into()));
    }
}
