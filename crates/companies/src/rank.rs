//! How a card's why-now signals rank: kind weight × recency as of the data's newest filing,
//! recency counted from each signal's as-of date (its event date, else its filing date;
//! `freshness`). Enrichment answers the best one; the company tools list them in this order.

use chrono::NaiveDate;

use super::card::{Card, Signal};
use crate::domain::Claim;

/// Half-life of a signal's relevance, in days.
const RECENCY_HALF_LIFE_DAYS: f64 = 365.0;

/// The position in `why_now` of the card's best signal as of `as_of`, with its score.
pub fn best_index(card: &Card, as_of: &str) -> Option<(usize, f64)> {
    let (best, score) = ranked_signals(card, as_of).into_iter().next()?;
    let index = card.why_now.iter().position(|c| std::ptr::eq(c, best))?;
    Some((index, score))
}

/// Every signal of a card with its score, best first: higher score, then the newer filing,
/// then card order (the sort is stable).
pub fn ranked_signals<'a>(card: &'a Card, as_of: &str) -> Vec<(&'a Claim<Signal>, f64)> {
    let as_of = NaiveDate::parse_from_str(as_of, "%Y-%m-%d").ok();
    let mut ranked: Vec<(&Claim<Signal>, f64)> = card.why_now.iter().map(|c| (c, score(c, as_of))).collect();
    ranked.sort_by(|(a, sa), (b, sb)| sb.total_cmp(sa).then_with(|| b.receipt().filed().cmp(a.receipt().filed())));
    ranked
}

/// Kind weight × recency, rounded to four decimals.
pub fn score(claim: &Claim<Signal>, as_of: Option<NaiveDate>) -> f64 {
    let weight = f64::from(claim.value().kind.weight()) / 100.0;
    let dated = NaiveDate::parse_from_str(&claim.value().as_of, "%Y-%m-%d").ok();
    let age_days = match (as_of, dated) {
        (Some(a), Some(f)) => (a - f).num_days().max(0) as f64,
        _ => 0.0,
    };
    let recency = 0.5f64.powf(age_days / RECENCY_HALF_LIFE_DAYS);
    (weight * recency * 10_000.0).round() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Receipt, SignalKind};

    fn claim(kind: SignalKind, filed: &str) -> Claim<Signal> {
        let receipt = Receipt::new("q", "https://www.sec.gov/Archives/edgar/data/1/x.htm", "10-K", filed, "a");
        let (filed, as_of) = (filed.to_owned(), filed.to_owned());
        Claim::new(Signal { kind, text: "q".into(), event_date: None, filed, as_of, fresh: true }, receipt.unwrap())
    }

    #[test]
    fn weight_and_recency_combine() {
        let as_of = NaiveDate::from_ymd_opt(2024, 1, 1);
        assert_eq!(score(&claim(SignalKind::Acquisition, "2024-01-01"), as_of), 1.0);
        assert_eq!(score(&claim(SignalKind::Acquisition, "2023-01-01"), as_of), 0.5);
        assert!(
            score(&claim(SignalKind::Risk, "2024-01-01"), as_of)
                < score(&claim(SignalKind::Expansion, "2023-06-01"), as_of)
        );
    }
}
