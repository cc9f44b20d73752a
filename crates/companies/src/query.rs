//! Read-only questions the faces ask of the `Directory` beyond a single lookup: name search,
//! hub listings, statement and executive search across cards, receipt look-up, the filings
//! behind a card and coverage counts. Pure functions over the in-memory data that hand back
//! the receipted claims themselves; paging and presentation belong to the faces.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::card::{Card, Signal};
use super::directory::Directory;
use super::hubs;
use super::seed::{Executive, Subsidiary};
use crate::domain::{Claim, Receipt, SignalKind};

/// Shortest quote `find_receipts` looks for: shorter fragments match too much to prove anything.
pub const MIN_QUOTE_LEN: usize = 12;

/// A CIK from 1–10 digits, zero-padded to the registry's ten.
pub fn parse_cik(input: &str) -> Option<String> {
    let digits = input.trim().trim_start_matches("CIK").trim_start_matches("cik").trim();
    let ok = !digits.is_empty() && digits.len() <= 10 && digits.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| format!("{digits:0>10}"))
}

/// Companies with a card whose slug, ticker or name matches `query` (case-insensitive), best
/// first: exact ticker or slug, then name prefix, then a word of the name, then any substring.
pub fn search<'a>(dir: &'a Directory, query: &str) -> Vec<&'a Arc<Card>> {
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return Vec::new();
    }
    let mut hits: Vec<(u8, &Arc<Card>)> = dir
        .cards()
        .filter_map(|card| {
            let name = card.legal_name.to_lowercase();
            let rank = if card.ticker.eq_ignore_ascii_case(&q) || card.slug == q {
                0
            } else if name.starts_with(&q) {
                1
            } else if name.split(|c: char| !c.is_alphanumeric()).any(|w| w.starts_with(&q)) {
                2
            } else if name.contains(&q) || card.slug.contains(&q) {
                3
            } else {
                return None;
            };
            Some((rank, card))
        })
        .collect();
    hits.sort_by_key(|(rank, _)| *rank); // stable: slug order within a rank
    hits.into_iter().map(|(_, card)| card).collect()
}

/// The sector hub named by its slug or its name (any case), with its cards in slug order.
pub fn sector<'a>(dir: &'a Directory, key: &str) -> Option<(&'a str, Vec<&'a Card>)> {
    let key = key.trim();
    hubs::by_sector(dir.cards())
        .into_iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(key) || hubs::sector_slug(name) == key.to_lowercase())
}

/// Every sector hub with its cards.
pub fn sectors(dir: &Directory) -> BTreeMap<&str, Vec<&Card>> {
    hubs::by_sector(dir.cards())
}

/// The cards of a letter hub (`a`..`z`, or `0-9`), in slug order.
pub fn letter<'a>(dir: &'a Directory, letter: &str) -> Vec<&'a Card> {
    let letter = letter.trim().to_lowercase();
    hubs::by_letter(dir.cards()).remove(&letter).unwrap_or_default()
}

/// Which statements `statements` returns; every field narrows.
#[derive(Debug, Default, Clone, Copy)]
pub struct StatementFilter<'q> {
    /// Case-insensitive substring of the statement text.
    pub text: Option<&'q str>,
    pub kind: Option<SignalKind>,
    /// Filed on or after this YYYY-MM-DD date.
    pub since: Option<&'q str>,
}

impl StatementFilter<'_> {
    pub fn admits(&self, claim: &Claim<Signal>) -> bool {
        let text_ok = self.text.is_none_or(|t| claim.value().text.to_lowercase().contains(&t.to_lowercase()));
        let kind_ok = self.kind.is_none_or(|k| claim.value().kind == k);
        let since_ok = self.since.is_none_or(|d| claim.receipt().filed() >= d);
        text_ok && kind_ok && since_ok
    }
}

/// Statements of every card that pass `filter`, newest filing first, then slug order.
pub fn statements<'a>(dir: &'a Directory, filter: StatementFilter<'_>) -> Vec<(&'a Card, &'a Claim<Signal>)> {
    let mut out: Vec<(&Card, &Claim<Signal>)> = dir
        .cards()
        .flat_map(|card| card.why_now.iter().filter(|c| filter.admits(c)).map(move |c| (card.as_ref(), c)))
        .collect();
    out.sort_by(|a, b| b.1.receipt().filed().cmp(a.1.receipt().filed()));
    out
}

/// Executives of every card whose name or title contains `text` (case-insensitive).
pub fn executives<'a>(dir: &'a Directory, text: &str) -> Vec<(&'a Card, &'a Claim<Executive>)> {
    let t = text.trim().to_lowercase();
    dir.cards()
        .flat_map(|card| card.executives.iter().map(move |e| (card.as_ref(), e)))
        .filter(|(_, e)| e.value().name.to_lowercase().contains(&t) || e.value().title.to_lowercase().contains(&t))
        .collect()
}

/// A receipted claim of any kind.
#[derive(Debug, Clone, Copy)]
pub enum ClaimRef<'a> {
    Statement(&'a Claim<Signal>),
    Executive(&'a Claim<Executive>),
    Subsidiary(&'a Claim<Subsidiary>),
}

impl<'a> ClaimRef<'a> {
    pub fn receipt(&self) -> &'a Receipt {
        match self {
            ClaimRef::Statement(c) => c.receipt(),
            ClaimRef::Executive(c) => c.receipt(),
            ClaimRef::Subsidiary(c) => c.receipt(),
        }
    }
}

/// Every claim of a card, statements first.
pub fn claims(card: &Card) -> impl Iterator<Item = ClaimRef<'_>> {
    let statements = card.why_now.iter().map(ClaimRef::Statement);
    let people = card.executives.iter().map(ClaimRef::Executive);
    let family = card.family.subsidiaries.iter().map(ClaimRef::Subsidiary);
    statements.chain(people).chain(family)
}

/// How a quote matched a stored receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuoteMatch {
    /// The quote is the whole receipted sentence.
    Exact,
    /// The quote stands inside a receipted sentence.
    Within,
}

/// Claims whose receipt quotes `quote` (whitespace-insensitive) and, when given, points at
/// `url` or carries `accession`.
pub fn find_receipts<'a>(
    dir: &'a Directory,
    quote: &str,
    url: Option<&str>,
    accession: Option<&str>,
) -> Vec<(&'a Card, ClaimRef<'a>, QuoteMatch)> {
    let wanted = collapse(quote);
    let mut out = Vec::new();
    for card in dir.cards() {
        for claim in claims(card) {
            let r = claim.receipt();
            if url.is_some_and(|u| u.trim() != r.url()) || accession.is_some_and(|a| Some(a.trim()) != r.accession()) {
                continue;
            }
            let stored = collapse(r.quote());
            let matched = if stored == wanted {
                QuoteMatch::Exact
            } else if stored.contains(&wanted) {
                QuoteMatch::Within
            } else {
                continue;
            };
            out.push((card.as_ref(), claim, matched));
        }
    }
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One filing document behind a card, and how many of the card's claims cite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filing<'a> {
    pub url: &'a str,
    pub form: &'a str,
    pub filed: &'a str,
    /// None for a press release.
    pub accession: Option<&'a str>,
    pub claims: usize,
}

/// The distinct filing documents a card's claims cite, newest first.
pub fn filings(card: &Card) -> Vec<Filing<'_>> {
    let mut by_url: BTreeMap<&str, Filing<'_>> = BTreeMap::new();
    for claim in claims(card) {
        let r = claim.receipt();
        by_url
            .entry(r.url())
            .or_insert(Filing { url: r.url(), form: r.form(), filed: r.filed(), accession: r.accession(), claims: 0 })
            .claims += 1;
    }
    let mut out: Vec<Filing<'_>> = by_url.into_values().collect();
    out.sort_by(|a, b| b.filed.cmp(a.filed).then_with(|| a.url.cmp(b.url)));
    out
}

/// Counts over the whole data set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage<'a> {
    pub tracked: usize,
    pub with_page: usize,
    pub with_domain: usize,
    pub statements: usize,
    pub executives: usize,
    pub subsidiaries: usize,
    pub generated_at: &'a str,
    pub statements_by_kind: BTreeMap<&'static str, usize>,
    pub cards_by_exchange: BTreeMap<&'a str, usize>,
}

pub fn coverage(dir: &Directory) -> Coverage<'_> {
    let mut c = Coverage {
        tracked: dir.tracked(),
        with_page: dir.with_page(),
        with_domain: dir.companies().iter().filter(|c| c.row.domain.is_some()).count(),
        statements: 0,
        executives: 0,
        subsidiaries: 0,
        generated_at: dir.generated_at(),
        statements_by_kind: BTreeMap::new(),
        cards_by_exchange: BTreeMap::new(),
    };
    for card in dir.cards() {
        c.statements += card.why_now.len();
        c.executives += card.executives.len();
        c.subsidiaries += card.family.subsidiaries.len();
        *c.cards_by_exchange.entry(card.exchange.as_str()).or_default() += 1;
        for s in &card.why_now {
            *c.statements_by_kind.entry(s.value().kind.as_str()).or_default() += 1;
        }
    }
    c
}

/// The card's newest statement (what `/company/quotes.json` lists for it).
pub fn latest_statement(card: &Card) -> Option<&Claim<Signal>> {
    card.why_now.first()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ciks_pad_to_ten_digits_and_junk_is_refused() {
        assert_eq!(parse_cik("320193").as_deref(), Some("0000320193"));
        assert_eq!(parse_cik(" 0000320193 ").as_deref(), Some("0000320193"));
        assert_eq!(parse_cik("CIK320193").as_deref(), Some("0000320193"));
        for bad in ["", "abc", "12345678901", "32-0193"] {
            assert_eq!(parse_cik(bad), None, "{bad}");
        }
    }
}
