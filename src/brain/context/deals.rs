//! Deals in the Brain's context: the ones the question names (by id, account name or company
//! slug), then the best open ones (the deal index's ranking), and for each a few of its
//! company's receipted signals with their age. Neither reads every deal: the named ones are
//! looked for only among the deals the index files under a word of the question, the ranked
//! ones are the head of its open set. One line per deal:
//! `- [deal:<id>] <account> · <stage> · $<value> · close <date> · <p>% · rep <rep> · next <step> · company <slug>`;
//! a signal line names its deal: `- [<legal name>, <form> filed <date>: <url>] deal:<id> · <n> days old · <text>`.

use std::collections::HashSet;
use std::sync::Arc;

use super::section;
use super::workspace::bullet;
use crate::companies::card::Card;
use crate::domain::{clip, name_words, usd};
use crate::store::{DealRecord, DealRow, Store};

/// Open deals shown best first.
pub const RANKED_DEALS: usize = 8;
/// Deals the question names, at most.
const NAMED_DEALS: usize = 3;
/// Deals looked at for a name, at most (the ones filed under the question's words).
const NAME_CANDIDATES: usize = 10_000;
/// Signals shown per deal's company.
const SIGNALS_PER_DEAL: usize = 2;
const SIGNAL_CHARS: usize = 300;
/// First words too common to name an account alone.
const GENERIC: [&str; 16] = [
    "american",
    "general",
    "first",
    "national",
    "united",
    "international",
    "global",
    "capital",
    "financial",
    "energy",
    "health",
    "systems",
    "solutions",
    "services",
    "resources",
    "technologies",
];

/// The name words of `text` (`domain::name_words`: lower case, apostrophes dropped, every other
/// run of non-alphanumerics a break), one space apart and padded with a space on each side (so
/// `contains(" x ")` matches whole words).
pub fn normalize(text: &str) -> String {
    let words = name_words(text);
    if words.is_empty() { " ".to_owned() } else { format!(" {} ", words.join(" ")) }
}

/// The words of an account's name without its legal suffixes and state tags.
fn core_words(account: &str) -> Vec<String> {
    normalize(&crate::companies::names::base_name(account)).split_whitespace().map(str::to_owned).collect()
}

/// Whether `asked` (the question as typed) names `deal`: its id, its account's name, its company
/// slug, or its account's first word when that is distinctive (five letters or more, not
/// generic) and written as a name, capitalised ("How is Focus doing?" names Focus Universal;
/// "which deals should we focus on?" does not).
/// `question` is `asked` normalized (once per question, not once per deal).
fn names(asked: &str, question: &str, deal: &DealRow) -> bool {
    let phrase = |words: &[String]| !words.is_empty() && question.contains(&format!(" {} ", words.join(" ")));
    let capitalised = |word: &str| {
        asked
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case(word) && w.starts_with(|c: char| c.is_uppercase()))
    };
    let core = core_words(&deal.account_name);
    let slug: Vec<String> = deal.company_slug.iter().flat_map(|s| s.split('-')).map(str::to_owned).collect();
    question.contains(&normalize(&deal.id))
        || phrase(&core)
        || phrase(&slug)
        || core.first().is_some_and(|w| {
            w.len() >= 5 && !GENERIC.contains(&w.as_str()) && phrase(std::slice::from_ref(w)) && capitalised(w)
        })
}

/// The ids of the deals `question` names (any stage, in id order, at most `NAMED_DEALS`), from
/// the deal index: a deal named by its id, account or slug is filed under a word the question
/// holds, so only those deals are looked at.
pub fn named(question: &str, store: &Store) -> Vec<Arc<str>> {
    let normalized = normalize(question);
    let words: Vec<String> = normalized.split_whitespace().map(str::to_owned).collect();
    let candidates = store.deals_named_by(&words, NAME_CANDIDATES);
    candidates.into_iter().filter(|d| names(question, &normalized, d)).take(NAMED_DEALS).map(|d| d.id).collect()
}

fn deal_line(d: &DealRecord) -> String {
    format!(
        "{} · {} · {} · close {} · {}% · rep {} · next {} · company {}",
        d.account_name,
        d.stage.as_str(),
        usd(d.value),
        d.close_date,
        d.probability,
        d.rep,
        clip(&d.next_step.replace('\n', " "), 160),
        d.company_slug.as_deref().unwrap_or("-"),
    )
}

/// `<n> days old` from `filed` to `now_ms`.
pub(super) fn age(filed: &str, now_ms: i64) -> String {
    age_days(filed, now_ms).map_or_else(|| "age unknown".to_owned(), |n| format!("{n} days old"))
}

/// Days from `filed` (`YYYY-MM-DD`) to `now_ms`; none when it does not parse.
fn age_days(filed: &str, now_ms: i64) -> Option<i64> {
    let filed = chrono::NaiveDate::parse_from_str(filed, "%Y-%m-%d").ok()?;
    let today = chrono::DateTime::from_timestamp_millis(now_ms)?.date_naive();
    Some((today - filed).num_days())
}

/// The context lines of the named and ranked deals and of their companies' signals.
pub fn deal_lines<'c>(
    out: &mut String,
    citations: &mut Vec<String>,
    (named, ranked): (&[DealRecord], &[DealRecord]),
    card_of: &(dyn Fn(&str) -> Option<&'c Card> + Sync),
    now_ms: i64,
) {
    if !named.is_empty() {
        out.push_str(&format!("\n## {}\n", section::NAMED_DEALS));
        for d in named {
            bullet(out, citations, format!("deal:{}", d.id), &deal_line(d));
        }
    }
    out.push_str(&format!("\n## {} to work first (later stage, sooner close, larger value)\n", section::OPEN_DEALS));
    if ranked.is_empty() {
        out.push_str("(no open deals)\n");
    }
    for d in ranked {
        bullet(out, citations, format!("deal:{}", d.id), &deal_line(d));
    }
    let mut seen = HashSet::new();
    let with_cards: Vec<(&DealRecord, &Card)> = named
        .iter()
        .chain(ranked)
        .filter(|d| seen.insert(d.id.as_str()))
        .filter_map(|d| d.company_slug.as_deref().and_then(card_of).map(|c| (d, c)))
        .collect();
    if with_cards.is_empty() {
        return;
    }
    out.push_str(&format!("\n## {} of these deals' accounts (receipted filing sentences)\n", section::SIGNALS));
    for (d, card) in with_cards {
        for claim in card.why_now.iter().take(SIGNALS_PER_DEAL) {
            let r = claim.receipt();
            let age = age(r.filed(), now_ms);
            let cite = format!("{}, {} filed {}: {}", card.legal_name, r.form(), r.filed(), r.url());
            let text = format!("deal:{} · {age} · {}", d.id, clip(&claim.value().text, SIGNAL_CHARS));
            bullet(out, citations, cite, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deal(id: &str, account: &str, slug: Option<&str>) -> DealRecord {
        let json = serde_json::json!({
            "id": id, "account_name": account, "company_slug": slug, "value": 1000, "stage": "proposal",
            "deal_type": "new-business", "rep": "r", "champion": "c", "champion_status": "engaged",
            "close_date": "2026-12-01", "probability": 60, "next_step": "n", "history": [], "external_id": null
        });
        serde_json::from_value(json).expect("deal")
    }

    #[test]
    fn a_deal_is_named_by_id_account_slug_or_a_distinctive_first_word() {
        let named = |asked: &str, deal: &DealRecord| names(asked, &normalize(asked), &DealRow::from(deal));
        let griffon = deal("deal-001", "GRIFFON CORP", Some("griffon"));
        let lowes = deal("deal-043", "LOWES COMPANIES INC", Some("lowes"));
        let adp = deal("deal-084", "AUTOMATIC DATA PROCESSING INC", Some("automatic-data-processing"));
        let general = deal("deal-009", "GENERAL DYNAMICS CORP", None);
        let focus = deal("deal-128", "FOCUS UNIVERSAL INC.", Some("focus-universal"));
        assert!(named("Summary of the GRIFFON CORP deal", &griffon));
        assert!(named("Tell me about the Lowe's deal", &lowes));
        assert!(named("What is the status of deal-084?", &adp));
        assert!(named("How is Automatic Data Processing doing?", &adp));
        assert!(!named("What is the pipeline status?", &griffon));
        assert!(!named("In general, what should I do?", &general));
        assert!(!named("deal-0011", &griffon), "ids match whole");
        assert!(named("How is Focus doing?", &focus) && named("how is focus universal doing?", &focus));
        assert!(!named("Which deals should we focus on?", &focus), "a common word in lowercase is no name");
    }

    #[test]
    fn ages_are_whole_days_to_the_clock() {
        let now = chrono::NaiveDate::from_ymd_opt(2026, 11, 26).and_then(|d| d.and_hms_opt(12, 0, 0));
        let now_ms = now.map(|t| t.and_utc().timestamp_millis()).unwrap_or_default();
        assert_eq!(age_days("2026-11-20", now_ms), Some(6));
        assert_eq!(age_days("not a date", now_ms), None);
    }
}
