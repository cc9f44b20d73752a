//! Small values that parse once: `Percent` (an integer 0–100) and `CalendarDate` (exactly
//! `YYYY-MM-DD`, a real date, years 1900–9999). Both deserialize through their parser, so a
//! request body that holds one is valid once it is parsed.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, schemars::JsonSchema)]
#[schemars(transparent)]
pub struct Percent(#[schemars(range(min = 0, max = 100))] u8);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a percent is an integer from 0 to 100")]
pub struct PercentError;

impl Percent {
    pub fn new(value: u8) -> Result<Self, PercentError> {
        if value <= 100 { Ok(Self(value)) } else { Err(PercentError) }
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

/// A non-negative whole JSON number: `66` or `66.0` (JSON Schema's `integer` admits both),
/// never `66.5`, `-1` or a string.
pub fn whole_number<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Whole;
    impl serde::de::Visitor<'_> for Whole {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a non-negative whole number")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<u64, E> {
            if v.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(&v) {
                Ok(v as u64)
            } else {
                Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
            }
        }
    }
    d.deserialize_any(Whole)
}

/// `whole_number` for an optional field (use with `#[serde(default, deserialize_with)]`).
pub fn whole_number_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct Whole(u64);
    impl<'de> Deserialize<'de> for Whole {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            whole_number(d).map(Whole)
        }
    }
    Option::<Whole>::deserialize(d).map(|w| w.map(|w| w.0))
}

impl<'de> Deserialize<'de> for Percent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = whole_number(d)?;
        u8::try_from(value)
            .ok()
            .and_then(|v| Percent::new(v).ok())
            .ok_or_else(|| serde::de::Error::custom(PercentError))
    }
}

/// A calendar date written exactly `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CalendarDate(chrono::NaiveDate);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a date is written YYYY-MM-DD (a real calendar date, year 1900 to 9999)")]
pub struct DateError;

impl CalendarDate {
    pub fn parse(input: &str) -> Result<Self, DateError> {
        let b = input.as_bytes();
        let shape = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shape {
            return Err(DateError);
        }
        let date = chrono::NaiveDate::parse_from_str(input, "%Y-%m-%d").map_err(|_| DateError)?;
        if input[..4] < *"1900" {
            return Err(DateError);
        }
        Ok(Self(date))
    }

    pub fn from_naive(date: chrono::NaiveDate) -> Self {
        Self(date)
    }
}

/// Unix milliseconds as RFC 3339 UTC with milliseconds (`2026-11-22T23:59:44.123Z`).
pub fn rfc3339_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

impl fmt::Display for CalendarDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m-%d"))
    }
}

impl Serialize for CalendarDate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CalendarDate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        CalendarDate::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for CalendarDate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CalendarDate".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date", "pattern": "^(19[0-9]{2}|[2-9][0-9]{3})-[0-9]{2}-[0-9]{2}$" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_real_dates_written_exactly_parse() {
        assert_eq!(CalendarDate::parse("2027-01-31").map(|d| d.to_string()), Ok("2027-01-31".into()));
        for bad in
            ["-0001-01-01", "+2027-01-01", " 2027-01-01", "2027-01-01 ", "2027-1-01", "2027-02-30", "0999-01-01", ""]
        {
            assert_eq!(CalendarDate::parse(bad), Err(DateError), "{bad:?}");
        }
    }

    #[test]
    fn percents_stop_at_100_and_refuse_other_types() {
        assert_eq!(serde_json::from_str::<Percent>("100").map(Percent::get).ok(), Some(100));
        assert_eq!(serde_json::from_str::<Percent>("66.0").map(Percent::get).ok(), Some(66));
        for bad in ["101", "-1", "256", "50.5", "\"50\"", "null"] {
            assert!(serde_json::from_str::<Percent>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn optional_whole_numbers_take_null_integers_and_integral_floats() {
        #[derive(Debug, serde::Deserialize)]
        struct Body {
            #[serde(default, deserialize_with = "whole_number_opt")]
            n: Option<u64>,
        }
        let n = |json: &str| serde_json::from_str::<Body>(json).map(|b| b.n).ok();
        assert_eq!(n(r#"{"n": 3}"#), Some(Some(3)));
        assert_eq!(n(r#"{"n": 3.0}"#), Some(Some(3)));
        assert_eq!(n(r#"{"n": null}"#), Some(None));
        assert_eq!(n("{}"), Some(None));
        for bad in [r#"{"n": 3.5}"#, r#"{"n": -1}"#, r#"{"n": "3"}"#] {
            assert_eq!(n(bad), None, "{bad}");
        }
    }
}
