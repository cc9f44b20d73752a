//! How old a claim is (docs/company-data.md, "Freshness"). A signal's age counts from its
//! **as-of** date: the event date its sentence states, when that is a believable one (from 1990
//! to five years after the filing; a year or a month counts from its first day), else the filing
//! date. A signal is **fresh** when its as-of date is at most `FRESH_DAYS` before the data build
//! (the newest filing date in the inputs, `index.json`'s `generated_at`), or after it. Ages at
//! request time (`age_days`) count from the as-of date to the request's day; an event still
//! ahead is 0 days old.

use chrono::{Datelike, NaiveDate};

/// How many days before the data build a signal's as-of date may be and still be fresh.
pub const FRESH_DAYS: i64 = 365;
/// An event date later than this many years after its filing is not an event date.
pub const EVENT_HORIZON_YEARS: i32 = 5;
/// An event date before this year is not an event date.
pub const EARLIEST_EVENT_YEAR: i32 = 1990;

/// A `YYYY-MM-DD` date. The form every card writes is read digit by digit (it is read per
/// `/v1/enrich` request); anything else goes through chrono's parser.
pub fn day(text: &str) -> Option<NaiveDate> {
    match text.as_bytes() {
        [y @ .., b'-', m1, m2, b'-', d1, d2] if y.len() == 4 => {
            let digits = |bytes: &[u8]| {
                bytes.iter().try_fold(0u32, |n, b| b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0')))
            };
            let year = i32::try_from(digits(y)?).ok()?;
            NaiveDate::from_ymd_opt(year, digits(&[*m1, *m2])?, digits(&[*d1, *d2])?)
        }
        _ => NaiveDate::parse_from_str(text, "%Y-%m-%d").ok(),
    }
}

/// The first day of a stated event date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), when it is a
/// believable one for a sentence filed on `filed`.
pub fn event_day(event_date: &str, filed: NaiveDate) -> Option<NaiveDate> {
    let mut parts = event_date.splitn(3, '-');
    let year: i32 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next().map_or(Some(1), |m| m.parse().ok())?;
    let date: u32 = parts.next().map_or(Some(1), |d| d.parse().ok())?;
    let event = NaiveDate::from_ymd_opt(year, month, date)?;
    let horizon = filed.with_year(filed.year() + EVENT_HORIZON_YEARS).unwrap_or(filed);
    (year >= EARLIEST_EVENT_YEAR && event <= horizon).then_some(event)
}

/// The date a signal's age counts from: its believable event date, else its filing date.
pub fn as_of(event_date: Option<&str>, filed: NaiveDate) -> NaiveDate {
    event_date.and_then(|e| event_day(e, filed)).unwrap_or(filed)
}

/// Whether a signal dated `as_of` is fresh for data built on `built`.
pub fn is_fresh(as_of: NaiveDate, built: NaiveDate) -> bool {
    (built - as_of).num_days() <= FRESH_DAYS
}

/// Days from `as_of` to `today`; 0 for an event dated today or ahead.
pub fn age_days(as_of: NaiveDate, today: NaiveDate) -> i64 {
    (today - as_of).num_days().max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        day(text).expect("a date")
    }

    #[test]
    fn a_day_reads_as_chrono_reads_it() {
        for text in [
            "2025-08-01",
            "1999-12-31",
            "2024-02-29",
            "2023-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-1-01",
            "20x5-01-01",
            "",
            "2025-01-01T00",
        ] {
            assert_eq!(day(text), NaiveDate::parse_from_str(text, "%Y-%m-%d").ok(), "{text}");
        }
    }

    #[test]
    fn a_stated_date_counts_from_its_first_day_when_it_is_believable() {
        let filed = d("2023-11-03");
        assert_eq!(event_day("2023", filed), Some(d("2023-01-01")));
        assert_eq!(event_day("2024-06", filed), Some(d("2024-06-01")));
        assert_eq!(event_day("2023-09-30", filed), Some(d("2023-09-30")));
        assert_eq!(event_day("2096", filed), None, "past the filing + five years");
        assert_eq!(event_day("1989-12", filed), None, "before 1990");
        assert_eq!(event_day("2023-13", filed), None);
        assert_eq!(event_day("soon", filed), None);
        assert_eq!(as_of(Some("2096"), filed), filed, "no believable event date: the filing date");
        assert_eq!(as_of(Some("2028-11-03"), filed), d("2028-11-03"), "five years ahead is still one");
    }

    #[test]
    fn fresh_is_within_365_days_before_the_build_or_after_it_and_age_never_goes_negative() {
        let built = d("2026-02-27");
        assert!(is_fresh(d("2025-02-27"), built));
        assert!(!is_fresh(d("2025-02-26"), built));
        assert!(is_fresh(d("2027-01-01"), built), "a scheduled event");
        assert_eq!(age_days(d("2026-02-20"), d("2026-02-27")), 7);
        assert_eq!(age_days(d("2027-01-01"), d("2026-02-27")), 0);
    }
}
