//! Choosing which statements a company keeps. Candidates from all of a company's
//! documents are scored (`statements::assess`), lowered by 4 points per year their event
//! (the year the sentence states, else its filing's year) is older than the company's
//! newest filing, and sorted by score, then newest filing,
//! then document and position. Near-duplicates (the same words with different figures, as
//! when a sentence recurs in each year's 10-K) keep only their best copy, and so does one event
//! told in other words by several filings (same kind, same day, most words shared). Selection is
//! fresh and diverse: first the best statement of the newest year's documents, then the best
//! of each kind, then the rest in order, at most
//! `PER_KIND` per kind and `PER_COMPANY` in all. Every pick must pass the caller's verbatim
//! check; one that fails is dropped and counted.

use std::collections::{BTreeMap, BTreeSet};

use super::statements::Candidate;
use gtms_companies::domain::SignalKind;

pub const PER_COMPANY: usize = 12;
pub const PER_KIND: usize = 3;
const POINTS_PER_YEAR: i32 = 4;

/// The outcome of ranking one company's candidates.
#[derive(Debug, Default)]
pub struct Ranked {
    /// Kept candidates, most informative first.
    pub kept: Vec<Candidate>,
    /// Candidates refused by the verbatim check.
    pub dropped: usize,
}

/// Ranks and selects. `filed_of(doc)` gives the filing date of a candidate's document;
/// `verify(candidate)` is the verbatim check.
pub fn select(
    mut candidates: Vec<Candidate>,
    filed_of: impl Fn(usize) -> String,
    mut verify: impl FnMut(&Candidate) -> bool,
) -> Ranked {
    let newest_year = candidates.iter().map(|c| year(&filed_of(c.doc))).max().unwrap_or(0);
    for c in &mut candidates {
        let event_year = c.event_date.as_deref().map(year).filter(|y| *y > 0);
        let year = event_year.unwrap_or_else(|| year(&filed_of(c.doc)));
        c.score -= POINTS_PER_YEAR * (newest_year - year).max(0);
    }
    candidates.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| filed_of(b.doc).cmp(&filed_of(a.doc)))
            .then_with(|| (a.doc, a.position).cmp(&(b.doc, b.position)))
    });
    let mut seen = BTreeSet::new();
    candidates.retain(|c| seen.insert(dedupe_key(&c.quote)));
    let mut told: Vec<(SignalKind, String, BTreeSet<String>)> = Vec::new();
    candidates.retain(|c| {
        let Some(day) = c.event_date.clone().filter(|d| d.len() == 10) else { return true };
        let words = letter_words(&c.quote);
        let again = told.iter().any(|(k, d, w)| *k == c.kind && *d == day && same_telling(w, &words));
        if !again {
            told.push((c.kind, day, words));
        }
        !again
    });

    let mut ranked = Ranked::default();
    let mut per_kind: BTreeMap<SignalKind, usize> = BTreeMap::new();
    let mut taken = vec![false; candidates.len()];
    for pass in [Pass::Newest, Pass::EachKind, Pass::Rest] {
        for (i, c) in candidates.iter().enumerate() {
            if ranked.kept.len() >= PER_COMPANY {
                break;
            }
            let count = per_kind.get(&c.kind).copied().unwrap_or(0);
            let wanted = match pass {
                Pass::Newest => year(&filed_of(c.doc)) == newest_year,
                Pass::EachKind => count == 0,
                Pass::Rest => true,
            };
            if taken[i] || !wanted || count >= PER_KIND {
                continue;
            }
            taken[i] = true;
            if !verify(c) {
                ranked.dropped += 1;
                continue;
            }
            *per_kind.entry(c.kind).or_default() += 1;
            ranked.kept.push(c.clone());
            if pass == Pass::Newest {
                break;
            }
        }
    }
    ranked.kept.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| (a.doc, a.position).cmp(&(b.doc, b.position))));
    ranked
}

/// The selection passes, in order: the best statement of the newest year's documents (a card
/// always shows its latest news), the best of each kind, then the rest.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Newest,
    EachKind,
    Rest,
}

/// Letters only, lowercase, first 80: the same sentence with other figures has the same key.
pub fn dedupe_key(quote: &str) -> String {
    quote.chars().filter(|c| c.is_alphabetic()).flat_map(char::to_lowercase).take(80).collect()
}

/// Most of two sentences' words shared: with the same kind and the same day, the same event
/// told in other words ("we completed a public offering of the 2026 Notes" and "the Company
/// completed a public offering of 4.875% notes due 2026", each from another filing). Two
/// appointments made the same day in one template share about half their words and stay apart.
const SAME_TELLING: f64 = 0.7;

fn same_telling(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    let shared = a.intersection(b).count() as f64;
    let all = a.union(b).count() as f64;
    all > 0.0 && shared / all >= SAME_TELLING
}

fn letter_words(quote: &str) -> BTreeSet<String> {
    quote.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

fn year(filed: &str) -> i32 {
    filed.get(..4).and_then(|y| y.parse().ok()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(kind: SignalKind, quote: &str, score: i32, doc: usize) -> Candidate {
        Candidate { kind, quote: quote.into(), score, event_date: None, doc, position: 0 }
    }

    fn filed(doc: usize) -> String {
        ["2023-02-01", "2021-02-01"].get(doc).copied().unwrap_or("2020-01-01").to_owned()
    }

    #[test]
    fn near_duplicates_keep_the_newest_copy() {
        let c = vec![
            cand(SignalKind::Hiring, "We had 900 employees.", 80, 1),
            cand(SignalKind::Hiring, "We had 1,000 employees.", 80, 0),
        ];
        let r = select(c, filed, |_| true);
        assert_eq!(r.kept.len(), 1);
        assert_eq!(r.kept[0].quote, "We had 1,000 employees.");
    }

    #[test]
    fn one_event_told_in_other_words_on_the_same_day_is_kept_once() {
        let dated = |quote: &str, day: &str, score: i32| Candidate {
            event_date: Some(day.into()),
            ..cand(SignalKind::CapitalRaise, quote, score, 0)
        };
        let c = vec![
            dated(
                "On October 20, 2021, we completed a public offering of the 2026 Notes in the aggregate principal amount of $40.25 million, which included the full exercise of the underwriters overallotment option.",
                "2021-10-20",
                90,
            ),
            dated(
                "On October 20, 2021, the Company completed a public offering of 4.875% notes due 2026 in the aggregate principal amount of $40,250,000 (the 2026 Notes), which included the full exercise of the underwriters overallotment option.",
                "2021-10-20",
                80,
            ),
            Candidate {
                kind: SignalKind::LeadershipChange,
                ..dated(
                    "On March 1, 2024, the Board of Directors appointed John Smith as Chief Financial Officer of the Company, effective immediately.",
                    "2024-03-01",
                    70,
                )
            },
            Candidate {
                kind: SignalKind::LeadershipChange,
                ..dated(
                    "On March 1, 2024, the Board of Directors appointed Jane Doe as a director of the Company, effective immediately.",
                    "2024-03-01",
                    60,
                )
            },
        ];
        let r = select(c, filed, |_| true);
        let quotes: Vec<&str> = r.kept.iter().map(|k| k.quote.as_str()).collect();
        assert_eq!(quotes.len(), 3, "{quotes:?}");
        assert!(quotes[0].contains("$40.25 million"));
        assert!(quotes.iter().any(|q| q.contains("Jane Doe")) && quotes.iter().any(|q| q.contains("John Smith")));
    }

    #[test]
    fn every_kind_gets_its_best_statement_before_any_kind_gets_a_second() {
        let mut c: Vec<Candidate> = (0..20)
            .map(|i| cand(SignalKind::Acquisition, &format!("acq {}", "x".repeat(i)), 200 - i as i32, 0))
            .collect();
        c.push(cand(SignalKind::Risk, "risk one", 10, 0));
        let r = select(c, filed, |_| true);
        assert!(r.kept.iter().any(|k| k.kind == SignalKind::Risk));
        assert_eq!(r.kept.iter().filter(|k| k.kind == SignalKind::Acquisition).count(), PER_KIND);
    }

    #[test]
    fn a_candidate_failing_verification_is_dropped_and_counted() {
        let c = vec![
            cand(SignalKind::Product, "We launched X.", 90, 0),
            cand(SignalKind::Product, "We launched Y.", 80, 0),
        ];
        let r = select(c, filed, |c| c.quote != "We launched X.");
        assert_eq!(r.dropped, 1);
        assert_eq!(r.kept.len(), 1);
        assert_eq!(r.kept[0].quote, "We launched Y.");
    }

    #[test]
    fn the_newest_years_best_statement_is_kept_even_when_older_ones_fill_the_card() {
        let mut c: Vec<Candidate> = [SignalKind::Acquisition, SignalKind::Product, SignalKind::Dividend]
            .iter()
            .flat_map(|&k| (0..5).map(move |i| cand(k, &format!("{k:?} old {}", "x".repeat(i)), 300 - i as i32, 1)))
            .collect();
        c.push(cand(SignalKind::Acquisition, "Fresh but weak news.", 10, 0));
        let r = select(c, filed, |_| true);
        assert_eq!(r.kept.len(), 3 * PER_KIND);
        assert!(r.kept.iter().any(|k| k.quote == "Fresh but weak news."));
    }

    #[test]
    fn older_filings_lose_points() {
        let c = vec![
            cand(SignalKind::Product, "Old launch news.", 90, 1),
            cand(SignalKind::Product, "New launch news.", 85, 0),
        ];
        let r = select(c, filed, |_| true);
        assert_eq!(r.kept[0].quote, "New launch news.");
    }
}
