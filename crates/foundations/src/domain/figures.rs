//! Figures and text for people, in one spelling everywhere (the console, the status page, the
//! Brain's context and its offline answers, workflow drafts): grouped thousands, whole US
//! dollars, and text clipped with an ellipsis.

/// `1234567` → `1,234,567`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whole US dollars: `$1,234,567`.
pub fn usd(n: u64) -> String {
    format!("${}", grouped(n))
}

/// `text` cut to at most `max` characters, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!([usd(0), usd(999), usd(1_000), usd(1_250_000)], ["$0", "$999", "$1,000", "$1,250,000"]);
        assert_eq!(grouped(12_345_678), "12,345,678");
    }

    #[test]
    fn text_is_clipped_on_characters_with_an_ellipsis() {
        assert_eq!((clip("héllo", 2), clip("hé", 2)), ("hé…".to_owned(), "hé".to_owned()));
    }
}
