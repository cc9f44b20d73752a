//! Sector and letter hubs: how cards group into the browse lists of `index.json` and the MCP
//! listing tools. One definition for ingest (the keyless files) and the running server.

use std::collections::BTreeMap;

use super::card::Card;
use crate::domain::Slug;

/// The hub name of cards without a sector.
pub const UNCLASSIFIED: &str = "Unclassified";

pub fn sector_name(card: &Card) -> &str {
    card.sector.as_deref().unwrap_or(UNCLASSIFIED)
}

/// The slug of a sector hub (`Information Technology` -> `information-technology`).
pub fn sector_slug(name: &str) -> String {
    Slug::from_name(name).map(|s| s.to_string()).unwrap_or_else(|| "unclassified".into())
}

/// The letter hub a slug belongs to: its first letter, or `0-9` for a leading digit.
pub fn letter_of(slug: &str) -> String {
    match slug.chars().next() {
        Some(c) if c.is_ascii_digit() => "0-9".into(),
        Some(c) => c.to_string(),
        None => "0-9".into(),
    }
}

/// Cards by sector name, sectors in name order, cards in the order given.
pub fn by_sector<'a, C: AsRef<Card> + ?Sized + 'a>(
    cards: impl IntoIterator<Item = &'a C>,
) -> BTreeMap<&'a str, Vec<&'a Card>> {
    let mut out: BTreeMap<&str, Vec<&Card>> = BTreeMap::new();
    for card in cards {
        let card = card.as_ref();
        out.entry(sector_name(card)).or_default().push(card);
    }
    out
}

/// Cards by letter hub, letters in order, cards in the order given.
pub fn by_letter<'a, C: AsRef<Card> + ?Sized + 'a>(
    cards: impl IntoIterator<Item = &'a C>,
) -> BTreeMap<String, Vec<&'a Card>> {
    let mut out: BTreeMap<String, Vec<&Card>> = BTreeMap::new();
    for card in cards {
        let card = card.as_ref();
        out.entry(letter_of(&card.slug)).or_default().push(card);
    }
    out
}
