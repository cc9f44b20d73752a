//! Company press releases (`fresh/press/press_releases.jsonl.gz`, CC0): the second kind of
//! record a claim may come from. Each release has its issuer's CIK, its own address and its
//! publication date; its text becomes lines like a filing's, and a statement found in it is
//! receipted by that address and date (`Receipt::press_release`), its quote checked against
//! the release text like any quote. The archive replaced e-mail addresses and phone numbers
//! with markers; a line holding a marker is a contact block and is dropped whole, and the
//! contact scanner still runs over every sentence.

use std::collections::BTreeMap;
use std::path::Path;

use super::ExtractError;
use super::documents::DocText;
use super::manifest::read_gz;
use super::registry::normalise_cik;
use super::text::text_to_lines;

pub const RELEASES_FILE: &str = "fresh/press/press_releases.jsonl.gz";

/// What the archive put where it removed contact details.
const CONTACT_MARKERS: [&str; 2] = ["[email removed]", "[phone removed]"];

/// One release as the archive gives it.
#[derive(Debug, Clone, serde::Deserialize)]
struct Raw {
    url: String,
    published: String,
    cik: String,
    text: String,
}

/// One press release of a company: its own address, its publication date and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    pub url: String,
    pub published: String,
    pub text: DocText,
}

/// The releases by issuer CIK (zero-padded), in file order; none when the file is absent.
/// A release without an https address or a `YYYY-MM-DD` date cannot back a receipt and is
/// skipped.
pub fn read_releases(data_dir: &Path) -> Result<BTreeMap<String, Vec<Release>>, ExtractError> {
    let path = data_dir.join(RELEASES_FILE);
    let mut by_cik: BTreeMap<String, Vec<Release>> = BTreeMap::new();
    if !path.exists() {
        return Ok(by_cik);
    }
    let bytes = read_gz(&path)?;
    for line in String::from_utf8_lossy(&bytes).lines().filter(|l| !l.trim().is_empty()) {
        let raw: Raw = serde_json::from_str(line).map_err(|e| ExtractError::json(&path, e))?;
        let Some(cik) = normalise_cik(&raw.cik) else { continue };
        if !raw.url.starts_with("https://") || !is_date(&raw.published) {
            continue;
        }
        by_cik.entry(cik).or_default().push(release(raw));
    }
    Ok(by_cik)
}

fn release(raw: Raw) -> Release {
    let lines =
        text_to_lines(&raw.text).into_iter().filter(|l| !CONTACT_MARKERS.iter().any(|m| l.contains(m))).collect();
    Release { url: raw.url, published: raw.published, text: DocText::from_lines(lines) }
}

/// The word that names the issuer in one of its releases: the legal name's word where the
/// release uses it, otherwise a ticker of three letters or more that the release writes in
/// capitals as a word of its own ("AMG, a strategic partner to …, today announced …": Affiliated
/// Managers Group calls itself by its ticker). Lowercase, like `name_word`.
pub fn issuer_word(text: &DocText, name_word: Option<&str>, tickers: &[String]) -> Option<String> {
    let uses = |word: &str, exact: bool| {
        text.normalised
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| if exact { w == word } else { w.eq_ignore_ascii_case(word) })
    };
    if let Some(name) = name_word.filter(|n| uses(n, false)) {
        return Some(name.to_owned());
    }
    tickers
        .iter()
        .find(|t| t.len() >= 3 && t.bytes().all(|b| b.is_ascii_uppercase()) && uses(t, true))
        .map(|t| t.to_lowercase())
        .or_else(|| name_word.map(str::to_owned))
}

/// How far into a release's first sentence its dateline may reach.
const DATELINE_REACH: usize = 200;

/// Most bytes between the wire service's name and the dash that ends the dateline.
const WIRE_TO_DASH: usize = 20;

/// A release's lead sentence without its dateline: "MINNEAPOLIS–(BUSINESS WIRE)–Donaldson
/// Company … today announced …" starts at "Donaldson". The dateline (a place, a date and the
/// wire service) ends at a dash at most `WIRE_TO_DASH` bytes after the wire's name ("BUSINESS
/// WIRE)–", "/PRNewswire/ —", "(NEWMEDIAWIRE) -"), within `DATELINE_REACH` bytes, with no
/// bracket opened between them; what follows must start with a capital. Any other sentence
/// comes back whole. The result is a slice of the sentence, so a quote cut from it is verbatim.
pub fn after_dateline(sentence: &str) -> &str {
    let head = &sentence.as_bytes()[..sentence.floor_char_boundary(DATELINE_REACH)];
    let Some(wire) = head.windows(4).position(|w| w.eq_ignore_ascii_case(b"wire")) else {
        return sentence;
    };
    let rest = &sentence[wire + 4..];
    let Some((at, dash)) = rest.char_indices().find(|&(_, c)| matches!(c, '-' | '\u{2013}' | '\u{2014}')) else {
        return sentence;
    };
    let body = rest[at + dash.len_utf8()..].trim_start();
    let ends_dateline = at <= WIRE_TO_DASH && !rest[..at].contains('(');
    if ends_dateline && body.starts_with(char::is_uppercase) { body } else { sentence }
}

fn is_date(s: &str) -> bool {
    s.len() == 10 && s.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Raw {
        Raw {
            url: "https://www.newmediawire.com/news/geovax-reports-results".into(),
            published: "2025-03-20".into(),
            cik: "1027183".into(),
            text: text.into(),
        }
    }

    #[test]
    fn a_release_that_calls_its_issuer_by_the_ticker_is_read_with_the_ticker_as_its_name() {
        let tickers = vec!["AMG".to_owned(), "MGR".to_owned()];
        let amg = release(raw(
            "WEST PALM BEACH, Fla., June 03, 2025 (GLOBE NEWSWIRE) \u{2014} AMG, a strategic partner to leading independent investment management firms globally, today announced the appointment of Thomas M. Wojcik as President, effective June 3, 2025.",
        ));
        assert_eq!(issuer_word(&amg.text, Some("affiliated"), &tickers).as_deref(), Some("amg"));
        let named = release(raw("Affiliated Managers Group, Inc. (NYSE: AMG) today announced its results."));
        assert_eq!(issuer_word(&named.text, Some("affiliated"), &tickers).as_deref(), Some("affiliated"));
        // A ticker met only in lowercase prose ("mgr") or under three letters is no name.
        let plain = release(raw("The mgr of the fund said so today."));
        assert_eq!(issuer_word(&plain.text, Some("affiliated"), &tickers).as_deref(), Some("affiliated"));
        assert_eq!(issuer_word(&plain.text, None, &["ON".to_owned()]), None);
    }

    #[test]
    fn contact_blocks_are_dropped_and_the_rest_keeps_its_lines() {
        let r = release(raw(
            "ATLANTA, GA - GeoVax Labs, Inc. (Nasdaq: GOVX) announced today that it received a BARDA award.\n\nMedia Contact: Jane Roe [email removed] [phone removed]\n\nAbout GeoVax\nGeoVax is a biotechnology company.",
        ));
        assert!(r.text.lines.iter().all(|l| !l.contains("removed")), "{:?}", r.text.lines);
        assert!(r.text.contains_verbatim(
            "ATLANTA, GA - GeoVax Labs, Inc. (Nasdaq: GOVX) announced today that it received a BARDA award."
        ));
        assert!(!r.text.contains_verbatim("GeoVax Labs announced a merger."));
    }

    /// Real lead sentences of the archive: the dateline goes, the news stays verbatim.
    #[test]
    fn a_lead_sentence_loses_its_dateline() {
        for (lead, body) in [
            (
                "MINNEAPOLIS\u{2013}(BUSINESS WIRE)\u{2013}Donaldson Company, a leading worldwide provider of innovative filtration products and solutions, today announced the appointment of Richard Lewis as chief operating officer, effective August 1, 2025.",
                "Donaldson Company, a leading",
            ),
            (
                "CASTLE ROCK, Colo., June 2, 2025 /PRNewswire/ \u{2014} Riot Platforms, a Bitcoin-driven industry leader, today announced the hiring of Jonathan Gibbs.",
                "Riot Platforms, a Bitcoin-driven",
            ),
            (
                "ATLANTA, GA - March 24, 2025 (NEWMEDIAWIRE) - GeoVax Labs, Inc. (Nasdaq: GOVX) today announced that it has entered into a securities purchase agreement.",
                "GeoVax Labs, Inc. (Nasdaq: GOVX)",
            ),
        ] {
            let cut = after_dateline(lead);
            assert!(cut.starts_with(body) && lead.ends_with(cut), "{cut}");
        }
        let plain =
            "Verizon today announced the launch of the new Gizmo Watch 4, expanding the Verizon Family ecosystem.";
        assert_eq!(after_dateline(plain), plain);
        let quote = "The company\u{2019}s wireless network \u{2013} the largest in the country \u{2013} grew.";
        assert_eq!(after_dateline(quote), quote, "a dash after another word with 'wire' in it");
        let bracketed = "CUPERTINO, Calif., May 07, 2026 \u{2013} PRISM MediaWire (Press Release Service \u{2013} Press Release Distribution) \u{2013} Aemetis, Inc. today announced results.";
        assert_eq!(after_dateline(bracketed), bracketed, "no cut inside the wire's own brackets");
    }

    #[test]
    fn releases_without_an_https_address_or_a_date_are_skipped() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join(RELEASES_FILE);
        std::fs::create_dir_all(file.parent().unwrap_or(dir.path())).unwrap_or_else(|e| panic!("{e}"));
        let lines = [
            r#"{"url": "https://example.com/a", "published": "2025-01-02", "cik": "0000001800", "text": "A."}"#,
            r#"{"url": "http://example.com/b", "published": "2025-01-02", "cik": "1800", "text": "B."}"#,
            r#"{"url": "https://example.com/c", "published": "January 2025", "cik": "1800", "text": "C."}"#,
        ];
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, lines.join("\n").as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&file, gz.finish().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
        let by_cik = read_releases(dir.path()).unwrap_or_default();
        let urls: Vec<&str> = by_cik.values().flatten().map(|r| r.url.as_str()).collect();
        assert_eq!(urls, vec!["https://example.com/a"]);
        assert!(by_cik.contains_key("0000001800"));
    }
}
