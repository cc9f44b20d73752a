//! Figures for people: HTML escaping, grouped thousands, whole dollars, cents, percentages
//! with one decimal, and short UTC times.

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

pub use crate::domain::{grouped as count, usd};

/// Dollars and cents: `$1,234.57` (negative and non-finite amounts shown as `$0.00`).
pub fn usd_cents(amount: f64) -> String {
    let cents = if amount.is_finite() && amount > 0.0 { (amount * 100.0).round() as u64 } else { 0 };
    format!("${}.{:02}", count(cents / 100), cents % 100)
}

/// A short figure for a chart label: `1234567` → `1.2M`, `45600` → `45.6K`, `950` → `950`.
pub fn compact(n: f64) -> String {
    let n = if n.is_finite() { n.max(0.0) } else { 0.0 };
    if n >= 1e9 {
        format!("{:.1}B", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.1}M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.1}K", n / 1e3)
    } else if n >= 10.0 || n == n.trunc() {
        format!("{n:.0}")
    } else {
        format!("{n:.2}")
    }
}

/// A ratio (0–1) as a percentage with one decimal: `0.605` → `60.5 %`.
pub fn percent(ratio: f64) -> String {
    format!("{:.1} %", ratio * 100.0)
}

/// `2026-11-23T02:21:54.123Z` → `2026-11-23 02:21 UTC`; anything else unchanged.
pub fn when(rfc3339: &str) -> String {
    match (rfc3339.get(..10), rfc3339.get(11..16)) {
        (Some(day), Some(time)) if rfc3339.as_bytes().get(10) == Some(&b'T') => format!("{day} {time} UTC"),
        _ => rfc3339.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_formatted_for_people() {
        assert_eq!(usd(1_234_567), "$1,234,567");
        assert_eq!((usd(0), usd(999), usd(1_000)), ("$0".into(), "$999".into(), "$1,000".into()));
        assert_eq!(count(12_345_678_901), "12,345,678,901");
        assert_eq!(usd_cents(1234.567), "$1,234.57");
        assert_eq!(
            (usd_cents(0.004), usd_cents(-3.0), usd_cents(f64::NAN)),
            ("$0.00".into(), "$0.00".into(), "$0.00".into())
        );
        assert_eq!(percent(0.605), "60.5 %");
        assert_eq!(
            (compact(1_234_567.0), compact(45_600.0), compact(950.0)),
            ("1.2M".into(), "45.6K".into(), "950".into())
        );
        assert_eq!((compact(0.5), compact(0.0)), ("0.50".into(), "0".into()));
        assert_eq!(percent(1.0), "100.0 %");
        assert_eq!(when("2026-11-23T02:21:54.123Z"), "2026-11-23 02:21 UTC");
        assert_eq!(when("soon"), "soon");
    }

    #[test]
    fn markup_is_escaped() {
        assert_eq!(escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}
