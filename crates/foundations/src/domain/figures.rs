//! Figures for people, in one spelling everywhere (the console, the status page, the Brain's
//! context and its offline answers): grouped thousands and whole US dollars.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!([usd(0), usd(999), usd(1_000), usd(1_250_000)], ["$0", "$999", "$1,000", "$1,250,000"]);
        assert_eq!(grouped(12_345_678), "12,345,678");
    }
}
