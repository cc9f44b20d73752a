//! Consumption view, per account with a commit, as of the newest usage day in the data:
//! - EBAM (expected billing at month end) = month-to-date usage + daily run-rate × days left
//!   in the month after the as-of day; the daily run-rate is the mean of the trailing 7 days;
//! - EAR (expected annual revenue) = trailing 30-day usage × 365 / 30;
//! - headroom = annual commit − EAR (negative is overage).
//!
//! Arithmetic is in integer cents; each division rounds half away from zero, once.

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use super::{MetricsData, View, money};
use crate::store::AccountRecord;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccountForecast {
    pub month_to_date_cents: i64,
    pub daily_run_rate_cents: i64,
    pub days_left: i64,
    pub ebam_cents: i64,
    pub ear_cents: i64,
    pub headroom_cents: i64,
}

/// `n / d` rounded half away from zero (d > 0).
fn div_round(n: i64, d: i64) -> i64 {
    if n >= 0 { (2 * n + d) / (2 * d) } else { -((-2 * n + d) / (2 * d)) }
}

fn date(s: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

fn days_in_month(d: NaiveDate) -> i64 {
    let (y, m) = (d.year(), d.month());
    let next = if m == 12 { NaiveDate::from_ymd_opt(y + 1, 1, 1) } else { NaiveDate::from_ymd_opt(y, m + 1, 1) };
    next.and_then(|n| NaiveDate::from_ymd_opt(y, m, 1).map(|f| (n - f).num_days())).unwrap_or(30)
}

/// The forecast of one account as of `as_of` (usage after it is ignored).
pub fn forecast_account(account: &AccountRecord, commit_cents: i64, as_of: NaiveDate) -> AccountForecast {
    let in_window = |days: i64| {
        account
            .daily_usage
            .iter()
            .filter_map(|(d, c)| date(d).map(|d| (d, *c)))
            .filter(|(d, _)| *d <= as_of && (as_of - *d).num_days() < days)
            .map(|(_, c)| c)
            .sum::<i64>()
    };
    let month_to_date: i64 = account
        .daily_usage
        .iter()
        .filter_map(|(d, c)| date(d).map(|d| (d, *c)))
        .filter(|(d, _)| *d <= as_of && d.year() == as_of.year() && d.month() == as_of.month())
        .map(|(_, c)| c)
        .sum();
    let trailing7 = in_window(7);
    let days_left = days_in_month(as_of) - i64::from(as_of.day());
    let ebam = month_to_date + div_round(trailing7 * days_left, 7);
    let ear = div_round(in_window(30) * 365, 30);
    AccountForecast {
        month_to_date_cents: month_to_date,
        daily_run_rate_cents: div_round(trailing7, 7),
        days_left,
        ebam_cents: ebam,
        ear_cents: ear,
        headroom_cents: commit_cents - ear,
    }
}

/// One account with a commit: the forecast in USD (cents as decimals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountConsumption {
    pub account_id: String,
    pub name: String,
    pub company_slug: Option<String>,
    pub annual_commit: f64,
    pub month_to_date: f64,
    pub daily_run_rate: f64,
    pub days_left: i64,
    pub ebam: f64,
    pub ear: f64,
    pub headroom: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsumptionView {
    /// The newest usage day in the data (`YYYY-MM-DD`); null without usage.
    pub as_of: Option<String>,
    pub accounts: Vec<AccountConsumption>,
}

impl View for ConsumptionView {
    const NAME: &'static str = "consumption";

    fn compute(data: &MetricsData) -> Self {
        let as_of = data.accounts.iter().flat_map(|a| a.daily_usage.iter().filter_map(|(d, _)| date(d))).max();
        let Some(as_of) = as_of else { return ConsumptionView { as_of: None, accounts: vec![] } };
        let accounts = data
            .accounts
            .iter()
            .filter_map(|a| a.annual_commit_cents.map(|c| (a, c)))
            .map(|(a, commit)| {
                let f = forecast_account(a, commit, as_of);
                AccountConsumption {
                    account_id: a.id.clone(),
                    name: a.name.clone(),
                    company_slug: a.company_slug.clone(),
                    annual_commit: money(commit),
                    month_to_date: money(f.month_to_date_cents),
                    daily_run_rate: money(f.daily_run_rate_cents),
                    days_left: f.days_left,
                    ebam: money(f.ebam_cents),
                    ear: money(f.ear_cents),
                    headroom: money(f.headroom_cents),
                }
            })
            .collect();
        ConsumptionView { as_of: Some(as_of.format("%Y-%m-%d").to_string()), accounts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small fixed data set, checked to the cent by hand.
    #[test]
    fn ebam_ear_and_headroom_follow_the_definitions() {
        // 31 days, 2026-10-20 .. 2026-11-19: 100.00 a day, except the last 7 days at 200.00.
        let mut usage = Vec::new();
        for k in 0..31 {
            let d = NaiveDate::from_ymd_opt(2026, 10, 20).unwrap_or_default() + chrono::Duration::days(k);
            let cents = if k >= 24 { 20_000 } else { 10_000 };
            usage.push((d.format("%Y-%m-%d").to_string(), cents));
        }
        let account = AccountRecord {
            id: "a".into(),
            name: "A".into(),
            company_slug: None,
            annual_commit_cents: Some(5_000_000),
            daily_usage: usage,
        };
        let as_of = NaiveDate::from_ymd_opt(2026, 11, 19).unwrap_or_default();
        let f = forecast_account(&account, 5_000_000, as_of);
        // November 1..19: 12 days at 100 (Nov 1..12) + 7 days at 200 (Nov 13..19) = 2,600.00
        assert_eq!(f.month_to_date_cents, 260_000);
        assert_eq!(f.daily_run_rate_cents, 20_000);
        assert_eq!(f.days_left, 11);
        // EBAM = 2,600.00 + 200.00 × 11 = 4,800.00
        assert_eq!(f.ebam_cents, 480_000);
        // Trailing 30 days (Oct 21 .. Nov 19): 23 × 100 + 7 × 200 = 3,700.00; × 365/30 = 45,016.666… -> 45,016.67
        assert_eq!(f.ear_cents, 4_501_667);
        // Headroom = 50,000.00 − 45,016.67 = 4,983.33
        assert_eq!(f.headroom_cents, 498_333);
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(div_round(5, 2), 3);
        assert_eq!(div_round(-5, 2), -3);
        assert_eq!(div_round(4, 3), 1);
    }
}
